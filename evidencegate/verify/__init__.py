"""The deterministic verifier: quotes located verbatim, numbers, dates, negations, versions.

``quotes`` normalises text and locates quotes with offsets into the original page text;
``support`` extracts quantities, dates and negations so a claim can be compared with its
quotes; ``verifier`` puts them together with the document checks (authority, in force on the
as-of date, retrieved in this run).
"""

from __future__ import annotations

from evidencegate.verify.quotes import QuoteMatch, locate_quote, normalize, quote_fragments
from evidencegate.verify.support import (
    NegationCue,
    claim_date_supported,
    claim_measure_supported,
    claim_quantity_supported,
    extract_dates,
    extract_measures,
    extract_quantities,
    negation_cues,
    negation_mismatch,
)
from evidencegate.verify.verifier import Verifier

__all__ = [
    "NegationCue",
    "QuoteMatch",
    "Verifier",
    "claim_date_supported",
    "claim_measure_supported",
    "claim_quantity_supported",
    "extract_dates",
    "extract_measures",
    "extract_quantities",
    "locate_quote",
    "negation_cues",
    "negation_mismatch",
    "normalize",
    "quote_fragments",
]
