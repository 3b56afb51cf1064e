"""``evidencegate ablate``: outputs, gates (--fail-under / --fail-over) and exit codes."""

from __future__ import annotations

import argparse
import io
import json
import re
import threading
from pathlib import Path

import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate.cli.evals import Gate, add_ablate_arguments, parse_gate, run_ablate
from evidencegate.contracts import Arm, Outcome
from evidencegate.evals.answers import AnswerClass, AnswerGrade
from evidencegate.evals.golden import Category
from evidencegate.evals.metrics import ItemResult, Metric, summarize
from evidencegate.exceptions import UsageError
from evidencegate.userio import ProgressBar

GOLDEN = EXAMPLE_CORPUS / "golden.jsonl"
ALL = list(Arm)


@pytest.fixture(scope="module")
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


@pytest.fixture(scope="module")
def small_golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three example items: a stale trap, a factual question and an unanswerable one, with
    neither paraphrases nor expected answers (scored_golden adds its own)."""
    keep = {"ex-003", "ex-010", "ex-019"}
    lines = []
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line.strip() and json.loads(line)["id"] in keep:
            data = json.loads(line)
            data.pop("paraphrases", None)  # one run per item, whatever the data holds
            data.pop("expected_answer", None)
            lines.append(json.dumps(data))
    path = tmp_path_factory.mktemp("golden") / "small.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


EXPECTATIONS = {
    "ex-003": {
        "expected_answer": {"all_of": [["$150"]], "none_of": ["$100"]},
        "paraphrases": ["gift limit per giver from March 2024?", "How big a gift is OK per year?"],
    },
    "ex-010": {
        "expected_answer": {"all_of": [["12 months", "re:\\btwelve months"]]},
        "paraphrases": [
            "KYC refresh cycle for high risk clients",
            "high-risk KYC review: how often?",
        ],
    },
    "ex-019": {"paraphrases": ["CCTV retention period?", "How long do we keep branch video?"]},
}


@pytest.fixture(scope="module")
def scored_golden(tmp_path_factory: pytest.TempPathFactory, small_golden: Path) -> Path:
    """The three small items with expected answers (answerable ones) and two paraphrases each."""
    lines = []
    for line in small_golden.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        data.update(EXPECTATIONS[data["id"]])
        lines.append(json.dumps(data))
    path = tmp_path_factory.mktemp("golden") / "scored.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def ablate(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="evidencegate ablate")
    add_ablate_arguments(parser)
    return run_ablate(parser.parse_args([*argv, "--no-progress", "--resamples", "50"]))


class TestParseGate:
    def test_default_arm_is_the_product_arm(self) -> None:
        """Without ARM: a gate checks grounded_followup."""
        assert parse_gate("required_coverage=0.8", "under", ALL) == Gate(
            Arm.GROUNDED_FOLLOWUP, Metric.REQUIRED_COVERAGE, "under", 0.8
        )

    def test_named_arm(self) -> None:
        """ARM:METRIC=VALUE checks the named arm."""
        gate = parse_gate("baseline:unsupported_claim_rate=0.1", "over", ALL)
        assert (gate.arm, gate.metric, gate.threshold) == (
            Arm.BASELINE,
            Metric.UNSUPPORTED_CLAIM_RATE,
            0.1,
        )

    @pytest.mark.parametrize(
        ("text", "direction", "message"),
        [
            ("unsupported_claim_rate=0.1", "under", "use --fail-over"),
            ("required_coverage=0.9", "over", "use --fail-under"),
            ("coverage=0.9", "under", "unknown metric 'coverage'"),
            ("robust:required_coverage=0.9", "under", "unknown arm 'robust'"),
            ("required_coverage=high", "under", "VALUE 'high' is not a number"),
            ("required_coverage", "under", r"expected \[ARM:\]METRIC=VALUE"),
        ],
    )
    def test_malformed_gates_are_usage_errors(
        self, text: str, direction: str, message: str
    ) -> None:
        """A gate that cannot express 'worse', or names nothing known, is refused."""
        with pytest.raises(UsageError, match=message):
            parse_gate(text, direction, ALL)  # type: ignore[arg-type]

    def test_gate_on_an_arm_not_run_is_refused(self) -> None:
        """The default arm must be among --arms, or the gate must name a run arm."""
        with pytest.raises(UsageError, match="arm 'grounded_followup' is not run"):
            parse_gate("required_coverage=0.5", "under", [Arm.BASELINE])

    def test_directionless_metric_takes_either_gate(self) -> None:
        """abstention_rate has no better direction: both gates are allowed."""
        assert parse_gate("abstention_rate=0.5", "under", ALL).direction == "under"
        assert parse_gate("abstention_rate=0.5", "over", ALL).direction == "over"


class TestGateCheck:
    def test_undefined_metric_fails_its_gate(self) -> None:
        """An arm that emitted no claim cannot pass --fail-over unsupported_claim_rate."""
        result = ItemResult(
            item_id="x",
            arm=Arm.GROUNDED_FOLLOWUP,
            category=Category.UNANSWERABLE,
            outcome=Outcome.ABSTAINED,
            latency_ms=1.0,
            answer=AnswerGrade(answer_class=AnswerClass.CORRECT_ABSTENTION),
        )
        metrics = summarize(
            {Arm.GROUNDED_FOLLOWUP: [result]},
            golden_set="g",
            golden_sha256="0" * 64,
            policy="p",
            policy_sha256="0" * 64,
            evidencegate_version="t",
            resamples=10,
        )
        gate = parse_gate("unsupported_claim_rate=0", "over", [Arm.GROUNDED_FOLLOWUP])
        message = gate.check(metrics)
        assert message is not None and "undefined" in message
        assert parse_gate("failure_rate=0", "over", [Arm.GROUNDED_FOLLOWUP]).check(metrics) is None


class TestRunAblate:
    def test_writes_every_output_and_exits_zero(
        self,
        store_dir: Path,
        small_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """No gate: exit 0, the Markdown table on stdout, four files and the traces in OUTDIR."""
        out = tmp_path / "out"
        assert ablate(str(small_golden), "--store", str(store_dir), "-o", str(out)) == 0
        for name in ("metrics.json", "metrics.md", "report.html", "results.jsonl"):
            assert (out / name).is_file()
        assert len(list((out / "traces").glob("*/*.jsonl"))) == 3 * 4
        assert "| unsupported_claim_rate | lower |" in capsys.readouterr().out

    def test_prints_and_writes_the_answer_figures(
        self,
        store_dir: Path,
        scored_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """Paraphrases run as variants; the answer rows print k/n per arm and per category."""
        out = tmp_path / "out"
        code = ablate(
            str(scored_golden), "--store", str(store_dir), "-o", str(out), "--arms", "grounded"
        )
        assert code == 0
        printed = capsys.readouterr().out
        rows = {
            line.split("|")[1].strip(): line.split("|")[2].strip()
            for line in printed.split("#### Per category")[0].splitlines()
            if line.startswith("| ") and line.count("|") == 3
        }
        assert re.fullmatch(r"\d/6 \(\d+\.\d%\)", rows["correct (answerable)"])
        assert re.fullmatch(r"\d/9 \(\d+\.\d%\)", rows["WRONG (all runs)"])
        assert re.fullmatch(r"\d/3 \(\d+\.\d%\)", rows["abstained (unanswerable)"])
        assert re.fullmatch(r"\d/3 \(\d+\.\d%\)", rows["paraphrase consistency"])
        assert rows["unscored (no expected answer)"] == "0/6 (0.0%)"
        assert "#### Per category: grounded" in printed
        assert "| correct_answer_rate | higher |" in printed
        assert len(list((out / "traces" / "grounded").glob("ex-003~p*.jsonl"))) == 2
        data = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
        (arm,) = data["results"]
        answers = arm["answers"]
        assert (data["items"], data["runs"], answers["runs"]) == (3, 9, 9)
        classes = ("correct", "wrong", "abstained", "correct_abstentions", "unscored", "failed")
        assert sum(answers[c] for c in classes) == 9
        assert set(arm["categories"]) == {"stale_trap", "factual", "unanswerable"}

    def test_wrong_answers_can_fail_a_gate(
        self,
        store_dir: Path,
        scored_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """The baseline answers the unanswerable item and its paraphrases: wrong answers > 0."""
        code = ablate(
            str(scored_golden),
            "--store",
            str(store_dir),
            "-o",
            str(tmp_path / "out"),
            "--arms",
            "baseline",
            "--fail-over",
            "baseline:wrong_answer_rate=0",
        )
        assert code == 1
        assert "FAIL: baseline:wrong_answer_rate=" in capsys.readouterr().err

    def test_passing_gates_exit_zero(
        self, store_dir: Path, small_golden: Path, tmp_path: Path
    ) -> None:
        """Gated arms emit nothing unsupported and abstain on the unanswerable item."""
        code = ablate(
            str(small_golden),
            "--store",
            str(store_dir),
            "-o",
            str(tmp_path / "out"),
            "--fail-over",
            "unsupported_claim_rate=0",
            "--fail-over",
            "stale_citation_rate=0",
            "--fail-under",
            "grounded:abstention_correctness=1",
        )
        assert code == 0

    def test_failing_gate_exits_one_and_says_why(
        self,
        store_dir: Path,
        small_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """Baseline answers the unanswerable item, so its abstention correctness is under 1."""
        code = ablate(
            str(small_golden),
            "--store",
            str(store_dir),
            "-o",
            str(tmp_path / "out"),
            "--arms",
            "baseline,grounded",
            "--fail-under",
            "baseline:abstention_correctness=1",
            "--fail-over",
            "grounded:unsupported_claim_rate=0",
        )
        assert code == 1
        err = capsys.readouterr().err
        assert "FAIL: baseline:abstention_correctness=0 is under 1" in err
        assert "grounded:unsupported_claim_rate" not in err

    @pytest.mark.parametrize(
        ("extra", "message"),
        [
            (["--arms", "baseline,oracle"], "unknown arm 'oracle'"),
            (["--arms", "baseline,baseline"], "'baseline' is given twice"),
            (["--concurrency", "0"], "--concurrency must be >= 1"),
            (["--arms", "baseline", "--fail-under", "required_coverage=1"], "is not run"),
        ],
    )
    def test_usage_errors_exit_two_before_running(
        self,
        store_dir: Path,
        small_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        extra: list[str],
        message: str,
    ) -> None:
        """Bad options exit 2 with 'error: ...' and write nothing."""
        out = tmp_path / "out"
        assert ablate(str(small_golden), "--store", str(store_dir), "-o", str(out), *extra) == 2
        assert message in capsys.readouterr().err
        assert not out.exists()

    def test_missing_store_and_reused_outdir_exit_two(
        self,
        store_dir: Path,
        small_golden: Path,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """A directory that is not a store, an OUTDIR holding traces or one that cannot be
        created is refused."""
        missing_out = tmp_path / "never"
        assert (
            ablate(str(small_golden), "--store", str(tmp_path / "none"), "-o", str(missing_out))
            == 2
        )
        assert "no evidencegate store" in capsys.readouterr().err
        assert not missing_out.exists()
        a_file = tmp_path / "file"
        a_file.write_text("", encoding="utf-8")
        assert ablate(str(small_golden), "--store", str(store_dir), "-o", str(a_file)) == 2
        assert "cannot create the output directory" in capsys.readouterr().err
        out = tmp_path / "out"
        (out / "traces" / "baseline").mkdir(parents=True)
        assert ablate(str(small_golden), "--store", str(store_dir), "-o", str(out)) == 2
        assert "already holds the traces" in capsys.readouterr().err


class TestProgress:
    def test_non_terminal_stream_gets_one_line_per_tenth(self) -> None:
        """Twenty runs on a pipe: a line for the first run, then one per tenth done, naming the
        last run and counting failures."""
        stream = io.StringIO()
        progress = ProgressBar(20, stream=stream, unit="runs", error_label="failed")
        for n in range(20):
            progress.advance(error=n == 3, note=f"last: baseline i{n}")
        lines = stream.getvalue().splitlines()
        assert len(lines) == 11
        assert lines[0].startswith("[#....") and " 1/20 runs, last: baseline i0" in lines[0]
        assert lines[-1] == "[" + "#" * 30 + "] 20/20 runs, last: baseline i19, 1 failed"

    def test_a_note_from_a_document_cannot_reach_the_terminal_raw(self) -> None:
        """An item id with an escape sequence is shown escaped."""
        stream = io.StringIO()
        ProgressBar(1, stream=stream).advance(note="last: \x1b[2J")
        assert "\x1b" not in stream.getvalue() and "\\x1b[2J" in stream.getvalue()

    def test_concurrent_advances_are_all_counted(self) -> None:
        """Advancing from several threads loses no run (the ablation runs items concurrently)."""
        stream = io.StringIO()
        progress = ProgressBar(400, stream=stream)
        threads = [
            threading.Thread(target=lambda: [progress.advance() for _ in range(100)])
            for _ in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert progress.done == 400
        assert stream.getvalue().splitlines()[-1].startswith("[" + "#" * 30 + "] 400/400")
