"""A manifest: which files to ingest and the metadata of each, as CSV or YAML rows.

A row names a file, a directory (every ``.pdf``, ``.txt``, ``.md`` and ``.jsonl`` file under
it) or a glob (``pdfs/*.pdf``, ``**`` recursive) and gives document fields for what it names:
``doc_id``, ``version``, ``version_date``, ``effective_from``, ``effective_to``, ``authority``,
``tenant``, ``title``, ``entity``, ``aliases`` (``;``-separated in CSV), ``period``,
``pdf_extractor``, and ``mapping``: a YAML mapping file of
:class:`IngestOptions` (as ``--mapping`` takes). Only ``path`` is required.

Options combine from the general to the particular: the defaults (the command line's flags and
``--mapping``), then the row's mapping file, then the row's own columns. ``field_map`` and
``version_dates`` are merged entry by entry.

CSV (``.csv``): a header line with column names, one row per line, empty cells unset. YAML
(``.yaml``/``.yml``): a list of rows, or a mapping ``{base: DIR, files: [rows]}``. Relative
``path``s are resolved against ``base`` (itself relative to the manifest's directory; default:
the manifest's directory), relative ``mapping``s against the manifest's directory.

The Python API takes the same rows: ``sources_from_rows([ManifestRow(...)], base=...)``.
"""

from __future__ import annotations

import csv
import glob
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from evidencegate.contracts import Authority
from evidencegate.corpus.batch import IngestSource
from evidencegate.corpus.ingest import IngestOptions, IsoDate, describe_validation_error
from evidencegate.corpus.pdf import PdfExtractor
from evidencegate.exceptions import IngestError, UsageError

__all__ = ["SUFFIXES", "ManifestRow", "expand_path", "read_manifest", "sources_from_rows"]

SUFFIXES = (".pdf", ".txt", ".md", ".jsonl")
_GLOB_CHARS = frozenset("*?[")
_MERGED = ("field_map", "version_dates")


class ManifestRow(BaseModel):
    """One manifest row: a path (file, directory or glob) and the metadata of what it names.

    Every field but ``path`` and ``mapping`` is an :class:`IngestOptions` field of the same
    name: a document field added there becomes a manifest column by adding it here too.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(min_length=1)
    doc_id: str | None = Field(default=None, min_length=1)
    version: str | None = Field(default=None, min_length=1)
    version_date: IsoDate | None = None
    effective_from: IsoDate | None = None
    effective_to: IsoDate | None = None
    authority: Authority | None = None
    tenant: str | None = Field(default=None, min_length=1)
    title: str | None = None
    entity: str | None = Field(default=None, min_length=1)
    aliases: list[str] | None = None
    period: str | None = Field(default=None, min_length=1)
    pdf_extractor: PdfExtractor | None = None
    mapping: str | None = Field(default=None, min_length=1)

    @field_validator("aliases", mode="before")
    @classmethod
    def _split_aliases(cls, value: object) -> object:
        """A CSV cell names several aliases separated by ``;``."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(";") if part.strip()]
        return value

    def options(self, defaults: IngestOptions, mapping_dir: Path) -> IngestOptions:
        """The defaults, then this row's mapping file, then its own columns."""
        data: dict[str, Any] = defaults.model_dump()
        if self.mapping is not None:
            mapping = IngestOptions.from_mapping_file(_resolve(mapping_dir, self.mapping))
            _overlay(data, mapping.model_dump(include=mapping.model_fields_set))
        own = self.model_dump(exclude={"path", "mapping"}, exclude_none=True)
        _overlay(data, own)
        return IngestOptions.model_validate(data)


def read_manifest(path: str | Path, defaults: IngestOptions | None = None) -> list[IngestSource]:
    """The files a CSV or YAML manifest names, each with its options; UsageError names the
    manifest and the row of any problem (nothing is ingested from a bad manifest)."""
    manifest = Path(path)
    shown = str(path)
    try:
        text = manifest.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"{shown}: cannot read the manifest ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{shown}: the manifest is not UTF-8 text") from exc
    suffix = manifest.suffix.lower()
    if suffix == ".csv":
        raw_rows, base = _csv_rows(text, shown), "."
    elif suffix in {".yaml", ".yml"}:
        raw_rows, base = _yaml_rows(text, shown)
    else:
        raise UsageError(f"{shown}: a manifest is .csv, .yaml or .yml (got {manifest.suffix!r})")
    rows: list[tuple[str, ManifestRow]] = []
    for where, raw in raw_rows:
        try:
            rows.append((where, ManifestRow.model_validate(raw)))
        except ValidationError as exc:
            raise UsageError(f"{shown} {where}: {describe_validation_error(exc)}") from exc
    directory = manifest.parent
    return _sources(rows, _resolve(directory, base), directory, defaults or IngestOptions(), shown)


