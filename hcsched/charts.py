"""Plotly figure builders for results and schedules. Pure: they return figures and never draw."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from hcsched.formatting import minutes_beside, readable_number, span_unit
from hcsched.heuristics import heuristic_hovers, heuristic_names
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
    registered heuristic, get the first colours no one else of the set claims. ``heuristics``: specs or labels; a label
    given twice (two runs' heuristics together) counts once, so that it keeps the colour it has in either run."""
    names = heuristic_names()
    first: dict[str, object] = {}
    for item in heuristics:
        first.setdefault(_label(item), item)
    heuristics = list(first.values())
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
    """A metric's number format on hover: its own, else four significant digits written out ("651,000", never
    "6.510e+5")."""
    return metric.fmt or ",.4~r"


BETTER = {"lower": "lower is better", "higher": "higher is better", "": "for context only"}

#: The words an axis gives a metric without a unit (a ratio, a count), by the metric's name: what its numbers are.
UNITLESS = (("normalized_", "ratio to the benchmark (1 = as good)"), ("stretch", "ratio: flow time / run time"),
            ("_bound", "ratio to the lower bound (1 = best)"), ("", "count"))
#: Units as an axis title says them.
UNIT_WORDS = {"s": "seconds", "ms": "milliseconds", "%": "%"}


def axis_unit(metric: Metric) -> str:
    """The unit of a metric's axis in words: "seconds", "tasks", "%" (a fraction shown as a percent, e.g. utilisation,
    or a percentage), or, for a metric without a unit, what its numbers are ("ratio to the benchmark (1 = as good)",
    "ratio: flow time / run time", "count")."""
    if metric.unit == "%" or metric.fmt.endswith("%"):
        return "%"
    if metric.unit:
        return UNIT_WORDS.get(metric.unit, metric.unit)
    return next(words for key, words in UNITLESS if key in metric.name)


def axis_title(metric: Metric, unit: str = "") -> str:
    """A metric's axis title with its unit: "Makespan (s)", "Efficiency (%)", "Max stretch (ratio: flow time / run
    time)"; a title that already names its unit ("Value, % of the upper bound") as it is; ``unit``: the one its axis
    is ticked in where not its own ("Makespan (days)", :func:`time_ticks`)."""
    if unit:
        return f"{metric.title} ({unit})"
    unit = "%" if metric.unit == "%" or metric.fmt.endswith("%") else metric.unit or axis_unit(metric)
    if "%" in metric.title and unit == "%" or f"({unit})" in metric.title:
        return metric.title
    return f"{metric.title} ({unit})"


def plain_numbers(fig: go.Figure) -> go.Figure:
    """Every axis of ``fig`` writes its numbers out with thousands separators ("535,000"), never with an SI prefix:
    Plotly's default "535k" beside "(s)" reads as kiloseconds. Axes with their own tick texts or a format keep them."""
    fig.update_xaxes(exponentformat="none", separatethousands=True)
    fig.update_yaxes(exponentformat="none", separatethousands=True)
    return fig


def hover_names(labels) -> dict[str, str]:
    """Each heuristic label with its plain-words title, for hover text ("fa: earliest estimated finish"), from the
    heuristic registry (:func:`hcsched.heuristics.heuristic_hovers`); a label it does not know stays as it is."""
    return heuristic_hovers(labels)


def direction(metric: Metric) -> str:
    """Which way is better, as a chart title says it."""
    return BETTER[metric.better]


#: a time unit as a panel's title says it, short: five panels at 1000 px leave no room for "(hours)" (the browser
#: check found "Mean flow time (hours)" over its neighbour's title); the axis below says the word whole
SHORT_SPANS = {"minutes": "min", "hours": "h", "days": "d", "years": "yr"}


def panel_title(metric: Metric, unit: str = "") -> str:
    """A panel's title: the metric with its unit (``unit``: the one its axis is ticked in, "days", where not its
    own), and which way is better (an arrow says it at a glance)."""
    arrow = {"lower": "↓ ", "higher": "↑ "}.get(metric.better, "")
    label = f"{metric.title} ({unit})" if unit else metric.label
    return f"{label}<br><span style='font-size:11px;color:#555'>{arrow}{direction(metric)}</span>"


ROW_GAP_PX = 110  # between rows of panels: a row's tick labels, its unit and the next row's two-line title


def grid_columns(panels: int, widest: int = 3) -> int:
    """Columns of a fixed grid of ``panels`` in which no panel stands alone on its row (3, else 2, 4 or 5 a row)."""
    if panels <= widest:
        return max(1, panels)
    return next((c for c in (widest, 2, widest + 1, widest + 2) if panels % c != 1), widest)


@dataclasses.dataclass(frozen=True)
class ReferenceMarks:
    """How a bar chart marks the heuristics that cannot run online (full-knowledge benchmarks, e.g. GA and TPSA:
    :func:`hcsched.verdict.scenario_references`), as :func:`metric_bars` and the value model's own chart do: hatched
    bars (``pattern`` for ``marker.pattern``), "(reference)" beside the name (``ticktext``) and what each is on hover
    (``hover``)."""

    hover: list[str]
    pattern: dict
    ticktext: list[str]
    references: dict[str, str]


def reference_marks(labels: Sequence[str], references: Mapping[str, str] | None = None) -> ReferenceMarks:
    """The marks of ``references`` (label -> what it is) among ``labels``, in the labels' order."""
    refs = {label: what for label, what in (references or {}).items() if label in labels}
    by = hover_names(labels)
    return ReferenceMarks(
        hover=[by[x] + (f" (a reference, not a contender: {refs[x]})" if x in refs else "") for x in labels],
        pattern={"shape": ["/" if x in refs else "" for x in labels], "fgcolor": "#ffffff", "solidity": 0.3},
        ticktext=[f"{x} (reference)" if x in refs else x for x in labels], references=refs)


def tick_format(fmt: str) -> str:
    """A metric's number format for axis ticks: trailing zeros trimmed (".2f" ticks "0, 50, 100", not "0.00")."""
    return re.sub(r"^([,]?\.\d+)([fe%])$", r"\1~\2", fmt)


LOG_SPAN = 30  # bars whose means span more than this factor share a log axis: the shortest would not be seen


def log_range(mean: np.ndarray, lower: np.ndarray, upper: np.ndarray, span: float = LOG_SPAN
              ) -> tuple[float, float] | None:
    """The range (powers of ten, as a log axis takes it) of a panel whose bars ``mean`` span over ``span`` times
    (every one positive), from the power of ten below the shortest bar or the lowest positive interval end to the one
    above the highest: its ticks read 10, 100, 1,000; None for a linear axis."""
    ok = np.isfinite(mean)
    if ok.sum() < 2 or (mean[ok] <= 0).any() or mean[ok].max() / mean[ok].min() <= span:
        return None
    low = np.r_[mean[ok], lower[np.isfinite(lower) & (lower > 0)]]
    high = np.r_[mean[ok], upper[np.isfinite(upper)]]
    return float(np.floor(np.log10(low.min()))), float(np.ceil(np.log10(high.max())))


