"""The deterministic verifier: quotes located verbatim, numbers, dates, negations, versions.

``quotes`` locates quotes with offsets into the original page text (after
:func:`evidencegate.text.normalize`); ``agreement`` compares the quantities, dates and units a
claim states with its quotes' (read by :mod:`evidencegate.text`) and judges negation; ``edits``
finds what an edited claim changed in the text it copies; ``verifier`` puts them together with
the document checks (authority, in force on the as-of date, retrieved in this run).
"""

from __future__ import annotations

from evidencegate.verify.agreement import (
    NegationCue,
    claim_date_supported,
    claim_measure_supported,
    claim_quantity_supported,
    negation_cues,
    negation_mismatch,
)
from evidencegate.verify.quotes import QuoteMatch, locate_quote, quote_fragments
from evidencegate.verify.verifier import Verifier

__all__ = [
    "NegationCue",
    "QuoteMatch",
    "Verifier",
    "claim_date_supported",
    "claim_measure_supported",
    "claim_quantity_supported",
    "locate_quote",
    "negation_cues",
    "negation_mismatch",
    "quote_fragments",
]
