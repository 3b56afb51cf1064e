"""The hash chain: canonical JSON lines, each carrying the hash of the one before it.

A trace file is JSONL. Line ``seq`` is the RFC 8785 canonical JSON (see
:mod:`evidencegate.canonical`) of a :class:`~evidencegate.trace.events.TraceLine`, followed by
``\\n``::

    {"event":{...},"format":2,"hash":H(seq),"prev_hash":H(seq-1),"run_id":...,"seq":seq,"ts":...}

``hash`` is sha256 of the canonical JSON of every other field of the line, and ``prev_hash`` is
the previous line's hash (:data:`GENESIS_HASH` for line 0). ``format`` is
:data:`TRACE_FORMAT`; lines written before it existed have no ``format`` key and are format 1,
canonicalised with :func:`~evidencegate.canonical.canonical_json_v1`: they still verify and
replay. Every line of a trace has the same format. Because every line is stored in
canonical form, a line is accepted only when its bytes are exactly the canonical encoding of its
content: any changed byte, even one that keeps the JSON meaning (whitespace, a ``\\u`` escape,
``1.50`` for ``1.5``), breaks the chain.

The chain makes edits, deletions, reorderings and insertions detectable; it carries no secret,
so it cannot tell a truncation at a line boundary from a run that stopped there (that is what
``complete`` reports), nor detect a chain rewritten from some line on. Keep the last hash
somewhere else when that matters.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from evidencegate.canonical import canonical_json, canonical_json_v1, sha256_hex
from evidencegate.exceptions import TraceFormatError
from evidencegate.trace.events import TRACE_LINE_ADAPTER, TraceEvent, TraceLine

__all__ = [
    "GENESIS_HASH",
    "TRACE_FORMAT",
    "ChainReport",
    "decode_line",
    "encode_checked_line",
    "encode_line",
    "line_hash",
    "read_trace",
    "verify_trace",
]

GENESIS_HASH = "0" * 64
"""The ``prev_hash`` of line 0."""

TRACE_FORMAT = 2
"""The format :func:`encode_line` writes: RFC 8785 canonical JSON. Format 1 (no ``format``
key) used :func:`~evidencegate.canonical.canonical_json_v1`."""


def _canonical(record: dict[str, Any]) -> bytes:
    """The canonical bytes of a line record in its own format (format 1 has no format key)."""
    return canonical_json_v1(record) if "format" not in record else canonical_json(record)


def _encoder(record: dict[str, Any]) -> Callable[[Any], bytes]:
    """The canonical encoder of a line record's format (format 1 has no format key)."""
    return canonical_json_v1 if "format" not in record else canonical_json


def _join(members: dict[str, bytes]) -> bytes:
    """The canonical JSON object of members whose values are already canonical bytes.

    A line record's keys are plain ASCII names, so both formats write the object as its
    members sorted by key, ``"key":value``, comma-separated, in braces: what ``_canonical``
    gives for the whole record. A line is hashed without its ``hash`` member and written with
    it; encoding each member once serves both (the event is most of a line's encoding cost).
    """
    return b"{" + b",".join(b'"' + k.encode() + b'":' + members[k] for k in sorted(members)) + b"}"


def _members(record: dict[str, Any], encode: Callable[[Any], bytes]) -> dict[str, bytes]:
    return {key: encode(value) for key, value in record.items()}


def line_hash(record_without_hash: dict[str, Any]) -> str:
    """sha256 hex of the canonical JSON of a line record that has no ``hash`` key yet."""
    if "hash" in record_without_hash:
        raise ValueError("line_hash takes the line record without its 'hash' key")
    return sha256_hex(_canonical(record_without_hash))


def encode_line(
    seq: int, ts: str, run_id: str, prev_hash: str, event: TraceEvent
) -> tuple[bytes, str]:
    """Return the canonical JSON bytes of one full line (no trailing newline) and its hash."""
    data, digest, _ = _encode(seq, ts, run_id, prev_hash, event)
    return data, digest


def encode_checked_line(
    seq: int, ts: str, run_id: str, prev_hash: str, event: TraceEvent
) -> tuple[bytes, TraceLine]:
    """The bytes of :func:`encode_line` and the line :func:`decode_line` reads back from them.

    Raises :class:`TraceFormatError` as :func:`decode_line` would: what a recorder writes is
    what a reader accepts. Most lines take a shorter way to the same answer: the bytes are
    parsed and validated, and when the line's content reads back as the very values encoded
    (type for type: ``1`` is not ``1.0`` nor ``true``), re-encoding it would give the same
    canonical bytes and the same hash, so the check holds; otherwise :func:`decode_line`
    decides.
    """
    data, _, record = _encode(seq, ts, run_id, prev_hash, event)
    try:
        line = TRACE_LINE_ADAPTER.validate_python(json.loads(data))
    except (ValueError, ValidationError):
        return data, decode_line(data)  # raises, saying why
    content = line.model_dump(mode="json")
    if _same_json(content, record):
        return data, line
    return data, _canonical_line(line, content, data)  # the rest of decode_line's checks


def _same_json(a: Any, b: Any) -> bool:
    """Are two JSON values the same, type for type (``1`` is not ``1.0`` nor ``True``)?"""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict:
        if a.keys() != b.keys():
            return False
        pairs: Any = ((value, b[key]) for key, value in a.items())
    elif kind is list:
        if len(a) != len(b):
            return False
        pairs = zip(a, b, strict=True)
    else:
        return bool(a == b)
    for x, y in pairs:
        if x is y:
            continue
        inner = type(x)
        if inner is not type(y):
            return False
        if inner is dict or inner is list:
            if not _same_json(x, y):
                return False
        elif x != y:
            return False
    return True


