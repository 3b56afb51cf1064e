"""Financial statements answered as tables: rows, years, parts and units, never a page blob.

The filing below is made up (a small tool maker with a June fiscal year end); the questions
are worded the way an analyst might type them, not the way the statements label their rows.
"""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Claim, Passage
from evidencegate.generation.extractive import ExtractiveGenerator, _tabular
from evidencegate.generation.tables import table_cells
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2024, 9, 30)

RESULTS = (
    "Results of Operations\n"
    "Net income attributable to Northwind increased by $40 million in fiscal 2024, compared to "
    "fiscal 2023, mainly as a result of higher volumes.\n"
    "Condensed Statement of Income for the Guarantor Group\n(in millions)\n"
    "For the year ended June 30, 2024\nNet sales - external $ 410\nCost of sales (300)\n"
    "Gross profit 110\nNet income 35\n"
)
INCOME = (
    "Northwind Tools Inc.\nConsolidated Statements of Income\n(Dollars in millions)\n"
    "Fiscal years ended June 30, 2024 2023 2022\n"
    "Net sales 9,120 8,870 8,410\n"
    "Cost of sales (7,010) (6,900) (6,500)\n"
    "Gross profit 2,110 1,970 1,910\n"
    "Income tax (expense)/benefit (45) 12 (80)\n"
    "Net income 610 575 540\n"
)
BALANCE = (
    "Northwind Tools Inc.\nConsolidated Balance Sheets\n(Dollars in millions)\n"
    "As of June 30, 2024 2023\nAssets\nCurrent assets:\n"
    "Cash and cash equivalents $ 96 $ 88\n"
    "Trade receivables, net 1,204 1,150\n"
    "Total current assets 2,530 2,410\n"
    "Property, plant and equipment, net 3,100 2,950\n"
    "Total assets $ 7,845 $ 7,500\n"
)
GUARANTOR = (
    "Condensed Balance Sheet of the Guarantor Group\n(Dollars in millions)\n"
    "As of June 30, 2024 2023\nAssets\nCurrent assets:\n"
    "Cash and cash equivalents $ 5 $ 4\n"
    "Total current assets 230 210\n"
    "Total assets $ 845 $ 800\n"
)


SEGMENT = (
    "NPS revenues on contracts with customers, by customer, consisted of the following:\n"
    "Years ended June 30, 2024 2023\n"
    "Revenue from government customers 81 % 79 %\n"
    "Revenue recognized over time 97 % 96 %\n"
)


CHARGES = (
    "Note 4 - Restructuring and impairment charges\n(in millions) 2024 2023\n"
    "Severance and other employee costs 35 20\n"
    "Asset impairments — 14\n"
    "Total restructuring and impairment charges $ 35 $ 34\n"
)


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(
        "NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [RESULTS, INCOME, BALANCE, GUARANTOR]
    )
    return corpus


def _draft(corpus: InMemoryCorpus, question: str) -> list[Claim]:
    evidence: list[Passage] = corpus.search(question, as_of=AS_OF, limit=8)
    return ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF).claims


def _verified(corpus: InMemoryCorpus, claim: Claim) -> bool:
    return Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF).ok


class TestRows:
    def test_prose_before_a_number_is_no_row(self) -> None:
        """A sentence the text stream runs into figures is not a row label; the rows are."""
        text = (
            "Fiscal years 2024 2023\n"
            "In fiscal 2023 the Company signed supply agreements. The vendors shipped 1,200 1,100\n"
            "Net sales 9,120 8,870\n"
        )
        labels = {c.label for c in table_cells(text)}
        assert labels == {"Net sales"}

    def test_a_row_read_into_the_next_is_no_label(self) -> None:
        """A row whose figures the stream runs on into the next line's words ("26%") does not
        become a label holding them."""
        text = (
            "Years ended December 31, 2024 2023\n"
            "Revenues $1,761 $1,632\n% of total company revenues 26 % 25 %\nOrders 410 390\n"
        )
        assert all("$1,761" not in c.label for c in table_cells(text))

    def test_a_figure_and_its_share_for_each_year(self) -> None:
        """Columns of a figure and its percent of sales per year: each year's figure is the
        first of its pair, in every row of the table (not only the rows showing '%')."""
        text = (
            "(in millions) 2024 2023\n"
            "Net sales $ 9,120 100.0 % $ 8,870 100.0 %\n"
            "Gross profit 2,110 23.1 1,970 22.2\n"
        )
        cells = {(c.label, c.year): c.value for c in table_cells(text)}
        assert cells[("Gross profit", 2023)] == "1,970"
        assert cells[("Net sales", 2023)] == "8,870"

    def test_years_below_a_title_ending_in_a_figure_are_the_header(self) -> None:
        """A title line ending in a number ("(Note 1)") does not swallow the header's years
        below it as its cells: the years head the table and the rows are read under them."""
        text = (
            "(Dollars in Millions Except Per Share Amounts) (Note 1)\n2024 2023 2022\n"
            "Sales to customers $ 9,120 8,870 8,410\nGross profit 2,110 1,970 1,910\n"
        )
        cells = {(c.label, c.year): c.value for c in table_cells(text)}
        assert cells[("Gross profit", 2023)] == "1,970"
        assert cells[("Sales to customers", 2024)] == "9,120"
        # The header is quoted with the reference before it, long enough to verify.
        cell = table_cells(text)[0]
        assert text[cell.header_start : cell.header_end].startswith("Amounts) (Note 1)")

    def test_a_statement_kept_line_by_line_is_no_sentence(self) -> None:
        """Several lines ending in figures are a table, whatever their punctuation."""
        assert _tabular("Net sales - external $ 410\nCost of sales (300)\nGross profit 110")
        assert not _tabular(
            "Net income increased by $40 million in fiscal 2024,\ncompared to fiscal 2023."
        )


