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
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from evidencegate.lexicon import act_senses, figure_kinds, lexicon, related_forms
from evidencegate.text import (
    MONTH_NUMBERS,
    MONTHS,
    STOPWORDS,
    WEEKDAYS,
    extract_dates,
    extract_quantities,
    terms,
    word_tokens,
)
from evidencegate.text import (
    stem as stem_word,
)

__all__ = [
    "ASK_WORDS",
    "CADENCES",
    "FIGURE_TYPES",
    "PERIOD_WORDS",
    "PURPOSE_NOUN",
    "REQUIRING_WORDS",
    "SOFT_VALUE_KINDS",
    "WHOLE_ASKED",
    "AnswerType",
    "AskedMeasure",
    "Period",
    "QuestionProfile",
    "Scope",
    "Sentence",
    "answer_type",
    "ask_clause",
    "asked_action",
    "asked_cadence",
    "asked_measure",
    "asked_value",
    "asks_requirement",
    "bigrams",
    "has_figure",
    "idf_weights",
    "money_given",
    "names_in",
    "normalise_question",
    "profile_question",
    "proper_names",
    "sentence_period",
    "split_asks",
    "split_sentences",
    "states_action",
    "states_measure",
    "states_value",
    "weighted_overlap",
    "wordnet_word",
]

