"""Means with Student-t confidence intervals (the paper's 95% intervals, section 5.1)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.special import stdtrit  # lazy: scipy is slow to import

    return float(stdtrit(df, p))


def mean_ci(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, lower, upper) of the mean; NaN bounds for one value, a zero-width interval for zero variance."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    sd = float(x.std(ddof=1))
    half = 0.0 if sd == 0.0 else t_quantile(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def summarize(results: pd.DataFrame, metrics: tuple[str, ...] | list[str], by: str = "heuristic",
              confidence: float = 0.95) -> pd.DataFrame:
    """One row per ``by`` value (in order of appearance): n, and for each metric its mean, lower and upper bound."""
    rows = []
    for key, group in results.groupby(by, sort=False):
        row = {by: key, "trials": len(group)}
        for metric in metrics:
            row[metric], row[f"{metric}_lower"], row[f"{metric}_upper"] = mean_ci(group[metric], confidence)
        rows.append(row)
    return pd.DataFrame(rows)
