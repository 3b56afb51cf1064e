"""Where a sentence stands in its page, and what the question's form asks for.

- A policy written in sections ("## 5. Holding period") reads each sentence under its section
  heading, also when the passage starts after the heading (the page gives it).
- A catalog record whose text is its requirement followed by a discussion ("statement" then
  "guidance") is answered by the requirement, however many of the question's words the
  discussion repeats.
- A question that sets out its case in a sentence of its own, or names the sum of its case,
  is typed by its ask ("... a $20 gift card. Am I allowed to keep it?" asks yes or no;
  "..., whose approval do we need?" asks who).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from evidencegate.analysis import answer_type
from evidencegate.contracts import DocumentVersion, Page, Passage, SourcePage
from evidencegate.corpus.retrieval import FeedbackRetriever
from evidencegate.corpus.store import Store
from evidencegate.generation.extractive import ExtractiveGenerator, _candidates, _PageStructure

AS_OF = dt.date(2024, 6, 1)

POLICY_PAGE = (
    "## 4. Reporting\n\n"
    "4.1 Employees must send Compliance a copy of the contract note for every personal trade "
    "within 5 business days of the trade.\n\n"
    "## 5. Holding period\n\n"
    "5.1 Employees must keep every investment for a minimum of 30 calendar days from the date "
    "of purchase.\n"
)


def _page_passage(text: str, start: int, *, label: str | None = None, pid: str = "p") -> Passage:
    return Passage(
        passage_id=pid,
        doc_id="POL",
        version="1",
        page=1,
        char_start=start,
        char_end=start + len(text),
        text=text,
        label=label,
        title="Dealing Policy",
        context="Dealing Policy" if label is None else f"{label}\nDealing Policy",
    )


class _Pages:
    """A source lookup holding one page."""

    def __init__(self, text: str, label: str | None = None) -> None:
        self.text = text
        self.label = label

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        if (doc_id, version, page) != ("POL", "1", 1):
            return None
        document = DocumentVersion(
            doc_id="POL",
            version="1",
            version_date=dt.date(2024, 1, 1),
            effective_from=dt.date(2024, 1, 1),
            authority="primary",
            title="Dealing Policy",
            source_uri="mem://pol",
            sha256="0" * 64,
        )
        return SourcePage(
            document=document,
            page=Page(
                doc_id="POL",
                version="1",
                page=1,
                text=self.text,
                label=self.label,
                heading="Dealing Policy",
            ),
        )


class TestSectionHeading:
    def test_a_sentence_is_read_under_its_section_heading(self) -> None:
        passage = _page_passage(POLICY_PAGE, 0)
        structure = _PageStructure([passage], None)
        headings = {c.text[:3]: structure.heading(c) for c in _candidates(passage, 20)}
        assert headings == {"4.1": "4. Reporting", "5.1": "5. Holding period"}

    def test_the_page_gives_the_heading_of_a_passage_starting_after_it(self) -> None:
        start = POLICY_PAGE.index("5.1")
        passage = _page_passage(POLICY_PAGE[start:], start)
        [candidate] = _candidates(passage, 20)
        assert _PageStructure([passage], None).heading(candidate) == ""
        pages = _Pages(POLICY_PAGE)
        assert _PageStructure([passage], pages).heading(candidate) == "5. Holding period"

    def test_the_section_the_question_is_about_answers(self) -> None:
        # Both sentences state a number of days; neither says "holding period", the heading
        # of 5.1's section, which says what 5.1 is about.
        question = "How many days is the holding period?"
        passage = _page_passage(POLICY_PAGE, 0)
        draft = ExtractiveGenerator().draft(question, [passage], as_of=AS_OF)
        assert [c.text[:3] for c in draft.claims] == ["5.1"]


CONTROL = (
    "a. Designate individuals authorized to make information publicly accessible;\n"
    "  b. Train authorized individuals to ensure that publicly accessible information does "
    "not contain nonpublic information;\n"
    "  c. Review the content on the publicly accessible system for nonpublic information "
    "and remove such information, if discovered.\n\n"
    "While organizations may have individuals who are allowed to make decisions about the "
    "information that can be made publicly accessible and public, publicly accessible "
    "content addresses the management of the individuals who make such information public."
)


class TestRecordSupplement:
    def test_the_discussion_after_the_requirement_is_its_supplement(self) -> None:
        passage = _page_passage(CONTROL, 0, label="XC-22")
        structure = _PageStructure([passage], None)
        flags = [structure.in_supplement(c) for c in _candidates(passage, 20)]
        texts = [c.text[:5] for c in _candidates(passage, 20)]
        assert dict(zip(texts, flags, strict=True))["While"] is True
        assert not any(f for t, f in zip(texts, flags, strict=True) if t != "While")

    def test_an_unlabelled_page_has_no_supplement(self) -> None:
        passage = _page_passage(POLICY_PAGE, 0)
        structure = _PageStructure([passage], None)
        assert not any(structure.in_supplement(c) for c in _candidates(passage, 20))

    def test_a_passage_of_the_discussion_alone_is_placed_by_the_page(self) -> None:
        start = CONTROL.index("While")
        passage = _page_passage(CONTROL[start:], start, label="XC-22")
        [candidate] = _candidates(passage, 20)
        assert not _PageStructure([passage], None).in_supplement(candidate)  # unknown page
        pages = _Pages(CONTROL, label="XC-22")
        assert _PageStructure([passage], pages).in_supplement(candidate)

    def test_the_requirement_answers_over_the_discussion(self) -> None:
        question = "publicly accessible content: who is allowed to make info public?"
        passage = _page_passage(CONTROL, 0, label="XC-22")
        draft = ExtractiveGenerator().draft(question, [passage], as_of=AS_OF)
        assert draft.claims
        assert not draft.claims[0].text.startswith("While")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("I was offered a gift above the limit. Whose approval do I need?", "entity"),
        ("A vendor offers me a $20 gift card as a thank-you. Am I allowed to keep it?", "yes_no"),
        (
            "If we want to pay a customer more than $5,000 to put things right, whose approval "
            "do we need?",
            "entity",
        ),
        ("Whose sign-off does a PEP account need?", "entity"),
        ("What is the maximum interval between reviews of a high-risk client?", "duration"),
        # An abbreviation's full stop ends no sentence: the question is typed as a whole.
        ("Under the U.S. rules, what is the maximum amount?", "amount"),
    ],
)
def test_the_ask_types_the_question(question: str, expected: str) -> None:
    assert answer_type(question) == expected


def _catalog(tmp_path: Path) -> Path:
    """A catalog whose many records speak of logs, the one "XA-6(9)" labels saying it least:
    beyond the first passages the question's words rank."""
    rows = [
        {
            "doc_id": "CAT",
            "version": "1",
            "version_date": "2020-01-01",
            "authority": "primary",
            "label": label,
            "title": title,
            "text": text,
        }
        for label, title, text in [
            ("XA-6", "Least Privilege", "Employ the principle of least privilege."),
            ("XA-6(9)", "Privileged Functions", "Capture each execution of a privileged function."),
            *[
                (
                    f"XA-{n}({m})",
                    f"Log Review {n}",
                    f"Review the log and what we need to log on system {n}; keep the log {m}.",
                )
                for n in (6, 9)
                for m in (1, 2, 3, 6, 9)
                if (n, m) != (6, 9)
            ],
            *[
                (
                    f"XU-{n}",
                    "Event Logging",
                    f"Log what we need to log, as XA-6 and XA-9 say ({n}).",
                )
                for n in range(10, 40)
            ],
        ]
    ]
    path = tmp_path / "cat.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


class TestNamedRecord:
    def test_the_record_the_question_names_is_in_the_evidence(self, tmp_path: Path) -> None:
        with Store.open(tmp_path / "s") as store:
            store.ingest([_catalog(tmp_path)])
            retriever = FeedbackRetriever(store)
            found = retriever.search("XA-6(9) - what do we need to log?", as_of=AS_OF, limit=4)
            assert "XA-6(9)" in [p.label for p in found]
            # A question naming no record of the catalog is ranked as before.
            plain = retriever.search("what do we need to log?", as_of=AS_OF, limit=4)
            assert "XA-6(9)" not in [p.label for p in plain]
