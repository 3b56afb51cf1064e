"""The loop's own cost: ``ask`` overhead per question excluding model time, and ``verify`` speed.

    python3 benchmarks/overhead.py [--repeats N] [--events N]

1. ``EvidenceGate.ask`` over every question of the example golden set (and its paraphrases),
   trace written to disk, per ``trace_durability`` side by side in one run: with the offline
   components (extractive generator, rules critic: no model at all), and with a scripted chat
   model as generator and critic (``evidencegate.testing.careful_model``), where the time spent
   inside the model (the scripted reply) is subtracted: what is left is the loop's overhead.
   Each row gives wall time, the process's CPU time (what the loop computes, without the waits
   for the disk's fsyncs or for other processes' turn on the cores: the figure to compare on a
   shared machine) and the first ask of each question alone (the later repeats find the
   question's analysis in the caches; the passages' are warm either way, as in a service).
2. Where an offline ``per_run`` ask spends its time, per stage (retrieval, the critic's two
   phases, drafting, verification, trace writing with its fsyncs, the rest of the loop): mean
   wall ms per ask, each stage's own time (a stage called inside another counts once); and
   the fsyncs per ask.
3. ``verify_trace`` events/s on one large trace (the events of example runs repeated), beside
   the same verification with the pure-Python ``rfc8785`` encoder (the path before the fast one).

Prints Markdown tables. Needs only the package (the example corpus is package data).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import rfc8785

from evidencegate import EvidenceGate, IngestOptions, Policy, Store
from evidencegate.data import example_dir
from evidencegate.providers.base import ChatRequest, ChatResponse
from evidencegate.testing import careful_model
from evidencegate.trace import chain
from evidencegate.trace.chain import read_trace, verify_trace
from evidencegate.trace.recorder import DURABILITIES, TraceRecorder


class TimedModel:
    """Wraps a chat model and adds up the time spent inside it (wall and this process's CPU)."""

    def __init__(self, model: str) -> None:
        self.inner = careful_model(model=model)
        self.provider = self.inner.provider
        self.model = self.inner.model
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            return self.inner.complete(request, timeout_s=timeout_s)
        finally:
            self.seconds += time.perf_counter() - started
            self.cpu_seconds += time.process_time() - started_cpu


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def questions(corpus: Path) -> list[tuple[str, dt.date]]:
    out = []
    for text in (corpus / "golden.jsonl").read_text(encoding="utf-8").splitlines():
        if text.strip():
            item = json.loads(text)
            as_of = dt.date.fromisoformat(item["as_of"])
            out += [(q, as_of) for q in [item["question"], *item.get("paraphrases", [])]]
    return out


def bench_ask(store: Store, work: Path, qs: list[tuple[str, dt.date]], repeats: int) -> list[str]:
    rows = []
    for models in (False, True):
        for durability in DURABILITIES:
            policy = Policy(trace_durability=durability, max_cost_usd=0)
            generator, critic = TimedModel("careful-gen"), TimedModel("careful-critic")
            gate = (
                EvidenceGate(store, policy=policy, generator=generator, critic=critic)  # type: ignore[arg-type]
                if models
                else EvidenceGate(store, policy=policy)
            )
            wall: list[float] = []
            cpu: list[float] = []
            for run in range(repeats):
                for index, (question, as_of) in enumerate(qs):
                    before = generator.seconds + critic.seconds
                    before_cpu = generator.cpu_seconds + critic.cpu_seconds
                    started, started_cpu = time.perf_counter(), time.process_time()
                    gate.ask(
                        question,
                        as_of=as_of,
                        trace_out=work / f"{durability}-{models}-{run}-{index}.jsonl",
                    )
                    model = generator.seconds + critic.seconds - before
                    model_cpu = generator.cpu_seconds + critic.cpu_seconds - before_cpu
                    wall.append((time.perf_counter() - started - model) * 1000)
                    cpu.append((time.process_time() - started_cpu - model_cpu) * 1000)
            what = "scripted models (model time excluded)" if models else "offline components"
            first = len(qs)
            for label, values in (
                ("wall", wall),
                ("CPU", cpu),
                ("wall, first ask of each question", wall[:first]),
                ("CPU, first ask of each question", cpu[:first]),
            ):
                rows.append(
                    f"| ask overhead, {what}, {durability}, {label} | "
                    f"{percentile(values, 50):.1f} ms | {percentile(values, 95):.1f} ms | "
                    f"{len(values)} runs |"
                )
    return rows


class Stages:
    """Own wall time per stage: a stage entered inside another is taken out of the outer one."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._stack: list[list[Any]] = []  # [stage, started, time in inner stages]

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        frame: list[Any] = [name, time.perf_counter(), 0.0]
        self._stack.append(frame)
        try:
            yield
        finally:
            self._stack.pop()
            spent = time.perf_counter() - frame[1]
            self.seconds[name] = self.seconds.get(name, 0.0) + spent - frame[2]
            if self._stack:
                self._stack[-1][2] += spent

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.stage(name):
                return method(*args, **kwargs)

        return timed


def bench_stages(store: Store, work: Path, qs: list[tuple[str, dt.date]]) -> list[str]:
    """Mean wall ms per offline ``per_run`` ask in each stage of the loop (one pass over qs)."""
    gate = EvidenceGate(store, policy=Policy(trace_durability="per_run", max_cost_usd=0))
    stages = Stages()
    loop = gate.controller
    for name, component, method in (
        ("retrieval (search + feedback + fit)", loop.retriever, "search"),
        ("question scope", loop.retriever, "scope"),
        ("critic, sufficiency", loop.critic, "sufficiency"),
        ("drafting", loop.generator, "draft"),
        ("critic, audit", loop.critic, "audit"),
        ("verification", loop.verifier, "verify"),
    ):
        setattr(component, method, stages.wrap(name, getattr(component, method)))
    emit, close = TraceRecorder.emit, TraceRecorder.close
    fsync = os.fsync
    fsyncs: list[int] = []

    def counted(fd: int) -> None:
        fsyncs.append(fd)  # the trace file, its directory (on a thread), the anchor log
        fsync(fd)

    with (
        mock.patch.object(TraceRecorder, "emit", stages.wrap("trace writing", emit)),
        mock.patch.object(TraceRecorder, "close", stages.wrap("trace writing", close)),
        mock.patch.object(os, "fsync", counted),
    ):
        for index, (question, as_of) in enumerate(qs):
            with stages.stage("rest of the loop"):
                gate.ask(question, as_of=as_of, trace_out=work / f"stages-{index}.jsonl")
    total = sum(stages.seconds.values())
    per_ask = len(fsyncs) / len(qs)
    return [
        f"| {name} | {seconds * 1000 / len(qs):.2f} ms | {seconds / total:.0%} |"
        for name, seconds in sorted(stages.seconds.items(), key=lambda item: -item[1])
    ] + [f"| fsyncs per ask (trace file, its directory, the anchor log) | {per_ask:.2f} | |"]


def bench_verify(work: Path, events: int) -> list[str]:
    sample = sorted(work.glob("per_run-False-0-*.jsonl"))
    recorded = [line.event for path in sample for line in read_trace(path)]
    body = [e for e in recorded if e.kind != "run_end"]
    big = work / "big.jsonl"
    with TraceRecorder(big, run_id="big", durability="per_run") as recorder:
        for n in range(events - 1):
            recorder.emit(body[n % len(body)])
        recorder.emit(next(e for e in recorded if e.kind == "run_end"))
    started = time.perf_counter()
    report = verify_trace(big)
    fast = time.perf_counter() - started
    assert report.ok and report.complete, report
    # Before: the same checks with every line encoded by the pure-Python rfc8785 library.
    with mock.patch.object(chain, "canonical_json", rfc8785.dumps):
        started = time.perf_counter()
        slow = verify_trace(big)
        full = time.perf_counter() - started
    assert slow == report
    size = big.stat().st_size / 1e6
    return [
        f"| verify_trace (fast path) | {report.lines / fast:,.0f} events/s | | "
        f"{report.lines} events, {size:.1f} MB |",
        f"| verify_trace, rfc8785 encoder (before) | {report.lines / full:,.0f} events/s | | "
        f"same trace; ratio {full / fast:.1f}x |",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2, help="runs over the question set")
    parser.add_argument("--events", type=int, default=20_000, help="events in the large trace")
    args = parser.parse_args(argv)
    with example_dir() as corpus, tempfile.TemporaryDirectory() as tmp:
        qs = questions(corpus)
        work = Path(tmp)
        with Store.open(work / "store") as store:
            store.ingest(sorted((corpus / "corpus").glob("*.md")), IngestOptions())
            rows = bench_ask(store, work, qs, args.repeats)
            stage_rows = bench_stages(store, work, qs)
        rows += bench_verify(work, args.events)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores\n")
    print("| measure | p50 | p95 | runs |\n|---|---|---|---|")
    print("\n".join(rows))
    print("\n| stage of an offline per_run ask | mean wall per ask | share |\n|---|---|---|")
    print("\n".join(stage_rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
