"""The LLM critic, in the architecture's two phases, each with its own prompt and schema.

Phase 1 (:meth:`LLMCritic.sufficiency`) is given the question and the evidence only: its
signature has no draft, and its prompt has no place for one. Phase 2 (:meth:`LLMCritic.audit`)
is given the drafted claims, the verifier's result for each, and the evidence. Evidence is given
as delimited blocks declared to be data.

Contract v2 (the default) asks the model for judgements only, never for numbers the engine can
compute: phase 1 returns a categorical judgement (sufficient / partial / insufficient) with the
required and missing facts and one follow-up query (:class:`CriticJudgement`); phase 2 returns
per claim a categorical verdict (supported / partially supported / unsupported / contradicted)
with the span ids it relied on and the required facts the claim establishes, plus missing facts
and one follow-up query (:class:`CriticVerdicts`). The engine then computes coverage and whether
the contract is met (:func:`audit_from_verdicts`) from those verdicts and the deterministic
verifier: a claim the verifier rejected is never supported, whatever the model said. The schemas
sent to the model have no ``coverage`` nor ``contract_met`` field.

Contract v1 (the model reported ``coverage`` and ``contract_met`` itself, against the
:class:`~evidencegate.contracts.CriticSufficiency` / :class:`~evidencegate.contracts.CriticAudit`
schemas) is kept so that traces recorded with it still replay.

Replies are validated with jsonschema, plus the checks a schema cannot state (every drafted
claim judged exactly once; evidence ids that exist); one repair call, then
:class:`~evidencegate.exceptions.CriticOutputInvalid` — which the controller turns into an
abstention. The deterministic verifier still gates every claim.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.contracts import (
    Claim,
    ClaimAudit,
    ClaimVerification,
    CriticAudit,
    CriticSufficiency,
    FailureReason,
    Passage,
    Verdict,
)
from evidencegate.exceptions import CriticOutputInvalid, ModelOutputInvalid
from evidencegate.prompts import (
    CRITIC_AUDIT,
    CRITIC_AUDIT_V2,
    CRITIC_SUFFICIENCY,
    CRITIC_SUFFICIENCY_V2,
    EvidenceBlocks,
    EvidenceSpans,
    PromptTemplate,
    evidence_blocks,
    evidence_spans,
)
from evidencegate.providers.base import (
    ChatMessage,
    ChatRequest,
    ModelComponent,
    OutputSchema,
)
from evidencegate.providers.structured import Check, complete_json, restricted
from evidencegate.text import terms

__all__ = [
    "CONTRACTS",
    "ClaimVerdict",
    "CriticJudgement",
    "CriticVerdicts",
    "LLMCritic",
    "audit_from_verdicts",
]

#: The critic contracts: 1 (the model reports coverage; replay of old traces), 2 (verdicts).
CONTRACTS = (1, 2)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CriticJudgement(_Out):
    """Phase 1 under contract v2: what the critic model returns (categorical, no numbers)."""

    judgement: Literal["sufficient", "partial", "insufficient"]
    reason: str
    required_facts: list[str] = Field(default_factory=list)
    missing_facts: list[str] = Field(default_factory=list)
    follow_up_query: str | None = None


ModelVerdict = Literal["supported", "partially_supported", "unsupported", "contradicted"]

#: A model's categorical verdict as the engine's :class:`~evidencegate.contracts.Verdict`.
VERDICTS: dict[str, Verdict] = {
    "supported": Verdict.SUPPORTED,
    "partially_supported": Verdict.PARTIAL,
    "unsupported": Verdict.NOT_FOUND,
    "contradicted": Verdict.CONTRADICTED,
}


class ClaimVerdict(_Out):
    claim_id: str = Field(description="The claim's id as given (C1, C2...).")
    verdict: ModelVerdict
    evidence_ids: list[str] = Field(
        default_factory=list, description="Ids of the spans (E1.2...) the verdict relies on."
    )
    fact_ids: list[str] = Field(
        default_factory=list, description="Ids of the required facts (F1...) the claim states."
    )
    reason: str


class CriticVerdicts(_Out):
    """Phase 2 under contract v2: verdicts only. Coverage and whether the contract is met are
    the engine's to compute (:func:`audit_from_verdicts`)."""

    claims: list[ClaimVerdict] = Field(default_factory=list)
    missing_facts: list[str] = Field(default_factory=list)
    follow_up_query: str | None = None


