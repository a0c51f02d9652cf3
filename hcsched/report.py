"""The papers' claims as a report: one self-contained HTML page, and the docs' reproduction tables.

:func:`write_report` turns the claims table of :func:`hcsched.reproduce.reproduce` (and its per-variant results)
into one HTML page that opens offline: Plotly's JavaScript embedded once, the verdicts' definition
(:data:`hcsched.claims.DEFINITION`: its two first sentences, the rest folded), a summary per paper, and per claim a
card with its verdict, our number beside the paper's and a small chart (:func:`claim_chart`): the number the verdict
was read from (a ratio, a paired difference, a mean) with its 95% interval, where the claim puts it shaded and the
paper's printed number as a dashed line; or, for a check that is not one number's (an order, a check of a model's
own), what it compared (the Outcome's ``series``). :func:`markdown_tables` writes the reproduction section of the
docs' reproduction page (the definition, one short table per paper) from a ``claims.csv``; :func:`update_readme` puts
it between that page's markers. The claims as the papers write them are counted first, the other readings after
(:func:`count_text`): a reading is one way of reading a claim's text, each claim's literal one and its others.
:func:`verdict_changes` says how a rerun's verdicts compare with an earlier table's.
"""

from __future__ import annotations

import datetime
import functools
import html
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from hcsched.claims import DEFINITION, DETAILS, FAILS, HOLDS, LEAD, PARTLY, VERDICTS, verdict_counts
from hcsched.errors import HcschedError
from hcsched.formatting import docs_in_words, readable_amount, readable_number
from hcsched.registry import get_model, model_names
from hcsched.verdict import metric_words
from hcsched.version import __version__

BEGIN, END = "<!-- claims:begin -->", "<!-- claims:end -->"
# Okabe-Ito colours (colour-blind safe), each with the text colour that reads on it; the verdict is also in words.
BADGES = {HOLDS: ("#0072B2", "#ffffff"), PARTLY: ("#E69F00", "#000000"), FAILS: ("#D55E00", "#000000")}
OTHER_BADGE = ("#999999", "#000000")  # a check that could not be evaluated ("error")
OURS = "hcsched"  # who reran the claim, as a person reads it (the tables' column stays "ours")
NEEDED = ("id", "model", "paper", "where", "claim", "reading", "ours", "ours_lower", "ours_upper", "unit",
          "paper_value",
          "verdict")


# --- numbers as people read them -----------------------------------------------------------------------------
def _number(x: Any) -> str:
    """A stored cell (a CSV's text, None) as :func:`hcsched.formatting.readable_number` prints a number; "n/a" where it
    holds no finite number."""
    return readable_number(_nan(x))


def format_ours(row: Mapping[str, Any]) -> str:
    """Our value with its unit and 95% interval, e.g. ``-12.7% [-32.2, 6.88]`` or ``0.51 [0.49, 0.53]``; with one
    trial ``142.5 (one trial: no interval)``; never a "nan"."""
    unit = row.get("unit")
    unit = "" if unit is None or (isinstance(unit, float) and math.isnan(unit)) else str(unit)
    value = _number(row.get("ours"))
    if value != "n/a" and unit:
        value += unit if unit.startswith("%") or unit == "x" else f" {unit}"
    lo, hi = _number(row.get("ours_lower")), _number(row.get("ours_upper"))
    if lo != "n/a" and hi != "n/a":
        return f"{value} [{lo}, {hi}]"
    return f"{value} (one trial: no interval)" if _finite(row.get("trials")) == 1 else value


def trials_text(trials: Any) -> str:
    """``50 trials``; ``one trial: no interval``."""
    n = _finite(trials)
    if n is None:
        return "trials: n/a"
    return "one trial: no interval" if n == 1 else f"{int(n)} trials"


_NAN_INTERVAL = re.compile(r"\[nan, nan\]", re.IGNORECASE)
_NAN = re.compile(r"(?<![\w.])[+-]?nan(?![\w])", re.IGNORECASE)


def readable(text: Any) -> str:
    """A stored text (a check's detail) as people read it: a missing interval as "(no interval)", any other missing
    number as "n/a", never "nan" (a check of a model's own may still format one)."""
    return _NAN.sub("n/a", _NAN_INTERVAL.sub("(no interval)", _text(text)))


