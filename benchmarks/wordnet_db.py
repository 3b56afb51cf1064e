"""Read WordNet 3.0's database files (Debian's ``wordnet-base``), for the lexicon's miners.

``benchmarks/mine_derivations.py`` and ``benchmarks/mine_acts.py`` write package data from
WordNet at development time; the package never reads WordNet itself. No library and no network:
the files are plain text (``data.*``: one synset a line; ``index.*``: each lemma's synsets, most
frequent sense first; ``*.exc``: irregular inflections), read as WordNet's ``wndb(5WN)`` page
describes them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

DEFAULT = Path("/usr/share/wordnet")
POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}

LICENCE = """\
#
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. THIS SOFTWARE AND
# DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES,
# EXPRESS OR IMPLIED. The name of Princeton University or WordNet may not be used in advertising
# or publicity pertaining to distribution of the software and/or database. Title to copyright in
# this software, database and any associated documentation shall at all times remain with
# Princeton University and LICENSEE agrees to preserve same.
"""
"""The licence lines every mined table carries after its own header."""


@dataclass(frozen=True)
class Pointer:
    symbol: str
    """``@`` hypernym, ``$`` verb group, ``+`` derivationally related form, ..."""
    target: str
    """The target synset's offset."""
    pos: str
    """The target synset's part of speech ("noun", "verb", "adj", "adv")."""
    source: int
    """The word of this synset the pointer is from (1-based); 0 for the whole synset."""
    dest: int
    """The word of the target synset it points to (1-based); 0 for the whole synset."""


@dataclass(frozen=True)
class Synset:
    offset: str
    pos: str
    words: tuple[str, ...]
    """Its words, lower case, adjective markers ("fast(a)") dropped."""
    pointers: tuple[Pointer, ...]


def synsets(wordnet: Path, pos: str) -> Iterator[Synset]:
    """The synsets of ``data.<pos>`` in file order."""
    for line in (wordnet / f"data.{pos}").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue  # the licence at the head of the file
        parts = line.split(" | ")[0].split()
        w_cnt = int(parts[3], 16)
        words = tuple(parts[4 + 2 * i].lower().split("(")[0] for i in range(w_cnt))
        at = 4 + 2 * w_cnt
        pointers = []
        for i in range(int(parts[at])):
            symbol, target, tpos, st = parts[at + 1 + 4 * i : at + 5 + 4 * i]
            pointers.append(Pointer(symbol, target, POS[tpos], int(st[:2], 16), int(st[2:], 16)))
        yield Synset(parts[0], POS[parts[2]], words, tuple(pointers))


def senses(wordnet: Path) -> dict[tuple[str, str], list[str]]:
    """(lemma, pos) to its synset offsets, most frequent sense first (``index.*`` order)."""
    out: dict[tuple[str, str], list[str]] = {}
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (wordnet / f"index.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split()
            p_cnt, synset_cnt = int(parts[3]), int(parts[2])
            out[(parts[0], pos)] = parts[6 + p_cnt : 6 + p_cnt + synset_cnt]
    return out


def exceptions(wordnet: Path, pos: str) -> Iterator[tuple[str, list[str]]]:
    """(inflected, its bases) of ``<pos>.exc`` ("told" -> ["tell"])."""
    for line in (wordnet / f"{pos}.exc").read_text(encoding="utf-8").splitlines():
        inflected, *bases = line.split()
        yield inflected, bases


def found(wordnet: Path) -> bool:
    """Whether ``wordnet`` holds the database; says what to install when not."""
    if all((wordnet / f"data.{pos}").is_file() for pos in ("noun", "verb", "adj", "adv")):
        return True
    print(
        f"error: no WordNet database in {wordnet} (apt-get install wordnet-base)",
        file=sys.stderr,
    )
    return False


def write_table(
    argv: list[str] | None,
    description: str,
    out: Path,
    header: str,
    lines: Callable[[Path], tuple[list[str], str]],
) -> int:
    """A miner's command line: ``--wordnet DIR --out FILE``; ``lines(wordnet)`` gives the
    table's lines and a summary. The table is written with ``header`` and the licence."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--wordnet", type=Path, default=DEFAULT)
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    if not found(args.wordnet):
        return 2
    rows, summary = lines(args.wordnet)
    args.out.write_text(header + LICENCE + "\n".join(rows) + "\n", encoding="utf-8")
    print(f"{summary} -> {args.out}")
    return 0
