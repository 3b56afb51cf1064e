"""Normalise text and locate quotes in stored page text, with offsets into the original.

Normalisation is what makes "verbatim" robust to the accidents of text extraction without
letting a quote say something the page does not: Unicode NFKC, case folding, typographic quotes
and dashes to ASCII, decimal digits of every script to ASCII (Arabic-Indic ``٥٠٠`` -> ``500``),
words hyphenated across a line break rejoined (``"regu-\\nlation"`` -> ``"regulation"``),
invisible characters (every Unicode format character: soft hyphen, zero-width spaces and joiners,
bidirectional marks and overrides, invisible operators) dropped, and every run of whitespace
collapsed to one space. So the verifier reads the digits a reader sees: an invisible character
cannot split or hide part of a number, nor can another script's digits escape the comparison.
Each normalised character remembers which characters of the original produced it, so a match in
normalised text maps back to exact original offsets.

A quote may elide text with an ellipsis (``...`` or ``…``): its fragments must then occur in
the page in order, without overlapping. Every fragment must begin and end on a word boundary of
the page, so a quote cannot borrow part of a word or of a number (``"4 months"`` is not found in
``"14 months"``, nor ``"53,5"`` in ``"53,500"``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from evidencegate.contracts import FailureReason

__all__ = ["QuoteMatch", "locate_quote", "normalize", "quote_fragments"]

_TYPOGRAPHIC = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark
        "\u201a": "'",  # single low-9 quotation mark
        "\u201b": "'",  # single high-reversed-9 quotation mark
        "\u2032": "'",  # prime
        "\u201c": '"',  # left double quotation mark
        "\u201d": '"',  # right double quotation mark
        "\u201e": '"',  # double low-9 quotation mark
        "\u201f": '"',  # double high-reversed-9 quotation mark
        "\u2033": '"',  # double prime
        "\u00ab": '"',  # left-pointing double angle quotation mark
        "\u00bb": '"',  # right-pointing double angle quotation mark
        "\u2010": "-",  # hyphen
        "\u2011": "-",  # non-breaking hyphen
        "\u2012": "-",  # figure dash
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2015": "-",  # horizontal bar
        "\u2212": "-",  # minus sign
    }
)
# Characters that carry no visible text: every format character (category Cf) is dropped; a
# soft hyphen may still join a line break.
# Characters that, before a line break, mark a word hyphenated across it.
_LINE_HYPHENS = frozenset("-\u00ad\u2010\u2011")
# The line boundaries of str.splitlines().
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_ELLIPSIS = re.compile(r"\.{3,}")


@dataclass(frozen=True)
class QuoteMatch:
    """Where a quote sits in the ORIGINAL page text: ``page_text[char_start:char_end]``."""

    char_start: int
    char_end: int


def normalize(text: str) -> tuple[str, list[int]]:
    """Normalise ``text``; also return, per normalised character, its index in ``text``."""
    normalized, starts, _ = _normalize_spans(text)
    return normalized, list(starts)


def quote_fragments(quote: str) -> list[str]:
    """The normalised, non-empty pieces of ``quote`` between its ellipses, in order."""
    normalized, _, _ = _normalize_spans(quote)
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
    page, starts, ends = _normalize_spans(page_text)
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


@lru_cache(maxsize=256)  # bounded: a long PDF page's offset tables are large
def _normalize_spans(text: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """Normalised text plus, per normalised character, the original [start, end) it came from.

    Cached: the verifier normalises the same page for every claim that cites it.
    """
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def emit(chars: str, start: int, end: int) -> None:
        for ch in chars:
            if ch.isspace():
                if not out or out[-1] == " ":
                    continue
                ch = " "
            out.append(ch)
            starts.append(start)
            ends.append(end)

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if _joins_hyphenated_word(text, i, j, out):
                if text[i - 1] != "\u00ad":  # the visible hyphen was emitted: take it back
                    out.pop()
                    starts.pop()
                    ends.pop()
            elif j < n and text[j] == "%":
                pass  # "19.1 %" is "19.1%": extractors differ in the space before a percent sign
            else:
                emit(" ", i, j)
            i = j
            continue
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        cluster = text[i:j]
        if cluster.isascii():  # fast path: NFKC, the table and casefold reduce to lower()
            emit(cluster.lower(), i, j)
        elif unicodedata.category(ch) != "Cf":
            folded = unicodedata.normalize("NFKC", cluster).translate(_TYPOGRAPHIC).casefold()
            emit("".join(_ascii_digit(c) for c in folded), i, j)
        i = j
    if out and out[-1] == " ":
        out.pop()
        starts.pop()
        ends.pop()
    return "".join(out), tuple(starts), tuple(ends)


def _ascii_digit(ch: str) -> str:
    """The ASCII digit of a decimal digit of any script (``٣`` -> ``3``); other characters as is."""
    if ch.isascii():
        return ch
    value = unicodedata.decimal(ch, None)
    return ch if value is None else str(value)


def _joins_hyphenated_word(text: str, i: int, j: int, out: list[str]) -> bool:
    """True when the whitespace text[i:j] is a line break inside a word hyphenated across it.

    That is: a hyphen right before it, a letter before the hyphen, a line break inside it and a
    lower-case letter right after it (``"regu-\\nlation"``; not ``"1990-\\n2000"`` nor
    ``"Part A-\\nPart B"``).
    """
    if i == 0 or j >= len(text) or text[i - 1] not in _LINE_HYPHENS:
        return False
    if not text[j].islower() or not any(c in _LINE_BREAKS for c in text[i:j]):
        return False
    hyphen_emitted = text[i - 1] != "\u00ad"  # a soft hyphen is invisible: nothing was emitted
    letter_at = len(out) - (2 if hyphen_emitted else 1)
    return letter_at >= 0 and out[letter_at].isalpha()
