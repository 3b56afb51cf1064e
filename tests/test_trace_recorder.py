"""The trace recorder and the trace-capture helpers of evidencegate.testing."""

from __future__ import annotations

import datetime as dt
import os
import stat
from pathlib import Path

import pytest

from evidencegate.contracts import Action, Decision, GatedAnswer, Outcome, StopReason
from evidencegate.exceptions import UsageError
from evidencegate.protocols import TraceSink
from evidencegate.testing import capture_trace, events_of_kind, ticking_clock
from evidencegate.trace.anchor import ANCHOR_LOG
from evidencegate.trace.chain import GENESIS_HASH, read_trace, verify_trace
from evidencegate.trace.events import DecisionEvent, RunEndEvent, RunStartEvent, TraceEvent
from evidencegate.trace.recorder import TraceRecorder

AS_OF = dt.date(2024, 2, 29)
START = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC)


def start_event() -> RunStartEvent:
    return RunStartEvent(
        question="Which access-control baseline applies?",
        as_of=AS_OF,
        policy={"max_passes": 1},
        policy_sha256="12" * 32,
        components={"generator": "extractive@0.1.0", "critic": "rules@0.1.0"},
        evidencegate_version="0.1.0",
    )


def decision_event(pass_no: int = 1) -> DecisionEvent:
    return DecisionEvent(
        decision=Decision(
            pass_no=pass_no, action=Action.ABSTAIN, reason=StopReason.NO_EVIDENCE.value
        )
    )


def end_event() -> RunEndEvent:
    return RunEndEvent(
        answer=GatedAnswer(
            question="Which access-control baseline applies?",
            as_of=AS_OF,
            outcome=Outcome.ABSTAINED,
            answer="",
            gaps=["no primary source in force on 2024-02-29"],
            coverage=0.0,
            stop_reason=StopReason.NO_EVIDENCE,
            passes=1,
            trace_id="r1",
        ),
        elapsed_ms=3.5,
    )


def abstained_run() -> list[TraceEvent]:
    return [start_event(), decision_event(), end_event()]


