"""The model provider protocol: one required method, with its request and response models.

A :class:`ChatModel` turns a :class:`ChatRequest` into a :class:`ChatResponse`. Adapters over a
vendor SDK get the vendor client passed in (never build it); they translate every failure into
:class:`~evidencegate.exceptions.ModelCallFailed` (``retryable`` for 429, 5xx, timeouts and
connection errors). Retries, budgets and the trace live in a wrapper
(:class:`~evidencegate.providers.recording.RecordingChatModel`), not in the adapters.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Mapping
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.canonical import canonical_json_v1, sha256_hex
from evidencegate.exceptions import ConfigurationError, ModelCallFailed

__all__ = [
    "PROVIDERS",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "ModelComponent",
    "OutputSchema",
    "close_model",
    "json_body",
    "parse_model_spec",
    "retry_after_seconds",
    "schema_instruction",
    "status_failure",
]

#: The providers a ``provider:model`` spec may name.
PROVIDERS = ("anthropic", "openai")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatMessage(_Frozen):
    role: Literal["user", "assistant"]
    content: str


class OutputSchema(_Frozen):
    """The JSON Schema the reply must follow; ``name`` becomes the tool or schema name."""

    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    json_schema: dict[str, Any]


class ChatRequest(_Frozen):
    """One provider-neutral chat request. ``metadata`` is recorded in the trace, never sent."""

    system: str
    messages: list[ChatMessage] = Field(min_length=1)
    output: OutputSchema | None = None
    max_output_tokens: int = Field(default=2048, ge=1)
    temperature: float = Field(default=0.0, ge=0, le=2)
    metadata: dict[str, str] = Field(
        default_factory=dict, description="purpose, prompt id and prompt sha256."
    )

    def sha256(self, *, provider: str, model: str) -> str:
        """What a replay provider matches a recorded call on (format-1 canonical JSON: the
        hash is recorded in traces, and a replay must find the calls of older recordings)."""
        body = {"provider": provider, "model": model, "request": self.model_dump(mode="json")}
        return sha256_hex(canonical_json_v1(body))


class ChatResponse(_Frozen):
    """The reply: ``content`` is the text, or the JSON of the structured output.

    ``request_body`` and ``response_body`` are what went over the wire (never an API key).
    """

    content: str
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    finish_reason: str | None = None
    model: str = Field(default="", description="The model the server says answered.")
    request_body: dict[str, Any] = Field(default_factory=dict)
    response_body: dict[str, Any] = Field(default_factory=dict)


@runtime_checkable
class ChatModel(Protocol):
    """A language model behind one method. ``provider`` and ``model`` name it in the trace."""

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse: ...


def close_model(component: object) -> None:
    """Close what ``component`` holds open (a vendor client's connections), if it can be closed.

    Closing is optional in the protocols (scripted doubles hold nothing open), hence the lookup.
    """
    close = getattr(component, "close", None)
    if callable(close):
        close()


def parse_model_spec(spec: str, *, role: str) -> tuple[str, str]:
    """Split ``provider:model`` (the model may itself contain colons, as Ollama tags do)."""
    provider, sep, model = spec.partition(":")
    if not sep or not model or provider not in PROVIDERS:
        raise ConfigurationError(
            f"{role} {spec!r} is not 'provider:model' with a provider in {', '.join(PROVIDERS)}",
            component=spec,
        )
    return provider, model


def schema_instruction(schema: Mapping[str, Any]) -> str:
    """The sentence that asks for JSON following ``schema`` (for servers without json_schema)."""
    return (
        "Reply with one JSON object and nothing else. It must validate against this JSON "
        "Schema:\n" + json.dumps(schema, ensure_ascii=False, sort_keys=True)
    )


def retry_after_seconds(headers: Mapping[str, str], *, now: float | None = None) -> float | None:
    """The server's retry-after, in seconds: ``retry-after-ms``, or ``retry-after`` given as
    seconds or as an HTTP date. None when absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000.0, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(when.timestamp() - current, 0.0)


def json_body(text: str) -> dict[str, Any]:
    """A response body as recorded: the JSON object, else the raw text under ``text``."""
    try:
        data = json.loads(text)
    except ValueError:
        return {"text": text}
    return data if isinstance(data, dict) else {"json": data}


def status_failure(
    *,
    provider: str,
    model: str,
    status_code: int,
    headers: Mapping[str, str],
    text: str,
    message: str,
    request_body: dict[str, Any],
) -> ModelCallFailed:
    """An HTTP error status as a :class:`ModelCallFailed`; 408, 429 and 5xx are retryable."""
    return ModelCallFailed(
        message,
        provider=provider,
        model=model,
        status_code=status_code,
        retryable=status_code in (408, 429) or status_code >= 500,
        retry_after=retry_after_seconds(headers),
        request_body=request_body,
        response_body=json_body(text),
    )


class ModelComponent:
    """What a model-backed role shares: the model, its call settings, ``provider:model`` as the
    component id (what the same-model check compares), and closing the model's client."""

    def __init__(
        self,
        model: ChatModel,
        *,
        timeout_s: float = 30.0,
        max_output_tokens: int = 2048,
        temperature: float = 0.0,
    ) -> None:
        self.model = model
        self.timeout_s = timeout_s
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature

    @property
    def component_id(self) -> str:
        return f"{self.model.provider}:{self.model.model}"

    def close(self) -> None:
        """Close the model's client connections."""
        close_model(self.model)
