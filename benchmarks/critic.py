"""The offline critic (rules support judge) on the shared critic benchmarks: one table.

    python benchmarks/critic.py [--shared DIR] [--sets reported,dev,edits] [--judge rules@3]

``--judge``: ``rules@3`` (default: the learned judge, ``support:rules@3``) or ``rules@2`` (the
coverage judge with one global threshold, ``support:rules@2``).

Three groups of rows, each with n, precision / recall / F1 on ``unsupported``, balanced
accuracy and Cohen's kappa (point estimates; ``evidencegate judge-bench FILE`` adds 95%
bootstrap intervals for one file):

* ``reported`` — the balanced ``*_200`` sets (FaithBench, WiCE, QAGS; HaluEval-QA as a smoke
  test: its labels are synthetic).
* ``dev`` — the development pools the judges were tuned and trained on: each ``*_all`` file
  minus the ids of its ``*_200`` set (FaithBench's ``ambiguous`` items are left out of the metrics).
* ``edits`` — edited copies of the development pools' *supported* claims, one edit per copy
  (a year moved, a number changed, a name swapped for another name of the source or for a name
  it lacks, a negation inserted or removed, a word replaced by its antonym), each labelled
  unsupported, next to the unedited claims labelled supported; with the share of each edit
  kind the judge catches. The edits are made by fixed rules and a fixed seed: a check of the
  mechanism on the kind of data the held-out "edited summaries" are, not a human-labelled set.

Exit codes: 0 done; 2 the shared datasets are missing.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from evidencegate.evals.meta import Confusion, Outcome, confusion
from evidencegate.judges.support import RulesSupportJudge, SupportJudge
from evidencegate.judges.support_model import LearnedSupportJudge

REPORTED = ("faithbench_200", "wice_200", "qags_200", "halueval_qa_200")
DEV = (
    ("faithbench_all", "faithbench_200"),
    ("wice_claim_test_dev_all", "wice_200"),
    ("qags_all", "qags_200"),
)

_ANTONYMS = {
    "increase": "decrease",
    "increased": "decreased",
    "rose": "fell",
    "won": "lost",
    "before": "after",
    "after": "before",
    "more": "fewer",
    "higher": "lower",
    "lower": "higher",
    "first": "last",
    "largest": "smallest",
    "approved": "rejected",
    "rejected": "approved",
    "supported": "opposed",
    "opposed": "supported",
    "arrested": "released",
    "older": "younger",
    "younger": "older",
    "north": "south",
    "south": "north",
    "east": "west",
    "west": "east",
    "bought": "sold",
    "sold": "bought",
    "male": "female",
    "female": "male",
    "early": "late",
    "best": "worst",
    "gained": "lost",
    "closed": "opened",
    "opened": "closed",
}
_AUXILIARY = re.compile(r"\b(?:is|was|are|were|has|have|had|will|can|would|could|should)\b(?! not)")
_YEAR = re.compile(r"\b(?:1[89]\d\d|20\d\d)\b")
_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\w.,]?\d)")
_NAME = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})?")
_INVENTED_NAMES = ("Harrington", "Okafor", "Lindqvist", "Castellano", "Brennan", "Winnipeg")


def edited_copies(claim: str, source: str, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(edit kind, edited claim) for each kind of edit ``claim`` lends itself to."""
    years = list(_YEAR.finditer(claim))
    if years:
        m = rng.choice(years)
        moved = int(m.group()) + rng.choice((-3, -2, -1, 1, 2, 3))
        yield "date", f"{claim[: m.start()]}{moved}{claim[m.end() :]}"
    numbers = [m for m in _NUMBER.finditer(claim) if not _YEAR.fullmatch(m.group())]
    if numbers:
        m = rng.choice(numbers)
        value = int(m.group().replace(",", ""))
        changed = value + rng.choice((1, 2, 3)) if value < 10 else int(value * 1.5)
        text = f"{changed:,}" if "," in m.group() else str(changed)
        yield "number", f"{claim[: m.start()]}{text}{claim[m.end() :]}"
    names = list(_NAME.finditer(claim))
    if names:
        m = rng.choice(names)
        others = sorted({n for n in _NAME.findall(source) if n.lower() not in claim.lower()})
        if others:
            swapped = rng.choice(others)
            yield "name (from the source)", f"{claim[: m.start()]}{swapped}{claim[m.end() :]}"
        yield (
            "name (not in the source)",
            (f"{claim[: m.start()]}{rng.choice(_INVENTED_NAMES)}{claim[m.end() :]}"),
        )
    auxiliaries = list(_AUXILIARY.finditer(claim))
    if auxiliaries:
        m = rng.choice(auxiliaries)
        yield "negation", f"{claim[: m.end()]} not{claim[m.end() :]}"
    elif " not " in claim:
        yield "negation", claim.replace(" not ", " ", 1)
    words = [m for m in re.finditer(r"\b[a-z]+\b", claim) if m.group() in _ANTONYMS]
    if words:
        m = rng.choice(words)
        yield "word (antonym)", f"{claim[: m.start()]}{_ANTONYMS[m.group()]}{claim[m.end() :]}"


