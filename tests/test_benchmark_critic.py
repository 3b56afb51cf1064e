"""benchmarks/critic.py: the edited copies it makes, and a run over a tiny critic dataset."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest
from bench_support import load_benchmark

REPO = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    return load_benchmark("critic", "critic_bench")


bench = _load()
SOURCE = "In 2014, Acme Corp sold 120 cars in Ohio. Sales were higher than in Texas."
CLAIM = "In 2014, the company sold 120 cars to Acme Corp and sales were higher."


class TestEditedCopies:
    def test_one_copy_per_applicable_kind(self) -> None:
        """Each kind the claim lends itself to yields one copy that differs from the claim."""
        copies = dict(bench.edited_copies(CLAIM, SOURCE, random.Random(0)))
        assert set(copies) == {
            "date",
            "number",
            "name (from the source)",
            "name (not in the source)",
            "negation",
            "word (antonym)",
        }
        assert "2014" not in copies["date"] and "120" not in copies["number"]
        assert "Acme Corp" not in copies["name (not in the source)"]
        assert "were not higher" in copies["negation"]
        assert "lower" in copies["word (antonym)"]

    def test_same_seed_same_copies(self) -> None:
        """The copies depend only on the seed."""
        first = list(bench.edited_copies(CLAIM, SOURCE, random.Random(3)))
        assert first == list(bench.edited_copies(CLAIM, SOURCE, random.Random(3)))


class TestRun:
    def test_prints_every_group(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Over a tiny dataset the three groups and the per-kind table are printed."""
        critic = tmp_path / "critic"
        critic.mkdir()
        rows = [
            {
                "id": "a",
                "source": SOURCE,
                "claim": CLAIM.replace("to Acme Corp ", ""),
                "label": "supported",
            },
            {"id": "b", "source": SOURCE, "claim": "Acme sold 900 boats.", "label": "unsupported"},
        ]
        text = "".join(json.dumps(r) + "\n" for r in rows)
        for name in (*bench.REPORTED, *(pool for pool, _ in bench.DEV)):
            (critic / f"{name}.jsonl").write_text(text, encoding="utf-8")
        (critic / "qags_200.jsonl").write_text(json.dumps(rows[1]) + "\n", encoding="utf-8")
        assert bench.main(["--shared", str(tmp_path)]) == 0
        out = capsys.readouterr().out
        assert "judge: support:rules@3" in out
        assert "| faithbench_200 | 2 |" in out
        assert "| qags_all minus 200 (dev) | 1 |" in out
        assert "edited dev claims (synthetic)" in out and "| negation |" in out

    def test_earlier_judge_on_request(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """--judge rules@2 runs the coverage judge, named in the output."""
        critic = tmp_path / "critic"
        critic.mkdir()
        row = {"id": "a", "source": SOURCE, "claim": "Acme sold 900 boats.", "label": "unsupported"}
        for name in (*bench.REPORTED, *(pool for pool, _ in bench.DEV)):
            (critic / f"{name}.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
        assert (
            bench.main(["--shared", str(tmp_path), "--sets", "reported", "--judge", "rules@2"]) == 0
        )
        out = capsys.readouterr().out
        assert "judge: support:rules@2" in out and "| wice_200 | 1 |" in out

    def test_missing_data_exits_2(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Without a critic folder under --shared it exits 2 and names the path."""
        assert bench.main(["--shared", str(tmp_path)]) == 2
        assert str(tmp_path / "critic") in capsys.readouterr().err
