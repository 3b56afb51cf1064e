"""Derived answers for the offline generator: what a question asks to compute, and from which cells.

:func:`derivation_request` reads a question for a computation over figures: a change ("by how
much did X change from 2021 to 2022", "X in 2022 compared with 2021"), a percent change ("by what
percentage did X grow"), a comparison ("did X grow in 2022?"), a share ("X as a share of Y",
"what share of Y was X"), a ratio ("ratio of X to Y"), a sum ("total of X and Y") or an average
("average X from 2020 to 2022"). It names the operation, what each operand is about and the
years; a question naming no year compares the table's latest column with the one before.

:func:`derived_candidates` finds the operands as cells of the year-columned tables on the
evidence's pages (:mod:`evidencegate.generation.tables`): the row whose label best states what
the operand is about, in the column of the asked year. Operands of one derivation come from one
table of one page of one document version (the scoped evidence: the asked entity's filing), and
from the asked years only; no operand is guessed, a question whose operands are not all found
gets no derived answer. The engine computes the result (:mod:`evidencegate.verify.derived`);
the claim quotes each row with its figures and the table's header with its years.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from evidencegate.analysis import (
    PERIOD_WORDS,
    QuestionProfile,
    figure_phrase,
    normalise_question,
)
from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, Claim, Derivation, Operand, Operation, Passage
from evidencegate.corpus.rows import statement_row_fit
from evidencegate.generation.tables import (
    TableCell,
    measured_terms,
    part_table,
    percent_table,
    table_cells,
    table_title,
    table_unit,
    unasked_subset,
)
from evidencegate.lexicon import (
    covered_share,
    defined_measure,
    leading_keys,
    match_units,
    phrase_said,
    unit_matched,
)
from evidencegate.protocols import SourceLookup
from evidencegate.text import terms
from evidencegate.verify.derived import (
    DerivationError,
    Figure,
    compute,
    parse_figure,
    state_result,
)

__all__ = [
    "HEADCOUNT_ASKED",
    "INSIDE_US",
    "OPERATION_TERMS",
    "OUTSIDE_US",
    "PEOPLE_NOUN",
    "WHOLE_COMPANY",
    "DerivationRequest",
    "DerivedCandidate",
    "HeadcountAsk",
    "OperandCell",
    "PeopleCount",
    "asks_change",
    "derivation_request",
    "derived_candidates",
    "headcount_ask",
    "headcount_claims",
    "people_counts",
    "result_phrase",
]

MIN_FIT = 0.6
"""The share of an operand's terms a row label must state for its cell to be that operand."""
MIN_MEASURE = 0.5
"""The share of a change's measure ("backlog", "net revenue") a segment's row must state, with
its block's name and its table's title: the segment's row of another table is another figure."""
MIN_SPECIFICITY = 0.25
"""The share of a row label's terms the operand's terms must state: a label that says much
more than what is asked ("Total Pharmaceutical Sales $ 52,563 ... reclassified") is another
row, or a page blob the table parser took for one."""


@dataclass(frozen=True)
class DerivationRequest:
    """A computation a question asks for: the operation, what each operand is about (one subject
    over several years, or several subjects in one year) and the years named."""

    operation: Operation
    subjects: tuple[str, ...]
    years: tuple[int, ...]
    question: str = ""
    named: tuple[str, ...] = ()
    """For each subject, the names it uses ("Defense, Space & Security" in "what percentage of
    revenues came from the Defense, Space & Security segment"): a row stating them is that
    subject (a name no row states names the filer)."""
    """The question as asked: the names it uses tell the tables it may read (a segment's
    table only when it names the segment)."""
    defined: str = ""
    phrases: tuple[str, ...] = ()
    """For a derived measure, its operands' phrases as the lexicon writes them: a row must
    state each whole ("current assets": "Total current assets", not "Total assets")."""
    """The derived measure the lexicon defines that the question asks for ("working capital"),
    when the operation and operands are its definition, not the question's own words."""
    segments: tuple[str, ...] = ()
    """For a change of one figure, the question's names (each as its terms): the one a row
    states is the segment asked of ("LatAm"), whose row alone is the operand."""


_CHANGE_WORDS = (
    r"change[sd]?|chang(?:ing)|grow|grew|grown|growth|increase[sd]?|decrease[sd]?|decline[sd]?|"
    r"rise|rose|risen|fall|fell|fallen|drop(?:ped)?|improve[sd]?|move[sd]?|shift(?:ed)?"
)
OPERATION_TERMS = frozenset(
    terms(
        "change changed changes grow grew grown growth increase increased decrease decreased "
        "decline declined rise rose fall fell drop dropped improve improved difference compare "
        "compared comparison versus share percentage percent proportion portion fraction ratio "
        "total sum combined average mean much year fiscal period prior previous vs"
    )
)
_Rule = tuple[Operation, re.Pattern[str]]
_TWO_SUBJECT_RULES: tuple[_Rule, ...] = tuple(
    (operation, re.compile(pattern, re.IGNORECASE))
    for operation, pattern in (
        (
            Operation.SHARE,
            r"(?P<x>.+?)\s+as\s+(?:an?\s+(?:share|percent(?:age)?|proportion|portion|fraction)|%)"
            r"\s+of\s+(?P<y>.+)",
        ),
        (
            Operation.SHARE,
            r"\bwhat\s+(?:share|percent(?:age)?|proportion|portion|fraction)\s+of\s+(?P<y>.+?)"
            r"\s+(?:was|were|is|are|came\s+from|comes\s+from|did|does|do)\s+(?P<x>.+)",
        ),
        (Operation.RATIO, r"\bratio\s+(?:of|between)\s+(?P<x>.+?)\s+(?:to|and)\s+(?P<y>.+)"),
        # "current ratio (total current assets to total current liabilities)"
        (
            Operation.RATIO,
            r"\bratio\s*\(\s*(?P<x>[^()]+?)\s+(?:to|over|divided\s+by)\s+(?P<y>[^()]+?)\s*\)",
        ),
        (Operation.RATIO, r"\b(?P<x>[\w&' -]+?)[\s-]+to[\s-]+(?P<y>[\w&' -]+?)\s+ratio\b"),
        # "current assets over current liabilities", "capex / net sales": one figure over
        # another ("over the year" names no figure: a subject of period words is none).
        (Operation.RATIO, r"\b(?P<x>[\w&' -]+?)\s+(?:over|divided\s+by|/)\s+(?P<y>[\w&' -]+)"),
        # Not "total of X and Y": "the total of plant and equipment" names one item.
        (
            Operation.SUM,
            r"\b(?:sum|combined\s+(?:amount|total|value))\s+of\s+(?P<x>.+?)\s+and\s+(?P<y>.+)",
        ),
        (Operation.SUM, r"\b(?P<x>[\w&' -]+?)\s+and\s+(?P<y>[\w&' -]+?)\s+combined\b"),
        # "current assets less current liabilities": one figure less another of the same year
        # (not "less than", a comparison).
        (
            Operation.DIFFERENCE,
            r"\b(?P<x>[\w&' -]+?)\s+(?:less|minus)\s+(?!than\b)(?P<y>[\w&' -]+)",
        ),
        (Operation.SUM, r"\b(?P<x>[\w&' -]+?)\s+plus\s+(?P<y>[\w&' -]+)"),
    )
)
_ONE_SUBJECT_RULES: tuple[_Rule, ...] = tuple(
    (operation, re.compile(pattern, re.IGNORECASE))
    for operation, pattern in (
        (Operation.AVERAGE, r"\b(?:average|mean)\s+(?P<x>.+)"),
        (
            Operation.PERCENT_CHANGE,
            rf"\b(?:by\s+)?(?:what|which|how\s+much\s+of\s+a)\s+(?:percent(?:age)?|%)\s+"
            rf"(?:[\w'&.-]+\s+)*?(?:{_CHANGE_WORDS})\b|\bpercent(?:age)?\s+(?:{_CHANGE_WORDS})\b|"
            r"\bgrowth\s+rate\b|\bhow\s+many\s+percent\b|"
            rf"\b(?:{_CHANGE_WORDS})\s*(?:%|\bin\s+percent\b|\bpercent(?:age)?\b)|"
            # "net sales growth vs FY21 in %": the unit asked at the question's end
            rf"\b(?:{_CHANGE_WORDS})\b.*\bin\s+(?:%|percent(?:age)?\b)\W*$"
            rf"|%\s*(?:{_CHANGE_WORDS})\b|\b(?:{_CHANGE_WORDS})\b[^?]*,\s*(?:%|percent(?:age)?\b)\W*$",
        ),
        (
            Operation.DIFFERENCE,
            rf"\bby\s+how\s+much\b|\bhow\s+much\s+(?:did|has|have|was|were)\b.*\b(?:{_CHANGE_WORDS})"
            r"\b|\b(?:change|difference)\s+(?:in|of|between)\b|\bcompared?\s+(?:with|to)\b|"
            r"\bversus\b|\bvs\.?\s|\brelative\s+to\b",
        ),
        (
            Operation.COMPARE,
            rf"^\s*(?:did|has|have|was|were|is|are|does|do)\b.*\b(?:{_CHANGE_WORDS})\b",
        ),
    )
)
_MARGIN = re.compile(
    r"\b(?P<x>[a-z]+(?:\s+(?:income|profit|earnings))?)\s+margins?\b", re.IGNORECASE
)
"""A margin the question asks for by the profit it is of ("gross margin", "operating income
margin")."""
_PROFIT_TERMS = frozenset(terms("profit income earnings"))
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_WHEN = re.compile(
    r"\s(?:at|in|for|during|on|as\s+of)\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:year|year-end|end)\b|"
    r"(?:19|20)\d\d|december|june|fy|(?:twelve|three|six|nine|\d+)\s+months?\b)",
    re.IGNORECASE,
)
"""Where a figure's name ends and its period begins ("liabilities at year-end 2022")."""
_NOT_COMPUTED = frozenset({"reason", "list", "definition", "entity", "date", "duration"})
"""Answer types no computation answers."""


