"""The rules critic refuses a time answer whose claims time another act than the one the
question asks ("phone the complainant" answered by the acknowledgement's deadline), and lets
through the act stated by a word of the same act in any sense ("notify" by "tell", "check" by
"review", "send the notice" by "notify")."""

from __future__ import annotations

import datetime as dt

from evidencegate.analysis import QuestionProfile, profile_question
from evidencegate.critique.rules import _act_unstated
from evidencegate.lexicon import act_senses, acts, same_act
from tests.audit_support import claim

AS_OF = dt.date(2024, 6, 1)
ACK = "The Bank must send the complainant a written acknowledgement within 5 business days."


def profile(question: str) -> QuestionProfile:
    return profile_question(question, as_of=AS_OF)


class TestAnotherActTimed:
    def test_the_time_of_another_act_is_refused(self) -> None:
        question = "Within how many business days must the handler phone a vulnerable complainant?"
        assert _act_unstated(profile(question), [claim(ACK)], filed=False) == (
            "kind: the act asked (phone; the claims time another act)"
        )

    def test_a_name_inside_the_sentence_states_no_act(self) -> None:
        refer = (
            "A Complainant may refer a complaint to the Banking Ombudsman Service within"
            " 6 months of the date of the Final Response."
        )
        question = "deadline to respond to ombudsman referral?"
        assert _act_unstated(profile(question), [claim(refer)], filed=False) is not None

    def test_the_act_or_a_word_of_the_same_act_answers(self) -> None:
        phone = "The handler must telephone the complainant within 2 business days."
        question = "Within how many business days must the handler phone a vulnerable complainant?"
        assert _act_unstated(profile(question), [claim(phone)], filed=False) is None
        review = "Line managers must review the Gifts Register entries at least once every quarter."
        question = "How often do line managers have to check their team's gifts register entries?"
        assert _act_unstated(profile(question), [claim(review)], filed=False) is None
        tell = "A creditor shall notify an applicant of action taken within 30 days."
        question = "how many days to tell the applicant approve/deny?"
        assert _act_unstated(profile(question), [claim(tell)], filed=False) is None

    def test_sending_is_stated_by_what_is_sent(self) -> None:
        notify = "A creditor shall notify an applicant of action taken within 30 days."
        question = "How long do we have to send the adverse action notice?"
        assert _act_unstated(profile(question), [claim(notify)], filed=False) is None

    def test_a_verb_of_a_phase_asks_the_act_it_governs(self) -> None:
        deleted = "Customer records must be deleted within 30 days of account closure."
        archived = "Customer records must be archived within 30 days of account closure."
        for question in (
            "How long does the company have to finish deleting records after closure?",
            "how many days must the company complete to delete the records after closure",
        ):
            assert _act_unstated(profile(question), [claim(deleted)], filed=False) is None
            assert "delet" in (_act_unstated(profile(question), [claim(archived)], False) or "")
        question = "How long must the company keep records before it can finish?"
        assert _act_unstated(profile(question), [claim(archived)], filed=False) is None

    def test_no_act_or_no_time_asked_or_a_filing_is_not_checked(self) -> None:
        question = "How long must a lease last to be a consumer lease?"
        lease = "Consumer lease means a lease for a period of more than four months."
        assert _act_unstated(profile(question), [claim(lease)], filed=False) is None
        question = "Who must the handler phone?"
        assert _act_unstated(profile(question), [claim(ACK)], filed=False) is None
        question = "Within how many days must the company repay the notes?"
        assert _act_unstated(profile(question), [claim(ACK)], filed=True) is None


class TestActGroups:
    def test_words_of_one_act_share_a_group(self) -> None:
        assert acts()
        assert same_act("notify", "told")
        assert same_act("check", "reviewed")
        assert same_act("acknowledgement", "acknowledge")
        assert same_act("notice", "notify")

    def test_other_acts_do_not(self) -> None:
        assert not same_act("phone", "send")
        assert not same_act("close", "acknowledge")
        assert act_senses("xyzzy") == frozenset()
