"""The learned offline support judge (``support:rules@3``): deterministic features, one
logistic combination, the edit detector kept decisive.

:class:`~evidencegate.judges.support.RulesSupportJudge` (``support:rules@2``) decides on one
coverage score against one global threshold, and no such threshold serves every kind of text:
near-extractive summaries (QAGS) lose about 0.1 of coverage when wrong, Wikipedia claims checked
against a web page (WiCE) about 0.5. :class:`LearnedSupportJudge` measures each claim with the
same machinery and more (:data:`FEATURES`) and lets a small logistic model, trained offline on the
development pools only (``benchmarks/train_critic.py``), weigh them, with two context features
(the length of the source and of the claim) each multiplied with every other feature, so that how
much coverage counts can depend on the kind of text — a generic mechanism, never a rule per
dataset or per question.

1. The claim is split and filtered as by ``support:rules@2``
   (:func:`~evidencegate.judges.support.content_sentences`); a claim with nothing checkable is
   supported.
2. Per checkable sentence (see :func:`sentence_measures`): the rarity-weighted coverage of its
   content terms by the best window of 1, 2 and 3 consecutive source sentences and by the best 2
   and 3 source sentences anywhere (greedy), and by the whole source; the share of adjacent term
   pairs found together in one source sentence; the share of its word bigrams and trigrams the
   source has; its terms with no counterpart in the source (share and count); its figures and
   dates, name parts, negations and swapped words with no counterpart
   (:func:`~evidencegate.verify.edits.find_edits`); how many terms, names and figures it has.
3. Per claim (:func:`claim_features`): the minimum and the mean of each share over its sentences,
   the maximum and the sum (capped) of each count, and the context: the number of source
   sentences and words, of checkable claim sentences, of claim words.
4. The features are clipped to the range seen in training, the two context features multiply
   every other, and the standardised vector goes through the shipped weights
   (``evidencegate/data/critic/support-rules-3.json``, read with :mod:`importlib.resources`):
   the score is the model's probability that the claim is supported.
5. A figure, date, name or negation with no counterpart (the edits ``support:rules@2`` makes
   decisive) still decides on its own: score 0, unsupported. Otherwise the claim is supported
   when the score reaches the model's threshold (chosen on the development pools).

The judge is deterministic (a fixed sum in a fixed order, rounded to 6 decimals). Its identity
``support:rules@3`` names the weights file: new weights are a new version.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from evidencegate.judgements import ClaimSupport, SupportVerdict
from evidencegate.judges.llm import validated
from evidencegate.judges.support import (
    SOURCE_WORDS,
    SentenceFeatures,
    SupportConfig,
    _best_window,
    _excerpt,
    clean_text,
    content_sentences,
    nothing_checkable,
    sentence_features,
)
from evidencegate.text import extract_quantities, normalized_words
from evidencegate.verify.agreement import claim_quantity_supported
from evidencegate.verify.edits import EvidenceText, content_terms, find_edits, name_parts

__all__ = [
    "FEATURES",
    "MODEL_FILE",
    "LearnedSupportJudge",
    "PreparedSource",
    "SentenceMeasures",
    "SupportModel",
    "claim_features",
    "features_of",
    "load_support_model",
    "measure_claim",
    "sentence_measures",
]

MODEL_FILE = "support-rules-3.json"

_SHARES = ("a1", "a2", "a3", "g2", "g3", "anywhere", "together", "missing", "bigrams", "trigrams")
_COUNTS = (
    "n_missing",
    "figures",
    "names",
    "negations",
    "words",
    "n_names",
    "n_figures",
    "names_outside",
    "figures_outside",
)
_CONTEXT = ("source_sentences", "claim_sentences", "source_words", "claim_words", "length_ratio")

#: The claim features, in the order of the model's weights (before the context products).
FEATURES: tuple[str, ...] = (
    *(f"{agg}_{name}" for name in _SHARES for agg in ("min", "mean")),
    *(f"{agg}_{name}" for name in _COUNTS for agg in ("max", "sum")),
    "log_terms",
    *(f"log_{name}" if name != "length_ratio" else name for name in _CONTEXT),
)


@dataclass(frozen=True)
class SentenceMeasures:
    """What the learned judge measures for one claim sentence (shares 0–1, counts)."""

    base: SentenceFeatures
    """the ``support:rules@2`` measures (window-2 coverage, pairs together, edits, missing)"""
    shares: dict[str, float]
    counts: dict[str, int]
    terms: int

    @property
    def decisive(self) -> bool:
        """A figure, date, name or negation with no counterpart: unsupported on its own."""
        return bool(self.base.edits)


def _ngrams(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@dataclass(frozen=True)
class PreparedSource:
    """A source prepared once for every sentence of a claim: its text and word n-grams."""

    text: EvidenceText
    bigrams: set[tuple[str, ...]]
    trigrams: set[tuple[str, ...]]
    words: int

    @classmethod
    def of(cls, source: str) -> PreparedSource:
        prepared = EvidenceText(clean_text(source))
        words = normalized_words(prepared.text)
        return cls(prepared, _ngrams(words, 2), _ngrams(words, 3), len(words))


def _weights(wanted: set[str], source: EvidenceText) -> dict[str, float]:
    """Each wanted term's rarity among the source's sentences (one it lacks: the rarest)."""
    idf = source.idf
    rarest = math.log(len(source.sentence_terms) + 1) + 1.0
    return {t: idf.get(t, rarest) for t in sorted(wanted)}


def _share(terms: set[str], weight: dict[str, float]) -> float:
    """The weighted share of ``terms``: exactly rounded sums (:func:`math.fsum`), so the value
    does not depend on set order (string hashing differs between processes)."""
    return math.fsum(weight[t] for t in terms) / math.fsum(weight.values())


def _greedy_cover(wanted: set[str], source: EvidenceText, picks: int) -> list[float]:
    """Rarity-weighted coverage of ``wanted`` by the best 1..``picks`` source sentences
    anywhere, each pick the sentence adding the most (ties: the first)."""
    weight = _weights(wanted, source)
    covered: set[str] = set()
    out: list[float] = []
    for _ in range(picks):
        best_gain, best = 0.0, frozenset[str]()
        for found in source.sentence_terms:
            gain = math.fsum(weight[t] for t in (found & wanted) - covered)
            if gain > best_gain:
                best_gain, best = gain, found
        covered |= best & wanted
        out.append(_share(covered, weight))
    return out


def sentence_measures(sentence: str, source: PreparedSource) -> SentenceMeasures:
    """Measure one checkable claim sentence against a prepared source (module docstring, 2)."""
    prepared = source.text
    base = sentence_features(sentence, prepared, window=2)
    wanted = set(content_terms(sentence)) - SOURCE_WORDS
    a1, _ = _best_window(wanted, prepared, 1)
    a3, start3 = _best_window(wanted, prepared, 3)
    window = EvidenceText(prepared.window(start3, 3))
    names = list(dict.fromkeys(name_parts(sentence)))
    figures = sorted(extract_quantities(sentence))
    _, g2, g3 = _greedy_cover(wanted, prepared, 3)
    anywhere = _share(wanted & prepared.terms, _weights(wanted, prepared))
    kinds = [
        e.kind
        for e in find_edits(sentence, prepared, negation_scope=base.evidence or "")
        if e.kind == "word"
    ]
    words = normalized_words(sentence)
    bigrams, trigrams = _ngrams(words, 2), _ngrams(words, 3)
    base_kinds = [e.kind for e in base.edits]
    return SentenceMeasures(
        base=base,
        shares={
            "a1": a1,
            "a2": base.aligned,
            "a3": a3,
            "g2": g2,
            "g3": g3,
            "anywhere": anywhere,
            "together": base.together,
            "missing": len(base.missing_terms) / len(wanted),
            "bigrams": len(bigrams & source.bigrams) / len(bigrams) if bigrams else 1.0,
            "trigrams": len(trigrams & source.trigrams) / len(trigrams) if trigrams else 1.0,
        },
        counts={
            "n_missing": len(base.missing_terms),
            "figures": base_kinds.count("number") + base_kinds.count("date"),
            "names": base_kinds.count("name"),
            "negations": base_kinds.count("negation"),
            "words": len(kinds),
            "n_names": len(names),
            "n_figures": len(figures),
            "names_outside": sum(1 for n in names if not window.has_name(n)),
            "figures_outside": sum(
                1
                for q in figures
                if not claim_quantity_supported(q, window.dates, window.quantities)
            ),
        },
        terms=len(wanted),
    )


def claim_features(
    measures: Sequence[SentenceMeasures], *, source_sentences: int, source_words: int, claim: str
) -> list[float]:
    """The claim's feature vector, in the order of :data:`FEATURES` (module docstring, 3)."""
    if not measures:
        raise ValueError("a claim with no checkable sentence has no features")
    out: list[float] = []
    for name in _SHARES:
        values = [m.shares[name] for m in measures]
        out += [min(values), sum(values) / len(values)]
    for name in _COUNTS:
        counts = [m.counts[name] for m in measures]
        out += [float(min(max(counts), 3)), float(min(sum(counts), 5))]
    claim_words = len(normalized_words(claim))
    out.append(math.log1p(sum(m.terms for m in measures)))
    out += [
        math.log1p(source_sentences),
        math.log1p(len(measures)),
        math.log1p(source_words),
        math.log1p(claim_words),
        math.log1p(claim_words) - math.log1p(source_words),
    ]
    return out


