"""The rules critic refuses an answer to a value asked by its unit inside the question
("annual training hours for admins?") when no claim states a number in that unit (the control
leaves the value to the organisation), and lets through a claim stating one, a time without a
count ("permanently"), and questions whose unit names no count ("business hours", "board
minutes", "fiscal years 2021 and 2022", yes/no and who questions)."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import QuestionProfile, profile_question
from evidencegate.critique.rules import _unit_noun_unstated

AS_OF = dt.date(2019, 6, 1)
IR_2 = (
    "a. Provide incident response training to system users consistent with assigned roles and"
    " responsibilities: 1. Within [Assignment: organization-defined time period] of assuming an"
    " incident response role or responsibility or acquiring system access;"
)


def profile(question: str) -> QuestionProfile:
    return profile_question(question, as_of=AS_OF)


class TestValueLeftOpen:
    def test_a_value_the_catalog_leaves_open_is_refused(self) -> None:
        assert _unit_noun_unstated(profile("IR-2 annual training hours for admins?"), [IR_2]) == (
            "kind: a number of hours, where the claims state none"
        )

    def test_a_value_of_another_kind_is_refused(self) -> None:
        claim = "Staff who miss the conduct training are charged a fee of $50."
        question = "what are the conduct training hours for new staff?"
        assert _unit_noun_unstated(profile(question), [claim]) is not None

    def test_a_number_in_the_unit_or_of_the_same_measure_answers(self) -> None:
        claim = "Staff must complete the conduct training within 30 days of joining."
        question = "what are the conduct training hours for new staff?"
        assert _unit_noun_unstated(profile(question), [claim]) is None
        claim = "Administrators must complete 8 hours of incident response training each year."
        question = "IR-2 annual training hours for admins?"
        assert _unit_noun_unstated(profile(question), [claim]) is None

    def test_a_time_without_a_count_answers(self) -> None:
        claim = "Minutes of the Board and of its committees must be retained permanently."
        question = "retention years for committee papers, board packs etc?"
        assert _unit_noun_unstated(profile(question), [claim]) is None


class TestNoCountAsked:
    @pytest.mark.parametrize(
        "question",
        [
            "Are board minutes ever destroyed?",
            "Who signs the board minutes?",
            "what counts as business days for the acknowledgement?",
            "What was PepsiCo's net revenue in fiscal years 2021 and 2022?",
            "How many hours of training must admins complete?",  # the unit ask reads this one
            "how many loans must it originate in each of the two preceding calendar years?",
            "how many loans did it originate in the two preceding years?",
        ],
    )
    def test_no_fact_when_no_count_is_asked_here(self, question: str) -> None:
        claim = "The Board must approve the policy."
        assert _unit_noun_unstated(profile(question), [claim]) is None

    def test_no_answer_no_fact(self) -> None:
        assert _unit_noun_unstated(profile("IR-2 annual training hours for admins?"), []) is None
