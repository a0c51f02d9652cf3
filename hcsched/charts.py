"""Plotly figure builders for results and schedules. Pure: they return figures and never draw."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.heuristics import heuristic_names
from hcsched.metrics import Metric, Schedule

# Okabe & Ito's colour-blind-safe palette (yellow last: weak on white), then Paul Tol's muted scheme.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442",
           "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499")


# Categories that are not heuristics (deadline outcomes, phases, task classes) take Paul Tol's colour-blind-safe
# "light" scheme, pale where the heuristics' colours are saturated, so no colour means a heuristic in one chart and a
# category in the one beside it. Each chart that uses them says in its legend what they mean.
CATEGORY_PALETTE = ("#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#BBCC33", "#AAAA00", "#DDDDDD")


def category_colors(categories) -> dict[str, str]:
    """One colour of :data:`CATEGORY_PALETTE` per category, in order (never a heuristic's colour)."""
    return {c: CATEGORY_PALETTE[i % len(CATEGORY_PALETTE)] for i, c in enumerate(categories)}


def _base_name(item) -> str:
    """The registry name behind a heuristic spec or label ("kpb (k=10)" -> "kpb")."""
    return getattr(item, "name", None) or str(item).split(" (")[0].strip().lower()


def _label(item) -> str:
    return getattr(item, "label", item)


def heuristic_colors(heuristics) -> dict[str, str]:
    """One colour per heuristic label that follows the heuristic, not its position: the first copy of a heuristic
    gets its registry name's own colour (Min-min is always the same colour); further copies, and labels that name no
    registered heuristic, get the first colours no one else of the set claims. ``heuristics``: specs or labels."""
    names = heuristic_names()
    wanted = {}
    for item in heuristics:
        base = _base_name(item)
        if base in names and PALETTE[names.index(base) % len(PALETTE)] not in wanted.values():
            wanted[_label(item)] = PALETTE[names.index(base) % len(PALETTE)]
    free = [c for c in PALETTE if c not in wanted.values()]
    out = {}
    for item in heuristics:
        label = _label(item)
        out[label] = wanted.get(label) or (free.pop(0) if free else PALETTE[len(out) % len(PALETTE)])
    return out


def _hover_format(metric: Metric) -> str:
    return metric.fmt or ".4g"


BETTER = {"lower": "lower is better", "higher": "higher is better", "": "neither is better"}


def direction(metric: Metric) -> str:
    """Which way is better, as a chart title says it."""
    return BETTER[metric.better]


def panel_title(metric: Metric) -> str:
    """A panel's title: the metric with its unit, and which way is better (an arrow says it at a glance)."""
    arrow = {"lower": "↓ ", "higher": "↑ "}.get(metric.better, "")
    return f"{metric.label}<br><span style='font-size:11px;color:#555'>{arrow}{direction(metric)}</span>"


ROW_GAP_PX = 90  # between rows of panels: a row's tick labels and the next row's two-line title


def grid_columns(panels: int, widest: int = 3) -> int:
    """Columns of a fixed grid of ``panels`` in which no panel stands alone on its row (3, else 2, 4 or 5 a row)."""
    if panels <= widest:
        return max(1, panels)
    return next((c for c in (widest, 2, widest + 1, widest + 2) if panels % c != 1), widest)


def metric_bars(summary: pd.DataFrame, metrics: Sequence[Metric], colors: dict[str, str] | None = None) -> go.Figure:
    """One panel per metric in a fixed grid: a horizontal bar per heuristic with its 95% interval as an error bar.

    Heuristics are rows named once at the left of each row of panels (readable with 12 or more, no rotated labels);
    panel titles carry the unit and which way is better; a metric with no value (e.g. stretch when every task had
    zero length) says so in its panel instead of leaving it empty."""
    labels = summary["heuristic"].tolist()
    colors = colors or heuristic_colors(labels)
    cols = grid_columns(len(metrics))
    rows = -(-len(metrics) // cols)
    row_px = 30 + 24 * max(2, len(labels))  # a panel's plot area
    plots = rows * row_px + (rows - 1) * ROW_GAP_PX
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[panel_title(m) for m in metrics], shared_yaxes=True,
                        horizontal_spacing=0.06, vertical_spacing=ROW_GAP_PX / plots if rows > 1 else 0.1)
    for k, m in enumerate(metrics, start=1):
        row, col = (k - 1) // cols + 1, (k - 1) % cols + 1
        mean = summary[m.name].to_numpy(float)
        upper = (summary[f"{m.name}_upper"].to_numpy(float) - mean)
        lower = (mean - summary[f"{m.name}_lower"].to_numpy(float))
        f = _hover_format(m)
        fig.add_trace(go.Bar(
            y=labels, x=mean, orientation="h", marker_color=[colors[x] for x in labels], showlegend=False, name=m.title,
            error_x={"type": "data", "array": np.nan_to_num(upper), "arrayminus": np.nan_to_num(lower), "visible": True},
            customdata=np.column_stack([summary[f"{m.name}_lower"], summary[f"{m.name}_upper"]]),
            hovertemplate=f"%{{y}}<br>mean %{{x:{f}}}<br>95% interval [%{{customdata[0]:{f}}}, %{{customdata[1]:{f}}}]"
                          "<extra></extra>",
        ), row=row, col=col)
        if m.fmt:
            fig.update_xaxes(tickformat=m.fmt, row=row, col=col)
        if not np.isfinite(mean).any():
            fig.add_annotation(text="no value in this run:<br>undefined for every trial", showarrow=False,
                               xref=f"x{k if k > 1 else ''} domain", yref=f"y{k if k > 1 else ''} domain",
                               x=0.5, y=0.5, font={"color": "#666"})
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True)
    fig.update_xaxes(nticks=5, automargin=True)
    fig.update_annotations(yshift=6)
    fig.update_layout(height=plots + 90, margin={"t": 60, "b": 30, "l": 10, "r": 20}, bargap=0.25)
    return fig