class TestTraceRecorder:
    def test_is_a_trace_sink(self) -> None:
        """The recorder satisfies the TraceSink protocol the controller writes to."""
        assert isinstance(TraceRecorder(), TraceSink)

    def test_in_memory_lines_are_chained(self) -> None:
        """Without a path, lines are numbered from 0 and each links to the one before."""
        recorder = TraceRecorder(run_id="r1")
        assert recorder.path is None and recorder.last_hash == GENESIS_HASH
        for event in abstained_run():
            recorder.emit(event)
        lines = recorder.lines
        assert [line.seq for line in lines] == [0, 1, 2]
        assert [line.prev_hash for line in lines] == [GENESIS_HASH, lines[0].hash, lines[1].hash]
        assert {line.run_id for line in lines} == {"r1"}
        assert recorder.last_hash == lines[2].hash
        assert [line.event for line in lines] == abstained_run()

    def test_lines_is_a_copy(self) -> None:
        """Mutating the returned list does not change what the recorder chains next."""
        recorder = TraceRecorder()
        recorder.emit(start_event())
        recorder.lines.clear()
        recorder.emit(decision_event())
        assert [line.seq for line in recorder.lines] == [0, 1]

    def test_file_holds_exactly_the_in_memory_lines(self, tmp_path: Path) -> None:
        """The written file verifies as complete and reads back as the recorder's lines."""
        path = tmp_path / "run.jsonl"
        with TraceRecorder(path, run_id="r1") as recorder:
            for event in abstained_run():
                recorder.emit(event)
        report = verify_trace(path)
        assert (report.ok, report.complete, report.lines, report.run_id) == (True, True, 3, "r1")
        assert read_trace(path) == recorder.lines

    def test_lines_are_readable_while_recorder_is_open(self, tmp_path: Path) -> None:
        """Each emitted line is on disk before emit returns, so an open trace verifies."""
        path = tmp_path / "run.jsonl"
        with TraceRecorder(path) as recorder:
            recorder.emit(start_event())
            recorder.emit(decision_event())
            report = verify_trace(path)
            assert (report.ok, report.complete, report.lines) == (True, False, 2)
            assert read_trace(path) == recorder.lines

    def test_each_emit_fsyncs_the_trace_file(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """per_event: every emit fsyncs the trace file's descriptor once the line is written."""
        path = tmp_path / "run.jsonl"
        synced: list[int] = []
        real_fsync = os.fsync

        def spy(fd: int) -> None:
            status = os.fstat(fd)
            # the trace's own bytes (its first line goes to a temporary file linked into
            # place): not the directory, not the anchor log beside it
            name = Path(os.readlink(f"/proc/self/fd/{fd}")).name
            if stat.S_ISREG(status.st_mode) and name != ANCHOR_LOG:
                synced.append(status.st_size)
            real_fsync(fd)

        monkeypatch.setattr(os, "fsync", spy)
        with TraceRecorder(path, durability="per_event") as recorder:
            recorder.emit(start_event())
            recorder.emit(decision_event())
        sizes = [len(b"".join(path.read_bytes().splitlines(keepends=True)[:n])) for n in (1, 2)]
        assert synced == sizes
        # per_run: the first line is made durable with the first decision point, not alone
        synced.clear()
        other = tmp_path / "other.jsonl"
        with TraceRecorder(other, durability="per_run") as recorder:
            recorder.emit(start_event())
            assert synced == []
            recorder.emit(decision_event())
        assert synced == [other.stat().st_size]

    def test_refuses_an_existing_non_empty_file(self, tmp_path: Path) -> None:
        """An existing non-empty file is refused and left untouched."""
        path = tmp_path / "run.jsonl"
        path.write_bytes(b"earlier run\n")
        with pytest.raises(UsageError, match=r"run\.jsonl already exists and is not empty"):
            TraceRecorder(path)
        assert path.read_bytes() == b"earlier run\n"

    def test_file_appears_only_with_its_first_line(self, tmp_path: Path) -> None:
        """No file exists before the first event; then it holds exactly that line, no leftovers."""
        path = tmp_path / "run.jsonl"
        with TraceRecorder(path) as recorder:
            assert list(tmp_path.iterdir()) == []
            recorder.emit(start_event())
            assert path.read_bytes().count(b"\n") == 1
            assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []

    def test_second_recorder_on_one_path_is_refused_at_its_first_line(self, tmp_path: Path) -> None:
        """Two recorders on one path: the later first line is refused, the file stays intact."""
        path = tmp_path / "run.jsonl"
        first, second = TraceRecorder(path, run_id="a"), TraceRecorder(path, run_id="b")
        first.emit(start_event())
        with pytest.raises(UsageError, match="already exists and is not empty"):
            second.emit(start_event())
        first.emit(decision_event())
        first.close()
        second.close()
        assert [line.run_id for line in read_trace(path)] == ["a", "a"]

    def test_accepts_an_existing_empty_file(self, tmp_path: Path) -> None:
        """An existing empty file is written to like a new one."""
        path = tmp_path / "run.jsonl"
        path.touch()
        with TraceRecorder(path) as recorder:
            recorder.emit(start_event())
        assert verify_trace(path).lines == 1

    def test_creates_missing_parent_directories(self, tmp_path: Path) -> None:
        """Parent directories of the trace path are created."""
        path = tmp_path / "traces" / "2024" / "run.jsonl"
        with TraceRecorder(path) as recorder:
            recorder.emit(start_event())
        assert verify_trace(path).ok

    def test_default_run_id_is_a_fresh_uuid_hex(self) -> None:
        """Without a run_id each recorder gets its own 32-character hex id."""
        first, second = TraceRecorder(), TraceRecorder()
        assert first.run_id != second.run_id
        assert len(first.run_id) == 32 and int(first.run_id, 16) >= 0

    def test_timestamps_come_from_the_clock_in_utc_with_microseconds(self) -> None:
        """The clock's time is written as UTC ISO-8601 with microseconds."""
        cet = dt.timezone(dt.timedelta(hours=1))
        times = iter([dt.datetime(2024, 5, 1, 13, 0, tzinfo=cet), START])
        recorder = TraceRecorder(clock=lambda: next(times))
        recorder.emit(start_event())
        recorder.emit(decision_event())
        assert [line.ts for line in recorder.lines] == [
            "2024-05-01T12:00:00.000000+00:00",
            "2024-05-01T12:00:00.000000+00:00",
        ]

    def test_naive_clock_is_refused_before_anything_is_written(self, tmp_path: Path) -> None:
        """A clock without a timezone raises and writes no line."""
        path = tmp_path / "run.jsonl"
        with TraceRecorder(path, clock=lambda: dt.datetime(2024, 5, 1, 12)) as recorder:
            with pytest.raises(UsageError, match="naive datetime"):
                recorder.emit(start_event())
            assert recorder.lines == []
        assert not path.exists()

    def test_unencodable_event_writes_nothing_and_chain_continues(self, tmp_path: Path) -> None:
        """An event holding NaN raises, writes nothing, and the next event still chains."""
        path = tmp_path / "run.jsonl"
        with TraceRecorder(path) as recorder:
            recorder.emit(start_event())
            with pytest.raises(ValueError, match="run_end event cannot be encoded"):
                recorder.emit(end_event().model_copy(update={"elapsed_ms": float("nan")}))
            recorder.emit(end_event())
        report = verify_trace(path)
        assert (report.ok, report.complete, report.lines) == (True, True, 2)

    def test_emit_after_close_raises(self, tmp_path: Path) -> None:
        """A closed recorder refuses further events."""
        with TraceRecorder(tmp_path / "run.jsonl") as recorder:
            recorder.emit(start_event())
        with pytest.raises(UsageError, match="is closed"):
            recorder.emit(decision_event())

    def test_close_is_idempotent(self, tmp_path: Path) -> None:
        """Closing twice is allowed and the file stays intact."""
        recorder = TraceRecorder(tmp_path / "run.jsonl")
        recorder.emit(start_event())
        recorder.close()
        recorder.close()
        assert verify_trace(tmp_path / "run.jsonl").lines == 1

    def test_failed_write_closes_the_recorder(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """When a write fails the error propagates and nothing more is chained after it."""
        path = tmp_path / "run.jsonl"
        recorder = TraceRecorder(path)
        recorder.emit(start_event())

        def failing_fsync(fd: int) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "fsync", failing_fsync)
        with pytest.raises(OSError, match="No space left"):
            recorder.emit(end_event())  # a sync point (a closing decision waits for run_end)
        monkeypatch.undo()
        with pytest.raises(UsageError, match="is closed"):
            recorder.emit(decision_event())
        assert len(recorder.lines) == 1


class TestCaptureTrace:
    def test_captures_in_memory_with_fixed_run_id(self) -> None:
        """capture_trace records in memory under the given run id."""
        recorder = capture_trace(run_id="case-1")
        recorder.emit(start_event())
        assert recorder.path is None
        assert [line.run_id for line in recorder.lines] == ["case-1"]

    def test_captures_are_byte_identical(self) -> None:
        """Two captures of the same events produce the same hashes."""
        first, second = capture_trace(), capture_trace()
        for recorder in (first, second):
            for event in abstained_run():
                recorder.emit(event)
        assert first.last_hash == second.last_hash
        assert first.lines == second.lines

    def test_events_of_kind_returns_matching_events_in_order(self) -> None:
        """events_of_kind picks the events of one class, in emission order."""
        recorder = capture_trace()
        events: list[TraceEvent] = [
            start_event(),
            decision_event(1),
            decision_event(2),
            end_event(),
        ]
        for event in events:
            recorder.emit(event)
        decisions = events_of_kind(recorder, DecisionEvent)
        assert [decision.decision.pass_no for decision in decisions] == [1, 2]
        assert events_of_kind(recorder, RunEndEvent) == [end_event()]


class TestTickingClock:
    def test_ticks_by_step_from_start(self) -> None:
        """Each call returns the previous time plus the step, starting at start."""
        clock = ticking_clock(START, dt.timedelta(seconds=2))
        assert [clock(), clock(), clock()] == [
            START,
            START + dt.timedelta(seconds=2),
            START + dt.timedelta(seconds=4),
        ]
