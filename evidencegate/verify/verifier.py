"""The deterministic verifier: checks every citation of a claim mechanically, with no model.

Per citation: the cited ``doc_id@version`` page exists; it was retrieved in this run (when the
caller says what was retrieved); its authority is allowed; the version is in force on the as-of
date; the quote is long enough and found verbatim (after normalisation) in the page; unless the
policy allows it, the passage the quote lies in carries no text addressed to a model
(:mod:`evidencegate.hygiene`). Per claim:
every quantity, date and negation the claim states is stated by its located quotes; a derived
claim's operands are figures of their quotes and its result is what they give, recomputed
exactly (:mod:`evidencegate.verify.derived`), and that recomputed figure is the only figure a
claim may state that no quote states.

Offsets are the verifier's to fill: the returned citations carry ``char_start``/``char_end`` of
the located quote in the stored page text, whatever the input citation said (None when the
quote was not located).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import get_args

from evidencegate.contracts import (
    Authority,
    Citation,
    CitationCheck,
    Claim,
    ClaimVerification,
    DocumentVersion,
    FailureReason,
    SourcePage,
    VerificationFailure,
)
from evidencegate.corpus.passages import split_passages
from evidencegate.corpus.scope import without_provision
from evidencegate.exceptions import ConfigurationError
from evidencegate.hygiene import instruction_flags
from evidencegate.policy import Policy
from evidencegate.protocols import SourceLookup
from evidencegate.text import extract_dates, extract_measures, extract_quantities, normalize
from evidencegate.verify.agreement import (
    claim_date_supported,
    claim_measure_supported,
    claim_quantity_supported,
    negation_mismatch,
)
from evidencegate.verify.derived import check_derivation, derived_figures
from evidencegate.verify.quotes import QuoteMatch, locate_quote, quote_fragments

__all__ = ["Verifier"]

_AUTHORITIES: tuple[str, ...] = get_args(Authority)


class Verifier:
    """Checks claims against the stored sources; pure and deterministic."""

    component_id = "verifier:deterministic@1"

    def __init__(
        self,
        sources: SourceLookup,
        *,
        min_quote_chars: int,
        allowed_authorities: Sequence[str],
        refuse_instruction_text: bool = True,
    ) -> None:
        if min_quote_chars < 1:
            raise ConfigurationError(
                f"min_quote_chars must be >= 1 (got {min_quote_chars})",
                component=self.component_id,
            )
        unknown = sorted(set(allowed_authorities) - set(_AUTHORITIES))
        if not allowed_authorities or unknown:
            raise ConfigurationError(
                f"allowed_authorities must be a non-empty subset of {list(_AUTHORITIES)} "
                f"(got {list(allowed_authorities)})",
                component=self.component_id,
            )
        self.sources = sources
        self.min_quote_chars = min_quote_chars
        self.allowed_authorities = tuple(allowed_authorities)
        self.refuse_instruction_text = refuse_instruction_text

    @classmethod
    def from_policy(cls, sources: SourceLookup, policy: Policy) -> Verifier:
        """A verifier with the policy's quote length, authorities and evidence hygiene."""
        return cls(
            sources,
            min_quote_chars=policy.min_quote_chars,
            allowed_authorities=policy.allowed_authorities,
            refuse_instruction_text=policy.instruction_like_evidence == "refuse",
        )

    def verify(
        self,
        claim: Claim,
        *,
        as_of: dt.date,
        retrieved: Collection[str] | None = None,
        tenant: str | None = None,
    ) -> ClaimVerification:
        """Verify every citation of ``claim``, then the claim's numbers, dates and negations.

        ``retrieved`` is the set of ``"doc_id@version"`` the run retrieved; when given, a
        citation of anything else fails with NOT_RETRIEVED. The claim-level checks compare the
        claim with the quotes that were located (an unlocated quote vouches for nothing); with
        none located they are skipped, the citations having failed already.
        """
        if not claim.citations:
            failure = _failure(FailureReason.NO_CITATION, "the claim cites no source")
            return ClaimVerification(claim_id=claim.claim_id, ok=False, failures=[failure])
        checks: list[CitationCheck] = []
        located_quotes: list[str] = []
        claim_text = claim.text
        for i, citation in enumerate(claim.citations):
            check, source = self._check_citation(
                citation, as_of=as_of, retrieved=retrieved, tenant=tenant
            )
            if i == 0:
                # "AC-2(5) Account Management — Inactivity Logout: ...": the claim names where
                # its first quote sits, as the store records that page; like a document's name,
                # the digits of its label are no claimed value. Any other opening is as written.
                claim_text = without_provision(claim.text, source)
            checks.append(check)
            if check.citation.char_start is not None:
                located_quotes.extend(quote_fragments(citation.quote))
        failures: list[VerificationFailure] = []
        if located_quotes:
            located = [check.citation.char_start is not None for check in checks]
            # A derived claim: its operands are re-read from their quotes and the result
            # recomputed; the recomputed figure is then evidence for the claim's own figure.
            failures = check_derivation(claim, located)
            claim_text = _without_names(claim_text, {c.doc_id for c in claim.citations})
            failures += _support_failures(
                claim_text, located_quotes, computed=derived_figures(claim, located)
            )
        ok = not failures and all(check.ok for check in checks)
        return ClaimVerification(
            claim_id=claim.claim_id, ok=ok, citations=checks, failures=failures
        )

    def _check_citation(
        self,
        citation: Citation,
        *,
        as_of: dt.date,
        retrieved: Collection[str] | None,
        tenant: str | None,
    ) -> tuple[CitationCheck, SourcePage | None]:
        """The check of one citation, with the stored page it names (None when absent)."""
        failures: list[VerificationFailure] = []
        cited = f"{citation.doc_id}@{citation.version}"
        if retrieved is not None and cited not in retrieved:
            failures.append(
                _failure(FailureReason.NOT_RETRIEVED, f"{cited} was not retrieved in this run")
            )
        quoted_chars = sum(len(f) for f in quote_fragments(citation.quote))
        if quoted_chars < self.min_quote_chars:
            failures.append(
                _failure(
                    FailureReason.QUOTE_TOO_SHORT,
                    f"quote has {quoted_chars} characters after normalisation "
                    f"(min_quote_chars={self.min_quote_chars})",
                )
            )
        match: QuoteMatch | None = None
        source = self.sources.lookup(
            citation.doc_id, citation.version, citation.page, tenant=tenant
        )
        if source is None:
            failures.append(self._missing(citation, cited, tenant))
        else:
            failures.extend(self._source_failures(source.document, as_of))
            located = locate_quote(source.page.text, citation.quote)
            if isinstance(located, QuoteMatch):
                match = located
                if self.refuse_instruction_text:
                    flags = _passage_flags(source.page.text, match.char_start, match.char_end)
                    if flags:
                        failures.append(
                            _failure(
                                FailureReason.INSTRUCTION_LIKE_TEXT,
                                f"the quote of {cited} p{citation.page} lies in a passage with "
                                f"text addressed to a model ({_flag_names(flags)}); policy "
                                "instruction_like_evidence=refuse",
                            )
                        )
            else:
                failures.append(_quote_failure(located, citation, cited))
        checked = citation.model_copy(
            update={
                "char_start": match.char_start if match is not None else None,
                "char_end": match.char_end if match is not None else None,
            }
        )
        return CitationCheck(citation=checked, ok=not failures, failures=failures), source

    def _missing(self, citation: Citation, cited: str, tenant: str | None) -> VerificationFailure:
        """DOCUMENT_NOT_FOUND, or PAGE_NOT_FOUND when the version exists (it has a page 1)."""
        if self.sources.lookup(citation.doc_id, citation.version, 1, tenant=tenant) is None:
            return _failure(FailureReason.DOCUMENT_NOT_FOUND, f"{cited} is not in the store")
        return _failure(FailureReason.PAGE_NOT_FOUND, f"{cited} has no page {citation.page}")

    def _source_failures(
        self, document: DocumentVersion, as_of: dt.date
    ) -> list[VerificationFailure]:
        failures: list[VerificationFailure] = []
        cited = f"{document.doc_id}@{document.version}"
        if document.authority not in self.allowed_authorities:
            failures.append(
                _failure(
                    FailureReason.AUTHORITY_NOT_ALLOWED,
                    f"{cited} has authority {document.authority!r}; allowed: "
                    f"{list(self.allowed_authorities)}",
                )
            )
        if not document.in_force(as_of):
            failures.append(_failure(FailureReason.NOT_IN_FORCE, _not_in_force(document, as_of)))
        return failures