def trial_distribution(results: pd.DataFrame, metric: Metric, colors: dict[str, str] | None = None) -> go.Figure:
    """Per-trial values of one metric as a box per heuristic with every trial shown as a point."""
    labels = list(dict.fromkeys(results["heuristic"]))
    colors = colors or heuristic_colors(labels)
    fig = go.Figure()
    for label in labels:
        rows = results[results["heuristic"] == label]
        fig.add_trace(go.Box(y=rows[metric.name], name=label, marker_color=colors[label], boxpoints="all", jitter=0.4,
                             pointpos=0, customdata=rows["trial"],
                             hovertemplate=f"trial %{{customdata}}: %{{y:{_hover_format(metric)}}}<extra></extra>"))
    fig.update_layout(height=380, showlegend=False, yaxis_title=f"{metric.label} ({direction(metric)})",
                      margin={"t": 20, "b": 10, "l": 10, "r": 10})
    if metric.fmt:
        fig.update_yaxes(tickformat=metric.fmt)
    if not results[metric.name].notna().any():
        fig.add_annotation(text="no value in this run: undefined for every trial", showarrow=False, xref="paper",
                           yref="paper", x=0.5, y=0.5, font={"color": "#666"})
    return fig


def _short(t: float) -> str:
    """A compact time label: 61.4k, 1.23M."""
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(t) >= size:
            return f"{t / size:.3g}{unit}"
    return f"{t:.3g}"


def _window(s: Schedule, window: tuple[float, float] | None) -> np.ndarray:
    if window is None:
        return np.flatnonzero(np.isfinite(s.start))
    return np.flatnonzero((s.finish > window[0]) & (s.start < window[1]))


MAX_GANTT_FRAMES = 60
GANTT_BARS = 1200  # bars of all panels in the default window of a large trial (~100 ms a frame, bench/gantt_browser.py)
FRAME_BARS = 1500  # bars x frames a browser redraws smoothly at ~80-150 ms a frame (browser test)
GANTT_ROWS_PX = 1400  # the machine rows of all panels share about this height


