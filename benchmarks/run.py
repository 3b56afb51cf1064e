"""Benchmarks over the shared datasets: one command, one table.

    python benchmarks/run.py [--quick] [--shared DIR]

Four benchmarks, timed with ``time.perf_counter`` over several repetitions:

1. PDF ingest       ``Store.ingest`` pages/s on ``corpora/regulatory_pdfs/*.pdf`` versus raw
                    extraction of the same files by the default PDF extractor (pypdfium2).
2. Search latency   ``Store.search`` p50/p95 over the CFPB paragraphs, with queries built from the
                    corpus (fixed seed) at several as-of dates; the ingest time of the corpus too.
3. Verifier         ``Verifier.verify`` checks/s on claims quoting sentences of CFPB paragraphs,
                    and on a mix in which up to half the claims state a mutated number.
4. Loop overhead    ``EvidenceGate.ask`` p50/p95 with the offline components, and the outcomes.

``--quick`` shrinks every benchmark (the smallest PDF, Regulation M only, few queries) so the
whole run takes well under a minute. Stores and traces live in a temporary directory; nothing
is written into the repository. Exit codes: 0 done; 2 the shared datasets are missing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import math
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidencegate import EvidenceGate
from evidencegate.contracts import Citation, Claim, SourcePage
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.pdf import DEFAULT_PDF_EXTRACTOR, extract_pdf_pages
from evidencegate.policy import Policy
from evidencegate.verify.verifier import Verifier

DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
PDF_DIR = ("corpora", "regulatory_pdfs")
CFPB_PARAGRAPHS = ("corpora", "cfpb_regml", "paragraphs.jsonl")

SEED = 20240601
SEARCH_DATES = (dt.date(2012, 7, 1), dt.date(2015, 7, 1), dt.date(2018, 7, 1), dt.date(2022, 7, 1))
THRESHOLD_QUESTION = "What is the consumer lease threshold amount?"
THRESHOLD_DATES = (
    dt.date(2012, 7, 1),
    dt.date(2013, 7, 1),
    dt.date(2014, 7, 1),
    dt.date(2016, 7, 1),
    dt.date(2018, 7, 1),
    dt.date(2022, 7, 1),
)
QUICK_DOC_IDS = frozenset({"12 CFR 1013"})  # Regulation M: small, and holds the threshold trap

_QUERY_WORDS = 8
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+")
_MIN_SENTENCE, _MAX_SENTENCE = 40, 400
# Amounts, percentages and periods: the numbers a regulated answer must get right.
_QUANTITY = re.compile(
    r"\$\d[\d,]*(?:\.\d+)?|\b\d+(?:\.\d+)?\s?(?:%|percent\b)"
    r"|\b\d+\s(?:calendar |business )?(?:days?|months?|years?)\b"
)


@dataclass(frozen=True, slots=True)
class Sizes:
    """How much of the data each benchmark uses, and how often it repeats."""

    pdfs: int | None  # the N smallest PDFs; None: all
    pdf_repeats: int
    cfpb_doc_ids: frozenset[str] | None  # None: the whole CFPB corpus
    queries: int
    search_repeats: int
    claims: int
    verify_repeats: int
    title_questions: int
    loop_repeats: int


FULL = Sizes(
    pdfs=None,
    pdf_repeats=3,
    cfpb_doc_ids=None,
    queries=200,
    search_repeats=3,
    claims=2000,
    verify_repeats=3,
    title_questions=44,
    loop_repeats=3,
)
QUICK = Sizes(
    pdfs=1,
    pdf_repeats=2,
    cfpb_doc_ids=QUICK_DOC_IDS,
    queries=40,
    search_repeats=2,
    claims=200,
    verify_repeats=2,
    title_questions=6,
    loop_repeats=2,
)


@dataclass(frozen=True, slots=True)
class Row:
    benchmark: str
    metric: str
    value: str
    notes: str = ""


@dataclass(frozen=True, slots=True)
class Cfpb:
    """The CFPB corpus as benchmarked: its records, and a store holding them."""

    records: list[dict[str, Any]]
    store: Store
    pages: list[tuple[str, str, int]]  # every stored (doc_id, version, page)


class MissingData(Exception):
    """A shared dataset the benchmarks need is absent."""


# --------------------------------------------------------------------------- measuring


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, linearly interpolated between ranks."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def timed(function: Callable[..., object], *args: Any) -> float:
    """Seconds one call of ``function(*args)`` takes."""
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def p50_p95_ms(seconds: Sequence[float]) -> str:
    return f"{percentile(seconds, 50) * 1000:.2f} / {percentile(seconds, 95) * 1000:.2f} ms"


def listing(counter: Counter[str]) -> str:
    return ", ".join(f"{key} {value}" for key, value in sorted(counter.items())) or "none"


# --------------------------------------------------------------------------- 1. PDF ingest


def bench_pdf_ingest(pdfs: Sequence[Path], sizes: Sizes, work: Path) -> list[Row]:
    """Pages/s of Store.ingest versus bare extraction by the default PDF extractor.

    One untimed extraction warms the extractor up; then each run times both, taking turns
    going first.
    """
    pages = sum(extract_all(path) for path in pdfs)
    raw_runs: list[float] = []
    ingest_runs: list[float] = []
    for run in range(sizes.pdf_repeats):
        store = Store.open(work / f"pdf-store-{run}")
        try:
            if run % 2:
                ingest_runs.append(sum(timed(ingest_pdf, store, path) for path in pdfs))
            raw_runs.append(sum(timed(extract_all, path) for path in pdfs))
            if not run % 2:
                ingest_runs.append(sum(timed(ingest_pdf, store, path) for path in pdfs))
        finally:
            store.close()
    ingest_rate = pages / statistics.median(ingest_runs)
    raw_rate = pages / statistics.median(raw_runs)
    files = f"{len(pdfs)} PDF" + ("s" if len(pdfs) > 1 else "")

    def notes(runs: Sequence[float]) -> str:
        return (
            f"{files}, {pages} pages; median of {len(runs)} runs "
            f"(runs {pages / max(runs):.1f} to {pages / min(runs):.1f} pages/s)"
        )

    return [
        Row("PDF ingest", "Store.ingest", f"{ingest_rate:.1f} pages/s", notes(ingest_runs)),
        Row(
            "PDF ingest",
            f"raw {DEFAULT_PDF_EXTRACTOR} extraction",
            f"{raw_rate:.1f} pages/s",
            notes(raw_runs),
        ),
        Row(
            "PDF ingest",
            "ratio ingest / raw",
            f"{ingest_rate / raw_rate:.2f}x",
            "ingest adds hashing, passage splitting and SQLite + FTS5 indexing",
        ),
    ]


def extract_all(path: Path) -> int:
    """Extract every page's text as ingest does; the number of pages."""
    return len(extract_pdf_pages(path.read_bytes(), DEFAULT_PDF_EXTRACTOR, path=str(path)))


