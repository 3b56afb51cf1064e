"""Answer selection: table cells with their headers, list lead-ins, one claim per ask, scope."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLE_CORPUS, cfr_store, labelled_paragraph, shared_path
from store_schemas import write_schema_1_store

from evidencegate.analysis import answer_type, profile_question
from evidencegate.contracts import DocumentVersion, Outcome, Page, Passage, SourcePage
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.retrieval import FeedbackRetriever, fuse_rankings
from evidencegate.gate import EvidenceGate
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.tables import table_cells
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus, capture_trace, events_of_kind
from evidencegate.trace.events import ScopeEvent
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2019, 6, 30)

# A cash flow statement as pypdf flattens it (one cell a line) and as another extractor lays it
# out (one row a line): the same cells either way.
PER_LINE = (
    "3M Company and Subsidiaries\nConsolidated Statement of Cash Flows\n"
    "Years ended December 31\n(Millions)\n \n2018\n \n2017\n \n2016\n \n"
    "Repayment of debt (maturities greater than 90 days)\n \n(1,034)\n \n(962)\n \n(992)\n"
    "Purchases of property, plant and equipment (PP&E)\n \n \n(1,577)\n \n \n(1,373)\n \n(1,420)\n"
    "Cash and cash equivalents at end of period\n \n$\n2,853\n \n$\n3,053\n \n$\n2,398\n"
)
PER_ROW = (
    "Consolidated Statement of Cash Flows (Millions) 2018 2017 2016\n"
    "Purchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)\n"
    "Operating income margin 19.1 % 20.8 % 22.3 %\n"
)


def _cfr_paragraph(label: str, page: int, text: str, *, context: str) -> Passage:
    """A paragraph of a made-up CFR part, one page per labelled paragraph."""
    return labelled_paragraph("12 CFR 1099", label, page, text, context=context)


class TestTableCells:
    @pytest.mark.parametrize("text", [PER_LINE, PER_ROW])
    def test_cells_carry_row_and_year(self, text: str) -> None:
        """Each cell is read with its row label and its column's year, whatever the layout."""
        cells = {(c.label.split("(PP&E)")[0].strip(), c.year): c.value for c in table_cells(text)}
        assert cells[("Purchases of property, plant and equipment", 2018)] == "(1,577)"
        assert cells[("Purchases of property, plant and equipment", 2016)] == "(1,420)"

    def test_numbers_inside_labels_stay_in_the_label(self) -> None:
        """'greater than 90 days' is part of the row's label, not a cell."""
        (row,) = {c.label for c in table_cells(PER_LINE) if "Repayment" in c.label}
        assert row.endswith("(maturities greater than 90 days)")

    def test_dollars_and_percent(self) -> None:
        """A '$' before a cell and a '%' after it belong to the cell."""
        cells = {(c.label, c.year): c for c in table_cells(PER_LINE + PER_ROW)}
        assert cells[("Cash and cash equivalents at end of period", 2018)].dollars
        assert cells[("Operating income margin", 2017)].value == "20.8%"


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add("3M_2018_10K", "FY2018", dt.date(2019, 2, 7), [PER_LINE])
    corpus.add(
        "POL-1",
        "1",
        dt.date(2019, 1, 1),
        [
            "4.1 Employees must complete the following steps before a trade is placed:"
            " obtain pre-clearance from Compliance through the portal.\n\n"
            "4.2 Pre-clearance is valid for 2 business days.\n\n"
            "4.3 Employees must hold every investment for 30 calendar days."
        ],
    )
    return corpus


def evidence(corpus: InMemoryCorpus, question: str) -> list[Passage]:
    return corpus.search(question, as_of=AS_OF, limit=8)


class TestExtractiveGenerator:
    def test_table_cell_answers_with_row_and_header(self, corpus: InMemoryCorpus) -> None:
        """The cell of the asked year is drafted, quoting its row and its header, and verifies."""
        question = "What were 3M's purchases of property, plant and equipment in 2017?"
        generator = ExtractiveGenerator(pages=corpus)
        draft = generator.draft(question, evidence(corpus, question), as_of=AS_OF)
        (claim,) = draft.claims
        assert "(1,373)" in claim.text and "2017" in claim.text
        assert len(claim.citations) == 2
        verification = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        assert verification.ok, verification.reasons

    def test_latest_column_when_no_year(self, corpus: InMemoryCorpus) -> None:
        """Without a year, the latest column answers."""
        question = "3M capex in its most recent fiscal year?"
        generator = ExtractiveGenerator(pages=corpus)
        draft = generator.draft(question, evidence(corpus, question), as_of=AS_OF)
        assert draft.claims and "(1,577)" in draft.claims[0].text

    def test_without_pages_no_cells(self, corpus: InMemoryCorpus) -> None:
        """A generator given no page lookup never drafts a table cell."""
        question = "What were 3M's purchases of property, plant and equipment in 2017?"
        draft = ExtractiveGenerator().draft(question, evidence(corpus, question), as_of=AS_OF)
        assert all("(1,373)" not in c.text for c in draft.claims)

    def test_one_claim_for_one_ask(self, corpus: InMemoryCorpus) -> None:
        """A question asking one thing gets one claim: no noise beside the answer."""
        question = "How long is pre-clearance valid?"
        draft = ExtractiveGenerator().draft(question, evidence(corpus, question), as_of=AS_OF)
        assert [c.text for c in draft.claims] == ["4.2 Pre-clearance is valid for 2 business days."]


