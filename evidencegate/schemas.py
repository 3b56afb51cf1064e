"""Exports the JSON Schemas of the contracts and the policy into the package data.

They are written to ``evidencegate/data/schemas/``: the one copy, which the wheel ships and
:func:`evidencegate.data.load_schema` reads. Regenerate with ``python -m evidencegate.schemas``
(``--check`` exits 1 when a file drifted).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from evidencegate import contracts
from evidencegate.critique.llm import CriticJudgement, CriticVerdicts
from evidencegate.data import data_files
from evidencegate.evals.golden import GoldenItem
from evidencegate.evals.metrics import AblationMetrics
from evidencegate.generation.llm import LLMDraft, LLMDraftV2, LLMDraftV3
from evidencegate.policy import policy_schema

__all__ = ["SCHEMA_DIR", "all_schemas", "main"]

#: Where the exporter writes: the package data's ``schemas/`` directory, on disk.
SCHEMA_DIR = Path(str(data_files() / "schemas"))

_MODELS: dict[str, type[BaseModel]] = {
    "document_version": contracts.DocumentVersion,
    "page": contracts.Page,
    "passage": contracts.Passage,
    "citation": contracts.Citation,
    "claim": contracts.Claim,
    "draft": contracts.Draft,
    "claim_verification": contracts.ClaimVerification,
    "critic_sufficiency": contracts.CriticSufficiency,
    "critic_audit": contracts.CriticAudit,
    "decision": contracts.Decision,
    "gated_answer": contracts.GatedAnswer,
    "llm_draft": LLMDraft,
    "llm_draft_v2": LLMDraftV2,
    "llm_draft_v3": LLMDraftV3,
    "critic_judgement": CriticJudgement,
    "critic_verdicts": CriticVerdicts,
    "golden_item": GoldenItem,
    "ablation_metrics": AblationMetrics,
}


def all_schemas() -> dict[str, dict[str, Any]]:
    """File name (without .schema.json) -> schema, exported from the models."""
    out: dict[str, dict[str, Any]] = {"policy": policy_schema()}
    for name, model in _MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"https://evidencegate.dev/schemas/{name}.schema.json"
        out[name] = schema
    return out


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evidencegate.schemas", description=__doc__)
    parser.add_argument("--out", type=Path, default=SCHEMA_DIR)
    parser.add_argument("--check", action="store_true", help="exit 1 when a file differs")
    args = parser.parse_args(argv)
    drifted = []
    for name, schema in all_schemas().items():
        path = args.out / f"{name}.schema.json"
        text = render(schema)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                drifted.append(str(path))
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if drifted:
        print("drifted from the models: " + ", ".join(drifted), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
