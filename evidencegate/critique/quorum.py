"""A second critic for the highest-risk flows: two or more critics judged by quorum.

``quorum="all"``: the evidence is sufficient only when every critic says so, and a claim is
supported only when every critic finds it supported (the strictest critic wins). ``"any"``: one
critic's approval suffices. Either way a critic whose output is invalid fails the whole quorum
(fail closed), and the deterministic verifier still gates every claim.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Literal

from evidencegate.contracts import (
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Passage,
    Verdict,
)
from evidencegate.protocols import Critic
from evidencegate.providers.base import close_model

__all__ = ["QuorumCritic"]

#: When critics disagree and no approval carries, the most severe verdict is reported.
_SEVERITY = (
    Verdict.CONTRADICTED,
    Verdict.NOT_FOUND,
    Verdict.JUDGE_ERROR,
    Verdict.PARTIAL,
)


class QuorumCritic:
    """Judges with every critic of ``critics`` and combines them by ``quorum``."""

    def __init__(self, critics: Sequence[Critic], *, quorum: Literal["all", "any"] = "all") -> None:
        ids = [c.component_id for c in critics]
        if len(ids) < 2:
            raise ValueError(f"a quorum needs two or more critics (got {len(ids)})")
        if len(set(ids)) != len(ids):
            raise ValueError(f"a quorum's critics must differ (got {ids})")
        self.critics = list(critics)
        self.quorum = quorum

    @property
    def component_id(self) -> str:
        return f"quorum-{self.quorum}(" + ",".join(c.component_id for c in self.critics) + ")"

    def close(self) -> None:
        """Close what each critic holds open."""
        for critic in self.critics:
            close_model(critic)

    def _carries(self, approvals: Sequence[bool]) -> bool:
        return all(approvals) if self.quorum == "all" else any(approvals)

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        results = [c.sufficiency(question, evidence, as_of=as_of) for c in self.critics]
        sufficient = self._carries([not r.requires_more_context for r in results])
        gaps = [] if sufficient else [r for r in results if r.requires_more_context]
        return CriticSufficiency(
            requires_more_context=not sufficient,
            reason=" | ".join(
                f"{c.component_id}: {r.reason}" for c, r in zip(self.critics, results, strict=True)
            ),
            required_facts=_union(f for r in results for f in r.required_facts),
            missing_facts=_union(f for r in gaps for f in r.missing_facts),
            missing_primary_sources=_union(s for r in gaps for s in r.missing_primary_sources),
            follow_up_instruction=next(
                (r.follow_up_instruction for r in gaps if r.follow_up_instruction), None
            ),
            suggested_query=next((r.suggested_query for r in gaps if r.suggested_query), None),
        )

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
        audits = [
            c.audit(
                question,
                claims,
                verifications,
                evidence,
                as_of=as_of,
                required_facts=required_facts,
            )
            for c in self.critics
        ]
        combined: list[ClaimAudit] = []
        for claim in claims:
            judged = [
                (critic.component_id, a)
                for critic, audit in zip(self.critics, audits, strict=True)
                for a in audit.claims
                if a.claim_id == claim.claim_id
            ]
            combined.append(self._claim(claim.claim_id, judged))
        strictest = self.quorum == "all"
        coverages = [a.coverage for a in audits]
        covered = [set(a.covered_facts) for a in audits]
        return CriticAudit(
            claims=combined,
            coverage=min(coverages) if strictest else max(coverages),
            covered_facts=sorted(set.intersection(*covered) if strictest else set.union(*covered)),
            missing_facts=_union(f for a in audits for f in a.missing_facts),
            contract_met=self._carries([a.contract_met for a in audits]),
            suggested_query=next((a.suggested_query for a in audits if a.suggested_query), None),
        )

    def _claim(self, claim_id: str, judged: list[tuple[str, ClaimAudit]]) -> ClaimAudit:
        if len(judged) != len(self.critics):
            missing = len(self.critics) - len(judged)
            return ClaimAudit(
                claim_id=claim_id,
                verdict=Verdict.JUDGE_ERROR,
                reason=f"{missing} critic(s) of the quorum gave no verdict",
            )
        supported = self._carries([a.verdict is Verdict.SUPPORTED for _, a in judged])
        verdicts = {a.verdict for _, a in judged}
        verdict = Verdict.SUPPORTED if supported else next(v for v in _SEVERITY if v in verdicts)
        scores = [a.support_score for _, a in judged if a.support_score is not None]
        return ClaimAudit(
            claim_id=claim_id,
            verdict=verdict,
            evidence_ids=_union(e for _, a in judged for e in a.evidence_ids),
            reason=" | ".join(f"{cid}: {a.verdict.value}: {a.reason}" for cid, a in judged),
            support_score=(min(scores) if self.quorum == "all" else max(scores))
            if scores
            else None,
        )


def _union(items: Iterable[str]) -> list[str]:
    """Distinct strings in first-seen order."""
    return list(dict.fromkeys(items))
