"""What the rules critic asks an answer to establish, and what establishes it.

The facts come from question analysis (names, numbers, years, the asks of a several-part
question); each test pairs a question phrased the way an analyst types with the evidence that
does, or does not, answer it.
"""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import answer_type, profile_question, proper_names
from evidencegate.contracts import (
    Citation,
    CitationCheck,
    Claim,
    ClaimVerification,
    Passage,
    Verdict,
)
from evidencegate.critique.rules import RulesCritic
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus
from evidencegate.verify.verifier import Verifier
from tests.audit_support import audit_missing

AS_OF = dt.date(2024, 6, 1)


def profile(question: str):  # type: ignore[no-untyped-def]
    return profile_question(question, as_of=AS_OF)


class TestWhatAQuestionNames:
    def test_words_that_open_a_request_are_not_names(self) -> None:
        assert proper_names("According to Acme's annual report, what was revenue?") == ("Acme",)
        assert proper_names("Latest Globex gross margin?") == ("Globex",)
        assert proper_names("Kindly give me the Regulation Q limit.") == ("Regulation Q",)
        assert proper_names("Roughly how much did Initech spend?") == ("Initech",)
        assert proper_names("State the deadline for a reply.") == ()

    def test_a_company_opening_the_question_stays_a_name(self) -> None:
        assert proper_names("Globex capex in 2021?") == ("Globex",)
        assert proper_names("Globex R&D 2022?") == ("Globex", "R&D")

    def test_a_run_of_names_splits_where_an_acronym_meets_a_word(self) -> None:
        assert proper_names("Year-over-year change in JNJ R&D?") == ("JNJ", "R&D")
        assert proper_names("Which fields go in the HMDA LAR?") == ("HMDA", "LAR")
        assert proper_names("Change in 3M R&D expense?")[-2:] == ("3M", "R&D")
        # A single capital is no acronym; a run of capitalised words stays one name.
        assert proper_names("Is it Reg E or Regulation B?") == ("Reg E", "Regulation B")
        assert proper_names("Scope of the Equal Credit Opportunity Act?")[-1:] == (
            "Equal Credit Opportunity Act",
        )

    def test_an_opening_word_the_lexicon_knows_is_no_name(self) -> None:
        assert proper_names("Deadline for a reply to a complaint?") == ()
        assert proper_names("Capex Globex 2021?") == ("Globex",)
        assert proper_names("Regulation M lease cap?") == ("Regulation M",)
        assert proper_names("Initech capex?") == ("Initech",)

    def test_a_possessive_ends_a_name(self) -> None:
        assert proper_names("What deadline does RESPA's Regulation X set?") == (
            "RESPA",
            "Regulation X",
        )
        assert proper_names("Globex's Commercial Airplanes revenue?") == (
            "Globex",
            "Commercial Airplanes",
        )

    def test_an_abbreviated_month_is_no_name(self) -> None:
        assert proper_names("Initech cash at Dec 31 2022?") == ("Initech",)
        assert proper_names("Globex inventories at Sept. 30, 2021?") == ("Globex",)

    def test_numeric_dates_are_dates_not_figures(self) -> None:
        p = profile("Initech's cash at 12/31/2021 in $ millions?")
        assert p.numbers == ()
        assert p.target.start == p.target.end == dt.date(2021, 12, 31)
        p = profile("threshold before 21/7/2011?")
        assert p.target.end == dt.date(2011, 7, 20)

    def test_section_numbers_and_form_types_are_not_figures(self) -> None:
        assert profile("must info collected under 1002.5(a)(4) be kept?").numbers == ()
        p = profile("How many forms are in appendix B of 12 CFR part 1002?")
        assert p.numbers == ()
        assert "12 CFR part 1002" in p.names
        assert profile("Does Initech's 2022 10-K call the market cyclical?").numbers == ()
        assert profile("section 4.2: may a gift of $120 be accepted?").numbers == ("120",)

    def test_an_as_of_date_selects_the_rules_and_is_not_asked_for(self) -> None:
        p = profile("As of the end of February 2024, what is the most a staff member can accept?")
        assert p.as_of_years == ("2024",)
        assert p.answer_type == "amount"
        assert "february" not in p.terms
        # A balance-sheet date with a second year asked is the figure's period, not a scope.
        assert profile("Net assets as of 2018 compared with 2017?").as_of_years == ()
        assert profile("What was the fee in 2019?").as_of_years == ()

    def test_a_year_opening_a_plans_name_is_not_the_period(self) -> None:
        p = profile("What charges did Initech record under its 2019 Efficiency Plan in 2022?")
        assert p.years == ("2022",)
        assert p.target.start == dt.date(2022, 1, 1)
        assert profile("What was revenue in 2021 and 2022?").years == ("2021", "2022")

    def test_a_several_part_question_has_its_asks(self) -> None:
        p = profile(
            "How long may the firm take to reply to a complaint, and how many years must the "
            "complaint file be kept?"
        )
        assert len(p.parts) == 2
        assert {"reply", "complaint"} <= set(p.parts[0])
        assert {"year", "file", "kept"} <= set(p.parts[1])
        assert profile("As of May 2024, what is the reply deadline for complaints?").parts == ()
        terse = profile("reply deadline for complaints + how long we keep complaint files")
        assert len(terse.parts) == 2
        case = profile(
            "If a client is a public official, how is the client rated, and how often is the "
            "client's file reviewed?"
        )
        assert len(case.parts) == 2  # the case it sets out is no ask of its own
        assert profile("What is the limit and the fee?").parts == ()
        # The asker's own scene before the ask is its case, not an ask of its own.
        assert profile("As transferor servicer, how many days before the transfer?").parts == ()
        assert profile("I'm joining next week, how long do I have to disclose?").parts == ()
        assert profile("AU-5 — after a failure, what must the system do?").parts == ()
        asked = profile("I need to know how long files are kept, and who approves redress?")
        assert len(asked.parts) == 2

    def test_noun_phrases_asked_together_are_parts(self) -> None:
        p = profile("Remittance cancellation window and refund deadline?")
        assert p.parts == ()
        # The head they share ("deadline") tells neither apart.
        assert p.conjoined == (("remittance", "cancellation", "window"), ("refund", "deadline"))
        ack = profile(
            "Servicer got a notice of error from me: acknowledgment deadline and response deadline?"
        )
        assert ack.conjoined == (("acknowledgment",), ("response",))
        assert len(profile("What were revenue and margin for 2022?").conjoined) == 2
        assert len(profile("Card agreement: the fee cap and the notice period?").conjoined) == 2
        closing = profile(
            "The refresh cycle and the refresh deadline after a trigger - what are they?"
        )
        assert len(closing.conjoined) == 2
        # The whole ("total revenues") beside a part of it: no thing asked of its own.
        whole = profile("BA total revenues and the revenues of the Commercial Airplanes segment?")
        assert whole.conjoined == ()
        # One thing asked: a modifier sharing the next phrase's head, no measure or time noun,
        # a list of three, a clause after "and", a yes/no question.
        assert profile("What race and ethnicity data must a lender collect?").conjoined == ()
        assert profile("Retention periods: mortgage files and personnel files").conjoined == ()
        assert profile("Net sales, operating profit and capex for 2022?").conjoined == ()
        assert profile("What is the fee cap, and when is it due?").conjoined == ()
        assert profile("Is there a fee cap and a notice period?").conjoined == ()

    def test_a_parameter_the_organization_sets_states_the_figure(self) -> None:
        p = profile("For how long must audit logs be kept under control AU-11?")
        assert p.states_figure(
            "Retain audit records for [Assignment: organization-defined time period consistent "
            "with records retention policy]."
        )
        assert not p.states_figure("Retain audit records to support investigations.")
        assert profile("How often must staff be trained?").states_figure(
            "Provide training at an organization-defined frequency."
        )

    def test_what_a_system_may_do_is_an_action_not_a_figure(self) -> None:
        asked = "What may the system do when the maximum number of failed logons is exceeded?"
        assert answer_type(asked) == "definition"
        assert answer_type("What is the maximum number of failed logons?") == "count"

    def test_a_figure_question_listing_several_measures_has_its_items(self) -> None:
        p = profile("What were Initech's 2022 revenue, operating profit and capital spending?")
        assert p.items == (("revenue",), ("operat", "profit"), ("capital", "spend"))
        # Commas around a clause or a phrase are no list of measures.
        assert profile("How much can a gift be worth, over the year, before I ask?").items == ()
        assert profile("What is the gift limit, and how fast must gifts be recorded?").items == ()
        deadlines = profile(
            "State the reply deadline for a complaint and the file retention period."
        )
        assert len(deadlines.items) == 2  # durations too: a figure for each

    def test_count_of_and_named_periods(self) -> None:
        assert profile("Count of the model forms in appendix B, please.").counted == "form"
        assert answer_type("What delinquency period must pass before a filing?") == "duration"
        # The unit the answer is counted in, set off within the question, names a duration.
        unit = "What is the minimum delinquency, in days, before a servicer may file?"
        assert answer_type(unit) == "duration" and profile(unit).time_unit == "day"
        assert answer_type("What is the minimum fee (in dollars) for a wire?") != "duration"
        assert answer_type("kyc refresh cycle for high risk customers?") == "duration"


