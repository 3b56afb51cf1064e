"""Command line: ``evidencegate ingest | ask | verify | replay | report | traces | judge-bench |
ablate | feedback | flags | demo``.

One module per command group, each giving ``add_<command>_arguments(parser)`` and
``run_<command>(args) -> int``; this module builds the parser from them and maps errors to exit
codes:

    ask.py      ask, demo
    corpus.py   ingest
    trace.py    verify
    audit.py    replay, report, traces
    evals.py    ablate
    judges.py   judge-bench, feedback, flags

Exit codes: 0 success; 1 a checked property failed (a tampered trace; ``ask --strict`` when the
answer is not ``answered``); 2 bad input or configuration (the message names what is wrong);
``replay`` adds 3 diverged, 4 sources drifted, 5 the recording is incomplete.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from evidencegate._version import __version__
from evidencegate.cli.ask import add_ask_arguments, add_demo_arguments, run_ask, run_demo
from evidencegate.cli.audit import (
    add_replay_arguments,
    add_report_arguments,
    add_traces_arguments,
    run_replay,
    run_report,
    run_traces,
)
from evidencegate.cli.corpus import add_ingest_arguments, run_ingest
from evidencegate.cli.evals import add_ablate_arguments, run_ablate
from evidencegate.cli.judges import (
    add_feedback_arguments,
    add_flags_arguments,
    add_judge_bench_arguments,
    run_feedback,
    run_flags,
    run_judge_bench,
)
from evidencegate.cli.trace import add_verify_arguments, run_verify
from evidencegate.exceptions import EvidenceGateError
from evidencegate.userio import terminal_safe

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
    add_ask_arguments(ask)
    ask.set_defaults(func=run_ask)

    verify = sub.add_parser("verify", help="check a trace's hash chain")
    add_verify_arguments(verify)
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
    add_demo_arguments(demo)
    demo.set_defaults(func=run_demo)
    return parser
