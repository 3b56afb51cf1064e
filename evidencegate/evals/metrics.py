"""Ablation metrics: pure functions of per-item results, with paired bootstrap intervals.

The input is one :class:`ItemResult` per (arm, golden item): what the arm emitted, as judged by
the evaluator (see :mod:`evidencegate.evals.ablation`). Every metric is either

* a **ratio of sums** over items, ``sum(num_i) / sum(den_i)`` (None when the denominator is 0:
  e.g. the unsupported-claim rate of an arm that emitted no claim is undefined, not 0), or
* a **quantile** of one value per item (latency), by linear interpolation between order
  statistics (numpy's default method).

A failed item (the run raised, or a component crashed) is never skipped: it stays in every
denominator, emits nothing, covers nothing and is not a correct abstention.

Confidence intervals are percentile bootstrap intervals over golden items, with a fixed seed.
For the difference between an arm and the baseline the bootstrap is *paired*: each resample
draws item indices once and evaluates both arms on the same items.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.contracts import Arm, Outcome, StopReason
from evidencegate.evals.golden import Category

__all__ = [
    "METRICS",
    "AblationMetrics",
    "ArmMetrics",
    "BootstrapSettings",
    "CitationResult",
    "ClaimResult",
    "Interval",
    "ItemResult",
    "Metric",
    "MetricDiff",
    "MetricInfo",
    "MetricSpec",
    "Quantile",
    "Ratio",
    "RequiredResult",
    "bootstrap_interval",
    "compute_metrics",
    "metric_value",
    "paired_bootstrap",
    "quantile",
    "resample_indices",
    "summarize",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- per-item results


class CitationResult(_Model):
    """One emitted citation as the evaluator judged it."""

    doc_id: str
    version: str
    page: int
    quote: str
    problems: list[str] = Field(
        default_factory=list,
        description="Why the citation is incorrect: verifier failure reasons of the citation "
        "and of its claim (the quote does not support it), 'wrong_version', 'forbidden_source'.",
    )
    stale: bool = Field(description="The cited version is not in force on the item's as_of.")

    @property
    def incorrect(self) -> bool:
        return bool(self.problems)


class ClaimResult(_Model):
    """One emitted claim; ``supported`` when the deterministic verifier accepts it."""

    claim_id: str
    text: str
    supported: bool
    failures: list[str] = Field(default_factory=list, description="Verifier failure reasons.")
    citations: list[CitationResult] = Field(default_factory=list)


class RequiredResult(_Model):
    """One required_evidence entry of the golden item and whether the answer covered it."""

    claim: str
    doc_id: str
    version: str | None = None
    page: int | None = None
    matched: bool


class ItemResult(_Model):
    """One golden item run through one arm. ``error`` is set when the item failed."""

    item_id: str
    arm: Arm
    category: Category
    outcome: Outcome | None = None
    stop_reason: StopReason | None = None
    error: str | None = None
    latency_ms: float = Field(ge=0)
    passes: int = Field(default=0, ge=0)
    retrievals: int = Field(default=0, ge=0)
    followups: int = Field(default=0, ge=0)
    model_calls: int = Field(default=0, ge=0)
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    cost_usd: float = Field(default=0.0, ge=0)
    claims: list[ClaimResult] = Field(default_factory=list)
    required: list[RequiredResult] = Field(default_factory=list)
    trace_id: str | None = None
    trace_path: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None

    @property
    def abstained(self) -> bool:
        return not self.failed and self.outcome is Outcome.ABSTAINED


# --------------------------------------------------------------------------- metric registry


class Metric(StrEnum):
    """The metrics reported per arm."""

    UNSUPPORTED_CLAIM_RATE = "unsupported_claim_rate"
    INCORRECT_CITATION_RATE = "incorrect_citation_rate"
    STALE_CITATION_RATE = "stale_citation_rate"
    REQUIRED_COVERAGE = "required_coverage"
    ABSTENTION_RATE = "abstention_rate"
    ABSTENTION_CORRECTNESS = "abstention_correctness"
    LATENCY_MEDIAN_MS = "latency_median_ms"
    LATENCY_P95_MS = "latency_p95_ms"
    REFLECTION_RATE = "reflection_rate"
    FOLLOWUP_RATE = "followup_rate"
    TOKENS_PER_ITEM = "tokens_per_item"
    COST_USD_PER_ITEM = "cost_usd_per_item"
    FAILURE_RATE = "failure_rate"


Better = Literal["lower", "higher"]


@dataclass(frozen=True)
class Ratio:
    """``sum(num(item)) / sum(den(item))`` over the items."""

    num: Callable[[ItemResult], float]
    den: Callable[[ItemResult], float]


@dataclass(frozen=True)
class Quantile:
    """The ``q`` quantile of ``value(item)`` over the items."""

    value: Callable[[ItemResult], float]
    q: float


@dataclass(frozen=True)
class MetricSpec:
    name: Metric
    better: Better | None
    """Which direction is an improvement; None when neither is (e.g. the abstention rate)."""
    unit: str
    description: str
    formula: Ratio | Quantile


def _claims(r: ItemResult) -> float:
    return len(r.claims)


def _citations(r: ItemResult) -> float:
    return sum(len(c.citations) for c in r.claims)


def _one(r: ItemResult) -> float:
    return 1.0


def _specs() -> dict[Metric, MetricSpec]:
    unanswerable = Category.UNANSWERABLE
    specs = [
        MetricSpec(
            Metric.UNSUPPORTED_CLAIM_RATE,
            "lower",
            "rate",
            "Emitted claims the deterministic verifier rejects, over emitted claims.",
            Ratio(lambda r: sum(not c.supported for c in r.claims), _claims),
        ),
        MetricSpec(
            Metric.INCORRECT_CITATION_RATE,
            "lower",
            "rate",
            "Emitted citations whose quote does not support the claim, that cite a version "
            "other than the required one, or a forbidden source; over emitted citations.",
            Ratio(lambda r: sum(x.incorrect for c in r.claims for x in c.citations), _citations),
        ),
        MetricSpec(
            Metric.STALE_CITATION_RATE,
            "lower",
            "rate",
            "Emitted citations of a version not in force on the item's as-of date, over "
            "emitted citations.",
            Ratio(lambda r: sum(x.stale for c in r.claims for x in c.citations), _citations),
        ),
        MetricSpec(
            Metric.REQUIRED_COVERAGE,
            "higher",
            "rate",
            "Required evidence entries matched by an emitted verified citation of the right "
            "doc, version and page whose quote overlaps the required quote; over all entries.",
            Ratio(lambda r: sum(q.matched for q in r.required), lambda r: len(r.required)),
        ),
        MetricSpec(
            Metric.ABSTENTION_RATE,
            None,
            "rate",
            "Items answered with an abstention, over all items.",
            Ratio(lambda r: float(r.abstained), _one),
        ),
        MetricSpec(
            Metric.ABSTENTION_CORRECTNESS,
            "higher",
            "rate",
            "Unanswerable items the arm abstained on, over unanswerable items.",
            Ratio(
                lambda r: float(r.category is unanswerable and r.abstained),
                lambda r: float(r.category is unanswerable),
            ),
        ),
        MetricSpec(
            Metric.LATENCY_MEDIAN_MS,
            "lower",
            "ms",
            "Median wall-clock time of one run.",
            Quantile(lambda r: r.latency_ms, 0.5),
        ),
        MetricSpec(
            Metric.LATENCY_P95_MS,
            "lower",
            "ms",
            "95th percentile of the wall-clock time of one run.",
            Quantile(lambda r: r.latency_ms, 0.95),
        ),
        MetricSpec(
            Metric.REFLECTION_RATE,
            None,
            "rate",
            "Runs that reflected: more than one pass, or a follow-up retrieval.",
            Ratio(lambda r: float(r.passes > 1 or r.followups > 0), _one),
        ),
        MetricSpec(
            Metric.FOLLOWUP_RATE,
            None,
            "rate",
            "Runs with at least one follow-up retrieval.",
            Ratio(lambda r: float(r.followups > 0), _one),
        ),
        MetricSpec(
            Metric.TOKENS_PER_ITEM,
            "lower",
            "tokens",
            "Model tokens (input + output) per run.",
            Ratio(lambda r: float(r.input_tokens + r.output_tokens), _one),
        ),
        MetricSpec(
            Metric.COST_USD_PER_ITEM,
            "lower",
            "usd",
            "Model cost per run, in USD.",
            Ratio(lambda r: r.cost_usd, _one),
        ),
        MetricSpec(
            Metric.FAILURE_RATE,
            "lower",
            "rate",
            "Items whose run failed (an error, or a crashed component), over all items.",
            Ratio(lambda r: float(r.failed), _one),
        ),
    ]
    return {spec.name: spec for spec in specs}


#: Every metric, in report order.
METRICS: Mapping[Metric, MetricSpec] = _specs()


# --------------------------------------------------------------------------- computing


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics.

    ``quantile([1, 2, 3, 4], 0.5) == 2.5``; ValueError on an empty sequence.
    """
    if not values:
        raise ValueError("quantile of an empty sequence")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must be within [0, 1] (got {q})")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class _Column:
    """One metric's per-item terms for one arm, so resamples only re-add numbers."""

    formula: Ratio | Quantile
    nums: tuple[float, ...]
    dens: tuple[float, ...]

    @classmethod
    def of(cls, metric: Metric, results: Sequence[ItemResult]) -> _Column:
        formula = METRICS[metric].formula
        if isinstance(formula, Quantile):
            return cls(formula, tuple(formula.value(r) for r in results), ())
        return cls(
            formula,
            tuple(formula.num(r) for r in results),
            tuple(formula.den(r) for r in results),
        )

    def value(self, draw: Sequence[int]) -> float | None:
        if isinstance(self.formula, Quantile):
            return quantile([self.nums[i] for i in draw], self.formula.q) if draw else None
        den = sum(self.dens[i] for i in draw)
        return sum(self.nums[i] for i in draw) / den if den else None


