"""Command-line pieces: ``judge-bench``, ``feedback`` and ``flags list``.

Wired into ``evidencegate.cli`` as ``add_<name>_arguments(parser)`` + ``run_<name>(args)``.
Exit codes follow the main CLI: 0 success, 2 bad input (``error: ...`` names what is wrong).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evidencegate.evals.judge_bench import (
    format_report,
    read_items,
    run_bench,
    summarize,
    write_outputs,
)
from evidencegate.exceptions import UsageError
from evidencegate.judges.support import (
    LLMSupportJudge,
    RulesSupportJudge,
    SupportConfig,
    SupportJudge,
)
from evidencegate.judges.support_model import LearnedSupportJudge
from evidencegate.policy import load_policy
from evidencegate.review import ReviewQueue
from evidencegate.userio import ProgressBar, terminal_safe

__all__ = [
    "add_feedback_arguments",
    "add_flags_arguments",
    "add_judge_bench_arguments",
    "build_support_judge",
    "run_feedback",
    "run_flags",
    "run_judge_bench",
]


# --------------------------------------------------------------------------- judge-bench


def add_judge_bench_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", type=Path, metavar="DATASET.jsonl", help="critic benchmark")
    parser.add_argument(
        "--critic",
        default="rules",
        metavar="rules|rules@2|POLICY",
        help="'rules' (the offline support judge, support:rules@3), 'rules@2' (the earlier "
        "coverage judge) or a policy file or builtin name: its critic judges (rules, or a "
        "language model as provider:model)",
    )
    parser.add_argument("-o", "--out", type=Path, default=None, metavar="OUTDIR")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    parser.add_argument("--json", action="store_true", help="print metrics.json instead")


def build_support_judge(spec: str) -> SupportJudge:
    """``rules`` (or ``rules@3``), ``rules@2``, or the critic of the policy ``spec`` names (a
    file or a builtin name).

    A policy whose critic is ``rules`` gives the learned judge ``support:rules@3``, unless it
    sets ``judges.support_threshold``: that threshold is on the coverage scale of
    ``support:rules@2``, which it then gets (so a policy written for it keeps its decisions).
    """
    if spec in ("rules", "rules@3"):
        return LearnedSupportJudge()
    if spec == "rules@2":
        return RulesSupportJudge()
    policy = load_policy(spec)
    if policy.critic == "rules":
        if "support_threshold" not in policy.judges.model_fields_set:
            return LearnedSupportJudge()
        return RulesSupportJudge(SupportConfig(threshold=policy.judges.support_threshold))
    # The chat model is built exactly as the loop's critic model is: same endpoint, key,
    # budgets and retries.
    from evidencegate.components import _chat_model

    return LLMSupportJudge(
        _chat_model(policy, policy.critic, role="critic"),
        timeout_s=policy.time_budget.per_call_s,
    )


def run_judge_bench(args: argparse.Namespace) -> int:
    try:
        if args.resamples < 1:
            raise UsageError(f"--resamples must be >= 1 (got {args.resamples})")
        items = read_items(args.dataset)
        judge = build_support_judge(args.critic)
        results = run_bench(items, judge, progress=ProgressBar(len(items)))
        report = summarize(
            results,
            judge=judge.component_id,
            dataset_path=str(args.dataset),
            resamples=args.resamples,
            seed=args.seed,
        )
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    if args.out is not None:
        write_outputs(args.out, report, results)
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        print(terminal_safe(format_report(report), one_line=False))
        if args.out is not None:
            wrote = f"wrote {args.out / 'metrics.json'} and {args.out / 'results.jsonl'}"
            print(terminal_safe(wrote))
    return 0


# --------------------------------------------------------------------------- review queue


def add_feedback_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_id", metavar="RUN_ID")
    parser.add_argument("verdict", choices=["up", "down"])
    parser.add_argument("--note", default=None, metavar="TEXT")
    parser.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )


def run_feedback(args: argparse.Namespace) -> int:
    try:
        with ReviewQueue.open(args.store) as queue:
            result = queue.record_feedback(args.run_id, args.verdict, note=args.note)
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    print(terminal_safe(f"recorded {result.verdict!r} for run {result.run_id}"))
    if result.auto_score is None:
        print("  no automatic score for this run (not judged, or abstained): nothing to compare")
    else:
        print(
            f"  automatic score {result.auto_score:.2f}/4, feedback "
            f"{'4' if result.verdict == 'up' else '1'}/4, disagreement {result.disagreement:.2f}"
        )
    if result.flag is not None:
        print(f"  flagged for review: {terminal_safe(result.flag.reason)}")
    return 0


def add_flags_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="flags_command", required=True)
    listing = sub.add_parser("list", help="show the review queue")
    listing.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )
    listing.add_argument("--run", default=None, metavar="RUN_ID", help="one run's flags only")
    listing.add_argument("--json", action="store_true", help="one JSON object a line")


def run_flags(args: argparse.Namespace) -> int:
    try:
        with ReviewQueue.open(args.store) as queue:
            flags = queue.flags(args.run)
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    if args.json:
        for flag in flags:
            record = {"run_id": flag.run_id, "reason": flag.reason, "score": flag.score}
            print(json.dumps({**record, "time": flag.time}))
        return 0
    if not flags:
        print("review queue is empty")
        return 0
    print(f"{len(flags)} flagged response(s):")
    for flag in flags:
        score = "-" if flag.score is None else f"{flag.score:.2f}"
        print(terminal_safe(f"  {flag.time}  {flag.run_id}  score {score}  {flag.reason}"))
    return 0
