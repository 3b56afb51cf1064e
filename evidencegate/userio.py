"""The boundary between a user's terminal and the package: text in, text out.

In: :func:`cli_text` is the one decoding check for text that arrives from the command line or
from a file the user names. Python decodes ``argv`` with ``surrogateescape``, so a byte that is
not UTF-8 arrives as a lone surrogate (``\\udcff``) that no JSON encoder, trace or store accepts;
it is refused here, naming the argument and the byte, before anything runs or is written.

Out: :func:`terminal_safe` is the one rendering function for every human-facing text output
(``ask``, ``traces list``, ``report``, ``replay``, ingest summaries, errors). Text from documents
and traces is data, never terminal input: control characters (C0, DEL, C1: ``ESC [2J``, a bell,
a carriage return that overprints a line), bidirectional overrides and other invisible format
characters (which can make ``$100`` display as ``$001``), and lone surrogates are shown as
escapes (``\\x1b``, ``\\u202e``). In a one-line field a newline or tab is escaped too, so a
field can never break a one-line-per-run layout.
"""

from __future__ import annotations

import unicodedata

from evidencegate.exceptions import UsageError

__all__ = ["cli_text", "terminal_safe"]

_MULTILINE_KEPT = frozenset("\n\t")
"""Layout characters kept as they are when ``one_line=False``."""


def terminal_safe(value: object, *, one_line: bool = True) -> str:
    """``str(value)`` with every character a terminal would act on shown as an escape.

    Escaped: C0 controls, DEL and C1 controls (categories ``Cc``), format characters such as
    bidirectional overrides and zero-width joiners (``Cf``), lone surrogates (``Cs``) and the
    line and paragraph separators (``Zl``, ``Zp``). With ``one_line`` (the default) newlines
    and tabs are escaped as well; otherwise they are kept so a multi-line block keeps its shape.
    Printable text, including non-ASCII letters and digits, passes through unchanged.
    """
    text = value if isinstance(value, str) else str(value)
    if text.isascii() and text.isprintable():  # fast path: nothing to escape
        return text
    out: list[str] = []
    for ch in text:
        if not one_line and ch in _MULTILINE_KEPT:
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch == "\n":
        return "\\n"
    if ch == "\t":
        return "\\t"
    if ch == "\r":
        return "\\r"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def cli_text(value: str, *, what: str) -> str:
    """``value`` when it is valid Unicode text; UsageError naming ``what`` and the bad byte.

    Accepts what ``argv`` decoding produced (``surrogateescape``) or text read from a file with
    ``errors="surrogateescape"``: a lone surrogate stands for an undecodable byte. NUL is refused
    as well: no shell argument carries one, and SQLite and C strings stop at it.
    """
    for index, ch in enumerate(value):
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # surrogateescape's stand-in for one byte
            raise UsageError(
                f"{what} is not valid UTF-8: byte 0x{code - 0xDC00:02x} at character {index} "
                "(re-encode the text as UTF-8)"
            )
        if 0xD800 <= code <= 0xDFFF:
            raise UsageError(
                f"{what} is not valid Unicode: lone surrogate U+{code:04X} at character {index}"
            )
        if ch == "\x00":
            raise UsageError(f"{what} contains a NUL character at character {index}")
    return value
