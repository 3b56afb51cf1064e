"""Questions that name a control by what it is about ("the log review control", "the backup
testing enhancement") rather than by its identifier, in the voice of whoever asks ("dev here -",
"ISSO question:"): which control they ask about, and which of its sentences answers them."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import (
    answer_type,
    is_normative,
    normalise_question,
    profile_question,
    split_asks,
)
from evidencegate.contracts import Passage
from evidencegate.corpus.retrieval import (
    _with_continuations,
    described,
    described_fit,
    own_title,
)
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2022, 6, 1)


def _control(pid: str, label: str, heading: str, text: str, *, start: int = 0) -> Passage:
    """A control's passage, labelled and read under its heading, as a catalog is ingested."""
    return Passage(
        passage_id=pid,
        doc_id="CAT",
        version="1",
        page=sum(map(ord, label)),
        char_start=start,
        char_end=start + len(text),
        text=text,
        label=label,
        title="Control Catalog",
        context=f"{label}\n{heading}\nControl Catalog",
    )


def _drafted(question: str, passages: list[Passage]) -> list[str]:
    draft = ExtractiveGenerator().draft(question, passages, as_of=AS_OF)
    return [c.text for c in draft.claims]


LOG_REVIEW = _control(
    "au6",
    "XA-6",
    "Audit Record Review, Analysis, and Reporting",
    "a. Review and analyze system audit records [Assignment: organization-defined frequency] "
    "for indications of unusual activity; and\n  b. Report findings to [Assignment: "
    "organization-defined personnel or roles].",
)
AGREEMENTS = _control(
    "ps6",
    "XP-6",
    "Access Agreements",
    "a. Develop and document access agreements for organizational systems;\n  b. Review and "
    "update the access agreements [Assignment: organization-defined frequency]; and\n  c. "
    "Verify that individuals sign the agreements.",
)
LOG_REVIEW_ENHANCEMENT = _control(
    "au6-7",
    "XA-6(7)",
    "Audit Record Review, Analysis, and Reporting\nPermitted Actions",
    "Specify the permitted actions for each system process, role, and user associated with "
    "the review, analysis, and reporting of audit record information.",
)
BACKUP = _control(
    "cp9",
    "XC-9",
    "System Backup",
    "a. Conduct backups of user-level information [Assignment: organization-defined "
    "frequency]; and\n  b. Protect the confidentiality, integrity, and availability of backup "
    "information.",
)
BACKUP_TESTING = _control(
    "cp9-1",
    "XC-9(1)",
    "System Backup\nTesting for Reliability and Integrity",
    "Test backup information [Assignment: organization-defined frequency] to verify media "
    "reliability and information integrity.",
)
RISK = _control(
    "ra3",
    "XR-3",
    "Risk Assessment",
    "Update the risk assessment [Assignment: organization-defined frequency] or when there are "
    "significant changes to the system, its environment of operation, or other conditions that "
    "may impact the security or privacy state of the system.\n\nRisk assessments consider "
    "threats, vulnerabilities, likelihood, and impact to organizational operations and assets. "
    "Organizations can conduct risk assessments at all three levels in the risk management "
    "hierarchy and at any stage in the system development life cycle.",
)
SUPPLY_RISK = _control(
    "ra3-1",
    "XR-3(1)",
    "Risk Assessment\nSupply Chain Risk Assessment",
    "(a) Assess supply chain risks associated with [Assignment: organization-defined systems, "
    "system components, and system services]; and\n  (b) Update the supply chain risk "
    "assessment [Assignment: organization-defined frequency], when there are significant "
    "changes to the relevant supply chain, or when changes to the system, environments of "
    "operation, or other conditions may necessitate a change in the supply chain.",
)


class TestDescribed:
    def test_the_words_before_control_or_enhancement(self) -> None:
        found = described(
            "how often do we have to look at our audit logs per the log review control?"
        )
        assert found is not None
        assert found.terms == ("log", "review")
        assert not found.enhancement
        found = described("dev here - for the backup testing enhancement, what do we test?")
        assert found is not None
        assert found.terms == ("backup", "test")
        assert found.enhancement

    def test_a_description_after_the_kind_word_and_across_a_possessive(self) -> None:
        found = described("Under the rev4 control on response to audit processing failures, who?")
        assert found is not None
        assert found.terms == ("response", "audit", "process", "failure")
        found = described("What is tested under the system backup control's integrity enhancement?")
        assert found is not None
        assert found.terms == ("system", "backup", "integrity")

    def test_an_identifier_or_a_compound_describes_nothing(self) -> None:
        assert (
            described("What does control SR-2, Supply Chain Risk Management Plan, require?") is None
        )
        assert described("For which accounts does control enhancement IA-2(1) require MFA?") is None
        assert described("What does the access control policy need to cover?") is None

    def test_a_topic_heading_the_ask(self) -> None:
        found = described("Contingency plan: how often does it get reviewed?")
        assert found is not None
        assert found.terms == ("contingency", "plan")
        assert described("AU-5: when audit processing fails, who gets alerted?") is None

    def test_the_title_fits_by_synonyms_and_shortened_words(self) -> None:
        logs = described("per the log review control, how often?")
        assert logs is not None
        assert described_fit(LOG_REVIEW, logs) == 1.0  # "log" is a record
        assert described_fit(AGREEMENTS, logs) == 0.0
        assert described_fit(LOG_REVIEW_ENHANCEMENT, logs) == 0.5  # an enhancement: by half
        crypto = described("the at-rest crypto enhancement: what must it prevent?")
        assert crypto is not None
        at_rest = _control(
            "sc28-1",
            "XS-28(1)",
            "Protection of Information at Rest\nCryptographic Protection",
            "Implement cryptographic mechanisms.",
        )
        assert described_fit(at_rest, crypto) == 1.0


