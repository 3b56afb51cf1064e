"""Answer quality on the project's golden sets: one command, one table.

    python3 benchmarks/answers.py [--sets example,cfpb_regml,nist_sp800_53,financebench]
        [--arms grounded_followup] [--stores DIR] [--cache DIR] [--shared DIR] [--out DIR]
        [--policy FILE|NAME] [--retriever bm25|hybrid] [--dense-cache DIR] [--concurrency N]
        [--no-paraphrases] [--golden-dir DIR]

For each golden set it builds (or reuses) a store, runs the ablation
(:func:`evidencegate.evals.ablation.run_ablation`: every item and each of its paraphrases) and
prints, per set and overall, for each arm: answerable items answered correctly, wrong answers,
abstentions on answerable items, abstentions on unanswerable items, unscored answers (items
without an expected answer yet), unsupported and superseded-version claims, noise claims per
answer, paraphrase consistency, the recall of the required evidence in the first retrieval
(``evidence recall@k``: required-evidence entries of answerable runs whose quote, or page, is
in the top ``policy.top_k`` passages of the run's initial retrieval) and the median latency of
a run. Every rate is shown as k/n.

``--retriever hybrid`` runs the hybrid retriever (BM25 fused with sentence embeddings; needs
``pip install 'evidencegate[dense]'``) instead of the policy's; its passage embeddings are
cached in ``--dense-cache DIR`` (default ``~/.cache/evidencegate/dense``, content-addressed, so
one directory serves every store), built on first use. Run the command once per retriever
to compare them side by side.

Stores: ``--stores DIR`` reuses prebuilt stores in ``DIR/example``, ``DIR/cfpb``, ``DIR/nist``
and ``DIR/fb`` (each is copied to a temporary directory first, so a shared store is never
written to). Otherwise each store is ingested once into ``--cache DIR`` (default
``~/.cache/evidencegate/answers``) from the example corpus and from ``--shared DIR`` (default
``../shared/datasets``): the CFPB paragraphs as primary sources, the NIST controls with
``golden_sets/mappings/nist_sp800_53.yaml``, and each FinanceBench 10-K PDF with its mapping in
``golden_sets/mappings/financebench/``. A set whose data is absent is skipped with a message
naming the missing path. ``--out DIR`` keeps each set's ablation outputs (metrics.json,
metrics.md, report.html, results.jsonl, traces/); they go to a temporary directory otherwise.

Exit codes: 0 done (some sets may be skipped); 2 bad arguments, or every set was skipped.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evidencegate import __version__
from evidencegate.canonical import sha256_hex
from evidencegate.components import build_retriever
from evidencegate.contracts import Arm
from evidencegate.corpus import IngestOptions, Store
from evidencegate.evals.ablation import run_ablation
from evidencegate.evals.golden import GoldenItem, RequiredEvidence, expand_paraphrases, load_golden
from evidencegate.evals.metrics import AnswerCounts, ItemResult, answer_counts, summarize
from evidencegate.evals.report import per_answer, ratio, write_report
from evidencegate.exceptions import EvidenceGateError
from evidencegate.policy import load_policy, with_retrieval
from evidencegate.stats import quantile
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import RetrievalEvent, RetrievedRef
from evidencegate.verify.quotes import QuoteMatch, locate_quote

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = REPO.parent / "shared" / "datasets"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "evidencegate"
READY = ".evidencegate-benchmark-complete"
"""Written into a cache store once its ingest finished; a store without it is rebuilt."""


def example_dir() -> Path:
    """The example corpus and golden set, beside the source tree or inside the package."""
    for candidate in (REPO / "golden_sets" / "example", REPO / "evidencegate" / "data" / "example"):
        if (candidate / "golden.jsonl").is_file():
            return candidate
    raise FileNotFoundError("the example golden set is not in golden_sets/example")


class MissingData(Exception):
    """A set's corpus is absent: the set is skipped."""


@dataclass(frozen=True)
class GoldenSet:
    """A golden set, the store subfolder it runs on and how to ingest that store."""

    name: str
    golden: str
    """The golden-set file, relative to the golden-set directory (``golden_sets/``)."""
    store: str
    ingest: Callable[[Store, Path], None]
    """Ingest the corpus into an open store, reading shared data under the given directory."""


def _ingest_example(store: Store, shared: Path) -> None:
    store.ingest(sorted((example_dir() / "corpus").glob("*.md")), IngestOptions())


