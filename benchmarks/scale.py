"""Search at scale: evidencegate beside bm25s and rank_bm25 on the same passages, one table.

    python3 benchmarks/scale.py [--quick] [--shared DIR] [--copies N] [--queries N]

Two corpora: the CFPB paragraphs of ``DIR/corpora/cfpb_regml/paragraphs.jsonl`` (~41k passages
of 49 dated versions), and the same replicated ``--copies`` times (default 24, ~1M passages)
under distinct doc_ids (``12 CFR 1002 #7``), every paragraph of copy k ending with the marker
word ``copyk`` (also added to its section, so that every passage of a long paragraph carries
it), so that copies share no text and de-duplication gains only what version histories
repeat. On each:

* ``Store.ingest`` passages/s (one transaction per copy) and the ranking index build;
* search p50/p95 (ms) of ``--queries`` queries (default 200; the first eight words of random
  passages, plus the copy's marker at ~1M), top 8, each at a random as-of date inside the source
  passage's version (a query's latency: the median of 5 runs after a warm-up run, the same for
  every system), the share of queries whose top 8 holds a passage of a version not in force on
  the as-of date, and version-correct recall@8: the share of queries whose top 8 holds the
  source passage's text under the source's doc_id *and* version, or another passage of that
  version holding the quoted words as they stand in the source (the same evidence: a query
  made of them cannot tell the two apart; the same text under another version or document
  does not count). Without that, a query whose words another passage of its version also holds
  counts as a miss whenever that passage's 23 copies in the other documents (which lack only
  the copy marker) rank above the source (at ~1M, 1 of 200 queries). The share of queries
  whose top 8 holds the source passage itself is printed too. A miss is then either a version
  error (the source's text came from a version not in force: see the out-of-force share) or a
  ranking miss (passages of versions in force outranked it). evidencegate's misses at 41k with
  BM25 alone are ranking misses: the source strictly outranked (no ties) by passages, mostly of
  the same document and version, that share the few content words left in eight opening words
  once stopwords are dropped ("We will only charge you for using our" searches for ``charge``,
  ``use``). evidencegate:
  ``Store.search`` filtered by as-of (the filter applies before the top k), as a caller gets it
  by default: BM25 plus the phrase bonus of the query's runs of two and three adjacent words
  (stopwords included) found adjacent in a passage (the source holds all of them, the passages
  that outranked it on BM25 alone few; at ~1M the words of one query, "A creditor shall retain
  the information beyond 25", are all held pair by pair in another passage of the source's
  version, "A creditor shall retain information beyond 25 ... shall retain the information
  until", whose 24 copies outrank the source on pairs alone: "the information beyond" is a
  triple only the source holds); and with ``phrases=False`` (BM25 alone, what the answer
  pipeline's retriever asks for), beside it.
  bm25s 0.3 (numba backend, ``backend_selection="numba"``, one thread: its fastest documented
  configuration on this machine), unfiltered and with the as-of filter as its ``weight_mask``
  (the mask is computed outside the timing); rank_bm25 ``BM25Okapi`` at ~41k only (it keeps a
  Python dict per passage: ~1M does not fit in memory). Peers index every passage (text and
  context, like evidencegate), tokenised by ``bm25s.tokenize`` with the PyStemmer English
  stemmer and English stopwords; query tokenisation is outside their timing and inside ours;
* adding one version (a new version of Regulation M, copy 0, one paragraph changed) to the ~1M
  store: ``Store.ingest`` plus the first search after it (which brings the index's delta up to
  date);
* store bytes per passage: the SQLite file (checkpointed) plus the index file.

``--quick`` takes Regulation M only (3 copies, 20 queries): a smoke run for
``tests/test_benchmarks_smoke.py``. Exit codes: 0 done; 2 data or a peer library missing.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gc
import io
import json
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evidencegate import __version__
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.index import INDEX_FILENAME
from evidencegate.corpus.store import STORE_FILENAME

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = REPO.parent / "shared" / "datasets"
SEED = 17
LIMIT = 8
QUERY_WORDS = 8
REPEATS = 5
LAST_DAY = dt.date(2023, 1, 1)
"""As-of dates of a version still in force are drawn up to this day."""
QUICK_DOC = "12 CFR 1013"


@dataclass(frozen=True, slots=True)
class Row:
    """A stored passage as the peers see it, with what recall and the as-of mask need."""

    doc_id: str
    version: str
    text: str
    document: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    as_of: dt.date
    truth: tuple[str, str, str]
    quote: str
    """The source's opening words (the query without the copy marker), space-separated."""
    stale: frozenset[tuple[str, str]]
    """(doc_id, version) pairs of the corpus not in force on ``as_of``."""


