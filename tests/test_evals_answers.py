"""Expected-answer scoring: normalisation, number-aware matching and the outcome classes."""

from __future__ import annotations

import pytest

from evidencegate.evals.answers import (
    AnswerClass,
    EmittedClaim,
    alternative_pattern,
    grade_answer,
    matches,
    normalize_answer,
)
from evidencegate.evals.golden import ExpectedAnswer

REG_M = ExpectedAnswer(
    all_of=[["$51,800", "51,800"]],
    none_of=["$50,000", "$53,000", "$54,600"],
)


def claims(*texts: str, covers: tuple[int, ...] = ()) -> list[EmittedClaim]:
    return [
        EmittedClaim(f"c{n}", text, covers_required=n in covers)
        for n, text in enumerate(texts, start=1)
    ]


def grade(expected: ExpectedAnswer | None, *texts: str, answerable: bool = True) -> AnswerClass:
    return grade_answer(
        expected, answerable=answerable, failed=False, claims=claims(*texts)
    ).answer_class


class TestNormalize:
    def test_typography_is_folded(self) -> None:
        """Curly quotes, dashes, minus signs, NBSP and soft hyphens become plain ASCII text."""
        text = "The lender\u2019s \u201cfee\u201d \u2014 \u22125\u00a0%  for\u00adbearance"
        assert normalize_answer(text) == 'The lender\'s "fee" - -5 % forbearance'

    def test_fullwidth_digits_are_nfkc_folded(self) -> None:
        """NFKC turns full-width digits and signs into ASCII, so they match too."""
        assert matches("$51,800", "\uff15\uff11,\uff18\uff10\uff10")


class TestNumbers:
    @pytest.mark.parametrize(
        "text",
        ["the threshold is $51,800.", "51800", "$51800", "USD 51,800", "(51,800)", "€51,800"],
    )
    def test_amount_matches_with_or_without_separator_and_sign(self, text: str) -> None:
        """'$51,800' is found however the answer writes the same number."""
        assert matches("$51,800", text)

    def test_plain_number_matches_a_grouped_one(self) -> None:
        """An alternative without separators matches the number written with them."""
        assert matches("1577", "purchases of PP&E (1,577)")

    @pytest.mark.parametrize("text", ["51,800", "$51,800", "1,8000", "1,800.5", "21,800"])
    def test_number_inside_another_number_does_not_match(self, text: str) -> None:
        """'1,800' is not found inside 51,800, 1,8000 or 1,800.5: numbers match whole."""
        assert not matches("1,800", text)

    def test_sentence_full_stop_is_not_a_decimal(self) -> None:
        """A full stop after the number ends the sentence, not the number."""
        assert matches("1,800", "The limit is $1,800. It applies to leases.")

    def test_decimals_must_agree(self) -> None:
        """4.9% does not match 4.95% or 14.9%, and matches '4.9 percent'."""
        assert matches("4.9%", "grew 4.9 percent")
        assert matches("4.9%", "4.9 %")
        assert not matches("4.9%", "4.95%")
        assert not matches("4.9%", "14.9%")

    def test_year_inside_a_fiscal_label_matches(self) -> None:
        """'2022' is found in 'FY2022': a letter is not a digit."""
        assert matches("2022", "revenue for FY2022")


class TestWords:
    def test_case_and_whitespace_are_ignored(self) -> None:
        """Case and runs of whitespace do not matter."""
        assert matches("consumer lease", "CONSUMER\n  Lease")

    def test_words_match_at_word_boundaries(self) -> None:
        """'lease' is not found inside 'release' or 'leases'."""
        assert not matches("lease", "the release date")
        assert not matches("lease", "two leases")

    def test_control_id_does_not_match_a_longer_one(self) -> None:
        """'AC-2' is not found in 'AC-20' but is in 'AC-2(1)'."""
        assert not matches("AC-2", "see AC-20")
        assert matches("AC-2", "control AC-2(1)")

    def test_curly_apostrophe_in_the_answer_matches_a_straight_one(self) -> None:
        """An alternative typed with ' matches the source's ’."""
        assert matches("lessor's", "the lessor\u2019s obligation")


class TestRegex:
    def test_regex_alternative_is_searched_case_insensitively(self) -> None:
        """'re:' alternatives are Python regexes, case-insensitive."""
        assert matches(r"re:\b4\.9\d?\s*%", "margin of 4.93 %")
        assert matches(r"re:net\s+income", "NET INCOME rose")
        assert not matches(r"re:\b4\.9\d?\s*%", "margin of 14.93 %")

    def test_regex_sees_normalised_text(self) -> None:
        """A regex written with an ASCII hyphen matches an en dash in the answer."""
        assert alternative_pattern("re:2019-2020").search(normalize_answer("2019\u20132020"))


