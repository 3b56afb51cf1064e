"""The ranking index: BM25 over the store's distinct passage contents, filtered before the top k.

The store (:mod:`evidencegate.corpus.store`) is the source of truth; this index is derived from
it and can always be rebuilt. Its unit is a *content*: one distinct (passage text, context)
pair, indexed once however many versions repeat it. Each content keeps the list of passages
that use it (its *occurrences*) with their version, so a search masks versions first (tenant,
as-of interval, authority, doc_id) and only then takes the top k: the result is exactly the
exhaustive ranking of the passages that pass the filters.

Scoring is the BM25 of SQLite FTS5 (``k1=1.2``, ``b=0.75``, ``idf = ln((N - n + 0.5) /
(n + 0.5))``, at least 1e-6), over the passage text and its context (label, heading, document
title) as one field. N, n and the average length count passages (each content weighted by how
many passages use it), as FTS5 did over its rows: a content is scored once, with the score BM25
gives each of its passages. Terms are runs of
letters and digits, case-folded, accents removed and Porter-stemmed (:func:`analyze`), the same
function for the index and the query. Term frequencies and lengths are stored, not final
weights, so that statistics are always those of the whole store at query time.

Segments, as search engines keep them: the *main* segment is written to
``DIR/evidencegate.index.npz`` (numpy arrays, atomically replaced) and records the store's id
and the last content and passage row it covers. Contents and passages stored after it form the
*delta*, built in memory from the store when a search sees a new store generation; when the delta
grows past :data:`MERGE_FRACTION` of the main segment, the two are merged (the main segment is
rebuilt and saved). An index file that is missing, unreadable, of another format or of another
store is rebuilt, with a message and a progress bar on stderr; a search never answers from it
without the delta that brings it up to the store's current generation.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import itertools
import json
import math
import os
import re
import sqlite3
import tempfile
import time
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import numpy as np
import numpy.typing as npt
import snowballstemmer

from evidencegate._version import __version__
from evidencegate.corpus.query import STOPWORDS, query_terms
from evidencegate.hygiene import instruction_flags
from evidencegate.userio import ProgressBar

__all__ = [
    "IDF_FLOOR",
    "INDEX_FILENAME",
    "MERGE_FRACTION",
    "PAIR_WEIGHT",
    "Hit",
    "SearchIndex",
    "VersionInfo",
    "VersionTable",
    "analyze",
    "bm25_idf",
    "bm25_weight",
    "query_stems",
    "question_terms",
]

INDEX_FILENAME = "evidencegate.index.npz"
_FORMAT = 3
"""Version of the index file layout; another value is rebuilt (2: adjacent-pair postings;
3: adjacent-triple postings too)."""
K1 = 1.2
B = 0.75
MERGE_FRACTION = 0.125
"""The delta is merged into the main segment once it holds this fraction of the main segment's
contents or passages (and at least :data:`_MERGE_MIN` of them)."""
_MERGE_MIN = 2000
PAIR_WEIGHT = 0.5
"""What a pair (or triple) of adjacent query terms found adjacent in a passage adds to its
score, as a multiple of the pair's (triple's) idf (see :meth:`SearchIndex.phrase_scores`)."""
IDF_FLOOR = 1e-6
_BUILD_CHUNK = 5000
_FILTER_CACHE = 64
"""Distinct version masks whose content-row filter a search index keeps (see ``_filter``)."""
_NONE = -1
_TERM_CACHE = 1 << 16
_MASK_CACHE = 1024
_SEVERAL = -2
_OPEN_END = np.iinfo(np.int32).max

_TOKEN = re.compile(r"[^\W_]+")
_STEMMER = snowballstemmer.stemmer("porter")
_STEMS: dict[str, str] = {}

IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
Positions = npt.NDArray[np.signedinteger[Any]]


# --------------------------------------------------------------------------- analysis


def analyze(text: str) -> list[str]:
    """The index terms of ``text`` in order: letter/digit runs, case-folded, accents removed,
    Porter-stemmed (like FTS5's ``porter unicode61`` tokenizer). Stopwords are kept (they count
    in a passage's length); queries drop them before (:func:`query_stems`)."""
    folded = text.casefold()
    if not folded.isascii():
        folded = "".join(
            ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch)
        )
    stems = _STEMS
    out = []
    for token in _TOKEN.findall(folded):
        stem = stems.get(token)
        if stem is None:
            stem = stems[token] = _STEMMER.stemWord(token) if len(token) > 2 else token
        out.append(stem)
    return out


def query_stems(question: str) -> list[str]:
    """The stems a question searches for: its content terms (:func:`query_terms`, stopwords
    dropped), each analysed. Two words with one stem count twice, as two FTS5 phrases did."""
    return list(_query_stems(question))


@lru_cache(maxsize=8192)  # pure; the feedback terms of a corpus recur in every search
def _query_stems(question: str) -> tuple[str, ...]:
    stems = _STEMS
    out = []
    for term in query_terms(question):
        # an ASCII term (a run of letters and digits, case-folded) is one token: its stem
        stem = stems.get(term) if term.isascii() else None
        if stem is None:
            out.extend(analyze(term))
        else:
            out.append(stem)
    return tuple(out)


