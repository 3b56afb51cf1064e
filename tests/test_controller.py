"""The loop controller with scripted components: fail-closed behaviour, stops, separation."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

import pytest

from evidencegate import EvidenceGate, Store
from evidencegate.contracts import (
    Arm,
    Citation,
    Claim,
    CriticAudit,
    CriticSufficiency,
    Draft,
    GatedAnswer,
    Outcome,
    Passage,
    StopReason,
    Verdict,
)
from evidencegate.critique.rules import RulesCritic
from evidencegate.exceptions import ConfigurationError
from evidencegate.generation.extractive import ExtractiveGenerator
from evidencegate.loop.controller import LoopController
from evidencegate.policy import Policy
from evidencegate.testing import InMemoryCorpus, ScriptedGenerator, capture_trace
from evidencegate.trace.events import DraftEvent, SufficiencyEvent
from evidencegate.verify.verifier import Verifier

AS_OF = dt.date(2024, 6, 1)
V1 = (
    "Employees may accept a gift with a value of up to $100 per giver per calendar year. "
    "Employees must not accept cash or cash equivalents from any customer."
)
V2 = (
    "Employees may accept a gift with a value of up to $150 per giver per calendar year. "
    "Employees must not accept cash or cash equivalents from any customer."
)
FAQ = "Staff may accept gifts worth up to $250 from each customer, says the training deck."
QUESTION = "What is the maximum value of a gift an employee may accept?"


@pytest.fixture
def corpus() -> InMemoryCorpus:
    c = InMemoryCorpus()
    c.add("GIFTS", "2022.1", dt.date(2022, 1, 1), [V1])
    c.add("GIFTS", "2024.1", dt.date(2024, 3, 1), [V2])
    c.add("FAQ", "1", dt.date(2023, 1, 1), [FAQ], authority="secondary")
    return c


def controller(
    corpus: InMemoryCorpus,
    *,
    generator: object | None = None,
    critic: object | None = None,
    policy: Policy | None = None,
    clock: object | None = None,
) -> LoopController:
    policy = policy or Policy()
    kwargs = {"clock": clock} if clock else {}
    return LoopController(
        retriever=corpus,
        verifier=Verifier.from_policy(corpus, policy),
        generator=generator or ExtractiveGenerator(),  # type: ignore[arg-type]
        critic=critic or RulesCritic(),  # type: ignore[arg-type]
        policy=policy,
        **kwargs,  # type: ignore[arg-type]
    )


def fabricated(text: str, quote: str, *, doc: str = "GIFTS", version: str = "2024.1") -> Draft:
    return Draft(
        claims=[
            Claim(
                claim_id="c1",
                text=text,
                citations=[Citation(doc_id=doc, version=version, page=1, quote=quote)],
            )
        ]
    )


class ApprovingCritic(RulesCritic):
    """A critic that approves everything: the verifier must still overrule it."""

    component_id = "critic:approving@test"

    def audit(self, question, claims, verifications, evidence, *, as_of, required_facts):  # type: ignore[no-untyped-def,override]
        real = super().audit(
            question, claims, verifications, evidence, as_of=as_of, required_facts=required_facts
        )
        approved = [a.model_copy(update={"verdict": Verdict.SUPPORTED}) for a in real.claims]
        return real.model_copy(update={"claims": approved, "coverage": 1.0, "contract_met": True})


class SpyCritic(RulesCritic):
    """Records what each phase was shown."""

    component_id = "critic:spy@test"

    def __init__(self) -> None:
        super().__init__()
        self.phase1_inputs: list[tuple[str, list[Passage]]] = []

    def sufficiency(
        self, question: str, evidence: Sequence[Passage], *, as_of: dt.date
    ) -> CriticSufficiency:
        self.phase1_inputs.append((question, list(evidence)))
        return super().sufficiency(question, evidence, as_of=as_of)


class BrokenAuditCritic(RulesCritic):
    """Returns an audit that judges claims the draft does not have."""

    component_id = "critic:broken@test"

    def audit(self, question, claims, verifications, evidence, *, as_of, required_facts):  # type: ignore[no-untyped-def,override]
        return CriticAudit(claims=[], coverage=1.0, contract_met=True)


class CrashingGenerator(ExtractiveGenerator):
    component_id = "generator:crash@test"

    def draft(self, *args: object, **kwargs: object) -> Draft:  # type: ignore[override]
        raise RuntimeError("model server went away")


class TestGatedRun:
    def test_current_version_answered(self, corpus: InMemoryCorpus) -> None:
        """The in-force version's figure is answered with a verified citation."""
        trace = capture_trace()
        answer = controller(corpus).run(QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id)
        assert answer.outcome is Outcome.ANSWERED
        assert answer.stop_reason is StopReason.CONTRACT_MET
        assert (
            "$150" in answer.answer and "$100" not in answer.answer and "$250" not in answer.answer
        )
        cite = answer.claims[0].citations[0]
        assert (cite.doc_id, cite.version) == ("GIFTS", "2024.1")
        page = corpus.lookup("GIFTS", "2024.1", 1)
        assert page is not None
        assert page.page.text[cite.char_start : cite.char_end] == cite.quote  # type: ignore[misc]

    def test_stale_version_as_of_earlier_date(self, corpus: InMemoryCorpus) -> None:
        """As of 2023 the superseded version is the one in force, and answered."""
        trace = capture_trace()
        answer = controller(corpus).run(
            QUESTION, as_of=dt.date(2023, 6, 1), trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ANSWERED
        assert "$100" in answer.answer and "$150" not in answer.answer

    def test_sufficiency_never_sees_the_draft(self, corpus: InMemoryCorpus) -> None:
        """Phase 1 gets the question and passages only, and runs before any draft."""
        spy = SpyCritic()
        trace = capture_trace()
        controller(corpus, critic=spy).run(QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id)
        assert spy.phase1_inputs
        for question, passages in spy.phase1_inputs:
            assert question == QUESTION
            assert all(isinstance(p, Passage) for p in passages)
        kinds = [line.event.kind for line in trace.lines]
        assert kinds.index("sufficiency") < kinds.index("draft")
        assert isinstance(trace.lines[kinds.index("sufficiency")].event, SufficiencyEvent)


class TestFailClosed:
    def test_fabricated_quote_overrules_approving_critic(self, corpus: InMemoryCorpus) -> None:
        """A critic approving a fabricated quote is overruled by the verifier: abstained."""
        gen = ScriptedGenerator(
            [
                fabricated(
                    "Employees may accept gifts of up to $500 per giver.",
                    "Employees may accept gifts of up to $500 per giver.",
                )
            ]
        )
        trace = capture_trace()
        answer = controller(corpus, generator=gen, critic=ApprovingCritic()).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.claims == []
        assert "quote_not_found" in answer.dropped_claims[0].reasons

    def test_redact_keeps_only_verified_claims(self, corpus: InMemoryCorpus) -> None:
        """on_fail=redact emits the verified claim and lists the dropped one."""
        good = "Employees may accept a gift with a value of up to $150 per giver per calendar year."
        draft = Draft(
            claims=[
                *fabricated(good, good).claims,
                Claim(
                    claim_id="c2",
                    text="Gifts over $150 need no approval at all.",
                    citations=[
                        Citation(
                            doc_id="GIFTS",
                            version="2024.1",
                            page=1,
                            quote="Gifts over $150 need no approval at all.",
                        )
                    ],
                ),
            ]
        )
        gen = ScriptedGenerator([draft, draft, draft])
        trace = capture_trace()
        answer = controller(corpus, generator=gen, policy=Policy(on_fail="redact")).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.REDACTED
        assert [c.text for c in answer.claims] == [good]
        assert [d.claim_id for d in answer.dropped_claims] == ["c2"]

    def test_secondary_citation_rejected(self, corpus: InMemoryCorpus) -> None:
        """A claim citing the secondary FAQ is never emitted."""
        gen = ScriptedGenerator(
            [fabricated("Staff may accept gifts worth up to $250.", FAQ, doc="FAQ", version="1")]
            * 2
        )
        trace = capture_trace()
        answer = controller(corpus, generator=gen).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ABSTAINED
        reasons = answer.dropped_claims[0].reasons
        assert "not_retrieved" in reasons or "authority_not_allowed" in reasons

    def test_invalid_audit_ends_abstained(self, corpus: InMemoryCorpus) -> None:
        """An audit that does not judge the drafted claims is critic_invalid, abstained."""
        trace = capture_trace()
        answer = controller(corpus, critic=BrokenAuditCritic()).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.CRITIC_INVALID

    def test_crashing_component_ends_abstained(self, corpus: InMemoryCorpus) -> None:
        """A component raising is recorded and ends abstained, never answered."""
        trace = capture_trace()
        answer = controller(corpus, generator=CrashingGenerator()).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.COMPONENT_ERROR
        assert any(line.event.kind == "component_failed" for line in trace.lines)

    def test_time_budget_exhausted(self, corpus: InMemoryCorpus) -> None:
        """A run past its time budget stops with budget_time and abstains."""
        ticks = iter(range(0, 10_000, 100))
        trace = capture_trace()
        policy = Policy(time_budget={"per_call_s": 1, "per_run_s": 50})  # type: ignore[arg-type]
        answer = controller(corpus, policy=policy, clock=lambda: float(next(ticks))).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert answer.stop_reason is StopReason.BUDGET_TIME
        assert any("time_budget.per_run_s=50" in g for g in answer.gaps)

    def test_unanswerable_year_abstains_with_gap(self, corpus: InMemoryCorpus) -> None:
        """A year no version covers ends abstained and names the year as the gap."""
        trace = capture_trace()
        answer = controller(corpus).run(
            "What is the maximum gift value for 2031?",
            as_of=AS_OF,
            trace=trace,
            run_id=trace.run_id,
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert any("2031" in g for g in answer.gaps)
        assert answer.stop_reason in {StopReason.NO_NEW_SOURCE, StopReason.MAX_PASSES}

    def test_regenerate_then_max_passes(self, corpus: InMemoryCorpus) -> None:
        """Unsupported drafts are regenerated up to max_passes, then the run stops."""
        bad = fabricated("Gifts of $999 are fine.", "Gifts of $999 are fine, says nobody at all.")
        gen = ScriptedGenerator([bad, bad, bad])
        trace = capture_trace()
        answer = controller(corpus, generator=gen, policy=Policy(max_passes=1)).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        assert answer.stop_reason is StopReason.MAX_PASSES
        assert answer.passes == 2
        assert len([ln for ln in trace.lines if isinstance(ln.event, DraftEvent)]) == 2


class TestSeparateCritic:
    def test_same_component_refused(self, corpus: InMemoryCorpus) -> None:
        """A critic with the generator's id is a configuration error before any call."""
        critic = RulesCritic()
        critic.component_id = ExtractiveGenerator.component_id  # type: ignore[misc]
        with pytest.raises(ConfigurationError, match="same component"):
            controller(corpus, critic=critic)

    def test_same_component_allowed_is_traced(self, corpus: InMemoryCorpus) -> None:
        """allow_same_model_critic with a stated reason lets it run, and the trace records the
        reason."""
        critic = RulesCritic()
        critic.component_id = ExtractiveGenerator.component_id  # type: ignore[misc]
        trace = capture_trace()
        policy = Policy(allow_same_model_critic=True, same_model_critic_reason="audited setup")
        controller(corpus, critic=critic, policy=policy).run(
            QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id
        )
        start = trace.lines[0].event
        assert start.kind == "run_start"
        assert start.components["same_model_critic"] == "audited setup"  # type: ignore[union-attr]


class TestAblationArms:
    FABRICATED = "Employees may accept gifts of up to $500 per giver per calendar year."

    def run(self, corpus: InMemoryCorpus, arm: Arm) -> GatedAnswer:
        gen = ScriptedGenerator([fabricated(self.FABRICATED, self.FABRICATED)] * 3)
        trace = capture_trace()
        ctl = LoopController(
            retriever=corpus,
            verifier=Verifier.from_policy(corpus, Policy()),
            generator=gen,
            critic=RulesCritic(),
            policy=Policy(),
            arm=arm,
        )
        return ctl.run(QUESTION, as_of=AS_OF, trace=trace, run_id=trace.run_id)

    def test_baseline_emits_the_fabrication_ungated(self, corpus: InMemoryCorpus) -> None:
        """Without reflection the fabricated claim is emitted, marked ungated."""
        answer = self.run(corpus, Arm.BASELINE)
        assert answer.outcome is Outcome.UNGATED
        assert answer.stop_reason is StopReason.NO_REFLECTION
        assert "$500" in answer.answer

    def test_self_critique_cannot_see_a_fabricated_quote(self, corpus: InMemoryCorpus) -> None:
        """A critic that sees only the draft approves a claim matching its own fake quote."""
        answer = self.run(corpus, Arm.SELF_CRITIQUE)
        assert answer.outcome is Outcome.UNGATED
        assert "$500" in answer.answer

    @pytest.mark.parametrize("arm", [Arm.GROUNDED, Arm.GROUNDED_FOLLOWUP])
    def test_grounded_arms_refuse_it(self, corpus: InMemoryCorpus, arm: Arm) -> None:
        """With the verifier and the evidence the fabricated claim is never emitted."""
        answer = self.run(corpus, arm)
        assert answer.outcome is Outcome.ABSTAINED
        assert "$500" not in " ".join(c.text for c in answer.claims)

    def test_grounded_never_follows_up(self, corpus: InMemoryCorpus) -> None:
        """The grounded arm does no follow-up retrieval, even when a gap is named."""
        trace = capture_trace()
        ctl = LoopController(
            retriever=corpus,
            verifier=Verifier.from_policy(corpus, Policy()),
            generator=ExtractiveGenerator(),
            critic=RulesCritic(),
            policy=Policy(),
            arm=Arm.GROUNDED,
        )
        ctl.run("What is the maximum gift value for 2031?", as_of=AS_OF, trace=trace, run_id="r")
        kinds = [ln.event.kind for ln in trace.lines]
        assert kinds.count("retrieval") == 1


class TestOnFail:
    def test_annotate_adds_disclaimer_by_coverage(self, corpus: InMemoryCorpus) -> None:
        """on_fail=annotate emits verified claims with the disclaimer its coverage earns."""
        trace = capture_trace()
        policy = Policy(on_fail="annotate")
        answer = controller(corpus, policy=policy).run(
            "What is the maximum gift value for 2031?", as_of=AS_OF, trace=trace, run_id="r"
        )
        assert answer.outcome is Outcome.ANSWERED_WITH_DISCLAIMER
        assert 0.6 <= answer.coverage < 0.8
        assert answer.disclaimer == policy.disclaimers.caution_text
        assert any("2031" in g for g in answer.gaps)
        assert all(c.citations[0].char_start is not None for c in answer.claims)

    def test_annotate_low_coverage_gets_insufficient_text(self, corpus: InMemoryCorpus) -> None:
        """Below caution_at the stronger 'insufficient evidence' disclaimer is used."""
        trace = capture_trace()
        policy = Policy(
            on_fail="annotate",
            disclaimers={"none_at": 0.95, "caution_at": 0.9},  # type: ignore[arg-type]
        )
        answer = controller(corpus, policy=policy).run(
            "What is the maximum gift value for 2031?", as_of=AS_OF, trace=trace, run_id="r"
        )
        assert answer.disclaimer == policy.disclaimers.insufficient_text

    def test_abstain_names_gaps(self, corpus: InMemoryCorpus) -> None:
        """The default on_fail abstains and the answer text names the gaps."""
        trace = capture_trace()
        answer = controller(corpus).run(
            "What is the maximum gift value for 2031?", as_of=AS_OF, trace=trace, run_id="r"
        )
        assert answer.outcome is Outcome.ABSTAINED
        assert "2031" in answer.answer


class TestTenants:
    def test_verifier_reads_the_runs_tenant(self, tmp_path: Path) -> None:
        """A run for tenant B quotes and verifies B's text, never the default tenant's."""
        for tenant, limit in (("default", "$100"), ("bank-b", "$400")):
            doc = tmp_path / f"{tenant}.md"
            doc.write_text(
                "---\ndoc_id: GIFTS\nversion: '1'\nversion_date: 2024-01-01\n"
                f"authority: primary\ntenant: {tenant}\n---\n"
                f"Employees may accept a gift with a value of up to {limit} per giver per year.\n"
            )
        with Store.open(tmp_path / "store") as store:
            store.ingest([tmp_path / "default.md", tmp_path / "bank-b.md"])
            gate = EvidenceGate(store)
            answer = gate.ask(QUESTION, as_of=AS_OF, tenant="bank-b", trace_out=tmp_path / "t")
        assert answer.outcome is Outcome.ANSWERED, answer.gaps
        assert "$400" in answer.answer and "$100" not in answer.answer


class TestStateMachine:
    def test_a_bug_in_the_loop_raises(
        self, corpus: InMemoryCorpus, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An error in the loop's own logic is not turned into component_error: it raises."""

        def broken(situation: object) -> object:
            raise ZeroDivisionError("bug in decide")

        monkeypatch.setattr("evidencegate.loop.controller.decide", broken)
        with pytest.raises(ZeroDivisionError, match="bug in decide"):
            controller(corpus).run(QUESTION, as_of=AS_OF, trace=capture_trace(), run_id="r")

    def test_judges_on_without_judges_refused(self, corpus: InMemoryCorpus) -> None:
        """A policy turning on the triad needs judges passed in: a configuration error says how."""
        with pytest.raises(ConfigurationError, match=r"JudgePanel\.for_policy"):
            controller(corpus, policy=Policy(judges={"triad": True}))  # type: ignore[arg-type]

    def test_passes_counted_by_the_budget(self, corpus: InMemoryCorpus) -> None:
        """A run regenerating until max_passes reports the passes its usage counted."""
        bad = fabricated("Gifts up to $999 are fine.", "Gifts up to $999 are fine.")
        policy = Policy(max_passes=2)
        ctl = controller(corpus, generator=ScriptedGenerator([bad, bad, bad]), policy=policy)
        answer = ctl.run(QUESTION, as_of=AS_OF, trace=capture_trace(), run_id="r")
        assert answer.stop_reason is StopReason.MAX_PASSES
        assert answer.passes == 3  # the draft and max_passes=2 reflection passes
