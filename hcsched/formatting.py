"""Numbers as people read them: the one way the CLI, the dashboard, the HTML report and the verdicts' sentences print
a number, a metric's value with its unit, a mean with its 95% interval or a difference. Pure formatting: nothing here
computes or looks a model up; of hcsched it reads only a :class:`hcsched.metrics.Metric`'s unit and format.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hcsched.metrics import Metric

_SUFFIXES = ((1e12, 1e12, "T"), (1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k"))  # (from, scale, suffix)


def readable_number(x: float, fmt: str = "") -> str:
    """A number as people read it, the one way the CLI, the dashboard and the report print one: in ``fmt`` if given
    (a metric's own, e.g. ".1%"); else three significant digits with a suffix from ten thousand (a makespan of
    1.20 M, 61.4 k), whole with thousands separated from a thousand (9,876), four significant digits below (12.35, a
    ratio of 0.9871), three below a thousandth (0.000712); "n/a" for NaN."""
    if math.isnan(x):
        return "n/a"
    if fmt:
        return format(x, fmt)
    if math.isinf(x) or abs(x) >= 1e15:
        return f"{x:.3g}"
    for start, scale, suffix in _SUFFIXES:
        if abs(x) >= start * 0.9995:
            return f"{x / scale:#.3g}".rstrip(".") + f" {suffix}"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.4g}" if x == 0 or abs(x) >= 1e-3 else f"{x:.3g}"


def interval_cell(mean: float, lower: float, upper: float, fmt: str = "") -> str:
    """A table's cell of a mean and its 95% interval, each :func:`readable_number`: "1.20 M [1.18 M, 1.22 M]",
    "87.3% [86.1%, 88.5%]"; the mean alone where there is no interval (one trial)."""
    if lower != lower:
        return readable_number(mean, fmt)
    return f"{readable_number(mean, fmt)} [{readable_number(lower, fmt)}, {readable_number(upper, fmt)}]"


def is_fraction(metric: Metric) -> bool:
    """A fraction shown as a percent (its format ends in "%", e.g. ".1%")."""
    return metric.fmt.endswith("%")


_WORDS = {"k": "thousand", "M": "million", "G": "billion", "T": "trillion"}
SECONDS_IN_FULL = 1e9  # seconds below it are written in full digits ("535,000 s"), with hours or days beside them
_SPANS = ((730 * 86400.0, 365.25 * 86400.0, "years"), (48 * 3600.0, 86400.0, "days"), (3600.0, 3600.0, "hours"))


def readable(value: float, metric: Metric) -> str:
    """A metric's value as people read it, with its unit: "6.2 days (535,000 s)", "87.3%", "93.41%", "12 tasks"; NaN
    "n/a". Beside a unit the scale is a word ("1.20 million time units": "544 k s" would read as kiloseconds)."""
    number = readable_number(value, metric.fmt)
    if not math.isfinite(value) or is_fraction(metric) or not metric.unit:
        return number
    return readable_amount(value, metric.unit)


def readable_amount(value: float, unit: str) -> str:
    """A number with its unit, one format on a page: full digits with separators below a million ("20,000 time units",
    "79,100 tasks", three significant digits from ten thousand), the scale in words from there ("1.20 million time
    units"); seconds from an hour as hours or days, the seconds the charts show beside them ("6.2 days (535,000 s)",
    "1.9 hours (7,004 s)"); a percent in two or three significant digits (:func:`percent_text`: "2.1%", "90.9%")."""
    if unit == "s" and math.isfinite(value) and abs(value) < SECONDS_IN_FULL:
        span = time_span(value)
        return f"{span} ({seconds_number(value)} s)" if span else f"{seconds_number(value)} s"
    if unit == "%" and math.isfinite(value):
        return f"{percent_text(value)}%"
    if math.isfinite(value) and abs(value) < 1e6 * 0.9995:
        return f"{seconds_number(value)} {unit}"
    number = readable_number(value)
    head, _, suffix = number.partition(" ")
    if suffix in _WORDS:
        number = f"{head} {_WORDS[suffix]}"
    return number + "%" if unit == "%" else f"{number} {unit}"


def percent_text(x: float) -> str:
    """A percent (or any amount a sentence says short) in two or three significant digits, never more: "2.1" (not
    "2.068"), "57.8", "90.9", "0.048"; whole where it is ("50", not "50.0"), and with separators from a hundred ("250",
    "1,300")."""
    if abs(x) >= 99.95 or (abs(x) >= 0.9995 and round(x, 1) == round(x)):
        return f"{x:,.0f}"
    return f"{x:.1f}" if abs(x) >= 0.9995 else f"{x:.2g}"


def said_value(value: float, metric: Metric) -> str:
    """A metric's value as a sentence says it: in its own words where it has them (:attr:`Metric.said`: "37.8 times
    its run time alone", a gain "2.1% lower total flow time than the benchmark" or "3.0% higher makespan than the
    benchmark"), its number in two or three significant digits; a count or time units under a thousand in three
    ("5.16 tasks", not "5.158 tasks"); else :func:`readable`."""
    if not metric.said or not math.isfinite(value):
        return _short(value, metric) or readable(value, metric)
    negative = value < 0 and len(metric.said) > 1
    size = abs(value) if negative else value
    number = readable(size, metric) if is_fraction(metric) or metric.unit else percent_text(size)
    return metric.said[1 if negative else 0].format(number)


def _short(value: float, metric: Metric) -> str:
    """An amount under a thousand with its unit as a sentence says it, in three significant digits ("5.16 tasks",
    "0.397 time units": a table's 5.158 is a sentence's 5.16); "" for seconds (:func:`readable_amount` says them, whole
    from a thousand), a percent, a fraction, a value without a unit, from a thousand or under a thousandth
    (:func:`readable` says those)."""
    if not math.isfinite(value) or not 1e-3 <= abs(value) < 1000 or metric.unit in ("", "%", "s") \
            or is_fraction(metric):
        return ""
    return f"{value:.3g} {metric.unit}"


def readable_pair(before: float, after: float, metric: Metric, unit: tuple[float, str] | None = None) -> str:
    """Two values of a metric, the unit said once: "6.2 → 4.3 days (535,000 → 372,000 s)", "87.3% → 90.1%", "5.2 →
    4.8 tasks"; ``unit``: a time's, as :func:`span_pair`'s."""
    finite = math.isfinite(before) and math.isfinite(after)
    if metric.unit == "s" and finite and max(abs(before), abs(after)) < SECONDS_IN_FULL:
        return " ".join(x for x in seconds_pair(before, after, unit) if x)
    if finite and metric.unit and metric.unit != "%" and not is_fraction(metric):
        return _unit_once(readable(before, metric), readable(after, metric), metric.unit)
    return f"{readable(before, metric)} → {readable(after, metric)}"


