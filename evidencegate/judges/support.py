"""Support judges: is a claim supported by a source, judged from the source alone?

The critic benchmarks (``judge-bench``) pair a whole source with a claim and no quote, so the
quote-based rules critic cannot judge them. :class:`RulesSupportJudge` does, deterministically,
as an edit detector (:mod:`evidencegate.verify.edits`): an edited claim copies most of its
source and changes a figure, a date, a name, a negation or a word.

1. Both texts are cleaned of the accidents of tokenised or scraped text: line-number markers
   (``[12] ``), spaces inside numbers and hyphenated words (``235, 000``, ``kovach - suehn``) and
   before punctuation.
2. The claim is split into sentences; sentences that carry no checkable content are left out
   (:func:`is_trivial`: questions, headings ending in a colon, and sentences with fewer than two
   content terms, none a name or figure, once words that only refer to the source — "the
   passage describes" — and filler — "hope this helps" — are set aside), as the triad's
   trivial-claim filter does.
3. Each sentence is aligned to its evidence: the window of ``window`` (2) consecutive source
   sentences that covers the most of its content terms (Snowball stems), each term weighted by
   its rarity among the source's sentences. Then:

   * **edits** — a number, amount, percentage or date the source does not state, a part of a
     name (a capitalised word inside the sentence, or an acronym) the source has neither as a
     word nor as a stem, or a word negated in the sentence and not in the window (or the
     reverse) — make the sentence's support 0: each is decisive on its own;
   * otherwise its support is the mean of two coverages — the rarity-weighted share of its
     terms in the window, and the share of its adjacent term pairs found together in one source
     sentence — less ``word_penalty`` for each content word (up to ``max_penalised_words``) with
     no counterpart anywhere in the source (no same stem, no stem sharing its first five
     letters: a key word the source never uses).
4. The claim's support is its weakest sentence's; below ``threshold`` it is ``unsupported``,
   and the reason names the weakest sentence's edits or missing words.

Figures and names are checked against the whole source, not the window: a Wikipedia claim
draws its facts from several sentences of its page (WiCE), and checking them against the window
alone flagged 38–53% of the supported development claims. A word swapped into copied text
(:func:`~evidencegate.verify.edits.find_edits`' ``word`` edits) is not used here: it made no
difference on the development pools and raised false alarms; the quote-based rules critic uses
it, where the claim is compared with its own cited quote.

Tuning, once and globally (never per dataset), on the development pools only — the ``*_all``
critic files minus the ids of the reported ``*_200`` sets (478 FaithBench, 507 WiCE, 753 QAGS
items) — plus edited copies of those pools' supported claims (``benchmarks/critic.py``): the
window (1–3 sentences), the mix of coverages, whether each edit kind is decisive or a penalty,
the word penalty and the threshold were chosen by grid search maximising the mean balanced
accuracy over the four. The landscape is flat (0.64–0.65 mean over the three human-labelled
pools for every setting near the optimum; the best logistic combination of 30 such lexical
features reached 0.66): the human-labelled sets need different thresholds (QAGS's near-extractive
summaries about 0.1 of coverage lost, WiCE's multi-sentence claims about 0.5), and no global
lexical threshold serves both. Making name and negation edits decisive costs about 0.01 on the
three pools and is what catches edits (on the edited copies, balanced accuracy 0.64 → 0.79, a
negation inserted 0.27 → 0.83 of the time). ``benchmarks/critic.py`` prints every figure.

The learned judge ``support:rules@3`` (:mod:`evidencegate.judges.support_model`) builds on
these measures: more of them, weighed by a logistic model trained on the same development pools,
the edits still decisive. ``judge-bench --critic rules`` runs it; this judge stays the triad's
claim scorer (its 0–1 coverage is what the triad's cut points grade) and runs as
``--critic rules@2``.

:class:`LLMSupportJudge` asks a language model the same question through the provider layer,
with the output schema-validated and failing closed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.analysis import split_sentences
from evidencegate.judgements import ClaimSupport, SupportVerdict
from evidencegate.judges.llm import ask_json, validated
from evidencegate.judges.prompts import SUPPORT
from evidencegate.providers.base import ChatModel
from evidencegate.text import normalize, terms
from evidencegate.verify.edits import (
    Edit,
    EvidenceText,
    content_terms,
    find_edits,
    missing_terms,
)

__all__ = [
    "LLMSupportJudge",
    "RulesSupportJudge",
    "SentenceFeatures",
    "SupportConfig",
    "SupportJudge",
    "clean_text",
    "content_sentences",
    "is_trivial",
    "sentence_features",
]

# --------------------------------------------------------------------------- text clean-up

_LINE_NUMBER = re.compile(r"(?m)^[ \t]*\[\d+\][ \t]*")
_SPLIT_THOUSANDS = re.compile(r"(?<![\d.,])(\d{1,3}), (?=\d{3}(?!\d|[.,]\d))")
_SPACED_HYPHEN = re.compile(r"(?<=\w) -{1,2} (?=\w)")
_SPACE_BEFORE_PUNCT = re.compile(r"(?<=\S) +(?=[,.;:!?)\]]|'s\b|n't\b)")
_SPACE_AFTER_OPEN = re.compile(r"(?<=[(\[]) +")
_LATEX_QUOTES = re.compile(r"``|''")
_CAPITALISED = re.compile(r"(?<![\w'])[A-Z][\w'-]*")
_FILLER = re.compile(
    r"\b(?:i\s+)?hope\s+(?:this|that|it)\s+helps\b|\blet\s+me\s+know\b|\bfeel\s+free\b"
    r"|\bhere\s+is\b|\bhere's\b|\bin\s+summary\b|\bto\s+summari[sz]e\b",
    re.IGNORECASE,
)

_SOURCE_WORDS_TEXT = (
    "passage text article document source summary summarize summarise mention mentions "
    "describe describes discuss discusses state states report reports say says note notes "
    "concise following information piece pieces overview highlight highlights "
    "yes sure thanks thank okay ok hello hi certainly indeed sorry great absolutely"
)
#: Words that only refer to the source itself ("the passage describes ...") or only manage
#: the conversation ("sure", "thanks"): never the content of a claim (in both term forms).
SOURCE_WORDS = frozenset(terms(_SOURCE_WORDS_TEXT)) | frozenset(content_terms(_SOURCE_WORDS_TEXT))


def clean_text(text: str) -> str:
    """Undo tokenisation and scraping accidents; meaning-preserving, deterministic."""
    text = _LINE_NUMBER.sub("", text)
    text = _LATEX_QUOTES.sub('"', text)
    text = _SPLIT_THOUSANDS.sub(r"\1,", text)
    text = _SPACED_HYPHEN.sub("-", text)
    text = _SPACE_BEFORE_PUNCT.sub("", text)
    return _SPACE_AFTER_OPEN.sub("", text)


def _terms(text: str) -> list[str]:
    """Content terms (stemmed, stop words out), with hyphenated words split into their parts."""
    return terms(normalize(text)[0].replace("-", " "))


def _content_terms(text: str) -> list[str]:
    return [t for t in _terms(text) if t not in SOURCE_WORDS]


def is_trivial(sentence: str, *, min_terms: int = 2) -> bool:
    """True when a sentence carries no checkable claim: a question, a heading ending in a
    colon, or fewer than ``min_terms`` content terms (source-referring words and filler such as
    "hope this helps" set aside) none of which is a name or a figure ("Cheshire" and "$53,500"
    are claims; "Sure." is not).
    """
    stripped = sentence.strip()
    if not stripped or stripped.endswith(("?", ":")):
        return True
    found = set(_content_terms(_FILLER.sub(" ", stripped)))
    if len(found) >= min_terms:
        return False
    return not found or not (_CAPITALISED.search(stripped) or any(c.isdigit() for c in stripped))


def content_sentences(text: str, *, min_terms: int = 2) -> tuple[list[str], list[str]]:
    """(sentences with a checkable claim, trivial sentences) of ``text``, in order."""
    kept: list[str] = []
    trivial: list[str] = []
    for line in clean_text(text).splitlines():
        for sentence in split_sentences(line):
            (trivial if is_trivial(sentence.text, min_terms=min_terms) else kept).append(
                sentence.text
            )
    return kept, trivial


# --------------------------------------------------------------------------- the rules judge


@runtime_checkable
class SupportJudge(Protocol):
    """Decides whether ``claim`` is supported by ``source`` alone."""

    @property
    def component_id(self) -> str: ...

    def judge(self, source: str, claim: str) -> SupportVerdict: ...


@dataclass(frozen=True)
class SupportConfig:
    """The rules support judge's global settings (tuned once, never per dataset)."""

    threshold: float = 0.41
    word_penalty: float = 0.03
    max_penalised_words: int = 3
    window: int = 2
    min_terms: int = 2

    def __post_init__(self) -> None:
        for name in ("threshold", "word_penalty"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"SupportConfig.{name} must be within 0..1 (got {value})")
        if self.window < 1 or self.min_terms < 1 or self.max_penalised_words < 0:
            raise ValueError(
                f"SupportConfig.window and min_terms must be >= 1 and max_penalised_words >= 0 "
                f"(got {self.window}, {self.min_terms}, {self.max_penalised_words})"
            )


