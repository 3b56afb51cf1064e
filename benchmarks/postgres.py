"""PostgreSQL store beside the SQLite store on the CFPB corpus: one command, one table.

    python3 benchmarks/postgres.py [--quick] [--shared DIR] [--postgres URL] [--workers N]

In one run, for each backend (a fresh SQLite store directory; a fresh schema in the Postgres
database at ``--postgres``, default ``$EVIDENCEGATE_TEST_POSTGRES``, e.g. from
``bash .ci/postgres.sh start``):

1. Ingest      ``ingest`` of ``corpora/cfpb_regml/paragraphs.jsonl`` (47k paragraphs, 49 dated
               versions of five regulations) in one call: passages/s.
2. Search      ``search`` p50/p95 (limit 8) for 200 queries (titles or first words of seeded
               random paragraphs), each at a seeded random as-of date in 2011-2022; and how many
               of the queries return the same top 8 (passage ids, in order) on both backends.
3. Workers     ``--workers`` processes at once, each ingesting its own copy of Regulation M
               (doc_id suffixed per worker, one file per version, committed file by file) and
               asking two questions through ``EvidenceGate`` (offline components) after each
               file: wall time, passages ingested per second over all workers, ``ask`` p50/p95.

``--quick`` uses Regulation M only (2.8k paragraphs), 40 queries and 2 workers. Exit codes: 0
done; 2 the shared data or the Postgres URL is missing (the message names which).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from evidencegate import EvidenceGate
from evidencegate.corpus import IngestOptions, PostgresStore, Store, StoreBackend

DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
CFPB = ("corpora", "cfpb_regml", "paragraphs.jsonl")
QUICK_DOC_ID = "12 CFR 1013"
SEED = 20240601
QUERY_WORDS = 8
FIRST_DAY = dt.date(2011, 1, 1)
LAST_DAY = dt.date(2022, 12, 31)
WORKER_QUESTIONS = (
    "What is the consumer lease threshold amount?",
    "What disclosures must a lessor make before consummation of a consumer lease?",
)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (linear interpolation between closest ranks)."""
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def p50_p95(seconds: Sequence[float]) -> str:
    return f"{percentile(seconds, 50) * 1000:.2f} / {percentile(seconds, 95) * 1000:.2f} ms"


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A URL whose tables go to a new schema of ``url``'s database, dropped afterwards."""
    import psycopg

    schema = f"eg_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def open_backend(name: str, where: str, traces: Path) -> StoreBackend:
    if name == "postgres":
        return PostgresStore.open(where, traces_dir=traces)
    return Store.open(where)


def queries(records: Sequence[dict[str, Any]], count: int) -> list[tuple[str, dt.date]]:
    """Titles, else first words, of seeded random paragraphs, each with a random as-of date."""
    rng = random.Random(SEED)
    chosen = rng.sample([r for r in records if (r.get("text") or "").strip()], count)
    span = (LAST_DAY - FIRST_DAY).days
    return [
        (
            r.get("title") or " ".join(r["text"].split()[:QUERY_WORDS]),
            FIRST_DAY + dt.timedelta(days=rng.randrange(span)),
        )
        for r in chosen
    ]


def bench_store(
    name: str, where: str, source: Path, asked: Sequence[tuple[str, dt.date]], work: Path
) -> tuple[dict[str, str], list[list[str]]]:
    """Ingest the corpus into a fresh store of backend ``name``, then time the searches."""
    with open_backend(name, where, work / "traces") as store:
        start = time.perf_counter()
        store.ingest([source], IngestOptions(authority="primary"))
        seconds = time.perf_counter() - start
        passages = store.stats()["passages"]
        for query, day in asked[:5]:  # warm the caches (first-query planning, page cache)
            store.search(query, as_of=day)
        latencies = []
        found = []
        for query, day in asked:
            begin = time.perf_counter()
            hits = store.search(query, as_of=day, limit=8)
            latencies.append(time.perf_counter() - begin)
            found.append([p.passage_id for p in hits])
    row = {
        "ingest": f"{passages:,} passages in {seconds:.1f} s ({passages / seconds:,.0f}/s)",
        "search": p50_p95(latencies),
    }
    return row, found


def worker_files(records: Sequence[dict[str, Any]], worker: int, work: Path) -> list[str]:
    """Regulation M as worker ``worker``'s own document, one JSONL file per version."""
    by_version: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record["doc_id"] == QUICK_DOC_ID:
            by_version.setdefault(record["version"], []).append(record)
    files = []
    for version, rows in sorted(by_version.items(), key=lambda item: item[1][0]["version_date"]):
        path = work / f"w{worker}-{version}.jsonl"
        lines = (json.dumps({**r, "doc_id": f"{QUICK_DOC_ID} w{worker}"}) for r in rows)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        files.append(str(path))
    return files


