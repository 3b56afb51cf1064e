"""The RAG triad judges (rules and scripted model) and the verifier check of their evidence."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from evidencegate.contracts import Passage
from evidencegate.exceptions import ModelOutputInvalid
from evidencegate.judgements import Groundedness
from evidencegate.judges.triad import (
    LLMTriadJudge,
    RulesTriadJudge,
    decompose_sentences,
    is_refusal,
    judge_triad,
)
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2014, 7, 1)
FEES = (
    "A late-payment fee of $25 applies when a payment is more than 15 days late. "
    "The fee may not exceed the minimum payment due."
)
HOURS = "The office is open from nine to five on weekdays. It is closed on public holidays."
QUESTION = "What is the late-payment fee?"


@pytest.fixture
def corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add("FEES", "v1", dt.date(2014, 1, 1), [FEES])
    corpus.add("HOURS", "v1", dt.date(2014, 1, 1), [HOURS])
    return corpus


@pytest.fixture
def verifier(corpus: InMemoryCorpus) -> Verifier:
    return Verifier(corpus, min_quote_chars=20, allowed_authorities=["primary"])


@pytest.fixture
def passages(corpus: InMemoryCorpus) -> list[Passage]:
    fees = corpus.search("late payment fee", as_of=AS_OF)
    hours = corpus.search("office weekdays holidays", as_of=AS_OF)
    return [fees[0], hours[0]]


class TestDecomposition:
    def test_splits_sentences_and_filters_trivial_ones(self) -> None:
        """Citation marks go, filler sentences are kept apart as trivial."""
        claims, trivial = decompose_sentences(
            "Here is the answer:\nThe fee is $25 [1]. It applies after 15 days [2]. "
            "Hope this helps!"
        )
        assert claims == ["The fee is $25.", "It applies after 15 days."]
        assert trivial == ["Here is the answer:", "Hope this helps!"]

    @pytest.mark.parametrize(
        "answer",
        [
            "Abstained: the evidence contract was not met.",
            "I cannot answer this from the documents.",
            "Insufficient evidence to answer.",
            "",
        ],
    )
    def test_refusals_are_recognised(self, answer: str) -> None:
        """Abstentions and refusals are not answers."""
        assert is_refusal(answer)

    def test_an_answer_is_not_a_refusal(self) -> None:
        """A statement mentioning evidence is still an answer."""
        assert not is_refusal("The fee is $25; no evidence suggests otherwise.")


class TestRulesTriad:
    def test_context_relevance_ranks_the_on_topic_passage(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """The passage stating the fee scores 3, the opening hours 0."""
        scores = RulesTriadJudge(verifier).context_relevance(QUESTION, passages, as_of=AS_OF)
        assert [s.score for s in scores] == [3, 0]

    def test_grounded_answer_names_verified_evidence(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """A claim the source states scores 3 with a verbatim quote the verifier accepted."""
        result = RulesTriadJudge(verifier).groundedness(
            "A late-payment fee of $25 applies when a payment is more than 15 days late.",
            passages,
            as_of=AS_OF,
        )
        (claim,) = result.claims
        assert (claim.score, claim.verified) == (3, True)
        assert claim.evidence[0].quote in FEES
        assert result.score == 1.0

    def test_unsupported_claim_scores_zero(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """A claim about something the evidence never says scores 0 and lowers groundedness."""
        result = RulesTriadJudge(verifier).groundedness(
            "A late-payment fee of $25 applies when a payment is more than 15 days late. "
            "Interest accrues at 18 percent annually on overdue balances.",
            passages,
            as_of=AS_OF,
        )
        assert [c.score for c in result.claims] == [3, 0]
        assert result.score == pytest.approx(0.5)

    def test_wrong_figure_is_overruled_by_the_verifier(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """A claim stating $35 where the quote says $25 gets no verified support."""
        result = RulesTriadJudge(verifier).groundedness(
            "A late-payment fee of $35 applies when a payment is more than 15 days late.",
            passages,
            as_of=AS_OF,
        )
        (claim,) = result.claims
        assert claim.score == 0
        assert not claim.verified

    def test_abstention_scores_as_abstention(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """An abstention has no groundedness score (not 0, not 1) and answer relevance 0."""
        judge = RulesTriadJudge(verifier)
        result = judge_triad(judge, QUESTION, "Abstained: no evidence.", passages, as_of=AS_OF)
        assert result.groundedness == Groundedness(abstained=True)
        assert (result.answer.score, result.answer.refusal) == (0, True)

    def test_answer_relevance_wants_the_asked_figure(self, verifier: Verifier) -> None:
        """An on-topic answer without the amount asked for scores at most 1; with it, 3."""
        judge = RulesTriadJudge(verifier)
        vague = judge.answer_relevance(QUESTION, "There is a late-payment fee.", as_of=AS_OF)
        exact = judge.answer_relevance(QUESTION, "The late-payment fee is $25.", as_of=AS_OF)
        assert vague.score <= 1
        assert exact.score == 3


def _reply(data: dict[str, object]) -> str:
    return json.dumps(data)


class TestLLMTriad:
    def test_fabricated_quote_is_overruled(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """The model's score 3 with a quote absent from the source becomes 0."""
        chat = ScriptedChatModel(
            [
                _reply(
                    {
                        "claims": [
                            {
                                "claim_id": "C1",
                                "score": 3,
                                "evidence": [
                                    {
                                        "evidence_id": "E1",
                                        "quote": "The fee is always waived for members.",
                                    }
                                ],
                                "reason": "stated",
                            }
                        ]
                    }
                )
            ]
        )
        result = LLMTriadJudge(chat, verifier).groundedness(
            "The fee is always waived for members.", passages, as_of=AS_OF
        )
        (claim,) = result.claims
        assert (claim.judge_score, claim.score, claim.verified) == (3, 0, False)
        assert "quote_not_found" in claim.reason
        assert "<evidence" in chat.requests[0].messages[0].content

    def test_verbatim_quote_counts(self, verifier: Verifier, passages: list[Passage]) -> None:
        """A real quote of the named passage keeps the model's score."""
        chat = ScriptedChatModel(
            [
                _reply(
                    {
                        "claims": [
                            {
                                "claim_id": "C1",
                                "score": 3,
                                "evidence": [
                                    {
                                        "evidence_id": "E1",
                                        "quote": "A late-payment fee of $25 applies",
                                    }
                                ],
                                "reason": "stated",
                            }
                        ]
                    }
                )
            ]
        )
        result = LLMTriadJudge(chat, verifier).groundedness(
            "The late-payment fee is $25.", passages, as_of=AS_OF
        )
        assert result.claims[0].score == 3
        assert result.score == 1.0

    def test_support_without_evidence_is_overruled(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """A positive score naming no evidence counts as no support."""
        chat = ScriptedChatModel(
            [_reply({"claims": [{"claim_id": "C1", "score": 2, "evidence": [], "reason": "r"}]})]
        )
        result = LLMTriadJudge(chat, verifier).groundedness(
            "The late-payment fee is $25.", passages, as_of=AS_OF
        )
        assert result.claims[0].score == 0
        assert "names no evidence" in result.claims[0].reason

    def test_a_missing_claim_id_is_repaired_then_fails_closed(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """A reply that skips a claim gets one repair; skipping again is a judge error."""
        wrong = _reply({"claims": []})
        chat = ScriptedChatModel([wrong, wrong])
        with pytest.raises(ModelOutputInvalid, match="claim id"):
            LLMTriadJudge(chat, verifier).groundedness(
                "The late-payment fee is $25.", passages, as_of=AS_OF
            )
        assert len(chat.requests) == 2

    def test_context_relevance_maps_block_ids_to_passages(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """Scores given per evidence block come back per passage id."""
        chat = ScriptedChatModel(
            [
                _reply(
                    {
                        "passages": [
                            {"evidence_id": "E2", "score": 0, "reason": "hours"},
                            {"evidence_id": "E1", "score": 3, "reason": "states the fee"},
                        ]
                    }
                )
            ]
        )
        scores = LLMTriadJudge(chat, verifier).context_relevance(QUESTION, passages, as_of=AS_OF)
        assert [(s.passage_id, s.score) for s in scores] == [
            (passages[0].passage_id, 3),
            (passages[1].passage_id, 0),
        ]

    def test_refusal_with_a_score_is_refused(self, verifier: Verifier) -> None:
        """'refusal: true' with a score above 0 fails validation, is repaired once."""
        chat = ScriptedChatModel(
            [
                _reply({"score": 2, "refusal": True, "reason": "declined"}),
                _reply({"score": 0, "refusal": True, "reason": "declined"}),
            ]
        )
        result = LLMTriadJudge(chat, verifier).answer_relevance(
            QUESTION, "The documents are silent on fees for this case.", as_of=AS_OF
        )
        assert (result.score, result.refusal) == (0, True)
        assert len(chat.requests) == 2

    def test_model_decomposition_filters_trivial_claims(
        self, verifier: Verifier, passages: list[Passage]
    ) -> None:
        """Claims from the model are filtered for trivial ones before they are judged."""
        chat = ScriptedChatModel(
            [
                _reply({"claims": ["The late-payment fee is $25.", "Sure."], "trivial": []}),
                _reply(
                    {
                        "claims": [
                            {
                                "claim_id": "C1",
                                "score": 3,
                                "evidence": [
                                    {
                                        "evidence_id": "E1",
                                        "quote": "A late-payment fee of $25 applies",
                                    }
                                ],
                                "reason": "stated",
                            }
                        ]
                    }
                ),
            ]
        )
        result = LLMTriadJudge(chat, verifier, decompose="model").groundedness(
            "Sure. The late-payment fee is $25.", passages, as_of=AS_OF
        )
        assert [c.text for c in result.claims] == ["The late-payment fee is $25."]
        assert result.trivial == ["Sure."]
