"""Text utilities: the one tokenizer, stemmer, stop-word list, month table and date and number
parser that every component uses.

* :func:`terms` — content terms: lower-cased words minus :data:`STOPWORDS`, stemmed by
  :func:`stem`, numbers kept. Retrieval, answer selection, the critics, the judges and the
  synonym lexicon compare texts through it, so changing it changes answers (measure with
  ``benchmarks/answers.py``). :func:`word_tokens` gives the same words as written.
* Two more stemmers, each kept where its figures were tuned: :func:`porter_stem` (Snowball) for
  the edit detector and :func:`plural_stem` (plural and possessive only) for negation
  matching, with :func:`normalized_words` (runs of letters and digits of normalised text, any
  script). Putting the edit detector and negation on :func:`stem` was measured
  (``benchmarks/critic.py``, balanced accuracy): FaithBench 0.575 -> 0.595, but WiCE 0.660 ->
  0.655, the WiCE dev pool 0.699 -> 0.682 and the edited claims 0.793 -> 0.788, so it is not
  done; nor is the reverse (moving :func:`terms` to Snowball), which changes retrieval and
  answer selection.
* :data:`MONTHS`, :data:`WEEKDAYS` and :data:`MONTH_NUMBERS` (with the usual abbreviations).
* :func:`normalize` — what makes "verbatim" robust to the accidents of text extraction without
  letting a quote say something the page does not: Unicode NFKC, case folding, typographic
  quotes and dashes to ASCII, decimal digits of every script to ASCII (Arabic-Indic ``٥٠٠`` ->
  ``500``), words hyphenated across a line break rejoined (``"regu-\\nlation"`` ->
  ``"regulation"``), invisible characters (every Unicode format character: soft hyphen,
  zero-width spaces and joiners, bidirectional marks and overrides, invisible operators)
  dropped, and every run of whitespace collapsed to one space. So the verifier reads the digits
  a reader sees: an invisible character cannot split or hide part of a number, nor can another
  script's digits escape the comparison. Each normalised character remembers which characters
  of the original produced it (:func:`normalize_spans`), so a match in normalised text maps
  back to exact original offsets.
* :func:`extract_dates`, :func:`extract_quantities`, :func:`extract_measures` — the dates,
  numbers and measures a text states, canonicalised so that two texts compare:

  Quantities are canonical decimal strings: ``"$53,500"``, ``"53,500 dollars"``, ``"USD 53500"``
  and ``"53500.00"`` are all ``"53500"`` (currency is not part of the value); percentages keep a
  ``%`` (``"5%"``, ``"5 percent"``, ``"five percent"`` are ``"5%"``); small number words count
  (``"four months"`` gives ``"4"``); ``thousand``/``million``/``billion`` scale the number.

  Dates are ISO strings as precise as the text: ``"2014-01-01"``, ``"2011-07"``, ``"2014"``, and
  ``"--01-01"`` for a day of the month with no year ("effective January 1 of each year").

  A bare four-digit integer from 1800 to 2199 (no currency, separator, percent or scale) is a
  year, hence a date and never a quantity: ``"in 2014"`` gives the date ``"2014"``. Numbers
  inside a date are not reported again as quantities. Legal citations (``"§ 1013.2(e)"``,
  ``"12 CFR 226.2(a)(16)"``, ``"15 U.S.C. 1601"``) and codes that join letters and a number
  with a hyphen (``"AC-2"``, ``"W-2"``) are identifiers, not quantities: their numbers are
  ignored.

This module imports nothing of the package (only ``snowballstemmer``): it sits just above the
contracts.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable
from decimal import Decimal
from functools import lru_cache

import snowballstemmer

__all__ = [
    "MONTHS",
    "MONTH_NUMBERS",
    "STOPWORDS",
    "WEEKDAYS",
    "extract_dates",
    "extract_measures",
    "extract_quantities",
    "normalize",
    "normalize_spans",
    "normalized_words",
    "plural_stem",
    "porter_stem",
    "stem",
    "term_tuple",
    "terms",
    "word_tokens",
]

# --------------------------------------------------------------------------- words and terms

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
        # units a question asks its figure in ("in USD millions"), not what it is about
        "usd",
        "million",
        "millions",
        "billion",
        "billions",
        "thousands",
    ]
)
# "not", "no", "nor", "must", "may", "shall" are stop words for relevance only; the verifier
# checks negation and modality separately, on the full text.

_SNOWBALL = snowballstemmer.stemmer("english")
_LETTERS_AND_DIGITS = re.compile(r"[^\W_]+")
_WORD = re.compile(
    r"\d+-?[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*"  # 3M, 10-K: digits and letters, one word
    r"|[A-Za-z]+\d+[A-Za-z0-9]*"  # FY18, rev5
    r"|[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]|\d+(?:[.,]\d+)*"
)

MONTHS = (
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
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTH_NUMBERS: dict[str, int] = {
    **{name: number for number, name in enumerate(MONTHS, start=1)},
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
"""Month names and their usual abbreviations, lower-cased, to the month's number."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stemmer: ``applies``/``applied``/``applying`` -> ``appl``/``apply``.

    Deterministic and small on purpose: question, passage and synonym terms must meet (see
    :func:`terms`); it never touches a word of fewer than three letters left.
    """
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
    """Content terms: lower-cased words minus stop words, lightly stemmed; numbers kept.

    A fresh list each call (callers may change it); the terms of a text are computed once
    (:func:`_terms`): one ``ask`` reads the same passages and question many times.
    """
    return list(_terms(text))


def term_tuple(text: str) -> tuple[str, ...]:
    """:func:`terms` as the cached tuple itself (no copy): for callers that only read it."""
    return _terms(text)


@lru_cache(maxsize=8192)  # bounded: the key and its terms are about twice the text
def _terms(text: str) -> tuple[str, ...]:
    out: list[str] = []
    for word in _WORD.findall(text):
        word = word.lower().strip("'-")
        if not word or word in STOPWORDS:
            continue
        if word[0].isdigit():
            out.append(word.replace(",", ""))
        elif len(word) > 1:
            out.append(stem(word.replace("'s", "")))
    return tuple(out)


def word_tokens(text: str) -> list[str]:
    """The words of ``text`` as written, by the tokenizer of :func:`terms` ("3M", "10-K",
    "FY18", "1,000.5" are one word each)."""
    return _WORD.findall(text)


@lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """The Snowball (Porter 2) English stem of a lower-cased word; what the edit detector
    (:mod:`evidencegate.verify.edits`) compares a claim's words with its source's by."""
    return str(_SNOWBALL.stemWord(word))


def plural_stem(word: str) -> str:
    """The lightest stem: possessive and plural / third-person ``s`` removed (``"consumer's"``,
    ``"consumers"`` -> ``"consumer"``); what negation matching compares
    (:mod:`evidencegate.verify.agreement`)."""
    if word.endswith("'s"):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("es") and word[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def normalized_words(text: str) -> list[str]:
    """The words of :func:`normalize`-d ``text`` (lower-cased, NFKC, ASCII digits): runs of
    letters and digits of any script, hyphenated words split. What the edit detector compares."""
    return _LETTERS_AND_DIGITS.findall(normalize(text)[0].replace("-", " "))


# --------------------------------------------------------------------------- normalisation

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
# ASCII characters that are not whitespace (str.isspace): what normalises by lower() alone.
_ASCII_RUN = re.compile(r"[\x00-\x08\x0e-\x1b!-\x7f]+")


def normalize(text: str) -> tuple[str, list[int]]:
    """Normalise ``text``; also return, per normalised character, its index in ``text``."""
    normalized, starts, _ = normalize_spans(text)
    return normalized, list(starts)


@lru_cache(maxsize=256)  # bounded: a long PDF page's offset tables are large
def normalize_spans(text: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
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
            elif out and out[-1] != " ":  # emit(" ", i, j), inline: most runs are one space
                out.append(" ")
                starts.append(i)
                ends.append(j)
            i = j
            continue
        if ch.isascii():
            # A run of ASCII characters (no whitespace): each is a cluster of its own, emitted
            # lower-cased, as the loop below would one by one. Its last character goes to the
            # loop when a combining mark follows it (they form one cluster).
            j = _ASCII_RUN.match(text, i).end()  # type: ignore[union-attr]  # ch matches
            if j < n and unicodedata.combining(text[j]):
                j -= 1
            if j > i:
                out.extend(text[i:j].lower())
                starts.extend(range(i, j))
                ends.extend(range(i + 1, j + 1))
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


# --------------------------------------------------------------------------- dates and numbers


def _alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first so no word shadows a longer one."""
    return "|".join(sorted(words, key=len, reverse=True))


_MONTH = rf"(?P<month>{_alternation(MONTH_NUMBERS)})\b\.?"
# Without a year, "may" is far more often the verb ("section 4 may apply") than the month.
_MONTH_NOT_MAY = rf"(?P<month>{_alternation(m for m in MONTH_NUMBERS if m != 'may')})\b\.?"
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


def extract_dates(text: str) -> set[str]:
    """Canonical ISO dates (or partial dates, or bare years) stated in ``text``."""
    return set(_scan(text)[0])


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
    month = int(month_text) if month_text.isdigit() else MONTH_NUMBERS[month_text]
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
