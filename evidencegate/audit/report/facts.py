"""What the reviewer's report states, as data: derived from a trace and the store as it is now.

:mod:`evidencegate.audit.report.html` only renders what these functions return, so each statement of
the report can be checked without parsing HTML:

- :func:`final_claims`: for each claim of the recorded answer, the verification the verifier
  recorded for it (matched by claim id and citations, since a later pass may redraft a claim
  under the same id) and the critic's audit of that pass;
- :func:`citation_checks` and :func:`claim_checks`: the verifier's checks with their results.
  The trace records the verifier's failures; a check that recorded no failure passed, unless a
  failure it depends on kept it from running (no page: no quote search; no located quote: no
  number, date or negation comparison). A failure of a check this module does not know (a newer
  verifier) is shown under its own reason, never dropped;
- :func:`version_timelines`: every stored version of each cited document, which one was cited,
  which was in force on the as-of date, and what superseded it;
- :func:`evidence_considered`: every retrieved passage, its relevance grade when a judge graded
  it, whether it was given to the generator and cited, and why not;
- :func:`thresholds`: the policy's thresholds and budgets beside the values the run reached;
- :data:`STOP_EXPLANATIONS`: what each stop reason means, in words.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from evidencegate.contracts import (
    CitationCheck,
    ClaimAudit,
    ClaimVerification,
    DocumentVersion,
    FailureReason,
    GatedAnswer,
    Outcome,
    StopReason,
)
from evidencegate.corpus.backends import StoreBackend
from evidencegate.hygiene import flag_names
from evidencegate.trace.events import (
    AuditEvent,
    DecisionEvent,
    DraftEvent,
    ModelCallEvent,
    RelevanceEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    RunStartEvent,
    TraceLine,
    TriadEvent,
    VerificationEvent,
)
from evidencegate.verify.quotes import quote_fragments

__all__ = [
    "STOP_EXPLANATIONS",
    "Check",
    "CheckStatus",
    "EvidenceRow",
    "FinalClaim",
    "Threshold",
    "Timeline",
    "VersionRow",
    "citation_checks",
    "claim_checks",
    "counted",
    "evidence_considered",
    "final_claims",
    "final_decision",
    "quote_length",
    "recorded_authorities",
    "thresholds",
    "version_timelines",
]

STOP_EXPLANATIONS: Mapping[StopReason, str] = {
    StopReason.CONTRACT_MET: (
        "the contract was met: every claim passed the verifier and the critic found it "
        "supported, and required-fact coverage reached coverage_threshold"
    ),
    StopReason.MAX_PASSES: (
        "the reflection passes ran out (max_passes) before the contract was met"
    ),
    StopReason.NO_CONCRETE_GAP: (
        "the critic named no concrete gap to look for (no follow-up query), or no follow-up "
        "retrieval was left, so another pass could not add evidence"
    ),
    StopReason.NO_NEW_SOURCE: "a follow-up retrieval returned no new primary source",
    StopReason.NO_EVIDENCE: "retrieval found no passage to answer from",
    StopReason.BUDGET_TIME: "the time budget (time_budget.per_run_s) ran out",
    StopReason.BUDGET_TOKENS: "the token budget (max_tokens) ran out",
    StopReason.BUDGET_COST: "the cost budget (max_cost_usd) ran out",
    StopReason.BUDGET_RETRIEVALS: "the retrieval budget (max_retrievals) ran out",
    StopReason.BUDGET_CALLS: "the model-call budget (max_model_calls) ran out",
    StopReason.CRITIC_INVALID: (
        "the critic's output failed its schema after the one repair attempt: the run failed closed"
    ),
    StopReason.COMPONENT_ERROR: "a component failed: the run failed closed",
    StopReason.NO_REFLECTION: (
        "baseline arm: one draft, verified but not audited by a critic and not retried"
    ),
}


# --------------------------------------------------------------------------- final claims


@dataclass(frozen=True)
class FinalClaim:
    """A claim of the recorded answer with what the verifier and the critic recorded for it."""

    claim_id: str
    pass_no: int | None
    verification: ClaimVerification | None
    audit: ClaimAudit | None


def final_claims(lines: Sequence[TraceLine], answer: GatedAnswer) -> list[FinalClaim]:
    """Each claim of ``answer`` with its recorded verification and audit (None when absent).

    The verification is the latest one of the same claim id citing the same quotes; the audit
    is the critic's judgement of that claim in the same pass.
    """
    verifications = [line.event for line in lines if isinstance(line.event, VerificationEvent)]
    audits = {
        line.event.pass_no: line.event.output
        for line in lines
        if isinstance(line.event, AuditEvent)
    }
    out = []
    for claim in answer.claims:
        cited = [(c.doc_id, c.version, c.page, c.quote) for c in claim.citations]
        found: tuple[int, ClaimVerification] | None = None
        for event in reversed(verifications):
            for result in event.results:
                recorded = [
                    (k.citation.doc_id, k.citation.version, k.citation.page, k.citation.quote)
                    for k in result.citations
                ]
                if result.claim_id == claim.claim_id and recorded == cited:
                    found = (event.pass_no, result)
                    break
            if found is not None:
                break
        if found is None:
            out.append(FinalClaim(claim.claim_id, None, None, None))
            continue
        pass_no, verification = found
        audit = audits.get(pass_no)
        judged = (
            next((a for a in audit.claims if a.claim_id == claim.claim_id), None)
            if audit is not None
            else None
        )
        out.append(FinalClaim(claim.claim_id, pass_no, verification, judged))
    return out


# --------------------------------------------------------------------------- verifier checks


class CheckStatus(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_RUN = "not run"
    OFF = "off"


@dataclass(frozen=True)
class Check:
    """One check of the verifier and its result on one citation or claim."""

    name: str
    status: CheckStatus
    detail: str


_R = FailureReason
_RETRIEVED = "retrieved in this run"
_IN_STORE = "document version and page in the store"
_LENGTH = "quote length"
_FOUND = "quote found verbatim"
_AUTHORITY = "authority allowed (primary source)"
_IN_FORCE = "version in force on the as-of date"
_HYGIENE = "no text addressed to a model"
_CITATION_CHECKS: tuple[tuple[str, frozenset[FailureReason]], ...] = (
    (_RETRIEVED, frozenset({_R.NOT_RETRIEVED})),
    (_IN_STORE, frozenset({_R.DOCUMENT_NOT_FOUND, _R.PAGE_NOT_FOUND})),
    (_LENGTH, frozenset({_R.QUOTE_TOO_SHORT})),
    (_FOUND, frozenset({_R.QUOTE_NOT_FOUND, _R.FRAGMENTS_OUT_OF_ORDER})),
    (_AUTHORITY, frozenset({_R.AUTHORITY_NOT_ALLOWED})),
    (_IN_FORCE, frozenset({_R.NOT_IN_FORCE})),
    (_HYGIENE, frozenset({_R.INSTRUCTION_LIKE_TEXT})),
)
_CLAIM_CHECKS: tuple[tuple[str, frozenset[FailureReason], str], ...] = (
    (
        "cites a source",
        frozenset({_R.NO_CITATION}),
        "the claim cites at least one source",
    ),
    (
        "numbers stated by the quotes",
        frozenset({_R.NUMBER_MISMATCH}),
        "every number and amount the claim states is stated by a located quote",
    ),
    (
        "dates stated by the quotes",
        frozenset({_R.DATE_MISMATCH}),
        "every date the claim states is stated by a located quote",
    ),
    (
        "negation agrees with the quotes",
        frozenset({_R.NEGATION_MISMATCH}),
        "the claim negates what its quotes negate, and nothing else",
    ),
)


_DERIVED = "derived-claim arithmetic"
_DERIVED_REASONS = frozenset({"operand_not_quoted", "derivation_invalid", "derivation_mismatch"})
"""The verifier's failure reasons of a derived claim (compared by value: they are newer than
some recorded traces' readers)."""
_NOTHING_LOCATED = "no quote was located: nothing to compare with"


