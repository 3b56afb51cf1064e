"""``evidencegate verify TRACE [--json] [--anchor LOG]``: check a trace's chain and its anchor."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from evidencegate.exceptions import UsageError
from evidencegate.trace.anchor import ANCHOR_LOG, AnchorCheck, check_anchor, load_key
from evidencegate.trace.chain import read_trace, verify_trace
from evidencegate.userio import terminal_safe

__all__ = ["add_verify_arguments", "run_verify", "verify_with_anchor"]


def add_verify_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``verify``."""
    parser.add_argument("trace", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--anchor",
        type=Path,
        default=None,
        help="anchor log to check the trace's head against; the run must be anchored in it "
        "(default: the anchors.log beside the trace, checked when it anchors the run)",
    )


def verify_with_anchor(
    path: str | Path, *, anchor: Path | None = None
) -> tuple[bool, str, dict[str, object]]:
    """Check the chain of the trace at ``path`` and, when there is one, its anchor.

    Returns (ok, one human-readable line, the JSON-able details). ``anchor`` names the anchor
    log and makes an anchor mandatory (an unanchored run fails); without it the ``anchors.log``
    beside the trace is checked when it anchors the run. The key for anchor MACs comes from
    the environment (:func:`~evidencegate.trace.anchor.load_key`). Raises ``OSError`` when
    the trace or the log cannot be read, UsageError for a bad key.
    """
    report = verify_trace(path)
    details: dict[str, object] = {"path": str(path), **dataclasses.asdict(report)}
    if not report.ok:
        line = f"TAMPERED at seq {report.first_bad_seq}: {report.reason}"
        return False, line, details
    lines = read_trace(path)  # the chain is intact: its head is the last line's hash
    check: AnchorCheck = check_anchor(
        lines[0].run_id,
        len(lines),
        lines[-1].hash,
        log=anchor if anchor is not None else Path(path).parent / ANCHOR_LOG,
        key=load_key(),
    )
    ok = check.ok and not (anchor is not None and check.status == "unanchored")
    details["anchor"] = {"status": check.status, "detail": check.detail, "log": check.log}
    details["ok"] = ok
    if not check.ok:
        return False, f"TAMPERED: {check.detail}", details
    if not ok:
        return False, f"NOT ANCHORED: {check.detail}", details
    state = "complete" if report.complete else "incomplete: no run_end"
    anchored = "" if check.status == "unanchored" else f"; {check.detail}"
    return True, f"ok: {report.lines} lines, chain intact ({state}){anchored}", details


def run_verify(path: str, *, as_json: bool = False, anchor: Path | None = None) -> int:
    """Verify the trace at ``path`` (and its anchor) and print the result.

    Returns 0 when the chain is intact and matches its anchor, 1 when the chain is broken or
    the trace does not match its anchor (``TAMPERED ...``; with ``anchor``, also when the run
    is not anchored) and 2 when a file cannot be read (``error: ...`` on stderr). With
    ``as_json`` the chain report with an ``anchor`` object is printed as one JSON object.
    """
    try:
        ok, line, details = verify_with_anchor(path, anchor=anchor)
    except OSError as exc:
        what = "anchor log" if exc.filename and str(exc.filename) != str(path) else "trace"
        where = terminal_safe(exc.filename or path)
        reason = terminal_safe(exc.strerror or exc)
        print(f"error: cannot read {what} {where}: {reason}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"error: {terminal_safe(exc)}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(details, sort_keys=True))
    else:
        print(terminal_safe(line))
    return 0 if ok else 1
