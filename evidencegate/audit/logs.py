"""Structured logs of a run: one JSON line per trace event, with the run id bound.

:class:`LogSink` is a :class:`~evidencegate.protocols.TraceSink`; put it next to the recorder
with :class:`~evidencegate.audit.tee.TeeSink`. It configures nothing globally: by default it
writes JSON lines to its own stream (stderr) through a structlog logger of its own; pass
``logger=`` to log through an application's configured structlog pipeline instead.

The log line carries a summary of the event (:func:`event_fields`), not its full payload: the
trace is the record, the log is for following runs as they happen.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

import structlog

from evidencegate.trace.events import (
    AuditEvent,
    ComponentFailedEvent,
    DecisionEvent,
    DraftEvent,
    ModelCallEvent,
    RetrievalEvent,
    RunEndEvent,
    RunStartEvent,
    ScopeEvent,
    SufficiencyEvent,
    TraceEvent,
    VerificationEvent,
)

__all__ = ["FieldValue", "LogSink", "event_fields"]

FieldValue = str | int | float | bool | list[str]
"""What a summary field holds: the value types an OpenTelemetry attribute accepts."""


def event_fields(event: TraceEvent) -> dict[str, FieldValue]:
    """A flat summary of an event (absent optional values are left out)."""
    fields: dict[str, FieldValue | None]
    match event:
        case RunStartEvent():
            fields = {
                "question": event.question,
                "as_of": event.as_of.isoformat(),
                "tenant": event.tenant,
                "policy": str(event.policy.get("name", "")),
                "policy_sha256": event.policy_sha256,
                "arm": event.components.get("arm"),
                "generator": event.components.get("generator"),
                "critic": event.components.get("critic"),
            }
        case ScopeEvent():
            fields = {
                "pass_no": event.pass_no,
                "answer_type": event.answer_type,
                "years": [str(y) for y in event.years],
                "names": list(event.names),
                "doc_ids": None if event.doc_ids is None else list(event.doc_ids),
                "reason": event.reason,
            }
        case RetrievalEvent():
            fields = {
                "pass_no": event.pass_no,
                "purpose": event.purpose,
                "query": event.query,
                "as_of": event.as_of.isoformat(),
                "results": len(event.results),
                "passage_ids": [r.passage_id for r in event.results],
                "new_primary_sources": list(event.new_primary_sources),
            }
        case SufficiencyEvent():
            fields = {
                "pass_no": event.pass_no,
                "critic": event.critic,
                "evidence": len(event.evidence_ids),
                "requires_more_context": event.output.requires_more_context,
                "missing_facts": list(event.output.missing_facts),
                "suggested_query": event.output.suggested_query,
            }
        case DraftEvent():
            fields = {
                "pass_no": event.pass_no,
                "generator": event.generator,
                "evidence": len(event.evidence_ids),
                "claims": len(event.output.claims),
                "declined": event.output.declined,
            }
        case VerificationEvent():
            fields = {
                "pass_no": event.pass_no,
                "claims": len(event.results),
                "claims_ok": sum(1 for r in event.results if r.ok),
                "failures": sorted({reason.value for r in event.results for reason in r.reasons}),
            }
        case AuditEvent():
            fields = {
                "pass_no": event.pass_no,
                "critic": event.critic,
                "coverage": event.output.coverage,
                "contract_met": event.output.contract_met,
                "verdicts": [f"{a.claim_id}:{a.verdict.value}" for a in event.output.claims],
                "suggested_query": event.output.suggested_query,
            }
        case DecisionEvent():
            fields = {
                "pass_no": event.decision.pass_no,
                "action": event.decision.action.value,
                "reason": event.decision.reason,
                "detail": event.decision.detail,
            }
        case ComponentFailedEvent():
            fields = {
                "pass_no": event.pass_no,
                "component": event.component,
                "error_type": event.error_type,
                "message": event.message,
            }
        case ModelCallEvent():
            fields = {
                "pass_no": event.pass_no,
                "role": event.role,
                "component": event.component,
                "provider": event.provider,
                "model": event.model,
                "attempt": event.attempt,
                "purpose": event.purpose,
                "input_tokens": event.input_tokens,
                "output_tokens": event.output_tokens,
                "cost_usd": event.cost_usd,
                "latency_ms": event.latency_ms,
                "error": event.error,
                "status_code": event.status_code,
            }
        case RunEndEvent():
            answer = event.answer
            fields = {
                "outcome": answer.outcome.value,
                "stop_reason": answer.stop_reason.value,
                "coverage": answer.coverage,
                "passes": answer.passes,
                "claims": len(answer.claims),
                "dropped_claims": len(answer.dropped_claims),
                "retrievals": answer.usage.retrievals,
                "model_calls": answer.usage.model_calls,
                "input_tokens": answer.usage.input_tokens,
                "output_tokens": answer.usage.output_tokens,
                "cost_usd": answer.usage.cost_usd,
                "elapsed_ms": event.elapsed_ms,
            }
    return {key: value for key, value in fields.items() if value is not None}


class LogSink:
    """A TraceSink logging one structured line per event, with ``run_id`` bound."""

    def __init__(
        self, run_id: str, *, stream: TextIO | None = None, logger: Any | None = None
    ) -> None:
        """Log to ``logger`` (a structlog logger) when given, else JSON lines on ``stream``."""
        if logger is not None and stream is not None:
            raise ValueError("LogSink takes a logger or a stream, not both")
        if logger is None:
            logger = structlog.wrap_logger(
                structlog.PrintLogger(stream if stream is not None else sys.stderr),
                processors=[
                    structlog.processors.add_log_level,
                    structlog.processors.TimeStamper(fmt="iso", utc=True),
                    structlog.processors.JSONRenderer(sort_keys=True),
                ],
            )
        self.run_id = run_id
        self._log = logger.bind(run_id=run_id, logger="evidencegate.trace")

    def emit(self, event: TraceEvent) -> None:
        level = "warning" if isinstance(event, ComponentFailedEvent) else "info"
        getattr(self._log, level)(event.kind, **event_fields(event))
