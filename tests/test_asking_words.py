"""The words by which a question asks are no detail of what it asks about.

"What charges did PepsiCo record" is answered by the row "Restructuring and impairment
charges 411": no statement says "record". "How much did 3M spend on capital expenditures" is
answered by "Purchases of property, plant and equipment (1,577)". "Refund deadline?" is
answered by "shall refund ... within 3 business days". Why the asker asks ("For my capex deck:",
"? computing R&D intensity") is not asked at all. The checks still refuse a row or a sentence
that states something else.
"""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import normalise_question, profile_question
from evidencegate.critique.rules import (
    _PLACE,
    RulesCritic,
    _asking_words,
    _reported_verb,
    _states_time,
)
from evidencegate.testing import InMemoryCorpus
from evidencegate.text import terms
from tests.audit_support import audit_missing

AS_OF = dt.date(2024, 6, 1)


def _corpus(doc_id: str, pages: list[str]) -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(doc_id, "1", dt.date(2020, 1, 1), pages)
    return corpus


def _missing(corpus: InMemoryCorpus, question: str, quote: str) -> list[str]:
    """The facts the critic finds missing when the answer quotes ``quote`` alone."""
    return audit_missing(corpus, question, [quote], as_of=AS_OF)


def _of(missing: list[str], *kinds: str) -> list[str]:
    return [f for f in missing if f.startswith(kinds)]


class TestTheVerbOfAReport:
    def test_the_verb_a_filer_is_asked_to_have_reported(self) -> None:
        question = "What restructuring charges did PepsiCo record under its plan in 2022?"
        assert _reported_verb(question) == ["record"]
        assert _reported_verb("How much did Johnson & Johnson's Pharmaceutical segment sell?") == [
            "sell"
        ]
        # Not a verb of what a rule asks someone to do ("what must a creditor record").
        assert _reported_verb("What must a creditor record about the applicant?") == []
        assert _reported_verb("Which records did the examiner review?") == []

    def test_a_row_answers_what_the_filer_recorded(self) -> None:
        corpus = _corpus(
            "INITECH_2022_10K",
            [
                "Initech 2022 annual report. Consolidated statement of income "
                "(in millions)\nRestructuring and impairment charges 411\n"
                "Selling, general and administrative expenses 1,200"
            ],
        )
        question = "What restructuring and impairment charges did Initech record in 2022?"
        right = "Restructuring and impairment charges 411"
        assert not _of(_missing(corpus, question, right), "focus: ", "topic: ")
        wrong = "Selling, general and administrative expenses 1,200"
        assert _of(_missing(corpus, question, wrong), "focus: ", "topic: ")


class TestTheWordsAskingForAFigure:
    def test_a_capex_row_answers_how_much_was_spent(self) -> None:
        corpus = _corpus(
            "INITECH_2022_10K",
            [
                "Consolidated statement of cash flows (Dollars in millions) 2022\n"
                "Purchases of property, plant and equipment (PP&E) (1,577)\n"
                "Net cash provided by operating activities 6,439"
            ],
        )
        question = "How much did the company spend on capital expenditures in 2022?"
        right = "Purchases of property, plant and equipment (PP&E) (1,577)"
        assert not _of(_missing(corpus, question, right), "focus: ", "topic: ")
        wrong = "Net cash provided by operating activities 6,439"
        assert _missing(corpus, question, wrong)

    def test_a_time_states_the_deadline_asked(self) -> None:
        assert _states_time("The provider shall refund the funds within 3 business days.")
        assert _states_time(
            "Install updates within [Assignment: organization-defined time period]."
        )
        assert _states_time("Submit the register by March 1 following the calendar year.")
        assert not _states_time("The provider shall refund the funds to the sender.")
        # The nouns asking for a time are no words of the figure's asking (the focus keeps
        # them, and a claim stating a time states them).
        duration = profile_question("Refund deadline after a sender cancels?", as_of=AS_OF)
        assert duration.answer_type == "duration"
        assert "deadline" not in _asking_words(duration)

    def test_a_time_stands_for_the_deadline_only_beside_the_rest_of_the_focus(self) -> None:
        corpus = _corpus(
            "HSB-POL-1",
            [
                "6. Refunds. The Bank shall refund the fee to the customer within 10 business "
                "days of receiving the cancellation request.",
                "7. Gifts. Every gift must be recorded in the Gifts Register within 10 business "
                "days of the offer.",
            ],
        )
        right = (
            "The Bank shall refund the fee to the customer within 10 business days of "
            "receiving the cancellation request."
        )
        assert not _of(
            _missing(corpus, "Fee refund deadline after cancellation?", right), "focus: "
        )
        # A time of another act ("recorded") does not answer the managers' review deadline.
        wrong = (
            "Every gift must be recorded in the Gifts Register within 10 business days of the "
            "offer."
        )
        question = "Gifts Register review by managers - deadline in days?"
        assert _missing(corpus, question, wrong)


class TestWhyTheAskerAsks:
    def test_a_purpose_before_or_after_the_question_is_dropped(self) -> None:
        assert (
            normalise_question("For my capex benchmarking deck: what did Initech book in 2022?")
            == "what did Initech book in 2022?"
        )
        assert normalise_question("I'm computing EBITDA: what was Initech's D&A?") == (
            "what was Initech's depreciation and amortization?"
        )
        assert normalise_question("How much did Initech spend on R&D? computing R&D intensity") == (
            "How much did Initech spend on research and development?"
        )
        assert (
            normalise_question("Where are audit records kept? asking for our design doc")
            == "Where are audit records kept?"
        )

    def test_what_is_asked_for_stays(self) -> None:
        for question in (
            "What is the threshold for leases consummated in 2013?",
            "How long must records be kept for the review?",
            "What must the notice for the borrower contain?",
        ):
            assert normalise_question(question) == question
        # The words of the purpose are no terms of the question.
        terms = profile_question(
            "What were Initech's R&D expenses in 2021? computing R&D intensity", as_of=AS_OF
        ).terms
        assert "intensity" not in terms and "comput" not in terms


class TestAFocusWordOfTheAsking:
    """A focus word asking for a time or for the whole figure is stated by the time or the
    row the claims state, beside every other word of the focus."""

    @staticmethod
    def covered(fact: str, question: str, claim: str) -> bool:
        said = claim + _PLACE
        return RulesCritic()._fact_covered(
            fact, profile_question(question, as_of=AS_OF), [said], pool=terms(claim)
        )

    def test_the_row_of_the_whole_figure_need_not_say_total(self) -> None:
        question = "What was the total net revenue of Initech in 2022?"
        assert self.covered("focus: total", question, "Net revenue, 2022: $86,392")
        assert not self.covered("focus: total cost", question, "Net revenue, 2022: $86,392")

    def test_a_time_stands_for_the_deadline_beside_every_other_word(self) -> None:
        right = "The Bank shall refund the fee within 10 business days of the request."
        question = "Fee refund deadline after cancellation?"
        assert self.covered("focus: refund deadline", question, right)
        assert self.covered("focus: deadline", question, right)
        assert not self.covered("focus: deadline", question, "The Bank shall refund the fee.")
        wrong = "Every gift must be recorded in the Gifts Register within 10 business days."
        question = "Gifts Register review by managers - deadline in days?"
        assert not self.covered("focus: manager deadline", question, wrong)