def question_terms(question: str) -> tuple[list[str], list[str]]:
    """What a search asks for: :func:`query_stems` of ``question`` (what BM25 scores) and
    :func:`analyze` of it (every term in order: what the phrase bonus pairs), from one pass
    over an ASCII question."""
    stems, words = _question_terms(question)
    return list(stems), list(words)


@lru_cache(maxsize=1024)  # pure; a question's queries are searched again on each pass
def _question_terms(question: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not question.isascii():
        return _query_stems(question), tuple(analyze(question))
    stems = _STEMS
    words = []
    content: dict[str, str] = {}
    for token in _TOKEN.findall(question.casefold()):
        stem = stems.get(token)
        if stem is None:
            stem = stems[token] = _STEMMER.stemWord(token) if len(token) > 2 else token
        words.append(stem)
        if token not in STOPWORDS:
            content.setdefault(token, stem)
    return tuple(content.values()), tuple(words)


def bm25_idf(rows: float, df: float) -> float:
    """FTS5's BM25 idf of a term found in ``df`` of ``rows`` contents (never below 1e-6)."""
    idf = math.log((rows - df + 0.5) / (df + 0.5))
    return idf if idf > 0 else IDF_FLOOR


def bm25_weight(idf: float, tf: float, length: float, average: float) -> float:
    """One term's BM25 contribution to a content (the formula the index vectorises)."""
    return idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1.0 - B + B * length / average)))


# --------------------------------------------------------------------------- versions


class VersionInfo(NamedTuple):
    """What a search result says of its version (immutable once the version is stored)."""

    doc_id: str
    version: str
    title: str
    authority: str
    version_date: dt.date


@dataclass(frozen=True, slots=True)
class VersionTable:
    """Every stored version's filter fields as arrays indexed by version row id, and what a
    search result shows of each version (``info``, by version row id)."""

    tenant: Int32Array
    doc: Int32Array
    authority: Int32Array
    start: Int32Array
    end: Int32Array
    tenants: dict[str, int]
    docs: dict[str, int]
    info: dict[int, VersionInfo]
    masks: dict[tuple[Any, ...], BoolArray] = field(default_factory=dict, compare=False)
    """Masks already computed, by filter (at most :data:`_MASK_CACHE`; read-only arrays)."""

    @classmethod
    def load(cls, db: sqlite3.Connection) -> VersionTable:
        rows = db.execute(
            "SELECT id, tenant, doc_id, authority, effective_from, effective_to, version, title, "
            "version_date FROM versions"
        ).fetchall()
        size = max((row[0] for row in rows), default=0) + 1
        tenant = np.full(size, -1, dtype=np.int32)
        doc = np.full(size, -1, dtype=np.int32)
        authority = np.full(size, -1, dtype=np.int32)
        start = np.full(size, _OPEN_END, dtype=np.int32)
        end = np.zeros(size, dtype=np.int32)
        tenants: dict[str, int] = {}
        docs: dict[str, int] = {}
        info: dict[int, VersionInfo] = {}
        for vid, ten, doc_id, auth, begin, until, version, title, day in rows:
            info[vid] = VersionInfo(doc_id, version, title, auth, dt.date.fromisoformat(day))
            tenant[vid] = tenants.setdefault(ten, len(tenants))
            doc[vid] = docs.setdefault(doc_id, len(docs))
            authority[vid] = 0 if auth == "primary" else 1
            start[vid] = dt.date.fromisoformat(begin).toordinal()
            end[vid] = dt.date.fromisoformat(until).toordinal() if until else _OPEN_END
        return cls(tenant, doc, authority, start, end, tenants, docs, info)

    def mask(
        self,
        tenant: str,
        as_of: dt.date,
        authorities: Sequence[str] | None,
        doc_ids: Sequence[str] | None,
    ) -> BoolArray:
        """Which versions pass the filters: tenant, ``start <= as_of < end``, authority, doc.
        The array is read-only and shared by searches with the same filters."""
        key = (
            tenant,
            as_of.toordinal(),
            None if authorities is None else tuple(authorities),
            None if doc_ids is None else tuple(doc_ids),
        )
        keep = self.masks.get(key)
        if keep is None:
            keep = self._mask(tenant, as_of, authorities, doc_ids)
            keep.flags.writeable = False
            if len(self.masks) >= _MASK_CACHE:
                del self.masks[next(iter(self.masks))]
            self.masks[key] = keep
        return keep

    def _mask(
        self,
        tenant: str,
        as_of: dt.date,
        authorities: Sequence[str] | None,
        doc_ids: Sequence[str] | None,
    ) -> BoolArray:
        code = self.tenants.get(tenant)
        if code is None:
            return np.zeros(len(self.tenant), dtype=bool)
        day = as_of.toordinal()
        keep: BoolArray = (self.tenant == code) & (self.start <= day) & (day < self.end)
        if authorities is not None:
            wanted = [0 if a == "primary" else 1 for a in authorities]
            keep &= np.isin(self.authority, wanted)
        if doc_ids is not None:
            codes = [self.docs[d] for d in doc_ids if d in self.docs]
            keep &= np.isin(self.doc, codes)
        return keep