AUTO_LINKS = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)|(?<=:)(?=[\w/+-]+[:\[])", re.IGNORECASE)  # where
# "https://", "www." and "a@b.c" become links by themselves, and ":smile:", ":material/home:" and ":red[..]" an emoji,
# an icon or a colour, in GitHub's Markdown and Streamlit's, escaped or not
WORD_JOINER = "\u2060"  # invisible, and no part of a link or a name
_LINK_OR_TAG = re.compile(r"\](?=\()|<(?=[A-Za-z/!?])")  # "](" closes a link's or image's text; "<" + letter opens HTML


def no_auto_links(text: Any) -> str:
    """``text`` with an invisible word joiner after the ``:`` of ``://``, the ``www`` of ``www.``, the ``@`` of an
    address and the ``:`` that opens ``:name:`` or ``:name[``: Markdown then makes no link, emoji, icon or colour of
    them (a backslash would not do: these are found in the text once its escapes are read)."""
    return AUTO_LINKS.sub(WORD_JOINER, str(text))


def unlinked(text: Any) -> str:
    """A user's text (a claims.csv's cell) as Markdown shows it, never a link, an image or HTML: auto-links broken
    (:func:`no_auto_links`), and a backslash before the ``]`` of ``](`` and a ``<`` that opens a tag. Nothing else
    changes, so "mu <= 10" or "[0.9, 1.1]" read as written."""
    return _LINK_OR_TAG.sub(lambda m: "\\" + m.group(0), no_auto_links(text))


#: The title of the definition's folded rest (:data:`hcsched.claims.DETAILS`) in the report.
DETAILS_TITLE = "Where each kind of claim puts its number"


def _bold_html(markdown: str) -> str:
    """Markdown text whose only markup is ``**bold**`` as HTML: escaped, its bold in ``<b>``."""
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(markdown, quote=False))


def definition_html() -> str:
    """:data:`hcsched.claims.DEFINITION` as HTML: its two first sentences (:data:`hcsched.claims.LEAD`) as a
    paragraph, the rest (:data:`hcsched.claims.DETAILS`) folded in a ``<details>`` titled :data:`DETAILS_TITLE`."""
    return (f"<p>{_bold_html(LEAD)}</p><details><summary>{html.escape(DETAILS_TITLE)}</summary>"
            f"<p>{_bold_html(DETAILS)}</p></details>")


def _text(x: Any) -> str:
    """A table cell as text; empty for a missing value (NaN after a CSV round trip)."""
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else str(x)


def _share(x: Any) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "n/a"
    return f"{x:.0%}" if math.isfinite(x) else "n/a"


# --- claims and readings ---------------------------------------------------------------------------------------
def count_text(rows: pd.DataFrame, bold: bool = False) -> str:
    """Every paper's claims counted as the Papers page counts a paper's (:func:`claims_text`): the claims as the
    papers write them first, then the other readings: "Of the 221 claims as the papers write them, 96 hold, 38 hold
    partly and 87 do not. 87 of them were also checked under another reasonable reading of an ambiguous sentence: ..."
    (`hcsched reproduce`'s report and the docs' reproduction page)."""
    return claims_text(rows, bold, writer="the papers")


def _verdicts(counts: Mapping[str, int]) -> str:
    return f"{counts[HOLDS]} hold, {counts[PARTLY]} hold partly, {counts[FAILS]} do not hold"


def reading_said(row: Mapping[str, Any]) -> str:
    """A claims-table row's reading in plain words: "" for the claim as written, "ties broken at random" for another
    (its name where its model has no such reading)."""
    reading = _text(row.get("reading"))
    if reading in ("", "literal"):
        return ""
    return _reading_words(_text(row.get("model"))).get((_text(row.get("id")), reading), reading)


def reading_words(row: Mapping[str, Any]) -> str:
    """A row's reading as the Papers page and the docs' tables add it to its claim: "" for the claim as written,
    " (another reading: ties broken at random)" for another (:func:`reading_said`)."""
    said = reading_said(row)
    return f" (another reading: {said})" if said else ""


@functools.cache
def _reading_words(model: str) -> dict[tuple[str, str], str]:
    """Each (claim id, reading name) of ``model``'s claims and the reading's words (:meth:`Claim.reading_words`)."""
    if model not in model_names():
        return {}
    return {(c.id, r.name): c.reading_words(r.name) for c in get_model(model).claims() for r in c.readings}


#: What a reading is, in plain words: said before the word "reading" is used on its own.
READING = "another reasonable reading of an ambiguous sentence"


def claims_text(rows: pd.DataFrame, bold: bool = False, writer: str = "the paper") -> str:
    """The claims as the paper writes them counted first, then the other readings, in plain words (the Papers page):
    "Of the 26 claims as the paper writes them, 19 hold and 7 do not. 7 of them were also checked under another
    reasonable reading of an ambiguous sentence: 2 hold and 5 do not."; where a claim has several, "... some under more
    than one: of those readings, 40 hold ..." (their total unsaid: beside the claims' counts it read as one of them).
    With ``bold`` the first count in bold;
    ``writer``: whose claims they are ("the papers": :func:`count_text`)."""
    literal, other = rows[rows["reading"] == "literal"], rows[rows["reading"] != "literal"]
    n = len(literal)
    writes = "writes" if writer == "the paper" else "write"
    head = f"Of the {n} claims as {writer} {writes} them" if n != 1 else f"Of the one claim as {writer} {writes} it"
    text = f"{f'**{head}**' if bold else head}, {plain_verdicts(literal['verdict'])}."
    if other.empty:
        return text
    claims, checks = int(other["id"].nunique()), len(other)
    some = f"{claims} of them {'were' if claims != 1 else 'was'}" if claims < n else "All of them were"
    if checks == claims:
        return f"{text} {some} also checked under {READING}: {plain_verdicts(other['verdict'])}."
    # the readings' verdicts without their total: "87 do not. ... of these 87 other readings" read as one figure
    return (f"{text} {some} also checked under other reasonable readings of an ambiguous sentence, some under more "
            f"than one: of those readings, {plain_verdicts(other['verdict'])}.")