def derivation_request(question: str, profile: QuestionProfile) -> DerivationRequest | None:
    """The computation ``question`` asks for, or None when it asks for a stated fact."""
    if profile.answer_type in _NOT_COMPUTED:
        return None  # "why did X rise as a share of sales" asks for a reason, not the share
    text = normalise_question(question)
    years = tuple(profile.period_years)
    # The names the question uses (3M, J&J) scope the evidence; a row label does not state them.
    named = frozenset(t for name in profile.names for t in terms(name))
    for operation, pattern in _TWO_SUBJECT_RULES:
        match = pattern.search(text)
        if match is not None and len(years) <= 1:
            # "Total" is the sum's word, and otherwise a figure's own ("total current assets").
            own = frozenset({"total"}) if operation is not Operation.SUM else frozenset()
            # The first figure's name, not the words asking for it ("as an auditor I need
            # 3M's capital expenditures as a percentage of net sales").
            x = _subject(figure_phrase(match["x"]), named, own)
            y = _subject(match["y"], named, own)
            names = tuple(_names_in(match[g], named) for g in ("x", "y"))
            if x and y:
                return DerivationRequest(operation, (x, y), years, question, names)
    margin = _MARGIN.search(text)
    if margin is not None and len(years) <= 1 and profile.answer_type == "percentage":
        # "gross margin", "operating margin": that profit as a share of the sales it is made
        # on (the income statement's top line).
        x = _subject(margin["x"], named)
        if x:
            earned = x if set(x.split()) & _PROFIT_TERMS else f"{x} profit"
            return DerivationRequest(Operation.SHARE, (earned, "revenue"), years, question)
    asked = _asked_change(text)
    if asked is not None and len(years) <= 2:
        # The asked unit decides the change: "how much percent did it grow", "SG&A growth"
        # ask a rate; "backlog increase in dollars", "by how much did it change" an amount.
        operation, said = asked
        subject = _subject(said, named)
        if subject:
            return DerivationRequest(
                operation, (subject,), years, question, segments=_segment_names(profile.owners)
            )
    for operation, pattern in _ONE_SUBJECT_RULES:
        if pattern.search(text) is None:
            continue
        if operation is Operation.AVERAGE and len(years) < 2:
            continue  # an average over what? only over named years
        if operation is not Operation.AVERAGE and len(years) > 2:
            continue
        subject = _subject(text, named)
        if subject:
            return DerivationRequest(
                operation, (subject,), years, question, segments=_segment_names(profile.owners)
            )
    return _defined_request(text, years, named)


_CHANGE_ASKED = re.compile(
    rf"\b(?:{_CHANGE_WORDS}|(?:go|goes|went|gone|going)\s+(?:up|down))\b", re.IGNORECASE
)
"""A change asked of a figure ("grew", "increase", "went up")."""
_GROWTH_ONLY = re.compile(r"\b(?:grow|grows|grew|grown|growing|growth)\b", re.IGNORECASE)
_PERCENT_ASKED = re.compile(
    r"\bhow\s+(?:much|many)\s+(?:percent(?:age)?|%)|"
    r"\b(?:in|as\s+an?|by\s+what|what)\s+(?:%|percent(?:age)?\b)(?:\s+terms\b)?|"
    r"\b(?:rate|pace)\s+of\s+(?:growth|increase|decrease|decline|change)\b|"
    r"\b(?:growth|change)\s+rate\b|"
    r"(?:%|\bpercent(?:age)?)\s*(?:change|growth|increase|decrease|decline|rise|drop)\b|"
    r"\b(?:grow|grew|growth|change|increase|decrease|decline|rise|rose|fell|drop)\w*\s*%",
    re.IGNORECASE,
)
"""A change asked as a rate: "how much percent", "in %", "rate of growth", "% change"."""
_AMOUNT_ASKED = re.compile(
    r"\bin\s+(?:(?:dollar|absolute|nominal)\s+(?:terms|amounts?)|(?:(?:us|u\.s\.)\s*)?"
    r"(?:dollars?|\$\s*(?:m|mn|mm|bn|b|millions?|billions?)?|usd(?:\s+(?:millions?|billions?))?|"
    r"(?:millions?|billions?)(?:\s+of\s+dollars)?))(?!\w)|"
    r"\b(?:dollar|absolute|nominal)\s+(?:change|increase|decrease|growth|decline|amount)\b|"
    r"\bhow\s+many\s+(?:dollars|millions|billions)\b",
    re.IGNORECASE,
)
"""A change asked as an amount: "in dollars", "in $m", "in USD millions", "dollar change"."""
_YES_NO_OPENING = re.compile(r"^\s*(?:did|has|have|was|were|is|are|does|do)\b", re.IGNORECASE)
_MOVED = re.compile(r"\b(?:go|goes|went|gone|going)\s+(?:up|down)\b", re.IGNORECASE)


def asks_change(request: DerivationRequest | None) -> bool:
    """Does ``request`` ask the change of one figure between two periods (a difference or a
    percent change)? Then the figure's values in the two years are its operands, no answer."""
    return (
        request is not None
        and len(request.subjects) == 1
        and request.operation in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE)
    )


