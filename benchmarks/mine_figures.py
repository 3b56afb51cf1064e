"""Mine the measure nouns of ``evidencegate/data/lexicon/figures.tsv`` from WordNet, offline.

    python3 benchmarks/mine_figures.py [--wordnet /usr/share/wordnet] [--out FILE]

A question asks a figure through the noun of what it measures as often as through "how much" or
"how many": "Boeing headcount 2022?" asks a count, "the fine for ..." and "the CEO's salary" an
amount of money, "at what age" an age, "the attrition rate" a proportion. A claim answering it
states a figure of that kind; "approximately 23% women" states no head count, "a breach is a
disciplinary matter" no fine. WordNet 3.0 (Debian's ``wordnet-base``) places each noun sense
under the measures it is a kind of: "headcount" under "count", "fine" under "penalty" under
"payment" under "cost", "turnover" (employee turnover) under "ratio". This script lists each
noun whose most frequent sense (the first of ``index.noun``) falls under one of the measures
below, by any chain of hypernyms, with the kinds of figure of the nearest of them on each chain:

* ``money``: cost, outgo, monetary value, a sum of money, money, income;
* ``count``: number (of units or individuals), count;
* ``proportion``: ratio, proportion, rate (of change, or as a proportion of another quantity);
  a rate relative to a time unit (a frequency) is a proportion or a duration ("every 12 months");
* ``age``: age (how long something has existed), the time of life at which a qualification
  or power is gained (the age of majority, retirement age);
* ``duration``: a time period or a unit of time; ``date``: a point in time (a deadline);
* ``magnitude``: size and magnitude, which say no kind: a question's other nouns say it;
* ``group``: a body of personnel (workforce, staff): its size is a head count.

A noun that names a measure first and a magnitude in another sense ("turnover": employee
turnover, and the volume of trade) may also ask that magnitude, as money or a count. Else only
the first sense: a noun used in another sense ("penalty", first a punishment; "balance",
first an equilibrium) asks no figure for certain, and the critic refuses a claim for not
stating the figure a listed noun asks. Multi-word lemmas are written with spaces ("interest
rate", "minimum wage"). The table is shipped as package data and read by
:mod:`evidencegate.lexicon`; it is written sorted, so a re-run on the same WordNet gives the
same file.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import wordnet_db

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "evidencegate" / "data" / "lexicon" / "figures.tsv"

HEADER = """\
# Measure nouns: a noun (lower case, words separated by spaces), a tab, the kinds of figure its
# most frequent WordNet sense measures (space separated): money, count, proportion, age,
# duration, date; magnitude (a size, of no kind by itself); group (personnel, counted by head).
# Mined by benchmarks/mine_figures.py from WordNet 3.0: do not edit by hand, re-run it.
"""

ROOTS: dict[str, str | tuple[str, ...]] = {
    "13275847": "money",  # cost.n.01: the total spent for goods or services
    "13275288": "money",  # outgo.n.01: money paid out; an amount spent
    "05145118": "money",  # monetary_value.n.01: the property of having material worth
    "13331198": "money",  # sum.n.01: a quantity of money
    "13384557": "money",  # money.n.01: the most common medium of exchange
    "13250542": "money",  # money.n.02: wealth reckoned in terms of money
    "13384877": "money",  # money.n.03: the official currency
    "13255145": "money",  # income.n.01: the financial gain accruing over a period
    "05121418": "count",  # number.n.01: a sum or total or quantity of units or individuals
    "13591761": "count",  # count.n.01: the total number counted
    "13819207": "proportion",  # ratio.n.01: the relative magnitudes of two quantities
    "13815449": "proportion",  # ratio.n.02: the relation of things by comparative quantity
    "13815742": "proportion",  # proportion.n.01: a part divided by the whole
    "13816649": "proportion",  # rate.n.04: a quantity as a proportion of another
    # rate.n.01: a magnitude or frequency relative to a time unit ("5% a year", "every 12 months")
    "15286249": ("proportion", "duration"),
    "04924103": "age",  # age.n.01: how long something has existed
    "15145171": "age",  # age.n.03: a time of life at which some qualification is gained
    "15113229": "duration",  # time_period.n.01: an amount of time
    "15154774": "duration",  # time_unit.n.01: a unit for measuring time periods
    "15180528": "date",  # point.n.06: an instant of time (a deadline, a date)
    "05098942": "magnitude",  # size.n.01: the physical magnitude of something
    "05090441": "magnitude",  # magnitude.n.01: the property of relative size or extent
    "08208016": "group",  # personnel.n.01: a group of people willing to obey orders (force)
}
"""The measures (WordNet 3.0 noun synsets by offset) and the kind of figure each asks."""

_LEMMA = re.compile(r"[a-z][a-z'-]*(?: [a-z][a-z'-]*)*")


def mine(wordnet: Path) -> dict[str, frozenset[str]]:
    """Each noun to the kinds of figure its first sense measures (module docstring)."""
    hypernyms: dict[str, list[str]] = {}
    for synset in wordnet_db.synsets(wordnet, "noun"):
        hypernyms[synset.offset] = [
            p.target for p in synset.pointers if p.symbol in ("@", "@i") and p.pos == "noun"
        ]

    @cache
    def kinds(offset: str) -> frozenset[str]:
        if offset in ROOTS:
            root = ROOTS[offset]
            return frozenset({root} if isinstance(root, str) else root)
        found: set[str] = set()
        for target in hypernyms.get(offset, ()):
            found |= kinds(target)
        return frozenset(found)

    table: dict[str, frozenset[str]] = {}
    for (lemma, pos), offsets in wordnet_db.senses(wordnet).items():
        word = lemma.replace("_", " ")
        if pos != "noun" or not offsets or not _LEMMA.fullmatch(word):
            continue
        found = set(kinds(offsets[0]))
        if found - {"magnitude", "group"} and any("magnitude" in kinds(o) for o in offsets[1:]):
            found |= {"money", "count"}  # "turnover": also a volume of trade (of money)
        if found:
            table[word] = frozenset(found)
    return table


def main(argv: list[str] | None = None) -> int:
    return wordnet_db.write_table(argv, __doc__.splitlines()[0], OUT, HEADER, _lines)


def _lines(wordnet: Path) -> tuple[list[str], str]:
    table = mine(wordnet)
    lines = [f"{w}\t{' '.join(sorted(k))}" for w, k in sorted(table.items())]
    return lines, f"{len(lines)} measure nouns"


if __name__ == "__main__":
    raise SystemExit(main())
