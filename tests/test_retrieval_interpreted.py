"""The rule paragraph that several ranked interpretations explain comes into the evidence beside
them."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import cfr_store

from evidencegate.corpus import Store
from evidencegate.corpus.retrieval import FeedbackRetriever, interpreted_label

AS_OF = dt.date(2024, 6, 1)
RULE = (
    "1099-39-a",
    "Such contact shall be established or attempted not later than the 36th day of the "
    "arrangement.",
)
INTERPS = [
    (
        f"1099-39-a-Interp-{n}",
        f"Example {n}: a servicer telephoning a borrower who is behind on payments within 5 "
        f"days, or meeting the borrower behind on payments in person, case {n}.",
    )
    for n in range(1, 6)
]
OTHER_INTERP = (
    "1099-40-b-Interp-1",
    "A servicer assigning personnel to a borrower behind on payments may telephone that "
    "borrower within 5 days.",
)
FILLER = [
    (f"1099-{50 + n}-c", f"A lender must keep the {kind} records of a loan application.")
    for n, kind in enumerate(("credit", "income", "appraisal", "title", "flood", "tax"))
]
QUESTION = "How soon must a servicer telephone a borrower behind on payments, in person or not?"


def _store(tmp_path: Path, records: list[tuple[str, str]]) -> Store:
    return cfr_store(
        tmp_path,
        [(label, "§ 1099.39 Early intervention.", text) for label, text in records],
    )


def test_interpreted_label() -> None:
    """An interpretation's label names the rule paragraph it interprets before "-Interp"."""
    assert interpreted_label("1024-39-a-Interp-1-iv") == "1024-39-a"
    assert interpreted_label("1002-13-b-Interp-5") == "1002-13-b"
    assert interpreted_label("1024-39-a") is None
    assert interpreted_label("AC-2(3)") is None
    assert interpreted_label(None) is None


class TestInterpretedRule:
    def test_the_rule_stands_beside_its_interpretations(self, tmp_path: Path) -> None:
        """Interpretations restating the question fill the evidence; the rule they explain,
        which states the deadline in none of the question's words (no ranking holds it), is
        added after them, marked as completing the first: none of them gives its place."""
        with _store(tmp_path, [*INTERPS, RULE, *FILLER]) as store:
            retriever = FeedbackRetriever(store, feedback_terms=0)
            rankings = retriever._rankings(
                QUESTION, as_of=AS_OF, pool=15, authorities=None, doc_ids=None, tenant=None
            )
            assert RULE[0] not in {p.label for r in rankings for p in r.passages}
            found = retriever.search(QUESTION, as_of=AS_OF, limit=3)
            ranked = [p for p in found if p.completes is None]
            assert len(ranked) == 3
            assert {label for label, _ in INTERPS} >= {p.label for p in ranked}
            (rule,) = [p for p in found if p.label == RULE[0]]
            assert rule.completes == ranked[0].passage_id

    def test_two_interpretations_bring_no_rule(self, tmp_path: Path) -> None:
        """Two interpretations of a rule are no crowd: the rule is not brought (on the helpers'
        questions, two brought a rule that an unanswerable question was answered by)."""
        with _store(tmp_path, [*INTERPS[:2], OTHER_INTERP, RULE, *FILLER]) as store:
            retriever = FeedbackRetriever(store, feedback_terms=0)
            found = retriever.search(QUESTION, as_of=AS_OF, limit=3)
            ranked = [p.label for p in found if p.completes is None]
            assert set(ranked) == {INTERPS[0][0], INTERPS[1][0], OTHER_INTERP[0]}
            assert RULE[0] not in {p.label for p in found}
