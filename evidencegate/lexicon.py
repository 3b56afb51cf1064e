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

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

import yaml

from evidencegate.data import data_files
from evidencegate.text import stem, terms

__all__ = [
    "Lexicon",
    "MeasureDefinition",
    "act_senses",
    "acts",
    "covered_share",
    "defined_measure",
    "derivations",
    "derived_terms",
    "figure_kinds",
    "focus_terms",
    "leading_keys",
    "lexicon",
    "match_units",
    "matched_units",
    "measure_definitions",
    "measure_nouns",
    "measures_defined",
    "phrase_said",
    "related_forms",
    "same_act",
    "shares",
    "stem_form",
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
    _index: dict[str, list[tuple[int, tuple[str, ...]]]] = field(
        init=False, repr=False, compare=False
    )
    """Each term to the (group, member) pairs it starts: built once, with the lexicon."""
    _hash: int = field(init=False, repr=False, compare=False)
    """The hash of the groups, computed once: a lexicon keys the matching caches below."""

    def __post_init__(self) -> None:
        index: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for group, forms in enumerate(self.members):
            for form in forms:
                index.setdefault(form[0], []).append((group, form))
        # A frozen dataclass: derived fields are set once, here, and never change.
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_hash", hash((self.groups, self.members)))

    def __hash__(self) -> int:
        return self._hash

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

    def keys(self, sequence: Sequence[str]) -> list[tuple[int, int, int]]:
        """Every (start, end, group) where a member of ``group`` spans ``sequence[start:end]``."""
        found: list[tuple[int, int, int]] = []
        index = self._index
        for start, term in enumerate(sequence):
            for group, form in index.get(term, ()):
                end = start + len(form)
                # A one-word member is the term itself (the index is keyed by first words).
                if end == start + 1 or tuple(sequence[start:end]) == form:
                    found.append((start, end, group))
        return found


@cache
def lexicon() -> Lexicon:
    """The shipped synonym groups."""
    text = (data_files() / "lexicon" / "synonyms.yaml").read_text(encoding="utf-8")
    groups = yaml.safe_load(text) or []
    return Lexicon.from_groups([str(m) for m in group] for group in groups)


def stem_form(term: str) -> str:
    """A stem without the final "e" the light stemmer keeps on some forms only ("disable",
    "provide" beside "disabl", "provid"), for words of five letters or more; a participle
    in "-en" after a doubled consonant as its verb's stem ("written" as "writ", the stem of
    "writing"; "hidden", "forgotten")."""
    if len(term) >= 6 and term.endswith("en") and term[-3] == term[-4] and term[-3] not in "aeiou":
        return term[:-3]
    return term[:-1] if len(term) >= 5 and term.endswith("e") and term[-2] != "e" else term


@dataclass(frozen=True)
class MeasureDefinition:
    """A measure computed from two others ("working capital": current assets less current
    liabilities): its name, the operation (an :class:`evidencegate.contracts.Operation` value)
    and the phrases of its two operands, first and second."""

    name: str
    operation: str
    operands: tuple[str, str]


@cache
def measure_definitions() -> tuple[MeasureDefinition, ...]:
    """The shipped derived measures (``data/lexicon/measures.tsv``), longest name first."""
    text = (data_files() / "lexicon" / "measures.tsv").read_text(encoding="utf-8")
    out: list[MeasureDefinition] = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, operation, x, y = (part.strip() for part in line.split("\t"))
        out.append(MeasureDefinition(name.lower(), operation, (x, y)))
    return tuple(sorted(out, key=lambda d: -len(d.name)))


def defined_measure(text: str) -> tuple[MeasureDefinition, int, int] | None:
    """The derived measure ``text`` names first (the longest name where two overlap), with
    where it names it; None when it names none."""
    lowered = text.lower()
    found: list[tuple[int, int, MeasureDefinition]] = []
    for definition in measure_definitions():
        match = re.search(rf"(?<![\w&-]){re.escape(definition.name)}(?![\w&-])", lowered)
        if match is not None:
            found.append((match.start(), -len(definition.name), definition))
    if not found:
        return None
    start, length, definition = min(found, key=lambda f: (f[0], f[1]))
    return definition, start, start - length


_FUNCTION_WORDS = frozenset({"of", "the", "a", "an", "to", "as", "and", "in", "on", "for"})
_WORDS = re.compile(r"[a-z][a-z&'-]*")


def phrase_said(phrase: str, text: str) -> bool:
    """Does ``text`` (a row label) state all of ``phrase`` ("current assets" by "Total current
    assets"): its terms, through the lexicon's synonyms, and the words :func:`terms` drops but
    a figure's name depends on ("current" of "current assets": "Total assets" is another row)."""
    if covered_share(terms(phrase), terms(text)) < 1:
        return False
    said = set(_WORDS.findall(text.lower()))
    dropped = [
        w for w in _WORDS.findall(phrase.lower()) if not terms(w) and w not in _FUNCTION_WORDS
    ]
    return all(w in said for w in dropped)


def measures_defined(operation: str, labels: Sequence[str]) -> list[str]:
    """The names of the derived measures that ``operation`` over rows labelled ``labels`` (in
    operand order) computes ("working capital" for the difference of "Total current assets"
    and "Total current liabilities")."""
    if len(labels) != 2:
        return []
    return [
        d.name
        for d in measure_definitions()
        if d.operation == operation
        and all(phrase_said(p, label) for p, label in zip(d.operands, labels, strict=True))
    ]


@cache
def derivations() -> dict[str, frozenset[str]]:
    """The shipped word families (``data/lexicon/derivations.tsv``, mined from WordNet by
    ``benchmarks/mine_derivations.py``): each word's :func:`stem_form` to its forms in other
    parts of speech ("retain": "retention") and its irregular inflections, as
    :func:`evidencegate.text.terms` writes them."""
    text = (data_files() / "lexicon" / "derivations.tsv").read_text(encoding="utf-8")
    table: dict[str, set[str]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        word, _, related = line.partition("\t")
        table.setdefault(stem_form(word), set()).update(related.split())
    return {word: frozenset(related) for word, related in table.items()}


def derived_terms(term: str) -> frozenset[str]:
    """``term``'s forms in other parts of speech and irregular inflections, as terms ("retention"
    of "retain"; "keep" of "kept"), none when it has none."""
    return derivations().get(stem_form(term), frozenset())


@lru_cache(maxsize=65536)
def related_forms(term: str) -> frozenset[str]:
    """The :func:`stem_form` of each of :func:`derived_terms` ("retention" of "retained",
    "responsibility" of "responsible"), without ``term``'s own."""
    own = stem_form(term)
    return frozenset(stem_form(t) for t in derived_terms(term)) - {own}


@cache
def acts() -> dict[str, frozenset[str]]:
    """The shipped act groups (``data/lexicon/acts.tsv``, mined from WordNet by
    ``benchmarks/mine_acts.py``): each verb's (and each noun of an act's) :func:`stem_form` to
    the WordNet verb synsets it belongs to in any sense, their direct hypernyms and verb groups.
    Broad on purpose: it tells when a claim can state the act a question asks ("notify" by
    "tell", "check" by "review"), and a rejecting check must not miss a synonym."""
    text = (data_files() / "lexicon" / "acts.tsv").read_text(encoding="utf-8")
    table: dict[str, set[str]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        word, _, synsets = line.partition("\t")
        table.setdefault(word, set()).update(synsets.split())
    return {word: frozenset(synsets) for word, synsets in table.items()}


@cache
def measure_nouns() -> dict[str, frozenset[str]]:
    """The shipped measure nouns (``data/lexicon/figures.tsv``, mined from WordNet by
    ``benchmarks/mine_figures.py``): each noun whose most frequent sense is a measure, to the
    kinds of figure it asks ("headcount": count, "fine": money, "age": age, "turnover":
    proportion; "size": magnitude, of no kind by itself; "workforce": group, counted by head)."""
    text = (data_files() / "lexicon" / "figures.tsv").read_text(encoding="utf-8")
    table: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        noun, _, kinds = line.partition("\t")
        table[noun] = frozenset(kinds.split())
    return table


@lru_cache(maxsize=4096)
def figure_kinds(noun: str) -> frozenset[str]:
    """The kinds of figure a written noun asks (:func:`measure_nouns`), also in the plural
    ("salaries", "fees", "head counts"); empty for a noun WordNet does not know as a measure."""
    noun = noun.lower()
    table = measure_nouns()
    if noun in table:
        return table[noun]
    for plural, singular in (("ies", "y"), ("es", ""), ("s", "")):
        if noun.endswith(plural) and (base := noun[: -len(plural)] + singular) in table:
            return table[base]
    return frozenset()


@lru_cache(maxsize=65536)
def act_senses(word: str) -> frozenset[str]:
    """The act groups of a written word (:func:`acts`), also by its forms in other parts of
    speech (:func:`related_forms`: "acknowledgement" by "acknowledge") and the other spelling
    of "-dgement"; empty for a word WordNet does not know as an act."""
    word = word.lower().replace("dgement", "dgment")
    stemmed = stem(word)
    table = acts()
    found = set(table.get(stem_form(stemmed), ()))
    for form in related_forms(stemmed):
        found |= table.get(form, frozenset())
    return frozenset(found)


def same_act(a: str, b: str) -> bool:
    """Whether two written words can name the same act (they share a group of :func:`acts`)."""
    return not act_senses(a).isdisjoint(act_senses(b))


def _key(group: int) -> str:
    return f"~{group}"


# The matching below is pure (terms and a lexicon in, keys and units out) and one ``ask`` matches
# the same question against the same passages many times (retrieval, drafting, both critic
# phases), so each result is computed once per (terms, lexicon) and kept in a bounded cache.
_CACHE = 8192


def text_keys(text_terms: Sequence[str], lex: Lexicon | None = None) -> set[str]:
    """What a text can match: its terms and the groups of the members it states."""
    return set(_text_keys(tuple(text_terms), lex or lexicon()))


@lru_cache(maxsize=_CACHE)
def _text_keys(text_terms: tuple[str, ...], lex: Lexicon) -> frozenset[str]:
    return frozenset(
        {*text_terms, *_compound_parts(text_terms), *(_key(g) for _, _, g in lex.keys(text_terms))}
    )


def leading_keys(text_terms: Sequence[str], n: int, lex: Lexicon | None = None) -> set[str]:
    """What the first ``n`` terms of a text can match (:func:`text_keys`), a member begun among
    them counting whole ("purchases of property, plant and equipment" begun by "purchases")."""
    lex = lex or lexicon()
    head = tuple(text_terms[:n])
    return {
        *head,
        *_compound_parts(head),
        *(_key(g) for s, _, g in lex.keys(tuple(text_terms)) if s < n),
    }


def _compound_parts(text_terms: Sequence[str]) -> list[str]:
    """The words of each hyphenated compound of a text ("medium-risk" states "medium" and
    "risk"): a question asks "medium risk customer" of a text writing "medium-risk customer".
    A compound with a digit ("AC-2", "W-2") is an identifier and is not split; a word by
    which questions ask for a figure ("long" of "long-term" for "how long") is not split off."""
    return [
        part
        for term in text_terms
        if "-" in term and not any(ch.isdigit() for ch in term)
        for part in terms(term.replace("-", " "))
        if part not in _ASKING
    ]


_ASKING = frozenset(terms("long often soon much many quickly frequently"))
"""How a question asks for a figure ("how long", "how often"): the same words as
:data:`evidencegate.analysis.ASK_WORDS`, which question analysis (a layer above) defines."""


def match_units(question_terms: Sequence[str], lex: Lexicon | None = None) -> list[frozenset[str]]:
    """The question's terms as units to match: each term with the groups it belongs to.

    A multi-word member of a group ("capital expenditure") makes one unit of its words: a text
    stating the phrase, any other member of its group, or every word of it, matches it.
    """
    return list(_match_units(tuple(question_terms), lex or lexicon()))


@lru_cache(maxsize=_CACHE)
def _match_units(question_terms: tuple[str, ...], lex: Lexicon) -> tuple[frozenset[str], ...]:
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
    return tuple(units)


def unit_matched(
    unit: frozenset[str], keys: set[str] | frozenset[str], text_terms: Sequence[str]
) -> bool:
    """Does a text (its :func:`text_keys` and terms) match a question unit?"""
    if not unit.isdisjoint(keys):
        return True
    phrases = [u for u in unit if " " in u]
    if not phrases:
        return False  # no set of the text's terms to make (most units have no phrase)
    have = set(text_terms)
    return any(all(word in have for word in phrase.split()) for phrase in phrases)


@lru_cache(maxsize=_CACHE)
def _unit_parts(
    question_terms: tuple[str, ...], lex: Lexicon
) -> tuple[tuple[frozenset[str], tuple[str, ...], tuple[tuple[str, ...], ...]], ...]:
    """Each unit of the question (:func:`match_units`, in order) with its plain terms (not
    group keys) and the words of each of its phrases."""
    return tuple(
        (
            unit,
            tuple(t for t in unit if not t.startswith("~")),
            tuple(tuple(u.split()) for u in unit if " " in u),
        )
        for unit in _match_units(question_terms, lex)
    )


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
    return shares(question_terms, weights, lex)(text_terms)


def shares(
    question_terms: Sequence[str],
    weights: dict[str, float] | None = None,
    lex: Lexicon | None = None,
) -> Callable[[Sequence[str]], float]:
    """:func:`covered_share` with the question and the weights fixed, for many texts: a draft
    weighs every candidate sentence against the question with the same weights, so the
    question's units and their weights are looked up once, and the share of each set of
    matched units is summed once."""
    asked, lex = tuple(question_terms), lex or lexicon()
    matcher = _matcher(asked, lex)
    if weights:
        unit_weights, total = _unit_weights(asked, lex, tuple(weights.items()))
    else:
        unit_weights, total = matcher.ones, matcher.count
    summed: dict[int, float] = {}

    def share(text_terms: Sequence[str]) -> float:
        if not matcher.count:
            return 0.0
        mask = matcher.mask(tuple(text_terms), lex)
        value = summed.get(mask)
        if value is None:
            # The matched units' weights added in the units' order, as they always were.
            value = summed[mask] = (
                sum(w for i, w in enumerate(unit_weights) if mask >> i & 1) / total
            )
        return value

    return share


@dataclass(frozen=True)
class _Matcher:
    """A question's units (:func:`match_units`, in order) set out to be matched against many
    texts (:meth:`mask`): the members of all units are intersected with a text's keys once,
    instead of a test per unit."""

    count: float
    """The number of units (a float: it divides like ``sum(1.0 for _ in units)``)."""
    ones: tuple[float, ...]
    """1.0 per unit: the weights of an unweighted share."""
    members: frozenset[str]
    """Every member of every unit."""
    bits: dict[str, int]
    """Each member to the units it belongs to, as a bit mask (bit i: unit i)."""
    phrased: tuple[tuple[int, tuple[tuple[str, ...], ...], bool], ...]
    """Each unit with phrases: its bit, its phrases' words, and whether a phrase word is a
    group key ("~..."), which is then looked for among the text's terms alone."""

    def mask(self, text_terms: tuple[str, ...], lex: Lexicon) -> int:
        """The units the text matches (:func:`unit_matched`), bit i for unit i: a member of
        the unit is among the text's keys, or every word of one of its phrases is (among the
        text's terms when a phrase word is a group key)."""
        keys = _text_keys(text_terms, lex)
        mask = 0
        bits = self.bits
        for member in self.members & keys:
            mask |= bits[member]
        have: frozenset[str] | None = None
        for bit, phrases, keyed in self.phrased:
            if mask & bit:
                continue
            if keyed:
                have = frozenset(text_terms) if have is None else have
                found = any(have.issuperset(words) for words in phrases)
            else:
                found = any(keys.issuperset(words) for words in phrases)
            if found:
                mask |= bit
        return mask


@lru_cache(maxsize=_CACHE)
def _matcher(question_terms: tuple[str, ...], lex: Lexicon) -> _Matcher:
    parts = _unit_parts(question_terms, lex)
    bits: dict[str, int] = {}
    for index, (unit, _, _) in enumerate(parts):
        for member in unit:
            bits[member] = bits.get(member, 0) | 1 << index
    return _Matcher(
        count=sum(1.0 for _ in parts),
        ones=tuple(1.0 for _ in parts),
        members=frozenset(bits),
        bits=bits,
        phrased=tuple(
            (1 << index, phrases, any(w.startswith("~") for words in phrases for w in words))
            for index, (_, _, phrases) in enumerate(parts)
            if phrases
        ),
    )


@lru_cache(maxsize=_CACHE)
def _unit_weights(
    question_terms: tuple[str, ...], lex: Lexicon, weights: tuple[tuple[str, float], ...]
) -> tuple[tuple[float, ...], float]:
    """Each unit's weight (its heaviest plain term's, 1.0 when none is weighed) and their sum."""
    get = dict(weights).get

    def weight(term: str) -> float:
        # A phrase ("credit application") weighs as its heaviest word: it is asked as much.
        return max(get(word, 1.0) for word in term.split()) if " " in term else get(term, 1.0)

    unit_weights = tuple(
        max([weight(t) for t in plain], default=1.0)
        for _, plain, _ in _unit_parts(question_terms, lex)
    )
    return unit_weights, sum(unit_weights)


def matched_units(
    question_terms: Sequence[str], text_terms: Sequence[str], lex: Lexicon | None = None
) -> set[frozenset[str]]:
    """The question's units that the text matches."""
    asked, lex = tuple(question_terms), lex or lexicon()
    mask = _matcher(asked, lex).mask(tuple(text_terms), lex)
    return {unit for i, (unit, _, _) in enumerate(_unit_parts(asked, lex)) if mask >> i & 1}


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
    lex = lexicon()
    keys = [_text_keys(tuple(t), lex) for t in texts]  # read only: the cached sets, no copies
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
