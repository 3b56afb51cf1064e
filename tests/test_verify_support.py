"""Quantities, dates and negations: the same fact written differently compares equal."""

from __future__ import annotations

import pytest

from evidencegate.text import extract_dates, extract_measures, extract_quantities
from evidencegate.verify.agreement import (
    NegationCue,
    claim_date_supported,
    claim_measure_supported,
    claim_quantity_supported,
    negation_cues,
    negation_mismatch,
)


class TestExtractQuantities:
    @pytest.mark.parametrize(
        "text", ["$53,500", "53,500 dollars", "USD 53500", "53500.00", "US$ 53,500.0"]
    )
    def test_amount_forms_share_one_canonical_value(self, text: str) -> None:
        """Currency symbols, codes, separators and trailing zeros do not change the value."""
        assert extract_quantities(f"the amount is {text} in total") == {"53500"}

    @pytest.mark.parametrize("text", ["5%", "5 %", "5 percent", "5 per cent", "five percent"])
    def test_percent_forms_share_one_canonical_value(self, text: str) -> None:
        """A percentage keeps its percent sign whichever way it is written."""
        assert extract_quantities(f"an increase of {text} a year") == {"5%"}

    def test_percent_differs_from_bare_number(self) -> None:
        """5% and 5 are different quantities."""
        assert extract_quantities("5 percent") != extract_quantities("5 items")

    @pytest.mark.parametrize(
        ("words", "digits"),
        [("four months", "4 months"), ("twelve months", "12 months"), ("twenty-five", "25")],
    )
    def test_small_number_words_equal_digits(self, words: str, digits: str) -> None:
        """Small number words canonicalise to the same value as their digits."""
        assert extract_quantities(words) == extract_quantities(digits) != set()

    def test_scale_words_multiply(self) -> None:
        """ "$1.2 million" is 1,200,000."""
        assert extract_quantities("$1.2 million") == extract_quantities("$1,200,000") == {"1200000"}

    def test_decimals_keep_their_fraction(self) -> None:
        """A decimal keeps its significant fraction and drops trailing zeros."""
        assert extract_quantities("a rate of 1.50 and .5") == {"1.5", "0.5"}

    def test_numbers_inside_dates_are_not_quantities(self) -> None:
        """The day and year of a date are not reported again as bare numbers."""
        text = "From January 1, 2014 through 12/31/2014, the threshold amount is $53,500."
        assert extract_quantities(text) == {"53500"}

    def test_bare_year_is_a_date_not_a_quantity(self) -> None:
        """ "in 2014" is a year; "$2,014" and "2014 percent" stay quantities."""
        assert extract_quantities("in 2014") == set()
        assert extract_quantities("$2,014 and 2014 percent") == {"2014", "2014%"}

    def test_legal_citation_numbers_are_identifiers(self) -> None:
        """Section signs, CFR and U.S.C. references carry no quantity."""
        text = "see § 1013.2(e), 12 CFR 226.2(a)(16) and 15 U.S.C. 1601"
        assert extract_quantities(text) == set()

    def test_letter_hyphen_codes_are_identifiers(self) -> None:
        """Control and form codes such as AC-2 or W-2 carry no quantity."""
        assert extract_quantities("control AC-2 and form W-2 for 3 years") == {"3"}

    def test_partial_numbers_are_not_extracted(self) -> None:
        """Ordinals and numbers glued to letters are not amounts."""
        assert extract_quantities("the 21st item, the 1990s, model x5") == set()


class TestExtractDates:
    @pytest.mark.parametrize(
        "text",
        ["January 1, 2014", "Jan. 1, 2014", "1 January 2014", "1st of January, 2014", "2014-01-01"],
    )
    def test_full_date_forms_share_one_iso_value(self, text: str) -> None:
        """Written, day-first and ISO forms of one day give the same ISO date."""
        assert extract_dates(f"effective {text}.") == {"2014-01-01"}

    def test_slashed_dates_are_us_month_first(self) -> None:
        """01/02/2014 is January 2 (US order)."""
        assert extract_dates("on 01/02/2014") == {"2014-01-02"}

    def test_month_and_year(self) -> None:
        """A month with a year is a year-month."""
        assert extract_dates("since July 2011") == {"2011-07"}

    def test_bare_year(self) -> None:
        """A bare year is a year; a range gives both ends."""
        assert extract_dates("in 2014") == {"2014"}
        assert extract_dates("for 2015-2017") == {"2015", "2017"}

    def test_day_of_month_without_year(self) -> None:
        """A recurring day of the year keeps its month and day."""
        assert extract_dates("adjusted effective January 1 of each year") == {"--01-01"}

    def test_may_as_a_verb_is_not_a_month(self) -> None:
        """ "section 4 may apply" names no date."""
        assert extract_dates("section 4 may apply") == set()

    def test_impossible_day_is_not_a_date(self) -> None:
        """02/30/2014 names no real day."""
        assert extract_dates("on 02/30/2014") == {"2014"}


