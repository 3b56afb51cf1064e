"""The authored example corpus and its golden set are well-formed and agree with each other.

The corpus is package data in ``evidencegate/data/example/corpus/*.md`` (YAML front matter, then
a body whose pages are separated by form feeds); the golden set in ``.../example/golden.jsonl``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLE_CORPUS

CORPUS_DIR = EXAMPLE_CORPUS / "corpus"
GOLDEN_PATH = EXAMPLE_CORPUS / "golden.jsonl"

REQUIRED_KEYS = {"doc_id", "version", "version_date", "authority", "title"}
OPTIONAL_KEYS = {"effective_from"}
AUTHORITIES = {"primary", "secondary"}

ITEM_KEYS = {
    "id",
    "question",
    "as_of",
    "category",
    "task",
    "expected_answer_notes",
    "required_evidence",
    "forbidden_sources",
}
EVIDENCE_KEYS = {"claim", "doc_id", "version", "quote"}
SOURCE_KEYS = {"doc_id", "version"}
CATEGORIES = {"factual", "multi_hop", "stale_trap", "primary_required", "unanswerable"}
TASKS = {"open", "closed"}
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MIN_QUOTE_CHARS = 40

# The key figure of each version of the policies that changed, and the secondary FAQ that still
# states the superseded figures.
CHANGED_FIGURES = {
    "HSB-POL-007": {"2022.1": "$100", "2024.1": "$150"},
    "HSB-POL-012": {"2021.2": "5 business days", "2023.1": "3 business days"},
}
OUTDATED_FAQ = ("HSB-FAQ-003", "2024.1")

NUMBER = re.compile(r"\d[\d,]*")

Key = tuple[str, str]


@dataclass(frozen=True)
class CorpusDoc:
    """One Markdown file of the corpus: its front matter and its body (front matter excluded)."""

    path: Path
    doc_id: str
    version: str
    version_date: dt.date
    effective_from: dt.date
    authority: str
    title: str
    body: str

    @property
    def key(self) -> Key:
        return (self.doc_id, self.version)

    @property
    def pages(self) -> list[str]:
        return self.body.split("\f")


def _split_front_matter(path: Path) -> tuple[dict[str, Any], str]:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ValueError(f"{path.name}: does not start with a '---' front matter line")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise ValueError(f"{path.name}: front matter is not closed by a '---' line")
    header = yaml.safe_load(text[4:end])
    if not isinstance(header, dict):
        raise ValueError(f"{path.name}: front matter is not a mapping")
    return header, text[end + len("\n---\n") :]


def _as_date(path: Path, key: str, value: object) -> dt.date:
    # PyYAML turns an unquoted YYYY-MM-DD into a date; a datetime or anything else is an error.
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
        raise ValueError(f"{path.name}: {key}={value!r} is not a YYYY-MM-DD date")
    return value


def _load_doc(path: Path) -> CorpusDoc:
    header, body = _split_front_matter(path)
    missing = REQUIRED_KEYS - header.keys()
    unknown = header.keys() - REQUIRED_KEYS - OPTIONAL_KEYS
    if missing or unknown:
        raise ValueError(f"{path.name}: missing keys {sorted(missing)}, unknown {sorted(unknown)}")
    for key in ("doc_id", "version", "authority", "title"):
        if not isinstance(header[key], str) or not header[key]:
            raise ValueError(f"{path.name}: {key}={header[key]!r} is not a non-empty string")
    version_date = _as_date(path, "version_date", header["version_date"])
    effective_from = _as_date(
        path, "effective_from", header.get("effective_from", header["version_date"])
    )
    return CorpusDoc(
        path=path,
        doc_id=header["doc_id"],
        version=header["version"],
        version_date=version_date,
        effective_from=effective_from,
        authority=header["authority"],
        title=header["title"],
        body=body,
    )


def _load_golden(path: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        item = json.loads(line)
        if not isinstance(item, dict):
            raise ValueError(f"{path.name}:{line_no}: not a JSON object")
        items.append(item)
    return items


def _figure_pattern(figure: str) -> re.Pattern[str]:
    """Match ``figure`` as a whole amount: "$100" must not match "$1000" nor "5" match "15"."""
    return re.compile(r"(?<![\d.,])" + re.escape(figure) + r"(?![\d,])")


def _effective_to(corpus: dict[Key, CorpusDoc], doc: CorpusDoc) -> dt.date | None:
    """Exclusive end of ``doc``'s period: the start of the next version of the same doc_id."""
    later = [
        other.effective_from
        for other in corpus.values()
        if other.doc_id == doc.doc_id and other.effective_from > doc.effective_from
    ]
    return min(later, default=None)