def gantt_default_window(schedules: dict[str, Schedule], bars: int = GANTT_BARS) -> tuple[float, float] | None:
    """The trial's end and the default length of the Gantt window: the whole trial when all panels together have at
    most ``bars`` tasks, else from 0 to the start of the first task beyond ``bars / panels`` in the panel that starts
    them soonest, so that no panel shows more (the end is that of the slowest heuristic, so a window sized by the
    number of tasks alone would show nearly all of a fast heuristic's tasks)."""
    starts = [np.sort(s.start[np.isfinite(s.start)]) for s in schedules.values()]
    finish = max((float(s.finish[np.isfinite(s.finish)].max(initial=0.0)) for s in schedules.values()), default=0.0)
    end = max(finish, *(float(x[-1]) for x in starts if x.size), 0.0)
    if sum(x.size for x in starts) <= bars or end <= 0:
        return None
    per = max(1, bars // max(1, len(starts)))
    length = min((float(x[per]) for x in starts if x.size > per), default=end)
    return end, length if length > 0 else end


def gantt_frames(bars: int, frames: int = MAX_GANTT_FRAMES) -> int:
    """Fewer frames for larger charts, so that each frame redraws quickly (at least 12)."""
    return int(max(12, min(frames, frames * FRAME_BARS // max(1, bars))))


def _alternate(s: Schedule, idx: np.ndarray, color: str) -> list[str]:
    """The heuristic's colour and a lighter shade on alternate tasks of each machine, so that back-to-back tasks stay
    apart without a border (a bar's outline doubles what a browser redraws in each frame)."""
    order = np.lexsort((s.start[idx], s.machine[idx]))
    rank = np.empty(idx.size, dtype=np.int64)
    machine = s.machine[idx][order]
    first = np.r_[True, machine[1:] != machine[:-1]] if idx.size else np.zeros(0, bool)
    position = np.arange(idx.size) - np.maximum.accumulate(np.where(first, np.arange(idx.size), 0))
    rank[order] = position
    return np.where(rank % 2 == 0, color, _rgba(color, 0.62)).tolist()


def gantt(schedules: dict[str, Schedule], colors: dict[str, str] | None = None, frames: int = MAX_GANTT_FRAMES,
          window: tuple[float, float] | None = None, time_unit: str = "s", machines: Sequence[int] | None = None) -> go.Figure:
    """Animated Gantt chart: one panel per heuristic on a shared time axis, machines as rows.

    Every task is a bar in every frame (zero width before it starts), so the
    traces never change and frames carry only the widths: tasks appear as they
    start and grow as they run. The figure opens on the final frame; Play
    replays it from the start. ``window`` limits it to tasks overlapping a
    time interval, ``machines`` to the rows of those machines (all by
    default). Play, Pause and the time slider sit above the panels, so
    they stay in view on tall charts; large charts get fewer frames.
    """
    labels = list(schedules)
    colors = colors or heuristic_colors(labels)
    picks = {label: _window(s, window) for label, s in schedules.items()}
    if machines is not None:
        machines = sorted(set(int(j) for j in machines))
        picks = {label: idx[np.isin(schedules[label].machine[idx], machines)] for label, idx in picks.items()}
    rows_of = {label: machines if machines is not None else list(range(s.machines)) for label, s in schedules.items()}
    t0 = window[0] if window else 0.0
    t1 = window[1] if window else max(float(s.finish[np.isfinite(s.finish)].max()) for s in schedules.values())
    # Tasks still running at the end of a run (finish = inf) are drawn up to the end of the window.
    schedules = {label: dataclasses.replace(s, finish=np.minimum(s.finish, t1)) for label, s in schedules.items()}
    times = np.linspace(t0, t1, max(2, gantt_frames(sum(p.size for p in picks.values()), frames)))
    row_px = max(8.0, min(22.0, GANTT_ROWS_PX / max(1, sum(len(r) for r in rows_of.values()))))
    heights = [40 + row_px * len(rows_of[label]) for label in labels]
    fig = make_subplots(rows=len(labels), cols=1, shared_xaxes=True, subplot_titles=labels, row_heights=heights,
                        vertical_spacing=min(0.12, 45 / sum(heights)) if len(labels) > 1 else 0)
    u = f" {time_unit}"
    for row, label in enumerate(labels, start=1):
        s, idx = schedules[label], picks[label]
        custom = np.column_stack([idx, s.arrival[idx], s.start[idx], s.finish[idx], s.expected[idx], s.actual[idx], s.machine[idx]])
        fig.add_trace(go.Bar(
            y=[f"m{j}" for j in s.machine[idx]], base=s.start[idx], x=s.finish[idx] - s.start[idx], orientation="h",
            marker={"color": _alternate(s, idx, colors[label]), "line": {"width": 0}}, name=label, showlegend=False,
            customdata=custom,
            hovertemplate=("task %{customdata[0]} on machine m%{customdata[6]}<br>arrival %{customdata[1]:.6g}" + u +
                           "<br>start %{customdata[2]:.6g}" + u + "<br>finish %{customdata[3]:.6g}" + u +
                           "<br>expected %{customdata[4]:.6g}" + u + "<br>actual %{customdata[5]:.6g}" + u +
                           "<extra>" + label + "</extra>"),
        ), row=row, col=1)
        fig.update_yaxes(categoryorder="array", categoryarray=[f"m{j}" for j in rows_of[label]][::-1], row=row, col=1)
    fig.frames = [go.Frame(name=f"{t:.6g}", traces=list(range(len(labels))), data=[
        go.Bar(x=np.clip(t - schedules[label].start[picks[label]], 0.0,
                         schedules[label].finish[picks[label]] - schedules[label].start[picks[label]]))
        for label in labels]) for t in times]
    steps = [{"method": "animate", "label": _short(t), "args": [[f"{t:.6g}"], {
        "mode": "immediate", "frame": {"duration": 0, "redraw": True}, "transition": {"duration": 0}}]} for t in times]
    fig.update_layout(
        barmode="overlay", height=150 + sum(heights), margin={"t": 130, "b": 10, "l": 10, "r": 10},
        xaxis={"range": [t0, t1]}, **{f"xaxis{i}": {"range": [t0, t1]} for i in range(2, len(labels) + 1)},
        updatemenus=[{"type": "buttons", "direction": "left", "x": 0, "y": 1, "xanchor": "left", "yanchor": "bottom",
                      "pad": {"b": 62}, "showactive": False, "buttons": [
                          {"label": "Play", "method": "animate", "args": [None, {
                              "frame": {"duration": 80, "redraw": True}, "transition": {"duration": 0},
                              "fromcurrent": False, "mode": "immediate"}]},
                          {"label": "Pause", "method": "animate", "args": [[None], {
                              "frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]}]}],
        sliders=[{"active": len(times) - 1, "steps": steps, "x": 0.14, "y": 1, "xanchor": "left", "yanchor": "bottom",
                  "len": 0.86, "currentvalue": {"prefix": "time ", "suffix": u}, "pad": {"t": 0, "b": 40}}],
    )
    fig.update_xaxes(title_text=f"time ({time_unit})", row=len(labels), col=1)
    return fig


def _rgba(color: str, alpha: float) -> str:
    color = color.lstrip("#")
    return f"rgba({int(color[0:2], 16)},{int(color[2:4], 16)},{int(color[4:6], 16)},{alpha})"
