"""The loop's decision procedure, from a table: every stop reason and every step."""

from __future__ import annotations

import pytest

from evidencegate.contracts import Action, Citation, Claim, Outcome, StopReason
from evidencegate.exceptions import BudgetExceeded, CriticOutputInvalid
from evidencegate.judgements import Route, RouteDecision
from evidencegate.loop.decide import (
    ComponentFailed,
    FollowUp,
    Regenerate,
    Situation,
    Step,
    Stop,
    closing_decision,
    decide,
    interrupted,
)

C1 = Claim(
    claim_id="c1",
    text="first claim",
    citations=[Citation(doc_id="D", version="1", page=1, quote="first claim quote")],
)
C2 = Claim(
    claim_id="c2",
    text="second claim",
    citations=[Citation(doc_id="D", version="1", page=1, quote="second claim quote")],
)
CLAIMS = (C1, C2)


def routed(route: Route) -> RouteDecision:
    return RouteDecision(route=route, reason=f"judges say {route.value}")


DECISIONS: list[tuple[str, Situation, Step]] = [
    (
        "baseline: no audit",
        Situation(audited=False, contract_met=True),
        Stop(StopReason.NO_REFLECTION),
    ),
    (
        "poor quality: one retry keeping the draft",
        Situation(poor_quality="quality 2 <= 2", claims=CLAIMS, contract_met=True),
        Regenerate(
            "quality retry", "quality 2 <= 2", ("first claim", "second claim"), compare=True
        ),
    ),
    (
        "poor quality after the retry: decided on its merits",
        Situation(poor_quality="quality 2 <= 2", quality_retried=True, contract_met=True),
        Stop(StopReason.CONTRACT_MET, "every claim verified and supported"),
    ),
    (
        "poor quality, no pass left: no retry",
        Situation(poor_quality="quality 1 <= 2", passes_left=False, contract_met=True),
        Stop(StopReason.CONTRACT_MET, "every claim verified and supported"),
    ),
    (
        "contract met beats everything after it",
        Situation(contract_met=True, has_evidence=False, passes_left=False),
        Stop(StopReason.CONTRACT_MET, "every claim verified and supported"),
    ),
    ("no evidence", Situation(has_evidence=False, passes_left=False), Stop(StopReason.NO_EVIDENCE)),
    (
        "passes spent",
        Situation(passes_left=False, failed=frozenset({"c1"}), claims=CLAIMS),
        Stop(StopReason.MAX_PASSES),
    ),
    (
        "route: regenerate avoids the failed claims",
        Situation(route=routed(Route.REGENERATE), claims=CLAIMS, failed=frozenset({"c2"})),
        Regenerate("routing", "judges say regenerate", ("second claim",), routed=True),
    ),
    (
        "route: regenerate with none failed avoids them all",
        Situation(route=routed(Route.REGENERATE), claims=CLAIMS),
        Regenerate(
            "routing", "judges say regenerate", ("first claim", "second claim"), routed=True
        ),
    ),
    (
        "route: follow up on the question's keywords",
        Situation(route=routed(Route.FOLLOW_UP), keyword_query="gift limit"),
        FollowUp("routing", "judges say follow_up", "gift limit"),
    ),
    (
        "route: finish names the route",
        Situation(route=routed(Route.FINISH), failed=frozenset({"c1"}), claims=CLAIMS),
        Stop(StopReason.NO_CONCRETE_GAP, "routing: judges say finish"),
    ),
    (
        "failed claims: regenerate avoiding them",
        Situation(claims=CLAIMS, failed=frozenset({"c2", "c1"}), followup_exhausted=True),
        Regenerate("unsupported claims", "c1, c2", ("first claim", "second claim")),
    ),
    (
        "follow-up found nothing new before",
        Situation(followup_exhausted=True, suggested_query="more"),
        Stop(StopReason.NO_NEW_SOURCE),
    ),
    (
        "arm does not follow up",
        Situation(may_follow_up=False, suggested_query="more"),
        Stop(StopReason.NO_CONCRETE_GAP),
    ),
    ("critic names no query", Situation(suggested_query=None), Stop(StopReason.NO_CONCRETE_GAP)),
    (
        "no follow-up budget",
        Situation(followups_left=False, suggested_query="more"),
        Stop(StopReason.NO_CONCRETE_GAP),
    ),
    (
        "the critic's query",
        Situation(suggested_query="gift register"),
        FollowUp("missing facts", "gift register", "gift register"),
    ),
]

