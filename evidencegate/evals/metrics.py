"""Ablation metrics: pure functions of per-item results, with paired bootstrap intervals.

The input is one :class:`ItemResult` per (arm, golden item): what the arm emitted, as judged by
the evaluator (see :mod:`evidencegate.evals.ablation`). Every metric is either

* a **ratio of sums** over items, ``sum(num_i) / sum(den_i)`` (None when the denominator is 0:
  e.g. the unsupported-claim rate of an arm that emitted no claim is undefined, not 0), or
* a **quantile** of one value per item (latency), by linear interpolation between order
  statistics (numpy's default method).

A failed item (the run raised, or a component crashed) is never skipped: it stays in every
denominator, emits nothing, covers nothing and is not a correct abstention.

The answer metrics come from each run's :class:`~evidencegate.evals.answers.AnswerGrade`
(correct, wrong, abstained, correct abstention, failed, unscored): whether the answer states
the golden item's expected values, never whether the contract was met. A paraphrase variant
(``ITEM~p1``) is a run of its own in every rate; *paraphrase consistency* is measured per
golden item over its variants.

Confidence intervals are percentile bootstrap intervals over golden items, with a fixed seed:
a resample draws golden items (each with all its paraphrase variants, which are not
independent runs). For the difference between an arm and the baseline the bootstrap is
*paired*: each resample draws item indices once and evaluates both arms on the same items.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.contracts import Arm, Outcome, StopReason
from evidencegate.evals.answers import AnswerClass, AnswerGrade
from evidencegate.evals.golden import Category, base_item_id
from evidencegate.stats import percentile_interval, quantile, resample_indices

__all__ = [
    "METRICS",
    "AblationMetrics",
    "AnswerCounts",
    "ArmMetrics",
    "BootstrapSettings",
    "CitationResult",
    "ClaimResult",
    "Fraction",
    "GroupRatio",
    "Interval",
    "ItemResult",
    "Metric",
    "MetricDiff",
    "MetricInfo",
    "MetricSpec",
    "Quantile",
    "Ratio",
    "RequiredResult",
    "answer_counts",
    "bootstrap_interval",
    "compute_metrics",
    "consistent",
    "item_count",
    "metric_fraction",
    "metric_value",
    "paired_bootstrap",
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
    stale: bool = Field(
        description="A superseded or other version: not in force on the item's as_of, or a "
        "version of a required document other than the required one, or a forbidden version "
        "of a required document."
    )

    @property
    def incorrect(self) -> bool:
        return bool(self.problems)


class ClaimResult(_Model):
    """One emitted claim; ``supported`` when the verifier and the support judge accept it."""

    claim_id: str
    text: str
    supported: bool
    failures: list[str] = Field(
        default_factory=list,
        description="Verifier failure reasons, and 'not_supported_by_quotes' when the offline "
        "support judge finds the claim unsupported by its own quotes.",
    )
    citations: list[CitationResult] = Field(default_factory=list)
    covers_required: bool = Field(
        default=False,
        description="Its verified citations establish a required_evidence entry.",
    )

    @property
    def stale(self) -> bool:
        return any(c.stale for c in self.citations)


class RequiredResult(_Model):
    """One required_evidence entry of the golden item and whether the answer covered it."""

    claim: str
    doc_id: str
    version: str | None = None
    page: int | None = None
    matched: bool


class ItemResult(_Model):
    """One golden item (or paraphrase variant) run through one arm; ``error`` when it failed."""

    item_id: str = Field(description="The golden item's id, or a variant's (ITEM~p1).")
    question: str | None = Field(default=None, description="The question asked in this run.")
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
    answer: AnswerGrade = Field(description="The answer against the expected answer.")
    trace_id: str | None = None
    trace_path: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None

    @property
    def abstained(self) -> bool:
        return not self.failed and self.outcome is Outcome.ABSTAINED

    @property
    def base_id(self) -> str:
        """The golden item this run belongs to (itself unless a paraphrase variant)."""
        return base_item_id(self.item_id)

    @property
    def answerable(self) -> bool:
        return self.category is not Category.UNANSWERABLE

    def is_class(self, answer_class: AnswerClass) -> bool:
        return self.answer.answer_class is answer_class


def consistent(variants: Sequence[ItemResult]) -> bool:
    """Did every variant of one golden item get the same outcome class and matched values?"""
    return len({r.answer.signature() for r in variants}) <= 1


class AnswerCounts(_Model):
    """The answer outcomes of a set of runs, as counts (every rate is k/n of these)."""

    runs: int = Field(description="Runs: golden items and their paraphrase variants.")
    items: int = Field(description="Golden items (a variant counts with its item).")
    answerable: int = Field(description="Runs of answerable items.")
    correct: int = Field(description="Answerable runs answered correctly.")
    wrong: int = Field(description="Runs answered wrongly (answerable or unanswerable items).")
    wrong_on_unanswerable: int = Field(description="Unanswerable runs that were answered.")
    abstained: int = Field(description="Answerable runs that abstained.")
    unscored: int = Field(description="Answerable runs answered, with no expected answer.")
    unanswerable: int = Field(description="Runs of unanswerable items.")
    correct_abstentions: int = Field(description="Unanswerable runs that abstained.")
    failed: int = Field(description="Runs that failed (any item).")
    scored_answers: int = Field(description="Answerable runs answered, with an expected answer.")
    noise_claims: int = Field(description="Noise claims of the scored answers.")
    unsupported_claims: int
    stale_claims: int = Field(description="Claims citing a superseded or other version.")
    claims: int
    paraphrased_items: int = Field(description="Golden items run with at least one paraphrase.")
    consistent_items: int = Field(description="Paraphrased items whose variants all agree.")


def _groups(results: Sequence[ItemResult]) -> list[list[ItemResult]]:
    """Runs grouped by golden item, in order of first appearance."""
    groups: dict[str, list[ItemResult]] = {}
    for result in results:
        groups.setdefault(result.base_id, []).append(result)
    return list(groups.values())


def answer_counts(results: Sequence[ItemResult]) -> AnswerCounts:
    """Count the answer outcomes of ``results`` (one arm's runs, or a category's)."""
    classes = [r.answer.answer_class for r in results]
    groups = _groups(results)
    paraphrased = [g for g in groups if len(g) > 1]
    return AnswerCounts(
        runs=len(results),
        items=len(groups),
        answerable=sum(r.answerable for r in results),
        correct=classes.count(AnswerClass.CORRECT),
        wrong=classes.count(AnswerClass.WRONG),
        wrong_on_unanswerable=sum(
            not r.answerable and r.is_class(AnswerClass.WRONG) for r in results
        ),
        abstained=classes.count(AnswerClass.ABSTAINED),
        unscored=classes.count(AnswerClass.UNSCORED),
        unanswerable=sum(not r.answerable for r in results),
        correct_abstentions=classes.count(AnswerClass.CORRECT_ABSTENTION),
        failed=classes.count(AnswerClass.FAILED),
        scored_answers=sum(_scored_answer(r) for r in results),
        noise_claims=sum(len(r.answer.noise_claims) for r in results),
        unsupported_claims=sum(not c.supported for r in results for c in r.claims),
        stale_claims=sum(c.stale for r in results for c in r.claims),
        claims=sum(len(r.claims) for r in results),
        paraphrased_items=len(paraphrased),
        consistent_items=sum(consistent(g) for g in paraphrased),
    )


def _scored_answer(r: ItemResult) -> float:
    return float(r.answerable and r.answer.answer_class in (AnswerClass.CORRECT, AnswerClass.WRONG))


# --------------------------------------------------------------------------- metric registry


class Metric(StrEnum):
    """The metrics reported per arm."""

    CORRECT_ANSWER_RATE = "correct_answer_rate"
    WRONG_ANSWER_RATE = "wrong_answer_rate"
    ABSTAINED_ANSWERABLE_RATE = "abstained_answerable_rate"
    NOISE_CLAIMS_PER_ANSWER = "noise_claims_per_answer"
    PARAPHRASE_CONSISTENCY = "paraphrase_consistency"
    UNSUPPORTED_CLAIM_RATE = "unsupported_claim_rate"
    STALE_CLAIM_RATE = "stale_claim_rate"
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
class GroupRatio:
    """``sum(num(group)) / sum(den(group))`` over the golden items' groups of runs."""

    num: Callable[[Sequence[ItemResult]], float]
    den: Callable[[Sequence[ItemResult]], float]


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
    formula: Ratio | GroupRatio | Quantile


