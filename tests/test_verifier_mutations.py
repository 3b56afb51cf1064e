"""The verifier accepts an untouched citation and rejects each mutation with its exact reason."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pytest
from conftest import shared_path

from evidencegate.canonical import sha256_hex
from evidencegate.contracts import (
    Authority,
    Citation,
    Claim,
    ClaimVerification,
    DocumentVersion,
    FailureReason,
    Page,
    SourcePage,
)
from evidencegate.exceptions import ConfigurationError
from evidencegate.policy import Policy
from evidencegate.text import normalize
from evidencegate.verify.verifier import Verifier


class MemorySources:
    """A SourceLookup over pages held in a dict: ``(doc_id, version, page) -> SourcePage``."""

    def __init__(self) -> None:
        self.pages: dict[tuple[str, str, int], SourcePage] = {}

    def add(self, document: DocumentVersion, texts: Sequence[str]) -> None:
        for number, text in enumerate(texts, start=1):
            page = Page(doc_id=document.doc_id, version=document.version, page=number, text=text)
            self.pages[(document.doc_id, document.version, number)] = SourcePage(
                document=document, page=page
            )

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        return self.pages.get((doc_id, version, page))


def _document(
    doc_id: str,
    version: str,
    *,
    effective_from: dt.date,
    effective_to: dt.date | None = None,
    superseded_by: str | None = None,
    authority: Authority = "primary",
    texts: Sequence[str] = (),
) -> DocumentVersion:
    return DocumentVersion(
        doc_id=doc_id,
        version=version,
        version_date=effective_from,
        effective_from=effective_from,
        effective_to=effective_to,
        superseded_by=superseded_by,
        authority=authority,
        sha256=sha256_hex("\f".join(texts)),
        pages=len(texts),
    )


# --------------------------------------------------------------------------- a tiny policy corpus

POLICY = "Lease Policy 7"
SUMMARY = f"{POLICY} summary"
SWITCH = dt.date(2022, 7, 1)
V1_TEXTS = (
    "Section 1. Scope.\nThis policy applies to consumer leases of personal property.",
    "Section 4. Disclosures.\nA lessor must provide the disclosures in writing before "
    "consummation. The threshold amount is $53,500 for a lease term exceeding four months. "
    "The lessee has no option to purchase the leased property.",
)
V2_TEXTS = (
    "Section 1. Scope.\nThis policy applies to consumer leases of personal property.",
    "Section 4. Disclosures.\nA lessor must provide the disclosures in writing before "
    "consummation. The threshold amount is $54,600 for a lease term exceeding four months. "
    "Effective July 1, 2022, electronic disclosures are permitted.",
)
SUMMARY_TEXTS = (
    "Summary of Lease Policy 7: lessors must provide disclosures in writing; the threshold "
    "amount is $54,600 for a lease term exceeding four months.",
)
V2_QUOTE = "The threshold amount is $54,600 for a lease term exceeding four months."
AS_OF = dt.date(2023, 1, 15)


@dataclass(frozen=True)
class Corpus:
    sources: MemorySources
    verifier: Verifier


@pytest.fixture
def corpus() -> Corpus:
    sources = MemorySources()
    sources.add(
        _document(
            POLICY,
            "v1",
            effective_from=dt.date(2020, 1, 1),
            effective_to=SWITCH,
            superseded_by="v2",
            texts=V1_TEXTS,
        ),
        V1_TEXTS,
    )
    sources.add(_document(POLICY, "v2", effective_from=SWITCH, texts=V2_TEXTS), V2_TEXTS)
    sources.add(
        _document(
            SUMMARY,
            "2022",
            effective_from=SWITCH,
            authority="secondary",
            texts=SUMMARY_TEXTS,
        ),
        SUMMARY_TEXTS,
    )
    verifier = Verifier(sources, min_quote_chars=20, allowed_authorities=["primary"])
    return Corpus(sources=sources, verifier=verifier)


def _claim(text: str, *citations: Citation) -> Claim:
    return Claim(claim_id="c1", text=text, citations=list(citations))


def _cite(quote: str, *, version: str = "v2", page: int = 2, doc_id: str = POLICY) -> Citation:
    return Citation(doc_id=doc_id, version=version, page=page, quote=quote)


def _verify(
    corpus: Corpus,
    claim: Claim,
    *,
    as_of: dt.date = AS_OF,
    retrieved: Iterable[str] | None = (f"{POLICY}@v1", f"{POLICY}@v2", f"{SUMMARY}@2022"),
) -> ClaimVerification:
    return corpus.verifier.verify(
        claim, as_of=as_of, retrieved=None if retrieved is None else set(retrieved)
    )


UNTOUCHED = "The threshold amount is $54,600 for a lease term exceeding four months."


class TestVerifierAccepts:
    def test_untouched_citation_is_accepted_with_offsets(self, corpus: Corpus) -> None:
        """A verbatim quote from the version in force, supporting the claim, verifies."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE)))
        assert result.ok and result.reasons == []
        checked = result.citations[0].citation
        assert checked.char_start is not None and checked.char_end is not None
        assert V2_TEXTS[1][checked.char_start : checked.char_end] == V2_QUOTE

    def test_paraphrased_numbers_and_dates_are_supported(self, corpus: Corpus) -> None:
        """A claim writing the quote's amount, count and date differently still verifies."""
        claim = _claim(
            "From 1 July 2022 the threshold is 54,600 dollars for terms over 4 months, and "
            "electronic disclosures are permitted.",
            _cite(V2_QUOTE),
            _cite("Effective July 1, 2022, electronic disclosures are permitted."),
        )
        assert _verify(corpus, claim).reasons == []

    def test_naming_the_cited_document_claims_no_number(self, corpus: Corpus) -> None:
        """The number in the cited document's name, written in the claim, is not a claimed value."""
        claim = _claim(f"Under {POLICY.upper()}, {UNTOUCHED.lower()}", _cite(V2_QUOTE))
        assert _verify(corpus, claim).reasons == []

    def test_model_supplied_offsets_are_overwritten(self, corpus: Corpus) -> None:
        """Offsets on the input citation are ignored and replaced by the located span."""
        citation = _cite(V2_QUOTE).model_copy(update={"char_start": 0, "char_end": 3})
        checked = _verify(corpus, _claim(UNTOUCHED, citation)).citations[0].citation
        assert (checked.char_start, checked.char_end) == (
            V2_TEXTS[1].index(V2_QUOTE),
            V2_TEXTS[1].index(V2_QUOTE) + len(V2_QUOTE),
        )

    def test_without_retrieved_set_the_retrieval_check_is_skipped(self, corpus: Corpus) -> None:
        """When the caller gives no retrieved set, no citation is NOT_RETRIEVED."""
        assert _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE)), retrieved=None).ok

    def test_elided_quote_in_order_is_accepted(self, corpus: Corpus) -> None:
        """An ellipsis quote whose fragments are in page order verifies and spans both."""
        quote = "A lessor must provide the disclosures ... exceeding four months"
        result = _verify(corpus, _claim("A lessor must provide the disclosures.", _cite(quote)))
        assert result.ok
        checked = result.citations[0].citation
        assert checked.char_start is not None and checked.char_end is not None
        assert V2_TEXTS[1][checked.char_start : checked.char_end].endswith("four months")


