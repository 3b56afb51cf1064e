"""The prompted generator: a language model drafts claims, each citing evidence ids and quotes.

The model sees the evidence as delimited blocks with short ids and returns, for each claim, the
ids it cites and an exact quote from each. It never supplies offsets: the verifier locates
every quote in the stored page, and rejects what it cannot find. Output is validated against
:class:`LLMDraft`'s JSON Schema (exported as ``schemas/llm_draft.schema.json``) with one repair
call; a second invalid reply raises :class:`~evidencegate.exceptions.ModelOutputInvalid`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.canonical import sha256_hex
from evidencegate.contracts import Citation, Claim, Draft, Passage
from evidencegate.prompts import GENERATOR_DRAFT, evidence_blocks
from evidencegate.providers.base import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ModelComponent,
    OutputSchema,
)
from evidencegate.providers.structured import complete_json

__all__ = ["LLMClaim", "LLMDraft", "LLMGenerator", "LLMQuote"]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LLMQuote(_Out):
    evidence_id: str = Field(min_length=1, description="The id of an evidence block (E1, E2...).")
    quote: str = Field(min_length=1, description="Copied exactly from that block.")


class LLMClaim(_Out):
    text: str = Field(min_length=1)
    citations: list[LLMQuote] = Field(min_length=1)


class LLMDraft(_Out):
    """What the generator model returns (the engine turns it into a :class:`Draft`)."""

    claims: list[LLMClaim] = Field(default_factory=list)
    declined: str | None = Field(default=None, description="Why there are no claims.")


DRAFT_SCHEMA = OutputSchema(name="draft", json_schema=LLMDraft.model_json_schema())


class LLMGenerator(ModelComponent):
    """Drafts with ``model``; ``component_id`` is ``provider:model`` (what the same-model check
    compares with the critic's)."""

    def __init__(
        self,
        model: ChatModel,
        *,
        timeout_s: float = 30.0,
        max_output_tokens: int = 2048,
        temperature: float = 0.0,
        min_quote_chars: int = 20,
    ) -> None:
        super().__init__(
            model,
            timeout_s=timeout_s,
            max_output_tokens=max_output_tokens,
            temperature=temperature,
        )
        self.min_quote_chars = min_quote_chars

    def draft(
        self,
        question: str,
        evidence: Sequence[Passage],
        *,
        as_of: dt.date,
        avoid: Sequence[str] = (),
    ) -> Draft:
        blocks = evidence_blocks(evidence)
        avoid_text = (
            "Do not repeat these claims; they failed verification:\n"
            + "\n".join(f"- {text}" for text in avoid)
            + "\n"
            if avoid
            else ""
        )
        system, user = GENERATOR_DRAFT.render(
            min_quote_chars=self.min_quote_chars,
            question=question,
            as_of=as_of.isoformat(),
            avoid=avoid_text,
            evidence=blocks.text,
        )
        request = ChatRequest(
            system=system,
            messages=[ChatMessage(role="user", content=user)],
            output=DRAFT_SCHEMA,
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            metadata=GENERATOR_DRAFT.metadata("draft"),
        )

        def known_ids(data: dict[str, Any]) -> list[str]:
            return [
                f"claims/{i}/citations/{j}/evidence_id: {q['evidence_id']!r} is not one of the "
                f"evidence ids ({blocks.describe_ids()})"
                for i, claim in enumerate(data.get("claims", []))
                for j, q in enumerate(claim["citations"])
                if q["evidence_id"] not in blocks.by_id
            ]

        data = complete_json(
            self.model,
            request,
            timeout_s=self.timeout_s,
            component=self.component_id,
            check=known_ids,
        )
        out = LLMDraft.model_validate(data)
        claims: dict[str, Claim] = {}
        for item in out.claims:
            citations = [
                Citation(
                    doc_id=blocks.by_id[q.evidence_id].doc_id,
                    version=blocks.by_id[q.evidence_id].version,
                    page=blocks.by_id[q.evidence_id].page,
                    quote=q.quote,
                    evidence_id=blocks.by_id[q.evidence_id].passage_id,
                )
                for q in item.citations
            ]
            key = item.text + "".join(f"\n{c.evidence_id}:{c.quote}" for c in citations)
            claim_id = "c-" + sha256_hex(key)[:10]
            claims.setdefault(
                claim_id, Claim(claim_id=claim_id, text=item.text, citations=citations)
            )
        return Draft(claims=list(claims.values()), declined=out.declined)
