"""Temporary re-export for ``loop/controller.py`` only: the judges' models are
:mod:`evidencegate.judgements`.

The "loop" branch rewrites ``loop/controller.py`` so that it no longer imports ``judges``; until
it is merged the controller still imports these three names from here. Delete this module with
the matching entry of ``KNOWN_EXCEPTIONS`` in :mod:`evidencegate.devtools.layers` when merging.
"""

from evidencegate.judgements import AnswerScore, Route, TriadResult

__all__ = ["AnswerScore", "Route", "TriadResult"]