# --------------------------------------------------------------------------- segments


@dataclass(frozen=True, slots=True)
class _Segment:
    """Postings (CSR by term) of a run of contents, and the passages that use each content."""

    terms: dict[str, int]
    indptr: IntArray
    docs: Int32Array
    tfs: npt.NDArray[np.uint16]
    lengths: Int32Array
    contents: IntArray
    """SQLite ``contents.id`` of each row (ascending)."""
    pair_keys: IntArray
    """Every pair of terms found adjacent (in this order, inside the text or inside the
    context) in some row, as ``first * len(terms) + second`` (ascending)..."""
    pair_indptr: IntArray
    pair_docs: Int32Array
    """...and the rows holding each: ``pair_docs[pair_indptr[i]:pair_indptr[i + 1]]``."""
    triple_keys: IntArray
    """Every run of three adjacent terms in some row (same bounds as pairs), as ``i *
    len(terms) + third`` where ``i`` is the position of its first two terms' pair in
    ``pair_keys`` (ascending)..."""
    triple_indptr: IntArray
    triple_docs: Int32Array
    """...and the rows holding each, as for pairs."""
    flags: npt.NDArray[np.int32]
    """Each row's instruction flags (:func:`instruction_flags` of its text), as a number in
    the index's table of flag lists: computed once per distinct text, not per search."""


@dataclass(frozen=True, slots=True)
class _Occurrences:
    """Passages by content row: ``passage[ptr[r]:ptr[r + 1]]`` use row ``r``."""

    ptr: IntArray
    passage: IntArray
    version: Int32Array


@dataclass(frozen=True, slots=True)
class _Term:
    """A query stem's idf and its postings (content rows, BM25 weights: the idf times each
    row's term-frequency part) in the main segment and the delta."""

    idf: float
    postings: tuple[tuple[npt.NDArray[np.intp], FloatArray], ...]


@dataclass(frozen=True, slots=True)
class Hit:
    """A passage row that passed the filters, with its content's BM25 score and the
    instruction flags of its text."""

    passage: int
    score: float
    flags: tuple[str, ...]


def _build_segment(
    rows: Iterable[tuple[int, str, str]],
    flag_sets: dict[tuple[str, ...], int],
    progress: Callable[[int], None] | None = None,
) -> _Segment:
    """Analyse contents ``(id, text, context)`` (ascending id) into a segment; new flag lists
    are added to ``flag_sets``."""
    terms: dict[str, int] = {}
    tokens = array("i")
    lengths = array("i")
    text_lengths = array("i")
    contents = array("q")
    flags = array("i")
    done = 0
    for cid, text, context in rows:
        stems = analyze(text)
        text_lengths.append(len(stems))
        stems.extend(analyze(context))
        tokens.extend([terms.setdefault(s, len(terms)) for s in stems])
        lengths.append(len(stems))
        contents.append(cid)
        flags.append(flag_sets.setdefault(tuple(instruction_flags(text)), len(flag_sets)))
        done += 1
        if progress is not None and done % _BUILD_CHUNK == 0:
            progress(done)
    if progress is not None:
        progress(done)
    n = len(contents)
    length_array = np.frombuffer(lengths, dtype=np.int32).copy()
    term_ids = np.frombuffer(tokens, dtype=np.int32).astype(np.int64)
    doc_ids = np.repeat(np.arange(n, dtype=np.int64), length_array)
    keys, counts = np.unique(term_ids * max(n, 1) + doc_ids, return_counts=True)
    posting_terms = keys // max(n, 1)
    indptr = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(np.bincount(posting_terms, minlength=len(terms)), out=indptr[1:])
    pair_keys, pair_indptr, pair_docs, triple_keys, triple_indptr, triple_docs = _gram_postings(
        term_ids, doc_ids, length_array, np.frombuffer(text_lengths, dtype=np.int32), len(terms)
    )
    return _Segment(
        terms=terms,
        indptr=indptr,
        docs=(keys % max(n, 1)).astype(np.int32),
        tfs=np.minimum(counts, np.iinfo(np.uint16).max).astype(np.uint16),
        lengths=length_array,
        pair_keys=pair_keys,
        pair_indptr=pair_indptr,
        pair_docs=pair_docs,
        triple_keys=triple_keys,
        triple_indptr=triple_indptr,
        triple_docs=triple_docs,
        contents=np.frombuffer(contents, dtype=np.int64).copy(),
        flags=np.frombuffer(flags, dtype=np.int32).copy(),
    )


