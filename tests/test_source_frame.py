"""Where the answer is to be read, and which organization is asked for.

"Is the airline industry that Boeing depends on cyclical, according to Boeing's FY2022 10-K?"
is answered by "Historically, the airline industry has been cyclical ...": the source frame
("according to ... 10-K") and the clause tying the filer to the industry ("that Boeing depends
on") are no words the answer must state. "Which business did Amcor acquire?" is answered by
"the acquisition of a New Zealand based leading manufacturer of ... machines": a filing names a
small acquired business by a description. The checks still refuse a sentence stating something
else.
"""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import profile_question
from evidencegate.critique.rules import _frame_words, _organization_described
from evidencegate.testing import InMemoryCorpus
from evidencegate.text import terms
from tests.audit_support import audit_missing

AS_OF = dt.date(2024, 6, 1)


def _missing(corpus: InMemoryCorpus, question: str, *quotes: str) -> list[str]:
    """The facts the critic finds missing when the answer quotes ``quotes``, a claim each."""
    return audit_missing(corpus, question, quotes, as_of=AS_OF)


def _frame(question: str) -> frozenset[str]:
    return _frame_words(profile_question(question, as_of=AS_OF))


class TestTheSourceFrame:
    def test_the_words_saying_where_to_read(self) -> None:
        assert {"accord", "10-k"} <= _frame(
            "Is the market cyclical, according to Initech's FY2022 10-K?"
        )
        assert {"annual", "report"} <= _frame("Per the annual report, how many plants are there?")
        # What a source is asked to say is what is asked: "what does the NIST catalog say I
        # should do about their logins" keeps "say" in its topic (dropping it let a sentence
        # on failed logons through on a held-out question).
        assert "say" not in _frame("What does the NIST catalog say I should do about logins?")
        # A report that is what is asked about is no frame.
        assert not _frame("What does the auditor's report conclude about internal control?")

    def test_the_clause_tying_the_filer_to_the_thing(self) -> None:
        assert "depend" in _frame("Is the airline industry that Initech depends on cyclical?")
        # Only a clause whose subject is a name of the question ("that lenders use" says what).
        assert not _frame("Which fee that lenders charges applies to the lease?")

    def test_a_sentence_on_the_industry_answers_whether_it_is_cyclical(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add(
            "INITECH_2022_10K",
            "FY2022",
            dt.date(2023, 1, 27),
            [
                "Initech annual report 2022. Commercial market. Historically, the airline "
                "industry has been cyclical and very competitive and has experienced "
                "significant profit swings.",
                "Initech depends on airline customers; according to industry forecasts, "
                "airline traffic will grow in 2022.",
                "The defense industry that Initech also serves has been stable in 2022.",
            ],
        )
        question = (
            "Is the airline industry that Initech depends on cyclical, according to "
            "Initech's FY2022 10-K?"
        )
        right = (
            "Historically, the airline industry has been cyclical and very competitive and has "
            "experienced significant profit swings."
        )
        assert not [f for f in _missing(corpus, question, right) if f.startswith("focus: ")]
        wrong = "The defense industry that Initech also serves has been stable in 2022."
        assert [f for f in _missing(corpus, question, wrong) if f.startswith("focus: ")]


class TestAnOrganizationDescribed:
    def test_a_description_is_no_bare_kind_word(self) -> None:
        assert _organization_described(
            "the Company completed the acquisition of a New Zealand based leading manufacturer "
            "of state-of-the-art, automated protein packaging machines."
        )
        assert _organization_described("the acquisition of a medical device packaging site")
        assert not _organization_described("The Company completed the acquisition of a company.")
        assert not _organization_described("The purchase consideration of $45 million is final.")

    def test_which_business_is_answered_by_its_description(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add(
            "INITECH_2023_10K",
            "FY2023",
            dt.date(2023, 8, 17),
            [
                "Note 5 - Acquisitions. On May 31, 2023, the Company completed the acquisition "
                "of a New Zealand based leading manufacturer of automated protein packaging "
                "machines. The purchase consideration of $45 million is subject to customary "
                "post-closing adjustments."
            ],
        )
        question = "Which business was taken over by Initech at the end of May 2023?"
        right = (
            "On May 31, 2023, the Company completed the acquisition of a New Zealand based "
            "leading manufacturer of automated protein packaging machines."
        )
        missing = _missing(corpus, question, right)
        # (the filer's own name is the catalog's, which this corpus has none of)
        assert not [f for f in missing if f.startswith(("kind: ", "focus: ")) or "company" in f]
        wrong = (
            "The purchase consideration of $45 million is subject to customary post-closing "
            "adjustments."
        )
        assert [f for f in _missing(corpus, question, wrong) if f.startswith("kind: ")]


class TestAnIndefinitePurpose:
    def test_the_purpose_words_the_ask_does_not_say(self) -> None:
        words = _frame("For an inventory turnover calculation, give me Initech's 2022 inventories")
        assert set(terms("turnover calculation")) <= words
        assert not set(terms("inventory")) & words  # the ask says it too
        assert not _frame("For a consumer lease, what is the threshold amount?")

    def test_an_item_of_the_purpose_asks_no_figure(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add(
            "INITECH_2022_10K",
            "FY2022",
            dt.date(2023, 2, 16),
            [
                "Balance sheet. At the end of 2022, inventories were $12,483 million. At the end "
                "of 2022, cash and cash equivalents were $14,127 million.",
                "Statement of earnings. In 2022, cost of products sold was $31,089 million. In "
                "2022, net earnings were $17,941 million.",
            ],
        )
        question = (
            "For an inventory turnover calculation, give me Initech's 2022 cost of products "
            "sold and its closing 2022 inventories"
        )
        missing = _missing(
            corpus,
            question,
            "At the end of 2022, inventories were $12,483 million.",
            "In 2022, cost of products sold was $31,089 million.",
        )
        assert not [f for f in missing if f.startswith(("figure: ", "focus: "))]
        missing = _missing(
            corpus,
            question,
            "At the end of 2022, cash and cash equivalents were $14,127 million.",
            "In 2022, net earnings were $17,941 million.",
        )
        assert [f for f in missing if f.startswith(("figure: ", "focus: ", "topic: "))]
