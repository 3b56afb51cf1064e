"""Budgets: a small frozen object of limits with ``check_*`` methods, and the usage it checks.

The limits come from the policy. The controller counts passes and retrievals in the run's
:class:`RunUsage` (the model door counts calls, tokens and cost) and checks the limits at the top
of each pass and before each retrieval and model call: a ``check_*`` raises
:class:`BudgetExceeded` naming the limit and the value seen. Two limits are asked, not raised,
because the run decides what to do when they are spent: :meth:`Budget.passes_left` (the pass in
progress is finished and judged before the run stops with ``max_passes``) and
:meth:`Budget.followups_left`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from evidencegate.contracts import Usage
from evidencegate.exceptions import BudgetExceeded
from evidencegate.policy import Policy

__all__ = ["Budget", "RunUsage"]


@dataclass(frozen=True, kw_only=True)
class Budget:
    """The limits of one run."""

    max_passes: int
    max_followups: int
    max_retrievals: int
    max_tokens: int
    max_cost_usd: float
    run_seconds: float
    max_model_calls: int = 40

    @classmethod
    def from_policy(cls, policy: Policy) -> Budget:
        return cls(
            max_passes=policy.max_passes,
            max_followups=policy.max_followups,
            max_retrievals=policy.max_retrievals,
            max_tokens=policy.max_tokens,
            max_cost_usd=policy.max_cost_usd,
            run_seconds=policy.time_budget.per_run_s,
            max_model_calls=policy.max_model_calls,
        )

    def check_time(self, usage: RunUsage) -> None:
        elapsed = usage.elapsed_s()
        if elapsed >= self.run_seconds:
            raise BudgetExceeded("time_budget.per_run_s", allowed=self.run_seconds, used=elapsed)

    def check_tokens(self, usage: RunUsage) -> None:
        used = usage.input_tokens + usage.output_tokens
        if used >= self.max_tokens:
            raise BudgetExceeded("max_tokens", allowed=self.max_tokens, used=used)

    def check_cost(self, usage: RunUsage, *, priced_call: bool = False) -> None:
        """Raise once the cost budget is spent. Before a call to a priced model (``priced_call``)
        a budget of 0 is spent already: such a call may not be made at all."""
        if (self.max_cost_usd or priced_call) and usage.cost_usd >= self.max_cost_usd:
            raise BudgetExceeded("max_cost_usd", allowed=self.max_cost_usd, used=usage.cost_usd)

    def check_calls(self, usage: RunUsage) -> None:
        """Raise when one more model call would exceed ``max_model_calls``."""
        if usage.model_calls >= self.max_model_calls:
            raise BudgetExceeded(
                "max_model_calls", allowed=self.max_model_calls, used=usage.model_calls
            )

    def check_retrieval(self, usage: RunUsage) -> None:
        """Raise when one more retrieval would exceed the retrieval budget."""
        if usage.retrievals >= self.max_retrievals:
            raise BudgetExceeded(
                "max_retrievals", allowed=self.max_retrievals, used=usage.retrievals
            )

    def check_pass(self, usage: RunUsage) -> None:
        """Everything checked at the top of a pass."""
        self.check_time(usage)
        self.check_tokens(usage)
        self.check_cost(usage)

    def passes_left(self, usage: RunUsage) -> bool:
        """May the run take another pass? The first pass is the draft; ``max_passes``
        reflection passes may follow it."""
        return usage.passes <= self.max_passes

    def followups_left(self, usage: RunUsage) -> bool:
        """May the run make another follow-up retrieval?"""
        return usage.followups < self.max_followups and usage.retrievals < self.max_retrievals


@dataclass(kw_only=True)
class RunUsage:
    """What a run has consumed so far (mutable; one per run)."""

    clock: Callable[[], float] = time.monotonic
    started: float = field(default=0.0)
    passes: int = 0
    retrievals: int = 0
    followups: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0

    def __post_init__(self) -> None:
        self.started = self.clock()

    def elapsed_s(self) -> float:
        return self.clock() - self.started

    def snapshot(self) -> Usage:
        """The usage reported in the answer (passes are reported on their own)."""
        return Usage(
            retrievals=self.retrievals,
            model_calls=self.model_calls,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cost_usd=round(self.cost_usd, 6),
        )
