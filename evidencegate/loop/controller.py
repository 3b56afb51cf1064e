"""THE loop: retrieve → sufficiency → follow-up → draft → verify → audit → decide.

:meth:`LoopController.run` is written out in full in one function on purpose (like httpx's
``_send_handling_redirects``): the budget is checked at the top of each pass, every step is
recorded in the trace, and when the loop ends it says why with a :class:`StopReason`.

The controller decides; it never rewrites an answer. When the contract is not met it applies
``policy.on_fail`` and never emits a claim that failed verification or the critic's audit.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from evidencegate._version import __version__
from evidencegate.analysis import profile_question
from evidencegate.canonical import sha256_hex
from evidencegate.components import check_separation
from evidencegate.contracts import (
    Action,
    Arm,
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    Decision,
    DroppedClaim,
    GatedAnswer,
    Outcome,
    Passage,
    StopReason,
    Verdict,
)
from evidencegate.exceptions import BudgetExceeded, CriticOutputInvalid
from evidencegate.judges.models import AnswerScore, Route, TriadResult
from evidencegate.judges.relevance import (
    RelevanceJudge,
    RulesRelevanceJudge,
    classify_task,
    keyword_query,
    knowledge_stage,
)
from evidencegate.judges.routing import route_after_generation
from evidencegate.judges.scoring import Scored, keep_better, needs_quality_retry, score_answer
from evidencegate.judges.triad import RulesTriadJudge, TriadJudge, judge_triad
from evidencegate.loop.budget import Budget, RunUsage, stop_reason_for
from evidencegate.loop.context import RunContext, run_context
from evidencegate.policy import Policy
from evidencegate.protocols import Critic, Generator, Retriever, Scoping, TraceSink
from evidencegate.trace.events import (
    AuditEvent,
    ComponentFailedEvent,
    DecisionEvent,
    DraftEvent,
    RelevanceEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    RunStartEvent,
    ScopeEvent,
    SufficiencyEvent,
    TriadEvent,
    VerificationEvent,
)
from evidencegate.verify.verifier import Verifier

__all__ = ["LoopController"]


@dataclass
class _Attempt:
    """The latest audited draft: what on_fail works from when the loop stops unmet."""

    claims: list[Claim]
    verifications: dict[str, ClaimVerification]
    audit: CriticAudit


class LoopController:
    """Runs one question through the evidence-gated loop under a policy."""

    def __init__(
        self,
        *,
        retriever: Retriever,
        verifier: Verifier,
        generator: Generator,
        critic: Critic,
        policy: Policy,
        arm: Arm = Arm.GROUNDED_FOLLOWUP,
        triad_judge: TriadJudge | None = None,
        relevance_judge: RelevanceJudge | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # The critic must not be the generator (same object, model or provider:model), unless
        # the policy allows it with a stated reason, recorded in run_start.
        self.same_model_reason = check_separation(generator, critic, policy)
        self.retriever = retriever
        self.verifier = verifier
        self.generator = generator
        self.critic = critic
        self.policy = policy
        self.arm = arm
        self.clock = clock
        # Judges run only when the policy turns them on; the offline rules judges by default.
        if triad_judge is None and (policy.judges.triad or policy.judges.relevance):
            triad_judge = RulesTriadJudge(verifier)
        self.triad_judge = triad_judge if policy.judges.triad else None
        if relevance_judge is None and policy.judges.relevance and triad_judge is not None:
            relevance_judge = RulesRelevanceJudge(RulesTriadJudge(verifier))
        self.relevance_judge = relevance_judge if policy.judges.relevance else None

    def run(
        self,
        question: str,
        *,
        as_of: dt.date,
        trace: TraceSink,
        run_id: str,
        tenant: str | None = None,
    ) -> GatedAnswer:
        policy = self.policy
        arm = self.arm
        grounded = arm in (Arm.GROUNDED, Arm.GROUNDED_FOLLOWUP)
        may_follow_up = arm is Arm.GROUNDED_FOLLOWUP
        budget = Budget.from_policy(policy)
        usage = RunUsage(clock=self.clock)
        ctx = RunContext(run_id=run_id, trace=trace, usage=usage, budget=budget, policy=policy)
        components = {
            "generator": self.generator.component_id,
            "critic": self.critic.component_id,
            "verifier": self.verifier.component_id,
            # A retriever with a model (hybrid) names it and its version; others, their class.
            "retriever": getattr(self.retriever, "component_id", type(self.retriever).__name__),
            "arm": arm.value,
        }
        if self.same_model_reason is not None:
            components["same_model_critic"] = self.same_model_reason
        trace.emit(
            RunStartEvent(
                question=question,
                as_of=as_of,
                tenant=tenant,
                policy=policy.model_dump(mode="json"),
                policy_sha256=policy.sha256(),
                components=components,
                evidencegate_version=__version__,
            )
        )

        evidence: dict[str, Passage] = {}
        seen_sources: set[str] = set()
        avoid: list[str] = []
        attempt: _Attempt | None = None
        dropped: dict[str, DroppedClaim] = {}
        gaps: list[str] = []
        pass_no = 0
        judges = policy.judges
        regenerations = 0
        quality_retried = False
        retry_first: Scored[_Attempt] | None = None
        final_score: AnswerScore | None = None
        stop_detail = ""
        required_facts: list[str] = []
        stop: StopReason

        scope_ids: list[str] | None = None  # set by question analysis below

        def retrieve(query: str, purpose: str) -> list[str]:
            """Retrieve, record, merge into the evidence; return new primary sources."""
            return fetch(query, purpose)[1]

        def fetch(query: str, purpose: str) -> tuple[list[Passage], list[str]]:
            """Retrieve and record; return the results and the new primary sources."""
            budget.check_retrieval(usage)
            usage.retrievals += 1
            if purpose == "follow_up":
                usage.followups += 1
            results = self.retriever.search(
                query,
                as_of=as_of,
                limit=policy.top_k,
                authorities=policy.allowed_authorities,
                doc_ids=scope_ids,
                tenant=tenant,
            )
            new_sources = []
            for p in results:
                source = f"{p.doc_id}@{p.version}"
                if p.authority == "primary" and source not in seen_sources:
                    seen_sources.add(source)
                    new_sources.append(source)
                evidence.setdefault(p.passage_id, p)
            trace.emit(
                RetrievalEvent(
                    pass_no=max(pass_no, 1),
                    purpose="follow_up" if purpose == "follow_up" else "initial",
                    query=query,
                    as_of=as_of,
                    results=[_ref(p) for p in results],
                    new_primary_sources=new_sources,
                )
            )
            return results, new_sources

        try:
            with run_context(ctx):
                # Question analysis: the documents the question is about (entity, period), recorded.
                if isinstance(self.retriever, Scoping):
                    profile = profile_question(question, as_of=as_of)
                    scope = self.retriever.scope(question, as_of=as_of, tenant=tenant)
                    scope_ids = None if scope.doc_ids is None else list(scope.doc_ids)
                    trace.emit(
                        ScopeEvent(
                            pass_no=1,
                            answer_type=profile.answer_type,
                            years=list(profile.period_years),
                            names=list(profile.names),
                            doc_ids=scope_ids,
                            reason=scope.reason,
                        )
                    )
                retrieve(question, "initial")
                if judges.relevance and self.relevance_judge is not None:
                    # Task-adaptive knowledge combination: keep only the documents judged
                    # relevant enough for the task (and a keyword follow-up when it asks).
                    task = (
                        classify_task(question, as_of=as_of)
                        if judges.task == "auto"
                        else judges.task
                    )
                    selection, relevant = knowledge_stage(
                        question,
                        list(evidence.values()),
                        task=task,
                        judge=self.relevance_judge,
                        retrieve=lambda q: fetch(q, "follow_up")[0],
                        as_of=as_of,
                    )
                    trace.emit(
                        RelevanceEvent(
                            pass_no=1, judge=self.relevance_judge.component_id, selection=selection
                        )
                    )
                    evidence = {p.passage_id: p for p in relevant}
                need_sufficiency = grounded
                followup_exhausted = False
                while True:
                    pass_no += 1
                    ctx.pass_no = pass_no
                    budget.check_pass(usage)
                    context = _within(list(evidence.values()), policy.max_evidence_chars)

                    # Phase 1: sufficiency, judged on the evidence alone (never the draft).
                    if need_sufficiency:
                        sufficiency = self.critic.sufficiency(question, context, as_of=as_of)
                        trace.emit(
                            SufficiencyEvent(
                                pass_no=pass_no,
                                critic=self.critic.component_id,
                                evidence_ids=[p.passage_id for p in context],
                                output=sufficiency,
                            )
                        )
                        required_facts = list(sufficiency.required_facts)
                        gaps = [*sufficiency.missing_facts, *sufficiency.missing_primary_sources]
                        need_sufficiency = False
                        query = sufficiency.suggested_query
                        if (
                            may_follow_up
                            and sufficiency.requires_more_context
                            and query
                            and not followup_exhausted
                            and budget.followups_left(usage)
                        ):
                            if retrieve(query, "follow_up"):
                                context = _within(
                                    list(evidence.values()), policy.max_evidence_chars
                                )
                                sufficiency = self.critic.sufficiency(
                                    question, context, as_of=as_of
                                )
                                trace.emit(
                                    SufficiencyEvent(
                                        pass_no=pass_no,
                                        critic=self.critic.component_id,
                                        evidence_ids=[p.passage_id for p in context],
                                        output=sufficiency,
                                    )
                                )
                                required_facts = list(sufficiency.required_facts)
                                gaps = [
                                    *sufficiency.missing_facts,
                                    *sufficiency.missing_primary_sources,
                                ]
                            else:
                                followup_exhausted = True

                    # Draft, verify, audit.
                    draft = self.generator.draft(question, context, as_of=as_of, avoid=avoid)
                    trace.emit(
                        DraftEvent(
                            pass_no=pass_no,
                            generator=self.generator.component_id,
                            evidence_ids=[p.passage_id for p in context],
                            avoid=list(avoid),
                            output=draft,
                        )
                    )
                    retrieved = {f"{p.doc_id}@{p.version}" for p in evidence.values()}
                    verifications = [
                        self.verifier.verify(claim, as_of=as_of, retrieved=retrieved, tenant=tenant)
                        for claim in draft.claims
                    ]
                    trace.emit(VerificationEvent(pass_no=pass_no, results=verifications))
                    if arm is Arm.BASELINE:
                        attempt = _Attempt(
                            claims=list(draft.claims),
                            verifications={v.claim_id: v for v in verifications},
                            audit=_unaudited(draft.claims),
                        )
                        stop = StopReason.NO_REFLECTION
                        break
                    # Self-critique: the critic sees the draft only — no evidence, no verifier.
                    audit = self.critic.audit(
                        question,
                        draft.claims,
                        verifications if grounded else [],
                        context if grounded else [],
                        as_of=as_of,
                        required_facts=required_facts,
                    )
                    _check_audit(audit, draft.claims, self.critic.component_id)
                    trace.emit(
                        AuditEvent(pass_no=pass_no, critic=self.critic.component_id, output=audit)
                    )
                    attempt = _Attempt(
                        claims=list(draft.claims),
                        verifications={v.claim_id: v for v in verifications},
                        audit=audit,
                    )
                    gaps = list(audit.missing_facts) or gaps

                    # Judges (policy.judges.triad): the RAG triad on what would be emitted.
                    triad: TriadResult | None = None
                    if judges.triad and self.triad_judge is not None:
                        kept_now = _kept(attempt, gated=grounded)
                        answer_text = _render(kept_now) or (draft.declined or "")
                        triad = judge_triad(
                            self.triad_judge,
                            question,
                            answer_text,
                            context,
                            as_of=as_of,
                            abstained=not kept_now,
                        )
                        score = score_answer(triad, policy=policy)
                        trace.emit(TriadEvent(pass_no=pass_no, output=triad, score=score))
                        if retry_first is not None:
                            # The quality retry's second draft: keep the better-grounded one.
                            chosen = keep_better(retry_first, Scored(attempt, score))
                            attempt, score = chosen.draft, chosen.score
                            retry_first = None
                        elif (
                            not quality_retried
                            and pass_no <= budget.max_passes
                            and needs_quality_retry(score, answer_text, judges)
                        ):
                            quality_retried = True
                            retry_first = Scored(attempt, score)
                            avoid.extend(c.text for c in draft.claims)
                            _decide(
                                trace,
                                pass_no,
                                Action.REGENERATE,
                                "quality retry",
                                f"quality {score.quality} <= {judges.quality_retry_at}",
                            )
                            continue
                        final_score = score

                    # Decide.
                    failed = _failed_claims(attempt, gated=grounded)
                    for claim_id in sorted(failed):
                        dropped.setdefault(claim_id, _dropped(attempt, claim_id))
                    contract_met = (
                        bool(attempt.claims)
                        and not failed
                        and attempt.audit.coverage >= policy.coverage_threshold
                    )
                    if contract_met:
                        stop = StopReason.CONTRACT_MET
                        _decide(
                            trace, pass_no, Action.FINAL, stop, "every claim verified and supported"
                        )
                        break
                    if not evidence:
                        stop = StopReason.NO_EVIDENCE
                        break
                    if pass_no > budget.max_passes:
                        stop = StopReason.MAX_PASSES
                        break
                    if judges.routing and triad is not None:
                        route = route_after_generation(
                            triad,
                            policy=judges,
                            regenerations=regenerations,
                            followups_left=may_follow_up
                            and not followup_exhausted
                            and budget.followups_left(usage),
                        )
                        if route.route is Route.REGENERATE:
                            regenerations += 1
                            avoid.extend(
                                c.text for c in attempt.claims if c.claim_id in failed or not failed
                            )
                            _decide(trace, pass_no, Action.REGENERATE, "routing", route.reason)
                            continue
                        if route.route is Route.FOLLOW_UP:
                            _decide(trace, pass_no, Action.FOLLOW_UP, "routing", route.reason)
                            if retrieve(keyword_query(question), "follow_up"):
                                need_sufficiency = True
                                continue
                            stop = StopReason.NO_NEW_SOURCE
                            break
                        stop = StopReason.NO_CONCRETE_GAP
                        stop_detail = f"routing: {route.reason}"
                        break
                    if failed:
                        avoid.extend(c.text for c in draft.claims if c.claim_id in failed)
                        _decide(
                            trace,
                            pass_no,
                            Action.REGENERATE,
                            "unsupported claims",
                            ", ".join(sorted(failed)),
                        )
                        continue
                    if followup_exhausted:
                        stop = StopReason.NO_NEW_SOURCE
                        break
                    if (
                        not may_follow_up
                        or not audit.suggested_query
                        or not budget.followups_left(usage)
                    ):
                        stop = StopReason.NO_CONCRETE_GAP
                        break
                    _decide(
                        trace, pass_no, Action.FOLLOW_UP, "missing facts", audit.suggested_query
                    )
                    if retrieve(audit.suggested_query, "follow_up"):
                        need_sufficiency = True
                    else:
                        stop = StopReason.NO_NEW_SOURCE
                        break
        except BudgetExceeded as exc:
            stop = stop_reason_for(exc)
            gaps = [*gaps, str(exc)]
        except CriticOutputInvalid as exc:
            stop = StopReason.CRITIC_INVALID
            attempt = None  # an unjudged draft is never emitted
            gaps = [*gaps, str(exc)]
            _failure(trace, pass_no, exc.critic, exc)
        except Exception as exc:  # fail closed: a crashing component never becomes a pass
            stop = StopReason.COMPONENT_ERROR
            attempt = None
            gaps = [*gaps, f"{type(exc).__name__}: {exc}"]
            _failure(trace, pass_no, _component_of(exc), exc)

        answer = _gate(
            question=question,
            as_of=as_of,
            policy=policy,
            gated=grounded,
            score=final_score if attempt is not None else None,
            stop=stop,
            attempt=attempt,
            gaps=gaps,
            dropped=list(dropped.values()),
            passes=pass_no,
            usage=usage,
            run_id=run_id,
        )
        if stop not in (StopReason.CONTRACT_MET, StopReason.NO_REFLECTION):
            action = Action.ABSTAIN if answer.outcome is Outcome.ABSTAINED else Action.FINAL
            detail = f"on_fail={policy.on_fail}" + (f"; {stop_detail}" if stop_detail else "")
            _decide(trace, max(pass_no, 1), action, stop, detail)
        trace.emit(
            RunEndEvent(
                answer=answer,
                elapsed_ms=round(usage.elapsed_s() * 1000, 3),
                score=_final_score(final_score, answer),
            )
        )
        return answer


# ---------------------------------------------------------------------- helpers


def _ref(p: Passage) -> RetrievedRef:
    return RetrievedRef(
        passage_id=p.passage_id,
        doc_id=p.doc_id,
        version=p.version,
        page=p.page,
        char_start=p.char_start,
        char_end=p.char_end,
        authority=p.authority,
        score=p.score,
        text_sha256=sha256_hex(p.text),
        flags=p.flags,
    )


def _within(passages: Sequence[Passage], max_chars: int) -> list[Passage]:
    """The passages, in retrieval order, whose text fits in ``max_chars`` (at least one)."""
    out: list[Passage] = []
    used = 0
    for p in passages:
        if out and used + len(p.text) > max_chars:
            break
        out.append(p)
        used += len(p.text)
    return out


def _check_audit(audit: CriticAudit, claims: Sequence[Claim], critic: str) -> None:
    """Fail closed when the audit does not judge exactly the drafted claims."""
    judged = [a.claim_id for a in audit.claims]
    drafted = [c.claim_id for c in claims]
    if sorted(judged) != sorted(drafted):
        raise CriticOutputInvalid(
            f"audit judged claims {judged}, the draft has {drafted}", critic=critic
        )


def _failed_claims(attempt: _Attempt, *, gated: bool = True) -> set[str]:
    """Claims the verifier rejected (when it gates) or the critic did not find supported."""
    verdicts = {a.claim_id: a.verdict for a in attempt.audit.claims}
    return {
        c.claim_id
        for c in attempt.claims
        if (gated and not attempt.verifications[c.claim_id].ok)
        or verdicts.get(c.claim_id) is not Verdict.SUPPORTED
    }


def _final_score(score: AnswerScore | None, answer: GatedAnswer) -> AnswerScore | None:
    """The judges' score of what was emitted: an abstention scores as an abstention."""
    if score is None:
        return None
    if answer.outcome is Outcome.ABSTAINED:
        return AnswerScore(abstained=True)
    return score


