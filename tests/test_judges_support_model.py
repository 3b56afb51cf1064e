"""The learned offline support judge (support:rules@3) and its training script."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from bench_support import load_benchmark
from conftest import shared_path

from evidencegate.cli.judges import build_support_judge
from evidencegate.evals.judge_bench import read_items, run_bench
from evidencegate.evals.meta import confusion
from evidencegate.judges.support import RulesSupportJudge
from evidencegate.judges.support_model import (
    FEATURES,
    MODEL_FILE,
    LearnedSupportJudge,
    SupportModel,
    features_of,
    load_support_model,
    measure_claim,
)

REPO = Path(__file__).resolve().parent.parent
SOURCE = (
    "The Governor of the Bank of England, Mark Carney, will stay until 2019. "
    "He announced the decision on Monday in London. "
    "The bank said the extension was not linked to the referendum."
)


@pytest.fixture(scope="module")
def judge() -> LearnedSupportJudge:
    return LearnedSupportJudge()


def _shipped() -> dict[str, Any]:
    path = REPO / "evidencegate" / "data" / "critic" / MODEL_FILE
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


class _GroupMaker:
    """Synthetic feature rows for the trainer's procedures: one feature (``min_a2``) separates
    the classes unless ``informative`` is off. With ``edited_pairs`` an unsupported group's
    rows pair up as the edited copies of one item (ids ``prefix-i//2``)."""

    def __init__(self, trainer: Any, *, seed: int, edited_pairs: bool = False) -> None:
        self.trainer = trainer
        self.rng = np.random.default_rng(seed)
        self.edited_pairs = edited_pairs
        self.signal = FEATURES.index("min_a2")

    def group(
        self, prefix: str, n: int, *, supported: bool | None = None, informative: bool = True
    ) -> Any:
        g = self.trainer._Group()
        for i in range(n):
            label = supported if supported is not None else i % 2 == 0
            x = list(self.rng.uniform(0.0, 1.0, len(FEATURES)))
            if informative:
                x[self.signal] = 0.8 + 0.2 * x[self.signal] if label else 0.3 * x[self.signal]
            g.x.append(x)
            g.y.append(int(label))
            g.hard.append(False)
            paired = self.edited_pairs and supported is False
            g.ids.append(f"{prefix}-{i // 2 if paired else i}")
        return g


class TestShippedModel:
    def test_loads_with_its_identity(self) -> None:
        """The package data model is this version's: its id, features and a real threshold."""
        model = load_support_model()
        assert model.component_id == "support:rules@3"
        assert model.features == FEATURES
        assert 0.0 < model.threshold < 1.0
        assert len(model.weights) == model.expanded_size > len(FEATURES)

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            ({"weights": [0.0]}, "weights has 1 values"),
            ({"features": ["a1"]}, "features are not this version's"),
            ({"threshold": 1.5}, "threshold"),
            ({"scale": None}, "malformed"),
        ],
    )
    def test_malformed_weights_are_refused(self, change: dict[str, Any], message: str) -> None:
        """A weights file of the wrong shape or values fails with a clear error."""
        data = _shipped() | change
        with pytest.raises(ValueError, match=message):
            SupportModel.from_json(data)

    def test_missing_key_is_refused(self) -> None:
        data = _shipped()
        del data["bias"]
        with pytest.raises(ValueError, match="malformed weights file"):
            SupportModel.from_json(data)

    def test_features_are_clipped_to_the_training_range(self) -> None:
        """Far out-of-range features give the probability at the range's edge, never NaN."""
        model = load_support_model()
        huge = [1e9] * len(FEATURES)
        edge = list(model.upper)
        assert model.probability(huge) == model.probability(edge)
        assert 0.0 <= model.probability([-1e9] * len(FEATURES)) <= 1.0


class TestFeatures:
    def test_one_finite_value_per_feature(self) -> None:
        judged, measures, prepared = measure_claim(SOURCE, "Mark Carney will stay until 2019.")
        x = features_of("Mark Carney will stay until 2019.", measures, prepared)
        assert judged == ["Mark Carney will stay until 2019."]
        assert len(x) == len(FEATURES) and all(math.isfinite(v) for v in x)
        named = dict(zip(FEATURES, x, strict=True))
        assert named["min_a1"] == 1.0 and named["max_n_missing"] == 0.0

    def test_a_name_outside_the_aligned_window_is_counted(self) -> None:
        """A name the source has, but not near the sentence's best evidence, is measured
        (a name swapped for another of the source)."""
        source = (
            SOURCE + " " + " ".join(f"Filler sentence number {i} about weather." for i in range(6))
        )
        source += " Paris hosted the summit."
        claim = "The Governor of the Bank of England, Paris Carney, will stay until 2019."
        _, measures, prepared = measure_claim(source, claim)
        named = dict(zip(FEATURES, features_of(claim, measures, prepared), strict=True))
        assert named["max_names_outside"] == 1.0
        assert named["max_names"] == 0.0  # the source has the name: not a decisive edit


