"""Synonyms: the words a question may use for what a document says in other words.

The groups live in the package data (``data/lexicon/synonyms.yaml``). A question's term is
*matched* by a text when the text states the term itself or a member of one of the term's
groups; multi-word members ("capital expenditure", "sign off") match as phrases. Matching is
on the terms of :func:`evidencegate.text.terms` (lower-cased, stop words removed, lightly
stemmed), so inflections match too.

Question analysis, the offline generator and the rules critic all match through
:func:`match_units` and :func:`text_keys`; retrieval asks for :func:`synonyms_of` a question.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import yaml

from evidencegate.data import data_files
from evidencegate.text import terms

__all__ = [
    "Lexicon",
    "covered_share",
    "focus_terms",
    "lexicon",
    "match_units",
    "matched_units",
    "synonyms_of",
    "text_keys",
    "unit_matched",
]


@dataclass(frozen=True)
class Lexicon:
    """Synonym groups: each member as its term sequence, and the groups each term starts."""

    groups: tuple[tuple[str, ...], ...]
    """Each group's members as written (the first names the group)."""
    members: tuple[tuple[tuple[str, ...], ...], ...]
    """Each group's members as term sequences (empty members, all stop words, dropped)."""

    @classmethod
    def from_groups(cls, groups: Iterable[Sequence[str]]) -> Lexicon:
        written: list[tuple[str, ...]] = []
        members: list[tuple[tuple[str, ...], ...]] = []
        for group in groups:
            forms = tuple(dict.fromkeys(tuple(terms(m)) for m in group if terms(m)))
            if len(forms) >= 2:
                written.append(tuple(group))
                members.append(forms)
        return cls(tuple(written), tuple(members))

    @property
    def _index(self) -> dict[str, list[tuple[int, tuple[str, ...]]]]:
        return _index(self)

    def keys(self, sequence: Sequence[str]) -> list[tuple[int, int, int]]:
        """Every (start, end, group) where a member of ``group`` spans ``sequence[start:end]``."""
        found: list[tuple[int, int, int]] = []
        index = self._index
        for start, term in enumerate(sequence):
            for group, form in index.get(term, ()):
                end = start + len(form)
                if tuple(sequence[start:end]) == form:
                    found.append((start, end, group))
        return found


@cache
def _index(lex: Lexicon) -> dict[str, list[tuple[int, tuple[str, ...]]]]:
    index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for group, forms in enumerate(lex.members):
        for form in forms:
            index.setdefault(form[0], []).append((group, form))
    return index


@cache
def lexicon() -> Lexicon:
    """The shipped synonym groups."""
    text = (data_files() / "lexicon" / "synonyms.yaml").read_text(encoding="utf-8")
    groups = yaml.safe_load(text) or []
    return Lexicon.from_groups([str(m) for m in group] for group in groups)


def _key(group: int) -> str:
    return f"~{group}"


def text_keys(text_terms: Sequence[str], lex: Lexicon | None = None) -> set[str]:
    """What a text can match: its terms and the groups of the members it states."""
    lex = lex or lexicon()
    return {*text_terms, *(_key(g) for _, _, g in lex.keys(text_terms))}


def match_units(question_terms: Sequence[str], lex: Lexicon | None = None) -> list[frozenset[str]]:
    """The question's terms as units to match: each term with the groups it belongs to.

    A multi-word member of a group ("capital expenditure") makes one unit of its words: a text
    stating the phrase, any other member of its group, or every word of it, matches it.
    """
    lex = lex or lexicon()
    spans = lex.keys(question_terms)
    units: list[frozenset[str]] = []
    covered: set[int] = set()
    for start, end, _group in sorted(spans, key=lambda s: (s[0], -(s[1] - s[0]))):
        if end - start > 1 and not covered & set(range(start, end)):
            words = question_terms[start:end]
            groups = {_key(g) for s, e, g in spans if (s, e) == (start, end)}
            units.append(frozenset({" ".join(words), *groups}))
            covered.update(range(start, end))
    for position, term in enumerate(question_terms):
        if position in covered:
            continue
        groups = {_key(g) for s, e, g in spans if s == position and e == position + 1}
        units.append(frozenset({term, *groups}))
    return units


def unit_matched(unit: frozenset[str], keys: set[str], text_terms: Sequence[str]) -> bool:
    """Does a text (its :func:`text_keys` and terms) match a question unit?"""
    if unit & keys:
        return True
    phrases = [u for u in unit if " " in u]
    have = set(text_terms)
    return any(all(word in have for word in phrase.split()) for phrase in phrases)


def synonyms_of(question_terms: Sequence[str], lex: Lexicon | None = None) -> list[str]:
    """The other members, as written, of every group the question's terms belong to."""
    lex = lex or lexicon()
    out: list[str] = []
    asked = set(question_terms)
    for _, _, group in lex.keys(question_terms):
        for member in lex.groups[group]:
            if not set(terms(member)) <= asked and member not in out:
                out.append(member)
    return out


def covered_share(
    question_terms: Sequence[str],
    text_terms: Sequence[str],
    weights: dict[str, float] | None = None,
    lex: Lexicon | None = None,
) -> float:
    """Share of the question's units (weighted) that the text matches, 0..1.

    A unit weighs as much as its heaviest plain term in ``weights`` (1.0 when none is there).
    """
    units = match_units(question_terms, lex)
    if not units:
        return 0.0
    keys = text_keys(text_terms, lex)
    weights = weights or {}

    def weight(unit: frozenset[str]) -> float:
        return max((weights.get(t, 1.0) for t in unit if not t.startswith("~")), default=1.0)

    total = sum(weight(u) for u in units)
    return sum(weight(u) for u in units if unit_matched(u, keys, text_terms)) / total


def matched_units(
    question_terms: Sequence[str], text_terms: Sequence[str], lex: Lexicon | None = None
) -> set[frozenset[str]]:
    """The question's units that the text matches."""
    keys = text_keys(text_terms, lex)
    return {u for u in match_units(question_terms, lex) if unit_matched(u, keys, text_terms)}


def focus_terms(
    question_terms: Sequence[str],
    texts: Sequence[Sequence[str]],
    *,
    exclude: Iterable[str] = (),
) -> list[str]:
    """The question's terms that tell its evidence apart: stated (or a synonym) by some of the
    ``texts`` (term lists), but by at most half of them — "rounded" among passages that all
    say "threshold amount". What the question asks about specifically: an answer states them
    itself, not only under a heading that does.
    """
    if len(texts) < 2:
        return []
    keys = [text_keys(t) for t in texts]
    focus: list[str] = []
    skip = set(exclude)
    for unit in match_units(question_terms):
        words = [w for u in unit if not u.startswith("~") for w in u.split()]
        if not words or set(words) & skip:
            continue
        stated = sum(unit_matched(unit, k, t) for k, t in zip(keys, texts, strict=True))
        if 0 < stated <= len(texts) / 2:
            focus.extend(w for w in words if w not in focus)
    return focus
