"""Replay: re-run a recorded run with providers that answer from its trace, and compare.

Replay is a provider swap. The same :class:`~evidencegate.loop.controller.LoopController` runs
the recorded question (as-of date, tenant, arm, run id) under the recorded policy, or under
another policy for a *counterfactual* replay, with:

* a :class:`ReplayRetriever` answering each search with the recorded retrieval results, in
  order, re-hydrated from the store (each passage's text is re-read from its page and checked
  against the recorded ``text_sha256``);
* a :class:`ReplaySourceLookup` giving the verifier the store's pages *as the run saw them*
  (see below);
* language models answering from the recorded model calls (:class:`ReplayChatModel`, by
  request hash, in order), inside the same recording wrapper the run used;
* the deterministic offline components (extractive generator, rules critic, verifier) re-run as
  they are: the same inputs give the same outputs.

The recorded policy names the models the run really used, also those given through the Python
API (:func:`~evidencegate.components.admit`), so API-wired runs replay like policy-wired ones.
A trace is replayed with the model contracts its calls used (the version of each role's prompt:
``generator.draft@v1`` the model copied quotes, ``@v2`` it cited spans, ``@v3`` it may name a
derivation; ``critic.*@v1`` the critic reported coverage), so old traces still replay.

Every replayed event is compared with the recorded one as canonical JSON
(:func:`comparable_event` names the fields left out: wall-clock durations, the retriever's
class name, the recorded policy itself; in a counterfactual replay also the policy name in the
answer). The first difference is the
:class:`Divergence`. Then :mod:`~evidencegate.audit.drift` re-resolves the recorded answer's
citations against the store as it is now.

How the verifier reads pages during replay (the choice, and why). Versions are immutable in a
store (ingesting other content under a stored ``doc_id@version`` is refused), so the page text
of a cited version is read from the store; if the store was rebuilt with other text, the
recorded passage hashes say so (``evidence`` in the result) and the replay diverges where the
text mattered. What does change in a store is supersession: ingesting a version with an earlier
effective date ends the previous version's validity. A version the run retrieved was in force on
the as-of date when the run happened (the store only returns versions in force), so for those
versions :class:`ReplaySourceLookup` restores that validity. Replay then re-checks the decisions
on the sources the run had; that the sources have changed since is drift, reported separately.

Exit codes of ``evidencegate replay`` (:attr:`ReplayResult.exit_code`): 0 identical and no
drift; 1 the hash chain is broken (nothing replayed); 3 the replay diverged (or, with
``--policy``, the policy decides differently); 4 identical but the sources drifted; 5 identical
so far but the recording is incomplete (the run never ended, so there is no answer to compare).
"""

from __future__ import annotations

import datetime as dt
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from evidencegate.analysis import Scope
from evidencegate.audit.drift import CitationDrift, EvidenceChange, citation_drift, evidence_drift
from evidencegate.canonical import canonical_json
from evidencegate.components import build_critic, build_generator
from evidencegate.contracts import Arm, GatedAnswer, Passage, SourcePage
from evidencegate.corpus.backends import StoreBackend
from evidencegate.corpus.passages import passage_context
from evidencegate.critique.llm import CONTRACTS
from evidencegate.exceptions import EvidenceGateError, ModelCallFailed, TraceFormatError
from evidencegate.generation.llm import LATEST_CONTRACT
from evidencegate.hygiene import instruction_flags
from evidencegate.judges.panel import JudgePanel
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy, load_policy
from evidencegate.protocols import Critic, Generator
from evidencegate.providers.base import ChatModel, ChatRequest, ChatResponse
from evidencegate.trace.chain import read_trace, verify_trace
from evidencegate.trace.events import (
    ModelCallEvent,
    RetrievalEvent,
    RetrievedRef,
    RunEndEvent,
    RunStartEvent,
    ScopeEvent,
    TraceEvent,
    TraceLine,
)
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

