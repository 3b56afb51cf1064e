"""Structured output: one call, JSON-Schema validation, at most one repair call, then fail.

The repair call repeats the conversation with the invalid reply and a user turn quoting the
validation errors (:data:`~evidencegate.prompts.REPAIR`). A second invalid reply raises
:class:`~evidencegate.exceptions.ModelOutputInvalid`: never a silent pass, never a guess.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import jsonschema

from evidencegate.exceptions import ModelOutputInvalid
from evidencegate.prompts import REPAIR
from evidencegate.providers.base import ChatMessage, ChatModel, ChatRequest, OutputSchema

__all__ = ["complete_json", "restricted"]

#: Validation messages quoted back to the model (and kept in the error) at most.
MAX_ERRORS = 5
_MAX_ERROR_CHARS = 300

Check = Callable[[dict[str, Any]], list[str]]


def complete_json(
    model: ChatModel,
    request: ChatRequest,
    *,
    timeout_s: float,
    component: str,
    check: Check | None = None,
) -> dict[str, Any]:
    """The reply to ``request`` as a JSON object valid against ``request.output``'s schema.

    ``check`` adds checks a schema cannot express (e.g. "judge exactly these claim ids"): it
    returns error messages, empty when the object is acceptable.
    """
    if request.output is None:
        raise ValueError("complete_json needs a request with an output schema")
    validator = jsonschema.Draft202012Validator(request.output.json_schema)
    reply = model.complete(request, timeout_s=timeout_s).content
    data, errors = _validate(reply, validator, check)
    if not errors:
        return data
    _, repair_text = REPAIR.render(errors="; ".join(errors))
    repair = ChatRequest(
        system=request.system,
        messages=[
            *request.messages,
            ChatMessage(role="assistant", content=reply or "(empty reply)"),
            ChatMessage(role="user", content=repair_text),
        ],
        output=request.output,
        max_output_tokens=request.max_output_tokens,
        temperature=request.temperature,
        metadata={
            **request.metadata,
            "purpose": f"{request.metadata.get('purpose', 'call')}:repair",
            "repair_prompt": REPAIR.id,
            "repair_prompt_sha256": REPAIR.sha256,
        },
    )
    data, errors = _validate(model.complete(repair, timeout_s=timeout_s).content, validator, check)
    if errors:
        raise ModelOutputInvalid(
            "output failed its JSON Schema after one repair call: " + "; ".join(errors),
            component=component,
            errors=errors,
        )
    return data


def _validate(
    reply: str, validator: jsonschema.Draft202012Validator, check: Check | None
) -> tuple[dict[str, Any], list[str]]:
    try:
        data = json.loads(_without_fence(reply))
    except ValueError as exc:
        return {}, [f"the reply is not JSON ({exc})"]
    if not isinstance(data, dict):
        return {}, [f"the reply is a JSON {type(data).__name__}, not an object"]
    found = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    errors = [
        _clip(f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}")
        for e in found
    ]
    if not errors and check is not None:
        errors = [_clip(message) for message in check(data)]
    return data, errors[:MAX_ERRORS]


def _without_fence(reply: str) -> str:
    """Models often wrap JSON in a Markdown code fence; the fence is not part of the object."""
    text = reply.strip()
    if text.startswith("```") and text.endswith("```"):
        text = text[3:-3]
        first_newline = text.find("\n")
        if first_newline != -1 and not text[:first_newline].strip().startswith("{"):
            text = text[first_newline + 1 :]
    return text.strip()


def _clip(message: str) -> str:
    return message if len(message) <= _MAX_ERROR_CHARS else message[: _MAX_ERROR_CHARS - 1] + "…"


def restricted(
    schema: OutputSchema,
    choices: Mapping[tuple[str, ...], Sequence[str]],
    *,
    lengths: Mapping[tuple[str, ...], int] | None = None,
) -> OutputSchema:
    """``schema`` with the string at each path restricted to ``choices`` (an ``enum``).

    A path is the keys from the schema's root to a string schema (``("$defs", "Claim",
    "properties", "claim_id")``; an array's ``"items"`` included). The ids a reply may use are
    known per request (the claims drafted, the evidence spans given): servers that compile the
    schema into a sampling grammar (llama.cpp) then cannot produce any other, and every server
    gets them stated. An empty choice list restricts nothing (the caller's check still applies).
    ``lengths`` fixes the length of the array at each path (``minItems`` = ``maxItems``), e.g.
    one verdict per drafted claim.
    """
    json_schema = copy.deepcopy(schema.json_schema)
    for path, values in choices.items():
        node: Any = json_schema
        for key in path:
            node = node[key]
        if values:
            node["enum"] = list(values)
    for path, length in (lengths or {}).items():
        node = json_schema
        for key in path:
            node = node[key]
        node["minItems"] = node["maxItems"] = length
    return OutputSchema(name=schema.name, json_schema=json_schema)
