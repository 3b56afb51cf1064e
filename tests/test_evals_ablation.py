"""The four-arm ablation over the example golden set, offline, and its evaluator."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate.components import build_generator
from evidencegate.contracts import (
    Arm,
    Citation,
    Claim,
    Draft,
    GatedAnswer,
    Outcome,
    Passage,
    StopReason,
)
from evidencegate.corpus import Store
from evidencegate.evals.ablation import (
    ARMS,
    NOT_SUPPORTED_BY_QUOTES,
    build_controllers,
    run_ablation,
    run_item,
    score_answer,
)
from evidencegate.evals.answers import AnswerClass
from evidencegate.evals.golden import Category, GoldenItem, expand_paraphrases, load_golden
from evidencegate.evals.metrics import ItemResult, Metric, compute_metrics
from evidencegate.policy import Policy
from evidencegate.testing import ScriptedGenerator, SnapshotGenerator
from evidencegate.trace.chain import verify_trace
from evidencegate.verify.verifier import Verifier

GATED = (Arm.GROUNDED, Arm.GROUNDED_FOLLOWUP)
GIFT_QUOTE_2024 = (
    "Employees may accept a gift with a value of up to $150 per giver per calendar year "
    "without prior approval."
)
GIFT_QUOTE_2022 = GIFT_QUOTE_2024.replace("$150", "$100")


@pytest.fixture(scope="module")
def store(module_example_store: Store) -> Store:
    """The module's copy of the example store, open."""
    return module_example_store


@pytest.fixture(scope="module")
def items() -> list[GoldenItem]:
    return load_golden(EXAMPLE_CORPUS / "golden.jsonl")


@pytest.fixture(scope="module")
def offline(store: Store, items: list[GoldenItem]) -> dict[Arm, list[ItemResult]]:
    """Every example item through every arm with the offline default components."""
    return run_ablation(items, store, policy=Policy())


@pytest.fixture(scope="module")
def from_memory(store: Store, items: list[GoldenItem]) -> dict[Arm, list[ItemResult]]:
    """The same, with a generator answering from what the sources said on 2024-02-01 (the
    items' own questions: the paraphrases go through the gate in ``offline``)."""
    generator = SnapshotGenerator(store, dt.date(2024, 2, 1))
    return run_ablation(items, store, policy=Policy(), generator=generator, paraphrases=False)


def defined(results: Sequence[ItemResult], metric: Metric) -> float:
    """The metric's value, which must be defined."""
    value = compute_metrics(results)[metric]
    assert value is not None, f"{metric} is undefined"
    return value


def by_id(results: Sequence[ItemResult], item_id: str) -> ItemResult:
    return next(r for r in results if r.item_id == item_id)


def page_with(store: Store, doc_id: str, version: str, quote: str) -> int:
    document = store.document(doc_id, version)
    assert document is not None
    for page in range(1, document.pages + 1):
        source = store.lookup(doc_id, version, page)
        if source is not None and quote in source.page.text:
            return page
    raise AssertionError(f"{quote!r} is not in {doc_id}@{version}")


