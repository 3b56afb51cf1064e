"""The trace recorder: appends hash-chained lines, each one in the file before ``emit`` returns.

A trace file never exists empty or half-created: the first line is written (and, per
``durability``, fsynced) to a temporary file in the same directory, which is then linked into
place (``os.link`` fails when the name is taken, so two runs never share a file). Nothing is
created before the first event, so a run refused before it starts (a bad policy, a bad
question) leaves no file behind.

Durability (``policy.trace_durability``): every line is written to the file (the operating
system's cache) before ``emit`` returns, so a process killed at any moment leaves a valid
prefix. ``per_event`` also fsyncs after every line; ``per_run`` (the default) fsyncs at the
decision points, a ``decision`` or ``run_end`` line, and on close, so that a power cut loses at
most the lines after the last decision, at a fraction of the cost (one fsync per line was a
quarter of ``ask``'s time). Under ``per_run`` the first line's creation is not fsynced either:
the file and its directory entry are made durable at the first decision point (a power cut
before it may leave no file or an empty one, which a new run replaces), so a ``per_run`` ask
fsyncs at its decisions, at its end and once for the directory, plus the anchor log's append.
The directory's fsync starts when the file is created, on a thread beside the run's, and the
first decision point waits for it: it overlaps with the run's work instead of adding to its time.
(The new name may so reach the disk before the first line does, as the kernel's own writeback
could already make it do: what ``per_run`` promises is that both are durable at the first
decision point.)

A run's closing decision (``FINAL`` or ``ABSTAIN``: the loop has stopped) is the one decision
not fsynced on its own: the loop writes ``run_end`` right after it, with nothing done in
between that anyone outside the process sees (the answer is returned after ``run_end``), and
that line's fsync makes both durable. Should ``run_end`` never come, :meth:`TraceRecorder.close`
fsyncs what is unsynced. So the closing decision and the run's end are durable together,
before ``ask`` returns, at one fsync instead of two; the decisions that continue a run
(``FOLLOW_UP``, ``REGENERATE``) are each fsynced before the next pass starts.
"""

from __future__ import annotations

import _thread
import contextlib
import datetime as dt
import os
import tempfile
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from evidencegate.closing import Closing
from evidencegate.contracts import Action
from evidencegate.exceptions import UsageError
from evidencegate.policy import Durability
from evidencegate.trace.anchor import append_anchor, load_key
from evidencegate.trace.chain import GENESIS_HASH, encode_checked_line
from evidencegate.trace.events import DecisionEvent, TraceEvent, TraceLine

__all__ = ["DURABILITIES", "TraceRecorder"]

