"""Plotly figure builders of the value model (Kim et al. 2007). Pure: they return figures and never draw.

- :func:`task_frame`: one run's tasks with their priority, deadlines, deadline outcome and value (the Gantt's data);
- :func:`gantt`: one run's Gantt chart coloured by deadline outcome, priority and deadlines on hover;
- :func:`value_bars`: V as % of UB per heuristic with 95% intervals, UB drawn as the 100% line (Figs. 2 and 3), the
  static benchmarks marked as references (:func:`reference_marks`, as the shared bars mark them);
- :func:`outcome_table`: one run's tasks by priority and deadline outcome, headed in plain words;
- :func:`outcome_bars`: tasks by deadline outcome, stacked per heuristic, one panel per priority;
- :func:`event_bars`: the values each heuristic compared in one mapping event (Explain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.charts import CATEGORY_PALETTE, direction, hover_names, plain_numbers, reference_marks, zoomed_start
from hcsched.formatting import ALL_WITHIN, ends_text, minutes_beside
from hcsched.metrics import Metric
from hcsched.models.value.spec import PRIORITIES
from hcsched.models.value.worth import EARLY_WORDS, OUTCOME_EARNS, OUTCOME_LABELS, OUTCOME_MEANINGS, OUTCOMES

#: One colour per deadline outcome, in the outcomes' order from best to worst: from the category palette (never a
#: heuristic's colour), pear for by the first deadline, then pale blue, yellow, orange, and grey for never started.
OUTCOME_COLORS = dict(zip(OUTCOMES, (CATEGORY_PALETTE[5], CATEGORY_PALETTE[4], CATEGORY_PALETTE[2], CATEGORY_PALETTE[1],
                                     CATEGORY_PALETTE[7]), strict=True))
OUTCOME_LEGEND = "deadline outcome"
#: A table's column header per outcome: the legend's label with what the task earns ("by 2nd deadline (half value)").
OUTCOME_HEADERS = {o: f"{OUTCOME_LABELS[o]} ({OUTCOME_EARNS[o]})" for o in OUTCOME_LABELS}
#: The paper's symbols in the words a manager reads first (Kim et al. 2007: V in section 2.2.3, UB in section 2.3, the
#: window [B, E] in section 2.2.3); each caption says the words, then the symbol once in parentheses.
VALUE_WORDS = "total value earned"
UB_WORDS = "upper bound on value"
UB_MEANS = "what every task would earn finishing at once"
WINDOW_WORDS = "the window of simulated time that counts, after the start-up"
#: The dotted line of :func:`value_bars`: the bound of section 2.3 over the tasks that arrive at or after B.
LATER_MOST_WORDS = "most the later tasks can earn"
LATER_MOST_COLOR = "#555"
#: The part of V earned by the tasks that arrive before B (section 2.2.3), as the value bars' grey end says it.
EARLY_WHY = "they arrive before scoring starts; their work before then earns nothing"
EARLY_COLOR = "#BBBBBB"
#: What the three soft deadlines earn (section 2.2.2), in words; the caption says them in words alone (the paper's
#: D100, D50 and D25 are named in the folded "What the short names on this page mean").
DEADLINES_WORDS = ("finishing by the first earns its full value, by the second half, by the third a quarter, later 5%, "
                   "never started nothing")
DEADLINES_TEXT = f"Each task has three soft deadlines: {DEADLINES_WORDS}."


def task_frame(run) -> pd.DataFrame:
    """task, machine, arrival, start, finish, priority, weight, d100, d50, d25, outcome (a name of
    :data:`~hcsched.models.value.worth.OUTCOMES`) and value (p d b) of every task of a :class:`ValueRun`."""
    s, w = run.schedule, run.workload
    return pd.DataFrame({
        "task": np.arange(w.tasks), "machine": s.machine, "arrival": w.arrival, "start": s.start, "finish": s.finish,
        "priority": np.array(PRIORITIES, dtype=object)[w.priority], "weight": w.weight, "d100": w.d100,
        "d50": w.d50, "d25": w.d25, "outcome": np.array(OUTCOMES, dtype=object)[run.outcome],
        "value": run.task_value})


def gantt(frame: pd.DataFrame, machines: int, title: str = "", window: tuple[float, float] | None = None,
          marks: tuple[float, float] | None = None) -> go.Figure:
    """Tasks on their machines, coloured by deadline outcome (one legend entry per outcome), with each task's
    priority, weight, deadlines and value on hover. ``frame``: :func:`task_frame`; ``window``: only tasks
    overlapping it; ``marks``: the evaluation window [B, E], drawn as dotted lines."""
    f = frame.dropna(subset=["start"])
    if window is not None:
        f = f[(f["finish"] > window[0]) & (f["start"] < window[1])]
    fig = go.Figure()
    for outcome in OUTCOMES:
        g = f[f["outcome"] == outcome]
        if g.empty:
            continue
        custom = np.column_stack([g["task"], g["priority"], g["weight"], g["arrival"], g["start"], g["finish"],
                                  g["d100"], g["d50"], g["d25"], g["value"]])
        fig.add_trace(go.Bar(
            y=[f"m{j}" for j in g["machine"]], base=g["start"], x=g["finish"] - g["start"], orientation="h",
            name=OUTCOME_LABELS[outcome], marker={"color": OUTCOME_COLORS[outcome], "line": {"color": "white",
                                                                                           "width": 0.5}},
            customdata=custom,
            hovertemplate=("task %{customdata[0]}, %{customdata[1]} priority (p = %{customdata[2]:.3g})<br>"
                           "arrival %{customdata[3]:.1f} s, start %{customdata[4]:.1f} s, finish "
                           "%{customdata[5]:.1f} s<br>deadlines (full, half, quarter value): "
                           "D100 %{customdata[6]:.1f}, "
                           "D50 %{customdata[7]:.1f}, D25 %{customdata[8]:.1f} s<br>value earned %{customdata[9]:.4g} "
                           "(priority weight x deadline factor x share in the window: p d b)<br>"
                           + OUTCOME_MEANINGS[outcome] + "<extra>" + OUTCOME_LABELS[outcome] + "</extra>")))
    for x, text, side in zip(marks if marks is not None else (), ("window start", "window end"), ("left", "right"),
                             strict=False):
        text = f"{text}, {minutes_beside(x, max(marks))}"  # both in one unit
        if window is None or window[0] <= x <= window[1]:  # a mark outside the window would stretch the axis
            fig.add_vline(x=x, line_dash="dot", line_color="#555", annotation_text=text, annotation_position="top",
                          annotation_xanchor=side)  # above the rows: inside, it covered machine m0's bars
    never = int((frame["outcome"] == "never_started").sum())
    note = f"<br><sup>{never} tasks never started (not drawn)</sup>" if never else ""
    fig.update_layout(
        barmode="overlay", title={"text": title + note, "y": 0.96, "yanchor": "top", "pad": {"t": 4}},
        height=150 + 28 * machines,
        xaxis={"title": "time (s)", **({"range": list(window)} if window is not None else {})},
        yaxis={"categoryorder": "array", "categoryarray": [f"m{j}" for j in range(machines)][::-1],
               "title": {"text": "machine"}},
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "x": 1, "xanchor": "right",
                "title": {"text": OUTCOME_LEGEND}},
        margin={"t": 110, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)


def outcome_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Tasks by priority (rows: high, medium, low) and deadline outcome (columns, best to worst, headed in plain
    words: :data:`OUTCOME_HEADERS`) of one run. ``frame``: :func:`task_frame`."""
    counts = pd.crosstab(frame["priority"], frame["outcome"]).reindex(index=list(PRIORITIES), columns=list(OUTCOMES),
                                                                      fill_value=0)
    counts.columns = pd.Index([OUTCOME_HEADERS[o] for o in OUTCOMES], name="deadline outcome")
    counts.index = pd.Index([f"{p} priority" for p in counts.index], name="priority")
    return counts


