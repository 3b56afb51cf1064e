"""``evidencegate replay | report | traces list``: the trace commands (wired in by ``cli``).

Exit codes of ``replay`` (see :mod:`evidencegate.audit.replay`): 0 identical and no drift,
1 tampered chain, 2 bad input, 3 divergence (with ``--policy``: the policy decides
differently), 4 identical but the cited sources drifted, 5 identical so far but the recording
is incomplete. ``report``: 0 written, 1 tampered chain (nothing written), 2 bad input (also
``--replay`` without ``--store``).
``traces list``: 0, or 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evidencegate.audit.index import TraceIndex, TraceSummary
from evidencegate.audit.replay import ReplayResult, replay_trace
from evidencegate.audit.report.html import write_report
from evidencegate.corpus.backends import open_store
from evidencegate.corpus.ingest import DEFAULT_TENANT
from evidencegate.exceptions import UsageError
from evidencegate.review import ReviewQueue
from evidencegate.trace.chain import verify_trace
from evidencegate.userio import terminal_safe

__all__ = [
    "add_replay_arguments",
    "add_report_arguments",
    "add_traces_arguments",
    "format_replay",
    "run_replay",
    "run_report",
    "run_traces",
]

_SHOWN_JSON = 400
"""Characters of each diverging event shown in the text output (--json shows all)."""


# --------------------------------------------------------------------------- replay


def add_replay_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``evidencegate replay`` to ``parser``."""
    parser.add_argument("trace", type=Path, help="trace JSONL file")
    parser.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )
    parser.add_argument(
        "--policy",
        default=None,
        help="counterfactual replay: this policy (file or builtin name) instead of the recorded",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def run_replay(args: argparse.Namespace) -> int:
    """Replay ``args.trace`` over ``args.store``; print the result; return its exit code."""
    try:
        with open_store(args.store, create=False) as store:
            result = replay_trace(args.trace, store, policy=args.policy)
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            f"error: cannot read trace {terminal_safe(args.trace)}: "
            f"{terminal_safe(exc.strerror or exc)}",
            file=sys.stderr,
        )
        return 2
    if args.json:
        data = result.model_dump(mode="json")
        data["exit_code"] = result.exit_code
        print(json.dumps(data, sort_keys=True))  # ASCII: no raw control character
    else:
        print(format_replay(result))
    return result.exit_code


def format_replay(result: ReplayResult) -> str:
    """The readable rendering of a replay result (terminal-safe: one line per entry)."""
    return "\n".join(terminal_safe(line) for line in _replay_lines(result))


def _replay_lines(result: ReplayResult) -> list[str]:
    if not result.chain_ok:
        return [
            f"TAMPERED at seq {result.chain_first_bad_seq}: {result.chain_reason}",
            f"result: tampered, nothing replayed (exit {result.exit_code})",
        ]
    mode = f"counterfactual, policy {result.policy}" if result.counterfactual else "as recorded"
    state = "complete" if result.complete else "incomplete: no run_end"
    out = [
        f"chain:  intact, {result.recorded_events} events ({state})",
        f"replay: {mode}; {result.replayed_events} events replayed",
    ]
    if result.policy_fields_added:
        added = ", ".join(result.policy_fields_added)
        out.append(f"policy: recorded before these fields existed, replayed at defaults: {added}")
    div = result.divergence
    if div is None:
        out.append(f"decisions: identical ({result.recorded_events} recorded events compared)")
    else:
        kinds = (
            f"recorded {div.recorded_kind or 'nothing'}, replayed {div.replayed_kind or 'nothing'}"
        )
        where = f" at {div.path}" if div.path else ""
        out.append(f"decisions: DIVERGED at seq {div.seq} ({kinds}){where}")
        out.append(f"  recorded: {_clip(div.recorded)}")
        out.append(f"  replayed: {_clip(div.replayed)}")
    for label, answer in (
        ("recorded", result.recorded_answer),
        ("replayed", result.replayed_answer),
    ):
        if answer is not None:
            out.append(
                f"{label} answer: {answer.outcome.value} (stop {answer.stop_reason.value}, "
                f"coverage {answer.coverage:.2f}, {len(answer.claims)} claims)"
            )
    for change in result.evidence:
        out.append(f"evidence {change.status.value}: {change.detail}")
    for drift in result.drift:
        out.append(
            f"citation {drift.claim_id} {drift.doc_id}@{drift.version} p{drift.page}: "
            f"{drift.status.value} - {drift.detail}"
        )
    verdicts = {
        0: "identical, sources unchanged",
        3: "diverged",
        4: "identical decisions, sources drifted",
        5: "identical so far, recording incomplete",
    }
    out.append(f"result: {verdicts[result.exit_code]} (exit {result.exit_code})")
    return out


