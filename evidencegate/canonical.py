"""Canonical JSON and hashing: one definition used by the trace chain, policies and passages.

Canonical form: keys sorted, no insignificant whitespace, UTF-8 (no ASCII escaping), floats as
Python's shortest repr. The same object always gives the same bytes, on every machine.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["canonical_json", "sha256_hex"]


def canonical_json(obj: Any) -> bytes:
    """Serialise a JSON-compatible object (dicts, lists, str, int, float, bool, None)."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
