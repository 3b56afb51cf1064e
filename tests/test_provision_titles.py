"""A question asking which provision says something ("which control is segregation of
duties?") is answered by the retrieved provision whose title states what is asked ("Separation
of Duties"), not by a neighbour whose title or statement shares a word with the question
("Dynamic Isolation and Segregation"); the critic refuses the neighbour."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import (
    Citation,
    Claim,
    Passage,
)
from evidencegate.corpus.retrieval import (
    phrase_fit,
    provision_fit,
    provision_key,
    provision_subject,
    provision_title,
    subject_weights,
    title_fit,
)
from evidencegate.corpus.scope import provision_named
from evidencegate.critique.rules import RulesCritic
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
        "XC-7(20)",
        "Boundary Protection\nDynamic Isolation and Segregation",
        "Provide the capability to dynamically isolate system components from other system "
        "components.",
    ),
    (
        2,
        "XC-5",
        "Separation of Duties",
        "Identify and document the duties of individuals requiring separation; and define "
        "system access authorizations to support separation of duties.",
    ),
    (
        4,
        "XC-8",
        "Personnel Sanctions",
        "Employ a formal sanctions process for individuals failing to comply with the "
        "segregation of duties.",
    ),
    (
        3,
        "XC-4(4)",
        "Information Flow Enforcement\nFlow Control of Encrypted Information",
        "Prevent encrypted information from bypassing information flow control mechanisms.",
    ),
]


def _passage(number: int, label: str, heading: str, text: str) -> Passage:
    return Passage(
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


def _passages() -> list[Passage]:
    return [_passage(*control) for control in CONTROLS]


def _subject(question: str) -> tuple[str, ...]:
    return provision_subject(profile_question(question, as_of=AS_OF))


class TestSubject:
    def test_the_words_calling_the_provision_and_relating_it_are_no_subject(self) -> None:
        assert _subject("Which control is segregation of duties?") == ("segregation", "duty")
        assert _subject("Which section of Regulation X covers escrow accounts?") == (
            "escrow",
            "account",
        )
        assert _subject("which NIST control enhancement requires encrypted transfers?") == (
            "encrypt",
            "transfer",
        )

    def test_a_kind_word_later_in_the_question_is_its_subject(self) -> None:
        # "the rules of behavior" is a title ("Rules of Behavior"), not the provision asked
        assert "rule" in _subject("Which control makes users sign the rules of behavior?")

    def test_a_question_asking_what_a_provision_says_has_none(self) -> None:
        assert _subject("What does control XC-5 require?") == ()
        assert _subject("How long must escrow records be kept?") == ()


class TestFit:
    def test_the_title_is_read_without_label_document_and_section_number(self) -> None:
        passage = _passage(9, "1024-17-a", "§ 1024.17 Escrow accounts.\nGeneral.", "Text.")
        assert provision_title(passage) == ("escrow", "account", "general")
        assert provision_key(passage) == ("CAT", "5", "1024-17-a")

    def test_a_title_states_the_subject_by_its_words_family_and_acts(self) -> None:
        isolation, separation, *_ = _passages()
        subject = _subject("Which control is segregation of duties?")
        # "segregation" and "separation" name one act (by half), "duties" is the title's own
        assert title_fit(separation, subject) == pytest.approx(0.75)
        assert title_fit(isolation, subject) == pytest.approx(0.5)  # "segregation" alone
        assert provision_fit(separation, subject)[1] >= provision_fit(isolation, subject)[1]

    def test_an_enhancement_whose_own_title_states_it_fits_whole(self) -> None:
        encrypted = _passages()[3]
        subject = _subject("which enhancement controls the flow of encrypted information?")
        assert title_fit(encrypted, subject) == pytest.approx(1.0)


class TestWeighing:
    def test_a_compound_is_read_as_its_words(self) -> None:
        assert _subject("Which control covers an anti-tamper program?") == (
            "anti",
            "tamper",
            "program",
        )

    def test_a_title_stating_the_subjects_phrase_fits_it(self) -> None:
        keys = _passage(8, "XC-28(3)", "Protection at Rest\nCryptographic Keys", "Keys.")
        protection = _passage(9, "XC-28(1)", "Protection at Rest\nCryptographic Protection", "")
        subject = _subject("Which enhancement requires cryptographic protection of data?")
        assert phrase_fit(protection, subject) == pytest.approx(0.5)  # of two pairs, one
        assert phrase_fit(keys, subject) == 0.0
        assert title_fit(protection, subject) == title_fit(keys, subject)

    def test_a_word_rare_only_as_written_weighs_as_its_sense(self) -> None:
        subject = _subject("Which control is segregation of duties?")
        weights = subject_weights(subject, _passages())
        # three passages state "segregation" in some sense (XC-5 as "separation"), two
        # "duties": as written, each stands in two
        assert weights["segregation"] < weights["duty"]


class TestDraft:
    def test_the_claim_comes_from_the_best_titled_provision(self) -> None:
        # XC-8's sentence repeats "segregation of duties"; XC-5's title says it.
        catalog = Catalog(CONTROLS, TITLE)
        question = "Which control is segregation of duties?"
        draft = ExtractiveGenerator(pages=catalog).draft(question, _passages(), as_of=AS_OF)
        assert draft.claims
        assert all(c.text.startswith("XC-5 Separation of Duties:") for c in draft.claims)

    def test_a_question_asking_what_it_says_is_drafted_as_before(self) -> None:
        catalog = Catalog(CONTROLS, TITLE)
        question = "What does the separation of duties control require?"
        draft = ExtractiveGenerator(pages=catalog).draft(question, _passages(), as_of=AS_OF)
        assert draft.claims
        assert not any(c.text.startswith("XC-") for c in draft.claims)


def _audit(question: str, number: int) -> list[str]:
    """The critic's missing facts for a claim quoting control ``number`` whole, named."""
    catalog = Catalog(CONTROLS, TITLE)
    text = next(text for page, _, _, text in CONTROLS if page == number)
    source = catalog.lookup("CAT", "5", number)
    assert source is not None
    citation = Citation(
        doc_id="CAT", version="5", page=number, quote=text, evidence_id=f"p{number}"
    )
    claim = Claim(claim_id="c-1", text=provision_named(text, source), citations=[citation])
    evidence = _passages()
    checks = [Verifier.from_policy(catalog, Policy()).verify(claim, as_of=AS_OF)]
    critic = RulesCritic(pages=catalog)
    sufficiency = critic.sufficiency(question, evidence, as_of=AS_OF)
    audit = critic.audit(
        question, [claim], checks, evidence, as_of=AS_OF, required_facts=sufficiency.required_facts
    )
    return audit.missing_facts


class TestCritic:
    def test_a_neighbour_outtitled_by_a_retrieved_provision_is_refused(self) -> None:
        missing = _audit("Which control is segregation of duties?", 1)
        assert any("XC-5" in fact for fact in missing), missing

    def test_the_best_titled_provision_is_not_refused_for_it(self) -> None:
        missing = _audit("Which control is segregation of duties?", 2)
        assert not any("title" in fact for fact in missing), missing

    def test_a_question_asking_no_provision_is_not_judged_by_titles(self) -> None:
        missing = _audit("What must be isolated dynamically from other system components?", 1)
        assert not any("title" in fact for fact in missing), missing
