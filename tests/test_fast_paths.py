"""The fast paths of the ingest code give exactly what the plain definitions give.

Each fast path (whitespace collapsing and format-character removal in the hygiene scan,
canonical JSON without a walk, passage ids written directly) is compared with the plain
definition it replaced, exhaustively over code points where that is cheap and with generated
text otherwise.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evidencegate import hygiene
from evidencegate.canonical import canonical_json, sha256_hex
from evidencegate.corpus import Store
from evidencegate.corpus import ingest as ingest_module
from evidencegate.corpus import store as store_module
from evidencegate.corpus.passages import passage_id
from evidencegate.exceptions import IngestError

_WS = re.compile(r"\s+")
_CF = "".join(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf")

# text mixing what the fast paths treat specially: whitespace of every kind, format
# characters, non-ASCII letters, characters outside the BMP and JSON escapes
_SPECIAL = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u3000\u200b\u200d\ufeff"
_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(_SPECIAL + _CF[:40] + "aZ\"\\'/é\uff29\U0001f600ﬁ\u0130"),
        st.characters(codec="utf-8"),
    ),
    max_size=60,
)


def _normalize_plain(text: str) -> str:
    """The hygiene normalisation as first written (one regular expression per step)."""
    if text.isascii():
        return _WS.sub(" ", text.lower())
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _WS.sub(" ", "".join(c for c in folded if c not in _CF))


def test_whitespace_is_what_the_regex_calls_whitespace() -> None:
    """``str.split`` and ``\\s`` agree on every code point (the collapse relies on it)."""
    for code in range(0x110000):
        char = chr(code)
        assert char.isspace() == bool(_WS.fullmatch(char)), hex(code)
        assert (char.split() == []) == char.isspace(), hex(code)


def test_format_class_is_every_format_character() -> None:
    """The range class matches exactly the characters of category Cf."""
    found = "".join(hygiene._format_chars().findall("".join(map(chr, range(0x110000)))))
    assert found == _CF


@given(_text)
def test_normalize_equals_the_plain_definition(text: str) -> None:
    assert hygiene._normalize(text) == _normalize_plain(text)


def test_normalize_edge_cases() -> None:
    for text in ("", " ", "\n\n", " a ", "a  b\t", "\u200b", "\u3000x\u3000", "A\u00a0B"):
        assert hygiene._normalize(text) == _normalize_plain(text), repr(text)


def _passage_id_plain(
    doc_id: str, version: str, page: int, char_start: int, char_end: int, text: str
) -> str:
    fields = {"doc_id": doc_id, "version": version, "page": page}
    fields |= {"char_start": char_start, "char_end": char_end, "text": text}
    return sha256_hex(canonical_json(fields))[:24]


@given(_text, _text, st.integers(0, 2**60), st.integers(-5, 10**6), _text)
def test_passage_id_equals_the_canonical_json_hash(
    doc_id: str, version: str, page: int, start: int, text: str
) -> None:
    end = start + len(text)
    try:
        expected = _passage_id_plain(doc_id, version, page, start, end, text)
    except ValueError:  # what JCS cannot write (a lone surrogate, a huge integer) stays refused
        with pytest.raises(ValueError):
            passage_id(doc_id, version, page, start, end, text)
        return
    assert passage_id(doc_id, version, page, start, end, text) == expected


def test_passage_id_is_pinned() -> None:
    """One id computed before the direct writing: ids of stored passages never change."""
    assert passage_id("12 CFR 1002", "2011-12-30", 3, 0, 5, "Hello") == "5523396549e8c7941134ed33"


def test_text_ids_are_right_when_sqlite_does_not_count_up(tmp_path: Path) -> None:
    """New texts get the ids SQLite gave them even when it does not give largest + 1 (once
    the largest rowid is taken it picks unused ones at random): they are then looked up."""
    with Store.open(tmp_path / "store") as store, store._db() as db:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO texts (id, sha256, text) VALUES (?, ?, ?)", (2**63 - 1, b"x", "x"))
        strings = ["alpha", "beta", "alpha", "gamma", "x"]
        ids = store_module._intern_texts(db, strings, store_module._Interned())
        for text, row_id in ids.items():
            stored = db.execute("SELECT text FROM texts WHERE id = ?", (row_id,)).fetchone()
            assert stored == (text,)
        assert set(ids) == set(strings)
        db.execute("ROLLBACK")


@pytest.mark.parametrize(
    "line",
    [
        b'{"text": "a", "text": "b"}',
        b'{"text": 1e400}',
        b'{"text": "\\ud800"}',
        b'\xef\xbb\xbf{"text": "bom"}',
        b'{"text": NaN}',
        b'{"text": 123456789012345678901234567890}',
        b'{"text": 12345678901234567890}',
        b'{"text": "x"}\r\n',
        b'{"text": "\\u0000\\u00e9\xc3\xa9"}',
        b'{"text": "\xed\xa0\x80"}',
        b'{"text": "\xff"}',
        b"[1, 2]",
        b"123456789012345678901234567890",
        b'{"text": [1, {"a": 1e400}]}',
        b'{"a": ',
        '{"text": "utf-16"}'.encode("utf-16"),
    ],
)
def test_json_records_read_as_json_reads_them(line: bytes) -> None:
    """A JSONL record is what ``json.loads`` makes of the line, and a refusal is worded alike."""
    where = ingest_module._Where("f.jsonl", 1)
    try:
        expected: object = ingest_module._json_object_plain(line, where)
    except IngestError as exc:
        expected = ("refused", str(exc))
    try:
        got: object = ingest_module._json_object(line, where)
    except IngestError as exc:
        got = ("refused", str(exc))
    assert repr(got) == repr(expected)
