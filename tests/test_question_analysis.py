"""Question analysis: answer type, names, periods, synonyms, focus and document scope."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import (
    answer_type,
    asked_action,
    asked_term,
    defined_term,
    defines,
    has_figure,
    names_in,
    negates_case,
    normalise_question,
    profile_question,
    split_sentences,
    states_action,
)
from evidencegate.contracts import DocumentVersion
from evidencegate.corpus.scope import entity_names, label_citation, resolve_scope
from evidencegate.lexicon import (
    Lexicon,
    covered_share,
    focus_terms,
    match_units,
    matched_units,
    related_forms,
    stem_form,
    synonyms_of,
    text_keys,
    unit_matched,
)
from evidencegate.text import terms

AS_OF = dt.date(2023, 6, 1)


def doc(
    doc_id: str,
    *,
    entity: str | None = None,
    period: str | None = None,
    version_date: dt.date = dt.date(2020, 1, 1),
    aliases: tuple[str, ...] = (),
) -> DocumentVersion:
    return DocumentVersion(
        doc_id=doc_id,
        version=period or "v1",
        version_date=version_date,
        effective_from=version_date,
        authority="primary",
        sha256="0" * 64,
        entity=entity,
        aliases=list(aliases),
        period=period,
    )


class TestAnswerType:
    @pytest.mark.parametrize(
        ("question", "expected"),
        [
            ("How big can a consumer lease get before Regulation M stops covering it?", "amount"),
            ("3M capex FY18?", "amount"),
            ("What share of Boeing's 2022 revenues came from the U.S. government?", "percentage"),
            ("How often must KYC be refreshed for high-risk customers?", "duration"),
            ("What is the minimum holding period for a personal trade?", "duration"),
            ("When must accounts be disabled?", "date"),
            # A passive "be changed" asks when, not by how much a figure changed.
            ("When must the locks' combinations be changed?", "date"),
            ("How much did the dividend change from 2021 to 2022?", "comparison"),
            ("How many model forms does appendix B contain?", "count"),
            ("Northwind headcount at year-end 2024?", "count"),
            ("How big a part of Northwind's 2024 net sales came from Europe?", "percentage"),
            ("What part of the rule applies to leases?", "other"),
            ("What was the operating margin in 2022 compared with 2021?", "comparison"),
            ("May an employee accept cash from a supplier?", "yes_no"),
            ("What drove the increase in cost of products sold?", "reason"),
            ("Who must approve a redress payment above $5,000?", "entity"),
            ("Which legal actions does Boeing report?", "list"),
            ("What does control SR-2 require?", "definition"),
            ("How much time does the MLRO have to decide on an external report?", "duration"),
            ("complaint alleging fraud: how fast to escalate?", "duration"),
            ("gift valued at 130 USD from a vendor: who signs off?", "entity"),
            ("What is the high-risk limit?", "amount"),
            ("Can the minimum holding period be waived?", "yes_no"),
            ("Must I report a breach within how many days?", "duration"),
            # A window of time asks how long; a figure per unit asks an amount.
            ("payment dispute window for card holders?", "duration"),
            ("loss mit denial appeal window?", "duration"),
            ("results of the investigation - notify the customer within?", "duration"),
            ("Is the teller window open on Saturdays?", "yes_no"),
            ("What is the civil money penalty per day for a late filing?", "amount"),
        ],
    )
    def test_kind_of_answer(self, question: str, expected: str) -> None:
        """Each phrasing asks for the kind of answer a reader would give it."""
        assert answer_type(question) == expected


class TestProfile:
    def test_fiscal_year_and_reg_abbreviation_are_spelled_out(self) -> None:
        """'FY18' is fiscal year 2018 and 'reg m' is Regulation M."""
        assert normalise_question("reg m cap FY18?") == "Regulation M cap fiscal year 2018?"
        profile = profile_question("reg m lease cap FY18?", as_of=AS_OF)
        assert profile.years == ("2018",) and "Regulation M" in profile.names

    def test_thousands_written_short_are_spelled_out(self) -> None:
        """'over 5k' is over 5,000 and '$10K' is $10,000; a 10-K is a form."""
        assert normalise_question("redress over 5k?") == "redress over 5,000?"
        assert normalise_question("a $10K cash deposit") == "a $10,000 cash deposit"
        assert normalise_question("the 10-K for 2022") == "the 10-K for 2022"

    def test_names_are_proper_names_and_identifiers(self) -> None:
        """Names are the capitalised names and ids a question uses, never its first word."""
        profile = profile_question("When must accounts be disabled under AC-2(3)?", as_of=AS_OF)
        assert profile.names == ("AC-2(3)",)
        profile = profile_question("Within how many days must the Bank reply?", as_of=AS_OF)
        assert profile.names == ("Bank",)
        # The full stop after an initialism ends its sentence; an initialism's own stops stay.
        question = "Globex got a notice of error on an EFT. What is the deadline?"
        assert profile_question(question, as_of=AS_OF).names == ("Globex", "EFT")
        # An opening word the lexicon knows ("Bank", a financial institution) is no name.
        question = "Bank got a notice of error on an EFT. What is the deadline?"
        assert profile_question(question, as_of=AS_OF).names == ("EFT",)
        # ... and after a word; a weekday is no name, nor an interjection opening the question.
        question = "We supply parts to Globex. Did its backlog go up?"
        assert profile_question(question, as_of=AS_OF).names == ("Globex",)
        question = "I bought shares on Monday. By when do I tell Compliance?"
        assert profile_question(question, as_of=AS_OF).names == ("Compliance",)
        question = "Um, how many people did Globex employ in 2022?"
        assert profile_question(question, as_of=AS_OF).names == ("Globex",)
        # A label of ordinary words opening the question is no name; a company's name is one.
        question = "Audit check: how long are records kept?"
        assert profile_question(question, as_of=AS_OF).names == ()
        question = "Globex: total backlog 2022?"
        assert profile_question(question, as_of=AS_OF).names == ("Globex",)

    def test_before_a_date_targets_the_day_before(self) -> None:
        """'before July 21, 2011' asks about the period that ended the day before."""
        profile = profile_question("What was the threshold before July 21, 2011?", as_of=AS_OF)
        assert profile.target.start == profile.target.end == dt.date(2011, 7, 20)

    def test_no_year_asks_for_the_latest(self) -> None:
        """A question naming no period asks about the latest one; a named year does not."""
        assert profile_question("What was 3M's capex?", as_of=AS_OF).latest
        assert not profile_question("What was 3M's capex in 2018?", as_of=AS_OF).latest
        dated = profile_question("What were the assets at June 30, 2023?", as_of=AS_OF)
        assert dated.period_years == (2023,)

    def test_several_asks(self) -> None:
        """A question asking two things is multi-part; one with a list of words is not."""
        assert profile_question(
            "What was revenue, and how much came from X?", as_of=AS_OF
        ).multi_part
        single = "What were purchases of property, plant and equipment in 2018?"
        assert not profile_question(single, as_of=AS_OF).multi_part

    def test_alphanumeric_words_stay_whole(self) -> None:
        """3M, 10-K and FY18 are single words; a question's units are not its topic."""
        assert terms("3M 10-K FY18 in USD millions") == ["3m", "10-k", "fy18"]


