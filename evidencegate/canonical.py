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
from typing import Any

import rfc8785

__all__ = ["canonical_json", "canonical_json_v1", "sha256_hex"]


def canonical_json(obj: Any) -> bytes:
    """RFC 8785 bytes of a JSON-compatible object (dicts, lists, str, int, float, bool, None).

    Raises ValueError for what JCS cannot represent: NaN, infinities, integers beyond 2**53 - 1
    in magnitude, lone surrogates.

    Objects without floats, with ASCII keys and integers JCS can represent, are written by
    ``json`` (sorted keys, no whitespace, no ASCII escaping): on them the two give the same
    bytes (JCS escapes exactly ``"``, ``\\`` and the C0 controls, as ``json`` does), ~20x
    faster than the general writer, which ingest's hashing spent most of its time in. Anything
    else, or a text that does not encode (a lone surrogate), goes to ``rfc8785``.
    """
    if _plain(obj):
        try:
            return json.dumps(
                obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ).encode("utf-8")
        except UnicodeEncodeError:
            pass
    return rfc8785.dumps(obj)


_JCS_INT = 2**53 - 1


def _plain(obj: Any) -> bool:
    """Whether ``obj`` holds only str, bool, None, JCS-sized int, lists and ASCII-keyed dicts."""
    kind = type(obj)
    if kind is str or kind is bool or obj is None:
        return True
    if kind is int:
        return bool(-_JCS_INT <= obj <= _JCS_INT)
    if kind is dict:
        return all(type(k) is str and k.isascii() and _plain(v) for k, v in obj.items())
    if kind is list or kind is tuple:
        return all(_plain(v) for v in obj)
    return False


def canonical_json_v1(obj: Any) -> bytes:
    """The canonical form of trace format 1: sorted keys, no whitespace, UTF-8, Python floats."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
