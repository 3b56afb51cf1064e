"""benchmarks/run.py end to end: the quick run over the shared datasets, and missing data."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

from bench_support import load_benchmark
from conftest import EXAMPLE_ITEMS, shared_path

REPO = Path(__file__).resolve().parent.parent
RUN = REPO / "benchmarks" / "run.py"
BENCHMARKS = ("PDF ingest", "Search latency", "Verifier checks/s", "Loop overhead")


def run_benchmarks(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RUN), *args], capture_output=True, text=True, cwd=REPO, check=False
    )


class TestBenchmarkRun:
    def test_quick_prints_a_row_for_every_benchmark(self) -> None:
        """--quick over the shared datasets exits 0 and its table has all four benchmarks."""
        shared_path("corpora", "regulatory_pdfs")
        paragraphs = shared_path("corpora", "cfpb_regml", "paragraphs.jsonl")
        result = run_benchmarks("--quick", "--shared", str(paragraphs.parents[2]))
        assert result.returncode == 0, result.stderr
        rows = [line.split("|") for line in result.stdout.splitlines() if line.startswith("| ")]
        assert rows, f"no table in the output:\n{result.stdout}"
        assert {row[1].strip() for row in rows} >= set(BENCHMARKS)

    def test_missing_shared_data_exits_2(self, tmp_path: Path) -> None:
        """Without the datasets under --shared it exits 2, names the path and prints no table."""
        result = run_benchmarks("--quick", "--shared", str(tmp_path))
        assert result.returncode == 2
        assert str(tmp_path / "corpora" / "regulatory_pdfs") in result.stderr
        assert result.stdout == ""


ANSWERS = REPO / "benchmarks" / "answers.py"
UNANSWERABLE = sum(  # unanswerable example items (run without their paraphrases)
    item["category"] == "unanswerable" for item in EXAMPLE_ITEMS
)


def run_answers(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ANSWERS), *args], capture_output=True, text=True, cwd=REPO, check=False
    )


class TestAnswersBenchmark:
    def test_example_runs_and_a_set_without_data_is_skipped(self, tmp_path: Path) -> None:
        """The example set gets a row of k/n figures; cfpb_regml without data is skipped by name.
        (Without paraphrases: a third of the runs; the ablation tests run them.)"""
        result = run_answers(
            "--no-paraphrases",
            "--sets",
            "example,cfpb_regml",
            "--shared",
            str(tmp_path / "absent"),
            "--cache",
            str(tmp_path / "cache"),
            "--out",
            str(tmp_path / "out"),
        )
        assert result.returncode == 0, result.stderr
        missing = tmp_path / "absent" / "corpora" / "cfpb_regml" / "paragraphs.jsonl"
        assert f"SKIPPED cfpb_regml: shared dataset {missing} is absent" in result.stderr
        rows = [
            line.split("|")[1:-1] for line in result.stdout.splitlines() if line.startswith("| ")
        ]
        header = [cell.strip() for cell in rows[0]]
        assert header[:4] == ["set", "arm", "items / runs", "correct (answerable)"]
        assert "WRONG (all runs)" in header and "paraphrase consistency" in header
        (example,) = [row for row in rows if row[0].strip() == "example"]
        cells = dict(zip(header, (cell.strip() for cell in example), strict=True))
        assert cells["arm"] == "grounded_followup"
        assert re.fullmatch(r"\d+/\d+ \(\d+\.\d%\)", cells["correct (answerable)"])
        assert cells["abstained (unanswerable)"].split(" ")[0].endswith("/" + str(UNANSWERABLE))
        assert (tmp_path / "out" / "example" / "report.html").is_file()
        assert "skipped: cfpb_regml" in result.stdout

    def test_every_set_skipped_exits_2(self, tmp_path: Path) -> None:
        """With no data for any chosen set it exits 2 and says so."""
        result = run_answers(
            "--sets", "nist_sp800_53", "--shared", str(tmp_path), "--cache", str(tmp_path)
        )
        assert result.returncode == 2
        assert (
            "SKIPPED nist_sp800_53" in result.stderr
            and "every golden set was skipped" in result.stderr
        )
        assert result.stdout == ""

    def test_unknown_set_is_a_usage_error(self) -> None:
        """An unknown --sets name exits 2 naming the known sets."""
        result = run_answers("--sets", "example,nope")
        assert result.returncode == 2
        assert "cfpb_regml" in result.stderr and "nope" in result.stderr


class TestIngestBenchmark:
    def test_quick_prints_both_tables_and_the_target(self) -> None:
        """benchmarks/ingest.py --quick prints the extractor and ingest tables and the target."""
        pdfs = shared_path("corpora", "financebench", "pdfs")
        shared_path("corpora", "regulatory_pdfs")
        script = str(REPO / "benchmarks" / "ingest.py")
        result = subprocess.run(
            [sys.executable, script, "--quick", "--shared", str(pdfs.parents[2])],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        firsts = [line.split("|")[1].strip() for line in result.stdout.splitlines() if "|" in line]
        assert any(cell.startswith("pypdfium2 ") for cell in firsts)
        assert any(cell.startswith("pypdf ") for cell in firsts)
        assert {"ingest_batch jobs=1", "ingest_batch jobs=2"} <= set(firsts)
        assert "target: jobs=2" in result.stdout


class TestScaleBenchmark:
    def test_quick_prints_the_table_beside_the_peers(self) -> None:
        """benchmarks/scale.py --quick exits 0 and prints our and the peers' rows at both
        scales; evidencegate never returns a version out of force, with phrases or without."""
        paragraphs = shared_path("corpora", "cfpb_regml", "paragraphs.jsonl")
        script = str(REPO / "benchmarks" / "scale.py")
        result = subprocess.run(
            [sys.executable, script, "--quick", "--shared", str(paragraphs.parents[2])],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        rows = {
            line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in result.stdout.splitlines()
            if line.startswith("| ")
        }
        assert re.fullmatch(
            r"[\d.]+ / [\d.]+", rows["· evidencegate Store.search, as-of filtered"][1]
        )
        assert re.fullmatch(r"[\d.]+ / [\d.]+", rows["· bm25s numba, unfiltered"][1])
        assert re.fullmatch(r"[\d.]+ / [\d.]+", rows["· rank_bm25 BM25Okapi, unfiltered"][0])
        assert rows["· evidencegate, out of force"] == ["0.000", "0.000"]
        assert rows["· evidencegate phrases=False, out of force"] == ["0.000", "0.000"]
        assert float(rows["· evidencegate"][0]) > 0.5
        assert float(rows["· evidencegate, phrases=False"][0]) > 0.5
        for ours, source in zip(
            rows["· evidencegate"], rows["· evidencegate, source itself"], strict=True
        ):
            assert 0.5 < float(source) <= float(ours)
        assert rows["+1 version (ingest + first search)"][1].endswith(" s")

    def test_recall_counts_a_passage_of_the_version_holding_the_quote(self) -> None:
        """A result is the query's evidence when it is of the source's doc_id and version and is
        the source's text or holds the quoted words word for word (case aside); never in another
        version or document, nor for words that only run into the quote."""
        try:
            scale = load_benchmark("scale", "scale_bench")
            source = "A creditor shall retain the information beyond 25 months."
            query = scale.Query(
                "A creditor shall retain copy3",
                dt.date(2020, 1, 1),
                ("DOC #3", "v1", source),
                "A creditor shall retain",
                frozenset(),
            )
            other = "For 25 months, a  creditor shall\nretain all records."
            assert scale.holds(query, ("DOC #3", "v1", source))
            assert scale.holds(query, ("DOC #3", "v1", other))
            assert not scale.holds(query, ("DOC #4", "v1", other))
            assert not scale.holds(query, ("DOC #3", "v2", source))
            assert not scale.holds(query, ("DOC #3", "v1", "NA creditor shall retain all."))
        finally:
            del sys.modules["scale_bench"]

    def test_missing_shared_data_exits_2(self, tmp_path: Path) -> None:
        """Without the CFPB paragraphs under --shared it exits 2 naming the path."""
        script = str(REPO / "benchmarks" / "scale.py")
        result = subprocess.run(
            [sys.executable, script, "--quick", "--shared", str(tmp_path)],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert result.returncode == 2
        assert "paragraphs.jsonl" in result.stderr and result.stdout == ""
