"""The corpus store: document versions, pages and passages in one SQLite file, searched by BM25.

``Store.open(DIR)`` uses ``DIR/evidencegate.sqlite3``. Tables:

``versions``  one row per (tenant, doc_id, version), immutable content with its sha256;
              ``effective_to`` and ``superseded_by`` are derived (see ``_supersede``).
``pages``     the page texts the verifier checks quotes against.
``passages``  spans of pages (text, offsets, content-hash id) plus a context string (label,
              page heading, document title), indexed by the FTS5 table ``passages_fts``
              (external content, ``porter unicode61`` tokenizer).

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
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sqlite3
import tempfile
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, TypeVar

from evidencegate.closing import Closing
from evidencegate.contracts import DocumentVersion, Page, Passage, SourcePage
from evidencegate.corpus.ingest import (
    AUTHORITIES,
    DEFAULT_TENANT,
    IngestedVersion,
    IngestNotice,
    IngestOptions,
    IngestReport,
    ParsedVersion,
    PreparedFile,
    PreparedVersion,
    prepare_file,
)
from evidencegate.corpus.query import fts_query
from evidencegate.exceptions import IngestError, StoreError, UsageError
from evidencegate.hygiene import instruction_flags

__all__ = ["STORE_FILENAME", "Store", "supersession"]

_Day = TypeVar("_Day", str, dt.date)

STORE_FILENAME = "evidencegate.sqlite3"
_APPLICATION_ID = 0x45564754  # "EVGT" in the SQLite header marks an evidencegate store
_SCHEMA_VERSION = 3
"""2 added the versions' entity, aliases (JSON list) and period; 3 the versions' extractor and
the ingested_files table. An older store is migrated when opened (the new columns are NULL for
versions stored before, except extractor, which is 'pypdf' for PDFs)."""
_BUSY_TIMEOUT_S = 300.0
"""How long a write waits for another writer's transaction (one file's commit) to end: long,
because SQLite releases the locks of a process that dies, so only a live writer is waited for."""
_CONTEXT_WEIGHT = 1.0
"""BM25 weight of the context column (label, heading, document title) relative to the passage
text. Equal: the context column is short, so BM25's length normalisation already makes a heading
match count; weighting it lower split enumerated paragraphs (e.g. the yearly Regulation M
threshold figures, whose only link to the question is their parent heading) from their list."""

_SCHEMA = """
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
CREATE TABLE pages (
    version_id INTEGER NOT NULL REFERENCES versions (id),
    page INTEGER NOT NULL,
    label TEXT,
    heading TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (version_id, page)
);
CREATE TABLE passages (
    id INTEGER PRIMARY KEY,
    passage_id TEXT NOT NULL,
    version_id INTEGER NOT NULL REFERENCES versions (id),
    page INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    label TEXT,
    text TEXT NOT NULL,
    context TEXT NOT NULL
);
CREATE INDEX passages_by_id ON passages (passage_id);
CREATE VIRTUAL TABLE passages_fts USING fts5 (
    text, context, content='passages', content_rowid='id', tokenize='porter unicode61'
);
"""

_VERSION_COLUMNS = (
    "doc_id, version, version_date, effective_from, effective_to, superseded_by, authority, "
    "title, source_uri, sha256, tenant, pages, entity, aliases, period, extractor"
)
_MIGRATIONS = {
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
    ) -> list[Passage]:
        """BM25-ranked passages of versions in force on ``as_of`` (best first).

        Filters (all in SQL): ``effective_from <= as_of < effective_to`` (open end when none),
        ``authorities`` and ``doc_ids`` when given (an empty list matches nothing), and the
        tenant. Ties in score are ordered by passage_id, so results are deterministic. A query
        with no content words (only stopwords or punctuation) returns no passages.
        """
        if limit < 1:
            raise UsageError(f"limit must be >= 1 (got {limit})")
        for authority in authorities or ():
            if authority not in AUTHORITIES:
                raise UsageError(f"unknown authority {authority!r} (expected primary or secondary)")
        match = fts_query(query)
        if match is None or authorities == [] or doc_ids == []:
            return []
        day = as_of.isoformat()
        conditions = [
            "passages_fts MATCH ?",
            "v.tenant = ?",
            "v.effective_from <= ?",
            "(v.effective_to IS NULL OR v.effective_to > ?)",
        ]
        params: list[Any] = [match, tenant or DEFAULT_TENANT, day, day]
        for column, values in (("v.authority", authorities), ("v.doc_id", doc_ids)):
            if values is not None:
                conditions.append(f"{column} IN ({', '.join('?' * len(values))})")
                params.extend(values)
        # CROSS JOIN fixes the join order: the full-text match drives, versions are looked up
        # by primary key. Otherwise SQLite may re-run the match once per candidate version.
        sql = (
            "SELECT p.passage_id, v.doc_id, v.version, p.page, p.char_start, p.char_end, p.text, "
            "p.label, v.title, v.authority, v.version_date, "
            f"-bm25(passages_fts, 1.0, {_CONTEXT_WEIGHT}) AS score, p.context "
            "FROM passages_fts CROSS JOIN passages AS p ON p.id = passages_fts.rowid "
            "CROSS JOIN versions AS v ON v.id = p.version_id "
            f"WHERE {' AND '.join(conditions)} "
            "ORDER BY score DESC, p.passage_id, p.id LIMIT ?"
        )
        params.append(limit)
        with self._db() as db:
            rows = db.execute(sql, params).fetchall()
        return [
            Passage(
                passage_id=row[0],
                doc_id=row[1],
                version=row[2],
                page=row[3],
                char_start=row[4],
                char_end=row[5],
                text=row[6],
                label=row[7],
                title=row[8],
                authority=row[9],
                version_date=dt.date.fromisoformat(row[10]),
                score=row[11],
                context=row[12],
                flags=instruction_flags(row[6]),
            )
            for row in rows
        ]

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
                "SELECT pg.label, pg.text, pg.heading FROM pages AS pg "
                "JOIN versions AS v ON v.id = pg.version_id "
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
        """How many passages (of any version or tenant) contain each term, as BM25 sees it."""
        out: dict[str, int] = {}
        with self._db() as db:
            for term in dict.fromkeys(terms):
                match = fts_query(term)
                if match is None:
                    continue
                out[term] = db.execute(
                    "SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (match,)
                ).fetchone()[0]
        return out

    def stats(self) -> dict[str, int]:
        """Counts of documents (distinct tenant + doc_id), versions, pages and passages."""
        with self._db() as db:
            row = db.execute(
                "SELECT (SELECT count(*) FROM (SELECT DISTINCT tenant, doc_id FROM versions)), "
                "(SELECT count(*) FROM versions), (SELECT count(*) FROM pages), "
                "(SELECT count(*) FROM passages)"
            ).fetchone()
        return dict(zip(("documents", "versions", "pages", "passages"), row, strict=True))

    def integrity_problems(self) -> list[str]:
        """Everything wrong with the store's file and its own invariants; [] when sound.

        SQLite's ``integrity_check`` and ``foreign_key_check``, the full-text index against
        its content table, and the store's invariants: each version's page and passage counts
        match its rows, and each passage's text is exactly its span of its page.
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
                "passage text is its span of the page",
                "SELECT p.passage_id FROM passages AS p JOIN pages AS g "
                "ON g.version_id = p.version_id AND g.page = p.page "
                "WHERE substr(g.text, p.char_start + 1, p.char_end - p.char_start) != p.text "
                "LIMIT 5",
                bool,
            ),
        )
        problems = []
        with self._db() as db:
            for name, sql, bad in checks:
                rows = db.execute(sql).fetchall()
                if bad(rows):
                    problems.append(f"{name}: {rows[:5]}")
            try:  # FTS5 compares its index with the content table (no change is made)
                db.execute(
                    "INSERT INTO passages_fts (passages_fts, rank) VALUES ('integrity-check', 1)"
                )
            except sqlite3.DatabaseError as exc:
                problems.append(f"full-text index: {exc}")
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
            for statement in _MIGRATIONS[current]:
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


