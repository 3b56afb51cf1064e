"""Golden-set format: JSONL validated by schemas/golden_item.schema.json and the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLE_CORPUS, REPO_ROOT

from evidencegate.evals.answers import matches
from evidencegate.evals.golden import (
    Category,
    GoldenItem,
    base_item_id,
    expand_paraphrases,
    golden_item_schema,
    load_golden,
)
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
        """The authored example golden set is valid, with unanswerable items among its items."""
        items = load_golden(EXAMPLE_CORPUS / "golden.jsonl")
        assert len(items) >= 20
        assert sum(i.category is Category.UNANSWERABLE for i in items) >= 3

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


EXPECTED = {"all_of": [["$150", "150"]], "none_of": ["$100"]}


class TestExpectedAnswerAndParaphrases:
    def test_item_with_expected_answer_and_paraphrases_loads(self, tmp_path: Path) -> None:
        """The agreed fields load into the model, with groups, none_of and paraphrases kept."""
        data = valid_item(
            expected_answer=EXPECTED,
            paraphrases=["gift cap 2024?", "How much may a gift be worth before approval?"],
        )
        (item,) = load_golden(write(tmp_path, data))
        assert item.expected_answer is not None
        assert item.expected_answer.all_of == [["$150", "150"]]
        assert item.expected_answer.none_of == ["$100"]
        assert len(item.paraphrases) == 2

    @pytest.mark.parametrize(
        ("expected", "message"),
        [
            (
                {"all_of": [["$150", "re:(150"]]},
                r"line 2: field 'expected_answer': all_of\[0\]\[1\] 're:\(150' is not a valid "
                r"regex: missing \)",
            ),
            ({"all_of": [["ok"]], "none_of": ["re:[a-"]}, r"none_of\[0\] .* not a valid regex"),
            ({"all_of": [[]]}, r"field 'expected_answer.all_of.0': \[\] should be non-empty"),
            ({"all_of": []}, r"field 'expected_answer.all_of': \[\] should be non-empty"),
            ({"all_of": [["re:"]]}, r"all_of\[0\]\[0\] is empty"),
            ({"all_of": [["150"]], "any_of": []}, r"expected_answer.*any_of"),
        ],
    )
    def test_bad_expected_answer_names_line_and_field(
        self, tmp_path: Path, expected: dict[str, Any], message: str
    ) -> None:
        """A regex that does not compile, an empty group or an unknown key is refused by name."""
        with pytest.raises(UsageError, match=message):
            load_golden(
                write(tmp_path, valid_item(), valid_item(id="t-2", expected_answer=expected))
            )

    def test_unanswerable_item_has_no_expected_answer(self, tmp_path: Path) -> None:
        """An unanswerable item with an expected answer contradicts itself."""
        data = valid_item(category="unanswerable", required_evidence=[], expected_answer=EXPECTED)
        with pytest.raises(UsageError, match="unanswerable item has no expected_answer"):
            load_golden(write(tmp_path, data))

    @pytest.mark.parametrize(
        ("paraphrases", "message"),
        [
            (["what is the GIFT limit? "], r"paraphrases\[0\] repeats the question"),
            (["a b", "A  B"], r"paraphrases\[1\] repeats the paraphrases\[0\]"),
            ([""], r"field 'paraphrases.0'"),
        ],
    )
    def test_paraphrases_differ_from_the_question_and_each_other(
        self, tmp_path: Path, paraphrases: list[str], message: str
    ) -> None:
        """A paraphrase equal to the question or another paraphrase (case, spaces) is refused."""
        with pytest.raises(UsageError, match=message):
            load_golden(write(tmp_path, valid_item(paraphrases=paraphrases)))

    def test_variants_share_everything_but_id_and_question(self) -> None:
        """expand_paraphrases yields the item, then ITEM~p1, ITEM~p2 with the same expectations."""
        item = GoldenItem.model_validate(
            valid_item(expected_answer=EXPECTED, paraphrases=["gift cap?", "max gift value?"])
        )
        other = GoldenItem.model_validate(valid_item(id="t-002"))
        variants = expand_paraphrases([item, other])
        assert [v.id for v in variants] == ["t-001", "t-001~p1", "t-001~p2", "t-002"]
        assert [v.question for v in variants[1:3]] == ["gift cap?", "max gift value?"]
        assert all(v.as_of == item.as_of for v in variants[:3])
        assert all(v.expected_answer == item.expected_answer for v in variants[:3])
        assert all(v.paraphrases == [] for v in variants[1:3])
        assert [base_item_id(v.id) for v in variants] == ["t-001"] * 3 + ["t-002"]

    def test_ids_cannot_contain_the_variant_separator(self, tmp_path: Path) -> None:
        """'~' is reserved for variant ids, so a golden id never contains it."""
        with pytest.raises(UsageError, match=r"field 'id'"):
            load_golden(write(tmp_path, valid_item(id="t~p1")))


GOLDEN_SETS = [
    EXAMPLE_CORPUS / "golden.jsonl",
    *sorted((REPO_ROOT / "golden_sets").glob("*.jsonl")),
]


class TestProjectGoldenSets:
    @pytest.mark.parametrize("path", GOLDEN_SETS, ids=lambda p: p.name)
    def test_every_item_is_scored_and_paraphrased(self, path: Path) -> None:
        """Every answerable item has an expected answer and every item two or more paraphrases
        (GOLDEN_FORMAT): no run is left unscored, every item is asked more than one way."""
        items = load_golden(path)
        assert [i.id for i in items if i.answerable and i.expected_answer is None] == []
        assert [i.id for i in items if len(i.paraphrases) < 2] == []

    @pytest.mark.parametrize("path", GOLDEN_SETS, ids=lambda p: p.name)
    def test_expected_values_are_stated_by_the_required_evidence(self, path: Path) -> None:
        """Each all_of group of an answerable item matches its required evidence (quote or
        claim): an expected value the cited evidence does not state cannot be scored."""
        unsupported = [
            f"{item.id}: all_of[{index}] {group}"
            for item in load_golden(path)
            if item.expected_answer is not None
            for index, group in enumerate(item.expected_answer.all_of)
            if not any(
                matches(alternative, f"{evidence.quote or ''}\n{evidence.claim}")
                for alternative in group
                for evidence in item.required_evidence
            )
        ]
        assert unsupported == []


HELDOUT_SETS = sorted((REPO_ROOT / "golden_sets" / "heldout").glob("*/**/*.jsonl"))


class TestHeldOutSets:
    def test_every_set_is_there(self) -> None:
        assert {
            p.relative_to(REPO_ROOT / "golden_sets" / "heldout").parts[0] for p in HELDOUT_SETS
        } == {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}

    @pytest.mark.parametrize(
        "path",
        HELDOUT_SETS,
        ids=lambda p: (
            "/".join(p.parts[-3:]) if p.parent.name == "example" else "/".join(p.parts[-2:])
        ),
    )
    def test_every_item_loads_and_is_scored(self, path: Path) -> None:
        """A held-out item is a golden item (the benchmark's --golden-dir reads it): it loads,
        and every answerable one has an expected answer, so no run is left unscored."""
        items = load_golden(path)
        assert items
        assert [i.id for i in items if i.answerable and i.expected_answer is None] == []
        assert any(not i.answerable for i in items)  # each set asks what the corpus lacks
