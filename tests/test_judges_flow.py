"""Relevance labels and knowledge combination, routing after generation, scores, disclaimers."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence

import pytest

from evidencegate.contracts import Passage
from evidencegate.judgements import (
    AnswerRelevance,
    AnswerScore,
    DocumentRelevance,
    Groundedness,
    KnowledgeStrategy,
    RelevanceLabel,
    Route,
    TriadResult,
)
from evidencegate.judges.relevance import (
    LLMRelevanceJudge,
    RulesRelevanceJudge,
    classify_task,
    combine_knowledge,
    keyword_query,
    knowledge_stage,
)
from evidencegate.judges.routing import route_after_generation
from evidencegate.judges.scoring import (
    Scored,
    disclaimer_for,
    keep_better,
    needs_quality_retry,
    review_score,
    score_answer,
)
from evidencegate.judges.triad import RulesTriadJudge
from evidencegate.policy import DisclaimerPolicy, JudgesPolicy, Policy
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2014, 7, 1)
H, S, N = RelevanceLabel.HIGHLY, RelevanceLabel.SOMEWHAT, RelevanceLabel.NOT


def labels(*pairs: tuple[str, RelevanceLabel]) -> list[DocumentRelevance]:
    return [DocumentRelevance(passage_id=p, label=label, reason="r") for p, label in pairs]


def passage(pid: str, text: str = "text") -> Passage:
    return Passage(
        passage_id=pid, doc_id="D", version="v1", page=1, char_start=0, char_end=4, text=text
    )


class TestTaskAndQuery:
    @pytest.mark.parametrize(
        ("question", "task"),
        [
            ("What is the lease threshold in 2014?", "closed"),
            ("When does the rule take effect?", "closed"),
            ("Is a lessor required to disclose fees?", "closed"),
            ("Explain the disclosure duties of a lessor.", "open"),
            ("Why was the rule changed?", "open"),
        ],
    )
    def test_classifies_questions(self, question: str, task: str) -> None:
        """One-fact questions are closed tasks; explanations are open."""
        assert classify_task(question, as_of=AS_OF) == task

    def test_keyword_query_keeps_content_words(self) -> None:
        """Question words and stop words go; numbers and names stay, each once."""
        assert keyword_query("What is the Regulation M lease threshold for the year 2014?") == (
            "Regulation M lease threshold year 2014"
        )


class TestCombination:
    def test_highly_relevant_documents_win(self) -> None:
        """With a highly relevant document, only the highly relevant ones are used."""
        selection = combine_knowledge("open", "q", labels(("a", S), ("b", H), ("c", N)))
        assert selection.strategy is KnowledgeStrategy.HIGHLY_RELEVANT
        assert selection.used_ids == ["b"]
        assert selection.follow_up_query is None

    def test_open_task_without_highly_uses_somewhat_plus_follow_up(self) -> None:
        """Open task, nothing highly relevant: somewhat relevant docs plus a keyword follow-up."""
        selection = combine_knowledge(
            "open", "Explain the lessor's duties.", labels(("a", S), ("c", N))
        )
        assert selection.strategy is KnowledgeStrategy.SOMEWHAT_PLUS_FOLLOW_UP
        assert selection.used_ids == ["a"]
        assert selection.follow_up_query == "lessor duties"

    def test_closed_task_without_highly_uses_nothing(self) -> None:
        """Closed task, nothing highly relevant: no documents at all."""
        selection = combine_knowledge("closed", "q", labels(("a", S), ("c", N)))
        assert selection.strategy is KnowledgeStrategy.NONE
        assert selection.used_ids == []
        assert len(selection.judgements) == 2

    def test_stage_runs_the_follow_up_and_keeps_relevant_results(self) -> None:
        """The follow-up's new documents are judged; not relevant ones are dropped."""
        verdicts = {"a": S, "b": N, "f1": H, "f2": N}

        class Judge:
            component_id = "relevance:test"

            def judge(
                self, question: str, passages: Sequence[Passage], *, as_of: dt.date
            ) -> list[DocumentRelevance]:
                return labels(*((p.passage_id, verdicts[p.passage_id]) for p in passages))

        queries: list[str] = []

        def retrieve(query: str) -> list[Passage]:
            queries.append(query)
            return [passage("a"), passage("f1"), passage("f2")]

        selection, used = knowledge_stage(
            "Explain fees.",
            [passage("a"), passage("b")],
            task="open",
            judge=Judge(),
            retrieve=retrieve,
            as_of=AS_OF,
        )
        assert queries == ["fees"]
        assert [p.passage_id for p in used] == ["a", "f1"]
        assert [j.passage_id for j in selection.judgements] == ["a", "b", "f1", "f2"]


