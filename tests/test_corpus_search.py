"""Passages, the safe FTS5 query, and searching the store as of a date."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import GIFTS_V1, GIFTS_V2

from evidencegate.contracts import Passage
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.index import analyze, query_stems
from evidencegate.corpus.passages import MAX_PASSAGE_CHARS, passage_id, split_passages
from evidencegate.corpus.query import query_terms
from evidencegate.exceptions import UsageError
from evidencegate.protocols import Retriever, SourceLookup

FAQ = """---
doc_id: FAQ-GIFTS
version: "1"
version_date: 2022-06-01
authority: secondary
title: Staff FAQ
---
Can I accept a gift? Yes, a gift of up to $100 may be accepted.
"""


def write(directory: Path, name: str, content: str) -> Path:
    path = directory / name
    path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store with two versions of a gifts policy (primary) and a FAQ (secondary)."""
    paths = [write(tmp_path, n, c) for n, c in (("v1.md", GIFTS_V1), ("v2.md", GIFTS_V2))]
    with Store.open(tmp_path / "store") as opened:
        opened.ingest([*paths, write(tmp_path, "faq.md", FAQ)])
        yield opened


def assert_offsets(store: Store, passages: list[Passage], tenant: str | None = None) -> None:
    for passage in passages:
        source = store.lookup(passage.doc_id, passage.version, passage.page, tenant=tenant)
        assert source is not None
        assert source.page.text[passage.char_start : passage.char_end] == passage.text


class TestSplitPassages:
    def test_short_text_is_one_stripped_passage(self) -> None:
        """A page shorter than the limit is one passage without surrounding whitespace."""
        text = "\n  A short page.\n\nWith two paragraphs.  \n"
        (span,) = split_passages(text)
        assert text[span[0] : span[1]] == "A short page.\n\nWith two paragraphs."

    def test_long_text_splits_at_paragraphs_then_sentences(self) -> None:
        """Long text is cut at blank lines or sentence ends, each passage within the limit."""
        sentence = "This sentence is about forty characters. "
        paragraph = (sentence * 20).strip()
        text = "\n\n".join([paragraph, paragraph, "Short tail."])
        spans = split_passages(text, max_chars=300)
        assert len(spans) > 3
        for start, end in spans:
            piece = text[start:end]
            assert len(piece) <= 300
            assert piece == piece.strip()
            assert piece.endswith(".")
        assert text[spans[-1][0] : spans[-1][1]].endswith("Short tail.")

    def test_text_without_boundaries_is_cut_at_whitespace_or_hard(self) -> None:
        """Runs without sentence ends break between words; runs without whitespace are cut."""
        text = ("word " * 100) + "x" * 250
        pieces = [text[start:end] for start, end in split_passages(text, max_chars=100)]
        assert all(len(piece) <= 100 for piece in pieces)
        assert all(re.fullmatch(r"(word( word)*)?( ?x+)?", piece) for piece in pieces)
        assert "".join(pieces).count("x") == 250

    @pytest.mark.parametrize("max_chars", [1, 7, 50, MAX_PASSAGE_CHARS])
    def test_spans_cover_all_text_in_order(self, max_chars: int) -> None:
        """Spans are ordered, disjoint, within the limit, and hold every non-space character."""
        text = "Para one. Still one!\n\n\nPara two?\nline\t two.\f" + "ü" * 120 + " end"
        spans = split_passages(text, max_chars=max_chars)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
        assert all(0 < end - start <= max_chars for start, end in spans)
        covered = "".join(text[start:end] for start, end in spans)
        assert re.sub(r"\s", "", covered) == re.sub(r"\s", "", text)

    def test_blank_text_has_no_passages(self) -> None:
        """Whitespace-only text yields no passage."""
        assert split_passages(" \n\f\t") == []

    def test_passage_id_is_a_content_hash(self) -> None:
        """The id is 24 hex characters that change with any of its inputs."""
        base = passage_id("D", "v1", 1, 0, 5, "Hello")
        assert re.fullmatch(r"[0-9a-f]{24}", base)
        assert base == passage_id("D", "v1", 1, 0, 5, "Hello")
        others = {
            passage_id("D", "v2", 1, 0, 5, "Hello"),
            passage_id("D", "v1", 2, 0, 5, "Hello"),
            passage_id("D", "v1", 1, 1, 6, "Hello"),
            passage_id("D", "v1", 1, 0, 5, "Hallo"),
        }
        assert base not in others and len(others) == 4


