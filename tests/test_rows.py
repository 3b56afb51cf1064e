"""Table rows in a passage that name a question's measure (retrieval's row bonus)."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import profile_question
from evidencegate.corpus.rows import (
    asked_whole,
    measure_row_fit,
    measure_terms,
    proportion_fit,
    proportion_words,
    row_labels,
    statement_row_fit,
    states_measure_row,
    unplaced,
)
from evidencegate.text import terms

BALANCE = (
    "Consolidated Balance Sheet\n(in millions)\n2024 2023\n"
    "Cash and cash equivalents $ 96 $ 88\n"
    "Inventories 5,222 4,347\n"
    "Retained earnings 67,800 65,165\n"
)


def _measure(question: str) -> list[str]:
    return measure_terms(profile_question(question, as_of=dt.date(2025, 6, 30)).measure)


def test_rows_are_labels_with_two_figures() -> None:
    """A line of a label and two figures is a row; prose ending in one figure is not."""
    text = BALANCE + "Net sales grew by 4% to $ 9,120\n"
    assert row_labels(text) == (
        tuple(terms("Cash and cash equivalents")),
        tuple(terms("Inventories")),
        tuple(terms("Retained earnings")),
    )


def test_asking_and_place_words_are_no_measure() -> None:
    """ "How much cash did it hold", "inventory balance at year-end": cash, inventory."""
    assert _measure("How much cash did Northwind hold at the end of 2024?") == ["cash"]
    assert _measure("What was Northwind's inventory balance at year-end 2024?") == ["inventory"]


def test_a_row_states_the_measure_in_its_own_words_or_a_synonym() -> None:
    assert states_measure_row(BALANCE, ["cash"])
    assert states_measure_row(BALANCE, ["inventory"])
    assert not states_measure_row(BALANCE, ["capital", "expenditure"])
    assert not states_measure_row("Cash is held in banks.\n", ["cash"])
    assert not states_measure_row(BALANCE, [])


def test_a_row_saying_less_besides_fits_better() -> None:
    """'Goodwill' states goodwill and nothing else; 'Goodwill impairment charges' more."""
    exact = "Goodwill 12,790 13,486\n"
    wider = "Goodwill impairment charges 1,200 0\n"
    assert measure_row_fit(exact, ["goodwill"]) == 1.0
    assert 0 < measure_row_fit(wider, ["goodwill"]) < 1.0
    assert measure_row_fit("Goodwill is tested yearly.\n", ["goodwill"]) == 0.0


def test_the_whole_a_share_is_asked_of() -> None:
    """ "What share of X's 2024 revenues came from ...": a share of revenues; past the name and
    the year, up to the verb."""
    assert asked_whole("What share of Northwind's 2024 revenues came from Europe?") == ("revenue",)
    assert asked_whole("What % of its FY2024 net sales was earned abroad?") == ("net", "sale")
    assert asked_whole("How big a part of total sales did Tools account for?") == ("sale",)
    assert asked_whole("What part of the rule applies?") == ()
    assert asked_whole("How much cash did Northwind hold?") == ()
    assert proportion_words("What share of Northwind's revenues came from Europe?") == {"share"}
    assert proportion_words("How many shares did Northwind buy back?") == frozenset()


def test_a_sentence_states_a_share_of_the_asked_whole_or_of_another() -> None:
    """ "41% of our revenues" states a share of revenues (and of sales, a synonym); "4% of
    operating assets" a share of something else; a sentence with no share says nothing."""
    revenues = ("revenue",)
    assert proportion_fit("Non-U.S. customers accounted for 41% of our revenues.", revenues) == 1
    assert (
        proportion_fit("Tools accounted for 24 percent of consolidated net sales.", revenues) == 1
    )
    assert proportion_fit("Approximately 4% of operating assets were abroad.", revenues) == -1
    assert proportion_fit("Revenues grew in 2024.", revenues) == 0
    assert proportion_fit("Non-U.S. customers accounted for 41% of our revenues.", ()) == 0


TITLE = "Northwind Tools Inc. Form 10-K for the fiscal year ended June 30, 2024"
INCOME = (
    "Northwind Tools Inc.\nConsolidated Statements of Income\n(Dollars in millions)\n"
    "Fiscal years ended June 30, 2024 2023\nNet sales 9,120 8,870\n"
    "Net income attributable to Northwind 610 575\n"
)
SEGMENTS = "Segment information\n(Dollars in millions) 2024 2023\nNet sales 4,100 3,900\n"


def test_the_document_title_names_the_filer_not_the_row() -> None:
    """A terse question's filer in lower case ("northwind fy24 net sales") is a word of the
    document's title: the row fits on the rest of the measure."""
    measure = _measure("northwind fy24 net sales")
    assert "northwind" in measure
    assert unplaced(measure, TITLE) == ["net", "sale"]
    assert measure_row_fit(INCOME, unplaced(measure, TITLE)) > measure_row_fit(INCOME, measure)
    assert unplaced(["cash"], "cash") == ["cash"]  # nothing left: the measure as asked


def test_the_primary_statement_states_the_whole_measure() -> None:
    """The consolidated statement with a row of the whole measure; not a segment's table with
    the same row, nor a statement whose row states only part of it ("held for sale, net")."""
    measure = _measure("northwind fy24 net sales")
    assert statement_row_fit(INCOME, measure, TITLE)
    assert not statement_row_fit(SEGMENTS, measure, TITLE)
    held = "Consolidated Balance Sheets\n2024 2023\nAssets held for sale, net 40 30\n"
    assert not statement_row_fit(held, measure, TITLE)
    attributable = _measure("northwind 2024 net income attributable")
    assert statement_row_fit(INCOME, attributable, TITLE)
