"""The corpus: ingest dated primary sources into a store and search them as of a date."""

from evidencegate.corpus.ingest import IngestedVersion, IngestNotice, IngestOptions, IngestReport
from evidencegate.corpus.store import Store

__all__ = ["IngestNotice", "IngestOptions", "IngestReport", "IngestedVersion", "Store"]
