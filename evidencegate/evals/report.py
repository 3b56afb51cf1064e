"""Ablation outputs: results.jsonl, metrics.json, metrics.md and report.html.

``metrics.json`` is validated against ``schemas/ablation_metrics.schema.json`` (exported from
:class:`~evidencegate.evals.metrics.AblationMetrics`) before it is written. ``report.html`` is
one self-contained file: its plots are inline SVG drawn here (bars per arm with their bootstrap
intervals as whiskers, latency distributions, coverage against cost), with no external asset.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from evidencegate.audit.report.html import write_report as write_run_report
from evidencegate.contracts import Arm
from evidencegate.corpus.backends import StoreBackend
from evidencegate.evals.answers import AnswerClass
from evidencegate.evals.metrics import (
    METRICS,
    AblationMetrics,
    AnswerCounts,
    ArmMetrics,
    Fraction,
    Interval,
    ItemResult,
    Metric,
    consistent,
)
from evidencegate.exceptions import TraceFormatError
from evidencegate.stats import quantile

__all__ = [
    "ANSWER_ROWS",
    "ReportFiles",
    "ablation_metrics_schema",
    "answers_table",
    "fraction_text",
    "markdown_table",
    "per_answer",
    "ratio",
    "render_html",
    "write_report",
]

_COLOURS = {  # Okabe-Ito: distinguishable with the common colour-vision deficiencies
    Arm.BASELINE: "#7f7f7f",
    Arm.SELF_CRITIQUE: "#e69f00",
    Arm.GROUNDED: "#56b4e9",
    Arm.GROUNDED_FOLLOWUP: "#009e73",
}
_BAR_PANELS = (
    Metric.CORRECT_ANSWER_RATE,
    Metric.WRONG_ANSWER_RATE,
    Metric.ABSTAINED_ANSWERABLE_RATE,
    Metric.ABSTENTION_CORRECTNESS,
    Metric.UNSUPPORTED_CLAIM_RATE,
    Metric.STALE_CLAIM_RATE,
    Metric.INCORRECT_CITATION_RATE,
    Metric.REQUIRED_COVERAGE,
    Metric.PARAPHRASE_CONSISTENCY,
    Metric.ABSTENTION_RATE,
    Metric.REFLECTION_RATE,
    Metric.FAILURE_RATE,
)


@dataclass(frozen=True)
class ReportFiles:
    results: Path
    metrics: Path
    markdown: Path
    html: Path


@cache
def ablation_metrics_schema() -> dict[str, Any]:
    """The JSON Schema of metrics.json (what ``schemas/ablation_metrics.schema.json`` holds)."""
    schema = AblationMetrics.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://evidencegate.dev/schemas/ablation_metrics.schema.json"
    return schema


def write_report(
    outdir: Path,
    metrics: AblationMetrics,
    results: Mapping[Arm, Sequence[ItemResult]],
    *,
    run_reports: bool = True,
    store: StoreBackend | None = None,
) -> ReportFiles:
    """Write the four outputs into ``outdir``; metrics.json is schema-validated first.

    With ``run_reports``, each run with a trace also gets its reviewer's report (the one
    ``evidencegate report TRACE`` writes; ``store`` adds version drift) in
    ``outdir/runs/ARM/RUN_ID.html``, linked from report.html's per-item table; a trace that
    cannot be reported is linked as the trace file instead.
    """
    data = metrics.model_dump(mode="json")
    jsonschema.Draft202012Validator(ablation_metrics_schema()).validate(data)
    outdir.mkdir(parents=True, exist_ok=True)
    files = ReportFiles(
        results=outdir / "results.jsonl",
        metrics=outdir / "metrics.json",
        markdown=outdir / "metrics.md",
        html=outdir / "report.html",
    )
    with files.results.open("w", encoding="utf-8") as out:
        for arm in metrics.arms:
            for result in results[arm]:
                out.write(result.model_dump_json() + "\n")
    files.metrics.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    files.markdown.write_text(markdown_table(metrics), encoding="utf-8")
    links = _run_links(outdir, metrics.arms, results, run_reports=run_reports, store=store)
    files.html.write_text(render_html(metrics, results, links=links), encoding="utf-8")
    return files


def _run_links(
    outdir: Path,
    arms: Sequence[Arm],
    results: Mapping[Arm, Sequence[ItemResult]],
    *,
    run_reports: bool,
    store: StoreBackend | None,
) -> dict[tuple[Arm, str], str]:
    """Relative links from report.html to each run's report (or, failing that, its trace)."""
    links: dict[tuple[Arm, str], str] = {}
    for arm in arms:
        for result in results[arm]:
            if result.trace_path is None or not Path(result.trace_path).is_file():
                continue
            trace = Path(result.trace_path)
            target = outdir / "runs" / arm.value / f"{result.item_id}.html"
            if run_reports:
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_run_report(trace, target, store=store)
                except (TraceFormatError, OSError):
                    target = trace  # a broken or unreadable trace: link the file itself
            else:
                target = trace
            links[(arm, result.item_id)] = Path(
                os.path.relpath(target.resolve(), outdir.resolve())
            ).as_posix()
    return links


