"""The abbreviations a document defines: read from its own pages, once per version.

A filing or a rule gives a name its abbreviation where it first uses it: "Frito-Lay North
America (FLNA)", "Global Services (BGS)" (the filer's initial, Boeing's "B", before the
segment's), "generally accepted accounting principles (GAAP)", "Customer Due Diligence (CDD)".
A question then asks by the abbreviation ("BGS backlog", "FLNA net revenue") of a sentence or a
table row that writes the long form ("Global Services 19,338"). :func:`defined_abbreviations`
reads those definitions from a document's page texts; :func:`abbreviations_of` reads them
through a :class:`~evidencegate.protocols.SourceLookup` and keeps them by the version's content
hash.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from evidencegate.corpus.readings import version_reading
from evidencegate.protocols import SourceLookup

__all__ = ["Abbreviation", "abbreviations_of", "defined_abbreviations"]


@dataclass(frozen=True)
class Abbreviation:
    """One definition: ``short`` ("BCA") stands for ``long`` ("Commercial Airplanes"), whose
    words' initials spell ``short`` after its ``prefix`` ("B": letters the long form does not
    give, the filer's own initial)."""

    short: str
    long: str
    prefix: str = ""

    @property
    def ordinary(self) -> bool:
        """Is the long form written in lower case ("generally accepted accounting
        principles"): ordinary words naming a measure or a manner, not an entity?"""
        return not self.prefix and not any(c.isupper() for c in self.long)


_DEFINED = re.compile(r"\(\s*([A-Z](?:&?[A-Za-z]){1,7})\s*\)")
"""An abbreviation in brackets, as a definition writes it: "(FLNA)", "(R&D)", "(LatAm)"."""
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*|&|,|[^\sA-Za-z&,]+")
_JOINERS = frozenset({"of", "and", "&", "the", "for", "to", "in", "on", "per", ","})
_MAX_WORDS = 12
_MAX_PREFIX = 1
"""Letters of an abbreviation its long form may leave out, at its start: the filer's initial
("BCA" for Boeing's "Commercial Airplanes"); more would match any two words."""


def _long_form(before: str, letters: str) -> tuple[str, str] | None:
    """The words just before a bracketed abbreviation whose initials spell ``letters`` (lower
    case), or its end after a one-letter prefix, with that prefix; None when they do not.
    Words joined by "&" or "and" that share their initial may give it once ("Defense, Space &
    Security" for "DS")."""
    words = _WORD.findall(before)[-_MAX_WORDS:]
    starts: list[tuple[int, str, str]] = []  # (where the form starts, strict, shared initials)
    strict = shared = ""
    joined = False
    for at in range(len(words) - 1, -1, -1):
        word = words[at]
        if word.lower() in _JOINERS:
            if not strict:
                return None  # "... of (ABC)": no long form ends in a joiner
            joined = joined or word.lower() in ("&", "and")
            continue
        if not word[0].isalpha():
            break  # a figure or a bracket: the long form starts after it
        initials = "".join(p[0].lower() for p in word.split("-") if p)
        strict = initials + strict
        shared = initials + (shared[1:] if joined and shared[:1] == initials[-1:] else shared)
        joined = False
        starts.append((at, strict, shared))
        if len(strict) > len(letters) and len(shared) > len(letters):
            break
    for at, *spelled in starts:
        if letters in spelled:
            return " ".join(words[at:]).replace(" ,", ","), ""
    for at, *spelled in starts:
        nearer = words[at - 1] if at > 0 else ""
        if nearer[:1].isalpha() or nearer in ("&", ","):
            continue  # the form goes on before: no prefix of the filer's
        for form in spelled:
            if letters.endswith(form) and 0 < len(letters) - len(form) <= _MAX_PREFIX:
                return " ".join(words[at:]).replace(" ,", ","), letters[: len(letters) - len(form)]
    return None


def defined_abbreviations(texts: Iterable[str]) -> tuple[Abbreviation, ...]:
    """The abbreviations ``texts`` define, each with the long form written before it."""
    found: dict[Abbreviation, None] = {}
    for text in texts:
        for match in _DEFINED.finditer(text):
            short = match.group(1)
            letters = "".join(c for c in short if c.isupper()).lower()
            if len(letters) < 2:
                continue
            line_start = max(text.rfind("\n", 0, match.start()), text.rfind(".", 0, match.start()))
            before = text[line_start + 1 : match.start()]
            # "LatAm": the capitals of a mixed-case abbreviation are its words' initials
            form = _long_form(before, letters)
            if form is not None:
                long, prefix = form
                found[Abbreviation(short, long.strip(" ,"), prefix.upper())] = None
    return tuple(found)


def abbreviations_of(
    pages: SourceLookup, doc_id: str, version: str, *, tenant: str | None = None
) -> tuple[Abbreviation, ...]:
    """The abbreviations one stored version defines, read from all its pages (kept by its
    hash)."""
    return version_reading(pages, doc_id, version, defined_abbreviations, tenant=tenant)
