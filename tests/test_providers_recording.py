"""The recording wrapper (trace, usage, budgets, timeout, retries) and structured output."""

from __future__ import annotations

import email.utils

import pytest
from llm_support import FakeClock, in_run

from evidencegate.canonical import canonical_json_v1, sha256_hex
from evidencegate.exceptions import BudgetExceeded, ModelCallFailed, ModelOutputInvalid
from evidencegate.policy import ModelPrice, Policy, TimeBudget
from evidencegate.providers.base import (
    ChatMessage,
    ChatRequest,
    ChatResponse,
    OutputSchema,
    retry_after_seconds,
)
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.providers.scripted import ScriptedChatModel, estimate_tokens
from evidencegate.providers.structured import complete_json
from evidencegate.testing import events_of_kind
from evidencegate.trace.events import ModelCallEvent

SCHEMA = OutputSchema(
    name="answer",
    json_schema={
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    },
)
PRICE = ModelPrice(input_per_mtok=3.0, output_per_mtok=15.0)


def request(purpose: str = "draft") -> ChatRequest:
    return ChatRequest(
        system="Answer in JSON.",
        messages=[ChatMessage(role="user", content="What is a?")],
        output=SCHEMA,
        metadata={"purpose": purpose, "prompt": "test@v1", "prompt_sha256": "0" * 64},
    )


def reply(content: str, tokens: tuple[int, int] = (1000, 200)) -> ChatResponse:
    return ChatResponse(
        content=content,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        request_body={"sent": True},
        response_body={"received": content},
    )


def transient(status: int = 503, retry_after: float | None = None) -> ModelCallFailed:
    return ModelCallFailed(
        "overloaded",
        provider="scripted",
        model="scripted-1",
        status_code=status,
        retryable=True,
        retry_after=retry_after,
    )


class TestRecordingChatModel:
    def test_call_is_traced_with_bodies_tokens_and_cost(self) -> None:
        """A call emits one model_call event with the bodies, tokens and priced cost, and adds
        them to the run's usage."""
        model = RecordingChatModel(
            ScriptedChatModel([reply('{"a": 1}')]), role="generator", price=PRICE
        )
        with in_run() as (ctx, trace):
            model.complete(request(), timeout_s=5)
        (event,) = events_of_kind(trace, ModelCallEvent)
        assert event.role == "generator" and event.component == "scripted:scripted-1"
        assert event.purpose == "draft"
        assert event.request == {"chat": request().model_dump(mode="json"), "body": {"sent": True}}
        assert event.request["chat"]["metadata"]["prompt"] == "test@v1"
        assert event.request_sha256 == sha256_hex(
            canonical_json_v1(
                {
                    "provider": "scripted",
                    "model": "scripted-1",
                    "request": request().model_dump(mode="json"),
                }
            )
        )
        assert event.response is not None and event.response["body"] == {"received": '{"a": 1}'}
        assert event.response["content"] == '{"a": 1}'
        assert event.cost_usd == pytest.approx((1000 * 3.0 + 200 * 15.0) / 1e6)
        usage = ctx.usage.snapshot()
        assert (usage.model_calls, usage.input_tokens, usage.output_tokens) == (1, 1000, 200)
        assert usage.cost_usd == pytest.approx(0.006)

    def test_token_budget_is_checked_before_the_call(self) -> None:
        """With the token budget spent, no request is made and BudgetExceeded names it."""
        inner = ScriptedChatModel([reply('{"a": 1}')])
        with in_run(Policy(max_tokens=1000)) as (ctx, _), pytest.raises(BudgetExceeded) as info:
            ctx.usage.input_tokens = 1000
            RecordingChatModel(inner, role="critic").complete(request(), timeout_s=5)
        assert info.value.limit == "max_tokens"
        assert inner.requests == []

    def test_cost_budget_is_checked_before_the_call(self) -> None:
        """With the cost budget spent, no request is made."""
        inner = ScriptedChatModel([reply('{"a": 1}')])
        with in_run(Policy(max_cost_usd=0.01)) as (ctx, _), pytest.raises(BudgetExceeded) as info:
            ctx.usage.cost_usd = 0.01
            RecordingChatModel(inner, role="critic").complete(request(), timeout_s=5)
        assert info.value.limit == "max_cost_usd"
        assert inner.requests == []

    def test_call_timeout_is_capped_by_the_run_time_left(self) -> None:
        """The per-call timeout never outlasts the run's remaining time."""
        seen: list[float] = []

        class Timed(ScriptedChatModel):
            def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
                seen.append(timeout_s)
                return super().complete(request, timeout_s=timeout_s)

        clock = FakeClock()
        policy = Policy(time_budget=TimeBudget(per_call_s=30, per_run_s=60))
        with in_run(policy, clock=clock):
            clock.now = 50.0
            RecordingChatModel(Timed(['{"a": 1}']), role="critic").complete(request(), timeout_s=30)
        assert seen == [10.0]

    def test_retry_after_beyond_max_backoff_is_not_waited_for(self) -> None:
        """A retry-after longer than max_backoff_s fails at once, naming both numbers."""
        sleeps: list[float] = []
        inner = ScriptedChatModel([transient(429, retry_after=120), reply('{"a": 1}')])
        model = RecordingChatModel(inner, role="critic", max_backoff_s=30, sleep=sleeps.append)
        with pytest.raises(ModelCallFailed, match=r"retry in 120s exceeds max_backoff_s=30"):
            model.complete(request(), timeout_s=5)
        assert sleeps == []

    def test_wait_beyond_the_run_budget_stops_the_run(self) -> None:
        """A backoff that would outlast the run's time budget raises BudgetExceeded(time)."""
        sleeps: list[float] = []
        clock = FakeClock()
        policy = Policy(time_budget=TimeBudget(per_call_s=5, per_run_s=10))
        inner = ScriptedChatModel([transient(429, retry_after=8), reply('{"a": 1}')])
        model = RecordingChatModel(inner, role="critic", sleep=sleeps.append)
        with in_run(policy, clock=clock), pytest.raises(BudgetExceeded) as info:
            clock.now = 5.0
            model.complete(request(), timeout_s=5)
        assert info.value.limit == "time_budget.per_run_s"
        assert sleeps == []

    def test_non_retryable_failure_is_traced_and_raised(self) -> None:
        """A non-retryable failure is recorded with its error and raised on the first attempt."""
        failure = ModelCallFailed("bad request", provider="p", model="m", status_code=400)
        inner = ScriptedChatModel([failure])
        with in_run() as (_, trace), pytest.raises(ModelCallFailed):
            RecordingChatModel(inner, role="critic").complete(request(), timeout_s=5)
        (event,) = events_of_kind(trace, ModelCallEvent)
        assert event.status_code == 400 and event.error is not None and event.response is None

    def test_outside_a_run_it_still_retries(self) -> None:
        """Called outside a run there is no trace, but retries still happen."""
        sleeps: list[float] = []
        inner = ScriptedChatModel([transient(), reply('{"a": 1}')])
        response = RecordingChatModel(inner, role="critic", sleep=sleeps.append).complete(
            request(), timeout_s=5
        )
        assert response.content == '{"a": 1}'
        assert sleeps == [0.5]

    def test_negative_retries_rejected(self) -> None:
        """max_retries below zero is a clear error."""
        with pytest.raises(ValueError, match="max_retries"):
            RecordingChatModel(ScriptedChatModel([]), role="critic", max_retries=-1)


