"""Builds the generator and critic a policy names, and admits those given through the API.

Specs: ``extractive`` / ``rules`` (the offline components) or a language model as
``provider:model`` (``anthropic:claude-…``, ``openai:gpt-…``; an OpenAI-compatible local server
is ``openai:<name>`` with ``endpoints`` giving its ``base_url``). Vendor clients are built here,
from the policy's endpoint settings and the API key in the environment variable the policy
names, and passed into the adapters, wrapped for the trace, budgets and retries.

:func:`admit` is the one door for components: a spec string, a
:class:`~evidencegate.providers.base.ChatModel` or a role object (a generator or critic, e.g.
one built around a ChatModel) all come out as components whose model calls go through a
:class:`~evidencegate.providers.recording.RecordingChatModel`, together with the effective
policy, which names the models really used (``generator``/``critic``/``critics``, their
``endpoints`` settings and ``prices``): what ``run_start`` records and what a replay rebuilds.

The separation rules are checked on the specs before any client is built, and on the objects
(:func:`check_separation`): a critic must not be the generator's model — the same object, or the
same ``provider:model`` — unless the policy allows it with ``allow_same_model_critic`` and states
why in ``same_model_critic_reason``; under ``require_separate_provider`` it must not be of the
generator's provider family either.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.retrieval import FeedbackRetriever
from evidencegate.corpus.store import Store
from evidencegate.critique.llm import LLMCritic
from evidencegate.critique.quorum import QuorumCritic
from evidencegate.critique.rules import RulesCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.llm import LATEST_CONTRACT, LLMGenerator
from evidencegate.policy import ModelEndpoint, Policy
from evidencegate.protocols import Critic, Generator, Retriever, SourceLookup
from evidencegate.providers.base import (
    ChatModel,
    ModelComponent,
    parse_model_spec,
)
from evidencegate.providers.recording import RecordingChatModel

__all__ = [
    "ChatModelFactory",
    "CriticLike",
    "GeneratorLike",
    "admit",
    "build_critic",
    "build_generator",
    "build_retriever",
    "check_separation",
    "endpoint_for",
]

GeneratorLike = Generator | ChatModel | str
"""What ``generator=`` accepts: a role object, a model, or a ``provider:model`` spec."""
CriticLike = Critic | ChatModel | str
"""What ``critic=`` accepts: a role object, a model, or a ``provider:model`` spec."""

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
    contract: int = LATEST_CONTRACT,
    pages: SourceLookup | None = None,
) -> Generator:
    """The generator ``policy.generator`` names. ``contract``: the LLM draft contract (1 and 2
    only to replay traces recorded with them); ``pages`` lets the offline one read a page's
    tables."""
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
        contract=contract,
    )


def build_critic(
    policy: Policy,
    *,
    chat_models: ChatModelFactory | None = None,
    contract: int = 2,
    pages: SourceLookup | None = None,
) -> Critic:
    """The critic, or a :class:`QuorumCritic` when ``critics`` lists two or more.
    ``contract``: the LLM critic contract (1 only to replay traces recorded with it);
    ``pages`` lets the offline one read whose document a passage is (its title page)."""
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
    critics = [_one_critic(policy, spec, chat_models, contract, pages) for spec in specs]
    if len(critics) == 1:
        return critics[0]
    return QuorumCritic(critics, quorum=policy.quorum)


def build_retriever(
    policy: Policy, store: StoreBackend, *, cache_dir: str | Path | None = None
) -> Retriever:
    """The retriever ``policy.retrieval`` names over ``store``: ``bm25`` (built in) or
    ``hybrid`` (the ``dense`` extra; a ConfigurationError naming it when it is not installed).
    ``cache_dir``: where the hybrid retriever caches passage embeddings (default
    ``STORE/dense``)."""
    if policy.retrieval == "bm25":
        return FeedbackRetriever(store)
    # NumPy and the embedding model are imported only when a policy asks for them: importing
    # torch takes seconds, and the default install has neither.
    from evidencegate.corpus import embedders

    try:
        from evidencegate.corpus.dense import HybridRetriever
    except ImportError as exc:
        raise embedders.missing_extra(exc) from exc
    if not isinstance(store, Store):
        raise ConfigurationError(
            "retrieval: hybrid needs a SQLite store directory (its passage embeddings are cached "
            "beside the store); use retrieval: bm25 with a PostgreSQL store"
        )
    return HybridRetriever(store, embedders.load_embedder(), cache_dir=cache_dir)


def endpoint_for(policy: Policy, spec: str) -> ModelEndpoint:
    """The settings of ``provider:model``: its own entry, else its provider's, else defaults."""
    return policy.endpoint(spec)


def _one_critic(
    policy: Policy,
    spec: str,
    chat_models: ChatModelFactory | None,
    contract: int = 2,
    pages: SourceLookup | None = None,
) -> Critic:
    if spec == "rules":
        return RulesCritic(min_support=policy.min_support_score, pages=pages)
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
        contract=contract,
    )


