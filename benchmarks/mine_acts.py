"""Mine the act groups of ``evidencegate/data/lexicon/acts.tsv`` from WordNet, offline.

    python3 benchmarks/mine_acts.py [--wordnet /usr/share/wordnet] [--out FILE]

A question asks "how long to notify the customer" of a rule that writes "tell", "send", "mail";
"how often to check" of one that writes "review". The critic refuses an answer whose claims state
another act than the one a time question asks (the deadline to investigate for a question about
the notice), and that check must not fire on a synonym: there a missed equivalence refuses a
right answer. So the groups here are broad on purpose: each verb of WordNet 3.0 (Debian's
``wordnet-base``) is listed with every verb synset it belongs to, in any sense, and the direct
hypernym synsets of those ("notify" and "tell" both under "inform"; "mail" under "send"), and the
synsets its verb-group pointers join; a noun of an act ("notification") with the verb synsets
WordNet derives it from, and an irregular form ("told") with its verb's. Two words can state the
same act when their lists share a synset. Only single words are listed. The table is shipped
as package data and read by :mod:`evidencegate.lexicon`; it is written sorted, so a re-run on
the same WordNet gives the same file.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import wordnet_db

from evidencegate.lexicon import stem_form
from evidencegate.text import stem

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "evidencegate" / "data" / "lexicon" / "acts.tsv"

HEADER = """\
# Act groups: each verb's stem form (evidencegate.lexicon.stem_form of evidencegate.text.stem),
# a tab, the WordNet verb synsets it belongs to in any sense, their direct hypernyms and the
# synsets their verb-group pointers join (offsets, space separated). Two verbs share a synset:
# they can state the same act ("notify" "tell" "send", "check" "review").
# Mined by benchmarks/mine_acts.py from WordNet 3.0: do not edit by hand, re-run it.
"""


def mine(wordnet: Path) -> dict[str, set[int]]:
    """Each single-word verb's stem form to its synsets, their direct hypernyms and verb groups."""
    members: dict[int, tuple[str, ...]] = {}
    links: dict[int, set[int]] = defaultdict(set)
    for synset in wordnet_db.synsets(wordnet, "verb"):
        offset = int(synset.offset)
        members[offset] = synset.words
        for pointer in synset.pointers:
            if pointer.pos == "verb" and pointer.symbol in ("@", "$"):
                links[offset].add(int(pointer.target))
    groups: dict[str, set[int]] = defaultdict(set)
    for synset in wordnet_db.synsets(wordnet, "noun"):
        for pointer in synset.pointers:
            if pointer.symbol != "+" or pointer.pos != "verb" or not pointer.source:
                continue
            word = synset.words[pointer.source - 1]
            if word.isalpha() and len(word) >= 3:
                target = int(pointer.target)
                groups[stem_form(stem(word))] |= {target, *links[target]}
    for offset, words in members.items():
        for word in words:
            if not (word.isalpha() and len(word) >= 3):
                continue
            groups[stem_form(stem(word))] |= {offset, *links[offset]}
    # Irregular inflections ("told" of "tell", "sent" of "send") belong to their verb's groups.
    for inflected, bases in wordnet_db.exceptions(wordnet, "verb"):
        if not inflected.isalpha() or len(inflected) < 3:
            continue
        for base in bases:
            groups[stem_form(stem(inflected))] |= groups.get(stem_form(stem(base)), set())
    return {word: found for word, found in groups.items() if found}


def main(argv: list[str] | None = None) -> int:
    return wordnet_db.write_table(argv, __doc__.splitlines()[0], OUT, HEADER, _lines)


def _lines(wordnet: Path) -> tuple[list[str], str]:
    groups = mine(wordnet)
    lines = [f"{w}\t{' '.join(str(o) for o in sorted(g))}" for w, g in sorted(groups.items())]
    return lines, f"{len(lines)} verbs, {sum(len(g) for g in groups.values())} memberships"


if __name__ == "__main__":
    raise SystemExit(main())
