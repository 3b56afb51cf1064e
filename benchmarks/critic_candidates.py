"""Candidate features for the offline support judge, measured before any is shipped.

    python benchmarks/critic_candidates.py [--shared DIR] [--folds K] [--designs a,b]

Each *design* adds candidate measures to the features of ``support:rules@3`` (or changes one
choice of its training) and runs the training procedure of ``benchmarks/train_critic.py`` —
the same rows (development pools, seed-11 edited copies, seed-7 edit check), weights, L2
strengths and threshold criterion — twice: K-fold over the pools (``--folds``, by the same hash
of the item id) and leave one dataset out (fit on two pools, judge the third). It prints the
held-out balanced accuracy per pool (and of the edit check for the folds). It writes nothing
and never reads the reported ``*_200`` sets: a design is chosen on these estimates or not at
all.

The candidates, per claim sentence (each aggregated over the claim's sentences as ``min_`` and
``mean_`` for shares, ``max_`` and ``sum_`` for counts):

* ``c1``, ``c2``, ``c_missing`` — the sentence split into clauses (at commas, semicolons,
  brackets and conjunctions), each clause's rarity-weighted coverage by its own best source
  sentence and best pair of sentences (the weakest clause's), and the largest share of a
  clause's terms the source lacks: a claim gathering several facts is as strong as its
  weakest fact;
* ``lcs1``, ``lcs3`` — the longest common subsequence of its content terms with its best
  source sentence and best window of three, over its terms (word order);
* ``position`` — where its best source sentence sits in the source (0 first, 1 last), and
  ``backward``, the share of consecutive sentences aligned further up the source;
* ``names_near`` — the share of pairs of its name parts that the source has within two
  adjacent sentences (a name swapped for another name of the source);
* ``unaligned`` — the share of its terms the source has, but not in its best window;
* ``clauses``, ``modal`` (a hedge or modal word — may, reportedly, plans — its best window
  lacks), ``antonyms`` (a word whose antonym its best window has, and not the word), and
  ``novel_run`` (the longest run of consecutive terms the source lacks).

Design ``refined`` keeps the features of ``rules@3`` but drops three kinds of decisive edits that
are no edits (a name written with or without accents, an initialism of the source's
capitalised words such as "UK" for "United Kingdom", the number of a list item "1."); design
``soft`` makes no edit decisive (the model weighs their counts); ``strong`` fits with L2
strengths 0.3–10 instead of 0.03–0.3.

Exit codes: 0 done; 2 the shared datasets are missing or ``--folds`` is below 2.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import sys
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import train_critic
from critic import DEV, _dev_pool, edited_copies

from evidencegate.judges.support import SOURCE_WORDS, _best_window
from evidencegate.judges.support_model import FEATURES, PreparedSource, features_of, measure_claim
from evidencegate.text import normalized_words, porter_stem
from evidencegate.verify.edits import Edit, content_terms, name_parts

_CLAUSE_BREAK = re.compile(
    r"\s*[;:()\u2013\u2014]\s*|,\s+|\s+(?:and|but|while|whereas|although|though|which|who|whom|"
    r"whose|where|including|after|before|because|since|when|as well as)\s+",
    re.IGNORECASE,
)
_MODAL_TEXT = (
    "may might could would should will shall can must likely unlikely possibly possible "
    "probably perhaps reportedly allegedly apparently expected expect expects plan plans "
    "planned planning intend intends intended aim aims hope hopes hoped believe believes "
    "believed suggest suggests suggested claim claimed rumored rumoured potential potentially "
    "considering consider proposed propose"
)
#: Words that hedge or mark a claim as planned, reported or possible rather than done.
MODAL_WORDS = frozenset(_MODAL_TEXT.split())
_ANTONYM_PAIRS = (
    "increase decrease|rise fall|rose fell|gain loss|win lose|won lost|before after|more less|"
    "more fewer|higher lower|high low|first last|largest smallest|biggest smallest|large small|"
    "big small|approve reject|approved rejected|accept refuse|support oppose|supported opposed|"
    "arrested released|older younger|old young|north south|east west|buy sell|bought sold|"
    "male female|man woman|men women|husband wife|son daughter|brother sister|father mother|"
    "early late|earlier later|best worst|better worse|open close|opened closed|start end|"
    "begin end|enter leave|join leave|hire fire|allow ban|allow forbid|legal illegal|"
    "guilty innocent|alive dead|live die|victory defeat|success failure|succeed fail|"
    "include exclude|maximum minimum|above below|inside outside|import export|add remove|"
    "strong weak|positive negative|public private|full empty|long short|domestic foreign|"
    "majority minority"
)
ANTONYMS: dict[str, set[str]] = {}
for _pair in _ANTONYM_PAIRS.split("|"):
    _a, _b = (porter_stem(w) for w in _pair.split())
    ANTONYMS.setdefault(_a, set()).add(_b)
    ANTONYMS.setdefault(_b, set()).add(_a)

SHARES = ("c1", "c2", "c_missing", "lcs1", "lcs3", "position", "names_near", "unaligned")
COUNTS = ("clauses", "modal", "antonyms", "novel_run")
ALL = (
    *(f"{agg}_{n}" for n in SHARES for agg in ("min", "mean")),
    *(f"{agg}_{n}" for n in COUNTS for agg in ("max", "sum")),
    "backward",
)
DESIGNS: dict[str, tuple[str, ...]] = {
    "rules@3": (),
    "all": ALL,
    "clauses": ("min_c1", "mean_c1", "min_c2", "mean_c2", "mean_c_missing"),
    "order": ("min_lcs1", "mean_lcs1", "min_lcs3", "mean_lcs3"),
    "position": ("min_position", "mean_position", "backward"),
    "counts": tuple(f"{agg}_{n}" for n in COUNTS for agg in ("max", "sum")),
    "names": ("min_names_near", "mean_names_near", "min_unaligned", "mean_unaligned"),
    "four": ("max_novel_run", "min_names_near", "mean_lcs3", "min_c1"),
    "refined": (),
    "soft": (),
    "strong": (),
    "strong+all": ALL,
}


def clauses(sentence: str, *, min_terms: int = 2) -> list[list[str]]:
    """The content terms of each clause; a piece of fewer than ``min_terms`` terms joins its
    neighbour."""
    out: list[list[str]] = []
    pending: list[str] = []
    for piece in _CLAUSE_BREAK.split(sentence):
        found = [t for t in content_terms(piece) if t not in SOURCE_WORDS]
        if not found:
            continue
        if len(found) < min_terms:
            if out:
                out[-1] += found
            else:
                pending += found
            continue
        out.append(pending + found)
        pending = []
    if pending:
        if out:
            out[-1] += pending
        else:
            out.append(pending)
    return out


def _lcs(a: Sequence[str], b: Sequence[str]) -> int:
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def candidate_measures(
    sentence: str, source: PreparedSource
) -> tuple[dict[str, float], dict[str, int]]:
    """The candidate measures of one claim sentence (module docstring)."""
    prepared = source.text
    ordered = [t for t in content_terms(sentence) if t not in SOURCE_WORDS]
    wanted = set(ordered)
    n = len(prepared.sentence_terms)
    c1, c2, c_missing = [], [], []
    for clause in clauses(sentence):
        found = set(clause)
        c1.append(_best_window(found, prepared, 1)[0])
        c2.append(_best_window(found, prepared, 2)[0])
        c_missing.append(sum(1 for t in found if not prepared.has_term(t)) / len(found))
    a1, start1 = _best_window(wanted, prepared, 1)
    _, start3 = _best_window(wanted, prepared, 3)
    window_seq = [t for seq in prepared.sequences[start3 : start3 + 3] for t in seq]
    window_terms = set(window_seq)
    window_words = set(normalized_words(prepared.window(start3, 3)))
    words = normalized_words(sentence)
    stems = {porter_stem(w) for w in words}
    antonyms = sum(
        1
        for s in stems
        if s not in window_terms
        and any(o in window_terms and o not in stems for o in ANTONYMS.get(s, ()))
    )
    run = longest = 0
    for t in ordered:
        run = 0 if prepared.has_term(t) else run + 1
        longest = max(longest, run)
    names = sorted({porter_stem(p) for p in name_parts(sentence)})
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    near = 0
    for a, b in pairs:
        sa = {s for s, _ in prepared.positions.get(a, ())}
        sb = {s for s, _ in prepared.positions.get(b, ())}
        near += any(abs(x - y) <= 1 for x in sa for y in sb)
    unaligned = sum(1 for t in wanted if t not in window_terms and prepared.has_term(t))
    return (
        {
            "c1": min(c1, default=a1),
            "c2": min(c2, default=a1),
            "c_missing": max(c_missing, default=0.0),
            "lcs1": _lcs(ordered, prepared.sequences[start1]) / len(ordered),
            "lcs3": _lcs(ordered, window_seq) / len(ordered),
            "position": start1 / (n - 1) if n > 1 else 0.0,
            "names_near": near / len(pairs) if pairs else 1.0,
            "unaligned": unaligned / len(wanted),
        },
        {
            "clauses": len(c1),
            "modal": sum(1 for w in set(words) if w in MODAL_WORDS and w not in window_words),
            "antonyms": antonyms,
            "novel_run": longest,
        },
    )


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


_ITEM_NUMBER = re.compile(r"^\s*(\d{1,3})[.)]\s")
_GLUE = frozenset({"of", "and", "the", "for", "de", "&"})
_TOKEN = re.compile(r"[^\W\d_][\w'&.-]*|&")


def initialisms(text: str) -> set[str]:
    """ "uk" for "United Kingdom", "us" for "U.S.": the initialisms a source's capitalised words
    spell."""
    found: set[str] = set()
    for line in text.splitlines():
        run: list[str] = []
        for token in [*_TOKEN.findall(line), ""]:
            dotted = token.replace(".", "")
            if "." in token and dotted.isalpha() and dotted.isupper() and len(dotted) >= 2:
                found.add(dotted.lower())
            if token[:1].isupper():
                run.append(token[0].lower())
                continue
            if token.lower() in _GLUE and run:
                continue
            for i in range(len(run)):
                for j in range(i + 2, min(len(run), i + 6) + 1):
                    found.add("".join(run[i:j]))
            run = []
    return found


def refined(sentence: str, edits: Sequence[Edit], folded: set[str], spelled: set[str]) -> bool:
    """Does a decisive edit remain once accents, initialisms and list numbers are allowed?"""
    item = _ITEM_NUMBER.match(sentence)
    for edit in edits:
        if edit.kind == "name" and (_fold(edit.text) in folded or edit.text in spelled):
            continue
        if edit.kind == "number" and item is not None and edit.text == item.group(1):
            continue
        return True
    return False


@dataclass
class Row:
    pool: str
    group: str  # pool, edit or check
    item: str
    supported: int
    x3: list[float] | None
    hard: bool
    hard_refined: bool
    candidates: dict[str, float] = field(default_factory=dict)


def _row(source: str, claim: str, supported: bool, item: str, group: str, pool: str) -> Row:
    judged, measures, prepared = measure_claim(source, claim)
    if not measures:
        return Row(pool, group, item, int(supported), None, False, False)
    folded = {_fold(w) for w in normalized_words(prepared.text.text)}
    spelled = initialisms(prepared.text.text)
    measured = [candidate_measures(s, prepared) for s in judged]
    out: dict[str, float] = {}
    for name in SHARES:
        values = [m[0][name] for m in measured]
        out[f"min_{name}"], out[f"mean_{name}"] = min(values), sum(values) / len(values)
    for name in COUNTS:
        counts = [m[1][name] for m in measured]
        out[f"max_{name}"] = float(min(max(counts), 3))
        out[f"sum_{name}"] = float(min(sum(counts), 5))
    pos = [m[0]["position"] for m in measured]
    back = sum(1 for a, b in itertools.pairwise(pos) if b < a)
    out["backward"] = back / (len(pos) - 1) if len(pos) > 1 else 0.0
    return Row(
        pool,
        group,
        item,
        int(supported),
        features_of(claim, measures, prepared),
        any(m.decisive for m in measures),
        any(
            refined(s, m.base.edits, folded, spelled) for s, m in zip(judged, measures, strict=True)
        ),
        out,
    )


def collect(shared: Path) -> list[Row]:
    """The rows of ``train_critic.collect``, with the candidate measures."""
    rows: list[Row] = []
    train_rng = random.Random(train_critic.TRAIN_SEED)
    check_rng = random.Random(train_critic.CHECK_SEED)
    for pool, reported in DEV:
        for item in _dev_pool(shared, pool, reported):
            if item["label"] not in ("supported", "unsupported"):
                continue
            source, claim, supported = item["source"], item["claim"], item["label"] == "supported"
            rows.append(_row(source, claim, supported, item["id"], "pool", pool))
            if not supported:
                continue
            for _, edited in edited_copies(claim, source, train_rng):
                rows.append(_row(source, edited, False, item["id"], "edit", pool))
            rows.append(_row(source, claim, True, item["id"], "check", pool))
            for _, edited in edited_copies(claim, source, check_rng):
                rows.append(_row(source, edited, False, item["id"], "check", pool))
        print(f"{pool}: measured", flush=True)
    return rows


_CONTEXT = (FEATURES.index("log_source_sentences"), FEATURES.index("log_claim_words"))
_PLAIN = len(FEATURES) - 5


class Design:
    """One design's feature vectors and its training (``train_critic.train``, generalised)."""

    def __init__(self, name: str, rows: list[Row]) -> None:
        self.rows = rows
        extra = DESIGNS[name]
        self.x = [
            None
            if r.x3 is None
            else r.x3[:_PLAIN] + [r.candidates[e] for e in extra] + r.x3[_PLAIN:]
            for r in rows
        ]
        self.plain = _PLAIN + len(extra)
        self.context = tuple(c + len(extra) for c in _CONTEXT)
        self.decisive = [
            False if name == "soft" else r.hard_refined if name == "refined" else r.hard
            for r in rows
        ]
        self.lambdas = (0.3, 1.0, 3.0, 10.0) if name.startswith("strong") else train_critic.LAMBDAS

    def _expand(self, x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
        x = np.clip(x, lower, upper)
        plain = x[:, : self.plain]
        return np.hstack([x] + [plain * x[:, [c]] for c in self.context])

    def train(self, pools: dict[str, list[int]], edits: dict[str, list[int]], check: list[int]):
        """(threshold, scorer) chosen as ``train_critic.train`` chooses them."""
        xs, ys, ws = [], [], []
        for pool, ids in pools.items():
            x, y = self._matrix(ids)
            xe, ye = self._matrix(edits[pool])
            xs += [x, xe]
            ys += [y, ye]
            ws += [
                np.where(y == 1, 0.5 / y.sum(), 0.5 / (1 - y).sum()),
                np.full(len(ye), 0.5 / len(ye)),
            ]
        x_all, y_all = np.vstack(xs), np.concatenate(ys)
        w_all = np.concatenate(ws) * len(ys)
        lower, upper = x_all.min(axis=0), x_all.max(axis=0)
        expanded = self._expand(x_all, lower, upper)
        mean, scale = expanded.mean(axis=0), expanded.std(axis=0)
        scale[scale < 1e-12] = 1.0
        groups = [*pools.values(), check]
        best = None
        for lam in self.lambdas:
            beta = train_critic.fit((expanded - mean) / scale, y_all, w_all, lam)

            def score(ids: list[int], beta: np.ndarray = beta) -> np.ndarray:
                out = np.ones(len(ids))
                live = [k for k, i in enumerate(ids) if self.x[i] is not None]
                if live:
                    x = np.array([self.x[ids[k]] for k in live], dtype=float)
                    z = ((self._expand(x, lower, upper) - mean) / scale) @ beta[:-1] + beta[-1]
                    out[live] = 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))
                for k, i in enumerate(ids):
                    if self.x[i] is not None and self.decisive[i]:
                        out[k] = 0.0
                return out

            scores = [score(g) for g in groups]
            for t in train_critic.THRESHOLDS:
                value = float(
                    np.mean([self.accuracy(g, s >= t) for g, s in zip(groups, scores, strict=True)])
                )
                if best is None or value > best[0] + 1e-12:
                    best = (value, t, score)
        assert best is not None
        return best[1], best[2]

    def _matrix(self, ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        live = [i for i in ids if self.x[i] is not None]
        return (
            np.array([self.x[i] for i in live], dtype=float),
            np.array([self.rows[i].supported for i in live], dtype=float),
        )

    def accuracy(self, ids: list[int], predicted: np.ndarray) -> float:
        return train_critic._balanced_accuracy(
            [self.rows[i].supported for i in ids], [int(p) for p in predicted]
        )


def _ids(rows: list[Row], group: str, keep) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {pool: [] for pool, _ in DEV}
    for i, r in enumerate(rows):
        if r.group == group and keep(r):
            out[r.pool].append(i)
    return out


def estimate(design: Design, rows: list[Row], folds: int) -> dict[str, float]:
    """Held-out balanced accuracy: K folds per pool and the edit check, then each pool left
    out."""
    held: dict[str, tuple[list[int], list[bool]]] = {}
    for k in range(folds):

        def inside(r: Row) -> bool:
            return zlib.crc32(r.item.encode("utf-8")) % folds == k  # noqa: B023

        train_check = [
            i for ids in _ids(rows, "check", lambda r: not inside(r)).values() for i in ids
        ]
        threshold, score = design.train(
            _ids(rows, "pool", lambda r: not inside(r)),
            _ids(rows, "edit", lambda r: not inside(r)),
            train_check,
        )
        tests = _ids(rows, "pool", inside)
        tests["edit check"] = [i for ids in _ids(rows, "check", inside).values() for i in ids]
        for name, ids in tests.items():
            got = held.setdefault(name, ([], []))
            got[0].extend(ids)
            got[1].extend(bool(s >= threshold) for s in score(ids))
    out = {f"folds {n}": design.accuracy(ids, np.array(p)) for n, (ids, p) in held.items()}
    for pool, _ in DEV:
        pools = {p: ids for p, ids in _ids(rows, "pool", lambda r: True).items() if p != pool}
        edits = _ids(rows, "edit", lambda r: True)
        check = [
            i for p, ids in _ids(rows, "check", lambda r: True).items() if p != pool for i in ids
        ]
        threshold, score = design.train(pools, edits, check)
        ids = _ids(rows, "pool", lambda r: True)[pool]
        out[f"lodo {pool}"] = design.accuracy(ids, score(ids) >= threshold)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--designs", default=",".join(DESIGNS))
    args = parser.parse_args(argv)
    names = args.designs.split(",")
    if args.folds < 2 or not set(names) <= set(DESIGNS):
        print(f"--folds must be >= 2 and --designs among {', '.join(DESIGNS)}", file=sys.stderr)
        return 2
    if not (args.shared / "critic").is_dir():
        print(f"{args.shared / 'critic'}: no such directory", file=sys.stderr)
        return 2
    rows = collect(args.shared)
    header: list[str] | None = None
    for name in names:
        result = estimate(Design(name, rows), rows, args.folds)
        if header is None:
            header = list(result)
            print("\n| design | " + " | ".join(header) + " |")
            print("|---|" + "---|" * len(header))
        print(f"| {name} | " + " | ".join(f"{result[h]:.3f}" for h in header) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
