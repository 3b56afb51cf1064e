"""A scripted chat model: the test double for code that talks to language models.

Like pydantic-ai's ``FunctionModel``: it answers from a list of replies, in order, or from a
function of the request, and keeps every request it was sent in ``requests``. A reply may be a
string (the content), a full :class:`ChatResponse`, or an exception to raise (e.g. a retryable
:class:`ModelCallFailed`). Token counts of string replies are estimated as one token per four
characters, so budgets and cost can be exercised without a tokenizer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from evidencegate.exceptions import ModelCallFailed
from evidencegate.providers.base import ChatRequest, ChatResponse

__all__ = ["Reply", "ScriptedChatModel", "estimate_tokens"]

Reply = str | ChatResponse | Exception


def estimate_tokens(text: str) -> int:
    """One token per four characters, rounded up."""
    return math.ceil(len(text) / 4)


class ScriptedChatModel:
    """Answers from ``replies`` (a list, consumed in order, or a function of the request)."""

    def __init__(
        self,
        replies: Sequence[Reply] | Callable[[ChatRequest], Reply],
        *,
        provider: str = "scripted",
        model: str = "scripted-1",
    ) -> None:
        self.provider = provider
        self.model = model
        self._function = replies if callable(replies) else None
        self._replies = [] if callable(replies) else list(replies)
        self.requests: list[ChatRequest] = []

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        self.requests.append(request)
        if self._function is not None:
            reply = self._function(request)
        elif self._replies:
            reply = self._replies.pop(0)
        else:
            raise ModelCallFailed(
                f"script exhausted after {len(self.requests) - 1} replies",
                provider=self.provider,
                model=self.model,
            )
        if isinstance(reply, Exception):
            raise reply
        if isinstance(reply, ChatResponse):
            return reply
        prompt = request.system + "".join(m.content for m in request.messages)
        return ChatResponse(
            content=reply,
            input_tokens=estimate_tokens(prompt),
            output_tokens=estimate_tokens(reply),
            finish_reason="stop",
            model=self.model,
            request_body=request.model_dump(mode="json"),
            response_body={"content": reply},
        )
