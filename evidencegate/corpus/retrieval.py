"""The default retriever: BM25 over the store, widened by pseudo-relevance feedback.

A question phrased the way an analyst types rarely uses the document's words ("how big can a
lease get" for "threshold amount"). Pseudo-relevance feedback (RM3-style) reads the first
ranking's best passages, takes the terms that are frequent there and rare in the whole corpus
(by the store's own document frequencies), and asks again with the question plus those terms.
The two rankings are fused by reciprocal rank fusion, so the expansion can add passages but
never pushes the literal matches out of the first places.

Filters (as-of, tenant, authorities, the question's document scope) apply inside each store
search, before ranking: the expansion never reaches a version that is not in force.

A rule's list comes whole: an item kept ("more than 120 days delinquent;") brings the lead-in
it completes ("A servicer shall not make the first notice or filing ... unless:"), found by its
label one level up, and a lead-in kept brings its best ranked item, beyond ``limit`` (at most
:data:`_LIST_PARTS` such passages). On the golden sets this took the evidence recall from
387/436 to 393/436 (CFPB 141 -> 147), answers unchanged (229 correct, 21 wrong).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from evidencegate.analysis import (
    REQUIRING_WORDS,
    Period,
    QuestionProfile,
    asked_term,
    defines,
    names_in,
    normalise_question,
    profile_question,
    sentence_period,
    split_asks,
    split_sentences,
)
from evidencegate.contracts import DocumentVersion, Page, Passage, SourcePage
from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.query import query_terms
from evidencegate.corpus.rows import (
    PROPORTION_TYPES,
    asked_whole,
    measure_row_fit,
    measure_terms,
    proportion_fit,
    proportion_words,
    statement_row_fit,
    unplaced,
)
from evidencegate.corpus.scope import (
    Scope,
    entity_names,
    label_citation,
    mentioned_names,
    resolve_scope,
)
from evidencegate.lexicon import (
    covered_share,
    defined_measure,
    related_forms,
    same_act,
    stem_form,
    synonyms_of,
)
from evidencegate.protocols import SourceLookup
from evidencegate.text import terms

__all__ = [
    "Described",
    "FeedbackRetriever",
    "Ranking",
    "as_named",
    "described",
    "described_fit",
    "fuse_rankings",
    "label_is",
    "labelled_by",
    "own_title",
    "phrase_fit",
    "provision_fit",
    "provision_key",
    "provision_subject",
    "provision_title",
    "rule_text",
    "section_sign",
    "subject_weights",
    "title_fit",
    "with_enhancements",
]


_RRF_K = 60
_ITEM_WEIGHT = 0.5
"""The weight of the ranking of one of several figures asked, beside the question's own."""
_ROW_TYPES = frozenset({"amount", "percentage", "comparison", "count", "other"})
"""Answer types a table row's figure answers (a question of no type too: "what were its
accounts payable")."""
_ASK_WEIGHT = 1.0
_STATEMENT_WORDS = "consolidated statements"
"""The words titling a filer's primary statements ("Consolidated Statements of Income",
"Consolidated Balance Sheets")."""
"""The weight of the ranking of one ask of a question asking several things, in the fusion."""


_UNIT_WORDS = frozenset(terms("percent percentage percentages pct vs versus yoy"))
"""Words saying a figure is asked as a percentage ("by what percent did net sales grow") or
against another year ("net income 2017 vs 2016", "op income yoy"): what kind of figure, not
what it measures; no row or statement names them."""


def _measured(measure: Sequence[str]) -> list[str]:
    """What a figure question measures (:func:`measure_terms`), without the words asking for
    it as a percentage that open or close it ("by what percent did net sales grow", "net
    revenue growth in percent"); one between two others is part of the measure's name
    ("operating income as a percentage of sales")."""
    kept = measure_terms(measure)
    start, end = 0, len(kept)
    while start < end and kept[start] in _UNIT_WORDS:
        start += 1
    while end > start and kept[end - 1] in _UNIT_WORDS:
        end -= 1
    return kept[start:end] or kept


_SIGNED_SHARE = re.compile(
    r"\b(?P<lead>as|what)\s+(?:an?\s+)?(?:%|pct\b|percent\b)\s*(?=of\b)", re.IGNORECASE
)
_SHARE_FIRST = re.compile(
    r"\bwhat\s+(?:%|pct\b|percent(?:age)?\b|share\b|proportion\b|portion\b|fraction\b)\s*"
    r"of\s+(?P<whole>[^,;:?()]+?)\s+(?:was|were|is|are)\s+(?P<part>[^,;:?()]+)",
    re.IGNORECASE,
)
_SOURCE = re.compile(r"^\s*\w+(?:ed|en)\b|\b(?:from|under|pursuant|through|by)\b", re.IGNORECASE)
"""A clause saying where a part comes from ("was earned under government contracts",
"was derived from"), not a second figure ("was its operating income"): such a question asks
a share its text states, not a quotient of two rows."""


def _percentage_of(match: re.Match[str]) -> str:
    """A sign asking a proportion written as the analysis reads it ("as % of": "as a
    percentage of", "what % of": "what percentage of")."""
    lead = match.group("lead")
    return f"{lead} a percentage " if lead.lower() == "as" else f"{lead} percentage "


def proportion_operands(
    query: str, profile: QuestionProfile, as_of: dt.date
) -> tuple[tuple[str, ...], ...]:
    """The terms of the two figures a question asks a proportion of, for retrieval: those the
    question analysis reads (:attr:`QuestionProfile.operands`), else those of the question
    written in the words the analysis reads ("gross profit as % of net sales", "what percent
    of net sales was operating income": "... as a percentage of ..."), else those of the
    lexicon's own definition of the ratio asked ("gross margin" is "gross profit as a
    percentage of net sales"). The rows of both figures answer it, though neither is named
    "margin"; empty when the question asks for no proportion."""
    if profile.operands:
        return profile.operands
    if (defined := defined_measure(query)) is not None:
        # A derived measure the lexicon defines ("current ratio", "working capital"): the
        # rows of its two operands answer it, though none is named by the measure.
        return tuple(tuple(terms(phrase)) for phrase in defined[0].operands)
    if profile.answer_type not in PROPORTION_TYPES:
        return profile.operands
    written = _SIGNED_SHARE.sub(_percentage_of, query)
    if (m := _SHARE_FIRST.search(written)) and not _SOURCE.search(m.group("part")):
        written = (
            written[: m.start()]
            + f"{m.group('part')} as a percentage of {m.group('whole')}"
            + written[m.end() :]
        )
    if written != query and (operands := profile_question(written, as_of=as_of).operands):
        return operands
    measured = _measured(profile.measure)
    if not measured:
        return ()
    for phrase in synonyms_of(measured):
        if operands := profile_question(phrase, as_of=as_of).operands:
            return operands
    return ()


def as_named(query: str, names: Iterable[str]) -> str:
    """``query`` with each of ``names`` it uses written as the catalog writes it ("amcor etr
    fy21": "Amcor etr fy21"), so that question analysis reads it as the name it is, not as
    the figure asked for ("amcor"). Only the case changes: the words searched are the same."""
    out = query
    for start, end, name in mentioned_names(query, [n for n in names if n != n.lower()]):
        written = query[start:end]
        if written != name and len(written) == len(name) and written.lower() == name.lower():
            out = out[:start] + name + out[end:]
    return out


