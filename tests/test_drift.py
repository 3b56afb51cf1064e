"""Drift: a recorded answer's citations re-resolved against the store as it is now."""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

import pytest
from conftest import EXAMPLE_CORPUS, example_item

from evidencegate.audit.drift import DriftStatus, citation_drift
from evidencegate.audit.replay import EXIT_DIVERGED, EXIT_DRIFT, EXIT_TAMPERED, replay_trace
from evidencegate.cli.audit import add_replay_arguments, run_replay
from evidencegate.contracts import GatedAnswer, Outcome
from evidencegate.corpus import Store
from evidencegate.gate import EvidenceGate

CORPUS = EXAMPLE_CORPUS / "corpus"
GIFTS_2024 = CORPUS / "HSB-POL-007_2024.1.md"
CASH_RULE = "cash, cash equivalents, gift cards, securities or loans"
EDITED_RULE = "cash, gift cards, securities, loans or cash equivalents"


# ex-008: as of 2024-06-01 the cash-gift rule comes from HSB-POL-007@2024.1 (from 2024-03-01).
ITEM = example_item("ex-008")
AS_OF = dt.date.fromisoformat(ITEM["as_of"])


def gifts_version(tmp_path: Path, version: str, effective_from: str, *, text: str = "") -> Path:
    """A copy of HSB-POL-007@2024.1 as another version, effective from ``effective_from``."""
    source = GIFTS_2024.read_text(encoding="utf-8")
    source = source.replace('version: "2024.1"', f'version: "{version}"')
    source = source.replace("version_date: 2024-03-01", f"version_date: {effective_from}")
    source = source.replace("effective_from: 2024-03-01", f"effective_from: {effective_from}")
    if text:
        source = source.replace(CASH_RULE, text)
    path = tmp_path / f"HSB-POL-007_{version}.md"
    path.write_text(source, encoding="utf-8")
    return path


def make_store(directory: Path, *extra: Path, without: str = "") -> Store:
    store = Store.open(directory)
    sources = [p for p in sorted(CORPUS.glob("*.md")) if not without or without not in p.name]
    store.ingest([*sources, *extra])
    return store


def ask(store: Store, trace: Path) -> GatedAnswer:
    answer = EvidenceGate(store).ask(ITEM["question"], as_of=AS_OF, trace_out=trace)
    assert answer.outcome is Outcome.ANSWERED
    assert {c.version for claim in answer.claims for c in claim.citations} == {"2024.1"}
    return answer


def cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="evidencegate replay")
    add_replay_arguments(parser)
    return run_replay(parser.parse_args(list(argv)))


