"""Turn a natural-language question into search terms.

The question is cut into runs of letters and digits, case-folded, and stopwords are dropped;
there is no query syntax, so ``OR``, ``NEAR(``, ``*``, ``^``, ``:`` and quotes in the question
are plain words or separators. The ranking index (:mod:`evidencegate.corpus.index`) stems the
terms with the analyser it indexes passages with, and BM25 ranks passages by how many of them
they contain and how rare those are.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["STOPWORDS", "query_terms"]

_TOKEN = re.compile(r"[^\W_]+")

_STOPWORD_TEXT = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its
itself just me more most my myself no nor not of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom why will with would you your yours yourself yourselves
tell explain describe please according say says said given
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""English function words and question fillers; "no" and "not" are kept out of the query
because BM25 gains nothing from them (negation is the verifier's job, not retrieval's)."""


def query_terms(question: str) -> list[str]:
    """The distinct content terms of ``question``, lower-cased, in order of first appearance."""
    return list(_query_terms(question))


@lru_cache(maxsize=4096)  # pure; retrieval reads the same passages for feedback again
def _query_terms(question: str) -> tuple[str, ...]:
    terms: list[str] = []
    seen: set[str] = set()
    for token in _TOKEN.findall(question.casefold()):
        if token in STOPWORDS or token in seen:
            continue
        seen.add(token)
        terms.append(token)
    return tuple(terms)