class TestColumnGroups:
    """A row's values are aligned with the header's years by the table's layout, not read off
    in order: a group of columns per year, a figure and its share under one year."""

    def test_a_group_ending_in_its_sum_is_read_at_its_total(self) -> None:
        """'2024 2023' over 'U.S. Intl. Worldwide' twice: the worldwide column (the sum of the
        others on the sales row) is each year's value, on the percent rows too."""
        text = (
            "Net Sales:\n2024 2023\nU.S. Intl. Worldwide U.S. Intl. Worldwide\n"
            "Net sales (millions) $ 12,188 $ 17,921 $ 30,109 $ 12,049 $ 18,225 $ 30,274\n"
            "% of worldwide sales 40.5 % 59.5 % 39.8 % 60.2 %\n"
            "Total sales change 1.2 % (1.7)% (0.5)% 2.9 % (9.4)% (4.9)%\n"
        )
        cells = {(c.name, c.year): c.value for c in table_cells(text)}
        assert cells[("Net sales (millions)", 2024)] == "30,109"
        assert cells[("Net sales (millions)", 2023)] == "30,274"
        assert cells[("Total sales change", 2024)] == "(0.5)%"
        assert cells[("Total sales change", 2023)] == "(4.9)%"
        # Two values a year in a table of three: no group it fits, no cell.
        assert not any(name == "% of worldwide sales" for name, _ in cells)

    def test_a_group_without_a_total_is_read_at_its_first_column(self) -> None:
        """'Carrying Fair' per year: the year's value is the group's first column, never the
        first group's second column read as the next year."""
        text = (
            "(Millions) 2024 2023\nCarrying Value Fair Value Carrying Value Fair Value\n"
            "Long-term debt $ 13,411 $ 13,586 $ 12,096 $ 12,535\n"
        )
        cells = {(c.name, c.year): c.value for c in table_cells(text)}
        assert cells[("Long-term debt", 2024)] == "13,411"
        assert cells[("Long-term debt", 2023)] == "12,096"

    def test_a_figure_and_its_share_under_one_year_are_not_two_years(self) -> None:
        """'$ 11,604 33.9 % $ 1,199 ...' under '2024 2023 % change': no year reads the share;
        each year's figure is its group's first."""
        text = (
            "2024 2023 % change\n(Dollars in millions) Net Sales % of Total Operating Income\n"
            "Safety and Industrial $ 11,604 33.9 % $ 1,199 $ 11,981 33.9 % $ 2,466 (3.2)% (51.4)%\n"
            "Net revenue $ 86,392 $ 79,474 9 %\n"
        )
        cells = {(c.name, c.year): c.value for c in table_cells(text)}
        assert cells[("Safety and Industrial", 2023)] == "11,981"
        assert "33.9%" not in cells.values()
        assert cells[("Net revenue", 2023)] == "79,474"

    def test_columns_before_the_years_are_not_the_years(self) -> None:
        """No column named after the years: the extra values stand before them (a note's
        number closing the label, a rate before the amounts, a 'Total' column)."""
        text = (
            "(in millions) 2024 2023\nOperating lease expense (1) $ 130 $ 113\n"
            "Current portion of long-term debt 1.85 % $ 745 $ 1,102\n"
        )
        cells = {(c.name, c.year): c.value for c in table_cells(text)}
        assert cells[("Operating lease expense", 2024)] == "130"
        assert cells[("Operating lease expense", 2023)] == "113"
        assert cells[("Current portion of long-term debt", 2024)] == "745"

    def test_an_unlabelled_total_row_below_is_no_group(self) -> None:
        """A row's run of figures going on to the next line's unlabelled total row keeps its
        own values in the years' order."""
        text = (
            "2024 2023 2022\nUnited States $ 7,305 $ 3,740 $ 4,070\n"
            "Foreign 3,400 6,081 4,999\n$ 10,705 $ 9,821 $ 9,069\n"
        )
        cells = {(c.name, c.year): c.value for c in table_cells(text)}
        assert cells[("Foreign", 2023)] == "6,081"
        assert cells[("Foreign", 2022)] == "4,999"


