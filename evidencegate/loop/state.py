"""A run's state in one object, and the drafts it works on.

:class:`RunState` holds everything a run accumulates (evidence, the claims to avoid, the gaps,
the latest judged draft, the claims dropped, counters); the controller changes it, the pure
:func:`~evidencegate.loop.decide.decide` reads a :class:`~evidencegate.loop.decide.Situation`
taken from it. :class:`Attempt` is one audited draft and what may leave of it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field

from evidencegate.contracts import (
    Arm,
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    DroppedClaim,
    Passage,
    Verdict,
)
from evidencegate.loop.budget import Budget, RunUsage
from evidencegate.protocols import AnswerScore, TriadResult

__all__ = ["Attempt", "RunState", "render", "within"]


@dataclass(frozen=True)
class Attempt:
    """One audited draft (judged when the judges are on): what ``on_fail`` works from."""

    claims: tuple[Claim, ...]
    verifications: dict[str, ClaimVerification]
    audit: CriticAudit
    gated: bool
    """The verifier's verdict gates the claims (the grounded arms)."""
    triad: TriadResult | None = None
    score: AnswerScore | None = None
    answer: str = ""
    """The answer text the judges scored."""

    @classmethod
    def unaudited(
        cls, claims: Sequence[Claim], verifications: Sequence[ClaimVerification]
    ) -> Attempt:
        """The baseline arm has no critic and no gate: every claim passes through unjudged."""
        audit = CriticAudit(
            claims=[
                ClaimAudit(
                    claim_id=c.claim_id, verdict=Verdict.SUPPORTED, reason="baseline: no critic"
                )
                for c in claims
            ],
            coverage=1.0 if claims else 0.0,
            contract_met=bool(claims),
        )
        return cls(tuple(claims), {v.claim_id: v for v in verifications}, audit, gated=False)

    def failed(self) -> frozenset[str]:
        """Claims the verifier rejected (when it gates) or the critic did not find supported."""
        verdicts = {a.claim_id: a.verdict for a in self.audit.claims}
        return frozenset(
            c.claim_id
            for c in self.claims
            if (self.gated and not self.verifications[c.claim_id].ok)
            or verdicts.get(c.claim_id) is not Verdict.SUPPORTED
        )

    def meets_contract(self, coverage_threshold: float) -> bool:
        """Claims, none failed, and the critic's coverage at the threshold."""
        return bool(self.claims) and not self.failed() and self.audit.coverage >= coverage_threshold

    def kept(self) -> list[Claim]:
        """The claims that may leave, with the citations the verifier located (offsets filled)."""
        failed = self.failed()
        kept = []
        for claim in self.claims:
            if claim.claim_id in failed:
                continue
            check = self.verifications[claim.claim_id]
            located = [
                c.citation if c.citation.char_start is not None else original
                for c, original in zip(check.citations, claim.citations, strict=False)
            ]
            kept.append(claim.model_copy(update={"citations": located or claim.citations}))
        return kept

    def dropped(self) -> list[DroppedClaim]:
        """Why each failed claim is not emitted: the verifier's reasons and the critic's
        verdict, in claim-id order."""
        out = []
        for claim_id in sorted(self.failed()):
            claim = next(c for c in self.claims if c.claim_id == claim_id)
            reasons = [r.value for r in self.verifications[claim_id].reasons]
            verdict = next((a.verdict for a in self.audit.claims if a.claim_id == claim_id), None)
            if verdict is not Verdict.SUPPORTED:
                reasons.append(f"critic:{verdict.value if verdict else 'no verdict'}")
            out.append(DroppedClaim(claim_id=claim_id, text=claim.text, reasons=reasons))
        return out


@dataclass(kw_only=True)
class RunState:
    """Everything one run accumulates; the controller is its only writer."""

    question: str
    as_of: dt.date
    tenant: str | None
    arm: Arm
    budget: Budget
    usage: RunUsage
    scope_ids: list[str] | None = None
    """The documents question analysis scoped the run to (None: every document)."""
    evidence: dict[str, Passage] = field(default_factory=dict)
    """Every passage retrieved (or kept by the relevance stage), in retrieval order."""
    seen_sources: set[str] = field(default_factory=set)
    """The primary ``doc_id@version`` retrieved so far."""
    seen_pages: set[tuple[str, str, int]] = field(default_factory=set)
    """The primary (doc_id, version, page) retrieved so far."""
    context: list[Passage] = field(default_factory=list)
    """The evidence the models see in this pass (within ``max_evidence_chars``)."""
    avoid: list[str] = field(default_factory=list)
    required_facts: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    need_sufficiency: bool = True
    followup_exhausted: bool = False
    """A follow-up for sufficiency found no new primary source."""
    attempt: Attempt | None = None
    """The latest audited draft, the one the run would emit."""
    retry_first: Attempt | None = None
    """The first draft of a quality retry, compared with the second."""
    quality_retried: bool = False
    regenerations: int = 0
    """Regenerations the judges' route asked for."""
    score: AnswerScore | None = None
    """The judges' score of the draft the run would emit (settled at each decision)."""
    dropped: dict[str, DroppedClaim] = field(default_factory=dict)

    @property
    def grounded(self) -> bool:
        """The verifier gates and the critic sees the evidence."""
        return self.arm in (Arm.GROUNDED, Arm.GROUNDED_FOLLOWUP)

    @property
    def may_follow_up(self) -> bool:
        return self.arm is Arm.GROUNDED_FOLLOWUP

    @property
    def pass_no(self) -> int:
        return self.usage.passes

    def can_follow_up(self) -> bool:
        """The arm, the earlier follow-ups and the budget allow another follow-up."""
        return (
            self.may_follow_up
            and not self.followup_exhausted
            and self.budget.followups_left(self.usage)
        )

    def settle(self) -> None:
        """The current draft is the one the run would emit: record its dropped claims and
        its score."""
        assert self.attempt is not None
        for dropped in self.attempt.dropped():
            self.dropped.setdefault(dropped.claim_id, dropped)
        self.score = self.attempt.score


def within(passages: Sequence[Passage], max_chars: int) -> list[Passage]:
    """The passages, in retrieval order, whose text fits in ``max_chars`` (at least one)."""
    out: list[Passage] = []
    used = 0
    for p in passages:
        if out and used + len(p.text) > max_chars:
            break
        out.append(p)
        used += len(p.text)
    return out


def render(claims: Sequence[Claim]) -> str:
    """The answer text: each claim followed by its number."""
    return " ".join(f"{c.text} [{i}]" for i, c in enumerate(claims, start=1))
