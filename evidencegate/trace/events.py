"""Trace events: a pydantic union discriminated on ``kind``, with one module-level TypeAdapter.

A trace file is JSONL; each line is a :class:`TraceLine` — the chain envelope (seq, ts, run_id,
prev_hash, hash) around one event. Everything a run saw or produced that could vary is in an
event, so a trace round-trips to JSON losslessly and a replay can answer from it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from evidencegate.contracts import (
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Decision,
    Draft,
    GatedAnswer,
)
from evidencegate.judgements import AnswerScore, KnowledgeSelection, TriadResult

__all__ = [
    "TRACE_LINE_ADAPTER",
    "AuditEvent",
    "ComponentFailedEvent",
    "DecisionEvent",
    "DraftEvent",
    "ModelCallEvent",
    "RelevanceEvent",
    "RetrievalEvent",
    "RetrievedRef",
    "RunEndEvent",
    "RunStartEvent",
    "ScopeEvent",
    "SufficiencyEvent",
    "TraceEvent",
    "TraceLine",
    "TriadEvent",
    "VerificationEvent",
]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RunStartEvent(_Event):
    kind: Literal["run_start"] = "run_start"
    question: str
    as_of: dt.date
    tenant: str | None = None
    policy: dict[str, Any]
    policy_sha256: str
    components: dict[str, str] = Field(description="role -> component id and version")
    evidencegate_version: str


class RetrievedRef(_Event):
    passage_id: str
    doc_id: str
    version: str
    page: int
    char_start: int
    char_end: int
    authority: str
    score: float
    text_sha256: str
    flags: list[str] = Field(
        default_factory=list,
        # absent when empty: traces recorded before the field existed keep their bytes
        exclude_if=lambda flags: not flags,
        description="The passage's hygiene findings (evidencegate.hygiene), if any.",
    )
    completes: str | None = Field(
        default=None,
        # absent for a ranked passage: traces recorded before the field existed keep their bytes
        exclude_if=lambda completes: completes is None,
        description="The passage whose list this one completes (Passage.completes), if any.",
    )


class ScopeEvent(_Event):
    """What question analysis made of the question, and the documents retrieval is limited to."""

    kind: Literal["scope"] = "scope"
    pass_no: int = Field(description="The pass it precedes (always 1: it is done once).")
    answer_type: str
    years: list[int]
    names: list[str]
    doc_ids: list[str] | None = Field(description="None: the whole corpus.")
    reason: str


class RetrievalEvent(_Event):
    kind: Literal["retrieval"] = "retrieval"
    pass_no: int
    purpose: Literal["initial", "follow_up"]
    query: str
    as_of: dt.date
    results: list[RetrievedRef]
    new_primary_sources: list[str] = Field(
        description="doc_id@version of primary sources not seen earlier in the run."
    )


class SufficiencyEvent(_Event):
    kind: Literal["sufficiency"] = "sufficiency"
    pass_no: int
    critic: str
    evidence_ids: list[str]
    output: CriticSufficiency


class DraftEvent(_Event):
    kind: Literal["draft"] = "draft"
    pass_no: int
    generator: str
    evidence_ids: list[str]
    avoid: list[str]
    output: Draft


class VerificationEvent(_Event):
    kind: Literal["verification"] = "verification"
    pass_no: int
    results: list[ClaimVerification]


class AuditEvent(_Event):
    kind: Literal["audit"] = "audit"
    pass_no: int
    critic: str
    output: CriticAudit


class DecisionEvent(_Event):
    kind: Literal["decision"] = "decision"
    decision: Decision


class ComponentFailedEvent(_Event):
    kind: Literal["component_failed"] = "component_failed"
    pass_no: int
    component: str
    error_type: str
    message: str


class ModelCallEvent(_Event):
    """One request to a language model and what came back, verbatim (API keys never included).

    A replay provider answers from ``response`` for the request whose ``request_sha256`` matches,
    in order; ``error`` is set (and ``response`` None) when the call failed.
    """

    kind: Literal["model_call"] = "model_call"
    pass_no: int
    role: str = Field(description="generator | critic | judge | ...")
    component: str
    provider: str
    model: str
    attempt: int = Field(ge=1, description="1 for the first try, 2.. for retries and repairs.")
    purpose: str = Field(default="", description="e.g. draft, sufficiency, audit, repair.")
    request: dict[str, Any]
    request_sha256: str
    response: dict[str, Any] | None = None
    error: str | None = None
    status_code: int | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0


class RelevanceEvent(_Event):
    """Three-level document relevance and the knowledge set the task-adaptive stage used."""

    kind: Literal["relevance"] = "relevance"
    pass_no: int
    judge: str
    selection: KnowledgeSelection


class TriadEvent(_Event):
    """The RAG-triad judgement of one draft and the score derived from it."""

    kind: Literal["triad"] = "triad"
    pass_no: int
    output: TriadResult
    score: AnswerScore


class RunEndEvent(_Event):
    kind: Literal["run_end"] = "run_end"
    answer: GatedAnswer
    elapsed_ms: float
    score: AnswerScore | None = Field(
        default=None, description="The judges' score of the emitted answer (policy.judges)."
    )


TraceEvent = Annotated[
    RunStartEvent
    | ScopeEvent
    | RetrievalEvent
    | SufficiencyEvent
    | DraftEvent
    | VerificationEvent
    | AuditEvent
    | DecisionEvent
    | ComponentFailedEvent
    | ModelCallEvent
    | RelevanceEvent
    | TriadEvent
    | RunEndEvent,
    Field(discriminator="kind"),
]


class TraceLine(BaseModel):
    """One JSONL line: the hash-chain envelope around one event.

    ``hash`` is sha256 of the canonical JSON of every other field of the line;
    ``prev_hash`` is the previous line's hash ("0" * 64 for seq 0). ``format`` is the trace
    format: 2 (RFC 8785 canonical JSON); a line without it is format 1 (see
    :mod:`evidencegate.canonical`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int = Field(ge=0)
    ts: str = Field(description="UTC ISO-8601 timestamp of the write.")
    run_id: str
    prev_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    event: TraceEvent
    hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    format: Literal[2] | None = Field(
        default=None, description="Trace format; absent on format-1 lines (written before 2)."
    )


TRACE_LINE_ADAPTER: TypeAdapter[TraceLine] = TypeAdapter(TraceLine)
