"""Financial questions asked the way new askers type them: tickers' year-ends ("YE2022"),
acronyms written with "&" (R&D), a preamble before the ask, a ratio or a share of two rows,
a row of another kind of the asked figure, a sentence stating only a change.

The filing is made up (a small tool maker with a December fiscal year end).
"""

from __future__ import annotations

from evidencegate.analysis import has_figure, normalise_question, profile_question
from evidencegate.contracts import Operation
from evidencegate.generation.derive import derivation_request
from evidencegate.verify.derived import derivation_evidence
from evidencegate.verify.edits import EvidenceText, find_edits
from tests.filing_support import AS_OF
from tests.filing_support import draft as _draft
from tests.filing_support import filing as _corpus

BALANCE = (
    "Northwind Tools Inc.\nConsolidated Balance Sheet\nAt December 31\n"
    "(Dollars in millions) 2022 2021\nAssets\nCurrent assets\n"
    "Cash and cash equivalents $ 96 $ 88\n"
    "Other current assets 150 140\n"
    "Total current assets 2,530 2,410\n"
    "Total assets $ 7,845 $ 7,500\n"
    "Liabilities\nOther current liabilities 410 380\n"
    "Total current liabilities 1,250 1,205\n"
)
INCOME = (
    "Northwind Tools Inc.\nConsolidated Statement of Income\nYears ended December 31\n"
    "(Dollars in millions) 2022 2021 2020\n"
    "Net sales 9,120 8,870 8,410\n"
    "Cost of sales (7,010) (6,900) (6,500)\n"
    "Gross profit 2,110 1,970 1,910\n"
    "Research, development and related expenses 412 398 371\n"
    "Operating income 905 880 842\n"
)
MARGINS = (
    "Results of Operations\nYears ended December 31\n(Percent of net sales) 2022 2021\n"
    "Operating margin 9.9 % 9.9 %\n"
)
SEGMENTS = (
    "Summary of Business Segment Data\n(Dollars in millions)\nYears ended December 31, 2022 2021\n"
    "Revenues:\nPower Tools $5,120 $4,870\nGarden, Lawn & Patio 4,000 4,000\n"
    "Total revenues $9,120 $8,870\n"
)
CASH_FLOWS = (
    "Consolidated Statement of Cash Flows\n(Dollars in millions) 2022 2021\n"
    "Cash flows from investing activities:\n"
    "Purchase of property, plant, and equipment, and other intangible assets (526) (527)\n"
    "Cash and cash equivalents at end of year $ 96 $ 88\n"
)
OUTLOOK = (
    "Share Repurchases\nThe Company expects share repurchases of approximately $900 million.\n"
    "Share repurchases were $640 million.\n"
)
TAX = (
    "Income Taxes\nThe 2022 effective tax rate increased 3.1% as compared to the 2021 rate.\n"
    "(Dollars in millions) 2022 2021\nEffective Rate 18.2 % 15.1 %\n"
)