class TestLearnedSupportJudge:
    def test_copied_claim_is_supported(self, judge: LearnedSupportJudge) -> None:
        verdict = judge.judge(SOURCE, "Mark Carney will stay at the Bank of England until 2019.")
        assert verdict.label == "supported"
        assert judge.component_id == "support:rules@3"

    @pytest.mark.parametrize(
        ("claim", "named"),
        [
            ("Mark Carney will stay at the Bank of England until 2021.", "2021"),
            ("Mark Osborne will stay at the Bank of England until 2019.", "osborne"),
            ("The bank said the extension was linked to the referendum.", "linked"),
        ],
    )
    def test_decisive_edits_stay_decisive(
        self, judge: LearnedSupportJudge, claim: str, named: str
    ) -> None:
        """A figure, name or negation the source lacks is unsupported with score 0."""
        verdict = judge.judge(SOURCE, claim)
        assert verdict.label == "unsupported" and verdict.score == 0.0
        assert named in verdict.reason.lower()

    def test_unrelated_claim_is_unsupported(self, judge: LearnedSupportJudge) -> None:
        """A claim the source has no words for scores below one it copies."""
        off = judge.judge(SOURCE, "Heavy rainfall flooded the vineyards and ruined the harvest.")
        on = judge.judge(SOURCE, "He announced the decision on Monday in London.")
        assert off.label == "unsupported" and on.label == "supported"
        assert off.score < on.score

    def test_deterministic(self, judge: LearnedSupportJudge) -> None:
        claim = "The extension was not linked to the referendum, the bank said on Monday."
        assert judge.judge(SOURCE, claim) == LearnedSupportJudge().judge(SOURCE, claim)

    def test_trivial_claim_is_supported(self, judge: LearnedSupportJudge) -> None:
        verdict = judge.judge(SOURCE, "Here is a summary:")
        assert verdict.label == "supported" and "trivial" in verdict.reason

    def test_empty_input_fails_closed(self, judge: LearnedSupportJudge) -> None:
        with pytest.raises(ValueError, match="source is empty"):
            judge.judge(" ", "claim")
        with pytest.raises(ValueError, match="claim is empty"):
            judge.judge(SOURCE, "")


class TestBuildSupportJudge:
    @pytest.mark.parametrize(
        ("spec", "kind"), [("rules", "@3"), ("rules@3", "@3"), ("rules@2", "@2")]
    )
    def test_named_versions(self, spec: str, kind: str) -> None:
        assert build_support_judge(spec).component_id.endswith(kind)

    def test_rules_policy_without_threshold_gets_the_learned_judge(self, tmp_path: Path) -> None:
        path = tmp_path / "p.yaml"
        path.write_text("critic: rules\n", encoding="utf-8")
        assert isinstance(build_support_judge(str(path)), LearnedSupportJudge)

    def test_rules_policy_with_threshold_keeps_the_coverage_judge(self, tmp_path: Path) -> None:
        path = tmp_path / "p.yaml"
        path.write_text("critic: rules\njudges:\n  support_threshold: 0.41\n", encoding="utf-8")
        assert isinstance(build_support_judge(str(path)), RulesSupportJudge)


def _load_trainer() -> ModuleType:
    return load_benchmark("train_critic", "train_critic")