@dataclass(frozen=True)
class SentenceFeatures:
    """What the rules judge measures for one claim sentence."""

    aligned: float
    """rarity-weighted share of the sentence's content terms in its evidence window"""
    together: float
    """share of its adjacent content-term pairs found together in one source sentence"""
    edits: tuple[Edit, ...]
    """figures, dates, names and negations with no counterpart (decisive)"""
    missing_terms: tuple[str, ...]
    """content terms (stems) with no counterpart anywhere in the source"""
    evidence: str | None

    def support(self, config: SupportConfig) -> float:
        """0 with any edit; else the mean of the two coverages less the missing-word penalty."""
        if self.edits:
            return 0.0
        penalty = config.word_penalty * min(len(self.missing_terms), config.max_penalised_words)
        return min(max((self.aligned + self.together) / 2 - penalty, 0.0), 1.0)

    def issues(self) -> list[str]:
        out = [edit.describe() for edit in self.edits]
        if self.missing_terms and not out:
            out.append("terms not in the source: " + ", ".join(self.missing_terms[:5]))
        return out


def sentence_features(
    sentence: str, source: str | EvidenceText, *, window: int = 2
) -> SentenceFeatures:
    """Measure one claim sentence against a source (see the module docstring, step 3)."""
    prepared = source if isinstance(source, EvidenceText) else EvidenceText(clean_text(source))
    ordered = [t for t in content_terms(sentence) if t not in SOURCE_WORDS]
    wanted = set(ordered)
    if not wanted:
        raise ValueError(f"sentence {_excerpt(sentence)} has no content term to judge")
    aligned, start = _best_window(wanted, prepared, window)
    pairs = list(pairwise(ordered))
    if pairs:
        sentences_of = prepared.positions
        together = sum(
            1
            for a, b in pairs
            if {s for s, _ in sentences_of.get(a, ())} & {s for s, _ in sentences_of.get(b, ())}
        ) / len(pairs)
    else:
        together = float(all(t in prepared.terms for t in wanted))
    evidence = prepared.window(start, window) or None
    edits = find_edits(sentence, prepared, negation_scope=evidence or "", swapped_words=False)
    return SentenceFeatures(
        aligned=aligned,
        together=together,
        edits=tuple(edits),
        missing_terms=tuple(missing_terms(sentence, prepared, ignore=SOURCE_WORDS)),
        evidence=evidence,
    )


