"""One door for models: however a model enters (spec, ChatModel, role object), its calls are
recorded and budgeted, the critic is kept apart from the generator, and the run replays."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from evidencegate.audit.replay import EXIT_IDENTICAL, replay_trace
from evidencegate.contracts import GatedAnswer, Outcome, StopReason
from evidencegate.corpus import Store
from evidencegate.critique.llm import LLMCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.gate import EvidenceGate
from evidencegate.generation.llm import LLMGenerator
from evidencegate.policy import ModelPrice
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.testing import careful_model
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import ModelCallEvent, RunStartEvent, TraceEvent

AS_OF = dt.date(2024, 6, 1)
QUESTION = "What is the maximum value of a gift an employee may accept per giver?"
UNANSWERABLE = "How many days of parental leave does an employee get?"
POLICY_TEXT = """---
doc_id: GIFTS
version: "2024.1"
version_date: 2024-03-01
authority: primary
title: Gifts policy
---
# Gifts policy

## 4. Gifts

Employees may accept a gift with a value of up to $150 per giver per calendar year.

Employees must not accept cash or cash equivalents from any customer.
"""
PRICES = {
    "scripted:careful-gen": ModelPrice(input_per_mtok=1.0, output_per_mtok=4.0),
    "scripted:careful-critic": ModelPrice(input_per_mtok=1.0, output_per_mtok=4.0),
}
PRICED: dict[str, Any] = {
    "name": "priced",
    "prices": {k: v.model_dump() for k, v in PRICES.items()},
}


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("door")
    source = root / "GIFTS_2024.1.md"
    source.write_text(POLICY_TEXT, encoding="utf-8")
    with Store.open(root / "store") as store:
        store.ingest([source])
    return root / "store"


@pytest.fixture
def store(store_dir: Path) -> Iterator[Store]:
    with Store.open(store_dir, create=False) as opened:
        yield opened


def ask(gate: EvidenceGate, trace: Path, question: str = QUESTION) -> GatedAnswer:
    return gate.ask(question, as_of=AS_OF, trace_out=trace)


def events(trace: Path) -> list[TraceEvent]:
    return [line.event for line in read_trace(trace)]


class TestChatModelsThroughTheAPI:
    def test_model_calls_are_recorded_with_usage(self, store: Store, tmp_path: Path) -> None:
        """ChatModels given to the gate answer through the loop; every call is a model_call
        event with tokens and cost, summed into the answer's usage."""
        trace = tmp_path / "run.jsonl"
        gate = EvidenceGate(
            store,
            policy=PRICED,
            generator=careful_model(model="careful-gen"),
            critic=careful_model(model="careful-critic"),
        )
        answer = ask(gate, trace)
        assert answer.outcome is Outcome.ANSWERED, answer.gaps
        (claim,) = answer.claims
        assert "$150 per giver" in claim.citations[0].quote
        calls = [e for e in events(trace) if isinstance(e, ModelCallEvent)]
        assert [(c.role, c.purpose) for c in calls] == [
            ("critic", "sufficiency"),
            ("generator", "draft"),
            ("critic", "audit"),
        ]
        assert all(c.input_tokens > 0 and c.output_tokens > 0 and c.cost_usd > 0 for c in calls)
        assert answer.usage.model_calls == 3
        assert answer.usage.input_tokens == sum(c.input_tokens for c in calls)
        assert answer.usage.cost_usd == pytest.approx(sum(c.cost_usd for c in calls), abs=1e-6)

    def test_run_start_names_the_real_components(self, store: Store, tmp_path: Path) -> None:
        """run_start names the models given, in its components and in the recorded policy."""
        trace = tmp_path / "run.jsonl"
        gate = EvidenceGate(
            store,
            policy=PRICED,
            generator=careful_model(model="careful-gen"),
            critic=careful_model(model="careful-critic"),
        )
        ask(gate, trace)
        start = events(trace)[0]
        assert isinstance(start, RunStartEvent)
        assert start.components["generator"] == "scripted:careful-gen"
        assert start.components["critic"] == "scripted:careful-critic"
        assert start.policy["generator"] == "scripted:careful-gen"
        assert start.policy["critic"] == "scripted:careful-critic"

    def test_replay_of_an_api_wired_run_is_identical(self, store: Store, tmp_path: Path) -> None:
        """A run whose models were given through the API replays byte for byte (exit 0)."""
        for question in (QUESTION, UNANSWERABLE):
            trace = tmp_path / f"{len(question)}.jsonl"
            gate = EvidenceGate(
                store,
                policy=PRICED,
                generator=careful_model(model="careful-gen"),
                critic=careful_model(model="careful-critic"),
            )
            answer = ask(gate, trace, question)
            result = replay_trace(trace, store)
            assert result.divergence is None, result.divergence
            assert result.replayed_answer == answer
            assert result.exit_code == EXIT_IDENTICAL

    def test_an_unanswerable_question_abstains(self, store: Store, tmp_path: Path) -> None:
        """With no span answering the question the model-backed loop abstains."""
        gate = EvidenceGate(
            store,
            policy=PRICED,
            generator=careful_model(model="careful-gen"),
            critic=careful_model(model="careful-critic"),
        )
        answer = ask(gate, tmp_path / "run.jsonl", UNANSWERABLE)
        assert answer.outcome is Outcome.ABSTAINED and answer.claims == []