def _asked_change(text: str) -> tuple[Operation, str] | None:
    """The change a question asks of one figure, decided by the unit it asks it in, and the
    question without the words asking for that unit (what the figure is, for its subject).

    A rate ("how much percent did net revenue grow", "in %", "rate of growth", "% change") is a
    percent change; an amount ("increase in dollars", "in $m", "dollar change") a difference.
    Growth with no unit asked ("SG&A growth 2022 over 2021", "how much did sales grow") is a
    rate too: a filing states a figure's growth as one ("sales increased 1.3%"), and the claim
    quotes both figures, whose difference a reader sees; an increase, a decline or a change
    with no unit asked is left to the other rules ("by how much did it change": an amount).
    A question asking whether ("did sales grow?") is a comparison, unless it asks the unit.
    None when the question asks no change of a figure."""
    if _CHANGE_ASKED.search(text) is None:
        return None
    percent = _PERCENT_ASKED.search(text)
    amount = _AMOUNT_ASKED.search(text)
    if percent is not None and amount is not None:
        return None  # both asked: the other rules decide (two claims are not drafted here)
    found = percent or amount
    if found is None:
        if _YES_NO_OPENING.search(text) or not _GROWTH_ONLY.search(text):
            return None
        changes = {m.group(0).lower() for m in re.finditer(rf"\b(?:{_CHANGE_WORDS})\b", text, re.I)}
        if not all(_GROWTH_ONLY.fullmatch(c) for c in changes):
            return None  # "growth" beside "increase": no unit said, the other rules decide
        return Operation.PERCENT_CHANGE, text
    operation = Operation.PERCENT_CHANGE if percent is not None else Operation.DIFFERENCE
    said = f"{text[: found.start()]} {text[found.end() :]}"
    return operation, _MOVED.sub(" ", said)


def _segment_names(names: Sequence[str]) -> tuple[str, ...]:
    """The question's names, each as its terms: one a row of a table states is the segment or
    division asked of ("PepsiCo's LatAm division"); the filer's no row states."""
    return tuple(dict.fromkeys(" ".join(terms(name)) for name in names if terms(name)))


def _defined_request(
    text: str, years: tuple[int, ...], named: frozenset[str]
) -> DerivationRequest | None:
    """The computation of a derived measure the lexicon defines and the question names ("3M
    working capital 2018": current assets less current liabilities; "Amcor opm": operating
    income as a share of net sales), for one year or the latest. The request's question is the
    question with the measure written out as its operands, so that the rows are told apart by
    their words ("Total current assets", not "Total assets")."""
    if len(years) > 1:
        return None  # "working capital in 2022 vs 2021" is a change of it: not computed here
    found = defined_measure(text)
    if found is None:
        return None
    definition, start, end = found
    x, y = definition.operands
    subjects = (_subject(x, named, _OWN), _subject(y, named, _OWN))
    if not all(subjects):
        return None
    written = f"{text[:start]}{x} and {y}{text[end:]}"
    return DerivationRequest(
        Operation(definition.operation),
        subjects,
        years,
        written,
        defined=definition.name,
        phrases=(x, y),
    )
    return None


_OWN = frozenset({"total"})


def _names_in(phrase: str, named: frozenset[str]) -> str:
    """The terms of the question's names that ``phrase`` uses."""
    return " ".join(t for t in terms(_YEAR.sub(" ", phrase)) if t in named)


def _subject(phrase: str, named: frozenset[str], own: frozenset[str] = frozenset()) -> str:
    """What an operand is about: the phrase without years, names and the operation's words
    (but ``own``, the words that here name the figure)."""
    phrase = _WHEN.split(phrase, maxsplit=1)[0] if own else phrase
    kept = [
        t
        for t in terms(_YEAR.sub(" ", phrase))
        if (t not in OPERATION_TERMS or t in own)
        and t not in named
        and t not in PERIOD_WORDS
        and t != "year-end"
        and len(t) > 1
    ]
    return " ".join(kept)


@dataclass(frozen=True)
class OperandCell:
    """A table cell chosen as an operand, with how well its row label states the subject."""

    cell: TableCell
    figure: Figure
    fit: float
    source: tuple[Passage, str] | None = None
    """The passage and page text of the cell's table when it is not the candidate's (an
    operand read from another statement of the filing)."""
    title: str = ""
    """The table's title a bare "Total" row is read under (quoted with the header)."""


@dataclass(frozen=True)
class DerivedCandidate:
    """A derived answer from the cells of one table: operation, operands and the result."""

    passage: Passage
    page_text: str
    operation: Operation
    operands: tuple[OperandCell, ...]
    result: str
    row_ends: tuple[tuple[int, int], ...] = ()
    """(row start, end of the row's last cell) of the operands' rows: a row quoted up to its
    operands' cells shorter than ``min_quote_chars`` is quoted whole."""
    min_quote_chars: int = 20
    unit: tuple[int, int] | None = None
    """Where the page states the table's unit ("(Dollars in millions)"): an amount's operands
    are stated with it ("(31) ... 743" alone is no amount) and it is quoted with the header."""

    @property
    def fit(self) -> float:
        return min(o.fit for o in self.operands)

    @property
    def labels(self) -> list[str]:
        return list(dict.fromkeys(o.cell.label for o in self.operands))

    @property
    def order(self) -> tuple[str, str, int, int]:
        passage = self.passage
        return (passage.doc_id, passage.version, passage.page, self.operands[0].cell.row_start)

    @property
    def unit_text(self) -> str:
        if self.unit is None or any(o.figure.percent for o in self.operands):
            return ""  # a percent's unit is its "%"
        return " ".join(self.page_text[self.unit[0] : self.unit[1]].split()).strip("()")

    @property
    def text(self) -> str:
        return _render(self.operation, self.operands, self.result, self.unit_text)

    def claim(self) -> Claim:
        if any(o.source is not None for o in self.operands):
            return self._claim_across()
        passage = self.passage
        rows: dict[int, int] = {}
        for operand in self.operands:
            cell = operand.cell
            rows[cell.row_start] = max(rows.get(cell.row_start, 0), cell.row_end)
        whole = dict(self.row_ends)
        for start, end in rows.items():
            if len(" ".join(self.page_text[start:end].split())) < self.min_quote_chars:
                rows[start] = max(end, whole.get(start, end))
        header = self.operands[0].cell
        header_start = header.header_start
        if self.unit_text and self.unit is not None and self.unit[0] < header_start:
            header_start = self.unit[0]  # the unit's title line and the header, one quote
        for operand in self.operands:
            if operand.title:
                # A "Total" read under its table's title: the title quoted with the header.
                words = r"\s+".join(re.escape(w) for w in operand.title.split())
                found = list(re.finditer(words, self.page_text[:header_start]))
                if found:
                    header_start = found[-1].start()
        spans = [*rows.items(), (header_start, header.header_end)]
        quotes = [" ".join(self.page_text[start:end].split()) for start, end in spans]
        index = {row: i for i, row in enumerate(rows)}
        derivation = Derivation(
            operation=self.operation,
            operands=[
                Operand(
                    label=f"{o.cell.label}, {o.cell.year}",
                    value=o.cell.value,
                    citation=index[o.cell.row_start],
                )
                for o in self.operands
            ],
            result=self.result,
        )
        where = f"{passage.doc_id}@{passage.version}#{passage.page}:" + ":".join(
            f"{o.cell.row_start}/{o.cell.year}" for o in self.operands
        )
        return Claim(
            claim_id="c-" + sha256_hex(f"{where}:{self.operation.value}")[:10],
            text=self.text,
            citations=[
                Citation(
                    doc_id=passage.doc_id,
                    version=passage.version,
                    page=passage.page,
                    quote=quote,
                    evidence_id=passage.passage_id,
                )
                for quote in quotes
            ],
            derivation=derivation,
        )

    def _claim_across(self) -> Claim:
        """The claim of operands read from two tables (two statements of one filing): each
        operand's row and its table's header with the year, quoted on its own page."""
        citations: list[Citation] = []
        index: list[int] = []
        for operand in self.operands:
            passage, page_text = operand.source or (self.passage, self.page_text)
            cell = operand.cell
            end = cell.row_end
            if len(" ".join(page_text[cell.row_start : end].split())) < self.min_quote_chars:
                end = max(end, cell.row_stop)
            index.append(len(citations))
            for start, stop in ((cell.row_start, end), (cell.header_start, cell.header_end)):
                citations.append(
                    Citation(
                        doc_id=passage.doc_id,
                        version=passage.version,
                        page=passage.page,
                        quote=" ".join(page_text[start:stop].split()),
                        evidence_id=passage.passage_id,
                    )
                )
        derivation = Derivation(
            operation=self.operation,
            operands=[
                Operand(label=f"{o.cell.label}, {o.cell.year}", value=o.cell.value, citation=i)
                for o, i in zip(self.operands, index, strict=True)
            ],
            result=self.result,
        )
        where = ":".join(
            f"{(o.source or (self.passage, ''))[0].page}/{o.cell.row_start}/{o.cell.year}"
            for o in self.operands
        )
        passage = self.passage
        return Claim(
            claim_id="c-"
            + sha256_hex(f"{passage.doc_id}@{passage.version}:{where}:{self.operation.value}")[:10],
            text=self.text,
            citations=citations,
            derivation=derivation,
        )


