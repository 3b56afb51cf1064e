"""Meta-evaluation of a judge against human labels: confusion matrix, P/R/F1, BAcc, kappa, CIs.

The positive class is ``unsupported`` (what a groundedness judge exists to catch). A judge error
is never skipped: it counts as a wrong answer — a false negative on an unsupported item, a false
positive on a supported one — and is also counted on its own in ``errors``.

Conventions where a metric is undefined (never NaN): precision is 0 when nothing was predicted
unsupported, recall 0 when no item is unsupported, F1 0 when precision + recall is 0; Cohen's
kappa is 1 when expected agreement is 1 and the judge agrees on every item, else 0 there.

Confidence intervals are percentile bootstraps over items (:func:`evidencegate.stats.bootstrap`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from evidencegate.stats import bootstrap

__all__ = [
    "GOLD_LABELS",
    "METRICS",
    "Confusion",
    "Interval",
    "Outcome",
    "bootstrap_interval",
    "confusion",
    "metric_report",
]

GOLD_LABELS = ("supported", "unsupported")
Outcome = tuple[str, Literal["supported", "unsupported", "error"]]
"""(gold label, prediction): a prediction is a label or ``"error"``."""


@dataclass(frozen=True)
class Confusion:
    """Counts with ``unsupported`` positive. Errors are already inside fp/fn; ``errors`` and
    ``error_on_*`` say how many of them were judge errors."""

    tp: int
    fp: int
    fn: int
    tn: int
    error_on_unsupported: int = 0
    error_on_supported: int = 0

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def errors(self) -> int:
        return self.error_on_unsupported + self.error_on_supported

    @property
    def precision(self) -> float:
        predicted = self.tp + self.fp
        return self.tp / predicted if predicted else 0.0

    @property
    def recall(self) -> float:
        actual = self.tp + self.fn
        return self.tp / actual if actual else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def specificity(self) -> float:
        actual = self.tn + self.fp
        return self.tn / actual if actual else 0.0

    @property
    def balanced_accuracy(self) -> float:
        return (self.recall + self.specificity) / 2

    @property
    def accuracy(self) -> float:
        return (self.tp + self.tn) / self.n if self.n else 0.0

    @property
    def kappa(self) -> float:
        """Cohen's kappa between the judge (errors as wrong answers) and the gold labels."""
        n = self.n
        if not n:
            return 0.0
        observed = (self.tp + self.tn) / n
        gold_pos, pred_pos = (self.tp + self.fn) / n, (self.tp + self.fp) / n
        expected = gold_pos * pred_pos + (1 - gold_pos) * (1 - pred_pos)
        if expected >= 1.0:
            return 1.0 if observed >= 1.0 else 0.0
        return (observed - expected) / (1 - expected)


METRICS: dict[str, Callable[[Confusion], float]] = {
    "precision": lambda c: c.precision,
    "recall": lambda c: c.recall,
    "f1": lambda c: c.f1,
    "balanced_accuracy": lambda c: c.balanced_accuracy,
    "kappa": lambda c: c.kappa,
}
"""The metrics reported with confidence intervals, by name."""


def confusion(outcomes: Sequence[Outcome]) -> Confusion:
    """Count (gold, prediction) pairs; gold must be supported or unsupported."""
    tp = fp = fn = tn = err_pos = err_neg = 0
    for gold, predicted in outcomes:
        if gold not in GOLD_LABELS:
            raise ValueError(f"gold label {gold!r} is not one of {GOLD_LABELS}")
        positive = gold == "unsupported"
        if predicted == "error":
            if positive:
                fn += 1
                err_pos += 1
            else:
                fp += 1
                err_neg += 1
        elif predicted not in GOLD_LABELS:
            raise ValueError(f"prediction {predicted!r} is not a label nor 'error'")
        elif positive:
            tp, fn = (tp + 1, fn) if predicted == "unsupported" else (tp, fn + 1)
        else:
            fp, tn = (fp + 1, tn) if predicted == "unsupported" else (fp, tn + 1)
    return Confusion(tp, fp, fn, tn, err_pos, err_neg)


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float


def bootstrap_interval(
    outcomes: Sequence[Outcome],
    metric: Callable[[Confusion], float],
    *,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> Interval:
    """The metric on ``outcomes`` with a percentile bootstrap interval (items resampled)."""
    if not outcomes:
        raise ValueError("no outcomes to evaluate")
    if resamples < 1 or not 0.0 < level < 1.0:
        raise ValueError(f"resamples must be >= 1 and level in (0, 1) (got {resamples}, {level})")
    bounds = bootstrap(
        len(outcomes),
        lambda draw: metric(confusion([outcomes[i] for i in draw])),
        resamples=resamples,
        seed=seed,
        level=level,
    )
    if bounds is None:  # the metric gives a value on every resample: cannot happen
        raise ValueError("no resample to evaluate")
    low, high = bounds
    return Interval(value=metric(confusion(outcomes)), low=low, high=high)


def metric_report(
    outcomes: Sequence[Outcome], *, resamples: int = 1000, seed: int = 0
) -> dict[str, object]:
    """Every metric with its 95% interval, and the confusion matrix, as JSON-ready data."""
    matrix = confusion(outcomes)
    report: dict[str, object] = {
        name: _interval_json(bootstrap_interval(outcomes, metric, resamples=resamples, seed=seed))
        for name, metric in METRICS.items()
    }
    report["confusion"] = {
        "gold_unsupported": {
            "predicted_unsupported": matrix.tp,
            "predicted_supported": matrix.fn - matrix.error_on_unsupported,
            "judge_error": matrix.error_on_unsupported,
        },
        "gold_supported": {
            "predicted_unsupported": matrix.fp - matrix.error_on_supported,
            "predicted_supported": matrix.tn,
            "judge_error": matrix.error_on_supported,
        },
    }
    report["n"] = matrix.n
    report["errors"] = matrix.errors
    report["accuracy"] = round(matrix.accuracy, 6)
    report["bootstrap"] = {"resamples": resamples, "seed": seed, "level": 0.95}
    return report


def _interval_json(interval: Interval) -> dict[str, float]:
    return {
        "value": round(interval.value, 6),
        "ci_low": round(interval.low, 6),
        "ci_high": round(interval.high, 6),
    }