@lru_cache(maxsize=256)
def _page_passages(page_text: str) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """The store's passages of a page, each with its hygiene flags (cached per page)."""
    return tuple(
        (start, end, tuple(instruction_flags(page_text[start:end])))
        for start, end in split_passages(page_text)
    )


def _passage_flags(page_text: str, start: int, end: int) -> list[str]:
    """The flags of every passage of the page that overlaps ``[start, end)``."""
    flags: list[str] = []
    for p_start, p_end, p_flags in _page_passages(page_text):
        if p_start < end and start < p_end:
            flags.extend(f for f in p_flags if f not in flags)
    return flags


def _flag_names(flags: Sequence[str]) -> str:
    return ", ".join(flag.partition(": ")[2] or flag for flag in flags)


def _not_in_force(document: DocumentVersion, as_of: dt.date) -> str:
    cited = f"{document.doc_id}@{document.version}"
    if as_of < document.effective_from:
        return f"{cited} is not yet in force on {as_of} (effective_from={document.effective_from})"
    successor = document.superseded_by or "no named successor"
    return (
        f"{cited} is not in force on {as_of}: superseded_by={successor}, "
        f"effective_to={document.effective_to}"
    )


def _quote_failure(reason: FailureReason, citation: Citation, cited: str) -> VerificationFailure:
    where = f"{cited} page {citation.page}"
    if reason is FailureReason.FRAGMENTS_OUT_OF_ORDER:
        detail = f"every fragment of the quote is on {where}, but not in the quoted order"
    else:
        detail = f"quote {_excerpt(citation.quote)} is not on {where}"
    return _failure(reason, detail)