def _passage(pid: str) -> Passage:
    return Passage(
        passage_id=pid, doc_id="d", version="v", page=1, char_start=0, char_end=1, text="x"
    )


class TestFeedbackRetriever:
    def test_fusion_keeps_literal_matches_first(self) -> None:
        """Reciprocal rank fusion ranks a passage both rankings agree on first."""
        a, b, c = _passage("a"), _passage("b"), _passage("c")
        fused = fuse_rankings([[a, b], [b, c]])
        assert [p.passage_id for p in fused] == ["b", "a", "c"]

    def test_asks_the_store_for_bm25_alone(self, tmp_path: Path) -> None:
        """Its queries join the question, synonyms and feedback terms, so it turns the store's
        phrase bonus off (``phrases=False``) on every search; a direct ``Store.search`` keeps
        it on by default."""
        with Store.open(tmp_path / "s") as store:
            store.messages = io.StringIO()
            store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
            calls: list[dict[str, object]] = []
            search = store.search

            def recorded(query: str, **kwargs: Any) -> list[Passage]:
                calls.append(kwargs)
                return search(query, **kwargs)

            store.search = recorded  # type: ignore[method-assign]
            question = "May an employee accept a gift with a value of up to $100?"
            found = FeedbackRetriever(store).search(question, as_of=dt.date(2024, 6, 1))
            assert found and calls
            assert all(call.get("phrases") is False for call in calls)
            first = search(question, as_of=dt.date(2024, 6, 1), limit=40)
            plain = search(question, as_of=dt.date(2024, 6, 1), limit=40, phrases=False)
            assert [p.score for p in first] != [p.score for p in plain]


def test_the_branch_of_the_case_that_happens() -> None:
    """A question negating nothing ("I told the bank the next day") is answered by the branch
    of the rule for the case that happens, not by its negated sibling sharing more words."""
    told = _cfr_paragraph(
        "1099-A-1",
        1,
        "If you tell us within 2 business days after you learn of the loss or theft of your "
        "card, you can lose no more than $50.",
        context="Appendix A Model clauses. Consumer liability.",
    )
    not_told = _cfr_paragraph(
        "1099-A-2",
        2,
        "If you do NOT tell us within 2 business days after you learn of the loss or theft of "
        "your card, you can lose no more than $500.",
        context="Appendix A Model clauses. Consumer liability.",
    )
    question = "My debit card was stolen and I told the bank the next day. How much can I lose?"
    draft = ExtractiveGenerator().draft(question, [not_told, told], as_of=AS_OF)
    assert [c.text for c in draft.claims] == [told.text]


class TestDefinitions:
    """A question asking what a term means is answered by the paragraph defining it."""

    DEFINITION = (
        "Business day means any day on which the offices of the institution are open to the "
        "public for carrying on substantially all of its functions."
    )

    def test_the_definition_is_drafted(self) -> None:
        """Sentences using the term with more of the question's words state other rules."""
        definition = _cfr_paragraph("1099-2-d", 1, self.DEFINITION, context="§ 1099.2 Definitions.")
        rule = _cfr_paragraph(
            "1099-11-c",
            2,
            "A notice of error received on a business day must be answered within 10 business "
            "days by the offices of the institution.",
            context="§ 1099.11 Procedures for resolving errors.",
        )
        question = "What does business day mean for a notice of error to the institution?"
        draft = ExtractiveGenerator().draft(question, [rule, definition], as_of=AS_OF)
        assert [c.text for c in draft.claims] == [self.DEFINITION]

    def test_the_defining_paragraph_is_asked_for(self, tmp_path: Path) -> None:
        """The retriever ranks the paragraphs defining the asked term as an ask of its own
        (the evidence always holds its first), and none for a question asking no meaning."""
        records = [("1099-2-d", "§ 1099.2 Definitions.", self.DEFINITION)] + [
            (
                f"1099-{n}-a",
                f"§ 1099.{n} Errors.",
                f"A notice of error must be answered within {n} business days.",
            )
            for n in range(5, 9)
        ]
        with cfr_store(tmp_path, records) as store:
            retriever = FeedbackRetriever(store)

            def asks(question: str) -> list[list[str | None]]:
                rankings = retriever._rankings(
                    question,
                    as_of=dt.date(2024, 6, 1),
                    pool=10,
                    authorities=None,
                    doc_ids=None,
                    tenant=None,
                )
                return [[p.label for p in r.passages] for r in rankings if r.ask]

            assert asks("What does business day mean for a notice of error?") == [["1099-2-d"]]
            assert asks("How many business days to answer a notice of error?") == []


