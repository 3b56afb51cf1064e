"""The edit detector, and the rules critic's audit judging edited claims against their quotes."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.contracts import (
    Citation,
    CitationCheck,
    Claim,
    ClaimVerification,
    Passage,
    Verdict,
)
from evidencegate.critique.rules import RulesCritic
from evidencegate.verify.edits import (
    EvidenceText,
    content_terms,
    find_edits,
    missing_terms,
    name_parts,
)

AS_OF = dt.date(2014, 7, 1)
QUOTE = (
    "On March 3, 2014, the Bureau of Consumer Financial Protection raised the threshold "
    "amount to $53,500 for leases signed in Ohio. The increase does not apply to "
    "agricultural leases."
)

#: One edited claim per kind, with the kind the detector must report.
EDITED = [
    ("number", "The Bureau raised the threshold amount to $55,800 for leases signed in Ohio."),
    ("date", "On March 3, 2015, the Bureau raised the threshold amount for leases in Ohio."),
    ("name", "The Bureau raised the threshold amount to $53,500 for leases signed in Texas."),
    ("negation", "The increase does apply to agricultural leases."),
    ("negation", "The Bureau did not raise the threshold amount for leases signed in Ohio."),
    ("word", "The Bureau of Consumer Financial Protection lowered the threshold amount."),
    ("word", "The Bureau raised the temporary threshold amount to $53,500 for leases in Ohio."),
]

#: Faithful restatements: the same figures, date, names and polarity, other wording.
FAITHFUL = [
    "The threshold amount was raised to $53,500 by the Bureau for leases signed in Ohio.",
    "For leases signed in Ohio, the threshold amount rose to $53,500 on March 3, 2014.",
    "Agricultural leases are not covered by the increase.",
    "The Consumer Financial Protection Bureau raised the threshold amount.",
]


class TestNameParts:
    def test_sentence_and_item_openers_are_not_names(self) -> None:
        """A capitalised word opening a sentence, a list item or a quotation is not a name."""
        assert name_parts("Leases signed in Ohio.") == ["ohio"]
        assert name_parts("- Provides access to Midtown") == ["midtown"]
        assert name_parts('He said "Leases are exempt".') == []

    def test_acronyms_and_months(self) -> None:
        """An acronym is a name even first; a month or weekday is a date, never a name."""
        assert name_parts("CFPB issued the rule on Monday, March 3.") == ["cfpb"]


class TestContentTerms:
    def test_snowball_stems_and_no_numbers(self) -> None:
        """Content words are Snowball-stemmed; stop words and numbers are left out."""
        assert content_terms("The studies were running in 2014") == ["studi", "run"]

    def test_derived_forms_are_counterparts(self) -> None:
        """'production' has the counterpart 'produced' (a shared five-letter stem prefix)."""
        evidence = EvidenceText("The film was produced in Rome.")
        assert missing_terms("The production was in Rome.", evidence) == []
        assert missing_terms("The premiere was in Rome.", evidence) == ["premier"]


class TestFindEdits:
    @pytest.mark.parametrize(("kind", "claim"), EDITED)
    def test_each_edit_kind_is_found(self, kind: str, claim: str) -> None:
        """A changed figure, date, name, polarity or swapped-in word is reported by kind."""
        kinds = {e.kind for e in find_edits(claim, EvidenceText(QUOTE))}
        assert kind in kinds

    @pytest.mark.parametrize("claim", FAITHFUL)
    def test_faithful_paraphrase_has_no_edit(self, claim: str) -> None:
        """A restatement with the same facts has no edit."""
        assert find_edits(claim, EvidenceText(QUOTE)) == []

    def test_copied_text_has_no_edit(self) -> None:
        """A claim copied from its quote (the extractive generator's) has no edit."""
        assert find_edits(QUOTE, EvidenceText(QUOTE)) == []

    def test_edit_names_what_changed(self) -> None:
        """The description quotes the claim's words that have no counterpart."""
        (edit,) = find_edits(EDITED[2][1], EvidenceText(QUOTE))
        assert edit.kind == "name" and "'texas'" in edit.describe()

    def test_negation_scope_narrows_the_check(self) -> None:
        """Negation is judged against the given scope, not the whole evidence, when given."""
        claim = "The increase does apply to agricultural leases."
        scoped = find_edits(claim, EvidenceText(QUOTE), negation_scope="It does apply to leases.")
        assert all(e.kind != "negation" for e in scoped)


def _claim(text: str) -> Claim:
    return Claim(
        claim_id="c1",
        text=text,
        citations=[
            Citation(doc_id="REG-M", version="v2014", page=2, quote=QUOTE, evidence_id="p1")
        ],
    )


def _verified(claim: Claim) -> ClaimVerification:
    cite = claim.citations[0].model_copy(update={"char_start": 0, "char_end": len(QUOTE)})
    return ClaimVerification(
        claim_id=claim.claim_id, ok=True, citations=[CitationCheck(citation=cite, ok=True)]
    )


def _evidence() -> list[Passage]:
    return [
        Passage(
            passage_id="p1",
            doc_id="REG-M",
            version="v2014",
            page=2,
            char_start=0,
            char_end=len(QUOTE),
            text=QUOTE,
            authority="primary",
        )
    ]


def _audit(text: str, *, verify: bool = True) -> tuple[Verdict, str]:
    claim = _claim(text)
    audit = RulesCritic().audit(
        "What is the threshold amount in Ohio?",
        [claim],
        [_verified(claim)] if verify else [],
        _evidence(),
        as_of=AS_OF,
        required_facts=[],
    )
    return audit.claims[0].verdict, audit.claims[0].reason


class TestRulesCriticAuditEdits:
    @pytest.mark.parametrize(("kind", "claim"), EDITED)
    def test_edited_claim_is_not_supported(self, kind: str, claim: str) -> None:
        """A figure, date or negation edit contradicts the quotes; a name or word is not found."""
        verdict, reason = _audit(claim)
        expected = (
            Verdict.CONTRADICTED if kind in {"number", "date", "negation"} else Verdict.NOT_FOUND
        )
        assert verdict is expected
        assert reason.startswith("quotes verified, but ")

    @pytest.mark.parametrize("claim", FAITHFUL[:3])
    def test_faithful_paraphrase_stays_supported(self, claim: str) -> None:
        """A restatement with the same facts and enough shared terms is supported."""
        assert _audit(claim)[0] is Verdict.SUPPORTED

    def test_copied_claim_is_supported(self) -> None:
        """The extractive generator's claim, its own quote, passes the edit check."""
        assert _audit(QUOTE)[0] is Verdict.SUPPORTED

    def test_synonym_from_the_lexicon_is_a_counterpart(self) -> None:
        """A word swapped for its lexicon synonym ('lender' for 'creditor') is no edit."""
        claim = Claim(
            claim_id="c1",
            text="Within 30 days the lender must notify the applicant.",
            citations=[
                Citation(
                    doc_id="REG-M",
                    version="v2014",
                    page=2,
                    quote="Within 30 days the creditor must notify the applicant.",
                    evidence_id="p1",
                )
            ],
        )
        audit = RulesCritic().audit(
            "When must the applicant be notified?",
            [claim],
            [],
            [],
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED
        assert find_edits(claim.text, EvidenceText(claim.citations[0].quote))

    def test_self_critique_checks_edits_too(self) -> None:
        """Without a verifier result the claim is still checked against its own quotes."""
        verdict, reason = _audit(EDITED[2][1], verify=False)
        assert verdict is Verdict.NOT_FOUND and reason.startswith("self-critique")
