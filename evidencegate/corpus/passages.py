"""Split page text into passages at paragraph and sentence boundaries.

A passage is a span ``(char_start, char_end)`` of its page text, never a rewritten copy:
``page_text[char_start:char_end]`` is the passage text, so a quote found in a passage is found
at a known place in the stored page. Spans never start or end with whitespace.

Splitting, coarse to fine, only where a piece is longer than ``max_chars``: blank lines
(paragraphs), then sentence ends (``.``, ``!``, ``?`` followed by whitespace), then line breaks,
then the last whitespace before the limit, and only for a run of ``max_chars`` characters
without any whitespace, a hard cut. Consecutive pieces are then packed greedily into passages
of at most ``max_chars`` characters, so a short page is one passage.
"""

from __future__ import annotations

import hashlib
import re
from json.encoder import encode_basestring as _json_str

from evidencegate.canonical import canonical_json, sha256_hex

__all__ = ["MAX_PASSAGE_CHARS", "passage_context", "passage_id", "split_passages"]

MAX_PASSAGE_CHARS = 1200

_BOUNDARIES = (
    re.compile(r"\n[^\S\n]*\n\s*"),  # blank line(s): paragraph boundary
    re.compile(r"(?<=[.!?])[\"'’”)\]]*\s+"),  # sentence end (closing quote or bracket allowed)
    re.compile(r"\n\s*"),  # line break
)

Span = tuple[int, int]

_MAX_JCS_INT = 2**53 - 1
_NON_BMP = re.compile(rb"[\xf0-\xff]")  # a 4-byte UTF-8 sequence


def passage_context(label: str | None, heading: str, title: str) -> str:
    """Where a passage sits, searched beside its text: label, heading path, document title."""
    return "\n".join(part for part in (label, heading, title) if part)


def split_passages(text: str, max_chars: int = MAX_PASSAGE_CHARS) -> list[Span]:
    """Return the passage spans of ``text``: stripped, in order, each at most ``max_chars``."""
    if max_chars < 1:
        raise ValueError(f"max_chars must be >= 1 (got {max_chars})")
    pieces: list[Span] = []
    whole = _strip(text, 0, len(text))
    if whole is not None:
        _split(text, whole, 0, max_chars, pieces)
    return _pack(pieces, max_chars)


def passage_id(
    doc_id: str, version: str, page: int, char_start: int, char_end: int, text: str
) -> str:
    """Content hash of a passage: the first 24 hex characters of sha256 of its canonical JSON.

    The JSON is written directly, as :func:`canonical_json`'s fast path writes it (keys in
    code-point order, strings by the same C escaper, integers in decimal): a third of the time
    of building and walking a dict. Text that path does not take (outside the BMP, lone
    surrogates, integers beyond JCS's range) goes through :func:`canonical_json` itself.
    """
    if (
        type(page) is int
        and type(char_start) is int
        and type(char_end) is int
        and max(abs(page), abs(char_start), abs(char_end)) <= _MAX_JCS_INT
    ):
        try:
            data = (
                f'{{"char_end":{char_end},"char_start":{char_start},"doc_id":{_json_str(doc_id)},'
                f'"page":{page},"text":{_json_str(text)},"version":{_json_str(version)}}}'
            ).encode()
        except (UnicodeEncodeError, TypeError):  # lone surrogates; a non-string
            data = b""
        if data and not _NON_BMP.search(data):
            return hashlib.sha256(data).hexdigest()[:24]
    return sha256_hex(
        canonical_json(
            {
                "doc_id": doc_id,
                "version": version,
                "page": page,
                "char_start": char_start,
                "char_end": char_end,
                "text": text,
            }
        )
    )[:24]


def _split(text: str, span: Span, level: int, max_chars: int, out: list[Span]) -> None:
    start, end = span
    if end - start <= max_chars:
        out.append(span)
        return
    if level == len(_BOUNDARIES):
        _wrap(text, span, max_chars, out)
        return
    pos = start
    for match in _BOUNDARIES[level].finditer(text, start, end):
        piece = _strip(text, pos, match.start())
        if piece is not None:
            _split(text, piece, level + 1, max_chars, out)
        pos = match.end()
    piece = _strip(text, pos, end)
    if piece is not None:
        _split(text, piece, level + 1, max_chars, out)


def _wrap(text: str, span: Span, max_chars: int, out: list[Span]) -> None:
    """Cut a boundary-free run at the last whitespace before the limit (hard cut if none)."""
    start, end = span
    while end - start > max_chars:
        cut = start + max_chars
        for i in range(cut, start, -1):
            if text[i].isspace():
                cut = i
                break
        head = _strip(text, start, cut)
        if head is not None:
            out.append(head)
        rest = _strip(text, cut, end)
        if rest is None:
            return
        start = rest[0]
    out.append((start, end))


def _pack(pieces: list[Span], max_chars: int) -> list[Span]:
    passages: list[Span] = []
    for start, end in pieces:
        if passages and end - passages[-1][0] <= max_chars:
            passages[-1] = (passages[-1][0], end)
        else:
            passages.append((start, end))
    return passages


def _strip(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None
