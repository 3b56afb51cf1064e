"""The rules critic refuses a real quote that answers a neighbouring question: the asked
alternatives, frequency, time or company are not stated, or the claims state a part of a
filing's measure the question does not ask. Each check also lets the right answer through."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import QuestionProfile, profile_question
from evidencegate.critique.rules import (
    _alternative_unstated,
    _company_unnamed,
    _frequency_unstated,
    _submeasure_unasked,
    _time_unstated,
)
from tests.audit_support import claim

AS_OF = dt.date(2024, 6, 1)


def profile(question: str) -> QuestionProfile:
    return profile_question(question, as_of=AS_OF)


class TestAlternatives:
    QUESTION = (
        "When lessor must give the disclosures to lessee, before or after the lease is signed?"
    )

    def test_neither_alternative_stated_is_refused(self) -> None:
        itemize = "The lessor shall itemize each component by type and amount."
        assert _alternative_unstated(profile(self.QUESTION), [claim(itemize)]) == (
            "kind: before or after (the claims state neither)"
        )

    def test_either_alternative_or_its_synonym_answers(self) -> None:
        prior = "The lessor shall give the disclosures prior to consummation of the lease."
        assert _alternative_unstated(profile(self.QUESTION), [claim(prior)]) is None
        oral = "A financial institution may require written confirmation of an oral notice."
        question = "Can the consumer give the notice orally or in writing?"
        assert _alternative_unstated(profile(question), [claim(oral)]) is None

    def test_a_question_offering_no_alternatives_is_left_alone(self) -> None:
        itemize = "The lessor shall itemize each component by type and amount."
        assert _alternative_unstated(profile("What must the lessor itemize?"), [itemize]) is None


class TestFrequencyAndTime:
    def test_a_terse_frequency_part_is_answered_by_a_recurrence(self) -> None:
        question = "PEP: risk rating, kyc refresh freq, cdd record retention after it ends?"
        recorded = "5.6 The outcome of every KYC Refresh must be recorded in the customer file."
        assert _frequency_unstated(profile(question), [claim(recorded)]) == (
            "kind: a frequency (how often), where the claims state none"
        )
        refreshed = "5.1 The KYC information of a high-risk customer must be refreshed at least"
        refreshed += " every 12 months."
        assert _frequency_unstated(profile(question), [claim(recorded), claim(refreshed)]) is None

    def test_a_time_asked_by_a_noun_needs_some_time_stated(self) -> None:
        question = "pre-clearance request - turnaround time for Compliance?"
        refused = "4.5 Compliance may refuse pre-clearance without giving a reason."
        assert _time_unstated(profile(question), [claim(refused)]) == (
            "kind: a time (the claims state none)"
        )
        valid = "4.2 Pre-clearance approval is valid for 2 business days from the time granted."
        assert _time_unstated(profile(question), [claim(valid)]) is None
        promptly = "Compliance must answer each request promptly."
        assert _time_unstated(profile(question), [claim(promptly)]) is None
        assert _time_unstated(profile("Who grants pre-clearance?"), [claim(refused)]) is None


class TestCompanyAndMeasure:
    def test_which_company_needs_a_name_the_question_does_not_give(self) -> None:
        question = "Which company did Amcor acquire on May 31, 2023, and for what consideration?"
        terms = "The purchase consideration of $60 million is subject to customary adjustments."
        assert _company_unnamed(profile(question), [claim(terms)]) == (
            "name: the company asked for (the claims name none)"
        )
        sold = "On December 23, 2022, the Company completed the sale of its Russian business."
        assert _company_unnamed(profile(question), [claim(sold)]) is not None
        named = "On May 31, 2023, the Company acquired 100% of Moda Systems for $60 million."
        assert _company_unnamed(profile(question), [claim(named)]) is None
        day = "What does business day mean in Regulation E?"
        assert _company_unnamed(profile(day), [claim(terms)]) is None

    def test_a_sub_measure_the_question_does_not_ask_is_refused(self) -> None:
        question = "What were Johnson & Johnson's total assets at the end of fiscal 2022?"
        fair = "The Company's financial assets measured at fair value as of 2022 were $1,234."
        assert _submeasure_unasked(profile(question), [claim(fair)], True) == (
            "distinct: fair value (the claims state a measure the question does not ask)"
        )
        total = "Total assets, 2022: 187,378"
        assert _submeasure_unasked(profile(question), [claim(total)], True) is None
        # Rules quoted are no report; and a question naming the part asks it.
        assert _submeasure_unasked(profile(question), [claim(fair)], False) is None
        asked = "What was the fair value of J&J's financial assets in 2022?"
        assert _submeasure_unasked(profile(asked), [claim(fair)], True) is None

    def test_a_unit_header_or_a_widening_coordination_is_no_sub_measure(self) -> None:
        question = "What were Amcor's net sales in fiscal 2023?"
        header = "Net sales, 2023: $14,694 ($ in millions, except per share data)"
        assert _submeasure_unasked(profile(question), [claim(header)], True) is None
        capex = "How much did Amcor spend buying property, plant and equipment in fiscal 2023?"
        widened = "Purchase of property, plant, and equipment, and other intangible assets: (526)"
        assert _submeasure_unasked(profile(capex), [claim(widened)], True) is None
        acquired = "Amortization expense for acquired finite-lived intangible assets was $241."
        question = "What was Boeing's depreciation and amortization expense for 2022?"
        assert _submeasure_unasked(profile(question), [claim(acquired)], True) is not None