@pytest.fixture
def v1_store(tmp_path: Path) -> Path:
    """A store as schema version 1 wrote it: no entity, aliases, period or extractor."""
    directory = tmp_path / "store"
    write_schema_1_store(directory, "The gift limit is $100 per giver per year.")
    return directory


def _md(tmp_path: Path, name: str, front: str) -> Path:
    path = tmp_path / name
    path.write_text(f"---\n{front}\n---\nThe gift limit is $100 per giver per year.\n")
    return path


class TestStoreMetadata:
    def test_version_1_store_is_migrated(self, v1_store: Path) -> None:
        """A schema-1 store opens, gains the entity columns, and keeps its documents."""
        with Store.open(v1_store, create=False) as store:
            (version,) = store.versions("A")
            assert version.entity is None and version.period is None
            assert store.catalog(dt.date(2021, 1, 1))[0].doc_id == "A"

    def test_entity_and_period_from_front_matter(self, tmp_path: Path) -> None:
        """Entity, aliases and period given at ingest are stored and read back."""
        path = _md(
            tmp_path,
            "b.md",
            "doc_id: B\nversion: FY2020\nversion_date: 2021-02-01\nentity: Acme\n"
            "aliases: [ACME Corp]\nperiod: FY2020",
        )
        with Store.open(tmp_path / "s") as store:
            store.ingest([path], IngestOptions(authority="primary"))
            (version,) = store.versions("B")
        assert (version.entity, version.aliases, version.period) == (
            "Acme",
            ["ACME Corp"],
            "FY2020",
        )


class TestScopeInTheLoop:
    def test_scope_is_recorded(self, tmp_path: Path) -> None:
        """A run records what question analysis made of the question and the scope it used."""
        path = _md(
            tmp_path,
            "c.md",
            "doc_id: C\nversion: '1'\nversion_date: 2019-01-01\nentity: Harbourline",
        )
        with Store.open(tmp_path / "s") as store:
            store.ingest([path], IngestOptions(authority="primary"))
            gate = EvidenceGate(store, policy=Policy())
            recorder = capture_trace()
            gate.controller.run(
                "What is Harbourline's gift limit?", as_of=AS_OF, trace=recorder, run_id="r"
            )
        (scope,) = events_of_kind(recorder, ScopeEvent)
        assert scope.doc_ids == ["C"] and scope.answer_type == "amount"


@pytest.fixture(scope="module")
def filings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The 3M FY2018 and Amcor FY2023 10-Ks, ingested with their mappings."""
    pdfs = shared_path("corpora", "financebench", "pdfs")
    mappings = Path(__file__).resolve().parent.parent / "golden_sets" / "mappings" / "financebench"
    directory = tmp_path_factory.mktemp("filings") / "store"
    with Store.open(directory) as store:
        for name in ("3M_2018_10K", "AMCOR_2023_10K"):
            options = IngestOptions.from_mapping_file(mappings / f"{name}.yaml")
            store.ingest([pdfs / f"{name}.pdf"], options)
    yield directory


@pytest.mark.shared
class TestFilings:
    def test_capex_from_the_cash_flow_statement(self, filings: Path) -> None:
        """'3M capex FY18' is answered with the 2018 cell of the PP&E purchases row."""
        with EvidenceGate.open(filings) as gate:
            answer = gate.ask("3M capex FY18?", as_of=AS_OF, trace_out=filings.parent / "t1.jsonl")
        assert answer.outcome is Outcome.ANSWERED
        assert "1,577" in answer.answer
        assert {c.doc_id for claim in answer.claims for c in claim.citations} == {"3M_2018_10K"}

    def test_another_company_is_never_cited(self, filings: Path) -> None:
        """A question about Amcor cites Amcor's filing only, whatever it answers."""
        with EvidenceGate.open(filings) as gate:
            answer = gate.ask(
                "What was Amcor's total current assets at June 30, 2023?",
                as_of=dt.date(2023, 9, 30),
                trace_out=filings.parent / "t2.jsonl",
            )
        cited = {c.doc_id for claim in answer.claims for c in claim.citations}
        assert cited <= {"AMCOR_2023_10K"}

    def test_a_terse_basic_line_from_the_income_statement(self, filings: Path) -> None:
        """'amcor fy23 net sales $m': the filer in lower case names the filing, not the row,
        and the statement of income's "Net sales" row answers, not a segment's table."""
        with EvidenceGate.open(filings) as gate:
            answer = gate.ask(
                "amcor fy23 net sales $m",
                as_of=dt.date(2023, 9, 30),
                trace_out=filings.parent / "t3.jsonl",
            )
        assert answer.outcome is Outcome.ANSWERED
        assert "14,694" in answer.answer


