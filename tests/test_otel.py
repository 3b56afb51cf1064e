"""Telemetry from trace events: OpenTelemetry spans, structlog JSON lines, the tee sink."""

from __future__ import annotations

import datetime as dt
import importlib.util
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from evidencegate.audit.logs import LogSink
from evidencegate.audit.otel import OTelSink, Telemetry, configure_telemetry, export_trace
from evidencegate.audit.tee import TeeSink
from evidencegate.contracts import Action, Decision, Draft, GatedAnswer, Outcome, StopReason
from evidencegate.corpus import Store
from evidencegate.exceptions import ConfigurationError, UsageError
from evidencegate.gate import EvidenceGate
from evidencegate.testing import capture_trace, ticking_clock
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import (
    DecisionEvent,
    DraftEvent,
    ModelCallEvent,
    RunEndEvent,
    RunStartEvent,
    TraceEvent,
)

AS_OF = dt.date(2023, 6, 15)
QUESTION = (
    "What is the maximum value of a gift an employee may accept per giver per calendar year "
    "without prior approval?"
)
MS = 1_000_000


@pytest.fixture
def telemetry() -> Iterator[Telemetry]:
    configured = configure_telemetry("memory")
    assert configured is not None
    yield configured
    configured.shutdown()


def finished(telemetry: Telemetry) -> list[ReadableSpan]:
    assert isinstance(telemetry.exporter, InMemorySpanExporter)
    return list(telemetry.exporter.get_finished_spans())


def named(spans: list[ReadableSpan], name: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name == name]


@pytest.fixture(scope="module")
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


def start_event() -> RunStartEvent:
    return RunStartEvent(
        question="q",
        as_of=AS_OF,
        policy={"name": "default"},
        policy_sha256="ab" * 32,
        components={"arm": "grounded_followup", "generator": "openai:gpt-test"},
        evidencegate_version="0.1.0",
    )


def model_call(*, error: str | None = None) -> ModelCallEvent:
    return ModelCallEvent(
        pass_no=1,
        role="generator",
        component="openai:gpt-test",
        provider="openai",
        model="gpt-test",
        attempt=1,
        purpose="draft",
        request={"chat": {}},
        request_sha256="cd" * 32,
        response=None if error else {"content": "{}"},
        error=error,
        status_code=429 if error else None,
        input_tokens=120,
        output_tokens=30,
        latency_ms=0.5,
    )


def end_event() -> RunEndEvent:
    return RunEndEvent(
        answer=GatedAnswer(
            question="q",
            as_of=AS_OF,
            outcome=Outcome.ABSTAINED,
            answer="Abstained",
            coverage=0.25,
            stop_reason=StopReason.NO_CONCRETE_GAP,
            passes=1,
            trace_id="r",
        ),
        elapsed_ms=4.0,
    )


def synthetic_run() -> list[TraceEvent]:
    return [
        start_event(),
        model_call(),
        DraftEvent(
            pass_no=1, generator="openai:gpt-test", evidence_ids=[], avoid=[], output=Draft()
        ),
        DecisionEvent(
            decision=Decision(pass_no=1, action=Action.ABSTAIN, reason="no_concrete_gap")
        ),
        end_event(),
    ]


class TestOTelSinkLiveRun:
    def test_spans_of_a_run(self, store_dir: Path, telemetry: Telemetry) -> None:
        """A run through a TeeSink gives run, pass, retrieval and verification spans, nested."""
        recorder = capture_trace(run_id="otel-run")
        with Store.open(store_dir, create=False) as store:
            gate = EvidenceGate(store)
            with TeeSink(recorder, telemetry.sink(recorder.run_id)) as tee:
                answer = gate.controller.run(
                    QUESTION, as_of=AS_OF, trace=tee, run_id=tee.run_id, tenant=None
                )
        spans = finished(telemetry)
        (run,) = named(spans, "evidencegate.run")
        passes = named(spans, "evidencegate.pass")
        assert run.parent is None and passes
        assert all(p.parent is not None and p.parent.span_id == run.context.span_id for p in passes)
        pass_ids = {p.context.span_id for p in passes}
        for name in ("evidencegate.retrieval", "evidencegate.verification"):
            steps = named(spans, name)
            assert steps and all(
                s.parent is not None and s.parent.span_id in pass_ids for s in steps
            )
        attributes = dict(run.attributes or {})
        assert attributes["evidencegate.outcome"] == answer.outcome.value
        assert attributes["evidencegate.stop_reason"] == answer.stop_reason.value
        assert attributes["evidencegate.coverage"] == answer.coverage
        assert attributes["evidencegate.run_id"] == "otel-run"
        (retrieval, *_) = named(spans, "evidencegate.retrieval")
        assert dict(retrieval.attributes or {})["evidencegate.query"] == QUESTION
        assert len(recorder.lines) > 0 and recorder.lines[-1].event.kind == "run_end"


