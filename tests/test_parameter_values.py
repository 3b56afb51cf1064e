"""Controls that leave a value to the organization, and lists of requirements: a parameter
("[Assignment: organization-defined time period]") answers "how long", never "how many
minutes"; its template words are no topic of the sentence; a question on one detail of a
control is answered by the item stating it, not by the whole list."""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path
from typing import Any

from conftest import EXAMPLE_CORPUS, catalog_control

from evidencegate.analysis import REQUIRING_WORDS, profile_question
from evidencegate.contracts import Passage
from evidencegate.corpus import Store
from evidencegate.corpus.retrieval import FeedbackRetriever
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.text import terms

AS_OF = dt.date(2022, 6, 1)

DISCONNECT = (
    "Terminate the network connection after [Assignment: organization-defined time period] of "
    "inactivity."
)
LOGON = (
    "Enforce a limit of [Assignment: organization-defined number] consecutive invalid logon "
    "attempts."
)


def _states(question: str, text: str) -> bool:
    return profile_question(question, as_of=AS_OF).states_figure(text)


class TestParameterAsValue:
    def test_a_parameter_answers_how_long(self) -> None:
        """ "Within what time", "how long", "how often": the catalog's answer is that the
        organization sets it."""
        assert _states("Within what time must the network connection be terminated?", DISCONNECT)
        assert _states("How long may a connection stay idle before it is terminated?", DISCONNECT)

    def test_a_parameter_is_no_count_of_a_unit(self) -> None:
        """ "How many minutes" asks for the value, which the catalog leaves to the
        organization: the parameter states none."""
        assert not _states("How many minutes of inactivity before the connection ends?", DISCONNECT)
        assert _states(
            "How many minutes of inactivity before the connection ends?",
            "after 15 minutes of inactivity",
        )

    def test_a_unit_asked_at_the_end(self) -> None:
        """ "inactivity timeout in minutes?": a duration counted in minutes."""
        profile = profile_question(
            "network disconnect - inactivity timeout in minutes?", as_of=AS_OF
        )
        assert profile.answer_type == "duration"
        assert profile.time_unit == "minute"
        assert not profile.states_figure(DISCONNECT)

    def test_a_parameter_is_no_count_of_things(self) -> None:
        assert not _states("How many consecutive invalid logon attempts does XA-7 allow?", LOGON)

    def test_a_quantity_in_its_unit(self) -> None:
        """ "What temperature in degrees": a number of degrees, which the organization-defined
        level is not."""
        degrees = profile_question(
            "What temperature in degrees must the room be kept at?", as_of=AS_OF
        )
        assert degrees.wants_figure == "quantity"
        assert not degrees.states_figure(
            "Maintain temperature levels at [Assignment: organization-defined acceptable levels]."
        )
        assert degrees.states_figure("Maintain the temperature between 18 and 27 degrees.")

    def test_a_parameter_is_no_amount(self) -> None:
        """ "max concurrent sessions": a value, which the organization-defined number is not."""
        assert not _states(
            "max concurrent sessions per user account?",
            "Limit the number of concurrent sessions to [Assignment: organization-defined number].",
        )


IDENTIFIERS = catalog_control(
    "xa4",
    "XA-4",
    "Identifier Management",
    "Manage system identifiers by:\n  a. Receiving authorization from [Assignment: "
    "organization-defined personnel or roles] to assign an individual, group, role, or device "
    "identifier;\n  b. Selecting an identifier that identifies an individual, group, role, or "
    "device;\n  c. Assigning the identifier to the intended individual, group, role, or "
    "device; and\n  d. Preventing reuse of identifiers for [Assignment: organization-defined "
    "time period].",
)
SOFTWARE = catalog_control(
    "xm14",
    "XM-14",
    "Signed Components",
    "Prevent the installation of [Assignment: organization-defined software and firmware "
    "components] without verification that the component has been digitally signed.",
)
PROCESSING = catalog_control(
    "xp2",
    "XP-2",
    "Authority to Process Personal Data",
    "a. Determine and document the [Assignment: organization-defined authority] that permits "
    "the [Assignment: organization-defined processing] of personal data; and\n  b. Restrict "
    "the [Assignment: organization-defined processing] of personal data to only that which is "
    "authorized.",
)


def _drafted(question: str, passages: list[Passage]) -> list[str]:
    draft = ExtractiveGenerator().draft(question, passages, as_of=AS_OF)
    return [c.text for c in draft.claims]


class TestParameterFrame:
    def test_the_template_is_no_topic(self) -> None:
        """ "the assignment of identifiers" is asked of XA-4's "assign ... identifier": a
        control whose only shared word is its parameter's "[Assignment:" does not state it."""
        question = "Who has to approve the assignment of identifiers?"
        profile = profile_question(question, as_of=AS_OF)
        ranked = ExtractiveGenerator()._ranked(question, profile, [SOFTWARE, PROCESSING], ())
        assert isinstance(ranked, list) and ranked
        for _, candidate, matched in ranked:
            assert not any("assign" in unit for units in matched for unit in units), candidate.text


