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
from evidencegate.evals.golden import load_golden
from evidencegate.evals.metrics import METRICS, AblationMetrics, ItemResult, summarize
from evidencegate.evals.report import ReportFiles, markdown_table, write_report
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
    results = run_ablation(items, store, policy=Policy())
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
        """Three inline SVG plots, no script, stylesheet link or external image."""
        html = files.html.read_text(encoding="utf-8")
        assert html.count("<svg ") == 3
        assert not re.search(r"<script|<link|<img|\bsrc=|href=", html)
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
            update={"metrics": {m: None for m in first.metrics}, "ci": {m: None for m in first.ci}}
        )
        text = markdown_table(metrics.model_copy(update={"results": [blank]}))
        row = next(line for line in text.splitlines() if line.startswith("| failure_rate |"))
        assert row == "| failure_rate | lower | n/a |"
        assert not re.search(r"\bnan\b", text)