class TestDrafting:
    def test_the_described_control_not_a_neighbour_with_a_frequency(self) -> None:
        """ "How often ... the log review control": the review frequency of audit records, not
        the access agreements' (the same assignment of a frequency, another control)."""
        drafted = _drafted(
            "how often do we have to look at our audit logs per the log review control?",
            [AGREEMENTS, LOG_REVIEW_ENHANCEMENT, LOG_REVIEW],
        )
        assert drafted
        assert "system audit records" in drafted[0]

    def test_the_described_enhancement_not_its_control(self) -> None:
        drafted = _drafted(
            "for the backup testing enhancement, what are we supposed to test the backups for?",
            [BACKUP, BACKUP_TESTING],
        )
        assert drafted
        assert drafted[0].startswith("Test backup information")

    def test_the_control_not_an_enhancement_the_question_says_nothing_of(self) -> None:
        """ "Update the risk assessment": the control's item, not its supply chain
        enhancement's ("supply chain" is the enhancement's own title)."""
        assert own_title(SUPPLY_RISK) == ("supply", "chain")
        assert own_title(RISK) == ()
        drafted = _drafted("when do we have to update the risk assessment?", [SUPPLY_RISK, RISK])
        assert drafted
        assert "supply chain" not in drafted[0]
        drafted = _drafted(
            "when must the supply chain risk assessment be updated?", [RISK, SUPPLY_RISK]
        )
        assert drafted
        assert "supply chain" in drafted[0]


class TestAsker:
    def test_who_asks_is_no_part_of_the_question(self) -> None:
        assert normalise_question("dev here - what do we test?") == "what do we test?"
        assert normalise_question("ISSO question: IR-6 says what?") == "IR-6 says what?"
        assert normalise_question("As auditor I must confirm: how often?") == "how often?"
        assert normalise_question("As of 2019, what does AC-2 require?").startswith("As of 2019")
        assert normalise_question("CP-9: which properties?") == "CP-9: which properties?"
        profile = profile_question("ISSO question: who do staff report incidents to?", as_of=AS_OF)
        assert "ISSO" not in profile.names
        assert "isso" not in profile.terms

    def test_filler_words_are_no_terms(self) -> None:
        profile = profile_question("what are we supposed to test exactly?", as_of=AS_OF)
        assert profile.terms == ("test",)

    def test_a_question_after_a_colon_is_no_list_of_asks(self) -> None:
        assert split_asks("AU-5: when audit processing fails, who gets alerted?") == [
            "AU-5: when audit processing fails, who gets alerted"
        ]
        assert split_asks("PEP: risk rating, refresh frequency, record retention?") == [
            "risk rating",
            "refresh frequency",
            "record retention",
        ]


def test_a_list_cut_between_passages_is_read_on() -> None:
    """A passage ending inside a list ("...; and\\n  f.") brings the passage continuing it on
    its page, when the ranking holds it, in place of the last other passage."""
    first = _control("a", "XR-3", "Risk Assessment", "e. Disseminate results; and\n  f.")
    rest = _control(
        "b", "XR-3", "Risk Assessment", "Update the risk assessment.", start=first.char_end + 1
    )
    other = _control("c", "XP-6", "Access Agreements", "Review the access agreements.")
    other2 = _control("d", "XP-7", "External Personnel", "Require external providers to comply.")
    kept = _with_continuations([first, other, other2], [first, other, other2, rest], 3)
    assert [p.passage_id for p in kept] == ["a", "b", "c"]
    whole = _control("e", "XR-3", "Risk Assessment", "Conduct a risk assessment.")
    assert _with_continuations([whole, other], [whole, other, rest], 3) == [whole, other]


