"""Store backends behind one interface, and the one factory that opens either.

``open_store(location)`` opens a ``postgresql://`` (or ``postgres://``) URL as a
:class:`~evidencegate.corpus.postgres.PostgresStore` and anything else as a store directory
(:class:`~evidencegate.corpus.store.Store`, SQLite). Both satisfy :class:`StoreBackend`, which is
what the gate, the retriever, ingest and the CLI use; every command taking ``--store`` accepts
either.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from evidencegate.contracts import DocumentVersion, Passage, SourcePage
from evidencegate.corpus.ingest import IngestedVersion, IngestOptions, IngestReport, PreparedFile
from evidencegate.corpus.postgres import PostgresStore, is_postgres_url
from evidencegate.corpus.store import Store

__all__ = ["StoreBackend", "is_postgres_url", "open_store"]


@runtime_checkable
class StoreBackend(Protocol):
    """What a store offers: versioned ingest, as-of search, lookups, and where traces go."""

    location: str
    """What :func:`open_store` opens this store from (a directory or a connection URL)."""
    traces_dir: Path
    """Where runs write their trace files by default."""

    def close(self) -> None: ...

    def ingest(
        self, paths: Sequence[str | Path], options: IngestOptions | None = None
    ) -> IngestReport: ...

    def ingested_keys(self) -> frozenset[str]: ...

    def commit_prepared(self, prepared: PreparedFile) -> list[IngestedVersion]: ...

    def search(
        self,
        query: str,
        *,
        as_of: dt.date,
        limit: int = 8,
        authorities: Sequence[str] | None = None,
        doc_ids: Sequence[str] | None = None,
        tenant: str | None = None,
        phrases: bool = True,
    ) -> list[Passage]: ...

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None: ...

    def document(
        self, doc_id: str, version: str, tenant: str | None = None
    ) -> DocumentVersion | None: ...

    def versions(self, doc_id: str, tenant: str | None = None) -> list[DocumentVersion]: ...

    def in_force(
        self, doc_id: str, as_of: dt.date, tenant: str | None = None
    ) -> DocumentVersion | None: ...

    def catalog(self, as_of: dt.date, tenant: str | None = None) -> list[DocumentVersion]: ...

    def document_frequencies(self, terms: Sequence[str]) -> dict[str, int]: ...

    def stats(self) -> dict[str, int]: ...

    def integrity_problems(self) -> list[str]: ...


def open_store(location: str | Path, *, create: bool = True) -> Store | PostgresStore:
    """The store at ``location``: a ``postgresql://`` URL or a store directory; ``create`` as
    for :meth:`Store.open` (StoreError when there is no store and ``create`` is false)."""
    if is_postgres_url(location):
        return PostgresStore.open(str(location), create=create)
    return Store.open(location, create=create)
