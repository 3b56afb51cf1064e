"""The PostgreSQL store: the SQLite store's contract, in a server many workers share.

``PostgresStore.open("postgresql://user@host/db")`` (any libpq connection string) holds what
``Store`` holds, in tables of the connection's first ``search_path`` schema:

``versions``, ``pages``, ``ingested_files``  as in SQLite; dates are ``date``s, version strings
                      are compared in the "C" collation (code point by code point, as SQLite's
                      BINARY), and supersession is the one rule of
                      :func:`evidencegate.corpus.store.supersession`.
``passages``          spans of pages, each with its token count, a ``tsvector`` of its distinct
                      terms (text and context, folded and Porter-stemmed in Python by
                      :func:`index_terms`, as FTS5's ``porter unicode61`` does) under a GIN
                      index, and its term frequencies (``jsonb``).
``corpus_stats``      one row: the passage and token counts BM25's average length and idf use.
``term_stats``        how many passages hold each term (BM25's document frequency).
``pair_stats``        how many passages hold each run of two or three adjacent terms (the
                      phrase bonus; each passage's runs are in ``passages.pairs``).
``run_scores``, ``flagged_responses``, ``feedback``  the review queue (:mod:`evidencegate.review`).
``traces``            the trace index (:mod:`evidencegate.audit.index`).
``schema_version``    one row per migration applied; :data:`SCHEMA_VERSION` is the newest.

Search is BM25 in SQL, with FTS5's formula (k1 1.2, b 0.75, idf ``ln((N - n + 0.5) / (n + 0.5))``
floored at 1e-6, text and context as one bag of tokens): the GIN index finds the passages holding
a query term, the tenant/as-of/authority/doc filters join in the same statement, and only the
passages that pass them are scored and cut to the top k. Filters come before the top k, never
after.

Writes: every write transaction first locks the ``corpus_stats`` row, so writers take turns (one
short transaction per file, as in SQLite) and supersession is computed on committed rows;
readers are never blocked (MVCC). Files are parsed and their passages tokenised before the
transaction. Trace files stay files (hash-chained JSONL, fsynced where they are written): a
Postgres store writes them under :attr:`PostgresStore.traces_dir`, ``$EVIDENCEGATE_TRACES_DIR``
or else ``$XDG_DATA_HOME/evidencegate/traces``; workers on several hosts share that directory
(e.g. a network mount) for ``traces list`` to see every run.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import json
import os
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import snowballstemmer

from evidencegate.closing import Closing
from evidencegate.contracts import DocumentVersion, Page, Passage, SourcePage
from evidencegate.corpus.index import IDF_FLOOR, PAIR_WEIGHT
from evidencegate.corpus.ingest import (
    AUTHORITIES,
    DEFAULT_TENANT,
    UNCHANGED_COLUMNS,
    IngestedVersion,
    IngestNotice,
    IngestOptions,
    IngestReport,
    PreparedFile,
    PreparedVersion,
    prepare_file,
)
from evidencegate.corpus.query import query_terms
from evidencegate.corpus.store import (
    VERSION_COLUMNS_INSERTED,
    supersession,
    version_result,
    version_values,
)
from evidencegate.exceptions import ConfigurationError, StoreError, UsageError
from evidencegate.hygiene import instruction_flags

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "SCHEMA_VERSION",
    "TRACES_ENV_VAR",
    "PostgresStore",
    "SqliteDialect",
    "index_terms",
    "is_postgres_url",
    "open_tables",
]

TRACES_ENV_VAR = "EVIDENCEGATE_TRACES_DIR"
_K1 = 1.2
_B = 0.75
_CONNECT_TIMEOUT_S = 10
_ANALYZE_AFTER = 5000
"""An ``ingest`` call adding this many passages refreshes the planner's statistics."""
_MIGRATION_LOCK = 0x45564754  # "EVGT": one migrating process at a time