def _in_force(corpus: dict[Key, CorpusDoc], doc: CorpusDoc, as_of: dt.date) -> bool:
    end = _effective_to(corpus, doc)
    return doc.effective_from <= as_of and (end is None or as_of < end)


def _sources(entries: list[dict[str, str]]) -> set[Key]:
    return {(entry["doc_id"], entry["version"]) for entry in entries}


@pytest.fixture(scope="module")
def corpus() -> dict[Key, CorpusDoc]:
    docs: dict[Key, CorpusDoc] = {}
    for path in sorted(CORPUS_DIR.glob("*.md")):
        doc = _load_doc(path)
        if doc.key in docs:
            raise ValueError(f"{path.name}: {doc.doc_id}@{doc.version} is defined twice")
        docs[doc.key] = doc
    return docs


@pytest.fixture(scope="module")
def golden() -> list[dict[str, Any]]:
    return _load_golden(GOLDEN_PATH)


@pytest.fixture(scope="module")
def answerable(golden: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item for item in golden if item["category"] != "unanswerable"]


class TestCorpusFiles:
    def test_every_file_parses_with_required_keys_and_valid_dates(self) -> None:
        """Each corpus file has front matter with the required keys, string fields and dates."""
        paths = sorted(CORPUS_DIR.glob("*.md"))
        assert paths, f"no corpus files under {CORPUS_DIR}"
        problems = []
        for path in paths:
            try:
                _load_doc(path)
            except ValueError as exc:
                problems.append(str(exc))
        assert problems == []

    def test_authority_is_primary_or_secondary(self, corpus: dict[Key, CorpusDoc]) -> None:
        """Every document declares an authority of primary or secondary."""
        bad = {
            key: doc.authority for key, doc in corpus.items() if doc.authority not in AUTHORITIES
        }
        assert bad == {}

    def test_corpus_holds_both_authorities(self, corpus: dict[Key, CorpusDoc]) -> None:
        """The corpus contains primary policies and at least one secondary document."""
        assert {doc.authority for doc in corpus.values()} == AUTHORITIES

    def test_corpus_has_five_to_seven_documents(self, corpus: dict[Key, CorpusDoc]) -> None:
        """The corpus holds between 5 and 7 distinct documents (doc_ids)."""
        assert 5 <= len({doc.doc_id for doc in corpus.values()}) <= 7

    def test_every_version_has_two_to_four_non_empty_pages(
        self, corpus: dict[Key, CorpusDoc]
    ) -> None:
        """Each document version has 2 to 4 form-feed-separated pages, none of them blank."""
        bad = {
            key: [len(page.strip()) for page in doc.pages]
            for key, doc in corpus.items()
            if not 2 <= len(doc.pages) <= 4 or any(not page.strip() for page in doc.pages)
        }
        assert bad == {}

    def test_effective_from_is_not_before_version_date(self, corpus: dict[Key, CorpusDoc]) -> None:
        """No version takes effect before the date of the version itself."""
        bad = [key for key, doc in corpus.items() if doc.effective_from < doc.version_date]
        assert bad == []

    def test_versions_of_one_document_start_on_distinct_dates(
        self, corpus: dict[Key, CorpusDoc]
    ) -> None:
        """Two versions of the same doc_id never take effect on the same day."""
        starts: dict[str, list[dt.date]] = defaultdict(list)
        for doc in corpus.values():
            starts[doc.doc_id].append(doc.effective_from)
        assert {d: s for d, s in starts.items() if len(s) != len(set(s))} == {}


class TestChangedPolicies:
    def test_each_version_states_its_own_key_figure(self, corpus: dict[Key, CorpusDoc]) -> None:
        """Every version of a changed policy states its key figure in its body."""
        missing = [
            (doc_id, version, figure)
            for doc_id, figures in CHANGED_FIGURES.items()
            for version, figure in figures.items()
            if (doc_id, version) not in corpus
            or not _figure_pattern(figure).search(corpus[(doc_id, version)].body)
        ]
        assert missing == []

    def test_versions_differ_in_the_key_figure(self, corpus: dict[Key, CorpusDoc]) -> None:
        """No version of a changed policy states the key figure of another version."""
        leaks = [
            (doc_id, version, figure)
            for doc_id, figures in CHANGED_FIGURES.items()
            for version in figures
            for other, figure in figures.items()
            if other != version and _figure_pattern(figure).search(corpus[(doc_id, version)].body)
        ]
        assert all(len(set(f.values())) == len(f) for f in CHANGED_FIGURES.values())
        assert leaks == []

    def test_secondary_faq_states_the_superseded_figures(
        self, corpus: dict[Key, CorpusDoc]
    ) -> None:
        """The secondary FAQ contradicts the primary in force on its date with old figures."""
        faq = corpus[OUTDATED_FAQ]
        assert faq.authority == "secondary"
        for doc_id, figures in CHANGED_FIGURES.items():
            current = [
                corpus[(doc_id, v)]
                for v in figures
                if _in_force(corpus, corpus[(doc_id, v)], faq.version_date)
            ]
            assert len(current) == 1, f"{doc_id}: one version in force on {faq.version_date}"
            in_force_figure = figures[current[0].version]
            outdated = [f for v, f in figures.items() if v != current[0].version]
            assert not _figure_pattern(in_force_figure).search(faq.body)
            assert any(_figure_pattern(f).search(faq.body) for f in outdated)


