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
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from evidencegate.analysis import (
    Period,
    names_in,
    normalise_question,
    profile_question,
    sentence_period,
    split_sentences,
)
from evidencegate.contracts import DocumentVersion, Passage, SourcePage
from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.query import query_terms
from evidencegate.corpus.scope import Scope, resolve_scope
from evidencegate.lexicon import synonyms_of
from evidencegate.text import terms

__all__ = ["FeedbackRetriever", "Ranking", "fuse_rankings"]


_RRF_K = 60


class Ranking(NamedTuple):
    """One ranking to fuse: passages best first, and its weight in the fusion."""

    passages: Sequence[Passage]
    weight: float = 1.0


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


@lru_cache(maxsize=4096)
def _stated_periods(text: str) -> tuple[Period, ...]:
    """The periods the sentences of a passage's text state (computed once per text: every
    search re-ranks the same passages)."""
    return tuple(
        period
        for sentence in split_sentences(text)
        if (period := sentence_period(sentence.text)) is not None
    )


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
        return self._fit(query, as_of, rankings)[:limit]

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
            return self.store.search(
                text,
                as_of=as_of,
                limit=pool,
                authorities=authorities,
                doc_ids=doc_ids,
                tenant=tenant,
            )

        # The question in the documents' words too: the other members of its synonym groups.
        synonyms = synonyms_of(terms(normalise_question(query)))
        first = ranked(" ".join([query, *synonyms]))
        expansion = self._expansion(query, first[: self.feedback_docs])
        rankings = [Ranking(first)]
        if expansion:
            rankings.append(Ranking(ranked(" ".join([query, *synonyms, *expansion]))))
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
        identifiers = [n for n in profile.names if any(ch.isdigit() for ch in n)]

        def fit(passage: Passage) -> float:
            bonus = 0.0
            if profile.states_figure(passage.text):
                bonus += step
            periods = _stated_periods(passage.text)
            if periods:
                bonus += step if any(p.overlaps(profile.target) for p in periods) else -step
            if identifiers and any(names_in(i, passage.context) for i in identifiers):
                bonus += step  # the section or control the question names
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