def _rows(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _dev_pool(shared: Path, pool: str, reported: str) -> list[dict[str, str]]:
    held = {r["id"] for r in _rows(shared / "critic" / f"{reported}.jsonl")}
    return [r for r in _rows(shared / "critic" / f"{pool}.jsonl") if r["id"] not in held]


JUDGES = ("rules@3", "rules@2")


def build_judge(name: str) -> SupportJudge:
    """The offline support judge ``rules@3`` (learned) or ``rules@2`` (coverage)."""
    if name == "rules@2":
        return RulesSupportJudge()
    if name == "rules@3":
        return LearnedSupportJudge()
    raise ValueError(f"--judge must be one of {', '.join(JUDGES)} (got {name!r})")


def _judge(rows: list[dict[str, str]], judge: SupportJudge) -> list[Outcome]:
    out: list[Outcome] = []
    for row in rows:
        if row["label"] in ("supported", "unsupported"):
            out.append((row["label"], judge.judge(row["source"], row["claim"]).label))
    return out


def _line(name: str, m: Confusion) -> str:
    return (
        f"| {name} | {m.n} | {m.precision:.3f} | {m.recall:.3f} | {m.f1:.3f} | "
        f"{m.balanced_accuracy:.3f} | {m.kappa:.3f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--sets", default="reported,dev,edits")
    parser.add_argument("--judge", default="rules@3", choices=JUDGES)
    args = parser.parse_args(argv)
    if not (args.shared / "critic").is_dir():
        print(
            f"{args.shared / 'critic'}: no such directory (see ../shared/datasets/README.md)",
            file=sys.stderr,
        )
        return 2
    groups = set(args.sets.split(","))
    judge = build_judge(args.judge)
    print(f"judge: {judge.component_id}\n")
    print("| set | n | precision | recall | F1 | balanced acc. | kappa |")
    print("|---|---|---|---|---|---|---|")
    if "reported" in groups:
        for name in REPORTED:
            rows = _rows(args.shared / "critic" / f"{name}.jsonl")
            print(_line(name, confusion(_judge(rows, judge))), flush=True)
    pools = {pool: _dev_pool(args.shared, pool, reported) for pool, reported in DEV}
    if "dev" in groups:
        for pool, rows in pools.items():
            print(_line(f"{pool} minus 200 (dev)", confusion(_judge(rows, judge))), flush=True)
    if "edits" in groups:
        rng = random.Random(7)
        outcomes: list[Outcome] = []
        caught: dict[str, list[bool]] = {}
        for rows in pools.values():
            for row in rows:
                if row["label"] != "supported":
                    continue
                original = judge.judge(row["source"], row["claim"]).label
                outcomes.append(("supported", original))
                caught.setdefault("unedited (flagged)", []).append(original == "unsupported")
                for kind, claim in edited_copies(row["claim"], row["source"], rng):
                    label = judge.judge(row["source"], claim).label
                    outcomes.append(("unsupported", label))
                    caught.setdefault(kind, []).append(label == "unsupported")
        print(_line("edited dev claims (synthetic)", confusion(outcomes)))
        print("\n| edit kind | n | share judged unsupported |\n|---|---|---|")
        for kind, hits in caught.items():
            print(f"| {kind} | {len(hits)} | {sum(hits) / len(hits):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
