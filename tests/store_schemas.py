"""The store schemas of earlier releases, written out, for the migration tests."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from evidencegate.corpus import store as store_module

__all__ = ["SCHEMA_1", "SCHEMA_3", "write_schema_1_store"]

SCHEMA_3 = """
CREATE TABLE versions (
    id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, doc_id TEXT NOT NULL, version TEXT NOT NULL,
    version_date TEXT NOT NULL, effective_from TEXT NOT NULL, source_effective_to TEXT,
    effective_to TEXT, superseded_by TEXT, authority TEXT NOT NULL, title TEXT NOT NULL,
    source_uri TEXT NOT NULL, sha256 TEXT NOT NULL, pages INTEGER NOT NULL,
    passages INTEGER NOT NULL, entity TEXT, aliases TEXT, period TEXT, extractor TEXT,
    UNIQUE (tenant, doc_id, version)
);
CREATE TABLE ingested_files (key TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id), PRIMARY KEY (key, version_id))
    WITHOUT ROWID;
CREATE TABLE pages (version_id INTEGER NOT NULL REFERENCES versions (id), page INTEGER NOT NULL,
    label TEXT, heading TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (version_id, page));
CREATE TABLE passages (id INTEGER PRIMARY KEY, passage_id TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id), page INTEGER NOT NULL,
    char_start INTEGER NOT NULL, char_end INTEGER NOT NULL, label TEXT, text TEXT NOT NULL,
    context TEXT NOT NULL);
CREATE INDEX passages_by_id ON passages (passage_id);
CREATE VIRTUAL TABLE passages_fts USING fts5 (
    text, context, content='passages', content_rowid='id', tokenize='porter unicode61'
);
"""
"""Schema 3: texts stored per row, searched through the FTS5 table ``passages_fts``."""

SCHEMA_1 = SCHEMA_3.replace(
    "passages INTEGER NOT NULL, entity TEXT, aliases TEXT, period TEXT, extractor TEXT,",
    "passages INTEGER NOT NULL,",
).replace(
    """CREATE TABLE ingested_files (key TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id), PRIMARY KEY (key, version_id))
    WITHOUT ROWID;
""",
    "",
)
"""Schema 1: no entity, aliases, period or extractor column, no ingested_files table."""


def write_schema_1_store(directory: Path, text: str) -> None:
    """A store as schema 1 wrote it: one document A, version 1 (2020-01-01), one page."""
    directory.mkdir(parents=True)
    with contextlib.closing(
        sqlite3.connect(directory / "evidencegate.sqlite3", isolation_level=None)
    ) as db:
        db.executescript(SCHEMA_1)
        db.execute(f"PRAGMA application_id = {store_module._APPLICATION_ID}")
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO versions (tenant, doc_id, version, version_date, effective_from, "
            "authority, title, source_uri, sha256, pages, passages) VALUES ('default', 'A', '1', "
            "'2020-01-01', '2020-01-01', 'primary', 'A', 'file:///a.md', ?, 1, 1)",
            ("0" * 64,),
        )
        db.execute("INSERT INTO pages VALUES (1, 1, NULL, '', ?)", (text,))
        db.execute(
            "INSERT INTO passages (passage_id, version_id, page, char_start, char_end, label, "
            "text, context) VALUES ('p1', 1, 1, 0, ?, NULL, ?, 'A')",
            (len(text), text),
        )
        db.execute("INSERT INTO passages_fts (passages_fts) VALUES ('rebuild')")
