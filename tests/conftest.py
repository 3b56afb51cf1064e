"""Shared fixtures. Tests never reach the network; shared datasets skip unless required."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import shutil
import socket
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import structlog
from hypothesis import settings

from evidencegate.contracts import GatedAnswer, Outcome, Passage, StopReason
from evidencegate.corpus import IngestOptions, IngestReport, Store
from evidencegate.data import data_files

COUNTS: defaultdict[str, Counter[str]] = defaultdict(Counter)
"""Counts the fuzz, soak and kill tests keep (examples, runs, kills, integrity failures);
printed at the end of the session so a CI log can be quoted."""

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATASETS = REPO_ROOT.parent / "shared" / "datasets"
#: The packaged example (corpus/*.md, golden.jsonl), read where the package data is.
EXAMPLE_CORPUS = Path(str(data_files() / "example"))


# A policy stored in two versions (the second raises the limit), shared by the store tests.
GIFTS_V1 = """---
doc_id: POL-GIFTS
version: "2022.1"
version_date: 2022-01-01
authority: primary
title: Gifts Policy
---
Employees may accept a gift with a value of up to $100 per calendar year.
\fGifts must be recorded in the gift register within five business days.
"""
GIFTS_V2 = (
    GIFTS_V1.replace("2022.1", "2024.1").replace("2022-01-01", "2024-03-01").replace("$100", "$150")
)


ABSTAINED_ANSWER = GatedAnswer(
    question="q",
    as_of=dt.date(2024, 1, 1),
    outcome=Outcome.ABSTAINED,
    answer="Abstained",
    coverage=0.25,
    stop_reason=StopReason.NO_EVIDENCE,
    passes=1,
    trace_id="r",
)
"""A run's closing answer for trace tests: an abstention with nothing else in it."""


def catalog_control(pid: str, label: str, heading: str, text: str) -> Passage:
    """A control's passage, labelled and read under its heading, as a catalog is ingested."""
    return Passage(
        passage_id=pid,
        doc_id="CAT",
        version="1",
        page=len(pid),
        char_start=0,
        char_end=len(text),
        text=text,
        label=label,
        context=f"{label}\n{heading}\nControl Catalog",
    )


def labelled_paragraph(doc_id: str, label: str, page: int, text: str, *, context: str) -> Passage:
    """A labelled paragraph of a made-up rulebook, one page per paragraph."""
    return Passage(
        passage_id=label,
        doc_id=doc_id,
        version="1",
        page=page,
        char_start=0,
        char_end=len(text),
        text=text,
        label=label,
        context=context,
    )


def cfr_store(tmp_path: Path, records: list[tuple[str, str, str]]) -> Store:
    """A store of one made-up CFR part ("12 CFR 1099", version 1 of 2020), one paragraph per
    (label, section heading, text), its messages kept off the terminal."""
    source = tmp_path / "cfr.jsonl"
    source.write_text(
        "".join(
            json.dumps(
                {
                    "doc_id": "12 CFR 1099",
                    "version": "1",
                    "version_date": "2020-01-01",
                    "authority": "primary",
                    "label": label,
                    "section": section,
                    "text": text,
                }
            )
            + "\n"
            for label, section, text in records
        ),
        encoding="utf-8",
    )
    store = Store.open(tmp_path / "cfr-store")
    store.messages = io.StringIO()
    store.ingest([source])
    return store


def filing_store(
    tmp_path: Path, name: str, front: list[str], pages: list[str], *, notes: int
) -> Store:
    """A store of one made-up annual filing: its front matter lines, its ``pages`` (one per
    form feed) and ``notes`` pages on other matters after them (a filing is long: the words of
    its pages are rare in it), its messages kept off the terminal."""
    others = [
        f"Note {n}. Revenue from product line {n} is recognized at a point in time."
        for n in range(notes)
    ]
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"{name}.md"
    body = "\f".join([*pages, *others])
    path.write_text("---\n" + "\n".join(front) + "\n---\n" + body + "\n", encoding="utf-8")
    store = Store.open(tmp_path / "store")
    store.messages = io.StringIO()
    store.ingest([path], IngestOptions(authority="primary"))
    return store


