"""The offline critic: deterministic rules, a separate component from the generator.

Phase 1 (sufficiency) sees the question and the evidence only, never a draft. It derives the
facts an answer must establish — the topic, each year or number the question names, and a stated
figure when the question asks for one — and names those the evidence does not cover, with one
follow-up query.

Phase 2 (audit) judges each claim from the verifier's result, then looks for edits: a figure,
date, name, negation or content word of the claim with no counterpart in its cited quotes
(:func:`~evidencegate.verify.edits.find_edits`) makes it ``contradicted`` (a figure, date or
negation: the quotes say otherwise) or ``not_found`` (a name, or a word swapped into or inserted
in quoted text: the quotes do not say it), unless the quotes state a synonym of it from the
project's lexicon (:mod:`evidencegate.lexicon`). Then a lexical support score, a check that a
claim's stated period covers the question's target date, and how many required facts the
supported claims cover. A claim copied from its quote (the extractive generator's) has no
edit; the check matters for claims a language model wrote.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

from evidencegate.analysis import (
    ASK_WORDS,
    EXAMPLE_SENTENCE,
    PERIOD_WORDS,
    PURPOSE_NOUN,
    REQUIRING_WORDS,
    WHOLE_ASKED,
    QuestionProfile,
    ask_clause,
    asked_measure,
    asked_term,
    asked_value,
    defines,
    has_figure,
    money_given,
    names_in,
    profile_question,
    sentence_period,
    split_sentences,
    states_measure,
    states_value,
    weighted_overlap,
    wordnet_word,
)
from evidencegate.contracts import (
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    DocumentVersion,
    FailureReason,
    Operation,
    Passage,
    Verdict,
)
from evidencegate.corpus.abbreviations import abbreviations_of
from evidencegate.corpus.retrieval import (
    parent_paragraph,
    provision_fit,
    provision_key,
    provision_subject,
    provision_title,
    subject_weights,
)
from evidencegate.corpus.rows import PROPORTION_TYPES, measure_terms, proportion_words
from evidencegate.corpus.scope import (
    asks_enumeration,
    claim_statement,
    entity_names,
    label_citation,
    mentioned_names,
    names_a_series,
)
from evidencegate.corpus.segments import asks_a_part, segments_of
from evidencegate.generation.derive import (
    HEADCOUNT_ASKED,
    INSIDE_US,
    OUTSIDE_US,
    PEOPLE_NOUN,
    WHOLE_COMPANY,
    asks_change,
    derivation_request,
)
from evidencegate.generation.tables import TableCell, table_cells, table_title
from evidencegate.lexicon import (
    act_senses,
    covered_share,
    defined_measure,
    focus_terms,
    lexicon,
    match_units,
    matched_units,
    measures_defined,
    related_forms,
    shares,
    stem_form,
    synonyms_of,
    text_keys,
    unit_matched,
)
from evidencegate.protocols import SourceLookup
from evidencegate.text import extract_dates, extract_quantities, stem, terms
from evidencegate.verify.agreement import negation_cues
from evidencegate.verify.derived import derivation_evidence
from evidencegate.verify.edits import EvidenceText, find_edits

__all__ = ["RulesCritic"]

_CONTRADICTING = {
    FailureReason.NUMBER_MISMATCH,
    FailureReason.DATE_MISMATCH,
    FailureReason.NEGATION_MISMATCH,
}
#: Edit kinds that contradict the quotes; a name or a swapped-in word is only not found there.
_CONTRADICTING_EDITS = frozenset({"number", "date", "negation"})
#: Edit kinds a synonym in the quotes answers ("lender" where the quote says "creditor").
_SYNONYMOUS_EDITS = frozenset({"name", "word"})

TOPIC = "topic: "
YEAR = "year: "
NUMBER = "number: "
FIGURE = "figure: "
NAME = "name: "
FOCUS = "focus: "
ASKED = "question: "
_MEASURED = frozenset({"amount", "percentage", "count", "comparison", "date", "duration"})
CASE = "case: "
RIVAL = "distinct: "
"""A missing fact of the audit only: words of the question that a passage the claims do not
quote states, besides every word of it that the quoted passages state (see _rival_words)."""
PART = "part: "


class RulesCritic:
    """Two-phase rules critic. ``min_support``: lexical support a verified claim needs."""

    component_id = "critic:rules@10"

    def __init__(
        self,
        *,
        min_support: float = 0.6,
        topic_coverage: float = 0.5,
        pages: SourceLookup | None = None,
    ) -> None:
        self.min_support = min_support
        self.topic_coverage = topic_coverage
        self.pages = pages
        self._identities: dict[tuple[str, str], str] = {}
        self._openings: dict[tuple[str, str, str], str] = {}
        self._documents: dict[tuple[str, str], DocumentVersion | None] = {}

    def _identity(self, passage: Passage) -> str:
        """Whose document a passage is part of: its title and place (and the section its
        paragraph label cites, § 1024.33(a)), and with ``pages`` the document's entity, aliases,
        the names derived from them (ECOA, 12 CFR part 1002) and title page ("Harbourline
        Savings Bank, policy ..."). A question names the company, regulation or section; the
        sentence answering it rarely does."""
        key = (passage.doc_id, passage.version)
        if key not in self._identities:
            parts: list[str] = []
            source = self.pages.lookup(passage.doc_id, passage.version, 1) if self.pages else None
            if source is not None:
                document = source.document
                parts += [document.title, document.entity or "", *document.aliases]
                parts += [document.doc_id, *entity_names(document)]
                parts.append(source.page.text[:_TITLE_PAGE_CHARS])
            self._identities[key] = "\n".join(p for p in parts if p)
        own = [passage.title, passage.context]
        if (cited := label_citation(passage.label)) is not None:
            own += [cited, "section " + cited.removeprefix("§ ")]
        return "\n".join(p for p in [*own, self._identities[key]] if p)

    def _without_provision(self, claim: Claim) -> Claim:
        """``claim`` without the name of the provision it opens with ("AC-11 Device Lock: ..."),
        when that is what the store records of its first citation's page, as the verifier reads
        it (:func:`claim_statement`): where the quote sits, not what it says."""
        text = claim_statement(claim, self.pages)
        return claim if text == claim.text else claim.model_copy(update={"text": text})

    def _document(self, passage: Passage) -> DocumentVersion | None:
        """The catalog's record of the document version ``passage`` is part of (entity,
        aliases, period, when in force), looked up once per version; None without ``pages``."""
        key = (passage.doc_id, passage.version)
        if key not in self._documents:
            source = (
                self.pages.lookup(passage.doc_id, passage.version, passage.page)
                if self.pages
                else None
            )
            self._documents[key] = source.document if source is not None else None
        return self._documents[key]

    def _page_text(self, passage: Passage) -> str:
        """The text of the page ``passage`` is cut from ("" without ``pages``)."""
        if self.pages is None:
            return ""
        source = self.pages.lookup(passage.doc_id, passage.version, passage.page)
        return source.page.text if source is not None else ""

    def _filer_names(self, passage: Passage) -> tuple[str, ...]:
        """The names (:func:`entity_names`: entity, aliases, ticker) of the filer whose report
        ``passage`` is part of (a document with a period, "FY2022"), from the catalog's record
        of it, never from its pages' words; none for rules, or without ``pages``."""
        document = self._document(passage)
        return tuple(entity_names(document)) if document is not None and document.period else ()

    def _filer_words(self, question: str, passages: Sequence[Passage]) -> frozenset[str]:
        """The question's terms that name the filer of a report ``passages`` quote ("3m" of
        "3M DPS 2019?", "jnj", "amcor" however cased): the filing quoted establishes whose
        figures they are, as its catalog record says, and a page of it seldom names its own
        filer ("Cash dividends declared per share"). Not any name the page states: a filing's
        page names its segments, rivals and customers too."""
        names = [n for p in passages for n in self._filer_names(p)]
        spans = mentioned_names(question, names) if names else []
        if not spans:
            return frozenset()
        rest, at = [], 0
        for start, end, _ in spans:
            rest.append(question[at:start])
            at = end
        rest.append(question[at:])
        lost = Counter(terms(question)) - Counter(terms(" ".join(rest)))
        return frozenset(lost)

    def _version_of(self, passage: Passage) -> tuple[dt.date, dt.date | None, str | None] | None:
        """When the version a passage is of was in force (from, and the exclusive end or None)
        and the period it reports on (a filing's "FY2022"; None for rules), or None without
        ``pages``."""
        document = self._document(passage)
        if document is None:
            return None
        return document.effective_from, document.effective_to, document.period

    def _segments(self, passages: Sequence[Passage]) -> tuple[str, ...]:
        """The segments of the filings ``passages`` quote (a report's own list, read from its
        pages: :mod:`evidencegate.corpus.segments`); none without ``pages`` or for rules."""
        if self.pages is None:
            return ()
        found: dict[str, None] = {}
        for passage in passages:
            version = self._version_of(passage)
            if version is None or version[2] is None:
                continue  # a rule's document reports on no period: it has no segments
            found.update(dict.fromkeys(segments_of(self.pages, passage.doc_id, passage.version)))
        return tuple(found)

    def _long_forms(self, name: str, passages: Sequence[Passage]) -> list[str]:
        """What else ``name`` is written as in the documents ``passages`` are part of: the
        long form a document defines for it ("Frito-Lay North America (FLNA)"; "Global
        Services (BGS)" of a filer whose name gives the "B"), and the name without the
        filer's name opening it ("Boeing Global Services" of Boeing's report: "Global
        Services"); of a long form, the abbreviation ("BGS" for "Global Services"). None
        without ``pages``."""
        if self.pages is None:
            return []
        forms: dict[str, None] = {}
        for key in dict.fromkeys((p.doc_id, p.version) for p in passages):
            passage = next(p for p in passages if (p.doc_id, p.version) == key)
            filer = self._filer_names(passage)
            own_forms = [name]
            for own in filer:
                rest = name[len(own) :]
                if name.lower().startswith(own.lower()) and re.match(r"['’]?s?\s+\w", rest):
                    own_forms.append(re.sub(r"^['’]?s?\s+", "", rest))
            forms.update(dict.fromkeys(own_forms[1:]))
            for abbreviation in abbreviations_of(self.pages, *key):
                if abbreviation.prefix and not any(
                    f[:1].upper() == abbreviation.prefix for f in filer
                ):
                    continue  # "BCA" is Boeing's "Commercial Airplanes", no other filer's
                if name in (abbreviation.short, abbreviation.short + "s"):
                    forms[abbreviation.long] = None
                elif any(f.lower() == abbreviation.long.lower() for f in own_forms):
                    forms[abbreviation.short] = None  # "Global Services" written as "BGS"
        return list(forms)

    def _named_long(self, name: str, texts: Sequence[str], passages: Sequence[Passage]) -> bool:
        """Is ``name`` stated in ``texts`` by a long form (:meth:`_long_forms`) of it?"""
        return any(_named(form, texts) for form in self._long_forms(name, passages))

    def _of_rules(self, passage: Passage) -> bool:
        """Is ``passage`` of a document of rules (a regulation, a catalog, a policy), not a
        report on a period? False without ``pages``."""
        version = self._version_of(passage)
        return version is not None and version[2] is None

    def _year_in_force(
        self, fact: str, profile: QuestionProfile, passages: Sequence[Passage], as_of: dt.date
    ) -> bool:
        """Is ``fact`` a year the question names only to say which rules or filing it asks
        about ("as it stood in January 2018", "In 2016, what did Reg B require", "the FY2022
        10-K": its ``as_of_years``), and do ``passages`` quote those: a version of the rules
        in force in that year (up to the as-of date), or a filing on that year's period? Such
        a year is established by the version quoted, which need not restate it; a version not
        (or not yet) in force then is not the one asked about. Without ``pages`` the year is
        taken as given, as the question's as-of date selects the version."""
        if not fact.startswith(YEAR) or fact.removeprefix(YEAR) not in profile.as_of_years:
            return False
        if self.pages is None:
            return True
        year = int(fact.removeprefix(YEAR))
        for passage in passages:
            version = self._version_of(passage)
            if version is None:
                continue
            start, end, period = version
            if period is not None:
                if str(year) in re.findall(r"\d{4}", period):
                    return True
                continue
            last = as_of if end is None else min(as_of, end - dt.timedelta(days=1))
            if start <= dt.date(year, 12, 31) and last >= dt.date(year, 1, 1):
                return True
        return False

    def _parent_opening(self, passage: Passage, evidence: Sequence[Passage]) -> str:
        """The first sentence of the paragraph a list item stands under
        (:func:`parent_paragraph`), when it is no lead-in ending in a colon (the generator
        drafts those with the item): "A consumer lease is exempt ... if the total contractual
        obligation exceeds the threshold amount ..." over "(iii) From January 1, 2012 ..., the
        threshold amount is $51,800." says what the item's figure is a figure of; "" when
        there is none."""
        key = (passage.doc_id, passage.version, (passage.label or "").strip())
        if key not in self._openings:
            parent = parent_paragraph(passage, evidence, self.pages)
            sentences = split_sentences(parent.text if parent is not None else "")
            opening = sentences[0].text.strip() if sentences else ""
            ends_lead = bool(sentences) and sentences[-1].text.rstrip().endswith(":")
            self._openings[key] = "" if ends_lead or opening.endswith(":") else opening
        return self._openings[key]

    # ------------------------------------------------------------------ phase 1

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        profile = profile_question(question, as_of=as_of)
        texts = [_placed(p) for p in evidence]
        required = _required_facts(profile, _ranked_texts(evidence))
        identities = [self._identity(p) for p in evidence]
        missing = [
            f
            for f in required
            if not self._fact_covered(f, profile, texts)
            and not self._year_in_force(f, profile, evidence, as_of)
            and not (
                f.startswith(NAME)
                and (
                    _named(f.removeprefix(NAME), identities)
                    or _cited(f.removeprefix(NAME), evidence)
                    or self._named_long(f.removeprefix(NAME), texts, evidence)
                )
            )
        ]
        primary = [p for p in evidence if p.authority == "primary"]
        missing_sources = [] if primary else [f"a primary source on {' '.join(profile.terms)}"]
        if not evidence:
            reason = "retrieval returned no passage in force on the as-of date"
        elif missing:
            reason = "the evidence does not cover: " + "; ".join(missing)
        else:
            reason = "the evidence covers every required fact"
        gap = bool(missing or missing_sources)
        return CriticSufficiency(
            requires_more_context=gap,
            reason=reason,
            required_facts=required,
            missing_facts=missing,
            missing_primary_sources=missing_sources,
            follow_up_instruction=(
                "retrieve primary sources covering: " + "; ".join(missing) if missing else None
            ),
            suggested_query=_follow_up_query(profile, missing) if gap else None,
        )

    # ------------------------------------------------------------------ phase 2

    def audit(
        self,
        question: str,
        claims: Sequence[Claim],
        verifications: Sequence[ClaimVerification],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        required_facts: Sequence[str],
    ) -> CriticAudit:
        profile = profile_question(question, as_of=as_of)
        by_claim = {v.claim_id: v for v in verifications}
        places = {p.passage_id: _place(p) for p in evidence}
        texts = {p.passage_id: p.text for p in evidence}
        by_id = {p.passage_id: p for p in evidence}
        audits: list[ClaimAudit] = []
        supported_texts: list[str] = []
        # The same without the titles of the tables whose cells the claims state: a title
        # stating a focus word leaves the row's own words to state the rest of it
        # (:func:`_focus_stated`), and a title's words are no closer answer to the rest of the
        # question than the row itself (:func:`_focus_unrivalled`).
        untitled_texts: list[str] = []
        supported_ids: set[str] = set()
        for claim in claims:
            audit = self._audit_claim(claim, by_claim.get(claim.claim_id), profile)
            audits.append(audit)
            if audit.verdict is Verdict.SUPPORTED:
                supported_ids |= {c.evidence_id for c in claim.citations if c.evidence_id}
                # A claim is read in its place: the heading path and title of what it quotes.
                where = {places.get(c.evidence_id or "", "") for c in claim.citations}
                # and the headings the passage's text sets above the quote ("## 4. Deadlines").
                where |= {
                    _headings_above(texts[c.evidence_id], c.quote)
                    for c in claim.citations
                    if c.evidence_id in texts
                }
                # and a table cell under its table's title and the heading its row stands
                # under ("CONSOLIDATED STATEMENTS OF CASH FLOWS" over "Net cash provided by
                # operating activities"): the row label alone is not all the cell states.
                # The cell is read on its page: a passage cut from it may start below the
                # table's title ("... is as" / "follows:" over the header).
                cells = [
                    cell
                    for c in claim.citations
                    if c.evidence_id in by_id
                    and (
                        cell := _cell_of(self._page_text(by_id[c.evidence_id]), c.quote, claim.text)
                        or _cell_of(texts[c.evidence_id], c.quote, claim.text)
                    )
                    is not None
                ]
                place = "\n".join(sorted(w for w in where if w))
                titled = "\n".join(sorted(w for w in where | {t for _, t in cells} if w))
                # A derived claim states its computation too ("change" for "an increase of 243").
                computed = derivation_evidence(claim) + _measure_computed(claim, profile)
                # An item read under its paragraph's opening sentence, as a lead-in.
                openings = [
                    o
                    for c in claim.citations
                    if c.evidence_id in by_id
                    and (o := self._parent_opening(by_id[c.evidence_id], evidence))
                    and o[:40] not in claim.text
                ]
                said = claim.text
                if openings:
                    said = openings[0].rstrip(" .;") + ": " + claim.text
                # A cell states its value of what its row names ("Employees 155,800": 155,800
                # employees), whatever the claim's wording puts between them, when the row
                # names nothing the question does not ("Total division" is no count of them).
                said += "".join(
                    f"\n{_cell_value(cell)} {cell.name}."
                    for cell, _ in cells
                    if set(terms(cell.name)) <= set(profile.terms)
                )
                # A cell of a table of blocks states its value of its block's measure for its
                # row ("PBNA" under "Operating Profit/(Loss)": PBNA's operating profit), as a
                # cell of a plain table states its row's: the block's name is no mere title.
                # Only a block the question speaks of ("op profit"): the value read after the
                # claim's own would otherwise state a count of the row ("86,392 ... division").
                said += "".join(
                    f"\n{cell.block} of {cell.name or cell.label}, {cell.year}: "
                    f"{_cell_value(cell)}."
                    for cell, _ in cells
                    if cell.block and set(terms(cell.block)) & set(profile.terms)
                )
                supported_texts.append(said + computed + _PLACE + titled)
                untitled_texts.append(said + computed + _PLACE + place)
        required = list(required_facts) or _required_facts(profile, _ranked_texts(evidence))
        # Self-critique sees no evidence: the claims are then judged against the question alone.
        pool = [t for p in evidence for t in terms(_placed(p))] if evidence else None
        if pool is not None:
            # What the engine computed from the quotes ("ratio 1.54") is evidence beside them.
            pool += [t for claim in claims for t in terms(derivation_evidence(claim))]
            # and the derived measure asked that it computed ("working capital").
            pool += [t for claim in claims for t in terms(_measure_computed(claim, profile))]
        cited_ids = {c.evidence_id for claim in claims for c in claim.citations}
        cited = [p for p in evidence if p.passage_id in cited_ids]
        identities = [self._identity(p) for p in cited]
        supported_cited = [p for p in cited if p.passage_id in supported_ids]
        # The filer a quoted report is of is named by the report itself (its catalog record).
        filer = self._filer_words(question, supported_cited) if supported_texts else frozenset()
        answered = _parts_answered(
            [f for f in required if f.startswith(PART)], supported_texts, pool, self.topic_coverage
        )
        covered = [
            f
            for f in required
            if (
                f in answered
                if f.startswith(PART)
                else any(
                    self._fact_covered(
                        f,
                        profile,
                        said,
                        pool=pool,
                        cited=[p.text for p in cited],
                        given=filer,
                    )
                    for said in (
                        (supported_texts, untitled_texts)
                        if f.startswith(FOCUS) and untitled_texts != supported_texts
                        # A name is the row's or its page's own, not a title's over the
                        # table: "Commercial Airplanes" over "Total segment revenues" names
                        # the segment, and the row is no answer to "the total and BCA's".
                        else (untitled_texts,)
                        if f.startswith(NAME)
                        else (supported_texts,)
                    )
                )
            )
            or (
                f.startswith(NAME)
                and bool(supported_texts)
                and (
                    _named(f.removeprefix(NAME), identities)
                    or _cited(f.removeprefix(NAME), cited)
                    # or by the long form its document defines for it ("Global Services" for
                    # "BGS"), as the claims' own words or table row state it
                    or self._named_long(f.removeprefix(NAME), untitled_texts, supported_cited)
                    # or by the rest of the paragraph of rules a supported claim quotes ("CPI"
                    # in the comment whose sentence on rounding the increase answers); not by
                    # a filing's page, which names every segment of its table
                    or _named(
                        f.removeprefix(NAME), [p.text for p in supported_cited if self._of_rules(p)]
                    )
                )
            )
            or (bool(supported_texts) and self._year_in_force(f, profile, supported_cited, as_of))
        ]
        if evidence:
            # A focus the claims do not state, but no other sentence of the evidence states
            # either in answering as much of the question: the asker's own words ("household
            # lease", "deadline"), weighed by how fully the claims answer the rest of it.
            covered += [
                f
                for f in required
                if f.startswith(FOCUS)
                and f not in covered
                and _focus_unrivalled(
                    profile, f.removeprefix(FOCUS).split(), untitled_texts, evidence
                )
            ]
        missing = [f for f in required if f not in covered]
        coverage = len(covered) / len(required) if required else float(bool(supported_texts))
        if rival := _rival_words(
            profile, supported_texts, [p for p in evidence if p.passage_id not in cited_ids]
        ):
            missing.append(RIVAL + " ".join(rival))
            coverage = len(covered) / (len(required) + 1)  # the claims answer another passage
        # Whether the claims quote a report on a period (a filing), whose figures are of a
        # year and a part of the filer they name, not of any rule's reach.
        filed = any(
            (version := self._version_of(p)) is not None and version[2] is not None
            for p in supported_cited
        )
        # The claims' own words, not read in their place: what the document says of itself.
        supported_claims = [
            claim.text
            for claim, audit in zip(claims, audits, strict=True)
            if audit.verdict is Verdict.SUPPORTED
        ]
        # What the claims answer must be what is asked: the kind of figure (how often, not
        # how long), a time counted from the event the question counts it from, and the act
        # the question asks about ("be waived", "be notified").
        asked = [
            fact
            for fact in (
                _kind_missing(profile, supported_texts),
                _time_missing(profile, supported_texts),
                _unit_missing(profile, supported_texts),
                _case_unasked(profile, supported_texts),
                _anchor_rival(profile, supported_texts, evidence),
                _predicate_rival(profile, supported_texts, evidence),
                _content_missing(profile, supported_texts),
                _actor_missing(profile, supported_texts),
                _head_missing(profile, supported_texts),
                _actor_unnamed(profile, supported_texts),
                _period_act_missing(profile, supported_texts),
                _firm_unnamed(profile, supported_texts, filed),
                _rate_missing(profile, supported_texts, filed),
                _amount_missing(profile, supported_texts),
                _year_unstated(profile, supported_texts, filed),
                _region_unasked(profile, supported_texts, filed),
                _segment_unasked(profile, supported_texts, self._segments(supported_cited)),
                _alternative_unstated(profile, supported_texts),
                _frequency_unstated(profile, supported_texts),
                _time_unstated(profile, supported_texts),
                _company_unnamed(profile, supported_texts),
                _submeasure_unasked(profile, supported_texts, filed),
                _act_unstated(profile, supported_texts, filed),
                _timed_act_rival(profile, supported_claims, filed),
                _unit_noun_unstated(profile, supported_texts),
                _measure_unstated(profile, supported_texts),
                _change_unstated(profile, supported_texts, claims),
                _headcount_unstated(profile, supported_texts),
                _document_clause_unasked(profile, supported_claims),
                _direction_unasked(profile, supported_texts),
            )
            if fact is not None
        ]
        if (
            supported_texts
            and (partial := _list_incomplete(profile, claims, supported_ids, evidence)) is not None
        ):
            asked.append(partial)
        if supported_texts and (other := _provision_outtitled(profile, supported_ids, evidence)):
            asked.append(other)
        if supported_texts and (named := _title_named_rival(profile, supported_ids, evidence)):
            asked.append(named)
        if asked:
            missing += asked
            coverage = len(covered) / (len(required) + len(asked) + bool(rival))
        all_supported = bool(audits) and all(a.verdict is Verdict.SUPPORTED for a in audits)
        return CriticAudit(
            claims=audits,
            coverage=round(coverage, 6),
            covered_facts=covered,
            missing_facts=missing,
            contract_met=all_supported and not missing,
            suggested_query=_follow_up_query(profile, missing) if missing else None,
        )

    def _audit_claim(
        self, claim: Claim, verification: ClaimVerification | None, profile: QuestionProfile
    ) -> ClaimAudit:
        evidence_ids = [c.evidence_id for c in claim.citations if c.evidence_id]
        if verification is None:
            # Self-critique (an ablation arm): no verifier result and no evidence, only the
            # draft. Judge the claim against its own quotes; nothing here is verified.
            own = "\n".join(c.quote for c in claim.citations)
            edited = _edit_audit(claim, own, evidence_ids, prefix="self-critique (unverified): ")
            if edited is not None:
                return edited
            support = _lexical_support(claim.text, own)
            verdict = Verdict.SUPPORTED if support >= self.min_support else Verdict.NOT_FOUND
            return ClaimAudit(
                claim_id=claim.claim_id,
                verdict=verdict,
                evidence_ids=evidence_ids,
                reason=f"self-critique against its own quotes (unverified): {support:.2f}",
                support_score=support,
            )
        if not verification.ok:
            reasons = verification.reasons
            verdict = (
                Verdict.CONTRADICTED
                if any(r in _CONTRADICTING for r in reasons)
                else Verdict.NOT_FOUND
            )
            return ClaimAudit(
                claim_id=claim.claim_id,
                verdict=verdict,
                evidence_ids=evidence_ids,
                reason="verifier: " + ", ".join(sorted({r.value for r in reasons})),
                support_score=0.0,
            )
        quotes = "\n".join(check.citation.quote for check in verification.citations)
        # A derived claim's figure is the engine's recomputation: evidence beside the quotes.
        quotes += derivation_evidence(claim)
        claim = self._without_provision(claim)
        edited = _edit_audit(claim, quotes, evidence_ids, prefix="quotes verified, but ")
        if edited is not None:
            return edited
        support = _lexical_support(claim.text, quotes)
        period = sentence_period(claim.text)
        if period is not None and not period.overlaps(profile.target):
            return ClaimAudit(
                claim_id=claim.claim_id,
                verdict=Verdict.PARTIAL,
                evidence_ids=evidence_ids,
                reason=f"claim concerns {period}, the question targets {profile.target}",
                support_score=support,
            )
        if support >= self.min_support:
            verdict, reason = Verdict.SUPPORTED, f"quotes verified; lexical support {support:.2f}"
        elif support >= self.min_support / 2:
            verdict, reason = Verdict.PARTIAL, f"lexical support {support:.2f} below threshold"
        else:
            verdict, reason = Verdict.NOT_FOUND, f"lexical support {support:.2f}: quotes off-topic"
        return ClaimAudit(
            claim_id=claim.claim_id,
            verdict=verdict,
            evidence_ids=evidence_ids,
            reason=reason,
            support_score=support,
        )

    # ------------------------------------------------------------------ facts

    def _fact_covered(
        self,
        fact: str,
        profile: QuestionProfile,
        texts: Sequence[str],
        *,
        pool: list[str] | None = None,
        cited: Sequence[str] = (),
        given: frozenset[str] = frozenset(),
    ) -> bool:
        """Does any of ``texts`` establish ``fact``? Unknown fact forms use term overlap.
        ``given``: terms of the question the texts' sources state (the filer of a quoted
        report, :meth:`_filer_words`), counted as stated for the topic and focus."""
        if not texts:
            return False
        if fact.startswith(YEAR):
            year = int(fact.removeprefix(YEAR))
            return any(_speaks_of_year(s, year) for t in texts for s in _sentences(t))
        if fact.startswith(ASKED):
            return False  # no evidence answers a question that does not say what it asks
        if fact.startswith(NUMBER):
            value = fact.removeprefix(NUMBER)
            if any(value in _numbers(t) for t in (*texts, *cited)):
                return True  # stated by a claim, or by the passage a claim quotes (the case)
            if (
                value.isdigit()
                and int(value) < 130
                and asked_value(profile.question, profile) == "age"
            ):
                # The asker's own age ("my father is 64: from what age may a lender favour
                # an older applicant?") is the case; a rule's age answers what age is asked.
                return (pool is None or value not in pool) and any(
                    states_value("age", s)
                    for t in texts
                    for s in _sentences(t.partition(_PLACE)[0])
                )
            # An amount the question sets out ("a $120 gift: may I accept it?") and no source
            # states is weighed against the amount a rule states, which need not be the same.
            return (
                money_given(profile.question, value)
                and (pool is None or value not in pool)
                and any(
                    has_figure(s, "quantity", "amount")
                    for t in texts
                    for s in _sentences(t.partition(_PLACE)[0])
                )
            )
        if fact.startswith(NAME):
            return _named(fact.removeprefix(NAME), texts)
        if fact.startswith(CASE):
            return any(negation_cues(s) for t in texts for s in _sentences(t.partition(_PLACE)[0]))
        if fact.startswith(FOCUS):
            # Stated by the sentence itself, or by the heading it stands under ("Account
            # Management" for a sentence of that control); a word the document only uses
            # elsewhere does not count. A head count's scope ("global", "outside") is stated
            # by the number of people employed in that scope.
            counted = _headcount_answered(profile, texts)
            wanted = [w for w in fact.removeprefix(FOCUS).split() if w not in counted]
            if not wanted:
                return True
            # The filer's name is stated by the report quoted (its catalog record).
            parts = [
                (_body_terms(body) + sorted(given), set(terms(place)))
                for body, _, place in map(_split, texts)
            ]
            said = [w for body, _ in parts for w in body]
            where = set.intersection(*(place for _, place in parts))
            if (
                any(_focus_stated(wanted, body, place) for body, place in parts)
                if pool is None
                else _focus_stated(wanted, said, where)
            ):
                return True
            # A noun asking for a time ("refund deadline?", "within what time") is stated by
            # the time the claims state ("shall refund ... within 3 business days"), and a word
            # asking for the filer's whole figure ("PepsiCo's total net revenue") by its row
            # ("Net revenue"), when the claims state every other word of the focus.
            asking = (
                _TIME_ASKING
                if profile.answer_type in _TIME_TYPES
                and any(_states_time(_split(t)[0]) for t in texts)
                else WHOLE_ASKED
                if profile.answer_type in _FIGURE_TYPES
                else frozenset()
            ) | (
                # and the kind word asking which organization ("which business") by the
                # organization the claims describe ("a New Zealand based manufacturer")
                _ORGANIZATION_KINDS
                if _COMPANY_ASKED.search(profile.question)
                and _organization_described("\n".join(_split(t)[0] for t in texts))
                else frozenset()
            )
            return any(w in asking for w in wanted) and all(
                _focus_stated([w], said, where) for w in wanted if w not in asking
            )
        if fact.startswith(PART):
            # Evidence for each ask of a several-part question (claims: _parts_answered).
            wanted = fact.removeprefix(PART).split()
            return any(covered_share(wanted, terms(t)) >= self.topic_coverage for t in texts)
        if fact.startswith(FIGURE):
            if _headcount_answered(profile, texts):
                # "How big was 3M's workforce": "employed approximately 95,000 people".
                return True
            # A sentence stating the asked kind of figure, for the asked period, about the
            # question's topic as the evidence can state it (the sentence read in its place).
            topic = _topic_terms(profile, texts)
            # (only the purpose: an item "according to ..." is no figure to give either, but
            # reading it so accepted a neighbouring rule's time on pool 1, m5-e2)
            frame = frozenset(_purpose_words(profile.question))
            # What is measured, not the words saying where it stands ("inventory balance at
            # year-end", "on the balance sheet") or asking for it ("how frequently").
            measure = (
                [
                    t
                    for t in measure_terms(profile.measure, asking=False)
                    if t not in ASK_WORDS
                    and t not in _proportion_words(profile)
                    # nor asked for ("Please provide J&J's gross profit", "Customer asks:")
                    and t not in _REQUEST_WORDS
                    and t not in _asker(profile.question)
                    # nor why it is asked ("For an inventory turnover calculation, ...")
                    and t not in frame
                    # nor the date asked ("HMDA LAR - when is it due each year?": the date
                    # of the yearly act, which the sentence states as a date, not as "due")
                    and not (t in _DATE_ASK_TERMS and _date_asked(profile))
                    # nor what is left of a name in its possessive ("J&J's": "j")
                    and t not in _possessive_words(profile)
                ]
                if profile.answer_type in _MEASURED
                else []
            )
            # A question naming its subject (3M, Regulation M) pins the document, and then the
            # figure must be about (half of) what is measured; a question naming nothing is
            # mostly the asker's own words, of which a third stated is what can be asked ("cctv
            # retention period" is not answered by a sentence on records' retention alone).
            stated = list(_figures_stated(profile, texts))
            # An item naming only the whole ("R&D expense 2022, total?", "..., company-wide")
            # says whose figure is asked, not another figure to give.
            # Nor an item that is mostly the asker's purpose ("For an inventory turnover
            # calculation, give me the cost of sales and the closing inventories").
            items = [
                item
                for item in profile.items
                if not set(item) <= WHOLE_ASKED and 2 * len(set(item) & frame) < len(item)
            ]
            if len(items) >= 2:
                # "X's operating profit, D&A and capital spending": a figure for each of them.
                return all(
                    any(covered_share(item, said) >= 0.5 for said, _ in stated) for item in items
                )
            if profile.parts:
                # "What risk category applies, how often is KYC renewed, and how long are the
                # records kept?": a figure answering one of its asks (each ask is a part fact).
                return any(
                    covered_share(part, said) >= 0.5 for said, _ in stated for part in profile.parts
                )
            for said, own in stated:
                if measure and covered_share(measure, said) < (0.5 if profile.names else 0.34):
                    continue  # a figure about something else ("cash" for "capex")
                if measure and profile.names and not covered_share(measure, own):
                    continue  # its heading names the measure, the sentence another figure
                if not topic or covered_share(topic, said) >= 0.5:
                    return True
            return False
        # The plain share of the question's terms stated: a paraphrase uses words the documents
        # do not ("how big" for "threshold amount"), so a term's rarity is no sign that the
        # question is unanswerable (names, years and figures are). Claims are asked only for
        # the terms the evidence ``pool`` states: no claim can state a word no source uses.
        # A verb's irregular past is read as the verb ("kept" as "keep", and so "retain").
        wanted = _based(terms(fact.removeprefix(TOPIC)))
        # "how many people worked for Amcor globally": "approximately 44,000 employees"
        employed = sorted(_headcount_answered(profile, texts))
        if pool is not None:
            pool = _based(pool + sorted(given) + employed)
        have = _based([t for text in texts for t in terms(text)] + sorted(given) + employed)
        if self._topic_stated(wanted, pool, have):
            return True
        # Nor need the claims state the words by which the question asks ("how much did 3M
        # spend on capex": the row states "Purchases of property, plant and equipment").
        asking = _asking_words(profile) | (
            _TIME_ASKING if profile.answer_type in _TIME_TYPES else frozenset()
        )
        unasked = [t for t in wanted if t not in asking]
        return bool(unasked) and unasked != wanted and self._topic_stated(unasked, pool, have)

    def _topic_stated(self, wanted: list[str], pool: list[str] | None, have: list[str]) -> bool:
        """Do the claims (their terms ``have``) state the topic's ``wanted`` terms, as far as
        the evidence ``pool`` states them?"""
        if pool is not None:
            if covered_share(_related(wanted, pool), pool) < self.topic_coverage:
                return False  # the evidence itself does not speak of the question's topic
            keys = text_keys(pool)
            if any(_term_of_art_absent(u, keys, pool) for u in match_units(wanted)):
                # A term of art the question names ("early intervention": a phrase of the
                # lexicon) that no passage states, nor most of its words: the evidence is of a
                # rule without that provision (not yet in force on the date asked).
                return False
            wanted = [t for t in wanted if unit_matched(_unit(t), keys, pool)] or wanted
        return covered_share(_derived(wanted, have), have) >= self.topic_coverage


