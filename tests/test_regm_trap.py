"""The Regulation M stale-policy trap over the real CFPB corpus (12 CFR 1013)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from evidencegate import EvidenceGate, Outcome, StopReason, Store
from evidencegate.trace.chain import verify_trace

QUESTION = "What is the consumer lease threshold amount?"
ALL_FIGURES = {"$25,000", "$50,000", "$51,800", "$53,000", "$53,500", "$54,600", "$55,800"}


def figures(text: str) -> set[str]:
    return set(re.findall(r"\$\d{2},\d{3}", text))


class TestRegulationMThreshold:
    @pytest.mark.parametrize(
        ("as_of", "figure", "version"),
        [
            (dt.date(2014, 7, 1), "$53,500", "2013-28194"),
            (dt.date(2016, 7, 1), "$54,600", "2015-30071"),
        ],
    )
    def test_as_of_answer_cites_version_in_force(
        self, cfpb_store: Store, tmp_path: Path, as_of: dt.date, figure: str, version: str
    ) -> None:
        """As of a date the answer is that year's figure, cited from the version in force."""
        gate = EvidenceGate(cfpb_store)
        trace = tmp_path / "t.jsonl"
        answer = gate.ask(QUESTION, as_of=as_of, trace_out=trace)
        assert answer.outcome is Outcome.ANSWERED, answer.gaps
        assert figures(answer.answer) == {figure}, "no other year's figure may be emitted"
        for claim in answer.claims:
            for cite in claim.citations:
                assert cite.doc_id == "12 CFR 1013"
                assert cite.version == version
                doc = cfpb_store.document(cite.doc_id, cite.version)
                assert doc is not None and doc.in_force(as_of)
        assert verify_trace(trace).ok

    def test_year_no_version_covers_abstains(self, cfpb_store: Store, tmp_path: Path) -> None:
        """A year that no version of Reg M lists ends abstained, naming the year."""
        gate = EvidenceGate(cfpb_store)
        answer = gate.ask(
            "What is the consumer lease threshold amount for 2031?",
            as_of=dt.date(2024, 1, 1),
            trace_out=tmp_path / "t.jsonl",
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []
        assert not figures(answer.answer) & ALL_FIGURES
        assert any("2031" in gap for gap in answer.gaps)

    def test_before_any_version_abstains(self, cfpb_store: Store, tmp_path: Path) -> None:
        """Before the first version is in force nothing is retrieved, and the run abstains."""
        gate = EvidenceGate(cfpb_store)
        answer = gate.ask(QUESTION, as_of=dt.date(2005, 1, 1), trace_out=tmp_path / "t.jsonl")
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.NO_EVIDENCE
