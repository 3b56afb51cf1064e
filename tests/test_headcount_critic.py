"""The rules critic reading a head count stated in prose: "employed approximately 95,000
people" states a global headcount (its figure, its scope words, the whole beside its regions);
a name's possessive piece is no measured word; a requester opening is no focus."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import profile_question
from evidencegate.contracts import Citation, CitationCheck, Claim, ClaimVerification, Passage
from evidencegate.critique.rules import (
    RulesCritic,
    _headcount_answered,
    _possessive_words,
)

AS_OF = dt.date(2024, 6, 30)
HUMAN_CAPITAL = (
    "Human Capital\nOn December 31, 2023, Globex employed approximately 95,000 people "
    "(full-time equivalents), with approximately 40,000 employed in the United States and "
    "55,000 employed internationally."
)
US_ONLY = (
    "Human Capital\nOn December 31, 2023, approximately 40,000 were employed in the United States."
)


def _answered(question: str, text: str) -> frozenset[str]:
    return _headcount_answered(profile_question(question, as_of=AS_OF), [text])


class TestHeadcountAnswered:
    @pytest.mark.parametrize(
        ("question", "words"),
        [
            ("What was Globex's global headcount at the end of 2023?", {"global", "headcount"}),
            ("How big was Globex's workforce at the end of 2023?", {"workforce"}),
            (
                "How many employees did Globex have outside the United States at the end of 2023?",
                {"employee", "outside", "unit", "state"},
            ),
            (
                "How many people did Globex employ in the United States at the end of 2023?",
                {"people", "employ", "unit", "state"},
            ),
        ],
    )
    def test_a_count_of_the_asked_scope_states_its_words(
        self, question: str, words: set[str]
    ) -> None:
        assert _answered(question, HUMAN_CAPITAL) == words

    def test_a_count_of_another_scope_states_none(self) -> None:
        assert _answered("What was Globex's global headcount at the end of 2023?", US_ONLY) == set()
        outside = "How many people did Globex employ outside the US at the end of 2023?"
        assert _answered(outside, US_ONLY) == set()

    def test_a_part_of_the_workforce_is_no_head_count(self) -> None:
        assert (
            _answered("How many union members did Globex employ in 2023?", HUMAN_CAPITAL) == set()
        )
        assert _answered("Globex headcount growth 2023?", HUMAN_CAPITAL) == set()

    def test_a_part_named_before_the_noun_stays_to_be_stated(self) -> None:
        words = _answered("Globex rigid packaging headcount at the end of 2023?", HUMAN_CAPITAL)
        assert words == {"headcount"}

    def test_a_share_or_a_number_of_something_else_is_no_count(self) -> None:
        question = "What was Globex's global headcount at the end of 2023?"
        assert _answered(question, "In 2023, 23% of our workforce were women.") == set()
        assert _answered(question, "In 2023 we received feedback from 30,000 employees.") == set()


def test_a_possessive_leaves_a_piece_of_the_name() -> None:
    profile = profile_question("What was J&J's Pharmaceutical segment income in 2021?", as_of=AS_OF)
    assert _possessive_words(profile) == {"j"}
    profile = profile_question("What was Globex's revenue in 2021?", as_of=AS_OF)
    assert _possessive_words(profile) == set()


def _passage(text: str) -> Passage:
    return Passage(
        passage_id="p1",
        doc_id="GLOBEX_2023_10K",
        version="FY2023",
        page=6,
        char_start=0,
        char_end=len(text),
        text=text,
        authority="primary",
    )


def _missing(question: str, text: str) -> list[str]:
    critic = RulesCritic()
    evidence = [_passage(text)]
    required = critic.sufficiency(question, evidence, as_of=AS_OF).required_facts
    quote = Citation(
        doc_id="GLOBEX_2023_10K", version="FY2023", page=6, quote=text, evidence_id="p1"
    )
    claim = Claim(claim_id="c1", text=text, citations=[quote])
    cite = quote.model_copy(update={"char_start": 0, "char_end": len(text)})
    verified = ClaimVerification(
        claim_id="c1", ok=True, citations=[CitationCheck(citation=cite, ok=True)]
    )
    audit = critic.audit(
        question, [claim], [verified], evidence, as_of=AS_OF, required_facts=required
    )
    return audit.missing_facts


class TestAudit:
    @pytest.mark.parametrize(
        "question",
        [
            "How big was Globex's workforce at the end of 2023?",
            "What was Globex's global headcount at the end of 2023?",
            "How many employees did Globex have outside the United States at the end of 2023?",
        ],
    )
    def test_the_count_of_the_asked_scope_answers(self, question: str) -> None:
        assert _missing(question, HUMAN_CAPITAL) == []

    def test_a_count_of_the_us_alone_answers_no_global_headcount(self) -> None:
        missing = _missing("What was Globex's global headcount at the end of 2023?", US_ONLY)
        assert any(f.startswith("figure: ") for f in missing)
