"""The loop's decisions as pure functions: what the run has become → the next step.

:func:`decide` reads a :class:`Situation`, the frozen facts the controller gathers at the end
of a pass (the draft verified, audited and, with the judges on, judged), and returns the next
step: :class:`Stop`, :class:`Regenerate` or :class:`FollowUp`. It calls nothing and changes
nothing, so every stop reason is tested from a table (``tests/test_decide.py``). The rules, in
order, the first that applies wins:

1. the draft was not audited (the baseline arm): stop, ``no_reflection``;
2. the judges find the answer poor, no quality retry was made yet and a pass is left:
   regenerate once, keeping this draft to compare with the next (the better one is kept);
3. every claim verified and supported, coverage at the threshold: stop, ``contract_met``;
4. nothing was retrieved: stop, ``no_evidence``;
5. the pass budget is spent: stop, ``max_passes``;
6. routing on (``policy.judges.routing``): the judges' route, regenerate (avoiding the failed
   claims, or all of them when none failed), follow up on the question's keywords, or stop
   with ``no_concrete_gap``;
7. some claims failed: regenerate, avoiding them;
8. an earlier follow-up found no new primary source: stop, ``no_new_source``;
9. no follow-up possible (the arm, the critic names no query, the budget): stop,
   ``no_concrete_gap``;
10. else follow up with the critic's query.

A follow-up that brings no new primary source ends the run with ``no_new_source``
(:attr:`FollowUp.if_nothing_new`); what counts as new is the policy's ``new_source``: a
document not seen yet (the default, and the rule of traces recorded before the field) or a page
not seen yet (the statement page of a filing already read is new evidence).
Stops that interrupt a pass (a spent budget, a critic output that is invalid, a component that
fails) are raised, not decided: :func:`interrupted` names their stop reason.
:func:`closing_decision` is the decision recorded when the run stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from evidencegate.contracts import Action, Claim, Decision, Outcome, StopReason
from evidencegate.exceptions import BudgetExceeded, CriticOutputInvalid
from evidencegate.protocols import Route, RouteDecision

__all__ = [
    "ComponentFailed",
    "FollowUp",
    "Regenerate",
    "Situation",
    "Step",
    "Stop",
    "closing_decision",
    "decide",
    "interrupted",
]

CONTRACT_MET_DETAIL = "every claim verified and supported"


@dataclass(frozen=True, kw_only=True)
class Situation:
    """What the run knows at the end of a pass; defaults describe a pass with nothing to say."""

    audited: bool = True
    """The critic audited the draft (False on the baseline arm, which has no critic)."""
    poor_quality: str | None = None
    """The judges' reason to regenerate for quality, or None when they see none."""
    quality_retried: bool = False
    """A quality retry was made already in this run."""
    contract_met: bool = False
    has_evidence: bool = True
    passes_left: bool = True
    route: RouteDecision | None = None
    """The judges' route for the draft (only when routing is on)."""
    keyword_query: str = ""
    """The follow-up query of a routed follow-up."""
    claims: tuple[Claim, ...] = ()
    """The claims of the draft the run would emit."""
    failed: frozenset[str] = frozenset()
    """The ids of its claims that failed verification or the audit."""
    followup_exhausted: bool = False
    may_follow_up: bool = True
    """The arm follows up (only ``grounded_followup`` does)."""
    followups_left: bool = True
    suggested_query: str | None = None
    """The critic's follow-up query for the missing facts."""


@dataclass(frozen=True)
class Stop:
    """End the run with ``reason``; ``detail`` is added to the decision recorded."""

    reason: StopReason
    detail: str = ""


@dataclass(frozen=True)
class Regenerate:
    """Draft again, avoiding the texts in ``avoid``."""

    reason: str
    detail: str
    avoid: tuple[str, ...]
    compare: bool = False
    """A quality retry: keep this draft and emit the better of it and the next."""
    routed: bool = False
    """The judges' route asked for it (counted against ``judges.max_regenerations``)."""


