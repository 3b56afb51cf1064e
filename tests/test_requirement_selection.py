"""Which text answers "what does control X require": the control's statement, not its guidance,
not one of its enhancements, not a note on what a version changed."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import catalog_control

from evidencegate.analysis import is_normative, profile_question
from evidencegate.contracts import Passage
from evidencegate.corpus.retrieval import (
    _joined_asks,
    _with_each_ask,
    labelled_by,
    with_enhancements,
)
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2022, 6, 1)


def _policy(doc_id: str, title: str, text: str) -> Passage:
    """A page of a policy, read under its title."""
    return Passage(
        passage_id=doc_id.lower(),
        doc_id=doc_id,
        version="1",
        page=1,
        char_start=0,
        char_end=0,
        text=text,
        context=title,
    )


def _drafted(question: str, passages: list[Passage]) -> list[str]:
    draft = ExtractiveGenerator().draft(question, passages, as_of=AS_OF)
    return [c.text for c in draft.claims]


VENDOR_PLAN = catalog_control(
    "xv2",
    "XV-2",
    "Vendor Risk Plan",
    "a. Develop a plan for managing vendor risks of the following systems: [Assignment: "
    "organization-defined systems];\n  b. Review and update the vendor risk plan [Assignment: "
    "organization-defined frequency]; and\n  c. Protect the vendor risk plan from unauthorized "
    "disclosure and modification.\n\nManaging vendor risk is a complex undertaking that requires "
    "a coordinated effort across an organization. Vendor risk plans include an expression of "
    "the vendor risk tolerance of the organization and the controls that the plan requires.",
)
VENDOR_TEAM = catalog_control(
    "xv2-1",
    "XV-2(1)",
    "Vendor Risk Plan\nEstablish Vendor Risk Team",
    "Establish a vendor risk management team of [Assignment: organization-defined personnel] "
    "to lead the vendor risk plan activities of the organization and to review vendor risk.",
)


class TestRequirementQuestions:
    def test_the_whole_statement_not_guidance_that_says_requires(self) -> None:
        """A question naming only the control and its title asks for the whole statement: its
        items together, not a guidance sentence that happens to say "requires"."""
        drafted = _drafted(
            "What does control XV-2, Vendor Risk Plan, require?", [VENDOR_PLAN, VENDOR_TEAM]
        )
        assert len(drafted) == 1
        assert "a. Develop a plan" in drafted[0] and "c. Protect the vendor risk plan" in drafted[0]

    def test_the_control_not_its_enhancement(self) -> None:
        """ "XV-2" names the control, not its enhancement XV-2(1), though "XV-2(1)" starts
        with it and words of the enhancement match the question."""
        drafted = _drafted(
            "What must the organization do under XV-2 to review the vendor risk plan?",
            [VENDOR_TEAM, VENDOR_PLAN],
        )
        assert drafted and "b. Review and update" in drafted[0]

    def test_a_sentence_outside_the_named_control_weighs_less(self) -> None:
        """When the named control's passage is in the evidence, another control's sentence
        with more of the question's words does not answer it."""
        asked = catalog_control(
            "xa3",
            "XA-3",
            "Account Management\nDisable Accounts",
            "The system automatically disables inactive accounts after [Assignment: "
            "organization-defined time period].",
        )
        other = catalog_control(
            "xa",
            "XA",
            "Account Management",
            "Users of privileged accounts receive additional scrutiny from the managers who get "
            "reports on accounts.",
        )
        drafted = _drafted("XA-3: which accounts get disabled?", [other, asked])
        assert drafted and drafted[0] == asked.text


class TestStatementsOfRequirement:
    @pytest.mark.parametrize(
        "sentence",
        [
            "The information system implements multifactor authentication for network access.",
            "The organization employs [Assignment: organization-defined safeguards].",
            "a. Develops, documents, and disseminates an access control policy;",
            "The organization:\n  a. Analyzes vulnerability scan reports;",
            "Develop a plan for managing supply chain risks.",
        ],
    )
    def test_requirements(self, sentence: str) -> None:
        """A requirement written as what the organization or system does (rev4's style), or
        as an instruction, is a requirement."""
        assert is_normative(sentence)

    @pytest.mark.parametrize(
        "sentence",
        [
            "Organizations use the acquisition processes to reduce risk.",
            "The SCRM plan addresses managing and monitoring of controls.",
            "The organization's policies govern how information is processed.",
        ],
    )
    def test_guidance(self, sentence: str) -> None:
        assert not is_normative(sentence)


class TestChangeNotes:
    def test_a_change_note_is_not_the_rule(self) -> None:
        """ "This version raises the annual limit" says what changed, not the limit."""
        policy = _policy(
            "POL",
            "Gifts Policy",
            (
                "4.1 Employees may accept gifts worth up to $150 from one giver in a calendar "
                "year without approval.\n\n"
                "11.1 This version raises the annual limit on gifts accepted from one giver "
                "without approval, and adds clause 4.7."
            ),
        )
        drafted = _drafted("Is there an annual limit on gifts from one giver?", [policy])
        assert drafted and drafted[0].startswith("4.1")

    def test_a_question_on_the_change_is_answered_by_the_note(self) -> None:
        policy = _policy(
            "POL",
            "Gifts Policy",
            (
                "4.1 Employees may accept gifts from one giver without approval.\n\n"
                "11.1 This version raises the annual limit on gifts and adds clause 4.7."
            ),
        )
        question = "What changed in this version of the gifts policy?"
        ranked = ExtractiveGenerator()._ranked(
            question, profile_question(question, as_of=AS_OF), [policy], []
        )
        assert not isinstance(ranked, str)
        assert ranked[0][1].text.startswith("11.1")


