"""A document's clause about itself (its review, its purpose, its reach) answers only a question
about that act: "Compliance must review this policy at least every 2 years" is no answer to
"What happens to my profit if I break the dealing rules?"."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.critique.rules import RulesCritic, _document_clause_unasked
from tests.test_required_facts import _audit, _one_document

AS_OF = dt.date(2024, 6, 1)
REVIEW = (
    "9.1 Compliance must review this policy at least every 2 years, or sooner after a material "
    "change in market abuse law or regulation."
)
PURPOSE = (
    "1.1 This policy sets out how the Bank receives, investigates, resolves and learns from "
    "the complaints of its customers."
)
SCOPE = "1.2 The policy applies to every employee who deals with customers, whether in a branch."
PART = (
    "Except for § 1002.4(a), the general rule against discrimination on a prohibited basis, the "
    "requirements of this part do not apply to government credit."
)
BREACH = "9.2 A breach of this policy is a disciplinary matter and may lead to dismissal."
ATTEST = (
    "6.3 Employees must confirm in an annual attestation, submitted by 31 January each year, "
    "that they complied with this policy during the previous calendar year."
)


def unasked(question: str, *claims: str) -> str | None:
    return _document_clause_unasked(profile_question(question, as_of=AS_OF), list(claims))


@pytest.mark.parametrize(
    ("question", "claim", "act"),
    [
        ("What happens to my profit if I break the personal dealing rules?", REVIEW, "review"),
        ("Does my wife's brokerage account fall under the trading rules too?", REVIEW, "review"),
        ("Who is allowed to investigate a complaint?", PURPOSE, "purpose"),
        ("Who should investigate a complaint about a branch employee's conduct?", SCOPE, "scope"),
        ("What counts as lending to the government under the equal credit rules?", PART, "scope"),
    ],
)
def test_the_documents_own_act_unasked(question: str, claim: str, act: str) -> None:
    assert unasked(question, claim) == f"kind: {act} of the document itself (not what is asked)"


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("How often does the dealing policy get reviewed, and by whom?", REVIEW),
        ("When must the personal dealing policy be updated?", REVIEW),
        ("What is the complaints policy for?", PURPOSE),
        ("Who does the complaints policy apply to?", SCOPE),
        ("Are contact centre staff covered by the complaints policy?", SCOPE),
        ("Is credit to a county government exempt from Reg B?", PART),
        # A rule that speaks of the policy only in passing is a rule of its own.
        ("What happens if I break the dealing rules?", BREACH),
        ("By what date is the yearly dealing attestation due?", ATTEST),
        # A regulation's exemptions set its reporting thresholds.
        ("Reg C open-end line of credit reporting threshold as of mid 2018?", PART),
        # An item of a list stating a rule of its own, beside the list's review item.
        (
            "Which control makes us set a policy for protecting data on outside systems?",
            "a. Establish policy and procedures to ensure that data is protected; and\n"
            "  b. Review and update the policy and procedures every year.",
        ),
    ],
)
def test_asked_or_a_rule_of_its_own(question: str, claim: str) -> None:
    assert unasked(question, claim) is None


def test_one_claim_stating_a_rule_is_enough() -> None:
    question = "What happens to my profit if I break the personal dealing rules?"
    assert unasked(question, REVIEW, BREACH) is None
    assert unasked(question, REVIEW, PURPOSE) == (
        "kind: review purpose of the document itself (not what is asked)"
    )
    assert unasked(question) is None


def test_the_audit_refuses_the_documents_frame() -> None:
    corpus = _one_document("POL-30", ["Personal Dealing Policy\n" + REVIEW + "\n" + BREACH])
    critic = RulesCritic(pages=corpus)
    question = "What can happen to staff who trade without following the personal dealing policy?"
    frame = "kind: review of the document itself (not what is asked)"
    assert frame in _audit(critic, question, corpus, [REVIEW])
    assert frame not in _audit(critic, question, corpus, [BREACH])


# Which way a benefit goes: received by an employee, or given by one.
GIVE_PUBLIC = (
    "6.3 Employees must not give any Gift or Entertainment to a Public Official without the "
    "prior written approval of the Head of Compliance."
)
PROMO = (
    "4.6 Promotional items with a value below $25 do not count towards the annual gift limit."
    "\n\u2063place\u2063\n## 4. Receiving gifts"
)
ACCEPT = "4.1 Employees may accept a gift with a value of up to $150 per giver per calendar year."
GIVEN = "6.1 Gifts given by an employee on behalf of the Bank must not exceed $75 per recipient."
BOTH = "3.1 Employees must not offer, give, solicit or accept any Gift that could influence."


def direction(question: str, *claims: str) -> str | None:
    from evidencegate.critique.rules import _direction_unasked

    return _direction_unasked(profile_question(question, as_of=AS_OF), list(claims))


def test_a_benefit_received_is_not_answered_by_one_given() -> None:
    trip = "Is a trip paid by a supplier ok if Compliance did not approve it first?"
    assert direction(trip, GIVE_PUBLIC) == "kind: received (the claims state what is given)"
    assert direction("gifts we give out: annual cap per recipient?", PROMO) == (
        "kind: given (the claims state what is received)"
    )
    assert direction("gifts we give out: annual cap per recipient?", GIVEN) is None
    assert direction("How much in gifts can I accept from one supplier a year?", ACCEPT) is None


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # A claim naming both ways, or none, may answer either.
        ("Can I accept a dinner from a client?", [BOTH]),
        ("Can I accept a dinner from a client?", [GIVE_PUBLIC, BOTH]),
        ("Can I accept a dinner from a client?", ["5.2 No more than 6 invitations a year."]),
        # No benefit changes hands: an application received, an opportunity given.
        (
            "How long does the servicer get to evaluate a complete application received early?",
            ["Within 5 days the servicer shall give the borrower a written notice."],
        ),
        # A question naming both ways asks about either.
        ("May staff give or accept gifts from a customer?", [GIVE_PUBLIC]),
    ],
)
def test_direction_undecided(question: str, claims: list[str]) -> None:
    assert direction(question, *claims) is None


def test_paying_out_a_bonus_is_giving() -> None:
    offered = "4.2 An employee who is offered a gift above $150 needs approval before accepting it."
    question = "What is the most a branch manager can pay out as a staff bonus?"
    assert direction(question, offered) == "kind: given (the claims state what is received)"
