"""Read source files into dated document versions: PDF, plain text, Markdown and JSONL.

Formats (chosen by suffix; anything else, or a directory, is refused):

``.pdf``
    One page per PDF page (1-based), text extracted by :attr:`IngestOptions.pdf_extractor`
    (pypdfium2 by default, or pypdf; see :mod:`evidencegate.corpus.pdf`), which is recorded with
    the version. Pages without text are kept (page numbers must match the PDF) and reported; a
    PDF with no text at all (a scan without a text layer) is refused naming its pages.
``.txt`` / ``.md``
    Pages split on form feed (``\\f``), else one page; a single trailing empty page after a
    final form feed (as pdftotext writes) is dropped. Optional YAML front matter at the very top
    (``---`` line, YAML mapping, ``---`` line) with the document fields below; it is not part of
    any page. Line endings are normalised to ``\\n``.
``.jsonl``
    One page per record (paragraph, control, ...). Records are grouped by (doc_id, version) in
    file order and numbered 1, 2, ... within their version. Records whose text is empty are not
    stored and are reported as skipped; blank lines are ignored.

Document fields: ``doc_id``, ``version``, ``version_date``, ``effective_from`` (defaults to
``version_date``; either may stand for the other), ``effective_to`` (exclusive), ``authority``
(``primary`` | ``secondary``), ``title``, ``tenant`` (default ``"default"``) and ``source_uri``
(defaults to the file's URI). A value can come from the file or from :class:`IngestOptions`;
when both give one they must agree, otherwise the file is refused. ``doc_id``, ``version``, a
date and ``authority`` are required: authority is never assumed, because "is this a primary
source?" is the question regulated users must answer themselves.

JSONL fields are read by target name; :attr:`IngestOptions.field_map` maps a target to another
record field, or to several joined by ``+`` (their non-empty values are joined by a blank
line, e.g. ``{"text": "statement+guidance"}``). Document targets are the fields above except
that the document title is ``document_title`` (in a record, ``title`` is the record's own
heading). Record targets: ``text``, ``label`` (falls back to ``section`` unless mapped),
``section`` and ``title``. The page heading, searched as context, is the record's section, the
titles of its ancestor records (by label, see ``_Group.heading``) and its own title.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import orjson
import yaml
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, field_validator

from evidencegate.canonical import canonical_json, sha256_hex
from evidencegate.contracts import Authority
from evidencegate.corpus.passages import passage_context, passage_id, split_passages
from evidencegate.corpus.pdf import (
    DEFAULT_PDF_EXTRACTOR,
    PdfExtractor,
    extract_pdf_pages,
    extractor_id,
)
from evidencegate.exceptions import IngestError
from evidencegate.hygiene import instruction_flags

__all__ = [
    "DEFAULT_TENANT",
    "DOCUMENT_TARGETS",
    "RECORD_TARGETS",
    "DocumentMeta",
    "IngestFailure",
    "IngestNotice",
    "IngestOptions",
    "IngestReport",
    "IngestedVersion",
    "ParsedPage",
    "ParsedVersion",
    "PreparedFile",
    "format_pages",
    "parse_date",
    "prepare_file",
    "read_source",
]

DEFAULT_TENANT = "default"
AUTHORITIES: tuple[str, ...] = get_args(Authority)

DOCUMENT_TARGETS = (
    "doc_id",
    "version",
    "version_date",
    "effective_from",
    "effective_to",
    "authority",
    "document_title",
    "tenant",
    "source_uri",
    "entity",
    "period",
)
RECORD_TARGETS = ("text", "label", "section", "title")

_FRONT_MATTER_KEYS = frozenset(
    {
        "doc_id",
        "version",
        "version_date",
        "effective_from",
        "effective_to",
        "authority",
        "title",
        "tenant",
        "source_uri",
        "entity",
        "aliases",
        "period",
    }
)
_DATE_FIELDS = ("version_date", "effective_from", "effective_to")
_FLAGS = {
    "doc_id": "--doc-id",
    "version": "--version",
    "version_date": "--version-date",
    "effective_from": "--effective-from",
    "effective_to": "--effective-to",
    "authority": "--authority",
    "title": "--title",
    "tenant": "--tenant",
    "entity": "--entity",
    "period": "--period",
}
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")  # ASCII digits only
_FRONT_MATTER_OPEN = re.compile(r"---[ \t]*\n")
_FRONT_MATTER = re.compile(r"---[ \t]*\n(.*?)^---[ \t]*(?:\n|\Z)", re.DOTALL | re.MULTILINE)


def parse_date(value: object) -> dt.date:
    """A calendar date from a ``date`` or a ``YYYY-MM-DD`` string; ValueError otherwise."""
    if isinstance(value, dt.datetime):
        raise ValueError(f"expected a date YYYY-MM-DD, got the date-time {value.isoformat()}")
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError as exc:  # e.g. 2014-02-30
            raise ValueError(f"expected a date YYYY-MM-DD, got {value!r} ({exc})") from exc
    raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}")


IsoDate = Annotated[dt.date, PlainValidator(parse_date)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class IngestOptions(_Model):
    """Metadata for files that do not carry it, and how to read JSONL records.

    ``field_map`` maps a JSONL target (see the module docstring) to a record field, or to
    several joined by ``+``. ``version_dates`` gives the date of each version for sources whose
    records carry a version but no date; ``version_date`` is the date for every other version.
    ``pdf_extractor`` reads PDF text (see :mod:`evidencegate.corpus.pdf`); other files ignore it.
    """

    doc_id: str | None = Field(default=None, min_length=1)
    version: str | None = Field(default=None, min_length=1)
    version_date: IsoDate | None = None
    effective_from: IsoDate | None = None
    effective_to: IsoDate | None = None
    authority: Authority | None = None
    title: str | None = None
    tenant: str | None = Field(default=None, min_length=1)
    field_map: dict[str, str] = Field(default_factory=dict)
    version_dates: dict[str, IsoDate] = Field(default_factory=dict)
    entity: str | None = Field(default=None, min_length=1)
    aliases: list[str] = Field(default_factory=list)
    period: str | None = Field(default=None, min_length=1)
    pdf_extractor: PdfExtractor = DEFAULT_PDF_EXTRACTOR

    @field_validator("field_map")
    @classmethod
    def _known_targets(cls, value: dict[str, str]) -> dict[str, str]:
        for target, source in value.items():
            if target not in DOCUMENT_TARGETS + RECORD_TARGETS:
                known = ", ".join(DOCUMENT_TARGETS + RECORD_TARGETS)
                raise ValueError(f"unknown target field {target!r} (known: {known})")
            if any(not part.strip() for part in source.split("+")):
                raise ValueError(f"{target}={source!r}: expected SRC or SRC+SRC+...")
        return value

    @classmethod
    def from_mapping_file(cls, path: str | Path) -> IngestOptions:
        """Load options from a YAML mapping whose keys are this class's fields."""
        shown = str(path)
        try:
            data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise IngestError(f"cannot read mapping file ({exc.strerror})", path=shown) from exc
        except (yaml.YAMLError, ValueError) as exc:  # ValueError: undecodable, or 2015-13-01
            raise IngestError(f"mapping file is not valid YAML ({exc})", path=shown) from exc
        if not isinstance(data, dict):
            raise IngestError("a mapping file must be a YAML mapping of option fields", path=shown)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise IngestError(describe_validation_error(exc), path=shown) from exc

    def date_for(self, version: str) -> dt.date | None:
        """The date the options give ``version``: its ``version_dates`` entry, else the default."""
        return self.version_dates.get(version, self.version_date)

    def fingerprint(self, suffix: str) -> dict[str, Any]:
        """The options that shape what a file with ``suffix`` is read into (for skip keys):
        every field, except that only a PDF depends on the PDF extractor."""
        data = self.model_dump()
        if suffix.lower() != ".pdf":
            data.pop("pdf_extractor")
        # dates as YYYY-MM-DD (model_dump(mode="json") warns on the PlainValidator dates)
        result: dict[str, Any] = json.loads(json.dumps(data, default=str))
        return result


