"""The judges: RAG triad, three-level relevance, support, routing, scoring and disclaimers.

This package module exports only the output models (which import nothing but pydantic), so
that trace events can carry them without an import cycle. The judges live in submodules:

    triad.py      RulesTriadJudge(verifier), LLMTriadJudge(chat, verifier), judge_triad(...)
    relevance.py  RulesRelevanceJudge, LLMRelevanceJudge, combine_knowledge, knowledge_stage
    support.py    RulesSupportJudge, LLMSupportJudge (source + claim, no quote: judge-bench)
    routing.py    route_after_generation(triad, policy=..., regenerations=..., followups_left=...)
    scoring.py    score_answer, disclaimer_for, review_score, needs_quality_retry, keep_better
    cli.py        judge-bench, feedback, flags list

Every judge validates its output (pydantic + JSON Schema) and fails closed: a judge error raises
and is never a pass.
"""

from __future__ import annotations

from evidencegate.judges.models import (
    AnswerRelevance,
    AnswerScore,
    ClaimGrounding,
    ClaimSupport,
    ContextRelevance,
    DocumentRelevance,
    EvidenceRef,
    Groundedness,
    KnowledgeSelection,
    KnowledgeStrategy,
    RelevanceLabel,
    Route,
    RouteDecision,
    SupportLabel,
    SupportVerdict,
    TaskKind,
    TriadResult,
)

__all__ = [
    "AnswerRelevance",
    "AnswerScore",
    "ClaimGrounding",
    "ClaimSupport",
    "ContextRelevance",
    "DocumentRelevance",
    "EvidenceRef",
    "Groundedness",
    "KnowledgeSelection",
    "KnowledgeStrategy",
    "RelevanceLabel",
    "Route",
    "RouteDecision",
    "SupportLabel",
    "SupportVerdict",
    "TaskKind",
    "TriadResult",
]