class TestFigures:
    def test_amount_is_money(self) -> None:
        """An amount is money or a table figure, not a chapter number."""
        assert has_figure("the threshold amount is $51,800.", "quantity", "amount")
        assert not has_figure("exempt from Chapters 2, 4, and 5.", "quantity", "amount")

    def test_duration_needs_a_unit_and_section_numbers_do_not_count(self) -> None:
        """A duration is a number of days, months...; '3.3' numbering a clause is none."""
        assert has_figure("5.2 KYC must be refreshed every 12 months.", "quantity", "duration")
        assert not has_figure("3.3 A PEP must be rated high risk.", "quantity", "duration")

    def test_a_look_back_is_no_time_limit(self) -> None:
        """A 'when' is answered by a time limit ('three business days prior to consummation'),
        not by a period looked back over ('any of the preceding five calendar years')."""
        assert has_figure("three business days prior to consummation", "date", "date")
        assert not has_figure(
            "if it submitted HMDA data for any of the preceding five calendar years;",
            "date",
            "date",
        )

    def test_count_in_words(self) -> None:
        """'five model forms' states a count."""
        assert has_figure("Appendix B contains five model application forms.", "quantity", "count")

    def test_a_count_counts_the_synonyms_of_the_thing(self) -> None:
        """ "how many invites" is answered by "6 invitations", not by "6 months"."""
        profile = profile_question("how many invites from one client can I accept?", as_of=AS_OF)
        assert profile.states_figure("Employees must not accept more than 6 invitations a year.")
        assert not profile.states_figure("Employees must refresh the file every 6 months.")

    def test_personnel_are_counted_as_people(self) -> None:
        """ "how many employees" is answered by "employed approximately 315,000 people"; a
        count of branches is not."""
        profile = profile_question("How many employees did Acme have in 2022?", as_of=AS_OF)
        assert profile.states_figure("We employed approximately 315,000 people worldwide.")
        profile = profile_question("How many branches did Acme have in 2022?", as_of=AS_OF)
        assert not profile.states_figure("We employed approximately 315,000 people worldwide.")

    def test_enumerators_do_not_end_sentences(self) -> None:
        """'to: 1. Perform ...' keeps its list item with its lead-in."""
        text = "Configures malicious code protection mechanisms to: 1. Perform scans. Done now."
        assert split_sentences(text)[0].text.endswith("Perform scans.")

    def test_names_in_text(self) -> None:
        """Names match whole words, '&' as 'and', and 'AC-2 (3)' as 'AC-2(3)'."""
        assert names_in("AC-2(3)", "see AC-2 (3) here")
        assert names_in("Johnson & Johnson", "Johnson and Johnson Inc.")
        assert not names_in("3M", "23Million")


