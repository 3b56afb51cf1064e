"""The rules critic's audit as the tests of its checks read it: a claim in its place, and the
facts an answer quoting some sentences leaves missing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from evidencegate.contracts import Citation, Claim, ClaimVerification, Passage
from evidencegate.critique.rules import RulesCritic, _placed
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier


def claim(text: str) -> str:
    """``text`` as the audit reads a claim: its sentence in its place (label and title)."""
    passage = Passage(
        passage_id="p1",
        doc_id="POL-1",
        version="1",
        page=1,
        char_start=0,
        char_end=len(text),
        text=text,
        label="1.1",
        title="Regulation",
        context="1.1\nRegulation",
    )
    return _placed(passage)


def audit_missing(
    corpus: InMemoryCorpus,
    question: str,
    quotes: Sequence[str],
    *,
    as_of: dt.date,
    critic: RulesCritic | None = None,
) -> list[str]:
    """The facts the critic finds missing when the answer to ``question`` quotes ``quotes``
    (a claim each, cited in the first retrieved passage holding it), after its sufficiency."""
    evidence = corpus.search(question, as_of=as_of, limit=8)
    claims: list[Claim] = []
    for n, quote in enumerate(quotes):
        where = next(p for p in evidence if quote in p.text)
        citation = Citation(
            doc_id=where.doc_id,
            version=where.version,
            page=where.page,
            quote=quote,
            evidence_id=where.passage_id,
        )
        claims.append(Claim(claim_id=f"c-{n}", text=quote, citations=[citation]))
    verifier = Verifier.from_policy(corpus, Policy())
    checks: list[ClaimVerification] = [verifier.verify(c, as_of=as_of) for c in claims]
    critic = critic or RulesCritic(pages=corpus)
    sufficiency = critic.sufficiency(question, evidence, as_of=as_of)
    audit = critic.audit(
        question, claims, checks, evidence, as_of=as_of, required_facts=sufficiency.required_facts
    )
    return audit.missing_facts