@dataclass
class Measure:
    p50: float = float("nan")
    p95: float = float("nan")
    recall: float = float("nan")
    source: float = float("nan")
    """The share of queries whose top 8 holds the source passage's own text (doc, version)."""
    stale: float = float("nan")
    note: str = ""


def holds(query: Query, row: tuple[str, str, str]) -> bool:
    """Whether a result is the query's evidence: a passage of the source's doc_id and version
    whose text is the source's or holds the quoted words as the source does (word for word,
    case aside: search folds case)."""
    doc_id, version, text = row
    if (doc_id, version) != query.truth[:2]:
        return False
    quote = f" {query.quote.casefold()} "
    return text == query.truth[2] or quote in f" {' '.join(text.casefold().split())} "


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(run: Callable[[Query], list[tuple[str, str, str]]], queries: Sequence[Query]) -> Measure:
    """Each query once to warm caches, then REPEATS times: its latency is the median of those
    (on a loaded machine one sample is mostly scheduler noise); p50/p95 over the queries, and
    recall@8 of the first timed run."""
    for query in queries:
        run(query)
    seconds = []
    hits = 0
    sources = 0
    stale = 0
    for query in queries:
        samples = []
        for repeat in range(REPEATS):
            start = time.perf_counter()
            found = run(query)
            samples.append(time.perf_counter() - start)
            if repeat == 0:
                hits += any(holds(query, row) for row in found)
                sources += query.truth in found
                stale += any((doc, version) in query.stale for doc, version, _ in found)
        seconds.append(statistics.median(samples))
    return Measure(
        p50=1000 * statistics.median(seconds),
        p95=1000 * percentile(seconds, 0.95),
        recall=hits / len(queries),
        source=sources / len(queries),
        stale=stale / len(queries),
    )


# --------------------------------------------------------------------------- corpora


def read_paragraphs(path: Path, quick: bool) -> list[dict[str, Any]]:
    fields = ("doc_id", "version", "version_date", "label", "section", "title", "text")
    records = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                record = json.loads(line)
                if not quick or record["doc_id"] == QUICK_DOC:
                    records.append({f: record.get(f) for f in fields})
    return records


def copy_of(records: Sequence[dict[str, Any]], k: int | None) -> Iterator[dict[str, Any]]:
    """The records as they are (``k`` None) or as copy k: doc_id suffixed, marker appended."""
    for record in records:
        if k is None:
            yield record
        else:
            text, section = record["text"], record["section"]
            yield {
                **record,
                "doc_id": f"{record['doc_id']} #{k}",
                "section": f"{section} copy{k}" if section else f"copy{k}",
                "text": f"{text} copy{k}" if text else text,
            }


def ingest(store: Store, work: Path, records: Iterator[dict[str, Any]], name: str) -> float:
    """Write ``records`` to a JSONL file, ingest it, delete it; the seconds ``ingest`` took."""
    path = work / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record) + "\n")
    start = time.perf_counter()
    store.ingest([path], IngestOptions(authority="primary"))
    seconds = time.perf_counter() - start
    path.unlink()
    return seconds


def stored_rows(directory: Path) -> list[Row]:
    """Every passage of the store with its version interval (as day ordinals)."""
    with contextlib.closing(sqlite3.connect(directory / STORE_FILENAME)) as db:
        rows = db.execute(
            "SELECT v.doc_id, v.version, t.text, x.text, v.effective_from, v.effective_to "
            "FROM passages AS p JOIN versions AS v ON v.id = p.version_id "
            "JOIN contents AS c ON c.id = p.content_id JOIN texts AS t ON t.id = c.text_id "
            "JOIN texts AS x ON x.id = c.context_id ORDER BY p.id"
        ).fetchall()
    return [
        Row(
            doc_id,
            version,
            text,
            f"{text}\n{context}",
            dt.date.fromisoformat(start).toordinal(),
            dt.date.fromisoformat(end).toordinal() if end else LAST_DAY.toordinal() + 1,
        )
        for doc_id, version, text, context, start, end in rows
    ]


