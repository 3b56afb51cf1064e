"""The four-arm ablation: every golden item through every arm, judged by one evaluator.

The arms are the :class:`~evidencegate.contracts.Arm` values of the loop controller: baseline
(retrieve → draft → emit), self_critique (the critic sees only the draft), grounded (critic with
evidence and the verifier's gate) and grounded_followup (grounded plus follow-up retrieval).
Each arm gets its own :class:`LoopController` built exactly as
:class:`~evidencegate.gate.EvidenceGate` builds one, from the same policy, store and
components: the arm is the only difference.

The evaluator is independent of the arm: the deterministic :class:`Verifier` re-checks every
emitted claim (gated or not) against the store, as of the item's date and against what the run
retrieved (read from its trace), and the offline support judge
(:class:`~evidencegate.judges.support.RulesSupportJudge`, which no default arm consults) checks
that each claim is supported by its own quotes; then each citation is compared with the golden
item's required and forbidden sources (see :func:`score_answer`), and the answer with the
item's expected answer (:func:`~evidencegate.evals.answers.grade_answer`). A paraphrase of an
item is a run of its own (see :func:`~evidencegate.evals.golden.expand_paraphrases`).

Concurrency is a thread pool over one synchronous function, :func:`run_item`: the run context
is a ContextVar, so concurrent runs do not share budgets or traces. :func:`run_item` never
raises for an item: a run that raises, or that ends because a component crashed, is recorded
as a failed :class:`ItemResult` with its error; it is never dropped.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Protocol

from evidencegate.analysis import weighted_overlap
from evidencegate.components import CriticLike, GeneratorLike, admit, build_retriever
from evidencegate.contracts import Arm, Citation, FailureReason, GatedAnswer, StopReason
from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.scope import claim_statement
from evidencegate.evals.answers import AnswerClass, AnswerGrade, EmittedClaim, grade_answer
from evidencegate.evals.golden import GoldenItem, RequiredEvidence, expand_paraphrases
from evidencegate.evals.metrics import CitationResult, ClaimResult, ItemResult, RequiredResult
from evidencegate.judges.panel import JudgePanel
from evidencegate.judges.support import RulesSupportJudge, SupportJudge
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy
from evidencegate.protocols import Retriever, SourceLookup
from evidencegate.text import terms
from evidencegate.trace.events import RetrievalEvent
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.derived import derivation_evidence
from evidencegate.verify.quotes import QuoteMatch, locate_quote
from evidencegate.verify.verifier import Verifier

__all__ = [
    "ARMS",
    "NOT_SUPPORTED_BY_QUOTES",
    "Corpus",
    "build_controllers",
    "run_ablation",
    "run_item",
    "score_answer",
]

NOT_SUPPORTED_BY_QUOTES = "not_supported_by_quotes"
"""The failure a claim gets when the support judge finds it unsupported by its own quotes."""

#: Every arm, in report order (the baseline first: the others are compared with it).
ARMS: tuple[Arm, ...] = (Arm.BASELINE, Arm.SELF_CRITIQUE, Arm.GROUNDED, Arm.GROUNDED_FOLLOWUP)

_MIN_CLAIM_OVERLAP = 0.5
"""A required entry without a quote is matched by a citation whose quote holds at least this
share of the required claim's content terms."""


class Corpus(Retriever, SourceLookup, Protocol):
    """What an ablation runs over: a retriever that is also the verifier's source lookup."""


def build_controllers(
    corpus: Corpus,
    policy: Policy,
    arms: Sequence[Arm],
    *,
    generator: GeneratorLike | None = None,
    critic: CriticLike | None = None,
) -> dict[Arm, LoopController]:
    """One controller per arm, each as EvidenceGate builds it (through the one door for
    models, :func:`~evidencegate.components.admit`); only ``arm`` differs."""
    retriever: Retriever = (
        build_retriever(policy, corpus) if isinstance(corpus, StoreBackend) else corpus
    )
    policy, admitted_generator, admitted_critic = admit(policy, generator, critic, pages=corpus)
    verifiers = {arm: Verifier.from_policy(corpus, policy) for arm in arms}
    return {
        arm: LoopController(
            retriever=retriever,
            verifier=verifiers[arm],
            generator=admitted_generator,
            critic=admitted_critic,
            policy=policy,
            arm=arm,
            judges=JudgePanel.for_policy(policy, verifiers[arm]),
        )
        for arm in arms
    }


