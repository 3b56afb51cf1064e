"""Derived claims: figures computed from quoted figures, recomputed exactly by the verifier."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from evidencegate.analysis import profile_question
from evidencegate.audit.replay import EXIT_IDENTICAL, replay_trace
from evidencegate.audit.report.html import write_report
from evidencegate.cli import main
from evidencegate.components import build_generator
from evidencegate.contracts import (
    Citation,
    Claim,
    Derivation,
    FailureReason,
    Operand,
    Operation,
    Outcome,
    Verdict,
)
from evidencegate.corpus import IngestOptions, Store
from evidencegate.critique.rules import RulesCritic
from evidencegate.gate import EvidenceGate
from evidencegate.generation.derive import _best_row, derivation_request
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.generation.tables import table_cells
from evidencegate.judges.support import RulesSupportJudge
from evidencegate.policy import Policy
from evidencegate.providers.base import ChatRequest
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.testing import InMemoryCorpus
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import DraftEvent
from evidencegate.verify.derived import (
    check_derivation,
    derivation_evidence,
    parse_figure,
    quote_figures,
)
from evidencegate.verify.edits import EvidenceText, find_edits
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2023, 6, 30)
DOC, VERSION = "3M_2022_10K", "FY2022"
PAGE = (
    "3M Company and Subsidiaries\nConsolidated Statement of Income\n"
    "Management's discussion reviews the results of the year in the sections below.\n"
    "Years ended December 31 (Millions) 2022 2021 2020\n"
    "Net sales $ 34,229 $ 35,355 $ 32,184\n"
    "Operating income 6,539 7,369 7,161\n"
    "Operating income margin 19.1 % 20.8 % 22.2 %\n"
    "Purchases of property, plant and equipment (PP&E) (1,749) (1,603) (1,501)\n"
)
MARGIN_ROW = "Operating income margin 19.1 % 20.8 %"
HEADER = "(Millions) 2022 2021 2020"


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(DOC, VERSION, dt.date(2023, 2, 8), [PAGE])
    return corpus


@pytest.fixture
def verifier(corpus: InMemoryCorpus) -> Verifier:
    return Verifier.from_policy(corpus, Policy())


def cite(quote: str) -> Citation:
    return Citation(doc_id=DOC, version=VERSION, page=1, quote=quote)


def derived(
    text: str,
    operation: Operation,
    values: list[str],
    result: str,
    quotes: tuple[str, ...] = (MARGIN_ROW, HEADER),
) -> Claim:
    return Claim(
        claim_id="c-1",
        text=text,
        citations=[cite(q) for q in quotes],
        derivation=Derivation(
            operation=operation,
            operands=[
                Operand(label=f"operand {i}", value=v, citation=0) for i, v in enumerate(values)
            ],
            result=result,
        ),
    )


MARGIN_CHANGE = "Operating income margin: 19.1% in 2022, 20.8% in 2021: a decrease of {} points"


class TestFigures:
    def test_accounting_negatives_scale_and_percent(self) -> None:
        """Parentheses and minus signs are negatives, scale words multiply, % is kept."""
        assert parse_figure("(1,577)").value == Decimal(-1577)  # type: ignore[union-attr]
        assert parse_figure("$1.5 billion").value == Decimal(1_500_000_000)  # type: ignore[union-attr]
        figure = parse_figure("(0.9)%")
        assert figure is not None and figure.value == Decimal("-0.9") and figure.percent

    def test_a_dash_between_numbers_is_no_sign(self) -> None:
        """'2021-2022' is a range, not 2021 and minus 2022."""
        assert [f.value for f in quote_figures("fiscal 2021-2022")] == [2021, 2022]

    def test_more_than_one_figure_is_not_an_operand(self) -> None:
        """An operand names exactly one figure."""
        assert parse_figure("1,577 and 1,373") is None
        assert parse_figure("about") is None


class TestClaimContract:
    def test_operand_must_cite_a_citation_of_the_claim(self) -> None:
        """An operand citing a citation the claim does not have is refused."""
        with pytest.raises(ValidationError, match="operand 0 cites citation 5"):
            Claim(
                claim_id="c",
                text="t",
                citations=[cite(MARGIN_ROW)],
                derivation=Derivation(
                    operation=Operation.SUM,
                    operands=[
                        Operand(label="a", value="1", citation=5),
                        Operand(label="b", value="2", citation=0),
                    ],
                    result="3",
                ),
            )

    def test_plain_claim_json_has_no_derivation(self) -> None:
        """A claim without a derivation serialises as before (old traces stay byte-identical)."""
        claim = Claim(claim_id="c", text="t", citations=[cite(MARGIN_ROW)])
        assert "derivation" not in claim.model_dump(mode="json")


class TestVerifier:
    def test_right_result_verifies(self, verifier: Verifier) -> None:
        """19.1% - 20.8% stated as -1.7 points verifies, the computed figure included."""
        claim = derived(
            MARGIN_CHANGE.format("1.7"), Operation.DIFFERENCE, ["19.1%", "20.8%"], "-1.7"
        )
        result = verifier.verify(claim, as_of=AS_OF)
        assert result.ok, [f.detail for f in result.failures]

    def test_wrong_result_is_rejected(self, verifier: Verifier) -> None:
        """A result the operands do not give fails with derivation_mismatch."""
        claim = derived(
            MARGIN_CHANGE.format("1.8"), Operation.DIFFERENCE, ["19.1%", "20.8%"], "-1.8"
        )
        result = verifier.verify(claim, as_of=AS_OF)
        assert not result.ok
        assert FailureReason.DERIVATION_MISMATCH in result.reasons
        assert any("19.1% - 20.8% = -1.7" in f.detail for f in result.failures)

    def test_wrong_direction_is_rejected(self, verifier: Verifier) -> None:
        """Calling a fall an increase is a mismatch even with the right magnitude."""
        text = "Operating income margin: 19.1% in 2022, 20.8% in 2021: an increase of 1.7 points"
        claim = derived(text, Operation.DIFFERENCE, ["19.1%", "20.8%"], "-1.7")
        assert FailureReason.DERIVATION_MISMATCH in verifier.verify(claim, as_of=AS_OF).reasons

    def test_operand_not_in_its_quote(self, verifier: Verifier) -> None:
        """An operand its cited quote does not state fails with operand_not_quoted."""
        claim = derived(
            MARGIN_CHANGE.format("3.1"), Operation.DIFFERENCE, ["19.1%", "22.2%"], "-3.1"
        )
        assert FailureReason.OPERAND_NOT_QUOTED in verifier.verify(claim, as_of=AS_OF).reasons

    def test_sign_of_a_parenthesised_operand_counts(self, verifier: Verifier) -> None:
        """'(1,749)' is -1,749: an operand written '1,749' is not what the quote states."""
        row = "Purchases of property, plant and equipment (PP&E) (1,749) (1,603)"
        claim = derived(
            "Purchases of PP&E: (1,749) in 2022, (1,603) in 2021: a change of 146",
            Operation.DIFFERENCE,
            ["1,749", "1,603"],
            "146",
            quotes=(row, HEADER),
        )
        assert FailureReason.OPERAND_NOT_QUOTED in verifier.verify(claim, as_of=AS_OF).reasons
        right = derived(
            "Purchases of PP&E: (1,749) in 2022, (1,603) in 2021: a decrease of 146",
            Operation.DIFFERENCE,
            ["(1,749)", "(1,603)"],
            "-146",
            quotes=(row, HEADER),
        )
        assert verifier.verify(right, as_of=AS_OF).ok

    def test_points_are_not_percent(self, verifier: Verifier) -> None:
        """A difference of percentages is in points: stating it with % is invalid."""
        claim = derived(
            "Operating income margin: a decrease of 1.7%",
            Operation.DIFFERENCE,
            ["19.1%", "20.8%"],
            "-1.7%",
        )
        assert FailureReason.DERIVATION_INVALID in verifier.verify(claim, as_of=AS_OF).reasons

    def test_result_must_be_stated_in_the_text(self, verifier: Verifier) -> None:
        """A claim whose text does not state its result is invalid."""
        claim = derived(
            "Operating income margin: 19.1% in 2022, 20.8% in 2021",
            Operation.DIFFERENCE,
            ["19.1%", "20.8%"],
            "-1.7",
        )
        assert FailureReason.DERIVATION_INVALID in verifier.verify(claim, as_of=AS_OF).reasons

    def test_mixed_kinds_and_division_by_zero(self) -> None:
        """Amounts and percentages do not mix; nothing divides by zero."""
        mixed = derived(
            "sum 40.9", Operation.SUM, ["19.1%", "21.8"], "40.9", quotes=("a 19.1% and b 21.8",)
        )
        (failure,) = check_derivation(mixed, [True, True])
        assert failure.reason is FailureReason.DERIVATION_INVALID
        zero = Claim(
            claim_id="c",
            text="ratio 1.0",
            citations=[cite("a 5 and 0 b")],
            derivation=Derivation(
                operation=Operation.RATIO,
                operands=[
                    Operand(label="a", value="5", citation=0),
                    Operand(label="b", value="0", citation=0),
                ],
                result="1.0",
            ),
        )
        (failure,) = check_derivation(zero, [True])
        assert "divides by zero" in failure.detail

    def test_a_plain_claim_still_may_not_state_a_computed_figure(self, verifier: Verifier) -> None:
        """Without a derivation, a figure no quote states is a number mismatch, as before."""
        claim = Claim(
            claim_id="c",
            text=MARGIN_CHANGE.format("1.7"),
            citations=[cite(MARGIN_ROW), cite(HEADER)],
        )
        assert FailureReason.NUMBER_MISMATCH in verifier.verify(claim, as_of=AS_OF).reasons


def _quote(values: list[int]) -> str:
    return "Row " + " ".join(f"({-v:,})" if v < 0 else f"{v:,}" for v in values)


class TestRecomputation:
    @given(
        a=st.integers(-(10**9), 10**9), b=st.integers(-(10**9), 10**9), wrong=st.integers(1, 10**6)
    )
    def test_difference_exact(self, a: int, b: int, wrong: int) -> None:
        """Any two quoted integers: the exact difference verifies, any other value does not."""
        quote = _quote([a, b])
        values = quote.split()[1:]

        def claim(result: int) -> Claim:
            return Claim(
                claim_id="c",
                text=f"Row: a change of {abs(result):,}",
                citations=[cite(quote)],
                derivation=Derivation(
                    operation=Operation.DIFFERENCE,
                    operands=[
                        Operand(label="a", value=values[0], citation=0),
                        Operand(label="b", value=values[1], citation=0),
                    ],
                    result=str(result),
                ),
            )

        assert check_derivation(claim(a - b), [True]) == []
        reasons = {f.reason for f in check_derivation(claim(a - b + wrong), [True])}
        assert FailureReason.DERIVATION_MISMATCH in reasons

    @given(a=st.integers(1, 10**7), b=st.integers(1, 10**7), places=st.integers(1, 4))
    def test_ratio_rounds_half_up(self, a: int, b: int, places: int) -> None:
        """A ratio stated to N places verifies exactly when it is a/b rounded half up to N."""
        exact = Decimal(a) / Decimal(b)
        step = Decimal(1).scaleb(-places)
        right = exact.quantize(step, rounding=ROUND_HALF_UP)

        def claim(result: Decimal) -> Claim:
            return Claim(
                claim_id="c",
                text=f"Row: ratio {result}",
                citations=[cite(f"Row {a:,} {b:,}")],
                derivation=Derivation(
                    operation=Operation.RATIO,
                    operands=[
                        Operand(label="a", value=f"{a:,}", citation=0),
                        Operand(label="b", value=f"{b:,}", citation=0),
                    ],
                    result=f"{result:f}",
                ),
            )

        assert check_derivation(claim(right), [True]) == []
        assert check_derivation(claim(right + step), [True]) != []

    def test_tie_rounds_away_from_zero(self) -> None:
        """1/8 = 0.125 is stated 0.13 (half up), not 0.12 (half even)."""
        ok = derived("ratio 0.13", Operation.RATIO, ["1", "8"], "0.13", quotes=("values 1 and 8",))
        even = derived(
            "ratio 0.12", Operation.RATIO, ["1", "8"], "0.12", quotes=("values 1 and 8",)
        )
        assert check_derivation(ok, [True]) == []
        assert [f.reason for f in check_derivation(even, [True])] == [
            FailureReason.DERIVATION_MISMATCH
        ]

    def test_quotient_needs_a_decimal_place(self) -> None:
        """A ratio of 0.69 may not be stated as 1."""
        claim = derived("ratio 1", Operation.RATIO, ["9", "13"], "1", quotes=("values 9 and 13",))
        assert FailureReason.DERIVATION_INVALID in {
            f.reason for f in check_derivation(claim, [True])
        }


class TestRequests:
    @pytest.mark.parametrize(
        ("question", "operation", "years"),
        [
            (
                "By how much did 3M's net sales change from FY2021 to FY2022?",
                Operation.DIFFERENCE,
                (2021, 2022),
            ),
            (
                "What was 3M's operating income margin in 2022 compared with 2021?",
                Operation.DIFFERENCE,
                (2021, 2022),
            ),
            (
                "By what percentage did 3M's net sales grow in 2022?",
                Operation.PERCENT_CHANGE,
                (2022,),
            ),
            ("Did 3M's net sales grow in 2022?", Operation.COMPARE, (2022,)),
            (
                "3M net sales growth 2022 vs 2021 in %",
                Operation.PERCENT_CHANGE,
                (2021, 2022),
            ),
            (
                "Acme net sales 2022 vs 2021 % change?",
                Operation.PERCENT_CHANGE,
                (2021, 2022),
            ),
            (
                "Acme sales growth 2016 vs 2015, %?",
                Operation.PERCENT_CHANGE,
                (2015, 2016),
            ),
            (
                "What was operating income as a share of net sales in 2022?",
                Operation.SHARE,
                (2022,),
            ),
            ("What was the ratio of operating income to net sales?", Operation.RATIO, ()),
            (
                "What was 3M's average operating income margin from 2020 to 2022?",
                Operation.AVERAGE,
                (2020, 2022),
            ),
        ],
    )
    def test_computations_asked_for(
        self, question: str, operation: Operation, years: tuple[int, ...]
    ) -> None:
        """A question asking for a computation names its operation and years."""
        request = derivation_request(question, profile_question(question, as_of=AS_OF))
        assert request is not None
        assert request.operation is operation and request.years == years

    @pytest.mark.parametrize(
        "question",
        [
            "What were 3M's purchases of property, plant and equipment in 2022?",
            "What is the maximum value of a gift an employee may accept?",
            "What was the total of 3M's spending on plant and equipment for the year 2019?",
            "Why did J&J's cost of products sold rise as a share of sales in 2022?",
        ],
    )
    def test_stated_facts_are_not_computations(self, question: str) -> None:
        """A question asking for a stated figure (or a reason) asks for no computation."""
        assert derivation_request(question, profile_question(question, as_of=AS_OF)) is None


class TestExtractiveGenerator:
    @pytest.mark.parametrize(
        ("question", "operation", "result"),
        [
            (
                "By how much did the operating income margin change from 2021 to 2022?",
                Operation.DIFFERENCE,
                "-1.7",
            ),
            ("By what percentage did net sales change in 2022?", Operation.PERCENT_CHANGE, "-3.2%"),
            ("Did net sales grow in 2022?", Operation.COMPARE, "less"),
            (
                "What was operating income as a share of net sales in 2021?",
                Operation.SHARE,
                "20.8%",
            ),
            (
                "What was the average operating income margin from 2020 to 2022?",
                Operation.AVERAGE,
                "20.7%",
            ),
        ],
    )
    def test_derived_claim_from_table_cells(
        self,
        corpus: InMemoryCorpus,
        verifier: Verifier,
        question: str,
        operation: Operation,
        result: str,
    ) -> None:
        """A computation question is answered by one derived claim that verifies."""
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        draft = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF)
        (claim,) = draft.claims
        assert claim.derivation is not None
        assert claim.derivation.operation is operation and claim.derivation.result == result
        assert verifier.verify(claim, as_of=AS_OF).ok
        # The ablation's support judge reads the quotes and the recomputation: the claim's own
        # wording ("compared with", the result) is no unsupported term.
        quotes = "\n".join(c.quote for c in claim.citations) + derivation_evidence(claim)
        assert RulesSupportJudge().judge(quotes, claim.text).label == "supported"

    def test_never_from_another_period(self, corpus: InMemoryCorpus) -> None:
        """Years the table does not report give no derived claim (no neighbouring column)."""
        question = "By how much did the operating income margin change from 2018 to 2019?"
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        draft = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF)
        assert all(c.derivation is None for c in draft.claims)


class TestCritic:
    def test_computed_figure_is_not_an_edit(self, verifier: Verifier) -> None:
        """The rules critic reads the recomputed figure beside the quotes: no edit, supported."""
        claim = derived(
            MARGIN_CHANGE.format("1.7"), Operation.DIFFERENCE, ["19.1%", "20.8%"], "-1.7"
        )
        quotes = f"{MARGIN_ROW}\n{HEADER}"
        assert [e.kind for e in find_edits(claim.text, EvidenceText(quotes))] == ["number"]
        with_result = EvidenceText(quotes + derivation_evidence(claim))
        assert [e.kind for e in find_edits(claim.text, with_result)] == []
        verification = verifier.verify(claim, as_of=AS_OF)
        audit = RulesCritic().audit(
            "By how much did the operating income margin change?",
            [claim],
            [verification],
            [],
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED

    def test_wrong_result_gives_no_evidence(self) -> None:
        """A wrong result is not passed as evidence: the recomputed figure is."""
        claim = derived(
            MARGIN_CHANGE.format("1.8"), Operation.DIFFERENCE, ["19.1%", "20.8%"], "-1.8"
        )
        assert "1.8" not in derivation_evidence(claim)


@pytest.fixture
def store_dir(tmp_path: Path) -> Path:
    source = tmp_path / "3m.md"
    source.write_text(
        f"---\ndoc_id: {DOC}\nversion: {VERSION}\nversion_date: 2023-02-08\n"
        f"authority: primary\ntitle: 3M 10-K 2022\n---\n{PAGE}",
        encoding="utf-8",
    )
    directory = tmp_path / "store"
    with Store.open(directory) as store:
        store.ingest([source], IngestOptions(authority="primary"))
    return directory


class TestEndToEnd:
    def test_gate_answers_with_a_derived_claim(self, store_dir: Path, tmp_path: Path) -> None:
        """The embedded default answers a change question with a verified derived claim, and
        the trace's draft carries the derivation."""
        question = "By how much did 3M's operating income margin change from 2021 to 2022?"
        trace = tmp_path / "run.jsonl"
        with Store.open(store_dir) as store:
            answer = EvidenceGate(store).ask(question, as_of=AS_OF, trace_out=trace)
        assert answer.outcome is Outcome.ANSWERED, (answer.gaps, answer.dropped_claims)
        (claim,) = answer.claims
        assert claim.derivation is not None and claim.derivation.result == "-1.7"
        assert "1.7 percentage points" in answer.answer
        drafts = [e.event for e in read_trace(trace) if isinstance(e.event, DraftEvent)]
        assert drafts[0].output.claims[0].derivation == claim.derivation

    def test_cli_and_report_show_the_computation(
        self, store_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The readable CLI output and the HTML report say what was computed from what."""
        question = "By how much did 3M's operating income margin change from 2021 to 2022?"
        trace = tmp_path / "run.jsonl"
        args = ["ask", question, "--store", str(store_dir), "--as-of", str(AS_OF)]
        assert main([*args, "--trace-out", str(trace)]) == 0
        out = capsys.readouterr().out
        assert (
            "computed: difference of Operating income margin, 2022 (19.1%) and Operating "
            "income margin, 2021 (20.8%) = -1.7"
        ) in out
        report = tmp_path / "report.html"
        with Store.open(store_dir) as store:
            write_report(trace, report, store=store)
        assert "recomputed by the verifier: difference of Operating" in report.read_text()

    def test_cli_json_carries_the_derivation(
        self, store_dir: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`evidencegate ask --json` prints the claim's operation, operands and result."""
        question = "By what percentage did 3M's net sales change in 2022?"
        code = main(["ask", question, "--store", str(store_dir), "--as-of", str(AS_OF), "--json"])
        assert code == 0
        (claim,) = json.loads(capsys.readouterr().out)["claims"]
        assert claim["derivation"]["operation"] == "percent_change"
        assert claim["derivation"]["result"] == "-3.2%"
        assert [o["value"] for o in claim["derivation"]["operands"]] == ["34,229", "35,355"]


SPAN = re.compile(r"^\[(E\d+\.\d+)\] (.*)$", re.MULTILINE)
LLM_POLICY = Policy(
    name="scripted-llm", generator="openai:gpt-test", critic="rules", max_cost_usd=0
)


def deriving_reply(request: ChatRequest) -> str:
    """A v3 generator model: it names the margin change as a derivation, without the result,
    and cites the table header for the years its text names."""
    spans = dict((text, span_id) for span_id, text in SPAN.findall(request.messages[-1].content))
    row = next((span_id for text, span_id in spans.items() if "margin" in text), None)
    if row is None:
        return json.dumps({"claims": [], "declined": "no span states the margin"})
    operands = [
        {"span_id": row, "value": "19.1%", "label": "Operating income margin, 2022"},
        {"span_id": row, "value": "20.8%", "label": "Operating income margin, 2021"},
    ]
    header = next(span_id for text, span_id in spans.items() if "2022 2021" in text)
    claim = {
        "text": "Operating income margin, 2022 against 2021",
        "citations": [{"span_id": header}],
        "derivation": {"operation": "difference", "operands": operands},
    }
    return json.dumps({"claims": [claim]})


class TestModelPath:
    def test_model_names_operands_engine_computes_and_replay_is_identical(
        self, store_dir: Path, tmp_path: Path
    ) -> None:
        """A model's derivation is computed by the engine, verified, and replays identically."""
        trace = tmp_path / "v3.jsonl"

        def models(provider: str, model: str) -> ScriptedChatModel:
            return ScriptedChatModel(deriving_reply, provider=provider, model=model)

        question = "By how much did 3M's operating income margin change from 2021 to 2022?"
        with Store.open(store_dir) as store:
            generator = build_generator(LLM_POLICY, chat_models=models)
            answer = EvidenceGate(store, policy=LLM_POLICY, generator=generator).ask(
                question, as_of=AS_OF, trace_out=trace
            )
            assert answer.outcome is Outcome.ANSWERED, (answer.gaps, answer.dropped_claims)
            (claim,) = answer.claims
            assert claim.derivation is not None and claim.derivation.result == "-1.7"
            assert claim.text.endswith("a decrease of 1.7 percentage points")
            result = replay_trace(trace, store)
        assert result.divergence is None and result.exit_code == EXIT_IDENTICAL


INCOME = (
    "3M Company and Subsidiaries\nConsolidated Statement of Incom e\n"
    "Years ended December 31 (Millions) 2022 2021 2020\n"
    "Net sales $ 34,229 $ 35,355 $ 32,184\n"
    "Cost of sales 19,232 18,795 16,605\n"
    "Gain on sale of businesses (2,724) (10) (389)\n"
    "Operating income 6,539 7,369 7,161\n"
)
CASH_FLOWS = (
    "3M Company and Subsidiaries\nConsolidated Statement of Cash Flows\n"
    "Years ended December 31 (Millions) 2022 2021 2020\n"
    "Cash Flows from Investing Activities\n"
    "Purchases of property, plant and equipment (PP&E) (1,749) (1,603) (1,501)\n"
    "Proceeds from sale of businesses, net of cash sold 4 13 389\n"
)
CAPEX_SHARE = "As an auditor I need 3M's capital expenditures as a percentage of net sales in 2022."


class TestAcrossStatements:
    """A share whose two figures stand on two primary statements of one filing."""

    @staticmethod
    def _draft(pages: list[str], question: str = CAPEX_SHARE) -> tuple[InMemoryCorpus, list[Claim]]:
        corpus = InMemoryCorpus()
        corpus.add(DOC, VERSION, dt.date(2023, 2, 8), pages)
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        draft = ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF)
        return corpus, [c for c in draft.claims if c.derivation is not None]

    def test_the_first_figure_is_named_without_the_asking_words(self) -> None:
        """ "As an auditor I need 3M's capital expenditures": the figure is capital expenditure."""
        request = derivation_request(CAPEX_SHARE, profile_question(CAPEX_SHARE, as_of=AS_OF))
        assert request is not None
        assert request.subjects == ("capital expenditure", "net sale")
        sga = "What were sales, general and administrative expenses as a percentage of sales?"
        request = derivation_request(sga, profile_question(sga, as_of=AS_OF))
        assert request is not None and request.subjects[0].split()[0] == "sale"
        assert profile_question(CAPEX_SHARE, as_of=AS_OF).operands == (
            ("capital", "expenditure"),
            ("net", "sale"),
        )

    def test_each_operand_read_from_its_statement_and_recomputed(self) -> None:
        """Capital expenditure from the cash flow statement, net sales from the income
        statement: each quoted on its own page, and the verifier recomputes the share."""
        corpus, claims = self._draft([INCOME, CASH_FLOWS])
        (claim,) = claims
        assert claim.derivation is not None
        assert claim.derivation.operation is Operation.SHARE
        assert [o.value for o in claim.derivation.operands] == ["(1,749)", "34,229"]
        assert claim.derivation.result == "-5.1%"
        assert {c.page for c in claim.citations} == {1, 2}
        assert Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF).ok
        wrong = claim.model_copy(
            update={"derivation": claim.derivation.model_copy(update={"result": "-5.3%"})}
        )
        assert not Verifier.from_policy(corpus, Policy()).verify(wrong, as_of=AS_OF).ok

    def test_a_row_naming_the_figure_only_after_its_head_is_another_figure(self) -> None:
        """ "Proceeds from sale of businesses, net of cash sold" is no net sales figure: with
        the cash flow statement alone there is no share to compute."""
        cells = table_cells(CASH_FLOWS)
        assert _best_row("net sale", cells, (2022,)) is None
        capex = _best_row("capital expenditure", cells, (2022,))
        assert capex is not None and capex[2022].cell.value == "(1,749)"
        question = "What were 3M's capital expenditures as a percentage of net sales in 2022?"
        _, claims = self._draft([CASH_FLOWS], question)
        assert claims == []

    def test_two_scales_are_not_divided(self) -> None:
        """Amounts in thousands on one statement and millions on the other: no share."""
        _, claims = self._draft([INCOME, CASH_FLOWS.replace("(Millions)", "(Thousands)")])
        assert claims == []
