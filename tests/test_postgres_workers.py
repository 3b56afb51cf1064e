"""Several processes ingesting and asking at once against one PostgreSQL store.

Four worker processes each ingest the packaged example corpus (the same eight files, so each
version is offered four times at once) and their own share of twelve versions of three load
documents, asking a question after every file. Afterwards every version is stored exactly once,
each document's supersession is the rule's, the store's invariants hold, and every run left a
complete, chain-valid trace that the store's trace index lists. Skips without a server (see
``tests/postgres_support.py``), except in CI.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from conftest import EXAMPLE_CORPUS
from postgres_support import ingest_and_ask, postgres_schema

from evidencegate.audit.index import TraceIndex
from evidencegate.corpus.postgres import PostgresStore
from evidencegate.trace.chain import verify_trace

WORKERS = 4
LOAD_DOCS = ("LOAD-A", "LOAD-B", "LOAD-C")
VERSIONS_PER_DOC = 4
QUESTIONS = [
    "What is the maximum value of a gift an employee may accept per calendar year?",
    "What is the bank's policy on employees keeping pets at the office?",
]


def load_version(directory: Path, doc: str, number: int) -> Path:
    """Version ``number`` of a load document, in force from 1 March of 2019 + number."""
    path = directory / f"{doc}-{number}.md"
    path.write_text(
        f'---\ndoc_id: {doc}\nversion: "{number}"\nversion_date: {2019 + number}-03-01\n'
        f"authority: primary\ntitle: Load document {doc}\n---\n"
        f"Section 1. The {doc} limit is {100 + number} units per year.\n",
        encoding="utf-8",
    )
    return path


class TestManyWorkers:
    def test_concurrent_ingest_and_ask(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """No version lost or duplicated, supersession as the rule says, every trace valid."""
        traces = tmp_path / "traces"
        monkeypatch.setenv("EVIDENCEGATE_TRACES_DIR", str(traces))
        example = [str(p) for p in sorted((EXAMPLE_CORPUS / "corpus").glob("*.md"))]
        load = [
            str(load_version(tmp_path, doc, number))
            for number in range(VERSIONS_PER_DOC)
            for doc in LOAD_DOCS
        ]
        shares = [load[worker::WORKERS] for worker in range(WORKERS)]
        with postgres_schema() as url:
            PostgresStore.open(url).close()
            context = multiprocessing.get_context("spawn")
            # each worker: the example files in order (so workers offer the same file at about
            # the same time), its share of load versions between them
            files = [
                [f for i, e in enumerate(example) for f in [e, *shares[w][i : i + 1]]]
                for w in range(WORKERS)
            ]
            with ProcessPoolExecutor(max_workers=WORKERS, mp_context=context) as pool:
                futures = [
                    pool.submit(ingest_and_ask, url, files[w], QUESTIONS, str(traces), w)
                    for w in range(WORKERS)
                ]
                results = [future.result(timeout=600) for future in futures]
            done = [item for outcome, _ in results for item in outcome]
            added = Counter((doc, version) for doc, version, status in done if status == "added")
            offered = Counter((doc, version) for doc, version, _ in done)
            assert set(added.values()) == {1}, "a version was stored twice"
            assert set(added) == set(offered), "an offered version was not stored"
            example_versions = [key for key in offered if not key[0].startswith("LOAD-")]
            assert len(example_versions) == 8
            assert all(offered[key] == WORKERS for key in example_versions)
            with PostgresStore.open(url, create=False) as store:
                assert store.integrity_problems() == []
                assert store.stats()["versions"] == 8 + len(LOAD_DOCS) * VERSIONS_PER_DOC
                for doc in LOAD_DOCS:
                    versions = store.versions(doc)
                    assert [v.version for v in versions] == [
                        str(n) for n in range(VERSIONS_PER_DOC)
                    ]
                    ends = [v.effective_to for v in versions]
                    assert ends == [v.effective_from for v in versions[1:]] + [None]
                    current = store.in_force(doc, dt.date(2020, 6, 1))
                    assert current is not None and current.version == "1"
            written = [path for _, paths in results for path in paths]
            assert len(written) == len(set(written)) == sum(len(f) for f in files)
            for path in written:
                report = verify_trace(Path(path))
                assert report.ok and report.complete, (path, report.reason)
            listed = TraceIndex.for_store(url).refresh()
            assert Counter(run.status for run in listed) == {"complete": len(written)}
