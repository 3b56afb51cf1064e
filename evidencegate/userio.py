"""The boundary between a user's terminal and the package: text in, text out.

In: :func:`cli_text` is the one decoding check for text that arrives from the command line or
from a file the user names. Python decodes ``argv`` with ``surrogateescape``, so a byte that is
not UTF-8 arrives as a lone surrogate (``\\udcff``) that no JSON encoder, trace or store accepts;
it is refused here, naming the argument and the byte, before anything runs or is written.

Progress: :class:`ProgressBar`, the one progress bar (ingest, judge-bench, ablate).

Out: :func:`terminal_safe` is the one rendering function for every human-facing text output
(``ask``, ``traces list``, ``report``, ``replay``, ingest summaries, errors). Text from documents
and traces is data, never terminal input: control characters (C0, DEL, C1: ``ESC [2J``, a bell,
a carriage return that overprints a line), bidirectional overrides and other invisible format
characters (which can make ``$100`` display as ``$001``), and lone surrogates are shown as
escapes (``\\x1b``, ``\\u202e``). In a one-line field a newline or tab is escaped too, so a
field can never break a one-line-per-run layout.
"""

from __future__ import annotations

import sys
import threading
import unicodedata
from typing import TextIO

from evidencegate.exceptions import UsageError

__all__ = ["ProgressBar", "cli_text", "terminal_safe"]

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


class ProgressBar:
    """The one progress bar: a line on ``stream`` (stderr by default), redrawn in place on a
    terminal, else written once per tenth done.

    ``unit`` names what is counted and ``error_label`` the errors; ``advance(note=...)`` adds a
    short text after the counts (pages read so far, the last item run), shown through
    :func:`terminal_safe`. Safe to advance from several threads (the ablation runs items
    concurrently).
    """

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        width: int = 30,
        unit: str = "items",
        error_label: str = "judge errors",
    ) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.unit = unit
        self.error_label = error_label
        self.done = 0
        self.errors = 0
        self._tty = self.stream.isatty()
        self._last_decile = -1
        self._longest = 0  # a shorter line is padded to erase the one it redraws
        self._lock = threading.Lock()

    def advance(self, *, error: bool = False, note: str = "") -> None:
        with self._lock:
            self._advance(error=error, note=terminal_safe(note))

    def advance_to(self, done: int, *, note: str = "") -> None:
        """Show ``done`` of the total done (for work that reports a running count)."""
        with self._lock:
            if done > self.done:
                self.done = done - 1
                self._advance(error=False, note=terminal_safe(note))

    def _advance(self, *, error: bool, note: str) -> None:
        self.done += 1
        self.errors += error
        filled = self.width * self.done // self.total if self.total else self.width
        text = (
            f"[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {self.unit}"
            f"{f', {note}' if note else ''}"
            f"{f', {self.errors} {self.error_label}' if self.errors else ''}"
        )
        if self._tty:
            end = "\n" if self.done >= self.total else ""
            self._longest = max(self._longest, len(text))
            self.stream.write(f"\r{text.ljust(self._longest)}{end}")
        else:
            decile = 10 * self.done // self.total if self.total else 10
            if decile == self._last_decile and self.done < self.total:
                return
            self._last_decile = decile
            self.stream.write(text + "\n")
        self.stream.flush()
