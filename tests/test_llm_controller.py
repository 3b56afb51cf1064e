"""The loop with scripted language models: separation of phases, the verifier's gate, fail
closed on invalid critic output, same-model refusal, usage and budgets from model calls."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from evidencegate.contracts import GatedAnswer, Outcome, StopReason
from evidencegate.critique.llm import LLMCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.generation.llm import LLMGenerator
from evidencegate.loop.controller import LoopController
from evidencegate.policy import ModelPrice, Policy
from evidencegate.providers.base import ChatRequest
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.testing import InMemoryCorpus, capture_trace, events_of_kind
from evidencegate.trace.events import DraftEvent, ModelCallEvent, RunStartEvent
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2024, 6, 1)
V2 = (
    "Employees may accept a gift with a value of up to $150 per giver per calendar year. "
    "Employees must not accept cash or cash equivalents from any customer."
)
QUESTION = "What is the maximum value of a gift an employee may accept?"
QUOTE = "a gift with a value of up to $150 per giver per calendar year"
CLAIM_TEXT = "Gifts are capped at $150 per giver in each calendar year."
PRICE = ModelPrice(input_per_mtok=1.0, output_per_mtok=4.0)


@pytest.fixture
def corpus() -> InMemoryCorpus:
    c = InMemoryCorpus()
    c.add("GIFTS", "2024.1", dt.date(2024, 3, 1), [V2])
    return c


def drafting(quote: str = QUOTE) -> ScriptedChatModel:
    """A generator model citing span E1.1, narrowed to ``quote``."""
    reply = json.dumps(
        {"claims": [{"text": CLAIM_TEXT, "citations": [{"span_id": "E1.1", "quote": quote}]}]}
    )
    return ScriptedChatModel(lambda r: reply, provider="openai", model="gen-model")


def approving(request: ChatRequest) -> str:
    """A critic model that finds the evidence sufficient and every claim supported."""
    if request.metadata["purpose"].startswith("sufficiency"):
        return json.dumps(
            {
                "judgement": "sufficient",
                "reason": "E1.1 states the limit.",
                "required_facts": ["gift value limit"],
            }
        )
    claim_ids = re.findall(r'<claim id="([^"]+)">', request.messages[0].content)
    return json.dumps(
        {
            "claims": [
                {
                    "claim_id": cid,
                    "verdict": "supported",
                    "evidence_ids": ["E1.1"],
                    "fact_ids": ["F1"],
                    "reason": "E1.1",
                }
                for cid in claim_ids
            ]
        }
    )


def loop(
    corpus: InMemoryCorpus,
    generator_model: ScriptedChatModel,
    critic_model: ScriptedChatModel,
    policy: Policy | None = None,
) -> LoopController:
    policy = policy or Policy()
    return LoopController(
        retriever=corpus,
        verifier=Verifier.from_policy(corpus, policy),
        generator=LLMGenerator(RecordingChatModel(generator_model, role="generator", price=PRICE)),
        critic=LLMCritic(RecordingChatModel(critic_model, role="critic", price=PRICE)),
        policy=policy,
    )


def run(controller: LoopController) -> tuple[GatedAnswer, TraceRecorder]:
    trace = capture_trace()
    answer = controller.run(QUESTION, as_of=AS_OF, trace=trace, run_id="test-run")
    return answer, trace


class TestLLMLoop:
    def test_critic_never_sees_the_draft_in_phase_1(self, corpus: InMemoryCorpus) -> None:
        """The sufficiency request holds no claim; the audit request holds the drafted claim."""
        critic = ScriptedChatModel(approving, provider="anthropic", model="critic-model")
        _, trace = run(loop(corpus, drafting(), critic))
        calls = events_of_kind(trace, ModelCallEvent)
        assert [c.purpose for c in calls] == ["sufficiency", "draft", "audit"]
        sufficiency, _, audit = (json.dumps(c.request) for c in calls)
        assert CLAIM_TEXT not in sufficiency and "<claim" not in sufficiency
        assert CLAIM_TEXT in audit
        assert CLAIM_TEXT not in json.dumps(critic.requests[0].model_dump())

    def test_critic_approving_a_fabricated_quote_is_overruled(self, corpus: InMemoryCorpus) -> None:
        """A quote absent from the source is dropped by the verifier whatever the critic says."""
        critic = ScriptedChatModel(approving, provider="anthropic", model="critic-model")
        answer, _ = run(
            loop(corpus, drafting("a gift with a value of up to $500 per giver"), critic)
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []
        (dropped,) = answer.dropped_claims
        assert "quote_not_found" in dropped.reasons

    def test_invalid_critic_output_twice_abstains(self, corpus: InMemoryCorpus) -> None:
        """Critic output invalid after its repair call ends the run abstained: critic_invalid."""
        generator = drafting()
        critic = ScriptedChatModel(
            lambda r: "I think it is fine.", provider="anthropic", model="critic-model"
        )
        answer, trace = run(loop(corpus, generator, critic))
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.CRITIC_INVALID
        purposes = [c.purpose for c in events_of_kind(trace, ModelCallEvent)]
        assert purposes == ["sufficiency", "sufficiency:repair"]
        assert generator.requests == []

    def test_same_model_configuration_is_refused(self, corpus: InMemoryCorpus) -> None:
        """A generator and critic on one model are refused before any call, naming the critic."""
        generator = ScriptedChatModel([], provider="openai", model="gpt-4o-mini")
        critic = ScriptedChatModel([], provider="openai", model="gpt-4o-mini")
        with pytest.raises(ConfigurationError) as info:
            loop(corpus, generator, critic)
        assert info.value.component == "openai:gpt-4o-mini"
        assert generator.requests == [] and critic.requests == []

    def test_same_model_allowed_is_recorded(self, corpus: InMemoryCorpus) -> None:
        """With allow_same_model_critic the run proceeds and run_start says so."""
        generator = drafting()
        critic = ScriptedChatModel(approving, provider="openai", model="gen-model")
        policy = Policy(allow_same_model_critic=True, same_model_critic_reason="test fixture")
        _, trace = run(loop(corpus, generator, critic, policy))
        (start,) = events_of_kind(trace, RunStartEvent)
        assert start.components["same_model_critic"] == "test fixture"

    def test_model_calls_are_traced_and_summed_into_usage(self, corpus: InMemoryCorpus) -> None:
        """Every call is a model_call event; their tokens and cost are the answer's usage."""
        critic = ScriptedChatModel(approving, provider="anthropic", model="critic-model")
        answer, trace = run(loop(corpus, drafting(), critic))
        assert answer.outcome is Outcome.ANSWERED
        (claim,) = answer.claims
        assert claim.citations[0].char_start == V2.index(QUOTE)
        calls = events_of_kind(trace, ModelCallEvent)
        usage = answer.usage
        assert usage.model_calls == len(calls) == 3
        assert usage.input_tokens == sum(c.input_tokens for c in calls) > 0
        assert usage.output_tokens == sum(c.output_tokens for c in calls) > 0
        assert usage.cost_usd == pytest.approx(sum(c.cost_usd for c in calls), abs=1e-6)
        assert usage.cost_usd > 0
        assert {c.request["chat"]["metadata"]["prompt"] for c in calls} == {
            "critic.sufficiency@v2",
            "generator.draft@v3",
            "critic.audit@v2",
        }
        (draft,) = events_of_kind(trace, DraftEvent)
        assert draft.generator == "openai:gen-model"

    def test_exhausted_token_budget_stops_the_run(self, corpus: InMemoryCorpus) -> None:
        """Once model calls spend max_tokens, the next call is not made: budget_tokens."""
        generator = drafting()
        critic = ScriptedChatModel(approving, provider="anthropic", model="critic-model")
        answer, _ = run(loop(corpus, generator, critic, Policy(max_tokens=50)))
        assert answer.stop_reason is StopReason.BUDGET_TOKENS
        assert answer.outcome is Outcome.ABSTAINED
        assert generator.requests == []
