"""The RAG triad: context relevance, groundedness and answer relevance, rules or model.

* **Context relevance** rates each retrieved passage 0–3 for the question.
* **Groundedness** decomposes the answer into claims (sentence split, or a model), drops
  trivial claims (:func:`~evidencegate.judges.support.is_trivial`), and scores each claim 0–3
  with its supporting evidence named as (passage, verbatim quote). The named evidence is checked
  by the deterministic :class:`~evidencegate.verify.verifier.Verifier` — the quote must be on
  the cited page of a retrieved, in-force, allowed source, and state the claim's numbers, dates
  and negations — and a claim whose evidence fails scores 0 whatever the judge said: no judge
  can invent support. The answer's groundedness is the mean claim score / 3. An abstention is
  scored as an abstention (``abstained``, no score), never as 0 or 1.
* **Answer relevance** rates 0–3 how well the answer addresses the question; a refusal is 0.

:class:`RulesTriadJudge` is deterministic and offline; :class:`LLMTriadJudge` asks a
:class:`~evidencegate.providers.base.ChatModel` with criteria and worked examples. Both return
schema-validated models (:mod:`evidencegate.judgements`) and fail closed: any judge error
raises, and never becomes a score.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.analysis import (
    has_figure,
    idf_weights,
    profile_question,
    split_sentences,
    weighted_overlap,
)
from evidencegate.contracts import Citation, Claim, Passage
from evidencegate.judgements import (
    AnswerRelevance,
    ClaimGrounding,
    ContextRelevance,
    EvidenceRef,
    Groundedness,
    TriadResult,
)
from evidencegate.judges.llm import ask_json, validated
from evidencegate.judges.prompts import (
    ANSWER_RELEVANCE,
    CONTEXT_RELEVANCE,
    DECOMPOSE,
    GROUNDEDNESS,
)
from evidencegate.judges.support import RulesSupportJudge, content_sentences, is_trivial
from evidencegate.prompts.base import evidence_blocks
from evidencegate.providers.base import ChatModel
from evidencegate.text import terms
from evidencegate.verify.verifier import Verifier

__all__ = [
    "LLMTriadJudge",
    "RulesTriadJudge",
    "TriadJudge",
    "TriadThresholds",
    "decompose_sentences",
    "is_refusal",
    "judge_triad",
]

_CITATION_MARK = re.compile(r"\s*\[\d+\]")
_REFUSAL = re.compile(
    r"^\W*(?:abstained\b"
    r"|i\s+(?:cannot|can\s*not|can't|am\s+unable\s+to|could\s+not|couldn't|do\s+not|don't)\s+"
    r"(?:answer|know|determine|find|say|tell)"
    r"|(?:there\s+is\s+)?(?:not\s+enough|insufficient|no)\s+(?:evidence|information)\b"
    r"|(?:the\s+)?(?:evidence|sources?|documents?)\s+(?:does|do)\s+not\s+(?:say|state|answer)"
    r"|unable\s+to\s+(?:answer|determine))",
    re.IGNORECASE,
)


def is_refusal(answer: str) -> bool:
    """True when the answer is a refusal or an abstention rather than an answer."""
    return not answer.strip() or bool(_REFUSAL.match(answer))


def decompose_sentences(answer: str, *, min_terms: int = 2) -> tuple[list[str], list[str]]:
    """(claims, trivial sentences): the answer split into sentences, citation marks removed."""
    return content_sentences(_CITATION_MARK.sub("", answer), min_terms=min_terms)


class TriadJudge(Protocol):
    """The three judgements of the RAG triad. Each raises on a judge error (fail closed)."""

    @property
    def component_id(self) -> str: ...

    def context_relevance(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[ContextRelevance]: ...

    def groundedness(
        self,
        answer: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        abstained: bool | None = None,
    ) -> Groundedness: ...

    def answer_relevance(
        self, question: str, answer: str, *, as_of: dt.date, abstained: bool | None = None
    ) -> AnswerRelevance: ...


def judge_triad(
    judge: TriadJudge,
    question: str,
    answer: str,
    passages: Sequence[Passage],
    *,
    as_of: dt.date,
    abstained: bool | None = None,
) -> TriadResult:
    """All three judgements of one answer. ``abstained`` None: detected from the answer text."""
    result = TriadResult(
        judge=judge.component_id,
        context=judge.context_relevance(question, passages, as_of=as_of),
        groundedness=judge.groundedness(answer, passages, as_of=as_of, abstained=abstained),
        answer=judge.answer_relevance(question, answer, as_of=as_of, abstained=abstained),
    )
    return validated(result, judge=judge.component_id)


@dataclass(frozen=True)
class TriadThresholds:
    """Cut points of the rules judges (each a share of question terms, or a support score)."""

    context_full: float = 0.75
    context_partial: float = 0.5
    context_weak: float = 0.25
    claim_full: float = 0.8
    claim_partial: float = 0.41  # the rules support judge's threshold
    claim_weak: float = 0.3
    answer_full: float = 0.6
    answer_partial: float = 0.4
    answer_weak: float = 0.15
    min_terms: int = 2


def _grade(value: float, full: float, partial: float, weak: float) -> int:
    return 3 if value >= full else 2 if value >= partial else 1 if value >= weak else 0


# --------------------------------------------------------------------------- verification


def _ground(
    claim_id: str,
    text: str,
    judge_score: int,
    evidence: Sequence[EvidenceRef],
    reason: str,
    passages: Sequence[Passage],
    verifier: Verifier,
    as_of: dt.date,
) -> ClaimGrounding:
    """Check the judge's evidence with the verifier; failed or missing evidence scores 0."""
    by_id = {p.passage_id: p for p in passages}
    unknown = [ref.passage_id for ref in evidence if ref.passage_id not in by_id]
    if judge_score == 0:
        return ClaimGrounding(
            claim_id=claim_id,
            text=text,
            judge_score=0,
            score=0,
            evidence=list(evidence),
            verified=False,
            reason=reason,
        )
    if not evidence or unknown:
        why = f"names unknown passages {unknown}" if unknown else "names no evidence"
        return ClaimGrounding(
            claim_id=claim_id,
            text=text,
            judge_score=judge_score,
            score=0,
            evidence=list(evidence),
            verified=False,
            reason=f"{reason} [overruled: the judge {why}]",
        )
    citations = [
        Citation(
            doc_id=by_id[ref.passage_id].doc_id,
            version=by_id[ref.passage_id].version,
            page=by_id[ref.passage_id].page,
            quote=ref.quote,
            evidence_id=ref.passage_id,
        )
        for ref in evidence
    ]
    retrieved = {f"{p.doc_id}@{p.version}" for p in passages}
    check = verifier.verify(
        Claim(claim_id=claim_id, text=text, citations=citations), as_of=as_of, retrieved=retrieved
    )
    if not check.ok:
        failures = ", ".join(sorted({r.value for r in check.reasons}))
        return ClaimGrounding(
            claim_id=claim_id,
            text=text,
            judge_score=judge_score,
            score=0,
            evidence=list(evidence),
            verified=False,
            reason=f"{reason} [overruled by the verifier: {failures}]",
        )
    return ClaimGrounding(
        claim_id=claim_id,
        text=text,
        judge_score=judge_score,
        score=judge_score,
        evidence=list(evidence),
        verified=True,
        reason=reason,
    )


