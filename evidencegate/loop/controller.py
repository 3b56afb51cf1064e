"""THE loop: retrieve → sufficiency → follow-up → draft → verify → audit → judge → decide.

:meth:`LoopController.run` is written out in one function on purpose (like httpx's
``_send_handling_redirects``): each pass checks the budget at its top, every step is recorded in
the trace, and the run says why it ended with a :class:`StopReason`. The run's state is one
:class:`~evidencegate.loop.state.RunState`; what to do after a pass is decided by the pure
:func:`~evidencegate.loop.decide.decide`; the contract applied at the end is
:func:`~evidencegate.loop.outcome.gated_answer`.

The controller decides; it never rewrites an answer. When the contract is not met it applies
``policy.on_fail`` and never emits a claim that failed verification or the critic's audit.
Component calls go through one boundary (:meth:`LoopController._call`): a component that raises
stops the run with ``component_error``; an error in the loop's own logic is a bug and raises.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from evidencegate._version import __version__
from evidencegate.analysis import profile_question
from evidencegate.canonical import sha256_hex
from evidencegate.components import check_separation
from evidencegate.contracts import (
    Action,
    Arm,
    ClaimVerification,
    CriticSufficiency,
    Decision,
    Draft,
    GatedAnswer,
    Passage,
)
from evidencegate.exceptions import BudgetExceeded, ConfigurationError, CriticOutputInvalid
from evidencegate.loop.budget import Budget, RunUsage
from evidencegate.loop.context import RunContext
from evidencegate.loop.decide import (
    ComponentFailed,
    Regenerate,
    Situation,
    Stop,
    closing_decision,
    decide,
    interrupted,
)
from evidencegate.loop.outcome import final_score, gated_answer
from evidencegate.loop.state import Attempt, RunState, render, within
from evidencegate.policy import Policy
from evidencegate.protocols import Critic, Generator, Judges, Retriever, Scoping, TraceSink
from evidencegate.runscope import run_scope
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

P = ParamSpec("P")
T = TypeVar("T")


class LoopController:
    """Runs one question through the evidence-gated loop under a policy.

    ``judges`` are required when ``policy.judges`` turns on the triad or the relevance stage
    (build them with :meth:`evidencegate.judges.panel.JudgePanel.for_policy`).
    """

    def __init__(
        self,
        *,
        retriever: Retriever,
        verifier: Verifier,
        generator: Generator,
        critic: Critic,
        policy: Policy,
        arm: Arm = Arm.GROUNDED_FOLLOWUP,
        judges: Judges | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # The critic must not be the generator (same object, model or provider:model), unless
        # the policy allows it with a stated reason, recorded in run_start.
        self.same_model_reason = check_separation(generator, critic, policy)
        if judges is None and (policy.judges.triad or policy.judges.relevance):
            raise ConfigurationError(
                "policy.judges turns on the triad or the relevance stage but no judges were "
                "given: pass judges=JudgePanel.for_policy(policy, verifier)"
            )
        self.retriever = retriever
        self.verifier = verifier
        self.generator = generator
        self.critic = critic
        self.policy = policy
        self.arm = arm
        self.judges = judges
        self.clock = clock

    def run(
        self,
        question: str,
        *,
        as_of: dt.date,
        trace: TraceSink,
        run_id: str,
        tenant: str | None = None,
    ) -> GatedAnswer:
        """Answer ``question`` as of ``as_of``, or abstain; every step is emitted to ``trace``."""
        policy = self.policy
        s = RunState(
            question=question,
            as_of=as_of,
            tenant=tenant,
            arm=self.arm,
            budget=Budget.from_policy(policy),
            usage=RunUsage(clock=self.clock),
        )
        s.need_sufficiency = s.grounded
        trace.emit(self._run_start(s))
        ctx = RunContext(run_id=run_id, trace=trace, usage=s.usage, budget=s.budget, policy=policy)
        try:
            with run_scope(ctx):
                if isinstance(self.retriever, Scoping):
                    self._scope(s, trace)
                self._retrieve(s, trace, question, "initial")
                if policy.judges.relevance:
                    self._select_evidence(s, trace)
                while True:
                    # One pass: [sufficiency (+ follow-up)], draft, verify, audit, judge, decide.
                    s.usage.passes += 1
                    s.budget.check_pass(s.usage)
                    s.context = within(list(s.evidence.values()), policy.max_evidence_chars)
                    if s.need_sufficiency:
                        self._sufficiency(s, trace)
                    draft, verifications = self._draft(s, trace)
                    if s.arm is Arm.BASELINE:
                        s.attempt = Attempt.unaudited(draft.claims, verifications)
                    else:
                        self._audit(s, trace, draft, verifications)
                        if policy.judges.triad:
                            self._judge(s, trace, draft)
                    step = decide(self._situation(s))
                    if not (isinstance(step, Regenerate) and step.compare):
                        s.settle()
                    if isinstance(step, Stop):
                        stop = step
                        break
                    action = Action.REGENERATE if isinstance(step, Regenerate) else Action.FOLLOW_UP
                    trace.emit(
                        DecisionEvent(
                            decision=Decision(
                                pass_no=s.pass_no,
                                action=action,
                                reason=step.reason,
                                detail=step.detail,
                            )
                        )
                    )
                    if isinstance(step, Regenerate):
                        s.avoid.extend(step.avoid)
                        s.regenerations += step.routed
                        if step.compare:
                            s.quality_retried, s.retry_first = True, s.attempt
                    elif self._retrieve(s, trace, step.query, "follow_up"):
                        s.need_sufficiency = True
                    else:
                        stop = step.if_nothing_new
                        break
        except (BudgetExceeded, CriticOutputInvalid, ComponentFailed) as exc:
            stop = Stop(interrupted(exc))
            s.gaps = [*s.gaps, str(exc)]
            if not isinstance(exc, BudgetExceeded):
                s.attempt = None  # an unjudged draft is never emitted
                trace.emit(_failure_event(s.pass_no, exc))
        answer = gated_answer(
            question=question,
            as_of=as_of,
            policy=policy,
            gated=s.grounded,
            score=s.score if s.attempt is not None else None,
            stop=stop.reason,
            attempt=s.attempt,
            gaps=s.gaps,
            dropped=list(s.dropped.values()),
            passes=s.pass_no,
            usage=s.usage.snapshot(),
            run_id=run_id,
        )
        closing = closing_decision(s.pass_no, stop, answer.outcome, on_fail=policy.on_fail)
        if closing is not None:
            trace.emit(DecisionEvent(decision=closing))
        trace.emit(
            RunEndEvent(
                answer=answer,
                elapsed_ms=round(s.usage.elapsed_s() * 1000, 3),
                score=final_score(s.score, answer),
            )
        )
        return answer

    # ------------------------------------------------------------------ the steps of a pass

    def _call(self, component: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """The one boundary around component calls: a component's failure becomes
        :class:`ComponentFailed` (the run stops with ``component_error``); a spent budget and
        an invalid critic output keep their own stop reasons."""
        try:
            return component(*args, **kwargs)
        except (BudgetExceeded, CriticOutputInvalid, ComponentFailed):
            raise
        except Exception as exc:  # fail closed: a crashing component never becomes a pass
            raise ComponentFailed(_component_of(exc), exc) from exc

    def _run_start(self, s: RunState) -> RunStartEvent:
        components = {
            "generator": self.generator.component_id,
            "critic": self.critic.component_id,
            "verifier": self.verifier.component_id,
            # A retriever with a model (hybrid) names it and its version; others, their class.
            "retriever": getattr(self.retriever, "component_id", type(self.retriever).__name__),
            "arm": s.arm.value,
        }
        if self.same_model_reason is not None:
            components["same_model_critic"] = self.same_model_reason
        return RunStartEvent(
            question=s.question,
            as_of=s.as_of,
            tenant=s.tenant,
            policy=self.policy.model_dump(mode="json"),
            policy_sha256=self.policy.sha256(),
            components=components,
            evidencegate_version=__version__,
        )

    def _scope(self, s: RunState, trace: TraceSink) -> None:
        """Question analysis: the documents the question is about (entity, period)."""
        assert isinstance(self.retriever, Scoping)
        profile = profile_question(s.question, as_of=s.as_of)
        scope = self._call(self.retriever.scope, s.question, as_of=s.as_of, tenant=s.tenant)
        s.scope_ids = None if scope.doc_ids is None else list(scope.doc_ids)
        trace.emit(
            ScopeEvent(
                pass_no=1,
                answer_type=profile.answer_type,
                years=list(profile.period_years),
                names=list(profile.names),
                doc_ids=s.scope_ids,
                reason=scope.reason,
            )
        )

    def _fetch(
        self, s: RunState, trace: TraceSink, query: str, purpose: str
    ) -> tuple[list[Passage], list[str], bool]:
        """Retrieve, record, merge into the evidence; return the results, the new primary
        sources and whether it brought something new (see :attr:`Policy.new_source`)."""
        s.budget.check_retrieval(s.usage)
        s.usage.retrievals += 1
        if purpose == "follow_up":
            s.usage.followups += 1
        results = self._call(
            self.retriever.search,
            query,
            as_of=s.as_of,
            limit=self.policy.top_k,
            authorities=self.policy.allowed_authorities,
            doc_ids=s.scope_ids,
            tenant=s.tenant,
        )
        new_sources = []
        new_pages = False
        for p in results:
            source = f"{p.doc_id}@{p.version}"
            if p.authority == "primary" and source not in s.seen_sources:
                s.seen_sources.add(source)
                new_sources.append(source)
            if p.authority == "primary" and (where := (p.doc_id, p.version, p.page)) not in (
                s.seen_pages
            ):
                s.seen_pages.add(where)
                new_pages = True
            s.evidence.setdefault(p.passage_id, p)
        trace.emit(
            RetrievalEvent(
                pass_no=max(s.pass_no, 1),
                purpose="follow_up" if purpose == "follow_up" else "initial",
                query=query,
                as_of=s.as_of,
                results=[_ref(p) for p in results],
                new_primary_sources=new_sources,
            )
        )
        if self.policy.new_source == "page" and new_pages:
            return results, new_sources, True
        return results, new_sources, bool(new_sources)

    def _retrieve(self, s: RunState, trace: TraceSink, query: str, purpose: str) -> bool:
        """Retrieve; True when a new primary source came (a page or a document, as the
        policy's ``new_source`` says)."""
        return self._fetch(s, trace, query, purpose)[2]

    def _select_evidence(self, s: RunState, trace: TraceSink) -> None:
        """The relevance stage: keep only the documents judged relevant enough for the task
        (and a keyword follow-up when the combination asks for one)."""
        assert self.judges is not None
        selection, relevant = self._call(
            self.judges.select_evidence,
            s.question,
            list(s.evidence.values()),
            as_of=s.as_of,
            retrieve=lambda q: self._fetch(s, trace, q, "follow_up")[0],
        )
        trace.emit(
            RelevanceEvent(pass_no=1, judge=self.judges.relevance_judge, selection=selection)
        )
        s.evidence = {p.passage_id: p for p in relevant}

    def _sufficiency(self, s: RunState, trace: TraceSink) -> None:
        """Phase 1, judged on the evidence alone (never the draft); one follow-up retrieval
        when the critic asks for one and names a query."""
        s.need_sufficiency = False
        sufficiency = self._ask_sufficiency(s, trace)
        query = sufficiency.suggested_query
        if sufficiency.requires_more_context and query and s.can_follow_up():
            if self._retrieve(s, trace, query, "follow_up"):
                s.context = within(list(s.evidence.values()), self.policy.max_evidence_chars)
                self._ask_sufficiency(s, trace)
            else:
                s.followup_exhausted = True

    def _ask_sufficiency(self, s: RunState, trace: TraceSink) -> CriticSufficiency:
        sufficiency = self._call(self.critic.sufficiency, s.question, s.context, as_of=s.as_of)
        trace.emit(
            SufficiencyEvent(
                pass_no=s.pass_no,
                critic=self.critic.component_id,
                evidence_ids=[p.passage_id for p in s.context],
                output=sufficiency,
            )
        )
        s.required_facts = list(sufficiency.required_facts)
        s.gaps = [*sufficiency.missing_facts, *sufficiency.missing_primary_sources]
        return sufficiency

    def _draft(self, s: RunState, trace: TraceSink) -> tuple[Draft, list[ClaimVerification]]:
        """Draft from the pass's evidence, then verify every claim mechanically."""
        draft = self._call(
            self.generator.draft, s.question, s.context, as_of=s.as_of, avoid=s.avoid
        )
        trace.emit(
            DraftEvent(
                pass_no=s.pass_no,
                generator=self.generator.component_id,
                evidence_ids=[p.passage_id for p in s.context],
                avoid=list(s.avoid),
                output=draft,
            )
        )
        retrieved = {f"{p.doc_id}@{p.version}" for p in s.evidence.values()}
        verifications = [
            self._call(
                self.verifier.verify, claim, as_of=s.as_of, retrieved=retrieved, tenant=s.tenant
            )
            for claim in draft.claims
        ]
        trace.emit(VerificationEvent(pass_no=s.pass_no, results=verifications))
        return draft, verifications

    def _audit(
        self, s: RunState, trace: TraceSink, draft: Draft, verifications: list[ClaimVerification]
    ) -> None:
        """Phase 2: the critic audits the claims (self-critique: it sees the draft only)."""
        audit = self._call(
            self.critic.audit,
            s.question,
            draft.claims,
            verifications if s.grounded else [],
            s.context if s.grounded else [],
            as_of=s.as_of,
            required_facts=s.required_facts,
        )
        judged = sorted(a.claim_id for a in audit.claims)
        drafted = sorted(c.claim_id for c in draft.claims)
        if judged != drafted:
            raise CriticOutputInvalid(
                f"audit judged claims {[a.claim_id for a in audit.claims]}, the draft has "
                f"{[c.claim_id for c in draft.claims]}",
                critic=self.critic.component_id,
            )
        trace.emit(AuditEvent(pass_no=s.pass_no, critic=self.critic.component_id, output=audit))
        verified = {v.claim_id: v for v in verifications}
        s.attempt = Attempt(tuple(draft.claims), verified, audit, gated=s.grounded)
        s.gaps = list(audit.missing_facts) or s.gaps

    def _judge(self, s: RunState, trace: TraceSink, draft: Draft) -> None:
        """The judges' triad on what would be emitted; the second draft of a quality retry is
        compared with the first and the better one is kept, whole."""
        assert self.judges is not None and s.attempt is not None
        kept = s.attempt.kept()
        answer = render(kept) or (draft.declined or "")
        triad, score = self._call(
            self.judges.judge_answer,
            s.question,
            answer,
            s.context,
            as_of=s.as_of,
            abstained=not kept,
        )
        trace.emit(TriadEvent(pass_no=s.pass_no, output=triad, score=score))
        s.attempt = dataclasses.replace(s.attempt, triad=triad, score=score, answer=answer)
        first, s.retry_first = s.retry_first, None
        if first is not None and first.score is not None:
            s.attempt = s.attempt if self.judges.second_is_better(first.score, score) else first

    def _situation(self, s: RunState) -> Situation:
        """The facts :func:`decide` reads at the end of a pass."""
        attempt = s.attempt
        assert attempt is not None
        judges, score, triad = self.judges, attempt.score, attempt.triad
        poor = None
        if (
            judges is not None
            and score is not None
            and judges.wants_quality_retry(score, attempt.answer)
        ):
            poor = f"quality {score.quality} <= {self.policy.judges.quality_retry_at}"
        routed = judges is not None and triad is not None and self.policy.judges.routing
        return Situation(
            audited=s.arm is not Arm.BASELINE,
            poor_quality=poor,
            quality_retried=s.quality_retried,
            contract_met=attempt.meets_contract(self.policy.coverage_threshold),
            has_evidence=bool(s.evidence),
            passes_left=s.budget.passes_left(s.usage),
            route=(
                judges.route(triad, regenerations=s.regenerations, followups_left=s.can_follow_up())
                if routed and judges is not None and triad is not None
                else None
            ),
            keyword_query=judges.follow_up_query(s.question) if routed and judges else "",
            claims=attempt.claims,
            failed=attempt.failed(),
            followup_exhausted=s.followup_exhausted,
            may_follow_up=s.may_follow_up,
            followups_left=s.budget.followups_left(s.usage),
            suggested_query=attempt.audit.suggested_query,
        )


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
        completes=p.completes,
    )


def _failure_event(
    pass_no: int, exc: CriticOutputInvalid | ComponentFailed
) -> ComponentFailedEvent:
    component, error = (
        (exc.critic, exc) if isinstance(exc, CriticOutputInvalid) else (exc.component, exc.error)
    )
    return ComponentFailedEvent(
        pass_no=max(pass_no, 1),
        component=component,
        error_type=type(error).__name__,
        message=str(error),
    )


def _component_of(exc: BaseException) -> str:
    """The module of the innermost frame that raised ``exc``."""
    tb = exc.__traceback__
    module = "unknown"
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", module)
        tb = tb.tb_next
    return module
