"""The corpus store: document versions, pages and passages in one SQLite file, searched by BM25.

``Store.open(DIR)`` uses ``DIR/evidencegate.sqlite3``. Tables:

``versions``  one row per (tenant, doc_id, version), immutable content with its sha256;
              ``effective_to`` and ``superseded_by`` are derived (see ``_supersede``).
``texts``     every distinct string once (page texts, headings, passage texts, contexts),
              keyed by its sha256: versions that repeat a paragraph share its text.
``pages``     the page (text and heading ids) the verifier checks quotes against.
``contents``  each distinct (passage text, context) pair once; the unit the ranking index
              scores. The context is the passage's label, page heading and document title.
``passages``  spans of pages (offsets, content-hash id) and their content.
``meta``      the store's random id and its generation (bumped by every commit that adds rows).

Search goes through the derived ranking index (:mod:`evidencegate.corpus.index`), saved beside
the database as ``DIR/evidencegate.index.npz``, brought up to the store's generation before any
search and rebuilt when missing or not this store's.

Tenants: every read takes ``tenant``; ``None`` means the default tenant ``"default"``, never
"all tenants", so a caller that forgets its tenant sees less, not someone else's documents.

Each ``ingest`` call is one ``BEGIN IMMEDIATE`` transaction over all its paths; any error rolls
it back and the store is exactly as before. ``ingest_batch`` (:mod:`evidencegate.corpus.batch`)
reads files in worker processes, outside any transaction, and commits each file's versions in
one short transaction of its own (``commit_prepared``): a batch killed at any point leaves every
version fully stored or absent, and ``ingested_files`` lets the next run skip what is stored.

Schema version 3 added ``versions.extractor`` (the PDF extractor and its version the page
text came from; ``pypdf`` for PDFs stored before it was recorded, when pypdf was the only
extractor) and ``ingested_files`` (file content + options key -> the versions that file gave).
Schema version 4 stores texts once (``texts``, ``contents``) and drops the FTS5 table.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

from evidencegate.closing import Closing
from evidencegate.contracts import DocumentVersion, Page, Passage, SourcePage
from evidencegate.corpus.index import (
    INDEX_FILENAME,
    SearchIndex,
    query_stems,
    question_terms,
)
from evidencegate.corpus.ingest import (
    AUTHORITIES,
    DEFAULT_TENANT,
    UNCHANGED_COLUMNS,
    IngestedVersion,
    IngestNotice,
    IngestOptions,
    IngestReport,
    ParsedVersion,
    PreparedFile,
    PreparedVersion,
    prepare_file,
)
from evidencegate.exceptions import IngestError, StoreError, UsageError

__all__ = ["STORE_FILENAME", "Store", "supersession"]

_Day = TypeVar("_Day", str, dt.date)

STORE_FILENAME = "evidencegate.sqlite3"
_APPLICATION_ID = 0x45564754  # "EVGT" in the SQLite header marks an evidencegate store
_SCHEMA_VERSION = 4
"""2 added the versions' entity, aliases (JSON list) and period; 3 the versions' extractor and
the ingested_files table; 4 content-addressed texts (texts, contents, meta) instead of texts
per row and the FTS5 table. An older store is migrated when opened (the new columns are NULL
for versions stored before, except extractor, which is 'pypdf' for PDFs)."""
_BUSY_TIMEOUT_S = 300.0
"""How long a write waits for another writer's transaction (one file's commit) to end: long,
because SQLite releases the locks of a process that dies, so only a live writer is waited for."""
_IN_CHUNK = 500
"""How many values one ``IN (...)`` list binds (SQLite caps a statement's parameters)."""
_CACHE_KIB = 65536
"""SQLite's page cache per connection, at most (KiB)."""
_MAX_ROWID = 2**63 - 1
"""Ids per ``IN (...)`` list when looking texts up by hash (well under SQLite's limit)."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value ANY NOT NULL) WITHOUT ROWID;
CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    tenant TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    version_date TEXT NOT NULL,
    effective_from TEXT NOT NULL,
    source_effective_to TEXT,
    effective_to TEXT,
    superseded_by TEXT,
    authority TEXT NOT NULL CHECK (authority IN ('primary', 'secondary')),
    title TEXT NOT NULL,
    source_uri TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    pages INTEGER NOT NULL,
    passages INTEGER NOT NULL,
    entity TEXT,
    aliases TEXT,
    period TEXT,
    extractor TEXT,
    UNIQUE (tenant, doc_id, version)
);
CREATE TABLE ingested_files (
    key TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id),
    PRIMARY KEY (key, version_id)
) WITHOUT ROWID;
CREATE TABLE texts (
    id INTEGER PRIMARY KEY,
    sha256 BLOB NOT NULL UNIQUE,
    text TEXT NOT NULL
);
CREATE TABLE contents (
    id INTEGER PRIMARY KEY,
    text_id INTEGER NOT NULL REFERENCES texts (id),
    context_id INTEGER NOT NULL REFERENCES texts (id),
    UNIQUE (text_id, context_id)
);
CREATE TABLE pages (
    version_id INTEGER NOT NULL REFERENCES versions (id),
    page INTEGER NOT NULL,
    label TEXT,
    heading_id INTEGER NOT NULL REFERENCES texts (id),
    text_id INTEGER NOT NULL REFERENCES texts (id),
    PRIMARY KEY (version_id, page)
) WITHOUT ROWID;
CREATE TABLE passages (
    id INTEGER PRIMARY KEY,
    passage_id TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id),
    page INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    content_id INTEGER NOT NULL REFERENCES contents (id)
);
"""

_VERSION_COLUMNS = (
    "doc_id, version, version_date, effective_from, effective_to, superseded_by, authority, "
    "title, source_uri, sha256, tenant, pages, entity, aliases, period, extractor"
)


def _content_addressed(db: sqlite3.Connection) -> None:
    """Schema 3 -> 4: every distinct string (page text, heading, passage text, context) into
    ``texts`` once, passages onto ``contents``; the FTS5 table gives way to the derived index."""
    db.create_function("evg_sha256", 1, _text_hash, deterministic=True)
    statements = [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value ANY NOT NULL) WITHOUT ROWID",
        "CREATE TABLE texts (id INTEGER PRIMARY KEY, sha256 BLOB NOT NULL UNIQUE, "
        "text TEXT NOT NULL)",
        "CREATE TABLE contents (id INTEGER PRIMARY KEY, "
        "text_id INTEGER NOT NULL REFERENCES texts (id), "
        "context_id INTEGER NOT NULL REFERENCES texts (id), UNIQUE (text_id, context_id))",
        "CREATE TEMP TABLE old_pages AS SELECT version_id, page, label, "
        "evg_sha256(heading) AS heading_sha, heading, evg_sha256(text) AS text_sha, text "
        "FROM pages",
        "CREATE TEMP TABLE old_passages AS SELECT id, passage_id, version_id, page, char_start, "
        "char_end, evg_sha256(text) AS text_sha, text, evg_sha256(context) AS context_sha, "
        "context FROM passages",
        "INSERT OR IGNORE INTO texts (sha256, text) SELECT text_sha, text FROM old_pages",
        "INSERT OR IGNORE INTO texts (sha256, text) SELECT heading_sha, heading FROM old_pages",
        "INSERT OR IGNORE INTO texts (sha256, text) SELECT text_sha, text FROM old_passages",
        "INSERT OR IGNORE INTO texts (sha256, text) SELECT context_sha, context FROM old_passages",
        "INSERT OR IGNORE INTO contents (text_id, context_id) SELECT t.id, c.id "
        "FROM old_passages AS p JOIN texts AS t ON t.sha256 = p.text_sha "
        "JOIN texts AS c ON c.sha256 = p.context_sha ORDER BY p.id",
        "DROP TABLE passages_fts",
        "DROP TABLE passages",
        "DROP TABLE pages",
        "CREATE TABLE pages (version_id INTEGER NOT NULL REFERENCES versions (id), "
        "page INTEGER NOT NULL, label TEXT, heading_id INTEGER NOT NULL REFERENCES texts (id), "
        "text_id INTEGER NOT NULL REFERENCES texts (id), PRIMARY KEY (version_id, page)) "
        "WITHOUT ROWID",
        "INSERT INTO pages SELECT p.version_id, p.page, p.label, h.id, t.id FROM old_pages AS p "
        "JOIN texts AS h ON h.sha256 = p.heading_sha JOIN texts AS t ON t.sha256 = p.text_sha",
        "CREATE TABLE passages (id INTEGER PRIMARY KEY, passage_id TEXT NOT NULL, "
        "version_id INTEGER NOT NULL REFERENCES versions (id), page INTEGER NOT NULL, "
        "char_start INTEGER NOT NULL, char_end INTEGER NOT NULL, "
        "content_id INTEGER NOT NULL REFERENCES contents (id))",
        "INSERT INTO passages SELECT p.id, p.passage_id, p.version_id, p.page, p.char_start, "
        "p.char_end, c.id FROM old_passages AS p JOIN texts AS t ON t.sha256 = p.text_sha "
        "JOIN texts AS x ON x.sha256 = p.context_sha "
        "JOIN contents AS c ON c.text_id = t.id AND c.context_id = x.id",
        "DROP TABLE old_pages",
        "DROP TABLE old_passages",
    ]
    for statement in statements:
        db.execute(statement)
    _init_meta(db)


