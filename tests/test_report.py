"""The reviewer's HTML report: content, escaping, self-containment, and rendering in Chromium
(with the ablation report, which links to each run's report)."""

from __future__ import annotations

import argparse
import base64
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
from evidencegate.audit.report.facts import (
    STOP_EXPLANATIONS,
    CheckStatus,
    citation_checks,
    claim_checks,
    evidence_considered,
    quote_length,
    thresholds,
    version_timelines,
)
from evidencegate.cli.audit import add_report_arguments, run_report
from evidencegate.contracts import (
    Arm,
    Citation,
    CitationCheck,
    ClaimVerification,
    FailureReason,
    GatedAnswer,
    Outcome,
    StopReason,
    VerificationFailure,
)
from evidencegate.corpus import Store
from evidencegate.evals.ablation import run_ablation
from evidencegate.evals.golden import load_golden
from evidencegate.evals.metrics import summarize
from evidencegate.evals.report import write_report as write_ablation_report
from evidencegate.exceptions import TraceFormatError, UsageError
from evidencegate.gate import EvidenceGate
from evidencegate.policy import JudgesPolicy, Policy
from evidencegate.review import ReviewQueue
from evidencegate.trace.chain import read_trace, verify_trace
from evidencegate.trace.events import (
    DraftEvent,
    RelevanceEvent,
    RetrievalEvent,
    RunEndEvent,
    RunStartEvent,
)
from evidencegate.trace.recorder import TraceRecorder

FORMAT1_TRACE = Path(__file__).parent / "fixtures" / "traces" / "format1-ex-001.jsonl"
SECTIONS = (
    "stop",
    "answer",
    "citations",
    "versions",
    "evidence",
    "policy",
    "review",
    "replay",
    "timeline",
    "chain",
)

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
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


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


def section(html: str, anchor: str) -> str:
    """The inner HTML of ``<section id="anchor">``."""
    found = re.search(rf'<section id="{anchor}">(.*?)</section>', html, re.DOTALL)
    assert found is not None, f"no section {anchor}"
    return found.group(1)


