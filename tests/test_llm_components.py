"""Building language-model components from the policy: specs, keys, prices, separation."""

from __future__ import annotations

from typing import Any

import pytest

from evidencegate.components import build_critic, build_generator
from evidencegate.critique.llm import LLMCritic
from evidencegate.critique.quorum import QuorumCritic
from evidencegate.critique.rules import RulesCritic
from evidencegate.exceptions import ConfigurationError, PolicyError
from evidencegate.generation.llm import LLMGenerator
from evidencegate.policy import load_policy
from evidencegate.providers.openai import OpenAIChatModel
from evidencegate.providers.recording import RecordingChatModel

PRICES = {
    "anthropic:claude-sonnet-4-6": {"input_per_mtok": 3.0, "output_per_mtok": 15.0},
    "openai:gpt-4o-mini": {"input_per_mtok": 0.15, "output_per_mtok": 0.6},
    "openai:gpt-4.1": {"input_per_mtok": 2.0, "output_per_mtok": 8.0},
}


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-test")


def policy(**fields: Any) -> Any:
    return load_policy({"prices": PRICES, **fields})


@pytest.mark.usefixtures("keys")
class TestBuildLLMComponents:
    def test_claude_generator_with_gpt_critic(self) -> None:
        """A provider:model spec builds the LLM component, its id naming provider and model."""
        p = policy(generator="anthropic:claude-sonnet-4-6", critic="openai:gpt-4o-mini")
        generator, critic = build_generator(p), build_critic(p)
        assert isinstance(generator, LLMGenerator) and isinstance(critic, LLMCritic)
        assert generator.component_id == "anthropic:claude-sonnet-4-6"
        assert critic.component_id == "openai:gpt-4o-mini"
        assert isinstance(critic.model, RecordingChatModel)
        assert critic.model.price is not None and critic.model.price.output_per_mtok == 0.6
        assert critic.timeout_s == p.time_budget.per_call_s

    def test_local_server_endpoint(self) -> None:
        """An endpoint entry gives a local server's base_url, capability and keyless access."""
        p = load_policy(
            {
                "generator": "extractive",
                "critic": "openai:smollm2",
                "max_cost_usd": 0,
                "endpoints": {
                    "openai:smollm2": {
                        "base_url": "http://127.0.0.1:8082/v1",
                        "api_key_required": False,
                        "api_key_env": "EVIDENCEGATE_TEST_UNSET_KEY",
                        "structured_output": "json_object",
                        "system_role": False,
                        "max_retries": 1,
                    }
                },
            }
        )
        critic = build_critic(p)
        assert isinstance(critic, LLMCritic) and isinstance(critic.model, RecordingChatModel)
        adapter = critic.model.inner
        assert isinstance(adapter, OpenAIChatModel)
        assert str(adapter.client.base_url) == "http://127.0.0.1:8082/v1/"
        assert adapter.structured_output == "json_object" and adapter.system_role is False
        assert adapter.setting == "endpoints['openai:smollm2'].structured_output"
        assert critic.model.max_retries == 1

    def test_close_closes_the_vendor_client(self) -> None:
        """Closing an LLM component closes its vendor client's connections."""
        critic = build_critic(policy(critic="openai:gpt-4o-mini"))
        assert isinstance(critic, LLMCritic) and isinstance(critic.model, RecordingChatModel)
        adapter = critic.model.inner
        assert isinstance(adapter, OpenAIChatModel)
        assert not adapter.client.is_closed()
        critic.close()
        assert adapter.client.is_closed()

    def test_quorum_of_critics(self) -> None:
        """critics lists two critics (a model and the rules) judged by the policy's quorum."""
        p = policy(critics=["openai:gpt-4o-mini", "rules"], quorum="any")
        critic = build_critic(p)
        assert isinstance(critic, QuorumCritic) and critic.quorum == "any"
        assert isinstance(critic.critics[1], RulesCritic)

    def test_same_model_allowed_by_policy(self) -> None:
        """allow_same_model_critic with a stated reason lets the generator's model also be the
        critic."""
        p = policy(
            generator="openai:gpt-4o-mini",
            critic="openai:gpt-4o-mini",
            allow_same_model_critic=True,
            same_model_critic_reason="one approved model in this deployment",
        )
        assert build_critic(p).component_id == build_generator(p).component_id

    def test_same_model_allowed_without_a_reason_is_refused(self) -> None:
        """allow_same_model_critic alone is not enough: the policy must say why."""
        p = policy(
            generator="openai:gpt-4o-mini",
            critic="openai:gpt-4o-mini",
            allow_same_model_critic=True,
        )
        with pytest.raises(ConfigurationError, match="same_model_critic_reason"):
            build_critic(p)