def ingest_pdf(store: Store, path: Path) -> None:
    options = IngestOptions(
        authority="primary", doc_id=path.stem, version="1", version_date=dt.date(2020, 1, 1)
    )
    store.ingest([path], options)


# --------------------------------------------------------------------------- 2. search


def load_cfpb(source: Path, sizes: Sizes, work: Path) -> tuple[Cfpb, Row]:
    """Read the paragraphs (only ``sizes.cfpb_doc_ids`` when set), ingest them, time the ingest."""
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    records: list[dict[str, Any]] = [json.loads(line) for line in lines]
    if sizes.cfpb_doc_ids is not None:
        kept = [i for i, record in enumerate(records) if record["doc_id"] in sizes.cfpb_doc_ids]
        records = [records[i] for i in kept]
        source = work / "cfpb-subset.jsonl"
        source.write_text("".join(lines[i] + "\n" for i in kept), encoding="utf-8")
    store = Store.open(work / "cfpb-store")
    start = time.perf_counter()
    report = store.ingest([source], IngestOptions(authority="primary"))
    seconds = time.perf_counter() - start
    stats = store.stats()
    pages = [(v.doc_id, v.version, page) for v in report.added for page in range(1, v.pages + 1)]
    row = Row(
        "Search latency",
        f"ingest {len(records):,} CFPB paragraphs",
        f"{seconds:.2f} s ({len(records) / seconds:,.0f} records/s)",
        f"1 run; {stats['versions']} versions, {stats['pages']:,} pages, "
        f"{stats['passages']:,} passages; {len(report.skipped):,} records without text",
    )
    return Cfpb(records=records, store=store, pages=pages), row