__all__ = [
    "EXIT_DIVERGED",
    "EXIT_DRIFT",
    "EXIT_IDENTICAL",
    "EXIT_INCOMPLETE",
    "EXIT_TAMPERED",
    "Divergence",
    "ReplayChatModel",
    "ReplayMismatch",
    "ReplayResult",
    "ReplayRetriever",
    "ReplaySourceLookup",
    "comparable_event",
    "first_divergence",
    "rehydrate_passages",
    "replay_chat_models",
    "replay_trace",
]

EXIT_IDENTICAL = 0
EXIT_TAMPERED = 1
EXIT_DIVERGED = 3
EXIT_DRIFT = 4
EXIT_INCOMPLETE = 5


class ReplayMismatch(EvidenceGateError):
    """The replayed run asked for something the recording cannot answer.

    Raised inside the replayed run (a different query, one retrieval too many); the controller
    turns it into a ``component_error`` stop like any failing component, and the comparison
    then shows where the runs parted.
    """


# --------------------------------------------------------------------------- providers


def rehydrate_passages(
    retrievals: Sequence[RetrievalEvent], store: StoreBackend, *, tenant: str | None
) -> dict[str, Passage]:
    """The recorded passages, rebuilt from their pages in ``store``, by recorded passage id.

    A passage's score is the one of its first retrieval; :class:`ReplayRetriever` gives each
    result the score recorded for that retrieval.

    A passage whose page is gone is left out; one whose text changed gets the current text
    (so it no longer matches its recorded hash and the replayed retrieval differs).
    """
    passages: dict[str, Passage] = {}
    for event in retrievals:
        for ref in event.results:
            if ref.passage_id in passages:
                continue
            source = store.lookup(ref.doc_id, ref.version, ref.page, tenant=tenant)
            if source is not None:
                passages[ref.passage_id] = _passage(ref, source)
    return passages


def _passage(ref: RetrievedRef, source: SourcePage) -> Passage:
    """The Passage the store's search returned for ``ref`` (see ``Store.search``)."""
    return Passage(
        passage_id=ref.passage_id,
        doc_id=ref.doc_id,
        version=ref.version,
        page=ref.page,
        char_start=ref.char_start,
        char_end=ref.char_end,
        text=source.page.text[ref.char_start : ref.char_end],
        label=source.page.label,
        title=source.document.title,
        authority=source.document.authority,
        version_date=source.document.version_date,
        score=ref.score,
        context=passage_context(source.page.label, source.page.heading, source.document.title),
        flags=instruction_flags(source.page.text[ref.char_start : ref.char_end]),
    )


class ReplayRetriever:
    """A Retriever answering the n-th search with the n-th recorded retrieval.

    The query and as-of date must be the recorded ones (else :class:`ReplayMismatch`). The
    ``authorities``, ``doc_ids`` and ``limit`` of the call filter and cut the recorded results,
    as the store would have: a counterfactual policy can narrow a recorded retrieval, never see
    passages the run did not retrieve.
    """

    def __init__(self, retrievals: Sequence[RetrievalEvent], passages: Mapping[str, Passage]):
        self._retrievals = list(retrievals)
        self._passages = dict(passages)
        self._calls = 0

    def search(
        self,
        query: str,
        *,
        as_of: dt.date,
        limit: int = 8,
        authorities: Sequence[str] | None = None,
        doc_ids: Sequence[str] | None = None,
        tenant: str | None = None,
    ) -> list[Passage]:
        number = self._calls + 1
        if self._calls >= len(self._retrievals):
            raise ReplayMismatch(
                f"retrieval #{number} ({query!r}) was not recorded: the recording has "
                f"{len(self._retrievals)} retrievals"
            )
        recorded = self._retrievals[self._calls]
        self._calls += 1
        if query != recorded.query or as_of != recorded.as_of:
            raise ReplayMismatch(
                f"retrieval #{number}: the replay asks {query!r} as of {as_of}, the recording "
                f"asked {recorded.query!r} as of {recorded.as_of}"
            )
        out = [
            self._passages[ref.passage_id].model_copy(
                update={"score": ref.score, "completes": ref.completes}
            )
            for ref in recorded.results
            if ref.passage_id in self._passages
            and (authorities is None or ref.authority in authorities)
            and (doc_ids is None or ref.doc_id in doc_ids)
        ]
        # ``limit`` counts the passages ranked for the query; one completing a list (a lead-in,
        # an item: Passage.completes) came beside them, and stays with the passage it completes.
        kept = {p.passage_id for p in [q for q in out if q.completes is None][:limit]}
        return [p for p in out if p.passage_id in kept or p.completes in kept]