def _critic_for(corpus: InMemoryCorpus) -> RulesCritic:
    return RulesCritic(pages=corpus)


def _one_document(doc_id: str, pages: list[str]) -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(doc_id, "1", dt.date(2020, 1, 1), pages)
    return corpus


def _missing(corpus: InMemoryCorpus, question: str) -> list[str]:
    """The facts the critic's sufficiency finds missing from what ``question`` retrieves."""
    evidence = corpus.search(question, as_of=AS_OF, limit=8)
    return _critic_for(corpus).sufficiency(question, evidence, as_of=AS_OF).missing_facts


def _cite(evidence: list[Passage], quote: str) -> Citation:
    """A citation of ``quote`` in the first retrieved passage that holds it."""
    where = next(p for p in evidence if quote in p.text)
    return Citation(
        doc_id=where.doc_id,
        version=where.version,
        page=where.page,
        quote=quote,
        evidence_id=where.passage_id,
    )


def _audit(
    critic: RulesCritic, question: str, corpus: InMemoryCorpus, quotes: list[str]
) -> list[str]:
    return audit_missing(corpus, question, quotes, as_of=AS_OF, critic=critic)


GIFT_LIMIT = (
    "4.1 Employees may accept a gift with a value of up to $150 per giver per calendar year "
    "without prior approval."
)


class TestWhatEstablishesAFact:
    GIFTS = (
        "Globex Savings Bank, policy GSB-7. This policy applies to every employee of the Bank.",
        "4.1 Employees may accept a gift with a value of up to $150 per giver per calendar year "
        "without prior approval.\n4.2 Gifts must be recorded in the gifts register within 10 "
        "business days of the offer.",
    )

    def corpus(self) -> InMemoryCorpus:
        return _one_document("GSB-7", list(self.GIFTS))

    def test_the_company_is_named_by_the_document_not_the_sentence(self) -> None:
        corpus = self.corpus()
        question = "What yearly gift value from one giver may a Globex employee accept?"
        quote = GIFT_LIMIT
        missing = _audit(_critic_for(corpus), question, corpus, [quote])
        assert not [f for f in missing if f.startswith("name: ")]
        # Without a way to read the document, the sentence alone does not name the company.
        assert "name: Globex" in _audit(RulesCritic(), question, corpus, [quote])
        # Another company's name is established by nothing in this corpus.
        other = "What yearly gift value from one giver may an Initech employee accept?"
        assert "name: Initech" in _audit(_critic_for(corpus), other, corpus, [quote])

    def test_a_year_naming_the_rules_is_established_by_the_version_in_force(self) -> None:
        # "As it stood in 2021": the version quoted must be the one in force that year; it
        # need not restate the year. A year before that version took effect is not established.
        corpus = _one_document("GSB-7", list(self.GIFTS))
        corpus.add("GSB-7", "2", dt.date(2021, 3, 1), list(self.GIFTS))
        for year, established in (("2021", True), ("2022", True), ("2020", False)):
            question = f"As it stood in {year}, what yearly gift value may an employee accept?"
            assert profile(question).as_of_years == (year,)
            missing = _audit(_critic_for(corpus), question, corpus, [GIFT_LIMIT])
            assert (f"year: {year}" not in missing) is established, (year, missing)
        headed = "Reg X 1024.39(d)(3)(iii), January 2018: how many days until the next notice?"
        assert profile(headed).as_of_years == ("2018",)
        assert profile("What was the fee in 2019?").as_of_years == ()

    def test_a_focus_word_is_stated_by_its_form_in_another_part_of_speech(self) -> None:
        # "Who is responsible" is answered by "has responsibility": the word family of the
        # shipped derivations table; a sibling passage states "responsible" itself, which
        # makes it the question's focus.
        corpus = _one_document(
            "POL-4",
            [
                "4.1 The compliance officer has responsibility for the complaint register.",
                "4.2 Staff responsible for a customer account record each complaint in the "
                "register.",
                "4.3 Complaint files are kept for 3 years.",
                "4.4 The register lists every complaint received and its outcome.",
            ],
        )
        quote = "The compliance officer has responsibility for the complaint register."
        question = "Who is responsible for the complaint register?"
        assert _audit(_critic_for(corpus), question, corpus, [quote]) == []
        # A claim stating the word in no form still misses it.
        assert "focus: responsible" in _audit(
            _critic_for(corpus),
            question,
            corpus,
            ["The register lists every complaint received and its outcome."],
        )

    def test_the_word_asking_for_a_requirement_is_no_focus(self) -> None:
        # "requirement" says what kind of text is asked for, as "require" does: an answer
        # need not repeat it.
        corpus = _one_document(
            "POL-9",
            [
                "5.1 The system locks a session after 15 minutes of inactivity.",
                "5.2 Requirement owners review the lock settings each year.",
                "5.3 Lock settings are recorded in the configuration register.",
            ],
        )
        question = "What is the session lock requirement?"
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        facts = _critic_for(corpus).sufficiency(question, evidence, as_of=AS_OF).required_facts
        assert [f for f in facts if f.startswith("focus: ")] == ["focus: session lock"]

    def test_a_balance_as_of_a_date_speaks_of_that_year_not_the_next(self) -> None:
        # "as of December 31, 2018 ... was $617 million" dates a balance; it states nothing of
        # 2019, which a question about 2019 asks the answer to state.
        quote = (
            "Deferred revenue as of December 31, 2018 and December 31, 2017 was $617 million "
            "and $513 million, respectively."
        )
        corpus = _one_document("ACME-10K", ["Contract balances. " + quote])
        question = "Acme deferred revenue in 2019?"
        assert "year: 2019" in _audit(_critic_for(corpus), question, corpus, [quote])
        assert "year: 2018" not in _audit(
            _critic_for(corpus), "Acme deferred revenue in 2018?", corpus, [quote]
        )

    def test_an_acronym_is_stated_by_the_words_it_abbreviates(self) -> None:
        corpus = _one_document(
            "REG-B",
            [
                "Under the Equal Credit Opportunity Act a creditor must offer the applicant the "
                "option to select more than one racial designation."
            ],
        )
        asked = "Under {}, what option must a creditor offer an applicant on race?"
        assert "name: ECOA" not in _missing(corpus, asked.format("ECOA"))
        assert "name: FCRA" in _missing(corpus, asked.format("FCRA"))

    def test_an_ampersand_acronym_and_one_with_per_or_a_slash(self) -> None:
        corpus = _one_document(
            "10-K",
            [
                "Research and development expense was $1,200 million in 2022. Diluted earnings "
                "per share were $4.10. The loan/application register lists each application."
            ],
        )
        evidence = corpus.search("development expense share register", as_of=AS_OF, limit=8)
        assert evidence

        def missing(acronym: str) -> list[str]:
            question = f"What does the filing report for {acronym} in 2022?"
            return _critic_for(corpus).sufficiency(question, evidence, as_of=AS_OF).missing_facts

        for acronym in ("R&D", "EPS", "LAR"):
            assert f"name: {acronym}" not in missing(acronym)
        # "D&A" is read as the words the lexicon spells it out in: the filing states neither.
        assert any("depreciation amortization" in fact for fact in missing("D&A"))
        # An acronym the lexicon groups with the words a filing uses ("COGS").
        filing = _one_document("10-K", ["Cost of products sold was $31,089 million in 2022."])
        cogs = "What was the COGS in 2022?"
        evidence = filing.search("cost products sold", as_of=AS_OF, limit=8)
        assert (
            "name: COGS"
            not in _critic_for(filing).sufficiency(cogs, evidence, as_of=AS_OF).missing_facts
        )

    def test_an_opening_word_capitalised_by_grammar_is_no_name(self) -> None:
        corpus = _one_document(
            "REG-E",
            [
                "If the financial institution is unable to complete its investigation within 10 "
                "business days, it may take up to 45 days; the extended period applies to new "
                "accounts."
            ],
        )
        # The lexicon knows "deadline"; the evidence writes "extended" in lower case.
        for question in (
            "Deadline for completing an error investigation?",
            "Extended investigation period for new accounts?",
        ):
            assert not [f for f in _missing(corpus, question) if f.startswith("name: ")]
        # A name no document writes, opening the question or not, must still be established.
        for question in (
            "Initech investigation period for new accounts?",
            "Investigation period for an Initech account?",
        ):
            assert "name: Initech" in _missing(corpus, question)

    def test_an_amount_the_question_sets_out_is_weighed_against_the_rule(self) -> None:
        corpus = self.corpus()
        question = "A supplier offers me a $120 gift: can I take it without approval?"
        quote = GIFT_LIMIT
        assert "number: 120" not in _audit(_critic_for(corpus), question, corpus, [quote])

    def test_an_amount_a_source_states_must_be_the_cited_case(self) -> None:
        corpus = _one_document(
            "REG-E",
            [
                "Example one. A sender sends US$100 with a transfer fee of US$10. The provider "
                "must refund US$110 to the sender.",
                "Example two. A sender sends US$250 with a transfer fee of US$12. The provider "
                "must refund US$262 to the sender.",
            ],
        )
        critic = _critic_for(corpus)
        question = "In the example where a sender sends US$250 with a US$12 fee, what is refunded?"
        right = "The provider must refund US$262 to the sender."
        wrong = "The provider must refund US$110 to the sender."
        assert not [f for f in _audit(critic, question, corpus, [right]) if "number" in f]
        assert "number: 250" in _audit(critic, question, corpus, [wrong])

    def test_a_compound_states_its_number(self) -> None:
        corpus = _one_document(
            "REG-X",
            [
                "A servicer must send the written notice again at the end of each 180-day "
                "period while the borrower remains 45 days or more delinquent."
            ],
        )
        question = "When must the written notice be sent again after the 180 days are over?"
        assert "number: 180" not in _missing(corpus, question)

    def test_words_framing_a_compliance_question_are_no_focus(self) -> None:
        from evidencegate.critique.rules import _focus, _placed

        corpus = _one_document(
            "CTRL",
            [
                "AC-11 Device Lock. Prevent further access to the system by initiating a device "
                "lock after a period of inactivity.",
                "AC-12 Session Termination. Automatically terminate a user session.",
                "AC-13 Supervision. Review the activities of users.",
            ],
        )
        question = "What kind of lock does control AC-11 require after inactivity?"
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        focus = _focus(profile(question), [_placed(p) for p in evidence])
        assert "control" not in focus and "require" not in focus
        # Nor are numbers (checked as numbers) or the light words of the asking.
        question = "When must users get device lock under enhancement 1 of AC-11?"
        texts = [*(_placed(p) for p in evidence), "(1) Users get a pattern-hiding display."]
        focus = _focus(profile(question), texts)
        assert "1" not in focus and "get" not in focus

    def test_words_asking_for_the_companys_own_figure_are_no_focus(self) -> None:
        """ "Net revenue ... for all the company", "company-wide": the statements give the
        company's figure without saying so; a row need not state "company"."""
        from evidencegate.critique.rules import _focus

        texts = [
            "Net revenue $ 86,392 $ 79,474",
            "The company sells snacks in many markets.",
            "Total short-term debt $ 136",
            "Operating profit $ 11,512",
        ]
        question = "Please, what is net revenue of PepsiCo in the year 2022 for all the company?"
        assert "company" not in _focus(profile(question), texts)
        question = "What R&D expense did PepsiCo recognize company-wide in 2022?"
        focus = _focus(profile(question), texts)
        assert "company-wide" not in focus and "recogniz" not in focus

    def test_a_figure_for_each_listed_measure(self) -> None:
        corpus = InMemoryCorpus()
        corpus.add(
            "INITECH-10K",
            "FY2022",
            dt.date(2023, 2, 1),
            [
                "Initech Corp annual report. In 2022 revenue was $5,200 million. In 2022 "
                "capital spending was $310 million. Headcount grew in 2022."
            ],
        )
        critic = _critic_for(corpus)
        question = "What were Initech's 2022 revenue and capital spending, in USD millions?"
        revenue = "In 2022 revenue was $5,200 million."
        capex = "In 2022 capital spending was $310 million."
        half = _audit(critic, question, corpus, [revenue])
        assert [f for f in half if f.startswith("figure: ")]
        both = _audit(critic, question, corpus, [revenue, capex])
        assert not [f for f in both if f.startswith("figure: ")]

    def test_a_heading_naming_the_measure_does_not_make_another_figure_its(self) -> None:
        critic = RulesCritic()
        question = "What was Initech's gross profit in 2022?"

        def missing(text: str) -> list[str]:
            passage = Passage(
                passage_id="p1",
                doc_id="INITECH-10K",
                version="FY2022",
                page=3,
                char_start=0,
                char_end=len(text),
                text=text,
                title="Initech Corp 10-K",
                context="Initech Corp 10-K > Gross profit",
            )
            return critic.sufficiency(question, [passage], as_of=AS_OF).missing_facts

        assert "figure: a stated figure or date answering the question" in missing(
            "In 2022 net income was $120 million."
        )
        assert not [f for f in missing("In 2022 gross profit was $900 million.") if "figure" in f]

    def test_each_ask_of_a_several_part_question_needs_its_own_claim(self) -> None:
        corpus = self.corpus()
        critic = _critic_for(corpus)
        question = (
            "What gift value per giver per year may employees accept without approval, and "
            "within how many business days must gifts be recorded in the register?"
        )
        limit = GIFT_LIMIT
        record = (
            "4.2 Gifts must be recorded in the gifts register within 10 business days of the offer."
        )
        half = _audit(critic, question, corpus, [limit])
        assert [f for f in half if f.startswith("part: ")]
        both = _audit(critic, question, corpus, [limit, record])
        assert not [f for f in both if f.startswith("part: ")]


