"""Applications of the trace: what reads or watches a recorded run.

Import from the modules (this package imports nothing itself, so that importing one module does
not load the engine):

- :mod:`~evidencegate.audit.replay`: re-run a trace on its recorded outputs and compare;
- :mod:`~evidencegate.audit.drift`: re-resolve a recorded answer's citations against the store;
- :mod:`~evidencegate.audit.index`: the runs recorded in a store (``evidencegate traces``);
- :mod:`~evidencegate.audit.report`: the reviewer's self-contained HTML report of one run;
- :mod:`~evidencegate.audit.tee`, :mod:`~evidencegate.audit.otel`,
  :mod:`~evidencegate.audit.logs`: observers of a live run (fan-out, OpenTelemetry spans,
  one JSON log line per event).

The trace format itself (events, hash chain, recorder, reader) is :mod:`evidencegate.trace`.
"""
