"""Trace format 2 is RFC 8785 canonical JSON; format-1 traces still verify and replay."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rfc8785

from evidencegate.audit.replay import EXIT_IDENTICAL, replay_trace
from evidencegate.canonical import canonical_json, canonical_json_v1, sha256_hex
from evidencegate.components import build_generator
from evidencegate.contracts import Action, Decision
from evidencegate.corpus import Store
from evidencegate.corpus.passages import passage_id
from evidencegate.gate import EvidenceGate
from evidencegate.policy import Policy
from evidencegate.prompts.base import PromptTemplate
from evidencegate.providers.base import ChatRequest
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.trace.chain import (
    GENESIS_HASH,
    TRACE_FORMAT,
    read_trace,
    verify_trace,
)
from evidencegate.trace.events import DecisionEvent, ModelCallEvent, RunStartEvent
from evidencegate.trace.recorder import TraceRecorder

FIXTURE = Path(__file__).parent / "fixtures" / "traces" / "format1-ex-001.jsonl"
"""ex-001 of the example golden set as recorded by ``evidencegate demo`` before format 2."""

GIFT_QUESTION = "What is the maximum value of a gift an employee may accept?"
CASH_RULE = "Employees must not accept cash, cash equivalents, gift cards, securities or loans"


@pytest.fixture(scope="module")
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


@pytest.fixture
def store(store_dir: Path) -> Iterator[Store]:
    with Store.open(store_dir, create=False) as opened:
        yield opened


def raw_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def as_format1(src: Path, dst: Path) -> None:
    """Re-encode a trace as format 1 wrote it: no format key, the pre-RFC 8785 canonical form."""
    prev = GENESIS_HASH
    with dst.open("wb") as out:
        for line in read_trace(src):
            record: dict[str, Any] = {
                "seq": line.seq,
                "ts": line.ts,
                "run_id": line.run_id,
                "prev_hash": prev,
                "event": line.event.model_dump(mode="json"),
            }
            record["hash"] = prev = sha256_hex(canonical_json_v1(record))
            out.write(canonical_json_v1(record) + b"\n")


def record_with_model(store: Store, trace: Path) -> None:
    """Ask with a scripted language-model generator that cites the cash rule when shown it."""

    def reply(request: ChatRequest) -> str:
        prompt = request.messages[-1].content
        for block in prompt.split('<evidence id="')[1:]:
            block_id, body = block.split('"', 1)
            if CASH_RULE in body:
                quote = body[body.index(CASH_RULE) :].split(".")[0]
                claim = {
                    "text": "Employees must not accept cash or gift cards from a Business Partner.",
                    "citations": [{"evidence_id": block_id, "quote": quote}],
                }
                return json.dumps({"claims": [claim]})
        return json.dumps({"claims": [], "declined": "no evidence states the rule"})

    policy = Policy(name="scripted-llm", generator="openai:gpt-test", max_cost_usd=0)
    generator = build_generator(
        policy, chat_models=lambda p, m: ScriptedChatModel(reply, provider=p, model=m)
    )
    EvidenceGate(store, policy=policy, generator=generator).ask(
        "May an employee accept a gift card from a Business Partner?",
        as_of=dt.date(2024, 6, 1),
        trace_out=trace,
    )


class TestRfc8785Lines:
    def test_run_trace_lines_are_rfc8785(self, store: Store, tmp_path: Path) -> None:
        """Every line of a real run's trace is byte-identical to rfc8785.dumps of its object."""
        trace = tmp_path / "run.jsonl"
        EvidenceGate(store).ask(GIFT_QUESTION, as_of=dt.date(2024, 6, 1), trace_out=trace)
        lines = raw_lines(trace)
        assert len(lines) >= 5
        for raw in lines:
            assert rfc8785.dumps(json.loads(raw)) == raw
            assert json.loads(raw)["format"] == TRACE_FORMAT

    def test_numbers_and_key_order_follow_jcs(self, tmp_path: Path) -> None:
        """Floats take their ECMAScript form and keys sort by UTF-16 code units, as JCS says."""
        policy = {"z": 1.0, "é": 1e-7, "\U0001f600": 1e21, "\uff61": 0.1}
        start = RunStartEvent(
            question="q",
            as_of=dt.date(2024, 1, 1),
            policy=policy,
            policy_sha256="ab" * 32,
            components={},
            evidencegate_version="0",
        )
        trace = tmp_path / "run.jsonl"
        with TraceRecorder(trace, run_id="r") as recorder:
            recorder.emit(start)
        (raw,) = raw_lines(trace)
        assert raw == rfc8785.dumps(json.loads(raw))
        assert b'"z":1,"\xc3\xa9":1e-7,"\xf0\x9f\x98\x80":1e+21,"\xef\xbd\xa1":0.1' in raw
        assert canonical_json_v1(json.loads(raw)) != raw
        assert verify_trace(trace).ok


