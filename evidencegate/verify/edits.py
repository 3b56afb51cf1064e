"""Edits: what a claim states that its evidence has no counterpart for.

An edited summary or a careless paraphrase usually copies most of its evidence and changes one
thing: a figure, a date, a name, a negation, or one content word. :func:`find_edits` lists those
changes for one claim sentence against one evidence text (a cited quote, or the window of a
source the claim was aligned to), deterministically:

* ``number`` / ``date`` — a quantity, amount, percentage or date of the claim
  (:func:`~evidencegate.text.extract_quantities`, ``extract_dates``) that the evidence
  does not state. Small number words ("two", "ten") are not checked: "two goals" is as often
  "a brace" in the evidence.
* ``name`` — a part of a named entity (a capitalised word that does not open the sentence, a
  list item or a quotation, or an acronym anywhere; months and weekdays aside) that occurs in the
  evidence neither as a word nor as a stem ("Olympics" has the counterpart "Olympic").
* ``negation`` — a word negated in the claim and not in the evidence, or the reverse
  (:func:`~evidencegate.verify.agreement.negation_mismatch`).
* ``word`` — a content word swapped or inserted inside copied text: the claim's neighbours of
  the word stand in the evidence in the same order, at most three terms apart, and the word
  itself has no counterpart anywhere in the evidence ("grossed $5 million on a *production*
  budget" where the evidence says "on a budget").

A content word's counterpart is the same Snowball stem (:func:`evidencegate.text.porter_stem`),
or a stem sharing its first five letters ("produced"/"production"), so inflection and derivation
are not edits. :func:`missing_terms` lists every content word of a claim without a counterpart.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from evidencegate.analysis import split_sentences
from evidencegate.text import (
    MONTHS,
    STOPWORDS,
    WEEKDAYS,
    extract_dates,
    extract_quantities,
    normalized_words,
    porter_stem,
)
from evidencegate.verify.agreement import (
    claim_date_supported,
    claim_quantity_supported,
    negation_cues,
    negation_mismatch,
)

__all__ = [
    "HARD_EDITS",
    "Edit",
    "EditKind",
    "EvidenceText",
    "content_terms",
    "find_edits",
    "missing_terms",
    "name_parts",
]

EditKind = Literal["number", "date", "name", "negation", "word"]

#: Edit kinds that decide on their own: a figure, date, name or negation the evidence lacks.
HARD_EDITS: frozenset[EditKind] = frozenset({"number", "date", "name", "negation"})

_CAPITALISED = re.compile(r"(?<![\w'])[A-Z][\w'-]*")
_ACRONYM = re.compile(r"(?<![\w'])[A-Z]{2,}s?(?![\w'])")
# What may stand before a capitalised word that still only opens a sentence, item or quote.
_OPENERS = ('"', "'", "(", "[", ":", ".", "?", "!", ";", "-", "*", "\u2022", "\u2013", "\u2014")
_ITEM_MARK = re.compile(r"(?:^|\n)\s*(?:\d{1,3}[.)]|[a-z][.)])?\s*$")
_SMALL_NUMBER_WORDS = re.compile(
    r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b",
    re.IGNORECASE,
)
_CALENDAR = frozenset((*MONTHS, *WEEKDAYS))
_PREFIX = 5  # stems sharing this many leading letters are counterparts
_GAP = 3  # neighbours at most this many terms apart in the evidence frame a swapped word


def content_terms(text: str) -> list[str]:
    """Stems of the content words of ``text``, in order (stop words and numbers left out)."""
    return [
        porter_stem(w)
        for w in normalized_words(text)
        if w not in STOPWORDS and len(w) > 1 and not w[0].isdigit()
    ]


def name_parts(sentence: str) -> list[str]:
    """Lower-cased parts of the names ``sentence`` states (see the module docstring)."""
    out: list[str] = []
    for match in _CAPITALISED.finditer(sentence):
        before = sentence[: match.start()].rstrip()
        acronym = _ACRONYM.fullmatch(match.group()) is not None
        opens = not before or before.endswith(_OPENERS) or _ITEM_MARK.search(before) is not None
        if opens and not acronym:
            continue
        for part in normalized_words(match.group()):
            if part not in STOPWORDS and part not in _CALENDAR and not part.isdigit():
                out.append(part)
    return out


@dataclass(frozen=True)
class Edit:
    """One thing a claim states that its evidence has no counterpart for."""

    kind: EditKind
    text: str
    """the claim's words (a figure, a name part, a word) or, for a negation, the mismatch"""

    def describe(self) -> str:
        if self.kind == "negation":
            return self.text
        what = {
            "number": "a figure",
            "date": "a date",
            "name": "a name",
            "word": "a word swapped or inserted",
        }[self.kind]
        return f"{what} with no counterpart in the evidence: {self.text!r}"


