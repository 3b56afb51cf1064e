"""The two-phase LLM critic: what each phase sees, schema validation, repair, fail closed;
contract v1 (kept for replay) and v2 (verdicts only, coverage computed by the engine)."""

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
from evidencegate.critique.llm import (
    AUDIT_SCHEMA,
    JUDGEMENT_SCHEMA,
    SUFFICIENCY_SCHEMA,
    VERDICTS_SCHEMA,
    LLMCritic,
)
from evidencegate.exceptions import CriticOutputInvalid
from evidencegate.prompts import (
    CRITIC_AUDIT,
    CRITIC_AUDIT_V2,
    CRITIC_SUFFICIENCY,
    CRITIC_SUFFICIENCY_V2,
)
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


class TestSufficiencyV1:
    def test_sees_question_and_evidence_only(self) -> None:
        """Phase 1's request holds the question and the evidence block, with its own prompt."""
        model = ScriptedChatModel([json.dumps(SUFFICIENT)])
        result = LLMCritic(model, contract=1).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
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
            LLMCritic(model, contract=1).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
        assert info.value.critic == "scripted:scripted-1"
        assert "'requires_more_context' is a required property" in info.value.errors[0]


class TestAuditV1:
    def test_evidence_ids_map_back_to_passages(self) -> None:
        """Block ids in the verdicts become the passages' ids."""
        model = ScriptedChatModel([audit_json(("c-1", "supported"))])
        result = audit(LLMCritic(model, contract=1))
        assert result.claims[0].verdict is Verdict.SUPPORTED
        assert result.claims[0].evidence_ids == ["p-gifts"]

    def test_prompt_shows_claims_quotes_and_verifier_result(self) -> None:
        """Phase 2 sees each claim as a data block with its quote and the verifier's result."""
        model = ScriptedChatModel([audit_json(("c-1", "not_found"))])
        audit(LLMCritic(model, contract=1), [REJECTED])
        (request,) = model.requests
        user = request.messages[0].content
        assert '<claim id="c-1">' in user and f'cites E1: "{QUOTE}"' in user
        assert "verifier: rejected (quote_not_found)" in user
        assert "- gift value limit" in user
        assert request.metadata["prompt"] == CRITIC_AUDIT.id

    def test_missing_verdict_is_repaired(self) -> None:
        """An audit that skips a drafted claim gets the repair call naming the claim."""
        model = ScriptedChatModel([audit_json(), audit_json(("c-1", "supported"))])
        result = audit(LLMCritic(model, contract=1))
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
            audit(LLMCritic(model, contract=1))
        assert "'c-9' is not a drafted claim" in model.requests[1].messages[2].content
        assert "'E5' is not one of the evidence ids (E1)" in info.value.errors[0]

    def test_bad_verdict_value_is_schema_invalid(self) -> None:
        """A verdict outside the enum is rejected by the exported schema."""
        model = ScriptedChatModel([audit_json(("c-1", "probably")), audit_json(("c-1", "maybe"))])
        with pytest.raises(CriticOutputInvalid, match="'maybe' is not one of"):
            audit(LLMCritic(model, contract=1))


class TestSchemas:
    def test_output_schemas_are_the_exported_ones(self) -> None:
        """The critic validates against schemas/critic_*.schema.json (less their ids)."""
        for name, schema in (
            ("critic_sufficiency", SUFFICIENCY_SCHEMA),
            ("critic_audit", AUDIT_SCHEMA),
        ):
            exported = {k: v for k, v in all_schemas()[name].items() if k not in ("$schema", "$id")}
            assert schema.json_schema == exported, name


VERIFIED = ClaimVerification(
    claim_id="c-1",
    ok=True,
    citations=[CitationCheck(citation=CLAIM.citations[0], ok=True)],
)


def verdicts_json(
    *verdicts: tuple[str, str],
    evidence: list[str] | None = None,
    facts: list[str] | None = None,
    missing: list[str] | None = None,
) -> str:
    return json.dumps(
        {
            "claims": [
                {
                    "claim_id": cid,
                    "verdict": v,
                    "evidence_ids": evidence if evidence is not None else ["E1.1"],
                    "fact_ids": facts if facts is not None else ["F1"],
                    "reason": "r",
                }
                for cid, v in verdicts
            ],
            "missing_facts": missing or [],
            "follow_up_query": "gift limit" if missing else None,
        }
    )


def audit_v2(critic: LLMCritic, verifications: list[ClaimVerification]) -> Any:
    return critic.audit(
        QUESTION,
        [CLAIM],
        verifications,
        [GIFTS],
        as_of=AS_OF,
        required_facts=["gift value limit", "approval rule"],
    )


class TestSufficiencyV2:
    def test_judgement_is_categorical_and_maps_to_the_contract(self) -> None:
        """A 'partial' judgement needs more context, with the model's facts and one query."""
        reply = {
            "judgement": "partial",
            "reason": "E1.1 gives the limit only.",
            "required_facts": ["gift value limit", "approval rule"],
            "missing_facts": ["approval rule"],
            "follow_up_query": "gift approval",
        }
        model = ScriptedChatModel([json.dumps(reply)])
        result = LLMCritic(model).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
        assert result.requires_more_context is True
        assert result.missing_facts == ["approval rule"]
        assert result.suggested_query == "gift approval"
        (request,) = model.requests
        assert "[E1.1] Employees may accept" in request.messages[0].content
        assert request.metadata["prompt"] == CRITIC_SUFFICIENCY_V2.id

    def test_sufficient_asks_no_follow_up(self) -> None:
        """'sufficient' needs no more context and keeps no follow-up query."""
        reply = {"judgement": "sufficient", "reason": "ok", "follow_up_query": "anything"}
        model = ScriptedChatModel([json.dumps(reply)])
        result = LLMCritic(model).sufficiency(QUESTION, [GIFTS], as_of=AS_OF)
        assert result.requires_more_context is False and result.suggested_query is None