class TestAskedAction:
    @pytest.mark.parametrize(
        ("question", "action"),
        [
            ("Am I allowed to tell a customer that I reported them?", ("tell",)),
            ("Can I trade CFDs in my own account?", ("trade",)),
            ("do i need approval to accept a dinner from a client", ("accept",)),
            ("Is it ok to keep a present?", ("keep",)),
            ("How long must records be kept?", ()),
        ],
    )
    def test_the_action_asked_about(self, question: str, action: tuple[str, ...]) -> None:
        """The verb after "allowed to", "can I", "approval to" is what permission is asked
        for (a stop word such as "tell" too); a question asking no permission has none."""
        assert asked_action(question) == action

    def test_a_subject_of_one_or_two_words(self) -> None:
        """ "May an employee accept" and "can a new hire accept" both ask about accepting."""
        assert "accept" in asked_action("May an employee accept cash?")
        assert "accept" in asked_action("Can a new hire accept a gift?")

    def test_the_rule_states_the_action_under_its_modal(self) -> None:
        """ "must not tell" states the action "tell"; "must report it" does not."""
        assert states_action("7.2 Employees must not tell the customer.", ("tell",))
        assert not states_action("7.1 An employee must report it to the MLRO.", ("tell",))
        assert not states_action("Employees tell customers nothing.", ("tell",))


