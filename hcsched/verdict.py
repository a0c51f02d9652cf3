"""Who wins: one line per headline metric, from paired differences over common random numbers.

Every heuristic of a trial sees the same workload (Maheswaran et al., section
5.1), so two heuristics are compared trial by trial: the best heuristic by mean
against the runner-up (and the scenario's benchmark when it is neither), with
the Student-t 95% interval of the mean per-trial difference
(:func:`hcsched.stats.mean_ci`). An interval that excludes zero tells them
apart ("beats"); one that includes zero does not ("not told apart").

The difference of a trial is ``best - other``:

- in **points** for a metric already in percent (``Metric.unit == "%"``), and,
  times 100, for a fraction shown as a percent (``Metric.fmt`` ending in "%",
  e.g. a utilisation of 0.87): a relative change of a percentage misleads;
- in **percent** of the other's value otherwise: ``100 (best - other) / |other|``
  (``|other|`` keeps "below" meaning smaller when values are negative).

Trials where either value is NaN or infinite (or the other's value is zero, for
a percent) are dropped; the number of trials used is reported. Ties in the
means go to the heuristic that comes first in the results table. A percent of
non-negative values cannot fall below -100%: its interval is the bootstrap where
Student-t would (``mean_ci``'s "auto" rule). The mean of per-trial percents can
point against the means (+100% and -20%); the line then says so.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.metrics import Metric
from hcsched.registry import get_model
from hcsched.stats import mean_ci, ranked

if TYPE_CHECKING:
    from hcsched.scenario import Scenario

NEITHER = "neither is better"


@dataclass(frozen=True)
class Comparison:
    """The best heuristic against one other: the mean paired difference (best - other) and its 95% interval."""

    other: str
    role: str  # "runner-up" or "benchmark"
    difference: float  # percent or points (Verdict.kind); NaN without a common trial
    lower: float  # NaN with fewer than two common trials
    upper: float
    trials: int  # trials where both have a finite value

    @property
    def separated(self) -> bool:
        """Whether the 95% interval excludes zero."""
        return self.lower > 0 or self.upper < 0


@dataclass(frozen=True)
class Verdict:
    """One headline metric: who is best, how it compares, and the line a stakeholder reads."""

    metric: str
    title: str  # "Lowest makespan", "Highest utilisation", or the metric's title where neither is better
    better: str  # "lower", "higher" or ""
    best: str | None  # None: nothing to rank (neither is better, or no values)
    best_mean: float
    kind: str  # "percent" or "points"
    comparisons: tuple[Comparison, ...]  # the runner-up first, then the benchmark if it is neither
    note: str  # why there is no comparison ("neither is better", "no values", "the only heuristic"), else ""
    text: str

    def _first(self, field: str, empty):
        return getattr(self.comparisons[0], field) if self.comparisons else empty

    @property
    def other(self) -> str | None:
        return self._first("other", None)

    @property
    def difference(self) -> float:
        return self._first("difference", math.nan)

    @property
    def lower(self) -> float:
        return self._first("lower", math.nan)

    @property
    def upper(self) -> float:
        return self._first("upper", math.nan)

    @property
    def trials(self) -> int:
        return self._first("trials", 0)

    @property
    def separated(self) -> bool:
        """Whether the best is told apart from the runner-up."""
        return self._first("separated", False)


# --- numbers as people read them -------------------------------------------------------------------------------

_SUFFIXES = ((1e12, 1e12, "T"), (1e9, 1e9, "G"), (1e6, 1e6, "M"), (1e4, 1e3, "k"))  # (from, scale, suffix)


def readable_number(x: float, fmt: str = "") -> str:
    """A number as people read it: in ``fmt`` if given (e.g. ".1%"), else three significant digits with a suffix from
    ten thousand (1.20 M, 61.4 k), four below (9876, 12.35, 0.0123); "–" for NaN."""
    if math.isnan(x):
        return "–"
    if fmt:
        return format(x, fmt)
    if math.isinf(x) or abs(x) >= 1e15:
        return f"{x:.3g}"
    for start, scale, suffix in _SUFFIXES:
        if abs(x) >= start * 0.9995:
            return f"{x / scale:#.3g}".rstrip(".") + f" {suffix}"
    return f"{x:.4g}" if x == 0 or abs(x) >= 1e-3 else f"{x:.3g}"


def is_fraction(metric: Metric) -> bool:
    """A fraction shown as a percent (its format ends in "%", e.g. ".1%")."""
    return metric.fmt.endswith("%")


def readable(value: float, metric: Metric) -> str:
    """A metric's value as people read it, with its unit: "1.20 M s", "87.3%", "93.41%", "12 tasks"; NaN "–"."""
    number = readable_number(value, metric.fmt)
    if not math.isfinite(value) or is_fraction(metric) or not metric.unit:
        return number
    return number + "%" if metric.unit == "%" else f"{number} {metric.unit}"


