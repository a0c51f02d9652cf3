"""Curves over time averaged over trials: the mean with its 95% band on a common time grid, the heuristics shown by
default, and the figure. Pure: figures are returned, never drawn.

A model gives each heuristic's curve of every trial on one grid of times (``trials x points``; NaN where a trial has
no value at a time); :func:`mean_band` averages over trials at each time with the Student-t 95% interval of the mean
(as the papers' bars), kept within the range of the trials' values there (a mean cannot leave it, and a band below
zero cannot be drawn on a log axis). With many heuristics only a few are shown (:func:`default_shown`): the best by
the model's headline metric and the benchmark.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from hcsched.charts import _escape, _rgba, direction, heuristic_colors, hover_names, plain_numbers
from hcsched.metrics import Metric
from hcsched.stats import best_few, t_quantile

SHOWN = 4  # heuristics shown by default: the best few and the benchmark
LEGEND = {"title": {"text": "heuristic"}, "orientation": "v", "x": 1.02, "xanchor": "left", "y": 1, "yanchor": "top"}


def mean_band(values, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, lower, upper) over trials (rows) at each time (column), NaN-aware: the Student-t interval of the mean of
    the trials with a value there, clipped to those values' range; NaN bounds where fewer than two trials have one."""
    x = np.atleast_2d(np.asarray(values, dtype=float))
    ok = np.isfinite(x)
    n = ok.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.where(ok, x, 0.0).sum(axis=0) / n, np.nan)
        sd = np.sqrt(np.where(ok, (x - mean) ** 2, 0.0).sum(axis=0) / (n - 1))
        quantiles = {k: t_quantile(0.5 + confidence / 2, int(k) - 1) for k in np.unique(n[n > 1])}
        q = np.array([quantiles.get(k, np.nan) for k in n])
        half = np.where(n > 1, q * sd / np.sqrt(n), np.nan)
        low = np.fmin(np.where(ok, x, np.inf).min(axis=0), mean)
        high = np.fmax(np.where(ok, x, -np.inf).max(axis=0), mean)
    return mean, np.clip(mean - half, low, high), np.clip(mean + half, low, high)


def default_shown(results: pd.DataFrame, metric: Metric, benchmark: str | None, count: int = SHOWN) -> list[str]:
    """The heuristics a dense chart shows first: the best ``count`` by the mean of ``metric`` over trials, the benchmark
    among them (:func:`hcsched.stats.best_few`), in the results' order."""
    means = results.groupby("heuristic", sort=False)[metric.name].mean().reset_index()
    return best_few(means, metric.name, metric.better, benchmark, count)


def with_better(text: str, better: str) -> str:
    """A chart title with which way is better (``better``, e.g. "lower is better") in parentheses, or after a title
    that ends in parentheses, after a semicolon: "Number in system over time (mean, 95% band); lower is better" (never
    two parenthesised groups in a row)."""
    return f"{text}; {better}" if text.rstrip().endswith(")") else f"{text} ({better})"


def better_title(text: str, metric: Metric) -> str:
    """A chart title that says which way is better for ``metric`` (:func:`with_better`): "Idle processors over time
    (lower is better)"."""
    return with_better(text, direction(metric))


def log_ticks(values, percent: bool = False) -> dict:
    """Tick values and labels of a log axis at each power of ten the values span, written out ("0.0001%", "10%",
    "0.001") rather than in SI prefixes ("1µ") or rounded to zero."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x) & (x > 0)]
    if not x.size:
        return {}
    lo, hi = math.floor(math.log10(x.min())), math.ceil(math.log10(x.max()))
    vals = [10.0 ** e for e in range(lo, max(hi, lo + 1) + 1)]
    if percent:
        text = [f"{100 * v:,.{max(0, -e - 2)}f}%" for v, e in zip(vals, range(lo, lo + len(vals)), strict=True)]
    else:
        text = [f"{v:,.{max(0, -e)}f}" for v, e in zip(vals, range(lo, lo + len(vals)), strict=True)]
    return {"tickvals": vals, "ticktext": text}


def _log_floor(curves: list[Curve]) -> float | None:
    """The bottom of a log axis: a decade below the smallest positive mean (the bands' lower ends can reach towards
    zero, which would stretch the axis over many empty decades)."""
    means = np.concatenate([c.mean for c in curves]) if curves else np.zeros(0)
    means = means[np.isfinite(means) & (means > 0)]
    return 10.0 ** (math.floor(math.log10(means.min())) - 1) if means.size else None


@dataclass(frozen=True)
class Curve:
    """One heuristic's mean curve with its band; ``name`` is its legend entry, ``dash`` its line style."""

    heuristic: str
    time: np.ndarray
    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    name: str = ""
    dash: str = "solid"


def band_chart(curves: list[Curve], title: str, yaxis_title: str, colors: dict[str, str] | None = None,
               time_unit: str = "s", log: bool = False, percent: bool = False, legend_title: str = "heuristic",
               value_format: str = ".3g") -> go.Figure:
    """Each curve's mean as a line in its heuristic's colour and its 95% band as a pale area; the legend to the right
    of the plot (clicking a heuristic hides its line and band); hovering a line names its heuristic in plain words.
    A log axis says so in its title ("..., log scale")."""
    labels = list(dict.fromkeys(c.heuristic for c in curves))
    colors = colors or heuristic_colors(labels)
    by = hover_names(labels)
    fmt = ".1%" if percent else value_format
    floor = _log_floor(curves) if log else None
    traces = []
    for c in curves:
        name = c.name or c.heuristic
        lower = np.maximum(c.lower, floor) if floor is not None else c.lower  # a band reaching 0 does not set the axis
        band = np.isfinite(lower) & np.isfinite(c.upper) & ((lower > 0) if log else True)
        if band.any():
            traces.append(go.Scatter(x=[*c.time[band], *c.time[band][::-1]], y=[*c.upper[band], *lower[band][::-1]],
                                     mode="lines", fill="toself", fillcolor=_rgba(colors[c.heuristic], 0.15),
                                     line={"width": 0}, hoverinfo="skip", showlegend=False, legendgroup=name))
        traces.append(go.Scatter(
            x=c.time, y=c.mean, mode="lines", name=name, legendgroup=name,
            line={"color": colors[c.heuristic], "width": 2, "dash": c.dash},
            customdata=np.column_stack([c.lower, c.upper]),
            hovertemplate=f"{_escape(by[c.heuristic])}<br>time %{{x:,.4~r}} {time_unit}: mean %{{y:{fmt}}}, 95% "
                          f"interval of the mean %{{customdata[0]:{fmt}}} to %{{customdata[1]:{fmt}}}"
                          f"<extra>{name}</extra>"))
    fig = go.Figure(traces)
    yaxis: dict = {"title": {"text": yaxis_title + (", log scale" if log and "log" not in yaxis_title else "")}}
    if log:
        shown = np.concatenate([c.mean for c in curves] + [c.upper for c in curves]) if curves else np.zeros(0)
        yaxis.update(type="log", **log_ticks(np.append(shown, floor if floor is not None else []), percent))
    elif percent:
        yaxis["tickformat"] = ".0%"
    fig.update_layout(title={"text": title, "x": 0, "xanchor": "left"}, height=380, xaxis_title=f"time ({time_unit})",
                      yaxis=yaxis, legend={**LEGEND, "title": {"text": legend_title}},
                      margin={"t": 50, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)
