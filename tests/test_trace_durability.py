"""Trace durability (per_event | per_run) and the fast path of trace verification."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import rfc8785
from conftest import ABSTAINED_ANSWER

from evidencegate.canonical import canonical_json
from evidencegate.contracts import Action, Decision, StopReason
from evidencegate.exceptions import TraceFormatError, UsageError
from evidencegate.policy import Policy
from evidencegate.testing import ticking_clock
from evidencegate.trace import recorder as recorder_module
from evidencegate.trace.chain import decode_line, encode_line, verify_trace
from evidencegate.trace.events import DecisionEvent, RunEndEvent, ScopeEvent, TraceEvent
from evidencegate.trace.recorder import TraceRecorder

SCOPE = ScopeEvent(pass_no=1, answer_type="amount", years=[], names=[], doc_ids=None, reason="r")
DECISION = DecisionEvent(
    decision=Decision(pass_no=1, action=Action.REGENERATE, reason="unsupported claims")
)
CLOSING = [
    DecisionEvent(decision=Decision(pass_no=1, action=action, reason=StopReason.NO_EVIDENCE))
    for action in (Action.FINAL, Action.ABSTAIN)
]
RUN_END = RunEndEvent(
    answer=ABSTAINED_ANSWER,
    elapsed_ms=1.5,
)


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records each os.fsync call, "dir" or "file" (and still makes it)."""
    calls: list[str] = []
    real = os.fsync

    def counting(fd: int) -> None:
        calls.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    return calls


def record(path: Path, events: list[TraceEvent], durability: str) -> None:
    with TraceRecorder(path, run_id="r", clock=ticking_clock(), durability=durability) as rec:  # type: ignore[arg-type]
        for event in events:
            rec.emit(event)


class TestDurability:
    def test_per_event_fsyncs_every_line(self, tmp_path: Path, fsyncs: list[str]) -> None:
        """per_event: one fsync per appended line (the first line's creation fsyncs too)."""
        record(tmp_path / "t.jsonl", [SCOPE, SCOPE, SCOPE, DECISION], "per_event")
        file_syncs = len(fsyncs)
        fsyncs.clear()
        record(tmp_path / "u.jsonl", [SCOPE, SCOPE, SCOPE, DECISION], "per_run")
        # neither the first line's creation nor the two scope lines in between are synced
        assert file_syncs - len(fsyncs) == 3

    def test_per_run_fsyncs_of_a_run(self, tmp_path: Path, fsyncs: list[str]) -> None:
        """per_run, a run with one decision: the decision's line with the directory entry of the
        new file, the run's end, the anchor log; nothing else."""
        path = tmp_path / "t.jsonl"
        record(path, [SCOPE, SCOPE, DECISION, SCOPE, RUN_END], "per_run")
        assert len(fsyncs) == 4
        report = verify_trace(path)
        assert report.ok and report.complete

    def test_per_run_syncs_at_decisions_and_end(self, tmp_path: Path, fsyncs: list[str]) -> None:
        """per_run: lines between decision points reach the file unsynced, the rest synced;
        the new file's directory entry is durable by the first decision point."""
        path = tmp_path / "t.jsonl"
        with TraceRecorder(path, run_id="r", durability="per_run") as rec:
            rec.emit(SCOPE)
            rec.emit(SCOPE)
            assert fsyncs.count("file") == 0
            assert path.read_bytes().count(b"\n") == 2  # written, not buffered in the process
            rec.emit(DECISION)
            # the file, and its new directory entry (started at creation, waited for here)
            assert sorted(fsyncs) == ["dir", "file"]
            rec.emit(SCOPE)
            rec.emit(RUN_END)
            assert sorted(fsyncs) == ["dir", "file", "file"]
        assert verify_trace(path).complete

    def test_closing_decision_synced_with_run_end(self, tmp_path: Path, fsyncs: list[str]) -> None:
        """per_run: a closing decision (FINAL, ABSTAIN) is written at once and fsynced by the
        run_end line after it; a decision that continues the run is fsynced on its own."""
        path = tmp_path / "t.jsonl"
        with TraceRecorder(path, run_id="r", durability="per_run") as rec:
            rec.emit(SCOPE)
            rec.emit(DECISION)
            base = len(fsyncs)  # the file and the directory: the thread was waited for
            for closing in CLOSING:
                rec.emit(closing)
                assert len(fsyncs) == base
            assert path.read_bytes().count(b"\n") == 4  # written, not buffered in the process
            rec.emit(RUN_END)
            assert len(fsyncs) == base + 1
            after_end = len(fsyncs)
        assert len(fsyncs) == after_end + 1  # the anchor log only: nothing left unsynced
        assert verify_trace(path).complete

    def test_closing_decision_without_run_end_synced_at_close(
        self, tmp_path: Path, fsyncs: list[str]
    ) -> None:
        """A run closed after its closing decision but before run_end has the decision
        fsynced on close, before the anchor is appended."""
        path = tmp_path / "t.jsonl"
        order: list[str] = []
        real_append = recorder_module.append_anchor

        def append(*args: object, **kwargs: object) -> object:
            order.append(f"anchor after {len(fsyncs)} fsyncs")
            return real_append(*args, **kwargs)  # type: ignore[arg-type]

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(recorder_module, "append_anchor", append)
            with TraceRecorder(path, run_id="r", durability="per_run") as rec:
                rec.emit(SCOPE)
                rec.emit(CLOSING[0])
                assert "file" not in fsyncs
        # the file and its directory entry, then the anchor
        assert order == ["anchor after 2 fsyncs"]
        report = verify_trace(path)
        assert report.ok and not report.complete and report.lines == 2

    def test_close_syncs_an_unfinished_run(self, tmp_path: Path, fsyncs: list[str]) -> None:
        """A run closed without run_end still has its last lines fsynced before the anchor."""
        path = tmp_path / "t.jsonl"
        with TraceRecorder(path, run_id="r", durability="per_run") as rec:
            rec.emit(SCOPE)
            rec.emit(SCOPE)
            base = len(fsyncs)
        assert len(fsyncs) > base
        report = verify_trace(path)
        assert report.ok and not report.complete

    def test_unknown_durability_refused(self, tmp_path: Path) -> None:
        """A durability that is not per_event or per_run is a usage error naming the choices."""
        with pytest.raises(UsageError, match="per_event, per_run"):
            TraceRecorder(tmp_path / "t.jsonl", durability="sometimes")  # type: ignore[arg-type]

    def test_policy_default_is_per_run(self) -> None:
        """The shipped default keeps per-run durability; per_event is a policy choice."""
        assert Policy().trace_durability == "per_run"
        assert Policy(trace_durability="per_event").trace_durability == "per_event"


