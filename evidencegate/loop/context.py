"""The run context: what a component wrapper needs to know about the run it is serving.

The controller enters a :class:`RunContext` for the duration of a run. Wrappers around model
providers (recording, budgets, telemetry) read it with :func:`current_run` to emit model-call
events into the run's trace, add tokens and cost to its usage and check its budgets — without
every component signature carrying the trace and the budget. Context variables are per thread
and per asyncio task, so concurrent runs do not see each other's context.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from evidencegate.loop.budget import Budget, RunUsage
from evidencegate.policy import Policy
from evidencegate.protocols import TraceSink

__all__ = ["RunContext", "current_run", "run_context"]


@dataclass
class RunContext:
    run_id: str
    trace: TraceSink
    usage: RunUsage
    budget: Budget
    policy: Policy
    pass_no: int = 1


_CURRENT: ContextVar[RunContext | None] = ContextVar("evidencegate_run", default=None)


def current_run() -> RunContext | None:
    """The run being served, or None outside a run (a component called directly)."""
    return _CURRENT.get()


@contextmanager
def run_context(ctx: RunContext) -> Iterator[RunContext]:
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)