def _term_of_art_absent(unit: frozenset[str], keys: set[str], pool: Sequence[str]) -> bool:
    """Is ``unit`` a phrase of the lexicon ("early intervention notice") that the evidence
    ``pool`` states in no form, and most of whose words it never uses ("early", "intervention")?
    A paraphrase's phrase ("home loan", "control enhancement") shares most of its words with
    its evidence ("loan", "control")."""
    phrases = [u.split() for u in unit if " " in u and not u.startswith("~")]
    if not phrases or unit_matched(unit, keys, pool):
        return False
    have = set(pool)
    return all(sum(w not in have for w in words) * 2 > len(words) for words in phrases)


_TITLE_PAGE_CHARS = 2000
"""How much of a document's first page names whose document it is (a cover or title page)."""


def _named(name: str, texts: Sequence[str]) -> bool:
    """Is ``name`` stated in one of ``texts``: as written, or as the words its acronym
    abbreviates ("ECOA" for "Equal Credit Opportunity Act", "G&E" for "Gifts and
    Entertainment"); a name with a suffix ("HMDA-reporting") by its acronym."""
    forms = [name]
    if m := re.fullmatch(r"([A-Z][A-Z&]{1,7})-[a-z]+", name):
        forms.append(m.group(1))
    for form in forms:
        if any(names_in(form, t) for t in texts):
            return True
        acronym = _acronym_pattern(form)
        if acronym is not None and any(acronym.search(t) for t in texts):
            return True
    return _spelled_out(name, texts) or _of_place(name, texts)


_PLACE_ADJECTIVE = re.compile(r"([A-Z][a-z]{3,}?)(?:ian|an|ese|ish)")
"""An adjective of a place, made from its name ("Canadian", "European", "Chinese")."""


def _of_place(name: str, texts: Sequence[str]) -> bool:
    """Is ``name`` an adjective of a place ("Canadian", "European") whose place the texts name
    ("Canada", "Europe"): a capitalised word that its stem opens, at most two letters longer?"""
    match = _PLACE_ADJECTIVE.fullmatch(name)
    if match is None:
        return False
    base = match.group(1)
    place = re.compile(rf"(?<![\w-]){re.escape(base)}[a-z]{{0,2}}(?![\w-])")
    return any(place.search(t) for t in texts)


def _spelled_out(name: str, texts: Sequence[str]) -> bool:
    """Is an all-capitals ``name`` stated by a synonym the lexicon gives it ("COGS": "cost of
    products sold")? Identifiers (AC-2, § 1026.19) are only ever named as themselves."""
    if not re.fullmatch(r"[A-Z][A-Z&]{1,7}s?", name):
        return False
    asked = terms(name)
    units = match_units(asked) if asked else []
    if not any(len(u) > 1 for u in units):
        return False  # no group knows it
    return any(len(matched_units(asked, terms(t))) == len(units) for t in texts)


_CAPITALISING = re.compile(r"(?:^|[.?!:;\u2013\u2014-])\W*$")
"""What may stand before a word capitalised by grammar: nothing (the question's start), the end
of a sentence, a label's colon ("Penalty for ...", "Ticket: Small bank, ..."), a dash."""


