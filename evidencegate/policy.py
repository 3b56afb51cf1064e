"""The policy: every budget, threshold and component choice of a run, in one validated object.

Policies are YAML or JSON files validated with jsonschema against ``policy.schema.json``
(exported from :class:`Policy` into the package data; a test keeps the two identical). The
shipped policies are package data (:mod:`evidencegate.data`), addressable by name. An invalid
policy raises :class:`PolicyError` naming the field and the rule it broke, before anything runs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

import jsonschema
import yaml
from pydantic import BaseModel, ConfigDict, Field

from evidencegate.canonical import canonical_json_v1, sha256_hex
from evidencegate.contracts import Authority
from evidencegate.data import read_policy
from evidencegate.exceptions import PolicyError

__all__ = [
    "BUILTIN_POLICIES",
    "DisclaimerPolicy",
    "Durability",
    "JudgesPolicy",
    "ModelEndpoint",
    "ModelPrice",
    "Policy",
    "TimeBudget",
    "load_policy",
    "policy_schema",
    "with_retrieval",
]

OnFail = Literal["abstain", "redact", "annotate"]
Retrieval = Literal["bm25", "hybrid"]
StructuredOutput = Literal["json_schema", "json_object"]
Quorum = Literal["all", "any"]
Durability = Literal["per_event", "per_run"]
NewSource = Literal["document", "page"]
"""When a trace is fsynced: after every event, or at the run's decision points and its end."""

#: Policies shipped as package data (``evidencegate/data/policies/``), addressable by name.
BUILTIN_POLICIES = ("default", "regulated-strict")


def _primary_only() -> list[Authority]:
    return ["primary"]


class _Strict(BaseModel):
    # Every number of a policy is finite: infinity or NaN would pass ``ge``/``le`` checks
    # unevenly (NaN compares false with everything) and has no canonical JSON for the hash.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class TimeBudget(_Strict):
    per_call_s: float = Field(default=30.0, gt=0, description="Timeout of one component call.")
    per_run_s: float = Field(default=120.0, gt=0, description="Wall-clock budget of one run.")


class DisclaimerPolicy(_Strict):
    """Disclaimers chosen by coverage when ``on_fail: annotate`` emits a partial answer."""

    none_at: float = Field(default=0.8, ge=0, le=1, description="Coverage >= this: no disclaimer.")
    caution_at: float = Field(default=0.6, ge=0, le=1)
    caution_text: str = "Some content may go beyond the available sources."
    insufficient_text: str = "Insufficient evidence; use with caution."


class ModelEndpoint(_Strict):
    """How to reach a language model. Keyed in ``Policy.endpoints`` by ``provider:model``
    (that model only) or ``provider`` (every model of that provider); the exact key wins."""

    base_url: str | None = Field(
        default=None, description="e.g. http://127.0.0.1:8080/v1 for a local server."
    )
    api_key_env: str | None = Field(
        default=None,
        description="Environment variable holding the API key "
        "(default ANTHROPIC_API_KEY / OPENAI_API_KEY).",
    )
    api_key_required: bool = Field(
        default=True, description="False for local servers that take no key."
    )
    family: str | None = Field(
        default=None,
        description="Provider family for require_separate_provider (default: the provider).",
    )
    structured_output: StructuredOutput = Field(
        default="json_schema",
        description="OpenAI-compatible servers: response_format json_schema, or json_object "
        "with the schema (servers that reject json_schema). Anthropic always uses tool use.",
    )
    system_role: bool = Field(
        default=True,
        description="False for chat formats without a system role (Gemma): the instructions "
        "then open the first user message instead of being dropped by the server.",
    )
    max_retries: int = Field(default=2, ge=0, le=6, description="Retries on 429, 5xx, timeout.")
    max_output_tokens: int = Field(default=2048, ge=1)
    temperature: float = Field(default=0.0, ge=0, le=2)


