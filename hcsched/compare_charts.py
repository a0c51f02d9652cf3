"""The chart of two runs compared (:mod:`hcsched.compare`): per heuristic, the baseline's and the what-if's means side
by side, and the change with its 95% interval."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.charts import (
    axis_title,
    direction,
    heuristic_colors,
    plain_numbers,
    reference_marks,
    tick_format,
    time_ticks,
    zoomed_start,
)
from hcsched.compare import TIMES_FROM, Change, RunComparison, change_words
from hcsched.formatting import readable
from hcsched.metrics import Metric

BEFORE_PATTERN = {"shape": "/", "fgcolor": "#ffffff", "solidity": 0.45}  # the baseline's bars: hatched, lighter


def _change_axis(metric: Metric, kind: str) -> str:
    """The change panel's axis title: in percent or points, or, as factors, "times the baseline's mean"."""
    if kind == "times":
        side = {"lower": "below 1 = better", "higher": "above 1 = better"}.get(metric.better, direction(metric))
        return f"change (times the baseline's mean, log scale; {side})"
    unit = "% of the baseline's mean" if kind == "percent" else "points"
    side = {"lower": "below 0 = better", "higher": "above 0 = better"}.get(metric.better, direction(metric))
    return f"change ({unit}; {side})"


def _as_factors(rows: list[Change]) -> bool:
    """Whether the change panel says its changes as factors ("×16,796" on a log axis, never "+1,679,543%"): some
    change in percent has its interval above +900%, as :func:`hcsched.compare.change_words` says "times", and every
    change and interval bound is above -100% (a factor above 0, which a log axis can show)."""
    percent = [c for c in rows if c.kind == "percent"]
    if len(percent) != len(rows) or not any(c.lower >= TIMES_FROM for c in percent):
        return False
    bounds = np.array([[c.change, c.lower, c.upper] for c in percent], float)
    return bool(np.all(np.isnan(bounds) | (bounds > -100.0)))


def _short(c: Change) -> str:
    """The change alone, as its marker's label: "-30%", "+1.2 points", "×55"."""
    words = change_words(c)
    return "" if words == "no change in any trial" else words.split(" [")[0].replace(" in every trial", "")


def change_chart(cmp: RunComparison, metric: Metric, colors: dict[str, str] | None = None,
                 references: Mapping[str, str] | None = None) -> go.Figure:
    """Two panels sharing the heuristics' rows: the means before (hatched) and after (solid), and the change with its
    95% interval (paired or Welch, as the comparison says), a line at no change. A heuristic in one run only has one
    bar and no change. Changes of many times the baseline (a queue that grows for the whole run) are drawn as factors
    on a log axis (:func:`_as_factors`). ``colors``: each heuristic's, as its Results page has them; ``references``
    (label -> what it is: heuristics that cannot run online) said "(reference)" beside the name and on hover, as the
    Results page's bars say them (hatching here marks the baseline)."""
    rows: list[Change] = [c for c in cmp.changes if c.metric == metric.name]
    labels = [c.heuristic for c in rows]
    colors = colors or {}
    fallback = heuristic_colors([c.after_label or c.before_label for c in rows])
    color = [colors.get(c.after_label or c.before_label) or fallback[c.after_label or c.before_label] for c in rows]
    marks = reference_marks([c.after_label or c.before_label for c in rows], references)
    hover = marks.hover
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.08, column_widths=[0.5, 0.5],
                        subplot_titles=["Before (hatched) and after",
                                        f"Change, 95% interval ({'paired' if cmp.paired else 'Welch'})"])
    for word, attr, pattern, opacity in (("before", "before", BEFORE_PATTERN, 0.55), ("after", "after", None, 1.0)):
        values = [getattr(c, attr) for c in rows]
        fig.add_trace(go.Bar(
            y=labels, x=values, orientation="h", name=f"{word} ({'baseline' if word == 'before' else 'what-if'})",
            marker={"color": color, "opacity": opacity, **({"pattern": pattern} if pattern else {})},
            hovertext=[f"{h}<br>{word}: {readable(v, metric) if not math.isnan(v) else 'not in this run'}"
                       for h, v in zip(hover, values, strict=True)],
            hovertemplate="%{hovertext}<extra></extra>", showlegend=False), row=1, col=1)
    factors = _as_factors(rows)
    at = (lambda x: 1.0 + x / 100.0) if factors else (lambda x: x)  # noqa: E731  (a percent as the factor it makes)
    change = np.array([at(c.change) for c in rows], float)
    fig.add_trace(go.Scatter(
        y=labels, x=change, mode="markers+text", marker={"color": color, "size": 11, "symbol": "diamond"},
        text=[_short(c) for c in rows], textposition="top center", textfont={"size": 11}, showlegend=False,
        error_x={"type": "data", "array": np.nan_to_num([at(c.upper) - at(c.change) for c in rows]),
                 "arrayminus": np.nan_to_num([at(c.change) - at(c.lower) for c in rows]), "visible": True,
                 "thickness": 2},
        hovertext=[f"{h}<br>change: {change_words(c)}" for h, c in zip(hover, rows, strict=True)],
        hovertemplate="%{hovertext}<extra></extra>"), row=1, col=2)
    fig.add_vline(x=1 if factors else 0, line={"color": "#555", "width": 1, "dash": "dot"}, row=1, col=2)
    kind = "times" if factors else next((c.kind for c in rows), "percent")
    both = [x for c in rows for x in (c.before, c.after)]
    spans = time_ticks(both, both, minutes=False) if metric.unit == "s" else None  # hours or days, as the line says
    fig.update_xaxes(title={"text": axis_title(metric, spans[2] if spans else ""), "font": {"size": 11}}, row=1,
                     col=1)
    if spans:
        fig.update_xaxes(tickvals=spans[0], ticktext=spans[1], row=1, col=1)
    if metric.unit == "%" and (low := zoomed_start(np.array(both, float))) > 0:  # a few points apart near 90%
        top = float(np.nanmax(np.array(both, float)))
        fig.update_xaxes(range=[low, top + 0.08 * (top - low)], title={"text": f"{axis_title(metric)} (the axis "
                         f"starts at {low:g}%)", "font": {"size": 11}}, row=1, col=1)
    if metric.fmt:
        fig.update_xaxes(tickformat=tick_format(metric.fmt), row=1, col=1)
    fig.update_xaxes(title={"text": _change_axis(metric, kind), "font": {"size": 11}}, zeroline=not factors,
                     ticksuffix={"percent": "%", "times": "×"}.get(kind, ""), type="log" if factors else "-", row=1,
                     col=2)
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True)
    if marks.references:  # the reference's row ticked "ga (reference)": its category stays its label
        ticks = [label + tick[len(c.after_label or c.before_label):] for label, tick, c
                 in zip(labels, marks.ticktext, rows, strict=True)]
        fig.update_yaxes(tickvals=labels, ticktext=ticks)
    fig.update_yaxes(title_text="heuristic", col=1)
    fig.update_xaxes(nticks=6, automargin=True)
    height = 140 + 44 * max(2, len(labels))
    fig.update_annotations(font={"size": 13})
    fig.update_layout(height=height, barmode="group", bargap=0.25, margin={"t": 50, "b": 50, "l": 10, "r": 20})
    return plain_numbers(fig)
