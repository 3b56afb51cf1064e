"""Table rows a passage states, and whether one of them names a question's measure.

A financial statement's page reads as lines of a label and its figures ("Cash and cash
equivalents $ 4,954 $ 5,596"). A question asking for such a figure ("how much cash did PepsiCo
hold at the end of 2022") shares few words with the page (BM25 ranks prose about cash above
it), yet the row's label states what it asks for. :func:`states_measure_row` tells retrieval
that a passage holds such a row; :data:`ASKING` are the words that ask for a figure without
saying what it measures, which no row label states.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from evidencegate.lexicon import covered_share, synonyms_of
from evidencegate.text import terms

__all__ = [
    "ASKING",
    "PLACE_WORDS",
    "PROPORTION_TYPES",
    "asked_whole",
    "measure_row_fit",
    "measure_terms",
    "proportion_fit",
    "proportion_words",
    "row_labels",
    "stated_wholes",
    "statement_row_fit",
    "states_measure_row",
    "unplaced",
    "with_synonyms",
]

ASKING = frozenset(
    terms(
        "make made earn earned post posted record recorded book booked generate generated show "
        "showed disclose disclosed figure amount company give need went spent spend spending "
        "hold held have report reported carry"
    )
)
"""Words that ask for a figure rather than say what it measures ("how much cash did it hold")."""

PLACE_WORDS = frozenset(
    terms("balance sheet year-end end closing statement dollar dollars usd million millions")
)
"""Words that name where, when or in what unit a figure stands ("on its balance sheet", "at
year-end", "in millions of dollars"), not what it measures: dropped from a measure unless
nothing else is left."""

_CELL = re.compile(r"^(?:\$|\(-?\$?\d[\d,]*(?:\.\d+)?\)%?|-?\$?\d[\d,]*(?:\.\d+)?%?|—|–|-|%)$")
_ABBREVIATION = re.compile(r"\([A-Z][A-Z&.]*[A-Z]\)")
"""A parenthesised abbreviation of capitals ("(PP&E)", "(LIFO)")."""
_MIN_CELLS = 2
"""A row of a year-columned table states a figure for at least two periods."""
MIN_ROW_FIT = 0.6
"""The share of the measure's units a row label must state."""
MIN_ROW_PRECISION = 0.25
"""The share of the label's terms the measure must state: a long label ("Proceeds from sales
of property, plant and equipment and other assets") is another row."""


def measure_terms(measure: Sequence[str], *, asking: bool = True) -> list[str]:
    """What a figure question measures: its measure terms without the asking words (unless
    ``asking`` is False: "amount" is also a threshold's) and, when anything else is left, the
    words that only say where the figure stands."""
    kept = [t for t in measure if not (asking and t in ASKING) and not t.isdigit()]
    narrower = [t for t in kept if t not in PLACE_WORDS]
    return narrower or kept


@lru_cache(maxsize=4096)
def row_labels(text: str) -> tuple[tuple[str, ...], ...]:
    """The terms of each line of ``text`` that reads as a table row: a label followed by at
    least two figures ("Inventories 5,222 4,347")."""
    out: list[tuple[str, ...]] = []
    for line in text.splitlines():
        words = line.split()
        cells = 0
        while words and _CELL.match(words[-1]):
            if words[-1] not in {"$", "%"}:
                cells += 1
            words.pop()
        if cells < _MIN_CELLS or not words:
            continue
        # "(PP&E)" restates the words before it: no further word of the label.
        label = tuple(terms(_ABBREVIATION.sub(" ", " ".join(words))))
        if label:
            out.append(label)
    return tuple(out)


def states_measure_row(text: str, measure: Sequence[str]) -> bool:
    """Does ``text`` hold a table row whose label states ``measure`` (see
    :func:`measure_terms`), in its own words or a synonym's?"""
    return measure_row_fit(text, measure) > 0


def measure_row_fit(text: str, measure: Sequence[str]) -> float:
    """How specific the best row of ``text`` stating ``measure`` is: the share of its label
    the measure states ("Goodwill" 1.0, "Goodwill impairment charges" 0.5); 0 when no row
    states the measure."""
    best = 0.0
    if not measure:
        return best
    # The label's words the measure states in its own words or a synonym's ("Purchase of
    # property, plant and equipment" for "buying property, plant and equipment").
    stated = with_synonyms(tuple(measure))
    for label in row_labels(text):
        if covered_share(measure, label) >= MIN_ROW_FIT:
            precision = covered_share(label, stated)
            if precision >= MIN_ROW_PRECISION:
                best = max(best, precision)
    return best


_STATEMENT_TITLE = re.compile(
    r"^\s*consolidated\s+(?:statements?\s+of\s+(?:income|operations|earnings|cash\s+flows|"
    r"financial\s+position|comprehensive\s+income)|balance\s+sheets?)\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_TITLE_REACH = 300
"""How far into a passage a statement's title stands: its first lines ("Table of Contents",
the filer's name, then the title)."""


def _rejoined(text: str) -> str:
    """``text`` with a word's last letter set apart by the PDF's extraction joined back
    ("Consolidated Statement of Incom e", "Balance Shee t")."""
    return _SPLIT_LAST_LETTER.sub("", text)


_SPLIT_LAST_LETTER = re.compile(r"(?<=[a-z]{2}) (?=[a-z]\b)")


def unplaced(measure: Sequence[str], place: str) -> list[str]:
    """``measure`` without the terms its passage's place (the document's title) states: a
    terse question's company ("amcor fy22 net sales") names the filing, not the row."""
    named = set(terms(place))
    return [t for t in measure if t not in named] or list(measure)


def statement_row_fit(text: str, measure: Sequence[str], place: str = "") -> bool:
    """Is ``text`` a page of the filer's primary statements (titled "Consolidated Statements
    of Income", "Consolidated Balance Sheet", ...) with a row whose label states every term of
    ``measure`` that its ``place`` (the document's title, naming the filer) does not, and
    little besides? The statements state the whole company's basic lines ("Net sales", "Total
    assets"); a segment's table or a discussion's excerpt repeats a row of the same label for a
    part or a reconciliation."""
    if not measure or _STATEMENT_TITLE.search(_rejoined(text[:_TITLE_REACH])) is None:
        return False
    named = set(terms(place))
    wanted = tuple(t for t in measure if t not in named)
    if not wanted:
        return False
    stated = with_synonyms(wanted)
    for label in row_labels(text):
        own = [t for t in label if t not in named]
        if own and covered_share(wanted, own) >= 1.0 and covered_share(own, stated) >= MIN_ROW_FIT:
            return True
    return False


@lru_cache(maxsize=1024)
def with_synonyms(measure: tuple[str, ...]) -> list[str]:
    """The measure's terms and its one-word synonyms ("buy": "purchase"): what it states in
    other words. A phrase's words ("total company" for "global") are not stated alone."""
    return [*measure, *(t for s in synonyms_of(measure) if len(ts := terms(s)) == 1 for t in ts)]


# "What share of Boeing's 2022 revenues ...", "what % of its net sales ...": the whole a
# proportion asked for is a part of. The words after "of" up to the first word that no longer
# names it (a verb, a preposition), past a possessive name and the period.
_ASKED_PROPORTION = re.compile(
    r"(?:\b(?:share|portion|proportion|fraction|percent(?:age)?)|%|"
    r"\bhow\s+(?:big|large)\s+a\s+part)\s+of\s+(?P<whole>[^?.,;:]+)",
    re.IGNORECASE,
)
# "accounted for approximately 41% of our revenues", "40 percent of consolidated net sales".
_STATED_PROPORTION = re.compile(
    r"\d(?:[\d,]*\d)?(?:\.\d+)?\s*(?:%|percent\b)\s+of\s+(?P<whole>[^.;:()]+)",
    re.IGNORECASE,
)
_WHOLE_END = re.compile(
    r"\b(?:was|were|is|are|did|does|do|came|comes|come|from|to|under|with|by|in|at|for|"
    r"that|which|did|derived|earned|generated|account(?:ed|s)?|made|related|represented|"
    r"attributable|and|or|as|compared|versus|vs)\b",
    re.IGNORECASE,
)
_WHOLE_FRAME = re.compile(
    r"\b(?:the|its|our|their|a|an|total|consolidated|overall|fiscal|fy\s*\d{2,4}|"
    r"(?:19|20)\d\d|[\w&.]+['’]s)\b|\b(?:19|20)\d\d\b",
    re.IGNORECASE,
)
_WHOLE_WORDS = 3


def _whole_terms(phrase: str) -> tuple[str, ...]:
    """The terms naming a whole: the phrase up to its first verb or preposition, without
    articles, possessive names, periods or "total" (every whole is a total)."""
    end = _WHOLE_END.search(phrase)
    head = phrase[: end.start()] if end else phrase
    head = _WHOLE_FRAME.sub(" ", head)
    return tuple(terms(head))[:_WHOLE_WORDS]


PROPORTION_TYPES = frozenset({"percentage", "amount", "count", "other"})
"""Answer types of a question that may ask for a proportion ("how big a part of its sales");
"why did cost rise as a share of sales" asks for a reason."""


def proportion_words(question: str) -> frozenset[str]:
    """The terms by which a question asks for a proportion ("share" in "what share of its
    revenues"): they say what kind of figure is asked, not what it is about, and "share" here
    is no stock."""
    found = _ASKED_PROPORTION.search(question)
    if not found or not _whole_terms(found.group("whole")):
        return frozenset()
    return frozenset(terms(question[found.start() : found.start("whole")])) - {"of"}


def asked_whole(question: str) -> tuple[str, ...]:
    """The terms of what the proportion a question asks for is a share of ("revenues" in
    "what share of Boeing's 2022 revenues came from ..."); empty when it asks for none."""
    found = _ASKED_PROPORTION.search(question)
    return _whole_terms(found.group("whole")) if found else ()


@lru_cache(maxsize=4096)
def stated_wholes(text: str) -> tuple[tuple[str, ...], ...]:
    """The terms of each whole a text states a proportion of ("41% of our revenues")."""
    out = []
    for found in _STATED_PROPORTION.finditer(text):
        whole = _whole_terms(found.group("whole"))
        if whole:
            out.append(whole)
    return tuple(out)


def proportion_fit(text: str, whole: Sequence[str]) -> int:
    """Whether ``text`` states a proportion of the ``whole`` a question asks about: 1 when one
    of its proportions is of that whole (in its words or a synonym's), -1 when it states
    proportions only of other wholes ("4% of operating assets" for a share of revenues), 0 when
    it states none or no whole is asked."""
    if not whole:
        return 0
    stated = stated_wholes(text)
    if not stated:
        return 0
    if any(covered_share(whole, s) >= MIN_ROW_FIT for s in stated):
        return 1
    return -1