class TestVerifierRejects:
    def test_no_citation(self, corpus: Corpus) -> None:
        """A claim citing nothing is NO_CITATION."""
        assert _verify(corpus, _claim(UNTOUCHED)).reasons == [FailureReason.NO_CITATION]

    def test_fabricated_quote(self, corpus: Corpus) -> None:
        """A quote the page does not contain is QUOTE_NOT_FOUND, and gets no offsets."""
        result = _verify(
            corpus, _claim(UNTOUCHED, _cite("The threshold amount is waived for leases."))
        )
        assert result.reasons == [FailureReason.QUOTE_NOT_FOUND]
        assert result.citations[0].citation.char_start is None

    def test_quote_from_another_version(self, corpus: Corpus) -> None:
        """Citing v2 with a sentence only v1 contains is QUOTE_NOT_FOUND."""
        quote = "The lessee has no option to purchase the leased property."
        result = _verify(corpus, _claim("The lessee has no option to purchase.", _cite(quote)))
        assert result.reasons == [FailureReason.QUOTE_NOT_FOUND]
        assert "v2 page 2" in result.citations[0].failures[0].detail

    def test_altered_number(self, corpus: Corpus) -> None:
        """A claim whose amount differs from the quote's is NUMBER_MISMATCH naming the value."""
        claim = _claim(UNTOUCHED.replace("54,600", "54,700"), _cite(V2_QUOTE))
        result = _verify(corpus, claim)
        assert result.reasons == [FailureReason.NUMBER_MISMATCH]
        assert "'54700'" in result.failures[0].detail and "54600" in result.failures[0].detail

    def test_altered_count(self, corpus: Corpus) -> None:
        """ "five months" against a quote saying "four months" is NUMBER_MISMATCH."""
        claim = _claim(UNTOUCHED.replace("four", "five"), _cite(V2_QUOTE))
        assert _verify(corpus, claim).reasons == [FailureReason.NUMBER_MISMATCH]

    def test_altered_date(self, corpus: Corpus) -> None:
        """A claim dated differently from its quote is DATE_MISMATCH naming the date."""
        quote = "Effective July 1, 2022, electronic disclosures are permitted."
        claim = _claim(
            "Effective July 1, 2023, electronic disclosures are permitted.", _cite(quote)
        )
        result = _verify(corpus, claim)
        assert result.reasons == [FailureReason.DATE_MISMATCH]
        assert "'2023-07-01'" in result.failures[0].detail

    def test_secondary_source(self, corpus: Corpus) -> None:
        """A verbatim quote of a secondary summary is AUTHORITY_NOT_ALLOWED."""
        citation = _cite(
            "the threshold amount is $54,600 for a lease term exceeding four months",
            doc_id=SUMMARY,
            version="2022",
            page=1,
        )
        result = _verify(corpus, _claim(UNTOUCHED, citation))
        assert result.reasons == [FailureReason.AUTHORITY_NOT_ALLOWED]
        assert "'secondary'" in result.citations[0].failures[0].detail

    def test_negation_flip(self, corpus: Corpus) -> None:
        """A claim negating what its quote affirms is NEGATION_MISMATCH."""
        quote = "A lessor must provide the disclosures in writing before consummation."
        claim = _claim("A lessor must not provide the disclosures in writing.", _cite(quote))
        result = _verify(corpus, claim)
        assert result.reasons == [FailureReason.NEGATION_MISMATCH]
        assert "not provide" in result.failures[0].detail

    def test_stale_version(self, corpus: Corpus) -> None:
        """Citing v1 after v2 took over is NOT_IN_FORCE, naming the successor and end date."""
        quote = "The threshold amount is $53,500 for a lease term exceeding four months."
        claim = _claim("The threshold amount is $53,500.", _cite(quote, version="v1"))
        result = _verify(corpus, claim)
        assert result.reasons == [FailureReason.NOT_IN_FORCE]
        detail = result.citations[0].failures[0].detail
        assert "superseded_by=v2" in detail and "effective_to=2022-07-01" in detail

    def test_stale_version_is_accepted_on_its_own_dates(self, corpus: Corpus) -> None:
        """The same v1 citation verifies on a date when v1 was in force."""
        quote = "The threshold amount is $53,500 for a lease term exceeding four months."
        claim = _claim("The threshold amount is $53,500.", _cite(quote, version="v1"))
        assert _verify(corpus, claim, as_of=dt.date(2021, 3, 1)).ok

    def test_version_not_yet_in_force(self, corpus: Corpus) -> None:
        """Citing v2 before its effective date is NOT_IN_FORCE, "not yet in force"."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE)), as_of=dt.date(2021, 3, 1))
        assert result.reasons == [FailureReason.NOT_IN_FORCE]
        assert "not yet in force" in result.citations[0].failures[0].detail

    def test_short_quote(self, corpus: Corpus) -> None:
        """A quote shorter than min_quote_chars after normalisation is QUOTE_TOO_SHORT."""
        result = _verify(corpus, _claim("The threshold is $54,600.", _cite("is $54,600")))
        assert result.reasons == [FailureReason.QUOTE_TOO_SHORT]
        assert "min_quote_chars=20" in result.citations[0].failures[0].detail

    def test_padding_does_not_lengthen_a_quote(self, corpus: Corpus) -> None:
        """Whitespace and ellipses do not count towards the quote length."""
        quote = "   is    $54,600 ...  for a  "
        result = _verify(corpus, _claim("The threshold is $54,600.", _cite(quote)))
        assert result.reasons == [FailureReason.QUOTE_TOO_SHORT]

    def test_not_retrieved(self, corpus: Corpus) -> None:
        """Citing a version the run did not retrieve is NOT_RETRIEVED."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE)), retrieved=[f"{POLICY}@v1"])
        assert result.reasons == [FailureReason.NOT_RETRIEVED]

    def test_unknown_document(self, corpus: Corpus) -> None:
        """Citing a version the store does not hold is DOCUMENT_NOT_FOUND."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE, version="v3")), retrieved=None)
        assert result.reasons == [FailureReason.DOCUMENT_NOT_FOUND]

    def test_unknown_page(self, corpus: Corpus) -> None:
        """Citing a page the version does not have is PAGE_NOT_FOUND."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE, page=9)))
        assert result.reasons == [FailureReason.PAGE_NOT_FOUND]

    def test_quote_on_another_page(self, corpus: Corpus) -> None:
        """A real quote attributed to the wrong page is QUOTE_NOT_FOUND."""
        result = _verify(corpus, _claim(UNTOUCHED, _cite(V2_QUOTE, page=1)))
        assert result.reasons == [FailureReason.QUOTE_NOT_FOUND]

    def test_fragments_out_of_order(self, corpus: Corpus) -> None:
        """An elided quote whose fragments are reordered is FRAGMENTS_OUT_OF_ORDER."""
        quote = "exceeding four months ... A lessor must provide the disclosures"
        result = _verify(corpus, _claim("A lessor must provide the disclosures.", _cite(quote)))
        assert result.reasons == [FailureReason.FRAGMENTS_OUT_OF_ORDER]

    def test_unlocated_quote_does_not_support_numbers(self, corpus: Corpus) -> None:
        """Only located quotes count: a fabricated quote cannot vouch for the claim's number."""
        claim = _claim(
            UNTOUCHED.replace("54,600", "54,700"),
            _cite(V2_QUOTE),
            _cite("The threshold amount is $54,700 for a lease term exceeding four months."),
        )
        assert _verify(corpus, claim).reasons == [
            FailureReason.NUMBER_MISMATCH,
            FailureReason.QUOTE_NOT_FOUND,
        ]

    def test_several_failures_are_all_reported(self, corpus: Corpus) -> None:
        """A citation breaking several rules reports each of them."""
        citation = _cite("is $53,500", version="v1")
        result = _verify(corpus, _claim("It is $53,500.", citation), retrieved=[f"{POLICY}@v2"])
        assert set(result.reasons) == {
            FailureReason.NOT_RETRIEVED,
            FailureReason.QUOTE_TOO_SHORT,
            FailureReason.NOT_IN_FORCE,
        }