@pytest.mark.usefixtures("keys")
class TestRefusedConfigurations:
    def test_same_model_is_refused_naming_the_critic(self) -> None:
        """The generator's model as critic is a ConfigurationError naming the critic."""
        p = policy(generator="openai:gpt-4o-mini", critic="openai:gpt-4o-mini")
        with pytest.raises(ConfigurationError, match="allow_same_model_critic") as info:
            build_critic(p)
        assert info.value.component == "openai:gpt-4o-mini"

    def test_same_model_in_a_quorum_is_refused(self) -> None:
        """A quorum member that is the generator's model is refused too."""
        p = policy(generator="openai:gpt-4o-mini", critics=["rules", "openai:gpt-4o-mini"])
        with pytest.raises(ConfigurationError, match="same model"):
            build_critic(p)

    def test_regulated_strict_requires_another_provider_family(self) -> None:
        """Under regulated-strict a critic of the generator's provider family is refused."""
        strict = load_policy("regulated-strict").model_dump()
        p = load_policy(
            {
                **strict,
                "prices": PRICES,
                "generator": "openai:gpt-4.1",
                "critic": "openai:gpt-4o-mini",
            }
        )
        with pytest.raises(ConfigurationError, match="provider family 'openai'") as info:
            build_critic(p)
        assert info.value.component == "openai:gpt-4o-mini"

    def test_declared_family_separates_local_servers(self) -> None:
        """Two local servers behind the openai adapter differ by their declared families."""
        strict = load_policy("regulated-strict").model_dump()
        local = {"base_url": "http://127.0.0.1:8081/v1", "api_key_required": False}
        p = load_policy(
            {
                **strict,
                "max_cost_usd": 0,
                "generator": "openai:gemma",
                "critic": "openai:smollm2",
                "endpoints": {
                    "openai:gemma": {**local, "family": "google"},
                    "openai:smollm2": {**local, "family": "huggingface"},
                },
            }
        )
        assert build_critic(p).component_id == "openai:smollm2"

    def test_missing_api_key_names_the_variable(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """An unset API-key variable is a ConfigurationError naming it."""
        monkeypatch.delenv("ANTHROPIC_API_KEY")
        with pytest.raises(ConfigurationError, match="ANTHROPIC_API_KEY"):
            build_generator(policy(generator="anthropic:claude-sonnet-4-6"))

    def test_custom_key_variable_is_named(self) -> None:
        """The variable the endpoint names is the one required and reported."""
        p = policy(
            generator="anthropic:claude-sonnet-4-6",
            endpoints={"anthropic": {"api_key_env": "TEAM_CLAUDE_KEY"}},
        )
        with pytest.raises(ConfigurationError, match="TEAM_CLAUDE_KEY"):
            build_generator(p)

    def test_price_required_under_a_cost_budget(self) -> None:
        """A model without a price cannot be budgeted: refused while max_cost_usd > 0."""
        p = load_policy({"generator": "openai:gpt-5"})
        with pytest.raises(ConfigurationError, match=r"no entry in the policy's prices"):
            build_generator(p)

    def test_unknown_provider_and_single_quorum(self) -> None:
        """An unknown provider, or a quorum of one, is refused naming the spec."""
        with pytest.raises(ConfigurationError, match="anthropic, openai"):
            build_generator(policy(generator="mistral:large"))
        with pytest.raises(ConfigurationError, match="two or more"):
            build_critic(policy(critics=["openai:gpt-4o-mini"]))
        with pytest.raises(ConfigurationError, match="twice"):
            build_critic(policy(critics=["rules", "rules"]))

    def test_bad_structured_output_mode_is_a_policy_error(self) -> None:
        """A structured-output mode outside the capability enum fails policy validation."""
        with pytest.raises(PolicyError) as info:
            load_policy({"endpoints": {"openai": {"structured_output": "xml"}}})
        assert info.value.field == "endpoints.openai.structured_output"
