"""evidencegate: evidence-gated answers for regulated work.

Every claim of an answer maps to a quoted span of a specific version of a primary source that
the run actually retrieved, or the answer is not emitted. The public API is pinned in
``__all__`` (a test keeps it so). The vendor adapters (``AnthropicChatModel``,
``OpenAIChatModel``) are imported on first use: importing a vendor SDK takes seconds and offline
runs never need one.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from evidencegate._version import __version__
from evidencegate.audit.replay import replay_trace
from evidencegate.audit.report.html import write_report
from evidencegate.contracts import (
    Arm,
    Citation,
    Claim,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Decision,
    Derivation,
    DocumentVersion,
    Draft,
    GatedAnswer,
    Operand,
    Operation,
    Outcome,
    Page,
    Passage,
    StopReason,
    Verdict,
)
from evidencegate.corpus import IngestOptions, IngestReport, PostgresStore, Store, open_store
from evidencegate.critique.rules import RulesCritic
from evidencegate.data import load_schema
from evidencegate.evals.ablation import run_ablation
from evidencegate.evals.answers import AnswerClass, grade_answer
from evidencegate.evals.golden import GoldenItem, load_golden
from evidencegate.exceptions import (
    BudgetExceeded,
    ConfigurationError,
    CriticOutputInvalid,
    EvidenceGateError,
    EvidenceThresholdNotMet,
    IngestError,
    ModelCallFailed,
    ModelOutputInvalid,
    PolicyError,
    RunOutcome,
    StoreError,
    TraceFormatError,
    UsageError,
)
from evidencegate.gate import EvidenceGate
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy, load_policy
from evidencegate.protocols import Critic, Generator, Retriever, TraceSink
from evidencegate.providers import ChatMessage, ChatModel, ChatRequest, ChatResponse
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.review import ReviewQueue
from evidencegate.testing import ScriptedCritic, ScriptedGenerator
from evidencegate.trace.chain import verify_trace
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

if TYPE_CHECKING:
    from evidencegate.providers.anthropic import AnthropicChatModel
    from evidencegate.providers.openai import OpenAIChatModel

__all__ = [
    "AnswerClass",
    "AnthropicChatModel",
    "Arm",
    "BudgetExceeded",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "Citation",
    "Claim",
    "ClaimVerification",
    "ConfigurationError",
    "Critic",
    "CriticAudit",
    "CriticOutputInvalid",
    "CriticSufficiency",
    "Decision",
    "Derivation",
    "DocumentVersion",
    "Draft",
    "EvidenceGate",
    "EvidenceGateError",
    "EvidenceThresholdNotMet",
    "ExtractiveGenerator",
    "GatedAnswer",
    "Generator",
    "GoldenItem",
    "IngestError",
    "IngestOptions",
    "IngestReport",
    "LoopController",
    "ModelCallFailed",
    "ModelOutputInvalid",
    "OpenAIChatModel",
    "Operand",
    "Operation",
    "Outcome",
    "Page",
    "Passage",
    "Policy",
    "PolicyError",
    "PostgresStore",
    "Retriever",
    "ReviewQueue",
    "RulesCritic",
    "RunOutcome",
    "ScriptedChatModel",
    "ScriptedCritic",
    "ScriptedGenerator",
    "StopReason",
    "Store",
    "StoreError",
    "TraceFormatError",
    "TraceRecorder",
    "TraceSink",
    "UsageError",
    "Verdict",
    "Verifier",
    "__version__",
    "grade_answer",
    "load_golden",
    "load_policy",
    "load_schema",
    "open_store",
    "replay_trace",
    "run_ablation",
    "verify_trace",
    "write_report",
]

_LAZY = {
    "AnthropicChatModel": "evidencegate.providers.anthropic",
    "OpenAIChatModel": "evidencegate.providers.openai",
}


def __getattr__(name: str) -> Any:
    """Import a vendor adapter on first use (PEP 562)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'evidencegate' has no attribute {name!r}")
