"""Mine the word families of ``evidencegate/data/lexicon/derivations.tsv`` from WordNet, offline.

    python3 benchmarks/mine_derivations.py [--wordnet /usr/share/wordnet] [--out FILE]

A question asks "how long must the files be retained" of a rule that writes "retention", "who
is responsible" of one that writes "responsibility", "after closure" of "after the account is
closed". The light stemmer of :func:`evidencegate.text.terms` cannot meet these forms, and the
synonym groups are written by hand. WordNet 3.0 (Princeton; Debian's ``wordnet-base`` installs
its database in ``/usr/share/wordnet``) links each such pair of senses by a "derivationally
related form" pointer (``+``), and lists the irregular inflections ("told" for "tell") in its
``*.exc`` files. This script reads those files (no library, no network) and writes the pairs
that state the same thing in another part of speech:

* the pointer joins two senses (WordNet's pointers are between senses, and not between every
  sense of the two words: "retain" meets "retention" by its fourth);
* the derived word ends in a suffix that names the act, its result or the quality ("-tion",
  "-ment", "-al", "-ure", "-ance", "-ity", "-ness"...), never the one who acts or is acted on
  ("-er", "-or", "-ant", "-ee", "-ist": a "lender" is no "loan", an "accountant" no "account");
* both are single words and share their first three letters ("retain"/"retention",
  "deny"/"denial"), which drops suppletive pairs of another meaning;
* neither is a word the light stemmer cuts down to another word ("caring" to "car").

The table is shipped as package data and read by :mod:`evidencegate.lexicon`; it is written
sorted, so a re-run on the same WordNet gives the same file.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import wordnet_db

from evidencegate.lexicon import stem_form
from evidencegate.text import STOPWORDS, stem

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "evidencegate" / "data" / "lexicon" / "derivations.tsv"
SUFFIXES = (
    "tion",
    "sion",
    "ment",
    "al",
    "ure",
    "ance",
    "ence",
    "ancy",
    "ency",
    "ity",
    "ness",
    "ing",
    "sis",
)
"""Suffixes of the act, its result or quality ("retention", "approval", "closure"): the
derived word of a kept pair ends in one. Agent and patient suffixes ("-er", "-or", "-ant",
"-ee", "-ist") are not among them."""
AGENT = ("er", "or", "ant", "ent", "ee", "ist", "ian", "ary", "ory")
"""Suffixes of who acts or is acted on: a pair whose either word ends in one is dropped."""

HEADER = """\
# Word families: forms of one word in other parts of speech ("retain" "retention", "deny"
# "denial", "responsible" "responsibility") and irregular inflections ("tell" "told").
# Mined by benchmarks/mine_derivations.py from WordNet 3.0: do not edit by hand, re-run it.
# Each line: a word's evidencegate.lexicon.stem_form, a tab, its relatives as evidencegate.text.stem
# writes them (space separated).
"""


def _pairs(wordnet: Path) -> set[tuple[str, str]]:
    """(base, derived) single-word pairs joined by a ``+`` pointer between top senses."""
    senses = wordnet_db.senses(wordnet)
    found: set[tuple[str, str]] = set()
    words_of: dict[tuple[str, str], tuple[str, ...]] = {}
    pointers: list[tuple[str, str, int, str, str, int]] = []
    for pos in ("noun", "verb", "adj", "adv"):
        for synset in wordnet_db.synsets(wordnet, pos):
            words_of[(synset.offset, synset.pos)] = synset.words
            pointers.extend(
                (synset.offset, synset.pos, p.source, p.target, p.pos, p.dest)
                for p in synset.pointers
                if p.symbol == "+"
            )
    for offset, pos, source, target, tpos, dest in pointers:
        if not source or not dest:
            continue
        a = words_of[(offset, pos)][source - 1]
        b = words_of.get((target, tpos), ("",) * dest)[dest - 1]
        if not _single(a) or not _single(b) or a == b:
            continue
        if offset not in senses.get((a, pos), []) or target not in senses.get((b, tpos), []):
            continue
        base, derived = sorted((a, b), key=len)
        if base[:3] != derived[:3] or not derived.endswith(SUFFIXES):
            continue
        if _agent(a) or _agent(b):
            continue
        # "caring" is stemmed "car", another word: its pair would join "car" and "care".
        if any(stem(w) != w and stem(w) not in (a, b) and _lemma(stem(w), senses) for w in (a, b)):
            continue
        found.add((base, derived))
    return found


def _lemma(word: str, senses: dict[tuple[str, str], list[str]]) -> bool:
    return any((word, pos) in senses for pos in ("noun", "verb", "adj", "adv"))


def _agent(word: str) -> bool:
    return word.endswith(AGENT) and not word.endswith(SUFFIXES)


def _single(word: str) -> bool:
    return word.isalpha() and len(word) >= 3 and word not in STOPWORDS


def _irregular(wordnet: Path) -> set[tuple[str, str]]:
    """(base, inflected) from the exception lists ("tell" "told", "criterion" "criteria")
    whose forms the light stemmer does not already bring together, but not a form that is a
    word of its own in the same part of speech ("found" of "find", "saw" of "see")."""
    found: set[tuple[str, str]] = set()
    senses = wordnet_db.senses(wordnet)
    for pos in ("noun", "verb", "adj"):
        for inflected, bases in wordnet_db.exceptions(wordnet, pos):
            if (inflected, pos) in senses:
                continue  # "feed" of the verb "fee" is the verb "feed"; "saw" of "see" a saw
            for base in bases:
                if not (_single(inflected) and _single(base)):
                    continue
                if stem_form(stem(inflected)) != stem_form(stem(base)):
                    found.add((base, inflected))
    return found


def mine(wordnet: Path) -> dict[str, set[str]]:
    """Each stem form (:func:`evidencegate.lexicon.stem_form`) to its relatives' stems as the
    light stemmer writes them: its irregular inflections, and the derived forms of itself and
    of each of those ("denied", stemmed "deni", is related to "denial" too)."""
    written: dict[str, set[str]] = defaultdict(set)

    def form(word: str) -> str:
        stemmed = stem(word)
        written[stem_form(stemmed)].add(stemmed)
        return stem_form(stemmed)

    inflected: dict[str, set[str]] = defaultdict(set)
    for a, b in _irregular(wordnet):
        sa, sb = form(a), form(b)
        inflected[sa].add(sb)
        inflected[sb].add(sa)
    related: dict[str, set[str]] = defaultdict(set)
    for word, forms in inflected.items():
        related[word] |= forms
    for a, b in _pairs(wordnet):
        sa, sb = form(a), form(b)
        if sa == sb:
            continue
        left, right = {sa, *inflected[sa]}, {sb, *inflected[sb]}
        for x in left:
            related[x] |= right
        for y in right:
            related[y] |= left
    return {
        word: {w for r in forms - {word} for w in written[r]}
        for word, forms in related.items()
        if forms - {word}
    }


def main(argv: list[str] | None = None) -> int:
    return wordnet_db.write_table(argv, __doc__.splitlines()[0], OUT, HEADER, _lines)


def _lines(wordnet: Path) -> tuple[list[str], str]:
    related = mine(wordnet)
    lines = [f"{w}\t{' '.join(sorted(r))}" for w, r in sorted(related.items())]
    return lines, f"{len(lines)} words, {sum(len(r) for r in related.values()) // 2} pairs"


if __name__ == "__main__":
    raise SystemExit(main())
