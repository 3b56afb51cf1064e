"""Normalisation and quote location: robust to extraction accidents, exact on offsets."""

from __future__ import annotations

import pytest

from evidencegate.contracts import FailureReason
from evidencegate.text import normalize
from evidencegate.verify.quotes import QuoteMatch, locate_quote, quote_fragments

PAGE = (
    "Consumer lease means a contract in the form of a bailment or lease for the use of personal\n"
    "property by a natural person, for a period exceeding four months and for a total contrac-\n"
    "tual obligation not exceeding the applicable threshold amount. "
    "The lessor\u2019s \u201cnotice\u201d\n"
    "\u2014 given in writing \u2013 is final. From January 1, 2014 through December 31, 2014,\n"
    "the threshold amount is $53,500."
)


def _slice(page: str, match: QuoteMatch | FailureReason) -> str:
    assert isinstance(match, QuoteMatch), match
    return page[match.char_start : match.char_end]


class TestNormalize:
    def test_nfkc_folds_compatibility_characters(self) -> None:
        """Ligatures, full-width letters and non-breaking spaces become their plain forms."""
        assert normalize("\ufb01nal \uff21BC\u00a0x")[0] == "final abc x"

    def test_casefold(self) -> None:
        """Case does not matter, including characters whose fold is longer (ß -> ss)."""
        assert normalize("The LESSEE Straße")[0] == "the lessee strasse"

    def test_typographic_quotes_become_ascii(self) -> None:
        """Curly single and double quotes are the ASCII apostrophe and double quote."""
        assert normalize("the lessor\u2019s \u201cnotice\u201d")[0] == 'the lessor\'s "notice"'

    def test_dashes_become_hyphens(self) -> None:
        """Em dash, en dash, minus sign and non-breaking hyphen are all ASCII hyphens."""
        assert normalize("a\u2014b\u2013c\u2212d\u2011e")[0] == "a-b-c-d-e"

    def test_hyphenation_across_a_line_break_is_removed(self) -> None:
        """A word split by a hyphen at a line end is rejoined."""
        assert normalize("regu-\nlation and contrac- \r\n  tual")[0] == "regulation and contractual"

    def test_soft_hyphen_is_invisible_and_joins_a_line_break(self) -> None:
        """A soft hyphen is dropped inside a line and rejoins a word split across lines."""
        assert normalize("regu\u00adlation regu\u00ad\nlation")[0] == "regulation regulation"

    def test_real_hyphens_between_numbers_or_before_capitals_stay(self) -> None:
        """A range or a capitalised continuation is not a hyphenated word."""
        assert normalize("1990-\n2000 Part A-\nPart B")[0] == "1990- 2000 part a- part b"

    def test_whitespace_runs_collapse_and_ends_are_trimmed(self) -> None:
        """Spaces, tabs and newlines collapse to one space; leading/trailing ones go."""
        assert (
            normalize("  the\tlessee \n\n has\u2003 no option \n")[0] == "the lessee has no option"
        )

    def test_offsets_map_each_normalised_char_to_its_original(self) -> None:
        """Each normalised character points at the original character it came from."""
        text = "A  \u201cB\u201d-\nc"
        normalized, offsets = normalize(text)
        assert normalized == 'a "b"- c'
        assert [text[i] for i in offsets] == ["A", " ", "\u201c", "B", "\u201d", "-", "\n", "c"]

    def test_combining_sequence_composes_to_one_char(self) -> None:
        """A letter plus a combining accent is one normalised character at the letter's index."""
        normalized, offsets = normalize("cafe\u0301 x")
        assert normalized == "caf\u00e9 x"
        assert offsets == [0, 1, 2, 3, 5, 6]


class TestQuoteFragments:
    def test_ellipses_split_and_normalise(self) -> None:
        """Both ASCII and Unicode ellipses split a quote; empty pieces are dropped."""
        assert quote_fragments("...The Lessee \u2026 has  no ... option...") == [
            "the lessee",
            "has no",
            "option",
        ]


