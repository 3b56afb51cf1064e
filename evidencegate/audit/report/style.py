"""The report's inline stylesheet (the report has no external assets)."""

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
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; color: #fff;
  font-weight: 600; font-size: 0.9em; }
.badge.ok { background: var(--ok); }
.badge.warn { background: var(--warn); }
.badge.bad { background: var(--bad); }
.banner { padding: 8px 12px; border-radius: 6px; border: 1px solid; }
.banner.warn { border-color: var(--warn); background: #fff8e5; }
.banner.bad { border-color: var(--bad); background: #fdecea; }
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
"""
