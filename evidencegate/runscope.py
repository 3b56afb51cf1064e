"""The run a model call serves, as the model door sees it: a protocol and a context variable.

The loop enters a :class:`RunScope` for the duration of a run (:func:`run_scope`). The wrapper
every model call goes through (:class:`~evidencegate.providers.recording.RecordingChatModel`)
reads it with :func:`current_run` to check the run's budgets before a call, count the call and
record it in the run's trace, without every component signature carrying the trace and the
budget. The scope is a protocol implemented by the loop
(:class:`~evidencegate.loop.context.RunContext`): providers depend on this module, never on the
loop above them. Context variables are per thread and per asyncio task, so concurrent runs do
not see each other's scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

from evidencegate.policy import Policy
from evidencegate.trace.events import ModelCallEvent

__all__ = ["RunScope", "current_run", "run_scope"]


class RunScope(Protocol):
    """What a model call may ask of the run it serves."""

    @property
    def policy(self) -> Policy:
        """The run's policy (model prices and endpoint settings)."""
        ...

    @property
    def pass_no(self) -> int:
        """The pass being run (0 before the first pass starts)."""
        ...

    def check_model_call(self, *, priced: bool) -> float:
        """Raise :class:`~evidencegate.exceptions.BudgetExceeded` when the run may not make one
        more model call (calls, time, tokens, cost; ``priced``: the call costs money); else
        return the seconds the run has left."""
        ...

    def check_wait(self, seconds: float) -> None:
        """Raise :class:`~evidencegate.exceptions.BudgetExceeded` when waiting ``seconds``
        (a retry's backoff) would spend the run's time budget."""
        ...

    def record_model_call(self, event: ModelCallEvent) -> None:
        """Count the call, its tokens and cost in the run's usage and emit it to its trace."""
        ...


_CURRENT: ContextVar[RunScope | None] = ContextVar("evidencegate_run", default=None)


def current_run() -> RunScope | None:
    """The run being served, or None outside a run (a component called directly)."""
    return _CURRENT.get()


@contextmanager
def run_scope(scope: RunScope) -> Iterator[RunScope]:
    """Make ``scope`` the current run for the duration of the ``with`` block."""
    token = _CURRENT.set(scope)
    try:
        yield scope
    finally:
        _CURRENT.reset(token)
