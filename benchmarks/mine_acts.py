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

import argparse
import sys
from collections import defaultdict
from pathlib import Path

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
#
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. THIS SOFTWARE AND
# DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES,
# EXPRESS OR IMPLIED. The name of Princeton University or WordNet may not be used in advertising
# or publicity pertaining to distribution of the software and/or database. Title to copyright in
# this software, database and any associated documentation shall at all times remain with
# Princeton University and LICENSEE agrees to preserve same.
"""


def mine(wordnet: Path) -> dict[str, set[int]]:
    """Each single-word verb's stem form to its synsets, their direct hypernyms and verb groups."""
    members: dict[int, list[str]] = {}
    links: dict[int, set[int]] = defaultdict(set)
    for line in (wordnet / "data.verb").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split(" | ")[0].split()
        offset = int(parts[0])
        w_cnt = int(parts[3], 16)
        members[offset] = [parts[4 + 2 * i].lower() for i in range(w_cnt)]
        at = 4 + 2 * w_cnt
        for i in range(int(parts[at])):
            symbol, target, tpos, _ = parts[at + 1 + 4 * i : at + 5 + 4 * i]
            if tpos == "v" and symbol in ("@", "$"):
                links[offset].add(int(target))
    groups: dict[str, set[int]] = defaultdict(set)
    for line in (wordnet / "data.noun").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        parts = line.split(" | ")[0].split()
        w_cnt = int(parts[3], 16)
        words = [parts[4 + 2 * i].lower() for i in range(w_cnt)]
        at = 4 + 2 * w_cnt
        for i in range(int(parts[at])):
            symbol, target, tpos, st = parts[at + 1 + 4 * i : at + 5 + 4 * i]
            if symbol != "+" or tpos != "v" or not int(st[:2], 16):
                continue
            word = words[int(st[:2], 16) - 1]
            if word.isalpha() and len(word) >= 3:
                groups[stem_form(stem(word))] |= {int(target), *links[int(target)]}
    for offset, words in members.items():
        for word in words:
            if not (word.isalpha() and len(word) >= 3):
                continue
            groups[stem_form(stem(word))] |= {offset, *links[offset]}
    # Irregular inflections ("told" of "tell", "sent" of "send") belong to their verb's groups.
    for line in (wordnet / "verb.exc").read_text(encoding="utf-8").splitlines():
        inflected, *bases = line.split()
        if not inflected.isalpha() or len(inflected) < 3:
            continue
        for base in bases:
            groups[stem_form(stem(inflected))] |= groups.get(stem_form(stem(base)), set())
    return {word: found for word, found in groups.items() if found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if not (args.wordnet / "data.verb").is_file():
        print(
            f"error: no WordNet database in {args.wordnet} (apt-get install wordnet-base)",
            file=sys.stderr,
        )
        return 2
    groups = mine(args.wordnet)
    lines = [f"{w}\t{' '.join(str(o) for o in sorted(g))}" for w, g in sorted(groups.items())]
    args.out.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} verbs, {sum(len(g) for g in groups.values())} memberships -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
