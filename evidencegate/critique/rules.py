"""The offline critic: deterministic rules, a separate component from the generator.

Phase 1 (sufficiency) sees the question and the evidence only, never a draft. It derives the
facts an answer must establish — the topic, each year or number the question names, and a stated
figure when the question asks for one — and names those the evidence does not cover, with one
follow-up query.

Phase 2 (audit) judges each claim from the verifier's result, then looks for edits: a figure,
date, name, negation or content word of the claim with no counterpart in its cited quotes
(:func:`~evidencegate.verify.edits.find_edits`) makes it ``contradicted`` (a figure, date or
negation: the quotes say otherwise) or ``not_found`` (a name, or a word swapped into or inserted
in quoted text: the quotes do not say it). Then a lexical support score, a check that a claim's
stated period covers the question's target date, and how many required facts the supported
claims cover. A claim copied from its quote (the extractive generator's) has no edit; the check
matters for claims a language model wrote.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from evidencegate.analysis import (
    QuestionProfile,
    has_figure,
    idf_weights,
    profile_question,
    sentence_period,
    split_sentences,
    terms,
    weighted_overlap,
)
from evidencegate.contracts import (
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    FailureReason,
    Passage,
    Verdict,
)
from evidencegate.verify.edits import EvidenceText, find_edits

__all__ = ["RulesCritic"]

_CONTRADICTING = {
    FailureReason.NUMBER_MISMATCH,
    FailureReason.DATE_MISMATCH,
    FailureReason.NEGATION_MISMATCH,
}
#: Edit kinds that contradict the quotes; a name or a swapped-in word is only not found there.
_CONTRADICTING_EDITS = frozenset({"number", "date", "negation"})

TOPIC = "topic: "
YEAR = "year: "
NUMBER = "number: "
FIGURE = "figure: "


class RulesCritic:
    """Two-phase rules critic. ``min_support``: lexical support a verified claim needs."""

    component_id = "critic:rules@1"

    def __init__(self, *, min_support: float = 0.6, topic_coverage: float = 0.5) -> None:
        self.min_support = min_support
        self.topic_coverage = topic_coverage

    # ------------------------------------------------------------------ phase 1

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        profile = profile_question(question, as_of=as_of)
        required = _required_facts(profile)
        texts = [p.text for p in evidence]
        missing = [f for f in required if not self._fact_covered(f, profile, texts)]
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
        audits: list[ClaimAudit] = []
        supported_texts: list[str] = []
        for claim in claims:
            audit = self._audit_claim(claim, by_claim.get(claim.claim_id), profile)
            audits.append(audit)
            if audit.verdict is Verdict.SUPPORTED:
                supported_texts.append(claim.text)
        required = list(required_facts) or _required_facts(profile)
        covered = [
            f for f in required if self._fact_covered(f, profile, supported_texts, weighted=False)
        ]
        missing = [f for f in required if f not in covered]
        coverage = len(covered) / len(required) if required else float(bool(supported_texts))
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
        weighted: bool = True,
    ) -> bool:
        """Does any of ``texts`` establish ``fact``? Unknown fact forms use term overlap.

        ``weighted``: topic terms are weighted by their rarity across ``texts`` — right for a
        pool of evidence (a rare unmatched term makes a question unanswerable), wrong for two or
        three claims, where every term is rare; claims use the plain share of topic terms.
        """
        if not texts:
            return False
        if fact.startswith(YEAR):
            year = int(fact.removeprefix(YEAR))
            return any(_speaks_of_year(s, year) for t in texts for s in _sentences(t))
        if fact.startswith(NUMBER):
            value = fact.removeprefix(NUMBER)
            return any(value in _numbers(t) for t in texts)
        if fact.startswith(FIGURE):
            topic = profile.terms
            for text in texts:
                for sentence in _sentences(text):
                    period = sentence_period(sentence)
                    if period is not None and not period.overlaps(profile.target):
                        continue
                    if not has_figure(sentence, profile.wants_figure or "quantity"):
                        continue
                    shared = set(topic) & set(terms(sentence))
                    if topic and len(shared) / len(set(topic)) >= 0.5:
                        return True
            return False
        wanted = terms(fact.removeprefix(TOPIC))
        have = [t for text in texts for t in terms(text)]
        weights = idf_weights(wanted, [terms(t) for t in texts]) if weighted else {}
        return weighted_overlap(wanted, have, weights) >= self.topic_coverage


def _edit_audit(
    claim: Claim, quotes: str, evidence_ids: list[str], *, prefix: str
) -> ClaimAudit | None:
    """The audit of a claim stating something its quotes have no counterpart for, or None."""
    edits = find_edits(claim.text, EvidenceText(quotes))
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


def _lexical_support(claim: str, quotes: str) -> float:
    """Share of the claim's content terms found in the quotes (0..1)."""
    claim_terms = terms(claim)
    return round(weighted_overlap(claim_terms, terms(quotes), {}), 6)


def _required_facts(profile: QuestionProfile) -> list[str]:
    facts = [TOPIC + " ".join(profile.terms)] if profile.terms else []
    facts += [YEAR + y for y in profile.years]
    facts += [NUMBER + n for n in profile.numbers]
    if profile.wants_figure:
        facts.append(FIGURE + "a stated figure or date answering the question")
    return facts


def _follow_up_query(profile: QuestionProfile, missing: Sequence[str]) -> str:
    extra = [f.split(": ", 1)[1] for f in missing if f.startswith((YEAR, NUMBER))]
    return " ".join([*profile.terms, *extra]).strip() or profile.question


def _sentences(text: str) -> list[str]:
    return [s.text for s in split_sentences(text)]


def _numbers(text: str) -> set[str]:
    return {t for t in terms(text) if t[:1].isdigit()}


def _speaks_of_year(sentence: str, year: int) -> bool:
    period = sentence_period(sentence)
    if period is not None:
        return period.overlaps_year(year)
    return str(year) in sentence