def describe_validation_error(exc: ValidationError) -> str:
    """One line per pydantic error: ``field.path: message``."""
    return "; ".join(
        f"{'.'.join(str(part) for part in err['loc']) or 'value'}: {err['msg']}"
        for err in exc.errors()
    )


class IngestedVersion(_Model):
    """One version an ingest call met: newly ``added`` or already stored (``unchanged``).

    ``extractor`` is the PDF extractor and its version the stored text came from (None for
    text and JSONL sources).
    """

    path: str
    tenant: str
    doc_id: str
    version: str
    sha256: str
    pages: int
    passages: int
    status: Literal["added", "unchanged"]
    extractor: str | None = None

    @classmethod
    def unchanged(cls, path: str, rows: Sequence[Sequence[Any]]) -> list[IngestedVersion]:
        """The stored versions a skipped file gave, from rows of ``UNCHANGED_COLUMNS``."""
        fields = ("tenant", "doc_id", "version", "sha256", "pages", "passages", "extractor")
        return [
            cls(path=path, status="unchanged", **dict(zip(fields, row, strict=True)))
            for row in rows
        ]


UNCHANGED_COLUMNS = "v.tenant, v.doc_id, v.version, v.sha256, v.pages, v.passages, v.extractor"
"""What :meth:`IngestedVersion.unchanged` reads from ``versions AS v``, in order."""


