"""A proportion asked in other words than "X as a percentage of Y" is searched by the rows of
its two figures: asked with a sign ("as % of"), the whole first ("what percent of net sales
was operating income") or by the name of a ratio the lexicon defines ("gross margin" is gross
profit as a percentage of net sales). A share whose source the question names ("what share
of revenues was earned under government contracts") is no quotient of two rows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from conftest import filing_store

from evidencegate.analysis import profile_question
from evidencegate.corpus import Store, retrieval
from evidencegate.corpus.retrieval import FeedbackRetriever, _measured, proportion_operands

AS_OF = dt.date(2023, 6, 30)


def _operands(question: str) -> tuple[tuple[str, ...], ...]:
    return proportion_operands(question, profile_question(question, as_of=AS_OF), AS_OF)


@pytest.mark.parametrize(
    "question",
    [
        "Acme gross profit as a percentage of net sales in FY2022?",
        "Acme gross profit as % of net sales, FY2022",
        "What percent of net sales was Acme's gross profit in FY2022?",
        "acme gross margin % fy2022",
        "What was Acme's gross margin in fiscal 2022?",
    ],
)
def test_a_proportion_in_other_words_has_two_figures(question: str) -> None:
    assert _operands(question) == (("gross", "profit"), ("net", "sale"))


@pytest.mark.parametrize(
    "question",
    [
        "What share of Acme's 2022 revenues was earned under U.S. government contracts?",
        "What percentage of Acme's revenue in 2022 was derived from government contracts?",
        "What were Acme's net sales in 2022?",
        "How many days does a servicer have to acknowledge a notice of error?",
    ],
)
def test_no_two_figures_where_none_is_asked(question: str) -> None:
    assert _operands(question) == ()


MARGIN_PAGES = [
    f"The notes due {2030 + n} bear interest at {4 + n / 8:.3f}% per annum, and the margin over "
    f"the benchmark rate on the revolving facility is {1 + n / 10:.2f}%. Acme's gross leverage "
    f"margin of safety stayed at {n}% of the covenant."
    for n in range(6)
]
STATEMENT = (
    "Consolidated Statements of Income\n($ in millions) 2022 2021\n"
    "Net sales $ 14,544 $ 12,861\nCost of sales (11,724) (10,129)\nGross profit 2,820 2,732\n"
    "Operating income 1,239 1,321"
)


def _filing(tmp_path: Path) -> Store:
    front = [
        "doc_id: ACME_2022_10K",
        "version: FY2022",
        "version_date: 2022-08-18",
        "entity: Acme",
        "period: FY2022",
    ]
    return filing_store(tmp_path, "acme", front, [*MARGIN_PAGES, STATEMENT], notes=30)


def _statement_rank(store: Store, question: str) -> int | None:
    retriever = FeedbackRetriever(store)
    scope = retriever.scope(question, as_of=AS_OF)
    found = retriever.search(question, as_of=AS_OF, limit=4, doc_ids=list(scope.doc_ids or ()))
    return next((i for i, p in enumerate(found) if "Gross profit 2,820" in p.text), None)


def test_a_ratio_by_its_name_finds_the_statement_of_its_figures(tmp_path: Path) -> None:
    """ "Gross margin": pages on interest margins, stating many percentages, share the word;
    the income statement stating gross profit and net sales answers."""
    with _filing(tmp_path) as store:
        assert _statement_rank(store, "What was Acme's gross margin in fiscal 2022?") is not None


def test_without_the_definition_the_statement_is_not_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same search reading the question's own operands only (none): the margin pages
    crowd the statement out. Guards that the test above tests the mechanism."""
    monkeypatch.setattr(
        retrieval, "proportion_operands", lambda q, profile, as_of: profile.operands
    )
    with _filing(tmp_path) as store:
        assert _statement_rank(store, "What was Acme's gross margin in fiscal 2022?") is None


@pytest.mark.parametrize(
    ("question", "measured"),
    [
        ("3M net income 2017 vs 2016 % change", ["net", "income"]),
        ("Acme net sales 2022 versus 2021?", ["net", "sale"]),
    ],
)
def test_a_figure_against_another_year_is_ranked_by_what_it_measures(
    question: str, measured: list[str]
) -> None:
    """ "vs", "versus", "yoy" say the figure is compared with another year's: no row names
    them, so the row of net income is what the question's row fit looks for."""
    assert _measured(profile_question(question, as_of=AS_OF).measure) == measured
