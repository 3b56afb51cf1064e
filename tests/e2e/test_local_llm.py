"""End to end with real local models behind llama-cpp-python servers (no mocks, no network).

Run by ``.ci/e2e_local_llm.sh``, which builds the server, installs the two models, starts them on
127.0.0.1 and sets ``EVIDENCEGATE_E2E_LLM=1``; skipped otherwise. The policy is
``tests/e2e/local-llm.yaml`` (``EVIDENCEGATE_E2E_POLICY`` may name another).

What is asserted: every run completes with an intact trace that recorded the model calls of both
roles and replays identically; every emitted claim is verified; the unanswerable question
abstains. (Measured: the shipped Gemma 3 270M / SmolLM2-135M pair does not reach a verified
answer under model contract v2; the answered path is shown offline with careful scripted
models in tests/test_model_door.py.)
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from evidencegate.audit.replay import EXIT_IDENTICAL, replay_trace
from evidencegate.components import build_critic, build_generator
from evidencegate.contracts import GatedAnswer, Outcome
from evidencegate.corpus import IngestOptions, Store
from evidencegate.data import data_files
from evidencegate.gate import EvidenceGate
from evidencegate.policy import Policy, load_policy
from evidencegate.protocols import Critic, Generator
from evidencegate.providers.base import close_model
from evidencegate.trace.chain import read_trace, verify_trace
from evidencegate.trace.events import ModelCallEvent
from evidencegate.verify.verifier import Verifier

HERE = Path(__file__).resolve().parent
EXAMPLE = Path(str(data_files() / "example"))
POLICY = Path(os.environ.get("EVIDENCEGATE_E2E_POLICY", HERE / "local-llm.yaml"))
#: Answerable questions (at least one must be answered) and one the corpus cannot answer.
ANSWERABLE = ("ex-009", "ex-010", "ex-013", "ex-011")
UNANSWERABLE = "ex-019"

pytestmark = pytest.mark.skipif(
    os.environ.get("EVIDENCEGATE_E2E_LLM") != "1",
    reason="needs the local model servers: run .ci/e2e_local_llm.sh (EVIDENCEGATE_E2E_LLM=1)",
)


@pytest.fixture(scope="module")
def policy() -> Policy:
    p = load_policy(POLICY)
    for spec in (p.generator, p.critic):
        endpoint = p.endpoints[spec]
        assert endpoint.base_url and endpoint.base_url.startswith("http://127.0.0.1:"), spec
    return p


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("e2e") / "store"
    with Store.open(directory) as store:
        store.ingest(sorted((EXAMPLE / "corpus").glob("*.md")), IngestOptions())
    yield directory


@contextmanager
def components(policy: Policy) -> Iterator[tuple[Generator, Critic]]:
    """The policy's generator and critic; their clients' connections are closed afterwards."""
    generator, critic = build_generator(policy), build_critic(policy)
    try:
        yield generator, critic
    finally:
        close_model(generator)
        close_model(critic)


def golden(item_id: str) -> dict[str, Any]:
    for line in (EXAMPLE / "golden.jsonl").read_text(encoding="utf-8").splitlines():
        item: dict[str, Any] = json.loads(line)
        if item["id"] == item_id:
            return item
    raise LookupError(item_id)


def run_item(policy: Policy, store_dir: Path, item_id: str, trace_path: Path) -> GatedAnswer:
    """Run one golden item over the policy's models and check what holds for every run."""
    item = golden(item_id)
    as_of = dt.date.fromisoformat(item["as_of"])
    with components(policy) as (generator, critic), Store.open(store_dir) as store:
        assert generator.component_id != critic.component_id
        gate = EvidenceGate(store, policy=policy, generator=generator, critic=critic)
        answer = gate.ask(item["question"], as_of=as_of, trace_out=trace_path)
        print(
            f"{item_id}: {answer.outcome.value} ({answer.stop_reason.value}) "
            f"{answer.answer[:160]!r} gaps={answer.gaps}"
        )
        report = verify_trace(trace_path)
        assert report.ok and report.complete, report.reason
        calls = [
            line.event for line in read_trace(trace_path) if isinstance(line.event, ModelCallEvent)
        ]
        assert "critic" in {c.role for c in calls}, "the critic model was never called"
        assert answer.usage.model_calls == len(calls)
        assert answer.outcome is not Outcome.UNGATED
        verifier = Verifier.from_policy(store, policy)
        retrieved = {f"{c.doc_id}@{c.version}" for claim in answer.claims for c in claim.citations}
        for claim in answer.claims:
            check = verifier.verify(claim, as_of=as_of, retrieved=retrieved)
            assert check.ok, (claim, check.reasons)
            for citation in claim.citations:
                assert citation.char_start is not None and citation.char_end is not None
        replayed = replay_trace(trace_path, store)
        assert replayed.exit_code == EXIT_IDENTICAL, replayed.divergence
    return answer


class TestLocalModels:
    @pytest.mark.parametrize("item_id", ANSWERABLE[:1])
    def test_an_answerable_question_emits_only_verified_claims(
        self, item_id: str, policy: Policy, store_dir: Path, tmp_path: Path
    ) -> None:
        """An answerable question over the local models ends answered with verified claims or
        abstained (the shipped 270M/135M models do not yet reach a verified answer: see
        notes); never with an unverified claim."""
        answer = run_item(policy, store_dir, item_id, tmp_path / f"{item_id}.jsonl")
        assert answer.outcome in (Outcome.ANSWERED, Outcome.ABSTAINED), answer.outcome

    def test_the_unanswerable_question_abstains(
        self, policy: Policy, store_dir: Path, tmp_path: Path
    ) -> None:
        """A question the corpus cannot answer ends abstained, with no claim."""
        answer = run_item(policy, store_dir, UNANSWERABLE, tmp_path / "unanswerable.jsonl")
        assert answer.outcome is Outcome.ABSTAINED and answer.claims == []
