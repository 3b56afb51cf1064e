"""The hash chain: canonical encoding, verification of every line and link, and run_verify."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from evidencegate.canonical import canonical_json
from evidencegate.cli.trace import run_verify
from evidencegate.contracts import (
    Action,
    Citation,
    Claim,
    CriticSufficiency,
    Decision,
    Draft,
    GatedAnswer,
    Outcome,
    StopReason,
    Usage,
)
from evidencegate.exceptions import TraceFormatError
from evidencegate.testing import ticking_clock
from evidencegate.trace.anchor import ANCHOR_LOG
from evidencegate.trace.chain import (
    GENESIS_HASH,
    encode_line,
    line_hash,
    read_trace,
    verify_trace,
)
from evidencegate.trace.events import (
    DecisionEvent,
    DraftEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    RunStartEvent,
    SufficiencyEvent,
    TraceEvent,
)
from evidencegate.trace.recorder import TraceRecorder

AS_OF = dt.date(2018, 6, 30)
RUN_ID = "run-7f3a"
QUESTION = "Welcher Schwellenwert gilt 2018 für Verbraucher-Leasing nach § 1013.2(e)?"


def run_events() -> list[TraceEvent]:
    """One realistic answered run: start, retrieval, sufficiency, draft, decision, end."""
    citation = Citation(
        doc_id="cfpb-reg-m-interp",
        version="2018-01-01",
        page=4,
        quote="the threshold amount for 2018 is $55,800",
        char_start=1210,
        char_end=1250,
        evidence_id="p-5a1c",
    )
    claim = Claim(
        claim_id="c1",
        text="For 2018 the consumer-lease threshold is $55,800.",
        required=True,
        citations=[citation],
    )
    return [
        RunStartEvent(
            question=QUESTION,
            as_of=AS_OF,
            tenant="acme",
            policy={"max_passes": 2, "coverage_threshold": 0.9, "on_fail": "abstain"},
            policy_sha256="ab" * 32,
            components={"generator": "extractive@0.1.0", "critic": "rules@0.1.0"},
            evidencegate_version="0.1.0",
        ),
        RetrievalEvent(
            pass_no=1,
            purpose="initial",
            query="consumer lease threshold 2018 1013.2(e)",
            as_of=AS_OF,
            results=[
                RetrievedRef(
                    passage_id="p-5a1c",
                    doc_id="cfpb-reg-m-interp",
                    version="2018-01-01",
                    page=4,
                    char_start=1100,
                    char_end=1400,
                    authority="primary",
                    score=0.8125,
                    text_sha256="cd" * 32,
                )
            ],
            new_primary_sources=["cfpb-reg-m-interp@2018-01-01"],
        ),
        SufficiencyEvent(
            pass_no=1,
            critic="rules@0.1.0",
            evidence_ids=["p-5a1c"],
            output=CriticSufficiency(
                requires_more_context=False,
                reason="the 2018 figure is quoted",
                required_facts=["2018 threshold"],
            ),
        ),
        DraftEvent(
            pass_no=1,
            generator="extractive@0.1.0",
            evidence_ids=["p-5a1c"],
            avoid=[],
            output=Draft(claims=[claim]),
        ),
        DecisionEvent(
            decision=Decision(pass_no=1, action=Action.FINAL, reason=StopReason.CONTRACT_MET.value)
        ),
        RunEndEvent(
            answer=GatedAnswer(
                question=QUESTION,
                as_of=AS_OF,
                outcome=Outcome.ANSWERED,
                answer="For 2018 the consumer-lease threshold is $55,800.",
                claims=[claim],
                coverage=1.0,
                stop_reason=StopReason.CONTRACT_MET,
                passes=1,
                usage=Usage(retrievals=1, model_calls=2, input_tokens=812, output_tokens=97),
                policy="regulated-strict",
                trace_id=RUN_ID,
            ),
            elapsed_ms=41.625,
        ),
    ]


def write_trace(path: Path, events: list[TraceEvent]) -> Path:
    with TraceRecorder(path, run_id=RUN_ID, clock=ticking_clock()) as recorder:
        for event in events:
            recorder.emit(event)
    return path


def split_lines(path: Path) -> list[bytes]:
    """The lines of a trace file, each with its newline."""
    return path.read_bytes().splitlines(keepends=True)


def forged_line(seq: int, prev_hash: str, *, run_id: str = RUN_ID) -> bytes:
    """A self-consistent line (its own hash is right) for splicing into a trace."""
    event = DecisionEvent(decision=Decision(pass_no=1, action=Action.ABSTAIN, reason="forged"))
    data, _ = encode_line(seq, "2024-01-01T00:00:09.000000+00:00", run_id, prev_hash, event)
    return data + b"\n"


@pytest.fixture
def trace_path(tmp_path: Path) -> Path:
    """A complete six-line trace on disk."""
    return write_trace(tmp_path / "run.jsonl", run_events())


class TestLineHash:
    def test_is_sha256_of_sorted_compact_utf8_json(self) -> None:
        """The hash is sha256 of the record as sorted, compact, unescaped UTF-8 JSON."""
        record = {"seq": 0, "run_id": "r", "event": {"q": "§ 2"}, "prev_hash": GENESIS_HASH}
        expected = hashlib.sha256(
            (
                '{"event":{"q":"§ 2"},"prev_hash":"' + GENESIS_HASH + '","run_id":"r","seq":0}'
            ).encode()
        ).hexdigest()
        assert line_hash(record) == expected

    def test_refuses_a_record_that_still_has_its_hash(self) -> None:
        """A record carrying a 'hash' key is refused instead of hashed."""
        with pytest.raises(ValueError, match="without its 'hash' key"):
            line_hash({"seq": 0, "hash": "0" * 64})


class TestEncodeLine:
    def test_line_carries_the_hash_of_its_other_fields(self) -> None:
        """The returned hash is in the line and equals the hash of every other field."""
        data, digest = encode_line(3, "ts", RUN_ID, GENESIS_HASH, run_events()[4])
        record = json.loads(data)
        assert record.pop("hash") == digest
        assert line_hash(record) == digest
        assert record["seq"] == 3 and record["prev_hash"] == GENESIS_HASH

    def test_line_is_canonical_json_without_newline(self) -> None:
        """The bytes are the canonical JSON of the line, non-ASCII unescaped, no newline."""
        data, _ = encode_line(0, "ts", RUN_ID, GENESIS_HASH, run_events()[0])
        assert data == canonical_json(json.loads(data))
        assert "§".encode() in data
        assert b"\n" not in data

    def test_refuses_a_value_with_no_json_form(self) -> None:
        """An event holding NaN fails to encode, naming the event kind."""
        end = run_events()[-1]
        bad = end.model_copy(update={"elapsed_ms": float("nan")})
        with pytest.raises(ValueError, match="run_end event cannot be encoded"):
            encode_line(0, "ts", RUN_ID, GENESIS_HASH, bad)


class TestVerifyTrace:
    def test_intact_trace_is_ok_and_complete(self, trace_path: Path) -> None:
        """A trace written by the recorder verifies, complete, with its run id."""
        report = verify_trace(trace_path)
        assert report.ok and report.complete
        assert report.lines == 6
        assert report.first_bad_seq is None and report.reason is None
        assert report.run_id == RUN_ID

    def test_changing_any_byte_breaks_the_chain_at_that_line(self, trace_path: Path) -> None:
        """Replacing any single byte of any line fails verification at that line's seq."""
        original = trace_path.read_bytes()
        line_of = [i for i, raw in enumerate(split_lines(trace_path)) for _ in raw]
        survivors = []
        for pos, byte in enumerate(original):
            # XOR 1 keeps most bytes in their class (digit->digit, hex->hex-ish, letter->letter),
            # so the file usually stays well-formed JSON and only the chain can catch it.
            trace_path.write_bytes(original[:pos] + bytes([byte ^ 1]) + original[pos + 1 :])
            report = verify_trace(trace_path)
            if report.ok or report.first_bad_seq != line_of[pos]:
                survivors.append((pos, report))
        assert len(line_of) == len(original) > 3000
        assert survivors == []

    @pytest.mark.parametrize(
        "rewrite",
        [
            pytest.param(
                lambda obj: json.dumps(obj, sort_keys=True, ensure_ascii=False).encode(),
                id="whitespace",
            ),
            pytest.param(
                lambda obj: json.dumps(obj, sort_keys=True, separators=(",", ":")).encode(),
                id="unicode-escape",
            ),
            pytest.param(
                lambda obj: json.dumps(
                    dict(reversed(list(obj.items()))), separators=(",", ":"), ensure_ascii=False
                ).encode(),
                id="key-order",
            ),
        ],
    )
    def test_meaning_preserving_rewrites_break_the_chain(
        self, trace_path: Path, rewrite: Callable[[dict[str, object]], bytes]
    ) -> None:
        """Re-serialising a line with the same JSON meaning but other bytes fails."""
        lines = split_lines(trace_path)
        obj = json.loads(lines[0])
        rewritten = rewrite(obj)
        assert json.loads(rewritten) == obj and rewritten + b"\n" != lines[0]
        lines[0] = rewritten + b"\n"
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert not report.ok
        assert report.first_bad_seq == 0
        assert report.reason is not None and "canonical" in report.reason

    def test_number_written_in_another_form_breaks_the_chain(self, trace_path: Path) -> None:
        """Writing 41.625 as 41.6250 (same float) fails as non-canonical."""
        lines = split_lines(trace_path)
        assert lines[5].count(b'"elapsed_ms":41.625,') == 1
        lines[5] = lines[5].replace(b'"elapsed_ms":41.625,', b'"elapsed_ms":41.6250,')
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 5)
        assert report.reason is not None and "canonical" in report.reason

    def test_number_without_json_form_is_rejected(self, trace_path: Path) -> None:
        """A number that parses to infinity (1e999) fails instead of crashing."""
        lines = split_lines(trace_path)
        lines[5] = lines[5].replace(b'"elapsed_ms":41.625,', b'"elapsed_ms":1e999,')
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 5)
        assert report.reason is not None and "not canonical JSON" in report.reason

    @pytest.mark.parametrize("deleted", [0, 2, 4])
    def test_deleting_a_line_fails_at_its_seq(self, trace_path: Path, deleted: int) -> None:
        """Removing a line fails where the next line claims the wrong seq."""
        lines = split_lines(trace_path)
        del lines[deleted]
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq, report.lines) == (False, deleted, deleted)
        assert report.reason == f"seq is {deleted + 1}, expected {deleted}"

    def test_swapping_two_lines_fails_at_the_first(self, trace_path: Path) -> None:
        """Exchanging lines 2 and 3 fails at seq 2."""
        lines = split_lines(trace_path)
        lines[2], lines[3] = lines[3], lines[2]
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 2)
        assert report.reason == "seq is 3, expected 2"

    def test_appended_line_with_wrong_prev_hash_fails(self, trace_path: Path) -> None:
        """A forged seq-6 line, self-consistent but not linked to seq 5, fails at seq 6."""
        with trace_path.open("ab") as f:
            f.write(forged_line(6, "ef" * 32))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq, report.lines) == (False, 6, 6)
        assert report.reason == "prev_hash does not match the hash of seq 5"

    def test_first_line_must_link_to_genesis(self, tmp_path: Path) -> None:
        """A first line whose prev_hash is not the genesis hash fails at seq 0."""
        path = tmp_path / "t.jsonl"
        path.write_bytes(forged_line(0, "ef" * 32))
        report = verify_trace(path)
        assert (report.ok, report.first_bad_seq) == (False, 0)
        assert report.reason == "prev_hash does not match the genesis hash"

    def test_line_from_another_run_fails(self, trace_path: Path) -> None:
        """A correctly linked line with another run_id fails at its seq."""
        last_hash = json.loads(split_lines(trace_path)[-1])["hash"]
        with trace_path.open("ab") as f:
            f.write(forged_line(6, last_hash, run_id="other-run"))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 6)
        assert report.reason is not None and "run_id is 'other-run'" in report.reason

    def test_correctly_linked_forgery_is_accepted(self, trace_path: Path) -> None:
        """The chain has no secret: a line linked to the last hash verifies (as incomplete)."""
        last_hash = json.loads(split_lines(trace_path)[-1])["hash"]
        with trace_path.open("ab") as f:
            f.write(forged_line(6, last_hash))
        report = verify_trace(trace_path)
        assert (report.ok, report.complete, report.lines) == (True, False, 7)

    def test_truncated_final_line_fails(self, trace_path: Path) -> None:
        """A last line cut off mid-write (no newline) fails, naming the truncation."""
        data = trace_path.read_bytes()
        trace_path.write_bytes(data[:-40])
        report = verify_trace(trace_path)
        assert (report.ok, report.complete, report.first_bad_seq, report.lines) == (
            False,
            False,
            5,
            5,
        )
        assert report.reason is not None and "truncated final line" in report.reason

    def test_complete_line_missing_only_its_newline_is_truncated(self, trace_path: Path) -> None:
        """Even a whole final line without its newline counts as truncated."""
        trace_path.write_bytes(trace_path.read_bytes()[:-1])
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 5)
        assert report.reason is not None and "truncated" in report.reason

    def test_prefix_without_run_end_is_ok_but_incomplete(self, trace_path: Path) -> None:
        """The first four lines alone are an intact but incomplete trace."""
        trace_path.write_bytes(b"".join(split_lines(trace_path)[:4]))
        report = verify_trace(trace_path)
        assert (report.ok, report.complete, report.lines) == (True, False, 4)

    def test_empty_file_is_not_ok(self, tmp_path: Path) -> None:
        """An empty file is not a trace."""
        path = tmp_path / "empty.jsonl"
        path.write_bytes(b"")
        report = verify_trace(path)
        assert (report.ok, report.lines, report.first_bad_seq) == (False, 0, 0)
        assert report.reason == "empty trace: no lines"
        assert report.run_id is None

    def test_blank_line_fails(self, trace_path: Path) -> None:
        """An empty line between two lines fails at its index."""
        lines = split_lines(trace_path)
        lines.insert(3, b"\n")
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 3)
        assert report.reason is not None and report.reason.startswith("not JSON")

    def test_json_that_is_not_a_trace_line_fails(self, trace_path: Path) -> None:
        """A JSON object with an unknown event kind fails, naming the field."""
        lines = split_lines(trace_path)
        lines[1] = lines[1].replace(b'"kind":"retrieval"', b'"kind":"telemetry"')
        trace_path.write_bytes(b"".join(lines))
        report = verify_trace(trace_path)
        assert (report.ok, report.first_bad_seq) == (False, 1)
        assert report.reason is not None and report.reason.startswith("not a trace line: event")

    def test_missing_file_raises(self, tmp_path: Path) -> None:
        """A path that does not exist raises FileNotFoundError."""
        with pytest.raises(FileNotFoundError):
            verify_trace(tmp_path / "absent.jsonl")


