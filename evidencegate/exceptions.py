"""Every error evidencegate raises, in one hierarchy.

Caller's mistakes (fix the input, the policy or the configuration) are separated from run
outcomes (the run itself decided to stop). Each error carries structured attributes and its
message names the limit or the field and the value seen.

    EvidenceGateError
    ├── UsageError                      the caller's mistake
    │   ├── ConfigurationError          components wired wrongly (e.g. critic == generator)
    │   ├── PolicyError                 a policy file or object breaks policy.schema.json
    │   ├── IngestError                 a source file cannot be ingested (file, page/line named)
    │   ├── StoreError                  the store directory is missing, locked or not a store
    │   └── TraceFormatError            a trace file is not a trace (unparseable line)
    └── RunOutcome                      raised inside a run; the controller turns it into a stop
        ├── BudgetExceeded              a time / token / cost / retrieval / pass budget ran out
        ├── CriticOutputInvalid         critic output failed its JSON Schema (after repair)
        ├── ModelOutputInvalid          a model's output failed its JSON Schema (after repair)
        ├── ModelCallFailed             a model call failed (after its bounded retries)
        └── EvidenceThresholdNotMet     contract not met and the caller asked for an exception

The controller never lets a ``RunOutcome`` escape as a pass: it maps each one to a
``StopReason`` and applies ``policy.on_fail``.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BudgetExceeded",
    "ConfigurationError",
    "CriticOutputInvalid",
    "EvidenceGateError",
    "EvidenceThresholdNotMet",
    "IngestError",
    "ModelCallFailed",
    "ModelOutputInvalid",
    "PolicyError",
    "RunOutcome",
    "StoreError",
    "TraceFormatError",
    "UsageError",
]


class EvidenceGateError(Exception):
    """Base class of every evidencegate error."""


class UsageError(EvidenceGateError):
    """The caller's input, policy or configuration is wrong; nothing was run or written."""


class ConfigurationError(UsageError):
    """Components are wired in a way the policy forbids."""

    def __init__(self, message: str, *, component: str | None = None) -> None:
        super().__init__(message)
        self.component = component


class PolicyError(UsageError):
    """A policy breaks its schema. ``field`` is the JSON path, ``rule`` the failed keyword."""

    def __init__(self, message: str, *, field: str = "", rule: str = "", source: str = "") -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule
        self.source = source


class IngestError(UsageError):
    """A source cannot be ingested. The store is left exactly as it was."""

    def __init__(
        self,
        message: str,
        *,
        path: str,
        page: int | None = None,
        line: int | None = None,
    ) -> None:
        where = path
        if page is not None:
            where += f" page {page}"
        if line is not None:
            where += f" line {line}"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.page = page
        self.line = line
        self.reason = message


class StoreError(UsageError):
    """The store cannot be opened or is not an evidencegate store."""


class TraceFormatError(UsageError):
    """A trace file cannot be parsed. ``seq`` is the 0-based line index when known."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class RunOutcome(EvidenceGateError):
    """A run stopped itself. The controller maps these to a StopReason; never a pass."""


class BudgetExceeded(RunOutcome):
    """A budget ran out: ``limit`` names it, ``allowed`` and ``used`` are the numbers."""

    def __init__(self, limit: str, *, allowed: float, used: float) -> None:
        super().__init__(f"{limit}={_fmt(allowed)} reached (used={_fmt(used)})")
        self.limit = limit
        self.allowed = allowed
        self.used = used


class CriticOutputInvalid(RunOutcome):
    """The critic's output failed validation, after the bounded repair attempt."""

    def __init__(self, message: str, *, critic: str, errors: list[str] | None = None) -> None:
        super().__init__(f"critic {critic!r}: {message}")
        self.critic = critic
        self.errors = errors or []


class ModelOutputInvalid(RunOutcome):
    """A model's structured output failed its JSON Schema, after the one repair call.

    ``component`` names the component (e.g. ``openai:gpt-4o-mini``), ``errors`` the validation
    messages of the last attempt.
    """

    def __init__(self, message: str, *, component: str, errors: list[str] | None = None) -> None:
        super().__init__(f"{component}: {message}")
        self.component = component
        self.errors = errors or []


class ModelCallFailed(RunOutcome):
    """A request to a language model failed: an HTTP error, a timeout or an unusable body.

    ``retryable`` is true for 429, 5xx, timeouts and connection errors; ``retry_after`` is the
    server's retry-after in seconds when it sent one. ``request_body`` / ``response_body`` are
    what was sent and received (never an API key), recorded in the trace.
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        model: str,
        status_code: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        request_body: dict[str, Any] | None = None,
        response_body: dict[str, Any] | None = None,
    ) -> None:
        status = f" (status {status_code})" if status_code is not None else ""
        super().__init__(f"{provider}:{model}{status}: {message}")
        self.provider = provider
        self.model = model
        self.status_code = status_code
        self.retryable = retryable
        self.retry_after = retry_after
        self.request_body = request_body
        self.response_body = response_body


class EvidenceThresholdNotMet(RunOutcome):
    """Raised by ``GatedAnswer.raise_for_outcome()`` when the answer is not fully supported."""

    def __init__(self, message: str, *, outcome: str, stop_reason: str, coverage: float) -> None:
        super().__init__(message)
        self.outcome = outcome
        self.stop_reason = stop_reason
        self.coverage = coverage


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