def test_passage_fixture_sanity() -> None:
    # The helpers above cite passages by their own text; a passage is what search returns.
    corpus = InMemoryCorpus()
    corpus.add("D", "1", dt.date(2020, 1, 1), ["One sentence about gifts and approval."])
    found = corpus.search("gifts approval", as_of=AS_OF, limit=8)
    assert found and isinstance(found[0], Passage)


def test_a_section_is_named_by_the_paragraph_label() -> None:
    """A paragraph labelled "1099-4-b" is § 1099.4(b) (also "section 1099.4(b)"), and a
    document is named by its id ("12 CFR 1099"), though neither the sentence nor its
    heading path says so."""
    text = "A lessor shall keep each signed lease file for at least two years."
    corpus = _one_document("12 CFR 1099", [text])
    passage = Passage(
        passage_id="p-1",
        doc_id="12 CFR 1099",
        version="1",
        page=1,
        char_start=0,
        char_end=len(text),
        text=text,
        label="1099-4-b",
        context="1099-4-b\nRecords.\nRetention.",
    )
    for question in (
        "Under § 1099.4(b), how long must a lessor keep signed lease files?",
        "Under section 1099.4(b) of 12 CFR 1099, how long must signed lease files be kept?",
    ):
        missing = RulesCritic(pages=corpus).sufficiency(question, [passage], as_of=AS_OF)
        assert not [f for f in missing.missing_facts if f.startswith("name: ")], question
    other = passage.model_copy(update={"label": "1099-9-c", "context": "1099-9-c\nFiles."})
    question = "Under § 1099.4(b), how long must a lessor keep signed lease files?"
    missing = RulesCritic(pages=corpus).sufficiency(question, [other], as_of=AS_OF)
    assert "name: § 1099.4(b)" in missing.missing_facts


def _passage(doc_id: str, label: str, text: str, n: int = 1) -> Passage:
    return Passage(
        passage_id=f"p{n}",
        doc_id=doc_id,
        version="1",
        page=n,
        char_start=0,
        char_end=len(text),
        text=text,
        label=label,
        title="Regulation",
        context=f"{label}\nRegulation",
    )