def _amount(x: float) -> str:
    """A difference: one decimal below 10 ("6.1", "0.4"), none from 10 ("78"), two significant digits below 0.05."""
    if x != 0 and abs(x) < 0.05:
        return f"{x:.2g}"
    return f"{x:.1f}" if abs(x) < 10 else f"{x:.0f}"


# --- the comparison ----------------------------------------------------------------------------------------------

def difference_kind(metric: Metric) -> str:
    """"points" for a metric in percent or a fraction shown as a percent, else "percent" (see the module)."""
    return "points" if metric.unit == "%" or is_fraction(metric) else "percent"


def paired_differences(best: pd.Series, other: pd.Series, kind: str) -> np.ndarray:
    """Per trial of both (Series indexed by trial), best - other: as is for "points", else in percent of |other|;
    trials where the difference is not finite (a NaN or infinite value, a percent of zero) are dropped."""
    b, o = best.align(other, join="inner")
    b, o = b.to_numpy(float), o.to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = b - o if kind == "points" else 100.0 * (b - o) / np.abs(o)
    return d[np.isfinite(d)]


def _compare(table: pd.DataFrame, best: str, other: str, role: str, metric: Metric) -> Comparison:
    """The paired comparison; a percent of non-negative values is at least -100%, so its interval uses the
    range-respecting rule of :mod:`hcsched.stats` ("auto": the bootstrap where Student-t would go below -100%)."""
    kind = difference_kind(metric)
    scale = 100.0 if is_fraction(metric) else 1.0  # a fraction's points
    d = paired_differences(table[best] * scale, table[other] * scale, kind)
    if kind == "percent" and (table[[best, other]].fillna(0.0) >= 0).all(axis=None):
        mean, lo, hi = (x - 100.0 for x in mean_ci(d + 100.0, method="auto"))
    else:
        mean, lo, hi = mean_ci(d, method="t")
    return Comparison(other, role, mean, lo, hi, int(d.size))


def _ranking(table: pd.DataFrame, better: str) -> list[tuple[str, float]]:
    """(heuristic, mean) from best to worst (:func:`hcsched.stats.ranked`: ties keep the table's order); heuristics
    without a value left out."""
    means = pd.DataFrame({"heuristic": table.columns, "mean": [mean_ci(table[h])[0] for h in table.columns]})
    mean_of = dict(zip(means["heuristic"], means["mean"], strict=True))
    return [(h, mean_of[h]) for h in ranked(means, "mean", better) if not math.isnan(mean_of[h])]


# --- the words ---------------------------------------------------------------------------------------------------

def headline_title(metric: Metric) -> str:
    """"Lowest makespan" / "Highest utilisation" with the metric's own wording (an acronym keeps its case)."""
    t = metric.title
    if not metric.better:
        return t
    low = t if len(t) > 1 and t[:2].isupper() else t[:1].lower() + t[1:]
    return f"{'Lowest' if metric.better == 'lower' else 'Highest'} {low}"


def _span(c: Comparison, kind: str) -> tuple[str, str]:
    """("6.1% below", "[4.8%, 7.3%]"): the mean difference and its interval, both read in the direction's sense."""
    unit, words = ("%", "%") if kind == "percent" else ("", " points")
    if c.difference == 0:
        return f"0{words} apart", f"[{_amount(c.lower)}{unit}, {_amount(c.upper)}{unit}]"
    sign = -1.0 if c.difference < 0 else 1.0
    lo, hi = sorted((sign * c.lower, sign * c.upper))
    return f"{_amount(abs(c.difference))}{words} {'below' if sign < 0 else 'above'}", f"[{_amount(lo)}{unit}, {_amount(hi)}{unit}]"


def comparison_text(c: Comparison, best: str, kind: str, total: int, better: str) -> str:
    """One clause: "6.1% below min-min [4.8%, 7.3%]", "min-min and mct are not told apart (0.4% below, [-1.2%, 2.0%])"
    or "not told apart from the benchmark olb (...)"; "(k of n trials)" when trials were dropped. The mean of per-trial
    percents can point the other way than the means do (10% and -50% differences; noisy trials): the clause says so."""
    name = f"the benchmark {c.other}" if c.role == "benchmark" else c.other
    if c.trials == 0:
        return f"no trial where both {best} and {c.other} have a value"
    amount, interval = _span(c, kind)
    if (c.difference > 0) == (better == "lower") and c.difference != 0:
        amount += f" per trial on average, though {better} by mean"
    used = f"{c.trials} of {total} trials" if c.trials < total else ""
    if c.trials == 1:
        return f"{amount} {name} ({used or '1 trial'}: no interval)"
    if c.separated:
        return f"{amount} {name} {interval}" + (f" ({used})" if used else "")
    detail = "equal in every trial" if c.lower == c.upper == 0 else f"{amount}, {interval}"
    detail += f"; {used}" if used else ""
    return f"{best} and {name} are not told apart ({detail})" if c.role == "runner-up" else \
        f"not told apart from {name} ({detail})"