class TestQueryTerms:
    def test_terms_are_content_words_without_stopwords_or_repeats(self) -> None:
        """Content words in order of first appearance; stopwords and repeats are dropped."""
        assert query_terms("What is the gift limit for the gift register?") == [
            "gift",
            "limit",
            "register",
        ]
        assert query_stems("What is the gift limit for the gift registers?") == [
            "gift",
            "limit",
            "regist",
        ]

    def test_search_syntax_in_the_question_is_plain_text(self) -> None:
        """Operators, quotes, stars and column filters in user text are plain words."""
        assert query_terms('"foo" OR bar* NEAR( text:baz ^qux') == [
            "foo",
            "bar",
            "near",
            "text",
            "baz",
            "qux",
        ]

    def test_a_question_of_stopwords_has_no_terms(self) -> None:
        """Only stopwords and punctuation give no query at all."""
        assert query_stems("what is it? -- (and) *") == []

    def test_accents_are_removed_and_words_stemmed_like_the_index(self) -> None:
        """Query and index share one analyser: accents folded, Porter stems."""
        assert analyze("Gebühren REQUIREMENTS") == ["gebuhren", "requir"]

    def test_numbers_and_accents_are_terms(self) -> None:
        """Digits and non-ASCII letters are kept as terms, split like the unicode61 tokenizer."""
        assert query_terms("Gebühr $53,500 in § 1013.2(e)") == [
            "gebühr",
            "53",
            "500",
            "1013",
            "2",
            "e",
        ]


class TestSearch:
    def test_store_implements_the_protocols(self, store: Store) -> None:
        """The store is a Retriever and a SourceLookup."""
        assert isinstance(store, Retriever)
        assert isinstance(store, SourceLookup)

    def test_as_of_selects_the_version_in_force(self, store: Store) -> None:
        """Before the new version's date the old text is found; from that date on the new one."""
        before = store.search("gift value limit", as_of=dt.date(2024, 2, 29), doc_ids=["POL-GIFTS"])
        after = store.search("gift value limit", as_of=dt.date(2024, 3, 1), doc_ids=["POL-GIFTS"])
        assert {p.version for p in before} == {"2022.1"}
        assert {p.version for p in after} == {"2024.1"}
        assert any("$150" in p.text for p in after)
        assert not any("$150" in p.text for p in before)

    def test_nothing_is_in_force_before_the_first_version(self, store: Store) -> None:
        """A date before every version's effective_from finds nothing."""
        assert store.search("gift", as_of=dt.date(2021, 12, 31)) == []

    def test_authority_filter(self, store: Store) -> None:
        """Restricting to primary sources excludes the secondary FAQ, and vice versa."""
        day = dt.date(2023, 1, 1)
        primary = store.search("accept gift", as_of=day, authorities=["primary"])
        secondary = store.search("accept gift", as_of=day, authorities=["secondary"])
        unfiltered = store.search("accept gift", as_of=day)
        assert {p.doc_id for p in primary} == {"POL-GIFTS"}
        assert {p.doc_id for p in secondary} == {"FAQ-GIFTS"}
        assert {p.doc_id for p in unfiltered} == {"POL-GIFTS", "FAQ-GIFTS"}

    def test_empty_filters_match_nothing(self, store: Store) -> None:
        """An explicitly empty doc_ids or authorities list returns no passages."""
        day = dt.date(2023, 1, 1)
        assert store.search("gift", as_of=day, doc_ids=[]) == []
        assert store.search("gift", as_of=day, authorities=[]) == []

    def test_unknown_authority_is_a_usage_error(self, store: Store) -> None:
        """A misspelt authority filter raises instead of silently matching nothing."""
        with pytest.raises(UsageError, match="Primary"):
            store.search("gift", as_of=dt.date(2023, 1, 1), authorities=["Primary"])

    def test_tenant_filter(self, store: Store, tmp_path: Path) -> None:
        """A tenant sees only its own documents; no tenant means the default tenant."""
        other = write(tmp_path, "other.md", FAQ.replace("FAQ-GIFTS", "ACME-GIFTS"))
        store.ingest([other], IngestOptions(tenant="acme"))
        day = dt.date(2023, 1, 1)
        acme = store.search("accept gift", as_of=day, tenant="acme")
        default = store.search("accept gift", as_of=day)
        assert {p.doc_id for p in acme} == {"ACME-GIFTS"}
        assert "ACME-GIFTS" not in {p.doc_id for p in default}
        assert_offsets(store, acme, tenant="acme")

    def test_results_carry_source_fields_and_valid_offsets(self, store: Store) -> None:
        """Each passage names its version, page, title, authority and date, and its offsets hold."""
        results = store.search("gift register business days", as_of=dt.date(2023, 1, 1))
        top = results[0]
        assert (top.doc_id, top.version, top.page, top.title) == (
            "POL-GIFTS",
            "2022.1",
            2,
            "Gifts Policy",
        )
        assert (top.authority, top.version_date) == ("primary", dt.date(2022, 1, 1))
        assert_offsets(store, results)

    def test_scores_are_descending_and_deterministic(self, store: Store) -> None:
        """Higher scores come first and the same query gives the same list every time."""
        results = store.search("gift accepted year", as_of=dt.date(2023, 1, 1))
        assert [p.score for p in results] == sorted((p.score for p in results), reverse=True)
        assert all(p.score > 0 for p in results)
        assert store.search("gift accepted year", as_of=dt.date(2023, 1, 1)) == results

    def test_limit_caps_results(self, store: Store) -> None:
        """No more than ``limit`` passages are returned; a limit below 1 is refused."""
        assert len(store.search("gift", as_of=dt.date(2023, 1, 1), limit=1)) == 1
        with pytest.raises(UsageError, match="limit"):
            store.search("gift", as_of=dt.date(2023, 1, 1), limit=0)

    @pytest.mark.parametrize(
        "query", ['"foo" OR bar* NEAR(', "gift) OR (", 'text:"gift', "^gift -register", "'; DROP"]
    )
    def test_fts_injection_does_not_raise(self, store: Store, query: str) -> None:
        """Queries full of FTS5 and SQL syntax run as plain words."""
        results = store.search(query, as_of=dt.date(2023, 1, 1))
        assert all(isinstance(p, Passage) for p in results)
        assert store.stats()["versions"] == 3

    def test_stopword_query_returns_nothing(self, store: Store) -> None:
        """A question without content words returns no passages rather than everything."""
        assert store.search("what is it?", as_of=dt.date(2023, 1, 1)) == []

    def test_heading_of_an_ancestor_record_finds_the_child(self, tmp_path: Path) -> None:
        """A JSONL paragraph is found by its parent's title (label prefix), even a text-less one."""
        base: dict[str, Any] = {
            "doc_id": "R",
            "version": "1",
            "version_date": "2020-01-01",
            "authority": "primary",
        }
        rows = [
            {**base, "label": "9", "title": "Threshold amount.", "text": ""},
            {**base, "label": "9-i", "title": None, "text": "In 2014 it is $53,500."},
            {**base, "label": "10", "title": "Other matters.", "text": "Unrelated rule."},
        ]
        path = tmp_path / "r.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
        with Store.open(tmp_path / "s") as store:
            store.ingest([path])
            results = store.search("threshold", as_of=dt.date(2021, 1, 1))
        assert [(p.label, p.text) for p in results] == [("9-i", "In 2014 it is $53,500.")]