def _groundedness(claims: Sequence[ClaimGrounding], trivial: Sequence[str]) -> Groundedness:
    score = sum(c.score for c in claims) / (3 * len(claims)) if claims else None
    return Groundedness(
        abstained=False,
        claims=list(claims),
        trivial=list(trivial),
        score=round(score, 6) if score is not None else None,
    )


# --------------------------------------------------------------------------- rules


class RulesTriadJudge:
    """The offline triad: term coverage for relevance, the rules support judge for claims."""

    component_id = "judge:triad-rules@1"

    def __init__(
        self,
        verifier: Verifier,
        *,
        support: RulesSupportJudge | None = None,
        thresholds: TriadThresholds | None = None,
    ) -> None:
        self.verifier = verifier
        self.support = support or RulesSupportJudge()
        self.thresholds = thresholds or TriadThresholds()

    def context_relevance(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[ContextRelevance]:
        t = self.thresholds
        profile = profile_question(question, as_of=as_of)
        texts = [terms(p.text) for p in passages]
        weights = idf_weights(profile.terms, texts)
        out: list[ContextRelevance] = []
        for passage, found in zip(passages, texts, strict=True):
            share = weighted_overlap(profile.terms, found, weights)
            score = _grade(share, t.context_full, t.context_partial, t.context_weak)
            reason = f"covers {share:.2f} of the question's weighted terms"
            if profile.wants_figure and not has_figure(passage.text, profile.wants_figure):
                score = min(score, 2)
                reason += f"; states no {profile.wants_figure} asked for"
            out.append(ContextRelevance(passage_id=passage.passage_id, score=score, reason=reason))
        return [validated(c, judge=self.component_id) for c in out]

    def groundedness(
        self,
        answer: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        abstained: bool | None = None,
    ) -> Groundedness:
        if is_refusal(answer) if abstained is None else abstained:
            return validated(Groundedness(abstained=True), judge=self.component_id)
        t = self.thresholds
        claims, trivial = decompose_sentences(answer, min_terms=t.min_terms)
        graded: list[ClaimGrounding] = []
        for number, text in enumerate(claims, start=1):
            best = self._best_evidence(text, passages)
            if best is None:
                graded.append(
                    _ground(
                        f"c{number}", text, 0, [], "no evidence", passages, self.verifier, as_of
                    )
                )
                continue
            support, ref = best
            score = _grade(support, t.claim_full, t.claim_partial, t.claim_weak)
            graded.append(
                _ground(
                    f"c{number}",
                    text,
                    score,
                    [ref] if score else [],
                    f"rules support {support:.2f}",
                    passages,
                    self.verifier,
                    as_of,
                )
            )
        return validated(_groundedness(graded, trivial), judge=self.component_id)

    def _best_evidence(
        self, claim: str, passages: Sequence[Passage]
    ) -> tuple[float, EvidenceRef] | None:
        """The passage supporting ``claim`` best, with its best-aligned verbatim window."""
        best: tuple[float, EvidenceRef] | None = None
        for passage in passages:
            if not passage.text.strip():
                continue
            support = self.support.judge(passage.text, claim).score
            if best is not None and support <= best[0]:
                continue
            quote = _aligned_quote(claim, passage.text)
            if quote:
                best = (support, EvidenceRef(passage_id=passage.passage_id, quote=quote))
        return best

    def answer_relevance(
        self, question: str, answer: str, *, as_of: dt.date, abstained: bool | None = None
    ) -> AnswerRelevance:
        if is_refusal(answer) if abstained is None else abstained:
            result = AnswerRelevance(score=0, refusal=True, reason="a refusal answers nothing")
            return validated(result, judge=self.component_id)
        t = self.thresholds
        profile = profile_question(question, as_of=as_of)
        share = weighted_overlap(profile.terms, terms(answer), {})
        score = _grade(share, t.answer_full, t.answer_partial, t.answer_weak)
        reason = f"addresses {share:.2f} of the question's terms"
        if profile.wants_figure and not has_figure(answer, profile.wants_figure):
            score = min(score, 1)
            reason += f"; states no {profile.wants_figure} asked for"
        result = AnswerRelevance(score=score, refusal=False, reason=reason)
        return validated(result, judge=self.component_id)


def _aligned_quote(claim: str, text: str, window: int = 2) -> str | None:
    """The verbatim span of ``text`` (up to ``window`` sentences) sharing most terms with
    ``claim``; None when no sentence shares any."""
    wanted = set(terms(claim))
    sentences = split_sentences(text)
    best: tuple[int, int, int] | None = None  # (shared, start, end)
    for i in range(len(sentences)):
        for j in range(i, min(i + window, len(sentences))):
            shared = len(wanted & set(terms(text[sentences[i].start : sentences[j].end])))
            if shared and (best is None or shared > best[0]):
                best = (shared, sentences[i].start, sentences[j].end)
    return text[best[1] : best[2]] if best else None


# --------------------------------------------------------------------------- model


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _PassageScore(_Strict):
    evidence_id: str
    score: int = Field(ge=0, le=3)
    reason: str = Field(min_length=1)


class _ContextReply(_Strict):
    passages: list[_PassageScore]


class _Quote(_Strict):
    evidence_id: str
    quote: str = Field(min_length=1)


class _ClaimScore(_Strict):
    claim_id: str
    score: int = Field(ge=0, le=3)
    evidence: list[_Quote] = Field(default_factory=list)
    reason: str = Field(min_length=1)


class _GroundednessReply(_Strict):
    claims: list[_ClaimScore]


class _AnswerReply(_Strict):
    score: int = Field(ge=0, le=3)
    refusal: bool
    reason: str = Field(min_length=1)


class _DecomposeReply(_Strict):
    claims: list[str]
    trivial: list[str] = Field(default_factory=list)


def _exactly(ids: Sequence[str], expected: Sequence[str], what: str) -> list[str]:
    if sorted(ids) != sorted(expected):
        return [f"judge every {what} exactly once: expected {sorted(expected)}, got {list(ids)}"]
    return []


class LLMTriadJudge:
    """The triad judged by a language model; the verifier still checks every quote.

    ``decompose``: ``"sentences"`` splits the answer into sentences; ``"model"`` asks the model
    for atomic claims first. Either way trivial claims are filtered out.
    """

    def __init__(
        self,
        chat: ChatModel,
        verifier: Verifier,
        *,
        decompose: Literal["sentences", "model"] = "sentences",
        timeout_s: float = 60.0,
        min_terms: int = 2,
    ) -> None:
        self.chat = chat
        self.verifier = verifier
        self.decompose = decompose
        self.timeout_s = timeout_s
        self.min_terms = min_terms

    @property
    def component_id(self) -> str:
        return f"judge:{self.chat.provider}:{self.chat.model}"

    def context_relevance(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[ContextRelevance]:
        if not passages:
            return []
        blocks = evidence_blocks(passages)
        reply = ask_json(
            self.chat,
            _ContextReply,
            judge=self.component_id,
            prompt=CONTEXT_RELEVANCE,
            values={"question": question, "evidence": blocks.text},
            purpose="context_relevance",
            timeout_s=self.timeout_s,
            check=lambda r: _exactly(
                [p.evidence_id for p in r.passages], list(blocks.by_id), "evidence id"
            ),
        )
        scores = {p.evidence_id: p for p in reply.passages}
        return [
            validated(
                ContextRelevance(
                    passage_id=passage.passage_id,
                    score=scores[block_id].score,
                    reason=scores[block_id].reason,
                ),
                judge=self.component_id,
            )
            for block_id, passage in blocks.by_id.items()
        ]

    def groundedness(
        self,
        answer: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        abstained: bool | None = None,
    ) -> Groundedness:
        if is_refusal(answer) if abstained is None else abstained:
            return validated(Groundedness(abstained=True), judge=self.component_id)
        claims, trivial = self._claims(answer)
        if not claims:
            return validated(_groundedness([], trivial), judge=self.component_id)
        ids = [f"C{i}" for i in range(1, len(claims) + 1)]
        blocks = evidence_blocks(passages)
        listing = "\n".join(
            f'<claim id="{cid}">{text}</claim>' for cid, text in zip(ids, claims, strict=True)
        )
        reply = ask_json(
            self.chat,
            _GroundednessReply,
            judge=self.component_id,
            prompt=GROUNDEDNESS,
            values={"claims": listing, "evidence": blocks.text},
            purpose="groundedness",
            timeout_s=self.timeout_s,
            check=lambda r: _exactly([c.claim_id for c in r.claims], ids, "claim id"),
        )
        by_claim = {c.claim_id: c for c in reply.claims}
        graded: list[ClaimGrounding] = []
        for cid, text in zip(ids, claims, strict=True):
            scored = by_claim[cid]
            refs = [
                EvidenceRef(
                    passage_id=(
                        blocks.by_id[q.evidence_id].passage_id
                        if q.evidence_id in blocks.by_id
                        else q.evidence_id
                    ),
                    quote=q.quote,
                )
                for q in scored.evidence
            ]
            graded.append(
                _ground(
                    cid, text, scored.score, refs, scored.reason, passages, self.verifier, as_of
                )
            )
        return validated(_groundedness(graded, trivial), judge=self.component_id)

    def _claims(self, answer: str) -> tuple[list[str], list[str]]:
        if self.decompose == "sentences":
            return decompose_sentences(answer, min_terms=self.min_terms)
        reply = ask_json(
            self.chat,
            _DecomposeReply,
            judge=self.component_id,
            prompt=DECOMPOSE,
            values={"answer": _CITATION_MARK.sub("", answer)},
            purpose="decompose",
            timeout_s=self.timeout_s,
        )
        kept = [c for c in reply.claims if not is_trivial(c, min_terms=self.min_terms)]
        dropped = [c for c in reply.claims if is_trivial(c, min_terms=self.min_terms)]
        return kept, [*reply.trivial, *dropped]

    def answer_relevance(
        self, question: str, answer: str, *, as_of: dt.date, abstained: bool | None = None
    ) -> AnswerRelevance:
        if is_refusal(answer) if abstained is None else abstained:
            result = AnswerRelevance(score=0, refusal=True, reason="a refusal answers nothing")
            return validated(result, judge=self.component_id)
        reply = ask_json(
            self.chat,
            _AnswerReply,
            judge=self.component_id,
            prompt=ANSWER_RELEVANCE,
            values={"question": question, "answer": answer},
            purpose="answer_relevance",
            timeout_s=self.timeout_s,
            check=lambda r: ["a refusal scores 0"] if r.refusal and r.score else [],
        )
        result = AnswerRelevance(score=reply.score, refusal=reply.refusal, reason=reply.reason)
        return validated(result, judge=self.component_id)