def derived_candidates(
    request: DerivationRequest,
    evidence: Sequence[Passage],
    pages: SourceLookup,
    *,
    authorities: Sequence[str] = ("primary",),
    min_quote_chars: int = 20,
) -> list[DerivedCandidate]:
    """The derived answers the tables on the evidence's pages give for ``request``."""
    out: list[DerivedCandidate] = []
    seen: set[tuple[str, str, int]] = set()
    tables: list[tuple[Passage, str, Sequence[TableCell]]] = []
    for passage in evidence:
        where = (passage.doc_id, passage.version, passage.page)
        if passage.authority not in authorities or where in seen:
            continue
        seen.add(where)
        source = pages.lookup(*where)
        if source is None:
            continue
        cells = table_cells(source.page.text)
        for table in _tables(cells):
            if part_table(source.page.text, table[0], request.question):
                continue  # a segment's or a guarantor group's table, not the filer's
            candidate = _from_table(request, passage, source.page.text, table, min_quote_chars)
            if candidate is not None:
                out.append(candidate)
            tables.append((passage, source.page.text, table))
    if request.segments and any(_segment_of(request.segments, t) for _, _, t in tables):
        # A segment the question names is a row of the filing's tables ("LatAm"): the whole's
        # rows ("Total backlog", "Net revenue") are no change of the segment's figure.
        out = [c for c in out if all(_segment_of(request.segments, [o.cell]) for o in c.operands)]
    if not out and len(request.subjects) == 2 and request.years:
        out.extend(_across_tables(request, tables, min_quote_chars))
    return out


_SCALE = re.compile(r"\b(thousands|millions|billions)\b", re.IGNORECASE)


def _scale(page_text: str, cell: TableCell) -> str | None:
    """The scale a table states its amounts in ("(Dollars in millions)", "(Millions)"), read
    from its title lines and header; None when it states none."""
    start = max(0, cell.header_start - _TITLE_REACH)
    found = _SCALE.findall(page_text[start : cell.header_end])
    return found[-1].lower() if found else None


_TITLE_REACH = 300
"""How far above a table's header its scale may be stated (the unit's reach)."""


def _across_tables(
    request: DerivationRequest,
    tables: Sequence[tuple[Passage, str, Sequence[TableCell]]],
    min_quote_chars: int,
) -> list[DerivedCandidate]:
    """A share or ratio whose two figures stand in two tables of one filing (capital spending
    on the cash flow statement, net sales on the income statement): each figure the row that
    best states it among the evidence's primary statements of that filing (a page titled as
    one, with a row stating the whole figure: no segment's or discussion's table), in the
    asked year's column, the two tables stating their amounts at one scale."""
    year = request.years[0]
    versions: dict[tuple[str, str], list[tuple[Passage, str, Sequence[TableCell]]]] = {}
    for passage, page_text, table in tables:
        first_row = [c.year for c in table if c.row_start == table[0].row_start]
        if len(first_row) != len(set(first_row)) or year not in first_row:
            continue  # a header naming a year twice, or not the asked year
        versions.setdefault((passage.doc_id, passage.version), []).append(
            (passage, page_text, table)
        )
    out: list[DerivedCandidate] = []
    for found in versions.values():
        chosen: list[tuple[OperandCell, Passage, str]] = []
        phrases = request.phrases or ("", "")
        for subject, name, phrase in zip(
            request.subjects, request.named or ("", ""), phrases, strict=True
        ):
            best: tuple[OperandCell, Passage, str] | None = None
            for passage, page_text, table in found:
                if not statement_row_fit(page_text, subject.split(), passage.context):
                    continue  # not a primary statement stating the figure whole
                row = _best_row(
                    _with_row_names(subject, name, table),
                    table,
                    (year,),
                    question=request.question,
                    phrase=phrase,
                )
                if row is not None and (best is None or row[year].fit > best[0].fit):
                    best = (row[year], passage, page_text)
            if best is None:
                break
            chosen.append(best)
        if len(chosen) != 2:
            continue
        (x, x_passage, x_text), (y, y_passage, y_text) = chosen
        if (x_passage.page, x.cell.header_start) == (y_passage.page, y.cell.header_start):
            continue  # one table: read as one (no candidate there means no answer)
        if x.figure.percent or y.figure.percent:
            continue  # a share of a percentage is no figure a filing reports
        scale = _scale(x_text, x.cell)
        if scale is None or scale != _scale(y_text, y.cell):
            continue  # amounts at two scales (or none stated) are not divided
        operands = (x, OperandCell(y.cell, y.figure, y.fit, source=(y_passage, y_text)))
        try:
            computed = compute(request.operation, [o.figure for o in operands])
        except DerivationError:
            continue
        out.append(
            DerivedCandidate(
                x_passage,
                x_text,
                request.operation,
                operands,
                state_result(computed, [o.figure for o in operands]),
                min_quote_chars=min_quote_chars,
            )
        )
    return out


def _tables(cells: Sequence[TableCell]) -> list[list[TableCell]]:
    """The cells grouped by the header (the table) they stand under."""
    tables: dict[int, list[TableCell]] = {}
    for cell in cells:
        tables.setdefault(cell.header_start, []).append(cell)
    return list(tables.values())


