"""``evidencegate ingest``: the corpus part of the command line (wired in by ``evidencegate.cli``).

Options combine as follows: ``--mapping FILE.yaml`` loads :class:`IngestOptions`; any flag given
on the command line replaces that field, except ``--field`` and ``--version-date VERSION=DATE``,
which are added to (and override single entries of) the mapping's ``field_map`` and
``version_dates``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from typing import Any

from pydantic import ValidationError

from evidencegate.corpus.ingest import IngestOptions, describe_validation_error, parse_date
from evidencegate.corpus.store import Store
from evidencegate.exceptions import UsageError
from evidencegate.userio import terminal_safe

__all__ = ["add_ingest_arguments", "options_from_args", "run_ingest"]


def add_ingest_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the arguments of ``evidencegate ingest`` to ``parser``."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".pdf, .txt, .md or .jsonl files")
    parser.add_argument("--store", required=True, metavar="DIR", help="store directory")
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
    for name in ("doc_id", "version", "authority", "title", "tenant"):
        value = getattr(args, name)
        if value is not None:
            data[name] = value
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


def run_ingest(args: argparse.Namespace) -> int:
    """Ingest the paths into the store; 0 on success, 2 (with ``error: ...``) on a usage error."""
    try:
        options = options_from_args(args)
        with Store.open(args.store) as store:
            report = store.ingest(args.paths, options)
            stats = store.stats()
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"report": report.model_dump(mode="json"), "store": stats}, indent=2))
    else:
        print(terminal_safe(report.summary(), one_line=False))
        for notice in report.notices[:5]:
            where = _where(notice.path, notice.line, notice.page)
            print(f"  note: {terminal_safe(where)}: {terminal_safe(notice.message)}")
        if len(report.notices) > 5:
            print(f"  ... and {len(report.notices) - 5} more notes (--json lists them all)")
        print("store: " + ", ".join(f"{key}={value}" for key, value in stats.items()))
    return 0


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