def _rows_height(labels: Sequence[str]) -> int:
    """A horizontal bar chart's height: a readable row per heuristic (12 fit without overlapping labels)."""
    return 170 + 26 * max(3, len(labels))


def early_shares(results: pd.DataFrame) -> dict[str, float]:
    """Label -> the mean, over trials, of the value of the tasks that arrive before B in % of that trial's UB (the
    part of ``value_pct_ub`` they earn); {} where the results lack either column."""
    if not {"value_early", "upper_bound"} <= set(results.columns):
        return {}
    share = 100.0 * results["value_early"] / results["upper_bound"]
    return {str(k): float(v) for k, v in share.groupby(results["heuristic"]).mean().items()}


def grey_leads(means: Mapping[str, float], early: Mapping[str, float], references: Sequence[str]) -> list[str]:
    """The references whose lead over the best online heuristic (``means``: label -> V as % of UB) is nine tenths
    or more in their grey ends (``early``: :func:`early_shares`), each said once: "ga's 5.1 points over max-min are
    all in its grey end: without it, ga 87.0%, max-min 87.1%" (a manager read GA's longer bar as a better
    schedule of the window that counts, where its lead is in how it carries the start-up tasks, section 2.2.3)."""
    online = {k: v for k, v in means.items() if k not in references and np.isfinite(v)}
    if not online or not early:
        return []
    best = max(online, key=online.get)
    out = []
    for r in (r for r in references if r in means and np.isfinite(means[r])):
        lead = means[r] - means[best]
        rest = (means[r] - early.get(r, 0.0), means[best] - early.get(best, 0.0))
        if lead > 0.5 and abs(rest[0] - rest[1]) <= 0.1 * lead:
            out.append(f"{r}'s {lead:.1f} points over {best} are all in its grey end: without it, {r} "
                       f"{rest[0]:.1f}%, {best} {rest[1]:.1f}%.")
    return out


