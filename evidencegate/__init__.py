"""evidencegate: evidence-gated answers for regulated work.

Every claim of an answer maps to a quoted span of a specific version of a primary source that
the run actually retrieved, or the answer is not emitted. The public API is pinned in
``__all__`` (a test keeps it so).
"""

from __future__ import annotations

__version__ = "0.1.0"

from evidencegate.contracts import (
    Arm,
    Citation,
    Claim,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    Decision,
    DocumentVersion,
    Draft,
    GatedAnswer,
    Outcome,
    Page,
    Passage,
    StopReason,
    Verdict,
)
from evidencegate.corpus import IngestOptions, IngestReport, Store
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
    PolicyError,
    StoreError,
    TraceFormatError,
    UsageError,
)
from evidencegate.gate import EvidenceGate
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy, load_policy
from evidencegate.report.html import write_report
from evidencegate.review import ReviewQueue
from evidencegate.trace.chain import verify_trace
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.trace.replay import replay_trace
from evidencegate.verify.verifier import Verifier

__all__ = [
    "AnswerClass",
    "Arm",
    "BudgetExceeded",
    "Citation",
    "Claim",
    "ClaimVerification",
    "ConfigurationError",
    "CriticAudit",
    "CriticOutputInvalid",
    "CriticSufficiency",
    "Decision",
    "DocumentVersion",
    "Draft",
    "EvidenceGate",
    "EvidenceGateError",
    "EvidenceThresholdNotMet",
    "ExtractiveGenerator",
    "GatedAnswer",
    "GoldenItem",
    "IngestError",
    "IngestOptions",
    "IngestReport",
    "LoopController",
    "Outcome",
    "Page",
    "Passage",
    "Policy",
    "PolicyError",
    "ReviewQueue",
    "RulesCritic",
    "StopReason",
    "Store",
    "StoreError",
    "TraceFormatError",
    "TraceRecorder",
    "UsageError",
    "Verdict",
    "Verifier",
    "__version__",
    "grade_answer",
    "load_golden",
    "load_policy",
    "load_schema",
    "replay_trace",
    "run_ablation",
    "verify_trace",
    "write_report",
]