_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d|21\d\d)\b")
_YEAR_IN_NAME = re.compile(
    r"\b(19[5-9]\d|20\d\d|21\d\d)\s+(?!(?:January|February|March|April|May|June|July|August|"
    r"September|October|November|December|Form|Annual|Fiscal)\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*"
    r"\s+(?:Plan|Program|Programme|Act|Notes?|Facility|Agreement|Initiative|Strategy)\b"
)
"""A year opening the name of a plan, act or instrument ("2019 Productivity Plan")."""
_MONTH_NAME = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?"
)
_DATE = (
    r"(?:(?P<{p}m>" + _MONTH_NAME.replace("{", "{{").replace("}", "}}") + r")\s+(?P<{p}d>\d{{1,2}})"
    r"(?:st|nd|rd|th)?,?\s+(?P<{p}y>\d{{4}})"
    r"|(?P<{p}d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<{p}m2>"
    + _MONTH_NAME
    + r"),?\s+(?P<{p}y2>\d{{4}})"
    r"|(?P<{p}iso>\d{{4}}-\d{{2}}-\d{{2}}))"
)
"""A date in a sentence: "July 21, 2011", "21 July 2011", "Jul. 21, 2011" or ISO "2011-07-21"."""
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
    r"|\b\d+\s+CFR\s+part\s+\d+"  # 12 CFR part 1002
    r"|\b(?:[Ss]ection|[Pp]art|[Ss]ec\.)\s+\d[\d.]*(?:\([a-z0-9]+\))*"  # section 1002.5(a)(4)
    r"|\b\d+\.\d+(?:\([a-z0-9]+\))+"  # a bare section with its paragraphs: 1002.5(a)(4)
    r"|\b[Pp]aragraphs?\s+\([a-z0-9]{1,4}\)(?:\([a-z0-9]{1,4}\))*"  # paragraph (b)(2)(ii)
    # an official interpretation's comment: comment 41(b)(1)-4.iii
    r"|\b[Cc]omments?\s+\d+[a-z]?(?:\([A-Za-z0-9]+\))*(?:-\d+)?(?:\.[a-z0-9]+)*"
)
_FORM_TYPE = re.compile(r"\b(?:\d{1,2}-[KQ]|20-F|40-F|S-[1-4]|DEF\s*14A)\b", re.IGNORECASE)
"""A filing's form type (10-K, 10-Q, 8-K, 20-F): what kind of document, never a figure."""
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/((?:19|20)\d\d|\d\d)\b(?![/-]\d)")
"""A date written in digits, month first as US filings write it (12/31/2018, 6/30/23), or day
first when the first number cannot be a month (31/12/2018)."""
_AS_OF_DATE = re.compile(
    r"\b(?:as\s+(?:of|at)|in\s+(?:force|effect)\s+(?:from|on|since|at|in|during)|"
    r"effective\s+(?:from|on|since|as\s+of)"
    r"|valid\s+(?:from|on|since))\s+(?:the\s+(?:end|start|beginning|middle)\s+of\s+)?"
    r"(?:(?:mid|early|late)-?\s*)?(?:" + _MONTH_NAME + r"\s+)?(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?"
    r"(?:" + _MONTH_NAME + r"\s+)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
"""A date that says which rules are asked about ("as of the end of February 2024", "in force
from October 2023", "as in force in 2016"): it selects the version in force, not a figure an
answer restates."""
_FILING_YEAR = re.compile(
    r"\b(?:fiscal\s+year\s+|fy\s*)?((?:19|20)\d\d)\s+(?:form\s+)?"
    r"(?:10-?K|10-?Q|annual\s+report|annual\s+filing)\b",
    re.IGNORECASE,
)
"""A year that names the filing asked about ("per the FY2022 10-K", "its 2018 annual report"):
it selects the filing; a fact the filing states need not restate it."""
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
_COMPANY_SUFFIXES = frozenset({"inc", "ltd", "co", "corp"})
_OPENER = re.compile(
    r"\s+(?:However|The|This|These|That|Those|We|Our|In|As|For|It|Its|They|Their|Although|"
    r"While|Additionally|Also|Accordingly|Further|Furthermore|Moreover|Since|Because)\b"
)
"""A word that opens a sentence after a company's suffix ("... Resources, Inc. However, ...")."""
_ENUMERATOR = re.compile(r"(?:^|[\s:;(])(?:\d{1,3}|[a-z]|[ivxlc]{1,5})\.$")
"""A list enumerator ending the text so far ("1.", "a.", "iv."): the period is not an end."""
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
class Scope:
    """The documents a question is about (``doc_ids`` None: the whole corpus) and why; resolved
    by :func:`evidencegate.corpus.scope.resolve_scope`."""

    doc_ids: tuple[str, ...] | None
    reason: str


@dataclass(frozen=True)
class Sentence:
    """A sentence of a text with its offsets (``text == source[start:end]``)."""

    text: str
    start: int
    end: int


AnswerType = Literal[
    "amount",
    "percentage",
    "date",
    "duration",
    "count",
    "comparison",
    "yes_no",
    "reason",
    "list",
    "entity",
    "definition",
    "other",
]
"""What kind of answer a question asks for (see :func:`answer_type`)."""

FIGURE_TYPES: dict[str, Literal["quantity", "date"]] = {
    "amount": "quantity",
    "percentage": "quantity",
    "duration": "quantity",
    "count": "quantity",
    "comparison": "quantity",
    "date": "date",
}
"""Answer types answered by a stated figure, and which kind of figure."""


@dataclass(frozen=True)
class QuestionProfile:
    """What a question asks for, as the offline components understand it.

    ``answer_type`` is the kind of answer asked for; ``wants_figure`` whether it is a stated
    figure (and which kind). ``years`` are the years (calendar or fiscal) the question names;
    ``target`` the period it asks about. ``names`` are the proper names it mentions ("3M",
    "Regulation M", "AC-2(3)"), ``latest`` whether it asks for the most recent figure.
    """

    question: str
    terms: tuple[str, ...]
    years: tuple[str, ...]
    numbers: tuple[str, ...]
    wants_figure: Literal["quantity", "date"] | None
    target: Period
    answer_type: AnswerType = "other"
    names: tuple[str, ...] = ()
    latest: bool = False
    period_years: tuple[int, ...] = ()
    """The years the question's period touches: named years, and the years of named dates."""
    multi_part: bool = False
    """Whether the question asks several things at once (then an answer has several claims)."""
    time_unit: str | None = None
    """The unit a duration question counts in ("how many minutes": ``minute``)."""
    counted: str | None = None
    """What a count question counts, stemmed ("how many model forms": ``form``)."""
    normative: bool = False
    """Whether the question asks what a rule requires ("What does SR-2 require?", "must"):
    answered by a sentence stating a requirement, not by guidance about it."""
    negated_case: bool = False
    """Whether the question asks about a case that does not happen ("if the CPI-W does not
    increase"): its answer is a sentence about that case, which states a negation."""
    hypothetical: bool = False
    """Whether the question is about a worked example or a case it sets out itself (it gives
    figures, or says "example", "assume", "suppose"): only then does an example answer it."""
    parts: tuple[tuple[str, ...], ...] = ()
    """The terms of each thing a question asks when it asks several in turn ("how long ...,
    and how many years ..."): an answer answers each of them; empty for a single ask."""
    conjoined: tuple[tuple[str, ...], ...] = ()
    """The terms of each thing a question asks when its ask joins several noun phrases that
    each name a thing asked by a head noun of its own ("the acknowledgment deadline and the
    response deadline", "revenue and margin"): an answer states each of them. Empty when the
    question asks in clauses (:attr:`parts`) or asks one thing."""
    items: tuple[tuple[str, ...], ...] = ()
    """What a figure question measures, item by item, when it lists several ("operating profit,
    depreciation and amortization, and capital spending"): each is answered by a figure."""
    aside: tuple[str, ...] = ()
    """The terms only a preamble before the ask uses ("I'm a student looking at 3M: how much
    did it spend on ..."): who asks and why, not what the figure measures."""
    operands: tuple[tuple[str, ...], ...] = ()
    """The terms of the two figures a question asks a proportion of ("gross profit as a
    percentage of net revenue"): the rows a computed answer reads, which retrieval looks for
    (the critic and drafting read the question's ``measure`` whole)."""
    as_of_years: tuple[str, ...] = ()
    """The years the question names only to say which rules it asks about ("as of the end of
    February 2024", "the policy in force from October 2023"): they select the version in
    force; an answer from that version need not restate them."""
    asks_provision: bool = False
    """Whether the question asks which provision says something ("Which control makes the
    screen lock?", "what section covers error resolution", "cite the rule"): its answer names
    where the quoted text sits (label and heading), not only what it says."""

    @property
    def owners(self) -> tuple[str, ...]:
        """The names that say whose figure is asked: of a question naming two things or more,
        an acronym the lexicon spells out ("3M FCF 2021", "PepsiCo diluted EPS") is what is
        measured, not whose it is (nor a segment of it). A lone acronym stays a name."""
        spelled = [n for n in self.names if _lexicon_acronym(n)]
        if len(spelled) < len(self.names):
            return tuple(n for n in self.names if n not in spelled)
        return self.names

    @property
    def measure(self) -> tuple[str, ...]:
        """What a figure question measures: its terms without names, periods and figures
        ("3M latest annual capex" measures ``capex``). A figure answering it is stated about
        this (in its sentence or its table row), not only somewhere near it.

        Of a question naming two things or more, an acronym the lexicon spells out ("3M FCF
        2021", "PepsiCo diluted EPS", "JNJ COGS") is what is measured, not whose figure it is:
        the other name says whose. A lone acronym ("PEP headcount") may be either, and stays a
        name."""
        named = {t for n in self.owners for t in terms(n)}
        return tuple(
            t
            for t in self.terms
            if t not in named
            and t not in PERIOD_WORDS
            and t not in _NOT_MEASURED
            and t not in self.aside
            and not t[:1].isdigit()
        )

    def states_figure(self, text: str) -> bool:
        """Does ``text`` state the figure this question asks for (see :func:`has_figure`)?

        Figures the question itself gives ("a US$100 transfer with a US$10 fee") are not the
        answer; a duration must be in the asked unit; a count must count the asked thing.
        """
        if self.wants_figure is None:
            return False
        # "How many minutes": the value itself, which a parameter the organization sets
        # ("[Assignment: organization-defined time period]") does not state.
        value = self.time_unit is not None
        return _states_figure(
            text,
            self.wants_figure,
            self.answer_type,
            self.numbers,
            self.time_unit,
            self.counted,
            value,
        )


@lru_cache(maxsize=16384)  # pure; retrieval, drafting and the critic test the same texts
def _states_figure(
    text: str,
    wants_figure: Literal["quantity", "date"],
    answer_type: AnswerType,
    numbers: tuple[str, ...],
    time_unit: str | None,
    counted: str | None,
    value: bool = False,
) -> bool:
    """:meth:`QuestionProfile.states_figure` for a question asking for a figure, by the
    fields of the question it depends on."""
    if not value and answer_type in ("duration", "date") and _leaves_parameter(text):
        # "[Assignment: organization-defined time period]": the organization sets it. That
        # answers "how long", "how often" or "within what time", not "how many minutes"
        # (``value``), nor an amount, a count or a percentage ("max concurrent sessions",
        # "how many attempts"): such a question asks for the value itself.
        return True
    # Identifiers (AC-2(3), § 1002.6(b)) are names, their digits no figures.
    text = _without_identifiers(_without_given(text, numbers))
    # Each pattern below states its word: a text without it is not searched with the pattern
    # (which tries every number word at every position).
    if time_unit is not None and not (
        _word(time_unit).search(text) and _in_unit(time_unit).search(text)
    ):
        return False
    if counted is not None:
        return any(
            _word(form).search(text) and _counting(form).search(text)
            for form in _counted_forms(counted)
        )
    return has_figure(text, wants_figure, answer_type)


@lru_cache(maxsize=64)
def _word(word: str) -> re.Pattern[str]:
    """``word`` as written, in any case (what :func:`_in_unit` and :func:`_counting` need)."""
    return re.compile(re.escape(word), re.IGNORECASE)


@lru_cache(maxsize=8192)  # pure; the same passages are tested for every question
def _leaves_parameter(text: str) -> bool:
    """Does ``text`` leave the time asked about to the organization ("[Assignment:
    organization-defined time period]")? A parameter naming no time ("[Assignment:
    organization-defined personnel or roles]", "... controlled areas]") answers no "how
    often"; "when" is also answered by the events it names ("following [Assignment:
    organization-defined events]"), as is "how often" and "how soon"."""
    return any(_TIMING_PARAMETER.search(m.group(0)) for m in _PARAMETER.finditer(text))


@lru_cache(maxsize=8192)  # pure; the same passages are tested for every question
def _without_identifiers(text: str) -> str:
    return _IDENTIFIER.sub(" ", text)


@lru_cache(maxsize=64)
def _in_unit(time_unit: str) -> re.Pattern[str]:
    """A number counting ``time_unit``s ("30 calendar days", "the 5th business day")."""
    return re.compile(
        _NUMBER_WORD + r"(?:st|nd|rd|th)?[\s-]+(?:\(\d+\)\s+)?(?:[a-z]+\s+)?" + time_unit + r"s?\b",
        re.IGNORECASE,
    )


@lru_cache(maxsize=64)
def _counted_forms(counted: str) -> tuple[str, ...]:
    """What counts as the counted thing: the noun and the one-word members of its synonym
    groups ("how many invites" is answered by "6 invitations")."""
    lex = lexicon()
    found = terms(counted)
    forms = [counted]
    for _, _, group in lex.keys(found[:1]):
        forms += [m[0] for m in lex.members[group] if len(m) == 1 and m[0] not in forms]
    if any("group" in figure_kinds(form) for form in forms):
        # Personnel ("employees", whose synonyms "staff", "workforce" the mined measure nouns
        # count by head) are counted as people: "employed approximately 315,000 people".
        forms += [f for f in _HEADS if f not in forms]
    return tuple(forms)


_HEADS = ("people", "persons", "individuals")
"""How a count of personnel is stated when it names no kind of person."""


@lru_cache(maxsize=64)
def _counting(counted: str) -> re.Pattern[str]:
    """A number counting ``counted`` ("five model forms"); a year counts nothing ("in 2022,
    the measure of segment ...": no count of segments), nor the number of a note, an item or
    a part referred to ("Note 19. Business Segments")."""
    return re.compile(
        rf"(?<!\bnote\s)(?<!\bitem\s)(?<!\bpart\s)"
        rf"\b(?!(?:19|20)\d\d\b){_NUMBER_WORD}\s+(?!of\b)(?:[\w-]+\s+){{0,4}}?"
        rf"{re.escape(counted)}",
        re.IGNORECASE,
    )


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
    return list(_split_sentences(text, offset))


@lru_cache(maxsize=4096)  # pure; every ask splits the same passages several times
def _split_sentences(text: str, offset: int) -> tuple[Sentence, ...]:
    sentences: list[Sentence] = []
    start = 0
    for match in _SENT_END.finditer(text):
        end = match.end()
        if match.group(0).startswith("."):
            prev = re.search(r"([A-Za-z.]+)\.$", text[start : match.start() + 1])
            if prev and prev.group(1).lower().rstrip(".") in _ABBREVIATIONS:
                abbreviation = prev.group(1).lower().rstrip(".")
                if not (abbreviation in _COMPANY_SUFFIXES and _OPENER.match(text, end)):
                    continue  # "Information Resources, Inc. However, ...": a sentence ends
            if _ENUMERATOR.search(text[start : match.start() + 1]):
                continue  # "to: 1. Perform ..." — a list enumerator, not a sentence end
        _append(sentences, text, start, end, offset)
        start = end
    _append(sentences, text, start, len(text), offset)
    return tuple(sentences)


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
        if match.group(f"{p}m"):
            month, day, year = match.group(f"{p}m"), match.group(f"{p}d"), match.group(f"{p}y")
        else:
            month, day, year = match.group(f"{p}m2"), match.group(f"{p}d2"), match.group(f"{p}y2")
        return dt.date(int(year), MONTH_NUMBERS[month.lower().rstrip(".")], int(day))
    except (ValueError, KeyError):
        return None


@lru_cache(maxsize=8192)  # pure; the same sentences are read many times per ask
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


_FISCAL_YEAR = re.compile(
    r"\b(?:FY|fiscal(?:\s+year)?)\s*'?(?P<y>(?:19|20)\d\d|\d\d)\b", re.IGNORECASE
)
_LATEST = re.compile(
    r"\b(?:most\s+recent(?:ly)?|latest|last\s+(?:reported|filed|fiscal)|current\s+fiscal|"
    r"this\s+year|newest)\b",
    re.IGNORECASE,
)


def normalise_question(question: str) -> str:
    """Spell out what analysts abbreviate: ``Reg M`` is Regulation M, ``FY18`` fiscal 2018."""
    text = re.sub(
        r"\bReg\.?\s+([A-Z]{1,2})\b",
        lambda m: f"Regulation {m.group(1).upper()}",
        question,
        flags=re.IGNORECASE,
    )

    def fiscal(match: re.Match[str]) -> str:
        year = match.group("y")
        return f"fiscal year {'20' + year if len(year) == 2 else year}"

    def numeric_date(match: re.Match[str]) -> str:
        first, second, year = int(match.group(1)), int(match.group(2)), match.group(3)
        year = "20" + year if len(year) == 2 else year  # "6/30/23": the analysts' short year
        month, day = (first, second) if first <= 12 else (second, first)
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return match.group(0)
        return f"{MONTHS[month - 1].capitalize()} {day}, {year}"

    text = _NUMERIC_DATE.sub(numeric_date, text)
    # "over 5k", "$10K": thousands written short.
    text = _THOUSANDS.sub(lambda m: f"{m.group(1)}{int(m.group(2)) * 1000:,}", text)
    # "dev here - ...", "ISSO question: ...", "As the vendor-risk lead, ...": who asks, not
    # what is asked (no sentence states "dev", no document names the ISSO).
    text = _ASKER.sub("", text, count=1) or text
    # "For my capex deck: what did ...", "... ($m)? computing R&D intensity": why the asker
    # asks, not what (no sentence answering states "deck" or "intensity").
    text = _PURPOSE_OPENING.sub("", text, count=1) or text
    text = _PURPOSE_CLOSING.sub("", text, count=1) or text
    # "What's", "where's": the question word and "is" (no term "what" to look for).
    text = _QUESTION_CONTRACTION.sub(lambda m: m.group(1) + " is", text)
    # "YE2022", "YE '22", "FYE 2023": the end of that (fiscal) year, no name.
    text = _YEAR_END.sub(
        lambda m: (
            ("fiscal " if m.group("f") else "")
            + "year-end "
            + ("20" + m.group("y") if len(m.group("y")) == 2 else m.group("y"))
        ),
        text,
    )
    text = _FISCAL_YEAR.sub(fiscal, text)
    # "R&D", "D&A", "PP&E": the words the lexicon spells them out in ("&" splits no term).
    pattern, spelled = _ampersand_acronyms()
    return pattern.sub(lambda m: spelled[m.group(0).lower()], text) if spelled else text


_THOUSANDS = re.compile(r"(?<![\w.,-])(\$?)(\d{1,3})\s?[kK]\b(?!-)")
"""A sum in thousands written short ("5k", "$10K"); not "10-K", a form."""


@lru_cache(maxsize=1)
def _ampersand_acronyms() -> tuple[re.Pattern[str], dict[str, str]]:
    """The lexicon's one-word members written with "&" ("r&d"), each with its group's first
    member ("research and development"), and a pattern finding them in any case."""
    spelled: dict[str, str] = {}
    for group in lexicon().groups:
        for member in group:
            if "&" in member and " " not in member and " " in group[0]:
                spelled[member.lower()] = group[0]
    words = sorted(spelled, key=len, reverse=True)
    pattern = r"(?<![\w&])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w&])"
    return re.compile(pattern, re.IGNORECASE), spelled


_YEAR_END = re.compile(r"\b(?P<f>F)?YE\s*'?(?P<y>(?:19|20)\d\d|\d\d)\b")
"""A year-end as analysts abbreviate it ("YE2022", "FYE 2023"), in capitals only."""
_QUESTION_CONTRACTION = re.compile(
    r"\b(what|where|when|who|how|which|that|it|there)['’]s\b", re.IGNORECASE
)
_ROLE = (
    r"(?:(?:an?|the|our|your)\s+)?(?:[\w/-]+\s+){0,2}?"
    r"(?:dev|devs|developer|engineer|architect|admin|administrator|analyst|auditor|assessor|"
    r"examiner|isso|issm|ciso|cio|officer|manager|lead|owner|lawyer|counsel|attorney|paralegal|"
    r"teller|banker|employee|staff|clerk|consultant|contractor|intern|reviewer|tester|"
    r"specialist|advisor|adviser)s?"
)
_ASKER = re.compile(
    r"^\s*(?:"
    rf"{_ROLE}\s+here\b[\s,.;:!–—-]*"
    rf"|{_ROLE}(?:\s+(?:question|q))?\s*:\s*(?=\S)"
    rf"|as\s+{_ROLE}\b\s*,?\s*"
    r"(?:(?:i|we)\s+(?:must|need\s+to|have\s+to|want\s+to|would\s+like\s+to)\s+"
    r"(?:confirm|know|check|understand|ask|verify)\b\s*[:,]?\s*)?"
    r")",
    re.IGNORECASE,
)
"""How a question says who asks before it asks ("dev here - ...", "ISSO question: ...",
"As auditor I must confirm: ..."): a role, not a detail of what is asked."""


_PURPOSE_GERUND = (
    r"(?:computing|calculating|working\s+out|building|preparing|updating|drafting|modell?ing|"
    r"benchmarking|reconciling|doing|putting\s+together|filling\s+(?:in|out)|writing\s+up|"
    r"asking\s+for)"
)
PURPOSE_NOUN = (
    r"(?:deck|model|pack|memo|report|analysis|calculation|ratio|review|spreadsheet|sheet|"
    r"slides?|note|notes|doc|document|write-?up|comparison|benchmark|file|workpapers?|"
    r"dashboard|summary|brief|briefing|presentation|computation)"
)
"""What an asker prepares with the answer ("deck", "memo", "quick ratio"): "for my X deck"
says why the question is asked, not what it asks."""
_PURPOSE_OPENING = re.compile(
    r"^\s*(?:"
    # "For my capex benchmarking deck:", "For our audit file -"
    rf"for\s+(?:my|our)\s+(?:[\w&/'-]+\s+){{0,4}}?{PURPOSE_NOUN}\s*[:;,–—-]+"
    # "I'm computing EBITDA.", "We are preparing the board pack;"
    rf"|(?:i\s*['’]?m|i\s+am|we\s*['’]?re|we\s+are)\s+{_PURPOSE_GERUND}\b[^.;:?!]{{0,60}}[.;:!–—-]"
    r")\s*(?=\S)",
    re.IGNORECASE,
)
"""Why the asker asks, opening the question ("For my capex deck: what did PepsiCo book ...",
"I'm computing EBITDA: ..."): a purpose, not a detail of what is asked."""
_PURPOSE_CLOSING = re.compile(
    r"(?<=[?.;,–—)-])\s*(?:[–—-]\s*)?(?:"
    # "... ($m)? computing R&D intensity", "? asking for our logging design doc"
    rf"(?:i\s*['’]?m\s+|i\s+am\s+|we\s*['’]?re\s+|we\s+are\s+)?{_PURPOSE_GERUND}\b"
    # "..., for my quick ratio", "... - for the board pack"
    rf"|for\s+(?:my|our|a|an|the)\s+(?:[\w&/'-]+\s+){{0,4}}?{PURPOSE_NOUN}\b"
    r")[^?]{0,80}$",
    re.IGNORECASE,
)
"""Why the asker asks, after the question ("..., for my quick ratio", "? computing R&D
intensity"): a purpose, not a detail of what is asked."""


@lru_cache(maxsize=1024)  # pure and immutable; each ask profiles its question several times
def profile_question(question: str, *, as_of: dt.date) -> QuestionProfile:
    """Terms, explicit years and numbers, the answer type, names and the target period."""
    text = normalise_question(question)
    dates = [d for m in _ONE_DATE.finditer(text) if (d := _date_from(m, "a"))]
    text_wo_dates = _ONE_DATE.sub(" ", text)
    years = tuple(dict.fromkeys(_YEAR.findall(text_wo_dates)))
    if len(years) > 1:
        # "its 2019 Productivity Plan in 2022": a year that opens a name is part of the name.
        named = {m.group(1) for m in _YEAR_IN_NAME.finditer(text_wo_dates)}
        if named and set(years) - named:
            years = tuple(y for y in years if y not in named)
    # Identifiers (AC-2(3), § 1002.6(b), 12 CFR 1013, Form W-2) name what is asked about; their
    # digits are not figures an answer must state.
    bare = _IDENTIFIER.sub(" ", re.sub(r"\bfiscal year\b", " ", text_wo_dates))
    bare = _FORM_TYPE.sub(" ", bare)  # "the 2022 10-K": a kind of filing
    if len(years) == 1:
        bare = _AS_OF_DATE.sub(" ", bare)  # "as of mid-2013": which rules, not what about
        bare = _STOOD_DATE.sub(" ", bare)  # "as it stood in 2018": the same
    bare = _DAY_OF_MONTH.sub(" ", bare)  # "by June 1": a day, not a figure
    numbers = tuple(
        dict.fromkeys(
            n.replace(",", "")
            for n in re.findall(r"\b\d[\d,]*(?:\.\d+)?\b", bare)
            if n not in years and not _YEAR.fullmatch(n)
        )
    )
    bounded = sentence_period(text)  # "before July 21, 2011", "as of 1 March 2024"
    if bounded is not None and len(dates) == 1 and bounded.start != bounded.end:
        target = (
            Period(bounded.start, bounded.start)
            if bounded.end == dt.date.max
            else Period(bounded.end, bounded.end)
        )
    elif len(dates) == 1:
        target = Period(dates[0], dates[0])
    elif len(years) == 1:
        y = int(years[0])
        target = Period(dt.date(y, 1, 1), dt.date(y, 12, 31))
    elif years:
        ordered = sorted(int(y) for y in years)
        target = Period(dt.date(ordered[0], 1, 1), dt.date(ordered[-1], 12, 31))
    else:
        target = Period(as_of, as_of)
    kind = answer_type(text)
    names = _distinct_names([*(i.strip() for i in _IDENTIFIER.findall(text)), *proper_names(text)])
    parts = _parts(text, years)
    unit = _TIME_UNIT.search(text) if kind == "duration" else None
    counted = _COUNTED.search(text) if kind == "count" else None
    return QuestionProfile(
        question=question,
        terms=tuple(dict.fromkeys(t for t in terms(bare) if t not in years and t not in _FRAME)),
        years=years,
        numbers=numbers,
        wants_figure=FIGURE_TYPES.get(kind),
        target=target,
        answer_type=kind,
        names=names,
        latest=bool(_LATEST.search(text)) or (not years and not dates),
        period_years=tuple(sorted({*(int(y) for y in years), *(d.year for d in dates)})),
        multi_part=kind in ("list", "comparison")
        or len(years) > 1
        or bool(_MULTI_PART.search(text)),
        time_unit=next(u for u in unit.groups() if u).lower() if unit else None,
        counted=_counted_stem(counted.group(1)) if counted else None,
        normative=kind not in FIGURE_TYPES
        and kind != "yes_no"
        and bool(_NORMATIVE_QUESTION.search(text)),
        negated_case=bool(_NEGATED_CASE.search(text)),
        hypothetical=bool(numbers) or bool(_HYPOTHETICAL.search(text)),
        parts=parts,
        conjoined=() if parts or kind == "yes_no" else _conjoined(bare, names),
        items=() if parts else _items(bare, kind, names),
        operands=_operands(bare, kind, names),
        aside=_aside(bare),
        as_of_years=_as_of_years(text, years),
        asks_provision=bool(_PROVISION_QUESTION.search(text)),
    )


def _as_of_years(text: str, years: tuple[str, ...]) -> tuple[str, ...]:
    """The question's one year when it only says which rules or filing are asked about ("as of
    2019", "the FY2022 10-K", "In January 2023, how often did the team have to ...")."""
    if len(years) != 1:
        return ()
    (year,) = years
    # A question about what a rule required opening with its date asks the rules of that date.
    dates = _AS_OF_DATE.findall(text) + _FILING_YEAR.findall(text)
    dates += _STOOD_DATE.findall(text) + _HEADING_DATE.findall(text)
    dated = _HEADING_DATE.sub(" ", _STOOD_DATE.sub(" ", _AS_OF_DATE.sub(" ", text)))
    if _NORMATIVE_QUESTION.search(text):
        dates += _RULES_DATE.findall(text)
        dated = _RULES_DATE.sub(" ", dated)
    if year in dates and not re.search(rf"\b{year}\b", _FILING_YEAR.sub(" ", dated)):
        return (year,)
    return ()


_STOOD_DATE = re.compile(
    r"\bas\s+(?:it|they)\s+(?:stood|stands|read|reads|applied|applies)\s+(?:in|on)\s+"
    r"(?:(?:early|mid|late)-?\s*)?(?:" + _MONTH_NAME + r"\s+)?(?:\d{1,2},?\s+)?((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
"""A date saying which text of a rule is asked about ("§ 1024.39 as it stood in January
2018"): its words are none of the topic."""
_HEADING_DATE = re.compile(
    r"^[^:?]{2,80}?,\s*(?:" + _MONTH_NAME + r"\s+)?((?:19|20)\d\d)\s*:\s", re.IGNORECASE
)
"""A date heading the question before a colon ("Reg X 1024.39(d)(3)(iii), January 2018: ...")."""

_RULES_DATE = re.compile(
    r"^\s*(?:back\s+)?in\s+(?:(?:early|mid|late)-?\s*)?(?:" + _MONTH_NAME + r"\s+)?"
    r"((?:19|20)\d\d)\s*,",
    re.IGNORECASE,
)
"""A date opening a question ("In January 2023, ...", "Back in 2016, ..."): with a question about
what the rules required, it says which rules."""

_WH = (
    r"(?:(?:for|within|by|in|at|to|from|on|after|under)\s+(?:how|what|which|whom|when)|"
    r"what|which|when|who|whom|whose|how|whether|why|where)\b"
)
_ASK_BREAK = re.compile(
    r"\?\s+(?=\S)|;\s*|\s+\+\s+|,\s*(?:(?:and|or)\s+)?(?=" + _WH + r")|,\s*(?:and|or)\s+"
    r"(?=(?:is|are|does|do|must|can|may)\b)|\s+and\s+(?=" + _WH + r")",
    re.IGNORECASE,
)
_CASE_CLAUSE = re.compile(
    r"^\s*(?:if|when|whenever|where|once|after|before|should|in\s+case)\s+"
    r"(?!(?:is|are|was|were|does|do|did|must|can|may|will|should|shall|has|have)\b)",
    re.IGNORECASE,
)
"""The opening of a clause setting out a case ("When a creditor collects race data, ..."),
not an ask of its own."""
_ASK_START = re.compile(
    r"^\W*(?:(?:for|within|by|in|at|to|from|on|after|under)\s+(?:how|what|which|whom|when)\b|"
    r"(?:what|which|when|who|whom|whose|how|why|where|whether|is|are|was|were|does|do|did|"
    r"must|can|could|may|might|will|would|should|shall|has|have|had|list|name|state|give|"
    r"describe|explain)\b)",
    re.IGNORECASE,
)
"""How an ask opens: a question word (after a preposition or not), an auxiliary, or a request."""
_SCENE = re.compile(
    r"^\W*(?:under|in|per|according\s+to|as\s+of|with|for|within|by|during|regarding|about|"
    r"on|at|from|after|before)\b",
    re.IGNORECASE,
)
"""How a phrase setting the scene opens ("Under Regulation X as amended in 2018, ...")."""
_ASKER_SCENE = re.compile(
    r"^\W*(?:as\s+(?:an?\s+|the\s+|our\s+)?\w+|i|i'm|i've|we|we're|we've|our|my)\b(?!\s*\?)",
    re.IGNORECASE,
)
"""How the asker's own scene opens ("As transferor servicer, ...", "I'm joining the bank next
week, ...", "We sent an applicant a notice; ..."): who asks and their case, no ask of its own."""
_EMBEDDED_ASK = re.compile(r"\b(?:what|which|when|who|whom|how|whether|why|where)\b", re.I)
"""A question word inside a scene ("I need to know how long ..."): an ask after all."""
_LISTED_ASKS = re.compile(r"^[^:?]{2,60}:\s*(?P<asks>[^:]+,[^:]+)$")


def split_asks(question: str) -> list[str]:
    """The several things a question asks: "What X, and how often Y?" -> "What X", "how
    often Y?"; "PEP: risk rating, refresh frequency, retention?" -> its three items."""
    listed = _LISTED_ASKS.match(question.strip())
    if (
        listed
        and not re.search(r"\d|->|=>", listed.group("asks"))
        and not _CASE_CLAUSE.match(listed.group("asks"))
        and not _ASK_START.match(listed.group("asks"))
    ):
        # Not "AU-5: when audit processing fails, who gets alerted?": a question after the
        # colon, not a list of things asked.
        # Items stating figures ("$100 transfer, $10 fee, ... -> refund?") are what the
        # question gives, not what it asks.
        parts = re.split(r",\s*(?:and\s+|or\s+)?", listed.group("asks"))
    else:
        parts = _ASK_BREAK.split(question)
        opening = parts[0].rsplit(": ", 1)[-1]  # "A gift of $120: may I accept it, and ..."
        if len(parts) > 1 and (
            _CASE_CLAUSE.match(opening) or (_SCENE.match(opening) and not _ASK_START.match(opening))
        ):
            # A case ("When a creditor collects race data, what ...") or a scene ("Under
            # Regulation X as amended in 2018, by when ...") belongs to the ask after it.
            parts = [f"{parts[0]}, {parts[1]}", *parts[2:]]
    # An ask of fewer than two words of its own ("For which accounts and which kind of access
    # does IA-2(1) require ...", "..., and when?") shares the words of the ask next to it.
    asks: list[str] = []
    pending = ""
    for part in (p.strip(" ,;?") for p in parts):
        if not part:
            continue
        part = f"{pending} {part}".strip() if pending else part
        if len(terms(part)) < 2:
            pending = part
            continue
        pending = ""
        asks.append(part)
    if pending and asks:
        asks[-1] = f"{asks[-1]} {pending}"
    return asks


def _parts(question: str, years: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The terms of each ask (:func:`split_asks`), when the question asks two or more that
    name two terms each (its identifiers, years and asking words left out)."""
    chunks = split_asks(question)
    if len(chunks) > 1:
        # The asker's own scene before the first ask ("As transferor servicer, how many days
        # ...", "I'm joining the bank next week, how long ...", "CP-4 — after the test, what
        # ..."): no ask of its own, but the case of the ask after it.
        opening = re.split(r"\s+[\u2013\u2014-]+\s+", chunks[0].rsplit(": ", 1)[-1])[-1]
        if (
            _ASKER_SCENE.match(opening) or (_SCENE.match(opening) and not _ASK_START.match(opening))
        ) and not _EMBEDDED_ASK.search(opening):
            chunks = [f"{chunks[0]}, {chunks[1]}", *chunks[2:]]
    asks = [
        tuple(
            t
            for t in terms(_IDENTIFIER.sub(" ", chunk))
            if t not in years and t not in _FRAME and t not in _ASK_WORDS and not t[:1].isdigit()
        )
        for chunk in chunks
    ]
    asks = [a for a in asks if len(a) >= 2]
    return tuple(asks) if len(asks) >= 2 else ()


def _measured_terms(
    chunk: str, named: set[str] | frozenset[str], drop: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The terms of one asked item of a question that say what is measured: not the names,
    the period, the asking frame, words measuring nothing, figures, nor ``drop``."""
    return tuple(
        t
        for t in terms(chunk)
        if t not in named
        and t not in PERIOD_WORDS
        and t not in _NOT_MEASURED
        and t not in _FRAME
        and t not in drop
        and not t[:1].isdigit()
    )


def _items(text: str, kind: AnswerType, names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The measured items of a figure question listing several, each as its terms."""
    if kind not in ("amount", "percentage", "count", "duration", "date"):
        return ()
    named = {t for n in names for t in terms(n)}
    # "I'm a student looking at 3M: how much did it spend on research, development and ...":
    # the words before the ask say who asks, not what is measured.
    _, colon, ask = text.rpartition(": ")
    if colon and _ASK_START.match(ask):
        text = ask
    if names:
        # "Johnson & Johnson", "the Defense, Space & Security segment": names, no list.
        name = "(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ")"
        text = re.sub(rf"{name}(?:\s*(?:,|&|\band\b)\s*{name})*", " ", text)
    items = []
    for n, chunk in enumerate(_listed(text)):
        item = _measured_terms(chunk, named)
        if not item:
            continue
        if n and _CLAUSE_START.match(chunk):
            return ()  # ", over the whole year, before I ask": clauses, not a list of measures
        items.append(item)
    return tuple(items) if len(items) >= 2 else ()


_ASKED_HEADS = frozenset(
    terms(
        "deadline deadlines window windows period periods cap caps margin margins interval "
        "intervals cycle cycles timeframe timeframes threshold thresholds ceiling maximum minimum"
    )
)
"""Head nouns naming a thing asked that WordNet knows as no measure (:func:`figure_kinds`):
a time limit or a bound ("the cancellation window", "the fee cap", "operating margin")."""
_AFTER_HEAD = re.compile(
    r"\s+(?:for|of|after|before|per|under|in|on|at|to|from|within|by|during|when|if|that|which|"
    r"who|where|since|until|with|without|applicable|attributable|required|set|given|due|paid)\b.*$",
    re.IGNORECASE,
)
"""What follows a noun phrase's head: its prepositional phrase or relative clause."""
_ASK_PREAMBLE = re.compile(r"^.*?(?::\s+|\s+[-\u2013\u2014]+\s+)(?=\S)")
"""A tag or scene before the ask ("Dealing desk query: ...", "EFT error on my card - ...")."""
_ASK_TAIL = re.compile(
    r"\s+[-\u2013\u2014]+\s+(?:what|which|how|when|who|are|is)\b[^-\u2013\u2014]*$|[?.!\s]+$",
    re.IGNORECASE,
)
"""An ask after the noun phrases ("... - what are they?") or the closing mark."""
_ASK_OPENER = re.compile(
    r"^\W*(?:(?:what|which)(?:'s|\s+(?:is|are|were|was))?|tell\s+me|give\s+me|list|state|"
    r"please\s+(?:give|state|list|provide)|provide)\s+",
    re.IGNORECASE,
)
"""The words opening an ask whose object is the noun phrases ("What are", "What's")."""


WHOLE_ASKED = frozenset(
    terms("total overall company-wide companywide consolidated whole entire combined")
)
"""Words asking for the whole filer's figure ("total revenues", "company-wide"): which figure,
as its row states it without them ("Revenues"), not a thing asked of its own; an item of
these words alone names no measure."""


def _conjoined(text: str, names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The terms of each noun phrase the question's ask joins by "and" (or commas), when each
    names a thing asked by a head noun of its own (:func:`figure_kinds` or
    :data:`_ASKED_HEADS`): "the acknowledgment deadline and the response deadline" asks two
    time limits, "race and ethnicity data" one kind of data, "the fee and notice" no measure."""
    ask = text.strip()
    if len(re.findall(r"\band\b", ask, re.IGNORECASE)) != 1:
        return ()  # "A and B and C", or none: a list (items) or one thing asked
    # Where the ask's noun phrases are: after a tag or scene ("Dealing desk: A and B?") and
    # before a closing ask ("A and B - what are they?").
    ask = _ASK_TAIL.sub("", ask)
    before = _ASK_PREAMBLE.sub("", ask)
    if re.search(r"\band\b", before, re.IGNORECASE):
        ask = before
    ask = _ASK_OPENER.sub("", ask)
    named = {t for n in names for t in terms(n)}
    chunks = _listed(ask)
    if len(chunks) < 2:
        return ()
    conjoined = []
    for n, chunk in enumerate(chunks):
        if n and _CLAUSE_START.match(chunk):
            return ()  # "A, and when is it due": a clause, not a second noun phrase
        head_phrase = _AFTER_HEAD.sub("", chunk.strip(" ,;?"))
        words = re.findall(r"[A-Za-z][\w'-]*", head_phrase)
        if not words:
            return ()
        head = words[-1].lower()
        if not (figure_kinds(head) or head in _ASKED_HEADS or set(terms(head)) & _ASKED_HEADS):
            return ()  # a modifier sharing the next phrase's head, or no thing asked
        second = _AFTER_HEAD.sub("", chunks[1].strip(" ,;?"))
        if len(words) == 1 and n == 0 and len(re.findall(r"[A-Za-z][\w'-]*", second)) > 1:
            return ()  # "race and ethnicity data": the first word shares the second's head
        part = _measured_terms(chunk, named, _ASK_WORDS | WHOLE_ASKED)
        if not part:
            return ()  # "total revenues and the segment's revenues": the whole, no thing asked
        conjoined.append(part)
    # What tells the things asked apart, not the head or the subject they share ("the
    # acknowledgment deadline and the response deadline": "acknowledgment", "response").
    shared = set.intersection(*(set(part) for part in conjoined))
    own = [tuple(t for t in part if t not in shared) for part in conjoined]
    return tuple(own) if all(own) else ()


def _aside(text: str) -> tuple[str, ...]:
    """The terms of a preamble before a colon that the ask after it does not use, when what
    follows the colon is an ask ("I'm a student looking at 3M: how much did it spend ...")."""
    before, colon, ask = text.rpartition(": ")
    if not colon or not _ASK_START.match(ask):
        return ()
    asked = set(terms(ask))
    return tuple(t for t in dict.fromkeys(terms(before)) if t not in asked)


def _listed(text: str) -> list[str]:
    """The chunks of a list ("operating profit, D&A and capital spending"), a name the lexicon
    knows kept whole ("property, plant and equipment", "depreciation and amortization")."""
    chunks = re.split(r",|;|\s&\s|\band\b", text)
    if len(chunks) < 2:
        return chunks
    sequence: list[str] = []
    bounds: list[int] = []
    for chunk in chunks:
        sequence.extend(terms(chunk))
        bounds.append(len(sequence))
    kept = set(bounds[:-1])
    for start, end, _ in lexicon().keys(sequence):
        if end - start > 1:
            kept -= set(range(start + 1, end))
    out: list[tuple[str, bool]] = []
    for chunk, bound in zip(chunks, bounds, strict=True):
        if out and out[-1][1] is False:
            out[-1] = (out[-1][0] + " and " + chunk, bound in kept)
        else:
            out.append((chunk, bound in kept))
    return [chunk for chunk, _ in out]


def _operands(text: str, kind: AnswerType, names: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The terms of the two figures a question asks a proportion of ("gross profit as a
    percentage of net revenue", "ratio of current assets to current liabilities")."""
    two = None
    if kind in ("amount", "percentage"):
        two = _TWO_FIGURES.search(text) or _NEAR_TWO_FIGURES.search(text)
    if two is None:
        return ()
    named = {t for n in names for t in terms(n)}
    pair = [
        tuple(
            t
            for t in terms(_WHOLE_TAIL.split(phrase, maxsplit=1)[0])
            if t not in named
            and t not in PERIOD_WORDS
            and t not in _NOT_MEASURED
            and t not in _FRAME
            and not t[:1].isdigit()
        )
        for phrase in (figure_phrase(g) if k == "x" else g for k, g in _groups(two))
    ]
    return tuple(pair) if all(pair) else ()


def _groups(match: re.Match[str]) -> list[tuple[str, str]]:
    return [(k, g) for k, g in match.groupdict().items() if g is not None]


def figure_phrase(phrase: str) -> str:
    """The words of ``phrase`` naming a figure, without the words asking for it that lead up
    to it: what follows the last possessive name or the last asking pronoun and its verb ("as
    an auditor I need 3M's capital expenditures": "capital expenditures"; "give me the
    operating income": "the operating income")."""
    ends = [m.end() for m in _PREAMBLE_END.finditer(phrase)]
    rest = phrase[ends[-1] :] if ends else phrase
    return rest if rest.strip() else phrase


_TWO_FIGURES = re.compile(
    r"(?:^|\b(?:was|were|is|are|did|does|of|compute|calculate|what)\s+)(?P<x>[^,;:?()]+?)\s+as\s+an?\s+"
    r"(?:share|percent(?:age)?|proportion|portion|fraction)\s+of\s+(?P<y>[^,;:?()]+)|"
    r"\bratio\s+(?:of|between)\s+(?P<x2>[^,;:?()]+?)\s+(?:to|and|over)\s+(?P<y2>[^,;:?()]+)|"
    r"\bratio\s*\(\s*(?P<x3>[^,;:?()]+?)\s+(?:to|over|divided\s+by)\s+(?P<y3>[^,;:?()]+?)\s*\)|"
    r"\bwhat\s+(?:share|percent(?:age)?|proportion|portion|fraction)\s+of\s+(?P<y4>[^,;:?()]+?)\s+"
    r"(?:came|comes|come)\s+from\s+"
    r"(?P<x4>[^;:?()]+)",
    re.IGNORECASE,
)
"""A figure asked as a proportion of two others: what each of them measures."""
_NEAR_TWO_FIGURES = re.compile(
    r"(?P<x>(?:[\w&'’.-]+\s+){0,3}[\w&'’.-]+)\s+(?:as\s+an?\s+(?:share|percent(?:age)?|"
    r"proportion|portion|fraction)\s+of|over|divided\s+by)\s+(?P<y>[^,;:?()/]+)",
    re.IGNORECASE,
)
"""The same asked after other words ("I need 3M's capital expenditures as a percentage of net
sales"), or as one figure over another ("current assets over current liabilities"): the few
words before name the first figure. Not "a / b", which is as often "a or b" ("fee cap for debit
card / ATM")."""
_PREAMBLE_END = re.compile(
    r"[\w&.-]+['’]s\s+|\b(?:i|we|you)\s+(?:would\s+like|[\w'’]+)\s+|\b(?:me|us)\s+",
    re.IGNORECASE,
)
"""Where the words asking for a figure end and its name begins: after a possessive name,
an asking pronoun with its verb ("I need", "we want") or an object pronoun ("give me"). Not
after a comma: "sales, general and administrative expenses" is one figure."""
_WHOLE_TAIL = re.compile(
    r"\s(?:in|at|for|during|on|as\s+of|by|from|of\s+(?:fiscal|the\s+year|year))\s", re.IGNORECASE
)
"""Where the words naming a figure end ("net revenue in 2022", "liabilities at year-end")."""
_CLAUSE_START = re.compile(
    r"\s*(?:the\s+)?(?:per|over|before|after|for|in|on|at|with|without|by|from|to|of|under|within|"
    r"if|when|where|while|once|unless|as|since|because|which|that|who|what|how|i|we|you|it|they|"
    r"is|are|was|were|does|do|did|must|may|can|could|should|will|would|has|have)\b",
    re.IGNORECASE,
)
"""How a chunk after a comma starts when it is a clause or a phrase, not another measure."""


_ASK_WORDS = frozenset(terms("long often soon much many quickly frequently"))
ASK_WORDS = _ASK_WORDS
"""How a question asks for a figure ("how long", "how often"), not what the figure measures."""
"""Words that say what kind of answer an ask wants, not what it is about."""
_FRAME = frozenset(
    terms(
        "situations circumstances cases occasions points instances ways kinds types sorts "
        "things aspects details exactly actually basically really supposed"
    )
)
"""Words that frame a question ("in which situations", "what kind of", "what are we supposed
to test exactly"), not its topic."""
_NOT_MEASURED = frozenset(
    terms(
        "much many change changed changes increase increased decrease decreased grow grew growth "
        "decline declined rise rose fall fell drop dropped differ difference compare compared "
        "comparison versus"
    )
)
"""What a figure question asks done with the figure (compare, change), or how it asks ("how
much"): not what the figure measures."""
PERIOD_WORDS = frozenset(
    terms(
        "latest last recent recently newest current prior previous annual annually yearly year "
        "years fiscal calendar end ended ending period quarter quarterly reported report "
        "published results month months date as of year-end"
    )
)
"""Words that say which period is asked ("latest", "fiscal year", "as reported"): the period,
read from the question's years and dates, not its topic."""
"""Words of a question that say when, not what: not part of what a figure measures."""
REQUIRING_WORDS = frozenset(
    terms(
        "require requires required requirement requirements oblige obliges obliged obligation "
        "obligations mandate mandates mandatory"
    )
)
"""Words by which a question asks what a rule requires ("process isolation requirement?",
"what obligations does ... set"): the kind of sentence asked for, not its topic. Their
synonyms (rule, regulation, control) are no words of the topic either."""
_PROVISION_QUESTION = re.compile(
    # "which control", "what NIST control", "which section of Reg E", "under what rule",
    # "cite the section", "the control number": the provision itself is asked for. Not a
    # provision the question names ("what access control AC-2 requires", "the Regulation M
    # threshold"), nor "what X does Y require" (what it says) nor "what kind of policy".
    r"\b(?:which|(?P<what>what))\s+"
    r"(?:(?!(?:does|do|did|is|are|was|were|must|should|can|could|may|might|will|would|has|have|"
    r"had|shall|happens?|kinds?|types?|sorts?)\b)[\w-]+\s+){0,2}?"
    r"(?:controls?|control\s+enhancements?|enhancements?|sections?|subsections?|paragraphs?|"
    r"provisions?|subparts?|clauses?|articles?|appendix|appendices|policy|policies|rules?|"
    r"regulations?)\b"
    r"(?!\s*(?:[\d§(]|[a-z]{1,2}(?:\.[a-z]{2})?-\d|[a-z]\b))"
    r"(?(what)(?!\s+(?:does|do|did|must|should|would|will|is|are|was|were)\b))|"
    r"\b(?:control|section|paragraph|rule|policy)\s+(?:number|id|identifier|reference)\b(?![.-]\w)|"
    r"\b(?:cite|name|give\s+me)\s+(?:the\s+)?(?:control|section|paragraph|provision|rule|"
    r"regulation|policy)\b|"
    # "the control requiring a tamper program was which one?"
    r"\b(?:controls?|enhancements?|sections?|provisions?|rules?)\b.*\bwhich\s+one\b|"
    # "control for correlating logs from several repositories?", "I need the 800-53 control
    # that stops one person holding conflicting duties": a bare or sought noun phrase whose
    # head is the provision, restricted by what it does.
    r"^(?:(?:i\s+)?(?:need|want|looking\s+for|find|show\s+me)\s+)?(?:the\s+|a\s+)?"
    r"(?:[\w.-]+\s+){0,2}?(?:controls?|control\s+enhancements?|enhancements?|provisions?)\s+"
    r"(?:for|that|which|covering|requiring|on|about|dealing\s+with)\b"
    r"(?!.*\b(?:what|how|when|does|do|must|should|is|are)\b)|"
    r"\b(?:i\s+)?(?:need|want|looking\s+for)\s+(?:the\s+|a\s+)(?:[\w.-]+\s+){0,2}?"
    r"(?:controls?|control\s+enhancements?|enhancements?|provisions?)\s+(?:that|which|for)\b",
    re.IGNORECASE,
)
_NORMATIVE_QUESTION = re.compile(
    r"\b(?:requires?|required|requirements?|must|obliged?|obligations?|obligated|have\s+to|"
    r"has\s+to|need\s+to|needs\s+to|comply|compliance|mandat\w*|expected\s+to|shall|"
    r"duty|duties|should|wants?)\b",
    re.IGNORECASE,
)


def asks_requirement(question: str) -> bool:
    """Does the question ask what a rule requires ("must", "required", "have to"), whatever
    the kind of answer it asks for ("When must accounts be disabled")?"""
    return _NORMATIVE_QUESTION.search(question) is not None


_NORMATIVE_SENTENCE = re.compile(
    r"\b(?:shall|must|is\s+required|are\s+required|required\s+to|"
    r"may\s+not|prohibit\w*|is\s+responsible|are\s+responsible|obligat\w*|mandatory)\b|"
    r"\[(?:Assignment|Selection)\b",
    re.IGNORECASE,
)
_IMPERATIVE_VERBS = frozenset(
    [
        "develop",
        "establish",
        "implement",
        "install",
        "enforce",
        "review",
        "update",
        "protect",
        "provide",
        "maintain",
        "ensure",
        "document",
        "identify",
        "employ",
        "monitor",
        "define",
        "determine",
        "restrict",
        "prohibit",
        "require",
        "authorize",
        "limit",
        "disable",
        "configure",
        "conduct",
        "retain",
        "notify",
        "report",
        "allocate",
        "assign",
        "manage",
        "train",
        "test",
        "verify",
        "validate",
        "approve",
        "designate",
        "coordinate",
        "disseminate",
        "include",
        "use",
        "apply",
        "prevent",
        "separate",
        "audit",
        "generate",
        "correct",
        "remove",
        "deny",
        "allow",
        "permit",
        "control",
        "track",
        "record",
        "respond",
        "plan",
        "designate",
        "enable",
        "integrate",
        "incorporate",
        "obtain",
        "perform",
        "prepare",
        "produce",
        "reassess",
        "remediate",
        "scan",
        "terminate",
        "transmit",
        "uniquely",
        "analyze",
        "share",
        "display",
        "lock",
        # Further instructions the control statements open with ("Conceal, via the device
        # lock, ...", "Change combinations and keys ...", "Store backup copies ...").
        "accept",
        "address",
        "adjust",
        "align",
        "appoint",
        "assess",
        "change",
        "check",
        "choose",
        "collect",
        "conceal",
        "connect",
        "correlate",
        "describe",
        "design",
        "detect",
        "downgrade",
        "grant",
        "initiate",
        "inspect",
        "isolate",
        "publish",
        "reassign",
        "release",
        "request",
        "revoke",
        "route",
        "secure",
        "select",
        "show",
        "specify",
        "store",
        "synchronize",
    ]
)
"""Verbs that open a requirement written as an instruction ("a. Develop a plan ...")."""


@lru_cache(maxsize=8192)  # pure; drafting asks it of every candidate sentence, every ask
def is_normative(sentence: str) -> bool:
    """Does the sentence state a requirement (shall, must, is required, an instruction)?

    A requirement may also be written as what its subject does, in the present tense: "The
    organization employs ...", "The information system implements ...", or, under such a
    lead-in, "a. Develops, documents, and disseminates ..." (the style of NIST SP 800-53 rev4).
    """
    if _NORMATIVE_SENTENCE.search(sentence):
        return True
    words = word_tokens(_SECTION_NUMBER.sub("", sentence))
    if not words:
        return False
    first = words[0]
    if first[:1].isupper() and _instruction_verb(first):
        return True
    subject = _REQUIRED_SUBJECT.match(" ".join(words[:5]))
    return subject is not None and _instruction_verb(subject.group(1), third_person=True)


_REQUIRED_SUBJECT = re.compile(
    r"^The\s+(?:information\s+)?(?:organi[sz]ation|system)\s+(?:[a-z0-9]\s+)?(\w+)"
)
"""The subject of a requirement stated as what it does ("The organization employs ...")."""


def _instruction_verb(word: str, *, third_person: bool = False) -> bool:
    """Is ``word`` a verb of :data:`_IMPERATIVE_VERBS`, as an instruction ("Develop") or, in
    the third person, as what a subject does ("Develops", "employs", "analyzes")?"""
    word = word.lower()
    if not third_person and word in _IMPERATIVE_VERBS:
        return True
    for ending in ("es", "s"):
        if word.endswith(ending) and word[: -len(ending)] in _IMPERATIVE_VERBS:
            return True
        if ending == "es" and word.endswith("ies") and word[:-3] + "y" in _IMPERATIVE_VERBS:
            return True
    return False


_DAY_OF_MONTH = re.compile(r"\b" + _MONTH_NAME + r"\s+\d{1,2}(?:st|nd|rd|th)?\b", re.IGNORECASE)
_TIME_UNIT = re.compile(
    r"\bhow\s+many\s+(?:(?:business|calendar|working|full|consecutive)\s+)?"
    r"(day|week|month|year|hour|minute|quarter)s?\b|"
    r"\bin\s+(?:(?:business|calendar|working)\s+)?(day|week|month|year|hour|minute)s"
    r"(?=\s*\??\s*$|\s*[,)])",
    re.IGNORECASE,
)
_COUNTED = re.compile(
    r"\b(?:how\s+many|(?:the\s+)?(?:number|count)\s+of)\s+(?:(?:the|a)\s+)?(?:[a-z-]+\s+){0,4}?"
    r"([a-z-]{2,}[a-rt-z]s)\b",
    re.IGNORECASE,
)
"""What a count question counts: the first plural noun after "how many" ("how many sample
credit forms" counts forms)."""
_NEGATED_CASE = re.compile(
    r"(?:\b(?:if|when|whenever|should|in\s+case|in\s+the\s+event)\b|(?:^|[,;:(])\s*where\b)"
    r"[^?.;,]*?(?:\bnot\b|n't\b|\bno\b|\bnever\b|\bfails?\s+to\b)",
    re.IGNORECASE,
)
"""A case clause stating a negation ("if the CPI-W does not increase"). The clause ends at a
comma ("if a lease totals more than X, it is not subject to ...": the negation is the
question's, not its case); "where" opens a case only at a clause's start ("the amount where
the rule no longer applies" names the amount)."""
_HYPOTHETICAL = re.compile(
    r"\b(?:examples?|hypothetical|illustrat\w*|assum\w*|suppos\w*|scenario|worked)\b", re.IGNORECASE
)
EXAMPLE_SENTENCE = re.compile(
    r"^\W*(?:\(?[a-z0-9]{1,3}[.)]\s+)?(?:for\s+(?:example|instance)|e\.g\.|assume|suppose|"
    r"example|illustration)\b|\b(?:for\s+example|for\s+instance)\b",
    re.IGNORECASE,
)
"""A sentence giving an example ("For example, if ... $950 ..."): it answers a question about
that example, not the general question."""


def _counted_stem(noun: str) -> str:
    stem = stem_word(noun.lower())
    return stem[:-1] if stem.endswith("y") else stem


_GIVEN_FIGURE = re.compile(r"(?:\bUS)?[$€£¥]?\s?\(?(\d[\d,]*(?:\.\d+)?)\)?")


@lru_cache(maxsize=4096)  # pure; a question's figures are removed from the same texts again
def _without_given(text: str, given: tuple[str, ...]) -> str:
    """``text`` without the figures the question gives itself (an answer is a new figure)."""
    if not given:
        return text
    wanted = set(given)
    return _GIVEN_FIGURE.sub(
        lambda m: " " if m.group(1).replace(",", "") in wanted else m.group(0), text
    )


_MULTI_PART = re.compile(
    r",\s*(?:and|or)\b|;|\?.+\?|\band\s+(?:what|which|when|who|how|whether|why|where|for\s+how|"
    r"within\s+what|by\s+how)\b|\band\b.*\band\b",
    re.IGNORECASE,
)
"""Several asks: "X, and how much Y", "X; Y", two questions, "A and B and C"."""


def bigrams(text: str) -> frozenset[tuple[str, str]]:
    """Adjacent word pairs (lower-cased, numbers without separators), stop words included:
    "above $5,000" and "above $500 and up to $5,000" share terms but not this pair."""
    return _bigrams(text)


@lru_cache(maxsize=4096)  # pure; every draft reads the same sentences again
def _bigrams(text: str) -> frozenset[tuple[str, str]]:
    words = [w.lower().replace(",", "") for w in word_tokens(text)]
    return frozenset(pairwise(words))


def _typed_patterns(*rules: tuple[AnswerType, str]) -> tuple[tuple[AnswerType, str], ...]:
    return rules


_TYPE_RULES: tuple[tuple[AnswerType, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in _typed_patterns(
        (
            # "What may the system do when ...": an action, whatever figure the case names.
            "definition",
            r"^\s*what\s+(?:may|must|should|does|do|will|can|shall)\s+(?:the\s+|a\s+|an\s+)?"
            r"[\w-]+(?:\s+[\w-]+)?\s+do\b",
        ),
        (
            "reason",
            r"^\s*why\b|\bwhat\s+(?:drove|drives|caused|causes|led\s+to|explains?|were\s+the\s+"
            r"(?:reasons?|drivers?|causes?))\b|\breasons?\s+for\b|\bdrivers?\s+of\b",
        ),
        (
            "comparison",
            r"\bcompared?\s+(?:with|to)\b|\bversus\b|\bvs\.?\b|\bdifference\b|"
            r"\bby\s+how\s+much\b|\bhow\s+much\s+did\b.*\b(?:grow|increase|decrease|decline|"
            r"change|rise|fall|drop)\b|\b(?:grow|grew|growth|increase[ds]?|decrease[ds]?|decline[ds]?|"
            # "be changed" is a passive: when something is changed, not by how much
            r"(?<!which\s)(?<!what\s)(?<!the\s)(?<!of\s)(?<!to\s)(?<!be\s)(?<!been\s)"
            r"(?<!being\s)change[ds]?|rise|rose|fall|fell|"
            r"drop(?:ped)?)\b.*\?\s*$",
        ),
        (
            "percentage",
            r"\bpercent(?:age)?\b|%|\bwhat\s+(?:share|portion|proportion|fraction)\b|"
            r"\bmarket\s+share\b|\bETR\b|"
            r"\bhow\s+(?:big|large)\s+a\s+part\s+of\b|"
            r"\bmargin\b|\bratio\b|\brate\s+of\b|\brates?\s+(?:cap|ceiling|limit)s?\b|"
            r"\b(?:interest|lease|tax|discount|growth|default|effective|finance)\s+rates?\b",
        ),
        (
            "duration",
            r"\bhow\s+(?:long|often|soon|quickly|frequently|early|far\s+(?:ahead|in\s+advance))\b|"
            r"\bhow\s+(?:much\s+time|fast)\b|"
            r"\bwithin\s+(?:how|what)\b|"
            r"\b(?:minimum|maximum|shortest|longest)\s+(?:time|period|term|duration|interval)\b|"
            r"\bhow\s+many\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b|"
            r"\b(?:what|which)\s+(?:[\w-]+\s+)?(?:period|frequency|interval|deadline|time\s+limit)\b|"
            r"\btiming\b|\b(?:refresh|review|renewal|rotation|reporting|audit|update)\s+cycle\b|"
            r"\bhow\s+frequently\b|\b(?:holding|retention|notice|waiting|cooling|grace|review|"
            r"validity|refresh|response)\s+period\b|\bperiod\s+of\s+time\b|\bfor\s+what\s+period\b|"
            r"\bdeadline\b|\btime\s+limit\b|\bfrequency\b|\bvalid\s+for\b|"
            # "remittance cancellation window", "appeal window": the time allowed (not a
            # teller's window); "notify the consumer within?": by when
            r"\b(?!(?:teller|drive-through|drive-up|browser|pop-up|display|dialog|dialogue|shop|"
            r"store|car|vehicle|bank|branch)\s)[a-z-]+\s+windows?\b|\bwithin\s*\?\s*$|"
            # "inactivity timeout in minutes?": the unit the answer is counted in
            # or set off within it ("the minimum delinquency, in days, before ...")
            r"\bin\s+(?:days|weeks|months|years|hours|minutes)(?=\s*\??\s*$|\s*[,)])",
        ),
        (
            "date",
            r"^\s*when\b|\bby\s+when\b|\b(?:what|which)\s+(?:date|day|year)\b|"
            r"\beffective\s+date\b|\bstart\s+date\b|\bwhen\s+(?:is|was|does|did|must|will|should|"
            r"do|are)\b",
        ),
        (
            "count",
            r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\s+of\b|\b(?:what|which)\s+multiple\b|"
            # "3M US plant count", "store count" (not "does the fee count as ...")
            r"(?<!\bdoes\s)(?<!\bdo\s)(?<!\bwill\s)\b[a-z]+\s+count\b(?!\s+(?:as|toward|towards|against|on)\b)|"
            r"\bheadcount\b|"
            # "What temperature in degrees", "key length in bits": a number of units
            r"\bin\s+(?:degrees|bits|bytes|characters|miles|feet|meters|metres|kilometers|"
            r"kilometres)\b",
        ),
        (
            "yes_no",
            r"^\s*(?:am|is|are|was|were|does|do|did|may|can|could|must|should|will|would|has|"
            r"have|had|shall)\b",
        ),
        (
            "entity",
            r"^\s*who(?:se)?\b|\bwhich\s+(?:company|firm|entity|business|segment|person|body|"
            r"officer|agency|party|role)\b|\bwhat\s+(?:company|firm|entity|segment)\b",
        ),
        (
            "list",
            # "which segments", "which business units"; not "which was", "which firm has"
            r"\bwhich\s+(?:\w+\s+)?(?!(?:was|is|has|does)\b)\w+s\b|"
            r"\bwhat\s+(?:are|were)\s+the\b|\blist\b|\bname\s+the\b|"
            r"\bwhat\s+\w+s\s+(?:are|were|does|do|did|must|should|shall|can|may|will)\b",
        ),
        (
            "amount",
            r"\bhow\s+(?:much|big|large|high|low|small)\b|\bamount\b|\bthreshold\b|"
            r"(?:\b(?:is|was|are)|'s)\s+the\s+(?:most|least)\b(?!\s+(?:common|likely|recent|important))|"
            r"\b(?:above|below|over|under|beyond|up\s+to|exceeding)\s+what\b|\bwhat\s+total\b|"
            r"\blimit\b|\bcap\b|\bceiling\b|\bmaximum\b|\bminimum\b|\bmax\b|\bmin\b|\bvalue\b|"
            r"\bcost\b|\bprice\b|\bfees?\b|\brevenues?\b|\bsales\b|\bincome\b|\bprofit\b|"
            r"\bexpenses?\b|\bexpenditures?\b|\bcapex\b|\bspend(?:ing)?\b|\bcash\b|\bassets\b|"
            r"\bliabilities\b|\bdebt\b|\bearnings\b|\bdividends?\b|\bpurchases?\b|\busd\b|"
            r"\bdollars?\b|\$|\bmillions?\b|\bbillions?\b|\bworth\b|\bequity\b|\binventor(?:y|ies)\b|"
            # "the civil money penalty per day", "the charge per mile": a figure for each unit
            r"\bper\s+(?:day|week|month|year|violation|occurrence|transaction|item|mile|hour)\b",
        ),
        (
            "definition",
            r"^\s*what\s+(?:is|are)\s+(?:an?|the)\b|\bmean(?:s|ing)?\b|\bdefin(?:e|ed|ition)\b|"
            r"\bwhat\s+(?:does|do|must|should|may)\b|\bwhat\s+kind\s+of\b|\brequire",
        ),
    )
)


def answer_type(question: str) -> AnswerType:
    """The kind of answer a question asks for, by the first matching rule (most specific first).

    A case the question opens with ("If a lease was signed above the limit, is it ...", "When
    a creditor collects race data, what option ...") sets the scene; the question is the
    clause after it.
    """
    # A scenario set out in sentences of its own ("A vendor offers me a $20 gift card. Am I
    # allowed to keep it?") names figures of the case; the sentence that asks says what kind of
    # answer is wanted, unless it only points back ("What is it?").
    ask = ask_clause(question)
    if ask is not None and (kind := answer_type(ask)) != "other":
        return kind
    question = _LEADING_CASE.sub("", question, count=1)
    question = _LEADING_SCENE.sub("", question, count=1)
    if _CONSEQUENCE.search(question):
        return "other"  # "what happens to the threshold if ...": an outcome, not a figure
    if _PLACE_QUESTION.search(question):
        return "other"  # "where must the fee notice be shown": a place, whatever it names
    for kind, pattern in _TYPE_RULES:
        if pattern.search(question):
            if (
                kind in _NAMED_FIGURES
                and _YES_NO.search(question)
                and not _ASKS_FIGURE.search(question)
            ):
                # "Can the minimum holding period be waived?" names a period and asks whether;
                # "Is it within 30 days?" too. "Must I report within how many days?" asks it.
                return "yes_no"
            if kind == "comparison" and _YES_NO.search(question) and not _PERIODIC.search(question):
                # "Does a lease lose its exemption when the threshold increases?" asks yes or
                # no; "Did revenue grow in 2022?" compares two periods' figures.
                return "yes_no"
            return kind
    return "other"


_YES_NO = next(p for k, p in _TYPE_RULES if k == "yes_no")
_NAMED_FIGURES = frozenset({"duration", "date", "count"})
"""Answer types a question may name without asking for ("the holding period", "the deadline",
"the number of invitations")."""
_ASKS_FIGURE = re.compile(
    r"\b(?:how|when|what|which|whose|within|by\s+when)\b|\bwhat's\b", re.IGNORECASE
)
"""Words that ask for a figure rather than whether something holds."""
_LEADING_CASE = re.compile(
    r"^\s*(?:if|when|whenever|where|once|after|before|should|in\s+case)\b"
    r"(?:[^,;?]|(?<=\d),(?=\d{3}\b)){3,},\s*"
    r"(?=(?:what|which|who|whose|how|when|where|why|is|are|was|were|does|do|did|may|can|could|"
    r"must|should|will|would|has|have|had|shall)\b)",
    re.IGNORECASE,
)
"""A clause setting out the case a question asks about, before the question word."""
_LEADING_SCENE = re.compile(
    r"^[^?:;]{8,}?(?::|;|\s[-\u2013\u2014]+)\s+"
    r"(?=(?:what|which|who|whose|how|when|where|why|is|are|was|were|does|do|did|may|can|could|"
    r"must|should|will|would|has|have|had|shall)\b)",
    re.IGNORECASE,
)
"""A case set out before a colon or a dash, the question after it ("gift valued at 130 USD
from a vendor: who signs off?", "cash deposit over 10k - what must staff establish?")."""
_CONSEQUENCE = re.compile(r"^\W*what\s+(?:happens|will\s+happen|would\s+happen)\b", re.IGNORECASE)
_PLACE_QUESTION = re.compile(
    r"^\W*where\s+(?:is|are|was|were|does|do|did|must|should|may|can|shall|will|would|has|have)\b",
    re.IGNORECASE,
)
_PERIODIC = re.compile(
    r"\b(?:19|20)\d\d\b|\b(?:year|quarter|fiscal|FY\d*|annual|prior|previous)\b", re.IGNORECASE
)


_NAME = re.compile(
    r"(?<![\w-])(?:[A-Z][\w&'.-]*|\d+[A-Z][\w&-]*)"
    r"(?:\s+(?:&\s+)?(?:[A-Z][\w&'.-]*|\d[\w-]*[A-Z][\w-]*))*"
)
_NOT_NAMES = frozenset(
    [
        "what",
        "which",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "why",
        "how",
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "may",
        "can",
        "could",
        "must",
        "should",
        "will",
        "would",
        "has",
        "have",
        "had",
        "shall",
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "for",
        "of",
        "to",
        "by",
        "and",
        "or",
        "if",
        "under",
        "per",
        "give",
        "list",
        "tell",
        "show",
        "name",
        "explain",
        "describe",
        "please",
        "i",
        "usd",
        "us",
        "u.s",
        "fy",
        "q1",
        "q2",
        "q3",
        "q4",
        "yes",
        "no",
        "may",
        # Words that open a request or frame it, capitalised only because they come first.
        "according",
        "regarding",
        "concerning",
        "considering",
        "assuming",
        "suppose",
        "assume",
        "based",
        "using",
        "per",
        "kindly",
        "quick",
        # Interjections that open a spoken or chatty question ("Hi team, ...", "Um, how many").
        "hi",
        "hello",
        "hey",
        "um",
        "umm",
        "uh",
        "ok",
        "okay",
        "thanks",
        "latest",
        "recent",
        "current",
        "currently",
        "overall",
        "total",
        "annual",
        "state",
        "count",
        "find",
        "provide",
        "confirm",
        "summarize",
        "summarise",
        "identify",
        "determine",
        "calculate",
        "compute",
        "define",
        "outline",
        "specify",
        "indicate",
        "quantify",
        "compare",
        "check",
        "verify",
        "look",
        "also",
        "now",
        "today",
        "then",
        "so",
        "but",
        "just",
        "again",
        "next",
        "last",
        "first",
        "approximately",
        "roughly",
        "briefly",
        "exactly",
        "specifically",
        "generally",
        "typically",
        "historically",
        # Prepositions and conjunctions opening a question ("Pursuant to 12 CFR 1024.17, ...",
        # "Notwithstanding ...", "Since 2019, ...").
        "pursuant",
        "notwithstanding",
        "except",
        "besides",
        "since",
        "despite",
        "unless",
        "whether",
        # Pronouns a question may open with ("Someone offered me a present ...").
        "someone",
        "somebody",
        "anyone",
        "anybody",
        "everyone",
        "everybody",
        "nobody",
        "something",
        "anything",
        "everything",
        "nothing",
        "we",
        "you",
        "they",
        "he",
        "she",
        "it",
        "my",
        "our",
    ]
)


_PERIOD_OVER_PERIOD = re.compile(r"([A-Z])o\1")
"""A period compared with the one before, abbreviated ("YoY", "QoQ", "MoM": year over year):
the manner of a change asked, never whose figure it is."""


def _not_a_name(word: str) -> bool:
    if _PERIOD_OVER_PERIOD.fullmatch(word):
        return True
    word = re.sub(r"['’](?:s|m|d|ll|re|ve)$", "", word).lower()  # "I'm", "We'd": a pronoun
    return (
        word in _NOT_NAMES
        or word in STOPWORDS
        or word.rstrip(".") in MONTH_NUMBERS  # "December", "Dec", "Dec."
        or word.rstrip(".") in WEEKDAYS
        or word.isdigit()
    )


_ACRONYM_WORD = re.compile(r"(?=[^a-z]*[A-Z])[A-Z0-9&]{2,}")
"""A word of capitals (and digits or "&") only, two characters or more: "R&D", "JNJ", "3M"."""


@lru_cache(maxsize=1024)
def _lexicon_acronym(name: str) -> bool:
    """Is ``name`` an acronym of capitals ("EPS", "FCF", "COGS") that is one word of a lexicon
    group with a member of the words it abbreviates ("earnings per share"), not a name the
    lexicon only happens to know as a word ("MAX", "maximum")?"""
    if not _ACRONYM_WORD.fullmatch(name) or any(ch.isdigit() for ch in name):
        return False
    asked = terms(name)
    if len(asked) != 1:
        return False
    letters = re.sub(r"[^a-z]", "", name.lower())
    lex = lexicon()
    return any(
        start == 0
        and any(
            "".join(w[0] for w in re.findall(r"[a-z]+", member.lower().replace("&", " ")))
            in (letters, letters.rstrip("s"))
            for member in lex.groups[group]
            if " " in member.strip()
        )
        for start, _, group in lex.keys(asked)
    )


_ORDINARY_COMPOUND = re.compile(r"[A-Z][a-z]+(?:-[a-z]+)+")
"""A hyphenated compound whose later parts are lower-case ("Year-over-year", "Built-in"): an
ordinary word capitalised by its place, never a name ("Coca-Cola" capitalises every part)."""


def _ordinary_opening(word: str, text: str) -> bool:
    """Is ``word``, opening ``text`` (after function words), an ordinary word capitalised
    only by its place: one beginning a term of the lexicon ("Deadline for ...", "Time limit
    for ...", "Capex 3M 2018")? A company's name ("Globex capex") is no term of the lexicon
    and stays a name."""
    if not re.fullmatch(r"[A-Z][a-z]+", word):
        return False
    following = terms(text[text.index(word) :])
    return following[:1] == terms(word)[:1] != [] and any(
        start == 0 for start, _, _ in lexicon().keys(following)
    )


def wordnet_word(word: str) -> bool:
    """Is ``word`` (capitalised) one WordNet knows as an ordinary word: a verb, a word of a
    family ("Consequence", "Small") or a measure ("Penalty"), as written or as the base of a
    superlative or comparative ("Largest": "large")? Never a short word ("Fed", "Tax")."""
    if not re.fullmatch(r"[A-Z][a-z]{3,}", word):
        return False
    lower = word.lower()
    forms = [lower] + [
        lower[: -len(end)] for end in ("est", "st", "er", "r") if lower.endswith(end)
    ]
    return any(
        act_senses(w) or related_forms(stem_word(w)) or figure_kinds(w)
        for w in forms
        if len(w) >= _MIN_WORD
    )


_MIN_WORD = 4


_TAG = re.compile(r"\s*([A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,2})\s*:")
"""A label of up to three words and a colon opening a question ("Ticket:", "Audit check:")."""


def _ordinary_tag(tag: str) -> bool:
    """Is every word of an opening label an ordinary word, one WordNet knows as an act, a word
    family or a measure ("Ticket", "Audit check", "Note")? A company's name ("Globex:") is not."""
    return all(
        act_senses(w) or related_forms(stem_word(w)) or figure_kinds(w)
        for w in (word.lower() for word in tag.split())
    )


_POSSESSIVE = re.compile(r"['’]s$")


def _split_at_acronyms(words: list[str]) -> list[list[str]]:
    """A run of capitalised words split where an acronym meets another word: "JNJ R&D" is two
    names (the company and what is asked of it), "Boeing R&D" too, and "HMDA LAR"; each is
    then established on its own; so is a run a possessive ends ("RESPA's Regulation X",
    "Boeing's Commercial Airplanes"). A single capital ("Regulation B", "Reg E") is no acronym, and
    a run of ordinary capitalised words ("Equal Credit Opportunity Act") stays whole."""
    runs: list[list[str]] = [words[:1]] if words else []
    for before, word in pairwise(words):
        if (
            _ACRONYM_WORD.fullmatch(word)
            or (_ACRONYM_WORD.fullmatch(before) and not (len(word) == 1 and word.isupper()))
            or _POSSESSIVE.search(before)  # "RESPA's Regulation X": two names
        ):
            runs.append([word])
        else:
            runs[-1].append(word)
    return runs


def _distinct_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names, each once, without those that are part of a longer one (AC-2 in AC-2(3))."""
    unique = list(dict.fromkeys(names))
    return tuple(
        n for n in unique if not any(o != n and o.startswith(n) and names_in(n, o) for o in unique)
    )


@lru_cache(maxsize=8192)  # pure; the question's names are looked up in the same texts again
def names_in(name: str, text: str) -> bool:
    """Is ``name`` stated in ``text`` (case-insensitive, whole words, "&" for "and", and
    "AC-2 (3)" for "AC-2(3)")?"""
    parts = [re.escape(w) for w in re.split(r"\s+|(?=\()", name.strip()) if w]
    pattern = r"(?<![\w])" + r"\s*".join(parts) + r"(?![\w])"
    return re.search(pattern.replace(r"\&", r"(?:&|and)"), text, re.IGNORECASE) is not None


_OPENS = re.compile(r"(?:^|[.?!:;\u2013\u2014-])\s*$")
"""Where a sentence or clause starts: a word there is capitalised by grammar."""


def proper_names(text: str) -> tuple[str, ...]:
    """Names a question mentions: capitalised words and runs of them, and ids like 3M or AC-2.

    A question's first word is capitalised by grammar, not because it is a name, so function
    words ("What", "Under"), months and currency codes are never names on their own.
    """
    names: list[str] = []
    tag = _TAG.match(text)
    for match in _NAME.finditer(text):
        if tag is not None and match.end() <= tag.end(1) and _ordinary_tag(tag.group(1)):
            continue  # "Ticket:", "Audit check:": a label of ordinary words opening the question
        words = match.group(0).rstrip(".'").split()
        if _OPENS.search(text[: match.start()]) and re.fullmatch(r"[A-Z][a-z]+ly", words[0]):
            words = words[1:]  # "Kindly ...", "Roughly how much ...": an adverb opening it
        opening = bool(words) and bool(_OPENS.search(text[: match.start()]))
        if opening and _ORDINARY_COMPOUND.fullmatch(words[0]):
            words = words[1:]  # "Year-over-year change in ...": capitalised by its place
        for n, run in enumerate(_split_at_acronyms(words)):
            if n == 0 and opening and run[:1] == words[:1] and _ordinary_opening(run[0], text):
                # "Deadline for ...", "Capex 3M 2018", "Capex Globex": a word opening the
                # question; "Regulation M" is one name (a single capital names nothing).
                if len(run) == 1:
                    continue
                if len(run[1]) > 1:
                    run = run[1:]
            while run and _not_a_name(run[0]):
                run = run[1:]
            while run and _not_a_name(run[-1]):
                run = run[:-1]
            if run:
                name = " ".join(run)
                name = re.sub(r"'s$|’s$", "", name)
                # "... on an EFT. What is ...": the full stop ends the sentence, not the name
                # (an initialism's own stops stay: "U.S.").
                # "... on Monday. By when ...", "We supply parts to Boeing. Did ...": so too
                # after a word.
                name = re.sub(
                    r"(?<=\b[A-Z0-9&]{2})\.$|(?<=[A-Z0-9&]{3})\.$|(?<=[a-z]{3})\.$", "", name
                )
                if name.lower() not in _NOT_NAMES and len(name) > 1:
                    names.append(name)
    return tuple(dict.fromkeys(names))


_MONEY = re.compile(
    r"[$€£¥]\s*\(?\d|\b(?:USD|EUR|GBP|dollars?|euros?|pounds)\b|\d\s*(?:million|billion|thousand)\b|"
    r"\(?\b\d{1,3}(?:,\d{3})+(?:\.\d+)?\b\)?|"
    # A table's cell with its table's unit ("(526) ($ in millions)"), a year not being one.
    r"(?<![\w.,])\(?(?!(?:19|20)\d\d\b)\d+(?:\.\d+)?\)?\s+\([^()\n]{0,24}\bin\s+"
    r"(?:millions|billions|thousands)\b",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    # A ratio stated as a number ("ratio 1.54") is a proportion too; a negative share is set
    # in parentheses ("(5.3)%", "(0.5) %").
    r"\d\)?\s*%|\bpercent(?:age)?\b|\bbasis\s+points?\b|\bratio\s+(?:of\s+)?\d+(?:\.\d+)?\b",
    re.IGNORECASE,
)
_NUMBER_WORD = (
    r"(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|forty-five|sixty|ninety|hundred)"
)
_DURATION = re.compile(
    _NUMBER_WORD
    + r"(?:st|nd|rd|th)?[\s-]+(?:\(\d+\)\s+)?(?:(?:business|calendar|working|full)\s+)?"
    r"(?:days?|weeks?|months?|years?|hours?|minutes?|quarters?)\b|\b(?:annually|monthly|quarterly|"
    r"weekly|daily|yearly|biennially|semi-annually)\b|\b(?:every|each)\s+(?:day|week|month|"
    r"quarter|year)\b|"
    # "not later than the third business day after ...": a day counted in words
    r"\b(?:second|third|fourth|fifth|sixth|seventh|tenth|fifteenth|twentieth|thirtieth|"
    r"sixtieth)\s+(?:(?:business|calendar|working)\s+)?days?\b",
    re.IGNORECASE,
)
_LOOKBACK = re.compile(r"\b(?:preceding|previous|past|last)\s+$", re.IGNORECASE)
"""Words before a duration that look back over it ("for any of the preceding five calendar
years", "in the past two years"): a period of history, not the time limit a "when" asks."""


def _time_limit(text: str) -> bool:
    """Does the text state a duration that is no look back ("within 30 days", "three business
    days prior to consummation", but not "any of the preceding five calendar years")?"""
    return any(
        not _LOOKBACK.search(text[max(0, m.start() - 20) : m.start()])
        for m in _DURATION.finditer(text)
    )


_DURATION_WORD = re.compile(
    r"day|dail|week|month|year|hour|minute|quarter|annual|biennial", re.IGNORECASE
)
"""A word every form of :data:`_DURATION` states: a text without one is not searched with it
(which tries every number word at every position)."""
_COUNT_WORD = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|several|"
    r"both|single|one)\s+(?:[a-z-]+\s+){0,3}[a-z-]+s\b",
    re.IGNORECASE,
)
_PARAMETER = re.compile(
    r"\[\s*(?:Assignment|Selection)(?:\s*\(one or more\))?\s*:[^\]]*\]|"
    r"\b(?:organization|organisation|entity)-defined\s+(?:[\w-]+\s+){0,3}?"
    r"(?:time\s+period|period|frequency|number|amount|value|threshold|limit|days?|hours?|minutes?)\b",
    re.IGNORECASE,
)
"""A figure a control leaves to the organization: NIST's "[Assignment: organization-defined time
period]" answers "how long" by saying who sets it, not with a number."""
_FIGURE_PARAMETER = re.compile(
    r"\b(?:time|times|period|periods|frequency|frequencies|number|numbers|amount|amounts|value|"
    r"values|threshold|thresholds|limit|limits|days?|hours?|minutes?|seconds?|weeks?|months?|"
    r"years?|duration|interval|intervals|deadline|schedule|maximum|minimum|percentage|size|"
    r"length|count)\b",
    re.IGNORECASE,
)
"""The words by which an organization-defined parameter names a figure."""
_TIMING_PARAMETER = re.compile(
    _FIGURE_PARAMETER.pattern + r"|\b(?:events?|circumstances|conditions|occasions)\b",
    re.IGNORECASE,
)
"""The words by which it names when something happens."""
_SECTION_NUMBER = re.compile(r"^\s*(?:§\s*)?\d+(?:\.\d+)+\.?\s+|^\s*\(?[a-z0-9]{1,3}[.)]\s+")
"""A sentence's own numbering ("4.1 ", "(a) ", "3. "): not a figure the sentence states."""
_PAGE_FOOTER = re.compile(r"^[ \t]*[-–—][ \t]*\d{1,4}[ \t]*[-–—][ \t]*$", re.MULTILINE)
"""A page's number on a line of its own between dashes ("- 151 -"), where the extracted text
runs on from one page to the next: no figure of the sentence around it."""
_NUMBERED = re.compile(r"\bNos?\.\s*\d[\d-]*")
"""A number that names a document ("Public Law No. 93-406", "File No. 1-3285"): an
identifier, no figure."""


@lru_cache(maxsize=256)
def _money_pattern(number: str) -> re.Pattern[str]:
    digits = re.sub(r"(?<=\d)(?=(?:\d{3})+(?!\d))", ",?", number.split(".")[0])
    figure = digits + (r"\." + number.split(".")[1] if "." in number else "")
    return re.compile(
        rf"(?:[$€£]|\b(?:US|USD|EUR|GBP)\s*\$?)\s*{figure}\b|"
        rf"\b{figure}\s*(?:dollars|euros|USD|EUR|GBP)\b",
        re.IGNORECASE,
    )


def money_given(text: str, number: str) -> bool:
    """Does ``text`` state ``number`` (digits, no separators) as a sum of money ("$130",
    "130 USD", "US$ 1,300")?"""
    return _money_pattern(number).search(text) is not None


@lru_cache(maxsize=8192)  # pure; the same passages and sentences are tested many times
def has_figure(
    text: str, kind: Literal["quantity", "date"], answer: AnswerType | None = None
) -> bool:
    """Does the text state the kind of figure a question asks for, written in digits?

    Number words ("four months") count for the verifier but not here, and a recurring date
    ("January 1 of each year") is not an amount: a question asking for a threshold wants the
    sentence that states the threshold. With the question's ``answer`` type the figure must
    be of that type: an amount is money ($, USD, millions, or a figure with thousands
    separators as in a financial table), a percentage a share.
    """
    text = _NUMBERED.sub(" ", _PAGE_FOOTER.sub(" ", _SECTION_NUMBER.sub("", text)))
    if answer == "duration":
        return bool(_DURATION_WORD.search(text) and _DURATION.search(text))
    if answer == "count" and _COUNT_WORD.search(text):
        return True  # "five model forms": counts are often written in words
    if kind == "date" and _DURATION_WORD.search(text) and _time_limit(text):
        return True  # "When must ...": "three business days prior to consummation"
    if not re.search(r"\d", text):
        return False
    if kind == "date":
        # "When must ..." is answered by a date or by a stated time limit ("within 30 days").
        return bool(extract_dates(text)) or any(
            any(ch.isdigit() for ch in q) for q in extract_quantities(text)
        )
    if answer == "amount":
        return bool(_MONEY.search(text))
    if answer == "percentage":
        return bool(_PERCENT.search(text))
    if answer == "comparison":
        return bool(_MONEY.search(text) or _PERCENT.search(text))
    return any(any(ch.isdigit() for ch in q) for q in extract_quantities(text))


_SENTENCE_BREAK = re.compile(r"(?<=[.!;])\s+(?=[A-Z])")


def ask_clause(question: str) -> str | None:
    """The sentence that asks, when a question first sets out a scenario in sentences of its
    own ("A customer disputes a debit on her checking account. How many business days does
    the bank have ...?"): the scenario's words ("debit", "checking account") say whose case
    it is, the ask's what is asked. None when the question is one sentence."""
    sentences = [s for s in _SENTENCE_BREAK.split(question.strip()) if s.strip()]
    if len(sentences) < 2:
        return None
    ask = sentences[-1]
    if any("?" in s for s in sentences[:-1]) or not (
        "?" in ask or _ASK_START.match(ask) is not None
    ):
        return None
    return ask


_PRONOUN = r"(?:i|we|you|they|he|she|it|staff|employees?|someone|anyone)"
_ACTION_FRAMES = (
    # "Am I allowed to tell ...", "is it ok to accept ...", "do I need to report ..."
    re.compile(
        r"\b(?:allowed|permitted|entitled|ok|okay|fine|forbidden|prohibited|required|obliged|"
        r"supposed|need|needs|have|has)\s+to\s+([a-z]+)",
        re.IGNORECASE,
    ),
    # "do I need approval to accept ...", "whose permission to trade ..."
    re.compile(
        r"\b(?:approval|permission|pre-?clearance|consent|sign-?off)\s+to\s+([a-z]+)",
        re.IGNORECASE,
    ),
    # "Can I trade ...", "May staff accept ..."
    re.compile(
        r"^\W*(?:can|may|must|should|could|shall)\s+" + _PRONOUN + r"\s+(?:still\s+|also\s+)?"
        r"(?!need\b|have\b|be\b)([a-z]+)",
        re.IGNORECASE,
    ),
)
_SUBJECT_FRAME = re.compile(
    r"^\W*(?:can|may|must|should|could|shall)\s+(?:my|our|your|their|an?|the)\s+[a-z]+\s+"
    r"([a-z]+)(?:\s+([a-z]+))?",
    re.IGNORECASE,
)
"""A subject of one or two words ("may an employee accept", "can a new hire accept"): the
action is one of the next two words."""
_MODAL_ACTION = re.compile(
    r"\b(?:must|may|shall|should|can|cannot)(?:\s+not|\s+never|\s+only)?\s+"
    r"(?:[a-z]+\s+){0,2}?([a-z]+)",
    re.IGNORECASE,
)


def _action_word(word: str) -> str:
    """A word as an action is compared: its term, or the word itself when it is a stop word
    ("tell")."""
    found = terms(word)
    return found[0] if found else word.lower()


def asked_action(question: str) -> tuple[str, ...]:
    """The action a yes/no question asks permission or obligation for ("Am I allowed to
    *tell* a customer that I reported them?", "May an employee *accept* cash?"): the rule
    answering it states that action under its modal ("must not tell"), however many of the
    question's other words a neighbouring rule shares ("must report it"). Empty when the
    question asks no such thing."""
    words: list[str] = []
    for frame in _ACTION_FRAMES:
        words += [m.group(1) for m in frame.finditer(question)]
    if (subject := _SUBJECT_FRAME.search(question)) is not None:
        words += [w for w in subject.groups() if w]
    return tuple(dict.fromkeys(_action_word(w) for w in words if w.lower() not in _BE_DO))


_BE_DO = frozenset({"a", "an", "the", "to", "be", "do", "does", "get", "have", "has", "need"})


def states_action(sentence: str, action: Sequence[str]) -> bool:
    """Does ``sentence`` state one of the ``action`` words (see :func:`asked_action`) under a
    modal, within two words of it ("must not *tell*", "may *accept* entertainment")?"""
    if not action:
        return False
    wanted = set(action)
    for match in _MODAL_ACTION.finditer(sentence):
        span = sentence[match.start() : match.end()].split()[1:]
        if any(_action_word(w) in wanted for w in span):
            return True
    return False


_TERM = r"[\"“‘']?(?P<term>[A-Za-z][\w-]*(?:\s+[\w-]+){0,4}?)[\"”’']?"
_TERM_END = (
    r"(?=\s*(?:[?,.;:()]|$)|\s+(?:under|in|for|by|per|within|according|pursuant|of\s+(?:reg|the\s+"
    r"(?:reg|rule|act|part|regulation))|as\s+(?:used|defined)|mean|reg|regulation|rules?|"
    r"act|part|section|§)\b)"
)
_ASKED_TERM = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # "What does RESPA mean by 'servicer'", "what is meant by application"
        r"\bmean(?:t)?\s+by\s+(?:the\s+(?:term|word|phrase)\s+)?(?:an?\s+|the\s+)?"
        + _TERM
        + _TERM_END,
        # "What does 'business day' mean", "what do the words access device mean"
        r"(?:\bwhat\s+|^\s*)(?:does|do)\s+(?:the\s+(?:term|word|words|phrase|expression)\s+)?"
        r"(?:an?\s+|the\s+)?" + _TERM + r"\s+mean\b",
        # "the definition of 'dwelling'", "meaning of elderly", "how is 'dwelling' defined"
        r"\b(?:definition|meaning)\s+of\s+(?:the\s+(?:term|word|phrase)\s+)?(?:an?\s+|the\s+)?"
        + _TERM
        + _TERM_END,
        r"\bhow\s+(?:is|are)\s+(?:the\s+(?:term|word|phrase)\s+)?(?:an?\s+|the\s+)?"
        + _TERM
        + r"\s+defined\b",
        r"\bhow\s+(?:does|do)\s+\S+(?:\s+\S+){0,2}?\s+define\s+(?:the\s+(?:term|word|phrase)\s+)?"
        r"(?:an?\s+|the\s+)?" + _TERM + _TERM_END,
        # "access device definition reg e?", "reg e: business day meaning"
        r"^\s*(?:reg(?:ulation)?\.?\s+[a-z]{1,2}\b\s*[:,-]?\s*)?"
        + _TERM
        + r"\s+(?:definition|meaning)\b",
        r"\bdefine\s+(?:the\s+(?:term|word|phrase)\s+)?(?:an?\s+|the\s+)?" + _TERM + _TERM_END,
        # "what counts as a dwelling", "who is considered elderly", "counted as elderly"
        r"\b(?:counts?|qualif(?:y|ies)|counted|considered|treated|regarded|classed|classified|"
        r"deemed)\s+as\s+(?:an?\s+|the\s+)?" + _TERM + _TERM_END,
        r"^\s*who\s+(?:is|are)\s+(?:considered\s+|deemed\s+)?(?:an?\s+)?" + _TERM + _TERM_END,
        # "What is a remittance transfer under Reg E?" (not "what is the threshold amount"):
        # the question is that whole ask
        r"^\s*(?:so\s+|and\s+)?what(?:\s+is|\s+are|'s|’s)\s+(?:an?\s+|(?=[\"“‘']))"
        + _TERM
        + _TERM_END
        + r"[^,;]{0,60}\??\s*$",
    )
)
"""How a question asks what a term means, naming the term (see :func:`asked_term`)."""

_CASE_BEFORE_ASK = re.compile(
    r"^[^?]*?,\s*(?=(?:what|which|who|whom|how|does|do|is|are)\b)", re.IGNORECASE
)
"""What a question sets out before its ask, up to the comma before its question word."""

_DEFINES = re.compile(
    r"^\s*(?:\([a-z0-9]{1,4}\)\s*)*(?:the\s+terms?\s+)?[\"“‘']?(?P<term>[A-Za-z][\w\s,/'’-]{0,70}?)"
    r"[\"”’']?\s*(?:\([^)]{1,40}\)\s*)?(?:means|refers\s+to|is\s+defined\s+as)\b",
    re.IGNORECASE,
)
"""A sentence defining a term: "Elderly means age 62 or older.", "“Business day” means any day
...", "The term “dwelling” means ...", "(b) Account means ...". Not "The term “access device”
includes debit cards ...", "A dwelling also includes ...": what a term covers besides its
definition (often the commentary's examples), not what it means."""


def asked_term(question: str) -> str | None:
    """The term a question asks the meaning of ("What does *business day* mean under Reg E?",
    "who is counted as *elderly*", "the definition of *dwelling*"), or None: such a question
    is answered by the sentence defining the term (:func:`defined_term`), which a document
    states once, in its definitions, whatever other sentences use the term."""
    # "For a customer who is a politically exposed person, what ...", "If a loan is treated as
    # a refinancing, what ...": the case the question sets out asks no term's meaning.
    question = _CASE_BEFORE_ASK.sub("", question, count=1)
    for pattern in _ASKED_TERM:
        match = pattern.search(question)
        if match is None:
            continue
        term = match.group("term").strip(" \"'“”‘’")
        if term and terms(term):
            return term
    return None


def defined_term(sentence: str) -> str | None:
    """The term ``sentence`` defines when it is a definition ("Elderly means age 62 or older."
    defines "Elderly"; "“Business day” means ..." "Business day"), else None."""
    match = _DEFINES.match(sentence)
    if match is None:
        return None
    term = match.group("term").strip(" \"'“”‘’,")
    return term or None


def defines(sentence: str, term: str) -> bool:
    """Does ``sentence`` define ``term`` (its content words, as :func:`terms` reads them, are
    those of the term the sentence defines)?"""
    defined = defined_term(sentence)
    return defined is not None and set(terms(defined)) == set(terms(term))


_BOUND = re.compile(
    r"\b(?:not|no)\s+(?:later|earlier|sooner|more|less|fewer|greater|longer|shorter)\s+than\b",
    re.IGNORECASE,
)
"""A bound ("no later than 30 minutes", "not more than $50"): it negates no case."""


@lru_cache(maxsize=4096)  # pure; every draft reads the same sentences again
def negates_case(text: str) -> bool:
    """Does ``text`` set out a negated case ("if the CPI-W does not increase", "If you do NOT
    tell us within 2 business days, ...")? A bound ("if the request is received no later than
    30 minutes after ...") is none."""
    return _NEGATED_CASE.search(_BOUND.sub(" ", text)) is not None


@dataclass(frozen=True)
class AskedMeasure:
    """The measure a question asks a figure of, named by a noun ("Boeing headcount", "the fine
    for ...", "at what age") or by "percent", and the kinds of figure that state it."""

    noun: str
    """The measure's noun as the question writes it ("headcount", "salary", "percent")."""
    kinds: frozenset[str]
    """The kinds of figure a claim answering it states, any of: ``money``, ``count``,
    ``proportion``, ``age``, ``duration``, ``date``, ``change`` (a change stated as one, or a
    percentage; see :func:`states_measure`)."""


_MEASURE_KINDS = frozenset({"money", "count", "proportion", "age"})
"""The kinds of figure :func:`asked_measure` asks a claim to state (a duration or a date is
asked through the question's answer type, and checked by its own facts)."""
_NOT_A_MEASURE_ASK = re.compile(
    r"\b(?:mean|means|meaning|define[ds]?|definition|explain|describe|kinds?|types?|sorts?|"
    r"treatment|recogni[sz]e[ds]?|calculated?|computed?|determined?|measured|set|apply|applies|"
    r"include[ds]?)\b|\baccount(?:ed)?\s+for\b",
    re.IGNORECASE,
)
"""Words by which a question naming a measure asks something else than its figure ("how is
the fine calculated", "which fee applies", "what does 'finance charge' mean")."""
_QUESTION_WORD = re.compile(
    r"\b(?:what|why|which|who|whom|whose|where|when|whether|how|if)\b", re.IGNORECASE
)
_NOT_A_FIGURE_WORD = re.compile(
    r"(?:why|which|who|whom|whose|where|when|whether|if|how(?!\s+(?:much|many|big|large|high|"
    r"low|small|old)\b))\b",
    re.IGNORECASE,
)
"""The word a question asks by, when it asks no figure ("why", "which fee", "how is it set");
read at the first question word, not in a clause after the measure ("the fine for an employee
who breaches ...")."""
_PERCENT_ASKED = re.compile(r"\bpercent(?:age)?s?\b|%|\bper\s*cent\b", re.IGNORECASE)
_CHANGE_ASKED = re.compile(
    r"\b(?:grow|grew|grown|growth|increased?|decreased?|declined?|rise|rose|risen)\b",
    re.IGNORECASE,
)
"""Words asking by how much a figure changed (not "fall", which also places: "fall outside")."""
_SET_SIDE = re.compile(
    r"\bcompared?\b|\bversus\b|\bvs\b|\bdifference\b|\bfrom\b.*\bto\b|\bboth\b",
    re.IGNORECASE,
)
"""Words asking the figures a change is between, side by side."""
_ASK_WORD = re.compile(
    r"\b(?:what(?:'s|’s)?|how\s+(?:much|many|big|large|high|low|small))\b", re.IGNORECASE
)
_HEAD_TOKEN = re.compile(r"[A-Za-z0-9][\w&'’.-]*|[^\w\s]")
_HEAD_FRAME = STOPWORDS | frozenset(
    {
        "what's",
        "what’s",
        "is",
        "was",
        "are",
        "were",
        "the",
        "roughly",
        "approximately",
        "about",
        "exactly",
    }
)
"""Words around the noun phrase a question asks ("what is the ...", "roughly how big was")."""
_EXTREMES = frozenset(
    {"biggest", "largest", "smallest", "highest", "lowest", "maximum", "minimum", "max", "min"}
)
"""Adjectives that ask the size of what they qualify ("the biggest cushion")."""
_AFTER_A_VERB = frozenset({"as", "towards", "toward", "against"})
"""Words that follow the verb a question asks by ("what counts as", "what counts toward")."""
_COMMON_WORD = re.compile(r"[a-z][a-z'’-]{2,}")
"""A word of the language as a question writes it: no name, acronym or figure."""
_GROUP_SIZE = re.compile(r"\bhow\s+(?:big|large|many|small)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def asked_measure(question: str) -> AskedMeasure | None:
    """The measure a question asks a figure of by naming it, or None.

    The noun phrase the question asks ("Boeing headcount at the end of 2022?", "What's the
    maximum fine for ...", "at what age can ...") is read word by word up to the first word
    that is none of its own; its head, the last word but names and figures, is what is
    measured when WordNet knows it as a measure (the shipped
    :func:`~evidencegate.lexicon.figure_kinds`): "revenue growth rate" asks a proportion,
    "average salary" money, "remittance cancellation window" no figure of money. A size of a
    group of personnel ("workforce size", "how big is the staff") is a head count; "how much
    percent", "what %" and "how old" ask a proportion and an age whatever the noun, "growth"
    and "how much did it increase" the change (a percentage, or a figure stated as a change),
    not two figures side by side; "the biggest cushion" a figure of any kind. A question
    asking why, how (but "how much"), which, when, whether, what a term means or how a figure
    is set asks no figure, nor does one asking a list, a name or yes or no; one asking a time
    (its answer type) only when its head is no time ("the dollar fine for missing the
    deadline")."""
    kind = answer_type(question)
    if kind in ("yes_no", "reason", "list", "entity"):
        return None
    ask = ask_clause(question) or question
    ask = _LEADING_SCENE.sub("", _LEADING_CASE.sub("", ask, count=1), count=1)
    if _NOT_A_MEASURE_ASK.search(ask) or _CONSEQUENCE.search(ask) or _PLACE_QUESTION.search(ask):
        return None
    if (first := _QUESTION_WORD.search(ask)) and _NOT_A_FIGURE_WORD.match(ask, first.start()):
        return None
    timed = kind in ("duration", "date")
    if not timed and _PERCENT_ASKED.search(ask):
        return AskedMeasure("percent", frozenset({"proportion"}))
    if _AGE_ASKED.search(ask) and not timed:
        return AskedMeasure("age", frozenset({"age"}))
    if kind == "comparison" and (change := _CHANGE_ASKED.search(ask)) and not _SET_SIDE.search(ask):
        # "3M sales growth 2022?", "how much did revenue increase": the change itself, not the
        # two figures it is between ("compared with 2021", "versus", "the difference" ask them).
        return AskedMeasure(change.group(0).lower(), frozenset({"change"}))
    start = _ASK_WORD.search(ask)
    written: list[str] = []
    following = ""
    for token in _HEAD_TOKEN.findall(ask[start.end() :] if start else ask):
        if not token[:1].isalnum() or token.lower() in _HEAD_FRAME:
            if written:
                following = token.lower()
                break
            continue
        written.append(re.sub(r"['’]s$", "", token))
    if following in _AFTER_A_VERB:
        return None  # "what counts as lending": a verb, whatever noun it also spells
    # The phrase's head is its last word, names and figures after it aside ("Boeing headcount
    # 2022", "attrition rate FY23"): in "remittance cancellation window" the window is asked.
    while written and not _COMMON_WORD.fullmatch(written[-1]):
        written.pop()
    words = [w.lower() for w in written]
    found: list[tuple[str, frozenset[str]]] = []
    for i, word in enumerate(words):
        pair = " ".join(words[i - 1 : i + 1]) if i else ""
        if pair and (kinds := figure_kinds(pair)):
            found.append((pair, kinds))
        elif kinds := figure_kinds(word):
            found.append((word, kinds))
    if found and not (words[-1] == found[-1][0] or found[-1][0].endswith(" " + words[-1])):
        found = [f for f in found if "group" in f[1]]  # "workforce size": a head count
    if not found and not timed and (extreme := [w for w in words if w in _EXTREMES]):
        # "the biggest cushion", "the maximum charge": a magnitude, of whatever kind.
        return AskedMeasure(extreme[0], _MEASURE_KINDS | {"duration"})
    if not found or (timed and any(k & {"duration", "date"} for _, k in found)):
        # "the fee deadline": a time, which the question's answer type asks; "the dollar
        # fine for missing the deadline" asks the fine (its answer type reads the deadline).
        return None
    noun, kinds = found[-1]
    group = any("group" in k for _, k in found)
    if ("magnitude" in kinds and group) or ("group" in kinds and _GROUP_SIZE.search(ask)):
        return AskedMeasure(noun, frozenset({"count"}))
    if not kinds & _MEASURE_KINDS:
        return None
    return AskedMeasure(noun, kinds & (_MEASURE_KINDS | {"duration", "date"}))


_STATED_MONEY = re.compile(
    r"[$€£¥]\s?\(?\d|\b\d[\d,.]*\s*(?:million|billion|thousand|mn|bn|m|k)\b|"
    r"\b\d{1,3}(?:,\d{3})+\b|\(\s*\d[\d,.]*\s*\)|\b\d+\.\d+\b|\b(?:USD|EUR|GBP|US\$)\s?\d|"
    r"\b\d[\d,.]*\s*(?:dollars|cents|euros|pounds)\b|\d\s*%|\bpercent\b",
    re.IGNORECASE,
)
"""An amount of money ("$55,800", "1,200 million", a table's "(5,053)"), or a share of a
sum (a fee or a fine is often a percentage of it)."""
_STATED_PROPORTION = re.compile(
    r"\d\)?\s*%|\bper\s*cent(?:age)?\b|\bpercent(?:age)?\b|\bbasis\s+points?\b|"
    r"\b(?:half|one[- ](?:half|third|quarter|fourth|fifth|sixth|eighth|tenth)|"
    r"two[- ]thirds|three[- ](?:quarters|fourths)|a\s+(?:third|quarter|fifth|sixth|tenth))\b|"
    r"\b\d+\s*/\s*\d+\b|\b\d+(?:\.\d+)?\s*(?:x|times)\b|\bratio\b[^.]{0,30}\d|"
    r"\b\d[\d,.]*\s+(?:per|for\s+every|out\s+of)\s+",
    re.IGNORECASE,
)
"""A proportion: a percentage, a fraction ("one-sixth"), a ratio ("current ratio 1.54", "3
times"), or a rate per unit ("12 per 1,000"); not an amount ("$1.2 billion")."""
_STATED_AGE = re.compile(
    r"\bage[sd]?\s+(?:of\s+)?(?:\d|" + _NUMBER_WORD + r"\b)|"
    r"\b(?:\d+|" + _NUMBER_WORD + r")[\s-]+(?:years?|yrs?)[\s-]+(?:of\s+age|old|or\s+older)\b|"
    r"\b\d+\s+or\s+older\b",
    re.IGNORECASE,
)
"""An age ("age 62 or older", "62 years of age", "aged 55", "a 70-year-old")."""
_STATED_COUNT = re.compile(
    r"(?<![\w.$€£¥,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d.,]*\s*(?:%|percent|per\s*cent))"
    r"(?!\s*[-/]\s*\d)|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"fifteen|twenty|thirty|forty|fifty|hundred|dozen|several)\b",
    re.IGNORECASE,
)
"""A number of things: a number that is no percentage ("approximately 156,000", "Employees
155,800", "five")."""
_STATED_CHANGE = re.compile(
    r"\b(?:increase[ds]?|decrease[ds]?|decline[ds]?|grew|grow(?:th|s|n)?|rose|rise[ns]?|fell|"
    r"fall(?:s|en)?|drop(?:ped|s)?|up|down|higher|lower|change[ds]?|gain(?:ed|s)?|"
    r"improve(?:d|ment)?|reduc(?:ed|tion)|expan(?:ded|sion)|contract(?:ed|ion))\b",
    re.IGNORECASE,
)
"""A change stated as such ("increased $1.2 billion", "down 3%", "a decline of 12 units")."""
_NOT_COUNTED = re.compile(
    r"\b(?:19|20)\d\d\b(?!,\d)|"
    + _DATE.format(p="c")
    + r"|\b(?:FY|fiscal\s+)'?\d{2,4}\b|"
    + _DAY_OF_MONTH.pattern,
    re.IGNORECASE,
)
"""Years and dates, whose numbers count nothing."""


@lru_cache(maxsize=16384)  # pure; every claim of every answer is tested
def states_measure(text: str, kinds: frozenset[str]) -> bool:
    """Does ``text`` state a figure of any of ``kinds`` (see :class:`AskedMeasure`)? Its own
    numbering, identifiers and page numbers are no figures; years and dates count nothing."""
    text = _NUMBERED.sub(" ", _PAGE_FOOTER.sub(" ", _SECTION_NUMBER.sub("", text)))
    text = _without_identifiers(text)
    if "money" in kinds and _STATED_MONEY.search(text):
        return True
    if "proportion" in kinds and _STATED_PROPORTION.search(text):
        return True
    if "age" in kinds and _STATED_AGE.search(text):
        return True
    if "duration" in kinds and _DURATION_WORD.search(text) and _DURATION.search(text):
        return True
    if "date" in kinds and (extract_dates(text) or _DAY_OF_MONTH.search(text)):
        return True
    if "change" in kinds and (_STATED_CHANGE.search(text) or _PERCENT.search(text)):
        return True
    return "count" in kinds and bool(_STATED_COUNT.search(_NOT_COUNTED.sub(" ", text)))


# ------------------------------------------------------------------ the asked value
# The value a question asks for, beyond its answer type: a calendar date rather than a time
# limit ("by what date each year"), an age, a fraction, the bound of a quantity ("the largest
# cushion"). One reading for the drafter (which sentence to draft) and the critic (whether the
# claims state what is asked): a calendar date answers "by when", a share of a stated base the
# bound of an amount, an age "what age"; never a value of another kind.

_MONTHS = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
)
_CALENDAR_DATE_ASKED = re.compile(
    r"\b(?:(?:what|which)\s+(?:calendar\s+date|day\s+of\s+the\s+year)|"
    r"(?:by|on)\s+(?:what|which)\s+(?:calendar\s+)?date)\b",
    re.IGNORECASE,
)
"""A question asking for a date of the calendar ("by what date must the register be filed"):
answered by a stated date ("By March 1 following the calendar year"), not by a time limit
counted from an event ("within 30 calendar days after the end of each quarter")."""
_DATE_ASKED = re.compile(r"\b(?:what|which)\s+date\b", re.IGNORECASE)
"""A question asking which date: of a yearly act ("what date each year"), a calendar date; else
perhaps a date a notice states ("what date must the notice include")."""
_WHEN_ASKED = re.compile(r"\b(?:deadline|due|by\s+when|when)\b", re.IGNORECASE)
"""A question asking when, which for a yearly act ("the deadline to file our annual register")
may be a calendar date ("By March 1 following the calendar year") or a time limit ("within
30 days of the completion of the escrow account computation year")."""
_CALENDAR_DATE = re.compile(_MONTHS + r"\s+\d{1,2}\b|\b\d{1,2}\s+" + _MONTHS)
_AGE_ASKED = re.compile(
    r"\b(?:(?:what|which|whose)\s+age|how\s+old|age\s+(?:limit|threshold|cut-?off))\b",
    re.IGNORECASE,
)
"""A question asking for an age ("from what age is an applicant elderly", "how old")."""
_AGE_STATED = re.compile(
    r"\bage[ds]?\s+(?:of\s+)?\d+|\b\d+\s+(?:years?\s+(?:of\s+age|old)|or\s+(?:older|over|more\s+years))",
    re.IGNORECASE,
)
"""An age stated ("age 62 or older", "62 years of age", "aged 18")."""
_FRACTION_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:fraction|portion|proportion|part)\b", re.IGNORECASE
)
"""A question asking for a fraction of a whole ("what fraction of the yearly payments")."""
_FRACTION = re.compile(
    r"\b(?:one|two|three|four|five)[\s-](?:half|halves|thirds?|quarters?|fourths?|fifths?|"
    r"sixths?|eighths?|tenths?|twelfths?)\b|\(?\b\d{1,2}/\d{1,2}\b\)?|\d+(?:\.\d+)?\s*(?:%|percent)",
    re.IGNORECASE,
)
"""A fraction stated ("one-sixth (1/6)", "one-twelfth", "50 percent")."""
_BOUND_ASKED = re.compile(
    r"\b(?:what|which)(?:'s|\s+is|\s+are|\s+was|\s+were)?\s+(?:the\s+|an?\s+)?"
    r"(?:maximum|max|most|largest|biggest|highest|greatest|minimum|min|least|smallest|lowest|"
    r"longest|shortest)\b|\b(?:cap|ceiling|limit)\s+(?:on|of|for)\b",
    re.IGNORECASE,
)
"""A question asking for the bound of a quantity in words its answer type does not read as a
figure ("what is the largest escrow cushion", "the cap on liability"): a sentence stating
the quantity answers it, a definition of the thing bounded does not. The bound is what is
asked ("what is the least ..."), not a name's word ("the least privilege enhancement")."""
_NUMBER_STATED = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|fifty|sixty|ninety|hundred)\b|\d",
    re.IGNORECASE,
)
_MULTIPLE = re.compile(
    r"\b(?:one|two|three|four|five|six|\d+)\s+times\s+(?:the|its|their|that|an?)\b", re.I
)
"""A multiple of another quantity stated ("three times the base monthly payment"; not "five
times in the preceding calendar year", a count)."""
_PROVISION_NUMBERS = re.compile(
    r"§+\s*[\d.]+(?:\([\w]+\))*|\b\d{3,4}\.\d+(?:\([\w]+\))*|\([a-z0-9]{1,4}\)"
)
"""Provision numbers ("§ 1024.17(c)(1)", "paragraph (b)(2)"): names, their digits no figures."""

