"""Versioned prompt templates and the evidence blocks they embed.

A template is a name, a version and two ``string.Template`` texts (system and user). Its
``sha256`` covers all four, and every model call records the template's id and hash in its
request metadata (so in the trace's ``model_call`` events): a trace names exactly which prompt
produced an output. Change a template's text only together with its version.
"""

from __future__ import annotations

from evidencegate.prompts.base import EvidenceBlocks, PromptTemplate, evidence_blocks
from evidencegate.prompts.templates import (
    CRITIC_AUDIT,
    CRITIC_SUFFICIENCY,
    GENERATOR_DRAFT,
    REPAIR,
)

__all__ = [
    "CRITIC_AUDIT",
    "CRITIC_SUFFICIENCY",
    "GENERATOR_DRAFT",
    "REPAIR",
    "EvidenceBlocks",
    "PromptTemplate",
    "evidence_blocks",
]
