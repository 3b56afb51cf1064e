"""The segments a filing reports: read from the filing's own pages, once per version.

A filing heads each of its reportable segments ("Flexibles Segment", "Health Care Business
(24.6% of consolidated sales):", "Total Safety and Industrial Business Segment") and gives
some of them an abbreviation in a sentence on its segments or divisions ("PepsiCo Beverages
North America (PBNA)"). :func:`filing_segments` reads those names from a filing's page texts;
:func:`segments_of` reads them through a :class:`~evidencegate.protocols.SourceLookup` and
keeps them by the version's content hash. With them a figure of a segment can be told from the
filer's whole figure: a question naming a segment asks for that segment's figure, one naming
none for the whole's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evidencegate.corpus.readings import version_reading
from evidencegate.protocols import SourceLookup

__all__ = ["asks_a_part", "filing_segments", "segment_row", "segments_asked", "segments_of"]

_NAME = r"(?P<name>[A-Z][\w&'’-]*(?:,?[ \t]+(?:and[ \t]+|&[ \t]+)?[A-Z][\w&'’-]*){0,4}?)"
_HEADINGS = (
    # "Flexibles Segment", "Total Safety and Industrial Business Segment" on a line of its own
    re.compile(
        rf"(?m)^[ \t]*(?:Total[ \t]+)?{_NAME}[ \t]+(?:Business[ \t]+)?Segment\b[ \t*]*:?[ \t]*$"
    ),
    # "Health Care Business (24.6% of consolidated sales):"
    re.compile(
        rf"(?m)^[ \t]*{_NAME}[ \t]+Business[ \t]+\(\d[\d.]*[ \t]*%[ \t]+of[ \t]+consolidated"
    ),
    re.compile(rf"\bTotal[ \t]+{_NAME}[ \t]+(?:Business[ \t]+)?Segment\b"),
)
_ON_SEGMENTS = re.compile(r"\b(?:segments?|divisions?)\b", re.IGNORECASE)
_ABBREVIATED = re.compile(r"\b[A-Z][\w&'-]*(?:[ \t]+[A-Z][\w&'-]*)*[ \t]+\(([A-Z]{2,6})\)")
"""A name given with its abbreviation, of which the abbreviation ("PBNA") is kept."""
_NOT_NAMES = frozenset({"Total", "Business", "Reportable", "Operating", "Each", "The", "Our"})


def filing_segments(texts: Iterable[str]) -> tuple[str, ...]:
    """The segment names the filing's ``texts`` head as such, longest first."""
    names: set[str] = set()
    for text in texts:
        for pattern in _HEADINGS:
            names |= {m.group("name").strip() for m in pattern.finditer(text)}
        for sentence in text.split("."):
            if "(" in sentence and _ON_SEGMENTS.search(sentence):
                names |= {m.group(1) for m in _ABBREVIATED.finditer(sentence)}
    kept = {n for n in names if len(n) >= 2 and n.split()[0] not in _NOT_NAMES}
    return tuple(sorted(kept, key=lambda n: (-len(n), n)))


def segments_of(
    pages: SourceLookup, doc_id: str, version: str, *, tenant: str | None = None
) -> tuple[str, ...]:
    """The segments of one stored version, read from all its pages (kept by its hash)."""
    return version_reading(pages, doc_id, version, filing_segments, tenant=tenant)


_PART_KIND = re.compile(r"\b(?:segments?|divisions?|business(?:es)?|business\s+units?)\b", re.I)
"""A question asking about a part of the filer by its kind."""


def segments_asked(question: str, segments: Iterable[str]) -> tuple[str, ...]:
    """The segments ``question`` names: as the filing writes them ("Health Care", "PBNA"), or
    in lower case before the part's kind ("health care segment")."""
    asked: list[str] = []
    for name in segments:
        written = re.search(rf"(?<![\w&]){re.escape(name)}(?![\w&])", question)
        kind = re.search(
            rf"(?<![\w&]){re.escape(name)}\s+(?:business\s+)?(?:segment|division|business)\b",
            question,
            re.IGNORECASE,
        )
        if written or kind:
            asked.append(name)
    return tuple(asked)


def asks_a_part(question: str, segments: Iterable[str]) -> bool:
    """Does ``question`` ask about a part of the filer: a segment by name or by its kind?"""
    return bool(segments_asked(question, segments)) or _PART_KIND.search(question) is not None


_SEGMENT_ROW = re.compile(
    r"^\s*(?:Total\s+)?(?P<name>.+?)(?:\s+(?:Business\s+)?(?:Segment|Group|Business))?\s*$",
    re.IGNORECASE,
)


def segment_row(label: str, segments: Iterable[str]) -> str:
    """The segment a table row is the figure of, when its own name is that segment ("Health
    Care", "PBNA", "Total Health Care Business Group"); "" otherwise."""
    found = _SEGMENT_ROW.match(" ".join(label.split()))
    if found is None:
        return ""
    name = found["name"].lower()
    return next((s for s in segments if s.lower() == name), "")
