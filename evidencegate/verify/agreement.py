"""Does a claim state what its quotes state: the figures, dates and units, and the negations.

The figures and dates of both sides come from :mod:`evidencegate.text`
(:func:`~evidencegate.text.extract_quantities`, :func:`~evidencegate.text.extract_dates`,
:func:`~evidencegate.text.extract_measures`); this module compares them, and judges negation.
All of it works on :func:`~evidencegate.text.normalize`-d text and is deterministic.

Negation is judged per content word: a word is negated when a negator (``not``, ``no``,
``never``, ``neither``, ``nor``, ``none``, ``without``, ...) precedes it with only function words
between (``"must not provide"``, ``"is not subject"``, ``"has no option"``, ``"does not
include"``, ``"not required"``). A claim contradicts its quotes when a word it shares with them
is negated in one and never negated in the other (or the reverse).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from evidencegate.text import normalize, plural_stem

__all__ = [
    "NegationCue",
    "claim_date_supported",
    "claim_measure_supported",
    "claim_quantity_supported",
    "negation_cues",
    "negation_mismatch",
]


def claim_measure_supported(
    quantity: str, units: frozenset[str], quote_measures: set[tuple[str, frozenset[str]]]
) -> bool:
    """True when some quote states ``quantity`` with at least the claim's ``units``."""
    return not units or any(q == quantity and units <= u for q, u in quote_measures)


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
    for quote in quotes:  # each stem's first phrase per polarity, the first quote's first
        for stem, forms in _polar_forms(quote):
            known = quoted.setdefault(stem, {})
            for negated, phrase in forms:
                known.setdefault(negated, phrase)
    stated = {stem: dict(forms) for stem, forms in _polar_forms(claim)}
    for stem, claim_forms in stated.items():
        quote_forms = quoted.get(stem)
        if quote_forms and claim_forms.keys().isdisjoint(quote_forms.keys()):
            claim_phrase = next(iter(claim_forms.values()))
            quote_phrase = next(iter(quote_forms.values()))
            return f"the claim says {claim_phrase!r} but the quoted text only says {quote_phrase!r}"
    return None


@lru_cache(maxsize=4096)  # pure; the same passages are quoted by many claims
def _polar_forms(text: str) -> tuple[tuple[str, tuple[tuple[bool, str], ...]], ...]:
    """Each stem of :func:`_polar_terms` (in order of first use) with its first phrase per
    polarity (negated or not, in order of first use)."""
    forms: dict[str, dict[bool, str]] = {}
    for term in _polar_terms(text):
        forms.setdefault(term.stem, {}).setdefault(term.negator is not None, term.phrase)
    return tuple((stem, tuple(by.items())) for stem, by in forms.items())


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
                terms.append(_Term(token, plural_stem(token), None, token))
            else:
                phrase = normalized[pending.start() : match.end()]
                terms.append(_Term(token, plural_stem(token), pending.group(), phrase))
            pending = None
    return tuple(terms)
