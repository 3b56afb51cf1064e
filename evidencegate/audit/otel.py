"""OpenTelemetry spans from trace events, without touching the controller.

:class:`OTelSink` is a :class:`~evidencegate.protocols.TraceSink` that turns one run's events
into spans::

    evidencegate.run                      run_start .. run_end (root of the run)
    └── evidencegate.pass                 one per pass (pass_no)
        ├── evidencegate.retrieval        one per retrieval (query, purpose, results)
        ├── evidencegate.sufficiency      critic phase 1
        ├── chat <model>                  one per model call, GenAI semantic conventions
        ├── evidencegate.draft
        ├── evidencegate.verification     claims verified / failed, failure reasons
        └── evidencegate.audit            critic phase 2 (coverage, contract met)

Decisions and component failures are span events on their pass. Attributes follow the GenAI
semantic conventions on model-call spans (``gen_ai.operation.name``, ``gen_ai.provider.name``,
``gen_ai.request.model``, ``gen_ai.usage.input_tokens``, ``gen_ai.usage.output_tokens``) and
are ``evidencegate.*`` elsewhere (``evidencegate.outcome``, ``evidencegate.stop_reason``,
``evidencegate.coverage``, ``evidencegate.pass_no``, ``evidencegate.query``, ...).

Timing: events are emitted when a step has finished, so a span's real start is unknown. A step
span runs from the previous step's event to its own event (the step ran in between); a
model-call span ends at its event and starts ``latency_ms`` before, its measured latency. Times
come from the sink's clock (UTC now) for a live run, or from the trace lines' ``ts`` when a
recorded trace is exported (:meth:`OTelSink.emit_line`, :func:`export_trace`).

Nothing is configured at import time: :func:`configure_telemetry` builds a tracer provider
with the exporter asked for (``console``, ``otlp`` when ``opentelemetry-exporter-otlp`` is
installed, ``memory`` for tests) and returns it; no global provider is set.
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TextIO

from opentelemetry import trace as otel_trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
)
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import Span, Status, StatusCode

from evidencegate._version import __version__
from evidencegate.audit.logs import FieldValue, event_fields
from evidencegate.exceptions import ConfigurationError
from evidencegate.trace.events import (
    AuditEvent,
    ComponentFailedEvent,
    DecisionEvent,
    DraftEvent,
    ModelCallEvent,
    RelevanceEvent,
    RetrievalEvent,
    RunEndEvent,
    RunStartEvent,
    ScopeEvent,
    SufficiencyEvent,
    TraceEvent,
    TraceLine,
    TriadEvent,
    VerificationEvent,
)

__all__ = [
    "ENV_VAR",
    "EXPORTERS",
    "OTelSink",
    "Telemetry",
    "configure_telemetry",
    "export_trace",
]

ENV_VAR = "EVIDENCEGATE_OTEL"
"""Environment variable naming the exporter when none is passed: console | otlp | memory."""

EXPORTERS = ("console", "otlp", "memory")

_STEP_SPANS: dict[str, str] = {
    "scope": "evidencegate.scope",
    "retrieval": "evidencegate.retrieval",
    "sufficiency": "evidencegate.sufficiency",
    "draft": "evidencegate.draft",
    "verification": "evidencegate.verification",
    "audit": "evidencegate.audit",
    "relevance": "evidencegate.relevance",
    "triad": "evidencegate.triad",
}


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _ns(moment: dt.datetime) -> int:
    if moment.tzinfo is None:
        raise ValueError(f"span time {moment.isoformat()} is naive; give it a tzinfo")
    delta = moment - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


def _attributes(fields: Mapping[str, FieldValue]) -> dict[str, FieldValue]:
    return {f"evidencegate.{key}": value for key, value in fields.items()}


class OTelSink:
    """A TraceSink turning one run's events into OpenTelemetry spans (see the module doc)."""

    def __init__(
        self,
        tracer_provider: otel_trace.TracerProvider,
        *,
        run_id: str,
        clock: Callable[[], dt.datetime] = _utc_now,
    ) -> None:
        self.run_id = run_id
        self._tracer = tracer_provider.get_tracer("evidencegate", __version__)
        self._clock = clock
        self._run: Span | None = None
        self._pass: Span | None = None
        self._pass_no: int | None = None
        self._last_ns = 0
        """When the previous step's event came: the start of the next step span."""

    def emit(self, event: TraceEvent) -> None:
        """Record ``event`` at the sink clock's now."""
        self._record(event, _ns(self._clock()))

    def emit_line(self, line: TraceLine) -> None:
        """Record the event of a recorded trace line at the line's timestamp."""
        self._record(line.event, _ns(dt.datetime.fromisoformat(line.ts)))

    def close(self) -> None:
        """End spans a run left open (it never reached run_end), marked as errors."""
        if self._pass is not None:
            self._pass.end(end_time=self._last_ns)
            self._pass = None
        if self._run is not None:
            self._run.set_status(Status(StatusCode.ERROR, "the run ended without run_end"))
            self._run.end(end_time=self._last_ns)
            self._run = None

    # ------------------------------------------------------------------ dispatch

    def _record(self, event: TraceEvent, at: int) -> None:
        if isinstance(event, RunStartEvent):
            self._start_run(event, at)
            return
        run = self._run
        if run is None:
            raise ValueError(f"OTelSink for run {self.run_id}: {event.kind} before run_start")
        if isinstance(event, RunEndEvent):
            self._end_run(run, event, at)
            return
        if isinstance(event, DecisionEvent):
            span = self._pass_span(run, event.decision.pass_no, at)
            span.set_attribute("evidencegate.decision", event.decision.action.value)
            span.add_event("decision", _attributes(event_fields(event)), timestamp=at)
        elif isinstance(event, ComponentFailedEvent):
            span = self._pass_span(run, event.pass_no, at)
            span.add_event("component_failed", _attributes(event_fields(event)), timestamp=at)
            span.set_status(Status(StatusCode.ERROR, f"{event.component}: {event.error_type}"))
        elif isinstance(event, ModelCallEvent):
            self._model_call(self._pass_span(run, event.pass_no, at), event, at)
            return  # a model call happens inside a step: it does not end that step
        else:
            self._step(self._pass_span(run, event.pass_no, at), event, at)
        self._last_ns = at

    def _start_run(self, event: RunStartEvent, at: int) -> None:
        if self._run is not None:
            raise ValueError(f"OTelSink for run {self.run_id}: a second run_start")
        attributes = _attributes(event_fields(event))
        attributes["evidencegate.run_id"] = self.run_id
        self._run = self._tracer.start_span(
            "evidencegate.run", attributes=attributes, start_time=at
        )
        self._last_ns = at

    def _end_run(self, run: Span, event: RunEndEvent, at: int) -> None:
        if self._pass is not None:
            self._pass.end(end_time=at)
            self._pass = None
        run.set_attributes(_attributes(event_fields(event)))
        run.end(end_time=at)
        self._run = None
        self._last_ns = at

    def _pass_span(self, run: Span, pass_no: int, at: int) -> Span:
        """The span of pass ``pass_no``; starting it ends the previous pass."""
        if self._pass is not None and self._pass_no == pass_no:
            return self._pass
        if self._pass is not None:
            self._pass.end(end_time=self._last_ns)
        self._pass = self._tracer.start_span(
            "evidencegate.pass",
            context=otel_trace.set_span_in_context(run),
            attributes={"evidencegate.pass_no": pass_no, "evidencegate.run_id": self.run_id},
            start_time=min(self._last_ns, at),
        )
        self._pass_no = pass_no
        return self._pass

    def _step(
        self,
        parent: Span,
        event: ScopeEvent
        | RetrievalEvent
        | SufficiencyEvent
        | DraftEvent
        | VerificationEvent
        | AuditEvent
        | RelevanceEvent
        | TriadEvent,
        at: int,
    ) -> None:
        span = self._tracer.start_span(
            _STEP_SPANS[event.kind],
            context=otel_trace.set_span_in_context(parent),
            attributes=_attributes(event_fields(event)),
            start_time=min(self._last_ns, at),
        )
        if isinstance(event, VerificationEvent) and not all(r.ok for r in event.results):
            span.set_status(Status(StatusCode.ERROR, "claims failed verification"))
        span.end(end_time=at)

    def _model_call(self, parent: Span, event: ModelCallEvent, at: int) -> None:
        attributes = _attributes(event_fields(event))
        attributes.update(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": event.provider,
                "gen_ai.request.model": event.model,
                "gen_ai.usage.input_tokens": event.input_tokens,
                "gen_ai.usage.output_tokens": event.output_tokens,
            }
        )
        if event.error is not None:
            attributes["error.type"] = (
                str(event.status_code) if event.status_code is not None else "error"
            )
        span = self._tracer.start_span(
            f"chat {event.model}",
            context=otel_trace.set_span_in_context(parent),
            kind=otel_trace.SpanKind.CLIENT,
            attributes=attributes,
            start_time=at - round(event.latency_ms * 1_000_000),
        )
        if event.error is not None:
            span.set_status(Status(StatusCode.ERROR, event.error))
        span.end(end_time=at)