def worker(name: str, where: str, files: Sequence[str], traces: str) -> tuple[int, list[float]]:
    """One process: ingest each file, asking the questions after each; passages and ask times."""
    passages = 0
    asks = []
    with open_backend(name, where, Path(traces)) as store:
        gate = EvidenceGate(store)
        for path in files:
            report = store.ingest([Path(path)], IngestOptions(authority="primary"))
            passages += sum(v.passages for v in report.added)
            for question in WORKER_QUESTIONS:
                start = time.perf_counter()
                gate.ask(question, as_of=dt.date(2020, 6, 1))
                asks.append(time.perf_counter() - start)
    return passages, asks


def bench_workers(
    name: str, where: str, records: Sequence[dict[str, Any]], workers: int, work: Path
) -> str:
    """``workers`` processes ingesting and asking at once against one store of ``name``."""
    from concurrent.futures import ProcessPoolExecutor

    traces = work / f"{name}-worker-traces"
    jobs = [worker_files(records, w, work) for w in range(workers)]
    open_backend(name, where, traces).close()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        start = time.perf_counter()
        futures = [pool.submit(worker, name, where, files, str(traces)) for files in jobs]
        results = [future.result() for future in futures]
        seconds = time.perf_counter() - start
    passages = sum(r[0] for r in results)
    asks = [t for r in results for t in r[1]]
    return (
        f"{seconds:.1f} s: {passages / seconds:,.0f} passages/s ingested, "
        f"ask {p50_p95(asks)} ({len(asks)} asks)"
    )


def render(rows: Sequence[tuple[str, str, str, str]]) -> str:
    lines = ["| measure | SQLite | PostgreSQL | notes |", "|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="Regulation M only, fewer queries")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, metavar="DIR")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("EVIDENCEGATE_TEST_POSTGRES"),
        metavar="URL",
        help="a database to create (and drop) schemas in (default $EVIDENCEGATE_TEST_POSTGRES)",
    )
    parser.add_argument("--workers", type=int, default=None, metavar="N")
    args = parser.parse_args(argv)
    source = args.shared.joinpath(*CFPB)
    if not source.is_file():
        print(f"error: {source} is absent (see ../shared/datasets/README.md)", file=sys.stderr)
        return 2
    if not args.postgres:
        print(
            "error: no PostgreSQL database: pass --postgres URL or set EVIDENCEGATE_TEST_POSTGRES "
            "(bash .ci/postgres.sh start prints one)",
            file=sys.stderr,
        )
        return 2
    workers = args.workers or (2 if args.quick else 4)
    lines = source.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    with tempfile.TemporaryDirectory(prefix="evidencegate-pg-bench-") as tmp:
        work = Path(tmp)
        if args.quick:
            records = [r for r in records if r["doc_id"] == QUICK_DOC_ID]
            source = work / "cfpb-quick.jsonl"
            source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        asked = queries(records, 40 if args.quick else 200)
        cells: dict[str, dict[str, str]] = {}
        found: dict[str, list[list[str]]] = {}
        places: dict[str, Callable[[], Any]] = {
            "sqlite": lambda: _directory(work / f"sqlite-{uuid.uuid4().hex[:6]}"),
            "postgres": lambda: fresh_schema(args.postgres),
        }
        for name, place in places.items():
            progress(f"{name}: ingest and search")
            with place() as where:
                cells[name], found[name] = bench_store(name, where, source, asked, work)
            progress(f"{name}: {workers} workers ingesting and asking")
            with place() as where:
                cells[name]["workers"] = bench_workers(name, where, records, workers, work)
    same = sum(a == b for a, b in zip(found["sqlite"], found["postgres"], strict=True))
    load = os.getloadavg()[0]
    rows = [
        (
            "ingest (one call)",
            cells["sqlite"]["ingest"],
            cells["postgres"]["ingest"],
            f"{len(records):,} CFPB paragraphs",
        ),
        (
            "search p50 / p95, as-of filtered, top 8",
            cells["sqlite"]["search"],
            cells["postgres"]["search"],
            f"{len(asked)} queries at random dates; same top 8 on both: {same}/{len(asked)}",
        ),
        (
            f"{workers} workers ingesting + asking",
            cells["sqlite"]["workers"],
            cells["postgres"]["workers"],
            "each worker: Regulation M as its own document, 7 files, 2 asks after each",
        ),
    ]
    print(render(rows))
    print(f"\nload average at the end: {load:.2f} on {os.cpu_count()} cores")
    return 0


@contextmanager
def _directory(path: Path) -> Iterator[str]:
    yield str(path)


def progress(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
