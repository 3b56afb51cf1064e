"""normalize_spans' bulk path for runs of ASCII equals the character-by-character algorithm."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from evidencegate.text import _TYPOGRAPHIC, _ascii_digit, _joins_hyphenated_word, normalize_spans

# Letters, digits, every kind of whitespace and line break, hyphens (visible and soft), the
# percent sign, combining marks, invisible format characters, other scripts' digits,
# compatibility forms, typographic punctuation, ASCII control characters.
_ALPHABET = [
    *"abcXYZ019 -%$.,'",
    *"\n\r\t\x0b\x0c\x1c\x1f\x00\x7f\u0085\u2028\u00a0",
    *"\u00ad\u2010\u0301\u0308\u200b\u202e\u0665\uff21\ufb01\u201c\u2014éİß😀",
]


def reference(text: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """The algorithm one character cluster at a time (as before the bulk path)."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def emit(chars: str, start: int, end: int) -> None:
        for ch in chars:
            if ch.isspace():
                if not out or out[-1] == " ":
                    continue
                ch = " "
            out.append(ch)
            starts.append(start)
            ends.append(end)

    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if _joins_hyphenated_word(text, i, j, out):
                if text[i - 1] != "\u00ad":
                    out.pop()
                    starts.pop()
                    ends.pop()
            elif j < n and text[j] == "%":
                pass
            else:
                emit(" ", i, j)
            i = j
            continue
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        cluster = text[i:j]
        if cluster.isascii():
            emit(cluster.lower(), i, j)
        elif unicodedata.category(ch) != "Cf":
            folded = unicodedata.normalize("NFKC", cluster).translate(_TYPOGRAPHIC).casefold()
            emit("".join(_ascii_digit(c) for c in folded), i, j)
        i = j
    if out and out[-1] == " ":
        out.pop()
        starts.pop()
        ends.pop()
    return "".join(out), tuple(starts), tuple(ends)


class TestNormalizeSpans:
    @given(st.lists(st.sampled_from(_ALPHABET), max_size=24).map("".join))
    def test_equals_the_character_by_character_algorithm(self, text: str) -> None:
        """Text, starts and ends equal the per-character algorithm's on mixed-script input."""
        assert normalize_spans.__wrapped__(text) == reference(text)

    def test_ascii_letter_before_a_combining_mark_is_one_cluster(self) -> None:
        """An ASCII run stops before a letter a combining mark follows: "Cafe\u0301" is "café"."""
        text, starts, ends = normalize_spans.__wrapped__("Cafe\u0301 X")
        assert text == "café x"
        assert (starts[3], ends[3]) == (3, 5)