CADENCES = (
    (
        "year",
        re.compile(
            r"\b(?:annual|annually|yearly|(?:each|every|per)\s+(?:calendar\s+)?year)\b"
            r"(?!\s+reports?\b)",
            re.I,
        ),
    ),
    (
        "quarter",
        re.compile(
            r"\b(?:quarterly|(?:each|every|per|calendar)\s+quarter)\b"
            r"(?!\s+reports?\b)",
            re.I,
        ),
    ),
    ("month", re.compile(r"\b(?:monthly|(?:each|every|per)\s+month)\b", re.I)),
)
"""How often an act recurs, as questions and rules say it (the annual filing of a register,
its quarterly recording); not a document named by its period ("Boeing's annual report")."""

SOFT_VALUE_KINDS = frozenset({"yearly_date", "relative_bound"})
"""Values that one way of answering states and another does not: a time limit may answer when
a yearly act is due, and money the bound of an amount."""
_SHARE_OF_BASE = re.compile(r"\s*(?:\(\s*\d{1,2}/\d{1,2}\s*\)\s*)?of\b", re.IGNORECASE)
"""What follows a fraction taken of a stated base ("one-sixth (1/6) of the estimated total")."""


def asked_cadence(question: str) -> str | None:
    """``year``, ``quarter`` or ``month``: how often the act ``question`` asks about recurs,
    when it says exactly one of them (:data:`CADENCES`); else None."""
    cadences = [name for name, pattern in CADENCES if pattern.search(question)]
    return cadences[0] if len(cadences) == 1 else None


