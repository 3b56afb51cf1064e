"""The reviewer's report: one self-contained HTML file about one recorded run.

It shows the question, the as-of date, the outcome and why the run stopped; the answer with
each claim linked to its citations; for each citation the page text around the cited span with
the quote in a ``<mark>``, and the document's id, version, version date and authority; the loop
timeline (passes, retrievals and follow-up queries, critic verdicts, decisions, model calls with
their tokens) with the budgets used; and the result of the hash-chain verification.

Page texts are not in the trace (it records passage ids and text hashes), so the page context
and the document metadata come from the store when one is given; each citation is then
re-resolved against it (:func:`~evidencegate.audit.drift.citation_drift`) and the report says
when the source has changed since the run. Without a store the report shows the quotes only
and says so.

The file has no external assets (inline CSS, no script, no image) and every text from the
trace or the store is escaped with :func:`html.escape`. A trace whose chain is broken gets no
report: :func:`write_report` raises :class:`~evidencegate.exceptions.TraceFormatError`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from evidencegate.audit.drift import CitationDrift, DriftStatus, citation_drift
from evidencegate.audit.report.style import CSS
from evidencegate.contracts import Citation, GatedAnswer, Outcome
from evidencegate.corpus.store import Store
from evidencegate.exceptions import TraceFormatError
from evidencegate.trace.chain import ChainReport, read_trace, verify_trace
from evidencegate.trace.events import (
    AuditEvent,
    ComponentFailedEvent,
    DecisionEvent,
    DraftEvent,
    ModelCallEvent,
    RelevanceEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    RunStartEvent,
    ScopeEvent,
    SufficiencyEvent,
    TraceEvent,
    TraceLine,
    TriadEvent,
    VerificationEvent,
)

__all__ = ["CONTEXT_CHARS", "render_report", "write_report"]

CONTEXT_CHARS = 360
"""Characters of page text shown on each side of a cited span."""


def write_report(trace: str | Path, out: str | Path, *, store: Store | None = None) -> ChainReport:
    """Verify the trace at ``trace`` and write its HTML report to ``out``.

    Raises :class:`TraceFormatError` (and writes nothing) when the hash chain is broken or the
    trace is not a run's trace; ``OSError`` when a file cannot be read or written.
    """
    chain = verify_trace(trace)
    if not chain.ok:
        raise TraceFormatError(
            f"{trace}: TAMPERED at seq {chain.first_bad_seq}: {chain.reason}; no report written",
            line=chain.first_bad_seq,
        )
    document = render_report(read_trace(trace), chain, store=store, source=str(trace))
    Path(out).write_text(document, encoding="utf-8")
    return chain


def render_report(
    lines: Sequence[TraceLine], chain: ChainReport, *, store: Store | None = None, source: str = ""
) -> str:
    """The HTML report of an intact trace (``lines`` as read by ``read_trace``)."""
    if not lines or not isinstance(lines[0].event, RunStartEvent):
        raise TraceFormatError(f"{source or 'trace'}: seq 0 is not run_start: not a run's trace")
    start = lines[0].event
    end = lines[-1].event if isinstance(lines[-1].event, RunEndEvent) else None
    answer = end.answer if end is not None else None
    refs = {
        ref.passage_id: ref
        for line in lines
        if isinstance(line.event, RetrievalEvent)
        for ref in line.event.results
    }
    drift = citation_drift(answer, store, tenant=start.tenant) if answer and store else []
    parts = [
        _header(start, answer, lines, source),
        _chain(chain, lines),
        _answer(answer),
        _citations(answer, store, start, refs, drift),
        _budgets(start, answer, end, lines),
        _timeline(lines),
    ]
    title = f"evidencegate report: {start.question}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(parts)
        + "\n</main>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- sections


def _header(
    start: RunStartEvent, answer: GatedAnswer | None, lines: Sequence[TraceLine], source: str
) -> str:
    outcome = answer.outcome.value if answer else "incomplete"
    badge = "ok" if answer and answer.outcome is Outcome.ANSWERED else "warn"
    if answer is None or answer.outcome is Outcome.ABSTAINED:
        badge = "bad"
    rows = [
        ("Question", escape(start.question)),
        ("As of", escape(start.as_of.isoformat())),
        ("Outcome", f'<span class="badge {badge}" id="outcome">{escape(outcome)}</span>'),
        ("Stop reason", escape(answer.stop_reason.value) if answer else "—"),
        ("Coverage", f"{answer.coverage:.2f}" if answer else "—"),
        ("Passes", str(answer.passes) if answer else "—"),
        (
            "Policy",
            f"{escape(str(start.policy.get('name', '')))} "
            f"<code>sha256 {escape(start.policy_sha256[:16])}…</code>",
        ),
        ("Arm", escape(start.components.get("arm", ""))),
        (
            "Components",
            ", ".join(
                f"{escape(role)}: <code>{escape(cid)}</code>"
                for role, cid in sorted(start.components.items())
                if role != "arm"
            ),
        ),
        ("Tenant", escape(start.tenant or "default")),
        ("Run", f"<code>{escape(lines[0].run_id)}</code>"),
        ("Recorded", f"{escape(_time(lines[0].ts))} – {escape(_time(lines[-1].ts))} UTC"),
    ]
    if source:
        rows.append(("Trace file", f"<code>{escape(source)}</code>"))
    if answer and answer.disclaimer:
        rows.append(("Disclaimer", escape(answer.disclaimer)))
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    banner = ""
    if answer is None:
        banner = (
            '<p class="banner bad" id="incomplete">Incomplete run: the trace has no run_end '
            f"(the run stopped midway). The {len(lines)} recorded events are shown.</p>"
        )
    return (
        "<header><h1>Evidence report</h1>"
        f'{banner}<table class="facts" id="summary">{table}</table></header>'
    )


def _chain(chain: ChainReport, lines: Sequence[TraceLine]) -> str:
    state = "complete (ends with run_end)" if chain.complete else "incomplete (no run_end)"
    return (
        '<section id="chain"><h2>Hash chain</h2>'
        f'<p><span class="badge ok">intact</span> {chain.lines} lines, {escape(state)}. '
        "Every line is canonical JSON carrying the sha256 of the line before it.</p>"
        f"<p>First line hash <code>{escape(lines[0].hash)}</code><br>"
        f"Last line hash <code>{escape(lines[-1].hash)}</code> "
        "(keep it elsewhere to detect a rewritten tail).</p></section>"
    )


def _answer(answer: GatedAnswer | None) -> str:
    if answer is None:
        return '<section id="answer"><h2>Answer</h2><p>No answer was recorded.</p></section>'
    out = ['<section id="answer"><h2>Answer</h2>']
    if answer.claims:
        out.append('<ol class="claims">')
        for i, claim in enumerate(answer.claims, start=1):
            links = " ".join(
                f'<a class="cite" href="#cite-{i}-{j}">[{i}.{j}]</a>'
                for j in range(1, len(claim.citations) + 1)
            )
            out.append(f'<li id="claim-{i}">{escape(claim.text)} {links}</li>')
        out.append("</ol>")
    else:
        out.append(f'<p class="abstained">{escape(answer.answer)}</p>')
    if answer.gaps:
        out.append("<h3>Gaps</h3><ul>")
        out.extend(f"<li>{escape(gap)}</li>" for gap in answer.gaps)
        out.append("</ul>")
    if answer.dropped_claims:
        out.append("<h3>Dropped claims</h3><ul>")
        out.extend(
            f"<li>{escape(d.text)} <small>({escape(', '.join(d.reasons))})</small></li>"
            for d in answer.dropped_claims
        )
        out.append("</ul>")
    out.append("</section>")
    return "".join(out)


def _citations(
    answer: GatedAnswer | None,
    store: Store | None,
    start: RunStartEvent,
    refs: dict[str, RetrievedRef],
    drift: Sequence[CitationDrift],
) -> str:
    if answer is None or not answer.claims:
        return ""
    out = ['<section id="citations"><h2>Citations</h2>']
    if store is None:
        out.append(
            '<p class="banner warn" id="no-store">The trace records passage ids and text '
            "hashes, not page texts: run <code>evidencegate report TRACE --store DIR</code> to "
            "show the page text around each quote and the documents' version dates. Quotes "
            "only below.</p>"
        )
    checks = iter(drift)
    for i, claim in enumerate(answer.claims, start=1):
        for j, citation in enumerate(claim.citations, start=1):
            check = next(checks) if store is not None else None
            out.append(_citation(i, j, citation, store, start, refs, check))
    out.append("</section>")
    return "".join(out)


def _citation(
    i: int,
    j: int,
    citation: Citation,
    store: Store | None,
    start: RunStartEvent,
    refs: dict[str, RetrievedRef],
    check: CitationDrift | None,
) -> str:
    document = store.document(citation.doc_id, citation.version, start.tenant) if store else None
    ref = refs.get(citation.evidence_id or "")
    authority = document.authority if document else (ref.authority if ref else "unknown")
    facts = [
        ("Document", escape(citation.doc_id)),
        ("Version", escape(citation.version)),
        ("Version date", escape(document.version_date.isoformat()) if document else "—"),
        ("Authority", escape(authority)),
        ("Page", str(citation.page)),
        ("Characters", f"{citation.char_start}–{citation.char_end}"),
    ]
    if document is not None:
        facts.insert(0, ("Title", escape(document.title or "—")))
        until = document.effective_to.isoformat() if document.effective_to else "open"
        facts.append(("In force", f"{document.effective_from.isoformat()} to {escape(until)}"))
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts)
    status = ""
    if check is not None:
        kind = "ok" if check.status is DriftStatus.UNCHANGED else "warn"
        status = (
            f'<p class="drift"><span class="badge {kind}">source now: '
            f"{escape(check.status.value)}</span> {escape(check.detail)}</p>"
        )
    return (
        f'<article class="citation" id="cite-{i}-{j}"><h3>[{i}.{j}] '
        f"{escape(citation.doc_id)} @ {escape(citation.version)}, page {citation.page} "
        f'<a class="back" href="#claim-{i}">back to claim {i}</a></h3>'
        f'<table class="facts">{table}</table>{status}'
        f"{_context(citation, store, start, check)}</article>"
    )


def _context(
    citation: Citation, store: Store | None, start: RunStartEvent, check: CitationDrift | None
) -> str:
    """The page text around the cited span with the span in a <mark>, or the quote alone."""
    quote_only = f'<blockquote class="quote"><mark>{escape(citation.quote)}</mark></blockquote>'
    at_offsets = check is not None and check.status in (
        DriftStatus.UNCHANGED,
        DriftStatus.SUPERSEDED,
    )
    if store is None:
        return quote_only
    if not at_offsets or citation.char_start is None or citation.char_end is None:
        return '<p class="note">The page no longer holds the quote as recorded.</p>' + quote_only
    source = store.lookup(citation.doc_id, citation.version, citation.page, tenant=start.tenant)
    if source is None:  # at_offsets says the page is there; a concurrent change removed it
        return quote_only
    text = source.page.text
    lo = max(0, citation.char_start - CONTEXT_CHARS)
    hi = min(len(text), citation.char_end + CONTEXT_CHARS)
    before = ("…" if lo > 0 else "") + text[lo : citation.char_start]
    after = text[citation.char_end : hi] + ("…" if hi < len(text) else "")
    label = f" ({escape(source.page.label)})" if source.page.label else ""
    return (
        f'<p class="note">Page {citation.page}{label}, characters {lo}–{hi}:</p>'
        f'<div class="context">{escape(before)}<mark>'
        f"{escape(text[citation.char_start : citation.char_end])}</mark>{escape(after)}</div>"
    )


def _budgets(
    start: RunStartEvent,
    answer: GatedAnswer | None,
    end: RunEndEvent | None,
    lines: Sequence[TraceLine],
) -> str:
    policy: dict[str, Any] = start.policy
    events = [line.event for line in lines]
    retrievals = [e for e in events if isinstance(e, RetrievalEvent)]
    calls = [e for e in events if isinstance(e, ModelCallEvent)]
    passes = answer.passes if answer else max((_pass_of(e) or 0 for e in events), default=0)
    tokens = sum(c.input_tokens + c.output_tokens for c in calls)
    cost = sum(c.cost_usd for c in calls)
    per_run_s = policy.get("time_budget", {}).get("per_run_s")
    rows = [
        ("Passes", passes, _limit(policy.get("max_passes"), plus=1)),
        ("Retrievals", len(retrievals), _limit(policy.get("max_retrievals"))),
        (
            "Follow-up retrievals",
            sum(1 for r in retrievals if r.purpose == "follow_up"),
            _limit(policy.get("max_followups")),
        ),
        ("Model calls", len(calls), "—"),
        ("Tokens (in + out)", tokens, _limit(policy.get("max_tokens"))),
        ("Cost (USD)", f"{cost:.4f}", _limit(policy.get("max_cost_usd"))),
        (
            "Time (ms)",
            f"{end.elapsed_ms:.1f}" if end else "—",
            f"{float(per_run_s) * 1000:.0f}" if per_run_s is not None else "—",
        ),
    ]
    body = "".join(
        f"<tr><th>{escape(name)}</th><td>{escape(str(used))}</td><td>{escape(str(limit))}</td></tr>"
        for name, used, limit in rows
    )
    return (
        '<section id="budgets"><h2>Budgets used</h2><table class="grid">'
        f"<tr><th></th><th>used</th><th>policy limit</th></tr>{body}</table></section>"
    )


def _limit(value: Any, *, plus: int = 0) -> str:
    if value is None:
        return "—"
    return str(value + plus) if isinstance(value, int) else str(value)


def _timeline(lines: Sequence[TraceLine]) -> str:
    rows = []
    for line in lines:
        event = line.event
        pass_no = _pass_of(event)
        rows.append(
            f'<tr class="ev-{escape(event.kind)}"><td>{line.seq}</td>'
            f"<td>{escape(_time(line.ts))}</td><td>{'' if pass_no is None else pass_no}</td>"
            f"<td>{escape(event.kind)}</td><td>{_describe(event)}</td></tr>"
        )
    return (
        '<section id="timeline"><h2>Loop timeline</h2><table class="grid">'
        "<tr><th>seq</th><th>time (UTC)</th><th>pass</th><th>step</th><th>what happened</th></tr>"
        + "".join(rows)
        + "</table></section>"
    )


def _describe(event: TraceEvent) -> str:
    """One escaped line of HTML describing an event."""
    match event:
        case RunStartEvent():
            return (
                f"question “{escape(event.question)}” as of {event.as_of.isoformat()}, policy "
                f"{escape(str(event.policy.get('name', '')))}"
            )
        case ScopeEvent():
            scope = "the whole corpus" if event.doc_ids is None else ", ".join(event.doc_ids)
            return (
                f"question analysis: answer type {escape(event.answer_type)}; retrieval limited "
                f"to {escape(scope)} ({escape(event.reason)})"
            )
        case RetrievalEvent():
            new = ", ".join(event.new_primary_sources) or "none"
            kind = "follow-up query" if event.purpose == "follow_up" else "query"
            flagged = [
                f"{ref.doc_id}@{ref.version} p{ref.page} "
                f"({', '.join(flag.partition(': ')[2] or flag for flag in ref.flags)})"
                for ref in event.results
                if ref.flags
            ]
            warning = (
                f'; <strong class="flagged">flagged, text addressed to a model: '
                f"{escape('; '.join(flagged))}</strong>"
                if flagged
                else ""
            )
            return (
                f"{kind} <q>{escape(event.query)}</q> → {_count(len(event.results), 'passage')}; "
                f"new primary sources: {escape(new)}{warning}"
            )
        case SufficiencyEvent():
            out = event.output
            verdict = "needs more context" if out.requires_more_context else "enough context"
            text = f"critic {escape(event.critic)}: {verdict} — {escape(out.reason)}"
            if out.missing_facts:
                text += f"; missing: {escape('; '.join(out.missing_facts))}"
            if out.suggested_query:
                text += f"; suggests <q>{escape(out.suggested_query)}</q>"
            return text
        case DraftEvent():
            generator = escape(event.generator)
            if event.output.declined:
                return f"generator {generator} declined: {escape(event.output.declined)}"
            avoid = f" (avoiding {len(event.avoid)} rejected claims)" if event.avoid else ""
            return (
                f"generator {generator} drafted {_count(len(event.output.claims), 'claim')} "
                f"from {_count(len(event.evidence_ids), 'passage')}{avoid}"
            )
        case VerificationEvent():
            ok = sum(1 for r in event.results if r.ok)
            failed = [
                f"{r.claim_id}: {', '.join(x.value for x in r.reasons)}"
                for r in event.results
                if not r.ok
            ]
            tail = f"; failed: {escape('; '.join(failed))}" if failed else ""
            return f"{ok} of {_count(len(event.results), 'claim')} verified{tail}"
        case AuditEvent():
            out_a = event.output
            verdicts = ", ".join(f"{a.claim_id}: {a.verdict.value}" for a in out_a.claims)
            return (
                f"critic {escape(event.critic)}: coverage {out_a.coverage:.2f}, contract "
                f"{'met' if out_a.contract_met else 'not met'}; {escape(verdicts or 'no claims')}"
            )
        case DecisionEvent():
            d = event.decision
            detail = f" ({escape(d.detail)})" if d.detail else ""
            return f"<strong>{escape(d.action.value)}</strong> — {escape(d.reason)}{detail}"
        case ComponentFailedEvent():
            return (
                f"{escape(event.component)} failed: {escape(event.error_type)}: "
                f"{escape(event.message)}"
            )
        case ModelCallEvent():
            error = f"; error: {escape(event.error)}" if event.error else ""
            return (
                f"{escape(event.role)} {escape(event.purpose)} → "
                f"{escape(event.provider)}:{escape(event.model)} (attempt {event.attempt}): "
                f"{event.input_tokens} in / {event.output_tokens} out tokens, "
                f"${event.cost_usd:.4f}, {event.latency_ms:.0f} ms{error}"
            )
        case RelevanceEvent():
            sel = event.selection
            labels = ", ".join(f"{j.passage_id[:8]}: {j.label.value}" for j in sel.judgements)
            return (
                f"judge {escape(event.judge)}: {escape(sel.task)} task, strategy "
                f"{escape(sel.strategy.value)}, {_count(len(sel.used_ids), 'passage')} used; "
                f"{escape(labels or 'no passages')}"
            )
        case TriadEvent():
            sc = event.score
            grounded = "n/a" if sc.groundedness is None else f"{sc.groundedness:.2f}"
            return (
                f"judge {escape(event.output.judge)}: groundedness {grounded}, quality "
                f"{sc.quality if sc.quality is not None else 'n/a'}"
                + (f"; flags: {escape('; '.join(sc.flag_reasons))}" if sc.flag_reasons else "")
            )
        case RunEndEvent():
            a = event.answer
            return (
                f"{escape(a.outcome.value)}, stop reason {escape(a.stop_reason.value)}, "
                f"{event.elapsed_ms:.1f} ms"
            )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _pass_of(event: TraceEvent) -> int | None:
    if isinstance(event, DecisionEvent):
        return event.decision.pass_no
    pass_no = getattr(event, "pass_no", None)
    return pass_no if isinstance(pass_no, int) else None


def _time(ts: str) -> str:
    moment = dt.datetime.fromisoformat(ts).astimezone(dt.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
