"""Scores from the triad: groundedness 0–1, quality 1–4, disclaimers, flags, quality retry.

* groundedness is the triad's (mean claim score / 3);
* quality is answer relevance + 1 (0–3 becomes 1–4);
* the **review score** (1–4) — what flags a run and what user feedback is compared with — is
  ``min(quality, 1 + 3 × groundedness)``: an answer is as good as its weaker side;
* the disclaimer comes from groundedness and the policy's ``disclaimers`` thresholds: at or
  above ``none_at`` none, at or above ``caution_at`` the caution text ("some content may go
  beyond the available sources"), below it the insufficient-evidence text;
* a run is flagged for review when its review score is below ``judges.flag_threshold`` or its
  answer states no checkable claim;
* an answer of quality <= ``quality_retry_at`` and at least ``min_judgeable_words`` words (as
  :func:`~evidencegate.text.word_tokens` counts them) is
  regenerated once (:func:`needs_quality_retry`), and the better-grounded of the two kept
  (:func:`keep_better`).

An abstention is not scored: every field is None and nothing is flagged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from evidencegate.judgements import AnswerRelevance, AnswerScore, TriadResult
from evidencegate.policy import DisclaimerPolicy, JudgesPolicy, Policy
from evidencegate.text import word_tokens

__all__ = [
    "Scored",
    "disclaimer_for",
    "keep_better",
    "needs_quality_retry",
    "quality_score",
    "review_score",
    "score_answer",
]

DraftT = TypeVar("DraftT")


def quality_score(answer: AnswerRelevance) -> int:
    """Quality 1–4 from answer relevance 0–3."""
    return answer.score + 1


def review_score(groundedness: float, quality: int) -> float:
    """The 1–4 review scale: ``min(quality, 1 + 3 × groundedness)``."""
    if not 0.0 <= groundedness <= 1.0 or not 1 <= quality <= 4:
        raise ValueError(f"groundedness 0..1 and quality 1..4 (got {groundedness}, {quality})")
    return round(min(float(quality), 1.0 + 3.0 * groundedness), 6)


def disclaimer_for(groundedness: float, disclaimers: DisclaimerPolicy) -> str | None:
    """None at or above ``none_at``; the caution text at or above ``caution_at``; else the
    insufficient-evidence text."""
    if groundedness >= disclaimers.none_at:
        return None
    if groundedness >= disclaimers.caution_at:
        return disclaimers.caution_text
    return disclaimers.insufficient_text


def score_answer(triad: TriadResult, *, policy: Policy) -> AnswerScore:
    """Groundedness, quality, review score, disclaimer and flag reasons of a judged answer."""
    if triad.groundedness.abstained:
        return AnswerScore(abstained=True)
    quality = quality_score(triad.answer)
    grounded = triad.groundedness.score
    if grounded is None:
        return AnswerScore(
            abstained=False,
            quality=quality,
            disclaimer=policy.disclaimers.insufficient_text,
            flag_reasons=["the answer states no checkable claim"],
        )
    review = review_score(grounded, quality)
    threshold = policy.judges.flag_threshold
    flags = (
        [
            f"review score {review:.2f} < flag_threshold {threshold:.2f} "
            f"(groundedness {grounded:.2f}, quality {quality})"
        ]
        if review < threshold
        else []
    )
    return AnswerScore(
        abstained=False,
        groundedness=grounded,
        quality=quality,
        review_score=review,
        disclaimer=disclaimer_for(grounded, policy.disclaimers),
        flag_reasons=flags,
    )


def needs_quality_retry(score: AnswerScore, answer: str, policy: JudgesPolicy) -> bool:
    """Regenerate once: retry on, quality <= ``quality_retry_at``, answer long enough to judge."""
    return (
        policy.quality_retry
        and score.quality is not None
        and score.quality <= policy.quality_retry_at
        and len(word_tokens(answer)) >= policy.min_judgeable_words
    )


@dataclass(frozen=True)
class Scored(Generic[DraftT]):
    """A draft (of any type) with its score."""

    draft: DraftT
    score: AnswerScore


def keep_better(first: Scored[DraftT], second: Scored[DraftT]) -> Scored[DraftT]:
    """The better-grounded of two scored drafts; on a tie the higher quality; then the first.

    An abstention (no groundedness) loses to any scored draft.
    """

    def key(item: Scored[DraftT]) -> tuple[float, int]:
        grounded = item.score.groundedness
        return (-1.0 if grounded is None else grounded, item.score.quality or 0)

    return second if key(second) > key(first) else first
