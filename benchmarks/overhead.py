"""The loop's own cost: ``ask`` overhead per question excluding model time, and ``verify`` speed.

    python3 benchmarks/overhead.py [--repeats N] [--events N]

1. ``EvidenceGate.ask`` over every question of the example golden set (and its paraphrases),
   trace written to disk, per ``trace_durability`` side by side in one run: with the offline
   components (extractive generator, rules critic: no model at all), and with a scripted chat
   model as generator and critic (``evidencegate.testing.careful_model``), where the time spent
   inside the model (the scripted reply) is subtracted: what is left is the loop's overhead.
2. ``verify_trace`` events/s on one large trace (the events of example runs repeated), beside
   the same verification with the pure-Python ``rfc8785`` encoder (the path before the fast one).

Prints one Markdown table. Needs only the package (the example corpus is package data).
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
from pathlib import Path
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
    """Wraps a chat model and adds up the time spent inside it."""

    def __init__(self, model: str) -> None:
        self.inner = careful_model(model=model)
        self.provider = self.inner.provider
        self.model = self.inner.model
        self.seconds = 0.0

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        started = time.perf_counter()
        try:
            return self.inner.complete(request, timeout_s=timeout_s)
        finally:
            self.seconds += time.perf_counter() - started


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
            overhead = []
            for run in range(repeats):
                for index, (question, as_of) in enumerate(qs):
                    before = generator.seconds + critic.seconds
                    started = time.perf_counter()
                    gate.ask(
                        question,
                        as_of=as_of,
                        trace_out=work / f"{durability}-{models}-{run}-{index}.jsonl",
                    )
                    model = generator.seconds + critic.seconds - before
                    overhead.append((time.perf_counter() - started - model) * 1000)
            what = "scripted models (model time excluded)" if models else "offline components"
            rows.append(
                f"| ask overhead, {what}, {durability} | {percentile(overhead, 50):.1f} ms | "
                f"{percentile(overhead, 95):.1f} ms | {len(overhead)} runs |"
            )
    return rows


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
        rows += bench_verify(work, args.events)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores\n")
    print("| measure | p50 | p95 | runs |\n|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
