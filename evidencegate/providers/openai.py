"""OpenAI Chat Completions adapter, also for OpenAI-compatible local servers.

Structured output follows the endpoint's ``structured_output`` capability:

- ``json_schema``: ``response_format: {type: json_schema, json_schema: {name, schema}}``
  (OpenAI, vLLM, recent Ollama);
- ``json_object``: ``response_format: {type: json_object, schema}`` with the schema also stated
  in the instructions — llama.cpp and llama-cpp-python compile that schema into a sampling
  grammar; servers that only know JSON mode still get the schema from the prompt.

A server that rejects the response format it was sent raises :class:`ConfigurationError`
naming the setting to change. The client is passed in; the adapter never retries.
"""

from __future__ import annotations

import json
from typing import Any

import openai

from evidencegate.exceptions import ConfigurationError, ModelCallFailed
from evidencegate.policy import StructuredOutput
from evidencegate.providers.base import (
    ChatRequest,
    ChatResponse,
    json_body,
    schema_instruction,
    status_failure,
)

__all__ = ["OpenAIChatModel"]


class OpenAIChatModel:
    """A :class:`~evidencegate.providers.base.ChatModel` over ``client.chat.completions``.

    ``setting`` is the policy path named when the server rejects the structured-output mode
    (e.g. ``endpoints['openai:gemma'].structured_output``). ``system_role=False`` puts the
    instructions at the top of the first user message, for chat formats without a system role.
    """

    provider = "openai"

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        *,
        structured_output: StructuredOutput = "json_schema",
        system_role: bool = True,
        setting: str = "endpoints.openai.structured_output",
    ) -> None:
        self.client = client
        self.model = model
        self.structured_output = structured_output
        self.system_role = system_role
        self.setting = setting

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        body = self._body(request)
        client = self.client.with_options(max_retries=0, timeout=timeout_s)
        try:
            raw = client.chat.completions.with_raw_response.create(**body)
        except openai.APIStatusError as exc:
            text = exc.response.text
            # Servers differ in how they refuse a format they do not know (OpenAI 400, vLLM
            # 400, llama-cpp-python 500 with the validation error): the body names the field.
            if request.output is not None and "response_format" in text:
                raise ConfigurationError(
                    f"{self.provider}:{self.model} at {self.client.base_url} rejected "
                    f"response_format {self.structured_output} (status {exc.status_code}: "
                    f"{exc.message}); set {self.setting} to the mode the server supports "
                    "(json_schema | json_object)",
                    component=self.setting,
                ) from exc
            raise status_failure(
                provider=self.provider,
                model=self.model,
                status_code=exc.status_code,
                headers=exc.response.headers,
                text=text,
                message=exc.message,
                request_body=body,
            ) from exc
        except openai.APITimeoutError as exc:
            raise self._transient(f"no response within {timeout_s:g}s", body) from exc
        except openai.APIConnectionError as exc:
            raise self._transient(f"connection failed: {exc}", body) from exc
        text = raw.http_response.text
        try:
            data = json.loads(text)
            completion = raw.parse()
            choice = completion.choices[0]
            content = choice.message.content or ""
            usage = completion.usage
            tokens = (usage.prompt_tokens, usage.completion_tokens) if usage else (0, 0)
        except (ValueError, TypeError, IndexError, AttributeError) as exc:
            raise ModelCallFailed(
                f"the response body is not a Chat Completions JSON object: {exc}",
                provider=self.provider,
                model=self.model,
                request_body=body,
                response_body=json_body(text),
            ) from exc
        return ChatResponse(
            content=content,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            finish_reason=choice.finish_reason,
            model=completion.model,
            request_body=body,
            response_body=data,
        )

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        instructions = request.system
        if request.output is not None and self.structured_output == "json_object":
            instructions += "\n\n" + schema_instruction(request.output.json_schema)
        messages: list[dict[str, str]] = [m.model_dump(mode="json") for m in request.messages]
        if self.system_role:
            messages.insert(0, {"role": "system", "content": instructions})
        else:
            first = messages[0]
            messages[0] = {**first, "content": f"{instructions}\n\n{first['content']}"}
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": request.max_output_tokens,
            "temperature": request.temperature,
        }
        if request.output is not None:
            if self.structured_output == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {
                        "name": request.output.name,
                        "schema": request.output.json_schema,
                    },
                }
            else:
                body["response_format"] = {
                    "type": "json_object",
                    "schema": request.output.json_schema,
                }
        return body

    def close(self) -> None:
        """Close the client's connections (the client is shared by every call of this model)."""
        self.client.close()

    def _transient(self, message: str, body: dict[str, Any]) -> ModelCallFailed:
        return ModelCallFailed(
            message, provider=self.provider, model=self.model, retryable=True, request_body=body
        )