def _kept(attempt: _Attempt, *, gated: bool) -> list[Claim]:
    """The claims that may leave, with the citations the verifier located (offsets filled)."""
    failed = _failed_claims(attempt, gated=gated)
    kept = []
    for claim in attempt.claims:
        if claim.claim_id in failed:
            continue
        check = attempt.verifications[claim.claim_id]
        located = [
            c.citation if c.citation.char_start is not None else original
            for c, original in zip(check.citations, claim.citations, strict=False)
        ]
        kept.append(claim.model_copy(update={"citations": located or claim.citations}))
    return kept


def _unaudited(claims: Sequence[Claim]) -> CriticAudit:
    """The baseline arm has no critic: every claim passes through unjudged."""
    return CriticAudit(
        claims=[
            ClaimAudit(claim_id=c.claim_id, verdict=Verdict.SUPPORTED, reason="baseline: no critic")
            for c in claims
        ],
        coverage=1.0 if claims else 0.0,
        contract_met=bool(claims),
    )


def _dropped(attempt: _Attempt, claim_id: str) -> DroppedClaim:
    """Why a claim is not emitted: the verifier's reasons and the critic's verdict."""
    claim = next(c for c in attempt.claims if c.claim_id == claim_id)
    reasons = [r.value for r in attempt.verifications[claim_id].reasons]
    verdict = next((a.verdict for a in attempt.audit.claims if a.claim_id == claim_id), None)
    if verdict is not Verdict.SUPPORTED:
        reasons.append(f"critic:{verdict.value if verdict else 'no verdict'}")
    return DroppedClaim(claim_id=claim_id, text=claim.text, reasons=reasons)