def _from_table(
    request: DerivationRequest,
    passage: Passage,
    page_text: str,
    table: Sequence[TableCell],
    min_quote_chars: int,
) -> DerivedCandidate | None:
    first_row = [c.year for c in table if c.row_start == table[0].row_start]
    columns = sorted({c.year for c in table}, reverse=True)
    multi_year = len(request.subjects) == 1 and request.operation in (
        Operation.DIFFERENCE,
        Operation.PERCENT_CHANGE,
        Operation.COMPARE,
        Operation.AVERAGE,
    )
    if len(first_row) != len(set(first_row)) and not multi_year:
        return None  # a header naming a year twice (two tables side by side): ambiguous
    if multi_year:
        header = page_text[table[0].header_start : table[0].header_end]
        stated = _YEAR.findall(header)
        if not table[0].block and len(stated) != len(set(stated)):
            # "Income Before Tax Segment Sales Percent of Segment Sales" over "2022 2021 2022
            # 2021 2022 2021", its blocks not told apart: whose years the cells are is unknown
            return None
        table = _asked_part(request, table)
        if not table:
            return None
        first_row = [c.year for c in table if c.row_start == table[0].row_start]
        if len(first_row) != len(set(first_row)):
            return None  # blocks of one year twice, none of them asked: ambiguous
        years = _years_of(request, columns)
        if years is None:
            return None
        if percent_table(page_text, table[0]) and not _ASKS_SHARE.search(request.question):
            return None  # shares of sales ("(Percent of net sales)"): no change of an amount
        subject = request.subjects[0]
        segment = _segment_of(request.segments, table)
        titles: dict[int, str] = {}
        if segment:
            # "LatAm's net revenue", "the Defense, Space & Security backlog": the segment's row
            # alone, of the table whose title, block or row states the measure asked (the
            # segment's row of the revenue table is no change of its backlog).
            title = table_title(page_text, table[0])
            table = [
                c
                for c in table
                if covered_share(segment.split(), _stated(c)) == 1
                and covered_share(subject.split(), [*_stated(c), *terms(c.label), *terms(title)])
                >= MIN_MEASURE
            ]
            titles = dict.fromkeys((c.row_start for c in table), title) if title else {}
            subject = f"{subject} {segment}"
        # A bare "Total" row is the whole of what its table's title names ("The following
        # table summarizes our Research and development expense:" over "Total $2,852 $2,249").
        titles |= {
            c.row_start: table_title(page_text, c)
            for c in table
            if [t for t in terms(c.name or c.label)] == ["total"]
        }
        row = _best_row(subject, table, years, question=request.question, titles=titles)
        if row is None:
            return None
        operands = [row[year] for year in years]
    else:
        year = request.years[0] if request.years else columns[0]
        if year not in columns:
            return None
        chosen: list[OperandCell] = []
        names = request.named or ("",) * len(request.subjects)
        phrases = request.phrases or ("",) * len(request.subjects)
        for subject, name, phrase in zip(request.subjects, names, phrases, strict=True):
            found = _best_row(
                _with_row_names(subject, name, table),
                table,
                (year,),
                exclude={c.cell.row_start for c in chosen},
                question=request.question,
                phrase=phrase,
            )
            if found is None:
                return None
            chosen.append(found[year])
        operands = chosen
    if request.operation in (Operation.SHARE, Operation.RATIO) and any(
        o.figure.percent for o in operands
    ):
        return None  # a share of a percentage is no figure a filing reports
    try:
        computed = compute(request.operation, [o.figure for o in operands])
    except DerivationError:
        return None
    result = state_result(computed, [o.figure for o in operands])
    row_ends: dict[int, int] = {}
    for cell in table:
        # A row of a table of blocks ("MedTech 4,607 4,373" of "Income Before Tax") runs on
        # with the later blocks' values: the whole line is the row's quote.
        end = max(cell.row_end, cell.row_stop)
        row_ends[cell.row_start] = max(row_ends.get(cell.row_start, 0), end)
    return DerivedCandidate(
        passage,
        page_text,
        request.operation,
        tuple(operands),
        result,
        row_ends=tuple(row_ends.items()),
        min_quote_chars=min_quote_chars,
        unit=table_unit(page_text, operands[0].cell),
    )


_ASKS_SHARE = re.compile(
    r"\b(?:percent(?:age)?|%)\s+of\b|\bas\s+an?\s+(?:share|percent(?:age)?|%|proportion)\b|"
    r"\bmargins?\b|\bpercentage\s+points?\b|\bshare\s+of\b|\bratio\b|\brates?\b(?!\s+of\s+"
    r"(?:growth|increase|decrease|decline|change))",
    re.IGNORECASE,
)
"""A question asking of a share, a margin or a rate (whose table may state it without "%")."""


def _asked_part(request: DerivationRequest, table: Sequence[TableCell]) -> list[TableCell]:
    """The cells of the block of columns the question asks of ("Net Revenue" of "Net Revenue
    Operating Profit/(Loss)" over "2022 2021 2020 2022 2021 2020"): the block whose name the
    question states whole, the one stating most of it when several do; no cell when the table
    has blocks and the question names none. A table of no blocks is all asked."""
    blocks = {c.block for c in table if c.block}
    if not blocks:
        return list(table)
    asked = terms(request.question)
    named = [
        (len(terms(block)), block)
        for block in blocks
        if terms(block) and covered_share(terms(block), asked) == 1
    ]
    if not named:
        return []
    block = max(named)[1]
    return [c for c in table if c.block == block]


def _segment_of(segments: Sequence[str], table: Sequence[TableCell]) -> str:
    """The segment (one of the question's names) a row of the table is: a row whose own name
    it states whole and mostly is ("LatAm", "Defense, Space & Security"); '' when no row is one
    (the filer's name, no row's)."""
    for segment in segments:
        wanted = segment.split()
        if any(
            covered_share(wanted, label) == 1 and covered_share(label, wanted) >= MIN_FIT
            for label in {tuple(terms(cell.name or cell.label)) for cell in table}
        ):
            return segment
    return ""


def _stated(cell: TableCell) -> list[str]:
    """The terms a cell's row states: its label's, and its block's name."""
    return [*terms(cell.name or cell.label), *terms(cell.block)]


def _years_of(request: DerivationRequest, columns: Sequence[int]) -> tuple[int, ...] | None:
    """The columns to compute over, newest first: the years named (one named year is compared
    with the year before it), else the table's two latest columns."""
    if request.operation is Operation.AVERAGE:
        span = range(min(request.years), max(request.years) + 1)
        wanted = tuple(sorted(span, reverse=True))
    elif len(request.years) >= 2:
        wanted = (max(request.years), min(request.years))
    elif len(request.years) == 1:
        wanted = (request.years[0], request.years[0] - 1)
    elif len(columns) >= 2:
        wanted = (columns[0], columns[1])
    else:
        return None
    return wanted if all(y in columns for y in wanted) else None


def _with_row_names(subject: str, name: str, table: Sequence[TableCell]) -> str:
    """The subject with the names it uses when a row of the table states them all (a
    segment's row, "Defense, Space & Security"); without them otherwise (the filer's name)."""
    wanted = name.split()
    if wanted and any(
        covered_share(wanted, label) == 1 and covered_share(label, wanted) >= MIN_FIT
        for label in {tuple(terms(cell.name or cell.label)) for cell in table}
    ):
        return f"{subject} {name}"  # a row that is the name ("Defense, Space & Security")
    return subject


def _best_row(
    subject: str,
    table: Sequence[TableCell],
    years: Sequence[int],
    *,
    exclude: set[int] | frozenset[int] = frozenset(),
    question: str = "",
    phrase: str = "",
    titles: dict[int, str] | None = None,
) -> dict[int, OperandCell] | None:
    """The row whose label best states ``subject`` and has a figure in every year asked (and,
    for a derived measure's operand, states its ``phrase`` whole)."""
    wanted = subject.split()
    rows: dict[int, dict[int, OperandCell]] = {}
    for cell in table:
        if cell.row_start in exclude or cell.year not in years:
            continue
        figure = parse_figure(cell.value)
        if figure is None:
            continue  # a dash: no figure
        # "Total" says no more than the row's name ("Total current liabilities"); nor do the
        # headings its label runs on from ("Cash Flows from Investing Activities").
        own = cell.name or cell.label
        title = (titles or {}).get(cell.row_start, "")
        # a bare "Total" (or a segment's row) of what its table's title names
        described = f"{title} {own}" if title else own
        label_terms = [t for t in terms(described) if t != "total"]
        fit = covered_share(
            wanted, [*measured_terms(cell.label, question), *terms(cell.block), *terms(title)]
        )
        # A label saying much more than the subject is a narrower row ("Operating income
        # margin" for "margin"); the share of the label the subject covers breaks ties.
        precision = covered_share(label_terms, wanted) if label_terms else 0.0
        if title and fit >= 1:
            # The whole of what its title names, as a row naming it word for word is: no
            # narrower row for the title's other words ("The following table summarizes").
            precision = 1.0
            cell = replace(cell, label=f"{title.rstrip(' :')}: {cell.label}")
        if fit < MIN_FIT or precision < MIN_SPECIFICITY or not _headed(wanted, own):
            continue
        if question and unasked_subset(own, question):
            continue  # "Other current assets" states no operand "current assets" names
        if phrase and not phrase_said(phrase, own):
            continue  # "Total assets" is not the "current assets" a working capital is of
        rows.setdefault(cell.row_start, {})[cell.year] = OperandCell(
            cell, figure, round(fit + 0.1 * precision, 6), title=title if fit >= 1 else ""
        )
    complete = [row for row in rows.values() if all(y in row for y in years)]
    if not complete:
        return None
    # Equal fits: the row stating more of the question's own words, stop words too ("current
    # assets": "Total current assets" over "Total assets"), then the one saying least besides
    # them ("Total current assets" over "Other current assets"), then the first.
    asked = set(_WORD.findall(question.lower()))

    def words(row: dict[int, OperandCell]) -> tuple[int, int]:
        cell = next(iter(row.values())).cell
        said = _WORD.findall((cell.name or cell.label).lower())
        return (sum(w in asked for w in said), -sum(w not in asked and w != "total" for w in said))

    return max(
        complete, key=lambda row: (min(o.fit for o in row.values()), *words(row), -_first(row))
    )


