"""The roles, as protocols. Each has one required method (the critic has its two phases).

Vendor clients and stores are passed in, never built inside a component: that is what makes
tests offline and replay a provider swap. The loop reaches the judges through :class:`Judges`
only, never by importing :mod:`evidencegate.judges`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from evidencegate.analysis import Scope
from evidencegate.contracts import (
    Claim,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Draft,
    Passage,
    SourcePage,
)

# The judges' output models are the vocabulary of the Judges protocol (they import nothing but
# pydantic); where they live is the judges' business, what the loop sees is this module.
from evidencegate.judgements import (
    AnswerScore,
    KnowledgeSelection,
    Route,
    RouteDecision,
    TriadResult,
)
from evidencegate.trace.events import TraceEvent

__all__ = [
    "AnswerScore",
    "Critic",
    "Generator",
    "Judges",
    "KnowledgeSelection",
    "Retriever",
    "Route",
    "RouteDecision",
    "Scoping",
    "SourceLookup",
    "TraceSink",
    "TriadResult",
]


@runtime_checkable
class Retriever(Protocol):
    """Returns passages of sources in force on ``as_of``; never judges correctness."""

    def search(
        self,
        query: str,
        *,
        as_of: dt.date,
        limit: int = 8,
        authorities: Sequence[str] | None = None,
        doc_ids: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> list[Passage]: ...


@runtime_checkable
class Scoping(Protocol):
    """A retriever that can say which documents a question is about (entity, period)."""

    def scope(self, question: str, *, as_of: dt.date, tenant: str | None = None) -> Scope: ...


@runtime_checkable
class SourceLookup(Protocol):
    """Gives the verifier the stored page a citation names (None when absent)."""

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None: ...


@runtime_checkable
class Generator(Protocol):
    """Drafts claims with citations from the evidence given; approves nothing."""

    @property
    def component_id(self) -> str: ...

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft: ...


@runtime_checkable
class Critic(Protocol):
    """Judges sufficiency (without the draft), then audits claims against evidence.

    Two methods because the architecture has two phases that must see different inputs; a
    single ``judge(phase, ...)`` method would make it easy to leak the draft into phase 1.
    """

    @property
    def component_id(self) -> str: ...

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency: ...

    def audit(
        self,
        question: str,
        claims: Sequence[Claim],
        verifications: Sequence[ClaimVerification],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        required_facts: Sequence[str],
    ) -> CriticAudit: ...


@runtime_checkable
class TraceSink(Protocol):
    """Receives trace events; decides nothing."""

    def emit(self, event: TraceEvent) -> None: ...


@runtime_checkable
class Judges(Protocol):
    """The judges of ``policy.judges`` as the loop reaches them.

    Several methods, one per use the loop makes of the judges (the relevance stage, the triad on
    a draft, and the rules that read the triad's scores); all but the first two are pure. The
    implementation is :class:`evidencegate.judges.panel.JudgePanel`. Each judging method raises
    on a judge error (fail closed).
    """

    @property
    def relevance_judge(self) -> str:
        """The component id of the relevance judge, recorded with the stage's selection."""
        ...

    def select_evidence(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        retrieve: Callable[[str], Sequence[Passage]],
    ) -> tuple[KnowledgeSelection, list[Passage]]:
        """The relevance stage: the documents kept for the task, and the selection to record."""
        ...

    def judge_answer(
        self,
        question: str,
        answer: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        abstained: bool,
    ) -> tuple[TriadResult, AnswerScore]:
        """The triad of an answer and the score it earns."""
        ...

    def wants_quality_retry(self, score: AnswerScore, answer: str) -> bool:
        """Is the answer judged poor enough to regenerate it once?"""
        ...

    def second_is_better(self, first: AnswerScore, second: AnswerScore) -> bool:
        """Of two scored drafts, is the second one better (the first wins a tie)?"""
        ...

    def route(
        self, triad: TriadResult, *, regenerations: int, followups_left: bool
    ) -> RouteDecision:
        """Where a judged draft goes next: finish, regenerate or follow up."""
        ...

    def follow_up_query(self, question: str) -> str:
        """The query of a follow-up retrieval the route asks for."""
        ...