class TestCitationsAndSiblings:
    NOTICE = "A servicer must provide the written notice again within 45 days."

    def missing(self, question: str, *passages: Passage) -> list[str]:
        return RulesCritic().sufficiency(question, list(passages), as_of=AS_OF).missing_facts

    def test_a_citation_of_the_quoted_provision_or_document_names_it(self) -> None:
        right = _passage("12 CFR 1024", "1024-39-d-3-iii", self.NOTICE)
        other = _passage("12 CFR 1024", "1024-39-b-1", self.NOTICE)
        for cited in ("§ 1024.39(d)(3)(iii)", "1024.39(d)(3)", "12 CFR 1024.39"):
            question = f"Under {cited}, when must the written notice be provided again?"
            assert not [f for f in self.missing(question, right) if f.startswith("name: ")]
        question = "Under § 1024.39(d)(3)(iii), when must the written notice be provided again?"
        assert "name: § 1024.39(d)(3)(iii)" in self.missing(question, other)
        assert not [
            f
            for f in self.missing("When does 12 CFR part 1024 require the notice?", other)
            if f.startswith("name: ")
        ]
        assert "name: 12 CFR part 1013" in self.missing(
            "When does 12 CFR part 1013 require the notice?", other
        )

    def test_an_appendix_is_told_apart_by_its_letter(self) -> None:
        question = "How many forms does appendix B of 12 CFR part 1002 contain?"
        text = "This appendix contains four model forms."
        assert "name: appendix B" in self.missing(
            question, _passage("12 CFR 1002", "1002-C-1-p1", text)
        )
        assert "name: appendix B" not in self.missing(
            question, _passage("12 CFR 1002", "1002-B-1-p1", text)
        )

    def test_a_claim_answering_a_sibling_sentence_leaves_the_question_open(self) -> None:
        corpus = _one_document(
            "REG-B",
            [
                "Appendix C. This appendix contains ten sample notification forms.",
                "Appendix B. This appendix contains four model credit application forms.",
            ],
        )
        critic = _critic_for(corpus)
        question = "How many model credit application forms does the appendix contain?"
        wrong = "This appendix contains ten sample notification forms."
        right = "This appendix contains four model credit application forms."
        assert [f for f in _audit(critic, question, corpus, [wrong]) if f.startswith("distinct")]
        assert not [
            f for f in _audit(critic, question, corpus, [right]) if f.startswith("distinct")
        ]

    def test_symbols_and_inflections_state_their_words(self) -> None:
        from evidencegate.critique.rules import _body_terms, _focus_stated
        from evidencegate.text import terms

        assert "dollar" in _body_terms("The threshold amount is $53,000.")
        assert "dollar" not in _body_terms("The threshold amount is 53,000.")
        assert _focus_stated(terms("disabled"), terms("Disable accounts after 90 days."), set())
        assert not _focus_stated(terms("disabled"), terms("Lock accounts after 90 days."), set())

    def test_irregular_forms_state_their_words(self) -> None:
        from evidencegate.critique.rules import _based, _focus_stated
        from evidencegate.text import terms

        # "in writing" is stemmed "writ", "written" is not: one word all the same.
        said = terms("The Bank must send a written acknowledgement of a complaint.")
        assert _focus_stated(terms("confirm in writing complaint"), said, set())
        assert not _focus_stated(terms("confirm by phone complaint"), said, set())
        # "kept" is read as "keep" (and so as its synonyms, such as "retain").
        assert _based(terms("records are kept")) == ["record", "keep"]
        retained = terms("Due diligence records must be retained for 5 years.")
        assert _focus_stated(terms("how long are records kept"), retained, set())
        assert not _focus_stated(terms("how long are records shredded"), retained, set())

    def test_a_claim_stands_under_the_headings_its_passage_sets_above_it(self) -> None:
        from evidencegate.critique.rules import _headings_above

        text = (
            "# Complaints Policy\n\n## 3. Scope\n\n3.1 Applies to all.\n\n## 4. Deadlines\n\n"
            "4.1 The Bank must reply within 3 business days.\n\n### 4.2 Escalation\n\nLater."
        )
        assert _headings_above(text, "4.1 The Bank must reply") == (
            "Complaints Policy\n4. Deadlines"
        )
        assert _headings_above(text, "Later.") == "Complaints Policy\n4. Deadlines\n4.2 Escalation"
        assert _headings_above(text, "not in the passage") == ""

    def test_a_focus_word_only_unrelated_sentences_state_is_the_askers_own(self) -> None:
        from evidencegate.critique.rules import _focus_unrivalled, _placed

        question = "What is the lease threshold amount for a household lease in 2015?"
        answer = "From January 1, 2015 through December 31, 2015, the threshold amount is $54,600."
        unrelated = "A household member may co-sign the application."
        rival = "For a household lease in 2015, the threshold amount is $60,000."
        p = profile(question)
        for other, answered in ((unrelated, True), (rival, False)):
            evidence = [
                _passage("REG-M", "§ 1013.2", answer, 1),
                _passage("REG-M", "§ 1013.9", other, 2),
            ]
            claims = [_placed(evidence[0])]
            assert _focus_unrivalled(p, ["household"], claims, evidence) is answered
        # Claims that leave much of the rest of the question unsaid answer nothing by this.
        sparse = [_placed(_passage("REG-M", "§ 1013.2", "The amount is $54,600.", 1))]
        evidence = [_passage("REG-M", "§ 1013.9", unrelated, 2)]
        assert not _focus_unrivalled(p, ["household"], sparse, evidence)

    def test_what_a_question_asks_for(self) -> None:
        assert answer_type("Where must an ATM operator show the fee notice?") == "other"
        # A rate is a percentage: a dollar threshold does not answer "what rate ceiling".
        assert answer_type("What interest rate cap applies to the card?") == "percentage"
        assert answer_type("What rate ceiling does the rule impose on leases?") == "percentage"
        assert answer_type("How does the Bank rate a new customer?") != "percentage"
        assert not profile(
            "If a lease totals more than what amount, is it not covered?"
        ).negated_case
        assert not profile("What is the amount where the rule does not apply?").negated_case
        assert profile("If the index does not increase, what is the threshold?").negated_case
        assert proper_names("Someone offered me a present: must I log it?") == ()
        assert proper_names("I'm leasing a car for my family. Which rule applies?") == ()


def test_a_question_naming_nothing_needs_a_third_of_its_measure_stated() -> None:
    critic = RulesCritic()
    records = _passage(
        "POL-1",
        "6.1",
        "Records must be retained for 6 years and destroyed within 90 days after that.",
    )
    figure = "figure: a stated figure or date answering the question"
    asked = "How long is cctv footage from branch cameras retained?"
    assert figure in critic.sufficiency(asked, [records], as_of=AS_OF).missing_facts
    asked = "How long must records be retained?"
    assert figure not in critic.sufficiency(asked, [records], as_of=AS_OF).missing_facts


