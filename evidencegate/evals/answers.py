"""Expected-answer scoring: is an emitted answer correct, wrong, or an abstention?

"Contract met" says every quote is real; it does not say the question is answered. This module
compares what a run emitted with the golden item's expected answer
(:class:`~evidencegate.evals.golden.ExpectedAnswer`):

* the answer text is the emitted claims' text (every claim, derived ones included); each
  expected value is looked for claim by claim;
* matching is case-insensitive and typography-normalised (:func:`normalize_answer`: NFKC,
  curly quotes, dashes and minus signs, soft hyphens and zero-width characters, runs of
  whitespace); a number matches with or without thousands separators and with or without a
  currency sign, at number boundaries (``1,800`` is not found in ``51,800``; ``$51,800`` is
  found in ``51800 USD``); ``%`` also matches ``percent``; words match at word boundaries;
* an alternative starting with ``re:`` is a case-insensitive regex searched in the normalised
  claim text.

:func:`grade_answer` gives one :class:`AnswerGrade` per run, with its :class:`AnswerClass`:

============================  ==============================================================
``correct``                   answered; every ``all_of`` group matched; no ``none_of`` found
``wrong``                     answered otherwise, including any answer to an unanswerable item
``abstained``                 no claim emitted on an answerable item
``correct_abstention``        no claim emitted on an unanswerable item
``failed``                    the run failed (an error, a crashed component)
``unscored``                  answered an answerable item that has no expected answer yet
============================  ==============================================================

"Answered" means at least one claim was emitted (answered, with a disclaimer, or redacted);
an outcome with no claim is an abstention. A *noise claim* is an emitted claim of an answer
to a scored, answerable item that contains no ``all_of`` alternative and covers no
required_evidence entry: it does not help answer the question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.evals.golden import REGEX_PREFIX, ExpectedAnswer

__all__ = [
    "AnswerClass",
    "AnswerGrade",
    "EmittedClaim",
    "alternative_pattern",
    "grade_answer",
    "matches",
    "normalize_answer",
]


class AnswerClass(StrEnum):
    """The outcome class of one run against its golden item (see the module docstring)."""

    CORRECT = "correct"
    WRONG = "wrong"
    ABSTAINED = "abstained"
    CORRECT_ABSTENTION = "correct_abstention"
    FAILED = "failed"
    UNSCORED = "unscored"


class AnswerGrade(BaseModel):
    """How one run's answer compares with its golden item's expected answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    answer_class: AnswerClass
    matched: list[str] = Field(
        default_factory=list,
        description="The all_of alternatives found, as 'GROUP:ALTERNATIVE' (group 0-based).",
    )
    missing_groups: list[int] = Field(
        default_factory=list, description="all_of groups (0-based) with no alternative found."
    )
    forbidden: list[str] = Field(
        default_factory=list, description="The none_of values found in the answer."
    )
    noise_claims: list[str] = Field(
        default_factory=list,
        description="Claim ids that contain no all_of alternative and cover no required "
        "evidence (scored answers to answerable items only).",
    )

    @property
    def answered(self) -> bool:
        return self.answer_class in (AnswerClass.CORRECT, AnswerClass.WRONG, AnswerClass.UNSCORED)

    def signature(self) -> tuple[AnswerClass, tuple[str, ...], tuple[str, ...]]:
        """Outcome class and matched values: equal for two runs that answered alike."""
        return (self.answer_class, tuple(sorted(self.matched)), tuple(sorted(self.forbidden)))


@dataclass(frozen=True)
class EmittedClaim:
    """What grading needs of an emitted claim."""

    claim_id: str
    text: str
    covers_required: bool = False
    """The claim's verified citations establish a required_evidence entry."""


# --------------------------------------------------------------------------- normalising