class TestVerifierConfiguration:
    def test_from_policy_takes_quote_length_and_authorities(self, corpus: Corpus) -> None:
        """A policy allowing secondary sources and short quotes accepts the summary quote."""
        policy = Policy(min_quote_chars=5, allowed_authorities=["primary", "secondary"])
        verifier = Verifier.from_policy(corpus.sources, policy)
        citation = _cite("is $54,600", doc_id=SUMMARY, version="2022", page=1)
        result = verifier.verify(_claim("The threshold is $54,600.", citation), as_of=AS_OF)
        assert result.ok

    @pytest.mark.parametrize(
        ("min_quote_chars", "authorities", "message"),
        [
            (0, ["primary"], "min_quote_chars must be >= 1 (got 0)"),
            (20, [], "allowed_authorities"),
            (20, ["primary", "tertiary"], "'tertiary'"),
        ],
    )
    def test_invalid_configuration_is_refused(
        self, corpus: Corpus, min_quote_chars: int, authorities: list[str], message: str
    ) -> None:
        """A non-positive quote length or an unknown authority is a ConfigurationError."""
        with pytest.raises(ConfigurationError, match=re.escape(message)):
            Verifier(
                corpus.sources, min_quote_chars=min_quote_chars, allowed_authorities=authorities
            )

    def test_component_id(self) -> None:
        """The verifier names itself in traces."""
        assert Verifier.component_id == "verifier:deterministic@1"