class TestCriticAsksForTheAnswer:
    """The rules critic's sufficiency: evidence near the question is not evidence answering it."""

    @staticmethod
    def _missing(text: str, question: str) -> list[str]:
        from evidencegate.critique.rules import RulesCritic

        corpus = InMemoryCorpus()
        corpus.add("REG-1", "1", dt.date(2019, 1, 1), [text])
        found = corpus.search(question, as_of=AS_OF, limit=8)
        assert found, "the fixture passage must be retrieved"
        return RulesCritic().sufficiency(question, found, as_of=AS_OF).missing_facts

    def test_an_example_does_not_answer_the_general_question(self) -> None:
        example = (
            "For example, if the annual percentage increase in the CPI-W would result in a $950 "
            "increase in the threshold amount, the threshold amount will be increased by $1,000."
        )
        question = "By how much is the lease threshold amount increased each year?"
        assert any(f.startswith("figure: ") for f in self._missing(example, question))
        rule = "The lease threshold amount is increased each year by $1,000 at most."
        assert not any(f.startswith("figure: ") for f in self._missing(rule, question))

    def test_a_negated_case_needs_a_negated_statement(self) -> None:
        question = "What happens to the lease threshold amount if the CPI-W does not increase?"
        stated = "The threshold amount is adjusted each year by any increase in the CPI-W."
        assert any(f.startswith("case: ") for f in self._missing(stated, question))
        negated = "If the CPI-W does not increase, the threshold amount does not change."
        assert not any(f.startswith("case: ") for f in self._missing(negated, question))


def _section(pid: str, text: str, context: str = "") -> Passage:
    """A passage of its own page, read under the heading path ``context``."""
    return Passage(
        passage_id=pid,
        doc_id=f"DOC-{pid}",
        version="1",
        page=1,
        char_start=0,
        char_end=len(text),
        text=text,
        context=context,
    )


def _drafted(question: str, passages: list[Passage], as_of: dt.date = AS_OF) -> list[str]:
    draft = ExtractiveGenerator().draft(question, passages, as_of=as_of)
    return [c.text for c in draft.claims]