def _check_separation(policy: Policy, critic: str) -> None:
    """Refuse a language-model critic that is the generator's model, or (under
    ``require_separate_provider``) of its provider family — before any client is built."""
    generator = policy.generator
    if generator in _OFFLINE or critic in _OFFLINE:
        return
    gen_provider, gen_model = _split(generator)
    provider, model = _split(critic)
    if (gen_provider, gen_model) == (provider, model):
        _same_model(policy, critic, f"the same model as the generator {generator!r}")
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


def _same_model(policy: Policy, critic: str, what: str) -> str | None:
    """Refuse a critic that is ``what`` (the generator's model) unless the policy allows it with
    a stated reason; return that reason (recorded in run_start), None when no rule applies."""
    if not policy.require_separate_critic:
        return None
    reason = (policy.same_model_critic_reason or "").strip()
    if policy.allow_same_model_critic and reason:
        return reason
    fix = (
        "state why in same_model_critic_reason (allow_same_model_critic: true needs a reason)"
        if policy.allow_same_model_critic
        else "use another model, or set allow_same_model_critic: true with a "
        "same_model_critic_reason in the policy"
    )
    raise ConfigurationError(f"critic {critic!r} is {what}; {fix}", component=critic)


def _split(spec: str) -> tuple[str, str]:
    """``provider:model`` of a spec already admitted (any provider name)."""
    provider, _, model = spec.partition(":")
    return provider, model


def _require_price(policy: Policy, spec: str, role: str) -> None:
    if spec not in policy.prices and policy.max_cost_usd > 0:
        raise ConfigurationError(
            f"{role} {spec!r} has no entry in the policy's prices while max_cost_usd="
            f"{policy.max_cost_usd:g}; add prices: {{{spec!r}: {{input_per_mtok: …, "
            "output_per_mtok: …}}} (USD per million tokens; 0 for a free local model), or set "
            "max_cost_usd: 0",
            component=spec,
        )


def _chat_model(
    policy: Policy, spec: str, *, role: str, chat_models: ChatModelFactory | None = None
) -> ChatModel:
    """The vendor client from configuration, its adapter, wrapped for trace/budgets/retries.

    With ``chat_models`` (a replay) any provider name is accepted: a run may have been given a
    model of its own through the API."""
    if chat_models is not None and ":" in spec:
        provider, model = _split(spec)
    else:
        provider, model = parse_model_spec(spec, role=role)
    endpoint = endpoint_for(policy, spec)
    price = policy.prices.get(spec)
    _require_price(policy, spec, role)
    if chat_models is not None:
        given = chat_models(provider, model)
        if isinstance(given, RecordingChatModel):
            return given  # wrapped by the caller already: one wrapper, one event per call
        return RecordingChatModel(given, role=role, price=price, max_retries=endpoint.max_retries)
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


# --------------------------------------------------------------------------- the one door


def admit(
    policy: Policy,
    generator: GeneratorLike | None = None,
    critic: CriticLike | None = None,
    *,
    pages: SourceLookup | None = None,
) -> tuple[Policy, Generator, Critic]:
    """The components a run uses and the policy that names them (the one door for models).

    ``generator``/``critic`` may each be None (built from the policy), a ``provider:model`` spec
    (built from the policy's endpoint settings, as if the policy named it), a
    :class:`~evidencegate.providers.base.ChatModel` (wrapped in the LLM generator or critic,
    with the policy's settings for its ``provider:model``), or a role object used as given (a
    model-backed one records its calls: see
    :class:`~evidencegate.providers.base.ModelComponent`). The returned policy names every
    model really used, with the settings of components given as objects, so that ``run_start``
    records them and a replay rebuilds the same requests. A model without a price while
    ``max_cost_usd > 0`` and a critic that is the generator's model are refused with a
    :class:`ConfigurationError`, before any call.
    """
    if isinstance(generator, str):
        policy = policy.model_copy(update={"generator": generator})
        generator = None
    if isinstance(critic, str):
        policy = policy.model_copy(update={"critic": critic, "critics": []})
        critic = None
    given: dict[str, ChatModel] = {}
    if generator is not None and not isinstance(generator, Generator):
        policy = _named(policy, _chat_model_or_error(generator, "generator"), "generator")
        given["generator"], generator = generator, None
    if critic is not None and not isinstance(critic, Critic):
        policy = _named(policy, _chat_model_or_error(critic, "critic"), "critic")
        given["critic"], critic = critic, None
    if generator is not None:
        policy = _describe_generator(policy, generator)
    if critic is not None:
        policy = _describe_critic(policy, critic)
    if generator is None:
        generator = build_generator(policy, chat_models=_given(given.get("generator")), pages=pages)
    if critic is None:
        critic = build_critic(policy, chat_models=_given(given.get("critic")), pages=pages)
    check_separation(generator, critic, policy)
    return policy, generator, critic


