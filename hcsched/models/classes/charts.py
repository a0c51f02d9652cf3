"""Plotly figure builders of the task-class model. Pure: they return figures and never draw."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import plotly.graph_objects as go

from hcsched.curve_charts import Curve, band_chart, better_title, mean_band
from hcsched.metrics import Metric


def in_system(curves: dict[str, tuple[np.ndarray, np.ndarray]], metric: Metric, colors: dict[str, str] | None = None,
              time_unit: str = "time units", name: Callable[[str], str] = str) -> go.Figure:
    """The number of tasks in the system over time: per heuristic, ``curves[label] = (times, values)`` with one row of
    values per replication; the mean over replications with its 95% band; ``name(label)``: its legend entry."""
    bands = [Curve(label, np.asarray(t, float), *mean_band(v), name=name(label)) for label, (t, v) in curves.items()]
    return band_chart(bands, better_title("Tasks in the system over time, waiting or running (mean, 95% band)", metric),
                      "tasks in the system", colors, time_unit=time_unit)


def allocation_heatmap(delta: np.ndarray, columns: list[str] | None = None) -> go.Figure:
    """delta*: the share of each machine (or group) that the allocation LP gives each class (delta*_ij of the LP's
    optimum, Al-Azzoni and Down, section III)."""
    delta = np.asarray(delta, float)
    columns = columns or [f"m{j}" for j in range(delta.shape[1])]
    fig = go.Figure(go.Heatmap(z=delta, x=columns, y=[f"class {i}" for i in range(delta.shape[0])], zmin=0, zmax=1,
                               colorscale="Blues", colorbar={"title": "δ*: share of<br>the machine"},
                               texttemplate="%{z:.3g}",
                               hovertemplate="%{y} on %{x}: δ* = %{z:.4f}<extra></extra>"))
    fig.update_layout(height=140 + 40 * delta.shape[0], yaxis={"autorange": "reversed",
                                                               "title": {"text": "task class"}},
                      xaxis={"title": {"text": "machine (or group of identical machines)"}},
                      margin={"t": 20, "b": 10, "l": 10, "r": 10})
    return fig


