"""A filing's segments, read from its own pages, tell a segment's figure from the whole's."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import profile_question
from evidencegate.corpus.segments import (
    asks_a_part,
    filing_segments,
    segment_row,
    segments_asked,
    segments_of,
)
from evidencegate.critique.rules import RIVAL, _segment_unasked
from evidencegate.testing import InMemoryCorpus

AS_OF = dt.date(2024, 9, 30)
PAGES = [
    "Our Operations\nWe are organized into three reportable segments (also referred to as "
    "divisions): 1) Northwind Tools North America (NTNA); 2) Garden; and 3) Outdoor.",
    "Flexibles Segment\nThe Flexibles Segment develops and supplies packaging.",
    "Health Care Business (24.6% of consolidated sales):\n2024 2023\nSales $ 8,421 $ 8,597\n",
    "Total Safety and Industrial Business Segment $ 11,607 $ 12,494\n",
    "The Company (NYSE) reported results. Total revenues were $9,120 million.",
]


def test_the_segments_are_the_ones_the_filing_heads() -> None:
    found = filing_segments(PAGES)
    assert set(found) == {"NTNA", "Flexibles", "Health Care", "Safety and Industrial"}
    assert "NYSE" not in found  # an abbreviation outside a sentence on segments


def test_the_segments_are_read_once_per_stored_version() -> None:
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), PAGES)
    assert "NTNA" in segments_of(corpus, "NWT_2024_10K", "FY2024")
    assert segments_of(corpus, "NWT_2024_10K", "FY1999") == ()


def test_a_question_names_a_segment_as_written_or_before_its_kind() -> None:
    segments = ("Health Care", "NTNA", "Flexibles")
    assert segments_asked("NTNA operating profit 2024?", segments) == ("NTNA",)
    assert segments_asked("northwind health care segment sales 2024?", segments) == ("Health Care",)
    assert segments_asked("How did health care costs change in 2024?", segments) == ()
    assert asks_a_part("Northwind segment operating income 2024?", segments)
    assert not asks_a_part("Northwind net sales 2024?", segments)


def test_a_row_is_a_segments_when_its_name_is_the_segment() -> None:
    segments = ("Health Care", "NTNA")
    assert segment_row("Health Care", segments) == "Health Care"
    assert segment_row("Total Health Care Business Group", segments) == "Health Care"
    assert segment_row("NTNA", segments) == "NTNA"
    assert segment_row("Health care costs", segments) == ""
    assert segment_row("Total revenues", segments) == ""


def test_the_critic_refuses_a_segments_figure_for_the_whole() -> None:
    segments = ("Health Care", "NTNA")
    whole = profile_question("What was Northwind's net revenue in 2024?", as_of=AS_OF)
    fact = _segment_unasked(whole, ["NTNA, 2024: 26,213"], segments)
    assert fact is not None and fact.startswith(RIVAL) and "NTNA" in fact
    assert _segment_unasked(whole, ["Table of Contents NTNA Net revenue rose 4%"], segments)
    assert _segment_unasked(whole, ["Net revenue, 2024: 86,392"], segments) is None
    asked = profile_question("What was NTNA's net revenue in 2024?", as_of=AS_OF)
    assert _segment_unasked(asked, ["NTNA, 2024: 26,213"], segments) is None
    # without the filing's segments nothing is refused
    assert _segment_unasked(whole, ["NTNA, 2024: 26,213"], ()) is None


def test_a_segments_row_is_no_answer_for_the_whole() -> None:
    """'Health Care 8,421' under 'Sales by segment' answers the Health Care question, not
    the company's net sales."""
    from evidencegate.contracts import Passage
    from evidencegate.generation.extractive import ExtractiveGenerator

    by_segment = (
        "Summary of segment data\n(Dollars in millions)\nYears ended June 30, 2024 2023\n"
        "Net sales:\nHealth Care $ 8,421 $ 8,597\nNTNA 3,100 2,900\n"
    )
    corpus = InMemoryCorpus()
    corpus.add(
        "NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [*PAGES, by_segment], period="FY2024"
    )

    def draft(question: str) -> str:
        evidence: list[Passage] = corpus.search(question, as_of=AS_OF, limit=8)
        generator = ExtractiveGenerator(pages=corpus)
        return " | ".join(c.text for c in generator.draft(question, evidence, as_of=AS_OF).claims)

    assert "8,421" in draft("Northwind Health Care net sales 2024?")
    assert "8,421" not in draft("Northwind net sales 2024?")
