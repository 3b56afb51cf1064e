"""The loop's side of the run scope: its budget, usage and trace, as model calls see them.

The controller enters a :class:`RunContext` (a :class:`~evidencegate.runscope.RunScope`) for the
duration of a run; the model door checks the run's budgets and records its calls through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from evidencegate.exceptions import BudgetExceeded
from evidencegate.loop.budget import Budget, RunUsage
from evidencegate.policy import Policy
from evidencegate.protocols import TraceSink
from evidencegate.trace.events import ModelCallEvent

__all__ = ["RunContext"]


@dataclass
class RunContext:
    """One run's budget, usage and trace: the :class:`~evidencegate.runscope.RunScope` the
    loop serves its model calls from."""

    run_id: str
    trace: TraceSink
    usage: RunUsage
    budget: Budget
    policy: Policy

    @property
    def pass_no(self) -> int:
        return self.usage.passes

    def check_model_call(self, *, priced: bool) -> float:
        self.budget.check_calls(self.usage)
        self.budget.check_time(self.usage)
        self.budget.check_tokens(self.usage)
        self.budget.check_cost(self.usage, priced_call=priced)
        return self.budget.run_seconds - self.usage.elapsed_s()

    def check_wait(self, seconds: float) -> None:
        if self.usage.elapsed_s() + seconds >= self.budget.run_seconds:
            raise BudgetExceeded(
                "time_budget.per_run_s",
                allowed=self.budget.run_seconds,
                used=self.usage.elapsed_s() + seconds,
            )

    def record_model_call(self, event: ModelCallEvent) -> None:
        self.usage.model_calls += 1
        self.usage.input_tokens += event.input_tokens
        self.usage.output_tokens += event.output_tokens
        self.usage.cost_usd += event.cost_usd
        self.trace.emit(event)