def _encode(
    seq: int, ts: str, run_id: str, prev_hash: str, event: TraceEvent
) -> tuple[bytes, str, dict[str, Any]]:
    """The line's bytes, its hash and the record they encode (with its ``hash``)."""
    record: dict[str, Any] = {
        "seq": seq,
        "ts": ts,
        "run_id": run_id,
        "prev_hash": prev_hash,
        "event": event.model_dump(mode="json"),
        "format": TRACE_FORMAT,
    }
    try:
        members = _members(record, canonical_json)
    except ValueError as exc:  # NaN, infinity, a huge integer or a lone surrogate: no JCS form
        raise ValueError(f"{event.kind} event cannot be encoded as JSON: {exc}") from exc
    digest = sha256_hex(_join(members))  # line_hash(record), from the encoded members
    members["hash"] = canonical_json(digest)
    record["hash"] = digest
    return _join(members), digest, record


def decode_line(raw: bytes) -> TraceLine:
    """Parse one line (without its newline) and check it is canonical and its hash matches.

    Checks only what one line can prove on its own; :func:`verify_trace` adds the links
    between lines (seq, run_id, prev_hash). Raises :class:`TraceFormatError` saying why.
    """
    try:
        obj = json.loads(raw)
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise TraceFormatError(f"not JSON: {exc}") from exc
    try:
        line = TRACE_LINE_ADAPTER.validate_python(obj)
    except ValidationError as exc:
        raise TraceFormatError(f"not a trace line: {_first_error(exc)}") from exc
    return _canonical_line(line, line.model_dump(mode="json"), raw)


def _canonical_line(line: TraceLine, record: dict[str, Any], raw: bytes) -> TraceLine:
    """``line`` when ``raw`` is the canonical encoding of its ``record`` (its JSON dump) and
    its hash matches; raises :class:`TraceFormatError` saying why not."""
    if record["format"] is None:  # format 1 wrote no format key
        del record["format"]
    try:
        members = _members(record, _encoder(record))  # _canonical(record), member by member
    except ValueError as exc:  # 1e999 or NaN parse, but have no canonical form
        raise TraceFormatError(f"not canonical JSON: {exc}") from exc
    if _join(members) != raw:
        raise TraceFormatError(
            "bytes differ from the canonical encoding of the line's content "
            "(whitespace, escapes, key order or number form changed)"
        )
    stated = record["hash"]
    del members["hash"]
    computed = sha256_hex(_join(members))  # line_hash(record without its hash)
    if stated != computed:
        raise TraceFormatError(
            f"hash mismatch: the line says {stated[:12]}..., "
            f"its content hashes to {computed[:12]}..."
        )
    return line


@dataclass(frozen=True)
class ChainReport:
    """The result of :func:`verify_trace`.

    ``lines`` counts the intact lines before the first bad one (all of them when ``ok``);
    ``complete`` is true when the chain is intact and its last event is ``run_end``;
    ``run_id`` is the run of the intact lines (None when there are none).
    """

    ok: bool
    lines: int
    complete: bool
    first_bad_seq: int | None
    reason: str | None
    run_id: str | None


def verify_trace(path: str | Path) -> ChainReport:
    """Check every line and every link of the trace at ``path``; report the first break.

    Raises ``OSError`` only when the file cannot be read.
    """
    lines, bad = _scan(Path(path))
    run_id = lines[0].run_id if lines else None
    if bad is not None:
        seq, reason = bad
        return ChainReport(False, len(lines), False, seq, reason, run_id)
    complete = lines[-1].event.kind == "run_end"
    return ChainReport(True, len(lines), complete, None, None, run_id)


def read_trace(path: str | Path) -> list[TraceLine]:
    """Return the lines of an intact trace (complete or not).

    Raises :class:`TraceFormatError` naming the first bad line when the chain is broken: a
    trace that fails :func:`verify_trace` is never replayed or reported on.
    """
    lines, bad = _scan(Path(path))
    if bad is not None:
        seq, reason = bad
        raise TraceFormatError(f"{path}: line seq {seq}: {reason}", line=seq)
    return lines


def _scan(path: Path) -> tuple[list[TraceLine], tuple[int, str] | None]:
    """The intact prefix of the trace and, when it stops early, (index of bad line, reason)."""
    lines: list[TraceLine] = []
    prev_hash = GENESIS_HASH
    with path.open("rb") as f:
        for index, raw in enumerate(f):
            if not raw.endswith(b"\n"):
                return lines, (index, "truncated final line (no trailing newline): write cut off")
            try:
                line = decode_line(raw[:-1])
            except TraceFormatError as exc:
                return lines, (index, str(exc))
            if line.seq != index:
                return lines, (index, f"seq is {line.seq}, expected {index}")
            if lines and line.run_id != lines[0].run_id:
                return lines, (
                    index,
                    f"run_id is {line.run_id!r}, expected {lines[0].run_id!r} as on seq 0",
                )
            if lines and line.format != lines[0].format:
                return lines, (
                    index,
                    f"format is {line.format or 1}, expected {lines[0].format or 1} as on seq 0",
                )
            if line.prev_hash != prev_hash:
                what = "the genesis hash" if index == 0 else f"the hash of seq {index - 1}"
                return lines, (index, f"prev_hash does not match {what}")
            lines.append(line)
            prev_hash = line.hash
    if not lines:
        return lines, (0, "empty trace: no lines")
    return lines, None


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"