class TestExampleOffline:
    def test_every_arm_runs_every_item_in_order(
        self, offline: dict[Arm, list[ItemResult]], items: list[GoldenItem]
    ) -> None:
        """Each arm has one result per item, in golden-set order, and none failed."""
        assert list(offline) == list(ARMS)
        for arm, results in offline.items():
            assert [r.item_id for r in results] == [i.id for i in expand_paraphrases(items)]
            assert all(r.arm is arm and not r.failed for r in results)

    @pytest.mark.parametrize("arm", GATED)
    def test_gated_arms_emit_no_unsupported_incorrect_or_stale_claim(
        self, offline: dict[Arm, list[ItemResult]], arm: Arm
    ) -> None:
        """Gated arms answer most items, and everything they emit passes the evaluator."""
        values = compute_metrics(offline[arm])
        assert sum(bool(r.claims) for r in offline[arm]) >= 10
        assert values[Metric.UNSUPPORTED_CLAIM_RATE] == 0.0
        assert values[Metric.INCORRECT_CITATION_RATE] == 0.0
        assert values[Metric.STALE_CITATION_RATE] == 0.0

    @pytest.mark.parametrize("arm", GATED)
    def test_gated_arms_abstain_on_every_unanswerable_item(
        self, offline: dict[Arm, list[ItemResult]], arm: Arm
    ) -> None:
        """ex-018, ex-019 and ex-020 end abstained under the gate (their own questions; the
        later unanswerable items and all paraphrases are measured by benchmarks/answers.py)."""
        named = [r for r in offline[arm] if r.item_id in {"ex-018", "ex-019", "ex-020"}]
        assert len(named) == 3
        assert compute_metrics(named)[Metric.ABSTENTION_CORRECTNESS] == 1.0

    def test_baseline_answers_unanswerable_questions(
        self, offline: dict[Arm, list[ItemResult]]
    ) -> None:
        """Baseline's trap with the extractive generator: it answers the CCTV question with
        retention periods of other records, which the gate withholds."""
        assert defined(offline[Arm.BASELINE], Metric.ABSTENTION_CORRECTNESS) < 1.0
        cctv = by_id(offline[Arm.BASELINE], "ex-019")
        assert cctv.outcome is Outcome.UNGATED and cctv.claims
        assert all(by_id(offline[arm], "ex-019").outcome is Outcome.ABSTAINED for arm in GATED)

    def test_only_the_followup_arm_retrieves_again(
        self, offline: dict[Arm, list[ItemResult]]
    ) -> None:
        """Follow-up retrieval is the one thing grounded_followup adds to grounded."""
        rates = {arm: defined(r, Metric.FOLLOWUP_RATE) for arm, r in offline.items()}
        assert rates[Arm.GROUNDED_FOLLOWUP] > 0
        assert rates[Arm.BASELINE] == rates[Arm.SELF_CRITIQUE] == rates[Arm.GROUNDED] == 0.0


class TestGeneratorAnsweringFromMemory:
    def test_baseline_emits_stale_and_unsupported_claims(
        self, from_memory: dict[Arm, list[ItemResult]]
    ) -> None:
        """Ungated, the superseded $100 gift limit is emitted for a 2024-07-01 question."""
        assert defined(from_memory[Arm.BASELINE], Metric.UNSUPPORTED_CLAIM_RATE) > 0
        assert defined(from_memory[Arm.BASELINE], Metric.STALE_CITATION_RATE) > 0
        stale = [c for c in by_id(from_memory[Arm.BASELINE], "ex-006").claims if not c.supported]
        assert stale and "$100" in stale[0].text
        problems = set(stale[0].citations[0].problems)
        assert {"not_in_force", "not_retrieved", "forbidden_source", "wrong_version"} <= problems

    def test_self_critique_without_evidence_does_not_catch_them(
        self, from_memory: dict[Arm, list[ItemResult]]
    ) -> None:
        """A critic that sees only the draft passes the stale claims too."""
        assert defined(from_memory[Arm.SELF_CRITIQUE], Metric.STALE_CITATION_RATE) > 0

    @pytest.mark.parametrize("arm", GATED)
    def test_gated_arms_emit_none_of_them(
        self, from_memory: dict[Arm, list[ItemResult]], arm: Arm
    ) -> None:
        """The gate drops every stale or unsupported claim and keeps the verified ones."""
        values = compute_metrics(from_memory[arm])
        assert sum(bool(r.claims) for r in from_memory[arm]) > 0
        assert values[Metric.UNSUPPORTED_CLAIM_RATE] == 0.0
        assert values[Metric.STALE_CITATION_RATE] == 0.0
        assert values[Metric.INCORRECT_CITATION_RATE] == 0.0


def gift_item(**changes: object) -> GoldenItem:
    data: dict[str, object] = {
        "id": "gift",
        "question": "How much can an employee accept in gifts from one giver in a year?",
        "as_of": "2024-07-01",
        "category": "stale_trap",
        "task": "closed",
        "expected_answer_notes": "$150",
        "required_evidence": [
            {
                "claim": "Employees may accept gifts of up to $150 per giver per year.",
                "doc_id": "HSB-POL-007",
                "version": "2024.1",
                "quote": GIFT_QUOTE_2024,
            }
        ],
        "forbidden_sources": [{"doc_id": "HSB-POL-007", "version": "2022.1"}],
    }
    data.update(changes)
    return GoldenItem.model_validate(data)


