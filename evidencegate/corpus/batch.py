"""Ingest many files: read them in worker processes, commit each one briefly, never stop early.

``ingest_batch(store, sources, jobs=N)``:

- each file is read, parsed, hashed and split into passages by :func:`prepare_file` in one of
  ``jobs`` worker processes (``jobs=1``: in this process), outside any store transaction;
- this process commits each prepared file as it arrives, in one short ``BEGIN IMMEDIATE``
  transaction (``Store.commit_prepared``), so the write lock is held only while rows are
  inserted and a concurrent ingest into the same store waits for it instead of failing;
- a file whose content and options are already stored (its key is in ``ingested_files``) is
  skipped without being parsed: re-running a batch, e.g. after ``kill -9``, does only the rest;
- a file that cannot be read or stored (encrypted, corrupt, empty, a scan without text, a
  conflicting version...) becomes an :class:`IngestFailure` with its path and reason; the other
  files are stored. Nothing of a failed file is stored.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Literal

from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.ingest import (
    IngestedVersion,
    IngestFailure,
    IngestNotice,
    IngestOptions,
    IngestReport,
    PreparedFile,
    prepare_file,
)
from evidencegate.exceptions import IngestError, StoreError, UsageError

__all__ = ["FileDone", "IngestSource", "default_jobs", "ingest_batch"]


@dataclass(frozen=True, slots=True)
class IngestSource:
    """One file to ingest with the options that describe it; ``shown`` is how reports name it
    (default: ``path`` as given)."""

    path: Path
    options: IngestOptions
    shown: str | None = None

    @property
    def name(self) -> str:
        return self.shown if self.shown is not None else str(self.path)


@dataclass(frozen=True, slots=True)
class FileDone:
    """One file finished (for progress reporting): what happened and how many pages it had."""

    path: str
    status: Literal["added", "unchanged", "skipped", "failed"]
    pages: int


def default_jobs() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def ingest_batch(
    store: StoreBackend,
    sources: Sequence[IngestSource],
    *,
    jobs: int | None = None,
    on_file: Callable[[FileDone], None] | None = None,
) -> IngestReport:
    """Ingest ``sources`` into ``store`` file by file (see the module docstring).

    The report lists versions, notices and failures in the order of ``sources``. A file is
    committed as soon as it is read, so an interrupted batch keeps what it committed.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UsageError(f"jobs must be >= 1 (got {jobs})")
    skip_keys = store.ingested_keys()
    outcomes: list[_Outcome | None] = [None] * len(sources)

    def finish(index: int, result: PreparedFile | IngestFailure) -> None:
        outcome = _commit(store, sources[index], result)
        outcomes[index] = outcome
        if on_file is not None:
            on_file(outcome.done)

    # A daemonic process (a worker of someone else's pool) may not start workers of its own.
    if jobs == 1 or len(sources) <= 1 or multiprocessing.current_process().daemon:
        for index, source in enumerate(sources):
            finish(index, _prepare(source.path, source.options, source.name, skip_keys))
    else:
        _run_pool(sources, skip_keys, min(jobs, len(sources)), finish)
    return _report([o for o in outcomes if o is not None])


@dataclass(slots=True)
class _Outcome:
    done: FileDone
    versions: list[IngestedVersion]
    notices: list[IngestNotice]
    failure: IngestFailure | None = None


def _run_pool(
    sources: Sequence[IngestSource],
    skip_keys: frozenset[str],
    workers: int,
    finish: Callable[[int, PreparedFile | IngestFailure], None],
) -> None:
    with ProcessPoolExecutor(max_workers=workers, mp_context=_context()) as pool:
        # largest files first, so that no worker is left alone with a big one at the end
        order = sorted(range(len(sources)), key=lambda i: -_size(sources[i].path))
        futures: dict[Future[PreparedFile | IngestFailure], int] = {
            pool.submit(_prepare, s.path, s.options, s.name, skip_keys): i
            for i, s in ((i, sources[i]) for i in order)
        }
        try:
            for future in as_completed(futures):
                index = futures[future]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    result = IngestFailure(
                        path=sources[index].name,
                        reason="the worker process reading it died (a crash in the PDF "
                        "library?); nothing of it is stored",
                    )
                finish(index, result)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:  # reported when the file is read
        return 0


def _context() -> BaseContext:
    """fork where it is safe (Linux, no other thread): workers start at once, with the
    package already imported; else spawn, a fresh interpreter per worker (slower to start:
    each imports evidencegate), safe whatever threads this process runs."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _prepare(
    path: Path, options: IngestOptions, shown: str, skip_keys: frozenset[str]
) -> PreparedFile | IngestFailure:
    """Read one file (in a worker process); a file that cannot be read becomes a failure."""
    try:
        return prepare_file(path, options, shown=shown, skip_keys=skip_keys)
    except IngestError as exc:
        return IngestFailure.from_error(exc)
    except Exception as exc:  # a reader library's own bug must not stop the batch
        return IngestFailure(
            path=shown, reason=f"cannot be read ({type(exc).__name__}: {exc}); nothing stored"
        )


def _commit(
    store: StoreBackend, source: IngestSource, result: PreparedFile | IngestFailure
) -> _Outcome:
    if isinstance(result, IngestFailure):
        return _failed(result)
    try:
        versions = store.commit_prepared(result)
    except IngestError as exc:
        return _failed(IngestFailure.from_error(exc))
    except StoreError as exc:
        return _failed(IngestFailure(path=source.name, reason=f"not stored: {exc}"))
    pages = sum(len(v.parsed.pages) for v in result.versions) or sum(v.pages for v in versions)
    if result.skipped:
        status: Literal["added", "unchanged", "skipped"] = "skipped"
    elif any(v.status == "added" for v in versions):
        status = "added"
    else:
        status = "unchanged"
    return _Outcome(FileDone(result.path, status, pages), versions, result.notices)


def _failed(failure: IngestFailure) -> _Outcome:
    return _Outcome(FileDone(failure.path, "failed", 0), [], [], failure)


def _report(outcomes: list[_Outcome]) -> IngestReport:
    return IngestReport(
        versions=[v for o in outcomes for v in o.versions],
        notices=[n for o in outcomes for n in o.notices],
        failures=[o.failure for o in outcomes if o.failure is not None],
        files=len(outcomes),
        skipped_files=sum(o.done.status == "skipped" for o in outcomes),
    )
