"""A rule's list comes whole into the evidence: an item with its lead-in, a lead-in with an item."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import cfr_store

from evidencegate.corpus import Store
from evidencegate.corpus.retrieval import FeedbackRetriever, lead_in, list_parent

AS_OF = dt.date(2024, 6, 1)
LEAD = (
    "1099-41-f-1",
    "A servicer shall not make the first notice or filing for any foreclosure process unless:",
)
ITEM = ("1099-41-f-1-i", "A borrower's mortgage loan obligation is more than 120 days delinquent;")
OTHER_ITEM = ("1099-41-f-1-ii", "The foreclosure is based on a borrower's violation of a clause;")
UNRELATED_LEAD = ("1099-20-h-3", "The disclosures in paragraph (h)(2) of this section:")
UNRELATED_ITEM = ("1099-20-h-3-i", "Are not required on gift cards sold after 120 days;")
FILLER = [
    (f"1099-{n}-a", f"A servicer must write to a delinquent borrower within {n} days of a payment.")
    for n in range(30, 42)
]


def _store(tmp_path: Path, records: list[tuple[str, str]]) -> Store:
    return cfr_store(
        tmp_path,
        [(label, "§ 1099.41 Loss mitigation procedures.", text) for label, text in records],
    )


def test_lead_ins_and_list_parents() -> None:
    """A lead-in ends where its items go on; a sub-paragraph's label numbers it under its
    paragraph's, a paragraph of a section or a control's enhancement under none."""
    assert lead_in(LEAD[1])
    assert lead_in("A creditor shall notify an applicant of action taken within:")
    assert not lead_in(ITEM[1])
    assert not lead_in("A servicer must respond within 5 days.")
    assert list_parent("1024-41-f-1-i") == "1024-41-f-1"
    assert list_parent("1002-9-a-1") == "1002-9-a"
    assert list_parent("1024-41-f") is None
    assert list_parent("AC-2(3)") is None
    assert list_parent(None) is None


class TestListParts:
    def test_an_item_kept_brings_its_lead_in(self, tmp_path: Path) -> None:
        """The item stating the figure says nothing of what it conditions: its lead-in is
        added right before it (found by its label, however low it ranks), beyond the limit."""
        with _store(tmp_path, [LEAD, ITEM, OTHER_ITEM, *FILLER]) as store:
            # A ranking one passage deep: the lead-in is not in it, its label finds it.
            retriever = FeedbackRetriever(store, feedback_docs=1, feedback_terms=0, pool_factor=1)
            question = (
                "How many days must a mortgage loan obligation be delinquent, per the process?"
            )
            first = retriever._rankings(
                question, as_of=AS_OF, pool=1, authorities=None, doc_ids=None, tenant=None
            )
            assert [p.label for r in first for p in r.passages] == [ITEM[0]]
            found = retriever.search(question, as_of=AS_OF, limit=1)
            assert [p.label for p in found] == [LEAD[0], ITEM[0]]
            # The lead-in is marked as completing the item: it was not ranked for the question.
            assert [p.completes for p in found] == [found[1].passage_id, None]

    def test_a_lead_in_sharing_no_word_with_the_question_is_not_added(self, tmp_path: Path) -> None:
        """A kept item whose lead-in speaks of something else ("the disclosures in paragraph
        (h)(2)") does not bring it: it would only crowd the evidence."""
        with _store(tmp_path, [UNRELATED_LEAD, UNRELATED_ITEM, *FILLER]) as store:
            found = FeedbackRetriever(store).search(
                "Within how many days are gift cards sold?", as_of=AS_OF, limit=2
            )
            labels = [p.label for p in found]
            assert UNRELATED_ITEM[0] in labels
            assert UNRELATED_LEAD[0] not in labels

    def test_a_lead_in_kept_brings_its_best_ranked_item(self, tmp_path: Path) -> None:
        """A lead-in ("... unless:") is completed by the first of its items in the ranking."""
        with _store(tmp_path, [LEAD, ITEM, OTHER_ITEM, *FILLER]) as store:
            retriever = FeedbackRetriever(store)
            question = "When may a servicer not make the first notice or filing for foreclosure?"
            found = retriever.search(question, as_of=AS_OF, limit=1)
            labels = [p.label for p in found]
            assert labels[0] == LEAD[0]
            assert labels[1] in {ITEM[0], OTHER_ITEM[0]}
            assert len(labels) == 2
            # One was ranked for the question, the other completes it.
            (ranked,) = [p for p in found if p.completes is None]
            assert [p.completes for p in found if p is not ranked] == [ranked.passage_id]

    @pytest.mark.parametrize("limit", [1, 3, 8])
    def test_no_list_no_addition(self, tmp_path: Path, limit: int) -> None:
        """Passages of no list are returned as ranked, ``limit`` of them."""
        with _store(tmp_path, FILLER) as store:
            found = FeedbackRetriever(store).search(
                "How soon must a servicer write to a delinquent borrower?", as_of=AS_OF, limit=limit
            )
            assert len(found) == limit
            assert all(p.completes is None for p in found)


INTERPS = [
    (
        f"1099-41-f-Interp-{n}",
        f"Example {n}: a servicer reviewing a delinquent borrower's loss mitigation application "
        f"before the first notice or filing for foreclosure, case {n}.",
    )
    for n in range(1, 12)
]
RULE = (
    "1099-41-f-2",
    "If a borrower submits a complete loss mitigation application, a servicer shall not make "
    "the first notice or filing for foreclosure.",
)


class TestRuleText:
    def test_rule_text_stands_beside_its_interpretations(self, tmp_path: Path) -> None:
        """Official interpretations that restate the question fill the ranked evidence; the
        rule's own paragraph, ranked below them, is added beside them (none gives its place)
        and marked as completing the first passage of its document: it was not ranked among
        the evidence, so no share of the ranked passages changes."""
        with _store(tmp_path, [*INTERPS, RULE]) as store:
            retriever = FeedbackRetriever(store)
            question = (
                "Before the first notice or filing for foreclosure, what must a servicer do "
                "with a delinquent borrower's loss mitigation application?"
            )
            found = retriever.search(question, as_of=AS_OF, limit=4)
            ranked = [p for p in found if p.completes is None]
            assert len(ranked) == 4
            assert all("Interp" in (p.label or "") for p in ranked)
            (rule,) = [p for p in found if p.completes is not None]
            assert rule.label == RULE[0]
            assert rule.completes == ranked[0].passage_id
            assert found[-1] is rule