class TestReadTrace:
    def test_reencoding_gives_identical_bytes(self, trace_path: Path) -> None:
        """Every line read back re-encodes to exactly the bytes on disk."""
        reencoded = b"".join(
            encode_line(line.seq, line.ts, line.run_id, line.prev_hash, line.event)[0] + b"\n"
            for line in read_trace(trace_path)
        )
        assert reencoded == trace_path.read_bytes()

    def test_events_round_trip_losslessly(self, trace_path: Path) -> None:
        """The events read back equal the events that were recorded."""
        assert [line.event for line in read_trace(trace_path)] == run_events()

    def test_incomplete_trace_is_readable(self, trace_path: Path) -> None:
        """An intact prefix without run_end is returned in full."""
        trace_path.write_bytes(b"".join(split_lines(trace_path)[:3]))
        assert [line.seq for line in read_trace(trace_path)] == [0, 1, 2]

    def test_tampered_trace_raises_naming_the_line(self, trace_path: Path) -> None:
        """A broken chain raises TraceFormatError carrying the first bad line."""
        lines = split_lines(trace_path)
        lines[3] = lines[3].replace(b'"pass_no":1', b'"pass_no":2')
        trace_path.write_bytes(b"".join(lines))
        with pytest.raises(TraceFormatError, match=r"line seq 3: hash mismatch") as info:
            read_trace(trace_path)
        assert info.value.line == 3

    def test_empty_file_raises(self, tmp_path: Path) -> None:
        """An empty file raises TraceFormatError at line 0."""
        path = tmp_path / "empty.jsonl"
        path.write_bytes(b"")
        with pytest.raises(TraceFormatError, match="empty trace") as info:
            read_trace(path)
        assert info.value.line == 0


