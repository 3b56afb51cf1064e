"""The reviewer's report: one self-contained HTML file about one recorded run.

What a reviewer needs to sign off, from the trace (and the store, when given):

- the question, as-of date, outcome, and why the run stopped (the final decision, and what the
  stop reason means);
- the answer, each claim with the version it rests on and whether that version is still in
  force, linked to its citations;
- per citation, the verifier's checks and their results (retrieved in the run, quote length,
  quote found at which offsets, authority, in force on the as-of date, evidence hygiene), the
  claim-level checks (numbers, dates, negation) and the critic's verdict; the page text around
  the cited span with the quote in a ``<mark>``;
- the version timeline of each cited document (every stored version, its dates, which one was
  cited, which was in force on the as-of date, "superseded by … on …");
- the evidence considered: the question's scope, every query, every retrieved passage with its
  relevance grade, whether it was given to the generator and cited, and why not;
- the policy's thresholds and budgets beside the values the run reached;
- the review status: the judges' score recorded at run end, the run's flags and feedback in
  the review queue;
- drift: each citation re-resolved against the store now
  (:func:`~evidencegate.audit.drift.citation_drift`), retrieved passages whose text changed
  (:func:`~evidencegate.audit.drift.evidence_drift`), and, with a replay, whether replaying the
  recording reaches the same decisions;
- the loop timeline (every recorded event) and the hash-chain verification.

What the report states is computed in :mod:`evidencegate.audit.report.facts`; this module
renders it.
Page texts are not in the trace (it records passage ids and text hashes), so page context,
version timelines and document metadata need the store; without one the report shows the quotes
only and says so.

The file has no external assets (inline CSS with print rules, no script, no image) and every
text from the trace or the store is escaped with :func:`html.escape`. A trace whose chain is
broken gets no report: :func:`write_report` raises
:class:`~evidencegate.exceptions.TraceFormatError`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from html import escape
from pathlib import Path

from evidencegate.audit.drift import (
    CitationDrift,
    DriftStatus,
    EvidenceChange,
    citation_drift,
    evidence_drift,
)
from evidencegate.audit.replay import ReplayResult, replay_trace
from evidencegate.audit.report.facts import (
    STOP_EXPLANATIONS,
    Check,
    CheckStatus,
    EvidenceRow,
    FinalClaim,
    citation_checks,
    claim_checks,
    counted,
    evidence_considered,
    final_claims,
    final_decision,
    recorded_authorities,
    thresholds,
    version_timelines,
)
from evidencegate.audit.report.style import CSS
from evidencegate.contracts import Citation, CitationCheck, GatedAnswer, Outcome
from evidencegate.corpus.backends import StoreBackend
from evidencegate.exceptions import TraceFormatError, UsageError
from evidencegate.hygiene import flag_names
from evidencegate.review import ReviewQueue
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
from evidencegate.verify.derived import derivation_summary

__all__ = ["CONTEXT_CHARS", "EXCERPT_CHARS", "render_report", "write_report"]

CONTEXT_CHARS = 360
"""Characters of page text shown on each side of a cited span."""
EXCERPT_CHARS = 240
"""Characters of each retrieved passage shown in the evidence table."""

_BADGE = {
    CheckStatus.PASSED: "ok",
    CheckStatus.FAILED: "bad",
    CheckStatus.NOT_RUN: "warn",
    CheckStatus.OFF: "muted",
}
_STATUS_BADGE = {
    "met": "ok",
    "within": "ok",
    "not needed": "ok",
    "not met": "bad",
    "reached": "warn",
    "applied": "warn",
}


def write_report(
    trace: str | Path,
    out: str | Path,
    *,
    store: StoreBackend | None = None,
    review: ReviewQueue | None = None,
    replay: bool = False,
) -> ChainReport:
    """Verify the trace at ``trace`` and write its HTML report to ``out``.

    ``store`` adds page context, version timelines and drift; ``review`` (the store's
    :class:`~evidencegate.review.ReviewQueue`) adds the run's flags and feedback; ``replay``
    re-runs the recording over ``store`` (:func:`~evidencegate.audit.replay.replay_trace`) and
    reports whether the decisions are identical.

    Raises :class:`TraceFormatError` (and writes nothing) when the hash chain is broken or the
    trace is not a run's trace, :class:`UsageError` when ``replay`` is asked without a store,
    ``OSError`` when a file cannot be read or written.
    """
    if replay and store is None:
        raise UsageError("a replay needs the store the run read from (--store)")
    chain = verify_trace(trace)
    if not chain.ok:
        raise TraceFormatError(
            f"{trace}: TAMPERED at seq {chain.first_bad_seq}: {chain.reason}; no report written",
            line=chain.first_bad_seq,
        )
    lines = read_trace(trace)
    replayed = replay_trace(trace, store) if replay and store is not None else None
    document = render_report(
        lines, chain, store=store, review=review, replay=replayed, source=str(trace)
    )
    Path(out).write_text(document, encoding="utf-8")
    return chain


def render_report(
    lines: Sequence[TraceLine],
    chain: ChainReport,
    *,
    store: StoreBackend | None = None,
    review: ReviewQueue | None = None,
    replay: ReplayResult | None = None,
    source: str = "",
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
    drift: list[CitationDrift] = []
    changes: list[EvidenceChange] = []
    if replay is not None:
        drift, changes = list(replay.drift), list(replay.evidence)
    elif store is not None:
        if answer is not None:
            drift = citation_drift(answer, store, tenant=start.tenant)
        changes = evidence_drift(refs.values(), store, tenant=start.tenant)
    claims = final_claims(lines, answer) if answer is not None else []
    parts = [
        _header(start, answer, lines, source),
        _banners(answer, store, drift, changes, replay),
        _stop(answer, lines),
        _answer(answer, claims, drift, store, start),
        _citations(answer, claims, store, start, refs, drift),
        _versions(answer, store, start),
        _evidence(lines, answer, store, start, changes),
        _policy(lines, answer),
        _review(lines, end, review),
        _replay(replay, store),
        _timeline(lines),
        _chain(chain, lines),
    ]
    title = f"evidencegate report: {start.question}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(part for part in parts if part)
        + "\n</main>\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- sections

_SECTIONS = (
    ("stop", "Why it stopped"),
    ("answer", "Answer"),
    ("citations", "Citations and checks"),
    ("versions", "Versions"),
    ("evidence", "Evidence considered"),
    ("policy", "Thresholds and budgets"),
    ("review", "Review"),
    ("replay", "Replay"),
    ("timeline", "Loop timeline"),
    ("chain", "Hash chain"),
)


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
        ("evidencegate", escape(start.evidencegate_version)),
    ]
    if source:
        rows.append(("Trace file", f"<code>{escape(source)}</code>"))
    if answer and answer.disclaimer:
        rows.append(("Disclaimer", escape(answer.disclaimer)))
    table = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    nav = " ".join(f'<a href="#{anchor}">{name}</a>' for anchor, name in _SECTIONS)
    return (
        "<header><h1>Evidence report</h1>"
        f'<table class="facts" id="summary">{table}</table>'
        f'<nav class="toc">{nav}</nav></header>'
    )


def _banners(
    answer: GatedAnswer | None,
    store: StoreBackend | None,
    drift: Sequence[CitationDrift],
    changes: Sequence[EvidenceChange],
    replay: ReplayResult | None,
) -> str:
    out = []
    if answer is None:
        out.append(
            '<p class="banner bad" id="incomplete">Incomplete run: the trace has no run_end '
            "(the run stopped midway). The recorded events are shown.</p>"
        )
    if replay is not None and replay.divergence is not None:
        out.append(
            '<p class="banner bad" id="diverged">Replay diverged: replaying the recording did '
            f"not reach the recorded decisions (first difference at seq {replay.divergence.seq})."
            ' See <a href="#replay">Replay</a>.</p>'
        )
    anchors = _anchors(answer)
    moved = [
        f'<a href="#cite-{anchors[k]}">[{anchors[k].replace("-", ".")}]</a> '
        f"{escape(d.status.value)}"
        for k, d in enumerate(drift)
        if d.drifted and k < len(anchors)
    ]
    if moved or changes:
        items = []
        if moved:
            items.append("cited sources: " + "; ".join(moved))
        if changes:
            items.append(
                f"{counted(len(changes), 'retrieved passage')} no longer held as recorded "
                '(<a href="#evidence">evidence</a>)'
            )
        out.append(
            '<p class="banner warn" id="drift"><strong>Drift since the run</strong>: '
            + "; ".join(items)
            + '. See <a href="#versions">Versions</a>.</p>'
        )
    elif store is not None and answer is not None and answer.claims:
        out.append(
            '<p class="banner ok" id="no-drift">No drift: every cited quote is still at its '
            "offsets in a version in force on the as-of date, and every retrieved passage still "
            "hashes as recorded.</p>"
        )
    return "".join(out)


def _anchors(answer: GatedAnswer | None) -> list[str]:
    """The anchor ("1-2": claim 1, citation 2) of each citation, in citation_drift's order."""
    if answer is None:
        return []
    return [
        f"{i}-{j}"
        for i, claim in enumerate(answer.claims, start=1)
        for j in range(1, len(claim.citations) + 1)
    ]