def shared_path(*parts: str) -> Path:
    """Path under ../shared/datasets; skip (or fail under EVIDENCEGATE_REQUIRE_SHARED=1)."""
    path = SHARED_DATASETS.joinpath(*parts)
    if not path.exists():
        message = f"shared dataset {path} is absent (see ../shared/datasets/README.md)"
        if os.environ.get("EVIDENCEGATE_REQUIRE_SHARED") == "1":
            pytest.fail(message + " and EVIDENCEGATE_REQUIRE_SHARED=1")
        pytest.skip(message)
    return path


# ------------------------------------------------------------------------ the example corpus

EXAMPLE_ITEMS: list[dict[str, Any]] = [
    json.loads(line)
    for line in (EXAMPLE_CORPUS / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]
"""The example golden set as raw JSON objects, in file order."""


def example_item(item_id: str) -> dict[str, Any]:
    """The example golden item ``item_id`` (``ex-001`` ...), as raw JSON."""
    for item in EXAMPLE_ITEMS:
        if item["id"] == item_id:
            return item
    raise AssertionError(f"no example golden item {item_id!r}")


def example_corpus_files() -> list[Path]:
    """The example corpus's documents, in a fixed order."""
    return sorted((EXAMPLE_CORPUS / "corpus").glob("*.md"))


# ------------------------------------------------------------------------------------ stores
# Ingesting is the slow part of most end-to-end tests, so each corpus is ingested once per
# session. The example store is never opened after it is built: a test (or a module) gets its
# own copy of the directory, so the traces, reviews and versions one test adds are never seen by
# another. The CFPB store is large and shared as it is: read it, never write to it.


@pytest.fixture(scope="session")
def example_store_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example corpus ingested with the default options, once; copy it, never open it."""
    directory = tmp_path_factory.mktemp("example-master") / "store"
    with Store.open(directory) as store:
        store.ingest(example_corpus_files(), IngestOptions())
    return directory


@pytest.fixture
def example_store_dir(example_store_master: Path, tmp_path: Path) -> Path:
    """A private copy of the example store for one test (``tmp_path / "store"``)."""
    return Path(shutil.copytree(example_store_master, tmp_path / "store"))


@pytest.fixture
def example_store(example_store_dir: Path) -> Iterator[Store]:
    """The test's private example store, open."""
    with Store.open(example_store_dir, create=False) as store:
        yield store


@pytest.fixture(scope="module")
def module_example_store_dir(
    example_store_master: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A copy of the example store shared by one module's tests (for module-scoped fixtures)."""
    return Path(shutil.copytree(example_store_master, tmp_path_factory.mktemp("example") / "store"))


@pytest.fixture(scope="module")
def module_example_store(module_example_store_dir: Path) -> Iterator[Store]:
    """The module's example store, open for the module's tests."""
    with Store.open(module_example_store_dir, create=False) as store:
        yield store


@dataclass(frozen=True)
class Ingested:
    """A store and the report of the one ingest that filled it."""

    source: Path
    store: Store
    report: IngestReport


@pytest.fixture(scope="session")
def cfpb_ingest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ingested]:
    """The CFPB regulations (47k paragraphs, 49 dated versions) ingested once per session with
    only ``authority="primary"``, and the ingest's report."""
    source = shared_path("corpora", "cfpb_regml", "paragraphs.jsonl")
    with Store.open(tmp_path_factory.mktemp("cfpb") / "store") as store:
        report = store.ingest([source], IngestOptions(authority="primary"))
        yield Ingested(source, store, report)


@pytest.fixture(scope="session")
def cfpb_store(cfpb_ingest: Ingested) -> Store:
    """The session's CFPB store, shared by every test that asks for it: read only."""
    return cfpb_ingest.store


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
