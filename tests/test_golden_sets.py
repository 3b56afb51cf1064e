"""Every golden set is valid, and every item holds against the real data it was written from.

For each item with required evidence: the cited doc_id@version exists, is in force on the item's
as-of date, has the cited page, and the quote is on that page (located with the verifier's own
``locate_quote``, so normalisation-insensitive). Forbidden sources exist. The real corpora are
read from ../shared/datasets (skipped when absent, failing under EVIDENCEGATE_REQUIRE_SHARED=1).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from functools import cache

import pytest
from conftest import EXAMPLE_CORPUS, REPO_ROOT, shared_path
from pypdf import PdfReader

from evidencegate.corpus import IngestOptions, Store
from evidencegate.evals.golden import Category, GoldenItem, load_golden
from evidencegate.verify.quotes import QuoteMatch, locate_quote

GOLDEN_DIR = REPO_ROOT / "golden_sets"
MAPPINGS = GOLDEN_DIR / "mappings"
SIZES = {"cfpb_regml.jsonl": 30, "nist_sp800_53.jsonl": 20, "financebench.jsonl": 20}


def check_against_store(item: GoldenItem, store: Store) -> None:
    """The item's required and forbidden sources, checked against a store."""
    for evidence in item.required_evidence:
        assert evidence.version is not None and evidence.page is not None and evidence.quote
        cited = f"{evidence.doc_id}@{evidence.version} page {evidence.page}"
        source = store.lookup(evidence.doc_id, evidence.version, evidence.page)
        assert source is not None, f"{item.id}: {cited} is not in the store"
        assert source.document.in_force(item.as_of), f"{item.id}: {cited} not in force"
        located = locate_quote(source.page.text, evidence.quote)
        assert isinstance(located, QuoteMatch), f"{item.id}: quote not on {cited}"
    for forbidden in item.forbidden_sources:
        if forbidden.version is None:
            assert store.versions(forbidden.doc_id), f"{item.id}: no {forbidden.doc_id}"
        else:
            assert store.document(forbidden.doc_id, forbidden.version) is not None, (
                f"{item.id}: forbidden {forbidden.doc_id}@{forbidden.version} does not exist"
            )


def items_of(name: str) -> list[GoldenItem]:
    return load_golden(GOLDEN_DIR / name)


class TestGoldenFiles:
    @pytest.mark.parametrize("name", sorted(SIZES))
    def test_golden_set_is_valid_and_large_enough(self, name: str) -> None:
        """Each golden set validates and has at least the promised number of items."""
        items = items_of(name)
        assert len(items) >= SIZES[name]
        assert {i.category for i in items} >= {Category.STALE_TRAP, Category.UNANSWERABLE}

    def test_every_required_entry_is_fully_cited(self) -> None:
        """Real-data items name version, page and quote for every required entry."""
        for name in SIZES:
            for item in items_of(name):
                for e in item.required_evidence:
                    assert e.version and e.page and e.quote, f"{name} {item.id}: {e.doc_id}"


@pytest.fixture(scope="module")
def nist_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    source = shared_path("corpora", "nist_sp800_53", "controls.jsonl")
    store = Store.open(tmp_path_factory.mktemp("nist") / "store")
    store.ingest([source], IngestOptions.from_mapping_file(MAPPINGS / "nist_sp800_53.yaml"))
    yield store
    store.close()


class TestExampleItems:
    @pytest.mark.parametrize(
        "item", load_golden(EXAMPLE_CORPUS / "golden.jsonl"), ids=lambda i: i.id
    )
    def test_item_holds_against_the_example_corpus(
        self, example_store: Store, item: GoldenItem
    ) -> None:
        """Required quotes are on an in-force page of the named version (pages searched when
        the example item names none); forbidden sources exist."""
        for evidence in item.required_evidence:
            assert evidence.version is not None and evidence.quote is not None
            document = example_store.document(evidence.doc_id, evidence.version)
            assert document is not None and document.in_force(item.as_of)
            pages = [
                example_store.lookup(evidence.doc_id, evidence.version, n)
                for n in range(1, document.pages + 1)
            ]
            assert any(
                p is not None and isinstance(locate_quote(p.page.text, evidence.quote), QuoteMatch)
                for p in pages
            ), f"{item.id}: quote not in {evidence.doc_id}@{evidence.version}"
        for forbidden in item.forbidden_sources:
            assert example_store.versions(forbidden.doc_id)