def _gram_postings(
    term_ids: IntArray, doc_ids: IntArray, lengths: Int32Array, text_lengths: Int32Array, width: int
) -> tuple[IntArray, IntArray, Int32Array, IntArray, IntArray, Int32Array]:
    """The adjacent-pair and adjacent-triple postings of a segment's rows (``term_ids`` in
    order, row by row, each row's text terms then its context terms): keys, indptr and rows
    of each (see :class:`_Segment`). Neither spans two rows nor the text's end and the
    context's start."""
    n = len(lengths)
    if len(term_ids) < 2:
        empty = (np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(0, np.int32))
        return (*empty, *empty)
    starts = np.cumsum(lengths, dtype=np.int64) - lengths
    position = np.arange(len(term_ids), dtype=np.int64) - np.repeat(starts, lengths)
    first_length = np.repeat(text_lengths.astype(np.int64), lengths)[:-1]
    own = doc_ids[:-1]
    # valid[i]: terms i and i + 1 are adjacent in one piece of one row
    valid = (own == doc_ids[1:]) & (position[:-1] != first_length - 1)
    codes = term_ids[:-1] * width + term_ids[1:]
    rows = max(n, 1)
    pair_keys, pair_indptr, pair_docs = _postings(codes[valid], own[valid], rows)
    # a triple starts at i when the pairs at i and i + 1 are both valid; it is keyed by the
    # position of its first pair among the pair keys, then its third term
    both = valid[:-1] & valid[1:]
    first_pair = np.searchsorted(pair_keys, codes[:-1][both])
    triple_codes = first_pair * width + term_ids[2:][both]
    triples = _postings(triple_codes, own[:-1][both], rows)
    return pair_keys, pair_indptr, pair_docs, *triples


def _postings(codes: IntArray, own: IntArray, rows: int) -> tuple[IntArray, IntArray, Int32Array]:
    """Postings of n-grams: each distinct code in ``codes`` (ascending), the start of its rows
    in the third array, and the distinct rows (``own``, each below ``rows``) holding it."""
    if not len(codes):
        return np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(0, np.int32)
    if (int(codes.max()) + 1) * rows < 2**62:  # one sort of (code, row) keys
        postings = _distinct(codes * rows + own)
        codes = postings // rows
        new = np.ones(len(codes), dtype=bool)
        new[1:] = codes[1:] != codes[:-1]
        keys = codes[new]
        gram_ids = np.cumsum(new) - 1
    else:  # codes too wide for that: number the distinct ones first
        keys, inverse = np.unique(codes, return_inverse=True)
        postings = _distinct(inverse.astype(np.int64) * rows + own)
        gram_ids = postings // rows
    indptr = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(np.bincount(gram_ids, minlength=len(keys)), out=indptr[1:])
    return keys, indptr, (postings % rows).astype(np.int32)


