"""Replay: the recorded run re-run on recorded retrievals reaches byte-identical decisions."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ABSTAINED_ANSWER, EXAMPLE_ITEMS, example_item

from evidencegate.audit.replay import (
    EXIT_DIVERGED,
    EXIT_IDENTICAL,
    EXIT_INCOMPLETE,
    EXIT_TAMPERED,
    ReplayChatModel,
    ReplayMismatch,
    ReplayRetriever,
    ReplaySourceLookup,
    first_divergence,
    replay_trace,
)
from evidencegate.canonical import sha256_hex
from evidencegate.cli.audit import add_replay_arguments, run_replay
from evidencegate.components import build_generator
from evidencegate.contracts import (
    Action,
    Decision,
    GatedAnswer,
    Outcome,
    Passage,
)
from evidencegate.corpus import Store
from evidencegate.exceptions import ModelCallFailed
from evidencegate.gate import EvidenceGate
from evidencegate.policy import ModelEndpoint, Policy
from evidencegate.providers.base import ChatMessage, ChatRequest
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import (
    DecisionEvent,
    ModelCallEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    TraceEvent,
)
from evidencegate.trace.recorder import TraceRecorder

DECISION = DecisionEvent(decision=Decision(pass_no=1, action=Action.FINAL, reason="contract_met"))
RUN_END = RunEndEvent(
    answer=ABSTAINED_ANSWER,
    elapsed_ms=1.0,
)


def answered_item() -> dict[str, Any]:
    """A factual item the offline components answer (ex-001: the $100 gift limit)."""
    return example_item("ex-001")


@pytest.fixture(scope="module")
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


@pytest.fixture
def store(store_dir: Path) -> Iterator[Store]:
    with Store.open(store_dir, create=False) as opened:
        yield opened


def record(store: Store, golden: dict[str, Any], path: Path) -> GatedAnswer:
    return EvidenceGate(store).ask(
        golden["question"], as_of=dt.date.fromisoformat(golden["as_of"]), trace_out=path
    )


def rewrite(src: Path, dst: Path, change: Callable[[TraceEvent], TraceEvent]) -> None:
    """Re-record the events of ``src`` into ``dst`` through ``change``: a valid chain."""
    lines = read_trace(src)
    with TraceRecorder(dst, run_id=lines[0].run_id) as recorder:
        for line in lines:
            recorder.emit(change(line.event))


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="evidencegate replay")
    add_replay_arguments(parser)
    return run_replay(parser.parse_args(list(argv)))


class TestReplayIdentity:
    @pytest.mark.parametrize("golden", EXAMPLE_ITEMS, ids=[i["id"] for i in EXAMPLE_ITEMS])
    def test_every_golden_item_replays_identically(
        self, store: Store, tmp_path: Path, golden: dict[str, Any]
    ) -> None:
        """Every example golden item, asked and then replayed, gives identical decisions."""
        trace = tmp_path / "run.jsonl"
        answer = record(store, golden, trace)
        result = replay_trace(trace, store)
        assert result.divergence is None
        assert result.replayed_answer == answer
        assert result.recorded_answer == answer
        assert result.replayed_events == result.recorded_events
        assert result.exit_code == EXIT_IDENTICAL

    def test_replay_is_offline_from_recorded_results(
        self, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Replay never searches the store: it answers from the recorded retrievals."""
        trace = tmp_path / "run.jsonl"
        record(store, answered_item(), trace)

        def refuse(*args: object, **kwargs: object) -> list[Passage]:
            raise AssertionError("replay searched the store")

        monkeypatch.setattr(Store, "search", refuse)
        assert replay_trace(trace, store).exit_code == EXIT_IDENTICAL