def _decide(trace: TraceSink, pass_no: int, action: Action, reason: str, detail: str) -> None:
    trace.emit(
        DecisionEvent(
            decision=Decision(pass_no=pass_no, action=action, reason=reason, detail=detail)
        )
    )


def _failure(trace: TraceSink, pass_no: int, component: str, exc: BaseException) -> None:
    trace.emit(
        ComponentFailedEvent(
            pass_no=max(pass_no, 1),
            component=component,
            error_type=type(exc).__name__,
            message=str(exc),
        )
    )


def _component_of(exc: BaseException) -> str:
    tb = exc.__traceback__
    module = "unknown"
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", module)
        tb = tb.tb_next
    return module


def _gate(
    *,
    question: str,
    as_of: dt.date,
    policy: Policy,
    gated: bool,
    score: AnswerScore | None,
    stop: StopReason,
    attempt: _Attempt | None,
    gaps: list[str],
    dropped: list[DroppedClaim],
    passes: int,
    usage: RunUsage,
    run_id: str,
) -> GatedAnswer:
    """Apply the contract: only verified, supported claims leave; on_fail decides the rest."""
    coverage = attempt.audit.coverage if attempt else 0.0
    kept: list[Claim] = []
    if attempt is not None:
        kept = _kept(attempt, gated=gated)

    base = {
        "question": question,
        "as_of": as_of,
        "coverage": coverage,
        "stop_reason": stop,
        "passes": passes,
        "usage": usage.snapshot(),
        "policy": policy.name,
        "trace_id": run_id,
    }
    if not gated:
        # Ablation arms without the verifier's gate: what they emit is marked ungated.
        if kept and stop in (StopReason.CONTRACT_MET, StopReason.NO_REFLECTION):
            return GatedAnswer(outcome=Outcome.UNGATED, answer=_render(kept), claims=kept, **base)
        kept = []
    if stop is StopReason.CONTRACT_MET:
        if score is not None and score.disclaimer:
            # The contract is met, but the judges find the answer weakly grounded.
            return GatedAnswer(
                outcome=Outcome.ANSWERED_WITH_DISCLAIMER,
                answer=_render(kept),
                claims=kept,
                disclaimer=score.disclaimer,
                **base,
            )
        return GatedAnswer(outcome=Outcome.ANSWERED, answer=_render(kept), claims=kept, **base)
    unique_gaps = list(dict.fromkeys(gaps)) or [f"contract not met ({stop.value})"]
    if kept and policy.on_fail == "redact":
        return GatedAnswer(
            outcome=Outcome.REDACTED,
            answer=_render(kept),
            claims=kept,
            dropped_claims=dropped,
            gaps=unique_gaps,
            **base,
        )
    if kept and policy.on_fail == "annotate":
        d = policy.disclaimers
        disclaimer: str | None = None
        if score is not None and not score.abstained:
            disclaimer = score.disclaimer  # chosen from groundedness by the judges
        elif coverage < d.none_at:
            disclaimer = d.caution_text if coverage >= d.caution_at else d.insufficient_text
        return GatedAnswer(
            outcome=Outcome.ANSWERED_WITH_DISCLAIMER if disclaimer else Outcome.ANSWERED,
            answer=_render(kept),
            claims=kept,
            dropped_claims=dropped,
            gaps=unique_gaps,
            disclaimer=disclaimer,
            **base,
        )
    return GatedAnswer(
        outcome=Outcome.ABSTAINED,
        answer="Abstained: the evidence contract was not met. Gaps: " + "; ".join(unique_gaps),
        dropped_claims=dropped,
        gaps=unique_gaps,
        **base,
    )


def _render(claims: Sequence[Claim]) -> str:
    return " ".join(f"{c.text} [{i}]" for i, c in enumerate(claims, start=1))
