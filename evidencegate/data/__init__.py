"""The data shipped inside the package: policies, JSON Schemas, the example corpus and golden set.

One copy: the files under ``evidencegate/data/`` are both the editable sources in the repository
and the package data of the wheel (``policies/*.yaml``, ``schemas/*.schema.json`` exported by
``python -m evidencegate.schemas``, ``example/corpus/*.md`` and ``example/golden.jsonl``).
Everything reads them through :mod:`importlib.resources`, never by a path relative to the
source tree, so a non-editable install finds them too. The prompts are Python modules
(:mod:`evidencegate.prompts`), so they ship with the code.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

__all__ = [
    "data_files",
    "example_dir",
    "load_schema",
    "policy_names",
    "read_policy",
    "schema_names",
]

_SCHEMA_SUFFIX = ".schema.json"


def data_files() -> Traversable:
    """The root of the package data (``policies/``, ``schemas/``, ``example/``)."""
    return files(__name__)


def policy_names() -> list[str]:
    """Names of the shipped policies (``default``, ``regulated-strict``), sorted."""
    return sorted(
        entry.name.removesuffix(".yaml")
        for entry in (data_files() / "policies").iterdir()
        if entry.name.endswith(".yaml")
    )


def read_policy(name: str) -> str:
    """The YAML text of the shipped policy ``name``; KeyError when there is none."""
    if name not in policy_names():
        raise KeyError(f"no shipped policy {name!r} (shipped: {', '.join(policy_names())})")
    return (data_files() / "policies" / f"{name}.yaml").read_text(encoding="utf-8")


def schema_names() -> list[str]:
    """Names of the shipped JSON Schemas (``gated_answer``, ``policy``, ...), sorted."""
    return sorted(
        entry.name.removesuffix(_SCHEMA_SUFFIX)
        for entry in (data_files() / "schemas").iterdir()
        if entry.name.endswith(_SCHEMA_SUFFIX)
    )


def load_schema(name: str) -> dict[str, Any]:
    """The shipped JSON Schema ``name`` (e.g. ``"gated_answer"``), ready for jsonschema.

    Raises KeyError naming the shipped schemas when ``name`` is not one of them.
    """
    if name not in schema_names():
        raise KeyError(f"no shipped schema {name!r} (shipped: {', '.join(schema_names())})")
    text = (data_files() / "schemas" / f"{name}{_SCHEMA_SUFFIX}").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@contextmanager
def example_dir() -> Iterator[Path]:
    """A file-system path of the example: ``corpus/*.md`` and ``golden.jsonl``.

    A context manager because a zipped install has no such path until it is extracted
    (:func:`importlib.resources.as_file`); an ordinary install yields the installed directory.
    """
    with as_file(data_files() / "example") as path:
        yield Path(path)