# The schemas exported as schemas/critic_*.schema.json, without their $schema/$id keys (a test
# keeps them equal). Taken from the models, not from evidencegate.schemas, which imports this
# module's package and is also run as ``python -m evidencegate.schemas``.
SUFFICIENCY_SCHEMA = OutputSchema(
    name="critic_sufficiency", json_schema=CriticSufficiency.model_json_schema()
)
AUDIT_SCHEMA = OutputSchema(name="critic_audit", json_schema=CriticAudit.model_json_schema())
JUDGEMENT_SCHEMA = OutputSchema(
    name="critic_judgement", json_schema=CriticJudgement.model_json_schema()
)
VERDICTS_SCHEMA = OutputSchema(
    name="critic_verdicts", json_schema=CriticVerdicts.model_json_schema()
)

_CONTRADICTING = {
    FailureReason.NUMBER_MISMATCH,
    FailureReason.DATE_MISMATCH,
    FailureReason.NEGATION_MISMATCH,
}


def audit_from_verdicts(
    claims: Sequence[Claim],
    verifications: Sequence[ClaimVerification],
    verdicts: dict[str, ClaimAudit],
    *,
    required_facts: Sequence[str],
    facts_of: dict[str, list[str]],
    missing_facts: Sequence[str],
    follow_up_query: str | None,
    gated: bool,
) -> CriticAudit:
    """The audit the engine computes from a critic model's verdicts and the verifier.

    A claim with no content word is ``not_found``. A claim the verifier rejected (when
    ``gated``) is at best ``not_found``, or ``contradicted``
    when the verifier found a number, date or negation at odds with its source, whatever the
    model said. A required fact is covered when a claim that is supported after that lists it
    (``facts_of``: claim id -> required facts). Coverage is the covered share of the required
    facts (with none named: 1 when some claim is supported, else 0); the contract is met when
    every claim is supported and every required fact covered.
    """
    checked = {v.claim_id: v for v in verifications}
    audits: list[ClaimAudit] = []
    for claim in claims:
        audit = verdicts[claim.claim_id]
        if not terms(claim.text) and audit.verdict is Verdict.SUPPORTED:
            # A claim with no content word ("...") states nothing a quote could support.
            audit = audit.model_copy(
                update={"verdict": Verdict.NOT_FOUND, "reason": "the claim states nothing"}
            )
        check = checked.get(claim.claim_id)
        if (
            gated
            and check is not None
            and not check.ok
            and audit.verdict is not Verdict.CONTRADICTED
        ):
            verdict = (
                Verdict.CONTRADICTED
                if any(r in _CONTRADICTING for r in check.reasons)
                else Verdict.NOT_FOUND
            )
            reasons = ", ".join(sorted({r.value for r in check.reasons}))
            audit = audit.model_copy(
                update={
                    "verdict": verdict,
                    "reason": f"verifier: {reasons}; critic said {audit.verdict.value}: "
                    f"{audit.reason}",
                }
            )
        audits.append(audit)
    supported = {a.claim_id for a in audits if a.verdict is Verdict.SUPPORTED}
    covered = [f for f in required_facts if any(f in facts_of.get(cid, []) for cid in supported)]
    missing = [f for f in required_facts if f not in covered]
    coverage = len(covered) / len(required_facts) if required_facts else float(bool(supported))
    return CriticAudit(
        claims=audits,
        coverage=round(coverage, 6),
        covered_facts=covered,
        missing_facts=list(dict.fromkeys([*missing, *missing_facts])),
        contract_met=bool(audits) and len(supported) == len(audits) and not missing,
        suggested_query=follow_up_query or None,
    )


