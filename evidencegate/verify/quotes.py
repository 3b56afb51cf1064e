"""Locate quotes in stored page text, with offsets into the original.

Both sides are compared after :func:`~evidencegate.text.normalize` (NFKC, case folding, ASCII
quotes, dashes and digits, hyphenation across line breaks undone, invisible characters dropped,
whitespace collapsed); each normalised character remembers which characters of the original
produced it (:func:`~evidencegate.text.normalize_spans`), so a match maps back to exact
original offsets.

A quote may elide text with an ellipsis (``...`` or ``…``): its fragments must then occur in
the page in order, without overlapping. Every fragment must begin and end on a word boundary of
the page, so a quote cannot borrow part of a word or of a number (``"4 months"`` is not found in
``"14 months"``, nor ``"53,5"`` in ``"53,500"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from evidencegate.contracts import FailureReason
from evidencegate.text import normalize_spans

__all__ = ["QuoteMatch", "locate_quote", "quote_fragments"]

_ELLIPSIS = re.compile(r"\.{3,}")


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote sits in the ORIGINAL page text: ``page_text[char_start:char_end]``."""

    char_start: int
    char_end: int


def quote_fragments(quote: str) -> list[str]:
    """The normalised, non-empty pieces of ``quote`` between its ellipses, in order."""
    normalized, _, _ = normalize_spans(quote)
    return [f for f in (part.strip() for part in _ELLIPSIS.split(normalized)) if f]


def locate_quote(page_text: str, quote: str) -> QuoteMatch | FailureReason:
    """Find ``quote`` in ``page_text``; return its original offsets or why it is not there.

    Fragments separated by an ellipsis must occur in order, each after the previous one ends;
    the match runs from the first fragment's start to the last fragment's end. Returns
    ``FailureReason.QUOTE_NOT_FOUND`` when some fragment occurs nowhere (or the quote has no
    text at all) and ``FailureReason.FRAGMENTS_OUT_OF_ORDER`` when each fragment occurs but not
    in the quoted order.
    """
    fragments = quote_fragments(quote)
    if not fragments:
        return FailureReason.QUOTE_NOT_FOUND
    page, starts, ends = normalize_spans(page_text)
    position = 0
    first_start = -1
    for fragment in fragments:
        found = _find_whole(page, fragment, position)
        if found < 0:
            if all(_find_whole(page, f, 0) >= 0 for f in fragments):
                return FailureReason.FRAGMENTS_OUT_OF_ORDER
            return FailureReason.QUOTE_NOT_FOUND
        if first_start < 0:
            first_start = found
        position = found + len(fragment)
    return QuoteMatch(char_start=starts[first_start], char_end=ends[position - 1])


def _find_whole(page: str, fragment: str, position: int) -> int:
    """First index >= position where ``fragment`` occurs on word boundaries, or -1."""
    found = page.find(fragment, position)
    while found >= 0 and not _on_boundaries(page, found, found + len(fragment)):
        found = page.find(fragment, found + 1)
    return found


def _on_boundaries(page: str, start: int, end: int) -> bool:
    """False when [start, end) cuts through a word or a number (``5`` of ``53,500``)."""
    first, last = page[start], page[end - 1]
    if start > 0 and first.isalnum() and page[start - 1].isalnum():
        return False
    if start > 1 and first.isdigit() and page[start - 1] in ".," and page[start - 2].isdigit():
        return False
    if end < len(page) and last.isalnum() and page[end].isalnum():
        return False
    return not (
        end + 1 < len(page) and last.isdigit() and page[end] in ".," and page[end + 1].isdigit()
    )