_MIGRATIONS: dict[int, tuple[str, ...] | Callable[[sqlite3.Connection], None]] = {
    1: (
        "ALTER TABLE versions ADD COLUMN entity TEXT",
        "ALTER TABLE versions ADD COLUMN aliases TEXT",
        "ALTER TABLE versions ADD COLUMN period TEXT",
    ),
    2: (
        "ALTER TABLE versions ADD COLUMN extractor TEXT",
        "UPDATE versions SET extractor = 'pypdf' WHERE lower(source_uri) LIKE '%.pdf'",
        "CREATE TABLE ingested_files (key TEXT NOT NULL, "
        "version_id INTEGER NOT NULL REFERENCES versions (id), "
        "PRIMARY KEY (key, version_id)) WITHOUT ROWID",
    ),
    3: _content_addressed,
}
"""Statements that take a store from schema version N to N + 1."""


class Store(Closing):
    """Document versions, pages and passages in SQLite; a ``Retriever`` and a ``SourceLookup``.

    Safe to share between threads: calls are serialised on one connection.
    """

    def __init__(self, connection: sqlite3.Connection, directory: Path) -> None:
        """Use :meth:`open`; this wraps an already validated connection."""
        self._connection: sqlite3.Connection | None = connection
        self._lock = threading.RLock()
        self.directory = directory
        self.path = directory / STORE_FILENAME
        self.location = str(directory)
        """What ``open_store`` opens this store from (see :mod:`evidencegate.corpus.backends`)."""
        self.traces_dir = directory / "traces"
        """Where runs write their trace files by default."""
        self.index_path = directory / INDEX_FILENAME
        self._index: SearchIndex | None = None
        self._stats: tuple[tuple[str, int], dict[str, int]] | None = None
        self._known: dict[int, Passage] = {}
        self._known_at: tuple[str, int | None] | None = None
        """:meth:`stats` at the store id and generation it was counted at."""
        self.messages: TextIO = sys.stderr
        """Where index messages and the rebuild progress bar go (stderr by default)."""

    # ----------------------------------------------------------------------- lifecycle

    @classmethod
    def open(cls, directory: str | Path, *, create: bool = True) -> Store:
        """Open the store in ``directory`` (creating it when ``create``); StoreError otherwise."""
        directory = Path(directory)
        path = directory / STORE_FILENAME
        if directory.exists() and not directory.is_dir():
            raise StoreError(f"{directory} is not a directory")
        if not path.exists():
            if not create:
                raise StoreError(f"no evidencegate store in {directory} ({STORE_FILENAME} missing)")
            try:
                directory.mkdir(parents=True, exist_ok=True)
                _create_store_file(path)
            except (OSError, sqlite3.Error) as exc:
                raise StoreError(f"cannot create the store {path}: {exc}") from exc
        try:
            connection = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=_BUSY_TIMEOUT_S
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open {path}: {exc}") from exc
        try:
            _check_store(connection, path)
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA synchronous = NORMAL")
            # A search reads a few rows of passages, pages, contents and texts at random: a
            # page cache larger than SQLite's 2 MiB default keeps them (it grows as used).
            connection.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        except sqlite3.Error as exc:
            connection.close()
            raise StoreError(f"{path} is not a usable evidencegate store ({exc})") from exc
        except StoreError:
            connection.close()
            raise
        return cls(connection, directory)

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._connection is None:
                raise StoreError(f"store {self.path} is closed")
            try:
                yield self._connection
            except sqlite3.OperationalError as exc:
                raise StoreError(f"store {self.path}: {exc}") from exc

    # ----------------------------------------------------------------------- ingest

    def ingest(
        self, paths: Sequence[str | Path], options: IngestOptions | None = None
    ) -> IngestReport:
        """Ingest files in ONE transaction: all of them are stored, or (on any error) none.

        Re-ingesting a stored version with identical content is reported ``unchanged`` (a file
        ingested before with the same content and options is not even read again); the same
        doc_id@version with different content is an IngestError (versions are immutable). For
        many files, worker processes and per-file commits see :func:`ingest_batch`.
        """
        options = options or IngestOptions()
        versions: list[IngestedVersion] = []
        notices: list[IngestNotice] = []
        skipped = 0
        with self._db() as db, _transaction(db):
            skip_keys = _skip_keys(db)
            for raw in paths:
                prepared = prepare_file(Path(raw), options, shown=str(raw), skip_keys=skip_keys)
                versions.extend(_commit_file(db, prepared))
                notices.extend(prepared.notices)
                skipped += prepared.skipped
        return IngestReport(
            versions=versions, notices=notices, files=len(paths), skipped_files=skipped
        )

    def ingested_keys(self) -> frozenset[str]:
        """The keys (file content + options) of every file whose versions are all stored."""
        with self._db() as db:
            return _skip_keys(db)

    def commit_prepared(self, prepared: PreparedFile) -> list[IngestedVersion]:
        """Store one prepared file's versions in one short write transaction (all or none).

        Waits up to the busy timeout for another writer; IngestError (nothing stored) when a
        version is already stored with other content.
        """
        with self._db() as db, _transaction(db):
            return _commit_file(db, prepared)

    # ----------------------------------------------------------------------- search

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
    ) -> list[Passage]:
        """BM25-ranked passages of versions in force on ``as_of`` (best first).

        Filters (all in SQL): ``effective_from <= as_of < effective_to`` (open end when none),
        ``authorities`` and ``doc_ids`` when given (an empty list matches nothing), and the
        tenant. Ties in score are ordered by passage_id, so results are deterministic. A query
        with no content words (only stopwords or punctuation) returns no passages.

        ``phrases`` (the default) adds to each passage's score the phrase bonus of the query's
        runs of two and three adjacent words found adjacent in it, stopwords included
        (:meth:`evidencegate.corpus.index.SearchIndex.phrase_scores`): a search for a quoted
        passage (its opening words, a sentence) finds it, even when other passages share its
        few content words more often, or its word pairs in several places. ``phrases=False``
        is BM25 alone: what the answer pipeline's retriever asks for, its queries being bags
        of words (question, synonyms, feedback terms) rather than phrases.
        """
        if limit < 1:
            raise UsageError(f"limit must be >= 1 (got {limit})")
        for authority in authorities or ():
            if authority not in AUTHORITIES:
                raise UsageError(f"unknown authority {authority!r} (expected primary or secondary)")
        stems, words = question_terms(query)
        if not phrases:
            words = []
        if not stems or authorities == [] or doc_ids == []:
            return []
        with self._db() as db:
            index = self._current_index(db)
            assert index.versions is not None
            allowed = index.versions.mask(tenant or DEFAULT_TENANT, as_of, authorities, doc_ids)
            ids, scores, flag_lists = index.ranked(stems, allowed, limit, words)
            versions = index.versions.info
            if len(ids) > limit:  # passages tied at the cut: their passage_ids decide
                ids, scores, flag_lists = _cut(db, ids, scores, flag_lists, limit)
            known = self._known_passages(index)
            missing = [pid for pid in ids if pid not in known]
            if missing:
                rows = db.execute(_passage_rows_sql(len(missing)), missing).fetchall()
                validate = Passage.model_validate  # from a dict: a third faster than keywords
                for pid, passage_id, vid, page, start, end, text, label, context in rows:
                    version = versions[vid]
                    known[pid] = validate(
                        {
                            "passage_id": passage_id,
                            "doc_id": version.doc_id,
                            "version": version.version,
                            "page": page,
                            "char_start": start,
                            "char_end": end,
                            "text": text,
                            "label": label,
                            "title": version.title,
                            "authority": version.authority,
                            "version_date": version.version_date,
                            "score": 0.0,
                            "context": context,
                            "flags": [],
                            "completes": None,
                        }
                    )
            found = [
                (pid, known[pid], s, f) for pid, s, f in zip(ids, scores, flag_lists, strict=True)
            ]
        found.sort(key=lambda hit: (-hit[2], hit[1].passage_id, hit[0]))
        # Each result is its stored passage with this search's score and flags: the values
        # validated once per passage (a float and a list of strings, as validation leaves them).
        return [
            passage.model_copy(update={"score": s, "flags": list(f)}) for _, passage, s, f in found
        ]

    def _known_passages(self, index: SearchIndex) -> dict[int, Passage]:
        """The passages validated so far at the index's store id and generation, by row id (the
        rows a generation holds never change; a later one starts afresh), at most
        :data:`_KNOWN_PASSAGES` of them."""
        at = (index.store_id, index.generation)
        if self._known_at != at or len(self._known) > _KNOWN_PASSAGES:
            self._known, self._known_at = {}, at
        return self._known

    def refresh_index(self) -> int:
        """Bring the ranking index up to date now (rebuilding or merging it if needed) rather
        than at the next search; return how many distinct passage contents it holds."""
        with self._db() as db:
            return self._current_index(db).rows

    def _current_index(self, db: sqlite3.Connection) -> SearchIndex:
        """The ranking index at the store's current generation: loaded, rebuilt when missing or
        not this store's, its delta refreshed when the store changed, merged when large."""
        store_id, generation = _meta(db)
        index = self._index
        if index is None or index.store_id != store_id:
            index, why = SearchIndex.load(self.index_path)
            if index is not None:
                why = index.mismatch(db, store_id) or ""
            if index is None or why:
                index = self._rebuild(db, store_id, why)
            self._index = index
        if index.generation != generation:
            index.refresh(db, generation)
            if index.needs_merge():
                self.messages.write(
                    f"evidencegate: merging {len(index.delta.contents)} new passage contents "
                    f"into the search index of {self.directory}\n"
                )
                index = self._rebuild(db, store_id, "")
                index.refresh(db, generation)
                self._index = index
        return index

    def _rebuild(self, db: sqlite3.Connection, store_id: str, why: str) -> SearchIndex:
        if why:
            self.messages.write(
                f"evidencegate: rebuilding the search index of {self.directory} ({why})\n"
            )
        index = SearchIndex.build(db, store_id, stream=self.messages)
        try:
            index.save(self.index_path)
        except OSError as exc:  # a read-only store still answers, from the index in memory
            self.messages.write(
                f"evidencegate: cannot save the search index {self.index_path} ({exc}); "
                "it is kept in memory for this process\n"
            )
        return index

    # ----------------------------------------------------------------------- lookups

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        """The stored page ``page`` of doc_id@version with its version metadata, or None."""
        with self._db() as db:
            document = self.document(doc_id, version, tenant)
            if document is None:
                return None
            row = db.execute(
                "SELECT pg.label, t.text, h.text FROM pages AS pg "
                "JOIN versions AS v ON v.id = pg.version_id "
                "JOIN texts AS t ON t.id = pg.text_id JOIN texts AS h ON h.id = pg.heading_id "
                "WHERE v.tenant = ? AND v.doc_id = ? AND v.version = ? AND pg.page = ?",
                (document.tenant, doc_id, version, page),
            ).fetchone()
        if row is None:
            return None
        return SourcePage(
            document=document,
            page=Page(
                doc_id=doc_id, version=version, page=page, label=row[0], text=row[1], heading=row[2]
            ),
        )

    def document(
        self, doc_id: str, version: str, tenant: str | None = None
    ) -> DocumentVersion | None:
        """One stored version, or None."""
        return _one(self._versions("doc_id = ? AND version = ?", (doc_id, version), tenant))

    def versions(self, doc_id: str, tenant: str | None = None) -> list[DocumentVersion]:
        """All versions of ``doc_id``, ordered by (effective_from, version)."""
        return self._versions("doc_id = ?", (doc_id,), tenant)

    def in_force(
        self, doc_id: str, as_of: dt.date, tenant: str | None = None
    ) -> DocumentVersion | None:
        """The version of ``doc_id`` in force on ``as_of`` (effective_to exclusive), or None."""
        day = as_of.isoformat()
        return _one(
            self._versions(
                "doc_id = ? AND effective_from <= ? AND (effective_to IS NULL OR effective_to > ?)",
                (doc_id, day, day),
                tenant,
            )
        )

    def catalog(self, as_of: dt.date, tenant: str | None = None) -> list[DocumentVersion]:
        """Every document version in force on ``as_of``: what question analysis scopes over."""
        day = as_of.isoformat()
        return self._versions(
            "effective_from <= ? AND (effective_to IS NULL OR effective_to > ?)", (day, day), tenant
        )

    def document_frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many passages (of any version or tenant) contain each term, as BM25 sees it (a
        term that analyses to several stems: its rarest stem)."""
        out: dict[str, int] = {}
        with self._db() as db:
            index = self._current_index(db)
            for term in dict.fromkeys(terms):
                stems = query_stems(term)  # a stopword is no query term: left out, as before
                if stems:
                    out[term] = min(index.df(stem) for stem in stems)
        return out

    def stats(self) -> dict[str, int]:
        """Counts of documents (distinct tenant + doc_id), versions, pages and passages.

        Counted once per generation: only a commit storing a version adds rows, and it bumps
        the generation (read first, so counts never stand for a later generation's)."""
        with self._db() as db:
            generation = _meta(db)
            if self._stats is not None and self._stats[0] == generation:
                return dict(self._stats[1])
            row = db.execute(
                "SELECT (SELECT count(*) FROM (SELECT DISTINCT tenant, doc_id FROM versions)), "
                "(SELECT count(*) FROM versions), (SELECT count(*) FROM pages), "
                "(SELECT count(*) FROM passages)"
            ).fetchone()
            counts = dict(zip(("documents", "versions", "pages", "passages"), row, strict=True))
            self._stats = (generation, counts)
        return dict(counts)

    def integrity_problems(self) -> list[str]:
        """Everything wrong with the store's file and its own invariants; [] when sound.

        SQLite's ``integrity_check`` and ``foreign_key_check``, and the store's invariants:
        each version's page and passage counts match its rows, each stored text hashes to its
        key, and each passage's text is exactly its span of its page. (The ranking index is
        derived: it is rebuilt, not checked, when it does not match the store.)
        """
        checks = (
            ("sqlite integrity_check", "PRAGMA integrity_check", lambda rows: rows != [("ok",)]),
            ("foreign keys", "PRAGMA foreign_key_check", bool),
            (
                "page count of a version",
                "SELECT v.doc_id, v.version, v.pages, count(g.page) FROM versions AS v "
                "LEFT JOIN pages AS g ON g.version_id = v.id GROUP BY v.id "
                "HAVING v.pages != count(g.page)",
                bool,
            ),
            (
                "passage count of a version",
                "SELECT v.doc_id, v.version, v.passages, count(p.id) FROM versions AS v "
                "LEFT JOIN passages AS p ON p.version_id = v.id GROUP BY v.id "
                "HAVING v.passages != count(p.id)",
                bool,
            ),
            (
                "text is its sha256",
                "SELECT id FROM texts WHERE sha256 != evg_sha256(text) LIMIT 5",
                bool,
            ),
            (
                "passage text is its span of the page",
                "SELECT p.passage_id FROM passages AS p JOIN pages AS g "
                "ON g.version_id = p.version_id AND g.page = p.page "
                "JOIN texts AS pt ON pt.id = g.text_id JOIN contents AS c ON c.id = p.content_id "
                "JOIN texts AS t ON t.id = c.text_id "
                "WHERE substr(pt.text, p.char_start + 1, p.char_end - p.char_start) != t.text "
                "LIMIT 5",
                bool,
            ),
        )
        problems = []
        with self._db() as db:
            db.create_function("evg_sha256", 1, _text_hash, deterministic=True)
            for name, sql, bad in checks:
                rows = db.execute(sql).fetchall()
                if bad(rows):
                    problems.append(f"{name}: {rows[:5]}")
        return problems

    def _versions(
        self, condition: str, params: tuple[Any, ...], tenant: str | None
    ) -> list[DocumentVersion]:
        with self._db() as db:
            rows = db.execute(
                f"SELECT {_VERSION_COLUMNS} FROM versions WHERE tenant = ? AND {condition} "
                "ORDER BY effective_from, version",
                (tenant or DEFAULT_TENANT, *params),
            ).fetchall()
        return [_document_version(row) for row in rows]


# --------------------------------------------------------------------------- helpers


_KNOWN_PASSAGES = 8192
"""Search results a store keeps validated (see ``Store._known_passages``)."""


@functools.lru_cache(maxsize=64)
def _passage_rows_sql(count: int) -> str:
    """What a search reads of ``count`` passages (by row id): the fields of its results."""
    return (
        "SELECT p.id, p.passage_id, p.version_id, p.page, p.char_start, p.char_end, t.text, "
        "g.label, x.text FROM passages AS p "
        "JOIN pages AS g ON g.version_id = p.version_id AND g.page = p.page "
        "JOIN contents AS c ON c.id = p.content_id JOIN texts AS t ON t.id = c.text_id "
        f"JOIN texts AS x ON x.id = c.context_id WHERE p.id IN ({', '.join('?' * count)})"
    )


def _cut(
    db: sqlite3.Connection,
    ids: list[int],
    scores: list[float],
    flag_lists: list[tuple[str, ...]],
    limit: int,
) -> tuple[list[int], list[float], list[tuple[str, ...]]]:
    """The best ``limit`` of ranked passages (best first) when more than ``limit`` came back,
    ties ordered by passage_id then row id: only their passage_ids are read."""
    names: dict[int, str] = dict(_select_in(db, "SELECT id, passage_id FROM passages", "id", ids))
    keep = sorted(range(len(ids)), key=lambda i: (-scores[i], names[ids[i]], ids[i]))[:limit]
    return [ids[i] for i in keep], [scores[i] for i in keep], [flag_lists[i] for i in keep]


def _create_store_file(path: Path) -> None:
    """Create an empty store at ``path`` in one step, safe against concurrent creators.

    The schema is built in a temporary database in the same directory, which is then linked to
    ``path``: ``os.link`` fails when the name exists, so of two processes creating one store
    the first link wins and the other opens the winner's file. ``path`` therefore never names
    a database without the schema (which another process would refuse as not a store), and a
    creator killed midway leaves only its temporary file.
    """
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".creating", dir=path.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        with closing(sqlite3.connect(temporary, isolation_level=None)) as db:
            _create_schema(db)
        with contextlib.suppress(FileExistsError):  # another process created it first
            os.link(temporary, path)
    finally:
        for leftover in (temporary, Path(f"{name}-wal"), Path(f"{name}-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _create_schema(db: sqlite3.Connection) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        # statement by statement: executescript() would COMMIT the open transaction first
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        _init_meta(db)
        db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    db.execute("PRAGMA journal_mode = WAL")


def _check_store(db: sqlite3.Connection, path: Path) -> None:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    if application_id != _APPLICATION_ID:
        raise StoreError(
            f"{path} is not an evidencegate store (application_id={application_id:#x})"
        )
    schema = db.execute("PRAGMA user_version").fetchone()[0]
    if schema in _MIGRATIONS:
        _migrate(db, schema)
        schema = db.execute("PRAGMA user_version").fetchone()[0]
    if schema != _SCHEMA_VERSION:
        raise StoreError(
            f"{path} has store schema version {schema}; this evidencegate reads {_SCHEMA_VERSION}"
        )


def _migrate(db: sqlite3.Connection, schema: int) -> None:
    """Bring an older store up to the current schema, one version at a time, atomically."""
    db.execute("BEGIN IMMEDIATE")
    try:
        current = db.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
        while current in _MIGRATIONS:
            step = _MIGRATIONS[current]
            if callable(step):
                step(db)
            else:
                for statement in step:
                    db.execute(statement)
            current += 1
            db.execute(f"PRAGMA user_version = {current}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` write transaction: committed when the block ends, else rolled
    back (the store is exactly as before)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _init_meta(db: sqlite3.Connection) -> None:
    db.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        (("store_id", uuid.uuid4().hex), ("generation", 1)),
    )


def _meta(db: sqlite3.Connection) -> tuple[str, int]:
    """The store's id and generation (bumped by every commit that stores a version)."""
    values = dict(db.execute("SELECT key, value FROM meta").fetchall())
    return str(values["store_id"]), int(values["generation"])


def _text_hash(text: str) -> bytes:
    """The key of a stored text: sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


@dataclass(slots=True)
class _Interned:
    """What one transaction learnt of the ``texts`` table: the key of each string it hashed
    and the row id of each key it stored or found (the versions of one file repeat most of
    their texts: each distinct string is hashed and looked up once)."""

    keys: dict[str, bytes] = field(default_factory=dict)
    ids: dict[bytes, int] = field(default_factory=dict)


def _intern_texts(
    db: sqlite3.Connection, strings: Iterable[str], known: _Interned
) -> dict[str, int]:
    """The ``texts`` row id of each string, storing the strings not yet stored (in the order
    they first occur)."""
    keys: dict[str, bytes] = {}
    for text in dict.fromkeys(strings):  # distinct, in the order they first occur
        key = known.keys.get(text)
        if key is None:
            key = known.keys[text] = _text_hash(text)
        keys[text] = key
    ids = known.ids
    wanted = list({key for key in keys.values() if key not in ids})
    ids.update(_select_in(db, "SELECT sha256, id FROM texts", "sha256", wanted))
    new = [(key, text) for text, key in keys.items() if key not in ids]
    for (key, _text), row_id in zip(
        new, _insert_rows(db, "texts", "sha256, text", new), strict=True
    ):
        ids[key] = row_id
    return {text: ids[key] for text, key in keys.items()}


def _insert_rows(
    db: sqlite3.Connection, table: str, columns: str, rows: Sequence[tuple[Any, ...]]
) -> range | list[int]:
    """Insert ``rows`` in order with one ``executemany``; their row ids, in order.

    Inside the caller's write transaction SQLite gives each new row of a table without
    AUTOINCREMENT the largest rowid plus one, so the ids are consecutive; that is checked
    (the first and last rows are read back) and otherwise the ids are looked up one by one.
    """
    if not rows:
        return []
    top = db.execute(f"SELECT max(id) FROM {table}").fetchone()[0] or 0
    marks = ", ".join("?" * len(rows[0]))
    db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)
    names = [name.strip() for name in columns.split(",")]
    where = " AND ".join(f"{name} IS ?" for name in names)
    check = f"SELECT id FROM {table} WHERE {where}"
    if top <= _MAX_ROWID - len(rows):
        ids = range(top + 1, top + 1 + len(rows))
        if all(
            db.execute(check, row).fetchone() == (row_id,)
            for row, row_id in ((rows[0], ids[0]), (rows[-1], ids[-1]))
        ):
            return ids
    return [db.execute(check, row).fetchone()[0] for row in rows]


def _select_in(
    db: sqlite3.Connection, select: str, column: str, values: Sequence[Any]
) -> Iterator[tuple[Any, ...]]:
    """The rows of ``select`` whose ``column`` is one of ``values``, read in chunks of
    :data:`_IN_CHUNK` bound parameters."""
    for at in range(0, len(values), _IN_CHUNK):
        chunk = values[at : at + _IN_CHUNK]
        yield from db.execute(f"{select} WHERE {column} IN ({', '.join('?' * len(chunk))})", chunk)


def _intern_contents(
    db: sqlite3.Connection, pairs: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """The ``contents`` row id of each (text id, context id) pair, storing new pairs."""
    wanted = set(pairs)
    ids: dict[tuple[int, int], int] = {}
    text_ids = list({text for text, _ in wanted})
    for cid, text, context in _select_in(
        db, "SELECT id, text_id, context_id FROM contents", "text_id", text_ids
    ):
        if (text, context) in wanted:
            ids[(text, context)] = cid
    new = sorted(wanted - ids.keys())
    ids.update(zip(new, _insert_rows(db, "contents", "text_id, context_id", new), strict=True))
    return ids


def _skip_keys(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(row[0] for row in db.execute("SELECT DISTINCT key FROM ingested_files"))


def _commit_file(db: sqlite3.Connection, prepared: PreparedFile) -> list[IngestedVersion]:
    """Store a prepared file's versions (or report a skipped file's stored versions) inside the
    caller's transaction, index the new passages, recompute supersession and record the key."""
    if prepared.skipped:
        rows = db.execute(
            f"SELECT {UNCHANGED_COLUMNS} FROM ingested_files AS f "
            "JOIN versions AS v ON v.id = f.version_id WHERE f.key = ? ORDER BY v.id",
            (prepared.key,),
        ).fetchall()
        return IngestedVersion.unchanged(prepared.path, rows)
    stored: list[IngestedVersion] = []
    version_ids: list[int] = []
    known = _Interned()
    for version in prepared.versions:
        version_id, result = _store_version(db, version, known)
        stored.append(result)
        version_ids.append(version_id)
    if any(v.status == "added" for v in stored):
        db.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    for tenant, doc_id in sorted({(v.tenant, v.doc_id) for v in stored if v.status == "added"}):
        _supersede(db, tenant, doc_id)
    db.executemany(
        "INSERT OR IGNORE INTO ingested_files (key, version_id) VALUES (?, ?)",
        ((prepared.key, version_id) for version_id in version_ids),
    )
    return stored


def _store_version(
    db: sqlite3.Connection, prepared: PreparedVersion, known: _Interned
) -> tuple[int, IngestedVersion]:
    """Insert one prepared version with its pages and passages, or confirm it is already
    stored; return its row id and what was done."""
    version = prepared.parsed
    meta = version.meta
    sha = prepared.sha256
    row = db.execute(
        "SELECT id, sha256, pages, passages, extractor FROM versions "
        "WHERE tenant = ? AND doc_id = ? AND version = ?",
        (meta.tenant, meta.doc_id, meta.version),
    ).fetchone()
    if row is not None:
        return row[0], version_result(version, sha, row[1:], len(prepared.passages))
    values = version_values(version, sha, len(prepared.passages))
    version_id = db.execute(
        f"INSERT INTO versions ({VERSION_COLUMNS_INSERTED}) "
        f"VALUES ({', '.join('?' * len(values))})",
        tuple(v.isoformat() if isinstance(v, dt.date) else v for v in values),
    ).lastrowid
    assert version_id is not None
    text_ids = _intern_texts(
        db,
        [
            *(page.text for page in version.pages),
            *(page.heading for page in version.pages),
            *(row[5] for row in prepared.passages),
            *(row[6] for row in prepared.passages),
        ],
        known,
    )
    db.executemany(
        "INSERT INTO pages (version_id, page, label, heading_id, text_id) VALUES (?, ?, ?, ?, ?)",
        (
            (version_id, number, page.label, text_ids[page.heading], text_ids[page.text])
            for number, page in enumerate(version.pages, 1)
        ),
    )
    content_ids = _intern_contents(
        db, ((text_ids[row[5]], text_ids[row[6]]) for row in prepared.passages)
    )
    db.executemany(
        "INSERT INTO passages (passage_id, version_id, page, char_start, char_end, content_id) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            (pid, version_id, page, start, end, content_ids[(text_ids[text], text_ids[context])])
            for pid, page, start, end, _label, text, context in prepared.passages
        ),
    )
    return version_id, version_result(version, sha, None, len(prepared.passages))


VERSION_COLUMNS_INSERTED = (
    "tenant, doc_id, version, version_date, effective_from, source_effective_to, effective_to, "
    "authority, title, source_uri, sha256, pages, passages, entity, aliases, period, extractor"
)
"""The columns a new version row is inserted with, in the order of :func:`version_values`."""


def version_values(version: ParsedVersion, sha: str, passages: int) -> tuple[Any, ...]:
    """A new version row's values (dates as dates; ``effective_to`` is stored twice, as the
    source's and as the effective one until supersession recomputes it), for either backend."""
    meta = version.meta
    return (
        meta.tenant,
        meta.doc_id,
        meta.version,
        meta.version_date,
        meta.effective_from,
        meta.effective_to,
        meta.effective_to,
        meta.authority,
        meta.title,
        meta.source_uri,
        sha,
        len(version.pages),
        passages,
        meta.entity,
        json.dumps(list(meta.aliases)) if meta.aliases else None,
        meta.period,
        version.extractor,
    )


def version_result(
    version: ParsedVersion, sha: str, stored: Sequence[Any] | None, passages: int
) -> IngestedVersion:
    """What storing ``version`` did: ``unchanged`` when ``stored`` (its row's sha256, pages,
    passages and extractor) holds the same content, ``added`` when there was no row. A stored
    version with other content is refused (IngestError): stored versions are immutable."""
    meta = version.meta
    common = {
        "path": version.path,
        "tenant": meta.tenant,
        "doc_id": meta.doc_id,
        "version": meta.version,
        "sha256": sha,
    }
    if stored is None:
        return IngestedVersion(
            **common,
            pages=len(version.pages),
            passages=passages,
            extractor=version.extractor,
            status="added",
        )
    stored_sha, pages, stored_passages, extractor = stored
    if stored_sha != sha:
        raise IngestError(_changed_content(version, stored_sha, sha, extractor), path=version.path)
    return IngestedVersion(
        **common, pages=pages, passages=stored_passages, extractor=extractor, status="unchanged"
    )


def _changed_content(version: ParsedVersion, stored_sha: str, sha: str, stored: str | None) -> str:
    """Why a version cannot be stored over the stored one: name the extractors when they differ."""
    meta = version.meta
    message = (
        f"{meta.doc_id}@{meta.version} (tenant {meta.tenant!r}) is already stored with "
        f"different content (stored sha256 {stored_sha[:12]}, new {sha[:12]}); a stored "
        "version is immutable"
    )
    if stored != version.extractor and (stored or version.extractor):
        old_name = (stored or "").split(" ")[0]
        return (
            f"{message}, and its stored text was extracted by {stored or 'no PDF extractor'} "
            f"while this run uses {version.extractor or 'no PDF extractor'}: re-run with "
            f"--pdf-extractor {old_name} to keep the text existing citations quote, or ingest "
            "the new text under a new version"
        )
    return f"{message}: ingest the changed text under a new version"


def _supersede(db: sqlite3.Connection, tenant: str, doc_id: str) -> None:
    """Recompute ``effective_to`` and ``superseded_by`` for every version of one document.

    Versions are ordered by (effective_from, version): when several share a date, the
    greatest version string (compared code point by code point) is the one in force and the
    others get an empty interval [d, d). Each version ends where the next begins, unless the
    source gave an earlier ``effective_to``, which is kept.
    """
    rows = db.execute(
        "SELECT id, version, effective_from, source_effective_to FROM versions "
        "WHERE tenant = ? AND doc_id = ? ORDER BY effective_from, version",
        (tenant, doc_id),
    ).fetchall()
    db.executemany(
        "UPDATE versions SET effective_to = ?, superseded_by = ? WHERE id = ?", supersession(rows)
    )


def supersession(
    rows: Sequence[tuple[int, str, _Day, _Day | None]],
) -> list[tuple[_Day | None, str | None, int]]:
    """``(effective_to, superseded_by, id)`` of each version of one document, given its rows
    ``(id, version, effective_from, source_effective_to)`` in any order (every backend's
    supersession rule, in one place; dates as ISO strings or ``date``s, compared as given).

    Versions are ordered by (effective_from, version), the version string compared code
    point by code point; each ends where the next begins unless the source gave an earlier end.
    """
    ordered = sorted(rows, key=lambda row: (row[2], row[1]))
    updates: list[tuple[_Day | None, str | None, int]] = []
    for index, (row_id, _, _, source_end) in enumerate(ordered):
        effective_to: _Day | None = source_end
        superseded_by: str | None = None
        if index + 1 < len(ordered):
            _, next_version, next_start, _ = ordered[index + 1]
            superseded_by = next_version
            if effective_to is None or next_start < effective_to:
                effective_to = next_start
        updates.append((effective_to, superseded_by, row_id))
    return updates


def _document_version(row: tuple[Any, ...]) -> DocumentVersion:
    return DocumentVersion(
        doc_id=row[0],
        version=row[1],
        version_date=dt.date.fromisoformat(row[2]),
        effective_from=dt.date.fromisoformat(row[3]),
        effective_to=dt.date.fromisoformat(row[4]) if row[4] else None,
        superseded_by=row[5],
        authority=row[6],
        title=row[7],
        source_uri=row[8],
        sha256=row[9],
        tenant=row[10],
        pages=row[11],
        entity=row[12],
        aliases=json.loads(row[13]) if row[13] else [],
        period=row[14],
        extractor=row[15],
    )


def _one(versions: list[DocumentVersion]) -> DocumentVersion | None:
    return versions[0] if versions else None
