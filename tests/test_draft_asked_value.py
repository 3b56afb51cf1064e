"""Drafting the sentence that states the value a question asks for: a calendar date for a
yearly act, an age, a fraction, the bound of an amount; and the occurrence of the act asked
about (the reminder rather than the first notice, the initial period rather than the
extended one, the yearly filing rather than the quarterly recording)."""

from __future__ import annotations

import datetime as dt

from conftest import labelled_paragraph

from evidencegate.analysis import profile_question
from evidencegate.contracts import Passage
from evidencegate.generation.extractive import ExtractiveGenerator, _asked_value

AS_OF = dt.date(2021, 3, 1)


def _paragraph(label: str, page: int, text: str, *, context: str) -> Passage:
    return labelled_paragraph("Rulebook 77", label, page, text, context=context)


def _drafted(question: str, evidence: list[Passage]) -> list[str]:
    return [c.text for c in ExtractiveGenerator().draft(question, evidence, as_of=AS_OF).claims]


def _asked(question: str) -> tuple[str | None, str | None, str | None]:
    value = _asked_value(question, profile_question(question, as_of=AS_OF))
    return value.kind, value.stage, value.cadence


def test_what_a_question_asks_is_read() -> None:
    assert _asked("By what date must the register be submitted?")[0] == "calendar_date"
    assert _asked("What's the deadline to send our annual register?") == (
        "yearly_date",
        None,
        "year",
    )
    assert _asked("From what age is an applicant elderly?")[0] == "age"
    assert _asked("What fraction of the yearly payments may be collected?")[0] == "fraction"
    assert _asked("What is the largest cushion a servicer may keep?")[0] == "bound"
    assert _asked("What is the maximum cushion amount a servicer may keep?")[0] == "relative_bound"
    # "What date must the notice include" asks which date a notice states, not a calendar date.
    assert _asked("What date must the notice include?")[0] is None
    # The stage is read in the ask: the scenario's "usual" period is not what is asked.
    question = "If it cannot answer within the usual 30 days, how much extra time may it take?"
    assert _asked(question)[1] == "later"
    assert _asked("How many days before charging must the first notice be sent?")[1] == "first"
    assert _asked("How many days does the bank have to investigate?") == (None, None, None)


def test_a_yearly_filing_deadline_is_the_calendar_date_not_the_quarterly_time_limit() -> None:
    """The deadline of a yearly filing: the sentence stating its date, not the quarterly
    recording rule's time limit, however many of the question's words that one shares."""
    quarterly = _paragraph(
        "77-4-f",
        1,
        "An institution shall record the data on its register within 30 calendar days after "
        "the end of each calendar quarter in which the application is decided.",
        context="§ 77.4 Compiling data. Quarterly recording of data.",
    )
    annual = _paragraph(
        "77-5-a",
        2,
        "By March 1 following the calendar year of the data, an institution shall submit its "
        "annual register to the agency.",
        context="§ 77.5 Reporting. Annual reporting.",
    )
    question = "What is the deadline to file our annual data register with the agency?"
    assert _drafted(question, [quarterly, annual]) == [annual.text]


def test_the_reminder_notice_is_not_answered_by_the_first_notice() -> None:
    """A question on the reminder notice: the sentence in the reminder notice's paragraph,
    not the first notice's time limit."""
    first = _paragraph(
        "77-37-c-1",
        1,
        "A servicer shall mail a written notice to the borrower at least 45 days before it "
        "charges the borrower for insurance it placed.",
        context="§ 77.37 Placed insurance. Requirements before charging. In general.",
    )
    reminder = _paragraph(
        "77-37-d-1",
        2,
        "The notice required by paragraph (c)(2) of this section shall be mailed to the "
        "borrower at least 15 days before the servicer charges the borrower for the insurance.",
        context="§ 77.37 Placed insurance. Reminder notice. In general.",
    )
    question = "How many days before charging the borrower must the reminder notice be mailed?"
    assert _drafted(question, [first, reminder]) == [reminder.text]
    # And the first notice's question is answered by the first notice.
    question = "How many days before charging the borrower must the first notice be mailed?"
    assert _drafted(question, [first, reminder]) == [first.text]


def test_an_age_is_answered_by_a_sentence_stating_an_age() -> None:
    favoured = _paragraph(
        "77-6-b",
        1,
        "A creditor may favor an elderly applicant in a credit scoring system that is sound.",
        context="§ 77.6 Rules concerning evaluation of applications. Age.",
    )
    defined = _paragraph(
        "77-2-o",
        2,
        "Elderly means an applicant of age 62 or older.",
        context="§ 77.2 Definitions.",
    )
    question = "From what age may a creditor favor an applicant as elderly?"
    assert _drafted(question, [favoured, defined]) == [defined.text]


def test_the_bound_of_an_amount_may_be_a_share_of_another() -> None:
    """The maximum cushion is stated as a share of the yearly payments ("no greater than
    one-sixth"), not by a sentence saying that the maximum amounts apply."""
    maximum = _paragraph(
        "77-17-c-8",
        1,
        "If the loan documents provide for escrow accounts up to the limits of this section, the "
        "servicer may require the maximum cushion amounts consistent with this section.",
        context="§ 77.17 Escrow accounts. Limits on payments to escrow accounts.",
    )
    share = _paragraph(
        "77-17-c-1",
        2,
        "The servicer may add an amount to maintain a cushion no greater than one-sixth of the "
        "estimated total annual payments from the escrow account.",
        context="§ 77.17 Escrow accounts. Limits on payments to escrow accounts.",
    )
    question = "What is the maximum escrow cushion amount a servicer may require?"
    assert _drafted(question, [maximum, share]) == [share.text]
