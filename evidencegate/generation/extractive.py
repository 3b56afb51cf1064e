"""The offline default generator: answers by quoting the evidence's own sentences.

Deterministic and model-free. Each claim is one sentence of a retrieved passage, cited with the
sentence itself as the quote, so the verifier can locate every quote exactly. Sentences that
state a period not covering the question's target date (an earlier year's figure, say) are never
drafted: that is how a stale figure listed beside the current one stays out of the answer.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import NamedTuple

from evidencegate.analysis import (
    ASK_WORDS,
    CADENCES,
    EXAMPLE_SENTENCE,
    SOFT_VALUE_KINDS,
    QuestionProfile,
    Sentence,
    ask_clause,
    asked_action,
    asked_cadence,
    asked_term,
    asked_value,
    asks_requirement,
    bigrams,
    defines,
    idf_weights,
    is_normative,
    money_given,
    names_in,
    negates_case,
    normalise_question,
    profile_question,
    sentence_period,
    split_asks,
    split_sentences,
    states_action,
    states_value,
)
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, Claim, Draft, Operation, Passage
from evidencegate.corpus.retrieval import (
    described,
    described_fit,
    label_is,
    labelled_by,
    own_title,
    page_passage,
    parent_paragraph,
    phrase_fit,
    provision_fit,
    provision_key,
    provision_subject,
    section_sign,
    subject_weights,
    with_enhancements,
)
from evidencegate.corpus.rows import (
    PLACE_WORDS,
    PROPORTION_TYPES,
    asked_whole,
    measure_terms,
    proportion_fit,
    proportion_words,
    unplaced,
    with_synonyms,
)
from evidencegate.corpus.scope import (
    asks_enumeration,
    label_citation,
    names_a_series,
    provision_named,
)
from evidencegate.corpus.segments import asks_a_part, segment_row, segments_of
from evidencegate.generation.derive import (
    OPERATION_TERMS,
    DerivedCandidate,
    HeadcountAsk,
    asks_change,
    derivation_request,
    derived_candidates,
    headcount_ask,
    headcount_claims,
)
from evidencegate.generation.tables import (
    TableCell,
    measured_terms,
    part_table,
    part_title,
    table_cells,
    table_title,
    table_unit,
    unasked_subset,
)
from evidencegate.lexicon import (
    covered_share,
    focus_terms,
    lexicon,
    match_units,
    matched_units,
    shares,
    text_keys,
)
from evidencegate.protocols import SourceLookup
from evidencegate.text import term_tuple, terms
from evidencegate.verify.agreement import negation_cues
from evidencegate.verify.derived import parse_figure

__all__ = ["ExtractiveGenerator"]


def _draft(claims: list[Claim]) -> Draft:
    """A draft of ``claims``, a claim repeated (the same parts of one page: the same id) kept
    once, and a quoted claim that another claim of the draft quotes whole left out ("a. ..."
    beside "a. ... b. ...": the item says nothing its block does not)."""
    unique: dict[str, Claim] = {}
    for claim in claims:
        unique.setdefault(claim.claim_id, claim)
    kept = list(unique.values())
    return Draft(claims=[c for c in kept if not any(_within(c, other) for other in kept)])


def _within(claim: Claim, other: Claim) -> bool:
    """Whether ``other`` (another claim) quotes all that ``claim`` quotes, on the same pages."""
    if other is claim or claim.derivation is not None or other.derivation is not None:
        return False
    if claim.text == other.text or claim.text not in other.text:
        return False
    return all(
        any(
            (c.doc_id, c.version, c.page) == (o.doc_id, o.version, o.page) and c.quote in o.quote
            for o in other.citations
        )
        for c in claim.citations
    )


class ExtractiveGenerator:
    """Picks the sentences (or table cells) of the evidence that best answer the question.

    With ``pages`` (the store, as a source lookup) a question asking for a figure of a period
    is also answered from the tables on the evidence's pages: the cell of the row that names
    what is asked, in the column of the year asked (the latest column when none is named),
    quoted with its row label and its column header.
    """

    component_id = "generator:extractive@11"

    def __init__(
        self,
        *,
        max_claims: int = 3,
        min_score: float = 0.34,
        relative_cut: float = 0.75,
        min_quote_chars: int = 20,
        authorities: Sequence[str] = ("primary",),
        pages: SourceLookup | None = None,
    ) -> None:
        self.pages = pages
        self.max_claims = max_claims
        self.min_score = min_score
        self.relative_cut = relative_cut
        self.min_quote_chars = min_quote_chars
        self.authorities = tuple(authorities)

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft:
        profile = profile_question(question, as_of=as_of)
        prepared = self._prepared(evidence, avoid)  # once per draft: every ask reads the same
        counted = headcount_ask(question, profile)
        if counted is not None:
            stated = _headcount_draft(counted, prepared[0])
            if stated is not None:
                return stated
        if asks_enumeration(question, profile):
            prepared = _with_item_lists(prepared)
        ranked = self._ranked(question, _subject_only(profile), evidence, avoid, prepared=prepared)
        if isinstance(ranked, str):
            return Draft(declined=ranked)
        if (
            _filing(evidence)
            and asks_explanation(question, profile)
            and not _CAUSE_STATED.search(ranked[0][1].text)
        ):
            # "Amcor FY22 capex went up - what explains the increase?": no sentence of the
            # evidence says why; the best one states the figure or another matter.
            return Draft(declined="no evidence sentence states why")
        if profile.asks_provision:
            ranked = _best_titled(profile, ranked, evidence)
        by_ask = self._by_ask(
            question, ranked, evidence, as_of=as_of, avoid=avoid, prepared=prepared
        )
        if by_ask is None and _filing(evidence) and _AMOUNT_PART.search(question):
            by_ask = self._with_amount(ranked)
        draft = by_ask if by_ask is not None else self._select(profile, ranked)
        return self._located(draft) if profile.asks_provision else draft

    def _located(self, draft: Draft) -> Draft:
        """The draft for a question asking which provision says something ("which control
        makes the screen lock?"): each quoted claim opens with where its first quote sits, as
        the store records that page (:func:`provision_name`: "AC-11 Device Lock: ..."), which
        the verifier checks against the same record. Unchanged without the store."""
        if self.pages is None:
            return draft
        claims: list[Claim] = []
        for claim in draft.claims:
            if claim.derivation is None and claim.citations:
                cited = claim.citations[0]
                source = self.pages.lookup(cited.doc_id, cited.version, cited.page)
                if source is not None:
                    text = provision_named(claim.text, source)
                    claim = claim.model_copy(update={"text": text})
            claims.append(claim)
        return draft.model_copy(update={"claims": claims})

    def _by_ask(
        self,
        question: str,
        ranked: list[_Scored],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str],
        prepared: _Prepared | None = None,
    ) -> Draft | None:
        """One claim per ask of a question asking several things ("what X, and how often Y"):
        each the best candidate for that ask's own words, read with the whole question (so
        "how often must it be repeated" still means the servicer's attempts). None when the
        question does not split into two asks answered by different candidates."""
        asks = split_asks(question)
        if len(asks) < 2:
            return None
        if not isinstance(ranked[0][1], _Candidate):
            return None  # answered from tables: their rows are matched to the asks as cells
        filing = _filing(evidence)
        # Only sentences the whole question admits (its period, its subject) answer a part.
        whole = {_key(c): score for score, c, _ in ranked if isinstance(c, _Candidate)}
        rankings: list[list[_Scored]] = []
        profiles: list[QuestionProfile] = []
        for ask in asks:
            profile = profile_question(ask, as_of=as_of)
            # Only sentences are kept (``whole``): the ask's own table cells are not scored.
            own = (
                self._ranked(ask, profile, evidence, avoid, tables=False, prepared=prepared)
                if profile.terms
                else []
            )
            profiles.append(profile)
            rankings.append(
                [] if isinstance(own, str) else [item for item in own if _key(item[1]) in whole]
            )
        # Each ask's own best answer is left to that ask: the context the whole question lends
        # one ask must not hand it the answer to another ("deadline ... + how long we keep").
        own_best = [_key(ranking[0][1]) if ranking else None for ranking in rankings]
        chosen: list[_Candidate | _Cell | DerivedCandidate] = []
        seen: set[tuple[object, ...]] = set()
        for at, ranking in enumerate(rankings):
            others = {k for j, k in enumerate(own_best) if j != at and k != own_best[at]}
            fitting = [
                (score + 0.5 * whole[_key(c)], c)
                for score, c, _ in ranking
                if score >= self.min_score and _key(c) not in others
            ]
            if not fitting:
                continue
            fitting.sort(key=lambda item: (-item[0], *item[1].order))
            best = fitting[0][1]
            if filing and chosen:
                best = _next_to(chosen, fitting) or best
            if profiles[at].wants_figure and not profiles[at].states_figure(best.text):
                return None  # an ask for a figure no sentence states: not every part answered
            if _key(best) in seen:
                continue  # one sentence answers this ask and an earlier one
            seen.add(_key(best))
            chosen.append(best)
        if len(chosen) < 2:
            return None
        return _draft([c.claim() for c in chosen[: self.max_claims]])

    def _with_amount(self, ranked: list[_Scored]) -> Draft | None:
        """For a question on a filing with a part asking an amount ("Which business was taken
        over ..., and what was the consideration?"): the best sentence, when it states no
        amount, with the sentence stating one right after it ("The purchase consideration of
        $45 million ...", sharing a word of the question), which is of the same event. None
        otherwise."""
        first = ranked[0][1]
        if not isinstance(first, _Candidate) or _MONEY_STATED.search(first.text):
            return None
        following = [
            (c, score)
            for score, c, matched in ranked
            if isinstance(c, _Candidate)
            and matched  # it states a word of the question ("consideration")
            and _MONEY_STATED.search(c.text)
            and c.passage.page == first.passage.page
            and c.passage.doc_id == first.passage.doc_id
            and c.passage.version == first.passage.version
            and 0 <= c.sentence.start - first.sentence.end <= _NEXT_TO_REACH
        ]
        if not following:
            return None
        amount = min(following, key=lambda item: item[0].sentence.start)[0]
        return _draft([first.claim(), amount.claim()])

    def _ranked(
        self,
        question: str,
        profile: QuestionProfile,
        evidence: Sequence[Passage],
        avoid: Sequence[str],
        *,
        tables: bool = True,
        prepared: _Prepared | None = None,
    ) -> list[_Scored] | str:
        """Every candidate answer scored, best first; or why there is none. Without
        ``tables``, sentences only (no table cells, no figures derived from them).
        ``prepared`` is :meth:`_prepared` of the evidence and ``avoid`` when already made."""
        skip = set(avoid)
        if prepared is None:
            prepared = self._prepared(evidence, avoid)
        candidates, sentence_terms, context_terms, heading_terms, supplements = prepared
        if profile.hypothetical:
            # "a US$100 transfer with a US$10 fee and a US$15 correspondent fee: the refund?":
            # the worked example's answer ("... will refund US$95 ...") is read after the
            # sentences setting out the question's figures, as an item after its lead-in.
            worked = _worked_answers(candidates, profile.numbers)
            if worked:
                candidates = [*candidates, *(c for _, c in worked)]
                sentence_terms = [
                    *sentence_terms,
                    *(term_tuple(_PARAMETER_FRAME.sub(" ", c.text)) for _, c in worked),
                ]
                context_terms = [*context_terms, *(context_terms[i] for i, _ in worked)]
                heading_terms = [*heading_terms, *(heading_terms[i] for i, _ in worked)]
                supplements = [*supplements, *(supplements[i] for i, _ in worked)]
        if not profile.terms or not (candidates or self.pages is not None):
            return "no primary evidence sentence to draft from"
        filing = _filing(evidence)
        explains = filing and asks_explanation(question, profile)
        if explains:
            # "Why did cost of sales rise as a share of sales?": a reason is asked, which no
            # table cell, figure derived from cells or sentence stating only the share states.
            profile = replace(profile, answer_type="reason", wants_figure=None)
            tables = False
            # "reasons", "what drove", "explain": the words asking why, which a sentence
            # sharing them ("As a result of that review") does not answer by them.
            asking = set(terms(" ".join(m[0] for m in _EXPLANATION_ASKED.finditer(question))))
            kept = tuple(t for t in profile.terms if t not in asking)
            if kept:
                profile = replace(profile, terms=kept)
        if filing and _SOURCE_FRAME.search(question):
            source_words = set(terms("according"))
            kept = tuple(t for t in profile.terms if t not in source_words)
            if kept:
                profile = replace(profile, terms=kept)
        if filing and (purpose := _purpose_words(question)):
            # "For an inventory turnover calculation, give me ... cost of sales and ...
            # inventories": what the asker will do with the figures, which no row states.
            named_words = {t for n in profile.names for t in terms(n)}
            kept = tuple(t for t in profile.terms if t not in purpose or t in named_words)
            if kept:
                profile = replace(profile, terms=kept)
        asked_dates = _calendar_dates(question) if filing else frozenset()
        # "Which business did 3M acquire ... and for how much?": a part asks an amount.
        amount_part = filing and not profile.wants_figure and bool(_AMOUNT_PART.search(question))
        cells_profile = profile
        profile = _without_frame(profile)
        # "What share of its revenues ..." asks for a proportion of that whole; "why did cost
        # rise as a share of sales" for a reason.
        whole = asked_whole(question) if profile.answer_type in PROPORTION_TYPES else ()
        if whole:
            # "What share of its revenues ...": "share" says a proportion is asked (scored
            # below), and matches "our share of income" or a stock's words.
            framing = proportion_words(question)
            kept = tuple(t for t in profile.terms if t not in framing)
            if kept:
                profile = replace(profile, terms=kept)
        enhanced = with_enhancements(question, profile.names)
        if enhanced != profile.names:
            profile = replace(profile, names=enhanced)  # "IA-5 enhancement 1" is IA-5(1)
        # A question's word as the evidence inflects it: the light stemmer keeps the final
        # "e" of some forms only ("waived" is "waiv", "waive" stays "waive").
        vocabulary = {t for ts in sentence_terms for t in ts}
        asked = tuple(_as_stated(t, vocabulary) for t in profile.terms)
        if asked != profile.terms:
            profile = replace(profile, terms=asked)
        weights = idf_weights(asked, sentence_terms)
        # A question setting out a scenario before it asks ("A customer disputes a debit on
        # her checking account. How many business days does the bank have to figure out
        # whether there was an error?"): the scenario's words say whose case it is, the ask's
        # what is asked; a sentence sharing only the scenario's ("debit", "business days")
        # states another rule.
        ask = ask_clause(question)
        ask_words = set(terms(ask)) if ask is not None else set()
        # Only an ask saying what it is about ("What is the cap?" says "cap" alone; "What
        # are they?" nothing) leaves the scenario's words to count for less.
        scene = sum(t in ask_words and t not in ASK_WORDS for t in asked) >= 2
        if scene:
            weights = {t: w * (1.0 if t in ask_words else SCENE_WEIGHT) for t, w in weights.items()}
        share = shares(asked, weights)  # the same units and weights for every sentence
        # The scenario's conditions, as pairs of words near each other ("counteroffer ...
        # applicant", "accept ... credit"), tell the branch of a rule that is its case from
        # its siblings ("90 days after notifying the applicant of a counteroffer if ...").
        scene_pairs = (
            _near_pairs(terms(question[: question.rindex(ask)]))
            if scene and ask is not None
            else set()
        )
        asked_pairs = bigrams(question)
        asked_negated = _negated(question)
        spelled = normalise_question(question)  # "over 5k" is over 5,000
        asked_bounds = {
            n: bound for n in profile.numbers if (bound := _bound(spelled, n)) is not None
        }
        given_money = tuple(Decimal(n) for n in profile.numbers if money_given(spelled, n))
        named = {t for n in profile.names for t in terms(n)}
        # What the question asks about specifically is in its ask, not in its scenario.
        focused = [t for t in asked if t in ask_words] if scene else asked
        focus = focus_terms(focused, [terms(p.text) for p in evidence], exclude=named)
        focus_share = shares(focus)
        reported = _reported_year(profile, evidence)
        # The names some passage is labelled by exactly: the control itself is in the evidence,
        # and its enhancements ("SR-2(1)" under "SR-2") are other requirements.
        labelled = {n for n in profile.names if any(labelled_by(p, n) for p in evidence)}
        # The control the question describes by its title ("per the log review control", "the
        # backup testing enhancement"), when the evidence holds a passage whose title says
        # (nearly) all of it: a sentence of another control answers another question.
        asked_words = sorted({*terms(question), *profile.terms})
        figure_rule = profile.wants_figure is not None and asks_requirement(question)
        description = described(question)
        titled = (
            max((described_fit(p, description) for p in evidence), default=0.0)
            if description is not None
            else 0.0
        )
        # "What does control SR-2, Supply Chain Risk Management Plan, require?" asks for the
        # whole rule: besides its name and title, it says nothing of what it asks about.
        asks_rule = profile.normative and bool(profile.names)
        rest = [t for t in profile.terms if t not in named]
        asks_change = bool(_CHANGE_WORDS & set(terms(question)))
        asks_forecast = _FORECAST.search(question) is not None
        asks_figure_change = (
            profile.answer_type == "comparison" or _FIGURE_CHANGE_ASKED.search(question) is not None
        )
        # A question setting out a case ("if ...") or asking whether one holds ("Does a later
        # increase bring a lease back ...?") asks about a case, in its own words.
        asks_case = profile.answer_type == "yes_no" or _ASKS_CASE.search(question) is not None
        # "Am I allowed to tell the customer ...?": the rule on telling ("must not tell"), not a
        # neighbour sharing the question's other words ("must report it").
        # A question asking for a figure ("how long do I have to keep ...") asks no permission.
        action = asked_action(question) if not profile.wants_figure else ()
        # "what kind of acknowledgment ...": the thing whose kind is asked, which the answer
        # states ("a documented acknowledgment"); a sentence not stating it answers about its
        # neighbours (the rules the acknowledgment is of).
        kind = _KIND_ASKED.search(question)
        if kind is None and profile.wants_figure is None and profile.answer_type != "yes_no":
            # "What selection option must applicants get?": the option, stated by the answer
            # ("must be offered the option to select more than one"); a sentence not naming
            # it says what else the rule requires. A figure asked for ("what date", "which
            # period") is stated, not named.
            kind = _THING_ASKED.search(question)
        # "what must the acknowledgement of a complaint tell the customer?": what the
        # acknowledgement says, stated by a sentence with it as its subject ("The
        # acknowledgement must name ..."), not by one on what another does with it ("The Bank
        # must send ... a written acknowledgement").
        content = _CONTENT_ASKED.search(question)
        content_of = (
            [t for t in terms(content.group(1)) if t in asked or t in profile.terms]
            if content
            else []
        )
        kind_units = (
            [t for t in terms(kind.group(1)) if t in asked or t in profile.terms] if kind else []
        )
        # "What does 'business day' mean": the sentence defining the term ("“Business day”
        # means ..."), not one applying it with more of the question's other words.
        term = asked_term(question)
        # A question naming a provision ("under § 1024.35(e)(3)(ii)") may ask about a rule
        # for the case another provision sets.
        names_provision = _PROVISION.search(question) is not None
        # A question negating nothing asks about the case that happens, not its negation.
        opposite_case = not profile.negated_case and not asked_negated
        # "What must each audit record contain?", "which steps when someone leaves": the
        # items of a list together answer, not one of them.
        enumeration = asks_enumeration(question, profile)
        value_asked = _asked_value(question, profile)

        scored: list[_Scored] = []
        for candidate, s_terms, c_terms, h_terms, supplement in zip(
            candidates, sentence_terms, context_terms, heading_terms, supplements, strict=True
        ):
            period = sentence_period(candidate.text)
            if period is not None and not period.overlaps(profile.target):
                continue  # a figure for another period: never drafted as the answer
            if period is not None and profile.period_years:
                # "From January 1, 2017 through December 31, 2017, ...": the sentence says
                # which year it is for, so it speaks of the "year" a question asks about.
                s_terms = (*s_terms, *(t for t in profile.terms if t in _PERIOD_TERMS))
            placed_terms = (*s_terms, *c_terms)
            own = share(s_terms)
            placed = share(placed_terms)
            score = 0.6 * own + 0.4 * placed
            # Where it stands: a sentence under a heading or in a document about the asked subject
            # (a "gift limit" planted under "Opening hours" is not the gift policy's answer).
            score += 0.2 * share(c_terms)
            if profile.wants_figure:
                # A question asking for a figure is answered by a sentence stating one.
                if profile.states_figure(candidate.text) or states_value(
                    value_asked.kind, candidate.text
                ):
                    score += 0.25
                else:
                    score *= 0.4
            guidance = profile.normative and not _states_requirement(candidate)
            if guidance:
                score *= 0.45  # "what does SR-2 require": the requirement, not guidance on it
            elif figure_rule and not _states_requirement(candidate):
                score *= _FIGURE_RULE_GUIDANCE  # "When must accounts be disabled": the rule
            if period is not None:
                score += 0.1  # states the period it applies to, and it is the one asked about
            if profile.years:
                score += 0.25 * sum(y in candidate.text for y in profile.years) / len(profile.years)
            elif reported is not None and profile.wants_figure:
                stated = {int(y) for y in _YEAR_RE.findall(candidate.text)}
                if stated and reported not in stated:
                    score *= 0.5  # another year's figure (a forecast, a comparative)
            if whole and (proportion := proportion_fit(candidate.text, whole)):
                # "What share of its revenues ...": "41% of our revenues" states one, "4% of
                # operating assets" a share of another whole.
                score = score + PROPORTION_BONUS if proportion > 0 else score * PROPORTION_PENALTY
            elif whole and not _ASKS_PERCENT.search(candidate.text):
                score *= NO_PROPORTION_PENALTY  # no proportion at all ("5,000 employees")
            if asked_pairs:
                # The question's own phrases ("above $5,000") tell close sentences apart.
                score += 0.15 * len(asked_pairs & bigrams(candidate.text)) / len(asked_pairs)
            if profile.names:
                # The names the question uses (AC-2(3), Regulation M, 3M) where the sentence is.
                fit = sum(_name_fit(n, candidate, n in labelled) for n in profile.names)
                score += 0.3 * fit / len(profile.names)
            if scene_pairs:
                stated_pairs = len(scene_pairs & _near_pairs(terms(candidate.text)))
                if stated_pairs >= 2:  # one pair ("account ... debited") is a chance phrase
                    score += SCENE_PAIR_BONUS * min(stated_pairs, SCENE_PAIRS_COUNTED)
            if focus:
                # What the question asks about specifically, stated by the sentence itself.
                score += 0.3 * focus_share(s_terms)
            if kind_units and not matched_units(kind_units, s_terms):
                score *= _KIND_UNSTATED
            subject = (
                _SUBJECT.match(_SECTION_NUMBER.sub("", candidate.sentence.text, count=1))
                if content_of
                else None
            )
            if subject and not matched_units(content_of, terms(subject.group(1))):
                score *= _OTHER_SUBJECT
            if action and own > 0 and states_action(candidate.sentence.text, action):
                score += ACTION_BONUS
            if term is not None and defines(candidate.sentence.text, term):
                score += DEFINITION_BONUS
            if given_money and (fit := _case_fit(candidate.sentence.text, given_money)):
                # "a gift worth $130": "above $100 ... must obtain approval" is its case, "up to
                # $100 ... without approval" another one.
                score = score + 0.1 if fit > 0 else score * 0.6
            for number, bound in asked_bounds.items():
                bounded = _bound(candidate.text, number)
                if bounded is not None:
                    # "45 or more days delinquent" is another case than "less than 45 days".
                    score = score + 0.1 if bounded == bound else score * 0.6
            if profile.negated_case and (negated := _negated(candidate.text)):
                # "if the CPI-W does not increase" asks for the negated case: a sentence
                # negating something may state it ("will not change"), more surely one that
                # negates what the question does.
                score += 0.1 + (0.15 if asked_negated & negated else 0.0)
            if candidate.items > 1 and not candidate.more:
                whole_rule = asks_rule and _whole_rule(candidate, rest, c_terms, profile.names)
                if len(candidate.text) > _LONG and not whole_rule and not enumeration:
                    continue  # a long list is drafted whole only as the rule or list asked for
            else:
                whole_rule = False
                if (
                    asks_rule
                    and not candidate.items
                    and not _LIST_ITEM.match(candidate.sentence.text)
                    and _states_requirement(candidate)
                    and _whole_rule(candidate, rest, c_terms, profile.names)
                ):
                    score += 0.1  # the control's statement when it is one sentence ("SA-12")
            if candidate.items > 1:
                if profile.multi_part or profile.answer_type in _LIST_TYPES or whole_rule:
                    # "what does SR-2 require" asks for the control's whole statement: its
                    # items together.
                    score += 0.1  # "which accounts", "on which occasions": the items together
                elif profile.wants_figure:
                    # A figure asked: the item stating it, not its list ("how quickly must
                    # patches be installed"); the items together when several state one (the
                    # occasions and frequency of training).
                    stating = sum(profile.states_figure(i.text) for i in candidate.listed)
                    if stating < 2:
                        score *= 0.85
                elif candidate.items > 2 and (
                    detail := [t for t in focus if not matched_units([t], c_terms)]
                ):
                    # The same for a detail the question asks about ("reuse of identifiers per
                    # IA-4"): the item stating it, not the list that holds it among others. A
                    # word of the rule's title ("the control on authority for handling
                    # personal data") describes the whole rule, no item of it. Two items are
                    # one step and the next ("review the test results; and initiate
                    # corrective actions"), read together.
                    stating = sum(
                        bool(matched_units(detail, term_tuple(_PARAMETER_FRAME.sub(" ", i.text))))
                        for i in candidate.listed
                    )
                    if stating == 1:
                        score *= 0.85
            if enumeration and not supplement and _enumerates(candidate):
                # Not a catalog record's discussion: its lists are examples ("failures include
                # software and hardware errors, ..."), not the items the rule asks for.
                score += ENUMERATION_BONUS
            case = _CASE.match(_SECTION_NUMBER.sub("", candidate.sentence.text, count=1))
            if opposite_case and case and negates_case(case.group(0)):
                # "I told the bank the next day": "If you do NOT tell us within 2 business days,
                # ..." is the other branch of the rule, however many words it shares.
                score *= OPPOSITE_CASE_PENALTY
            if not names_provision and _REFERRED_CASE.match(
                _SECTION_NUMBER.sub("", candidate.sentence.text, count=1)
            ):
                # "For applications subject to paragraph (a)(1) of this section, a creditor
                # shall mail ... a notice of the right to a copy": a rule added to the case
                # another paragraph sets (a notice of it, more time for it); that paragraph
                # states the rule asked about ("shall provide a copy ... promptly").
                score *= REFERRED_CASE_WEIGHT
            if case and not asks_case and covered_share(terms(case.group(1)), profile.terms) < 0.5:
                # "When a Complaint comes from a Vulnerable Customer, ... must also telephone
                # ...": a rule for a case the question, which sets out none, does not ask about.
                score *= 0.8
            if (
                profile.wants_figure
                and not asks_figure_change
                and _states_change_only(profile, candidate.text)
            ):
                # "The 2022 effective tax rate increased 9.1% as compared to 2021": the
                # change of the figure asked for, not the figure.
                score *= CHANGE_ONLY_PENALTY
            if profile.wants_figure and not asks_forecast and _forecasts(candidate.sentence.text):
                # "The Company expects 2016 share repurchases of $4 billion to $6 billion": an
                # outlook, not the figure the filing reports.
                score *= FORECAST_PENALTY
            if _CHANGE_NOTE.match(candidate.sentence.text) and not asks_change:
                # "This version raises the annual limit ...": what a version changed, not the
                # rule it states (a question on the gift limit is answered by the limit).
                score *= 0.4
            if not profile.hypothetical and candidate.example:
                # An example answers a question about that example, however close its words.
                score *= _EXAMPLE_WEIGHT
            if labelled:
                # The passage of the control or section the question names is in the evidence:
                # a sentence elsewhere answers another question, and one of its enhancements
                # ("SR-2(1)" for "SR-2") another requirement.
                fits = max(_name_fit(n, candidate, labelled=True) for n in labelled)
                score *= 0.5 + 0.5 * fits
            sub_title = own_title(candidate.passage)
            if (
                sub_title
                and not any(labelled_by(candidate.passage, n) for n in enhanced)
                and not matched_units(sub_title, asked_words)
            ):
                # An enhancement of a control ("Supply Chain Risk Assessment" under "Risk
                # Assessment") the question says nothing of: the control's own sentence
                # ("update the risk assessment") answers it, not the enhancement's.
                score *= _UNASKED_PART
            if description is not None and titled >= _DESCRIBED_FIT:
                score *= 0.5 + 0.5 * described_fit(candidate.passage, description) / titled
            if h_terms:
                # The section the question is about, by its heading's words ("how many days
                # must I hold ..." under "5. Holding period", "gifts we give out" under "6.
                # Giving gifts and entertainment"): a neighbour section's sentence sharing more
                # of the question's other words answers another question.
                score += _SECTION_BONUS * share(h_terms)
            if supplement and not guidance:
                # A catalog record's discussion after its requirement ("Organization-defined
                # actions that may be taken ... include ...") explains the rule, however many
                # of the question's words it repeats; the rule itself ("b. Automatically
                # [Selection: lock the account ...]") answers.
                score *= _SUPPLEMENT_WEIGHT
            score = _value_weighted(
                score, value_asked, candidate.text, candidate.passage.context, placed_terms
            )
            if explains:
                # "What drove the increase ...": "... increased ... driven by ...", not a
                # sentence stating the figure or another matter in the same words.
                if _CAUSE_STATED.search(candidate.text):
                    score += EXPLANATION_BONUS
                else:
                    score *= UNEXPLAINED_WEIGHT
            if asked_dates and _states_date(asked_dates, candidate.text):
                score += DATE_BONUS  # "acquire on May 31, 2023": that day's event
            if amount_part and _MONEY_STATED.search(candidate.text):
                score += AMOUNT_PART_BONUS
            scored.append((score, candidate, matched_units(asked, placed_terms)))

        if tables:
            # "At the end of fiscal 2024" tells no row apart: a row label's "End of Year" is no
            # more the asked figure than "Cash and cash equivalents" under "As of June 30".
            row_focus = [t for t in focus if t not in PLACE_WORDS]
            tabled = [
                *self._cells(cells_profile, evidence, skip, row_focus),
                *self._derived(question, cells_profile, evidence, skip, row_focus),
            ]
            scored.extend(_wholes(tabled))
        if not scored:
            if not candidates:
                return "no primary evidence sentence or table cell to draft from"
            return "every matching sentence concerns another period"
        scored.sort(key=lambda item: (-item[0], *item[1].order))
        return scored

    def _prepared(self, evidence: Sequence[Passage], avoid: Sequence[str]) -> _Prepared:
        """The candidate sentences of the primary evidence (not those in ``avoid``), each
        with its own terms and the terms of its place: what every ask of a question scores,
        the same for each."""
        skip = set(avoid)
        primary = [p for p in evidence if p.authority in self.authorities]
        candidates = [
            candidate
            for passage in [*primary, *_unretrieved_items(primary, self.pages)]
            for candidate in _with_parent_lead(
                _candidates(passage, self.min_quote_chars), passage, primary, self.pages
            )
            if candidate.text not in skip
        ]
        # A sentence is read in its place: the heading path and title of its passage count as
        # the words it is about ("the threshold amount is $51,800" under "Consumer Lease").
        # An item under its parent paragraph's lead-in is read with it in its place, as a
        # heading: the item itself must state what is asked (the lead-in's words are its
        # siblings' too).
        # A parameter's frame ("[Assignment: organization-defined ...]") is the catalog's
        # template, not what the sentence is about: "the assignment of identifiers" is asked of
        # IA-4's "assign ... identifier", not of every control leaving a value to the
        # organization. The parameter's own words ("personnel or roles") stay.
        sentence_terms = [
            (
                *term_tuple(
                    _PARAMETER_FRAME.sub(" ", c.text if c.lead_passage is None else c.sentence.text)
                ),
                *term_tuple(_PARAMETER_FRAME.sub(" ", _referred(c))),
            )
            for c in candidates
        ]
        # Where a sentence stands in its page: under the section heading of a policy written
        # in sections ("## 5. Holding period" over "5.1 Employees must hold ..."), and in the
        # requirement of a catalog record or in the discussion after it.
        structure = _PageStructure(evidence, self.pages)
        headings = [structure.heading(c) for c in candidates]
        heading_terms = [term_tuple(h) for h in headings]
        context_terms = [
            term_tuple(c.passage.context + "\n" + h + "\n" + _antecedent(c))
            for c, h in zip(candidates, headings, strict=True)
        ]
        supplements = [structure.in_supplement(c) for c in candidates]
        return _Prepared(candidates, sentence_terms, context_terms, heading_terms, supplements)

    def _select(self, profile: QuestionProfile, scored: list[_Scored]) -> Draft:
        """The claims of a draft: the best candidate, and more only for a multi-part question."""
        cut = max(self.min_score, scored[0][0] * self.relative_cut)
        claims: list[Claim] = []
        seen: set[str] = set()
        # The names the question uses (Boeing, Regulation M) scope it: no part of what it asks,
        # so a claim stating only a name more than the claims so far adds nothing to them.
        named = {t for n in profile.names for t in terms(n)}
        covered: set[frozenset[str]] = {
            unit for unit in matched_units(profile.terms, sorted(named)) if unit <= named
        }
        rows: set[str] = set()
        figures: set[tuple[tuple[int, str], ...]] = set()
        # Two rows the question names word for word: it asks for both ("cash and total
        # current assets"), however few "and"s it has.
        named_rows = {c.row_name for _, c, _ in scored if isinstance(c, _Cell) and c.named}
        # A named row whose name is part of a longer named row's ("Net income" of "Net income
        # attributable to Amcor plc") is not asked besides it: the question names the longer.
        named_rows = {
            r for r in named_rows if not any(o != r and f" {r} " in f" {o} " for o in named_rows)
        }
        best, first = scored[0][0], scored[0][1]
        for score, chosen, terms_of in scored:
            key = " ".join(chosen.text.lower().split())
            if key in seen:
                continue
            row = chosen.row_name if isinstance(chosen, _Cell) else None
            values = chosen.figures if isinstance(chosen, _Cell) else None
            if (row is not None and row in rows) or (values is not None and values in figures):
                continue  # the same row or figures again ("Revenues" and "Total revenues")
            # A row the question names word for word is one of the things it asks for.
            named_part = (
                isinstance(chosen, _Cell)
                and chosen.named
                and chosen.row_name in named_rows
                and (profile.multi_part or len(named_rows) >= 2)
                and score >= self.min_score
            )
            if score < cut and not named_part:
                continue
            # The smallest set of claims that answers: one sentence, unless the question asks
            # several things; then another one only when it covers a term of the question that
            # the claims so far do not.
            # Several figures asked ("cost of goods sold ... and its inventory balance"): each
            # is a row of its own, however the question joins them.
            multi = profile.multi_part or (isinstance(chosen, _Cell) and len(profile.items) >= 2)
            # Sibling sentences of one passage fitting the question exactly as well state the
            # rule for its parallel cases ("pursuant to § 1002.13(a)(1)(i)(A), ... more than one
            # racial designation" and "(B), ... more than one ethnicity designation and ..."):
            # the answer is both, not the first one in reading order.
            # So do the items of one lead-in ("A servicer must comply with ... paragraph (e)(1)
            # of this section: ... (B) prior to a foreclosure sale ...; (C) for all other
            # asserted errors, not later than 30 days ..."), each a passage of its own.
            parallel = (
                isinstance(chosen, _Candidate)
                and isinstance(first, _Candidate)
                and score == best
                and (
                    chosen.passage.passage_id == first.passage.passage_id
                    or _siblings(chosen, first)
                )
            )
            if (
                claims
                and not named_part
                and not parallel
                and (not multi or not (terms_of - covered))
            ):
                continue
            if claims and not profile.hypothetical and getattr(chosen, "example", False):
                continue  # an example beside the general answer is noise
            if row is not None and values is not None:
                rows.add(row)
                figures.add(values)
            elif isinstance(chosen, DerivedCandidate):
                rows.update(_row_key(label) for label in chosen.labels)  # its operands' rows
            seen.add(key)
            covered |= terms_of
            claims.append(chosen.claim())
            if len(claims) == self.max_claims:
                break
        if not claims:
            return Draft(declined=f"no sentence scores above {cut:.2f} for the question's terms")
        if len(claims) < self.max_claims and isinstance(first, _Candidate):
            # "A loan on property of 25 acres or more.": an item standing under its paragraph's
            # heading ("Exemptions.") with no lead-in states no rule of its own; the provision
            # referring to its paragraph ("... except for the exemptions provided in paragraph
            # (b) of this section") says what the item is.
            referring = _referring(first, [c for _, c, _ in scored if isinstance(c, _Candidate)])
            if referring is not None and referring.text not in seen:
                claims.insert(0, referring.claim())
        return _draft(claims)

    def _cells(
        self,
        profile: QuestionProfile,
        evidence: Sequence[Passage],
        skip: set[str],
        focus: Sequence[str],
    ) -> list[_Scored]:
        """Table cells of the evidence's pages that answer a figure question, scored.

        A question naming several years ("in 2022 and 2021") is answered by one claim per row
        with the row's cell in each of those years; a row the question names word for word
        ("cash and cash equivalents and total current assets") scores above one it names in
        part ("Total assets").
        """
        if self.pages is None or profile.answer_type not in (*_TABLE_TYPES, "other"):
            return []
        # A question of no figure type ("what restructuring charges did PepsiCo record")
        # is answered from a table only by a row it names word for word.
        named_only = profile.answer_type not in _TABLE_TYPES
        # What the figure measures, without the words that only ask for it ("how much gross
        # profit did Amcor make", "what did 3M post"): those no row label states.
        asked = measure_terms(profile.measure)
        if not asked:
            return []
        asked_words = _phrase_words(profile.question)
        years = _asked_years(profile)
        several = len(years) >= 2
        # "What percentage ...": a row of amounts does not answer it, a row of percents may.
        percent = profile.answer_type == "percentage" or bool(
            _ASKS_PERCENT.search(profile.question)
        )
        # "Current assets / current liabilities", "R&D as a % of sales": one figure over
        # another is asked, and a row of one amount is an operand, no answer (a row stating
        # the ratio itself, "Gross profit as a percentage of net sales 21.2 %", is).
        request = derivation_request(profile.question, profile)
        quotient = (
            request is not None
            and request.operation in (Operation.RATIO, Operation.SHARE)
            and len(request.subjects) == 2
        )
        # "By how much did it change", "SG&A growth 2022 over 2021": the change of one figure
        # is asked, and a row's figures of two years are its operands, no answer.
        change = asks_change(request)
        counted = profile.answer_type == "count"
        # The acronyms the question names ("G&A", "FCF") and the lexicon's groups they are
        # members of: a row the question names by one is named as if word for word ("General
        # and administrative expense", "Free cash flow").
        acronyms = tuple(n for n in profile.names if _ABBREVIATION.fullmatch(n))
        asked_groups = frozenset(
            {
                *(g for n in acronyms for _, _, g in lexicon().keys(term_tuple(n))),
                # and the phrases of the lexicon it asks by ("top line", "bottom line")
                *(g for start, end, g in lexicon().keys(profile.terms) if end - start >= 2),
            }
        )
        named_terms = tuple(t for n in profile.names for t in terms(n))
        out: list[_Scored] = []
        seen: set[tuple[str, str, int]] = set()
        for passage in evidence:
            where = (passage.doc_id, passage.version, passage.page)
            if passage.authority not in self.authorities or where in seen:
                continue
            seen.add(where)
            source = self.pages.lookup(*where)
            if source is None:
                continue
            # The words of the document's title name the filer, no row: a terse question's
            # company in lower case ("boeing 2022 net loss attributable to shareholders").
            placed = set(_phrase_words(passage.context))
            # The filing's segments: a question asking about none of them (and about no part
            # by its kind) asks for the whole's figure, which no segment's row states.
            segments = (
                segments_of(self.pages, passage.doc_id, passage.version)
                if source.document.period is not None  # a report on a period: a filing
                else ()
            )
            whole_asked = not asks_a_part(profile.question, segments)
            p_asked = unplaced(asked, passage.context)
            # "Total" and "net" say which figure of a measure, not which measure: a row sharing
            # only them ("Total short-term debt" for "total net revenue") states another.
            p_core = [t for t in p_asked if t not in _QUALIFYING_TERMS] or p_asked
            p_words = [w for w in asked_words if w not in placed]
            rows: dict[tuple[int, int], list[TableCell]] = {}
            for cell in table_cells(source.page.text):
                # A row of a table of blocks ("Net Revenue", "Operating Profit") is one row of
                # each block's table.
                rows.setdefault((cell.row_start, cell.header_start), []).append(cell)
            for row in rows.values():
                if part_table(source.page.text, row[0], profile.question):
                    continue  # a segment's or a guarantor group's table, not the company's
                if whole_asked and segment_row(row[0].name or row[0].label, segments):
                    continue  # "Health Care 13,343", "PBNA": a segment's row, not the whole
                # The label (with its headings: "Revenues: Commercial Airplanes") states what
                # is asked; the row's own name how specific it is.
                label_terms = terms(row[0].label)
                name_terms = terms(_row_name(row[0].name or row[0].label)) or label_terms
                # A row with no heading of its own is of the heading its block stands under
                # ("Diluted" under "Net earnings per share", not "Average shares outstanding").
                label, title = " ".join((row[0].heading, row[0].label)).strip(), ""
                if name_terms == ["total"]:
                    # A bare "Total" row is the whole of what its table's title names
                    # ("... summarizes our Research and development expense:").
                    title = table_title(source.page.text, row[0])
                    label = f"{title} {label}"
                label = _in_question_number(label, profile.question)
                # The part the question asks of, its table titled by it ("Consumer Business
                # (15.5% of consolidated sales):"): the claim names it beside the row.
                part = "" if title else part_title(source.page.text, row[0], profile.question)
                stated = measured_terms(label, profile.question)
                measure, core = p_asked, p_core
                if part:
                    # Its title names the part ("Health Care Business"): the part's kind
                    # ("business segment") is stated, the row must state the rest ("Sales",
                    # not "Business segment operating income", for its net sales).
                    measure = [t for t in p_asked if t not in _PART_KINDS] or p_asked
                    core = [t for t in p_core if t not in _PART_KINDS] or p_core
                fit = covered_share(measure, stated)
                core_fit = covered_share(core, stated)
                if (
                    not core_fit
                    # A bare "Total" is of the measure only when its title states most of it
                    # ("Other expense (income), net consists of": no research expense total).
                    or (name_terms == ["total"] and core_fit < MIN_TOTAL_FIT)
                    or fit < 0.33
                    or (fit < 1 and _other_kind(profile.question, row[0].name or row[0].label))
                ):
                    continue
                by_year = {c.year: c for c in row}
                if several and all(y in by_year for y in years):
                    chosen = [by_year[y] for y in sorted(years, reverse=True)]
                elif years:
                    chosen = [c for c in row if c.year in years][:1]
                else:
                    chosen = [by_year[max(by_year)]]  # no year named: the latest column
                if not chosen or (percent and not all(c.value.endswith("%") for c in chosen)):
                    continue
                if (
                    quotient
                    and not all(c.value.endswith("%") for c in chosen)
                    and not _RATIO_ROW.search(row[0].name or row[0].label)
                ):
                    continue  # an operand of the quotient asked, not the quotient
                if change and len(chosen) >= 2:
                    continue  # two years' figures: the operands of the change asked
                unit = table_unit(source.page.text, chosen[0])
                if counted and (
                    any(c.dollars or "$" in c.value for c in chosen)
                    or (unit is not None and _MONEY_UNIT.search(source.page.text[slice(*unit)]))
                ):
                    continue  # "how many employees": a count, never an amount of money
                if counted and _counts_other(row[0].name or row[0].label, profile.counted):
                    continue  # "Business segment operating income" counts no segments
                if unasked_subset(row[0].name or row[0].label, profile.question):
                    continue  # "Other assets", "Total current assets": no "total assets"
                if _PER_SHARE.search(profile.question) and _SHARE_COUNT.search(
                    _PER_SHARE.sub(" ", row[0].name or row[0].label)
                ):
                    continue  # "Weighted average ... shares outstanding — diluted": no EPS
                if (_negated(f"{row[0].heading} {row[0].label}") & set(profile.terms)) - _negated(
                    profile.question
                ):
                    # "Non-Cash Investing Activities: Purchase of property, plant, and equipment
                    # accrued, but not paid": no cash a question asks was spent.
                    continue
                if all(c.value.strip("$%") in _DASHES for c in chosen):
                    continue  # "—": the row states no figure for the year asked
                own_name = row[0].name or row[0].label
                named_row = _states_row(own_name, asked_words) or (
                    p_words != asked_words
                    and _states_row(
                        " ".join(w for w in _phrase_words(own_name) if w not in placed), p_words
                    )
                )
                # Named by an acronym, it is what is asked, but no second part of the question
                # ("EPS" names the diluted and the basic row alike).
                # And only a row stating all else the question asks ("net PP&E": not the
                # gross "Property, plant and equipment").
                abbreviated = (
                    not named_row
                    and fit >= 1
                    and _row_abbreviated(own_name, asked_groups, acronyms, passage.context)
                )
                if named_only and not (named_row or abbreviated):
                    continue
                candidate = _Cell(
                    passage,
                    source.page.text,
                    tuple(chosen),
                    self.min_quote_chars,
                    named_row,
                    unit,
                    title or part,
                )
                if candidate.text in skip:
                    continue
                score = _cell_score(profile, passage, fit, name_terms, focus, f"{part} {label}")
                # A label saying more than what is asked is another row ("Cash dividends
                # paid", "Cash ... and restricted cash, end of year" for "cash").
                said = [t for t in name_terms if t not in _BOOKKEEPING_TERMS] or name_terms
                # A name the question uses is asked too: the segment's own row ("Commercial
                # Airplanes" under "Revenues:") says no more than is asked.
                score += LABEL_PRECISION_WEIGHT * covered_share(
                    said, (*with_synonyms(tuple(p_asked)), *named_terms)
                )
                if abbreviated and _filers_share(own_name, passage.context):
                    score += FILERS_SHARE_BONUS
                if named_row or abbreviated or (title and fit >= 1):
                    # A titled "Total" row stating all of the measure is the whole of what the
                    # question names, as a row naming it word for word is (a segment's own
                    # row, "Research and development" on the segment's page, is a part).
                    score += NAMED_ROW_BONUS
                if several and len(chosen) < len(years):
                    # "for 2022 and for 2021": a row stating one of them answers in part.
                    score -= PARTIAL_YEARS_PENALTY * (1 - len(chosen) / len(years))
                # What the row itself states of the question, not the headings its label runs
                # on from ("Assets Current assets: Cash and cash equivalents" states cash, not
                # the "total current assets" asked beside it).
                own = terms(f"{title} {part} {row[0].heading} {own_name}")
                out.append((score, candidate, matched_units(profile.terms, own)))
        return out

    def _derived(
        self,
        question: str,
        profile: QuestionProfile,
        evidence: Sequence[Passage],
        skip: set[str],
        focus: Sequence[str],
    ) -> list[_Scored]:
        """Answers computed from table cells, for a question asking for a computation."""
        if self.pages is None:
            return []
        request = derivation_request(question, profile)
        if request is None:
            return []
        asked = measure_terms(profile.measure)
        out: list[_Scored] = []
        for candidate in derived_candidates(
            request,
            evidence,
            self.pages,
            authorities=self.authorities,
            min_quote_chars=self.min_quote_chars,
        ):
            if candidate.text in skip:
                continue
            label_terms = [t for label in candidate.labels for t in terms(label)]
            # Scored as its weakest operand's cell would be, plus what only it does: it
            # answers the computation asked for (a cell states one operand).
            score = _cell_score(profile, candidate.passage, candidate.fit, label_terms, focus)
            score += DERIVED_BONUS
            # As its operands' cells would score: by the share of each label the measure states.
            score += LABEL_PRECISION_WEIGHT * min(
                covered_share(terms(_row_name(o.cell.name or o.cell.label)), asked)
                for o in candidate.operands
            )
            # It states the computation asked for ("compared with", "change"): a sentence
            # only saying "compared" adds nothing to it.
            stated = [*label_terms, *OPERATION_TERMS]
            out.append((score, candidate, matched_units(profile.terms, stated)))
        return out


ENUMERATION_BONUS = 0.15
"""What a list (several items, or a sentence naming three things or more in a series) adds
for a question asking for an enumeration: the items together answer it, an item alone in
part."""


def _enumerates(candidate: _Candidate) -> bool:
    """Does the candidate state several items: a list (read whole, or a lead-in's items), or a
    sentence naming three things or more in a series?"""
    if candidate.items > 1:
        return True
    if candidate.lead is not None and candidate.lead_passage is not None:
        return False  # one item of a list whose lead-in stands in another passage
    return names_a_series(candidate.sentence.text)


def _with_item_lists(prepared: _Prepared) -> _Prepared:
    """``prepared`` with, for each lead-in whose items stand in passages of their own (a
    regulation's "(i) ...;", "(ii) ..." under "... shall include:"), a candidate stating the
    lead-in and all those items, in their order: the answer to a question asking for the
    list. Each item is its passage's first sentence, as it is read after the lead-in; the
    candidate's own words are the lead-in's and the items'."""
    candidates = prepared.candidates
    groups: dict[tuple[str, str, int, str], list[int]] = {}
    for at, c in enumerate(candidates):
        if c.lead is None or c.lead_passage is None or c.more or c.items or c.example:
            continue
        lead = c.lead_passage
        if (lead.doc_id, lead.version, lead.page) == (
            c.passage.doc_id,
            c.passage.version,
            c.passage.page,
        ):
            continue
        groups.setdefault((lead.doc_id, lead.version, lead.page, c.lead.text), []).append(at)
    added: list[tuple[int, _Candidate, tuple[str, ...]]] = []
    for members in groups.values():
        by_page: dict[int, int] = {}
        for at in members:
            by_page.setdefault(candidates[at].passage.page, at)
        if len(by_page) < 2:
            continue
        ordered = [candidates[by_page[page]] for page in sorted(by_page)]
        first = ordered[0]
        listed = replace(
            first,
            more=tuple(c.sentence for c in ordered[1:]),
            more_passages=tuple(c.passage for c in ordered[1:]),
            items=len(ordered),
        )
        if len(listed.text) > _WHOLE_LIST:
            continue
        # Read whole, as a list written in one passage is: its lead-in says what the items
        # are of ("The notice ... shall include:"), which no item repeats.
        own = term_tuple(_PARAMETER_FRAME.sub(" ", listed.text))
        added.append((by_page[first.passage.page], listed, own))
    if not added:
        return prepared
    return _Prepared(
        [*candidates, *(c for _, c, _ in added)],
        [*prepared.sentence_terms, *(own for _, _, own in added)],
        [*prepared.context_terms, *(prepared.context_terms[at] for at, _, _ in added)],
        [*prepared.heading_terms, *(prepared.heading_terms[at] for at, _, _ in added)],
        [*prepared.supplements, *(prepared.supplements[at] for at, _, _ in added)],
    )


_RULE_VERB = re.compile(
    r"\b(?:must|shall|should|may|can|will|is|are|was|were|be|been|means|mean|has|have|"
    r"apply|applies|includes?|requires?|do|does)\b",
    re.IGNORECASE,
)
"""A word by which a sentence states something; an item without one only names a thing."""
_ITEM_LABEL = re.compile(r"^(.+)-([a-z]|\d+|[ivx]+)-(?:\d+|[ivx]+|[A-Z])$")
"""The label of a numbered item ("1024-5-b-1"): its section ("1024-5") and paragraph ("b")."""


def _siblings(one: _Candidate, other: _Candidate) -> bool:
    """Whether two candidates are items read after the same lead-in of the same paragraph."""
    if one.lead is None or other.lead is None or one.lead_passage is None:
        return False
    return (
        other.lead_passage is not None
        and one.lead_passage.passage_id == other.lead_passage.passage_id
        and one.lead.text == other.lead.text
    )


def _referring(item: _Candidate, candidates: Sequence[_Candidate]) -> _Candidate | None:
    """The sentence of the item's section referring to the paragraph the item stands in ("...
    except for the exemptions provided in paragraph (b) of this section" for the item "A loan
    on property of 25 acres or more." of 1024-5-b), when the item is a bare noun phrase with
    no lead-in; None otherwise."""
    if item.lead is not None or item.items or _RULE_VERB.search(item.sentence.text):
        return None
    label = _ITEM_LABEL.match((item.passage.label or "").strip())
    if label is None:
        return None
    section, paragraph = label.groups()
    reference = re.compile(rf"\bparagraphs?\s+\({re.escape(paragraph)}\)(?!\s*\()")
    return next(
        (
            c
            for c in candidates
            if c.passage.doc_id == item.passage.doc_id
            and c.passage.version == item.passage.version
            and (c.passage.label or "").strip().startswith(section + "-")
            and not (c.passage.label or "").strip().startswith(f"{section}-{paragraph}")
            and reference.search(c.text)
        ),
        None,
    )


def _wholes(tabled: list[_Scored]) -> list[_Scored]:
    """Table answers without the parts of a whole: one row label in several tables of one
    filing ("Research and development expense, net" in the income statement and in a
    segment note's unallocated items) names the company's figure in the table where it is
    largest; the others state a part of it (a segment, a group, a reconciling item)."""
    largest: dict[tuple[object, ...], Decimal] = {}
    sizes: list[tuple[tuple[object, ...], Decimal] | None] = []
    for _, candidate, _ in tabled:
        sized = _size(candidate)
        sizes.append(sized)
        if sized is not None:
            key, size = sized
            largest[key] = max(largest.get(key, size), size)
    return [
        item
        for item, sized in zip(tabled, sizes, strict=True)
        if sized is None or sized[1] >= largest[sized[0]]
    ]


def _size(
    candidate: _Candidate | _Cell | DerivedCandidate,
) -> tuple[tuple[object, ...], Decimal] | None:
    """A table answer's row (filing, label, years) and the size of its first figure; None
    for a percent (a part's share is no smaller than the whole's) or no table answer."""
    if isinstance(candidate, _Cell):
        cells = candidate.cells
    elif isinstance(candidate, DerivedCandidate):
        cells = tuple(o.cell for o in candidate.operands)
    else:
        return None
    figure = parse_figure(cells[0].value)
    if figure is None or figure.percent:
        return None
    passage = candidate.passage
    key = (
        type(candidate).__name__,
        passage.doc_id,
        passage.version,
        tuple(_whole_key(" ".join((c.heading, c.label)).strip()) for c in cells),
        tuple(c.year for c in cells),
        # Two tables' bare "Total" rows are totals of what each table's title names.
        candidate.title if isinstance(candidate, _Cell) else "",
    )
    return key, abs(figure.value)


_QUALIFYING_TERMS = frozenset(terms("total net"))

_PLURAL_SENSES = (("sales", "sale"), ("earnings", "earning"), ("savings", "saving"))
"""Words whose plural names another thing than the singular in a filing: "net sales" are
revenue, "held for sale" and "gain on sale" an act of selling; both read as one term. A label's
singular states it only for a question using the singular."""


def _in_question_number(label: str, question: str) -> str:
    """``label`` without the words of :data:`_PLURAL_SENSES` in the number the question does
    not use: "Liabilities held for sale" states nothing of "net sales"."""
    for plural, singular in _PLURAL_SENSES:
        has_plural = re.search(rf"\b{plural}\b", question, re.IGNORECASE) is not None
        has_singular = re.search(rf"\b{singular}\b", question, re.IGNORECASE) is not None
        if not has_singular:
            # Nor for a word the lexicon reads as the plural ("revenue": "sales").
            label = re.sub(rf"\b{singular}\b", " ", label, flags=re.IGNORECASE)
        elif has_singular and not has_plural:
            label = re.sub(rf"\b{plural}\b", " ", label, flags=re.IGNORECASE)
    return label


_BOOKKEEPING = frozenset({"total", "expense", "expenses", "cost", "costs"})
"""Words a row of the company's figure adds to a part's row of the same thing ("Research and
development expense, net" for the segment's "Research and development")."""


_BOOKKEEPING_TERMS = frozenset(terms("expense expenses net"))
"""Words of a row's name that say no more than what it names ("Research and development
expense, net" is the research and development asked for)."""


def _whole_key(label: str) -> str:
    """A row's name as compared between a whole and its parts."""
    words = _row_key(label).split()
    # "expense, net" is the expense (net of credits); "equipment — net" another figure.
    return " ".join(
        w
        for i, w in enumerate(words)
        if w not in _BOOKKEEPING and not (w == "net" and i and words[i - 1] in _BOOKKEEPING)
    )


def _key(candidate: _Candidate | _Cell | DerivedCandidate) -> tuple[object, ...]:
    """A candidate's identity across rankings: where it stands and what it says."""
    return (*candidate.order, candidate.text)


DERIVED_BONUS = 0.3
PROPORTION_BONUS = 0.3
"""What a sentence stating a percentage of the whole a question asks a share of gains."""
PROPORTION_PENALTY = 0.6
"""What a sentence stating percentages of other wholes only keeps of its score."""
NO_PROPORTION_PENALTY = 0.8
"""What a sentence stating no percentage keeps of its score when a share is asked."""
"""What answering the asked computation adds to a derived answer's score over its operands'
cells (a stated figure of the same row scores as a cell, so it wins only by fitting better)."""


def _other_kind(question: str, name: str) -> bool:
    """Is the row another kind of what is asked: its name qualifies the head word the question
    names otherwise ("Operating margin" for "gross margin", "Contractual backlog" for "total
    backlog")? "Total" and "net" qualify no kind."""
    asked, named = terms(question), terms(name)
    if any(k.startswith("~") for k in text_keys(asked) & text_keys(named)):
        return False  # one name of it in other words ("cost of goods sold", "of products sold")
    plain = {"total", "net"}
    for i in range(1, len(named)):
        head, modifier = named[i], named[i - 1]
        if modifier in plain or modifier in asked:
            continue
        for j in range(1, len(asked)):
            if asked[j] == head and asked[j - 1] not in plain and asked[j - 1] not in named:
                return True
    return False


def _cell_score(
    profile: QuestionProfile,
    passage: Passage,
    fit: float,
    label_terms: Sequence[str],
    focus: Sequence[str],
    row: str = "",
) -> float:
    """A table cell's score, as a sentence would score: the figure asked for (0.25), the year
    asked for (0.25), the names where it stands (0.3); a short label is a specific row.

    A name the question uses is stated where the cell stands (the filer, in the document's
    title) or by the ``row`` itself, its label, heading and title: a segment the question
    names ("Boeing's Commercial Airplanes segment", "PepsiCo's PBNA division") is stated by
    its own row ("Revenues: Commercial Airplanes"), not by the company's total."""
    score = fit + 0.5 + 0.25 * (1 - len(label_terms) / (len(label_terms) + 8))
    if focus:
        score += 0.3 * covered_share(focus, label_terms)
    score += 0.2 * covered_share(profile.terms, terms(passage.context))  # as sentences
    if profile.names:
        place = passage.context or passage.title
        stated = sum(names_in(n, place) or (bool(row) and names_in(n, row)) for n in profile.names)
        score += 0.3 * stated / len(profile.names)
    return score


_Scored = tuple[float, "_Candidate | _Cell | DerivedCandidate", set[frozenset[str]]]
"""A candidate answer with its score and the question's units it matches."""

_LIST_TYPES = frozenset({"list", "date"})
"""Answer types a list answers whole: "which accounts", "when" (on which occasions)."""

_TABLE_TYPES = frozenset({"amount", "percentage", "comparison", "count"})


@dataclass(frozen=True)
class _Cell:
    """A table row answering a figure question: its label and its cells in the asked years."""

    passage: Passage
    page_text: str
    cells: tuple[TableCell, ...]
    min_quote_chars: int = 20
    named: bool = False
    """The question names this row word for word: one part of a question asking several."""
    unit: tuple[int, int] | None = None
    """Where the page states the table's unit ("(Dollars in millions)"), quoted beside the
    cell: "743" alone is no amount, "743 (Dollars in millions)" is."""
    title: str = ""
    """The table's title line, quoted beside a bare "Total" row: it names what the total is of."""

    @property
    def cell(self) -> TableCell:
        return self.cells[0]

    @property
    def text(self) -> str:
        def value(cell: TableCell) -> str:
            return ("$" if cell.dollars and "$" not in cell.value else "") + cell.value

        unit = f" ({self.unit_text})" if self.unit_text else ""
        label = f"{self.title} {self.cell.label}" if self.title else self.cell.label
        if self.cell.block and self.cell.block not in label:
            # A block's name is part of the cell's place: "Income Before Tax of
            # Pharmaceutical", not "Pharmaceutical" (its sales stand in the block beside).
            label = f"{self.cell.block} of {label}"
        if len(self.cells) == 1:
            return f"{label}, {self.cell.year}: {value(self.cell)}{unit}"
        stated = "; ".join(f"{c.year}: {value(c)}" for c in self.cells)
        return f"{label}, {stated}{unit}"

    @property
    def unit_text(self) -> str:
        if self.unit is None:
            return ""
        return " ".join(self.page_text[self.unit[0] : self.unit[1]].split()).strip("()")

    @property
    def figures(self) -> tuple[tuple[int, str], ...]:
        """The years and values it states."""
        return tuple((c.year, c.value.strip("$")) for c in self.cells)

    @property
    def row_name(self) -> str:
        return _row_key(self.cell.label)

    @property
    def order(self) -> tuple[str, str, int, int]:
        """Tied cells: the earlier page first (a filing's statements come before the notes
        and the guarantor groups' condensed copies of them)."""
        passage = self.passage
        return (passage.doc_id, passage.version, passage.page, self.cell.row_start)

    def claim(self) -> Claim:
        passage, cell = self.passage, self.cell
        end = max(c.row_end for c in self.cells)
        row = " ".join(self.page_text[cell.row_start : end].split())
        if len(row) < self.min_quote_chars and cell.row_stop > end:
            # "Gross profit 2,820" is too short a quote to verify: the whole row is quoted.
            row = " ".join(self.page_text[cell.row_start : cell.row_stop].split())
        header_start = cell.header_start
        if self.unit is not None and self.unit[0] < header_start:
            header_start = self.unit[0]  # the unit's title line and the header, one quote
        quotes = [row, " ".join(self.page_text[header_start : cell.header_end].split())]
        if self.title:
            quotes.append(self.title)
        years = ":".join(str(c.year) for c in self.cells)
        where = f"{passage.doc_id}@{passage.version}#{passage.page}:{cell.row_start}:{years}"
        return Claim(
            claim_id="c-" + sha256_hex(where)[:10],
            text=self.text,
            citations=[
                Citation(
                    doc_id=passage.doc_id,
                    version=passage.version,
                    page=passage.page,
                    quote=quote,
                    evidence_id=passage.passage_id,
                )
                for quote in quotes
            ],
        )


LABEL_PRECISION_WEIGHT = 0.3
"""What a row label adds to its cell's score by the share of it that the asked measure states."""

PARTIAL_YEARS_PENALTY = 0.5
"""What a row loses, by the share of the asked years it has no figure for."""

MIN_TOTAL_FIT = 0.6
"""The share of the measure (beyond "total" and "net") a bare "Total" row's table title must
state: most of it, as a row label must (its company's name aside)."""

NAMED_ROW_BONUS = 0.3
"""What a row the question names word for word adds to its cell's score ("total current
assets" asked: the row "Total current assets", not "Total assets")."""

FILERS_SHARE_BONUS = 0.05
"""What a row named by a shorthand adds when it is the filer's share of the figure ("Net
income attributable to Amcor plc" over "Net income" for "bottom line"): a tie-break."""

_DASHES = frozenset({"—", "–", "-"})
_MONEY_UNIT = re.compile(r"\$|\bdollars?\b|\busd\b|\beuros?\b|€|£", re.IGNORECASE)
"""A table unit of money ("$ in millions", "Dollars in millions")."""
_PART_KINDS = frozenset(terms("segment segments business division divisions"))
"""The words naming the kind of part of a filer a question asks about."""
_RATIO_ROW = re.compile(r"\bratio\b|\bper\s?cent(?:age)?\b|%|\bmargin\b|\btimes\b", re.I)
"""A row stating a quotient ("Current ratio", "Operating income as a percent of sales")."""
_ASKS_PERCENT = re.compile(r"\bper\s?cent(?:age)?\b|%", re.IGNORECASE)
_PRIOR_YEAR = re.compile(
    r"\b(?:a|the|one)\s+year\s+(?:earlier|before|prior)\b|\b(?:the\s+)?(?:prior|previous|"
    r"preceding)\s+(?:fiscal\s+)?year\b",
    re.IGNORECASE,
)


def _asked_years(profile: QuestionProfile) -> tuple[int, ...]:
    """The years a question asks figures for: those it names, and the one before a named
    year when it also asks for "the figure a year earlier" or "the prior year"."""
    years = profile.period_years
    if len(years) == 1 and _PRIOR_YEAR.search(profile.question):
        return (years[0] - 1, years[0])
    return years


_PHRASE_WORD = re.compile(r"[a-z0-9]+")
_NOTE_REF = re.compile(r"\((?:notes?|see)\b[^)]*\)", re.IGNORECASE)


def _phrase_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` as written, "&" read as "and"."""
    return _PHRASE_WORD.findall(text.lower().replace("&", " and "))


def _row_key(label: str) -> str:
    """A row's name as compared between claims (the same row on two pages is one)."""
    return " ".join(_phrase_words(_row_name(label)))


def _row_name(label: str) -> str:
    """A row's own name: the label after its section headings ("Current assets: Cash") and
    without references to notes ("Inventories (Notes 1 and 3)")."""
    return _NOTE_REF.sub(" ", label.rpartition(":")[2])


_ABBREVIATION = re.compile(r"[A-Z]{3,6}|[A-Z]{1,3}&[A-Z]{1,3}")
"""An acronym a question may name a row by: capitals only ("FCF"), or two letters and more
around an "&" ("G&A", "SG&A"): two capitals alone are too often something else."""


def _counts_other(name: str, counted: str | None) -> bool:
    """Does a row named ``name`` measure something else than the ``counted`` thing it names:
    as a modifier only ("Total business segment operating income" for "how many segments"),
    or as one of them ("Total Safety and Industrial Business Segment")? A row counting it
    says "number of" or ends with its plural ("Segments", "Retail stores")."""
    own = term_tuple(_row_name(name))
    if not counted or counted not in own or own[:1] == ("number",):
        return False
    words = _phrase_words(_row_name(name))
    return own[-1] != counted or not words or not words[-1].endswith("s")


def _row_abbreviated(
    name: str, groups: frozenset[int], acronyms: Sequence[str], place: str
) -> bool:
    """Does the question name the row ``name`` by another member of its lexicon group (its
    terms one of ``groups``: "FCF" for "Free cash flow", "top line" for "Net sales") or by an
    acronym of its opening words ("G&A": "General and administrative expense"), one its
    passage's ``place`` does not state (the company's own name, a ticker)? The filer's share of
    the figure is the figure ("Net income attributable to Amcor plc" for "bottom line")."""
    own = list(term_tuple(_row_name(name)))
    if own[:1] == ["total"] and len(own) > 1:
        own = own[1:]
    if _filers_share(name, place):
        own = own[: own.index("attributable")]
    words = _phrase_words(_row_name(name))
    # "Other current assets" is no member of the group "total assets" names, though its
    # terms ("asset") are: a modifier the terms leave out ("other", "current") says which.
    modified = any(w not in _FUNCTION_WORDS and not terms(w) for w in words)
    if (
        groups
        and not modified
        and any(
            start == 0 and end == len(own) and group in groups
            for start, end, group in lexicon().keys(own)
        )
    ):
        return True
    if words[:1] == ["total"]:
        words = words[1:]
    return any(
        not names_in(acronym, place) and _opening_initials(acronym, words) for acronym in acronyms
    )


_PER_SHARE = re.compile(r"\bper\s+(?:\w+\s+)?share\b|\bEPS\b", re.IGNORECASE)
"""A figure per share ("earnings per diluted share", "EPS")."""
_SHARE_COUNT = re.compile(r"\bshares\b", re.IGNORECASE)
"""A row counting shares ("Weighted average common shares outstanding — diluted")."""

_FUNCTION_WORDS = frozenset(
    {"a", "an", "and", "of", "the", "for", "in", "on", "to", "from", "by", "with", "at", "as"}
    | {"or", "per", "its", "their"}
)
"""Words a row name joins its terms with: no modifier of what it names."""


def _filers_share(name: str, place: str) -> bool:
    """Is the row ``name`` a figure's part attributable to the filer, whom its passage's
    ``place`` (the document's title) names ("Net income attributable to Amcor plc")?"""
    own = term_tuple(_row_name(name))
    if "attributable" not in own[1:]:
        return False
    whose = own[own.index("attributable") + 1 :]
    placed = set(term_tuple(place))
    return bool(whose) and all(t in placed for t in whose)


def _opening_initials(acronym: str, words: Sequence[str]) -> bool:
    """Do the first of ``words`` spell ``acronym`` by their initials, "and" for its "&"
    ("General and administrative expense" for "G&A"), and "of", "for" or "the" standing between
    ("cost of goods sold" for "COGS")?"""
    at = 0
    for char in acronym.lower():
        if char == "&":
            if at < len(words) and words[at] == "and":
                at += 1
            continue
        while at < len(words) and words[at] in _INITIALS_SKIP and words[at][0] != char:
            at += 1
        if at >= len(words) or words[at][0] != char:
            return False
        at += 1
    return True


def _states_row(label: str, asked_words: Sequence[str]) -> bool:
    """Does the question state the row's name word for word (a name of two words or more, or
    one long word: "inventories")?"""
    name = _phrase_words(_row_name(label))
    if name[:1] == ["total"] and len(name) > 2:
        name = name[1:]  # "Total restructuring and impairment charges": the charges asked
    if not name or (len(name) == 1 and len(name[0]) < 6):
        return False
    n = len(name)
    return any(list(asked_words[i : i + n]) == name for i in range(len(asked_words) - n + 1))


def _subject_only(profile: QuestionProfile) -> QuestionProfile:
    """A question asking which provision says something, weighed by what it asks about and the
    names it gives (:func:`provision_subject`): the words calling the provision ("which
    control covers") are stated by no sentence of the answer, which names the provision
    before its quote. Any other question unchanged."""
    subject = set(provision_subject(profile))
    if not subject:
        return profile
    named = {t for n in profile.names for t in terms(n)}
    kept = tuple(t for t in profile.terms if t in subject or t in named)
    return replace(profile, terms=kept) if kept != profile.terms else profile


def _best_titled(
    profile: QuestionProfile, ranked: list[_Scored], evidence: Sequence[Passage]
) -> list[_Scored]:
    """The candidates of the provisions best stating what a question asking which provision
    says something asks about (:func:`provision_fit`: what its title states, and what its
    title and statement state; "which control is segregation of duties" is AC-5 "Separation
    of Duties", not SC-7(20) "Dynamic Isolation and Segregation"), in their order (provisions
    fitting alike are told apart by their sentences' scores); ``ranked`` unchanged when no
    title of the candidates states any of it. Table cells and derived figures are no
    provision's text and are kept."""
    subject = provision_subject(profile)
    if not subject:
        return ranked
    weights = subject_weights(subject, evidence)
    fits: dict[tuple[str, str, str], float] = {}
    titles: dict[tuple[str, str, str], float] = {}
    for _, candidate, _ in ranked:
        if isinstance(candidate, _Candidate):
            titled, stated = provision_fit(candidate.passage, subject, weights)
            phrased = phrase_fit(candidate.passage, subject)
            key = provision_key(candidate.passage)
            # The title counts twice: once alone, once with the statement it heads; and the
            # subject's phrases it states ("Cryptographic Protection") tell apart titles
            # sharing its words ("Cryptographic Keys" under "Protection of Information").
            fits[key] = max(fits.get(key, 0.0), round(titled + stated + phrased, 9))
            titles[key] = max(titles.get(key, 0.0), titled)
    if not fits or max(titles.values()) == 0.0:
        return ranked
    # A provision whose title states none of it answers only when none does.
    best = max(fit for key, fit in fits.items() if titles[key] > 0.0)
    return [
        scored
        for scored in ranked
        if not isinstance(scored[1], _Candidate) or fits[provision_key(scored[1].passage)] == best
    ]


class _Prepared(NamedTuple):
    """:meth:`ExtractiveGenerator._prepared`: the candidates, their terms, their places'
    terms, the terms of their section headings and whether each stands in its record's
    supplement (:class:`_PageStructure`)."""

    candidates: list[_Candidate]
    sentence_terms: list[tuple[str, ...]]
    context_terms: list[tuple[str, ...]]
    heading_terms: list[tuple[str, ...]]
    supplements: list[bool]


def _headcount_draft(ask: HeadcountAsk, candidates: Sequence[_Candidate]) -> Draft | None:
    """The draft for a question asking how many people a filer employs, when a sentence of the
    evidence states that count for the asked scope and year ("the Company employed
    approximately 95,000 people"), or states the counts it is computed from (the whole and the
    United States for those outside it, two years' counts for a change): that sentence, or a
    derived claim quoting it (:func:`headcount_claims`). None when no sentence gives it: the
    question is then drafted as any other."""
    found = headcount_claims(ask, [(c.passage, c.sentence.text) for c in candidates])
    if found is None:
        return None
    return _draft([candidates[found].claim() if isinstance(found, int) else found])


@dataclass(frozen=True)
class _Candidate:
    """A sentence of a passage that could answer, with the list lead-in it needs to be read."""

    passage: Passage
    sentence: Sentence
    lead: Sentence | None = None
    lead_passage: Passage | None = None
    """The passage the lead-in stands in when it is another (the paragraph an item is under);
    the passage itself otherwise."""
    example: bool = False
    """Whether the sentence gives an example or goes on with the one before it ("For example,
    ... $950 ... $1,000. However, if ... $949 ..."): it answers a question about that case."""
    more: tuple[Sentence, ...] = ()
    """The further items of a list drafted together, after ``sentence`` (its first)."""
    items: int = 0
    """How many list items the claim states (a list read whole; 0 for a plain sentence)."""
    more_passages: tuple[Passage, ...] = ()
    """The passage of each of ``more`` when the items stand in passages of their own (a
    regulation's "(i) ...;", "(ii) ..." under their paragraph's lead-in); empty when ``more``
    stands in ``passage``."""

    @property
    def listed(self) -> list[Sentence]:
        """The list items the claim states."""
        if self.more:
            return [self.sentence, *self.more]
        return [part for part, kind in _list_items(self.sentence) if kind is not None]

    @property
    def parts(self) -> list[Sentence]:
        """What the claim quotes: the lead-in when it has one, the sentence, further items."""
        return [*([self.lead] if self.lead is not None else []), self.sentence, *self.more]

    @cached_property  # read for every score of the candidate
    def text(self) -> str:
        """The claim's text: the sentence, after its lead-in when it has one."""
        return " ".join(part.text for part in self.parts)

    @property
    def order(self) -> tuple[str, str, int, int]:
        # Tied sentences keep their order of old (by offset); a table's cells go by page.
        return (self.passage.doc_id, self.passage.version, 0, self.sentence.start)

    def claim(self) -> Claim:
        passage = self.passage
        parts = self.parts
        # Every part's span: two candidates may open at one offset (an item "a. ..." alone
        # and "a. ... b. ..." read as one block), and a draft's claim ids must be distinct.
        spans = ",".join(f"{part.start}-{part.end}" for part in parts)
        if self.more_passages:
            # Items of several pages: each span with its page (offsets restart on each page).
            spans += "|" + ",".join(str(p.page) for p in self.more_passages)
        where = f"{passage.doc_id}@{passage.version}#{passage.page}:{spans}"
        claim_id = "c-" + sha256_hex(where)[:10]
        return Claim(
            claim_id=claim_id,
            text=self.text,
            citations=[
                Citation(
                    doc_id=source.doc_id,
                    version=source.version,
                    page=source.page,
                    quote=part.text,
                    evidence_id=source.passage_id or None,  # a parent page not retrieved
                )
                for part, source in zip(parts, self._sources(), strict=True)
            ],
        )

    def _sources(self) -> list[Passage]:
        """The passage each of :attr:`parts` stands in."""
        lead = [self.lead_passage or self.passage] if self.lead is not None else []
        more = list(self.more_passages) or [self.passage] * len(self.more)
        return [*lead, self.passage, *more]


_PARAMETER_FRAME = re.compile(
    r"\[\s*(?:Assignment|Selection)(?:\s*\(one\s+or\s+more\))?\s*:\s*"
    r"(?:(?:organization|organisation)-defined\b)?",
    re.IGNORECASE,
)
"""The frame of a parameter a control leaves to the organization ("[Assignment:
organization-defined", "[Selection (one or more):"): words of the catalog's template."""


_FRAME_TERMS = frozenset(
    terms(
        "require requires required requirement requirements oblige obliges obliged obligation "
        "obligations mandate mandates mandatory need needs comply compliance meet satisfy "
        "control controls enhancement say says set sets demand demands expect expects "
        "summarize summarise summary explain describe outline what whats"
    )
)
"""Words by which a question asks what a named rule requires ("what does control SR-2
require", "what obligations does SR-2 set out", "what do we need to do to comply with PT-2"):
they say the kind of sentence asked for (a requirement: :attr:`QuestionProfile.normative`),
not what it is about. A guidance sentence saying "requires" or "controls" matches them, the
requirement itself ("Develop a plan ...") seldom does."""


_KIND_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:kinds?|types?|sorts?|forms?)\s+of\s+([A-Za-z][\w-]*)", re.IGNORECASE
)
"""A question asking what kind of thing ("what kind of lock", "which type of acknowledgment"):
the thing, which its answer states."""
_THING_ASKED = re.compile(
    r"(?:^\W*|[,:;-]\s+)(?:what|which)\s+"
    r"(?!(?:do|does|did|is|are|was|were|must|can|may|i|we|you|they|it)\b)"
    r"((?:[a-z][\w-]*\s+)?[a-z][\w-]*)\s+"
    r"(?:must|shall|should|may|can|could|does|do|did|is|are|was|were|will|would|has|have|"
    r"applies|apply)\b",
    re.IGNORECASE,
)
"""A question asking which thing ("what option must ...", "which records are ..."): the thing,
which its answer names."""
_KIND_UNSTATED = 0.8
"""The weight of a sentence that does not state the thing whose kind is asked."""


_CONTENT_ASKED = re.compile(
    r"(?:^\W*|[,:;-]\s+)(?:what|which\s+\w+)\s+(?:must|should|shall|does|do|will|has\s+to|have\s+to)\s+"
    r"(?:the|a|an|each|every|this|that|its|their)\s+((?:[\w-]+\s+){0,3}?[\w-]+)"
    r"(?:\s+(?:of|for|to)\s+(?:the\s+|a\s+|an\s+)?[\w-]+)?\s+"
    r"(?:include|includes|contain|contains|state|states|say|says|tell|tells|specify|"
    r"specifies|show|shows|list|lists|cover|covers|describe|describes|name|names)\b",
    re.IGNORECASE,
)
"""A question asking what a thing says or holds ("what must the acknowledgement of a
complaint tell the customer?", "what should the notice include?"): the thing."""
_SUBJECT = re.compile(
    r"^\s*((?:[\w'’-]+\s+){1,6}?)(?:must|shall|should|may|will|is|are)\b", re.IGNORECASE
)
"""A sentence's subject: its words before its first modal or verb "to be"."""
_OTHER_SUBJECT = 0.7
"""The weight of a sentence about another subject than the thing whose content is asked."""


_WHICH_RULE = re.compile(
    r"\b(?:which|what)\s+(?:(?:control|security|privacy|nist)\s+)?"
    r"(?:controls?|enhancements?|requirements?|rules?|provisions?|sections?|clauses?)\b",
    re.IGNORECASE,
)
"""A question asking which rule states something ("which enhancement requires logging the
execution of privileged functions"): it names none, but its "requires" frames it the same."""


def _without_frame(profile: QuestionProfile) -> QuestionProfile:
    """The profile without the words framing a requirement question that names its rule, or
    asks which rule it is (:data:`_FRAME_TERMS`); unchanged when that would leave no term."""
    if not (profile.normative and (profile.names or _WHICH_RULE.search(profile.question))):
        return profile
    named = {t for n in profile.names for t in terms(n)}
    kept = tuple(t for t in profile.terms if t not in _FRAME_TERMS or t in named)
    if not kept or len(kept) == len(profile.terms):
        return profile
    return replace(profile, terms=kept)


SCENE_WEIGHT = 0.1
"""How much a word only of a question's scenario weighs against the words of its ask (see
:func:`evidencegate.analysis.ask_clause`)."""
ACTION_BONUS = 0.15
"""What a sentence stating the action a yes/no question asks about under its modal adds
("must not tell" for "Am I allowed to tell ...?")."""
OPPOSITE_CASE_PENALTY = 0.8
"""What a sentence for a negated case ("If you do NOT tell us ...") keeps of its score for a
question that negates nothing."""
DEFINITION_BONUS = 0.5
"""What a sentence defining the term a question asks the meaning of gains (see
:func:`evidencegate.analysis.asked_term`): a definition is the answer however few of the
question's other words it shares."""
SCENE_PAIR_BONUS = 0.25
"""What each pair of a question's scenario words a sentence states near each other adds."""
SCENE_PAIRS_COUNTED = 3


def _near_pairs(words: Sequence[str], reach: int = 2) -> set[frozenset[str]]:
    """The pairs of distinct words at most ``reach`` apart, unordered ("a counteroffer the
    applicant never accepted" and "the applicant of a counteroffer" share one)."""
    return {
        frozenset((a, b))
        for i, a in enumerate(words)
        for b in words[i + 1 : i + 1 + reach]
        if a != b
    }


_REFERRED_CASE = re.compile(
    r"^\W*(?:for|in|with\s+respect\s+to)\s+[^,;:]{0,100}?\b(?:subject\s+to|governed\s+by|"
    r"described\s+in|referred\s+to\s+in|set\s+forth\s+in)\s+(?:paragraphs?|§|sections?)\s",
    re.IGNORECASE,
)
"""A sentence opening with the case another provision sets ("For applications subject to
paragraph (a)(1) of this section, ...")."""
REFERRED_CASE_WEIGHT = 0.8
"""The weight of such a sentence for a question naming no provision."""
_PROVISION = re.compile(r"§|\bparagraph\s*\(|\b\d{3,4}\.\d+\s*\(", re.IGNORECASE)
_CASE = re.compile(r"^\W*(?:when|if|where|whenever|in\s+the\s+case\s+of)\s+([^,;:]{8,}?),", re.I)
"""A sentence opening with the case it applies to ("When a Complaint comes from a Vulnerable
Customer, ..."): the words of that case."""
_ASKS_CASE = re.compile(r"\b(?:if|when|whenever|where|once|unless|in\s+case)\b", re.I)
"""A question setting out a case of its own: a sentence for a case answers it, in its words."""
_SECTION_NUMBER = re.compile(r"^\s*(?:§\s*)?\d+(?:\.\d+)+\.?\s+|^\s*\(?[a-z0-9]{1,3}[.)]\s+")

_CHANGE_NOTE = re.compile(
    r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?(?:this|the\s+(?:new|current|present))\s+"
    r"(?:version|revision|edition|update|amendment|release)\s+(?:of\s+\w+(?:\s+\w+)?\s+)?"
    r"(?:\w+\s+)?(?:raises|lowers|shortens|lengthens|extends|adds|removes|replaces|introduces|"
    r"changes|amends|updates|increases|decreases|reduces|deletes|supersedes|withdraws)\b",
    re.IGNORECASE,
)
"""A note on what a version of the document changes ("11.1 This version raises the annual
limit ...", "This version supersedes version 2022.1"): about the document, not a rule of it."""
_FIGURE_CHANGE_ASKED = re.compile(
    r"\b(?:increas|decreas|chang|grow|grew|rise|rose|fall|fell|declin|drop|differen|compar|"
    r"vs\b|versus|improv|reduc)",
    re.IGNORECASE,
)
"""Words by which a question asks how a figure changed."""
_STATED_CHANGE = re.compile(
    r"\b(?:increas|decreas|rise|rose|risen|fell|fall|declin|grew|grow|drop|improv|chang|reduc|"
    r"up|down|higher|lower)\w*\s+(?:(?:[\w'’-]+\s+){0,6}?by\s+|by\s+)?"
    r"(?:approximately\s+|about\s+|nearly\s+|over\s+)?"
    r"\(?[$€£]?\s*\d[\d,.]*\)?\s*(?:%|percent(?:age\s+points?)?\b|basis\s+points?\b|"
    r"points?\b|million\b|billion\b)?",
    re.IGNORECASE,
)
"""A figure stated as a change ("increased 9.1%", "decreased by $1.2 billion")."""
_FORECAST = re.compile(
    r"\b(?:expects?|expected\s+to|anticipates?|forecasts?|projects?|projected|outlook|guidance|"
    r"plans?\s+to|intends?\s+to|estimates?\s+that)\b",
    re.IGNORECASE,
)
"""How a filing states an outlook ("expects ... to be in the range of"), and how a question asks
for one."""
FORECAST_PENALTY = 0.5
"""What a sentence stating an outlook keeps of its score when a reported figure is asked."""
CHANGE_ONLY_PENALTY = 0.5
"""What a sentence stating only how the asked figure changed keeps of its score."""


def _states_change_only(profile: QuestionProfile, text: str) -> bool:
    """Does ``text`` state the asked kind of figure only as a change ("increased 9.1%")?"""
    unchanged = _without_change(text)
    if unchanged is None or not profile.states_figure(text):
        return False
    return not profile.states_figure(unchanged)


@lru_cache(maxsize=4096)  # pure; every ask of a question reads the same sentences
def _without_change(text: str) -> str | None:
    """``text`` with its figures stated as a change blanked out; None when it states none."""
    if not _STATED_CHANGE.search(text):
        return None
    return _STATED_CHANGE.sub(" ", text)


@lru_cache(maxsize=4096)  # pure; every ask of a question reads the same sentences
def _forecasts(text: str) -> bool:
    """Does ``text`` state an outlook (:data:`_FORECAST`)?"""
    return _FORECAST.search(text) is not None


_CHANGE_WORDS = frozenset(
    terms("change changes changed new version versions revision revised amend amended differ")
)
"""Words by which a question asks what a version changed (then its change notes answer)."""


_PERIOD_TERMS = frozenset(
    terms("year years yearly annual annually calendar period current date dates")
)
"""Words by which a question asks for a period's figure; a sentence stating its period (one
covering the question's target, or it is never drafted) matches them."""

_YEAR_RE = re.compile(r"\b((?:19|20)\d\d)\b")
_FISCAL_VERSION = re.compile(r"^FY((?:19|20)\d\d)$", re.IGNORECASE)


def _reported_year(profile: QuestionProfile, evidence: Sequence[Passage]) -> int | None:
    """The fiscal year of the filing a question without a year is answered from, if the
    evidence is one periodic filing (version ``FY2018``): the year its figures are for."""
    if profile.years:
        return None
    years = {int(m.group(1)) for p in evidence if (m := _FISCAL_VERSION.match(p.version))}
    return years.pop() if len(years) == 1 else None


_TABLE_ROWS = 2
"""Lines ending in a figure that make a "sentence" a table: one may be prose wrapped at a
number ("... totaled $8.7 billion and net identifiable intangible assets totaled $2.7"), two
are rows."""
_NUMERIC_TOKEN = re.compile(r"^[($]*-?[\d,.]*\d[\d,.]*(?:%?\)?|\)%)$|^[—–$%]$")
"""A table cell: "1,234", "(1,577)", "($4,574)", "12.5%", "(0.5)%", "—"."""


_FIGURE_RULE_GUIDANCE = 0.8
"""The weight of a sentence stating no requirement for a question asking a rule's figure
("When must accounts be disabled", "how often must ..."): milder than for "what does X
require", since a figure may stand in a sentence of another form."""

_SUPPLEMENT_WEIGHT = 0.5
_SECTION_BONUS = 0.15
"""The bonus for a sentence whose section heading states all the question's words (in
proportion to those it states): half the weight of the question's focus stated by the sentence
itself, since a heading is shared by all its section's sentences."""
"""The weight of a sentence in a catalog record's supplement (:class:`_PageStructure`): the
discussion of a requirement, as a non-requirement weighs for "what does X require"."""

_UNASKED_PART = 0.8
"""The weight of a sentence of a control's enhancement whose own title the question says
nothing of."""

_DESCRIBED_FIT = 0.75
"""How much of a control's description (:func:`described`) the best-fitting title in the
evidence must state for the other passages' sentences to weigh less: "log review" is said
by "Audit Record Review"; a title stating one word of two may be any control's."""

_LONG = 600
"""Characters beyond which a "sentence" of several lines, or of many figures, is a page
blob, not a claim (a long sentence of prose on a line or two is one still); a list read whole
may be longer (:data:`_WHOLE_LIST`), and is then drafted only as a whole rule asked for."""
_BLOB_LINES = 3
_WHOLE_LIST = 1500


@lru_cache(maxsize=8192)  # pure; the same passages' sentences are read for every question
def _tabular(text: str, reach: int = _LONG) -> bool:
    """Is this "sentence" a run of table cells (numbers outnumber words) or a page blob?

    A table the page text keeps line by line is also one: several of its lines end in a
    figure ("Net sales - external $ 1,065" / "Cost of sales (830)"), as rows do and lines of
    prose do not. Its rows are read as cells, with their headers.
    """
    tokens = text.split()
    numbers = sum(bool(_NUMERIC_TOKEN.match(t)) for t in tokens)
    if numbers >= 6 and numbers * 3 >= len(tokens):
        return True
    if len(text) > reach and (text.count("\n") >= _BLOB_LINES or numbers * 8 >= len(tokens)):
        return True  # a page blob; a long sentence of prose on a line or two is one still
    lines = [line.split() for line in text.splitlines() if line.strip()]
    rows = sum(
        len(line) >= 2
        and bool(_NUMERIC_TOKEN.match(line[-1]))
        and line[-1][-1] in "0123456789)%—–"
        and not _YEAR_RE.fullmatch(line[-1])
        for line in lines
    )
    return rows >= _TABLE_ROWS


_ENHANCEMENT = re.compile(r"^([A-Z]{2,3}-\d+)\s*\(\d+\)$")


def _states_requirement(candidate: _Candidate) -> bool:
    """Does the claim state a requirement: its own words ("(b) Verify, when users create
    ...") after a lead-in that does not ("For password-based authentication:"), or its
    lead-in ("The organization must ensure that:") before items that do not?"""
    return is_normative(candidate.sentence.text) or is_normative(candidate.text)


def _whole_rule(
    candidate: _Candidate, rest: Sequence[str], context: Sequence[str], names: Sequence[str]
) -> bool:
    """Is the list read whole the rule a requirement question asks for as a whole: the list of
    the passage labelled by a name the question asks about, whose heading states every other
    word of the question (``rest``, without its frame words)?"""
    if not any(labelled_by(candidate.passage, n) for n in names):
        return False
    return not rest or covered_share(rest, context) >= 1.0


def _name_fit(name: str, candidate: _Candidate, labelled: bool = False) -> float:
    """How surely the sentence is about the asked ``name``: 1 when its passage (heading path,
    title) or the sentence names it; 0 when only the sentence does, as a cross-reference from
    a passage about a sibling ("see IA-5(1)(d)" in IA-5(18) for a question on IA-5(1)).

    When the evidence holds the passage ``labelled`` by the name itself, a passage whose label
    only starts with it (an enhancement "SR-2(1)" of the asked control "SR-2") fits by half:
    it is named in part, as the part of another requirement."""
    passage = candidate.passage
    return _named_fit(name, passage.context, passage.label, candidate.text, labelled)


@lru_cache(maxsize=4096)  # pure; every ask of a question weighs the same names and sentences
def _named_fit(name: str, context: str, label: str | None, text: str, labelled: bool) -> float:
    """:func:`_name_fit` of a sentence ``text`` in a passage of ``context`` and ``label``."""
    name = section_sign(name)
    place = context + "\n" + (label_citation(label) or "")
    if names_in(name, section_sign(place)):
        if labelled and not label_is(label, name) and names_in(name, label or ""):
            return 0.5
        return 1.0
    if not names_in(name, section_sign(text)):
        # A name the sentence writes out in words the lexicon knows it by ("PEP" for
        # "politically exposed person", "COO" for "Chief Operating Officer").
        return 1.0 if _spelled_out(name, text) else 0.0
    family = _ENHANCEMENT.match(name.strip())
    heading = (label or context.partition("\n")[0]).strip()
    if family and heading.startswith(family.group(1)):
        return 0.0  # a cross-reference from another part of the same control
    return 1.0


@lru_cache(maxsize=4096)  # pure; every ask of a question weighs the same names and sentences
def _spelled_out(name: str, text: str) -> bool:
    """Does ``text`` state ``name`` by a synonym of the lexicon (an acronym written out)?"""
    asked = terms(name)
    if not asked or any(ch.isdigit() for ch in name):
        return False  # an identifier (AC-2(3), § 1026.19) is only ever named as itself
    units = match_units(asked)
    if any(len(u) > 1 for u in units) and len(matched_units(asked, terms(text))) == len(units):
        return True
    return _initials(name, text)


_INITIALS_WORD = re.compile(r"[A-Za-z][\w-]*")


def _initials(name: str, text: str) -> bool:
    """Does ``text`` write out an acronym ``name`` by the initials of consecutive words
    ("UPS": "uninterruptible power supply"; "and", "of" may stand between: "R&D")?"""
    letters = name.replace("&", "").lower()
    if not re.fullmatch(r"[a-z]{3,6}", letters) or not name.isupper():
        return False
    words = [w.lower() for w in _INITIALS_WORD.findall(text)]
    for start in range(len(words)):
        at, i = start, 0
        while at < len(words) and i < len(letters):
            if words[at][0] == letters[i]:
                i += 1
            elif at == start or words[at] not in _INITIALS_SKIP:
                break
            at += 1
        if i == len(letters):
            return True
    return False


_INITIALS_SKIP = frozenset({"and", "of", "for", "the", "to"})


_AT_LEAST = (
    r"(?:(?:no|not)\s+(?:less|fewer|earlier|shorter|lower)|(?<!no\s)(?<!not\s)(?:more|greater|"
    r"longer|later|higher)|above|over|exceed\w*|in\s+excess|at\s+least|minimum)"
)
_AT_MOST = (
    r"(?:(?:no|not)\s+(?:more|greater|later|longer|higher)|(?<!no\s)(?<!not\s)(?:less|fewer|"
    r"shorter|earlier|lower)|below|under|up\s+to|at\s+most|maximum|within)"
)


@lru_cache(maxsize=4096)  # pure; every ask of a question bounds the same numbers
def _bound(text: str, number: str) -> str | None:
    """Whether ``text`` bounds ``number`` from below ("45 days or more", "more than $5,000",
    "45+") or from above ("less than 45 days", "no later than 30 days", "up to $100"):
    ``"min"``, ``"max"`` or None."""
    flat = re.sub(r"(?<=\d),(?=\d{3})", "", text)
    if number not in flat:
        return None  # every form below states the number: no pattern to build for this text
    figure = r"(?:US)?[$€£]?\s?" + re.escape(number) + r"(?![\d.,]\d)"
    for bound, words in (("min", _AT_LEAST), ("max", _AT_MOST)):
        if re.search(
            rf"\b{words}\s+(?:than\s+|of\s+|to\s+)?{figure}|(?<![\d.]){figure}\+|"
            rf"(?<![\d.]){figure}\s+(?:[\w-]+\s+){{0,2}}?or\s+{words}\b",
            flat,
            re.IGNORECASE,
        ):
            return bound
    return None


_MONEY_FIGURE = re.compile(r"(?:US)?[$€£]\s?(\d[\d,]*(?:\.\d+)?)")


@lru_cache(maxsize=4096)  # pure; every ask of a question weighs the same sentences
def _case_fit(text: str, given: tuple[Decimal, ...]) -> int:
    """Whether the sums a sentence bounds are the case of the sums a question sets out: 1
    when each bound holds them ("above $100" for a $130 gift), -1 when one excludes them
    ("up to $100"), 0 when the sentence bounds no sum."""
    fit = 0
    for match in _MONEY_FIGURE.finditer(text):
        figure = match.group(1).replace(",", "")
        bound = _bound(text, figure)
        if bound is None:
            continue
        limit = Decimal(figure)
        for amount in given:
            if (bound == "max" and amount > limit) or (bound == "min" and amount < limit):
                return -1
            fit = 1
    return fit


@lru_cache(maxsize=4096)  # pure; every draft of a run reads its question again
def _negated(text: str) -> frozenset[str]:
    """The stems of the words a text negates ("does not increase" -> {"increas"})."""
    return frozenset(stem for cue in negation_cues(text) for stem in terms(cue.term))


_REFERS_BACK = re.compile(r"\bsuch\b(?!\s+as\b)", re.IGNORECASE)
"""A sentence speaking of "each such appraisal": what it is about is said before it."""


@lru_cache(maxsize=4096)  # pure; every draft reads the same sentences again
def _refers_back(text: str) -> bool:
    return _REFERS_BACK.search(text) is not None


_HEADING_LINE = re.compile(r"^[ \t]*#{1,6}[ \t]+(\S.*?)[ \t#]*$", re.MULTILINE)
"""A Markdown heading line ("## 5. Holding period")."""
_BLOCK_BREAK = re.compile(r"\n[ \t]*\n")
"""A blank line: the end of a block of text."""


class _PageStructure:
    """Where the evidence's sentences stand in their pages, read from the page text (with
    ``pages``, the store) or else from the passages themselves.

    - A page written in sections (a policy in Markdown) gives each sentence the heading of
      its section: the last heading line before it, in its passage or earlier on its page.
    - A labelled record (a catalog's control "AC-7", a regulation's paragraph) whose text is
      several blocks is its requirement, the first block, followed by a supplement that
      discusses it (the catalog's "statement+guidance"). A record of one block (a regulation's
      paragraph) has no supplement, nor has an unlabelled page (a policy, a filing).
    """

    def __init__(self, evidence: Sequence[Passage], pages: SourceLookup | None) -> None:
        self._pages = pages
        self._texts: dict[tuple[str, str, int], str] = {}
        self._looked_up: set[tuple[str, str, int]] = set()
        self._headings: dict[tuple[str, str, int, int], str] = {}
        self._breaks: dict[tuple[str, str, int], int | None] = {}
        for passage in evidence:
            if passage.char_start == 0:
                key = (passage.doc_id, passage.version, passage.page)
                known = self._texts.get(key)
                if known is None or len(passage.text) > len(known):
                    self._texts[key] = passage.text  # the page's opening, at least

    def _page_text(self, passage: Passage) -> str | None:
        """The page's text from its start, as far as known (None: nothing before the passage
        is known)."""
        key = (passage.doc_id, passage.version, passage.page)
        if self._pages is not None and key not in self._looked_up:
            self._looked_up.add(key)
            source = self._pages.lookup(passage.doc_id, passage.version, passage.page)
            if source is not None:
                self._texts[key] = source.page.text
        text = self._texts.get(key)
        if passage.char_start == 0 and (text is None or len(text) < len(passage.text)):
            return passage.text
        return text

    def heading(self, candidate: _Candidate) -> str:
        """The heading of the section the candidate stands in ("5. Holding period"), or ""."""
        passage = candidate.passage
        before = passage.text[: max(candidate.sentence.start - passage.char_start, 0)]
        found = _HEADING_LINE.findall(before) if "#" in before else []
        if found:
            return str(found[-1])
        if passage.char_start == 0:
            return ""
        key = (passage.doc_id, passage.version, passage.page, passage.char_start)
        if key not in self._headings:
            page = self._page_text(passage)
            earlier = page[: passage.char_start] if page is not None else ""
            above = _HEADING_LINE.findall(earlier) if "#" in earlier else []
            self._headings[key] = str(above[-1]) if above else ""
        return self._headings[key]

    def in_supplement(self, candidate: _Candidate) -> bool:
        """Does the candidate stand after the first block of a labelled record's text?"""
        passage = candidate.passage
        if not (passage.label or "").strip():
            return False
        key = (passage.doc_id, passage.version, passage.page)
        if key not in self._breaks:
            self._breaks[key] = self._first_break(passage)
        end = self._breaks[key]
        return end is not None and candidate.sentence.start >= end

    def _first_break(self, passage: Passage) -> int | None:
        """Where the page's text after its first block starts (None: one block, or unknown);
        an opening passage that shows the break needs no page."""
        known = self._texts.get((passage.doc_id, passage.version, passage.page))
        for page in (known, None):
            if page is None:
                page = self._page_text(passage)
                if page is None:
                    return None
            opening = re.search(r"\S", page)
            if opening is None:
                return None
            end = _BLOCK_BREAK.search(page, opening.start())
            if end is not None:
                return end.end()
            if page is not known:
                return None
        return None


_SETUP_SENTENCES = 4
"""At most this many sentences set out a worked example's case before its answer."""


@lru_cache(maxsize=256)
def _given_figure(number: str) -> re.Pattern[str]:
    """``number`` standing as a figure of its own ("US$15", "15 days"; not "150", "1.15")."""
    return re.compile(r"(?<![\d.,])" + re.escape(number) + r"(?![\d]|[.,]\d)")


def _worked_answers(
    candidates: Sequence[_Candidate], given: Sequence[str]
) -> list[tuple[int, _Candidate]]:
    """Each sentence of a worked example following the sentences that set out two or more of
    the figures a question gives, read after them (with the index of the sentence alone): the
    case it answers is stated there, not in the sentence itself ("Once the provider
    determines that an error occurred ..., it will refund US$95" after "A sender instructs
    ... US$100 ... a transfer fee of US$10 ... a fee of US$15 ...")."""
    if len(given) < 2:
        return []
    worked: list[tuple[int, _Candidate]] = []
    for at, candidate in enumerate(candidates):
        if candidate.lead is not None or candidate.items or candidate.more:
            continue
        passage = candidate.passage
        before = passage.text[: max(candidate.sentence.start - passage.char_start, 0)]
        sentences = split_sentences(before, offset=passage.char_start)[-_SETUP_SENTENCES:]
        opening = next(
            (
                k
                for k, s in enumerate(sentences)
                if any(_given_figure(n).search(s.text) for n in given)
            ),
            None,
        )
        if opening is None:
            continue
        setup = sentences[opening:]
        stated = {n for n in given if any(_given_figure(n).search(s.text) for s in setup)}
        if len(stated) < 2 or not any(
            figure not in given
            for figure in re.findall(r"\d[\d,]*(?:\.\d+)?", candidate.sentence.text)
        ):
            continue  # the setup names fewer of the question's figures, or nothing new follows
        start, end = setup[0].start, setup[-1].end
        lead = Sentence(
            text=passage.text[start - passage.char_start : end - passage.char_start],
            start=start,
            end=end,
        )
        worked.append((at, replace(candidate, lead=lead)))
    return worked


def _antecedent(candidate: _Candidate) -> str:
    """The lead-in a candidate is read after when it stands in another passage (its parent
    paragraph's): a heading of the item, whose words are its siblings' too."""
    if candidate.lead is not None and candidate.lead_passage is not None:
        return candidate.lead.text
    return ""


def _referred(candidate: _Candidate) -> str:
    """The sentence before a candidate that refers back to it ("A creditor shall provide a
    copy of each such appraisal ... three business days prior to consummation" after the
    sentence saying which appraisals): what the candidate speaks of is said there."""
    if candidate.lead is not None or not _refers_back(candidate.sentence.text):
        return ""
    passage = candidate.passage
    before = passage.text[: max(candidate.sentence.start - passage.char_start, 0)]
    previous = split_sentences(before)
    return previous[-1].text if previous else ""


def _with_parent_lead(
    candidates: list[_Candidate],
    passage: Passage,
    evidence: Sequence[Passage],
    pages: SourceLookup | None,
) -> list[_Candidate]:
    """A passage that is an item of a list whose lead-in is its parent paragraph ("... for
    any foreclosure process unless:" over "(i) ... more than 120 days delinquent;") is read
    with that lead-in: its first sentence is drafted after it, as an item of a list written in
    one passage is. The parent is the passage (or, with ``pages``, the page before the item)
    of the same version whose label is the item's label without its last part ("1024-41-f-1"
    for "1024-41-f-1-i")."""
    if not candidates or candidates[0].lead is not None or candidates[0].items:
        return candidates
    parent = parent_paragraph(passage, evidence, pages)
    if parent is None:
        return candidates
    sentences = split_sentences(parent.text, offset=parent.char_start)
    if not sentences or not sentences[-1].text.rstrip().endswith(":"):
        return candidates
    if _opens_example(sentences[-1].text):
        # "... depending on the information the servicer has received. For example:" over
        # "(i) Assume that ... The servicer must deliver ... at least 15 days before ...":
        # every sentence of the item is that example's, not the rule.
        candidates = [replace(c, example=True) for c in candidates]
    first = candidates[0]
    if first.sentence.start != min(c.sentence.start for c in candidates):
        return candidates
    led = _Candidate(
        passage,
        first.sentence,
        sentences[-1],
        lead_passage=parent,
        example=first.example,
    )
    return [led, *candidates[1:]]


_ITEM_REACH = 12
"""How many pages after a lead-in its items are looked for (items of items included)."""


def _unretrieved_items(evidence: Sequence[Passage], pages: SourceLookup | None) -> list[Passage]:
    """The items of a lead-in the evidence holds without them ("For 25 months after ... an
    offer of credit is made ..., the creditor shall retain ...:" retrieved, "(i) The text of
    any prescreened solicitation;" not): with ``pages``, the pages right after the lead-in
    labelled as its own items ("1002-12-b-7-i" under "1002-12-b-7"), as passages of their whole
    text, each then read under that lead-in. Deeper items have lead-ins of their own."""
    if pages is None:
        return []
    seen = {(p.doc_id, p.version, p.page) for p in evidence}
    out: list[Passage] = []
    for passage in evidence:
        label = (passage.label or "").strip()
        if not label or not passage.text.rstrip().endswith(":"):
            continue
        for number in range(passage.page + 1, passage.page + 1 + _ITEM_REACH):
            source = pages.lookup(passage.doc_id, passage.version, number)
            if source is None:
                break
            page_label = (source.page.label or "").strip()
            if not page_label.startswith(label + "-"):
                break  # past the lead-in's items
            if page_label.rpartition("-")[0] != label:
                continue  # an item of an item: under its own lead-in
            if (passage.doc_id, passage.version, number) in seen:
                continue
            seen.add((passage.doc_id, passage.version, number))
            out.append(page_passage(passage, number, source.page))
    return out


def _candidates(passage: Passage, min_chars: int) -> list[_Candidate]:
    """The passage's sentences that can stand as an answer, list items with their lead-in.

    A lead-in ("... must ensure that:") is never an answer on its own; an item after it is
    drafted together with it, so that the claim says what the item is a case of.
    """
    return [
        _Candidate(passage, c.sentence, c.lead, example=c.example, more=c.more, items=c.items)
        for c in _passage_candidates(passage.text, passage.char_start, min_chars)
    ]


_NO_PASSAGE = Passage(
    passage_id="-", doc_id="-", version="-", page=1, char_start=0, char_end=0, text=""
)


@lru_cache(maxsize=4096)  # pure; the same passages are drafted from for every question
def _passage_candidates(text: str, char_start: int, min_chars: int) -> tuple[_Candidate, ...]:
    """:func:`_candidates` of a passage's text (at its offset), the passage left out: they
    depend on nothing else, and every draft reads the same passages again."""
    passage = _NO_PASSAGE.model_copy(update={"text": text, "char_start": char_start})
    out: list[_Candidate] = []
    lead: Sentence | None = None
    in_example = False
    for whole in split_sentences(passage.text, offset=passage.char_start):
        items = _list_items(whole)
        if not items:
            lead, in_example = _read(passage, whole, lead, in_example, min_chars, out)
            continue
        count = sum(kind is not None for _, kind in items)
        nested = any(kind is not None and p.text.rstrip().endswith(":") for p, kind in items)
        # A list that sets out an example's assumptions ("For each example, assume the
        # following: (a) ...; (b) ...") is that example, read whole or item by item.
        in_example = in_example or _opens_example(items[0][0].text)
        if not nested and not _tabular(whole.text, _WHOLE_LIST):
            # The list read whole as well: it answers a question about all its items (a list
            # of several lead-ins is several requirements, each read with its own items).
            out.append(_Candidate(passage, whole, lead, example=in_example, items=count))
        # Each item under the lead-in of its level: "a. Provide training to users:" leads
        # "1. ..." and "2. ...", not the "b. ..." after them; a lead-in's items are also
        # read together ("a. ...: 1. ...; 2. ...", the occasions a question on "when" asks).
        leads: list[_Level] = []
        for sentence, kind in items:
            while leads and leads[-1].kind not in (None, kind):
                _group(passage, leads.pop(), count, out)
            if leads and leads[-1].kind is None:
                leads[-1].kind = kind
            if sentence.text.rstrip().endswith(":"):
                in_example = in_example or _opens_example(sentence.text)  # "For example:"
                if len(sentence.text.strip()) >= min_chars:
                    leads.append(_Level(sentence))
                continue
            item_lead = leads[-1].lead if leads else None
            before = len(out)
            _, in_example = _read(passage, sentence, item_lead, in_example, min_chars, out)
            if leads and len(out) > before:
                if not leads[-1].items:
                    leads[-1].first = before
                leads[-1].items.append(sentence)
        while leads:
            _group(passage, leads.pop(), count, out)
        lead = None  # the list's lead-ins end with it
    return tuple(out)


@dataclass
class _Level:
    """A lead-in of a list, the kind of marker of its items and its items so far."""

    lead: Sentence
    kind: str | None = None
    items: list[Sentence] = field(default_factory=list)
    first: int = 0
    """Where the first item stands among the candidates (its group goes before it)."""


def _group(passage: Passage, level: _Level, listed: int, out: list[_Candidate]) -> None:
    """Add a lead-in's items read together, when they are several but not the whole list
    (which is a candidate already) and short enough to be one claim."""
    if len(level.items) < 2 or len(level.items) >= listed:
        return
    group = _Candidate(
        passage,
        level.items[0],
        level.lead,
        more=tuple(level.items[1:]),
        items=len(level.items),
    )
    if not _tabular(group.text):
        # Before its first item: on a tie (a question on "when" that every item answers) the
        # items together, as the earlier candidate, are drafted.
        out.insert(level.first, group)


def _read(
    passage: Passage,
    sentence: Sentence,
    lead: Sentence | None,
    in_example: bool,
    min_chars: int,
    out: list[_Candidate],
) -> tuple[Sentence | None, bool]:
    """Add ``sentence`` to ``out`` if it can answer; the lead-in and example state after it."""
    text = sentence.text.rstrip()
    in_example = _opens_example(text) or (
        in_example and _CONTINUES_EXAMPLE.search(text) is not None
    )
    if text.endswith(":"):
        # A lead-in long enough to quote; a heading ("Asset Impairments:") is not one.
        return (sentence if len(text) >= min_chars else None), in_example
    if _tabular(text):
        return None, in_example  # a flattened table: its cells are read as cells
    if _HEADING.match(text):
        return lead, in_example  # "# Customer Due Diligence and KYC Refresh Policy": a title
    if len(text) >= min_chars or lead is not None:
        out.append(_Candidate(passage, sentence, lead, example=in_example))
    return lead, in_example


def _as_stated(term: str, stated: set[str]) -> str:
    """``term``, or its form with or without a final "e" when only that form is stated; a
    term of a synonym group stays as it is (its synonyms match it)."""
    if term in stated or len(term) < 4 or not term.isalpha() or match_units([term])[0] != {term}:
        return term
    other = term[:-1] if term.endswith("e") else term + "e"
    return other if other in stated else term


_HEADING = re.compile(r"^\s*#{1,6}\s")
"""A Markdown heading: it names what the sentences under it are about and states nothing."""
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:\(?[a-z]\)|\(?\d{1,2}\)|[a-z]\.|\d{1,2}\.)[ \t]+(?=\S)")


def _list_items(sentence: Sentence) -> list[tuple[Sentence, str | None]]:
    """A list written as one sentence ("... users:\n a. As part of ...;\n b. When ...")
    as its parts, each with the kind of its marker ("a.", "(a)", "1.", "(1)"; None for the
    text before the first item, a lead-in when it ends with a colon), with offsets; no parts
    when the sentence holds fewer than two items."""
    text = sentence.text
    found = list(_LIST_ITEM.finditer(text))
    if len(found) < 2:
        return []
    starts = [m.start() for m in found]
    kinds: list[str | None] = [None, *(_marker_kind(m.group(0)) for m in found)]
    parts: list[tuple[Sentence, str | None]] = []
    for begin, end, kind in zip([0, *starts], [*starts, len(text)], kinds, strict=True):
        chunk = text[begin:end]
        stripped = chunk.strip()
        if not stripped:
            continue
        at = sentence.start + begin + len(chunk) - len(chunk.lstrip())
        parts.append((Sentence(text=stripped, start=at, end=at + len(stripped)), kind))
    return parts


def _marker_kind(marker: str) -> str:
    """A list marker's kind: letters or digits, with a dot or in parentheses."""
    marker = marker.strip()
    return ("num" if marker.strip("().")[:1].isdigit() else "alpha") + (
        "." if marker.endswith(".") else ")"
    )


_EXAMPLE_WEIGHT = 0.4
"""What an example's score counts for a question that sets out no case of its own: it answers
a question about that example ("For each example, assume ... a per-item fee of $20"), not the
rule, however close its words."""
_ASSUMING = re.compile(r"^\W*(?:assuming|supposing|imagine|say)\b", re.IGNORECASE)
"""An example opening with the case it assumes ("Assuming it is not a leap year, ...")."""
_CONTINUES_EXAMPLE = re.compile(
    r"^\W*(?:however|but|similarly|likewise|conversely|by\s+contrast|alternatively|otherwise|"
    r"then|in\s+(?:that|this|either|such\s+a)\s+case|if\s+so|if\s+instead|instead|if)\b"
    r"|\bif\b[^.;]*\bwould\b|\bthe\s+[$\u00a3\u20ac]\d",
    re.IGNORECASE,
)
"""A sentence that goes on with the example before it: opened by a connective ("However,
if ... $949 ...") or by the next case of it ("If the consumer notifies the institution within
60 days ..., the consumer has no liability"), setting out another imagined case ("if ...
would"), or naming the example's own figure again ("in addition to the $200")."""
_EXAMPLE_CASE = re.compile(
    r"(?i:^\W*examples?\b|\b(?:the\s+following|these|this|each|the\s+same)\s+examples?\b)"
    r"|\b(?i:borrower|consumer|applicant|creditor|lender|servicer|customer|bank|institution|"
    r"lessor|lessee|person|company|employee|provider|sender|recipient|payee|issuer|merchant|"
    r"dealer|broker|investor|user|client|party|firm|entity|account)\s+[A-Z]\b(?![-\w(])"
)
"""A sentence about an example: opening a set of them ("Examples.", "For each example,
assume ..."), going on with one ("Assume the same example, except ..."), or naming its
imagined parties ("The servicer must deliver to Borrower A ... at least 15 days before ...";
a rule names no "Borrower A")."""


def _opens_example(text: str) -> bool:
    """Whether a sentence gives an example (opens one or is about its imagined parties)."""
    return bool(
        EXAMPLE_SENTENCE.search(text) or _ASSUMING.match(text) or _EXAMPLE_CASE.search(text)
    )


# The value a question asks for (analysis.asked_value, read alike by the critic) and which
# occurrence of an act it is asked of (the first notice or the reminder,
# the initial period or the extended one, the yearly filing or the quarterly recording).

_LATER_TERMS = frozenset(
    terms("reminder second subsequent renewal renew extension extend extended additional extra")
)
"""Words saying an act is a later occurrence of one (a reminder notice, an extended period)."""
_FIRST_TERMS = frozenset(terms("initial first"))
"""Words saying an act is its first occurrence (the first notice, the initial period). Not
"normal", "usual" or "original": they more often qualify a thing ("normal users", "original
documents") or a scenario's case ("within the normal period, how long may it take in total")
than the act asked about."""
_ASK_START_WORD = re.compile(r"\b(?:how|what|which|when|whom?|whose)\b", re.IGNORECASE)

VALUE_STATED_BONUS = 0.2
"""The bonus of a sentence stating the kind of value asked (a calendar date, an age, a
fraction, a quantity for a bound)."""
VALUE_UNSTATED_WEIGHT = 0.6
"""The weight of a sentence not stating it: it answers another question about the subject."""
STAGE_BONUS = 0.1
"""The bonus of a sentence (in its place) saying the asked occurrence of the act."""
OTHER_STAGE_WEIGHT = 0.75
"""The weight of a sentence saying only another occurrence (the reminder for the first
notice, the extended period for the initial one) or another cadence (quarterly for yearly)."""


class _AskedValue(NamedTuple):
    """What :func:`_asked_value` reads of a question."""

    kind: str | None
    """``calendar_date``, ``yearly_date``, ``age``, ``fraction``, ``bound``,
    ``relative_bound`` or None."""
    stage: str | None
    """``first`` or ``later``: which occurrence of the act is asked of; None when unsaid."""
    cadence: str | None
    """``year``, ``quarter`` or ``month``: how often the asked act recurs; None when unsaid."""


def _asked_value(question: str, profile: QuestionProfile) -> _AskedValue:
    """The value ``question`` asks for and the occurrence of the act it asks about.

    The stage is read in the ask ("... within the usual 30 days, how much extra time may it
    take?" asks of the extension): from the question's first ask word on, in its asking
    sentence; in the whole question when the ask says none."""
    kind = asked_value(question, profile)
    cadence = asked_cadence(question)
    ask = ask_clause(question) or question
    start = _ASK_START_WORD.search(ask)
    stage = _stage(ask[start.start() :] if start else ask) or _stage(question)
    return _AskedValue(kind, stage, cadence)


def _stage(text: str) -> str | None:
    """``first`` or ``later`` when ``text`` says exactly one of them."""
    words = set(terms(text))
    first, later = bool(words & _FIRST_TERMS), bool(words & _LATER_TERMS)
    if first == later:
        return None
    return "first" if first else "later"


def _value_weighted(
    score: float, asked: _AskedValue, text: str, place: str, placed_terms: Sequence[str]
) -> float:
    """``score`` of a candidate sentence (``text``, read in its ``place``, its passage's
    heading path, whose terms with its own are ``placed_terms``) for what
    :func:`_asked_value` reads of the question: more for the asked value and occurrence, less
    for a sentence stating no such value or only another occurrence of the act."""
    if asked.kind is not None:
        if states_value(asked.kind, text):
            score += VALUE_STATED_BONUS
        elif asked.kind not in SOFT_VALUE_KINDS:
            score *= VALUE_UNSTATED_WEIGHT
    if asked.stage is not None:
        placed = set(placed_terms)
        first, later = bool(placed & _FIRST_TERMS), bool(placed & _LATER_TERMS)
        if asked.stage == "later":
            if later:
                score += STAGE_BONUS
            elif first:
                score *= OTHER_STAGE_WEIGHT
        elif later and not first:
            score *= OTHER_STAGE_WEIGHT
    if asked.cadence is not None:
        stated = {name for name, pattern in CADENCES if pattern.search(f"{text}\n{place}")}
        if asked.cadence in stated:
            score += STAGE_BONUS / 2
        elif stated:
            score *= OTHER_STAGE_WEIGHT
    return score


# --------------------------------------------------------------------------- filings
# What a question on a periodic filing (a 10-K: version "FY2022") asks besides a figure: why
# a figure moved, what happened on a date. Only evidence from such filings is read this way.

_EXPLANATION_ASKED = re.compile(
    r"\b(?:why|explain(?:s|ed)?|reasons?|drivers?|drove|driving|what\s+(?:caused|made|led\s+to|"
    r"pushed|contributed\s+to|(?:is|was|are|were)\s+behind))\b",
    re.IGNORECASE,
)
"""A question asking why a figure moved ("What drove ...", "Why did ... rise", "reasons SG&A
came down", "what made ... climb"): a reason is asked, not the figure."""

_CAUSE_STATED = re.compile(
    r"\b(?:(?:driven|caused|led|impacted|affected)\s+(?:\w+ly\s+)?by|drove|"
    r"due\s+(?:\w+ly\s+)?to|as\s+a\s+result\s+of|result(?:s|ed|ing)?\s+(?:\w+ly\s+)?from|"
    r"attributable\s+(?:\w+ly\s+)?to|because|owing\s+to|"
    r"(?:primarily|mainly|largely|principally|partly|partially)\s+(?:relat\w+|associated|"
    r"reflect\w*|from|attributable)|reflect(?:s|ed|ing)|offset\s+by)\b",
    re.IGNORECASE,
)
"""A sentence giving a reason ("increased ... driven by", "decreased ... primarily due to",
"Increases primarily related to lower sales volume"): what answers a question asking why."""

EXPLANATION_BONUS = 0.3
"""What a sentence stating a cause adds for a question asking why a filing's figure moved."""
UNEXPLAINED_WEIGHT = 0.5
"""What a sentence stating no cause keeps of its score for such a question: it states the
figure, or another matter, not why."""

_MONTHS = (
    *("january", "february", "march", "april", "may", "june"),
    *("july", "august", "september", "october", "november", "december"),
)
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" + (
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY_MONTH_YEAR = re.compile(
    rf"\b(?:{_MONTH}\s+(\d{{1,2}}),?\s+((?:19|20)\d\d)|(\d{{1,2}})\s+{_MONTH},?\s+((?:19|20)\d\d)|"
    rf"{_MONTH},?\s+((?:19|20)\d\d))\b",
    re.IGNORECASE,
)
"""A calendar date with its month and year, the day when given: "May 31, 2023", "31 May
2023", "October 2019"."""

DATE_BONUS = 0.4
"""What a sentence stating the date a question names adds (to the day when the question gives
one): the event of that date ("On May 31, 2023, the Company completed the acquisition ..."),
not another of the same year."""


def _month(name: str) -> int:
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(name.lower().rstrip(".")))


def _calendar_dates(text: str) -> frozenset[tuple[int, int, int | None]]:
    """The (year, month, day) of every calendar date ``text`` states; day None for a month."""
    found: set[tuple[int, int, int | None]] = set()
    for m in _DAY_MONTH_YEAR.finditer(text):
        if m.group(1):
            found.add((int(m.group(3)), _month(m.group(1)), int(m.group(2))))
        elif m.group(4):
            found.add((int(m.group(6)), _month(m.group(5)), int(m.group(4))))
        else:
            found.add((int(m.group(8)), _month(m.group(7)), None))
    return frozenset(found)


def _states_date(asked: frozenset[tuple[int, int, int | None]], text: str) -> bool:
    """Whether ``text`` states one of the ``asked`` dates: the same month of the same year, and
    the same day when both give one."""
    stated = _calendar_dates(text)
    return any(
        y == sy and m == sm and (d is None or sd is None or d == sd)
        for y, m, d in asked
        for sy, sm, sd in stated
    )


def _filing(evidence: Sequence[Passage]) -> bool:
    """Whether the evidence is from periodic filings (a version naming its fiscal year)."""
    return any(_FISCAL_VERSION.match(p.version) for p in evidence)


def asks_explanation(question: str, profile: QuestionProfile) -> bool:
    """Whether a question asks why something happened rather than what it was."""
    return profile.answer_type == "reason" or _EXPLANATION_ASKED.search(question) is not None


_SOURCE_FRAME = re.compile(r"\baccording\s+to\b", re.IGNORECASE)
""""according to Boeing's FY2022 10-K": where the answer is to be read, not what it says; the
word matches a sentence quoting another source ("According to the International Air
Transport Association ...")."""

_AMOUNT_PART = re.compile(
    r"(?:\band|,)\s+(?:and\s+)?(?:for\s+|at\s+)?(?:how\s+much|what\s+(?:\w+\s+){0,2}?"
    r"(?:price|consideration|amount|cost|sum)|(?:the\s+)?(?:purchase\s+)?(?:price|consideration))\b",
    re.IGNORECASE,
)
"""A part of a question asking an amount after another part ("Which business did 3M acquire
in October 2019 and for how much?", "..., and for what purchase consideration?")."""
_MONEY_STATED = re.compile(r"\$\s?\d|\b\d[\d,.]*\s*(?:million|billion)\b", re.IGNORECASE)
AMOUNT_PART_BONUS = 0.2
"""What a sentence stating an amount of money adds for a question with a part asking one."""

NEXT_TO_MARGIN = 0.05
"""How far below a part's best score a sentence right after another part's answer may score and
still answer that part instead (see :func:`_next_to`)."""
_NEXT_TO_REACH = 600
"""How many characters after another part's answer a sentence stands in, at most, to be read
with it."""


def _next_to(
    chosen: Sequence[_Candidate | _Cell | DerivedCandidate],
    fitting: Sequence[tuple[float, _Candidate | _Cell | DerivedCandidate]],
) -> _Candidate | None:
    """Of the sentences scoring (nearly) best for a later part of a question, the one right
    after an earlier part's answer, on its page: "Which company did Amcor acquire on May 31,
    2023, and for what purchase consideration?" asks the consideration of that acquisition,
    stated next ("The purchase consideration of $45 million ..."), not of the acquisitions
    beside it in the same words. None when no such sentence is among them."""
    top = fitting[0][0]
    answers = [c for c in chosen if isinstance(c, _Candidate)]
    best: tuple[int, _Candidate] | None = None
    for score, candidate in fitting:
        if score < top - NEXT_TO_MARGIN:
            break
        if not isinstance(candidate, _Candidate):
            continue
        for answer in answers:
            same_page = (answer.passage.doc_id, answer.passage.version, answer.passage.page) == (
                candidate.passage.doc_id,
                candidate.passage.version,
                candidate.passage.page,
            )
            gap = candidate.sentence.start - answer.sentence.end
            if same_page and 0 <= gap <= _NEXT_TO_REACH and (best is None or gap < best[0]):
                best = (gap, candidate)
    return best[1] if best is not None else None


_PURPOSE_FRAME = re.compile(
    r"^\s*(?:for\s+(?:a|an|the|our|my)\s+([^,:;?]{3,60}?\s+(?:calculation|computation|analysis|"
    r"model|ratio|review|memo|deck|pack))\s*[,:]|(?:i'm|i\s+am|we're|we\s+are)\s+"
    r"(?:computing|calculating|working\s+out|building|preparing)\s+([^:;?]{3,80}?)\s*[:;,-])"
    r"|\bfor\s+(?:a|an|the|our|my)\s+([^,:;?]{2,40}?\s+(?:ratio|calculation|computation|"
    r"analysis|model))\s*[.?]?\s*$",
    re.IGNORECASE,
)
"""What the asker will do with the figures asked ("For an inventory turnover calculation, give
me ...", "I'm computing PepsiCo's EBITDA minus capex for 2022: give me ...", "... for a quick
ratio."): its words name no row nor sentence of the answer."""


def _purpose_words(question: str) -> frozenset[str]:
    """The terms of the purpose a question states besides what it asks (:data:`_PURPOSE_FRAME`),
    when what it asks is stated outside it."""
    out: set[str] = set()
    for m in _PURPOSE_FRAME.finditer(question):
        rest = question[: m.start()] + " " + question[m.end() :]
        stated = set(terms(rest))
        if len(stated) >= 2:
            # A word the ask itself says too ("closing 2022 inventories") stays asked.
            out.update(t for t in terms(m.group(0)) if t not in stated)
    return frozenset(out)
