"""One store test suite, run against both backends: SQLite (a directory) and PostgreSQL (a URL).

Every test in the ``Test*Parity`` classes takes the ``location`` fixture, parametrized over the
backends (see ``tests/postgres_support.py``: the Postgres half skips without a server, except in
CI). ``TestSameAnswers`` ingests one corpus into both and compares what they return;
``TestPostgresSchema`` covers what only Postgres has (its migrations).
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_CORPUS, GIFTS_V1, GIFTS_V2
from postgres_support import BACKENDS, postgres_dsn, postgres_schema, store_location

from evidencegate.audit.index import TraceIndex
from evidencegate.cli.judges import add_flags_arguments, run_flags
from evidencegate.corpus import IngestOptions, IngestSource, ingest_batch
from evidencegate.corpus.backends import StoreBackend, open_store
from evidencegate.corpus.ingest import prepare_file
from evidencegate.corpus.postgres import SCHEMA_VERSION, PostgresStore
from evidencegate.corpus.store import Store
from evidencegate.exceptions import IngestError, StoreError, UsageError
from evidencegate.gate import EvidenceGate
from evidencegate.judgements import AnswerScore
from evidencegate.protocols import Retriever, SourceLookup
from evidencegate.review import ReviewQueue
from evidencegate.trace.chain import verify_trace

FAQ = """---
doc_id: FAQ-GIFTS
version: "1"
version_date: 2022-06-01
authority: secondary
title: Staff FAQ
---
Can I accept a gift? Yes, a gift of up to $100 may be accepted (15 U.S.C. 1601).
Gebühren sind ausgeschlossen.
"""


def write(directory: Path, name: str, content: str) -> Path:
    path = directory / name
    path.write_text(content, encoding="utf-8")
    return path


def records(directory: Path, name: str, rows: list[dict[str, Any]]) -> Path:
    path = directory / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def record(version: str, version_date: str, text: str, **fields: Any) -> dict[str, Any]:
    return {
        "doc_id": "REG-1",
        "version": version,
        "version_date": version_date,
        "authority": "primary",
        "label": "1",
        "text": text,
        **fields,
    }


def snapshot(store: StoreBackend) -> tuple[Any, ...]:
    """Everything a reader can see of the REG-1, POL-GIFTS and FAQ-GIFTS documents."""
    return (
        store.stats(),
        [store.versions(d) for d in ("REG-1", "POL-GIFTS", "FAQ-GIFTS")],
        store.ingested_keys(),
    )


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each backend in turn: the same test runs against SQLite and PostgreSQL."""
    name: str = request.param
    if name == "postgres":
        postgres_dsn()
    return name


