"""Anchors: a trace's head hash kept outside the trace, so truncation and rewrites show.

The hash chain (:mod:`evidencegate.trace.chain`) carries no secret: cutting the last lines off a
trace leaves a valid, "incomplete" prefix, and whoever can write the file can rewrite it from
some line on and recompute every later hash. An anchor closes both gaps. When a recorder closes
it appends one line to the **anchor log** ``anchors.log`` in the trace's directory (for the
store's traces: ``STORE/traces/anchors.log``)::

    {"head":H,"lines":N,"mac":M,"run_id":R,"trace":"RUN.jsonl","ts":...}

``head`` is the chain's last hash (the ``hash`` of line N-1), so the anchor does not depend on
how lines are serialised: it composes with any canonical form the chain uses. ``mac`` is
HMAC-SHA256 over ``run_id``, ``lines`` and ``head`` with a key from the environment variable
``EVIDENCEGATE_TRACE_KEY`` or the file named by ``EVIDENCEGATE_TRACE_KEY_FILE``; without a key
it is null. The log is append-only: lines are appended under an exclusive ``flock`` with one
``write`` and an ``fsync``, never rewritten.

:func:`check_anchor` compares a verified chain with the last anchor of its run: a trace with
fewer lines or another head than anchored was truncated or rewritten. With a key, an anchor is
trusted only when its MAC verifies, so someone who can write the trace and the log but does not
hold the key cannot hide a rewrite by appending a matching anchor. See the README's "Security
and threat model" for what is and is not detected.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from evidencegate.canonical import canonical_json
from evidencegate.exceptions import ConfigurationError

__all__ = [
    "ANCHOR_LOG",
    "KEY_ENV",
    "KEY_FILE_ENV",
    "Anchor",
    "AnchorCheck",
    "anchor_mac",
    "append_anchor",
    "check_anchor",
    "load_key",
    "read_anchors",
]

ANCHOR_LOG = "anchors.log"
"""The anchor log's file name, beside the traces it anchors (not ``*.jsonl``: not a trace)."""
KEY_ENV = "EVIDENCEGATE_TRACE_KEY"
KEY_FILE_ENV = "EVIDENCEGATE_TRACE_KEY_FILE"
_MIN_KEY_BYTES = 16
_MAC_DOMAIN = b"evidencegate-trace-anchor/1"


class Anchor(BaseModel):
    """One line of the anchor log: a run's trace had ``lines`` lines ending in ``head``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    run_id: str
    trace: str
    """The trace's file name, for a reader of the log (the run_id is what is matched)."""
    lines: int
    head: str
    ts: str
    mac: str | None = None


@dataclass(frozen=True)
class AnchorCheck:
    """The result of :func:`check_anchor`.

    ``status``: ``match`` (the trace is exactly as anchored), ``mismatch`` (truncated or
    rewritten, or the anchor's MAC does not verify: ``ok`` is False), ``unanchored`` (no anchor
    for the run in the log, or no log).
    """

    status: str
    detail: str
    log: str | None

    @property
    def ok(self) -> bool:
        return self.status != "mismatch"


def load_key() -> bytes | None:
    """The anchor key from ``EVIDENCEGATE_TRACE_KEY`` or ``EVIDENCEGATE_TRACE_KEY_FILE``.

    None when neither is set. A key shorter than 16 bytes, or a key file that cannot be read,
    is a ConfigurationError naming the variable: a weak or missing key must not silently
    downgrade anchors to unsigned ones.
    """
    value = os.environ.get(KEY_ENV)
    source = KEY_ENV
    key: bytes | None = None
    if value:
        key = value.encode("utf-8", errors="surrogateescape")
    else:
        file = os.environ.get(KEY_FILE_ENV)
        if not file:
            return None
        source = f"{KEY_FILE_ENV} ({file})"
        try:
            key = Path(file).read_bytes().rstrip(b"\r\n")
        except OSError as exc:
            raise ConfigurationError(
                f"{KEY_FILE_ENV}: cannot read the trace key file {file}: {exc.strerror or exc}"
            ) from exc
    if len(key) < _MIN_KEY_BYTES:
        raise ConfigurationError(
            f"{source}: the trace key has {len(key)} bytes; at least {_MIN_KEY_BYTES} are required"
        )
    return key