_MIGRATIONS: dict[int, tuple[str, ...]] = {
    0: (
        "CREATE TABLE schema_version (version integer PRIMARY KEY, "
        "applied_at timestamptz NOT NULL DEFAULT now())",
        """CREATE TABLE versions (
            id bigserial PRIMARY KEY,
            tenant text NOT NULL,
            doc_id text NOT NULL,
            version text COLLATE "C" NOT NULL,
            version_date date NOT NULL,
            effective_from date NOT NULL,
            source_effective_to date,
            effective_to date,
            superseded_by text,
            authority text NOT NULL CHECK (authority IN ('primary', 'secondary')),
            title text NOT NULL,
            source_uri text NOT NULL,
            sha256 text NOT NULL,
            pages integer NOT NULL,
            passages integer NOT NULL,
            entity text,
            aliases text,
            period text,
            extractor text,
            UNIQUE (tenant, doc_id, version)
        )""",
        "CREATE INDEX versions_by_start ON versions (tenant, effective_from)",
        """CREATE TABLE ingested_files (
            key text NOT NULL,
            version_id bigint NOT NULL REFERENCES versions (id),
            PRIMARY KEY (key, version_id)
        )""",
        """CREATE TABLE pages (
            version_id bigint NOT NULL REFERENCES versions (id),
            page integer NOT NULL,
            label text,
            heading text NOT NULL,
            text text NOT NULL,
            PRIMARY KEY (version_id, page)
        )""",
        """CREATE TABLE passages (
            id bigserial PRIMARY KEY,
            passage_id text COLLATE "C" NOT NULL,
            version_id bigint NOT NULL REFERENCES versions (id),
            page integer NOT NULL,
            char_start integer NOT NULL,
            char_end integer NOT NULL,
            label text,
            text text NOT NULL,
            context text NOT NULL,
            length integer NOT NULL,
            terms tsvector NOT NULL,
            frequencies jsonb NOT NULL
        )""",
        "CREATE INDEX passages_by_version ON passages (version_id)",
        "CREATE INDEX passages_by_id ON passages (passage_id)",
        "CREATE INDEX passages_terms ON passages USING gin (terms)",
        """CREATE TABLE corpus_stats (
            only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            passages bigint NOT NULL,
            tokens bigint NOT NULL
        )""",
        "INSERT INTO corpus_stats (passages, tokens) VALUES (0, 0)",
        """CREATE TABLE term_stats (
            term text COLLATE "C" PRIMARY KEY,
            passages bigint NOT NULL
        )""",
    ),
    1: (
        """CREATE TABLE run_scores (
            run_id text PRIMARY KEY,
            abstained integer NOT NULL,
            groundedness double precision,
            quality integer,
            review_score double precision,
            time text NOT NULL
        )""",
        """CREATE TABLE flagged_responses (
            id bigserial PRIMARY KEY,
            run_id text NOT NULL,
            reason text NOT NULL,
            score double precision,
            time text NOT NULL
        )""",
        "CREATE INDEX flagged_by_run ON flagged_responses (run_id)",
        """CREATE TABLE feedback (
            id bigserial PRIMARY KEY,
            run_id text NOT NULL,
            verdict text NOT NULL CHECK (verdict IN ('up', 'down')),
            note text,
            auto_score double precision,
            time text NOT NULL
        )""",
        """CREATE TABLE traces (
            file text COLLATE "C" PRIMARY KEY,
            size bigint NOT NULL,
            mtime_ns bigint NOT NULL,
            run_id text,
            status text NOT NULL CHECK (status IN ('complete', 'incomplete', 'tampered')),
            reason text,
            lines integer NOT NULL,
            started_at text COLLATE "C",
            ended_at text,
            question text,
            as_of text,
            tenant text,
            policy text,
            outcome text,
            stop_reason text,
            passes integer,
            coverage double precision
        )""",
        "CREATE INDEX traces_by_time ON traces (started_at)",
    ),
    2: (
        "ALTER TABLE passages ADD COLUMN pairs text[] NOT NULL DEFAULT '{}'",
        """CREATE TABLE pair_stats (
            pair text COLLATE "C" PRIMARY KEY,
            passages bigint NOT NULL
        )""",
    ),
    3: ("DELETE FROM pair_stats",),
}
"""Statements that take a store from schema version N to N + 1 (0: an empty database).
1 holds the corpus; 2 added the review queue and the trace index; 3 the adjacent term pairs of
each passage and how many passages hold each pair (the phrase bonus); 4 the runs of three
adjacent terms beside the pairs, in the same column and table. After steps 2 and 3 the runs of
the passages already stored are filled in again (:func:`_fill_pairs`)."""
_REFILL_AFTER = frozenset({2, 3})
"""Migration steps after which ``passages.pairs`` and ``pair_stats`` are recomputed."""
SCHEMA_VERSION = max(_MIGRATIONS) + 1

_VERSION_COLUMNS = (
    "doc_id, version, version_date, effective_from, effective_to, superseded_by, authority, "
    "title, source_uri, sha256, tenant, pages, entity, aliases, period, extractor"
)
_PASSAGE_COLUMNS = (
    "passage_id, version_id, page, char_start, char_end, label, text, context, length, terms, "
    "frequencies, pairs"
)
_FILL_BATCH = 2000


def is_postgres_url(location: object) -> bool:
    """Whether ``location`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


# --------------------------------------------------------------------------- terms

_TOKEN = re.compile(r"[^\W_]+")
_STEMMED_BYTES = (3, 64)
"""FTS5's porter tokenizer stems only tokens of 3 to 64 bytes; shorter and longer ones pass."""
_stemmers = threading.local()


