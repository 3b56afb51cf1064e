"""A proportion whose two figures stand on two primary statements of one filing: retrieval
keeps both statement pages in the evidence, and only when no one statement states both."""

from __future__ import annotations

from evidencegate.contracts import Passage
from evidencegate.corpus.retrieval import _two_statements, _with_continuations
from evidencegate.corpus.rows import row_labels, statement_row_fit

INCOME = (
    "Northwind Inc.\nConsolidated Statement of Incom e\n(Millions) 2024 2023\n"
    "Net sales $ 4,100 $ 3,900\nGain on sale of businesses (40) (10)\n"
    "Operating income 700 650\n"
)
CASH_FLOWS = (
    "Northwind Inc.\nConsolidated Statement of Cash Flows\n(Millions) 2024 2023\n"
    "Purchases of property, plant and equipment (PP&E) (210) (190)\n"
    "Proceeds from sale of businesses, net of cash sold 12 4\n"
)
CAPEX, NET_SALES, OPERATING = ("capital", "expenditure"), ("net", "sale"), ("operat", "income")


def _page(page: int, text: str, doc: str = "NW_2024_10K") -> Passage:
    return Passage(
        passage_id=f"{doc}-{page}",
        doc_id=doc,
        version="FY2024",
        page=page,
        char_start=0,
        char_end=len(text),
        text=text,
        context="Northwind Inc. Form 10-K 2024",
    )


def test_a_title_split_by_the_pdf_and_an_abbreviation_still_make_a_statement_row() -> None:
    """ "Consolidated Statement of Incom e" is the income statement; "(PP&E)" restates the
    words before it, so the row states capital expenditure and little besides."""
    assert statement_row_fit(INCOME, list(NET_SALES))
    assert statement_row_fit(CASH_FLOWS, list(CAPEX))
    assert ("purchase", "property", "plant", "equipment") in row_labels(CASH_FLOWS)


def test_the_two_statements_of_one_filing_are_kept() -> None:
    """Capital expenditure on the cash flow statement, net sales on the income statement:
    the first of each, both of one filing (not another year's filing ranked first)."""
    income, flows = _page(40, INCOME), _page(42, CASH_FLOWS)
    other_year = _page(38, INCOME, doc="NW_2023_10K")
    ranking = {"capital": [flows], "net": [other_year, income]}

    def ranked(words: str) -> list[Passage]:
        return next(r for key, r in ranking.items() if key in words.split())

    assert _two_statements([CAPEX, NET_SALES], "Northwind", ranked) == [flows, income]


def test_not_when_one_statement_states_both() -> None:
    """Operating income and net sales are both on the income statement: it is read as one
    table, and nothing is forced into the evidence."""
    income, flows = _page(40, INCOME), _page(42, CASH_FLOWS)

    def ranked(words: str) -> list[Passage]:
        return [flows, income]

    assert _two_statements([OPERATING, NET_SALES], "Northwind", ranked) == []


def test_a_continuation_does_not_displace_a_kept_ask_passage() -> None:
    """A passage cut inside a list brings its continuation in place of the last passage that
    is neither of them, and never in place of an ask's kept passage."""
    cut = Passage(
        passage_id="cut", doc_id="d", version="v", page=1, char_start=0, char_end=10, text="a; and"
    )
    follow = Passage(
        passage_id="follow", doc_id="d", version="v", page=1, char_start=11, char_end=20, text="b"
    )
    other = _page(2, "other")
    asked = _page(3, "asked")
    out = _with_continuations(
        [cut, other, asked], [cut, follow, other, asked], 3, frozenset({"NW_2024_10K-3"})
    )
    assert [p.passage_id for p in out] == ["cut", "follow", "NW_2024_10K-3"]
