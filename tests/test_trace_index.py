"""The index of a store's traces and ``evidencegate traces list``."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sqlite3
from pathlib import Path

import pytest

from evidencegate.audit.index import INDEX_FILENAME, TraceIndex
from evidencegate.cli.audit import add_traces_arguments, run_traces
from evidencegate.contracts import GatedAnswer
from evidencegate.exceptions import StoreError
from evidencegate.gate import EvidenceGate
from evidencegate.trace.anchor import ANCHOR_LOG

GIFT = (
    "What is the maximum value of a gift an employee may accept per giver per calendar year "
    "without prior approval?"
)
UNANSWERABLE = "What is the bank's policy on employees keeping pets at the office?"


@pytest.fixture
def store_dir(example_store_dir: Path) -> Path:
    """A private copy of the example store."""
    return example_store_dir


def ask(store_dir: Path, question: str) -> GatedAnswer:
    """Ask through the gate, which writes the trace to STORE/traces/RUN_ID.jsonl."""
    with EvidenceGate.open(store_dir) as gate:
        return gate.ask(question, as_of=dt.date(2023, 6, 15))


def trace_of(store_dir: Path, answer: GatedAnswer) -> Path:
    return store_dir / "traces" / f"{answer.trace_id}.jsonl"


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="evidencegate traces")
    add_traces_arguments(parser)
    return run_traces(parser.parse_args(list(argv)))


class TestTraceIndex:
    def test_lists_runs_oldest_first(self, store_dir: Path) -> None:
        """Each run of the store is listed with its question, outcome and stop reason."""
        first = ask(store_dir, GIFT)
        second = ask(store_dir, UNANSWERABLE)
        runs = TraceIndex.for_store(store_dir).refresh()
        assert [r.run_id for r in runs] == [first.trace_id, second.trace_id]
        assert [r.status for r in runs] == ["complete", "complete"]
        assert runs[0].question == GIFT and runs[0].outcome == first.outcome.value
        assert runs[1].stop_reason == second.stop_reason.value
        assert runs[0].as_of == dt.date(2023, 6, 15) and runs[0].policy == "default"
        assert (store_dir / "traces" / INDEX_FILENAME).is_file()

    def test_run_killed_midway_is_incomplete_then_refreshed(self, store_dir: Path) -> None:
        """A trace cut at a line boundary lists as incomplete; once whole, as complete."""
        answer = ask(store_dir, GIFT)
        path = trace_of(store_dir, answer)
        whole = path.read_bytes()
        path.write_bytes(b"".join(whole.splitlines(keepends=True)[:3]))
        (store_dir / "traces" / ANCHOR_LOG).unlink()  # a killed run is never anchored
        index = TraceIndex.for_store(store_dir)
        (run,) = index.refresh()
        assert (run.status, run.lines, run.outcome, run.question) == ("incomplete", 3, None, GIFT)
        path.write_bytes(whole)
        (run,) = index.refresh()
        assert (run.status, run.outcome) == ("complete", answer.outcome.value)

    def test_tampered_trace_is_listed_with_its_reason(self, store_dir: Path) -> None:
        """A trace whose chain is broken lists as tampered, naming the first bad line."""
        path = trace_of(store_dir, ask(store_dir, GIFT))
        path.write_bytes(path.read_bytes().replace(b'"pass_no":1', b'"pass_no":2', 1))
        (run,) = TraceIndex.for_store(store_dir).refresh()
        assert run.status == "tampered"
        assert run.reason is not None and run.reason.startswith("seq ")
        assert run.question == GIFT

    def test_unchanged_files_are_not_reread(self, store_dir: Path) -> None:
        """Rows of files whose size and mtime did not change are kept as indexed."""
        answer = ask(store_dir, GIFT)
        index = TraceIndex.for_store(store_dir)
        index.refresh()
        with sqlite3.connect(index.path) as db:
            db.execute("UPDATE traces SET question = 'cached' WHERE run_id = ?", (answer.trace_id,))
        db.close()
        (run,) = index.refresh()
        assert run.question == "cached"
        path = trace_of(store_dir, answer)
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
        (run,) = index.refresh()
        assert run.question == GIFT

    def test_deleted_trace_leaves_the_index(self, store_dir: Path) -> None:
        """A trace file removed from the directory is removed from the listing."""
        first = ask(store_dir, GIFT)
        second = ask(store_dir, UNANSWERABLE)
        index = TraceIndex.for_store(store_dir)
        assert len(index.refresh()) == 2
        trace_of(store_dir, first).unlink()
        assert [r.run_id for r in index.refresh()] == [second.trace_id]

    def test_corrupt_index_is_a_store_error(self, store_dir: Path) -> None:
        """An index file that is not SQLite raises StoreError saying to delete it."""
        ask(store_dir, GIFT)
        (store_dir / "traces" / INDEX_FILENAME).write_bytes(b"not a database" * 100)
        with pytest.raises(StoreError, match="delete it to rebuild"):
            TraceIndex.for_store(store_dir).refresh()

    def test_not_a_store_directory(self, tmp_path: Path) -> None:
        """A --store that does not exist is a StoreError."""
        with pytest.raises(StoreError, match="not a store directory"):
            TraceIndex.for_store(tmp_path / "missing")


class TestTracesListCommand:
    def test_table_shows_complete_and_incomplete_runs(
        self, store_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """traces list prints one row per run with its status, outcome and stop reason."""
        done = ask(store_dir, GIFT)
        cut = trace_of(store_dir, ask(store_dir, UNANSWERABLE))
        cut.write_bytes(b"".join(cut.read_bytes().splitlines(keepends=True)[:2]))
        (store_dir / "traces" / ANCHOR_LOG).unlink()  # a killed run is never anchored
        assert cli("list", "--store", str(store_dir)) == 0
        rows = capsys.readouterr().out.splitlines()
        assert rows[0].startswith("started (UTC)")
        assert "complete" in rows[1] and done.stop_reason.value in rows[1]
        assert done.trace_id[:12] in rows[1]
        assert "incomplete" in rows[2]

    def test_json_lines(self, store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints one JSON object per run."""
        answer = ask(store_dir, GIFT)
        assert cli("list", "--store", str(store_dir), "--json") == 0
        (line,) = capsys.readouterr().out.splitlines()
        data = json.loads(line)
        assert data["run_id"] == answer.trace_id and data["status"] == "complete"

    def test_empty_store(self, store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A store without traces says so."""
        assert cli("list", "--store", str(store_dir)) == 0
        assert "no traces in" in capsys.readouterr().out

    def test_missing_store_exits_2(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A missing store directory exits 2 with an error."""
        assert cli("list", "--store", str(tmp_path / "none")) == 2
        assert "error:" in capsys.readouterr().err