def _capitalised_at(word: str, question: str) -> list[int]:
    """Where ``word`` stands in ``question`` capitalised by grammar (:data:`_CAPITALISING`)."""
    return [
        m.start()
        for m in re.finditer(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", question)
        if _CAPITALISING.search(question[: m.start()])
    ]


def _ordinary_word(
    name: str, question: str, texts: Sequence[str], others: Sequence[str] = ()
) -> bool:
    """Is ``name`` one word capitalised by grammar only: its first letter the only capital, it
    opens the question, a sentence or a label's text, and the lexicon knows it from there
    ("Deadline for ...?", "Time limit ...?") or the evidence writes it in lower case ("Extended
    investigation period?" of a rule saying "extended"); or WordNet knows it as an ordinary
    word ("Consequence of ...", "Penalty for ...") and ``others``, names of the question that
    are no such word, remain to say whose rules or figures are asked. The name of a company or a
    product is not written in lower case ("Boeing", "Initech"), nor an ordinary word ("Nestle")
    when it alone names the subject: it must still be established."""
    if not re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", name):
        return False
    at = _capitalised_at(name, question)
    if not at:
        return False
    stem = next(iter(terms(name)), "")
    if len(stem) < _MIN_ORDINARY:
        return False
    for start in at:
        asked = terms(question[start:])
        if asked[:1] == [stem] and any(s == 0 for s, _, _ in lexicon().keys(asked)):
            return True  # a word of the lexicon ("Deadline", "Time limit", "Capex")
    lower = re.compile(r"(?<![\w./@&-])" + re.escape(stem.lower()) + r"[a-z]*(?![\w@&]|\.[a-z])")
    if any(lower.search(t) for t in texts):
        return True
    return wordnet_word(name) and any(
        o != name and not (re.fullmatch(r"[A-Z][a-z]+", o) and wordnet_word(o)) for o in others
    )


def _ordinary_opening(name: str, question: str, texts: Sequence[str]) -> str:
    """``name`` without an ordinary word opening it where grammar capitalises it ("Largest
    Boeing segment ...": "Boeing"), when no evidence writes the whole run as a name ("Global
    Services", "Commercial Airplanes" are a filing's segments); ``name`` otherwise."""
    first, _, rest = name.partition(" ")
    if not rest or not rest[:1].isupper() or not _capitalised_at(first, question):
        return name
    if not re.fullmatch(r"[A-Z][a-z]+", first) or any(names_in(name, t) for t in texts):
        return name
    return rest if wordnet_word(first) or _ordinary_word(first, question, texts) else name


def _asker_named(name: str, question: str, others: Sequence[str]) -> bool:
    """Does ``name`` say who asks, not what is asked: one of the asker's own ("for our CFO",
    "my HR team") or the one who asked the asker ("HR asked me", "the DPO wants us to"), while
    another name of the question says whose rules or figures are asked?"""
    if not any(o != name for o in others):
        return False
    at = re.escape(name)
    own = re.search(rf"\b(?:our|my)\s+{at}(?![\w-])", question, re.IGNORECASE)
    asking = re.search(rf"(?<![\w-]){at}\s+(?:\w+\s+)?[a-z]+(?:s|ed)\s+(?:me|us)\b", question)
    return bool(own or asking)


_MIN_ORDINARY = 4
"""A shorter opening word ("Tax", "Fed") is too often part of a longer name or an initialism."""


def _cited(name: str, passages: Sequence[Passage]) -> bool:
    """Is ``name`` a citation of one of ``passages``: of its document ("12 CFR part 1013",
    "CFR" for the document "12 CFR 1013") or of the provision it belongs to ("§ 1024.39(d)(3)",
    "12 CFR 1024.39" for the passage labelled "1024-39-d-3-iii"). A question cites the rule
    it asks about; the sentence answering it seldom cites itself."""
    wanted = _citation_keys(name)
    appendix = wanted[:1] in (["appendix"], ["app"])
    if appendix:
        wanted = wanted[1:]  # "appendix B" of "12 CFR 1002": the passages labelled 1002-B-...
    elif not any(k[:1].isdigit() or k == "cfr" for k in wanted):
        return False
    if not wanted:
        return False
    for passage in passages:
        document = _citation_keys(passage.doc_id)
        label = _citation_keys(passage.label or "")
        if not appendix and label[: len(wanted)] == wanted:
            return True  # the provision, numbered as its part numbers it ("1024.39(d)")
        if label[:1] and document[-1:] == label[:1]:
            label = label[1:]  # "1024-39-d" of "12 CFR 1024": a section of that part
        if appendix:
            if label[: len(wanted)] == wanted:
                return True
            continue
        full = [*document, *label]
        if any(full[i : i + len(wanted)] == wanted for i in range(len(document))):
            return True  # the document, or the provision with its document ("12 CFR 1024.39")
    return False


def _citation_keys(text: str) -> list[str]:
    """The numbers and words of a citation, without the words that only say what kind of
    unit it cites ("§ 1024.39(d)", "section 1024.39 (d)" and "1024-39-d" are the same)."""
    return [k for k in re.findall(r"[a-z]+|\d+", text.lower()) if k not in _CITATION_WORDS]


_CITATION_WORDS = frozenset({"part", "parts", "section", "sections", "sec", "paragraph", "para"})


_JOINERS = r"(?:,?[\s/-]+(?:of|and|the|for|to|in|on|per|&)(?=[\s/-]))*,?[\s/-]+"


def _acronym_pattern(name: str) -> re.Pattern[str] | None:
    """The words an all-capitals name of 2-8 letters abbreviates, or None for other names.
    Two letters abbreviate capitalised words only ("PA": "Personal Account")."""
    if not re.fullmatch(r"[A-Z](?:&?[A-Z]){1,7}s?", name):
        return None
    letters = [c for c in name.rstrip("s") if c.isalpha()]
    if len(letters) == 2 and "&" in name:
        # "R&D": "research and development", "D&A": "depreciation and amortization".
        first, second = (rf"[{c}{c.lower()}][a-z]+" for c in letters)
        return re.compile(rf"\b{first}\s+(?:and|&)\s+{second}\b")
    if len(letters) == 2:
        words = [rf"{c}[a-z]+" for c in letters]
        return re.compile(r"\b" + _JOINERS.join(words) + r"\b")
    words = [rf"[{c}{c.lower()}][A-Za-z]*" for c in letters]
    return re.compile(r"\b" + _JOINERS.join(words) + r"\b", re.IGNORECASE)


def _figures_stated(
    profile: QuestionProfile, texts: Sequence[str]
) -> Iterator[tuple[list[str], list[str]]]:
    """The terms, with and without those of its place, of each sentence of ``texts`` that
    states the asked kind of figure for the asked period, examples left out unless the
    question sets one out."""
    for text in texts:
        body, _, place = text.partition(_PLACE)
        place_terms = terms(place)
        for sentence in _sentences(body):
            period = sentence_period(sentence)
            if period is not None and not period.overlaps(profile.target):
                continue
            if not profile.states_figure(sentence) and not _states_asked_value(profile, sentence):
                continue
            if EXAMPLE_SENTENCE.search(sentence) and not profile.hypothetical:
                continue  # "For example, if ... $950 ...": not the general answer
            own = _body_terms(sentence)  # "$54,600" states a dollar figure
            yield [*own, *place_terms], own


_ANSWERING_VALUES = frozenset({"calendar_date", "yearly_date", "age", "fraction", "relative_bound"})
"""Kinds of value (:func:`asked_value`) that answer the question asking them whatever its answer
type reads: a calendar date a yearly deadline ("By March 1 following the calendar year" for "the
annual deadline to file the register", typed a duration), an age "what age" ("age 62 or older"),
a fraction "what fraction", a share of a stated base the bound of an amount ("no greater than
one-sixth (1/6) of the estimated total annual payments" for "the largest cushion", no money).
Not ``bound``: any number would state it."""


_DATE_ASK_TERMS = frozenset(terms("deadline due date"))
"""Words asking for the date of a yearly act ("when is the register due", "the annual
deadline"): what is asked, stated as a date, not a word the answer must repeat."""


def _date_asked(profile: QuestionProfile) -> bool:
    """Does the question ask a calendar date, or the date of a yearly act (:func:`asked_value`)?"""
    return asked_value(profile.question, profile) in ("calendar_date", "yearly_date")


def _states_asked_value(profile: QuestionProfile, text: str) -> bool:
    """Does ``text`` state a value of the kind the question asks (:data:`_ANSWERING_VALUES`),
    as the drafter reads it (:func:`asked_value`, :func:`states_value`)?"""
    kind = asked_value(profile.question, profile)
    return kind in _ANSWERING_VALUES and states_value(kind, text)


def _parts_answered(
    parts: Sequence[str], claims: Sequence[str], pool: list[str] | None, share: float
) -> set[str]:
    """The part facts that claims answer, each by a statement of its own: one claim answering
    one ask of "how long ..., and how many years ..." leaves the other unanswered. A claim
    states as many parts as it has statements (:func:`_statements`): read whole, it answers
    one; each further sentence, or a coordinated clause stating its own time or figure ("...
    no later than the 36th day ... and again no later than 36 days after each payment due
    date"), answers another only by its own words. A part asks the claims only for the words
    the evidence ``pool`` states (as the topic does)."""
    keys = text_keys(pool) if pool is not None else None
    # Each slot: a claim read whole (its first slot) or one of its further statements, with
    # the words that statement says itself (a coordinated clause: not its opening clause's).
    slots: list[tuple[list[str], list[str]]] = []
    for claim in claims:
        if not (whole := terms(claim)):
            continue
        body, _, place = _split(claim)
        # A share is stated by its figure ("32% of our total workforce" states the percent
        # asked), and a sentence stating a share beside a figure of another kind ("50,000
        # employees, which constitute 32% ...") answers a part for each.
        kinds = {q.endswith("%") for q in extract_quantities(body)}
        if True in kinds:
            whole = [*whole, *_PERCENT_TERMS]
        slots += [(whole, whole)] * max(len(kinds), 1)
        slots += [(terms(f"{s}{_PLACE}{place}"), terms(own)) for s, own in _statements(body)[1:]]
    fitting: dict[str, list[int]] = {}
    for part in parts:
        wanted = part.removeprefix(PART).split()
        if pool is not None and keys is not None:
            wanted = [t for t in wanted if unit_matched(_unit(t), keys, pool)] or wanted
        fits = sorted(
            ((covered_share(wanted, c), i) for i, (c, own) in enumerate(slots) if c),
            reverse=True,
        )
        # A further clause answers a part by a word of the part it says itself: "... a
        # written notice no later than the 45th day ... and again no later than 45 days after
        # each payment due date" repeats its notice, no "live contact" asked beside it.
        fitting[part] = [
            i for fit, i in fits if fit >= share and covered_share(wanted, slots[i][1]) > 0
        ]
    # As many parts as can each have a slot of its own: "Boeing's total revenues, and how
    # much came from Commercial Airplanes?" is answered by the total's claim and the
    # segment's, though the segment's also fits the first ask (augmenting paths).
    owner: dict[int, str] = {}

    def assign(part: str, seen: set[int]) -> bool:
        for i in fitting[part]:
            if i in seen:
                continue
            seen.add(i)
            if i not in owner or assign(owner[i], seen):
                owner[i] = part
                return True
        return False

    return {part for part in parts if assign(part, set())}


def _statements(text: str) -> list[tuple[str, str]]:
    """The statements of a claim's text: its sentences (list items), and within a sentence
    each coordinated clause that states a time or figure of its own ("..., and again no later
    than 36 days after ..."), read with the sentence's opening clause (its subject and act);
    each with the words it says itself."""
    statements: list[tuple[str, str]] = []
    for sentence in _sentences(text) or [text]:
        clauses = _COORDINATED.split(sentence)
        valued = [c for c in clauses[1:] if _states_value(c)]
        if len(clauses) < 2 or not _states_value(clauses[0]) or len(valued) < len(clauses) - 1:
            statements.append((sentence, sentence))
            continue
        statements.append((clauses[0], clauses[0]))
        statements += [(f"{clauses[0]} {c}", c) for c in valued]
    return statements


_PERCENT_TERMS = tuple(terms("percent percentage"))
"""The words asking for a share, stated by a percentage figure."""


_COORDINATED = re.compile(r"(?:,|;)?\s+and\s+(?=(?:again|also|then|thereafter)\b)|(?:,|;)\s+and\s+")
"""Where a sentence coordinates a further clause ("..., and ...", "... and again ...")."""


def _states_value(text: str) -> bool:
    """Does ``text`` state a time or a figure of its own ("no later than 36 days", "$250")?"""
    return _states_time(text) or re.search(r"\d", text) is not None


def _rival_words(
    profile: QuestionProfile, answer: Sequence[str], others: Sequence[Passage]
) -> list[str]:
    """The question's words that tell the sentence it asks about from the ones the claims
    state: those a sentence of a passage the claims do not quote states (it or its place),
    when it also states every word of the question that the claims (read in their place)
    state and, for a figure question, states the asked kind of figure. "first lien",
    "ethnicity" or "(B)" in the question, and a sibling paragraph answering without them:
    the claims answer the sibling. Empty when there is no such sentence in the evidence, or
    the question asks several things (each claim then answers a part of it)."""
    if not answer or profile.parts or profile.multi_part:
        return []
    names = {t for n in profile.names for t in terms(n)}
    skip = names | PERIOD_WORDS | _ASKING_FRAME
    wanted = [t for t in dict.fromkeys(profile.terms) if t not in skip and not t[:1].isdigit()]
    if not wanted:
        return []

    # The question's phrases of the lexicon ("capital expenditures"): a text stating one in
    # other words ("Purchases of property, plant and equipment") states each of its words.
    phrases = [
        (unit, {w for member in unit if not member.startswith("~") for w in member.split()})
        for unit in match_units(list(profile.terms))
        if any(" " in member for member in unit)
    ]

    def stated(have: list[str]) -> set[str]:
        keys = text_keys(have)
        found = {t for t in wanted if unit_matched(_unit(t), keys, have)}
        for unit, words in phrases:
            if unit_matched(unit, keys, have):
                found |= words & set(wanted)
        return found

    # A head count of the asked scope states the words asking it ("global headcount").
    answered = stated([t for text in answer for t in terms(text)])
    answered |= _headcount_answered(profile, answer) & set(wanted)
    best: list[str] = []
    for passage in others:
        placed = [_placed(passage)]
        if profile.wants_figure is not None:
            sentences = [said for said, _ in _figures_stated(profile, placed)]
        else:
            place = terms(_place(passage))
            sentences = [[*terms(s), *place] for s in _sentences(passage.text)]
        for said in sentences:
            more = stated(said)
            if len(more) - len(answered) >= _RIVAL_WORDS:
                extra = [t for t in wanted if t in more - answered]
                if len(extra) >= _RIVAL_WORDS and len(extra) > len(best):
                    best = extra
    return best


_RIVAL_WORDS = 2
"""How many of the question's words a sibling sentence must state beyond the claims: one word
is often only the asker's (a "deadline", a "segment" the answer need not name)."""


KIND = "kind: "
"""A missing fact of the audit only: the kind of figure the question asks (a frequency, a time
limit) and the claims do not state (see _kind_missing)."""


def _measure_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The figure a question asks by naming its measure (:func:`asked_measure`: "Boeing
    headcount?", "the fine for ...", "at what age", "how much percent did it grow") when no
    claim states a figure of that kind (:func:`states_measure`): "approximately 23% women" is
    no head count, "a breach is a disciplinary matter" no fine, an increase of $1.2 billion no
    percentage. Claims are read with what the engine computed from them ("change: 5.2%").
    As a ``figure:`` fact, or None."""
    if not answer or (measure := asked_measure(profile.question)) is None:
        return None
    if any(states_measure(_split(text)[0], measure.kinds) for text in answer):
        return None
    if any(_states_asked_value(profile, _split(text)[0]) for text in answer):
        return None  # the value the question asks, read as the drafter reads it
    kinds = " or ".join(sorted(measure.kinds))
    return FIGURE + f"the {measure.noun} asked, as {kinds} (the claims state none)"


def _kind_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The kind of time figure a question asks and the claims (``answer``) do not state, as a
    missing fact, or None. "How often" is answered by a frequency ("at least every 12 months",
    "annually", "[Assignment: organization-defined frequency]"), not by a time limit ("not
    later than the 45th day", "within 7 calendar days"); "how long", "within how many days"
    or a deadline by a time limit or period, not by a frequency alone ("every month"). A
    question asking both (or neither) is left to the other facts."""
    if profile.answer_type not in ("duration", "date") or not answer:
        return None
    question = profile.question
    often = _FREQUENCY_ASKED.search(question) is not None
    limit = _LIMIT_ASKED.search(question) is not None
    if often == limit:
        return None
    bodies = [_split(text)[0] for text in answer]
    if often:
        if any(_FREQUENCY_STATED.search(body) for body in bodies):
            return None
        return KIND + "a frequency (how often), where the claims state a time limit"
    stated = [_FREQUENCY_STATED.sub(" ", body) for body in bodies]
    if not any(_FREQUENCY_STATED.search(body) for body in bodies) or any(
        has_figure(body, "quantity", "duration") or has_figure(body, "date") for body in stated
    ):
        return None
    return KIND + "a time limit or period (how long), where the claims state a frequency"


def _time_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """A time question's figure that the claims state of another kind, as a ``kind:`` fact,
    or None: days counted another way than asked ("how many business days" answered by
    "within 7 calendar days"), or only a parameter the organization sets that is no time
    ("[Assignment: organization-defined system use notification message or banner]" for
    "how long must the banner stay on screen")."""
    if profile.answer_type not in ("duration", "date") or not answer:
        return None
    bodies = [_split(text)[0] for text in answer]
    if counted := _DAY_COUNT.search(profile.question):
        wanted = _DAY_KINDS.get(counted.group(1).lower(), counted.group(1).lower())
        stated = {
            _DAY_KINDS.get(m.group(1).lower(), m.group(1).lower())
            for body in bodies
            for m in _DAY_COUNT.finditer(body)
        }
        if stated and wanted not in stated:
            return (
                KIND + f"{wanted} days, where the claims count {' or '.join(sorted(stated))} days"
            )
    parameters = [m.group(0) for body in bodies for m in _PARAMETER_SET.finditer(body)]
    if not parameters or any(_TIME_PARAMETER.search(p) for p in parameters):
        return None
    if any(profile.states_figure(_PARAMETER_SET.sub(" ", body)) for body in bodies):
        return None
    return KIND + "a time, where the claims leave only something else to the organization"


def _unit_noun_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """A value a question asks by the plural of its unit inside the question ("IR-2 annual
        training hours for admins?", "what are the lockout minutes for admin accounts?"), which
        :func:`_unit_missing` reads only at the question's end or after "how many", when no claim
        states a number in that unit. The claims then state the rule around a value the text
        leaves open ("within [Assignment: organization-defined time period]") or a value of
        another kind. Not a yes/no, who, where or which question, nor a unit of a name ("board
        minutes", "business hours"), nor one counting another thing ("how many loans in each of the
    two preceding years"): those ask no count of the unit. As a ``kind:`` fact, or None."""
    if not answer or _UNIT_ASKED.search(profile.question) is not None:
        return None
    if _NOT_A_VALUE_ASKED.search(profile.question) is not None:
        return None
    asked = _UNIT_NOUN_ASKED.search(profile.question)
    if asked is None:
        return None
    unit = asked.group("unit").lower().removesuffix("s")
    bodies = [_unbracketed(_split(text)[0]) for text in answer]
    if any(_in_named_unit(unit).search(body) for body in bodies):
        return None
    if unit in _TIME_UNITS and any(_NO_COUNT_TIME.search(body) for body in bodies):
        return None  # "retained permanently": a time no count of units states
    return KIND + f"a number of {unit}s, where the claims state none"


def _unit_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The unit a question names for its answer ("how many hours", "the distance in miles")
    when no claim states a number in it, as a ``kind:`` fact, or None. A control's parameter
    ("within [Assignment: organization-defined time period]") answers "how long", not "how
    many hours"; a sentence on fire-rated containers states no rating in hours."""
    asked = _UNIT_ASKED.search(profile.question)
    if asked is None or not answer:
        return None
    unit = next(group for group in asked.groups() if group).lower()
    unit = _UNIT_FORMS.get(unit, _UNIT_FORMS_ASKED.get(unit, unit.removesuffix("s")))
    bodies = [_unbracketed(_split(text)[0]) for text in answer]
    if any(_in_named_unit(unit).search(body) for body in bodies):
        return None
    if unit in _TIME_UNITS and any(_NO_COUNT_TIME.search(body) for body in bodies):
        return None  # "retained permanently", "promptly": a time no count of units states
    wanted = "a percentage" if unit == "percent" else f"a number of {unit}s"
    return KIND + f"{wanted}, where the claims state none"


_COUNT_WORDS = (
    r"\d[\d,.]*|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|sixty|ninety|hundred|few|several|many|more|recent|past|last|next|prior|"
    r"previous|following|coming|subsequent|those|these|the|its|their|our|your|"
    r"consecutive|additional|extra|whole|full"
)
"""Words before a unit that count or place a span rather than ask its length ("30 minutes",
"several hours", "the next few miles")."""
_TERSE_UNITS = (
    r"(seconds?|minutes?|hours?|miles?|kilomet(?:er|re)s?|km|feet|met(?:er|re)s?|characters?|"
    r"percent)"
)
_UNITS = (
    r"(seconds?|minutes?|hours?|days?|weeks?|months?|years?|miles?|kilomet(?:er|re)s?|km|"
    r"feet|foot|met(?:er|re)s?|characters?|percent)"
)
_UNIT_ASKED = re.compile(
    rf"\bhow\s+many\s+(?:[a-z-]+\s+)?{_UNITS}\b|\bin\s+{_UNITS}\b(?!\s*\d)"
    rf"|\bnumber\s+of\s+{_UNITS}\b"
    # A terse ask ending on its unit of measure ("annual training hours?", "fire rating
    # hours?"), not a stated count ("within 30 minutes?") nor a unit of a rate ("per hour?");
    # not a calendar unit, which ends as many questions placing the figure in time ("in its
    # most recently reported fiscal year?")
    rf"|(?<![\w-])(?!(?:{_COUNT_WORDS})\b)(?!per\b)[a-z][a-z-]*,?\s+{_TERSE_UNITS}\s*\?*\s*$"
    r"|\b(mileage)\b",
    re.IGNORECASE,
)
"""A question naming the unit its answer counts in ("how many business days", "the minimum
distance in miles", "the rating in hours", "training hours?", "required mileage?")."""
_UNIT_FORMS_ASKED = {"mileage": "mile"}
"""Nouns asking a unit by the measure it counts ("required mileage?")."""
_TIME_UNITS = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
_NO_COUNT_TIME = re.compile(
    r"\b(?:permanently|indefinitely|immediately|promptly|without\s+(?:undue\s+)?delay)\b",
    re.IGNORECASE,
)
"""A time stated without a count of units: no end, or at once."""
_UNIT_FORMS = {"feet": "foot", "km": "kilometer", "kilometre": "kilometer", "metre": "meter"}
"""Spellings of a unit, as its one name (before a plural s)."""
_UNIT_NOUN_ASKED = re.compile(
    r"(?<![\w-])(?!(?:" + _COUNT_WORDS + r")\b)(?!per\b)"
    r"(?!(?:board|meeting|business|banking|calendar|working|office|opening|trading|committee|"
    r"fiscal|financial|tax|reporting|all|both|other|some|each|every|later|earlier)\b)"
    r"[a-z][a-z-]*,?\s+(?P<unit>seconds|minutes|hours|days|weeks|months|years|characters)\b"
    r"(?!\s*\d)",
    re.IGNORECASE,
)
"""A plural unit after a word that neither counts it ("30 hours", "several days") nor names a
kind of it that asks no count ("business hours", "board minutes", "fiscal years 2021 and
2022")."""
_NOT_A_VALUE_ASKED = re.compile(
    r"^\W*(?:do|does|did|is|are|was|were|can|could|may|might|must|should|shall|will|would|"
    r"has|have|who|whom|whose|where|why|which)\b|\bhow\s+(?:many|much)\b|\bnumber\s+of\b",
    re.IGNORECASE,
)
"""A question that asks whether, who, where or which, or counts another thing ("how many
loans ... in each of the two preceding calendar years"): not a value counted in a unit."""


@lru_cache(maxsize=64)
def _in_named_unit(unit: str) -> re.Pattern[str]:
    """A number counting ``unit``s, or units of the same measure ("72 hours", "the 5th
    business day", "every 3 years" for "how many months", "ten-mile", "25%")."""
    time = r"(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)"
    length = r"(?:miles?|kilomet(?:er|re)s?|km|foot|feet|ft|met(?:er|re)s?|m)"
    forms = {
        **dict.fromkeys(_TIME_UNITS, time),
        **dict.fromkeys(("mile", "kilometer", "foot", "meter"), length),
        "percent": r"(?:percent|per\s+cent|%)",
    }.get(unit, unit + "s?")
    number = (
        r"(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
        r"fifteen|twenty|thirty|forty|forty-five|fifty|sixty|ninety|hundred|first|second|third|"
        r"fourth|fifth|sixth|seventh|eighth|ninth|tenth|twelfth|fifteenth|twentieth|thirtieth)"
    )
    return re.compile(
        rf"\b{number}(?:st|nd|rd|th)?(?:\s*-\s*|\s+)?(?:[a-z]+[\s-]+)?{forms}(?![a-z])",
        re.IGNORECASE,
    )


def _case_unasked(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The case a claim opens by ("With regard to a business that had gross revenues in
    excess of $1 million, ...", "If a KYC refresh is not completed ...") when the question
    states none of its words: the claim answers for a case the asker did not set, as a
    ``kind:`` fact, or None. A case citing another provision ("For applications subject to
    paragraph (a)(1)") or a date ("For accounts opened on or after July 1, 2010") is the rule's
    own reach, which the citation and the as-of date decide."""
    if not answer:
        return None
    asked = terms(profile.question.replace("-", " "))
    keys = text_keys(asked)
    for body in (_split(text)[0] for text in answer):
        opened = _CASE_OPENING.match(_SECTION_NUMBERING.sub("", body, count=1))
        if opened is None:
            continue
        case = opened.group("case")
        if _CASE_CITES.search(case) or extract_dates(case) or case[:1].isdigit():
            continue
        words = [t for t in dict.fromkeys(terms(case.replace("-", " "))) if t[:1].isalpha()]
        if len(words) >= _CASE_WORDS and not any(
            unit_matched(_unit(t), keys, asked) for t in words
        ):
            return (
                KIND
                + f"the case the question asks about, where the claims answer for {case.strip()!r}"
            )
    return None


_CASE_OPENING = re.compile(
    r"(?:if|when|where|with\s+regard\s+to|with\s+respect\s+to|in\s+the\s+case\s+of|for)\s+"
    r"(?P<case>[^,;:]{3,200}?)\s*[,;:]",
    re.IGNORECASE,
)
"""A claim opening by the case it applies to, up to the clause's end."""
_CASE_CITES = re.compile(r"§|\b(?:section|paragraph|part|this|pursuant|provided)\b", re.IGNORECASE)
"""A case that is another provision's reach ("except as provided in this section")."""
_CASE_WORDS = 2
"""How many words a case must have to name one: "where possible", "if requested" hedge."""


_DAY_COUNT = re.compile(r"\b(business|calendar|working|banking)\s+days?\b", re.IGNORECASE)
"""Days counted one way ("business days", "calendar days")."""
_DAY_KINDS = {"working": "business", "banking": "business"}
"""Ways of counting days that are the same way."""
_PARAMETER_SET = re.compile(r"\[\s*(?:Assignment|Selection)[^\]]*\]", re.IGNORECASE)
"""A value a control leaves to the organization ("[Assignment: organization-defined ...]")."""
_TIME_PARAMETER = re.compile(
    r"\b(?:time|period|periods|frequency|frequencies|days?|hours?|minutes?|seconds?|weeks?|"
    r"months?|years?|duration|interval|often|schedule|when|annually|monthly)\b",
    re.IGNORECASE,
)
"""A parameter the organization sets that is a time ("organization-defined time period")."""


def _list_incomplete(
    profile: QuestionProfile,
    claims: Sequence[Claim],
    supported: set[str],
    evidence: Sequence[Passage],
) -> str | None:
    """A question asking for an enumeration ("what must the banner say", "what must each
    record contain") answered by one item of a list whose sibling items the evidence holds:
    the item is part of the answer, not all of it. Unless a claim states several items (a
    list, a series), or the question singles the item out: it states a word of the question
    that none of its siblings does ("what must the banner state regarding system usage"). As
    a ``kind:`` fact, or None."""
    if not asks_enumeration(profile.question, profile):
        return None
    by_id = {p.passage_id: p for p in evidence}
    single = False
    for claim in claims:
        cited = [c for c in claim.citations if c.evidence_id in supported]
        if not cited:
            continue
        items = [c for c in claim.citations if not c.quote.rstrip().endswith(":")]
        if (
            len(items) != 1
            or names_a_series(items[0].quote)
            or len(_ITEM_MARK.findall(items[0].quote)) > 1
        ):
            return None  # several items, or a sentence naming several things
        item = items[0]
        passage = by_id.get(item.evidence_id or "")
        if passage is None:
            return None
        led = len(claim.citations) > 1  # read after a lead-in ("... shall include:")
        siblings = _sibling_items(passage, item.quote, evidence, led=led)
        if not siblings:
            return None  # no list, or its siblings are not in the evidence
        own = set(terms(item.quote))
        others = {t for text in siblings for t in terms(text)}
        lead = {t for c in claim.citations if c is not item for t in terms(c.quote)}
        if any(t in own and t not in others and t not in lead for t in profile.terms):
            return None  # the question asks for this item
        single = True
    if not single:
        return None
    return KIND + "the whole list (the claims state one item of it)"


_ITEM_MARK = re.compile(r"^([ \t]*)(\(?[a-z]\)|\(?\d{1,2}\)|[a-z]\.|\d{1,2}\.)[ \t]+\S", re.M)
"""A list item's line: its indentation and its marker ("a.", "(1)")."""


def _mark_kind(mark: str) -> str:
    return ("num" if mark.strip("().")[:1].isdigit() else "alpha") + mark[-1]


def _sibling_items(
    passage: Passage, quote: str, evidence: Sequence[Passage], *, led: bool
) -> list[str]:
    """The other items of the list an item ``quote`` of ``passage`` belongs to, as far as the
    evidence holds them: the lines of the same marker kind and indentation in the passage's
    block of items (a catalog's "1. ...; 2. ..."), or the passages labelled as the same
    paragraph's items ("1024-39-b-2-ii" beside "1024-39-b-2-i") when the item is ``led`` by
    its paragraph's lead-in (else they are paragraphs of a section, not items)."""
    at = passage.text.find(quote)
    if at >= 0:
        marks = list(_ITEM_MARK.finditer(passage.text))
        own = next((m for m in marks if m.start(2) <= at < m.end()), None)
        if own is None:
            own = next((m for m in marks if m.start(2) == at), None)
        if own is not None:
            kind = _mark_kind(own.group(2))
            width = {m.start(): len(m.group(1)) for m in marks}
            # An opening line has lost its indentation: it has its next sibling's.
            for m in marks:
                if m.start() == 0 and not m.group(1):
                    later = next(
                        (n for n in marks[1:] if _mark_kind(n.group(2)) == _mark_kind(m.group(2))),
                        None,
                    )
                    if later is not None:
                        width[0] = len(later.group(1))
            level = width[own.start()]
            found: list[str] = []
            index = marks.index(own)
            for step in (-1, 1):
                j = index + step
                while 0 <= j < len(marks):
                    m = marks[j]
                    if width[m.start()] < level:
                        break  # the item's parent: its list ends
                    if width[m.start()] == level and _mark_kind(m.group(2)) == kind:
                        end = passage.text.find("\n", m.start())
                        found.append(passage.text[m.start() : end if end >= 0 else None])
                    j += step
            if found:
                return found
    label = (passage.label or "").strip()
    parent = label.rpartition("-")[0]
    if not led or not parent or "Interp" in label:
        return []
    return [
        p.text
        for p in evidence
        if p.doc_id == passage.doc_id
        and p.version == passage.version
        and (p.label or "").strip() != label
        and (p.label or "").strip().rpartition("-")[0] == parent
        and not (p.label or "").strip().rpartition("-")[2].startswith("Interp")
    ]


def _content_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """What a question asks a notice, report or record to say ("what must the acknowledgement
    tell the complainant", "what has to be in the report") when the claims state nothing
    beside the question's own words but a time limit ("must send the acknowledgement within
    3 business days"): they answer when it is due, not what it says. As a ``kind:`` fact, or
    None."""
    if (
        profile.wants_figure is not None
        or not answer
        or _CONTENT_ASKED.search(profile.question) is None
    ):
        return None
    asked = _based(list(profile.terms))
    for body in (_split(text)[0] for text in answer):
        untimed = _TIME_FIGURE.sub(" ", _unbracketed(_SECTION_NUMBERING.sub("", body)))
        if untimed == _unbracketed(_SECTION_NUMBERING.sub("", body)):
            return None  # a claim stating no time limit says something else
        said = _based(terms(untimed))
        keys = text_keys(asked)
        new = [
            t
            for t in dict.fromkeys(_inflected(said, asked))
            if not unit_matched(_unit(t), keys, asked)
            and t not in _LIGHT_WORDS
            and t not in _LIGHT_ACTS
            and not t[:1].isdigit()
        ]
        if len(new) > _CONTENT_WORDS:
            return None
    return KIND + "what it must say, where the claims state only when it is due"


_CONTENT_ASKED = re.compile(
    r"^\W*what\b[^?]*\b(?:tell|say|says|state|states|include|includes|contain|contains|"
    r"disclose|disclosed|explain|show|list|mention|be\s+in|go\s+in|be\s+included|"
    r"be\s+stated|be\s+disclosed|be\s+listed)\b",
    re.IGNORECASE,
)
"""A question asking what a text must say ("What must the notice tell the borrower?")."""
_CONTENT_WORDS = 2
"""How many words of its own, beside a time limit, a claim stating what a text says has."""
_SECTION_NUMBERING = re.compile(r"^\s*(?:§\s*)?\d+(?:\.\d+)*\.?\s+|^\s*\(?[a-z0-9]{1,3}[.)]\s+")
"""A sentence's own numbering ("4.1 ", "(a) ")."""


def _actor_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """Who a question asks for ("who signs off ...", "whose approval ...") when no claim
    (read in its place) names anyone who acts: a role, an officer, a body, a party ("the
    Chief Operating Officer", "a member of senior management", "organization-defined
    personnel or roles", "the servicer"). As a ``kind:`` fact, or None."""
    if not answer or _ACTOR_ASKED.search(profile.question) is None:
        return None
    if any(_ACTOR_STATED.search(text) for text in answer):
        return None
    return KIND + "who (the claims name no one who acts)"


_DOCUMENT = r"(?:this|the)\s+(?:policy|procedure|standard|guidance|faq|(?:sub)?part)\b"
"""A document speaking of itself ("this policy", "the policy", a regulation's "this part")."""
_DOCUMENT_ACTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "review",
        re.compile(
            rf"\breview(?:s|ed)?\s+(?:and\s+updates?\s+)?{_DOCUMENT}"
            rf"|{_DOCUMENT}\s+(?:must|shall|will|is|are)\s+(?:be\s+)?reviewed",
            re.IGNORECASE,
        ),
        re.compile(r"\b(?:review|revis|updat|reassess|re-?approv|re-?examin)", re.IGNORECASE),
    ),
    (
        "purpose",
        re.compile(
            rf"^{_DOCUMENT}\s+(?:sets?\s+out|sets|describes|explains|exists|aims|is\s+intended)",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:purpose|aims?|goals?|objectives?|why|about|intend|point|sets?\s+out"
            r"|describ|cover|for\s*\??\s*$)",
            re.IGNORECASE,
        ),
    ),
    (
        "scope",
        re.compile(
            rf"^{_DOCUMENT}\s+(?:applies|apply|covers)\b"
            rf"|^(?:.*?,\s+)?the\s+(?:requirements|provisions)\s+of\s+{_DOCUMENT}\s+"
            r"(?:do\s+not\s+|does\s+not\s+)?apply",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:appl(?:y|ies|ied|icab)|cover|scope|subject\s+to|fall|exempt|exclu|includ"
            r"|bound\s+by|govern(?:s|ed|ing)?\b|threshold|trigger)",
            re.IGNORECASE,
        ),
    ),
)
"""What a document's clause about itself does (it is reviewed; it sets out its purpose; it
applies to some people or cases), how the clause is recognised, and the question words that
ask about that act."""
_CLAUSE_PARTS = re.compile(r";\s*(?:and|or)?\s*\n|\n\s*(?=\(?[a-z0-9]{1,3}[.)]\s)")
"""Where a claim quoting a list splits into its items (a line opening "b." or "(2)")."""


def _document_clause_unasked(profile: QuestionProfile, claims: Sequence[str]) -> str | None:
    """Claims that only state what the document does itself ("Compliance must review this
    policy at least every 2 years", "This policy sets out how the Bank ... investigates ...",
    "The policy applies to every employee who ...", "the requirements of this part do not
    apply to government credit") when the question does not ask about that act (its review,
    its purpose, its reach): the claims then answer with the document's frame, not the rule
    asked about ("What happens to my profit if I break the dealing rules?", "Who is allowed
    to investigate a complaint?"). Such a clause shares the document's topic words with every
    question about it, so the topic and focus facts cannot tell it apart. As a ``kind:``
    fact, or None; None as soon as one claim states something else."""
    if not claims:
        return None
    acts: list[str] = []
    for claim in claims:
        # Each item of a list claim ("a. Establish policy and procedures ...; and b. Review and
        # update the policy ...") must be such a clause: one stating a rule of its own answers.
        for part in _CLAUSE_PARTS.split(claim):
            body = _SECTION_NUMBERING.sub("", part, count=1).strip()
            if not body:
                continue
            act = next((name for name, said, _ in _DOCUMENT_ACTS if said.search(body)), None)
            if act is None:
                return None  # a claim states a rule of its own
            acts.append(act)
    if not acts:
        return None
    asked = {name for name, _, cue in _DOCUMENT_ACTS if cue.search(profile.question)}
    unasked = [act for act in dict.fromkeys(acts) if act not in asked]
    if len(unasked) < len(set(acts)):
        return None  # the question asks about the document's own act
    return KIND + " ".join(unasked) + " of the document itself (not what is asked)"


_PARTY = (
    r"(?:a|an|the|my|our|one|his|her|their)\s+(?:\w+\s+)?(?:clients?|customers?|suppliers?"
    r"|vendors?|brokers?|partners?|counterpart(?:y|ies)|officials?|recipients?|guests?)\b"
)
_DIRECTIONS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "received",
        re.compile(
            rf"\b(?:accept(?:s|ed|ing)?|offered|invited)\b"
            rf"|\b(?:from|by)\s+{_PARTY}",
            re.IGNORECASE,
        ),
        re.compile(
            r"\baccept(?:s|ed|ing)?\b|\boffered\s+to\b|^\W*(?:\d+\.?\s+)?receiving\b",
            re.IGNORECASE | re.MULTILINE,
        ),
    ),
    (
        "given",
        re.compile(
            rf"\b(?:give|gives|giving|gave|host(?:s|ed|ing)?|pa(?:y|ys|ying|id)\s+out)\b"
            r"|\bper\s+(?:recipient|guest)\b"
            rf"|\bto\s+{_PARTY}",
            re.IGNORECASE,
        ),
        re.compile(
            r"\b(?:give[sn]?|giving|gave)\b|\bprovided\s+by\b|\bon\s+behalf\s+of\b",
            re.IGNORECASE,
        ),
    ),
)
_BENEFIT = re.compile(
    r"\b(?:gifts?|presents?|entertainment|hospitality|dinners?|lunch(?:es)?|meals?|trips?"
    r"|travel|tickets?|invitations?|vouchers?|bonus(?:es)?|perks?|freebies?|concerts?)\b",
    re.IGNORECASE,
)
"""A benefit a person may give or receive: what a question about its direction asks of."""
"""Which way a benefit goes (an employee receiving a gift or hospitality, or giving one): how
a question asks it ("accept a dinner from a client", "a trip paid by a supplier"; "gifts we
give out", "hosting clients", "pay out as a bonus", "per recipient"), and how a claim or the
heading it stands under states it ("Employees may accept ...", "## 4. Receiving gifts";
"Gifts given by an employee on behalf of the Bank ...")."""


def _direction_unasked(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """A question asking about a benefit going one way (received, or given) answered only by
    claims, read in their place, about the other way: "Is a trip paid by a supplier ok ...?"
    answered by the rule on giving gifts to a public official, "gifts we give out: annual
    cap?" by a clause under "Receiving gifts". Both sides must state one way only: a
    question or claim naming both ("offer, give, solicit or accept") decides nothing. As a
    ``kind:`` fact, or None."""
    if not answer or _BENEFIT.search(profile.question) is None:
        return None  # "an application received": no benefit changes hands
    asked = {name for name, cue, _ in _DIRECTIONS if cue.search(profile.question)}
    if len(asked) != 1:
        return None
    stated: set[str] = set()
    for text in answer:
        ways = {name for name, _, said in _DIRECTIONS if said.search(text)}
        if len(ways) != 1:
            return None  # a claim stating no way, or both, may answer either
        stated |= ways
    if stated & asked:
        return None
    return (
        KIND
        + " ".join(sorted(asked))
        + " (the claims state what is "
        + " ".join(sorted(stated))
        + ")"
    )


def _head_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The thing a "which X" or "what X" question asks for ("what fine does ...", "which TLS
    version does ...") when no claim (read in its place) states it, nor a synonym the lexicon
    gives it: the claims then state a neighbouring rule of the same topic (that destroying a
    record under a legal hold is forbidden, not the fine for it). Answered by "an approved
    contractor" neither, when the question asks which one. As a ``kind:`` fact, or None.

    The asked thing is the noun before the question's verb ("what fine does", "which TLS
    version does"): its modifiers and the question's topic words are left to the topic and
    focus facts; words framing the ask ("what kind of", "which requirement", "what automatic
    actions") ask for nothing of their own."""
    if not answer:
        return None
    said = _based([t for text in answer for t in terms(text)])
    keys = text_keys(said)
    bodies = "\n".join(_split(text)[0] for text in answer)
    for match in _HEAD_ASKED.finditer(profile.question):
        words = match.group("head").replace(",", " ").split()
        if any(w.lower() in _HEAD_STOPS for w in words):
            continue
        frame = _HEAD_FRAME | ASK_WORDS | _ASKING_FRAME | _LIGHT_WORDS
        head = [t for t in terms(" ".join(words)) if t not in frame]
        noun = terms(words[-1])[-1:]
        if not head or not noun or noun[0] in frame:
            continue  # "what automatic actions": the kind of answer, not a thing asked for
        if noun[0] in _ORGANIZATION_KINDS and _organization_described(bodies):
            continue  # "which business did it acquire": "a New Zealand based manufacturer of"
        if not unit_matched(_unit(_inflected(noun, said)[0]), keys, said):
            return KIND + noun[0] + " (the claims do not state what is asked)"
        last = re.escape(words[-1].lower().rstrip("s"))
        if (
            match.group("wh").lower() == "which"
            and (
                mentions := re.findall(
                    rf"(?:\b(an?|any|each|every)\s+(?:[\w-]+\s+){{0,2}}?)?\b{last}s?\b",
                    bodies,
                    re.IGNORECASE,
                )
            )
            and all(mentions)
        ):
            return KIND + " ".join(head) + " (the claims name none in particular)"
    # The case a question asks about ("without showing identification"): a claim stating the
    # rule of another case (a cash deposit of $10,000 or more) does not answer it.
    frame = _HEAD_FRAME | ASK_WORDS | _ASKING_FRAME | _LIGHT_WORDS
    for match in _WITHOUT_ASKED.finditer(profile.question):
        words = [w for w in match.group("case").split() if not w.lower().endswith("ing")]
        words = [w for w in words if w.lower() not in _HEAD_STOPS | _CASE_ADVERBS]
        noun = terms(words[-1])[-1:] if words else []
        if not noun or noun[0] in frame:
            continue
        if not unit_matched(_unit(_inflected(noun, said)[0]), keys, said):
            return KIND + "without " + noun[0] + " (the claims state another case)"
    return None


def _actor_unnamed(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """Who a question asks for ("... Who has to sign off before we open the account?", "who
    may post information") when the claims' own sentences (their place aside) name no one
    who acts beside the asker's own institution ("the Bank", "we", "the Company") and the
    parties the question itself names ("a new customer"): the claims then state what the
    institution must (not) do, not who acts. As a ``kind:`` fact, or None. The ask may follow
    a scene ("New customer is a politician."), which :func:`_actor_missing` does not read."""
    if not answer:
        return None
    ask = ask_clause(profile.question) or profile.question
    if _ACTOR_ASKED.search(ask) is None and _ACTOR_ASKED.search(profile.question) is None:
        return None
    if _actor_missing(profile, answer) is not None:
        return None  # no one who acts at all: that fact says so
    named = {_actor_form(m.group(0)) for m in _ACTOR_STATED.finditer(profile.question)}
    for body in (_split(text)[0] for text in answer):
        own = _OWN_PARTY.sub(" ", body)
        if any(_actor_form(m.group(0)) not in named for m in _ACTOR_STATED.finditer(own)):
            return None
    return KIND + "who (the claims name no one who acts but the institution and the asked parties)"


def _actor_form(word: str) -> str:
    """An actor word as one form ("Officers" as "officer", "parties" as "party")."""
    word = word.lower()
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word.removesuffix("s")


_OWN_PARTY = re.compile(r"\b(?:the\s+)?(?:bank|company|we|us|our)\b", re.IGNORECASE)
"""The institution whose rules or report are quoted ("the Bank", "we"): the one bound by
them, which answers no "who" of its own rules."""


def _period_act_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The act a time question measures when it is keeping something or giving notice ("For
    how long must suspicious activity reports be retained?", "How many days' notice does the
    Bank give ...", "do we have to warn the client before ..., and how many days before?")
    and no claim states an act of that kind: a record's retention period is no deadline to
    decide on it, and a notice period no deadline to restrict the account. The claims then
    state the time limit of another act of the same topic. As a ``kind:`` fact naming the
    act, or None."""
    if not answer or profile.answer_type not in ("duration", "date"):
        return None
    if _FREQUENCY_ASKED.search(profile.question) is not None:
        return None  # how often: the kind fact's (_kind_missing)
    said = [t for text in answer for t in terms(_split(text)[0])]
    keys = text_keys(said)
    for act, asked, stated in _PERIOD_ACTS:
        if asked.search(profile.question) is None:
            continue
        if any(stated.search(_split(text)[0]) for text in answer):
            continue
        wanted = [m.group(0).lower() for m in asked.finditer(profile.question)]
        if any(unit_matched(_unit(t), keys, said) for w in wanted for t in terms(w)):
            continue
        return KIND + f"how long before or for {act} (the claims time another act)"
    return None


_KEEPING = r"retain|retained|retention|keep|kept|store|stored|preserve|preserved|archive|archived"
_NOTIFYING = (
    r"notice|notices|notify|notified|notification|warn|warned|warning|inform|informed|tell|told|"
    r"advise|advised"
)
_PERIOD_ACTS = (
    (
        "keeping",
        # Keeping as the act asked ("be retained", "must we keep", "the retention period"),
        # not a name the question gives ("the record retention policy").
        re.compile(
            r"\b(?:be|been|being|is|are)\s+(?:retained|kept|stored|preserved|archived)\b|"
            # "store" only as a verb with its object ("store the logs"), not a shop ("a
            # store gift card", "store hours")
            r"\b(?:retain|keep|preserve|archive)\b|\bstore\s+(?:the|them|it|these|those|all|"
            r"records?|logs?|data|files?|documents?|copies)\b|"
            r"\bretention\s+(?:periods?|times?|requirements?|rules?)\b|"
            r"\bhow\s+long\b[^?]*\bretention\b(?!\s+(?:polic|schedule|program))",
            re.IGNORECASE,
        ),
        re.compile(
            rf"\b(?:{_KEEPING}|maintain|maintained|hold|held|kept|destroy|destroyed|"
            r"dispose|disposed|delete|deleted)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "giving notice",
        re.compile(rf"\b(?:{_NOTIFYING})\b", re.IGNORECASE),
        re.compile(
            rf"\b(?:{_NOTIFYING}|disclos\w*|letter|written|writing|send|sent|mail|mailed|"
            r"deliver|delivered|provide|provided|furnish|furnished|contact|contacted|call|"
            r"acknowledg\w*|statement)\b",
            re.IGNORECASE,
        ),
    ),
)
"""The acts a time question may measure the period of (keeping a record, giving notice),
the words asking it, and the words by which a claim states an act of that kind."""


def _rate_missing(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """A figure per unit of something that a question asks from a report ("diluted EPS
    2016?", "training hours per employee?") when no claim states a figure per that unit
    ("over 1 million hours of training" is the total), or the reverse: a total ("3M net income
    2015?") when every claim states a figure per share only ("Earnings per share ... diluted
    $ 7.58"). Only of claims quoting a report, whose tables give both measures of one line.
    As a ``figure:`` fact, or None."""
    if not answer or not filed:
        return None
    ask = ask_clause(profile.question) or profile.question
    bodies = [_split(text)[0] for text in answer]
    if (rate := _RATE_ASKED.search(ask)) is not None:
        noun = "share" if rate.group("noun") is None else rate.group("noun").lower()
        noun = noun.removesuffix("s")
        stated = re.compile(
            rf"\b(?:per|a|each|every)\s+(?:[a-z-]+\s+){{0,2}}{re.escape(noun)}s?\b"
            + (r"|\bEPS\b|\bearnings\s+per\b|\bdiluted\b|\bbasic\b" if noun == "share" else ""),
            re.IGNORECASE,
        )
        # with the claim's place: a row of a table "Per share of 3M common stock:" heads
        if any(stated.search(text) for text in answer):
            return None
        return FIGURE + f"a figure per {noun} (the claims state a total)"
    if profile.answer_type != "amount" and profile.wants_figure is None:
        return None
    if _MONEY_MEASURE.search(ask) is None or _PER_SHARE.search(ask) is not None:
        return None
    bodies = [_PER_SHARE_UNIT.sub(" ", body) for body in bodies]
    if all(_PER_SHARE.search(body) for body in bodies) and not any(
        _TOTAL_STATED.search(_PER_SHARE_FIGURE.sub(" ", body)) for body in bodies
    ):
        return FIGURE + "a total (the claims state a figure per share)"
    return None


_RATE_ASKED = re.compile(
    r"\bEPS\b|\bearnings\s+per\s+share\b|"
    r"\bper\s+(?:diluted\s+|basic\s+|common\s+|average\s+|full[- ]time\s+)?"
    r"(?P<noun>shares?|employees?|customers?|users?|stores?|units?|vehicles?|aircraft|"
    r"airplanes?|passengers?|members?|subscribers?|accounts?|outlets?|facilit(?:y|ies)|"
    r"plants?|locations?|head|capita|person|worker|workers)\b",
    re.IGNORECASE,
)
"""A question asking a figure per unit of something counted in a report (not per a time
unit, which is a rate of time: "per year")."""
_PER_SHARE = re.compile(r"\bper\s+(?:[a-z-]+\s+){0,2}shares?\b|\bEPS\b", re.IGNORECASE)
"""A figure per share, as a question or a claim names it."""
_PER_SHARE_FIGURE = re.compile(
    r"\$?\s?\d[\d,.]*\s+per\s+(?:[a-z-]+\s+){0,2}shares?\b", re.IGNORECASE
)
"""A figure a claim states per share ("$7.58 per diluted share")."""
_PER_SHARE_UNIT = re.compile(r"\bexcept\s+(?:for\s+)?per[- ]share\s+\w+", re.IGNORECASE)
"""A table's note on its units ("dollars in millions, except per share amounts")."""
_TOTAL_STATED = re.compile(
    r"\b\d[\d,.]*\s*(?:million|billion|thousand)\b|\b\d{1,3}(?:,\d{3})+\b|\(\s*\d{1,3}(?:,\d{3})+\s*\)",
    re.IGNORECASE,
)
"""A figure of a total as a report states it ("$4.833 billion", "4,833", "(2,297)")."""


def _firm_unnamed(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """The firm a question asks for as the one auditing ("Who audits J&J's financial
    statements?", "PEP auditor?", "Which firm is the independent registered public
    accounting firm of PepsiCo?") when no claim names a firm ("PricewaterhouseCoopers LLP",
    "KPMG LLP"): the claims then state what the audit covered or where its fees are reported.
    Only of claims quoting a report (a filing has an auditor; rules and controls have
    none), and not for an asker speaking as an auditor ("As auditor: may the employee ...").
    As a ``name:`` fact, or None."""
    if not answer or not filed:
        return None
    if _AUDITOR_ASKED.search(_AS_AUDITOR.sub(" ", profile.question)) is None:
        return None
    if any(_FIRM_NAMED.search(_split(text)[0]) for text in answer):
        return None
    return NAME + "the auditing firm (the claims name none)"


_AUDITOR_ASKED = re.compile(
    r"\bauditors?\b(?!\s+(?:judgment|judgement|opinion|report|independence|fees?)\b)|"
    r"\bwho\s+(?:audits|audited|is\s+auditing)\b|"
    r"\b(?:which|what)\s+(?:\w+\s+){0,3}?(?:accounting|audit)\s+firm\b|"
    r"\b(?:which|what)\s+firm\b[^?]*\baccounting\s+firm\b",
    re.IGNORECASE,
)
"""A question asking which firm audits a filer."""
_AS_AUDITOR = re.compile(
    r"\b(?:as|i'?m|i\s+am|we\s+are)\s+(?:an?\s+|the\s+|your\s+)?(?:\w+\s+)?auditors?\b",
    re.IGNORECASE,
)
"""An asker speaking as an auditor ("As an auditor, I need ...", "I'm the internal auditor")."""
_FIRM_NAMED = re.compile(
    r"\b[A-Z][\w&.\'-]*(?:\s+[A-Z&][\w&.\'-]*)*,?\s+(?:LLP|L\.L\.P\.|LLC|Inc\.?|Ltd\.?|PLC|plc|AG|"
    r"GmbH|N\.V\.|S\.A\.|Co\.)(?![\w])|\b[A-Z][\w]+\s*&\s*(?:Co\.|Company)\b"
)
"""A firm's name with its legal form ("KPMG LLP", "Ernst & Young Ltd.")."""


def _amount_missing(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """An amount a question asks by naming what is measured in money alone ("PepsiCo 2022
    restructuring charges under the 2019 Productivity Plan?", "What's the fine for a late
    refresh?") when no claim states an amount of money: the claims then state something
    else about the measured thing (that the plan was extended, when the refresh is due). A
    question asking why, how, whether, who, when or which is left to the other facts, as is
    one whose profile asks another kind of figure. As a ``figure:`` fact, or None."""
    if not answer or profile.answer_type not in ("other", "definition", "amount"):
        return None
    if profile.wants_figure is not None and profile.answer_type != "amount":
        return None
    ask = ask_clause(profile.question) or profile.question
    if _MONEY_MEASURE.search(ask) is None or _NOT_AN_AMOUNT.search(ask) is not None:
        return None
    bodies = [_SECTION_NUMBERING.sub("", _split(text)[0], count=1) for text in answer]
    if any(_AMOUNT_STATED.search(body) for body in bodies):
        return None
    if any(_states_asked_value(profile, body) for body in bodies):
        return None  # the bound of an amount as a share of a stated base
    return FIGURE + "an amount of money (the claims state none)"


_MONEY_MEASURE = re.compile(
    r"\b(?:charges?|expenses?|revenues?|sales|income|fees?|fines?|costs?|prices?|"
    r"penalt(?:y|ies)|earnings|profits?|losses|spending|capex|dividends?|debt)\b",
    re.IGNORECASE,
)
"""Words naming what is measured in money."""
_NOT_AN_AMOUNT = re.compile(
    r"\b(?:why|how|explain|describe|reasons?|drive|drove|driven|drivers?|factors?|happen|"
    r"happens|which|who|whom|whose|where|when|whether|can|could|may|is|are|does|do|did|"
    r"must|should|list|types?|kinds?|policy|policies|treat|treated|treatment|recogni[sz]e[ds]?|"
    r"account\s+for|accounted)\b",
    re.IGNORECASE,
)
"""Words by which a question naming a money measure asks something else than its amount."""
_AMOUNT_STATED = re.compile(
    r"\$\s?\d|\b\d[\d,.]*\s*(?:million|billion|thousand|percent|%)|\b\d{1,3}(?:,\d{3})+\b|"
    r"\(\s*\d[\d,.]*\s*\)|\b\d+\.\d+\b|\b(?:USD|EUR|GBP)\s?\d",
    re.IGNORECASE,
)
"""An amount of money as a claim states it ("$411 million", "4,187", a table's "(5,053)")."""


def _year_unstated(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """A year a figure question asks about ("in 2016 compared with 2015") when the claims,
    quoting a report, date their figures by other years only ("for total year 2015",
    "compared to 28.9 percent in 2014"): the claims give another year's figures, whatever
    period the report quoted covers. As a ``year:`` fact naming the years the claims state
    instead, or None. Claims stating no year are left to the year facts (a table's cell,
    "Net loss, 2022", states its column's year)."""
    if not answer or not filed or profile.wants_figure is None or not profile.years:
        return None
    asked = {_full_year(y) for y in profile.years}
    stated = {y for text in answer for y in _YEAR_STATED.findall(_split(text)[0])}
    unasked = stated - asked
    missing = sorted(asked - stated)
    if not stated or not missing or not unasked:
        return None
    return YEAR + f"{missing[0]} (the claims state {', '.join(sorted(unasked))} instead)"


def _full_year(year: str) -> str:
    """A year as four digits ("FY22", "22" as "2022")."""
    digits = re.sub(r"\D", "", year)
    return digits if len(digits) == 4 else "20" + digits[-2:]


_YEAR_STATED = re.compile(r"(?<![\d$.,])(?:19[5-9]\d|20[0-4]\d)(?!\d|,\d|%|\.\d)")
"""A calendar or fiscal year as a claim states it ("2015", not "$2,015" nor "2015.5")."""


def _region_unasked(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """A region whose figure the claims give ("sales by companies in Europe", "63% of capital
    spending was within the United States") when the question, asking an amount or a share
    from a report, names no region: the claims then give the figure of a part of the filer,
    not of the whole the question asks about. Claims that also give the whole ("worldwide",
    "total", "consolidated") are left to the other facts. As a ``distinct:`` fact, or None."""
    if (
        not answer
        or not filed
        or profile.answer_type not in ("amount", "percentage", "comparison")
        or _REGION.search(profile.question) is not None
    ):
        return None
    bodies = [_split(text)[0] for text in answer]
    if any(_WHOLE.search(body) for body in bodies) or _headcount_answered(profile, bodies):
        # "employed approximately 95,000 people ..., with approximately 40,000 employed in
        # the United States": the whole's number beside its parts'.
        return None
    regions = [m.group(0) for body in bodies for m in _REGION.finditer(body)]
    if not regions:
        return None
    return RIVAL + f"the whole, where the claims give the figure of {regions[0]}"


_REGION = re.compile(
    r"\b(?:Europe(?:an)?|EMEA|United\s+States|U\.\s?S\.|(?-i:US|USA)\b|Asia(?:[- ]Pacific)?|"
    r"Latin\s+America|"
    r"Canada|Middle\s+East|Africa|Japan|China|Americas|North\s+America|"
    r"international(?:ly)?|outside\s+(?:of\s+)?the\s+U)",
    re.IGNORECASE,
)
"""A region a report breaks its figures down by."""


def _segment_unasked(
    profile: QuestionProfile, answer: Sequence[str], segments: Sequence[str]
) -> str | None:
    """A segment's figure given for the filer's whole: a claim opening with one of the
    filing's segments (its row, "PBNA, 2022: 26,213"; its sentence under a running header,
    "Table of Contents PBNA Net revenue increased 4%"; its total, "Total Health Care Business
    Group") when the question asks a figure and names no segment nor a part by its kind. The
    segments are the filing's own (read from its pages), not a list of known names. Claims
    also giving the whole ("consolidated", "worldwide") are left to the other facts. As a
    ``distinct:`` fact, or None."""
    if (
        not answer
        or not segments
        or profile.answer_type not in ("amount", "percentage", "comparison")
        or asks_a_part(profile.question, segments)
    ):
        return None
    bodies = [_RUNNING_HEADER.sub("", _split(text)[0]).lstrip() for text in answer]
    if any(_WHOLE_STATED.search(body) for body in bodies):
        return None
    for body in bodies:
        for name in segments:
            if re.match(rf"(?:Total\s+)?{re.escape(name)}(?![\w&])", body):
                return RIVAL + f"the whole, where the claims give the figure of the segment {name}"
    return None


_RUNNING_HEADER = re.compile(r"^\s*Table\s+of\s+Contents\s*", re.IGNORECASE)
"""A page's running header, which the text of a sentence at the page's top runs on from."""
_WHOLE_STATED = re.compile(r"\b(?:worldwide|consolidated|company-wide)\b", re.IGNORECASE)


_WHOLE = re.compile(r"\b(?:worldwide|total|consolidated|global(?:ly)?)\b", re.IGNORECASE)
"""A claim giving the filer's whole figure beside its regions'."""


_WITHOUT_ASKED = re.compile(r"\bwithout\s+(?P<case>(?:[A-Za-z][\w'-]*\s+){0,2}[A-Za-z][\w'-]*)")
"""The case a question sets ("without showing identification", "without prior approval")."""
_CASE_ADVERBS = frozenset(
    re.findall(r"\w+", "first again further ever yet still now also too anybody anyone someone")
)
"""Words after "without" that name no case ("without asking first", "without asking anyone")."""


_HEAD_ASKED = re.compile(
    r"\b(?P<wh>which|what)\s+(?P<head>(?:[A-Za-z][\w'-]*,?\s+){0,3}?[A-Za-z][\w'-]*),?\s+"
    r"(?:does|do|did|is|are|was|were|must|should|shall|can|could|may|might|will|would|has|"
    r"have|had|[a-z]+(?:s|ed)\s+(?:the|a|an|its|their|our|your|his|her)\b)",
    re.IGNORECASE,
)
"""A question asking for a thing by its kind, up to its verb ("what fine does", "which TLS
version is", "which contractor shreds the ...")."""
_HEAD_STOPS = frozenset(
    re.findall(
        r"\w+",
        "a an the this that these those it its is are was were be been do does did has have "
        "had if when of to for in on at by with about from as not no",
    )
)
"""Words that show the match is no "which X" ask ("what is the ...", "which of the ...")."""
_HEAD_FRAME = frozenset(
    terms(
        "kind kinds type types sort sorts form forms amount amounts number numbers percentage "
        "percent share figure figures time times date dates day days period periods rule rules "
        "requirement requirements step steps thing things information detail details way ways "
        "situation situations case cases condition conditions circumstance circumstances "
        "action actions measure measures exactly specific specifically particular other else "
        "minimum maximum exact precise value values level levels limit limits threshold "
        "thresholds deadline deadlines frequency timeframe timeframes timeline turnaround "
        "mechanism mechanisms obligation obligations duty duties point points occasion "
        "occasions choice choices option options event events measure measures"
    )
)
"""Words that say what kind of answer is wanted, not what it is about (the kind of figure is
the kind fact's, ``_kind_missing``)."""


_ACTOR_ASKED = re.compile(
    r"^\W*(?:who|whom|whose)\b|\bwhose\s+(?:approval|consent|sign-?off)\b|"
    r"\b(?:which|what)\s+(?:officer|person|role|body|party|committee|department|team|"
    r"individual|function|authority)\b",
    re.IGNORECASE,
)
"""A question asking who: an officer, a body, a party."""
_ACTOR_STATED = re.compile(
    r"\b(?:officers?|heads?|chief|directors?|managers?|management|committees?|board|teams?|"
    r"leaders?|departments?|compliance|employees?|staff|personnel|roles?|owners?|members?|"
    r"servicers?|creditors?|lenders?|institutions?|providers?|organi[sz]ations?|auditors?|"
    r"agenc(?:y|ies)|bureau|bank|customers?|consumers?|applicants?|borrowers?|complainants?|"
    r"persons?|individuals?|supervisors?|users?|administrators?|mlro|officials?|"
    r"representatives?|agents?|issuers?|trustees?|government|authorit(?:y|ies)|counsel|"
    r"controller|secretary|president|ombudsman|regulators?|parties|party|entity|entities)\b",
    re.IGNORECASE,
)
"""Words naming someone who acts (a role, an officer, a body, a party)."""


_FREQUENCY_ASKED = re.compile(
    r"\bhow\s+(?:often|frequently)\b|\bfrequency\b|\bhow\s+many\s+times\b|\bcycle\b|"
    r"\binterval\b",
    re.IGNORECASE,
)
"""A question asking how often something recurs."""
_LIMIT_ASKED = re.compile(
    r"\bhow\s+(?:long|soon|quickly|much\s+time)\b|\bwithin\s+(?:how|what)\b|\bby\s+when\b|"
    r"\bdeadline\b|\btime\s+limit\b|\bwaiting\s+period\b|"
    r"\bhow\s+many\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b",
    re.IGNORECASE,
)
"""A question asking for a time limit or a period (how long, by when), not how often."""
_FREQUENCY_STATED = re.compile(
    r"\b(?:every|each)\s+(?:(?:other|calendar|business|full|\d+|[a-z]+)\s+){0,2}?"
    r"(?:day|week|month|quarter|year|hour|minute)s?\b|"
    r"\b(?:annually|monthly|quarterly|weekly|daily|yearly|hourly|biennially|semi-?annually|"
    r"periodically|continuously)\b|"
    r"\b(?:once|twice|\w+\s+times)\s+(?:a|an|per|in|during|each|every)\b|"
    r"\bper\s+(?:day|week|month|quarter|year)\b|\bfrequency\b",
    re.IGNORECASE,
)
"""A frequency a sentence states ("at least every 6 months", "annually", "once in each
calendar year", "[Assignment: organization-defined frequency]")."""


def _alternative_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The alternatives a question offers ("before or after the lease is signed?", "in
    writing or orally?") when no claim states either of them (nor a word of the same
    meaning): the claims then state another rule of the same act (what the disclosure
    itemizes, not when it is given). As a ``kind:`` fact, or None."""
    if not answer:
        return None
    asked = _ALTERNATIVES_ASKED.search(profile.question)
    if asked is None:
        return None
    bodies = "\n".join(_split(text)[0] for text in answer)
    for word in (asked.group(1), asked.group(2)):
        key = re.sub(r"\s+", " ", word.lower())
        if re.search(_ALTERNATIVE_FORMS.get(key, rf"\b{re.escape(key)}"), bodies, re.IGNORECASE):
            return None
    return KIND + f"{asked.group(0).lower()} (the claims state neither)"


_ALTERNATIVE_WORDS = (
    r"(before|after|written|oral|orally|verbal|verbally|monthly|annually|yearly|quarterly|daily|"
    r"weekly|in\s+writing|in\s+person|online|electronically|electronic|paper)"
)
_ALTERNATIVES_ASKED = re.compile(
    rf"\b{_ALTERNATIVE_WORDS}\s+or\s+{_ALTERNATIVE_WORDS}\b", re.IGNORECASE
)
"""A question offering two alternatives of when or how ("before or after", "written or oral")."""
_ALTERNATIVE_FORMS = {
    "before": r"\b(?:before|prior\s+to|in\s+advance|earlier|at\s+the\s+time|not\s+later)\b",
    "after": r"\b(?:after|following|later|subsequent|once|upon)\b",
    "written": r"\bwrit|\bin\s+writing\b",
    "in writing": r"\bwrit|\bin\s+writing\b",
    "oral": r"\b(?:oral|verbal|telephone|phone)",
    "orally": r"\b(?:oral|verbal|telephone|phone)",
    "verbal": r"\b(?:oral|verbal|telephone|phone)",
    "verbally": r"\b(?:oral|verbal|telephone|phone)",
    "electronic": r"\belectronic",
    "electronically": r"\belectronic",
    "online": r"\b(?:online|electronic|website|internet)",
    "annually": r"\b(?:annual|yearly|every\s+(?:12\s+months|year))",
    "yearly": r"\b(?:annual|yearly|every\s+(?:12\s+months|year))",
}
"""Words stating one of the alternatives, by the alternative asked."""


def _frequency_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """A frequency a question asks, also as one of several things ("PEP: risk rating, kyc
    refresh freq, cdd record retention?"), when no claim states any recurrence ("every 12
    months", "annually", "at least once", "again"): the claims then state another rule of
    the same thing (that the refresh's outcome is recorded). :func:`_kind_missing` reads a
    single time ask; this one reads any. As a ``kind:`` fact, or None."""
    if not answer or _FREQUENCY_WORD.search(profile.question) is None:
        return None
    if _kind_missing(profile, answer) is not None:
        return None  # that fact says so
    bodies = [_split(text)[0] for text in answer]
    if any(_FREQUENCY_STATED.search(b) or _RECURRENCE.search(b) for b in bodies):
        return None
    return KIND + "a frequency (how often), where the claims state none"


_FREQUENCY_WORD = re.compile(
    r"\bhow\s+(?:often|frequently)\b|\bfrequency\b|\bfreq\b|\bcadence\b|"
    r"\bhow\s+many\s+times\b",
    re.IGNORECASE,
)
"""A question asking how often, in full or tersely ("refresh freq", "review cadence")."""
_RECURRENCE = re.compile(
    r"\bat\s+least\s+(?:once|every)\b|\bagain\b|\bperiod\b|\bregular(?:ly)?\b", re.IGNORECASE
)
"""Words stating a recurrence without a unit ("again", "at least once", "each period")."""


def _time_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """A time a question asks, also by a noun the profile does not read as a time question
    ("pre-clearance request - turnaround time for Compliance?", "deadline to ..."), when no
    claim states any time at all: no figure of time or date, and no word placing the act in
    time ("promptly", "before", "annually", "until", "time period"). The claims then state
    another rule of the same act (that a request may be refused). As a ``kind:`` fact, or
    None."""
    if not answer or _TIME_NOUN_ASKED.search(profile.question) is None:
        return None
    for body in (_split(text)[0] for text in answer):
        if (
            has_figure(body, "quantity", "duration")
            or has_figure(body, "date")
            or _TIME_SAID.search(body)
            or _states_asked_value(profile, body)
        ):
            return None
    return KIND + "a time (the claims state none)"


_TIME_NOUN_ASKED = re.compile(
    r"\bturn-?around\b|\bdeadline\b|\btime\s*frames?\b|\btimelines?\b|\btime\s+limits?\b|"
    r"\bhow\s+(?:long|soon|quickly|fast)\b|\bby\s+when\b|\bwithin\s+(?:how|what)\b|"
    r"\bhow\s+many\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b|"
    r"\bhow\s+often\b|\bfrequency\b|\bfreq\b|\bcadence\b",
    re.IGNORECASE,
)
"""A question asking a time, by its interrogative or by a noun ("turnaround", "deadline")."""
_TIME_SAID = re.compile(
    r"\b(?:permanently|indefinitely|immediately|promptly|without\s+(?:undue\s+)?delay|annually|"
    r"monthly|quarterly|weekly|daily|yearly|hourly|biennially|periodically|continuously|ongoing|"
    r"before|prior\s+to|after|until|upon|when|once|twice|times|frequency|period|term|expir\w*|"
    r"end\s+of|date|days?|weeks?|months?|years?|hours?|minutes?|time)\b",
    re.IGNORECASE,
)
"""Words placing an act in time without a figure ("promptly", "before the account is opened",
"[Assignment: organization-defined time period]")."""


def _act_unstated(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """The act a time question asks the time of ("how long do we have to phone the
    complainant?", "deadline to respond to the referral?") when no claim states it, nor a word
    that can name the same act (:func:`~evidencegate.lexicon.act_senses`: "notify" by "tell",
    "check" by "review", "redo" by "refresh", in any of WordNet's senses). The claims then
    state the time of another act of the same matter (the acknowledgement's, not the call's).
    Words of a name inside a sentence ("the Final Response") state no act. An act asked by a
    verb of sending ("send the adverse action notice") is stated by any verb of sending or by
    an act its object names ("notify"). Not of filings (their figures are no acts' times). As a
    ``kind:`` fact naming the act, or None."""
    if not answer or filed or _ACT_TIME_ASKED.search(profile.question) is None:
        return None
    bodies = [_NAME_INSIDE.sub(" ", _split(text)[0]) for text in answer]
    said = set(re.findall(r"[a-z]+", " ".join(bodies).lower()))
    for match in _ACT_ASKED.finditer(profile.question):
        act = (match.group("a") or match.group("b") or match.group("c") or "").lower()
        if act in _ASPECT_VERBS:
            act = _aspect_act(profile.question[match.end() :])
        if not act or act in _NO_ACT_VERBS or act.endswith("ly"):
            continue
        if _act_said(act, said):
            continue
        if act in _SENDING_VERBS:
            if said & _SENDING_VERBS or {stem(w) for w in said} & _SENDING_STEMS:
                continue
            following = re.findall(r"[a-z]+", profile.question[match.end() :].lower())[:6]
            objects = [w for w in following if w not in _OBJECT_SKIPPED][:3]
            if any(act_senses(w) and _act_said(w, said) for w in objects):
                continue
        return KIND + f"the act asked ({act}; the claims time another act)"
    return None


_ASPECT_VERBS = frozenset(
    ["begin", "start", "commence", "finish", "complete", "end", "stop", "cease", "resume"]
)
"""Verbs of a phase of another act ("must the bank finish to determine ...", "start
sending"): the act asked is the one they govern."""
_GOVERNED = re.compile(r"\s+(?:to\s+(?P<to>[a-z][a-z-]+)|(?P<ing>[a-z][a-z-]+ing)\b)")


def _aspect_act(rest: str) -> str:
    """The act a verb of a phase governs in ``rest``, the words after it ("to determine" ->
    "determine", "sending" -> "sending"); "" when it governs none (then no act is asked)."""
    governed = _GOVERNED.match(rest.lower())
    if governed is None:
        return ""
    return governed.group("to") or governed.group("ing") or ""


def _act_said(act: str, said: set[str]) -> bool:
    """Whether words of the claims state ``act``: a form of it (a shared stem, "notif" of
    "notify" and "notification"), a word of one of its act groups, or, for a verb no group
    knows, nothing to tell by (then it counts as said); or a word whose synonyms in the
    project's lexicon hold a form of it ("acknowledgement": "confirm receipt")."""
    stemmed = stem(act)
    forms = {stemmed, stemmed[: max(5, len(stemmed) - 2)]}
    if any(stem(w).startswith(f) for w in said for f in forms):
        return True
    if any(t.startswith(f) for w in said for t in _synonym_terms(w) for f in forms):
        return True
    senses = act_senses(act)
    return not senses or any(not senses.isdisjoint(act_senses(w)) for w in said)


@lru_cache(maxsize=16384)
def _synonym_terms(word: str) -> frozenset[str]:
    """The terms of the lexicon's synonyms of ``word`` (stemmed as :func:`terms` writes them)."""
    return frozenset(t for member in synonyms_of(terms(word)) for t in terms(member))


_ACT_TIME_ASKED = re.compile(_TIME_NOUN_ASKED.pattern + r"|^\W*when\b", re.IGNORECASE)
"""A question asking a time ("how long", "deadline", "when ...")."""
_ACT_ASKED = re.compile(
    r"\b(?:has|have|need|needs|ought|required|allowed|supposed|got)\s+to\s+(?:be\s+)?"
    r"(?P<a>[a-z][a-z-]+)|"
    r"\b(?:must|shall|should)\s+(?:the\s+|a\s+|an\s+|we\s+|i\s+|they\s+|it\s+)?"
    r"(?:[a-z]+\s+){0,2}?(?P<b>[a-z][a-z-]+)"
    r"(?=\s+(?:the|a|an|its|their|them|it|to|my|our|his|her|back|out|up)\b)|"
    r"\b(?:deadline|time|days|long|quickly|soon|weeks|months|hours)\s+(?:\w+\s+){0,3}?to\s+"
    r"(?P<c>[a-z][a-z-]+)",
    re.IGNORECASE,
)
"""The act a time question asks of ("have to phone", "must the servicer send the ...",
"deadline to respond")."""
_NO_ACT_VERBS = frozenset(
    [
        "be",
        "do",
        "make",
        "get",
        "have",
        "take",
        "go",
        "use",
        "give",
        "keep",
        "put",
        "let",
        "see",
        "come",
        "happen",
        "occur",
        "last",
        "remain",
        "stay",
        "run",
        "wait",
        "lapse",
        "continue",
        "persist",
        "live",
        "exist",
        "hold",
    ]
)
"""Verbs naming no act of their own (light verbs) or the time itself ("how long must a lease
last", "how long do we have to wait")."""
_SENDING_VERBS = frozenset(
    [
        "send",
        "mail",
        "post",
        "provide",
        "deliver",
        "submit",
        "issue",
        "forward",
        "furnish",
        "return",
        "file",
        "lodge",
        "hand",
        "supply",
        "transmit",
        "email",
        "fax",
        "serve",
    ]
)
"""Verbs of sending something to someone: the act is what is sent."""
_SENDING_STEMS = frozenset(stem(w) for w in _SENDING_VERBS)
_OBJECT_SKIPPED = frozenset(
    [
        "the",
        "a",
        "an",
        "its",
        "their",
        "them",
        "it",
        "my",
        "our",
        "his",
        "her",
        "this",
        "that",
        "these",
        "those",
        "any",
        "all",
        "each",
        "every",
        "to",
        "of",
        "in",
        "on",
        "for",
        "from",
        "with",
        "by",
        "at",
        "as",
    ]
)


def _timed_act_rival(profile: QuestionProfile, claims: Sequence[str], filed: bool) -> str | None:
    """A time question's act ("how long to resolve a notice of error?", "investigation
    deadline") when every time limit the claims state limits another act: the one the limit
    binds in its sentence ("shall acknowledge ... within 5 days" binds acknowledging, not
    resolving). A limit binds the predicate it follows (a modal verb: "shall provide", "must
    be escalated", and those coordinated before it with no other limit between), or, opening
    the sentence ("Within five days of ..., the servicer shall provide"), the first predicate
    after it, with the words of its object ("send ... a written acknowledgement"); a light
    verb binds the act after the limit ("may take up to 45 days ... to investigate"). The
    event a limit counts from ("after completing its investigation", "of receiving the
    complaint") is no act it limits. The check stands down when any word of a bound act may
    name the act asked (:func:`_may_name_one_act`: a word family, WordNet, the lexicon; an
    act of sending by any verb of sending or by the act of what it sends), and when a claim
    states a limit whose act it cannot find ("shall comply with paragraph (e)", "is valid
    for"). As a ``kind:`` fact, or None."""
    if not claims or filed or _ACT_TIME_ASKED.search(profile.question) is None:
        return None
    asked = _timed_acts_asked(profile.question)
    if not asked:
        return None
    bound_any = False
    for claim in claims:
        for bound in _limited_acts(claim):
            if not bound:
                return None  # a limit of a predicate not found: nothing to tell by
            bound_any = True
            if any(_act_bound(act, sent, bound) for act, sent in asked):
                return None
    if not bound_any:
        return None
    return KIND + f"the act asked ({asked[0][0]}; the claims' time limits bind another act)"


def _act_bound(act: str, sent: Sequence[str], bound: frozenset[str]) -> bool:
    """Whether the words a limit binds may name ``act``; an act of sending (with the words of
    what it sends, ``sent``) by any verb of sending or by an act what is sent names ("send the
    adverse action notice" by "notify")."""
    if any(_may_name_one_act(act, word) for word in bound):
        return True
    if act not in _SENDING_VERBS:
        return False
    return any(stem(word) in _SENDING_STEMS for word in bound) or any(
        _may_name_one_act(thing, word) for thing in sent for word in bound
    )


def _timed_acts_asked(question: str) -> list[tuple[str, tuple[str, ...]]]:
    """The acts a time question asks the time of, as written ("resolve", "investigation"):
    verbs after a modal or "to" ("have to phone", "get to evaluate"), the verb a phase verb
    governs ("finish to determine"), and a noun of an act naming a time limit ("error
    investigation deadline", "deadline for resolution"); none of light verbs. Each with the
    words of what it sends, for an act of sending ("file the external report": ``external``,
    ``report``), else none."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for pattern in (_ACT_ASKED, _TIMED_ACT_ASKED):
        for match in pattern.finditer(question):
            groups = [g for g in match.groups() if g]
            act = groups[0].lower() if groups else ""
            if act in _ASPECT_VERBS or act in _ATTEMPT_VERBS:
                act = _aspect_act(question[match.end() :])
            if (
                not act
                or act in _NO_ACT_VERBS
                or act.endswith("ly")
                or act in _OBJECT_SKIPPED
                or act in _PARTICLES
                or not act_senses(act)
            ):
                continue
            sent: tuple[str, ...] = ()
            if act in _SENDING_VERBS:
                following = re.findall(r"[a-z]+", question[match.end() :].lower())[:6]
                sent = tuple([w for w in following if w not in _OBJECT_SKIPPED][:3])
            found.append((act, sent))
    return list(dict.fromkeys(found))


_PARTICLES = frozenset(["out", "up", "back", "off", "in", "on", "over", "through", "away", "down"])
"""Particles of a phrasal verb ("go out"): no act of their own."""
_ATTEMPT_VERBS = frozenset(["try", "attempt", "seek", "endeavour", "endeavor"])
"""Verbs of trying another act ("have to try to speak"): the act asked is the one tried."""
_TIMED_ACT_ASKED = re.compile(
    r"\b(?:how\s+(?:long|soon|quickly|many\s+(?:\w+\s+)?(?:days?|weeks?|months?|hours?))|"
    r"deadline|time\s*limit|time\s*frame)\s+(?:\w+\s+){0,5}?to\s+(?P<v>[a-z][a-z-]+)|"
    r"\b(?P<n>[a-z]{4,}(?:ion|ment|al|ance|ence))\s+(?:deadline|time\s*limit|time\s*frame|"
    r"turn-?around)\b|"
    r"\b(?:deadline|time\s*limit|time\s*frame|turn-?around)\s+(?:for|to|of)\s+"
    r"(?:(?:the|an?|our|my|their|its|your)\s+)?(?P<f>[a-z]{4,})\b|"
    r"\b(?:must|shall|should|will|does|do)\s+(?:the|a|an|our|we|i|they|it|you)\s+"
    r"(?:[A-Za-z-]+\s+){0,4}?(?P<m>(?-i:[a-z][a-z-]+))"
    r"(?=\s+(?:the|a|an|its|their|them|it|to|my|our|his|her|any|every|each|all)\b)",
    re.IGNORECASE,
)
"""Acts a time question asks by other words than :data:`_ACT_ASKED` ("how long does the
servicer get to evaluate", "investigation deadline", "deadline for our answer", "must the
Chief Data Officer investigate a ...": a verb in lower case after the subject's words)."""


def _limited_acts(claim: str) -> list[frozenset[str]]:
    """For each time limit ``claim`` states, the words of the act it binds (empty when no
    predicate is found): see :func:`_timed_act_rival`."""
    text = _unbracketed(claim)
    limits = list(_TIME_FIGURE.finditer(text))
    predicates = list(_PREDICATE.finditer(text))
    if not predicates and limits:
        # A list item opening with its verb ("Reports the results ... within three business
        # days"; "Notify the borrower in writing within 5 days").
        opening = _OPENING_VERB.match(text)
        if opening and act_senses(opening.group("v")):
            predicates = [opening]
    result: list[frozenset[str]] = []
    previous_end = 0
    for limit in limits:
        before = [p for p in predicates if previous_end <= p.start() < limit.start()]
        if not before:
            before = [p for p in predicates if p.start() >= limit.end()][:1]
        words: set[str] = set()
        for predicate in before:
            verb = predicate.group("v").lower()
            if verb in _GENERIC_ACTS:
                return [frozenset()]  # "shall comply with ... (e)": the act is elsewhere
            if verb in _NO_ACT_VERBS:
                # "may take up to 45 days ... to investigate": the act follows the limit.
                words |= set(_object_words(limit.group("tail") + text[limit.end() :]))
            elif act_senses(verb):
                words.add(verb)
            else:
                continue  # "shall not be liable": no act
            stop = limit.start() if predicate.start() < limit.start() else len(text)
            words |= set(_object_words(text[predicate.end() : stop]))
        result.append(frozenset(words))
        previous_end = limit.end()
    return result


_GENERIC_ACTS = frozenset(["comply", "meet", "satisfy", "perform", "fulfil", "fulfill", "act"])
"""Verbs binding the act of a rule they refer to ("shall comply with paragraph (e)")."""
_PREDICATE = re.compile(
    r"\b(?:shall|must|may|will|should|cannot|can|could|(?:is|are)\s+required\s+to|"
    r"(?:has|have|need|needs)\s+to)"
    r"\s+(?:not\s+)?(?:[a-z]+ly\s+)?(?:be\s+)?(?:[a-z]+ly\s+)?(?P<v>[a-z][a-z-]+)",
    re.IGNORECASE,
)
"""A predicate under a modal ("shall provide", "must be escalated", "is required to send")."""
_OPENING_VERB = re.compile(
    r"\s*(?:\(?[0-9ivxA-Za-z]{1,4}[.)]\s+|[0-9]+(?:\.[0-9]+)+\s+)?(?:[A-Z][a-z]+ly\s+)?"
    r"(?P<v>[A-Z][a-z]+)\b"
)
"""The verb opening a list item, after its number ("(iv) Reports", "a. Notify")."""


def _object_words(rest: str) -> list[str]:
    """The words of a predicate's object: up to the clause's end, at most eight."""
    clause = re.split(r"[,;:]", rest, maxsplit=1)[0]
    words = [w for w in re.findall(r"[a-z][a-z-]+", clause.lower()) if w not in _OBJECT_SKIPPED]
    return words[:8]


def _same_family(asked: str, said: str) -> bool:
    """Whether two written words name one act as word families: a shared stem ("respond",
    "response"), a form of :func:`related_forms` ("resolve", "resolution"; "pay", "paid")."""
    a, b = (stem(w.lower().replace("dgement", "dgment")) for w in (asked, said))
    forms_a = {stem_form(a)} | related_forms(a)
    forms_b = {stem_form(b)} | related_forms(b)
    if not forms_a.isdisjoint(forms_b):
        return True
    return any(x.startswith(y[: max(5, len(y) - 2)]) for x in forms_a for y in forms_b) or any(
        y.startswith(x[: max(5, len(x) - 2)]) for x in forms_a for y in forms_b
    )


def _may_name_one_act(asked: str, said: str) -> bool:
    """Whether two written words may name one act: one word family (:func:`_same_family`),
    a shared act group of WordNet in any sense (:func:`~evidencegate.lexicon.act_senses`:
    "tell" and "disclose", "redo" and "refresh") or a synonym in the project's lexicon
    ("confirm" and "acknowledgement", "update" and "refresh"). Broad on purpose: a word pair
    either source links is no proof of another act, and the check must then stand down."""
    if _same_family(asked, said):
        return True
    senses = act_senses(asked)
    if senses and not senses.isdisjoint(act_senses(said)):
        return True
    a, b = stem(asked.lower())[:5], stem(said.lower())[:5]
    return any(t.startswith(a) for t in _synonym_terms(said)) or any(
        t.startswith(b) for t in _synonym_terms(asked)
    )


_NAME_INSIDE = re.compile(r"(?<=[a-z,;(] )[A-Z][a-z]+(?:\s+(?:of\s+|and\s+)?[A-Z][a-z]+)*")
"""A name inside a sentence ("the Final Response", "the Banking Ombudsman Service")."""


def _company_unnamed(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The company a question asks for ("Which company did Amcor acquire on May 31, 2023 ...?",
    "Which business was taken over ...?") when no claim names one: no capitalized word inside
    a sentence that the question does not use, other than words of any report ("the
    Company", "Note", a month) and adjectives of a country ("Russian"). The claims then state
    the deal's terms or another deal, not the company. As a ``name:`` fact, or None."""
    if not answer or _COMPANY_ASKED.search(profile.question) is None:
        return None
    if _organization_described("\n".join(_split(text)[0] for text in answer)):
        return None  # "a medical device packaging manufacturing site in Shanghai"
    asked = {w.lower() for w in re.findall(r"[A-Za-z][\w&'’-]*", profile.question)}
    for body in (_split(text)[0] for text in answer):
        for match in _INNER_CAPITAL.finditer(body):
            word = match.group(1).rstrip(".")
            if (
                word not in _REPORT_CAPITALS
                and word.lower() not in asked
                and _NATIONALITY.fullmatch(word) is None
            ):
                return None
    return NAME + "the company asked for (the claims name none)"


_COMPANY_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:(?!(?:is|are|was|were|does|do|did|has|have|can|may|must|should)\b)"
    r"[a-z-]+\s+)?(?:company|companies|business|businesses|firm|entity|entities|subsidiary|brand)\b"
    r"(?!\s+(?:days?|hours?|units?|segments?|lines?|purposes?|models?|reasons?|combinations?|"
    r"practices?|activit))|\bwho\s+did\s+\w+\s+(?:acquire|buy|purchase)\b",
    re.IGNORECASE,
)
"""A question asking which company (not "which business day", "what business segment")."""
_INNER_CAPITAL = re.compile(r"(?<=[a-z,;:(] )([A-Z][\w&'’.-]+)")
"""A capitalized word inside a sentence (after a lower-case word or a comma): a name."""
_REPORT_CAPITALS = frozenset(
    re.split(
        r"\s+",
        "The Company Company’s Company's Inc Group Corporation In On As For Our We This That "
        "These Board Directors Note Notes Total Net Fiscal Year Annual Report Form See Item "
        "United States January February March April May June July August September October "
        "November December U.S. US",
    )
)
"""Capitalized words any report uses of itself and its filer, dates and places of filing."""
_NATIONALITY = re.compile(r"[A-Z][a-z]+(?:ian|ese|ish|can)")
"""An adjective of a country ("Russian business"): no company's name."""


def _organization_described(text: str) -> bool:
    """Does ``text`` describe an organization by what it is ("a New Zealand based leading
    manufacturer of ... machines", "a Czech Republic company that operates ...", "a medical
    device packaging manufacturing site")? A filing names a small acquired business so: the
    description answers "which business", as a name would. Not a bare "a company"."""
    return _ORGANIZATION_DESCRIBED.search(text) is not None


_ORGANIZATION_NOUN = (
    r"(?:manufacturer|maker|producer|provider|developer|supplier|distributor|company|business|"
    r"firm|operator|site|plant|facility|retailer|designer)s?"
)
_ORGANIZATION_DESCRIBED = re.compile(
    rf"\b(?:a|an)\s+(?:[\w,%-]+\s+){{1,8}}?{_ORGANIZATION_NOUN}\b", re.IGNORECASE
)
"""An indefinite description of an organization with at least one word saying which."""
_ORGANIZATION_KINDS = frozenset(
    terms("business businesses company companies firm firms entity entities subsidiary target")
)
"""The kind words by which a question asks which organization ("which business did ...")."""


def _submeasure_unasked(profile: QuestionProfile, answer: Sequence[str], filed: bool) -> str | None:
    """A part or kind of a filing's measure that every claim states of its figure and the
    question does not ask ("per share", "fair value", "excluding ...", "adjusted",
    "noncontrolling"): the claims then give another measure of the same row ("financial
    assets measured at fair value" for "total assets", an amount per share for a total).
    Not a table's unit header ("(Dollars in millions, except per share data)") nor a widening
    coordination ("property, plant and equipment, and other intangible assets"). Only of
    claims quoting a report, for a question asking an amount. As a ``distinct:`` fact, or
    None."""
    if not answer or not filed:
        return None
    if profile.answer_type not in ("amount", "percentage", "comparison", "count"):
        return None
    bodies = [re.sub(r"\([^()]*\)", " ", _split(text)[0]) for text in answer]
    for name, pattern in _SUBMEASURES:
        if re.search(pattern, profile.question, re.IGNORECASE):
            continue
        narrowed = [
            re.sub(rf"\b(?:and|or)\s+(?:other\s+)?{pattern}", " ", b, flags=re.IGNORECASE)
            for b in bodies
        ]
        if all(re.search(rf"\b{pattern}\b", b, re.IGNORECASE) for b in narrowed):
            return RIVAL + f"{name} (the claims state a measure the question does not ask)"
    return None


_SUBMEASURES = (
    ("per share", r"per\s+(?:diluted\s+|basic\s+|common\s+)?share"),
    ("fair value", r"fair\s+value"),
    ("intangible", r"intangible"),
    ("excluding", r"excluding"),
    ("adjusted", r"adjusted"),
    ("organic", r"organic"),
    ("constant currency", r"constant\s+currency"),
    ("noncontrolling", r"non-?controlling"),
    ("discontinued", r"discontinued"),
    ("pro forma", r"pro\s+forma"),
    ("before income taxes", r"before\s+income\s+taxes|pre-?tax"),
    ("per unit", r"per\s+unit"),
)
"""Parts and kinds of a filing's measure a figure may be stated of, by name and pattern."""


def _anchor_rival(
    profile: QuestionProfile, answer: Sequence[str], evidence: Sequence[Passage]
) -> str | None:
    """The event a time question counts from ("how soon after crediting ...", "once the
    complainant accepts ...") when the claims' time figures count from another event and a
    sentence of the evidence states the asked kind of figure counted from it: the claims then
    state a neighbouring time limit of the same provision ("within three business days after
    completing its investigation" for "how soon after the provisional crediting"). As a
    ``distinct:`` fact naming the event's words the claims' figures miss, or None."""
    if profile.answer_type not in ("duration", "date") or not answer:
        return None
    match = _ANCHOR_ASKED.search(profile.question)
    if match is None:
        return None
    named = {t for n in profile.names for t in terms(n)}
    event = [
        t
        for t in dict.fromkeys(terms(match.group("event")))
        if t not in named and t not in _LIGHT_WORDS and not t[:1].isdigit()
    ]
    if not event:
        return None
    bodies = [_split(text)[0] for text in answer]
    claimed = max(_counted_from(event, body)[0] for body in bodies)
    figures = {
        _time_figure(m) for body in bodies for m in _TIME_FIGURE.finditer(_unbracketed(body))
    }
    if claimed >= _ANCHOR_SHARE:
        return None
    asked = shares(profile.terms)
    said = max(asked([*terms(body), *terms(place)]) for body, _, place in map(_split, answer))
    own = "\n".join(bodies)
    # Sentences of the evidence counting the asked kind of figure from the asked event, as
    # close to the rest of the question as the claims (or stating half of it): their figures.
    bound: list[str] = []
    for passage in evidence:
        place = terms(_place(passage))
        for sentence in _sentences(passage.text):
            if sentence in own or not profile.states_figure(sentence):
                continue
            share, figure = _counted_from(event, sentence)
            if share > max(claimed, _ANCHOR_SHARE - _EPSILON) and (
                asked([*terms(sentence), *place]) >= min(said, _ANCHOR_SHARE)
            ):
                bound.append(figure)
    # A claim stating a figure such a sentence binds to the event states the asked time,
    # even if not bound to it there (the same 25 months counted from another event).
    if not bound or figures & set(bound):
        return None
    tails = [t for body in bodies for t in _figure_tails(body)]
    unstated = [t for t in event if not covered_share(_inflected([t], tails), tails)]
    return RIVAL + " ".join(unstated or event)


def _predicate_rival(
    profile: QuestionProfile, answer: Sequence[str], evidence: Sequence[Passage]
) -> str | None:
    """The act a question asks about ("can the holding period be waived", "who has to be
    notified") when the claims (read in their place) do not state it and another sentence of
    the evidence does, as close to the rest of the question as the claims: the claims then
    state the base rule, or another item of the list, beside the sentence asked about. As a
    ``distinct:`` fact naming the act, or None."""
    if not answer:
        return None
    written = {
        t: m.group("active") or m.group("passive")
        for m in _PREDICATE_ASKED.finditer(profile.question)
        for t in _based(terms(m.group("active") or m.group("passive")))
        if t not in _LIGHT_WORDS and t not in _ASKING_FRAME and t not in _LIGHT_ACTS
    }
    if not written:
        return None
    said = _based([t for text in answer for t in terms(text)])
    keys = text_keys(said)
    unstated = [a for a in written if not unit_matched(_unit(_inflected([a], said)[0]), keys, said)]
    if not unstated:
        return None
    asked = shares(profile.terms)
    claimed = max(asked([*terms(body), *terms(place)]) for body, _, place in map(_split, answer))
    own = "\n".join(_split(text)[0] for text in answer)
    # A figure question is answered by a sentence stating the figure; a question naming a
    # period without asking how long ("can the holding period be waived") asks no figure.
    figure = profile.wants_figure is not None and (
        profile.answer_type not in ("duration", "date") or _asks_time(profile.question)
    )
    for passage in evidence:
        place = terms(_place(passage))
        for sentence in _sentences(passage.text):
            if sentence in own or (figure and not profile.states_figure(sentence)):
                continue
            have = _based(terms(sentence))
            have_keys = text_keys(have)
            if (
                all(unit_matched(_unit(a), have_keys, have) for a in _inflected(unstated, have))
                and asked([*have, *place]) >= claimed
            ):
                return RIVAL + " ".join(written[a].lower() for a in unstated)
    return None


def _asks_time(question: str) -> bool:
    """Does ``question`` ask a time: how long, how often, when, by what date?"""
    return any(p.search(question) for p in (_FREQUENCY_ASKED, _LIMIT_ASKED, _WHEN_ASKED))


_WHEN_ASKED = re.compile(
    r"\bwhen\b|\b(?:what|which)\s+(?:date|day|deadline|time|period)\b|\bfor\s+how\s+long\b",
    re.IGNORECASE,
)
"""A question asking when, or for which date or period."""


_PREDICATE_ASKED = re.compile(
    r"\b(?:(?:has|have|need|needs|ought)\s+to|required\s+to)\s+(?:be\s+)?(?P<active>[a-z][a-z-]+)"
    r"|\bbe\s+(?P<passive>[a-z][a-z-]+(?:ed|en)|kept|held|paid|made|sent|told|sold|bought|"
    r"met|found|built|shown|known|taken|given|done|seen)\b",
    re.IGNORECASE,
)
"""The act a question asks about where it is unmistakably a verb: after "has to", "need to"
or "required to", or as a passive participle ("must be waived", "be notified")."""
_LIGHT_ACTS = frozenset(
    terms("be do done doing did make made get got have has had take taken go use used able")
)
"""Verbs that carry no act of their own ("who can do it", "what has to be done")."""


_ANCHOR_ASKED = re.compile(
    r"\b(?:after|once|following|upon|since)\s+(?P<event>[^,;?]+?)"
    r"(?=\s*(?:[,;?]|$)|\s+(?:must|shall|should|does|do|did|can|may|will|would|how|what|when|"
    r"within)\b)",
    re.IGNORECASE,
)
"""The event a time question counts from: "how soon after crediting must ...", "Once the
complainant accepts our offer, within what time ..."."""
_ANCHOR_SHARE = 0.5
"""How much of the asked event the words after a claim's time figure must state."""
_EPSILON = 1e-9
_TIME_FIGURE = re.compile(
    r"\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|forty-five|sixty|ninety)(?:st|nd|rd|th)?[\s-]+(?:\(\d+\)\s+)?"
    r"(?:(?:business|calendar|working|full)\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?)\b"
    r"(?P<tail>[^,;:()\n]*)",
    re.IGNORECASE,
)
"""A time figure and the words after it up to the clause's end ("within 10 business days of
receiving the error notice"): what the time is counted from."""


def _figure_tails(text: str) -> list[str]:
    """The terms after each time figure of ``text``, up to the clause's end."""
    return [t for m in _TIME_FIGURE.finditer(_unbracketed(text)) for t in terms(m.group("tail"))]


def _counted_from(event: Sequence[str], text: str) -> tuple[float, str]:
    """How much of ``event`` the words after one of the time figures of ``text`` state at
    most, and that time figure ("" when none states any of it)."""
    best, figure = 0.0, ""
    for match in _TIME_FIGURE.finditer(_unbracketed(text)):
        tail = terms(match.group("tail"))
        share = covered_share(_inflected(event, tail), tail) if tail else 0.0
        if share > best:
            best, figure = share, _time_figure(match)
    return best, figure


def _time_figure(match: re.Match[str]) -> str:
    """A time figure as its terms, its number in digits ("25 month", "2 business day")."""
    said = terms(match.group(0)[: match.start("tail") - match.start()])
    return " ".join(_NUMBER_WORDS.get(t, t) for t in said)


_NUMBER_WORDS = {
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
    "sixty": "60",
    "ninety": "90",
}
"""Number words a time figure is written with, as digits."""


def _unbracketed(text: str) -> str:
    """``text`` without its parentheses: "For 25 months (12 months for business credit)
    after the date that ..." counts the 25 months from that date."""
    while (bare := _BRACKETED.sub(" ", text)) != text:
        text = bare  # the innermost first: "(12 months ... paragraph (b)(5) of this section)"
    return text


_BRACKETED = re.compile(r"\([^()]*\)")


def _focus_unrivalled(
    profile: QuestionProfile,
    focus: Sequence[str],
    answer: Sequence[str],
    evidence: Sequence[Passage],
) -> bool:
    """Do the claims (``answer``, read in their place) answer the question although they do
    not state some of its ``focus`` words? Yes when they state (nearly) all of its other
    words, and every evidence sentence (read in its place) that states a focus word they miss
    states fewer of the question's words than they do: a focus word stated only where the
    evidence speaks of something else is the asker's own ("a household lease", "the patch
    deadline"); one stated by a sentence as close to the question as the claims is evidence
    that they answer another question ("first lien", "currency transaction")."""
    if not answer:
        return False
    # Names are checked as names: a claim naming the asked brand ("Gatorade") is not thereby
    # closer to the question than a sentence stating the asked measure ("net revenues").
    named = {t for n in profile.names for t in terms(n)}
    asked = [t for t in dict.fromkeys(profile.terms) if t not in named]
    said = [t for text in answer for t in terms(text)]
    keys = text_keys(said)
    unstated = [w for w in focus if not unit_matched(_unit(w), keys, said)]
    skip = {*focus, *_LIGHT_WORDS, *_ASKING_FRAME, *PERIOD_WORDS}
    rest = [t for t in asked if t not in skip]
    if not unstated or not rest or covered_share(rest, said) < _FOCUS_REST:
        return False
    share = shares(asked)
    claimed = share(said)
    units = [_unit(w) for w in unstated]
    for passage in evidence:
        place = terms(_place(passage))
        for sentence in _sentences(passage.text):
            have = terms(sentence)
            have_keys = text_keys(have)
            if any(unit_matched(u, have_keys, have) for u in units) and (
                share([*have, *place]) >= claimed
            ):
                return False
    return True


_FOCUS_REST = 0.75
"""How much of the rest of the question (its words beside the focus) claims must state for a
focus word no rival sentence states to count as the asker's own."""


def _body_terms(text: str) -> list[str]:
    """The terms of ``text``, with the words its symbols stand for ("$54,600" states a dollar
    figure, "5%" a percent): "what dollar cap" is answered by "$53,000"."""
    return list(_body_term_tuple(text))


@lru_cache(maxsize=4096)  # pure; both critic phases read the same passages and sentences
def _body_term_tuple(text: str) -> tuple[str, ...]:
    said = terms(text)
    said += [word for symbol, word in _SYMBOL_WORDS if symbol.search(text)]
    return tuple(said)


_SYMBOL_WORDS = (
    (re.compile(r"(?:\bUS)?\$\s?\d"), "dollar"),
    (re.compile(r"\d\s?%"), "percent"),
)


def _split(text: str) -> tuple[str, str, str]:
    return text.partition(_PLACE)


def _focus_stated(wanted: Sequence[str], body: Sequence[str], place: set[str]) -> bool:
    wanted, body, place = _based(wanted), _based(body), set(_based(list(place)))
    wanted = _derived(wanted, [*body, *place])
    rest = [w for w in wanted if w not in place]
    return not rest or covered_share(rest, body) >= 0.5


def _based(said: Sequence[str]) -> list[str]:
    """``said`` with each irregular past form as its verb ("kept" as "keep"), and "vs" as
    "compared"."""
    return list(_based_terms(tuple(said)))


@lru_cache(maxsize=1024)  # pure; every fact is weighed against the same texts and claims
def _based_terms(said: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_IRREGULAR_PAST.get(t, t) for t in said)


_IRREGULAR_PAST = {
    past: base
    for base, forms in (
        ("keep", "kept"),
        ("hold", "held"),
        ("pay", "paid"),
        ("make", "made"),
        ("send", "sent"),
        ("get", "got gotten"),
        ("take", "took taken"),
        ("buy", "bought"),
        ("sell", "sold"),
        ("bring", "brought"),
        ("find", "found"),
        ("meet", "met"),
        ("spend", "spent"),
        ("lend", "lent"),
        ("build", "built"),
        ("choose", "chose chosen"),
        ("know", "knew known"),
        ("show", "shown"),
        ("begin", "began begun"),
        ("write", "wrote"),
    )
    for past in forms.split()
} | {word: "compar" for word in ("vs", "versu", "compare", "comparison")}
"""Irregular past forms the light stemmer leaves as they are, and their verbs; and the words
setting two figures side by side ("2022 vs 2021"), as "compared" (a comparison's claim: "19.1%
in 2022 compared with 20.8% in 2021")."""


def _inflected(wanted: Sequence[str], have: Sequence[str]) -> list[str]:
    """Each of ``wanted`` as ``have`` inflects it ("disabled" is stemmed "disabl", "disable"
    "disable"), or as it is."""
    forms, stated = _stem_forms(tuple(have))
    return [w if w in stated else forms.get(stem_form(w), w) for w in wanted]


def _derived(wanted: Sequence[str], have: Sequence[str]) -> list[str]:
    """:func:`_inflected`, then :func:`_related`."""
    return _related(_inflected(wanted, have), have)


def _related(wanted: Sequence[str], have: Sequence[str]) -> list[str]:
    """Each of ``wanted`` that ``have`` states only in another part of speech as ``have`` writes
    it ("how long are records retained" of "retention", "who is responsible" of
    "responsibility": :func:`evidencegate.lexicon.related_forms`), the rest as they are. For the
    accepting side of the topic and focus facts alone: a question's word that the evidence
    states as its noun or verb is stated."""
    forms, stated = _stem_forms(tuple(have))
    out: list[str] = []
    for word in wanted:
        related = (
            []
            if word in stated or stem_form(word) in forms
            else sorted(r for r in related_forms(word) if r in forms)
        )
        out.append(forms[related[0]] if related else word)
    return out


@lru_cache(maxsize=1024)  # pure; every fact of a question is weighed against the same texts
def _stem_forms(have: tuple[str, ...]) -> tuple[dict[str, str], frozenset[str]]:
    """Each stem form of ``have`` to its last term of that form, and the terms so kept."""
    forms = {stem_form(t): t for t in have}
    return forms, frozenset(forms.values())


def _edit_audit(
    claim: Claim, quotes: str, evidence_ids: list[str], *, prefix: str
) -> ClaimAudit | None:
    """The audit of a claim stating something its quotes have no counterpart for, or None."""
    quoted = text_keys(terms(quotes))
    edits = [
        e
        for e in find_edits(claim.text, EvidenceText(quotes))
        if not (e.kind in _SYNONYMOUS_EDITS and _synonym_quoted(e.text, quoted))
    ]
    if not edits:
        return None
    contradicted = any(e.kind in _CONTRADICTING_EDITS for e in edits)
    return ClaimAudit(
        claim_id=claim.claim_id,
        verdict=Verdict.CONTRADICTED if contradicted else Verdict.NOT_FOUND,
        evidence_ids=evidence_ids,
        reason=prefix + "; ".join(e.describe() for e in edits),
        support_score=0.0,
    )


def _synonym_quoted(words: str, quoted: set[str]) -> bool:
    """Do the quotes state a synonym of ``words`` (a member of one of its lexicon groups)?"""
    groups = {k for k in text_keys(terms(words)) if k.startswith("~")}
    return bool(groups & quoted)


def _lexical_support(claim: str, quotes: str) -> float:
    """Share of the claim's content terms found in the quotes (0..1)."""
    claim_terms = terms(claim)
    return round(weighted_overlap(claim_terms, terms(quotes), {}), 6)


_PLACE = "\n\u2063place\u2063\n"
"""Separates a passage's text from its place (label, heading path, title) in the texts the
critic reads: a figure must be stated in the text, the topic may be named by the place."""


def _place(passage: Passage) -> str:
    return passage.context or passage.title


def _ranked_texts(evidence: Sequence[Passage]) -> list[str]:
    """The texts (:func:`_placed`) of the passages ranked for the question, from which its
    required facts are derived: not those the retriever brought only to complete a list
    (:attr:`Passage.completes`, a lead-in for its item, an item for its lead-in). Which of the
    question's words tell the evidence apart (the focus share, :func:`focus_terms`) is the
    ranking's to say; a list's other part, which states its partner's words again or none of
    the question's, would change that share without changing what was found."""
    return [_placed(p) for p in evidence if p.completes is None]


def _headings_above(text: str, quote: str) -> str:
    """The heading path a passage's own text sets above ``quote`` (its Markdown headings,
    each outranking the ones after it), "" when the quote is not found or none precede it."""
    at = text.find(quote[:80]) if quote else -1
    if at <= 0:
        return ""
    path: list[tuple[int, str]] = []
    for match in _HEADING.finditer(text, 0, at):
        level = len(match.group(1))
        path = [(lv, h) for lv, h in path if lv < level] + [(level, match.group(2).strip())]
    return "\n".join(h for _, h in path)


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+)$", re.MULTILINE)


def _cell_of(text: str, quote: str, claim: str) -> tuple[TableCell, str] | None:
    """The table cell whose row ``quote`` quotes in ``text`` (the passage's page text) and
    whose value and year ``claim`` states, and where the cell stands: its table's title and
    the heading its row runs on from; None when the quote is no such row of a year-columned
    table there."""
    at = text.find(quote[:80]) if quote else -1
    if at < 0:
        return None
    said = _numbers(claim)
    cells = table_cells(text)
    for cell in cells:
        if cell.row_start == at and _numbers(cell.value) & said and str(cell.year) in said:
            where = (_table_heading(text, cell), cell.heading)
            # A column prints its money sign on its first row and its total only ("$ 343"
            # over "30"): a cell of such a column is in dollars when its row names an amount
            # of money ("... expense - liability awards"; not "Average shares outstanding").
            dollars = cell.dollars or (
                "%" not in cell.value
                # (or whose block does: "Outdoor" under "Operating Profit")
                and _MONEY_MEASURE.search(f"{cell.name or cell.label} {cell.block}") is not None
                and _LABEL_UNIT.search(cell.label) is None
                and any(
                    c.dollars and c.header_start == cell.header_start and c.column == cell.column
                    for c in cells
                )
            )
            return replace(cell, dollars=dollars), "\n".join(w for w in where if w)
    return None


def _cell_value(cell: TableCell) -> str:
    """A cell's value as its table states it: with its column's money sign, or the unit its
    row's label gives in brackets ("Expected life (in years)" 7.0: 7.0 years)."""
    value = cell.value
    if cell.dollars and "$" not in value:
        value = "$" + value
    if unit := _LABEL_UNIT.search(cell.label):
        value += " " + unit[1].lower()
    return value


def _measure_computed(claim: Claim, profile: QuestionProfile) -> str:
    """The derived measure the question asks for, when the claim's derivation is the lexicon's
    definition of it ("Total current assets" less "Total current liabilities": the working
    capital asked), as text read beside the claim; '' otherwise."""
    derivation = claim.derivation
    found = defined_measure(profile.question)
    if derivation is None or found is None:
        return ""
    labels = [operand.label.rpartition(",")[0] or operand.label for operand in derivation.operands]
    name = found[0].name
    return f"\n{name}." if name in measures_defined(derivation.operation.value, labels) else ""


_LABEL_UNIT = re.compile(r"\(\s*in\s+(years|months|weeks|days)\s*\)", re.IGNORECASE)
"""A time unit a row's label gives its cells ("Expected life (in years)")."""


def _table_heading(text: str, cell: TableCell) -> str:
    """The title of the cell's table (:func:`table_title`), read past a unit line the header
    line opens with ("(Dollars in millions, except" before its years) to the line above it."""
    title = table_title(text, cell)
    if title[:1].islower():
        return _sentence_read_whole(text, title, cell.header_start)
    if not title.startswith("("):
        return title
    line_start = text.rfind("\n", 0, cell.header_start) + 1
    for line in reversed(text[:line_start].splitlines()[-_TITLE_LINES:]):
        words = line.split()
        if not words or words[0].startswith("("):
            continue  # a unit line
        if _TABLE_ROW.search(line) or line.rstrip().endswith("."):
            break  # a row or a sentence of what stands above the table
        if words[0][:1].islower():
            return _sentence_read_whole(text, line, line_start)
        return " ".join(words)
    return ""


def _sentence_read_whole(text: str, tail: str, before: int) -> str:
    """A title line that ends a sentence wrapped over the lines above it ("follows:" under
    "A comparison of income tax expense at the U.S. statutory rate ... is as"), read from the
    sentence's first line: the sentence introducing the table says what it is of."""
    at = text.rfind(tail, 0, before)
    if at < 0:
        return tail
    lines = [tail]
    for line in reversed(text[: text.rfind("\n", 0, at) + 1].splitlines()[-_TITLE_LINES:]):
        words = line.split()
        if not words or _TABLE_ROW.search(line) or line.rstrip().endswith((".", ":")):
            break  # the sentence before, or a row of the table above
        lines.insert(0, " ".join(words))
        if words[0][:1].isupper():
            break  # the sentence's first line
    return " ".join(lines)


_TITLE_LINES = 3
_TABLE_ROW = re.compile(r"\d[\d,.]*\s*\)?%?\s*$")
"""A line ending in a figure: a row of the table above, no title."""


def _placed(passage: Passage) -> str:
    return passage.text + _PLACE + _place(passage)


def _topic_terms(profile: QuestionProfile, texts: Sequence[str]) -> list[str]:
    """The question's terms the evidence states somewhere, itself or by a synonym (all of
    them when it states none)."""
    have = [t for text in texts for t in terms(text)]
    keys = text_keys(have)
    present = [t for t in profile.terms if unit_matched(_unit(t), keys, have)]
    return present or list(profile.terms)


def _focus(
    profile: QuestionProfile, texts: Sequence[str], names: Sequence[str] | None = None
) -> list[str]:
    """The question's focus terms (:func:`focus_terms`) over the evidence texts' bodies;
    ``names`` are the question's names checked as names (its profile's by default)."""
    # Names are checked as names, where they stand.
    named = {t for n in (profile.names if names is None else names) for t in terms(n)}
    term = asked_term(profile.question)
    if term is not None and any(
        defines(s.text, term) for t in texts for s in split_sentences(t.partition(_PLACE)[0])
    ):
        # "Who counts as elderly under the credit rules?", the evidence defining "elderly": the
        # term whose meaning is asked is what the answer (its definition) must state; the rest
        # of the question only says where it is asked.
        return [t for t in terms(term) if t not in named]
    # Period words ("this year", "most recently reported") are checked as the period; words
    # that frame a compliance question ("what does the control require") are no detail of it.
    # Numbers are checked as numbers ("enhancement 1" names IA-5(1)).
    numbers = {t for t in profile.terms if t[:1].isdigit()}
    return focus_terms(
        profile.terms,
        [terms(t.partition(_PLACE)[0]) for t in texts],
        # Nor is the word asking for a proportion ("what share of its revenues").
        exclude=named
        | numbers
        | PERIOD_WORDS
        | _ASKING_FRAME
        | _LIGHT_WORDS
        # A financial figure's asking verb ("how much did it spend on R&D") no row states,
        # nor where it stands ("on its balance sheet"), nor who asks ("Customer asks: how
        # much ...").
        | _asking_words(profile)
        | _proportion_words(profile)
        | _provision_asking(profile),
    )


def _provision_outtitled(
    profile: QuestionProfile, supported_ids: set[str], evidence: Sequence[Passage]
) -> str | None:
    """For a question asking which provision says something, the provision another retrieved
    passage is of, when its title states more of what is asked (:func:`provision_subject`)
    than the title and statement of every provision the supported claims quote
    (:func:`provision_fit`), as a missing fact; None otherwise. "Which control is segregation
    of duties?" is not answered by SC-7(20) "Dynamic Isolation and Segregation" when AC-5
    "Separation of Duties" was retrieved."""
    subject = provision_subject(profile)
    cited = [p for p in evidence if p.passage_id in supported_ids]
    if not subject or not cited:
        return None
    weights = subject_weights(subject, evidence)
    answered = max(provision_fit(p, subject, weights)[1] for p in cited)
    own = {provision_key(p) for p in cited}
    best, rival = 0.0, ""
    for passage in evidence:
        key = provision_key(passage)
        if key in own:
            continue
        titled = provision_fit(passage, subject, weights)[0]
        if titled > best:
            best, rival = titled, key[2]
    if best <= answered:
        return None
    return ASKED + f"the provision whose title states what is asked ({rival}), not the one quoted"


def _title_named_rival(
    profile: QuestionProfile, supported_ids: set[str], evidence: Sequence[Passage]
) -> str | None:
    """A provision the question names by its whole title ("For the contingency plan testing
    control, what ...": CP-4 "Contingency Plan Testing") when the supported claims quote a
    neighbour whose title shares fewer of the question's words (CP-2 "Contingency Plan"), and
    that provision was retrieved: the claims answer from the neighbouring control. Only for a
    question naming no provision by its label ("CP-4", "§ 1024.35"): a label says which it
    is. A title of one word names nothing by itself. As a ``question:`` fact, or None."""
    if _LABEL_NAMED.search(profile.question):
        return None
    cited = [p for p in evidence if p.passage_id in supported_ids]
    if not cited:
        return None
    said = set(profile.terms)
    answered = max(len(_title_words_said(p, said)[0]) for p in cited)
    own = {provision_key(p) for p in cited}
    for passage in evidence:
        if provision_key(passage) in own:
            continue
        stated, title = _title_words_said(passage, said)
        if len(title) >= 2 and len(stated) == len(title) and len(title) > answered:
            return ASKED + (
                f"the provision whose whole title the question names "
                f"({provision_key(passage)[2]}), not the one quoted"
            )
    return None


_LABEL_NAMED = re.compile(r"\b[A-Z]{2}-\d|§|\b\d{3,4}\.\d")
"""A provision's label in a question ("AC-2", "§ 1024.35", "1002.9")."""
_TITLE_GLUE = frozenset(terms("and or of the for to a an in on with by"))


def _title_words_said(passage: Passage, said: set[str]) -> tuple[list[str], list[str]]:
    """The words of the title of the provision ``passage`` is of (:func:`provision_title`,
    without "and", "of"...) that ``said`` states, itself or by a form of its family, and all
    of them."""
    title = [t for t in dict.fromkeys(provision_title(passage)) if t not in _TITLE_GLUE]
    stated = [t for t in title if t in said or any(stem_form(w) in related_forms(t) for w in said)]
    return stated, title


def _provision_asking(profile: QuestionProfile) -> frozenset[str]:
    """The words by which a question asks which provision says something ("which section of
    Regulation X covers escrow accounts": ``section``, ``cover``), not what it is about
    (:func:`provision_subject`): the answer names the provision, and states its subject."""
    subject = provision_subject(profile)
    if not subject:
        return frozenset()
    return frozenset(profile.terms) - frozenset(subject)


def _proportion_words(profile: QuestionProfile) -> frozenset[str]:
    """The words by which a question asks for a proportion ("what share of its revenues"),
    when it asks for one ("why did cost rise as a share of sales" asks for a reason)."""
    if profile.answer_type not in PROPORTION_TYPES:
        return frozenset()
    return proportion_words(profile.question)


_ASKING_FRAME = (
    frozenset(
        terms(
            "demand demands say says state states control enhancement provision provisions "
            "section paragraph"
        )
    )
    | REQUIRING_WORDS
)
"""What a question says about the kind of text it asks of ("what does control AC-11
require", "process isolation requirement?", "what does the section say"), not what it asks
about."""


_REQUEST_WORDS = frozenset(terms("kindly please provide tell give"))
"""Words requesting a figure ("Kindly provide", "Please tell me"): no detail of it."""
_FIGURE_ASKING = (
    frozenset(
        terms(
            "much many spend spent spending make made earn earned post posted book booked "
            "generate generated carry carried hold held went balance sheet year-end recognize "
            "recognized company company-wide companywide consolidated whole entire"
        )
    )
    | _REQUEST_WORDS
)
"""How a question asks for an amount or a count ("how much did it spend on", "how many
segments", "what did it carry on its balance sheet"): verbs and places no table row states; nor
the words asking for the company's own figure ("company-wide", "for all the company",
"consolidated"), which its statements give without saying so."""
_FIGURE_TYPES = frozenset({"amount", "percentage", "comparison", "count"})


def _asking_words(profile: QuestionProfile) -> frozenset[str]:
    """The words by which a question asks, not what it asks about: a financial figure's asking
    verb and place and who asks (:data:`_FIGURE_ASKING`, :func:`_asker`), and the verb by which
    a filer is asked to have reported it ("what charges did PepsiCo record": the filing states
    "Restructuring and impairment charges")."""
    words = frozenset(_reported_verb(profile.question)) | _frame_words(profile)
    if profile.answer_type in _FIGURE_TYPES:
        words |= _FIGURE_ASKING | _asker(profile.question)
    return words


def _frame_words(profile: QuestionProfile) -> frozenset[str]:
    """The words by which a question says where its answer is to be read ("according to
    Boeing's FY2022 10-K", "per the annual report", "in its FY2022 10-K") and whose the thing
    asked about is ("the airline industry that Boeing depends on"): the source and the asker's
    tie of the filer to the thing, not what the answer states about it."""
    question = profile.question
    words = [t for m in _SOURCE_LEAD.finditer(question) for t in terms(m.group("lead"))]
    words += [t for m in _SOURCE_DOC.finditer(question) for t in terms(m.group("doc"))]
    words += _purpose_words(question)
    named = {t for name in profile.names for t in terms(name)}
    for match in _HOLDER_CLAUSE.finditer(question):
        if set(terms(match.group("holder"))) <= named:
            words += terms(match.group("verb"))
    return frozenset(words)


_SOURCE_LEAD = re.compile(
    r"\b(?P<lead>according\s+to|as\s+(?:stated|reported|disclosed|described|noted)\s+(?:in|by))\b",
    re.IGNORECASE,
)
"""A source frame's lead ("according to", "as reported in"): where to read, not what."""
_SOURCE_DOC = re.compile(
    r"\b(?:according\s+to|per|in|from|by|under)\s+(?:(?:the|its|their|[\w&'’.-]+['’]s?)\s+){0,3}?"
    r"(?P<doc>(?:(?:fy\s?)?'?\d{2,4}\s+|fiscal\s+(?:year\s+)?\d{4}\s+|latest\s+|newest\s+|"
    r"most\s+recent\s+|recent\s+)*(?:form\s+)?(?:10-?[kq]|annual\s+report|(?:annual\s+)?filings?|"
    r"earnings\s+release))\b",
    re.IGNORECASE,
)
"""A filing named as the source ("in its FY2022 10-K", "per the annual report")."""


def _purpose_words(question: str) -> list[str]:
    """The terms of a purpose opening the question ("For an inventory turnover calculation,
    give me ..."): why the asker asks; the words the ask says too ("... and its closing
    inventories") stay what is asked."""
    if (purpose := _PURPOSE_OPENING.match(question)) is None:
        return []
    asked = set(terms(question[purpose.end() :]))
    return [t for t in terms(purpose.group("purpose")) if t not in asked]


_PURPOSE_OPENING = re.compile(
    rf"\s*for\s+(?:an?|my|our)\s+(?P<purpose>(?:[\w&/'-]+\s+){{0,4}}?{PURPOSE_NOUN})\s*[:;,–—-]",
    re.IGNORECASE,
)
"""A purpose opening the question that question analysis leaves in ("For an inventory
turnover calculation, give me ..."): no detail of what is asked."""
_HOLDER_CLAUSE = re.compile(
    r"\b(?:that|which)\s+(?P<holder>(?:[A-Z][\w&'’.-]*\s+){1,3}?)"
    r"(?P<verb>[a-z]+(?:s|ed))\b(?:\s+(?:on|upon|in|to|with|from|for))?"
)
"""A clause tying a named filer to what is asked about ("the airline industry that Boeing
depends on"): which thing is meant, not what is asked of it."""


def _states_time(text: str) -> bool:
    """Does ``text`` state a time: a number of days (months, years ...), a date, or a time
    the organization sets ("within [Assignment: organization-defined time period]")?"""
    return (
        _TIME_FIGURE.search(text) is not None
        or any(_TIME_PARAMETER.search(m.group()) for m in _PARAMETER_SET.finditer(text))
        or has_figure(text, "date")
    )


def _reported_verb(question: str) -> list[str]:
    """The terms of the verb by which a question asks what a filer did report ("What charges
    did PepsiCo record", "How much did J&J's segment sell"): no row of its statements says it."""
    return [t for m in _REPORTED.finditer(question) for t in terms(m.group("verb"))]


_REPORTED = re.compile(
    r"\bdid\s+(?:[\w&'’.-]+\s+){1,6}?"
    r"(?P<verb>record|report|book|recogni[sz]e|incur|post|pay|spend|sell|expense|generate|earn|"
    r"disclose|show|log)\b",
    re.IGNORECASE,
)
_TIME_TYPES = frozenset({"duration", "date"})
_TIME_ASKING = frozenset(terms("deadline deadlines due time timing timeframe"))
"""Nouns asking for a time ("the refund deadline", "within what time"): the answer states the
time ("within 3 business days"), not the word. Not "how long" or "how soon": "long after
payment" is what the time is counted from."""


def _asker(question: str) -> frozenset[str]:
    """The words of a short tag before the ask saying who asks or for whom ("Customer asks:
    how much ...", "For the CFO: what was ..."): no detail of what is asked."""
    tag, colon, ask = question.partition(":")
    if not colon or len(tag.split()) > _ASKER_WORDS or _ASK_OPENING.match(ask) is None:
        return frozenset()
    return frozenset(terms(tag))


_ASKER_WORDS = 3


_ASK_OPENING = re.compile(
    r"\s*(?:how|what|which|when|who|whose|where|why|is|are|was|were|does|do|did|can|give|"
    r"list|provide|tell)\b",
    re.IGNORECASE,
)
"""Answer types of a financial figure, which a table row may state."""

_LIGHT_WORDS = frozenset(
    terms("someone somebody anyone anybody make makes get gets know knows need needs want wants")
)
"""Words that carry the asking, not a detail of what is asked ("what does IA-2(1) make
mandatory", "when do users have to get it", "do creditors need to keep"): a sentence need
not state them. Not "requirement(s)": "SR-2 SCRM plan requirements" was then answered by the
plan's sibling paragraph."""


def _unit(term: str) -> frozenset[str]:
    """A single question term as a unit to match (the term and its synonym groups)."""
    return match_units([term])[0]


def _required_facts(profile: QuestionProfile, texts: Sequence[str] = ()) -> list[str]:
    """The facts an answer must establish: its topic, names, years, numbers and figure.

    The topic fact lists the question's terms; an audit then asks the claims for those of them
    that the evidence states (``texts``), since no claim can state a word no source uses.
    """
    facts = [TOPIC + " ".join(profile.terms)] if profile.terms else []
    if sum(t[:1].isalpha() for t in profile.terms) < 2 and not profile.names:
        # "gift' OR 1=1 --" names one word and no name: nothing says what is asked.
        facts.append(ASKED + "what is asked (the question names a single word)")
    # An opening word the evidence writes in lower case ("Gross profit of ...?") is a word of
    # the topic, not a name: the claims must state it where it tells sentences apart (focus).
    named = [_ordinary_opening(n, profile.question, texts) for n in profile.names]
    names = [
        n
        for n in named
        if not _ordinary_word(n, profile.question, texts, named)
        and not _asker_named(n, profile.question, named)
    ]
    if focus := _focus(profile, texts, names):
        facts.append(FOCUS + " ".join(focus))
    facts += [NAME + n for n in names]
    # An appendix the question cites ("appendix B of 12 CFR part 1002"): a rule's appendices
    # are alike (model forms in B, sample notices in C), only the letter tells them apart.
    facts += [NAME + a for a in dict.fromkeys(_APPENDIX.findall(profile.question))]
    # A year naming the rules or filing asked about (``as_of_years``) is established by
    # quoting them (RulesCritic._year_in_force); any other by a sentence speaking of it.
    facts += [YEAR + y for y in profile.years]
    facts += [NUMBER + n for n in profile.numbers]
    # A clause-level ask ("how long ..., and how many years ...") or a noun phrase of a
    # several-thing ask ("the acknowledgment deadline and the response deadline"): each part.
    facts += [PART + " ".join(part) for part in profile.parts or profile.conjoined]
    if profile.negated_case:
        facts.append(CASE + "the case the question asks about (something that does not happen)")
    if profile.wants_figure:
        facts.append(FIGURE + "a stated figure or date answering the question")
    return facts


def _possessive_words(profile: QuestionProfile) -> frozenset[str]:
    """The terms a name of the question leaves in its possessive form that the name alone
    does not ("J&J's" reads "j", "J&J" nothing): a piece of whose figure it is, not of what
    is measured."""
    return frozenset(t for n in profile.names for t in terms(f"{n}'s") if t not in set(terms(n)))


_APPENDIX = re.compile(r"\b[Aa]pp(?:endix|\.)\s+[A-Z](?:-\d+)?(?![\w-])")


def _follow_up_query(profile: QuestionProfile, missing: Sequence[str]) -> str:
    extra = [f.split(": ", 1)[1] for f in missing if f.startswith((YEAR, NUMBER))]
    return " ".join([*profile.terms, *extra]).strip() or profile.question


def _sentences(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)]


def _numbers(text: str) -> set[str]:
    """The numbers a text states, a compound's too ("180-day" states 180)."""
    found = {t for t in terms(text) if t[:1].isdigit()}
    return found | {t.split("-", 1)[0] for t in found if "-" in t}


def _speaks_of_year(sentence: str, year: int) -> bool:
    period = sentence_period(sentence)
    if period is not None and period.end != dt.date.max:
        return period.overlaps_year(year)
    if period is not None and period.start.year == year:
        return True
    # An open period ("as of December 31, 2018 ... was $617 million") dates what it states;
    # it speaks of a later year only by naming it.
    return str(year) in sentence


def _change_unstated(
    profile: QuestionProfile, answer: Sequence[str], claims: Sequence[Claim]
) -> str | None:
    """The change of one figure a question asks ("how much percent did net revenue grow in
    2022 vs 2021", "total backlog increase in dollars", "SG&A growth 2022 over 2021") when no
    claim computes it and none states one ("increased $603 million", "grew 1.3%"): the claims
    then state the figure's values (two bare values are the change's operands, not the
    change), or another figure of the same sentence ("156,000 and 142,000 with 13% and 12%
    located outside of the U.S." for headcount growth). As a ``figure:`` fact, or None."""
    if not answer or profile.answer_type in _NO_CHANGE_TYPES:
        return None  # "Are employees permitted to use contracts for difference?"
    if _CHANGE_WORD.search(profile.question) is None:
        return None  # "the difference in ...": a change asked is a change of a figure
    if not asks_change(derivation_request(profile.question, profile)):
        return None
    if any(
        claim.derivation is not None
        and claim.derivation.operation in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE)
        for claim in claims
    ):
        return None
    if any(_CHANGE_STATED.search(text) for text in answer):
        return None
    return FIGURE + "the change asked (the claims state no change)"


_NO_CHANGE_TYPES = frozenset({"yes_no", "definition", "list", "entity", "reason", "date"})
"""Answer types no change of a figure answers (whatever words the question uses)."""
_CHANGE_WORD = re.compile(
    r"\b(?:change[sd]?|chang(?:ing)|grow|grew|grown|growth|increase[sd]?|decrease[sd]?|"
    r"decline[sd]?|rise|rose|risen|fall|fell|fallen|drop(?:ped)?|(?:go|goes|went|gone)\s+"
    r"(?:up|down))\b",
    re.IGNORECASE,
)
"""A change asked of a figure."""
_CHANGE_STATED = re.compile(
    r"\b(?:increas|decreas|grow|grew|growth|declin|rose|rise|rising|fell|fall|drop|chang|"
    r"improv|reduc|lower|higher|up|down)\w*\b[^.;\n]{0,60}?\d|"
    r"\d[\d,.]*\s*(?:%|percent|million|billion)?\s+(?:\w+\s+){0,2}?"
    r"(?:increase|decrease|growth|decline|rise|drop|change)\b",
    re.IGNORECASE,
)
"""A change stated with its figure ("increased by $150 million, or 1%", "a 3.5% increase",
"Sales change analysis: ... (0.9)%")."""


def _headcount_unstated(profile: QuestionProfile, answer: Sequence[str]) -> str | None:
    """The number of people a filer employs, asked for the whole ("global headcount", "how
    many employees worldwide"), within the United States or outside it, when no claim states
    a number of people of that scope: the claims then state a share of the workforce ("13%
    located outside of the U.S."), a number of something else ("in over 15 languages"),
    another scope's number ("315,000 people worldwide, including 132,000 within the United
    States" for those outside it), or people hired or surveyed. A question asking of a part
    of the workforce by another trait (union members, women, new hires) or a share of it is
    left to the other facts. As a ``figure:`` fact, or None."""
    scope = _headcount_scope(profile)
    if not answer or scope is None:
        return None
    for text in answer:
        body = _split(text)[0]
        for _, _, after in _people_counts(body):
            if _count_scope(after) == scope:
                return None
    where = {"outside": "outside the country", "inside": "in the country", "whole": "in all"}
    return FIGURE + f"the number of people employed {where[scope]} (the claims state none)"


def _headcount_scope(profile: QuestionProfile) -> str | None:
    """The scope of the number of people a filer employs that the question asks ("whole",
    "inside" the United States, "outside" it), or None when it asks no head count, or one of
    a part of the workforce by another trait, a share of it or a change of it."""
    ask = ask_clause(profile.question) or profile.question
    if HEADCOUNT_ASKED.search(ask) is None or _SUBGROUP_ASKED.search(ask):
        return None
    if profile.answer_type == "percentage":
        return None
    if OUTSIDE_US.search(ask):
        return "outside"
    return "inside" if INSIDE_US.search(ask) and not WHOLE_COMPANY.search(ask) else "whole"


def _count_scope(after: str) -> str:
    """The scope of a number of people, from the words after it ("55,000 employed
    internationally"): a count naming no place is of the whole filer."""
    if OUTSIDE_US.search(after):
        return "outside"
    return "inside" if INSIDE_US.search(after) else "whole"


def _headcount_answered(profile: QuestionProfile, texts: Sequence[str]) -> frozenset[str]:
    """The question's words of a head count ("workforce", "headcount", "employees") and of its
    scope ("global", "worldwide", "total", "outside", "internationally") when a sentence of
    ``texts`` states, for the asked period, the number of people employed in the asked scope
    (:func:`_headcount_scope`): "employed approximately 95,000 people" states the global
    headcount, "55,000 employed internationally" the workforce outside the U.S. Empty when the
    question asks no head count or no sentence states one of its scope. Other words of the
    question (a part of the filer named before the noun) are left to be stated."""
    scope = _headcount_scope(profile)
    if scope is None:
        return frozenset()
    for text in texts:
        for sentence in _sentences(_split(text)[0]):
            period = sentence_period(sentence)
            if period is not None and not period.overlaps(profile.target):
                continue
            if any(_count_scope(after) == scope for _, _, after in _people_counts(sentence)):
                return frozenset(t for t in profile.terms if t in _HEADCOUNT_WORDS)
    return frozenset()


_HEADCOUNT_WORDS = frozenset(
    terms(
        "headcount head-count head count workforce employees employee staff people persons "
        "workers employed employ personnel count number size global globally worldwide total "
        "overall international internationally abroad overseas foreign non-US outside "
        "domestic domestically United States US U.S."
    )
)
"""Words naming a number of people employed and its scope: a sentence stating the number of
the asked scope states them (:func:`_headcount_answered`)."""

_SUBGROUP_ASKED = re.compile(
    r"\b(?:unions?|unionized|bargaining|hired?|hires|hiring|new|women|female|males?|veterans?|"
    r"minorit\w*|attrition|turnover|resign\w*|trained|training|engage\w*|particip\w*|"
    r"survey\w*|volunteer\w*|per|percent\w*|%|share|proportion|ratio|rate|average|age|"
    r"segment|division|business|plants?|facilit\w*|sites?|countr(?:y|ies)|regions?|europe|"
    r"asia|latin|americas?|china|ireland|growth|grow|grew|change|increase|decrease|decline)\b",
    re.IGNORECASE,
)
"""A part of the workforce by another trait, a share of it or a change of it: not the
number employed."""
_NOT_EMPLOYED = re.compile(
    r"\b(?:hired?|hiring|new|union|feedback|survey\w*|respon\w*|particip\w*|trained|"
    r"volunteer\w*|members)\b",
    re.IGNORECASE,
)
_COUNT_FIGURE = re.compile(
    r"(?<![\d.,$])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s*(?:thousand|million))(?![\d,]*\s*%|\.\d)",
    re.IGNORECASE,
)


def _people_counts(text: str) -> list[tuple[str, str, str]]:
    """The numbers of people ``text`` states employed ("approximately 95,000 people",
    "workforce was approximately 156,000 and 142,000", "Employees, 2022: 155,800"), each with
    the words before it and the words after it up to the next figure: the words after it say
    its scope ("55,000 employed internationally"). People hired, surveyed or in a union are
    no head count, nor is a share ("13%")."""
    found: list[tuple[str, str, str]] = []
    matches = list(_COUNT_FIGURE.finditer(text))
    for i, match in enumerate(matches):
        start = max(0, match.start() - 80)
        before = " ".join(text[start : match.start()].split()[-8:])
        stop = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        nxt = re.search(r"\d", text[match.end() : stop])
        end = match.end() + nxt.start() if nxt is not None else stop
        after = " ".join(text[match.end() : end].split()[:8])
        near = " ".join(after.split()[:4])
        if not (PEOPLE_NOUN.search(near) or PEOPLE_NOUN.search(before)):
            continue
        if _NOT_EMPLOYED.search(" ".join(before.split()[-4:])) or _NOT_EMPLOYED.search(near):
            continue
        found.append((match.group(1), before, after))
    return found
