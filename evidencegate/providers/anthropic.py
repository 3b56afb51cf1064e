"""Anthropic Messages API adapter. Structured output by forced tool use.

The ``anthropic.Anthropic`` client is passed in (tests build it on ``httpx2.MockTransport``).
No ``temperature`` is sent: the Messages API of the SDK this targets takes no sampling settings.
The adapter never retries (the SDK's own retries are switched off per call): retries, budgets
and the trace belong to :class:`~evidencegate.providers.recording.RecordingChatModel`.
"""

from __future__ import annotations

import json
from typing import Any

import anthropic

from evidencegate.exceptions import ModelCallFailed
from evidencegate.providers.base import ChatRequest, ChatResponse, json_body, status_failure

__all__ = ["AnthropicChatModel"]


class AnthropicChatModel:
    """A :class:`~evidencegate.providers.base.ChatModel` over ``client.messages.create``."""

    provider = "anthropic"

    def __init__(self, client: anthropic.Anthropic, model: str) -> None:
        self.client = client
        self.model = model

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        body = self._body(request)
        client = self.client.with_options(max_retries=0, timeout=timeout_s)
        try:
            raw = client.messages.with_raw_response.create(**body)
        except anthropic.APIStatusError as exc:
            raise status_failure(
                provider=self.provider,
                model=self.model,
                status_code=exc.status_code,
                headers=exc.response.headers,
                text=exc.response.text,
                message=exc.message,
                request_body=body,
            ) from exc
        except anthropic.APITimeoutError as exc:
            raise self._transient(f"no response within {timeout_s:g}s", body) from exc
        except anthropic.APIConnectionError as exc:
            raise self._transient(f"connection failed: {exc}", body) from exc
        text = raw.http_response.text
        try:
            data = json.loads(text)
            message = raw.parse()
            content = _content(message, request)
            usage = (message.usage.input_tokens, message.usage.output_tokens)
        except (ValueError, TypeError, AttributeError) as exc:  # not a Messages API object
            raise ModelCallFailed(
                f"the response body is not a Messages API JSON object: {exc}",
                provider=self.provider,
                model=self.model,
                request_body=body,
                response_body=json_body(text),
            ) from exc
        return ChatResponse(
            content=content,
            input_tokens=usage[0],
            output_tokens=usage[1],
            finish_reason=message.stop_reason,
            model=message.model,
            request_body=body,
            response_body=data,
        )

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_output_tokens,
            "system": request.system,
            "messages": [m.model_dump(mode="json") for m in request.messages],
        }
        if request.output is not None:
            body["tools"] = [
                {
                    "name": request.output.name,
                    "description": "Record the answer. Its input is the whole reply.",
                    "input_schema": request.output.json_schema,
                }
            ]
            body["tool_choice"] = {"type": "tool", "name": request.output.name}
        return body

    def close(self) -> None:
        """Close the client's connections (the client is shared by every call of this model)."""
        self.client.close()

    def _transient(self, message: str, body: dict[str, Any]) -> ModelCallFailed:
        return ModelCallFailed(
            message, provider=self.provider, model=self.model, retryable=True, request_body=body
        )


def _content(message: anthropic.types.Message, request: ChatRequest) -> str:
    """The structured output's tool input as JSON, else the text blocks joined."""
    for block in message.content:
        if block.type == "tool_use" and request.output and block.name == request.output.name:
            return json.dumps(block.input, ensure_ascii=False)
    return "".join(block.text for block in message.content if block.type == "text")
