"""Concurrency soak and kill -9: many processes on one store, then every integrity check.

Bounded for CI: the soak runs ``EVIDENCEGATE_SOAK_SECONDS`` (default 8) with 4 processes; the
kill test kills ``EVIDENCEGATE_KILLS`` (default 8) ingest and ask processes at random moments.
Their counts (runs, kills, integrity failures) are printed in pytest's terminal summary.
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conftest import COUNTS, REPO_ROOT, example_corpus_files

from evidencegate.audit.index import TraceIndex
from evidencegate.cli import main
from evidencegate.cli.trace import verify_with_anchor
from evidencegate.corpus import Store
from evidencegate.trace.chain import verify_trace

SOAK_SECONDS = float(os.environ.get("EVIDENCEGATE_SOAK_SECONDS", "8"))
KILLS = int(os.environ.get("EVIDENCEGATE_KILLS", "8"))
WORKERS = 4
QUESTIONS = (
    "What is the maximum value of a gift an employee may accept per giver per calendar year?",
    "How long must records of complaints be kept?",
    "What is the bank's policy on employees keeping pets at the office?",
)


def integrity_failures(store: Path) -> list[str]:
    """What is wrong with the store and its traces: the store's own check, then every trace's
    chain and anchor (a killed run may be incomplete, never broken), and no empty trace."""
    failures = []
    with Store.open(store, create=False) as opened:
        failures.extend(opened.integrity_problems())
    for trace in sorted((store / "traces").glob("*.jsonl")):
        if trace.stat().st_size == 0:
            failures.append(f"{trace.name}: empty trace file")
            continue
        ok, line, _ = verify_with_anchor(trace)
        if not ok:
            failures.append(f"{trace.name}: {line}")
    for run in TraceIndex.for_store(store).refresh():
        if run.status == "tampered":
            failures.append(f"traces list: {run.file} tampered ({run.reason})")
    return failures


def _soak_worker(args: tuple[int, str, float, list[str]]) -> tuple[int, int, list[str]]:
    """Ingest and ask against one store for ``seconds`` (at least one ingest and two asks);
    return (asks, ingests, errors)."""
    worker, store, seconds, files = args
    deadline = time.monotonic() + seconds  # from the worker's start: spawning takes a while
    rng = random.Random(worker)
    asks = ingests = 0
    errors: list[str] = []
    scratch = Path(store).parent / f"worker{worker}"
    scratch.mkdir(exist_ok=True)
    iteration = 0
    while iteration < 3 or time.monotonic() < deadline:
        iteration += 1
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            if iteration % 3 == 1:
                doc = scratch / f"SOAK-{worker}-{iteration}_1.md"
                doc.write_text(
                    f"---\ndoc_id: SOAK-{worker}-{iteration}\nversion: '1'\n"
                    "version_date: 2023-01-01\nauthority: primary\n---\n"
                    f"Worker {worker} note {iteration}: lockers are emptied on Fridays.\n"
                )
                code = main(["ingest", str(doc), *rng.sample(files, 2), "--store", store])
                ingests += 1
            elif iteration % 7 == 0:
                code = main(["traces", "list", "--store", store])
            else:
                tenant = ["--tenant", "acme"] if rng.random() < 0.2 else []
                code = main(["ask", rng.choice(QUESTIONS), "--store", store, *tenant])
                asks += 1
        if code != 0:
            errors.append(f"worker {worker} iteration {iteration}: exit {code}: {err.getvalue()}")
    return asks, ingests, errors


class TestConcurrencySoak:
    def test_processes_ingesting_and_asking_leave_a_sound_store(self, tmp_path: Path) -> None:
        """Four processes ingest and ask against one new store for a bounded time: every call
        succeeds and the store and every trace pass their integrity checks."""
        store = str(tmp_path / "store")
        context = multiprocessing.get_context("spawn")
        with context.Pool(WORKERS) as pool:
            results = pool.map(
                _soak_worker,
                [
                    (w, store, SOAK_SECONDS, list(map(str, example_corpus_files())))
                    for w in range(WORKERS)
                ],
            )
        errors = [e for _, _, worker_errors in results for e in worker_errors]
        failures = integrity_failures(Path(store))
        counts = COUNTS["soak"]
        counts["processes"] += WORKERS
        counts["asks"] += sum(asks for asks, _, _ in results)
        counts["ingests"] += sum(ingests for _, ingests, _ in results)
        counts["errors"] += len(errors)
        counts["integrity failures"] += len(failures)
        assert errors == []
        assert failures == []
        assert counts["asks"] > 0 and counts["ingests"] > 0


def _big_jsonl(path: Path, doc_id: str, records: int) -> None:
    """A JSONL source large enough that its ingest can be killed midway."""
    with path.open("w") as f:
        for i in range(records):
            record = {
                "doc_id": doc_id,
                "version": "1",
                "version_date": "2022-01-01",
                "authority": "primary",
                "label": f"§ {i}",
                "text": f"Paragraph {i}. A creditor must keep records of complaint {i} for "
                "25 months and give the consumer a written notice of the outcome. " * 3,
            }
            f.write(json.dumps(record) + "\n")


def _run(
    command: list[str], env: dict[str, str], started: Callable[[], bool], kill_after: float | None
) -> tuple[int, float]:
    """Run the CLI in a new process; once ``started()`` is true (the process reached the work:
    its store is open, its trace exists), SIGKILL it after ``kill_after`` seconds (None: let
    it finish). Return (exit code, seconds from the start of the work to the end)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "evidencegate", *command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while process.poll() is None and not started():
        time.sleep(0.002)
    working = time.monotonic()
    if kill_after is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=kill_after)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
    code = process.wait()
    return code, time.monotonic() - working