class TestLocateQuote:
    def test_exact_quote_maps_to_exact_offsets(self) -> None:
        """A verbatim quote's offsets slice exactly that text out of the page."""
        match = locate_quote(PAGE, "the threshold amount is $53,500")
        assert _slice(PAGE, match) == "the threshold amount is $53,500"

    def test_case_whitespace_and_hyphenation_differences_are_tolerated(self) -> None:
        """A quote written on one line still finds text hyphenated across lines."""
        quote = "FOR A TOTAL CONTRACTUAL OBLIGATION not exceeding"
        sliced = _slice(PAGE, locate_quote(PAGE, quote))
        assert sliced == "for a total contrac-\ntual obligation not exceeding"
        assert normalize(sliced)[0] == normalize(quote)[0]

    def test_ascii_quote_finds_typographic_text(self) -> None:
        """Straight quotes and hyphens in the quote match curly quotes and dashes in the page."""
        quote = 'The lessor\'s "notice" - given in writing - is final.'
        sliced = _slice(PAGE, locate_quote(PAGE, quote))
        assert sliced.startswith("The lessor\u2019s") and sliced.endswith("is final.")
        assert normalize(sliced)[0] == normalize(quote)[0]

    def test_nfkc_quote_finds_ligature_text(self) -> None:
        """A quote typed without a ligature finds the page's ligature, and the reverse."""
        page = "This is the \ufb01nal rule."
        assert _slice(page, locate_quote(page, "the final rule")) == "the \ufb01nal rule"
        assert _slice("the final rule", locate_quote("the final rule", "the \ufb01nal")) == (
            "the final"
        )

    @pytest.mark.parametrize(
        "quote",
        [
            "natural person, for a period exceeding four months",
            "From January 1, 2014 through December 31, 2014,",
            "contrac-\ntual",
            "TOTAL   contractual",
        ],
    )
    def test_original_slice_normalises_to_the_quote(self, quote: str) -> None:
        """Whatever the quote's form, the located original slice normalises to the quote."""
        sliced = _slice(PAGE, locate_quote(PAGE, quote))
        assert normalize(sliced)[0] == normalize(quote)[0]

    def test_absent_quote_is_not_found(self) -> None:
        """A sentence the page does not contain is QUOTE_NOT_FOUND."""
        assert (
            locate_quote(PAGE, "the threshold amount is $54,600") is FailureReason.QUOTE_NOT_FOUND
        )

    def test_quote_cannot_borrow_part_of_a_number(self) -> None:
        """A number is matched whole: "4 months" is not in "14 months", "53,5" not in "53,500"."""
        assert locate_quote("a lease for 14 months", "4 months") is FailureReason.QUOTE_NOT_FOUND
        assert locate_quote("amount is $53,500", "amount is $53,5") is FailureReason.QUOTE_NOT_FOUND
        assert (
            locate_quote("amount is 53,500.75 today", "amount is 53,500")
            is FailureReason.QUOTE_NOT_FOUND
        )

    def test_quote_cannot_borrow_part_of_a_word(self) -> None:
        """A fragment must start and end on word boundaries of the page."""
        assert (
            locate_quote("the release of liens", "lease of liens") is FailureReason.QUOTE_NOT_FOUND
        )

    def test_later_whole_word_occurrence_is_found(self) -> None:
        """When the first occurrence is inside a word, a later whole-word one is used."""
        page = "release the lease"
        assert _slice(page, locate_quote(page, "lease")) == "lease"
        match = locate_quote(page, "lease")
        assert isinstance(match, QuoteMatch) and match.char_start == 12

    def test_ellipsis_fragments_in_order_span_first_to_last(self) -> None:
        """Elided fragments in page order give one span from the first start to the last end."""
        match = locate_quote(PAGE, "Consumer lease means ... a natural person \u2026 four months")
        sliced = _slice(PAGE, match)
        assert sliced.startswith("Consumer lease means a contract")
        assert sliced.endswith("exceeding four months")

    def test_ellipsis_fragments_out_of_order(self) -> None:
        """Fragments that all exist but in another order are FRAGMENTS_OUT_OF_ORDER."""
        quote = "the threshold amount is $53,500 ... Consumer lease means"
        assert locate_quote(PAGE, quote) is FailureReason.FRAGMENTS_OUT_OF_ORDER

    def test_repeated_fragment_must_not_overlap(self) -> None:
        """A fragment repeated in the quote needs a second, later occurrence in the page."""
        assert locate_quote("alpha beta", "alpha ... alpha") is FailureReason.FRAGMENTS_OUT_OF_ORDER
        match = locate_quote("alpha beta alpha", "alpha ... alpha")
        assert isinstance(match, QuoteMatch) and (match.char_start, match.char_end) == (0, 16)

    def test_ellipsis_with_a_missing_fragment_is_not_found(self) -> None:
        """When one fragment occurs nowhere the quote is QUOTE_NOT_FOUND, not out of order."""
        quote = "Consumer lease means ... a fabricated clause"
        assert locate_quote(PAGE, quote) is FailureReason.QUOTE_NOT_FOUND

    def test_quote_of_only_ellipses_is_not_found(self) -> None:
        """A quote with no text between its ellipses locates nothing."""
        assert locate_quote(PAGE, " ... \u2026 ") is FailureReason.QUOTE_NOT_FOUND


class TestPercentSpacing:
    def test_space_before_percent_sign_is_layout(self) -> None:
        """'19.1 %' and '19.1%' are one quote: extractors differ only in that space."""
        page = "Operating income margin 19.1 % 20.8 % (1.7)%"
        match = locate_quote(page, "Operating income margin 19.1% 20.8% (1.7) %")
        assert isinstance(match, QuoteMatch)
        assert (match.char_start, match.char_end) == (0, len(page))
