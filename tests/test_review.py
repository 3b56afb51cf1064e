"""The review queue: flags from scores, user feedback, disagreement flags and the CLI."""

from __future__ import annotations

import argparse
import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evidencegate.cli.judges import (
    add_feedback_arguments,
    add_flags_arguments,
    run_feedback,
    run_flags,
)
from evidencegate.corpus.store import STORE_FILENAME, Store
from evidencegate.exceptions import StoreError, UsageError
from evidencegate.judgements import AnswerScore
from evidencegate.review import ReviewQueue

NOW = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "store"
    Store.open(directory).close()
    return directory


@pytest.fixture
def queue(store_dir: Path) -> Iterator[ReviewQueue]:
    with ReviewQueue.open(store_dir, clock=lambda: NOW) as q:
        yield q


def scored(review: float, *, flags: list[str] | None = None) -> AnswerScore:
    return AnswerScore(
        abstained=False,
        groundedness=(review - 1) / 3,
        quality=4,
        review_score=review,
        flag_reasons=flags or [],
    )


class TestReviewQueue:
    def test_score_flags_go_to_the_queue(self, queue: ReviewQueue) -> None:
        """Each flag reason of a score becomes a row with the run, reason, score and time."""
        queue.record_score("run-1", scored(2.0, flags=["review score 2.00 < 3.00"]))
        queue.record_score("run-2", scored(4.0))
        (flag,) = queue.flags()
        assert (flag.run_id, flag.reason, flag.score) == ("run-1", "review score 2.00 < 3.00", 2.0)
        assert flag.time == "2024-05-01T12:00:00+00:00"

    def test_up_on_a_low_score_flags_the_run(self, queue: ReviewQueue) -> None:
        """'up' (4) against an automatic 1.5 disagrees by 2.5 >= 2: flagged."""
        queue.record_score("run-1", scored(1.5))
        result = queue.record_feedback("run-1", "up", note="looks right to me")
        assert result.disagreement == pytest.approx(2.5)
        assert result.flag is not None
        assert "disagrees" in result.flag.reason
        assert [f.run_id for f in queue.flags()] == ["run-1"]

    def test_down_on_a_high_score_flags_the_run(self, queue: ReviewQueue) -> None:
        """'down' (1) against an automatic 3.0 disagrees by exactly 2: flagged."""
        queue.record_score("run-1", scored(3.0))
        assert queue.record_feedback("run-1", "down").flag is not None

    def test_small_disagreement_is_not_flagged(self, queue: ReviewQueue) -> None:
        """'down' (1) against 2.5 differs by 1.5 < 2: recorded, not flagged."""
        queue.record_score("run-1", scored(2.5))
        result = queue.record_feedback("run-1", "down")
        assert result.flag is None
        assert queue.flags() == []
        assert [f.verdict for f in queue.feedback("run-1")] == ["down"]

    def test_unscored_run_records_feedback_without_comparison(self, queue: ReviewQueue) -> None:
        """A run with no automatic score (or an abstention) cannot disagree."""
        queue.record_score("run-a", AnswerScore(abstained=True))
        for run in ("run-a", "never-judged"):
            result = queue.record_feedback(run, "up")
            assert (result.auto_score, result.disagreement, result.flag) == (None, None, None)

    def test_bad_verdict_is_refused(self, queue: ReviewQueue) -> None:
        """Only up or down are verdicts."""
        with pytest.raises(UsageError, match="'meh'"):
            queue.record_feedback("run-1", "meh")

    def test_tables_live_in_the_store_file(self, queue: ReviewQueue, store_dir: Path) -> None:
        """flagged_responses has run_id, reason, score and time, in the store's SQLite file."""
        queue.flag("run-9", "manual", 1.0)
        with sqlite3.connect(store_dir / STORE_FILENAME) as db:
            columns = [row[1] for row in db.execute("PRAGMA table_info(flagged_responses)")]
            assert columns == ["id", "run_id", "reason", "score", "time"]
        with Store.open(store_dir) as store:
            assert store.stats() is not None  # the corpus store still opens

    def test_not_a_store_is_an_error(self, tmp_path: Path) -> None:
        """A directory without a store is a StoreError, and nothing is created."""
        with pytest.raises(StoreError):
            ReviewQueue.open(tmp_path / "nothing")
        assert not (tmp_path / "nothing").exists()


def _args(add: Callable[[argparse.ArgumentParser], None], argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add(parser)
    return parser.parse_args(argv)


class TestCli:
    def test_feedback_then_flags_list(
        self, store_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """feedback reports the disagreement and flags list shows the flagged run."""
        with ReviewQueue.open(store_dir) as queue:
            queue.record_score("run-7", scored(1.0))
        code = run_feedback(
            _args(
                add_feedback_arguments, ["run-7", "up", "--note", "fine", "--store", str(store_dir)]
            )
        )
        assert code == 0
        out = capsys.readouterr().out
        assert "disagreement 3.00" in out and "flagged for review" in out
        assert run_flags(_args(add_flags_arguments, ["list", "--store", str(store_dir)])) == 0
        listing = capsys.readouterr().out
        assert "1 flagged response(s)" in listing and "run-7" in listing

    def test_empty_queue(self, store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """An empty queue says so."""
        assert run_flags(_args(add_flags_arguments, ["list", "--store", str(store_dir)])) == 0
        assert "review queue is empty" in capsys.readouterr().out

    def test_missing_store_exits_2(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A missing store exits 2 with an error naming it."""
        args = _args(add_feedback_arguments, ["r", "up", "--store", str(tmp_path / "none")])
        assert run_feedback(args) == 2
        assert "none" in capsys.readouterr().err