@functools.lru_cache(maxsize=200_000)
def _term(token: str) -> str:
    """A case-folded token without diacritics, Porter-stemmed (what FTS5's ``porter
    unicode61`` tokenizer makes of it)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", token) if not unicodedata.combining(c))
    plain = plain or token
    if not _STEMMED_BYTES[0] <= len(plain.encode("utf-8")) <= _STEMMED_BYTES[1]:
        return plain
    stemmer = getattr(_stemmers, "porter", None)
    if stemmer is None:  # snowball stemmers keep state between calls: one per thread
        stemmer = _stemmers.porter = snowballstemmer.stemmer("porter")
    stemmed: str = stemmer.stemWord(plain)
    return stemmed or plain


def index_terms(text: str) -> list[str]:
    """Every token of ``text`` as a search term, in order (repeats kept)."""
    return [_term(token) for token in _TOKEN.findall(text.casefold())]


def adjacent_runs(text: str, context: str) -> list[str]:
    """The distinct runs of two and of three adjacent terms of a passage, as ``"first second"``
    and ``"first second third"``: inside its text and inside its context, never across the two
    (what the SQLite index's pair and triple postings hold)."""
    runs: dict[str, None] = {}
    for piece in (text, context):
        runs.update(dict.fromkeys(_runs(index_terms(piece))))
    return list(runs)


def _runs(terms: Sequence[str]) -> list[str]:
    """The distinct runs of two, then of three, adjacent ``terms`` (stopwords included)."""
    pairs = (f"{a} {b}" for a, b in itertools.pairwise(terms))
    triples = (f"{a} {b} {c}" for a, b, c in zip(terms, terms[1:], terms[2:], strict=False))
    return list(dict.fromkeys(itertools.chain(pairs, triples)))


def _text_array(runs: Iterable[str]) -> str:
    """The ``text[]`` literal of ``runs``, each element quoted. Terms are runs of letters and
    digits, so the quotes and backslashes that need escaping are rare (a compatibility
    decomposition may bring one): the literal is joined in one go, and escaped only when one
    is there. (psycopg's array dumper escapes element by element: half of an ingest's time.)"""
    items = list(runs)
    body = '","'.join(items)
    if '"' in body or "\\" in body:
        body = '","'.join(r.replace("\\", "\\\\").replace('"', '\\"') for r in items)
    return '{"' + body + '"}' if items else "{}"


def _tsvector(counts: dict[str, int]) -> str:
    """The tsvector literal of a passage's distinct terms (no positions: the GIN index only
    finds passages; term frequencies are in ``frequencies``)."""
    return " ".join(f"'{term}'" for term in counts)


def _query_terms(question: str) -> list[str]:
    """The search terms of a question: its content words (:func:`query_terms`) as terms; two
    words with one stem count twice, as two FTS5 phrases would."""
    return [_term(word) for word in query_terms(question)]


def _tsquery(terms: Sequence[str]) -> str:
    return " | ".join(f"'{term}'" for term in dict.fromkeys(terms))


# --------------------------------------------------------------------------- connections


def _shown(url: str) -> str:
    """The connection string without its password, for messages."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except Exception:
        return "postgresql://…"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def _connect(url: str, shown: str) -> psycopg.Connection[tuple[Any, ...]]:
    try:
        import psycopg
    except ImportError as exc:
        raise ConfigurationError(
            "a postgresql:// store needs psycopg 3: pip install 'evidencegate[postgres]'"
        ) from exc
    try:
        connection = psycopg.connect(url, autocommit=True, connect_timeout=_CONNECT_TIMEOUT_S)
        # The JIT compiler costs seconds on the search's plan and saves nothing on its rows.
        connection.execute("SET jit = off")
        return connection
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to {shown}: {_reason(exc)}") from exc


def _reason(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _prepare_schema(db: psycopg.Connection[tuple[Any, ...]], shown: str, *, create: bool) -> None:
    """Check the database holds an evidencegate store of a schema this code reads; migrate an
    older one (all steps in one transaction, one migrating process at a time); create one in
    an empty database when ``create``."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        current = _schema_version(db, shown)
        if current == 0 and not create:
            raise StoreError(f"no evidencegate store in {shown} (ingest into it to create one)")
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{shown} has store schema version {current}; this evidencegate reads "
                f"{SCHEMA_VERSION}"
            )
        migrate(db, current, SCHEMA_VERSION)


def _schema_version(db: psycopg.Connection[tuple[Any, ...]], shown: str) -> int:
    """The store's schema version; 0 for a database without evidencegate tables."""
    if db.execute("SELECT to_regclass('schema_version')").fetchone() == (None,):
        if db.execute("SELECT to_regclass('versions')").fetchone() != (None,):
            raise StoreError(
                f"{shown} is not an evidencegate store (a versions table without schema_version)"
            )
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(db: psycopg.Connection[tuple[Any, ...]], current: int, target: int) -> None:
    """Apply the migrations from schema ``current`` to ``target`` inside the caller's
    transaction, recording each in ``schema_version``."""
    refill = False
    while current < target:
        for statement in _MIGRATIONS[current]:
            db.execute(statement)
        refill |= current in _REFILL_AFTER
        current += 1
        db.execute("INSERT INTO schema_version (version) VALUES (%s)", (current,))
    if refill:
        _fill_pairs(db)


