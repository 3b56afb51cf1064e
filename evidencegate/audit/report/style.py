"""The report's inline stylesheet, print rules included (the report has no external assets)."""

from __future__ import annotations

__all__ = ["CSS"]

CSS = """
:root { color-scheme: light; --ink: #1d2433; --muted: #5b6477; --line: #d8dce5;
  --ok: #1f7a3a; --warn: #9a6700; --bad: #b42318; --mark: #ffe066; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--ink); background: #f6f7fa; }
main { max-width: 980px; margin: 0 auto; padding: 24px; background: #fff; }
h1 { font-size: 1.6em; margin: 0 0 12px; }
h2 { font-size: 1.25em; border-bottom: 1px solid var(--line); padding-bottom: 4px;
  margin-top: 32px; }
h3 { font-size: 1.05em; margin: 0 0 8px; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
table { border-collapse: collapse; }
table.facts th { text-align: left; vertical-align: top; padding: 2px 16px 2px 0;
  color: var(--muted); font-weight: 600; white-space: nowrap; }
table.facts td { padding: 2px 0; }
table.grid { width: 100%; font-size: 0.92em; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 6px;
  text-align: left; vertical-align: top; }
table.grid th { background: #eef1f6; }
table.grid td.date { white-space: nowrap; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; color: #fff;
  font-weight: 600; font-size: 0.9em; }
.badge.ok { background: var(--ok); }
.badge.warn { background: var(--warn); }
.badge.bad { background: var(--bad); }
.badge.info { background: #2f5fa7; }
.badge.muted { background: var(--muted); }
.banner { padding: 8px 12px; border-radius: 6px; border: 1px solid; }
.banner.warn { border-color: var(--warn); background: #fff8e5; }
.banner.bad { border-color: var(--bad); background: #fdecea; }
.banner.ok { border-color: var(--ok); background: #e9f6ee; }
nav.toc { margin: 12px 0 0; font-size: 0.9em; }
nav.toc a { margin-right: 12px; white-space: nowrap; }
.rests { font-size: 0.85em; color: var(--muted); margin-top: 2px; }
.state-ok { color: var(--ok); font-weight: 600; }
.state-bad { color: var(--bad); font-weight: 600; }
.claim-block { margin: 20px 0 28px; }
h4 { font-size: 1em; margin: 0 0 8px; }
table.checks { margin: 4px 0 10px; }
table.checks td:first-child { white-space: nowrap; }
.critic { margin: 6px 0 10px; }
.excerpt { color: var(--muted); font-size: 0.9em; margin-top: 2px; }
tr.unused td { color: var(--muted); }
tr.version.cited td { background: #fffbe6; }
td.flagged { border-left: 4px solid var(--bad); }
pre.json { white-space: pre-wrap; word-break: break-all; font-size: 0.85em;
  background: #fafbfc; border: 1px solid var(--line); padding: 8px; }
.signoff { margin-top: 24px; padding: 12px 16px; border: 1px dashed var(--line); }
ol.claims li { margin-bottom: 6px; }
a.cite { text-decoration: none; font-weight: 600; }
a.back { font-size: 0.8em; font-weight: normal; margin-left: 8px; }
article.citation { border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px;
  margin: 16px 0; }
article.citation:target { border-color: var(--warn); box-shadow: 0 0 0 3px #ffe9a8; }
.context { white-space: pre-wrap; font: 0.92em/1.55 ui-monospace, Menlo, monospace;
  background: #fafbfc; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
mark { background: var(--mark); color: var(--ink); padding: 1px 0; }
blockquote.quote { margin: 8px 0; padding: 6px 12px; border-left: 4px solid var(--mark); }
.note { color: var(--muted); font-size: 0.9em; margin: 8px 0 4px; }
.abstained { font-weight: 600; color: var(--bad); }
@page { margin: 14mm 12mm; }
@media print {
  body { background: #fff; font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  nav.toc, a.back { display: none; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; page-break-after: avoid; }
  h3, h4 { break-after: avoid; }
  article.citation, .claim-block > p, table.facts, tr, .signoff, .timeline h3 {
    break-inside: avoid; page-break-inside: avoid; }
  article.citation:target { box-shadow: none; border-color: var(--line); }
  .badge, mark, .banner, tr.version.cited td, table.grid th {
    -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  section#timeline table.grid { font-size: 8.5pt; }
}
"""