class RulesSupportJudge:
    """Deterministic support judge over a whole source (see the module docstring)."""

    component_id = "support:rules@2"

    def __init__(self, config: SupportConfig | None = None) -> None:
        self.config = config or SupportConfig()

    def judge(self, source: str, claim: str) -> SupportVerdict:
        if not source.strip():
            raise ValueError("source is empty: there is nothing to judge the claim against")
        if not claim.strip():
            raise ValueError("claim is empty: there is nothing to judge")
        sentences, _trivial = content_sentences(claim, min_terms=self.config.min_terms)
        judged = [s for s in sentences if set(content_terms(s)) - SOURCE_WORDS]
        if not judged:
            return nothing_checkable(self.component_id)
        prepared = EvidenceText(clean_text(source))
        features = [sentence_features(s, prepared, window=self.config.window) for s in judged]
        return self.decide(judged, features)

    def decide(
        self, sentences: Sequence[str], features: Sequence[SentenceFeatures]
    ) -> SupportVerdict:
        """The verdict from measured sentences: the weakest sentence's support decides."""
        config = self.config
        supports = [f.support(config) for f in features]
        weakest = min(range(len(supports)), key=supports.__getitem__)
        support = round(supports[weakest], 6)
        label: Literal["supported", "unsupported"] = (
            "supported" if support >= config.threshold else "unsupported"
        )
        issues = "; ".join(features[weakest].issues()) or "low coverage by the source"
        reason = (
            f"support {support:.2f} >= {config.threshold:.2f}"
            if label == "supported"
            else f"support {support:.2f} < {config.threshold:.2f}; weakest sentence "
            f"{_excerpt(sentences[weakest])}: {issues}"
        )
        verdict = SupportVerdict(
            label=label,
            score=support,
            reason=reason,
            sentences=[
                ClaimSupport(
                    text=text,
                    score=round(value, 6),
                    evidence=f.evidence,
                    issues=f.issues(),
                )
                for text, f, value in zip(sentences, features, supports, strict=True)
            ],
        )
        return validated(verdict, judge=self.component_id)


