"""Ablation outputs: results.jsonl, metrics.json (schema-valid), metrics.md, report.html."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate.contracts import Arm
from evidencegate.corpus import IngestOptions, Store
from evidencegate.evals.ablation import ARMS, run_ablation
from evidencegate.evals.golden import ExpectedAnswer, load_golden
from evidencegate.evals.metrics import METRICS, AblationMetrics, ItemResult, summarize
from evidencegate.evals.report import ReportFiles, markdown_table, render_html, write_report
from evidencegate.policy import Policy
from evidencegate.schemas import SCHEMA_DIR


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[dict[Arm, list[ItemResult]], AblationMetrics]]:
    store = Store.open(tmp_path_factory.mktemp("report") / "store")
    store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")), IngestOptions())
    items = [
        i for i in load_golden(EXAMPLE_CORPUS / "golden.jsonl") if i.id in {"ex-006", "ex-019"}
    ]
    results = run_ablation(items, store, policy=Policy(), paraphrases=False)
    metrics = summarize(
        results,
        golden_set="golden.jsonl",
        golden_sha256="a" * 64,
        policy="default",
        policy_sha256=Policy().sha256(),
        evidencegate_version="test",
        resamples=50,
    )
    yield results, metrics
    store.close()


@pytest.fixture
def files(run: tuple[dict[Arm, list[ItemResult]], AblationMetrics], tmp_path: Path) -> ReportFiles:
    results, metrics = run
    return write_report(tmp_path / "out", metrics, results)


class TestWriteReport:
    def test_metrics_json_validates_against_the_schema_file(self, files: ReportFiles) -> None:
        """metrics.json is valid under schemas/ablation_metrics.schema.json on disk."""
        schema_path = SCHEMA_DIR / "ablation_metrics.schema.json"
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        data = json.loads(files.metrics.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(data)
        assert [r["arm"] for r in data["results"]] == [a.value for a in ARMS]

    def test_results_jsonl_has_one_line_per_arm_and_item(self, files: ReportFiles) -> None:
        """Every (arm, item) pair is one line, parseable back into an ItemResult."""
        lines = files.results.read_text(encoding="utf-8").splitlines()
        parsed = [ItemResult.model_validate_json(line) for line in lines]
        assert [(r.arm, r.item_id) for r in parsed] == [
            (arm, item) for arm in ARMS for item in ("ex-006", "ex-019")
        ]

    def test_markdown_has_a_row_per_metric_and_a_column_per_arm(self, files: ReportFiles) -> None:
        """The table lists every metric; only non-baseline cells carry a Δ with its interval."""
        text = files.markdown.read_text(encoding="utf-8")
        header = next(line for line in text.splitlines() if line.startswith("| metric"))
        assert header == "| metric | better | " + " | ".join(a.value for a in ARMS) + " |"
        for metric in METRICS:
            row = next(line for line in text.splitlines() if line.startswith(f"| {metric} |"))
            cells = [c.strip() for c in row.strip("|").split("|")]
            assert "Δ" not in cells[2]
            assert all("Δ" in cell for cell in cells[3:])

    def test_html_is_self_contained_with_inline_svg_plots(self, files: ReportFiles) -> None:
        """Three inline SVG plots, no script, stylesheet link, external image or URL."""
        html = files.html.read_text(encoding="utf-8")
        assert html.count("<svg ") == 3
        assert not re.search(r"<script|<link|<img|\bsrc=|https?://(?!www\.w3\.org/2000/svg)", html)
        assert not re.search(r'href="(?!#)', html)  # no trace written, so no run link
        assert "rates per arm with intervals" in html
        assert "latency distributions per arm" in html
        assert "required coverage against cost per arm" in html

    def test_invalid_metrics_are_not_written(
        self, run: tuple[dict[Arm, list[ItemResult]], AblationMetrics], tmp_path: Path
    ) -> None:
        """metrics.json that breaks its schema raises before any file is written."""
        results, metrics = run
        broken = metrics.model_copy(update={"items": 0})
        with pytest.raises(jsonschema.ValidationError):
            write_report(tmp_path / "out", broken, results)
        assert not (tmp_path / "out").exists()


class TestMarkdownTable:
    def test_undefined_values_show_as_n_a(
        self, run: tuple[dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """A metric without a value is 'n/a', never 0 or nan."""
        _, metrics = run
        first = metrics.results[0]
        blank = first.model_copy(
            update={
                "metrics": {m: None for m in first.metrics},
                "ci": {m: None for m in first.ci},
                "fractions": {m: None for m in first.fractions},
            }
        )
        text = markdown_table(metrics.model_copy(update={"results": [blank]}))
        row = next(line for line in text.splitlines() if line.startswith("| failure_rate |"))
        assert row == "| failure_rate | lower | n/a |"
        assert not re.search(r"\bnan\b", text)


# --------------------------------------------------------------------------- the HTML report

QUESTION_WITH_MARKUP = "Which <b>records</b> & logs must be kept, and for how long?"


@pytest.fixture(scope="module")
def traced(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]]:
    """Two example items with expected answers and paraphrases, traced, with run reports."""
    out = tmp_path_factory.mktemp("ablation") / "out"
    with Store.open(tmp_path_factory.mktemp("traced") / "store") as store:
        store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")), IngestOptions())
        golden = {i.id: i for i in load_golden(EXAMPLE_CORPUS / "golden.jsonl")}
        items = [
            golden["ex-010"].model_copy(
                update={
                    "expected_answer": ExpectedAnswer(all_of=[["12 months"]]),
                    "paraphrases": ["high-risk KYC refresh interval?"],
                }
            ),
            golden["ex-019"].model_copy(
                update={"question": QUESTION_WITH_MARKUP, "paraphrases": ["CCTV retention?"]}
            ),
        ]
        results = run_ablation(
            items, store, policy=Policy(), arms=[Arm.BASELINE, Arm.GROUNDED], trace_dir=out / "t"
        )
        metrics = summarize(
            results,
            golden_set="golden.jsonl",
            golden_sha256="a" * 64,
            policy="default",
            policy_sha256=Policy().sha256(),
            evidencegate_version="test",
            resamples=50,
        )
        write_report(out, metrics, results, store=store)
    yield out, results, metrics


def cells(html: str, table_id: str) -> list[list[str]]:
    """The rows of the table with ``table_id``, each a list of its cells' inner HTML."""
    match = re.search(rf'<table[^>]*id="{table_id}".*?</table>', html, re.DOTALL)
    assert match is not None, f"no table {table_id}"
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", match.group(), re.DOTALL)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.DOTALL) for row in rows]


