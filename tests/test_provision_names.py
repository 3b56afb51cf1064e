"""A question asking which provision says something ("which control makes the screen lock?")
is answered by naming where the quote sits, as the store records its page: the verifier and
the critic read that name as the name of the source, not as a statement of the quote."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import (
    Citation,
    Claim,
    GatedAnswer,
    Outcome,
    Passage,
    SourcePage,
    StopReason,
    Verdict,
)
from evidencegate.corpus.scope import (
    claim_statement,
    provision_name,
    provision_named,
    without_provision,
)
from evidencegate.critique.rules import RulesCritic
from evidencegate.evals.ablation import NOT_SUPPORTED_BY_QUOTES, score_answer
from evidencegate.evals.golden import GoldenItem
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.policy import Policy
from evidencegate.verify.verifier import Verifier
from tests.catalog_support import Catalog

AS_OF = dt.date(2024, 6, 1)
TITLE = "Control Catalog"

# (page, label, heading path, text): a catalog's controls, one per page, as ingested
CONTROLS = [
    (
        1,
        "XC-11",
        "Device Lock",
        "Prevent further access to the system by initiating a device lock after 15 minutes "
        "of inactivity.",
    ),
    (
        2,
        "XC-12",
        "Session Termination",
        "Automatically terminate a user session after a defined period of inactivity.",
    ),
    (
        3,
        "XC-2(5)",
        "Account Management\nInactivity Logout",
        "Require that users log out when the expected inactivity period is exceeded.",
    ),
]


def _passages() -> list[Passage]:
    return [
        Passage(
            passage_id=f"p{number}",
            doc_id="CAT",
            version="5",
            page=number,
            char_start=0,
            char_end=len(text),
            text=text,
            label=label,
            title=TITLE,
            context=f"{label}\n{heading}\n{TITLE}",
        )
        for number, label, heading, text in CONTROLS
    ]


def _page(number: int) -> SourcePage:
    source = Catalog(CONTROLS, TITLE).lookup("CAT", "5", number)
    assert source is not None
    return source


class TestQuestion:
    @pytest.mark.parametrize(
        "question",
        [
            "idle PC - which control makes the screen lock?",
            "Which NIST control covers session termination?",
            "what security control handles audit log review",
            "What section of Reg E covers error resolution?",
            "Under which rule must a bank send an adverse action notice?",
            "whats the control id for account lockout",
            "which CP-9 control enhancement governs deletion of backups?",
            "What policy applies to gifts from vendors?",
            "pls cite the section that sets the error resolution deadline",
            "the control requiring a supply chain risk plan was which one?",
            "control for wiping media before disposal?",
            "I need the 800-53 control that limits failed logon attempts",
        ],
    )
    def test_asking_which_provision(self, question: str) -> None:
        assert profile_question(question, as_of=AS_OF).asks_provision

    @pytest.mark.parametrize(
        "question",
        [
            "What does the rule require for escrow accounts?",
            "What are the rules for travel expenses?",
            "What is the section 1005.11 deadline?",
            "Summarise what access control AC-2 obliges organizations to do.",
            "What traffic policy does SC-7(5) require at managed interfaces?",
            "What is the Regulation M consumer lease threshold for 2019?",
            "What kind of policy is required for remote access?",
            "Which segment had the highest revenue in 2022?",
            "What does NIST SP 800-53 control ID.AM-1 require for device inventories?",
            "control for wiping media - how often must it be tested?",
            "the control on account lockout: what does it require?",
        ],
    )
    def test_asking_what_a_provision_says(self, question: str) -> None:
        assert not profile_question(question, as_of=AS_OF).asks_provision


class TestName:
    def test_a_label_with_its_heading(self) -> None:
        assert provision_name("XC-11", "Device Lock", "CAT", TITLE) == "XC-11 Device Lock"

    def test_an_enhancement_names_its_control_and_itself(self) -> None:
        name = provision_name("XC-2(5)", "Account Management\nInactivity Logout", "CAT", TITLE)
        assert name == "XC-2(5) Account Management — Inactivity Logout"

    def test_a_cfr_paragraph_label_is_named_as_the_section_it_cites(self) -> None:
        heading = (
            "§ 1005.11 Procedures for resolving errors.\n"
            "Time limits and extent of investigation.\nTen-day period."
        )
        name = provision_name("1005-11-c-1", heading, "12 CFR 1005", "Regulation E")
        assert name == "§ 1005.11(c)(1) Procedures for resolving errors — Ten-day period"

    def test_a_page_with_neither_is_named_by_its_document(self) -> None:
        assert provision_name(None, "", "POL-7", "Gifts Policy") == "POL-7 (Gifts Policy)"
        assert provision_name(None, "", "POL-7", "") == "POL-7"

    def test_only_the_exact_name_of_the_cited_page_is_taken_off(self) -> None:
        named = provision_named("Prevent further access.", _page(1))
        assert named == "XC-11 Device Lock: Prevent further access."
        assert without_provision(named, _page(1)) == "Prevent further access."
        assert without_provision(named, _page(2)) == named  # another page's name: as written
        assert without_provision(named, None) == named


class TestAnswer:
    def test_the_draft_names_the_control_and_the_gate_passes_it(self) -> None:
        catalog = Catalog(CONTROLS, TITLE)
        question = "which control makes the screen lock when the PC is idle?"
        evidence = _passages()
        draft = ExtractiveGenerator(pages=catalog).draft(question, evidence, as_of=AS_OF)
        assert draft.claims
        first = draft.claims[0]
        assert first.text.startswith("XC-11 Device Lock: Prevent further access")
        verifier = Verifier.from_policy(catalog, Policy())
        checks = [verifier.verify(claim, as_of=AS_OF) for claim in draft.claims]
        assert checks[0].ok, checks[0].failures
        critic = RulesCritic(pages=catalog)
        sufficiency = critic.sufficiency(question, evidence, as_of=AS_OF)
        audit = critic.audit(
            question,
            draft.claims,
            checks,
            evidence,
            as_of=AS_OF,
            required_facts=sufficiency.required_facts,
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED, audit.claims[0].reason

    def test_without_the_question_asking_which_the_claim_is_the_quote(self) -> None:
        catalog = Catalog(CONTROLS, TITLE)
        question = "how long until the screen locks on an idle PC?"
        draft = ExtractiveGenerator(pages=catalog).draft(question, _passages(), as_of=AS_OF)
        assert draft.claims
        assert all(not c.text.startswith("XC-") for c in draft.claims)

    def test_another_pages_name_is_not_taken_off_and_the_critic_refuses_it(self) -> None:
        catalog = Catalog(CONTROLS, TITLE)
        question = "which control makes the screen lock when the PC is idle?"
        quote = CONTROLS[0][3]
        evidence = _passages()
        claim = Claim(
            claim_id="c-1",
            text=f"XC-12 Session Termination: {quote}",  # the name of another page
            citations=[Citation(doc_id="CAT", version="5", page=1, quote=quote, evidence_id="p1")],
        )
        checks = [Verifier.from_policy(catalog, Policy()).verify(claim, as_of=AS_OF)]
        critic = RulesCritic(pages=catalog)
        sufficiency = critic.sufficiency(question, evidence, as_of=AS_OF)
        audit = critic.audit(
            question,
            [claim],
            checks,
            evidence,
            as_of=AS_OF,
            required_facts=sufficiency.required_facts,
        )
        assert audit.claims[0].verdict is Verdict.NOT_FOUND
        assert "no counterpart in the evidence" in audit.claims[0].reason
        assert not audit.contract_met

    def test_the_name_carries_no_figure_into_the_claim(self) -> None:
        quote = CONTROLS[2][3]
        claim = Claim(
            claim_id="c-1",
            text=provision_named(quote, _page(3)),  # "XC-2(5)": not a figure of the quote
            citations=[Citation(doc_id="CAT", version="5", page=3, quote=quote)],
        )
        assert (
            Verifier.from_policy(Catalog(CONTROLS, TITLE), Policy()).verify(claim, as_of=AS_OF).ok
        )


class TestScoring:
    """The ablation's support judge weighs what a claim states, as the gate does: a named
    answer's quote supports it though the page's name has words the quote lacks."""

    def _scored(self, text: str, page: int = 3) -> list[str]:
        quote = CONTROLS[page - 1][3]
        claim = Claim(
            claim_id="c-1",
            text=text,
            citations=[Citation(doc_id="CAT", version="5", page=page, quote=quote)],
        )
        item = GoldenItem.model_validate(
            {
                "id": "which",
                "question": "which control makes people log out when idle?",
                "as_of": AS_OF.isoformat(),
                "category": "factual",
                "task": "closed",
                "expected_answer_notes": "XC-2(5)",
                "required_evidence": [
                    {"claim": quote, "doc_id": "CAT", "version": "5", "quote": quote}
                ],
            }
        )
        answer = GatedAnswer(
            question=item.question,
            as_of=AS_OF,
            outcome=Outcome.UNGATED,
            answer=text,
            claims=[claim],
            coverage=1.0,
            stop_reason=StopReason.NO_REFLECTION,
            passes=1,
            trace_id="t",
        )
        catalog = Catalog(CONTROLS, TITLE)
        claims, _ = score_answer(
            item,
            answer,
            judge=Verifier.from_policy(catalog, Policy()),
            sources=catalog,
            retrieved=None,
        )
        return claims[0].failures

    def test_the_cited_pages_name_is_not_weighed_as_a_statement(self) -> None:
        named = provision_named(CONTROLS[2][3], _page(3))
        assert named.startswith("XC-2(5) Account Management")
        assert self._scored(named) == []

    def test_another_pages_name_is_weighed_and_fails(self) -> None:
        named = provision_named(CONTROLS[2][3], _page(3))
        assert NOT_SUPPORTED_BY_QUOTES in self._scored(named.replace("XC-2(5)", "XC-9(9)"))

    def test_the_statement_is_the_text_without_the_pages_name(self) -> None:
        quote = CONTROLS[0][3]
        claim = Claim(
            claim_id="c-1",
            text=provision_named(quote, _page(1)),
            citations=[Citation(doc_id="CAT", version="5", page=1, quote=quote)],
        )
        assert claim_statement(claim, Catalog(CONTROLS, TITLE)) == quote
        assert claim_statement(claim, None) == claim.text


def test_the_printed_answer_says_where_each_quoted_page_sits() -> None:
    """``evidencegate ask`` prints each citation's page with its label and heading, as the
    store records them; a page with neither is printed by its number alone."""
    from evidencegate.cli.ask import citation_places, format_answer
    from evidencegate.contracts import GatedAnswer, Outcome, StopReason

    quote = CONTROLS[1][3]
    claim = Claim(
        claim_id="c-1",
        text=quote,
        citations=[
            Citation(doc_id="CAT", version="5", page=2, quote=quote, char_start=0, char_end=9),
            Citation(doc_id="CAT", version="5", page=9, quote=quote, char_start=0, char_end=9),
        ],
    )
    answer = GatedAnswer(
        question="which control ends idle sessions?",
        as_of=AS_OF,
        outcome=Outcome.ANSWERED,
        answer=quote,
        claims=[claim],
        coverage=1.0,
        stop_reason=StopReason.CONTRACT_MET,
        passes=1,
        trace_id="t",
    )
    places = citation_places(answer, Catalog(CONTROLS, TITLE))
    assert places == {("CAT", "5", 2): "XC-12 Session Termination"}
    printed = format_answer(answer, places)
    assert "source: CAT @ 5, page 2 (XC-12 Session Termination), chars 0-9" in printed
    assert "source: CAT @ 5, page 9, chars 0-9" in printed
    assert "(XC-12" not in format_answer(answer)