class TestRoleObjectsThroughTheAPI:
    def test_a_generator_around_a_bare_model_is_recorded(
        self, store: Store, tmp_path: Path
    ) -> None:
        """An LLMGenerator/LLMCritic built around unwrapped models still records every call."""
        trace = tmp_path / "run.jsonl"
        gate = EvidenceGate(
            store,
            policy=PRICED,
            generator=LLMGenerator(careful_model(model="careful-gen"), max_output_tokens=300),
            critic=LLMCritic(careful_model(model="careful-critic")),
        )
        answer = ask(gate, trace)
        calls = [e for e in events(trace) if isinstance(e, ModelCallEvent)]
        assert answer.usage.model_calls == len(calls) == 3
        assert gate.policy.endpoints["scripted:careful-gen"].max_output_tokens == 300
        assert replay_trace(trace, store).exit_code == EXIT_IDENTICAL

    def test_a_wrapper_price_given_with_the_model_is_the_runs_price(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A price set on a RecordingChatModel is what the run charges and what replay uses."""
        price = ModelPrice(input_per_mtok=10.0, output_per_mtok=10.0)
        trace = tmp_path / "run.jsonl"
        generator = RecordingChatModel(
            careful_model(model="careful-gen"), role="generator", price=price
        )
        gate = EvidenceGate(
            store, policy=PRICED, generator=generator, critic=careful_model(model="careful-critic")
        )
        ask(gate, trace)
        assert gate.policy.prices["scripted:careful-gen"] == price
        draft = next(
            e for e in events(trace) if isinstance(e, ModelCallEvent) and e.purpose == "draft"
        )
        assert draft.cost_usd == pytest.approx((draft.input_tokens + draft.output_tokens) / 1e5)
        assert replay_trace(trace, store).exit_code == EXIT_IDENTICAL

    def test_something_else_is_refused_naming_it(self, store: Store) -> None:
        """A generator that is neither a spec, a model nor a role is a ConfigurationError."""
        with pytest.raises(ConfigurationError, match="'int' is neither"):
            EvidenceGate(store, generator=42)  # type: ignore[arg-type]

    def test_open_accepts_specs(self, store_dir: Path) -> None:
        """EvidenceGate.open takes a provider:model spec, built from the policy's endpoints."""
        policy = {
            "name": "local",
            "max_cost_usd": 0,
            "endpoints": {
                "openai": {"base_url": "http://127.0.0.1:9/v1", "api_key_required": False}
            },
        }
        with EvidenceGate.open(
            store_dir, policy=policy, generator="openai:small-gen", critic="openai:small-critic"
        ) as gate:
            assert gate.controller.generator.component_id == "openai:small-gen"
            assert gate.controller.critic.component_id == "openai:small-critic"
            assert gate.policy.generator == "openai:small-gen"


class TestBudgets:
    def test_cost_budget_of_zero_stops_before_a_priced_call(
        self, store: Store, tmp_path: Path
    ) -> None:
        """max_cost_usd: 0 with priced models stops the run, budget_cost, before any call."""
        generator = careful_model(model="careful-gen")
        critic = careful_model(model="careful-critic")
        gate = EvidenceGate(
            store, policy={**PRICED, "max_cost_usd": 0}, generator=generator, critic=critic
        )
        answer = ask(gate, tmp_path / "run.jsonl")
        assert answer.stop_reason is StopReason.BUDGET_COST
        assert answer.outcome is Outcome.ABSTAINED
        assert any("max_cost_usd" in gap for gap in answer.gaps)
        assert generator.requests == [] and critic.requests == []

    def test_unpriced_local_models_run_under_a_zero_cost_budget(
        self, store: Store, tmp_path: Path
    ) -> None:
        """Models without a price (local servers) cost nothing: max_cost_usd: 0 lets them run."""
        gate = EvidenceGate(
            store,
            policy={"name": "local", "max_cost_usd": 0},
            generator=careful_model(model="careful-gen"),
            critic=careful_model(model="careful-critic"),
        )
        assert ask(gate, tmp_path / "run.jsonl").outcome is Outcome.ANSWERED

    def test_call_budget_stops_the_run(self, store: Store, tmp_path: Path) -> None:
        """max_model_calls caps the calls of a run: the next one stops it, budget_calls."""
        generator = careful_model(model="careful-gen")
        gate = EvidenceGate(
            store,
            policy={**PRICED, "max_model_calls": 1},
            generator=generator,
            critic=careful_model(model="careful-critic"),
        )
        answer = ask(gate, tmp_path / "run.jsonl")
        assert answer.stop_reason is StopReason.BUDGET_CALLS
        assert answer.usage.model_calls == 1 and generator.requests == []

    def test_unpriced_model_under_a_cost_budget_is_refused(self, store: Store) -> None:
        """A model given without a price while max_cost_usd > 0 is refused before any call."""
        with pytest.raises(ConfigurationError, match="no entry in the policy's prices"):
            EvidenceGate(
                store,
                generator=careful_model(model="careful-gen"),
                critic=careful_model(model="careful-critic"),
            )


class TestSeparation:
    def test_the_same_object_is_refused(self, store: Store) -> None:
        """One ChatModel object as generator and critic is refused before any call."""
        model = careful_model(model="careful-gen")
        with pytest.raises(ConfigurationError, match="same model as the generator"):
            EvidenceGate(store, policy=PRICED, generator=model, critic=model)
        assert model.requests == []

    def test_the_same_provider_and_model_is_refused(self, store: Store) -> None:
        """Two objects naming one provider:model are the same model: refused."""
        with pytest.raises(ConfigurationError, match="same model") as info:
            EvidenceGate(
                store,
                policy=PRICED,
                generator=careful_model(model="careful-gen"),
                critic=LLMCritic(careful_model(model="careful-gen")),
            )
        assert info.value.component == "scripted:careful-gen"

    def test_role_objects_around_one_model_object_are_refused(self, store: Store) -> None:
        """A generator and a critic built around one model object are refused, whatever their
        names say."""
        shared = ScriptedChatModel([], provider="scripted", model="careful-gen")
        with pytest.raises(ConfigurationError, match="same model"):
            EvidenceGate(
                store, policy=PRICED, generator=LLMGenerator(shared), critic=LLMCritic(shared)
            )

    def test_allowed_with_a_reason_which_is_recorded(self, store: Store, tmp_path: Path) -> None:
        """With allow_same_model_critic and a stated reason the run goes on; run_start records
        the reason."""
        model = careful_model(model="careful-gen")
        policy = {
            **PRICED,
            "allow_same_model_critic": True,
            "same_model_critic_reason": "single approved on-premise model",
        }
        trace = tmp_path / "run.jsonl"
        ask(EvidenceGate(store, policy=policy, generator=model, critic=model), trace)
        start = events(trace)[0]
        assert isinstance(start, RunStartEvent)
        assert start.components["same_model_critic"] == "single approved on-premise model"