class TestStatementAnswers:
    def test_gross_profit_is_the_statement_row_not_a_blob(self, corpus: InMemoryCorpus) -> None:
        """The income statement's row answers, quoted whole and with its unit; neither the
        guarantor block nor the net income sentence is drafted."""
        (claim,) = _draft(corpus, "How much gross profit did Northwind make in fiscal 2024?")
        assert "2,110" in claim.text and "2024" in claim.text
        assert "Guarantor" not in claim.text and "Net income" not in claim.text
        assert claim.citations[0].quote == "Gross profit 2,110 1,970 1,910"
        assert _verified(corpus, claim)

    def test_two_years_asked_one_row_answers_both(self, corpus: InMemoryCorpus) -> None:
        """'this year and last' is one claim stating the row's cell in each year."""
        question = "What income tax expense or benefit did Northwind book in 2024 and in 2023?"
        (claim,) = _draft(corpus, question)
        assert "2024: (45)" in claim.text and "2023: 12" in claim.text
        assert _verified(corpus, claim)

    def test_a_small_figure_states_its_unit(self, corpus: InMemoryCorpus) -> None:
        """'(45)' alone is no amount; with the table's unit quoted beside it, it is one."""
        question = "Northwind income tax expense for fiscal 2024?"
        (claim,) = _draft(corpus, question)
        assert "Dollars in millions" in claim.text
        assert claim.citations[1].quote.startswith("(Dollars in millions) Fiscal years ended")
        assert profile_question(question, as_of=AS_OF).states_figure(claim.text)
        assert _verified(corpus, claim)

    def test_each_named_row_answers_its_part(self, corpus: InMemoryCorpus) -> None:
        """Two rows asked by name: both are drafted, each once, from the consolidated sheet;
        'Total assets' shares words with the question but is not what it asks for."""
        question = (
            "Northwind's cash and cash equivalents and its total current assets, June 30, 2024?"
        )
        claims = _draft(corpus, question)
        texts = [c.text for c in claims]
        assert len(claims) == 2, texts
        assert any("Cash and cash equivalents" in t and "$96" in t for t in texts)
        assert any(t.startswith("Total current assets") and "2,530" in t for t in texts)
        assert all(_verified(corpus, c) for c in claims)

    def test_a_percentage_question_is_no_amount_row(self) -> None:
        """'... in percent' is not answered with a row of amounts (here no row of percents)."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INCOME])
        question = "What percent was Northwind's gross profit in 2024?"
        assert all("2,110" not in c.text for c in _draft(corpus, question))

    def test_a_margin_is_its_profit_as_a_share_of_sales(self) -> None:
        """'gross margin' is gross profit over the top line, computed from both rows; the
        amount row alone does not answer it."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INCOME])
        for question in (
            "What percent was Northwind's gross profit margin in 2024?",
            "Northwind gross margin 2024?",
        ):
            (claim,) = _draft(corpus, question)
            assert "23.1%" in claim.text and "9,120" in claim.text, question
            assert _verified(corpus, claim)

    def test_the_year_before_is_asked_too(self, corpus: InMemoryCorpus) -> None:
        """'and the figure a year earlier' asks for the named year's cell and the one before."""
        question = "Northwind's income tax for 2024, and what was the figure a year earlier?"
        (claim,) = _draft(corpus, question)
        assert "2024: (45)" in claim.text and "2023: 12" in claim.text

    def test_a_segment_table_does_not_answer_for_the_company(self) -> None:
        """A table titled for one segment (by its acronym) does not answer a question about
        the whole company; asked about that segment by name, it does."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INCOME, SEGMENT])
        question = "What share of Northwind's 2024 revenue came from government customers?"
        assert all("81" not in c.text for c in _draft(corpus, question))
        question = "What share of NPS revenue came from government customers in 2024?"
        assert any("81 %" in c.text or "81%" in c.text for c in _draft(corpus, question))

    def test_a_guarantor_group_statement_is_not_the_company(self, corpus: InMemoryCorpus) -> None:
        """The guarantor group's balance sheet answers neither first nor beside the
        consolidated one."""
        claims = _draft(corpus, "Northwind total current assets at June 30, 2024?")
        assert [c.text.split(",")[0] for c in claims] == ["Total current assets"]
        assert "2,530" in claims[0].text and all("230" not in c.text for c in claims)

    def test_a_row_named_word_for_word_answers_a_question_of_no_figure_type(self) -> None:
        """'What ... charges did it record' asks for no amount by its words; the row it names
        answers it (its total, with the year asked)."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [CHARGES])
        question = "What restructuring and impairment charges did Northwind record in 2024?"
        assert profile_question(question, as_of=AS_OF).answer_type == "other"
        (claim,) = _draft(corpus, question)
        assert claim.text.startswith("Total restructuring and impairment charges, 2024: $35")

    def test_a_dash_is_no_answer(self) -> None:
        """A row with a dash in the year asked states no figure: it is not drafted."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [CHARGES])
        claims = _draft(corpus, "How much were Northwind's asset impairments in 2024?")
        assert all("—" not in c.text for c in claims)

    def test_a_row_qualified_by_before_is_its_head(self) -> None:
        """'Loss before income taxes' is a loss: an income tax question is answered by the
        income tax row, wherever the loss row stands."""
        corpus = InMemoryCorpus()
        text = (
            "Consolidated Statements of Operations\n(Dollars in millions)\n"
            "Years ended December 31, 2024 2023\n"
            "Loss before income taxes (5,022) (5,033)\n"
            "Income tax (expense)/benefit (31) 743\n"
            "Net loss (5,053) (4,290)\n"
        )
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [text])
        claims = _draft(corpus, "Northwind income tax 2024 vs 2023?")
        assert claims and all("Loss before" not in c.text for c in claims)
        assert "(31)" in claims[0].text and "743" in claims[0].text
        # The amounts are stated with the table's unit, quoted with its header.
        assert "Dollars in millions" in claims[0].text
        assert _verified(corpus, claims[0])

    def test_a_label_saying_more_than_asked_is_another_row(self) -> None:
        """'How much cash did it hold': cash and cash equivalents, not cash dividends paid
        nor cash including restricted cash."""
        corpus = InMemoryCorpus()
        flows = (
            "Consolidated Statement of Cash Flows\n(in millions)\n2024 2023\n"
            "Cash dividends paid (6,172) (5,815)\n"
            "Cash and Cash Equivalents and Restricted Cash, End of Year $ 5,100 $ 5,707\n"
        )
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [flows, BALANCE])
        claims = _draft(corpus, "How much cash did Northwind hold at the end of fiscal 2024?")
        assert "Cash and cash equivalents, 2024: $96" in claims[0].text

    def test_the_whole_not_its_part(self) -> None:
        """One row label in two tables of a filing: the company's figure is the larger, the
        other a segment's or a reconciling item's part of it."""
        corpus = InMemoryCorpus()
        part = (
            "Unallocated items, eliminations and other\n(Dollars in millions)\n"
            "Years ended December 31, 2024 2023\n"
            "Share-based plans (117) (126)\n"
            "Research and development expense, net (278) (184)\n"
        )
        whole = (
            "Consolidated Statements of Operations\n(Dollars in millions)\n"
            "Years ended December 31, 2024 2023\n"
            "Revenues 66,608 62,286\n"
            "Research and development expense, net (2,852) (2,249)\n"
        )
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [part, whole])
        claims = _draft(corpus, "Northwind research and development expense in 2024?")
        assert claims and "(2,852)" in claims[0].text
        assert all("(278)" not in c.text for c in claims)

    def test_a_row_with_every_year_asked_answers_before_one_with_some(self) -> None:
        """'For 2024 and for 2023': the row stating both years, not one stating 2023 only."""
        corpus = InMemoryCorpus()
        older = (
            "Results of Operations\n(Dollars in millions)\n2023 2022\n"
            "Operating income margin 20.8 % 22.3 %\n"
        )
        newer = (
            "Results of Operations\n(Dollars in millions)\n2024 2023\n"
            "Operating income margin 19.1 % 20.8 %\n"
        )
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [older, newer])
        question = "Northwind's operating income as a percentage of sales for 2024 and 2023?"
        claims = _draft(corpus, question)
        assert claims and "19.1%" in claims[0].text and "20.8%" in claims[0].text

    def test_a_note_reference_is_no_cell(self) -> None:
        """'Inventories (Notes 1 and 3) 12,483 10,387': the 3 closing the reference is part
        of the label, the year's figure is 12,483."""
        text = "(Dollars in millions)\n2024 2023\nInventories (Notes 1 and 3) 12,483 10,387\n"
        cells = {(c.label, c.year): c.value for c in table_cells(text)}
        assert cells[("Inventories (Notes 1 and 3)", 2024)] == "12,483"

    def test_a_change_row_is_no_balance(self) -> None:
        """'Increase in inventories' is a cash flow's change, not the year-end inventories;
        asked how much inventories increased, it answers."""
        corpus = InMemoryCorpus()
        flows = (
            "Consolidated Statements of Cash Flows\n(Dollars in millions)\n2024 2023\n"
            "Increase in inventories (2,527) (1,200)\n"
        )
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [flows])
        claims = _draft(corpus, "Northwind's year-end 2024 inventories?")
        assert all(not c.text.startswith("Increase in inventories,") for c in claims)
        claims = _draft(corpus, "By how much did Northwind's inventories increase in 2024?")
        assert claims and "(2,527)" in claims[0].text