class TestReading:
    def test_a_cell_with_its_tables_unit_is_an_amount(self) -> None:
        assert has_figure("Capital spending, 2022: (526) ($ in millions)", "quantity", "amount")
        assert not has_figure("Capital spending 2022 ($ in millions)", "quantity", "amount")

    def test_a_year_end_and_an_ampersand_acronym_are_no_names(self) -> None:
        profile = profile_question("Northwind R&D expense YE2022?", as_of=AS_OF)
        assert profile.names == ("Northwind",)
        assert profile.years == ("2022",)
        assert "research" in profile.measure
        assert normalise_question("PP&E at FYE 2021") == (
            "property plant and equipment at fiscal year-end 2021"
        )

    def test_a_preamble_says_who_asks_not_what_is_measured(self) -> None:
        question = "I'm a student looking at Northwind: how much did it spend on freight in 2022?"
        profile = profile_question(question, as_of=AS_OF)
        assert "student" not in profile.measure and "freight" in profile.measure

    def test_a_listed_name_and_a_company_name_are_no_lists(self) -> None:
        one = "What did Johnson & Johnson carry as long-term debt on its balance sheet in 2022?"
        assert profile_question(one, as_of=AS_OF).items == ()
        ppe = "How much cash went to buying property, plant and equipment in 2022?"
        assert profile_question(ppe, as_of=AS_OF).items == ()
        listed = "What were 2022 operating profit, depreciation and amortization, and capex?"
        assert len(profile_question(listed, as_of=AS_OF).items) == 3

    def test_the_two_figures_of_a_proportion(self) -> None:
        share = "What was gross profit as a percentage of net sales in 2022?"
        assert profile_question(share, as_of=AS_OF).operands == (
            ("gross", "profit"),
            ("net", "sale"),
        )
        ratio = "What is the current ratio (total current assets to total current liabilities)?"
        request = derivation_request(ratio, profile_question(ratio, as_of=AS_OF))
        assert request is not None and request.operation is Operation.RATIO
        assert request.subjects == ("total asset", "total liability")

    def test_a_year_naming_the_filing_is_not_asked_of_the_answer(self) -> None:
        profile = profile_question("How many plants does it run, per the FY2022 10-K?", as_of=AS_OF)
        assert profile.as_of_years == ("2022",)
        asked = profile_question("What were 2022 net sales per the 2022 10-K?", as_of=AS_OF)
        assert asked.as_of_years == ()


class TestAnswers:
    def test_a_ratio_of_the_total_rows(self) -> None:
        """ "Current assets" is "Total current assets", not "Other current assets" (a stop
        word, "current", tells them apart no more than it does "Total assets")."""
        corpus = _corpus(BALANCE)
        question = "What was Northwind's ratio of current assets to current liabilities at YE2022?"
        claims = _draft(corpus, question)
        assert claims and claims[0].derivation is not None
        assert "Total current assets" in claims[0].text and "ratio 2.02" in claims[0].text

    def test_a_percent_change_keeps_the_headers_year_a_date(self) -> None:
        # The header's last year is the one the percent-change evidence follows.
        corpus = _corpus("(Dollars in millions) 2022 2021\nNet sales 9,120 8,870\n")
        claims = _draft(corpus, "By what percentage did Northwind's net sales grow in 2022?")
        claim = claims[0]
        assert claim.derivation is not None and claim.derivation.operation.value == "percent_change"
        quotes = "\n".join(c.quote for c in claim.citations) + derivation_evidence(claim)
        assert not find_edits(claim.text, EvidenceText(quotes))

    def test_a_row_of_another_kind_is_no_answer(self) -> None:
        """ "Gross margin" is not answered by the operating margin row."""
        claims = _draft(_corpus(MARGINS, INCOME), "Northwind gross margin 2022?")
        assert all("Operating margin" not in c.text for c in claims)

    def test_the_rate_not_its_change(self) -> None:
        claims = _draft(_corpus(TAX), "What was Northwind's effective tax rate in 2022?")
        assert claims and "18.2" in claims[0].text

    def test_a_segments_share_of_the_total(self) -> None:
        """The segment the question names is a row: its share of total revenues."""
        question = (
            "What percentage of Northwind's total revenues in 2022 came from the Garden, "
            "Lawn & Patio segment?"
        )
        claims = _draft(_corpus(SEGMENTS), question)
        assert claims and claims[0].derivation is not None
        assert "Garden, Lawn & Patio 4,000" in claims[0].text and "43.9%" in claims[0].text

    def test_a_purchase_row_asked_as_buying(self) -> None:
        question = "How much cash did Northwind spend buying property, plant and equipment in 2022?"
        claims = _draft(_corpus(CASH_FLOWS), question)
        assert claims and "(526)" in claims[0].text

    def test_the_reported_figure_not_the_outlook(self) -> None:
        claims = _draft(_corpus(OUTLOOK), "How much did Northwind spend on share repurchases?")
        assert claims and "$640 million" in claims[0].text
