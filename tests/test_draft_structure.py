"""Selection by the structure of the question and of the rule text: the type of the sentence
that asks, parallel sibling rules, a rule added to another provision's case, the thing asked."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import labelled_paragraph

from evidencegate.analysis import answer_type
from evidencegate.contracts import Passage
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2021, 3, 1)


def _paragraph(label: str, page: int, text: str, *, context: str) -> Passage:
    """A paragraph of a made-up rulebook, one page per labelled paragraph."""
    return labelled_paragraph("Rulebook 77", label, page, text, context=context)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The scenario's figure ($35, income) is the case; the sentence that asks says what.
        ("A courier brought me a $35 hamper from a client. May I keep it?", "yes_no"),
        ("Borrower qualifies on her own income. Can we require her husband to co-sign?", "yes_no"),
        # An ask that only points back is typed with the scenario ("What is it?").
        ("The desk wants this year's dollar cap on small leases. What is it?", "amount"),
        # A case clause with a thousands separator still ends at its own comma.
        ("If a refund exceeds $2,500, whose sign-off is required?", "entity"),
        ("What is the maximum interval between two key rotations?", "duration"),
        ("The card went missing on Friday. What's the most the customer can lose?", "amount"),
    ],
)
def test_the_sentence_that_asks_sets_the_type(question: str, expected: str) -> None:
    assert answer_type(question) == expected


def test_parallel_sibling_rules_are_both_drafted() -> None:
    """Two sentences of one paragraph stating the rule for parallel cases, fitting the question
    equally: both are the answer, not the first one read."""
    text = (
        "Where a lender uses the short form, the borrower must be offered the choice to list "
        "more than one employer. Where a lender uses the long form, the borrower must be offered "
        "the choice to list more than one employer and more than one income source."
    )
    paragraph = _paragraph("77-4-b", 1, text, context="Section 77.4 Income forms.")
    other = _paragraph(
        "77-5-a",
        2,
        "A lender must keep each income form for two years after the decision.",
        context="Section 77.5 Records.",
    )
    question = "What choice must the borrower be offered on the lender's form?"
    draft = ExtractiveGenerator().draft(question, [paragraph, other], as_of=AS_OF)
    assert len(draft.claims) == 2
    assert all("must be offered the choice" in claim.text for claim in draft.claims)


def test_one_sentence_stays_one_claim_without_a_tie() -> None:
    """A sibling fitting less well is no part of the answer."""
    text = (
        "A lender must send the borrower a copy of each valuation within 3 business days of "
        "receiving it. A lender may charge a reasonable fee for a second copy of a valuation."
    )
    paragraph = _paragraph("77-6-a", 1, text, context="Section 77.6 Valuations.")
    question = "Within how many business days must a lender send the borrower the valuation copy?"
    draft = ExtractiveGenerator().draft(question, [paragraph], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [
        "A lender must send the borrower a copy of each valuation within 3 business days of "
        "receiving it."
    ]


def test_a_rule_added_to_another_provisions_case_is_not_the_rule() -> None:
    """ "For requests subject to paragraph (a)(1) ..., a lender shall give ... a notice of the
    right to a copy" adds a notice to the case (a)(1) sets; (a)(1) states when the copy is
    given."""
    own = _paragraph(
        "77-6-a-1",
        1,
        "A lender shall give the borrower a copy of each appraisal promptly upon completion, or "
        "3 business days before closing.",
        context="Section 77.6 Appraisals. Copies.",
    )
    added = _paragraph(
        "77-6-a-2",
        2,
        "For requests subject to paragraph (a)(1) of this section, a lender shall give the "
        "borrower, within 3 business days of the request, a notice of the right to a copy of "
        "each appraisal.",
        context="Section 77.6 Appraisals. Notice of the right to a copy.",
    )
    question = "When must a lender give the borrower a copy of the appraisal?"
    draft = ExtractiveGenerator().draft(question, [added, own], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [own.text]
    # A question naming the provision may ask about the rule added to its case.
    named = "Under paragraph (a)(1), by when must the lender give notice of the right to a copy?"
    draft = ExtractiveGenerator().draft(named, [added, own], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [added.text]


def test_the_thing_asked_is_named_by_its_answer() -> None:
    """ "What option must the member get": the sentence naming the option, not one on what the
    firm must tell the member, however many of the question's words it shares."""
    option = _paragraph(
        "77-8-b",
        1,
        "The member must be offered the option to get paper statements instead.",
        context="Section 77.8 Statements.",
    )
    tell = _paragraph(
        "77-8-c",
        2,
        "The firm must tell the member how to get electronic statements.",
        context="Section 77.8 Statements.",
    )
    question = "Electronic statements: what option must the member get?"
    draft = ExtractiveGenerator().draft(question, [tell, option], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [option.text]


def test_a_bare_item_is_drafted_with_the_provision_naming_its_paragraph() -> None:
    """An item under the heading "Exclusions." ("A loan secured by a boat of any size.")
    states nothing by itself; the section's sentence referring to paragraph (c) says what the
    items of (c) are."""
    scope = _paragraph(
        "77-3-a",
        1,
        "This part covers every consumer loan, except for the exclusions listed in paragraph (c) "
        "of this section.",
        context="Section 77.3 Coverage. Scope.",
    )
    item = _paragraph(
        "77-3-c-1",
        2,
        "A loan secured by a boat of any size.",
        context="Section 77.3 Coverage. Exclusions.",
    )
    other = _paragraph(
        "77-9-a",
        3,
        "A lender must tell the borrower of any loan fee before the loan is made.",
        context="Section 77.9 Fees.",
    )
    question = "Is a loan secured by a boat of any size excluded?"
    draft = ExtractiveGenerator().draft(question, [item, other, scope], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [scope.text, item.text]
    # An item stating a rule of its own is drafted alone.
    ruled = _paragraph(
        "77-3-c-1",
        2,
        "A loan secured by a boat of any size is excluded.",
        context="Section 77.3 Coverage. Exclusions.",
    )
    draft = ExtractiveGenerator().draft(question, [ruled, other, scope], as_of=AS_OF)
    assert [claim.text for claim in draft.claims] == [ruled.text]
