"""The index of a store's traces: one row per ``STORE/traces/*.jsonl`` file.

Runs write their traces as separate files (``STORE/traces/RUN_ID.jsonl``), so concurrent runs
never share a file; nothing writes to the index during a run. :meth:`TraceIndex.refresh`
brings the index up to date from the files: it re-reads only files whose size or mtime changed
since they were indexed (a run still writing, or killed midway, is listed as ``incomplete`` and
re-read once it grows) and drops rows whose file is gone. The files are the truth; the index
is a cache that can be deleted at any time.

Traces written elsewhere (an ablation's ``OUTDIR/traces/ARM/ITEM.jsonl``) are registered with
:meth:`TraceIndex.register`: their absolute paths are appended to ``STORE/traces/registered.txt``
(a file, so deleting the index loses nothing) and they are indexed like the store's own, under
their absolute path.

Why SQLite (``STORE/traces/index.sqlite3``) rather than a JSONL index: rows are replaced when a
file changes and removed when it goes, which an append-only JSONL file cannot do without a
rewrite; two ``traces list`` refreshing at once are serialised by SQLite's write lock instead
of racing on a rewrite; and listing sorts by time in SQL. The store itself uses SQLite already.
A ``postgresql://`` store keeps the index in its database instead (table ``traces``, the same
statements), over the trace files of its ``traces_dir``.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from evidencegate.exceptions import StoreError, TraceFormatError, UsageError
from evidencegate.trace.anchor import ANCHOR_LOG, check_anchor, load_key
from evidencegate.trace.chain import decode_line, read_trace, verify_trace
from evidencegate.trace.events import RunEndEvent, RunStartEvent

__all__ = [
    "INDEX_FILENAME",
    "REGISTERED_FILENAME",
    "TraceIndex",
    "TraceStatus",
    "TraceSummary",
    "summarize",
]

INDEX_FILENAME = "index.sqlite3"
REGISTERED_FILENAME = "registered.txt"
"""Absolute paths of traces outside the traces directory, one a line, append-only."""
_SCHEMA_VERSION = 1
_BUSY_TIMEOUT_S = 10.0

TraceStatus = Literal["complete", "incomplete", "tampered"]

_COLUMNS = (
    "file",
    "size",
    "mtime_ns",
    "run_id",
    "status",
    "reason",
    "lines",
    "started_at",
    "ended_at",
    "question",
    "as_of",
    "tenant",
    "policy",
    "outcome",
    "stop_reason",
    "passes",
    "coverage",
)
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS traces (
    file TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    run_id TEXT,
    status TEXT NOT NULL CHECK (status IN ('complete', 'incomplete', 'tampered')),
    reason TEXT,
    lines INTEGER NOT NULL,
    started_at TEXT,
    ended_at TEXT,
    question TEXT,
    as_of TEXT,
    tenant TEXT,
    policy TEXT,
    outcome TEXT,
    stop_reason TEXT,
    passes INTEGER,
    coverage REAL
);
CREATE INDEX IF NOT EXISTS traces_by_time ON traces (started_at);
PRAGMA user_version = {_SCHEMA_VERSION};
"""


