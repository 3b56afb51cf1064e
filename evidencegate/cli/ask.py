"""``evidencegate ask`` and ``evidencegate demo``: ask a question of a store (or of the packaged
example corpus) and print the gated answer.

``ask`` exits 0, or 1 with ``--strict`` when the outcome is not ``answered``; 2 on bad input.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from evidencegate.audit.logs import LogSink
from evidencegate.audit.otel import ENV_VAR as OTEL_ENV_VAR
from evidencegate.audit.otel import configure_telemetry
from evidencegate.contracts import GatedAnswer, Outcome
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.ingest import parse_date
from evidencegate.corpus.scope import provision_name
from evidencegate.data import example_dir
from evidencegate.exceptions import UsageError
from evidencegate.gate import EvidenceGate
from evidencegate.protocols import SourceLookup, TraceSink
from evidencegate.trace.recorder import DURABILITIES
from evidencegate.userio import cli_text, terminal_safe
from evidencegate.verify.derived import derivation_summary

__all__ = [
    "add_ask_arguments",
    "add_demo_arguments",
    "citation_places",
    "format_answer",
    "run_ask",
    "run_demo",
]


def add_ask_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``ask``."""
    parser.add_argument("question", nargs="?", help="the question (or --question-file)")
    parser.add_argument(
        "--question-file", type=Path, default=None, help="read the question from a UTF-8 file"
    )
    parser.add_argument(
        "--store", required=True, help="store directory or postgresql:// URL", metavar="STORE"
    )
    parser.add_argument("--as-of", type=_date, default=None, help="YYYY-MM-DD (default: today)")
    parser.add_argument("--policy", default=None, help="policy file or builtin name")
    parser.add_argument(
        "--retriever",
        choices=["bm25", "hybrid"],
        default=None,
        help="override the policy's retrieval (hybrid needs: pip install 'evidencegate[dense]')",
    )
    parser.add_argument("--tenant", default=None)
    parser.add_argument("--trace-out", type=Path, default=None, help="trace JSONL path")
    parser.add_argument(
        "--trace-durability",
        choices=DURABILITIES,
        default=None,
        help="fsync the trace after every event, or at decisions and the run's end "
        "(default: the policy's trace_durability, per_run)",
    )
    parser.add_argument("--json", action="store_true", help="print exactly the GatedAnswer JSON")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 unless the outcome is 'answered'"
    )
    parser.add_argument(
        "--otel",
        choices=["console", "otlp", "memory"],
        default=None,
        help=f"export OpenTelemetry spans (default: ${OTEL_ENV_VAR}, else off)",
    )
    parser.add_argument(
        "--log-json", action="store_true", help="log one JSON line per trace event to stderr"
    )


def add_demo_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``demo``."""
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="a directory with corpus/*.md and golden.jsonl (default: the packaged example)",
    )
    parser.add_argument("--traces", type=Path, default=None, help="where traces go")


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


def run_ask(args: argparse.Namespace) -> int:
    """Ask one question; print the answer (or its JSON) and where the trace is."""
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
                durability=args.trace_durability,
            )
            trace_path = args.trace_out or gate.store.traces_dir / f"{run_id}.jsonl"
            places = citation_places(answer, gate.store, tenant=args.tenant)
    finally:
        if telemetry:
            telemetry.shutdown()
    if args.json:
        sys.stdout.write(answer.model_dump_json() + "\n")
    else:
        print(format_answer(answer, places))
        print(f"trace: {terminal_safe(trace_path)}")
    if args.strict and answer.outcome is not Outcome.ANSWERED:
        return 1
    return 0


def citation_places(
    answer: GatedAnswer, pages: SourceLookup, *, tenant: str | None = None
) -> dict[tuple[str, str, int], str]:
    """Where each cited page sits, as the store records it: its label and heading path
    (:func:`~evidencegate.corpus.scope.provision_name`, "AC-12 Session Termination",
    "§ 1005.11(c)(1) Procedures for resolving errors — Ten-day period"); nothing for a page
    with neither, whose document id already says where it is."""
    places: dict[tuple[str, str, int], str] = {}
    for claim in answer.claims:
        for c in claim.citations:
            key = (c.doc_id, c.version, c.page)
            if key in places:
                continue
            source = pages.lookup(c.doc_id, c.version, c.page, tenant=tenant)
            if source is not None and (source.page.label or source.page.heading):
                document = source.document
                places[key] = provision_name(
                    source.page.label, source.page.heading, document.doc_id, document.title
                )
    return places


def format_answer(
    answer: GatedAnswer, places: Mapping[tuple[str, str, int], str] | None = None
) -> str:
    """A readable rendering: outcome, each claim with its quote, doc, version and page (and
    where the page sits, from ``places``: :func:`citation_places`).

    Every field that comes from a question, a document or a model goes through
    :func:`~evidencegate.userio.terminal_safe`: one line each, no control characters.
    """
    places = places or {}
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
        if claim.derivation is not None:
            lines.append(f"      computed: {safe(derivation_summary(claim.derivation))}")
        for c in claim.citations:
            place = places.get((c.doc_id, c.version, c.page))
            where = f"page {c.page} ({safe(place)})" if place else f"page {c.page}"
            lines.append(
                f'      quote: "{safe(c.quote)}"\n      source: {safe(c.doc_id)} @ '
                f"{safe(c.version)}, {where}, chars {c.char_start}-{c.char_end}"
            )
    for d in answer.dropped_claims:
        lines.append(f"  dropped: {safe(repr(d.text))} ({safe(', '.join(d.reasons))})")
    if answer.outcome is Outcome.ABSTAINED or answer.gaps:
        lines.append("  gaps: " + (safe("; ".join(answer.gaps)) or "-"))
    return "\n".join(lines)


def run_demo(args: argparse.Namespace) -> int:
    """Ingest the example corpus into a temporary store and ask a few of its questions."""
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
            print(format_answer(answer, citation_places(answer, store)))
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