# --------------------------------------------------------------------------- real data: Reg M

REG_M = "12 CFR 1013"


@dataclass(frozen=True)
class RegM:
    sources: MemorySources
    verifier: Verifier
    versions: list[DocumentVersion]  # by effective date
    pages: dict[str, list[tuple[str, str]]]  # version -> [(label, text)], page = index + 1

    def page_of(self, version: str, label: str) -> tuple[int, str]:
        for number, (page_label, text) in enumerate(self.pages[version], start=1):
            if page_label == label:
                return number, text
        raise LookupError(f"{version} has no paragraph {label}")


@pytest.fixture(scope="module")
def reg_m() -> RegM:
    path = shared_path("corpora", "cfpb_regml", "paragraphs.jsonl")
    pages: dict[str, list[tuple[str, str]]] = {}
    dates: dict[str, dt.date] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if f'"doc_id": "{REG_M}"' not in line:
                continue
            row = json.loads(line)
            if row["doc_id"] != REG_M:
                continue
            pages.setdefault(row["version"], []).append((row["label"], row["text"]))
            dates[row["version"]] = dt.date.fromisoformat(row["version_date"])
    order = sorted(pages, key=lambda v: dates[v])
    sources = MemorySources()
    versions: list[DocumentVersion] = []
    for index, version in enumerate(order):
        successor = order[index + 1] if index + 1 < len(order) else None
        texts = [text for _, text in pages[version]]
        document = _document(
            REG_M,
            version,
            effective_from=dates[version],
            effective_to=dates[successor] if successor else None,
            superseded_by=successor,
            texts=texts,
        )
        sources.add(document, texts)
        versions.append(document)
    verifier = Verifier(sources, min_quote_chars=20, allowed_authorities=["primary"])
    return RegM(sources=sources, verifier=verifier, versions=versions, pages=pages)


