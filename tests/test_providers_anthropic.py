"""The Anthropic adapter through the real SDK client over httpx2.MockTransport (recorded bodies)."""

from __future__ import annotations

import json

import httpx2
import pytest
from llm_support import API_KEY, AS_OF, Wire, anthropic_client, body, in_run, respond, timeout

from evidencegate.contracts import Passage
from evidencegate.critique.llm import LLMCritic
from evidencegate.exceptions import CriticOutputInvalid, ModelCallFailed
from evidencegate.providers.anthropic import AnthropicChatModel
from evidencegate.providers.base import ChatMessage, ChatRequest, OutputSchema
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.testing import events_of_kind
from evidencegate.trace.events import ModelCallEvent

MODEL = "claude-sonnet-4-6"
PASSAGE = Passage(
    passage_id="p-gifts-1",
    doc_id="GIFTS",
    version="2024.1",
    page=1,
    char_start=0,
    char_end=86,
    text="Employees may accept a gift with a value of up to $150 per giver per calendar year.",
)
QUESTION = "What is the maximum value of a gift an employee may accept?"
SCHEMA = OutputSchema(
    name="critic_sufficiency",
    json_schema={"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
)


def request(output: OutputSchema | None = SCHEMA) -> ChatRequest:
    return ChatRequest(
        system="Be brief.",
        messages=[ChatMessage(role="user", content="Say a=1.")],
        output=output,
        max_output_tokens=64,
        metadata={"purpose": "test"},
    )


def wrapped(
    wire: Wire, *, max_retries: int = 2, sleeps: list[float] | None = None
) -> RecordingChatModel:
    adapter = AnthropicChatModel(anthropic_client(wire), MODEL)
    return RecordingChatModel(
        adapter,
        role="critic",
        max_retries=max_retries,
        sleep=(sleeps if sleeps is not None else []).append,
    )


class TestAnthropicAdapter:
    def test_structured_output_is_a_forced_tool_call(self) -> None:
        """The schema is sent as the one tool the model must call; its input is the content."""
        wire = Wire(respond(200, "anthropic_tool_use"))
        response = AnthropicChatModel(anthropic_client(wire), MODEL).complete(
            request(), timeout_s=10
        )
        sent = wire.bodies()[0]
        assert sent["tools"][0]["name"] == "critic_sufficiency"
        assert sent["tools"][0]["input_schema"] == SCHEMA.json_schema
        assert sent["tool_choice"] == {"type": "tool", "name": "critic_sufficiency"}
        assert sent["system"] == "Be brief."
        assert json.loads(response.content) == body("anthropic_tool_use")["content"][0]["input"]
        assert (response.input_tokens, response.output_tokens) == (812, 64)
        assert response.response_body == body("anthropic_tool_use")
        assert response.request_body == sent

    def test_text_reply_without_tool_call_is_the_content(self) -> None:
        """A reply with text blocks and no tool call gives the text (validation judges it)."""
        wire = Wire(respond(200, "anthropic_text_malformed"))
        response = AnthropicChatModel(anthropic_client(wire), MODEL).complete(
            request(), timeout_s=10
        )
        assert response.content == body("anthropic_text_malformed")["content"][0]["text"]
        assert response.finish_reason == "max_tokens"

    def test_per_call_timeout_reaches_the_transport(self) -> None:
        """The timeout given for the call is the read timeout of the HTTP request."""
        wire = Wire(respond(200, "anthropic_tool_use"))
        AnthropicChatModel(anthropic_client(wire), MODEL).complete(request(), timeout_s=7)
        assert wire.requests[0].extensions["timeout"]["read"] == 7

    def test_body_that_is_not_json_fails_without_retry(self) -> None:
        """A 200 whose body is not JSON is a non-retryable failure that keeps the body."""
        wire = Wire(httpx2.Response(200, text="<html>gateway</html>"))
        with pytest.raises(ModelCallFailed) as info:
            wrapped(wire).complete(request(), timeout_s=10)
        assert not info.value.retryable
        assert info.value.response_body == {"text": "<html>gateway</html>"}
        assert len(wire.requests) == 1

    def test_json_that_is_not_a_message_fails(self) -> None:
        """A JSON body that is not a Messages API object fails naming it, keeping the body."""
        wire = Wire(httpx2.Response(200, json={"foo": 1}))
        with pytest.raises(ModelCallFailed, match="not a Messages API") as info:
            AnthropicChatModel(anthropic_client(wire), MODEL).complete(request(), timeout_s=10)
        assert info.value.response_body == {"foo": 1}

    def test_429_waits_the_retry_after_then_succeeds(self) -> None:
        """A 429 is retried after the server's retry-after, and both attempts are traced."""
        sleeps: list[float] = []
        wire = Wire(
            respond(429, "anthropic_error_rate_limit", {"retry-after": "3"}),
            respond(200, "anthropic_tool_use"),
        )
        with in_run() as (_, trace):
            wrapped(wire, sleeps=sleeps).complete(request(), timeout_s=10)
        assert sleeps == [3.0]
        calls = events_of_kind(trace, ModelCallEvent)
        assert [(c.attempt, c.status_code) for c in calls] == [(1, 429), (2, None)]
        assert calls[0].response == {"body": body("anthropic_error_rate_limit")}
        assert calls[1].response is not None
        assert calls[1].response["body"] == body("anthropic_tool_use")

    def test_500_is_retried_with_backoff_until_the_limit(self) -> None:
        """Server errors are retried max_retries times with doubling waits, then raised."""
        sleeps: list[float] = []
        wire = Wire(*(respond(500, "anthropic_error_api") for _ in range(3)))
        with pytest.raises(ModelCallFailed) as info:
            wrapped(wire, max_retries=2, sleeps=sleeps).complete(request(), timeout_s=10)
        assert info.value.status_code == 500
        assert sleeps == [0.5, 1.0]
        assert len(wire.requests) == 3

    def test_sdk_does_not_retry_on_its_own(self) -> None:
        """With no retries allowed, one failing request is exactly one HTTP request."""
        wire = Wire(respond(500, "anthropic_error_api"))
        with pytest.raises(ModelCallFailed):
            wrapped(wire, max_retries=0).complete(request(), timeout_s=10)
        assert len(wire.requests) == 1

    def test_timeout_is_retryable_and_named(self) -> None:
        """A transport timeout is retried, then fails naming the timeout."""
        sleeps: list[float] = []
        wire = Wire(timeout, timeout)
        with pytest.raises(ModelCallFailed, match="no response within 5s") as info:
            wrapped(wire, max_retries=1, sleeps=sleeps).complete(request(), timeout_s=5)
        assert info.value.retryable
        assert sleeps == [0.5]

    def test_api_key_never_recorded(self) -> None:
        """The trace of a call holds the bodies, never the API key."""
        wire = Wire(respond(200, "anthropic_tool_use"))
        with in_run() as (_, trace):
            wrapped(wire).complete(request(), timeout_s=10)
        recorded = "".join(line.model_dump_json() for line in trace.lines)
        assert API_KEY not in recorded
        assert API_KEY in str(wire.requests[0].headers.get("x-api-key", "")) + str(
            wire.requests[0].headers.get("authorization", "")
        )


class TestAnthropicCritic:
    """Over bodies recorded with critic contract v1 (still read, for replay)."""

    def test_schema_invalid_reply_is_repaired_once(self) -> None:
        """A schema-invalid tool input gets one repair call quoting the error, then passes."""
        wire = Wire(
            respond(200, "anthropic_tool_use_schema_invalid"), respond(200, "anthropic_tool_use")
        )
        critic = LLMCritic(wrapped(wire), contract=1)
        result = critic.sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert result.requires_more_context is False
        repair = wire.bodies()[1]["messages"]
        assert [m["role"] for m in repair] == ["user", "assistant", "user"]
        assert "requires_more_context" in repair[2]["content"]
        assert "not of type 'boolean'" in repair[2]["content"]

    def test_malformed_twice_is_critic_output_invalid(self) -> None:
        """Malformed JSON, then malformed again after the repair call, fails closed."""
        wire = Wire(
            respond(200, "anthropic_text_malformed"), respond(200, "anthropic_text_malformed")
        )
        critic = LLMCritic(wrapped(wire), contract=1)
        with pytest.raises(CriticOutputInvalid) as info:
            critic.sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert info.value.critic == f"anthropic:{MODEL}"
        assert "not JSON" in info.value.errors[0]
        assert len(wire.requests) == 2
