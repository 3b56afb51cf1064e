"""Ingesting sources into the corpus store: formats, metadata, versions and transactions."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest
from conftest import REPO_ROOT, Ingested, shared_path

from evidencegate.corpus import IngestOptions, Store
from evidencegate.exceptions import IngestError, StoreError

NIST_MAPPING = REPO_ROOT / "golden_sets" / "mappings" / "nist_sp800_53.yaml"

FRONT = """---
doc_id: POL-1
version: "1.0"
version_date: 2023-01-01
authority: primary
title: Gifts Policy
---
"""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store") as opened:
        yield opened


def write(directory: Path, name: str, content: str | bytes) -> Path:
    path = directory / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def write_jsonl(directory: Path, name: str, rows: list[dict[str, Any] | str]) -> Path:
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    return write(directory, name, "\n".join(lines) + "\n")


def record(text: str, **fields: Any) -> dict[str, Any]:
    base = {
        "doc_id": "REG-1",
        "version": "v1",
        "version_date": "2020-01-01",
        "authority": "primary",
        "label": "1",
        "text": text,
    }
    return {**base, **fields}


def make_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF with one line of Helvetica text per page ("" = a blank page)."""
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, text in enumerate(pages):
        content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode() if text else b""
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
            f"<< /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def snapshot(store: Store) -> tuple[dict[str, int], list[str]]:
    """The store's counts and a full SQL dump of every row, read over a separate connection."""
    with contextlib.closing(sqlite3.connect(store.path)) as db:
        return store.stats(), list(db.iterdump())


PDF_OPTIONS = IngestOptions(
    doc_id="PDF-1", version="r1", version_date=dt.date(2020, 1, 1), authority="primary"
)


class TestStoreOpen:
    def test_missing_store_without_create_is_refused(self, tmp_path: Path) -> None:
        """Opening a directory without a store and create=False raises StoreError."""
        with pytest.raises(StoreError, match="missing"):
            Store.open(tmp_path / "nowhere", create=False)

    def test_a_file_that_is_not_sqlite_is_refused(self, tmp_path: Path) -> None:
        """A non-database file in the store's place raises StoreError, not a sqlite error."""
        write(tmp_path, "evidencegate.sqlite3", b"definitely not sqlite " * 100)
        with pytest.raises(StoreError, match="not a usable evidencegate store"):
            Store.open(tmp_path)

    def test_another_sqlite_database_is_refused(self, tmp_path: Path) -> None:
        """A SQLite file that evidencegate did not create is not taken for a store."""
        with contextlib.closing(sqlite3.connect(tmp_path / "evidencegate.sqlite3")) as db:
            db.execute("CREATE TABLE other (x)")
        with pytest.raises(StoreError, match="not an evidencegate store"):
            Store.open(tmp_path)

    def test_a_file_as_directory_is_refused(self, tmp_path: Path) -> None:
        """A regular file given as the store directory raises StoreError."""
        with pytest.raises(StoreError, match="not a directory"):
            Store.open(write(tmp_path, "file", "x"))

    def test_reopening_keeps_the_data(self, tmp_path: Path) -> None:
        """A store reopened with create=False has what was ingested before."""
        source = write(tmp_path, "p.md", FRONT + "Text.")
        with Store.open(tmp_path / "s") as store:
            store.ingest([source])
        with Store.open(tmp_path / "s", create=False) as store:
            assert store.stats() == {"documents": 1, "versions": 1, "pages": 1, "passages": 1}
            assert store.directory == tmp_path / "s"

    def test_a_closed_store_refuses_calls(self, tmp_path: Path) -> None:
        """Using a store after close() raises StoreError."""
        store = Store.open(tmp_path)
        store.close()
        with pytest.raises(StoreError, match="closed"):
            store.stats()