THRESHOLD_2014 = "From January 1, 2014 through December 31, 2014, the threshold amount is $53,500."


@pytest.mark.shared
class TestVerifierOnRegulationM:
    def _threshold_claim(self, reg_m: RegM, text: str, *, version: str = "2013-28194") -> Claim:
        page, _ = reg_m.page_of("2013-28194", "1013-2-e-Interp-9-v")
        citation = Citation(doc_id=REG_M, version=version, page=page, quote=THRESHOLD_2014)
        return Claim(claim_id="m1", text=text, citations=[citation])

    def test_corpus_has_the_seven_dated_versions(self, reg_m: RegM) -> None:
        """Regulation M loads as seven versions, each superseded by the next."""
        assert len(reg_m.versions) == 7
        assert all(v.superseded_by for v in reg_m.versions[:-1])
        assert reg_m.versions[-1].effective_to is None

    def test_threshold_in_force_is_accepted(self, reg_m: RegM) -> None:
        """The 2014 threshold, quoted from the version in force in 2014, verifies."""
        claim = self._threshold_claim(reg_m, "In 2014 the Regulation M threshold was $53,500.")
        result = reg_m.verifier.verify(claim, as_of=dt.date(2014, 6, 1))
        assert result.ok, result.reasons
        checked = result.citations[0].citation
        _, text = reg_m.page_of("2013-28194", "1013-2-e-Interp-9-v")
        assert text[checked.char_start : checked.char_end] == THRESHOLD_2014

    def test_stale_version_is_not_in_force(self, reg_m: RegM) -> None:
        """The same citation on a 2016 as-of date is NOT_IN_FORCE, naming the next version."""
        claim = self._threshold_claim(reg_m, "In 2014 the Regulation M threshold was $53,500.")
        result = reg_m.verifier.verify(claim, as_of=dt.date(2016, 6, 1))
        assert result.reasons == [FailureReason.NOT_IN_FORCE]
        assert "superseded_by=2014-21847" in result.citations[0].failures[0].detail

    def test_later_figure_is_a_number_mismatch(self, reg_m: RegM) -> None:
        """Claiming the 2015 figure from the 2014 sentence is NUMBER_MISMATCH."""
        claim = self._threshold_claim(reg_m, "In 2014 the Regulation M threshold was $54,600.")
        result = reg_m.verifier.verify(claim, as_of=dt.date(2014, 6, 1))
        assert result.reasons == [FailureReason.NUMBER_MISMATCH]

    def test_sentence_of_a_later_version_is_not_in_an_earlier_one(self, reg_m: RegM) -> None:
        """The 2014 sentence cited from the 2013 version (same paragraph) is QUOTE_NOT_FOUND."""
        page, _ = reg_m.page_of("2013-28194", "1013-2-e-Interp-9-v")
        earlier, earlier_text = reg_m.pages["2012-27996"][page - 1]
        assert THRESHOLD_2014 not in earlier_text  # the paragraph there has another figure
        claim = self._threshold_claim(
            reg_m, "In 2014 the Regulation M threshold was $53,500.", version="2012-27996"
        )
        result = reg_m.verifier.verify(claim, as_of=dt.date(2013, 6, 1))
        assert result.reasons == [FailureReason.QUOTE_NOT_FOUND], earlier

    def test_negation_flip_on_real_text(self, reg_m: RegM) -> None:
        """Dropping the "not" of a real interpretation is NEGATION_MISMATCH."""
        page, text = reg_m.page_of("2013-28194", "1013-2-e-Interp-8")
        citation = Citation(doc_id=REG_M, version="2013-28194", page=page, quote=text)
        claim = Claim(
            claim_id="m2",
            text="The lease of a safe deposit box is a consumer lease.",
            citations=[citation],
        )
        result = reg_m.verifier.verify(claim, as_of=dt.date(2014, 6, 1))
        assert result.reasons == [FailureReason.NEGATION_MISMATCH]

    def test_every_paragraph_quoted_whole_verifies(self, reg_m: RegM) -> None:
        """Each paragraph of the latest version, claimed and quoted verbatim, verifies."""
        latest = reg_m.versions[-1]
        as_of = latest.effective_from
        failures: list[tuple[int, list[FailureReason]]] = []
        checked = 0
        for number, (_, text) in enumerate(reg_m.pages[latest.version], start=1):
            if len(normalize(text)[0]) < 20:
                continue
            citation = Citation(doc_id=REG_M, version=latest.version, page=number, quote=text)
            result = reg_m.verifier.verify(
                Claim(claim_id=str(number), text=text, citations=[citation]), as_of=as_of
            )
            checked += 1
            span = result.citations[0].citation
            if not result.ok or text[span.char_start : span.char_end] != text.strip():
                failures.append((number, result.reasons))
        assert checked > 300
        assert failures == []

    def test_every_altered_amount_is_a_number_mismatch(self, reg_m: RegM) -> None:
        """In every paragraph stating a dollar amount, raising that amount is NUMBER_MISMATCH."""
        latest = reg_m.versions[-1]
        amount = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)")
        outcomes: list[tuple[int, list[FailureReason]]] = []
        for number, (_, text) in enumerate(reg_m.pages[latest.version], start=1):
            found = amount.search(text)
            if found is None:
                continue
            raised = f"${int(found.group(1).replace(',', '')) + 100:,}"
            claim_text = text[: found.start()] + raised + text[found.end() :]
            citation = Citation(doc_id=REG_M, version=latest.version, page=number, quote=text)
            result = reg_m.verifier.verify(
                Claim(claim_id=str(number), text=claim_text, citations=[citation]),
                as_of=latest.effective_from,
            )
            outcomes.append((number, result.reasons))
        assert len(outcomes) >= 10
        assert all(reasons == [FailureReason.NUMBER_MISMATCH] for _, reasons in outcomes), outcomes