def plain_verdicts(verdicts: Sequence[str]) -> str:
    """How many hold, hold partly and do not, the counts of none left out: "19 hold and 7 do not", "1 holds partly",
    "8 do not hold", and how many could not be checked."""
    counts, total = verdict_counts(list(verdicts)), len(verdicts)
    parts = [f"{counts[HOLDS]} {'hold' if counts[HOLDS] != 1 else 'holds'}" if counts[HOLDS] else "",
             f"{counts[PARTLY]} {'hold' if counts[PARTLY] != 1 else 'holds'} partly" if counts[PARTLY] else "",
             f"{counts[FAILS]} {'do' if counts[FAILS] != 1 else 'does'} not" if counts[FAILS] else ""]
    errors = total - sum(counts.values())
    parts.append(f"{errors} could not be checked" if errors else "")
    said = [p for p in parts if p]
    if not said:
        return "none was checked"
    if said == [parts[2]]:  # "8 do not" alone says too little
        return f"{said[0]} hold"
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


# --- summary per paper -------------------------------------------------------------------------------------------
def paper_summary(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Per model, in the table's order: its paper and title, the counts of each verdict of its claims (their literal
    reading), those of the other readings, and how many checks could not be evaluated."""
    out = []
    for model, rows in table.groupby("model", sort=False):
        literal = rows[rows["reading"] == "literal"]
        other = rows[rows["reading"] != "literal"]
        out.append({"model": model, "paper": _text(rows["paper"].iloc[0]), "title": _title(str(model)),
                    "claims": len(literal), "counts": verdict_counts(list(literal["verdict"])),
                    "readings": len(other), "reading_counts": verdict_counts(list(other["verdict"])),
                    "errors": int((~rows["verdict"].isin(VERDICTS)).sum())})
    return out


def _title(model: str) -> str:
    return get_model(model).title if model in model_names() else model


def summary_line(entry: Mapping[str, Any]) -> str:
    """``3 of 5 claims hold, 1 holds partly, 1 does not hold`` (and the other readings', and the errors)."""
    c = entry["counts"]
    text = f"{c[HOLDS]} of {entry['claims']} claims hold, {c[PARTLY]} hold partly, {c[FAILS]} do not hold"
    if entry["readings"]:
        r = entry["reading_counts"]
        text += f"; other readings: {r[HOLDS]} of {entry['readings']} hold, {r[PARTLY]} partly, {r[FAILS]} do not"
    if entry["errors"]:
        text += f"; {entry['errors']} could not be checked"
    return text


# --- a stored check's words as people read them ----------------------------------------------------------------
def _metrics_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The metrics a claims-table row's check reads (its ``metric`` cell: names joined by ", "), by name; a name its
    model does not know (a check of a model's own) is left out."""
    try:
        model = get_model(_text(row.get("model")))
    except HcschedError:
        return {}
    out = {}
    for name in (n.strip() for n in _text(row.get("metric")).split(",")):
        try:
            out[name] = model.metric(name)
        except HcschedError:
            continue
    return out


def in_words(text: Any, row: Mapping[str, Any]) -> str:
    """A stored text of a claims-table row (its check, its quantity) with each metric its check reads named as the
    results name it (:func:`hcsched.verdict.metric_words`), whether stored as the column ("normalized_makespan") or
    spaced ("normalized makespan"): "kpb best on normalised makespan"."""
    text = _text(text)
    words = {}
    for name, metric in _metrics_of(row).items():
        words[name] = words[name.replace("_", " ")] = metric_words(metric)
    if not words or not text:
        return text
    found = re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in sorted(words, key=len, reverse=True))
                       + r")(?![\w-])")
    return found.sub(lambda m: words[m.group(1)], text)


_LEAD = re.compile(r"(?P<metric>.+?): (?P<a>.+) (?P<side>ahead of|behind) (?P<b>.+), paired \(% of (?P=b)\)")
_PAIRED = re.compile(r"(?P<metric>.+?) of (?P<a>[^:]+) against (?P<b>[^:]+), paired \((?P<unit>% of (?P=b)|points)\)"
                     r"(?P<rest>(?:, at [^:]*)?)")


