"""Helpers of the language-model tests: recorded bodies, a replaying wire, scripted replies.

The vendor SDKs send through ``httpx2`` (their HTTP client); a :class:`Wire` is the handler of an
``httpx2.MockTransport`` that answers each request with the next recorded response and keeps
every request, so tests read exactly what went over the wire. Nothing reaches the network.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai

from evidencegate.loop.budget import Budget, RunUsage
from evidencegate.loop.context import RunContext
from evidencegate.policy import Policy
from evidencegate.runscope import run_scope
from evidencegate.testing import capture_trace
from evidencegate.trace.recorder import TraceRecorder

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "llm"
API_KEY = "sk-test-0123456789abcdef"
AS_OF = dt.date(2024, 6, 1)

Answer = httpx2.Response | Callable[[httpx2.Request], httpx2.Response]


def body(name: str) -> dict[str, Any]:
    """A recorded response body from tests/fixtures/llm/NAME.json."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def respond(status: int, name: str, headers: Mapping[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(status, json=body(name), headers=dict(headers or {}))


def timeout(request: httpx2.Request) -> httpx2.Response:
    """An answer that never comes: the transport times out."""
    raise httpx2.ReadTimeout("timed out", request=request)


class Wire:
    """Answers requests with ``answers`` in order and keeps every request."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if not self.answers:
            raise AssertionError(f"unexpected request {len(self.requests)} to {request.url}")
        answer = self.answers.pop(0)
        return answer(request) if callable(answer) else answer

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]


def anthropic_client(wire: Wire) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        api_key=API_KEY, http_client=httpx2.Client(transport=httpx2.MockTransport(wire))
    )


def openai_client(wire: Wire, base_url: str | None = None) -> openai.OpenAI:
    return openai.OpenAI(
        api_key=API_KEY,
        base_url=base_url,
        http_client=httpx2.Client(transport=httpx2.MockTransport(wire)),
    )


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def in_run(
    policy: Policy | None = None, *, clock: FakeClock | None = None
) -> Iterator[tuple[RunContext, TraceRecorder]]:
    """A run context as the controller enters it, over an in-memory trace."""
    policy = policy or Policy()
    trace = capture_trace()
    ctx = RunContext(
        run_id="test-run",
        trace=trace,
        usage=RunUsage(clock=clock or FakeClock()),
        budget=Budget.from_policy(policy),
        policy=policy,
    )
    with run_scope(ctx):
        yield ctx, trace