class TestAblationHtml:
    def test_per_item_table_has_a_row_per_run_and_a_cell_per_arm(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Every run (variants included) is a row; each arm cell names its outcome class."""
        out, results, _ = traced
        rows = cells((out / "report.html").read_text(encoding="utf-8"), "items-table")
        assert rows[0][3:] == ["baseline", "grounded"]
        ids = [re.sub(r"</?code>", "", row[0]) for row in rows[1:]]
        assert ids == ["ex-010", "ex-010~p1", "ex-019", "ex-019~p1"]
        labels = {"correct", "WRONG", "abstained", "abstained (right)", "failed", "unscored"}
        for row, run in zip(rows[1:], results[Arm.GROUNDED], strict=True):
            label = re.search(r"<strong>(.*?)</strong>", row[4])
            assert label is not None and label.group(1) in labels
            assert f"{sum(not c.supported for c in run.claims)} unsupported" in row[4]

    def test_every_run_links_to_its_run_report(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Each per-item cell links, relatively, to that run's reviewer report on disk."""
        out, results, _ = traced
        html = (out / "report.html").read_text(encoding="utf-8")
        links = re.findall(r'<a href="(runs/[^"]+)">run report</a>', html)
        assert sorted(links) == sorted(
            f"runs/{arm.value}/{r.item_id}.html" for arm in results for r in results[arm]
        )
        for link in links:
            target = (out / link).read_text(encoding="utf-8")
            assert "<title>evidencegate report" in target

    def test_rates_carry_counts_and_intervals(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Every answer cell is k/n; every defined ratio metric shows (k/n) and an interval."""
        out, _, metrics = traced
        html = (out / "report.html").read_text(encoding="utf-8")
        for row in cells(html, "answers-table")[1:]:
            for cell in row[1:]:
                assert re.match(r"\d+/\d+ \(", cell), cell
        correct = cells(html, "answers-table")[1]
        assert correct[0] == "correct (answerable)"
        assert "/2 (" in correct[1] and "[" in correct[1]  # two answerable runs, an interval
        rate_rows = {row[0]: row for row in cells(html, "metrics-table")[1:]}
        for summary in metrics.results:
            for metric, fraction in summary.fractions.items():
                if fraction is not None and summary.metrics[metric] is not None:
                    column = 2 + metrics.arms.index(summary.arm)
                    cell = rate_rows[metric.value][column]
                    assert re.search(r"\(\d+(\.\d+)?/\d+", cell), cell

    def test_categories_are_broken_down_per_arm(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Each arm has a category table with the categories run as columns."""
        out, _, _ = traced
        html = (out / "report.html").read_text(encoding="utf-8")
        for arm in ("baseline", "grounded"):
            rows = cells(html, f"categories-{arm}")
            assert rows[0][1:] == ["factual", "unanswerable"]
            assert rows[1][0] == "correct (answerable)"

    def test_small_sample_is_flagged_and_large_is_not(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Two items: a visible caveat and † marks; 30 items: no caveat."""
        _, results, metrics = traced
        html = render_html(metrics, results)
        assert 'id="small-sample"' in html and "Small sample" in html and " †" in html
        assert 'id="small-sample"' not in render_html(
            metrics.model_copy(update={"items": 30}), results
        )

    def test_paraphrase_consistency_is_shown_per_item(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Each paraphrased item has a row saying, per arm, whether its phrasings agreed."""
        out, _, _ = traced
        rows = cells((out / "report.html").read_text(encoding="utf-8"), "paraphrase-table")
        assert len(rows) == 3
        for row in rows[1:]:
            assert all(re.match(r"(consistent|INCONSISTENT)<br>", cell) for cell in row[1:])

    def test_empty_panels_say_no_data(
        self, run: tuple[dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """Without paraphrases the consistency panel and table say 'no data', not nothing."""
        results, metrics = run
        html = render_html(metrics, results)
        assert "No data: no golden item was run with paraphrases." in html
        panel = re.search(r"paraphrase_consistency</text>(.*?)</svg>", html, re.DOTALL)
        assert panel is not None and "no data</text>" in panel.group(1)

    def test_text_from_golden_items_is_escaped(
        self, traced: tuple[Path, dict[Arm, list[ItemResult]], AblationMetrics]
    ) -> None:
        """A question with markup appears escaped, never as markup."""
        out, _, _ = traced
        html = (out / "report.html").read_text(encoding="utf-8")
        assert "Which &lt;b&gt;records&lt;/b&gt; &amp; logs" in html
        assert "<b>records</b>" not in html
