"""The front door: an :class:`EvidenceGate` over a store, configured by a policy."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evidencegate.audit.tee import TeeSink
from evidencegate.closing import Closing
from evidencegate.components import CriticLike, GeneratorLike, admit, build_retriever
from evidencegate.contracts import GatedAnswer
from evidencegate.corpus.backends import StoreBackend, open_store
from evidencegate.exceptions import UsageError
from evidencegate.judgements import AnswerScore
from evidencegate.judges.panel import JudgePanel
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Durability, Policy, load_policy, with_retrieval
from evidencegate.protocols import TraceSink
from evidencegate.providers.base import close_model
from evidencegate.review import ReviewQueue
from evidencegate.trace.events import RunEndEvent, TraceEvent
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

__all__ = ["EvidenceGate"]


class EvidenceGate(Closing):
    """Ask questions of a store under a policy; every run leaves a hash-chained trace.

    ``generator`` and ``critic`` may each be a ``provider:model`` spec, a
    :class:`~evidencegate.providers.base.ChatModel`, or a role object; however given, every
    model call is recorded and budgeted, the critic must not be the generator's model, and
    :attr:`policy` names the components really used (see
    :func:`~evidencegate.components.admit`). ``retriever`` (``"bm25"`` or ``"hybrid"``)
    overrides the policy's ``retrieval``; ``"hybrid"`` needs the ``dense`` extra.

    >>> with EvidenceGate.open("./store") as gate:          # doctest: +SKIP
    ...     answer = gate.ask("What is the gift limit?", as_of=dt.date(2024, 6, 1))
    """

    def __init__(
        self,
        store: StoreBackend,
        *,
        policy: Policy | str | Path | dict[str, Any] | None = None,
        generator: GeneratorLike | None = None,
        critic: CriticLike | None = None,
        retriever: str | None = None,
    ) -> None:
        self.store = store
        loaded = load_policy(policy)
        if retriever is not None:
            loaded = with_retrieval(loaded, retriever)
        self.policy, built_generator, built_critic = admit(loaded, generator, critic, pages=store)
        verifier = Verifier.from_policy(store, self.policy)
        self.controller = LoopController(
            retriever=build_retriever(self.policy, store),
            verifier=verifier,
            generator=built_generator,
            critic=built_critic,
            policy=self.policy,
            judges=JudgePanel.for_policy(self.policy, verifier),
        )

    @classmethod
    def open(
        cls,
        store_dir: str | Path,
        *,
        policy: Policy | str | Path | dict[str, Any] | None = None,
        generator: GeneratorLike | None = None,
        critic: CriticLike | None = None,
        retriever: str | None = None,
    ) -> EvidenceGate:
        """Open an existing store, a directory or a ``postgresql://`` URL (StoreError when it is
        not one); ``generator``/``critic``/``retriever`` as for the constructor."""
        store = open_store(store_dir, create=False)
        try:
            return cls(
                store, policy=policy, generator=generator, critic=critic, retriever=retriever
            )
        except BaseException:
            store.close()
            raise

    def ask(
        self,
        question: str,
        *,
        as_of: dt.date | None = None,
        tenant: str | None = None,
        trace_out: str | Path | None = None,
        trace: TraceRecorder | None = None,
        run_id: str | None = None,
        sinks: Sequence[TraceSink] = (),
        durability: Durability | None = None,
    ) -> GatedAnswer:
        """Run the loop. The trace goes to ``trace_out``, else ``<store traces_dir>/<run_id>.jsonl``
        (``STORE/traces`` for a store directory).

        ``sinks`` observe the same events after the recorder wrote them (telemetry, logs); they
        are built for ``run_id``, which the caller may therefore choose. ``durability``
        overrides the policy's ``trace_durability`` for a trace written here.
        """
        if not question.strip():
            raise UsageError("the question is empty")
        as_of = as_of or dt.date.today()
        recorder = trace
        if recorder is None:
            run_id = run_id or uuid.uuid4().hex
            path = Path(trace_out) if trace_out else self.store.traces_dir / f"{run_id}.jsonl"
            recorder = TraceRecorder(
                path, run_id=run_id, durability=durability or self.policy.trace_durability
            )
        ending = _RunEnd()
        sink = TeeSink(recorder, *sinks, ending)
        with sink:
            answer = self.controller.run(
                question, as_of=as_of, trace=sink, run_id=recorder.run_id, tenant=tenant
            )
        if ending.score is not None:
            # The review queue: low-scored answers are flagged for a human (policy.judges).
            with ReviewQueue.open(self.store.location) as queue:
                queue.record_score(recorder.run_id, ending.score)
        return answer

    def close(self) -> None:
        """Close the model clients (their connections) and the store."""
        close_model(self.controller.generator)
        close_model(self.controller.critic)
        self.store.close()


class _RunEnd:
    """Observes the run's end to pick up the judges' score for the review queue."""

    def __init__(self) -> None:
        self.score: AnswerScore | None = None

    def emit(self, event: TraceEvent) -> None:
        if isinstance(event, RunEndEvent):
            self.score = event.score
