"""Drafting what answers when the answer sentence alone does not say it: the sibling items of
one lead-in that the question cannot tell apart, and a worked example's answer read after the
sentences setting out the question's figures."""

from __future__ import annotations

import datetime as dt

from conftest import labelled_paragraph

from evidencegate.contracts import Passage
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2021, 3, 1)


def _paragraph(label: str, page: int, text: str, *, context: str) -> Passage:
    return labelled_paragraph("Rulebook 88", label, page, text, context=context)


def _drafted(question: str, evidence: list[Passage]) -> list[str]:
    return [c.text for c in ExtractiveGenerator().draft(question, evidence, as_of=AS_OF).claims]


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