class TestCounts:
    def test_a_count_is_never_drafted_from_a_money_table(self) -> None:
        """ "Northwind headcount at June 30, 2024?": the employees the text states, not the
        "Employee related expenses" row of a table in millions of dollars."""
        corpus = InMemoryCorpus()
        corpus.add(
            "NWT_2024_10K",
            "FY2024",
            dt.date(2024, 8, 20),
            [
                "Human Capital\nAs of June 30, 2024, we had approximately 12,400 employees "
                "worldwide.\n",
                "Note 9 - Restructuring\n($ in millions)\nJune 30, 2024 2023\n"
                "Employee related expenses $ 68 $ 40\nOther costs 12 9\n",
            ],
        )
        claims = _draft(corpus, "Northwind headcount at June 30, 2024?")
        assert claims
        assert "12,400" in claims[0].text
        assert all("$" not in c.text and "68" not in c.text for c in claims)


class TestShares:
    def test_a_share_of_the_asked_whole_beats_a_share_of_another(self) -> None:
        """ "What share of Northwind's 2024 revenues came from outside the United States?": the
        sentence stating a percentage of revenues, not "4% of operating assets ... outside the
        United States", which shares more of the question's words."""
        corpus = InMemoryCorpus()
        corpus.add(
            "NWT_2024_10K",
            "FY2024",
            dt.date(2024, 8, 20),
            [
                "Approximately 4% of operating assets were located outside the United States "
                "as of June 30, 2024.\n",
                "In fiscal 2024, non-U.S. customers accounted for approximately 41% of our "
                "revenues.\n",
            ],
        )
        claims = _draft(
            corpus, "What share of Northwind's 2024 revenues came from outside the United States?"
        )
        assert claims
        assert "41%" in claims[0].text
        assert all("operating assets" not in c.text for c in claims)


RND = (
    "Northwind Tools Inc.\n"
    "Research and Development The following table summarizes our research and development "
    "expense:\n(Dollars in millions)\nYears ended June 30, 2024 2023 2022\n"
    "Tools $ 410 $ 380 $ 350\nServices 120 110 100\nTotal $ 530 $ 490 $ 450\n"
)
TOOLS = (
    "Tools segment\nResults of Operations\n(Dollars in millions)\n"
    "Years ended June 30, 2024 2023\nRevenues $ 5,120 $ 4,870\n"
    "Research and development $ 410 $ 380\n"
)
INTANGIBLES = (
    "The gross carrying amounts of our acquired intangible assets were as follows:\n"
    "(Dollars in millions)\nYears ended June 30, 2024 2023\n"
    "Patents 900 880\nTrademarks 650 640\nTotal $ 1,550 $ 1,520\n"
)
HELD = (
    "Consolidated Balance Sheets\n(Dollars in millions)\nAs of June 30, 2024 2023\n"
    "Assets held for sale 192 80\nLiabilities held for sale 65 20\n"
    "Total short-term debt 136 120\n"
)


class TestTitledTotals:
    def test_a_total_row_is_of_what_its_title_names(self) -> None:
        """A bare "Total" row answers the measure its table's title states, quoted with the
        title; a segment's own row of the measure and another table's "Total" do not."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [TOOLS, RND, INTANGIBLES])
        claims = _draft(corpus, "What was Northwind's total R&D expense in fiscal 2024?")
        assert claims, "the titled total is drafted"
        assert "$530" in claims[0].text
        assert all("410" not in c.text and "1,550" not in c.text for c in claims)
        assert any("research and development" in q.quote for q in claims[0].citations)
        assert _verified(corpus, claims[0])

    def test_a_total_row_of_another_title_is_not_the_measure(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INTANGIBLES])
        claims = _draft(corpus, "What was Northwind's total R&D expense in fiscal 2024?")
        assert all("1,550" not in c.text for c in claims)


class TestNearMissRows:
    def test_held_for_sale_is_no_net_sales(self) -> None:
        """ "Sale" (the act) is not "sales" (revenue): a held-for-sale row answers no question
        on net sales; it still answers one on assets held for sale."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [HELD])
        assert not _draft(corpus, "What were Northwind's net sales in fiscal 2024?")
        held = _draft(corpus, "What were Northwind's assets held for sale at June 30, 2024?")
        assert held and "192" in held[0].text

    def test_revenue_is_neither_a_sale_nor_a_total_of_another_measure(self) -> None:
        """ "Revenue" reads as "sales" in the lexicon, yet no held-for-sale row states it; and
        a row sharing only "total" with the question ("Total short-term debt" for "total
        revenue") is another measure: nothing answers."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [HELD])
        assert not _draft(corpus, "What was Northwind's total revenue in fiscal 2024?")


def test_a_lower_case_filer_in_a_terse_question_names_no_row() -> None:
    """'northwind 2024 net loss attributable to shareholders': the filer's name is a word of
    the document's title, so the row naming the filer ("... attributable to Northwind
    shareholders") is the row asked for word for word, over a bare "Net loss"."""
    page = (
        "Northwind Tools Inc.\nConsolidated Statements of Operations\n(Dollars in millions)\n"
        "Fiscal years ended June 30, 2024 2023\nNet sales 9,120 8,870\n"
        "Net loss (640) (600)\nLess: net loss attributable to noncontrolling interests (30) (25)\n"
        "Net loss attributable to Northwind shareholders (610) (575)\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    question = "northwind 2024 net loss attributable to shareholders"
    found = corpus.search(question, as_of=AS_OF, limit=8)
    title = "Northwind Tools Inc. Form 10-K for the fiscal year ended June 30, 2024"
    evidence = [p.model_copy(update={"context": title}) for p in found]
    claims = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF).claims
    assert claims
    assert claims[0].text.startswith("Net loss attributable to Northwind shareholders, 2024: (610)")