class TestTheClaimAnswersTheAsk:
    """A real quote of the right document answering a neighbouring question is refused, and
    the refusal names what it misses: the kind of time figure asked, or the event the asked
    time is counted from (a sibling sentence of the evidence binds the asked figure to it)."""

    KYC = (
        "Know Your Customer Policy of the Bank.",
        "5.1 The KYC information of a high-risk customer must be refreshed at least every 12 "
        "months.\n5.4 A KYC refresh of a high-risk customer must be completed within 30 calendar "
        "days of a trigger event.\n7.1 Compliance must review the KYC files of high-risk "
        "customers every month.",
    )
    ERRORS = (
        "Error resolution of the institution.",
        "The institution shall report the results of the investigation to the consumer within "
        "three business days after completing its investigation.\nThe institution shall inform "
        "the consumer within two business days after the provisional crediting of the amount "
        "of the provisional crediting.",
    )

    def kinds(self, question: str, quote: str) -> list[str]:
        corpus = _one_document("KYC-1", list(self.KYC))
        missing = _audit(_critic_for(corpus), question, corpus, [quote])
        return [f for f in missing if f.startswith("kind: ")]

    def test_how_often_is_answered_by_a_frequency_not_a_time_limit(self) -> None:
        question = "How often must the KYC information of a high-risk customer be refreshed?"
        limit = self.kinds(question, self.KYC[1].split("\n")[1])
        assert limit == ["kind: a frequency (how often), where the claims state a time limit"]
        assert not self.kinds(question, self.KYC[1].split("\n")[0])

    def test_how_long_is_not_answered_by_a_frequency_alone(self) -> None:
        question = "How long may a high-risk customer's KYC refresh take after a trigger event?"
        assert self.kinds(question, self.KYC[1].split("\n")[2]) == [
            "kind: a time limit or period (how long), where the claims state a frequency"
        ]
        assert not self.kinds(question, self.KYC[1].split("\n")[1])

    def test_a_time_counted_from_another_event_loses_to_the_sibling_counting_from_it(
        self,
    ) -> None:
        corpus = _one_document("REG-E", list(self.ERRORS))
        critic = _critic_for(corpus)
        question = (
            "How soon after the provisional crediting must the institution inform the consumer?"
        )
        report, inform = self.ERRORS[1].split("\n")
        assert "distinct: provisional credit" in _audit(critic, question, corpus, [report])
        assert not [
            f for f in _audit(critic, question, corpus, [inform]) if f.startswith("distinct")
        ]

    def test_a_claim_stating_the_time_the_sibling_binds_to_the_event_stands(self) -> None:
        from evidencegate.critique.rules import _anchor_rival, _placed

        question = "How long after notifying the applicant must the creditor retain records?"
        claim = "For 25 months (12 months for business credit) after the date that a creditor "
        claim += "receives an application, the creditor shall retain records."
        sibling = "For 25 months after the date that a creditor notifies an applicant of action "
        sibling += "taken, the creditor shall retain records."
        other = "The creditor shall retain records for 60 days after notifying the applicant."
        evidence = [_passage("REG-B", "b-3", claim, 1), _passage("REG-B", "b-1", sibling, 2)]
        answer = [_placed(evidence[0])]
        assert _anchor_rival(profile(question), answer, evidence) is None
        evidence[1] = _passage("REG-B", "b-5", other, 2)
        assert _anchor_rival(profile(question), answer, evidence) == "distinct: notify applicant"

    HOLDING = (
        "Personal Account Dealing Policy of the Bank.",
        "5.1 Employees must hold every investment for a minimum holding period of 30 calendar "
        "days.\n5.2 The Head of Compliance may waive the minimum holding period in writing.",
    )
    COMPLAINTS = (
        "Complaints Handling Policy of the Bank.",
        "4.1 The Bank must send the complainant a written acknowledgement of a complaint within "
        "3 business days of receiving it.\n4.2 The acknowledgement must name the employee "
        "responsible for handling the complaint and explain how to contact that employee.\n"
        "9.2 Complaint records include the original complaint, all correspondence and any "
        "redress paid.\n6.4 A redress payment above $5,000 must be approved by the Chief "
        "Operating Officer.",
    )

    def facts(self, pages: tuple[str, str], question: str, quote: str, prefix: str) -> list[str]:
        corpus = _one_document("POL-1", list(pages))
        missing = _audit(_critic_for(corpus), question, corpus, [quote])
        return [f for f in missing if f.startswith(prefix)]

    def test_the_base_rule_does_not_state_the_asked_act(self) -> None:
        question = "Who decides whether the minimum holding rule has to be waived?"
        rule, waiver = self.HOLDING[1].split("\n")
        assert self.facts(self.HOLDING, question, rule, "distinct") == ["distinct: waived"]
        assert not self.facts(self.HOLDING, question, waiver, "distinct")
        # Naming a period without asking how long asks no figure of the sentence stating the act.
        question = "Can the minimum holding period be waived, and who can do it?"
        assert self.facts(self.HOLDING, question, rule, "distinct") == ["distinct: waived"]

    def test_a_deadline_does_not_say_what_a_notice_must_say(self) -> None:
        question = "What must the written acknowledgement of a complaint tell the complainant?"
        timing, content = self.COMPLAINTS[1].split("\n")[:2]
        assert self.facts(self.COMPLAINTS, question, timing, "kind") == [
            "kind: what it must say, where the claims state only when it is due"
        ]
        assert not self.facts(self.COMPLAINTS, question, content, "kind")

    def test_who_is_answered_by_someone_who_acts(self) -> None:
        question = "who signs off complaint redress over $5,000?"
        records, approval = self.COMPLAINTS[1].split("\n")[2:]
        assert self.facts(self.COMPLAINTS, question, records, "kind") == [
            "kind: who (the claims name no one who acts)"
        ]
        assert not self.facts(self.COMPLAINTS, question, approval, "kind")

    def test_which_or_what_thing_is_answered_by_a_claim_stating_that_thing(self) -> None:
        from evidencegate.critique.rules import _head_missing, _placed

        def missing(question: str, text: str) -> str | None:
            claim = _placed(_passage("POL-1", "6.2", text))
            return _head_missing(profile(question), [claim])

        hold = "5.3 Employees must not destroy, alter or move a Record under a Legal Hold."
        fine = "5.4 An employee who destroys a Record under a Legal Hold pays a fine of $500."
        question = "What fine does an employee face for destroying a record under a legal hold?"
        assert missing(question, hold) == "kind: fine (the claims do not state what is asked)"
        assert missing(question, fine) is None
        shred = "6.2 Paper Records must be destroyed by an approved contractor."
        named = "6.2 Paper Records must be destroyed by the approved contractor Shredco Ltd."
        question = "Which approved contractor shreds the Bank's paper records?"
        assert missing(question, shred) == (
            "kind: approv contractor (the claims name none in particular)"
        )
        assert missing(question, named) is None
        # Words framing the ask ask for nothing of their own; "what is the ..." is no such ask.
        assert missing("What kind of lock does AC-11 require?", hold) is None
        assert missing("What is the fine for destroying a record?", hold) is None

    def test_a_case_the_question_sets_is_stated_by_the_claim(self) -> None:
        from evidencegate.critique.rules import _head_missing, _placed

        def missing(question: str, text: str) -> str | None:
            claim = _placed(_passage("POL-1", "6.1", text))
            return _head_missing(profile(question), [claim])

        funds = "6.1 Employees must establish the source of funds for any cash deposit of $10,000."
        question = "What is the largest cash deposit a customer may make without identification?"
        assert missing(question, funds) == (
            "kind: without identification (the claims state another case)"
        )
        gift = "4.1 Employees may accept a gift of up to $150 per year without prior approval."
        assert missing("What gift may staff accept without asking first?", gift) is None
        assert missing("How much may staff accept without prior approval?", gift) is None

    def test_a_time_question_is_not_answered_by_days_counted_otherwise_or_a_non_time(
        self,
    ) -> None:
        from evidencegate.critique.rules import _placed, _time_missing

        def missing(question: str, text: str) -> str | None:
            claim = _placed(_passage("POL-1", "7.3", text))
            return _time_missing(profile(question), [claim])

        question = "How many business days does the MLRO have to acknowledge a report?"
        decide = "The MLRO must decide within 7 calendar days of receiving a report."
        assert missing(question, decide) == (
            "kind: business days, where the claims count calendar days"
        )
        assert missing(question, "The MLRO must acknowledge it within 2 working days.") is None
        assert missing(question, "The MLRO must acknowledge it within 2 days.") is None
        question = "How long does the system use banner have to stay on screen?"
        banner = "Display [Assignment: organization-defined system use banner] to users."
        assert missing(question, banner) == (
            "kind: a time, where the claims leave only something else to the organization"
        )
        lock = "Lock the session after [Assignment: organization-defined time period]."
        assert missing(question, lock) is None

    def test_a_unit_the_question_names_is_counted_by_the_claim(self) -> None:
        from evidencegate.critique.rules import _placed, _unit_missing

        def missing(question: str, text: str) -> str | None:
            claim = _placed(_passage("NIST", "IR-6", text))
            return _unit_missing(profile(question), [claim])

        question = "How many hours do staff have to report a suspected incident?"
        parameter = (
            "Report suspected incidents within [Assignment: organization-defined time period]."
        )
        assert (
            missing(question, parameter) == "kind: a number of hours, where the claims state none"
        )
        assert missing(question, "Report suspected incidents within 72 hours.") is None
        assert missing(question, "Report them within twenty-four hours of discovery.") is None
        third = "Mail it not later than the third business day after the application."
        years = "The KYC information of a low-risk customer must be refreshed every 3 years."
        assert missing("For a low risk client how many months between KYC reviews?", years) is None
        minutes = "Minutes of the Board must be retained permanently."
        assert missing("How many years are board minutes kept?", minutes) is None
        assert missing("How many business days does the creditor have?", third) is None
        rated = "Store backup copies in a fire rated container that is not collocated."
        assert missing("What fire rating in hours must the container have?", rated) == (
            "kind: a number of hours, where the claims state none"
        )
        assert missing("What fire rating in hours must it have?", "a 2-hour rating") is None
        site = "Establish an alternate storage site that is separated from the primary site."
        assert missing("What minimum distance in miles must the site be away?", site) == (
            "kind: a number of miles, where the claims state none"
        )
        growth = "The extra week contributed 2 percentage points to net revenue growth."
        assert missing("What was net revenue growth in 2022 in percent?", growth) == (
            "kind: a percentage, where the claims state none"
        )
        assert missing("What was net revenue growth in 2022 in percent?", "grew 6%.") is None
        # A terse ask ending on its unit asks it too ("fire rating hours?", "mileage?"), not a
        # count it states ("within 30 minutes?") nor a year placing the figure in time.
        assert missing("CP-9(3) container fire rating hours?", rated) == (
            "kind: a number of hours, where the claims state none"
        )
        assert missing("alternate site: required mileage from primary?", site) == (
            "kind: a number of miles, where the claims state none"
        )
        assert missing("annual training hours?", "Staff complete 12 hours of training.") is None
        assert missing("Must we report within 30 minutes?", parameter) is None
        assert missing("Revenue in its most recently reported fiscal year?", site) is None
        # A question naming no unit, or a year ("in years 2021 and 2022"), asks for none.
        assert missing("How long must staff report an incident?", parameter) is None
        assert missing("What was revenue in years 2021 and 2022?", parameter) is None

    def test_a_claim_answering_for_a_case_the_question_does_not_set_leaves_it_open(
        self,
    ) -> None:
        from evidencegate.critique.rules import _case_unasked, _placed

        def missing(question: str, text: str) -> str | None:
            claim = _placed(_passage("Reg B", "9(a)(3)", text))
            return _case_unasked(profile(question), [claim])

        business = (
            "With regard to a business that had gross revenues in excess of $1 million, the "
            "creditor shall notify the applicant within a reasonable time."
        )
        question = "How many days does a rejected applicant have to file an appeal?"
        assert missing(question, business) == (
            "kind: the case the question asks about, where the claims answer for "
            "'a business that had gross revenues in excess of $1 million'"
        )
        # The question sets the case (one of its words), or the case is the rule's own reach:
        # another provision it cites, or a date the as-of date decides.
        assert missing("How fast must a creditor notify a business applicant?", business) is None
        cited = (
            "For applications subject to paragraph (a)(1) of this section, a creditor shall mail"
        )
        assert missing("When must the creditor send the appraisal?", cited) is None
        dated = "For accounts opened on or after July 1, 2010, the institution must comply."
        assert missing("What must a bank do before charging an overdraft fee?", dated) is None
        assert missing(question, "Where possible, the creditor shall tell the applicant.") is None
        plain = "The creditor shall notify the applicant within 30 days."
        assert missing(question, plain) is None


class TestTermOfArtAbsent:
    """A term of art the question names (a phrase of the lexicon) that no passage states: the
    evidence is of a rule without that provision, as before it came into force."""

    QUESTION = "What must the early intervention notice to a delinquent borrower contain?"
    NOTICE = (
        "A written notice to a delinquent borrower must contain the servicer's name and "
        "mailing address."
    )

    def test_evidence_without_the_term_answers_nothing(self) -> None:
        corpus = _one_document(
            "Reg X", [self.NOTICE, "A servicer must answer a qualified written request."]
        )
        missing = _audit(_critic_for(corpus), self.QUESTION, corpus, [self.NOTICE])
        assert any(f.startswith("topic: ") for f in missing), missing

    def test_evidence_stating_the_term_answers(self) -> None:
        heading = "Early intervention requirements. " + self.NOTICE
        corpus = _one_document(
            "Reg X", [heading, "A servicer must answer a qualified written request."]
        )
        missing = _audit(_critic_for(corpus), self.QUESTION, corpus, [heading])
        assert not any(f.startswith("topic: ") for f in missing), missing


