"""The reviewer's HTML report: content, escaping, self-containment, and rendering in Chromium
(with the ablation report, which links to each run's report)."""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate.audit.report import render_report, write_report
from evidencegate.cli.audit import add_report_arguments, run_report
from evidencegate.contracts import Arm, GatedAnswer, Outcome
from evidencegate.corpus import Store
from evidencegate.evals.ablation import run_ablation
from evidencegate.evals.golden import load_golden
from evidencegate.evals.metrics import summarize
from evidencegate.evals.report import write_report as write_ablation_report
from evidencegate.exceptions import TraceFormatError
from evidencegate.gate import EvidenceGate
from evidencegate.policy import Policy
from evidencegate.trace.chain import read_trace, verify_trace

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1024,768",
)


def golden(item_id: str) -> dict[str, Any]:
    for line in (EXAMPLE_CORPUS / "golden.jsonl").read_text(encoding="utf-8").splitlines():
        item: dict[str, Any] = json.loads(line)
        if item["id"] == item_id:
            return item
    raise AssertionError(item_id)


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("report") / "store"
    with Store.open(directory) as store:
        store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
    return directory


@pytest.fixture
def store(store_dir: Path) -> Iterator[Store]:
    with Store.open(store_dir, create=False) as opened:
        yield opened


def ask(store: Store, trace: Path, item_id: str, question: str | None = None) -> GatedAnswer:
    item = golden(item_id)
    return EvidenceGate(store).ask(
        question or item["question"], as_of=dt.date.fromisoformat(item["as_of"]), trace_out=trace
    )


@pytest.fixture
def answered(store: Store, tmp_path: Path) -> tuple[Path, GatedAnswer]:
    """ex-001: the $100 gift limit, answered from HSB-POL-007@2022.1."""
    trace = tmp_path / "answered.jsonl"
    answer = ask(store, trace, "ex-001")
    assert answer.outcome is Outcome.ANSWERED
    return trace, answer


def report_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="evidencegate report")
    add_report_arguments(parser)
    return run_report(parser.parse_args(list(argv)))


