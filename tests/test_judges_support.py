"""The support judges (source + claim, no quote) and the judge-bench pieces."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import pytest
from conftest import shared_path

from evidencegate.cli.judges import (
    add_judge_bench_arguments,
    build_support_judge,
    run_judge_bench,
)
from evidencegate.evals.judge_bench import BenchItem, read_items, run_bench
from evidencegate.exceptions import ConfigurationError, ModelOutputInvalid, UsageError
from evidencegate.judgements import SupportVerdict
from evidencegate.judges.support import (
    LLMSupportJudge,
    RulesSupportJudge,
    SupportConfig,
    clean_text,
    is_trivial,
)
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.userio import ProgressBar

SOURCE = (
    "The Governor of the Bank of England, Mark Carney, will stay until 2019. "
    "He announced the decision on Monday in London. "
    "The bank said the extension was not linked to the referendum."
)


@pytest.fixture
def judge() -> RulesSupportJudge:
    return RulesSupportJudge()


class TestCleanText:
    def test_undoes_tokenisation(self) -> None:
        """Spaced thousands, spaced hyphens and spaces before punctuation are joined."""
        assert clean_text("viewed 235, 000 times by kovach - suehn , 56 .") == (
            "viewed 235,000 times by kovach-suehn, 56."
        )

    def test_drops_line_number_markers(self) -> None:
        """Leading ``[n]`` markers of scraped pages are not content (nor numbers)."""
        assert clean_text("[0] Title\n[12] Body text") == "Title\nBody text"

    def test_keeps_a_date_followed_by_a_count(self) -> None:
        """A four-digit year before a comma is not joined to the next number."""
        assert clean_text("in 2014, 300 people") == "in 2014, 300 people"


class TestTrivialClaims:
    @pytest.mark.parametrize(
        "sentence", ["Here is a concise summary of the passage:", "Sure.", "Why?", "It is."]
    )
    def test_no_checkable_content(self, sentence: str) -> None:
        """Headings, questions and conversational filler carry no claim."""
        assert is_trivial(sentence)

    @pytest.mark.parametrize("sentence", ["Cheshire", "$53,500", "The fee is 25 dollars."])
    def test_names_figures_and_statements_are_claims(self, sentence: str) -> None:
        """A single name or figure is a checkable claim."""
        assert not is_trivial(sentence)


class TestRulesSupportJudge:
    def test_extractive_claim_is_supported(self, judge: RulesSupportJudge) -> None:
        """A claim restating the source is supported, with the aligned evidence named."""
        verdict = judge.judge(
            SOURCE, "Mark Carney, the Governor of the Bank of England, will stay until 2019."
        )
        assert verdict.label == "supported"
        assert verdict.score >= 0.9
        assert verdict.sentences[0].evidence is not None
        assert "Carney" in verdict.sentences[0].evidence

    def test_number_not_in_source_is_unsupported(self, judge: RulesSupportJudge) -> None:
        """A year the source does not state makes the claim unsupported, and is named."""
        verdict = judge.judge(SOURCE, "The Governor of the Bank of England will stay until 2021.")
        assert verdict.label == "unsupported"
        assert "2021" in verdict.reason

    def test_name_not_in_source_is_named(self, judge: RulesSupportJudge) -> None:
        """A name the source lacks is an issue of the sentence."""
        verdict = judge.judge(
            SOURCE, "He announced the decision on Monday in Toronto with Trudeau."
        )
        assert verdict.label == "unsupported"
        assert any("toronto" in issue for issue in verdict.sentences[0].issues)

    def test_negation_contradicting_the_source_is_an_issue(self, judge: RulesSupportJudge) -> None:
        """'linked' where the source says 'not linked' is reported as a negation mismatch."""
        verdict = judge.judge(SOURCE, "The bank said the extension was linked to the referendum.")
        assert any("not linked" in issue for issue in verdict.sentences[0].issues)

    def test_weakest_sentence_pulls_a_long_claim_down(self, judge: RulesSupportJudge) -> None:
        """One unsupported sentence among supported ones lowers the claim's support."""
        good = judge.judge(SOURCE, "He announced the decision on Monday in London.")
        mixed = judge.judge(
            SOURCE,
            "He announced the decision on Monday in London. "
            "Analysts in Frankfurt expect rates to rise by 3 percent in 2022.",
        )
        assert mixed.score < good.score
        assert mixed.label == "unsupported"

    def test_threshold_decides_the_label(self) -> None:
        """The same claim flips to unsupported under a stricter threshold."""
        claim = "Carney announced on Monday that he will stay."
        assert RulesSupportJudge(SupportConfig(threshold=0.3)).judge(SOURCE, claim).label == (
            "supported"
        )
        assert RulesSupportJudge(SupportConfig(threshold=0.99)).judge(SOURCE, claim).label == (
            "unsupported"
        )

    def test_trivial_claim_is_supported_with_a_reason(self, judge: RulesSupportJudge) -> None:
        """A claim with nothing checkable says so rather than guessing."""
        verdict = judge.judge(SOURCE, "Here is a summary:")
        assert verdict.label == "supported"
        assert "nothing checkable" in verdict.reason

    def test_empty_input_fails_closed(self, judge: RulesSupportJudge) -> None:
        """An empty source or claim is an error naming it, never a verdict."""
        with pytest.raises(ValueError, match="source is empty"):
            judge.judge("  ", "A claim.")
        with pytest.raises(ValueError, match="claim is empty"):
            judge.judge(SOURCE, "")

    def test_config_rejects_out_of_range_values(self) -> None:
        """A threshold or penalty outside 0..1 is refused, naming the field."""
        with pytest.raises(ValueError, match="threshold"):
            SupportConfig(threshold=1.5)
        with pytest.raises(ValueError, match="word_penalty"):
            SupportConfig(word_penalty=-0.1)


