"""What a claim states must be what its quotes state: numbers, dates and negations.

All three work on :func:`~evidencegate.verify.quotes.normalize`-d text and are deterministic.

Quantities are canonical decimal strings: ``"$53,500"``, ``"53,500 dollars"``, ``"USD 53500"``
and ``"53500.00"`` are all ``"53500"`` (currency is not part of the value); percentages keep a
``%`` (``"5%"``, ``"5 percent"``, ``"five percent"`` are ``"5%"``); small number words count
(``"four months"`` gives ``"4"``); ``thousand``/``million``/``billion`` scale the number.

Dates are ISO strings as precise as the text: ``"2014-01-01"``, ``"2011-07"``, ``"2014"``, and
``"--01-01"`` for a day of the month with no year ("effective January 1 of each year").

Two rules keep claim and quote comparable:

* A bare four-digit integer from 1800 to 2199 (no currency, separator, percent or scale) is a
  year, hence a date and never a quantity: ``"in 2014"`` gives the date ``"2014"``. Numbers inside
  a date are not reported again as quantities.
* Legal citations (``"§ 1013.2(e)"``, ``"12 CFR 226.2(a)(16)"``, ``"15 U.S.C. 1601"``) and
  codes that join letters and a number with a hyphen (``"AC-2"``, ``"W-2"``) are identifiers,
  not quantities: their numbers are ignored.

Negation is judged per content word: a word is negated when a negator (``not``, ``no``,
``never``, ``neither``, ``nor``, ``none``, ``without``, ...) precedes it with only function words
between (``"must not provide"``, ``"is not subject"``, ``"has no option"``, ``"does not
include"``, ``"not required"``). A claim contradicts its quotes when a word it shares with them
is negated in one and never negated in the other (or the reverse).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from evidencegate.verify.quotes import normalize

__all__ = [
    "NegationCue",
    "claim_date_supported",
    "claim_measure_supported",
    "claim_quantity_supported",
    "extract_dates",
    "extract_measures",
    "extract_quantities",
    "negation_cues",
    "negation_mismatch",
]

# --------------------------------------------------------------------------- dates

_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sept": 9,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}


def _alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first so no word shadows a longer one."""
    return "|".join(sorted(words, key=len, reverse=True))


_MONTH = rf"(?P<month>{_alternation(_MONTHS)})\b\.?"
# Without a year, "may" is far more often the verb ("section 4 may apply") than the month.
_MONTH_NOT_MAY = rf"(?P<month>{_alternation(m for m in _MONTHS if m != 'may')})\b\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"

# Tried in this order; each match is masked before the next pattern runs.
_DATE_PATTERNS = (
    re.compile(rf"\b{_MONTH}\s{_DAY},?\s{_YEAR}\b"),  # January 1, 2014
    re.compile(rf"\b{_DAY}\s(?:of\s)?{_MONTH},?\s{_YEAR}\b"),  # 1 January 2014
    re.compile(r"\b(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})\b"),  # 2014-01-01
    re.compile(r"\b(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})\b"),  # 01/01/2014 (US)
    re.compile(rf"\b{_MONTH},?\s{_YEAR}\b"),  # July 2011
    re.compile(rf"\b{_MONTH_NOT_MAY}\s{_DAY}\b"),  # January 1
    re.compile(rf"\b{_DAY}\s(?:of\s)?{_MONTH_NOT_MAY}"),  # 1 January
)
_YEAR_RANGE = range(1800, 2200)

# --------------------------------------------------------------------------- quantities