class TraceSummary(BaseModel):
    """One trace file as listed: its run, its question and how it ended."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    """The file name inside the traces directory, or the absolute path of a registered trace."""
    size: int
    mtime_ns: int
    run_id: str | None
    status: TraceStatus
    reason: str | None = None
    """Why the chain is broken (``tampered``), else None."""
    lines: int
    started_at: str | None = None
    ended_at: str | None = None
    question: str | None = None
    as_of: dt.date | None = None
    tenant: str | None = None
    policy: str | None = None
    outcome: str | None = None
    stop_reason: str | None = None
    passes: int | None = None
    coverage: float | None = None


class TraceIndex:
    """The index of the traces in one directory (``STORE/traces``)."""

    def __init__(self, directory: str | Path, *, tables: Callable[[], Any] | None = None) -> None:
        """``tables``: opens the connection holding the ``traces`` table (a Postgres store's
        :func:`~evidencegate.corpus.postgres.open_tables`); default ``directory/index.sqlite3``."""
        self.directory = Path(directory)
        self.path = self.directory / INDEX_FILENAME
        self._tables = tables

    @classmethod
    def for_store(cls, store_dir: str | Path) -> TraceIndex:
        """The index of ``STORE/traces`` (StoreError when ``store_dir`` is not a directory), or
        of a ``postgresql://`` store's traces directory."""
        from evidencegate.corpus.postgres import default_traces_dir, is_postgres_url, open_tables

        if is_postgres_url(store_dir):
            url = str(store_dir)
            open_tables(url).close()  # StoreError now when it is not a store
            return cls(default_traces_dir(), tables=lambda: open_tables(url))
        store = Path(store_dir)
        if not store.is_dir():
            raise StoreError(f"{store} is not a store directory")
        return cls(store / "traces")

    def register(self, paths: Sequence[str | Path]) -> None:
        """Index these trace files (outside the traces directory) from now on.

        Their absolute paths are appended to ``registered.txt`` in one write; registering a
        path twice is harmless. A path that is not a file is a UsageError.
        """
        resolved = []
        for raw in paths:
            path = Path(raw).resolve()
            if not path.is_file():
                raise UsageError(f"cannot register trace {raw}: not a file")
            if "\n" in str(path) or "\r" in str(path):
                raise UsageError(f"cannot register trace {raw!r}: a line break in its path")
            resolved.append(str(path))
        if not resolved:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        data = "".join(f"{path}\n" for path in resolved).encode("utf-8", "surrogateescape")
        fd = os.open(self.directory / REGISTERED_FILENAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    def _registered(self) -> dict[str, Path]:
        """The registered trace files that still exist, by absolute path."""
        try:
            raw = (self.directory / REGISTERED_FILENAME).read_bytes()
        except FileNotFoundError:
            return {}
        out: dict[str, Path] = {}
        for line in raw.decode("utf-8", "surrogateescape").splitlines():
            path = Path(line)
            if line and path.is_absolute() and path.is_file():
                out[line] = path
        return out

    def refresh(self) -> list[TraceSummary]:
        """Bring the index up to date with the trace files; return every run, oldest first."""
        if not self.directory.is_dir():
            return []
        files = {p.name: p for p in self.directory.glob("*.jsonl") if p.is_file()}
        files.update(self._registered())
        with self._db() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                known = {
                    row[0]: (row[1], row[2])
                    for row in db.execute("SELECT file, size, mtime_ns FROM traces")
                }
                gone = sorted(set(known) - set(files))
                db.executemany("DELETE FROM traces WHERE file = ?", [(name,) for name in gone])
                for name, path in sorted(files.items()):
                    try:
                        stat = path.stat()
                        if known.get(name) == (stat.st_size, stat.st_mtime_ns):
                            continue
                        row = summarize(path).model_dump(mode="json")
                        row["file"] = name
                    except FileNotFoundError:  # deleted since the directory was listed
                        continue
                    db.execute(
                        f"INSERT INTO traces ({', '.join(_COLUMNS)}) "
                        f"VALUES ({', '.join('?' * len(_COLUMNS))}) ON CONFLICT (file) DO UPDATE "
                        f"SET {', '.join(f'{c} = excluded.{c}' for c in _COLUMNS[1:])}",
                        [row[column] for column in _COLUMNS],
                    )
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            rows = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM traces ORDER BY started_at IS NULL, "
                "started_at, file"
            ).fetchall()
        return [TraceSummary.model_validate(dict(zip(_COLUMNS, row, strict=True))) for row in rows]

    @contextmanager
    def _db(self) -> Iterator[Any]:
        if self._tables is not None:
            tables = self._tables()
            try:
                yield tables
            finally:
                tables.close()
            return
        try:
            connection = sqlite3.connect(self.path, isolation_level=None, timeout=_BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the trace index {self.path}: {exc}") from exc
        with closing(connection):
            try:
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, _SCHEMA_VERSION):  # a cache: rebuild it
                    connection.execute("DROP TABLE IF EXISTS traces")
                connection.executescript(_SCHEMA)
                yield connection
            except sqlite3.DatabaseError as exc:
                raise StoreError(
                    f"the trace index {self.path} is unusable ({exc}); delete it to rebuild it "
                    "from the trace files"
                ) from exc


def summarize(path: Path) -> TraceSummary:
    """Summarise one trace file: its chain status and, when intact, its run.

    A chain that does not match its anchor (the ``anchors.log`` beside it) is ``tampered``.
    """
    stat = path.stat()
    report = verify_trace(path)
    base = {"file": path.name, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    if not report.ok:
        return TraceSummary(
            **base,
            run_id=report.run_id,
            status="tampered",
            reason=f"seq {report.first_bad_seq}: {report.reason}",
            lines=report.lines,
            question=_first_question(path),
        )
    lines = read_trace(path)
    anchor = check_anchor(
        lines[0].run_id, len(lines), lines[-1].hash, log=path.parent / ANCHOR_LOG, key=load_key()
    )
    if not anchor.ok:
        return TraceSummary(
            **base,
            run_id=lines[0].run_id,
            status="tampered",
            reason=anchor.detail,
            lines=len(lines),
            question=_first_question(path),
        )
    start = lines[0].event if isinstance(lines[0].event, RunStartEvent) else None
    end = lines[-1].event
    answer = end.answer if isinstance(end, RunEndEvent) else None
    return TraceSummary(
        **base,
        run_id=lines[0].run_id,
        status="complete" if report.complete else "incomplete",
        lines=len(lines),
        started_at=lines[0].ts,
        ended_at=lines[-1].ts if answer else None,
        question=start.question if start else None,
        as_of=start.as_of if start else None,
        tenant=start.tenant if start else None,
        policy=str(start.policy.get("name", "")) if start else None,
        outcome=answer.outcome.value if answer else None,
        stop_reason=answer.stop_reason.value if answer else None,
        passes=answer.passes if answer else None,
        coverage=answer.coverage if answer else None,
    )


def _first_question(path: Path) -> str | None:
    """The question of a broken trace, when its first line is intact."""
    with path.open("rb") as f:
        first = f.readline()
    try:
        line = decode_line(first.rstrip(b"\n"))
    except TraceFormatError:
        return None
    return line.event.question if isinstance(line.event, RunStartEvent) else None