def _line(v: Verdict, metric: Metric, total: int) -> str:
    """The verdict's line: "<title>: <best> (<its mean>), <clauses>", or "<title>: <note>"."""
    if v.best is None:
        return f"{v.title}: {v.note}"
    best = f"{v.best} ({readable(v.best_mean, metric)})"
    if v.note:
        return f"{v.title}: {best}, {v.note}"
    clauses = [comparison_text(c, best, v.kind, total, v.better) for c in v.comparisons]
    tied = v.comparisons[0].trials > 1 and not v.comparisons[0].separated
    return f"{v.title}: " + ("" if tied else f"{best}, ") + "; ".join(clauses)


# --- the verdicts ------------------------------------------------------------------------------------------------

def _wide(results: pd.DataFrame, column: str) -> pd.DataFrame:
    """The metric's values: one column per heuristic (in the table's order), one row per trial."""
    for needed in ("trial", "heuristic"):
        if needed not in results:
            raise HcschedError(f"results: no column {needed!r}; allowed: a results table of hcsched.simulate "
                               "(columns trial, heuristic and the model's metrics)")
    if results.duplicated(["trial", "heuristic"]).any():
        raise HcschedError("results: a heuristic appears twice in one trial; allowed: one row per trial and heuristic")
    if column not in results:
        raise HcschedError(f"results: no column {column!r} for the metric {column!r}; allowed: the metrics of the "
                           f"table: {', '.join(c for c in results.columns if c not in ('trial', 'heuristic'))}")
    order = list(dict.fromkeys(results["heuristic"]))
    return results.pivot(index="trial", columns="heuristic", values=column)[order].astype(float)


def _decide(results: pd.DataFrame, metric: Metric, benchmark: str | None):
    """(best, its mean, comparisons, note) of one metric."""
    if metric.better not in ("lower", "higher"):
        return None, math.nan, (), NEITHER
    table = _wide(results, metric.name)
    ranking = _ranking(table, metric.better)
    if not ranking:
        return None, math.nan, (), "no values (every trial is NaN)"
    (best, mean), rest = ranking[0], [h for h, _ in ranking[1:]]
    if not rest:
        return best, mean, (), ("the only heuristic" if table.shape[1] == 1 else "the only heuristic with values") + \
            ", nothing to compare"
    comps = [_compare(table, best, rest[0], "runner-up", metric)]
    if benchmark in rest[1:]:
        comps.append(_compare(table, best, benchmark, "benchmark", metric))
    return best, mean, tuple(comps), ""


def verdict(results: pd.DataFrame, metric: Metric, benchmark: str | None = None) -> Verdict:
    """The verdict of one metric of a results table (one row per trial and heuristic); ``benchmark``: a heuristic
    label compared with too when it is neither the best nor the runner-up."""
    best, mean, comps, note = _decide(results, metric, benchmark)
    v = Verdict(metric.name, headline_title(metric), metric.better, best, mean, difference_kind(metric), comps, note, "")
    total = int(results["trial"].nunique()) if "trial" in results else 0
    return dataclasses.replace(v, text=_line(v, metric, total))


def headline_metrics(metrics, columns) -> list[Metric]:
    """The metrics present in ``columns``, without a normalised duplicate whose raw metric is there."""
    present = [m for m in metrics if m.name in columns]
    names = {m.name for m in present}
    return [m for m in present if not (m.name.startswith("normalized_") and m.name[len("normalized_"):] in names)]


def verdicts(results: pd.DataFrame, metrics, benchmark: str | None = None) -> list[Verdict]:
    """One verdict per headline metric of ``metrics`` (e.g. a model's ``bar_metrics()``) present in ``results``."""
    return [verdict(results, m, benchmark) for m in headline_metrics(metrics, results.columns)]


def scenario_benchmark(scenario: Scenario) -> str | None:
    """The scenario's benchmark label: as given, else the model's default if it is one of the heuristics."""
    label = scenario.benchmark_label  # falls back to the first heuristic, which is no benchmark of the scenario's
    return label if scenario.benchmark or label in get_model(scenario.model).benchmarks else None


def scenario_verdicts(scenario: Scenario, results: pd.DataFrame) -> list[Verdict]:
    """The verdicts of a scenario's results: its model's bar metrics, its benchmark."""
    return verdicts(results, get_model(scenario.model).bar_metrics(), scenario_benchmark(scenario))


def verdict_lines(verdicts_: list[Verdict]) -> list[str]:
    """The lines to show, one per metric."""
    return [v.text for v in verdicts_]