class JudgesPolicy(_Strict):
    """The judges stage (``evidencegate.judges``). Everything is off by default, so a policy
    without this section behaves exactly as before. Disclaimers chosen from groundedness use
    the thresholds and texts of ``disclaimers``."""

    triad: bool = Field(
        default=False, description="Judge each draft: context relevance, groundedness, answer."
    )
    judge: str = Field(
        default="rules",
        min_length=1,
        description="'rules' or a language model as 'provider:model' (not the generator's).",
    )
    routing: bool = Field(
        default=False,
        description="After a draft: not grounded -> regenerate; grounded but not answering "
        "-> follow-up retrieval; useful -> finish.",
    )
    max_regenerations: int = Field(default=1, ge=0, le=3, description="Routing's bound.")
    grounded_at: float = Field(
        default=0.8, ge=0, le=1, description="Groundedness (0-1) at which a draft is grounded."
    )
    answers_at: int = Field(
        default=2, ge=0, le=3, description="Answer relevance (0-3) at which a draft answers."
    )
    relevance: bool = Field(
        default=False,
        description="Three-level document relevance and task-adaptive knowledge combination "
        "as a retrieval stage.",
    )
    task: Literal["open", "closed", "auto"] = Field(
        default="auto", description="Task kind for the combination; auto classifies questions."
    )
    quality_retry: bool = Field(
        default=False,
        description="Quality <= quality_retry_at: regenerate once, keep the better-grounded.",
    )
    quality_retry_at: int = Field(default=2, ge=1, le=4)
    min_judgeable_words: int = Field(
        default=8, ge=1, description="Shorter answers are not retried for quality."
    )
    flag_threshold: float = Field(
        default=3.0, ge=1, le=4, description="Review score (1-4) below this flags the run."
    )
    support_threshold: float = Field(
        default=0.41, ge=0, le=1, description="Rules support judge: support below is unsupported."
    )


class ModelPrice(_Strict):
    """USD per million tokens, for the cost budget."""

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


class Policy(_Strict):
    """A run's contract. Defaults are the offline default (the shipped ``default`` policy)."""

    name: str = Field(default="default", min_length=1)
    max_passes: int = Field(
        default=1, ge=0, le=2, description="Reflection passes after the first draft (hard cap 2)."
    )
    max_followups: int = Field(default=1, ge=0, le=3, description="Follow-up retrievals allowed.")
    max_retrievals: int = Field(default=4, ge=1, le=20)
    time_budget: TimeBudget = Field(default_factory=TimeBudget)
    max_tokens: int = Field(default=200_000, ge=1, description="Model tokens per run (in + out).")
    max_cost_usd: float = Field(
        default=1.0,
        ge=0,
        description="Model cost per run, in USD. 0: no priced model may be called (unpriced "
        "models, e.g. local servers, cost nothing).",
    )
    max_model_calls: int = Field(
        default=40, ge=0, description="Model calls per run, retries and repairs included."
    )
    max_evidence_chars: int = Field(
        default=12_000, ge=500, description="Evidence characters re-injected into a model call."
    )
    top_k: int = Field(default=8, ge=1, le=100, description="Passages per retrieval.")
    new_source: NewSource = Field(
        default="document",
        description="What a follow-up retrieval must bring for the run to go on: a primary "
        "document not seen yet (document) or a primary page not seen yet (page: the statement "
        "page of a filing already read counts).",
    )
    retrieval: Retrieval = Field(
        default="bm25",
        description="bm25: BM25 with synonyms and pseudo-relevance feedback (built in); hybrid: "
        "that fused with a sentence-embedding ranking (pip install 'evidencegate[dense]').",
    )
    coverage_threshold: float = Field(
        default=1.0, ge=0, le=1, description="Required-fact coverage for the contract to be met."
    )
    on_fail: OnFail = "abstain"
    disclaimers: DisclaimerPolicy = Field(default_factory=DisclaimerPolicy)
    min_quote_chars: int = Field(default=20, ge=1, description="Shorter quotes are rejected.")
    min_support_score: float = Field(
        default=0.6, ge=0, le=1, description="Rules critic: lexical support needed for 'supported'."
    )
    allowed_authorities: list[Authority] = Field(default_factory=_primary_only, min_length=1)
    require_separate_critic: bool = True
    allow_same_model_critic: bool = False
    same_model_critic_reason: str | None = Field(
        default=None,
        description="Why the critic may be the generator's model; required with "
        "allow_same_model_critic when they are the same, and recorded in the trace.",
    )
    generator: str = Field(
        default="extractive",
        min_length=1,
        description="'extractive' or a language model as 'provider:model' "
        "(providers: anthropic, openai).",
    )
    critic: str = Field(
        default="rules",
        min_length=1,
        description="'rules' or a language model as 'provider:model'.",
    )
    critics: list[str] = Field(
        default_factory=list,
        description="Two or more critics judged together by quorum; replaces 'critic' when set.",
    )
    quorum: Quorum = Field(
        default="all", description="all: every critic must approve; any: one approval suffices."
    )
    require_separate_provider: bool = Field(
        default=False,
        description="A language-model critic must come from another provider family "
        "than a language-model generator.",
    )
    endpoints: dict[str, ModelEndpoint] = Field(
        default_factory=dict, description="Per 'provider' or 'provider:model' settings."
    )
    prices: dict[str, ModelPrice] = Field(
        default_factory=dict,
        description="Per 'provider:model' prices; required for every model while max_cost_usd > 0.",
    )
    instruction_like_evidence: Literal["refuse", "allow"] = Field(
        default="refuse",
        description="A quote in a passage with text addressed to a model (prompt injection, "
        "evidencegate.hygiene): 'refuse' fails its citation (instruction_like_text); 'allow' "
        "lets it be cited (the trace still records the flag).",
    )
    judges: JudgesPolicy = Field(
        default_factory=JudgesPolicy, description="Judges, routing, disclaimers, review queue."
    )
    trace_durability: Durability = Field(
        default="per_run",
        description="per_run: every trace line is written to the file as it happens and the "
        "file is fsynced at each decision and at the run's end (a killed process loses "
        "nothing; a power cut may lose the lines after the last decision); per_event: "
        "fsynced after every line.",
    )

    def endpoint(self, spec: str) -> ModelEndpoint:
        """The settings of ``provider:model``: its own entry, else its provider's, else defaults."""
        provider = spec.partition(":")[0]
        return self.endpoints.get(spec) or self.endpoints.get(provider) or ModelEndpoint()

    def sha256(self) -> str:
        """Content hash of the policy, recorded at run start (format-1 canonical JSON, so that
        the hashes of recorded runs and ablation reports stay comparable)."""
        return sha256_hex(canonical_json_v1(self.model_dump(mode="json")))


