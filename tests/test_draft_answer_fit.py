"""Drafting by what the answer must be: a series for a question asking which things, and the
sibling items of one lead-in that the question cannot tell apart."""

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
