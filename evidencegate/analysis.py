"""Deterministic text analysis shared by the offline generator and the rules critic.

Terms (lower-cased, stop words removed, light suffix stemming), sentence spans with offsets,
the period a sentence states ("From January 1, 2014 through December 31, 2014, ..."), and the
period a question targets (an explicit year or date, else the as-of date).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "Period",
    "QuestionProfile",
    "Sentence",
    "has_figure",
    "idf_weights",
    "profile_question",
    "sentence_period",
    "split_sentences",
    "terms",
    "weighted_overlap",
]

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "must",
        "may",
        "shall",
        "might",
        "also",
        "per",
        "within",
        "without",
        "upon",
        "whether",
        "either",
        "tell",
        "give",
        "list",
        "explain",
        "describe",
        "please",
        "current",
        "currently",
        "today",
        "apply",
        "applies",
        "applicable",
    ]
)
# "not", "no", "nor", "must", "may", "shall" are stop words for relevance only; the verifier
# checks negation and modality separately, on the full text.

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]|\d+(?:[.,]\d+)*")
_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d|21\d\d)\b")
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
_DATE = (
    r"(?:(?P<{p}m>January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+(?P<{p}d>\d{{1,2}}),?\s+(?P<{p}y>\d{{4}})|(?P<{p}iso>\d{{4}}-\d{{2}}-\d{{2}}))"
)
_RANGE = re.compile(
    r"\b(?:from|between|beginning|starting)\s+"
    + _DATE.format(p="a")
    + r"\s*(?:,\s*)?(?:through|to|until|and|thru|-|–)\s+"
    + _DATE.format(p="b"),
    re.IGNORECASE,
)
_ONE_DATE = re.compile(r"\b" + _DATE.format(p="a"), re.IGNORECASE)
_IDENTIFIER = re.compile(
    r"\b[A-Z]{1,4}-\d+(?:\s*\(\d+\))*"  # control and form ids: AC-2(3), W-2
    r"|§+\s*\d[\d.]*(?:\([a-z0-9]+\))*"  # sections: § 1002.6(b)
    r"|\b\d+\s+(?:CFR|U\.S\.C\.)\s+\d[\d.]*(?:\([a-z0-9]+\))*"  # 12 CFR 1013.2(e)
    r"|\b(?:SP|FIPS)\s*\d[\d-]*\w*"  # NIST publications: SP 800-53
)
_BEFORE = re.compile(r"\b(?:prior\s+to|before)\s+" + _DATE.format(p="a"), re.IGNORECASE)
_AFTER = re.compile(
    r"\b(?:on\s+or\s+after|after|beginning|starting|effective|as\s+of)\s+" + _DATE.format(p="a"),
    re.IGNORECASE,
)
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "no",
        "nos",
        "sec",
        "secs",
        "art",
        "para",
        "u.s",
        "u.s.c",
        "c.f.r",
        "cfr",
        "inc",
        "ltd",
        "co",
        "corp",
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "vs",
        "fig",
        "pp",
        "p",
        "al",
        "approx",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ]
)
_SENT_END = re.compile(r"[.!?](?:[\"'”’)\]]*)(?=\s+|$)|\n\s*\n")
_DATE_QUESTION = re.compile(
    r"\b(when|which\s+date|what\s+date|by\s+what\s+date|effective\s+date|start\s+date)\b",
    re.IGNORECASE,
)
_QUANTITY_QUESTION = re.compile(
    r"\b(how\s+(much|many|long|often|soon|old|quickly)|within\s+how|amount|threshold|limit|"
    r"maximum|minimum|value|fee|rate|percentage|ratio|deadline|period|number|frequency)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Period:
    """An inclusive date range a sentence speaks about."""

    start: dt.date
    end: dt.date

    def overlaps(self, other: Period) -> bool:
        return self.start <= other.end and other.start <= self.end

    def overlaps_year(self, year: int) -> bool:
        return self.overlaps(Period(dt.date(year, 1, 1), dt.date(year, 12, 31)))

    def __str__(self) -> str:
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


@dataclass(frozen=True)
class Sentence:
    """A sentence of a text with its offsets (``text == source[start:end]``)."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class QuestionProfile:
    """What a question asks for, as the offline components understand it."""

    question: str
    terms: tuple[str, ...]
    years: tuple[str, ...]
    numbers: tuple[str, ...]
    wants_figure: Literal["quantity", "date"] | None
    target: Period


def _stem(word: str) -> str:
    for suffix, repl in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ings", ""),
        ("ing", ""),
        ("edly", ""),
        ("ed", ""),
        ("ers", "er"),
        ("es", "e"),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + repl
    return word


def terms(text: str) -> list[str]:
    """Content terms: lower-cased words minus stop words, lightly stemmed; numbers kept."""
    out: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group(0).lower().strip("'-")
        if not word or word in STOPWORDS:
            continue
        if word[0].isdigit():
            out.append(word.replace(",", ""))
        elif len(word) > 1:
            out.append(_stem(word.replace("'s", "")))
    return out