def recorded_authorities(policy: Mapping[str, Any]) -> list[str]:
    """The recorded policy's allowed_authorities ([] when it lacks them)."""
    recorded = policy.get("allowed_authorities")
    return [str(a) for a in recorded] if isinstance(recorded, list) else []


def quote_length(quote: str) -> int:
    """The characters of a quote after the verifier's normalisation (what min_quote_chars
    is compared with)."""
    return sum(len(fragment) for fragment in quote_fragments(quote))


def citation_checks(
    check: CitationCheck,
    *,
    as_of: dt.date,
    policy: Mapping[str, Any],
    authority: str | None,
) -> list[Check]:
    """The verifier's checks of one citation, from its recorded result.

    ``policy`` is the recorded policy (a mapping: a trace may predate some fields);
    ``authority`` is the cited version's authority as retrieved, when known.
    """
    citation = check.citation
    cited = f"{citation.doc_id}@{citation.version}"
    failed = {
        name: [f for f in check.failures if f.reason in reasons]
        for name, reasons in _CITATION_CHECKS
    }
    no_source = bool(failed[_IN_STORE])
    located = citation.char_start is not None and citation.char_end is not None
    allowed = ", ".join(recorded_authorities(policy)) or "not recorded"
    passed = {
        _RETRIEVED: f"{cited} is among the passages this run retrieved",
        _IN_STORE: f"{cited} page {citation.page} is in the store",
        _LENGTH: (
            f"{quote_length(citation.quote)} characters after normalisation "
            f"(min_quote_chars={policy.get('min_quote_chars', 'not recorded')})"
        ),
        _FOUND: f"at characters {citation.char_start}–{citation.char_end} of page {citation.page}",
        _AUTHORITY: f"{authority or 'authority not recorded'}; allowed: {allowed}",
        _IN_FORCE: f"{cited} was in force on {as_of.isoformat()} when the run checked it",
        _HYGIENE: "the passage holding the quote carries no text addressed to a model",
    }
    out = []
    for name, _ in _CITATION_CHECKS:
        if failed[name]:
            out.append(Check(name, CheckStatus.FAILED, "; ".join(f.detail for f in failed[name])))
        elif no_source and name in (_FOUND, _AUTHORITY, _IN_FORCE, _HYGIENE):
            out.append(Check(name, CheckStatus.NOT_RUN, "the cited page is not in the store"))
        elif name == _HYGIENE and policy.get("instruction_like_evidence") == "allow":
            out.append(Check(name, CheckStatus.OFF, "policy instruction_like_evidence=allow"))
        elif name == _HYGIENE and not located:
            out.append(Check(name, CheckStatus.NOT_RUN, "the quote was not located"))
        else:
            out.append(Check(name, CheckStatus.PASSED, passed[name]))
    known = {reason for _, reasons in _CITATION_CHECKS for reason in reasons}
    out.extend(
        Check(f.reason.value, CheckStatus.FAILED, f.detail)
        for f in check.failures
        if f.reason not in known
    )
    return out