class IngestNotice(_Model):
    """Something not stored, or stored without searchable text; never silent."""

    path: str
    kind: Literal["skipped_record", "empty_page", "instruction_like_text"]
    line: int | None = None
    page: int | None = None
    message: str


class IngestFailure(_Model):
    """A file that was not stored, and why (a batch goes on without it)."""

    path: str
    reason: str
    page: int | None = None
    line: int | None = None

    @classmethod
    def from_error(cls, error: IngestError) -> IngestFailure:
        return cls(path=error.path, reason=error.reason, page=error.page, line=error.line)


class IngestReport(_Model):
    """What one ``Store.ingest`` or ``Store.ingest_batch`` call did.

    ``files`` counts the files read (or skipped because they are already stored); ``skipped``
    files were found stored with the same content and options and not read again; ``failures``
    are the files that were not stored (only a batch has any: ``Store.ingest`` raises).
    """

    versions: list[IngestedVersion] = Field(default_factory=list)
    notices: list[IngestNotice] = Field(default_factory=list)
    failures: list[IngestFailure] = Field(default_factory=list)
    files: int = 0
    skipped_files: int = 0

    @property
    def added(self) -> list[IngestedVersion]:
        return [v for v in self.versions if v.status == "added"]

    @property
    def unchanged(self) -> list[IngestedVersion]:
        return [v for v in self.versions if v.status == "unchanged"]

    @property
    def skipped(self) -> list[IngestNotice]:
        return [n for n in self.notices if n.kind == "skipped_record"]

    def summary(self) -> str:
        """A few human-readable lines."""
        added = self.added
        lines = [
            f"added {len(added)} version(s) ({sum(v.pages for v in added)} pages, "
            f"{sum(v.passages for v in added)} passages); unchanged {len(self.unchanged)}; "
            f"skipped records {len(self.skipped)}; "
            f"empty pages {sum(1 for n in self.notices if n.kind == 'empty_page')}"
            + (f"; failed files {len(self.failures)}" if self.failures else "")
        ]
        lines.extend(f"  {v.status:9} {v.doc_id}@{v.version} ({v.tenant})" for v in self.versions)
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """The document fields of one version, resolved from the file and the options."""

    doc_id: str
    version: str
    version_date: dt.date
    effective_from: dt.date
    effective_to: dt.date | None
    authority: Authority
    title: str
    tenant: str
    source_uri: str
    entity: str | None = None
    aliases: tuple[str, ...] = ()
    period: str | None = None


@dataclass(frozen=True, slots=True)
class ParsedPage:
    text: str
    label: str | None = None
    heading: str = ""


