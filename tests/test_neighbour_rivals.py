"""A time limit answers a time question only when it limits the act asked: "The Bank must send
the complainant a written acknowledgement within 3 business days" is the acknowledgement's
limit, no answer to "How many days does the Bank have to answer a complaint?". The limit binds
the predicate of its sentence, not the event it counts from ("after completing its
investigation"); a word that may name the same act (a word family, WordNet, the lexicon) lets
the answer through, and so does a limit whose act cannot be found. Likewise a control the
question names by its whole title ("the contingency plan testing control") is not answered
from a retrieved neighbour whose title shares fewer of its words ("Contingency Plan")."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Passage
from evidencegate.critique.rules import (
    RulesCritic,
    _limited_acts,
    _timed_act_rival,
    _timed_acts_asked,
    _title_named_rival,
)
from tests.test_required_facts import _audit, _one_document

AS_OF = dt.date(2024, 6, 1)
ACK = (
    "4.1 The Bank must send the complainant a written acknowledgement of a complaint within"
    " 3 business days of receiving it."
)
FINAL = "4.3 The Bank must send the complainant a final response within 8 weeks of receiving it."
REPORTED = "7.2 A breach of this policy must be reported to the Chief Data Officer within 2 days."
RESULTS = (
    "The remittance transfer provider shall report the results to the sender, including notice"
    " of any remedies available for correcting any error that the provider determines has"
    " occurred, within three business days after completing its investigation."
)
SERVICER_ACK = (
    "Within five days (excluding legal public holidays, Saturdays, and Sundays) of a servicer"
    " receiving a notice of error from a borrower, the servicer shall provide to the borrower a"
    " written response acknowledging receipt of the notice of error."
)
EXTENDED = (
    "If the financial institution is unable to complete its investigation within 10 business"
    " days, the institution may take up to 45 days from receipt of a notice of error to"
    " investigate and determine whether an error occurred."
)
DISCLOSE = (
    "6.2 New employees must disclose all Personal Accounts and all holdings of Relevant"
    " Investments within 10 business days of joining the Bank."
)
COMPLY = (
    "If a servicer cannot comply with its obligations pursuant to § 1024.35(e) by the earlier of"
    " a foreclosure sale or 30 days after receipt of the notice of error, a servicer shall"
    " cancel or postpone a foreclosure sale."
)
PHONE = (
    "4.6 When a Complaint comes from a Vulnerable Customer, the handling employee must also"
    " telephone the Complainant within 2 business days of receiving the Complaint."
)
DECIDE = (
    "7.3 The MLRO must decide within 7 calendar days of receiving an internal suspicious"
    " activity report whether to submit an external report to the financial intelligence unit."
)
NOTIFY = "A creditor shall notify an applicant of action taken within 30 days."
VALID = "4.2 Pre-clearance approval for a personal trade is valid for 2 business days."


def rival(question: str, *claims: str) -> str | None:
    return _timed_act_rival(profile_question(question, as_of=AS_OF), list(claims), filed=False)


@pytest.mark.parametrize(
    ("question", "claim", "act"),
    [
        ("How many days does the handler have to phone a vulnerable complainant?", ACK, "phone"),
        ("reg e error investigation deadline business days", RESULTS, "investigation"),
        ("How quickly must the Chief Data Officer investigate a breach?", REPORTED, "investigate"),
        ("How long does the servicer get to resolve a notice of error?", SERVICER_ACK, "resolve"),
        ("How many days does the MLRO have to file the external report?", DECIDE, "file"),
    ],
)
def test_the_limit_of_another_act_is_refused(question: str, claim: str, act: str) -> None:
    assert rival(question, claim) == (
        f"kind: the act asked ({act}; the claims' time limits bind another act)"
    )


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        # the act itself, or a word of its family
        ("Within how many days must a servicer acknowledge a notice of error?", SERVICER_ACK),
        ("How long does the Bank have to respond to a complaint?", FINAL),
        ("How many days does the bank have to acknowledge a complaint?", ACK),
        ("How long does a bank have to investigate an EFT error at most?", EXTENDED),
        # a word WordNet or the lexicon may read as the same act
        ("How many days does the bank have to confirm that it received a complaint?", ACK),
        ("new hire deadline to declare own investment accounts?", DISCLOSE),
        ("I just joined - by when do I have to tell them about my accounts?", DISCLOSE),
        # an act of sending, by any verb of sending or by the act of what is sent
        ("How long do we have to send the adverse action notice?", ACK),
        ("How long do we have to send the adverse action notice?", NOTIFY),
        # the limit's act is not found: a reference, or no predicate
        ("what is the servicer's deadline to respond under 1024.35?", COMPLY),
        ("How long does Compliance have to approve a pre-clearance request?", VALID),
        # no time asked
        ("Who has to answer a complaint?", ACK),
    ],
)
def test_the_act_asked_or_no_act_found_passes(question: str, claim: str) -> None:
    assert rival(question, claim) is None


def test_one_claim_limiting_the_act_asked_is_enough() -> None:
    question = "How soon does the handler need to phone a vulnerable complainant?"
    assert rival(question, ACK, PHONE) is None
    assert rival(question, ACK) is not None


def test_a_limit_binds_its_predicate_not_the_event_it_counts_from() -> None:
    assert _limited_acts(RESULTS) == [frozenset({"report", "results", "sender"})]
    (bound,) = _limited_acts(SERVICER_ACK)
    assert {"provide", "response", "acknowledging"} <= bound
    assert "receiving" not in bound
    # a light verb's act follows the limit ("take up to 45 days ... to investigate")
    assert all("investigate" in words for words in _limited_acts(EXTENDED))
    assert _limited_acts(COMPLY) == [frozenset()]
    assert _limited_acts(VALID) == [frozenset()]


def test_the_acts_a_question_asks() -> None:
    assert _timed_acts_asked("Deadline for our answer?") == [("answer", ())]
    assert _timed_acts_asked("How long does the servicer get to evaluate an application?") == [
        ("evaluate", ())
    ]
    assert _timed_acts_asked("When does a servicer have to try to speak with a borrower?") == [
        ("speak", ())
    ]
    assert _timed_acts_asked("By when must the yearly escrow statement go out?") == []
    # an act of sending, with what it sends
    assert _timed_acts_asked("How long do we have to send the adverse action notice?") == [
        ("send", ("adverse", "action", "notice"))
    ]


def test_the_audit_refuses_the_limit_of_another_act() -> None:
    corpus = _one_document("POL-12", ["Complaints Policy\n" + ACK + "\n" + PHONE])
    critic = RulesCritic(pages=corpus)
    fact = "kind: the act asked (phone; the claims' time limits bind another act)"
    question = "How many business days does the handler have to phone a vulnerable complainant?"
    assert fact in _audit(critic, question, corpus, [ACK])
    assert fact not in _audit(critic, question, corpus, [PHONE])


# A control the question names by its whole title, answered from a neighbour.
NIST = "NIST SP 800-53: Security and Privacy Controls"


def control(label: str, text: str, *title: str) -> Passage:
    return Passage(
        passage_id=label,
        doc_id="NIST-SP-800-53",
        version="rev5",
        page=1,
        char_start=0,
        char_end=len(text),
        text=text,
        label=label,
        title=NIST,
        context="\n".join([label, *title, NIST]),
    )


PLAN = control("CP-2", "a. Develop a contingency plan for the system.", "Contingency Plan")
TESTING = control(
    "CP-4", "a. Test the contingency plan for the system.", "Contingency Plan Testing"
)
AUTOMATED = control(
    "PS-4(2)",
    "Use automated mechanisms to notify personnel.",
    "Personnel Termination",
    "Automated Actions",
)
TERMINATION = control(
    "PS-4", "Upon termination: a. Disable system access.", "Personnel Termination"
)


def named_rival(question: str, cited: Passage, *others: Passage) -> str | None:
    profile = profile_question(question, as_of=AS_OF)
    return _title_named_rival(profile, {cited.passage_id}, [cited, *others])


def test_a_control_named_by_its_whole_title_is_not_answered_by_its_neighbour() -> None:
    question = "For the contingency plan testing control, what has to happen after the test?"
    assert named_rival(question, PLAN, TESTING) == (
        "question: the provision whose whole title the question names (CP-4), not the one quoted"
    )
    assert named_rival(question, TESTING, PLAN) is None
    # not retrieved: nothing to tell by
    assert named_rival(question, PLAN) is None
    # a label names the control asked
    assert named_rival("CP-2 contingency plan testing: what after the test?", PLAN, TESTING) is None


def test_a_title_the_quoted_provision_states_as_fully_passes() -> None:
    # The enhancement's title states as many of the question's words as its control's.
    question = "What does personnel termination require us to do with system access?"
    assert named_rival(question, AUTOMATED, TERMINATION) is None
