"""The ask of a question that first sets out a scenario in a sentence of its own."""

from __future__ import annotations

import pytest

from evidencegate.analysis import ask_clause


def test_scenario_then_ask() -> None:
    question = (
        "A customer disputes a debit on her checking account. How many business days does "
        "the bank have to figure out whether there was an error?"
    )
    assert ask_clause(question) == (
        "How many business days does the bank have to figure out whether there was an error?"
    )


def test_ask_with_a_leading_phrase_ends_with_a_question_mark() -> None:
    question = "My client lost her card. Under Regulation E, what cap applies?"
    assert ask_clause(question) == "Under Regulation E, what cap applies?"


@pytest.mark.parametrize(
    "question",
    [
        "How many business days does a bank have to investigate an error?",
        "If a card is lost, what is the cap on liability?",
        "What is the cap? And who pays it?",  # two asks, no scenario
        "The bank has 10 days. The customer has 60 days.",  # no ask at all
    ],
)
def test_no_scenario(question: str) -> None:
    assert ask_clause(question) is None
