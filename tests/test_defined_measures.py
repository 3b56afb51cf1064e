"""Derived measures the lexicon defines (working capital, current ratio, operating margin):
computed from their operands' rows, and read by the rules critic as the measure asked."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Claim, Operation, Passage
from evidencegate.critique.rules import RulesCritic
from evidencegate.generation.derive import derivation_request
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.tables import table_cells, table_title
from evidencegate.lexicon import defined_measure, measures_defined, phrase_said
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2024, 9, 30)

BALANCE = (
    "Northwind Tools Inc.\nConsolidated Balance Sheets\n(Dollars in millions)\n"
    "As of June 30, 2024 2023\nAssets\nCurrent assets:\n"
    "Cash and cash equivalents $ 96 $ 88\n"
    "Total current assets 2,530 2,410\n"
    "Property, plant and equipment, net 3,100 2,950\n"
    "Total assets $ 7,845 $ 7,500\n"
    "Liabilities\nCurrent liabilities:\n"
    "Trade payables 1,010 990\n"
    "Total current liabilities 1,840 1,770\n"
    "Total liabilities $ 4,900 $ 4,700\n"
)
INCOME = (
    "Northwind Tools Inc.\nConsolidated Statements of Income\n(Dollars in millions)\n"
    "Fiscal years ended June 30, 2024 2023 2022\n"
    "Net sales 9,120 8,870 8,410\n"
    "Cost of sales (7,010) (6,900) (6,500)\n"
    "Gross profit 2,110 1,970 1,910\n"
    "Operating income 912 870 800\n"
    "Net income 610 575 540\n"
)


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [INCOME, BALANCE])
    return corpus


def _draft(corpus: InMemoryCorpus, question: str) -> tuple[list[Passage], list[Claim]]:
    evidence: list[Passage] = corpus.search(question, as_of=AS_OF, limit=8)
    claims = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF).claims
    return evidence, claims


class TestLexicon:
    def test_a_measure_is_named_word_for_word(self) -> None:
        found = defined_measure("What was the net working capital at year-end?")
        assert found is not None
        assert found[0].name == "net working capital"  # the longest name, not "working capital"
        assert found[0].operation == "difference"
        assert defined_measure("How many people work in capital markets?") is None

    def test_an_operand_is_stated_whole(self) -> None:
        """ "Total assets" is no "current assets": the word the terms drop is still asked."""
        assert phrase_said("current assets", "Total current assets")
        assert not phrase_said("current assets", "Total assets")
        assert phrase_said("net sales", "Sales to customers")  # a synonym of the lexicon

    def test_the_measure_a_derivation_computes(self) -> None:
        labels = ["Total current assets", "Total current liabilities"]
        assert "working capital" in measures_defined("difference", labels)
        assert "current ratio" in measures_defined("ratio", labels)
        assert measures_defined("difference", ["Total assets", "Total liabilities"]) == []
        assert measures_defined("sum", labels) == []


class TestRequest:
    @pytest.mark.parametrize(
        ("question", "operation"),
        [
            ("Northwind working capital at June 30, 2024?", Operation.DIFFERENCE),
            ("What was Northwind's current ratio in fiscal 2024?", Operation.RATIO),
            ("Northwind opm FY24?", Operation.SHARE),
        ],
    )
    def test_a_defined_measure_is_computed(self, question: str, operation: Operation) -> None:
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        assert request.operation is operation
        assert request.defined
        assert len(request.phrases) == 2

    def test_less_is_a_difference_less_than_is_not(self) -> None:
        question = "Northwind net sales less cost of sales for the twelve months of fiscal 2024?"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        assert request.operation is Operation.DIFFERENCE
        assert request.subjects == ("net sale", "cost sale")
        question = "Was Northwind's net income less than $700 million in 2024?"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is None or request.operation is not Operation.DIFFERENCE

    def test_a_change_of_the_measure_is_not_computed_here(self) -> None:
        question = "Northwind working capital in 2024 versus 2023?"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is None or not request.defined


class TestDrafted:
    def test_working_capital_from_the_current_rows(self, corpus: InMemoryCorpus) -> None:
        question = "What was Northwind's working capital at June 30, 2024?"
        evidence, claims = _draft(corpus, question)
        derived = [c for c in claims if c.derivation is not None]
        assert derived, [c.text for c in claims]
        claim = derived[0]
        assert claim.derivation is not None
        assert claim.derivation.operation is Operation.DIFFERENCE
        assert claim.derivation.result == "690"  # 2,530 - 1,840, not 7,845 - 4,900
        assert "minus" in claim.text and " less " not in claim.text
        verifier = Verifier.from_policy(corpus, Policy())
        verification = verifier.verify(claim, as_of=AS_OF)
        assert verification.ok, verification.reasons
        audit = RulesCritic(pages=corpus).audit(
            question, [claim], [verification], evidence, as_of=AS_OF, required_facts=[]
        )
        assert audit.contract_met, audit.missing_facts

    def test_the_critic_reads_no_other_measure(self, corpus: InMemoryCorpus) -> None:
        """The derivation states the working capital asked, not a current ratio asked."""
        question = "What was Northwind's working capital at June 30, 2024?"
        evidence, claims = _draft(corpus, question)
        claim = next(c for c in claims if c.derivation is not None)
        verification = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        other = "What was Northwind's current ratio at June 30, 2024?"
        audit = RulesCritic(pages=corpus).audit(
            other, [claim], [verification], evidence, as_of=AS_OF, required_facts=[]
        )
        assert not audit.contract_met


CASH_FLOWS = (
    "Northwind Tools Inc.\nConsolidated Statements of Cash Flows\n(Dollars in millions)\n"
    "Fiscal years ended June 30, 2024 2023 2022\n"
    "Cash Flows from Operating Activities\n"
    "Net income including noncontrolling interest 615 580 545\n"
    "Adjustments to reconcile net income including noncontrolling interest to net cash provided "
    "by operating activities\nDepreciation and amortization 420 400 380\n"
    "Net sales 9,120 8,870 8,410\n"
)


class TestShareWritten:
    def test_as_percent_sign_of_is_a_share(self) -> None:
        question = "Northwind D&A as % of revenue, FY2024"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        assert request.operation is Operation.SHARE
        assert request.subjects[1] == "revenue"

    def test_an_operand_is_named_by_its_own_row(self) -> None:
        """The claim names the row, not the headings its label runs on from."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [CASH_FLOWS])
        _, claims = _draft(corpus, "Northwind D&A as % of net sales, FY2024")
        claim = next(c for c in claims if c.derivation is not None)
        assert claim.text.startswith("Depreciation and amortization 420 and Net sales")
        assert "noncontrolling" not in claim.text


