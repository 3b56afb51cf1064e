"""The data contracts: the pydantic models every component speaks.

These models are the source of truth; ``schemas/*.schema.json`` are exported from them
(``python -m evidencegate.schemas``) and a test fails when a file drifts from its model.

Offsets (``char_start``/``char_end``) are always filled by the engine, which locates quotes in
the stored page text; a model never supplies them.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "Action",
    "Arm",
    "Authority",
    "Citation",
    "CitationCheck",
    "Claim",
    "ClaimAudit",
    "ClaimVerification",
    "CriticAudit",
    "CriticSufficiency",
    "Decision",
    "Derivation",
    "DocumentVersion",
    "Draft",
    "DroppedClaim",
    "FailureReason",
    "GatedAnswer",
    "Operand",
    "Operation",
    "Outcome",
    "Page",
    "Passage",
    "SourcePage",
    "StopReason",
    "Usage",
    "Verdict",
    "VerificationFailure",
]

Authority = Literal["primary", "secondary"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- corpus


class DocumentVersion(_Model):
    """One dated version of one source document, as stored."""

    doc_id: str = Field(min_length=1)
    version: str = Field(min_length=1)
    version_date: dt.date
    effective_from: dt.date
    effective_to: dt.date | None = Field(
        default=None, description="Exclusive end; set when a later version supersedes this one."
    )
    superseded_by: str | None = None
    authority: Authority
    title: str = ""
    source_uri: str = ""
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    tenant: str = "default"
    pages: int = Field(ge=0, default=0)
    entity: str | None = Field(
        default=None,
        description="Who or what the document is about (an issuer such as '3M', a regulation "
        "such as 'Regulation M'); question analysis scopes retrieval by it.",
    )
    aliases: list[str] = Field(
        default_factory=list, description="Other names of the entity ('MMM', 'Reg M')."
    )
    period: str | None = Field(
        default=None, description="The reporting period a filing covers, e.g. 'FY2018'."
    )
    extractor: str | None = Field(
        default=None,
        description="The PDF extractor and its version the page text came from (None: not a PDF).",
    )

    def in_force(self, as_of: dt.date) -> bool:
        """True when this version applies on ``as_of`` (effective_to is exclusive)."""
        if as_of < self.effective_from:
            return False
        return self.effective_to is None or as_of < self.effective_to


class Page(_Model):
    """One page of a document version: a PDF page, a form-feed section or a JSONL record."""

    doc_id: str
    version: str
    page: int = Field(ge=1, description="1-based.")
    label: str | None = Field(default=None, description="Section or paragraph label, if any.")
    text: str
    heading: str = Field(default="", description="The page's heading path, if any.")


class SourcePage(_Model):
    """A page together with the version it belongs to: what the verifier checks quotes against."""

    document: DocumentVersion
    page: Page


class Passage(_Model):
    """A retrieved span of a page. ``text`` equals ``page_text[char_start:char_end]``."""

    passage_id: str = Field(description="Content hash of doc_id, version, page, offsets, text.")
    doc_id: str
    version: str
    page: int = Field(ge=1)
    char_start: int = Field(ge=0)
    char_end: int = Field(ge=0)
    text: str
    label: str | None = None
    title: str = ""
    authority: Authority = "primary"
    version_date: dt.date | None = None
    score: float = 0.0
    context: str = Field(
        default="",
        description="Where the passage sits: its label, heading path and document title.",
    )
    flags: list[str] = Field(
        default_factory=list,
        exclude_if=lambda flags: not flags,
        description="Hygiene findings on the text, e.g. 'instruction_like_text: system prompt' "
        "(evidencegate.hygiene); left out of the JSON when there are none.",
    )
    completes: str | None = Field(
        default=None,
        exclude_if=lambda completes: completes is None,
        description="The passage_id of the retrieved passage whose list this one completes (a "
        "rule's lead-in brought for its item, an item for its lead-in), not ranked for the "
        "query itself; None (left out of the JSON) for a passage ranked for the query.",
    )


# --------------------------------------------------------------------------- claims


class Citation(_Model):
    """A quoted span of a specific document version and page.

    A generator fills doc_id, version, page and quote; the verifier returns a copy with the
    offsets of the quote in the stored page text.
    """

    doc_id: str
    version: str
    page: int = Field(ge=1)
    quote: str = Field(min_length=1)
    char_start: int | None = Field(default=None, ge=0)
    char_end: int | None = Field(default=None, ge=0)
    evidence_id: str | None = Field(default=None, description="passage_id the quote came from.")


class Operation(StrEnum):
    """What a derived claim computes from its operands (in the order the operands are listed).

    ``difference`` a - b; ``sum`` of all; ``average`` of all; ``ratio`` a / b; ``share`` a / b
    as a percentage; ``percent_change`` (a - b) / |b| as a percentage (a the new value, b the
    old); ``compare`` a against b, with the result ``greater``, ``less`` or ``equal``.
    """

    DIFFERENCE = "difference"
    SUM = "sum"
    AVERAGE = "average"
    RATIO = "ratio"
    SHARE = "share"
    PERCENT_CHANGE = "percent_change"
    COMPARE = "compare"


class Operand(_Model):
    """One figure a derived claim computes from, as one of the claim's citations states it."""

    label: str = Field(
        min_length=1, description="What the figure is, e.g. 'Operating income margin, 2022'."
    )
    value: str = Field(
        min_length=1,
        description="The figure as the cited quote writes it: '(1,577)', '$1.5 billion', "
        "'19.1%'. The verifier reads sign, scale and percent from it.",
    )
    citation: int = Field(
        ge=0, description="Index in the claim's citations of the quote stating the figure."
    )


