"""Builds the generator and critic a policy names. One place maps a spec to a component.

Specs: ``extractive`` / ``rules`` (the offline components) or a language model as
``provider:model`` (``anthropic:claude-…``, ``openai:gpt-…``; an OpenAI-compatible local server
is ``openai:<name>`` with ``endpoints`` giving its ``base_url``). Vendor clients are built here,
from the policy's endpoint settings and the API key in the environment variable the policy
names, and passed into the adapters, wrapped for the trace, budgets and retries.

Before anything is built, the separation rules are checked: a language-model critic must not be
the generator's model (unless ``allow_same_model_critic``), and under
``require_separate_provider`` not of the generator's provider family either.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from evidencegate.critique.llm import LLMCritic
from evidencegate.critique.quorum import QuorumCritic
from evidencegate.critique.rules import RulesCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.llm import LLMGenerator
from evidencegate.policy import ModelEndpoint, Policy
from evidencegate.protocols import Critic, Generator, SourceLookup
from evidencegate.providers.base import ChatModel, parse_model_spec
from evidencegate.providers.recording import RecordingChatModel

__all__ = ["ChatModelFactory", "build_critic", "build_generator", "endpoint_for"]

#: The API-key variable of each provider when the endpoint names none.
DEFAULT_API_KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
_OFFLINE = {"extractive", "rules"}

ChatModelFactory = Callable[[str, str], ChatModel]
"""(provider, model) -> the model adapter to use instead of a vendor client (replay passes
models answering from a recorded trace); it is wrapped like a vendor adapter."""


def build_generator(
    policy: Policy,
    *,
    chat_models: ChatModelFactory | None = None,
    pages: SourceLookup | None = None,
) -> Generator:
    """The generator the policy names; ``pages`` lets the offline one read tables of a page."""
    spec = policy.generator
    if spec == "extractive":
        return ExtractiveGenerator(
            min_quote_chars=policy.min_quote_chars,
            authorities=policy.allowed_authorities,
            pages=pages,
        )
    if ":" not in spec:
        raise ConfigurationError(
            f"generator {spec!r} is not available: known generators are 'extractive' and "
            "'provider:model'",
            component=spec,
        )
    endpoint = endpoint_for(policy, spec)
    return LLMGenerator(
        _chat_model(policy, spec, role="generator", chat_models=chat_models),
        timeout_s=policy.time_budget.per_call_s,
        max_output_tokens=endpoint.max_output_tokens,
        temperature=endpoint.temperature,
        min_quote_chars=policy.min_quote_chars,
    )


def build_critic(policy: Policy, *, chat_models: ChatModelFactory | None = None) -> Critic:
    """The critic, or a :class:`QuorumCritic` when ``critics`` lists two or more."""
    specs = list(policy.critics) or [policy.critic]
    if len(policy.critics) == 1:
        raise ConfigurationError(
            f"critics lists one critic ({specs[0]!r}); a quorum needs two or more "
            "(use 'critic' for one)",
            component=specs[0],
        )
    for spec in specs:
        if specs.count(spec) > 1:
            raise ConfigurationError(f"critics lists {spec!r} twice", component=spec)
        _check_separation(policy, spec)
    critics = [_one_critic(policy, spec, chat_models) for spec in specs]
    if len(critics) == 1:
        return critics[0]
    return QuorumCritic(critics, quorum=policy.quorum)


def endpoint_for(policy: Policy, spec: str) -> ModelEndpoint:
    """The settings of ``provider:model``: its own entry, else its provider's, else defaults."""
    provider = spec.partition(":")[0]
    return policy.endpoints.get(spec) or policy.endpoints.get(provider) or ModelEndpoint()


