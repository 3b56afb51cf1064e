"""Routing after generation: where a run goes once a draft has been judged.

In order:

1. an abstention: **follow-up retrieval** when the budget allows one (more evidence is what an
   abstaining draft lacked), else finish;
2. not grounded (groundedness below ``grounded_at``): **regenerate**, at most
   ``max_regenerations`` times, then finish;
3. grounded but not answering the question (answer relevance below ``answers_at``):
   **follow-up retrieval** when the budget allows one, else finish;
4. useful: **finish**.

When the run finishes, the gate, ``on_fail`` and the disclaimers decide what is emitted.

Pure: it reads judgements and counters and returns a decision with its reason.
"""

from __future__ import annotations

from evidencegate.judgements import Route, RouteDecision, TriadResult
from evidencegate.policy import JudgesPolicy

__all__ = ["route_after_generation"]


def route_after_generation(
    triad: TriadResult,
    *,
    policy: JudgesPolicy,
    regenerations: int,
    followups_left: bool,
) -> RouteDecision:
    """The next step for a judged draft. ``regenerations`` already done in this run;
    ``followups_left`` whether the run's follow-up budget allows another retrieval."""
    grounded = triad.groundedness
    answer = triad.answer
    if grounded.abstained:
        if followups_left:
            return RouteDecision(
                route=Route.FOLLOW_UP, reason="the draft abstained: retrieve more evidence"
            )
        return RouteDecision(route=Route.FINISH, reason="the draft abstained; no follow-up left")
    score = grounded.score
    if score is not None and score < policy.grounded_at:
        if regenerations < policy.max_regenerations:
            return RouteDecision(
                route=Route.REGENERATE,
                reason=f"not grounded: groundedness {score:.2f} < {policy.grounded_at:.2f}",
            )
        return RouteDecision(
            route=Route.FINISH,
            reason=f"not grounded ({score:.2f} < {policy.grounded_at:.2f}) and "
            f"max_regenerations={policy.max_regenerations} reached",
        )
    if answer.score < policy.answers_at:
        if followups_left:
            return RouteDecision(
                route=Route.FOLLOW_UP,
                reason=f"grounded but not answering: answer relevance {answer.score} < "
                f"{policy.answers_at}",
            )
        return RouteDecision(
            route=Route.FINISH,
            reason=f"grounded but not answering ({answer.score} < {policy.answers_at}); "
            "no follow-up left",
        )
    return RouteDecision(
        route=Route.FINISH,
        reason=f"useful: groundedness {_fmt(score)}, answer relevance {answer.score}",
    )


def _fmt(score: float | None) -> str:
    return "n/a (no checkable claim)" if score is None else f"{score:.2f}"
