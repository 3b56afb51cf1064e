"""Text analysis shared by the offline generator and critic."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import Period, profile_question, sentence_period, split_sentences
from evidencegate.text import terms


class TestSentences:
    def test_offsets_slice_back(self) -> None:
        """Every sentence's offsets slice the source text back to the sentence."""
        text = "Employees must not accept cash. Gifts up to $150 are allowed!  Is that so?"
        for s in split_sentences(text, offset=0):
            assert text[s.start : s.end] == s.text
        assert [s.text for s in split_sentences(text)] == [
            "Employees must not accept cash.",
            "Gifts up to $150 are allowed!",
            "Is that so?",
        ]

    def test_offset_is_added(self) -> None:
        """A passage offset shifts every sentence span."""
        assert split_sentences("One sentence here.", offset=10)[0].start == 10

    def test_abbreviations_do_not_split(self) -> None:
        """'e.g.' and 'U.S.C.' do not end a sentence."""
        text = "See 15 U.S.C. 1601 for details, e.g. the definitions. Next one."
        assert len(split_sentences(text)) == 2


class TestPeriods:
    def test_from_through_range(self) -> None:
        """'From January 1, 2014 through December 31, 2014' is the year 2014."""
        p = sentence_period(
            "From January 1, 2014 through December 31, 2014, the amount is $53,500."
        )
        assert p == Period(dt.date(2014, 1, 1), dt.date(2014, 12, 31))

    def test_prior_to(self) -> None:
        """'Prior to July 21, 2011' ends the day before."""
        p = sentence_period("Prior to July 21, 2011, the threshold amount is $25,000.")
        assert p is not None and p.end == dt.date(2011, 7, 20)

    def test_no_period(self) -> None:
        """A sentence without an explicit range states no period."""
        assert sentence_period("The threshold amount is adjusted annually.") is None


class TestQuestionProfile:
    def test_year_sets_target(self) -> None:
        """An explicit year in the question is the target period."""
        p = profile_question("What was the threshold for 2016?", as_of=dt.date(2020, 1, 1))
        assert p.years == ("2016",)
        assert p.target == Period(dt.date(2016, 1, 1), dt.date(2016, 12, 31))
        assert p.wants_figure == "quantity"

    def test_as_of_is_default_target(self) -> None:
        """Without a year, the as-of date is the target."""
        p = profile_question("Who approves exceptions?", as_of=dt.date(2020, 5, 1))
        assert p.target == Period(dt.date(2020, 5, 1), dt.date(2020, 5, 1))
        assert p.wants_figure is None

    def test_terms_drop_stopwords_and_stem(self) -> None:
        """Stop words go; plurals fold to one term."""
        assert terms("What are the limits for gifts?") == ["limit", "gift"]
