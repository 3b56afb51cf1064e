"""Rows and cells of the financial tables in a page's text, with their column years.

PDF text extraction flattens a table into a stream: a row's label, then its cells ("Purchases
of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)"), one line or one token per
cell depending on the extractor, under a header of column years ("2018 2017 2016"). Reading
the page as a stream of whitespace-separated tokens makes the parse independent of the layout:
a row is a run of words followed by a run of numeric cells, a header a run of years.

A cell is answered with its row label and its column year, each quoted from the page: the row
from its label to the cell, the header around its years. The verifier then finds both quotes
on the page and the cell's figure and year in them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations

from evidencegate.lexicon import lexicon
from evidencegate.text import terms

__all__ = [
    "TableCell",
    "measured_terms",
    "part_table",
    "part_title",
    "percent_table",
    "table_cells",
    "table_title",
    "table_unit",
    "unasked_subset",
]

_TOKEN = re.compile(r"\S+")
_FOOTNOTE = re.compile(r"^\(\d\)$")
_DAY = re.compile(r"^\d{1,2},?$")
_MONTH = re.compile(
    r"^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?,?$",
    re.IGNORECASE,
)
_ONE_YEAR = re.compile(
    r"^[ \t]*(?:fiscal\s+)?years?\s+ended\b[^\n]*?\b(?P<year>(?:19|20)\d\d)[ \t]*\n"
    r"(?P<names>(?:[^\n\d$%]*\n){0,3}[^\n\d$%]*\b(?:worldwide|total|consolidated))[ \t]*\n"
    r"(?=[^\n]*\d)",
    re.IGNORECASE | re.MULTILINE,
)
"""A table of one year over columns of parts closing with their whole ("Year ended December
31, 2017" / "United States Asia Pacific ... Worldwide", "(in millions) Flexibles Rigid
Packaging Total"), its first row next: lines of names with no figure."""
_TABLE_HEAD = re.compile(
    r"^[ \t]*(?:\((?:dollars\s+|\$\s*|amounts\s+)?(?:in\s+)?(?:millions|thousands|billions)\b"
    r"|(?:fiscal\s+)?(?:years?|three\s+months|six\s+months|nine\s+months|twelve\s+months)"
    r"\s+ended\b)",
    re.IGNORECASE | re.MULTILINE,
)
"""A line heading a table: its unit ("(Millions)", "(in millions)") or its period ("Years ended
December 31")."""


def _after_column_names(text: str, tokens: list[_Tok], j: int) -> int:
    """The token after the words closing a header's line ("2022 2021 Change Change Change"):
    columns named after the years, no part of the first row's label. ``j`` itself when a
    figure follows on that line (a page setting the header and its rows on one line)."""
    k = j
    while k < len(tokens) and "\n" not in text[tokens[k - 1].end : tokens[k].start]:
        if tokens[k].numeric or tokens[k].text == "$":
            return j
        k += 1
    if k < len(tokens) and (tokens[k].numeric or tokens[k].text == "$"):
        return j  # a row of values alone under "2016 ... 2020 Total": those words label it
    return k


def _footnote_between(tokens: list[_Tok], j: int) -> bool:
    """Is token ``j`` a footnote mark between two years of a header ("2019 (1) 2018")?"""
    return bool(_FOOTNOTE.match(tokens[j].text)) and tokens[j - 1].year and tokens[j + 1].year


def _ends_phrase(text: str, tokens: list[_Tok], i: int) -> bool:
    """Does the year at token ``i`` end a phrase of its line ("2016 vs 2015"), the years of the
    header standing on the next line?"""
    return (
        i > 0
        and not tokens[i - 1].numeric
        and "\n" not in text[tokens[i - 1].end : tokens[i].start]
        and "\n" in text[tokens[i].end : tokens[i + 1].start]
    )


_YEAR = re.compile(r"^(?:19|20)\d\d$")
_NUMBER = re.compile(r"^\(?-?\$?\d{1,3}(?:,\d{3})*(?:\.\d+)?\)?%?$|^\(?-?\$?\d+(?:\.\d+)?\)?%?$")
_DASH = {"—", "–", "-", "—%"}
_MIN_HEADER_CHARS = 24
_MAX_LABEL_WORDS = 24
_SENTENCE_BREAK = re.compile(r"[a-z)][.;]\s+[A-Z]")


@dataclass(frozen=True)
class TableCell:
    """One cell: its row label, column year, value, and the page spans to quote."""

    label: str
    year: int
    value: str
    dollars: bool
    row_start: int
    row_end: int
    header_start: int
    header_end: int
    column: int
    columns: int
    row_stop: int = 0
    """The end of the row's last cell: the whole row, when the span up to this cell is too
    short a quote ("Gross profit 2,820")."""
    name: str = ""
    """The row's own name, without the headings the label runs on from ("Assets Current
    assets: Cash and cash equivalents" names "Cash and cash equivalents")."""
    heading: str = ""
    """The heading a row with none of its own stands under: the one the rows above it in its
    table run on from ("Net earnings per share" over "Basic $ 6.83" and "Diluted $ 6.73"),
    up to a total closing that heading's block; kept only where another row of the table
    has the same name."""
    block: str = ""
    """The name of the block of columns the cell stands in, when its header repeats the same
    years under a title line naming each block ("Net Revenue Operating Profit/(Loss)" over
    "2022 2021 2020 2022 2021 2020"): the table's title, for this cell, is its block's name."""


@dataclass
class _Tok:
    text: str
    start: int
    end: int

    @property
    def numeric(self) -> bool:
        if self.text.endswith(")") and not self.text.startswith("("):
            return False  # "3)" closes a reference ("(Notes 1 and 3)"); a cell is "(1,234)"
        return bool(_NUMBER.match(self.text)) or self.text in _DASH

    @property
    def year(self) -> bool:
        return bool(_YEAR.match(self.text.rstrip("*")))  # "2019*": a year with its footnote


def _row_label(label: str) -> bool:
    """Can ``label`` name a table row? Words, but not prose: a run of text the stream read
    before a number ("In fiscal 2020 and 2021, the Company entered into ... 1,010") is a
    sentence of the page, not a row, when it ends one sentence and starts another or runs
    longer than any row label; nor is a run with a row's figures inside it ("Revenues
    $17,611 $16,328 $15,543 % of total company revenues")."""
    words = label.split()
    numeric = [bool(_NUMBER.match(w)) and not _YEAR.match(w) for w in words]
    return (
        re.search(r"[A-Za-z]{3}", label) is not None
        and len(words) <= _MAX_LABEL_WORDS
        and _SENTENCE_BREAK.search(label) is None
        and not any(numeric[i] and numeric[i + 1] for i in range(len(numeric) - 1))
    )


_TITLE_LINES = 4
_ACRONYM = re.compile(r"(?<![\w.&(-])[A-Z]{2,5}(?![\w.&)-])")
_PART_WORDS = re.compile(r"\b(?:guarant(?:ee|or|ors)|obligors?|non-guarantors?|issuers?)\b", re.I)
_PLAN_WORDS = re.compile(
    r"\b(?:pension|postretirement|post-retirement|retirement|benefit\s+plans?|plans?\s+assets?|"
    r"held\s+by\s+the\b[^.\n]{0,40}\bplans?)\b",
    re.IGNORECASE,
)
"""A table of the employee benefit plans ("The fair values of the assets held by the U.S.
pension plans by asset class are as follows:"): its "Total" is the plans' assets, not the
company's."""
_SEGMENT = re.compile(r"((?:\b[A-Z][\w&/’'-]*\s+(?:and\s+)?){1,4})(?:[Ss]egment|SEGMENT)\b")
"""A segment by its name ("Consumer Health segment", "Safety and Industrial Segment")."""
_GENERIC_PART_TERMS = frozenset(
    terms(
        "the our each business reportable operating by performance analysis of sales total net "
        "income before tax expenditures capital amortization depreciation assets percentages "
        "ownership"
    )
)
_COMMON_ACRONYMS = frozenset(
    {"GAAP", "USD", "EPS", "LIFO", "FIFO", "EBIT", "EBITDA", "NOTE", "ITEM", "PART", "TABLE"}
)


def _title_lines(page_text: str, cell: TableCell) -> list[str]:
    """The lines of the cell's table title, nearest first: the header's line up to the
    years, then the lines above it up to the previous table's last row (for a cell of a
    block of columns, its block's name in place of the line naming the blocks)."""
    line_start = page_text.rfind("\n", 0, cell.header_start) + 1
    if cell.block:
        # The line naming the blocks is the one above the years' line.
        years_line = page_text.rfind("\n", 0, cell.header_end)
        names_line = page_text.rfind("\n", 0, max(years_line, 0)) + 1
        if cell.block in page_text[names_line : max(years_line, 0)]:
            title = [cell.block]
            for line in reversed(page_text[:names_line].splitlines()[-(_TITLE_LINES - 1) :]):
                words = line.split()
                if words and _NUMBER.match(words[-1]) and not _YEAR.match(words[-1]):
                    break  # a row of the table above
                title.append(line)
            return title
    title = [page_text[line_start : cell.header_start]]
    for line in reversed(page_text[:line_start].splitlines()[-_TITLE_LINES:]):
        words = line.split()
        if words and _NUMBER.match(words[-1]) and not _YEAR.match(words[-1]):
            break  # a row of the table above
        title.append(line)
    return title


def table_title(page_text: str, cell: TableCell) -> str:
    """What the cell's table is of, read from its title: the nearest line above the header
    that is neither a unit ("(Dollars in millions)") nor a sentence ending in a full stop
    (prose of the table above); "" when there is none. "Research and Development The
    following table summarizes our Research and development expense:" titles a table whose
    "Total" row is the company's research and development expense."""
    for line in _title_lines(page_text, cell):
        text = " ".join(_UNIT.sub(" ", line).split())
        if not re.search(r"[A-Za-z]{3}", text) or (
            len(text.split()) <= _PERIOD_LINE_WORDS and _PERIOD_LINE.search(text)
        ):
            continue
        return "" if text.endswith(".") else " ".join(line.split())
    return ""


_PERIOD_LINE_WORDS = 6
_PERIOD_LINE = re.compile(
    r"\b(?:years?|months|weeks|ended|ending|as\s+of|december|june|september|march)\b", re.I
)
"""A header's period words ("Years ended December 31,"): no title of what the table is of."""


def part_table(page_text: str, cell: TableCell, question: str) -> bool:
    """Is the cell's table about a part of the filer the question does not name: a segment
    by its acronym ("BDS revenues ... consisted of the following:"), a guarantor or obligor
    group ("Deed of Cross Guarantee"), the employee benefit plans ("assets held by the U.S.
    pension plans")? Read from the table's title: the lines just above its
    header, up to the previous table's last row."""
    title = _title_lines(page_text, cell)
    text = " ".join(title)
    asked = set(_ACRONYM.findall(question))
    # A segment's acronym titles its own table: in the header's line or the line just above
    # it, in prose or a title in mixed case ("NOTE 7. Supplemental ..." four lines up, or a
    # heading in capitals, "RESULTS OF OPERATIONS", names no segment).
    mixed = " ".join(line for line in title[:2] if re.search(r"[a-z]", line))
    parts = {a for a in _ACRONYM.findall(mixed) if a not in asked and a not in _COMMON_ACRONYMS}
    named = _PART_WORDS.search(text) is not None and _PART_WORDS.search(question) is None
    # The benefit plans' own tables (their assets, obligations), for a question not about them.
    named = named or (
        _PLAN_WORDS.search(_introduction(title)) is not None
        and _PLAN_WORDS.search(question) is None
    )
    # A segment the title names: a name the lines above call a segment ("... the worldwide
    # Consumer Health segment.") standing in the title's nearest lines ("Major Consumer Health
    # Franchise Sales*:"), by words the question does not use.
    asked_terms = set(terms(question))
    near = set(terms(" ".join(title[:3])))
    for found in _SEGMENT.finditer(text):
        name = set(terms(found[1])) - _GENERIC_PART_TERMS
        named = named or bool(name and name <= near and not name & asked_terms)
    # The header's span may run back into its title line ("... (18.8% of consolidated
    # sales):" over "2016 2015 2014"): the title line is read whole.
    head = page_text[cell.header_start : cell.header_end].split("\n", 1)[0]
    return bool(parts) or named or _share_titled([title[0] + head, *title[1:]], question)


_SHARE_TITLE = re.compile(
    r"(?P<name>[A-Za-z][^()\n]*?)\s*\(\s*\d+(?:\.\d+)?\s*%\s+of\s+(?:consolidated|total)\b",
    re.IGNORECASE,
)
"""A title giving the table's share of the whole ("Industrial Business (33.6% of consolidated
sales):"): the table is of that part."""


def part_title(page_text: str, cell: TableCell, question: str) -> str:
    """The title naming the part of the filer a cell's table is of, when the question names
    that part by its own words ("Consumer Business (15.5% of consolidated sales):" for "3M's
    Consumer business"): quoted beside the cell, it states whose figure the row is ("Organic
    sales (0.9) %"); "" otherwise."""
    asked = set(terms(question))
    title = _title_lines(page_text, cell)
    # The header's span may run back into its title line (as in :func:`part_table`).
    head = page_text[cell.header_start : cell.header_end].split("\n", 1)[0]
    for line in [title[0] + head, *title[1:2]]:
        found = _SHARE_TITLE.search(line)
        if found is not None:
            name = set(terms(found["name"])) - _GENERIC_PART_TERMS
            return " ".join(line.split()) if name and name <= asked else ""
    return ""


def _introduction(title: Sequence[str]) -> str:
    """The title's lines up to the sentence introducing the table ("... by asset class are
    as follows:"), nearest first; never the prose of the table above (a line ending in a full
    stop)."""
    kept: list[str] = []
    for line in title:
        if line.rstrip().endswith("."):
            break
        kept.append(line)
        if line.rstrip().endswith(":"):
            break
    return " ".join(kept)


def _share_titled(title: Sequence[str], question: str) -> bool:
    """Is the table titled as a part by its share of the whole, a part the question does not
    name (none of its title's words)?"""
    asked = set(terms(question))
    for line in title[:2]:
        found = _SHARE_TITLE.search(line)
        if found is not None:
            # By its own words: "Business" is every part's ("Health Care Business" is no
            # part of a question on "3M's Consumer business").
            name = set(terms(found["name"])) - _GENERIC_PART_TERMS
            return not name & asked
    return False


def _row_name(raw: str) -> str:
    """A label's last line, with the lines before it that it goes on from (a wrapped label's
    next line starts in lower case); the lines above those are headings ("Current assets:")."""
    return " ".join(raw[_name_offset(raw) :].split())


def _name_offset(raw: str) -> int:
    """Where :func:`_row_name`'s lines start in ``raw``."""
    starts = [m.start() for m in re.finditer(r"[^\n]*\S[^\n]*", raw)]
    if not starts:
        return 0
    k = len(starts) - 1
    while k > 0 and raw[starts[k] :].lstrip()[:1].islower():
        k -= 1
    return starts[k]


def _reference(tokens: list[_Tok], k: int) -> bool:
    """Is token ``k`` the number of a parenthesised reference ("(Note 1)" ends in "1)"), no
    cell of a row ("(1,234)" is one token)?"""
    text = tokens[k].text
    return (
        text.endswith(")")
        and not text.startswith("(")
        and k > 0
        and tokens[k - 1].text.startswith("(")
        and not tokens[k - 1].text.endswith(")")
    )


def _header_starts(text: str, tokens: list[_Tok], j: int) -> bool:
    """Does a header of column years start at token ``j``: a line opening with two years
    ("2022 2021 2020" under "(Dollars in Millions) (Note 1)")?"""
    return (
        tokens[j].year
        and j + 1 < len(tokens)
        and tokens[j + 1].year
        and "\n" in text[tokens[j - 1].end : tokens[j].start]
    )


_SIGN_WORD = re.compile(r"\([a-z]+\)")
_QUALIFIER = re.compile(r"\b(?:before|after|excluding|net\s+of)\b", re.IGNORECASE)


_CHANGE_LABEL = re.compile(
    r"^\W*(?:net\s+)?(?:\(?(?:increase|decrease|change)s?\)?[\s/,]*(?:and\s+|or\s+)?)+(?:in|of)\s",
    re.IGNORECASE,
)
_CHANGE_ASKED = re.compile(
    r"\b(?:increas|decreas|chang|grow|grew|rise|rose|fall|fell|declin|drop|differen)", re.IGNORECASE
)


def measured_terms(label: str, question: str) -> list[str]:
    """The terms of a row label that say what its figure measures. A label qualified by
    "before", "after", "excluding" or "net of" measures its head: "Loss before income taxes" is
    a loss, no income tax figure; unless the question qualifies the same way ("income before
    taxes"). A change ("Increase in inventories") is no balance, unless a change is asked."""
    # A lower-case word in parentheses is the row's other sign, no measure of its own: "Other
    # expense (income), net" is an expense, "Income tax expense (benefit)" an expense.
    label = _SIGN_WORD.sub(" ", label)
    change = _CHANGE_LABEL.match(label)
    if change is not None and not _CHANGE_ASKED.search(question):
        return terms(label[: change.end()])
    found = _QUALIFIER.search(label)
    if found is None or re.search(rf"\b{found.group(0)}\b", question, re.IGNORECASE):
        return terms(label)
    return terms(label[: found.start()]) or terms(label)


_SUBSET_WORDS = frozenset({"other", "current"})
"""Words naming a subset of what a row measures that the term list leaves out as stop words:
"Other current assets" and "Total current assets" are no "total assets"."""
_WORDS = re.compile(r"[a-z]+")


def unasked_subset(name: str, question: str) -> bool:
    """Does the row ``name`` open with a subset ("Other ...", "Total current ...") the
    question does not ask? Inside a name the words name no subset of the row ("Purchase of
    property, plant, and equipment, and other intangible assets")."""
    asked = set(_WORDS.findall(question.lower()))
    words = _WORDS.findall(name.lower())
    if words[:1] == ["total"]:
        words = words[1:]
    for word in words:
        if word not in _SUBSET_WORDS:
            return False
        if word not in asked:
            return True
    return False


def table_cells(text: str) -> list[TableCell]:
    """Every cell of the year-columned tables in ``text`` (offsets are into ``text``)."""
    return list(_table_cells(text))


@lru_cache(maxsize=256)  # pure; a page is read again for every question drafted from it
def _table_cells(text: str) -> tuple[TableCell, ...]:
    tokens = [_Tok(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    cells: list[TableCell] = []
    header: tuple[list[int], int, int] | None = None  # years, start, end
    paired: set[int] = set()  # headers whose years each have a figure and a percent column
    totals: dict[int, int] = {}  # grouped headers whose groups end in their sum: the group size
    shares: dict[int, int] = {}  # headers of a group per year holding a share: the group size
    levels: dict[int, int] = {}  # headers of blocks of the same years: how many blocks
    # such headers whose title line names each block: the names, where each block's years end
    blocks: dict[int, tuple[list[tuple[str, int]], list[int]]] = {}
    i = 0
    label_start: int | None = None
    # A line opening with a table's unit ("(in millions) Employee Costs ...", "(Millions,
    # except per-share amounts) First Second Third Fourth Year") or its period ("Year ended
    # December 31, 2016") heads a new table once rows were read under the header above: the
    # rows below it stand under their own columns, not under the years of the table above.
    heads = {m.start() for m in _TABLE_HEAD.finditer(text)}
    read = False  # rows were read under the current header
    names_from = -1  # where the text after the current header's line starts
    carried = ""  # the heading the current header's rows stand under
    # A table of one year whose columns are parts and their whole ("Year ended December 31,
    # 2017" over "United States ... Worldwide"): each row's value is the whole's, its last.
    wholes: dict[int, int] = {}  # such headers: how many values their rows have (0: unknown)
    one_year = {m.start(): m for m in _ONE_YEAR.finditer(text)}
    while i < len(tokens):
        tok = tokens[i]
        if read and tok.start in heads:
            header, label_start, read = None, None, False
        found = one_year.get(tok.start)
        if found is not None:
            j = i
            while j < len(tokens) and tokens[j].start < found.end("names"):
                j += 1
            header = ([int(found["year"])], found.start(), found.end("names"))
            wholes[found.start()] = 0
            label_start, read, carried = None, False, ""
            names_from = tokens[j].start if j < len(tokens) else len(text)
            i = j
            continue
        if tok.year:
            j = i
            while j < len(tokens) and (
                tokens[j].year
                # "2019 (1) 2018": a year's footnote mark stands inside the header's years
                or (j > i and j + 1 < len(tokens) and _footnote_between(tokens, j))
            ):
                j += 1
            run = [t for t in tokens[i:j] if t.year]
            if len(run) >= 3 and _ends_phrase(text, tokens, i):
                run = run[1:]  # "2016 vs 2015" over "2016 2015": the phrase's year is no column
            # A year named again starts another block of columns. A shorter block after the
            # first ("2018 2017 2016 2017 2016" under "2018 versus 2017 versus": the changes;
            # "Net Sales ... PP&E" at two dates) stands after the header's years: the header
            # is the first block. Blocks of one size (levels of a fair value hierarchy and
            # their total) stay one header, as does a year repeated at once ("2023 After 2023").
            run_years = [int(t.text.rstrip("*")) for t in run]
            block = next(
                (
                    d
                    for d in range(1, len(run_years))
                    if run_years[d] in run_years[:d] and run_years[d] != run_years[d - 1]
                ),
                len(run_years),
            )
            # Blocks of one size ("2024 2023" under each of "Level 1 Level 2 Level 3 Total"):
            # the years of one block, the row's value the whole's block.
            q = len(run_years) // block
            alike = len(run_years) % block == 0 and all(
                run_years[c * block : (c + 1) * block] == run_years[:block] for c in range(q)
            )
            if len(run_years) - block < block:
                run = run[:block]
            if len(run) >= 2:
                full = run
                if alike and q > 1:
                    run = run[:block]
                years = [int(t.text.rstrip("*")) for t in run]
                start = tokens[i].start
                k = i - 1
                # The header's quote runs back over its title to a quotable length, over
                # words, references ("(Note 1)"), a date's day ("December 31") and a year of
                # a comparison ("2015 vs"), up to the figures of the row above.
                while (
                    k >= 0
                    and full[-1].end - start < _MIN_HEADER_CHARS
                    and (
                        not tokens[k].numeric
                        or _reference(tokens, k)
                        or tokens[k].year
                        or (
                            k > 0
                            and _DAY.match(tokens[k].text)
                            and _MONTH.match(tokens[k - 1].text)
                        )
                    )
                ):
                    start = tokens[k].start
                    k -= 1
                header = (years, start, full[-1].end)
                if alike and q > 1:
                    levels[start] = q
                    names = _block_names(text, tokens[i].start, q)
                    if names is not None:
                        # Each block's years: where its header quote ends.
                        blocks[start] = (names, [full[(b + 1) * block - 1].end for b in range(q)])
                label_start, read, carried = None, False, ""
                i = _after_column_names(text, tokens, j)
                names_from = tokens[i].start if i < len(tokens) else len(text)
                continue
        if (tok.text == "$" or tok.numeric) and not (
            tok.year and i > 0 and _MONTH.match(tokens[i - 1].text)
        ):  # "May 2025": a date in the label (a note's maturity), no cell
            j = i
            values: list[tuple[_Tok, bool]] = []
            dollar = False
            while j < len(tokens) and (tokens[j].text in {"$", "%"} or tokens[j].numeric):
                t = tokens[j]
                if j > i and _header_starts(text, tokens, j):
                    break  # "(Note 1)" ends a title line; the years below it are the header
                if t.text == "%" and "\n" in text[tokens[j - 1].end : t.start]:
                    break  # a line opening with "%" is the next row's label ("% of sales")
                if t.text == "$":
                    dollar = True
                elif t.text == "%" and values:
                    prev, d = values[-1]
                    values[-1] = (_Tok(prev.text + "%", prev.start, t.end), d)
                else:
                    values.append((t, dollar or t.text.startswith(("$", "($"))))
                    dollar = False
                j += 1
            follows = tokens[j].text if j < len(tokens) else ""
            ends_row = (
                not follows or follows[0].isupper() or follows[0] in "$(%" or _YEAR.match(follows)
            )
            if label_start is not None and header is not None and values and ends_row:
                years, h_start, h_end = header
                raw = text[label_start : tokens[i - 1].end] if i > 0 else ""
                label = " ".join(raw.split())
                name = _row_name(raw)
                picks = _columns(
                    text, values, years, h_start, h_end, paired, totals, shares, levels, wholes
                )
                row_start = label_start
                if (
                    not _row_label(label)
                    and name != label
                    and _row_label(name)
                    and label_start == names_from
                ):
                    # Column names between the header's years and the first row ("U.S. Intl.
                    # Worldwide") are no part of its label: the row starts at its name's line.
                    label, row_start = name, label_start + _name_offset(raw)
                if label == name and not name.lower().startswith("total"):
                    heading = carried
                else:
                    heading = ""
                    carried = label[: len(label) - len(name)].strip() if label != name else ""
                if name.lower().startswith("total"):
                    carried = ""  # a total closes its heading's block
                if _row_label(label) and picks is not None:
                    read = True
                    named = blocks.get(h_start)
                    # a row read across all its years under a header naming blocks: its first
                    # block's (name, header start), the later blocks read from the same values
                    lead = (
                        named[0][0]
                        if named is not None and picks == list(range(len(years)))
                        else None
                    )
                    for column, (year, pick) in enumerate(zip(years, picks, strict=True)):
                        value, dollars = values[pick]
                        cells.append(
                            TableCell(
                                label=label,
                                year=year,
                                value=value.text,
                                dollars=dollars,
                                row_start=row_start,
                                row_end=value.end,
                                header_start=h_start if lead is None else lead[1],
                                header_end=h_end,
                                column=column,
                                columns=len(years),
                                row_stop=values[-1][0].end,
                                name=name,
                                heading=heading if lead is None else lead[0],
                                block="" if lead is None else lead[0],
                            )
                        )
                    if named is not None and lead is not None:
                        cells.extend(
                            _later_blocks(values, years, named, label, name, row_start, text)
                        )
            if ends_row:
                label_start = None
                i = j
                continue
            # a number inside a label ("maturities greater than 90 days"): part of the label
            if label_start is None:
                label_start = tok.start
            i = j
            continue
        if label_start is None:
            label_start = tok.start
        i += 1
    return tuple(_told_apart(cells))


def _block_names(text: str, years_at: int, q: int) -> list[tuple[str, int]] | None:
    """The names of ``q`` blocks of columns on the line above a header's years ("Net Revenue
    Operating Profit/(Loss)": "Net Revenue", "Operating Profit/(Loss)"), with where each
    starts: the one cut of the line into ``q`` runs of words, each opening with a capital,
    in which every run is a phrase of the lexicon; None when there is no such cut, or more
    than one (the blocks are then not named)."""
    line_end = text.rfind("\n", 0, years_at)
    if line_end < 0 or (
        text[line_end:years_at].strip() and not _UNIT_OPENING.fullmatch(text[line_end:years_at])
    ):
        return None  # the years do not open their line (after the table's unit, if any)
    line_start = text.rfind("\n", 0, line_end) + 1
    words = [
        (m.group(0), line_start + m.start()) for m in _TOKEN.finditer(text[line_start:line_end])
    ]
    if not 2 <= len(words) <= _MAX_BLOCK_WORDS or any(_NUMBER.match(w) for w, _ in words):
        return None
    found: list[list[tuple[str, int]]] = []
    for cuts in combinations(range(1, len(words)), q - 1):
        bounds = [0, *cuts, len(words)]
        runs = [words[bounds[b] : bounds[b + 1]] for b in range(q)]
        if all(
            run[0][0][:1].isupper() and _block_name(" ".join(w for w, _ in run)) for run in runs
        ):
            found.append([(" ".join(w for w, _ in run), run[0][1]) for run in runs])
    return found[0] if len(found) == 1 else None


_MAX_BLOCK_WORDS = 10
_UNIT_OPENING = re.compile(
    r"\s*\((?:dollars|amounts|\$)?\s*in\s+(?:thousands|millions|billions)[^)]*\)\s*", re.I
)
"""The table's unit opening the line of its years ("(Dollars in Millions) 2022 2021 ...")."""


def _block_name(name: str) -> bool:
    """Can ``name`` name a block of columns? A phrase of the lexicon ("Income Before Tax"), or
    a qualified figure the lexicon knows by its last word ("Segment Sales", "Percent of
    Segment Sales"); a single word names none (the cut of the line must be the only one)."""
    if _phrase(name):
        return True
    wanted = terms(re.sub(r"/?\([^)]*\)", " ", name))
    return len(wanted) >= 2 and any(
        start == 0 and end == 1 for start, end, _ in lexicon().keys(wanted[-1:])
    )


def _phrase(name: str) -> bool:
    """Is ``name`` (its bracketed sign dropped: "Operating Profit/(Loss)") wholly a phrase of
    the lexicon ("operating profit", "net revenue")?"""
    wanted = terms(re.sub(r"/?\([^)]*\)", " ", name))
    return len(wanted) >= 2 and any(
        start == 0 and end == len(wanted) for start, end, _ in lexicon().keys(wanted)
    )


def _later_blocks(
    values: list[tuple[_Tok, bool]],
    years: list[int],
    named: tuple[list[tuple[str, int]], list[int]],
    label: str,
    name: str,
    row_start: int,
    text: str,
) -> list[TableCell]:
    """The cells of a row under the blocks after the first ("Operating Profit/(Loss)" after
    "Net Revenue"), each block a table of its own: its header quoted from its name to its
    years, its title its name. None when the row's line has not a value for every block's
    year."""
    names, ends = named
    n = len(years)
    line = 1 + next(
        (
            v
            for v in range(len(values) - 1)
            if "\n" in text[values[v][0].end : values[v + 1][0].start]
        ),
        len(values) - 1,
    )
    if line != n * len(names):
        return []
    out: list[TableCell] = []
    for b in range(1, len(names)):
        block, start = names[b]
        for column, year in enumerate(years):
            value, dollars = values[b * n + column]
            out.append(
                TableCell(
                    label=label,
                    year=year,
                    value=value.text,
                    dollars=dollars,
                    row_start=row_start,
                    row_end=value.end,
                    header_start=start,
                    header_end=ends[b],
                    column=column,
                    columns=n,
                    row_stop=values[line - 1][0].end,
                    name=name,
                    heading=block,
                    block=block,
                )
            )
    return out


def _told_apart(cells: list[TableCell]) -> list[TableCell]:
    """The cells with the heading their row stands under kept only where it tells the row
    from another of its table by the same name ("Diluted" under "Net earnings per share" and
    under "Average shares outstanding"); a row named once is read by its own label."""
    rows: dict[tuple[int, str], set[int]] = {}
    for cell in cells:
        rows.setdefault((cell.header_start, cell.name), set()).add(cell.row_start)
    return [
        cell
        if not cell.heading or cell.block or len(rows[(cell.header_start, cell.name)]) > 1
        else replace(cell, heading="")
        for cell in cells
    ]


def _columns(
    text: str,
    values: list[tuple[_Tok, bool]],
    years: list[int],
    h_start: int,
    h_end: int,
    paired: set[int],
    totals: dict[int, int],
    shares: dict[int, int],
    levels: dict[int, int],
    wholes: dict[int, int],
) -> list[int] | None:
    """Which of a row's values stand under the header's years, one per year in order; None
    when the row's values cannot be aligned with the years (no cell is read from it).

    A row's values are the years' values in order, but for three layouts:
    - each year a figure and its share ("Net sales $ 14,694 100.0 % $ 14,544 100.0 %"): every
      other value (:data:`paired` headers);
    - each year a group of columns named on the line below the years ("2016 2015" over "U.S.
      Intl. Worldwide U.S. Intl. Worldwide"): a row of k values per year reads group by group.
      When a group's last value is the sum of the others on one of the table's rows (12,188 +
      17,921 = 30,109) the last column of each group is the whole (worldwide, total) and is
      the year's value on every row of k values per year; a row of another length in such a
      table fits no group. Otherwise a group's first value is the year's;
    - the years' values followed by columns the header's line names after its years ("2022
      2021 % change"): the first values.
    A year's value after the first is no percent when the first is none: "$ 11,604 33.9 %"
    is a figure and its share under one year, not two years' values."""
    n, m = len(years), len(values)
    if m < n:
        return None
    # The row's own values are those on its line: a run going on to the next line goes on to
    # an unlabelled row ("Foreign 3,400 6,081 4,999" over "$ 10,705 $ 9,821 $ 9,069"). A
    # page that sets each cell on its own line keeps its values in the years' order.
    line = 1 + next(
        (v for v in range(m - 1) if "\n" in text[values[v][0].end : values[v + 1][0].start]),
        m - 1,
    )
    if line < n:
        return list(range(n))
    m = line
    if h_start in wholes:
        # Parts and their whole under one year: the last value, on rows of the first's length.
        wholes[h_start] = wholes[h_start] or m
        return [m - 1] if m == wholes[h_start] and m >= 2 else None
    if h_start in levels:
        return _level_picks(values[:m], n, levels[h_start])
    if m == 2 * n:
        first, second = values[0][0].text, values[1][0].text
        if second.endswith("%") and not first.endswith("%"):
            paired.add(h_start)
    line_end = text.find("\n", h_end)
    trailing = bool(text[h_end : line_end if line_end >= 0 else None].strip())
    # Groups of columns are named on a line of their own under the years ("U.S. Intl.
    # Worldwide"); with the table's first row right under the years, the extra values are
    # columns of another kind ("1.50 % 2018 448 448": a rate and a maturity before the years'
    # carrying values).
    below_end = text.find("\n", line_end + 1)
    below = text[line_end + 1 : below_end if below_end >= 0 else None] if line_end >= 0 else ""
    named = _closing_values(below.split()) < 2
    grouped = m >= 2 * n and m % n == 0 and not trailing and named and _alike(values, n, m // n)
    picks: list[int] | None
    if h_start in paired and m == 2 * n:
        picks = [2 * c for c in range(n)]
    elif grouped:
        k = m // n
        if h_start not in totals and k >= 3 and _group_sums(values, n, k):
            totals[h_start] = k
        named_whole = _named_whole(below.split(), n, k)
        if h_start in totals:
            picks = [c * k + k - 1 for c in range(n)] if totals[h_start] == k else None
        elif named_whole is not None:
            picks = [c * k + named_whole for c in range(n)]
        else:
            picks = [c * k for c in range(n)]
    elif h_start in totals:
        picks = None
    elif (
        m > n
        and trailing
        and (k := shares.get(h_start) or _share_groups(values[:m], n))
        and m >= k * n
    ):
        # Each year a group of a figure, its share and others ("$ 11,607 36.1 % $ 2,648" under
        # "Net Sales % of Total Oper. Income"), then the columns named after the years ("%
        # change"): a year's value is its group's first; the table's first row, marking its
        # percents, tells the group's size.
        shares[h_start] = k
        picks = [c * k for c in range(n)]
    elif m > n and not trailing:
        # More values than years, and no column named after the years: the others stand
        # before them ("Total 2017 2018 ...", a rate before the amounts, a note's number
        # closing the label, "Operating lease expense (1) $ 130 $ 113 $ 112").
        picks = [m - n + c for c in range(n)]
    else:
        picks = list(range(n))
    if picks is not None:
        kinds = [values[p][0].text.endswith("%") for p in picks]
        if not kinds[0] and any(kinds[1:]):
            return None
    return picks


def _level_picks(values: list[tuple[_Tok, bool]], n: int, q: int) -> list[int] | None:
    """Under q blocks of the same n years, the block a row's values are read from: the last
    when it is the sum of the others ("Level 1 Level 2 Total": the whole; "—" is none), the
    first otherwise ("Net Sales" before "Operating Income", "United States" before
    "International"); a row of n values alone ("Partnership investments* 95 92") states
    one block's."""
    if len(values) == n:
        return list(range(n))
    if len(values) != q * n:
        return None
    for c in range(n):
        parts = [_amount(values[b * n + c][0].text) for b in range(q)]
        if any(p is None and values[b * n + c][0].text not in _DASH for b, p in enumerate(parts)):
            return list(range(n))
        found = [p or 0.0 for p in parts]
        whole = found[-1]
        if abs(sum(found[:-1]) - whole) > max(1.0, 0.001 * abs(whole)):
            return list(range(n))
    return [(q - 1) * n + c for c in range(n)]


def _share_groups(values: list[tuple[_Tok, bool]], n: int) -> int:
    """The size k >= 2 of the groups a row's first k * n values make, one per year, when every
    group marks its percents alike and holds one and another figure ("$ 11,607 36.1 % $ 2,648
    $ 12,494 38.1 % $ 3,423 (7.1)% (22.6)%": 3); 0 when none does."""
    marks = [t.text.endswith("%") for t, _ in values]
    for k in range(2, len(values) // n + 1):
        groups = [tuple(marks[c * k : (c + 1) * k]) for c in range(n)]
        if len(set(groups)) == 1 and any(groups[0]) and not all(groups[0]) and not groups[0][0]:
            return k
    return 0


_WHOLE_NAMES = frozenset({"amount", "total", "worldwide", "consolidated"})
"""Column names saying a group's column is the year's figure ("Shares Amount": the amount)."""


def _named_whole(names: list[str], n: int, k: int) -> int | None:
    """Which column of each of the n groups of k the line of column names under the years
    calls the figure ("Shares Amount Shares Amount": the second); None when the line names
    no such column or names the groups unalike."""
    if len(names) != n * k:
        return None
    groups = {tuple(w.lower().strip(".,:") for w in names[c * k : (c + 1) * k]) for c in range(n)}
    if len(groups) != 1:
        return None
    (group,) = groups
    return next((x for x, name in enumerate(group) if name in _WHOLE_NAMES), None)


def _alike(values: list[tuple[_Tok, bool]], n: int, k: int) -> bool:
    """Do the row's n groups of k values mark their percents alike (a group per year)?"""
    marks = [t.text.endswith("%") for t, _ in values]
    return len({tuple(marks[c * k : (c + 1) * k]) for c in range(n)}) == 1


def _closing_values(words: list[str]) -> int:
    """How many of a line's last words are a row's cells ("... $ — $ 649"): none or one on a
    line of column names ("Total Level 2 Level 3")."""
    count = 0
    for word in reversed(words):
        if word in {"$", "%"}:
            continue
        if not _Tok(word, 0, 0).numeric:
            break
        count += 1
    return count


def _amount(text: str) -> float | None:
    """A cell's figure as a number ("(1,234)" is -1234); None for a dash or a percent."""
    if text.endswith("%") or text in _DASH:
        return None
    negative = text.startswith("(") or text.startswith("-")
    digits = text.strip("()$-").replace("$", "").replace(",", "")
    try:
        number = float(digits)
    except ValueError:
        return None
    return -number if negative else number


def _group_sums(values: list[tuple[_Tok, bool]], n: int, k: int) -> bool:
    """Is every group's last value the sum of the group's others (to the table's rounding)?"""
    for c in range(n):
        group = [_amount(t.text) for t, _ in values[c * k : (c + 1) * k]]
        if any(g is None for g in group):
            return False
        parts = [g for g in group[:-1] if g is not None]
        whole = group[-1]
        if whole is None or whole == 0 or abs(sum(parts) - whole) > max(1.0, 0.001 * abs(whole)):
            return False
    return True


_UNIT = re.compile(
    r"\((?:[$€£]|U\.?S\.?\s*\$|(?:(?:U\.?S\.?\s*)?dollars|amounts)(?:\s+and\s+shares)?)?\s*"
    r"in\s+(?:millions|thousands|billions)"
    r"(?:\s+of\s+(?:U\.?S\.?\s*)?dollars)?[^()\n]{0,40}\)",
    re.IGNORECASE,
)


_UNIT_REACH = 300
"""How far before a table's header its unit may be stated: a title line or two above it,
quoted with the header as one span."""


def table_unit(page_text: str, cell: TableCell) -> tuple[int, int] | None:
    """The span of the unit the page states for the cell's table: the nearest one before the
    end of its header, within a title's reach (:data:`_UNIT_REACH`); none when the page
    states none there."""
    start = max(0, cell.header_start - _UNIT_REACH)
    found = list(_UNIT.finditer(page_text, start, cell.header_end))
    if not found:
        return None
    last = found[-1]
    return (last.start(), last.end())


_PERCENT_UNIT = re.compile(
    r"\(\s*(?:in\s+)?(?:percent(?:age)?s?|%)(?:\s+of\b[^()\n]{0,40})?\)|"
    r"\bas\s+an?\s+(?:percent(?:age)?|%)\s+of\b|\b(?:percent(?:age)?|%)\s+of\s+(?:net\s+)?"
    r"(?:sales|revenues?)\b",
    re.IGNORECASE,
)


def percent_table(page_text: str, cell: TableCell) -> bool:
    """Does the cell's table state percentages, by the unit on its header's line or the line
    above it ("(Percent of net sales) 2021 2020", "As a percent of sales"), whether or not its
    cells write "%"? Its "Research, development and related expenses 5.6" is a share of sales,
    no amount of the expense."""
    start = page_text.rfind("\n", 0, cell.header_start)
    start = page_text.rfind("\n", 0, max(0, start)) if start > 0 else 0
    return _PERCENT_UNIT.search(page_text, max(0, start), cell.header_end) is not None
