"""``evidencegate ingest`` as a command: arguments, report, exit codes."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from evidencegate.cli.corpus import add_ingest_arguments, options_from_args, run_ingest
from evidencegate.corpus import Store
from evidencegate.exceptions import UsageError

NIST_MAPPING = REPO_ROOT / "golden_sets" / "mappings" / "nist_sp800_53.yaml"


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="evidencegate ingest")
    add_ingest_arguments(parser)
    return parser.parse_args(list(argv))


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    return path


class TestOptionsFromArgs:
    def test_flags_become_options(self, tmp_path: Path) -> None:
        """Metadata flags, --field and VERSION=DATE dates map onto IngestOptions fields."""
        args = parse(
            "f.jsonl",
            "--store",
            str(tmp_path),
            "--authority",
            "secondary",
            "--tenant",
            "acme",
            "--field",
            "text=statement+guidance",
            "--field",
            "label=control_id",
            "--version-date",
            "rev4=2015-01-22",
            "--version-date",
            "2020-02-02",
        )
        options = options_from_args(args)
        assert (options.authority, options.tenant) == ("secondary", "acme")
        assert options.field_map == {"text": "statement+guidance", "label": "control_id"}
        assert options.version_dates == {"rev4": dt.date(2015, 1, 22)}
        assert options.version_date == dt.date(2020, 2, 2)

    def test_flags_override_the_mapping_file(self, tmp_path: Path) -> None:
        """--mapping loads the YAML options; flags replace fields and add map entries."""
        args = parse(
            "f.jsonl",
            "--store",
            str(tmp_path),
            "--mapping",
            str(NIST_MAPPING),
            "--authority",
            "secondary",
            "--version-date",
            "rev4=2013-04-30",
            "--field",
            "label=control_id",
        )
        options = options_from_args(args)
        assert options.authority == "secondary"
        assert options.field_map == {"text": "statement+guidance", "label": "control_id"}
        assert options.version_dates["rev4"] == dt.date(2013, 4, 30)
        assert options.version_dates["rev5.0.1"] == dt.date(2021, 6, 8)

    @pytest.mark.parametrize(
        ("flags", "message"),
        [
            (["--field", "text"], "TARGET=SRC"),
            (["--field", "body=text"], "unknown target field 'body'"),
            (["--version-date", "2020-13-01"], "expected a date"),
            (["--version-date", "v1="], "VERSION=DATE"),
            (["--version-date", "2020-01-01", "--version-date", "2021-01-01"], "one DATE"),
        ],
    )
    def test_bad_flags_are_usage_errors(
        self, tmp_path: Path, flags: list[str], message: str
    ) -> None:
        """Malformed flag values raise UsageError naming the problem."""
        with pytest.raises(UsageError, match=message):
            options_from_args(parse("f.md", "--store", str(tmp_path), *flags))


class TestRunIngest:
    def test_ingest_prints_a_report_and_returns_0(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A successful ingest prints what was added and the store counts, and exits 0."""
        source = write_jsonl(
            tmp_path / "r.jsonl",
            [{"doc_id": "R", "version": "v1", "label": "1", "text": "Some rule text."}],
        )
        store_dir = tmp_path / "store"
        code = run_ingest(
            parse(
                str(source),
                "--store",
                str(store_dir),
                "--authority",
                "primary",
                "--version-date",
                "v1=2020-01-01",
            )
        )
        out = capsys.readouterr().out
        assert code == 0
        assert "added     R@v1 (default)" in out
        assert "store: documents=1, versions=1, pages=1, passages=1" in out
        with Store.open(store_dir, create=False) as store:
            doc = store.document("R", "v1")
        assert doc is not None and doc.version_date == dt.date(2020, 1, 1)

    def test_json_report(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--json prints the full report, including skipped records, and the store counts."""
        rows: list[dict[str, object]] = [
            {"doc_id": "R", "version": "v1", "version_date": "2020-01-01", "text": "A."},
            {"doc_id": "R", "version": "v1", "version_date": "2020-01-01", "text": ""},
        ]
        source = write_jsonl(tmp_path / "r.jsonl", rows)
        args = parse(
            str(source), "--store", str(tmp_path / "s"), "--authority", "primary", "--json"
        )
        assert run_ingest(args) == 0
        printed = json.loads(capsys.readouterr().out)
        assert printed["store"]["pages"] == 1
        assert [v["status"] for v in printed["report"]["versions"]] == ["added"]
        assert [(n["kind"], n["line"]) for n in printed["report"]["notices"]] == [
            ("skipped_record", 2)
        ]

    def test_a_file_that_fails_exits_1_with_message(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A file that cannot be ingested prints ``error: PATH: ...`` on stderr and exits 1,
        storing nothing of it."""
        source = tmp_path / "note.txt"
        source.write_text("text", encoding="utf-8")
        args = parse(
            *(str(source), "--store", str(tmp_path / "s"), "--authority", "primary"),
            *("--doc-id", "N", "--version", "1"),
        )
        assert run_ingest(args) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: {source}: no date for version '1'")
        with Store.open(tmp_path / "s", create=False) as store:
            assert store.stats()["versions"] == 0

    def test_bad_flag_exits_2(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A malformed --field value is reported as an error with exit code 2."""
        args = parse("x.md", "--store", str(tmp_path), "--field", "nonsense")
        assert run_ingest(args) == 2
        assert capsys.readouterr().err.startswith("error: --field 'nonsense'")
