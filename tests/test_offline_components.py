"""The offline generator and rules critic on hand-built evidence."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from evidencegate.contracts import (
    Citation,
    CitationCheck,
    Claim,
    ClaimVerification,
    Draft,
    FailureReason,
    Passage,
    Verdict,
    VerificationFailure,
)
from evidencegate.critique.rules import RulesCritic
from evidencegate.generation.extractive import ExtractiveGenerator

AS_OF = dt.date(2014, 7, 1)
THRESHOLDS = (
    "From January 1, 2013 through December 31, 2013, the threshold amount is $53,000. "
    "From January 1, 2014 through December 31, 2014, the threshold amount is $53,500."
)
DEFINITION = (
    "Consumer lease means a contract for the use of personal property for a total contractual "
    "obligation not exceeding the applicable threshold amount."
)


def passage(text: str, *, pid: str, authority: str = "primary", page: int = 1) -> Passage:
    return Passage(
        passage_id=pid,
        doc_id="REG-M",
        version="v2014",
        page=page,
        char_start=0,
        char_end=len(text),
        text=text,
        authority=authority,  # type: ignore[arg-type]
    )


@pytest.fixture
def evidence() -> list[Passage]:
    return [passage(THRESHOLDS, pid="p1", page=2), passage(DEFINITION, pid="p2", page=1)]


class TestExtractiveGenerator:
    def test_quotes_itself_exactly(self, evidence: list[Passage]) -> None:
        """Each claim's quote is the claim's own sentence, cut from the passage."""
        draft = ExtractiveGenerator().draft("What is the threshold amount?", evidence, as_of=AS_OF)
        assert draft.claims
        for claim in draft.claims:
            (citation,) = claim.citations
            assert citation.quote == claim.text
            assert claim.text in THRESHOLDS or claim.text in DEFINITION

    def test_other_period_never_drafted(self, evidence: list[Passage]) -> None:
        """The 2013 figure listed beside the 2014 one is not drafted as of mid-2014."""
        draft = ExtractiveGenerator().draft("What is the threshold amount?", evidence, as_of=AS_OF)
        texts = " ".join(c.text for c in draft.claims)
        assert "$53,500" in texts
        assert "$53,000" not in texts

    def test_explicit_year_wins_over_as_of(self, evidence: list[Passage]) -> None:
        """A question naming 2013 gets the 2013 sentence even when as-of is 2014."""
        draft = ExtractiveGenerator().draft(
            "What was the threshold amount in 2013?", evidence, as_of=AS_OF
        )
        assert any("$53,000" in c.text for c in draft.claims)
        assert not any("$53,500" in c.text for c in draft.claims)

    def test_secondary_sources_not_drafted(self) -> None:
        """A secondary passage is never quoted by the generator."""
        ev = [
            passage(
                "The threshold amount is $60,000 for every lease.", pid="s", authority="secondary"
            )
        ]
        draft = ExtractiveGenerator().draft("What is the threshold amount?", ev, as_of=AS_OF)
        assert not draft.claims and draft.declined

    def test_avoid_skips_sentences(self, evidence: list[Passage]) -> None:
        """Sentences named in avoid are not drafted again."""
        gen = ExtractiveGenerator()
        first = gen.draft("What is the threshold amount?", evidence, as_of=AS_OF)
        again = gen.draft(
            "What is the threshold amount?", evidence, as_of=AS_OF, avoid=[first.claims[0].text]
        )
        assert first.claims[0].text not in [c.text for c in again.claims]

    def test_off_topic_evidence_declines(self) -> None:
        """Evidence sharing no rare term with the question yields no claim."""
        ev = [passage("Employees must complete annual training on information security.", pid="x")]
        draft = ExtractiveGenerator().draft(
            "What is the cryptocurrency custody limit?", ev, as_of=AS_OF
        )
        assert draft.claims == [] and draft.declined

    def test_an_item_and_its_block_are_one_claim(self) -> None:
        """An item ("a. ...") and the block it opens ("a. ... b. ...") open at one offset: they
        were drafted under one claim id, and the item's citation left with the block's claim.
        The draft now has distinct ids and drops the item its block quotes whole."""
        text = (
            "a. Prevent further access to the system by [Selection (one or more): initiating "
            "a device lock after [Assignment: organization-defined time period] of inactivity; "
            "requiring the user to initiate a device lock before leaving the system "
            "unattended]; and\n  b. Retain the device lock until the user reestablishes access "
            "using established identification and authentication procedures.\n\nDevice locks "
            "are temporary actions taken to prevent logical access to organizational systems "
            "when users stop work and move away from the immediate vicinity of those systems."
        )
        lock = passage(text, pid="ac11", page=83).model_copy(
            update={"context": "AC-11 DEVICE LOCK"}
        )
        draft = ExtractiveGenerator().draft(
            "What kind of lock does control AC-11 require after a period of inactivity?",
            [lock],
            as_of=AS_OF,
        )
        ids = [c.claim_id for c in draft.claims]
        assert ids and len(ids) == len(set(ids))
        (only,) = draft.claims
        assert "b. Retain the device lock" in only.text
        assert [c.quote for c in only.citations] == [only.text]

    def test_a_draft_never_holds_two_claims_under_one_id(self) -> None:
        """Findings are matched to claims by id: a draft repeating an id is invalid."""
        with pytest.raises(ValidationError, match="two claims have the id c1"):
            Draft(claims=[claim("The fee is $5."), claim("The fee is $6.")])


def verified(
    claim: Claim, ok: bool = True, reason: FailureReason | None = None
) -> ClaimVerification:
    cite = claim.citations[0].model_copy(update={"char_start": 0, "char_end": len(claim.text)})
    failures = [VerificationFailure(reason=reason, detail="x")] if reason else []
    return ClaimVerification(
        claim_id=claim.claim_id,
        ok=ok,
        citations=[CitationCheck(citation=cite, ok=ok, failures=failures)],
    )


def claim(text: str, cid: str = "c1") -> Claim:
    return Claim(
        claim_id=cid,
        text=text,
        citations=[Citation(doc_id="REG-M", version="v2014", page=2, quote=text, evidence_id="p1")],
    )


class TestRulesCriticSufficiency:
    def test_sufficient_evidence(self, evidence: list[Passage]) -> None:
        """Evidence with the topic and a figure for the target period is sufficient."""
        s = RulesCritic().sufficiency("What is the threshold amount?", evidence, as_of=AS_OF)
        assert not s.requires_more_context
        assert s.suggested_query is None
        assert s.required_facts

    def test_uncovered_year_is_named(self, evidence: list[Passage]) -> None:
        """A year the evidence does not cover is a missing fact with a follow-up query."""
        s = RulesCritic().sufficiency(
            "What is the threshold amount for 2025?", evidence, as_of=AS_OF
        )
        assert s.requires_more_context
        assert "year: 2025" in s.missing_facts
        assert s.suggested_query and "2025" in s.suggested_query

    def test_no_evidence(self) -> None:
        """Without evidence every fact is missing and a primary source is asked for."""
        s = RulesCritic().sufficiency("What is the threshold amount?", [], as_of=AS_OF)
        assert s.requires_more_context and s.missing_primary_sources


class TestRulesCriticAudit:
    def test_supported_claim_meets_contract(self, evidence: list[Passage]) -> None:
        """A verified on-topic claim with the figure is supported and covers the facts."""
        c = claim(
            "From January 1, 2014 through December 31, 2014, the threshold amount is $53,500."
        )
        audit = RulesCritic().audit(
            "What is the threshold amount?",
            [c],
            [verified(c)],
            evidence,
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED
        assert audit.coverage == 1.0 and audit.contract_met

    def test_verifier_failure_overrules(self, evidence: list[Passage]) -> None:
        """A claim the verifier rejected is never supported; a number mismatch contradicts."""
        c = claim("The threshold amount is $99,000 from now on, for every consumer lease.")
        audit = RulesCritic().audit(
            "What is the threshold amount?",
            [c],
            [verified(c, ok=False, reason=FailureReason.NUMBER_MISMATCH)],
            evidence,
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.CONTRADICTED
        assert not audit.contract_met and audit.coverage < 1.0

    def test_stale_period_is_partial(self, evidence: list[Passage]) -> None:
        """A verified claim about another period does not answer the as-of question."""
        c = claim(
            "From January 1, 2013 through December 31, 2013, the threshold amount is $53,000."
        )
        audit = RulesCritic().audit(
            "What is the threshold amount?",
            [c],
            [verified(c)],
            evidence,
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.PARTIAL
        assert not audit.contract_met

    def test_definition_without_figure_misses_the_figure(self, evidence: list[Passage]) -> None:
        """A supported claim without a figure leaves the 'figure' fact uncovered."""
        c = claim(DEFINITION)
        audit = RulesCritic().audit(
            "What is the threshold amount?",
            [c],
            [verified(c)],
            evidence,
            as_of=AS_OF,
            required_facts=[],
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED
        assert any(f.startswith("figure") for f in audit.missing_facts)
        assert 0 < audit.coverage < 1