def metric_value(metric: Metric, results: Sequence[ItemResult]) -> float | None:
    """One metric over the results of one arm (None when undefined)."""
    return _Column.of(metric, results).value(range(len(results)))


def compute_metrics(results: Sequence[ItemResult]) -> dict[Metric, float | None]:
    """Every metric over the results of one arm."""
    return {metric: metric_value(metric, results) for metric in METRICS}


class Interval(_Model):
    low: float
    high: float


def resample_indices(n: int, resamples: int, seed: int) -> list[list[int]]:
    """``resamples`` draws of ``n`` item indices with replacement, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    population = range(n)
    return [rng.choices(population, k=n) for _ in range(resamples)]


def _percentile_interval(values: Sequence[float], level: float) -> Interval | None:
    if not values:
        return None
    tail = (1.0 - level) / 2
    return Interval(low=quantile(values, tail), high=quantile(values, 1.0 - tail))


def bootstrap_interval(
    results: Sequence[ItemResult],
    metric: Metric,
    draws: Sequence[Sequence[int]],
    *,
    level: float = 0.95,
) -> Interval | None:
    """Percentile interval of one arm's metric over the resamples ``draws``.

    Resamples where the metric is undefined are left out; None when every one is.
    """
    column = _Column.of(metric, results)
    values = [v for v in (column.value(draw) for draw in draws) if v is not None]
    return _percentile_interval(values, level)


def paired_bootstrap(
    baseline: Sequence[ItemResult],
    arm: Sequence[ItemResult],
    metric: Metric,
    draws: Sequence[Sequence[int]],
    *,
    level: float = 0.95,
) -> Interval | None:
    """Percentile interval of ``metric(arm) - metric(baseline)`` over paired resamples.

    ``baseline[i]`` and ``arm[i]`` must be the same golden item. Resamples where either value is
    undefined are left out; None when every one is.
    """
    if [r.item_id for r in baseline] != [r.item_id for r in arm]:
        raise ValueError("paired bootstrap needs both arms' results for the same items in order")
    base_column = _Column.of(metric, baseline)
    arm_column = _Column.of(metric, arm)
    diffs = []
    for draw in draws:
        base = base_column.value(draw)
        other = arm_column.value(draw)
        if base is not None and other is not None:
            diffs.append(other - base)
    return _percentile_interval(diffs, level)


# --------------------------------------------------------------------------- the summary


class MetricInfo(_Model):
    name: Metric
    better: Better | None
    unit: str
    description: str


class MetricDiff(_Model):
    """An arm's metric minus the baseline's, with its paired bootstrap interval."""

    diff: float | None
    ci: Interval | None


class ArmMetrics(_Model):
    """Everything measured for one arm."""

    arm: Arm
    items: int
    failed: int
    answered: int = Field(description="Items with at least one emitted claim.")
    abstained: int
    claims: int
    citations: int
    required_evidence: int
    required_matched: int
    input_tokens: int
    output_tokens: int
    cost_usd: float
    metrics: dict[Metric, float | None]
    ci: dict[Metric, Interval | None] = Field(description="Bootstrap interval of each metric.")
    vs_baseline: dict[Metric, MetricDiff] | None = Field(
        default=None, description="Differences from the baseline arm; None for the baseline."
    )


class BootstrapSettings(_Model):
    resamples: int = Field(ge=1)
    seed: int
    level: float = Field(gt=0, lt=1)


class AblationMetrics(_Model):
    """``metrics.json``: the metrics of every arm over one golden set."""

    evidencegate_version: str
    golden_set: str
    golden_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    items: int = Field(ge=1)
    policy: str
    policy_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    arms: list[Arm] = Field(min_length=1)
    baseline: Arm | None
    bootstrap: BootstrapSettings
    metric_definitions: list[MetricInfo]
    results: list[ArmMetrics]


def _summarize_arm(
    arm: Arm,
    results: Sequence[ItemResult],
    draws: Sequence[Sequence[int]],
    *,
    level: float,
    baseline: Sequence[ItemResult] | None,
) -> ArmMetrics:
    """The metrics, counts and intervals of one arm (``baseline``: compare against it)."""
    values = compute_metrics(results)
    vs_baseline: dict[Metric, MetricDiff] | None = None
    if baseline is not None:
        base_values = compute_metrics(baseline)
        vs_baseline = {}
        for metric in METRICS:
            own, base = values[metric], base_values[metric]
            vs_baseline[metric] = MetricDiff(
                diff=None if own is None or base is None else own - base,
                ci=paired_bootstrap(baseline, results, metric, draws, level=level),
            )
    return ArmMetrics(
        arm=arm,
        items=len(results),
        failed=sum(r.failed for r in results),
        answered=sum(bool(r.claims) for r in results),
        abstained=sum(r.abstained for r in results),
        claims=sum(len(r.claims) for r in results),
        citations=sum(len(c.citations) for r in results for c in r.claims),
        required_evidence=sum(len(r.required) for r in results),
        required_matched=sum(q.matched for r in results for q in r.required),
        input_tokens=sum(r.input_tokens for r in results),
        output_tokens=sum(r.output_tokens for r in results),
        cost_usd=round(sum(r.cost_usd for r in results), 6),
        metrics=values,
        ci={m: bootstrap_interval(results, m, draws, level=level) for m in METRICS},
        vs_baseline=vs_baseline,
    )


def summarize(
    results: Mapping[Arm, Sequence[ItemResult]],
    *,
    golden_set: str,
    golden_sha256: str,
    policy: str,
    policy_sha256: str,
    evidencegate_version: str,
    resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> AblationMetrics:
    """Summarise every arm; arms other than the baseline (when run) are compared with it.

    Every arm's results must list the same items in the same order.
    """
    arms = list(results)
    if not arms:
        raise ValueError("no arm to summarise")
    order = [r.item_id for r in results[arms[0]]]
    for arm in arms:
        if [r.item_id for r in results[arm]] != order:
            raise ValueError(f"arm {arm.value} does not have the same items as {arms[0].value}")
    draws = resample_indices(len(order), resamples, seed)
    baseline = Arm.BASELINE if Arm.BASELINE in results else None
    summaries = [
        _summarize_arm(
            arm,
            results[arm],
            draws,
            level=level,
            baseline=results[Arm.BASELINE] if baseline and arm is not baseline else None,
        )
        for arm in arms
    ]
    return AblationMetrics(
        evidencegate_version=evidencegate_version,
        golden_set=golden_set,
        golden_sha256=golden_sha256,
        items=len(order),
        policy=policy,
        policy_sha256=policy_sha256,
        arms=arms,
        baseline=baseline,
        bootstrap=BootstrapSettings(resamples=resamples, seed=seed, level=level),
        metric_definitions=[
            MetricInfo(name=s.name, better=s.better, unit=s.unit, description=s.description)
            for s in METRICS.values()
        ],
        results=summaries,
    )