class TestSentenceSelection:
    """Which sentence of the evidence answers: the period asked, not an example; the control
    asked, not its neighbour; the list item asked, with its lead-in."""

    FEES = _section(
        "fees",
        "The filing ceiling is adjusted effective January 1 of each year by any annual "
        "percentage increase in the price index. Any increase in the filing ceiling will be "
        "rounded to the nearest $100 increment. For example, if the annual percentage increase "
        "in the price index would result in a $950 increase in the filing ceiling, the filing "
        "ceiling will be increased by $1,000. However, if the annual percentage increase in the "
        "price index would result in a $949 increase in the filing ceiling, the filing ceiling "
        "will be increased by $900.",
        "Filing ceiling\nAnnual adjustment",
    )
    YEARS = _section(
        "years",
        "From January 1, 2020 through December 31, 2020, the filing ceiling is $31,200. "
        "From January 1, 2021 through December 31, 2021, the filing ceiling is $31,900.",
        "Filing ceiling\nAmounts by year",
    )

    def test_the_sentence_stating_the_asked_year(self) -> None:
        """A year named in passing ("this year (2021)") is answered by the sentence whose stated
        period covers it: it speaks of that year, as an example's "annual" does not."""
        question = "Above what total is a filing not covered this year (2021)?"
        assert _drafted(question, [self.FEES, self.YEARS], dt.date(2021, 5, 1)) == [
            "From January 1, 2021 through December 31, 2021, the filing ceiling is $31,900."
        ]

    def test_a_sentence_going_on_with_an_example_is_part_of_it(self) -> None:
        """ "However, if ... would result in a $949 increase" goes on with the example before
        it, so it does not answer the general question either."""
        question = "By how much is the filing ceiling increased each year?"
        drafted = _drafted(question, [self.FEES, self.YEARS], dt.date(2021, 5, 1))
        assert drafted and not any("$949" in d or "$950" in d for d in drafted)

    def test_an_organization_defined_period_answers_how_long(self) -> None:
        """A control leaving the period to the organization answers "how long" with that
        parameter, rather than with guidance that talks about periods."""
        control = _section(
            "sc",
            "Terminate a remote session after [Assignment: organization-defined time period] "
            "of inactivity. Organizations consider the risk of the session when they choose "
            "the time period after which idle remote sessions are ended.",
            "XS-10\nRemote Session Termination",
        )
        question = "How long can a remote session stay idle before XS-10 requires ending it?"
        drafted = _drafted(question, [control])
        assert drafted and drafted[0].startswith("Terminate a remote session")
        profile = profile_question(question, as_of=AS_OF)
        assert profile.states_figure(control.text.split(". ")[0])

    def test_the_asked_enhancement_not_a_cross_reference_from_its_neighbour(self) -> None:
        """A question on XQ-7(2) is answered from XQ-7(2), not from XQ-7(9) citing it."""
        asked = _section(
            "e2",
            "The system locks an account after three consecutive failed sign-in attempts.",
            "XQ-7(2)\nSign-in Controls\nAccount Lockout",
        )
        neighbour = _section(
            "e9",
            "Locking accounts after failed sign-in attempts (see XQ-7(2)) also protects "
            "accounts of administrators after failed sign-in attempts.",
            "XQ-7(9)\nSign-in Controls\nAdministrator Accounts",
        )
        question = "Under XQ-7(2), when is an account locked after failed sign-in attempts?"
        assert _drafted(question, [neighbour, asked]) == [asked.text]

    def test_the_cited_section_by_its_paragraph_label(self) -> None:
        """A regulation's paragraph is about the section its label cites ("1099-4-b" is
        § 1099.4(b)) though its heading path does not say so: it answers a question citing
        that section before a paragraph of another section using more of its words."""
        asked = Passage(
            passage_id="b",
            doc_id="12 CFR 1099",
            version="1",
            page=2,
            char_start=0,
            char_end=48,
            text="Each signed file is kept for at least two years.",
            label="1099-4-b",
            context="1099-4-b\n§ 1099.4 Records.\nRetention.",
        )
        citing = Passage(
            passage_id="c",
            doc_id="12 CFR 1099",
            version="1",
            page=3,
            char_start=0,
            char_end=45,
            text="A lessor's lease files are kept for one year.",
            label="1099-9-c",
            context="1099-9-c\n§ 1099.9 Vehicle leases.\nFiles.",
        )
        question = "Under § 1099.4(b), how long must a lessor keep signed lease files?"
        assert _drafted(question, [citing, asked]) == [asked.text]

    def test_a_long_sentence_of_prose_is_a_sentence(self) -> None:
        """A regulation's sentence may run past 600 characters on one line: it is drafted as
        any sentence, where a page blob of as many characters is not."""
        clause = (
            "the residual value of the leased property is unreasonable and not in good faith "
            "to the extent that the residual value exceeds the realized value by more than "
            "three times the base monthly payment"
        )
        text = (
            f"A statement about a rebuttable presumption that, at the end of the lease term, "
            f"{clause} (or more than three times the average payment allocable to a monthly "
            f"period, if the lease calls for periodic payments other than monthly); and that "
            f"the lessor cannot collect the excess amount unless the lessor brings a successful "
            f"court action and pays the lessee's reasonable attorney's fees, or unless the "
            f"excess is due to unreasonable or excessive wear or use of the leased property."
        )
        assert len(text) > 600 and "\n" not in text
        passage = _section("m2", text, "Content of disclosures\nResidual value")
        question = (
            "By more than what multiple of the base monthly payment may the residual value "
            "exceed the realized value?"
        )
        assert _drafted(question, [passage]) == [text]
        blob = _section("blob", "\n".join([text[i : i + 120] for i in range(0, len(text), 120)]))
        assert not _drafted(question, [blob])

    def test_a_sentence_referring_back_is_read_with_the_one_before(self) -> None:
        """ "each such appraisal" speaks of what the sentence before says: the time limit for
        the appraisals asked about is drafted, not the notice that merely names them."""
        rule = _section(
            "copy",
            "A lender shall give a borrower a copy of every appraisal developed for a loan "
            "secured by a first lien on a home. A lender shall give each such copy promptly, "
            "or three business days before closing.",
            "Appraisals\nCopies",
        )
        notice = _section(
            "notice",
            "Within three business days of an application for a home loan, a lender shall "
            "mail a notice of the right to a copy of appraisals.",
            "Appraisals\nNotice",
        )
        question = (
            "When must a lender give a borrower a copy of an appraisal for a first-lien loan?"
        )
        assert _drafted(question, [notice, rule]) == [
            "A lender shall give each such copy promptly, or three business days before closing."
        ]

    def test_an_item_with_its_parent_paragraph_lead_in(self) -> None:
        """A paragraph that is an item of its parent's list ("1099-7-b-1" under "1099-7-b")
        is drafted after the parent's lead-in, each quoted from its own passage."""

        def paragraph(label: str, page: int, text: str) -> Passage:
            return _cfr_paragraph(label, page, text, context=f"{label}\n§ 1099.7 Repossession.")

        lead = paragraph("1099-7-b", 1, "A lessor shall not repossess a leased car unless:")
        item = paragraph("1099-7-b-1", 2, "The lessee is more than 60 days late;")
        other = paragraph("1099-7-b-2", 3, "The lessee was sent a notice of default.")
        question = "How many days late must a lessee be before a lessor may repossess the car?"
        draft = ExtractiveGenerator().draft(question, [other, item, lead], as_of=AS_OF)
        (claim,) = draft.claims
        assert claim.text == f"{lead.text} {item.text}"
        assert [(c.evidence_id, c.quote) for c in claim.citations] == [
            ("1099-7-b", lead.text),
            ("1099-7-b-1", item.text),
        ]

        class Pages:
            """The document's pages with their labels: the parent before its items."""

            def lookup(
                self, doc_id: str, version: str, page: int, *, tenant: str | None = None
            ) -> SourcePage | None:
                passages = {p.page: p for p in (lead, item, other)}
                if doc_id != "12 CFR 1099" or page not in passages:
                    return None
                found = passages[page]
                return SourcePage(
                    document=DocumentVersion(
                        doc_id=doc_id,
                        version=version,
                        version_date=AS_OF,
                        effective_from=AS_OF,
                        authority="primary",
                        sha256="0" * 64,
                    ),
                    page=Page(
                        doc_id=doc_id,
                        version=version,
                        page=page,
                        text=found.text,
                        label=found.label,
                    ),
                )

        # The parent not retrieved: read from the page before its items, cited without an id.
        draft = ExtractiveGenerator(pages=Pages()).draft(question, [other, item], as_of=AS_OF)
        (claim,) = draft.claims
        assert [(c.page, c.evidence_id, c.quote) for c in claim.citations] == [
            (1, None, lead.text),
            (2, "1099-7-b-1", item.text),
        ]
        without = ExtractiveGenerator().draft(question, [other, item], as_of=AS_OF)
        assert all(c.quote != lead.text for claim in without.claims for c in claim.citations)

        # The lead-in retrieved without its items: the item is read from the page after it.
        question = "How many days late must a lessee be before the car may be repossessed?"
        draft = ExtractiveGenerator(pages=Pages()).draft(question, [lead], as_of=AS_OF)
        (claim,) = draft.claims
        assert [(c.page, c.evidence_id, c.quote) for c in claim.citations] == [
            (1, "1099-7-b", lead.text),
            (2, None, item.text),
        ]
        assert not ExtractiveGenerator().draft(question, [lead], as_of=AS_OF).claims

    def test_an_example_is_not_the_rule(self) -> None:
        """An example's sentences (under a 'For example:' lead-in, naming its imagined
        parties, or setting out its assumptions as a list) do not answer a question that sets
        out no case of its own, however close their words; the rule does."""

        def paragraph(label: str, page: int, text: str) -> Passage:
            return _cfr_paragraph(label, page, text, context="§ 1099.9 Force-placed insurance.")

        rule = paragraph(
            "1099-9-a",
            1,
            "A servicer must mail a written notice at least 45 days before it charges a "
            "borrower for force-placed insurance.",
        )
        lead = paragraph(
            "1099-9-a-Interp-1",
            2,
            "The content of the notice depends on what the servicer knows. For example:",
        )
        case = paragraph(
            "1099-9-a-Interp-1-i",
            3,
            "Assume that, on June 1, the servicer mails the notice to Borrower A. The "
            "servicer must mail Borrower A a reminder notice at least 15 days before charging "
            "Borrower A for the force-placed insurance on the borrower's home.",
        )
        question = (
            "How many days before charging the borrower for force-placed insurance must the "
            "servicer mail the notice?"
        )
        draft = ExtractiveGenerator().draft(question, [case, lead, rule], as_of=AS_OF)
        assert [c.text for c in draft.claims] == [rule.text]
        assumptions = paragraph(
            "1099-9-b-Interp-2",
            4,
            "For each example, assume the following: (a) the servicer charges a fee of $20 "
            "for each notice mailed to the borrower; and (b) the borrower has no insurance.",
        )
        cap = paragraph("1099-9-b", 5, "A servicer may charge up to $10 for a notice.")
        question = "What is the maximum fee a servicer may charge the borrower for each notice?"
        draft = ExtractiveGenerator().draft(question, [assumptions, cap], as_of=AS_OF)
        assert [c.text for c in draft.claims] == [cap.text]

    def test_a_list_item_with_its_lead_in(self) -> None:
        """A long list written as one sentence is read item by item: the asked item is drafted
        after its lead-in, and both are quoted as they stand."""
        items = [
            f"  {letter}. {text};"
            for letter, text in zip(
                "abcdef",
                [
                    "Keep an inventory of every vendor that processes customer records and of "
                    "the records each vendor holds on behalf of the organization",
                    "Review the security terms of each vendor contract before the contract is "
                    "signed and whenever the contract is renewed or materially changed",
                    "Notify customers within 72 hours of learning that a vendor lost customer "
                    "records, stating which records were lost and what the customer can do",
                    "Train staff who manage vendors on the handling of customer records at "
                    "least once a year and keep a record of who completed the training",
                    "Test the vendor incident process in an exercise at least once a year and "
                    "record the lessons learned from each exercise in the vendor register",
                    "Report vendor incidents to the board in the quarterly risk report",
                ],
                strict=True,
            )
        ]
        text = "The organization must, for its vendors:\n" + "\n".join(items)
        assert len(text) > 600
        passage = _section("vendors", text, "VM-3\nVendor Management")
        question = "Within how many hours must customers be told that a vendor lost their records?"
        draft = ExtractiveGenerator().draft(question, [passage], as_of=AS_OF)
        (claim,) = draft.claims
        assert claim.text.startswith("The organization must, for its vendors: c. Notify")
        assert [c.quote for c in claim.citations] == [
            "The organization must, for its vendors:",
            items[2].strip(),
        ]
        for citation in claim.citations:
            assert citation.quote in text


