"""Head counts stated in sentences (FinanceBench 10-K filings): a sentence stating how many
people a filer employs, of which scope, is drafted for a head-count question of that scope; a
count of another scope or a change between two years is derived from the sentence's own
figures (the claim quotes the sentence, the engine computes); a header naming its blocks above
a unit-opened years line is split into blocks."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Claim, Operation, Passage
from evidencegate.generation.derive import (
    derivation_request,
    derived_candidates,
    headcount_ask,
    headcount_claims,
    people_counts,
)
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.tables import table_cells, table_title
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.derived import check_derivation

AS_OF = dt.date(2023, 12, 31)
WHOLE_AND_US = (
    "We employed approximately 315,000 people worldwide as of December 31, 2022, including "
    "approximately 132,000 people within the United States."
)
THREE_SCOPES = (
    "At December 31, 2018, the Company employed 93,516 people (full-time equivalents), with "
    "37,412 employed in the United States and 56,104 employed internationally."
)
TWO_YEARS = (
    "As of December 31, 2022 and 2021, Acme’s total workforce was approximately 156,000 and "
    "142,000 with 13% and 12% located outside of the U.S.\nAs of December 31, 2022, our "
    "workforce included approximately 50,000 union members."
)
NO_YEAR = "Acme and its subsidiaries have approximately 152,700 employees worldwide."
NOT_EMPLOYED = [
    "As of June 30, 2021, the Rigid Packaging Segment employed approximately 6,000 employees.",
    "Approximately 50,000 employees, which constitute 32% of our total workforce, were union "
    "represented as of December 31, 2022.",
    "Additionally, we hired approximately 23,000 new employees in 2022 for critical skills.",
    "During fiscal year 2021, approximately 46,000 Acme employees generated $12.9 billion.",
    "We protect approximately 50,000 people who work in our plants across the world.",
]


def _passage(text: str, version: str = "FY2022") -> Passage:
    return Passage(
        passage_id="p-1",
        doc_id="ACME_10K",
        version=version,
        page=4,
        text=text,
        char_start=0,
        char_end=len(text),
        authority="primary",
    )


def _ask(question: str):  # type: ignore[no-untyped-def]
    return headcount_ask(question, profile_question(question, as_of=AS_OF))


class TestPeopleCounts:
    def test_scopes_read_from_the_words_after(self) -> None:
        counts = people_counts(THREE_SCOPES)
        assert [(c.value, c.scope) for c in counts] == [
            ("93,516", "whole"),
            ("37,412", "inside"),
            ("56,104", "outside"),
        ]
        assert [(c.value, c.scope) for c in people_counts(WHOLE_AND_US)] == [
            ("315,000", "whole"),
            ("132,000", "inside"),
        ]

    def test_two_years_and_a_union_sentence(self) -> None:
        """The union members a run-on sentence also states are no head count."""
        assert [c.value for c in people_counts(TWO_YEARS)] == ["156,000", "142,000"]
        assert people_counts(TWO_YEARS)[0].name == "Acme’s total workforce"

    @pytest.mark.parametrize("sentence", NOT_EMPLOYED)
    def test_people_not_employed_by_the_filer(self, sentence: str) -> None:
        assert people_counts(sentence) == []


class TestAsk:
    @pytest.mark.parametrize(
        ("question", "scope", "change"),
        [
            ("What was Acme's global headcount at the end of 2021?", "whole", None),
            ("Acme total employees at 30 June 2021?", "whole", None),
            ("How many people did Acme employ outside the United States in 2022?", "outside", None),
            ("how many Acme staff were based in the US at year end 2019", "inside", None),
            (
                "How many of Acme's 2017 year-end employees worked outside the U.S.?",
                "outside",
                None,
            ),
            ("Acme headcount growth in percent, 2022 vs 2021?", "whole", Operation.PERCENT_CHANGE),
            (
                "By how many people did Acme's total workforce grow from 2021 to 2022?",
                "whole",
                Operation.DIFFERENCE,
            ),
        ],
    )
    def test_asked(self, question: str, scope: str, change: Operation | None) -> None:
        ask = _ask(question)
        assert ask is not None
        assert (ask.scope, ask.change) == (scope, change)

    @pytest.mark.parametrize(
        "question",
        [
            "How many union members did Acme have in 2022?",
            "What percentage of Acme's employees are outside the US?",
            "How many employees did Acme have in Europe at the end of 2022?",
            "What was the headcount of Acme's Rigid Packaging segment in 2021?",
            "How many more people did Acme employ internationally than in the United States?",
            "Acme rigid packaging headcount FY22?",
            "How many people sat on Acme's board of directors in 2022?",
            "How many people bought Acme products in 2022?",
            "What was Acme's net revenue in 2022?",
        ],
    )
    def test_not_a_count_of_the_filer(self, question: str) -> None:
        assert _ask(question) is None


def _answer(question: str, *sentences: str, version: str = "FY2022") -> Claim | int | None:
    ask = _ask(question)
    assert ask is not None
    return headcount_claims(ask, [(_passage(s, version), s) for s in sentences])


class TestHeadcountClaims:
    def test_stated_count_of_the_asked_scope_and_year(self) -> None:
        question = "How many people did Acme employ within the United States at the end of 2018?"
        assert _answer(question, WHOLE_AND_US, THREE_SCOPES) == 1
        assert _answer("Acme headcount 2022?", THREE_SCOPES, WHOLE_AND_US) == 1

    def test_another_year_is_no_answer(self) -> None:
        assert _answer("Acme headcount at the end of 2019?", THREE_SCOPES) is None

    def test_a_sentence_naming_no_year_is_of_its_filing(self) -> None:
        assert _answer("Acme number of employees FY2022?", NO_YEAR) == 0
        assert _answer("Acme number of employees FY2021?", NO_YEAR) is None

    def test_two_years_counts_by_their_order(self) -> None:
        assert _answer("What was Acme's headcount at the end of 2021?", TWO_YEARS) == 0

    def test_outside_is_the_whole_less_the_us(self) -> None:
        claim = _answer(
            "How many people did Acme employ outside the United States at the end of 2022?",
            WHOLE_AND_US,
        )
        assert isinstance(claim, Claim) and claim.derivation is not None
        assert claim.derivation.operation is Operation.DIFFERENCE
        assert [o.value for o in claim.derivation.operands] == ["315,000", "132,000"]
        assert claim.derivation.result == "183,000"
        assert "a difference of 183,000 people employed outside the United States" in claim.text
        assert claim.citations[0].quote == WHOLE_AND_US
        assert check_derivation(claim, [True]) == []

    def test_a_whole_is_never_summed_nor_a_count_taken_from_a_share(self) -> None:
        assert _answer("Acme total headcount at the end of 2022?", "Acme had 3 plants.") is None
        question = "How many employees did Acme have outside the US in 2022?"
        assert _answer(question, TWO_YEARS) is None

    @pytest.mark.parametrize(
        ("question", "result", "phrase"),
        [
            ("By how many people did Acme's workforce grow from 2021 to 2022?", "14,000", "14,000"),
            ("Acme headcount growth in percent, 2022 vs 2021?", "9.9%", "an increase of 9.9%"),
        ],
    )
    def test_change_between_two_years(self, question: str, result: str, phrase: str) -> None:
        claim = _answer(question, TWO_YEARS)
        assert isinstance(claim, Claim) and claim.derivation is not None
        assert claim.derivation.result == result
        assert phrase in claim.text
        assert claim.text.startswith("Acme’s total workforce: 156,000 in 2022 compared with")
        assert check_derivation(claim, [True]) == []

    def test_a_tampered_result_fails_verification(self) -> None:
        claim = _answer("By how many people did Acme's workforce grow in 2022 vs 2021?", TWO_YEARS)
        assert isinstance(claim, Claim) and claim.derivation is not None
        wrong = claim.model_copy(
            update={"derivation": claim.derivation.model_copy(update={"result": "15,000"})}
        )
        assert check_derivation(wrong, [True]) != []

    def test_one_year_stated_is_no_change(self) -> None:
        assert _answer("Acme headcount growth 2022 vs 2021 in percent?", WHOLE_AND_US) is None


class TestDrafted:
    def test_the_generator_drafts_the_count_sentence(self) -> None:
        corpus = InMemoryCorpus()
        page = (
            "Human Capital\n"
            "Employee share-based payments in 2018 were $(0.5) million for the plan.\n"
            f"{THREE_SCOPES}\n"
        )
        corpus.add("ACME_2018_10K", "FY2018", dt.date(2019, 2, 8), [page])
        question = "How big was Acme's workforce at the end of 2018?"
        evidence = corpus.search(question, as_of=AS_OF, limit=4)
        draft = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF)
        assert [c.text for c in draft.claims] == [THREE_SCOPES]


BLOCKS = (
    "Income Before Tax by Segment\n"
    "Income Before Tax Segment Sales Percent of Segment Sales\n"
    "(Dollars in Millions) 2022 2021 2022 2021 2022 2021\n"
    "Consumer Health $ 2,930 1,573 14,953 15,035 19.6 % 10.5\n"
    "Pharmaceutical 15,901 17,969 52,563 51,680 30.3 34.8\n"
    "MedTech 4,607 4,373 27,427 27,060 16.8 16.2\n"
)


class TestUnitOpenedBlocks:
    def test_each_block_named(self) -> None:
        cells = [c for c in table_cells(BLOCKS) if c.label == "Pharmaceutical"]
        assert [(c.block, c.year, c.value) for c in cells] == [
            ("Income Before Tax", 2022, "15,901"),
            ("Income Before Tax", 2021, "17,969"),
            ("Segment Sales", 2022, "52,563"),
            ("Segment Sales", 2021, "51,680"),
            ("Percent of Segment Sales", 2022, "30.3"),
            ("Percent of Segment Sales", 2021, "34.8"),
        ]
        assert table_title(BLOCKS, cells[2]) == "Segment Sales"

    def test_a_line_opened_by_other_words_names_no_blocks(self) -> None:
        text = BLOCKS.replace("(Dollars in Millions)", "Amounts shown")
        assert {c.block for c in table_cells(text)} == {""}

    def test_the_asked_block_gives_the_change_quoted_whole(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add("ACME_10K", "FY2022", dt.date(2023, 2, 8), [BLOCKS])
        question = "In dollars, how much did Acme's Pharmaceutical segment sales change in 2022?"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        evidence = corpus.search(question, as_of=AS_OF, limit=4)
        found = derived_candidates(request, evidence, corpus)
        assert [c.result for c in found] == ["883"]
        # "MedTech 4,607 4,373" is too short a quote: the row's whole line is quoted.
        question = "How much did Acme's MedTech income before tax change from 2021 to 2022?"
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        found = derived_candidates(request, corpus.search(question, as_of=AS_OF, limit=4), corpus)
        assert [c.result for c in found] == ["234"]
        quotes = [c.quote for c in found[0].claim().citations]
        assert quotes[0] == "MedTech 4,607 4,373 27,427 27,060 16.8 16.2"