class TestGoldenItems:
    def test_item_count(self, golden: list[dict[str, Any]]) -> None:
        """The golden set holds 12 to 20 items."""
        assert 12 <= len(golden) <= 20

    def test_items_have_exactly_the_schema_fields(self, golden: list[dict[str, Any]]) -> None:
        """Every item has exactly the golden-set fields with the right types."""
        problems: list[tuple[object, ...]] = []
        for item in golden:
            name = item.get("id", item)
            if set(item) != ITEM_KEYS:
                problems.append((name, sorted(set(item) ^ ITEM_KEYS)))
                continue
            for key in ("id", "question", "as_of", "expected_answer_notes"):
                if not isinstance(item[key], str) or not item[key].strip():
                    problems.append((name, key))
            for entry in item["required_evidence"]:
                if set(entry) != EVIDENCE_KEYS or not all(
                    isinstance(v, str) and v for v in entry.values()
                ):
                    problems.append((name, entry))
            for entry in item["forbidden_sources"]:
                if set(entry) != SOURCE_KEYS:
                    problems.append((name, entry))
        assert problems == []

    def test_ids_are_unique(self, golden: list[dict[str, Any]]) -> None:
        """No two items share an id."""
        ids = [item["id"] for item in golden]
        assert len(ids) == len(set(ids))

    def test_category_and_task_are_from_their_enums(self, golden: list[dict[str, Any]]) -> None:
        """Every category and task value is one of the allowed values."""
        bad = [
            item["id"]
            for item in golden
            if item["category"] not in CATEGORIES or item["task"] not in TASKS
        ]
        assert bad == []

    def test_as_of_is_an_iso_date(self, golden: list[dict[str, Any]]) -> None:
        """Every as_of is a valid YYYY-MM-DD calendar date."""
        bad = []
        for item in golden:
            try:
                valid = bool(ISO_DATE.match(item["as_of"]))
                dt.date.fromisoformat(item["as_of"])
            except ValueError:
                valid = False
            if not valid:
                bad.append(item["id"])
        assert bad == []

    def test_every_category_is_covered(self, golden: list[dict[str, Any]]) -> None:
        """Each category appears, and at least 3 items are unanswerable."""
        counts = defaultdict(int, {c: 0 for c in CATEGORIES})
        for item in golden:
            counts[item["category"]] += 1
        assert min(counts.values()) >= 1
        assert counts["unanswerable"] >= 3

    def test_only_unanswerable_items_lack_evidence(self, golden: list[dict[str, Any]]) -> None:
        """Unanswerable items require no evidence; every other item requires some."""
        bad = [
            item["id"]
            for item in golden
            if (item["category"] == "unanswerable") == bool(item["required_evidence"])
        ]
        assert bad == []


class TestRequiredEvidence:
    def test_quotes_are_exact_substrings_of_one_page_of_the_named_version(
        self, corpus: dict[Key, CorpusDoc], answerable: list[dict[str, Any]]
    ) -> None:
        """Each quote occurs verbatim, exactly once, within a single page of its doc_id@version."""
        problems: list[tuple[object, ...]] = []
        for item in answerable:
            for ev in item["required_evidence"]:
                doc = corpus.get((ev["doc_id"], ev["version"]))
                if doc is None:
                    problems.append((item["id"], "unknown source", ev["doc_id"], ev["version"]))
                    continue
                on_pages = sum(page.count(ev["quote"]) for page in doc.pages)
                if on_pages != 1 or doc.body.count(ev["quote"]) != 1:
                    problems.append((item["id"], "quote found", on_pages, ev["quote"]))
        assert problems == []

    def test_quotes_are_full_length_sentences(self, answerable: list[dict[str, Any]]) -> None:
        """Each quote is at least 40 characters long and ends with a period."""
        short = [
            (item["id"], ev["quote"])
            for item in answerable
            for ev in item["required_evidence"]
            if len(ev["quote"]) < MIN_QUOTE_CHARS or not ev["quote"].endswith(".")
        ]
        assert short == []

    def test_claim_numbers_appear_in_the_quote(self, answerable: list[dict[str, Any]]) -> None:
        """Every number in a claim also appears in the quote that supports it."""
        bad = [
            (item["id"], ev["claim"])
            for item in answerable
            for ev in item["required_evidence"]
            if not set(NUMBER.findall(ev["claim"])) <= set(NUMBER.findall(ev["quote"]))
        ]
        assert bad == []

    def test_evidence_comes_from_primary_sources_in_force(
        self, corpus: dict[Key, CorpusDoc], answerable: list[dict[str, Any]]
    ) -> None:
        """Required evidence cites only primary versions in force on the item's as_of date."""
        bad = []
        for item in answerable:
            as_of = dt.date.fromisoformat(item["as_of"])
            for key in _sources(item["required_evidence"]):
                doc = corpus[key]
                if doc.authority != "primary" or not _in_force(corpus, doc, as_of):
                    bad.append((item["id"], key))
        assert bad == []


