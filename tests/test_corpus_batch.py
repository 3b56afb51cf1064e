"""Batch ingest: manifests, worker processes, bad files, resuming after kill -9, extractors."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import pytest
from conftest import REPO_ROOT, shared_path
from store_schemas import SCHEMA_1
from test_corpus_ingest import make_pdf

from evidencegate.cli.corpus import add_ingest_arguments, run_ingest
from evidencegate.corpus import (
    IngestOptions,
    IngestSource,
    ManifestRow,
    Store,
    ingest_batch,
    read_manifest,
    sources_from_rows,
)
from evidencegate.corpus import ingest as ingest_module
from evidencegate.corpus import store as store_module
from evidencegate.corpus.batch import FileDone
from evidencegate.corpus.ingest import format_pages, prepare_file
from evidencegate.exceptions import IngestError, UsageError

FB_MAPPINGS = REPO_ROOT / "golden_sets" / "mappings" / "financebench"
PDF = IngestOptions(doc_id="P", version="1", version_date=dt.date(2020, 1, 1), authority="primary")


def md(directory: Path, name: str, doc_id: str, body: str = "Some policy text.") -> Path:
    """A Markdown source with its own metadata in front matter."""
    path = directory / name
    path.write_text(
        f"---\ndoc_id: {doc_id}\nversion: '1'\nversion_date: 2021-01-01\n"
        f"authority: primary\n---\n{body}\n",
        encoding="utf-8",
    )
    return path


def encrypted_pdf() -> bytes:
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(make_pdf(["secret text"])))
    writer.encrypt(user_password="pw", owner_password="owner")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def check_complete(store_path: Path) -> list[str]:
    """Every stored version has all its pages, passages and their contents; the version names."""
    with contextlib.closing(sqlite3.connect(store_path)) as db:
        rows = db.execute("SELECT id, doc_id, pages, passages FROM versions").fetchall()
        for version_id, doc_id, pages, passages in rows:
            stored_pages = db.execute(
                "SELECT count(*) FROM pages WHERE version_id = ?", (version_id,)
            ).fetchone()[0]
            stored_passages = db.execute(
                "SELECT count(*) FROM passages WHERE version_id = ?", (version_id,)
            ).fetchone()[0]
            assert (stored_pages, stored_passages) == (pages, passages), doc_id
        with_content = db.execute(
            "SELECT count(*) FROM passages AS p JOIN contents AS c ON c.id = p.content_id"
        ).fetchone()[0]
        total = db.execute("SELECT count(*) FROM passages").fetchone()[0]
        assert with_content == total
        return sorted(row[1] for row in rows)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store") as opened:
        yield opened


class TestBadFiles:
    def test_bad_files_are_reported_and_the_others_stored(
        self, store: Store, tmp_path: Path
    ) -> None:
        """Encrypted, corrupt, empty and textless PDFs fail with path and reason; the rest is
        stored."""
        files = {
            "encrypted.pdf": encrypted_pdf(),
            "corrupt.pdf": b"%PDF-1.4 this is not a pdf",
            "empty.pdf": b"",
            "scanned.pdf": make_pdf(["", "", ""]),
        }
        sources = [IngestSource(md(tmp_path, "good.md", "GOOD"), IngestOptions())]
        for name, data in files.items():
            (tmp_path / name).write_bytes(data)
            sources.append(IngestSource(tmp_path / name, PDF))
        report = ingest_batch(store, sources, jobs=1)
        assert [v.doc_id for v in report.added] == ["GOOD"]
        reasons = {Path(f.path).name: f.reason for f in report.failures}
        assert set(reasons) == set(files)
        assert "encrypted" in reasons["encrypted.pdf"]
        assert "not a readable PDF" in reasons["corrupt.pdf"]
        assert "empty file" in reasons["empty.pdf"]
        assert "pages 1-3" in reasons["scanned.pdf"] and "text layer" in reasons["scanned.pdf"]
        assert check_complete(store.path) == ["GOOD"]

    def test_a_conflicting_version_fails_only_its_file(self, store: Store, tmp_path: Path) -> None:
        """A file whose version is stored with other content fails; the next file is stored."""
        (tmp_path / "a").mkdir()
        first = md(tmp_path / "a", "one.md", "SAME", "First text.")
        store.ingest([first])
        sources = [
            IngestSource(md(tmp_path, "one.md", "SAME", "Changed text."), IngestOptions()),
            IngestSource(md(tmp_path, "two.md", "OTHER"), IngestOptions()),
        ]
        report = ingest_batch(store, sources, jobs=1)
        assert [f.path for f in report.failures] == [str(tmp_path / "one.md")]
        assert "immutable" in report.failures[0].reason
        assert [v.doc_id for v in report.added] == ["OTHER"]

    def test_page_ranges_name_pages_without_text(self) -> None:
        """Pages without text are listed as ranges."""
        assert format_pages([7, 1, 2, 3, 9, 10]) == "1-3, 7, 9-10"


class TestResume:
    def test_a_second_run_skips_stored_files_without_reading_them(
        self, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Files stored with the same content and options are skipped; only new ones are read."""
        sources = [IngestSource(md(tmp_path, f"{n}.md", f"D{n}"), IngestOptions()) for n in "ab"]
        ingest_batch(store, sources, jobs=1)
        parsed: list[str] = []
        real_parse = ingest_module._parse

        def counting(path: Path, *args: Any) -> Any:
            parsed.append(path.name)
            return real_parse(path, *args)

        monkeypatch.setattr(ingest_module, "_parse", counting)
        more = [*sources, IngestSource(md(tmp_path, "c.md", "Dc"), IngestOptions())]
        report = ingest_batch(store, more, jobs=1)
        assert parsed == ["c.md"]
        assert (report.files, report.skipped_files) == (3, 2)
        assert [v.status for v in report.versions] == ["unchanged", "unchanged", "added"]

    def test_other_options_mean_the_file_is_read_again(self, store: Store, tmp_path: Path) -> None:
        """The same PDF with other metadata is not skipped: it is a new version."""
        path = tmp_path / "d.pdf"
        path.write_bytes(make_pdf(["Page text."]))
        ingest_batch(store, [IngestSource(path, PDF)], jobs=1)
        report = ingest_batch(store, [IngestSource(path, PDF.model_copy(update={"version": "2"}))])
        assert report.skipped_files == 0 and [v.version for v in report.added] == ["2"]

    def test_kill_9_leaves_whole_versions_and_a_rerun_finishes(self, tmp_path: Path) -> None:
        """An ingest killed with SIGKILL mid-batch keeps only complete versions; the same command
        again ingests only the files that are missing."""
        files = [md(tmp_path, f"{n}.md", f"DOC-{n}") for n in ("a", "b")]
        blocker = tmp_path / "c.md"
        os.mkfifo(blocker)  # reading it blocks: the batch is caught between two files
        files += [blocker, md(tmp_path, "d.md", "DOC-d")]
        manifest = tmp_path / "m.csv"
        manifest.write_text("path\n" + "".join(f"{f.name}\n" for f in files), encoding="utf-8")
        store_dir = tmp_path / "store"
        command = [sys.executable, "-m", "evidencegate", "ingest", "--manifest", str(manifest)]
        command += ["--store", str(store_dir), "--jobs", "1", "--quiet"]
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        process = subprocess.Popen(command, env=env, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 120
            while _stored(store_dir) < 2:
                assert process.poll() is None, "the ingest ended before it was killed"
                assert time.monotonic() < deadline, "the first files were never committed"
                time.sleep(0.1)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        assert check_complete(store_dir / "evidencegate.sqlite3") == ["DOC-a", "DOC-b"]
        blocker.unlink()
        md(tmp_path, "c.md", "DOC-c")
        again = subprocess.run(
            [*command, "--json"], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert again.returncode == 0, again.stderr
        assert '"skipped_files": 2' in again.stdout and '"files": 4' in again.stdout
        assert check_complete(store_dir / "evidencegate.sqlite3") == [
            "DOC-a",
            "DOC-b",
            "DOC-c",
            "DOC-d",
        ]


def _stored(store_dir: Path) -> int:
    path = store_dir / "evidencegate.sqlite3"
    if not path.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return int(db.execute("SELECT count(*) FROM versions").fetchone()[0])
    except sqlite3.Error:  # not created or not migrated yet
        return 0


class TestParallel:
    def test_two_workers_store_what_one_process_stores(self, tmp_path: Path) -> None:
        """jobs=2 stores the same versions with the same content hashes as jobs=1, in order."""
        sources = [
            IngestSource(md(tmp_path, f"{n}.md", f"D{n}", f"Text {n}. " * 50), IngestOptions())
            for n in range(6)
        ]
        hashes = []
        for jobs in (1, 2):
            done: list[FileDone] = []
            with Store.open(tmp_path / f"s{jobs}") as store:
                report = ingest_batch(store, sources, jobs=jobs, on_file=done.append)
            assert len(done) == 6 and {d.status for d in done} == {"added"}
            hashes.append([(v.doc_id, v.sha256) for v in report.versions])
        assert hashes[0] == hashes[1]
        assert [doc for doc, _ in hashes[1]] == [f"D{n}" for n in range(6)]

    def test_a_commit_waits_for_another_writer(self, store: Store, tmp_path: Path) -> None:
        """While another connection holds the write lock, a commit waits, then succeeds."""
        prepared = prepare_file(md(tmp_path, "w.md", "WAIT"), IngestOptions())
        results: list[object] = []
        with contextlib.closing(sqlite3.connect(store.path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            worker = threading.Thread(
                target=lambda: results.append(store.commit_prepared(prepared))
            )
            worker.start()
            worker.join(0.5)
            assert worker.is_alive(), f"the commit did not wait: {results}"
            other.execute("COMMIT")
        worker.join(60)
        assert results and store.document("WAIT", "1") is not None


class TestManifest:
    def test_csv_rows_give_each_file_its_options(self, tmp_path: Path) -> None:
        """Globs, directories and mapping files resolve relative to the manifest; a row's
        columns override its mapping, which overrides the defaults."""
        (tmp_path / "docs").mkdir()
        for name in ("b.md", "a.md", "skip.csv"):
            (tmp_path / "docs" / name).write_text("x", encoding="utf-8")
        (tmp_path / "r.pdf").write_bytes(b"")
        mapping = tmp_path / "r.yaml"
        mapping.write_text("doc_id: R\nversion: v1\nversion_date: 2020-02-02\n", encoding="utf-8")
        manifest = tmp_path / "m.csv"
        manifest.write_text(
            "path,doc_id,version,authority,mapping,pdf_extractor\n"
            "docs/*.md,,,,,\n"
            "r.pdf,,v2,secondary,r.yaml,pypdf\n",
            encoding="utf-8",
        )
        defaults = IngestOptions(authority="primary", tenant="acme")
        sources = read_manifest(manifest, defaults)
        assert [s.path.name for s in sources] == ["a.md", "b.md", "r.pdf"]
        assert sources[0].options == defaults
        pdf = sources[2].options
        assert (pdf.doc_id, pdf.version, pdf.version_date) == ("R", "v2", dt.date(2020, 2, 2))
        assert (pdf.authority, pdf.tenant, pdf.pdf_extractor) == ("secondary", "acme", "pypdf")

    def test_yaml_base_and_directory_rows(self, tmp_path: Path) -> None:
        """A YAML manifest's base directory anchors relative paths; a directory row names every
        ingestible file under it."""
        data = tmp_path / "data" / "sub"
        data.mkdir(parents=True)
        for name in ("x.md", "y.jsonl", "z.png"):
            (data / name).write_text("x", encoding="utf-8")
        manifest = tmp_path / "conf" / "m.yaml"
        manifest.parent.mkdir()
        manifest.write_text(
            "base: ../data\nfiles:\n  - path: sub\n    tenant: t1\n", encoding="utf-8"
        )
        sources = read_manifest(manifest)
        assert [s.path.name for s in sources] == ["x.md", "y.jsonl"]
        assert {s.options.tenant for s in sources} == {"t1"}

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            ("path,colour\na.md,red\n", "unknown column(s) colour"),
            ("path,version_date\na.md,2020-13-01\n", "line 2: version_date"),
            ("path\nnothing/*.md\n", "matches no file"),
            ("path\na.md\n./a.md\n", "already named by line 2"),
            ("path,authority\na.md,maybe\n", "authority"),
            ("", "empty manifest"),
        ],
    )
    def test_bad_manifests_are_refused_naming_the_row(
        self, tmp_path: Path, content: str, message: str
    ) -> None:
        """Unknown columns, bad values, empty globs and duplicate files are usage errors."""
        (tmp_path / "a.md").write_text("x", encoding="utf-8")
        manifest = tmp_path / "m.csv"
        manifest.write_text(content, encoding="utf-8")
        with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read_manifest(manifest)

    def test_the_financebench_manifest_names_every_mapped_filing(self) -> None:
        """The shipped FinanceBench manifest names each filing that has a mapping, with it."""
        shared_path("corpora", "financebench", "pdfs")
        sources = read_manifest(
            REPO_ROOT / "golden_sets" / "mappings" / "financebench-manifest.yaml"
        )
        stems = sorted(p.stem for p in FB_MAPPINGS.glob("*.yaml"))
        assert [s.path.stem for s in sources] == stems
        assert all(s.path.is_file() and s.options.doc_id == s.path.stem for s in sources)

    def test_python_rows_are_the_same_rows(self, tmp_path: Path) -> None:
        """ManifestRow objects give the same sources as a manifest file."""
        md(tmp_path, "a.md", "A")
        rows = [ManifestRow(path="a.md", tenant="t")]
        sources = sources_from_rows(rows, base=tmp_path)
        assert [(s.path, s.options.tenant) for s in sources] == [(tmp_path / "a.md", "t")]


def parse(*argv: str) -> Any:
    import argparse

    parser = argparse.ArgumentParser()
    add_ingest_arguments(parser)
    return parser.parse_args(list(argv))


class TestCommandLine:
    def test_manifest_ingest_prints_a_summary_table(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A manifest with a bad file exits 1, names it on stderr and counts it in the table."""
        md(tmp_path, "a.md", "A")
        (tmp_path / "bad.pdf").write_bytes(b"garbage")
        manifest = tmp_path / "m.csv"
        manifest.write_text(
            "path,doc_id,version,version_date,authority\na.md,,,,\n"
            "bad.pdf,B,1,2020-01-01,primary\n",
            encoding="utf-8",
        )
        code = run_ingest(parse("--manifest", str(manifest), "--store", str(tmp_path / "s")))
        out, err = capsys.readouterr()
        assert code == 1
        assert f"error: {tmp_path / 'bad.pdf'}: not a readable PDF" in err
        header, values = out.splitlines()[-3:-1]
        assert header.split() == [
            *("files", "stored", "unchanged", "skipped", "failed", "pages"),
            *("passages", "seconds"),
        ]
        assert values.split()[:5] == ["2", "1", "0", "0", "1"]

    def test_directory_argument_and_nothing_to_do(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A directory argument ingests the files under it; no PATH and no manifest exits 2."""
        (tmp_path / "docs").mkdir()
        md(tmp_path / "docs", "a.md", "A")
        md(tmp_path / "docs", "b.md", "B")
        store_dir = str(tmp_path / "s")
        assert run_ingest(parse(str(tmp_path / "docs"), "--store", store_dir, "--jobs", "2")) == 0
        with Store.open(store_dir) as store:
            assert store.stats()["versions"] == 2
        assert run_ingest(parse("--store", store_dir)) == 2
        assert "nothing to ingest" in capsys.readouterr().err

    def test_progress_bar_on_a_terminal_only(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """On a terminal stderr gets a bar over files and pages; --quiet turns it off."""
        md(tmp_path, "a.md", "A")
        md(tmp_path, "b.md", "B")

        class Terminal(io.StringIO):
            def isatty(self) -> bool:
                return True

        for quiet, expected in ((False, True), (True, False)):
            terminal = Terminal()
            monkeypatch.setattr(sys, "stderr", terminal)
            flags = ["--quiet"] if quiet else []
            store_dir = str(tmp_path / f"s{quiet}")
            assert run_ingest(parse(str(tmp_path), "--store", store_dir, *flags)) == 0
            bar = "[" + "#" * 30 + "] 2/2 files, 2 pages"
            assert (bar in terminal.getvalue()) is expected, terminal.getvalue()
        capsys.readouterr()

    def test_control_characters_in_reasons_are_escaped(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A file name with an escape sequence is printed escaped, never raw."""
        bad = tmp_path / "x\x1b[31m.md"
        bad.write_text("no front matter", encoding="utf-8")
        assert run_ingest(parse(str(bad), "--store", str(tmp_path / "s"))) == 1
        err = capsys.readouterr().err
        assert "\x1b" not in err and "x\\x1b[31m.md" in err


class TestExtractors:
    def test_the_default_extractor_is_recorded_with_the_version(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A PDF version records pypdfium2 and its version; a text version records none."""
        path = tmp_path / "d.pdf"
        path.write_bytes(make_pdf(["Hello page."]))
        store.ingest([path], PDF)
        store.ingest([md(tmp_path, "t.md", "T")])
        document = store.document("P", "1")
        assert document is not None and document.extractor is not None
        assert document.extractor.startswith(f"pypdfium2 {pypdfium2.version.PYPDFIUM_INFO.version}")
        text = store.document("T", "1")
        assert text is not None and text.extractor is None
        page = store.lookup("P", "1", 1)
        assert page is not None and page.page.text.strip() == "Hello page."

    def test_both_extractors_read_pages_alike(self, store: Store, tmp_path: Path) -> None:
        """pypdf and pypdfium2 give the same pages of a simple PDF; pypdf is recorded too."""
        path = tmp_path / "d.pdf"
        path.write_bytes(make_pdf(["One.", "", "Three."]))
        report = store.ingest([path], PDF.model_copy(update={"pdf_extractor": "pypdf"}))
        assert report.versions[0].extractor == f"pypdf {pypdf.__version__}"
        assert [(n.kind, n.page) for n in report.notices] == [("empty_page", 2)]

    def test_a_failing_page_is_named(
        self, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """When PDFium fails on one page, the error names that page."""
        path = tmp_path / "d.pdf"
        path.write_bytes(make_pdf(["one", "two", "three"]))
        real = pypdfium2.PdfTextPage.get_text_range
        calls: list[int] = []

        def failing_second(page: Any, *args: Any, **kwargs: Any) -> str:
            calls.append(1)
            if len(calls) == 2:
                raise pypdfium2.PdfiumError("broken page")
            return str(real(page, *args, **kwargs))

        monkeypatch.setattr(pypdfium2.PdfTextPage, "get_text_range", failing_second)
        with pytest.raises(IngestError, match="broken page") as caught:
            store.ingest([path], PDF)
        assert caught.value.page == 2

    def test_another_extractor_never_changes_stored_text(self, store: Store) -> None:
        """Re-ingesting a filing with the other extractor is refused, naming both extractors."""
        path = shared_path(
            "corpora", "financebench", "pdfs", "PEPSICO_2023_8K_dated-2023-05-05.pdf"
        )
        store.ingest([path], PDF.model_copy(update={"pdf_extractor": "pypdf"}))
        before = store.lookup("P", "1", 1)
        with pytest.raises(IngestError, match=r"extracted by pypdf .* this run uses pypdfium2"):
            store.ingest([path], PDF)
        assert store.lookup("P", "1", 1) == before


class TestMigration:
    def test_a_version_1_store_opens_and_is_migrated(self, tmp_path: Path) -> None:
        """A store written before extractors were recorded opens; its PDF versions say pypdf."""
        directory = tmp_path / "old"
        directory.mkdir()
        with contextlib.closing(
            sqlite3.connect(directory / "evidencegate.sqlite3", isolation_level=None)
        ) as db:
            for statement in _version_1_schema().split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id = {store_module._APPLICATION_ID}")
            db.execute("PRAGMA user_version = 1")
            for doc_id, uri in (("PDF", "file:///x/report.PDF"), ("TXT", "file:///x/a.md")):
                db.execute(
                    "INSERT INTO versions (tenant, doc_id, version, version_date, effective_from, "
                    "authority, title, source_uri, sha256, pages, passages) "
                    "VALUES ('default', ?, '1', '2020-01-01', '2020-01-01', 'primary', '', ?, ?, "
                    "0, 0)",
                    (doc_id, uri, "0" * 64),
                )
        with Store.open(directory, create=False) as store:
            pdf, text = store.document("PDF", "1"), store.document("TXT", "1")
            assert pdf is not None and pdf.extractor == "pypdf"
            assert text is not None and text.extractor is None
            assert store.ingested_keys() == frozenset()
        with contextlib.closing(sqlite3.connect(directory / "evidencegate.sqlite3")) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == store_module._SCHEMA_VERSION


def _version_1_schema() -> str:
    """The store schema before entity metadata (version 2) and extractors (version 3)."""
    assert "entity" not in SCHEMA_1 and "ingested_files" not in SCHEMA_1
    return SCHEMA_1