def _without_spans(query: str, spans: Sequence[tuple[int, int]]) -> str:
    """``query`` without the text of ``spans`` (in order, not overlapping); ``query`` itself
    when no searchable word would be left."""
    if not spans:
        return query
    kept: list[str] = []
    at = 0
    for start, end in spans:
        kept.append(query[at:start])
        at = end
    kept.append(query[at:])
    rest = " ".join(" ".join(kept).split())
    return rest if query_terms(rest) else query


_RULE_SLOTS = 2
_INTERPRETATIONS = 3
"""The fewest ranked interpretations of one rule paragraph that bring the paragraph itself into
the evidence beside them (:meth:`FeedbackRetriever._with_interpreted`).
Two brought rules that answered questions next to the one asked (an unanswerable question on
replacing a stolen card answered by the liability rule): three are a crowd only the rule's own
words are missing from ("live contact" explained three ways, the 36th-day deadline not)."""
_RULE_REACH = 3
"""The evidence holds the first :data:`_RULE_SLOTS` paragraphs of a regulation's own text
(:func:`rule_text`) that rank among its first ``_RULE_REACH * limit`` passages, beside the
ranked ones (:func:`_with_rule_text`). On the helper-written CFPB questions this
took the evidence recall from 94/113 to 97/113, on golden CFPB 147/164 to 149/164."""


def rule_text(passage: Passage) -> bool:
    """Is ``passage`` a paragraph of a regulation's own text ("1003-2-g-1-v-B"), not of its
    official interpretation ("1003-2-g-Interp-1") nor any other kind of passage?"""
    label = passage.label or ""
    return "-Interp" not in label and label_citation(label) is not None


def interpreted_label(label: str | None) -> str | None:
    """The label of the paragraph of a regulation's own text an official interpretation
    interprets ("1024-39-a" of "1024-39-a-Interp-1-iv"); None for a passage that is no
    interpretation, or one of a whole section ("1002-13-Interp-1")."""
    if not label or "-Interp" not in label:
        return None
    rule = label[: label.index("-Interp")]
    return rule if label_citation(rule) is not None else None


def _interpretation_groups(kept: Sequence[Passage]) -> dict[tuple[str, str, str], list[int]]:
    """The places in ``kept`` of the ranked interpretations of each rule paragraph (by
    document, version and the rule's label) whose own text ``kept`` does not hold."""
    held = {(p.doc_id, p.version, p.label) for p in kept}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for at, passage in enumerate(kept):
        label = interpreted_label(passage.label)
        if label is None or passage.completes is not None:
            continue
        key = (passage.doc_id, passage.version, label)
        if key not in held:
            groups.setdefault(key, []).append(at)
    return groups


def _with_rule_text(kept: Sequence[Passage], reach: Sequence[Passage]) -> list[Passage]:
    """``kept``, when it holds official interpretations ("1099-41-f-Interp-1"), with paragraphs
    of a regulation's own text (:func:`rule_text`): the first of ``reach`` it does not hold,
    until it holds :data:`_RULE_SLOTS` of them. Interpretations restate a question's words at
    length (examples, cases), and several of them can crowd the paragraph of the rule they
    interpret out of the ranked evidence. Each stands after the ranked passages, none of which
    gives its place, marked as completing (:attr:`Passage.completes`) the first of them from
    its document (the first of all when none is): it was brought for the kind of text it is,
    not ranked among the passages found for the question, so it changes no share of those the
    critic counts (which of the question's words tell the evidence apart)."""
    if not any("-Interp" in (p.label or "") for p in kept):
        return list(kept)  # no commentary crowds the rule out
    have = {p.passage_id for p in kept}
    wanted = _RULE_SLOTS - sum(rule_text(p) for p in kept)
    rules = [p for p in reach if rule_text(p) and p.passage_id not in have][: max(wanted, 0)]
    ranked = [p for p in kept if p.completes is None]
    out = list(kept)
    for rule in rules:
        if not ranked:
            break
        partner = next(
            (p for p in ranked if (p.doc_id, p.version) == (rule.doc_id, rule.version)), ranked[0]
        )
        out.append(rule.model_copy(update={"completes": partner.passage_id}))
        have.add(rule.passage_id)
    return out


class Ranking(NamedTuple):
    """One ranking to fuse: passages best first, and its weight in the fusion."""

    passages: Sequence[Passage]
    weight: float = 1.0
    ask: bool = False
    """Whether this is the ranking of one ask of a question asking several things: its first
    passages are kept in the evidence (:data:`_PER_ASK`)."""


def _rrf_scores(
    rankings: Sequence[Sequence[Passage]],
    *,
    k: int = _RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[Passage, float]]:
    if weights is not None and len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    scores: dict[str, float] = {}
    first: dict[str, Passage] = {}
    for number, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[number]
        for rank, passage in enumerate(ranking, 1):
            pid = passage.passage_id
            scores[pid] = scores.get(pid, 0.0) + weight / (k + rank)
            first.setdefault(pid, passage)
    order = {pid: i for i, pid in enumerate(first)}
    ranked = sorted(scores, key=lambda pid: (-scores[pid], order[pid]))
    return [(first[pid], scores[pid]) for pid in ranked]


def fuse_rankings(
    rankings: Sequence[Sequence[Passage]],
    *,
    k: int = _RRF_K,
    weights: Sequence[float] | None = None,
) -> list[Passage]:
    """Reciprocal rank fusion: ``sum(weight / (k + rank))`` over the rankings (each weight 1
    unless ``weights`` gives one per ranking), ties by first seen."""
    return [passage for passage, _ in _rrf_scores(rankings, k=k, weights=weights)]


_SECTION_WORD = re.compile(r"\b[Ss]ections?\s+(?=\d)")


@lru_cache(maxsize=8192)  # pure; every passage is read for every name a question uses
def section_sign(text: str) -> str:
    """A section cited "Section 1024.33(a)" written "§ 1024.33(a)", the one form to match."""
    return _SECTION_WORD.sub("§ ", text)


@lru_cache(maxsize=4096)
def _stated_periods(text: str) -> tuple[Period, ...]:
    """The periods the sentences of a passage's text state (computed once per text: every
    search re-ranks the same passages)."""
    return tuple(
        period
        for sentence in split_sentences(text)
        if (period := sentence_period(sentence.text)) is not None
    )


_JOINT = re.compile(r"\band\b|\balso\b|\+|;|\?", re.IGNORECASE)


def _joined_asks(query: str) -> list[str]:
    """The asks of a question asking several things joined as such ("..., and how many years
    ...", "... + how long ..."); none when one of them only sets out the case of another
    ("when a lender gathers race data, what choice ...")."""
    asks = split_asks(query)
    at = 0
    for before, after in pairwise(asks):
        end = query.find(before, at) + len(before)
        start = query.find(after, end)
        if end < len(before) or start < 0 or not _JOINT.search(query[end:start]):
            return []
        at = start
    return asks