def _fill_pairs(db: psycopg.Connection[tuple[Any, ...]]) -> None:
    """The phrase columns of the passages stored before schema 4 (``pair_stats`` is empty):
    each passage's runs of adjacent terms (:func:`adjacent_runs`), and ``pair_stats`` counted
    from them (inside the migration's transaction)."""
    counts: Counter[str] = Counter()
    last = 0
    while True:
        rows = db.execute(
            "SELECT id, text, context FROM passages WHERE id > %s ORDER BY id LIMIT %s",
            (last, _FILL_BATCH),
        ).fetchall()
        if not rows:
            break
        updates = []
        for pid, text, context in rows:
            pairs = adjacent_runs(text, context)
            counts.update(pairs)
            updates.append((pairs, pid))
        with db.cursor() as cursor:
            cursor.executemany("UPDATE passages SET pairs = %s WHERE id = %s", updates)
        last = rows[-1][0]
    if counts:
        db.execute(
            "INSERT INTO pair_stats (pair, passages) "
            "SELECT * FROM unnest(%s::text[], %s::bigint[])",
            (list(counts), list(counts.values())),
        )


class SqliteDialect:
    """A Postgres connection spoken to in the SQL the SQLite tables use: ``?`` placeholders and
    ``BEGIN IMMEDIATE``. The review queue and the trace index keep one set of statements for
    both backends (none holds a literal ``?`` or ``%``). Errors become StoreError."""

    def __init__(self, connection: psycopg.Connection[tuple[Any, ...]], shown: str) -> None:
        self._connection = connection
        self.shown = shown

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[tuple[Any, ...]]:
        import psycopg

        if sql.strip().upper() == "BEGIN IMMEDIATE":
            sql = "BEGIN"
        try:
            return self._connection.execute(sql.replace("%", "%%").replace("?", "%s"), params)
        except psycopg.Error as exc:
            raise StoreError(f"{self.shown}: {_reason(exc)}") from exc

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        import psycopg

        try:
            with self._connection.cursor() as cursor:
                cursor.executemany(sql.replace("%", "%%").replace("?", "%s"), rows)
        except psycopg.Error as exc:
            raise StoreError(f"{self.shown}: {_reason(exc)}") from exc

    def close(self) -> None:
        self._connection.close()


def open_tables(url: str) -> SqliteDialect:
    """A connection to an existing Postgres store (migrated when older), for the review queue
    and the trace index; StoreError when ``url`` holds no store."""
    shown = _shown(url)
    connection = _connect(url, shown)
    try:
        _prepare_schema(connection, shown, create=False)
    except BaseException as exc:
        connection.close()
        _reraise(exc, shown)
        raise
    return SqliteDialect(connection, shown)


def _reraise(exc: BaseException, shown: str) -> None:
    """A driver error as a StoreError naming the database (other errors pass unchanged)."""
    import psycopg

    if isinstance(exc, psycopg.Error):
        raise StoreError(f"{shown}: {_reason(exc)}") from exc


def default_traces_dir() -> Path:
    """Where a Postgres store's runs write their traces unless told otherwise."""
    configured = os.environ.get(TRACES_ENV_VAR)
    if configured:
        return Path(configured)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "evidencegate" / "traces"


# --------------------------------------------------------------------------- the store


