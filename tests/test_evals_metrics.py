"""Ablation metrics and bootstrap intervals against hand-computed values."""

from __future__ import annotations

import pytest

from evidencegate.contracts import Arm, Outcome, StopReason
from evidencegate.evals.answers import AnswerClass, AnswerGrade
from evidencegate.evals.golden import Category
from evidencegate.evals.metrics import (
    METRICS,
    CitationResult,
    ClaimResult,
    Interval,
    ItemResult,
    Metric,
    RequiredResult,
    answer_counts,
    bootstrap_interval,
    compute_metrics,
    item_count,
    metric_value,
    paired_bootstrap,
    summarize,
)
from evidencegate.stats import quantile, resample_indices


def cite(*problems: str, stale: bool = False) -> CitationResult:
    return CitationResult(
        doc_id="D", version="1", page=1, quote="a quoted span", problems=list(problems), stale=stale
    )


def claim(*citations: CitationResult, supported: bool = True) -> ClaimResult:
    return ClaimResult(claim_id="c", text="a claim", supported=supported, citations=list(citations))


def required(matched: bool) -> RequiredResult:
    return RequiredResult(claim="a fact", doc_id="D", version="1", matched=matched)


def default_class(category: Category, fields: dict[str, object]) -> AnswerClass:
    """The class a run gets when its claims are right: what most hand-built runs need."""
    if fields.get("error"):
        return AnswerClass.FAILED
    if category is Category.UNANSWERABLE:
        return AnswerClass.WRONG if fields.get("claims") else AnswerClass.CORRECT_ABSTENTION
    return AnswerClass.CORRECT if fields.get("claims") else AnswerClass.ABSTAINED


def item(
    item_id: str,
    *,
    arm: Arm = Arm.BASELINE,
    category: Category = Category.FACTUAL,
    outcome: Outcome | None = Outcome.UNGATED,
    answer: AnswerGrade | AnswerClass | None = None,
    **fields: object,
) -> ItemResult:
    if not isinstance(answer, AnswerGrade):
        answer = AnswerGrade(answer_class=answer or default_class(category, fields))
    return ItemResult.model_validate(
        {
            "item_id": item_id,
            "arm": arm,
            "category": category,
            "outcome": outcome,
            "stop_reason": None if outcome is None else StopReason.NO_REFLECTION,
            "latency_ms": 1.0,
            "answer": answer,
            **fields,
        }
    )


@pytest.fixture
def four_items() -> list[ItemResult]:
    """Hand-built: A answered with traps, B abstained (unanswerable), C failed, D answered."""
    return [
        item(
            "A",
            claims=[
                claim(cite(), cite("wrong_version")),
                claim(cite("not_in_force", "forbidden_source", stale=True), supported=False),
            ],
            required=[required(True), required(False)],
            answer=AnswerGrade(answer_class=AnswerClass.CORRECT, noise_claims=["c"]),
            latency_ms=10.0,
            passes=2,
            input_tokens=100,
            output_tokens=50,
            cost_usd=0.01,
        ),
        item(
            "B",
            category=Category.UNANSWERABLE,
            outcome=Outcome.ABSTAINED,
            latency_ms=20.0,
            passes=1,
            followups=1,
        ),
        item(
            "C",
            outcome=None,
            error="RuntimeError: boom",
            required=[required(False)],
            latency_ms=30.0,
        ),
        item("D", category=Category.UNANSWERABLE, claims=[claim(cite())], latency_ms=40.0),
    ]


class TestQuantile:
    def test_median_interpolates(self) -> None:
        """The median of an even count is the mean of the two middle values."""
        assert quantile([4.0, 1.0, 3.0, 2.0], 0.5) == 2.5

    def test_p95_interpolates_linearly(self) -> None:
        """p95 of 1..20 sits 0.05 of the way from 19 to 20 (numpy's default method)."""
        assert quantile([float(v) for v in range(1, 21)], 0.95) == pytest.approx(19.05)

    def test_extremes_are_min_and_max(self) -> None:
        """q=0 and q=1 are the smallest and largest values."""
        values = [5.0, 9.0, 1.0]
        assert (quantile(values, 0.0), quantile(values, 1.0)) == (1.0, 9.0)

    def test_empty_and_out_of_range_are_refused(self) -> None:
        """An empty sequence or a q outside [0, 1] raises ValueError."""
        with pytest.raises(ValueError, match="empty"):
            quantile([], 0.5)
        with pytest.raises(ValueError, match="q must be"):
            quantile([1.0], 1.5)


