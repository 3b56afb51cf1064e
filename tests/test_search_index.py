"""The derived ranking index: exact filtered ranking, delta segments, staleness, migration."""

from __future__ import annotations

import datetime as dt
import io
import json
import math
import random
import sqlite3
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_schemas import SCHEMA_3

from evidencegate.corpus import Store
from evidencegate.corpus import index as index_module
from evidencegate.corpus import store as store_module
from evidencegate.corpus.index import (
    INDEX_FILENAME,
    _kth_largest,
    analyze,
    query_stems,
    question_terms,
)
from evidencegate.corpus.store import STORE_FILENAME

WORDS = ("loan", "lease", "threshold", "credit", "report", "fee", "limit", "gift", "policy", "cap")
DATES = [dt.date(2020, 1, 1) + dt.timedelta(days=90 * i) for i in range(6)]


def exhaustive(
    directory: Path,
    query: str,
    *,
    as_of: dt.date,
    limit: int,
    authorities: Sequence[str] | None = None,
    doc_ids: Sequence[str] | None = None,
    tenant: str = "default",
    phrases: bool = True,
) -> list[tuple[str, float]]:
    """Score every stored passage by BM25 over all passages (plus its phrase bonus when
    ``phrases``: each pair and triple of adjacent query terms the passage holds adjacent adds
    PAIR_WEIGHT times its idf), filter, sort, cut: the definition the index must reproduce,
    written as plainly as possible."""
    db = sqlite3.connect(directory / STORE_FILENAME)
    try:
        contents = {}
        adjacent: dict[int, set[tuple[str, ...]]] = {}
        for cid, text, context in db.execute(
            "SELECT c.id, t.text, x.text FROM contents AS c "
            "JOIN texts AS t ON t.id = c.text_id JOIN texts AS x ON x.id = c.context_id"
        ):
            contents[cid] = Counter(analyze(text) + analyze(context))
            adjacent[cid] = {
                gram for piece in (analyze(text), analyze(context)) for gram in runs(piece)
            }
        passages = db.execute(
            "SELECT p.id, p.passage_id, p.content_id, v.tenant, v.doc_id, v.authority, "
            "v.effective_from, v.effective_to FROM passages AS p "
            "JOIN versions AS v ON v.id = p.version_id"
        ).fetchall()
    finally:
        db.close()
    if not passages:
        return []
    n = len(passages)  # BM25 counts passages; each distinct content is analysed once
    average = sum(sum(contents[p[2]].values()) for p in passages) / n
    stems = query_stems(query)

    def idf(stem: str) -> float:
        df = sum(1 for p in passages if stem in contents[p[2]])
        return max(math.log((n - df + 0.5) / (df + 0.5)), 0.0) or 1e-6

    words = analyze(query) if phrases else []
    pairs = {}  # runs of 2 and 3 query terms, weighted by the idf of passages holding them
    for gram in runs(words):
        df = sum(1 for p in passages if gram in adjacent[p[2]])
        weight = max(math.log((n - df + 0.5) / (df + 0.5)), 0.0) or 1e-6 if df else 0.0
        if weight > 1e-6:
            pairs[gram] = index_module.PAIR_WEIGHT * weight
    ranked = []
    for pid, passage_id, cid, ten, doc_id, authority, start, end in passages:
        day = as_of.isoformat()
        if ten != tenant or not (start <= day and (end is None or day < end)):
            continue
        if authorities is not None and authority not in authorities:
            continue
        if doc_ids is not None and doc_id not in doc_ids:
            continue
        terms = contents[cid]
        length = sum(terms.values())
        score = 0.0
        for stem in stems:
            tf = terms.get(stem, 0)
            if not tf:
                continue
            score += idf(stem) * ((tf * 2.2) / (tf + 1.2 * (1.0 - 0.75 + 0.75 * length / average)))
        if score > 0:
            score += sum(weight for pair, weight in pairs.items() if pair in adjacent[cid])
            ranked.append((-score, passage_id, pid))
    ranked.sort()
    return [(passage_id, -neg) for neg, passage_id, _ in ranked[:limit]]


def runs(terms: Sequence[str]) -> set[tuple[str, ...]]:
    """Every pair and every triple of adjacent ``terms``, in order."""
    return {tuple(terms[i : i + size]) for size in (2, 3) for i in range(len(terms) - size + 1)}


def found(store: Store, query: str, **kwargs: Any) -> list[tuple[str, float]]:
    return [(p.passage_id, p.score) for p in store.search(query, **kwargs)]


