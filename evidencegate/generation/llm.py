"""The prompted generator: a language model drafts claims, each citing evidence by id.

Contract v2: the model sees the evidence as blocks of numbered sentence spans (``[E1.2] ...``)
and cites span ids (:class:`LLMDraftV2`, ``schemas/llm_draft_v2.schema.json``); the engine
fills each citation's doc_id, version, page and quote from the cited span of the stored
passage. A model may narrow a citation with a ``quote`` of its own: that quote is kept as
written, so the verifier checks it verbatim like any other.

Contract v3 (the default) is v2 plus an optional ``derivation`` per claim
(:class:`LLMDraftV3`, ``schemas/llm_draft_v3.schema.json``): a model is never asked for a
number the engine can compute. For an answer computed from figures the model names the
operation and each operand (the span stating it, the figure as the span writes it, a label);
the engine reads each figure from its span (the span's own writing of it, so its sign and
scale), computes the result (:mod:`evidencegate.verify.derived`), appends it to the claim's
text, and the verifier recomputes it. Contracts v1 (:class:`LLMDraft`, the model copies
quotes) and v2 are kept so that traces recorded with them still replay.

The model never supplies offsets: the verifier locates every quote in the stored page, and
rejects what it cannot find. Output is validated against the JSON Schema with one repair call;
a second invalid reply raises :class:`~evidencegate.exceptions.ModelOutputInvalid`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.canonical import sha256_hex
from evidencegate.contracts import (
    Citation,
    Claim,
    Derivation,
    Draft,
    Operand,
    Operation,
    Passage,
)
from evidencegate.generation.derive import result_phrase
from evidencegate.prompts import (
    GENERATOR_DRAFT,
    GENERATOR_DRAFT_V2,
    GENERATOR_DRAFT_V3,
    EvidenceSpans,
    evidence_blocks,
    evidence_spans,
)
from evidencegate.providers.base import (
    ChatMessage,
    ChatModel,
    ChatRequest,
    ModelComponent,
    OutputSchema,
)
from evidencegate.providers.structured import complete_json, restricted
from evidencegate.verify.derived import (
    DerivationError,
    compute,
    parse_figure,
    quote_figures,
    state_result,
)

__all__ = [
    "CONTRACTS",
    "LLMClaim",
    "LLMClaimV2",
    "LLMClaimV3",
    "LLMDerivation",
    "LLMDraft",
    "LLMDraftV2",
    "LLMDraftV3",
    "LLMGenerator",
    "LLMOperand",
    "LLMQuote",
    "LLMSpanCitation",
]

#: The draft contracts a generator speaks: 1 copies quotes, 2 cites spans (both kept to replay
#: old traces), 3 cites spans and names derivations.
CONTRACTS = (1, 2, 3)
#: The contract a generator speaks unless told otherwise.
LATEST_CONTRACT = 3


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


class LLMSpanCitation(_Out):
    span_id: str = Field(
        pattern=r"^E[0-9]+\.[0-9]+$", description="The id of an evidence span (E1.1, E1.2...)."
    )
    quote: str | None = Field(
        default=None,
        min_length=1,
        description="Only to cite part of the span: words copied exactly from it.",
    )


class LLMClaimV2(_Out):
    text: str = Field(min_length=1)
    citations: list[LLMSpanCitation] = Field(min_length=1)


class LLMDraftV2(_Out):
    """What the generator model returns under contract v2: claims citing span ids."""

    claims: list[LLMClaimV2] = Field(default_factory=list)
    declined: str | None = Field(default=None, description="Why there are no claims.")


class LLMOperand(_Out):
    span_id: str = Field(
        pattern=r"^E[0-9]+\.[0-9]+$", description="The id of the span stating the figure."
    )
    value: str = Field(min_length=1, description="The figure, copied exactly from that span.")
    label: str = Field(min_length=1, description="What the figure is: item and period.")


class LLMDerivation(_Out):
    operation: Operation = Field(description="What is computed from the operands, in order.")
    operands: list[LLMOperand] = Field(min_length=2)


class LLMClaimV3(_Out):
    text: str = Field(
        min_length=1, description="The statement; for a derived claim, without the result."
    )
    citations: list[LLMSpanCitation] = Field(default_factory=list)
    derivation: LLMDerivation | None = Field(
        default=None, description="Only for a figure computed from figures the spans state."
    )


class LLMDraftV3(_Out):
    """What the generator model returns under contract v3: claims citing span ids, a computed
    answer naming its operation and operands (never its result)."""

    claims: list[LLMClaimV3] = Field(default_factory=list)
    declined: str | None = Field(default=None, description="Why there are no claims.")


DRAFT_SCHEMA = OutputSchema(name="draft", json_schema=LLMDraft.model_json_schema())
DRAFT_SCHEMA_V2 = OutputSchema(name="draft_v2", json_schema=LLMDraftV2.model_json_schema())
DRAFT_SCHEMA_V3 = OutputSchema(name="draft_v3", json_schema=LLMDraftV3.model_json_schema())


class LLMGenerator(ModelComponent):
    """Drafts with ``model``; ``component_id`` is ``provider:model`` (what the same-model check
    compares with the critic's). ``contract`` is the draft contract (see the module doc)."""

    role = "generator"

    def __init__(
        self,
        model: ChatModel,
        *,
        timeout_s: float = 30.0,
        max_output_tokens: int = 2048,
        temperature: float = 0.0,
        min_quote_chars: int = 20,
        contract: int = LATEST_CONTRACT,
    ) -> None:
        if contract not in CONTRACTS:
            raise ValueError(f"contract must be one of {CONTRACTS} (got {contract})")
        self.contract = contract
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
        avoid_text = (
            "Do not repeat these claims; they failed verification:\n"
            + "\n".join(f"- {text}" for text in avoid)
            + "\n"
            if avoid
            else ""
        )
        if self.contract == 1:
            return self._draft_v1(question, evidence, as_of=as_of, avoid_text=avoid_text)
        spans = evidence_spans(evidence)
        v3 = self.contract == 3
        template = GENERATOR_DRAFT_V3 if v3 else GENERATOR_DRAFT_V2
        system, user = template.render(
            question=question, as_of=as_of.isoformat(), avoid=avoid_text, evidence=spans.text
        )
        span_ids = list(spans.spans)
        choices: dict[tuple[str, ...], list[str]] = {
            ("$defs", "LLMSpanCitation", "properties", "span_id"): span_ids
        }
        if v3:
            choices[("$defs", "LLMOperand", "properties", "span_id")] = span_ids
        request = ChatRequest(
            system=system,
            messages=[ChatMessage(role="user", content=user)],
            output=restricted(DRAFT_SCHEMA_V3 if v3 else DRAFT_SCHEMA_V2, choices),
            max_output_tokens=self.max_output_tokens,
            temperature=self.temperature,
            metadata=template.metadata("draft"),
        )

        def known_spans(data: dict[str, Any]) -> list[str]:
            cited = [
                (f"claims/{i}/citations/{j}/span_id", c["span_id"])
                for i, claim in enumerate(data.get("claims", []))
                for j, c in enumerate(claim.get("citations", []))
            ] + [
                (f"claims/{i}/derivation/operands/{j}/span_id", o["span_id"])
                for i, claim in enumerate(data.get("claims", []))
                for j, o in enumerate((claim.get("derivation") or {}).get("operands", []))
            ]
            return [
                f"{where}: {span_id!r} is not one of the span ids ({spans.describe_ids()})"
                for where, span_id in cited
                if span_id not in spans.spans
            ]

        data = complete_json(
            self.model,
            request,
            timeout_s=self.timeout_s,
            component=self.component_id,
            check=known_spans,
        )
        if not v3:
            out_v2 = LLMDraftV2.model_validate(data)
            return _assemble(
                (item.text, [_span_citation(spans, c) for c in item.citations], None)
                for item in out_v2.claims
            ).model_copy(update={"declined": out_v2.declined})
        out = LLMDraftV3.model_validate(data)
        return _assemble(_claim_v3(spans, item) for item in out.claims).model_copy(
            update={"declined": out.declined}
        )

    def _draft_v1(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date, avoid_text: str
    ) -> Draft:
        """Contract v1: the model copies a quote from each block it cites."""
        blocks = evidence_blocks(evidence)
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
        return _assemble(
            (
                item.text,
                [
                    Citation(
                        doc_id=blocks.by_id[q.evidence_id].doc_id,
                        version=blocks.by_id[q.evidence_id].version,
                        page=blocks.by_id[q.evidence_id].page,
                        quote=q.quote,
                        evidence_id=blocks.by_id[q.evidence_id].passage_id,
                    )
                    for q in item.citations
                ],
                None,
            )
            for item in out.claims
        ).model_copy(update={"declined": out.declined})


def _span_citation(spans: EvidenceSpans, cited: LLMSpanCitation) -> Citation:
    """The citation of a span, filled from the stored passage: the span's exact text, or the
    model's own quote when it narrows the span (kept as written, so verified verbatim)."""
    span = spans.spans[cited.span_id]
    passage = span.passage
    return Citation(
        doc_id=passage.doc_id,
        version=passage.version,
        page=passage.page,
        quote=cited.quote if cited.quote is not None else span.text,
        evidence_id=passage.passage_id,
    )


def _claim_v3(
    spans: EvidenceSpans, item: LLMClaimV3
) -> tuple[str, list[Citation], Derivation | None]:
    """A v3 claim: its citations, and for a derived claim the operands (each citing its span)
    and the result, computed by the engine and appended to the model's text."""
    citations = [_span_citation(spans, c) for c in item.citations]
    if item.derivation is None:
        return item.text, citations, None
    index = {c.span_id: i for i, c in reversed(list(enumerate(item.citations))) if not c.quote}
    operands: list[Operand] = []
    for operand in item.derivation.operands:
        if operand.span_id not in index:
            index[operand.span_id] = len(citations)
            citations.append(_span_citation(spans, LLMSpanCitation(span_id=operand.span_id)))
        span = spans.spans[operand.span_id]
        operands.append(
            Operand(
                label=operand.label,
                value=_as_quoted(operand.value, span.text),
                citation=index[operand.span_id],
            )
        )
    operation = item.derivation.operation
    figures = [parse_figure(o.value) for o in operands]
    stated = [f for f in figures if f is not None]
    result, phrase = "not computable", "not computable from the figures given"
    if len(stated) == len(figures):
        try:
            computed = compute(operation, stated)
        except DerivationError as error:
            phrase = f"not computable: {error}"
        else:
            result = state_result(computed, stated)
            labels = (operands[0].label, operands[-1].label)
            phrase = result_phrase(operation, result, stated[0].percent, labels=labels)
    text = f"{item.text.rstrip(' .:;')}: {phrase}"
    derivation = Derivation(operation=operation, operands=operands, result=result)
    return text, citations, derivation


def _as_quoted(value: str, span: str) -> str:
    """The figure as the span writes it: the one with the model's value, else the one with its
    magnitude ("1,577" for a span's "(1,577)"), when only one does; else the model's text, which
    the verifier then rejects as not quoted."""
    figure = parse_figure(value)
    if figure is None:
        return value
    figures = quote_figures(span)
    exact = [f for f in figures if f.value == figure.value and f.percent == figure.percent]
    magnitude = [
        f for f in figures if abs(f.value) == abs(figure.value) and f.percent == figure.percent
    ]
    for found in (exact, magnitude):
        if len({f.value for f in found}) == 1:
            return found[0].text
    return value


def _assemble(items: Iterable[tuple[str, list[Citation], Derivation | None]]) -> Draft:
    """Claims with content-hash ids; a repeated claim (same text and citations) is kept once."""
    claims: dict[str, Claim] = {}
    for text, citations, derivation in items:
        key = text + "".join(f"\n{c.evidence_id}:{c.quote}" for c in citations)
        claim_id = "c-" + sha256_hex(key)[:10]
        claims.setdefault(
            claim_id,
            Claim(claim_id=claim_id, text=text, citations=citations, derivation=derivation),
        )
    return Draft(claims=list(claims.values()))
