"""Means with 95% confidence intervals (the paper's intervals, Maheswaran et al. section 5.1).

Two methods. Student-t, the paper's, is right for means of roughly
symmetric per-trial values (makespans, flow times, numbers in system over
30+ trials). For heavy-tailed, non-negative values (a max stretch that is 30
in most trials and 60,000 in one) its interval can fall below zero; the
percentile bootstrap of the mean stays inside the values' range. ``"auto"``
uses Student-t unless its interval leaves the range of the values' sign
(non-negative values, negative lower bound), then the bootstrap;
``"auto-fraction"`` does the same for a fraction such as a utilisation, whose
interval must also stay at or below 1, and ``"auto-percent"`` for a percentage
of a bound (the value model's V as % of UB), at or below 100. The bootstrap draws from a fixed seed,
so the same values give the same bounds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

METHODS = ("t", "bootstrap", "auto", "auto-fraction", "auto-percent")
BOOTSTRAP_RESAMPLES = 4000
BOOTSTRAP_SEED = 20260  # fixed: the same values always give the same interval


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.special import stdtrit  # lazy: scipy is slow to import

    return float(stdtrit(df, p))


def bootstrap_ci(x: np.ndarray, confidence: float = 0.95, resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``x`` (no NaN, at least two values)."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means = x[rng.integers(0, x.size, size=(resamples, x.size))].mean(axis=1)
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    return float(lo), float(hi)


def mean_ci(values, confidence: float = 0.95, method: str = "t") -> tuple[float, float, float]:
    """The mean of ``values`` with its confidence interval.

    Parameters
    ----------
    values : array_like of float
        One value per trial; NaNs are left out.
    confidence : float, default 0.95
        The interval's confidence level.
    method : {"t", "bootstrap", "auto", "auto-fraction", "auto-percent"}, default "t"
        Student-t (the paper's), the percentile bootstrap from a fixed seed, or Student-t unless its interval leaves
        the values' range, then the bootstrap (see :mod:`hcsched.stats`).

    Returns
    -------
    tuple of float
        ``(mean, lower, upper)``: all NaN without a value; NaN bounds for one value, or when a value is infinite or
        the spread overflows; a zero-width interval when every value is the same.

    Examples
    --------
    >>> mean_ci([1.0, 2.0, 3.0])  # doctest: +ELLIPSIS
    (2.0, -0.484..., 4.484...)
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    with np.errstate(over="ignore", invalid="ignore"):  # inf and -inf, or sums past 1e308: said as such
        mean = float(x.mean())
    if n == 1 or not math.isfinite(mean) or not np.isfinite(x).all():
        return (mean, math.nan, math.nan)
    with np.errstate(over="ignore"):  # squares of values near 1e308: no interval, said as NaN
        sd = float(x.std(ddof=1))
    if not math.isfinite(sd):
        return (mean, math.nan, math.nan)
    if sd == 0.0:
        return (mean, mean, mean)
    if method == "bootstrap":
        return (mean, *bootstrap_ci(x, confidence))
    half = t_quantile(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
    if method.startswith("auto") and _leaves_range(mean, half, x, method):
        return (mean, *bootstrap_ci(x, confidence))
    return (mean, mean - half, mean + half)


def _leaves_range(mean: float, half: float, x: np.ndarray, method: str) -> bool:
    """Whether the Student-t interval leaves what the values can be: below 0 for non-negative values, above 1 for
    fractions ("auto-fraction") and above 100 for percentages ("auto-percent")."""
    below = mean - half < 0.0 <= x.min()
    high = {"auto-fraction": 1.0, "auto-percent": 100.0}.get(method)
    above = high is not None and mean + half > high >= x.max()
    return below or above


def interval_method(values, method: str = "auto") -> str:
    """The method :func:`mean_ci` uses for these values: "t" or "bootstrap"."""
    if not method.startswith("auto"):
        return method
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if x.size < 2 or float(x.std(ddof=1)) == 0.0:
        return "t"
    half = t_quantile(0.975, x.size - 1) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return "bootstrap" if _leaves_range(float(x.mean()), half, x, method) else "t"


def summarize(results: pd.DataFrame, metrics: tuple[str, ...] | list[str], by: str = "heuristic",
              confidence: float = 0.95, methods: dict[str, str] | None = None) -> pd.DataFrame:
    """The mean of each metric with its confidence interval, one row per heuristic (or per ``by`` value).

    Parameters
    ----------
    results : pandas.DataFrame
        One row per trial and heuristic, as :func:`hcsched.simulate` returns.
    metrics : sequence of str
        The metric columns to summarise.
    by : str, default "heuristic"
        The column whose values are the rows, in order of first appearance.
    confidence : float, default 0.95
        The intervals' confidence level.
    methods : dict of str to str, optional
        A metric's interval method (:func:`mean_ci`'s ``method``); "t", the paper's, for any metric not named.

    Returns
    -------
    pandas.DataFrame
        Columns ``by``, ``trials`` (the rows of each) and, for each metric ``m``, ``m`` (the mean), ``m_lower`` and
        ``m_upper``.
    """
    methods = methods or {}
    rows = []
    for key, group in results.groupby(by, sort=False):
        row = {by: key, "trials": len(group)}
        for metric in metrics:
            row[metric], row[f"{metric}_lower"], row[f"{metric}_upper"] = mean_ci(group[metric], confidence,
                                                                                  methods.get(metric, "t"))
        rows.append(row)
    return pd.DataFrame(rows)


def ranked(summary: pd.DataFrame, metric: str, better: str, by: str = "heuristic") -> list:
    """The ``by`` values of a summary from best to worst mean of ``metric`` (``better``: "lower" or "higher"; for
    neither, the summary's order); ties and missing means keep the summary's order, missing last."""
    means = summary[metric].to_numpy(float)
    key = np.where(np.isnan(means), np.inf, means if better != "higher" else -means)
    order = np.argsort(key, kind="stable") if better in ("lower", "higher") else np.arange(len(means))
    return [summary[by].iloc[i] for i in order]


def best_few(summary: pd.DataFrame, metric: str, better: str, benchmark: str | None = None, n: int = 4) -> list:
    """A readable default of heuristics to show: the ``n`` best by ``metric`` (with the benchmark among them, in place
    of the n-th best when it is not one of them), in the summary's order."""
    order = ranked(summary, metric, better)
    chosen = order[:n]
    if benchmark is not None and benchmark in order and benchmark not in chosen:
        chosen = chosen[:max(0, n - 1)] + [benchmark]
    return [h for h in summary["heuristic"] if h in chosen]


def uniform_row_minima(rng: np.random.Generator, rows: int, machines: int) -> np.ndarray:
    """For ``rows`` rows of ``machines`` iid U(0, 1) draws, each row's smallest, drawn directly (it is Beta(1,
    machines)) without drawing the rows: a row's smallest of any law is its inverse CDF at these."""
    return rng.beta(1.0, float(machines), size=rows)


def gamma_row_minima(rng: np.random.Generator, rows: int, machines: int, task_mean: float, task_cov: float,
                     machine_cov: float) -> np.ndarray:
    """The smallest entry of each of ``rows`` rows of a coefficient-of-variation ETC (:func:`hcsched.sampling.
    cov_based_etc`: a task's mean q ~ Gamma(task_mean, COV task_cov), its row Gamma(q, COV machine_cov) on
    ``machines`` machines), drawn from the order statistic instead of the whole rows: memory and time do not grow
    with ``machines``."""
    from scipy.special import gammaincinv  # lazy: scipy is slow to import

    a_task, a_mach = 1.0 / task_cov**2, 1.0 / machine_cov**2
    q = rng.gamma(a_task, task_mean / a_task, size=rows)
    return gammaincinv(a_mach, uniform_row_minima(rng, rows, machines)) * q / a_mach
