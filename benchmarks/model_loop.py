"""The model-backed loop on the example golden set: answer rate and wrong-answer rate.

    python benchmarks/model_loop.py                      # the careful scripted models (offline)
    python benchmarks/model_loop.py --policy FILE        # the models FILE names (e.g. servers)

Runs every item of the packaged example golden set (its own question, no paraphrases) through
the product arm (grounded_followup) with model-backed components, and prints one Markdown table:
answered / correct / wrong / abstained / correct abstentions, the answer rate (answered runs of
answerable items), the wrong-answer rate (runs answered wrongly, over all runs, as the ablation
grades them against expected answers), answers that cite every required source, claims the
ablation's judge finds unsupported or citing a stale or forbidden version, model calls, tokens
and seconds per run. Without ``--policy`` the generator and the critic are
:func:`evidencegate.testing.careful_model` (two scripted models that behave like careful small
models under model contract v2), given through the Python API; with it, the policy's models
(``tests/e2e/local-llm.yaml`` names two local llama.cpp servers, which must be running). The
store is built in a temporary directory; nothing is written here.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from evidencegate.contracts import Arm
from evidencegate.corpus import Store
from evidencegate.data import data_files
from evidencegate.evals.ablation import run_ablation
from evidencegate.evals.golden import load_golden
from evidencegate.evals.metrics import AnswerClass, ItemResult
from evidencegate.policy import load_policy
from evidencegate.testing import careful_model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", type=Path, help="a policy naming the generator and critic")
    parser.add_argument("--limit", type=int, default=0, help="run only the first N items")
    args = parser.parse_args(argv)
    example = data_files() / "example"
    items = load_golden(Path(str(example / "golden.jsonl")))
    if args.limit:
        items = items[: args.limit]
    if args.policy is not None:
        policy = load_policy(args.policy)
        generator = critic = None
        label = f"{policy.generator} / {policy.critic} ({args.policy})"
    else:
        policy = load_policy({"name": "careful-scripted", "max_cost_usd": 0})
        generator = careful_model(model="careful-generator")
        critic = careful_model(model="careful-critic")
        label = "scripted:careful-generator / scripted:careful-critic"
    corpus = sorted(Path(str(p)) for p in (example / "corpus").iterdir() if p.name.endswith(".md"))
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "store") as store:
        store.ingest(corpus)
        started = time.perf_counter()
        results = run_ablation(
            items,
            store,
            policy=policy,
            arms=[Arm.GROUNDED_FOLLOWUP],
            generator=generator,
            critic=critic,
            paraphrases=False,
        )[Arm.GROUNDED_FOLLOWUP]
        seconds = time.perf_counter() - started
    print(table(label, results, seconds))
    return 0


def table(label: str, results: list[ItemResult], seconds: float) -> str:
    runs = len(results)
    answerable = [r for r in results if r.answerable]
    count = {c: sum(r.is_class(c) for r in results) for c in AnswerClass}
    answered = sum(
        r.is_class(AnswerClass.CORRECT)
        or r.is_class(AnswerClass.WRONG)
        or r.is_class(AnswerClass.UNSCORED)
        for r in answerable
    )
    unscored = count[AnswerClass.UNSCORED]
    full = sum(
        bool(r.required)
        and all(q.matched for q in r.required)
        and not r.is_class(AnswerClass.ABSTAINED)
        for r in answerable
    )
    claims = [c for r in results for c in r.claims]
    bad_claims = sum(not c.supported or bool(c.failures) for c in claims)
    calls = sum(r.model_calls for r in results)
    tokens = sum(r.input_tokens + r.output_tokens for r in results)
    rows = [
        ("models (generator / critic)", label),
        (
            "runs (answerable + unanswerable)",
            f"{runs} ({len(answerable)} + {runs - len(answerable)})",
        ),
        ("answered (answerable runs)", f"{answered}/{len(answerable)}"),
        ("correct", f"{count[AnswerClass.CORRECT]}/{len(answerable)}"),
        ("answered, no expected answer to grade", f"{unscored}/{len(answerable)}"),
        ("answered citing every required source", f"{full}/{len(answerable)}"),
        ("claims unsupported / stale / forbidden", f"{bad_claims}/{len(claims)}"),
        ("wrong (any run)", f"{count[AnswerClass.WRONG]}/{runs}"),
        ("abstained (answerable runs)", f"{count[AnswerClass.ABSTAINED]}/{len(answerable)}"),
        (
            "correct abstentions",
            f"{count[AnswerClass.CORRECT_ABSTENTION]}/{runs - len(answerable)}",
        ),
        ("failed", f"{count[AnswerClass.FAILED]}/{runs}"),
        ("answer rate", _rate(answered, len(answerable))),
        ("wrong-answer rate", _rate(count[AnswerClass.WRONG], runs)),
        ("model calls / run", f"{calls / runs:.1f}" if runs else "n/a"),
        ("tokens / run", f"{tokens / runs:.0f}" if runs else "n/a"),
        ("seconds / run", f"{seconds / runs:.2f}" if runs else "n/a"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'measure'.ljust(width)} | value |", f"|{'-' * (width + 2)}|-------|"]
    lines += [f"| {name.ljust(width)} | {value} |" for name, value in rows]
    return "\n".join(lines)


def _rate(k: int, n: int) -> str:
    return f"{k / n:.2f} ({k}/{n})" if n else "n/a"


if __name__ == "__main__":
    sys.exit(main())
