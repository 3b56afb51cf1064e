"""Package data: policies, schemas and the example ship inside the package, as one copy."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from conftest import REPO_ROOT

import evidencegate
from evidencegate.data import (
    data_files,
    example_dir,
    load_schema,
    policy_names,
    read_policy,
    schema_names,
)
from evidencegate.policy import load_policy
from evidencegate.schemas import SCHEMA_DIR, all_schemas

PACKAGE_DIR = Path(evidencegate.__file__).resolve().parent


class TestPackagedData:
    def test_data_lists_policies_schemas_and_example(self) -> None:
        """importlib.resources lists the shipped policies, every exported schema and the example."""
        root = files("evidencegate") / "data"
        assert {entry.name for entry in root.iterdir()} >= {"policies", "schemas", "example"}
        assert policy_names() == ["default", "regulated-strict"]
        assert schema_names() == sorted(all_schemas())
        example = root / "example"
        corpus = sorted(e.name for e in (example / "corpus").iterdir())
        assert len(corpus) == 8 and all(name.endswith(".md") for name in corpus)
        assert (example / "golden.jsonl").is_file()

    def test_exporter_writes_into_the_package_data(self) -> None:
        """The schema exporter's output directory is the package data the wheel ships."""
        assert Path(str(data_files() / "schemas")) == SCHEMA_DIR
        assert SCHEMA_DIR.resolve().is_relative_to(PACKAGE_DIR)

    def test_no_second_copy_beside_the_package(self) -> None:
        """The repository holds no other copy of the policies, schemas or example corpus."""
        for old in ("policies", "schemas", "golden_sets/example"):
            assert not (REPO_ROOT / old).exists(), f"{old}/ duplicates evidencegate/data/"

    def test_build_configuration_ships_every_data_file(self) -> None:
        """The package-data patterns of pyproject.toml match every file under evidencegate/data."""
        config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        patterns = config["tool"]["setuptools"]["package-data"]["evidencegate"]
        shipped = {p for pattern in patterns for p in PACKAGE_DIR.glob(pattern) if p.is_file()}
        on_disk = {
            p
            for p in (PACKAGE_DIR / "data").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
        assert on_disk and on_disk <= shipped


class TestReaders:
    def test_shipped_policy_loads_by_name(self) -> None:
        """load_policy reads a shipped policy by name through the package data."""
        assert load_policy("regulated-strict").name == "regulated-strict"
        assert "max_passes" in read_policy("default")

    def test_load_schema_returns_the_exported_schema(self) -> None:
        """load_schema gives the shipped file's schema, which equals the model's export."""
        assert load_schema("gated_answer") == all_schemas()["gated_answer"]

    def test_unknown_names_are_refused_with_the_shipped_ones(self) -> None:
        """An unknown schema or policy name raises KeyError listing what is shipped."""
        with pytest.raises(KeyError, match="gated_answer"):
            load_schema("gated-answer")
        with pytest.raises(KeyError, match="regulated-strict"):
            read_policy("strict")

    def test_example_dir_is_a_directory_with_corpus_and_golden_set(self) -> None:
        """example_dir yields a file-system path holding corpus/*.md and golden.jsonl."""
        with example_dir() as path:
            assert len(list((path / "corpus").glob("*.md"))) == 8
            assert (path / "golden.jsonl").is_file()
