"""Questions asking for an enumeration ("what must the notice include", "which kinds of
information must be backed up") are answered by the list: its items together after their
lead-in, each quoted from its own passage; and the rules critic does not take one item of a
list whose siblings the evidence holds as the whole answer."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import labelled_paragraph

from evidencegate.analysis import profile_question
from evidencegate.contracts import Citation, Claim, Passage
from evidencegate.corpus.scope import asks_enumeration, names_a_series
from evidencegate.critique.rules import KIND, _list_incomplete
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2019, 6, 30)


def asks(question: str) -> bool:
    return asks_enumeration(question, profile_question(question, as_of=AS_OF))


def paragraph(label: str, page: int, text: str) -> Passage:
    """A paragraph of a made-up CFR part, one page per labelled paragraph."""
    return labelled_paragraph(
        "12 CFR 1099", label, page, text, context=f"{label}\n§ 1099.9 Delinquency notice."
    )


LEAD = paragraph(
    "1099-9-b", 1, "The written delinquency notice sent to the borrower shall include:"
)
ITEMS = [
    paragraph("1099-9-b-1", 2, "A statement encouraging the borrower to contact the lender;"),
    paragraph("1099-9-b-2", 3, "The telephone number of the lender's servicing staff; and"),
    paragraph("1099-9-b-3", 4, "The address of a housing counseling agency."),
]
OTHER = paragraph(
    "1099-9-a",
    5,
    "A lender shall send the written delinquency notice to the borrower within 45 days of a "
    "missed payment.",
)


class TestEnumerationAsked:
    @pytest.mark.parametrize(
        "question",
        [
            "What must the delinquency notice include?",
            "what info has to be recorded for each visitor?",
            "Which kinds of information are we required to back up?",
            "What steps does the policy require when an employee leaves?",
            "What does each audit record have to contain?",
            "List what the incident response plan must cover.",
            "Which records must the creditor keep?",
        ],
    )
    def test_a_list_is_asked(self, question: str) -> None:
        """A question for what a text must hold, or which kinds, steps or details, asks
        for the items of a list."""
        assert asks(question)

    @pytest.mark.parametrize(
        "question",
        [
            "How many days does the lender have to send the delinquency notice?",
            "Does the notice have to include the lender's phone number?",
            "Who must sign the delinquency notice?",
            "Which control requires audit records to contain the source of the event?",
            "What is a delinquency notice?",
            "What were the 2022 net revenues of the sports drinks business?",
            "Can we charge a fee on idle cards, and after how long? What does the rule say?",
        ],
    )
    def test_no_list_is_asked(self, question: str) -> None:
        """A figure, a yes or no, a person, a provision or a meaning is not a list."""
        assert not asks(question)

    def test_a_series_of_three_is_a_list(self) -> None:
        """A sentence naming three things or more in a series states a list; two do not."""
        assert names_a_series(
            "Every destruction must be recorded with the category of Record, the date range, "
            "the method used and the name of the approving Record Owner."
        )
        assert not names_a_series("Paper records must be shredded, and files deleted.")


class TestItemsTogether:
    def test_items_of_their_own_passages_are_drafted_together(self) -> None:
        """The items under a lead-in, each a passage of its own, answer a question asking
        what the notice must include together, after the lead-in, in their order, each
        quoted from its own passage."""
        question = "What must the written delinquency notice to a borrower include?"
        draft = ExtractiveGenerator().draft(
            question, [OTHER, ITEMS[1], LEAD, *ITEMS[::2]], as_of=AS_OF
        )
        claim = draft.claims[0]
        assert claim.text == " ".join(p.text for p in (LEAD, *ITEMS))
        assert [(c.evidence_id, c.page, c.quote) for c in claim.citations] == [
            (p.label, p.page, p.text) for p in (LEAD, *ITEMS)
        ]

    def test_one_item_answers_a_question_asking_for_it(self) -> None:
        """A question asking for no list is answered by the item that states what it asks,
        after its lead-in, not by the whole list."""
        question = "Whose telephone number must the delinquency notice to a borrower give?"
        draft = ExtractiveGenerator().draft(question, [OTHER, LEAD, *ITEMS], as_of=AS_OF)
        assert draft.claims[0].text == f"{LEAD.text} {ITEMS[1].text}"

    def test_a_sentence_naming_the_items_answers_a_list_question(self) -> None:
        """Of a policy's sentences, the one naming the items of the record in a series
        answers what the record must contain, not a neighbour sharing the question's words."""
        text = (
            "6.1 Records must be destroyed within 90 days after the end of their retention "
            "period, and the destruction log must be kept up to date.\n\n"
            "6.3 Every destruction must be entered with the category of record, the date "
            "range, the method used and the name of the approving owner."
        )
        policy = Passage(
            passage_id="p",
            doc_id="POL-1",
            version="1",
            page=1,
            char_start=0,
            char_end=len(text),
            text=text,
            context="Destruction log\nRecord Retention Policy",
        )
        question = "What must be recorded in the destruction log for each destruction of records?"
        (claim, *_) = ExtractiveGenerator().draft(question, [policy], as_of=AS_OF).claims
        assert claim.text.startswith("6.3 Every destruction")