class TestMetricValues:
    def test_every_metric_equals_its_hand_computed_value(
        self, four_items: list[ItemResult]
    ) -> None:
        """Ratios of sums and quantiles over the four hand-built items."""
        assert compute_metrics(four_items) == {
            Metric.CORRECT_ANSWER_RATE: 0.5,  # A of the answerable A and C
            Metric.WRONG_ANSWER_RATE: 0.25,  # D (answered an unanswerable item) of 4 runs
            Metric.ABSTAINED_ANSWERABLE_RATE: 0.0,
            Metric.NOISE_CLAIMS_PER_ANSWER: 1.0,  # A's one noise claim, one scored answer
            Metric.PARAPHRASE_CONSISTENCY: None,  # no item has a paraphrase
            Metric.UNSUPPORTED_CLAIM_RATE: pytest.approx(1 / 3),  # 1 of 3 claims
            Metric.STALE_CLAIM_RATE: pytest.approx(1 / 3),  # A's second claim of 3 claims
            Metric.INCORRECT_CITATION_RATE: 0.5,  # 2 of 4 citations
            Metric.STALE_CITATION_RATE: 0.25,  # 1 of 4 citations
            Metric.REQUIRED_COVERAGE: pytest.approx(1 / 3),  # 1 of 3 entries (C failed)
            Metric.ABSTENTION_RATE: 0.25,  # B
            Metric.ABSTENTION_CORRECTNESS: 0.5,  # B of the unanswerable B and D
            Metric.LATENCY_MEDIAN_MS: 25.0,
            Metric.LATENCY_P95_MS: pytest.approx(38.5),  # 30 + 0.85 * 10
            Metric.REFLECTION_RATE: 0.5,  # A (2 passes) and B (a follow-up)
            Metric.FOLLOWUP_RATE: 0.25,
            Metric.TOKENS_PER_ITEM: 37.5,  # 150 / 4
            Metric.COST_USD_PER_ITEM: pytest.approx(0.0025),
            Metric.FAILURE_RATE: 0.25,  # C
        }

    def test_a_failed_item_stays_in_every_denominator(self, four_items: list[ItemResult]) -> None:
        """Dropping the failed item would change coverage and failure rate: it is counted."""
        without_failed = [r for r in four_items if not r.failed]
        assert metric_value(Metric.REQUIRED_COVERAGE, without_failed) == 0.5
        assert metric_value(Metric.REQUIRED_COVERAGE, four_items) == pytest.approx(1 / 3)
        assert metric_value(Metric.FAILURE_RATE, without_failed) == 0.0

    def test_rates_over_nothing_are_undefined(self) -> None:
        """With no emitted claim the claim rates are None, never 0 and never NaN."""
        abstained = [item("X", outcome=Outcome.ABSTAINED)]
        values = compute_metrics(abstained)
        assert values[Metric.UNSUPPORTED_CLAIM_RATE] is None
        assert values[Metric.STALE_CITATION_RATE] is None
        assert values[Metric.ABSTENTION_CORRECTNESS] is None  # no unanswerable item
        assert values[Metric.ABSTENTION_RATE] == 1.0

    def test_registry_gives_every_metric_a_direction_or_none(self) -> None:
        """Rates that must stay low are 'lower', coverage is 'higher', abstention neither."""
        assert METRICS[Metric.UNSUPPORTED_CLAIM_RATE].better == "lower"
        assert METRICS[Metric.REQUIRED_COVERAGE].better == "higher"
        assert METRICS[Metric.ABSTENTION_RATE].better is None
        assert list(METRICS) == list(Metric)


def abstaining(pattern: str, arm: Arm) -> list[ItemResult]:
    """Items whose outcome is abstained where ``pattern`` has a 1."""
    return [
        item(f"i{n}", arm=arm, outcome=Outcome.ABSTAINED if flag == "1" else Outcome.UNGATED)
        for n, flag in enumerate(pattern)
    ]