#: A source and, per edit kind, a claim copying it with one thing changed.
STORY = (
    "Poseidon grossed $181,674,817 at the worldwide box office on a budget of $160 million. "
    "The film was released by Warner Brothers on May 12, 2006. "
    "Critics said the remake was not as good as the original film."
)
STORY_EDITS = [
    ("number", "Poseidon grossed $181,674,817 worldwide on a budget of $180 million.", "180000000"),
    ("date", "The film was released by Warner Brothers on May 12, 2007.", "2007"),
    ("name", "The film was released by Universal Pictures on May 12, 2006.", "universal"),
    ("negation", "Critics said the remake was as good as the original film.", "not as good"),
    ("word", "The film was shot underwater with a rotating full-size ship set.", "underwat"),
]
STORY_FAITHFUL = [
    "Poseidon, released by Warner Brothers on May 12, 2006, had a budget of $160 million.",
    "Made for $160 million, Poseidon earned $181,674,817 at the box office worldwide.",
    "Critics found the remake not as good as the original.",
]


class TestEditDetection:
    """The rules judge on a claim edited in one place: each kind of edit is caught."""

    @pytest.mark.parametrize(("kind", "claim", "named"), STORY_EDITS)
    def test_edit_makes_the_claim_unsupported(
        self, judge: RulesSupportJudge, kind: str, claim: str, named: str
    ) -> None:
        """A changed number, date, name, negation or key word is unsupported and named."""
        verdict = judge.judge(STORY, claim)
        assert verdict.label == "unsupported", (kind, verdict.reason)
        assert named in verdict.reason

    @pytest.mark.parametrize("claim", STORY_FAITHFUL)
    def test_faithful_paraphrase_stays_supported(
        self, judge: RulesSupportJudge, claim: str
    ) -> None:
        """A reworded claim with the same figures, date, names and polarity is supported."""
        verdict = judge.judge(STORY, claim)
        assert verdict.label == "supported", verdict.reason

    def test_one_edited_sentence_decides(self, judge: RulesSupportJudge) -> None:
        """A summary is unsupported when one of its sentences carries an edit."""
        verdict = judge.judge(STORY, " ".join([STORY_FAITHFUL[0], STORY_EDITS[2][1]]))
        assert verdict.label == "unsupported"
        assert [s.score for s in verdict.sentences][1] == 0.0


class TestLLMSupportJudge:
    def test_parses_a_valid_reply(self) -> None:
        """A schema-valid reply becomes a verdict carrying the unsupported spans."""
        chat = ScriptedChatModel(
            [
                json.dumps(
                    {
                        "label": "unsupported",
                        "unsupported_spans": ["until 2021"],
                        "reason": "the source says 2019",
                    }
                )
            ]
        )
        verdict = LLMSupportJudge(chat).judge(SOURCE, "He stays until 2021.")
        assert verdict == SupportVerdict(
            label="unsupported", score=0.0, reason="the source says 2019 (unsupported: until 2021)"
        )
        assert chat.requests[0].metadata["prompt"] == "judge.support@v1"

    def test_repairs_once(self) -> None:
        """An invalid reply gets one repair call quoting the error."""
        chat = ScriptedChatModel(
            [
                json.dumps({"label": "maybe", "reason": "x"}),
                json.dumps({"label": "supported", "unsupported_spans": [], "reason": "ok"}),
            ]
        )
        assert LLMSupportJudge(chat).judge(SOURCE, "Carney stays.").label == "supported"
        assert "maybe" in chat.requests[1].messages[-1].content

    def test_invalid_twice_is_an_error(self) -> None:
        """Two invalid replies raise ModelOutputInvalid: a judge error, never a pass."""
        chat = ScriptedChatModel(["not json", json.dumps({"label": "supported"})])
        with pytest.raises(ModelOutputInvalid):
            LLMSupportJudge(chat).judge(SOURCE, "Carney stays.")


