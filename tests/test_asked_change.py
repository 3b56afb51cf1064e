"""The asked change decides the derived claim; head counts are numbers of people of the asked
scope (FinanceBench: "how much percent did it grow", "backlog increase in dollars", "SG&A growth
2022 over 2021", "by how much did a division's revenue change", "how many employees outside
the US")."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Citation, Claim, Derivation, Operand, Operation
from evidencegate.critique.rules import _change_unstated, _headcount_unstated
from evidencegate.generation.derive import (
    DerivationRequest,
    derivation_request,
    derived_candidates,
)
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2023, 6, 30)
DOC, VERSION = "ACME_2022_10K", "FY2022"
INCOME = (
    "Acme Corporation\nConsolidated Statement of Income\n"
    "Years ended December 31 (Millions) 2022 2021 2020\n"
    "Net revenue $ 86,392 $ 79,474 $ 70,372\n"
    "Selling, general and administrative expenses 34,459 31,237 28,453\n"
    "Research and development expense (1,246) (1,284) (1,292)\n"
)
DIVISIONS = (
    "Net Revenue and Operating Profit\n"
    "Net revenue and operating profit of each division are as follows:\n"
    "Net Revenue Operating Profit\n"
    "2022 2021 2020 2022 2021 2020\n"
    "FLNA $ 23,291 $ 19,608 $ 18,189 $ 6,135 $ 5,633 $ 5,340\n"
    "LatAm 9,779 8,108 6,942 1,627 1,369 1,033\n"
    "Total division 86,392 79,474 70,372 13,615 12,845 11,522\n"
)
SHARES = (
    "Operating Expenses:\n"
    "(Percent of net sales) 2022 2021 2022 versus 2021\n"
    "Cost of sales 53.2 % 51.6 % 1.6 %\n"
    "Research and development expense 5.6 5.8 (0.2)\n"
    "Backlog\n"
    "(Dollars in millions) Years ended December 31, 2022 2021\n"
    "Total backlog $404,381 $377,499\n"
)
UNTOLD = (
    "Income Before Tax by Segment\n"
    "Income Before Tax Segment Sales Percent of Segment Sales\n"
    "(Dollars in Millions) 2022 2021 2022 2021 2022 2021\n"
    "Consumer Health $ 2,930 1,573 14,953 15,035 19.6 % 10.5\n"
    "Pharmaceutical 15,901 17,969 52,563 51,680 30.3 34.8\n"
)
TITLED = (
    "Research and Development\n"
    "The following table summarizes our Research and development expense:\n"
    "(Dollars in millions) Years ended December 31, 2022 2021 2020\n"
    "Airplanes $1,510 $1,140 $1,385\n"
    "Services 119 107 138\n"
    "Total $2,852 $2,249 $2,476\n"
)


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(DOC, VERSION, dt.date(2023, 2, 8), [INCOME, DIVISIONS, SHARES, TITLED, UNTOLD])
    return corpus


def _request(question: str) -> DerivationRequest | None:
    return derivation_request(question, profile_question(question, as_of=AS_OF))


class TestAskedOperation:
    @pytest.mark.parametrize(
        ("question", "operation", "subject"),
        [
            # a rate asked, however it is said
            (
                "how much percent did Acme's net revenue grow in 2022 vs 2021?",
                Operation.PERCENT_CHANGE,
                "net revenue",
            ),
            (
                "What was the rate of growth of Acme's research and development expense in 2022?",
                Operation.PERCENT_CHANGE,
                "research development expense",
            ),
            # growth with no unit asked: a rate (as a filing states growth)
            ("Acme SG&A growth 2022 over 2021", Operation.PERCENT_CHANGE, None),
            (
                "How much did Acme's net revenue grow in 2022 versus 2021?",
                Operation.PERCENT_CHANGE,
                "net revenue",
            ),
            # an amount asked: the difference, without the words asking the unit
            (
                "What was Acme's total backlog increase in dollars between 2021 and 2022?",
                Operation.DIFFERENCE,
                "backlog",
            ),
            (
                "How much did Acme's net revenue go up in dollar terms in 2022?",
                Operation.DIFFERENCE,
                "net revenue",
            ),
            ("Acme net revenue growth 2022 vs 2021 in $m", Operation.DIFFERENCE, "net revenue"),
            # no unit, no growth: the other rules
            (
                "By how much did Acme's net revenue change in 2022 versus 2021?",
                Operation.DIFFERENCE,
                None,
            ),
            ("Did Acme's net revenue grow in 2022?", Operation.COMPARE, None),
        ],
    )
    def test_the_asked_unit_decides(
        self, question: str, operation: Operation, subject: str | None
    ) -> None:
        request = _request(question)
        assert request is not None
        assert request.operation is operation
        if subject is not None:
            assert request.subjects == (subject,)


def test_a_measure_acronym_is_no_segment() -> None:
    """ "Acme FCF conversion 2022 vs 2021": FCF is what is measured (the lexicon spells it
    out), not a division whose row the change must be read from."""
    request = _request("Acme FCF conversion 2022 vs 2021?")
    assert request is not None and request.segments == ("acme",)


class TestCandidates:
    def _texts(self, corpus: InMemoryCorpus, question: str) -> list[str]:
        request = _request(question)
        assert request is not None
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        return [c.text for c in derived_candidates(request, evidence, corpus)]

    def test_segment_row_of_the_asked_block(self, corpus: InMemoryCorpus) -> None:
        """A division's change is read from its own row, in the block the question names."""
        texts = self._texts(
            corpus, "For Acme's LatAm division, by how much did net revenue change in 2022?"
        )
        assert texts == ["LatAm: 9,779 in 2022 compared with 8,108 in 2021: an increase of 1671"]
        texts = self._texts(
            corpus, "By how much did Acme's LatAm operating profit change in 2022 vs 2021?"
        )
        assert texts == [
            "Operating Profit: LatAm: 1,627 in 2022 compared with 1,369 in 2021: an increase of 258"
        ]

    def test_segment_row_of_another_measure(self, corpus: InMemoryCorpus) -> None:
        """A segment's row in a table of another measure is no change of the asked one."""
        assert self._texts(corpus, "By how much did Acme's LatAm backlog change in 2022?") == []

    def test_unit_opened_blocks_told_apart(self, corpus: InMemoryCorpus) -> None:
        """A header naming its blocks above a years line opened by the table's unit: the
        segment sales' change is read from the Segment Sales block, not Income Before Tax."""
        texts = self._texts(
            corpus, "In dollars, how much did Acme's Pharmaceutical segment sales change in 2022?"
        )
        assert texts and all("15,901" not in t for t in texts)
        assert any("52,563" in t and "883" in t for t in texts)

    def test_no_block_named_no_change(self, corpus: InMemoryCorpus) -> None:
        """A table of blocks none of which the question names gives no operand (ambiguous)."""
        assert self._texts(corpus, "By how much did Acme's LatAm figures change in 2022?") == []

    def test_shares_of_sales_are_no_amount(self, corpus: InMemoryCorpus) -> None:
        """ "(Percent of net sales)" rows are shares, no change of the expense asked."""
        texts = self._texts(
            corpus, "By how much did Acme's research and development expense change in 2022?"
        )
        assert texts and all("5.6" not in t for t in texts)

    def test_titled_total(self, corpus: InMemoryCorpus) -> None:
        """A bare "Total" row is the whole its table's title names, quoted with the title."""
        request = _request("What was the rate of growth of Acme's R&D expense in 2022?")
        assert request is not None
        evidence = corpus.search("research and development expense", as_of=AS_OF, limit=8)
        found = [c for c in derived_candidates(request, evidence, corpus) if "2,852" in c.text]
        assert found and found[0].text.endswith("an increase of 26.8%")
        claim = found[0].claim()
        assert any("summarizes our Research and development" in c.quote for c in claim.citations)
        assert Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF).ok

    def test_negative_operands_state_no_direction(self, corpus: InMemoryCorpus) -> None:
        """An expense in parentheses falling from (1,284) to (1,246) did not "increase"."""
        texts = self._texts(corpus, "Acme research and development expense growth 2022, in %?")
        assert any(t.endswith("a change of 3.0%") for t in texts)
        assert not any("increase of 3.0%" in t for t in texts)

    def test_no_bare_values_for_a_change(self, corpus: InMemoryCorpus) -> None:
        """A change question is not answered by a row's two years' values."""
        question = "Acme SG&A growth 2022 over 2021"
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        draft = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF)
        assert draft.claims
        assert all(c.derivation is not None for c in draft.claims)
        assert draft.claims[0].text.endswith("an increase of 10.3%")