class TestAuditV2:
    def test_engine_computes_coverage_from_verdicts_and_facts(self) -> None:
        """Coverage is the share of required facts a supported, verified claim establishes."""
        model = ScriptedChatModel([verdicts_json(("C1", "supported"), facts=["F1"])])
        result = audit_v2(LLMCritic(model), [VERIFIED])
        assert result.claims[0].verdict is Verdict.SUPPORTED
        assert result.claims[0].evidence_ids == ["p-gifts"]
        assert result.coverage == 0.5
        assert result.covered_facts == ["gift value limit"]
        assert result.missing_facts == ["approval rule"]
        assert result.contract_met is False

    def test_claims_are_given_short_ids_and_required_facts_numbers(self) -> None:
        """The model sees the claim as C1 with its cited text and the facts as F1, F2."""
        model = ScriptedChatModel([verdicts_json(("C1", "supported"))])
        audit_v2(LLMCritic(model), [REJECTED])
        user = model.requests[0].messages[0].content
        assert '<claim id="C1">' in user and "verifier: rejected (quote_not_found)" in user
        assert "F1: gift value limit\nF2: approval rule" in user
        assert model.requests[0].metadata["prompt"] == CRITIC_AUDIT_V2.id

    def test_a_claim_the_verifier_rejected_is_never_supported(self) -> None:
        """The model's 'supported' on a rejected claim becomes not_found; it covers nothing."""
        model = ScriptedChatModel([verdicts_json(("C1", "supported"), facts=["F1", "F2"])])
        result = audit_v2(LLMCritic(model), [REJECTED])
        assert result.claims[0].verdict is Verdict.NOT_FOUND
        assert "verifier: quote_not_found" in result.claims[0].reason
        assert result.coverage == 0.0 and result.contract_met is False

    def test_categorical_verdicts_map_to_the_engine_verdicts(self) -> None:
        """partially_supported, unsupported and contradicted become partial, not_found and
        contradicted."""
        for given, expected in (
            ("partially_supported", Verdict.PARTIAL),
            ("unsupported", Verdict.NOT_FOUND),
            ("contradicted", Verdict.CONTRADICTED),
        ):
            model = ScriptedChatModel([verdicts_json(("C1", given))])
            assert audit_v2(LLMCritic(model), [VERIFIED]).claims[0].verdict is expected

    def test_unknown_ids_are_repaired_then_fail_closed(self) -> None:
        """Verdicts on claims not drafted, unknown spans or unknown facts are invalid."""
        model = ScriptedChatModel(
            [
                verdicts_json(("C1", "supported"), ("C9", "supported")),
                verdicts_json(("C1", "supported"), evidence=["E4.1"], facts=["F7"]),
            ]
        )
        with pytest.raises(CriticOutputInvalid) as info:
            audit_v2(LLMCritic(model), [VERIFIED])
        assert "'C9' is not one of ['C1']" in model.requests[1].messages[2].content
        assert "'E4.1' is not one of ['E1.1', 'E1']" in info.value.errors[0]
        assert "'F7' is not one of ['F1', 'F2']" in info.value.errors[1]
        output = model.requests[0].output
        assert output is not None
        verdict = output.json_schema["$defs"]["ClaimVerdict"]["properties"]
        assert verdict["claim_id"]["enum"] == ["C1"]
        assert verdict["fact_ids"]["items"]["enum"] == ["F1", "F2"]

    def test_one_verdict_per_claim_is_required(self) -> None:
        """The schema sent fixes the number of verdicts to the claims drafted; what it cannot
        say (each claim exactly once) is checked and repaired."""
        second = CLAIM.model_copy(update={"claim_id": "c-2", "text": "Cash is never allowed."})
        model = ScriptedChatModel(
            [
                verdicts_json(("C1", "supported"), ("C1", "unsupported")),
                verdicts_json(("C1", "supported"), ("C2", "unsupported")),
            ]
        )
        LLMCritic(model).audit(
            QUESTION, [CLAIM, second], [], [GIFTS], as_of=AS_OF, required_facts=["limit"]
        )
        output = model.requests[0].output
        assert output is not None
        claims = output.json_schema["properties"]["claims"]
        assert claims["minItems"] == claims["maxItems"] == 2
        assert "claim 'C2' is judged 0 times" in model.requests[1].messages[2].content

    def test_a_claim_stating_nothing_is_never_supported(self) -> None:
        """A claim with no content word is not_found whatever the model says."""
        empty = CLAIM.model_copy(update={"text": "..."})
        model = ScriptedChatModel([verdicts_json(("C1", "supported"))])
        result = LLMCritic(model).audit(
            QUESTION, [empty], [VERIFIED], [GIFTS], as_of=AS_OF, required_facts=["limit"]
        )
        assert result.claims[0].verdict is Verdict.NOT_FOUND
        assert result.coverage == 0.0

    def test_schemas_sent_to_the_model_ask_for_no_number_the_engine_computes(self) -> None:
        """Neither v2 schema sent to the critic model has a coverage or contract_met field."""
        for schema in (JUDGEMENT_SCHEMA, VERDICTS_SCHEMA):
            text = json.dumps(schema.json_schema)
            assert "coverage" not in text and "contract_met" not in text
            assert "support_score" not in text
        for name, schema in (
            ("critic_judgement", JUDGEMENT_SCHEMA),
            ("critic_verdicts", VERDICTS_SCHEMA),
        ):
            exported = {k: v for k, v in all_schemas()[name].items() if k not in ("$schema", "$id")}
            assert schema.json_schema == exported, name