def signed_words(text: Any, row: Mapping[str, Any]) -> str:
    """A stored quantity of a paired comparison that says which side of 0 is better for the first heuristic: a
    lead (the number of :class:`hcsched.claims.Best`, positive on the claimed side), "makespan: kpb ahead of met,
    paired (% of met)" -> "makespan: kpb's lead over met, paired (% of met; above 0: kpb better)"; a paired
    difference a - b (:class:`hcsched.claims.Better`), by its metric's better side, "makespan of kpb against mct,
    paired (% of mct)" -> "... (% of mct; below 0: kpb better)". Any other text is returned as it is."""
    text = _text(text)
    lead = _LEAD.fullmatch(text)
    if lead:
        a, b = lead["a"], lead["b"]
        if lead["side"] == "behind":  # a claim of the worst: the number is positive where a is the worse
            return f"{lead['metric']}: how far {a} trails {b}, paired (% of {b}; above 0: {a} worse)"
        return f"{lead['metric']}: {a}'s lead over {b}, paired (% of {b}; above 0: {a} better)"
    pair, metrics = _PAIRED.fullmatch(text), list(_metrics_of(row).values())
    if pair and len(metrics) == 1 and metrics[0].better in ("lower", "higher"):
        side = "below" if metrics[0].better == "lower" else "above"
        return (f"{pair['metric']} of {pair['a']} against {pair['b']}, paired ({pair['unit']}; {side} 0: "
                f"{pair['a']} better){pair['rest']}")
    return text


# --- what each claim's chart shows ------------------------------------------------------------------------------
def chart_data(table: pd.DataFrame) -> list[tuple[tuple, float, str]]:
    """Per row of a claims table (:data:`hcsched.reproduce.COLUMNS`): the Outcome's ``series`` ((label, mean, lower,
    upper) rows), the paper's printed number where the check is a Value with one (else NaN) and the chart's axis
    title; no series for a table of an older format."""
    return [_stored(row) for _, row in table.iterrows()]


def _stored(row: pd.Series) -> tuple[tuple, float, str]:
    if not isinstance(row.get("series"), str):
        return (), math.nan, ""
    series = tuple(tuple(r) for r in json.loads(row["series"]))
    number = float(row["paper_number"]) if _text(row.get("paper_number")) else math.nan
    return series, number, in_words(_text(row.get("axis")) or _text(row.get("metric")), row)


def claim_figure(series: Sequence[tuple], axis: str = "", paper: float = math.nan):
    """What a check compared, as horizontal bars (mean) with 95% error bars, best read top to bottom; the paper's
    printed number as a dashed vertical line. A small figure: no template, no toolbar."""
    import plotly.graph_objects as go

    labels = [html.escape(str(s[0]), quote=False) for s in series]  # Plotly reads HTML in text: shown as written
    mean = [_finite(s[1]) for s in series]
    plus = [_gap(s[3], s[1]) if len(s) > 3 else None for s in series]
    minus = [_gap(s[1], s[2]) if len(s) > 3 else None for s in series]
    fig = go.Figure(go.Bar(x=mean, y=labels, orientation="h", marker_color="#7a8a99",
                           error_x={"type": "data", "array": plus, "arrayminus": minus, "color": "#222",
                                    "thickness": 1.5},
                           hovertemplate="%{y}: %{x:.4g}<extra></extra>"))
    if math.isfinite(paper):
        fig.add_vline(x=paper, line_dash="dash", line_color="#000", annotation_text=f"paper: {_number(paper)}",
                      annotation_position="top")
    fig.update_layout(template="none", height=70 + 26 * max(1, len(labels)),
                      margin={"l": 130, "r": 20, "t": 24, "b": 36},
                      font={"size": 12}, showlegend=False,
                      xaxis={"title": {"text": html.escape(axis, quote=False), "standoff": 4}, "zeroline": True,
                             "gridcolor": "#e5e5e5"},
                      yaxis={"autorange": "reversed", "automargin": True})
    return fig


@dataclass(frozen=True)
class Quantity:
    """The number a claim's verdict was read from, for a chart: what it is (``title``), our mean and 95% interval,
    where the claim puts it (``low``, ``high``: infinite for a side) and the paper's printed number (NaN if none)."""

    title: str
    mean: float
    lower: float
    upper: float
    low: float
    high: float
    paper: float = math.nan


def quantity_of(row: Mapping[str, Any]) -> Quantity | None:
    """The :class:`Quantity` of a claims-table row, or None where its verdict is not read from one number (an order,
    a check of a model's own) or the table is of an older format."""
    mean = _finite(row.get("ours"))
    low, high = _bound(row.get("claimed_low")), _bound(row.get("claimed_high"))
    if mean is None or low is None or high is None or not (math.isfinite(low) or math.isfinite(high)):
        return None
    title = in_words(signed_words(row.get("quantity"), row) or _text(row.get("check")), row)
    unit = _text(row.get("unit"))
    if unit == "x":
        title += " (x)"
    elif not unit:
        axis = _text(row.get("axis"))
        found = re.search(r"\(([^()]+)\)$", axis)
        title += f" ({found.group(1)})" if found and not title.endswith(")") else ""
    paper = _finite(row.get("paper_number"))
    return Quantity(title, mean, _nan(row.get("ours_lower")), _nan(row.get("ours_upper")), low, high,
                    math.nan if paper is None else paper)