class TestTextIngest:
    def test_front_matter_gives_metadata_and_is_not_page_text(
        self, store: Store, tmp_path: Path
    ) -> None:
        """YAML front matter fills the document fields and is not part of the page text."""
        store.ingest([write(tmp_path, "p.md", FRONT + "Gifts up to $100 may be accepted.")])
        doc = store.document("POL-1", "1.0")
        assert doc is not None
        assert (doc.version_date, doc.effective_from, doc.authority, doc.title) == (
            dt.date(2023, 1, 1),
            dt.date(2023, 1, 1),
            "primary",
            "Gifts Policy",
        )
        page = store.lookup("POL-1", "1.0", 1)
        assert page is not None
        assert page.page.text == "Gifts up to $100 may be accepted."

    def test_form_feeds_split_pages(self, store: Store, tmp_path: Path) -> None:
        """Form feeds separate pages; a final form feed does not add an empty page."""
        store.ingest([write(tmp_path, "p.txt", FRONT + "one\ftwo\fthree\f")])
        doc = store.document("POL-1", "1.0")
        assert doc is not None and doc.pages == 3
        page = store.lookup("POL-1", "1.0", 2)
        assert page is not None and page.page.text == "two"

    def test_empty_inner_page_is_kept_and_reported(self, store: Store, tmp_path: Path) -> None:
        """An empty page between pages keeps its number and is reported, not silently dropped."""
        report = store.ingest([write(tmp_path, "p.txt", FRONT + "one\f  \fthree")])
        third = store.lookup("POL-1", "1.0", 3)
        assert third is not None and third.page.text == "three"
        assert [(n.kind, n.page) for n in report.notices] == [("empty_page", 2)]

    def test_options_give_metadata_to_plain_text(self, store: Store, tmp_path: Path) -> None:
        """A file without front matter takes its metadata from the options."""
        options = IngestOptions(
            doc_id="T", version="v", version_date=dt.date(2021, 5, 1), authority="secondary"
        )
        store.ingest([write(tmp_path, "t.txt", "Plain text.")], options)
        doc = store.document("T", "v")
        assert doc is not None and doc.authority == "secondary" and doc.tenant == "default"

    def test_crlf_is_normalised(self, store: Store, tmp_path: Path) -> None:
        """Windows line endings are stored as \\n so quotes match regardless of the source."""
        store.ingest([write(tmp_path, "p.md", FRONT.replace("\n", "\r\n") + "a\r\nb")])
        page = store.lookup("POL-1", "1.0", 1)
        assert page is not None and page.page.text == "a\nb"

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            ("", "empty file"),
            ("  \n\n", "empty file"),
            (FRONT, "no text after the front matter"),
            (FRONT.replace("title:", "titel:") + "x", "unknown front matter key"),
            ("---\ndoc_id: X\nno closing line\n", "never closed"),
            ("---\n[a, b]\n---\nx", "must be a YAML mapping"),
            (FRONT.replace('"1.0"', "1.0") + "x", "version must be a string"),
            (FRONT.replace("2023-01-01", "2023-02-30") + "x", "not valid YAML"),
            (FRONT.replace("2023-01-01", "'2023-02-30'") + "x", "bad version_date"),
            (FRONT.replace("2023-01-01", "'1 Jan 2023'") + "x", "bad version_date"),
            (FRONT.replace("primary", "Primary") + "x", "authority must be"),
            (FRONT + "x", None),
        ],
    )
    def test_bad_text_files_are_refused(
        self, store: Store, tmp_path: Path, content: str, message: str | None
    ) -> None:
        """Empty files, bad front matter and bad field values raise IngestError naming the file."""
        path = write(tmp_path, "p.md", content)
        if message is None:
            store.ingest([path])
            return
        with pytest.raises(IngestError, match=message) as caught:
            store.ingest([path])
        assert caught.value.path == str(path)

    def test_missing_date_names_the_flag(self, store: Store, tmp_path: Path) -> None:
        """A file without any date says to pass --version-date."""
        options = IngestOptions(doc_id="T", version="v", authority="primary")
        with pytest.raises(IngestError, match="--version-date"):
            store.ingest([write(tmp_path, "t.txt", "x")], options)

    def test_missing_authority_is_never_assumed(self, store: Store, tmp_path: Path) -> None:
        """Without an authority the file is refused with a hint to pass --authority."""
        options = IngestOptions(doc_id="T", version="v", version_date=dt.date(2020, 1, 1))
        with pytest.raises(IngestError, match="--authority primary"):
            store.ingest([write(tmp_path, "t.txt", "x")], options)

    def test_file_and_option_must_agree(self, store: Store, tmp_path: Path) -> None:
        """An option contradicting the file's front matter is an error, not a silent override."""
        with pytest.raises(IngestError, match="doc_id is 'POL-1' in the source but --doc-id"):
            store.ingest([write(tmp_path, "p.md", FRONT + "x")], IngestOptions(doc_id="OTHER"))

    def test_not_utf8_is_refused(self, store: Store, tmp_path: Path) -> None:
        """Bytes that are not UTF-8 raise IngestError instead of being guessed at."""
        with pytest.raises(IngestError, match="not UTF-8"):
            store.ingest([write(tmp_path, "p.md", FRONT.encode() + b"caf\xe9")])

    @pytest.mark.parametrize(
        ("name", "message"),
        [
            ("missing.md", "no such file"),
            ("notes.docx", "unsupported file type"),
            (".", "directory"),
        ],
    )
    def test_unreadable_paths_are_refused(
        self, store: Store, tmp_path: Path, name: str, message: str
    ) -> None:
        """Missing files, unknown suffixes and directories raise IngestError."""
        if name == "notes.docx":
            write(tmp_path, name, "x")
        with pytest.raises(IngestError, match=message):
            store.ingest([tmp_path / name])