def _stop(answer: GatedAnswer | None, lines: Sequence[TraceLine]) -> str:
    decision = final_decision(lines)
    out = ['<section id="stop"><h2>Why the run stopped</h2>']
    if answer is None:
        out.append("<p>The run did not end: no stop was recorded.</p>")
    else:
        out.append(
            f'<p id="stop-reason"><strong>{escape(answer.stop_reason.value)}</strong>: '
            f"{escape(STOP_EXPLANATIONS[answer.stop_reason])}.</p>"
        )
    if decision is not None:
        d = decision.decision
        detail = f" ({escape(d.detail)})" if d.detail else ""
        out.append(
            f"<p>Final decision, pass {d.pass_no}: <strong>{escape(d.action.value)}</strong> — "
            f"{escape(d.reason)}{detail}.</p>"
        )
    out.append("</section>")
    return "".join(out)


def _answer(
    answer: GatedAnswer | None,
    claims: Sequence[FinalClaim],
    drift: Sequence[CitationDrift],
    store: StoreBackend | None,
    start: RunStartEvent,
) -> str:
    if answer is None:
        return '<section id="answer"><h2>Answer</h2><p>No answer was recorded.</p></section>'
    out = ['<section id="answer"><h2>Answer</h2>']
    if answer.claims:
        out.append('<ol class="claims">')
        checks = iter(drift)
        for i, (claim, record) in enumerate(zip(answer.claims, claims, strict=True), start=1):
            links = " ".join(
                f'<a class="cite" href="#cite-{i}-{j}">[{i}.{j}]</a>'
                for j in range(1, len(claim.citations) + 1)
            )
            rests = []
            for citation in claim.citations:
                now = next(checks, None)
                where = f"{escape(citation.doc_id)}@{escape(citation.version)} p{citation.page}"
                state = _in_force_now(citation, store, start, now)
                rests.append(f"{where}{state}")
            computed = (
                ""
                if claim.derivation is None
                else '<br><small class="derivation">computed, recomputed by the verifier: '
                f"{escape(derivation_summary(claim.derivation))}</small>"
            )
            out.append(
                f'<li id="claim-{i}">{escape(claim.text)} {links}{computed}'
                f'<div class="rests">rests on {"; ".join(rests)} · '
                f"{_claim_verdicts(record)}</div></li>"
            )
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


