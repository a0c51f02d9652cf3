"""Plotly figure builders of the estimation model (Figs. 4-13 of the paper, from one trial's runs). Pure."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from hcsched.charts import heuristic_colors

LAYOUT = {"margin": {"t": 30, "b": 10, "l": 10, "r": 10}, "legend": {"orientation": "h", "y": 1.12}, "height": 340}


def curves_frame(runs: dict, points: int = 200) -> pd.DataFrame:
    """One row per heuristic and time point: idle processors, efficiency so far (%), actual and predicted
    estimation error of the tasks returned around then (the export of the over-time curves)."""
    return pd.concat([pd.DataFrame(run.curves(points)).assign(heuristic=label) for label, run in runs.items()],
                     ignore_index=True)[["heuristic", "time", "idle", "efficiency", "actual_error", "predicted_error"]]


def over_time(frame: pd.DataFrame, column: str, title: str, colors: dict | None = None) -> go.Figure:
    """One line per heuristic of ``column`` over time (Figs. 8-13)."""
    labels = list(dict.fromkeys(frame["heuristic"]))
    colors = colors or heuristic_colors(labels)
    fig = go.Figure([go.Scatter(x=g["time"], y=g[column], mode="lines", name=label, line={"color": colors[label]},
                                hovertemplate="time %{x:.0f} s: %{y:.3g}<extra>" + label + "</extra>")
                     for label, g in frame.groupby("heuristic", sort=False)])
    fig.update_layout(xaxis_title="time (s)", yaxis_title=title, **LAYOUT)
    return fig


def error_over_time(frame: pd.DataFrame, colors: dict | None = None) -> go.Figure:
    """Predicted (dashed) against actual (solid) estimation error over time, per heuristic (Figs. 4, 7)."""
    labels = list(dict.fromkeys(frame["heuristic"]))
    colors = colors or heuristic_colors(labels)
    traces = []
    for label, g in frame.groupby("heuristic", sort=False):
        g = g.dropna(subset=["actual_error"])
        traces.append(go.Scatter(x=g["time"], y=g["actual_error"], mode="lines", name=f"{label}: actual",
                                 line={"color": colors[label]}, legendgroup=label,
                                 hovertemplate="time %{x:.0f} s: actual %{y:.1%}<extra>" + label + "</extra>"))
        traces.append(go.Scatter(x=g["time"], y=g["predicted_error"], mode="lines", name=f"{label}: predicted",
                                 line={"color": colors[label], "dash": "dash"}, legendgroup=label,
                                 hovertemplate="time %{x:.0f} s: predicted %{y:.1%}<extra>" + label + "</extra>"))
    fig = go.Figure(traces)
    fig.update_layout(xaxis_title="time (s)", yaxis_title="estimation error |ETC - t| / t", yaxis_tickformat=".0%",
                      yaxis_type="log", **LAYOUT)
    return fig