def metric_bars(summary: pd.DataFrame, metrics: Sequence[Metric], colors: dict[str, str] | None = None,
                references: Mapping[str, str] | None = None, benchmark: str | None = None,
                lines: Mapping[str, tuple[float, str]] | None = None) -> go.Figure:
    """One panel per metric in a fixed grid: a horizontal bar per heuristic with its 95% interval as an error bar.

    Heuristics are rows named once at the left of each row of panels (readable with 12 or more, no rotated labels);
    panel titles carry the unit and which way is better; a metric with no value (e.g. stretch when every task had
    zero length) says so in its panel instead of leaving it empty. ``references``: label -> what it is, for the
    heuristics that cannot run online (full-knowledge benchmarks): hatched bars, "(reference)" beside the name, and
    what it is on hover, so that nobody reads one as a contender. ``benchmark``: the label the normalised metrics
    are ratios to, "(benchmark)" beside its row and named on their axes. ``lines``: metric -> (value, words), a
    dashed vertical line across its panel, named on its axis (a bound on the best possible, e.g. the mean lower bound
    on the makespan: "seconds (dashed: mean lower bound)")."""
    labels = summary["heuristic"].tolist()
    colors = colors or heuristic_colors(labels)
    marks = reference_marks(labels, references)
    references = marks.references
    names = dict(zip(labels, marks.hover, strict=True))
    hatch = marks.pattern
    cols = grid_columns(len(metrics))
    rows = -(-len(metrics) // cols)
    row_px = 30 + 24 * max(2, len(labels))  # a panel's plot area
    plots = rows * row_px + (rows - 1) * ROW_GAP_PX
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[panel_title(m) for m in metrics], shared_yaxes=True,
                        horizontal_spacing=0.06, vertical_spacing=ROW_GAP_PX / plots if rows > 1 else 0.1)
    for k, m in enumerate(metrics, start=1):
        row, col = (k - 1) // cols + 1, (k - 1) % cols + 1
        mean = summary[m.name].to_numpy(float)
        low, high = summary[f"{m.name}_lower"].to_numpy(float), summary[f"{m.name}_upper"].to_numpy(float)
        f = _hover_format(m)
        unit = "" if m.fmt.endswith("%") or not m.unit else "%" if m.unit == "%" else f" {m.unit}"
        span = log_range(mean, low, high)
        if span is not None:  # whiskers past the axis' left end stop at it (the hover says the whole interval)
            low = np.maximum(low, 10 ** span[0])
            _print_values(fig, labels, mean, span[0], row, col)
        reach = np.where(np.isfinite(high), high, mean)  # one trial so far: no interval, the mean is the bar's end
        spans = time_ticks(reach, mean) if span is None and m.unit == "s" else None  # days or hours, as said
        if spans is not None:  # the panel's title in the unit its axis says
            fig.layout.annotations[k - 1].text = panel_title(m, SHORT_SPANS[spans[2]])  # its axis says it whole
        said = f"%{{x:{f}}}{unit}", f"%{{customdata[0]:{f}}} to %{{customdata[1]:{f}}}{unit}"
        if spans is not None:
            said = "%{customdata[2]}", "%{customdata[3]}"
        fig.add_trace(go.Bar(
            y=labels, x=mean, orientation="h", marker={"color": [colors[x] for x in labels], "pattern": hatch},
            showlegend=False, name=m.title,
            error_x={"type": "data", "array": np.nan_to_num(high - mean), "arrayminus": np.nan_to_num(mean - low),
                     "visible": True},
            customdata=_with_spans(summary[f"{m.name}_lower"], summary[f"{m.name}_upper"], mean, spans is not None),
            hovertext=[names[x] for x in labels],
            hovertemplate=f"%{{hovertext}}<br>{m.title}: mean {said[0]}<br>95% interval of the mean: "
                          f"{said[1]}<extra></extra>",
        ), row=row, col=col)
        words = axis_unit(m)
        if spans is not None:
            fig.update_xaxes(tickvals=spans[0], ticktext=spans[1], row=row, col=col)
            words = spans[2]
        if benchmark and m.name.startswith("normalized_"):  # "ratio to min-min (1 = as good)"
            words = words.replace("the benchmark", benchmark, 1)
        if lines and m.name in lines and np.isfinite(lines[m.name][0]):  # named on the axis: a label in the plot
            x, text = lines[m.name]  # would widen its range (autorange makes room for annotations)
            fig.add_vline(x=x, line={"dash": "dash", "color": "#444", "width": 1.5}, row=row, col=col)
            words += f" (dashed: {text})"
        if span is not None:
            words += ", log scale"
            fig.update_xaxes(type="log", range=list(span), dtick=1, tickformat=",~g", row=row, col=col)
        elif m.fmt:
            fig.update_xaxes(tickformat=tick_format(m.fmt), row=row, col=col)
        elif m.unit == "%":  # a percentage written as such: "40%", not "40" beside a loose "%"
            fig.update_xaxes(ticksuffix="%", row=row, col=col)
        fig.update_xaxes(title={"text": words, "font": {"size": 11}, "standoff": 10}, row=row, col=col)
        if not np.isfinite(mean).any():
            fig.add_annotation(text="no value in this run:<br>undefined for every trial", showarrow=False,
                               xref=f"x{k if k > 1 else ''} domain", yref=f"y{k if k > 1 else ''} domain",
                               x=0.5, y=0.5, font={"color": "#666"})
    fig.update_yaxes(autorange="reversed", categoryorder="array", categoryarray=labels, automargin=True)
    if benchmark in labels or references:
        fig.update_yaxes(tickvals=labels, ticktext=marked_ticks(labels, marks.ticktext, benchmark, references))
    fig.update_yaxes(title_text="heuristic", col=1)
    fig.update_xaxes(nticks=5, automargin=True)
    fig.update_annotations(yshift=6)
    fig.update_layout(height=plots + 110, margin={"t": 60, "b": 50, "l": 10, "r": 20}, bargap=0.25)
    return plain_numbers(fig)


def time_ticks(values, means, from_zero: bool = True,
               minutes: bool = True) -> tuple[list[float], list[str], str] | None:
    """Ticks of a time axis in seconds whose every mean (``means``: the heuristics' averages, as the page's sentences
    say them) is ten minutes or more, in the unit the sentences say the least of them in
    (:func:`~hcsched.formatting.span_unit`: minutes, hours or days): their places in seconds, their numbers in that
    unit ("0", "2", "4", "6"), and the axis' word ("days"); from zero (bars), else over the ``values``' own span
    (per-trial boxes); None where a mean is under ten minutes (seconds, as its sentence says it); not ``minutes``:
    from an hour only (a what-if line says its times in hours or days). A page said "6.2 days (535,000 s)" in its lead
    over an axis in seconds: one unit per metric on the page, the seconds kept on hover."""
    finite, said = (np.asarray(x, float) for x in (values, means))
    finite, said = finite[np.isfinite(finite)], said[np.isfinite(said)]
    top = float(finite.max()) if finite.size else 0.0
    unit = span_unit(float(said.min()), minutes) if said.size and top > 0 else None
    if unit is None:
        return None
    scale, word = unit
    bottom = 0.0 if from_zero else float(finite.min()) / scale
    reach = max(top / scale - bottom, top / scale * 1e-3)
    step = next(x * 10.0 ** k for k in range(int(np.floor(np.log10(reach))) - 1, 20) for x in (1, 2, 2.5, 5)
                if reach / (x * 10.0 ** k) <= 5)
    ticks = step * np.arange(np.floor(bottom / step), np.ceil(top / scale / step) + 1)
    ticks = ticks[(ticks >= bottom - step) & (ticks <= top / scale + step)]
    if from_zero:
        ticks = ticks[ticks <= top / scale]
    return [float(t * scale) for t in ticks], [f"{round(t, 6):,g}" for t in ticks], word


def _with_spans(lower, upper, mean, spans: bool) -> np.ndarray:
    """A bar trace's hover data: the interval's ends, and, for a time axis in days or hours (:func:`time_ticks`),
    the mean and the interval as the sentences say them ("6.2 days (535,000 s)")."""
    ends = np.column_stack([np.asarray(lower, float), np.asarray(upper, float)])
    if not spans:
        return ends
    means = [minutes_beside(x) if np.isfinite(x) else "n/a" for x in mean]
    between = [f"{minutes_beside(a)} to {minutes_beside(b)}" if np.isfinite(a) and np.isfinite(b) else "n/a"
               for a, b in ends]
    return np.column_stack([ends.astype(object), np.array(means, object), np.array(between, object)])


def zoomed_start(lowers: np.ndarray, step: float = 10.0) -> float:
    """Where a % axis starts so that differences of a few points between bars near 90% show: the lowest interval's
    lower end, less a step, rounded down to the step (0 when that is below a step; the axis title says so): Kim et
    al.'s value bars, and the comparison chart's before and after of a share."""
    lowest = float(np.nanmin(lowers, initial=np.inf)) if np.isfinite(lowers).any() else 0.0
    start = step * float(np.floor((lowest - step) / step))
    return start if start >= step else 0.0


def marked_ticks(labels: Sequence[str], ticks: Sequence[str], benchmark: str | None,
                 references: Mapping[str, str] | None) -> list[str]:
    """Each row's tick, the benchmark's with "(benchmark)" beside its label (a reference keeps its own mark)."""
    return [f"{x} (benchmark)" if x == benchmark and x not in (references or {}) else t
            for x, t in zip(labels, ticks, strict=True)]


def trial_distribution(results: pd.DataFrame, metric: Metric, colors: dict[str, str] | None = None,
                       references: Mapping[str, str] | None = None, benchmark: str | None = None) -> go.Figure:
    """Per-trial values of one metric as a box per heuristic with every trial shown as a point, a row each named at
    its left as :func:`metric_bars` names them (readable with 12 or more, never rotated; a box's row is its label,
    ticked with what the row shows, as a bar's); ``references`` (label -> what it is: heuristics that cannot run
    online) named "(reference)" beside their box, and ``benchmark`` "(benchmark)" beside its, as in
    :func:`metric_bars`."""
    labels = list(dict.fromkeys(results["heuristic"]))
    colors = colors or heuristic_colors(labels)
    marks = reference_marks(labels, references)
    names = dict(zip(labels, marks.hover, strict=True))
    fig = go.Figure()
    for label in labels:
        rows = results[results["heuristic"] == label]
        fig.add_trace(go.Box(x=rows[metric.name], y=[label] * len(rows), name=label, orientation="h",
                             marker_color=colors[label], boxpoints="all", jitter=0.4, pointpos=0,
                             customdata=rows["trial"],
                             hovertemplate=f"{_escape(names[label])}<br>trial %{{customdata}}: "
                                           f"%{{x:{_hover_format(metric)}}}<extra></extra>"))
    spans = time_ticks(results[metric.name], results.groupby("heuristic")[metric.name].mean(), from_zero=False) \
        if metric.unit == "s" else None
    fig.update_layout(height=90 + 30 * max(3, len(labels)), showlegend=False,
                      xaxis_title=f"{axis_title(metric, spans[2] if spans else '')}, {direction(metric)}",
                      yaxis={"title": {"text": "heuristic"}, "autorange": "reversed", "automargin": True,
                             "categoryorder": "array", "categoryarray": labels, "tickvals": labels,
                             "ticktext": marked_ticks(labels, marks.ticktext, benchmark, references)},
                      margin={"t": 20, "b": 10, "l": 10, "r": 10})
    if metric.fmt:
        fig.update_xaxes(tickformat=tick_format(metric.fmt))
    if spans:
        fig.update_xaxes(tickvals=spans[0], ticktext=spans[1])
    if not results[metric.name].notna().any():
        fig.add_annotation(text="no value in this run: undefined for every trial", showarrow=False, xref="paper",
                           yref="paper", x=0.5, y=0.5, font={"color": "#666"})
    return plain_numbers(fig)


def _escape(text: str) -> str:
    """Text shown as itself in a Plotly hover template: "<" and ">" as entities (a title is no HTML), "%{" broken
    (it would start a field)."""
    return str(text).replace("<", "&lt;").replace(">", "&gt;").replace("%{", "% {")


def _short(t: float) -> str:
    """A compact time label of three significant digits written out, never with an SI prefix beside a unit ("61.4k
    s" reads as kiloseconds): 61,400, 1,230,000, 0.25."""
    if abs(t) >= 1e3:
        return f"{float(f'{t:.3g}'):,.0f}"
    return f"{t:.3g}"