class ScopedReplayRetriever(ReplayRetriever):
    """A ReplayRetriever that also answers question analysis' scope, as it was recorded.

    Only runs that recorded a scope replay through it, so a trace from before scopes existed
    replays event for event as it was written.
    """

    def __init__(
        self,
        retrievals: Sequence[RetrievalEvent],
        passages: Mapping[str, Passage],
        recorded: ScopeEvent,
    ) -> None:
        super().__init__(retrievals, passages)
        self._scope = Scope(
            None if recorded.doc_ids is None else tuple(recorded.doc_ids), recorded.reason
        )

    def scope(self, question: str, *, as_of: dt.date, tenant: str | None = None) -> Scope:
        return self._scope


class ReplaySourceLookup:
    """The verifier's SourceLookup during replay: the store's pages, with recorded validity.

    A version the run retrieved was in force on the run's as-of date; when the store now says
    otherwise (a version with an earlier effective date was ingested since), the document is
    returned as it was then: without the ``effective_to``/``superseded_by`` that came later.
    """

    def __init__(
        self, store: StoreBackend, *, as_of: dt.date, tenant: str | None, retrieved: set[str]
    ) -> None:
        self._store = store
        self._as_of = as_of
        self._tenant = tenant
        self._retrieved = retrieved

    def lookup(
        self, doc_id: str, version: str, page: int, *, tenant: str | None = None
    ) -> SourcePage | None:
        source = self._store.lookup(doc_id, version, page, tenant=tenant or self._tenant)
        if source is None:
            return None
        document = source.document
        if f"{doc_id}@{version}" in self._retrieved and not document.in_force(self._as_of):
            document = document.model_copy(update={"effective_to": None, "superseded_by": None})
            return SourcePage(document=document, page=source.page)
        return source