_WORD = re.compile(r"[a-z][a-z&'-]*")
_PREPOSITION = re.compile(r"\b(?:of|from|on|to|for|by|in|at|with|under)\b", re.IGNORECASE)


def _headed(wanted: Sequence[str], label: str) -> bool:
    """Does the row's leading phrase, what its figure is (the words before its first
    preposition: "Gain" of "Gain on sale of businesses", "Cost" of "Cost of sales"), state a
    part of the subject, in its own words or as the start of a synonym ("Purchases of
    property, plant and equipment" for capital expenditure)? A subject stated only after it
    ("sales" in "Proceeds from sale of businesses") qualifies another figure."""
    cut = _PREPOSITION.search(label)
    if cut is None:
        return True
    n = len(terms(label[: cut.start()]))
    if n == 0:
        return True  # "Of which: ...": no leading phrase to read
    label_terms = terms(label)
    keys = leading_keys(label_terms, n)
    return any(unit_matched(u, keys, label_terms[:n]) for u in match_units(wanted))


def _first(row: dict[int, OperandCell]) -> int:
    return min(o.cell.row_start for o in row.values())


def _value(operand: OperandCell) -> str:
    cell = operand.cell
    return ("$" if cell.dollars and "$" not in cell.value else "") + cell.value


def _own(operand: OperandCell) -> str:
    """How a claim names an operand's row: by its own name, without the headings its label
    runs on from ("Depreciation and amortization", not "Adjustments to reconcile net income
    including noncontrolling interest ... Depreciation and amortization"), unless that name is
    only a total's."""
    cell = operand.cell
    return cell.name if [t for t in terms(cell.name) if t != "total"] else cell.label


def _render(
    operation: Operation, operands: Sequence[OperandCell], result: str, unit: str = ""
) -> str:
    """The claim's text: the operands as quoted, with their rows and years (and the table's
    unit), and the result."""
    first = operands[0].cell
    unit = f" ({unit})" if unit else ""
    percent = operands[0].figure.percent
    two_rows = operands[0].cell.row_start != operands[-1].cell.row_start
    if operation is Operation.DIFFERENCE and two_rows:
        # One figure less another of the same year ("Total current assets ... minus Total
        # current liabilities ..."): the difference, signed ("less" would read as a decrease).
        x, y = operands
        return (
            f"{_own(x)} {_value(x)} minus {_own(y)} {_value(y)} in {first.year}{unit}: "
            f"difference {result}"
        )
    if operation in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE, Operation.COMPARE):
        new, old = operands
        stated = (
            f"{first.label}: {_value(new)} in {new.cell.year} compared with {_value(old)} in "
            f"{old.cell.year}{unit}"
        )
        if operation is Operation.COMPARE:
            return f"{stated}; " + result_phrase(
                operation, result, percent, labels=(str(new.cell.year), str(old.cell.year))
            )
        negative = all(o.figure.value < 0 for o in operands)
        return f"{stated}: " + result_phrase(operation, result, percent, negative_operands=negative)
    if operation is Operation.AVERAGE:
        values = ", ".join(f"{_value(o)} in {o.cell.year}" for o in operands)
        return f"{first.label}: {values}{unit}; " + result_phrase(operation, result, percent)
    x, y = operands
    stated = f"{_own(x)} {_value(x)} and {_own(y)} {_value(y)} in {first.year}{unit}"
    return f"{stated}: " + result_phrase(operation, result, percent)


def result_phrase(
    operation: Operation,
    result: str,
    percent_operands: bool,
    *,
    labels: tuple[str, str] = ("the first", "the second"),
    negative_operands: bool = False,
) -> str:
    """How a claim states a computed result: 'a decrease of 1.7 percentage points', 'an
    increase of 3.2%', 'share 20.8%', '2022 is lower than 2021'."""
    if operation is Operation.COMPARE:
        relation = {"greater": "higher than", "less": "lower than"}.get(result, "the same as")
        return f"{labels[0]} is {relation} {labels[1]}"
    if operation in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE):
        if negative_operands:
            # A loss that shrinks "increases", an expense written in parentheses that falls
            # from (1,284) to (1,246) "grows" by 3.0%: state the signed change, no direction.
            return f"a change of {result}"
        magnitude = result.lstrip("-")
        if magnitude.rstrip("%").strip("0.") == "":
            direction = "a change"
        else:
            direction = "a decrease" if result.startswith("-") else "an increase"
        points = (
            " percentage points" if operation is Operation.DIFFERENCE and percent_operands else ""
        )
        return f"{direction} of {magnitude}{points}"
    return f"{operation.value} {result}"


# Head counts stated in sentences ------------------------------------------------------------


@dataclass(frozen=True)
class HeadcountAsk:
    """A question asking how many people a filer employs: of which scope ("whole": all of them,
    "inside": within the United States, "outside": outside it), in which years, and whether it
    asks the count's change between two years (a difference or a percent change) instead."""

    scope: str
    years: tuple[int, ...]
    change: Operation | None = None


@dataclass(frozen=True)
class PeopleCount:
    """A number of people a sentence states employed: the figure as written, where it stands
    in the sentence, and its scope ("whole", "inside", "outside")."""

    value: str
    start: int
    end: int
    scope: str
    name: str = ""
    """What the sentence calls the people counted ("Boeing’s total workforce", "people
    worldwide", "employed in the United States"): how a claim computing from it names it."""


