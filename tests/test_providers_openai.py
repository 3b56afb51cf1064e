"""The OpenAI adapter, also for local OpenAI-compatible servers, through the real SDK (mocked)."""

from __future__ import annotations

import json

import httpx2
import pytest
from llm_support import AS_OF, Wire, body, in_run, openai_client, respond, timeout

from evidencegate.contracts import Passage
from evidencegate.critique.llm import LLMCritic
from evidencegate.exceptions import ConfigurationError, CriticOutputInvalid, ModelCallFailed
from evidencegate.policy import StructuredOutput
from evidencegate.providers.base import ChatMessage, ChatRequest, OutputSchema
from evidencegate.providers.openai import OpenAIChatModel
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.testing import events_of_kind
from evidencegate.trace.events import ModelCallEvent

MODEL = "gpt-4o-mini"
LOCAL = "http://127.0.0.1:8081/v1"
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


def request() -> ChatRequest:
    return ChatRequest(
        system="Be brief.",
        messages=[ChatMessage(role="user", content="Say a=1.")],
        output=SCHEMA,
        max_output_tokens=64,
        metadata={"purpose": "test"},
    )


def adapter(
    wire: Wire,
    *,
    mode: StructuredOutput = "json_schema",
    system_role: bool = True,
    base_url: str | None = None,
) -> OpenAIChatModel:
    return OpenAIChatModel(
        openai_client(wire, base_url),
        MODEL,
        structured_output=mode,
        system_role=system_role,
        setting="endpoints['openai:gemma'].structured_output",
    )


def wrapped(
    wire: Wire, *, max_retries: int = 2, sleeps: list[float] | None = None
) -> RecordingChatModel:
    return RecordingChatModel(
        adapter(wire),
        role="critic",
        max_retries=max_retries,
        sleep=(sleeps if sleeps is not None else []).append,
    )


class TestOpenAIAdapter:
    def test_json_schema_mode_sends_response_format(self) -> None:
        """json_schema mode sends the schema as response_format and the system message first."""
        wire = Wire(respond(200, "openai_chat_json"))
        response = adapter(wire).complete(request(), timeout_s=10)
        sent = wire.bodies()[0]
        assert sent["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "critic_sufficiency", "schema": SCHEMA.json_schema},
        }
        assert sent["messages"][0] == {"role": "system", "content": "Be brief."}
        assert sent["temperature"] == 0.0 and sent["max_tokens"] == 64
        assert response.content == body("openai_chat_json")["choices"][0]["message"]["content"]
        assert (response.input_tokens, response.output_tokens) == (790, 58)
        assert response.response_body == body("openai_chat_json")

    def test_json_object_mode_carries_the_schema(self) -> None:
        """json_object mode sends the schema in response_format and in the instructions."""
        wire = Wire(respond(200, "llamacpp_chat_json"))
        adapter(wire, mode="json_object", base_url=LOCAL).complete(request(), timeout_s=10)
        sent = wire.bodies()[0]
        assert sent["response_format"] == {"type": "json_object", "schema": SCHEMA.json_schema}
        assert json.dumps(SCHEMA.json_schema, sort_keys=True) in sent["messages"][0]["content"]
        assert str(wire.requests[0].url) == f"{LOCAL}/chat/completions"

    def test_without_system_role_instructions_open_the_user_message(self) -> None:
        """For chat formats without a system role the instructions lead the first user turn."""
        wire = Wire(respond(200, "llamacpp_chat_json"))
        adapter(wire, system_role=False).complete(request(), timeout_s=10)
        messages = wire.bodies()[0]["messages"]
        assert [m["role"] for m in messages] == ["user"]
        assert messages[0]["content"].startswith("Be brief.")
        assert messages[0]["content"].endswith("Say a=1.")

    def test_server_rejecting_json_schema_names_the_setting(self) -> None:
        """A local server refusing response_format json_schema (llama-cpp-python answers 500)
        is a ConfigurationError naming the endpoint setting to change, not retried."""
        wire = Wire(respond(500, "llamacpp_error_response_format"))
        model = RecordingChatModel(adapter(wire, base_url=LOCAL), role="generator")
        with pytest.raises(ConfigurationError) as info:
            model.complete(request(), timeout_s=10)
        assert info.value.component == "endpoints['openai:gemma'].structured_output"
        assert "json_object" in str(info.value) and LOCAL in str(info.value)
        assert len(wire.requests) == 1  # a refusal is not retried

    def test_429_retry_after_ms_is_honoured(self) -> None:
        """retry-after-ms takes precedence and the retried call succeeds."""
        sleeps: list[float] = []
        wire = Wire(
            respond(429, "openai_error_rate_limit", {"retry-after-ms": "1200", "retry-after": "1"}),
            respond(200, "openai_chat_json"),
        )
        with in_run() as (ctx, trace):
            wrapped(wire, sleeps=sleeps).complete(request(), timeout_s=10)
        assert sleeps == [1.2]
        assert [c.status_code for c in events_of_kind(trace, ModelCallEvent)] == [429, None]
        assert ctx.usage.model_calls == 2
        assert (ctx.usage.input_tokens, ctx.usage.output_tokens) == (790, 58)

    def test_500_then_success(self) -> None:
        """A 500 is retried after the first backoff step."""
        sleeps: list[float] = []
        wire = Wire(respond(500, "openai_error_server"), respond(200, "openai_chat_json"))
        response = wrapped(wire, sleeps=sleeps).complete(request(), timeout_s=10)
        assert sleeps == [0.5]
        assert response.finish_reason == "stop"

    def test_400_is_not_retried(self) -> None:
        """A client error other than 408/429 fails at once."""
        wire = Wire(httpx2.Response(400, json={"error": {"message": "bad", "type": "invalid"}}))
        with pytest.raises(ModelCallFailed) as info:
            wrapped(wire).complete(request(), timeout_s=10)
        assert not info.value.retryable and info.value.status_code == 400
        assert len(wire.requests) == 1

    def test_timeout_then_success(self) -> None:
        """A timed-out request is retried and its failure is traced."""
        sleeps: list[float] = []
        wire = Wire(timeout, respond(200, "openai_chat_json"))
        with in_run() as (_, trace):
            wrapped(wire, sleeps=sleeps).complete(request(), timeout_s=3)
        calls = events_of_kind(trace, ModelCallEvent)
        assert calls[0].error is not None and "no response within 3s" in calls[0].error
        assert calls[0].request["body"] == wire.bodies()[0]
        assert calls[1].error is None
        assert sleeps == [0.5]

    def test_completion_without_choices_fails(self) -> None:
        """A 200 body without choices is a failure that keeps the body, not an empty answer."""
        wire = Wire(httpx2.Response(200, json={"id": "x", "object": "chat.completion"}))
        with pytest.raises(ModelCallFailed, match="not a Chat Completions"):
            adapter(wire).complete(request(), timeout_s=10)