class TestAskedTerm:
    @pytest.mark.parametrize(
        ("question", "term"),
        [
            (
                "What does business day mean in the electronic fund transfer regulation?",
                "business day",
            ),
            (
                "From which age is a person counted as elderly for the equal credit rules?",
                "elderly",
            ),
            ("what is the definition of 'dwelling' under Reg C?", "dwelling"),
            ("How is an access device defined in Reg E?", "access device"),
            ("define business day reg e", "business day"),
            ("What counts as a consumer lease?", "consumer lease"),
            ("Who is considered a servicer under RESPA?", "servicer"),
            ("What is the threshold amount above which a lease is exempt?", None),
            ("How long must a lease last to be a consumer lease?", None),
            ("What is a remittance transfer under Reg E?", "remittance transfer"),
            ("What is the threshold amount?", None),
            ("access device definition reg e?", "access device"),
            ("What's an access device?", "access device"),
            ("How does Regulation B define elderly?", "elderly"),
            ("What does RESPA mean by servicer?", "servicer"),
            ("How is the threshold amount calculated?", None),
            ("What does the servicer have to do?", None),
            ("If a loan is treated as a refinancing, what must the lender disclose?", None),
            ("For a customer who is a politically exposed person, what category applies?", None),
        ],
    )
    def test_the_term_whose_meaning_is_asked(self, question: str, term: str | None) -> None:
        """ "What does X mean", "the definition of X", "counted as X", "who is considered X"
        ask what X means; a question asking a figure or a rule asks no term's meaning."""
        assert asked_term(question) == term

    def test_the_term_a_sentence_defines(self) -> None:
        """A definition opens with its term, quoted or not, then "means"; a sentence saying
        what the term also includes is no definition of it."""
        assert defined_term("Elderly means age 62 or older.") == "Elderly"
        assert defined_term("“Business day” means any day on which ...") == "Business day"
        assert defined_term("The term “dwelling” means a residential structure.") == "dwelling"
        assert defined_term("A servicer shall provide the notice within 5 days.") is None
        assert defined_term("The term “access device” includes debit cards.") is None
        assert defines("“Business day” means any day on which ...", "business days")
        assert not defines("“Business day” means any day on which ...", "day")
        assert not defines("Each business day, the servicer means to call.", "business day")


def test_a_negated_case_is_not_a_bound() -> None:
    """ "If you do NOT tell us", "if the consumer fails to notify" set out negated cases; "if
    the request is received no later than 30 minutes after" sets out a bound."""
    assert negates_case("If you do NOT tell us within 2 business days, you could lose $500.")
    assert negates_case("If the consumer fails to notify the institution, the liability is $500.")
    assert not negates_case(
        "A provider must comply if the request is received no later than 30 minutes after payment."
    )
    assert not negates_case("If you tell us within 2 business days, you can lose no more than $50.")