class PostgresStore(Closing):
    """Document versions, pages and passages in PostgreSQL; a ``Retriever`` and a
    ``SourceLookup`` with the SQLite :class:`~evidencegate.corpus.store.Store`'s contract.

    Safe to share between threads (calls are serialised on one connection); open one per
    process (a connection does not survive ``fork``).
    """

    def __init__(
        self, connection: psycopg.Connection[tuple[Any, ...]], url: str, traces_dir: Path
    ) -> None:
        """Use :meth:`open`; this wraps an already checked connection."""
        self._connection: psycopg.Connection[tuple[Any, ...]] | None = connection
        self._lock = threading.RLock()
        self.location = url
        """The connection string (with its password, if it has one): reopen with it."""
        self.shown = _shown(url)
        """The connection string without password, for messages."""
        self.traces_dir = traces_dir
        """Where runs write their trace files by default (see the module docstring)."""

    @classmethod
    def open(
        cls, url: str, *, create: bool = True, traces_dir: str | Path | None = None
    ) -> PostgresStore:
        """Connect to the store at ``url`` (creating its tables in an empty database when
        ``create``, migrating an older schema); StoreError otherwise."""
        shown = _shown(url)
        connection = _connect(url, shown)
        try:
            _prepare_schema(connection, shown, create=create)
        except BaseException as exc:
            connection.close()
            _reraise(exc, shown)
            raise
        where = Path(traces_dir) if traces_dir is not None else default_traces_dir()
        return cls(connection, url, where)

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextmanager
    def _db(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        import psycopg

        with self._lock:
            if self._connection is None:
                raise StoreError(f"store {self.shown} is closed")
            try:
                yield self._connection
            except psycopg.Error as exc:
                raise StoreError(f"store {self.shown}: {_reason(exc)}") from exc

    @contextmanager
    def _write(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """One write transaction, writers taking turns on the ``corpus_stats`` row lock."""
        with self._db() as db, db.transaction():
            db.execute("SELECT 1 FROM corpus_stats FOR UPDATE")
            yield db

    # ----------------------------------------------------------------------- ingest

    def ingest(
        self, paths: Sequence[str | Path], options: IngestOptions | None = None
    ) -> IngestReport:
        """Ingest files in ONE transaction: all of them are stored, or (on any error) none.

        As :meth:`evidencegate.corpus.store.Store.ingest`; the files are read before the
        transaction starts, so other writers wait only while rows are inserted.
        """
        options = options or IngestOptions()
        skip_keys = self.ingested_keys()
        prepared = [
            _Tokenised(prepare_file(Path(raw), options, shown=str(raw), skip_keys=skip_keys))
            for raw in paths
        ]
        versions: list[IngestedVersion] = []
        notices: list[IngestNotice] = []
        with self._write() as db:
            for item in prepared:
                versions.extend(_commit_file(db, item))
                notices.extend(item.file.notices)
        if sum(v.passages for v in versions if v.status == "added") >= _ANALYZE_AFTER:
            self._analyze()
        return IngestReport(
            versions=versions,
            notices=notices,
            files=len(paths),
            skipped_files=sum(item.file.skipped for item in prepared),
        )

    def _analyze(self) -> None:
        """Refresh the planner's statistics after a large ingest (the autovacuum daemon would,
        later): with a fresh table's guesses the search's plan can be badly wrong."""
        with self._db() as db:
            db.execute("ANALYZE versions, passages, term_stats, pair_stats, corpus_stats")

    def ingested_keys(self) -> frozenset[str]:
        """The keys (file content + options) of every file whose versions are all stored."""
        with self._db() as db:
            return frozenset(
                row[0] for row in db.execute("SELECT DISTINCT key FROM ingested_files")
            )

    def commit_prepared(self, prepared: PreparedFile) -> list[IngestedVersion]:
        """Store one prepared file's versions in one short write transaction (all or none);
        IngestError (nothing stored) when a version is already stored with other content."""
        tokenised = _Tokenised(prepared)
        with self._write() as db:
            return _commit_file(db, tokenised)

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
        """BM25-ranked passages of versions in force on ``as_of`` (best first), filtered
        before the top ``limit`` is taken, with the phrase bonus unless ``phrases`` is false;
        as :meth:`evidencegate.corpus.store.Store.search`."""
        if limit < 1:
            raise UsageError(f"limit must be >= 1 (got {limit})")
        for authority in authorities or ():
            if authority not in AUTHORITIES:
                raise UsageError(f"unknown authority {authority!r} (expected primary or secondary)")
        terms = _query_terms(query)
        if not terms or authorities == [] or doc_ids == []:
            return []
        params: dict[str, Any] = {
            "terms": terms,
            "match": _tsquery(terms),
            "pairs": _runs(index_terms(query)) if phrases else [],
            "tenant": tenant or DEFAULT_TENANT,
            "day": as_of,
            "limit": limit,
        }
        extra = ""
        if authorities is not None:
            extra += " AND v.authority = ANY(%(authorities)s)"
            params["authorities"] = list(authorities)
        if doc_ids is not None:
            extra += " AND v.doc_id = ANY(%(doc_ids)s)"
            params["doc_ids"] = list(doc_ids)
        sql = f"""
            WITH stats AS MATERIALIZED (
                SELECT passages::float8 AS n,
                       greatest(tokens::float8 / greatest(passages, 1), 1e-9) AS avgdl
                FROM corpus_stats
            ), q AS MATERIALIZED (
                SELECT t.term, greatest(ln((s.n - d.df + 0.5) / (d.df + 0.5)), 1e-6) AS idf
                FROM unnest(%(terms)s::text[]) AS t (term)
                CROSS JOIN stats AS s
                CROSS JOIN LATERAL (
                    SELECT coalesce(max(ts.passages), 0)::float8 AS df
                    FROM term_stats AS ts WHERE ts.term = t.term
                ) AS d
            ), qp AS MATERIALIZED (
                SELECT t.pair,
                       {PAIR_WEIGHT} * ln((s.n - d.passages + 0.5) / (d.passages + 0.5)) AS weight
                FROM unnest(%(pairs)s::text[]) AS t (pair)
                CROSS JOIN stats AS s
                JOIN pair_stats AS d ON d.pair = t.pair
                WHERE ln((s.n - d.passages + 0.5) / (d.passages + 0.5)) > {IDF_FLOOR}
            ), hits AS MATERIALIZED (
                SELECT p.id, p.length, p.frequencies, p.pairs
                FROM passages AS p JOIN versions AS v ON v.id = p.version_id
                WHERE p.terms @@ %(match)s::tsquery AND v.tenant = %(tenant)s
                  AND v.effective_from <= %(day)s
                  AND (v.effective_to IS NULL OR v.effective_to > %(day)s){extra}
            ), scored AS (
                SELECT h.id, sum(
                    q.idf * (f.tf * {_K1 + 1})
                    / (f.tf + {_K1} * ({1 - _B} + {_B} * h.length / s.avgdl))
                ) AS score
                FROM hits AS h CROSS JOIN stats AS s CROSS JOIN q
                CROSS JOIN LATERAL (
                    SELECT coalesce((h.frequencies ->> q.term)::float8, 0) AS tf
                ) AS f
                GROUP BY h.id
            ), ranked AS (
                -- one array overlap first: most hits hold none of the query's weighted runs
                SELECT sc.id, sc.score + CASE
                    WHEN h.pairs && (SELECT array_agg(qp.pair) FROM qp) THEN coalesce(
                        (SELECT sum(qp.weight) FROM qp WHERE qp.pair = ANY(h.pairs)), 0
                    )
                    ELSE 0
                END AS score
                FROM scored AS sc JOIN hits AS h ON h.id = sc.id
            )
            SELECT p.passage_id, v.doc_id, v.version, p.page, p.char_start, p.char_end, p.text,
                   p.label, v.title, v.authority, v.version_date, sc.score, p.context
            FROM ranked AS sc JOIN passages AS p ON p.id = sc.id
            JOIN versions AS v ON v.id = p.version_id
            ORDER BY sc.score DESC, p.passage_id, p.id
            LIMIT %(limit)s
        """
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
                version_date=row[10],
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
        document = self.document(doc_id, version, tenant)
        if document is None:
            return None
        with self._db() as db:
            row = db.execute(
                "SELECT pg.label, pg.text, pg.heading FROM pages AS pg "
                "JOIN versions AS v ON v.id = pg.version_id "
                "WHERE v.tenant = %s AND v.doc_id = %s AND v.version = %s AND pg.page = %s",
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
        found = self._versions("doc_id = %s AND version = %s", (doc_id, version), tenant)
        return found[0] if found else None

    def versions(self, doc_id: str, tenant: str | None = None) -> list[DocumentVersion]:
        """All versions of ``doc_id``, ordered by (effective_from, version)."""
        return self._versions("doc_id = %s", (doc_id,), tenant)

    def in_force(
        self, doc_id: str, as_of: dt.date, tenant: str | None = None
    ) -> DocumentVersion | None:
        """The version of ``doc_id`` in force on ``as_of`` (effective_to exclusive), or None."""
        found = self._versions(
            "doc_id = %s AND effective_from <= %s AND (effective_to IS NULL OR effective_to > %s)",
            (doc_id, as_of, as_of),
            tenant,
        )
        return found[0] if found else None

    def catalog(self, as_of: dt.date, tenant: str | None = None) -> list[DocumentVersion]:
        """Every document version in force on ``as_of``: what question analysis scopes over."""
        return self._versions(
            "effective_from <= %s AND (effective_to IS NULL OR effective_to > %s)",
            (as_of, as_of),
            tenant,
        )

    def document_frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many passages (of any version or tenant) contain each term, as BM25 sees it."""
        out: dict[str, int] = {}
        with self._db() as db:
            for term in dict.fromkeys(terms):
                stems = _query_terms(term)
                if len(set(stems)) == 1:
                    sql = "SELECT coalesce(max(passages), 0) FROM term_stats WHERE term = %s"
                    row = db.execute(sql, (stems[0],)).fetchone()
                elif stems:  # a word the tokenizer splits ("U.S.C."): passages with any part
                    sql = "SELECT count(*) FROM passages WHERE terms @@ %s::tsquery"
                    row = db.execute(sql, (_tsquery(stems),)).fetchone()
                else:
                    continue
                out[term] = int(row[0]) if row else 0
        return out

    def stats(self) -> dict[str, int]:
        """Counts of documents (distinct tenant + doc_id), versions, pages and passages."""
        with self._db() as db:
            row = db.execute(
                "SELECT (SELECT count(*) FROM (SELECT DISTINCT tenant, doc_id FROM versions) AS d),"
                " "
                "(SELECT count(*) FROM versions), (SELECT count(*) FROM pages), "
                "(SELECT count(*) FROM passages)"
            ).fetchone()
        assert row is not None
        return dict(zip(("documents", "versions", "pages", "passages"), map(int, row), strict=True))

    def refresh_index(self) -> int:
        """Nothing to bring up to date: Postgres ranks in SQL over its own GIN index, which every
        commit keeps current. Returns the number of passages searched (the SQLite store's
        counterpart returns the distinct contents of its derived index)."""
        return self.stats()["passages"]

    def integrity_problems(self) -> list[str]:
        """Everything wrong with the store's invariants; [] when sound (foreign keys and types
        are enforced by the server): page and passage counts of each version, each passage's
        text is its span of its page, each version's supersession, the corpus and term
        statistics."""
        checks = (
            (
                "page count of a version",
                "SELECT v.doc_id, v.version, v.pages, count(g.page) FROM versions AS v "
                "LEFT JOIN pages AS g ON g.version_id = v.id GROUP BY v.id "
                "HAVING v.pages != count(g.page) LIMIT 5",
            ),
            (
                "passage count of a version",
                "SELECT v.doc_id, v.version, v.passages, count(p.id) FROM versions AS v "
                "LEFT JOIN passages AS p ON p.version_id = v.id GROUP BY v.id "
                "HAVING v.passages != count(p.id) LIMIT 5",
            ),
            (
                "passage text is its span of the page",
                "SELECT p.passage_id FROM passages AS p JOIN pages AS g "
                "ON g.version_id = p.version_id AND g.page = p.page "
                "WHERE substr(g.text, p.char_start + 1, p.char_end - p.char_start) != p.text "
                "LIMIT 5",
            ),
            (
                "term statistics",
                "SELECT coalesce(s.term, c.term), s.passages, c.passages FROM term_stats AS s "
                "FULL JOIN (SELECT key AS term, count(*) AS passages FROM passages, "
                "jsonb_object_keys(frequencies) AS key GROUP BY key) AS c ON c.term = s.term "
                "WHERE s.passages IS DISTINCT FROM c.passages LIMIT 5",
            ),
            (
                "corpus statistics",
                "SELECT s.passages, s.tokens, c.passages, c.tokens FROM corpus_stats AS s, "
                "(SELECT count(*) AS passages, coalesce(sum(length), 0) AS tokens "
                "FROM passages) AS c WHERE (s.passages, s.tokens) != (c.passages, c.tokens)",
            ),
        )
        problems = []
        with self._db() as db:
            for name, sql in checks:
                rows = db.execute(sql).fetchall()
                if rows:
                    problems.append(f"{name}: {rows[:5]}")
            documents = db.execute("SELECT DISTINCT tenant, doc_id FROM versions").fetchall()
            for tenant, doc_id in documents:
                rows = _supersession_rows(db, tenant, doc_id)
                stored = {
                    row[0]: (row[1], row[2])
                    for row in db.execute(
                        "SELECT id, effective_to, superseded_by FROM versions "
                        "WHERE tenant = %s AND doc_id = %s",
                        (tenant, doc_id),
                    )
                }
                wrong = [u for u in supersession(rows) if stored[u[2]] != (u[0], u[1])]
                if wrong:
                    problems.append(f"supersession of {doc_id} (tenant {tenant}): {wrong[:5]}")
        return problems

    def _versions(
        self, condition: str, params: tuple[Any, ...], tenant: str | None
    ) -> list[DocumentVersion]:
        with self._db() as db:
            rows = db.execute(
                f"SELECT {_VERSION_COLUMNS} FROM versions WHERE tenant = %s AND {condition} "
                "ORDER BY effective_from, version",
                (tenant or DEFAULT_TENANT, *params),
            ).fetchall()
        return [_document_version(row) for row in rows]


# --------------------------------------------------------------------------- writing


class _Tokenised:
    """A prepared file with each passage's terms computed (before the write transaction)."""

    def __init__(self, prepared: PreparedFile) -> None:
        self.file = prepared
        self.rows: list[list[tuple[Any, ...]]] = []
        for version in prepared.versions:
            rows = []
            for pid, page, start, end, label, text, context in version.passages:
                terms = index_terms(text) + index_terms(context)
                counts = dict(Counter(terms))
                pairs = adjacent_runs(text, context)
                rows.append(
                    (pid, page, start, end, label, text, context, len(terms), counts, pairs)
                )
            self.rows.append(rows)


def _commit_file(
    db: psycopg.Connection[tuple[Any, ...]], item: _Tokenised
) -> list[IngestedVersion]:
    """Store a tokenised file's versions (or report a skipped file's stored versions) inside
    the caller's write transaction, recompute supersession and record the file's key."""
    prepared = item.file
    if prepared.skipped:
        rows = db.execute(
            f"SELECT {UNCHANGED_COLUMNS} FROM ingested_files AS f "
            "JOIN versions AS v ON v.id = f.version_id WHERE f.key = %s ORDER BY v.id",
            (prepared.key,),
        ).fetchall()
        return IngestedVersion.unchanged(prepared.path, rows)
    stored: list[IngestedVersion] = []
    version_ids: list[int] = []
    for version, rows in zip(prepared.versions, item.rows, strict=True):
        version_id, result = _store_version(db, version, rows)
        stored.append(result)
        version_ids.append(version_id)
    for tenant, doc_id in sorted({(v.tenant, v.doc_id) for v in stored if v.status == "added"}):
        rows_now = _supersession_rows(db, tenant, doc_id)
        with db.cursor() as cursor:
            cursor.executemany(
                "UPDATE versions SET effective_to = %s, superseded_by = %s WHERE id = %s",
                supersession(rows_now),
            )
    with db.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO ingested_files (key, version_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            [(prepared.key, version_id) for version_id in version_ids],
        )
    return stored


def _supersession_rows(
    db: psycopg.Connection[tuple[Any, ...]], tenant: str, doc_id: str
) -> list[tuple[int, str, dt.date, dt.date | None]]:
    return [
        (int(row[0]), str(row[1]), row[2], row[3])
        for row in db.execute(
            "SELECT id, version, effective_from, source_effective_to FROM versions "
            "WHERE tenant = %s AND doc_id = %s",
            (tenant, doc_id),
        )
    ]


def _store_version(
    db: psycopg.Connection[tuple[Any, ...]],
    prepared: PreparedVersion,
    passages: list[tuple[Any, ...]],
) -> tuple[int, IngestedVersion]:
    """Insert one version with its pages and passages (COPY), or confirm it is stored."""
    version = prepared.parsed
    meta = version.meta
    sha = prepared.sha256
    row = db.execute(
        "SELECT id, sha256, pages, passages, extractor FROM versions "
        "WHERE tenant = %s AND doc_id = %s AND version = %s",
        (meta.tenant, meta.doc_id, meta.version),
    ).fetchone()
    if row is not None:
        return int(row[0]), version_result(version, sha, row[1:], len(passages))
    values = version_values(version, sha, len(passages))
    inserted = db.execute(
        f"INSERT INTO versions ({VERSION_COLUMNS_INSERTED}) "
        f"VALUES ({', '.join(['%s'] * len(values))}) RETURNING id",
        values,
    ).fetchone()
    assert inserted is not None
    version_id = int(inserted[0])
    tokens = 0
    frequencies: Counter[str] = Counter()
    pair_counts: Counter[str] = Counter()
    with db.cursor() as cursor:
        with cursor.copy("COPY pages (version_id, page, label, heading, text) FROM STDIN") as copy:
            for number, page in enumerate(version.pages, 1):
                copy.write_row((version_id, number, page.label, page.heading, page.text))
        with cursor.copy(f"COPY passages ({_PASSAGE_COLUMNS}) FROM STDIN") as copy:
            for (
                pid,
                page_number,
                start,
                end,
                label,
                text,
                context,
                length,
                counts,
                pairs,
            ) in passages:
                tokens += length
                frequencies.update(counts.keys())
                pair_counts.update(pairs)
                vector, frequency = _tsvector(counts), json.dumps(counts, ensure_ascii=False)
                copy.write_row(
                    (
                        pid,
                        version_id,
                        page_number,
                        start,
                        end,
                        label,
                        text,
                        context,
                        length,
                        vector,
                        frequency,
                        _text_array(pairs),
                    )
                )
    db.execute(
        "UPDATE corpus_stats SET passages = passages + %s, tokens = tokens + %s",
        (len(passages), tokens),
    )
    db.execute(
        "INSERT INTO term_stats (term, passages) SELECT * FROM unnest(%s::text[], %s::bigint[]) "
        "ON CONFLICT (term) DO UPDATE SET passages = term_stats.passages + excluded.passages",
        (list(frequencies), list(frequencies.values())),
    )
    db.execute(
        "INSERT INTO pair_stats (pair, passages) SELECT * FROM unnest(%s::text[], %s::bigint[]) "
        "ON CONFLICT (pair) DO UPDATE SET passages = pair_stats.passages + excluded.passages",
        (_text_array(pair_counts), list(pair_counts.values())),
    )
    return version_id, version_result(version, sha, None, len(passages))


def _document_version(row: tuple[Any, ...]) -> DocumentVersion:
    return DocumentVersion(
        doc_id=row[0],
        version=row[1],
        version_date=row[2],
        effective_from=row[3],
        effective_to=row[4],
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