class Derivation(_Model):
    """How a derived claim's figure is computed from quoted figures; the verifier recomputes it."""

    operation: Operation
    operands: list[Operand] = Field(min_length=2)
    result: str = Field(
        min_length=1,
        description="The result the claim states: a number written to the precision it is "
        "stated to ('-1.7', '9.2%', '0.69'), or for compare 'greater', 'less' or 'equal'.",
    )


class Claim(_Model):
    claim_id: str
    text: str = Field(min_length=1)
    required: bool = False
    citations: list[Citation] = Field(default_factory=list)
    derivation: Derivation | None = Field(
        default=None,
        exclude_if=lambda derivation: derivation is None,
        description="Set on a claim computed from quoted figures (left out of the JSON "
        "otherwise); every operand cites one of the claim's citations.",
    )

    @model_validator(mode="after")
    def _operands_cite_the_claim(self) -> Claim:
        if self.derivation is not None:
            for i, operand in enumerate(self.derivation.operands):
                if operand.citation >= len(self.citations):
                    raise ValueError(
                        f"derivation operand {i} cites citation {operand.citation}, but the "
                        f"claim has {len(self.citations)} citation(s)"
                    )
        return self


class Draft(_Model):
    """A generator's output: claims with citations. ``declined`` when it found nothing to say."""

    claims: list[Claim] = Field(default_factory=list)
    declined: str | None = None

    @model_validator(mode="after")
    def _claim_ids_are_distinct(self) -> Draft:
        # The verifier's and the critic's findings are matched to claims by id: two claims
        # under one id would let one claim leave with the other's citations.
        seen: set[str] = set()
        for claim in self.claims:
            if claim.claim_id in seen:
                raise ValueError(f"two claims have the id {claim.claim_id}")
            seen.add(claim.claim_id)
        return self


# --------------------------------------------------------------------------- verification


class FailureReason(StrEnum):
    """Machine-readable reasons the deterministic verifier rejects a citation or claim."""

    NO_CITATION = "no_citation"
    DOCUMENT_NOT_FOUND = "document_not_found"
    PAGE_NOT_FOUND = "page_not_found"
    NOT_RETRIEVED = "not_retrieved"
    QUOTE_TOO_SHORT = "quote_too_short"
    QUOTE_NOT_FOUND = "quote_not_found"
    FRAGMENTS_OUT_OF_ORDER = "fragments_out_of_order"
    NUMBER_MISMATCH = "number_mismatch"
    DATE_MISMATCH = "date_mismatch"
    NEGATION_MISMATCH = "negation_mismatch"
    NOT_IN_FORCE = "not_in_force"
    AUTHORITY_NOT_ALLOWED = "authority_not_allowed"
    INSTRUCTION_LIKE_TEXT = "instruction_like_text"
    OPERAND_NOT_QUOTED = "operand_not_quoted"
    """A derived claim's operand is not a figure its cited quote states."""
    DERIVATION_INVALID = "derivation_invalid"
    """A derivation that cannot be computed as given (operands of mixed kinds, a division by
    zero, a result that is not a figure, a result stated too coarsely or not in the claim)."""
    DERIVATION_MISMATCH = "derivation_mismatch"
    """A derived claim's result is not what its quoted operands give."""


class VerificationFailure(_Model):
    reason: FailureReason
    detail: str


class CitationCheck(_Model):
    """One citation after verification; ``citation`` carries the engine-filled offsets."""

    citation: Citation
    ok: bool
    failures: list[VerificationFailure] = Field(default_factory=list)


class ClaimVerification(_Model):
    claim_id: str
    ok: bool
    citations: list[CitationCheck] = Field(default_factory=list)
    failures: list[VerificationFailure] = Field(
        default_factory=list, description="Claim-level failures (numbers, dates, negation)."
    )

    @property
    def reasons(self) -> list[FailureReason]:
        out = [f.reason for f in self.failures]
        for check in self.citations:
            out.extend(f.reason for f in check.failures)
        return out


# --------------------------------------------------------------------------- critic


class CriticSufficiency(_Model):
    """Critic phase 1: is the evidence enough to answer? Judged WITHOUT seeing any draft."""

    requires_more_context: bool
    reason: str
    required_facts: list[str] = Field(
        default_factory=list, description="The facts an answer must establish."
    )
    missing_facts: list[str] = Field(default_factory=list)
    missing_primary_sources: list[str] = Field(default_factory=list)
    follow_up_instruction: str | None = None
    suggested_query: str | None = None


