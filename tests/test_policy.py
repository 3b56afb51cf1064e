"""Policies: loading, validation against policy.schema.json, builtin files."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from evidencegate.data import load_schema, policy_names, read_policy
from evidencegate.exceptions import PolicyError
from evidencegate.policy import BUILTIN_POLICIES, Policy, load_policy


class TestBuiltinPolicies:
    def test_default_yaml_equals_model_defaults(self) -> None:
        """The shipped default policy spells out exactly the model's defaults."""
        assert load_policy("default") == Policy()

    @pytest.mark.parametrize("name", BUILTIN_POLICIES)
    def test_policy_files_validate_against_schema_file(self, name: str) -> None:
        """Each shipped policy validates with jsonschema against the shipped policy schema."""
        data = yaml.safe_load(read_policy(name))
        jsonschema.Draft202012Validator(load_schema("policy")).validate(data)

    def test_builtin_names_are_the_shipped_files(self) -> None:
        """BUILTIN_POLICIES names exactly the policy files shipped as package data."""
        assert sorted(BUILTIN_POLICIES) == policy_names()

    def test_builtin_name_resolves(self) -> None:
        """A builtin policy can be named instead of given as a path."""
        strict = load_policy("regulated-strict")
        assert strict.name == "regulated-strict"
        assert strict.max_passes == 2
        assert strict.min_quote_chars > Policy().min_quote_chars


class TestInvalidPolicy:
    def test_max_passes_over_hard_cap(self, tmp_path: Path) -> None:
        """max_passes above the hard cap of 2 names the field and the rule."""
        path = tmp_path / "p.yaml"
        path.write_text("max_passes: 3\n")
        with pytest.raises(PolicyError) as info:
            load_policy(path)
        assert info.value.field == "max_passes"
        assert info.value.rule == "maximum"
        assert "max_passes" in str(info.value) and str(path) in str(info.value)

    def test_unknown_field_rejected(self) -> None:
        """A misspelt field is an error, not silently ignored."""
        with pytest.raises(PolicyError) as info:
            load_policy({"on_fial": "abstain"})
        assert info.value.rule == "additionalProperties"

    def test_bad_enum(self) -> None:
        """on_fail outside abstain | redact | annotate is rejected naming the field."""
        with pytest.raises(PolicyError) as info:
            load_policy({"on_fail": "ignore"})
        assert info.value.field == "on_fail"
        assert info.value.rule == "enum"

    def test_nested_field_path(self) -> None:
        """Nested fields are named by their dotted path."""
        with pytest.raises(PolicyError) as info:
            load_policy({"time_budget": {"per_run_s": -1}})
        assert info.value.field == "time_budget.per_run_s"

    def test_not_yaml(self, tmp_path: Path) -> None:
        """A file that is not YAML gives a PolicyError naming the file."""
        path = tmp_path / "p.yaml"
        path.write_text("max_passes: [1,\n")
        with pytest.raises(PolicyError, match="not valid YAML"):
            load_policy(path)

    def test_missing_file(self, tmp_path: Path) -> None:
        """A policy that is neither a file nor a builtin name is an error."""
        with pytest.raises(PolicyError, match="builtin"):
            load_policy(tmp_path / "nope.yaml")

    def test_policy_hash_changes_with_content(self) -> None:
        """The policy hash recorded in traces changes when any field changes."""
        assert Policy().sha256() != Policy(max_passes=2).sha256()
        assert load_policy("default").sha256() == Policy().sha256()  # same content, same hash