def _unit_once(a: str, b: str, unit: str) -> str:
    """"5.2 → 4.8 tasks" from "5.2 tasks" and "4.8 tasks"; "a → b" where they do not both end in ``unit``."""
    tail = f" {unit}"
    return f"{a[: -len(tail)]} → {b}" if unit and a.endswith(tail) and b.endswith(tail) else f"{a} → {b}"


def said_in_times(metric: Metric) -> bool:
    """Whether ``metric``'s values are themselves said in times (:attr:`Metric.said`: "{} times its run time alone",
    a max stretch): a ratio of two of them is a ratio of ratios, so a sentence says both values."""
    return bool(metric.said) and metric.said[0].partition("{}")[2].split()[:1] == ["times"]


def said_pair(before: float, after: float, metric: Metric) -> str:
    """Two values as a sentence says each (:func:`said_value`), the unit or the words said once: "80,000 → 5.61
    tasks", "8.8 → 88 times its run time alone"."""
    if metric.said and not metric.unit and all(math.isfinite(x) and x >= 0 for x in (before, after)):
        return metric.said[0].format(" → ".join(pair_number(x) for x in (before, after)))
    a, b = said_value(before, metric), said_value(after, metric)
    if metric.said:  # the same words after each number: said once, after the second
        head, _, words = a.partition(" ")
        if words and b.partition(" ")[2] == words:
            return f"{head} → {b}"
    return _unit_once(a, b, metric.unit)


def pair_number(x: float) -> str:
    """A number of a pair said in words ("8.8 → 88 times its run time alone"): as a difference is said
    (:func:`amount_text`, one decimal below ten, whole from ten), with separators from a hundred ("1,300")."""
    return amount_text(x) if abs(x) < 100 else percent_text(x)