def _skip_keys(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(row[0] for row in db.execute("SELECT DISTINCT key FROM ingested_files"))


def _commit_file(db: sqlite3.Connection, prepared: PreparedFile) -> list[IngestedVersion]:
    """Store a prepared file's versions (or report a skipped file's stored versions) inside the
    caller's transaction, index the new passages, recompute supersession and record the key."""
    if prepared.skipped:
        rows = db.execute(
            "SELECT v.tenant, v.doc_id, v.version, v.sha256, v.pages, v.passages, v.extractor "
            "FROM ingested_files AS f JOIN versions AS v ON v.id = f.version_id "
            "WHERE f.key = ? ORDER BY v.id",
            (prepared.key,),
        ).fetchall()
        return [
            IngestedVersion(
                path=prepared.path,
                tenant=row[0],
                doc_id=row[1],
                version=row[2],
                sha256=row[3],
                pages=row[4],
                passages=row[5],
                extractor=row[6],
                status="unchanged",
            )
            for row in rows
        ]
    last_passage: int = db.execute("SELECT coalesce(max(id), 0) FROM passages").fetchone()[0]
    stored: list[IngestedVersion] = []
    version_ids: list[int] = []
    for version in prepared.versions:
        version_id, result = _store_version(db, version)
        stored.append(result)
        version_ids.append(version_id)
    db.execute(
        "INSERT INTO passages_fts (rowid, text, context) "
        "SELECT id, text, context FROM passages WHERE id > ?",
        (last_passage,),
    )
    for tenant, doc_id in sorted({(v.tenant, v.doc_id) for v in stored if v.status == "added"}):
        _supersede(db, tenant, doc_id)
    db.executemany(
        "INSERT OR IGNORE INTO ingested_files (key, version_id) VALUES (?, ?)",
        ((prepared.key, version_id) for version_id in version_ids),
    )
    return stored


def _store_version(
    db: sqlite3.Connection, prepared: PreparedVersion
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
    common = {
        "path": version.path,
        "tenant": meta.tenant,
        "doc_id": meta.doc_id,
        "version": meta.version,
        "sha256": sha,
    }
    if row is not None:
        if row[1] != sha:
            raise IngestError(_changed_content(version, row[1], sha, row[4]), path=version.path)
        unchanged = IngestedVersion(
            **common, pages=row[2], passages=row[3], extractor=row[4], status="unchanged"
        )
        return row[0], unchanged
    version_id = db.execute(
        "INSERT INTO versions (tenant, doc_id, version, version_date, effective_from, "
        "source_effective_to, effective_to, authority, title, source_uri, sha256, pages, passages, "
        "entity, aliases, period, extractor) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            meta.tenant,
            meta.doc_id,
            meta.version,
            meta.version_date.isoformat(),
            meta.effective_from.isoformat(),
            _iso(meta.effective_to),
            _iso(meta.effective_to),
            meta.authority,
            meta.title,
            meta.source_uri,
            sha,
            len(version.pages),
            len(prepared.passages),
            meta.entity,
            json.dumps(list(meta.aliases)) if meta.aliases else None,
            meta.period,
            version.extractor,
        ),
    ).lastrowid
    assert version_id is not None
    db.executemany(
        "INSERT INTO pages (version_id, page, label, heading, text) VALUES (?, ?, ?, ?, ?)",
        (
            (version_id, number, page.label, page.heading, page.text)
            for number, page in enumerate(version.pages, 1)
        ),
    )
    db.executemany(
        "INSERT INTO passages (passage_id, version_id, page, char_start, char_end, label, text, "
        "context) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ((pid, version_id, *rest) for pid, *rest in prepared.passages),
    )
    added = IngestedVersion(
        **common,
        pages=len(version.pages),
        passages=len(prepared.passages),
        extractor=version.extractor,
        status="added",
    )
    return version_id, added


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


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None