def assert_same(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    assert [pid for pid, _ in got] == [pid for pid, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], rel=1e-12)


@st.composite
def corpora(draw: st.DrawFn) -> list[dict[str, Any]]:
    """JSONL records: a few documents, each with versions on shared dates, pages of few words
    (so versions and documents repeat texts), tenants and authorities mixed."""
    records = []
    for d in range(draw(st.integers(1, 4))):
        tenant = draw(st.sampled_from(["default", "default", "acme"]))
        authority = draw(st.sampled_from(["primary", "secondary"]))
        dates = sorted(draw(st.sets(st.sampled_from(DATES), min_size=1, max_size=3)))
        base = draw(
            st.lists(
                st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1, max_size=3
            )
        )
        for v, day in enumerate(dates):
            pages = [list(words) for words in base]
            if v and draw(st.booleans()):
                pages[draw(st.integers(0, len(pages) - 1))].append(draw(st.sampled_from(WORDS)))
            for words in pages:
                records.append(
                    {
                        "doc_id": f"DOC-{d}",
                        "version": f"v{v}",
                        "version_date": day.isoformat(),
                        "effective_from": day.isoformat(),
                        "authority": authority,
                        "tenant": tenant,
                        "document_title": f"Document {d}",
                        "text": " ".join(words) + ".",
                    }
                )
    return records


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def quiet(store: Store) -> io.StringIO:
    buffer = io.StringIO()
    store.messages = buffer
    return buffer


queries = st.lists(st.sampled_from([*WORDS, "the", "loans", "zebra"]), min_size=1, max_size=4)


