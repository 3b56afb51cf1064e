"""``evidencegate ingest``: the corpus part of the command line (wired in by ``evidencegate.cli``).

Options combine as follows: ``--mapping FILE.yaml`` loads :class:`IngestOptions`; any flag given
on the command line replaces that field, except ``--field`` and ``--version-date VERSION=DATE``,
which are added to (and override single entries of) the mapping's ``field_map`` and
``version_dates``. With ``--manifest``, those options are the defaults of every row (see
:mod:`evidencegate.corpus.manifest`); PATH arguments (files or directories) use them as they are.

Files are read in ``--jobs`` worker processes and each is committed on its own
(:mod:`evidencegate.corpus.batch`): a bad file is reported and the others are stored. Exit
status: 0 every file stored (or already stored), 1 some file failed (each is named on stderr
with its reason), 2 bad usage (flags, manifest, store).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from evidencegate.corpus.backends import open_store
from evidencegate.corpus.batch import FileDone, IngestSource, default_jobs, ingest_batch
from evidencegate.corpus.ingest import (
    IngestOptions,
    IngestReport,
    describe_validation_error,
    format_pages,
    parse_date,
)
from evidencegate.corpus.manifest import expand_path, read_manifest
from evidencegate.corpus.pdf import PDF_EXTRACTORS
from evidencegate.exceptions import UsageError
from evidencegate.userio import ProgressBar, terminal_safe

__all__ = ["add_ingest_arguments", "options_from_args", "run_ingest"]


def add_ingest_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``evidencegate ingest`` to ``parser``."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help=".pdf, .txt, .md or .jsonl files, or directories holding them",
    )
    parser.add_argument(
        "--manifest",
        metavar="FILE",
        help="CSV or YAML rows: path (file, directory or glob) and the metadata of each",
    )
    parser.add_argument(
        "--store", required=True, metavar="STORE", help="store directory or postgresql:// URL"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help=f"worker processes reading files (default: the number of cores, {default_jobs()})",
    )
    parser.add_argument(
        "--pdf-extractor",
        choices=PDF_EXTRACTORS,
        help="PDF text extractor (default pypdfium2); recorded with each stored version",
    )
    parser.add_argument("--effective-from", metavar="DATE", help="YYYY-MM-DD (default: the date)")
    parser.add_argument("--effective-to", metavar="DATE", help="YYYY-MM-DD, exclusive")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--doc-id", help="document id, for files that do not carry one")
    parser.add_argument("--version", help="document version, for files that do not carry one")
    parser.add_argument(
        "--version-date",
        action="append",
        default=[],
        metavar="DATE|VERSION=DATE",
        help="YYYY-MM-DD for every version, or for one version (repeatable)",
    )
    parser.add_argument(
        "--authority",
        choices=["primary", "secondary"],
        help="whether the files are primary sources; required unless the files say it",
    )
    parser.add_argument("--title", help="document title")
    parser.add_argument("--tenant", help='tenant (default "default")')
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        metavar="TARGET=SRC[+SRC]",
        help="read JSONL target field TARGET from field SRC (or SRCs joined; repeatable)",
    )
    parser.add_argument("--mapping", metavar="FILE.yaml", help="IngestOptions as a YAML file")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def options_from_args(args: argparse.Namespace) -> IngestOptions:
    """Build IngestOptions from ``--mapping`` and the flags; UsageError names a bad flag."""
    base = IngestOptions.from_mapping_file(args.mapping) if args.mapping else IngestOptions()
    data: dict[str, Any] = base.model_dump()
    for name in ("doc_id", "version", "authority", "title", "tenant", "pdf_extractor"):
        value = getattr(args, name)
        if value is not None:
            data[name] = value
    for name in ("effective_from", "effective_to"):
        value = getattr(args, name)
        if value is not None:
            data[name] = _date("--" + name.replace("_", "-"), value)
    for item in args.field:
        target, source = _pair("--field", item, "TARGET=SRC[+SRC]")
        data["field_map"][target] = source
    single_dates: set[dt.date] = set()
    for item in args.version_date:
        if "=" in item:
            version, day = _pair("--version-date", item, "VERSION=DATE")
            data["version_dates"][version] = _date("--version-date", day)
        else:
            single_dates.add(_date("--version-date", item))
    if len(single_dates) > 1:
        shown = ", ".join(sorted(day.isoformat() for day in single_dates))
        raise UsageError(
            f"--version-date: one DATE for all versions, got {shown} (use VERSION=DATE)"
        )
    if single_dates:
        data["version_date"] = single_dates.pop()
    try:
        return IngestOptions.model_validate(data)
    except ValidationError as exc:
        raise UsageError(f"bad ingest options: {describe_validation_error(exc)}") from exc


def sources_from_args(args: argparse.Namespace) -> list[IngestSource]:
    """The manifest's files, then the PATH arguments (directories expanded); UsageError when
    there are none or the manifest is bad."""
    options = options_from_args(args)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be >= 1 (got {args.jobs})")
    sources = read_manifest(args.manifest, options) if args.manifest else []
    for raw in args.paths:
        path = Path(raw)
        files = expand_path(path)
        if path.is_dir() and not files:
            raise UsageError(f"{raw}: the directory holds no .pdf, .txt, .md or .jsonl file")
        sources.extend(IngestSource(f, options, raw if f == path else None) for f in files)
    if not sources:
        raise UsageError("nothing to ingest: give PATHs or --manifest FILE")
    return sources


def run_ingest(args: argparse.Namespace) -> int:
    """Ingest the files into the store: 0 all stored, 1 some failed, 2 usage error."""
    started = time.perf_counter()
    try:
        sources = sources_from_args(args)
        with open_store(args.store) as store:
            progress = _progress(len(sources), args.quiet or args.json)
            try:
                report = ingest_batch(store, sources, jobs=args.jobs, on_file=progress)
            except KeyboardInterrupt:
                print(
                    "\ninterrupted: every file reported done is stored; run the same command "
                    "again to ingest the rest",
                    file=sys.stderr,
                )
                return 130
            if report.added:  # build or update the ranking index now, not at the first search
                store.refresh_index()
            stats = store.stats()
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    for failure in report.failures:
        where = _where(failure.path, failure.line, failure.page)
        print(f"error: {terminal_safe(where)}: {terminal_safe(failure.reason)}", file=sys.stderr)
    if args.json:
        print(json.dumps({"report": report.model_dump(mode="json"), "store": stats}, indent=2))
    else:
        print(terminal_safe(report.summary(), one_line=False))
        for line in _empty_pages(report)[:5]:
            print(f"  note: {terminal_safe(line)}")
        for notice in [n for n in report.notices if n.kind != "empty_page"][:5]:
            where = _where(notice.path, notice.line, notice.page)
            print(f"  note: {terminal_safe(where)}: {terminal_safe(notice.message)}")
        if len(report.notices) > 5:
            print(f"  ... and {len(report.notices)} notes in all (--json lists them all)")
        print(_table(report, seconds))
        print("store: " + ", ".join(f"{key}={value}" for key, value in stats.items()))
    return 1 if report.failures else 0


def _progress(total: int, quiet: bool) -> Any:
    """A progress bar over files and pages on stderr, or None (quiet, or not a terminal)."""
    if quiet or not sys.stderr.isatty():
        return None
    bar = ProgressBar(total, stream=sys.stderr, unit="files", error_label="failed")
    pages = 0

    def advance(done: FileDone) -> None:
        nonlocal pages
        pages += done.pages
        bar.advance(error=done.status == "failed", note=f"{pages:,} pages")

    return advance


def _table(report: IngestReport, seconds: float) -> str:
    """The summary table: files by outcome, pages and passages stored, wall time."""
    added = report.added
    pages = sum(v.pages for v in added)
    stored_files = len({v.path for v in added})
    header = ("files", "stored", "unchanged", "skipped", "failed", "pages", "passages", "seconds")
    values = (
        report.files,
        stored_files,
        report.files - stored_files - report.skipped_files - len(report.failures),
        report.skipped_files,
        len(report.failures),
        pages,
        sum(v.passages for v in added),
        f"{seconds:.1f}",
    )
    widths = [max(len(h), len(str(v))) for h, v in zip(header, values, strict=True)]
    return "\n".join(
        "  ".join(str(cell).rjust(width) for cell, width in zip(row, widths, strict=True))
        for row in (header, values)
    )


def _empty_pages(report: IngestReport) -> list[str]:
    """One line per file with pages without text, naming the pages."""
    by_file: dict[str, list[int]] = {}
    for notice in report.notices:
        if notice.kind == "empty_page" and notice.page is not None:
            by_file.setdefault(notice.path, []).append(notice.page)
    return [
        f"{path}: no text on page(s) {format_pages(pages)} (kept, not searchable)"
        for path, pages in by_file.items()
    ]


def _pair(flag: str, item: str, shape: str) -> tuple[str, str]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip() or not value.strip():
        raise UsageError(f"{flag} {item!r}: expected {shape}")
    return key.strip(), value.strip()


def _date(flag: str, value: str) -> dt.date:
    try:
        return parse_date(value)
    except ValueError as exc:
        raise UsageError(f"{flag} {value!r}: {exc}") from exc


def _where(path: str, line: int | None, page: int | None) -> str:
    if line is not None:
        return f"{path} line {line}"
    if page is not None:
        return f"{path} page {page}"
    return path
