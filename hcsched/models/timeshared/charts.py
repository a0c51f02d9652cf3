"""Plotly figure builders of the time-shared model. Pure: they return figures and never draw."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.charts import (
    CATEGORY_PALETTE,
    WORDS_PX,
    GanttRows,
    category_colors,
    grid_columns,
    hover_names,
    lanes,
    metric_bars,
    plain_numbers,
)
from hcsched.charts import tick_words as shared_tick_words
from hcsched.charts import with_words as shared_with_words
from hcsched.curve_charts import with_better
from hcsched.errors import HcschedError
from hcsched.heuristics import get_heuristic, label_parts
from hcsched.metrics import Metric

#: The phases and the finishes against the benchmark are categories, not heuristics: the category palette, with a
#: legend title that says so. Finishes go from better (sooner) to worse (later).
PHASE_COLORS = category_colors(("input", "compute", "output"))
FINISH_NAMES = {"pct_sooner": "sooner", "pct_same": "same time", "pct_later": "later"}
FINISH_WORDS = {"pct_sooner": "sooner than", "pct_same": "at the same time as", "pct_later": "later than"}
FINISH_COLORS = dict(zip(FINISH_NAMES, (CATEGORY_PALETTE[5], CATEGORY_PALETTE[7], CATEGORY_PALETTE[1]), strict=True))
#: The model's servers as every chart names them (s0, s1, ...: the phases chart, Explain's bars and the animated
#: Gantt of the Results page); a server runs all its tasks at once, so the Gantt gives each task a lane.
SERVERS = GanttRows("server", "s", lanes=True)


def short_words(label: str) -> str:
    """A registered heuristic's rule in a few words (its ``short_words``), "" for a label of one's own."""
    try:
        return getattr(get_heuristic(label_parts(label)[0], "timeshared"), "short_words", "")
    except HcschedError:
        return ""


def tick_words(labels: Sequence[str], shown: Sequence[str] | None = None) -> list[str]:
    """Each heuristic's tick: its short name as ``shown`` over its rule in a few words (:func:`short_words`,
    :func:`hcsched.charts.tick_words`)."""
    return shared_tick_words(labels, short_words, shown)


def with_words(fig: go.Figure, labels: Sequence[str], rows: int = 1) -> go.Figure:
    """``fig``'s heuristic axes ticked by :func:`tick_words` (:func:`hcsched.charts.with_words`)."""
    return shared_with_words(fig, labels, short_words, rows)