class TestRelevanceJudges:
    def test_rules_labels_from_coverage(self) -> None:
        """The fee passage is highly relevant to a fee question; opening hours are not."""
        corpus = InMemoryCorpus()
        triad = RulesTriadJudge(
            Verifier(corpus, min_quote_chars=20, allowed_authorities=["primary"])
        )
        fee = passage("fee", "A late-payment fee of $25 applies after 15 days.")
        hours = passage("hours", "The office is open on weekdays.")
        judged = RulesRelevanceJudge(triad).judge(
            "What is the late-payment fee?", [fee, hours], as_of=AS_OF
        )
        assert [j.label for j in judged] == [H, N]

    def test_llm_judges_each_pair_once(self) -> None:
        """One model call per question–document pair, each label validated."""
        chat = ScriptedChatModel(
            [
                json.dumps({"label": "highly_relevant", "reason": "states it"}),
                json.dumps({"label": "not_relevant", "reason": "off topic"}),
            ]
        )
        judged = LLMRelevanceJudge(chat).judge("q?", [passage("a"), passage("b")], as_of=AS_OF)
        assert [j.label for j in judged] == [H, N]
        assert len(chat.requests) == 2


def triad(
    *, grounded: float | None, answer: int, abstained: bool = False, refusal: bool = False
) -> TriadResult:
    if abstained:
        groundedness = Groundedness(abstained=True)
    elif grounded is None:
        groundedness = Groundedness(abstained=False, trivial=["Sure."])
    else:
        from evidencegate.judgements import ClaimGrounding, EvidenceRef

        score = round(grounded * 3)
        groundedness = Groundedness(
            abstained=False,
            claims=[
                ClaimGrounding(
                    claim_id="c1",
                    text="t",
                    judge_score=score,
                    score=score,
                    evidence=[EvidenceRef(passage_id="p", quote="q")] if score else [],
                    verified=bool(score),
                    reason="r",
                )
            ],
            score=grounded,
        )
    return TriadResult(
        judge="test",
        context=[],
        groundedness=groundedness,
        answer=AnswerRelevance(score=answer, refusal=refusal, reason="r"),
    )


class TestRouting:
    policy = JudgesPolicy(routing=True, max_regenerations=1, grounded_at=0.8, answers_at=2)

    def test_not_grounded_regenerates_within_the_bound(self) -> None:
        """Low groundedness regenerates once, then finishes with the reason."""
        low = triad(grounded=1 / 3, answer=3)
        first = route_after_generation(
            low, policy=self.policy, regenerations=0, followups_left=True
        )
        second = route_after_generation(
            low, policy=self.policy, regenerations=1, followups_left=True
        )
        assert first.route is Route.REGENERATE
        assert second.route is Route.FINISH
        assert "max_regenerations=1" in second.reason

    def test_grounded_but_not_answering_follows_up(self) -> None:
        """A grounded draft that misses the question asks for a follow-up retrieval."""
        decision = route_after_generation(
            triad(grounded=1.0, answer=1), policy=self.policy, regenerations=0, followups_left=True
        )
        assert decision.route is Route.FOLLOW_UP

    def test_no_follow_up_left_finishes(self) -> None:
        """Without follow-up budget the run finishes."""
        decision = route_after_generation(
            triad(grounded=1.0, answer=1), policy=self.policy, regenerations=0, followups_left=False
        )
        assert decision.route is Route.FINISH

    def test_useful_finishes(self) -> None:
        """Grounded and answering: finish."""
        decision = route_after_generation(
            triad(grounded=1.0, answer=3), policy=self.policy, regenerations=0, followups_left=True
        )
        assert decision.route is Route.FINISH
        assert decision.reason.startswith("useful")

    def test_abstention_follows_up(self) -> None:
        """An abstaining draft asks for more evidence when it may."""
        decision = route_after_generation(
            triad(grounded=None, answer=0, abstained=True, refusal=True),
            policy=self.policy,
            regenerations=0,
            followups_left=True,
        )
        assert decision.route is Route.FOLLOW_UP