def sources_from_rows(
    rows: Sequence[ManifestRow],
    *,
    base: str | Path = ".",
    mapping_dir: str | Path | None = None,
    defaults: IngestOptions | None = None,
) -> list[IngestSource]:
    """The files ``rows`` name (paths relative to ``base``, mappings to ``mapping_dir``,
    default ``base``), each with its options."""
    base = Path(base)
    numbered = [(f"row {number}", row) for number, row in enumerate(rows, 1)]
    mappings = Path(mapping_dir) if mapping_dir is not None else base
    return _sources(numbered, base, mappings, defaults or IngestOptions(), "manifest")


def expand_path(path: Path) -> list[Path]:
    """A directory's ingestible files (recursively, sorted); any other path as it is."""
    if not path.is_dir():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)


def _sources(
    rows: Iterable[tuple[str, ManifestRow]],
    base: Path,
    mapping_dir: Path,
    defaults: IngestOptions,
    shown: str,
) -> list[IngestSource]:
    sources: list[IngestSource] = []
    seen: dict[Path, str] = {}
    for where, row in rows:
        try:
            options = row.options(defaults, mapping_dir)
        except IngestError as exc:  # the row's mapping file
            raise UsageError(f"{shown} {where}: mapping {exc}") from exc
        except ValidationError as exc:
            raise UsageError(f"{shown} {where}: {describe_validation_error(exc)}") from exc
        for file in _files(row.path, base, f"{shown} {where}"):
            key = file.resolve()
            if key in seen:
                raise UsageError(f"{shown} {where}: {file} is already named by {seen[key]}")
            seen[key] = where
            sources.append(IngestSource(file, options))
    return sources


def _files(pattern: str, base: Path, where: str) -> list[Path]:
    if not _GLOB_CHARS & set(pattern):
        return expand_path(_resolve(base, pattern))
    full = str(_resolve(base, pattern))
    matches = sorted(Path(p) for p in glob.glob(full, recursive=True))
    files = [f for m in matches for f in expand_path(m)]
    if not files:
        raise UsageError(f"{where}: {pattern!r} matches no file (under {base})")
    return files


def _resolve(directory: Path, name: str) -> Path:
    path = Path(name).expanduser()
    return Path(os.path.normpath(path if path.is_absolute() else directory / path))


def _overlay(data: dict[str, Any], top: dict[str, Any]) -> None:
    for key, value in top.items():
        if key in _MERGED:
            data[key] = {**data.get(key, {}), **value}
        else:
            data[key] = value


def _csv_rows(text: str, shown: str) -> list[tuple[str, dict[str, Any]]]:
    reader = csv.DictReader(text.splitlines())
    if not reader.fieldnames:
        raise UsageError(f"{shown}: empty manifest (expected a header line naming the columns)")
    unknown = [name for name in reader.fieldnames if name not in ManifestRow.model_fields]
    if unknown:
        known = ", ".join(ManifestRow.model_fields)
        raise UsageError(f"{shown}: unknown column(s) {', '.join(unknown)} (known: {known})")
    rows = []
    for row in reader:
        if None in row:
            raise UsageError(f"{shown} line {reader.line_num}: more cells than columns")
        cells = {k: v.strip() for k, v in row.items() if v is not None and v.strip()}
        if cells:
            rows.append((f"line {reader.line_num}", cells))
    if not rows:
        raise UsageError(f"{shown}: no rows")
    return rows


def _yaml_rows(text: str, shown: str) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError) as exc:
        raise UsageError(f"{shown}: the manifest is not valid YAML ({exc})") from exc
    base: object = "."
    if isinstance(data, dict):
        extra = sorted(str(key) for key in data if key not in {"base", "files"})
        if extra:
            raise UsageError(f"{shown}: unknown key(s) {', '.join(extra)} (known: base, files)")
        base = data.get("base", ".")
        data = data.get("files")
    if not isinstance(base, str):
        raise UsageError(f"{shown}: base must be a directory path")
    if not isinstance(data, list) or not data:
        raise UsageError(f"{shown}: expected a list of rows (or {{base: DIR, files: [rows]}})")
    rows = []
    for number, row in enumerate(data, 1):
        if not isinstance(row, dict):
            raise UsageError(f"{shown} row {number}: a row is a mapping (path: ..., doc_id: ...)")
        rows.append((f"row {number}", row))
    return rows, base
