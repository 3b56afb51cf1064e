"""The roles, as protocols. Each has one required method (the critic has its two phases).

Vendor clients and stores are passed in, never built inside a component: that is what makes
tests offline and replay a provider swap.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
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
from evidencegate.trace.events import TraceEvent

__all__ = ["Critic", "Generator", "Retriever", "Scoping", "SourceLookup", "TraceSink"]


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