@dataclass(frozen=True)
class FollowUp:
    """Retrieve with ``query``, then judge sufficiency again; stop when nothing new comes."""

    reason: str
    detail: str
    query: str
    if_nothing_new: Stop = Stop(StopReason.NO_NEW_SOURCE)


Step = Stop | Regenerate | FollowUp


def decide(s: Situation) -> Step:
    """The next step of the run (see the module docstring for the rules and their order)."""
    if not s.audited:
        return Stop(StopReason.NO_REFLECTION)
    if s.poor_quality is not None and not s.quality_retried and s.passes_left:
        return Regenerate(
            "quality retry", s.poor_quality, tuple(c.text for c in s.claims), compare=True
        )
    if s.contract_met:
        return Stop(StopReason.CONTRACT_MET, CONTRACT_MET_DETAIL)
    if not s.has_evidence:
        return Stop(StopReason.NO_EVIDENCE)
    if not s.passes_left:
        return Stop(StopReason.MAX_PASSES)
    if s.route is not None:
        if s.route.route is Route.REGENERATE:
            avoid = tuple(c.text for c in s.claims if c.claim_id in s.failed or not s.failed)
            return Regenerate("routing", s.route.reason, avoid, routed=True)
        if s.route.route is Route.FOLLOW_UP:
            return FollowUp("routing", s.route.reason, s.keyword_query)
        return Stop(StopReason.NO_CONCRETE_GAP, f"routing: {s.route.reason}")
    if s.failed:
        avoid = tuple(c.text for c in s.claims if c.claim_id in s.failed)
        return Regenerate("unsupported claims", ", ".join(sorted(s.failed)), avoid)
    if s.followup_exhausted:
        return Stop(StopReason.NO_NEW_SOURCE)
    if not s.may_follow_up or not s.suggested_query or not s.followups_left:
        return Stop(StopReason.NO_CONCRETE_GAP)
    return FollowUp("missing facts", s.suggested_query, s.suggested_query)


class ComponentFailed(Exception):
    """A component (retriever, generator, critic, verifier, judge) raised: the run stops with
    ``component_error``. Raised by the controller's one boundary around component calls."""

    def __init__(self, component: str, error: Exception) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.component = component
        self.error = error


def interrupted(exc: BudgetExceeded | CriticOutputInvalid | ComponentFailed) -> StopReason:
    """The stop reason of a pass interrupted by ``exc``."""
    if isinstance(exc, BudgetExceeded):
        return _LIMIT_TO_STOP[exc.limit]
    if isinstance(exc, CriticOutputInvalid):
        return StopReason.CRITIC_INVALID
    return StopReason.COMPONENT_ERROR


_LIMIT_TO_STOP = {
    "time_budget.per_run_s": StopReason.BUDGET_TIME,
    "max_tokens": StopReason.BUDGET_TOKENS,
    "max_cost_usd": StopReason.BUDGET_COST,
    "max_retrievals": StopReason.BUDGET_RETRIEVALS,
    "max_model_calls": StopReason.BUDGET_CALLS,
}


def closing_decision(
    pass_no: int, stop: Stop, outcome: Outcome, *, on_fail: str
) -> Decision | None:
    """The decision recorded when the run stops (None for the baseline arm, which decides
    nothing): FINAL when the contract is met; else what ``on_fail`` made of the answer."""
    if stop.reason is StopReason.NO_REFLECTION:
        return None
    if stop.reason is StopReason.CONTRACT_MET:
        return Decision(
            pass_no=pass_no, action=Action.FINAL, reason=stop.reason, detail=stop.detail
        )
    action = Action.ABSTAIN if outcome is Outcome.ABSTAINED else Action.FINAL
    detail = f"on_fail={on_fail}" + (f"; {stop.detail}" if stop.detail else "")
    return Decision(pass_no=max(pass_no, 1), action=action, reason=stop.reason, detail=detail)
