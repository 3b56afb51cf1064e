"""Golden-set format: JSONL validated by schemas/golden_item.schema.json and the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate.evals.golden import Category, GoldenItem, golden_item_schema, load_golden
from evidencegate.exceptions import UsageError
from evidencegate.schemas import SCHEMA_DIR


def valid_item(**changes: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": "t-001",
        "question": "What is the gift limit?",
        "as_of": "2024-06-01",
        "category": "factual",
        "task": "closed",
        "expected_answer_notes": "$150.",
        "required_evidence": [
            {"claim": "The limit is $150.", "doc_id": "POL-7", "version": "2024.1", "page": 1}
        ],
        "forbidden_sources": [{"doc_id": "POL-7", "version": "2022.1"}],
    }
    item.update(changes)
    return item


def write(tmp_path: Path, *lines: dict[str, Any] | str) -> Path:
    path = tmp_path / "golden.jsonl"
    path.write_text(
        "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n",
        encoding="utf-8",
    )
    return path


class TestLoadGolden:
    def test_example_golden_set_loads(self) -> None:
        """The authored example golden set is valid: 20 items, 3 unanswerable."""
        items = load_golden(EXAMPLE_CORPUS / "golden.jsonl")
        assert len(items) == 20
        assert sum(i.category is Category.UNANSWERABLE for i in items) == 3

    def test_schema_file_validates_items(self) -> None:
        """schemas/golden_item.schema.json accepts a valid item and rejects an unknown field."""
        schema = json.loads((SCHEMA_DIR / "golden_item.schema.json").read_text(encoding="utf-8"))
        assert schema == golden_item_schema()
        jsonschema.validate(valid_item(), schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(valid_item(extra=1), schema)

    def test_blank_lines_are_ignored(self, tmp_path: Path) -> None:
        """Blank lines between items do not count as items."""
        path = write(tmp_path, valid_item(), "", valid_item(id="t-002"))
        assert [i.id for i in load_golden(path)] == ["t-001", "t-002"]

    @pytest.mark.parametrize(
        ("changes", "message"),
        [
            ({"category": "trivia"}, r"line 1: field 'category': 'trivia' is not one of"),
            ({"as_of": "2024-13-01"}, r"line 1: field 'as_of': .* \(rule: format\)"),
            ({"id": "has space"}, r"line 1: field 'id': .* \(rule: pattern\)"),
            ({"task": None}, r"field 'task'"),
            ({"surprise": True}, r"field '<item>': Additional properties .*surprise"),
        ],
    )
    def test_schema_errors_name_line_field_and_rule(
        self, tmp_path: Path, changes: dict[str, Any], message: str
    ) -> None:
        """A schema violation raises UsageError naming the line, the field and the rule."""
        with pytest.raises(UsageError, match=message):
            load_golden(write(tmp_path, valid_item(**changes)))

    def test_missing_field_is_named(self, tmp_path: Path) -> None:
        """A missing required field is reported with the rule 'required'."""
        data = valid_item()
        del data["as_of"]
        with pytest.raises(UsageError, match=r"'as_of' is a required property \(rule: required\)"):
            load_golden(write(tmp_path, data))

    def test_invalid_json_names_the_line(self, tmp_path: Path) -> None:
        """A line that is not JSON is reported by number."""
        with pytest.raises(UsageError, match=r"line 2: not valid JSON"):
            load_golden(write(tmp_path, valid_item(), "{not json"))

    def test_duplicate_ids_are_refused(self, tmp_path: Path) -> None:
        """Item ids are unique within a file; the error names both lines."""
        with pytest.raises(UsageError, match=r"line 2: duplicate id 't-001' \(first on line 1\)"):
            load_golden(write(tmp_path, valid_item(), valid_item()))

    def test_unanswerable_item_requires_no_evidence(self, tmp_path: Path) -> None:
        """An unanswerable item that names required evidence contradicts itself."""
        with pytest.raises(UsageError, match="unanswerable item requires no evidence"):
            load_golden(write(tmp_path, valid_item(category="unanswerable")))

    def test_answerable_item_requires_evidence(self, tmp_path: Path) -> None:
        """A factual item without required evidence cannot be scored."""
        with pytest.raises(UsageError, match="a factual item needs required_evidence"):
            load_golden(write(tmp_path, valid_item(required_evidence=[])))

    def test_required_source_cannot_be_forbidden(self, tmp_path: Path) -> None:
        """A source both required and forbidden (here: every version of it) is refused."""
        data = valid_item(forbidden_sources=[{"doc_id": "POL-7"}])
        with pytest.raises(UsageError, match=r"POL-7@2024\.1 is both required and forbidden"):
            load_golden(write(tmp_path, data))

    def test_empty_file_and_missing_file_are_refused(self, tmp_path: Path) -> None:
        """A golden set must have items, and must exist."""
        with pytest.raises(UsageError, match="has no items"):
            load_golden(write(tmp_path, ""))
        with pytest.raises(UsageError, match="cannot read golden set"):
            load_golden(tmp_path / "absent.jsonl")


class TestGoldenItem:
    def test_forbidden_without_version_matches_every_version(self) -> None:
        """A forbidden source without a version forbids all versions of the document."""
        item = GoldenItem.model_validate(
            valid_item(forbidden_sources=[{"doc_id": "FAQ"}, {"doc_id": "POL-7", "version": "1"}])
        )
        assert item.is_forbidden("FAQ", "2024.1")
        assert item.is_forbidden("POL-7", "1")
        assert not item.is_forbidden("POL-7", "2024.1")
        assert item.answerable