class TestAnswerTypeAfterACase:
    def test_a_yes_no_question_after_its_case(self) -> None:
        """ "If ..., is the landlord allowed ...?" asks yes or no, whatever words the case uses."""
        question = "If a tenant pays the rent late, is the landlord allowed to keep the deposit?"
        assert answer_type(question) == "yes_no"

    def test_the_when_of_a_case_is_not_a_date_question(self) -> None:
        """ "When a customer asks ..., what must the bank send?" does not ask for a date."""
        assert answer_type("When a customer asks for old statements, what must the bank send?") != (
            "date"
        )
        assert answer_type("When must the annual report be filed?") == "date"

    def test_what_happens_asks_for_an_outcome(self) -> None:
        """ "What happens to the fee cap if ..." asks what follows, not for an amount."""
        assert answer_type("What happens to the fee cap if inflation is negative?") == "other"


class TestBoundsAsked:
    NOTICES = _section(
        "notices",
        "If an account is less than 60 days overdue at the end of a review period, the "
        "reminder must be sent again no later than 30 days after that period ends. If an "
        "account is 60 days or more overdue at the end of a review period, the reminder must "
        "be sent again no later than 10 days after that period ends.",
        "Reminders\nRepeat reminders",
    )

    @pytest.mark.parametrize(
        ("question", "expected"),
        [
            ("When must the reminder be re-sent for an account 60+ days overdue?", "10 days"),
            ("When is the reminder re-sent if an account is under 60 days overdue?", "30 days"),
        ],
    )
    def test_the_case_on_the_asked_side_of_a_figure(self, question: str, expected: str) -> None:
        """ "60 or more days" and "less than 60 days" are two cases: the asked one answers."""
        (drafted,) = _drafted(question, [self.NOTICES])
        assert expected in drafted