ROUND_STEPS = (1.0, 2.0, 2.5, 5.0)  # a round step of time: one of these times a power of ten
AXIS_TICKS = 8  # ticks on a Gantt's time axis at most (4 on an overview's narrow panels)


def round_step(span: float, steps: int) -> float:
    """The smallest round step (1, 2, 2.5 or 5 x 10^k) that covers ``span`` in at most ``steps`` steps: the Gantt's
    frames and ticks fall on its multiples, "250, 500, 750", never "127, 255, 382" (a span cut in equal parts)."""
    raw = span / max(1, steps) if span > 0 else 1.0
    power = 10.0 ** np.floor(np.log10(raw))
    return next((m * power for m in ROUND_STEPS if m * power >= raw * (1 - 1e-9)), 10 * power)


# The time slider's labels as plotly.js lays them out (its sliders' labelStride): a label every ``stride`` steps, the
# least whose room (the slider's length over its steps) holds the widest label and 8 px of padding. The slider is
# 0.86 of the figure's width (:func:`_controls`), about 860 px on the Results page of a 1440-px-wide window; a digit
# of its 12-px font about 6.5 px wide, a comma or point about 3.3 (what gave the strides seen there: 3 for "9,792.3"
# on 54 steps, 2 for "7,600" on 39, 1 for "920" on 32).
SLIDER_PX = 860
LABEL_PX = {"digit": 6.5, "mark": 3.3, "pad": 8.0}


def label_stride(labels: Sequence[str], slider_px: float = SLIDER_PX) -> int:
    """Every how many steps the time slider writes its ``labels`` (plotly.js draws a tick at every step, a label at
    every ``stride``-th from the first): the widest label and its padding over the room of a step."""
    if len(labels) < 2:
        return 1
    widest = max(sum(LABEL_PX["digit"] if c.isdigit() else LABEL_PX["mark"] for c in x) for x in labels)
    return max(1, int(np.ceil((widest + LABEL_PX["pad"]) / (slider_px / (len(labels) - 1)) - 1e-9)))


def is_round(x: float) -> bool:
    """A round number: 1, 2, 2.5 or 5 times a power of ten (what :func:`round_step` gives)."""
    return x > 0 and abs(round_step(x, 1) - x) <= 1e-9 * x


SLIDER_LABELS = AXIS_TICKS  # labels on the time slider at most, as many as the time axis has ticks


def _multiple(x: float, step: float) -> bool:
    """``x`` is a multiple of ``step`` (to rounding)."""
    return abs(x / step - round(x / step)) <= 1e-6


def _round_below(step: float) -> float:
    """The next round step below ``step`` (1, 2, 2.5 or 5 x 10^k: 100 -> 50 -> 25 -> 20 -> 10)."""
    power = 10.0 ** np.floor(np.log10(step) + 1e-9)
    lower = [m for m in ROUND_STEPS if m * power < step * (1 - 1e-9)]
    return lower[-1] * power if lower else ROUND_STEPS[-1] * power / 10


def label_step(t0: float, t1: float) -> tuple[float, float]:
    """The time slider's labels from ``t0`` to ``t1``: their round step, at most :data:`SLIDER_LABELS` of them, and
    the first. A window the page gives (a round start and length) is labelled from its own start to its own end,
    "350, 450 ... 950" for 350 s to 950 s (every 100 s, as its axis is ticked), "2,270, 2,271 ... 2,275"; a round
    start with a length that is not from that start ("200, 400 ... 2,400" for 200 s to 2,450 s, so that Play runs
    within the window); any other span from the last multiple of that step at or before ``t0`` ("0, 100,000 ...
    700,000")."""
    coarse = round_step(t1 - t0, SLIDER_LABELS)
    step = coarse
    for _ in range(3):  # the step, then up to two finer ones (100, 50, 25), where the window is round for it
        if _multiple(t0, step / 2) and _multiple(t1 - t0, step) and (t1 - t0) / step <= SLIDER_LABELS + 4:
            return step, t0
        step = _round_below(step)
    step = coarse
    for _ in range(3):  # a round start whose length is not: from the start, at a step it is a multiple of
        if _multiple(t0, step) and (t1 - t0) / step <= SLIDER_LABELS + 4:
            return step, t0
        step = _round_below(step)
    return coarse, float(np.floor(t0 / coarse + 1e-9) * coarse)


def frame_times(t0: float, t1: float, frames: int) -> tuple[np.ndarray, float]:
    """The times of a Gantt's frames and the step of the time slider's labels (:func:`label_step`). The frames: at
    most ``frames`` multiples of the finest round step that divides the labels' step and their first, from that first
    label to the first frame at or after ``t1``, so the figure opens on a frame where every bar of the window is drawn
    and Play runs within the window the page shows (350 s to 950 s, not 340 to 960). The slider steps on every
    labelled frame (:func:`slider_times`): "350, 450 ... 950", each written, never 32 labels 20 s apart."""
    every, first = label_step(t0, t1)
    span = max(t1 - first, every)
    step = best = every
    while np.ceil(span / (step := _round_below(step)) - 1e-9) + 1 <= frames:
        if _multiple(every, step) and _multiple(first, step):
            best = step
    count = int(np.ceil(span / best - 1e-9))
    return np.round(first + np.arange(count + 1) * best, _decimals(best) + 1), every


def slider_times(times: np.ndarray, every: float) -> np.ndarray:
    """The frames the time slider steps on: every one ``every`` after the first (the labels of :func:`frame_times`),
    and the last (the figure opens on it)."""
    k = max(1, int(round(every / (times[1] - times[0])))) if times.size > 1 else 1
    picked = times[::k]
    return picked if picked[-1] == times[-1] else np.r_[picked, times[-1]]


def _decimals(step: float) -> int:
    """The decimals that write every multiple of ``step`` exactly (0 for 250, 1 for 2.5 or 0.5, 2 for 0.25)."""
    return next(d for d in range(12) if abs(round(step, d) - step) <= 1e-9 * step)


def _time_labels(times: np.ndarray, step: float) -> list[str]:
    """The time slider's labels: the frames' round times (:func:`frame_times`), each with the decimals it needs (at
    most those of ``step``) and thousands separators ("2,500", "9,792.5", "9,793", "0.25"), never an SI prefix beside
    the unit."""
    decimals = _decimals(step)
    labels = [f"{float(t):,.{decimals}f}" for t in times]
    return [x.rstrip("0").rstrip(".") if "." in x else x for x in labels]


def tick_step(t0: float, t1: float, ticks: int) -> float:
    """The smallest round step whose multiples from ``t0`` to ``t1`` are at most ``ticks`` (0, 2,500, 5,000, 7,500 on
    0 to 7,533 with four)."""
    step = round_step(t1 - t0, ticks)
    while np.floor(t1 / step + 1e-9) - np.ceil(t0 / step - 1e-9) + 1 > ticks:
        step = round_step(step * (1 + 1e-6), 1)  # the next round step up
    return step


def gantt_unit(t1: float, time_unit: str) -> tuple[float, str]:
    """The unit a Gantt's time axis and slider say times in, as (seconds in it, its word): hours or days where the
    model counts seconds and the axis reaches an hour or more (:func:`~hcsched.formatting.span_unit`: a lead said
    "6.2 days" over an axis at "740,000 s"), else the model's own unit; the bars and the hover stay in the model's
    unit, as the CSV."""
    found = span_unit(t1) if time_unit == "s" and np.isfinite(t1) else None
    return found or (1.0, time_unit)


def _unit_frames(t0: float, t1: float, time_unit: str, frames: int) -> tuple[float, str, np.ndarray, float]:
    """(:func:`gantt_unit`'s scale and word, :func:`frame_times`' frames and step in seconds): the frames at round
    times of the unit the slider says them in."""
    scale, word = gantt_unit(t1, time_unit)
    times, step = frame_times(t0 / scale, t1 / scale, frames)
    return scale, word, scale * times, scale * step


def _time_axes(fig: go.Figure, t0: float, t1: float, ticks: int = AXIS_TICKS, scale: float = 1.0) -> None:
    """Every time axis of a Gantt from ``t0`` to ``t1``, ticked at multiples of a round step (at most ``ticks``) of
    the unit ``scale`` seconds long (:func:`gantt_unit`)."""
    if scale == 1.0:
        fig.update_xaxes(range=[t0, t1], tick0=0.0, dtick=tick_step(t0, t1, ticks))
        return
    step = tick_step(t0 / scale, t1 / scale, ticks)
    at = step * np.arange(np.ceil(t0 / scale / step - 1e-9), np.floor(t1 / scale / step + 1e-9) + 1) + 0.0  # "0",
    # never "-0" (ceil of a hair under 0 is -0.0: a tryout read "-0" at the start of every time-shared Gantt)
    fig.update_xaxes(range=[t0, t1], tickmode="array", tickvals=[float(x * scale) for x in at],
                     ticktext=[f"{round(float(x), 6):,g}" for x in at])


@dataclasses.dataclass(frozen=True)
class GanttRows:
    """What a row of a model's Gantt chart is, in the model's own words, so that the Gantt and the model's other
    charts name it alike: ``word`` ("machine", "server", "processor"), rows named ``prefix`` + number (m0, s0, p0),
    or ``names`` (a processors file's own); ``lanes``: a row runs its tasks at the same time (time-shared servers), so
    each task gets a lane of its own within its row's band, where bars in one row would hide each other."""

    word: str = "machine"
    prefix: str = "m"
    names: tuple[str, ...] | None = None
    lanes: bool = False

    def name(self, j: int) -> str:
        """Row ``j``'s name (m3, s3, or its own)."""
        return self.names[j] if self.names is not None and 0 <= j < len(self.names) else f"{self.prefix}{j}"