EXPENSES = (
    "Northwind Tools Inc.\nConsolidated Statements of Operations\n(Dollars in millions)\n"
    "Years ended June 30, 2024 2023\n"
    "Net sales 9,120 8,870\n"
    "Non-operating pension expense (12) (15)\n"
    "General and administrative expense (640) (610)\n"
    "Research and development expense (205) (190)\n"
    "Free cash flow 702 655\n"
    "Business segment operating income 1,012 990\n"
)
SEGMENT_SALES = (
    "Northwind Tools Inc.\nBusiness Segment Information\n(Millions)\n"
    "Years ended June 30, 2024 2023\n"
    "Total Consumer Business Segment 5,300 5,100\n"
    "Total Industrial Business Segment 3,820 3,770\n"
)


class TestShorthand:
    """Rows an analyst names by an acronym or a phrase of the lexicon, not by their label."""

    @pytest.fixture
    def expenses(self) -> InMemoryCorpus:
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [EXPENSES])
        return corpus

    def test_an_acronym_names_the_row_its_initials_spell(self, expenses: InMemoryCorpus) -> None:
        """'G&A' is the row whose opening words it abbreviates, not another expense row."""
        (claim,) = _draft(expenses, "Northwind G&A expense FY2024, $m?")
        assert claim.text.startswith("General and administrative expense") and "(640)" in claim.text
        assert _verified(expenses, claim)

    def test_an_acronym_the_lexicon_spells_is_what_is_measured(
        self, expenses: InMemoryCorpus
    ) -> None:
        """'FCF' beside the company's name is the measure asked ('Free cash flow'), not a
        second name; the terse question still gets the row."""
        (claim,) = _draft(expenses, "Northwind FCF 2023?")
        assert claim.text.startswith("Free cash flow") and "655" in claim.text

    def test_a_count_is_no_row_naming_the_counted_thing_as_a_modifier(
        self, expenses: InMemoryCorpus
    ) -> None:
        """'How many segments' is not answered by 'Business segment operating income'."""
        claims = _draft(expenses, "How many business segments did Northwind report in 2024?")
        assert all("1,012" not in c.text for c in claims)

    def test_a_count_is_no_row_of_one_of_the_counted(self) -> None:
        """Nor by one segment's row: a row counting segments says "number of" or "Segments"."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [SEGMENT_SALES])
        claims = _draft(corpus, "How many business segments did Northwind report in 2024?")
        assert all("5,300" not in c.text and "3,820" not in c.text for c in claims)


class TestShorthandAnalysis:
    def test_a_lexicon_acronym_beside_a_company_is_measured(self) -> None:
        measure = profile_question("3M FCF 2021?", as_of=AS_OF).measure
        assert "fcf" in measure
        # A lone acronym may be the company (a ticker): it stays a name.
        assert "pep" not in profile_question("PEP headcount FY22?", as_of=AS_OF).measure
        # A name the lexicon knows only as a word ("max") is no acronym of it.
        lawsuits = profile_question("Boeing 737 MAX crash lawsuits in the 2022 10-K?", as_of=AS_OF)
        assert "max" not in lawsuits.measure

    def test_years_notes_and_page_numbers_count_nothing(self) -> None:
        profile = profile_question("How many business segments does 3M have?", as_of=AS_OF)
        assert profile.states_figure("3M manages its operations in four business segments.")
        assert not profile.states_figure("NOTE 19. Business Segments and Geographic Information")
        assert not profile.states_figure("In 2022, the measure of segment operating income changed")
        headcount = profile_question("PEP headcount FY22?", as_of=AS_OF)
        assert not headcount.states_figure("benefits for eligible employees under the\n- 151 -\n")
        assert not headcount.states_figure("Public Law No. 93-406, the Employee Retirement Act")
        assert headcount.states_figure("We employed approximately 315,000 people worldwide")


class TestSignsAndRatios:
    """A negative share is a share, a row's other sign is no measure of it, and one figure
    over another is a ratio of the two."""

    def test_a_negative_share_in_parentheses_is_a_percentage(self) -> None:
        from evidencegate.analysis import has_figure

        assert has_figure("Operating margins, 2024: (5.3)%", "quantity", "percentage")
        assert has_figure("Operating margins (5.3) %", "quantity", "percentage")
        assert not has_figure("Operating margins (5.3)", "quantity", "percentage")

    def test_an_expense_with_its_income_sign_is_no_income_row(self) -> None:
        """'Other expense (income), net' is an expense: net income as a share of sales is
        computed from the net income row."""
        page = (
            "Northwind Tools Inc.\nConsolidated Statements of Income\n(Dollars in millions)\n"
            "Fiscal years ended June 30, 2024 2023 2022\n"
            "Net sales 9,120 8,870 8,410\n"
            "Other expense (income), net 450 12 (80)\n"
            "Net income attributable to Northwind 610 575 540\n"
        )
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
        (claim,) = _draft(corpus, "Northwind net income as a percent of net sales 2024?")
        assert "610" in claim.text and "6.7%" in claim.text and "450" not in claim.text
        assert _verified(corpus, claim)

    def test_one_figure_over_another_is_their_ratio(self) -> None:
        corpus = InMemoryCorpus()
        page = BALANCE + "Liabilities\nTotal current liabilities 2,000 2,100\n"
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
        (claim,) = _draft(corpus, "Northwind FY24 current assets over current liabilities?")
        assert "1.27" in claim.text and "7,845" not in claim.text
        assert claim.derivation is not None and claim.derivation.operation.value == "ratio"
        assert _verified(corpus, claim)

    def test_a_verb_ending_in_s_asks_no_list(self) -> None:
        question = "How much were the net sales of Northwind in the year which was ended June 30?"
        assert profile_question(question, as_of=AS_OF).answer_type == "amount"
        assert (
            profile_question("Which segments does Northwind report?", as_of=AS_OF).answer_type
            == "list"
        )


def test_a_year_with_its_footnote_mark_heads_its_column() -> None:
    """'2024* 2023' ('*' marks a restated year): the starred year is the first column, not a
    row value read under the next year."""
    page = (
        "Selected Financial Data\n(Dollars in millions, except per share amounts) 2024* 2023 2022\n"
        "Net sales $ 9,120 $ 8,870 $ 8,410\nNet income 610 575 540\n"
    )
    cells = {(c.name, c.year): c.value for c in table_cells(page)}
    assert cells[("Net sales", 2024)] == "9,120"
    assert cells[("Net sales", 2023)] == "8,870"
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    (claim,) = _draft(corpus, "What were Northwind's net sales in 2023?")
    assert "8,870" in claim.text and _verified(corpus, claim)


def test_a_table_titled_by_its_share_of_the_whole_is_a_part() -> None:
    """'Tools Business (33.6% of consolidated sales):' titles a segment's table: a part the
    company's question does not name, and the table of the segment asked by name."""
    from evidencegate.generation.tables import part_table

    page = (
        "Tools Business (33.6% of consolidated sales):\n2024 2023 2022\n"
        "Sales (millions) $ 3,064 $ 2,980 $ 2,870\nTotal sales change 2.8 % 3.8 % 1.0 %\n"
    )
    cell = table_cells(page)[0]
    assert part_table(page, cell, "Northwind total sales change 2024?")
    assert not part_table(page, cell, "Northwind Tools segment sales 2024?")