class TestRuleForTheCaseAsked:
    """A question setting out its own case (a sum, an action it asks permission for) is
    answered by the rule for that case, not by its neighbour sharing the other words."""

    GIFTS = _section(
        "gifts",
        "4.1 Staff may accept a gift with a value of up to $100 per giver per year without "
        "prior approval. 4.2 A member of staff offered a gift with a value above $100 must "
        "obtain the prior written approval of Compliance before accepting it.",
        "Gifts policy\nReceiving gifts",
    )
    REPORTS = _section(
        "sar",
        "7.1 An employee who suspects that a customer is laundering money must report it to "
        "the officer by submitting an internal suspicious activity report. 7.2 Employees must "
        "not tell the customer that a suspicious activity report has been made.",
        "Suspicious activity",
    )

    @pytest.mark.parametrize(
        ("question", "expected"),
        [
            ("A supplier offers me a gift worth $130: whose approval do I need?", "4.2"),
            ("A supplier offers me a gift worth $80: do I need approval?", "4.1"),
        ],
    )
    def test_the_bound_that_holds_the_sum(self, question: str, expected: str) -> None:
        """A $130 gift is the case of "above $100", an $80 one of "up to $100"."""
        (drafted,) = _drafted(question, [self.GIFTS])
        assert drafted.startswith(expected)

    def test_a_sum_written_short(self) -> None:
        """ "over 5k" is the case of "above $5,000", not of "up to $5,000"."""
        page = _section(
            "redress",
            "6.3 Redress payments above $500 and up to $5,000 must be approved by the Head of "
            "Operations. 6.4 A redress payment above $5,000 must be approved by the Chief "
            "Operating Officer.",
            "Redress",
        )
        (drafted,) = _drafted("who signs off redress over 5k?", [page])
        assert drafted.startswith("6.4")

    def test_the_rule_on_the_action_asked(self) -> None:
        """ "Am I allowed to tell ..." is answered by "must not tell", not "must report it"."""
        question = "Am I allowed to tell a customer that I reported them for suspicious activity?"
        (drafted,) = _drafted(question, [self.REPORTS])
        assert drafted.startswith("7.2")

    def test_a_word_as_the_evidence_inflects_it(self) -> None:
        """ "waived" is stemmed "waiv" and "waive" keeps its "e": the sentence on waiving
        answers "can it be waived?", not the one stating the period."""
        page = _section(
            "hold",
            "5.1 Employees must hold every investment for a minimum holding period of 30 "
            "calendar days. 5.2 The Head of Compliance may waive the minimum holding period "
            "in writing in cases of hardship.",
            "Holding period",
        )
        (drafted,) = _drafted("Can the minimum holding period be waived?", [page])
        assert drafted.startswith("5.2")

    def test_a_heading_is_never_drafted(self) -> None:
        """A Markdown title names what follows and states nothing: it is no answer, however
        many of the question's words it shares."""
        page = _section(
            "title",
            "# Customer Due Diligence and KYC Refresh Policy\n\n## 5. KYC refresh\n\n5.4 A KYC "
            "Refresh must be completed within 30 calendar days of a Trigger Event.",
        )
        drafted = _drafted("What's the fine for late KYC refresh?", [page])
        assert drafted and not any(d.lstrip().startswith("#") for d in drafted)