class TestRetryAfter:
    def test_seconds(self) -> None:
        """retry-after in seconds."""
        assert retry_after_seconds({"retry-after": "7"}) == 7.0

    def test_milliseconds_win(self) -> None:
        """retry-after-ms is preferred."""
        assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "7"}) == 0.25

    def test_http_date(self) -> None:
        """retry-after as an HTTP date counts from now."""
        date = email.utils.formatdate(1_000_030, usegmt=True)
        assert retry_after_seconds({"retry-after": date}, now=1_000_000) == 30.0

    def test_unreadable_or_absent(self) -> None:
        """An unreadable or missing header gives None."""
        assert retry_after_seconds({"retry-after": "soon"}) is None
        assert retry_after_seconds({}) is None


class TestCompleteJson:
    def test_fenced_json_is_accepted(self) -> None:
        """A reply wrapped in a Markdown code fence is read as its JSON."""
        model = ScriptedChatModel(['```json\n{"a": 2}\n```'])
        assert complete_json(model, request(), timeout_s=5, component="c") == {"a": 2}

    def test_one_repair_quoting_the_error(self) -> None:
        """An invalid reply gets exactly one repair call that quotes the validation error."""
        model = ScriptedChatModel(['{"a": "two"}', '{"a": 2}'])
        assert complete_json(model, request(), timeout_s=5, component="c") == {"a": 2}
        repair = model.requests[1]
        assert repair.metadata["purpose"] == "draft:repair"
        assert repair.messages[1] == ChatMessage(role="assistant", content='{"a": "two"}')
        assert "a: 'two' is not of type 'integer'" in repair.messages[2].content

    def test_invalid_twice_raises_with_errors(self) -> None:
        """Two invalid replies raise ModelOutputInvalid naming the component and the errors."""
        model = ScriptedChatModel(["[1, 2]", '{"b": 1}'])
        with pytest.raises(ModelOutputInvalid) as info:
            complete_json(model, request(), timeout_s=5, component="openai:m")
        assert info.value.component == "openai:m"
        assert any("'a' is a required property" in e for e in info.value.errors)
        assert len(model.requests) == 2

    def test_check_errors_trigger_the_repair(self) -> None:
        """Errors from the extra check count as invalid output."""
        model = ScriptedChatModel(['{"a": 3}', '{"a": 4}'])
        data = complete_json(
            model,
            request(),
            timeout_s=5,
            component="c",
            check=lambda d: [] if d["a"] % 2 == 0 else ["a must be even"],
        )
        assert data == {"a": 4}
        assert "a must be even" in model.requests[1].messages[2].content


class TestScriptedChatModel:
    def test_function_replies_and_token_estimate(self) -> None:
        """A function answers each request; tokens are estimated at four characters each."""
        model = ScriptedChatModel(lambda r: r.messages[0].content.upper())
        response = model.complete(request(), timeout_s=1)
        assert response.content == "WHAT IS A?"
        assert response.output_tokens == estimate_tokens("WHAT IS A?") == 3

    def test_exhausted_script_fails(self) -> None:
        """A request beyond the script is a non-retryable failure."""
        model = ScriptedChatModel(['{"a": 1}'])
        model.complete(request(), timeout_s=1)
        with pytest.raises(ModelCallFailed, match="script exhausted after 1 replies"):
            model.complete(request(), timeout_s=1)