def check_rows(html: str) -> list[tuple[str, str, str]]:
    """(status, check, detail) of every row of the checks tables in ``html``."""
    return re.findall(
        r'<tr class="check-([a-z-]+)"><td>([^<]*)</td><td>.*?</td><td>([^<]*)</td></tr>', html
    )


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
        """Every recorded event has a timeline row; the budgets show the policy's limit and use."""
        trace, _ = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        kinds = [line.event.kind for line in read_trace(trace)]
        rows = re.findall(r'<tr class="ev-([a-z_]+)">', html)
        assert rows == kinds
        assert "<th>Retrievals</th><td><code>max_retrievals</code></td><td>4</td><td>1</td>" in html
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

    def test_every_section_on_an_old_format1_trace(self, store: Store) -> None:
        """A trace recorded in format 1 (before these sections existed) gets every section."""
        lines = read_trace(FORMAT1_TRACE)
        end = lines[-1].event
        assert isinstance(end, RunEndEvent)
        html = render_report(lines, verify_trace(FORMAT1_TRACE), store=store)
        for anchor in SECTIONS:
            assert f'<section id="{anchor}">' in html
        assert STOP_EXPLANATIONS[end.answer.stop_reason] in html
        cited = end.answer.claims[0].citations[0]
        article = re.search(r'id="cite-1-1">(.*?)</article>', html, re.DOTALL)
        assert article is not None
        assert check_rows(article.group(1))[3] == (
            "passed",
            "quote found verbatim",
            f"at characters {cited.char_start}–{cited.char_end} of page {cited.page}",
        )

    def test_a_policy_recorded_without_fields_is_said_so(
        self, store: Store, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """A run_start whose policy lacks every field: each threshold reads 'not recorded'."""
        trace, _ = answered
        bare = tmp_path / "bare-policy.jsonl"
        with TraceRecorder(bare) as recorder:
            for line in read_trace(trace):
                event = line.event
                if isinstance(event, RunStartEvent):
                    event = event.model_copy(update={"policy": {"name": "legacy"}})
                recorder.emit(event)
        html = render_report(read_trace(bare), verify_trace(bare), store=store)
        rows = {t.setting: t for t in thresholds(read_trace(bare), None) if t.setting}
        assert rows["max_retrievals"].limit == "not recorded"
        assert "<td><code>coverage_threshold</code></td><td>not recorded</td>" in html
        assert "(min_quote_chars=not recorded)" in html
        assert "of authority not recorded" in section(html, "evidence")


class TestVerifierChecks:
    def test_each_citation_lists_its_checks_with_what_they_found(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """Per citation: every check passed, with offsets, quote length, authority, as-of."""
        trace, answer = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        citation = answer.claims[0].citations[0]
        article = re.search(r'id="cite-1-1">(.*?)</article>', html, re.DOTALL)
        assert article is not None
        rows = check_rows(article.group(1))
        assert [name for _, name, _ in rows] == [
            "retrieved in this run",
            "document version and page in the store",
            "quote length",
            "quote found verbatim",
            "authority allowed (primary source)",
            "version in force on the as-of date",
            "no text addressed to a model",
        ]
        assert {status for status, _, _ in rows} == {"passed"}
        detail = {name: text for _, name, text in rows}
        assert detail["quote found verbatim"] == (
            f"at characters {citation.char_start}–{citation.char_end} of page {citation.page}"
        )
        assert detail["quote length"] == (
            f"{quote_length(citation.quote)} characters after normalisation (min_quote_chars=20)"
        )
        assert detail["authority allowed (primary source)"] == "primary; allowed: primary"
        assert detail["version in force on the as-of date"] == (
            f"{citation.doc_id}@{citation.version} was in force on {answer.as_of} when the run "
            "checked it"
        )

    def test_claim_checks_and_the_critics_verdict(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """Each claim shows the number/date/negation checks and the critic's audit verdict."""
        trace, _ = answered
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        block = re.search(r'id="checks-1">(.*?)<article', html, re.DOTALL)
        assert block is not None
        rows = check_rows(block.group(1))
        assert [(status, name) for status, name, _ in rows] == [
            ("passed", "cites a source"),
            ("passed", "numbers stated by the quotes"),
            ("passed", "dates stated by the quotes"),
            ("passed", "negation agrees with the quotes"),
        ]
        assert "Critic audit: <strong>supported</strong>" in block.group(1)
        assert "verifier: passed" in section(html, "answer")

    def test_a_failed_check_keeps_the_verifiers_words(self) -> None:
        """A quote not found fails its check with the recorded detail; hygiene is not run."""
        checks = citation_checks(
            citation_check(FailureReason.QUOTE_NOT_FOUND),
            as_of=dt.date(2024, 1, 1),
            policy=Policy().model_dump(mode="json"),
            authority="primary",
        )
        status = {c.name: c for c in checks}
        assert status["quote found verbatim"].status is CheckStatus.FAILED
        assert status["quote found verbatim"].detail == "quote_not_found: as recorded"
        assert status["no text addressed to a model"].status is CheckStatus.NOT_RUN
        assert status["version in force on the as-of date"].status is CheckStatus.PASSED
        assert status["retrieved in this run"].status is CheckStatus.PASSED

    def test_a_missing_version_leaves_the_page_checks_not_run(self) -> None:
        """Without the cited page, quote search, authority, in-force and hygiene did not run."""
        checks = citation_checks(
            citation_check(FailureReason.DOCUMENT_NOT_FOUND),
            as_of=dt.date(2024, 1, 1),
            policy=Policy().model_dump(mode="json"),
            authority=None,
        )
        assert [(c.name, c.status) for c in checks] == [
            ("retrieved in this run", CheckStatus.PASSED),
            ("document version and page in the store", CheckStatus.FAILED),
            ("quote length", CheckStatus.PASSED),
            ("quote found verbatim", CheckStatus.NOT_RUN),
            ("authority allowed (primary source)", CheckStatus.NOT_RUN),
            ("version in force on the as-of date", CheckStatus.NOT_RUN),
            ("no text addressed to a model", CheckStatus.NOT_RUN),
        ]

    def test_hygiene_is_off_when_the_policy_allows_flagged_text(self) -> None:
        """instruction_like_evidence=allow: the hygiene check is shown as off."""
        policy = Policy(instruction_like_evidence="allow").model_dump(mode="json")
        checks = citation_checks(
            citation_check(located=True), as_of=dt.date(2024, 1, 1), policy=policy, authority=None
        )
        assert checks[-1].name == "no text addressed to a model"
        assert checks[-1].status is CheckStatus.OFF

    def test_claim_level_failures_and_unlocated_quotes(self) -> None:
        """A number mismatch fails its check; with no quote located nothing was compared."""
        located = ClaimVerification(
            claim_id="c1",
            ok=False,
            citations=[citation_check(located=True)],
            failures=[failure(FailureReason.NUMBER_MISMATCH)],
        )
        status = {c.name: c.status for c in claim_checks(located)}
        assert status["numbers stated by the quotes"] is CheckStatus.FAILED
        assert status["dates stated by the quotes"] is CheckStatus.PASSED
        unlocated = ClaimVerification(
            claim_id="c1", ok=False, citations=[citation_check(FailureReason.QUOTE_NOT_FOUND)]
        )
        assert [c.status for c in claim_checks(unlocated)] == [
            CheckStatus.PASSED,
            CheckStatus.NOT_RUN,
            CheckStatus.NOT_RUN,
            CheckStatus.NOT_RUN,
        ]

    def test_a_derived_claim_shows_the_arithmetic_check(self) -> None:
        """A derived claim gets a derived-claim arithmetic check; any other claim does not."""
        verification = ClaimVerification(
            claim_id="c1", ok=True, citations=[citation_check(located=True)]
        )
        derived = claim_checks(verification, derived=True)
        assert (derived[-1].name, derived[-1].status) == (
            "derived-claim arithmetic",
            CheckStatus.PASSED,
        )
        assert "derived-claim arithmetic" not in [c.name for c in claim_checks(verification)]

    def test_every_stop_reason_is_explained(self) -> None:
        """The report can say in words why any run stopped."""
        assert set(STOP_EXPLANATIONS) == set(StopReason)


def failure(reason: FailureReason) -> VerificationFailure:
    return VerificationFailure(reason=reason, detail=f"{reason.value}: as recorded")


def citation_check(*reasons: FailureReason, located: bool = False) -> CitationCheck:
    citation = Citation(
        doc_id="DOC-1",
        version="1",
        page=2,
        quote="the words the generator quoted from the page",
        char_start=10 if located else None,
        char_end=54 if located else None,
    )
    return CitationCheck(
        citation=citation, ok=not reasons, failures=[failure(reason) for reason in reasons]
    )


class TestVersionTimeline:
    def test_cited_version_in_force_then_and_its_successor(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """ex-001 cites HSB-POL-007@2022.1 on 2023-06-15: in force then, superseded later."""
        trace, answer = answered
        citation = answer.claims[0].citations[0]
        versions = store.versions(citation.doc_id)
        cited = store.document(citation.doc_id, citation.version)
        assert cited is not None and cited.effective_to is not None
        successor = next(v for v in versions if v.effective_from == cited.effective_to)
        html = render_report(read_trace(trace), verify_trace(trace), store=store)
        part = section(html, "versions")
        rows = re.findall(r'<tr class="version( cited)?( superseded)?"><td>([^<]*)</td>', part)
        assert [row[2] for row in rows] == [v.version for v in versions]
        assert [row[2] for row in rows if row[0]] == [citation.version]
        assert (
            f"cited version {citation.version}: superseded by {successor.version} on "
            f"{successor.effective_from}, after the as-of date {answer.as_of}: in force on that "
            "date" in part
        )
        [timeline] = version_timelines(answer, store)
        assert [r.document.version for r in timeline.rows if r.in_force_on_as_of] == [
            citation.version
        ]

    def test_a_version_ingested_after_the_run_is_drift(self, tmp_path: Path) -> None:
        """A new version in force on the as-of date: drift banner, timeline, replay verdict."""
        store_dir = tmp_path / "store"
        with Store.open(store_dir) as fresh:
            fresh.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
            trace = tmp_path / "run.jsonl"
            answer = ask(fresh, trace, "ex-001")
        old = (EXAMPLE_CORPUS / "corpus" / "HSB-POL-007_2022.1.md").read_text(encoding="utf-8")
        newer = tmp_path / "HSB-POL-007_2023.1.md"
        newer.write_text(
            old.replace('version: "2022.1"', 'version: "2023.1"')
            .replace("version_date: 2022-01-01", "version_date: 2023-01-01")
            .replace("effective_from: 2022-01-01", "effective_from: 2023-01-01"),
            encoding="utf-8",
        )
        with Store.open(store_dir, create=False) as fresh:
            fresh.ingest([newer])
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out), "--store", str(store_dir), "--replay") == 0
        html = out.read_text(encoding="utf-8")
        citation = answer.claims[0].citations[0]
        assert 'id="drift"' in html and 'href="#cite-1-1">[1.1]</a> superseded' in html
        assert (
            f"cited version {citation.version}: superseded by 2023.1 on 2023-01-01, on or before "
            f"the as-of date {answer.as_of}: not in force on that date" in section(html, "versions")
        )
        assert "now superseded" in section(html, "answer")
        assert "identical decisions, but the sources drifted" in section(html, "replay")


class TestEvidenceConsidered:
    def test_every_retrieved_passage_once_and_which_were_cited(
        self, store: Store, answered: tuple[Path, GatedAnswer]
    ) -> None:
        """The evidence table lists each retrieved passage once, in order; cited ones marked."""
        trace, answer = answered
        lines = read_trace(trace)
        retrieved = list(
            dict.fromkeys(
                ref.passage_id
                for line in lines
                if isinstance(line.event, RetrievalEvent)
                for ref in line.event.results
            )
        )
        html = render_report(lines, verify_trace(trace), store=store)
        rows = re.findall(r'<tr class="(used|unused)" id="passage-([^"]+)">', html)
        assert [pid for _, pid in rows] == [pid[:16] for pid in retrieved]
        cited = {c.evidence_id for claim in answer.claims for c in claim.citations}
        assert {pid for kind, pid in rows if kind == "used"} == {pid[:16] for pid in cited if pid}
        for row in evidence_considered(lines, answer):
            if row.ref.passage_id not in cited:
                assert row.why == "given to the generator (pass 1); no claim cites it"
        assert f"{len(retrieved)} distinct passages retrieved" in section(html, "evidence")

    def test_passages_over_the_evidence_cap_are_said_to_be_left_out(
        self, store: Store, tmp_path: Path
    ) -> None:
        """With a small max_evidence_chars, the passages cut are named with the cap."""
        trace = tmp_path / "capped.jsonl"
        item = golden("ex-001")
        answer = EvidenceGate(store, policy=Policy(max_evidence_chars=500)).ask(
            item["question"], as_of=dt.date.fromisoformat(item["as_of"]), trace_out=trace
        )
        lines = read_trace(trace)
        given = {
            pid
            for line in lines
            if isinstance(line.event, DraftEvent)
            for pid in line.event.evidence_ids
        }
        rows = evidence_considered(lines, answer)
        left_out = [row for row in rows if row.ref.passage_id not in given]
        assert left_out
        for row in left_out:
            assert row.why == (
                "not given to the generator: the evidence of a pass is capped at "
                "max_evidence_chars=500"
            )
        by_name = {t.name: t for t in thresholds(lines, answer)}
        capped = by_name["Evidence characters given in a pass (most)"]
        assert capped.status == "at cap" and capped.limit == "500"
        assert capped.reached.endswith(f"{len(left_out)} passages left out")

    def test_relevance_grades_and_what_the_relevance_stage_left_out(
        self, store: Store, tmp_path: Path
    ) -> None:
        """With the relevance judge on, each judged passage shows its label, and those left
        out of the knowledge set say so."""
        trace = tmp_path / "judged.jsonl"
        item = golden("ex-001")
        policy = Policy(judges=JudgesPolicy(relevance=True, triad=True))
        answer = EvidenceGate(store, policy=policy).ask(
            item["question"], as_of=dt.date.fromisoformat(item["as_of"]), trace_out=trace
        )
        lines = read_trace(trace)
        [selection] = [
            e.selection for e in (ln.event for ln in lines) if isinstance(e, RelevanceEvent)
        ]
        labels = {j.passage_id: j.label.value.replace("_", " ") for j in selection.judgements}
        rows = {row.ref.passage_id: row for row in evidence_considered(lines, answer)}
        assert labels
        for pid, label in labels.items():
            assert f"{label} (relevance judge)" in rows[pid].grade
            if pid not in selection.used_ids:
                assert rows[pid].why.startswith(f"left out by the relevance stage: judged {label}")
        assert set(labels) - set(selection.used_ids)  # the stage left passages out
        end = lines[-1].event
        assert isinstance(end, RunEndEvent) and end.score is not None
        assert end.score.groundedness is not None and not end.score.flag_reasons
        html = render_report(lines, verify_trace(trace), store=store)
        review = section(html, "review")
        assert f"groundedness {end.score.groundedness:.2f}" in review
        assert '<span class="badge ok">not flagged</span>' in review


class TestThresholds:
    def test_policy_values_beside_what_the_run_reached(self, store: Store, tmp_path: Path) -> None:
        """The thresholds come from the recorded policy; the values from the run."""
        trace = tmp_path / "strict.jsonl"
        item = golden("ex-001")
        policy = Policy(name="review-test", coverage_threshold=0.5, min_quote_chars=30)
        answer = EvidenceGate(store, policy=policy).ask(
            item["question"], as_of=dt.date.fromisoformat(item["as_of"]), trace_out=trace
        )
        lines = read_trace(trace)
        html = render_report(lines, verify_trace(trace), store=store)
        shortest = min(quote_length(c.quote) for cl in answer.claims for c in cl.citations)
        retrievals = sum(1 for line in lines if isinstance(line.event, RetrievalEvent))
        part = section(html, "policy")
        assert (
            "<tr><th>Required-fact coverage</th><td><code>coverage_threshold</code></td>"
            f"<td>0.5</td><td>{answer.coverage:.2f}</td>" in part
        )
        assert (
            "<th>Shortest cited quote (characters)</th><td><code>min_quote_chars</code></td>"
            f"<td>30</td><td>{shortest}</td>" in part
        )
        assert f"<td><code>max_retrievals</code></td><td>4</td><td>{retrievals}</td>" in part

    def test_an_abstention_applies_on_fail(self, store: Store, tmp_path: Path) -> None:
        """An abstained run: the contract is not met and on_fail=abstain was applied."""
        trace = tmp_path / "abstained.jsonl"
        answer = ask(store, trace, "ex-019")
        rows = {t.setting: t for t in thresholds(read_trace(trace), answer) if t.setting}
        assert rows["on_fail"].limit == "abstain" and rows["on_fail"].status == "applied"
        assert rows["on_fail"].reached == "outcome abstained"


class TestReviewStatus:
    def test_flags_and_feedback_from_the_review_queue(
        self, store_dir: Path, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """With --store the report shows the run's flags and reviewer feedback, escaped."""
        trace, _ = answered
        run_id = read_trace(trace)[0].run_id
        with ReviewQueue.open(store_dir) as queue:
            queue.flag(run_id, "spot check <b>by</b> compliance")
            queue.record_feedback(run_id, "down", note="the limit looks stale")
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out), "--store", str(store_dir)) == 0
        part = section(out.read_text(encoding="utf-8"), "review")
        assert "in the review queue" in part and "1 flag for run" in part
        assert "spot check &lt;b&gt;by&lt;/b&gt; compliance" in part
        assert "<td>down</td><td>the limit looks stale</td>" in part

    def test_a_run_nobody_flagged(
        self, store_dir: Path, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """A run with no flag and no feedback says so; without the queue, that it was not read."""
        trace, _ = answered
        with ReviewQueue.open(store_dir) as queue:
            html = render_report(read_trace(trace), verify_trace(trace), review=queue)
        assert "not in the review queue" in section(html, "review")
        assert "No reviewer feedback" in section(html, "review")
        unread = render_report(read_trace(trace), verify_trace(trace))
        assert "The review queue was not read" in section(unread, "review")


class TestReplayInReport:
    def test_replay_as_recorded_is_identical(
        self, store_dir: Path, answered: tuple[Path, GatedAnswer], tmp_path: Path
    ) -> None:
        """--replay re-runs the recording: identical decisions, sources unchanged."""
        trace, _ = answered
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out), "--store", str(store_dir), "--replay") == 0
        part = section(out.read_text(encoding="utf-8"), "replay")
        assert "identical decisions, cited sources unchanged" in part
        assert f"{len(read_trace(trace))} events replayed" in part

    def test_replay_needs_the_store(
        self,
        answered: tuple[Path, GatedAnswer],
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """--replay without --store: exit 2, a clear error, nothing written."""
        trace, _ = answered
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out), "--replay") == 2
        assert "--replay needs --store" in capsys.readouterr().err
        assert not out.exists()
        with pytest.raises(UsageError, match="needs the store"):
            write_report(trace, out, replay=True)
        assert not out.exists()


