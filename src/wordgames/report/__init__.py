"""Leaderboard, cross-measure correlation and the static HTML report of a results folder.

>>> from wordgames.report import load_results, leaderboard, correlation_table  # doctest: +SKIP
>>> coll = load_results("wordgames-results")  # doctest: +SKIP
>>> leaderboard(coll).values  # doctest: +SKIP
"""

from wordgames.report.collect import Collection, Entry, load_results
from wordgames.report.leaderboard import (
    HEADLINES,
    Correlation,
    Headline,
    Leaderboard,
    correlation_table,
    headline_metrics,
    leaderboard,
    long_table,
    primary_metric,
)

__all__ = [
    "HEADLINES", "Collection", "Correlation", "Entry", "Headline", "Leaderboard",
    "correlation_table", "headline_metrics", "leaderboard", "load_results", "long_table",
    "primary_metric", "write_report",
]


def write_report(results_dir, out=None, **kwargs):
    """Build the HTML report of ``results_dir`` (see :func:`wordgames.report.html.write_report`)."""
    from wordgames.report.html import write_report as _write

    return _write(results_dir, out, **kwargs)