def run_ablation(
    items: Sequence[GoldenItem],
    corpus: Corpus,
    *,
    policy: Policy,
    arms: Sequence[Arm] = ARMS,
    concurrency: int = 1,
    generator: GeneratorLike | None = None,
    critic: CriticLike | None = None,
    trace_dir: Path | None = None,
    on_result: Callable[[ItemResult], None] | None = None,
    paraphrases: bool = True,
) -> dict[Arm, list[ItemResult]]:
    """Run every item (and, with ``paraphrases``, each of its paraphrases) through every arm.

    Results per arm, in item order, each item followed by its variants (``ITEM~p1``, ...).
    ``trace_dir``: write each run's trace to ``trace_dir/ARM/ITEM_ID.jsonl`` (kept in memory
    otherwise). ``on_result`` is called in the calling thread as each run finishes.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be >= 1 (got {concurrency})")
    if not arms or len(set(arms)) != len(arms):
        raise ValueError(f"arms must be distinct and non-empty (got {[a.value for a in arms]})")
    if paraphrases:
        items = expand_paraphrases(items)
    controllers = build_controllers(corpus, policy, arms, generator=generator, critic=critic)
    judge = Verifier.from_policy(corpus, policy)
    support = RulesSupportJudge()
    done: dict[tuple[Arm, str], ItemResult] = {}
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="ablate") as pool:
        futures = {
            pool.submit(
                run_item,
                controllers[arm],
                item,
                judge=judge,
                sources=corpus,
                support=support,
                trace_path=_trace_path(trace_dir, arm, item),
            ): (arm, item.id)
            for item in items
            for arm in arms
        }
        for future in as_completed(futures):
            result = future.result()
            done[futures[future]] = result
            if on_result is not None:
                on_result(result)
    return {arm: [done[(arm, item.id)] for item in items] for arm in arms}


def _trace_path(trace_dir: Path | None, arm: Arm, item: GoldenItem) -> Path | None:
    return None if trace_dir is None else trace_dir / arm.value / f"{item.id}.jsonl"


def run_item(
    controller: LoopController,
    item: GoldenItem,
    *,
    judge: Verifier,
    sources: SourceLookup,
    support: SupportJudge | None = None,
    trace_path: Path | None = None,
) -> ItemResult:
    """Run one item through one controller and judge the answer; never raises for the item.

    ``support`` judges each claim against its quotes (the rules support judge by default).
    """
    support = support or RulesSupportJudge()
    run_id = uuid.uuid4().hex
    started = time.perf_counter()
    latency_ms = 0.0
    try:
        with TraceRecorder(
            trace_path, run_id=run_id, durability=controller.policy.trace_durability
        ) as recorder:
            answer = controller.run(item.question, as_of=item.as_of, trace=recorder, run_id=run_id)
        latency_ms = (time.perf_counter() - started) * 1000
        retrievals = [
            line.event for line in recorder.lines if isinstance(line.event, RetrievalEvent)
        ]
        retrieved = {f"{r.doc_id}@{r.version}" for event in retrievals for r in event.results}
        claims, required = score_answer(
            item, answer, judge=judge, sources=sources, retrieved=retrieved, support=support
        )
    except Exception as exc:  # a failed item is recorded as failed, never dropped
        return ItemResult(
            item_id=item.id,
            question=item.question,
            arm=controller.arm,
            category=item.category,
            error=f"{type(exc).__name__}: {exc}",
            latency_ms=round(latency_ms or (time.perf_counter() - started) * 1000, 3),
            required=[_required(e, matched=False) for e in item.required_evidence],
            answer=AnswerGrade(answer_class=AnswerClass.FAILED),
            trace_id=run_id,
            trace_path=None if trace_path is None else str(trace_path),
        )
    error = None
    if answer.stop_reason is StopReason.COMPONENT_ERROR:
        error = "component_error: " + "; ".join(answer.gaps)
    grade = grade_answer(
        item.expected_answer,
        answerable=item.answerable,
        failed=error is not None,
        claims=[
            EmittedClaim(c.claim_id, c.text, covers_required=c.covers_required) for c in claims
        ],
    )
    return ItemResult(
        item_id=item.id,
        question=item.question,
        arm=controller.arm,
        category=item.category,
        outcome=answer.outcome,
        stop_reason=answer.stop_reason,
        error=error,
        latency_ms=round(latency_ms, 3),
        passes=answer.passes,
        retrievals=answer.usage.retrievals,
        followups=sum(event.purpose == "follow_up" for event in retrievals),
        model_calls=answer.usage.model_calls,
        input_tokens=answer.usage.input_tokens,
        output_tokens=answer.usage.output_tokens,
        cost_usd=answer.usage.cost_usd,
        claims=claims,
        required=required,
        answer=grade,
        trace_id=answer.trace_id,
        trace_path=None if trace_path is None else str(trace_path),
    )


def score_answer(
    item: GoldenItem,
    answer: GatedAnswer,
    *,
    judge: Verifier,
    sources: SourceLookup,
    retrieved: Collection[str] | None,
    support: SupportJudge | None = None,
) -> tuple[list[ClaimResult], list[RequiredResult]]:
    """Judge every emitted claim and citation, and which required evidence the answer covers.

    A claim is supported when the verifier accepts it and ``support`` (the offline rules
    support judge by default) finds it supported by its own quotes. A citation is incorrect
    when the verifier rejects it or its claim (the quote is not on the page, does not state the
    claim's numbers, dates or negations, the version is not in force, the source is not an
    allowed authority, ...), when it cites a version of a required document other than the
    required one(s), or when it cites a forbidden source. It is stale (a superseded or other
    version) when the cited version is not in force on the item's as-of date, is not the
    required version of a required document, or is a forbidden version of a required document.
    """
    support = support or RulesSupportJudge()
    required_versions: dict[str, set[str]] = {}
    for evidence in item.required_evidence:
        if evidence.version is not None:
            required_versions.setdefault(evidence.doc_id, set()).add(evidence.version)
    required_docs = {evidence.doc_id for evidence in item.required_evidence}
    claims: list[ClaimResult] = []
    verified: list[Citation] = []
    for claim in answer.claims:
        verification = judge.verify(claim, as_of=item.as_of, retrieved=retrieved)
        failures = [r.value for r in verification.reasons]
        quotes = "\n".join(c.quote for c in claim.citations)
        quotes += derivation_evidence(
            claim
        )  # a derived claim's figure, as the engine recomputed it
        # "AC-11 Device Lock: ..." names the cited page as the store records it, as the
        # verifier and the critic read it; the support judge weighs the statement.
        statement = claim_statement(claim, sources)
        if (
            not quotes.strip()
            or not statement.strip()
            or support.judge(quotes, statement).label != "supported"
        ):
            failures.append(NOT_SUPPORTED_BY_QUOTES)
        claim_failures = [f.reason.value for f in verification.failures]
        citations: list[CitationResult] = []
        own: list[Citation] = []
        for check in verification.citations:
            cited = check.citation
            problems = [f.reason.value for f in check.failures] + claim_failures
            versions = required_versions.get(cited.doc_id)
            if versions is not None and cited.version not in versions:
                problems.append("wrong_version")
            forbidden = item.is_forbidden(cited.doc_id, cited.version)
            if forbidden:
                problems.append("forbidden_source")
            stale = (
                any(f.reason is FailureReason.NOT_IN_FORCE for f in check.failures)
                or "wrong_version" in problems
                or (forbidden and cited.doc_id in required_docs)
            )
            citations.append(
                CitationResult(
                    doc_id=cited.doc_id,
                    version=cited.version,
                    page=cited.page,
                    quote=cited.quote,
                    problems=list(dict.fromkeys(problems)),
                    stale=stale,
                )
            )
            if check.ok and verification.ok:
                own.append(cited)
        verified.extend(own)
        claims.append(
            ClaimResult(
                claim_id=claim.claim_id,
                text=claim.text,
                supported=not failures,
                failures=list(dict.fromkeys(failures)),
                citations=citations,
                covers_required=any(
                    _covers(e, c, sources) for e in item.required_evidence for c in own
                ),
            )
        )
    required = [
        _required(e, matched=any(_covers(e, c, sources) for c in verified))
        for e in item.required_evidence
    ]
    return claims, required


def _required(evidence: RequiredEvidence, *, matched: bool) -> RequiredResult:
    return RequiredResult(
        claim=evidence.claim,
        doc_id=evidence.doc_id,
        version=evidence.version,
        page=evidence.page,
        matched=matched,
    )


def _covers(evidence: RequiredEvidence, cited: Citation, sources: SourceLookup) -> bool:
    """Does a verified citation establish a required entry?

    Same doc_id, and the same version and page when the entry names them; then the cited span
    must overlap the span of the required quote on the cited page, or (for an entry without a
    quote) the cited quote must hold most of the required claim's content terms.
    """
    if cited.doc_id != evidence.doc_id:
        return False
    if evidence.version is not None and cited.version != evidence.version:
        return False
    if evidence.page is not None and cited.page != evidence.page:
        return False
    if evidence.quote is None:
        overlap = weighted_overlap(terms(evidence.claim), terms(cited.quote), {})
        return overlap >= _MIN_CLAIM_OVERLAP
    if cited.char_start is None or cited.char_end is None:
        return False
    source = sources.lookup(cited.doc_id, cited.version, cited.page)
    if source is None:
        return False
    span = locate_quote(source.page.text, evidence.quote)
    if not isinstance(span, QuoteMatch):
        return False
    return span.char_start < cited.char_end and cited.char_start < span.char_end