class TestCounterfactual:
    def test_stricter_quote_length_turns_the_answer_into_an_abstention(
        self, store: Store, tmp_path: Path
    ) -> None:
        """With min_quote_chars above every quote, the recorded answer becomes an abstention."""
        trace = tmp_path / "run.jsonl"
        answer = record(store, answered_item(), trace)
        assert answer.outcome is Outcome.ANSWERED
        strict = Policy(name="long-quotes", min_quote_chars=2000)
        result = replay_trace(trace, store, policy=strict)
        assert result.counterfactual and result.policy == "long-quotes"
        assert result.replayed_answer is not None
        assert result.replayed_answer.outcome is Outcome.ABSTAINED
        assert result.recorded_answer == answer
        assert result.divergence is not None
        assert result.exit_code == EXIT_DIVERGED

    def test_same_policy_under_another_name_decides_identically(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A counterfactual policy equal to the recorded one but for its name changes nothing."""
        trace = tmp_path / "run.jsonl"
        record(store, answered_item(), trace)
        result = replay_trace(trace, store, policy=Policy(name="renamed"))
        assert result.divergence is None
        assert result.exit_code == EXIT_IDENTICAL

    def test_policy_file_on_the_command_line(
        self, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """replay --policy FILE replays under that file and prints the replayed abstention."""
        trace = tmp_path / "run.jsonl"
        with Store.open(store_dir, create=False) as opened:
            record(opened, answered_item(), trace)
        policy = tmp_path / "strict.yaml"
        policy.write_text("name: long-quotes\nmin_quote_chars: 2000\n", encoding="utf-8")
        code = cli(str(trace), "--store", str(store_dir), "--policy", str(policy))
        out = capsys.readouterr().out
        assert code == EXIT_DIVERGED
        assert "counterfactual, policy long-quotes" in out
        assert "replayed answer: abstained" in out


class TestDivergence:
    def test_a_changed_decision_is_the_first_divergence(self, store: Store, tmp_path: Path) -> None:
        """A recording whose decision differs (chain still intact) diverges at that event."""
        original = tmp_path / "run.jsonl"
        record(store, answered_item(), original)
        changed = tmp_path / "changed.jsonl"

        def other_decision(event: TraceEvent) -> TraceEvent:
            if isinstance(event, DecisionEvent):
                decision = event.decision.model_copy(update={"detail": "edited"})
                return DecisionEvent(decision=decision)
            return event

        rewrite(original, changed, other_decision)
        result = replay_trace(changed, store)
        seq = next(
            line.seq for line in read_trace(changed) if isinstance(line.event, DecisionEvent)
        )
        assert result.chain_ok
        assert result.divergence is not None
        assert result.divergence.seq == seq
        assert result.divergence.recorded_kind == "decision"
        assert result.divergence.path == "decision.detail"
        assert result.divergence.recorded is not None and "edited" in result.divergence.recorded
        assert result.exit_code == EXIT_DIVERGED

    def test_an_extra_replayed_event_diverges_where_a_complete_recording_ends(self) -> None:
        """Against a complete recording, a replayed event the recording lacks diverges."""
        found = first_divergence(
            [DECISION, RUN_END], [DECISION, DECISION, RUN_END], counterfactual=False
        )
        assert found is not None
        assert (found.seq, found.recorded_kind, found.replayed_kind) == (1, "run_end", "decision")
        assert found.path == "kind"

    def test_an_incomplete_recording_is_compared_as_far_as_it_goes(self) -> None:
        """Without run_end only the recorded prefix is compared; later replayed events are new."""
        assert first_divergence([DECISION], [DECISION, RUN_END], counterfactual=False) is None
        found = first_divergence([DECISION, RUN_END], [DECISION], counterfactual=False)
        assert found is not None and found.seq == 1 and found.replayed is None


class TestChainAndCompleteness:
    def test_tampered_trace_is_not_replayed(
        self, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """One changed byte: replay reports TAMPERED with exit 1 and replays nothing."""
        trace = tmp_path / "run.jsonl"
        with Store.open(store_dir, create=False) as opened:
            record(opened, answered_item(), trace)
        data = trace.read_bytes()
        trace.write_bytes(data.replace(b"$100", b"$900", 1))
        assert cli(str(trace), "--store", str(store_dir)) == EXIT_TAMPERED
        assert "TAMPERED at seq" in capsys.readouterr().out

    def test_incomplete_recording_replays_its_prefix(self, store: Store, tmp_path: Path) -> None:
        """A run killed midway (no run_end) replays identically so far, with exit 5."""
        trace = tmp_path / "run.jsonl"
        record(store, answered_item(), trace)
        lines = trace.read_bytes().splitlines(keepends=True)
        trace.write_bytes(b"".join(lines[:-2]))
        result = replay_trace(trace, store)
        assert result.chain_ok and not result.complete
        assert result.divergence is None
        assert result.recorded_answer is None and result.replayed_answer is not None
        assert result.exit_code == EXIT_INCOMPLETE

    def test_missing_store_is_a_usage_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A --store that is not a store exits 2 and says so."""
        trace = tmp_path / "run.jsonl"
        trace.write_text("", encoding="utf-8")
        assert cli(str(trace), "--store", str(tmp_path / "nothing")) == 2
        assert "no evidencegate store" in capsys.readouterr().err

    def test_json_output_carries_the_exit_code(
        self, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--json prints one object with the divergence, the answers and the exit code."""
        trace = tmp_path / "run.jsonl"
        with Store.open(store_dir, create=False) as opened:
            record(opened, answered_item(), trace)
        assert cli(str(trace), "--store", str(store_dir), "--json") == EXIT_IDENTICAL
        data = json.loads(capsys.readouterr().out)
        assert data["exit_code"] == EXIT_IDENTICAL
        assert data["divergence"] is None
        assert data["replayed_answer"] == data["recorded_answer"]


def ref(passage: Passage) -> RetrievedRef:
    return RetrievedRef(
        passage_id=passage.passage_id,
        doc_id=passage.doc_id,
        version=passage.version,
        page=passage.page,
        char_start=passage.char_start,
        char_end=passage.char_end,
        authority=passage.authority,
        score=passage.score,
        text_sha256=sha256_hex(passage.text),
        completes=passage.completes,
    )


AS_OF = dt.date(2024, 6, 1)
PRIMARY = Passage(
    passage_id="p1", doc_id="A", version="1", page=1, char_start=0, char_end=5, text="alpha"
)
SECONDARY = Passage(
    passage_id="p2",
    doc_id="B",
    version="1",
    page=1,
    char_start=0,
    char_end=4,
    text="beta",
    authority="secondary",
)


def retrieval(query: str, *passages: Passage) -> RetrievalEvent:
    return RetrievalEvent(
        pass_no=1,
        purpose="initial",
        query=query,
        as_of=AS_OF,
        results=[ref(p) for p in passages],
        new_primary_sources=[],
    )


class TestReplayRetriever:
    def test_answers_in_recorded_order(self) -> None:
        """The n-th search gets the n-th recorded results."""
        retriever = ReplayRetriever(
            [retrieval("q1", PRIMARY), retrieval("q2", SECONDARY)],
            {"p1": PRIMARY, "p2": SECONDARY},
        )
        assert retriever.search("q1", as_of=AS_OF) == [PRIMARY]
        assert retriever.search("q2", as_of=AS_OF) == [SECONDARY]

    def test_a_different_query_is_a_mismatch(self) -> None:
        """A search the recording did not make raises ReplayMismatch naming both queries."""
        retriever = ReplayRetriever([retrieval("q1", PRIMARY)], {"p1": PRIMARY})
        with pytest.raises(ReplayMismatch, match=r"'other'.*'q1'"):
            retriever.search("other", as_of=AS_OF)

    def test_one_search_too_many_is_a_mismatch(self) -> None:
        """More searches than recorded retrievals raise ReplayMismatch."""
        retriever = ReplayRetriever([retrieval("q1", PRIMARY)], {"p1": PRIMARY})
        retriever.search("q1", as_of=AS_OF)
        with pytest.raises(ReplayMismatch, match="has 1 retrievals"):
            retriever.search("q1", as_of=AS_OF)

    def test_filters_narrow_the_recorded_results(self) -> None:
        """authorities and limit filter the recorded results as the store would."""
        retriever = ReplayRetriever(
            [retrieval("q", PRIMARY, SECONDARY)] * 2, {"p1": PRIMARY, "p2": SECONDARY}
        )
        assert retriever.search("q", as_of=AS_OF, authorities=["secondary"]) == [SECONDARY]
        assert retriever.search("q", as_of=AS_OF, limit=1) == [PRIMARY]

    def test_a_list_part_comes_beside_the_limit_with_its_partner(self) -> None:
        """The retriever brings a passage completing a kept one's list (Passage.completes)
        beside the ``limit`` ranked passages: replay gives it back with its partner, and
        drops it when a narrower limit drops the partner."""
        lead = PRIMARY.model_copy(update={"passage_id": "p0", "page": 2, "completes": "p1"})
        recorded = [lead, PRIMARY, SECONDARY]
        passages = {p.passage_id: p.model_copy(update={"completes": None}) for p in recorded}
        retriever = ReplayRetriever([retrieval("q", *recorded)] * 3, passages)
        assert retriever.search("q", as_of=AS_OF, limit=2) == recorded
        assert retriever.search("q", as_of=AS_OF, limit=1) == [lead, PRIMARY]
        assert retriever.search("q", as_of=AS_OF, authorities=["secondary"]) == [SECONDARY]


class TestReplaySourceLookup:
    def test_restores_validity_of_a_retrieved_version(self, tmp_path: Path) -> None:
        """A retrieved version superseded since by a backdated version is in force in replay."""
        corpus = tmp_path / "corpus"
        corpus.mkdir()
        for version, start in (("1", "2024-01-01"), ("2", "2024-03-01")):
            (corpus / f"A_{version}.md").write_text(
                f'---\ndoc_id: A\nversion: "{version}"\nversion_date: {start}\n'
                f"effective_from: {start}\nauthority: primary\n---\nText of version {version}.\n",
                encoding="utf-8",
            )
        with Store.open(tmp_path / "store") as store:
            store.ingest([corpus / "A_1.md", corpus / "A_2.md"])
            lookup = ReplaySourceLookup(store, as_of=AS_OF, tenant=None, retrieved={"A@1"})
            replayed = lookup.lookup("A", "1", 1)
            assert replayed is not None and replayed.document.in_force(AS_OF)
            current = store.lookup("A", "1", 1)
            assert current is not None and not current.document.in_force(AS_OF)
            not_retrieved = ReplaySourceLookup(store, as_of=AS_OF, tenant=None, retrieved=set())
            found = not_retrieved.lookup("A", "1", 1)
            assert found is not None and not found.document.in_force(AS_OF)


CASH_RULE = (
    "Employees must not accept cash, cash equivalents, gift cards, securities or loans from a "
    "Business Partner, whatever the amount."
)
SPAN = re.compile(r"^\[(E\d+\.\d+)\] (.*)$", re.MULTILINE)
LLM_POLICY = Policy(
    name="scripted-llm", generator="openai:gpt-test", critic="rules", max_cost_usd=0
)


def scripted_reply(request: ChatRequest) -> str:
    """Cite the evidence span that states the cash rule, as a model following the prompt would."""
    prompt = request.messages[-1].content
    for span_id, text in SPAN.findall(prompt):
        if CASH_RULE in text:
            claim = {
                "text": "Employees must not accept cash or gift cards from a Business Partner.",
                "citations": [{"span_id": span_id}],
            }
            return json.dumps({"claims": [claim]})
    return json.dumps({"claims": [], "declined": "no evidence states the rule"})


def record_with_model(store: Store, trace: Path, *, replies: list[Exception]) -> GatedAnswer:
    """Record ex-008 with a scripted language-model generator (first failing with ``replies``)."""
    script: list[Exception] = list(replies)

    def reply(request: ChatRequest) -> str:
        if script:
            raise script.pop(0)
        return scripted_reply(request)

    def models(provider: str, model: str) -> ScriptedChatModel:
        return ScriptedChatModel(reply, provider=provider, model=model)

    generator = build_generator(LLM_POLICY, chat_models=models)
    golden = example_item("ex-008")
    return EvidenceGate(store, policy=LLM_POLICY, generator=generator).ask(
        golden["question"], as_of=dt.date.fromisoformat(golden["as_of"]), trace_out=trace
    )


class TestModelCallReplay:
    def test_model_calls_are_answered_from_the_recording(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A run drafted by a language model replays identically without any model."""
        trace = tmp_path / "run.jsonl"
        answer = record_with_model(store, trace, replies=[])
        calls = [line.event for line in read_trace(trace) if isinstance(line.event, ModelCallEvent)]
        assert answer.outcome is Outcome.ANSWERED and len(calls) == 1
        result = replay_trace(trace, store)
        assert result.divergence is None
        assert result.replayed_answer == answer
        assert result.exit_code == EXIT_IDENTICAL

    def test_a_retried_failure_is_replayed_as_a_retry(self, store: Store, tmp_path: Path) -> None:
        """A recorded 429 followed by its retry replays as the same failure and retry."""
        trace = tmp_path / "run.jsonl"
        busy = ModelCallFailed(
            "rate limited", provider="openai", model="gpt-test", status_code=429, retryable=True
        )
        answer = record_with_model(store, trace, replies=[busy])
        calls = [line.event for line in read_trace(trace) if isinstance(line.event, ModelCallEvent)]
        assert [c.attempt for c in calls] == [1, 2] and calls[0].status_code == 429
        result = replay_trace(trace, store)
        assert result.divergence is None
        assert result.replayed_answer == answer

    def test_a_prompt_the_recording_lacks_is_a_divergence(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A counterfactual policy that changes the request finds no recorded call: it diverges."""
        trace = tmp_path / "run.jsonl"
        record_with_model(store, trace, replies=[])
        other = LLM_POLICY.model_copy(
            update={"endpoints": {"openai:gpt-test": ModelEndpoint(max_output_tokens=100)}}
        )
        result = replay_trace(trace, store, policy=other)
        assert result.divergence is not None
        assert result.divergence.replayed is not None
        assert "no recorded call answers this request" in result.divergence.replayed
        assert result.replayed_answer is not None
        assert result.replayed_answer.outcome is Outcome.ABSTAINED


BLOCK = re.compile(r'<evidence id="(E\d+)"[^>]*>\n(.*?)\n</evidence>', re.DOTALL)


def v1_reply(request: ChatRequest) -> str:
    """A contract-v1 generator model: it copies the quote from the evidence block."""
    for block_id, body in BLOCK.findall(request.messages[-1].content):
        if CASH_RULE in body:
            claim = {
                "text": "Employees must not accept cash or gift cards from a Business Partner.",
                "citations": [{"evidence_id": block_id, "quote": CASH_RULE}],
            }
            return json.dumps({"claims": [claim]})
    return json.dumps({"claims": [], "declined": "no evidence states the rule"})


class TestContractV1Replay:
    def test_a_trace_recorded_with_contract_v1_still_replays(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A run whose model copied quotes (prompt generator.draft@v1) replays with the v1
        generator: identical, exit 0."""
        trace = tmp_path / "v1.jsonl"

        def models(provider: str, model: str) -> ScriptedChatModel:
            return ScriptedChatModel(v1_reply, provider=provider, model=model)

        generator = build_generator(LLM_POLICY, chat_models=models, contract=1)
        golden = example_item("ex-008")
        answer = EvidenceGate(store, policy=LLM_POLICY, generator=generator).ask(
            golden["question"], as_of=dt.date.fromisoformat(golden["as_of"]), trace_out=trace
        )
        (call,) = [e.event for e in read_trace(trace) if isinstance(e.event, ModelCallEvent)]
        assert call.request["chat"]["metadata"]["prompt"] == "generator.draft@v1"
        assert answer.outcome is Outcome.ANSWERED
        result = replay_trace(trace, store)
        assert result.divergence is None
        assert result.exit_code == EXIT_IDENTICAL


class TestContractV2Replay:
    def test_a_trace_recorded_with_contract_v2_still_replays(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A run drafted under generator.draft@v2 (before derivations) replays with the v2
        generator: identical, exit 0."""
        trace = tmp_path / "v2.jsonl"

        def models(provider: str, model: str) -> ScriptedChatModel:
            return ScriptedChatModel(scripted_reply, provider=provider, model=model)

        generator = build_generator(LLM_POLICY, chat_models=models, contract=2)
        golden = example_item("ex-008")
        answer = EvidenceGate(store, policy=LLM_POLICY, generator=generator).ask(
            golden["question"], as_of=dt.date.fromisoformat(golden["as_of"]), trace_out=trace
        )
        (call,) = [e.event for e in read_trace(trace) if isinstance(e.event, ModelCallEvent)]
        assert call.request["chat"]["metadata"]["prompt"] == "generator.draft@v2"
        assert answer.outcome is Outcome.ANSWERED
        result = replay_trace(trace, store)
        assert result.divergence is None
        assert result.exit_code == EXIT_IDENTICAL


class TestReplayChatModel:
    def test_unknown_request_raises_mismatch(self) -> None:
        """A request with no recorded call raises ReplayMismatch naming its purpose."""
        model = ReplayChatModel("openai", "gpt-test", [])
        request = ChatRequest(
            system="s",
            messages=[ChatMessage(role="user", content="u")],
            metadata={"purpose": "draft"},
        )
        with pytest.raises(ReplayMismatch, match="purpose 'draft'"):
            model.complete(request, timeout_s=1.0)