def claim_checks(verification: ClaimVerification, *, derived: bool = False) -> list[Check]:
    """The verifier's claim-level checks: the claim against every quote that was located.

    ``derived``: the claim computes its figure from quoted operands (``Claim.derivation``); the
    verifier then recomputes it, and the arithmetic is one more check.
    """
    located = any(c.citation.char_start is not None for c in verification.citations)
    out = []
    for name, reasons, passed in _CLAIM_CHECKS:
        failed = [f for f in verification.failures if f.reason in reasons]
        if failed:
            out.append(Check(name, CheckStatus.FAILED, "; ".join(f.detail for f in failed)))
        elif not located and reasons != {_R.NO_CITATION}:
            out.append(Check(name, CheckStatus.NOT_RUN, _NOTHING_LOCATED))
        else:
            out.append(Check(name, CheckStatus.PASSED, passed))
    arithmetic = [f for f in verification.failures if f.reason.value in _DERIVED_REASONS]
    if arithmetic:
        out.append(Check(_DERIVED, CheckStatus.FAILED, "; ".join(f.detail for f in arithmetic)))
    elif derived:
        status = CheckStatus.PASSED if located else CheckStatus.NOT_RUN
        detail = (
            "the result recomputed exactly from the operands read in the cited quotes"
            if located
            else _NOTHING_LOCATED
        )
        out.append(Check(_DERIVED, status, detail))
    known = {reason.value for _, reasons, _ in _CLAIM_CHECKS for reason in reasons}
    out.extend(
        Check(f.reason.value, CheckStatus.FAILED, f.detail)
        for f in verification.failures
        if f.reason.value not in known | _DERIVED_REASONS
    )
    return out