_PER_ASK = 2
_LABEL_POOL = 50
"""How many passages the words of a label the question names are ranked over to find the
passages it labels (its own words are few and common: "AC", "6", "9")."""
"""How many of the first passages of each ask's own ranking the evidence always holds."""


def _with_each_ask(
    fitted: Sequence[Passage], asks: Sequence[Sequence[Passage]], limit: int
) -> list[Passage]:
    """The first ``limit`` passages, with the first :data:`_PER_ASK` of each ask's ranking
    among them: each in place of the last passage that is not one of those."""
    kept = list(fitted[:limit])
    wanted: list[Passage] = []
    for ranking in asks:
        for passage in ranking[:_PER_ASK]:
            if all(passage.passage_id != w.passage_id for w in wanted):
                wanted.append(passage)
    wanted_ids = {p.passage_id for p in wanted}
    for passage in wanted:
        if any(passage.passage_id == k.passage_id for k in kept):
            continue
        spare = [i for i, k in enumerate(kept) if k.passage_id not in wanted_ids]
        if len(kept) < limit:
            kept.append(passage)
        elif spare:
            del kept[spare[-1]]
            kept.append(passage)
    return kept


_DANGLING = re.compile(
    r"(?:[;:,]|\band|\bor)\s*(?:\n\s*(?:[a-z]|\d{1,2}|\([a-z0-9]{1,4}\))\.?)?\s*$"
)
"""How a passage cut inside a list ends: after an item's "; and", before the next item's
text ("...; and\n  f.")."""


@lru_cache(maxsize=4096)  # pure; the same passages are kept for many searches
def _dangling(text: str) -> bool:
    """Does ``text`` end cut inside a list (:data:`_DANGLING`)?"""
    return _DANGLING.search(text) is not None


def _with_continuations(
    kept: Sequence[Passage],
    fitted: Sequence[Passage],
    limit: int,
    held: frozenset[str] = frozenset(),
) -> list[Passage]:
    """``kept``, each passage cut inside a list followed by the passage continuing it on its
    page ("e. Disseminate ...; and f." then "Update the risk assessment ..."), when the
    ranking holds it: each in place of the last passage that is neither of those nor one of
    ``held`` (the first passages of each ask, kept in the evidence)."""
    out = list(kept)
    have = {p.passage_id for p in out}
    added: set[str] = set()
    for passage in kept:
        if not _dangling(passage.text):
            continue
        follow = next(
            (
                p
                for p in fitted
                if (p.doc_id, p.version, p.page) == (passage.doc_id, passage.version, passage.page)
                and 0 <= p.char_start - passage.char_end <= 2
            ),
            None,
        )
        if follow is None or follow.passage_id in have:
            continue
        out.insert(out.index(passage) + 1, follow)
        have.add(follow.passage_id)
        added.add(follow.passage_id)
        # The passages completing a list (:meth:`FeedbackRetriever._with_list_parts`) stand
        # beside the ``limit`` ranked ones, and go with the passage they complete.
        if sum(p.completes is None for p in out) > limit:
            spare = [
                p
                for p in out
                if p.passage_id not in added
                and p.passage_id not in held
                and p.completes is None
                and not _dangling(p.text)
            ]
            if not spare:
                del out[out.index(follow)]
                have.discard(follow.passage_id)
                continue
            gone = spare[-1].passage_id
            out = [p for p in out if gone not in (p.passage_id, p.completes)]
    return out