def _distinct(values: IntArray) -> IntArray:
    """The distinct ``values``, ascending: one sort (numpy 2.4's ``unique`` of an int64 array
    takes 20-40 times as long as ``sort``)."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    out: IntArray = ordered[keep]
    return out


def _occurrences(
    rows: Sequence[tuple[int, int, int]], contents: IntArray
) -> tuple[IntArray, IntArray, Int32Array]:
    """Passages ``(id, content_id, version_id)`` as (content row, passage, version) arrays,
    sorted by content row then passage; ``contents`` maps rows to content ids (ascending)."""
    if not rows:
        return (
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int32),
        )
    table = np.array(rows, dtype=np.int64)
    row = np.searchsorted(contents, table[:, 1])
    order = np.lexsort((table[:, 0], row))
    return row[order], table[order, 0], table[order, 2].astype(np.int32)


# --------------------------------------------------------------------------- the index


class SearchIndex:
    """The main segment (loaded from or saved to disk) plus the delta of newer store rows."""

    def __init__(
        self,
        main: _Segment,
        occurrences: _Occurrences,
        *,
        store_id: str,
        last_content: int,
        last_passage: int,
        flag_sets: dict[tuple[str, ...], int],
    ) -> None:
        self.flag_sets = flag_sets
        self._flag_lists = list(flag_sets)
        self.main = main
        self.occurrences = occurrences
        self.store_id = store_id
        self.last_content = last_content
        self.last_passage = last_passage
        self.delta = _build_segment((), flag_sets)
        self.generation: int | None = None
        self.versions: VersionTable | None = None
        self._row_flags = main.flags
        self._delta_rows = np.zeros(0, dtype=np.int64)
        self._delta_passages = np.zeros(0, dtype=np.int64)
        self._delta_versions = np.zeros(0, dtype=np.int32)
        self._filters: dict[bytes, tuple[Positions, BoolArray]] = {}
        self._terms: dict[str, _Term] = {}
        self._grams: dict[tuple[str, ...], tuple[tuple[npt.NDArray[np.intp], FloatArray], ...]] = {}
        self._position_type = np.int32 if len(occurrences.passage) < 2**31 else np.int64
        self._occurrence_rows = np.repeat(
            np.arange(len(main.contents), dtype=np.intp), np.diff(occurrences.ptr)
        )
        self._statistics()

    # ------------------------------------------------------------------- build, save, load

    @classmethod
    def build(
        cls, db: sqlite3.Connection, store_id: str, *, stream: TextIO | None = None
    ) -> SearchIndex:
        """Index every content and passage of the store (one read transaction)."""
        db.execute("BEGIN")
        try:
            last_content = db.execute("SELECT coalesce(max(id), 0) FROM contents").fetchone()[0]
            last_passage = db.execute("SELECT coalesce(max(id), 0) FROM passages").fetchone()[0]
            started = time.perf_counter()
            bar = ProgressBar(last_content, stream=stream or io.StringIO(), unit="contents indexed")
            flag_sets: dict[tuple[str, ...], int] = {(): 0}
            main = _build_segment(_content_rows(db, 0, last_content), flag_sets, bar.advance_to)
            occ = db.execute(
                "SELECT id, content_id, version_id FROM passages WHERE id <= ?", (last_passage,)
            ).fetchall()
        finally:
            db.execute("COMMIT")
        rows, passages, versions = _occurrences(occ, main.contents)
        ptr = np.zeros(len(main.contents) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=len(main.contents)), out=ptr[1:])
        if stream is not None:
            seconds = time.perf_counter() - started
            stream.write(f"index: {last_content} distinct passage contents in {seconds:.1f} s\n")
            stream.flush()
        return cls(
            main,
            _Occurrences(ptr, passages, versions),
            store_id=store_id,
            last_content=last_content,
            last_passage=last_passage,
            flag_sets=flag_sets,
        )

    def save(self, path: Path) -> None:
        """Write the main segment to ``path`` atomically (a temporary file, then a rename)."""
        meta = {
            "format": _FORMAT,
            "built_by": __version__,
            "flag_sets": [list(flags) for flags in self.flag_sets],
            "store_id": self.store_id,
            "last_content": self.last_content,
            "last_passage": self.last_passage,
        }
        words = "\n".join(sorted(self.main.terms, key=self.main.terms.__getitem__))
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez(
                    out,
                    meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
                    terms=np.frombuffer(words.encode(), dtype=np.uint8),
                    indptr=self.main.indptr,
                    docs=self.main.docs,
                    tfs=self.main.tfs,
                    lengths=self.main.lengths,
                    pair_keys=self.main.pair_keys,
                    pair_indptr=self.main.pair_indptr,
                    pair_docs=self.main.pair_docs,
                    triple_keys=self.main.triple_keys,
                    triple_indptr=self.main.triple_indptr,
                    triple_docs=self.main.triple_docs,
                    contents=self.main.contents,
                    flags=self.main.flags,
                    occ_ptr=self.occurrences.ptr,
                    occ_passage=self.occurrences.passage,
                    occ_version=self.occurrences.version,
                )
            os.replace(name, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name)
            raise

    @classmethod
    def load(cls, path: Path) -> tuple[SearchIndex | None, str]:
        """The index saved at ``path``, or None and why it cannot be used."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                if meta.get("format") != _FORMAT or meta.get("built_by") != __version__:
                    return None, (
                        f"index format {meta.get('format')} by evidencegate "
                        f"{meta.get('built_by')} (this is format {_FORMAT}, {__version__})"
                    )
                flag_sets = {tuple(flags): i for i, flags in enumerate(meta["flag_sets"])}
                text = bytes(data["terms"]).decode()
                terms = {word: i for i, word in enumerate(text.split("\n"))} if text else {}
                main = _Segment(
                    terms=terms,
                    indptr=data["indptr"],
                    docs=data["docs"],
                    tfs=data["tfs"],
                    lengths=data["lengths"],
                    pair_keys=data["pair_keys"],
                    pair_indptr=data["pair_indptr"],
                    pair_docs=data["pair_docs"],
                    triple_keys=data["triple_keys"],
                    triple_indptr=data["triple_indptr"],
                    triple_docs=data["triple_docs"],
                    contents=data["contents"],
                    flags=data["flags"],
                )
                occurrences = _Occurrences(
                    data["occ_ptr"], data["occ_passage"], data["occ_version"]
                )
            index = cls(
                main,
                occurrences,
                store_id=str(meta["store_id"]),
                last_content=int(meta["last_content"]),
                last_passage=int(meta["last_passage"]),
                flag_sets=flag_sets,
            )
        except FileNotFoundError:
            return None, "no index yet"
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            return None, f"unreadable index ({type(exc).__name__}: {exc})"
        if (
            len(terms) + 1 != len(main.indptr)
            or len(occurrences.ptr) != len(main.contents) + 1
            or len(main.pair_keys) + 1 != len(main.pair_indptr)
            or len(main.triple_keys) + 1 != len(main.triple_indptr)
        ):
            return None, "inconsistent index arrays"
        return index, ""

    def mismatch(self, db: sqlite3.Connection, store_id: str) -> str | None:
        """Why this index does not describe the store's first rows, or None when it does."""
        if self.store_id != store_id:
            return "it was built for another store"
        contents, passages = db.execute(
            "SELECT (SELECT count(*) FROM contents WHERE id <= ?), "
            "(SELECT count(*) FROM passages WHERE id <= ?)",
            (self.last_content, self.last_passage),
        ).fetchone()
        if contents != len(self.main.contents) or passages != len(self.occurrences.passage):
            return "its contents and passages differ from the store's"
        return None

    # ------------------------------------------------------------------- delta

    def refresh(self, db: sqlite3.Connection, generation: int) -> None:
        """Bring versions and the delta up to the store's ``generation`` (one read snapshot)."""
        db.execute("BEGIN")
        try:
            self.versions = VersionTable.load(db)
            self.delta = _build_segment(_content_rows(db, self.last_content, None), self.flag_sets)
            occ = db.execute(
                "SELECT id, content_id, version_id FROM passages WHERE id > ?",
                (self.last_passage,),
            ).fetchall()
        finally:
            db.execute("COMMIT")
        self._flag_lists = list(self.flag_sets)
        self._row_flags = np.concatenate([self.main.flags, self.delta.flags])
        all_contents = np.concatenate([self.main.contents, self.delta.contents])
        rows, passages, versions = _occurrences(occ, all_contents)
        self._delta_rows, self._delta_passages, self._delta_versions = rows, passages, versions
        self._filters = {}
        self._terms = {}
        self._grams = {}
        self._statistics()
        self.generation = generation

    def needs_merge(self) -> bool:
        """Whether the delta has grown enough to be merged into the main segment."""
        contents = len(self.delta.contents)
        passages = len(self._delta_passages)
        return max(contents, passages) >= max(
            _MERGE_MIN,
            MERGE_FRACTION * min(len(self.main.contents), len(self.occurrences.passage)),
        )

    @property
    def rows(self) -> int:
        return len(self.main.contents) + len(self.delta.contents)

    def df(self, stem: str) -> int:
        """How many passages (main and delta, any version or tenant) contain ``stem``."""
        df = 0.0
        tid = self.main.terms.get(stem)
        if tid is not None:
            df += self._main_df[tid]
        tid = self.delta.terms.get(stem)
        if tid is not None:
            lo, hi = self.delta.indptr[tid], self.delta.indptr[tid + 1]
            df += float(self._mult[self.delta.docs[lo:hi] + len(self.main.contents)].sum())
        return int(df)

    def _statistics(self) -> None:
        """Passages per content row (its multiplicity) and the totals BM25 counts passages by:
        scores are those of BM25 over every stored passage, computed once per distinct one."""
        n_main = len(self.main.contents)
        mult = np.zeros(self.rows, dtype=np.float64)
        mult[:n_main] = np.diff(self.occurrences.ptr)
        mult += np.bincount(self._delta_rows, minlength=self.rows)
        self._mult = mult
        self._lengths = np.concatenate([self.main.lengths, self.delta.lengths]).astype(np.float64)
        self._passages_total = float(mult.sum())
        self._length_total = float(mult @ self._lengths)
        # Each posting's BM25 term-frequency part at the current average length (its idf is
        # applied per query), in the formula's own order of operations, so that scores are
        # bit for bit bm25_weight's.
        average = self._length_total / self._passages_total if self._length_total else 1.0
        self._main_docs = self.main.docs.astype(np.intp)
        self._delta_docs = self.delta.docs.astype(np.intp) + n_main
        self._main_weights = _tf_part(self.main.tfs, self._lengths[self._main_docs], average)
        self._delta_weights = _tf_part(self.delta.tfs, self._lengths[self._delta_docs], average)
        indptr = self.main.indptr
        self._main_df = np.zeros(len(indptr) - 1)
        if len(self.main.docs):  # passages per term: the multiplicities summed over postings
            nonempty = indptr[:-1] < indptr[1:]
            self._main_df[nonempty] = np.add.reduceat(mult[self.main.docs], indptr[:-1][nonempty])

    # ------------------------------------------------------------------- search

    def scores(self, stems: Sequence[str]) -> FloatArray:
        """BM25 score of every content row (main rows, then delta rows) for ``stems``.

        The postings of every stem go through one ``bincount``: it adds each row's weights in
        the order given (stem by stem, as the query lists them), so a score is the same sum,
        bit for bit, as adding the stems' contributions one after the other."""
        total = self.rows
        if total == 0 or self._passages_total == 0:
            return np.zeros(total)
        rows: list[npt.NDArray[np.intp]] = []
        weights: list[FloatArray] = []
        for stem in stems:
            term = self._term(stem)
            for docs, weighted in term.postings:
                rows.append(docs)
                weights.append(weighted)
        if not rows:
            return np.zeros(total)
        if len(rows) == 1:
            scores = np.bincount(rows[0], weights[0], minlength=total)
        else:
            scores = np.bincount(np.concatenate(rows), np.concatenate(weights), minlength=total)
        return scores.astype(np.float64, copy=False)

    def _term(self, stem: str) -> _Term:
        """``stem``'s idf and weighted postings at the current generation (kept until the
        next :meth:`refresh`; at most :data:`_TERM_CACHE` stems), so that a search multiplies
        nothing."""
        term = self._terms.get(stem)
        if term is None:
            idf = bm25_idf(self._passages_total, self.df(stem))
            postings = []
            for segment, docs, parts in (
                (self.main, self._main_docs, self._main_weights),
                (self.delta, self._delta_docs, self._delta_weights),
            ):
                tid = segment.terms.get(stem)
                if tid is not None:
                    lo, hi = segment.indptr[tid], segment.indptr[tid + 1]
                    postings.append((docs[lo:hi], idf * parts[lo:hi]))
            term = _Term(idf, tuple(postings))
            if len(self._terms) >= _TERM_CACHE:
                self._terms.clear()
            self._terms[stem] = term
        return term

    def phrase_scores(self, words: Sequence[str]) -> FloatArray | None:
        """Each content row's phrase bonus for the question's terms ``words`` in order
        (stopwords included: :func:`analyze`): for each distinct pair, and each distinct
        triple, of adjacent query terms found adjacent in the row, in the same order,
        :data:`PAIR_WEIGHT` times that pair's (triple's) own idf (passages holding it, counted
        as BM25 counts a term's), once however often it occurs. A row gains most from the
        pairs and triples few other passages have, and from many of them: a passage that holds
        the question's words as it words them, in one run rather than pair by pair in several
        places. None when no pair of the question is in the index."""
        rows: list[npt.NDArray[np.intp]] = []
        parts: list[FloatArray] = []
        grams: Iterable[tuple[str, ...]] = itertools.chain(
            dict.fromkeys(itertools.pairwise(words)),
            dict.fromkeys(zip(words, words[1:], words[2:], strict=False)),
        )
        for gram in grams:
            for docs, weights in self._gram(gram):
                rows.append(docs)
                parts.append(weights)
        if not rows:
            return None
        bonus = np.bincount(np.concatenate(rows), np.concatenate(parts), minlength=self.rows)
        return bonus.astype(np.float64, copy=False)

    def _gram(self, gram: tuple[str, ...]) -> tuple[tuple[npt.NDArray[np.intp], FloatArray], ...]:
        """The rows (main, then delta) where ``gram`` (two or three terms) is adjacent, each
        with its weight (none when its idf is at its floor); kept until :meth:`refresh`."""
        found = self._grams.get(gram)
        if found is None:
            rows = []
            df = 0.0
            for segment, offset in ((self.main, 0), (self.delta, len(self.main.contents))):
                located = _locate(segment, gram)
                if located is not None:
                    docs = located.astype(np.intp) + offset
                    df += float(self._mult[docs].sum())
                    rows.append(docs)
            idf = bm25_idf(self._passages_total, df) if rows else 0.0
            found = (
                tuple((docs, np.full(len(docs), PAIR_WEIGHT * idf)) for docs in rows)
                if idf > IDF_FLOOR
                else ()
            )
            if len(self._grams) >= _TERM_CACHE:
                self._grams.clear()
            self._grams[gram] = found
        return found

    def top(
        self,
        stems: Sequence[str],
        allowed: BoolArray,
        limit: int,
        words: Sequence[str] = (),
    ) -> list[Hit]:
        """The best passages whose version is ``allowed``: at least ``limit`` of them when that
        many match, plus every passage tied with the last one (the caller orders ties).

        A passage's score is its content's BM25 score for ``stems`` plus, when ``words`` (the
        question's terms in order) are given, its phrase bonus (:meth:`phrase_scores`); only
        passages with a BM25 score match.

        Only content rows with an allowed passage compete (:meth:`_filter`); each has at least
        one, so the passages of the best ``limit`` such rows (and of every row tied with the
        last of them) hold every passage of the exhaustive filtered top ``limit``.
        """
        passages, scores, flags = self.ranked(stems, allowed, limit, words)
        return [Hit(p, s, f) for p, s, f in zip(passages, scores, flags, strict=True)]

    def ranked(
        self,
        stems: Sequence[str],
        allowed: BoolArray,
        limit: int,
        words: Sequence[str] = (),
    ) -> tuple[list[int], list[float], list[tuple[str, ...]]]:
        """:meth:`top` as three lists (passage rows, scores, flag lists), best first: what
        :meth:`evidencegate.corpus.store.Store.search` reads, without a Hit per passage."""
        scores = self.scores(stems)
        pick, live = self._filter(allowed)
        matched = scores > 0
        matched &= live
        rows = np.flatnonzero(matched)
        if len(rows) == 0:
            return [], [], []
        if len(words) > 1:
            bonus = self.phrase_scores(words)
            if bonus is not None:  # every row at once: only matched rows are read below
                scores += bonus
        hit_scores = scores[rows]
        if len(rows) > limit:
            keep = hit_scores >= _kth_largest(hit_scores, limit)
            rows, hit_scores = rows[keep], hit_scores[keep]
        where = pick[rows]
        if where.min() >= 0:  # each row has exactly one allowed passage: the usual case
            passages = self.occurrences.passage[where]
        else:
            passages, owners = self._allowed(rows, allowed)
            rows, hit_scores = rows[owners], hit_scores[owners]  # each passage's content row
        order = np.argsort(-hit_scores, kind="stable")
        if len(order) > limit:  # keep every passage tied with the last one kept
            order = order[hit_scores[order] >= hit_scores[order[limit - 1]]]
        lists = self._flag_lists
        return (
            passages[order].tolist(),
            hit_scores[order].tolist(),
            [lists[c] for c in self._row_flags[rows[order]].tolist()],
        )

    def _filter(self, allowed: BoolArray) -> tuple[Positions, BoolArray]:
        """For the versions ``allowed``: each content row's only allowed passage (its position
        in the main segment's occurrences), ``_SEVERAL`` when it has more than one or one in
        the delta, ``_NONE`` when it has none; and which rows have one (``live``).

        Kept per distinct ``allowed`` (at most :data:`_FILTER_CACHE` of them, the oldest
        dropped first) until the next :meth:`refresh`: the versions in force change only at
        version boundaries, so the as-of dates of many searches share a few masks.
        """
        key = allowed.tobytes()
        cached = self._filters.get(key)
        if cached is None:
            pick: Positions
            occ = self.occurrences
            positions = np.flatnonzero(allowed[occ.version]).astype(self._position_type)
            rows = self._occurrence_rows[positions]
            pick = np.full(self.rows, _NONE, dtype=self._position_type)
            pick[rows] = positions
            pick[np.bincount(rows, minlength=self.rows) > 1] = _SEVERAL
            pick[self._delta_rows[allowed[self._delta_versions]]] = _SEVERAL
            cached = (pick, pick != _NONE)
            if len(self._filters) >= _FILTER_CACHE:
                del self._filters[next(iter(self._filters))]
            self._filters[key] = cached
        return cached

    def _allowed(self, rows: IntArray, allowed: BoolArray) -> tuple[IntArray, IntArray]:
        """The allowed passages of content ``rows`` (main or delta), and for each the position
        in ``rows`` of its content."""
        occ = self.occurrences
        n_main = len(self.main.contents)
        main = rows < n_main
        main_rows = rows[main]
        starts = occ.ptr[main_rows]
        counts = occ.ptr[main_rows + 1] - starts
        owner = np.repeat(np.flatnonzero(main), counts)
        positions = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(
            int(counts.sum())
        )
        passages = occ.passage[positions]
        keep = allowed[occ.version[positions]]
        found_passages = [passages[keep]]
        found_owner = [owner[keep]]
        if len(self._delta_rows):
            picked = np.isin(self._delta_rows, rows)
            if picked.any():
                where = np.argsort(rows)
                place = where[np.searchsorted(rows, self._delta_rows[picked], sorter=where)]
                ok = allowed[self._delta_versions[picked]]
                found_passages.append(self._delta_passages[picked][ok])
                found_owner.append(place[ok])
        return np.concatenate(found_passages), np.concatenate(found_owner)


