"""The evidence contract applied when a run stops: only verified, supported claims leave.

:func:`gated_answer` turns the run's last audited draft and its stop reason into the
:class:`~evidencegate.contracts.GatedAnswer`: answered when the contract is met, else what
``policy.on_fail`` chooses (abstain, redact to the verified claims, or annotate with a
disclaimer). Pure: it reads the run's state and builds the answer.
"""

from __future__ import annotations

import datetime as dt

from evidencegate.contracts import Claim, DroppedClaim, GatedAnswer, Outcome, StopReason, Usage
from evidencegate.loop.state import Attempt, render
from evidencegate.policy import Policy
from evidencegate.protocols import AnswerScore

__all__ = ["final_score", "gated_answer"]


def gated_answer(
    *,
    question: str,
    as_of: dt.date,
    policy: Policy,
    gated: bool,
    score: AnswerScore | None,
    stop: StopReason,
    attempt: Attempt | None,
    gaps: list[str],
    dropped: list[DroppedClaim],
    passes: int,
    usage: Usage,
    run_id: str,
) -> GatedAnswer:
    """Apply the contract: only verified, supported claims leave; on_fail decides the rest."""
    coverage = attempt.audit.coverage if attempt else 0.0
    kept: list[Claim] = attempt.kept() if attempt is not None else []
    base = {
        "question": question,
        "as_of": as_of,
        "coverage": coverage,
        "stop_reason": stop,
        "passes": passes,
        "usage": usage,
        "policy": policy.name,
        "trace_id": run_id,
    }
    if not gated:
        # Ablation arms without the verifier's gate: what they emit is marked ungated.
        if kept and stop in (StopReason.CONTRACT_MET, StopReason.NO_REFLECTION):
            return GatedAnswer(outcome=Outcome.UNGATED, answer=render(kept), claims=kept, **base)
        kept = []
    if stop is StopReason.CONTRACT_MET:
        if score is not None and score.disclaimer:
            # The contract is met, but the judges find the answer weakly grounded.
            return GatedAnswer(
                outcome=Outcome.ANSWERED_WITH_DISCLAIMER,
                answer=render(kept),
                claims=kept,
                disclaimer=score.disclaimer,
                **base,
            )
        return GatedAnswer(outcome=Outcome.ANSWERED, answer=render(kept), claims=kept, **base)
    unique_gaps = list(dict.fromkeys(gaps)) or [f"contract not met ({stop.value})"]
    if kept and policy.on_fail == "redact":
        return GatedAnswer(
            outcome=Outcome.REDACTED,
            answer=render(kept),
            claims=kept,
            dropped_claims=dropped,
            gaps=unique_gaps,
            **base,
        )
    if kept and policy.on_fail == "annotate":
        d = policy.disclaimers
        disclaimer: str | None = None
        if score is not None and not score.abstained:
            disclaimer = score.disclaimer  # chosen from groundedness by the judges
        elif coverage < d.none_at:
            disclaimer = d.caution_text if coverage >= d.caution_at else d.insufficient_text
        return GatedAnswer(
            outcome=Outcome.ANSWERED_WITH_DISCLAIMER if disclaimer else Outcome.ANSWERED,
            answer=render(kept),
            claims=kept,
            dropped_claims=dropped,
            gaps=unique_gaps,
            disclaimer=disclaimer,
            **base,
        )
    return GatedAnswer(
        outcome=Outcome.ABSTAINED,
        answer="Abstained: the evidence contract was not met. Gaps: " + "; ".join(unique_gaps),
        dropped_claims=dropped,
        gaps=unique_gaps,
        **base,
    )


def final_score(score: AnswerScore | None, answer: GatedAnswer) -> AnswerScore | None:
    """The judges' score of what was emitted: an abstention scores as an abstention."""
    if score is None:
        return None
    if answer.outcome is Outcome.ABSTAINED:
        return AnswerScore(abstained=True)
    return score