class TestCitationDrift:
    def test_unchanged_store_reports_unchanged(self, tmp_path: Path) -> None:
        """Right after the run every citation is unchanged and no later version exists."""
        with make_store(tmp_path / "store") as store:
            answer = ask(store, tmp_path / "run.jsonl")
            drift = citation_drift(answer, store)
        assert drift and {d.status for d in drift} == {DriftStatus.UNCHANGED}
        assert all(not d.later_versions for d in drift)

    def test_backdated_version_supersedes_the_citation(self, tmp_path: Path) -> None:
        """A newer version in force on the as-of date makes the citation superseded."""
        with make_store(tmp_path / "store") as store:
            answer = ask(store, tmp_path / "run.jsonl")
            store.ingest([gifts_version(tmp_path, "2024.2", "2024-05-01")])
            drift = citation_drift(answer, store)
        assert {d.status for d in drift} == {DriftStatus.SUPERSEDED}
        first = drift[0]
        assert first.superseded_by == "2024.2"
        assert first.superseded_from == dt.date(2024, 5, 1)
        assert first.successor_version_date == dt.date(2024, 5, 1)
        assert "superseded on 2024-06-01 by version 2024.2" in first.detail

    def test_version_after_the_as_of_date_is_listed_not_drift(self, tmp_path: Path) -> None:
        """A version coming into force after the as-of date leaves the citation unchanged."""
        with make_store(tmp_path / "store") as store:
            answer = ask(store, tmp_path / "run.jsonl")
            store.ingest([gifts_version(tmp_path, "2025.1", "2025-01-01")])
            drift = citation_drift(answer, store)
        assert {d.status for d in drift} == {DriftStatus.UNCHANGED}
        assert [v.version for v in drift[0].later_versions] == ["2025.1"]

    def test_document_missing_from_another_store(self, tmp_path: Path) -> None:
        """Checked against a store without the cited version, the citation is missing."""
        with make_store(tmp_path / "store") as store:
            answer = ask(store, tmp_path / "run.jsonl")
        with make_store(tmp_path / "other", without="HSB-POL-007_2024.1") as other:
            drift = citation_drift(answer, other)
        assert {d.status for d in drift} == {DriftStatus.DOCUMENT_MISSING}
        assert "stored versions: 2022.1" in drift[0].detail

    def test_changed_text_under_the_same_version(self, tmp_path: Path) -> None:
        """A store rebuilt with other text for the cited version reports text_changed."""
        with make_store(tmp_path / "store") as store:
            answer = ask(store, tmp_path / "run.jsonl")
        edited = tmp_path / "edited" / "HSB-POL-007_2024.1.md"
        edited.parent.mkdir()
        edited.write_text(
            GIFTS_2024.read_text(encoding="utf-8").replace(CASH_RULE, EDITED_RULE),
            encoding="utf-8",
        )
        with make_store(tmp_path / "other", edited, without="HSB-POL-007_2024.1") as other:
            drift = citation_drift(answer, other)
        assert {d.status for d in drift} == {DriftStatus.TEXT_CHANGED}
        assert "no longer on HSB-POL-007@2024.1" in drift[0].detail


class TestReplayDrift:
    def test_drift_alone_exits_4(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """After a backdated version is ingested, replay is identical but exits 4 (drift)."""
        trace = tmp_path / "run.jsonl"
        with make_store(tmp_path / "store") as store:
            ask(store, trace)
            store.ingest([gifts_version(tmp_path, "2024.2", "2024-05-01")])
            result = replay_trace(trace, store)
        assert result.divergence is None
        assert [d.status for d in result.drift] == [DriftStatus.SUPERSEDED]
        assert result.exit_code == EXIT_DRIFT
        assert cli(str(trace), "--store", str(tmp_path / "store")) == EXIT_DRIFT
        assert "superseded" in capsys.readouterr().out

    def test_tampering_and_drift_have_different_exit_codes(self, tmp_path: Path) -> None:
        """The same drifted store: an intact trace exits 4, a tampered copy exits 1."""
        trace = tmp_path / "run.jsonl"
        with make_store(tmp_path / "store") as store:
            ask(store, trace)
            store.ingest([gifts_version(tmp_path, "2024.2", "2024-05-01")])
        tampered = tmp_path / "tampered.jsonl"
        tampered.write_bytes(trace.read_bytes().replace(b'"pass_no":1', b'"pass_no":2', 1))
        drift_code = cli(str(trace), "--store", str(tmp_path / "store"))
        tamper_code = cli(str(tampered), "--store", str(tmp_path / "store"))
        assert (drift_code, tamper_code) == (EXIT_DRIFT, EXIT_TAMPERED)

    def test_changed_evidence_is_reported_and_diverges(self, tmp_path: Path) -> None:
        """Replayed over a store whose cited text changed, the passage change is listed."""
        trace = tmp_path / "run.jsonl"
        with make_store(tmp_path / "store") as store:
            ask(store, trace)
        edited = gifts_version(tmp_path, "2024.1", "2024-03-01", text=EDITED_RULE)
        with make_store(tmp_path / "other", edited, without="HSB-POL-007_2024.1") as other:
            result = replay_trace(trace, other)
        assert any(c.status is DriftStatus.TEXT_CHANGED for c in result.evidence)
        assert result.divergence is not None
        assert result.exit_code == EXIT_DIVERGED