@dataclass(slots=True)
class ParsedVersion:
    """A document version read from a file, not yet stored; ``extractor`` as in
    :class:`IngestedVersion`."""

    path: str
    meta: DocumentMeta
    pages: list[ParsedPage] = field(default_factory=list)
    extractor: str | None = None

    def sha256(self) -> str:
        """Hash of the canonical content: the document fields (except the provenance-only
        ``source_uri``) and every page's label, heading and text, in page order."""
        m = self.meta
        content: dict[str, Any] = {
            "doc_id": m.doc_id,
            "version": m.version,
            "version_date": m.version_date.isoformat(),
            "effective_from": m.effective_from.isoformat(),
            "effective_to": m.effective_to.isoformat() if m.effective_to else None,
            "authority": m.authority,
            "title": m.title,
            "tenant": m.tenant,
            "pages": [{"label": p.label, "heading": p.heading, "text": p.text} for p in self.pages],
        }
        # Entity metadata enters the hash only when given, so versions stored before it existed
        # keep their hash.
        for name, value in (
            ("entity", m.entity),
            ("aliases", list(m.aliases)),
            ("period", m.period),
        ):
            if value:
                content[name] = value
        return sha256_hex(canonical_json(content))


PassageRow = tuple[str, int, int, int, str | None, str, str]
"""(passage_id, page, char_start, char_end, label, text, context), as stored."""


@dataclass(slots=True)
class PreparedVersion:
    """A parsed version with its content hash and passages, ready to be stored."""

    parsed: ParsedVersion
    sha256: str
    passages: list[PassageRow]


@dataclass(slots=True)
class PreparedFile:
    """Everything one file gives, computed away from the store (in a worker process).

    ``key`` identifies (file content, options): a stored key means the file was ingested
    before with the same metadata and need not be read again (``skipped``).
    """

    path: str
    key: str
    versions: list[PreparedVersion] = field(default_factory=list)
    notices: list[IngestNotice] = field(default_factory=list)
    skipped: bool = False


def prepare_file(
    path: Path,
    options: IngestOptions,
    *,
    shown: str | None = None,
    skip_keys: frozenset[str] = frozenset(),
) -> PreparedFile:
    """Read, parse and split one file; a file whose key is in ``skip_keys`` is not parsed."""
    where = _Where(shown if shown is not None else str(path))
    data = _file_bytes(path, where)
    key = sha256_hex(
        canonical_json(
            {
                "file_sha256": hashlib.sha256(data).hexdigest(),
                "options": options.fingerprint(path.suffix),
            }
        )
    )
    if key in skip_keys:
        return PreparedFile(where.path, key, skipped=True)
    parsed, notices = _parse(path, data, options, where)
    spans: dict[str, list[tuple[int, int]]] = {}
    return PreparedFile(where.path, key, [_prepare(v, spans) for v in parsed], notices)


def read_source(
    path: Path, options: IngestOptions, *, shown: str | None = None
) -> tuple[list[ParsedVersion], list[IngestNotice]]:
    """Read one file into document versions; IngestError names the file (and page or line)."""
    where = _Where(shown if shown is not None else str(path))
    return _parse(path, _file_bytes(path, where), options, where)


