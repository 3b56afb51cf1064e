"""Language-model providers: one protocol, vendor adapters, a scripted double, a recording wrapper.

    ChatModel.complete(request, *, timeout_s) -> ChatResponse      the one required method
    anthropic.AnthropicChatModel(anthropic_client, model)          tool use for structured output
    openai.OpenAIChatModel(openai_client, model, ...)              also local OpenAI-compatible
    ScriptedChatModel(replies)                                     test double (list or function)
    RecordingChatModel(inner, role=..., price=...)                 trace, usage, budgets, retries
    complete_json(model, request, ...)                             schema-validated, one repair

The vendor adapters live in :mod:`evidencegate.providers.anthropic` and
:mod:`evidencegate.providers.openai` and are not imported here: importing a vendor SDK takes
seconds, and offline runs never need one. Vendor clients are built from the policy in
:mod:`evidencegate.components` and passed in.
"""

from __future__ import annotations

from evidencegate.providers.base import (
    PROVIDERS,
    ChatMessage,
    ChatModel,
    ChatRequest,
    ChatResponse,
    OutputSchema,
    parse_model_spec,
)
from evidencegate.providers.recording import RecordingChatModel
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.providers.structured import complete_json

__all__ = [
    "PROVIDERS",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ChatResponse",
    "OutputSchema",
    "RecordingChatModel",
    "ScriptedChatModel",
    "complete_json",
    "parse_model_spec",
]