class TestAnItemUnderItsParagraph:
    """A list item is read under its paragraph's opening sentence ("... exempt if the total
    contractual obligation exceeds the threshold amount" over "(iii) ..., the threshold amount
    is $51,800."): it says what the item's figure is a figure of."""

    PARENT = (
        "A consumer lease is exempt from this part if the total contractual obligation exceeds "
        "the threshold amount in effect at the time of consummation. The threshold amount in "
        "effect during a particular time period is the amount stated below for that period."
    )
    ITEM = "From January 1, 2012 through December 31, 2012, the threshold amount is $51,800."
    QUESTION = "Above what total lease obligation does a lease fall outside the rule in 2012?"

    def missing(self, *evidence: Passage) -> list[str]:
        item = next(p for p in evidence if p.text == self.ITEM)
        citation = Citation(
            doc_id=item.doc_id,
            version=item.version,
            page=item.page,
            quote=self.ITEM,
            evidence_id=item.passage_id,
        )
        claim = Claim(claim_id="c-1", text=self.ITEM, citations=[citation])
        check = ClaimVerification(
            claim_id="c-1", ok=True, citations=[CitationCheck(citation=citation, ok=True)]
        )
        as_of = dt.date(2012, 6, 15)
        critic = RulesCritic()
        required = critic.sufficiency(self.QUESTION, list(evidence), as_of=as_of).required_facts
        audit = critic.audit(
            self.QUESTION, [claim], [check], list(evidence), as_of=as_of, required_facts=required
        )
        return audit.missing_facts

    def test_the_parents_opening_says_what_the_figure_measures(self) -> None:
        item = _passage("12 CFR 1099", "1099-2-e-9-iii", self.ITEM, 2)
        parent = _passage("12 CFR 1099", "1099-2-e-9", self.PARENT, 1)
        assert self.missing(item, parent) == []
        # The same item read alone, or under another paragraph, states no such figure.
        other = _passage("12 CFR 1099", "1099-7-a", self.PARENT, 1)
        assert any(f.startswith("figure: ") for f in self.missing(item, other))
        assert any(f.startswith("figure: ") for f in self.missing(item))


class TestNamesOfTheQuotedParagraph:
    PAGE = (
        "The threshold is adjusted each year by the increase in the Consumer Price Index "
        "(CPI-W). Any increase in the threshold will be rounded to the nearest $100 increment."
    )
    QUOTE = "Any increase in the threshold will be rounded to the nearest $100 increment."

    def test_a_name_the_quoted_paragraph_of_rules_states_is_established(self) -> None:
        corpus = _one_document("GSB-9", ["Globex Savings Bank, policy GSB-9.", self.PAGE])
        question = "How do they round the yearly CPI adjustment of the threshold?"
        assert "name: CPI" not in _audit(_critic_for(corpus), question, corpus, [self.QUOTE])
        # Without a way to tell a paragraph of rules from a filing's page, it is not.
        assert "name: CPI" in _audit(RulesCritic(), question, corpus, [self.QUOTE])

    def test_a_preposition_opening_the_question_is_no_name(self) -> None:
        for question in (
            "Pursuant to 12 CFR 1024.17, what cushion may a servicer require?",
            "Notwithstanding the cap, what may be charged?",
        ):
            assert not {"Pursuant", "Notwithstanding"} & set(profile(question).names)


def _list_passage(n: int, label: str, text: str, completes: str | None = None) -> Passage:
    return Passage(
        passage_id=f"p{n}",
        doc_id="12 CFR 1099",
        version="1",
        page=n,
        char_start=0,
        char_end=len(text),
        text=text,
        label=label,
        completes=completes,
    )


class TestAListPartBesideTheRanking:
    """The retriever brings a list's other part beside the passages ranked for the question (a
    kept item's lead-in, a kept lead-in's item: Passage.completes). The focus the critic asks
    for is the ranking's share: that part, stating its partner's words again or none of the
    question's, does not change it."""

    QUESTION = "How many days delinquent must a mortgage be before a servicer starts foreclosure?"

    def _focus(self, passages: list[Passage]) -> list[str]:
        required = RulesCritic().sufficiency(self.QUESTION, passages, as_of=AS_OF).required_facts
        return [f for f in required if f.startswith("focus: ")]

    def test_a_lead_in_stating_its_items_word_does_not_count_it_again(self) -> None:
        # "delinquent" in 3 of 6 ranked passages tells them apart; the item's lead-in, brought
        # for it, states it too (4 of 7 would tell none apart).
        ranked = [
            _list_passage(1, "1099-41-f-1-i", "A mortgage loan is more than 120 days delinquent;"),
            _list_passage(2, "1099-39-a", "A servicer shall call a delinquent borrower."),
            _list_passage(3, "1099-39-b", "A servicer shall write to a delinquent borrower."),
            _list_passage(4, "1099-41-a", "A servicer shall follow these foreclosure rules."),
            _list_passage(5, "1099-41-b", "An application received before a foreclosure sale."),
            _list_passage(6, "1099-38-c", "A servicer shall retain records of actions taken."),
        ]
        alone = self._focus(ranked)
        assert any("delinquent" in f.split() for f in alone)
        lead = _list_passage(
            7,
            "1099-41-f-1",
            "A servicer shall not foreclose on a delinquent borrower's mortgage loan unless:",
            completes="p1",
        )
        assert self._focus([lead, *ranked]) == alone

    def test_list_parts_do_not_dilute_the_share_of_the_rest(self) -> None:
        # "servicer" in 5 of 8 ranked passages tells none apart; two items brought for the
        # lead-in, stating none of the question's words, must not make it a focus (5 of 10).
        ranked = [
            _list_passage(1, "1099-41-f-2", "A servicer shall not file for foreclosure if:"),
            *(
                _list_passage(2 + n, f"1099-3{n}-a", f"A servicer shall send it within {n} days.")
                for n in range(4)
            ),
            _list_passage(
                6, "1099-20-a", "A mortgage loan is delinquent when a payment is unpaid."
            ),
            _list_passage(7, "1099-20-b", "A borrower may ask for the mortgage loan payoff."),
            _list_passage(
                8, "1099-20-c", "A borrower may ask for the mortgage foreclosure status."
            ),
        ]
        alone = self._focus(ranked)
        parts = [
            _list_passage(9, "1099-41-f-2-i", "The loan is insured;", completes="p1"),
            _list_passage(10, "1099-41-f-2-ii", "Or it is sold;", completes="p1"),
        ]
        assert self._focus([ranked[0], *parts, *ranked[1:]]) == alone


class TestAFilerIsNamedByItsFiling:
    """A company the question names is established by the report quoted being its filing (the
    catalog's record: entity, aliases, ticker), not by a page of it naming the company."""

    PAGES = (
        "Annual report on Form 10-K for the fiscal year 2023.",
        "Cash dividends declared per common share were $1.20 in 2023, up from $1.10 in 2022.",
        "Net sales rose 4% in 2023. Operating income was $900 million.",
        "The board may change the dividend policy at any time.",
    )
    QUOTE = "Cash dividends declared per common share were $1.20 in 2023"

    def corpus(self, *, filer: bool) -> InMemoryCorpus:
        corpus = InMemoryCorpus()
        doc = corpus.add("GLOBEX_2023_10K", "1", dt.date(2024, 2, 1), list(self.PAGES))
        if filer:
            record = doc.model_copy(
                update={"entity": "Globex", "aliases": ["GLBX"], "period": "FY2023"}
            )
            corpus._docs[("GLOBEX_2023_10K", "1")] = (record, list(self.PAGES))
        return corpus

    def test_the_filer_named_is_no_missing_topic_word(self) -> None:
        question = "What dividend per share did Globex declare in 2023?"
        corpus = self.corpus(filer=True)
        assert _audit(_critic_for(corpus), question, corpus, [self.QUOTE]) == []
        # A document of no filer on record: its page does not name Globex, nor does the claim.
        bare = self.corpus(filer=False)
        missing = _audit(_critic_for(bare), question, bare, [self.QUOTE])
        assert "name: Globex" in missing
        assert [f for f in missing if f.startswith("topic: ")]

    def test_another_company_is_not_established(self) -> None:
        question = "What dividend per share did Initech declare in 2023?"
        corpus = self.corpus(filer=True)
        missing = _audit(_critic_for(corpus), question, corpus, [self.QUOTE])
        assert "name: Initech" in missing
        assert [f for f in missing if f.startswith("topic: ")]