@cache
def policy_schema() -> dict[str, Any]:
    """The JSON Schema of :class:`Policy` (what the shipped ``policy.schema.json`` holds)."""
    schema = Policy.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://evidencegate.dev/schemas/policy.schema.json"
    return schema


def load_policy(source: str | Path | dict[str, Any] | Policy | None = None) -> Policy:
    """Load and validate a policy from a path, a builtin name, a mapping, or return the default.

    Raises PolicyError naming the file, the field and the failed rule.
    """
    if source is None:
        return Policy()
    if isinstance(source, Policy):
        return source
    if isinstance(source, dict):
        return _validate(source, origin="<dict>")
    path = Path(source)
    if not path.exists() and str(source) in BUILTIN_POLICIES:
        origin = f"<shipped policy {source}>"
        text = read_policy(str(source))
    elif path.is_file():
        origin = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise PolicyError(
                f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                f"{exc.start})",
                source=origin,
            ) from exc
        except OSError as exc:
            raise PolicyError(f"{path}: cannot read: {exc.strerror or exc}", source=origin) from exc
    else:
        raise PolicyError(
            f"policy {str(source)!r} is not a file nor a builtin name "
            f"({', '.join(BUILTIN_POLICIES)})",
            source=str(source),
        )
    try:
        loaded = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise PolicyError(f"{origin}: not valid YAML/JSON: {exc}", source=origin) from exc
    if not isinstance(loaded, dict):
        raise PolicyError(f"{origin}: a policy must be a mapping", source=origin, rule="type")
    return _validate(loaded, origin=origin)


def with_retrieval(policy: Policy, retrieval: str) -> Policy:
    """``policy`` with ``retrieval`` set (``--retriever``); PolicyError for an unknown one."""
    known = get_args(Retrieval)
    if retrieval not in known:
        raise PolicyError(
            f"retriever {retrieval!r} is not one of {', '.join(known)}",
            field="retrieval",
            rule="enum",
        )
    return policy.model_copy(update={"retrieval": retrieval})


def _validate(data: dict[str, Any], *, origin: str) -> Policy:
    for field, value in _non_finite(data, ()):
        raise PolicyError(
            f"{origin}: policy field {field!r}: {value!r} is not a finite number (rule: finite)",
            field=field,
            rule="finite",
            source=origin,
        )
    validator = jsonschema.Draft202012Validator(policy_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        err = errors[0]
        field = ".".join(str(p) for p in err.absolute_path) or "<root>"
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        raise PolicyError(
            f"{origin}: policy field {field!r}: {err.message} (rule: {err.validator}){more}",
            field=field,
            rule=str(err.validator),
            source=origin,
        )
    return Policy.model_validate(data)


def _non_finite(value: Any, path: tuple[str, ...]) -> Iterator[tuple[str, float]]:
    """(dotted field, value) of every infinite or NaN number in a policy mapping.

    JSON Schema has no keyword for "finite" (``maximum`` does not catch NaN, which compares
    false with everything), so the loader checks it before the schema, naming the field.
    """
    if isinstance(value, float) and not math.isfinite(value):
        yield ".".join(path) or "<root>", value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite(item, (*path, str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_finite(item, (*path, str(index)))