class TestLexicon:
    @pytest.fixture
    def lex(self) -> Lexicon:
        return Lexicon.from_groups(
            [
                ["gift", "present"],
                ["approval", "permission", "sign-off"],
                ["capital expenditure", "capex", "purchases of property plant and equipment"],
            ]
        )

    def test_synonyms_match(self, lex: Lexicon) -> None:
        """A question's word is matched by its synonym in the text."""
        question = terms("Can I keep a present without permission?")
        text = terms("Employees may accept a gift without prior approval.")
        assert covered_share(question, text, lex=lex) > covered_share(
            question, terms("Employees may accept cash."), lex=lex
        )

    def test_phrases_are_one_unit(self, lex: Lexicon) -> None:
        """'capex' matches 'purchases of property, plant and equipment' as one unit."""
        units = match_units(terms("3M capex 2018"), lex)
        assert any("capex" in u for u in units)
        row = terms("Purchases of property, plant and equipment (PP&E) (1,577)")
        assert covered_share(terms("capex"), row, lex=lex) == 1.0
        assert "purchases of property plant and equipment" in synonyms_of(terms("capex"), lex)

    def test_a_phrase_weighs_as_its_heaviest_word(self, lex: Lexicon) -> None:
        """A question phrase ("capital expenditure") is one unit, weighed as its heaviest word:
        a text stating it outweighs one stating only a lighter word of the question."""
        question = terms("capital expenditure by segment")
        weights = {"capital": 3.0, "expenditure": 2.0, "segment": 2.5}
        assert set(weights) <= set(question)
        stating = terms("Capital expenditure was 1,577.")
        other = terms("Each segment reports its sales.")
        assert covered_share(question, stating, weights, lex) > covered_share(
            question, other, weights, lex
        )

    def test_shares_are_the_unit_by_unit_shares(self, lex: Lexicon) -> None:
        """covered_share and matched_units give what testing each unit with unit_matched gives
        (members, synonyms and phrases, weighed or not), for many texts against one question."""
        question = terms("capital expenditure: may staff keep a present without sign-off?")
        weights = {"capital": 3.0, "expenditure": 2.0, "staff": 0.5, "present": 2.5}
        texts = [
            terms(t)
            for t in (
                "Capital expenditure was 1,577.",
                "Employees may keep a gift with prior permission.",
                "The expenditure of capital on staff.",
                "Purchases of property, plant and equipment; gifts need approval.",
                "Nothing related here.",
                "",
            )
        ]
        units = match_units(question, lex)
        for text in texts:
            keys = text_keys(text, lex)
            hit = [unit_matched(u, keys, text) for u in units]
            assert matched_units(question, text, lex) == {
                u for u, h in zip(units, hit, strict=True) if h
            }
            # a unit weighs as its heaviest plain term, a phrase as its heaviest word
            plain = [
                max(
                    (max(weights.get(w, 1.0) for w in t.split()) for t in u if t[0] != "~"),
                    default=1.0,
                )
                for u in units
            ]
            expected = sum(w for w, h in zip(plain, hit, strict=True) if h) / sum(plain)
            assert covered_share(question, text, weights, lex) == expected
            assert covered_share(question, text, lex=lex) == sum(hit) / len(units)

    def test_shipped_lexicon_loads(self) -> None:
        """The packaged synonym groups load and join 'present' with 'gift'."""
        assert covered_share(terms("present"), terms("gift")) == 1.0

    def test_shipped_derivations_join_a_word_and_its_forms(self) -> None:
        """The mined word families relate a verb to its action noun and an adjective to its
        quality noun, both ways, and irregular inflections to their word; never an agent
        noun ("accountant", "banker") to its word."""
        assert "retention" in related_forms(terms("retained")[0])
        assert "retain" in related_forms("retention")
        assert "responsibility" in related_forms("responsible")
        assert stem_form("deny") in related_forms(terms("denied")[0])
        assert "keep" in related_forms("kept")
        assert not related_forms("account") & {"accountant", "accounting"}
        assert "banker" not in related_forms("bank")
        assert related_forms("qwertyuiop") == frozenset()

    def test_a_hyphenated_compound_states_its_words(self) -> None:
        """ "medium-risk customer" answers "medium risk customer"; an asking word ("long" of
        "long-term" for "how long") is not split off."""
        question = terms("medium risk customer")
        assert covered_share(question, terms("a medium-risk customer")) == 1.0
        assert covered_share(terms("how long"), terms("long-term debt")) == 0.0

    def test_focus_terms_tell_passages_apart(self) -> None:
        """Terms every passage states are not the focus; those few state are."""
        texts = [terms(t) for t in ("threshold amount rounded", "threshold amount", "threshold")]
        assert focus_terms(terms("How is the threshold amount rounded?"), texts) == ["round"]