class TestStoreText:
    def test_store_text_is_escaped(self, tmp_path: Path) -> None:
        """Markup in a stored document reaches the report as text (claim, context, excerpt)."""
        source = tmp_path / "HSB-NOTE-666_1.md"
        source.write_text(
            '---\ndoc_id: HSB-NOTE-666\nversion: "1"\nversion_date: 2023-01-01\n'
            "effective_from: 2023-01-01\nauthority: primary\ntitle: Gift note\n---\n"
            "# Gift note\n\n1.1 Employees may accept a gift with a value of up to $100 "
            "<img src=x onerror=alert(1)> per giver per calendar year without prior approval.\n",
            encoding="utf-8",
        )
        with Store.open(tmp_path / "store") as hostile:
            hostile.ingest([source])
            trace = tmp_path / "run.jsonl"
            ask(hostile, trace, "ex-001")
            html = render_report(read_trace(trace), verify_trace(trace), store=hostile)
        assert "<img" not in html
        assert "&lt;img src=x onerror=alert(1)&gt;" in section(html, "evidence")


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

    def test_sections_screenshot_and_print(
        self,
        browser: Any,
        store_dir: Path,
        answered: tuple[Path, GatedAnswer],
        tmp_path: Path,
    ) -> None:
        """The reviewer's sections render (screenshot taken); print hides navigation and
        prints to PDF."""
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.print_page_options import PrintOptions

        trace, answer = answered
        out = tmp_path / "report.html"
        assert report_cli(str(trace), "-o", str(out), "--store", str(store_dir), "--replay") == 0
        browser.get(out.as_uri())
        citation = answer.claims[0].citations[0]
        cited = browser.find_element(By.CSS_SELECTOR, "#versions tr.version.cited")
        assert cited.is_displayed() and citation.version in cited.text and "cited" in cited.text
        evidence = browser.find_element(By.ID, "evidence-table")
        assert evidence.is_displayed()
        assert len(browser.find_elements(By.CSS_SELECTOR, "#evidence-table tr.used")) == 1
        thresholds_table = browser.find_element(By.ID, "thresholds")
        assert "coverage_threshold" in thresholds_table.text
        checks = browser.find_elements(By.CSS_SELECTOR, "#cite-1-1 table.checks tr.check-passed")
        assert len(checks) == 7 and all(row.is_displayed() for row in checks)
        assert "identical decisions" in browser.find_element(By.ID, "replay-result").text
        assert "not in the review queue" in browser.find_element(By.ID, "queue").text
        shot = tmp_path / "report.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000

        nav = browser.find_element(By.CSS_SELECTOR, "nav.toc")
        assert nav.is_displayed()
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        assert not nav.is_displayed()
        mark = browser.find_element(By.CSS_SELECTOR, "#cite-1-1 .context mark")
        assert mark.value_of_css_property("background-color") not in (
            "rgba(0, 0, 0, 0)",
            "transparent",
        )
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        pdf = base64.b64decode(browser.print_page(PrintOptions()))
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000


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
