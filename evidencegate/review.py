"""The review queue: runs whose answers need a human look, and what users said about answers.

Three tables live in the store's SQLite file (``STORE/evidencegate.sqlite3``), created on first
use by this module's own connection — the corpus schema is not touched — or, for a
``postgresql://`` store, in its database (created by its migrations; the statements are shared,
see :class:`~evidencegate.corpus.postgres.SqliteDialect`):

``run_scores``         the automatic score of each judged run (groundedness 0–1, quality 1–4,
                       review score 1–4; NULLs for an abstention, which is not scored)
``flagged_responses``  the queue: ``run_id, reason, score, time`` (score on the review scale)
``feedback``           a user's verdict on a run: ``run_id, verdict (up|down), note, auto_score,
                       time``

Feedback and the automatic score are compared on one 1–4 scale, defined here once:
``up`` is 4 and ``down`` is 1; the automatic score is the review score of
:func:`evidencegate.judges.scoring.review_score`. A disagreement of 2 or more flags the run:
``up`` on a run scored at most 2, ``down`` on a run scored at least 3.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from evidencegate.closing import Closing
from evidencegate.corpus.postgres import is_postgres_url, open_tables
from evidencegate.corpus.store import STORE_FILENAME, Store
from evidencegate.exceptions import StoreError, UsageError
from evidencegate.judgements import AnswerScore

__all__ = [
    "DISAGREEMENT",
    "FEEDBACK_SCALE",
    "FeedbackResult",
    "Flag",
    "ReviewQueue",
    "Verdict",
]

Verdict = Literal["up", "down"]

#: A user's verdict on the review scale (1–4) the automatic score is on.
FEEDBACK_SCALE: dict[str, float] = {"up": 4.0, "down": 1.0}
#: A gap this large between feedback and the automatic score flags the run.
DISAGREEMENT = 2.0

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS run_scores (
        run_id TEXT PRIMARY KEY,
        abstained INTEGER NOT NULL,
        groundedness REAL,
        quality INTEGER,
        review_score REAL,
        time TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS flagged_responses (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL,
        reason TEXT NOT NULL,
        score REAL,
        time TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS flagged_by_run ON flagged_responses (run_id)",
    """CREATE TABLE IF NOT EXISTS feedback (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL,
        verdict TEXT NOT NULL CHECK (verdict IN ('up', 'down')),
        note TEXT,
        auto_score REAL,
        time TEXT NOT NULL
    )""",
)


@dataclass(frozen=True)
class Flag:
    """One row of the queue. ``score`` is the review score (1–4) when the run has one."""

    run_id: str
    reason: str
    score: float | None
    time: str


@dataclass(frozen=True)
class FeedbackResult:
    """What recording a verdict did: the automatic score it was compared with, and the flag."""

    run_id: str
    verdict: Verdict
    note: str | None
    auto_score: float | None
    disagreement: float | None
    flag: Flag | None


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class ReviewQueue(Closing):
    """The review tables of one store. Open with :meth:`open`; use as a context manager."""

    def __init__(self, connection: Any, path: Path | str, clock: Callable[[], dt.datetime]) -> None:
        """``connection``: a ``sqlite3.Connection`` or a Postgres store's
        :class:`~evidencegate.corpus.postgres.SqliteDialect`."""
        self._db = connection
        self.path = path
        self._clock = clock

    @classmethod
    def open(
        cls, directory: str | Path, *, clock: Callable[[], dt.datetime] = _utc_now
    ) -> ReviewQueue:
        """The queue of the store in ``directory`` (or at a ``postgresql://`` URL); StoreError
        when it is not a store."""
        if is_postgres_url(directory):
            tables = open_tables(str(directory))
            return cls(tables, tables.shown, clock)
        with Store.open(directory, create=False):
            pass  # validates the file is an evidencegate store of a readable schema
        path = Path(directory) / STORE_FILENAME
        try:
            connection = sqlite3.connect(path, isolation_level=None, timeout=10.0)
            for statement in _SCHEMA:
                connection.execute(statement)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the review tables ({exc})") from exc
        return cls(connection, path, clock)

    def close(self) -> None:
        self._db.close()

    # ----------------------------------------------------------------------- writing

    def record_score(self, run_id: str, score: AnswerScore) -> list[Flag]:
        """Store a run's automatic score and queue one flag per ``score.flag_reasons``."""
        _check_run_id(run_id)
        now = self._now()
        with self._transaction():
            self._db.execute(
                "INSERT INTO run_scores "
                "(run_id, abstained, groundedness, quality, review_score, time) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET "
                "abstained = excluded.abstained, groundedness = excluded.groundedness, "
                "quality = excluded.quality, review_score = excluded.review_score, "
                "time = excluded.time",
                (
                    run_id,
                    int(score.abstained),
                    score.groundedness,
                    score.quality,
                    score.review_score,
                    now,
                ),
            )
            flags = [
                self._insert_flag(run_id, reason, score.review_score, now)
                for reason in score.flag_reasons
            ]
        return flags

    def flag(self, run_id: str, reason: str, score: float | None = None) -> Flag:
        """Queue ``run_id`` for review with ``reason``."""
        _check_run_id(run_id)
        if not reason.strip():
            raise UsageError("a flag needs a reason")
        with self._transaction():
            return self._insert_flag(run_id, reason, score, self._now())

    def record_feedback(
        self, run_id: str, verdict: str, *, note: str | None = None
    ) -> FeedbackResult:
        """Record a user's verdict; flag the run when it disagrees with the automatic score
        by :data:`DISAGREEMENT` or more on the 1–4 scale."""
        _check_run_id(run_id)
        if verdict not in FEEDBACK_SCALE:
            raise UsageError(f"verdict must be 'up' or 'down' (got {verdict!r})")
        checked: Verdict = "up" if verdict == "up" else "down"
        now = self._now()
        auto = self.auto_score(run_id)
        gap = abs(FEEDBACK_SCALE[checked] - auto) if auto is not None else None
        flag: Flag | None = None
        with self._transaction():
            self._db.execute(
                "INSERT INTO feedback (run_id, verdict, note, auto_score, time) "
                "VALUES (?, ?, ?, ?, ?)",
                (run_id, checked, note, auto, now),
            )
            if gap is not None and auto is not None and gap >= DISAGREEMENT:
                reason = (
                    f"feedback {checked!r} ({FEEDBACK_SCALE[checked]:g}/4) disagrees with the "
                    f"automatic score {auto:.2f}/4 by {gap:.2f} (>= {DISAGREEMENT:g})"
                )
                flag = self._insert_flag(run_id, reason, auto, now)
        return FeedbackResult(
            run_id=run_id,
            verdict=checked,
            note=note,
            auto_score=auto,
            disagreement=round(gap, 6) if gap is not None else None,
            flag=flag,
        )

    # ----------------------------------------------------------------------- reading

    def auto_score(self, run_id: str) -> float | None:
        """The run's review score, or None (not judged, or an abstention)."""
        row = self._db.execute(
            "SELECT review_score FROM run_scores WHERE run_id = ?", (run_id,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def flags(self, run_id: str | None = None) -> list[Flag]:
        """The queue, oldest first (one run's flags when ``run_id`` is given)."""
        query = "SELECT run_id, reason, score, time FROM flagged_responses"
        args: Sequence[str] = ()
        if run_id is not None:
            query += " WHERE run_id = ?"
            args = (run_id,)
        rows = self._db.execute(query + " ORDER BY id", args).fetchall()
        return [Flag(run_id=r[0], reason=r[1], score=r[2], time=r[3]) for r in rows]

    def feedback(self, run_id: str | None = None) -> list[FeedbackResult]:
        """Recorded verdicts, oldest first, with their comparison (``flag`` is not repeated)."""
        query = "SELECT run_id, verdict, note, auto_score FROM feedback"
        args: Sequence[str] = ()
        if run_id is not None:
            query += " WHERE run_id = ?"
            args = (run_id,)
        out: list[FeedbackResult] = []
        for rid, verdict, note, auto in self._db.execute(query + " ORDER BY id", args):
            gap = abs(FEEDBACK_SCALE[verdict] - auto) if auto is not None else None
            out.append(
                FeedbackResult(
                    run_id=rid,
                    verdict="up" if verdict == "up" else "down",
                    note=note,
                    auto_score=auto,
                    disagreement=gap,
                    flag=None,
                )
            )
        return out

    # ----------------------------------------------------------------------- helpers

    def _insert_flag(self, run_id: str, reason: str, score: float | None, now: str) -> Flag:
        self._db.execute(
            "INSERT INTO flagged_responses (run_id, reason, score, time) VALUES (?, ?, ?, ?)",
            (run_id, reason, score, now),
        )
        return Flag(run_id=run_id, reason=reason, score=score, time=now)

    def _now(self) -> str:
        return self._clock().astimezone(dt.UTC).isoformat(timespec="seconds")

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; sqlite errors: StoreError."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: {exc}") from exc


def _check_run_id(run_id: str) -> None:
    if not run_id.strip():
        raise UsageError("run_id must be non-empty")
