"""``judge-bench``: run a support judge on every (source, claim) pair of a critic benchmark.

Reads the shared critic format (``../shared/datasets/README.md``: one JSON object a line with
``id, dataset, task, source, question, claim, label, ...``), judges every item, and reports
precision, recall and F1 on ``unsupported``, balanced accuracy and Cohen's kappa with 95%
bootstrap intervals, and the confusion matrix (:mod:`evidencegate.evals.meta`).

A judge error is recorded on its item (``predicted: "error"``) and counts as a wrong answer in
every metric; it is never skipped. Items whose gold label is neither ``supported`` nor
``unsupported`` (FaithBench's ``ambiguous``) are judged and written, but kept out of the
metrics, and their number is reported.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evidencegate.evals.meta import GOLD_LABELS, Outcome, metric_report
from evidencegate.exceptions import UsageError
from evidencegate.judges.support import SupportJudge
from evidencegate.userio import ProgressBar

__all__ = [
    "BenchItem",
    "ItemResult",
    "format_report",
    "read_items",
    "run_bench",
    "summarize",
    "write_outputs",
]


class BenchItem(BaseModel):
    """One row of the shared critic format (fields this benchmark does not use are ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1)
    dataset: str = ""
    task: str = ""
    source: str = Field(min_length=1)
    question: str | None = None
    claim: str = Field(min_length=1)
    label: str = Field(min_length=1)


class ItemResult(BaseModel):
    """What the judge said about one item (one line of ``results.jsonl``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    dataset: str
    gold: str
    predicted: Literal["supported", "unsupported", "error"]
    score: float | None = None
    reason: str
    latency_ms: float


def read_items(path: Path) -> list[BenchItem]:
    """Parse ``path``; UsageError names the file, line and field of the first bad row."""
    if not path.is_file():
        raise UsageError(f"{path}: no such dataset file")
    items: list[BenchItem] = []
    seen: set[str] = set()
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                item = BenchItem.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "<row>"
                raise UsageError(f"{path} line {number}: {where}: {first['msg']}") from exc
            if item.id in seen:
                raise UsageError(f"{path} line {number}: duplicate id {item.id!r}")
            seen.add(item.id)
            items.append(item)
    if not items:
        raise UsageError(f"{path}: no items")
    return items


def run_bench(
    items: Sequence[BenchItem],
    judge: SupportJudge,
    *,
    progress: ProgressBar | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> list[ItemResult]:
    """Judge every item in order. Any exception of the judge becomes an ``error`` result."""
    results: list[ItemResult] = []
    for item in items:
        started = clock()
        try:
            verdict = judge.judge(item.source, item.claim)
        except Exception as exc:  # a judge error is a result, never a skip
            result = ItemResult(
                id=item.id,
                dataset=item.dataset,
                gold=item.label,
                predicted="error",
                reason=f"{type(exc).__name__}: {exc}",
                latency_ms=round((clock() - started) * 1000, 3),
            )
        else:
            result = ItemResult(
                id=item.id,
                dataset=item.dataset,
                gold=item.label,
                predicted=verdict.label,
                score=verdict.score,
                reason=verdict.reason,
                latency_ms=round((clock() - started) * 1000, 3),
            )
        results.append(result)
        if progress is not None:
            progress.advance(error=result.predicted == "error")
    return results


def summarize(
    results: Sequence[ItemResult], *, judge: str, dataset_path: str, resamples: int, seed: int
) -> dict[str, Any]:
    """metrics.json: the overall report, and one per dataset when the file mixes several."""
    scored: list[Outcome] = [(r.gold, r.predicted) for r in results if r.gold in GOLD_LABELS]
    excluded = len(results) - len(scored)
    if not scored:
        raise UsageError("no item has a gold label of 'supported' or 'unsupported'")
    report: dict[str, Any] = {
        "judge": judge,
        "dataset_file": dataset_path,
        "items": len(results),
        "excluded_gold_labels": excluded,
        "overall": metric_report(scored, resamples=resamples, seed=seed),
    }
    datasets = sorted({r.dataset for r in results})
    if len(datasets) > 1:
        report["per_dataset"] = {
            name: metric_report(
                [
                    (r.gold, r.predicted)
                    for r in results
                    if r.dataset == name and r.gold in GOLD_LABELS
                ],
                resamples=resamples,
                seed=seed,
            )
            for name in datasets
            if any(r.dataset == name and r.gold in GOLD_LABELS for r in results)
        }
    return report


def format_report(report: dict[str, Any]) -> str:
    """The printed summary: metrics with intervals and the confusion matrix."""
    overall = report["overall"]
    lines = [
        f"judge: {report['judge']}   dataset: {report['dataset_file']}",
        f"items: {report['items']} (scored {overall['n']}, judge errors {overall['errors']}, "
        f"excluded gold labels {report['excluded_gold_labels']})",
        "metric (positive class: unsupported)   value   95% CI",
    ]
    for name in ("precision", "recall", "f1", "balanced_accuracy", "kappa"):
        m = overall[name]
        lines.append(f"  {name:<34} {m['value']:6.3f}   [{m['ci_low']:.3f}, {m['ci_high']:.3f}]")
    matrix = overall["confusion"]
    lines += [
        "confusion matrix       pred unsupported   pred supported   judge error",
    ]
    for gold in ("gold_unsupported", "gold_supported"):
        row = matrix[gold]
        lines.append(
            f"  {gold:<20} {row['predicted_unsupported']:>16}   {row['predicted_supported']:>14}"
            f"   {row['judge_error']:>11}"
        )
    return "\n".join(lines)


def write_outputs(outdir: Path, report: dict[str, Any], results: Sequence[ItemResult]) -> None:
    """OUTDIR/metrics.json and OUTDIR/results.jsonl (one ItemResult a line)."""
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "metrics.json").write_text(
        json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
    with (outdir / "results.jsonl").open("w", encoding="utf-8") as handle:
        for result in results:
            handle.write(result.model_dump_json() + "\n")