def export_trace(lines: Iterable[TraceLine], tracer_provider: otel_trace.TracerProvider) -> None:
    """Turn a recorded trace into spans, timed by its lines' timestamps."""
    sink: OTelSink | None = None
    for line in lines:
        if sink is None:
            sink = OTelSink(tracer_provider, run_id=line.run_id)
        sink.emit_line(line)
    if sink is not None:
        sink.close()


# --------------------------------------------------------------------------- configuration


@dataclass
class Telemetry:
    """A tracer provider with one exporter. :meth:`shutdown` flushes it (call it at exit)."""

    provider: TracerProvider
    exporter: SpanExporter

    def sink(self, run_id: str) -> OTelSink:
        """An OTelSink for one run."""
        return OTelSink(self.provider, run_id=run_id)

    def shutdown(self) -> None:
        self.provider.shutdown()


def configure_telemetry(
    exporter: str | None = None,
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> Telemetry | None:
    """Build a tracer provider exporting to ``exporter``; None when telemetry is off.

    ``exporter`` defaults to ``$EVIDENCEGATE_OTEL``; empty or unset means off. ``console``
    prints spans as JSON to ``stream`` (stderr by default, so stdout stays the command's
    output); ``otlp`` uses ``opentelemetry-exporter-otlp`` (HTTP/protobuf, configured by the
    standard ``OTEL_EXPORTER_OTLP_*`` variables) and raises :class:`ConfigurationError` when
    that package is not installed; ``memory`` keeps spans in an ``InMemorySpanExporter``.
    """
    env = os.environ if environ is None else environ
    name = (exporter if exporter is not None else env.get(ENV_VAR, "")).strip().lower()
    if not name:
        return None
    span_exporter: SpanExporter
    if name == "console":
        span_exporter = ConsoleSpanExporter(out=stream if stream is not None else sys.stderr)
    elif name == "memory":
        span_exporter = InMemorySpanExporter()
    elif name == "otlp":
        span_exporter = _otlp_exporter()
    else:
        raise ConfigurationError(
            f"telemetry exporter {name!r} is unknown (set {ENV_VAR} or --otel to one of "
            f"{', '.join(EXPORTERS)})",
            component="telemetry",
        )
    provider = TracerProvider(
        resource=Resource.create({"service.name": "evidencegate", "service.version": __version__})
    )
    processor = (
        BatchSpanProcessor(span_exporter) if name == "otlp" else SimpleSpanProcessor(span_exporter)
    )
    provider.add_span_processor(processor)
    return Telemetry(provider=provider, exporter=span_exporter)


def _otlp_exporter() -> SpanExporter:
    module_name = "opentelemetry.exporter.otlp.proto.http.trace_exporter"
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigurationError(
            "telemetry exporter 'otlp' needs the package opentelemetry-exporter-otlp "
            f"(pip install opentelemetry-exporter-otlp); importing {module_name} failed: {exc}",
            component="telemetry",
        ) from exc
    exporter: SpanExporter = module.OTLPSpanExporter()
    return exporter