def _shared_file(shared: Path, *parts: str) -> Path:
    path = shared.joinpath(*parts)
    if not path.exists():
        raise MissingData(f"shared dataset {path} is absent (see {shared}/README.md or --shared)")
    return path


def _ingest_cfpb(store: Store, shared: Path) -> None:
    paragraphs = _shared_file(shared, "corpora", "cfpb_regml", "paragraphs.jsonl")
    mapping = REPO / "golden_sets" / "mappings" / "cfpb_regml.yaml"
    store.ingest([paragraphs], IngestOptions.from_mapping_file(mapping))


def _ingest_nist(store: Store, shared: Path) -> None:
    controls = _shared_file(shared, "corpora", "nist_sp800_53", "controls.jsonl")
    mapping = REPO / "golden_sets" / "mappings" / "nist_sp800_53.yaml"
    store.ingest([controls], IngestOptions.from_mapping_file(mapping))


def _ingest_financebench(store: Store, shared: Path) -> None:
    pdfs = _shared_file(shared, "corpora", "financebench", "pdfs")
    mappings = sorted((REPO / "golden_sets" / "mappings" / "financebench").glob("*.yaml"))
    missing = [m.stem for m in mappings if not (pdfs / f"{m.stem}.pdf").is_file()]
    if missing:
        raise MissingData(f"{pdfs} lacks {', '.join(f'{name}.pdf' for name in missing)}")
    for number, mapping in enumerate(mappings, start=1):
        note(f"  financebench {number}/{len(mappings)}: {mapping.stem}.pdf")
        store.ingest([pdfs / f"{mapping.stem}.pdf"], IngestOptions.from_mapping_file(mapping))


SETS: dict[str, GoldenSet] = {
    s.name: s
    for s in (
        GoldenSet("example", "example/golden.jsonl", "example", _ingest_example),
        GoldenSet("cfpb_regml", "cfpb_regml.jsonl", "cfpb", _ingest_cfpb),
        GoldenSet("nist_sp800_53", "nist_sp800_53.jsonl", "nist", _ingest_nist),
        GoldenSet("financebench", "financebench.jsonl", "fb", _ingest_financebench),
    )
}


def golden_path(golden_set: GoldenSet, golden_dir: Path | None) -> Path:
    """The set's file in ``golden_dir``, or the project's own (the example may be packaged)."""
    if golden_dir is not None:
        return golden_dir / golden_set.golden
    if golden_set.name == "example":
        return example_dir() / "golden.jsonl"
    return REPO / "golden_sets" / golden_set.golden


