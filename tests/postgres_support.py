"""A fresh store of either backend for tests: SQLite in a temporary directory, or PostgreSQL.

PostgreSQL tests need a server: ``EVIDENCEGATE_TEST_POSTGRES`` holds the URL of a database the
tests may create schemas in (``.ci/postgres.sh`` starts one and prints it). Without it they skip
with a message, except under ``EVIDENCEGATE_REQUIRE_SHARED=1`` (CI), where they fail. Each
store gets its own schema (``search_path`` set in the URL), dropped after the test.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

POSTGRES_ENV_VAR = "EVIDENCEGATE_TEST_POSTGRES"
BACKENDS = ("sqlite", "postgres")


def postgres_dsn() -> str:
    """The test server's URL; skip (or fail under EVIDENCEGATE_REQUIRE_SHARED=1) without one."""
    dsn = os.environ.get(POSTGRES_ENV_VAR)
    if not dsn:
        message = (
            f"no PostgreSQL server for the tests: set {POSTGRES_ENV_VAR}=postgresql://... "
            "(e.g. from bash .ci/postgres.sh)"
        )
        if os.environ.get("EVIDENCEGATE_REQUIRE_SHARED") == "1":
            pytest.fail(message + " -- required under EVIDENCEGATE_REQUIRE_SHARED=1")
        pytest.skip(message)
    try:
        import psycopg  # noqa: F401 -- only checks that the driver is installed
    except ImportError:
        pytest.fail("psycopg is not installed: pip install -e '.[dev]'")
    return dsn


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL whose tables go to a new, empty schema; the schema is dropped afterwards."""
    import psycopg

    dsn = postgres_dsn()
    schema = f"eg_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in dsn else "?"
    try:
        yield f"{dsn}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def store_location(backend: str, tmp_path: Path) -> Iterator[str]:
    """Where a new, empty store of ``backend`` can be opened (a directory or a URL)."""
    if backend == "sqlite":
        yield str(tmp_path / f"store-{uuid.uuid4().hex[:8]}")
    else:
        with postgres_schema() as url:
            yield url


def ingest_and_ask(
    url: str, files: list[str], questions: list[str], traces: str, worker: int
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """One worker of tests/test_postgres_workers.py, in its own process: ingest ``files`` one
    at a time, asking a question after each; return what each ingest did and the traces."""
    import datetime as dt

    from evidencegate.corpus.postgres import PostgresStore
    from evidencegate.gate import EvidenceGate

    done: list[tuple[str, str, str]] = []
    written: list[str] = []
    with PostgresStore.open(url, traces_dir=traces) as store:
        gate = EvidenceGate(store)
        for number, path in enumerate(files):
            report = store.ingest([Path(path)])
            done.extend((v.doc_id, v.version, v.status) for v in report.versions)
            question = questions[number % len(questions)]
            answer = gate.ask(question, as_of=dt.date(2024, 6, 1), run_id=f"w{worker}-{number}")
            written.append(str(Path(traces) / f"{answer.trace_id}.jsonl"))
    return done, written
