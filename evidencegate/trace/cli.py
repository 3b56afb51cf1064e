"""``evidencegate verify TRACE [--json]``: check a trace's hash chain from the command line."""

from __future__ import annotations

import dataclasses
import json
import sys

from evidencegate.trace.chain import verify_trace

__all__ = ["run_verify"]


def run_verify(path: str, *, as_json: bool = False) -> int:
    """Verify the trace at ``path`` and print the result.

    Returns 0 when the chain is intact, 1 when it is broken (``TAMPERED at seq K: reason``)
    and 2 when the file cannot be read (``error: ...`` on stderr). With ``as_json`` the
    :class:`~evidencegate.trace.chain.ChainReport` is printed as one JSON object instead.
    """
    try:
        report = verify_trace(path)
    except OSError as exc:
        print(f"error: cannot read trace {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps({"path": path, **dataclasses.asdict(report)}, sort_keys=True))
    elif report.ok:
        state = "complete" if report.complete else "incomplete: no run_end"
        print(f"ok: {report.lines} lines, chain intact ({state})")
    else:
        print(f"TAMPERED at seq {report.first_bad_seq}: {report.reason}")
    return 0 if report.ok else 1