class TestStableContentHashes:
    def test_passage_ids_of_existing_stores_are_unchanged(self) -> None:
        """A passage id (persisted in stores) is the same as the pre-RFC 8785 code computed."""
        text = 'Gifts \u2264 $100 \u2014 \u00e9t\u00e9\t"q"\n\x01 \U0001f600'
        assert passage_id("HSB-POL-007", "2024.1", 3, 10, 52, text) == "b7bb355a9762ffd29377ea1f"

    @pytest.mark.parametrize(
        "value", ["plain", "§ 2 \u2014 é", "tab\tnew\nline\x01\x7f", "\U0001f600\u2028", "", 0, -7]
    )
    def test_both_forms_agree_without_floats(self, value: object) -> None:
        """On strings, integers and nulls under ASCII keys the two canonical forms are equal."""
        obj = {"text": value, "pages": [{"page": 1, "heading": None, "text": value}]}
        assert canonical_json(obj) == canonical_json_v1(obj)

    def test_prompt_hash_is_unchanged(self) -> None:
        """A prompt template's hash (recorded with every model call) is the pre-RFC 8785 one."""
        prompt = PromptTemplate(
            name="t", version=1, system="Quote \u201cexactly\u201d.", user="{q}"
        )
        fields = {"name": "t", "version": 1, "system": prompt.system, "user": "{q}"}
        assert prompt.sha256 == sha256_hex(canonical_json_v1(fields))


class TestFormat1Traces:
    def test_recorded_format1_fixture_verifies(self) -> None:
        """A trace written by the code before format 2 verifies, complete, as format 1."""
        lines = raw_lines(FIXTURE)
        assert any(rfc8785.dumps(json.loads(raw)) != raw for raw in lines)
        report = verify_trace(FIXTURE)
        assert report.ok and report.complete and report.lines == len(lines)
        assert all(line.format is None for line in read_trace(FIXTURE))

    def test_recorded_format1_fixture_replays_its_evidence(self, store: Store) -> None:
        """Replay reads the format-1 fixture and finds every recorded passage and citation."""
        result = replay_trace(FIXTURE, store)
        assert result.chain_ok and result.complete
        assert result.recorded_answer is not None and result.recorded_answer.claims
        assert result.evidence == []
        assert result.drift and not any(d.drifted for d in result.drift)

    def test_format1_run_replays_identically(self, store: Store, tmp_path: Path) -> None:
        """A run re-encoded as format 1 verifies and replays to identical decisions."""
        trace = tmp_path / "run.jsonl"
        EvidenceGate(store).ask(GIFT_QUESTION, as_of=dt.date(2024, 6, 1), trace_out=trace)
        old = tmp_path / "old.jsonl"
        as_format1(trace, old)
        assert b'"format"' not in old.read_bytes()
        assert verify_trace(old).ok
        result = replay_trace(old, store)
        assert result.divergence is None and result.exit_code == EXIT_IDENTICAL

    def test_format1_model_calls_replay_identically(self, store: Store, tmp_path: Path) -> None:
        """A format-1 run drafted by a language model finds its recorded model calls on replay."""
        trace = tmp_path / "run.jsonl"
        record_with_model(store, trace)
        assert any(isinstance(line.event, ModelCallEvent) for line in read_trace(trace))
        old = tmp_path / "old.jsonl"
        as_format1(trace, old)
        result = replay_trace(old, store)
        assert result.divergence is None and result.exit_code == EXIT_IDENTICAL

    def test_a_trace_mixing_formats_is_rejected(self, tmp_path: Path) -> None:
        """A format-1 line chained after a format-2 line breaks the trace at that line."""
        trace = tmp_path / "run.jsonl"
        event = DecisionEvent(decision=Decision(pass_no=1, action=Action.FINAL, reason="ok"))
        with TraceRecorder(trace, run_id="r") as recorder:
            recorder.emit(event)
        first = read_trace(trace)[0]
        record: dict[str, Any] = {
            "seq": 1,
            "ts": first.ts,
            "run_id": "r",
            "prev_hash": first.hash,
            "event": event.model_dump(mode="json"),
        }
        record["hash"] = sha256_hex(canonical_json_v1(record))
        with trace.open("ab") as out:
            out.write(canonical_json_v1(record) + b"\n")
        report = verify_trace(trace)
        assert not report.ok and report.first_bad_seq == 1
        assert report.reason == "format is 1, expected 2 as on seq 0"
