"""canonical_json: the fast writer gives RFC 8785's bytes, and refuses what JCS refuses."""

from __future__ import annotations

from typing import Any

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from evidencegate.canonical import canonical_json

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**60), 2**60),
    st.text(st.characters(codec="utf-8"), max_size=20),
    st.text(alphabet=st.sampled_from('"\\\x00\x01\x08\x0c\x1f\x7f\u2028é😀 aZ'), max_size=12),
    st.floats(allow_nan=False, allow_infinity=False),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


class TestCanonicalJson:
    @given(value=values)
    def test_bytes_equal_rfc8785(self, value: Any) -> None:
        """On any JSON value JCS can write, the bytes are rfc8785's; otherwise both refuse."""
        try:
            expected = rfc8785.dumps(value)
        except ValueError:
            with pytest.raises(ValueError):
                canonical_json(value)
            return
        assert canonical_json(value) == expected

    def test_a_lone_surrogate_is_refused(self) -> None:
        """A text JCS cannot encode raises ValueError, as before the fast path."""
        with pytest.raises(ValueError):
            canonical_json({"text": "\ud800"})

    def test_an_integer_beyond_2_53_is_refused(self) -> None:
        """Integers JCS cannot represent exactly are refused, not written by json."""
        with pytest.raises(ValueError):
            canonical_json({"n": 2**53})
