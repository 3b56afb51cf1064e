"""The LLM critic, in the architecture's two phases, each with its own prompt and schema.

Phase 1 (:meth:`LLMCritic.sufficiency`) is given the question and the evidence only: its
signature has no draft, and its prompt has no place for one. Phase 2 (:meth:`LLMCritic.audit`)
is given the drafted claims, the verifier's result for each, and the evidence. Evidence is given
as delimited blocks declared to be data. Replies are validated with jsonschema against the
schemas exported from the contracts (``critic_sufficiency`` / ``critic_audit``), plus the checks
a schema cannot state (every drafted claim judged exactly once; evidence ids that exist); one
repair call, then :class:`~evidencegate.exceptions.CriticOutputInvalid` — which the controller
turns into an abstention. The deterministic verifier still gates every claim.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from evidencegate.contracts import (
    Claim,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Passage,
)
from evidencegate.exceptions import CriticOutputInvalid, ModelOutputInvalid
from evidencegate.prompts import (
    CRITIC_AUDIT,
    CRITIC_SUFFICIENCY,
    EvidenceBlocks,
    PromptTemplate,
    evidence_blocks,
)
from evidencegate.providers.base import (
    ChatMessage,
    ChatRequest,
    ModelComponent,
    OutputSchema,
)
from evidencegate.providers.structured import Check, complete_json

__all__ = ["LLMCritic"]


# The schemas exported as schemas/critic_*.schema.json, without their $schema/$id keys (a test
# keeps them equal). Taken from the models, not from evidencegate.schemas, which imports this
# module's package and is also run as ``python -m evidencegate.schemas``.
SUFFICIENCY_SCHEMA = OutputSchema(
    name="critic_sufficiency", json_schema=CriticSufficiency.model_json_schema()
)
AUDIT_SCHEMA = OutputSchema(name="critic_audit", json_schema=CriticAudit.model_json_schema())


class LLMCritic(ModelComponent):
    """A two-phase critic over ``model``; ``component_id`` is ``provider:model``."""

    # ------------------------------------------------------------------ phase 1

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        blocks = evidence_blocks(evidence)
        data = self._ask(
            CRITIC_SUFFICIENCY,
            SUFFICIENCY_SCHEMA,
            "sufficiency",
            {"question": question, "as_of": as_of.isoformat(), "evidence": blocks.text},
            check=None,
        )
        return CriticSufficiency.model_validate(data)

    # ------------------------------------------------------------------ phase 2

    def audit(
        self,
        question: str,
        claims: Sequence[Claim],
        verifications: Sequence[ClaimVerification],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        required_facts: Sequence[str],
    ) -> CriticAudit:
        blocks = evidence_blocks(evidence)
        checked = {v.claim_id: v for v in verifications}
        drafted = [c.claim_id for c in claims]

        def judged_as_drafted(data: dict[str, Any]) -> list[str]:
            audits = data.get("claims", [])
            counts = Counter(a["claim_id"] for a in audits)
            errors = [
                f"claims: claim {cid!r} is judged {counts[cid]} times (exactly once needed)"
                for cid in drafted
                if counts[cid] != 1
            ]
            errors += [
                f"claims: {cid!r} is not a drafted claim (drafted: {', '.join(drafted) or 'none'})"
                for cid in counts
                if cid not in drafted
            ]
            errors += [
                f"claims/{i}/evidence_ids: {eid!r} is not one of the evidence ids "
                f"({blocks.describe_ids()})"
                for i, a in enumerate(audits)
                for eid in a.get("evidence_ids", [])
                if eid not in blocks.by_id
            ]
            return errors

        data = self._ask(
            CRITIC_AUDIT,
            AUDIT_SCHEMA,
            "audit",
            {
                "question": question,
                "as_of": as_of.isoformat(),
                "required_facts": "\n".join(f"- {f}" for f in required_facts) or "(none named)",
                "claims": "\n".join(
                    _claim_block(c, checked.get(c.claim_id), blocks) for c in claims
                )
                or "(no claims)",
                "evidence": blocks.text,
            },
            check=judged_as_drafted,
        )
        for audit in data.get("claims", []):
            audit["evidence_ids"] = [
                blocks.by_id[eid].passage_id for eid in audit.get("evidence_ids", [])
            ]
        return CriticAudit.model_validate(data)

    # ------------------------------------------------------------------ shared

    def _ask(
        self,
        template: PromptTemplate,
        schema: OutputSchema,
        purpose: str,
        values: dict[str, str],
        *,
        check: Check | None,
    ) -> dict[str, Any]:
        system, user = template.render(**values)
        request = ChatRequest(
            system=system,
            messages=[ChatMessage(role="user", content=user)],
            output=schema,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            metadata=template.metadata(purpose),
        )
        try:
            return complete_json(
                self.model,
                request,
                timeout_s=self.timeout_s,
                component=self.component_id,
                check=check,
            )
        except ModelOutputInvalid as exc:
            raise CriticOutputInvalid(
                f"{purpose} output invalid after one repair call: {'; '.join(exc.errors)}",
                critic=self.component_id,
                errors=exc.errors,
            ) from exc


def _claim_block(claim: Claim, check: ClaimVerification | None, blocks: EvidenceBlocks) -> str:
    """A drafted claim as data: its text, each citation's quote and the verifier's result."""
    block_of = {p.passage_id: block_id for block_id, p in blocks.by_id.items()}
    lines = [f'<claim id="{claim.claim_id}">', claim.text.replace("</claim", "<\\/claim")]
    for c in claim.citations:
        source = block_of.get(c.evidence_id or "", f"{c.doc_id}@{c.version} page {c.page}")
        lines.append(f'cites {source}: "{c.quote}"')
    if check is None:
        lines.append("verifier: not run")
    elif check.ok:
        lines.append("verifier: every quote found in the cited source")
    else:
        lines.append("verifier: rejected (" + ", ".join(r.value for r in check.reasons) + ")")
    lines.append("</claim>")
    return "\n".join(lines)