class TestScope:
    def test_named_entity_limits_the_documents(self) -> None:
        """A question naming Boeing reads Boeing's filings, never Amcor's."""
        catalog = [
            doc("BOEING_2022_10K", entity="Boeing", period="FY2022"),
            doc("AMCOR_2023_10K", entity="Amcor", period="FY2023"),
        ]
        profile = profile_question("What were Boeing's 2022 revenues?", as_of=AS_OF)
        assert resolve_scope(profile, catalog).doc_ids == ("BOEING_2022_10K",)

    def test_latest_filing_when_no_year(self) -> None:
        """With no year named, the latest filing in force is the one read."""
        catalog = [
            doc("3M_2017_10K", entity="3M", period="FY2017", version_date=dt.date(2018, 2, 8)),
            doc("3M_2018_10K", entity="3M", period="FY2018", version_date=dt.date(2019, 2, 7)),
        ]
        profile = profile_question("What was 3M's capex in its latest year?", as_of=AS_OF)
        assert resolve_scope(profile, catalog).doc_ids == ("3M_2018_10K",)
        profile = profile_question("What was 3M's capex in 2017?", as_of=AS_OF)
        assert resolve_scope(profile, catalog).doc_ids == ("3M_2017_10K",)

    def test_no_filing_reports_a_later_year(self) -> None:
        """A year after every filing in force is reported by none: nothing is read."""
        catalog = [doc("3M_2018_10K", entity="3M", period="FY2018")]
        profile = profile_question("What was 3M's capex in 2019?", as_of=AS_OF)
        assert resolve_scope(profile, catalog).doc_ids == ()

    def test_regulation_names(self) -> None:
        """'Regulation M (Consumer Leasing)' is also 'Regulation M', 'Consumer Leasing', 'Reg M'."""
        regulation = doc("12 CFR 1013", entity="Regulation M (Consumer Leasing)")
        assert {"Regulation M", "Consumer Leasing", "Reg M"} <= set(entity_names(regulation))
        profile = profile_question("reg m lease cap 2012?", as_of=AS_OF)
        other = doc("12 CFR 1005", entity="Regulation E (Electronic Fund Transfers)")
        assert resolve_scope(profile, [regulation, other]).doc_ids == ("12 CFR 1013",)

    def test_acronym_and_cfr_part_names(self) -> None:
        """A regulation is also named by its statute's acronym and by its CFR part, and a
        question citing one of the part's sections is about that part."""
        regulation = doc(
            "12 CFR 1024", entity="Regulation X (Real Estate Settlement Procedures Act)"
        )
        names = set(entity_names(regulation))
        assert {"RESPA", "12 CFR part 1024", "12 CFR 1024", "part 1024"} <= names
        # A regulation titled by its Act's subject is also named by the Act.
        hmda = doc("12 CFR 1003", entity="Regulation C (Home Mortgage Disclosure)")
        assert {"Home Mortgage Disclosure Act", "HMDA"} <= set(entity_names(hmda))
        assert "ECOAA" not in entity_names(
            doc("12 CFR 1002", entity="Regulation B (Equal Credit Opportunity Act)")
        )
        lease = doc("12 CFR 1013", entity="Regulation M (Consumer Leasing)")
        assert "CL" not in entity_names(lease)  # two letters: too often another word
        assert "TBC" not in entity_names(doc("B", entity="Boeing", aliases=("The Boeing Company",)))
        catalog = [regulation, lease]
        for question, expected in [
            ("What escrow cushion does RESPA allow?", ("12 CFR 1024",)),
            ("Under 12 CFR part 1013, what is the lease threshold?", ("12 CFR 1013",)),
            ("When is the notice of § 1024.39(b) due?", ("12 CFR 1024",)),
            ("Is the figure $1013.50 a lease payment?", None),
        ]:
            profile = profile_question(question, as_of=AS_OF)
            assert resolve_scope(profile, catalog).doc_ids == expected, question

    def test_a_regulation_the_corpus_lacks_reads_nothing(self) -> None:
        """A question naming a regulation, CFR part or section in the form of the catalog's
        own names, but none of its documents, is scoped to nothing (not to every document)."""
        catalog = [
            doc("12 CFR 1024", entity="Regulation X (Real Estate Settlement Procedures Act)"),
            doc("12 CFR 1013", entity="Regulation M (Consumer Leasing)"),
        ]
        for question in (
            "Under Regulation Z, how long may a consumer rescind?",
            "What does 12 CFR 1026.19(e) require?",
            "Per § 1026.18, which disclosures are required?",
        ):
            profile = profile_question(question, as_of=AS_OF)
            assert resolve_scope(profile, catalog).doc_ids == (), question
        for question in ("Is a lease of 1026.50 per month covered?", "What is a consumer lease?"):
            profile = profile_question(question, as_of=AS_OF)
            assert resolve_scope(profile, catalog).doc_ids is None, question
        # A catalog of companies: "Regulation S-K" or "Regulation Z" is not its kind of name.
        filings = [doc("3M_2018_10K", entity="3M", period="FY2018")]
        profile = profile_question("Under Regulation Z, what did 3M disclose?", as_of=AS_OF)
        assert resolve_scope(profile, filings).doc_ids == ("3M_2018_10K",)

    def test_label_citation(self) -> None:
        """A CFR paragraph label cites its section; an interpretation's label the section it
        interprets; other labels cite nothing."""
        assert label_citation("1002-5-a-4") == "§ 1002.5(a)(4)"
        assert label_citation("1024-33-a-Interp-1") == "§ 1024.33(a)"
        assert label_citation("1002-9-a-3-i-B") == "§ 1002.9(a)(3)(i)(B)"
        assert label_citation("1002-B-1-p1") is None
        assert label_citation("AC-2") is None
        assert label_citation(None) is None

    def test_unnamed_entity_is_not_scoped(self) -> None:
        """A question naming no entity of the catalog reads the whole corpus."""
        catalog = [doc("3M_2018_10K", entity="3M", period="FY2018")]
        profile = profile_question("What is a consumer lease?", as_of=AS_OF)
        assert resolve_scope(profile, catalog).doc_ids is None