def _clip(text: str | None) -> str:
    if text is None:
        return "(no event)"
    return text if len(text) <= _SHOWN_JSON else text[: _SHOWN_JSON - 3] + "..."


# --------------------------------------------------------------------------- report


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``evidencegate report`` to ``parser``."""
    parser.add_argument("trace", type=Path, help="trace JSONL file")
    parser.add_argument("-o", "--output", required=True, type=Path, help="HTML file to write")
    parser.add_argument(
        "--store",
        default=None,
        help="store directory: page text around each quote, version timelines, drift and the "
        "review queue (quotes only without it)",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="also replay the trace over --store and show whether the decisions are identical",
    )


def run_report(args: argparse.Namespace) -> int:
    """Write the HTML report of ``args.trace``; 1 when its chain is broken (nothing written)."""
    try:
        chain = verify_trace(args.trace)
        if not chain.ok:
            print(
                terminal_safe(
                    f"TAMPERED at seq {chain.first_bad_seq}: {chain.reason}; no report written"
                ),
                file=sys.stderr,
            )
            return 1
        if args.store is None:
            if args.replay:
                raise UsageError("--replay needs --store (the store the run read from)")
            write_report(args.trace, args.output)
            print(
                "note: no --store given: the report shows quotes only, without page context, "
                "version timelines, drift or review status",
                file=sys.stderr,
            )
        else:
            with open_store(args.store, create=False) as store, ReviewQueue.open(args.store) as q:
                write_report(args.trace, args.output, store=store, review=q, replay=args.replay)
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = terminal_safe(exc.filename or args.trace)
        print(f"error: {where}: {terminal_safe(exc.strerror or exc)}", file=sys.stderr)
        return 2
    state = "complete" if chain.complete else "incomplete"
    print(
        f"report written to {terminal_safe(args.output)} "
        f"(chain intact, {chain.lines} lines, {state})"
    )
    return 0


# --------------------------------------------------------------------------- traces list


def add_traces_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``evidencegate traces list`` to ``parser`` (the ``traces`` command)."""
    sub = parser.add_subparsers(dest="traces_command", required=True, metavar="COMMAND")
    listing = sub.add_parser("list", help="list the runs recorded in a store")
    listing.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )
    listing.add_argument("--json", action="store_true", help="one JSON object per run")
    listing.add_argument(
        "--tenant",
        default=None,
        help="only this tenant's runs (default: the default tenant; '*' for every tenant)",
    )


def run_traces(args: argparse.Namespace) -> int:
    """Run a ``traces`` subcommand (only ``list`` for now)."""
    try:
        index = TraceIndex.for_store(args.store)
        runs = index.refresh()
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    if args.tenant != "*":
        # Like the store's reads: no tenant means the default tenant, never "all tenants".
        tenant = args.tenant or DEFAULT_TENANT
        runs = [run for run in runs if (run.tenant or DEFAULT_TENANT) == tenant]
    if args.json:
        for run in runs:
            print(json.dumps(run.model_dump(mode="json")))  # ASCII: no raw control character
        return 0
    if not runs:
        shown = "" if args.tenant == "*" else f" for tenant {args.tenant or DEFAULT_TENANT!r}"
        print(f"no traces in {terminal_safe(index.directory)}{terminal_safe(shown)}")
        return 0
    print(
        f"{'started (UTC)':19}  {'status':10}  {'outcome':24}  {'stop reason':16}  run / question"
    )
    for run in runs:
        print(_row(run))
    return 0


def _row(run: TraceSummary) -> str:
    """One line per run: every field from a trace is terminal-safe and newline-free."""
    started = terminal_safe((run.started_at or "")[:19].replace("T", " "))
    question = terminal_safe(run.question or "")
    if len(question) > 70:
        question = question[:67] + "..."
    tail = f"{terminal_safe((run.run_id or run.file)[:12])}  {question}"
    if run.status == "tampered":
        tail += f"  [{terminal_safe(run.reason)}]"
    return (
        f"{started:19}  {run.status:10}  {run.outcome or '-':24}  "
        f"{run.stop_reason or '-':16}  {tail}"
    )
