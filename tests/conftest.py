"""Shared fixtures. Tests never reach the network; shared datasets skip unless required."""

from __future__ import annotations

import os
import socket
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from hypothesis import settings

from evidencegate.data import data_files

COUNTS: defaultdict[str, Counter[str]] = defaultdict(Counter)
"""Counts the fuzz, soak and kill tests keep (examples, runs, kills, integrity failures);
printed at the end of the session so a CI log can be quoted."""

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPO_ROOT.parent / "shared" / "datasets"
#: The packaged example (corpus/*.md, golden.jsonl), read where the package data is.
EXAMPLE_CORPUS = Path(str(data_files() / "example"))


def shared_path(*parts: str) -> Path:
    """Path under ../shared/datasets; skip (or fail under EVIDENCEGATE_REQUIRE_SHARED=1)."""
    path = SHARED_DATASETS.joinpath(*parts)
    if not path.exists():
        message = f"shared dataset {path} is absent (see ../shared/datasets/README.md)"
        if os.environ.get("EVIDENCEGATE_REQUIRE_SHARED") == "1":
            pytest.fail(message + " and EVIDENCEGATE_REQUIRE_SHARED=1")
        pytest.skip(message)
    return path


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuse any outbound connection except to loopback."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else str(address)
        if isinstance(host, str) and (
            host.startswith("127.") or host in {"localhost", "::1"} or host.startswith("/")
        ):
            return real_connect(self, address)  # type: ignore[arg-type]
        raise RuntimeError(f"tests must not reach the network (tried {address!r})")

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(autouse=True)
def _reset_structlog() -> Iterator[None]:
    """Each test starts from structlog's defaults."""
    structlog.reset_defaults()
    yield
    structlog.reset_defaults()


@pytest.fixture(autouse=True)
def _no_trace_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trace anchors are unsigned unless a test sets a key (the caller's shell may hold one)."""
    monkeypatch.delenv("EVIDENCEGATE_TRACE_KEY", raising=False)
    monkeypatch.delenv("EVIDENCEGATE_TRACE_KEY_FILE", raising=False)


# Property-based tests (tests/test_fuzz.py): bounded and reproducible in CI; HYPOTHESIS_PROFILE=deep
# for a longer local search. No example database: nothing is written into the repository.
settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None, print_blob=True
)
settings.register_profile("deep", max_examples=1000, deadline=None, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the counts of tests/test_fuzz.py and tests/test_soak.py."""
    for name, counts in sorted(COUNTS.items()):
        if counts:
            shown = ", ".join(f"{key}={value}" for key, value in sorted(counts.items()))
            terminalreporter.write_line(f"{name}: {shown}")
