"""Derived claims: a figure computed from quoted figures, recomputed exactly by the verifier.

A derived claim (:class:`~evidencegate.contracts.Claim` with a
:class:`~evidencegate.contracts.Derivation`) names an operation and its operands; each operand is
a figure that one of the claim's citations quotes. The verifier (:func:`check_derivation`):

* reads each operand's figure as written ('(1,577)', '$1.5 billion', '19.1%', '-0.9 %') with
  :func:`parse_figure`: sign (a minus, or parentheses as accountants write a negative),
  thousands separators, ``thousand``/``million``/``billion``/``trillion`` scale, and whether it
  is a percentage. A currency symbol is layout, not value. A table's "(in millions)" is not read:
  operands of one derivation must be written in the same scale by their quotes;
* requires that figure to be one the cited quote states (:func:`quote_figures`, same sign, same
  value after scale), else ``operand_not_quoted``;
* recomputes the result exactly with :class:`decimal.Decimal` (40 significant digits for a
  division) and compares it with the result the claim states, else ``derivation_mismatch``.

Rounding, the rule: a result stated to N decimal places must equal the exact result rounded to N
places **half up** (``ROUND_HALF_UP``: a tie rounds away from zero, 0.125 -> 0.13, -0.125 ->
-0.13), the convention of financial statements. A difference or sum is exact, so it must be
stated at least as precisely as its finest operand; a quotient (ratio, share, percent change)
or an average must be stated to at least one decimal place unless it is a whole number.
``"1.58 billion"`` is stated to the nearest ten million.

Units: the operands of one derivation are all percentages or all not. ``difference`` of two
percentages is in percentage points (stated without ``%``); ``share`` and ``percent_change``
are percentages (stated with ``%``); ``sum`` and ``average`` keep the operands' kind; ``ratio``
is a plain number. ``compare`` states ``greater``, ``less`` or ``equal`` (the first operand
against the second).

The claim's text must state the numeric result (its magnitude: "a decrease of 1.7 percentage
points" states -1.7), and must not call a negative change an increase or a positive one a
decrease. What the engine recomputed is evidence for the claim's own figure:
:func:`derived_figures` (the verifier's number check) and :func:`derivation_evidence` (the
critic's edit detector) return it, so the computed figure is never mistaken for an edit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Context, Decimal

from evidencegate.contracts import (
    Claim,
    Derivation,
    FailureReason,
    Operation,
    VerificationFailure,
)
from evidencegate.text import extract_dates, extract_quantities, normalize
from evidencegate.verify.quotes import quote_fragments

__all__ = [
    "ROUNDING",
    "Computed",
    "DerivationError",
    "Figure",
    "check_derivation",
    "compute",
    "derivation_evidence",
    "derivation_summary",
    "derived_figures",
    "describe",
    "parse_figure",
    "quote_figures",
    "state_result",
]

ROUNDING = ROUND_HALF_UP
"""How a stated result is compared with the exact one (see the module docstring)."""

_CONTEXT = Context(prec=40, rounding=ROUNDING)
_SCALES = {
    "thousand": 3,
    "million": 6,
    "billion": 9,
    "trillion": 12,
}
_DIGITS = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?!\w|[.,]\d)")
_LEFT = re.compile(
    r"(?P<open>\(\s?)?(?P<minus>-)?(?P<currency>(?:us\$|\$|usd|eur|gbp|€|£)\s?)?(?P<minus2>-)?\Z"
)
_RIGHT = re.compile(
    r"(?:\s(?P<scale>thousand|million|billion|trillion)\b)?"
    r"(?P<percent>\s?(?:%|percent\b|per\scent\b))?"
    r"(?P<close>\s?\))?"
    r"(?P<percent_after>\s?%)?"
)
_COMPARISONS = ("greater", "less", "equal")


@dataclass(frozen=True)
class Figure:
    """A figure as a quote writes it, read: its signed, scaled value and its precision."""

    value: Decimal
    percent: bool
    exponent: int
    """The power of ten of its last stated digit: '19.1%' -1, '1,577' 0, '1.5 billion' 8."""
    text: str


@dataclass(frozen=True)
class Computed:
    """An operation's exact result: a value (and whether it is a percentage or in percentage
    points), or for ``compare`` the relation."""

    value: Decimal | None
    unit: str
    """'percent', 'points', 'number' or, for compare, 'relation'."""
    relation: str | None = None
    min_exponent: int = 0
    """The coarsest power of ten the result may be stated to (see the module docstring)."""


class DerivationError(ValueError):
    """A derivation that cannot be computed as given; the message says why."""


def _figures(normalized: str) -> list[Figure]:
    out: list[Figure] = []
    for match in _DIGITS.finditer(normalized):
        offset = max(0, match.start() - 8)
        left = _LEFT.search(normalized[offset : match.start()])
        right = _RIGHT.match(normalized, match.end())
        assert left is not None and right is not None  # every part is optional
        base = match.start() - len(left.group())
        before = normalized[base - 1] if base > 0 else " "
        # "(1,577)": a negative; "-0.9": a negative unless the dash joins two numbers ("2021-22").
        opened = left["open"] is not None and right["close"] is not None
        minus = (left["minus"] or left["minus2"]) is not None and not (
            before.isalnum() or before in ".,"
        )
        if opened or minus:
            start = base
        elif left["currency"] is not None:
            start = offset + left.start("currency")
        else:
            start = match.start()
        end = max(match.end(), right.end("scale"), right.end("percent"))
        percent = right["percent"] is not None
        if opened:
            end = right.end("close")
            if not percent and right["percent_after"] is not None:
                percent, end = True, right.end("percent_after")
        value = Decimal(match.group(1).replace(",", ""))
        exponent = value.as_tuple().exponent
        assert isinstance(exponent, int)
        if right["scale"] is not None:
            value = value.scaleb(_SCALES[right["scale"]])
            exponent += _SCALES[right["scale"]]
        out.append(
            Figure(
                value=-value if opened or minus else value,
                percent=percent,
                exponent=exponent,
                text=normalized[start:end].strip(),
            )
        )
    return out


def quote_figures(text: str) -> list[Figure]:
    """Every figure ``text`` states, in order (years and the numbers of dates included)."""
    return _figures(normalize(text)[0])


def parse_figure(text: str) -> Figure | None:
    """The one figure ``text`` is ('(1,577)', '-0.9%', '$1.5 billion'); None when it is not
    exactly one figure."""
    normalized = normalize(text)[0].strip()
    figures = _figures(normalized)
    if len(figures) != 1:
        return None
    rest = normalized.replace(figures[0].text, "", 1).strip()
    return figures[0] if not rest else None


def compute(operation: Operation, operands: Sequence[Figure]) -> Computed:
    """The exact result of ``operation`` on ``operands`` (raises DerivationError)."""
    if len(operands) < 2:
        raise DerivationError(f"{operation.value} needs at least two operands")
    binary = operation not in (Operation.SUM, Operation.AVERAGE)
    if binary and len(operands) != 2:
        raise DerivationError(f"{operation.value} takes two operands (got {len(operands)})")
    kinds = {f.percent for f in operands}
    if len(kinds) > 1:
        raise DerivationError(
            "the operands mix percentages and amounts: " + ", ".join(repr(f.text) for f in operands)
        )
    percent = kinds.pop()
    finest = min(f.exponent for f in operands)
    values = [f.value for f in operands]
    a, b = values[0], values[-1]
    if operation is Operation.COMPARE:
        relation = "greater" if a > b else "less" if a < b else "equal"
        return Computed(value=None, unit="relation", relation=relation)
    if operation is Operation.DIFFERENCE:
        return Computed(a - b, "points" if percent else "number", min_exponent=finest)
    if operation is Operation.SUM:
        return Computed(sum(values, Decimal(0)), _kind(percent), min_exponent=finest)
    if operation is Operation.AVERAGE:
        mean = _CONTEXT.divide(sum(values, Decimal(0)), Decimal(len(values)))
        return Computed(mean, _kind(percent), min_exponent=-1)
    if b == 0:
        raise DerivationError(f"{operation.value} divides by zero ({operands[-1].text!r})")
    if operation is Operation.RATIO:
        return Computed(_CONTEXT.divide(a, b), "number", min_exponent=-1)
    if operation is Operation.SHARE:
        return Computed(_CONTEXT.divide(a * 100, b), "percent", min_exponent=-1)
    # percent change: (new - old) / |old|
    return Computed(_CONTEXT.divide((a - b) * 100, abs(b)), "percent", min_exponent=-1)


def _kind(percent: bool) -> str:
    return "percent" if percent else "number"


def _quantize(value: Decimal, exponent: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(exponent), rounding=ROUNDING, context=_CONTEXT)


def _whole(value: Decimal) -> bool:
    return value == value.to_integral_value()


def state_result(computed: Computed, operands: Sequence[Figure]) -> str:
    """The result as the engine states it: exact for a difference or sum (at the finest
    operand's precision), one decimal for a percentage, two for a ratio or an average."""
    if computed.value is None:
        return computed.relation or "equal"
    if computed.unit == "number" and computed.min_exponent < 0:
        exponent = -2
    elif computed.min_exponent < 0:
        exponent = -1
    else:
        exponent = min(0, min(f.exponent for f in operands))
    if computed.min_exponent < 0 and _whole(computed.value):
        exponent = 0
    value = _quantize(computed.value, exponent)
    text = f"{value:,f}" if abs(value) >= 10000 else f"{value:f}"
    return text + ("%" if computed.unit == "percent" else "")


@dataclass(frozen=True)
class _Checked:
    computed: Computed | None
    operands: list[Figure]
    failures: list[VerificationFailure]


def _check(claim: Claim, located: Sequence[bool]) -> _Checked:
    derivation = claim.derivation
    assert derivation is not None
    failures: list[VerificationFailure] = []
    figures: list[Figure] = []
    for i, operand in enumerate(derivation.operands):
        figure = parse_figure(operand.value)
        if figure is None:
            failures.append(
                _failure(
                    FailureReason.DERIVATION_INVALID,
                    f"operand {i} ({operand.label}) is not one figure: {operand.value!r}",
                )
            )
            continue
        figures.append(figure)
        citation = claim.citations[operand.citation]
        if not located[operand.citation]:
            continue  # the citation failed already; an unlocated quote vouches for nothing
        stated = [f for frag in quote_fragments(citation.quote) for f in _figures(frag)]
        if not any(f.value == figure.value and f.percent == figure.percent for f in stated):
            failures.append(
                _failure(
                    FailureReason.OPERAND_NOT_QUOTED,
                    f"operand {i} ({operand.label}) is {operand.value!r}, which quote "
                    f"{operand.citation} does not state (it states: "
                    f"{', '.join(f.text for f in stated) or 'no figure'})",
                )
            )
    if failures:
        return _Checked(None, figures, failures)
    try:
        computed = compute(derivation.operation, figures)
    except DerivationError as error:
        return _Checked(None, figures, [_failure(FailureReason.DERIVATION_INVALID, str(error))])
    return _Checked(computed, figures, _result_failures(claim, derivation, computed, figures))


def check_derivation(claim: Claim, located: Sequence[bool]) -> list[VerificationFailure]:
    """The failures of a derived claim's derivation (none for a claim without one).

    ``located[i]`` says whether citation ``i`` was found on its page: an operand citing a quote
    that was not found is not checked again (its citation failed already).
    """
    if claim.derivation is None:
        return []
    return _check(claim, located).failures


def _result_failures(
    claim: Claim, derivation: Derivation, computed: Computed, operands: Sequence[Figure]
) -> list[VerificationFailure]:
    expected = describe(derivation.operation, operands, computed)
    if computed.value is None:
        stated = derivation.result.strip().lower()
        if stated not in _COMPARISONS:
            return [
                _failure(
                    FailureReason.DERIVATION_INVALID,
                    f"a comparison states 'greater', 'less' or 'equal' (got {derivation.result!r})",
                )
            ]
        if stated != computed.relation:
            return [
                _failure(
                    FailureReason.DERIVATION_MISMATCH,
                    f"the claim states {stated!r}, but {expected}",
                )
            ]
        return _direction_failures(claim.text, computed, expected)
    figure = parse_figure(derivation.result)
    if figure is None:
        return [
            _failure(
                FailureReason.DERIVATION_INVALID,
                f"the result {derivation.result!r} is not one figure",
            )
        ]
    failures: list[VerificationFailure] = []
    if figure.percent != (computed.unit == "percent"):
        unit = {"percent": "a percentage", "points": "in percentage points (no %)"}.get(
            computed.unit, "a plain number (no %)"
        )
        failures.append(
            _failure(
                FailureReason.DERIVATION_INVALID,
                f"the result {derivation.result!r} of {derivation.operation.value} is {unit}",
            )
        )
    if figure.exponent > computed.min_exponent and not (
        computed.min_exponent < 0 and _whole(computed.value)
    ):
        failures.append(
            _failure(
                FailureReason.DERIVATION_INVALID,
                f"the result {derivation.result!r} is stated to 10^{figure.exponent}; "
                f"{derivation.operation.value} must be stated to 10^{computed.min_exponent} "
                "or finer",
            )
        )
    if _quantize(computed.value, figure.exponent) != figure.value:
        failures.append(
            _failure(
                FailureReason.DERIVATION_MISMATCH,
                f"the claim states {derivation.result!r}, but {expected} "
                f"(rounded half up: {_quantize(computed.value, figure.exponent):f})",
            )
        )
    stated_forms = _forms(figure.text)
    if not stated_forms & _stated(claim.text):
        failures.append(
            _failure(
                FailureReason.DERIVATION_INVALID,
                f"the claim's text does not state its result {derivation.result!r}",
            )
        )
    return failures + _direction_failures(claim.text, computed, expected)


_UP = re.compile(
    r"\b(?:increase[ds]?|increasing|grew|grow(?:s|n|th)?|rose|rise[ns]?|higher|gain(?:ed|s)?|"
    r"up|improved?|greater|more|larger|exceed(?:ed|s)?)\b"
)
_DOWN = re.compile(
    r"\b(?:decrease[ds]?|decreasing|declined?|declines|declining|fell|fall(?:s|en)?|lower|"
    r"drop(?:ped|s)?|down|less|smaller|shr[ua]nk|worsened|reduced|reduction)\b"
)


def _direction_failures(text: str, computed: Computed, expected: str) -> list[VerificationFailure]:
    """A claim calling a negative change an increase, or a positive one a decrease."""
    normalized = normalize(text)[0]
    up, down = bool(_UP.search(normalized)), bool(_DOWN.search(normalized))
    if up == down:
        return []
    if computed.value is not None:
        sign = (computed.value > 0) - (computed.value < 0)
    else:
        sign = {"greater": 1, "less": -1}.get(computed.relation or "", 0)
    if sign == 0 or (sign > 0) == up:
        return []
    word = "an increase" if up else "a decrease"
    return [
        _failure(FailureReason.DERIVATION_MISMATCH, f"the claim describes {word}, but {expected}")
    ]


_SYMBOLS = {
    Operation.DIFFERENCE: "-",
    Operation.SUM: "+",
    Operation.RATIO: "/",
}


def describe(operation: Operation, operands: Sequence[Figure], computed: Computed) -> str:
    """The computation in words: ``19.1% - 20.8% = -1.7 exactly``."""
    texts = [f.text for f in operands]
    if computed.value is None:
        return f"{texts[0]} is {computed.relation} than {texts[1]}".replace(
            "equal than", "equal to"
        )
    if operation in _SYMBOLS:
        formula = f" {_SYMBOLS[operation]} ".join(texts)
    elif operation is Operation.AVERAGE:
        formula = f"average({', '.join(texts)})"
    elif operation is Operation.SHARE:
        formula = f"{texts[0]} / {texts[1]} x 100"
    else:
        formula = f"({texts[0]} - {texts[1]}) / |{texts[1]}| x 100"
    exact = _exact(computed.value)
    return f"{formula} = {exact}" + (" exactly" if exact == f"{computed.value:f}" else "")


def _exact(value: Decimal) -> str:
    """The exact value, or 12 significant decimals of a non-terminating quotient."""
    text = f"{value:f}"
    if "." in text and len(text.split(".")[1]) > 12:
        return f"{_quantize(value, -12):f}..."
    return text


def _forms(text: str) -> set[str]:
    """The canonical quantities (:func:`extract_quantities`) of a figure's magnitude; a whole
    number that reads as a year (2,021) is one too."""
    magnitude = text.replace("-", " ").replace("(", " ").replace(")", " ")
    return _stated(magnitude)


def _stated(text: str) -> set[str]:
    return set(extract_quantities(text)) | {d for d in extract_dates(text) if d.isdigit()}


def derived_figures(claim: Claim, located: Sequence[bool] | None = None) -> set[str]:
    """The canonical quantities the engine recomputed for ``claim`` (empty for a plain claim or
    an invalid derivation): evidence for the claim's computed figure, at its stated precision."""
    if claim.derivation is None:
        return set()
    checked = _check(claim, located if located is not None else [True] * len(claim.citations))
    computed = checked.computed
    if computed is None or computed.value is None:
        return set()
    stated = parse_figure(claim.derivation.result)
    if stated is None:
        return set()
    value = _quantize(computed.value, stated.exponent)
    text = f"{abs(value):f}" + ("%" if stated.percent else "")
    return _forms(text) | _forms(stated.text) if value == stated.value else _forms(text)


def derivation_evidence(claim: Claim) -> str:
    """What the engine recomputed for ``claim``, as text to read beside its quotes ('' for a
    plain claim): the critic's edit detector then finds a counterpart for the computed figure
    and the operation's words."""
    derivation = claim.derivation
    if derivation is None:
        return ""
    checked = _check(claim, [True] * len(claim.citations))
    if checked.computed is None:
        return ""
    figures = " ".join(sorted(derived_figures(claim)))
    words = {
        # The generator's own connective ("X in 2022 compared with Y in 2021") is the
        # operation's word too: it states no fact the recomputation does not.
        Operation.DIFFERENCE: "difference change compared",
        Operation.SUM: "sum total combined",
        Operation.AVERAGE: "average mean",
        Operation.RATIO: "ratio times",
        Operation.SHARE: "share percentage",
        # Not "percent" first: after a header quote ending in a year ("2023 2022"), "2022
        # percent" would read as a percentage and the year as no date.
        Operation.PERCENT_CHANGE: "change compared percent",
        Operation.COMPARE: "comparison compared",
    }[derivation.operation]
    computed = checked.computed
    if computed.value is None:
        relation = {"greater": "higher", "less": "lower"}.get(computed.relation or "", "same")
    elif derivation.operation in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE):
        relation = "increase" if computed.value > 0 else "decrease" if computed.value < 0 else ""
    else:
        relation = ""
    unit = "percentage points" if computed.unit == "points" else ""
    return " ".join(f"\n{words} {relation} {figures} {unit}".split(" ")).rstrip()


def derivation_summary(derivation: Derivation) -> str:
    """One line for a reader: ``difference of margin, 2022 (19.1%) and margin, 2021 (20.8%)
    = -1.7``."""
    operands = " and ".join(f"{o.label} ({o.value})" for o in derivation.operands)
    name = derivation.operation.value.replace("_", " ")
    return f"{name} of {operands} = {derivation.result}"


def _failure(reason: FailureReason, detail: str) -> VerificationFailure:
    return VerificationFailure(reason=reason, detail=detail)
