"""Retrieval reads the names a question chooses its documents by as names: a filer's name or
ticker is neither expanded through the lexicon nor searched within the filer's own filings,
a lower-case name is read as the catalog writes it, and a figure asked "by what percent" is
ranked by what it measures."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import filing_store

from evidencegate.corpus import Store
from evidencegate.corpus.retrieval import FeedbackRetriever, _measured, as_named

AS_OF = dt.date(2023, 6, 30)

PENSION = (
    "The PEP Pension Equalization Plan (the PEP) had 1,200 PEP participants as of December 31, "
    "2022. A PEP participant who is a politically exposed person keeps the PEP benefit."
)
HEADCOUNT = "We had approximately 315,000 employees worldwide as of December 31, 2022."


def _filing(tmp_path: Path, *, period: bool = True) -> Store:
    front = [
        "doc_id: PEPCO_2022_10K",
        "version: FY2022",
        "version_date: 2023-02-09",
        "entity: Pepco",
        "aliases: [PEP]",
    ]
    if period:
        front.append("period: FY2022")
    # The headcount, two exhibits, and pages on other matters ("PEP" is a rare word in it).
    pages = [HEADCOUNT, PENSION, PENSION.replace("keeps", "retains")]
    return filing_store(tmp_path, "pepco", front, pages, notes=40)


def _top(store: Store, question: str) -> str:
    retriever = FeedbackRetriever(store)
    scope = retriever.scope(question, as_of=AS_OF)
    assert scope.doc_ids == ("PEPCO_2022_10K",)
    (first, *_) = retriever.search(
        question, as_of=AS_OF, limit=3, doc_ids=list(scope.doc_ids or ())
    )
    return first.text


def test_a_filers_ticker_is_not_searched_in_its_own_filing(tmp_path: Path) -> None:
    """ "PEP headcount": the exhibits writing "PEP" over and over are not the answer; the
    sentence stating the headcount (in the lexicon's words, "employees") is."""
    with _filing(tmp_path) as store:
        assert _top(store, "PEP headcount FY22?") == HEADCOUNT


def test_only_a_filers_names_are_filer_names(tmp_path: Path) -> None:
    """The names of a document with a period are a filer's; a regulation's are not (a
    document with no period: "exempt from RESPA" asks about the Act itself)."""
    with _filing(tmp_path) as store:
        names, filers = FeedbackRetriever(store)._scope_names(
            as_of=AS_OF, doc_ids=["PEPCO_2022_10K"], tenant=None
        )
        assert {"Pepco", "PEP"} <= filers and names == filers
    with _filing(tmp_path / "other", period=False) as store:
        names, filers = FeedbackRetriever(store)._scope_names(
            as_of=AS_OF, doc_ids=["PEPCO_2022_10K"], tenant=None
        )
        assert {"Pepco", "PEP"} <= names and not filers
    with _filing(tmp_path / "unscoped") as store:
        assert FeedbackRetriever(store)._scope_names(as_of=AS_OF, doc_ids=None, tenant=None) == (
            frozenset(),
            frozenset(),
        )


def test_a_lower_case_name_is_read_as_the_catalog_writes_it() -> None:
    """Only the case changes: "pepco etr fy22" is analysed with "Pepco" as a name."""
    assert as_named("pepco etr fy22", {"Pepco", "PEP"}) == "Pepco etr fy22"
    assert as_named("pep etr fy22", {"Pepco", "PEP"}) == "PEP etr fy22"
    assert as_named("pepco etr fy22", set()) == "pepco etr fy22"


def test_percent_words_opening_or_closing_a_measure_are_dropped() -> None:
    assert _measured(("percent", "net", "sale")) == ["net", "sale"]
    assert _measured(("net", "revenue", "percent")) == ["net", "revenue"]
    # Part of the measure's name between two others, or all there is: kept.
    assert _measured(("operat", "income", "percentage", "sale")) == [
        "operat",
        "income",
        "percentage",
        "sale",
    ]
    assert _measured(("percentage",)) == ["percentage"]
