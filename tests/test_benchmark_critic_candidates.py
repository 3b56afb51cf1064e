"""benchmarks/critic_candidates.py: the candidate measures it tries on the offline critic."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from bench_support import load_benchmark

from evidencegate.judges.support_model import PreparedSource
from evidencegate.verify.edits import Edit

REPO = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    return load_benchmark("critic_candidates", "critic_candidates")


bench = _load()
SOURCE = (
    "The United Kingdom's central bank raised rates in March. "
    "Its governor, Mark Carney, said inflation would fall. "
    "Analysts in London expected a cut."
)


class TestCandidateMeasures:
    def test_clauses_split_at_conjunctions_and_commas(self) -> None:
        """A claim gathering facts is split into clauses; a one-term piece joins its
        neighbour."""
        got = bench.clauses("The bank raised rates in March, and the governor resigned in May.")
        assert len(got) == 2
        assert bench.clauses("Rates rose, sharply.") == [["rate", "rose", "sharpli"]]

    def test_the_weakest_clause_decides(self) -> None:
        """A copied clause next to an invented one: the clause coverage sees the invented
        fact that the whole sentence's coverage averages away."""
        prepared = PreparedSource.of(SOURCE)
        shares, counts = bench.candidate_measures(
            "The central bank raised rates in March, and analysts applauded a surprising merger.",
            prepared,
        )
        copied, _ = bench.candidate_measures("The central bank raised rates in March.", prepared)
        assert copied["c1"] == 1.0 and copied["lcs1"] == 1.0
        assert shares["c1"] < 0.5 and counts["clauses"] == 2 and counts["novel_run"] >= 2

    def test_modality_and_antonyms_against_the_best_window(self) -> None:
        prepared = PreparedSource.of(SOURCE)
        _, hedged = bench.candidate_measures("The central bank may raise rates in March.", prepared)
        _, flipped = bench.candidate_measures("Mark Carney said inflation would rise.", prepared)
        assert hedged["modal"] == 1
        assert flipped["antonyms"] == 1

    def test_refined_edits_allow_initialisms_accents_and_list_numbers(self) -> None:
        """'UK' for 'United Kingdom', 'cafe' for 'Café', the '1.' of a list item are no edits;
        a name the source lacks still is."""
        spelled = bench.initialisms(SOURCE + " The U.S. Fed did not.")
        assert {"uk", "us"} <= spelled
        folded = {"cafe"}
        assert not bench.refined("The UK bank.", [Edit("name", "uk")], folded, spelled)
        assert not bench.refined("At the Café.", [Edit("name", "cafe")], folded, spelled)
        assert not bench.refined("1. Rates rose.", [Edit("number", "1")], folded, spelled)
        assert bench.refined("Harrington said.", [Edit("name", "harrington")], folded, spelled)
        assert bench.refined("Rates rose 1.", [Edit("number", "1")], folded, spelled)


@pytest.mark.parametrize("argv", [["--folds", "1"], ["--designs", "nonesuch"]])
def test_bad_arguments_exit_2(argv: list[str], tmp_path: Path) -> None:
    assert bench.main(["--shared", str(tmp_path), *argv]) == 2


def test_missing_data_exits_2(tmp_path: Path) -> None:
    assert bench.main(["--shared", str(tmp_path)]) == 2