class EvidenceText:
    """An evidence text prepared once: its sentences, terms, words, figures and dates."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = [
            s.text for line in text.splitlines() for s in split_sentences(line) if s.text.strip()
        ]
        self.sequences = [content_terms(s) for s in self.sentences]
        self.sentence_terms = [frozenset(seq) for seq in self.sequences]
        self.terms: frozenset[str] = frozenset().union(*self.sentence_terms)
        self.prefixes = frozenset(t[:_PREFIX] for t in self.terms if len(t) >= _PREFIX)
        self.words = frozenset(normalized_words(text))
        self.word_stems = frozenset(porter_stem(w) for w in self.words)
        self.dates = set(extract_dates(text))
        self.quantities = set(extract_quantities(text))
        positions: dict[str, list[tuple[int, int]]] = {}
        for i, seq in enumerate(self.sequences):
            for j, term in enumerate(seq):
                positions.setdefault(term, []).append((i, j))
        self.positions = positions

    @cached_property
    def idf(self) -> dict[str, float]:
        """Smoothed inverse sentence frequency of each term (rare terms weigh more)."""
        n = len(self.sentence_terms)
        counts: dict[str, int] = {}
        for found in self.sentence_terms:
            for term in found:
                counts[term] = counts.get(term, 0) + 1
        return {term: math.log((n + 1) / (1 + c)) + 1.0 for term, c in counts.items()}

    def has_term(self, term: str) -> bool:
        """Does the evidence have a counterpart for ``term`` (same stem, or shared prefix)?"""
        return term in self.terms or (len(term) >= _PREFIX and term[:_PREFIX] in self.prefixes)

    def has_name(self, part: str) -> bool:
        return part in self.words or porter_stem(part) in self.word_stems

    def window(self, start: int, size: int) -> str:
        return " ".join(self.sentences[start : start + size])


def missing_terms(
    sentence: str, evidence: EvidenceText, *, ignore: Iterable[str] = ()
) -> list[str]:
    """The claim's content terms (stems) without a counterpart in ``evidence``, in order."""
    skip = set(ignore)
    seen: set[str] = set()
    out: list[str] = []
    for term in content_terms(sentence):
        if term not in skip and term not in seen and not evidence.has_term(term):
            seen.add(term)
            out.append(term)
    return out


def find_edits(
    sentence: str,
    evidence: EvidenceText,
    *,
    negation_scope: str | None = None,
    swapped_words: bool = True,
) -> list[Edit]:
    """What ``sentence`` changes relative to ``evidence`` (see the module docstring).

    ``negation_scope``: the text negation is judged against (the aligned window of a long
    source; default the whole evidence). ``swapped_words``: also report ``word`` edits.
    """
    edits: list[Edit] = []
    written = _SMALL_NUMBER_WORDS.sub(" ", sentence)
    for quantity in sorted(extract_quantities(written)):
        if not claim_quantity_supported(quantity, evidence.dates, evidence.quantities):
            edits.append(Edit("number", quantity))
    for date in sorted(extract_dates(written)):
        if not claim_date_supported(date, evidence.dates, evidence.quantities):
            edits.append(Edit("date", date))
    for part in dict.fromkeys(name_parts(sentence)):
        if not evidence.has_name(part):
            edits.append(Edit("name", part))
    scope = negation_scope if negation_scope is not None else evidence.text
    negation = negation_mismatch(sentence, [scope]) or _polarity_flip(sentence, scope)
    if negation is not None:
        edits.append(Edit("negation", negation))
    if swapped_words:
        edits += [Edit("word", w) for w in _swapped_words(sentence, evidence)]
    return edits


def _polarity(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """(stems stated without a negation, stems stated negated) in ``text``, each with a word."""
    negated = Counter(porter_stem(cue.term) for cue in negation_cues(text))
    stated: Counter[str] = Counter()
    word_of: dict[str, str] = {}
    for word in normalized_words(text):
        if word not in STOPWORDS:
            term = porter_stem(word)
            stated[term] += 1
            word_of.setdefault(term, word)
    plain = {t: word_of[t] for t, n in stated.items() if n > negated.get(t, 0)}
    return plain, {t: word_of.get(t, t) for t in negated}


def _polarity_flip(claim: str, scope: str) -> str | None:
    """A word the claim negates that the scope states only plainly, or the reverse, compared
    by Snowball stem ("did not raise" against "raised")."""
    claim_plain, claim_negated = _polarity(claim)
    scope_plain, scope_negated = _polarity(scope)
    for term in sorted(claim_negated.keys() - claim_plain.keys()):
        if term in scope_plain and term not in scope_negated:
            return f"the claim negates {claim_negated[term]!r}, the evidence states it plainly"
    for term in sorted(claim_plain.keys() - claim_negated.keys()):
        if term in scope_negated and term not in scope_plain:
            return f"the claim states {claim_plain[term]!r}, the evidence negates it"
    return None


def _swapped_words(sentence: str, evidence: EvidenceText) -> list[str]:
    """Runs of words with no counterpart in ``evidence`` whose two neighbours the evidence has
    in the same order and sentence, at most the run's length plus ``_GAP`` terms apart: words
    swapped ("Mark Carney" for "Boris Johnson") or inserted into otherwise copied text."""
    words = [w for w in normalized_words(sentence) if w not in STOPWORDS and len(w) > 1]
    words = [w for w in words if not w[0].isdigit()]
    terms = [porter_stem(w) for w in words]
    known = [evidence.has_term(t) for t in terms]
    out: list[str] = []
    i = 1
    while i < len(terms) - 1:
        if known[i] or not known[i - 1]:
            i += 1
            continue
        end = i
        while end < len(terms) and not known[end]:
            end += 1
        if end < len(terms) and _framed(terms[i - 1], terms[end], end - i, evidence):
            out.append(" ".join(words[i:end]))
        i = end
    return list(dict.fromkeys(out))


def _framed(before: str, after: str, run: int, evidence: EvidenceText) -> bool:
    """Does ``after`` follow ``before`` in one evidence sentence within ``run + _GAP`` terms?"""
    for s, j in evidence.positions.get(before, ()):
        if after in evidence.sequences[s][j + 1 : j + 1 + run + _GAP]:
            return True
    return False