class TestBootstrap:
    def test_resamples_are_seeded(self) -> None:
        """The same seed draws the same indices; another seed draws others."""
        assert resample_indices(5, 20, seed=7) == resample_indices(5, 20, seed=7)
        assert resample_indices(5, 20, seed=7) != resample_indices(5, 20, seed=8)
        assert all(len(d) == 5 and set(d) <= set(range(5)) for d in resample_indices(5, 20, 7))

    def test_constant_difference_has_a_degenerate_interval(self) -> None:
        """When every item differs by exactly 1, every resample does: the interval is [1, 1]."""
        base, arm = abstaining("000", Arm.BASELINE), abstaining("111", Arm.GROUNDED)
        draws = resample_indices(3, 200, seed=0)
        assert paired_bootstrap(base, arm, Metric.ABSTENTION_RATE, draws) == Interval(
            low=1.0, high=1.0
        )

    def test_two_item_difference_spans_its_possible_values(self) -> None:
        """Differences 0 and 1: resample means are 0, 0.5 or 1 (p = 1/4, 1/2, 1/4), so the
        2.5% and 97.5% percentiles over 1000 seeded resamples are exactly 0 and 1."""
        base, arm = abstaining("00", Arm.BASELINE), abstaining("01", Arm.GROUNDED)
        draws = resample_indices(2, 1000, seed=0)
        assert paired_bootstrap(base, arm, Metric.ABSTENTION_RATE, draws) == Interval(
            low=0.0, high=1.0
        )
        assert bootstrap_interval(arm, Metric.ABSTENTION_RATE, draws) == Interval(low=0.0, high=1.0)

    def test_undefined_metric_has_no_interval(self) -> None:
        """With no claim in any resample the interval of a claim rate is None."""
        base, arm = abstaining("11", Arm.BASELINE), abstaining("11", Arm.GROUNDED)
        draws = resample_indices(2, 50, seed=0)
        assert paired_bootstrap(base, arm, Metric.UNSUPPORTED_CLAIM_RATE, draws) is None

    def test_pairing_requires_the_same_items(self) -> None:
        """Results of different items cannot be paired."""
        base = abstaining("00", Arm.BASELINE)
        other = [item("other", arm=Arm.GROUNDED), item("i1", arm=Arm.GROUNDED)]
        with pytest.raises(ValueError, match="same items"):
            paired_bootstrap(base, other, Metric.ABSTENTION_RATE, [[0, 1]])


class TestSummarize:
    def test_arms_are_compared_with_the_baseline(self) -> None:
        """The baseline has no comparison; another arm's diff is its value minus baseline's."""
        results = {
            Arm.BASELINE: abstaining("0001", Arm.BASELINE),
            Arm.GROUNDED: abstaining("0111", Arm.GROUNDED),
        }
        summary = summarize(
            results,
            golden_set="g.jsonl",
            golden_sha256="0" * 64,
            policy="default",
            policy_sha256="1" * 64,
            evidencegate_version="test",
            resamples=100,
            seed=3,
        )
        base, grounded = summary.results
        assert summary.baseline is Arm.BASELINE
        assert base.vs_baseline is None
        assert grounded.vs_baseline is not None
        assert grounded.vs_baseline[Metric.ABSTENTION_RATE].diff == 0.5
        assert (base.abstained, grounded.abstained) == (1, 3)

    def test_arms_must_cover_the_same_items(self) -> None:
        """An arm missing an item cannot be summarised beside the others."""
        results = {
            Arm.BASELINE: abstaining("00", Arm.BASELINE),
            Arm.GROUNDED: abstaining("0", Arm.GROUNDED),
        }
        with pytest.raises(ValueError, match="same items"):
            summarize(
                results,
                golden_set="g",
                golden_sha256="0" * 64,
                policy="p",
                policy_sha256="0" * 64,
                evidencegate_version="t",
            )


def graded(answer_class: AnswerClass, *matched: str) -> AnswerGrade:
    return AnswerGrade(answer_class=answer_class, matched=list(matched))


@pytest.fixture
def paraphrased() -> list[ItemResult]:
    """P answered alike thrice; Q's paraphrase abstained; R's variants matched other values;
    U (unanswerable) abstained on both phrasings; S has no paraphrase."""
    correct = graded(AnswerClass.CORRECT, "0:$51,800")
    return [
        item("P", answer=correct, claims=[claim(cite())]),
        item("P~p1", answer=correct, claims=[claim(cite())]),
        item("P~p2", answer=correct, claims=[claim(cite())]),
        item("Q", answer=correct, claims=[claim(cite())]),
        item("Q~p1", outcome=Outcome.ABSTAINED),
        item("R", answer=graded(AnswerClass.WRONG, "0:1"), claims=[claim(cite())]),
        item("R~p1", answer=graded(AnswerClass.WRONG, "1:2"), claims=[claim(cite())]),
        item("U", category=Category.UNANSWERABLE, outcome=Outcome.ABSTAINED),
        item("U~p1", category=Category.UNANSWERABLE, outcome=Outcome.ABSTAINED),
        item("S", error="RuntimeError: boom", outcome=None),
    ]