class TestScoring:
    disclaimers = DisclaimerPolicy()

    @pytest.mark.parametrize(
        ("groundedness", "expected"),
        [
            (1.0, None),
            (0.8, None),
            (0.79, "Some content may go beyond the available sources."),
            (0.6, "Some content may go beyond the available sources."),
            (0.59, "Insufficient evidence; use with caution."),
            (0.0, "Insufficient evidence; use with caution."),
        ],
    )
    def test_disclaimer_thresholds(self, groundedness: float, expected: str | None) -> None:
        """>= 0.8 none, >= 0.6 caution, else insufficient evidence."""
        assert disclaimer_for(groundedness, self.disclaimers) == expected

    def test_review_score_is_the_weaker_side(self) -> None:
        """min(quality, 1 + 3 × groundedness)."""
        assert review_score(1.0, 2) == 2.0
        assert review_score(0.5, 4) == 2.5
        with pytest.raises(ValueError, match="quality"):
            review_score(0.5, 5)

    def test_low_score_is_flagged(self) -> None:
        """A review score under the flag threshold carries a flag reason."""
        score = score_answer(triad(grounded=1 / 3, answer=3), policy=Policy())
        assert score.review_score == pytest.approx(2.0)
        assert score.disclaimer == "Insufficient evidence; use with caution."
        assert score.flag_reasons and "flag_threshold 3.00" in score.flag_reasons[0]

    def test_good_answer_is_not_flagged(self) -> None:
        """Grounded and relevant: no disclaimer, no flag."""
        score = score_answer(triad(grounded=1.0, answer=3), policy=Policy())
        assert (score.quality, score.review_score, score.disclaimer) == (4, 4.0, None)
        assert score.flag_reasons == []

    def test_abstention_is_not_scored(self) -> None:
        """An abstention gets no score and no flag."""
        score = score_answer(
            triad(grounded=None, answer=0, abstained=True, refusal=True), policy=Policy()
        )
        assert score == AnswerScore(abstained=True)

    def test_quality_retry_needs_a_judgeable_answer(self) -> None:
        """Retry on quality <= 2 only when the answer has enough words to judge."""
        policy = JudgesPolicy(quality_retry=True, quality_retry_at=2, min_judgeable_words=5)
        low = AnswerScore(abstained=False, groundedness=1.0, quality=2, review_score=2.0)
        assert needs_quality_retry(low, "one two three four five", policy)
        assert not needs_quality_retry(low, "too short", policy)
        high = low.model_copy(update={"quality": 3})
        assert not needs_quality_retry(high, "one two three four five", policy)
        assert not needs_quality_retry(low, "one two three four five", JudgesPolicy())

    def test_keep_better_prefers_groundedness_then_quality(self) -> None:
        """The better-grounded draft wins; on a tie the higher quality; then the first."""
        a = Scored("a", AnswerScore(abstained=False, groundedness=0.6, quality=4))
        b = Scored("b", AnswerScore(abstained=False, groundedness=0.9, quality=2))
        c = Scored("c", AnswerScore(abstained=False, groundedness=0.9, quality=3))
        assert keep_better(a, b).draft == "b"
        assert keep_better(b, c).draft == "c"
        assert keep_better(c, c).draft == "c"
        assert keep_better(Scored("x", AnswerScore(abstained=True)), a).draft == "a"


class TestJudgesPolicy:
    def test_defaults_keep_the_judges_off(self) -> None:
        """A policy without a judges section runs no judge, routing or relevance stage."""
        judges = Policy().judges
        assert (judges.triad, judges.routing, judges.relevance, judges.quality_retry) == (
            False,
            False,
            False,
            False,
        )

    def test_invalid_threshold_names_the_field(self) -> None:
        """An out-of-range flag threshold is a PolicyError naming judges.flag_threshold."""
        from evidencegate.exceptions import PolicyError
        from evidencegate.policy import load_policy

        with pytest.raises(PolicyError, match=r"judges\.flag_threshold"):
            load_policy({"judges": {"flag_threshold": 5}})
        assert load_policy({"judges": {"routing": True}}).judges.routing
