"""Train the learned offline support judge (``support:rules@3``) on the development pools only.

    python benchmarks/train_critic.py [--shared DIR] [--out FILE] [--check] [--folds K] [--lodo]

Training data (never the reported ``*_200`` sets):

* the development pools of ``benchmarks/critic.py``: each ``*_all`` critic file minus the ids of
  its ``*_200`` set (FaithBench's ``ambiguous`` items left out);
* edited copies of those pools' *supported* claims (``benchmarks/critic.edited_copies``, seed
  ``TRAIN_SEED`` = 11), labelled unsupported. ``benchmarks/critic.py`` checks edit catching with
  seed 7, so its edited claims are other copies than the ones trained on.

Weights: every pool counts as much as every other, its two classes equally (1 in all), each
pool's edited copies half as much. The model is an L2-regularised logistic regression on the
standardised, clipped features of :mod:`evidencegate.judges.support_model` and their products
with two context features (log source sentences, log claim words), fitted by Newton's method
(deterministic, no random start). The L2 strength (one of ``LAMBDAS``) and the threshold are
chosen once, globally, by the mean balanced accuracy over four development groups: the three
pools and the edit check of ``benchmarks/critic.py`` (supported pool claims and their seed-7
edited copies), with the edit detector's figures, dates, names and negations decisive as in the
judge. The output is the package data file the judge reads; the same inputs give the same bytes.

``--check`` recomputes the model and exits 1 when it differs from the shipped file: any field,
the threshold, or a weight by more than ``WEIGHT_TOLERANCE`` (numpy/BLAS builds differ in the
last digits).

``--folds K`` estimates how the training procedure generalises, on the development pools alone:
each pool item goes to one of K folds by a hash of its id (its edited copies with it); for each
fold the whole procedure above (fit, L2 strength and threshold) runs on the other folds and the
model judges the held fold; the table gives each pool's balanced accuracy over its held-out
predictions and the edit check's (n, precision / recall / F1 on ``unsupported``, balanced
accuracy, kappa). It writes nothing. Use it to compare designs; the ``*_200`` sets are never a
yardstick for a choice.

``--lodo`` estimates transfer to a dataset the model has never seen (the held-out sets the
critic is checked on may be other datasets): for each pool, the whole procedure runs on the
other two pools, their edited copies and their part of the edit check, and the model judges the
held pool and the edit check of its claims. It writes nothing.

Exit codes: 0 done; 1 ``--check`` found a difference; 2 the shared datasets are missing or
``--folds`` is not 0 or at least 2.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import zlib
from pathlib import Path

import numpy as np
from critic import DEV, _dev_pool, edited_copies

from evidencegate.evals.meta import Outcome, confusion
from evidencegate.judges.support_model import (
    FEATURES,
    MODEL_FILE,
    SupportModel,
    features_of,
    measure_claim,
)

COMPONENT_ID = "support:rules@3"
CONTEXT = ("log_source_sentences", "log_claim_words")
TRAIN_SEED = 11
CHECK_SEED = 7
LAMBDAS = (0.03, 0.1, 0.3)
THRESHOLDS = tuple(round(0.2 + 0.01 * i, 2) for i in range(61))
OUT = Path(__file__).resolve().parents[1] / "evidencegate" / "data" / "critic" / MODEL_FILE


class _Group:
    """Feature rows of one group: x (None: nothing checkable), supported?, decisive edit?,
    and the id of the pool item each row comes from (an edited copy: its original's)."""

    def __init__(self) -> None:
        self.x: list[list[float] | None] = []
        self.y: list[int] = []
        self.hard: list[bool] = []
        self.ids: list[str] = []

    def add(self, source: str, claim: str, supported: bool, item: str = "") -> None:
        _, measures, prepared = measure_claim(source, claim)
        self.x.append(features_of(claim, measures, prepared) if measures else None)
        self.y.append(int(supported))
        self.hard.append(any(m.decisive for m in measures))
        self.ids.append(item)

    def subset(self, keep: list[bool]) -> _Group:
        """The rows where ``keep`` is true, in order."""
        out = _Group()
        for i, kept in enumerate(keep):
            if kept:
                out.x.append(self.x[i])
                out.y.append(self.y[i])
                out.hard.append(self.hard[i])
                out.ids.append(self.ids[i])
        return out

    def scores(self, model: SupportModel) -> list[float]:
        """The judge's score per row: nothing checkable 1, a decisive edit 0, else the model's."""
        return [
            1.0 if x is None else 0.0 if hard else model.probability(x)
            for x, hard in zip(self.x, self.hard, strict=True)
        ]


def collect(shared: Path) -> tuple[dict[str, _Group], dict[str, _Group], _Group]:
    """(pools, seed-11 edited copies per pool, seed-7 edit check group)."""
    pools: dict[str, _Group] = {}
    edits: dict[str, _Group] = {}
    check = _Group()
    train_rng, check_rng = random.Random(TRAIN_SEED), random.Random(CHECK_SEED)
    for pool, reported in DEV:
        rows = _dev_pool(shared, pool, reported)
        pools[pool], edits[pool] = _Group(), _Group()
        for row in rows:
            if row["label"] not in ("supported", "unsupported"):
                continue
            supported, item = row["label"] == "supported", row["id"]
            pools[pool].add(row["source"], row["claim"], supported, item)
            if not supported:
                continue
            for _, claim in edited_copies(row["claim"], row["source"], train_rng):
                edits[pool].add(row["source"], claim, False, item)
            check.add(row["source"], row["claim"], True, item)
            for _, claim in edited_copies(row["claim"], row["source"], check_rng):
                check.add(row["source"], claim, False, item)
        print(f"{pool}: {len(pools[pool].y)} claims, {len(edits[pool].y)} edited", flush=True)
    return pools, edits, check


def _matrix(group: _Group) -> tuple[np.ndarray, np.ndarray]:
    rows = [x for x in group.x if x is not None]
    y = [y for x, y in zip(group.x, group.y, strict=True) if x is not None]
    return np.array(rows, dtype=float), np.array(y, dtype=float)


def _expand(x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    x = np.clip(x, lower, upper)
    plain = x[:, : len(FEATURES) - 5]
    parts = [x] + [plain * x[:, [FEATURES.index(c)]] for c in CONTEXT]
    return np.hstack(parts)


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float) -> np.ndarray:
    """Weighted L2 logistic regression by Newton's method (last coefficient: the bias)."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    penalty = np.diag(np.r_[np.full(d, lam), 0.0])
    beta = np.zeros(d + 1)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ beta, -50, 50)))
        grad = xb.T @ (w * (p - y)) + penalty @ beta
        hess = (xb * (w * p * (1 - p))[:, None]).T @ xb + penalty
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return beta


def _balanced_accuracy(supported: list[int], predicted: list[int]) -> float:
    pos = [p for s, p in zip(supported, predicted, strict=True) if not s]
    neg = [p for s, p in zip(supported, predicted, strict=True) if s]
    # positive class: unsupported (predicted 0)
    return (sum(1 for p in pos if not p) / len(pos) + sum(neg) / len(neg)) / 2


def train(
    pools: dict[str, _Group], edits: dict[str, _Group], check: _Group
) -> tuple[SupportModel, dict[str, object]]:
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    ws: list[np.ndarray] = []
    for pool, group in pools.items():
        x, y = _matrix(group)
        w = np.where(y == 1, 0.5 / y.sum(), 0.5 / (1 - y).sum())
        xe, ye = _matrix(edits[pool])
        xs += [x, xe]
        ys += [y, ye]
        ws += [w, np.full(len(ye), 0.5 / len(ye))]
    x_all, y_all = np.vstack(xs), np.concatenate(ys)
    w_all = np.concatenate(ws) * len(ys)
    lower, upper = x_all.min(axis=0), x_all.max(axis=0)
    expanded = _expand(x_all, lower, upper)
    mean, scale = expanded.mean(axis=0), expanded.std(axis=0)
    scale[scale < 1e-12] = 1.0
    groups = [*pools.values(), check]
    best: tuple[float, float, float, SupportModel] | None = None
    for lam in LAMBDAS:
        beta = fit((expanded - mean) / scale, y_all, w_all, lam)
        model = SupportModel(
            component_id=COMPONENT_ID,
            features=FEATURES,
            context=CONTEXT,
            lower=tuple(float(v) for v in lower),
            upper=tuple(float(v) for v in upper),
            mean=tuple(float(v) for v in mean),
            scale=tuple(float(v) for v in scale),
            weights=tuple(float(v) for v in beta[:-1]),
            bias=float(beta[-1]),
            threshold=0.5,
        )
        scores = [g.scores(model) for g in groups]
        for t in THRESHOLDS:
            value = float(
                np.mean(
                    [
                        _balanced_accuracy(g.y, [int(s >= t) for s in sc])
                        for g, sc in zip(groups, scores, strict=True)
                    ]
                )
            )
            if best is None or value > best[0] + 1e-12:
                best = (value, lam, t, model)
    assert best is not None
    value, lam, threshold, model = best
    chosen = SupportModel(**{**model.__dict__, "threshold": threshold})
    info: dict[str, object] = {
        "lambda": lam,
        "criterion_mean_balanced_accuracy": round(value, 4),
        "train_seed": TRAIN_SEED,
        "check_seed": CHECK_SEED,
        "rows": {pool: len(g.y) for pool, g in pools.items()}
        | {f"{pool} edited": len(g.y) for pool, g in edits.items()},
    }
    return chosen, info


def fold_of(item: str, folds: int) -> int:
    """The fold of a pool item: a hash of its id (the same in every process)."""
    return zlib.crc32(item.encode("utf-8")) % folds


def _labels(pairs: list[tuple[int, int]]) -> list[Outcome]:
    """(gold, predicted) labels of (supported?, predicted supported?) pairs."""
    name = ("unsupported", "supported")
    return [(name[y], name[p]) for y, p in pairs]


def held_out_outcomes(
    pools: dict[str, _Group], edits: dict[str, _Group], check: _Group, folds: int
) -> dict[str, list[Outcome]]:
    """(gold, predicted) labels of each pool and of the edit check over held-out folds
    (module docstring, ``--folds``): every prediction comes from a model that never saw its
    item."""
    if folds < 2:
        raise ValueError(f"--folds must be at least 2 (got {folds})")
    groups = {**pools, "edit check": check}
    held: dict[str, list[tuple[int, int]]] = {name: [] for name in groups}
    for k in range(folds):

        def split(g: _Group, inside: bool) -> _Group:
            return g.subset([(fold_of(i, folds) == k) == inside for i in g.ids])  # noqa: B023

        model, _ = train(
            {p: split(g, False) for p, g in pools.items()},
            {p: split(g, False) for p, g in edits.items()},
            split(check, False),
        )
        for name, group in groups.items():
            test = split(group, True)
            held[name] += [
                (y, int(s >= model.threshold))
                for y, s in zip(test.y, test.scores(model), strict=True)
            ]
    return {name: _labels(pairs) for name, pairs in held.items()}


def cross_validate(
    pools: dict[str, _Group], edits: dict[str, _Group], check: _Group, folds: int
) -> dict[str, float]:
    """Balanced accuracy of each pool and of the edit check over held-out folds."""
    return {
        name: confusion(outcomes).balanced_accuracy
        for name, outcomes in held_out_outcomes(pools, edits, check, folds).items()
    }


def cross_dataset(
    pools: dict[str, _Group], edits: dict[str, _Group], check: _Group
) -> dict[str, list[Outcome]]:
    """Leave one dataset out (module docstring, ``--lodo``): for each pool, the whole training
    procedure runs on the other pools (their edited copies and their part of the edit check)
    and the model judges the held pool, and the edit check of the held pool's claims."""
    if len(pools) < 2:
        raise ValueError(f"--lodo needs at least two pools (got {len(pools)})")
    out: dict[str, list[Outcome]] = {}
    for held in pools:
        own = set(pools[held].ids)
        mine = [i in own for i in check.ids]
        model, _ = train(
            {p: g for p, g in pools.items() if p != held},
            {p: g for p, g in edits.items() if p != held},
            check.subset([not m for m in mine]),
        )
        for name, group in ((held, pools[held]), (f"{held} edit check", check.subset(mine))):
            out[name] = _labels(
                [
                    (y, int(s >= model.threshold))
                    for y, s in zip(group.y, group.scores(model), strict=True)
                ]
            )
    return out


def _table(title: str, outcomes: dict[str, list[Outcome]]) -> str:
    lines = [
        f"| {title} | n | precision | recall | F1 | balanced acc. | kappa |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, pairs in outcomes.items():
        m = confusion(pairs)
        lines.append(
            f"| {name} | {m.n} | {m.precision:.3f} | {m.recall:.3f} | {m.f1:.3f} | "
            f"{m.balanced_accuracy:.3f} | {m.kappa:.3f} |"
        )
    return "\n".join(lines)


WEIGHT_TOLERANCE = 1e-3
"""How far a retrained number may sit from the shipped one and still be the same model: the
Newton solve's last digits differ between numpy/BLAS builds (about 5e-4 on the shipped weights),
while the threshold, the features and every other field must be equal."""


def differences(shipped: object, trained: object, where: str = "") -> list[str]:
    """Where two model files differ beyond floating-point noise (empty: the same model).
    Floats compare within ``WEIGHT_TOLERANCE``, except the decision ``threshold``; anything
    else exactly."""
    if isinstance(shipped, dict) and isinstance(trained, dict):
        if shipped.keys() != trained.keys():
            return [f"{where or 'file'}: fields {sorted(shipped)} vs {sorted(trained)}"]
        return [d for k in shipped for d in differences(shipped[k], trained[k], f"{where}.{k}")]
    if isinstance(shipped, list) and isinstance(trained, list):
        if len(shipped) != len(trained):
            return [f"{where}: {len(shipped)} entries vs {len(trained)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(shipped, trained, strict=True))
            for d in differences(a, b, f"{where}[{i}]")
        ]
    if (
        isinstance(shipped, float)
        and isinstance(trained, float)
        and not where.endswith(".threshold")
        and math.isclose(shipped, trained, rel_tol=0.0, abs_tol=WEIGHT_TOLERANCE)
    ):
        return []
    return [] if shipped == trained else [f"{where}: {shipped!r} vs {trained!r}"]


def to_json(model: SupportModel, info: dict[str, object]) -> str:
    data = {
        "component_id": model.component_id,
        "about": "benchmarks/train_critic.py: logistic support model over "
        "evidencegate.judges.support_model.FEATURES, trained on the critic development pools",
        "training": info,
        "features": list(model.features),
        "context": list(model.context),
        "threshold": model.threshold,
        "bias": model.bias,
        "lower": list(model.lower),
        "upper": list(model.upper),
        "mean": list(model.mean),
        "scale": list(model.scale),
        "weights": list(model.weights),
    }
    return json.dumps(data, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare with --out, write nothing")
    parser.add_argument(
        "--folds", type=int, default=0, help="K >= 2: K-fold estimate on the pools, write nothing"
    )
    parser.add_argument(
        "--lodo",
        action="store_true",
        help="leave-one-dataset-out estimate (train on the other pools), write nothing",
    )
    args = parser.parse_args(argv)
    if args.folds == 1 or args.folds < 0:
        print(f"--folds must be 0 (off) or at least 2 (got {args.folds})", file=sys.stderr)
        return 2
    if not (args.shared / "critic").is_dir():
        print(
            f"{args.shared / 'critic'}: no such directory (see ../shared/datasets/README.md)",
            file=sys.stderr,
        )
        return 2
    collected = collect(args.shared)
    if args.folds or args.lodo:
        if args.folds:
            outcomes = held_out_outcomes(*collected, args.folds)
            print("\n" + _table(f"held-out group ({args.folds} folds)", outcomes), flush=True)
        if args.lodo:
            outcomes = cross_dataset(*collected)
            print("\n" + _table("held-out dataset (trained on the others)", outcomes))
        return 0
    model, info = train(*collected)
    text = to_json(model, info)
    print(json.dumps(info) + f"\nthreshold {model.threshold}")
    if args.check:
        if not args.out.is_file():
            print(f"differs from {args.out}: no such file")
            return 1
        found = differences(json.loads(args.out.read_text(encoding="utf-8")), json.loads(text))
        if found:
            print(f"differs from {args.out}: " + "; ".join(found[:5]))
            return 1
        print(f"same model as {args.out} (weights within {WEIGHT_TOLERANCE:g})")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