class TestForbiddenSources:
    def test_every_forbidden_source_exists(
        self, corpus: dict[Key, CorpusDoc], golden: list[dict[str, Any]]
    ) -> None:
        """Every forbidden doc_id@version names a document of the corpus."""
        unknown = [
            (item["id"], key)
            for item in golden
            for key in _sources(item["forbidden_sources"])
            if key not in corpus
        ]
        assert unknown == []

    def test_no_source_is_both_required_and_forbidden(self, golden: list[dict[str, Any]]) -> None:
        """An item never forbids a source it requires."""
        both = [
            item["id"]
            for item in golden
            if _sources(item["required_evidence"]) & _sources(item["forbidden_sources"])
        ]
        assert both == []


class TestStaleTraps:
    @pytest.fixture
    def traps(self, golden: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [item for item in golden if item["category"] == "stale_trap"]

    def test_as_of_falls_inside_the_expected_version_period(
        self, corpus: dict[Key, CorpusDoc], traps: list[dict[str, Any]]
    ) -> None:
        """A trap's as_of is on or after its version's start and before the next version's."""
        outside = []
        for item in traps:
            as_of = dt.date.fromisoformat(item["as_of"])
            for key in _sources(item["required_evidence"]):
                doc = corpus[key]
                end = _effective_to(corpus, doc)
                if not (doc.effective_from <= as_of and (end is None or as_of < end)):
                    outside.append((item["id"], key, as_of, doc.effective_from, end))
        assert outside == []

    def test_each_trap_forbids_the_other_versions(
        self, corpus: dict[Key, CorpusDoc], traps: list[dict[str, Any]]
    ) -> None:
        """A trap forbids every other version of the document whose version it expects."""
        missing = []
        for item in traps:
            for doc_id, version in _sources(item["required_evidence"]):
                others = {k for k in corpus if k[0] == doc_id and k[1] != version}
                if not others or not others <= _sources(item["forbidden_sources"]):
                    missing.append((item["id"], doc_id, version))
        assert missing == []

    def test_expected_quote_states_its_versions_key_figure_only_there(
        self, corpus: dict[Key, CorpusDoc], traps: list[dict[str, Any]]
    ) -> None:
        """A trap's quote holds its version's key figure and occurs in no other version of it."""
        bad: list[tuple[object, ...]] = []
        for item in traps:
            for ev in item["required_evidence"]:
                figure = CHANGED_FIGURES[ev["doc_id"]][ev["version"]]
                if not _figure_pattern(figure).search(ev["quote"]):
                    bad.append((item["id"], "figure", figure))
                for key in _sources(item["forbidden_sources"]):
                    if key[0] == ev["doc_id"] and ev["quote"] in corpus[key].body:
                        bad.append((item["id"], "quote in forbidden", key))
        assert bad == []

    def test_every_version_of_a_changed_policy_is_trapped(
        self, traps: list[dict[str, Any]]
    ) -> None:
        """Both sides of every change are asked about: one trap per version at least."""
        trapped = {key for item in traps for key in _sources(item["required_evidence"])}
        expected = {(d, v) for d, figures in CHANGED_FIGURES.items() for v in figures}
        assert expected <= trapped


class TestPrimaryRequired:
    def test_each_item_forbids_a_conflicting_secondary_source(
        self, corpus: dict[Key, CorpusDoc], golden: list[dict[str, Any]]
    ) -> None:
        """A primary_required item forbids a secondary source that does not state its quote."""
        items = [item for item in golden if item["category"] == "primary_required"]
        assert items
        bad = []
        for item in items:
            secondaries = [
                corpus[key]
                for key in _sources(item["forbidden_sources"])
                if corpus[key].authority == "secondary"
            ]
            quotes = [ev["quote"] for ev in item["required_evidence"]]
            if not secondaries or any(q in s.body for q in quotes for s in secondaries):
                bad.append(item["id"])
        assert bad == []