class TestRunVerify:
    def test_intact_trace_prints_ok_and_returns_0(
        self, trace_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An intact complete trace prints the ok line and returns 0."""
        assert run_verify(str(trace_path)) == 0
        assert capsys.readouterr().out.startswith(
            "ok: 6 lines, chain intact (complete); matches its anchor"
        )

    def test_incomplete_trace_says_so(
        self, trace_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An intact prefix without run_end (a killed run: never anchored) returns 0 and says
        it is incomplete."""
        trace_path.write_bytes(b"".join(split_lines(trace_path)[:2]))
        (trace_path.parent / ANCHOR_LOG).unlink()
        assert run_verify(str(trace_path)) == 0
        assert capsys.readouterr().out == "ok: 2 lines, chain intact (incomplete: no run_end)\n"

    def test_tampered_trace_prints_seq_and_returns_1(
        self, trace_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A broken chain prints TAMPERED with the seq and reason and returns 1."""
        lines = split_lines(trace_path)
        del lines[2]
        trace_path.write_bytes(b"".join(lines))
        assert run_verify(str(trace_path)) == 1
        assert capsys.readouterr().out == "TAMPERED at seq 2: seq is 3, expected 2\n"

    def test_missing_file_is_an_error_returning_2(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A missing file prints an error on stderr and returns 2."""
        path = tmp_path / "absent.jsonl"
        assert run_verify(str(path)) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"error: cannot read trace {path}: ")

    def test_json_output_is_the_report(
        self, trace_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """With as_json the report is printed as one JSON object."""
        trace_path.write_bytes(trace_path.read_bytes()[:-1])
        assert run_verify(str(trace_path), as_json=True) == 1
        report = json.loads(capsys.readouterr().out)
        assert report == {
            "path": str(trace_path),
            "ok": False,
            "lines": 5,
            "complete": False,
            "first_bad_seq": 5,
            "reason": "truncated final line (no trailing newline): write cut off",
            "run_id": RUN_ID,
        }