INTERRUPTIONS: list[tuple[Exception, StopReason]] = [
    (BudgetExceeded("time_budget.per_run_s", allowed=1, used=2), StopReason.BUDGET_TIME),
    (BudgetExceeded("max_tokens", allowed=1, used=2), StopReason.BUDGET_TOKENS),
    (BudgetExceeded("max_cost_usd", allowed=1, used=2), StopReason.BUDGET_COST),
    (BudgetExceeded("max_retrievals", allowed=1, used=2), StopReason.BUDGET_RETRIEVALS),
    (BudgetExceeded("max_model_calls", allowed=1, used=2), StopReason.BUDGET_CALLS),
    (CriticOutputInvalid("bad audit", critic="c"), StopReason.CRITIC_INVALID),
    (ComponentFailed("gen", RuntimeError("down")), StopReason.COMPONENT_ERROR),
]


class TestDecide:
    @pytest.mark.parametrize(
        ("situation", "expected"),
        [(s, e) for _, s, e in DECISIONS],
        ids=[name for name, _, _ in DECISIONS],
    )
    def test_table(self, situation: Situation, expected: Step) -> None:
        """Each situation leads to its step, the first applicable rule winning."""
        assert decide(situation) == expected

    def test_nothing_new_after_a_follow_up_stops(self) -> None:
        """A follow-up that brings no new primary source ends the run with no_new_source."""
        step = decide(Situation(suggested_query="q"))
        assert isinstance(step, FollowUp)
        assert step.if_nothing_new == Stop(StopReason.NO_NEW_SOURCE)

    @pytest.mark.parametrize(("exc", "reason"), INTERRUPTIONS)
    def test_interruptions(self, exc: Exception, reason: StopReason) -> None:
        """A pass interrupted by a budget, a bad critic output or a component names its stop."""
        assert interrupted(exc) is reason  # type: ignore[arg-type]

    def test_every_stop_reason_is_in_a_table(self) -> None:
        """The two tables cover every StopReason there is."""
        decided = {e.reason for _, _, e in DECISIONS if isinstance(e, Stop)}
        decided |= {StopReason.NO_NEW_SOURCE}
        assert decided | {r for _, r in INTERRUPTIONS} == set(StopReason)


class TestClosingDecision:
    def test_contract_met_is_final(self) -> None:
        """A met contract is recorded FINAL with its detail."""
        stop = Stop(StopReason.CONTRACT_MET, "every claim verified and supported")
        decision = closing_decision(2, stop, Outcome.ANSWERED, on_fail="abstain")
        assert decision is not None and decision.action is Action.FINAL
        assert decision.detail == "every claim verified and supported"

    def test_baseline_records_no_decision(self) -> None:
        """The baseline arm decides nothing."""
        stop = Stop(StopReason.NO_REFLECTION)
        assert closing_decision(1, stop, Outcome.UNGATED, on_fail="abstain") is None

    @pytest.mark.parametrize(
        ("outcome", "action"),
        [(Outcome.ABSTAINED, Action.ABSTAIN), (Outcome.REDACTED, Action.FINAL)],
    )
    def test_unmet_stop_says_what_on_fail_did(self, outcome: Outcome, action: Action) -> None:
        """An unmet stop is ABSTAIN or FINAL by the outcome, with on_fail and the stop detail."""
        stop = Stop(StopReason.NO_CONCRETE_GAP, "routing: finish")
        decision = closing_decision(0, stop, outcome, on_fail="redact")
        assert decision is not None
        assert (decision.pass_no, decision.action) == (1, action)
        assert decision.detail == "on_fail=redact; routing: finish"
