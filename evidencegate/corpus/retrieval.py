"""The default retriever: BM25 over the store, widened by pseudo-relevance feedback.

A question phrased the way an analyst types rarely uses the document's words ("how big can a
lease get" for "threshold amount"). Pseudo-relevance feedback (RM3-style) reads the first
ranking's best passages, takes the terms that are frequent there and rare in the whole corpus
(by the store's own document frequencies), and asks again with the question plus those terms.
The two rankings are fused by reciprocal rank fusion, so the expansion can add passages but
never pushes the literal matches out of the first places.

Filters (as-of, tenant, authorities, the question's document scope) apply inside each store
search, before ranking: the expansion never reaches a version that is not in force.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from evidencegate.analysis import (
    Period,
    names_in,
    normalise_question,
    profile_question,
    sentence_period,
    split_asks,
    split_sentences,
)
from evidencegate.contracts import DocumentVersion, Passage, SourcePage
from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.query import query_terms
from evidencegate.corpus.rows import (
    PROPORTION_TYPES,
    asked_whole,
    measure_row_fit,
    measure_terms,
    proportion_fit,
    proportion_words,
)
from evidencegate.corpus.scope import Scope, label_citation, resolve_scope
from evidencegate.lexicon import synonyms_of
from evidencegate.text import terms

__all__ = [
    "FeedbackRetriever",
    "Ranking",
    "fuse_rankings",
    "labelled_by",
    "section_sign",
    "with_enhancements",
]


_RRF_K = 60
_ITEM_WEIGHT = 0.5
"""The weight of the ranking of one of several figures asked, beside the question's own."""
_ROW_TYPES = frozenset({"amount", "percentage", "comparison", "count", "other"})
"""Answer types a table row's figure answers (a question of no type too: "what were its
accounts payable")."""
_ASK_WEIGHT = 1.0
"""The weight of the ranking of one ask of a question asking several things, in the fusion."""


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


def labelled_by(passage: Passage, identifier: str) -> bool:
    """Is ``identifier`` the passage's own label ("SA-12" for a passage of SA-12, not of
    SA-12(5)), spaces aside?"""
    label = passage.label or ""
    return "".join(label.split()).lower() == "".join(identifier.split()).lower()


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
        pool = max(limit * self.pool_factor, self.feedback_docs)
        rankings = self._rankings(
            query,
            as_of=as_of,
            pool=pool,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
        )
        fitted = self._fit(query, as_of, rankings)
        return _with_each_ask(fitted, [r.passages for r in rankings if r.ask], limit)

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
        synonyms = [s for s in synonyms_of(asked) if s not in other_sense]
        first = ranked(" ".join([query, *synonyms]))
        expansion = self._expansion(query, first[: self.feedback_docs])
        rankings = [Ranking(first)]
        if expansion:
            rankings.append(Ranking(ranked(" ".join([query, *synonyms, *expansion]))))
        # Several figures asked ("cost of products sold and year-end inventories"): each one
        # is also asked on its own, in its own words and its synonyms, with the names the
        # question uses; the statement stating one of them need not share words with the rest.
        if profile.answer_type in _ROW_TYPES and len(profile.items) >= 2:
            named = " ".join(profile.names)
            for item in profile.items:
                asked = measure_terms(item)
                if asked:
                    item_words = " ".join([named, *asked, *synonyms_of(asked)])
                    rankings.append(Ranking(ranked(item_words), _ITEM_WEIGHT))
        asks = _joined_asks(query)
        if len(asks) > 1:
            # A question asking several things ("how long to send the final response, and how
            # many years to keep the file") is also asked one ask at a time: the words of one
            # ask must not crowd the passages answering another out of the evidence.
            for ask in asks:
                words = synonyms_of(terms(normalise_question(ask)))
                rankings.append(Ranking(ranked(" ".join([ask, *words])), _ASK_WEIGHT, ask=True))
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
            [kept for m in (profile.measure, *profile.items) if (kept := measure_terms(m))]
            if profile.answer_type in _ROW_TYPES
            else []
        )
        # "What share of its revenues came from ...": a passage stating a percentage of that
        # whole ("40% of our revenues were earned ...") may answer it. One stating shares of
        # other wholes only is not pushed down: a page states many ("4% of operating assets"
        # beside the answer).
        whole = asked_whole(query) if profile.answer_type in PROPORTION_TYPES else ()

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
                row = max(measure_row_fit(passage.text, m) for m in measures)
                bonus += step * (1 + row) if row else 0.0
            if whole and proportion_fit(passage.text, whole) > 0:
                bonus += step
            return score[passage.passage_id] + bonus

        order = {p.passage_id: i for i, p in enumerate(fused)}
        return sorted(fused, key=lambda p: (-fit(p), order[p.passage_id]))

    def _expansion(self, query: str, feedback: Sequence[Passage]) -> list[str]:
        """Terms frequent in the feedback passages and rare in the corpus, not in the query."""
        if self.feedback_terms <= 0 or len(feedback) < 2:
            return []
        asked = set(query_terms(query))
        counts: dict[str, float] = {}
        spread: Counter[str] = Counter()
        for rank, passage in enumerate(feedback):
            weight = 1.0 / (1 + rank)
            for term, mass in _feedback_terms(passage.text + " " + passage.context):
                if term not in asked:
                    counts[term] = counts.get(term, 0.0) + weight * mass
                    spread[term] += 1
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
