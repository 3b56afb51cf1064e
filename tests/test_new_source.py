"""What a follow-up must bring for the run to go on (policy ``new_source``), and the replay of
traces recorded before that choice existed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from evidencegate import Store
from evidencegate.audit.replay import replay_trace
from evidencegate.components import build_retriever
from evidencegate.contracts import Outcome, Passage, StopReason
from evidencegate.corpus import IngestOptions
from evidencegate.critique.rules import RulesCritic
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.loop.controller import LoopController
from evidencegate.policy import NewSource, Policy
from evidencegate.protocols import Retriever
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2024, 6, 1)
QUESTION = "What is the most a gift from one giver may be worth in a year?"
HANDBOOK = (
    "---\ndoc_id: HANDBOOK\nversion: '2024'\nversion_date: 2024-01-01\nauthority: primary\n"
    "title: Staff handbook\n---\n"
    "1. Gifts and hospitality. Employees must record every gift they receive in the register.\f"
    "9. Limits. A gift from one giver may be worth at most $100 in a calendar year.\n"
)


class FirstPageFirst:
    """A retriever whose first search finds only page 1 of the handbook: the answer is on
    page 2 of the same document, found by the follow-up."""

    def __init__(self, inner: Retriever) -> None:
        self.inner = inner
        self.calls = 0

    def search(
        self,
        query: str,
        *,
        as_of: dt.date,
        limit: int = 8,
        authorities: Sequence[str] | None = None,
        doc_ids: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> list[Passage]:
        self.calls += 1
        found = self.inner.search(
            query,
            as_of=as_of,
            limit=limit,
            authorities=authorities,
            doc_ids=doc_ids,
            tenant=tenant,
        )
        return [p for p in found if p.page == 1] if self.calls == 1 else found


class RecordedBeforeNewSource(Policy):
    """A policy as recorded before ``new_source`` existed (its dump lacks the field)."""

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        data = super().model_dump(**kwargs)
        data.pop("new_source", None)
        return data


@pytest.fixture
def store(tmp_path: Path) -> Store:
    source = tmp_path / "handbook.md"
    source.write_text(HANDBOOK, encoding="utf-8")
    opened = Store.open(tmp_path / "store")
    opened.ingest([source], IngestOptions(authority="primary"))
    return opened


def _run(store: Store, policy: Policy, trace: TraceRecorder) -> Any:
    controller = LoopController(
        retriever=FirstPageFirst(build_retriever(policy, store)),
        verifier=Verifier.from_policy(store, policy),
        generator=ExtractiveGenerator(pages=store),
        critic=RulesCritic(),
        policy=policy,
    )
    return controller.run(QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id)


class TestNewSource:
    @pytest.mark.parametrize(
        ("rule", "outcome", "stop"),
        [
            ("page", Outcome.ANSWERED, StopReason.CONTRACT_MET),
            ("document", Outcome.ABSTAINED, StopReason.NO_NEW_SOURCE),
        ],
    )
    def test_a_new_page_of_a_document_read_counts(
        self, store: Store, rule: NewSource, outcome: Outcome, stop: StopReason
    ) -> None:
        """With ``page`` the follow-up's new page of a document already read lets the run go
        on and answer; with ``document`` (the default) it ends the run."""
        with store:
            answer = _run(store, Policy(new_source=rule), TraceRecorder())
        assert (answer.outcome, answer.stop_reason) == (outcome, stop)
        assert Policy().new_source == "document"

    def test_a_trace_recorded_before_the_field_replays_identically(
        self, store: Store, tmp_path: Path
    ) -> None:
        """A recording whose policy has no ``new_source`` ran the document rule, and replays
        with it (the default): identical, where the page rule would answer instead."""
        path = tmp_path / "old.jsonl"
        recorder = TraceRecorder(path=path)
        with store:
            try:
                answer = _run(store, RecordedBeforeNewSource(new_source="document"), recorder)
            finally:
                recorder.close()
            assert answer.stop_reason is StopReason.NO_NEW_SOURCE
            result = replay_trace(path, store)
        assert result.divergence is None
        assert result.policy_fields_added == ["new_source"]
