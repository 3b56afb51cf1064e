"""Versioned prompt templates and the evidence blocks they embed.

A template is a name, a version and two ``string.Template`` texts (system and user). Its
``sha256`` covers all four, and every model call records the template's id and hash in its
request metadata (so in the trace's ``model_call`` events): a trace names exactly which prompt
produced an output. Change a template's text only together with its version.
"""

from __future__ import annotations

from evidencegate.prompts.base import (
    EvidenceBlocks,
    EvidenceSpans,
    PromptTemplate,
    Span,
    evidence_blocks,
    evidence_spans,
)
from evidencegate.prompts.templates import (
    CRITIC_AUDIT,
    CRITIC_AUDIT_V2,
    CRITIC_SUFFICIENCY,
    CRITIC_SUFFICIENCY_V2,
    GENERATOR_DRAFT,
    GENERATOR_DRAFT_V2,
    GENERATOR_DRAFT_V3,
    REPAIR,
)

__all__ = [
    "CRITIC_AUDIT",
    "CRITIC_AUDIT_V2",
    "CRITIC_SUFFICIENCY",
    "CRITIC_SUFFICIENCY_V2",
    "GENERATOR_DRAFT",
    "GENERATOR_DRAFT_V2",
    "GENERATOR_DRAFT_V3",
    "REPAIR",
    "EvidenceBlocks",
    "EvidenceSpans",
    "PromptTemplate",
    "Span",
    "evidence_blocks",
    "evidence_spans",
]