def anchor_mac(key: bytes, run_id: str, lines: int, head: str) -> str:
    """HMAC-SHA256 (hex) of a run's head: binds the run, its line count and its last hash."""
    message = b"\n".join((_MAC_DOMAIN, run_id.encode("utf-8"), str(lines).encode(), head.encode()))
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def append_anchor(
    trace_path: Path, run_id: str, lines: int, head: str, *, key: bytes | None
) -> Anchor:
    """Append the anchor of a trace to the log in its directory; return it.

    One ``write`` of one line under an exclusive lock, then ``fsync``: concurrent runs in one
    directory never interleave, and a crash leaves at worst a torn last line, which
    :func:`read_anchors` skips.
    """
    anchor = Anchor(
        run_id=run_id,
        trace=trace_path.name,
        lines=lines,
        head=head,
        ts=dt.datetime.now(dt.UTC).isoformat(timespec="microseconds"),
        mac=None if key is None else anchor_mac(key, run_id, lines, head),
    )
    log = trace_path.parent / ANCHOR_LOG
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        # A torn last line (a crash mid-write) must not swallow this anchor: start a new line.
        size = os.fstat(fd).st_size
        prefix = b""
        if size:
            with open(log, "rb") as f:
                f.seek(size - 1)
                if f.read(1) != b"\n":
                    prefix = b"\n"
        os.write(fd, prefix + canonical_json(anchor.model_dump(mode="json")) + b"\n")
        os.fsync(fd)
    finally:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    return anchor


def read_anchors(log: Path) -> dict[str, Anchor]:
    """The last anchor of each run in the log (run_id -> anchor); unreadable lines skipped.

    Raises ``OSError`` when the log cannot be read.
    """
    anchors: dict[str, Anchor] = {}
    with log.open("rb") as f:
        for raw in f:
            try:
                anchor = Anchor.model_validate(json.loads(raw))
            except (ValueError, ValidationError):  # a torn or foreign line anchors nothing
                continue
            anchors[anchor.run_id] = anchor
    return anchors


@lru_cache(maxsize=8)
def _anchors_of(log: Path, mtime_ns: int, size: int) -> dict[str, Anchor]:
    """read_anchors, cached while the log is unchanged (listing a store checks every trace)."""
    return read_anchors(log)


def check_anchor(
    run_id: str,
    lines: int,
    head: str,
    *,
    log: Path,
    key: bytes | None,
) -> AnchorCheck:
    """Compare a verified chain (``lines`` lines ending in ``head``) with its run's anchor.

    Raises ``OSError`` only when the log exists but cannot be read.
    """
    shown = str(log)
    try:
        status = log.stat()
    except FileNotFoundError:
        return AnchorCheck("unanchored", f"no anchor log at {shown}", None)
    anchor = _anchors_of(log, status.st_mtime_ns, status.st_size).get(run_id)
    if anchor is None:
        return AnchorCheck("unanchored", f"no anchor for run {run_id} in {shown}", shown)
    if key is not None:
        if anchor.mac is None:
            return AnchorCheck(
                "mismatch",
                f"the anchor of run {run_id} carries no MAC, but a trace key is set: "
                "it may have been written by someone without the key",
                shown,
            )
        expected = anchor_mac(key, anchor.run_id, anchor.lines, anchor.head)
        if not hmac.compare_digest(expected, anchor.mac):
            return AnchorCheck(
                "mismatch",
                f"the anchor of run {run_id} has an invalid MAC: forged, or made with another key",
                shown,
            )
    if lines != anchor.lines or head != anchor.head:
        if lines < anchor.lines:
            what = f"truncated: {anchor.lines} lines were anchored, the trace has {lines}"
        elif lines > anchor.lines:
            what = f"extended: {anchor.lines} lines were anchored, the trace has {lines}"
        else:
            what = f"rewritten: the last hash is {head[:12]}..., {anchor.head[:12]}... was anchored"
        return AnchorCheck("mismatch", f"trace does not match its anchor ({what})", shown)
    signed = "HMAC verified" if key is not None else "unsigned, no key to check a MAC"
    return AnchorCheck("match", f"matches its anchor in {shown} ({signed})", shown)
