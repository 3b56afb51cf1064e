"""Drafting from a filing what a question asks besides a figure: why a figure moved (the
sentence stating a cause), the event of a date it names, an amount asked beside that event
(the sentence right after it), the rows asked when the question also says what the asker will
do with them, and a stated property read past "according to ...".

The filing is made up (a small tool maker with a December fiscal year end).
"""

from __future__ import annotations

import pytest

from evidencegate.analysis import profile_question
from evidencegate.generation.extractive import (
    _CAUSE_STATED,
    ExtractiveGenerator,
    _calendar_dates,
    _purpose_words,
    _states_date,
    asks_explanation,
)
from tests.filing_support import AS_OF
from tests.filing_support import draft as _draft
from tests.filing_support import filing as _corpus

COSTS = (
    "Cost of Sales\n"
    "(Percent of net sales) 2022 2021\n"
    "Cost of sales 76.9 % 75.2 %\n"
    "Cost of sales as a percent of sales was 76.9% in 2022 compared with 75.2% in 2021.\n"
    "Cost of sales as a percent of sales increased in 2022, driven by higher freight costs and "
    "raw material inflation.\n"
    "Selling expenses as a percent of sales were flat in 2022.\n"
)
ACQUISITIONS = (
    "Note 5 - Acquisitions\n"
    "On March 17, 2022, the Company completed the acquisition of a packaging site in Shanghai, "
    "China. The purchase consideration of $60 million is subject to customary adjustments. "
    "On May 31, 2022, the Company completed the acquisition of a New Zealand maker of "
    "automated packaging machines. The purchase consideration of $45 million is subject to "
    "customary adjustments. The Company aims to complete the purchase price allocation of "
    "each acquisition within one year of the acquisition date.\n"
)
BALANCE = (
    "Northwind Tools Inc.\nConsolidated Balance Sheet\nAt December 31\n"
    "(Dollars in millions) 2022 2021\nAssets\nCurrent assets\n"
    "Cash and cash equivalents $ 96 $ 88\n"
    "Inventories 1,320 1,150\n"
    "Total current assets 2,530 2,410\n"
)
INCOME = (
    "Northwind Tools Inc.\nConsolidated Statement of Income\nYears ended December 31\n"
    "(Dollars in millions) 2022 2021 2020\n"
    "Net sales 9,120 8,870 8,410\n"
    "Cost of sales (7,010) (6,900) (6,500)\n"
    "Gross profit 2,110 1,970 1,910\n"
)
MARKET = (
    "Market Conditions\n"
    "According to the Tool Dealers Association, industry sales of tools fell 5% in 2022.\n"
    "Historically, the tool industry has been cyclical and competitive.\n"
)


class TestReading:
    def test_calendar_dates_to_the_day_or_month(self) -> None:
        assert _calendar_dates("On May 31, 2023, the Company") == {
            (
                2023,
                5,
                31,
            )
        }
        assert _calendar_dates("bought on 31 May 2023 and in October 2019") == {
            (2023, 5, 31),
            (2019, 10, None),
        }
        assert _calendar_dates("in fiscal 2022") == frozenset()

    def test_a_date_is_stated_by_its_day_or_its_month(self) -> None:
        asked = _calendar_dates("acquire in October 2019")
        assert _states_date(asked, "In October 2019, 3M completed the acquisition")
        assert _states_date(asked, "acquired on October 10, 2019")
        assert not _states_date(asked, "as of December 31, 2019")
        day = _calendar_dates("on May 31, 2023")
        assert not _states_date(day, "On March 17, 2023, the Company completed")

    @pytest.mark.parametrize(
        "question",
        [
            "Why did cost of sales rise as a share of sales in 2022?",
            "What drove the increase in cost of products sold in 2022?",
            "For our review: reasons SG&A came down in 2019?",
            "Explain why gross profit as a percentage of sales fell in fiscal 2022.",
            "what made cost of sales climb as a percent of sales in 2019?",
        ],
    )
    def test_explanation_questions(self, question: str) -> None:
        assert asks_explanation(question, profile_question(question, as_of=AS_OF))

    @pytest.mark.parametrize(
        "question",
        ["What was cost of sales in 2022?", "How much did the company make in 2022?"],
    )
    def test_figure_questions_ask_no_explanation(self, question: str) -> None:
        assert not asks_explanation(question, profile_question(question, as_of=AS_OF))

    def test_a_cause_is_stated(self) -> None:
        assert _CAUSE_STATED.search("increased, driven by higher freight costs")
        assert _CAUSE_STATED.search("Increases primarily related to lower sales volume")
        assert _CAUSE_STATED.search("decreased primarily due to currency")
        assert not _CAUSE_STATED.search("Cost of sales was 76.9% in 2022.")

    def test_the_purpose_of_the_figures_is_not_asked(self) -> None:
        words = _purpose_words(
            "For an inventory turnover calculation, give me the 2022 cost of sales and "
            "its closing 2022 inventories."
        )
        assert words == {"turnover", "calculation"}  # "inventories" is asked as well
        assert _purpose_words("Cash and total current assets in 2023 for a quick ratio.") == {
            "quick",
            "ratio",
        }
        assert _purpose_words("What was the current ratio in 2022?") == frozenset()


class TestDrafting:
    def test_why_a_figure_moved_is_answered_by_its_cause(self) -> None:
        claims = _draft(
            _corpus(COSTS), "Why did Northwind's cost of sales rise as a percent of sales in 2022?"
        )
        assert claims
        assert "driven by higher freight" in claims[0].text
        assert all(c.derivation is None for c in claims)
        assert not any("76.9" in c.text and "driven" not in c.text for c in claims)

    def test_the_event_of_the_named_date_and_its_amount(self) -> None:
        claims = _draft(
            _corpus(ACQUISITIONS),
            "Which company did Northwind acquire on May 31, 2022, and for what purchase "
            "consideration?",
        )
        text = " ".join(c.text for c in claims)
        assert "New Zealand" in text
        assert "$45 million" in text
        assert "$60 million" not in text and "Shanghai" not in text

    def test_an_amount_asked_beside_an_event_of_a_month(self) -> None:
        claims = _draft(
            _corpus(ACQUISITIONS),
            "Which business was taken over by Northwind at the end of May 2022, and what was "
            "the consideration?",
        )
        text = " ".join(c.text for c in claims)
        assert "New Zealand" in text and "$45 million" in text
        assert "$60 million" not in text

    def test_rows_asked_for_a_stated_purpose(self) -> None:
        claims = _draft(
            _corpus(BALANCE, INCOME),
            "For an inventory turnover calculation, give me Northwind's FY2022 cost of sales "
            "and its closing 2022 inventories.",
        )
        text = " ".join(c.text for c in claims)
        assert "7,010" in text and "1,320" in text

    def test_a_property_according_to_the_filing(self) -> None:
        claims = _draft(
            _corpus(MARKET),
            "Is the tool industry cyclical, according to Northwind's FY2022 10-K?",
        )
        assert claims and "cyclical" in claims[0].text

    def test_no_cause_stated_no_draft(self) -> None:
        page = COSTS.replace(", driven by higher freight costs and raw material inflation", "")
        draft = ExtractiveGenerator(pages=(corpus := _corpus(page))).draft(
            (question := "Why did Northwind's cost of sales rise as a percent of sales in 2022?"),
            corpus.search(question, as_of=AS_OF, limit=8),
            as_of=AS_OF,
        )
        assert not draft.claims
        assert draft.declined == "no evidence sentence states why"