def _locate(segment: _Segment, gram: tuple[str, ...]) -> Int32Array | None:
    """The rows of ``segment`` holding ``gram`` (two or three terms) adjacent, or None."""
    ids = []
    for term in gram:
        tid = segment.terms.get(term)
        if tid is None:
            return None
        ids.append(tid)
    width = len(segment.terms)
    key = ids[0] * width + ids[1]
    at = int(np.searchsorted(segment.pair_keys, key))
    if at == len(segment.pair_keys) or segment.pair_keys[at] != key:
        return None
    if len(gram) == 2:
        return segment.pair_docs[segment.pair_indptr[at] : segment.pair_indptr[at + 1]]
    key = at * width + ids[2]
    at = int(np.searchsorted(segment.triple_keys, key))
    if at == len(segment.triple_keys) or segment.triple_keys[at] != key:
        return None
    return segment.triple_docs[segment.triple_indptr[at] : segment.triple_indptr[at + 1]]


def _kth_largest(values: FloatArray, k: int) -> float:
    """The k-th largest of ``values`` (1 <= k <= len). A strided sample (about 1024 values,
    128 below 4096) gives a threshold that about 2k values pass; only those are partitioned
    (numpy's partition of 100k+ values, many of them tied, costs milliseconds, and of a few
    thousand several times a partition of the sample and of what passes). Falls back to the
    whole array."""
    n = len(values)
    if n > 16 * k:
        sample = values[:: n // 1024 if n > 4096 else max(1, n // 128)]
        take = min(len(sample), 2 + 2 * k * len(sample) // n)
        estimate = np.partition(sample, len(sample) - take)[len(sample) - take]
        above = values[values >= estimate]
        if len(above) >= k:
            values = above
            n = len(above)
    return float(np.partition(values, n - k)[n - k])


def _tf_part(tfs: npt.NDArray[np.uint16], lengths: FloatArray, average: float) -> FloatArray:
    tf = tfs.astype(np.float64)
    part: FloatArray = (tf * (K1 + 1.0)) / (tf + K1 * (1.0 - B + B * lengths / average))
    return part


def _content_rows(
    db: sqlite3.Connection, after: int, upto: int | None
) -> Iterable[tuple[int, str, str]]:
    sql = (
        "SELECT c.id, t.text, x.text FROM contents AS c JOIN texts AS t ON t.id = c.text_id "
        "JOIN texts AS x ON x.id = c.context_id WHERE c.id > ?"
    )
    params: tuple[Any, ...] = (after,)
    if upto is not None:
        sql += " AND c.id <= ?"
        params = (after, upto)
    cursor = db.execute(sql + " ORDER BY c.id", params)
    while batch := cursor.fetchmany(_BUILD_CHUNK):
        yield from batch