class TestAnswerMetrics:
    def test_paraphrase_consistency_counts_items_not_runs(
        self, paraphrased: list[ItemResult]
    ) -> None:
        """P and U agree across phrasings; Q (class) and R (matched values) do not: 2 of 4."""
        assert metric_value(Metric.PARAPHRASE_CONSISTENCY, paraphrased) == 0.5
        counts = answer_counts(paraphrased)
        assert (counts.consistent_items, counts.paraphrased_items) == (2, 4)
        assert (counts.items, counts.runs) == (5, 10)

    def test_every_variant_is_a_run_in_the_rates(self, paraphrased: list[ItemResult]) -> None:
        """Correct 4 of 8 answerable runs (the failed S included), wrong 2 of 10 runs."""
        values = compute_metrics(paraphrased)
        assert values[Metric.CORRECT_ANSWER_RATE] == 0.5
        assert values[Metric.WRONG_ANSWER_RATE] == 0.2
        assert values[Metric.ABSTAINED_ANSWERABLE_RATE] == 0.125
        assert values[Metric.ABSTENTION_CORRECTNESS] == 1.0

    def test_failed_runs_stay_in_the_answer_denominators(self) -> None:
        """A failed answerable run is neither correct nor removed: 1 correct of 2."""
        runs = [item("A", claims=[claim(cite())]), item("B", error="boom", outcome=None)]
        assert metric_value(Metric.CORRECT_ANSWER_RATE, runs) == 0.5
        assert answer_counts(runs).failed == 1

    def test_unscored_runs_are_neither_correct_nor_wrong(self) -> None:
        """Answers to items without expectations lower the correct rate and are counted apart."""
        runs = [
            item("A", claims=[claim(cite())]),
            item("B", answer=AnswerClass.UNSCORED, claims=[claim(cite())]),
        ]
        counts = answer_counts(runs)
        assert (counts.correct, counts.wrong, counts.unscored, counts.answerable) == (1, 0, 1, 2)
        assert metric_value(Metric.CORRECT_ANSWER_RATE, runs) == 0.5
        assert metric_value(Metric.NOISE_CLAIMS_PER_ANSWER, runs) == 0.0  # over A only

    def test_stale_and_unsupported_claims_are_counted(self, four_items: list[ItemResult]) -> None:
        """A's stale, unsupported claim shows in both claim counts."""
        counts = answer_counts(four_items)
        assert (counts.unsupported_claims, counts.stale_claims, counts.claims) == (1, 1, 3)
        assert counts.wrong_on_unanswerable == 1

    def test_bootstrap_resamples_items_with_their_variants(
        self, paraphrased: list[ItemResult]
    ) -> None:
        """Five golden items, so five indices a draw; drawing only P gives P's three runs."""
        assert item_count(paraphrased) == 5
        column_value = bootstrap_interval(paraphrased, Metric.CORRECT_ANSWER_RATE, [[0, 0]])
        assert column_value == Interval(low=1.0, high=1.0)
        only_q = bootstrap_interval(paraphrased, Metric.CORRECT_ANSWER_RATE, [[1]])
        assert only_q == Interval(low=0.5, high=0.5)


class TestSummarizeAnswers:
    def test_counts_per_arm_and_per_category(self, paraphrased: list[ItemResult]) -> None:
        """metrics carry the answer counts of the arm and of each category present."""
        summary = summarize(
            {Arm.BASELINE: paraphrased},
            golden_set="g",
            golden_sha256="0" * 64,
            policy="p",
            policy_sha256="0" * 64,
            evidencegate_version="t",
            resamples=20,
        )
        assert (summary.items, summary.runs) == (5, 10)
        (arm,) = summary.results
        assert arm.answers.correct == 4
        assert set(arm.categories) == {Category.FACTUAL, Category.UNANSWERABLE}
        assert arm.categories[Category.UNANSWERABLE].correct_abstentions == 2
        assert arm.categories[Category.FACTUAL].runs == 8