class TestLookup:
    def test_lookup_returns_page_and_document(self, store: Store) -> None:
        """lookup gives the stored page text with the version it belongs to."""
        source = store.lookup("POL-GIFTS", "2022.1", 2)
        assert source is not None
        assert source.page.text.startswith("Gifts must be recorded")
        assert source.document.superseded_by == "2024.1"
        assert source.document.in_force(dt.date(2023, 1, 1))

    @pytest.mark.parametrize(
        ("doc_id", "version", "page"),
        [("POL-GIFTS", "2022.1", 3), ("POL-GIFTS", "1999", 1), ("NOPE", "2022.1", 1)],
    )
    def test_missing_page_is_none(self, store: Store, doc_id: str, version: str, page: int) -> None:
        """An unknown document, version or page gives None."""
        assert store.lookup(doc_id, version, page) is None

    def test_versions_are_ordered_by_effective_date(self, store: Store) -> None:
        """versions() lists a document's versions oldest first."""
        assert [d.version for d in store.versions("POL-GIFTS")] == ["2022.1", "2024.1"]
        assert store.versions("NOPE") == []


@pytest.fixture
def cfpb(cfpb_store: Store) -> Store:
    """The whole CFPB corpus (47k paragraphs, 49 versions), ingested once per session."""
    return cfpb_store


class TestCfpbSearch:
    def test_regulation_m_threshold_in_2014(self, cfpb: Store) -> None:
        """As of 2014-07-01 Regulation M's threshold passages come from 2013-28194 only."""
        results = cfpb.search(
            "consumer lease threshold amount", as_of=dt.date(2014, 7, 1), doc_ids=["12 CFR 1013"]
        )
        assert results
        assert {p.version for p in results} == {"2013-28194"}
        assert any("$53,500" in p.text for p in results)
        assert_offsets(cfpb, results)

    def test_regulation_m_threshold_in_2016(self, cfpb: Store) -> None:
        """As of 2016-07-01 the version in force is 2015-30071."""
        results = cfpb.search(
            "consumer lease threshold amount", as_of=dt.date(2016, 7, 1), doc_ids=["12 CFR 1013"]
        )
        assert results
        assert {p.version for p in results} == {"2015-30071"}

    def test_unrestricted_search_stays_in_force(self, cfpb: Store) -> None:
        """Across all five regulations every result belongs to the version in force that day."""
        day = dt.date(2014, 7, 1)
        results = cfpb.search("error resolution notice", as_of=day, limit=20)
        assert results
        for passage in results:
            current = cfpb.in_force(passage.doc_id, day)
            assert current is not None and current.version == passage.version