def ungated(*claims: Claim) -> GatedAnswer:
    return GatedAnswer(
        question="q",
        as_of=dt.date(2024, 7, 1),
        outcome=Outcome.UNGATED,
        answer="a",
        claims=list(claims),
        coverage=1.0,
        stop_reason=StopReason.NO_REFLECTION,
        passes=1,
        trace_id="t",
    )


def claim_citing(store: Store, claim_id: str, version: str, quote: str, text: str = "") -> Claim:
    page = page_with(store, "HSB-POL-007", version, quote)
    citation = Citation(doc_id="HSB-POL-007", version=version, page=page, quote=quote)
    return Claim(claim_id=claim_id, text=text or quote, citations=[citation])


class TestScoreAnswer:
    def test_correct_citation_covers_the_required_evidence(self, store: Store) -> None:
        """A verified quote of the required version overlapping the required quote matches."""
        answer = ungated(claim_citing(store, "c1", "2024.1", GIFT_QUOTE_2024))
        claims, required = score_answer(
            gift_item(),
            answer,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert claims[0].supported and not claims[0].citations[0].incorrect
        assert [r.matched for r in required] == [True]

    def test_stale_forbidden_citation_is_flagged_every_way(self, store: Store) -> None:
        """Citing the superseded version: unsupported, stale, wrong version, forbidden."""
        answer = ungated(claim_citing(store, "c1", "2022.1", GIFT_QUOTE_2022))
        claims, required = score_answer(
            gift_item(),
            answer,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved={"HSB-POL-007@2024.1"},
        )
        citation = claims[0].citations[0]
        assert not claims[0].supported and citation.stale
        assert set(citation.problems) >= {
            "not_in_force",
            "not_retrieved",
            "wrong_version",
            "forbidden_source",
        }
        assert [r.matched for r in required] == [False]

    def test_other_span_of_the_right_page_does_not_cover(self, store: Store) -> None:
        """A verified citation of the required page but another sentence matches nothing."""
        other = "Employees must not accept cash, cash equivalents, gift cards, securities or loans"
        answer = ungated(claim_citing(store, "c1", "2024.1", other))
        _, required = score_answer(
            gift_item(),
            answer,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert [r.matched for r in required] == [False]

    def test_number_mismatch_makes_the_citation_incorrect(self, store: Store) -> None:
        """A claim stating $200 from a quote stating $150 fails, and so does its citation."""
        claim = claim_citing(
            store, "c1", "2024.1", GIFT_QUOTE_2024, text="Employees may accept gifts up to $200."
        )
        claims, required = score_answer(
            gift_item(),
            ungated(claim),
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert "number_mismatch" in claims[0].citations[0].problems
        assert [r.matched for r in required] == [False]

    def test_entry_without_quote_matches_by_claim_terms(self, store: Store) -> None:
        """Without a required quote, a verified citation stating the claim's terms matches."""
        item = gift_item(
            required_evidence=[
                {
                    "claim": "Employees may accept a gift of up to $150 per giver per calendar "
                    "year without prior approval.",
                    "doc_id": "HSB-POL-007",
                }
            ]
        )
        answer = ungated(claim_citing(store, "c1", "2024.1", GIFT_QUOTE_2024))
        _, required = score_answer(
            item,
            answer,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert [r.matched for r in required] == [True]

    def test_claim_its_own_quote_does_not_support_is_unsupported(self, store: Store) -> None:
        """A real, verified quote under a claim that says something else is unsupported."""
        claim = claim_citing(
            store,
            "c1",
            "2024.1",
            GIFT_QUOTE_2024,
            text="Contractors must register every hospitality invitation with compliance.",
        )
        claims, _ = score_answer(
            gift_item(),
            ungated(claim),
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert not claims[0].supported
        assert claims[0].failures == [NOT_SUPPORTED_BY_QUOTES]
        assert not claims[0].citations[0].incorrect  # the quote itself is real and in force

    def test_claim_covering_required_evidence_is_marked(self, store: Store) -> None:
        """Only the claim whose verified citation establishes the required entry covers it."""
        other = "Employees must not accept cash, cash equivalents, gift cards, securities or loans"
        answer = ungated(
            claim_citing(store, "c1", "2024.1", GIFT_QUOTE_2024),
            claim_citing(store, "c2", "2024.1", other),
        )
        claims, _ = score_answer(
            gift_item(),
            answer,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            retrieved=None,
        )
        assert [c.covers_required for c in claims] == [True, False]


GIFT_EXPECTED = {"all_of": [["$150"]], "none_of": ["$100"]}


def scripted_run(store: Store, item: GoldenItem, *claims: Claim) -> ItemResult:
    """Run ``item`` on the baseline arm with a generator that drafts exactly ``claims``."""
    generator = ScriptedGenerator([Draft(claims=list(claims))])
    controllers = build_controllers(store, Policy(), [Arm.BASELINE], generator=generator)
    return run_item(
        controllers[Arm.BASELINE], item, judge=Verifier.from_policy(store, Policy()), sources=store
    )


class TestAnswerGrading:
    def test_expected_value_makes_the_run_correct(self, store: Store) -> None:
        """Emitting the 2024 figure of the version in force is a correct answer."""
        item = gift_item(expected_answer=GIFT_EXPECTED)
        result = scripted_run(store, item, claim_citing(store, "c1", "2024.1", GIFT_QUOTE_2024))
        assert result.answer.answer_class is AnswerClass.CORRECT
        assert result.answer.matched == ["0:$150"] and result.answer.noise_claims == []

    def test_superseded_figure_with_a_real_quote_is_wrong(self, store: Store) -> None:
        """Quoting the superseded version's $100 verbatim is a wrong answer with a stale claim."""
        item = gift_item(expected_answer=GIFT_EXPECTED)
        result = scripted_run(store, item, claim_citing(store, "c1", "2022.1", GIFT_QUOTE_2022))
        assert result.answer.answer_class is AnswerClass.WRONG
        assert result.answer.forbidden == ["$100"] and result.answer.missing_groups == [0]
        assert result.claims[0].stale

    def test_answer_to_an_unanswerable_item_is_wrong(self, store: Store) -> None:
        """An unanswerable item answered with a real quote is wrong, not 'contract met'."""
        item = gift_item(category="unanswerable", required_evidence=[], forbidden_sources=[])
        result = scripted_run(store, item, claim_citing(store, "c1", "2024.1", GIFT_QUOTE_2024))
        assert result.claims[0].supported
        assert result.answer.answer_class is AnswerClass.WRONG

    def test_failed_run_is_graded_failed(self, store: Store) -> None:
        """A crashed component gives the failed class, whatever the expected answer."""
        item = gift_item(expected_answer=GIFT_EXPECTED)
        controllers = build_controllers(
            store, Policy(), [Arm.GROUNDED], generator=CrashingGenerator(item.question)
        )
        result = run_item(
            controllers[Arm.GROUNDED],
            item,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
        )
        assert result.answer.answer_class is AnswerClass.FAILED


class CrashingGenerator:
    """Drafts like the offline default, but crashes on one question (a dropped connection)."""

    component_id = "generator:crashing@test"

    def __init__(self, crash_on: str) -> None:
        self.crash_on = crash_on
        self.inner = build_generator(Policy())

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft:
        if question == self.crash_on:
            raise ConnectionError("provider dropped the connection")
        return self.inner.draft(question, evidence, as_of=as_of, avoid=avoid)


class TestFailures:
    def test_crashed_component_counts_as_failed(
        self, store: Store, items: list[GoldenItem]
    ) -> None:
        """A run the controller ended on a component error is a failed item, not an abstention."""
        item = items[0]
        controllers = build_controllers(
            store, Policy(), [Arm.GROUNDED], generator=CrashingGenerator(item.question)
        )
        result = run_item(
            controllers[Arm.GROUNDED],
            item,
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
        )
        assert result.failed and not result.abstained
        assert result.error is not None and "ConnectionError" in result.error

    def test_error_outside_the_run_is_recorded_not_raised(
        self, store: Store, items: list[GoldenItem], tmp_path: Path
    ) -> None:
        """A trace file that cannot be written fails the item with its error, unscored."""
        taken = tmp_path / "taken.jsonl"
        taken.write_text("not empty\n", encoding="utf-8")
        controllers = build_controllers(store, Policy(), [Arm.BASELINE])
        result = run_item(
            controllers[Arm.BASELINE],
            items[0],
            judge=Verifier.from_policy(store, Policy()),
            sources=store,
            trace_path=taken,
        )
        assert result.failed and result.error is not None
        assert result.error.startswith("UsageError: trace file")
        assert [r.matched for r in result.required] == [False]

    def test_failed_items_are_kept_in_the_ablation(
        self, store: Store, items: list[GoldenItem]
    ) -> None:
        """One crashing item of three: every arm reports three results, one failed."""
        subset = [items[0], items[3], items[7]]  # three different questions
        assert len({i.question for i in subset}) == 3
        results = run_ablation(
            subset,
            store,
            policy=Policy(),
            generator=CrashingGenerator(subset[1].question),
            paraphrases=False,  # the crash is on one question, not on its paraphrases
        )
        for arm in ARMS:
            assert [r.item_id for r in results[arm]] == [i.id for i in subset]
            assert compute_metrics(results[arm])[Metric.FAILURE_RATE] == pytest.approx(1 / 3)


class TestRunAblation:
    def test_concurrency_gives_the_same_answers(
        self, store: Store, items: list[GoldenItem], offline: dict[Arm, list[ItemResult]]
    ) -> None:
        """Four worker threads produce exactly the outcomes and claims of the serial run (on the
        first item of each category, with its paraphrases)."""
        first: dict[Category, GoldenItem] = {}
        for golden in items:
            first.setdefault(golden.category, golden)
        subset = list(first.values())
        parallel = run_ablation(subset, store, policy=Policy(), concurrency=4)

        def key(results: dict[Arm, list[ItemResult]], ids: set[str]) -> list[tuple[object, ...]]:
            return [
                (r.arm, r.item_id, r.outcome, r.stop_reason, [c.text for c in r.claims])
                for arm in ARMS
                for r in results[arm]
                if r.item_id.split("~")[0] in ids
            ]

        ids = {i.id for i in subset}
        assert key(parallel, ids) == key(offline, ids) != []

    def test_traces_are_written_per_arm_and_item(
        self, store: Store, items: list[GoldenItem], tmp_path: Path
    ) -> None:
        """Each run's hash-chained trace lands in TRACE_DIR/ARM/ITEM.jsonl; on_result sees all."""
        seen: list[tuple[Arm, str]] = []
        results = run_ablation(
            items[:2],
            store,
            policy=Policy(),
            arms=[Arm.BASELINE, Arm.GROUNDED],
            trace_dir=tmp_path,
            on_result=lambda r: seen.append((r.arm, r.item_id)),
        )
        runs = expand_paraphrases(items[:2])
        assert sorted(seen) == sorted((a, i.id) for a in results for i in runs)
        for arm in results:
            for result in results[arm]:
                path = tmp_path / arm.value / f"{result.item_id}.jsonl"
                assert result.trace_path == str(path)
                report = verify_trace(path)
                assert report.ok and report.complete

    def test_paraphrases_run_as_variants_with_their_own_traces(
        self, store: Store, tmp_path: Path
    ) -> None:
        """Each paraphrase is a run (ITEM~pN) with its own trace; paraphrases=False skips them."""
        item = gift_item(
            expected_answer=GIFT_EXPECTED,
            paraphrases=["gift cap per giver per year?", "What gift value needs no approval?"],
        )
        results = run_ablation(
            [item], store, policy=Policy(), arms=[Arm.BASELINE], trace_dir=tmp_path
        )
        runs = results[Arm.BASELINE]
        assert [r.item_id for r in runs] == ["gift", "gift~p1", "gift~p2"]
        assert all(r.base_id == "gift" and r.category is item.category for r in runs)
        for run in runs:
            assert verify_trace(tmp_path / "baseline" / f"{run.item_id}.jsonl").ok
        only = run_ablation([item], store, policy=Policy(), arms=[Arm.BASELINE], paraphrases=False)
        assert [r.item_id for r in only[Arm.BASELINE]] == ["gift"]

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"concurrency": 0}, "concurrency must be >= 1"),
            ({"arms": [Arm.BASELINE, Arm.BASELINE]}, "arms must be distinct"),
            ({"arms": []}, "arms must be distinct and non-empty"),
        ],
    )
    def test_bad_arguments_are_refused(
        self, store: Store, items: list[GoldenItem], kwargs: dict[str, object], message: str
    ) -> None:
        """Nothing runs with a non-positive concurrency or a bad arm list."""
        with pytest.raises(ValueError, match=message):
            run_ablation(items, store, policy=Policy(), **kwargs)  # type: ignore[arg-type]
