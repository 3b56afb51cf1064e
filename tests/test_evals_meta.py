"""Meta-evaluation arithmetic against hand-computed values."""

from __future__ import annotations

import random
from typing import Any, Literal, cast

import pytest

from evidencegate.evals.meta import (
    Confusion,
    Outcome,
    bootstrap_interval,
    confusion,
    metric_report,
)

U: Literal["unsupported"] = "unsupported"
S: Literal["supported"] = "supported"


def outcomes(tp: int, fp: int, fn: int, tn: int) -> list[Outcome]:
    return [(U, U)] * tp + [(S, U)] * fp + [(U, S)] * fn + [(S, S)] * tn


class TestConfusion:
    def test_counts_each_cell(self) -> None:
        """Gold/prediction pairs land in the right cells, unsupported being positive."""
        assert confusion(outcomes(3, 1, 2, 4)) == Confusion(tp=3, fp=1, fn=2, tn=4)

    def test_metrics_equal_hand_computed_values(self) -> None:
        """tp=3 fp=1 fn=2 tn=4: P .75, R .6, F1 2/3, BAcc .7, kappa (.7-.5)/(1-.5) = .4."""
        matrix = confusion(outcomes(3, 1, 2, 4))
        assert matrix.precision == pytest.approx(0.75)
        assert matrix.recall == pytest.approx(0.6)
        assert matrix.f1 == pytest.approx(2 / 3)
        assert matrix.specificity == pytest.approx(0.8)
        assert matrix.balanced_accuracy == pytest.approx(0.7)
        assert matrix.kappa == pytest.approx(0.4)

    def test_judge_errors_count_as_wrong_answers(self) -> None:
        """An error on an unsupported item is a false negative, on a supported one a false
        positive, and both are counted as errors."""
        matrix = confusion([*outcomes(3, 1, 2, 4), (U, "error"), (S, "error")])
        assert (matrix.tp, matrix.fp, matrix.fn, matrix.tn) == (3, 2, 3, 4)
        assert matrix.errors == 2
        assert matrix.precision == pytest.approx(3 / 5)
        assert matrix.recall == pytest.approx(3 / 6)

    def test_undefined_metrics_are_zero_not_nan(self) -> None:
        """Nothing predicted unsupported: precision and F1 are 0, never NaN."""
        matrix = confusion(outcomes(0, 0, 2, 2))
        assert matrix.precision == 0.0
        assert matrix.f1 == 0.0
        assert matrix.kappa == 0.0

    def test_perfect_agreement_on_one_class_has_kappa_one(self) -> None:
        """Expected agreement 1 with observed agreement 1 is kappa 1 by convention."""
        assert confusion(outcomes(0, 0, 0, 5)).kappa == 1.0

    def test_rejects_unknown_labels(self) -> None:
        """A gold label other than supported/unsupported is an error naming it."""
        with pytest.raises(ValueError, match="ambiguous"):
            confusion([("ambiguous", U)])
        with pytest.raises(ValueError, match="maybe"):
            confusion([(U, "maybe")])  # type: ignore[list-item]


class TestBootstrap:
    def test_same_seed_same_interval(self) -> None:
        """A fixed seed makes the interval reproducible; another seed may differ."""
        data = outcomes(30, 10, 20, 40)
        first = bootstrap_interval(data, lambda c: c.f1, resamples=200, seed=3)
        again = bootstrap_interval(data, lambda c: c.f1, resamples=200, seed=3)
        assert first == again
        assert first.low <= first.value <= first.high

    def test_single_resample_uses_the_seeded_draws(self) -> None:
        """With one resample, both bounds are the metric on the items drawn by Random(seed),
        the same draws as the ablation's bootstrap (one resampler for both)."""
        data = outcomes(3, 1, 2, 4)
        drawn = [data[i] for i in random.Random(11).choices(range(len(data)), k=len(data))]
        expected = confusion(drawn).balanced_accuracy
        interval = bootstrap_interval(data, lambda c: c.balanced_accuracy, resamples=1, seed=11)
        assert interval.low == interval.high == pytest.approx(expected)

    def test_constant_perfect_judge_has_a_point_interval(self) -> None:
        """A judge right on every item has BAcc 1 with interval [1, 1]."""
        interval = bootstrap_interval(outcomes(5, 0, 0, 5), lambda c: c.balanced_accuracy)
        assert (interval.value, interval.low, interval.high) == (1.0, 1.0, 1.0)

    def test_report_lists_every_metric_and_the_matrix(self) -> None:
        """The JSON report holds each metric with its interval, and the confusion matrix."""
        report = metric_report([*outcomes(3, 1, 2, 4), (U, "error")], resamples=50, seed=1)
        for name in ("precision", "recall", "f1", "balanced_accuracy", "kappa"):
            assert set(cast(dict[str, Any], report[name])) == {"value", "ci_low", "ci_high"}
        assert report["confusion"] == {
            "gold_unsupported": {
                "predicted_unsupported": 3,
                "predicted_supported": 2,
                "judge_error": 1,
            },
            "gold_supported": {
                "predicted_unsupported": 1,
                "predicted_supported": 4,
                "judge_error": 0,
            },
        }
        assert report["errors"] == 1

    def test_rejects_empty_input(self) -> None:
        """No outcomes is an error, not a NaN."""
        with pytest.raises(ValueError, match="no outcomes"):
            bootstrap_interval([], lambda c: c.f1)
