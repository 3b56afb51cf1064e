"""Builds the generator and critic a policy names. One place maps a spec to a component."""

from __future__ import annotations

from evidencegate.critique.rules import RulesCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.policy import Policy
from evidencegate.protocols import Critic, Generator

__all__ = ["build_critic", "build_generator"]


def build_generator(policy: Policy) -> Generator:
    spec = policy.generator
    if spec == "extractive":
        return ExtractiveGenerator(
            min_quote_chars=policy.min_quote_chars, authorities=policy.allowed_authorities
        )
    raise ConfigurationError(
        f"generator {spec!r} is not available: known generators are 'extractive'",
        component=spec,
    )


def build_critic(policy: Policy) -> Critic:
    spec = policy.critic
    if spec == "rules":
        return RulesCritic(min_support=policy.min_support_score)
    raise ConfigurationError(
        f"critic {spec!r} is not available: known critics are 'rules'", component=spec
    )