class TestATableCellIsReadInItsTable:
    """A cell's claim ("Employees, 2022: 155,800") is read as the cell: its value of what its
    row names, under its table's title, not only as the words the claim puts around it."""

    PAGES = (
        "Annual report on Form 10-K for the fiscal year 2022. Globex makes widgets.",
        "Human Capital\nOur people are our strength. As of the fiscal year ends, the number of "
        "employees was approximately:\n2022 2021\nEmployees 155,800 144,300\n",
        "GLOBEX CORPORATION\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(Dollars in millions) Years "
        "ended December 31, 2022 2021\nNet earnings 2,100 1,900\nNet cash provided by operating "
        "activities 3,512 4,100\nNet cash used by investing activities (1,200) (900)\n",
        "Cash flow from operations funds our dividend. The board reviews the dividend each year.",
        "Our workforce and our sites grew in 2022 across all regions.",
    )

    def audit(self, question: str, text: str, quotes: list[str]) -> list[str]:
        corpus = InMemoryCorpus()
        corpus.add("GLOBEX_2022_10K", "1", dt.date(2023, 2, 1), list(self.PAGES))
        evidence = corpus.search(question, as_of=AS_OF, limit=8)
        citations = [_cite(evidence, quote) for quote in quotes]
        claim = Claim(claim_id="c-0", text=text, citations=citations)
        critic = _critic_for(corpus)
        check = Verifier.from_policy(corpus, Policy()).verify(claim, as_of=AS_OF)
        sufficiency = critic.sufficiency(question, evidence, as_of=AS_OF)
        audit = critic.audit(
            question,
            [claim],
            [check],
            evidence,
            as_of=AS_OF,
            required_facts=sufficiency.required_facts,
        )
        assert audit.claims[0].verdict is Verdict.SUPPORTED
        return audit.missing_facts

    def test_a_cell_counts_what_its_row_names(self) -> None:
        missing = self.audit(
            "How many employees did Globex have at the end of 2022?",
            "Employees, 2022: 155,800",
            ["Employees 155,800 144,300", "number of employees was approximately:\n2022 2021"],
        )
        assert missing == []

    def test_a_cell_stands_under_its_tables_title(self) -> None:
        missing = self.audit(
            # "statements of cash flows": the words of the table's title, not of its row.
            "How much operating cash flow did Globex report in its statements of cash flows "
            "for 2022?",
            "Net cash provided by operating activities, 2022: 3,512 (Dollars in millions)",
            [
                "Net cash provided by operating activities 3,512",
                "(Dollars in millions) Years ended December 31, 2022 2021",
            ],
        )
        assert missing == []

    def test_an_item_naming_only_the_whole_is_no_figure_of_its_own(self) -> None:
        # "..., total?" asks whose figure (the company's), not a second figure to give.
        question = "Globex net cash provided by operating activities 2022, total?"
        assert len(profile_question(question, as_of=AS_OF).items) == 2
        missing = self.audit(
            question,
            "Net cash provided by operating activities, 2022: 3,512 (Dollars in millions)",
            [
                "Net cash provided by operating activities 3,512",
                "(Dollars in millions) Years ended December 31, 2022 2021",
            ],
        )
        assert not [f for f in missing if f.startswith("figure: ")]

    def test_a_title_wrapped_over_lines_is_read_from_its_first_line(self) -> None:
        from evidencegate.critique.rules import _table_heading
        from evidencegate.generation.tables import table_cells

        page = (
            "Income taxes\nA comparison of income tax expense at the statutory rate to the "
            "Company's effective tax rate is as\nfollows:\n(Dollars in Millions) 2022 2021\n"
            "Statutory rate 21.0 % 21.0\nEffective Rate 17.4 % 8.3\n"
        )
        cell = next(c for c in table_cells(page) if c.label == "Effective Rate" and c.year == 2022)
        assert _table_heading(page, cell) == (
            "A comparison of income tax expense at the statutory rate to the Company's "
            "effective tax rate is as follows:"
        )

    def test_a_cell_is_in_its_columns_money_and_its_labels_unit(self) -> None:
        from evidencegate.critique.rules import _cell_of, _cell_value

        page = (
            "The following table summarizes our share-based compensation expense:\n"
            "2022 2021\nShare-based compensation expense - equity awards $ 343 $ 301\n"
            "Share-based compensation expense - liability awards 30 20\n"
            "Expected life (in years) 7.0 6.5\n"
        )
        found = _cell_of(
            page, "Share-based compensation expense - liability awards 30", "x, 2022: 30"
        )
        assert found is not None and _cell_value(found[0]) == "$30"
        found = _cell_of(page, "Expected life (in years) 7.0", "Expected life, 2022: 7.0")
        assert found is not None and _cell_value(found[0]) == "7.0 years"

    def test_another_columns_value_is_not_the_cell(self) -> None:
        # The claim states 2021's value as 2022's: no cell of the row has that value and year,
        # so the claim is not read as the row's count of employees.
        missing = self.audit(
            "How many employees did Globex have at the end of 2022?",
            "Employees, 2022: 144,300",
            ["Employees 155,800 144,300", "number of employees was approximately:\n2022 2021"],
        )
        assert missing