def _read(page: str) -> dict[tuple[str, int], str]:
    return {(c.name, c.year): c.value for c in table_cells(page)}


class TestColumnsOfTheirOwnTable:
    """A cell is read under its own table's columns: not under the years of the table above,
    another block of columns, a date in its label or the columns named after the years."""

    def test_a_unit_line_after_rows_heads_a_table_of_other_columns(self) -> None:
        """Quarterly data under '(Millions) First Second Third Fourth Year' is no row of the
        yearly table above: its first quarter is no year's figure."""
        page = (
            "(Millions) 2024 2023 2022\nUnited States $ 4,100 $ 3,900 $ 3,700\n"
            "Total Company $ 9,120 $ 8,870 $ 8,410\n"
            "(Millions, except per-share amounts) First Second Third Fourth Year\n"
            "2024 Quarter Quarter Quarter Quarter 2024\n"
            "Net sales $ 2,200 $ 2,300 $ 2,250 $ 2,370 $ 9,120\n"
        )
        cells = _read(page)
        assert cells[("Total Company", 2024)] == "9,120"
        assert ("Net sales", 2024) not in cells
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
        assert not any("2,200" in c.text for c in _draft(corpus, "Northwind net sales 2024?"))

    def test_a_unit_line_under_the_years_keeps_them(self) -> None:
        page = "2024 2023\n(Millions)\nNet sales 9,120 8,870\nNet income 610 575\n"
        assert _read(page)[("Net income", 2023)] == "575"

    def test_a_shorter_block_of_the_same_years_is_the_changes(self) -> None:
        """'2024 2023 2022 2023 2022' under '2024 versus 2023 versus': the last two columns
        are the changes, not the 2023 and 2022 shares."""
        page = (
            "2024 versus 2023 versus\n(Percent of net sales) 2024 2023 2022 2023 2022\n"
            "Cost of sales 50.9 % 50.8 % 50.2 % 0.1 % 0.6 %\n"
            "Selling, general and administrative expenses 23.2 20.9 21.0 2.3 (0.1)\n"
        )
        cells = _read(page)
        assert cells[("Selling, general and administrative expenses", 2023)] == "20.9"
        assert cells[("Selling, general and administrative expenses", 2022)] == "21.0"

    def test_blocks_of_one_size_stay_one_header(self) -> None:
        """Levels of a fair value hierarchy and their total: a year's value is the total's,
        on a row whose levels add up to it or a row of the total alone; on a row whose blocks
        do not add up the first block's, as for blocks of two measures."""
        page = (
            "Level 1 Level 2 Total\n(Millions) 2024 2023 2024 2023 2024 2023\n"
            "Equities $ 450 $ 414 $ 31 $ 33 $ 481 $ 447\nBonds — — $ 12 $ 10 $ 12 $ 10\n"
            "Partnership investments* 95 92\nTotal $ 5,612 $ 4,988 $ 43 $ 43 $ 16,557 $ 15,062\n"
        )
        cells = _read(page)
        assert cells[("Equities", 2024)] == "481"
        assert cells[("Bonds", 2023)] == "10"
        assert cells[("Partnership investments*", 2024)] == "95"
        assert cells[("Total", 2024)] == "5,612"

    def test_a_maturity_date_and_a_rate_stand_before_the_carrying_values(self) -> None:
        """'May 2027 4.00 % 500 480': the date is the note's, the rate no year's value."""
        page = (
            "(Millions) Maturities Interest rates 2024 2023\nTerm debt\n"
            "U.S. dollar notes, $500 million May 2027 4.00 % 500 480\n"
            "Medium-term note ($450 million) USD Floating 1.50 % 2026 448 447\n"
            "Total term debt 948 927\n"
        )
        cells = _read(page)
        assert cells[("U.S. dollar notes, $500 million May 2027", 2024)] == "500"
        assert cells[("U.S. dollar notes, $500 million May 2027", 2023)] == "480"
        assert cells[("Medium-term note ($450 million) USD Floating", 2024)] == "448"
        assert cells[("Medium-term note ($450 million) USD Floating", 2023)] == "447"

    def test_a_footnote_mark_between_years_stays_in_the_header(self) -> None:
        page = "(dollars in millions) 2024 (1) 2023 2022\nNet sales $ 9,458.2 $ 9,319.1 $ 9,101.0\n"
        cells = _read(page)
        assert cells[("Net sales", 2024)] == "9,458.2"
        assert cells[("Net sales", 2022)] == "9,101.0"

    def test_a_comparison_line_above_the_years_names_no_column(self) -> None:
        """'2024 vs 2023' over '2024 2023 % change', each year a group of a figure, its share
        and an income: a year's value is its group's first."""
        page = (
            "2024 vs 2023\n2024 2023 % change\n"
            "Net % of Oper. Net % of Oper. Net Oper.\n"
            "(Dollars in millions) Sales Total Income Sales Total Income Sales Income\n"
            "Tools $ 11,607 36.1 % $ 2,648 $ 12,494 38.1 % $ 3,423 (7.1)% (22.6)%\n"
            "Garden 9,602 29.9 2,221 10,106 30.8 2,649 (5.0) (16.1)\n"
        )
        cells = _read(page)
        assert cells[("Tools", 2024)] == "11,607"
        assert cells[("Tools", 2023)] == "12,494"
        assert cells[("Garden", 2023)] == "10,106"

    def test_columns_named_after_the_years_are_no_part_of_the_first_row(self) -> None:
        page = "(Dollars in Millions) 2024 2023 Change\nOTC $ 6,031 5,627 7.2 %\n"
        assert {c.label for c in table_cells(page)} == {"OTC"}


