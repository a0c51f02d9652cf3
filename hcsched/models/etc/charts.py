"""Plotly figure builders of the ETC model. Pure: they return figures and never draw."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go


def etc_heatmap(etc: np.ndarray, title: str = "Expected time to compute (ETC)", height: int | None = None) -> go.Figure:
    """The ETC matrix: tasks as rows, numbered from 0 (ticked as numbers, not "t0 ... t182"), machines as columns;
    ETC: the expected time to compute each task on each machine, in seconds (Maheswaran et al., section 4)."""
    etc = np.asarray(etc, float)
    fig = go.Figure(go.Heatmap(z=etc, x=[f"m{j}" for j in range(etc.shape[1])], y=np.arange(etc.shape[0]),
                               colorscale="Viridis", colorbar={"title": "ETC (s)"},
                               hovertemplate="task %{y} on %{x}: expected %{z:,.6~r} s<extra></extra>"))
    fig.update_layout(title=title, height=height or min(700, 160 + 12 * etc.shape[0]),
                      yaxis={"autorange": "reversed", "title": {"text": "task"}}, xaxis={"title": {"text": "machine"}},
                      margin={"t": 40, "b": 10, "l": 10, "r": 10})
    fig.update_traces(colorbar={"exponentformat": "none", "separatethousands": True})
    return fig
