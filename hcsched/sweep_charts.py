"""Plotly figure builders of sweeps (:mod:`hcsched.sweep`): a metric over one varied key, or a heatmap over two.

Readable with a dozen heuristics: panels sit in a fixed grid, titles say which way is better, legends and colour bars
stay outside the plots, and a few unevenly spaced values (0, 10, 30) can be drawn evenly, as categories.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.charts import _hover_format, _rgba, direction, grid_columns, heuristic_colors, panel_title
from hcsched.metrics import Metric

X_SCALES = ("linear", "log", "category")
FEW_VALUES = 6  # up to this many values, an uneven spacing is drawn evenly (as categories) by default
UNEVEN = 3.0  # the widest gap over the narrowest above which values are uneven


def tick(value) -> str:
    """A varied value as an axis label: 10 rather than 10.0, 0.000316 rather than 0.00031622776601683794."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return f"{float(value):.6g}"
    return str(value)


def _numeric(values) -> np.ndarray | None:
    try:
        out = np.asarray(list(values), dtype=float)
    except (TypeError, ValueError):
        return None
    return out if np.isfinite(out).all() else None


def _uneven(values: np.ndarray) -> bool:
    gaps = np.diff(np.unique(values))
    return gaps.size >= 2 and gaps.max() > UNEVEN * gaps.min()


def x_scales(values) -> tuple[str, ...]:
    """The x scales that can show these varied values: a logarithmic one only when all are above 0, and only
    categories for values that are not numbers (lists, names)."""
    x = _numeric(values)
    if x is None:
        return ("category",)
    return ("linear", "log", "category") if (x > 0).all() else ("linear", "category")


def default_x_scale(values) -> str:
    """Logarithmic when positive values span a factor of 4 or more (the page's own proposal, half to twice a value) and
    are even on a log scale; evenly spaced categories when at most FEW_VALUES values are uneven on every numeric scale
    that can show them (0, 1, 100: the curve's shape is then read between labelled points, not from distances); else
    linear."""
    scales = x_scales(values)
    if scales == ("category",):
        return "category"
    x = np.unique(_numeric(values))
    if "log" in scales and x.max() >= 4 * x.min():
        if not _uneven(np.log(x)) or x.size > FEW_VALUES:
            return "log"
        return "category"
    return "category" if x.size <= FEW_VALUES and _uneven(x) else "linear"


def _wrap(text: str, width: int) -> str:
    """A title broken into lines of at most ``width`` characters (so titles of neighbouring panels never meet)."""
    return "<br>".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text


LEGEND = {"title": {"text": "heuristic"}, "orientation": "v", "x": 1.02, "xanchor": "left", "y": 1, "yanchor": "top"}


def sweep_lines(summary: pd.DataFrame, key: str, metrics: Sequence[Metric], colors: dict[str, str] | None = None,
                x_scale: str = "linear") -> go.Figure:
    """One panel per metric in a fixed grid: its mean over the varied ``key``, one line per heuristic with its 95%
    interval as a band (``summary``: :func:`hcsched.sweep.sweep_summary`).

    Every trace of a heuristic (line, markers, band) takes the heuristic's colour; panel titles say which way is
    better; the legend stands outside the plots. ``x_scale``: "linear", "log" or "category" (evenly spaced values,
    labelled, the axis title saying it is not to scale)."""
    if x_scale not in X_SCALES:
        raise ValueError(f"x_scale: {x_scale!r} is not allowed; allowed: {', '.join(X_SCALES)}")
    labels = list(dict.fromkeys(summary["heuristic"]))
    colors = colors or heuristic_colors(labels)
    cols = grid_columns(len(metrics))
    rows = -(-len(metrics) // cols)
    row_px = 330
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[panel_title(m) for m in metrics], horizontal_spacing=0.08,
                        vertical_spacing=min(0.3, 130 / (rows * row_px)) if rows > 1 else 0.1)
    order = list(dict.fromkeys(summary[key]))
    if x_scale == "category":
        order = sorted(order) if _numeric(order) is not None else order
    for k, m in enumerate(metrics):
        row, col = k // cols + 1, k % cols + 1
        f = _hover_format(m)
        for label in labels:
            rows_of = summary[summary["heuristic"] == label]
            x = [tick(v) for v in rows_of[key]] if x_scale == "category" else rows_of[key].tolist()
            mean = rows_of[m.name].to_numpy(float)
            lower, upper = rows_of[f"{m.name}_lower"].to_numpy(float), rows_of[f"{m.name}_upper"].to_numpy(float)
            band = np.isfinite(lower) & np.isfinite(upper)
            if band.any():
                xs = np.asarray(x, object)[band]
                fig.add_trace(go.Scatter(
                    x=[*xs, *xs[::-1]], y=[*upper[band], *lower[band][::-1]], mode="lines", fill="toself",
                    fillcolor=_rgba(colors[label], 0.18), line={"width": 0, "color": colors[label]}, hoverinfo="skip",
                    showlegend=False, legendgroup=label, name=f"{label}, 95% interval"), row=row, col=col)
            fig.add_trace(go.Scatter(
                x=x, y=mean, mode="lines+markers", name=_wrap(label, 28), line={"color": colors[label]},
                marker={"color": colors[label]}, legendgroup=label, showlegend=k == 0,
                customdata=np.column_stack([lower, upper]),
                hovertemplate=f"{label}<br>{key} = %{{x}}<br>mean %{{y:{f}}}<br>95% interval "
                              f"[%{{customdata[0]:{f}}}, %{{customdata[1]:{f}}}]<extra></extra>"), row=row, col=col)
        if x_scale == "category":
            fig.update_xaxes(title_text=f"{_wrap(key, 24)}<br>evenly spaced, not to scale", type="category",
                             categoryorder="array",
                             categoryarray=[tick(v) for v in order], row=row, col=col)
        else:
            fig.update_xaxes(title_text=_wrap(key, 24), type="log" if x_scale == "log" else "linear", row=row, col=col)
        if m.fmt:
            fig.update_yaxes(tickformat=m.fmt, row=row, col=col)
    fig.update_xaxes(automargin=True, title_font_size=12)  # axis titles wrapped to their panel's width
    fig.update_yaxes(automargin=True)
    fig.update_annotations(yshift=6)
    fig.update_layout(height=rows * row_px + 40, margin={"t": 60, "b": 10, "l": 10, "r": 10}, legend=LEGEND)
    return fig