# --------------------------------------------------------------------------- versions


@dataclass(frozen=True)
class VersionRow:
    """One stored version of a cited document."""

    document: DocumentVersion
    cited_by: list[str]
    """Citation anchors ("1.2": claim 1, citation 2) citing this version."""
    in_force_on_as_of: bool
    note: str


@dataclass(frozen=True)
class Timeline:
    """Every version of one cited document in the store now, oldest first."""

    doc_id: str
    title: str
    rows: list[VersionRow]
    summary: list[str]
    """One sentence per cited version: still in force, or superseded by which and when."""


def version_timelines(
    answer: GatedAnswer, store: StoreBackend, *, tenant: str | None = None
) -> list[Timeline]:
    """The version timeline of each document the answer cites, in order of first citation."""
    cited: dict[str, dict[str, list[str]]] = {}
    for i, claim in enumerate(answer.claims, start=1):
        for j, citation in enumerate(claim.citations, start=1):
            versions = cited.setdefault(citation.doc_id, {})
            versions.setdefault(citation.version, []).append(f"{i}.{j}")
    as_of = answer.as_of
    out = []
    for doc_id, cited_versions in cited.items():
        stored = store.versions(doc_id, tenant)
        by_version = {v.version: v for v in stored}
        rows = [
            VersionRow(
                document=v,
                cited_by=cited_versions.get(v.version, []),
                in_force_on_as_of=v.in_force(as_of),
                note=_version_note(v, as_of),
            )
            for v in stored
        ]
        summary = []
        for version in cited_versions:
            document = by_version.get(version)
            if document is None:
                summary.append(f"cited version {version} is not in the store now")
                continue
            summary.append(f"cited version {version}: {_version_note(document, as_of)}")
        title = next((v.title for v in stored if v.title), "")
        out.append(Timeline(doc_id=doc_id, title=title, rows=rows, summary=summary))
    return out


def _version_note(document: DocumentVersion, as_of: dt.date) -> str:
    """In force on the as-of date or not, and what superseded it (the store names it)."""
    day = as_of.isoformat()
    if document.effective_to is None:
        if document.effective_from > as_of:
            return f"in force from {document.effective_from} (after the as-of date {day})"
        return "in force, no later version in the store"
    successor = document.superseded_by
    by = f"superseded by {successor}" if successor else "no longer in force"
    when = f"on {document.effective_to.isoformat()}"
    if document.effective_to > as_of:
        return f"{by} {when}, after the as-of date {day}: in force on that date"
    if document.effective_from > as_of:
        return f"in force from {document.effective_from} (after the as-of date {day}); {by} {when}"
    return f"{by} {when}, on or before the as-of date {day}: not in force on that date"


# --------------------------------------------------------------------------- evidence

_OVER_CAP = "not given to the generator: the evidence of a pass is capped at"


@dataclass(frozen=True)
class EvidenceRow:
    """One passage the run retrieved (each passage once, in order of first retrieval)."""

    ref: RetrievedRef
    retrieved_by: list[tuple[int, int]]
    """(query number, rank), both 1-based, for every retrieval that returned it."""
    grade: str
    """The relevance judge's grade, or "" when no judge graded it."""
    given: bool
    """Given to the generator in at least one pass."""
    cited_by: list[str]
    """Citation anchors of the recorded answer citing it."""
    why: str