def later_words(means: Mapping[str, float], early: Mapping[str, float], references: Sequence[str],
                most: float) -> str:
    """The caption's words on the dotted line of :func:`value_bars`, with how far short of it the online
    heuristics' solid parts end (``means``: label -> V as % of UB; ``early``: :func:`early_shares`): "The dotted line
    at 87.2% is the most the later tasks can earn ...: every solid part ends within 0.2 points of it, so none can do
    much better on them." (a tryout read the lead's "near the most possible, 87.2%" against a chart that drew only
    100%); "" without a finite ``most`` or an online heuristic."""
    solid = [means[k] - early.get(k, 0.0) for k in means if k not in references and np.isfinite(means[k])]
    if not solid or not np.isfinite(most):
        return ""
    near, far = sorted(abs(most - x) for x in (min(solid), max(solid)))
    said = (f"The dotted line at {most:.1f}% is the {LATER_MOST_WORDS}: the upper bound over the tasks that arrive "
            "once scoring has started.")
    if far < ALL_WITHIN:
        return f"{said[:-1]}; every solid part ends within {far:.1f} points of it, so none can do much better on them. "
    a, b = ends_text(near, far)
    return f"{said} The solid parts end {a}–{b} points from it. "


def value_bars(summary: pd.DataFrame, labels: Sequence[str], colors: dict[str, str] | None = None,
               metric: Metric | None = None, references: Mapping[str, str] | None = None,
               early: Mapping[str, float] | None = None, later_most: float | None = None) -> go.Figure:
    """V as % of UB, a horizontal bar per heuristic with its 95% interval, and UB as the 100% line (the paper's Figs.
    2 and 3); the title says which way is better (``metric``: the model's ``value_pct_ub``); ``references``: label ->
    what it is, for the heuristics that cannot run online (TPSA and GA, section 5), marked as the shared bars mark them
    (:func:`reference_marks`: hatched, "(reference)" beside the name, what it is on hover), so that nobody reads the
    longest bar, GA's, as a winner. ``summary``: columns heuristic, value_pct_ub, value_pct_ub_lower,
    value_pct_ub_upper. ``early``: label -> the mean value of the tasks that arrive before the window opens, in % of
    UB (:func:`early_shares`); with it, each bar ends in a grey part of that length, so a lead made there (work before
    B earns nothing, section 2.2.3) shows as one; the interval stays the whole value's. ``later_most``: the most the
    later tasks can earn, in % of UB (the bound of section 2.3 over the tasks arriving at or after B), drawn as a
    dotted line, so that the solid parts read against what they can reach, not only against 100%."""
    s = summary.set_index("heuristic").loc[list(labels)]
    mean = s["value_pct_ub"].to_numpy(float)
    colors = colors or {}
    marks = reference_marks(labels, references)
    part = np.array([float((early or {}).get(x, 0.0)) for x in labels])
    interval = {"type": "data", "array": np.nan_to_num(s["value_pct_ub_upper"].to_numpy(float) - mean),
                "arrayminus": np.nan_to_num(mean - s["value_pct_ub_lower"].to_numpy(float)), "visible": True}
    whole = np.column_stack([s[["value_pct_ub_lower", "value_pct_ub_upper"]].to_numpy(float), mean, part])
    said = ("%{hovertext}<br>total value earned: %{customdata[2]:.2f}% of the upper bound<br>95% interval of the "
            "mean: %{customdata[0]:.2f}% to %{customdata[1]:.2f}%")
    fig = go.Figure(go.Bar(
        y=list(labels), x=mean - part, orientation="h",
        marker={"color": [colors.get(x, "#0072B2") for x in labels], "pattern": marks.pattern},
        showlegend=False, hovertext=marks.hover, customdata=whole, error_x=None if early else interval,
        hovertemplate=said + (f"<br>of which {EARLY_WORDS}: %{{customdata[3]:.2f}}%" if early else "")
        + "<extra></extra>"))
    if early:
        fig.add_trace(go.Bar(
            y=list(labels), x=part, orientation="h", name=f"{EARLY_WORDS} (arriving before scoring starts)",
            marker={"color": EARLY_COLOR},
            showlegend=True, hovertext=marks.hover, customdata=whole, error_x=interval,
            hovertemplate=f"%{{hovertext}}<br>{EARLY_WORDS}: %{{customdata[3]:.2f}}% of the upper bound ({EARLY_WHY})"
                          "<br>" + said.split("<br>", 1)[1] + "<extra></extra>"))
        fig.update_layout(barmode="stack", legend={"orientation": "h", "x": 0, "xanchor": "left", "y": 1.0,
                                                   "yanchor": "bottom"})
    fig.add_vline(x=100.0, line_dash="dash", line_color="#333", annotation_text="upper bound",
                  annotation_position="top")
    top = np.nanmax(np.append(s["value_pct_ub_upper"].to_numpy(float), 100.0))
    low = zoomed_start(np.append(s["value_pct_ub_lower"].to_numpy(float), later_most if later_most else np.nan))
    if later_most is not None and np.isfinite(later_most):  # its words stay clear of "upper bound" at the top
        side = "left" if (later_most - low) / (top - low) < 0.6 else "right"
        fig.add_vline(x=later_most, line_dash="dot", line_color=LATER_MOST_COLOR, annotation_text=LATER_MOST_WORDS,
                      annotation_position="top", annotation_xanchor=side)
    better = f": {direction(metric)}" if metric is not None else ""
    axis = "value, % of the upper bound" + (f" (the axis starts at {low:g}%)" if low > 0 else "")
    fig.update_layout(height=_rows_height(labels), title={"text": f"Value as % of the upper bound{better}", "x": 0},
                      xaxis_title=axis, xaxis_range=[low, top + 0.08 * (top - low)], xaxis_ticksuffix="%",
                      yaxis={"autorange": "reversed", "automargin": True, "title": {"text": "heuristic"}},
                      margin={"t": 80 if early else 60, "b": 10, "l": 10, "r": 10})
    if marks.references:
        fig.update_yaxes(tickvals=list(labels), ticktext=marks.ticktext)
    return plain_numbers(fig)