def idf_weights(vocabulary: Iterable[str], documents: Sequence[Iterable[str]]) -> dict[str, float]:
    """Smoothed inverse document frequency of each term over ``documents``.

    A term absent from every document gets the highest weight: an unmatched rare term is what
    makes a question unanswerable from the evidence.
    """
    sets = [set(d) for d in documents]
    n = len(sets)
    return {
        term: math.log((n + 1) / (1 + sum(1 for s in sets if term in s))) + 1.0
        for term in set(vocabulary)
    }


def weighted_overlap(
    query: Sequence[str], text_terms: Iterable[str], weights: dict[str, float]
) -> float:
    """Share of the query's weight whose terms occur in ``text_terms`` (0..1)."""
    wanted = set(query)
    if not wanted:
        return 0.0
    have = set(text_terms)
    total = sum(weights.get(t, 1.0) for t in wanted)
    return sum(weights.get(t, 1.0) for t in wanted if t in have) / total


def split_sentences(text: str, *, offset: int = 0) -> list[Sentence]:
    """Split into sentences with offsets (plus ``offset``), not breaking after abbreviations."""
    sentences: list[Sentence] = []
    start = 0
    for match in _SENT_END.finditer(text):
        end = match.end()
        if match.group(0).startswith("."):
            prev = re.search(r"([A-Za-z.]+)\.$", text[start : match.start() + 1])
            if prev and prev.group(1).lower().rstrip(".") in _ABBREVIATIONS:
                continue
        _append(sentences, text, start, end, offset)
        start = end
    _append(sentences, text, start, len(text), offset)
    return sentences


def _append(out: list[Sentence], text: str, start: int, end: int, offset: int) -> None:
    chunk = text[start:end]
    stripped = chunk.strip()
    if not stripped:
        return
    lead = len(chunk) - len(chunk.lstrip())
    s = start + lead
    e = s + len(stripped)
    out.append(Sentence(text=text[s:e], start=s + offset, end=e + offset))


def _date_from(match: re.Match[str], p: str) -> dt.date | None:
    iso = match.group(f"{p}iso")
    try:
        if iso:
            return dt.date.fromisoformat(iso)
        month = _MONTHS[match.group(f"{p}m").lower()]
        return dt.date(int(match.group(f"{p}y")), month, int(match.group(f"{p}d")))
    except (ValueError, KeyError):
        return None


def sentence_period(text: str) -> Period | None:
    """The period a sentence states, if it states one explicitly; else None."""
    if m := _RANGE.search(text):
        a, b = _date_from(m, "a"), _date_from(m, "b")
        if a and b and a <= b:
            return Period(a, b)
    if m := _BEFORE.search(text):
        a = _date_from(m, "a")
        if a:
            return Period(dt.date.min, a - dt.timedelta(days=1))
    if m := _AFTER.search(text):
        a = _date_from(m, "a")
        if a:
            return Period(a, dt.date.max)
    return None


def profile_question(question: str, *, as_of: dt.date) -> QuestionProfile:
    """Terms, explicit years and numbers, whether a figure is asked for, and the target period."""
    dates = [d for m in _ONE_DATE.finditer(question) if (d := _date_from(m, "a"))]
    question_wo_dates = _ONE_DATE.sub(" ", question)
    years = tuple(dict.fromkeys(_YEAR.findall(question_wo_dates)))
    # Identifiers (AC-2(3), § 1002.6(b), 12 CFR 1013, Form W-2) name what is asked about; their
    # digits are not figures an answer must state.
    bare = _IDENTIFIER.sub(" ", question_wo_dates)
    numbers = tuple(
        dict.fromkeys(
            n.replace(",", "")
            for n in re.findall(r"\b\d[\d,]*(?:\.\d+)?\b", bare)
            if n not in years and not _YEAR.fullmatch(n)
        )
    )
    if len(dates) == 1:
        target = Period(dates[0], dates[0])
    elif len(years) == 1:
        y = int(years[0])
        target = Period(dt.date(y, 1, 1), dt.date(y, 12, 31))
    else:
        target = Period(as_of, as_of)
    return QuestionProfile(
        question=question,
        terms=tuple(dict.fromkeys(t for t in terms(bare) if t not in years)),
        years=years,
        numbers=numbers,
        wants_figure=(
            "date"
            if _DATE_QUESTION.search(question)
            else "quantity"
            if _QUANTITY_QUESTION.search(question)
            else None
        ),
        target=target,
    )


def has_figure(text: str, kind: Literal["quantity", "date"]) -> bool:
    """Does the text state the kind of figure a question asks for, written in digits?

    Number words ("four months") count for the verifier but not here, and a recurring date
    ("January 1 of each year") is not an amount: a question asking for a threshold wants the
    sentence that states the threshold.
    """
    from evidencegate.verify.support import extract_dates, extract_quantities

    if not re.search(r"\d", text):
        return False
    if kind == "date":
        # "When must ..." is answered by a date or by a stated time limit ("within 30 days").
        return bool(extract_dates(text)) or any(
            any(ch.isdigit() for ch in q) for q in extract_quantities(text)
        )
    return any(any(ch.isdigit() for ch in q) for q in extract_quantities(text))