class TestGradeAnswer:
    def test_answer_with_the_expected_value_is_correct(self) -> None:
        """Every all_of group matched and no none_of value: correct."""
        result = grade_answer(
            REG_M,
            answerable=True,
            failed=False,
            claims=claims("From January 1, 2012 the threshold amount is $51,800."),
        )
        assert result.answer_class is AnswerClass.CORRECT
        assert result.matched == ["0:$51,800", "0:51,800"]
        assert result.missing_groups == [] and result.forbidden == []

    def test_a_none_of_value_makes_a_right_answer_wrong(self) -> None:
        """Stating another year's figure next to the right one is wrong."""
        result = grade_answer(
            REG_M,
            answerable=True,
            failed=False,
            claims=claims("In 2012 it is $51,800.", "In 2013 it is $53,000."),
        )
        assert result.answer_class is AnswerClass.WRONG
        assert result.forbidden == ["$53,000"]

    def test_missing_group_is_wrong(self) -> None:
        """An answer that states only one of two required values is wrong, naming the group."""
        expected = ExpectedAnswer(all_of=[["$1,577"], ["2018"]])
        result = grade_answer(
            expected, answerable=True, failed=False, claims=claims("capex was 1,577")
        )
        assert result.answer_class is AnswerClass.WRONG
        assert result.missing_groups == [1]

    def test_a_real_quote_with_the_wrong_figure_is_wrong(self) -> None:
        """A verbatim quote that states a near miss (1,800 for 51,800) is wrong, not correct."""
        assert grade(REG_M, "the threshold amount is $1,800") is AnswerClass.WRONG

    def test_groups_may_be_matched_by_different_claims(self) -> None:
        """The answer text is all emitted claims: one claim per expected value is enough."""
        expected = ExpectedAnswer(all_of=[["$1,577"], ["2018"]])
        assert grade(expected, "capex was $1,577 million", "in fiscal 2018") is AnswerClass.CORRECT

    def test_answering_an_unanswerable_item_is_wrong(self) -> None:
        """Any emitted claim on an unanswerable item is a wrong answer."""
        assert grade(None, "a nearby sentence", answerable=False) is AnswerClass.WRONG

    def test_abstentions_are_classed_by_answerability(self) -> None:
        """No claim: abstained on an answerable item, a correct abstention on an unanswerable."""
        assert grade(REG_M) is AnswerClass.ABSTAINED
        assert grade(None, answerable=False) is AnswerClass.CORRECT_ABSTENTION

    def test_redacted_answer_is_graded_on_the_claims_it_kept(self) -> None:
        """A redacted answer is graded on its remaining claims; none left is an abstention."""
        assert grade(REG_M, "the threshold amount is $51,800") is AnswerClass.CORRECT
        assert grade(REG_M, "an advertising rule") is AnswerClass.WRONG
        assert grade(REG_M) is AnswerClass.ABSTAINED

    def test_failed_run_is_failed_whatever_it_emitted(self) -> None:
        """A failed run is never correct, even with the right value in a claim."""
        result = grade_answer(REG_M, answerable=True, failed=True, claims=claims("$51,800"))
        assert result.answer_class is AnswerClass.FAILED

    def test_answerable_item_without_expectation_is_unscored(self) -> None:
        """No expected answer yet: the answer is neither correct nor wrong."""
        assert grade(None, "$51,800") is AnswerClass.UNSCORED

    def test_noise_claims_are_those_that_neither_answer_nor_cover_evidence(self) -> None:
        """A claim with no expected value and no required evidence is noise; the others are not."""
        result = grade_answer(
            REG_M,
            answerable=True,
            failed=False,
            claims=claims(
                "the threshold is $51,800",
                "advertising must disclose the lease term",
                "the threshold is adjusted annually",
                covers=(3,),
            ),
        )
        assert result.answer_class is AnswerClass.CORRECT
        assert result.noise_claims == ["c2"]

    def test_signature_ignores_claim_order_and_wording(self) -> None:
        """Two answers with the same class and the same matched values have equal signatures."""
        one = grade_answer(REG_M, answerable=True, failed=False, claims=claims("x", "$51,800"))
        two = grade_answer(REG_M, answerable=True, failed=False, claims=claims("it is 51800 USD"))
        other = grade_answer(REG_M, answerable=True, failed=False, claims=claims("$53,000"))
        assert one.signature() == two.signature()
        assert one.signature() != other.signature()