def _in_force_now(
    citation: Citation, store: StoreBackend | None, start: RunStartEvent, now: CitationDrift | None
) -> str:
    """Whether one cited version is in force now (needs the store), as a parenthesis."""
    if store is None or now is None:
        return f" (in force on {start.as_of.isoformat()} when the run checked it)"
    if now.status is DriftStatus.UNCHANGED:
        document = store.document(citation.doc_id, citation.version, start.tenant)
        later = ", ".join(f"{v.version} from {v.effective_from}" for v in now.later_versions)
        still = (
            "still in force"
            if document is not None and document.effective_to is None
            else f"in force on {start.as_of.isoformat()}"
        )
        tail = f"; later versions: {later}" if later else ""
        return f' (<span class="state-ok">{escape(still)}</span>{escape(tail)})'
    return f' (<span class="state-bad">now {escape(now.status.value)}</span>)'


def _claim_verdicts(record: FinalClaim) -> str:
    if record.verification is None:
        verifier = '<span class="badge warn">verifier: not recorded</span>'
    else:
        ok = record.verification.ok
        verifier = (
            f'<span class="badge {"ok" if ok else "bad"}">verifier: '
            f"{'passed' if ok else 'failed'}</span>"
        )
    if record.audit is None:
        critic = '<span class="badge muted">critic: not audited</span>'
    else:
        verdict = record.audit.verdict.value
        critic = (
            f'<span class="badge {"ok" if verdict == "supported" else "bad"}">critic: '
            f"{escape(verdict)}</span>"
        )
    return f"{verifier} {critic}"