def asked_value(question: str, profile: QuestionProfile) -> str | None:
    """The kind of value ``question`` (of ``profile``) asks for beyond its answer type, or
    None: ``calendar_date`` ("by what date", "what date each year"), ``yearly_date`` (the
    deadline of a yearly act, a date or a time limit), ``age``, ``fraction``, ``bound`` ("what
    is the largest ..." where the answer type reads no figure) or ``relative_bound`` (the bound
    of an amount, which a share of another states: "no greater than one-sixth of the estimated
    total annual payments", no money)."""
    return _asked_value_kind(question, profile.answer_type, profile.wants_figure)


@lru_cache(maxsize=4096)
def _asked_value_kind(
    question: str, answer_type: AnswerType, wants_figure: Literal["quantity", "date"] | None
) -> str | None:
    """:func:`asked_value` by the fields of the question it depends on."""
    cadence = asked_cadence(question)
    if _CALENDAR_DATE_ASKED.search(question) or (
        cadence == "year" and _DATE_ASKED.search(question)
    ):
        return "calendar_date"
    if cadence == "year" and _WHEN_ASKED.search(question):
        return "yearly_date"
    if _AGE_ASKED.search(question):
        return "age"
    if _FRACTION_ASKED.search(question):
        return "fraction"
    if _BOUND_ASKED.search(question) and wants_figure is None:
        return "bound"
    if _BOUND_ASKED.search(question) and answer_type == "amount":
        return "relative_bound"
    return None


@lru_cache(maxsize=16384)  # pure; the drafter and the critic test the same sentences
def states_value(kind: str | None, text: str) -> bool:
    """Does ``text`` state a value of the asked ``kind`` (see :func:`asked_value`)? A calendar
    date ("By March 1 following the calendar year", "by 31 January each year"), an age ("age
    62 or older"), a fraction ("one-twelfth (1/12)", "50 percent"), any number for a bound, and
    for the bound of an amount a share or multiple of a stated base ("no greater than one-sixth
    (1/6) of the estimated total annual payments", "three times the base payment")."""
    if kind in ("calendar_date", "yearly_date"):
        return _CALENDAR_DATE.search(text) is not None
    if kind == "age":
        return _AGE_STATED.search(text) is not None
    if kind == "fraction":
        return _FRACTION.search(text) is not None
    if kind == "bound":
        return _NUMBER_STATED.search(_PROVISION_NUMBERS.sub(" ", text)) is not None
    if kind == "relative_bound":
        return _MULTIPLE.search(text) is not None or any(
            _SHARE_OF_BASE.match(text, m.end()) for m in _FRACTION.finditer(text)
        )
    return False
