"""Fan one run's trace events out to the recorder and to observers (telemetry, logs)."""

from __future__ import annotations

from evidencegate.closing import Closing
from evidencegate.protocols import TraceSink
from evidencegate.trace.events import TraceEvent
from evidencegate.trace.recorder import TraceRecorder

__all__ = ["TeeSink"]


class TeeSink(Closing):
    """A TraceSink that gives every event to ``recorder`` first, then to each observer in order.

    It stands where a :class:`TraceRecorder` stands: ``run_id`` is the recorder's, and using
    it as a context manager closes the recorder and every observer that has a ``close()``
    (an :class:`~evidencegate.audit.otel.OTelSink` ends spans left open by a run that never
    reached ``run_end``). The recorder writes first, so an event is on disk before anyone
    observes it; an error of the recorder or an observer propagates (nothing is swallowed).
    """

    def __init__(self, recorder: TraceRecorder, *observers: TraceSink) -> None:
        self.recorder = recorder
        self.observers = observers

    @property
    def run_id(self) -> str:
        return self.recorder.run_id

    def emit(self, event: TraceEvent) -> None:
        self.recorder.emit(event)
        for observer in self.observers:
            observer.emit(event)

    def close(self) -> None:
        """Close the recorder, then the observers that can be closed."""
        try:
            self.recorder.close()
        finally:
            for observer in self.observers:
                close = getattr(observer, "close", None)
                if callable(close):
                    close()
