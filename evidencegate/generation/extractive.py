"""The offline default generator: answers by quoting the evidence's own sentences.

Deterministic and model-free. Each claim is one sentence of a retrieved passage, cited with the
sentence itself as the quote, so the verifier can locate every quote exactly. Sentences that
state a period not covering the question's target date (an earlier year's figure, say) are never
drafted: that is how a stale figure listed beside the current one stays out of the answer.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from evidencegate.analysis import (
    Sentence,
    bigrams,
    has_figure,
    idf_weights,
    profile_question,
    sentence_period,
    split_sentences,
    terms,
)
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, Claim, Draft, Passage
from evidencegate.lexicon import covered_share, matched_units

__all__ = ["ExtractiveGenerator"]


class ExtractiveGenerator:
    """Picks the sentences of the evidence that best answer the question."""

    component_id = "generator:extractive@1"

    def __init__(
        self,
        *,
        max_claims: int = 3,
        min_score: float = 0.34,
        relative_cut: float = 0.75,
        min_quote_chars: int = 20,
        authorities: Sequence[str] = ("primary",),
    ) -> None:
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
        skip = set(avoid)
        candidates = [
            candidate
            for passage in evidence
            if passage.authority in self.authorities
            for candidate in _candidates(passage, self.min_quote_chars)
            if candidate.text not in skip
        ]
        if not profile.terms or not candidates:
            return Draft(declined="no primary evidence sentence to draft from")
        # A sentence is read in its place: the heading path and title of its passage count as
        # the words it is about ("the threshold amount is $51,800" under "Consumer Lease").
        sentence_terms = [terms(c.text) for c in candidates]
        context_terms = [terms(c.passage.context) for c in candidates]
        weights = idf_weights(profile.terms, sentence_terms)
        asked_pairs = bigrams(question)

        scored: list[tuple[float, _Candidate, set[frozenset[str]]]] = []
        for candidate, s_terms, c_terms in zip(
            candidates, sentence_terms, context_terms, strict=True
        ):
            period = sentence_period(candidate.text)
            if period is not None and not period.overlaps(profile.target):
                continue  # a figure for another period: never drafted as the answer
            own = covered_share(profile.terms, s_terms, weights)
            placed = covered_share(profile.terms, [*s_terms, *c_terms], weights)
            score = 0.6 * own + 0.4 * placed
            if profile.wants_figure:
                # A question asking for a figure is answered by a sentence stating one.
                if has_figure(candidate.text, profile.wants_figure, profile.answer_type):
                    score += 0.25
                else:
                    score *= 0.4
            if period is not None:
                score += 0.1  # states the period it applies to, and it is the one asked about
            if profile.years:
                score += 0.25 * sum(y in candidate.text for y in profile.years) / len(profile.years)
            if asked_pairs:
                # The question's own phrases ("above $5,000") tell close sentences apart.
                score += 0.15 * len(asked_pairs & bigrams(candidate.text)) / len(asked_pairs)
            scored.append((score, candidate, matched_units(profile.terms, [*s_terms, *c_terms])))

        if not scored:
            return Draft(declined="every matching sentence concerns another period")
        scored.sort(key=lambda item: (-item[0], *item[1].order))
        cut = max(self.min_score, scored[0][0] * self.relative_cut)
        claims: list[Claim] = []
        seen: set[str] = set()
        covered: set[frozenset[str]] = set()
        for score, candidate, terms_of in scored:
            key = " ".join(candidate.text.lower().split())
            if score < cut or key in seen:
                continue
            # The smallest set of claims that answers: one sentence, unless the question asks
            # several things; then another one only when it covers a term of the question that
            # the claims so far do not.
            if claims and (not profile.multi_part or not (terms_of - covered)):
                continue
            seen.add(key)
            covered |= terms_of
            claims.append(candidate.claim())
            if len(claims) == self.max_claims:
                break
        if not claims:
            return Draft(declined=f"no sentence scores above {cut:.2f} for the question's terms")
        return Draft(claims=claims)


@dataclass(frozen=True)
class _Candidate:
    """A sentence of a passage that could answer, with the list lead-in it needs to be read."""

    passage: Passage
    sentence: Sentence
    lead: Sentence | None = None

    @property
    def text(self) -> str:
        return self.sentence.text

    @property
    def order(self) -> tuple[str, str, int]:
        return (self.passage.doc_id, self.passage.version, self.sentence.start)

    def claim(self) -> Claim:
        passage = self.passage
        parts = [self.lead, self.sentence] if self.lead is not None else [self.sentence]
        where = f"{passage.doc_id}@{passage.version}#{passage.page}:{self.sentence.start}"
        claim_id = "c-" + sha256_hex(where)[:10]
        return Claim(
            claim_id=claim_id,
            text=" ".join(part.text for part in parts),
            citations=[
                Citation(
                    doc_id=passage.doc_id,
                    version=passage.version,
                    page=passage.page,
                    quote=part.text,
                    evidence_id=passage.passage_id,
                )
                for part in parts
            ],
        )


def _candidates(passage: Passage, min_chars: int) -> list[_Candidate]:
    """The passage's sentences that can stand as an answer, list items with their lead-in.

    A lead-in ("... must ensure that:") is never an answer on its own; an item after it is
    drafted together with it, so that the claim says what the item is a case of.
    """
    out: list[_Candidate] = []
    lead: Sentence | None = None
    for sentence in split_sentences(passage.text, offset=passage.char_start):
        text = sentence.text.rstrip()
        if text.endswith(":"):
            lead = sentence
            continue
        if len(text) >= min_chars or lead is not None:
            out.append(_Candidate(passage, sentence, lead))
    return out
