"""What the judges return: pydantic models, validated again by JSON Schema before they leave.

These models import nothing but pydantic (no component, no trace): they sit beside
:mod:`evidencegate.contracts` at the bottom of the layers, so that trace events and the loop
carry judgements without importing a judge.

Scales, fixed here once:

* context relevance, per-claim groundedness and answer relevance are integers 0–3
  (0 none, 1 weak, 2 partial, 3 full);
* groundedness of an answer is 0–1 (the mean per-claim score divided by 3), or ``None`` for an
  abstention, which scores as an abstention and never as 0 or 1;
* quality is 1–4 (answer relevance + 1);
* the review score is 1–4, the scale user feedback is compared on (see
  :func:`evidencegate.judges.scoring.review_score`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "AnswerRelevance",
    "AnswerScore",
    "ClaimGrounding",
    "ClaimSupport",
    "ContextRelevance",
    "DocumentRelevance",
    "EvidenceRef",
    "Groundedness",
    "KnowledgeSelection",
    "KnowledgeStrategy",
    "RelevanceLabel",
    "Route",
    "RouteDecision",
    "SupportLabel",
    "SupportVerdict",
    "TaskKind",
    "TriadResult",
]

TaskKind = Literal["open", "closed"]
SupportLabel = Literal["supported", "unsupported"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- RAG triad


class ContextRelevance(_Model):
    """How well one retrieved passage bears on the question (0–3)."""

    passage_id: str = Field(min_length=1)
    score: int = Field(ge=0, le=3)
    reason: str


class EvidenceRef(_Model):
    """The evidence a judge names for a claim: a passage and a verbatim quote of it."""

    passage_id: str = Field(min_length=1)
    quote: str = Field(min_length=1)


class ClaimGrounding(_Model):
    """One answer claim judged against the evidence.

    ``judge_score`` is what the judge said; ``score`` is what counts: 0 unless the named
    evidence passed the deterministic verifier (``verified``), so no judge can invent support.
    """

    claim_id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    judge_score: int = Field(ge=0, le=3)
    score: int = Field(ge=0, le=3)
    evidence: list[EvidenceRef] = Field(default_factory=list)
    verified: bool
    reason: str

    @model_validator(mode="after")
    def _support_needs_verified_evidence(self) -> ClaimGrounding:
        if self.score > 0 and not (self.verified and self.evidence):
            raise ValueError(f"claim {self.claim_id}: score > 0 needs verified evidence")
        if self.score > self.judge_score:
            raise ValueError(f"claim {self.claim_id}: score exceeds the judge's score")
        return self


class Groundedness(_Model):
    """Groundedness of an answer: per-claim scores and their mean on 0–1.

    An abstention is not scored: ``abstained`` is true, ``score`` None and there are no claims.
    An answer whose every sentence is trivial has no claim to ground and scores None as well.
    """

    abstained: bool
    claims: list[ClaimGrounding] = Field(default_factory=list)
    trivial: list[str] = Field(
        default_factory=list, description="Sentences left out as carrying no checkable claim."
    )
    score: float | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _consistent(self) -> Groundedness:
        if self.abstained and (self.claims or self.score is not None):
            raise ValueError("an abstention has no claims and no score")
        if not self.abstained and (self.score is None) != (not self.claims):
            raise ValueError("an answer is scored exactly when it has claims")
        return self


class AnswerRelevance(_Model):
    """Does the answer address the question (0–3)? A refusal scores 0."""

    score: int = Field(ge=0, le=3)
    refusal: bool
    reason: str

    @model_validator(mode="after")
    def _refusal_scores_zero(self) -> AnswerRelevance:
        if self.refusal and self.score != 0:
            raise ValueError("a refusal scores 0")
        return self


class TriadResult(_Model):
    """The RAG triad of one answer: context relevance, groundedness, answer relevance."""

    judge: str
    context: list[ContextRelevance]
    groundedness: Groundedness
    answer: AnswerRelevance


# --------------------------------------------------------------------------- relevance


class RelevanceLabel(StrEnum):
    HIGHLY = "highly_relevant"
    SOMEWHAT = "somewhat_relevant"
    NOT = "not_relevant"


class DocumentRelevance(_Model):
    """One question–document judgement (a retrieved passage is the document judged)."""

    passage_id: str = Field(min_length=1)
    label: RelevanceLabel
    reason: str


class KnowledgeStrategy(StrEnum):
    """Which retrieved knowledge the task-adaptive combination kept."""

    HIGHLY_RELEVANT = "highly_relevant"
    """the highly relevant documents only"""
    SOMEWHAT_PLUS_FOLLOW_UP = "somewhat_relevant+follow_up"
    """open task without a highly relevant document: the somewhat relevant ones, plus a
    follow-up retrieval with a keyword query rewritten from the question"""
    NONE = "none"
    """closed task without a highly relevant document: no documents at all"""


class KnowledgeSelection(_Model):
    """The labels of every judged document and which set was used (recorded in the trace)."""

    task: TaskKind
    strategy: KnowledgeStrategy
    judgements: list[DocumentRelevance]
    used_ids: list[str]
    follow_up_query: str | None = None

    @model_validator(mode="after")
    def _follow_up_only_when_combining(self) -> KnowledgeSelection:
        wants = self.strategy is KnowledgeStrategy.SOMEWHAT_PLUS_FOLLOW_UP
        if wants != (self.follow_up_query is not None):
            raise ValueError("a follow-up query is set exactly for somewhat_relevant+follow_up")
        if self.strategy is KnowledgeStrategy.NONE and self.used_ids:
            raise ValueError("strategy 'none' uses no documents")
        return self


# --------------------------------------------------------------------------- support judge


class ClaimSupport(_Model):
    """One sentence of a claim, judged against the source."""

    text: str
    score: float = Field(ge=0, le=1)
    evidence: str | None = Field(default=None, description="The best-aligned source text.")
    issues: list[str] = Field(default_factory=list)


class SupportVerdict(_Model):
    """Is ``claim`` supported by ``source`` alone? ``score`` is the support on 0–1."""

    label: SupportLabel
    score: float = Field(ge=0, le=1)
    reason: str
    sentences: list[ClaimSupport] = Field(default_factory=list)


# --------------------------------------------------------------------------- scoring, routing


class AnswerScore(_Model):
    """Groundedness (0–1), quality (1–4), the disclaimer they call for, and the review score.

    All four are None / False for an abstention, which is neither good nor bad: it is not scored.
    """

    abstained: bool
    groundedness: float | None = Field(default=None, ge=0, le=1)
    quality: int | None = Field(default=None, ge=1, le=4)
    review_score: float | None = Field(default=None, ge=1, le=4)
    disclaimer: str | None = None
    flag_reasons: list[str] = Field(default_factory=list)


class Route(StrEnum):
    """Where a run goes after a draft is judged."""

    FINISH = "finish"
    REGENERATE = "regenerate"
    FOLLOW_UP = "follow_up"


class RouteDecision(_Model):
    route: Route
    reason: str
