"""The critic reads the value a question asks as the drafter does (analysis.asked_value): a
claim stating a value of that kind answers it whatever the answer type reads (a calendar date a
yearly deadline typed as a duration, a share of a stated base the bound of an amount, an age
"what age" beside the asker's own age), and a value of another kind still does not."""

from __future__ import annotations

import datetime as dt

import pytest

from evidencegate.analysis import asked_value, profile_question, states_value
from evidencegate.critique.rules import (
    RulesCritic,
    _amount_missing,
    _measure_unstated,
    _time_unstated,
)
from evidencegate.testing import InMemoryCorpus
from tests.audit_support import claim

AS_OF = dt.date(2024, 6, 1)


def _asked(question: str) -> str | None:
    return asked_value(question, profile_question(question, as_of=AS_OF))


def _missing(text: str, question: str) -> list[str]:
    """The facts the rules critic finds the evidence ``text`` does not establish."""
    corpus = InMemoryCorpus()
    corpus.add("RULE-1", "1", dt.date(2019, 1, 1), [text])
    found = corpus.search(question, as_of=AS_OF, limit=8)
    assert found, "the fixture passage must be retrieved"
    return RulesCritic().sufficiency(question, found, as_of=AS_OF).missing_facts


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What's the annual deadline to file the dues register with the guild?", "yearly_date"),
        ("By what date must the yearly levy return be lodged?", "calendar_date"),
        ("What is the maximum reserve a keeper may hold in the levy account?", "relative_bound"),
        ("From what age may a member draw the guild pension?", "age"),
        ("What fraction of the yearly levy may be collected each month?", "fraction"),
        ("How long must guild records be kept?", None),
    ],
)
def test_the_asked_value_is_read_once_for_drafter_and_critic(question: str, kind: str) -> None:
    assert _asked(question) == kind


def test_a_share_of_a_stated_base_states_the_bound_of_an_amount() -> None:
    assert states_value("relative_bound", "no greater than one-sixth (1/6) of the yearly levy")
    assert states_value("relative_bound", "at most three times the base monthly dues")
    # a bare fraction is not a share of anything stated
    assert not states_value("relative_bound", "The reserve may be one-sixth.")
    assert not states_value("relative_bound", "A reserve means funds held for unexpected costs.")


def test_a_calendar_date_answers_a_yearly_deadline_typed_as_a_duration() -> None:
    question = "What's the annual deadline to file the dues register with the guild?"
    dated = "By March 1 following the calendar year, a member shall file its dues register."
    assert not any(f.startswith("figure: ") for f in _missing(dated, question))
    # a sentence stating no date nor time limit still answers nothing
    undated = "A member shall file its dues register with the guild in electronic form."
    assert any(f.startswith("figure: ") for f in _missing(undated, question))


def test_a_share_of_a_base_answers_the_largest_amount_and_a_definition_does_not() -> None:
    question = "What is the maximum reserve a keeper may hold in the levy account?"
    bound = (
        "The keeper may hold a reserve no greater than one-sixth (1/6) of the estimated total "
        "annual payments from the levy account."
    )
    assert not any(f.startswith("figure: ") for f in _missing(bound, question))
    definition = (
        "A reserve means funds that a keeper may hold in the levy account to cover "
        "unanticipated payments."
    )
    assert any(f.startswith("figure: ") for f in _missing(definition, question))


def test_the_asked_age_answers_beside_the_askers_own_age() -> None:
    question = "My aunt is 66. From what age may a guild give an older member better terms?"
    rule = "A guild may give better terms to a member who is age 60 or older."
    assert not any(f.startswith("number: ") for f in _missing(rule, question))
    # a rule stating no age leaves the asker's figure unanswered
    other = "A guild may give better terms to a member with a long record of paid dues."
    assert "number: 66" in _missing(other, question)


def test_the_other_facts_accept_the_asked_value_and_no_other_kind() -> None:
    profile = profile_question("Cap on the late fee for an overdue levy?", as_of=AS_OF)
    share = claim("The late fee may not exceed one-tenth of the overdue levy.")
    assert _amount_missing(profile, [share]) is None
    plain = claim("A keeper may charge a late fee once the levy is overdue.")
    assert _amount_missing(profile, [plain]) is not None

    deadline = profile_question(
        "What is the yearly deadline for the guild's dues register?", as_of=AS_OF
    )
    assert _time_unstated(deadline, [claim("The register is due by 1 March each year.")]) is None

    age = profile_question("At what age may a member draw the guild pension?", as_of=AS_OF)
    assert _measure_unstated(age, [claim("A member aged 60 or older may draw it.")]) is None
    # a time limit is no age
    late = claim("A member may draw the pension within 30 days of retiring.")
    assert _measure_unstated(age, [late]) is not None


def test_the_word_asking_the_date_is_not_a_measure_the_answer_must_repeat() -> None:
    question = "GDR - when is it due each year?"
    dated = "By March 1 following the calendar year, a member shall file its GDR with the guild."
    assert not any(f.startswith("figure: ") for f in _missing(dated, question))
