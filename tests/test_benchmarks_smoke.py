"""benchmarks/run.py end to end: the quick run over the shared datasets, and missing data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import shared_path

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