class LLMCritic(ModelComponent):
    """A two-phase critic over ``model``; ``component_id`` is ``provider:model``.

    ``contract`` is the critic contract (see the module doc); keyword arguments as for
    :class:`~evidencegate.providers.base.ModelComponent`.
    """

    role = "critic"

    def __init__(self, model: Any, *, contract: int = 2, **settings: Any) -> None:
        if contract not in CONTRACTS:
            raise ValueError(f"contract must be one of {CONTRACTS} (got {contract})")
        self.contract = contract
        super().__init__(model, **settings)

    # ------------------------------------------------------------------ phase 1

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        if self.contract == 2:
            return self._sufficiency_v2(question, evidence, as_of=as_of)
        blocks = evidence_blocks(evidence)
        data = self._ask(
            CRITIC_SUFFICIENCY,
            SUFFICIENCY_SCHEMA,
            "sufficiency",
            {"question": question, "as_of": as_of.isoformat(), "evidence": blocks.text},
            check=None,
        )
        return CriticSufficiency.model_validate(data)

    # ------------------------------------------------------------------ phase 2

    def audit(
        self,
        question: str,
        claims: Sequence[Claim],
        verifications: Sequence[ClaimVerification],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        required_facts: Sequence[str],
    ) -> CriticAudit:
        if self.contract == 2:
            return self._audit_v2(
                question,
                claims,
                verifications,
                evidence,
                as_of=as_of,
                required_facts=required_facts,
            )
        blocks = evidence_blocks(evidence)
        checked = {v.claim_id: v for v in verifications}
        drafted = [c.claim_id for c in claims]

        def judged_as_drafted(data: dict[str, Any]) -> list[str]:
            audits = data.get("claims", [])
            counts = Counter(a["claim_id"] for a in audits)
            errors = [
                f"claims: claim {cid!r} is judged {counts[cid]} times (exactly once needed)"
                for cid in drafted
                if counts[cid] != 1
            ]
            errors += [
                f"claims: {cid!r} is not a drafted claim (drafted: {', '.join(drafted) or 'none'})"
                for cid in counts
                if cid not in drafted
            ]
            errors += [
                f"claims/{i}/evidence_ids: {eid!r} is not one of the evidence ids "
                f"({blocks.describe_ids()})"
                for i, a in enumerate(audits)
                for eid in a.get("evidence_ids", [])
                if eid not in blocks.by_id
            ]
            return errors

        data = self._ask(
            CRITIC_AUDIT,
            AUDIT_SCHEMA,
            "audit",
            {
                "question": question,
                "as_of": as_of.isoformat(),
                "required_facts": "\n".join(f"- {f}" for f in required_facts) or "(none named)",
                "claims": "\n".join(
                    _claim_block(c, checked.get(c.claim_id), blocks) for c in claims
                )
                or "(no claims)",
                "evidence": blocks.text,
            },
            check=judged_as_drafted,
        )
        for audit in data.get("claims", []):
            audit["evidence_ids"] = [
                blocks.by_id[eid].passage_id for eid in audit.get("evidence_ids", [])
            ]
        return CriticAudit.model_validate(data)

    # ------------------------------------------------------------------ contract v2

    def _sufficiency_v2(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        spans = evidence_spans(evidence)
        data = self._ask(
            CRITIC_SUFFICIENCY_V2,
            JUDGEMENT_SCHEMA,
            "sufficiency",
            {"question": question, "as_of": as_of.isoformat(), "evidence": spans.text},
            check=None,
        )
        out = CriticJudgement.model_validate(data)
        needs_more = out.judgement != "sufficient"
        return CriticSufficiency(
            requires_more_context=needs_more,
            reason=f"{out.judgement}: {out.reason}",
            required_facts=list(out.required_facts),
            missing_facts=list(out.missing_facts),
            suggested_query=(out.follow_up_query or None) if needs_more else None,
        )

    def _audit_v2(
        self,
        question: str,
        claims: Sequence[Claim],
        verifications: Sequence[ClaimVerification],
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        required_facts: Sequence[str],
    ) -> CriticAudit:
        spans = evidence_spans(evidence)
        checked = {v.claim_id: v for v in verifications}
        short = {f"C{i}": c for i, c in enumerate(claims, start=1)}
        facts = {f"F{i}": f for i, f in enumerate(required_facts, start=1)}

        def judged_as_drafted(data: dict[str, Any]) -> list[str]:
            verdicts = data.get("claims", [])
            counts = Counter(v["claim_id"] for v in verdicts)
            errors = [
                f"claims: claim {cid!r} is judged {counts[cid]} times (exactly once needed)"
                for cid in short
                if counts[cid] != 1
            ]
            errors += [
                f"claims: {cid!r} is not a claim id (the claims are {', '.join(short) or 'none'})"
                for cid in counts
                if cid not in short
            ]
            for i, v in enumerate(verdicts):
                errors += [
                    f"claims/{i}/evidence_ids: {eid!r} is not one of the span ids "
                    f"({spans.describe_ids()})"
                    for eid in v.get("evidence_ids", [])
                    if spans.passage_of(eid) is None
                ]
                errors += [
                    f"claims/{i}/fact_ids: {fid!r} is not a required fact id "
                    f"({', '.join(facts) or 'none'})"
                    for fid in v.get("fact_ids", [])
                    if fid not in facts
                ]
            return errors

        verdict = ("$defs", "ClaimVerdict", "properties")
        schema = restricted(
            VERDICTS_SCHEMA,
            {
                (*verdict, "claim_id"): list(short),
                (*verdict, "evidence_ids", "items"): [*spans.spans, *spans.by_id],
                (*verdict, "fact_ids", "items"): list(facts),
            },
            lengths={("properties", "claims"): len(short)},
        )
        data = self._ask(
            CRITIC_AUDIT_V2,
            schema,
            "audit",
            {
                "question": question,
                "as_of": as_of.isoformat(),
                "required_facts": "\n".join(f"{fid}: {f}" for fid, f in facts.items())
                or "(none named)",
                "claims": "\n".join(
                    _claim_block_v2(cid, c, checked.get(c.claim_id), spans)
                    for cid, c in short.items()
                )
                or "(no claims)",
                "evidence": spans.text,
            },
            check=judged_as_drafted,
        )
        out = CriticVerdicts.model_validate(data)
        verdicts: dict[str, ClaimAudit] = {}
        facts_of: dict[str, list[str]] = {}
        for v in out.claims:
            claim = short[v.claim_id]
            passages = [spans.passage_of(eid) for eid in v.evidence_ids]
            verdicts[claim.claim_id] = ClaimAudit(
                claim_id=claim.claim_id,
                verdict=VERDICTS[v.verdict],
                evidence_ids=list(dict.fromkeys(p.passage_id for p in passages if p)),
                reason=v.reason,
            )
            facts_of[claim.claim_id] = [facts[fid] for fid in v.fact_ids]
        return audit_from_verdicts(
            claims,
            verifications,
            verdicts,
            required_facts=list(required_facts),
            facts_of=facts_of,
            missing_facts=out.missing_facts,
            follow_up_query=out.follow_up_query,
            gated=bool(verifications),
        )

    # ------------------------------------------------------------------ shared

    def _ask(
        self,
        template: PromptTemplate,
        schema: OutputSchema,
        purpose: str,
        values: dict[str, str],
        *,
        check: Check | None,
    ) -> dict[str, Any]:
        system, user = template.render(**values)
        request = ChatRequest(
            system=system,
            messages=[ChatMessage(role="user", content=user)],
            output=schema,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            metadata=template.metadata(purpose),
        )
        try:
            return complete_json(
                self.model,
                request,
                timeout_s=self.timeout_s,
                component=self.component_id,
                check=check,
            )
        except ModelOutputInvalid as exc:
            raise CriticOutputInvalid(
                f"{purpose} output invalid after one repair call: {'; '.join(exc.errors)}",
                critic=self.component_id,
                errors=exc.errors,
            ) from exc


def _claim_block(claim: Claim, check: ClaimVerification | None, blocks: EvidenceBlocks) -> str:
    """A drafted claim as data: its text, each citation's quote and the verifier's result."""
    block_of = {p.passage_id: block_id for block_id, p in blocks.by_id.items()}
    lines = [f'<claim id="{claim.claim_id}">', claim.text.replace("</claim", "<\\/claim")]
    for c in claim.citations:
        source = block_of.get(c.evidence_id or "", f"{c.doc_id}@{c.version} page {c.page}")
        lines.append(f'cites {source}: "{c.quote}"')
    if check is None:
        lines.append("verifier: not run")
    elif check.ok:
        lines.append("verifier: every quote found in the cited source")
    else:
        lines.append("verifier: rejected (" + ", ".join(r.value for r in check.reasons) + ")")
    lines.append("</claim>")
    return "\n".join(lines)


def _claim_block_v2(
    short_id: str, claim: Claim, check: ClaimVerification | None, spans: EvidenceSpans
) -> str:
    """A drafted claim as data under contract v2: the span each citation quotes."""
    span_of = {(s.passage.passage_id, s.text): s.span_id for s in spans.spans.values()}
    block_of = {p.passage_id: block_id for block_id, p in spans.by_id.items()}
    lines = [f'<claim id="{short_id}">', claim.text.replace("</claim", "<\\/claim")]
    for c in claim.citations:
        key = (c.evidence_id or "", c.quote)
        source = span_of.get(key) or block_of.get(c.evidence_id or "", f"{c.doc_id} p{c.page}")
        quote = " ".join(c.quote.split()).replace("</claim", "<\\/claim")
        lines.append(f'cites {source}: "{quote}"')
    if check is None:
        lines.append("verifier: not run")
    elif check.ok:
        lines.append("verifier: every quote found in the cited source")
    else:
        lines.append("verifier: rejected (" + ", ".join(r.value for r in check.reasons) + ")")
    lines.append("</claim>")
    return "\n".join(lines)