class TestFastCanonical:
    @pytest.mark.parametrize(
        "value",
        [
            {"b": 1, "a": [1.0, 0.25, -0.0, 1e-7, 1e21, 123456789.125, 2**53 - 1]},
            {"text": 'tab\t quote" back\\ nul\u0000 del\x7f \u2028 é ☃', "n": None},
            {"\ue000": 1, "\U0001f600": 2, "z": "\U0001f600"},
            {"ints": [0, -1, 10**15, -(2**53) + 1], "t": True, "f": False},
            [0.1, 1e-4, 9.999e15, 1e16, 5e-5, 3.0e20],
        ],
        ids=["floats", "escapes", "non-bmp-keys", "ints", "float-edges"],
    )
    def test_same_bytes_as_rfc8785(self, value: object) -> None:
        """canonical_json writes exactly what the rfc8785 library writes."""
        assert canonical_json(value) == rfc8785.dumps(value)

    @pytest.mark.parametrize(
        "value", [{"x": float("nan")}, {"x": 2**53}, {"x": "\ud800"}, {"x": float("inf")}]
    )
    def test_what_jcs_cannot_write_is_refused(self, value: object) -> None:
        """NaN, infinity, big integers and lone surrogates raise ValueError, as before."""
        with pytest.raises(ValueError):
            canonical_json(value)


def line(event: TraceEvent) -> bytes:
    return encode_line(0, "2024-01-01T00:00:00.000000+00:00", "r", "0" * 64, event)[0]


class TestVerifyStrict:
    @pytest.mark.parametrize(
        "mutate",
        [
            lambda raw: raw.replace(b'"coverage":0.25', b'"coverage":2.5e-1'),
            lambda raw: raw.replace(b'"elapsed_ms":1.5', b'"elapsed_ms":1.50'),
            lambda raw: raw.replace(b'"passes":1', b'"passes":1.0'),
            lambda raw: raw.replace(b'"question":"q"', b'"question":"\\u0071"'),
            lambda raw: raw.replace(b'"kind":"run_end"', b'"kind": "run_end"'),
            lambda raw: raw.replace(b'"question":"q"', b'"question":"Q"'),
        ],
        ids=["exponent", "trailing-zero", "int-as-float", "escape", "space", "content"],
    )
    def test_changed_line_is_rejected(self, mutate: object) -> None:
        """A line whose bytes are not canonical or whose hash fails is rejected."""
        raw = mutate(line(RUN_END))  # type: ignore[operator]
        assert raw != line(RUN_END)
        with pytest.raises(TraceFormatError):
            decode_line(raw)

    def test_canonical_line_round_trips(self) -> None:
        """A recorded line decodes to its event."""
        assert decode_line(line(RUN_END)).event == RUN_END
