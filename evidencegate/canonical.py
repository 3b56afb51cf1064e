"""Canonical JSON and hashing: one definition used by the trace chain, policies and passages.

:func:`canonical_json` is RFC 8785, the JSON Canonicalization Scheme (JCS), through the
``rfc8785`` library: keys sorted by UTF-16 code units, no insignificant whitespace, UTF-8,
numbers in their ECMAScript form (``1.0`` is ``1``, ``1e-07`` is ``1e-7``). Trace lines of
format 2 are these bytes and their hashes are taken over them, so any JCS implementation can
recompute a trace's hash chain. Passage ids, document hashes and prompt hashes use it too: their
inputs are strings, integers and nulls under ASCII keys, on which JCS and the earlier form give the
same bytes, so the ids of existing stores do not change (a test pins one).

:func:`canonical_json_v1` is the form before RFC 8785 (Python's ``json`` with sorted keys, floats
as Python's repr). It is kept for what was persisted with it: trace lines of format 1 verify
with it, and the two hashes over objects holding floats that traces record and compare
(``ChatRequest.sha256``, on which replay matches model calls, and ``Policy.sha256``) stay on it
so that recorded runs keep replaying.
"""

from __future__ import annotations

import hashlib
import json
import re
from itertools import repeat
from typing import Any

import rfc8785

__all__ = ["canonical_json", "canonical_json_v1", "sha256_hex"]


def canonical_json(obj: Any) -> bytes:
    """RFC 8785 bytes of a JSON-compatible object (dicts, lists, str, int, float, bool, None).

    Raises ValueError for what JCS cannot represent: NaN, infinities, integers beyond 2**53 - 1
    in magnitude, lone surrogates.

    Most objects take a fast path (the ``rfc8785`` encoder is pure Python and was most of the
    time of writing and verifying a trace): for text within the Basic Multilingual Plane and
    floats as :func:`_as_c_json` leaves them, Python's C ``json.dumps`` with sorted keys and
    compact separators writes exactly the JCS bytes (the same escapes; key order by code point
    equals order by UTF-16 unit within the BMP). Anything else goes to ``rfc8785``.
    """
    try:
        fast = _C_ENCODER.encode(_as_c_json(obj)).encode("utf-8")
    except (ValueError, TypeError, _NotFast):  # UnicodeEncodeError (lone surrogates) included
        return rfc8785.dumps(obj)
    if _NON_BMP.search(fast):
        return rfc8785.dumps(obj)
    return fast


_C_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
_NON_BMP = re.compile(rb"[\xf0-\xff]")  # a 4-byte UTF-8 sequence


_LEAVES = frozenset({str, bool, type(None)})
"""Types whose values :func:`_as_c_json` returns unchanged (exact types: subclasses take the
general path)."""


class _NotFast(Exception):
    """A value whose RFC 8785 form the C encoder does not write."""


def _as_c_json(value: Any) -> Any:
    """``value`` with floats made what the C encoder writes as JCS does: integral floats as
    integers (JCS writes ``1.0`` as ``1``); other floats only where both write the shortest
    round-trip digits positionally (1e-4 <= |x| < 1e16). Raises :class:`_NotFast` for other
    floats and for integers beyond JCS's range (``rfc8785`` then decides)."""
    kind = type(value)
    if kind is str or kind is bool or value is None or (kind is int and -_MAX <= value <= _MAX):
        return value  # the common leaves first, by exact type; subclasses take the checks below
    if isinstance(value, dict):
        if not all(map(isinstance, value, repeat(str))):
            raise _NotFast
        # strings, booleans and None are left as they are: no call for them (most values)
        return {k: v if type(v) in _LEAVES else _as_c_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _LEAVES else _as_c_json(v) for v in value]
    if isinstance(value, str | bool | None):
        return value
    if isinstance(value, float):
        magnitude = abs(value)
        if magnitude < 1e16 and value.is_integer():
            return int(value)
        if 1e-4 <= magnitude < 1e16:
            return value
        raise _NotFast
    if isinstance(value, int) and abs(value) <= _MAX:
        return value
    raise _NotFast


_MAX = 2**53 - 1
"""The largest integer magnitude JCS writes exactly (beyond it ``rfc8785`` decides)."""


def canonical_json_v1(obj: Any) -> bytes:
    """The canonical form of trace format 1: sorted keys, no whitespace, UTF-8, Python floats."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
