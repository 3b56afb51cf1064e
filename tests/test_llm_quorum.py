"""The quorum of critics: all must approve, or any one suffices; invalid output fails closed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from evidencegate.contracts import (
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Passage,
    Verdict,
)
from evidencegate.critique.quorum import QuorumCritic
from evidencegate.exceptions import CriticOutputInvalid

AS_OF = dt.date(2024, 6, 1)
CLAIM = Claim(claim_id="c-1", text="The limit is $150.")


class Fixed:
    """A critic with fixed answers."""

    def __init__(
        self,
        name: str,
        *,
        sufficient: bool = True,
        verdict: Verdict = Verdict.SUPPORTED,
        coverage: float = 1.0,
        query: str | None = None,
        fail: bool = False,
    ) -> None:
        self.component_id = name
        self.sufficient = sufficient
        self.verdict = verdict
        self.coverage = coverage
        self.query = query
        self.fail = fail

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        if self.fail:
            raise CriticOutputInvalid("bad output", critic=self.component_id)
        return CriticSufficiency(
            requires_more_context=not self.sufficient,
            reason=f"{self.component_id} reason",
            required_facts=["limit"],
            missing_facts=[] if self.sufficient else [f"{self.component_id} gap"],
            suggested_query=None if self.sufficient else self.query,
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
        return CriticAudit(
            claims=[
                ClaimAudit(
                    claim_id=c.claim_id,
                    verdict=self.verdict,
                    reason=self.component_id,
                    evidence_ids=[self.component_id],
                    support_score=self.coverage,
                )
                for c in claims
            ],
            coverage=self.coverage,
            contract_met=self.verdict is Verdict.SUPPORTED,
        )


def run_audit(quorum: QuorumCritic) -> CriticAudit:
    return quorum.audit("q", [CLAIM], [], [], as_of=AS_OF, required_facts=["limit"])


class TestQuorumAll:
    def test_one_dissent_blocks_support(self) -> None:
        """Under 'all', one critic's not_found makes the claim not supported."""
        q = QuorumCritic([Fixed("a"), Fixed("b", verdict=Verdict.NOT_FOUND, coverage=0.5)])
        result = run_audit(q)
        assert result.claims[0].verdict is Verdict.NOT_FOUND
        assert result.contract_met is False
        assert result.coverage == 0.5
        assert result.claims[0].support_score == 0.5
        assert result.claims[0].evidence_ids == ["a", "b"]

    def test_most_severe_verdict_is_reported(self) -> None:
        """When neither approves, contradicted outranks partial."""
        q = QuorumCritic(
            [Fixed("a", verdict=Verdict.PARTIAL), Fixed("b", verdict=Verdict.CONTRADICTED)]
        )
        assert run_audit(q).claims[0].verdict is Verdict.CONTRADICTED

    def test_one_critic_asking_for_context_is_insufficient(self) -> None:
        """Under 'all', the evidence is sufficient only when every critic says so."""
        q = QuorumCritic([Fixed("a"), Fixed("b", sufficient=False, query="gift limit 2024")])
        result = q.sufficiency("q", [], as_of=AS_OF)
        assert result.requires_more_context is True
        assert result.missing_facts == ["b gap"]
        assert result.suggested_query == "gift limit 2024"

    def test_component_id_names_the_members(self) -> None:
        """The quorum's id names its rule and its critics."""
        assert QuorumCritic([Fixed("a"), Fixed("b")]).component_id == "quorum-all(a,b)"


class TestQuorumAny:
    def test_one_approval_suffices(self) -> None:
        """Under 'any', one critic's supported verdict carries."""
        q = QuorumCritic(
            [Fixed("a"), Fixed("b", verdict=Verdict.NOT_FOUND, coverage=0.5)], quorum="any"
        )
        result = run_audit(q)
        assert result.claims[0].verdict is Verdict.SUPPORTED
        assert result.contract_met is True
        assert result.coverage == 1.0

    def test_sufficient_when_one_says_so(self) -> None:
        """Under 'any', one critic finding the evidence sufficient carries, with no gaps."""
        q = QuorumCritic([Fixed("a"), Fixed("b", sufficient=False, query="x")], quorum="any")
        result = q.sufficiency("q", [], as_of=AS_OF)
        assert result.requires_more_context is False
        assert result.missing_facts == [] and result.suggested_query is None


class TestQuorumFailsClosed:
    def test_invalid_member_output_fails_the_quorum(self) -> None:
        """A member's invalid output is not outvoted: it fails the quorum, even under 'any'."""
        q = QuorumCritic([Fixed("a"), Fixed("b", fail=True)], quorum="any")
        with pytest.raises(CriticOutputInvalid):
            q.sufficiency("q", [], as_of=AS_OF)

    def test_needs_two_distinct_critics(self) -> None:
        """A quorum of one, or of the same critic twice, is refused."""
        with pytest.raises(ValueError, match="two or more"):
            QuorumCritic([Fixed("a")])
        with pytest.raises(ValueError, match="must differ"):
            QuorumCritic([Fixed("a"), Fixed("a")])
