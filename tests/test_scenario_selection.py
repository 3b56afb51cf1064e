"""A question that sets out a scenario and then asks: the ask's words pick the rule, the
scenario's conditions pick the rule's branch."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.contracts import Passage
from evidencegate.generation import extractive
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2018, 6, 1)


def _passages(*texts: str) -> list[Passage]:
    return [
        Passage(
            passage_id=f"p{i}",
            doc_id="12 CFR 1005",
            version="v1",
            page=i + 1,
            char_start=0,
            char_end=len(text),
            text=text,
        )
        for i, text in enumerate(texts)
    ]


OVERDRAFT = (
    "Upon debiting a provisionally credited amount, the financial institution shall notify the "
    "consumer that the institution will honor checks, drafts, or similar instruments payable to "
    "third parties and preauthorized transfers from the consumer's account (without charge to "
    "the consumer as a result of an overdraft) for five business days after the notification."
)
DETERMINE = (
    "A financial institution shall investigate promptly and shall determine whether an error "
    "occurred within 10 business days of receiving a notice of error."
)
SCENARIO = (
    "A customer disputes a debit on her checking account. How many business days does the "
    "bank have to figure out whether there was an error?"
)
BRANCHES = (
    "A creditor shall send the adverse action notice within 30 days after taking adverse "
    "action on an existing account.",
    "A creditor shall notify the applicant of action taken within 90 days after notifying the "
    "applicant of a counteroffer if the applicant does not expressly accept or use the credit "
    "offered.",
)
COUNTEROFFER = (
    "A lender made a counteroffer and the applicant never accepted or used the credit. Within "
    "how many days must the lender send the adverse action notice?"
)


def _answer(question: str, texts: tuple[str, ...]) -> str:
    draft = ExtractiveGenerator().draft(question, _passages(*texts), as_of=AS_OF)
    assert draft.claims, draft.declined
    return draft.claims[0].text


def test_the_ask_outweighs_the_scenario() -> None:
    """The overdraft sentence shares the scenario's words; the ask is the error deadline."""
    assert "10 business days" in _answer(SCENARIO, (OVERDRAFT, DETERMINE))


def test_the_scenario_picks_the_branch() -> None:
    """Both branches state the ask's words; the scenario's case is the counteroffer."""
    assert "90 days" in _answer(COUNTEROFFER, BRANCHES)


def test_without_the_mechanism_the_scenario_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: weighing the scenario like the ask picks the overdraft."""
    monkeypatch.setattr(extractive, "SCENE_WEIGHT", 1.0)
    monkeypatch.setattr(extractive, "ask_clause", lambda question: None)
    assert "five business days" in _answer(SCENARIO, (OVERDRAFT, DETERMINE))


def test_without_the_pairs_another_branch_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The branch test can fail: without the scenario's word pairs the other branch wins."""
    monkeypatch.setattr(extractive, "SCENE_PAIR_BONUS", 0.0)
    assert "90 days" not in _answer(COUNTEROFFER, BRANCHES)
