"""The public API is pinned: adding or removing a name is a deliberate act."""

from __future__ import annotations

import evidencegate

EXPECTED = {
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
    "IngestError",
    "IngestOptions",
    "IngestReport",
    "LoopController",
    "Outcome",
    "Page",
    "Passage",
    "Policy",
    "PolicyError",
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
    "load_policy",
    "load_schema",
    "Arm",
    "GoldenItem",
    "ReviewQueue",
    "load_golden",
    "replay_trace",
    "run_ablation",
    "write_report",
    "verify_trace",
    "AnswerClass",
    "grade_answer",
}


class TestExportedMembers:
    def test_all_is_pinned(self) -> None:
        """__all__ is exactly the curated set."""
        assert set(evidencegate.__all__) == EXPECTED

    def test_every_name_resolves(self) -> None:
        """Every exported name is importable from the package."""
        for name in evidencegate.__all__:
            assert getattr(evidencegate, name) is not None, name
