"""The one bootstrap: seeded draws, percentile intervals, undefined resamples left out."""

from __future__ import annotations

import pytest

from evidencegate.stats import bootstrap, percentile_interval, resample_indices


class TestBootstrap:
    def test_interval_of_a_constant_is_a_point(self) -> None:
        """Every resample of identical items gives the same value: the interval is a point."""
        assert bootstrap(10, lambda draw: 0.5, resamples=50) == (0.5, 0.5)

    def test_interval_brackets_the_mean_of_a_mixed_sample(self) -> None:
        """The interval of the mean of 0s and 1s lies within [0, 1] and around the sample mean."""
        values = [0.0] * 30 + [1.0] * 70
        low, high = bootstrap(
            len(values),
            lambda draw: sum(values[i] for i in draw) / len(draw),
            resamples=400,
            seed=5,
        ) or (None, None)
        assert low is not None and high is not None
        assert 0.5 < low < 0.7 < high < 0.85

    def test_undefined_resamples_are_left_out(self) -> None:
        """A statistic undefined on a draw (None) does not count; all undefined gives None."""
        draws = resample_indices(3, 20, seed=1)
        defined = sum(1 for d in draws if 0 in d)
        assert defined not in (0, 20)
        assert bootstrap(3, lambda d: 1.0 if 0 in d else None, resamples=20, seed=1) == (1.0, 1.0)
        assert bootstrap(3, lambda d: None, resamples=20, seed=1) is None

    def test_percentile_interval_rejects_a_bad_level(self) -> None:
        """A level outside (0, 1) is an error naming it, not a silent interval."""
        with pytest.raises(ValueError, match="level"):
            percentile_interval([1.0, 2.0], level=1.5)
        assert percentile_interval([], 0.9) is None