def search_queries(records: Sequence[dict[str, Any]], count: int) -> list[str]:
    """The title, else the first words, of randomly chosen paragraphs (fixed seed)."""
    with_text = [r for r in records if (r.get("text") or "").strip()]
    chosen = random.Random(SEED).sample(with_text, min(count, len(with_text)))
    return [r.get("title") or " ".join(r["text"].split()[:_QUERY_WORDS]) for r in chosen]


def bench_search(cfpb: Cfpb, sizes: Sizes) -> list[Row]:
    queries = search_queries(cfpb.records, sizes.queries)
    latencies: list[float] = []
    found = 0
    for run in range(sizes.search_repeats):
        for query in queries:
            for as_of in SEARCH_DATES:
                start = time.perf_counter()
                passages = cfpb.store.search(query, as_of=as_of, limit=8)
                latencies.append(time.perf_counter() - start)
                if run == 0 and passages:
                    found += 1
    searches = len(queries) * len(SEARCH_DATES)
    years = ", ".join(str(d.year) for d in SEARCH_DATES)
    return [
        Row(
            "Search latency",
            "Store.search p50 / p95 (limit 8)",
            p50_p95_ms(latencies),
            f"{len(queries)} queries x {len(SEARCH_DATES)} as-of dates ({years}) x "
            f"{sizes.search_repeats} runs; {found}/{searches} searches found passages",
        )
    ]


# --------------------------------------------------------------------------- 3. verifier

