"""The ask path's shortcuts give what the long way gives: the trace recorder's read-back check,
the store's validated search results and counts kept per generation."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import ABSTAINED_ANSWER

from evidencegate import IngestOptions, Store
from evidencegate.contracts import Passage
from evidencegate.exceptions import TraceFormatError
from evidencegate.trace.chain import decode_line, encode_checked_line, encode_line
from evidencegate.trace.events import RunEndEvent, RunStartEvent, TraceEvent

TS = "2024-05-01T12:00:00.000000+00:00"
PREV = "ab" * 32


ANSWER = ABSTAINED_ANSWER


def start(policy: dict[str, object]) -> RunStartEvent:
    return RunStartEvent(
        question="What is the gift limit?",
        as_of=dt.date(2024, 2, 29),
        policy=policy,
        policy_sha256="12" * 32,
        components={"generator": "extractive@0.1.0"},
        evidencegate_version="0.1.0",
    )


@pytest.mark.parametrize(
    "event",
    [
        start({"max_passes": 2, "min_score": 0.5, "names": ["a", "é"], "deep": {"x": None}}),
        # Read back otherwise typed: 1.0 is written "1" and parses as an integer, so the short
        # way cannot vouch for the line and decode_line decides (it holds).
        start({"limit": 1.0, "flag": True, "n": -0.0}),
        RunEndEvent(answer=ANSWER, elapsed_ms=12.5),
    ],
)
def test_checked_line_is_decode_line_of_encode_line(event: TraceEvent) -> None:
    data, line = encode_checked_line(3, TS, "run-1", PREV, event)
    assert data == encode_line(3, TS, "run-1", PREV, event)[0]
    assert line == decode_line(data)
    assert line.model_dump(mode="json") == decode_line(data).model_dump(mode="json")


@pytest.mark.parametrize(
    "event",
    [
        # 1e20 is written as the integer it equals, which has no canonical form: refused.
        start({"big": 1e20}),
        # A value of another type than its field's (built without validation).
        RunEndEvent.model_construct(answer=ANSWER, elapsed_ms=True, score=None),
    ],
)
def test_checked_line_refuses_what_decode_line_refuses(event: TraceEvent) -> None:
    data, _ = encode_line(0, TS, "run-1", PREV, event)
    try:
        expected: object = decode_line(data)
    except TraceFormatError as exc:
        expected = str(exc)
    try:
        got: object = encode_checked_line(0, TS, "run-1", PREV, event)[1]
    except TraceFormatError as exc:
        got = str(exc)
    assert got == expected


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


POLICY_V1 = """---
doc_id: gifts
version: "1"
title: Gifts policy
authority: primary
effective_from: 2023-01-01
---
# Gifts

Employees may accept gifts worth up to 50 EUR per giver per year.

# Register

Every gift offered must be recorded in the register within five business days.
"""

POLICY_V2 = (
    POLICY_V1.replace('version: "1"', 'version: "2"')
    .replace("2023-01-01", "2024-01-01")
    .replace("50 EUR", "100 EUR")
)


def test_search_results_are_validated_passages_with_this_search_s_score(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    with Store.open(tmp_path / "store") as store:
        store.ingest([_write(source, "v1.md", POLICY_V1)], IngestOptions())
        assert store.stats()["versions"] == 1
        day = dt.date(2024, 6, 1)
        first = store.search("gift limit per giver", as_of=day)
        again = store.search("gifts recorded register", as_of=day)
        for hits in (first, again):
            assert hits
            for hit in hits:
                fresh = Passage.model_validate(dict(hit))  # every field given, as the store does
                assert hit == fresh
                assert hit.model_fields_set == fresh.model_fields_set
        shared = {p.passage_id for p in first} & {p.passage_id for p in again}
        assert shared
        for pid in shared:  # the same passage: each result has its own flags list
            a = next(p for p in first if p.passage_id == pid)
            b = next(p for p in again if p.passage_id == pid)
            a.flags.append("changed by a caller")
            assert b.flags == []
        repeated = store.search("gift limit per giver", as_of=day)
        assert [p.passage_id for p in repeated] == [p.passage_id for p in first]
        assert all(p.flags == [] for p in repeated)
        # A new version (a new generation): counted, and its passages found, not the old ones.
        store.ingest([_write(source, "v2.md", POLICY_V2)], IngestOptions())
        assert store.stats()["versions"] == 2
        assert store.stats()["passages"] > 0
        later = store.search("gift limit per giver", as_of=day)
        assert any("100 EUR" in p.text for p in later)
        assert all(p.version == "2" for p in later)
