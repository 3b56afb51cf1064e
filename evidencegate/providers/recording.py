"""The wrapper every model call of a run goes through: trace, usage, budgets, timeout, retries.

Like pydantic-ai's ``InstrumentedModel`` it wraps a :class:`ChatModel` instead of living inside
one. Within a run (:func:`~evidencegate.runscope.current_run`), before each attempt it
checks the run's call, time, token and cost budgets (raising
:class:`~evidencegate.exceptions.BudgetExceeded`, which the controller turns into a stop); it
caps the call's timeout at the run's remaining time; after each attempt it emits a
:class:`~evidencegate.trace.events.ModelCallEvent` with the verbatim request and response bodies
and adds tokens and cost to the run's usage. 408, 429, 5xx, timeouts and connection errors are
retried at most ``max_retries`` times with exponential backoff that honours the server's
retry-after. Outside a run it only retries.

It is the one door for models: every model-backed component
(:class:`~evidencegate.providers.base.ModelComponent`) wraps the model it is given in one, so a
model passed through the Python API is recorded and budgeted like one named in a policy. The
price and the retry count not given here come from the run's policy (``prices`` and
``endpoints`` of ``provider:model``), so that a replay under the recorded policy reproduces them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from evidencegate.exceptions import BudgetExceeded, ModelCallFailed
from evidencegate.policy import ModelPrice, Policy
from evidencegate.providers.base import ChatModel, ChatRequest, ChatResponse, close_model
from evidencegate.runscope import RunScope, current_run
from evidencegate.trace.events import ModelCallEvent

__all__ = ["RecordingChatModel"]


class RecordingChatModel:
    """Wraps ``inner`` for the component playing ``role`` (generator, critic, ...).

    ``backoff_s`` is the first retry's delay, doubled per retry; a wait longer than
    ``max_backoff_s`` (the server's retry-after included) is not waited for: the call fails.
    ``sleep`` and ``clock`` are injectable so that tests never wait.
    """

    def __init__(
        self,
        inner: ChatModel,
        *,
        role: str,
        price: ModelPrice | None = None,
        max_retries: int | None = None,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_retries is not None and max_retries < 0:
            raise ValueError(f"max_retries must be >= 0 (got {max_retries})")
        self.inner = inner
        self.role = role
        self.price = price
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.sleep = sleep
        self.clock = clock

    @property
    def provider(self) -> str:
        return self.inner.provider

    @property
    def spec(self) -> str:
        """``provider:model``: the key of the model's price and endpoint in a policy."""
        return f"{self.provider}:{self.model}"

    @property
    def model(self) -> str:
        return self.inner.model

    def close(self) -> None:
        close_model(self.inner)

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        ctx = current_run()
        price = self._price(ctx)
        max_retries = self._max_retries(ctx)
        attempt = 0
        while True:
            attempt += 1
            call_timeout = timeout_s
            if ctx is not None:
                call_timeout = min(timeout_s, ctx.check_model_call(priced=_priced(price)))
            started = self.clock()
            try:
                response = self.inner.complete(request, timeout_s=call_timeout)
            except Exception as exc:
                latency = self.clock() - started
                if ctx is not None:
                    self._record_failure(ctx, request, attempt, exc, latency)
                if not isinstance(exc, ModelCallFailed) or not exc.retryable:
                    raise
                if attempt > max_retries:
                    raise
                delay = self._delay(attempt, exc)
                if ctx is not None:
                    try:
                        ctx.check_wait(delay)
                    except BudgetExceeded as spent:
                        raise spent from exc
                self.sleep(delay)
                continue
            if ctx is not None:
                self._record_success(
                    ctx, request, attempt, response, self.clock() - started, price=price
                )
            return response

    def _price(self, ctx: RunScope | None) -> ModelPrice | None:
        if self.price is not None or ctx is None:
            return self.price
        return ctx.policy.prices.get(self.spec)

    def _max_retries(self, ctx: RunScope | None) -> int:
        if self.max_retries is not None:
            return self.max_retries
        return (ctx.policy if ctx is not None else Policy()).endpoint(self.spec).max_retries

    def _delay(self, attempt: int, exc: ModelCallFailed) -> float:
        """Exponential backoff, never shorter than the server's retry-after."""
        delay: float = self.backoff_s * 2.0 ** (attempt - 1)
        if exc.retry_after is not None:
            delay = max(delay, exc.retry_after)
        if delay > self.max_backoff_s:
            raise ModelCallFailed(
                f"retry in {delay:g}s exceeds max_backoff_s={self.max_backoff_s:g} "
                f"(after attempt {attempt}: {exc})",
                provider=self.provider,
                model=self.model,
                status_code=exc.status_code,
            ) from exc
        return delay

    @staticmethod
    def _cost(response: ChatResponse, price: ModelPrice | None) -> float:
        if price is None:
            return 0.0
        return (
            response.input_tokens * price.input_per_mtok
            + response.output_tokens * price.output_per_mtok
        ) / 1_000_000

    def _record_success(
        self,
        ctx: RunScope,
        request: ChatRequest,
        attempt: int,
        response: ChatResponse,
        latency_s: float,
        *,
        price: ModelPrice | None,
    ) -> None:
        cost = self._cost(response, price)
        self._emit(
            ctx,
            request,
            attempt,
            body=response.request_body,
            latency_s=latency_s,
            response={
                "body": response.response_body,
                "content": response.content,
                "finish_reason": response.finish_reason,
                "model": response.model,
            },
            input_tokens=response.input_tokens,
            output_tokens=response.output_tokens,
            cost_usd=cost,
        )

    def _record_failure(
        self, ctx: RunScope, request: ChatRequest, attempt: int, exc: Exception, latency_s: float
    ) -> None:
        failed = exc if isinstance(exc, ModelCallFailed) else None
        self._emit(
            ctx,
            request,
            attempt,
            body=failed.request_body if failed else None,
            latency_s=latency_s,
            response=({"body": failed.response_body} if failed and failed.response_body else None),
            error=f"{type(exc).__name__}: {exc}",
            status_code=failed.status_code if failed else None,
        )

    def _emit(
        self,
        ctx: RunScope,
        request: ChatRequest,
        attempt: int,
        *,
        body: dict[str, Any] | None,
        latency_s: float,
        response: dict[str, Any] | None,
        error: str | None = None,
        status_code: int | None = None,
        input_tokens: int = 0,
        output_tokens: int = 0,
        cost_usd: float = 0.0,
    ) -> None:
        ctx.record_model_call(
            ModelCallEvent(
                pass_no=max(ctx.pass_no, 1),
                role=self.role,
                component=f"{self.provider}:{self.model}",
                provider=self.provider,
                model=self.model,
                attempt=attempt,
                purpose=request.metadata.get("purpose", ""),
                request={"chat": request.model_dump(mode="json"), "body": body},
                request_sha256=request.sha256(provider=self.provider, model=self.model),
                response=response,
                error=error,
                status_code=status_code,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                cost_usd=cost_usd,
                latency_ms=round(latency_s * 1000, 3),
            )
        )


def _priced(price: ModelPrice | None) -> bool:
    """Does a call to a model at ``price`` cost money? (Unpriced models cost nothing.)"""
    return price is not None and (price.input_per_mtok > 0 or price.output_per_mtok > 0)