def _claim(*quoted: Passage) -> Claim:
    return Claim(
        claim_id="c-1",
        text=" ".join(p.text for p in quoted),
        citations=[
            Citation(
                doc_id=p.doc_id,
                version=p.version,
                page=p.page,
                quote=p.text,
                evidence_id=p.passage_id,
            )
            for p in quoted
        ],
    )


AC_8 = Passage(
    passage_id="ac-8",
    doc_id="NIST",
    version="5",
    page=1,
    char_start=0,
    char_end=0,
    label="AC-8",
    text=(
        "a. Display a system use notification to users that states that:\n"
        "    1. Users are accessing a U.S. Government system;\n"
        "    2. System usage may be monitored, recorded, and subject to audit;\n"
        "    3. Unauthorized use of the system is prohibited; and\n"
        "    4. Use of the system indicates consent to monitoring and recording;\n"
        "  b. Retain the notification message on the screen until users acknowledge it; and\n"
        "  c. For publicly accessible systems:\n"
        "    1. Display system use information before granting further access;\n"
        "    2. Include a description of the authorized uses of the system."
    ),
)
AC_8_LEAD = "a. Display a system use notification to users that states that:"


def _incomplete(question: str, claim: Claim, evidence: list[Passage]) -> str | None:
    supported = {c.evidence_id for c in claim.citations if c.evidence_id}
    return _list_incomplete(profile_question(question, as_of=AS_OF), [claim], supported, evidence)


def _catalog_claim(*quotes: str) -> Claim:
    return Claim(
        claim_id="c-2",
        text=" ".join(quotes),
        citations=[
            Citation(doc_id="NIST", version="5", page=1, quote=q, evidence_id="ac-8")
            for q in quotes
        ],
    )


class TestCriticListIncomplete:
    def test_one_item_of_its_own_passage_is_refused(self) -> None:
        """One item after its lead-in, its siblings in the evidence, does not answer a
        question asking what the notice must include."""
        question = "What must the written delinquency notice include?"
        claim = _claim(LEAD, ITEMS[0])
        assert _incomplete(question, claim, [LEAD, *ITEMS]) == (
            KIND + "the whole list (the claims state one item of it)"
        )
        # The items together answer; without siblings in the evidence nothing is known.
        assert _incomplete(question, _claim(LEAD, *ITEMS), [LEAD, *ITEMS]) is None
        assert _incomplete(question, claim, [LEAD, ITEMS[0]]) is None

    def test_one_item_of_a_catalog_list_is_refused(self) -> None:
        """One item of a control's list, its siblings in the same passage, does not answer
        what the banner must say; a sibling of another lead-in is no sibling."""
        question = "What must the logon banner say to users?"
        one = _catalog_claim(AC_8_LEAD, "1. Users are accessing a U.S. Government system;")
        assert _incomplete(question, one, [AC_8]) is not None
        retain = _catalog_claim(
            "b. Retain the notification message on the screen until users acknowledge it; and"
        )
        assert _incomplete(question, retain, [AC_8]) is not None

    def test_an_item_the_question_singles_out_answers(self) -> None:
        """A question naming what one item alone states ("system usage") asks for that item."""
        question = "What must the banner state regarding monitoring of system usage?"
        claim = _catalog_claim(
            AC_8_LEAD, "2. System usage may be monitored, recorded, and subject to audit;"
        )
        assert _incomplete(question, claim, [AC_8]) is None

    def test_no_list_asked_no_refusal(self) -> None:
        """A question asking no list is answered by one item."""
        question = "Does the banner have to say that users are accessing a Government system?"
        claim = _catalog_claim(AC_8_LEAD, "1. Users are accessing a U.S. Government system;")
        assert _incomplete(question, claim, [AC_8]) is None