class ReplayChatModel:
    """A ChatModel answering from the recorded model calls of one ``provider:model``.

    Each request is matched on its ``request_sha256`` (``ChatRequest.sha256``); calls with the
    same hash are answered in recorded order. A recorded success comes back as the same
    :class:`ChatResponse` (content, tokens, bodies); a recorded failure is raised again as the
    :class:`ModelCallFailed` it was, retryable exactly when the recording holds a retry of the
    same request (the wrapper then retries as it did). A request the recording does not hold
    raises :class:`ReplayMismatch`. Use it as the inner model of the same
    :class:`~evidencegate.providers.recording.RecordingChatModel` the run used, so that the
    replayed trace gets the same model-call events.

    Limit: the server's retry-after is not in the trace, so a replayed retry waits the
    wrapper's plain backoff, and a failure the recording gave up on because the retry-after
    exceeded ``max_backoff_s`` is raised as recorded, not as the wrapper's own error.
    """

    def __init__(self, provider: str, model: str, calls: Sequence[ModelCallEvent]) -> None:
        self.provider = provider
        self.model = model
        self._queues: dict[str, deque[ModelCallEvent]] = {}
        for call in calls:
            if (call.provider, call.model) == (provider, model):
                self._queues.setdefault(call.request_sha256, deque()).append(call)

    def complete(self, request: ChatRequest, *, timeout_s: float) -> ChatResponse:
        digest = request.sha256(provider=self.provider, model=self.model)
        queue = self._queues.get(digest)
        if not queue:
            purpose = request.metadata.get("purpose", "")
            raise ReplayMismatch(
                f"{self.provider}:{self.model}: no recorded call answers this request "
                f"(purpose {purpose!r}, request_sha256 {digest[:12]}...): the replayed prompt "
                "differs from the recorded one, or the recording has fewer calls"
            )
        call = queue.popleft()
        if call.error is None:
            response = call.response or {}
            body = call.request.get("body")
            return ChatResponse(
                content=str(response.get("content", "")),
                input_tokens=call.input_tokens,
                output_tokens=call.output_tokens,
                finish_reason=response.get("finish_reason"),
                model=str(response.get("model", "")),
                request_body=body if isinstance(body, dict) else {},
                response_body=response.get("body") or {},
            )
        raise self._failure(call, retried=bool(queue) and queue[0].attempt == call.attempt + 1)

    def _failure(self, call: ModelCallEvent, *, retried: bool) -> ModelCallFailed:
        """The recorded failure as the exception that was raised (same message)."""
        kind, _, text = (call.error or "").partition(": ")
        if kind != ModelCallFailed.__name__:
            raise ReplayMismatch(
                f"{self.provider}:{self.model}: the recording holds a {kind} failure, which only "
                "a ModelCallFailed can be replayed as"
            )
        status = f" (status {call.status_code})" if call.status_code is not None else ""
        prefix = f"{self.provider}:{self.model}{status}: "
        body = call.request.get("body")
        return ModelCallFailed(
            text.removeprefix(prefix),
            provider=self.provider,
            model=self.model,
            status_code=call.status_code,
            retryable=retried,
            request_body=body if isinstance(body, dict) else None,
            response_body=(call.response or {}).get("body"),
        )


def replay_chat_models(calls: Sequence[ModelCallEvent]) -> Callable[[str, str], ChatModel]:
    """A factory of :class:`ReplayChatModel` (provider, model) over the recorded calls."""

    def factory(provider: str, model: str) -> ChatModel:
        return ReplayChatModel(provider, model, calls)

    return factory


# --------------------------------------------------------------------------- comparison


class Divergence(BaseModel):
    """Where a replay first differs from its recording."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    recorded_kind: str | None
    replayed_kind: str | None
    path: str
    """The first differing JSON path inside the event ("" when a whole event is missing)."""
    recorded: str | None
    replayed: str | None
    """Canonical JSON of the compared events (None when that side has no event at seq)."""


def comparable_event(event: TraceEvent, *, counterfactual: bool = False) -> dict[str, Any]:
    """The part of an event a replay must reproduce byte for byte.

    Left out: ``run_end.elapsed_ms`` and ``model_call.latency_ms`` (wall-clock); the
    retriever's class name in ``run_start.components`` (the replay swaps it); the policy in
    ``run_start`` (the replay loads it from the recording, and the chain already protects the
    recorded one; :attr:`ReplayResult.policy_fields_added` names the fields a newer Policy model
    added with their defaults); and in a counterfactual replay the policy's name in the answer.
    """
    data = event.model_dump(mode="json")
    if event.kind == "run_start":
        data["components"].pop("retriever", None)
        data.pop("policy")
        data.pop("policy_sha256")
    elif event.kind == "run_end":
        data.pop("elapsed_ms")
        if counterfactual:
            data["answer"].pop("policy")
    elif event.kind == "model_call":
        data.pop("latency_ms")
    return data


def first_divergence(
    recorded: Sequence[TraceEvent], replayed: Sequence[TraceEvent], *, counterfactual: bool
) -> Divergence | None:
    """The first seq at which the two event sequences differ (the recorded one may be a prefix
    when ``recorded`` ends without ``run_end``: then only the recorded events are compared)."""
    complete = bool(recorded) and recorded[-1].kind == "run_end"
    length = max(len(recorded), len(replayed)) if complete else len(recorded)
    for seq in range(length):
        old = recorded[seq] if seq < len(recorded) else None
        new = replayed[seq] if seq < len(replayed) else None
        a = None if old is None else comparable_event(old, counterfactual=counterfactual)
        b = None if new is None else comparable_event(new, counterfactual=counterfactual)
        ja = None if a is None else canonical_json(a).decode("utf-8")
        jb = None if b is None else canonical_json(b).decode("utf-8")
        if ja != jb:
            path = ""  # a whole event is missing on one side
            if old is not None and new is not None:
                path = "kind" if old.kind != new.kind else _first_path(a, b)
            return Divergence(
                seq=seq,
                recorded_kind=None if old is None else old.kind,
                replayed_kind=None if new is None else new.kind,
                path=path,
                recorded=ja,
                replayed=jb,
            )
    return None


def _first_path(a: Any, b: Any, path: str = "") -> str:
    """The JSON path of the first difference between two JSON values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b or canonical_json(a[key]) != canonical_json(b[key]):
                if key in a and key in b:
                    return _first_path(a[key], b[key], f"{path}.{key}" if path else key)
                return f"{path}.{key}" if path else key
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if canonical_json(x) != canonical_json(y):
                return _first_path(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}[{min(len(a), len(b))}]"
    return path