def outcome_bars(counts: pd.DataFrame, labels: Sequence[str], metric: Metric | None = None,
                 references: Mapping[str, str] | None = None) -> go.Figure:
    """Tasks by deadline outcome (best to worst), stacked horizontally per heuristic, one panel per priority; the
    legend, right of the panels, says the colours are deadline outcomes; the title says which way is better
    (``metric``: the model's ``met_d100``). ``counts``: indexed by heuristic label, columns ``<outcome>_<priority>``
    (mean tasks per trial)."""
    fig = make_subplots(rows=1, cols=len(PRIORITIES), shared_yaxes=True,
                        subplot_titles=[f"{p} priority" for p in PRIORITIES], horizontal_spacing=0.03)
    by = hover_names(labels)
    for col, p in enumerate(PRIORITIES, start=1):
        for outcome in OUTCOMES:
            x = counts.loc[list(labels), f"{outcome}_{p}"].to_numpy(float)
            fig.add_trace(go.Bar(y=list(labels), x=x, orientation="h", name=OUTCOME_LABELS[outcome],
                                 legendgroup=outcome, marker_color=OUTCOME_COLORS[outcome], showlegend=col == 1,
                                 hovertext=[by[label] for label in labels],
                                 hovertemplate="%{hovertext}<br>" + p + " priority: %{x:.1f} tasks per trial "
                                               + OUTCOME_LABELS[outcome] + " (" + OUTCOME_MEANINGS[outcome] + ")"
                                               + "<extra></extra>"), row=1, col=col)
    better = f" (tasks by their 1st deadline: {direction(metric)})" if metric is not None else ""
    fig.update_layout(barmode="stack", height=_rows_height(labels) + 40,
                      title={"text": f"Tasks by priority and deadline outcome{better}", "x": 0},
                      legend={"x": 1.01, "xanchor": "left", "y": 1, "yanchor": "top", "traceorder": "normal",
                              "title": {"text": OUTCOME_LEGEND}},  # right of the panels, whose titles are above
                      margin={"t": 70, "b": 10, "l": 10, "r": 10})
    fig.update_yaxes(autorange="reversed", automargin=True)
    if references:
        fig.update_yaxes(tickvals=list(labels), ticktext=reference_marks(labels, references).ticktext)
    fig.update_yaxes(title_text="heuristic", col=1)
    fig.update_xaxes(title_text="tasks (mean)")  # short: three narrow panels side by side
    return plain_numbers(fig)


def event_bars(table: pd.DataFrame, value: str, title: str = "") -> go.Figure:
    """The values a heuristic compared in one mapping event: a bar per (task, machine), grouped by task, the pair it
    chose first outlined. ``table``: columns task, machine, ``value`` and ``chosen`` (bool)."""
    fig = go.Figure()
    for j in sorted(table["machine"].unique()):
        g = table[table["machine"] == j]
        fig.add_trace(go.Bar(x=[f"t{i}" for i in g["task"]], y=g[value], name=f"m{j}",
                             marker_line={"width": [3 if c else 0 for c in g["chosen"]], "color": "#000"},
                             hovertemplate=f"%{{x}} on m{j}: {value} %{{y:.4g}}<extra></extra>"))
    fig.update_layout(barmode="group", height=320, title=title, yaxis_title=value, xaxis_title="task",
                      legend={"title": {"text": "machine"}}, margin={"t": 40, "b": 10, "l": 10, "r": 10})
    return plain_numbers(fig)