class TestCfpbItems:
    @pytest.mark.parametrize("item", items_of("cfpb_regml.jsonl"), ids=lambda i: i.id)
    def test_item_holds_against_the_regulations(self, cfpb_store: Store, item: GoldenItem) -> None:
        """Each CFPB item's evidence is on an in-force page of the named version."""
        check_against_store(item, cfpb_store)

    def test_threshold_traps_span_every_regulation_m_version(self) -> None:
        """The Reg M threshold items are asked in each yearly version's window, 2012 to 2018."""
        years = {
            i.as_of.year
            for i in items_of("cfpb_regml.jsonl")
            if i.category is Category.STALE_TRAP
            and any(e.doc_id == "12 CFR 1013" for e in i.required_evidence)
        }
        assert years == set(range(2012, 2019))


class TestNistItems:
    @pytest.mark.parametrize("item", items_of("nist_sp800_53.jsonl"), ids=lambda i: i.id)
    def test_item_holds_against_the_catalogs(self, nist_store: Store, item: GoldenItem) -> None:
        """Each NIST item's evidence is on an in-force page of rev4 or rev5."""
        check_against_store(item, nist_store)


@cache
def filing(stem: str) -> tuple[IngestOptions, PdfReader]:
    options = IngestOptions.from_mapping_file(MAPPINGS / "financebench" / f"{stem}.yaml")
    pdf = shared_path("corpora", "financebench", "pdfs", f"{stem}.pdf")
    return options, PdfReader(io.BytesIO(pdf.read_bytes()))


@cache
def gold_pages() -> dict[str, set[tuple[str, int]]]:
    """FinanceBench question id -> its gold evidence (doc_id, 1-based page)."""
    path = shared_path("corpora", "financebench", "financebench_gold_150.jsonl")
    gold: dict[str, set[tuple[str, int]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        gold[row["id"]] = {(e["doc_id"], e["page_index0"] + 1) for e in row["evidence"]}
    return gold


class TestFinanceBenchItems:
    @pytest.mark.parametrize("item", items_of("financebench.jsonl"), ids=lambda i: i.id)
    def test_item_holds_against_the_filings(self, item: GoldenItem) -> None:
        """Each quote is on the cited page of the PDF as pypdf extracts it (the text the quotes
        were written from; benchmarks/ingest.py compares the default extractor, pypdfium2); the
        version is the mapping's and its filing date is on or before as_of."""
        for evidence in item.required_evidence:
            assert evidence.page is not None and evidence.quote is not None
            options, reader = filing(evidence.doc_id)
            assert options.doc_id == evidence.doc_id and options.version == evidence.version
            assert options.version_date is not None and options.version_date <= item.as_of
            text = reader.pages[evidence.page - 1].extract_text()
            located = locate_quote(text, evidence.quote)
            assert isinstance(located, QuoteMatch), f"{item.id}: quote not on page {evidence.page}"
        for forbidden in item.forbidden_sources:
            options, _ = filing(forbidden.doc_id)
            assert forbidden.version in (None, options.version)

    @pytest.mark.parametrize("item", items_of("financebench.jsonl"), ids=lambda i: i.id)
    def test_item_cites_the_gold_evidence_page(self, item: GoldenItem) -> None:
        """An item built from a FinanceBench question cites one of its gold evidence pages."""
        ids = re.findall(r"financebench_id_\d+", item.expected_answer_notes)
        for question_id in ids:
            gold = gold_pages()[question_id]
            cited = {(e.doc_id, e.page) for e in item.required_evidence}
            assert cited & gold, f"{item.id}: cites {cited}, gold pages are {gold}"


def test_example_items_cover_every_category() -> None:
    """The example set exercises all five categories."""
    assert {i.category for i in load_golden(EXAMPLE_CORPUS / "golden.jsonl")} == set(Category)


def test_golden_dir_holds_exactly_the_known_sets() -> None:
    """A new golden set must be added to this test (and to SIZES) deliberately."""
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.jsonl")) == sorted(SIZES)
