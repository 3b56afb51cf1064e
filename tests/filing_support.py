"""A one-filing corpus and the extractive generator's draft over it, for the tests of how
filings are drafted."""

from __future__ import annotations

import datetime as dt

from evidencegate.contracts import Claim, Passage
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.testing import InMemoryCorpus

AS_OF = dt.date(2023, 6, 30)


def filing(*pages: str, version: str = "FY2022") -> InMemoryCorpus:
    """A corpus of one FY2022 10-K (filed 2023-02-10) with ``pages``."""
    corpus = InMemoryCorpus()
    corpus.add("NWT_2022_10K", version, dt.date(2023, 2, 10), list(pages))
    return corpus


def draft(corpus: InMemoryCorpus, question: str) -> list[Claim]:
    """The claims the extractive generator drafts from what ``question`` retrieves."""
    evidence: list[Passage] = corpus.search(question, as_of=AS_OF, limit=8)
    return ExtractiveGenerator(pages=corpus).draft(question, evidence, as_of=AS_OF).claims
