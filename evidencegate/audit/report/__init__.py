"""Reports for people: the reviewer's self-contained HTML report of one run."""

from evidencegate.audit.report.html import render_report, write_report

__all__ = ["render_report", "write_report"]
