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