class TestWhatTheAnswerMustState:
    """The figure an answer states is the one asked for: new, in the asked unit, counting the
    asked thing, about the asked case, and not an example unless an example is asked about."""

    def test_day_first_and_abbreviated_dates_bound_the_period(self) -> None:
        profile = profile_question(
            "Before 21 July 2011, above what total was a lease exempt?", as_of=AS_OF
        )
        assert profile.target.end == dt.date(2011, 7, 20)
        assert profile.numbers == ()  # the day of the date is not a figure to find
        assert profile.answer_type == "amount"
        assert profile_question("as of Jul. 21, 2011?", as_of=AS_OF).target.start == dt.date(
            2011, 7, 21
        )

    def test_figures_the_question_gives_are_not_the_answer(self) -> None:
        profile = profile_question(
            "A $100 transfer with a $10 fee and a $15 correspondent fee fails: refund amount?",
            as_of=AS_OF,
        )
        assert profile.hypothetical
        assert not profile.states_figure("The sender pays US$100 and a fee of US$10 and US$15.")
        assert profile.states_figure("The provider must refund US$85 to the sender.")

    def test_a_date_opening_a_question_about_the_rules_says_which_rules(self) -> None:
        ask = "In January 2023, how often did the team have to review the audit logs?"
        assert profile_question(ask, as_of=AS_OF).as_of_years == ("2023",)
        assert profile_question("Back in 2016, what did Reg B require?", as_of=AS_OF).as_of_years
        # A figure of that year is what a question about a company's year asks for.
        assert profile_question("In 2019, what was Acme's revenue?", as_of=AS_OF).as_of_years == ()

    def test_a_paragraph_cited_is_no_date(self) -> None:
        """ "the applicable date pursuant to paragraph (b)(2)(ii)" names where the date is set,
        and states none; a year naming the rules in force selects them, it asks for nothing."""
        profile = profile_question(
            "Under the commentary in force in 2018, which date must the notice give?", as_of=AS_OF
        )
        assert profile.years == ("2018",) and profile.as_of_years == ("2018",)
        assert not profile.states_figure(
            "the notice shall state the applicable date pursuant to paragraph (b)(2)(ii)."
        )
        assert profile.states_figure("a date 30 days after the notice, under paragraph (b)(2).")
        # Nor does an official interpretation's comment it refers to.
        assert not profile.states_figure(
            "the requirement to exercise diligence (see comment 41(b)(1)-4.iii) applies."
        )
        # A day counted in words is the date a "by which day" question asks for.
        assert profile.states_figure(
            "not later than the third business day after the creditor receives an application"
        )

    def test_when_is_answered_by_a_time_limit_in_words(self) -> None:
        """ "When must ..." about a rule is answered by the time limit it states, in words too;
        "how far ahead" asks for one."""
        profile = profile_question("When must a creditor give the applicant a copy?", as_of=AS_OF)
        assert profile.states_figure("a copy promptly, or three business days before closing")
        assert not profile.states_figure("a copy of each appraisal developed for the loan")
        ahead = profile_question("How far ahead of charging must the notice be sent?", as_of=AS_OF)
        assert ahead.answer_type == "duration"
        assert profile_question("How far is the branch?", as_of=AS_OF).answer_type != "duration"
        minimum = profile_question("What is the minimum time before funds expire?", as_of=AS_OF)
        assert minimum.answer_type == "duration"
        assert profile_question("What is the minimum amount?", as_of=AS_OF).answer_type == "amount"

    def test_what_multiple_asks_for_a_count(self) -> None:
        """ "by more than what multiple of the monthly payment": a count ("three times"), not
        an amount of money, though the question speaks of a value."""
        profile = profile_question(
            "The residual value exceeds the realized value by more than what multiple of the "
            "monthly payment?",
            as_of=AS_OF,
        )
        assert profile.answer_type == "count"
        assert profile.states_figure("by more than three times the base monthly payment")

    def test_duration_in_the_asked_unit(self) -> None:
        profile = profile_question("Within how many minutes may a sender cancel?", as_of=AS_OF)
        assert profile.time_unit == "minute"
        assert profile.states_figure("no later than 30 minutes after the sender makes payment")
        assert not profile.states_figure("within three business days of the request")

    def test_count_of_the_asked_thing(self) -> None:
        profile = profile_question(
            "how many sample credit app forms in Reg B appendix B?", as_of=AS_OF
        )
        assert profile.counted == "form"
        assert profile.states_figure("Appendix B contains five model credit application forms.")
        assert not profile.states_figure("a creditor may use one of the sample forms")

    @pytest.mark.parametrize(
        ("question", "negated"),
        [
            ("what happens to the threshold if cpi-w doesn't go up?", True),
            ("Should the CPI-W not rise by June 1, does the limit change?", True),
            ("What is the maximum gift without prior approval?", False),
        ],
    )
    def test_negated_case(self, question: str, negated: bool) -> None:
        profile = profile_question(question, as_of=AS_OF)
        assert profile.negated_case is negated
        assert profile.numbers == ()  # "June 1" is a day

    def test_requirement_questions_and_requirement_sentences(self) -> None:
        from evidencegate.analysis import is_normative

        assert profile_question("What does control SR-2 require?", as_of=AS_OF).normative
        assert not profile_question(
            "How much can I accept before I have to ask?", as_of=AS_OF
        ).normative
        assert is_normative("a. Develop a plan for managing supply chain risks;")
        assert is_normative("(c) The creditor shall mail a copy of the appraisal.")
        assert not is_normative("Managing supply chain risk requires a coordinated effort.")
        assert not is_normative("Organizations may be subject to laws and directives.")

    def test_frame_words_are_not_topic(self) -> None:
        profile = profile_question("In which situations must accounts be disabled?", as_of=AS_OF)
        assert "situation" not in profile.terms

    def test_measure_leaves_out_names_and_periods(self) -> None:
        profile = profile_question("3M latest annual capex?", as_of=AS_OF)
        assert profile.measure == ("capex",)

    def test_yes_no_question_with_a_change_verb(self) -> None:
        assert (
            answer_type("Does an exempt lease lose its exemption when the threshold increases?")
            == "yes_no"
        )
        assert answer_type("Did 3M's revenue grow in 2022?") == "comparison"