def _chat_model_or_error(component: object, role: str) -> ChatModel:
    if isinstance(component, ChatModel):
        return component
    methods = "component_id, draft" if role == "generator" else "component_id, sufficiency, audit"
    raise ConfigurationError(
        f"{role} {type(component).__name__!r} is neither a 'provider:model' spec, a ChatModel "
        f"(provider, model, complete) nor a {role} ({methods})",
        component=type(component).__name__,
    )


def _given(model: ChatModel | None) -> ChatModelFactory | None:
    """The factory that hands the model given through the API to the builder."""
    if model is None:
        return None
    return lambda provider, name: model


def _named(policy: Policy, model: ChatModel, role: str) -> Policy:
    """A ChatModel given as a role: the policy now names it (its spec and explicit settings)."""
    spec = f"{model.provider}:{model.model}"
    update: dict[str, object] = {role: spec}
    if role == "critic":
        update["critics"] = []
    return _with_model_settings(policy.model_copy(update=update), spec, model)


def _with_model_settings(policy: Policy, spec: str, model: ChatModel, **endpoint: object) -> Policy:
    """``policy`` with what a model object fixes for ``spec``: a wrapper's explicit price and
    retries, and ``endpoint`` settings of the component around it."""
    prices = dict(policy.prices)
    settings = dict(endpoint)
    if isinstance(model, RecordingChatModel):
        if model.price is not None:
            prices[spec] = model.price
        if model.max_retries is not None:
            settings["max_retries"] = model.max_retries
    endpoints = dict(policy.endpoints)
    current = policy.endpoint(spec)
    changed = {k: v for k, v in settings.items() if getattr(current, k) != v}
    if changed:
        endpoints[spec] = current.model_copy(update=changed)
    return policy.model_copy(update={"prices": prices, "endpoints": endpoints})


def _component_settings(policy: Policy, component: ModelComponent, role: str) -> Policy:
    spec = component.component_id
    policy = _with_model_settings(
        policy,
        spec,
        component.model,
        max_output_tokens=component.max_output_tokens,
        temperature=component.temperature,
    )
    _require_price(policy, spec, role)
    return policy


def _describe_generator(policy: Policy, generator: Generator) -> Policy:
    """The policy naming a generator given as an object (one of the caller's own classes is
    named by its component_id in run_start only)."""
    if isinstance(generator, ModelComponent):
        policy = _component_settings(policy, generator, "generator")
        return policy.model_copy(update={"generator": generator.component_id})
    if isinstance(generator, ExtractiveGenerator):
        return policy.model_copy(update={"generator": "extractive"})
    return policy


def _describe_critic(policy: Policy, critic: Critic) -> Policy:
    if isinstance(critic, QuorumCritic):
        specs = []
        for member in critic.critics:
            policy = _describe_critic(policy, member)
            specs.append(policy.critic)
        return policy.model_copy(update={"critics": specs, "quorum": critic.quorum})
    if isinstance(critic, ModelComponent):
        policy = _component_settings(policy, critic, "critic")
        return policy.model_copy(update={"critic": critic.component_id, "critics": []})
    if isinstance(critic, RulesCritic):
        return policy.model_copy(update={"critic": "rules", "critics": []})
    return policy


def _models_of(component: object) -> list[tuple[str, object]]:
    """(provider:model, model object) of each language model inside a component."""
    if isinstance(component, QuorumCritic):
        return [m for member in component.critics for m in _models_of(member)]
    if isinstance(component, ModelComponent):
        return [(component.component_id, component.chat_model)]
    return []


def check_separation(generator: Generator, critic: Critic, policy: Policy) -> str | None:
    """Refuse a critic that is the generator: the same object, a component around the same
    model object, or the same ``provider:model`` — unless the policy allows it with a stated
    reason, which is returned (run_start records it). Under ``require_separate_provider`` a
    model critic of the generator's provider family is refused too. None when they differ."""
    same: str | None = None
    what = "the same component as the generator"
    if critic.component_id == generator.component_id or id(critic) == id(generator):
        same = critic.component_id
    gen_models = _models_of(generator)
    for spec, model in _models_of(critic):
        for gen_spec, gen_model in gen_models:
            if model is gen_model or spec == gen_spec:
                same, what = spec, "the same model as the generator"
            family = policy.endpoint(spec).family or _split(spec)[0]
            gen_family = policy.endpoint(gen_spec).family or _split(gen_spec)[0]
            if policy.require_separate_provider and family == gen_family and same is None:
                raise ConfigurationError(
                    f"critic {spec!r} is of provider family {family!r} like the generator "
                    f"{gen_spec!r}, and require_separate_provider is true (policy "
                    f"{policy.name!r}); use a critic of another provider",
                    component=spec,
                )
    if same is None:
        return None
    return _same_model(policy, same, what)
