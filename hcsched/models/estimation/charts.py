"""The estimation model's curves over time (Figs. 4 and 7-13 of the paper) averaged over trials, and their figures.

Design: every run is measured at ``CURVE_SAMPLES`` evenly spaced points of its own run, at (k + 1) / CURVE_SAMPLES of
its makespan (:func:`hcsched.models.estimation.curve_columns`, the ``*_at<k>`` columns of the results: idle processors,
efficiency so far,
actual and predicted estimation error), so the curves cost one small measurement per run and need no second
simulation. Trials end at different times, so for a chart each trial's curve is resampled on one common time grid up
to the latest makespan shown (:func:`mean_curves`): after its end a trial has every processor idle, its efficiency so
far is its busy time over the elapsed time, and it returns no task (no error). The mean over trials is drawn with its
95% band (:mod:`hcsched.curve_charts`). Idle processors and efficiency so far are drawn only up to the median run's
end (:func:`median_ends`, ``over_time(..., until=...)``): later, most of the mean is runs that have ended, counted
every processor idle, so the curves would climb to all processors idle and fall towards 0% by the finished runs
alone. Pure: figures are returned, never drawn.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from hcsched.charts import GanttRows
from hcsched.curve_charts import Curve, band_chart, better_title, mean_band
from hcsched.heuristics import told_apart
from hcsched.metrics import Metric
from hcsched.models.estimation import CURVE_FAMILIES as FAMILIES
from hcsched.models.estimation import CURVE_SAMPLES
from hcsched.models.estimation.heuristics import short_name

CURVES = tuple(FAMILIES.values())
#: The estimation error's axis, plain words first (band_chart adds ", log scale").
ERROR_AXIS = "how wrong the estimates were (%)"  # |ETC - t| / t, eq. 8: the caption says it


def processor_rows(spec) -> GanttRows:
    """The Gantt's rows as the model names them: processors, p0, p1, ... or the names of the user's processors file."""
    return GanttRows("processor", "p", names=spec.processors.labels())


def _resample(curve: str, t: np.ndarray, v: np.ndarray, grid: np.ndarray, machines: int) -> np.ndarray:
    """One trial's curve (sampled at times ``t`` up to its makespan t[-1]) at the times of ``grid``."""
    end = t[-1]
    if curve == "idle":
        return np.interp(grid, t, v, right=machines)
    if curve == "efficiency":  # after the end the busy time stays; the time so far grows
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(grid <= end, np.interp(grid, t, v), v[-1] * end / grid)
    ok = np.isfinite(v)  # errors: NaN where no task returned; none after the end
    return np.interp(grid, t[ok], v[ok], left=np.nan, right=np.nan) if ok.any() else np.full(grid.size, np.nan)


def mean_curves(results: pd.DataFrame, machines: int, labels=None, points: int = CURVE_SAMPLES) -> pd.DataFrame:
    """One row per heuristic and time of a common grid (``points`` times up to the latest makespan of ``labels``,
    default all): each curve's mean over trials and its 95% band (``<curve>_lower``, ``<curve>_upper``)."""
    labels = list(dict.fromkeys(results["heuristic"])) if labels is None else list(labels)
    rows = results[results["heuristic"].isin(labels)]
    end = float(rows["makespan"].max()) if len(rows) else 0.0
    grid = np.linspace(0.0, max(end, 1e-9), points + 1)[1:]
    fraction = np.arange(1, CURVE_SAMPLES + 1) / CURVE_SAMPLES
    frames = []
    for label in labels:
        group = rows[rows["heuristic"] == label]
        times = group["makespan"].to_numpy(float)[:, None] * fraction[None, :]
        out = {"heuristic": label, "time": grid}
        for family, curve in FAMILIES.items():
            values = group[[f"{family}{k}" for k in range(CURVE_SAMPLES)]].to_numpy(float)
            on_grid = np.array([_resample(curve, t, v, grid, machines) for t, v in zip(times, values, strict=True)])
            out[curve], out[f"{curve}_lower"], out[f"{curve}_upper"] = mean_band(on_grid.reshape(len(group), grid.size))
        frames.append(pd.DataFrame(out))
    columns = ["heuristic", "time", *(f"{c}{s}" for c in CURVES for s in ("", "_lower", "_upper"))]
    return pd.concat(frames, ignore_index=True)[columns] if frames else pd.DataFrame(columns=columns)


def median_ends(results: pd.DataFrame, labels=None) -> dict[str, float]:
    """Each heuristic's median makespan over its trials (of ``labels``, default all): where its idle and efficiency
    curves stop (:func:`over_time`), so that at every time drawn at least half of its runs are still going."""
    labels = list(dict.fromkeys(results["heuristic"])) if labels is None else list(labels)
    return {label: float(results.loc[results["heuristic"] == label, "makespan"].median()) for label in labels}


UNTIL_MEDIAN = "to the median run's end"  # in a chart's title


def _curve(frame: pd.DataFrame, label: str, curve: str, name: str = "", dash: str = "solid",
           until: float | None = None) -> Curve:
    """A heuristic's mean curve with its band, named by its short name ("fz (β = 0.1)": :func:`short_name`) unless
    ``name`` is given."""
    g = frame[frame["heuristic"] == label]
    if until is not None:
        g = g[g["time"] <= until * (1 + 1e-12)]
    return Curve(label, g["time"].to_numpy(float),
                 *(g[f"{curve}{s}"].to_numpy(float) for s in ("", "_lower", "_upper")), name=name or short_name(label),
                 dash=dash)


def over_time(frame: pd.DataFrame, curve: str, metric: Metric, yaxis_title: str, colors: dict | None = None,
              until: dict[str, float] | None = None) -> go.Figure:
    """The mean of ``curve`` over trials with its 95% band, one line per heuristic (Figs. 8-13); ``until``: label ->
    the time its line stops (:func:`median_ends`: the median run's end, said in the title)."""
    labels = list(dict.fromkeys(frame["heuristic"]))
    cut = f" {UNTIL_MEDIAN}" if until is not None else ""
    shown = told_apart(labels, "estimation")
    return band_chart([_curve(frame, label, curve, short_name(shown[label]), until=(until or {}).get(label))
                       for label in labels],
                      better_title(f"{metric.title}{cut} (mean, 95% band)", metric),
                      yaxis_title, colors)


def error_over_time(frame: pd.DataFrame, metric: Metric, colors: dict | None = None) -> go.Figure:
    """Actual (solid) against predicted (dashed) estimation error over time, means over trials with their 95% bands,
    on a log axis, said in its title (Figs. 4, 7): the error |ETC - t| / t of eq. 8 (Page et al., section 3) spans
    decades, from well under 1% for a problem the estimator knows to several hundred % for its first tasks."""
    labels = list(dict.fromkeys(frame["heuristic"]))
    shown = told_apart(labels, "estimation")  # "fz" beside "fz (beta=0.1)" as "fz (error weighted in full)"
    curves = [_curve(frame, label, curve, f"{short_name(shown[label])}: {word}", dash) for label in labels
              for curve, word, dash in (("actual_error", "actual", "solid"), ("predicted_error", "predicted", "dash"))]
    return band_chart(curves,
                      better_title("Estimation error over time: actual (solid) against predicted (dashed)", metric),
                      ERROR_AXIS, colors, log=True, percent=True,
                      legend_title="heuristic: actual, predicted")
