"""The offline gate over the authored example golden set."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_CORPUS

from evidencegate import EvidenceGate, IngestOptions, Outcome, Store
from evidencegate.trace.chain import verify_trace

ITEMS = [
    json.loads(line)
    for line in (EXAMPLE_CORPUS / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EvidenceGate]:
    store = Store.open(tmp_path_factory.mktemp("example") / "store")
    store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")), IngestOptions())
    yield EvidenceGate(store)
    store.close()


def sources(entries: list[dict[str, Any]]) -> set[str]:
    return {f"{e['doc_id']}@{e.get('version')}" for e in entries}


KNOWN_GAPS = {
    # Measured gaps of the offline default (issue 10 closing note), kept visible: each must keep
    # failing until the engine is fixed, and then this entry is removed (strict xfail).
    "ex-015": "answers the retention half of a two-part question without the final-response one",
    "ex-025": "answers an unanswerable waiting-period question with the Restricted List rule",
}


def _param(item: dict[str, Any]) -> Any:
    gap = KNOWN_GAPS.get(item["id"])
    marks = [pytest.mark.xfail(strict=True, reason=gap)] if gap else []
    return pytest.param(item, id=item["id"], marks=marks)


@pytest.mark.parametrize("item", [_param(i) for i in ITEMS])
class TestExampleGoldenSet:
    def test_item(self, gate: EvidenceGate, tmp_path: Path, item: dict[str, Any]) -> None:
        """Answers cite the required versions and no forbidden source; unanswerables abstain."""
        trace = tmp_path / "t.jsonl"
        answer = gate.ask(
            item["question"], as_of=dt.date.fromisoformat(item["as_of"]), trace_out=trace
        )
        assert verify_trace(trace).ok
        cited = {f"{c.doc_id}@{c.version}" for claim in answer.claims for c in claim.citations}
        assert not cited & sources(item["forbidden_sources"]), "a forbidden source was emitted"
        if item["category"] == "unanswerable":
            assert answer.outcome is Outcome.ABSTAINED
        elif item["category"] == "multi_hop":
            # The extractive default may abstain on multi-hop questions; it must never guess:
            # an answer cites every required source.
            assert answer.outcome in {Outcome.ANSWERED, Outcome.ABSTAINED}
            if answer.outcome is Outcome.ANSWERED:
                assert sources(item["required_evidence"]) <= cited
        else:
            assert answer.outcome is Outcome.ANSWERED, answer.gaps
            assert sources(item["required_evidence"]) <= cited
            quotes = [c.quote for claim in answer.claims for c in claim.citations]
            for evidence in item["required_evidence"]:
                assert any(evidence["quote"] in q or q in evidence["quote"] for q in quotes), (
                    f"required quote not cited: {evidence['quote']!r}"
                )
