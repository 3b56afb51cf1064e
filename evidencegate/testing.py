"""Test doubles that ship with evidencegate, for tests of code that uses it.

Like httpx's ``MockTransport`` or structlog's ``capture_logs``: everything here runs offline and
deterministically. Each helper is independent; add new ones in their own section.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

from evidencegate.analysis import has_figure, profile_question
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import (
    Authority,
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    DocumentVersion,
    Draft,
    Page,
    Passage,
    SourcePage,
    Verdict,
)
from evidencegate.exceptions import CriticOutputInvalid
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.hygiene import instruction_flags
from evidencegate.protocols import Retriever
from evidencegate.providers.base import ChatRequest
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.text import terms
from evidencegate.trace.recorder import TraceRecorder

if TYPE_CHECKING:  # NumPy comes with the dense extra; only KeywordEmbedder.embed needs it
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "InMemoryCorpus",
    "KeywordEmbedder",
    "ScriptedCritic",
    "ScriptedGenerator",
    "SnapshotGenerator",
    "capture_trace",
    "careful_model",
    "events_of_kind",
    "ticking_clock",
]

EventT = TypeVar("EventT", bound=BaseModel)

# --------------------------------------------------------------------------- trace capture

CAPTURE_START = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)


def ticking_clock(
    start: dt.datetime = CAPTURE_START, step: dt.timedelta = dt.timedelta(milliseconds=1)
) -> Callable[[], dt.datetime]:
    """A clock returning ``start``, ``start + step``, ... so that traces are byte-identical."""
    ticks = itertools.count()
    return lambda: start + step * next(ticks)


def capture_trace(*, run_id: str = "test-run") -> TraceRecorder:
    """An in-memory :class:`TraceRecorder` with a fixed run id and a ticking clock."""
    return TraceRecorder(run_id=run_id, clock=ticking_clock())


def events_of_kind(recorder: TraceRecorder, kind: type[EventT]) -> list[EventT]:
    """The recorded events of one event class, in order (``events_of_kind(rec, DraftEvent)``)."""
    return [line.event for line in recorder.lines if isinstance(line.event, kind)]


# ------------------------------------------------------------------ corpus and model doubles


class InMemoryCorpus:
    """A Retriever and SourceLookup over documents held in memory (term-overlap ranking).

    ``add(doc_id, version, effective_from, pages)`` supersedes the previous version of the same
    doc_id from its date, as the SQLite store does.
    """

    def __init__(self) -> None:
        self._docs: dict[tuple[str, str], tuple[DocumentVersion, list[str]]] = {}

    def add(
        self,
        doc_id: str,
        version: str,
        effective_from: dt.date,
        pages: Sequence[str],
        *,
        authority: Authority = "primary",
        period: str | None = None,
    ) -> DocumentVersion:
        doc = DocumentVersion(
            doc_id=doc_id,
            version=version,
            version_date=effective_from,
            effective_from=effective_from,
            authority=authority,
            sha256=sha256_hex("\f".join(pages)),
            pages=len(pages),
            period=period,
        )
        self._docs[(doc_id, version)] = (doc, list(pages))
        self._resupersede(doc_id)
        return self._docs[(doc_id, version)][0]

    def _resupersede(self, doc_id: str) -> None:
        ordered = sorted(
            (d for (i, _), (d, _p) in self._docs.items() if i == doc_id),
            key=lambda d: (d.effective_from, d.version),
        )
        for cur, nxt in zip(ordered, [*ordered[1:], None], strict=True):
            update = {
                "effective_to": nxt.effective_from if nxt else None,
                "superseded_by": nxt.version if nxt else None,
            }
            pages = self._docs[(doc_id, cur.version)][1]
            self._docs[(doc_id, cur.version)] = (cur.model_copy(update=update), pages)

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        entry = self._docs.get((doc_id, version))
        if entry is None or not 1 <= page <= len(entry[1]):
            return None
        doc, pages = entry
        return SourcePage(
            document=doc, page=Page(doc_id=doc_id, version=version, page=page, text=pages[page - 1])
        )

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
        wanted = set(terms(query))
        hits: list[Passage] = []
        for (doc_id, version), (doc, pages) in sorted(self._docs.items()):
            if not doc.in_force(as_of):
                continue
            if authorities is not None and doc.authority not in authorities:
                continue
            if doc_ids is not None and doc_id not in doc_ids:
                continue
            for number, text in enumerate(pages, start=1):
                score = len(wanted & set(terms(text)))
                if score:
                    hits.append(
                        Passage(
                            passage_id=sha256_hex(f"{doc_id}@{version}#{number}")[:24],
                            doc_id=doc_id,
                            version=version,
                            page=number,
                            char_start=0,
                            char_end=len(text),
                            text=text,
                            authority=doc.authority,
                            version_date=doc.version_date,
                            score=float(score),
                            flags=instruction_flags(text),
                        )
                    )
        hits.sort(key=lambda p: (-p.score, p.passage_id))
        return hits[:limit]


DraftScript = Sequence[Draft] | Callable[[str, Sequence[Passage]], Draft]
"""What a :class:`ScriptedGenerator` drafts: drafts in order, or a function of
(question, evidence)."""

SufficiencyScript = (
    Sequence[CriticSufficiency] | Callable[[str, Sequence[Passage]], CriticSufficiency]
)
"""What a :class:`ScriptedCritic` judges in phase 1: judgements in order, or a function of
(question, evidence)."""

AuditScript = Sequence[CriticAudit] | Callable[[Sequence[Claim]], CriticAudit]
"""What a :class:`ScriptedCritic` judges in phase 2: audits in order, or a function of the
drafted claims."""


class ScriptedGenerator:
    """A generator that drafts from a script: the given drafts in order, or a function.

    When a list runs out it declines (``Draft(declined="script exhausted")``), so the run
    abstains instead of answering. ``calls`` keeps what each draft was asked with.
    """

    def __init__(
        self, drafts: DraftScript, *, component_id: str = "generator:scripted@test"
    ) -> None:
        self.component_id = component_id
        self._function = drafts if callable(drafts) else None
        self._drafts = [] if callable(drafts) else list(drafts)
        self.calls: list[dict[str, object]] = []

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft:
        self.calls.append({"question": question, "evidence": list(evidence), "avoid": list(avoid)})
        if self._function is not None:
            return self._function(question, evidence)
        if not self._drafts:
            return Draft(declined="script exhausted")
        return self._drafts.pop(0)


class ScriptedCritic:
    """A critic that judges from a script: each phase a list of outputs in order, or a function.

    Phase 1 (``sufficiency``) sees the question and the evidence, never a draft; phase 2
    (``audits``) gets the drafted claims. When a list runs out the critic fails closed, as an
    invalid critic does (:class:`~evidencegate.exceptions.CriticOutputInvalid`: the run
    abstains with ``critic_invalid``). ``calls`` keeps what each phase was given.
    :meth:`approving` and :meth:`judging` build the common ones.
    """

    def __init__(
        self,
        sufficiency: SufficiencyScript = (),
        audits: AuditScript = (),
        *,
        component_id: str = "critic:scripted@test",
    ) -> None:
        self.component_id = component_id
        self._sufficiency_function = sufficiency if callable(sufficiency) else None
        self._sufficiency = [] if callable(sufficiency) else list(sufficiency)
        self._audit_function = audits if callable(audits) else None
        self._audits = [] if callable(audits) else list(audits)
        self.calls: list[dict[str, object]] = []

    @classmethod
    def judging(
        cls, verdict: Verdict, *, component_id: str = "critic:scripted@test"
    ) -> ScriptedCritic:
        """A critic that finds every evidence sufficient and gives every claim ``verdict``.

        Coverage is 1.0 and the contract met when the verdict is ``supported``, 0.0 and not
        met otherwise.
        """
        supported = verdict is Verdict.SUPPORTED

        def audit(claims: Sequence[Claim]) -> CriticAudit:
            return CriticAudit(
                claims=[
                    ClaimAudit(
                        claim_id=claim.claim_id,
                        verdict=verdict,
                        evidence_ids=[],
                        reason=f"scripted: {verdict.value}",
                    )
                    for claim in claims
                ],
                coverage=1.0 if supported else 0.0,
                contract_met=supported,
            )

        return cls(
            lambda question, evidence: CriticSufficiency(
                requires_more_context=False, reason="scripted: sufficient"
            ),
            audit,
            component_id=component_id,
        )

    @classmethod
    def approving(cls, *, component_id: str = "critic:approving@test") -> ScriptedCritic:
        """A critic that approves everything (``judging(Verdict.SUPPORTED)``): with it, what a
        run refuses is what the deterministic verifier refused."""
        return cls.judging(Verdict.SUPPORTED, component_id=component_id)

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        self.calls.append({"phase": "sufficiency", "question": question, "evidence": evidence})
        if self._sufficiency_function is not None:
            return self._sufficiency_function(question, evidence)
        if not self._sufficiency:
            raise CriticOutputInvalid("sufficiency script exhausted", critic=self.component_id)
        return self._sufficiency.pop(0)

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
        self.calls.append({"phase": "audit", "question": question, "claims": list(claims)})
        if self._audit_function is not None:
            return self._audit_function(claims)
        if not self._audits:
            raise CriticOutputInvalid("audit script exhausted", critic=self.component_id)
        return self._audits.pop(0)


# ------------------------------------------------------------------ a careful small model

_SPAN_LINE = re.compile(r"^\[(E\d+\.\d+)\] (.*)$", re.MULTILINE)
_CLAIM_BLOCK = re.compile(r'<claim id="(C\d+)">\n(.*?)\n</claim>', re.DOTALL)
_CITES = re.compile(r'^cites (E\d+\.\d+): "(.*)"$', re.MULTILINE)
_FACT_LINE = re.compile(r"^(F\d+): ", re.MULTILINE)
_AS_OF = re.compile(r"^(?:Answer as of|As of): (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def careful_model(*, model: str = "careful-1", provider: str = "scripted") -> ScriptedChatModel:
    """A scripted model that behaves like a careful small model under model contract v2.

    As generator it cites the one span that best matches the question (the most question terms,
    a figure when the question asks for one) and writes that span as its claim: it never writes
    a number it was not given. As critic it judges the evidence sufficient when such a span
    exists, and a claim supported when the verifier found its quotes and every term of the
    claim is in the spans it cites. Its judgement is lexical, not understanding: it is the
    stand-in that shows the model path end to end, offline, where no real model is at hand.
    """
    return ScriptedChatModel(_careful_reply, provider=provider, model=model)


def _careful_reply(request: ChatRequest) -> str:
    prompt = request.metadata.get("prompt", "")
    user = request.messages[0].content
    question = user.partition("Question: ")[2].partition("\n")[0]
    when = _AS_OF.search(user)
    as_of = dt.date.fromisoformat(when.group(1)) if when else CAPTURE_START.date()
    if prompt in ("generator.draft@v2", "generator.draft@v3"):
        best = _best_span(question, user, as_of)
        if best is None:
            return json.dumps({"claims": [], "declined": "no span answers the question"})
        span_id, text = best
        return json.dumps({"claims": [{"text": text, "citations": [{"span_id": span_id}]}]})
    if prompt == "critic.sufficiency@v2":
        found = _best_span(question, user, as_of) is not None
        fact = "a span that states the answer to the question"
        return json.dumps(
            {
                "judgement": "sufficient" if found else "insufficient",
                "reason": "a span states the answer" if found else "no span states the answer",
                "required_facts": [fact],
                "missing_facts": [] if found else [fact],
                "follow_up_query": None if found else " ".join(terms(question)),
            }
        )
    if prompt == "critic.audit@v2":
        facts = _FACT_LINE.findall(user)
        verdicts = []
        for claim_id, body in _CLAIM_BLOCK.findall(user):
            text = body.split("\n", 1)[0]
            cited = _CITES.findall(body)
            quoted = set(terms(" ".join(q for _, q in cited)))
            ok = "verifier: every quote found" in body and set(terms(text)) <= quoted
            verdicts.append(
                {
                    "claim_id": claim_id,
                    "verdict": "supported" if ok else "unsupported",
                    "evidence_ids": [span_id for span_id, _ in cited],
                    "fact_ids": facts[:1] if ok else [],
                    "reason": "the cited spans state it" if ok else "the cited spans do not",
                }
            )
        return json.dumps({"claims": verdicts, "missing_facts": [], "follow_up_query": None})
    return json.dumps({"error": f"careful_model does not know the prompt {prompt!r}"})


def _best_span(question: str, user: str, as_of: dt.date) -> tuple[str, str] | None:
    """The span sharing the most question terms (at least half of them), figures first when the
    question asks for one."""
    asked = set(terms(question))
    wants = profile_question(question, as_of=as_of).wants_figure
    best: tuple[tuple[bool, int], str, str] | None = None
    for span_id, text in _SPAN_LINE.findall(user):
        shared = len(asked & set(terms(text)))
        if not asked or shared * 2 < len(asked):
            continue
        key = (wants is None or has_figure(text, wants), shared)
        if best is None or key > best[0]:
            best = (key, span_id, text)
    return None if best is None else (best[1], best[2])


# --------------------------------------------------------------------------- stale knowledge


class SnapshotGenerator:
    """A generator that answers from memory: what the sources said on ``snapshot``.

    It ignores the evidence it is given and drafts (extractively, so every quote is real text)
    from ``corpus`` as of its ``snapshot`` date, secondary sources included: the offline stand-in
    for a model trained on an old copy of the sources, which states superseded figures and cites
    versions the run never retrieved. It is what the verifier's gate exists to catch.
    """

    component_id = "generator:snapshot@test"

    def __init__(
        self,
        corpus: Retriever,
        snapshot: dt.date,
        *,
        authorities: Sequence[Authority] = ("primary", "secondary"),
        limit: int = 8,
    ) -> None:
        self.corpus = corpus
        self.snapshot = snapshot
        self.authorities = list(authorities)
        self.limit = limit
        self._extractive = ExtractiveGenerator(authorities=self.authorities)

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft:
        recalled = self.corpus.search(
            question, as_of=self.snapshot, limit=self.limit, authorities=self.authorities
        )
        return self._extractive.draft(question, recalled, as_of=self.snapshot, avoid=avoid)


# --------------------------------------------------------------------------- embeddings


class KeywordEmbedder:
    """A tiny deterministic sentence embedder for the hybrid retriever (needs NumPy).

    Each word of a text (``analysis.terms``: lower-cased, stemmed, no stop words) counts in one
    of ``dimension`` buckets chosen by a hash of its *concept*: ``concepts`` maps a word to a
    concept shared by its paraphrases (``{"big": "size", "threshold": "size"}``), other words
    are their own concept. Texts sharing concepts are near; texts sharing none are orthogonal
    unless two concepts share a bucket. ``calls`` counts the texts embedded.
    """

    def __init__(
        self,
        concepts: dict[str, str] | None = None,
        *,
        dimension: int = 256,
        model_id: str = "keyword-embedder@1",
    ) -> None:
        self.concepts = {k.casefold(): v for k, v in (concepts or {}).items()}
        self.dimension = dimension
        self._model_id = model_id
        self.calls = 0

    @property
    def model_id(self) -> str:
        return self._model_id

    def embed(self, texts: Sequence[str]) -> NDArray[np.float32]:
        import numpy as np

        self.calls += len(texts)
        vectors = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[^\W_]+", text.casefold()):
                concept = self.concepts.get(word)
                if concept is None:
                    stems = terms(word)
                    if not stems:
                        continue
                    concept = self.concepts.get(stems[0], stems[0])
                bucket = int(sha256_hex(concept.encode("utf-8"))[:8], 16) % self.dimension
                vectors[row, bucket] += 1.0
        return vectors