_LEGAL_CITATIONS = re.compile(
    r"§+\s?\d[\d.]*(?:\([a-z0-9]+\))*"
    r"|\b\d+\s(?:cfr|u\.s\.c\.?)\s(?:part\s)?\d[\d.]*(?:\([a-z0-9]+\))*"
)
_SCALES = {
    "hundred": 100,
    "thousand": 1_000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
    "trillion": 1_000_000_000_000,
}
_SCALE = r"(?:\s(?P<scale>" + "|".join(_SCALES) + r")\b)?"
_PERCENT = r"(?:\s?(?P<percent>%|percent\b|per\scent\b))?"
_NUMBER = re.compile(
    r"(?<![\w.,])(?<![^\W\d_]-)(?P<currency>\$|us\$|usd\s?|eur\s?|€|£|gbp\s?)?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?!\w|[.,]\d)" + _SCALE + _PERCENT
)
_UNIT_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_SMALL_WORDS = {
    "zero": 0,
    **_UNIT_WORDS,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_WORD_NUMBER = re.compile(
    rf"\b(?:(?P<tens>{_alternation(_TENS_WORDS)})(?:-(?P<ones>{_alternation(_UNIT_WORDS)}))?"
    rf"|(?P<small>{_alternation(_SMALL_WORDS)}))\b" + _SCALE + _PERCENT
)


def extract_quantities(text: str) -> set[str]:
    """Canonical amounts, numbers and percentages stated in ``text`` (years and dates excluded)."""
    return set(_scan(text)[1])


def extract_measures(text: str) -> set[tuple[str, frozenset[str]]]:
    """Each quantity of ``text`` with the unit words right after it.

    ``"within 30 business days"`` gives ``("30", {"business", "day"})``. A claim saying "30
    business days" is not supported by a quote saying "20 business days … within 30 days":
    the value is there, but not as business days.
    """
    return set(_scan(text)[2])


def claim_measure_supported(
    quantity: str, units: frozenset[str], quote_measures: set[tuple[str, frozenset[str]]]
) -> bool:
    """True when some quote states ``quantity`` with at least the claim's ``units``."""
    return not units or any(q == quantity and units <= u for q, u in quote_measures)


def extract_dates(text: str) -> set[str]:
    """Canonical ISO dates (or partial dates, or bare years) stated in ``text``."""
    return set(_scan(text)[0])


def claim_date_supported(date: str, dates: set[str], quantities: set[str]) -> bool:
    """True when a claim's ``date`` is stated by quotes having these ``dates``/``quantities``.

    A quote date may be more precise than the claim's ("2014" is supported by "2014-01-01", and
    "--01-01" by "2014-01-01"); a bare year is also supported by the same integer written as a
    quantity ("2,000").
    """
    if date in dates or date in quantities:
        return True
    if date.startswith("--"):
        return any(len(d) == 10 and d.endswith(date[1:]) for d in dates)
    return any(d.startswith(date + "-") for d in dates)


def claim_quantity_supported(quantity: str, dates: set[str], quantities: set[str]) -> bool:
    """True when a claim's ``quantity`` is stated by quotes having these ``dates``/``quantities``.

    The mirror of the year rule: "2,000" in a claim is supported by a quote's "2000".
    """
    return quantity in quantities or quantity in dates


_UNITS = {
    "day": "day",
    "days": "day",
    "business": "business",
    "calendar": "calendar",
    "working": "working",
    "week": "week",
    "weeks": "week",
    "month": "month",
    "months": "month",
    "month's": "month",
    "months'": "month",
    "year": "year",
    "years": "year",
    "year's": "year",
    "hour": "hour",
    "hours": "hour",
    "minute": "minute",
    "minutes": "minute",
}
_FOLLOWING = re.compile(r"\s*([a-z']+)(?:\s+([a-z']+))?")


def _units_after(working: str, end: int) -> frozenset[str]:
    """The unit words among the (up to) two words after a number ending at ``end``."""
    match = _FOLLOWING.match(working, end)
    if match is None:
        return frozenset()
    units = []
    for word in match.groups():
        if word is None or word not in _UNITS:
            break  # units come first: "30 business days", not "30 employees per day"
        units.append(_UNITS[word])
    return frozenset(units)


@lru_cache(maxsize=4096)
def _scan(
    text: str,
) -> tuple[frozenset[str], frozenset[str], frozenset[tuple[str, frozenset[str]]]]:
    """(dates, quantities, measures) of ``text``; cached, the verifier scans each quote once
    per claim."""
    working, _ = normalize(text)
    working = _LEGAL_CITATIONS.sub(lambda m: " " * len(m.group()), working)
    dates: set[str] = set()

    def mask_date(match: re.Match[str]) -> str:
        iso = _iso_date(match)
        if iso is None:
            return match.group()
        dates.add(iso)
        return " " * len(match.group())

    for pattern in _DATE_PATTERNS:
        working = pattern.sub(mask_date, working)

    quantities: set[str] = set()
    measures: set[tuple[str, frozenset[str]]] = set()
    for match in _NUMBER.finditer(working):
        digits, scale, percent = match["digits"], match["scale"], match["percent"]
        if (
            match["currency"] is None
            and scale is None
            and percent is None
            and len(digits) == 4
            and digits.isdigit()
            and int(digits) in _YEAR_RANGE
        ):
            dates.add(digits)
            continue
        stated = _canonical(Decimal(digits.replace(",", "")), scale, percent)
        quantities.add(stated)
        measures.add((stated, _units_after(working, match.end())))
    for match in _WORD_NUMBER.finditer(working):
        if match["small"] is not None:
            value = _SMALL_WORDS[match["small"]]
        else:
            value = _TENS_WORDS[match["tens"]] + (
                _SMALL_WORDS[match["ones"]] if match["ones"] else 0
            )
        canonical = _canonical(Decimal(value), match["scale"], match["percent"])
        quantities.add(canonical)
        measures.add((canonical, _units_after(working, match.end())))
    return frozenset(dates), frozenset(quantities), frozenset(measures)


def _iso_date(match: re.Match[str]) -> str | None:
    """The ISO form of a date match, or None when it names no real day (``02/30/2014``)."""
    groups = match.groupdict()
    month_text = groups["month"]
    month = int(month_text) if month_text.isdigit() else _MONTHS[month_text]
    year_text, day_text = groups.get("year"), groups.get("day")
    try:
        dt.date(int(year_text) if year_text else 2000, month, int(day_text) if day_text else 1)
    except ValueError:
        return None
    if year_text is None:
        return f"--{month:02d}-{int(day_text or 1):02d}"
    if day_text is None:
        return f"{year_text}-{month:02d}"
    return f"{year_text}-{month:02d}-{int(day_text):02d}"


def _canonical(value: Decimal, scale: str | None, percent: str | None) -> str:
    if scale is not None:
        value *= _SCALES[scale]
    integral = value == value.to_integral_value()
    text = str(int(value)) if integral else format(value.normalize(), "f")
    return text + "%" if percent else text


# --------------------------------------------------------------------------- negation

_NEGATORS = frozenset(
    {"not", "no", "never", "neither", "nor", "none", "nothing", "nobody", "without", "non"}
)
# Function words: never judged themselves, and a negation passes over them to the next word.
_FUNCTION_WORDS = frozenset(
    word
    for group in (
        # articles, determiners, pronouns
        "a an the any all some each every such this that these those it its they them their he "
        "him his she her we us our you your i me my which who whom whose what there here",
        # auxiliaries and modals
        "am is are was were be been being do does did have has had must shall should may might "
        "can could will would need needs ought",
        # prepositions and conjunctions
        "to of in on at by for from with as into onto upon about than then and or but if so",
        # adverbs that do not change polarity
        "also only necessarily generally ever yet still even just actually really currently "
        "further otherwise thus therefore however",
    )
    for word in group.split()
)
_CONTRACTIONS = (
    (re.compile(r"\bcannot\b"), "can not"),
    (re.compile(r"\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
)
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*|[.;:!?,()\[\]]")


@dataclass(frozen=True)
class NegationCue:
    """A negator and the content word it governs: ``NegationCue("not", "subject")``."""

    negator: str
    term: str


def negation_cues(text: str) -> tuple[NegationCue, ...]:
    """The negated content words of ``text``, in order, each with its negator."""
    return tuple(NegationCue(t.negator, t.word) for t in _polar_terms(text) if t.negator)


def negation_mismatch(claim: str, quotes: Sequence[str]) -> str | None:
    """Name a word the claim negates and the quotes do not (or the reverse); None when none.

    Only words present on both sides are judged: a word whose every occurrence in the claim has
    the opposite polarity of its every occurrence in the quotes is a contradiction.
    """
    quoted: dict[str, dict[bool, str]] = {}
    for quote in quotes:
        for term in _polar_terms(quote):
            quoted.setdefault(term.stem, {}).setdefault(term.negator is not None, term.phrase)
    stated: dict[str, dict[bool, str]] = {}
    for term in _polar_terms(claim):
        stated.setdefault(term.stem, {}).setdefault(term.negator is not None, term.phrase)
    for stem, claim_forms in stated.items():
        quote_forms = quoted.get(stem)
        if quote_forms and claim_forms.keys().isdisjoint(quote_forms.keys()):
            claim_phrase = next(iter(claim_forms.values()))
            quote_phrase = next(iter(quote_forms.values()))
            return f"the claim says {claim_phrase!r} but the quoted text only says {quote_phrase!r}"
    return None


@dataclass(frozen=True)
class _Term:
    word: str
    stem: str
    negator: str | None
    phrase: str  # the word, or the text from its negator to it ("not a consumer")


@lru_cache(maxsize=4096)
def _polar_terms(text: str) -> tuple[_Term, ...]:
    """Each content word of ``text`` with the negator governing it, if any."""
    normalized, _ = normalize(text)
    for pattern, replacement in _CONTRACTIONS:
        normalized = pattern.sub(replacement, normalized)
    terms: list[_Term] = []
    pending: re.Match[str] | None = None
    for match in _TOKEN.finditer(normalized):
        token = match.group()
        if not token[0].isalpha():  # punctuation ends the scope of a negation
            pending = None
        elif token in _NEGATORS:
            pending = match
        elif token not in _FUNCTION_WORDS and len(token) > 1:
            if pending is None:
                terms.append(_Term(token, _stem(token), None, token))
            else:
                phrase = normalized[pending.start() : match.end()]
                terms.append(_Term(token, _stem(token), pending.group(), phrase))
            pending = None
    return tuple(terms)


def _stem(word: str) -> str:
    """A light, deterministic stem: possessive and plural / third-person ``s`` removed."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