BLOCKS = (
    "Net Revenue and Operating Profit\n"
    "Net revenue and operating profit of each division are as follows:\n"
    "Net Revenue Operating Profit\n"
    "2024 2023 2024 2023\n"
    "Tools $ 5,210 $ 5,020 $ 812 $ 760\n"
    "Outdoor 3,910 3,850 (45) 120\n"
    "Total $ 9,120 $ 8,870 $ 767 $ 880\n"
)


class TestBlocks:
    def test_each_block_is_a_table_of_its_own(self) -> None:
        """A header repeating its years under a line naming each block gives each block's
        cells, titled by the block's name and quoted from it."""
        cells = table_cells(BLOCKS)
        tools = {(c.block, c.year): c for c in cells if c.name == "Tools"}
        assert tools[("Net Revenue", 2024)].value == "5,210"
        assert tools[("Operating Profit", 2024)].value == "812"
        assert tools[("Operating Profit", 2023)].value == "760"
        profit = tools[("Operating Profit", 2024)]
        assert table_title(BLOCKS, profit) == "Operating Profit"
        header = BLOCKS[profit.header_start : profit.header_end]
        assert header.startswith("Operating Profit") and "2024" in header
        assert profit.header_start != tools[("Net Revenue", 2024)].header_start

    def test_unnamed_blocks_are_read_as_before(self) -> None:
        """Blocks the line above does not name as phrases of the lexicon ("Level 1 Level 2")
        are no tables of their own."""
        text = BLOCKS.replace("Net Revenue Operating Profit", "Alpha Beta")
        assert all(not c.block for c in table_cells(text))
        assert {c.value for c in table_cells(text) if c.name == "Tools"} == {"5,210", "5,020"}

    def test_the_asked_block_is_drafted(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [BLOCKS])
        _, claims = _draft(corpus, "What was the Outdoor division's net revenue in 2023?")
        assert any("3,850" in c.text for c in claims), [c.text for c in claims]

    @pytest.mark.parametrize(
        ("question", "value"),
        [("Tools op profit 2024?", "812"), ("Outdoor division operating profit, 2023?", "120")],
    )
    def test_a_block_cell_states_its_block_measure(self, question: str, value: str) -> None:
        """A claim naming only the row ("Tools, 2024: 812") of the "Operating Profit" block
        states the row's operating profit: the critic's figure check does not refuse it."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [BLOCKS])
        evidence, claims = _draft(corpus, question)
        claim = next(c for c in claims if value in c.text)
        verification = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        assert verification.ok, verification.reasons
        audit = RulesCritic(pages=corpus).audit(
            question, [claim], [verification], evidence, as_of=AS_OF, required_facts=[]
        )
        assert audit.contract_met, (claim.text, audit.missing_facts)

    def test_a_block_cell_states_no_other_block_measure(self) -> None:
        """The net revenue block's cell is no operating profit."""
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [BLOCKS])
        question = "Tools op profit 2024?"
        evidence, _ = _draft(corpus, "Tools net revenue 2024?")
        _, claims = _draft(corpus, "Tools net revenue 2024?")
        claim = next(c for c in claims if "5,210" in c.text)
        verification = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        audit = RulesCritic(pages=corpus).audit(
            question, [claim], [verification], evidence, as_of=AS_OF, required_facts=[]
        )
        assert not audit.contract_met

    def test_a_block_cell_is_no_count_of_its_rows(self) -> None:
        """A block the question does not speak of adds nothing to the claim: the total's net
        revenue ("Total division, 2024: $9,120") is no count of divisions."""
        text = BLOCKS.replace("Total $", "Total division $")
        corpus = InMemoryCorpus()
        corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 8, 20), [text])
        evidence, claims = _draft(corpus, "Total division net revenue 2024?")
        claim = next(c for c in claims if "9,120" in c.text)
        verification = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        question = "How many divisions does Northwind have according to its 2024 report?"
        figure = "figure: a stated figure or date answering the question"
        audit = RulesCritic(pages=corpus).audit(
            question, [claim], [verification], evidence, as_of=AS_OF, required_facts=[figure]
        )
        assert audit.missing_facts == [figure], claim.text
