"""The command line, end to end over the example corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_ITEMS

from evidencegate.cli import main
from evidencegate.contracts import GatedAnswer, Outcome


@pytest.fixture
def store(example_store_dir: Path) -> Path:
    """A private copy of the example store."""
    return example_store_dir


def golden(category: str) -> dict[str, Any]:
    """The first example golden item of ``category``."""
    return next(item for item in EXAMPLE_ITEMS if item["category"] == category)


class TestAsk:
    def test_json_is_exactly_the_gated_answer(
        self, store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """ask --json prints only the GatedAnswer JSON, and the trace verifies."""
        item = golden("factual")
        trace = tmp_path / "run.jsonl"
        code = main(
            [
                "ask",
                item["question"],
                "--store",
                str(store),
                "--as-of",
                item["as_of"],
                "--trace-out",
                str(trace),
                "--json",
            ]
        )
        out = capsys.readouterr().out
        assert code == 0
        answer = GatedAnswer.model_validate_json(out)
        assert answer.outcome is Outcome.ANSWERED
        assert main(["verify", str(trace)]) == 0

    def test_readable_output_names_sources(
        self, store: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Without --json each claim shows its quote, document, version and page."""
        item = golden("factual")
        assert main(["ask", item["question"], "--store", str(store), "--as-of", item["as_of"]]) == 0
        out = capsys.readouterr().out
        assert "outcome:  answered" in out
        assert "quote:" in out and "source:" in out and "page" in out
        assert "trace:" in out

    def test_unanswerable_abstains_and_strict_exits_1(
        self, store: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An unanswerable question abstains; --strict turns that into exit code 1."""
        item = golden("unanswerable")
        code = main(
            [
                "ask",
                item["question"],
                "--store",
                str(store),
                "--as-of",
                item["as_of"],
                "--json",
                "--strict",
            ]
        )
        answer = GatedAnswer.model_validate_json(capsys.readouterr().out)
        assert answer.outcome is Outcome.ABSTAINED
        assert code == 1

    def test_missing_store_is_an_error(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Asking a directory that is not a store exits 2 with a message."""
        assert main(["ask", "anything?", "--store", str(tmp_path / "nope")]) == 2
        assert "error:" in capsys.readouterr().err

    def test_invalid_policy_is_an_error(
        self, store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """An invalid policy file exits 2 naming the field."""
        bad = tmp_path / "bad.yaml"
        bad.write_text("max_passes: 7\n")
        assert main(["ask", "anything?", "--store", str(store), "--policy", str(bad)]) == 2
        assert "max_passes" in capsys.readouterr().err


class TestVerify:
    def test_tampered_trace_exits_1(
        self, store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """verify exits non-zero naming the first bad seq after one byte changes."""
        item = golden("factual")
        trace = tmp_path / "run.jsonl"
        main(
            [
                "ask",
                item["question"],
                "--store",
                str(store),
                "--as-of",
                item["as_of"],
                "--trace-out",
                str(trace),
                "--json",
            ]
        )
        capsys.readouterr()
        lines = trace.read_bytes().splitlines(keepends=True)
        lines[2] = lines[2].replace(b'"pass_no":1', b'"pass_no":2', 1)
        trace.write_bytes(b"".join(lines))
        assert main(["verify", str(trace)]) == 1
        assert "seq 2" in capsys.readouterr().out


class TestDemo:
    def test_demo_runs_offline(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """The demo answers, abstains on the unanswerable item, and writes verifiable traces."""
        assert main(["demo", "--traces", str(tmp_path)]) == 0
        out = capsys.readouterr().out
        assert "outcome:  answered" in out
        assert "outcome:  abstained" in out
        traces = sorted(tmp_path.glob("*.jsonl"))
        assert len(traces) >= 4
        for trace in traces:
            assert main(["verify", str(trace)]) == 0
