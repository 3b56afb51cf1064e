"""``evidencegate ablate``: run a golden set through the arms and write the report.

    evidencegate ablate GOLDEN.jsonl --store DIR -o OUTDIR [--arms a,b,...] [--concurrency N]
        [--policy FILE|NAME] [--retriever bm25|hybrid] [--fail-under [ARM:]METRIC=VALUE ...]
        [--fail-over ...] [--no-paraphrases]

Every item is run with its own question and with each of its paraphrases (variant ids
``ITEM~p1``, ...), unless ``--no-paraphrases``. The printed tables give, per arm and per
category, with k/n: correct answers, wrong answers, unsupported and superseded-version claims,
abstentions, correct abstentions, noise claims per answer and paraphrase consistency.

Gates, for users who put the ablation in their CI: ``--fail-under METRIC=VALUE`` fails when the
metric is below VALUE (for metrics where higher is better, e.g. ``required_coverage``);
``--fail-over METRIC=VALUE`` fails when it is above VALUE (for metrics where lower is better,
e.g. ``unsupported_claim_rate``). A gate in the direction that cannot express "worse" (say
``--fail-under unsupported_claim_rate=...``) is refused as a usage error; metrics with no better
direction (``abstention_rate``, ...) take either. A gate checks the product arm
``grounded_followup`` unless it names another with ``ARM:``. A metric that is undefined (e.g.
the unsupported-claim rate of an arm that emitted nothing) fails its gate: it cannot be checked.

Exit codes: 0 all gates pass; 1 a gate failed; 2 bad input (the message names what is wrong).
Outputs in OUTDIR: results.jsonl (one line per arm and item, errors included), metrics.json,
metrics.md, report.html, traces/ARM/ITEM_ID.jsonl and each run's report in runs/ARM/ITEM_ID.html
(linked from report.html's per-item table).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from evidencegate._version import __version__
from evidencegate.audit.index import TraceIndex
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Arm
from evidencegate.corpus.backends import open_store
from evidencegate.evals.ablation import ARMS, run_ablation
from evidencegate.evals.golden import expand_paraphrases, load_golden
from evidencegate.evals.metrics import METRICS, AblationMetrics, ItemResult, Metric, summarize
from evidencegate.evals.report import write_report
from evidencegate.exceptions import UsageError
from evidencegate.policy import load_policy, with_retrieval
from evidencegate.userio import ProgressBar, terminal_safe

__all__ = ["Gate", "add_ablate_arguments", "check_gates", "parse_gate", "run_ablate"]

DEFAULT_GATE_ARM = Arm.GROUNDED_FOLLOWUP


def add_ablate_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``evidencegate ablate`` to ``parser``."""
    parser.add_argument("golden", type=Path, metavar="GOLDEN", help="golden-set JSONL file")
    parser.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )
    parser.add_argument("-o", "--out", required=True, type=Path, metavar="OUTDIR")
    parser.add_argument(
        "--arms",
        default=",".join(a.value for a in ARMS),
        help="comma-separated arms (default: all four, baseline first)",
    )
    parser.add_argument("--concurrency", type=int, default=1, metavar="N", help="parallel runs")
    parser.add_argument("--policy", default=None, help="policy file or builtin name")
    parser.add_argument(
        "--retriever",
        choices=["bm25", "hybrid"],
        default=None,
        help="override the policy's retrieval (hybrid needs: pip install 'evidencegate[dense]')",
    )
    parser.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="[ARM:]METRIC=VALUE",
        help="exit 1 when the metric is below VALUE (higher-is-better metrics; repeatable)",
    )
    parser.add_argument(
        "--fail-over",
        action="append",
        default=[],
        metavar="[ARM:]METRIC=VALUE",
        help="exit 1 when the metric is above VALUE (lower-is-better metrics; repeatable)",
    )
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--no-paraphrases",
        action="store_true",
        help="run only the items' own questions, not their paraphrases",
    )


@dataclass(frozen=True)
class Gate:
    """Fail when ``arm``'s ``metric`` is under (or over) ``threshold``."""

    arm: Arm
    metric: Metric
    direction: Literal["under", "over"]
    threshold: float

    def check(self, metrics: AblationMetrics) -> str | None:
        """None when the gate passes, else why it failed."""
        summary = next(s for s in metrics.results if s.arm is self.arm)
        value = summary.metrics[self.metric]
        name = f"{self.arm.value}:{self.metric.value}"
        if value is None:
            return f"{name} is undefined (nothing to measure), so --fail-{self.direction} fails"
        if self.direction == "under" and value < self.threshold:
            return f"{name}={value:.6g} is under {self.threshold:g}"
        if self.direction == "over" and value > self.threshold:
            return f"{name}={value:.6g} is over {self.threshold:g}"
        return None