def evidence_considered(
    lines: Sequence[TraceLine], answer: GatedAnswer | None
) -> list[EvidenceRow]:
    """Every retrieved passage, graded, marked used or not, with the reason."""
    events = [line.event for line in lines]
    retrievals = [e for e in events if isinstance(e, RetrievalEvent)]
    policy = events[0].policy if events and isinstance(events[0], RunStartEvent) else {}
    first: dict[str, RetrievedRef] = {}
    retrieved_by: dict[str, list[tuple[int, int]]] = {}
    retrieved_at: dict[str, int] = {}
    for number, retrieval in enumerate(retrievals, start=1):
        for rank, ref in enumerate(retrieval.results, start=1):
            first.setdefault(ref.passage_id, ref)
            retrieved_by.setdefault(ref.passage_id, []).append((number, rank))
    for seq, event in enumerate(events):
        if isinstance(event, RetrievalEvent):
            for ref in event.results:
                retrieved_at.setdefault(ref.passage_id, seq)
    drafts = [(seq, e) for seq, e in enumerate(events) if isinstance(e, DraftEvent)]
    last_draft = drafts[-1][0] if drafts else -1
    given: dict[str, list[int]] = {}
    drafted: dict[str, list[tuple[int, str]]] = {}
    for _, draft in drafts:
        for pid in draft.evidence_ids:
            given.setdefault(pid, []).append(draft.pass_no)
        for claim in draft.output.claims:
            for citation in claim.citations:
                if citation.evidence_id:
                    drafted.setdefault(citation.evidence_id, []).append(
                        (draft.pass_no, claim.claim_id)
                    )
    relevance = [e.selection for e in events if isinstance(e, RelevanceEvent)]
    selection = relevance[-1] if relevance else None
    labels = {j.passage_id: j for j in selection.judgements} if selection else {}
    triads = [e for e in events if isinstance(e, TriadEvent)]
    context_scores = {c.passage_id: c for c in triads[-1].output.context} if triads else {}
    cited: dict[str, list[str]] = {}
    dropped: dict[str, list[str]] = {}
    if answer is not None:
        for i, claim in enumerate(answer.claims, start=1):
            for j, citation in enumerate(claim.citations, start=1):
                if citation.evidence_id:
                    cited.setdefault(citation.evidence_id, []).append(f"{i}.{j}")
        dropped = {d.claim_id: d.reasons for d in answer.dropped_claims}

    rows = []
    for pid, ref in first.items():
        grades = []
        if pid in labels:
            grades.append(f"{labels[pid].label.value.replace('_', ' ')} (relevance judge)")
        if pid in context_scores:
            grades.append(f"context relevance {context_scores[pid].score}/3 (triad)")
        if pid in cited:
            why = f"cited by claim {', '.join(cited[pid])}"
        elif selection is not None and pid not in selection.used_ids:
            judged = labels.get(pid)
            why = "left out by the relevance stage" + (
                f": judged {judged.label.value.replace('_', ' ')} ({judged.reason})"
                if judged
                else f" (strategy {selection.strategy.value})"
            )
        elif pid not in given:
            if not drafts:
                why = "no draft was made"
            elif retrieved_at[pid] > last_draft:
                why = "retrieved after the last draft"
            else:
                why = (
                    f"{_OVER_CAP} max_evidence_chars="
                    f"{policy.get('max_evidence_chars', 'not recorded')}"
                )
        elif pid in drafted:
            claims = []
            for pass_no, claim_id in drafted[pid]:
                reasons = dropped.get(claim_id)
                fate = f"dropped: {', '.join(reasons)}" if reasons else "not in the answer"
                claims.append(f"claim {claim_id} of pass {pass_no} ({fate})")
            why = "cited in a draft only: " + "; ".join(claims)
        else:
            passes = ", ".join(str(p) for p in sorted(set(given[pid])))
            why = f"given to the generator (pass {passes}); no claim cites it"
        if ref.flags:
            why += f"; flagged: text addressed to a model ({flag_names(ref.flags)})"
        rows.append(
            EvidenceRow(
                ref=ref,
                retrieved_by=retrieved_by[pid],
                grade="; ".join(grades),
                given=pid in given,
                cited_by=cited.get(pid, []),
                why=why,
            )
        )
    return rows


# --------------------------------------------------------------------------- thresholds


@dataclass(frozen=True)
class Threshold:
    """A policy threshold or budget beside the value the run reached."""

    name: str
    setting: str
    """The policy field ("" when the row is not one field)."""
    limit: str
    reached: str
    status: str
    """met | not met | within | reached | at cap | applied | not needed | "" (no verdict)."""


