"""The corpus: ingest dated primary sources into a store and search them as of a date."""

from evidencegate.corpus.backends import StoreBackend, open_store
from evidencegate.corpus.batch import IngestSource, ingest_batch
from evidencegate.corpus.ingest import (
    IngestedVersion,
    IngestFailure,
    IngestNotice,
    IngestOptions,
    IngestReport,
)
from evidencegate.corpus.manifest import ManifestRow, read_manifest, sources_from_rows
from evidencegate.corpus.postgres import PostgresStore
from evidencegate.corpus.store import Store

__all__ = [
    "IngestFailure",
    "IngestNotice",
    "IngestOptions",
    "IngestReport",
    "IngestSource",
    "IngestedVersion",
    "ManifestRow",
    "PostgresStore",
    "Store",
    "StoreBackend",
    "ingest_batch",
    "open_store",
    "read_manifest",
    "sources_from_rows",
]