def parse_gate(text: str, direction: Literal["under", "over"], arms: list[Arm]) -> Gate:
    """Parse ``[ARM:]METRIC=VALUE``; UsageError names what is wrong."""
    flag = f"--fail-{direction}"
    target, sep, raw = text.partition("=")
    if not sep:
        raise UsageError(f"{flag} {text!r}: expected [ARM:]METRIC=VALUE")
    arm_name, colon, metric_name = target.strip().rpartition(":")
    try:
        metric = Metric(metric_name)
    except ValueError:
        known = ", ".join(m.value for m in Metric)
        raise UsageError(
            f"{flag} {text!r}: unknown metric {metric_name!r} (known: {known})"
        ) from None
    try:
        threshold = float(raw)
    except ValueError:
        raise UsageError(f"{flag} {text!r}: VALUE {raw!r} is not a number") from None
    better = METRICS[metric].better
    if (direction, better) in {("under", "lower"), ("over", "higher")}:
        other = "over" if direction == "under" else "under"
        raise UsageError(
            f"{flag} {text!r}: {better} {metric.value} is better, so it can only get worse by "
            f"going {other} a threshold; use --fail-{other}"
        )
    if colon:
        try:
            arm = Arm(arm_name)
        except ValueError:
            known = ", ".join(a.value for a in Arm)
            raise UsageError(
                f"{flag} {text!r}: unknown arm {arm_name!r} (known: {known})"
            ) from None
    else:
        arm = DEFAULT_GATE_ARM
    if arm not in arms:
        raise UsageError(
            f"{flag} {text!r}: arm {arm.value!r} is not run (--arms "
            f"{','.join(a.value for a in arms)}); name a run arm as ARM:METRIC=VALUE"
        )
    return Gate(arm=arm, metric=metric, direction=direction, threshold=threshold)


def check_gates(gates: list[Gate], metrics: AblationMetrics) -> list[str]:
    """The failure messages of the gates that fail (empty when all pass)."""
    return [message for gate in gates if (message := gate.check(metrics)) is not None]


def _advancer(progress: ProgressBar) -> Callable[[ItemResult], None]:
    """Advance ``progress`` by one run, naming the run just done."""

    def advance(result: ItemResult) -> None:
        progress.advance(error=result.failed, note=f"last: {result.arm.value} {result.item_id}")

    return advance


def _arms(text: str) -> list[Arm]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    arms: list[Arm] = []
    for name in names:
        try:
            arm = Arm(name)
        except ValueError:
            known = ", ".join(a.value for a in Arm)
            raise UsageError(f"--arms: unknown arm {name!r} (known: {known})") from None
        if arm in arms:
            raise UsageError(f"--arms: {name!r} is given twice")
        arms.append(arm)
    if not arms:
        raise UsageError("--arms: no arm given")
    return arms


def run_ablate(args: argparse.Namespace) -> int:
    """Run the ablation and write OUTDIR; 0 gates pass, 1 a gate failed, 2 bad input."""
    try:
        arms = _arms(args.arms)
        gates = [parse_gate(g, "under", arms) for g in args.fail_under]
        gates += [parse_gate(g, "over", arms) for g in args.fail_over]
        if args.concurrency < 1:
            raise UsageError(f"--concurrency must be >= 1 (got {args.concurrency})")
        if args.resamples < 1:
            raise UsageError(f"--resamples must be >= 1 (got {args.resamples})")
        items = load_golden(args.golden)
        policy = load_policy(args.policy)
        if args.retriever is not None:
            policy = with_retrieval(policy, args.retriever)
        outdir: Path = args.out
        traces = outdir / "traces"
        if traces.is_dir() and any(traces.iterdir()):
            raise UsageError(
                f"{outdir} already holds the traces of an ablation; traces are written once, "
                "choose a new OUTDIR"
            )
        with open_store(args.store, create=False) as store:
            try:
                traces.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"cannot create the output directory {outdir}: {exc}") from exc
            runs = len(items) if args.no_paraphrases else len(expand_paraphrases(items))
            progress = (
                None
                if args.no_progress
                else ProgressBar(runs * len(arms), unit="runs", error_label="failed")
            )
            results = run_ablation(
                items,
                store,
                policy=policy,
                arms=arms,
                concurrency=args.concurrency,
                trace_dir=traces,
                on_result=None if progress is None else _advancer(progress),
                paraphrases=not args.no_paraphrases,
            )
            metrics = summarize(
                results,
                golden_set=args.golden.name,
                golden_sha256=sha256_hex(args.golden.read_bytes()),
                policy=policy.name,
                policy_sha256=policy.sha256(),
                evidencegate_version=__version__,
                resamples=args.resamples,
                seed=args.seed,
            )
            try:  # the store stays open: each run's report shows version drift
                files = write_report(outdir, metrics, results, store=store)
            except OSError as exc:
                raise UsageError(f"cannot write the report into {outdir}: {exc}") from exc
            # the runs' traces are listed by `traces list --store` like the store's own
            TraceIndex.for_store(args.store).register(sorted(traces.rglob("*.jsonl")))
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    print(terminal_safe(files.markdown.read_text(encoding="utf-8"), one_line=False))
    print(terminal_safe(f"wrote {files.metrics}, {files.markdown}, {files.html}, {files.results}"))
    failures = check_gates(gates, metrics)
    for message in failures:
        print(f"FAIL: {terminal_safe(message)}", file=sys.stderr)
    return 1 if failures else 0