def with_enhancements(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The names a question uses, a control read with the enhancement it names in words
    ("IA-5 enhancement 1", "enhancement 1 of IA-5" ask about "IA-5(1)")."""
    out: list[str] = []
    for name in names:
        ident = re.escape(name.strip())
        found = re.search(
            rf"(?<![\w-]){ident}\s+(?:control\s+)?enhancement\s+(?:no\.?\s*|number\s+|#)?(\d+)\b"
            rf"|\benhancement\s+(?:no\.?\s*|number\s+|#)?(\d+)\s+(?:of|to|under)\s+"
            rf"(?:control\s+)?{ident}(?![\w(])",
            question,
            re.IGNORECASE,
        )
        number = found and (found.group(1) or found.group(2))
        out.append(f"{name.strip()}({number})" if number and "(" not in name else name)
    return tuple(out)


class Described(NamedTuple):
    """How a question names a control by what it is about rather than by its identifier ("the
    log review control", "the backup testing enhancement"): the description's terms, and
    whether it asks about an enhancement of a control (or the control itself)."""

    terms: tuple[str, ...]
    enhancement: bool


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


_DESCRIBED_KIND = re.compile(r"^(control|enhancement)s?(?:['’]s)?$", re.IGNORECASE)
_DESCRIPTION_STOP = _word_set(
    "the a an this that these those its our your their my per under in for with by from about "
    "regarding on at what which who whom how when where why does do did is are was were be say "
    "says said meet meets implementing implement i we you they it if nist"
)
"""Words a description of a control does not run over (backwards from "control"): a
determiner, a preposition, a question or asking word."""
_DESCRIPTION_LEADS = _word_set("on for about covering regarding over")
"""Words after "control" that open its description ("the control on response to audit
processing failures"); "of" too after "enhancement" ("the enhancement of protection of
information at rest")."""
_COMPOUND_HEADS = _word_set(
    "policy policies procedure procedures family families baseline baselines catalog catalogue "
    "framework frameworks objective objectives owner owners set sets list lists number numbers "
    "id ids identifier identifiers selection implementation implementations assessment "
    "assessments mechanism mechanisms system systems measure measures activity activities "
    "element elements board panel text statement statements parameter parameters point points "
    "matrix matrices test tests testing plan plans requirement requirements"
)
"""Words that make "control" part of a compound ("the access control policy", "control
baselines"): the words before it then name no control."""
_DESCRIPTION_END = _DESCRIPTION_STOP - {"the", "a", "an", "in", "at", "on", "for", "from", "by"}
_VERSION_WORD = re.compile(r"^(?:rev(?:ision)?\.?\s*\d[\d.]*|rev\.?|revision|r\d)$", re.IGNORECASE)
_DESCRIPTION_WORD = re.compile(r"[A-Za-z][\w'’/-]*|[,:;?!()\[\]\"]")
_DESCRIPTION_MAX = 8


@lru_cache(maxsize=1024)
def described(question: str) -> Described | None:
    """The control a question describes in words, if it does ("per the log review control",
    "the at-rest crypto enhancement of SC-28", "the control on response to audit processing
    failures"); None when it names controls only by identifier ("control AC-11", "What does
    control SR-2, Supply Chain Risk Management Plan, require?" names SR-2)."""
    text = normalise_question(question)
    words = [m.group(0) for m in _DESCRIPTION_WORD.finditer(_without_ids(text))]
    found: list[str] = []
    enhancement = False
    for at, word in enumerate(words):
        kind = _DESCRIBED_KIND.match(word)
        if kind is None:
            continue
        following = words[at + 1].lower() if at + 1 < len(words) else "?"
        if following in _COMPOUND_HEADS:
            continue  # "the access control policy", "control baselines": no control's name
        enhancement = enhancement or kind.group(1).lower() == "enhancement"
        before: list[str] = []
        for prior in reversed(words[max(0, at - _DESCRIPTION_MAX) : at]):
            low = prior.lower()
            if low in _DESCRIPTION_STOP or (not prior[:1].isalpha() and prior != ","):
                break
            if _DESCRIBED_KIND.match(prior):
                if prior.lower().endswith(("'s", "’s")):
                    continue  # "the system backup control's reliability and integrity enhancement"
                before = []  # "control enhancement": one kind word, no description
                break
            before.insert(0, prior)
        after: list[str] = []
        leads = _DESCRIPTION_LEADS | ({"of"} if kind.group(1).lower() == "enhancement" else set())
        if at + 1 < len(words) and words[at + 1].lower() in leads:
            for later in words[at + 2 : at + 2 + _DESCRIPTION_MAX]:
                if not later[:1].isalpha() or later.lower() in _DESCRIPTION_END:
                    break
                after.append(later)
        found += [w for w in (*before, *after) if w != "," and not _VERSION_WORD.match(w)]
    headed = _HEADED.match(text)
    if headed and not found and not re.search(r"\d", headed.group(1)):
        # "Contingency plan: how often does it get reviewed?": the topic it heads the ask with.
        found = headed.group(1).split()
    # "at-rest crypto", "password-based": the words of a compound, as a title writes them.
    said = " ".join(found).replace("-", " ")
    asked = tuple(dict.fromkeys(t for t in terms(said) if t not in _KIND_TERMS))
    return Described(asked, enhancement) if asked else None


_HEADED = re.compile(
    r"^\s*([A-Za-z][\w'’/-]*(?:\s+[\w'’/-]+){0,3})\s*[:–—]\s*"
    r"(?=(?:how|what|when|who|whom|which|why|where|whether|is|are|does|do|must|can|may|should|"
    r"shall|will)\b)",
    re.IGNORECASE,
)
"""A question heading its ask with what it is about ("Contingency plan: how often ...")."""
_KIND_TERMS = frozenset(terms("control controls enhancement enhancements"))


def _without_ids(text: str) -> str:
    """``text`` with each identifier a question names a control by ("IA-5(1)", "SP 800-53")
    as a stop: the words around it describe nothing by themselves."""
    return _CONTROL_ID.sub(" ? ", text)


_CONTROL_ID = re.compile(r"\b[A-Z]{1,4}-\d+(?:\s*\(\d+\))*|\b(?:SP|FIPS)\s*\d[\d-]*\w*|\b\d[\w.-]*")


def described_fit(passage: Passage, description: Described) -> float:
    """How well the title of ``passage`` (its heading path, neither its label nor its
    document's title) matches the control a question describes, 0..1: the share of the
    description's terms the title states (synonyms count: "log review" fits "Audit Record
    Review"). An enhancement of a control ("AU-6(7)") fits a question asking for the control
    by half, and the control itself one asking for an enhancement by half."""
    lines = [line.strip() for line in passage.context.splitlines() if line.strip()]
    if lines and passage.label and lines[0] == passage.label.strip():
        lines = lines[1:]
    if lines and passage.title and lines[-1] == passage.title.strip():
        lines = lines[:-1]
    if not lines:
        return 0.0
    title = terms(" ".join(lines).replace("-", " "))
    fit = sum(_title_states(t, title) for t in description.terms) / len(description.terms)
    part = _SUB_PART.search(passage.label or "") is not None
    return fit if part == description.enhancement else fit / 2


def _title_states(term: str, title: Sequence[str]) -> bool:
    """Does a title (its terms) state a description's term: itself, a synonym, or a word it
    shortens ("crypto" for "cryptographic", "vuln" for "vulnerability")?"""
    if covered_share([term], title) == 1.0:
        return True
    return len(term) >= _SHORTENED and any(t.startswith(term) for t in title)


_SHORTENED = 4
"""The fewest letters of a shortened word ("vuln", "sanit"): "log" is not "logon"."""


_TITLE_FIT = 0.5
"""The least share of a control's description its title states to count as the control the
question describes."""


_PROVISION_KINDS = frozenset(
    terms(
        "control controls enhancement enhancements section sections subsection subsections "
        "paragraph paragraphs provision provisions subpart subparts clause clauses article "
        "articles appendix appendices part parts rule rules regulation regulations reg policy "
        "policies"
    )
)
"""What a question asking which provision says something calls the provision: no word of
what it is about ("Access Control", "Requests for information" are titles of their own)."""
_PROVISION_FRAME = (
    frozenset(
        terms(
            "cover covers covering deal deals dealing govern governs address addresses concern "
            "concerns apply applies cite say says talk talks handle handles be do does make makes "
            "get gets have has take takes go goes use uses set sets need needs want wants know "
            "one ones thing things"
        )
    )
    | REQUIRING_WORDS
)
"""The verbs a question asks with which provision says something ("which section covers
...", "the control that deals with ...", "the one that makes users ..."): they say how the
provision relates to the subject, or carry no act of their own."""


def provision_subject(profile: QuestionProfile) -> tuple[str, ...]:
    """What a question asking which provision says something asks it about: its terms without
    the words calling the provision ("which control enhancement", "which section of
    Regulation X": the first run of such words; "the rules of behavior" later is the subject),
    the verbs relating it to the subject ("covers", "requires"), the names it gives ("NIST",
    "Regulation X") and figures ("800-53"). Empty for a question asking no provision."""
    if not profile.asks_provision:
        return ()
    named = {t for n in profile.names for t in terms(n)}
    rest = [t for t in profile.terms if t not in named and not t[:1].isdigit()]
    start = next((i for i, t in enumerate(rest) if t in _PROVISION_KINDS), None)
    if start is not None:
        end = start
        while end < len(rest) and rest[end] in _PROVISION_KINDS:
            end += 1
        rest = rest[:start] + rest[end:]
    # "anti-tamper", "multi-factor": the words of a compound, as a title writes them
    parts = [part for t in rest for part in (terms(t.replace("-", " ")) if "-" in t else [t])]
    return tuple(dict.fromkeys(t for t in parts if t not in _PROVISION_FRAME))


def provision_key(passage: Passage) -> tuple[str, str, str]:
    """Which provision ``passage`` is of: its document, version and label (its heading path's
    first line when it has no label)."""
    first = next((line.strip() for line in passage.context.splitlines() if line.strip()), "")
    return (passage.doc_id, passage.version, (passage.label or first).strip())


def provision_title(passage: Passage) -> tuple[str, ...]:
    """The terms of the title of the provision ``passage`` is of: its heading path without its
    label, its document's title and the section number a regulation's heading opens with
    ("§ 1024.17 Escrow accounts. / General.": ``escrow``, ``account``, ``general``)."""
    lines = [line.strip() for line in passage.context.splitlines() if line.strip()]
    if lines and passage.label and lines[0] == passage.label.strip():
        lines = lines[1:]
    if lines and passage.title and lines[-1] == passage.title.strip():
        lines = lines[:-1]
    said = " ".join(lines).replace("-", " ")
    return tuple(t for t in terms(said) if not t[:1].isdigit())


def _subject_stated(term: str, text: Sequence[str]) -> float:
    """How far a text (its terms) states a term of the asked subject: 1 by the term itself, a
    synonym of the lexicon, a form of its word family ("sanitizing": "Media Sanitization") or
    a word it shortens ("crypto"); 0.5 by a word naming the same act in some sense (the mined
    act groups, broad: "segregation" and "separation", "warning" and "notification"); else 0."""
    if not text:
        return 0.0
    if covered_share([term], text) == 1.0:
        return 1.0
    forms = related_forms(term)
    if any(stem_form(t) in forms for t in text):
        return 1.0
    if len(term) >= _SHORTENED and any(t.startswith(term) for t in text):
        return 1.0
    if any(same_act(term, t) for t in dict.fromkeys(text)):
        return 0.5
    return 0.0


def subject_weights(subject: Sequence[str], passages: Sequence[Passage]) -> dict[str, float]:
    """The weight of each term of an asked subject (:func:`provision_subject`) among the
    retrieved ``passages``: the smoothed inverse frequency of the passages whose title or text
    state it (:func:`_subject_stated`, synonyms and word families too). The words few
    provisions state tell them apart ("transit" beside "information"); a word rare only as
    written ("segregation" where the catalog says "separation") is no rarer than its sense."""
    texts = [(*provision_title(p), *terms(p.text)) for p in passages]
    n = len(texts)
    return {
        t: math.log((n + 1) / (1 + sum(_subject_stated(t, text) > 0.0 for text in texts))) + 1.0
        for t in dict.fromkeys(subject)
    }


def phrase_fit(passage: Passage, subject: Sequence[str]) -> float:
    """The share of the asked subject's adjacent pairs of terms ("rules of behavior",
    "cryptographic protection") the title of the provision ``passage`` is of states as a pair
    (each word by itself or a synonym, :func:`_subject_stated`), 0..1; 0 for a subject of
    one term."""
    pairs = list(pairwise(subject))
    if not pairs:
        return 0.0
    title = provision_title(passage)
    said = set(pairwise(title))
    stated = sum(
        any(_subject_stated(a, (x,)) == 1.0 and _subject_stated(b, (y,)) == 1.0 for x, y in said)
        for a, b in pairs
    )
    return stated / len(pairs)


def title_fit(
    passage: Passage, subject: Sequence[str], weights: dict[str, float] | None = None
) -> float:
    """The share of the asked subject (its terms, weighted by ``weights``, 1 each without)
    the title of the provision ``passage`` is of states, 0..1 (:func:`provision_title`,
    :func:`_subject_stated`). An enhancement whose own title states none of it ("Rules of
    Behavior / Social Media and External Site/application Usage Restrictions") fits by half:
    its control's title is what states it (as :func:`described_fit` has it)."""
    fit = _share_stated(subject, provision_title(passage), weights)
    own = own_title(passage)
    return fit / 2 if own and _share_stated(subject, own, weights) == 0.0 else fit


def provision_fit(
    passage: Passage, subject: Sequence[str], weights: dict[str, float] | None = None
) -> tuple[float, float]:
    """How well the provision ``passage`` is of states the asked subject: the share its title
    states (:func:`title_fit`) and the share its title and statement together state, each
    0..1. A question asking which control is segregation of duties is answered by the one
    whose title says so ("Separation of Duties"), not by a neighbour whose statement shares a
    word with it."""
    title = provision_title(passage)
    return (
        title_fit(passage, subject, weights),
        _share_stated(subject, (*title, *terms(passage.text)), weights),
    )


def _share_stated(
    subject: Sequence[str], text: Sequence[str], weights: dict[str, float] | None
) -> float:
    if not subject:
        return 0.0
    total = sum((weights or {}).get(t, 1.0) for t in subject)
    stated = sum((weights or {}).get(t, 1.0) * _subject_stated(t, text) for t in subject)
    return stated / total


def own_title(passage: Passage) -> tuple[str, ...]:
    """The terms of the title a sub-part of a control ("RA-3(1)") has beside its control's
    ("Risk Assessment / Supply Chain Risk Assessment": ``supply``, ``chain``); empty for a
    passage that is no sub-part or has no title of its own."""
    if _SUB_PART.search(passage.label or "") is None:
        return ()
    lines = [line.strip() for line in passage.context.splitlines() if line.strip()]
    if lines and lines[0] == (passage.label or "").strip():
        lines = lines[1:]
    if lines and passage.title and lines[-1] == passage.title.strip():
        lines = lines[:-1]
    if len(lines) < 2:
        return ()
    parent = set(terms(" ".join(lines[:-1])))
    return tuple(dict.fromkeys(t for t in terms(lines[-1]) if t not in parent))


_SUB_PART = re.compile(r"^\s*[A-Z]{1,4}-\d+\s*\(\d+\)\s*$")
"""A control enhancement's label ("AU-6(7)")."""


def labelled_by(passage: Passage, identifier: str) -> bool:
    """Is ``identifier`` the passage's own label ("SA-12" for a passage of SA-12, not of
    SA-12(5)), spaces aside?"""
    return label_is(passage.label, identifier)


def label_is(label: str | None, identifier: str) -> bool:
    """Is ``identifier`` the label ``label``, spaces and case aside (:func:`labelled_by`)?"""
    return "".join((label or "").split()).lower() == "".join(identifier.split()).lower()


def _two_statements(
    operands: Sequence[Sequence[str]], named: str, ranked: Callable[[str], list[Passage]]
) -> list[Passage]:
    """The first statement page stating each of two figures, both of one filing (the first
    filing where each has one), when no statement page of that filing found states both."""
    found: list[dict[tuple[str, str], list[Passage]]] = []
    for operand in operands:
        asked = _measured(operand)
        if not asked:
            return []
        words = " ".join([named, _STATEMENT_WORDS, *asked, *synonyms_of(asked)])
        by_filing: dict[tuple[str, str], list[Passage]] = {}
        for p in ranked(words):
            if statement_row_fit(p.text, asked, p.context):
                by_filing.setdefault((p.doc_id, p.version), []).append(p)
        found.append(by_filing)
    if len(found) != 2:
        return []
    first, second = found
    for filing, pages in first.items():
        others = second.get(filing)
        if not others:
            continue
        if {p.page for p in pages} & {p.page for p in others}:
            return []  # one statement states both figures
        return [pages[0], others[0]]
    return []


_LIST_PARTS = 2
"""How many passages completing a list (a lead-in, an item) the evidence takes in at most."""
_LABEL_SEARCH = 10
"""How many passages a search by a label reads for the passage of that label (its own label
ranks first or among its few sub-paragraphs, whose labels extend it)."""
_LEAD_IN = re.compile(r"(?:[:\u2014]|\bunless|\bthat|\bif)\s*$")
"""How the lead-in of a list ends: "... the creditor shall notify the applicant within:"."""


def lead_in(text: str) -> bool:
    """Does ``text`` end as the lead-in of a list (:data:`_LEAD_IN`)?"""
    return _LEAD_IN.search(text) is not None


def list_parent(label: str | None) -> str | None:
    """The label of the paragraph a sub-paragraph's label numbers it under ("1024-41-f-1"
    for "1024-41-f-1-i"), None for a label of no deeper than a paragraph of a section
    ("1024-41-f"), of no such numbering ("AC-2(3)"), or none."""
    if not label:
        return None
    head, sep, _ = label.rpartition("-")
    return head if sep and head.count("-") >= 2 else None


PARENT_REACH = 40
"""How many pages before a list item its parent paragraph is looked for (its earlier siblings
and their items stand between them)."""


def page_passage(passage: Passage, number: int, page: Page) -> Passage:
    """Page ``number`` of ``passage``'s document version as a passage of its whole text, not
    retrieved (no passage id): a lead-in's item or an item's parent paragraph."""
    return Passage(
        passage_id="",
        doc_id=passage.doc_id,
        version=passage.version,
        page=number,
        char_start=0,
        char_end=len(page.text),
        text=page.text,
        authority=passage.authority,
        label=page.label,
        context=page.heading,
    )


def parent_paragraph(
    passage: Passage, evidence: Sequence[Passage], pages: SourceLookup | None
) -> Passage | None:
    """The paragraph a list item's label numbers it under (:func:`list_parent`), of the same
    version: a passage of ``evidence``, else (with ``pages``) the page so labelled before the
    item's, walking back over the item's earlier siblings (labels under the parent's) at most
    :data:`PARENT_REACH` pages; None when there is none."""
    parent_label = list_parent((passage.label or "").strip())
    if parent_label is None:
        return None
    found = next(
        (
            p
            for p in evidence
            if p.doc_id == passage.doc_id
            and p.version == passage.version
            and (p.label or "").strip() == parent_label
        ),
        None,
    )
    if found is not None or pages is None:
        return found
    for number in range(passage.page - 1, max(passage.page - 1 - PARENT_REACH, 0), -1):
        source = pages.lookup(passage.doc_id, passage.version, number)
        page_label = (source.page.label or "").strip() if source is not None else ""
        if page_label == parent_label and source is not None:
            return page_passage(passage, number, source.page)
        if not page_label.startswith(parent_label + "-"):
            return None  # out of the parent's paragraphs: it is not before the item
    return None


class FeedbackRetriever:
    """Question-scoped BM25 with one round of pseudo-relevance feedback, over a :class:`Store`.

    Also the verifier's source lookup and the question analysis' catalog (delegated to the
    store). ``feedback_docs`` passages of the first ranking are read for ``feedback_terms``
    expansion terms; ``feedback_terms=0`` turns the feedback off (plain BM25).
    """

    def __init__(
        self,
        store: StoreBackend,
        *,
        feedback_docs: int = 5,
        feedback_terms: int = 6,
        pool_factor: int = 5,
    ) -> None:
        self.store = store
        self.feedback_docs = feedback_docs
        self.feedback_terms = feedback_terms
        self.pool_factor = pool_factor

    def scope(self, question: str, *, as_of: dt.date, tenant: str | None = None) -> Scope:
        """The documents ``question`` is about (see :func:`resolve_scope`)."""
        profile = profile_question(question, as_of=as_of)
        return resolve_scope(profile, self.store.catalog(as_of, tenant))

    def search(
        self,
        query: str,
        *,
        as_of: dt.date,
        limit: int = 8,
        authorities: Sequence[str] | None = None,
        doc_ids: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> list[Passage]:
        """The ``limit`` passages that best answer ``query``, with the parts of the lists they
        hold half of (:meth:`_with_list_parts`: at most :data:`_LIST_PARTS` more)."""
        pool = max(limit * self.pool_factor, self.feedback_docs)
        names, _ = self._scope_names(as_of=as_of, doc_ids=doc_ids, tenant=tenant)
        query = as_named(query, names)
        rankings = self._rankings(
            query,
            as_of=as_of,
            pool=pool,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
        )
        fitted = self._fit(query, as_of, rankings)
        asks = [r.passages for r in rankings if r.ask]
        kept = _with_each_ask(fitted, asks, limit)
        named = self._named_records(
            query, as_of=as_of, authorities=authorities, doc_ids=doc_ids, tenant=tenant
        )
        # A named record none of whose passages the evidence holds is brought in; one of its
        # passages already there is where the question's words found it.
        held = {(p.doc_id, p.version, p.page) for p in kept}
        absent = [p for p in named if (p.doc_id, p.version, p.page) not in held]
        if absent:
            kept = _with_each_ask(kept, [*asks, absent], limit)
        asked = frozenset(terms(normalise_question(query))) - REQUIRING_WORDS
        kept = self._with_list_parts(
            kept, fitted, asked, as_of=as_of, authorities=authorities, tenant=tenant
        )
        ask_ids = frozenset(p.passage_id for ranking in asks for p in ranking[:_PER_ASK])
        kept = _with_continuations(kept, fitted, limit, ask_ids)
        kept = self._with_interpreted(kept, fitted, as_of, authorities, tenant)
        return _with_rule_text(kept, fitted[: _RULE_REACH * limit])

    def _with_interpreted(
        self,
        kept: Sequence[Passage],
        fitted: Sequence[Passage],
        as_of: dt.date,
        authorities: Sequence[str] | None,
        tenant: str | None,
    ) -> list[Passage]:
        """``kept`` with the paragraph of a regulation's own text that several of its ranked
        interpretations interpret (:func:`interpreted_label`), when it does not hold it:
        interpretations restate the question's words at length ("live contact ... includes
        telephoning or conducting an in-person meeting"), and the rule they explain, which
        states what is required and by when ("no later than the 36th day"), falls behind them.
        Found by its label (:meth:`_labelled`), it stands after the ranked passages, none of
        which gives its place (one of them may be the answer: "it is the third-party payee that
        is in violation"), marked as completing the first interpretation of it."""
        out = list(kept)
        for (_, _, label), places in _interpretation_groups(kept).items():
            if len(places) < _INTERPRETATIONS:
                continue
            rule = self._labelled(label, kept[places[0]], fitted, as_of, authorities, tenant)
            if rule is not None and rule_text(rule):
                out.append(rule.model_copy(update={"completes": kept[places[0]].passage_id}))
        return out

    def _scope_names(
        self, *, as_of: dt.date, doc_ids: Sequence[str] | None, tenant: str | None
    ) -> tuple[frozenset[str], frozenset[str]]:
        """The names (:func:`entity_names`) of the entities of the documents in scope, and
        those of the filers among them (entities of documents with a period, "FY2022"); none
        when the search is not scoped. A regulation is no filer: "exempt from RESPA" asks
        about the Act's own coverage."""
        if not doc_ids:
            return frozenset(), frozenset()
        wanted = set(doc_ids)
        every: set[str] = set()
        filers: set[str] = set()
        for document in self.store.catalog(as_of, tenant):
            if document.doc_id in wanted:
                names = entity_names(document)
                every.update(names)
                if document.period:
                    filers.update(names)
        return frozenset(every), frozenset(filers)

    def _named_records(
        self,
        query: str,
        *,
        as_of: dt.date,
        authorities: Sequence[str] | None,
        doc_ids: Sequence[str] | None,
        tenant: str | None,
    ) -> list[Passage]:
        """The opening passages of the records the question names by their label ("AC-6(9) -
        what do we need to log?"): the record asked about belongs in the evidence, however few
        of the question's other words it states ("Log the execution of privileged
        functions."). Found by the label's own words and kept only when labelled by it, in the
        order of their page; none when the question names no label of the corpus."""
        profile = profile_question(query, as_of=as_of)
        identifiers = [
            n for n in with_enhancements(query, profile.names) if any(ch.isdigit() for ch in n)
        ]
        if not identifiers:
            return []
        found = self.store.search(
            " ".join(identifiers),
            as_of=as_of,
            limit=_LABEL_POOL,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
            phrases=False,
        )
        labelled = [p for p in found if any(labelled_by(p, i) for i in identifiers)]
        return sorted(labelled, key=lambda p: (p.doc_id, p.version, p.page, p.char_start))

    def _with_list_parts(
        self,
        kept: Sequence[Passage],
        fitted: Sequence[Passage],
        asked: frozenset[str],
        *,
        as_of: dt.date,
        authorities: Sequence[str] | None,
        tenant: str | None,
    ) -> list[Passage]:
        """``kept`` with the other part of each list it holds half of (:func:`list_parent`):
        the lead-in of a list item kept ("(i) more than 120 days delinquent;" says nothing
        without "A servicer shall not make the first notice or filing ... unless:"), when the
        lead-in shares a word with the question, and the best ranked item of a lead-in kept,
        when the ranking holds one. At most :data:`_LIST_PARTS` are added, beside the
        passages kept (none of those gives its place: each was ranked for the question, the
        parts only for their list), each marked as completing its partner
        (:attr:`Passage.completes`)."""
        out = list(kept)
        have = {p.passage_id for p in out}
        added = 0
        for passage in kept:
            if added >= _LIST_PARTS:
                break
            parent = list_parent(passage.label)
            lead = (
                None
                if parent is None
                else self._labelled(parent, passage, fitted, as_of, authorities, tenant)
            )
            if (
                lead is not None
                and lead.passage_id not in have
                and lead_in(lead.text)
                and not asked.isdisjoint(terms(lead.text))
            ):
                out.insert(
                    out.index(passage), lead.model_copy(update={"completes": passage.passage_id})
                )
                have.add(lead.passage_id)
                added += 1
                continue
            if not passage.label or not lead_in(passage.text):
                continue
            item = next(
                (
                    p
                    for p in fitted
                    if (p.doc_id, p.version) == (passage.doc_id, passage.version)
                    and list_parent(p.label) == passage.label
                ),
                None,
            )
            if item is not None and item.passage_id not in have:
                out.insert(
                    out.index(passage) + 1,
                    item.model_copy(update={"completes": passage.passage_id}),
                )
                have.add(item.passage_id)
                added += 1
        return out

    def _labelled(
        self,
        label: str,
        near: Passage,
        fitted: Sequence[Passage],
        as_of: dt.date,
        authorities: Sequence[str] | None,
        tenant: str | None,
    ) -> Passage | None:
        """The passage labelled ``label`` in the version of ``near``: from the ranking when it
        holds it, else searched for by its label in that document."""

        def same(p: Passage) -> bool:
            return p.label == label and (p.doc_id, p.version) == (near.doc_id, near.version)

        found = next((p for p in fitted if same(p)), None)
        if found is not None:
            return found
        # A label is a phrase ("1002-5-a-4"): the store's phrase bonus (on by default) ranks
        # the paragraph of that very label above the many that share its numbers.
        hits = self.store.search(
            label,
            as_of=as_of,
            limit=_LABEL_SEARCH,
            authorities=authorities,
            doc_ids=[near.doc_id],
            tenant=tenant,
        )
        return next((p for p in hits if same(p)), None)

    def _rankings(
        self,
        query: str,
        *,
        as_of: dt.date,
        pool: int,
        authorities: Sequence[str] | None,
        doc_ids: Sequence[str] | None,
        tenant: str | None,
    ) -> list[Ranking]:
        """The rankings to fuse, each with its weight: BM25 of the question with its synonyms,
        and BM25 with the feedback terms added (when there are any)."""

        def ranked(text: str) -> list[Passage]:
            # BM25 alone: these queries join the question, synonyms and feedback terms, so
            # their adjacent words are no phrase (the store's phrase bonus is for quotes).
            return self.store.search(
                text,
                as_of=as_of,
                limit=pool,
                authorities=authorities,
                doc_ids=doc_ids,
                tenant=tenant,
                phrases=False,
            )

        # The question in the documents' words too: the other members of its synonym groups.
        # A word asking for a proportion ("what share of its revenues") is not expanded: its
        # synonyms are of another sense ("share" as a stock).
        asked = terms(normalise_question(query))
        profile = profile_question(query, as_of=as_of)
        framing = proportion_words(query) if profile.answer_type in PROPORTION_TYPES else set()
        other_sense = set(synonyms_of(sorted(framing))) if framing else set()
        # Nor are the words asking what a rule requires ("process isolation requirement?"):
        # "rules" and "controls" would find the rules of behavior, not process isolation.
        # Nor is the filer's name by which it chose its filings ("PEP" is PepsiCo here, no
        # politically exposed person), and that name is no word to rank the filings' passages
        # by either: every passage in scope is the filer's, and the name's few literal
        # mentions are an exhibit's plan name ("PEP Pension Equalization Plan") or a cover
        # page, not the figure asked.
        _, filers = self._scope_names(as_of=as_of, doc_ids=doc_ids, tenant=tenant)
        filer = [(start, end) for start, end, _ in mentioned_names(query, filers)]
        filer_terms = {t for start, end in filer for t in terms(query[start:end])}
        topic = [t for t in asked if t not in REQUIRING_WORDS and t not in filer_terms]
        synonyms = [s for s in synonyms_of(topic) if s not in other_sense]
        unnamed = _without_spans(query, filer)
        first = ranked(" ".join([unnamed, *synonyms]))
        expansion = self._expansion(query, first[: self.feedback_docs])
        rankings = [Ranking(first)]
        if expansion:
            rankings.append(Ranking(ranked(" ".join([unnamed, *synonyms, *expansion]))))
        # Several figures asked ("cost of products sold and year-end inventories"): each one
        # is also asked on its own, in its own words and its synonyms, with the names the
        # question uses; the statement stating one of them need not share words with the rest.
        # So is each figure of a proportion asked ("gross profit as a percentage of net
        # revenue"): the statement stating both need not be where the question's words are.
        operands = proportion_operands(query, profile, as_of)
        if profile.answer_type in _ROW_TYPES and len(profile.items or operands) >= 2:
            named = " ".join(profile.names)
            for item in profile.items or operands:
                asked = _measured(item)
                if asked:
                    item_words = " ".join([named, *asked, *synonyms_of(asked)])
                    rankings.append(Ranking(ranked(item_words), _ITEM_WEIGHT))
        if profile.answer_type in _ROW_TYPES and doc_ids and (asked := _measured(profile.measure)):
            # A figure of a filing the question names ("JNJ 2022 sales to customers") stands on
            # its primary statements, whose rows share few words with the question while many
            # pages of discussion repeat them: the statements are also asked for by the measure,
            # and those with a row of the whole measure ranked (none in a corpus of rules).
            named = " ".join(profile.names)
            ranking = [
                p
                for p in ranked(" ".join([named, _STATEMENT_WORDS, *asked, *synonyms_of(asked)]))
                if statement_row_fit(p.text, asked, p.context)
            ]
            if ranking:
                rankings.append(Ranking(ranking, _ITEM_WEIGHT))
        if profile.answer_type in _ROW_TYPES and doc_ids and len(operands) == 2:
            # A proportion's figures may stand on two statements ("capital expenditures as a
            # percentage of net sales": the cash flow statement and the income statement):
            # then the first statement page of one filing with a row of each is always in the
            # evidence, so that both operands of the computation are there to read. Not when a
            # statement of that filing states both (the income statement's operating income
            # and net sales): that page is read as one table.
            rankings.extend(
                Ranking([p], _ITEM_WEIGHT, ask=True)
                for p in _two_statements(operands, " ".join(profile.names), ranked)
            )
        asks = _joined_asks(query)
        if len(asks) > 1:
            # A question asking several things ("how long to send the final response, and how
            # many years to keep the file") is also asked one ask at a time: the words of one
            # ask must not crowd the passages answering another out of the evidence.
            for ask in asks:
                words = synonyms_of(terms(normalise_question(ask)))
                rankings.append(Ranking(ranked(" ".join([ask, *words])), _ASK_WEIGHT, ask=True))
        term = asked_term(query)
        if term is not None:
            # "What does 'business day' mean", "who counts as elderly": the paragraph defining
            # the term answers, however many others use it with more of the question's words.
            # Its first sentence says what it defines ("Elderly means age 62 or older."), so
            # only such paragraphs rank, and the evidence holds the first of them.
            defining = [p for p in ranked(f"{term} means") if defines(p.text, term)]
            if defining:
                rankings.append(Ranking(defining, _ASK_WEIGHT, ask=True))
        return rankings

    def _fit(self, query: str, as_of: dt.date, rankings: Sequence[Ranking]) -> list[Passage]:
        """Fuse the rankings, then prefer passages that can answer what the question asks.

        A passage stating a figure of the kind asked for (an amount, a date...) and one whose
        stated period covers the question's target gain one first place's worth of fused score;
        one whose every stated period misses the target loses it. Relevance still orders
        passages of equal fit.
        """
        profile = profile_question(query, as_of=as_of)
        weights = [r.weight for r in rankings]
        scored = _rrf_scores([r.passages for r in rankings], k=_RRF_K, weights=weights)
        fused = [p for p, _ in scored]
        score = {p.passage_id: s for p, s in scored}
        step = 1.0 / (_RRF_K + 1)
        names = with_enhancements(query, profile.names)
        identifiers = [section_sign(n) for n in names if any(ch.isdigit() for ch in n)]
        # A figure asked for may stand in a table row naming it ("Cash and cash equivalents
        # $ 4,954 $ 5,596"): prose sharing more of the question's words outranks that page.
        # Each of several figures asked ("operating profit, D&A and capital spending") too.
        measures = (
            [
                kept
                for m in (
                    profile.measure,
                    *profile.items,
                    *proportion_operands(query, profile, as_of),
                )
                if (kept := _measured(m))
            ]
            if profile.answer_type in _ROW_TYPES
            else []
        )
        # "What share of its revenues came from ...": a passage stating a percentage of that
        # whole ("40% of our revenues were earned ...") may answer it. One stating shares of
        # other wholes only is not pushed down: a page states many ("4% of operating assets"
        # beside the answer).
        whole = asked_whole(query) if profile.answer_type in PROPORTION_TYPES else ()
        description = described(query)

        def fit(passage: Passage) -> float:
            bonus = 0.0
            if profile.states_figure(passage.text):
                bonus += step
            periods = _stated_periods(passage.text)
            if periods:
                bonus += step if any(p.overlaps(profile.target) for p in periods) else -step
            if identifiers:
                place = passage.context + "\n" + (label_citation(passage.label) or "")
                if any(names_in(i, section_sign(place)) for i in identifiers):
                    bonus += step  # the section or control the question names
                    if any(labelled_by(passage, i) for i in identifiers):
                        # The control itself, not only one of its enhancements or sub-parts
                        # ("SA-12" is named by "SA-12(5)" too, which is another requirement).
                        bonus += step
                elif any(names_in(i, section_sign(passage.text)) for i in identifiers):
                    bonus += step / 2  # a rule on it ("information obtained under § 1002.5(a)(4)")
            if measures:
                # A table row stating the measure asked for, the more so the less it says
                # besides ("Goodwill" over "Goodwill impairment charges").
                # Not the words of the document's title: the filer a terse question names in
                # lower case ("amcor fy22 net sales") is no word of the row.
                row = max(
                    measure_row_fit(passage.text, unplaced(m, passage.context)) for m in measures
                )
                bonus += step * (1 + row) if row else 0.0
                # The filer's own statement stating the whole measure ("Net sales" on the
                # Consolidated Statements of Income) over a segment's or a discussion's table
                # repeating the label.
                if row and any(
                    statement_row_fit(passage.text, m, passage.context) for m in measures
                ):
                    bonus += step
            if whole and proportion_fit(passage.text, whole) > 0:
                bonus += step
            if description is not None:
                # The control the question describes by its title ("the log review control"):
                # up to two first places' worth, as a control named by its identifier gets.
                title = described_fit(passage, description)
                if title >= _TITLE_FIT:
                    bonus += 2 * step * title
            return score[passage.passage_id] + bonus

        order = {p.passage_id: i for i, p in enumerate(fused)}
        return sorted(fused, key=lambda p: (-fit(p), order[p.passage_id]))

    def _expansion(self, query: str, feedback: Sequence[Passage]) -> list[str]:
        """Terms frequent in the feedback passages and rare in the corpus, not in the query."""
        if self.feedback_terms <= 0 or len(feedback) < 2:
            return []
        asked = set(query_terms(query))
        counts: dict[str, float] = {}
        spread: dict[str, int] = {}
        for rank, passage in enumerate(feedback):
            weight = 1.0 / (1 + rank)
            for term, mass in _feedback_terms(passage.text + " " + passage.context):
                if term not in asked:
                    counts[term] = counts.get(term, 0.0) + weight * mass
                    spread[term] = spread.get(term, 0) + 1
        candidates = [t for t in counts if spread[t] >= 2]
        if not candidates:
            return []
        frequency = self.store.document_frequencies(candidates)
        total = max(self.store.stats()["passages"], 1)
        scored = {
            t: counts[t] * math.log((total + 1) / (1 + frequency.get(t, 0))) for t in candidates
        }
        return sorted(scored, key=lambda t: (-scored[t], t))[: self.feedback_terms]

    # ------------------------------------------------------------------ delegation

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        return self.store.lookup(doc_id, version, page, tenant=tenant)

    def catalog(self, as_of: dt.date, tenant: str | None = None) -> list[DocumentVersion]:
        return self.store.catalog(as_of, tenant)


@lru_cache(maxsize=4096)  # pure; the same passages are feedback for many questions
def _feedback_terms(text: str) -> tuple[tuple[str, float], ...]:
    """The terms of a feedback passage that can expand a query (words of three letters or
    more), in order, each with its mass (log1p of its count)."""
    words = Counter(t for t in query_terms(text) if t.isalpha() and len(t) > 2)
    return tuple((term, math.log1p(n)) for term, n in words.items())
