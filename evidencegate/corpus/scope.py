"""Which documents a question is about: its entities and period, resolved against the catalog.

Documents may carry an ``entity`` (an issuer such as ``3M``, a regulation such as
``Regulation M (Consumer Leasing)``), ``aliases`` and a reporting ``period`` (``FY2018``) from
their ingest mapping. A question that names an entity of the catalog is answered from that
entity's documents only: a question about Boeing's filing never reads Amcor's. Within a
series of periodic filings, a question naming years reads the filings for those years, and one
naming none reads the latest filing in force (the "most recently reported" one).

A question that names no catalog entity is not scoped. Scoping is a filter applied before
ranking (the store's ``doc_ids``), never a re-ranking after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from evidencegate.analysis import QuestionProfile, Scope
from evidencegate.contracts import Claim, DocumentVersion, SourcePage
from evidencegate.protocols import SourceLookup

__all__ = [
    "Scope",
    "asks_enumeration",
    "entity_names",
    "label_citation",
    "mentioned_names",
    "names_a_series",
    "provision_name",
    "provision_named",
    "resolve_scope",
    "without_provision",
]


_PARENTHESIS = re.compile(r"\s*\(([^)]*)\)\s*")
_REGULATION = re.compile(r"^Regulation\s+([A-Z]{1,2})$")


_CFR_PART = re.compile(r"^(\d{1,2})\s+C\.?F\.?R\.?\s+(?:[Pp]art\s+)?(\d{1,4})$")
_ACRONYM_WORD = re.compile(r"[A-Z][A-Za-z]*")
_MIN_ACRONYM = 3
"""A shorter acronym ("CL" for "Consumer Leasing") is too often another word."""


def entity_names(document: DocumentVersion) -> list[str]:
    """The names a question may use for the document's entity.

    The entity, its aliases, and what a reader derives from them: a parenthesised part is a
    name of its own and the rest another ("Regulation M (Consumer Leasing)" is also
    "Regulation M" and "Consumer Leasing"), a regulation is also "Reg M", a name of three or
    more capitalised words also its acronym ("Equal Credit Opportunity Act": "ECOA"), and a
    document whose id is a CFR part ("12 CFR 1013") also that part ("12 CFR part 1013",
    "part 1013").
    """
    if not document.entity:
        return []
    names: list[str] = []

    def add(name: str) -> None:
        if name and name not in names:
            names.append(name)

    for name in (document.entity, *document.aliases):
        inner = [part.strip() for part in _PARENTHESIS.findall(name) if part.strip()]
        outer = _PARENTHESIS.sub(" ", name).strip()
        for candidate in (name.strip(), outer, *inner):
            add(candidate)
            if m := _REGULATION.match(candidate):
                add(f"Reg {m.group(1)}")
            if acronym := _acronym(candidate):
                add(acronym)
        if _REGULATION.match(outer):
            # A regulation titled by its Act's subject ("Regulation C (Home Mortgage
            # Disclosure)") is also named by that Act: "Home Mortgage Disclosure Act", "HMDA".
            for part in inner:
                if not part.endswith(" Act"):
                    add(f"{part} Act")
                    if acronym := _acronym(f"{part} Act"):
                        add(acronym)
    if m := _CFR_PART.match(document.doc_id.strip()):
        title, part = m.groups()
        for form in (f"{title} CFR {part}", f"{title} CFR part {part}", f"part {part}"):
            add(form)
    return names


def _acronym(name: str) -> str | None:
    """The initials of a name made of capitalised words only ("Real Estate Settlement
    Procedures Act": "RESPA"), or None (a name with lower-case words, or too few)."""
    words = name.split()
    if words and words[0] == "The":
        words = words[1:]  # "The Boeing Company" is no "TBC"
    if len(words) < _MIN_ACRONYM or not all(_ACRONYM_WORD.fullmatch(w) for w in words):
        return None
    return "".join(w[0] for w in words)


def _cited_parts(question: str) -> set[str]:
    """The CFR parts of the sections the question cites ("§ 1002.5(a)(4)", "1024.39"): a
    section number is its part, a dot, and the section within it."""
    return set(_SECTION.findall(question))


_SECTION = re.compile(r"(?<![\d.$,])(\d{3,4})\.\d{1,3}(?:\([a-z0-9]{1,4}\))*(?!\d|\.\d)")


def _mentions(question: str, name: str) -> bool:
    """Does the question name ``name`` (case-insensitive, whole words, "&" or "and")?"""
    return _name_pattern(name).search(question) is not None


@lru_cache(maxsize=1024)
def _name_pattern(name: str) -> re.Pattern[str]:
    """Where a question names ``name`` (see :func:`_mentions`)."""
    words = [re.escape(w) for w in re.split(r"\s+", name.strip()) if w]
    if not words:
        return re.compile(r"(?!)")
    parts = [r"(?:&|and)" if w in {r"\&", "and"} else w for w in words]
    pattern = r"(?<![\w&])" + r"\s+".join(parts) + r"(?![\w&])"
    if len(name.strip()) <= 2 and not re.search(r"\d", name):
        # A one- or two-letter name only counts in its own case: "M" is not "m".
        return re.compile(pattern)
    return re.compile(pattern, re.IGNORECASE)


def mentioned_names(question: str, names: Iterable[str]) -> list[tuple[int, int, str]]:
    """Where the question writes any of ``names`` (as :func:`resolve_scope` finds them): each
    (start, end, name), in order; a longer name first where two overlap ("Regulation E" over
    "E"), none overlapping."""
    found: list[tuple[int, int, str]] = []
    for name in sorted(set(names), key=lambda n: (-len(n), n)):
        for m in _name_pattern(name).finditer(question):
            if all(m.end() <= s or m.start() >= e for s, e, _ in found):
                found.append((m.start(), m.end(), name))
    return sorted(found)


_NAMED_REGULATION = re.compile(r"\b(?:Regulation|Reg\.?)\s+([A-Z]{1,2})\b(?![-\w])")
_NAMED_PART = re.compile(r"\b(\d{1,2})\s+C\.?F\.?R\.?\s+(?:[Pp]art\s+)?(\d{1,4})\b")


def _unknown_regulation(question: str, documents: Sequence[DocumentVersion]) -> str | None:
    """A regulation (or CFR part) the question names in the form the catalog's own names
    take, when no document of the catalog is it: "Regulation Z" of a corpus whose entities are
    Regulations B to X, "12 CFR 1026" of one whose ids are 12 CFR parts; None otherwise."""
    regulations = {
        m.group(1) for d in documents if d.entity and (m := _REGULATION_IN.search(d.entity))
    }
    if regulations:
        for m in _NAMED_REGULATION.finditer(question):
            if m.group(1) not in regulations:
                return m.group(0)
    parts = {m.group(2) for d in documents if (m := _CFR_PART.match(d.doc_id.strip()))}
    if parts:
        for m in _NAMED_PART.finditer(question):
            if m.group(2) not in parts:
                return m.group(0)
        for m in _SIGNED_SECTION.finditer(question):
            if m.group(1) not in parts:
                return m.group(0)
    return None


_REGULATION_IN = re.compile(r"^Regulation\s+([A-Z]{1,2})\b")
_SIGNED_SECTION = re.compile(r"(?:§|\b[Ss]ections?)\s*(\d{3,4})\.\d{1,3}\b")
"""A section cited as one ("§ 1026.23", "section 1026.23"), not a bare number."""


def _period_year(period: str) -> int | None:
    m = re.search(r"(?:19|20)\d\d", period)
    return int(m.group(0)) if m else None


def resolve_scope(profile: QuestionProfile, catalog: Iterable[DocumentVersion]) -> Scope:
    """The documents of ``catalog`` (versions in force) the question is about."""
    documents = list(catalog)
    question = profile.question
    named: dict[str, list[DocumentVersion]] = {}
    cited = _cited_parts(question)
    for document in documents:
        part = _CFR_PART.match(document.doc_id.strip())
        if document.entity and (
            any(_mentions(question, n) for n in entity_names(document))
            or (part is not None and part.group(2) in cited)
        ):
            named.setdefault(document.entity, []).append(document)
    if not named:
        if missing := _unknown_regulation(question, documents):
            # "Under Regulation Z, ..." of a corpus of Regulations B, E, M and X: another
            # regulation's rules are no answer to it.
            return Scope((), f"the question names {missing}, which no document of the corpus is")
        return Scope(None, "the question names no entity of the corpus")
    chosen: list[DocumentVersion] = []
    notes: list[str] = []
    for entity, docs in sorted(named.items()):
        picked, note = _by_period(profile, docs)
        chosen.extend(picked)
        notes.append(f"{entity}: {note}")
    doc_ids = tuple(sorted({d.doc_id for d in chosen}))
    return Scope(doc_ids, "; ".join(notes))


def _by_period(
    profile: QuestionProfile, docs: Sequence[DocumentVersion]
) -> tuple[list[DocumentVersion], str]:
    periodic = [d for d in docs if d.period and _period_year(d.period) is not None]
    if not periodic:
        return list(docs), "every document of the entity"
    others = [d for d in docs if d not in periodic]
    if profile.period_years:
        wanted = set(profile.period_years)
        exact = [d for d in periodic if _period_year(d.period or "") in wanted]
        if exact:
            names = ", ".join(sorted(d.period or "" for d in exact))
            return [*exact, *others], f"the filings for {names}"
        # A filing reports its own period and earlier ones (comparatives), never a later one.
        later = [d for d in periodic if (_period_year(d.period or "") or 0) >= min(wanted)]
        if later:
            names = ", ".join(sorted(d.period or "" for d in later))
            return [*later, *others], f"no filing for {sorted(wanted)}; later filings {names}"
        return others, f"no filing in force reports {', '.join(map(str, sorted(wanted)))}"
    latest = max(periodic, key=lambda d: (d.version_date, _period_year(d.period or "") or 0))
    return [latest, *others], f"the latest filing in force ({latest.period})"


_PARAGRAPH_LABEL = re.compile(r"^(\d{1,4})-(\d{1,4})((?:-[A-Za-z0-9]{1,4})*?)(?:-Interp(?:-.*)?)?$")


def label_citation(label: str | None) -> str | None:
    """The section a CFR paragraph label cites ("1002-5-a-4": "§ 1002.5(a)(4)"; its official
    interpretation "1024-33-a-Interp-1": "§ 1024.33(a)"), or None for another label. A
    passage so labelled is about that section, as a passage headed by a control id is about
    that control, however little its heading path says ("§ 1002.5 ... / General rules.")."""
    m = _PARAGRAPH_LABEL.match((label or "").strip())
    if m is None:
        return None
    part, section, paragraphs = m.groups()
    return f"§ {part}.{section}" + "".join(f"({p})" for p in paragraphs.split("-") if p)


def provision_name(label: str | None, heading: str, doc_id: str, title: str) -> str:
    """How an answer names where a quote sits, from what the store records of its page: its
    label (a CFR paragraph label as the section it cites, :func:`label_citation`) with the
    first and last lines of its heading path ("AC-2(5) Account Management — Inactivity
    Logout", "§ 1005.11(c)(1) Procedures for resolving errors — Ten-day period"); the document
    and its title for a page with neither ("HSB-POL-007 (Gifts and Entertainment Policy)").
    The verifier reads a claim opening with it as the name of its source, as it reads the
    document's name, not as a statement of the quote."""
    lines = [line.strip().rstrip(".").strip() for line in heading.splitlines() if line.strip()]
    if not label and not lines:
        return f"{doc_id} ({title})" if title and title != doc_id else doc_id
    cited = label_citation(label)
    first = lines[0] if lines else ""
    if cited is not None and first.startswith("§"):
        # "§ 1005.11 Procedures for resolving errors": the section the label cites more exactly
        first = re.sub(r"^§\s*[\d.]+\s*", "", first)
    name = " ".join(part for part in (cited or label, first) if part)
    if len(lines) > 1 and lines[-1] != lines[0]:
        name += f" — {lines[-1]}"
    return name


def provision_named(text: str, source: SourcePage) -> str:
    """``text`` opening with the name of the provision ``source`` is (:func:`provision_name`)."""
    document = source.document
    name = provision_name(source.page.label, source.page.heading, document.doc_id, document.title)
    return f"{name}: {text}"


def without_provision(text: str, source: SourcePage | None) -> str:
    """``text`` without the name of the provision ``source`` is, when it opens with it as
    :func:`provision_named` writes it; unchanged otherwise (any other opening is a statement)."""
    if source is None:
        return text
    opening = provision_named("", source)
    return text[len(opening) :] if text.startswith(opening) else text


def claim_statement(claim: Claim, pages: SourceLookup | None) -> str:
    """What ``claim`` states: its text without the name of the provision its first citation's
    page is, as the store records that page (:func:`without_provision`). The name says where the
    quote sits, not what it says, so judges of the statement read it without."""
    if pages is None or not claim.citations:
        return claim.text
    cited = claim.citations[0]
    return without_provision(claim.text, pages.lookup(cited.doc_id, cited.version, cited.page))


_ENUMERATION_ASKED = re.compile(
    # "what must the notice include", "what does each record have to contain"
    r"\bwhat\s+(?:must|should|shall|does|do|will|has\s+to|have\s+to|needs?\s+to)\s+"
    r"(?:the|a|an|each|every|its|their|our|my|this|that|your|these|those)\s+"
    r"(?:[\w'’-]+\s+){0,7}?(?:have\s+to\s+|need\s+to\s+|be\s+able\s+to\s+)?"
    r"(?:include|contain|state|say|tell|specify|list|cover|describe|set\s+(?:out|forth)|show|"
    r"disclose|capture|record)\b"
    # "what information", "which kinds of", "what steps", "what details"
    r"|\b(?:what|which)\s+(?:[\w-]+\s+)?(?:information|info|details|items|fields|elements|"
    r"steps|things|topics|factors|pieces|contents|components|categories|kinds|types|sorts|"
    r"points|particulars|disclosures|statements|conditions|actions|measures|criteria|records|"
    r"documents)\b"
    # "what goes in the log", "what has to go into the notice"
    r"|\bwhat\s+(?:goes|go|has\s+to\s+go|needs\s+to\s+go|must\s+go|should\s+go|"
    r"must\s+be|has\s+to\s+be|needs\s+to\s+be|should\s+be)\s+(?:in|into|on|written\s+in|"
    r"recorded\s+in|included\s+in)\b"
    r"|\bwhat\s+(?:are|were)\s+the\s+(?:[\w-]+\s+)?(?:steps|elements|components|contents|"
    r"items|factors|kinds|types|categories|disclosures|particulars)\b"
    r"|^\W*(?:list|enumerate)\b|\bstep\s+by\s+step\b",
    re.IGNORECASE,
)
"""A question asking for the items of an enumeration: what a text or record must hold, which
kinds, steps or conditions."""
_NOT_ENUMERATION = re.compile(
    r"\b(?:which|what)\s+(?:control|controls|enhancement|section|provision|paragraph|"
    r"regulation|rule|clause|policy|document)\b",
    re.IGNORECASE,
)
"""A question asking which provision says something: answered by where, not by a list."""
_PROVISION_SAYS = re.compile(
    r"\bwhat\s+(?:does|do|did|will)\s+(?:(?:the|this|that|our|its|their)\s+)?"
    r"(?:[\w.-]+\s+){0,3}?(?:rules?|regulations?|reg|laws?|acts?|policy|policies|standards?|"
    r"guidance|catalog(?:ue)?|controls?|sections?|provisions?|nist|cfpb)\s+"
    r"(?:say|state|tell|specify|describe|cover)\b",
    re.IGNORECASE,
)
"""What a rule says ("... and after how long? What does the federal rule say?"): its content
is asked, which is no enumeration; the question's other words may still ask one."""


def asks_enumeration(question: str, profile: QuestionProfile) -> bool:
    """Does the question ask for the items of a list ("what must each audit record contain",
    "which kinds of information must be backed up", "what steps when an employee leaves",
    "which records must be kept")?
    Not a question asking for a figure, whether something holds, who, or which provision."""
    if profile.wants_figure is not None or profile.answer_type in ("yes_no", "entity"):
        return False
    if profile.asks_provision or _NOT_ENUMERATION.search(question):
        return False
    # or asks which things, in the plural ("which records must the creditor keep", "what
    # channels are accepted"): the question analysis reads it as a list asked for.
    # Not "what were the net revenues of ...": the analysis reads "what are the" as a list,
    # but a figure's name follows it as often.
    if _ENUMERATION_ASKED.search(_PROVISION_SAYS.sub(" ", question)) is not None:
        return True
    return profile.answer_type == "list" and _WHAT_ARE_THE.search(question) is None


_WHAT_ARE_THE = re.compile(r"\bwhat\s+(?:are|were)\s+the\b", re.IGNORECASE)


SERIES = re.compile(r"(?:,[^,;:.]{2,80}){2,}?,?\s+(?:and|or)\s+\w", re.IGNORECASE)
"""A sentence naming three things or more in a series ("the category of Record, the date
range, the method used and the name of ...")."""


def names_a_series(text: str) -> bool:
    """Does ``text`` name three things or more in a series (:data:`SERIES`)?"""
    return SERIES.search(text) is not None