# --------------------------------------------------------------------------- replay


class ReplayResult(BaseModel):
    """What a replay found. :attr:`exit_code` is the CLI's exit code (see the module doc)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trace: str
    chain_ok: bool
    chain_reason: str | None = None
    chain_first_bad_seq: int | None = None
    complete: bool = False
    run_id: str | None = None
    counterfactual: bool = False
    policy: str | None = None
    policy_fields_added: list[str] = []
    """Policy fields the recording lacks, replayed at their defaults (a newer Policy model)."""
    recorded_events: int = 0
    replayed_events: int = 0
    divergence: Divergence | None = None
    recorded_answer: GatedAnswer | None = None
    replayed_answer: GatedAnswer | None = None
    evidence: list[EvidenceChange] = []
    """Retrieved passages whose text the store no longer holds as recorded."""
    drift: list[CitationDrift] = []
    """Each citation of the recorded answer, re-resolved against the current store."""

    @property
    def drifted(self) -> bool:
        return bool(self.evidence) or any(d.drifted for d in self.drift)

    @property
    def exit_code(self) -> int:
        if not self.chain_ok:
            return EXIT_TAMPERED
        if self.divergence is not None:
            return EXIT_DIVERGED
        if not self.complete:
            return EXIT_INCOMPLETE
        if self.drifted:
            return EXIT_DRIFT
        return EXIT_IDENTICAL


def replay_trace(
    path: str | Path,
    store: StoreBackend,
    *,
    policy: Policy | str | Path | dict[str, Any] | None = None,
    generator: Generator | None = None,
    critic: Critic | None = None,
) -> ReplayResult:
    """Verify the chain of the trace at ``path``, replay it over ``store`` and compare.

    ``policy`` (a Policy, file, builtin name or mapping) makes it a counterfactual replay; by
    default the recorded policy is used. The components are built from that policy, language
    models answering from the recorded model calls (:class:`ReplayChatModel`, never a vendor
    client); ``generator``/``critic`` replace them when given. Raises
    :class:`TraceFormatError` when the trace is not a run's trace, ``OSError`` when it cannot be
    read.
    """
    report = verify_trace(path)
    if not report.ok:
        return ReplayResult(
            trace=str(path),
            chain_ok=False,
            chain_reason=report.reason,
            chain_first_bad_seq=report.first_bad_seq,
            run_id=report.run_id,
        )
    lines = read_trace(path)
    start = _run_start(lines, path)
    recorded = [line.event for line in lines]
    retrievals = [e for e in recorded if isinstance(e, RetrievalEvent)]
    run_id = lines[0].run_id

    counterfactual = policy is not None
    effective = load_policy(policy) if counterfactual else load_policy(dict(start.policy))
    allowed_same = start.components.get("same_model_critic")
    if allowed_same and not effective.same_model_critic_reason:
        # Recorded before a stated reason was required: the recorded words are the reason.
        effective = effective.model_copy(update={"same_model_critic_reason": allowed_same})
    passages = rehydrate_passages(retrievals, store, tenant=start.tenant)
    retrieved = {f"{ref.doc_id}@{ref.version}" for e in retrievals for ref in e.results}
    lookup = ReplaySourceLookup(store, as_of=start.as_of, tenant=start.tenant, retrieved=retrieved)
    calls = [e for e in recorded if isinstance(e, ModelCallEvent)]
    models = replay_chat_models(calls)
    scopes = [e for e in recorded if isinstance(e, ScopeEvent)]
    verifier = Verifier.from_policy(lookup, effective)
    controller = LoopController(
        retriever=(
            ScopedReplayRetriever(retrievals, passages, scopes[0])
            if scopes
            else ReplayRetriever(retrievals, passages)
        ),
        verifier=verifier,
        generator=generator
        or build_generator(
            effective,
            chat_models=models,
            contract=_contract(calls, "generator.draft") or LATEST_CONTRACT,
            pages=lookup,
        ),
        critic=critic
        or build_critic(
            effective,
            chat_models=models,
            contract=_contract(calls, "critic.") or CONTRACTS[-1],
            pages=lookup,
        ),
        policy=effective,
        arm=_arm(start, path),
        judges=JudgePanel.for_policy(effective, verifier),
    )
    with TraceRecorder(None, run_id=run_id) as recorder:
        replayed_answer = controller.run(
            start.question, as_of=start.as_of, trace=recorder, run_id=run_id, tenant=start.tenant
        )
        replayed = [line.event for line in recorder.lines]

    end = recorded[-1] if isinstance(recorded[-1], RunEndEvent) else None
    return ReplayResult(
        trace=str(path),
        chain_ok=True,
        complete=report.complete,
        run_id=run_id,
        counterfactual=counterfactual,
        policy=effective.name,
        policy_fields_added=[]
        if counterfactual
        else sorted(set(effective.model_dump(mode="json")) - set(start.policy)),
        recorded_events=len(recorded),
        replayed_events=len(replayed),
        divergence=first_divergence(recorded, replayed, counterfactual=counterfactual),
        recorded_answer=None if end is None else end.answer,
        replayed_answer=replayed_answer,
        evidence=evidence_drift(
            (ref for e in retrievals for ref in e.results), store, tenant=start.tenant
        ),
        drift=[] if end is None else citation_drift(end.answer, store, tenant=start.tenant),
    )


def _contract(calls: Sequence[ModelCallEvent], prompt_prefix: str) -> int | None:
    """The model contract the recorded calls of a role used: the version of their prompt
    (``generator.draft@v2`` -> 2); None when the role made no recorded call (the current one)."""
    for call in calls:
        metadata = call.request.get("chat", {}).get("metadata", {})
        prompt = str(metadata.get("prompt", ""))
        if prompt.startswith(prompt_prefix):
            version = prompt.rpartition("@v")[2]
            return int(version) if version.isdigit() else None
    return None


def _run_start(lines: Sequence[TraceLine], path: str | Path) -> RunStartEvent:
    first = lines[0].event
    if not isinstance(first, RunStartEvent):
        raise TraceFormatError(
            f"{path}: seq 0 is a {first.kind!r} event, not run_start: not a run's trace", line=0
        )
    return first


def _arm(start: RunStartEvent, path: str | Path) -> Arm:
    value = start.components.get("arm", "")
    try:
        return Arm(value)
    except ValueError:
        raise TraceFormatError(
            f"{path}: run_start names an unknown arm {value!r} "
            f"(known: {', '.join(a.value for a in Arm)})",
            line=0,
        ) from None