def _citations(
    answer: GatedAnswer | None,
    claims: Sequence[FinalClaim],
    store: StoreBackend | None,
    start: RunStartEvent,
    refs: dict[str, RetrievedRef],
    drift: Sequence[CitationDrift],
) -> str:
    if answer is None or not answer.claims:
        return ""
    out = ['<section id="citations"><h2>Citations and the verifier\'s checks</h2>']
    if store is None:
        out.append(
            '<p class="banner warn" id="no-store">The trace records passage ids and text '
            "hashes, not page texts: run <code>evidencegate report TRACE --store DIR</code> to "
            "show the page text around each quote, the documents' version dates and "
            "timelines, and drift. Quotes only below.</p>"
        )
    checks = iter(drift)
    for i, (claim, record) in enumerate(zip(answer.claims, claims, strict=True), start=1):
        out.append(
            f'<div class="claim-block" id="checks-{i}"><h3>Claim {i}: {escape(claim.text)}</h3>'
        )
        if record.verification is None:
            out.append(
                '<p class="note">No verification of this claim is recorded in the trace.</p>'
            )
        else:
            out.append(
                f'<p class="note">Checks on the claim (pass {record.pass_no}), against every '
                "quote the verifier located:</p>"
                + _checks_table(
                    claim_checks(
                        record.verification,
                        derived=claim.derivation is not None,
                    )
                )
            )
        if record.audit is not None:
            score = (
                f", support score {record.audit.support_score:.2f}"
                if record.audit.support_score is not None
                else ""
            )
            out.append(
                f'<p class="critic">Critic audit: <strong>{escape(record.audit.verdict.value)}'
                f"</strong>{score} — {escape(record.audit.reason)}</p>"
            )
        recorded = record.verification.citations if record.verification else []
        for j, citation in enumerate(claim.citations, start=1):
            check = next(checks) if drift else None
            result = recorded[j - 1] if j <= len(recorded) else None
            out.append(_citation(i, j, citation, store, start, refs, check, result))
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def _checks_table(checks: Sequence[Check]) -> str:
    rows = "".join(
        f'<tr class="check-{c.status.value.replace(" ", "-")}"><td>{escape(c.name)}</td>'
        f'<td><span class="badge {_BADGE[c.status]}">{escape(c.status.value)}</span></td>'
        f"<td>{escape(c.detail)}</td></tr>"
        for c in checks
    )
    return (
        '<table class="grid checks"><tr><th>check</th><th>result</th><th>detail</th></tr>'
        f"{rows}</table>"
    )