def make_queries(rows: Sequence[Row], count: int, marked: bool) -> list[Query]:
    """The first words of random passages (plus the copy marker when ``marked``), each at a
    random day inside the passage's version (passages of versions never in force skipped)."""
    rng = random.Random(SEED)
    live = [r for r in rows if r.end > r.start and len(r.text.split()) >= 3]
    intervals = {(r.doc_id, r.version): (r.start, r.end) for r in rows}
    queries = []
    for row in rng.sample(live, min(count, len(live))):
        words = row.text.split()[:QUERY_WORDS]
        if marked and "#" in row.doc_id:
            words.append("copy" + row.doc_id.rsplit("#", 1)[1])
        day = dt.date.fromordinal(rng.randrange(row.start, min(row.end, LAST_DAY.toordinal())))
        ordinal = day.toordinal()
        stale = frozenset(
            key for key, (start, end) in intervals.items() if not start <= ordinal < end
        )
        quote = " ".join(row.text.split()[:QUERY_WORDS])
        truth = (row.doc_id, row.version, row.text)
        queries.append(Query(" ".join(words), day, truth, quote, stale))
    return queries


def file_bytes(directory: Path) -> int:
    with contextlib.closing(sqlite3.connect(directory / STORE_FILENAME)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(
        (directory / name).stat().st_size
        for name in (STORE_FILENAME, INDEX_FILENAME)
        if (directory / name).exists()
    )


# --------------------------------------------------------------------------- systems


def ours(store: Store, *, plain: bool = False) -> Callable[[Query], list[tuple[str, str, str]]]:
    """``Store.search`` as called by default, or with ``phrases=False`` when ``plain``."""
    if plain:

        def run(query: Query) -> list[tuple[str, str, str]]:
            found = store.search(query.text, as_of=query.as_of, limit=LIMIT, phrases=False)
            return [(p.doc_id, p.version, p.text) for p in found]

        return run

    def default(query: Query) -> list[tuple[str, str, str]]:
        found = store.search(query.text, as_of=query.as_of, limit=LIMIT)
        return [(p.doc_id, p.version, p.text) for p in found]

    return default

    return run


def bm25s_peer(rows: Sequence[Row], queries: Sequence[Query]) -> tuple[Measure, Measure, float]:
    """bm25s numba: (unfiltered, as-of weight_mask, index seconds)."""
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    start = time.perf_counter()
    corpus = bm25s.tokenize(
        [r.document for r in rows], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25(backend="numba")
    retriever.index(corpus, show_progress=False)
    index_seconds = time.perf_counter() - start
    del corpus
    tokens = {
        q.text: bm25s.tokenize(
            [q.text], stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )[0]
        for q in queries
    }
    starts = np.array([r.start for r in rows], dtype=np.int64)
    ends = np.array([r.end for r in rows], dtype=np.int64)
    masks = {
        q.as_of: ((starts <= q.as_of.toordinal()) & (q.as_of.toordinal() < ends)).astype(np.float32)
        for q in queries
    }

    def search(query: Query, mask: np.ndarray | None) -> list[tuple[str, str, str]]:
        if not tokens[query.text]:
            return []
        ids, scores = retriever.retrieve(
            [tokens[query.text]],
            k=LIMIT,
            backend_selection="numba",
            n_threads=1,
            show_progress=False,
            weight_mask=mask,
        )
        out = []
        for i, score in zip(ids[0], scores[0], strict=True):
            if score > 0:
                row = rows[int(i)]
                out.append((row.doc_id, row.version, row.text))
        return out

    unfiltered = timed(lambda q: search(q, None), queries)
    masked = timed(lambda q: search(q, masks[q.as_of]), queries)
    return unfiltered, masked, index_seconds


def rank_bm25_peer(rows: Sequence[Row], queries: Sequence[Query]) -> Measure:
    import bm25s
    import Stemmer
    from rank_bm25 import BM25Okapi

    stemmer = Stemmer.Stemmer("english")
    corpus = bm25s.tokenize(
        [r.document for r in rows],
        stopwords="en",
        stemmer=stemmer,
        return_ids=False,
        show_progress=False,
    )
    model = BM25Okapi(corpus)
    del corpus
    tokens = {
        q.text: bm25s.tokenize(
            [q.text], stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
        )[0]
        for q in queries
    }

    def search(query: Query) -> list[tuple[str, str, str]]:
        scores = model.get_scores(tokens[query.text])
        best = np.argsort(-scores, kind="stable")[:LIMIT]
        return [
            (rows[i].doc_id, rows[i].version, rows[i].text) for i in best.tolist() if scores[i] > 0
        ]

    return timed(search, queries)


# --------------------------------------------------------------------------- one scale


@dataclass
class Scale:
    name: str
    passages: int = 0
    contents: int = 0
    ingest_seconds: float = 0.0
    index_seconds: float = 0.0
    bytes: int = 0
    ours: Measure | None = None
    plain: Measure | None = None
    bm25s: Measure | None = None
    bm25s_masked: Measure | None = None
    bm25s_index_seconds: float = 0.0
    rank_bm25: Measure | None = None
    add_version: float | None = None


def run_scale(
    name: str,
    records: Sequence[dict[str, Any]],
    copies: Sequence[int | None],
    work: Path,
    queries: int,
    *,
    with_rank_bm25: bool,
    add_version: bool,
) -> Scale:
    scale = Scale(name)
    directory = work / name
    with Store.open(directory) as store:
        store.messages = io.StringIO()
        for k in copies:
            scale.ingest_seconds += ingest(store, work, copy_of(records, k), f"copy-{k}")
            log(f"{name}: copy {k} stored ({scale.ingest_seconds:.0f} s so far)")
        scale.passages = store.stats()["passages"]
        start = time.perf_counter()
        scale.contents = store.refresh_index()
        scale.index_seconds = time.perf_counter() - start
        log(f"{name}: {scale.passages:,} passages, index built in {scale.index_seconds:.1f} s")
        rows = stored_rows(directory)
        asked = make_queries(rows, queries, marked=any(k is not None for k in copies))
        scale.ours = timed(ours(store), asked)
        log(f"{name}: evidencegate p95 {scale.ours.p95:.2f} ms")
        scale.plain = timed(ours(store, plain=True), asked)
        log(f"{name}: evidencegate, phrases=False, p95 {scale.plain.p95:.2f} ms")
        if add_version:
            scale.add_version = add_one_version(store, records, work, copies[0])
            log(f"{name}: one version added in {scale.add_version:.2f} s")
    scale.bytes = file_bytes(directory)
    gc.collect()
    scale.bm25s, scale.bm25s_masked, scale.bm25s_index_seconds = bm25s_peer(rows, asked)
    log(f"{name}: bm25s p95 {scale.bm25s.p95:.2f} ms")
    if with_rank_bm25:
        scale.rank_bm25 = rank_bm25_peer(rows, asked)
        log(f"{name}: rank_bm25 p95 {scale.rank_bm25.p95:.2f} ms")
    return scale


def add_one_version(
    store: Store, records: Sequence[dict[str, Any]], work: Path, k: int | None
) -> float:
    """Ingest a new version of one document (its last version, one paragraph changed, dated
    2023-06-01) and run one search; the seconds both took."""
    doc = QUICK_DOC if any(r["doc_id"] == QUICK_DOC for r in records) else records[0]["doc_id"]
    mine = [r for r in records if r["doc_id"] == doc]
    last = max(r["version_date"] for r in mine)
    newest = [dict(r) for r in mine if r["version_date"] == last]
    for record in newest:
        record["version"] = "2023-benchmark"
        record["version_date"] = "2023-06-01"
    newest[0]["text"] = (newest[0]["text"] or "") + " Amended for the benchmark."
    start = time.perf_counter()
    ingest(store, work, copy_of(newest, k), "new-version")
    store.search("amended benchmark", as_of=dt.date(2023, 7, 1), limit=LIMIT)
    return time.perf_counter() - start


# --------------------------------------------------------------------------- output


def ms(measure: Measure | None) -> str:
    if measure is None:
        return "—"
    return f"{measure.p50:.2f} / {measure.p95:.2f}"


def stale(measure: Measure | None) -> str:
    return "—" if measure is None else f"{measure.stale:.3f}"


def recall(measure: Measure | None) -> str:
    return "—" if measure is None else f"{measure.recall:.3f}"


def source(measure: Measure | None) -> str:
    return "—" if measure is None else f"{measure.source:.3f}"


def table(scales: Sequence[Scale], queries: int) -> str:
    head = "| measure | " + " | ".join(f"{s.name} ({s.passages:,} passages)" for s in scales)
    lines = [head + " |", "|---" * (len(scales) + 1) + "|"]

    def add(label: str, cell: Callable[[Scale], str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(s) for s in scales) + " |")

    add("distinct passage contents (indexed once)", lambda s: f"{s.contents:,}")
    add(
        "evidencegate ingest, passages/s",
        lambda s: f"{s.passages / s.ingest_seconds:,.0f} ({s.ingest_seconds:.1f} s)",
    )
    add("evidencegate index build", lambda s: f"{s.index_seconds:.1f} s")
    add("bm25s tokenize + index", lambda s: f"{s.bm25s_index_seconds:.1f} s")
    add(f"search p50 / p95 ms, {queries} queries, top {LIMIT}:", lambda s: "")
    add("· evidencegate Store.search, as-of filtered", lambda s: ms(s.ours))
    add("· evidencegate, as-of filtered, phrases=False", lambda s: ms(s.plain))
    add("· bm25s numba, unfiltered", lambda s: ms(s.bm25s))
    add("· bm25s numba, as-of as weight_mask", lambda s: ms(s.bm25s_masked))
    add("· rank_bm25 BM25Okapi, unfiltered", lambda s: ms(s.rank_bm25))
    add(
        "evidencegate p95 / bm25s unfiltered p95",
        lambda s: f"{s.ours.p95 / s.bm25s.p95:.2f}x" if s.ours and s.bm25s else "—",
    )
    add(
        "evidencegate phrases=False p95 / bm25s unfiltered p95",
        lambda s: f"{s.plain.p95 / s.bm25s.p95:.2f}x" if s.plain and s.bm25s else "—",
    )
    add("version-correct recall@8:", lambda s: "")
    add("· evidencegate", lambda s: recall(s.ours))
    add("· evidencegate, phrases=False", lambda s: recall(s.plain))
    add("· bm25s unfiltered", lambda s: recall(s.bm25s))
    add("· bm25s weight_mask", lambda s: recall(s.bm25s_masked))
    add("· rank_bm25", lambda s: recall(s.rank_bm25))
    add("the source passage itself in the top 8:", lambda s: "")
    add("· evidencegate, source itself", lambda s: source(s.ours))
    add("· evidencegate phrases=False, source itself", lambda s: source(s.plain))
    add("· bm25s weight_mask, source itself", lambda s: source(s.bm25s_masked))
    add("queries with a version not in force in the top 8:", lambda s: "")
    add("· evidencegate, out of force", lambda s: stale(s.ours))
    add("· evidencegate phrases=False, out of force", lambda s: stale(s.plain))
    add("· bm25s unfiltered, out of force", lambda s: stale(s.bm25s))
    add("· bm25s weight_mask, out of force", lambda s: stale(s.bm25s_masked))
    add("· rank_bm25, out of force", lambda s: stale(s.rank_bm25))
    add(
        "+1 version (ingest + first search)",
        lambda s: "—" if s.add_version is None else f"{s.add_version:.2f} s",
    )
    add("store bytes / passage (SQLite + index)", lambda s: f"{s.bytes / s.passages:,.0f} B")
    return "\n".join(lines)


def log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="Regulation M only, 3 copies")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    parser.add_argument("--copies", type=int, help="copies at the large scale (default 24)")
    parser.add_argument("--queries", type=int, help="queries per scale (default 200)")
    args = parser.parse_args(argv)
    source = args.shared / "corpora" / "cfpb_regml" / "paragraphs.jsonl"
    if not source.exists():
        print(f"scale: {source} is absent (see ../shared/datasets/README.md)", file=sys.stderr)
        return 2
    try:
        import bm25s  # noqa: F401
        import numba  # noqa: F401
        import rank_bm25  # noqa: F401
        import Stemmer  # noqa: F401
    except ImportError as exc:
        print(f"scale: {exc.name} is not installed (pip install -e '.[dev]')", file=sys.stderr)
        return 2
    copies = args.copies or (3 if args.quick else 24)
    queries = args.queries or (20 if args.quick else 200)
    records = read_paragraphs(source, args.quick)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="evidencegate-scale-") as tmp:
        work = Path(tmp)
        small = run_scale(
            "CFPB" if not args.quick else "Reg M",
            records,
            [None],
            work,
            queries,
            with_rank_bm25=True,
            add_version=False,
        )
        large = run_scale(
            f"x{copies}",
            records,
            list(range(copies)),
            work,
            queries,
            with_rank_bm25=False,
            add_version=True,
        )
    load = os.getloadavg()
    print(
        f"evidencegate {__version__} scale benchmark: {platform.platform()}, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPU cores, load average "
        f"{load[0]:.1f} / {load[1]:.1f}; took {time.perf_counter() - started:.0f} s\n"
    )
    print(table([small, large], queries))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
