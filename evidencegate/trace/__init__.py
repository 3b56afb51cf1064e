"""The trace: every event of a run as a hash-chained, append-only JSONL file.

``events`` defines what is recorded, ``chain`` how lines are encoded, linked, read back and
verified, ``anchor`` how a run's head is anchored outside the file, ``recorder`` writes them.
``verify_trace`` tells an intact trace from a tampered one. This package is the format only;
what reads or watches traces (replay, drift, the run index, reports, telemetry) is
:mod:`evidencegate.audit`.
"""

from evidencegate.trace.chain import (
    GENESIS_HASH,
    ChainReport,
    read_trace,
    verify_trace,
)
from evidencegate.trace.recorder import TraceRecorder

__all__ = [
    "GENESIS_HASH",
    "ChainReport",
    "TraceRecorder",
    "read_trace",
    "verify_trace",
]