class TestTraining:
    def test_fit_separates_and_is_deterministic(self) -> None:
        """Newton's method recovers the sign of a separating feature, the same every time."""
        trainer = _load_trainer()
        x = np.array([[-2.0, 0.1], [-1.0, -0.2], [1.0, 0.3], [2.0, -0.1], [0.5, 0.0]])
        y = np.array([0.0, 0.0, 1.0, 1.0, 1.0])
        w = np.ones(5)
        beta = trainer.fit(x, y, w, 0.1)
        assert beta[0] > 1.0 and abs(beta[1]) < beta[0]
        assert np.array_equal(beta, trainer.fit(x, y, w, 0.1))

    def test_cross_validation_holds_every_item_out_once(self) -> None:
        """K-fold: each item (and its edited copies) is judged once, by a model trained
        without it; a feature that separates the classes is found on every fold."""
        trainer = _load_trainer()
        group = _GroupMaker(trainer, seed=3, edited_pairs=True).group

        pools = {"a": group("a", 40), "b": group("b", 30)}
        edits = {"a": group("a", 20, supported=False), "b": group("b", 16, supported=False)}
        check = group("a", 24)
        out = trainer.cross_validate(pools, edits, check, 4)
        assert set(out) == {"a", "b", "edit check"}
        assert all(value >= 0.9 for value in out.values())
        assert {trainer.fold_of(f"a-{i}", 4) for i in range(40)} == {0, 1, 2, 3}
        assert trainer.fold_of("a-7", 4) == trainer.fold_of("a-7", 4)
        with pytest.raises(ValueError, match="at least 2"):
            trainer.cross_validate(pools, edits, check, 1)
        # labels that no feature predicts: a model fitted on its own test items would score
        # them well above chance; held out, it cannot
        noise = {"a": group("a", 60, informative=False), "b": group("b", 60, informative=False)}
        held_out = trainer.cross_validate(noise, edits, group("a", 24, informative=False), 4)
        assert held_out["a"] < 0.75 and held_out["b"] < 0.75

    def test_leave_one_dataset_out_never_trains_on_the_held_pool(self) -> None:
        """--lodo: each pool is judged by a model fitted on the other pools only; the edit
        check is split by the pool its claims come from; a signal shared by the pools
        transfers, a pool whose labels no feature predicts stays near chance."""
        trainer = _load_trainer()
        group = _GroupMaker(trainer, seed=5).group

        def run(noise: bool) -> dict[str, list[tuple[str, str]]]:
            pools = {p: group(p, 40, informative=not (noise and p == "c")) for p in "abc"}
            edits = {p: group(p, 10, supported=False) for p in pools}
            check = trainer._Group()
            for name in pools:
                part = group(name, 12, informative=not (noise and name == "c"))
                for field in ("x", "y", "hard", "ids"):
                    getattr(check, field).extend(getattr(part, field))
            out: dict[str, list[tuple[str, str]]] = trainer.cross_dataset(pools, edits, check)
            return out

        shared = run(noise=False)
        assert list(shared) == ["a", "a edit check", "b", "b edit check", "c", "c edit check"]
        assert all(len(shared[f"{p} edit check"]) == 12 for p in "abc")
        assert len(shared["a"]) == 40
        assert all(confusion(shared[p]).balanced_accuracy >= 0.9 for p in "abc")
        assert confusion(run(noise=True)["c"]).balanced_accuracy < 0.7
        with pytest.raises(ValueError, match="at least two pools"):
            trainer.cross_dataset({"a": group("a", 4)}, {}, trainer._Group())

    def test_bad_folds_exits_2(self, tmp_path: Path) -> None:
        trainer = _load_trainer()
        assert trainer.main(["--shared", str(tmp_path), "--folds", "1"]) == 2

    def test_check_ignores_last_digits_only(self) -> None:
        """--check's comparison: a weight a BLAS build moves by 5e-4 is the same model; a
        moved threshold, a weight off by more, or another feature list is not."""
        trainer = _load_trainer()
        shipped = {"threshold": 0.43, "features": ["a", "b"], "weights": [0.5, -1.25]}
        assert trainer.differences(shipped, {**shipped, "weights": [0.5005, -1.2496]}) == []
        moved = trainer.differences(shipped, {**shipped, "weights": [0.5, -1.2]})
        assert moved == [".weights[1]: -1.25 vs -1.2"]
        assert trainer.differences(shipped, {**shipped, "threshold": 0.4301}) == [
            ".threshold: 0.43 vs 0.4301"
        ]
        assert trainer.differences(shipped, {**shipped, "features": ["a", "c"]})
        assert trainer.differences(shipped, {**shipped, "weights": [0.5]})
        assert trainer.differences(shipped, {"threshold": 0.43})

    def test_missing_data_exits_2(self, tmp_path: Path) -> None:
        trainer = _load_trainer()
        assert trainer.main(["--shared", str(tmp_path), "--out", str(tmp_path / "m.json")]) == 2
        assert not (tmp_path / "m.json").exists()


class TestSharedBenchmarks:
    """support:rules@3 on the reported sets it was never trained on (floors just under the
    figures in the README, so a regression fails)."""

    @pytest.mark.parametrize(
        ("name", "floor"), [("faithbench_200", 0.55), ("wice_200", 0.63), ("qags_200", 0.75)]
    )
    def test_balanced_accuracy_floor(self, name: str, floor: float) -> None:
        results = run_bench(
            read_items(shared_path("critic", f"{name}.jsonl")), LearnedSupportJudge()
        )
        matrix = confusion([(r.gold, r.predicted) for r in results])
        assert matrix.errors == 0
        assert matrix.balanced_accuracy >= floor


def test_argparse_names_the_versions() -> None:
    from evidencegate.cli.judges import add_judge_bench_arguments

    parser = argparse.ArgumentParser()
    add_judge_bench_arguments(parser)
    assert "rules@2" in parser.format_help()