class TestAWrongAnswerNamesWhatItMisses:
    """A real quote answering a neighbouring question, with no rival in the evidence to give
    it away (the question may have no answer there): refused by what the ask itself demands,
    naming the fact the claims miss."""

    @staticmethod
    def claim(text: str) -> str:
        from evidencegate.critique.rules import _placed

        return _placed(_passage("POL-1", "1.1", text))

    def test_who_is_not_answered_by_the_institution_or_the_asked_parties(self) -> None:
        from evidencegate.critique.rules import _actor_unnamed

        question = "New customer is a politician. Who has to sign off before we open the account?"
        refusal = "8.1 Where the Bank cannot complete CDD for a new customer, it must not open it."
        approval = (
            "3.5 A relationship with a PEP must be approved by a member of senior management."
        )
        assert _actor_unnamed(profile(question), [self.claim(refusal)]) == (
            "kind: who (the claims name no one who acts but the institution and the asked parties)"
        )
        assert _actor_unnamed(profile(question), [self.claim(approval)]) is None
        review = "c. Review the proposed content prior to posting onto the public system."
        designate = "a. Designate individuals authorized to make information publicly accessible."
        question = "Who may post information onto the public website under AC-22?"
        # Read in a place naming a party ("Access control for the institution"), the quote
        # still names no one who posts.
        placed = self.claim(review) + " institution"
        assert _actor_unnamed(profile(question), [placed]) is not None
        assert _actor_unnamed(profile(question), [self.claim(designate)]) is None
        assert _actor_unnamed(profile("When must we open it?"), [self.claim(review)]) is None

    def test_a_figure_per_share_or_per_head_is_not_answered_by_a_total_or_the_reverse(
        self,
    ) -> None:
        from evidencegate.critique.rules import _rate_missing

        hours = "In 2022, PepsiCo employees completed over 1 million hours of training."
        question = "PepsiCo training hours per employee, 2022?"
        assert _rate_missing(profile(question), [self.claim(hours)], True) == (
            "figure: a figure per employee (the claims state a total)"
        )
        each = "Each employee completed 20 hours of training per employee on average."
        assert _rate_missing(profile(question), [self.claim(each)], True) is None
        total = "For total year 2016, net income attributable to 3M was $5.050 billion."
        eps = "Earnings per share attributable to 3M common shareholders - diluted $ 8.16"
        assert _rate_missing(profile("3M diluted EPS 2016?"), [self.claim(total)], True) == (
            "figure: a figure per share (the claims state a total)"
        )
        assert _rate_missing(profile("3M diluted EPS 2016?"), [self.claim(eps)], True) is None
        question = "What was 3M's net income in 2016?"
        assert _rate_missing(profile(question), [self.claim(eps)], True) == (
            "figure: a total (the claims state a figure per share)"
        )
        both = total.rstrip(".") + ", or $8.16 per diluted share."
        assert _rate_missing(profile(question), [self.claim(both)], True) is None
        # A table's note on its units states no figure per share; rules quoted are no report.
        noted = "Operating income: 791.7 in 2019 (dollars in millions, except per share amounts)"
        assert _rate_missing(profile("Amcor operating income 2019?"), [noted], True) is None
        assert _rate_missing(profile("3M diluted EPS 2016?"), [self.claim(total)], False) is None

    def test_a_retention_or_notice_period_is_not_answered_by_another_act_s_deadline(
        self,
    ) -> None:
        from evidencegate.critique.rules import _period_act_missing

        decide = "7.3 The MLRO must decide within 7 calendar days of receiving a report."
        kept = "4.7 Suspicious activity reports must be retained for 5 years."
        question = "For how long must suspicious activity reports be retained?"
        assert _period_act_missing(profile(question), [self.claim(decide)]) == (
            "kind: how long before or for keeping (the claims time another act)"
        )
        assert _period_act_missing(profile(question), [self.claim(kept)]) is None
        restrict = "5.5 If a refresh is 60 days late, the account must be restricted."
        warned = "5.6 The Bank must notify the customer 14 days before it restricts the account."
        question = "How many days' notice does the Bank give a customer before restricting it?"
        assert _period_act_missing(profile(question), [self.claim(restrict)]) == (
            "kind: how long before or for giving notice (the claims time another act)"
        )
        assert _period_act_missing(profile(question), [self.claim(warned)]) is None
        # A question timing another act is left to the other facts.
        question = "How many days does the MLRO have to decide on a report?"
        assert _period_act_missing(profile(question), [self.claim(decide)]) is None
        # A store is no keeping ("a store gift card"); storing the logs is.
        expire = "Funds underlying a gift card must not expire for at least five years."
        question = "What is the minimum period before funds on a store gift card may expire?"
        assert _period_act_missing(profile(question), [self.claim(expire)]) is None
        question = "How long must we store the access logs?"
        assert _period_act_missing(profile(question), [self.claim(decide)]) is not None

    def test_an_amount_is_answered_by_an_amount_of_money(self) -> None:
        from evidencegate.critique.rules import _amount_missing

        extended = "In 2022 we extended the 2019 Productivity Plan through the end of 2028."
        charged = (
            "Restructuring charges under the 2019 Productivity Plan were $411 million in 2022."
        )
        question = "PepsiCo 2022 restructuring charges under the 2019 Productivity Plan?"
        assert _amount_missing(profile(question), [self.claim(extended)]) == (
            "figure: an amount of money (the claims state none)"
        )
        assert _amount_missing(profile(question), [self.claim(charged)]) is None
        # A section's numbering is no amount; a question asking why is left to the others.
        due = "5.4 A KYC refresh must be completed within 30 calendar days."
        assert _amount_missing(
            profile("What's the fine for a late KYC refresh?"), [self.claim(due)]
        )
        assert (
            _amount_missing(profile("Why did restructuring charges rise?"), [self.claim(extended)])
            is None
        )

    def test_a_report_s_figure_of_another_year_or_a_region_is_no_answer(self) -> None:
        from evidencegate.critique.rules import _region_unasked, _year_unstated

        question = "By what percentage did total net sales change in 2016 compared with 2015?"
        old = "The effective tax rate for 2015 was 29.1 percent, compared to 28.9 percent in 2014."
        new = "In 2016, net sales decreased 0.5 percent compared with 2015."
        assert _year_unstated(profile(question), [self.claim(old)], True) == (
            "year: 2016 (the claims state 2014 instead)"
        )
        assert _year_unstated(profile(question), [self.claim(new)], True) is None
        assert _year_unstated(profile(question), [self.claim(old)], False) is None
        undated = "Net sales changed by (0.5) percent."
        assert _year_unstated(profile(question), [self.claim(undated)], True) is None
        question = "Globex 2022 sales growth %?"
        europe = "In 2022, sales by companies in Europe declined 0.6% compared to the prior year."
        world = "In 2022, worldwide sales increased 1.3% to $94.9 billion; Europe declined 0.6%."
        assert _region_unasked(profile(question), [self.claim(europe)], True) == (
            "distinct: the whole, where the claims give the figure of Europe"
        )
        assert _region_unasked(profile(question), [self.claim(world)], True) is None
        assert (
            _region_unasked(
                profile("Globex 2022 Europe sales growth %?"), [self.claim(europe)], True
            )
            is None
        )
        assert _region_unasked(profile(question), [self.claim(europe)], False) is None
        # A region the question abbreviates ("US") is a region it names; "us" is no region.
        shares = "In 2022, we represented approximately 20% of the U.S. beverage category."
        asked = "Globex percentage of US beverage retail sales, 2022?"
        assert _region_unasked(profile(asked), [self.claim(shares)], True) is None
        told = "How much did Globex tell us its 2022 sales grew, %?"
        assert _region_unasked(profile(told), [self.claim(shares)], True) is not None

    def test_a_retention_policy_named_is_no_retention_asked(self) -> None:
        from evidencegate.critique.rules import _period_act_missing

        test = "7.1 Internal Audit must test compliance with this policy at least every 2 years."
        for question in (
            "How often does Internal Audit have to test compliance with the retention policy?",
            "Within how many days must the record retention policy be reviewed after a change?",
        ):
            assert _period_act_missing(profile(question), [self.claim(test)]) is None

    def test_an_auditor_is_answered_by_a_firm_named(self) -> None:
        from evidencegate.critique.rules import _firm_unnamed

        matters = "Critical audit matters are matters communicated to the audit committee."
        signed = "/s/ PricewaterhouseCoopers LLP Florham Park, New Jersey February 16, 2023"
        for question in (
            "Who audits Johnson & Johnson's financial statements?",
            "PEP auditor?",
            "Which firm is the independent registered public accounting firm of PepsiCo?",
        ):
            assert _firm_unnamed(profile(question), [self.claim(matters)], True) == (
                "name: the auditing firm (the claims name none)"
            )
            assert _firm_unnamed(profile(question), [self.claim(signed)], True) is None
            assert _firm_unnamed(profile(question), [self.claim(matters)], False) is None
        # An asker speaking as an auditor asks for no auditor.
        question = "As an auditor I need 3M's capex as a percentage of net sales for 2018."
        assert _firm_unnamed(profile(question), [self.claim(matters)], True) is None
        question = "What did auditor judgment cover?"
        assert _firm_unnamed(profile(question), [self.claim(matters)], True) is None


class TestWhoAsksIsNoDetailOfAFigure:
    """A figure question's asking frame ("Customer asks:", "Kindly provide", "vs") is no word
    a table's row must state."""

    def test_a_short_tag_before_the_ask_says_who_asks(self) -> None:
        from evidencegate.critique.rules import _asker

        assert _asker("Customer asks: how much were Amcor net sales in 2023?") == frozenset(
            {"customer", "ask"}
        )
        # Not a sentence setting out a case, nor a tag followed by no ask.
        assert not _asker("A customer disputes a debit on her account: how long to respond?")
        assert not _asker("Net sales: 2023 and 2022")

    def test_vs_is_stated_by_a_comparison(self) -> None:
        from evidencegate.critique.rules import _focus_stated

        said = ["operat", "margin", "19.1", "2022", "compar", "20.8", "2021"]
        assert _focus_stated(["vs"], said, set())
        assert not _focus_stated(["vs"], ["operat", "margin", "19.1", "2022"], set())


def test_each_ask_is_answered_by_a_claim_of_its_own_as_far_as_they_go() -> None:
    from evidencegate.critique.rules import PART, _parts_answered

    # The segment's claim fits both asks; the total's only the first: both are answered.
    parts = [PART + "boe total revenue", PART + "came commercial airplane"]
    claims = [
        "Revenues, 2022: $66,608\nThe Boeing Company",
        "Revenues: Commercial Airplanes, 2022: $25,867\nThe Boeing Company",
    ]
    assert _parts_answered(parts, claims, None, 0.5) == set(parts)
    # One claim answers one ask only.
    assert len(_parts_answered(parts, claims[1:], None, 0.5)) == 1


def test_a_coordinated_clause_with_its_own_time_answers_a_part() -> None:
    from evidencegate.critique.rules import PART, _parts_answered

    parts = [PART + "live contact first", PART + "try later"]
    again = (
        "A servicer shall establish live contact with a delinquent borrower no later than the "
        "36th day of a borrower's delinquency and again no later than 36 days after each "
        "payment due date so long as the borrower remains delinquent."
    )
    assert _parts_answered(parts, [again], None, 0.5) == set(parts)
    # A clause without a time of its own is no statement of its own.
    bare = again.replace("no later than 36 days after each payment due date", "afterwards")
    assert len(_parts_answered(parts, [bare], None, 0.5)) == 1


def test_a_further_clause_answers_a_part_only_by_its_own_words() -> None:
    from evidencegate.critique.rules import PART, _parts_answered

    # The second clause repeats the notice: the servicer it shares with its opening clause is
    # no "live contact" stated.
    parts = [PART + "servicer live contact", PART + "written notice"]
    notice = (
        "A servicer shall provide to a delinquent borrower a written notice no later than the "
        "45th day of the borrower's delinquency and again no later than 45 days after each "
        "payment due date."
    )
    assert len(_parts_answered(parts, [notice], ["servicer", "written", "notice"], 0.5)) == 1
    # A single sentence with one time answers one of two noun-phrase parts.
    ack = [PART + "acknowledgment", PART + "response"]
    one = (
        "Within five days (excluding legal public holidays, Saturdays, and Sundays) of a "
        "servicer receiving a notice of error, the servicer shall provide a written response "
        "acknowledging receipt of the notice of error."
    )
    assert len(_parts_answered(ack, [one], None, 0.5)) == 1


def test_a_sentence_stating_a_share_beside_a_count_answers_both_parts() -> None:
    from evidencegate.critique.rules import PART, _parts_answered

    parts = [PART + "headcount", PART + "percent employee"]
    both = (
        "Approximately 50,000 employees, which constitute 32% of our total workforce, were "
        "union represented as of December 31, 2022."
    )
    # The percentage states the share asked, and the sentence has a figure for each part.
    assert _parts_answered(parts, [both], None, 0.5) == set(parts)
    # A count alone answers one part; two shares are one kind of figure, one part.
    assert (
        len(_parts_answered(parts, ["About 50,000 employees were union represented."], None, 0.5))
        == 1
    )
    shares = [PART + "percent union", PART + "percent employee"]
    assert len(_parts_answered(shares, ["32% of employees and 10% of unions."], None, 0.5)) == 1
