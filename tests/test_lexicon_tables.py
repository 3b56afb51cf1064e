"""The lexicon tables mined from WordNet (word families, act groups) are what their miners
write: the shipped package data can be re-made from WordNet 3.0 byte for byte."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from tests.bench_support import load_benchmark

WORDNET = Path("/usr/share/wordnet")


@pytest.mark.skipif(
    not (WORDNET / "data.verb").is_file(),
    reason="WordNet 3.0 is not installed (apt-get install wordnet-base); .ci/run installs it",
)
@pytest.mark.parametrize(
    ("script", "table"),
    [
        ("mine_derivations", "derivations.tsv"),
        ("mine_acts", "acts.tsv"),
        ("mine_figures", "figures.tsv"),
    ],
)
def test_the_shipped_table_is_what_its_miner_writes(
    script: str, table: str, tmp_path: Path
) -> None:
    miner = load_benchmark(script, f"_miner_{script}")
    out = tmp_path / table
    assert miner.main(["--wordnet", str(WORDNET), "--out", str(out)]) == 0
    shipped = resources.files("evidencegate").joinpath("data", "lexicon", table)
    assert out.read_bytes() == shipped.read_bytes()


def test_a_missing_database_is_named_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    miner = load_benchmark("mine_acts", "_miner_acts_missing")
    out = tmp_path / "acts.tsv"
    assert miner.main(["--wordnet", str(tmp_path), "--out", str(out)]) == 2
    assert "apt-get install wordnet-base" in capsys.readouterr().err
    assert not out.exists()