class TestReportContent:
    def test_answer_claims_and_sources(
        self, store: Store, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """The report names the question, as-of, outcome, stop reason and each cited source."""
        trace, answer = answered
        out = tmp_path / "report.html"
        write_report(trace, out, store=store)
        html = out.read_text(encoding="utf-8")
        citation = answer.claims[0].citations[0]
        assert "What is the maximum value of a gift" in html
        assert "2023-06-15" in html and "contract_met" in html
        assert '<span class="badge ok" id="outcome">answered</span>' in html
        assert 'href="#cite-1-1"' in html and 'id="cite-1-1"' in html
        document = store.document(citation.doc_id, citation.version)
        assert document is not None
        assert f"<th>Version date</th><td>{document.version_date.isoformat()}</td>" in html
        assert "<th>Authority</th><td>primary</td>" in html
        assert "source now: unchanged" in html

    def test_mark_holds_exactly_the_cited_span(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """The <mark> is the page text at the citation's offsets, with context around it."""
        trace, answer = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        citation = answer.claims[0].citations[0]
        page = store.lookup(citation.doc_id, citation.version, citation.page)
        assert page is not None and citation.char_start is not None
        span = page.page.text[citation.char_start : citation.char_end]
        marks = re.findall(r'<div class="context">(.*?)<mark>(.*?)</mark>', html, re.DOTALL)
        assert [m[1] for m in marks] == [span]
        assert marks[0][0].strip()  # page text before the span is shown

    def test_timeline_and_budgets(
        self, store: Store, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """Every recorded event has a timeline row, and the budgets table shows use and limits."""
        trace, _ = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        kinds = [line.event.kind for line in read_trace(trace)]
        rows = re.findall(r'<tr class="ev-([a-z_]+)">', html)
        assert rows == kinds
        assert "<th>Retrievals</th><td>1</td><td>4</td>" in html
        assert f"{len(kinds)} lines, complete" in html

    def test_every_text_is_escaped(self, store: Store, tmp_path: Path) -> None:
        """A question carrying markup is shown as text, never as markup."""
        trace = tmp_path / "markup.jsonl"
        ask(store, trace, "ex-019", question='<script>alert("x")</script> gift <b>limit</b>?')
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        assert "<script" not in html and "<b>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html

    def test_no_external_assets(self, store: Store, answered: tuple[Path, GatedAnswer]) -> None:
        """The file is self-contained: no script, stylesheet link, image or remote URL."""
        trace, _ = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        for needle in (
            "<script",
            "<link",
            "<img",
            "src=",
            "url(",
            "@import",
            "http://",
            "https://",
        ):
            assert needle not in html
        assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', html))

    def test_without_store_shows_quotes_only(
        self, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """Without a store the report says so and marks the quotes themselves."""
        trace, answer = answered
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out)) == 0
        html = out.read_text(encoding="utf-8")
        assert 'id="no-store"' in html and 'class="context"' not in html
        quote = answer.claims[0].citations[0].quote
        assert f'<blockquote class="quote"><mark>{quote}</mark></blockquote>' in html

    def test_abstention_lists_gaps(self, store: Store, tmp_path: Path) -> None:
        """An abstained run shows the abstention, its gaps and no citations section."""
        trace = tmp_path / "abstained.jsonl"
        answer = ask(store, trace, "ex-019")
        assert answer.outcome is Outcome.ABSTAINED
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        assert '<p class="abstained">Abstained' in html
        assert "<h3>Gaps</h3>" in html and 'id="citations"' not in html

    def test_incomplete_run_is_flagged(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """A trace cut before run_end gets an 'incomplete' banner and no answer."""
        trace, _ = answered
        lines = trace.read_bytes().splitlines(keepends=True)
        trace.write_bytes(b"".join(lines[:3]))
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        assert 'id="incomplete"' in html and "No answer was recorded." in html


class TestReportRefusals:
    def test_tampered_trace_gets_no_report(
        self,
        store_dir: Path,
        answered: tuple[Path, GatedAnswer],
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """A broken chain: write_report raises, the CLI exits 1 and writes nothing."""
        trace, _ = answered
        trace.write_bytes(trace.read_bytes().replace(b"$100", b"$900", 1))
        out = tmp_path / "report.html"
        with pytest.raises(TraceFormatError, match="TAMPERED at seq"):
            write_report(trace, out)
        assert report_cli(str(trace), "-o", str(out), "--store", str(store_dir)) == 1
        assert "TAMPERED" in capsys.readouterr().err
        assert not out.exists()


# --------------------------------------------------------------------------- Chromium


def _require(ok: bool, message: str) -> None:
    if ok:
        return
    if os.environ.get("EVIDENCEGATE_REQUIRE_SHARED") == "1":
        pytest.fail(message + " and EVIDENCEGATE_REQUIRE_SHARED=1 (CI installs it)")
    pytest.skip(message)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium driven by selenium through chromedriver (skips when absent)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    _require(chromium is not None, "chromium is not installed (apt-get install chromium)")
    _require(
        driver_path is not None, "chromedriver is not installed (apt-get install chromium-driver)"
    )
    _require(
        importlib.util.find_spec("selenium") is not None,
        "selenium is not installed (pip install selenium)",
    )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(driver_path)))
    try:
        yield driver
    finally:
        driver.quit()


class TestReportInChromium:
    def test_highlighted_quote_is_visible(
        self,
        browser: Any,
        store: Store,
        answered: tuple[Path, GatedAnswer],
        tmp_path: Path,
    ) -> None:
        """Following a claim's link shows its <mark>: displayed, non-empty and in the viewport."""
        from selenium.webdriver.common.by import By

        trace, answer = answered
        out = tmp_path / "report.html"
        write_report(trace, out, store=store)
        browser.get(out.as_uri())
        assert "evidencegate report" in browser.title
        browser.find_element(By.CSS_SELECTOR, 'a[href="#cite-1-1"]').click()
        assert browser.current_url.endswith("#cite-1-1")
        mark = browser.find_element(By.CSS_SELECTOR, "#cite-1-1 .context mark")
        citation = answer.claims[0].citations[0]
        assert mark.text == citation.quote
        assert mark.is_displayed()
        assert mark.size["width"] > 0 and mark.size["height"] > 0
        top, bottom, height = browser.execute_script(
            "const r = arguments[0].getBoundingClientRect();"
            "return [r.top, r.bottom, window.innerHeight];",
            mark,
        )
        assert 0 <= top < bottom <= height
        background = mark.value_of_css_property("background-color")
        assert background not in ("rgba(0, 0, 0, 0)", "transparent")


@pytest.fixture
def ablation_report(store: Store, tmp_path: Path) -> Path:
    """An ablation of two example items (one paraphrased) over two arms, with run reports."""
    items = [
        i.model_copy(update={"paraphrases": ["high-risk KYC refresh interval?"]})
        if i.id == "ex-010"
        else i.model_copy(update={"paraphrases": []})
        for i in load_golden(EXAMPLE_CORPUS / "golden.jsonl")
        if i.id in {"ex-010", "ex-019"}
    ]
    out = tmp_path / "ablation"
    results = run_ablation(
        items, store, policy=Policy(), arms=[Arm.BASELINE, Arm.GROUNDED], trace_dir=out / "traces"
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
    return write_ablation_report(out, metrics, results, store=store).html


class TestAblationReportInChromium:
    def test_caveat_tables_and_one_click_to_a_run_report(
        self, browser: Any, ablation_report: Path, tmp_path: Path
    ) -> None:
        """The caveat and tables are visible, a screenshot is taken, a run link opens its report."""
        from selenium.webdriver.common.by import By

        browser.get(ablation_report.as_uri())
        assert "evidencegate ablation" in browser.title
        caveat = browser.find_element(By.ID, "small-sample")
        assert caveat.is_displayed() and "Small sample" in caveat.text
        answers = browser.find_element(By.ID, "answers-table")
        assert answers.is_displayed() and "correct (answerable)" in answers.text
        rows = browser.find_elements(By.CSS_SELECTOR, "#items-table tr")
        assert [r.get_attribute("id") for r in rows[1:]] == [
            "run-ex-010",
            "run-ex-010~p1",
            "run-ex-019",
        ]
        consistency = browser.find_element(By.ID, "paraphrase-table")
        assert "ex-010" in consistency.text
        shot = tmp_path / "ablation.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000
        browser.find_element(By.CSS_SELECTOR, "#run-ex-010 a").click()
        assert browser.current_url.endswith("/runs/baseline/ex-010.html")
        assert "evidencegate report" in browser.title
        assert browser.find_element(By.ID, "outcome").is_displayed()
