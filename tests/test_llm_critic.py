"""The two-phase LLM critic: what each phase sees, schema validation, repair, fail closed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from llm_support import AS_OF

from evidencegate.contracts import (
    Citation,
    CitationCheck,
    Claim,
    ClaimVerification,
    FailureReason,
    Passage,
    Verdict,
    VerificationFailure,
)
from evidencegate.critique.llm import AUDIT_SCHEMA, SUFFICIENCY_SCHEMA, LLMCritic
from evidencegate.exceptions import CriticOutputInvalid
from evidencegate.prompts import CRITIC_AUDIT, CRITIC_SUFFICIENCY
from evidencegate.providers.scripted import ScriptedChatModel
from evidencegate.schemas import all_schemas

QUESTION = "What is the maximum value of a gift an employee may accept?"
GIFTS = Passage(
    passage_id="p-gifts",
    doc_id="GIFTS",
    version="2024.1",
    page=1,
    char_start=0,
    char_end=84,
    text="Employees may accept a gift with a value of up to $150 per giver per calendar year.",
)
QUOTE = "a value of up to $150 per giver per calendar year"
CLAIM = Claim(
    claim_id="c-1",
    text="The gift limit is $150 per giver.",
    citations=[
        Citation(doc_id="GIFTS", version="2024.1", page=1, quote=QUOTE, evidence_id="p-gifts")
    ],
)
REJECTED = ClaimVerification(
    claim_id="c-1",
    ok=False,
    citations=[
        CitationCheck(
            citation=CLAIM.citations[0],
            ok=False,
            failures=[VerificationFailure(reason=FailureReason.QUOTE_NOT_FOUND, detail="absent")],
        )
    ],
)
SUFFICIENT = {
    "requires_more_context": False,
    "reason": "E1 states the limit.",
    "required_facts": ["gift value limit"],
}


def audit_json(*verdicts: tuple[str, str], evidence: list[str] | None = None) -> str:
    return json.dumps(
        {
            "claims": [
                {"claim_id": cid, "verdict": v, "evidence_ids": evidence or ["E1"], "reason": "r"}
                for cid, v in verdicts
            ],
            "coverage": 1.0,
            "covered_facts": ["gift value limit"],
            "missing_facts": [],
            "contract_met": True,
        }
    )


def audit(critic: LLMCritic, verifications: list[ClaimVerification] | None = None) -> Any:
    return critic.audit(
        QUESTION,
        [CLAIM],
        verifications if verifications is not None else [],
        [GIFTS],
        as_of=AS_OF,
        required_facts=["gift value limit"],
    )


class TestSufficiency:
    def test_sees_question_and_evidence_only(self) -> None:
        """Phase 1's request holds the question and the evidence block, with its own prompt."""
        model = ScriptedChatModel([json.dumps(SUFFICIENT)])
        result = LLMCritic(model).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
        assert result.required_facts == ["gift value limit"]
        (request,) = model.requests
        assert QUESTION in request.messages[0].content
        assert '<evidence id="E1"' in request.messages[0].content
        assert "<claim" not in request.messages[0].content
        assert request.metadata["prompt"] == CRITIC_SUFFICIENCY.id
        assert request.output is not None and request.output.name == "critic_sufficiency"

    def test_invalid_twice_is_critic_output_invalid(self) -> None:
        """Two schema-invalid replies raise CriticOutputInvalid with the errors."""
        model = ScriptedChatModel(['{"reason": "x"}', '{"reason": "y"}'])
        with pytest.raises(CriticOutputInvalid) as info:
            LLMCritic(model).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
        assert info.value.critic == "scripted:scripted-1"
        assert "'requires_more_context' is a required property" in info.value.errors[0]


class TestAudit:
    def test_evidence_ids_map_back_to_passages(self) -> None:
        """Block ids in the verdicts become the passages' ids."""
        model = ScriptedChatModel([audit_json(("c-1", "supported"))])
        result = audit(LLMCritic(model))
        assert result.claims[0].verdict is Verdict.SUPPORTED
        assert result.claims[0].evidence_ids == ["p-gifts"]

    def test_prompt_shows_claims_quotes_and_verifier_result(self) -> None:
        """Phase 2 sees each claim as a data block with its quote and the verifier's result."""
        model = ScriptedChatModel([audit_json(("c-1", "not_found"))])
        audit(LLMCritic(model), [REJECTED])
        (request,) = model.requests
        user = request.messages[0].content
        assert '<claim id="c-1">' in user and f'cites E1: "{QUOTE}"' in user
        assert "verifier: rejected (quote_not_found)" in user
        assert "- gift value limit" in user
        assert request.metadata["prompt"] == CRITIC_AUDIT.id

    def test_missing_verdict_is_repaired(self) -> None:
        """An audit that skips a drafted claim gets the repair call naming the claim."""
        model = ScriptedChatModel([audit_json(), audit_json(("c-1", "supported"))])
        result = audit(LLMCritic(model))
        assert [a.claim_id for a in result.claims] == ["c-1"]
        assert "claim 'c-1' is judged 0 times" in model.requests[1].messages[2].content

    def test_invented_claim_and_evidence_ids_fail_closed(self) -> None:
        """Verdicts on claims that were not drafted, or citing unknown blocks, are invalid."""
        model = ScriptedChatModel(
            [
                audit_json(("c-1", "supported"), ("c-9", "supported")),
                audit_json(("c-1", "supported"), evidence=["E5"]),
            ]
        )
        with pytest.raises(CriticOutputInvalid) as info:
            audit(LLMCritic(model))
        assert "'c-9' is not a drafted claim" in model.requests[1].messages[2].content
        assert "'E5' is not one of the evidence ids (E1)" in info.value.errors[0]

    def test_bad_verdict_value_is_schema_invalid(self) -> None:
        """A verdict outside the enum is rejected by the exported schema."""
        model = ScriptedChatModel([audit_json(("c-1", "probably")), audit_json(("c-1", "maybe"))])
        with pytest.raises(CriticOutputInvalid, match="'maybe' is not one of"):
            audit(LLMCritic(model))


class TestSchemas:
    def test_output_schemas_are_the_exported_ones(self) -> None:
        """The critic validates against schemas/critic_*.schema.json (less their ids)."""
        for name, schema in (
            ("critic_sufficiency", SUFFICIENCY_SCHEMA),
            ("critic_audit", AUDIT_SCHEMA),
        ):
            exported = {k: v for k, v in all_schemas()[name].items() if k not in ("$schema", "$id")}
            assert schema.json_schema == exported, name