def test_unit_mutation_caught_when_value_appears_elsewhere() -> None:
    """A claim moving '30' onto 'business days' is rejected though '30 days' is quoted."""
    from evidencegate.contracts import Citation, Claim, DocumentVersion, Page, SourcePage
    from evidencegate.verify.verifier import Verifier

    text = (
        "The servicer must respond within 20 business days, and in any case the review "
        "must be completed within 30 days of receipt."
    )
    doc = DocumentVersion(
        doc_id="X",
        version="1",
        version_date=dt.date(2020, 1, 1),
        effective_from=dt.date(2020, 1, 1),
        authority="primary",
        sha256="0" * 64,
        pages=1,
    )

    class One:
        def lookup(
            self, doc_id: str, version: str, page: int, *, tenant: str | None = None
        ) -> SourcePage | None:
            if (doc_id, version, page) != ("X", "1", 1):
                return None
            return SourcePage(document=doc, page=Page(doc_id="X", version="1", page=1, text=text))

    verifier = Verifier(One(), min_quote_chars=20, allowed_authorities=["primary"])
    mutated = text.replace("within 20 business days", "within 30 business days")
    claim = Claim(
        claim_id="c",
        text=mutated,
        citations=[Citation(doc_id="X", version="1", page=1, quote=text)],
    )
    result = verifier.verify(claim, as_of=dt.date(2021, 1, 1))
    assert not result.ok
    assert "number_mismatch" in [r.value for r in result.reasons]
    faithful = claim.model_copy(update={"text": text})
    assert verifier.verify(faithful, as_of=dt.date(2021, 1, 1)).ok