def named_bars(summary: pd.DataFrame, metrics: Sequence[Metric], colors: dict[str, str] | None = None,
               references: Mapping[str, str] | None = None, benchmark: str | None = None) -> go.Figure:
    """The shared bars (:func:`hcsched.charts.metric_bars`: a panel per metric, a bar per heuristic with its 95%
    interval), each heuristic's rule in words under its name (:func:`with_words`)."""
    fig = metric_bars(summary, metrics, colors, references, benchmark)
    rows = -(-len(metrics) // grid_columns(len(metrics)))
    return with_words(fig, summary["heuristic"].tolist(), rows)


BUSIEST_SERVERS = 5  # servers the phases chart shows by default: a few, so that each task's lane can be read


def busiest_servers(frame: pd.DataFrame, count: int = BUSIEST_SERVERS) -> list[int]:
    """The ``count`` servers that ran the most tasks of a schedule table (the most lanes; a tie to the lower index), in
    server order."""
    f = frame.dropna(subset=["finish"])
    tasks = f["machine"].astype(int).value_counts()
    ranked = sorted(tasks.index, key=lambda j: (-int(tasks[j]), int(j)))
    return sorted(int(j) for j in ranked[:max(0, int(count))])


def gantt(frame: pd.DataFrame, title: str = "", height: int | None = None,
          servers: Sequence[int] | None = None) -> go.Figure:
    """Tasks overlapping on their servers: one lane per task within its server's band, the input, compute and
    output phases coloured. ``frame``: a schedule table (task, machine, arrival, input_end, compute_end, finish);
    ``servers``: only these servers' bands (all by default; :func:`busiest_servers` picks a readable few)."""
    f = frame.dropna(subset=["finish"])
    shown = sorted(set(int(j) for j in servers)) if servers is not None else \
        list(range(int(f["machine"].max()) + 1 if len(f) else 1))
    f = f[f["machine"].isin(shown)]
    at = np.searchsorted(np.asarray(shown, np.int64), f["machine"].to_numpy(np.int64))  # each task's band
    lane = lanes(f["machine"].to_numpy(), f["arrival"].to_numpy(float), f["finish"].to_numpy(float))
    width = np.ones(len(shown), np.int64)
    np.maximum.at(width, at, lane + 1)
    base = np.concatenate([[0], np.cumsum(width + 1)])  # each band is its lanes plus a gap
    y = base[at] + lane
    fig = go.Figure()
    bounds = {"input": ("arrival", "input_end"), "compute": ("input_end", "compute_end"),
              "output": ("compute_end", "finish")}
    for phase, (a, b) in bounds.items():
        start, end = f[a].to_numpy(float), f[b].to_numpy(float)
        fig.add_trace(go.Bar(
            base=start, x=end - start, y=y, orientation="h", name=phase, marker_color=PHASE_COLORS[phase],
            customdata=np.stack([f["task"], f["machine"], start, end], axis=1), width=0.8,
            hovertemplate=f"task %{{customdata[0]}} on {SERVERS.prefix}%{{customdata[1]}}: {phase} "
                          f"%{{customdata[2]:.2f}} - "
                          "%{customdata[3]:.2f} s<extra></extra>"))
    centres = base[:-1] + (width - 1) / 2.0
    rows = int(base[-1])
    lane_px = float(np.clip(600 / max(rows, 1), 10, 24))  # fewer lanes, taller ones
    fig.update_layout(barmode="overlay", height=height or int(min(900, 120 + lane_px * rows)),
                      title={"text": title, "x": 0, "y": 1, "yanchor": "top", "pad": {"t": 8}}, xaxis_title="time (s)",
                      yaxis_title="server (a lane per task)",
                      legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1.0, "xanchor": "right",
                              "title": {"text": "phase"}},
                      yaxis={"tickvals": centres, "ticktext": [SERVERS.name(j) for j in shown],
                             "autorange": "reversed"},
                      margin={"t": 70, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)


def gain_bars(summary: pd.DataFrame, metrics: Sequence[Metric], benchmark: str, colors: dict[str, str] | None = None,
              references: Mapping[str, str] | None = None) -> go.Figure:
    """Gains against ``benchmark`` in %, the shared bars with each heuristic's rule in words (:func:`named_bars`), each
    tick written as a percentage ("-10%", "0%", "20%") and the axis titled in words below the ticks. ``summary``:
    :func:`hcsched.stats.summarize` of the gains. Several gains side by side are titled by what they are gains on
    ("Total flow time"), so that three titles fit side by side in a 1000-px window."""
    if len(metrics) > 1:
        metrics = [dataclasses.replace(m, title=m.title.removeprefix("Gain on ").capitalize()) for m in metrics]
    fig = named_bars(summary, metrics, colors, references, benchmark)
    # the page says on what
    fig.update_xaxes(ticksuffix="%", title_text="gain (%)", zeroline=True, zerolinecolor="#555")
    return fig


def sooner_same_later(summary: pd.DataFrame, labels: list[str], reference: str = "the benchmark",
                      better: str = "") -> go.Figure:
    """% of tasks finishing sooner, at the same time and later than ``reference``, stacked horizontally per heuristic
    (a row each, its rule in words under its name, :func:`tick_words`: readable with 12); the legend, above the bars,
    says what the colours mean; ``better``: which way is better for % sooner, for the title. ``summary``: mean
    pct_sooner, pct_same, pct_later indexed by heuristic label."""
    by = hover_names([*labels, reference])
    fig = go.Figure([go.Bar(y=labels, x=summary.loc[labels, c].tolist(), orientation="h", name=name,
                            marker_color=FINISH_COLORS[c], hovertext=[by[x] for x in labels],
                            hovertemplate="%{hovertext}<br>%{x:.1f}% of tasks finish " + FINISH_WORDS[c] +
                                          f" with {by.get(reference, reference)}<extra></extra>")
                     for c, name in FINISH_NAMES.items()])
    title = f"Tasks finishing sooner than {reference}"
    title = with_better(title, better) if better else title
    fig.update_layout(barmode="stack", height=170 + (26 + WORDS_PX) * max(3, len(labels)),
                      xaxis_title="share of the tasks (%)", xaxis={"range": [0, 100], "ticksuffix": "%"},
                      yaxis={"autorange": "reversed", "automargin": True, "title": {"text": "heuristic"},
                             "tickvals": labels, "ticktext": tick_words(labels)},
                      title={"text": title, "x": 0, "y": 1, "yanchor": "top", "pad": {"t": 8}},
                      legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right",
                              "traceorder": "normal", "title": {"text": f"finish vs {reference}"}},
                      margin={"t": 80, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)


def gain_heatmaps(table: pd.DataFrame, metric: str, mid: float = 0.0, columns: int = 4, title: str = "") -> go.Figure:
    """The paper's 3-D figures as heatmaps: ``metric`` (a gain in %, or a % of tasks) over (mu, number of tasks), one
    panel per heuristic on one colour scale centred at ``mid`` (0 for a gain, 50 for a % of tasks: the paper's
    "a gain is done if the value is greater than 50"); blue is better than the benchmark. ``table``: columns
    heuristic, mean_interarrival, tasks and ``metric`` (a sweep's summary or its rows; rows are averaged); ``title``:
    the figure's (what it shows and which way is better)."""
    labels = list(dict.fromkeys(table["heuristic"]))
    cols = max(1, min(columns, len(labels)))
    rows = -(-len(labels) // cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=labels, shared_xaxes=True, shared_yaxes=True,
                        horizontal_spacing=0.03, vertical_spacing=0.12 / max(1, rows - 1) if rows > 1 else 0.1)
    pivots = [table[table["heuristic"] == label].pivot_table(index="tasks", columns="mean_interarrival", values=metric,
                                                             aggfunc="mean") for label in labels]
    values = np.concatenate([p.to_numpy(float).ravel() for p in pivots])
    bound = float(np.nanmax(np.abs(values - mid))) if np.isfinite(values).any() else 1.0
    bound = bound or 1.0
    by = hover_names(labels)
    for i, (label, pivot) in enumerate(zip(labels, pivots, strict=True)):
        fig.add_trace(go.Heatmap(
            z=pivot.to_numpy(float), x=[f"{v:g}" for v in pivot.columns], y=[str(v) for v in pivot.index],
            colorscale="RdBu", zmid=mid, zmin=mid - bound, zmax=mid + bound, texttemplate="%{z:.1f}",
            textfont={"size": 10}, showscale=i == 0, colorbar={"ticksuffix": "%"}, name=label,
            hovertemplate=f"{by[label]}<br>mean inter-arrival μ = %{{x}} s, %{{y}} tasks: %{{z:.2f}}%<extra></extra>"),
            row=i // cols + 1, col=i % cols + 1)
    fig.update_xaxes(type="category", title_text="mean inter-arrival μ (s)", row=rows)
    fig.update_yaxes(type="category")
    fig.update_yaxes(title_text="tasks (number)", col=1)
    fig.update_layout(height=120 + 260 * rows, margin={"t": 80 if title else 40, "b": 10, "l": 10, "r": 10},
                      title={"text": title, "x": 0} if title else None)
    return fig


def server_bars(servers: pd.DataFrame, column: str, chosen: int | None = None) -> go.Figure:
    """One bar per server of an Explain column (a heuristic's score, T of the new task, ...)."""
    colors = [CATEGORY_PALETTE[1] if j == chosen else CATEGORY_PALETTE[0] for j in servers["server"]]
    fig = go.Figure(go.Bar(x=[SERVERS.name(int(j)) for j in servers["server"]], y=servers[column], marker_color=colors,
                           hovertemplate="%{x}: %{y:.4g}<extra></extra>"))
    fig.update_layout(height=260, yaxis_title=column, xaxis_title="server", margin={"t": 20, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)