Dated = tuple[Claim, dt.date]
MUTATED = "mutated-"


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph long enough to quote and short enough to be one claim."""
    pieces = (piece.strip() for piece in _SENTENCE_END.split(text))
    return [piece for piece in pieces if _MIN_SENTENCE <= len(piece) <= _MAX_SENTENCE]


def mutate_number(sentence: str) -> str | None:
    """The sentence with the leading digit of its first amount, percentage or period changed;
    None when it states none."""
    match = _QUANTITY.search(sentence)
    if match is None:
        return None
    digit = next(i for i in range(match.start(), match.end()) if sentence[i].isdigit())
    return sentence[:digit] + str(int(sentence[digit]) % 9 + 1) + sentence[digit + 1 :]


def quoting(source: SourcePage, claim_id: str, text: str, quote: str) -> Dated:
    """A claim citing ``quote`` on ``source``, dated the first day its version is in force."""
    page = source.page
    cite = Citation(doc_id=page.doc_id, version=page.version, page=page.page, quote=quote)
    return Claim(claim_id=claim_id, text=text, citations=[cite]), source.document.effective_from


def in_force_versions(cfpb: Cfpb) -> set[tuple[str, str]]:
    """The (doc_id, version) pairs that are in force on their first day: a version sharing its
    date with a later one (by version string) is superseded on the day it starts."""
    live: set[tuple[str, str]] = set()
    for doc_id in sorted({doc_id for doc_id, _, _ in cfpb.pages}):
        for document in cfpb.store.versions(doc_id):
            if document.in_force(document.effective_from):
                live.add((doc_id, document.version))
    return live


def build_claims(
    cfpb: Cfpb, live: set[tuple[str, str]], count: int
) -> tuple[list[Dated], list[Dated]]:
    """Claims from stored CFPB paragraphs of the ``live`` versions (see
    :func:`in_force_versions`), each checked as of its version's first day in force.

    Returns ``count`` faithful claims (a sentence quoted verbatim as its own claim text) and a
    separate mix of ``count`` claims in which up to half state a mutated number while quoting
    the original sentence (fewer when the corpus has fewer sentences stating an amount,
    percentage or period). The two sets share no claim, so the mix does not reuse warm caches.
    """
    rng = random.Random(SEED)
    faithful: list[Dated] = []
    mutated: list[Dated] = []
    wanted_mutated = count // 2
    wanted_faithful = 2 * count
    pages = [page for page in cfpb.pages if page[:2] in live]
    for doc_id, version, page in rng.sample(pages, len(pages)):
        if len(faithful) >= wanted_faithful and len(mutated) >= wanted_mutated:
            break
        source = cfpb.store.lookup(doc_id, version, page)
        if source is None:
            raise RuntimeError(f"{doc_id}@{version} page {page} was ingested but is not stored")
        candidates = sentences(source.page.text)
        if candidates and len(faithful) < wanted_faithful:
            quote = rng.choice(candidates)
            faithful.append(quoting(source, f"faithful-{len(faithful)}", quote, quote))
        if len(mutated) < wanted_mutated:
            for quote in candidates:
                wrong = mutate_number(quote)
                if wrong is not None:
                    mutated.append(quoting(source, f"{MUTATED}{len(mutated)}", wrong, quote))
                    break
    if len(faithful) < wanted_faithful or not mutated:
        raise RuntimeError(
            f"the corpus gave {len(faithful)} quotable sentences (wanted {wanted_faithful}) and "
            f"{len(mutated)} with a number to mutate (wanted {wanted_mutated})"
        )
    mixed = faithful[count : 2 * count - len(mutated)] + mutated
    random.Random(SEED).shuffle(mixed)
    return faithful[:count], mixed


def bench_verifier(cfpb: Cfpb, sizes: Sizes) -> list[Row]:
    verifier = Verifier.from_policy(cfpb.store, Policy())
    live = in_force_versions(cfpb)
    faithful, mixed = build_claims(cfpb, live, sizes.claims)
    versions = len({(doc_id, version) for doc_id, version, _ in cfpb.pages})
    source = f"claims from the {len(live)} of {versions} versions ever in force"
    rows: list[Row] = []
    for label, claims in (("faithful claims", faithful), ("mix with mutated numbers", mixed)):
        per_check: list[float] = []
        runs: list[float] = []
        verdicts: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        for run in range(sizes.verify_repeats):
            run_start = time.perf_counter()
            for claim, as_of in claims:
                start = time.perf_counter()
                result = verifier.verify(claim, as_of=as_of)
                per_check.append(time.perf_counter() - start)
                if run == 0:
                    kind = "mutated" if claim.claim_id.startswith(MUTATED) else "faithful"
                    verdicts[f"{kind} {'accepted' if result.ok else 'rejected'}"] += 1
                    reasons.update(reason.value for reason in result.reasons)
            runs.append(time.perf_counter() - run_start)
        rows.append(
            Row(
                "Verifier checks/s",
                f"{label}: checks/s (p50 / p95 per check)",
                f"{len(claims) / statistics.median(runs):,.0f} ({p50_p95_ms(per_check)})",
                f"{source}; {len(claims)} claims x {sizes.verify_repeats} runs, median run; "
                f"cold first run {len(claims) / runs[0]:,.0f}/s; {listing(verdicts)}; "
                f"failure reasons: {listing(reasons)}",
            )
        )
    return rows


# --------------------------------------------------------------------------- 4. loop


def loop_questions(records: Sequence[dict[str, Any]], count: int) -> list[tuple[str, dt.date]]:
    """The Regulation M threshold question at several dates, then ``count`` questions on
    distinct paragraph titles (fixed seed), each asked as of its paragraph's version date."""
    questions = [(THRESHOLD_QUESTION, as_of) for as_of in THRESHOLD_DATES]
    titled = [r for r in records if re.match(r"[A-Za-z]", r.get("title") or "")]
    random.Random(SEED).shuffle(titled)
    seen: set[str] = set()
    for record in titled:
        if len(seen) == count:
            break
        topic = record["title"].strip().rstrip(".")
        if topic[1:2].islower():
            topic = topic[0].lower() + topic[1:]
        if topic in seen:
            continue
        seen.add(topic)
        as_of = dt.date.fromisoformat(record["version_date"])
        questions.append((f"What does the regulation say about {topic}?", as_of))
    return questions