DURABILITIES: tuple[Durability, ...] = ("per_event", "per_run")
_SYNC_POINTS = frozenset({"decision", "run_end"})
_CLOSING_ACTIONS = frozenset({Action.FINAL, Action.ABSTAIN})
"""Decisions that end a run: made durable with the ``run_end`` line written after them."""


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class TraceRecorder(Closing):
    """A :class:`~evidencegate.protocols.TraceSink` writing one run's trace.

    With a ``path`` every :meth:`emit` writes one line and flushes it, so a crash leaves a
    valid prefix that :func:`~evidencegate.trace.chain.verify_trace` accepts as incomplete; the
    file is fsynced per ``durability`` (see the module docstring). Without a path the trace is
    kept in memory only. Either way ``lines`` holds the lines as parsed back from their bytes,
    exactly what a reader of the file gets.

    A trace is written once: an existing non-empty file is refused, never appended to.
    On close, a file trace with at least one line is anchored: its head hash is appended to
    the anchor log beside it (:mod:`evidencegate.trace.anchor`), signed when a trace key is set.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        run_id: str | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        durability: Durability = "per_run",
    ) -> None:
        if durability not in DURABILITIES:
            raise UsageError(
                f"trace durability {durability!r} is not one of {', '.join(DURABILITIES)}"
            )
        self.durability: Durability = durability
        self._unsynced = False
        self._new_entry = False  # the directory entry not yet fsynced (per_run creation)
        self._entry_sync: threading.Event | None = None  # its fsync, under way
        self.run_id: str = uuid.uuid4().hex if run_id is None else run_id
        self.path: Path | None = None if path is None else Path(path)
        self._clock = _utc_now if clock is None else clock
        self._lines: list[TraceLine] = []
        self._file: BinaryIO | None = None
        self._closed = False
        self._failed = False
        self._key: bytes | None = None
        if self.path is not None:
            _refuse_existing(self.path)
            self._key = load_key()  # a bad key is refused before the run, not at its end

    @property
    def lines(self) -> list[TraceLine]:
        """A copy of the lines written so far."""
        return list(self._lines)

    @property
    def last_hash(self) -> str:
        """The hash of the last line; the genesis hash before the first."""
        return self._lines[-1].hash if self._lines else GENESIS_HASH

    def emit(self, event: TraceEvent) -> None:
        """Append one line for ``event``; it is in the file when this returns (fsynced per
        ``durability``)."""
        if self._closed:
            raise UsageError(f"trace recorder for run {self.run_id} is closed")
        # The bytes are read back before writing: the recorder never writes a line that
        # verify_trace would reject, and the in-memory copy is what a reader will see.
        data, line = encode_checked_line(
            len(self._lines), self._timestamp(), self.run_id, self.last_hash, event
        )
        if self.path is not None:
            try:
                sync = self.durability == "per_event" or (
                    event.kind in _SYNC_POINTS and not _closing(event)
                )
                if self._file is None:
                    self._file = _create_with_first_line(self.path, data + b"\n", sync=sync)
                    self._unsynced = self._new_entry = not sync
                    if self._new_entry:
                        self._entry_sync = _start_directory_sync(self.path.parent)
                else:
                    self._file.write(data + b"\n")
                    self._file.flush()
                    self._unsynced = True
                    if sync:
                        self._sync()
            except OSError:
                # Part of the line may be on disk: nothing can be chained after it.
                self._closed = self._failed = True
                if self._file is not None:
                    with contextlib.suppress(OSError):
                        self._file.close()
                self._file = None
                raise
        self._lines.append(line)

    def close(self) -> None:
        """Close the file and anchor its head (idempotent); later ``emit`` calls raise."""
        if self._closed:
            return
        self._closed = True
        if self._file is not None:
            try:
                if self._unsynced:
                    self._sync()
            except OSError:
                self._failed = True  # not durable: the head is not anchored
                raise
            finally:
                self._file.close()
                self._file = None
            if self.path is not None and self._lines and not self._failed:
                append_anchor(
                    self.path, self.run_id, len(self._lines), self.last_hash, key=self._key
                )

    def _sync(self) -> None:
        assert self._file is not None
        os.fsync(self._file.fileno())
        self._unsynced = False
        if self._new_entry and self.path is not None:
            # The new name, started at creation: durable with the first line from here on.
            if self._entry_sync is None:
                _fsync_directory(self.path.parent)
            else:
                self._entry_sync.wait()
                self._entry_sync = None
            self._new_entry = False

    def _timestamp(self) -> str:
        now = self._clock()
        if now.tzinfo is None or now.utcoffset() is None:
            raise UsageError(
                f"trace clock returned a naive datetime ({now.isoformat()}); give it a tzinfo"
            )
        return now.astimezone(dt.UTC).isoformat(timespec="microseconds")


def _closing(event: TraceEvent) -> bool:
    """Is ``event`` a run's closing decision (fsynced with the ``run_end`` line after it)?"""
    return isinstance(event, DecisionEvent) and event.decision.action in _CLOSING_ACTIONS


def _refuse_existing(path: Path) -> None:
    if path.is_file() and path.stat().st_size > 0:
        raise UsageError(
            f"trace file {path} already exists and is not empty; a trace is written once, "
            "choose a new path"
        )


def _create_with_first_line(path: Path, first: bytes, *, sync: bool = True) -> BinaryIO:
    """Create ``path`` holding exactly ``first`` in one step; return it for appending.

    The line goes to a temporary file that is linked to ``path``: the name appears with its
    first line already written, or not at all. With ``sync`` the line and the new name are
    fsynced before this returns; without, the caller fsyncs both later. An existing empty file
    (left by an older version, or made by the caller) is replaced; a non-empty one is refused.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.write(fd, first)
        if sync:
            os.fsync(fd)
        os.fchmod(fd, 0o644)
        try:
            os.link(temporary, path)
        except FileExistsError:
            if path.stat().st_size > 0:
                raise UsageError(
                    f"trace file {path} already exists and is not empty; a trace is written "
                    "once, choose a new path"
                ) from None
            os.replace(temporary, path)
        if sync:
            _fsync_directory(path.parent)
    finally:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    return path.open("ab")


def _start_directory_sync(directory: Path) -> threading.Event | None:
    """Start fsyncing ``directory`` on a thread of its own; the event is set once it is done.
    None when no thread can be started (the caller then fsyncs it itself).

    A bare ``_thread`` thread: ``threading.Thread.start`` waits until the new thread runs,
    which on a busy machine costs about what the overlap saves. It ends with its fsync, so it
    adds no lasting thread to the process (nor to ``threading.active_count``, which decides
    whether batch ingest may fork)."""
    done = threading.Event()

    def sync() -> None:
        try:
            _fsync_directory(directory)
        finally:
            done.set()

    try:
        _thread.start_new_thread(sync, ())
    except RuntimeError:  # no more threads: the caller syncs in line
        return None
    return done


def _fsync_directory(directory: Path) -> None:
    """Make a new directory entry durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
