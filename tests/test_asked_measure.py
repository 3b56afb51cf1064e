"""The measure a question asks a figure of by naming it ("Globex headcount?", "the fine for a
late filing", "at what age"), and the critic's refusal of claims that state no figure of that
kind: a share of women is no head count, a disciplinary matter no fine, an increase in dollars
no percentage."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import asked_measure, profile_question, states_measure
from evidencegate.lexicon import figure_kinds
from tests.audit_support import claim

AS_OF = dt.date(2024, 6, 1)


def test_the_mined_nouns_say_what_kind_of_figure_they_ask() -> None:
    assert figure_kinds("headcount") == {"count"}
    assert figure_kinds("salaries") == {"money"}
    assert figure_kinds("fines") == {"money"}
    assert figure_kinds("age") == {"age"}
    assert "proportion" in figure_kinds("turnover")
    assert figure_kinds("workforce") == {"group"}
    # a noun whose first sense is no measure asks no figure for certain
    assert figure_kinds("penalty") == frozenset()
    assert figure_kinds("cushion") == frozenset()


@pytest.mark.parametrize(
    ("question", "noun", "kinds"),
    [
        ("Globex headcount at the end of 2023?", "headcount", {"count"}),
        ("What is Initech's global workforce size?", "size", {"count"}),
        ("Roughly how big is Initech's staff?", "staff", {"count"}),
        ("At what age may a member draw the pension?", "age", {"age"}),
        ("How old must an applicant be?", "age", {"age"}),
        ("What's the fine for a late filing?", "fine", {"money"}),
        ("What was the CEO's average salary in 2023?", "salary", {"money"}),
        ("How much percent did Globex revenue grow in 2023?", "percent", {"proportion"}),
        ("Initech voluntary attrition %?", "percent", {"proportion"}),
        ("What was Globex's same-store sales growth in 2023?", "growth", {"change"}),
        ("How much did Initech revenue increase in 2023?", "increase", {"change"}),
        # "fall outside" places the lease; the amount is asked
        ("Above what amount does a lease fall outside the rule?", "amount", {"money"}),
        # the dollar fine is asked, whatever deadline the case names
        ("What is the dollar fine for a firm that misses the filing deadline?", "fine", {"money"}),
    ],
)
def test_the_asked_measure_is_read_from_the_question(
    question: str, noun: str, kinds: set[str]
) -> None:
    measure = asked_measure(question)
    assert measure is not None
    assert measure.noun == noun
    assert kinds <= measure.kinds


@pytest.mark.parametrize(
    "question",
    [
        "How is the fine calculated?",
        "What does 'finance charge' mean?",
        "Which fee applies to a wire transfer?",
        "When is the annual fee due?",
        "Is the fee refundable?",
        # the window is asked, not the remittance
        "remittance cancellation window?",
        "What must the notice say about the fee?",
        "How long must the fee records be kept?",
        "What is the fee deadline?",
        # a verb that spells a measure noun
        "What counts as lending to the government?",
        # two figures side by side, not a change
        "How did Globex revenue in 2023 compare with 2022, and did it grow?",
    ],
)
def test_a_question_asking_something_else_asks_no_measure(question: str) -> None:
    assert asked_measure(question) is None


def test_a_figure_of_the_asked_kind() -> None:
    count, money = frozenset({"count"}), frozenset({"money"})
    age, share = frozenset({"age"}), frozenset({"proportion"})
    assert states_measure("Our workforce was approximately 156,000 at year end.", count)
    assert states_measure("Employees 155,800", count)
    assert not states_measure("As of December 31, 2023, the workforce was 23% women.", count)
    assert not states_measure("4.1 Staff must report gifts by June 30.", count)
    assert states_measure("Elderly means age 62 or older.", age)
    assert states_measure("A member may retire at 62 years of age.", age)
    assert not states_measure("A member may retire after ten years of service.", age)
    assert states_measure("The fine is $5,000 per violation.", money)
    assert states_measure("Revenue was 1,200 million.", money)
    assert not states_measure("9.2 A breach of this policy is a disciplinary matter.", money)
    assert states_measure("no greater than one-sixth of the annual disbursements", share)
    assert states_measure("Sales grew 4.2% in 2023.", share)
    assert not states_measure("Sales increased by $1,200 million in 2023.", share)


def test_the_critic_refuses_claims_without_a_figure_of_the_asked_kind() -> None:
    from evidencegate.critique.rules import _measure_unstated

    def missing(question: str, text: str) -> str | None:
        return _measure_unstated(profile_question(question, as_of=AS_OF), [claim(text)])

    women = "As of December 31, 2023, our workforce was approximately 23% women."
    total = "As of December 31, 2023, our total workforce was approximately 156,000."
    assert missing("Globex headcount 2023?", women) == (
        "figure: the headcount asked, as count (the claims state none)"
    )
    assert missing("Globex headcount 2023?", total) is None
    breach = "9.2 A breach of this policy is a disciplinary matter and may lead to dismissal."
    assert missing("What's the fine for breaching the gifts policy?", breach) is not None
    assert missing("What's the fine for breaching the gifts policy?", "The fine is $500.") is None
    dollars = "Net sales increased $1.2 billion in 2023."
    assert missing("How much percent did Globex net sales grow in 2023?", dollars) is not None
    assert missing("How much percent did Globex net sales grow in 2023?", "up 4.2%") is None
    service = "Employees may retire after completing ten years of service."
    assert missing("At what age can employees retire?", service) is not None
    assert missing("At what age can employees retire?", "at age 55") is None
    two = "Revenue was $5,100 million in 2023 and $4,900 million in 2022."
    grew = "Revenue increased $200 million in 2023."
    assert missing("Globex revenue growth 2023?", two) is not None
    assert missing("Globex revenue growth 2023?", grew) is None
    # no measure asked: left to the other facts
    assert missing("Why did Globex net sales grow?", dollars) is None
    assert _measure_unstated(profile_question("Globex headcount?", as_of=AS_OF), []) is None