def _citation(
    i: int,
    j: int,
    citation: Citation,
    store: StoreBackend | None,
    start: RunStartEvent,
    refs: dict[str, RetrievedRef],
    check: CitationDrift | None,
    result: CitationCheck | None,
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
    verified = ""
    if result is not None:
        verified = '<p class="note">The verifier\'s checks of this citation:</p>' + _checks_table(
            citation_checks(
                result,
                as_of=start.as_of,
                policy=start.policy,
                authority=ref.authority if ref else None,
            )
        )
    return (
        f'<article class="citation" id="cite-{i}-{j}"><h4>[{i}.{j}] '
        f"{escape(citation.doc_id)} @ {escape(citation.version)}, page {citation.page} "
        f'<a class="back" href="#claim-{i}">back to claim {i}</a></h4>'
        f'<table class="facts">{table}</table>{status}'
        f"{_context(citation, store, start, check)}{verified}</article>"
    )


def _context(
    citation: Citation,
    store: StoreBackend | None,
    start: RunStartEvent,
    check: CitationDrift | None,
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


def _versions(answer: GatedAnswer | None, store: StoreBackend | None, start: RunStartEvent) -> str:
    out = ['<section id="versions"><h2>Version timeline of each cited document</h2>']
    if answer is None or not answer.claims:
        out.append("<p>The answer cites no document.</p></section>")
        return "".join(out)
    if store is None:
        cited = sorted({f"{c.doc_id}@{c.version}" for cl in answer.claims for c in cl.citations})
        out.append(
            f"<p>Cited: {escape(', '.join(cited))}. The versions and their dates are in the "
            "store: pass <code>--store DIR</code> to show each document's timeline.</p>"
            "</section>"
        )
        return "".join(out)
    for timeline in version_timelines(answer, store, tenant=start.tenant):
        title = f" — {escape(timeline.title)}" if timeline.title else ""
        out.append(
            f'<div class="timeline" id="versions-{escape(timeline.doc_id)}">'
            f"<h3>{escape(timeline.doc_id)}{title}</h3><ul>"
            + "".join(f"<li>{escape(s)}</li>" for s in timeline.summary)
            + "</ul>"
        )
        if not timeline.rows:
            out.append("<p>No version of this document is in the store now.</p></div>")
            continue
        rows = []
        for row in timeline.rows:
            v = row.document
            marks = []
            if row.cited_by:
                cites = ", ".join(
                    f'<a href="#cite-{a.replace(".", "-")}">[{a}]</a>' for a in row.cited_by
                )
                marks.append(f'<span class="badge ok">cited</span> {cites}')
            if row.in_force_on_as_of:
                marks.append(
                    f'<span class="badge info">in force on {start.as_of.isoformat()}</span>'
                )
            css = " cited" if row.cited_by else ""
            if v.effective_to is not None:
                css += " superseded"
            rows.append(
                f'<tr class="version{css}"><td>{escape(v.version)}</td>'
                f'<td class="date">{v.version_date.isoformat()}</td>'
                f'<td class="date">{v.effective_from.isoformat()}</td>'
                f'<td class="date">{v.effective_to.isoformat() if v.effective_to else "open"}</td>'
                f"<td>{escape(v.authority)}</td><td>{' '.join(marks)}</td>"
                f"<td>{escape(row.note)}</td></tr>"
            )
        out.append(
            '<table class="grid"><tr><th>version</th><th>version date</th>'
            "<th>in force from</th><th>in force to</th><th>authority</th><th>this run</th>"
            "<th>status</th></tr>" + "".join(rows) + "</table></div>"
        )
    out.append("</section>")
    return "".join(out)


def _evidence(
    lines: Sequence[TraceLine],
    answer: GatedAnswer | None,
    store: StoreBackend | None,
    start: RunStartEvent,
    changes: Sequence[EvidenceChange],
) -> str:
    events = [line.event for line in lines]
    retrievals = [e for e in events if isinstance(e, RetrievalEvent)]
    scopes = [e for e in events if isinstance(e, ScopeEvent)]
    policy = start.policy
    out = ['<section id="evidence"><h2>Evidence considered</h2>']
    if scopes:
        scope = scopes[0]
        where = "the whole corpus" if scope.doc_ids is None else ", ".join(scope.doc_ids)
        out.append(
            f'<p id="scope">Question analysis: answer type {escape(scope.answer_type)}; '
            f"retrieval limited to {escape(where)} ({escape(scope.reason)}).</p>"
        )
    authorities = ", ".join(recorded_authorities(policy))
    out.append(
        f"<p>Retrieval returns only versions in force on {start.as_of.isoformat()}, of "
        f"authority {escape(authorities or 'not recorded')}, at most "
        f"{escape(str(policy.get('top_k', 'not recorded')))} passages per query.</p>"
    )
    if not retrievals:
        out.append("<p>No retrieval was recorded.</p></section>")
        return "".join(out)
    queries = []
    for number, event in enumerate(retrievals, start=1):
        kind = "follow-up" if event.purpose == "follow_up" else "initial"
        new = ", ".join(event.new_primary_sources) or "none"
        queries.append(
            f'<li id="query-{number}">Q{number} ({kind}, pass {event.pass_no}): '
            f"<q>{escape(event.query)}</q> → {counted(len(event.results), 'passage')}; new "
            f"primary sources: {escape(new)}</li>"
        )
    out.append('<ol class="queries">' + "".join(queries) + "</ol>")
    changed = {c.passage_id: c for c in changes}
    rows = evidence_considered(lines, answer)
    used = sum(1 for r in rows if r.cited_by)
    out.append(
        f"<p>{counted(len(rows), 'distinct passage')} retrieved, "
        f"{sum(1 for r in rows if r.given)} given to the generator, {used} cited.</p>"
    )
    body = "".join(_evidence_row(n, row, store, start, changed) for n, row in enumerate(rows, 1))
    out.append(
        '<table class="grid" id="evidence-table"><tr><th>#</th><th>passage</th>'
        "<th>authority</th><th>retrieved (query, rank, score)</th><th>relevance grade</th>"
        "<th>given</th><th>used</th><th>why</th></tr>" + body + "</table></section>"
    )
    return "".join(out)


def _evidence_row(
    n: int,
    row: EvidenceRow,
    store: StoreBackend | None,
    start: RunStartEvent,
    changed: dict[str, EvidenceChange],
) -> str:
    ref = row.ref
    where = (
        f"{escape(ref.doc_id)}@{escape(ref.version)} p{ref.page} [{ref.char_start}–{ref.char_end}]"
    )
    excerpt = ""
    if store is not None:
        source = store.lookup(ref.doc_id, ref.version, ref.page, tenant=start.tenant)
        if source is not None:
            text = " ".join(source.page.text[ref.char_start : ref.char_end].split())
            if len(text) > EXCERPT_CHARS:
                text = text[: EXCERPT_CHARS - 1] + "…"
            excerpt = f'<div class="excerpt">{escape(text)}</div>'
    change = changed.get(ref.passage_id)
    if change is not None:
        excerpt += (
            f'<div><span class="badge warn">{escape(change.status.value)}</span> '
            f"{escape(change.detail)}</div>"
        )
    found = ", ".join(f'<a href="#query-{q}">Q{q}</a> #{rank}' for q, rank in row.retrieved_by)
    used = (
        " ".join(f'<a href="#cite-{a.replace(".", "-")}">[{a}]</a>' for a in row.cited_by)
        if row.cited_by
        else "no"
    )
    flag = ' class="flagged"' if ref.flags else ""
    css = "used" if row.cited_by else "unused"
    return (
        f'<tr class="{css}" id="passage-{escape(ref.passage_id[:16])}"><td>{n}</td>'
        f"<td{flag}>{where}{excerpt}</td><td>{escape(ref.authority)}</td>"
        f"<td>{found}; score {ref.score:.3f}</td>"
        f"<td>{escape(row.grade) if row.grade else '—'}</td>"
        f"<td>{'yes' if row.given else 'no'}</td><td>{used}</td><td>{escape(row.why)}</td></tr>"
    )


def _policy(lines: Sequence[TraceLine], answer: GatedAnswer | None) -> str:
    rows = "".join(
        f"<tr><th>{escape(t.name)}</th>"
        f"<td>{f'<code>{escape(t.setting)}</code>' if t.setting else '—'}</td>"
        f"<td>{escape(t.limit)}</td><td>{escape(t.reached)}</td>"
        f"<td>{_status_badge(t.status)}</td></tr>"
        for t in thresholds(lines, answer)
    )
    return (
        '<section id="policy"><h2>Policy thresholds and budgets</h2>'
        '<p class="note">From the policy recorded at run start; "reached" is what this run '
        "used or achieved.</p>"
        '<table class="grid" id="thresholds"><tr><th></th><th>policy field</th>'
        "<th>policy value</th><th>reached</th><th>status</th></tr>"
        f"{rows}</table></section>"
    )


def _status_badge(status: str) -> str:
    if not status:
        return "—"
    return f'<span class="badge {_STATUS_BADGE.get(status, "muted")}">{escape(status)}</span>'


def _review(lines: Sequence[TraceLine], end: RunEndEvent | None, review: ReviewQueue | None) -> str:
    run_id = lines[0].run_id
    out = ['<section id="review"><h2>Review status</h2>']
    score = end.score if end is not None else None
    if end is None:
        out.append("<p>The run did not end: it was not scored.</p>")
    elif score is None:
        out.append(
            '<p id="judge-score">Not scored at run end: the policy\'s judges '
            "(<code>judges.triad</code>) were off, so the run could not be flagged "
            "automatically.</p>"
        )
    elif score.abstained:
        out.append('<p id="judge-score">Abstention: not scored, not flagged automatically.</p>')
    else:
        grounded = "n/a" if score.groundedness is None else f"{score.groundedness:.2f}"
        review_score = "n/a" if score.review_score is None else f"{score.review_score:.2f}"
        flags = (
            f'<span class="badge warn">flagged</span> {escape("; ".join(score.flag_reasons))}'
            if score.flag_reasons
            else '<span class="badge ok">not flagged</span>'
        )
        out.append(
            f'<p id="judge-score">Judges\' score at run end: groundedness {grounded}, quality '
            f"{score.quality if score.quality is not None else 'n/a'}, review score "
            f"{review_score} (1–4). {flags}</p>"
        )
    if review is None:
        out.append(
            '<p id="queue">The review queue was not read: pass <code>--store DIR</code> '
            "(Python: <code>review=ReviewQueue.open(DIR)</code>) to show this run's flags and "
            "feedback.</p>"
        )
    else:
        flagged = review.flags(run_id)
        feedback = review.feedback(run_id)
        if flagged:
            rows = "".join(
                f"<tr><td>{escape(f.time)}</td><td>{escape(f.reason)}</td>"
                f"<td>{'—' if f.score is None else f'{f.score:.2f}'}</td></tr>"
                for f in flagged
            )
            out.append(
                '<p id="queue"><span class="badge warn">in the review queue</span> '
                f"{counted(len(flagged), 'flag')} for run <code>{escape(run_id)}</code>:</p>"
                '<table class="grid"><tr><th>time (UTC)</th><th>reason</th>'
                f"<th>review score</th></tr>{rows}</table>"
            )
        else:
            out.append(
                '<p id="queue"><span class="badge ok">not in the review queue</span> no flag '
                f"for run <code>{escape(run_id)}</code>.</p>"
            )
        if feedback:
            rows = "".join(
                f"<tr><td>{escape(f.verdict)}</td><td>{escape(f.note or '')}</td>"
                f"<td>{'—' if f.auto_score is None else f'{f.auto_score:.2f}'}</td>"
                f"<td>{'—' if f.disagreement is None else f'{f.disagreement:.2f}'}</td></tr>"
                for f in feedback
            )
            out.append(
                '<table class="grid" id="feedback"><tr><th>reviewer verdict</th><th>note</th>'
                f"<th>automatic score</th><th>disagreement</th></tr>{rows}</table>"
            )
        else:
            out.append('<p id="feedback">No reviewer feedback is recorded for this run.</p>')
    out.append(
        '<div class="signoff"><p>Reviewer: ____________________ &nbsp; Date: __________ '
        "&nbsp; Decision: approved / rejected</p></div></section>"
    )
    return "".join(out)


def _replay(replay: ReplayResult | None, store: StoreBackend | None) -> str:
    out = ['<section id="replay"><h2>Replay</h2>']
    if replay is None:
        how = "evidencegate report TRACE --store DIR --replay"
        out.append(
            f"<p>Not replayed. <code>{escape(how)}</code> re-runs the loop on the recorded "
            "outputs and shows whether it reaches the same decisions"
            + ("" if store is not None else " (drift needs the store too)")
            + ".</p></section>"
        )
        return "".join(out)
    mode = f"counterfactual, policy {replay.policy}" if replay.counterfactual else "as recorded"
    verdicts = {
        0: ("ok", "identical decisions, cited sources unchanged"),
        3: ("bad", "diverged"),
        4: ("warn", "identical decisions, but the sources drifted"),
        5: ("warn", "identical so far, but the recording is incomplete"),
    }
    kind, verdict = verdicts.get(replay.exit_code, ("bad", f"exit {replay.exit_code}"))
    out.append(
        f'<p id="replay-result"><span class="badge {kind}">{escape(verdict)}</span> '
        f"({escape(mode)}; {replay.replayed_events} events replayed against "
        f"{replay.recorded_events} recorded; <code>evidencegate replay</code> exit "
        f"{replay.exit_code}).</p>"
    )
    if replay.policy_fields_added:
        out.append(
            "<p>Policy fields the recording lacks, replayed at their defaults: "
            f"{escape(', '.join(replay.policy_fields_added))}.</p>"
        )
    div = replay.divergence
    if div is not None:
        where = f" at <code>{escape(div.path)}</code>" if div.path else ""
        out.append(
            f'<p id="divergence">First difference at seq {div.seq}{where}: recorded '
            f"{escape(div.recorded_kind or 'nothing')}, replayed "
            f"{escape(div.replayed_kind or 'nothing')}.</p>"
            f'<pre class="json">recorded: {escape(div.recorded or "(no event)")}\n'
            f"replayed: {escape(div.replayed or '(no event)')}</pre>"
        )
    if replay.replayed_answer is not None:
        a = replay.replayed_answer
        out.append(
            f"<p>Replayed answer: {escape(a.outcome.value)} (stop {escape(a.stop_reason.value)}, "
            f"coverage {a.coverage:.2f}, {counted(len(a.claims), 'claim')}).</p>"
        )
    out.append("</section>")
    return "".join(out)


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
                f"{ref.doc_id}@{ref.version} p{ref.page} ({flag_names(ref.flags)})"
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
                f"{kind} <q>{escape(event.query)}</q> → {counted(len(event.results), 'passage')}; "
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
                f"generator {generator} drafted {counted(len(event.output.claims), 'claim')} "
                f"from {counted(len(event.evidence_ids), 'passage')}{avoid}"
            )
        case VerificationEvent():
            ok = sum(1 for r in event.results if r.ok)
            failed = [
                f"{r.claim_id}: {', '.join(x.value for x in r.reasons)}"
                for r in event.results
                if not r.ok
            ]
            tail = f"; failed: {escape('; '.join(failed))}" if failed else ""
            return f"{ok} of {counted(len(event.results), 'claim')} verified{tail}"
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
                f"{escape(sel.strategy.value)}, {counted(len(sel.used_ids), 'passage')} used; "
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


def _pass_of(event: TraceEvent) -> int | None:
    if isinstance(event, DecisionEvent):
        return event.decision.pass_no
    pass_no = getattr(event, "pass_no", None)
    return pass_no if isinstance(pass_no, int) else None


def _time(ts: str) -> str:
    moment = dt.datetime.fromisoformat(ts).astimezone(dt.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
