"""Plotly figure builders of the task-class model. Pure: they return figures and never draw."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from hcsched.charts import heuristic_colors


def in_system(curves: dict[str, tuple[np.ndarray, np.ndarray]], colors: dict[str, str] | None = None) -> go.Figure:
    """Number of tasks in the system over time, one line per heuristic."""
    colors = colors or heuristic_colors(list(curves))
    fig = go.Figure([go.Scatter(x=t, y=n, mode="lines", name=label, line={"color": colors[label], "width": 2},
                                hovertemplate="time %{x:.6g}: %{y} tasks<extra>" + label + "</extra>")
                     for label, (t, n) in curves.items()])
    fig.update_layout(height=360, xaxis_title="time", yaxis_title="tasks in system", margin={"t": 20, "b": 10, "l": 10, "r": 10},
                      legend={"orientation": "h", "y": 1.08})
    return fig


def allocation_heatmap(delta: np.ndarray, columns: list[str] | None = None) -> go.Figure:
    """delta*: the share of each machine (or group) that the allocation LP gives each class."""
    delta = np.asarray(delta, float)
    columns = columns or [f"m{j}" for j in range(delta.shape[1])]
    fig = go.Figure(go.Heatmap(z=delta, x=columns, y=[f"class {i}" for i in range(delta.shape[0])], zmin=0, zmax=1,
                               colorscale="Blues", colorbar={"title": "δ*"}, texttemplate="%{z:.3g}",
                               hovertemplate="%{y} on %{x}: δ* = %{z:.4f}<extra></extra>"))
    fig.update_layout(height=140 + 40 * delta.shape[0], yaxis={"autorange": "reversed"}, margin={"t": 20, "b": 10, "l": 10, "r": 10})
    return fig