_MINUTES = (600.0, 60.0, "minutes")  # from ten minutes, where a sentence or an axis may count in minutes


def span_unit(seconds: float, minutes: bool = False) -> tuple[float, str] | None:
    """The unit people count a time of ``seconds`` in from an hour, as (seconds in it, its word): (86400.0,
    "days") for 6.2 days; None below an hour. ``minutes``: from ten minutes, (60.0, "minutes") below an hour (a
    tryout read "1,573 s" in a lead where a person says 26 minutes)."""
    spans = (*_SPANS, _MINUTES) if minutes else _SPANS
    return next(((scale, word) for start, scale, word in spans if abs(seconds) >= start), None)


def span_pair(before: float, after: float, unit: tuple[float, str] | None = None) -> str:
    """Two times in seconds as hours or days, in one unit said once, the larger's: "6.2 → 4.3 days", "1.5 → 2.3
    days" (not "35 hours → 2.3 days"), "under an hour → 1.9 hours"; "" when both are under an hour. ``unit``: the
    one a line says every time of the metric in (:func:`span_unit` of the least of them), where both are an hour or
    more: "34 → 55 hours" beside "16 → 23 hours"."""
    if unit is None or min(abs(before), abs(after)) < 3600.0:
        unit = span_unit(max(abs(before), abs(after)))
    if unit is None:
        return ""
    if min(abs(before), abs(after)) < 3600.0:  # too small to say in the larger's unit
        return " → ".join(time_span(x) or "under an hour" for x in (before, after))
    scale, word = unit
    return f"{amount_text(before / scale)} → {amount_text(after / scale)} {word}"


def seconds_pair(before: float, after: float, unit: tuple[float, str] | None = None) -> tuple[str, str]:
    """Two times as said first and beside them: hours or days with the seconds the charts show, ("6.2 → 4.3 days",
    "(535,000 → 372,000 s)"); the seconds first where one is under an hour ("3,000 → 7,004 s", "(under an hour →
    1.9 hours)"); the seconds alone under an hour (second part ""); ``unit``: as :func:`span_pair`'s."""
    seconds, aside = f"{seconds_number(before)} → {seconds_number(after)} s", span_pair(before, after, unit)
    if not aside:
        return seconds, ""
    return (seconds, f"({aside})") if min(abs(before), abs(after)) < 3600.0 else (aside, f"({seconds})")


def seconds_number(value: float) -> str:
    """A number (seconds, time units, tasks) in full digits, three significant ones from ten thousand: "535,000",
    "7,004", "523.4"."""
    if abs(value) < 1e4 * 0.9995:  # 9,999.7 is "10,000", never "10.0 k"
        return readable_number(value)
    digits = 3 - len(str(int(abs(value))))  # rounds 535,197 to 535,000
    return f"{round(value, digits):,.0f}"


def minutes_beside(seconds: float, span: float | None = None) -> str:
    """Seconds as minutes from a minute, hours from an hour (:func:`time_span`), the seconds beside them so that a
    page saying minutes and a chart in seconds agree: "4.2 hours (15,000 s)", "10 min (600 s)", "45 s". ``span``:
    the times said together (a scenario's window and its length) in the unit of this longest one, so that one
    scenario's times share a unit: minutes up to ten hours, "10 min (600 s)" and "250 min (15,000 s)", not "10 min"
    beside "4.2 hours"."""
    text = f"{seconds_number(seconds)} s"
    if span is None:
        return f"{time_span(seconds)} ({text})" if abs(seconds) >= 3600.0 else \
            f"{seconds / 60:,.3g} min ({text})" if abs(seconds) >= 60 else text
    if abs(span) < 60:
        return text
    if abs(span) < MINUTES_UP_TO:
        return f"{seconds / 60:,.3g} min ({text})"
    scale, word = span_unit(span) if abs(span) >= 10 * 86400.0 else (3600.0, "hours")
    return f"{amount_text(seconds / scale)} {word} ({text})"


MINUTES_UP_TO = 10 * 3600.0  # times said together are said in minutes while the longest is shorter, then in hours