def format_pages(pages: list[int]) -> str:
    """Ascending page numbers as ranges: ``[1, 2, 3, 7]`` -> ``1-3, 7``."""
    ranges: list[list[int]] = []
    for page in sorted(pages):
        if ranges and page == ranges[-1][1] + 1:
            ranges[-1][1] = page
        else:
            ranges.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def _file_bytes(path: Path, where: _Where) -> bytes:
    if not path.exists():
        raise where.error("no such file")
    if path.is_dir():
        raise where.error("is a directory; pass the files themselves (e.g. DIR/*.md)")
    if path.suffix.lower() not in {".pdf", ".txt", ".md", ".jsonl"}:
        raise where.error(
            f"unsupported file type {path.suffix!r} (expected .pdf, .txt, .md or .jsonl)"
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise where.error(f"cannot read ({exc.strerror})") from exc


def _parse(
    path: Path, data: bytes, options: IngestOptions, where: _Where
) -> tuple[list[ParsedVersion], list[IngestNotice]]:
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        parsed, notices = _read_pdf(path, data, options, where)
    elif suffix in {".txt", ".md"}:
        parsed, notices = _read_text(path, data, options, where)
    else:
        parsed, notices = _read_jsonl(path, data, options, where)
    return parsed, [*notices, *_hygiene_notices(parsed)]


def _hygiene_notices(parsed: list[ParsedVersion]) -> list[IngestNotice]:
    """A notice for each page holding text addressed to a model (:mod:`evidencegate.hygiene`).

    The page is stored all the same (a primary source may quote an attack); retrieval flags
    its passages and the policy decides whether they may be cited.
    """
    notices = []
    known: dict[str, list[str]] = {}  # versions of one file repeat most of their pages
    for version in parsed:
        for number, page in enumerate(version.pages, 1):
            flags = known.get(page.text)
            if flags is None:
                flags = known[page.text] = instruction_flags(page.text)
            if flags:
                names = ", ".join(flag.partition(": ")[2] for flag in flags)
                notices.append(
                    IngestNotice(
                        path=version.path,
                        kind="instruction_like_text",
                        page=number,
                        message=f"{version.meta.doc_id}@{version.meta.version} page {number}: "
                        f"text addressed to a model ({names}); stored, flagged at retrieval",
                    )
                )
    return notices


def _prepare(version: ParsedVersion, known: dict[str, list[tuple[int, int]]]) -> PreparedVersion:
    """Hash the version and split its pages into passages (the costly part after reading);
    ``known`` keeps the spans of page texts already split (versions repeat their pages)."""
    meta = version.meta
    passages: list[PassageRow] = []
    for number, page in enumerate(version.pages, 1):
        context = passage_context(page.label, page.heading, meta.title)
        spans = known.get(page.text)
        if spans is None:
            spans = known[page.text] = split_passages(page.text)
        for start, end in spans:
            text = page.text[start:end]
            pid = passage_id(meta.doc_id, meta.version, number, start, end, text)
            passages.append((pid, number, start, end, page.label, text, context))
    return PreparedVersion(version, version.sha256(), passages)


@dataclass(frozen=True, slots=True)
class _Where:
    path: str
    line: int | None = None

    def error(self, message: str, *, page: int | None = None) -> IngestError:
        return IngestError(message, path=self.path, page=page, line=self.line)

    def at(self, line: int) -> _Where:
        return _Where(self.path, line)


# --------------------------------------------------------------------------- metadata


def _resolve_meta(
    found: Mapping[str, Any], options: IngestOptions, where: _Where, default_uri: str
) -> DocumentMeta:
    """Combine the document fields found in a file with the options; refuse gaps and conflicts."""

    def pick(name: str, option: Any) -> Any:
        value = found.get(name)
        if value is not None and option is not None and value != option:
            raise where.error(
                f"{name} is {_show(value)} in the source but {_FLAGS[name]} gives {_show(option)}"
            )
        return value if value is not None else option

    doc_id = pick("doc_id", options.doc_id)
    if doc_id is None:
        raise where.error("no doc_id: add it to the source or pass --doc-id")
    version = pick("version", options.version)
    if version is None:
        raise where.error("no version: add it to the source or pass --version")
    authority = found.get("authority")
    if authority is not None and authority not in AUTHORITIES:
        raise where.error(f"authority must be 'primary' or 'secondary' (got {authority!r})")
    authority = pick("authority", options.authority)
    if authority is None:
        raise where.error(
            "no authority: pass --authority primary or --authority secondary "
            "(it is never assumed: say whether this is a primary source)"
        )
    dates = {name: _date(found.get(name), name, where) for name in _DATE_FIELDS}
    for name in ("effective_from", "effective_to"):
        option = getattr(options, name)
        if dates[name] is not None and option is not None and dates[name] != option:
            raise where.error(
                f"{name} is {dates[name]} in the source but {_FLAGS[name]} gives {option}"
            )
        dates[name] = dates[name] or option
    version_date = dates["version_date"]
    option_date = options.date_for(version)
    if version_date is not None and option_date is not None and version_date != option_date:
        raise where.error(
            f"version_date is {version_date} in the source but the options give {option_date} "
            f"for version {version!r}"
        )
    version_date = version_date or option_date or dates["effective_from"]
    if version_date is None:
        raise where.error(
            f"no date for version {version!r}: add version_date or effective_from to the source, "
            f"or pass --version-date DATE (or --version-date {version}=DATE)"
        )
    effective_from = dates["effective_from"] or version_date
    effective_to = dates["effective_to"]
    if effective_to is not None and effective_to <= effective_from:
        raise where.error(
            f"effective_to {effective_to} must be after effective_from {effective_from}"
        )
    return DocumentMeta(
        doc_id=doc_id,
        version=version,
        version_date=version_date,
        effective_from=effective_from,
        effective_to=effective_to,
        authority=authority,
        title=pick("title", options.title) or "",
        tenant=pick("tenant", options.tenant) or DEFAULT_TENANT,
        source_uri=found.get("source_uri") or default_uri,
        entity=pick("entity", options.entity),
        aliases=_aliases(found.get("aliases"), options.aliases, where),
        period=pick("period", options.period),
    )


def _aliases(found: object, option: Sequence[str], where: _Where) -> tuple[str, ...]:
    """The entity's other names: from the source (a list of strings) and the options."""
    if found is None:
        found = []
    if not isinstance(found, list) or not all(isinstance(a, str) and a.strip() for a in found):
        raise where.error(f"aliases must be a list of names (got {_show(found)})")
    return tuple(dict.fromkeys([*found, *option]))


def _date(value: object, name: str, where: _Where) -> dt.date | None:
    if value is None:
        return None
    try:
        return parse_date(value)
    except ValueError as exc:
        raise where.error(f"bad {name}: {exc}") from exc


def _show(value: object) -> str:
    return value.isoformat() if isinstance(value, dt.date) else repr(value)


def _empty_page_notice(where: _Where, page: int) -> IngestNotice:
    return IngestNotice(
        path=where.path,
        kind="empty_page",
        page=page,
        message=f"page {page} has no text; kept (page numbers stay aligned) but not searchable",
    )


# --------------------------------------------------------------------------- PDF


def _read_pdf(
    path: Path, data: bytes, options: IngestOptions, where: _Where
) -> tuple[list[ParsedVersion], list[IngestNotice]]:
    meta = _resolve_meta({}, options, where, path.resolve().as_uri())
    if not data:
        raise where.error("empty file (0 bytes)")
    texts = extract_pdf_pages(data, options.pdf_extractor, path=where.path)
    if not texts:
        raise where.error("a PDF without pages")
    empty = [number for number, text in enumerate(texts, 1) if not text.strip()]
    if len(empty) == len(texts):
        raise where.error(
            f"no extractable text on any of its {len(texts)} page(s) (pages "
            f"{format_pages(empty)}): a scan without a text layer? (run OCR first)"
        )
    notices = [_empty_page_notice(where, number) for number in empty]
    pages = [ParsedPage(text=text) for text in texts]
    extractor = extractor_id(options.pdf_extractor)
    return [ParsedVersion(where.path, meta, pages, extractor)], notices


# --------------------------------------------------------------------------- text / Markdown


def _read_text(
    path: Path, data: bytes, options: IngestOptions, where: _Where
) -> tuple[list[ParsedVersion], list[IngestNotice]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise where.error(f"not UTF-8 text (invalid byte at offset {exc.start})") from exc
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    found, body = _front_matter(text, where)
    chunks = body.split("\f")
    if len(chunks) > 1 and not chunks[-1].strip():
        chunks.pop()
    if not any(chunk.strip() for chunk in chunks):
        raise where.error("no text" + (" after the front matter" if found else " (empty file)"))
    meta = _resolve_meta(found, options, where, path.resolve().as_uri())
    notices = [_empty_page_notice(where, n) for n, c in enumerate(chunks, 1) if not c.strip()]
    return [ParsedVersion(where.path, meta, [ParsedPage(text=c) for c in chunks])], notices


def _front_matter(text: str, where: _Where) -> tuple[dict[str, Any], str]:
    """Split optional YAML front matter from the body; validate its keys and value types."""
    if not _FRONT_MATTER_OPEN.match(text):
        return {}, text
    match = _FRONT_MATTER.match(text)
    if match is None:
        raise where.error("front matter opened with '---' on line 1 is never closed by '---'")
    try:
        data = yaml.safe_load(match.group(1)) or {}
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: an impossible date like 2023-02-30
        raise where.error(f"front matter is not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise where.error("front matter must be a YAML mapping")
    unknown = sorted(str(key) for key in data if key not in _FRONT_MATTER_KEYS)
    if unknown:
        raise where.error(
            f"unknown front matter key(s) {', '.join(unknown)} "
            f"(known: {', '.join(sorted(_FRONT_MATTER_KEYS))})"
        )
    found: dict[str, Any] = {}
    for key, value in data.items():
        if value is None:
            continue
        if key == "aliases":
            found[key] = value  # a list of names, checked with the other metadata
            continue
        if key not in _DATE_FIELDS and not isinstance(value, str):
            raise where.error(
                f"front matter {key} must be a string, got {type(value).__name__} {value!r} "
                "(quote it in YAML)"
            )
        found[key] = value
    return found, text[match.end() :]


# --------------------------------------------------------------------------- JSONL


@dataclass(slots=True)
class _Group:
    version: ParsedVersion
    first_line: int
    titles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """label -> the titles of that record and its ancestors, outermost first."""

    def heading(self, label: str | None, section: str | None, title: str | None) -> str:
        """The record's section, its ancestors' titles and its own title, one per line.

        The parent of a record is the latest earlier record of the version whose label is the
        record's label cut just before a separator (a character that is not a letter or
        digit): ``1013-2-e-Interp-9-v`` -> ``1013-2-e-Interp-9``, ``AC-2(1)`` -> ``AC-2``.
        Records without text still pass their title on: they are often the headings.
        """
        titles: tuple[str, ...] = ()
        if label:
            for cut in range(len(label) - 1, 0, -1):
                if not label[cut].isalnum() and label[:cut] in self.titles:
                    titles = self.titles[label[:cut]]
                    break
            if title:
                titles = (*titles, title)
            self.titles[label] = titles
        elif title:
            titles = (title,)
        # titles are never empty, section is None or not blank (see _field)
        return "\n".join((section, *titles)) if section else "\n".join(titles)


def _read_jsonl(
    path: Path, data: bytes, options: IngestOptions, where: _Where
) -> tuple[list[ParsedVersion], list[IngestNotice]]:
    sources = {
        target: tuple(options.field_map.get(target, target).split("+"))
        for target in DOCUMENT_TARGETS + RECORD_TARGETS
    }
    label_falls_back = "label" not in options.field_map
    default_uri = path.resolve().as_uri()
    document_sources = _Sources([sources[name] for name in DOCUMENT_TARGETS])
    record_sources = _Sources([sources[name] for name in RECORD_TARGETS])
    groups: dict[tuple[str, str], _Group] = {}
    # the records of a version repeat its document fields: resolve each distinct set once
    metas: dict[tuple[str | None, ...], DocumentMeta] = {}
    notices: list[IngestNotice] = []
    records = 0
    with io.BytesIO(data) as lines:
        for number, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            records += 1
            at = where.at(number)
            row = _json_object(raw, at)
            values = document_sources.read(row, at)
            meta = metas.get(values)
            if meta is None:
                found = dict(zip(DOCUMENT_TARGETS, values, strict=True))
                found["title"] = found.pop("document_title")
                meta = metas[values] = _resolve_meta(found, options, at, default_uri)
            text, label, section, title = record_sources.read(row, at)
            if label is None and label_falls_back:
                label = section
            key = (meta.doc_id, meta.version)
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Group(ParsedVersion(where.path, meta), number)
            elif group.version.meta is not meta and group.version.meta != meta:
                raise at.error(_meta_difference(group.version.meta, meta, group.first_line))
            heading = group.heading(label, section, title)
            if text is None:
                notices.append(
                    IngestNotice(
                        path=where.path,
                        kind="skipped_record",
                        line=number,
                        message=f"no text in {'+'.join(sources['text'])} "
                        f"({meta.doc_id}@{meta.version}, label {label!r}); not stored",
                    )
                )
                continue
            group.version.pages.append(ParsedPage(text=text, label=label, heading=heading))
    versions = [g.version for g in groups.values() if g.version.pages]
    if not versions:
        if records == 0:
            raise where.error("no records (empty file)")
        raise where.error(
            f"none of its {records} record(s) has text in {'+'.join(sources['text'])}"
        )
    return versions, notices


def _json_object(raw: bytes, where: _Where) -> dict[str, Any]:
    """The JSON object on one line, by orjson (twice as fast as ``json``). ``json`` reads the
    line instead when orjson refuses it (``json`` also reads NaN, lone surrogates and
    UTF-16/32, and words the error), when it is not an object, and when the object holds a
    float at the top (orjson reads an integer beyond 64 bits as a float): so every record is
    what ``json.loads`` makes of it, and every refusal is worded by ``json``."""
    try:
        row = orjson.loads(raw)
    except orjson.JSONDecodeError:
        row = None
    if type(row) is dict and float not in map(type, row.values()):
        return row
    return _json_object_plain(raw, where)


def _json_object_plain(raw: bytes, where: _Where) -> dict[str, Any]:
    try:
        row = json.loads(raw)
    except UnicodeDecodeError as exc:
        raise where.error(f"not UTF-8 (invalid byte at offset {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise where.error(f"invalid JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(row, dict):
        raise where.error(f"a record must be a JSON object, got {type(row).__name__}")
    return row


class _Sources:
    """The record fields of several targets, read together by :meth:`read`."""

    __slots__ = ("keys", "single")

    def __init__(self, keys: Sequence[tuple[str, ...]]) -> None:
        self.keys = tuple(keys)
        self.single = [k[0] for k in self.keys] if all(len(k) == 1 for k in self.keys) else None

    def read(self, row: Mapping[str, Any], where: _Where) -> tuple[str | None, ...]:
        """:func:`_field` of each target, in order; a non-blank string read from a single
        field (most values) is taken without the call."""
        if self.single is not None:
            values: list[Any] = list(map(row.get, self.single))
        else:
            values = [row.get(keys[0]) if len(keys) == 1 else _JOINED for keys in self.keys]
        for index, value in enumerate(values):
            if value is not None and (type(value) is not str or not value or value.isspace()):
                values[index] = _field(row, self.keys[index], where)
        return tuple(values)


_JOINED = object()
"""Stands for a value joined from several fields until :meth:`_Sources.read` reads it."""


def _field(row: Mapping[str, Any], keys: tuple[str, ...], where: _Where) -> str | None:
    """The value of one source field, or the non-empty values of several joined by a blank
    line; None when empty or absent. Non-string values are refused."""
    if len(keys) == 1:  # the usual case, without the list
        value = row.get(keys[0])
        if value is None:
            return None
        if not isinstance(value, str):
            raise where.error(f"field {keys[0]!r} must be a string, got {type(value).__name__}")
        return value if value and not value.isspace() else None  # i.e. value.strip()
    values: list[str] = []
    for key in keys:
        value = row.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise where.error(f"field {key!r} must be a string, got {type(value).__name__}")
        if value.strip():
            values.append(value)
    if not values:
        return None
    return values[0] if len(values) == 1 else "\n\n".join(values)


def _meta_difference(first: DocumentMeta, this: DocumentMeta, first_line: int) -> str:
    """Name the first document field on which two records of one version disagree."""
    name = next(
        f.name for f in fields(DocumentMeta) if getattr(first, f.name) != getattr(this, f.name)
    )
    return (
        f"{name} is {_show(getattr(this, name))} but line {first_line} of "
        f"{first.doc_id}@{first.version} has {_show(getattr(first, name))}; "
        "all records of one version must agree"
    )