def _without_names(claim_text: str, doc_ids: Collection[str]) -> str:
    """The claim, normalised, with the cited documents' names blanked out.

    "Under 12 CFR 1013, ..." names its source; the numbers of a name are not claimed values.
    """
    text, _ = normalize(claim_text)
    for doc_id in sorted(doc_ids):
        name = re.escape(normalize(doc_id)[0])
        text = re.sub(rf"(?<![\w.,]){name}(?!\w|[.,]\d)", " ", text)
    return text


def _support_failures(
    claim_text: str, quotes: Sequence[str], *, computed: Collection[str] = ()
) -> list[VerificationFailure]:
    """Numbers, dates and negations of the claim that its located quotes do not state (or, for
    a derived claim, that the engine did not recompute: ``computed``)."""
    quote_dates: set[str] = set()
    quote_quantities: set[str] = set()
    for quote in quotes:
        quote_dates |= extract_dates(quote)
        quote_quantities |= extract_quantities(quote)
    failures: list[VerificationFailure] = []
    for quantity in sorted(extract_quantities(claim_text)):
        if not claim_quantity_supported(quantity, quote_dates, quote_quantities | set(computed)):
            failures.append(
                _failure(
                    FailureReason.NUMBER_MISMATCH,
                    f"the claim states {quantity!r}, which no located quote states "
                    f"(quotes state: {_listing(quote_quantities)})",
                )
            )
    quote_measures = {m for quote in quotes for m in extract_measures(quote)}
    for quantity, units in sorted(extract_measures(claim_text), key=repr):
        if quantity in quote_quantities and not claim_measure_supported(
            quantity, units, quote_measures
        ):
            failures.append(
                _failure(
                    FailureReason.NUMBER_MISMATCH,
                    f"the claim states {quantity} {' '.join(sorted(units))}, but the quotes "
                    f"state {quantity} only with other units",
                )
            )
    for date in sorted(extract_dates(claim_text)):
        if not claim_date_supported(date, quote_dates, quote_quantities | set(computed)):
            failures.append(
                _failure(
                    FailureReason.DATE_MISMATCH,
                    f"the claim states the date {date!r}, which no located quote states "
                    f"(quotes state: {_listing(quote_dates)})",
                )
            )
    negation = negation_mismatch(claim_text, quotes)
    if negation is not None:
        failures.append(_failure(FailureReason.NEGATION_MISMATCH, negation))
    return failures


def _failure(reason: FailureReason, detail: str) -> VerificationFailure:
    return VerificationFailure(reason=reason, detail=detail)


def _listing(values: set[str]) -> str:
    return ", ".join(sorted(values)) or "none"


def _excerpt(quote: str, limit: int = 80) -> str:
    flat = " ".join(quote.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