def thresholds(lines: Sequence[TraceLine], answer: GatedAnswer | None) -> list[Threshold]:
    """The recorded policy's thresholds and budgets with the values this run reached."""
    events = [line.event for line in lines]
    start = events[0]
    if not isinstance(start, RunStartEvent):
        return []
    policy: Mapping[str, Any] = start.policy
    end = events[-1] if isinstance(events[-1], RunEndEvent) else None
    retrievals = [e for e in events if isinstance(e, RetrievalEvent)]
    calls = [e for e in events if isinstance(e, ModelCallEvent)]
    drafts = [e for e in events if isinstance(e, DraftEvent)]
    sizes = {ref.passage_id: ref.char_end - ref.char_start for e in retrievals for ref in e.results}
    rows: list[Threshold] = []

    def setting(field: str) -> Any:
        node: Any = policy
        for part in field.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        return node

    def number(field: str) -> float | None:
        """A numeric setting, or None when the recorded policy lacks it (an older policy)."""
        value = setting(field)
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return float(value) if is_number else None

    def limit_row(
        name: str, field: str, used: float, shown: str, *, plus: int = 0, cap: bool = False
    ) -> None:
        """A budget (reached: the run could not go on) or a cap (at cap: it was cut)."""
        value = number(field)
        if value is None:
            rows.append(Threshold(name, field, "not recorded", shown, ""))
            return
        limit = value + plus
        full = "at cap" if cap else "reached"
        text = f"{plus} + {_number_text(value)}" if plus else _number_text(limit)
        rows.append(Threshold(name, field, text, shown, full if used >= limit else "within"))

    if answer is not None:
        coverage_at = number("coverage_threshold")
        rows.append(
            Threshold(
                "Required-fact coverage",
                "coverage_threshold",
                "not recorded" if coverage_at is None else _number_text(coverage_at),
                f"{answer.coverage:.2f}",
                ""
                if coverage_at is None
                else ("met" if answer.coverage >= coverage_at else "not met"),
            )
        )
        claims = final_claims(lines, answer)
        verified = sum(1 for c in claims if c.verification is not None and c.verification.ok)
        audited = [c.audit for c in claims if c.audit is not None]
        supported = sum(1 for a in audited if a.verdict.value == "supported")
        if claims:
            rows.append(
                Threshold(
                    "Claims passing the verifier",
                    "",
                    "every claim",
                    f"{verified} of {len(claims)}",
                    "met" if verified == len(claims) else "not met",
                )
            )
            rows.append(
                Threshold(
                    "Claims the critic found supported",
                    "",
                    "every claim",
                    f"{supported} of {len(audited)} audited" if audited else "not audited",
                    ("met" if supported == len(claims) else "not met") if audited else "",
                )
            )
            scores = [a.support_score for a in audited if a.support_score is not None]
            min_support = number("min_support_score")
            if scores and min_support is not None:
                least = min(scores)
                rows.append(
                    Threshold(
                        "Lowest support score (rules critic)",
                        "min_support_score",
                        _number_text(min_support),
                        f"{least:.2f}",
                        "met" if least >= min_support else "not met",
                    )
                )
        citations = [c for claim in answer.claims for c in claim.citations]
        if citations:
            shortest = min(quote_length(c.quote) for c in citations)
            minimum = number("min_quote_chars")
            rows.append(
                Threshold(
                    "Shortest cited quote (characters)",
                    "min_quote_chars",
                    "not recorded" if minimum is None else _number_text(minimum),
                    str(shortest),
                    "" if minimum is None else ("met" if shortest >= minimum else "not met"),
                )
            )
            authority = {ref.passage_id: ref.authority for e in retrievals for ref in e.results}
            used = sorted({authority.get(c.evidence_id or "", "unknown") for c in citations})
            allowed = recorded_authorities(policy)
            rows.append(
                Threshold(
                    "Authority of the cited sources",
                    "allowed_authorities",
                    ", ".join(allowed) or "not recorded",
                    ", ".join(used),
                    "met" if set(used) <= set(allowed) else "not met",
                )
            )
    flagged = {ref.passage_id for e in retrievals for ref in e.results if ref.flags}
    cited_ids = {
        c.evidence_id for claim in (answer.claims if answer else []) for c in claim.citations
    }
    rows.append(
        Threshold(
            "Passages with text addressed to a model",
            "instruction_like_evidence",
            str(setting("instruction_like_evidence") or "not recorded"),
            f"{len(flagged)} retrieved, {len(flagged & cited_ids)} cited",
            "",
        )
    )
    if answer is not None:
        met = answer.stop_reason in (StopReason.CONTRACT_MET, StopReason.NO_REFLECTION)
        rows.append(
            Threshold(
                "When the contract is not met",
                "on_fail",
                str(setting("on_fail") or "not recorded"),
                f"outcome {answer.outcome.value}",
                "not needed" if met and answer.outcome is Outcome.ANSWERED else "applied",
            )
        )
    passes = answer.passes if answer else max((d.pass_no for d in drafts), default=0)
    limit_row("Passes (1 + reflection passes)", "max_passes", passes, str(passes), plus=1)
    limit_row("Retrievals", "max_retrievals", len(retrievals), str(len(retrievals)))
    followups = sum(1 for r in retrievals if r.purpose == "follow_up")
    limit_row("Follow-up retrievals", "max_followups", followups, str(followups))
    widest = max((len(r.results) for r in retrievals), default=0)
    limit_row("Passages per retrieval (most)", "top_k", widest, str(widest), cap=True)
    given = max((sum(sizes.get(pid, 0) for pid in d.evidence_ids) for d in drafts), default=0)
    left_out = sum(1 for row in evidence_considered(lines, answer) if _OVER_CAP in row.why)
    limit = number("max_evidence_chars")
    rows.append(
        Threshold(
            "Evidence characters given in a pass (most)",
            "max_evidence_chars",
            "not recorded" if limit is None else _number_text(limit),
            f"{given}" + (f"; {counted(left_out, 'passage')} left out" if left_out else ""),
            "at cap" if left_out else "within",
        )
    )
    limit_row("Model calls", "max_model_calls", len(calls), str(len(calls)))
    tokens = sum(c.input_tokens + c.output_tokens for c in calls)
    limit_row("Tokens (in + out)", "max_tokens", tokens, str(tokens))
    cost = sum(c.cost_usd for c in calls)
    limit_row("Cost (USD)", "max_cost_usd", cost, f"{cost:.4f}")
    per_run_s = number("time_budget.per_run_s")
    elapsed = end.elapsed_ms if end else None
    rows.append(
        Threshold(
            "Time (ms)",
            "time_budget.per_run_s",
            "not recorded" if per_run_s is None else f"{float(per_run_s) * 1000:.0f}",
            "not recorded" if elapsed is None else f"{elapsed:.1f}",
            ""
            if per_run_s is None or elapsed is None
            else ("reached" if elapsed >= float(per_run_s) * 1000 else "within"),
        )
    )
    score = end.score if end else None
    if setting("judges.triad") and score is not None and not score.abstained:
        grounded_at = number("judges.grounded_at")
        if score.groundedness is not None and grounded_at is not None:
            rows.append(
                Threshold(
                    "Groundedness (triad)",
                    "judges.grounded_at",
                    _number_text(grounded_at),
                    f"{score.groundedness:.2f}",
                    "met" if score.groundedness >= grounded_at else "not met",
                )
            )
        flag_at = number("judges.flag_threshold")
        if score.review_score is not None and flag_at is not None:
            rows.append(
                Threshold(
                    "Review score (below: flagged for review)",
                    "judges.flag_threshold",
                    _number_text(flag_at),
                    f"{score.review_score:.2f}",
                    "met" if score.review_score >= flag_at else "not met",
                )
            )
    return rows


def _number_text(value: float) -> str:
    """A policy number as written: 30, 0.5, 200000 (never 30.0 or 2e+05)."""
    return str(int(value)) if value.is_integer() else f"{value:g}"


def counted(n: int, noun: str) -> str:
    """The count with its noun: 1 passage, 3 passages."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def final_decision(lines: Sequence[TraceLine]) -> DecisionEvent | None:
    """The last decision the controller recorded (the one that ended the run)."""
    decisions = [line.event for line in lines if isinstance(line.event, DecisionEvent)]
    return decisions[-1] if decisions else None
