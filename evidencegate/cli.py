"""Command line: ``evidencegate ingest | ask | verify | replay | report | traces | judge-bench |
ablate | feedback | flags | demo``.

Exit codes: 0 success; 1 a checked property failed (a tampered trace; ``ask --strict`` when the
answer is not ``answered``); 2 bad input or configuration (the message names what is wrong);
``replay`` adds 3 diverged, 4 sources drifted, 5 the recording is incomplete.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evidencegate._version import __version__
from evidencegate.contracts import GatedAnswer, Outcome
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.cli import add_ingest_arguments, run_ingest
from evidencegate.corpus.ingest import parse_date
from evidencegate.data import example_dir
from evidencegate.evals.cli import add_ablate_arguments, run_ablate
from evidencegate.exceptions import EvidenceGateError, UsageError
from evidencegate.gate import EvidenceGate
from evidencegate.judges.cli import (
    add_feedback_arguments,
    add_flags_arguments,
    add_judge_bench_arguments,
    run_feedback,
    run_flags,
    run_judge_bench,
)
from evidencegate.protocols import TraceSink
from evidencegate.trace.cli import run_verify
from evidencegate.trace.logs import LogSink
from evidencegate.trace.otel import ENV_VAR as OTEL_ENV_VAR
from evidencegate.trace.otel import configure_telemetry
from evidencegate.trace.replay_cli import (
    add_replay_arguments,
    add_report_arguments,
    add_traces_arguments,
    run_replay,
    run_report,
    run_traces,
)
from evidencegate.userio import cli_text, terminal_safe

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except EvidenceGateError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    return code


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evidencegate",
        description="Evidence-gated answers: every claim quotes a specific version of a primary "
        "source, or the answer is not emitted.",
    )
    parser.add_argument("--version", action="version", version=f"evidencegate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="ingest PDF, .txt/.md and JSONL sources into a store")
    add_ingest_arguments(ingest)
    ingest.set_defaults(func=run_ingest)

    ask = sub.add_parser("ask", help="ask a question; prints the gated answer")
    ask.add_argument("question", nargs="?", help="the question (or --question-file)")
    ask.add_argument(
        "--question-file", type=Path, default=None, help="read the question from a UTF-8 file"
    )
    ask.add_argument("--store", required=True, type=Path, help="store directory")
    ask.add_argument("--as-of", type=_date, default=None, help="YYYY-MM-DD (default: today)")
    ask.add_argument("--policy", default=None, help="policy file or builtin name")
    ask.add_argument(
        "--retriever",
        choices=["bm25", "hybrid"],
        default=None,
        help="override the policy's retrieval (hybrid needs: pip install 'evidencegate[dense]')",
    )
    ask.add_argument("--tenant", default=None)
    ask.add_argument("--trace-out", type=Path, default=None, help="trace JSONL path")
    ask.add_argument("--json", action="store_true", help="print exactly the GatedAnswer JSON")
    ask.add_argument(
        "--strict", action="store_true", help="exit 1 unless the outcome is 'answered'"
    )
    ask.add_argument(
        "--otel",
        choices=["console", "otlp", "memory"],
        default=None,
        help=f"export OpenTelemetry spans (default: ${OTEL_ENV_VAR}, else off)",
    )
    ask.add_argument(
        "--log-json", action="store_true", help="log one JSON line per trace event to stderr"
    )
    ask.set_defaults(func=_ask)

    verify = sub.add_parser("verify", help="check a trace's hash chain")
    verify.add_argument("trace", type=Path)
    verify.add_argument("--json", action="store_true")
    verify.add_argument(
        "--anchor",
        type=Path,
        default=None,
        help="anchor log to check the trace's head against; the run must be anchored in it "
        "(default: the anchors.log beside the trace, checked when it anchors the run)",
    )
    verify.set_defaults(func=lambda a: run_verify(str(a.trace), as_json=a.json, anchor=a.anchor))

    replay = sub.add_parser(
        "replay", help="re-run a trace on its recorded outputs; compare; report drift"
    )
    add_replay_arguments(replay)
    replay.set_defaults(func=run_replay)

    report = sub.add_parser("report", help="write a self-contained HTML report of a trace")
    add_report_arguments(report)
    report.set_defaults(func=run_report)

    traces = sub.add_parser("traces", help="the runs recorded in a store")
    add_traces_arguments(traces)
    traces.set_defaults(func=run_traces)

    ablate = sub.add_parser("ablate", help="run a golden set through the four ablation arms")
    add_ablate_arguments(ablate)
    ablate.set_defaults(func=run_ablate)

    bench = sub.add_parser(
        "judge-bench", help="measure a support judge on a human-labelled critic benchmark"
    )
    add_judge_bench_arguments(bench)
    bench.set_defaults(func=run_judge_bench)

    feedback = sub.add_parser("feedback", help="record a reviewer's verdict on a run")
    add_feedback_arguments(feedback)
    feedback.set_defaults(func=run_feedback)

    flags = sub.add_parser("flags", help="the review queue of flagged runs")
    add_flags_arguments(flags)
    flags.set_defaults(func=run_flags)

    demo = sub.add_parser(
        "demo", help="ingest the packaged example corpus into a temporary store and ask"
    )
    demo.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="a directory with corpus/*.md and golden.jsonl (default: the packaged example)",
    )
    demo.add_argument("--traces", type=Path, default=None, help="where traces go")
    demo.set_defaults(func=_demo)
    return parser


def _date(text: str) -> dt.date:
    try:
        return parse_date(cli_text(text, what="the date"))
    except (ValueError, UsageError) as exc:
        shown = terminal_safe(repr(text))
        raise argparse.ArgumentTypeError(f"{shown} is not a date (YYYY-MM-DD)") from exc


def _question(args: argparse.Namespace) -> str:
    """The question from argv or ``--question-file``, checked at the one decoding boundary."""
    if (args.question is None) == (args.question_file is None):
        raise UsageError("give the question either as an argument or with --question-file")
    if args.question is not None:
        return cli_text(args.question, what="the question")
    path: Path = args.question_file
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise UsageError(f"--question-file {path}: cannot read: {exc.strerror or exc}") from exc
    return cli_text(text.strip(), what=f"the question in {path}")


def _ask(args: argparse.Namespace) -> int:
    question = _question(args)
    run_id = uuid.uuid4().hex
    telemetry = configure_telemetry(args.otel)
    sinks: list[TraceSink] = [telemetry.sink(run_id)] if telemetry else []
    if args.log_json:
        sinks.append(LogSink(run_id, stream=sys.stderr))
    try:
        with EvidenceGate.open(args.store, policy=args.policy, retriever=args.retriever) as gate:
            answer = gate.ask(
                question,
                as_of=args.as_of,
                tenant=args.tenant,
                trace_out=args.trace_out,
                run_id=run_id,
                sinks=sinks,
            )
            trace_path = args.trace_out or gate.store.directory / "traces" / f"{run_id}.jsonl"
    finally:
        if telemetry:
            telemetry.shutdown()
    if args.json:
        sys.stdout.write(answer.model_dump_json() + "\n")
    else:
        print(format_answer(answer))
        print(f"trace: {terminal_safe(trace_path)}")
    if args.strict and answer.outcome is not Outcome.ANSWERED:
        return 1
    return 0


def format_answer(answer: GatedAnswer) -> str:
    """A readable rendering: outcome, each claim with its quote, doc, version and page.

    Every field that comes from a question, a document or a model goes through
    :func:`~evidencegate.userio.terminal_safe`: one line each, no control characters.
    """
    safe = terminal_safe
    lines = [
        f"question: {safe(answer.question)}",
        f"as of:    {answer.as_of.isoformat()}   policy: {safe(answer.policy)}",
        f"outcome:  {answer.outcome.value}  (stop: {answer.stop_reason.value}, "
        f"passes: {answer.passes}, coverage: {answer.coverage:.2f})",
    ]
    if answer.disclaimer:
        lines.append(f"disclaimer: {safe(answer.disclaimer)}")
    for i, claim in enumerate(answer.claims, start=1):
        lines.append(f"  [{i}] {safe(claim.text)}")
        for c in claim.citations:
            lines.append(
                f'      quote: "{safe(c.quote)}"\n      source: {safe(c.doc_id)} @ '
                f"{safe(c.version)}, page {c.page}, chars {c.char_start}-{c.char_end}"
            )
    for d in answer.dropped_claims:
        lines.append(f"  dropped: {safe(repr(d.text))} ({safe(', '.join(d.reasons))})")
    if answer.outcome is Outcome.ABSTAINED or answer.gaps:
        lines.append("  gaps: " + (safe("; ".join(answer.gaps)) or "-"))
    return "\n".join(lines)


def _demo(args: argparse.Namespace) -> int:
    if args.corpus is not None:
        return _run_demo(args.corpus, args.traces)
    with example_dir() as corpus:
        return _run_demo(corpus, args.traces)


def _run_demo(corpus: Path, traces_dir: Path | None) -> int:
    golden = corpus / "golden.jsonl"
    if not golden.is_file():
        print(f"error: example corpus not found at {terminal_safe(corpus)}", file=sys.stderr)
        return 2
    items = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines() if line]
    picks = _demo_questions(items)
    sources = sorted((corpus / "corpus").glob("*.md"))
    traces: Path = traces_dir or Path(tempfile.mkdtemp(prefix="evidencegate-demo-traces-"))
    traces.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="evidencegate-demo-") as tmp,
        Store.open(Path(tmp) / "store") as store,
    ):
        report = store.ingest(sources, IngestOptions())
        print(
            f"ingested {len(sources)} files of {terminal_safe(corpus)} into a temporary store: "
            f"{terminal_safe(report.summary())}"
        )
        gate = EvidenceGate(store)
        for item in picks:
            print(
                f"\n=== {terminal_safe(item['id'])} ({terminal_safe(item['category'])}), "
                f"as of {terminal_safe(item['as_of'])}"
            )
            answer = gate.ask(
                item["question"],
                as_of=dt.date.fromisoformat(item["as_of"]),
                trace_out=traces / f"{item['id']}.jsonl",
            )
            print(format_answer(answer))
    print(
        f"\ntraces written to {terminal_safe(traces)} (check one with: evidencegate verify TRACE)"
    )
    return 0


def _demo_questions(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A factual item, a stale trap before and after its policy changed, a primary-required
    item and an unanswerable one."""

    def first(category: str, *, exclude: dict[str, Any] | None = None) -> dict[str, Any] | None:
        for item in items:
            if item.get("category") != category or item is exclude:
                continue
            if exclude is not None and _versions(item) & _versions(exclude):
                continue  # the other side of the change
            if exclude is not None and not _docs(item) & _docs(exclude):
                continue
            return item
        return None

    trap = first("stale_trap")
    picks = [
        first("factual"),
        trap,
        first("stale_trap", exclude=trap) if trap else None,
        first("primary_required"),
        first("unanswerable"),
    ]
    return [p for p in picks if p is not None]


def _versions(item: dict[str, Any]) -> set[str]:
    return {f"{e['doc_id']}@{e.get('version')}" for e in item.get("required_evidence", [])}


def _docs(item: dict[str, Any]) -> set[str]:
    return {e["doc_id"] for e in item.get("required_evidence", [])}