def note(message: str) -> None:
    print(f"[answers] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- stores


def prepare_store(golden_set: GoldenSet, args: argparse.Namespace, work: Path) -> Path:
    """The store directory to run ``golden_set`` on; MissingData when it cannot be had."""
    if args.stores is not None:
        prebuilt: Path = args.stores / golden_set.store
        if not (prebuilt / "evidencegate.sqlite3").is_file():
            raise MissingData(f"no prebuilt store at {prebuilt} (--stores)")
        copy = work / "stores" / golden_set.store
        shutil.copytree(prebuilt, copy, ignore=shutil.ignore_patterns("traces"))
        return copy
    cached: Path = args.cache / "answers" / golden_set.store
    if (cached / READY).is_file():
        return cached
    if cached.exists():
        shutil.rmtree(cached)  # an interrupted build: start again
    started = time.perf_counter()
    try:
        with Store.open(cached) as store:
            golden_set.ingest(store, args.shared)
    except BaseException:
        shutil.rmtree(cached, ignore_errors=True)
        raise
    (cached / READY).write_text(f"evidencegate {__version__}\n", encoding="utf-8")
    note(
        f"{golden_set.name}: corpus ingested into {cached} in {time.perf_counter() - started:.0f} s"
    )
    return cached


# --------------------------------------------------------------------------- table


@dataclass(frozen=True)
class Recall:
    """Required-evidence entries found in the initial retrieval, of those looked for."""

    found: int = 0
    total: int = 0

    def __add__(self, other: Recall) -> Recall:
        return Recall(self.found + other.found, self.total + other.total)


@dataclass(frozen=True)
class Row:
    label: str
    arm: Arm
    counts: AnswerCounts
    latencies: list[float]
    recall: Recall


def add_counts(parts: Sequence[AnswerCounts]) -> AnswerCounts:
    """Counts of several sets together (every field is a count)."""
    return AnswerCounts(
        **{name: sum(getattr(p, name) for p in parts) for name in AnswerCounts.model_fields}
    )


COLUMNS: tuple[tuple[str, Callable[[Row], str]], ...] = (
    ("set", lambda r: r.label),
    ("arm", lambda r: r.arm.value),
    ("items / runs", lambda r: f"{r.counts.items} / {r.counts.runs}"),
    ("correct (answerable)", lambda r: ratio(r.counts.correct, r.counts.answerable)),
    ("WRONG (all runs)", lambda r: ratio(r.counts.wrong, r.counts.runs)),
    ("abstained (answerable)", lambda r: ratio(r.counts.abstained, r.counts.answerable)),
    (
        "abstained (unanswerable)",
        lambda r: ratio(r.counts.correct_abstentions, r.counts.unanswerable),
    ),
    ("unscored", lambda r: ratio(r.counts.unscored, r.counts.answerable)),
    ("failed", lambda r: ratio(r.counts.failed, r.counts.runs)),
    ("unsupported claims", lambda r: ratio(r.counts.unsupported_claims, r.counts.claims)),
    ("superseded-version claims", lambda r: ratio(r.counts.stale_claims, r.counts.claims)),
    ("noise claims / answer", lambda r: per_answer(r.counts.noise_claims, r.counts.scored_answers)),
    (
        "paraphrase consistency",
        lambda r: ratio(r.counts.consistent_items, r.counts.paraphrased_items),
    ),
    ("evidence recall@k", lambda r: ratio(r.recall.found, r.recall.total)),
    ("latency p50", lambda r: f"{quantile(r.latencies, 0.5):.0f} ms" if r.latencies else "–"),
)


def render(rows: Sequence[Row]) -> str:
    lines = [
        "| " + " | ".join(name for name, _ in COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    lines += ["| " + " | ".join(show(row) for _, show in COLUMNS) + " |" for row in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- running


def run_set(
    golden_set: GoldenSet, args: argparse.Namespace, arms: list[Arm], work: Path, out: Path
) -> tuple[dict[Arm, list[ItemResult]], dict[Arm, Recall]]:
    golden = golden_path(golden_set, args.golden_dir)
    items = load_golden(golden)
    policy = load_policy(args.policy)
    if args.retriever is not None:
        policy = with_retrieval(policy, args.retriever)
    store_dir = prepare_store(golden_set, args, work)
    target = out / golden_set.name
    note(
        f"{golden_set.name}: {len(items)} items through {', '.join(a.value for a in arms)} "
        f"({policy.retrieval} retrieval)"
    )
    started = time.perf_counter()
    with Store.open(store_dir, create=False) as store:
        corpus = build_retriever(policy, store, cache_dir=args.dense_cache)
        results = run_ablation(
            items,
            corpus,
            policy=policy,
            arms=arms,
            concurrency=args.concurrency,
            trace_dir=target / "traces",
            paraphrases=not args.no_paraphrases,
        )
        variants = items if args.no_paraphrases else expand_paraphrases(items)
        recall = {arm: evidence_recall(results[arm], variants, store) for arm in arms}
    note(f"  {golden_set.name} ran in {time.perf_counter() - started:.0f} s")
    metrics = summarize(
        results,
        golden_set=golden.name,
        golden_sha256=sha256_hex(golden.read_bytes()),
        policy=policy.name,
        policy_sha256=policy.sha256(),
        evidencegate_version=__version__,
        resamples=200,
    )
    write_report(target, metrics, results)
    return results, recall


def evidence_recall(
    results: Sequence[ItemResult], items: Sequence[GoldenItem], store: Store
) -> Recall:
    """The required evidence of answerable runs found in their initial retrieval (read from
    each run's trace): a passage of the evidence's document (version and page when given)
    overlapping its quote on the page (any such passage when it gives no quote)."""
    by_id = {item.id: item for item in items}
    recall = Recall()
    for result in results:
        item = by_id.get(result.item_id)
        if item is None or not item.answerable or result.trace_path is None:
            continue
        initial = next(
            (
                line.event
                for line in read_trace(result.trace_path)
                if isinstance(line.event, RetrievalEvent)
            ),
            None,
        )
        refs = [] if initial is None else initial.results
        for evidence in item.required_evidence:
            found = any(_covers(ref, evidence, store) for ref in refs)
            recall += Recall(int(found), 1)
    return recall


def _covers(ref: RetrievedRef, evidence: RequiredEvidence, store: Store) -> bool:
    if ref.doc_id != evidence.doc_id or evidence.version not in (None, ref.version):
        return False
    if evidence.page not in (None, ref.page):
        return False
    if evidence.quote is None:
        return True
    source = store.lookup(ref.doc_id, ref.version, ref.page)
    if source is None:
        return False
    match = locate_quote(source.page.text, evidence.quote)
    if not isinstance(match, QuoteMatch):
        return False
    return match.char_start < ref.char_end and ref.char_start < match.char_end


def _arms(parser: argparse.ArgumentParser, text: str) -> list[Arm]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    known = [a.value for a in Arm]
    if not names or len(set(names)) != len(names) or not set(names) <= set(known):
        parser.error(f"--arms {text!r}: give distinct arms among {', '.join(known)}")
    return [Arm(n) for n in names]


def _sets(parser: argparse.ArgumentParser, text: str) -> list[GoldenSet]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names or not set(names) <= set(SETS):
        parser.error(f"--sets {text!r}: give sets among {', '.join(SETS)}")
    return [SETS[n] for n in dict.fromkeys(names)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="benchmarks/answers.py",
        description="Answer quality (correct / wrong / abstained, k/n) on the golden sets.",
    )
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated golden sets")
    parser.add_argument("--arms", default=Arm.GROUNDED_FOLLOWUP.value, help="comma-separated")
    parser.add_argument("--stores", type=Path, help="prebuilt stores: DIR/{example,cfpb,nist,fb}")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where stores are built")
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED, help="shared datasets")
    parser.add_argument("--out", type=Path, help="keep the ablation outputs in DIR/SET")
    parser.add_argument(
        "--golden-dir",
        type=Path,
        help="read the golden sets from DIR (DIR/cfpb_regml.jsonl, DIR/example/golden.jsonl, "
        "...) instead of the project's, e.g. a held-out set",
    )
    parser.add_argument("--policy", default=None, help="policy file or builtin name")
    parser.add_argument(
        "--retriever",
        choices=["bm25", "hybrid"],
        default=None,
        help="override the policy's retrieval (hybrid: pip install 'evidencegate[dense]')",
    )
    parser.add_argument(
        "--dense-cache",
        type=Path,
        default=DEFAULT_CACHE / "dense",
        help="where the hybrid retriever caches passage embeddings",
    )
    parser.add_argument("--concurrency", type=int, default=1, metavar="N")
    parser.add_argument("--no-paraphrases", action="store_true", help="only the items' questions")
    args = parser.parse_args(argv)
    arms, sets = _arms(parser, args.arms), _sets(parser, args.sets)
    if args.concurrency < 1:
        parser.error(f"--concurrency must be >= 1 (got {args.concurrency})")
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    started = time.perf_counter()
    rows: list[Row] = []
    by_arm: dict[Arm, list[ItemResult]] = {arm: [] for arm in arms}
    recalls: dict[Arm, Recall] = {arm: Recall() for arm in arms}
    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="evidencegate-answers-") as tmp:
        work = Path(tmp)
        out = args.out or work / "out"
        for golden_set in sets:
            try:
                results, recall = run_set(golden_set, args, arms, work, out)
            except MissingData as exc:
                note(f"SKIPPED {golden_set.name}: {exc}")
                skipped.append(golden_set.name)
                continue
            except (EvidenceGateError, OSError) as exc:
                print(f"error: {golden_set.name}: {exc}", file=sys.stderr)
                return 2
            for arm in arms:
                by_arm[arm] += results[arm]
                recalls[arm] += recall[arm]
                rows.append(
                    Row(
                        golden_set.name,
                        arm,
                        answer_counts(results[arm]),
                        [r.latency_ms for r in results[arm]],
                        recall[arm],
                    )
                )
    if not rows:
        print("error: every golden set was skipped (see the messages above)", file=sys.stderr)
        return 2
    if len(rows) > len(arms):
        for arm in arms:
            counts = add_counts([r.counts for r in rows if r.arm is arm])
            latencies = [r.latency_ms for r in by_arm[arm]]
            rows.append(Row("overall", arm, counts, latencies, recalls[arm]))
    print(
        f"evidencegate {__version__} answers benchmark: {platform.platform()}, Python "
        f"{platform.python_version()}, {os.cpu_count()} CPU cores; "
        f"took {time.perf_counter() - started:.0f} s"
        + (f"; skipped: {', '.join(skipped)}" if skipped else "")
        + "\n"
    )
    print(render(rows))
    if args.out is not None:
        print(f"\nablation outputs (report.html per set): {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