_TRANSLATE = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4`", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        **dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", ""),
    }
)
_SPACE = re.compile(r"\s+")


def normalize_answer(text: str) -> str:
    """NFKC, straight quotes, ASCII hyphens, no invisible characters, single spaces."""
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    return _SPACE.sub(" ", text).strip()


# --------------------------------------------------------------------------- matching

_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_CURRENCY = "$€£¥₹"
_TOKEN = re.compile(
    rf"(?P<number>{_NUMBER.pattern})|(?P<percent>\s*%)|(?P<currency>[{_CURRENCY}]\s*)"
    r"|(?P<space>\s+)|(?P<other>.)",
    re.DOTALL,
)
_NUMBER_START = r"(?<!\d)(?<!\d[.,])"
_NUMBER_END = r"(?!\d)(?![.,]\d)"


def _number_pattern(token: str) -> str:
    whole, _, fraction = token.replace(",", "").partition(".")
    if len(whole) > 3:
        head = len(whole) % 3 or 3
        groups = [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
        whole_pattern = f"(?:{whole}|{','.join(groups)})"
    else:
        whole_pattern = whole
    return _NUMBER_START + whole_pattern + (rf"\.{fraction}" if fraction else "") + _NUMBER_END


@lru_cache(maxsize=4096)
def alternative_pattern(alternative: str) -> re.Pattern[str]:
    """The compiled, case-insensitive pattern that finds ``alternative`` in normalised text.

    ``re:`` alternatives are compiled as given. Otherwise numbers get the number rules, a
    currency sign becomes optional (any currency sign, or none), ``%`` also matches
    ``percent``, whitespace matches any whitespace, and a leading/trailing word character must
    be at a word boundary.
    """
    if alternative.startswith(REGEX_PREFIX):
        return re.compile(alternative[len(REGEX_PREFIX) :], re.IGNORECASE)
    text = normalize_answer(alternative)
    parts: list[str] = []
    for token in _TOKEN.finditer(text):
        kind = token.lastgroup
        value = token.group()
        if kind == "number":
            parts.append(_number_pattern(value))
        elif kind == "percent":
            parts.append(r"(?:\s*%|\s+per\s?cent\b|\s+pct\b)")
        elif kind == "currency":
            continue  # optional: the number's own boundaries still apply
        elif kind == "space":
            parts.append(r"\s+")
        else:
            parts.append(re.escape(value))
    pattern = "".join(parts)
    stripped = text.strip(_CURRENCY + " ")
    if stripped and (stripped[0].isalpha() or stripped[0] == "_"):
        pattern = r"(?<!\w)" + pattern
    if stripped and (stripped[-1].isalpha() or stripped[-1] == "_"):
        pattern += r"(?!\w)"
    return re.compile(pattern, re.IGNORECASE)


def matches(alternative: str, text: str) -> bool:
    """Does ``text`` (normalised here) contain ``alternative`` by the matching rules?"""
    return alternative_pattern(alternative).search(normalize_answer(text)) is not None


# --------------------------------------------------------------------------- grading


def grade_answer(
    expected: ExpectedAnswer | None,
    *,
    answerable: bool,
    failed: bool,
    claims: Sequence[EmittedClaim],
) -> AnswerGrade:
    """The outcome class of one run, the expected values it states and its noise claims.

    ``claims`` are the emitted claims (none for an abstention). A failed run is ``failed``
    whatever it emitted; contract_met or the stop reason play no part.
    """
    if failed:
        return AnswerGrade(answer_class=AnswerClass.FAILED)
    if not claims:
        return AnswerGrade(
            answer_class=AnswerClass.ABSTAINED if answerable else AnswerClass.CORRECT_ABSTENTION
        )
    if not answerable:
        return AnswerGrade(answer_class=AnswerClass.WRONG)
    if expected is None:
        return AnswerGrade(answer_class=AnswerClass.UNSCORED)
    texts = [normalize_answer(claim.text) for claim in claims]
    matched: list[str] = []
    missing: list[int] = []
    helpful = [claim.covers_required for claim in claims]
    for index, group in enumerate(expected.all_of):
        found = False
        for alternative in group:
            pattern = alternative_pattern(alternative)
            hits = [pattern.search(text) is not None for text in texts]
            if any(hits):
                found = True
                matched.append(f"{index}:{alternative}")
                helpful = [h or hit for h, hit in zip(helpful, hits, strict=True)]
        if not found:
            missing.append(index)
    forbidden = [
        value
        for value in expected.none_of
        if any(alternative_pattern(value).search(text) for text in texts)
    ]
    correct = not missing and not forbidden
    return AnswerGrade(
        answer_class=AnswerClass.CORRECT if correct else AnswerClass.WRONG,
        matched=matched,
        missing_groups=missing,
        forbidden=forbidden,
        noise_claims=[c.claim_id for c, h in zip(claims, helpful, strict=True) if not h],
    )
