"""The corpus: ingest dated primary sources into a store and search them as of a date."""

from evidencegate.corpus.batch import IngestSource, ingest_batch
from evidencegate.corpus.ingest import (
    IngestedVersion,
    IngestFailure,
    IngestNotice,
    IngestOptions,
    IngestReport,
)
from evidencegate.corpus.manifest import ManifestRow, read_manifest, sources_from_rows
from evidencegate.corpus.store import Store

__all__ = [
    "IngestFailure",
    "IngestNotice",
    "IngestOptions",
    "IngestReport",
    "IngestSource",
    "IngestedVersion",
    "ManifestRow",
    "Store",
    "ingest_batch",
    "read_manifest",
    "sources_from_rows",
]