class TestItemOrList:
    def test_a_detail_is_answered_by_its_item(self) -> None:
        """ "reuse" is stated by item d. alone: the item answers, not the list holding it among
        three other requirements."""
        drafted = _drafted(
            "what must happen with identifiers regarding reuse per XA-4?",
            [IDENTIFIERS, SOFTWARE, PROCESSING],
        )
        assert len(drafted) == 1
        assert "Preventing reuse" in drafted[0]
        assert "Selecting an identifier" not in drafted[0]

    def test_the_rule_described_by_its_title_is_read_whole(self) -> None:
        """A word of the control's title ("authority") describes the whole rule: the list is
        the answer, not the item that happens to repeat it."""
        drafted = " ".join(
            _drafted(
                "What do we need to do to comply with XP-2, the control on authority for "
                "processing personal data?",
                [PROCESSING, IDENTIFIERS, SOFTWARE],
            )
        )
        assert "Determine and document" in drafted
        assert "only that which is authorized" in drafted


class TestRequiringWordsNotExpanded:
    def test_requirement_brings_no_rules(self, tmp_path: Path) -> None:
        """ "process isolation requirement?": "requirement" is how the question asks, so its
        synonyms ("rule", "regulation", "control") are not added to the query."""
        corpus = tmp_path / "corpus"
        corpus.mkdir()
        (corpus / "CAT_1.md").write_text(
            '---\ndoc_id: CAT\nversion: "1"\nversion_date: 2020-01-01\nauthority: primary\n'
            "title: Catalog\n---\n# Catalog\n\n## Process Isolation\n\nMaintain a separate "
            "execution domain for each executing system process.\n\n## Rules of Behavior\n\n"
            "Establish the rules of behavior and receive acknowledgment of the rules.\n"
        )
        assert set(terms("requirement")) <= REQUIRING_WORDS
        with Store.open(tmp_path / "s") as store:
            store.messages = io.StringIO()
            store.ingest([corpus / "CAT_1.md"])
            queries: list[str] = []
            search = store.search

            def recorded(query: str, **kwargs: Any) -> list[Passage]:
                queries.append(query)
                return search(query, **kwargs)

            store.search = recorded  # type: ignore[method-assign]
            found = FeedbackRetriever(store).search("process isolation requirement?", as_of=AS_OF)
            assert found and queries
            assert not any(set(terms(q)) & set(terms("rule rules regulation")) for q in queries)
            assert "execution domain" in found[0].text


class TestWhichRule:
    def test_requires_frames_a_question_asking_which_rule(self) -> None:
        """ "which enhancement requires logging ...": "requires" says what kind of sentence is
        asked, as when the question names its rule; a statement opening "Require that ..."
        states another requirement."""
        nonprivileged = catalog_control(
            "xc62",
            "XC-6(2)",
            "Least Privilege\nNon-privileged Access for Nonsecurity Functions",
            "Require that users of system accounts with access to privileged functions use "
            "non-privileged accounts when accessing nonsecurity functions.",
        )
        logged = catalog_control(
            "xc69",
            "XC-6(9)",
            "Least Privilege\nLog Use of Privileged Functions",
            "Log the execution of privileged functions.",
        )
        drafted = _drafted(
            "which enhancement requires logging the execution of privileged functions?",
            [nonprivileged, logged, SOFTWARE],
        )
        assert drafted
        assert drafted[0] == "Log the execution of privileged functions."


class TestWhatTheThingSays:
    def test_content_is_stated_by_the_thing_as_subject(self, tmp_path: Path) -> None:
        """ "what must the acknowledgement of a complaint tell the customer": the sentence
        whose subject is the acknowledgement ("The acknowledgement must name ..."), not the
        one on what the Bank does with it ("The Bank must send ... a written
        acknowledgement ..."), in the example corpus."""
        question = "what must the acknowledgement of a complaint tell the customer?"
        with Store.open(tmp_path / "s") as store:
            store.messages = io.StringIO()
            store.ingest(sorted((EXAMPLE_CORPUS / "corpus").glob("*.md")))
            as_of = dt.date(2024, 6, 1)
            found = FeedbackRetriever(store).search(question, as_of=as_of)
            draft = ExtractiveGenerator().draft(question, found, as_of=as_of)
        drafted = [c.text for c in draft.claims]
        assert drafted
        assert "The acknowledgement must name the employee" in drafted[0]


class TestKindAsked:
    def test_the_thing_whose_kind_is_asked_is_stated(self) -> None:
        """ "what kind of acknowledgment": a sentence not stating an acknowledgment answers
        about its neighbours."""
        behaviour = catalog_control(
            "xl4",
            "XL-4",
            "Rules of Behavior",
            "a. Establish and provide to individuals requiring access to the system the rules "
            "that describe their responsibilities and expected behavior for information and "
            "system usage, security, and privacy;\n  b. Receive a documented acknowledgment "
            "from such individuals, indicating that they have read, understand, and agree to "
            "abide by the rules of behavior, before authorizing access to information and the "
            "system;\n  c. Review and update the rules of behavior [Assignment: "
            "organization-defined frequency]; and\n  d. Require individuals who have "
            "acknowledged a previous version of the rules of behavior to read and "
            "re-acknowledge them when the rules are revised or updated.",
        )
        drafted = _drafted(
            "Before we give access, the user must give what kind of acknowledgment for the "
            "rules of behavior?",
            [behaviour, SOFTWARE, PROCESSING],
        )
        assert drafted
        assert "documented acknowledgment" in drafted[0]
        assert "Establish and provide" not in drafted[0]