@pytest.fixture
def location(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty store's location for ``backend``; a Postgres store's traces go to tmp_path."""
    monkeypatch.setenv("EVIDENCEGATE_TRACES_DIR", str(tmp_path / "pg-traces"))
    with store_location(backend, tmp_path) as where:
        open_store(where).close()
        yield where


@pytest.fixture
def store(location: str, tmp_path: Path) -> Iterator[StoreBackend]:
    """Two versions of a gifts policy (primary) and a FAQ (secondary), in either backend."""
    paths = [write(tmp_path, n, c) for n, c in (("v2.md", GIFTS_V2), ("v1.md", GIFTS_V1))]
    with open_store(location) as opened:
        opened.ingest([*paths, write(tmp_path, "faq.md", FAQ)])
        yield opened


class TestSearchParity:
    def test_store_implements_the_protocols(self, store: StoreBackend) -> None:
        """Either backend is a Retriever, a SourceLookup and a StoreBackend."""
        assert isinstance(store, Retriever)
        assert isinstance(store, SourceLookup)
        assert isinstance(store, StoreBackend)

    def test_as_of_selects_the_version_in_force(self, store: StoreBackend) -> None:
        """Before the new version's date the old text is found; from that date on the new one."""
        before = store.search("gift value limit", as_of=dt.date(2024, 2, 29), doc_ids=["POL-GIFTS"])
        after = store.search("gift value limit", as_of=dt.date(2024, 3, 1), doc_ids=["POL-GIFTS"])
        assert {p.version for p in before} == {"2022.1"}
        assert {p.version for p in after} == {"2024.1"}
        assert any("$150" in p.text for p in after)
        assert not any("$150" in p.text for p in before)

    def test_nothing_is_in_force_before_the_first_version(self, store: StoreBackend) -> None:
        """A date before every version's effective_from finds nothing."""
        assert store.search("gift", as_of=dt.date(2021, 12, 31)) == []

    def test_filters(self, store: StoreBackend) -> None:
        """Authorities and doc_ids restrict the result; empty lists match nothing."""
        day = dt.date(2023, 1, 1)
        assert {p.doc_id for p in store.search("accept gift", as_of=day)} == {
            "POL-GIFTS",
            "FAQ-GIFTS",
        }
        primary = store.search("accept gift", as_of=day, authorities=["primary"])
        assert {p.doc_id for p in primary} == {"POL-GIFTS"}
        faq = store.search("accept gift", as_of=day, doc_ids=["FAQ-GIFTS"])
        assert {p.doc_id for p in faq} == {"FAQ-GIFTS"}
        assert store.search("gift", as_of=day, doc_ids=[]) == []
        assert store.search("gift", as_of=day, authorities=[]) == []

    def test_bad_arguments_are_usage_errors(self, store: StoreBackend) -> None:
        """A misspelt authority and a limit below 1 raise instead of matching nothing."""
        with pytest.raises(UsageError, match="Primary"):
            store.search("gift", as_of=dt.date(2023, 1, 1), authorities=["Primary"])
        with pytest.raises(UsageError, match="limit"):
            store.search("gift", as_of=dt.date(2023, 1, 1), limit=0)

    def test_a_query_of_stopwords_finds_nothing(self, store: StoreBackend) -> None:
        """Only stopwords and query syntax give no passages, not every passage."""
        assert store.search('what is it? OR "" * (', as_of=dt.date(2023, 1, 1)) == []

    def test_best_first_with_exact_offsets(self, store: StoreBackend) -> None:
        """Scores fall; each passage is exactly its span of its stored page; limit is kept."""
        found = store.search("gift register recorded", as_of=dt.date(2023, 1, 1), limit=2)
        assert len(found) == 2
        assert found[0].score >= found[1].score
        assert "register" in found[0].text
        for passage in found:
            source = store.lookup(passage.doc_id, passage.version, passage.page)
            assert source is not None
            assert source.page.text[passage.char_start : passage.char_end] == passage.text

    def test_stemmed_and_accented_terms_match(self, store: StoreBackend) -> None:
        """'accepted' finds 'accept', 'gebuhren' finds 'Gebühren' (diacritics folded), and
        one-letter tokens are terms (too short to stem)."""
        day = dt.date(2023, 1, 1)
        assert {p.doc_id for p in store.search("accepting", as_of=day)} >= {"FAQ-GIFTS"}
        assert [p.doc_id for p in store.search("gebuhren", as_of=day)] == ["FAQ-GIFTS"]
        assert [p.doc_id for p in store.search("U.S.C.", as_of=day)] == ["FAQ-GIFTS"]

    def test_tenants_are_separate(self, store: StoreBackend, tmp_path: Path) -> None:
        """A tenant sees only its documents; no tenant means the default tenant."""
        other = write(tmp_path, "acme.md", FAQ.replace("FAQ-GIFTS", "ACME-GIFTS"))
        store.ingest([other], IngestOptions(tenant="acme"))
        day = dt.date(2023, 1, 1)
        assert {p.doc_id for p in store.search("accept gift", as_of=day, tenant="acme")} == {
            "ACME-GIFTS"
        }
        assert "ACME-GIFTS" not in {p.doc_id for p in store.search("accept gift", as_of=day)}
        assert store.lookup("ACME-GIFTS", "1", 1) is None
        assert store.lookup("ACME-GIFTS", "1", 1, tenant="acme") is not None

    def test_document_frequencies_count_passages(self, store: StoreBackend) -> None:
        """A term's frequency is the number of passages (any version) holding it."""
        frequencies = store.document_frequencies(["register", "gift", "the", "zebra"])
        assert frequencies == {"register": 2, "gift": 5, "zebra": 0}


class TestVersionsParity:
    def test_supersession_and_as_of(self, store: StoreBackend) -> None:
        """The later version ends the earlier on its date, whatever the ingest order."""
        old, new = store.versions("POL-GIFTS")
        assert (old.version, old.effective_to, old.superseded_by) == (
            "2022.1",
            dt.date(2024, 3, 1),
            "2024.1",
        )
        assert (new.effective_to, new.superseded_by) == (None, None)
        before = store.in_force("POL-GIFTS", dt.date(2024, 2, 29))
        assert before is not None and before.version == "2022.1"
        assert store.in_force("POL-GIFTS", dt.date(2021, 12, 31)) is None
        assert [d.doc_id for d in store.catalog(dt.date(2023, 1, 1))] == ["POL-GIFTS", "FAQ-GIFTS"]
        assert store.document("POL-GIFTS", "2024.1") == new

    def test_same_date_versions_and_an_earlier_source_end(
        self, location: str, tmp_path: Path
    ) -> None:
        """Same-date versions: the greater string (code point order) is in force; a source's
        own earlier effective_to is kept."""
        rows = [
            record("2013-b", "2013-01-01", "B."),
            record("2013-B", "2013-01-01", "Upper B."),
            record("v0", "2012-01-01", "Zero.", effective_to="2012-06-01"),
        ]
        with open_store(location) as store:
            store.ingest([records(tmp_path, "r.jsonl", rows)])
            shown = [(v.version, v.effective_to, v.superseded_by) for v in store.versions("REG-1")]
            assert shown == [
                ("v0", dt.date(2012, 6, 1), "2013-B"),
                ("2013-B", dt.date(2013, 1, 1), "2013-b"),
                ("2013-b", None, None),
            ]
            assert store.in_force("REG-1", dt.date(2012, 7, 1)) is None
            assert store.integrity_problems() == []

    def test_reingest_is_unchanged_and_changed_content_is_refused(
        self, store: StoreBackend, tmp_path: Path
    ) -> None:
        """The same file again is unchanged; other content under a stored version is an
        IngestError and the store is as before (the whole call rolled back)."""
        path = write(tmp_path, "v1.md", GIFTS_V1)
        before = snapshot(store)
        assert [v.status for v in store.ingest([path]).versions] == ["unchanged"]
        assert snapshot(store) == before
        changed = write(tmp_path, "changed.md", GIFTS_V1.replace("$100", "$999"))
        fresh = write(tmp_path, "fresh.md", GIFTS_V1.replace("POL-GIFTS", "POL-NEW"))
        with pytest.raises(IngestError, match="immutable"):
            store.ingest([fresh, changed])
        assert snapshot(store) == before
        assert store.versions("POL-NEW") == []

    def test_batch_commits_each_file_and_skips_stored_files(
        self, location: str, tmp_path: Path
    ) -> None:
        """ingest_batch stores good files, reports a bad one, and skips stored keys next time."""
        good = write(tmp_path, "good.md", GIFTS_V1)
        bad = write(tmp_path, "bad.md", "no front matter")
        sources = [IngestSource(p, IngestOptions()) for p in (good, bad)]
        with open_store(location) as store:
            first = ingest_batch(store, sources, jobs=1)
            assert [v.status for v in first.versions] == ["added"]
            assert len(first.failures) == 1
            again = ingest_batch(store, sources[:1], jobs=1)
            assert again.skipped_files == 1
            assert [v.status for v in again.versions] == ["unchanged"]

    def test_commit_prepared_stores_one_file(self, location: str, tmp_path: Path) -> None:
        """A file prepared away from the store is committed whole; its key is then stored."""
        prepared = prepare_file(write(tmp_path, "v1.md", GIFTS_V1), IngestOptions())
        with open_store(location) as store:
            (stored,) = store.commit_prepared(prepared)
            assert stored.status == "added" and stored.passages == 2
            assert prepared.key in store.ingested_keys()
            assert store.stats() == {"documents": 1, "versions": 1, "pages": 2, "passages": 2}
            assert store.integrity_problems() == []

    def test_open_without_create_refuses_a_missing_store(
        self, backend: str, tmp_path: Path
    ) -> None:
        """create=False on a place without a store is a StoreError, and creates nothing."""
        with store_location(backend, tmp_path) as where:
            with pytest.raises(StoreError, match="no evidencegate store"):
                open_store(where, create=False)
            open_store(where).close()
            open_store(where, create=False).close()


class TestGateParity:
    def test_ask_writes_an_indexed_trace_and_scores_go_to_the_queue(
        self, location: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The gate over either backend answers, writes a valid trace the index lists, and the
        review queue of that store takes flags and feedback."""
        with open_store(location) as store:
            store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
        with EvidenceGate.open(location) as gate:
            answer = gate.ask("What is the annual gift limit?", as_of=dt.date(2024, 6, 1))
            trace = gate.store.traces_dir / f"{answer.trace_id}.jsonl"
        assert answer.outcome.value == "answered"
        report = verify_trace(trace)
        assert report.ok and report.complete
        (run,) = TraceIndex.for_store(location).refresh()
        assert (run.run_id, run.status) == (answer.trace_id, "complete")
        with ReviewQueue.open(location) as queue:
            queue.record_score(
                "run-1",
                AnswerScore(
                    abstained=False,
                    groundedness=0.1,
                    quality=1,
                    review_score=1.3,
                    flag_reasons=["low"],
                ),
            )
            queue.record_score(
                "run-1",
                AnswerScore(
                    abstained=False, groundedness=0.2, quality=1, review_score=1.5, flag_reasons=[]
                ),
            )
            result = queue.record_feedback("run-1", "up", note="fine")
        assert result.auto_score == 1.5 and result.flag is not None
        parser = argparse.ArgumentParser()
        add_flags_arguments(parser)
        assert run_flags(parser.parse_args(["list", "--store", location, "--json"])) == 0
        flags = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [f["reason"] for f in flags][:1] == ["low"] and len(flags) == 2


class TestSameAnswers:
    def test_backends_rank_alike(self, tmp_path: Path) -> None:
        """On the example corpus both backends return the same passages in the same order with
        the same scores (BM25, with and without the phrase bonus), and the same versions."""
        paths = sorted((EXAMPLE_CORPUS / "corpus").glob("*.md"))
        questions = [
            "gift limit",
            "expense approval threshold",
            "remote work days",
            "gebühr",
            "may accept a gift with a value of up to",  # a quote: the phrase bonus counts
        ]
        days = [dt.date(2022, 6, 1), dt.date(2023, 6, 1), dt.date(2024, 6, 1)]
        with (
            postgres_schema() as url,
            Store.open(tmp_path / "s") as sqlite,
            PostgresStore.open(url) as postgres,
        ):
            sqlite.ingest(paths)
            postgres.ingest(paths)
            for question in questions:
                for day, phrases in itertools.product(days, (True, False)):
                    a = sqlite.search(question, as_of=day, limit=20, phrases=phrases)
                    b = postgres.search(question, as_of=day, limit=20, phrases=phrases)
                    assert [p.passage_id for p in a] == [p.passage_id for p in b]
                    assert [p.score for p in a] == pytest.approx([p.score for p in b])
                    same_scores = [
                        p.model_copy(update={"score": q.score}) for p, q in zip(b, a, strict=True)
                    ]
                    assert a == same_scores
            for doc in {v.doc_id for v in sqlite.catalog(dt.date(2030, 1, 1))}:
                assert sqlite.versions(doc) == postgres.versions(doc)
            assert sqlite.stats() == postgres.stats()
            frequencies = ["gift", "policy", "approval", "limit"]
            assert sqlite.document_frequencies(frequencies) == (
                postgres.document_frequencies(frequencies)
            )


class TestPostgresSchema:
    def test_an_older_schema_is_migrated_when_opened(self) -> None:
        """A schema-1 store (corpus only, no pair columns) keeps its data and gains the review
        queue, the trace index and each passage's runs of adjacent terms when opened (filled in from
        the stored texts: it then ranks as a store ingested at the newest schema); each
        migration is recorded in schema_version."""
        import psycopg

        question = "may accept a gift with a value of up to"
        day = dt.date(2024, 6, 1)
        with postgres_schema() as url:
            with PostgresStore.open(url) as store:
                store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
                fresh = store.search(question, as_of=day)
            with psycopg.connect(url, autocommit=True) as db:  # what schema 1 held
                for table in ("run_scores", "flagged_responses", "feedback", "traces"):
                    db.execute(f"DROP TABLE {table}")
                db.execute("DROP TABLE pair_stats")
                db.execute("ALTER TABLE passages DROP COLUMN pairs")
                db.execute("DELETE FROM schema_version WHERE version > 1")
                assert db.execute("SELECT to_regclass('run_scores')").fetchone() == (None,)
            with ReviewQueue.open(url) as queue:  # opening migrates
                assert queue.flag("run-1", "check").run_id == "run-1"
            with PostgresStore.open(url, create=False) as store:
                assert store.versions("HSB-POL-007")[0].version == "2022.1"
                assert store.integrity_problems() == []
                migrated = store.search(question, as_of=day)
                plain = store.search(question, as_of=day, phrases=False)
            with psycopg.connect(url, autocommit=True) as db:
                versions = [r[0] for r in db.execute("SELECT version FROM schema_version")]
            assert sorted(versions) == list(range(1, SCHEMA_VERSION + 1))
            assert fresh and migrated == fresh
            assert migrated[0].score > plain[0].score  # the phrase bonus is there

    def test_a_schema_3_store_gains_its_triples_when_opened(self) -> None:
        """A schema-3 store holds each passage's adjacent pairs but not its runs of three
        terms: opening it fills them in (passages.pairs and pair_stats recounted from the
        stored texts), so that it ranks, scores included, as a store ingested at schema 4."""
        import psycopg

        question = "may accept a gift with a value of up to"
        day = dt.date(2024, 6, 1)
        triples = "SELECT count(*) FROM pair_stats WHERE pair LIKE '% % %'"
        with postgres_schema() as url:
            with PostgresStore.open(url) as store:
                store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
                fresh = store.search(question, as_of=day, limit=20)
            with psycopg.connect(url, autocommit=True) as db:  # what schema 3 held
                db.execute(
                    "UPDATE passages SET pairs = "
                    "ARRAY(SELECT r FROM unnest(pairs) AS r WHERE r NOT LIKE '% % %')"
                )
                assert db.execute(triples).fetchone()[0] > 0  # type: ignore[index]
                db.execute("DELETE FROM pair_stats WHERE pair LIKE '% % %'")
                db.execute("DELETE FROM schema_version WHERE version > 3")
            with PostgresStore.open(url, create=False) as store:
                migrated = store.search(question, as_of=day, limit=20)
            with psycopg.connect(url, autocommit=True) as db:
                versions = [r[0] for r in db.execute("SELECT version FROM schema_version")]
                assert db.execute(triples).fetchone()[0] > 0  # type: ignore[index]
            assert sorted(versions) == list(range(1, SCHEMA_VERSION + 1))
            assert [p.passage_id for p in migrated] == [p.passage_id for p in fresh]
            assert [p.score for p in migrated] == pytest.approx([p.score for p in fresh])

    def test_text_array_literals_read_back_as_the_runs(self) -> None:
        """The ``text[]`` literal ingest writes for a passage's runs reads back as the same
        strings, whatever characters a term's decomposition brings."""
        import psycopg

        from evidencegate.corpus.postgres import _text_array

        runs = ["gift limit", "the gift limit", 'a "b', "c\\d", "0, 1", "{x}", "NULL", "ﷺ x"]
        with postgres_schema() as url, psycopg.connect(url) as db:
            for value in (runs, runs[:2], [], ["NULL"]):
                row = db.execute("SELECT %s::text[]", (_text_array(value),)).fetchone()
                assert row == (value,)

    def test_a_newer_schema_or_a_foreign_database_is_refused(self) -> None:
        """A store written by a newer evidencegate, or tables not made by it, are StoreErrors."""
        import psycopg

        with postgres_schema() as url:
            PostgresStore.open(url).close()
            with psycopg.connect(url, autocommit=True) as db:
                db.execute(
                    "INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION + 1,)
                )
            with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
                PostgresStore.open(url)
        with postgres_schema() as url:
            with psycopg.connect(url, autocommit=True) as db:
                db.execute("CREATE TABLE versions (id integer)")
            with pytest.raises(StoreError, match="not an evidencegate store"):
                PostgresStore.open(url)

    def test_unreachable_server_is_a_store_error_without_the_password(self) -> None:
        """A connection failure names the server, never the password."""
        with pytest.raises(StoreError, match="cannot connect") as caught:
            PostgresStore.open("postgresql://user:s3cret@127.0.0.1:1/db")
        assert "s3cret" not in str(caught.value)
