"""Drafting by what the answer must be: a series for a question asking which things, the
sibling items of one lead-in that the question cannot tell apart, and the rule on the case a
yes/no question sets out."""

from __future__ import annotations

import datetime as dt

from conftest import labelled_paragraph

from evidencegate.contracts import Passage
from evidencegate.generation.extractive import ExtractiveGenerator, _enumerates

AS_OF = dt.date(2021, 3, 1)


def _paragraph(label: str, page: int, text: str, *, context: str) -> Passage:
    return labelled_paragraph("Rulebook 88", label, page, text, context=context)


def _drafted(question: str, evidence: list[Passage]) -> list[str]:
    return [c.text for c in ExtractiveGenerator().draft(question, evidence, as_of=AS_OF).claims]


def test_a_series_is_told_from_a_clause_with_commas() -> None:
    assert _enumerates("Phishing includes spoofed mail, fake invoices, lookalike domains, and SMS.")
    assert _enumerates("It covers preparation, detection and analysis, containment and recovery;")
    assert _enumerates("Review the plan annually, after an incident, or when staff change.")
    # A parenthesis is an aside; clauses joined by commas are no series.
    assert not _enumerates(
        "Within three days (excluding holidays, Saturdays, and Sundays) it acts."
    )
    assert not _enumerates(
        "If the customer notifies the bank, the liability shall not exceed $50, and the bank pays."
    )
    assert not _enumerates("Train staff on recognizing and reporting social engineering.")


def test_which_things_is_answered_by_the_sentence_naming_them() -> None:
    """The requirement restating the question's words names no technique; the sentence listing
    them answers "which techniques"."""
    text = (
        "The awareness training must cover recognizing and reporting social engineering. "
        "Such techniques include phishing, pretexting, baiting, and tailgating."
    )
    rule = _paragraph("88-2-c", 1, text, context="Section 88.2 Awareness training.")
    other = _paragraph(
        "88-3-a",
        2,
        "Training records must be kept for three years after the training.",
        context="Section 88.3 Records.",
    )
    question = "Which techniques of social engineering must the awareness training cover?"
    assert _drafted(question, [rule, other]) == [
        "Such techniques include phishing, pretexting, baiting, and tailgating."
    ]


def test_items_of_one_lead_in_tied_are_both_drafted() -> None:
    """Two items under one lead-in, each a passage of its own, that the question's words do
    not tell apart: both are the answer, not the first one read."""
    context = "§ 88.35 Error resolution."
    lead = _paragraph(
        "88-35-e", 1, "A servicer shall respond to a notice of error:", context=context
    )
    first = _paragraph(
        "88-35-e-1", 2, "Not later than 7 business days, for a payoff statement;", context=context
    )
    second = _paragraph(
        "88-35-e-2", 3, "Not later than 30 business days, in any other case.", context=context
    )
    question = "By when must a servicer respond to a notice of error?"
    drafted = _drafted(question, [lead, first, second])
    assert drafted == [f"{lead.text} {first.text}", f"{lead.text} {second.text}"]


def test_a_yes_no_ask_about_a_scenario_reads_the_scenario() -> None:
    """ "Does the rulebook treat that as ...?" asks whether the scenario is such a case: the
    sentence on that case answers, not the one repeating the ask's words."""
    context = "Section 88.7 Advertising. Multi-page advertisements."
    catalog = _paragraph(
        "88-7-c-1",
        1,
        "A catalog or other multi-page advertisement is treated as one advertisement.",
        context=context,
    )
    mailing = _paragraph(
        "88-7-c-2",
        2,
        "A mailing of several separate flyers in a single envelope is not a single multi-page "
        "advertisement.",
        context=context,
    )
    question = (
        "Our promo went out as five separate flyers in one envelope. Does the rulebook treat "
        "that as one multi-page advertisement?"
    )
    assert _drafted(question, [catalog, mailing])[0] == mailing.text


def test_a_worked_example_is_answered_after_the_sentences_setting_it_out() -> None:
    """The question gives the example's figures; the sentence answering it states only the
    result, its case is set out in the sentences before it: the two are drafted together."""
    text = (
        "A customer sends US$200 abroad and pays a transfer fee of US$12. The receiving bank "
        "deducts a fee of US$8 from the amount sent. The transfer is not delivered because the "
        "customer gave a wrong account number. The provider must then refund US$192 to the "
        "customer within three business days."
    )
    example = _paragraph("88-33-c-1", 1, text, context="Section 88.33 Comment 1. Example.")
    rule = _paragraph(
        "88-33-c",
        2,
        "If a transfer is not delivered because the customer gave incorrect information, the "
        "provider must refund the funds and the fees to the customer within three business "
        "days, unless the customer chooses to apply them to a new transfer.",
        context="Section 88.33 Errors. Incorrect information.",
    )
    question = (
        "In the example where a US$200 transfer with a US$12 fee and an US$8 receiving bank fee "
        "is not delivered because of the customer's wrong information, what is refunded?"
    )
    (claim,) = ExtractiveGenerator().draft(question, [rule, example], as_of=AS_OF).claims
    assert claim.text == text
    assert [c.quote for c in claim.citations] == [
        text[: text.index(" The provider must")],
        "The provider must then refund US$192 to the customer within three business days.",
    ]
