"""The trace recorder: appends hash-chained lines, each one on disk before ``emit`` returns."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from evidencegate.closing import Closing
from evidencegate.exceptions import UsageError
from evidencegate.trace.chain import GENESIS_HASH, decode_line, encode_line
from evidencegate.trace.events import TraceEvent, TraceLine

__all__ = ["TraceRecorder"]


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class TraceRecorder(Closing):
    """A :class:`~evidencegate.protocols.TraceSink` writing one run's trace.

    With a ``path`` every :meth:`emit` writes one line, flushes it and fsyncs the file, so a
    crash leaves a valid prefix that :func:`~evidencegate.trace.chain.verify_trace` accepts as
    incomplete. Without a path the trace is kept in memory only. Either way ``lines`` holds
    the lines as parsed back from their bytes, exactly what a reader of the file gets.

    A trace is written once: an existing non-empty file is refused, never appended to.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        run_id: str | None = None,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.run_id: str = uuid.uuid4().hex if run_id is None else run_id
        self.path: Path | None = None if path is None else Path(path)
        self._clock = _utc_now if clock is None else clock
        self._lines: list[TraceLine] = []
        self._file: BinaryIO | None = None
        self._closed = False
        if self.path is not None:
            self._file = _open_new(self.path)

    @property
    def lines(self) -> list[TraceLine]:
        """A copy of the lines written so far."""
        return list(self._lines)

    @property
    def last_hash(self) -> str:
        """The hash of the last line; the genesis hash before the first."""
        return self._lines[-1].hash if self._lines else GENESIS_HASH

    def emit(self, event: TraceEvent) -> None:
        """Append one line for ``event``; it is on disk (fsynced) when this returns."""
        if self._closed:
            raise UsageError(f"trace recorder for run {self.run_id} is closed")
        data, _ = encode_line(
            len(self._lines), self._timestamp(), self.run_id, self.last_hash, event
        )
        # Parse the bytes back before writing: the recorder never writes a line that
        # verify_trace would reject, and the in-memory copy is what a reader will see.
        line = decode_line(data)
        if self._file is not None:
            try:
                self._file.write(data + b"\n")
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError:
                # Part of the line may be on disk: nothing can be chained after it.
                self._closed = True
                with contextlib.suppress(OSError):
                    self._file.close()
                self._file = None
                raise
        self._lines.append(line)

    def close(self) -> None:
        """Close the file (idempotent); later ``emit`` calls raise."""
        self._closed = True
        if self._file is not None:
            self._file.close()
            self._file = None

    def _timestamp(self) -> str:
        now = self._clock()
        if now.tzinfo is None or now.utcoffset() is None:
            raise UsageError(
                f"trace clock returned a naive datetime ({now.isoformat()}); give it a tzinfo"
            )
        return now.astimezone(dt.UTC).isoformat(timespec="microseconds")


def _open_new(path: Path) -> BinaryIO:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    if os.fstat(fd).st_size > 0:
        os.close(fd)
        raise UsageError(
            f"trace file {path} already exists and is not empty; a trace is written once, "
            "choose a new path"
        )
    return os.fdopen(fd, "ab")
