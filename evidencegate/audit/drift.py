"""Drift: does each source a recorded answer cites still say the same thing, as of the same date?

A recorded answer cites ``doc_id@version``, a page and a quote located at ``char_start:char_end``
of that page. :func:`citation_drift` re-resolves every citation against the store as it is NOW
and reports, per citation, one :class:`DriftStatus`:

``document_missing``  the cited version is no longer in the store (e.g. a rebuilt store);
``text_changed``      the page is gone, or the quote is no longer found at the recorded offsets;
``superseded``        another version of the document (or none) is now in force on the answer's
                      as-of date: a version was ingested with an effective date on or before it;
``unchanged``         none of the above.

Drift is judged on the answer's as-of date on purpose: a version that comes into force after
that date does not make the answer wrong for that date. Such later versions are still listed in
``later_versions`` so that a reviewer sees that the source has moved on.

:func:`evidence_drift` does the same for the passages a run retrieved (not only those it cited):
whether each recorded passage's text still hashes to what the trace recorded.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, GatedAnswer
from evidencegate.corpus.backends import StoreBackend
from evidencegate.trace.events import RetrievedRef
from evidencegate.verify.quotes import QuoteMatch, locate_quote

__all__ = [
    "CitationDrift",
    "DriftStatus",
    "EvidenceChange",
    "LaterVersion",
    "citation_drift",
    "evidence_drift",
]


class DriftStatus(StrEnum):
    UNCHANGED = "unchanged"
    TEXT_CHANGED = "text_changed"
    SUPERSEDED = "superseded"
    DOCUMENT_MISSING = "document_missing"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LaterVersion(_Frozen):
    """A version of the cited document that comes into force after the answer's as-of date."""

    version: str
    version_date: dt.date
    effective_from: dt.date


class CitationDrift(_Frozen):
    """One cited span of a recorded answer, re-resolved against the current store."""

    claim_id: str
    doc_id: str
    version: str
    page: int
    quote: str
    status: DriftStatus
    detail: str
    superseded_by: str | None = None
    """The version in force on the as-of date now (None when superseded by nothing)."""
    superseded_from: dt.date | None = None
    """The date the cited version stopped being in force (its current ``effective_to``)."""
    successor_version_date: dt.date | None = None
    later_versions: list[LaterVersion] = []

    @property
    def drifted(self) -> bool:
        return self.status is not DriftStatus.UNCHANGED


class EvidenceChange(_Frozen):
    """A retrieved passage of the recording whose text the store no longer holds as recorded."""

    passage_id: str
    doc_id: str
    version: str
    page: int
    char_start: int
    char_end: int
    status: DriftStatus
    detail: str


def citation_drift(
    answer: GatedAnswer, store: StoreBackend, *, tenant: str | None = None
) -> list[CitationDrift]:
    """Re-resolve every citation of ``answer`` against ``store`` as it is now, in claim order."""
    return [
        _one_citation(claim.claim_id, citation, answer.as_of, store, tenant)
        for claim in answer.claims
        for citation in claim.citations
    ]


def evidence_drift(
    refs: Iterable[RetrievedRef], store: StoreBackend, *, tenant: str | None = None
) -> list[EvidenceChange]:
    """The recorded passages whose text is missing from, or different in, the current store.

    Each passage is checked once (by passage_id), in the order first retrieved.
    """
    changes: list[EvidenceChange] = []
    seen: set[str] = set()
    for ref in refs:
        if ref.passage_id in seen:
            continue
        seen.add(ref.passage_id)
        source = store.lookup(ref.doc_id, ref.version, ref.page, tenant=tenant)
        where = f"{ref.doc_id}@{ref.version} page {ref.page} [{ref.char_start}:{ref.char_end}]"
        if source is None:
            missing = store.document(ref.doc_id, ref.version, tenant) is None
            status = DriftStatus.DOCUMENT_MISSING if missing else DriftStatus.TEXT_CHANGED
            detail = f"{where}: " + (
                "the version is not in the store" if missing else "the page is not in the store"
            )
        elif sha256_hex(source.page.text[ref.char_start : ref.char_end]) != ref.text_sha256:
            status = DriftStatus.TEXT_CHANGED
            detail = f"{where}: the text at these offsets no longer hashes to the recorded sha256"
        else:
            continue
        changes.append(
            EvidenceChange(
                passage_id=ref.passage_id,
                doc_id=ref.doc_id,
                version=ref.version,
                page=ref.page,
                char_start=ref.char_start,
                char_end=ref.char_end,
                status=status,
                detail=detail,
            )
        )
    return changes


def _one_citation(
    claim_id: str, citation: Citation, as_of: dt.date, store: StoreBackend, tenant: str | None
) -> CitationDrift:
    cited = f"{citation.doc_id}@{citation.version}"

    def drift(status: DriftStatus, detail: str, **extra: object) -> CitationDrift:
        return CitationDrift.model_validate(
            {
                "claim_id": claim_id,
                "doc_id": citation.doc_id,
                "version": citation.version,
                "page": citation.page,
                "quote": citation.quote,
                "status": status,
                "detail": detail,
                **extra,
            }
        )

    document = store.document(citation.doc_id, citation.version, tenant)
    if document is None:
        others = [v.version for v in store.versions(citation.doc_id, tenant)]
        known = f"stored versions: {', '.join(others)}" if others else "no version is stored"
        return drift(DriftStatus.DOCUMENT_MISSING, f"{cited} is not in the store ({known})")
    later = [
        LaterVersion(
            version=v.version, version_date=v.version_date, effective_from=v.effective_from
        )
        for v in store.versions(citation.doc_id, tenant)
        if v.effective_from > as_of
    ]
    source = store.lookup(citation.doc_id, citation.version, citation.page, tenant=tenant)
    if source is None:
        return drift(
            DriftStatus.TEXT_CHANGED,
            f"{cited} has no page {citation.page} in the store",
            later_versions=later,
        )
    located = locate_quote(source.page.text, citation.quote)
    if not isinstance(located, QuoteMatch):
        return drift(
            DriftStatus.TEXT_CHANGED,
            f"the quote is no longer on {cited} page {citation.page} ({located.value})",
            later_versions=later,
        )
    if (located.char_start, located.char_end) != (citation.char_start, citation.char_end):
        return drift(
            DriftStatus.TEXT_CHANGED,
            f"the quote moved on {cited} page {citation.page}: recorded at "
            f"[{citation.char_start}:{citation.char_end}], "
            f"now at [{located.char_start}:{located.char_end}]",
            later_versions=later,
        )
    if document.in_force(as_of):
        return drift(
            DriftStatus.UNCHANGED,
            f"{cited} is in force on {as_of} and the quote is at the recorded offsets",
            later_versions=later,
        )
    current = store.in_force(document.doc_id, as_of, tenant)
    if current is None:
        return drift(
            DriftStatus.SUPERSEDED,
            f"{cited} is no longer in force on {as_of} (effective_to={document.effective_to}) "
            f"and no version of {document.doc_id} is in force on that date",
            superseded_from=document.effective_to,
            later_versions=later,
        )
    return drift(
        DriftStatus.SUPERSEDED,
        f"{cited} is superseded on {as_of} by version {current.version} "
        f"(in force from {current.effective_from}, version date {current.version_date})",
        superseded_by=current.version,
        superseded_from=document.effective_to,
        successor_version_date=current.version_date,
        later_versions=later,
    )