class TestPdfIngest:
    def test_one_page_per_pdf_page(self, store: Store, tmp_path: Path) -> None:
        """Each PDF page is one stored page; a blank page keeps its number and is reported."""
        path = write(tmp_path, "d.pdf", make_pdf(["First page text.", "", "Third page text."]))
        report = store.ingest([path], PDF_OPTIONS)
        doc = store.document("PDF-1", "r1")
        assert doc is not None and doc.pages == 3
        third = store.lookup("PDF-1", "r1", 3)
        assert third is not None and "Third page text." in third.page.text
        assert [(n.kind, n.page) for n in report.notices] == [("empty_page", 2)]

    def test_corrupt_pdf_is_refused_naming_the_file(self, store: Store, tmp_path: Path) -> None:
        """Garbage bytes with a .pdf suffix raise IngestError naming the file."""
        path = write(tmp_path, "bad.pdf", b"this is not a pdf at all")
        with pytest.raises(IngestError, match="not a readable PDF") as caught:
            store.ingest([path], PDF_OPTIONS)
        assert caught.value.path == str(path)

    def test_pdf_without_text_is_refused(self, store: Store, tmp_path: Path) -> None:
        """A PDF with no extractable text on any page raises IngestError."""
        path = write(tmp_path, "blank.pdf", make_pdf(["", ""]))
        with pytest.raises(IngestError, match="no extractable text"):
            store.ingest([path], PDF_OPTIONS)

    def test_failing_page_is_named(
        self, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """When pypdf's text extraction fails on one page the error names that page."""
        path = write(tmp_path, "d.pdf", make_pdf(["one", "two", "three"]))
        real = pypdf.PageObject.extract_text
        calls = []

        def failing_second(page: pypdf.PageObject, *args: Any, **kwargs: Any) -> str:
            calls.append(1)
            if len(calls) == 2:
                raise ValueError("broken content stream")
            return real(page, *args, **kwargs)

        monkeypatch.setattr(pypdf.PageObject, "extract_text", failing_second)
        pypdf_options = PDF_OPTIONS.model_copy(update={"pdf_extractor": "pypdf"})
        with pytest.raises(IngestError, match="broken content stream") as caught:
            store.ingest([path], pypdf_options)
        assert caught.value.page == 2

    def test_pdf_needs_version_metadata(self, store: Store, tmp_path: Path) -> None:
        """A PDF without a version names the missing --version flag."""
        path = write(tmp_path, "d.pdf", make_pdf(["text"]))
        with pytest.raises(IngestError, match="--version"):
            store.ingest([path], IngestOptions(doc_id="D", authority="primary"))

    def test_real_pdf_page_count_matches_pypdf(self, store: Store) -> None:
        """NIST SP 800-30r1 is stored with exactly as many pages as pypdf reads."""
        path = shared_path("corpora", "regulatory_pdfs", "NIST.SP.800-30r1.pdf")
        store.ingest([path], PDF_OPTIONS)
        doc = store.document("PDF-1", "r1")
        assert doc is not None
        assert doc.pages == len(pypdf.PdfReader(path).pages)
        page = store.lookup("PDF-1", "r1", doc.pages)
        assert page is not None and page.page.text


class TestJsonlIngest:
    def test_records_group_into_versions_in_file_order(self, store: Store, tmp_path: Path) -> None:
        """Interleaved records form one version per (doc_id, version), paged in file order."""
        path = write_jsonl(
            tmp_path,
            "r.jsonl",
            [
                record("a1", label="A1"),
                record("b1", version="v2", version_date="2021-01-01", label="B1"),
                record("a2", label="A2"),
            ],
        )
        report = store.ingest([path])
        assert [(v.version, v.pages) for v in report.added] == [("v1", 2), ("v2", 1)]
        page = store.lookup("REG-1", "v1", 2)
        assert page is not None and (page.page.label, page.page.text) == ("A2", "a2")

    def test_section_is_the_label_when_there_is_none(self, store: Store, tmp_path: Path) -> None:
        """A record without a label is labelled by its section."""
        row = record("text")
        del row["label"]
        store.ingest([write_jsonl(tmp_path, "r.jsonl", [{**row, "section": "§ 2"}])])
        page = store.lookup("REG-1", "v1", 1)
        assert page is not None and page.page.label == "§ 2"

    def test_field_map_joins_fields(self, store: Store, tmp_path: Path) -> None:
        """A target mapped to A+B reads both fields joined by a blank line, skipping empty ones."""
        rows: list[dict[str, Any] | str] = [
            {**record(""), "statement": "Do X.", "guidance": "Because Y."},
            {**record(""), "statement": "Do Z.", "guidance": None},
        ]
        options = IngestOptions(field_map={"text": "statement+guidance"})
        store.ingest([write_jsonl(tmp_path, "r.jsonl", rows)], options)
        first, second = store.lookup("REG-1", "v1", 1), store.lookup("REG-1", "v1", 2)
        assert first is not None and first.page.text == "Do X.\n\nBecause Y."
        assert second is not None and second.page.text == "Do Z."

    def test_records_without_text_are_skipped_and_reported(
        self, store: Store, tmp_path: Path
    ) -> None:
        """Records with empty text are not stored, are listed by line, and do not take a page."""
        rows: list[dict[str, Any] | str] = [record("a"), record("   "), "", record("c")]
        report = store.ingest([write_jsonl(tmp_path, "r.jsonl", rows)])
        assert [(n.kind, n.line) for n in report.skipped] == [("skipped_record", 2)]
        page = store.lookup("REG-1", "v1", 2)
        assert page is not None and page.page.text == "c"

    def test_version_dates_date_undated_versions(self, store: Store, tmp_path: Path) -> None:
        """version_dates gives each version its date when the records carry none."""
        row = record("x", version="rev4")
        del row["version_date"]
        options = IngestOptions(version_dates={"rev4": dt.date(2015, 1, 22)})
        store.ingest([write_jsonl(tmp_path, "r.jsonl", [row])], options)
        doc = store.document("REG-1", "rev4")
        assert doc is not None and doc.effective_from == dt.date(2015, 1, 22)

    def test_effective_from_alone_dates_the_version(self, store: Store, tmp_path: Path) -> None:
        """A record with effective_from and no version_date uses it for both."""
        row = record("x", effective_from="2019-03-01")
        del row["version_date"]
        store.ingest([write_jsonl(tmp_path, "r.jsonl", [row])])
        doc = store.document("REG-1", "v1")
        assert doc is not None and doc.version_date == dt.date(2019, 3, 1)

    @pytest.mark.parametrize(
        ("bad", "message"),
        [
            ('{"doc_id": "REG-1", "text": ', "invalid JSON"),
            ("[1, 2]", "must be a JSON object"),
            (json.dumps({**record("x"), "doc_id": None}), "no doc_id"),
            (json.dumps(record("x", version_date="01/02/2020")), "bad version_date"),
            (json.dumps(record("x", authority="tertiary")), "authority must be"),
            (json.dumps(record("x", version_date="2020-02-01")), "version_date is 2020-02-01"),
            (json.dumps({**record("x"), "text": ["not", "text"]}), "'text' must be a string"),
            (json.dumps(record("x", effective_to="2019-01-01")), "must be after effective_from"),
        ],
    )
    def test_malformed_line_is_named_and_nothing_is_stored(
        self, store: Store, tmp_path: Path, bad: str, message: str
    ) -> None:
        """A bad line in the middle of a good file names its line, and the store is untouched."""
        earlier = write(tmp_path, "p.md", FRONT + "Stored earlier.")
        store.ingest([earlier])
        before = snapshot(store)
        path = write_jsonl(tmp_path, "r.jsonl", [record("a"), record("b"), bad, record("d")])
        with pytest.raises(IngestError, match=message) as caught:
            store.ingest([path])
        assert (caught.value.path, caught.value.line) == (str(path), 3)
        assert snapshot(store) == before

    def test_empty_jsonl_is_refused(self, store: Store, tmp_path: Path) -> None:
        """A JSONL file without records raises IngestError."""
        with pytest.raises(IngestError, match="no records"):
            store.ingest([write(tmp_path, "r.jsonl", "\n\n")])

    def test_jsonl_with_only_empty_records_is_refused(self, store: Store, tmp_path: Path) -> None:
        """A JSONL file none of whose records has text raises IngestError."""
        with pytest.raises(IngestError, match="none of its 2 record"):
            store.ingest([write_jsonl(tmp_path, "r.jsonl", [record(""), record("")])])


class TestMappingFile:
    def test_nist_mapping_loads(self) -> None:
        """The shipped NIST mapping gives authority, the text field map and three version dates."""
        options = IngestOptions.from_mapping_file(NIST_MAPPING)
        assert options.authority == "primary"
        assert options.field_map == {"text": "statement+guidance"}
        assert set(options.version_dates) == {"rev4", "rev5.0.1", "rev5.1.1+u4"}

    @pytest.mark.parametrize(
        ("content", "message"),
        [
            ("authority: primary\nfield_mapp: {}\n", "field_mapp"),
            ("version_dates: {rev4: 2015-13-01}\n", "not valid YAML"),
            ("version_dates: {rev4: '2015-13-01'}\n", "version_dates.rev4"),
            ("field_map: {body: text}\n", "unknown target field 'body'"),
            ("- a list\n", "YAML mapping"),
            ("authority: [unclosed\n", "not valid YAML"),
        ],
    )
    def test_bad_mapping_files_are_refused(
        self, tmp_path: Path, content: str, message: str
    ) -> None:
        """Unknown keys, bad dates and unknown targets raise IngestError naming the mapping file."""
        path = write(tmp_path, "m.yaml", content)
        with pytest.raises(IngestError, match=message) as caught:
            IngestOptions.from_mapping_file(path)
        assert caught.value.path == str(path)

    def test_nist_controls_ingest_with_the_mapping(self, store: Store) -> None:
        """The real NIST SP 800-53 file ingests with its mapping; empty controls are reported."""
        path = shared_path("corpora", "nist_sp800_53", "controls.jsonl")
        report = store.ingest([path], IngestOptions.from_mapping_file(NIST_MAPPING))
        assert [v.version for v in report.added] == ["rev4", "rev5.0.1", "rev5.1.1+u4"]
        lines = path.read_text(encoding="utf-8").splitlines()
        assert report.skipped
        for notice in report.skipped:
            assert notice.line is not None
            row = json.loads(lines[notice.line - 1])
            assert not (row["statement"] or "").strip() and not (row["guidance"] or "").strip()
        assert store.stats()["pages"] + len(report.skipped) == len(lines)
        current = store.in_force("NIST-SP-800-53", dt.date(2022, 1, 1))
        assert current is not None and current.version == "rev5.0.1"


class TestVersions:
    def test_identical_reingest_changes_nothing(self, store: Store, tmp_path: Path) -> None:
        """Ingesting the same content again is reported unchanged and leaves every row as it was."""
        path = write(tmp_path, "p.md", FRONT + "Text.")
        store.ingest([path])
        before = snapshot(store)
        report = store.ingest([path])
        assert [v.status for v in report.versions] == ["unchanged"]
        assert snapshot(store) == before

    def test_changed_content_under_a_stored_version_is_refused(
        self, store: Store, tmp_path: Path
    ) -> None:
        """The same doc_id@version with other text raises IngestError; the store is unchanged."""
        store.ingest([write(tmp_path, "p.md", FRONT + "Text.")])
        before = snapshot(store)
        with pytest.raises(IngestError, match="immutable"):
            store.ingest([write(tmp_path, "p2.md", FRONT + "Changed text.")])
        assert snapshot(store) == before

    def test_new_version_supersedes_from_its_date(self, store: Store, tmp_path: Path) -> None:
        """A later version ends the earlier one on its effective date (exclusive end)."""
        newer = FRONT.replace('"1.0"', '"2.0"').replace("2023-01-01", "2024-03-01")
        store.ingest(
            [write(tmp_path, "b.md", newer + "New."), write(tmp_path, "a.md", FRONT + "Old.")]
        )
        old, new = store.versions("POL-1")
        assert (old.version, old.effective_to, old.superseded_by) == (
            "1.0",
            new.effective_from,
            "2.0",
        )
        assert (new.effective_to, new.superseded_by) == (None, None)
        before = store.in_force("POL-1", dt.date(2024, 2, 29))
        after = store.in_force("POL-1", dt.date(2024, 3, 1))
        assert before is not None and before.version == "1.0"
        assert after is not None and after.version == "2.0"
        assert store.in_force("POL-1", dt.date(2022, 12, 31)) is None

    def test_same_date_versions_are_ordered_by_version_string(
        self, store: Store, tmp_path: Path
    ) -> None:
        """Of two versions with one date the greater version string is in force."""
        rows: list[dict[str, Any] | str] = [
            record("b", version="2013-b"),
            record("a", version="2013-a"),
        ]
        store.ingest([write_jsonl(tmp_path, "r.jsonl", rows)])
        first, _ = store.versions("REG-1")
        assert (first.version, first.superseded_by) == ("2013-a", "2013-b")
        current = store.in_force("REG-1", dt.date(2020, 1, 1))
        assert current is not None and current.version == "2013-b"

    def test_earlier_explicit_effective_to_is_kept(self, store: Store, tmp_path: Path) -> None:
        """A source's own effective_to survives when it is before the next version's start."""
        rows: list[dict[str, Any] | str] = [
            record("a", effective_to="2020-06-01"),
            record("b", version="v2", version_date="2021-01-01"),
        ]
        store.ingest([write_jsonl(tmp_path, "r.jsonl", rows)])
        first = store.document("REG-1", "v1")
        assert first is not None
        assert (first.effective_to, first.superseded_by) == (dt.date(2020, 6, 1), "v2")
        assert store.in_force("REG-1", dt.date(2020, 7, 1)) is None

    def test_tenants_keep_separate_versions(self, store: Store, tmp_path: Path) -> None:
        """The same doc_id@version may differ between tenants; each sees only its own."""
        store.ingest([write(tmp_path, "a.md", FRONT + "Tenant A text.")], IngestOptions(tenant="a"))
        store.ingest([write(tmp_path, "b.md", FRONT + "Tenant B text.")], IngestOptions(tenant="b"))
        page_a = store.lookup("POL-1", "1.0", 1, tenant="a")
        assert page_a is not None and page_a.page.text == "Tenant A text."
        assert store.document("POL-1", "1.0") is None
        assert store.stats()["documents"] == 2


class TestTransactions:
    @pytest.mark.parametrize(
        ("name", "content"),
        [("empty.md", b""), ("bad.jsonl", b'{"doc_id": "REG-1"}\n{oops}\n')],
    )
    def test_a_failing_file_rolls_back_the_whole_call(
        self, store: Store, tmp_path: Path, name: str, content: bytes
    ) -> None:
        """When the last file fails, the good files of the same call are not stored either."""
        store.ingest([write(tmp_path, "old.md", FRONT + "Stored earlier.")])
        before = snapshot(store)
        good_md = write(tmp_path, "new.md", FRONT.replace("POL-1", "POL-2") + "New.")
        good_jsonl = write_jsonl(tmp_path, "good.jsonl", [record("a"), record("b")])
        with pytest.raises(IngestError):
            store.ingest([good_md, good_jsonl, write(tmp_path, name, content)])
        assert snapshot(store) == before

    def test_a_corrupt_pdf_rolls_back_the_whole_call(self, store: Store, tmp_path: Path) -> None:
        """A corrupt PDF after a good file of the same call leaves the store as it was."""
        store.ingest([write(tmp_path, "old.md", FRONT + "Stored earlier.")])
        before = snapshot(store)
        good = write(tmp_path, "good.txt", "Good text, stored first in the call.")
        with pytest.raises(IngestError, match="not a readable PDF"):
            store.ingest([good, write(tmp_path, "bad.pdf", b"%PDF-1.4 garbage")], PDF_OPTIONS)
        assert snapshot(store) == before

    def test_a_failure_after_a_new_version_restores_supersession(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A rolled-back new version leaves the old version's validity exactly as it was."""
        store.ingest([write(tmp_path, "a.md", FRONT + "Old.")])
        before = snapshot(store)
        newer = FRONT.replace('"1.0"', '"2.0"').replace("2023-01-01", "2024-03-01")
        with pytest.raises(IngestError):
            store.ingest([write(tmp_path, "b.md", newer + "New."), write(tmp_path, "c.md", "")])
        assert snapshot(store) == before
        current = store.in_force("POL-1", dt.date(2025, 1, 1))
        assert current is not None and current.version == "1.0"


class TestCfpbCorpus:
    def test_whole_file_ingests_with_only_an_authority(self, cfpb_ingest: Ingested) -> None:
        """All 47k CFPB paragraphs ingest with --authority primary: 5 documents, 49 versions."""
        stats = cfpb_ingest.store.stats()
        with cfpb_ingest.source.open(encoding="utf-8") as lines:
            rows = sum(1 for _ in lines)
        assert (stats["documents"], stats["versions"]) == (5, 49)
        assert stats["pages"] + len(cfpb_ingest.report.skipped) == rows
        assert stats["passages"] >= stats["pages"]
