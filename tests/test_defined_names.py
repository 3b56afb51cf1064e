"""Names a question uses that the claims need not restate: abbreviations the document defines,
ordinary words capitalised by grammar, the asker's own people, a period-over-period manner."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import proper_names, wordnet_word
from evidencegate.corpus.abbreviations import Abbreviation, abbreviations_of, defined_abbreviations
from evidencegate.critique.rules import RulesCritic, _of_place
from evidencegate.testing import InMemoryCorpus
from tests.test_required_facts import _audit

AS_OF = dt.date(2024, 6, 1)
SEGMENTS = (
    "We operate in three reportable segments: • Commercial Airplanes (BCA); • Defense, Space & "
    "Security (BDS); • Northwind Tools North America (NTNA). Results are prepared under U.S. "
    "generally accepted accounting principles (GAAP)."
)


def test_a_definition_gives_the_long_form_its_initials_spell() -> None:
    found = {a.short: a for a in defined_abbreviations([SEGMENTS])}
    assert found["NTNA"] == Abbreviation("NTNA", "Northwind Tools North America")
    # The filer's initial opens the abbreviation of a segment the filing writes without it.
    assert found["BCA"] == Abbreviation("BCA", "Commercial Airplanes", "B")
    # Words joined by "&" that share their initial give it once.
    assert found["BDS"].long == "Defense, Space & Security"
    assert found["GAAP"].long == "generally accepted accounting principles"
    assert found["GAAP"].ordinary and not found["NTNA"].ordinary
    hyphen = defined_abbreviations(["1) Frito-Lay North America (FLNA), which includes"])
    assert [a.long for a in hyphen] == ["Frito-Lay North America"]
    # A prefix only where the long form starts; no long form ending in a joiner.
    assert [a.long for a in defined_abbreviations(["Research and Development (R&D)"])] == [
        "Research and Development"
    ]
    assert defined_abbreviations(["the amount of (XYZ) and the Other Thing (QQ)"]) == ()


def test_the_definitions_are_read_once_per_stored_version() -> None:
    corpus = InMemoryCorpus()
    corpus.add("NWT_2024_10K", "FY2024", dt.date(2024, 1, 1), ["Intro.", SEGMENTS])
    assert "NTNA" in {a.short for a in abbreviations_of(corpus, "NWT_2024_10K", "FY2024")}
    assert abbreviations_of(corpus, "NWT_2024_10K", "FY1999") == ()


def _corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(
        "NWT_2024_10K",
        "FY2024",
        dt.date(2024, 1, 1),
        [
            SEGMENTS,
            "Net revenue by division (in millions)\nNorthwind Tools North America $ 4,120\n"
            "Garden $ 1,310\n",
            "Operating profit by division (in millions)\nNTNA $ 812\nGarden $ 95\n",
        ],
        period="FY2024",
    )
    return corpus


def test_an_abbreviation_is_established_by_the_long_form_its_document_defines() -> None:
    corpus = _corpus()
    critic = RulesCritic(pages=corpus)
    missing = _audit(
        critic,
        "NTNA net revenue 2024?",
        corpus,
        ["Northwind Tools North America $ 4,120"],
    )
    assert "name: NTNA" not in missing
    # A long form the question writes is established by its abbreviation, too.
    assert "name: Northwind Tools North America" not in _audit(
        critic,
        "Northwind Tools North America operating profit 2024?",
        corpus,
        ["Operating profit by division (in millions)\nNTNA $ 812"],
    )
    # Not by another row: the claims must still state the long form.
    missing = _audit(critic, "NTNA net revenue 2024?", corpus, ["Garden $ 1,310"])
    assert "name: NTNA" in missing


def test_a_period_over_period_manner_is_no_name() -> None:
    assert proper_names("BDS revenue change YoY in 2022?") == ("BDS",)
    assert proper_names("Northwind YoY sales growth?") == ("Northwind",)
    assert "Toyota" in proper_names("Toyota sales growth?")


def test_wordnet_knows_ordinary_words_not_companies() -> None:
    assert wordnet_word("Consequence") and wordnet_word("Largest") and wordnet_word("Penalty")
    assert not wordnet_word("Walmart") and not wordnet_word("Kenvue") and not wordnet_word("Fed")


def _rules_corpus() -> InMemoryCorpus:
    corpus = InMemoryCorpus()
    corpus.add(
        "HSB-POL-015",
        "1",
        dt.date(2020, 1, 1),
        [
            "5.5 If a KYC refresh is not completed within 60 calendar days after its due date, "
            "the account must be restricted so that no new outgoing payments can be made."
        ],
    )
    return corpus


def test_an_ordinary_word_opening_the_question_or_a_run_is_no_name() -> None:
    corpus = _rules_corpus()
    critic = RulesCritic(pages=corpus)
    quote = (
        "5.5 If a KYC refresh is not completed within 60 calendar days after its due date, "
        "the account must be restricted so that no new outgoing payments can be made."
    )
    question = "Consequence of a KYC refresh not completed within 60 days of its due date?"
    missing = _audit(critic, question, corpus, [quote])
    assert not [f for f in missing if f.startswith("name: ")]
    # A company's name is still a name, where it opens the question or follows an ordinary word.
    for asked, name in (
        ("Walmart consequence of a KYC refresh not completed within 60 days?", "Walmart"),
        ("Largest Walmart penalty for a KYC refresh not completed within 60 days?", "Walmart"),
    ):
        assert f"name: {name}" in _audit(critic, asked, corpus, [quote])
    # An ordinary word that alone names the subject must still be established.
    assert "name: Nestle" in _audit(critic, "Nestle refresh within 60 days?", corpus, [quote])


def test_the_askers_own_people_are_no_subject() -> None:
    corpus = _rules_corpus()
    critic = RulesCritic(pages=corpus)
    quote = (
        "5.5 If a KYC refresh is not completed within 60 calendar days after its due date, "
        "the account must be restricted so that no new outgoing payments can be made."
    )
    for question in (
        "For our CFO pack: what happens if a KYC refresh is not completed within 60 days?",
        "HR asked me what happens if a KYC refresh is not completed within 60 days.",
    ):
        missing = _audit(critic, question, corpus, [quote])
        assert not [f for f in missing if f.startswith("name: ")], question
    # The asker's own, when it alone names the subject, is still a name.
    asked = "What must our CFO do when a refresh is not completed within 60 days?"
    assert "name: CFO" in _audit(critic, asked, corpus, [quote])


def test_an_adjective_of_a_place_is_named_by_the_place() -> None:
    assert _of_place("Canadian", ["beverage businesses in the United States and Canada"])
    assert _of_place("European", ["Europe 12,724 13,038"])
    assert not _of_place("Canadian", ["beverage businesses in the United States"])
    assert not _of_place("Boeing", ["Boe"]) and not _of_place("Indian", ["Indiana"])