class TestOpenAICritic:
    """Over bodies recorded with critic contract v1 (still read, for replay)."""

    def test_success(self) -> None:
        """A valid reply becomes the critic's sufficiency judgement."""
        wire = Wire(respond(200, "openai_chat_json"))
        result = LLMCritic(wrapped(wire), contract=1).sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert result.required_facts == ["the gift value limit"]

    def test_recorded_llamacpp_reply_validates(self) -> None:
        """A reply recorded from llama-cpp-python (json_object with the schema) is accepted."""
        wire = Wire(respond(200, "llamacpp_chat_json"))
        model = RecordingChatModel(adapter(wire, mode="json_object", base_url=LOCAL), role="critic")
        result = LLMCritic(model, contract=1).sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert result.requires_more_context is False
        assert result.reason.startswith("The gift must be")

    def test_schema_invalid_then_repaired(self) -> None:
        """A schema-invalid reply gets one repair call that quotes the validation error."""
        wire = Wire(respond(200, "openai_chat_schema_invalid"), respond(200, "openai_chat_json"))
        result = LLMCritic(wrapped(wire), contract=1).sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert result.requires_more_context is False
        repair = wire.bodies()[1]["messages"]
        assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
        assert repair[2]["content"] == json.dumps(
            json.loads(body("openai_chat_schema_invalid")["choices"][0]["message"]["content"])
        )
        assert "requires_more_context: 'no' is not of type 'boolean'" in repair[3]["content"]

    def test_malformed_json_twice_fails_closed(self) -> None:
        """Malformed JSON twice raises CriticOutputInvalid naming the critic."""
        wire = Wire(respond(200, "openai_chat_malformed"), respond(200, "openai_chat_malformed"))
        with pytest.raises(CriticOutputInvalid) as info:
            LLMCritic(wrapped(wire), contract=1).sufficiency(QUESTION, [PASSAGE], as_of=AS_OF)
        assert info.value.critic == f"openai:{MODEL}"
        assert len(wire.requests) == 2