HEADCOUNT_ASKED = re.compile(
    r"\bhead[\s-]?counts?\b|\bworkforce\b|\b(?:employee|staff)\s+(?:count|numbers?|size|base)\b|"
    r"\bhow\s+many\s+(?:[\w'’-]+\s+){0,4}?(?:employees|people|persons|workers|staff)\b|"
    r"\bnumber\s+of\s+(?:[\w'’-]+\s+){0,2}?(?:employees|people|persons|workers|staff)\b|"
    r"\bhow\s+many\s+(?:did|does|do)\s+[\w&.' -]{1,40}?\s+employ\b|"
    r"\btotal\s+(?:employees|staff)\b",
    re.IGNORECASE,
)
"""A question asking how many people a filer employs."""
_WORKING = re.compile(
    r"\b(?:head[\s-]?counts?|workforce|employ\w*|staff\w*|workers?|work(?:s|ed|ing)?|"
    r"personnel)\b",
    re.IGNORECASE,
)
"""A question's word saying the people asked of work for the filer."""
_PART_ASKED = re.compile(
    r"\b(?:unions?|unionized|bargaining|hired?|hires|hiring|new|women|female|males?|veterans?|"
    r"minorit\w*|attrition|turnover|resign\w*|trained|training|engage\w*|particip\w*|"
    r"survey\w*|volunteer\w*|per|average|age|segment|division|business|unit|plants?|"
    r"facilit\w*|sites?|countr(?:y|ies)|regions?|europe|asia|latin|americas?|china|ireland|"
    r"canada|mexico|india|japan|germany|states?\s+of|more|fewer|than|ratio)\b",
    re.IGNORECASE,
)
"""A part of the workforce by another trait, or two counts compared: not the number employed."""
_SHARE_ASKED = re.compile(r"\b(?:percent\w*|share|proportion|rate|fraction)\b|%", re.IGNORECASE)
_COUNT_CHANGE = re.compile(
    r"\b(?:grow|grew|grown|growth|increase[sd]?|decrease[sd]?|decline[sd]?|change[sd]?|rise|"
    r"rose|fell|fall|drop(?:ped)?|shr[iu]nk|shrank)\b",
    re.IGNORECASE,
)
_BY_HOW_MANY = re.compile(r"\bby\s+how\s+many\b|\bhow\s+many\s+(?:more|fewer|less)\b", re.I)
OUTSIDE_US = re.compile(
    r"\boutside\s+(?:of\s+)?(?:the\s+)?(?:u\.?s\.?a?|united\s+states|us|america)\b|"
    r"\b(?:international(?:ly)?|abroad|overseas|non-u\.?s\.?|foreign)\b",
    re.IGNORECASE,
)
INSIDE_US = re.compile(
    r"\b(?:in|within|inside|across)\s+(?:the\s+)?(?:u\.?s\.?a?|united\s+states|us)\b|"
    r"\b(?:domestic(?:ally)?|u\.?s\.?[- ]based)\b",
    re.IGNORECASE,
)
WHOLE_COMPANY = re.compile(r"\b(?:worldwide|global(?:ly)?|total|overall|in\s+all)\b", re.IGNORECASE)


def headcount_ask(question: str, profile: QuestionProfile) -> HeadcountAsk | None:
    """The head count ``question`` asks for ("3M global headcount 2021", "how many people did
    PepsiCo employ outside the United States", "Boeing headcount growth 2022 vs 2021"), or None
    when it asks of a part of the workforce by another trait (union members, a segment, a
    region), a share of it, or no head count."""
    text = normalise_question(question)
    if HEADCOUNT_ASKED.search(text) is None or _PART_ASKED.search(text) is not None:
        return None
    if _qualified(text, profile.names):
        return None  # "Amcor rigid packaging headcount": a part of the filer's workforce
    if _WORKING.search(text) is None:
        return None  # "how many people sit on the board": people, but not its employees
    years = tuple(profile.period_years)
    change: Operation | None = None
    if _COUNT_CHANGE.search(text) is not None:
        if _BY_HOW_MANY.search(text) is not None:
            change = Operation.DIFFERENCE
        else:
            asked = _asked_change(text)
            change = asked[0] if asked is not None else Operation.DIFFERENCE
        if change not in (Operation.DIFFERENCE, Operation.PERCENT_CHANGE) or len(years) > 2:
            return None
    elif _SHARE_ASKED.search(text) is not None or len(years) > 1:
        return None  # "what percentage of employees ...", two years and no change: not one count
    outside = OUTSIDE_US.search(text) is not None
    inside = INSIDE_US.search(text) is not None and WHOLE_COMPANY.search(text) is None
    if outside and inside:
        return None
    scope = "outside" if outside else "inside" if inside else "whole"
    return HeadcountAsk(scope, years, change)


_HEAD_NOUN = re.compile(
    r"\b(?:head[\s-]?counts?|employees?|staff|workforce|workers|people|personnel)\b", re.I
)
_WHOLE_WORDS = frozenset(
    re.findall(
        r"\S+",
        "total global worldwide overall whole entire company company-wide full-time fte domestic "
        "international us u.s. american many the of its their our all current permanent number "
        "what was is were are how did does do in at for a an by to size big year-end end",
    )
)
"""Words that may stand before the head-count noun without naming a part of the workforce."""


def _qualified(text: str, names: Sequence[str]) -> bool:
    """Does the question qualify its head-count noun by a word naming a part of the workforce
    ("Amcor rigid packaging headcount", "the flexibles employees")? The one or two words
    right before the noun, up to the filer's name or a possessive, must be words of the whole
    (``_WHOLE_WORDS``: "global", "total", "worldwide") or of asking."""
    named = {t.lower() for name in names for t in name.split()}
    for found in _HEAD_NOUN.finditer(text):
        words = re.findall(r"[\w&.’'-]+|[^\w\s]", text[: found.start()])[-2:]
        for word in reversed(words):
            low = word.lower().strip(".")
            if not word[:1].isalnum() or low in named or low.endswith(("'s", "’s")):
                break  # punctuation, the filer's name or a possessive: no part named
            if low.strip("()") not in _WHOLE_WORDS and not low.isdigit():
                return True
        return False
    return False


_STATED_COUNT = re.compile(r"(?<![\d.,$])(\d{1,3}(?:,\d{3})+)(?![\d,]*\s*%|\.\d)", re.IGNORECASE)
_EMPLOYING = re.compile(
    r"\b(?:employ(?:ed|s)?|workforce\s+(?:was|is|of|totall?ed|numbered)|head[\s-]?count|"
    r"(?:had|have|has)\s+(?:approximately\s+|about\s+|around\s+|nearly\s+|over\s+|more\s+than\s+)?"
    r"\d{1,3}(?:,\d{3})+\s+(?:full[- ]time\s+)?(?:employees|people|team\s+members|associates))\b",
    re.IGNORECASE,
)
"""A sentence stating how many people a filer employs ("the Company employed 93,516 people",
"Boeing's total workforce was approximately 156,000", "we had approximately 41,000
employees")."""
_NOT_HEADCOUNT = re.compile(
    r"\b(?:hired?|hiring|new\s+employees|unions?|union-represented|feedback|survey\w*|"
    r"respon\w*|particip\w*|trained|volunteer\w*|members|leverage|segment|division|"
    r"who\s+work|plants|facilities|retire\w*|pension\w*|benefit\w*|shares?|grant\w*|"
    r"acqui\w*|contractors?|represented|constitut\w*)\b",
    re.IGNORECASE,
)
"""Words of a sentence counting people other than those the filer employs (hires, union
members, a segment's staff, people in the plants, plan participants), or no people."""
PEOPLE_NOUN = re.compile(
    r"\b(?:employees?|people|persons|workers|staff|workforce|head[\s-]?count|employed|"
    r"full[- ]time\s+equivalents|team\s+members|associates|colleagues)\b",
    re.IGNORECASE,
)
"""A word naming people employed, which a figure beside it counts ("95,000 people")."""
_SENTENCE_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def people_counts(sentence: str) -> list[PeopleCount]:
    """The numbers of people ``sentence`` states the filer employs, each with its scope read
    from the words after it up to the next figure ("37,000 employed in the United States",
    "55,000 employed internationally", "315,000 people worldwide"); a count with no scope of
    its own is of the whole workforce. Empty for a sentence that states no employment
    ("employed"/"workforce was"/"had N employees"); a count of people hired, in a union, a
    segment or the plants (said in the words around it) is left out."""
    if _EMPLOYING.search(sentence) is None:
        return []
    found: list[PeopleCount] = []
    matches = list(_STATED_COUNT.finditer(sentence))
    for i, match in enumerate(matches):
        stop = matches[i + 1].start() if i + 1 < len(matches) else len(sentence)
        digit = re.search(r"\d", sentence[match.end() : stop])
        after = sentence[match.end() : match.end() + digit.start() if digit else stop]
        before = sentence[max(0, match.start() - 60) : match.start()]
        near = " ".join(after.split()[:5])
        if not (PEOPLE_NOUN.search(near) or _EMPLOYING.search(before + match.group(1) + near)):
            continue
        if _YEAR_WORDS.search(" ".join(before.split()[-2:])):
            continue  # "December 31, 2022": no count
        if _NOT_HEADCOUNT.search(before) or _NOT_HEADCOUNT.search(" ".join(after.split()[:8])):
            continue  # "the Rigid Packaging Segment employed", "50,000 union members"
        scope = "outside" if OUTSIDE_US.search(near) else "inside" if INSIDE_US.search(near) else ""
        name = _count_name(before, after)
        found.append(
            PeopleCount(match.group(1), match.start(), match.end(), scope or "whole", name)
        )
    return found