def _best_window(wanted: set[str], source: EvidenceText, window: int) -> tuple[float, int]:
    """The rarity-weighted share of ``wanted`` in the best window of ``window`` source
    sentences, and its start. A term the source lacks weighs as much as its rarest term.

    The sums are exactly rounded (:func:`math.fsum`): a plain sum over a set depends on its
    iteration order, which string hashing changes from one process to the next, and two windows
    covering the same terms could then compare unequal."""
    idf = source.idf
    rarest = math.log(len(source.sentence_terms) + 1) + 1.0
    weight = {t: idf.get(t, rarest) for t in wanted}
    total = math.fsum(weight.values())
    best, start = 0.0, 0
    for i in range(len(source.sentence_terms)):
        covered = set().union(*source.sentence_terms[i : i + window]) & wanted
        share = math.fsum(weight[t] for t in covered) / total
        if share > best:
            best, start = share, i
    return best, start


def _excerpt(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


# --------------------------------------------------------------------------- the LLM judge


class _SupportReply(BaseModel):
    """What the model returns for one (source, claim) pair."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: Literal["supported", "unsupported"]
    unsupported_spans: list[str] = Field(
        default_factory=list, description="Parts of the claim the source does not support."
    )
    reason: str = Field(min_length=1)


class LLMSupportJudge:
    """A language model judging support, through any :class:`ChatModel`."""

    def __init__(self, chat: ChatModel, *, timeout_s: float = 60.0) -> None:
        self.chat = chat
        self.timeout_s = timeout_s

    @cached_property
    def component_id(self) -> str:
        return f"support:{self.chat.provider}:{self.chat.model}"

    def judge(self, source: str, claim: str) -> SupportVerdict:
        if not source.strip() or not claim.strip():
            raise ValueError("source and claim must both be non-empty")
        reply = ask_json(
            self.chat,
            _SupportReply,
            judge=self.component_id,
            prompt=SUPPORT,
            values={"source": source, "claim": claim},
            purpose="support",
            timeout_s=self.timeout_s,
        )
        spans = [s for s in reply.unsupported_spans if s.strip()]
        reason = reply.reason + (f" (unsupported: {'; '.join(spans)})" if spans else "")
        verdict = SupportVerdict(
            label=reply.label,
            score=1.0 if reply.label == "supported" else 0.0,
            reason=reason,
        )
        return validated(verdict, judge=self.component_id)


def nothing_checkable(judge: str) -> SupportVerdict:
    """The verdict on a claim whose every sentence is trivial: nothing to check, supported."""
    verdict = SupportVerdict(
        label="supported",
        score=1.0,
        reason="the claim states nothing checkable (every sentence is trivial)",
    )
    return validated(verdict, judge=judge)