class TestOTelSinkEvents:
    def test_model_call_span_has_gen_ai_attributes(self, telemetry: Telemetry) -> None:
        """A model call becomes a 'chat <model>' span with GenAI semantic-convention attributes."""
        sink = telemetry.sink("r")
        for event in synthetic_run():
            sink.emit(event)
        (chat,) = named(finished(telemetry), "chat gpt-test")
        attributes = dict(chat.attributes or {})
        assert attributes["gen_ai.operation.name"] == "chat"
        assert attributes["gen_ai.provider.name"] == "openai"
        assert attributes["gen_ai.request.model"] == "gpt-test"
        assert attributes["gen_ai.usage.input_tokens"] == 120
        assert attributes["gen_ai.usage.output_tokens"] == 30
        assert attributes["evidencegate.purpose"] == "draft"

    def test_span_times_come_from_event_times(self, telemetry: Telemetry) -> None:
        """Steps span from the previous event to their own; a model call spans its latency."""
        clock = ticking_clock(step=dt.timedelta(milliseconds=10))
        sink = OTelSink(telemetry.provider, run_id="r", clock=clock)  # an event every 10 ms
        for event in synthetic_run():
            sink.emit(event)
        spans = finished(telemetry)
        (run,) = named(spans, "evidencegate.run")
        (chat,) = named(spans, "chat gpt-test")
        (draft,) = named(spans, "evidencegate.draft")
        assert run.start_time is not None and run.end_time is not None
        assert run.end_time - run.start_time == 40 * MS
        assert chat.end_time is not None and chat.start_time is not None
        assert chat.end_time - chat.start_time == MS // 2
        # a model call does not end the step it belongs to: the draft starts at run_start
        assert draft.start_time == run.start_time and draft.end_time == run.start_time + 20 * MS

    def test_decision_is_an_event_of_its_pass(self, telemetry: Telemetry) -> None:
        """A decision is recorded on its pass span, with its action as an attribute."""
        sink = telemetry.sink("r")
        for event in synthetic_run():
            sink.emit(event)
        (pass_span,) = named(finished(telemetry), "evidencegate.pass")
        assert dict(pass_span.attributes or {})["evidencegate.decision"] == "ABSTAIN"
        assert [e.name for e in pass_span.events] == ["decision"]

    def test_failed_model_call_is_an_error_span(self, telemetry: Telemetry) -> None:
        """A model call that failed has status ERROR and an error.type."""
        sink = telemetry.sink("r")
        sink.emit(start_event())
        sink.emit(model_call(error="ModelCallFailed: rate limited"))
        sink.emit(end_event())
        (chat,) = named(finished(telemetry), "chat gpt-test")
        assert chat.status.status_code is StatusCode.ERROR
        assert dict(chat.attributes or {})["error.type"] == "429"

    def test_close_ends_a_run_that_never_ended(self, telemetry: Telemetry) -> None:
        """close() ends the open run and pass spans, the run marked as an error."""
        sink = telemetry.sink("r")
        sink.emit(start_event())
        sink.emit(model_call())
        assert named(finished(telemetry), "evidencegate.run") == []
        sink.close()
        (run,) = named(finished(telemetry), "evidencegate.run")
        assert run.status.status_code is StatusCode.ERROR
        assert len(named(finished(telemetry), "evidencegate.pass")) == 1

    def test_event_before_run_start_is_refused(self, telemetry: Telemetry) -> None:
        """An event outside a run raises ValueError naming the run."""
        with pytest.raises(ValueError, match="before run_start"):
            telemetry.sink("r9").emit(end_event())

    def test_export_of_a_recorded_trace_uses_its_timestamps(
        self, store_dir: Path, telemetry: Telemetry, tmp_path: Path
    ) -> None:
        """Exporting a trace file times the run span by the first and last line timestamps."""
        trace = tmp_path / "run.jsonl"
        with EvidenceGate.open(store_dir) as gate:
            gate.ask(QUESTION, as_of=AS_OF, trace_out=trace)
        lines = read_trace(trace)
        export_trace(lines, telemetry.provider)
        (run,) = named(finished(telemetry), "evidencegate.run")
        first = dt.datetime.fromisoformat(lines[0].ts)
        last = dt.datetime.fromisoformat(lines[-1].ts)
        assert run.start_time == int(first.timestamp() * 1_000_000) * 1000
        assert run.end_time is not None and run.start_time is not None
        assert (
            run.end_time - run.start_time == (last - first) // dt.timedelta(microseconds=1) * 1000
        )