MACHINES = GanttRows()  # the default: machines m0, m1, ...


def lanes(machine: np.ndarray, start: np.ndarray, finish: np.ndarray) -> np.ndarray:
    """A lane per task within its row: the lowest lane free at the task's start (tasks in start order, a lane freed
    at a task's start is reused), so overlapping tasks of one row never share a lane."""
    lane = np.zeros(machine.size, np.int64)
    free: dict[int, list[float]] = {}
    for t in np.lexsort((np.arange(machine.size), start)):
        ends = free.setdefault(int(machine[t]), [])
        k = next((i for i, e in enumerate(ends) if e <= start[t]), len(ends))
        if k == len(ends):
            ends.append(finish[t])
        else:
            ends[k] = finish[t]
        lane[t] = k
    return lane


def band_widths(s: Schedule) -> np.ndarray:
    """The lanes each machine's band needs: the most tasks it runs at once (what :func:`lanes` gives it), 1 at least."""
    ok = np.isfinite(s.start)
    machine, start = s.machine[ok], s.start[ok]
    finish = np.where(np.isfinite(s.finish[ok]), s.finish[ok], np.inf)
    # +1 at a start, -1 at a finish (at equal times the finish first: its lane is free for the start); each machine's
    # steps add up to 0, so the running sum over machines in turn is each machine's own
    at, rows = np.concatenate([start, finish]), np.concatenate([machine, machine])
    step = np.concatenate([np.ones(start.size, np.int64), -np.ones(finish.size, np.int64)])
    order = np.lexsort((step, at, rows))
    width = np.ones(s.machines, np.int64)
    np.maximum.at(width, rows[order], np.cumsum(step[order]))
    return width


def _window(s: Schedule, window: tuple[float, float] | None) -> np.ndarray:
    if window is None:
        return np.flatnonzero(np.isfinite(s.start))
    return np.flatnonzero((s.finish > window[0]) & (s.start < window[1]))


MAX_GANTT_FRAMES = 60
# bars of all panels in the default window of a large trial (Play at ~90 ms a frame, bench/gantt_browser.py)
GANTT_BARS = 1000
ROW_BARS = 40  # bars of one machine row in the default window at most: a row a person reads, not a barcode
FRAME_BARS = 1500  # bars x frames a browser redraws smoothly at ~80-150 ms a frame (browser test)
# The Gantt opens fitting a 900-px-tall browser window with the page's Gantt controls above it, under the page's
# header (60 px; browser test): px of that screen and of each control (measured in chromium at 1440 x 900).
GANTT_SCREEN = 900 - 60
PICKER_PX = 84  # the heuristics picker, the first Gantt control
VIEW_PX = 84  # the view's choice (every row at once, or the busiest in detail), where not every row fits
WINDOW_PX = 123  # the time window of a large trial: start, length and the line saying it
TASK_PX = 112  # the marked task
GANTT_TOP = 130  # px above the panels: Play, Pause, the time slider and the first panel's title
GANTT_GAP = 40  # px between panels: the next panel's title
GANTT_BOTTOM = 50  # px below the panels: the time axis' numbers and title
# px of the whole figure by default, under the picker, a time window and the marked task (a small trial, shown whole,
# has no window: :func:`gantt_height`)
GANTT_HEIGHT = GANTT_SCREEN - PICKER_PX - WINDOW_PX - TASK_PX
# The overview (every row at once) opens under the picker, the view's choice, the time window and the marked task.
OVERVIEW_HEIGHT = GANTT_SCREEN - PICKER_PX - VIEW_PX - WINDOW_PX - TASK_PX
# The busiest rows in detail, the overview's alternative (:func:`gantt_detail`): under the same controls and the
# rows' range, so within the same px at most; its panels then shrink to their smallest readable rows.
DETAIL_HEIGHT = OVERVIEW_HEIGHT
ROW_PX = (10.0, 22.0)  # a machine row's height, px: at least a bar a person reads, at most
LANE_PX = (6.0, 22.0)  # a lane's height, px, where a row runs its tasks at once (each task a lane)
HIGHLIGHT_COLOR = "#000000"  # the label of the task marked in every panel
# Around the label's letters, a white outline (1 px in every direction) and a white glow: the black label reads on any
# bar it lies on, black bars (max-max's) included. Bar texts have no box (an annotation has, but is not redrawn by
# the frames, and the label comes with its bar's first frame).
HIGHLIGHT_HALO = ", ".join([f"{x}px {y}px 0 #fff" for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y]
                           + ["0 0 3px #fff", "0 0 5px #fff"])
LABEL_EDGE = 0.9  # a marked bar ending past this share of the time window has its label inside its end, not after it


def _at_edge(finish: float, t0: float, t1: float, panels: int = 1) -> bool:
    """Whether a marked bar ending at ``finish`` ends at the right edge of the window ``t0``..``t1`` for its label: past
    :data:`LABEL_EDGE` of a chart's width, where ``panels`` side by side (the overview) each take a share of it, so
    the label after the bar would run past its panel's edge from further left (a tenth of the chart, each panel's)."""
    return finish > t0 + max(0.0, 1 - (1 - LABEL_EDGE) * panels) * (t1 - t0)


def gantt_rows_px(panels: int, height: float = GANTT_HEIGHT) -> float:
    """The px that the rows (or lanes) of ``panels`` panels share in a Gantt chart ``height`` px tall, the rest
    being its controls, panel titles and time axis."""
    return height - GANTT_TOP - GANTT_BOTTOM - max(0, panels - 1) * GANTT_GAP


def gantt_height(schedules: dict[str, Schedule], machines: Sequence[int] | None = None) -> float:
    """The px of the Gantt chart of ``schedules`` (on ``machines``, all by default) that fit :data:`GANTT_SCREEN` with
    the page's controls above it: :data:`GANTT_HEIGHT` under a time window, more where the trial is shown whole
    (:func:`gantt_default_window`: no window's controls)."""
    if gantt_default_window(schedules, machines=machines) is not None:
        return GANTT_HEIGHT
    return GANTT_SCREEN - PICKER_PX - TASK_PX


def _shown(s: Schedule, machines: Sequence[int] | None) -> np.ndarray:
    """The tasks that ran on the machines shown (all by default)."""
    ok = np.isfinite(s.start)
    return np.flatnonzero(ok if machines is None else ok & np.isin(s.machine, list(machines)))


