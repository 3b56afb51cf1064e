"""Schema validation for every judge, and the one way an LLM judge asks a model for JSON.

Every judge output — rules or model — passes :func:`validated` before it is returned: the JSON
Schema exported from its pydantic model (jsonschema) and the model itself (pydantic). A model
judge's reply that fails either, or a check a schema cannot state, gets ONE repair call quoting
the errors; a second failure raises :class:`~evidencegate.exceptions.ModelOutputInvalid`. A
judge error is an error, never a pass. Prompts are versioned templates
(:class:`~evidencegate.prompts.base.PromptTemplate`): every call records their id and hash.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

import jsonschema
from pydantic import BaseModel, ValidationError

from evidencegate.exceptions import ModelOutputInvalid
from evidencegate.prompts.base import PromptTemplate
from evidencegate.providers.base import ChatMessage, ChatModel, ChatRequest, OutputSchema
from evidencegate.providers.structured import complete_json

__all__ = ["ask_json", "output_errors", "validated"]

ModelT = TypeVar("ModelT", bound=BaseModel)


@cache
def _validator(model: type[BaseModel]) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(model.model_json_schema())


def output_errors(model: type[BaseModel], data: Any) -> list[str]:
    """The JSON Schema violations of ``data`` against ``model``'s schema ([] when valid)."""
    errors = sorted(
        _validator(model).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]
    )
    return [
        f"{'.'.join(str(p) for p in err.absolute_path) or '<root>'}: {err.message}"
        for err in errors
    ]


def validated(output: ModelT, *, judge: str) -> ModelT:
    """``output`` re-checked against its JSON Schema; ModelOutputInvalid names the violation."""
    data = output.model_dump(mode="json")
    errors = output_errors(type(output), data)
    if errors:
        raise ModelOutputInvalid(
            f"{type(output).__name__} breaks its schema: {errors[0]}",
            component=judge,
            errors=errors,
        )
    return output


def ask_json(
    chat: ChatModel,
    output: type[ModelT],
    *,
    judge: str,
    prompt: PromptTemplate,
    values: dict[str, object],
    purpose: str,
    timeout_s: float,
    check: Callable[[ModelT], list[str]] | None = None,
    max_output_tokens: int = 2048,
) -> ModelT:
    """Ask ``chat`` for one ``output`` object rendered from ``prompt`` with ``values``.

    The reply must pass ``output``'s JSON Schema, its pydantic model and ``check`` (what a schema
    cannot say, e.g. "judge exactly these ids"); one repair call quoting the errors
    (:func:`~evidencegate.providers.structured.complete_json`), then ModelOutputInvalid.
    Model call failures (:class:`~evidencegate.exceptions.ModelCallFailed`) propagate: the
    caller fails closed.
    """
    system, user = prompt.render(**values)
    request = ChatRequest(
        system=system,
        messages=[ChatMessage(role="user", content=user)],
        output=OutputSchema(name=output.__name__, json_schema=output.model_json_schema()),
        max_output_tokens=max_output_tokens,
        metadata=prompt.metadata(purpose),
    )

    def full_check(data: dict[str, Any]) -> list[str]:
        try:
            parsed = output.model_validate(data)
        except ValidationError as exc:
            return [
                f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}"
                for e in exc.errors()
            ]
        return check(parsed) if check is not None else []

    data = complete_json(chat, request, timeout_s=timeout_s, component=judge, check=full_check)
    return output.model_validate(data)