class TestSeveralAsks:
    """A question asking several things gets one claim per ask, each the best for its words."""

    POLICY = _section(
        "aml",
        "3.1 A customer who holds a senior public office must always be rated high risk. "
        "3.2 The risk rating of a customer takes into account the country, the products and "
        "the expected activity of the customer. "
        "5.1 The file of a high-risk customer must be reviewed at least every 12 months. "
        "5.2 The file of a low-risk customer must be reviewed at least every 60 months. "
        "6.1 Onboarding records must be kept for 7 years after the relationship ends.",
        "Customer due diligence policy",
    )

    def test_one_claim_per_ask(self) -> None:
        """Three asks, three claims, in the order asked, each answering its own ask."""
        question = (
            "How often must the file of a high-risk customer be reviewed, and for how long "
            "must onboarding records be kept after the relationship ends?"
        )
        drafted = _drafted(question, [self.POLICY])
        assert [d[:3] for d in drafted] == ["5.1", "6.1"]

    def test_terse_asks_joined_by_a_plus(self) -> None:
        """ "review frequency for high-risk files + how long onboarding records are kept": each
        ask its own answer, though the second ask's words also fit the first ask's sentence."""
        question = "review frequency for high-risk files + how long onboarding records are kept"
        drafted = _drafted(question, [self.POLICY])
        assert [d[:3] for d in drafted] == ["5.1", "6.1"]

    def test_listed_givens_are_not_asks(self) -> None:
        """A list of givens after a colon ("example: $100 payment, $10 fee -> refund?") asks
        one thing: its givens do not each get a claim."""
        question = (
            "customer example: high-risk file last reviewed 12 months ago, onboarding records "
            "kept 7 years -> anything due?"
        )
        assert len(_drafted(question, [self.POLICY])) <= 1

    def test_one_ask_one_claim(self) -> None:
        """A question with one ask and a case before it is not split at the case's comma."""
        question = "When a customer holds a senior public office, what risk rating must it get?"
        assert [d[:3] for d in _drafted(question, [self.POLICY])] == ["3.1"]


class TestListsRead:
    CONTROL = _section(
        "tr",
        "a. Give privacy training to staff (including contractors and temporary staff):\n"
        "  1. Before they are granted access to customer records;\n"
        "  2. Within 30 days after a change of the privacy rules; and\n"
        "  3. Every year thereafter;\n"
        "b. Keep the training records of each member of staff for five years;\n"
        "c. Review the content of the training every year.",
        "PT-9\nPrivacy Training",
    )

    def test_occasions_asked_are_the_items_together(self) -> None:
        """ "When must staff be trained" is answered by the occasions under that lead-in,
        together, and not by the items of another requirement of the same list."""
        drafted = _drafted("When must staff be given privacy training under PT-9?", [self.CONTROL])
        assert len(drafted) == 1
        assert "1. Before they are granted" in drafted[0] and "3. Every year" in drafted[0]
        assert "b. Keep" not in drafted[0]

    def test_a_lead_in_leads_only_its_own_level(self) -> None:
        """ "b. Keep the training records" is not drafted under "a. Give privacy training:"."""
        drafted = _drafted("How long must training records be kept under PT-9?", [self.CONTROL])
        assert drafted == ["b. Keep the training records of each member of staff for five years;"]