def time_span(seconds: float, minutes: bool = False) -> str:
    """Seconds from an hour as people count them: "1.9 hours", "6.2 days", "3.1 years"; "" below an hour;
    ``minutes``: "41 minutes" from ten minutes (:func:`span_unit`)."""
    unit = span_unit(seconds, minutes)
    return "" if unit is None else f"{amount_text(seconds / unit[0])} {unit[1]}"


def amount_text(x: float) -> str:
    """A difference: one decimal below 10 ("6.1", "0.4"), none from 10 ("78", and "10" for 9.97), two significant
    digits below 0.05."""
    if x != 0 and abs(x) < 0.05:
        return f"{x:.2g}"
    return f"{x:.1f}" if round(abs(x), 1) < 10 else f"{x:.0f}"


def ends_text(low: float, high: float) -> tuple[str, str]:
    """An interval's two ends in one precision (:func:`amount_text`'s, one decimal for both where one end has one and
    the other would have none: "5.8–10.9", never "5.8–11")."""
    a, b = amount_text(low), amount_text(high)
    if ("." in a) != ("." in b) and max(abs(low), abs(high)) < 100 and "e" not in a + b:
        return f"{low:.1f}", f"{high:.1f}"
    return a, b


#: Shares said in words: the nearest within :data:`SHARE_NEAR` is said "about ..."; others as a percent.
SHARES = ((0.25, "a quarter"), (1 / 3, "a third"), (0.5, "half"), (2 / 3, "two thirds"), (0.75, "three quarters"))
SHARE_NEAR = 0.02
#: Means within this of each other (points, or the metric's unit) are said alike ("every heuristic ... 87.0–87.1%").
ALL_WITHIN = 0.5


def share_words(x: float, about: str = "about ") -> str:
    """A share under one in words: "half" (0.5, a simple share exactly), "about two thirds" (0.67), "about half"
    (0.49); "about 45%" where no simple share is near (``about``: what is said before a share not exact, "" for
    "45%")."""
    near = min(SHARES, key=lambda s: abs(s[0] - x))
    if math.isclose(near[0], x, abs_tol=1e-9):
        return near[1]
    return f"{about}{near[1]}" if abs(near[0] - x) <= SHARE_NEAR else f"{about}{x:.0%}"


def listed(items: Iterable[str]) -> str:
    """Words in a sentence: "a", "a and b", "a, b and c"."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def short_time(t: float, digits: int = 3) -> str:
    """A time of ``digits`` significant digits, written out and never with an SI prefix beside a unit ("61.4k s"
    reads as kiloseconds), as the Gantt chart's slider says one: "61,400", "1,230,000", "0.00241", "5.27"."""
    if abs(t) >= 10 ** (digits - 1) and math.isfinite(t):
        return f"{float(f'{t:.{digits}g}'):,.0f}"
    return f"{t:.{digits}g}"


def time_window_text(low: float, high: float, unit: str) -> str:
    """A time window with its unit, each end to three significant digits (more where three would make the two ends
    read alike): "0.00241 to 5.27 time units", "1.8 to 1,970 s", "1,234,000 to 1,235,000 s"."""
    digits = 3
    while digits < 15 and short_time(low, digits) == short_time(high, digits) and low != high:
        digits += 1
    return f"{short_time(low, digits)} to {short_time(high, digits)} {unit}"


_DOCS_PAGE = re.compile(r"docs/(models/)?([\w-]+)\.md")


def docs_in_words(text: str) -> str:
    """A docs page cited by its path, as a reader of the dashboard or the report finds it: "docs/models/etc.md" as
    "the etc model's page of the documentation", "docs/sweeps-and-statistics.md" as "the documentation's page
    'Sweeps and statistics'"; the rest of ``text`` as it is."""
    def named(m: re.Match) -> str:
        if m.group(1):
            return f"the {m.group(2)} model's page of the documentation"
        return f"the documentation's page '{m.group(2).replace('-', ' ').capitalize()}'"
    return _DOCS_PAGE.sub(named, text)


def sentence_start(text: str) -> str:
    """``text`` begun with a capital, as a sentence is, even where it opens with a heuristic's label ("sufferage (task
    that ...) has the lowest makespan" reads "Sufferage (...) has ..."); the label keeps its case elsewhere."""
    return text[:1].upper() + text[1:]