def _claims(r: ItemResult) -> float:
    return len(r.claims)


def _citations(r: ItemResult) -> float:
    return sum(len(c.citations) for c in r.claims)


def _one(r: ItemResult) -> float:
    return 1.0


def _paraphrased(group: Sequence[ItemResult]) -> float:
    return float(len(group) > 1)


def _specs() -> dict[Metric, MetricSpec]:
    unanswerable = Category.UNANSWERABLE
    specs = [
        MetricSpec(
            Metric.CORRECT_ANSWER_RATE,
            "higher",
            "rate",
            "Runs of answerable items answered correctly (every expected value stated, no "
            "known-wrong value), over runs of answerable items (failed and unscored included).",
            Ratio(lambda r: float(r.is_class(AnswerClass.CORRECT)), lambda r: float(r.answerable)),
        ),
        MetricSpec(
            Metric.WRONG_ANSWER_RATE,
            "lower",
            "rate",
            "Runs answered wrongly (an expected value missing, a known-wrong value stated, or "
            "any answer to an unanswerable item), over all runs.",
            Ratio(lambda r: float(r.is_class(AnswerClass.WRONG)), _one),
        ),
        MetricSpec(
            Metric.ABSTAINED_ANSWERABLE_RATE,
            "lower",
            "rate",
            "Runs of answerable items that abstained, over runs of answerable items.",
            Ratio(
                lambda r: float(r.is_class(AnswerClass.ABSTAINED)), lambda r: float(r.answerable)
            ),
        ),
        MetricSpec(
            Metric.NOISE_CLAIMS_PER_ANSWER,
            "lower",
            "claims",
            "Emitted claims that state no expected value and cover no required evidence, per "
            "scored answer to an answerable item.",
            Ratio(lambda r: float(len(r.answer.noise_claims)), _scored_answer),
        ),
        MetricSpec(
            Metric.PARAPHRASE_CONSISTENCY,
            "higher",
            "rate",
            "Golden items whose question and paraphrases all got the same outcome class and "
            "the same matched expected values, over items run with paraphrases.",
            GroupRatio(lambda g: float(len(g) > 1 and consistent(g)), _paraphrased),
        ),
        MetricSpec(
            Metric.UNSUPPORTED_CLAIM_RATE,
            "lower",
            "rate",
            "Emitted claims the deterministic verifier rejects or the offline support judge "
            "finds unsupported by their own quotes, over emitted claims.",
            Ratio(lambda r: sum(not c.supported for c in r.claims), _claims),
        ),
        MetricSpec(
            Metric.STALE_CLAIM_RATE,
            "lower",
            "rate",
            "Emitted claims citing a superseded or other version (not in force on the as-of "
            "date, or not the version the golden item requires), over emitted claims.",
            Ratio(lambda r: sum(c.stale for c in r.claims), _claims),
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
            "Emitted citations of a superseded or other version (see stale_claim_rate), "
            "over emitted citations.",
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
            "Runs of unanswerable items that emitted no claim, over runs of unanswerable "
            "items (failed runs included).",
            Ratio(
                lambda r: float(r.is_class(AnswerClass.CORRECT_ABSTENTION)),
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


@dataclass(frozen=True)
class _Column:
    """One metric's per-golden-item terms for one arm, so resamples only re-add numbers.

    Index ``i`` is the ``i``-th golden item (with its paraphrase variants): a ratio keeps the
    sums of its terms over the item's runs, a quantile keeps the item's values.
    """

    formula: Ratio | GroupRatio | Quantile
    nums: tuple[float, ...]
    dens: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]

    @classmethod
    def of(cls, metric: Metric, results: Sequence[ItemResult]) -> _Column:
        formula = METRICS[metric].formula
        groups = _groups(results)
        if isinstance(formula, Quantile):
            values = tuple(tuple(formula.value(r) for r in g) for g in groups)
            return cls(formula, (), (), values)
        if isinstance(formula, GroupRatio):
            nums = tuple(formula.num(g) for g in groups)
            dens = tuple(formula.den(g) for g in groups)
        else:
            nums = tuple(sum(formula.num(r) for r in g) for g in groups)
            dens = tuple(sum(formula.den(r) for r in g) for g in groups)
        return cls(formula, nums, dens, ())

    def value(self, draw: Sequence[int]) -> float | None:
        if isinstance(self.formula, Quantile):
            values = [v for i in draw for v in self.values[i]]
            return quantile(values, self.formula.q) if values else None
        den = sum(self.dens[i] for i in draw)
        return sum(self.nums[i] for i in draw) / den if den else None


def item_count(results: Sequence[ItemResult]) -> int:
    """How many golden items ``results`` holds (the bootstrap's unit of resampling)."""
    return len(_groups(results))


class Fraction(_Model):
    """The k/n behind a ratio metric: ``num`` over ``den`` (sums over the runs)."""

    num: float
    den: float


def metric_fraction(metric: Metric, results: Sequence[ItemResult]) -> Fraction | None:
    """The numerator and denominator of a ratio metric; None for a quantile."""
    column = _Column.of(metric, results)
    if isinstance(column.formula, Quantile):
        return None
    return Fraction(num=round(sum(column.nums), 9), den=round(sum(column.dens), 9))


def metric_value(metric: Metric, results: Sequence[ItemResult]) -> float | None:
    """One metric over the results of one arm (None when undefined)."""
    return _Column.of(metric, results).value(range(item_count(results)))


def compute_metrics(results: Sequence[ItemResult]) -> dict[Metric, float | None]:
    """Every metric over the results of one arm."""
    return {metric: metric_value(metric, results) for metric in METRICS}


class Interval(_Model):
    low: float
    high: float


def _percentile_interval(values: Sequence[float], level: float) -> Interval | None:
    bounds = percentile_interval(values, level)
    return None if bounds is None else Interval(low=bounds[0], high=bounds[1])


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

    ``baseline[i]`` and ``arm[i]`` must be the same golden item (or variant). Resamples where
    either value is undefined are left out; None when every one is.
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
    items: int = Field(description="Runs: golden items and their paraphrase variants.")
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
    answers: AnswerCounts = Field(description="The answer outcomes behind the answer rates.")
    categories: dict[Category, AnswerCounts] = Field(
        description="The answer outcomes per golden-item category."
    )
    metrics: dict[Metric, float | None]
    fractions: dict[Metric, Fraction | None] = Field(
        description="k/n of each ratio metric (None for quantiles such as latency)."
    )
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
    items: int = Field(ge=1, description="Golden items (each with its paraphrase variants).")
    runs: int = Field(ge=1, description="Runs per arm: golden items and paraphrase variants.")
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
        answers=answer_counts(results),
        categories={
            category: answer_counts([r for r in results if r.category is category])
            for category in Category
            if any(r.category is category for r in results)
        },
        claims=sum(len(r.claims) for r in results),
        citations=sum(len(c.citations) for r in results for c in r.claims),
        required_evidence=sum(len(r.required) for r in results),
        required_matched=sum(q.matched for r in results for q in r.required),
        input_tokens=sum(r.input_tokens for r in results),
        output_tokens=sum(r.output_tokens for r in results),
        cost_usd=round(sum(r.cost_usd for r in results), 6),
        metrics=values,
        fractions={m: metric_fraction(m, results) for m in METRICS},
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
    draws = resample_indices(item_count(results[arms[0]]), resamples, seed)
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
        items=item_count(results[arms[0]]),
        runs=len(order),
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