class Verdict(StrEnum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    CONTRADICTED = "contradicted"
    NOT_FOUND = "not_found"
    JUDGE_ERROR = "judge_error"


class ClaimAudit(_Model):
    claim_id: str
    verdict: Verdict
    evidence_ids: list[str] = Field(default_factory=list)
    reason: str
    support_score: float | None = Field(default=None, ge=0.0, le=1.0)


class CriticAudit(_Model):
    """Critic phase 2: does each claim follow from its evidence? Is the contract met?"""

    claims: list[ClaimAudit] = Field(default_factory=list)
    coverage: float = Field(ge=0.0, le=1.0, description="Share of required facts supported.")
    covered_facts: list[str] = Field(default_factory=list)
    missing_facts: list[str] = Field(default_factory=list)
    contract_met: bool
    suggested_query: str | None = None


# --------------------------------------------------------------------------- decisions


class Action(StrEnum):
    FINAL = "FINAL"
    FOLLOW_UP = "FOLLOW_UP"
    REGENERATE = "REGENERATE"
    ABSTAIN = "ABSTAIN"


class StopReason(StrEnum):
    """Why a run ended. Fixed: every stop names one of these."""

    CONTRACT_MET = "contract_met"
    MAX_PASSES = "max_passes"
    NO_CONCRETE_GAP = "no_concrete_gap"
    NO_NEW_SOURCE = "no_new_source"
    NO_EVIDENCE = "no_evidence"
    BUDGET_TIME = "budget_time"
    BUDGET_TOKENS = "budget_tokens"
    BUDGET_COST = "budget_cost"
    BUDGET_RETRIEVALS = "budget_retrievals"
    BUDGET_CALLS = "budget_calls"
    CRITIC_INVALID = "critic_invalid"
    COMPONENT_ERROR = "component_error"
    NO_REFLECTION = "no_reflection"


class Decision(_Model):
    """The controller's decision at the end of one pass."""

    pass_no: int = Field(ge=1)
    action: Action
    reason: str = Field(description="A StopReason when the action ends the run, else why.")
    detail: str = ""


# --------------------------------------------------------------------------- the answer


class Outcome(StrEnum):
    ANSWERED = "answered"
    ANSWERED_WITH_DISCLAIMER = "answered_with_disclaimer"
    REDACTED = "redacted"
    ABSTAINED = "abstained"
    UNGATED = "ungated"
    """Only from the ablation arms that switch the verifier's gate off (baseline,
    self_critique): the claims were emitted without verification. Never under the product."""


class Arm(StrEnum):
    """How much reflection a run does (the golden-set ablation arms)."""

    BASELINE = "baseline"
    """retrieve → draft → emit: no verifier gate, no critic."""
    SELF_CRITIQUE = "self_critique"
    """the critic sees only the draft (claims and their own quotes), not the evidence."""
    GROUNDED = "grounded"
    """critic with evidence + the verifier gate, no follow-up retrieval."""
    GROUNDED_FOLLOWUP = "grounded_followup"
    """grounded, plus follow-up retrieval when the critic names a gap (the product)."""


class Usage(_Model):
    """What a run consumed. Wall-clock time is in the trace, not here, so replays compare equal."""

    retrievals: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0


class DroppedClaim(_Model):
    claim_id: str
    text: str
    reasons: list[str]


class GatedAnswer(_Model):
    """What a run returns: only verified claims, or an explicit abstention with named gaps."""

    question: str
    as_of: dt.date
    outcome: Outcome
    answer: str
    claims: list[Claim] = Field(default_factory=list)
    dropped_claims: list[DroppedClaim] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    disclaimer: str | None = None
    coverage: float = Field(ge=0.0, le=1.0)
    stop_reason: StopReason
    passes: int = Field(ge=0)
    usage: Usage = Field(default_factory=Usage)
    policy: str = ""
    trace_id: str

    @model_validator(mode="after")
    def _abstention_has_no_claims(self) -> GatedAnswer:
        if self.outcome is Outcome.ABSTAINED and self.claims:
            raise ValueError("an abstained answer carries no claims")
        if self.outcome is Outcome.UNGATED:
            return self
        for claim in self.claims:
            if not claim.citations:
                raise ValueError(f"claim {claim.claim_id} has no citation")
            for c in claim.citations:
                if c.char_start is None or c.char_end is None:
                    raise ValueError(f"claim {claim.claim_id} has an unverified citation")
        return self

    def raise_for_outcome(self) -> GatedAnswer:
        """Return self when answered; raise EvidenceThresholdNotMet otherwise."""
        from evidencegate.exceptions import EvidenceThresholdNotMet

        if self.outcome is Outcome.ANSWERED:
            return self
        raise EvidenceThresholdNotMet(
            f"outcome={self.outcome.value} (stop_reason={self.stop_reason.value}, "
            f"coverage={self.coverage:.2f})",
            outcome=self.outcome.value,
            stop_reason=self.stop_reason.value,
            coverage=self.coverage,
        )
