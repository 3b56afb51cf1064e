"""The front door: an :class:`EvidenceGate` over a store, configured by a policy."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any

from evidencegate.components import build_critic, build_generator
from evidencegate.contracts import GatedAnswer
from evidencegate.corpus import Store
from evidencegate.exceptions import UsageError
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy, load_policy
from evidencegate.protocols import Critic, Generator
from evidencegate.trace.recorder import TraceRecorder
from evidencegate.verify.verifier import Verifier

__all__ = ["EvidenceGate"]


class EvidenceGate:
    """Ask questions of a store under a policy; every run leaves a hash-chained trace.

    >>> with EvidenceGate.open("./store") as gate:          # doctest: +SKIP
    ...     answer = gate.ask("What is the gift limit?", as_of=dt.date(2024, 6, 1))
    """

    def __init__(
        self,
        store: Store,
        *,
        policy: Policy | str | Path | dict[str, Any] | None = None,
        generator: Generator | None = None,
        critic: Critic | None = None,
    ) -> None:
        self.store = store
        self.policy = load_policy(policy)
        self.controller = LoopController(
            retriever=store,
            verifier=Verifier.from_policy(store, self.policy),
            generator=generator or build_generator(self.policy),
            critic=critic or build_critic(self.policy),
            policy=self.policy,
        )

    @classmethod
    def open(
        cls,
        store_dir: str | Path,
        *,
        policy: Policy | str | Path | dict[str, Any] | None = None,
    ) -> EvidenceGate:
        """Open an existing store (StoreError when it is not one)."""
        return cls(Store.open(store_dir, create=False), policy=policy)

    def ask(
        self,
        question: str,
        *,
        as_of: dt.date | None = None,
        tenant: str | None = None,
        trace_out: str | Path | None = None,
        trace: TraceRecorder | None = None,
    ) -> GatedAnswer:
        """Run the loop. The trace goes to ``trace_out``, else ``<store>/traces/<run_id>.jsonl``."""
        if not question.strip():
            raise UsageError("the question is empty")
        as_of = as_of or dt.date.today()
        recorder = trace
        if recorder is None:
            run_id = uuid.uuid4().hex
            path = (
                Path(trace_out)
                if trace_out
                else self.store.directory / "traces" / f"{run_id}.jsonl"
            )
            recorder = TraceRecorder(path, run_id=run_id)
        with recorder:
            return self.controller.run(
                question, as_of=as_of, trace=recorder, run_id=recorder.run_id, tenant=tenant
            )

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> EvidenceGate:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