_NAME_END = re.compile(
    r"[,;:()]|\.(?:\s|$)|\b(?:as\s+of|at|on|with|including|and|which|who|located|engaged|as)\b",
    re.I,
)
_WORKFORCE_NAME = re.compile(
    r"((?:[\w’'&.-]+\s+){0,2}(?:workforce|head[\s-]?count|employees))\s+"
    r"(?:was|were|is|are|of|totall?ed|numbered)\b",
    re.IGNORECASE,
)


def _count_name(before: str, after: str) -> str:
    """The words of a sentence naming the people a count counts: the noun phrase after the
    figure ("people worldwide", "employed in the United States"), or the subject it is
    stated of before it ("Boeing’s total workforce was approximately 156,000")."""
    found = _NAME_END.search(after)
    name = " ".join((after[: found.start()] if found else after).split())
    if PEOPLE_NOUN.search(name):
        return name
    subject = list(_WORKFORCE_NAME.finditer(before))
    if subject:
        return " ".join(subject[-1].group(1).split())
    return name or "people employed"


_YEAR_WORDS = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)\b",
    re.IGNORECASE,
)


def _count_years(sentence: str, counts: Sequence[PeopleCount], version: str) -> list[int | None]:
    """The year each count of a sentence is of: the sentence's one year for all, its years in
    order for as many counts ("As of December 31, 2022 and 2021, ... 156,000 and 142,000"), the
    filing's fiscal year for a sentence naming none; None when that cannot be told."""
    years = list(dict.fromkeys(int(y) for y in _SENTENCE_YEAR.findall(sentence)))
    if not years:
        own = re.findall(r"(?:19|20)\d\d", version)  # "FY2022"
        return [int(own[0]) if own else None for _ in counts]
    if len(years) == 1:
        return [years[0] for _ in counts]
    if len(years) == len(counts):
        return list(years)
    return [None for _ in counts]


def headcount_claims(
    ask: HeadcountAsk, sentences: Sequence[tuple[Passage, str]]
) -> Claim | int | None:
    """The answers the evidence's sentences give a head-count question: the index in
    ``sentences`` of the first one stating the count of the asked scope and year (quoted as
    it is), else a derived claim computing it from counts one sentence states: the count
    outside the United States as the whole less those within it (or the converse), a change
    between two years as the difference or percent change of the two years' counts. Every
    operand is a figure the quoted sentence states; the engine computes the result. None
    when no sentence gives it (nothing is guessed: a count is never computed from a share)."""
    read: list[tuple[int, Passage, str, list[tuple[PeopleCount, int | None]]]] = []
    for i, (passage, sentence) in enumerate(sentences):
        stated = people_counts(sentence)
        if stated:
            years = _count_years(sentence, stated, passage.version)
            read.append((i, passage, sentence, list(zip(stated, years, strict=True))))
    if ask.change is None:
        year = ask.years[0] if ask.years else None
        fits = [
            (y or 0, -i)
            for i, _, _, counts in read
            for count, y in counts
            if count.scope == ask.scope and (year is None or y == year)
        ]
        if fits:
            return -max(fits)[1]  # the latest year's, the first sentence stating it
        for _, passage, sentence, counts in read:
            claim = _scope_difference(ask.scope, year, passage, sentence, counts)
            if claim is not None:
                return claim
        return None
    for _, passage, sentence, counts in read:
        claim = _count_change(ask, passage, sentence, counts)
        if claim is not None:
            return claim
    return None


_SCOPE_NAMES = {
    "whole": "in all",
    "inside": "in the United States",
    "outside": "outside the United States",
}


def _scope_difference(
    scope: str,
    year: int | None,
    passage: Passage,
    sentence: str,
    counts: Sequence[tuple[PeopleCount, int | None]],
) -> Claim | None:
    """The count of one scope as the whole less the other scope, both stated by ``sentence``
    for one year (the asked one, when asked)."""
    if scope == "whole":
        return None  # a whole is stated, never summed from parts here
    other = "inside" if scope == "outside" else "outside"
    by_scope: dict[str, tuple[PeopleCount, int | None]] = {}
    for count, y in counts:
        if year is None or y == year:
            by_scope.setdefault(count.scope, (count, y))
    if "whole" not in by_scope or other not in by_scope:
        return None
    (whole, y), (part, _) = by_scope["whole"], by_scope[other]
    when = f" in {y}" if y else ""
    # In the words of the derivation ("compared with", "difference"): a connective the
    # evidence has no counterpart for ("minus") reads as an edit of the quoted sentence.
    return _sentence_claim(
        Operation.DIFFERENCE,
        passage,
        sentence,
        [
            (f"{whole.name}, {y}" if y else whole.name, whole),
            (f"{part.name}, {y}" if y else part.name, part),
        ],
        f"People employed{when}: {whole.value} {whole.name} compared with {part.value} "
        f"{part.name}: a difference of {{result}} people employed {_SCOPE_NAMES[scope]}",
        count_asked=True,
    )


def _count_change(
    ask: HeadcountAsk,
    passage: Passage,
    sentence: str,
    counts: Sequence[tuple[PeopleCount, int | None]],
) -> Claim | None:
    """The change of the asked scope's count between two years ``sentence`` states it for (the
    asked years, when asked): the later less the earlier, or its percent change."""
    of_scope = {y: count for count, y in counts if count.scope == ask.scope and y is not None}
    years = sorted(of_scope, reverse=True)
    if ask.years:
        years = [y for y in years if y in ask.years]
        if len(ask.years) == 2 and len(years) != 2:
            return None
    if len(years) < 2:
        return None
    new, old = years[0], years[1]
    operation = ask.change or Operation.DIFFERENCE
    name = of_scope[new].name
    return _sentence_claim(
        operation,
        passage,
        sentence,
        [(f"{name}, {new}", of_scope[new]), (f"{name}, {old}", of_scope[old])],
        f"{name[:1].upper()}{name[1:]}: {of_scope[new].value} in {new} compared with "
        f"{of_scope[old].value} in {old}: {{result}}",
    )


def _sentence_claim(
    operation: Operation,
    passage: Passage,
    sentence: str,
    operands: Sequence[tuple[str, PeopleCount]],
    template: str,
    *,
    count_asked: bool = False,
) -> Claim | None:
    """A derived claim whose operands are figures ``sentence`` states, quoted whole as the
    claim's one citation, its text ``template`` with the result (as a count when
    ``count_asked``, else as a change); None when the engine cannot compute it."""
    figures = [parse_figure(count.value) for _, count in operands]
    if any(f is None for f in figures):
        return None
    read = [f for f in figures if f is not None]
    try:
        computed = compute(operation, read)
    except DerivationError:
        return None
    result = state_result(computed, read)
    quote = " ".join(sentence.split())
    phrase = result if count_asked else result_phrase(operation, result, False)
    text = template.format(result=phrase)
    where = f"{passage.doc_id}@{passage.version}#{passage.page}:{quote}:{operation.value}"
    return Claim(
        claim_id="c-" + sha256_hex(where)[:10],
        text=text,
        citations=[
            Citation(
                doc_id=passage.doc_id,
                version=passage.version,
                page=passage.page,
                quote=quote,
                evidence_id=passage.passage_id or None,
            )
        ],
        derivation=Derivation(
            operation=operation,
            operands=[
                Operand(label=label, value=count.value, citation=0) for label, count in operands
            ],
            result=result,
        ),
    )