class TestKillNine:
    def test_kill_9_during_ingest_and_ask_never_corrupts(
        self, example_store_dir: Path, tmp_path: Path
    ) -> None:
        """Ingest and ask processes killed with SIGKILL at random moments of their work leave a
        store that passes its integrity check, traces that verify (complete or incomplete,
        never broken) and an ingest that committed whole or not at all."""
        store = example_store_dir
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), *sys.path])}
        rng = random.Random(13)
        records = 1000
        traces = store / "traces"
        wal = store / "evidencegate.sqlite3-wal"

        def ingest_started() -> bool:  # the ingest opened the store (WAL mode)
            return wal.exists()

        def ask_started(before: frozenset[Path]) -> Callable[[], bool]:
            return lambda: bool(set(traces.glob("*.jsonl")) - before)

        # How long the work takes here, so the kills land anywhere in it.
        _big_jsonl(tmp_path / "calibrate.jsonl", "CALIBRATE", records)
        calibrate = ["ingest", str(tmp_path / "calibrate.jsonl"), "--store", str(store)]
        code, ingest_seconds = _run(calibrate, env, ingest_started, None)
        assert code == 0
        before = frozenset(traces.glob("*.jsonl"))
        ask = ["ask", QUESTIONS[0], "--store", str(store)]
        code, ask_seconds = _run(ask, env, ask_started(before), None)
        assert code == 0
        counts = COUNTS["kill -9"]
        for round_no in range(KILLS):
            before = frozenset(traces.glob("*.jsonl"))
            if round_no % 2 == 0:
                doc_id = f"BIG-{round_no}"
                _big_jsonl(tmp_path / f"{doc_id}.jsonl", doc_id, records)
                command = ["ingest", str(tmp_path / f"{doc_id}.jsonl"), "--store", str(store)]
                code, _ = _run(command, env, ingest_started, rng.uniform(0, ingest_seconds))
            else:
                command = ["ask", rng.choice(QUESTIONS), "--store", str(store)]
                code, _ = _run(command, env, ask_started(before), rng.uniform(0, 0.6 * ask_seconds))
            counts["runs"] += 1
            counts["kills" if code == -signal.SIGKILL else "finished before the kill"] += 1
            failures = integrity_failures(store)
            if command[0] == "ingest":
                with Store.open(store, create=False) as opened:
                    stored = opened.document(doc_id, "1")
                if stored is not None and stored.pages != records:
                    failures.append(f"{doc_id} stored with {stored.pages} of {records} pages")
                counts["ingests committed" if stored else "ingests rolled back"] += 1
            else:
                new = set(traces.glob("*.jsonl")) - before
                complete = [t for t in new if verify_trace(t).complete]
                counts["asks complete" if complete else "asks killed mid-trace"] += 1
            counts["integrity failures"] += len(failures)
            assert failures == [], f"round {round_no} ({command[0]}, exit {code})"
        assert counts["runs"] == KILLS