def _bound(x: Any) -> float | None:
    """A claimed region's end as stored (a number, or +-inf written as "inf"); None where there is none."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return None if x != x else x


def _nan(x: Any) -> float:
    x = _finite(x)
    return math.nan if x is None else x


def claimed_text(low: float, high: float) -> str:
    """Where the claim puts the number, in words: "0.95 to 1.05", "7 and above", "0 and below"."""
    if math.isfinite(low) and math.isfinite(high):
        if low == high:
            return _number(low)
        a, b = _number(low), _number(high)
        return f"{a} to {b}" if a != b else f"{low:.6g} to {high:.6g}"  # a narrow band: enough digits to tell
    return f"{_number(low)} and above" if math.isfinite(low) else f"{_number(high)} and below"


def quantity_figure(q: Quantity):
    """Our number as a point with its 95% interval, on an axis of what it is; where the claim puts it shaded (its
    finite edges drawn), the paper's printed number as a dashed line: the verdict read off one line."""
    import plotly.graph_objects as go

    marks = [x for x in (q.mean, q.lower, q.upper, q.low, q.high, q.paper) if math.isfinite(x)]
    span = (max(marks) - min(marks)) or abs(q.mean) or 1.0
    left, right = min(marks) - 0.2 * span, max(marks) + 0.2 * span
    if math.isinf(q.high):  # a side: show a good part of it, so that the shading reads as "from here on"
        right = max(right, q.low + 0.3 * (right - left))
    if math.isinf(q.low):
        left = min(left, q.high - 0.3 * (right - left))
    has_interval = math.isfinite(q.lower) and math.isfinite(q.upper)
    error = ({"type": "data", "array": [q.upper - q.mean], "arrayminus": [q.mean - q.lower], "color": "#222",
              "thickness": 2, "width": 8} if has_interval else None)
    interval = f"95% interval {_number(q.lower)} to {_number(q.upper)}" if has_interval else "no interval"
    fig = go.Figure(go.Scatter(x=[q.mean], y=[OURS], mode="markers", error_x=error,
                               name=f"{OURS}'s rerun, 95% interval",
                               marker={"symbol": "diamond", "size": 13, "color": "#0072B2"},
                               hovertemplate=f"{OURS}'s rerun: %{{x:.4g}} ({interval})<extra></extra>"))
    fig.add_vrect(x0=max(q.low, left), x1=min(q.high, right), fillcolor="#0072B2", opacity=0.12, line_width=0)
    for edge in (q.low, q.high):
        if math.isfinite(edge) and edge != q.paper:
            fig.add_vline(x=edge, line_dash="dot", line_color="#0072B2", line_width=1)
    legend = f"shaded: the claim ({claimed_text(q.low, q.high)})"
    if math.isfinite(q.paper):
        fig.add_vline(x=q.paper, line_dash="dash", line_color="#000", annotation_text=f"paper: {_number(q.paper)}",
                      annotation_position="bottom right", annotation_font_size=11)
        legend += f" · dashed: the paper's {_number(q.paper)}"
    legend += f" · ◆ {OURS}" + (" and its 95% interval" if has_interval else " (no interval)")  # its rerun: a short
    # line, since the legend is the chart's title line (cut at 1000 px with "hcsched's rerun")
    title = _wrap(q.title)
    more = 16 * title.count("<br>")  # a wrapped axis title's lines
    fig.update_layout(template="none", height=180 + more, margin={"l": 60, "r": 20, "t": 34, "b": 50 + more},
                      font={"size": 12},
                      showlegend=False, title={"text": legend, "font": {"size": 11, "color": "#444"}, "x": 0.01,
                                               "xanchor": "left", "y": 0.97, "yanchor": "top"},
                      xaxis={"title": {"text": title, "standoff": 4}, "range": [left, right], "gridcolor": "#e5e5e5",
                             "zeroline": False},
                      yaxis={"showgrid": False})
    return fig


def _wrap(text: str, width: int = 60) -> str:
    """A long axis title on lines of about ``width`` characters (Plotly's ``<br>``), so that a narrow chart shows it
    whole; each line HTML-escaped (Plotly reads HTML in text: shown as written)."""
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "<br>".join(html.escape(text, quote=False) for text in [*lines, line])


