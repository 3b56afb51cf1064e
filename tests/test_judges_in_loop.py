"""The judges wired into the loop: triad events, routing, relevance stage, review queue."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from evidencegate import Citation, Claim, Draft, EvidenceGate, Outcome, Policy, Store
from evidencegate.review import ReviewQueue
from evidencegate.testing import ScriptedGenerator, capture_trace
from evidencegate.trace.events import RelevanceEvent, RunEndEvent, TriadEvent

QUESTION = "What is the maximum value of a gift an employee may accept per giver per calendar year?"
AS_OF = dt.date(2024, 6, 1)


@pytest.fixture
def store(example_store: Store) -> Store:
    """A private copy of the example store, open."""
    return example_store


def ask(store: Store, judges: dict[str, Any], question: str = QUESTION) -> tuple[Any, Any]:
    gate = EvidenceGate(store, policy=Policy(judges=judges))  # type: ignore[arg-type]
    trace = capture_trace()
    answer = gate.ask(question, as_of=AS_OF, trace=trace)
    return answer, trace


class TestTriadInLoop:
    def test_off_by_default(self, store: Store) -> None:
        """Without policy.judges no judge event is recorded and no score is kept."""
        _, trace = ask(store, {})
        kinds = {line.event.kind for line in trace.lines}
        assert "triad" not in kinds and "relevance" not in kinds
        end = trace.lines[-1].event
        assert isinstance(end, RunEndEvent) and end.score is None

    def test_triad_scores_each_draft(self, store: Store) -> None:
        """With judges.triad every draft is judged and the final score ends the trace."""
        answer, trace = ask(store, {"triad": True})
        triads = [ln.event for ln in trace.lines if isinstance(ln.event, TriadEvent)]
        assert triads
        end = trace.lines[-1].event
        assert isinstance(end, RunEndEvent) and end.score is not None
        assert answer.outcome is Outcome.ANSWERED
        assert end.score.groundedness is not None and end.score.groundedness >= 0.8

    def test_unanswerable_is_scored_as_abstention(self, store: Store) -> None:
        """An abstaining run is scored as an abstention, never as grounded."""
        answer, trace = ask(store, {"triad": True}, "For how long must CCTV footage be retained?")
        assert answer.outcome is Outcome.ABSTAINED
        assert any(isinstance(ln.event, TriadEvent) for ln in trace.lines)
        end = trace.lines[-1].event
        assert end.kind == "run_end" and end.score is not None
        assert end.score.groundedness is None  # the emitted answer is the abstention


class TestRelevanceStage:
    def test_labels_and_used_set_are_traced(self, store: Store) -> None:
        """The relevance stage records each document's label and the set the loop used."""
        answer, trace = ask(store, {"relevance": True, "task": "open"})
        events = [ln.event for ln in trace.lines if isinstance(ln.event, RelevanceEvent)]
        assert len(events) == 1
        selection = events[0].selection
        assert selection.judgements
        used = set(selection.used_ids)
        drafted = next(ln.event for ln in trace.lines if ln.event.kind == "draft")
        assert set(drafted.evidence_ids) <= used  # type: ignore[union-attr]
        assert answer.outcome is Outcome.ANSWERED
        assert "$150 per giver per calendar year" in answer.answer


class TestRouting:
    def test_routing_decisions_are_recorded(self, store: Store) -> None:
        """With routing on, a not-answering draft is routed and the decision names routing."""
        answer, trace = ask(
            store,
            {"triad": True, "routing": True},
            "What is the maximum gift value for 2031?",
        )
        decisions = [ln.event for ln in trace.lines if ln.event.kind == "decision"]
        assert any(
            d.decision.reason == "routing" or "routing:" in d.decision.detail  # type: ignore[union-attr]
            for d in decisions
        )
        assert answer.outcome is Outcome.ABSTAINED


class TestReviewQueue:
    def test_low_scores_are_flagged(self, store: Store) -> None:
        """A verified but off-question answer scores low and lands in flagged_responses."""
        off_topic = (
            "Gifts given by an employee on behalf of the Bank must not exceed $75 per "
            "recipient per calendar year."
        )
        page = next(
            p
            for p in range(1, 4)
            if (src := store.lookup("HSB-POL-007", "2024.1", p)) and off_topic in src.page.text
        )
        draft = Draft(
            claims=[
                Claim(
                    claim_id="c1",
                    text=off_topic,
                    citations=[
                        Citation(doc_id="HSB-POL-007", version="2024.1", page=page, quote=off_topic)
                    ],
                )
            ]
        )
        policy = Policy(coverage_threshold=0.0, judges={"triad": True})  # type: ignore[arg-type]
        gate = EvidenceGate(store, policy=policy, generator=ScriptedGenerator([draft]))
        answer = gate.ask(
            "How many invitations to entertainment may an employee accept from a business partner?",
            as_of=AS_OF,
            trace=capture_trace(),
        )
        assert answer.outcome is Outcome.ANSWERED
        with ReviewQueue.open(store.directory) as queue:
            flags = queue.flags(answer.trace_id)
        assert flags and flags[0].score is not None and flags[0].score < 3.0

    def test_abstentions_are_not_flagged(self, store: Store) -> None:
        """An abstention scores as an abstention: it is not queued as a bad answer."""
        answer, _ = ask(store, {"triad": True}, "What is the loan-to-value ratio for buy-to-let?")
        assert answer.outcome is Outcome.ABSTAINED
        with ReviewQueue.open(store.directory) as queue:
            assert queue.flags(answer.trace_id) == []

    def test_good_scores_are_not_flagged(self, store: Store) -> None:
        """A well-grounded, on-topic answer is not queued at the default threshold."""
        answer, _ = ask(store, {"triad": True})
        with ReviewQueue.open(store.directory) as queue:
            assert queue.flags(answer.trace_id) == []