def _claim(text: str, derivation: Derivation | None = None) -> Claim:
    quote = Citation(doc_id=DOC, version=VERSION, page=1, quote=text)
    return Claim(claim_id="c-1", text=text, citations=[quote], derivation=derivation)


class TestCritic:
    def test_change_unstated(self) -> None:
        question = "Boeing headcount growth in percent, 2022 vs 2021?"
        profile = profile_question(question, as_of=AS_OF)
        bare = "Boeing's total workforce was approximately 156,000 and 142,000 with 13% and 12%"
        assert _change_unstated(profile, [bare], [_claim(bare)]) is not None
        stated = "Net sales increased by $150 million, or 1%, in fiscal year 2023"
        assert _change_unstated(profile, [stated], [_claim(stated)]) is None
        derivation = Derivation(
            operation=Operation.PERCENT_CHANGE,
            operands=[
                Operand(label="a", value="156,000", citation=0),
                Operand(label="b", value="142,000", citation=0),
            ],
            result="9.9%",
        )
        assert _change_unstated(profile, [bare], [_claim(bare, derivation)]) is None
        # "difference" names a thing here; a yes/no question asks no change of a figure
        question = "Are employees permitted to use contracts for difference in their accounts?"
        profile = profile_question(question, as_of=AS_OF)
        assert _change_unstated(profile, [bare], [_claim(bare)]) is None

    @pytest.mark.parametrize(
        ("question", "text", "answers"),
        [
            (
                "What was 3M's global headcount at the end of 2021?",
                "the Company employed approximately 95,000 people (full-time equivalents)",
                True,
            ),
            (
                "What was 3M's global headcount at the end of 2021?",
                "employees are able to access development resources in over 15 languages",
                False,
            ),
            (
                "How many employees did Boeing have outside the United States?",
                "Boeing's total workforce was approximately 156,000 with 13% located outside"
                " of the U.S.",
                False,
            ),
            (
                "How many employees did 3M have outside the United States at the end of 2022?",
                "approximately 37,000 employed in the United States and 55,000 employed"
                " internationally",
                True,
            ),
            (
                "How many people did PepsiCo employ outside the United States in 2022?",
                "We employed approximately 315,000 people worldwide, including approximately"
                " 132,000 people within the United States.",
                False,
            ),
            (
                "How many people did PepsiCo employ within the United States in 2022?",
                "We employed approximately 315,000 people worldwide, including approximately"
                " 132,000 people within the United States.",
                True,
            ),
            (
                "Amcor headcount at June 30, 2022?",
                "we received feedback from over 30,000 Amcor employees",
                False,
            ),
            ("J&J number of employees FY2022?", "Employees, 2022: 155,800", True),
            # a part of the workforce by another trait: left to the other facts
            (
                "How many union members did Boeing employ?",
                "approximately 23% women",
                True,
            ),
        ],
    )
    def test_headcount(self, question: str, text: str, answers: bool) -> None:
        profile = profile_question(question, as_of=AS_OF)
        assert (_headcount_unstated(profile, [text]) is None) is answers
