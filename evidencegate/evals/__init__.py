"""Evaluation: golden sets, the four-arm ablation, and critic meta-evaluation.

Import from the modules (this package imports nothing itself, so that importing one module does
not load the whole engine):

- :mod:`~evidencegate.evals.golden`: read and validate golden sets (``load_golden``);
- :mod:`~evidencegate.evals.ablation`: run every item through every arm and judge the answers;
- :mod:`~evidencegate.evals.metrics`: the ablation metrics and their bootstrap intervals;
- :mod:`~evidencegate.evals.report`: metrics.json, metrics.md and report.html;
- :mod:`~evidencegate.cli.evals`: ``evidencegate ablate``;
- :mod:`~evidencegate.evals.meta` and :mod:`~evidencegate.evals.judge_bench`: critic
  meta-evaluation against human-labelled benchmarks.
"""
