"""The offline default generator: answers by quoting the evidence's own sentences.

Deterministic and model-free. Each claim is one sentence of a retrieved passage, cited with the
sentence itself as the quote, so the verifier can locate every quote exactly. Sentences that
state a period not covering the question's target date (an earlier year's figure, say) are never
drafted: that is how a stale figure listed beside the current one stays out of the answer.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from evidencegate.analysis import (
    has_figure,
    idf_weights,
    profile_question,
    sentence_period,
    split_sentences,
    terms,
    weighted_overlap,
)
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, Claim, Draft, Passage

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
            (sentence, passage)
            for passage in evidence
            if passage.authority in self.authorities
            for sentence in split_sentences(passage.text, offset=passage.char_start)
            if len(sentence.text) >= self.min_quote_chars and sentence.text not in skip
        ]
        if not profile.terms or not candidates:
            return Draft(declined="no primary evidence sentence to draft from")
        sentence_terms = [terms(s.text) for s, _ in candidates]
        weights = idf_weights(profile.terms, sentence_terms)

        scored: list[tuple[float, Passage, int, str]] = []
        for (sentence, passage), s_terms in zip(candidates, sentence_terms, strict=True):
            period = sentence_period(sentence.text)
            if period is not None and not period.overlaps(profile.target):
                continue  # a figure for another period: never drafted as the answer
            score = weighted_overlap(profile.terms, s_terms, weights)
            if profile.wants_figure:
                # A question asking for a figure is answered by a sentence stating one.
                if has_figure(sentence.text, profile.wants_figure):
                    score += 0.25
                else:
                    score *= 0.5
            if profile.years:
                score += 0.25 * sum(y in sentence.text for y in profile.years) / len(profile.years)
            scored.append((score, passage, sentence.start, sentence.text))

        if not scored:
            return Draft(declined="every matching sentence concerns another period")
        scored.sort(key=lambda item: (-item[0], item[1].doc_id, item[1].version, item[2]))
        cut = max(self.min_score, scored[0][0] * self.relative_cut)
        claims: list[Claim] = []
        seen: set[str] = set()
        for score, passage, start, text in scored:
            key = " ".join(text.lower().split())
            if score < cut or key in seen:
                continue
            seen.add(key)
            claim_id = (
                "c-" + sha256_hex(f"{passage.doc_id}@{passage.version}#{passage.page}:{start}")[:10]
            )
            claims.append(
                Claim(
                    claim_id=claim_id,
                    text=text,
                    citations=[
                        Citation(
                            doc_id=passage.doc_id,
                            version=passage.version,
                            page=passage.page,
                            quote=text,
                            evidence_id=passage.passage_id,
                        )
                    ],
                )
            )
            if len(claims) == self.max_claims:
                break
        if not claims:
            return Draft(declined=f"no sentence scores above {cut:.2f} for the question's terms")
        return Draft(claims=claims)
