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

``expected_answer`` says what a correct answer states (see :class:`ExpectedAnswer`; scored by
:mod:`evidencegate.evals.answers`): every answerable item should have one, an ``unanswerable``
item never has one. ``paraphrases`` are other phrasings of the same question, same ``as_of``
and same expectations; :func:`expand_paraphrases` turns them into variant items with ids
``ITEM~p1``, ``ITEM~p2``, ... that the ablation runs as separate runs.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from evidencegate.exceptions import UsageError

__all__ = [
    "REGEX_PREFIX",
    "VARIANT_SEPARATOR",
    "Category",
    "ExpectedAnswer",
    "ForbiddenSource",
    "GoldenItem",
    "RequiredEvidence",
    "Task",
    "base_item_id",
    "expand_paraphrases",
    "golden_item_schema",
    "load_golden",
]

REGEX_PREFIX = "re:"
"""An expected-answer alternative starting with this is a case-insensitive Python regex."""

VARIANT_SEPARATOR = "~"
"""Joins an item id and a paraphrase number in a variant id (``cfpb-m01~p2``); never in an id."""


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


class ExpectedAnswer(_Model):
    """What a correct answer states, and what makes an answer wrong.

    A correct answer contains at least one alternative of every ``all_of`` group and none of
    the ``none_of`` strings. Matching is case-insensitive and whitespace- and
    typography-normalised; numbers match with or without thousands separators and currency
    signs, at number boundaries. An alternative starting with ``re:`` is a regex.
    """

    all_of: list[Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1)]] = Field(
        min_length=1,
        description="Groups of alternatives; a correct answer contains one alternative of "
        "every group. 're:' starts a case-insensitive Python regex.",
    )
    none_of: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list,
        description="Strings (or 're:' regexes) whose presence in the answer makes it wrong.",
    )

    @model_validator(mode="after")
    def _valid_alternatives(self) -> ExpectedAnswer:
        places = [
            (f"all_of[{g}][{a}]", alternative)
            for g, group in enumerate(self.all_of)
            for a, alternative in enumerate(group)
        ]
        places += [(f"none_of[{n}]", value) for n, value in enumerate(self.none_of)]
        for where, value in places:
            if not value.strip() or value.strip() == REGEX_PREFIX:
                raise ValueError(f"{where} is empty")
            if value.startswith(REGEX_PREFIX):
                try:
                    re.compile(value[len(REGEX_PREFIX) :])
                except re.error as exc:
                    raise ValueError(f"{where} {value!r} is not a valid regex: {exc}") from None
        return self


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
    paraphrases: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list,
        description="Other phrasings of the same question (same as_of and expectations).",
    )
    expected_answer: ExpectedAnswer | None = Field(
        default=None,
        description="What a correct answer states; absent for unanswerable items (and for "
        "answerable items not yet given one, which are then reported as unscored).",
    )

    @model_validator(mode="after")
    def _consistent(self) -> GoldenItem:
        if self.category is Category.UNANSWERABLE and self.required_evidence:
            raise ValueError("an unanswerable item requires no evidence")
        if self.category is Category.UNANSWERABLE and self.expected_answer is not None:
            raise ValueError("an unanswerable item has no expected_answer (abstaining is right)")
        seen = {_phrasing(self.question): "question"}
        for n, paraphrase in enumerate(self.paraphrases):
            key = _phrasing(paraphrase)
            if not key:
                raise ValueError(f"paraphrases[{n}] is empty")
            if key in seen:
                raise ValueError(f"paraphrases[{n}] repeats the {seen[key]}")
            seen[key] = f"paraphrases[{n}]"
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

    def variants(self) -> list[GoldenItem]:
        """The item itself, then one variant per paraphrase (id ``ID~pN``, no paraphrases)."""
        return [self] + [
            self.model_copy(
                update={
                    "id": f"{self.id}{VARIANT_SEPARATOR}p{n}",
                    "question": paraphrase,
                    "paraphrases": [],
                }
            )
            for n, paraphrase in enumerate(self.paraphrases, start=1)
        ]


def _phrasing(text: str) -> str:
    return " ".join(text.casefold().split())


def expand_paraphrases(items: Sequence[GoldenItem]) -> list[GoldenItem]:
    """Every item followed by its paraphrase variants (see :meth:`GoldenItem.variants`)."""
    return [variant for item in items for variant in item.variants()]


def base_item_id(item_id: str) -> str:
    """The golden item a (variant) id belongs to: ``cfpb-m01~p2`` → ``cfpb-m01``."""
    return item_id.partition(VARIANT_SEPARATOR)[0]


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
            if err.context:  # anyOf / oneOf (an optional field): name the innermost failure
                err = max(err.context, key=lambda e: len(e.absolute_path))
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
    message = err["msg"].removeprefix("Value error, ")
    return f"field {field!r}: {message}"
