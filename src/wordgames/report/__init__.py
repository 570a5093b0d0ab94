"""Leaderboard, cross-measure correlation and the static HTML report of a results folder.

Everything is read from the stored :class:`~wordgames.measure.Score` rows and the measures'
declarations in the registry.

>>> from wordgames.report import load_results, leaderboard, correlation_table  # doctest: +SKIP
>>> coll = load_results("wordgames-results")  # doctest: +SKIP
>>> leaderboard(coll).values  # doctest: +SKIP
"""

from wordgames.report.collect import Collection, Entry, load_results, result_scores
from wordgames.report.leaderboard import (
    Correlation,
    Leaderboard,
    MeasureScores,
    correlation_table,
    headline_keys,
    leaderboard,
    long_table,
    primary_key,
    rank_values,
    score_label,
)

__all__ = [
    "Collection",
    "Correlation",
    "Entry",
    "Leaderboard",
    "MeasureScores",
    "correlation_table",
    "headline_keys",
    "leaderboard",
    "load_results",
    "long_table",
    "primary_key",
    "rank_values",
    "result_scores",
    "score_label",
    "write_report",
]


def write_report(results_dir, out=None, **kwargs):
    """Build the HTML report of ``results_dir`` (see :func:`wordgames.report.html.write_report`).

    Examples
    --------
    >>> from wordgames.report import write_report  # doctest: +SKIP
    >>> write_report("out/")  # doctest: +SKIP
    PosixPath('out/report.html')
    """
    from wordgames.report.html import write_report as _write

    return _write(results_dir, out, **kwargs)