def bench_loop(cfpb: Cfpb, sizes: Sizes, work: Path) -> list[Row]:
    gate = EvidenceGate(cfpb.store)
    questions = loop_questions(cfpb.records, sizes.title_questions)
    traces = work / "traces"
    latencies: list[float] = []
    runs: list[list[tuple[str, str]]] = []
    for run in range(sizes.loop_repeats):
        results: list[tuple[str, str]] = []
        for index, (question, as_of) in enumerate(questions):
            trace_out = traces / f"run{run}-q{index}.jsonl"
            start = time.perf_counter()
            answer = gate.ask(question, as_of=as_of, trace_out=trace_out)
            latencies.append(time.perf_counter() - start)
            results.append((answer.outcome.value, answer.stop_reason.value))
        runs.append(results)
    outcomes = Counter(outcome for outcome, _ in runs[0])
    stops = Counter(stop for _, stop in runs[0])
    same = all(results == runs[0] for results in runs)
    return [
        Row(
            "Loop overhead",
            "EvidenceGate.ask p50 / p95 per question",
            p50_p95_ms(latencies),
            f"{len(questions)} questions x {sizes.loop_repeats} runs; offline extractive "
            "generator + rules critic + verifier, trace written to disk",
        ),
        Row(
            "Loop overhead",
            "outcomes",
            listing(outcomes),
            f"stop reasons: {listing(stops)}; identical in every run: {'yes' if same else 'NO'}",
        ),
    ]


# --------------------------------------------------------------------------- main


def locate_data(shared: Path, sizes: Sizes) -> tuple[list[Path], Path]:
    """The PDFs to ingest (smallest first when limited) and the CFPB paragraphs file."""
    hint = f"pass --shared DIR (default {DEFAULT_SHARED}; see its README.md)"
    pdf_dir = shared.joinpath(*PDF_DIR)
    pdfs = sorted(pdf_dir.glob("*.pdf"))
    if not pdfs:
        raise MissingData(f"shared dataset {pdf_dir}/*.pdf is absent: {hint}")
    paragraphs = shared.joinpath(*CFPB_PARAGRAPHS)
    if not paragraphs.is_file():
        raise MissingData(f"shared dataset {paragraphs} is absent: {hint}")
    if sizes.pdfs is not None:
        pdfs = sorted(pdfs, key=lambda path: path.stat().st_size)[: sizes.pdfs]
    return pdfs, paragraphs


def render(rows: Sequence[Row]) -> str:
    """A Markdown table, columns padded so it also reads as plain text."""
    cells = [("benchmark", "metric", "value", "notes")]
    cells += [(row.benchmark, row.metric, row.value, row.notes) for row in rows]
    widths = [max(len(line[column]) for line in cells) for column in range(4)]

    def line(values: Sequence[str]) -> str:
        padded = (value.ljust(width) for value, width in zip(values, widths, strict=True))
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([line(cells[0]), rule, *(line(values) for values in cells[1:])])


def progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="benchmarks/run.py", description="Benchmark evidencegate; prints one table."
    )
    parser.add_argument("--quick", action="store_true", help="small sizes; well under a minute")
    parser.add_argument(
        "--shared", type=Path, default=DEFAULT_SHARED, help=f"datasets (default {DEFAULT_SHARED})"
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    try:
        pdfs, paragraphs = locate_data(args.shared, sizes)
    except MissingData as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # pypdf logs a warning per font it cannot fully decode; the same for raw and ingest runs.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="evidencegate-bench-") as tmp:
        work = Path(tmp)
        progress(f"1/4 PDF ingest versus raw {DEFAULT_PDF_EXTRACTOR} ({len(pdfs)} PDFs)")
        rows = bench_pdf_ingest(pdfs, sizes, work)
        progress("2/4 CFPB ingest and search")
        cfpb, ingest_row = load_cfpb(paragraphs, sizes, work)
        try:
            rows += [ingest_row, *bench_search(cfpb, sizes)]
            progress("3/4 verifier")
            rows += bench_verifier(cfpb, sizes)
            progress("4/4 loop overhead")
            rows += bench_loop(cfpb, sizes, work)
        finally:
            cfpb.store.close()
    mode = "quick" if args.quick else "full"
    print(
        f"evidencegate benchmarks ({mode}): {platform.platform()}, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPU cores; "
        f"took {time.perf_counter() - started:.0f} s\n"
    )
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
