"""What is read once from every page of a stored version (a filing's segments, the
abbreviations a document defines), kept by the version's hash so that a changed document is
read again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from evidencegate.protocols import SourceLookup

__all__ = ["version_reading"]

T = TypeVar("T")

_CACHE: dict[tuple[Callable[..., Any], str | None, str, str, str], tuple[Any, ...]] = {}
_CACHE_SIZE = 512


def version_reading(
    pages: SourceLookup,
    doc_id: str,
    version: str,
    read: Callable[[list[str]], tuple[T, ...]],
    *,
    tenant: str | None = None,
) -> tuple[T, ...]:
    """``read`` applied to the texts of every page of one stored version, in page order;
    empty when the version is not stored. Kept by reader, tenant, document, version and the
    document's sha256, at most :data:`_CACHE_SIZE` readings (then all are dropped)."""
    first = pages.lookup(doc_id, version, 1, tenant=tenant)
    if first is None:
        return ()
    document = first.document
    key = (read, document.tenant, doc_id, version, document.sha256)
    found = _CACHE.get(key)
    if found is None:
        texts = [first.page.text]
        for number in range(2, document.pages + 1):
            source = pages.lookup(doc_id, version, number, tenant=tenant)
            if source is not None:
                texts.append(source.page.text)
        found = read(texts)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = found
    return found