class TestClaimSupport:
    def test_less_precise_claim_date_is_supported(self) -> None:
        """A claim's year or month is supported by a quote's full date within it."""
        quote_dates = extract_dates("From January 1, 2014 through December 31, 2014")
        assert claim_date_supported("2014", quote_dates, set())
        assert claim_date_supported("2014-12", quote_dates, set())
        assert claim_date_supported("--01-01", quote_dates, set())

    def test_more_precise_or_other_date_is_not_supported(self) -> None:
        """A claim's full date is not supported by the quote's year, nor another year by it."""
        assert not claim_date_supported("2014-01-01", {"2014"}, set())
        assert not claim_date_supported("2015", {"2014-01-01"}, set())

    def test_year_and_integer_compare_both_ways(self) -> None:
        """A bare year and the same integer written as a quantity support each other."""
        assert claim_date_supported("2000", set(), extract_quantities("2,000 employees"))
        assert claim_quantity_supported("2000", extract_dates("2000 employees"), set())
        assert not claim_quantity_supported("2001", {"2000"}, {"2000"})


class TestNegation:
    def test_cues_name_negator_and_term(self) -> None:
        """Each negated content word is reported with the negator that governs it."""
        text = "The lessee has no option. It does not include leases; neither lessor nor lessee."
        assert negation_cues(text) == (
            NegationCue("no", "option"),
            NegationCue("not", "include"),
            NegationCue("neither", "lessor"),
            NegationCue("nor", "lessee"),
        )

    def test_contractions_are_negations(self) -> None:
        """ "can't", "cannot", "won't" and "isn't" negate the following word."""
        cues = negation_cues("It can't apply. It cannot apply. It won't apply. It isn't covered.")
        assert [c.term for c in cues] == ["apply", "apply", "apply", "covered"]

    @pytest.mark.parametrize(
        ("claim", "quote"),
        [
            ("The lessor must not provide disclosures.", "The lessor must provide disclosures."),
            ("The lessor may not terminate the lease.", "The lessor may terminate the lease."),
            ("The lessor shall disclose the fee.", "The lessor shall not disclose the fee."),
            ("A safe deposit box lease is a consumer lease.", "It is not a consumer lease."),
            ("The lessee has an option to purchase.", "The lessee has no option to purchase."),
            ("The lessor always discloses the fee.", "The lessor never discloses the fee."),
            ("Both the lessor and the lessee sign.", "Neither the lessor nor the lessee signs."),
            ("Disclosures are required.", "Disclosures are not required."),
            ("The term includes such a lease.", "The term does not include such a lease."),
        ],
    )
    def test_flipped_polarity_is_a_mismatch(self, claim: str, quote: str) -> None:
        """A claim that negates what the quote affirms, or the reverse, is a mismatch."""
        detail = negation_mismatch(claim, [quote])
        assert detail is not None and "the claim says" in detail

    @pytest.mark.parametrize(
        ("claim", "quote"),
        [
            ("The lessor must not provide disclosures.", "A lessor must not provide disclosures."),
            ("The lessee has no option.", "The lessee has no option to purchase."),
            ("Such a lease is not covered.", "It isn't covered by the regulation."),
            ("A lease is covered.", "A lease is covered; a loan is not covered."),
            ("The lease term exceeds four months.", "The lessor must not provide disclosures."),
        ],
    )
    def test_same_polarity_or_unrelated_words_are_no_mismatch(self, claim: str, quote: str) -> None:
        """Agreeing polarity, mixed quote polarity or no shared word is not a mismatch."""
        assert negation_mismatch(claim, [quote]) is None

    def test_detail_names_both_phrases(self) -> None:
        """The detail quotes the claim's phrase and the quote's opposite phrase."""
        detail = negation_mismatch("It is subject to the rule.", ["It is not subject to the rule."])
        assert detail == "the claim says 'subject' but the quoted text only says 'not subject'"

    def test_any_quote_can_carry_the_matching_polarity(self) -> None:
        """With several quotes, one agreeing occurrence is enough."""
        quotes = ["The lease is not subject to it.", "The other lease is subject to it."]
        assert negation_mismatch("The lease is subject to it.", quotes) is None

    def test_punctuation_ends_a_negation(self) -> None:
        """A negation does not reach across a clause boundary."""
        assert negation_cues("OMB No. 3170-0013 covers leases") == ()


class TestMeasures:
    def test_units_follow_the_number(self) -> None:
        """A quantity carries the unit words right after it."""
        assert ("30", frozenset({"business", "day"})) in extract_measures(
            "within 30 business days of receipt"
        )

    def test_same_value_other_units_is_not_support(self) -> None:
        """'30 business days' is not supported by '20 business days … within 30 days'."""
        quote = extract_measures("respond within 20 business days, and in any case within 30 days")
        assert not claim_measure_supported("30", frozenset({"business", "day"}), quote)

    def test_claim_units_may_be_fewer(self) -> None:
        """'30 days' is supported by '30 calendar days' (the claim is less specific)."""
        quote = extract_measures("hold it for 30 calendar days")
        assert claim_measure_supported("30", frozenset({"day"}), quote)

    def test_no_units_keeps_the_plain_rule(self) -> None:
        """A claim number without a unit word needs only the value."""
        assert claim_measure_supported("53500", frozenset(), set())
