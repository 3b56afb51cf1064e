"""Property-based fuzzing of every input boundary: no traceback, a clear error, nothing changed.

Bounded for CI by the hypothesis profile in conftest.py (``ci``: a fixed number of examples per
test, derandomised, no example database). ``HYPOTHESIS_PROFILE=deep`` runs many more locally.
Each test counts the examples it ran in ``EXAMPLES``; pytest's summary prints the counts.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import COUNTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_corpus_ingest import make_pdf

from evidencegate.cli import main
from evidencegate.cli.trace import run_verify
from evidencegate.corpus import IngestOptions, Store
from evidencegate.corpus.ingest import parse_date
from evidencegate.exceptions import PolicyError, TraceFormatError, UsageError
from evidencegate.policy import Policy, load_policy
from evidencegate.trace.chain import read_trace, verify_trace

EXAMPLES: Counter[str] = COUNTS["fuzz examples"]
"""Examples run per fuzz test in this session (printed in pytest's terminal summary)."""

_FIXTURES = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
_POLICY_FIELDS = sorted(Policy.model_fields)
_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
_JSON = st.recursive(
    _JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_HOSTILE_TEXT = st.text(
    st.characters(codec=None, exclude_categories=()),  # every code point, lone surrogates too
    max_size=60,
)


_RECORD_FIELDS = ["doc_id", "version", "version_date", "authority", "text", "label", "tenant"]


def _encode(text: str) -> bytes:
    """UTF-8, lone surrogates included as their (invalid) three-byte forms."""
    return text.encode("utf-8", "surrogatepass")


@pytest.fixture(scope="module")
def store_dir(module_example_store_dir: Path) -> Path:
    """The module's copy of the example store."""
    return module_example_store_dir


def snapshot(directory: Path) -> list[str]:
    """Every row of the store, over a separate read-only connection."""
    uri = f"file:{directory / 'evidencegate.sqlite3'}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        return list(db.iterdump())


@contextlib.contextmanager
def quiet() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        yield out, err


class TestPolicyLoaderFuzz:
    @_FIXTURES
    @given(
        fields=st.dictionaries(st.sampled_from(_POLICY_FIELDS), _JSON, max_size=4),
        extra=st.dictionaries(st.text(max_size=8), _JSON, max_size=1),
    )
    def test_any_mapping_is_a_policy_or_a_policy_error(
        self, fields: dict[str, Any], extra: dict[str, Any]
    ) -> None:
        """Any mapping of policy fields to JSON values loads or raises PolicyError, nothing else."""
        EXAMPLES["policy mappings"] += 1
        try:
            policy = load_policy({**extra, **fields})
        except PolicyError as exc:
            assert str(exc) and "\n" not in str(exc)  # one line, whatever the keys hold
        else:
            policy.sha256()  # a loaded policy always has a canonical hash

    @_FIXTURES
    @given(
        content=st.binary(max_size=200)
        | _HOSTILE_TEXT.map(lambda t: t.encode("utf-8", "surrogatepass"))
    )
    def test_any_file_content_is_a_policy_or_a_policy_error(
        self, tmp_path: Path, content: bytes
    ) -> None:
        """Any bytes in a policy file load or raise PolicyError; never another exception."""
        EXAMPLES["policy files"] += 1
        path = tmp_path / "fuzz.yaml"
        path.write_bytes(content)
        try:
            load_policy(path)
        except PolicyError as exc:
            assert str(exc)


class TestIngestFuzz:
    @_FIXTURES
    @given(
        lines=st.lists(
            st.one_of(
                st.dictionaries(
                    st.sampled_from(
                        [
                            "doc_id",
                            "version",
                            "version_date",
                            "authority",
                            "text",
                            "label",
                            "tenant",
                        ]
                    ),
                    _JSON,
                    max_size=7,
                ).map(json.dumps),
                _HOSTILE_TEXT,
            ),
            min_size=1,
            max_size=4,
        )
    )
    def test_any_jsonl_is_stored_whole_or_refused_leaving_the_store_unchanged(
        self, store_dir: Path, tmp_path: Path, lines: list[str]
    ) -> None:
        """A JSONL file of random records is stored or refused with an IngestError; a refusal
        leaves every row of the store as it was."""
        EXAMPLES["jsonl files"] += 1
        path = tmp_path / "fuzz.jsonl"
        path.write_bytes(_encode("\n".join(lines)))
        before = snapshot(store_dir)
        with Store.open(store_dir) as store:
            try:
                store.ingest([path])
            except UsageError as exc:
                assert str(exc)
                assert snapshot(store_dir) == before

    @_FIXTURES
    @given(
        cut=st.integers(min_value=0, max_value=2000),
        flips=st.lists(
            st.tuples(st.integers(min_value=0, max_value=2000), st.integers(0, 255)), max_size=6
        ),
    )
    def test_any_damaged_pdf_is_stored_or_refused_leaving_the_store_unchanged(
        self, store_dir: Path, tmp_path: Path, cut: int, flips: list[tuple[int, int]]
    ) -> None:
        """A PDF truncated or with random bytes changed is stored or refused with an error
        naming the file; a refusal leaves the store unchanged."""
        EXAMPLES["damaged pdfs"] += 1
        data = bytearray(make_pdf(["Gift limits are set by policy 7.", "Page two text."]))
        for offset, value in flips:
            data[offset % len(data)] = value
        path = tmp_path / "fuzz.pdf"
        path.write_bytes(bytes(data[: max(cut, 1)] if cut < len(data) else data))
        before = snapshot(store_dir)
        options = IngestOptions(
            doc_id=f"FUZZ-{EXAMPLES['damaged pdfs']}",
            version="1",
            version_date=dt.date(2020, 1, 1),
            authority="primary",
        )
        with Store.open(store_dir) as store:
            try:
                store.ingest([path], options)
            except UsageError as exc:
                assert "fuzz.pdf" in str(exc)
                assert snapshot(store_dir) == before


class TestQuestionFuzz:
    @settings(  # each example is a whole run: half the profile's examples
        max_examples=max(settings().max_examples // 2, 1),
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(question=_HOSTILE_TEXT)
    def test_any_question_is_answered_or_refused_cleanly(
        self, store_dir: Path, tmp_path: Path, question: str
    ) -> None:
        """Any question (controls, lone surrogates, NUL) exits 0, or 2 exactly when it is blank
        or is not valid text (a lone surrogate, NUL), with no traceback; on 2 no trace is written;
        the store is never changed; the output has no control character."""
        EXAMPLES["questions"] += 1
        trace = tmp_path / f"q{EXAMPLES['questions']}.jsonl"
        before = snapshot(store_dir)
        with quiet() as (out, err):
            code = main(
                [
                    "ask",
                    "--store",
                    str(store_dir),
                    "--as-of",
                    "2024-06-01",
                    "--trace-out",
                    str(trace),
                    "--",  # a question may start with '-'
                    question,
                ]
            )
        refused = not question.strip() or any(
            ch == "\x00" or 0xD800 <= ord(ch) <= 0xDFFF for ch in question
        )
        assert code == (2 if refused else 0)
        assert trace.exists() == (code == 0)
        assert snapshot(store_dir) == before
        for stream in (out.getvalue(), err.getvalue()):
            assert not any(ord(ch) < 32 and ch != "\n" for ch in stream)
            assert "\x1b" not in stream and "Traceback" not in stream


class TestAsOfFuzz:
    @_FIXTURES
    @given(value=_HOSTILE_TEXT | st.dates().map(dt.date.isoformat))
    def test_as_of_is_a_yyyy_mm_dd_date_or_a_clear_error(self, value: str) -> None:
        """parse_date accepts exactly YYYY-MM-DD in ASCII digits and refuses anything else."""
        EXAMPLES["as-of values"] += 1
        try:
            day = parse_date(value)
        except ValueError as exc:
            assert "expected a date YYYY-MM-DD" in str(exc)
        else:
            assert day.isoformat() == value.strip()

    @settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(value=_HOSTILE_TEXT.filter(lambda v: not v.startswith("-")))
    def test_cli_as_of_refuses_with_exit_2(self, store_dir: Path, value: str) -> None:
        """A malformed --as-of makes argparse exit 2 before anything runs."""
        EXAMPLES["cli as-of values"] += 1
        try:
            parse_date(value)
        except ValueError:
            with quiet() as (_, err), pytest.raises(SystemExit) as info:
                main(["ask", "gift?", "--store", str(store_dir), "--as-of", value])
            assert info.value.code == 2
            assert "is not a date (YYYY-MM-DD)" in err.getvalue()


@pytest.fixture(scope="module")
def recorded_trace(store_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    trace = tmp_path_factory.mktemp("trace") / "run.jsonl"
    with quiet():
        question = "What is the maximum value of a gift an employee may accept?"
        assert main(["ask", question, "--store", str(store_dir), "--trace-out", str(trace)]) == 0
    return trace.read_bytes()


class TestTraceReaderFuzz:
    @_FIXTURES
    @given(data=st.data())
    def test_damaged_trace_is_refused_or_a_prefix_of_the_original(
        self, recorded_trace: bytes, tmp_path: Path, data: st.DataObject
    ) -> None:
        """A trace with bytes changed, lines dropped, swapped or duplicated, or cut anywhere is
        reported (never raises), and whatever verifies is a prefix of the original lines."""
        EXAMPLES["damaged traces"] += 1
        lines = recorded_trace.splitlines(keepends=True)
        kind = data.draw(st.sampled_from(["flip", "drop", "swap", "dup", "cut", "junk"]))
        if kind == "flip":
            raw = bytearray(recorded_trace)
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]))
            damaged = bytes(raw)
        elif kind == "cut":
            damaged = recorded_trace[: data.draw(st.integers(0, len(recorded_trace) - 1))]
        elif kind == "junk":
            damaged = data.draw(st.binary(max_size=300))
        else:
            i = data.draw(st.integers(0, len(lines) - 1))
            j = data.draw(st.integers(0, len(lines) - 1))
            edited = list(lines)
            if kind == "drop":
                del edited[i]
            elif kind == "swap":
                edited[i], edited[j] = edited[j], edited[i]
            else:
                edited.insert(i, lines[j])
            damaged = b"".join(edited)
        path = tmp_path / "damaged.jsonl"
        path.write_bytes(damaged)
        report = verify_trace(path)
        try:
            accepted = read_trace(path)
        except TraceFormatError:
            assert not report.ok
        else:
            assert report.ok
            original = [line.hash for line in read_trace_bytes(recorded_trace, tmp_path)]
            assert [line.hash for line in accepted] == original[: len(accepted)]
        with quiet():
            assert run_verify(str(path)) == (0 if report.ok else 1)


def read_trace_bytes(data: bytes, directory: Path) -> list[Any]:
    path = directory / "original.jsonl"
    path.write_bytes(data)
    return read_trace(path)
