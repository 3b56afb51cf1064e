"""The judges of a policy as one object: what the loop calls through
:class:`~evidencegate.protocols.Judges`.

The loop never imports this package; whoever builds a
:class:`~evidencegate.loop.controller.LoopController` passes it
``judges=JudgePanel.for_policy(policy, verifier)`` (None when the policy turns every judge off).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence

from evidencegate.contracts import Passage
from evidencegate.judgements import AnswerScore, KnowledgeSelection, RouteDecision, TriadResult
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
from evidencegate.policy import Policy
from evidencegate.verify.verifier import Verifier

__all__ = ["JudgePanel"]


class JudgePanel:
    """The triad judge, the relevance judge and the scoring and routing rules of ``policy``."""

    def __init__(self, policy: Policy, *, triad: TriadJudge, relevance: RelevanceJudge) -> None:
        self.policy = policy
        self.triad = triad
        self.relevance = relevance

    @classmethod
    def for_policy(
        cls,
        policy: Policy,
        verifier: Verifier,
        *,
        triad_judge: TriadJudge | None = None,
        relevance_judge: RelevanceJudge | None = None,
    ) -> JudgePanel | None:
        """The panel ``policy.judges`` asks for (the offline rules judges unless others are
        given), or None when the triad and the relevance stage are both off."""
        if not (policy.judges.triad or policy.judges.relevance):
            return None
        return cls(
            policy,
            triad=triad_judge or RulesTriadJudge(verifier),
            relevance=relevance_judge or RulesRelevanceJudge(RulesTriadJudge(verifier)),
        )

    @property
    def relevance_judge(self) -> str:
        return self.relevance.component_id

    def select_evidence(
        self,
        question: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        retrieve: Callable[[str], Sequence[Passage]],
    ) -> tuple[KnowledgeSelection, list[Passage]]:
        judges = self.policy.judges
        task = classify_task(question, as_of=as_of) if judges.task == "auto" else judges.task
        return knowledge_stage(
            question,
            list(passages),
            task=task,
            judge=self.relevance,
            retrieve=retrieve,
            as_of=as_of,
        )

    def judge_answer(
        self,
        question: str,
        answer: str,
        passages: Sequence[Passage],
        *,
        as_of: dt.date,
        abstained: bool,
    ) -> tuple[TriadResult, AnswerScore]:
        triad = judge_triad(
            self.triad, question, answer, passages, as_of=as_of, abstained=abstained
        )
        return triad, score_answer(triad, policy=self.policy)

    def wants_quality_retry(self, score: AnswerScore, answer: str) -> bool:
        return needs_quality_retry(score, answer, self.policy.judges)

    def second_is_better(self, first: AnswerScore, second: AnswerScore) -> bool:
        return keep_better(Scored("first", first), Scored("second", second)).draft == "second"

    def route(
        self, triad: TriadResult, *, regenerations: int, followups_left: bool
    ) -> RouteDecision:
        return route_after_generation(
            triad,
            policy=self.policy.judges,
            regenerations=regenerations,
            followups_left=followups_left,
        )

    def follow_up_query(self, question: str) -> str:
        return keyword_query(question)
