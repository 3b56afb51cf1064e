"""Three-level document relevance and task-adaptive knowledge combination (a retrieval stage).

Each question–document pair is labelled ``highly_relevant``, ``somewhat_relevant`` or
``not_relevant`` (a retrieved passage is the document judged). The labels then choose the
knowledge the generator sees, by task:

* **open** task (explain, describe, compare): the highly relevant documents when there are any;
  otherwise the somewhat relevant ones **plus** a follow-up retrieval with a keyword query
  rewritten from the question, whose results are judged too and kept unless not relevant;
* **closed** task (one fact: a figure, a date, a name, yes/no): the highly relevant documents,
  or **no documents at all** — a closed question is not answered from loosely related text.

:func:`combine_knowledge` is the pure decision; :func:`knowledge_stage` runs the whole stage
with a retrieval callable and returns the :class:`~evidencegate.judgements.KnowledgeSelection`
(every label and which set was used: what the trace records) with the passages to use.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from evidencegate.analysis import profile_question
from evidencegate.contracts import Passage
from evidencegate.judgements import (
    ContextRelevance,
    DocumentRelevance,
    KnowledgeSelection,
    KnowledgeStrategy,
    RelevanceLabel,
    TaskKind,
)
from evidencegate.judges.llm import ask_json, validated
from evidencegate.judges.prompts import DOCUMENT_RELEVANCE
from evidencegate.judges.triad import RulesTriadJudge
from evidencegate.prompts.base import evidence_blocks
from evidencegate.providers.base import ChatModel
from evidencegate.text import STOPWORDS

__all__ = [
    "LLMRelevanceJudge",
    "RelevanceJudge",
    "RulesRelevanceJudge",
    "classify_task",
    "combine_knowledge",
    "keyword_query",
    "knowledge_stage",
]

_CLOSED_OPENERS = re.compile(
    r"^\s*(?:who|whom|whose|when|where|which|how\s+(?:much|many|long|often|old|soon)"
    r"|is|are|was|were|does|do|did|can|could|must|may|shall|should|has|have|had|will|would)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z0-9][\w.,$%§-]*[A-Za-z0-9%]|[A-Za-z0-9]")
_QUESTION_WORDS = frozenset(
    {"what", "who", "whom", "whose", "when", "where", "which", "how", "why", "does", "did", "do"}
)


def classify_task(question: str, *, as_of: dt.date) -> TaskKind:
    """``closed`` when the question asks for one fact (a figure or date, who/when/which, or a
    yes/no question), else ``open``."""
    if profile_question(question, as_of=as_of).wants_figure or _CLOSED_OPENERS.match(question):
        return "closed"
    return "open"


def keyword_query(question: str) -> str:
    """The question rewritten as a keyword query: its content words in order, each once, with
    question words, stop words, possessives and punctuation dropped (numbers, years and §
    kept)."""
    words: list[str] = []
    for match in _WORD.finditer(re.sub(r"['’]s\b", "", question)):
        word = match.group().strip(".,")
        low = word.lower()
        if low in STOPWORDS or low in _QUESTION_WORDS or low in (w.lower() for w in words):
            continue
        words.append(word)
    return " ".join(words) or question.strip()


class RelevanceJudge(Protocol):
    """Labels each (question, document) pair on the three-level scale; raises on error."""

    @property
    def component_id(self) -> str: ...

    def judge(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[DocumentRelevance]: ...


class RulesRelevanceJudge:
    """Offline labels from the rules context-relevance score: 3 highly, 1–2 somewhat, 0 not."""

    component_id = "relevance:rules@1"

    def __init__(self, triad: RulesTriadJudge) -> None:
        self.triad = triad

    def judge(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[DocumentRelevance]:
        scored = self.triad.context_relevance(question, passages, as_of=as_of)
        return [validated(_label(c), judge=self.component_id) for c in scored]


def _label(score: ContextRelevance) -> DocumentRelevance:
    label = (
        RelevanceLabel.HIGHLY
        if score.score == 3
        else RelevanceLabel.SOMEWHAT
        if score.score >= 1
        else RelevanceLabel.NOT
    )
    return DocumentRelevance(passage_id=score.passage_id, label=label, reason=score.reason)


class _LabelReply(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    label: RelevanceLabel
    reason: str = Field(min_length=1)


class LLMRelevanceJudge:
    """A language model labels each question–document pair, one call per pair."""

    def __init__(self, chat: ChatModel, *, timeout_s: float = 60.0) -> None:
        self.chat = chat
        self.timeout_s = timeout_s

    @property
    def component_id(self) -> str:
        return f"relevance:{self.chat.provider}:{self.chat.model}"

    def judge(
        self, question: str, passages: Sequence[Passage], *, as_of: dt.date
    ) -> list[DocumentRelevance]:
        out: list[DocumentRelevance] = []
        for passage in passages:
            reply = ask_json(
                self.chat,
                _LabelReply,
                judge=self.component_id,
                prompt=DOCUMENT_RELEVANCE,
                values={"question": question, "evidence": evidence_blocks([passage]).text},
                purpose="document_relevance",
                timeout_s=self.timeout_s,
            )
            relevance = DocumentRelevance(
                passage_id=passage.passage_id, label=reply.label, reason=reply.reason
            )
            out.append(validated(relevance, judge=self.component_id))
        return out


def combine_knowledge(
    task: TaskKind, question: str, judgements: Sequence[DocumentRelevance]
) -> KnowledgeSelection:
    """The task-adaptive choice of documents (pure): see the module docstring."""
    highly = [j.passage_id for j in judgements if j.label is RelevanceLabel.HIGHLY]
    somewhat = [j.passage_id for j in judgements if j.label is RelevanceLabel.SOMEWHAT]
    if highly:
        strategy, used, query = KnowledgeStrategy.HIGHLY_RELEVANT, highly, None
    elif task == "open":
        strategy = KnowledgeStrategy.SOMEWHAT_PLUS_FOLLOW_UP
        used, query = somewhat, keyword_query(question)
    else:
        strategy, used, query = KnowledgeStrategy.NONE, [], None
    return KnowledgeSelection(
        task=task,
        strategy=strategy,
        judgements=list(judgements),
        used_ids=used,
        follow_up_query=query,
    )


def knowledge_stage(
    question: str,
    passages: Sequence[Passage],
    *,
    task: TaskKind,
    judge: RelevanceJudge,
    retrieve: Callable[[str], Sequence[Passage]],
    as_of: dt.date,
) -> tuple[KnowledgeSelection, list[Passage]]:
    """Judge, combine, and run the follow-up retrieval when the combination asks for one.

    Follow-up results already judged are not judged again; new ones are judged and kept unless
    ``not_relevant``. Returns the selection (all labels, the set used) and the passages to use,
    in retrieval order.
    """
    judgements = judge.judge(question, passages, as_of=as_of)
    selection = combine_knowledge(task, question, judgements)
    pool = {p.passage_id: p for p in passages}
    if selection.follow_up_query is None:
        return selection, [pool[pid] for pid in selection.used_ids]
    fresh = [p for p in retrieve(selection.follow_up_query) if p.passage_id not in pool]
    extra = judge.judge(question, fresh, as_of=as_of) if fresh else []
    for passage in fresh:
        pool[passage.passage_id] = passage
    kept = [j.passage_id for j in extra if j.label is not RelevanceLabel.NOT]
    selection = selection.model_copy(
        update={
            "judgements": [*selection.judgements, *extra],
            "used_ids": [*selection.used_ids, *kept],
        }
    )
    return validated(selection, judge=judge.component_id), [pool[pid] for pid in selection.used_ids]
