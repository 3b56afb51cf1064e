"""The judges: RAG triad, three-level relevance, support, routing, scoring and disclaimers.

Import from the modules (this package imports nothing itself). What the judges return is
:mod:`evidencegate.judgements` (pydantic models, no component), so that trace events and the
loop can carry judgements without importing a judge. The judges live in submodules:

    triad.py      RulesTriadJudge(verifier), LLMTriadJudge(chat, verifier), judge_triad(...)
    relevance.py  RulesRelevanceJudge, LLMRelevanceJudge, combine_knowledge, knowledge_stage
    support.py    RulesSupportJudge, LLMSupportJudge (source + claim, no quote: judge-bench)
    support_model.py  LearnedSupportJudge (support:rules@3: features + shipped logistic weights)
    routing.py    route_after_generation(triad, policy=..., regenerations=..., followups_left=...)
    scoring.py    score_answer, disclaimer_for, review_score, needs_quality_retry, keep_better

Every judge validates its output (pydantic + JSON Schema) and fails closed: a judge error raises
and is never a pass.
"""