def claim_chart(row: Mapping[str, Any]):
    """A claims-table row's chart: its :func:`quantity_figure` where the verdict is read from one number, else what
    the check compared (:func:`claim_figure` of its series), else None."""
    q = quantity_of(row)
    if q is not None:
        return quantity_figure(q)
    series, paper, axis = _stored(pd.Series(dict(row)))
    return claim_figure(series, axis, paper) if series else None


def _gap(a: Any, b: Any) -> float | None:
    """a - b where both are finite numbers (a missing bound, written as None in claims.csv, gives no error bar)."""
    a, b = _finite(a), _finite(b)
    return None if a is None or b is None else a - b


def _finite(x: Any) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


# --- the HTML page ---------------------------------------------------------------------------------------------
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:60rem;margin:1.5rem auto;
padding:0 1rem;color:#1a1a1a;line-height:1.45}
h1{font-size:1.6rem;margin-bottom:.2rem} h2{font-size:1.25rem;margin-top:2.2rem;border-bottom:1px solid #ccc}
.meta{color:#555;font-size:.9rem} .badge{display:inline-block;padding:.05rem .55rem;border-radius:.8rem;font-weight:600;
font-size:.85rem;white-space:nowrap} .summary td,.summary th{padding:.3rem .6rem;text-align:left;vertical-align:top}
.summary{border-collapse:collapse;margin:.6rem 0} .summary tr{border-bottom:1px solid #e2e2e2}
.card{border:1px solid #d0d0d0;border-left-width:.45rem;border-radius:.4rem;padding:.7rem 1rem;margin:1rem 0}
.card h3{font-size:1rem;margin:.1rem 0 .4rem;font-family:ui-monospace,monospace}
.claim{font-size:1.05rem;margin:.3rem 0}
.card dl{display:grid;grid-template-columns:9rem 1fr;gap:.15rem .8rem;margin:.5rem 0} .card dt{color:#555}
.card dd{margin:0} .reading{font-family:system-ui,sans-serif;font-weight:400;color:#444}
.note{background:#f6f6f6;padding:.4rem .6rem;border-radius:.3rem;font-size:.92rem}
.definition{background:#f3f7fb;border-left:.3rem solid #0072B2;padding:.5rem .8rem;font-size:.95rem}
.definition p{margin:.2rem 0} .definition summary{cursor:pointer;color:#0072B2}
"""


def _badge(verdict: str) -> str:
    back, fore = BADGES.get(verdict, OTHER_BADGE)
    word = verdict if verdict in VERDICTS else f"not checked ({verdict})"
    return f'<span class="badge" style="background:{back};color:{fore}">{html.escape(word)}</span>'


def _card(row: pd.Series, figure_html: str) -> str:
    e = lambda x: html.escape(_text(x))  # noqa: E731
    reading = _text(row["reading"])
    reading_line = "" if reading == "literal" else (f"<dt>Reading</dt><dd>{e(reading_said(row))} ({READING}, "
                                                    f"named {e(reading)})</dd>")
    named = "" if reading == "literal" else f' <span class="reading">reading: {e(reading)}</span>'
    seconds = _finite(row.get("seconds"))
    trials = (f"{trials_text(row.get('trials'))}, "
              f"{'n/a s' if seconds is None else readable_amount(seconds, 's')} of compute")
    note = f'<p class="note"><b>Note.</b> {e(docs_in_words(row.get("note")))}</p>' if _text(row.get("note")) else ""
    colour = BADGES.get(str(row["verdict"]), OTHER_BADGE)[0]
    return (f'<section class="card" id="{e(row["id"])}--{e(reading)}" style="border-left-color:{colour}">'
            f'<h3>{e(row["id"])}{named} {_badge(str(row["verdict"]))}</h3>'
            f'<p class="claim">{e(row["claim"])}</p><dl>'
            f'<dt>Where</dt><dd>{e(row["where"])}</dd>{reading_line}'
            f'<dt>Check</dt><dd>{e(in_words(row.get("check"), row))}</dd>'
            f'<dt>Ours</dt><dd><b>{html.escape(format_ours(row))}</b></dd>'
            f'<dt>Paper</dt><dd>{e(row["paper_value"]) or "n/a"}</dd>'
            f'<dt>Share of trials</dt><dd>{_share(row.get("share"))}</dd>'
            f'<dt>Run</dt><dd>{html.escape(trials)}</dd>'
            f'<dt>Detail</dt><dd>{html.escape(readable(row.get("detail")))}</dd></dl>{note}{figure_html}</section>')


def report_html(table: pd.DataFrame, made: datetime.date | None = None) -> str:
    """The report as one HTML page (see the module's docstring)."""
    import plotly.offline

    made = made or datetime.date.today()
    summary = paper_summary(table)
    rows = "".join(
        f"<tr><td><a href='#paper-{html.escape(str(s['model']))}'><b>{html.escape(s['paper'])}</b></a><br>"
        f"{html.escape(s['title'])}</td>"
        f"<td>{' '.join(_badge(v) + f' {n}' for v, n in s['counts'].items())}</td>"
        f"<td>{html.escape(summary_line(s))}</td></tr>" for s in summary)
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
             f"content='width=device-width, initial-scale=1'><title>hcsched: the papers' claims, rerun</title>"
             f"<style>{CSS}</style><script "
             f"type='text/javascript'>{plotly.offline.get_plotlyjs()}</script></head><body>",
             "<h1>The papers' claims, rerun</h1>",
             f"<p class='meta'>Made on {made.isoformat()} with hcsched {html.escape(__version__)}: "
             f"{html.escape(count_text(table))} Every verdict is computed from this run's numbers (mean and 95% "
             "interval over trials; comparisons paired over common random numbers).</p>",
             f"<div class='definition'>{definition_html()}</div>",
             f"<table class='summary'><tr><th>Paper</th><th>Claims</th><th>Summary</th></tr>{rows}</table>"]
    index = 0
    for s in summary:
        parts.append(f"<h2 id='paper-{html.escape(str(s['model']))}'>{html.escape(s['paper'])}</h2>"
                     f"<p class='meta'>{html.escape(s['title'])}: "
                     f"{html.escape(summary_line(s))}</p>")
        for i in [i for i, m in enumerate(table["model"]) if m == s["model"]]:
            row = table.iloc[i]
            figure_html = ""
            fig = claim_chart(row)
            if fig is not None:
                index += 1
                figure_html = fig.to_html(full_html=False, include_plotlyjs=False, div_id=f"chart-{index}",
                                          default_height=f"{fig.layout.height}px",
                                          config={"displayModeBar": False, "responsive": True})
            parts.append(_card(row, figure_html))
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(table: pd.DataFrame, path: str | Path) -> Path:
    """Write :func:`report_html` of a claims table to ``path`` (its folder is made); returns the path."""
    path = Path(path)
    text = report_html(table)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise HcschedError(f"report: cannot write {str(path)!r} ({exc.strerror or exc})") from None
    return path


# --- the docs' reproduction tables --------------------------------------------------------------------------------
def _cell(x: Any) -> str:
    """A cell of the reproduction tables: a claims.csv's text, never a link, an image or HTML (:func:`unlinked`)."""
    return unlinked(_text(x)).replace("|", "\\|").replace("\n", " ").strip()


def markdown_tables(table: pd.DataFrame) -> str:
    """The reproduction section of the docs (``hcsched reproduce --readme``), short: the verdicts' definition
    (:data:`hcsched.claims.DEFINITION`), one summary row per paper (claims that hold, hold partly, do not hold), then
    per paper the claims that do not fully hold (what the paper says, what we got), since every claim is in the report
    and on the Papers page; another reading's row names it."""
    missing = [c for c in NEEDED if c not in table]
    if missing:
        raise HcschedError(f"claims table: no column {missing[0]!r}; a claims.csv of `hcsched reproduce` has: "
                           f"{', '.join(NEEDED)}, ...")
    summary = paper_summary(table)
    out = [f"The verdicts. {DEFINITION}", "", f"All papers. {count_text(table)}", "",
           "| Paper | Claims | Summary |", "|---|---:|---|"]
    out += [f"| **{_cell(s['paper'])}**: {_cell(s['title'])} | {table['id'][table['model'] == s['model']].nunique()} | "
            f"{_cell(summary_line(s))} |" for s in summary]
    out.append("")
    for s in summary:
        rows = table[(table["model"] == s["model"]) & (table["verdict"] != HOLDS)]
        if rows.empty:
            continue
        out += [f"**{_cell(s['paper'])}**: the claims that do not fully hold.", "",
                "| Claim | Where | Ours | Paper | Verdict |", "|---|---|---|---|---|"]
        for _, row in rows.iterrows():
            said = reading_words(row).strip()
            claim = _cell(row["claim"]) + (f" *{_cell(said)}*" if said else "")
            out.append(f"| {claim} | {_cell(row['where'])} | {_cell(format_ours(row))} | {_cell(row['paper_value'])} | "
                       f"{_cell(row['verdict'])} |")
        out.append("")
    return "\n".join(out)


@dataclass(frozen=True)
class VerdictChange:
    """A claim's reading run again: its verdict before (None where the earlier table has no such row) and now, and
    our number before and now (:func:`format_ours`)."""

    id: str
    reading: str
    was: str | None
    now: str
    ours_was: str
    ours_now: str

    @property
    def changed(self) -> bool:
        return self.was is not None and self.was != self.now

    @property
    def name(self) -> str:
        """``id``, and `` (reading)`` for a reading other than the literal one."""
        return self.id + ("" if self.reading == "literal" else f" ({self.reading})")

    def verdict_text(self) -> str:
        """The verdict now and whether it changed: "holds (unchanged)", "was 'holds partly', now 'holds'
        (hcsched's number was A, is B)", or "holds (new: no verdict before)"."""
        if self.was is None:
            return f"{self.now} (new: no verdict before)"
        if not self.changed:
            return f"{self.now} (unchanged)"
        return f"was '{self.was}', now '{self.now}' ({OURS}'s number was {self.ours_was}, is {self.ours_now})"

    def line(self) -> str:
        """One line for a person: "Claim X: " and :meth:`verdict_text`, e.g. "Claim X (reading): was 'holds partly',
        now 'holds' (hcsched's number was A, is B)"."""
        return f"Claim {self.name}: {self.verdict_text()}"


def verdict_changes(before: pd.DataFrame, now: pd.DataFrame) -> list[VerdictChange]:
    """Each row of ``now`` (a claim's reading) against the same claim and reading in ``before``, in ``now``'s order."""
    old = {(r["id"], r["reading"]): r for _, r in before.iterrows()} if not before.empty else {}
    out = []
    for _, row in now.iterrows():
        was = old.get((row["id"], row["reading"]))
        out.append(VerdictChange(str(row["id"]), str(row["reading"]), None if was is None else str(was["verdict"]),
                                 str(row["verdict"]), "" if was is None else format_ours(was), format_ours(row)))
    return out


def changed_verdicts(before: pd.DataFrame, now: pd.DataFrame) -> list[str]:
    """Each claim (and reading) run in both tables whose verdict differs: "id (reading): holds -> does not hold
    (hcsched's number was X, is Y)". A verdict that changes is a finding to report, never to hide."""
    return [f"{c.name}: {c.was} -> {c.now} ({OURS}'s number was {c.ours_was}, is {c.ours_now})"
            for c in verdict_changes(before, now) if c.changed]


def read_claims(path: str | Path, flag: str = "--from") -> pd.DataFrame:
    """A claims.csv written by ``hcsched reproduce`` (``flag``: the option that named it, for errors)."""
    try:
        return pd.read_csv(path, keep_default_na=False, na_values=[""])
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise HcschedError(f"{flag}: cannot read {str(path)!r} as a claims.csv "
                           f"({getattr(exc, 'strerror', None) or exc})") from None


#: A model page's table of its claims by reading (:func:`readings_table`), between these lines; MODEL is its name.
READINGS_BEGIN, READINGS_END = "<!-- claims-by-reading:{model}:begin -->", "<!-- claims-by-reading:{model}:end -->"
_SHORT_VERDICT = {"holds": "holds", "holds partly": "partly", "does not hold": "**no**"}


def readings_table(table: pd.DataFrame, model: str) -> str:
    """The claims of ``model`` in ``table`` (a claims.csv), a row each, a column per reading of the text (literal
    first, then in the order the rows name them): our value with its 95% interval (:func:`format_ours`) and the
    verdict ("holds", "partly", "**no**"); a model's page shows it under its readings."""
    rows = table[table["model"] == model]
    readings = list(dict.fromkeys(["literal", *rows["reading"].astype(str)]))
    head = ["claim", "paper", *readings]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for claim, group in rows.groupby("id", sort=False):
        cells = {str(r["reading"]): f"{format_ours(r)}: {_SHORT_VERDICT.get(str(r['verdict']), str(r['verdict']))}"
                 for _, r in group.iterrows()}
        paper = str(group["paper_value"].iloc[0]).replace("|", "/")
        lines.append("| " + " | ".join([f"`{claim}`", paper, *(cells.get(x, "") for x in readings)]) + " |")
    return "\n".join(lines)


def _replace_block(text: str, begin: str, end: str, block: str, path: Path) -> str:
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start or text.count(begin) != 1 or text.count(end) != 1:
        raise HcschedError(f"--readme {str(path)!r}: needs one {begin} line and, after it, one {end} line around "
                           "the claims tables")
    return text[:start + len(begin)] + "\n" + block + "\n" + text[stop:]


def update_readme(readme_path: str | Path, claims_csv_path: str | Path) -> bool:
    """Rewrite the block between ``<!-- claims:begin -->`` and ``<!-- claims:end -->`` of a Markdown page (the docs'
    reproduction page) with :func:`markdown_tables` of the claims.csv, and a model page's block between
    :data:`READINGS_BEGIN` and :data:`READINGS_END` with :func:`readings_table`, leaving everything else as it is.
    Returns whether the file changed."""
    table = read_claims(claims_csv_path)
    path = Path(readme_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise HcschedError(f"--readme: cannot read {str(path)!r} ({exc.strerror or exc})") from None
    new = text
    models = [m for m in table["model"].unique() if READINGS_BEGIN.format(model=m) in text]
    for model in models:
        new = _replace_block(new, READINGS_BEGIN.format(model=model), READINGS_END.format(model=model),
                             readings_table(table, model), path)
    if BEGIN in text or not models:
        new = _replace_block(new, BEGIN, END, markdown_tables(table), path)
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True