def _one_critic(policy: Policy, spec: str, chat_models: ChatModelFactory | None) -> Critic:
    if spec == "rules":
        return RulesCritic(min_support=policy.min_support_score)
    if ":" not in spec:
        raise ConfigurationError(
            f"critic {spec!r} is not available: known critics are 'rules' and 'provider:model'",
            component=spec,
        )
    endpoint = endpoint_for(policy, spec)
    return LLMCritic(
        _chat_model(policy, spec, role="critic", chat_models=chat_models),
        timeout_s=policy.time_budget.per_call_s,
        max_output_tokens=endpoint.max_output_tokens,
        temperature=endpoint.temperature,
    )


def _check_separation(policy: Policy, critic: str) -> None:
    """Refuse a language-model critic that is the generator's model, or (under
    ``require_separate_provider``) of its provider family — before any client is built."""
    generator = policy.generator
    if generator in _OFFLINE or critic in _OFFLINE:
        return
    gen_provider, gen_model = parse_model_spec(generator, role="generator")
    provider, model = parse_model_spec(critic, role="critic")
    same_model = (gen_provider, gen_model) == (provider, model)
    if same_model and policy.require_separate_critic and not policy.allow_same_model_critic:
        raise ConfigurationError(
            f"critic {critic!r} is the same model as the generator {generator!r}; use another "
            "model, or set allow_same_model_critic: true in the policy to allow it",
            component=critic,
        )
    family = endpoint_for(policy, critic).family or provider
    gen_family = endpoint_for(policy, generator).family or gen_provider
    if policy.require_separate_provider and family == gen_family:
        raise ConfigurationError(
            f"critic {critic!r} is of provider family {family!r} like the generator "
            f"{generator!r}, and require_separate_provider is true (policy {policy.name!r}); "
            "use a critic of another provider (a local server's family is set by "
            "endpoints.<spec>.family)",
            component=critic,
        )


def _chat_model(
    policy: Policy, spec: str, *, role: str, chat_models: ChatModelFactory | None = None
) -> ChatModel:
    """The vendor client from configuration, its adapter, wrapped for trace/budgets/retries."""
    provider, model = parse_model_spec(spec, role=role)
    endpoint = endpoint_for(policy, spec)
    price = policy.prices.get(spec)
    if price is None and policy.max_cost_usd > 0:
        raise ConfigurationError(
            f"{role} {spec!r} has no entry in the policy's prices while max_cost_usd="
            f"{policy.max_cost_usd:g}; add prices: {{{spec!r}: {{input_per_mtok: …, "
            "output_per_mtok: …}}} (USD per million tokens), or set max_cost_usd: 0",
            component=spec,
        )
    if chat_models is not None:
        return RecordingChatModel(
            chat_models(provider, model), role=role, price=price, max_retries=endpoint.max_retries
        )
    key_env = endpoint.api_key_env or DEFAULT_API_KEY_ENV[provider]
    api_key = os.environ.get(key_env, "")
    if not api_key:
        if endpoint.api_key_required:
            raise ConfigurationError(
                f"{role} {spec!r} needs an API key in the environment variable {key_env}, "
                "which is not set (for a local server without keys set "
                "api_key_required: false on its endpoint)",
                component=spec,
            )
        # The SDKs refuse to build a client without a key; a keyless local server ignores it.
        api_key = "no-key"
    # The vendor SDKs are imported only when a policy names a language model: importing one
    # takes seconds, and offline runs never need it.
    adapter: ChatModel
    if provider == "anthropic":
        import anthropic

        from evidencegate.providers.anthropic import AnthropicChatModel

        adapter = AnthropicChatModel(
            anthropic.Anthropic(api_key=api_key, base_url=endpoint.base_url, max_retries=0),
            model,
        )
    else:
        import openai

        from evidencegate.providers.openai import OpenAIChatModel

        setting_key = spec if spec in policy.endpoints else provider
        adapter = OpenAIChatModel(
            openai.OpenAI(api_key=api_key, base_url=endpoint.base_url, max_retries=0),
            model,
            structured_output=endpoint.structured_output,
            system_role=endpoint.system_role,
            setting=f"endpoints[{setting_key!r}].structured_output",
        )
    return RecordingChatModel(adapter, role=role, price=price, max_retries=endpoint.max_retries)
