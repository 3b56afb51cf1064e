"""The test doubles users get from the package: a scripted generator and a scripted critic,
driving the real gate over the example store as a user's own test would."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from evidencegate import (
    Citation,
    Claim,
    CriticAudit,
    CriticSufficiency,
    Draft,
    EvidenceGate,
    GatedAnswer,
    Outcome,
    Passage,
    ScriptedCritic,
    ScriptedGenerator,
    StopReason,
    Store,
    TraceRecorder,
    Verdict,
)
from evidencegate.contracts import ClaimAudit
from evidencegate.testing import capture_trace, events_of_kind
from evidencegate.trace.events import DraftEvent, RetrievalEvent, RunStartEvent, SufficiencyEvent

AS_OF = dt.date(2024, 6, 1)
QUESTION = "What is the maximum value of a gift an employee may accept per giver per calendar year?"
LIMIT = "Employees may accept a gift with a value of up to $150 per giver per calendar year"


def gift_page(store: Store) -> int:
    """The page of HSB-POL-007@2024.1 that states the $150 limit."""
    document = store.document("HSB-POL-007", "2024.1")
    assert document is not None
    for number in range(1, document.pages + 1):
        source = store.lookup("HSB-POL-007", "2024.1", number)
        if source is not None and LIMIT in source.page.text:
            return number
    raise AssertionError("the example corpus no longer states the $150 limit")


def limit_draft(store: Store, *, quote: str = LIMIT, text: str | None = None) -> Draft:
    """A draft of one claim citing the gift policy with ``quote``."""
    citation = Citation(doc_id="HSB-POL-007", version="2024.1", page=gift_page(store), quote=quote)
    return Draft(claims=[Claim(claim_id="c1", text=text or quote + ".", citations=[citation])])


def ask(
    store: Store, generator: ScriptedGenerator, critic: ScriptedCritic
) -> tuple[GatedAnswer, TraceRecorder]:
    """Ask QUESTION through the public gate with the two doubles."""
    gate = EvidenceGate(store, generator=generator, critic=critic)
    trace = capture_trace()
    return gate.ask(QUESTION, as_of=AS_OF, trace=trace), trace


class TestScriptedCriticPresets:
    def test_approving_critic_lets_a_verified_claim_through(self, example_store: Store) -> None:
        """With an approving critic a claim whose quote is on the cited page is answered."""
        answer, _ = ask(
            example_store,
            ScriptedGenerator([limit_draft(example_store)]),
            ScriptedCritic.approving(),
        )
        assert answer.outcome is Outcome.ANSWERED
        assert answer.stop_reason is StopReason.CONTRACT_MET
        assert [c.text for c in answer.claims] == [LIMIT + "."]

    def test_approving_critic_is_overruled_by_the_verifier(self, example_store: Store) -> None:
        """A fabricated quote is refused by the verifier however the critic judges it."""
        fabricated = limit_draft(
            example_store, quote="Employees may accept gifts of up to $500 per giver."
        )
        answer, _ = ask(
            example_store, ScriptedGenerator([fabricated] * 3), ScriptedCritic.approving()
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []
        assert "quote_not_found" in answer.dropped_claims[0].reasons

    @pytest.mark.parametrize("verdict", [Verdict.CONTRADICTED, Verdict.NOT_FOUND, Verdict.PARTIAL])
    def test_a_verdict_other_than_supported_is_never_emitted(
        self, example_store: Store, verdict: Verdict
    ) -> None:
        """A verified claim the critic does not judge supported is not answered."""
        critic = ScriptedCritic.judging(verdict)
        answer, _ = ask(example_store, ScriptedGenerator([limit_draft(example_store)] * 3), critic)
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []
        assert critic.calls[-1]["phase"] == "audit"


class TestScriptedCriticScripts:
    def test_phases_follow_their_scripts_in_order(self, example_store: Store) -> None:
        """A sufficiency judgement naming a query makes the run retrieve it before drafting; the
        scripted audit then decides."""
        insufficient = CriticSufficiency(
            requires_more_context=True,
            reason="the register rule is missing",
            missing_facts=["gift register deadline"],
            suggested_query="gifts register business days",
        )
        sufficient = CriticSufficiency(requires_more_context=False, reason="enough")
        audit = CriticAudit(
            claims=[ClaimAudit(claim_id="c1", verdict=Verdict.SUPPORTED, reason="states it")],
            coverage=1.0,
            contract_met=True,
        )
        critic = ScriptedCritic([insufficient, sufficient], [audit])
        answer, trace = ask(example_store, ScriptedGenerator([limit_draft(example_store)]), critic)
        assert answer.outcome is Outcome.ANSWERED
        queries = [e.query for e in events_of_kind(trace, RetrievalEvent)]
        assert "gifts register business days" in queries
        assert [c["phase"] for c in critic.calls] == ["sufficiency", "sufficiency", "audit"]
        judged = events_of_kind(trace, SufficiencyEvent)
        assert [e.output.requires_more_context for e in judged] == [True, False]

    def test_exhausted_script_fails_closed(self, example_store: Store) -> None:
        """A critic with no audit left is an invalid critic: the run abstains, critic_invalid."""
        critic = ScriptedCritic([CriticSufficiency(requires_more_context=False, reason="ok")])
        answer, _ = ask(example_store, ScriptedGenerator([limit_draft(example_store)]), critic)
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.CRITIC_INVALID

    def test_sufficiency_is_judged_without_the_draft(self, example_store: Store) -> None:
        """Phase 1 is given the question and passages and is called before anything is drafted."""
        seen: list[tuple[str, list[Passage]]] = []

        def judge(question: str, evidence: Sequence[Passage]) -> CriticSufficiency:
            seen.append((question, list(evidence)))
            return CriticSufficiency(requires_more_context=False, reason="ok")

        def approve(claims: Sequence[Claim]) -> CriticAudit:
            audits = [
                ClaimAudit(claim_id=c.claim_id, verdict=Verdict.SUPPORTED, reason="ok")
                for c in claims
            ]
            return CriticAudit(claims=audits, coverage=1.0, contract_met=True)

        critic = ScriptedCritic(judge, approve)
        generator = ScriptedGenerator([limit_draft(example_store)])
        _, trace = ask(example_store, generator, critic)
        assert seen and seen[0][0] == QUESTION
        assert all(isinstance(p, Passage) for p in seen[0][1])
        kinds = [line.event.kind for line in trace.lines]
        assert kinds.index("sufficiency") < kinds.index("draft")


class TestScriptedGenerator:
    def test_function_drafts_from_the_evidence_it_is_given(self, example_store: Store) -> None:
        """A function script drafts from the passages the run retrieved (here the first one
        stating the limit), and that draft is what the trace records."""

        def from_evidence(question: str, evidence: Sequence[Passage]) -> Draft:
            passage = next(p for p in evidence if LIMIT in p.text)
            citation = Citation(
                doc_id=passage.doc_id, version=passage.version, page=passage.page, quote=LIMIT
            )
            return Draft(claims=[Claim(claim_id="c1", text=LIMIT + ".", citations=[citation])])

        generator = ScriptedGenerator(from_evidence)
        answer, trace = ask(example_store, generator, ScriptedCritic.approving())
        assert answer.outcome is Outcome.ANSWERED
        drafts = events_of_kind(trace, DraftEvent)
        assert [c.text for c in drafts[0].output.claims] == [LIMIT + "."]
        assert generator.calls[0]["question"] == QUESTION

    def test_exhausted_script_declines(self, example_store: Store) -> None:
        """A generator with no draft left declines, and the run abstains with nothing emitted."""
        answer, _ = ask(example_store, ScriptedGenerator([]), ScriptedCritic.approving())
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []

    def test_component_ids_name_the_doubles_in_the_trace(self, example_store: Store) -> None:
        """The run-start event records the doubles' component ids, which callers may choose."""
        generator = ScriptedGenerator([limit_draft(example_store)], component_id="generator:mine")
        critic = ScriptedCritic.approving(component_id="critic:mine")
        _, trace = ask(example_store, generator, critic)
        (start,) = events_of_kind(trace, RunStartEvent)
        assert start.components["generator"] == "generator:mine"
        assert start.components["critic"] == "critic:mine"