class TestConfigureTelemetry:
    def test_off_unless_asked(self) -> None:
        """Nothing is configured when no exporter is named and EVIDENCEGATE_OTEL is unset."""
        assert configure_telemetry(environ={}) is None

    def test_environment_names_the_exporter(self) -> None:
        """EVIDENCEGATE_OTEL=memory gives an in-memory exporter."""
        telemetry = configure_telemetry(environ={"EVIDENCEGATE_OTEL": "memory"})
        assert telemetry is not None and isinstance(telemetry.exporter, InMemorySpanExporter)
        telemetry.shutdown()

    def test_unknown_exporter_is_a_configuration_error(self) -> None:
        """An unknown exporter name fails, listing the known ones."""
        with pytest.raises(ConfigurationError, match=r"'jaeger' is unknown.*console, otlp, memory"):
            configure_telemetry("jaeger")

    def test_otlp_without_its_package_says_what_to_install(self) -> None:
        """otlp without opentelemetry-exporter-otlp fails naming the package."""
        if importlib.util.find_spec("opentelemetry.exporter") is not None:
            pytest.skip("opentelemetry-exporter-otlp is installed here")
        with pytest.raises(ConfigurationError, match="pip install opentelemetry-exporter-otlp"):
            configure_telemetry("otlp")

    def test_console_exporter_writes_spans_to_its_stream(self) -> None:
        """The console exporter prints each finished span as JSON to the given stream."""
        stream = io.StringIO()
        telemetry = configure_telemetry("console", stream=stream)
        assert telemetry is not None
        sink = telemetry.sink("r")
        for event in synthetic_run():
            sink.emit(event)
        telemetry.shutdown()
        assert '"name": "evidencegate.run"' in stream.getvalue()


class TestLogSink:
    def test_one_json_line_per_event_with_run_id(self) -> None:
        """Each event is one JSON line carrying the run id, the event kind and its summary."""
        stream = io.StringIO()
        sink = LogSink("run-7", stream=stream)
        for event in synthetic_run():
            sink.emit(event)
        records = [json.loads(line) for line in stream.getvalue().splitlines()]
        assert [r["event"] for r in records] == [e.kind for e in synthetic_run()]
        assert {r["run_id"] for r in records} == {"run-7"}
        assert records[1]["model"] == "gpt-test" and records[1]["input_tokens"] == 120
        assert records[-1]["outcome"] == "abstained" and records[-1]["stop_reason"] == (
            "no_concrete_gap"
        )
        assert all("timestamp" in r and r["level"] == "info" for r in records)

    def test_logs_through_a_given_structlog_logger(self) -> None:
        """With logger=, lines go through the application's structlog pipeline."""
        with structlog.testing.capture_logs() as logs:
            sink = LogSink("run-8", logger=structlog.get_logger())
            sink.emit(start_event())
        assert logs == [
            {
                "event": "run_start",
                "log_level": "info",
                "run_id": "run-8",
                "logger": "evidencegate.trace",
                "question": "q",
                "as_of": "2023-06-15",
                "policy": "default",
                "policy_sha256": "ab" * 32,
                "arm": "grounded_followup",
                "generator": "openai:gpt-test",
            }
        ]


class TestTeeSink:
    def test_recorder_first_then_observers(self) -> None:
        """Each event is on the recorder before any observer sees it; run_id is the recorder's."""
        recorder = capture_trace(run_id="tee-run")
        seen: list[int] = []

        class Observer:
            def emit(self, event: TraceEvent) -> None:
                seen.append(len(recorder.lines))

        tee = TeeSink(recorder, Observer())
        for event in synthetic_run():
            tee.emit(event)
        assert tee.run_id == "tee-run"
        assert seen == [1, 2, 3, 4, 5]

    def test_close_closes_the_recorder_and_observers(self, telemetry: Telemetry) -> None:
        """Leaving the tee closes the recorder and ends the OTel sink's open spans."""
        recorder = capture_trace()
        with TeeSink(recorder, telemetry.sink(recorder.run_id)) as tee:
            tee.emit(start_event())
        assert len(named(finished(telemetry), "evidencegate.run")) == 1
        with pytest.raises(UsageError, match="closed"):
            recorder.emit(end_event())
