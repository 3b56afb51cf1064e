"""A claim as the rules critic's audit reads it, for the tests of its single checks."""

from __future__ import annotations

from evidencegate.contracts import Passage
from evidencegate.critique.rules import _placed


def claim(text: str) -> str:
    """``text`` as the audit reads a claim: its sentence in its place (label and title)."""
    passage = Passage(
        passage_id="p1",
        doc_id="POL-1",
        version="1",
        page=1,
        char_start=0,
        char_end=len(text),
        text=text,
        label="1.1",
        title="Regulation",
        context="1.1\nRegulation",
    )
    return _placed(passage)