def sweep_heatmap(summary: pd.DataFrame, keys: tuple[str, str], metric: Metric, widest: int = 4) -> go.Figure:
    """The mean of ``metric`` over two varied keys: one heatmap per heuristic, on one colour scale, in a fixed grid of
    at most ``widest`` panels a row (none alone on its row).

    Values are categories, so every cell has the same size however uneven the values (0, 10, 30); panel titles (the
    heuristics) are wrapped to their panel's width; the colour bar, outside the plots, says which way is better, and
    the better end is always the brighter one."""
    labels = list(dict.fromkeys(summary["heuristic"]))
    cols = grid_columns(len(labels), widest)
    rows = -(-len(labels) // cols)
    width = max(12, 96 // cols)  # characters of a title line: a panel is about 1/cols of a ~1,000 px plot
    titles = [_wrap(label, width) for label in labels]
    lines = max(t.count("<br>") + 1 for t in titles)
    ys, xs = list(dict.fromkeys(summary[keys[1]])), list(dict.fromkeys(summary[keys[0]]))
    row_px = max(160, 28 * len(ys)) + 16 * lines + 60
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles, shared_yaxes=True, horizontal_spacing=0.03,
                        vertical_spacing=min(0.3, (16 * lines + 60) / (rows * row_px)) if rows > 1 else 0.1)
    values = summary[metric.name].to_numpy(float)
    zmin, zmax = (np.nanmin(values), np.nanmax(values)) if np.isfinite(values).any() else (0, 1)
    scale = "Viridis_r" if metric.better == "lower" else "Viridis"
    better = f"<br>{direction(metric)}" + (" (brighter)" if metric.better else "")
    for k, label in enumerate(labels):
        row, col = k // cols + 1, k % cols + 1
        table = summary[summary["heuristic"] == label].pivot_table(index=keys[1], columns=keys[0], values=metric.name,
                                                                   sort=False, dropna=False)
        table = table.reindex(index=ys, columns=xs)
        fig.add_trace(go.Heatmap(
            z=table.to_numpy(), x=[tick(c) for c in xs], y=[tick(i) for i in ys], zmin=zmin, zmax=zmax,
            colorscale=scale, showscale=k == 0, colorbar={"title": {"text": _wrap(metric.label, 18) + better}},
            name=label, hovertemplate=f"{keys[0]} = %{{x}}<br>{keys[1]} = %{{y}}<br>{metric.title}: "
                                      f"%{{z:{_hover_format(metric)}}}<extra>{label}</extra>"), row=row, col=col)
        below = k + cols < len(labels)  # the x title only under the lowest panel of each column
        fig.update_xaxes(title_text=None if below else keys[0], type="category", row=row, col=col)
        fig.update_yaxes(title_text=keys[1] if col == 1 else None, type="category", row=row, col=col)
    fig.update_xaxes(automargin=True)  # tick labels and titles never under a neighbour, whatever theme draws them
    fig.update_yaxes(automargin=True)
    fig.update_annotations(font={"size": 12})
    fig.update_layout(height=rows * row_px + 40 + 16 * lines, margin={"t": 40 + 16 * lines, "b": 10, "l": 10, "r": 10},
                      title={"text": f"{metric.label}, mean: {direction(metric)}", "x": 0, "y": 1, "yref": "container",
                             "yanchor": "top", "pad": {"t": 8}, "font": {"size": 14}})  # above the titles of the panels
    return fig