def measure_claim(
    source: str, claim: str, *, min_terms: int = 2
) -> tuple[list[str], list[SentenceMeasures], PreparedSource]:
    """The checkable sentences of ``claim``, their measures, and the prepared source.

    Raises ``ValueError`` when the source or the claim is empty."""
    if not source.strip():
        raise ValueError("source is empty: there is nothing to judge the claim against")
    if not claim.strip():
        raise ValueError("claim is empty: there is nothing to judge")
    sentences, _trivial = content_sentences(claim, min_terms=min_terms)
    judged = [s for s in sentences if set(content_terms(s)) - SOURCE_WORDS]
    prepared = PreparedSource.of(source)
    return judged, [sentence_measures(s, prepared) for s in judged], prepared


def features_of(
    claim: str, measures: Sequence[SentenceMeasures], prepared: PreparedSource
) -> list[float]:
    """:func:`claim_features` of measured sentences against a prepared source."""
    return claim_features(
        measures,
        source_sentences=len(prepared.text.sentences),
        source_words=prepared.words,
        claim=claim,
    )


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class SupportModel:
    """A logistic model over :data:`FEATURES` (see the module docstring, step 4)."""

    component_id: str
    features: tuple[str, ...]
    context: tuple[str, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def __post_init__(self) -> None:
        if self.features != FEATURES:
            raise ValueError(
                f"support model {self.component_id}: its features are not this version's "
                f"({len(self.features)} named, {len(FEATURES)} expected)"
            )
        if not set(self.context) <= set(FEATURES):
            raise ValueError(f"support model {self.component_id}: unknown context features")
        n, m = len(FEATURES), self.expanded_size
        sizes = {
            "lower": (len(self.lower), n),
            "upper": (len(self.upper), n),
            "mean": (len(self.mean), m),
            "scale": (len(self.scale), m),
            "weights": (len(self.weights), m),
        }
        for name, (got, want) in sizes.items():
            if got != want:
                raise ValueError(
                    f"support model {self.component_id}: {name} has {got} values, not {want}"
                )
        values = [*self.lower, *self.upper, *self.mean, *self.scale, *self.weights, self.bias]
        if not all(math.isfinite(v) for v in values) or any(s <= 0 for s in self.scale):
            raise ValueError(f"support model {self.component_id}: non-finite or zero values")
        if not 0.0 < self.threshold < 1.0:
            raise ValueError(f"support model {self.component_id}: threshold must be in (0, 1)")

    @property
    def expanded_size(self) -> int:
        return len(FEATURES) + len(self.context) * (len(FEATURES) - len(_CONTEXT))

    def expand(self, x: Sequence[float]) -> list[float]:
        """Clip to the training range, then append each context feature times every
        non-context feature."""
        clipped = [min(max(v, lo), hi) for v, lo, hi in zip(x, self.lower, self.upper, strict=True)]
        plain = clipped[: len(FEATURES) - len(_CONTEXT)]
        out = list(clipped)
        for name in self.context:
            c = clipped[FEATURES.index(name)]
            out += [v * c for v in plain]
        return out

    def probability(self, x: Sequence[float]) -> float:
        """The probability that the claim with features ``x`` is supported."""
        z = self.bias
        for v, mu, sd, w in zip(self.expand(x), self.mean, self.scale, self.weights, strict=True):
            z += w * (v - mu) / sd
        z = min(max(z, -50.0), 50.0)
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SupportModel:
        try:
            return cls(
                component_id=str(data["component_id"]),
                features=tuple(str(f) for f in data["features"]),
                context=tuple(str(f) for f in data["context"]),
                lower=tuple(float(v) for v in data["lower"]),
                upper=tuple(float(v) for v in data["upper"]),
                mean=tuple(float(v) for v in data["mean"]),
                scale=tuple(float(v) for v in data["scale"]),
                weights=tuple(float(v) for v in data["weights"]),
                bias=float(data["bias"]),
                threshold=float(data["threshold"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"support model: malformed weights file ({exc})") from exc


@cache
def load_support_model(name: str = MODEL_FILE) -> SupportModel:
    """The shipped model ``evidencegate/data/critic/NAME`` (read once)."""
    text = (files("evidencegate.data") / "critic" / name).read_text(encoding="utf-8")
    return SupportModel.from_json(json.loads(text))


# --------------------------------------------------------------------------- the judge


class LearnedSupportJudge:
    """Deterministic support judge: features, a shipped logistic model, decisive edits."""

    def __init__(self, model: SupportModel | None = None, *, min_terms: int = 2) -> None:
        self.model = model or load_support_model()
        self.min_terms = min_terms
        self._coverage = SupportConfig()

    @property
    def component_id(self) -> str:
        return self.model.component_id

    def judge(self, source: str, claim: str) -> SupportVerdict:
        judged, measures, prepared = measure_claim(source, claim, min_terms=self.min_terms)
        if not measures:
            return nothing_checkable(self.component_id)
        x = features_of(claim, measures, prepared)
        coverage = [m.base.support(self._coverage) for m in measures]
        weakest = min(range(len(coverage)), key=coverage.__getitem__)
        edited = next((i for i, m in enumerate(measures) if m.decisive), None)
        threshold = self.model.threshold
        if edited is not None:
            score = 0.0
            reason = f"sentence {_excerpt(judged[edited])}: " + "; ".join(
                measures[edited].base.issues()
            )
        else:
            score = round(self.model.probability(x), 6)
            issues = "; ".join(measures[weakest].base.issues()) or "low coverage by the source"
            reason = (
                f"support {score:.2f} >= {threshold:.2f}"
                if score >= threshold
                else f"support {score:.2f} < {threshold:.2f}; weakest sentence "
                f"{_excerpt(judged[weakest])}: {issues}"
            )
        label: Literal["supported", "unsupported"] = (
            "supported" if edited is None and score >= threshold else "unsupported"
        )
        verdict = SupportVerdict(
            label=label,
            score=score,
            reason=reason,
            sentences=[
                ClaimSupport(
                    text=text,
                    score=round(value, 6),
                    evidence=m.base.evidence,
                    issues=m.base.issues(),
                )
                for text, m, value in zip(judged, measures, coverage, strict=True)
            ],
        )
        return validated(verdict, judge=self.component_id)