# --------------------------------------------------------------------------- text


def _fmt(value: float | None, unit: str, *, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    digits = {"rate": 3, "ms": 1, "tokens": 1, "usd": 6}.get(unit, 3)
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def fraction_text(fraction: Fraction | None) -> str:
    """``k/n`` of a ratio metric (integers shown as integers); empty for a quantile."""
    if fraction is None:
        return ""
    return f"{fraction.num:g}/{fraction.den:g}"


def _cell(summary: ArmMetrics, metric: Metric) -> str:
    unit = METRICS[metric].unit
    text = _fmt(summary.metrics[metric], unit)
    counted = fraction_text(summary.fractions[metric])
    if counted:
        text += f" ({counted})"
    if summary.vs_baseline is not None:
        diff = summary.vs_baseline[metric]
        ci = diff.ci
        interval = (
            f" [{_fmt(ci.low, unit, signed=True)}, {_fmt(ci.high, unit, signed=True)}]"
            if ci
            else ""
        )
        text += f" (Δ {_fmt(diff.diff, unit, signed=True)}{interval})"
    return text


def ratio(k: int, n: int) -> str:
    """``k/n (p%)``; ``0/0 (no data)`` when there is nothing to count."""
    return f"{k}/{n} ({100 * k / n:.1f}%)" if n else f"{k}/{n} (no data)"


def per_answer(k: int, n: int) -> str:
    """``k/n (k÷n)`` for an average count; ``(no data)`` when n is 0."""
    return f"{k}/{n} ({k / n:.2f})" if n else f"{k}/{n} (no data)"


#: The answer rows: label, then the cell of one set of counts (k/n beside every rate).
ANSWER_ROWS: tuple[tuple[str, Callable[[AnswerCounts], str]], ...] = (
    ("correct (answerable)", lambda c: ratio(c.correct, c.answerable)),
    ("WRONG (all runs)", lambda c: ratio(c.wrong, c.runs)),
    ("unsupported claims", lambda c: ratio(c.unsupported_claims, c.claims)),
    ("superseded-version claims", lambda c: ratio(c.stale_claims, c.claims)),
    ("abstained (answerable)", lambda c: ratio(c.abstained, c.answerable)),
    ("abstained (unanswerable)", lambda c: ratio(c.correct_abstentions, c.unanswerable)),
    ("answered unanswerable", lambda c: ratio(c.wrong_on_unanswerable, c.unanswerable)),
    ("unscored (no expected answer)", lambda c: ratio(c.unscored, c.answerable)),
    ("failed runs", lambda c: ratio(c.failed, c.runs)),
    ("noise claims per answer", lambda c: per_answer(c.noise_claims, c.scored_answers)),
    ("paraphrase consistency", lambda c: ratio(c.consistent_items, c.paraphrased_items)),
)


def answers_table(metrics: AblationMetrics) -> list[str]:
    """The answer outcomes per arm, then per category of each arm, with k/n in every cell."""
    arms = metrics.results
    lines = [
        f"#### Answers: {metrics.items} golden items, {metrics.runs} runs per arm "
        "(items and their paraphrases)",
        "",
        "Correct = the answer states every expected value and no known-wrong one; an answer "
        "to an unanswerable item is wrong. The contract being met is not correctness.",
        "",
        "| answers | " + " | ".join(s.arm.value for s in arms) + " |",
        "|---|" + "---|" * len(arms),
    ]
    for label, show in ANSWER_ROWS:
        lines.append(f"| {label} | " + " | ".join(show(s.answers) for s in arms) + " |")
    for summary in arms:
        categories = list(summary.categories)
        lines += [
            "",
            f"#### Per category: {summary.arm.value}",
            "",
            "| answers | " + " | ".join(c.value for c in categories) + " |",
            "|---|" + "---|" * len(categories),
        ]
        for label, show in ANSWER_ROWS:
            cells = " | ".join(show(summary.categories[c]) for c in categories)
            lines.append(f"| {label} | {cells} |")
    return lines


def markdown_table(metrics: AblationMetrics) -> str:
    """The answers tables (per arm, per category) and the metrics table (a row per metric)."""
    arms = metrics.results
    level = round(metrics.bootstrap.level * 100)
    lines = [
        f"### Ablation over `{metrics.golden_set}`: {metrics.items} items, "
        f"policy `{metrics.policy}`",
        "",
        *answers_table(metrics),
        "",
        "#### Metrics",
        "",
        "Each arm's value; other arms also show Δ = arm − baseline with its paired bootstrap "
        f"{level}% interval ({metrics.bootstrap.resamples} resamples, seed "
        f"{metrics.bootstrap.seed}).",
        "",
        "| metric | better | " + " | ".join(s.arm.value for s in arms) + " |",
        "|---|---|" + "---|" * len(arms),
    ]
    for metric, spec in METRICS.items():
        cells = " | ".join(_cell(s, metric) for s in arms)
        lines.append(f"| {metric.value} | {spec.better or '–'} | {cells} |")
    counts: list[tuple[str, Callable[[ArmMetrics], str]]] = [
        ("items / failed", lambda s: f"{s.items} / {s.failed}"),
        ("answered / abstained", lambda s: f"{s.answered} / {s.abstained}"),
        ("claims / citations", lambda s: f"{s.claims} / {s.citations}"),
        ("required matched", lambda s: f"{s.required_matched} / {s.required_evidence}"),
        ("total cost (USD)", lambda s: f"{s.cost_usd:.6f}"),
    ]
    for label, show in counts:
        lines.append(f"| {label} | | " + " | ".join(show(s) for s in arms) + " |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- HTML


SMALL_SAMPLE = 30
"""Below this many golden items (or runs in a cell) a rate is flagged as a small sample."""

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 80rem; }
table { border-collapse: collapse; font-size: 0.85rem; margin-bottom: 1rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
svg { font-family: system-ui, sans-serif; }
.key { margin-right: 1rem; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.3rem; }
dt { font-weight: 600; margin-top: 0.4rem; }
.caveat { border: 2px solid #b35900; background: #fff4e5; padding: 0.5rem 0.8rem; }
.nodata { color: #666; font-style: italic; }
.small { color: #b35900; }
.correct { background: #dff3e4; } .wrong { background: #fbdcdc; font-weight: 600; }
.abstained { background: #eee; } .correct_abstention { background: #dff3e4; }
.failed { background: #f3d6f3; } .unscored { background: #fff; color: #666; }
td.q { max-width: 28rem; }
td code { white-space: nowrap; }
@media print { body { margin: 0; max-width: none; } a { color: inherit; } }
"""


def render_html(
    metrics: AblationMetrics,
    results: Mapping[Arm, Sequence[ItemResult]],
    *,
    links: Mapping[tuple[Arm, str], str] | None = None,
) -> str:
    """A self-contained HTML report (inline CSS and SVG, no script, no external asset).

    ``links`` maps (arm, run id) to a relative link to that run's report or trace.
    """
    e = html.escape
    level = round(metrics.bootstrap.level * 100)
    legend = " ".join(
        f'<span class="key"><span class="swatch" style="background:{_COLOURS[a]}"></span>'
        f"{e(a.value)}</span>"
        for a in metrics.arms
    )
    definitions = "".join(
        f"<dt>{e(d.name.value)} <small>({e(d.unit)}; better: {e(d.better or 'neither')})"
        f"</small></dt><dd>{e(d.description)}</dd>"
        for d in metrics.metric_definitions
    )
    caveat = ""
    if metrics.items < SMALL_SAMPLE:
        caveat = (
            f'<p class="caveat" id="small-sample"><strong>Small sample:</strong> '
            f"{metrics.items} golden items (fewer than {SMALL_SAMPLE}). Rates move by "
            f"{100 / metrics.items:.0f} points per item and the {level}% intervals are wide; "
            "read differences between arms with care.</p>"
        )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>evidencegate ablation: {e(metrics.golden_set)}</title>
<style>{_CSS}</style>
</head>
<body>
<h1>evidencegate ablation</h1>
<p>Golden set <code>{e(metrics.golden_set)}</code> ({metrics.items} items, {metrics.runs} runs
per arm with paraphrases; sha256 <code>{e(metrics.golden_sha256[:12])}</code>), policy
<code>{e(metrics.policy)}</code>, evidencegate {e(metrics.evidencegate_version)}. Intervals:
percentile bootstrap over golden items (each with its paraphrases), {level}%,
{metrics.bootstrap.resamples} resamples, seed {metrics.bootstrap.seed}; Δ columns are paired
differences from the baseline. † marks a count over fewer than {SMALL_SAMPLE}.</p>
{caveat}
<p>{legend}</p>
<h2 id="answers">Answers</h2>
<p>Correct = the answer states every expected value and no known-wrong one; any answer to an
unanswerable item is wrong. The contract being met is never counted as correctness.</p>
{_answers_html(metrics)}
<h2 id="categories">Answers per category</h2>
{_categories_html(metrics)}
<h2 id="metrics">Metrics</h2>
{_metrics_html(metrics, level)}
<h2>Rates per arm, with {level}% bootstrap intervals</h2>
{_bar_panels(metrics)}
<h2 id="items">Per item and arm</h2>
{_items_html(metrics, results, links or {})}
<h2 id="paraphrases">Paraphrase consistency</h2>
{_paraphrases_html(metrics, results)}
<h2>Latency per run</h2>
{_latency_plot(metrics.arms, results)}
<h2>Required-evidence coverage against cost</h2>
{_coverage_cost_plot(metrics)}
<h2>Metric definitions</h2>
<dl>{definitions}</dl>
</body>
</html>
"""


def _no_data(what: str) -> str:
    return f'<p class="nodata">No data: {html.escape(what)}.</p>'


def _counted(text: str, n: int) -> str:
    """A k/n cell, marked † when n is a small sample and 'no data' when n is 0."""
    cls = "nodata" if n == 0 else "small" if n < SMALL_SAMPLE else ""
    mark = " †" if 0 < n < SMALL_SAMPLE else ""
    return f'<td class="{cls}">{html.escape(text)}{mark}</td>'


#: The denominator of each answer row (for the small-sample mark).
_ROW_DENOMINATORS: tuple[Callable[[AnswerCounts], int], ...] = (
    lambda c: c.answerable,
    lambda c: c.runs,
    lambda c: c.claims,
    lambda c: c.claims,
    lambda c: c.answerable,
    lambda c: c.unanswerable,
    lambda c: c.unanswerable,
    lambda c: c.answerable,
    lambda c: c.runs,
    lambda c: c.scored_answers,
    lambda c: c.paraphrased_items,
)

#: The metric (with a bootstrap interval) behind each answer row, when there is one.
_ROW_METRICS: tuple[Metric | None, ...] = (
    Metric.CORRECT_ANSWER_RATE,
    Metric.WRONG_ANSWER_RATE,
    Metric.UNSUPPORTED_CLAIM_RATE,
    Metric.STALE_CLAIM_RATE,
    Metric.ABSTAINED_ANSWERABLE_RATE,
    Metric.ABSTENTION_CORRECTNESS,
    None,
    None,
    Metric.FAILURE_RATE,
    Metric.NOISE_CLAIMS_PER_ANSWER,
    Metric.PARAPHRASE_CONSISTENCY,
)


def _interval_text(summary: ArmMetrics, metric: Metric | None) -> str:
    if metric is None:
        return ""
    ci = summary.ci[metric]
    unit = METRICS[metric].unit
    return "" if ci is None else f" [{_fmt(ci.low, unit)}, {_fmt(ci.high, unit)}]"


def _answers_html(metrics: AblationMetrics) -> str:
    e = html.escape
    header = "".join(f"<th>{e(s.arm.value)}</th>" for s in metrics.results)
    rows = []
    for (label, show), den, metric in zip(
        ANSWER_ROWS, _ROW_DENOMINATORS, _ROW_METRICS, strict=True
    ):
        cells = "".join(
            _counted(show(s.answers) + _interval_text(s, metric), den(s.answers))
            for s in metrics.results
        )
        rows.append(f"<tr><th>{e(label)}</th>{cells}</tr>")
    return f'<table id="answers-table"><tr><th>answers</th>{header}</tr>{"".join(rows)}</table>'


def _categories_html(metrics: AblationMetrics) -> str:
    e = html.escape
    parts = []
    for summary in metrics.results:
        categories = list(summary.categories)
        parts.append(f"<h3>{e(summary.arm.value)}</h3>")
        if not categories:
            parts.append(_no_data(f"no run of arm {summary.arm.value}"))
            continue
        header = "".join(f"<th>{e(c.value)}</th>" for c in categories)
        rows = []
        for (label, show), den in zip(ANSWER_ROWS, _ROW_DENOMINATORS, strict=True):
            cells = "".join(
                _counted(show(summary.categories[c]), den(summary.categories[c]))
                for c in categories
            )
            rows.append(f"<tr><th>{e(label)}</th>{cells}</tr>")
        parts.append(
            f'<table class="categories" id="categories-{e(summary.arm.value)}">'
            f"<tr><th>answers</th>{header}</tr>{''.join(rows)}</table>"
        )
    return "".join(parts)


def _metrics_html(metrics: AblationMetrics, level: int) -> str:
    e = html.escape
    header = "".join(f"<th>{e(s.arm.value)}</th>" for s in metrics.results)
    rows = []
    for metric, spec in METRICS.items():
        cells = []
        for summary in metrics.results:
            fraction = summary.fractions[metric]
            den = int(fraction.den) if fraction is not None else summary.items
            cells.append(_counted(_cell(summary, metric) + _interval_text(summary, metric), den))
        rows.append(
            f'<tr><th title="{e(spec.description)}">{e(metric.value)}</th>'
            f"<td>{e(spec.better or '–')}</td>{''.join(cells)}</tr>"
        )
    note = (
        f"<p>Each cell: value (k/n) [{level}% interval]; other arms add Δ = arm − baseline "
        "with its paired interval.</p>"
    )
    return (
        note + f'<table id="metrics-table"><tr><th>metric</th><th>better</th>{header}</tr>'
        f"{''.join(rows)}</table>"
    )


_CLASS_LABEL = {
    AnswerClass.CORRECT: "correct",
    AnswerClass.WRONG: "WRONG",
    AnswerClass.ABSTAINED: "abstained",
    AnswerClass.CORRECT_ABSTENTION: "abstained (right)",
    AnswerClass.FAILED: "failed",
    AnswerClass.UNSCORED: "unscored",
}


def _run_cell(result: ItemResult, link: str | None) -> str:
    e = html.escape
    grade = result.answer
    unsupported = sum(not c.supported for c in result.claims)
    stale = sum(c.stale for c in result.claims)
    details = [
        f"{len(result.claims)} claims",
        f"{unsupported} unsupported",
    ]
    if stale:
        details.append(f"{stale} superseded")
    if grade.noise_claims:
        details.append(f"{len(grade.noise_claims)} noise")
    if grade.forbidden:
        details.append("states " + ", ".join(grade.forbidden))
    if grade.missing_groups:
        details.append("missing group " + ", ".join(str(g) for g in grade.missing_groups))
    if result.error:
        details.append(result.error[:120])
    outcome = result.outcome.value if result.outcome is not None else "—"
    anchor = (
        f'<a href="{e(link)}">run report</a>'
        if link
        else "no trace"
        if result.trace_path is None
        else f"<code>{e(result.trace_path)}</code>"
    )
    return (
        f'<td class="{grade.answer_class.value}"><strong>{_CLASS_LABEL[grade.answer_class]}'
        f"</strong> <small>({e(outcome)})</small><br><small>{e('; '.join(details))}</small>"
        f"<br>{anchor}</td>"
    )


def _items_html(
    metrics: AblationMetrics,
    results: Mapping[Arm, Sequence[ItemResult]],
    links: Mapping[tuple[Arm, str], str],
) -> str:
    e = html.escape
    arms = metrics.arms
    first = results[arms[0]]
    if not first:
        return _no_data("no run")
    header = "".join(f"<th>{e(a.value)}</th>" for a in arms)
    rows = []
    for index, run in enumerate(first):
        cells = "".join(
            _run_cell(results[a][index], links.get((a, results[a][index].item_id))) for a in arms
        )
        rows.append(
            f'<tr id="run-{e(run.item_id)}"><td><code>{e(run.item_id)}</code></td>'
            f'<td>{e(run.category.value)}</td><td class="q">{e(run.question or "")}</td>'
            f"{cells}</tr>"
        )
    return (
        '<table id="items-table"><tr><th>run</th><th>category</th><th>question</th>'
        f"{header}</tr>{''.join(rows)}</table>"
    )


def _paraphrases_html(metrics: AblationMetrics, results: Mapping[Arm, Sequence[ItemResult]]) -> str:
    e = html.escape
    arms = metrics.arms
    groups: dict[str, dict[Arm, list[ItemResult]]] = {}
    for arm in arms:
        for result in results[arm]:
            groups.setdefault(result.base_id, {}).setdefault(arm, []).append(result)
    paraphrased = {k: v for k, v in groups.items() if len(v[arms[0]]) > 1}
    if not paraphrased:
        return _no_data("no golden item was run with paraphrases")
    header = "".join(f"<th>{e(a.value)}</th>" for a in arms)
    rows = []
    for base, by_arm in paraphrased.items():
        cells = []
        for arm in arms:
            runs = by_arm[arm]
            agree = consistent(runs)
            classes = ", ".join(_CLASS_LABEL[r.answer.answer_class] for r in runs)
            cells.append(
                f'<td class="{"correct" if agree else "wrong"}">'
                f"{'consistent' if agree else 'INCONSISTENT'}<br><small>{e(classes)}</small></td>"
            )
        rows.append(
            f'<tr><td><a href="#run-{e(base)}"><code>{e(base)}</code></a> '
            f"<small>({len(by_arm[arms[0]])} phrasings)</small></td>{''.join(cells)}</tr>"
        )
    return f'<table id="paraphrase-table"><tr><th>item</th>{header}</tr>{"".join(rows)}</table>'


def _svg(width: int, height: int, body: Sequence[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(label)}">'
        + "".join(body)
        + "</svg>"
    )


def _text(x: float, y: float, text: str, *, size: int = 11, anchor: str = "middle") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">'
        f"{html.escape(text)}</text>"
    )


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = "#222") -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
        'stroke-width="1.2"/>'
    )


def _bar_panels(metrics: AblationMetrics) -> str:
    """Small multiples: one panel per rate metric, a bar per arm, whiskers = its interval."""
    panel_w, panel_h, columns = 250, 190, 4
    top, bottom, left = 28, 34, 34
    plot_h = panel_h - top - bottom
    rows = math.ceil(len(_BAR_PANELS) / columns)
    body: list[str] = []
    for index, metric in enumerate(_BAR_PANELS):
        ox = (index % columns) * panel_w
        oy = (index // columns) * panel_h
        body.append(_text(ox + panel_w / 2, oy + 16, metric.value, size=12))
        for tick in (0.0, 0.5, 1.0):
            y = oy + top + plot_h * (1 - tick)
            body.append(_line(ox + left - 4, y, ox + panel_w - 8, y, "#ddd"))
            body.append(_text(ox + left - 6, y + 4, f"{tick:.1f}", size=9, anchor="end"))
        if all(summary.metrics[metric] is None for summary in metrics.results):
            body.append(
                f'<text x="{ox + panel_w / 2:.1f}" y="{oy + top + plot_h / 2:.1f}" '
                'font-size="13" text-anchor="middle" fill="#666" class="nodata">'
                "no data</text>"
            )
        slot = (panel_w - left - 8) / len(metrics.results)
        for position, summary in enumerate(metrics.results):
            x = ox + left + slot * position + slot * 0.15
            width = slot * 0.7
            value = summary.metrics[metric]
            colour = _COLOURS[summary.arm]
            base_y = oy + top + plot_h
            if value is None:
                body.append(_text(x + width / 2, base_y - 4, "n/a", size=9))
            else:
                height = plot_h * max(0.0, min(1.0, value))
                body.append(
                    f'<rect x="{x:.1f}" y="{base_y - height:.1f}" width="{width:.1f}" '
                    f'height="{height:.1f}" fill="{colour}"><title>'
                    f"{html.escape(summary.arm.value)}: {value:.3f}</title></rect>"
                )
                body.append(_text(x + width / 2, base_y - height - 3, f"{value:.2f}", size=8))
            ci = summary.ci[metric]
            if ci is not None:
                body.extend(_whisker(x + width / 2, ci, oy + top, plot_h))
            body.append(
                _text(x + width / 2, base_y + 12, _short(summary.arm), size=9, anchor="middle")
            )
    return _svg(panel_w * columns, panel_h * rows, body, "rates per arm with intervals")


def _whisker(x: float, ci: Interval, top: float, plot_h: float) -> list[str]:
    def y(v: float) -> float:
        return top + plot_h * (1 - max(0.0, min(1.0, v)))

    return [
        _line(x, y(ci.low), x, y(ci.high)),
        _line(x - 4, y(ci.low), x + 4, y(ci.low)),
        _line(x - 4, y(ci.high), x + 4, y(ci.high)),
    ]


def _short(arm: Arm) -> str:
    return {
        Arm.BASELINE: "base",
        Arm.SELF_CRITIQUE: "self",
        Arm.GROUNDED: "grnd",
        Arm.GROUNDED_FOLLOWUP: "grnd+fu",
    }[arm]


def _nice_max(value: float) -> float:
    """A round axis end >= ``value``: 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def _latency_plot(arms: Sequence[Arm], results: Mapping[Arm, Sequence[ItemResult]]) -> str:
    """Per arm: every run as a dot, a box from the quartiles, the median and the p95."""
    width, row_h, left, right, top = 900, 54, 130, 30, 20
    all_values = [r.latency_ms for arm in arms for r in results[arm]]
    if not all_values:
        return _no_data("no run, so no latency")
    scale_max = _nice_max(max(all_values, default=0.0))
    plot_w = width - left - right
    height = top + row_h * len(arms) + 40

    def x(v: float) -> float:
        return left + plot_w * v / scale_max

    body: list[str] = []
    for i in range(5):
        tick = scale_max * i / 4
        body.append(_line(x(tick), top, x(tick), top + row_h * len(arms), "#ddd"))
        body.append(_text(x(tick), top + row_h * len(arms) + 16, f"{tick:g} ms", size=10))
    for row, arm in enumerate(arms):
        values = [r.latency_ms for r in results[arm]]
        mid = top + row_h * row + row_h / 2
        colour = _COLOURS[arm]
        body.append(_text(left - 10, mid + 4, arm.value, size=11, anchor="end"))
        if not values:
            continue
        q1, median, q3 = (quantile(values, q) for q in (0.25, 0.5, 0.75))
        p95 = quantile(values, 0.95)
        for j, value in enumerate(values):
            jitter = ((j * 37) % 17 - 8) * 1.2  # deterministic spread so dots do not overlap
            body.append(
                f'<circle cx="{x(value):.1f}" cy="{mid + jitter:.1f}" r="2.2" fill="{colour}" '
                'fill-opacity="0.6"/>'
            )
        body.append(_line(x(min(values)), mid, x(max(values)), mid, "#555"))
        body.append(
            f'<rect x="{x(q1):.1f}" y="{mid - 11:.1f}" width="{max(x(q3) - x(q1), 1):.1f}" '
            f'height="22" fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        body.append(_line(x(median), mid - 13, x(median), mid + 13))
        body.append(
            f'<path d="M{x(p95):.1f},{mid - 16:.1f} l4,-6 h-8 z" fill="#222">'
            f"<title>p95 {p95:.1f} ms</title></path>"
        )
    body.append(
        _text(
            left,
            height - 6,
            "box: quartiles; bar: median; triangle: p95; dots: runs",
            size=10,
            anchor="start",
        )
    )
    return _svg(width, height, body, "latency distributions per arm")


def _coverage_cost_plot(metrics: AblationMetrics) -> str:
    """Each arm at (cost per item, required coverage), coverage interval as a whisker."""
    width, height, left, right, top, bottom = 640, 320, 70, 150, 20, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    costs = [s.metrics[Metric.COST_USD_PER_ITEM] or 0.0 for s in metrics.results]
    scale_max = _nice_max(max(costs, default=0.0)) if any(costs) else 1.0

    def x(v: float) -> float:
        return left + plot_w * v / scale_max

    body: list[str] = []
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = top + plot_h * (1 - tick)
        body.append(_line(left, y, left + plot_w, y, "#ddd"))
        body.append(_text(left - 6, y + 4, f"{tick:.2f}", size=10, anchor="end"))
        cost = scale_max * tick
        body.append(_text(x(cost), top + plot_h + 16, f"{cost:g}", size=10))
    body.append(_text(left + plot_w / 2, height - 12, "model cost per item (USD)", size=11))
    body.append(
        f'<text x="16" y="{top + plot_h / 2:.1f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 16 {top + plot_h / 2:.1f})">required coverage</text>'
    )
    if not any(costs):
        body.append(
            _text(left + plot_w / 2, top + 14, "no model cost recorded: every arm at $0", size=10)
        )
    if all(s.metrics[Metric.REQUIRED_COVERAGE] is None for s in metrics.results):
        body.append(
            _text(left + plot_w / 2, top + plot_h / 2, "no data: no required evidence", size=13)
        )
    for index, summary in enumerate(metrics.results):
        coverage = summary.metrics[Metric.REQUIRED_COVERAGE]
        cx = x(costs[index]) + (index - (len(metrics.results) - 1) / 2) * 6
        colour = _COLOURS[summary.arm]
        label_y = top + 14 + 16 * (index + 1)
        body.append(
            f'<rect x="{left + plot_w + 14}" y="{label_y - 9}" width="10" height="10" '
            f'fill="{colour}"/>'
        )
        body.append(_text(left + plot_w + 28, label_y, summary.arm.value, size=10, anchor="start"))
        if coverage is None:
            continue
        ci = summary.ci[Metric.REQUIRED_COVERAGE]
        if ci is not None:
            body.extend(_whisker(cx, ci, top, plot_h))
        cy = top + plot_h * (1 - coverage)
        body.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{colour}"><title>'
            f"{html.escape(summary.arm.value)}: coverage {coverage:.3f}, "
            f"cost {costs[index]:.6f} USD</title></circle>"
        )
    return _svg(width, height, body, "required coverage against cost per arm")