def test_a_table_titled_by_a_named_segment_is_a_part() -> None:
    """'Major Garden Franchise Sales*:' under prose naming the Garden segment: the segment's
    table, no answer to the company's sales, and the answer to the segment's."""
    from evidencegate.generation.tables import part_table

    page = (
        "Garden segment sales in 2024 were $15.0 billion, a decrease of 0.5% from 2023.\n"
        "Major Garden Franchise Sales*:\nTotal Operations\n"
        "(Dollars in Millions) 2024 2023 Change Change\n"
        "Hoses $ 6,031 5,627 7.2 % 11.2 %\nTotal Garden Sales $ 14,953 15,035 (0.5)% 3.6 %\n"
    )
    cell = table_cells(page)[0]
    assert part_table(page, cell, "Northwind 2024 sales growth %?")
    assert not part_table(page, cell, "Northwind Garden segment sales 2024?")


def test_a_row_modifying_the_lexicon_member_is_not_named_by_it() -> None:
    """'Other current assets' and 'Other assets' share the term 'asset' with 'total assets',
    which the lexicon groups with 'assets': the question names the 'Total assets' row."""
    page = (
        "Consolidated Balance Sheet\n(Dollars in millions) 2024 2023\nAssets\nCurrent assets\n"
        "Cash and cash equivalents $ 2,353 $ 2,853\nOther current assets 891 349\n"
        "Total current assets 12,971 13,709\nOther assets 1,674 1,345\n"
        "Total assets $ 44,659 $ 36,500\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    (claim,) = _draft(corpus, "Northwind total assets at the end of 2024, in USD millions?")
    assert "44,659" in claim.text and _verified(corpus, claim)


def test_a_row_without_a_heading_of_its_own_is_of_its_blocks_heading() -> None:
    """'Diluted' under 'Net earnings per share' is the EPS; the 'Diluted' under 'Average
    shares outstanding' is a share count, larger, and no answer to the EPS asked."""
    page = (
        "Consolidated Statements of Earnings\n"
        "(Dollars and Shares in Millions Except Per Share Amounts) 2024 2023 2022\n"
        "Net earnings $ 17,941 20,878 14,714\nNet earnings per share (Notes 1 and 15)\n"
        "Basic $ 6.83 7.93 5.59\nDiluted $ 6.73 7.81 5.51\n"
        "Average shares outstanding (Notes 1 and 15)\n"
        "Basic 2,625.2 2,632.1 2,632.8\nDiluted 2,663.9 2,674.0 2,670.7\n"
    )
    headings = {(c.heading, c.name) for c in table_cells(page) if c.year == 2024}
    assert ("Net earnings per share (Notes 1 and 15)", "Diluted") in headings
    assert ("Average shares outstanding (Notes 1 and 15)", "Diluted") in headings
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    (claim,) = _draft(corpus, "Northwind diluted EPS for fiscal 2024?")
    assert "6.73" in claim.text and _verified(corpus, claim)


def test_a_table_of_one_year_over_parts_and_their_whole_reads_the_whole() -> None:
    """'Year ended December 31, 2024' over 'United States Asia Pacific ... Worldwide': each
    row's value for the company is its last, the worldwide column's."""
    page = (
        "Year 2024 sales results by geographic area:\nYear ended December 31, 2024\n"
        "United Asia Other\nStates Pacific Unallocated Worldwide\n"
        "Net sales (millions) $ 12,372 $ 9,809 $ (13) $ 22,168\n"
        "Organic local-currency sales 2.5 11.2 — 5.2\n"
        "Total sales change 1.5 % 10.9 % — 5.1 %\n"
    )
    cells = _read(page)
    assert cells[("Total sales change", 2024)] == "5.1%"
    assert cells[("Net sales (millions)", 2024)] == "22,168"
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    (claim,) = _draft(corpus, "Northwind total sales change in 2024, in percent?")
    assert "5.1" in claim.text and _verified(corpus, claim)


def test_a_subset_the_question_does_not_ask_is_no_operand() -> None:
    """'current assets to current liabilities': the 'Other current assets' and 'Other current
    liabilities' rows of a fair value table state subsets the question does not ask."""
    page = (
        "Fair value of derivatives\n(Millions) 2024 2023\n"
        "Other current assets $ 89 $ 61\nOther current liabilities $ 27 $ 35\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    question = "What is Northwind's ratio of current assets to current liabilities in 2024?"
    assert not any("3.30" in c.text for c in _draft(corpus, question))


def test_a_row_negating_what_is_asked_is_no_answer() -> None:
    """'Non-Cash Investing Activities: Purchase of ... accrued, but not paid' is no cash spent:
    with the cash flow statement's purchase row out of reach, nothing answers."""
    page = (
        "Supplemental Cash Flow Information\n($ in millions) 2024 2023 2022\n"
        "Non-Cash Investing Activities:\n"
        "Purchase of property, plant, and equipment accrued, but not paid $ 71 $ 96 $ 84\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    question = "How much cash did Northwind spend buying property, plant and equipment in 2024?"
    assert not any("2024: $71" in c.text for c in _draft(corpus, question))
    claims = _draft(
        corpus,
        "What purchases of property, plant, and equipment were accrued but not paid in 2024?",
    )
    assert any("2024: $71" in c.text for c in claims)


def test_a_group_column_named_amount_is_the_years_figure() -> None:
    """'Shares Amount' under each year: a row's figure is its amount, not its share count."""
    page = (
        "Consolidated Statement of Equity\n(in millions except per share amounts)\n"
        "2024 2023 2022\nShares Amount Shares Amount Shares Amount\nRepurchased Common Stock\n"
        "Share repurchases (9) (1,500) (1) (106) (15) (2,000)\n"
    )
    cells = _read(page)
    assert cells[("Share repurchases", 2024)] == "(1,500)"
    assert cells[("Share repurchases", 2022)] == "(2,000)"


def test_a_header_of_years_alone_quotes_its_period_line() -> None:
    """'Years ended December 31' over '2024 2023 2022': the years alone are too short a quote
    (the verifier wants 20 characters); the quote runs back over 'December 31'."""
    page = (
        "Consolidated Statement of Income\nYears ended December 31\n2024 2023 2022\n"
        "Research, development and related expenses 1,763 1,770 1,715\n"
    )
    (cell, *_) = table_cells(page)
    assert page[cell.header_start : cell.header_end].startswith("December 31")
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    question = "How much did Northwind spend on research, development and related expenses in 2024?"
    (claim,) = _draft(corpus, question)
    assert "1,763" in claim.text and _verified(corpus, claim)


def test_a_share_count_is_no_figure_per_share() -> None:
    """'earnings per diluted share': the diluted share count row names 'diluted' and 'shares'
    as the EPS row does, but counts shares."""
    page = (
        "Consolidated Statement of Income\n(Millions, except per share amounts) 2024 2023 2022\n"
        "Net income attributable to Northwind $ 5,349 $ 4,858 $ 5,050\n"
        "Weighted average Northwind common shares outstanding — basic 588.5 597.5 604.7\n"
        "Earnings per share attributable to Northwind common shareholders — basic"
        " $ 9.09 $ 8.13 $ 8.35\n"
        "Weighted average Northwind common shares outstanding — diluted 602.0 612.7 618.7\n"
        "Earnings per share attributable to Northwind common shareholders — diluted"
        " $ 8.89 $ 7.93 $ 8.16\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    claims = _draft(corpus, "What was Northwind's earnings per diluted share for 2024?")
    assert claims and "8.89" in claims[0].text and not any("602.0" in c.text for c in claims)


def test_a_table_titled_by_another_business_is_a_part_of_a_question_on_a_business() -> None:
    """'Garden Business (24.6% of consolidated sales):' is no part of the question on the
    'Tools business': 'business' is every part's word, not the part's name."""
    from evidencegate.generation.tables import part_table, part_title

    garden = (
        "Garden Business (24.6% of consolidated sales):\n2024 2023\n"
        "Sales (millions) $ 8,421 $ 8,597\nSales change analysis:\n"
        "Organic sales 3.2 % 10.2 %\n"
    )
    tools = garden.replace("Garden", "Tools").replace("3.2 %", "(0.9) %")
    question = "What was the organic sales change for Northwind's Tools business in 2024?"
    g_cell, t_cell = table_cells(garden)[0], table_cells(tools)[0]
    assert part_table(garden, g_cell, question)
    assert not part_table(tools, t_cell, question)
    # the asked part's title is quoted beside its rows; no other part's, and none unasked
    assert part_title(tools, t_cell, question).startswith("Tools Business (24.6%")
    assert part_title(garden, g_cell, question) == ""
    assert part_title(tools, t_cell, "Northwind organic sales change 2024?") == ""


def test_the_asked_business_is_named_beside_its_row() -> None:
    """The organic sales of the business asked are drafted from its own table, the claim
    naming the business (its row, 'Organic sales', does not)."""
    garden = (
        "Garden Business (24.6% of consolidated sales):\n2024 2023\n"
        "Sales (millions) $ 8,421 $ 8,597\nSales change analysis:\n"
        "Organic sales 3.2 % 10.2 %\n"
    )
    tools = garden.replace("Garden", "Tools").replace("3.2 %", "(0.9) %")
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [garden, tools])
    claims = _draft(
        corpus, "What was the organic sales change for Northwind's Tools business in 2024?"
    )
    assert claims and "(0.9)" in claims[0].text and "Tools Business" in claims[0].text
    assert _verified(corpus, claims[0])


def test_a_benefit_plans_table_is_no_answer_for_the_companys_total_assets() -> None:
    """The bare 'Total' of the plan assets' fair value table (its column header reading
    'Asset Class') is the pension plans' assets, not the company's total assets."""
    from evidencegate.generation.tables import part_table

    plans = (
        "The fair values of the assets held by the U.S. pension plans by asset class are as "
        "follows:\n(Millions) Level 1 Level 2 Dec. 31,\nAsset Class 2024 2023 2024 2023\n"
        "Equities $ 2,082 $ 1,575 $ — $ —\nTotal $ 5,525 $ 5,100 $ 3,000 $ 2,900\n"
    )
    cell = table_cells(plans)[0]
    assert part_table(plans, cell, "Northwind total assets 2024?")
    assert not part_table(plans, cell, "Northwind pension plan assets 2024?")
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [plans, BALANCE])
    claims = _draft(corpus, "Northwind total assets as of June 30 2024?")
    assert claims and "7,845" in claims[0].text


def test_a_segment_the_question_names_is_stated_by_its_own_row() -> None:
    """'Revenues: Tools' answers the Tools segment's revenue, not the company's total."""
    segments = (
        "Summary of Business Segment Data\n(Dollars in millions)\n"
        "Years ended June 30, 2024 2023\nRevenues:\nTools $ 3,064 $ 2,980\n"
        "Garden 6,056 5,890\nTotal revenues $ 9,120 $ 8,870\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INCOME, segments])
    claims = _draft(corpus, "How much revenue did Northwind's Tools segment bring in during 2024?")
    assert claims and "3,064" in claims[0].text


def test_a_quotient_asked_is_not_answered_by_one_operands_row() -> None:
    """'current assets / current liabilities': a row of one operand is no answer."""
    page = (
        "Northwind Tools Inc.\nFair value of derivatives\n(Dollars in millions)\n"
        "As of June 30, 2024 2023\nCurrent assets 37 30\nDeferred revenue 516 480\n"
    )
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [page])
    for question in (
        "Northwind current assets / current liabilities June 30 2024",
        "Northwind current assets over current liabilities at June 30, 2024",
    ):
        assert not _draft(corpus, question)
    assert any("37" in c.text for c in _draft(corpus, "Northwind current assets June 30 2024?"))


def test_a_row_states_its_own_name_not_the_headings_above_it(corpus: InMemoryCorpus) -> None:
    """'Assets Current assets: Cash and cash equivalents' states cash, not the total current
    assets asked beside it: both rows are drafted."""
    claims = _draft(
        corpus,
        "What were Northwind's cash balance and its total current assets on the June 30, 2024 "
        "balance sheet?",
    )
    texts = " | ".join(c.text for c in claims)
    assert "96" in texts and "2,530" in texts