def test_labelled_by_is_the_label_itself() -> None:
    assert labelled_by(VENDOR_PLAN, "XV-2")
    assert labelled_by(VENDOR_TEAM, "XV-2 (1)")
    assert not labelled_by(VENDOR_TEAM, "XV-2")


def test_an_acronym_written_out_names_it() -> None:
    """ "PEP" is named by a sentence saying "politically exposed person" (a lexicon group), so
    that sentence, not one merely sharing the question's other words, answers."""
    policy = _policy(
        "KYC",
        "Customer Due Diligence Policy",
        (
            "3.2 The risk rating must take into account the type of customer and the products "
            "used.\n\n"
            "3.3 A customer who is a politically exposed person must always be rated high risk."
        ),
    )
    drafted = _drafted("Which risk rating does a PEP get?", [policy])
    assert drafted and drafted[0].startswith("3.3")


def test_a_one_sentence_statement_before_guidance_on_the_title() -> None:
    """A question naming a control and its title answers with its statement, though a
    guidance sentence states the title's rarest word ("protection") and the statement says
    "protects"."""
    control = catalog_control(
        "xs12",
        "XS-12",
        "Vendor Chain Protection",
        "The organization protects against vendor chain threats to the system by employing "
        "[Assignment: organization-defined safeguards].\n\n"
        "Protection of systems is accomplished through threat awareness at each phase of the "
        "life cycle. Contracts may specify documentation protection requirements.",
    )
    enhancement = catalog_control(
        "xs12-1",
        "XS-12(1)",
        "Vendor Chain Protection\nAcquisition Strategies",
        "The organization employs acquisition strategies for vendor chain purchases.",
    )
    drafted = _drafted("XS-12 vendor chain protection: what's required?", [control, enhancement])
    assert drafted and drafted[0].startswith("The organization protects")


class TestEachAskRetrieved:
    def test_each_ask_keeps_its_first_passages(self) -> None:
        """The first passages of each ask's own ranking are in the evidence, in place of the
        last others."""
        fitted = [_section_stub(f"f{i}") for i in range(4)]
        ask = [_section_stub("a0"), _section_stub("a1"), _section_stub("a2")]
        kept = _with_each_ask(fitted, [ask, [fitted[0]]], 4)
        assert [p.passage_id for p in kept] == ["f0", "f1", "a0", "a1"]

    @pytest.mark.parametrize(
        ("question", "asks"),
        [
            ("How long to send the final response, and how many years to keep the file?", 2),
            ("final response deadline + how long we keep complaint records", 2),
            (
                "Under Regulation B, when a lender gathers race and ethnicity data, what choice "
                "must the applicant be given?",
                0,
            ),
        ],
    )
    def test_asks_joined_as_such(self, question: str, asks: int) -> None:
        """Asks joined by "and" or "+" are asked one by one; a case set out before the
        question ("when ..., what ...") is not an ask of its own."""
        assert (len(_joined_asks(question)) > 1) == (asks > 1)


def _section_stub(pid: str) -> Passage:
    return Passage(
        passage_id=pid, doc_id="d", version="v", page=1, char_start=0, char_end=1, text="x"
    )


class TestSpecialCases:
    POLICY = _policy(
        "CPL",
        "Complaints Policy",
        (
            "4.6 When a complaint comes from a vulnerable customer, the handling employee must "
            "also telephone the customer within 2 business days of receiving the complaint.\n\n"
            "4.7 The handling employee must telephone the customer within 5 business days of "
            "receiving a complaint."
        ),
    )

    def test_a_rule_for_a_case_not_asked_about(self) -> None:
        """A question setting out no case is answered by the general rule, not by the rule
        for a case it does not name ("When ... a vulnerable customer, ...")."""
        drafted = _drafted(
            "Within how many business days must the employee telephone the customer about "
            "a complaint received?",
            [self.POLICY],
        )
        assert drafted and drafted[0].startswith("4.7")

    def test_the_case_asked_about(self) -> None:
        drafted = _drafted(
            "When a complaint comes from a vulnerable customer, within how many days must the "
            "employee telephone them?",
            [self.POLICY],
        )
        assert drafted and drafted[0].startswith("4.6")


class TestEnhancementInWords:
    @pytest.mark.parametrize(
        ("question", "names", "expected"),
        [
            ("Which rules does IA-5 enhancement 1 impose?", ("IA-5",), ("IA-5(1)",)),
            ("What does enhancement 3 of control AC-2 require?", ("AC-2",), ("AC-2(3)",)),
            ("What does AC-2(3) require?", ("AC-2(3)",), ("AC-2(3)",)),
            ("What does the password enhancement of IA-5 require?", ("IA-5",), ("IA-5",)),
        ],
    )
    def test_names(self, question: str, names: tuple[str, ...], expected: tuple[str, ...]) -> None:
        assert with_enhancements(question, names) == expected

    def test_the_enhancement_named_in_words_is_asked(self) -> None:
        """ "XV-2 enhancement 1" asks about XV-2(1), not the base control XV-2."""
        drafted = _drafted(
            "XV-2 enhancement 1: what must be done?",
            [VENDOR_PLAN, VENDOR_TEAM],
        )
        assert drafted and drafted[0].startswith("Establish a vendor risk management team")