class TestParameters:
    def test_a_parameter_answers_only_the_kind_of_figure_it_names(self) -> None:
        """ "[Assignment: organization-defined controlled areas]" is no frequency: a "how often"
        question is not answered by it, but by "[Assignment: organization-defined frequency]";
        "when" also by the events it names."""
        often = profile_question("How often must media storage areas be inspected?", as_of=AS_OF)
        assert not often.states_figure(
            "Physically control and securely store [Assignment: organization-defined types of "
            "media] within [Assignment: organization-defined controlled areas]."
        )
        assert often.states_figure(
            "Review the access list [Assignment: organization-defined frequency]."
        )
        when = profile_question("When must training be provided under AT-2?", as_of=AS_OF)
        assert when.states_figure(
            "When required by system changes or following [Assignment: "
            "organization-defined events];"
        )
        many = profile_question("How many logon attempts are allowed?", as_of=AS_OF)
        assert not many.states_figure(
            "Alert [Assignment: organization-defined personnel or roles]."
        )
        # "How many" asks for the value itself: the organization-defined number is none
        # (tests/test_parameter_values.py).
        assert not many.states_figure(
            "Enforce a limit of [Assignment: organization-defined number] "
            "consecutive invalid logon attempts."
        )


def test_a_rule_asked_for_its_figure_is_answered_by_the_rule_not_guidance() -> None:
    """ "When must accounts be disabled": the statement leaving the time to the organization,
    not guidance that says "disabling ... accounts" in the question's own word forms."""
    statement = (
        "Disable accounts within [Assignment: organization-defined time period] when the "
        "accounts:\n  (a) Have expired;\n  (b) Are no longer associated with a user or "
        "individual;\n  (c) Are in violation of organizational policy; or\n  (d) Have been "
        "inactive for [Assignment: organization-defined time period]."
    )
    heading = "Account Management\nDisable Accounts"
    rule = _control("a", "XA-2(3)", heading, statement)
    guidance = _control(
        "b",
        "XA-2(3)",
        heading,
        "Disabling expired, inactive, or otherwise anomalous accounts supports the concepts of "
        "least privilege and least functionality which reduce the attack surface of the system.",
        start=len(statement) + 1,
    )
    drafted = _drafted("When must accounts be disabled under XA-2(3)?", [rule, guidance])
    assert drafted
    assert drafted[0].startswith("Disable accounts within")


def test_an_acronym_is_named_by_the_initials_of_the_words_it_abbreviates() -> None:
    """ "What does the UPS have to make possible": the statement writing out "uninterruptible
    power supply" names it, as much as the guidance after it saying "UPS"."""
    ups = _control(
        "pe11",
        "XE-11",
        "Emergency Power",
        "Provide an uninterruptible power supply to facilitate [Selection (one or more): an "
        "orderly shutdown of the system; transition of the system to long-term alternate power] "
        "in the event of a primary power source loss.\n\nAn uninterruptible power supply (UPS) "
        "is an electrical system or mechanism that provides emergency power when there is a "
        "failure of the main power source. A UPS is typically used to protect computers, data "
        "centers, telecommunication equipment, or other electrical equipment where an "
        "unexpected power disruption could cause injuries, fatalities, serious mission or "
        "business disruption, or loss of data or information. A UPS differs from an emergency "
        "power system or backup generator in that the UPS provides near-instantaneous "
        "protection from unanticipated power interruptions from the main power source by "
        "providing energy stored in batteries, supercapacitors, or flywheels. The battery "
        "duration of a UPS is relatively short but provides sufficient time to start a standby "
        "power source, such as a backup generator, or properly shut down the system.",
    )
    long_term = _control(
        "pe11-1",
        "XE-11(1)",
        "Emergency Power\nAlternate Power Supply — Minimal Operational Capability",
        "Provide an alternate power supply for the system that is activated [Selection: "
        "manually; automatically] and that can maintain minimally required operational "
        "capability in the event of an extended loss of the primary power source.",
    )
    shutoff = _control(
        "pe10",
        "XE-10",
        "Emergency Shutoff",
        "a. Provide the capability of shutting off power to [Assignment: organization-defined "
        "system or individual system components] in emergency situations;",
    )
    drafted = _drafted(
        "Emergency power: what does the UPS have to make possible when primary power is lost?",
        [ups, long_term, shutoff],
    )
    assert drafted
    assert drafted[0].startswith("Provide an uninterruptible power supply")


def test_should_and_want_ask_what_a_rule_requires() -> None:
    assert profile_question(
        "What should be shown while the display is locked?", as_of=AS_OF
    ).normative
    assert profile_question("What actions does MP-6 want?", as_of=AS_OF).normative


def test_more_instructions_open_a_requirement() -> None:
    assert is_normative("**Conceal, via the device lock, information previously visible**.")
    assert is_normative(
        "g. Change combinations and keys [Assignment: organization-defined frequency]"
    )
    assert not is_normative("The pattern-hiding display can include static or dynamic images.")


def test_changes_as_a_noun_ask_no_comparison() -> None:
    """ "Which changes may developers implement" asks which ones, not how much something
    changed."""
    assert answer_type("Which changes may developers implement?") != "comparison"
    assert answer_type("How did revenue change in 2022?") == "comparison"