def gantt_machines(schedules: dict[str, Schedule], rows: GanttRows = MACHINES, height: float | None = None) -> int:
    """How many machine rows (from the first) each panel shows by default, so that the chart fits ``height`` px
    (:func:`gantt_height` by default) with its controls: as many rows over the panels as fit at the smallest
    readable row (``ROW_PX``); where tasks share a row (``rows.lanes``), as many machines as keep the lanes of all
    panels (the most tasks each machine runs at once, in each panel, and a gap) at the smallest readable lane
    (``LANE_PX``)."""
    room = gantt_rows_px(len(schedules), gantt_height(schedules) if height is None else height)
    if not rows.lanes:
        return max(1, int(room // ROW_PX[0]) // max(1, len(schedules)))
    lanes_of = _lanes_of(schedules, max((s.machines for s in schedules.values()), default=1))
    # n machines take cumsum(lanes_of)[n - 1] lanes less one gap a panel
    fit = np.cumsum(lanes_of) - len(schedules) <= room // LANE_PX[0]
    return max(1, int(fit.sum()))


def gantt_busiest(schedules: dict[str, Schedule], rows: GanttRows = MACHINES, height: float | None = None
                  ) -> tuple[int, int]:
    """(first, count): the machines side by side where the Gantt chart opens when it cannot show every machine, those
    that ran the most tasks in all the panels together (a tie to the lowest first) among the runs of machines that
    fit ``height`` px as :func:`gantt_machines` counts them: ``count`` of them, or, where tasks share a row
    (``rows.lanes``), as many from ``first`` on as their lanes allow."""
    most = max((s.machines for s in schedules.values()), default=1)
    ran = np.zeros(most, np.int64)
    for s in schedules.values():
        ran += np.bincount(s.machine[np.isfinite(s.start)].astype(np.int64), minlength=most)[:most]
    tasks = np.r_[0, np.cumsum(ran)]  # tasks of machines [j, e): tasks[e] - tasks[j]
    first = np.arange(most)
    height = gantt_height(schedules) if height is None else height
    if rows.lanes:
        lanes = np.r_[0, np.cumsum(_lanes_of(schedules, most))]
        room = gantt_rows_px(len(schedules), height) // LANE_PX[0] + len(schedules)
        end = np.searchsorted(lanes, lanes[:-1] + room, side="right") - 1
        count = np.maximum(1, end - first)
    else:
        count = np.full(most, min(gantt_machines(schedules, rows, height), most))
    end = np.minimum(first + count, most)
    best = int(np.argmax(tasks[end] - tasks[first]))
    return best, int(end[best] - best)


def detail_height(rows: GanttRows = MACHINES) -> float:
    """The px of the detailed view, the overview's alternative: :data:`DETAIL_HEIGHT`, every panel on one screen with
    the page's controls; where a row's tasks each take a lane (time-shared servers, about ten lanes each: one server's
    lanes in four panels need about 600 px), the px of a trial shown whole under the picker and the marked task."""
    return GANTT_SCREEN - PICKER_PX - TASK_PX if rows.lanes else DETAIL_HEIGHT


def gantt_detail(schedules: dict[str, Schedule], rows: GanttRows = MACHINES) -> tuple[int, int]:
    """(first, count): the busiest rows side by side (:func:`gantt_busiest`) that the detailed view shows by default,
    within :func:`detail_height`."""
    return gantt_busiest(schedules, rows, detail_height(rows))


def _lanes_of(schedules: dict[str, Schedule], most: int) -> np.ndarray:
    """Each machine's lanes in all the panels together: the most tasks it runs at once in each, and a gap."""
    lanes_of = np.zeros(most, np.int64)
    for s in schedules.values():
        lanes_of[:s.machines] += band_widths(s) + 1
    return lanes_of


def _nth_start(starts: np.ndarray, n: int, after: float) -> float:
    """The start of the task after the first ``n`` of sorted ``starts`` (a window [``after``, it) holds n of them),
    or the first start later than ``after`` when that is not (many tasks start at once); ``after`` if none is."""
    x = float(starts[n])
    later = starts[starts > after]
    return x if x > after else float(later[0]) if later.size else after


def _last_finish(schedules: dict[str, Schedule], picks: dict[str, np.ndarray]) -> float:
    """The last finish among the tasks drawn (those of the rows shown: 11 of 90 processors end well before the
    others, whose end left half the time axis empty), else among every task."""
    ends = [s.finish[picks[label]] for label, s in schedules.items()]
    ends = [float(e[np.isfinite(e)].max()) for e in ends if np.isfinite(e).any()]
    return max(ends) if ends else max(float(s.finish[np.isfinite(s.finish)].max()) for s in schedules.values())


def gantt_start(schedules: dict[str, Schedule], machines: Sequence[int] | None = None) -> float:
    """Where tasks start to run: the earliest start of a task shown (on ``machines``, all by default) in any panel;
    0 when none started."""
    first = min((float(s.start[_shown(s, machines)].min(initial=np.inf)) for s in schedules.values()), default=np.inf)
    return first if np.isfinite(first) else 0.0


BUSY_CANDIDATES = 2000  # window starts compared by gantt_busy_start at most, on a round grid over the trial


def _time_in_system(schedules: dict[str, Schedule], machines: Sequence[int] | None, end: float):
    """t -> the tasks' time in the system (from arrival to finish, waiting or running) up to t, summed over the
    panels, on the machines shown; a task not finished stays until ``end``."""
    arrive, leave = [], []
    for s in schedules.values():
        ok = np.isfinite(s.arrival) & (s.machine >= 0)
        if machines is not None:
            ok &= np.isin(s.machine, list(machines))
        arrive.append(s.arrival[ok])
        leave.append(np.where(np.isfinite(s.finish[ok]), s.finish[ok], end))
    a, f = np.sort(np.concatenate([np.zeros(0), *arrive])), np.sort(np.concatenate([np.zeros(0), *leave]))
    sum_a, sum_f = np.r_[0.0, np.cumsum(a)], np.r_[0.0, np.cumsum(f)]

    def upto(t: np.ndarray) -> np.ndarray:
        i, j = np.searchsorted(a, t, side="right"), np.searchsorted(f, t, side="right")
        return (i * t - sum_a[i]) - (j * t - sum_f[j])
    return upto


def _starts_in(starts: np.ndarray, lows: np.ndarray, length: float) -> np.ndarray:
    """How many of sorted ``starts`` lie in each window [low, low + ``length``)."""
    return np.searchsorted(starts, lows + length) - np.searchsorted(starts, lows)


def _within_bars(schedules: dict[str, Schedule], lows: np.ndarray, length: float, machines: Sequence[int] | None,
                 bars: int, row_bars: int) -> np.ndarray:
    """Which windows [low, low + ``length``) hold no more bars than ``bars`` in all and ``row_bars`` in any row, or
    than the first window holds where it holds more (so the first always does)."""
    rows, every = [], []
    for s in schedules.values():
        idx = _shown(s, machines)
        every.append(s.start[idx])
        for m in np.unique(s.machine[idx]):
            rows.append(np.sort(s.start[idx][s.machine[idx] == m]))
    total = _starts_in(np.sort(np.concatenate([np.zeros(0), *every])), lows, length)
    ok = total <= max(bars, total[0])
    for row in rows:
        counts = _starts_in(row, lows, length)
        ok &= counts <= max(row_bars, counts[0])
    return ok


def window_step(length: float) -> float:
    """The round step a time window's ``length`` grows by: about a tenth of it (1 for 5.27, 100 for 600)."""
    return round_step(length, 10)


def start_step(length: float) -> float:
    """The round step a time window of ``length`` moves by: about a twentieth of it (0.5 for 5, 50 for 600), fine
    enough for the busiest stretch (:func:`gantt_busy_start`) to be found on it."""
    return round_step(length, 20)


def window_ends(low: float, high: float) -> tuple[str, str]:
    """A time window's ends as the page says them, each in the digits it needs, at most two more than its round start
    step's (:func:`start_step`): "2,270" and "2,275", "350" and "950", "15,125" and "15,175", "9,797.25" (never three
    significant digits: "2,280")."""
    most = _decimals(start_step(high - low)) + 2
    digits = [next((d for d in range(most) if _multiple(x, 10.0 ** -d)), most) for x in (low, high)]
    return tuple(_time_labels(np.array([x]), 10.0 ** -d)[0] for x, d in zip((low, high), digits, strict=True))


def window_text(low: float, high: float, unit: str) -> str:
    """A time window in words, its ends as :func:`window_ends` says them: "2,270 to 2,275 time units"."""
    first, last = window_ends(low, high)
    return f"{first} to {last} {unit}"


def _round_starts(first: float, last: float, length: float) -> np.ndarray:
    """The window starts :func:`gantt_busy_start` compares: the multiples of a round step from the last at or before
    ``first`` to ``last``, that step the window's own (:func:`start_step`: 250, 300 ... for 600 s) or, where that
    would give over BUSY_CANDIDATES starts, coarser."""
    step = max(start_step(length), round_step(last - first, BUSY_CANDIDATES))
    k = np.arange(np.floor(first / step + 1e-9), np.floor(last / step + 1e-9) + 1)
    return np.round(k * step, _decimals(step))


def round_length(length: float) -> float:
    """A window length a person reads: ``length`` down to a multiple of its round step (:func:`window_step`: 5.27 ->
    5, 600 -> 600, 1,234 -> 1,200, 0.0737 -> 0.07), the window's bars fewer, never more; that step at least."""
    step = window_step(length)
    return round(float(max(1.0, np.floor(length / step + 1e-9)) * step), _decimals(step))


def gantt_busy_start(schedules: dict[str, Schedule], length: float, machines: Sequence[int] | None = None,
                     bars: int = GANTT_BARS, row_bars: int = ROW_BARS) -> float:
    """Where a window of ``length`` opens on the busiest stretch of the trial: the most time tasks spend in the
    system in it (waiting or running, all panels together, on ``machines``, all by default), of BUSY_CANDIDATES starts
    from where tasks start to run (:func:`gantt_start`) to the trial's end less ``length``, among the windows that
    hold no more bars than :func:`gantt_default_window` allows from there (``bars`` in all, ``row_bars`` in a row:
    Play stays smooth and a row readable); the earliest of equals, so a batch that all arrives at once opens where it
    starts. The starts are round (:func:`_round_starts`): "Showing 300 s to 900 s", not "300.1 s to 900.1 s"."""
    first = gantt_start(schedules, machines)
    end = max((float(np.nanmax(np.r_[0.0, s.finish[np.isfinite(s.finish)], s.start[np.isfinite(s.start)]]))
               for s in schedules.values()), default=0.0)
    if end - length <= first or length <= 0:
        return first
    starts = _round_starts(first, end - length, length)
    upto = _time_in_system(schedules, machines, end)
    busy = np.where(_within_bars(schedules, starts, length, machines, bars, row_bars),
                    upto(starts + length) - upto(starts), -np.inf)
    return float(starts[int(np.argmax(busy >= busy.max() * (1 - 1e-9)))])


def gantt_default_window(schedules: dict[str, Schedule], bars: int = GANTT_BARS, machines: Sequence[int] | None = None,
                         row_bars: int = ROW_BARS) -> tuple[float, float] | None:
    """The trial's end and the default length of the Gantt window: None (the whole trial) when the panels' rows
    shown (``machines``, all by default) hold at most ``bars`` tasks in all and at most ``row_bars`` in any row; else
    the length of the busy window, which starts where tasks start to run (:func:`gantt_start`): the longest in which
    both hold. ``bars`` keeps Play smooth (a frame redraws every bar), ``row_bars`` keeps a row readable (a few
    hundred bars in a row is a barcode). The end is that of the slowest heuristic; a fast heuristic's panel holds
    more of its tasks in the same window."""
    finish = max((float(s.finish[np.isfinite(s.finish)].max(initial=0.0)) for s in schedules.values()), default=0.0)
    starts = max((float(s.start[np.isfinite(s.start)].max(initial=0.0)) for s in schedules.values()), default=0.0)
    end = max(finish, starts, 0.0)
    picked = {label: _shown(s, machines) for label, s in schedules.items()}
    first = gantt_start(schedules, machines)
    every = np.sort(np.concatenate([np.zeros(0), *(s.start[picked[label]] for label, s in schedules.items())]))
    limits = [_nth_start(every, bars, first)] if every.size > bars else []
    for label, s in schedules.items():
        idx = picked[label]
        order = np.lexsort((s.start[idx], s.machine[idx]))
        machine, start = s.machine[idx][order], s.start[idx][order]
        heads = np.flatnonzero(np.r_[True, machine[1:] != machine[:-1]]) if machine.size else np.zeros(0, np.int64)
        for a, b in zip(heads, np.r_[heads[1:], machine.size], strict=True):
            if b - a > row_bars:
                limits.append(_nth_start(start[a:b], row_bars, first))
    if not limits or end <= 0:
        return None
    stop = min(limits)
    return end, stop - first if stop > first else end - first


def gantt_defaults(schedules: dict[str, Schedule], rows: GanttRows = MACHINES, overview: bool = False
                   ) -> tuple[list[int] | None, tuple[float, float] | None, int | None]:
    """What the Results page first shows of ``schedules`` (the heuristics chosen): the machines (as many as
    :func:`gantt_machines`, the busiest of them side by side within :data:`DETAIL_HEIGHT`, :func:`gantt_detail`, where
    not all fit :func:`gantt_height`; None for all, and always with
    ``overview``: :func:`gantt_overview`), the time window (:func:`gantt_default_window`, its length round
    (:func:`round_length`) as the page's box shows it, its start round: :func:`gantt_busy_start`; None for the whole
    trial) and the task marked in every panel."""
    most = max((s.machines for s in schedules.values()), default=1)
    machines = None
    if not overview and most > gantt_busiest(schedules, rows)[1]:  # not all fit: the busiest in detail
        first, count = gantt_detail(schedules, rows)
        machines = list(range(first, first + count))
    sized = gantt_default_window(schedules, machines=machines)
    window = None
    if sized is not None:
        end, length = sized
        length = min(end, round_length(length))
        start = max(0.0, min(gantt_busy_start(schedules, length, machines), end - length))
        window = (start, start + length)
    return machines, window, gantt_highlight(schedules, window, machines)


def gantt_highlight(schedules: dict[str, Schedule], window: tuple[float, float] | None = None,
                    machines: Sequence[int] | None = None) -> int | None:
    """The task to mark in every panel by default: of the tasks every panel shows (in ``window``, on ``machines``), the
    one whose finish differs most between the heuristics (the longest flow time with one panel; the lowest number on
    a tie); None when no task is in every panel."""
    views = []
    for s in schedules.values():
        idx = _window(s, window)
        if machines is not None:
            idx = idx[np.isin(s.machine[idx], list(machines))]
        views.append(idx)
    if not views:
        return None
    common = views[0]
    for idx in views[1:]:
        common = np.intersect1d(common, idx)
    if common.size == 0:
        return None
    finish = np.array([s.finish[common] for s in schedules.values()])
    finish = np.where(np.isfinite(finish), finish, np.nan)
    flow = np.nanmax(finish - np.array([s.arrival[common] for s in schedules.values()]), axis=0)
    spread = np.nanmax(finish, axis=0) - np.nanmin(finish, axis=0)
    best = np.lexsort((common, -np.nan_to_num(flow, nan=-np.inf), -np.nan_to_num(spread, nan=-np.inf)))[0]
    return int(common[best])


def gantt_highlight_text(schedules: dict[str, Schedule], task: int, time_unit: str = "s", rows: GanttRows = MACHINES,
                         window: tuple[float, float] | None = None, machines: Sequence[int] | None = None,
                         name: Callable[[str], str] = str) -> str:
    """Where and when each heuristic ran ``task``, in one line (for a caption under the Gantt chart), each heuristic
    by ``name(label)`` (a model's short name, as its panel's title says it); "not shown" where it ran outside
    ``window`` or off the ``machines`` shown. Times in the unit the chart's axis says them in (:func:`gantt_unit`:
    "0.865 to 1.08 days" under an axis in days, never "74,700 to 93,200 s")."""
    last = max((float(s.finish[np.isfinite(s.finish)].max()) for s in schedules.values()
                if np.isfinite(s.finish).any()), default=0.0)
    scale, word = gantt_unit(window[1] if window else last, time_unit)
    parts = []
    for label, s in schedules.items():
        if not 0 <= task < s.start.size or not np.isfinite(s.start[task]):
            parts.append(f"{name(label)}: not started")
            continue
        end = _short(float(s.finish[task]) / scale) if np.isfinite(s.finish[task]) else "the end (still running)"
        seen = task in _window(s, window) and (machines is None or int(s.machine[task]) in set(machines))
        where = f"{rows.name(int(s.machine[task]))}, {_short(float(s.start[task]) / scale)} to {end} {word}"
        parts.append(f"{name(label)}: {where}" + ("" if seen else " (not shown)"))
    return f"Task {task}, hatched and labelled in every panel that shows it: " + "; ".join(parts) + "."


def gantt_frames(bars: int, frames: int = MAX_GANTT_FRAMES) -> int:
    """Fewer frames for larger charts, so that each frame redraws quickly (at least 12)."""
    return int(max(12, min(frames, frames * FRAME_BARS // max(1, bars))))


def _alternate(s: Schedule, idx: np.ndarray, color: str, lane: np.ndarray | None = None) -> list[str]:
    """The heuristic's colour and a lighter shade on alternate tasks of each machine (of each lane), so that
    back-to-back tasks stay apart without a border (a bar's outline doubles what a browser redraws in each frame)."""
    row = s.machine[idx] if lane is None else s.machine[idx] * (int(lane.max(initial=0)) + 1) + lane
    order = np.lexsort((s.start[idx], row))
    rank = np.empty(idx.size, dtype=np.int64)
    row = row[order]
    first = np.r_[True, row[1:] != row[:-1]] if idx.size else np.zeros(0, bool)
    position = np.arange(idx.size) - np.maximum.accumulate(np.where(first, np.arange(idx.size), 0))
    rank[order] = position
    return np.where(rank % 2 == 0, color, _rgba(color, 0.62)).tolist()


def _bands(s: Schedule, idx: np.ndarray, shown: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                                    int]:
    """Lanes within machine bands, a lane's gap apart: each task's y and lane, the bands' centres and the gaps between
    them, and the lanes and gaps in all."""
    lane = lanes(s.machine[idx], s.start[idx], s.finish[idx])
    pos = {j: k for k, j in enumerate(shown)}
    at = np.array([pos[int(j)] for j in s.machine[idx]], np.int64)
    width = np.ones(len(shown), np.int64)
    np.maximum.at(width, at, lane + 1)
    base = np.concatenate([[0], np.cumsum(width + 1)])
    return base[at] + lane, lane, base[:-1] + (width - 1) / 2.0, base[1:-1] - 1.0, int(base[-1]) - 1


def _panel_heights(height_rows: list[int], lanes: bool, height: float = GANTT_HEIGHT) -> tuple[float, list[float]]:
    """The figure's height and each panel's (px): the rows (lanes) of all panels share what ``height`` leaves them,
    each at least the smallest readable (the figure is then taller) and at most the largest."""
    low, high = LANE_PX if lanes else ROW_PX
    px = max(low, min(high, gantt_rows_px(len(height_rows), height) / max(1, sum(height_rows))))
    panels = [px * n for n in height_rows]
    return GANTT_TOP + GANTT_BOTTOM + sum(panels) + (len(panels) - 1) * GANTT_GAP, panels


def _frame_bars(schedules: dict[str, Schedule], picks: dict[str, np.ndarray], t: float,
                highlight: int | None) -> list[go.Bar]:
    """Each panel's bars at time ``t``: their widths so far (0 before a task starts) and, in a panel that shows the
    marked task, its label once its bar has started (never before)."""
    out = []
    for label, s in schedules.items():
        idx = picks[label]
        width = np.clip(t - s.start[idx], 0.0, s.finish[idx] - s.start[idx])
        bar = go.Bar(x=width)
        if highlight is not None and (hit := idx == highlight).any():
            bar.text = np.where(hit & (width > 0), f"task {highlight}", "").tolist()
        out.append(bar)
    return out


VALUE_CHIP = "rgba(255,255,255,0.85)"  # behind a value printed at a log bar's start, over its whisker


def _print_values(fig: go.Figure, labels: Sequence[str], mean: np.ndarray, left: float, row: int, col: int) -> None:
    """Each bar's mean printed at the start of its row on a log panel (whose lengths a reader cannot read off), as an
    annotation on a pale chip: drawn over the whisker, which the bar's own text lay under (a tryout found a long
    interval's whisker crossing the number); ``left``: the axis' left end, as its log."""
    for label, x in zip(labels, mean, strict=True):
        if np.isfinite(x):
            fig.add_annotation(x=left, y=label, text=readable_number(float(x)), xanchor="left", yanchor="middle",
                               showarrow=False, xshift=2, bgcolor=VALUE_CHIP, borderpad=1,
                               font={"size": 11, "color": "#222"}, row=row, col=col)


def _ink(color: str) -> str:
    """Black on a pale bar, white on a dark one: hatching that shows on ``color`` ("#rrggbb", or "rgba(r,g,b,a)" over
    the white page)."""
    if color.startswith("#"):
        rgb, alpha = [int(color[i:i + 2], 16) for i in (1, 3, 5)], 1.0
    else:
        *rgb, alpha = (float(x) for x in color[color.index("(") + 1:-1].split(","))
    r, g, b = (alpha * c + (1 - alpha) * 255 for c in rgb)
    return "#000000" if (0.299 * r + 0.587 * g + 0.114 * b) / 255 > 0.6 else "#ffffff"


def _marked(idx: np.ndarray, colors: list[str], highlight: int, at_edge: bool = False) -> tuple[dict, dict]:
    """The marker pattern and text settings that mark task ``highlight`` among the bars of ``idx`` (of ``colors``):
    hatched in black or white, whichever shows on its colour, and labelled (the label's text each frame sets:
    :func:`_frame_bars`) beside its bar: after its end, or inside it at its end where the bar ends ``at_edge`` of the
    window (after it, the chart's edge would cut the label), always level: a bar too short for it lets it run left
    from the bar's end, over the bars before it, never turned on its side to fit the bar (Plotly's "auto" angle);
    black in a white outline (:data:`HIGHLIGHT_HALO`), read on any bar. No outline on the bar: a bar's outline is
    drawn even at zero width, before its task starts, and a frame that does not redraw the whole chart cannot change
    it."""
    hit = idx == highlight
    pattern = {"shape": np.where(hit, "x", "").tolist(), "fillmode": "overlay", "bgcolor": "rgba(0,0,0,0)",
               "fgcolor": _ink(colors[int(np.flatnonzero(hit)[0])]), "fgopacity": 1, "size": 6, "solidity": 0.4}
    text = {"textposition": "inside" if at_edge else "outside", "insidetextanchor": "end", "cliponaxis": False,
            "constraintext": "none", "textangle": 0,
            "textfont": {"size": 12, "color": HIGHLIGHT_COLOR, "weight": "bold", "shadow": HIGHLIGHT_HALO}}
    return {"pattern": pattern}, text


#: Play's pace: a frame every FRAME_MS at least, and the whole window in PLAY_SECONDS at least (a large chart has few
#: frames, :func:`gantt_frames`: 13 frames at 80 ms crossed estimation's 600-s window in about a second).
FRAME_MS, PLAY_SECONDS = 80, 4.0


def frame_ms(frames: int) -> int:
    """The milliseconds of one frame when Play runs ``frames`` frames (:data:`PLAY_SECONDS`, :data:`FRAME_MS`)."""
    return max(FRAME_MS, int(np.ceil(PLAY_SECONDS * 1000 / max(1, frames))))


def _controls(times: np.ndarray, step: float, unit: str, scale: float = 1.0) -> dict:
    """Play, Pause and the time slider above the panels: Play runs every frame (``times``) at :func:`frame_ms`' pace
    (the window in at least PLAY_SECONDS), the slider steps on the
    frames ``step`` apart (:func:`slider_times`: few, each labelled; it follows Play there), at the last frame; its
    labels in ``unit``, ``scale`` seconds long (:func:`gantt_unit`).
    Frames and steps change only the bars (no full redraw: axes, slider and titles stay), so Play keeps its pace with
    many rows or panels."""
    shown = slider_times(times, step)
    fine = times[1] - times[0] if times.size > 1 else step
    steps = [{"method": "animate", "label": label, "value": f"{t:.6g}", "args": [[f"{t:.6g}"], {
        "mode": "immediate", "frame": {"duration": 0, "redraw": False}, "transition": {"duration": 0}}]}
        for t, label in zip(shown, _time_labels(shown / scale, fine / scale), strict=True)]
    return {"updatemenus": [{"type": "buttons", "direction": "left", "x": 0, "y": 1, "xanchor": "left",
                             "yanchor": "bottom", "pad": {"b": 62}, "showactive": False, "buttons": [
                                 {"label": "Play", "method": "animate", "args": [None, {
                                     "frame": {"duration": frame_ms(times.size), "redraw": False},
                                     "transition": {"duration": 0},
                                     "fromcurrent": False, "mode": "immediate"}]},
                                 {"label": "Pause", "method": "animate", "args": [[None], {
                                     "frame": {"duration": 0, "redraw": False}, "mode": "immediate"}]}]}],
            "sliders": [{"active": len(shown) - 1, "steps": steps, "x": 0.14, "y": 1, "xanchor": "left",
                         "yanchor": "bottom",
                         "len": 0.86, "currentvalue": {"prefix": "time ", "suffix": f" {unit}"},
                         "pad": {"t": 0, "b": 40}}]}


def gantt(schedules: dict[str, Schedule], colors: dict[str, str] | None = None, frames: int = MAX_GANTT_FRAMES,
          window: tuple[float, float] | None = None, time_unit: str = "s", machines: Sequence[int] | None = None,
          rows: GanttRows = MACHINES, highlight: int | None = None, overview: bool = False,
          name: Callable[[str], str] = str, height: float = GANTT_HEIGHT) -> go.Figure:
    """Animated Gantt chart: one panel per heuristic on a shared time axis, machines as rows.

    Every task is a bar in every frame (zero width before it starts), so the traces never change and frames carry
    only the widths (and the marked task's label): tasks appear as they start and grow as they run; Play redraws
    only the bars (no full redraw), so that a frame costs about the same in every model. The time axis starts at
    ``window``'s start (else where tasks start to run: :func:`gantt_start`); the figure opens on its last frame, every
    bar of the window drawn, and Play plays it from the window's start. ``window`` limits it to tasks overlapping a
    time interval, ``machines`` to the rows of those machines (all by default); ``rows`` names the rows as the model
    does (servers s0.., processors) and, where a row runs its tasks at once, gives each task a lane; ``highlight``: a
    task hatched in every panel that shows it and labelled from the frame its bar starts, so the heuristics'
    treatment of one task reads across panels. Play, Pause and the time slider sit above the panels; with the rows
    the page shows by default (:func:`gantt_machines`) the whole figure is at most ``height`` px tall, or where its
    rows are at their smallest readable at most :func:`gantt_height` (:data:`DETAIL_HEIGHT` for the busiest rows of
    :func:`gantt_detail`); large charts get fewer
    frames. ``overview``: every row at once (:func:`gantt_overview`), the panels side by side.
    ``name(label)``: a heuristic as its panel's title and hover say it (a model's short name: "fz (β = 0.1)").
    """
    if overview:
        return gantt_overview(schedules, colors, frames, window, time_unit, rows, highlight, name)
    labels = list(schedules)
    colors = colors or heuristic_colors(labels)
    picks = {label: _window(s, window) for label, s in schedules.items()}
    if machines is not None:
        machines = sorted(set(int(j) for j in machines))
        picks = {label: idx[np.isin(schedules[label].machine[idx], machines)] for label, idx in picks.items()}
    if highlight is not None:  # the marked task drawn last, so that no other bar covers its label
        picks = {label: np.r_[idx[idx != highlight], idx[idx == highlight]] for label, idx in picks.items()}
    rows_of = {label: machines if machines is not None else list(range(s.machines)) for label, s in schedules.items()}
    t0 = window[0] if window else gantt_start(schedules, machines)
    t1 = window[1] if window else _last_finish(schedules, picks)
    # Tasks still running at the end of a run (finish = inf) are drawn up to the end of the window.
    schedules = {label: dataclasses.replace(s, finish=np.minimum(s.finish, t1)) for label, s in schedules.items()}
    scale, word, times, step = _unit_frames(t0, t1, time_unit, gantt_frames(sum(p.size for p in picks.values()),
                                                                            frames))
    bands = {label: _bands(schedules[label], picks[label], rows_of[label]) for label in labels} if rows.lanes else {}
    height_rows = {label: bands[label][4] if rows.lanes else len(rows_of[label]) for label in labels}
    height, panels = _panel_heights(list(height_rows.values()), rows.lanes, height)
    fig = make_subplots(rows=len(labels), cols=1, shared_xaxes=True, subplot_titles=[name(x) for x in labels],
                        row_heights=panels,
                        vertical_spacing=GANTT_GAP / (height - GANTT_TOP - GANTT_BOTTOM) if len(labels) > 1 else 0)
    where = f"on {rows.word} " + ("%{hovertext}" if rows.lanes else "%{y}")
    by = _named_hovers(labels, name)
    for title, label in zip(fig.layout.annotations, labels, strict=True):  # a panel's short name, its words on hover
        title.hovertext = _escape(by[label])
    opened = _frame_bars(schedules, picks, float(times[-1]), highlight)  # what the figure opens on: the last frame
    for row, label in enumerate(labels, start=1):
        s, idx = schedules[label], picks[label]
        custom = np.column_stack([idx, s.arrival[idx], s.start[idx], s.finish[idx], s.expected[idx], s.actual[idx],
                                  s.machine[idx]])
        names = [rows.name(int(j)) for j in s.machine[idx]]
        marker = {"color": _alternate(s, idx, colors[label], bands[label][1] if rows.lanes else None),
                  "line": {"width": 0}}
        extra = {}
        if highlight is not None and (idx == highlight).any():
            shown, extra = _marked(idx, marker["color"], highlight, _at_edge(s.finish[highlight], t0, t1))
            marker |= shown
            extra["text"] = opened[row - 1].text
        if rows.lanes:
            extra |= {"y": bands[label][0], "width": 0.8, "hovertext": names}
        else:
            extra |= {"y": names}
        fig.add_trace(go.Bar(
            base=s.start[idx], x=opened[row - 1].x, orientation="h", marker=marker, name=label,
            showlegend=False, customdata=custom,
            hovertemplate=_hover(where, time_unit, by[label], name(label)),
            **extra), row=row, col=1)
        _row_axis(fig, row, rows, rows_of[label], bands[label][2:4] if rows.lanes else None, height_rows[label],
                  panels[row - 1] / max(1, height_rows[label]))
    fig.frames = [go.Frame(name=f"{t:.6g}", traces=list(range(len(labels))),
                           data=_frame_bars(schedules, picks, float(t), highlight)) for t in times]
    fig.update_layout(barmode="overlay", height=height, margin={"t": GANTT_TOP, "b": GANTT_BOTTOM, "l": 10, "r": 10},
                      **_controls(times, step, word, scale))
    _time_axes(fig, t0, t1, scale=scale)
    fig.update_xaxes(title_text=f"time ({word})", row=len(labels), col=1)
    return plain_numbers(fig)


def _named_hovers(labels: Sequence[str], name: Callable[[str], str]) -> dict[str, str]:
    """Each heuristic's plain-words title (:func:`hover_names`) led by ``name(label)`` instead of its label."""
    by = hover_names(labels)
    return {x: name(x) + by[x][len(x):] if by[x].startswith(x) else by[x] for x in labels}


def _hover(where: str, time_unit: str, words: str, label: str) -> str:
    """A Gantt bar's hover: the task, ``where`` it ran, its times and the heuristic (``words``, its ``label``)."""
    u = f" {time_unit}"
    return ("task %{customdata[0]} " + where + "<br>arrival %{customdata[1]:.6g}" + u +
            "<br>start %{customdata[2]:.6g}" + u + "<br>finish %{customdata[3]:.6g}" + u +
            "<br>expected %{customdata[4]:.6g}" + u + "<br>actual %{customdata[5]:.6g}" + u +
            "<br>by " + _escape(words) + "<extra>" + _escape(label) + "</extra>")


OVERVIEW_LABEL_PX = 13  # px between two named rows of the overview: the rows between them go unnamed
OVERVIEW_OPACITY = 0.3  # a bar's opacity where a server's tasks share its row: darker where more run at once


def gantt_overview(schedules: dict[str, Schedule], colors: dict[str, str] | None = None,
                   frames: int = MAX_GANTT_FRAMES, window: tuple[float, float] | None = None, time_unit: str = "s",
                   rows: GanttRows = MACHINES, highlight: int | None = None, name: Callable[[str], str] = str
                   ) -> go.Figure:
    """The whole system's work at a glance: the heuristics' panels side by side, every row (machine, processor,
    server) a thin lane of its own, no text on a bar but the marked task's, hover kept, within :data:`OVERVIEW_HEIGHT`
    px with its controls (so that the page's controls above it fit a 900-px window too); a row that runs its tasks at
    once (``rows.lanes``, time-shared servers) is one load strip, its tasks translucent, darker where more run
    together. It plays as :func:`gantt` does (frames carry widths)."""
    labels = list(schedules)
    colors = colors or heuristic_colors(labels)
    picks = {label: _window(s, window) for label, s in schedules.items()}
    if highlight is not None:  # the marked task drawn last, so that no other bar covers its label
        picks = {label: np.r_[idx[idx != highlight], idx[idx == highlight]] for label, idx in picks.items()}
    t0 = window[0] if window else gantt_start(schedules)
    t1 = window[1] if window else _last_finish(schedules, picks)
    schedules = {label: dataclasses.replace(s, finish=np.minimum(s.finish, t1)) for label, s in schedules.items()}
    scale, word, times, step = _unit_frames(t0, t1, time_unit, gantt_frames(sum(p.size for p in picks.values()),
                                                                            frames))
    names = [rows.name(j) for j in range(max(s.machines for s in schedules.values()))]
    px = min(ROW_PX[1], gantt_rows_px(1, OVERVIEW_HEIGHT) / len(names))
    height = GANTT_TOP + GANTT_BOTTOM + px * len(names)
    fig = make_subplots(rows=1, cols=len(labels), shared_yaxes=True, subplot_titles=[name(x) for x in labels],
                        horizontal_spacing=0.015)
    by = _named_hovers(labels, name)
    for title, label in zip(fig.layout.annotations, labels, strict=True):
        title.hovertext = _escape(by[label])
    opened = _frame_bars(schedules, picks, float(times[-1]), highlight)
    flat = dataclasses.replace(rows, lanes=False)
    for col, label in enumerate(labels, start=1):
        s, idx = schedules[label], picks[label]
        custom = np.column_stack([idx, s.arrival[idx], s.start[idx], s.finish[idx], s.expected[idx], s.actual[idx],
                                  s.machine[idx]])
        marker = {"color": _alternate(s, idx, colors[label]), "line": {"width": 0}}
        marker |= {"opacity": OVERVIEW_OPACITY} if rows.lanes else {}  # each bar's own: overlaps add up
        extra = {}
        if highlight is not None and (idx == highlight).any():
            shown, text = _marked(idx, marker["color"], highlight,
                                  _at_edge(s.finish[highlight], t0, t1, len(labels)))
            marker |= shown
            extra |= text | {"text": opened[col - 1].text}
        fig.add_trace(go.Bar(
            base=s.start[idx], x=opened[col - 1].x, y=[flat.name(int(j)) for j in s.machine[idx]], orientation="h",
            marker=marker, name=label, showlegend=False, customdata=custom, width=0.9,
            hovertemplate=_hover(f"on {rows.word} %{{y}}", time_unit, by[label], name(label)),
            **extra), row=1, col=col)
        fig.update_xaxes(title_text=f"time ({word})", row=1, col=col)
    _time_axes(fig, t0, t1, ticks=4, scale=scale)
    every = max(1, int(np.ceil(OVERVIEW_LABEL_PX / px)))
    fig.update_yaxes(categoryorder="array", categoryarray=names[::-1], range=[-0.5, len(names) - 0.5], showgrid=False,
                     tickmode="array", tickvals=names[::every], ticktext=names[::every],
                     tickfont={"size": row_font(px * every)})
    fig.update_yaxes(title_text=f"{rows.word} (all {len(names)})", row=1, col=1)
    fig.frames = [go.Frame(name=f"{t:.6g}", traces=list(range(len(labels))),
                           data=_frame_bars(schedules, picks, float(t), highlight)) for t in times]
    fig.update_layout(barmode="overlay", height=height, margin={"t": GANTT_TOP, "b": GANTT_BOTTOM, "l": 10, "r": 10},
                      **_controls(times, step, word, scale))
    return plain_numbers(fig)


def row_font(px: float) -> int:
    """The font size (px) of a Gantt row's name on rows ``px`` tall: 12, smaller on thin rows (8 at least), so that
    every row is named and no name overlaps the next (Plotly's own ticks skip every other row below about 15 px)."""
    return int(min(12, max(8, px - 2)))


def _row_axis(fig: go.Figure, row: int, rows: GanttRows, shown: list[int], bands, lanes: int,
              px: float = ROW_PX[1]) -> None:
    """A panel's rows named as the model names them, every row (``px`` tall) ticked in a font that fits it
    (:func:`row_font`); where tasks share a row (``bands``: the bands' centres and the gaps between them), one tick a
    band over its ``lanes`` lanes, a white line between bands."""
    if bands is not None:
        centres, gaps = bands
        fig.update_yaxes(tickvals=centres, ticktext=[rows.name(j) for j in shown], showgrid=False, zeroline=False,
                         range=[lanes - 0.5, -0.5], automargin=True,
                         minor={"tickvals": gaps, "showgrid": True, "gridcolor": "#fff", "gridwidth": 2, "ticks": ""},
                         row=row, col=1)
    else:
        names = [rows.name(j) for j in shown]
        fig.update_yaxes(categoryorder="array", categoryarray=names[::-1], tickmode="array", tickvals=names,
                         ticktext=names, tickfont={"size": row_font(px)}, row=row, col=1)
    fig.update_yaxes(title_text=rows.word, row=row, col=1)


def _rgba(color: str, alpha: float) -> str:
    color = color.lstrip("#")
    return f"rgba({int(color[0:2], 16)},{int(color[2:4], 16)},{int(color[4:6], 16)},{alpha})"


WORDS_STYLE = "font-size:10px;color:#555"  # a tick's second line: the heuristic's rule in words
WORDS_PX = 12  # what that second line adds to each heuristic's row


def tick_words(labels: Sequence[str], words: Callable[[str], str], shown: Sequence[str] | None = None,
               wrap: int = 0) -> list[str]:
    """Each heuristic's tick on a chart's axis: as ``shown`` ("mct (benchmark)"; the label by default) over
    ``words(label)``, its rule in a few words (smaller and grey), on lines of at most ``wrap`` characters where given
    (panels side by side leave a tick little width); alone where it has none ("")."""
    out = []
    for label, text in zip(labels, shown or labels, strict=True):
        lines = _wrapped(words(label), wrap)
        out.append("<br>".join([str(text), *(f"<span style='{WORDS_STYLE}'>{x}</span>" for x in lines)]))
    return out


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` on as few lines of at most ``width`` characters as it needs, broken between words and of about one
    length ("earliest finish among" over "machines planned for its class", never a last line of one word); one line
    without a width."""
    if not text or not width:
        return [text] if text else []
    need = len(textwrap.wrap(text, width, break_long_words=False))
    even = -(-len(text) // need)  # the length of each of ``need`` equal lines
    return next(lines for w in range(even, width + 1)
                if len(lines := textwrap.wrap(text, w, break_long_words=False)) <= need)


def with_words(fig: go.Figure, labels: Sequence[str], words: Callable[[str], str], rows: int | None = None,
               wrap: int = 0) -> go.Figure:
    """``fig``'s heuristic axes (its y axes, a category per label) ticked by :func:`tick_words` (``wrap``: as there),
    keeping what a tick already said ("(benchmark)", a short name); each of its ``rows`` of panels (by default, as
    many as its y axes have places) made taller for the lines of words under the names."""
    labels = list(labels)
    if rows is None:
        rows = len({tuple(axis.domain or (0, 1)) for axis in fig.select_yaxes()}) or 1
    shown = fig.layout.yaxis.ticktext
    fig.update_yaxes(tickvals=labels, ticktext=tick_words(labels, words, list(shown) if shown else None, wrap))
    lines = max((len(_wrapped(words(x), wrap)) for x in labels), default=0)
    height = fig.layout.height or 450
    return fig.update_layout(height=height + WORDS_PX * len(labels) * rows * max(1, lines))


def with_names(fig: go.Figure, labels: Sequence[str], name: Callable[[str], str]) -> go.Figure:
    """``fig``'s heuristic axes (its y axes, a category per label) ticked by ``name(label)``
    (a model's short name in words: the task-class model's "kpb (kbar=1)" as "kpb (each class's fastest machine, k̄
    = 1)"), keeping what a tick said after its label ("(benchmark)", "(reference)"). The categories stay the labels."""
    labels = [str(x) for x in labels]
    shown = fig.layout.yaxis.ticktext
    ticks = [str(t) for t in shown] if shown and len(shown) == len(labels) else labels
    text = [name(x) + t[len(x):] if t.startswith(x) else t for x, t in zip(labels, ticks, strict=True)]
    return fig.update_yaxes(tickvals=labels, ticktext=text)