class _Exploding:
    component_id = "support:exploding@test"

    def judge(self, source: str, claim: str) -> SupportVerdict:
        if "boom" in claim:
            raise RuntimeError("judge crashed")
        return SupportVerdict(label="supported", score=1.0, reason="ok")


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS: list[dict[str, object]] = [
    {"id": "a", "dataset": "T", "source": SOURCE, "claim": "Carney stays.", "label": "supported"},
    {"id": "b", "dataset": "T", "source": SOURCE, "claim": "boom", "label": "unsupported"},
    {"id": "c", "dataset": "T", "source": SOURCE, "claim": "x y", "label": "ambiguous"},
]


class TestJudgeBench:
    def test_judge_error_is_a_result_not_a_skip(self) -> None:
        """An exception of the judge is recorded as an error result for its item."""
        items = [BenchItem.model_validate(r) for r in ROWS]
        stream = io.StringIO()
        results = run_bench(items, _Exploding(), progress=ProgressBar(3, stream=stream))
        assert [r.predicted for r in results] == ["supported", "error", "supported"]
        assert "RuntimeError: judge crashed" in results[1].reason
        assert "3/3 items, 1 judge errors" in stream.getvalue()

    def test_bad_row_names_its_line(self, tmp_path: Path) -> None:
        """A row without a claim is a usage error naming the line and the field."""
        path = _write(tmp_path / "d.jsonl", [ROWS[0], {"id": "z", "source": "s", "label": "x"}])
        with pytest.raises(UsageError, match=r"line 2: claim"):
            read_items(path)

    def test_cli_writes_metrics_and_results(self, tmp_path: Path) -> None:
        """judge-bench prints the metrics and writes metrics.json and results.jsonl."""
        path = _write(tmp_path / "d.jsonl", [*ROWS[:1], {**ROWS[1], "claim": "Nobody stays."}])
        parser = argparse.ArgumentParser()
        add_judge_bench_arguments(parser)
        args = parser.parse_args([str(path), "-o", str(tmp_path / "out"), "--resamples", "20"])
        assert run_judge_bench(args) == 0
        metrics = json.loads((tmp_path / "out" / "metrics.json").read_text(encoding="utf-8"))
        assert metrics["judge"] == "support:rules@3"
        assert metrics["overall"]["n"] == 2
        lines = (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()
        assert [json.loads(line)["id"] for line in lines] == ["a", "b"]

    def test_cli_reports_a_missing_file(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A missing dataset exits 2 with an error naming the file."""
        parser = argparse.ArgumentParser()
        add_judge_bench_arguments(parser)
        assert run_judge_bench(parser.parse_args([str(tmp_path / "nope.jsonl")])) == 2
        assert "nope.jsonl" in capsys.readouterr().err


class TestSharedBenchmarks:
    """The rules judge on the shared human-labelled sets: far from LLM judges, above chance."""

    @pytest.mark.parametrize("name", ["faithbench_200", "wice_200", "qags_200"])
    def test_balanced_accuracy_above_chance(self, name: str) -> None:
        """Balanced accuracy stays at or above 0.57 (0.5 is chance) with no judge error."""
        path = shared_path("critic", f"{name}.jsonl")
        results = run_bench(read_items(path), RulesSupportJudge())
        from evidencegate.evals.meta import confusion

        matrix = confusion([(r.gold, r.predicted) for r in results])
        assert matrix.errors == 0
        assert matrix.balanced_accuracy >= 0.57


class TestBuildSupportJudge:
    def test_rules_policy_uses_its_threshold(self, tmp_path: Path) -> None:
        """A policy whose critic is 'rules' gives the rules judge with the policy's threshold."""
        path = tmp_path / "p.yaml"
        path.write_text("critic: rules\njudges:\n  support_threshold: 0.9\n", encoding="utf-8")
        judge = build_support_judge(str(path))
        assert isinstance(judge, RulesSupportJudge)
        assert judge.config.threshold == 0.9

    def test_model_critic_without_key_is_a_configuration_error(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A model critic is built like the loop's critic: a missing API key is named."""
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        path = tmp_path / "p.yaml"
        path.write_text("critic: openai:gpt-4o-mini\nmax_cost_usd: 0\n", encoding="utf-8")
        with pytest.raises(ConfigurationError, match="OPENAI_API_KEY"):
            build_support_judge(str(path))
