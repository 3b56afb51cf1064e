"""Golden sets: JSONL files of questions with the evidence a correct answer must cite.

One item per line, validated against ``schemas/golden_item.schema.json`` (exported from
:class:`GoldenItem`) and then by the model itself, which adds the rules a JSON Schema cannot say:
an ``unanswerable`` item requires no evidence, every other category requires some, and no source
is both required and forbidden. An invalid file raises :class:`UsageError` naming the file, the
line, the field and the rule; item ids must be unique within a file.

``required_evidence`` entries name the claim a correct answer makes and the ``doc_id`` (and
optionally the ``version``, 1-based ``page`` and an exact ``quote`` of the stored page text)
that supports it. ``forbidden_sources`` are sources a correct answer never cites: superseded
versions (stale traps) and secondary sources that disagree with the primary one.
"""

from __future__ import annotations

import datetime as dt
import json
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from evidencegate.exceptions import UsageError

__all__ = [
    "Category",
    "ForbiddenSource",
    "GoldenItem",
    "RequiredEvidence",
    "Task",
    "golden_item_schema",
    "load_golden",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Category(StrEnum):
    """What an item tests."""

    FACTUAL = "factual"
    MULTI_HOP = "multi_hop"
    STALE_TRAP = "stale_trap"
    """A superseded version states a different answer; citing it is wrong."""
    PRIMARY_REQUIRED = "primary_required"
    """A secondary source states an answer; only the primary source may be cited."""
    UNANSWERABLE = "unanswerable"
    """No source in force on ``as_of`` answers it: the right outcome is an abstention."""


class Task(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class RequiredEvidence(_Model):
    """A claim a correct answer makes, and the source that supports it."""

    claim: str = Field(min_length=1)
    doc_id: str = Field(min_length=1)
    version: str | None = Field(default=None, min_length=1)
    page: int | None = Field(default=None, ge=1, description="1-based page of the version.")
    quote: str | None = Field(
        default=None, min_length=1, description="An exact span of the stored page text."
    )


class ForbiddenSource(_Model):
    """A source a correct answer never cites (every version when ``version`` is absent)."""

    doc_id: str = Field(min_length=1)
    version: str | None = Field(default=None, min_length=1)

    def matches(self, doc_id: str, version: str) -> bool:
        return doc_id == self.doc_id and (self.version is None or version == self.version)


class GoldenItem(_Model):
    """One golden question, asked as of a date."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=120)
    question: str = Field(min_length=1)
    as_of: dt.date
    category: Category
    task: Task
    expected_answer_notes: str
    required_evidence: list[RequiredEvidence] = Field(default_factory=list)
    forbidden_sources: list[ForbiddenSource] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> GoldenItem:
        if self.category is Category.UNANSWERABLE and self.required_evidence:
            raise ValueError("an unanswerable item requires no evidence")
        if self.category is not Category.UNANSWERABLE and not self.required_evidence:
            raise ValueError(f"a {self.category.value} item needs required_evidence")
        for evidence in self.required_evidence:
            for forbidden in self.forbidden_sources:
                if forbidden.matches(evidence.doc_id, evidence.version or ""):
                    raise ValueError(
                        f"{evidence.doc_id}@{evidence.version} is both required and forbidden"
                    )
        return self

    @property
    def answerable(self) -> bool:
        return self.category is not Category.UNANSWERABLE

    def is_forbidden(self, doc_id: str, version: str) -> bool:
        return any(f.matches(doc_id, version) for f in self.forbidden_sources)


@cache
def golden_item_schema() -> dict[str, Any]:
    """The JSON Schema of one golden item (what ``schemas/golden_item.schema.json`` holds)."""
    schema = GoldenItem.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://evidencegate.dev/schemas/golden_item.schema.json"
    return schema


def load_golden(path: str | Path) -> list[GoldenItem]:
    """Read and validate a golden-set JSONL file (blank lines are ignored).

    Raises UsageError naming the file, the line, the field and the failed rule.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read golden set {path}: {exc}") from exc
    validator = jsonschema.Draft202012Validator(
        golden_item_schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    items: list[GoldenItem] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not valid JSON ({exc.msg})") from exc
        errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            err = errors[0]
            field = ".".join(str(p) for p in err.absolute_path) or "<item>"
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            raise UsageError(
                f"{where}: field {field!r}: {err.message} (rule: {err.validator}){more}"
            )
        try:
            item = GoldenItem.model_validate(data)
        except ValidationError as exc:
            raise UsageError(f"{where}: {_first_error(exc)}") from exc
        if item.id in seen:
            raise UsageError(f"{where}: duplicate id {item.id!r} (first on line {seen[item.id]})")
        seen[item.id] = number
        items.append(item)
    if not items:
        raise UsageError(f"golden set {path} has no items")
    return items


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(part) for part in err["loc"]) or "<item>"
    return f"field {field!r}: {err['msg']}"