class TestExhaustiveEquality:
    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        records=corpora(),
        words=queries,
        as_of=st.sampled_from([*DATES, dt.date(2019, 6, 1)]),
        limit=st.integers(1, 6),
        authorities=st.sampled_from([None, ["primary"], ["secondary"]]),
        doc_ids=st.sampled_from([None, ["DOC-0"], ["DOC-1", "DOC-3"]]),
        tenant=st.sampled_from(["default", "acme"]),
        split=st.booleans(),
        phrases=st.booleans(),
    )
    def test_search_equals_the_exhaustive_filtered_ranking(
        self,
        tmp_path_factory: pytest.TempPathFactory,
        records: list[dict[str, Any]],
        words: list[str],
        as_of: dt.date,
        limit: int,
        authorities: list[str] | None,
        doc_ids: list[str] | None,
        tenant: str,
        split: bool,
        phrases: bool,
    ) -> None:
        """Store.search gives the passages and scores of the exhaustive filtered ranking, from a
        fresh index and from a main segment plus a delta of later ingests, for every as-of date
        asked of the same index in turn."""
        tmp = tmp_path_factory.mktemp("corpus")
        directory = tmp / "store"
        keys = list(dict.fromkeys((r["doc_id"], r["version"]) for r in records))
        first = set(keys[: max(1, len(keys) // 2)] if split else keys)
        head = [r for r in records if (r["doc_id"], r["version"]) in first]
        tail = [r for r in records if (r["doc_id"], r["version"]) not in first]
        query = " ".join(words)
        kwargs: dict[str, Any] = {
            "as_of": as_of,
            "limit": limit,
            "authorities": authorities,
            "doc_ids": doc_ids,
            "tenant": tenant,
            "phrases": phrases,
        }
        with Store.open(directory) as store:
            quiet(store)
            store.ingest([write_jsonl(tmp / "a.jsonl", head)])
            if tail:
                store.refresh_index()  # main segment now, the rest arrives as a delta
                # searched before the delta too: what the index keeps per filter and per term
                # must not outlive it
                assert_same(found(store, query, **kwargs), exhaustive(directory, query, **kwargs))
                store.ingest([write_jsonl(tmp / "b.jsonl", tail)])
            for day in dict.fromkeys([as_of, *DATES]):  # one index, many as-of filters
                kwargs["as_of"] = day
                assert_same(found(store, query, **kwargs), exhaustive(directory, query, **kwargs))


def phrase_corpus(seed: int) -> list[dict[str, Any]]:
    """Documents of two versions whose passages put the same words in different orders, with
    function words between them, so that which query words are adjacent in a passage
    matters."""
    rng = random.Random(seed)
    vocabulary = [*WORDS, "the", "of", "for", "a", "we", "will"]
    records = []
    for d in range(12):
        pages = [rng.sample(vocabulary, rng.randint(3, 9)) for _ in range(rng.randint(1, 4))]
        for v, day in enumerate(DATES[: rng.randint(1, 3)]):
            if v:
                pages[rng.randrange(len(pages))].insert(0, rng.choice(vocabulary))
            for words in pages:
                records.append(
                    {
                        "doc_id": f"DOC-{d}",
                        "version": f"v{v}",
                        "version_date": day.isoformat(),
                        "authority": "primary",
                        "document_title": f"Rules {d}",
                        "text": " ".join(words) + ".",
                    }
                )
    return records


FILLER = [" ".join(WORDS[i : i + 3]) + " report." for i in range(7)]
"""Passages sharing none of the phrase tests' words, so that theirs have an idf."""


def rules_records(texts: list[str]) -> list[dict[str, Any]]:
    """One primary document of one version per text, DOC-0, DOC-1, ... in order."""
    return [
        {
            "doc_id": f"DOC-{i}",
            "version": "v1",
            "version_date": DATES[0].isoformat(),
            "authority": "primary",
            "document_title": "Rules",
            "text": text,
        }
        for i, text in enumerate(texts)
    ]


class TestPhrases:
    def test_adjacent_query_words_add_their_pair_weight(self, tmp_path: Path) -> None:
        """Two passages holding the same query words once, at the same length: the one where
        they stand next to each other, in the question's order, ranks first, by the weights
        of the pair "gift limit" and the triple "the gift limit", which only it holds ("the
        gift", in both, adds the same to each); the reversed order earns nothing."""
        texts = ["the gift limit and the cap apply.", "the limit and the gift cap apply."]
        n = len(texts) + len(FILLER)
        with Store.open(tmp_path / "store") as store:
            quiet(store)
            store.ingest([write_jsonl(tmp_path / "r.jsonl", rules_records([*texts, *FILLER]))])
            found = store.search("the gift limit", as_of=DATES[1], limit=2, phrases=True)
            assert [p.doc_id for p in found] == ["DOC-0", "DOC-1"]
            index = store._index
            assert index is not None
            df = 1  # one passage holds "(the) gift limit"
            pair_weight = index_module.PAIR_WEIGHT * math.log((n - df + 0.5) / (df + 0.5))
            assert found[0].score - found[1].score == pytest.approx(2 * pair_weight)
            assert pair_weight > 0
            reversed_order = store.search("limit gift", as_of=DATES[1], limit=2, phrases=True)
            plain = store.search("the gift limit", as_of=DATES[1], limit=2, phrases=False)
            assert plain[0].score == pytest.approx(plain[1].score)
            assert store.search("the gift limit", as_of=DATES[1], limit=2) == found  # default
            assert reversed_order[0].score == pytest.approx(reversed_order[1].score)

    def test_a_run_of_three_query_words_adds_its_triple_weight(self, tmp_path: Path) -> None:
        """Two passages of the same words, both holding each adjacent pair of "retain the
        information", only one of them in one run: that one ranks first, by the weight of the
        triple (without it they tie, and the other one's doc_id comes first)."""
        texts = ["the information and retain the gift.", "retain the information and the gift."]
        n = len(texts) + len(FILLER)
        with Store.open(tmp_path / "store") as store:
            quiet(store)
            store.ingest([write_jsonl(tmp_path / "r.jsonl", rules_records([*texts, *FILLER]))])
            found = store.search("retain the information", as_of=DATES[1], limit=2)
            assert [p.doc_id for p in found] == ["DOC-1", "DOC-0"]
            df = 1  # one passage holds the three words in a run
            triple_weight = index_module.PAIR_WEIGHT * math.log((n - df + 0.5) / (df + 0.5))
            assert found[0].score - found[1].score == pytest.approx(triple_weight)
            plain = store.search("retain the information", as_of=DATES[1], limit=2, phrases=False)
            assert plain[0].score == pytest.approx(plain[1].score)

    @pytest.mark.parametrize("seed", [1, 2, 3])
    def test_search_equals_the_exhaustive_ranking_with_phrases(
        self, tmp_path: Path, seed: int
    ) -> None:
        """With the phrase bonus, from a main segment plus a delta, search is the exhaustive
        ranking; and the bonus changes some rankings (they differ from those without it)."""
        rng = random.Random(seed)
        records = phrase_corpus(seed)
        keys = list(dict.fromkeys((r["doc_id"], r["version"]) for r in records))
        first = set(keys[: len(keys) // 2])
        head = [r for r in records if (r["doc_id"], r["version"]) in first]
        tail = [r for r in records if (r["doc_id"], r["version"]) not in first]
        vocabulary = [*WORDS, "the", "of", "for", "we", "will", "zebra"]
        questions = [" ".join(rng.sample(vocabulary, rng.randint(2, 5))) for _ in range(25)]
        directory = tmp_path / "store"
        differs = 0
        with Store.open(directory) as store:
            quiet(store)
            store.ingest([write_jsonl(tmp_path / "a.jsonl", head)])
            store.refresh_index()
            store.ingest([write_jsonl(tmp_path / "b.jsonl", tail)])
            for question in questions:
                for day in DATES[:3]:
                    kwargs: dict[str, Any] = {"as_of": day, "limit": 4, "phrases": True}
                    got = found(store, question, **kwargs)
                    assert_same(got, exhaustive(directory, question, **kwargs))
                    kwargs["phrases"] = False
                    differs += got != found(store, question, **kwargs)
        assert differs


@pytest.fixture
def library(tmp_path: Path) -> Path:
    """A store directory with ten documents of two versions each."""
    records = []
    for d in range(10):
        for v, day in enumerate(DATES[:2]):
            for p in range(3):
                records.append(
                    {
                        "doc_id": f"DOC-{d}",
                        "version": f"v{v}",
                        "version_date": day.isoformat(),
                        "authority": "primary",
                        "document_title": f"Rules {d}",
                        "text": f"Section {p} of rules {d}: the {WORDS[(d + p) % 10]} applies"
                        + (" from now on." if v else "."),
                    }
                )
    with Store.open(tmp_path / "store") as store:
        quiet(store)
        store.ingest([write_jsonl(tmp_path / "lib.jsonl", records)])
    return tmp_path / "store"


class TestIndexLifecycle:
    def test_a_missing_index_is_built_with_a_message(self, library: Path) -> None:
        """The first search builds and saves the index and says so on the messages stream."""
        assert not (library / INDEX_FILENAME).exists()
        with Store.open(library) as store:
            messages = quiet(store)
            assert store.search("threshold", as_of=DATES[1])
        assert (library / INDEX_FILENAME).exists()
        assert "rebuilding the search index" in messages.getvalue()
        assert "no index yet" in messages.getvalue()

    def test_a_saved_index_is_reused_silently(self, library: Path) -> None:
        """A second process loads the saved index and builds nothing."""
        with Store.open(library) as store:
            quiet(store)
            first = found(store, "threshold rules", as_of=DATES[1])
        with Store.open(library) as store:
            messages = quiet(store)
            assert found(store, "threshold rules", as_of=DATES[1]) == first
        assert messages.getvalue() == ""

    def test_new_versions_are_searched_through_the_delta(
        self, library: Path, tmp_path: Path
    ) -> None:
        """A version ingested after the index was saved is found at once; the index file is
        not rewritten for it (no full rebuild), and results equal the exhaustive ranking."""
        with Store.open(library) as store:
            quiet(store)
            store.refresh_index()
        saved = (library / INDEX_FILENAME).stat().st_mtime_ns
        record = {
            "doc_id": "DOC-NEW",
            "version": "1",
            "version_date": DATES[2].isoformat(),
            "authority": "primary",
            "document_title": "New rules",
            "text": "The zebra crossing threshold applies.",
        }
        with Store.open(library) as store:
            messages = quiet(store)
            store.search("threshold", as_of=DATES[2])  # index loaded at generation g
            store.ingest([write_jsonl(tmp_path / "new.jsonl", [record])])
            hits = store.search("zebra threshold", as_of=DATES[2])
            assert hits[0].doc_id == "DOC-NEW"
            assert_same(
                found(store, "zebra threshold", as_of=DATES[2], limit=8),
                exhaustive(library, "zebra threshold", as_of=DATES[2], limit=8),
            )
        assert (library / INDEX_FILENAME).stat().st_mtime_ns == saved
        assert "rebuilding" not in messages.getvalue()

    def test_another_process_ingest_is_seen(self, library: Path, tmp_path: Path) -> None:
        """A store handle never answers from a stale index: an ingest through another handle
        bumps the generation, and the next search sees the new passages."""
        record = {
            "doc_id": "DOC-OTHER",
            "version": "1",
            "version_date": DATES[0].isoformat(),
            "authority": "primary",
            "text": "Quokka rules.",
        }
        with Store.open(library) as reader, Store.open(library) as writer:
            quiet(reader)
            quiet(writer)
            assert reader.search("quokka", as_of=DATES[3]) == []
            writer.ingest([write_jsonl(tmp_path / "other.jsonl", [record])])
            assert [p.doc_id for p in reader.search("quokka", as_of=DATES[3])] == ["DOC-OTHER"]

    def test_a_large_delta_is_merged(
        self, library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Once the delta passes the merge threshold the main segment is rebuilt with it."""
        monkeypatch.setattr(index_module, "_MERGE_MIN", 1)
        with Store.open(library) as store:
            messages = quiet(store)
            store.refresh_index()
            records = [
                {
                    "doc_id": f"MORE-{i}",
                    "version": "1",
                    "version_date": DATES[0].isoformat(),
                    "authority": "primary",
                    "text": f"Wombat rule {i}.",
                }
                for i in range(20)
            ]
            store.ingest([write_jsonl(tmp_path / "more.jsonl", records)])
            assert len(store.search("wombat", as_of=DATES[1], limit=30)) == 20
        assert "merging" in messages.getvalue()
        with Store.open(library) as store:
            messages = quiet(store)
            assert len(store.search("wombat", as_of=DATES[1], limit=30)) == 20
        assert messages.getvalue() == ""

    @pytest.mark.parametrize("damage", ["garbage", "other store", "truncated store"])
    def test_a_stale_or_broken_index_is_rebuilt(
        self, library: Path, tmp_path: Path, damage: str
    ) -> None:
        """An unreadable index file, one of another store, or one describing rows the store
        does not have is rebuilt (with a message naming why), never used."""
        with Store.open(library) as store:
            quiet(store)
            want = found(store, "threshold rules", as_of=DATES[1])
        path = library / INDEX_FILENAME
        if damage == "garbage":
            path.write_bytes(b"not an index")
        elif damage == "other store":
            with Store.open(tmp_path / "other") as other:
                quiet(other)
                other.ingest(
                    [
                        write_jsonl(
                            tmp_path / "x.jsonl",
                            [
                                {
                                    "doc_id": "X",
                                    "version": "1",
                                    "version_date": "2020-01-01",
                                    "authority": "primary",
                                    "text": "Other.",
                                }
                            ],
                        )
                    ]
                )
                other.refresh_index()
            path.write_bytes((tmp_path / "other" / INDEX_FILENAME).read_bytes())
        else:
            with Store.open(library) as store:
                quiet(store)
                store.refresh_index()
            db = sqlite3.connect(library / STORE_FILENAME)
            db.execute("DELETE FROM passages WHERE id = (SELECT max(id) FROM passages)")
            db.execute(
                "UPDATE versions SET passages = passages - 1 "
                "WHERE id = (SELECT max(id) FROM versions)"
            )
            db.commit()
            db.close()
            want = exhaustive(library, "threshold rules", as_of=DATES[1], limit=8)
        with Store.open(library) as store:
            messages = quiet(store)
            assert_same(found(store, "threshold rules", as_of=DATES[1]), want)
        assert "rebuilding the search index" in messages.getvalue()

    def test_document_frequencies_count_passages(self, library: Path) -> None:
        """A term's frequency counts the passages that contain it, in any version."""
        with Store.open(library) as store:
            quiet(store)
            frequencies = store.document_frequencies(["rules", "zebra", "the"])
        assert frequencies["zebra"] == 0
        assert frequencies["rules"] == 60  # 10 docs x 3 pages x 2 versions
        assert set(frequencies) == {"rules", "zebra"}  # a stopword is no query term


class TestContentAddressedStore:
    def test_repeated_texts_are_stored_once(self, tmp_path: Path) -> None:
        """Three versions repeating one paragraph store that text once, and search returns the
        passage of the version in force."""
        records = [
            {
                "doc_id": "POL",
                "version": str(v),
                "version_date": DATES[v].isoformat(),
                "authority": "primary",
                "text": "Gifts above the cap must be declared.",
            }
            for v in range(3)
        ]
        with Store.open(tmp_path / "store") as store:
            quiet(store)
            store.ingest([write_jsonl(tmp_path / "p.jsonl", records)])
            assert [p.version for p in store.search("gifts cap", as_of=DATES[1])] == ["1"]
            assert store.document_frequencies(["gifts"]) == {"gifts": 3}
            assert store.integrity_problems() == []
        db = sqlite3.connect(tmp_path / "store" / STORE_FILENAME)
        texts = db.execute("SELECT count(*) FROM texts WHERE text LIKE 'Gifts%'").fetchone()[0]
        contents, passages = db.execute(
            "SELECT (SELECT count(*) FROM contents), (SELECT count(*) FROM passages)"
        ).fetchone()
        db.close()
        assert (texts, contents, passages) == (1, 1, 3)

    def test_a_corrupted_text_is_an_integrity_problem(self, library: Path) -> None:
        """A stored text changed behind the store's back no longer matches its hash."""
        db = sqlite3.connect(library / STORE_FILENAME)
        db.execute("UPDATE texts SET text = text || '!' WHERE id = 1")
        db.commit()
        db.close()
        with Store.open(library) as store:
            problems = store.integrity_problems()
        assert any(problem.startswith("text is its sha256") for problem in problems)

    def test_a_schema_3_store_is_migrated(self, tmp_path: Path) -> None:
        """A store written by schema 3 (texts per row, FTS5) opens as schema 4 with the same
        pages and passages, deduplicated, searchable and sound."""
        directory = tmp_path / "old"
        directory.mkdir()
        db = sqlite3.connect(directory / STORE_FILENAME, isolation_level=None)
        db.executescript(SCHEMA_3)
        db.execute(f"PRAGMA application_id = {store_module._APPLICATION_ID}")
        db.execute("PRAGMA user_version = 3")
        db.execute(
            "INSERT INTO versions (id, tenant, doc_id, version, version_date, effective_from, "
            "authority, title, source_uri, sha256, pages, passages) VALUES "
            "(1, 'default', 'POL', '1', '2020-01-01', '2020-01-01', 'primary', 'Policy', 'x', "
            "?, 1, 1), (2, 'default', 'POL', '2', '2021-01-01', '2021-01-01', 'primary', "
            "'Policy', 'x', ?, 1, 1)",
            ("a" * 64, "b" * 64),
        )
        db.execute("UPDATE versions SET effective_to = '2021-01-01' WHERE id = 1")
        for vid in (1, 2):
            db.execute(
                "INSERT INTO pages VALUES (?, 1, 'L', 'Heading', 'Gifts must be declared.')",
                (vid,),
            )
            db.execute(
                "INSERT INTO passages (passage_id, version_id, page, char_start, char_end, "
                "label, text, context) VALUES (?, ?, 1, 0, 23, 'L', "
                "'Gifts must be declared.', 'L\nHeading\nPolicy')",
                (f"pid{vid}", vid),
            )
        db.execute("INSERT INTO passages_fts (passages_fts) VALUES ('rebuild')")
        db.close()
        with Store.open(directory) as store:
            quiet(store)
            assert store.integrity_problems() == []
            hits = store.search("gifts", as_of=dt.date(2020, 6, 1))
            assert [(p.passage_id, p.version, p.context) for p in hits] == [
                ("pid1", "1", "L\nHeading\nPolicy")
            ]
            source = store.lookup("POL", "2", 1)
            assert source is not None and source.page.heading == "Heading"
        db = sqlite3.connect(directory / STORE_FILENAME)
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4
        assert db.execute("SELECT count(*) FROM contents").fetchone()[0] == 1
        db.close()


class TestKthLargest:
    @settings(max_examples=60, deadline=None)
    @given(
        values=st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.5, 7.0]), min_size=1, max_size=200)
        | st.lists(st.floats(0.001, 100.0), min_size=1, max_size=200),
        repeat=st.integers(1, 60),
        k=st.integers(1, 300),
    )
    def test_equals_the_kth_of_the_sorted_values(
        self, values: list[float], repeat: int, k: int
    ) -> None:
        """The sampled threshold never changes the answer, ties and large arrays included."""
        array = np.repeat(np.array(values), repeat)
        k = min(k, len(array))
        assert _kth_largest(array, k) == np.sort(array)[-k]


class TestQuestionTerms:
    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.sampled_from(
                [
                    "the",
                    "Gift",
                    "gifts",
                    "LIMIT",
                    "of",
                    "a",
                    "é",
                    "Café",
                    "(b)(2)",
                    "U.S.C.",
                    "12",
                    "we'll",
                    "limit's",
                    "no",
                    "x",
                    "-",
                    "über",
                    "  ",
                ]
            ),
            max_size=10,
        )
    )
    def test_one_pass_equals_stems_and_analysis(self, parts: list[str]) -> None:
        """The search's one-pass terms are exactly query_stems (what BM25 scores) and analyze
        (what the phrase bonus pairs) of the question."""
        question = " ".join(parts)
        assert question_terms(question) == (query_stems(question), analyze(question))
