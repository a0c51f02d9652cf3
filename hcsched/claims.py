"""The papers' published claims as data, and their verdicts computed from a run's results.

A :class:`Claim` says where in its paper it stands, what it says in one sentence, the scenario that tests it (a
preset, with changes written as the dotted keys of :mod:`hcsched.sweep`, or a sweep over such keys), how many
trials the paper used, the paper's printed value where there is one, and a :class:`Check`. A claim may carry
:class:`Reading` variants: another reasonable reading of the text, run beside the literal one, each with its own
verdict. Each model declares its paper's claims next to its presets (``hcsched/models/NAME/claims.py``); running
them is :mod:`hcsched.reproduce`.

A check turns results (one row per trial and heuristic; with a sweep, a ``point`` column and the varied keys) into
an :class:`Outcome`: this run's number with its 95% interval, the share of trials where the claim holds, where the
claim puts the number (a :class:`Region`) and a verdict, never written down: ``holds``, ``holds partly`` or ``does not
hold``, as :data:`DEFINITION` says and :func:`judge` applies (the one rule every check of this module follows; the
Papers page, the HTML report and the docs' reproduction page quote :data:`DEFINITION`). Comparisons between
heuristics are paired over common random numbers: per trial, the relative difference of the two (or the difference
in points for a percentage), then its mean and Student-t interval (:func:`hcsched.stats.mean_ci`).

This module knows no model: the runner passes each metric's direction (``better``) in.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.setting_words import setting_of, setting_value
from hcsched.stats import mean_ci

HOLDS, PARTLY, FAILS = "holds", "holds partly", "does not hold"
VERDICTS = (HOLDS, PARTLY, FAILS)

# --- the verdicts, defined once --------------------------------------------------------------------------------
#: What each verdict means, in words, read after the verdict's name: the Papers page, the HTML report and the docs'
#: reproduction page quote these; :func:`judge` applies them.
MEANING = {
    HOLDS: "the whole interval lies where the claim puts it",
    PARTLY: "the mean lies there but the interval reaches outside, so this run does not settle it",
    FAILS: "the mean lies outside it",
}
#: Where a claim puts its number, by kind of claim; and the two rules that complete the definition.
WHERE = ('beyond the margin for "better" (zero without one), and at zero or on the worse side for "not better"; ahead '
         "of the closest rival for \"best\"; within the tolerance of the paper's number for a value or a factor (a "
         "printed interval is its own tolerance); on the bound's side for \"at least\" and \"at most\"; within the "
         'band for "equivalent"; for a trend, the last point beyond the first with every mean in between moving the '
         "same way; for a yes/no flag of each trial (a run flagged unstable), the percentage of trials flagged: at "
         "least half for a claim that it happens, at most half for a claim that it does not")
PARTS = ("A claim of several parts takes its weakest part's verdict: an order, each neighbouring pair; a claim at "
         'every point of a sweep ("for mu <= 10", "always"), each point; a peak, its height and its place; a claim '
         "about several heuristics or scenarios, each one. An interval needs two trials or more: with one trial there "
         "is none, so a claim holds partly at most.")
#: The definition's first two sentences (Markdown, bold verdicts): what a page shows first.
LEAD = ("Each claim is checked on one number (a ratio, a paired difference or a mean) and its 95% interval over the "
        f"trials. **{HOLDS}**: {MEANING[HOLDS]}; **{PARTLY}**: {MEANING[PARTLY]}; **{FAILS}**: {MEANING[FAILS]}.")
#: The rest of the definition: where each kind of claim puts its number, and claims of several parts.
DETAILS = f"Where the claim puts the number: {WHERE}. {PARTS}"
#: The definition as one paragraph of Markdown: :data:`LEAD`, then :data:`DETAILS`.
DEFINITION = f"{LEAD} {DETAILS}"


@dataclass(frozen=True)
class Region:
    """Where a claim puts its number: from ``low`` to ``high`` (an infinite end for a side), the ends themselves
    inside, or outside with ``strict`` ("better": a difference of exactly zero is not better)."""

    low: float = -math.inf
    high: float = math.inf
    strict: bool = False

    def has(self, x: float) -> bool:
        """Whether ``x`` lies in the region (a NaN, no number, never does)."""
        if x != x:
            return False
        return self.low < x < self.high if self.strict else self.low <= x <= self.high

    def ends(self) -> tuple[float, float]:
        return (float(self.low), float(self.high))


NOWHERE = (math.nan, math.nan)  # Outcome.claimed of a check whose verdict is not read from one number's region


def judge(mean: float, lower: float, upper: float, region: Region) -> str:
    """The verdict of a number whose claim puts it in ``region`` (:data:`DEFINITION`): ``holds`` when the whole 95%
    interval lies in it, ``holds partly`` when the mean does and the interval does not (or there is no interval: one
    trial), ``does not hold`` when the mean lies outside."""
    if not region.has(mean):
        return FAILS
    return HOLDS if region.has(lower) and region.has(upper) else PARTLY


def interval_text(lower: float, upper: float, digits: int = 3) -> str:
    """``[lower, upper]``, or where there is none (one trial) "(no interval)": never a "nan"."""
    if lower != lower or upper != upper:
        return "(no interval)"
    return f"[{lower:.{digits}g}, {upper:.{digits}g}]"


def _words(metric: str) -> str:
    return str(metric).replace("_", " ")


@dataclass(frozen=True)
class Outcome:
    """What a check found: this run's number (``value`` in ``unit``, with its 95% interval), the share of trials in
    which the claim holds (NaN where a claim is not about single trials), the verdict and a one-line reason."""

    verdict: str
    value: float
    lower: float
    upper: float
    unit: str  # "%", "points", "s", "" ...: how to read value
    share: float
    detail: str
    series: tuple = ()  # what the check compared, for a chart: (label, mean, lower, upper) rows
    claimed: tuple[float, float] = NOWHERE  # where the claim puts value (low, high; inf for a side), as judged
    quantity: str = ""  # what value is, in words: "makespan of kpb / sufferage, per trial"


# --- checks ----------------------------------------------------------------------------------------------
class Check:
    """How a claim is decided from results. ``better`` maps each metric to "lower", "higher" or ""."""

    metric: str

    def metrics(self) -> tuple[str, ...]:
        return (self.metric,)

    def heuristics(self) -> tuple[str, ...]:
        return ()

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        raise NotImplementedError

    def describe(self) -> str:
        """The check in words, for reports."""
        raise NotImplementedError


def wide(results: pd.DataFrame, metric: str, by: str = "heuristic") -> pd.DataFrame:
    """``metric`` as floats with one row per trial, one column per heuristic (or per value of ``by``, e.g. a swept
    key), rows and columns in the order the results first name them; a trial that names a column twice keeps its
    first row. A missing column is an error naming what a results table has."""
    for needed in ("trial", by, metric):
        if needed not in results:
            raise HcschedError(f"results: no column {needed!r}; allowed: a results table of hcsched.simulate (columns "
                               f"trial, heuristic and the model's metrics): "
                               f"{', '.join(str(c) for c in results.columns if c not in ('trial', by))}")
    table = results.pivot_table(index="trial", columns=by, values=metric, aggfunc="first", sort=False, dropna=False)
    return table.astype(float)


def column(table: pd.DataFrame, label: Any, what: str = "heuristic") -> pd.Series:
    """The column ``label`` of a :func:`wide` table, or a message naming the ``what`` (heuristics, or a swept key's
    values) there are."""
    if label not in table:
        there = ", ".join(map(str, table.columns))
        raise HcschedError(f"claim: no {what} {label!r} in the results; there are: {there}")
    return table[label]


def paired_series(a: pd.Series, b: pd.Series, points: bool) -> pd.Series:
    """Per-trial difference of ``a`` against ``b``, in points (a - b) or in percent of b; NaN where either is not
    finite (or b is 0 for a percent)."""
    d = (a - b) if points else 100.0 * (a - b) / b.abs()
    return d.where(np.isfinite(d) & np.isfinite(a) & np.isfinite(b))


def paired(a: pd.Series, b: pd.Series, points: bool) -> np.ndarray:
    """The finite per-trial differences of :func:`paired_series`, for Series indexed by trial (a trial of one of them
    only is dropped), in ``a``'s order: how every comparison of two heuristics over common random numbers is made."""
    a, b = a.astype(float).align(b.astype(float), join="inner")
    d = paired_series(a, b, points).to_numpy(float)
    return d[np.isfinite(d)]


def _sign(better: str) -> float:
    """+1 where higher is better, -1 where lower is, so that sign * difference > 0 means "better"."""
    if better not in ("lower", "higher"):
        raise HcschedError(f"claim: a comparison needs a metric where lower or higher is better, not {better!r}")
    return 1.0 if better == "higher" else -1.0


def _series(results: pd.DataFrame, metric: str, labels: Sequence[str]) -> tuple:
    table = wide(results, metric)
    return tuple((label, *mean_ci(table[label])) for label in labels if label in table)


@dataclass(frozen=True)
class Better(Check):
    """``a`` does better than ``b`` on ``metric`` (by more than ``by`` percent, or points when ``points``), paired.

    The number is the paired difference a - b (percent of b, or points); the claim puts it beyond the margin on the
    better side (below -``by`` where lower is better), and :func:`judge` decides."""

    a: str
    b: str
    metric: str
    by: float = 0.0
    points: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def region(self, better: Mapping[str, str]) -> Region:
        sign = _sign(better[self.metric])
        return Region(self.by, math.inf, strict=True) if sign > 0 else Region(-math.inf, 0.0 - self.by, strict=True)

    def quantity(self) -> str:
        return (f"{_words(self.metric)} of {self.a} against {self.b}, paired "
                f"({'points' if self.points else f'% of {self.b}'})")

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric])
        table = wide(results, self.metric)
        d = paired(column(table, self.a), column(table, self.b), self.points)
        mean, lo, hi = mean_ci(d)
        region = self.region(better)
        share = float(np.mean(sign * d > self.by)) if d.size else math.nan
        unit = "points" if self.points else "%"
        word = "higher" if mean > 0 else "lower"
        detail = f"{self.a} {abs(mean):.3g} {unit} {word} than {self.b} {interval_text(lo, hi)} over {d.size} trials"
        return Outcome(judge(mean, lo, hi, region), mean, lo, hi, unit, share, detail,
                       _series(results, self.metric, (self.a, self.b)), region.ends(), self.quantity())

    def describe(self) -> str:
        margin = f" by more than {self.by:g}{' points' if self.points else '%'}" if self.by else ""
        return f"{self.a} better than {self.b} on {self.metric}{margin} (paired)"


@dataclass(frozen=True)
class Best(Check):
    """``heuristic`` has the best mean of ``metric`` (among ``among``, default every heuristic); with ``worst``, the
    worst. The number is its paired lead over its closest rival (the runner-up where it is first by mean, else the
    first), in percent of the rival and positive on the claimed side; the claim puts it above zero."""

    heuristic: str
    metric: str
    among: tuple[str, ...] = ()
    worst: bool = False

    REGION = Region(0.0, math.inf, strict=True)

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic, *self.among)

    def region(self, better: Mapping[str, str] | None = None) -> Region:
        return self.REGION

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric]) * (-1.0 if self.worst else 1.0)
        table = wide(results, self.metric)
        labels = list(self.among) or list(table.columns)
        column(table, self.heuristic)
        means = {label: float(np.nanmean(column(table, label).to_numpy(float))) for label in labels}
        order, other = rival(means, self.heuristic, sign)
        d = sign * paired(column(table, self.heuristic), column(table, other), False)
        mean, lo, hi = mean_ci(d)
        others = np.column_stack([column(table, label).to_numpy(float) for label in labels if label != self.heuristic])
        mine = column(table, self.heuristic).to_numpy(float)
        share = float(np.mean((sign * mine[:, None] >= sign * others).all(axis=1))) if others.size else math.nan
        rank = order.index(self.heuristic) + 1
        word = "worst" if self.worst else "best"
        detail = (f"{self.heuristic} is {_ordinal(rank)} {word} of {len(order)}; against {other}: {mean:+.3g}% "
                  f"{interval_text(lo, hi)} on the {word} side; {word} in {share:.0%} of trials")
        return Outcome(judge(mean, lo, hi, self.REGION), mean, lo, hi, "%", share, detail,
                       _series(results, self.metric, order), self.REGION.ends(), self.quantity(other))

    def quantity(self, rival: str) -> str:
        ahead = "behind" if self.worst else "ahead of"
        return f"{_words(self.metric)}: {self.heuristic} {ahead} {rival}, paired (% of {rival})"

    def describe(self) -> str:
        among = f" among {', '.join(self.among)}" if self.among else ""
        return f"{self.heuristic} {'worst' if self.worst else 'best'} on {self.metric}{among}"


def rival(means: Mapping[Any, float], label: Any, sign: float = 1.0) -> tuple[list, Any]:
    """The order of ``means`` (best first: highest with ``sign`` +1, lowest with -1; ties keep the given order) and
    ``label``'s closest rival in it, as :class:`Best` reads "best": the runner-up where ``label`` is first by mean,
    else the first."""
    order = sorted(means, key=lambda k: -sign * means[k])
    first, second = order[0], order[1] if len(order) > 1 else order[0]
    return order, second if first == label else first


def _ordinal(n: int) -> str:
    return {1: "the", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True)
class Order(Check):
    """The heuristics' means of ``metric`` come in this order, best first: a claim of several parts, each neighbouring
    pair's paired difference (percent, positive when in the paper's order) put above zero, the weakest pair deciding
    (:func:`judge`: holds when every pair's interval clears zero, partly when every pair is in order by mean).
    ``value`` is the share of neighbouring pairs in order by mean."""

    ranking: tuple[str, ...]
    metric: str

    def heuristics(self) -> tuple[str, ...]:
        return self.ranking

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric])
        table = wide(results, self.metric)
        verdicts, pairs, separated = [], 0, 0
        for a, b in zip(self.ranking, self.ranking[1:], strict=False):
            mean, lo, hi = mean_ci(sign * paired(column(table, a), column(table, b), False))
            verdicts.append(judge(mean, lo, hi, Best.REGION))
            pairs += Best.REGION.has(mean)
            separated += verdicts[-1] == HOLDS
        n = len(self.ranking) - 1
        verdict = max(verdicts, key=STRENGTH.__getitem__)
        detail = (f"{pairs} of {n} neighbouring pairs in the paper's order ({separated} "
                  "with a paired interval clear of 0)")
        return Outcome(verdict, 100.0 * pairs / n, math.nan, math.nan, "% of pairs", math.nan, detail,
                       _series(results, self.metric, self.ranking))

    def describe(self) -> str:
        return f"{self.metric}: {' < '.join(self.ranking)} (best first)"


@dataclass(frozen=True)
class Value(Check):
    """The mean of ``metric`` (of ``heuristic``; of every row when None) matches the paper's printed number: the claim
    puts it within ``tolerance`` of ``paper`` (relative; points with ``points``). With ``at_least`` / ``at_most`` the
    claim is a bound instead, and puts the mean on its side. :func:`judge` decides. ``partly`` (a weaker bound, e.g.
    the direction) decides nothing: the detail says whether the mean reaches it."""

    metric: str
    heuristic: str | None = None
    paper: float | None = None
    tolerance: float = 0.05
    points: bool = False
    at_least: float | None = None
    at_most: float | None = None
    partly: float | None = None  # with a bound: a weaker bound the detail reports on (no verdict of its own)

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic,) if self.heuristic else ()

    def region(self, better: Mapping[str, str] | None = None) -> Region:
        if self.at_least is not None:
            return Region(self.at_least, math.inf)
        if self.at_most is not None:
            return Region(-math.inf, self.at_most)
        if self.paper is None:
            raise HcschedError(f"Value {self.metric}: give paper, at_least or at_most")
        half = self.tolerance if self.points else self.tolerance * abs(self.paper)
        return Region(self.paper - half, self.paper + half)

    def quantity(self) -> str:
        return f"{_words(self.metric)} of {self.heuristic}" if self.heuristic else f"{_words(self.metric)}, mean"

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        if self.metric not in results:
            raise HcschedError(f"claim: the results have no column {self.metric!r}")
        rows = results if self.heuristic is None else results[results["heuristic"] == self.heuristic]
        if rows.empty:
            raise HcschedError(f"claim: no heuristic {self.heuristic!r} in the results")
        per_trial = rows.groupby("trial", sort=True)[self.metric].mean()
        mean, lo, hi = mean_ci(per_trial)
        region = self.region()
        shown = f"{mean:.4g} {interval_text(lo, hi, 4)}"
        if self.at_least is not None or self.at_most is not None:
            bound, side = (self.at_least, 1.0) if self.at_least is not None else (self.at_most, -1.0)
            share = float(np.mean(side * (per_trial.to_numpy(float) - bound) >= 0))
            detail = f"{shown} against {'at least' if side > 0 else 'at most'} {bound:g}"
            if self.partly is not None:
                reached = side * (mean - self.partly) >= 0
                detail += f" ({'beyond' if reached else 'short of'} {self.partly:g}, the weaker reading)"
        else:
            gap = abs(mean - self.paper) if self.points else abs(mean - self.paper) / max(abs(self.paper), 1e-300)
            share = math.nan
            off = f"{gap:.3g} points" if self.points else f"{100 * gap:.3g}%"
            detail = f"{shown} against the paper's {self.paper:g} ({off} off)"
        label = self.heuristic or "all"
        return Outcome(judge(mean, lo, hi, region), mean, lo, hi, "", share, detail, ((label, mean, lo, hi),),
                       region.ends(), self.quantity())

    def describe(self) -> str:
        who = f" of {self.heuristic}" if self.heuristic else ""
        if self.at_least is not None:
            return f"{self.metric}{who} at least {self.at_least:g}"
        if self.at_most is not None:
            return f"{self.metric}{who} at most {self.at_most:g}"
        tol = f"{self.tolerance:g} points" if self.points else f"{100 * self.tolerance:g}%"
        return f"{self.metric}{who} = {self.paper:g} (within {tol})"


FLAT = 0.10  # "stays flat": the last point within 10% of the curve's mean level of the first


@dataclass(frozen=True)
class Trend(Check):
    """Along a sweep's ``key``, the mean of ``metric`` of ``heuristic`` rises (``rising``) or falls; with ``versus``,
    the paired difference of the two (percent, or points) does. The number is the last point's mean minus the first's
    (paired over the trials): in the metric's unit, or with ``versus`` in percent (points with ``points``). The claim
    puts it above zero (below, falling) with every mean in between moving the same way: means that do not move that way
    at every step do not hold. ``flat`` instead claims no change: within 10% of the curve's mean level either way.
    :func:`judge` decides."""

    metric: str
    heuristic: str
    key: str
    rising: bool = True
    versus: str | None = None
    points: bool = False
    flat: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic,) + ((self.versus,) if self.versus else ())

    def region(self, means: Sequence[float]) -> Region:
        """Where the claim puts last - first, given the means along the sweep (a flat claim's band is relative to
        their level)."""
        if self.flat:
            band = FLAT * abs(float(np.mean(means)))
            return Region(-band, band)
        return Region(0.0, math.inf, strict=True) if self.rising else Region(-math.inf, 0.0, strict=True)

    def monotone(self, means: Sequence[float]) -> bool:
        """Whether the means move the claimed way at every step (always, for a flat claim)."""
        sign = 1.0 if self.rising else -1.0
        return self.flat or bool(np.all(sign * np.diff(np.asarray(means, float)) >= 0))

    def decide(self, mean: float, lo: float, hi: float, means: Sequence[float]) -> str:
        return judge(mean, lo, hi, self.region(means)) if self.monotone(means) else FAILS

    def _per_point(self, results: pd.DataFrame) -> list[tuple[Any, pd.Series]]:
        if self.key not in results:
            raise HcschedError(f"claim: the results have no swept column {self.key!r}")
        out = []
        for value, rows in results.groupby(self.key, sort=False):
            table = wide(rows, self.metric)
            mine = column(table, self.heuristic)
            if self.versus:
                mine = paired_series(mine.astype(float), column(table, self.versus).astype(float), self.points)
            out.append((value, mine.astype(float)))
        return out

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        points = self._per_point(results)
        means = [float(np.nanmean(s)) for _, s in points]
        first, last = points[0][1], points[-1][1]
        common = first.index.intersection(last.index)
        mean, lo, hi = mean_ci((last[common] - first[common]).dropna().to_numpy(float))
        series = tuple((setting_value(self.key, value), *mean_ci(s)) for value, s in points)
        shown = ", ".join(f"{m:.3g}" for m in means)
        turns = "" if self.monotone(means) else f" (not {'rising' if self.rising else 'falling'} at every step)"
        detail = f"means along {self.key}: {shown}{turns}; last - first {mean:+.3g} {interval_text(lo, hi)}"
        unit = ("points" if self.points else "%") if self.versus else ""
        return Outcome(self.decide(mean, lo, hi, means), mean, lo, hi, unit, math.nan, detail, series,
                       self.region(means).ends(), self.quantity())

    def quantity(self) -> str:
        what = f"{self.heuristic} against {self.versus}" if self.versus else self.heuristic
        return f"{_words(self.metric)} of {what}: at the last {setting_of(self.key).words} minus the first"

    def describe(self) -> str:
        what = f"{self.heuristic} vs {self.versus}" if self.versus else self.heuristic
        way = "stays flat" if self.flat else "rises" if self.rising else "falls"
        return f"{self.metric} of {what} {way} along the {setting_of(self.key).words}"


@dataclass(frozen=True)
class Ratio(Check):
    """Per trial, ``a``'s ``metric`` over ``b``'s, judged as :class:`Value`: the paper's factor within ``tolerance``
    (relative), or a bound ``at_least`` / ``at_most`` (``partly``: a weaker bound the detail reports on). ``a`` and
    ``b`` are two heuristics, or with ``by`` two values of a swept key (of ``heuristic``; of the only heuristic run when
    None). Trials where the ratio is not finite are left out; :meth:`values` gives the per-trial ratios without a
    judgement. For a paper's factors: "about five times", "about 50%", "ten times below"."""

    a: Any
    b: Any
    metric: str
    by: str = "heuristic"
    heuristic: str | None = None
    paper: float | None = None
    tolerance: float = 0.05
    at_least: float | None = None
    at_most: float | None = None
    partly: float | None = None

    def label(self) -> str:
        """The two sides: "kpb / sufferage", or two values of a swept setting in words ("estimator smoothed /
        estimator knn")."""
        return " / ".join(self._names())

    def _names(self) -> list[str]:
        return [str(x) if self.by == "heuristic" else setting_value(self.by, x) for x in (self.a, self.b)]

    def heuristics(self) -> tuple[str, ...]:
        if self.by == "heuristic":
            return (self.a, self.b)
        return (self.heuristic,) if self.heuristic else ()

    def _value(self) -> Value:
        given = [name for name in ("paper", "at_least", "at_most") if getattr(self, name) is not None]
        if len(given) != 1:
            raise HcschedError(f"Ratio {self.label()}: give one of paper, at_least or at_most, not {given or 'none'}")
        return Value("ratio", self.label(), paper=self.paper, tolerance=self.tolerance, at_least=self.at_least,
                     at_most=self.at_most, partly=self.partly)

    def region(self, better: Mapping[str, str] | None = None) -> Region:
        return self._value().region()

    def quantity(self) -> str:
        """What the per-trial value is, in words: "makespan of kpb / sufferage, per trial"; a setting said as people
        say it ("estimator smoothed / estimator knn", not its key)."""
        who = f" ({self.heuristic})" if self.heuristic else ""
        of = " of" if self.by == "heuristic" else ","
        return f"{_words(self.metric)}{of} {self.label()}{who}, per trial"

    def _groups(self, results: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
        rows = results
        if self.heuristic is not None:
            rows = results[results["heuristic"] == self.heuristic]
            if rows.empty:
                raise HcschedError(f"claim: no heuristic {self.heuristic!r} in the results")
        if self.by not in rows:
            raise HcschedError(f"claim: the results have no swept column {self.by!r}")
        table = wide(rows, self.metric, self.by)
        what = "heuristic" if self.by == "heuristic" else f"{self.by} ="
        return column(table, self.a, what).astype(float), column(table, self.b, what).astype(float)

    def values(self, results: pd.DataFrame) -> pd.Series:
        """The finite per-trial ratios, indexed by trial."""
        num, den = self._groups(results)
        ratio = num / den
        return ratio[np.isfinite(ratio)]

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        ratio = self.values(results)
        if ratio.empty:
            raise HcschedError(f"claim: no trial with a finite ratio {self.label()} of {self.metric}")
        rows = pd.DataFrame({"trial": ratio.index, "heuristic": self.label(), "ratio": ratio.to_numpy(float)})
        out = self._value().evaluate(rows, {})
        num, den = self._groups(results)
        series = tuple((name, *mean_ci(s)) for name, s in zip(self._names(), (num, den), strict=True))
        return replace(out, unit="x", detail=f"{self.label()}: {out.detail} over {ratio.size} trials", series=series,
                       quantity=self.quantity())

    def describe(self) -> str:
        who = f" ({self.heuristic})" if self.heuristic else ""
        judged = self._value().describe()[len(f"ratio of {self.label()}"):]
        return f"{self.metric} of {self.label()}{who}, per trial,{judged}"


@dataclass(frozen=True)
class Close(Check):
    """``a`` and ``b`` are equivalent on ``metric`` ("very little" difference): the claim puts their paired per-trial
    difference (percent of ``b``, or points with ``points``) within +-``within``; :func:`judge` decides."""

    a: str
    b: str
    metric: str
    within: float
    points: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def region(self, better: Mapping[str, str] | None = None) -> Region:
        return Region(-self.within, self.within)

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        table = wide(results, self.metric)
        d = paired(column(table, self.a), column(table, self.b), self.points)
        mean, lo, hi = mean_ci(d)
        share = float(np.mean(np.abs(d) <= self.within)) if d.size else math.nan
        unit = "points" if self.points else "%"
        detail = (f"{self.a} against {self.b}: {mean:+.3g} {unit} {interval_text(lo, hi)} "
                  f"over {d.size} trials, against "
                  f"within +-{self.within:g}")
        region = self.region()
        return Outcome(judge(mean, lo, hi, region), mean, lo, hi, unit, share, detail,
                       _series(results, self.metric, (self.a, self.b)), region.ends(), self.quantity())

    def quantity(self) -> str:
        return (f"{_words(self.metric)} of {self.a} against {self.b}, paired "
                f"({'points' if self.points else f'% of {self.b}'})")

    def describe(self) -> str:
        return (f"{self.a} within +-{self.within:g}{' points' if self.points else '%'} of "
                f"{self.b} on {self.metric} (paired)")


STRENGTH = {HOLDS: 0, PARTLY: 1, FAILS: 2}


def weakest(outcomes: Sequence[Outcome]) -> int:
    """The index of the weakest of ``outcomes`` (does not hold < holds partly < holds), the first among equals."""
    return max(range(len(outcomes)), key=lambda i: STRENGTH[outcomes[i].verdict])


def weakest_of(outcomes: Sequence[Outcome], **changes: Any) -> Outcome:
    """One outcome for a claim of several parts (:data:`PARTS`): the weakest part's (:func:`weakest`), with its
    verdict, number, interval, unit, claimed region and quantity, and ``changes`` (the whole claim's detail, series,
    share) in place of that part's."""
    if not outcomes:
        raise HcschedError("claim: a claim of several parts needs at least one part")
    return replace(outcomes[weakest(outcomes)], **changes)


@dataclass(frozen=True, init=False)
class AllOf(Check):
    """Every one of ``checks`` (one claim with several parts): the weakest part decides, with its number; every part's
    detail is kept (named by its heuristics where it does not name them), and the parts' series are concatenated (a
    row two parts share shown once). ``text`` says the claim in words."""

    checks: tuple[Check, ...]
    text: str

    def __init__(self, *checks: Check, text: str = "") -> None:
        if not checks:
            raise HcschedError("AllOf: give at least one check")
        object.__setattr__(self, "checks", tuple(checks))
        object.__setattr__(self, "text", text or " and ".join(c.describe() for c in checks))

    @property
    def metric(self) -> str:  # type: ignore[override]
        return self.checks[0].metrics()[0]

    def metrics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(m for c in self.checks for m in c.metrics()))

    def heuristics(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(h for c in self.checks for h in c.heuristics()))

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        outs = [c.evaluate(results, better) for c in self.checks]
        details, series = [], {}
        for c, o in zip(self.checks, outs, strict=True):
            names = [str(h) for h in c.heuristics()]
            part = " vs ".join(names)
            details.append(f"{part}: {o.detail}" if names and names[0] not in o.detail else o.detail)
            for row in o.series:
                label = f"{part}: {row[0]}" if names and not any(n in str(row[0]) for n in names) else row[0]
                series[label] = (label, *row[1:])
        return weakest_of(outs, detail="; ".join(details), series=tuple(series.values()))

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class Custom(Check):
    """A check of its own: ``fn(results, better) -> Outcome``, for a claim the other checks cannot say (a table of
    printed intervals, a spread between groups). ``text`` says what it checks, ``names`` the heuristics it names and
    ``reads`` the columns it reads (default its ``metric``). Its verdict keeps :data:`DEFINITION`: where one number
    decides, ``fn`` says where the claim puts it (a :class:`Region`) and lets :func:`judge` decide."""

    metric: str
    fn: Callable[[pd.DataFrame, Mapping[str, str]], Outcome] = field(compare=False)
    text: str = ""
    names: tuple[str, ...] = ()
    reads: tuple[str, ...] = ()

    def metrics(self) -> tuple[str, ...]:
        return self.reads or (self.metric,)

    def heuristics(self) -> tuple[str, ...]:
        return self.names

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        return self.fn(results, better)

    def describe(self) -> str:
        return self.text


# --- claims ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    """Another reasonable reading of the paper's text, run beside the literal scenario: its changes to the claim's
    scenario (dotted keys, as a sweep's), why it is reasonable, and its own check where the reading is of what is
    measured rather than of the system (e.g. "sooner or at the same time" for "sooner")."""

    name: str
    changes: Mapping[str, Any]
    note: str = ""
    check: Check | None = None  # where the reading is of what the claim measures (another metric), its own check
    words: str = ""  # the reading in a few plain words, as the Papers page names it ("ties broken at random")


@dataclass(frozen=True)
class Claim:
    """One published claim of a paper, the scenario that tests it and its check.

    ``scenario``: a preset name; ``changes``: dotted keys of the scenario's JSON form set on it (as ``hcsched sweep``
    writes them, e.g. ``{"arrivals.rate": 0.004}``); ``vary``: a sweep over such keys, for a trend; ``trials``: the
    paper's number of trials (default the preset's); ``paper``: the paper's printed value or direction, in words;
    ``source``: where that number is printed; ``note``: why it does not hold where it does not (from the docs)."""

    id: str
    model: str
    where: str
    text: str
    scenario: str
    check: Check
    changes: Mapping[str, Any] = field(default_factory=dict)
    vary: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    trials: int | None = None
    paper: str = ""
    source: str = ""
    note: str = ""
    readings: tuple[Reading, ...] = ()
    tiny: Mapping[str, Any] = field(default_factory=dict)  # changes that make a quick version (tests): fewer tasks, ...

    def __post_init__(self) -> None:
        if not self.id or self.id != self.id.strip().lower() or " " in self.id:
            raise HcschedError(f"claim id {self.id!r}: use lower-case words joined by '-'")
        names = [r.name for r in self.readings]
        if "literal" in names or len(set(names)) != len(names):
            raise HcschedError(f"claim {self.id}: reading names must be distinct and not 'literal'")

    def variants(self) -> tuple[tuple[str, Mapping[str, Any], Check], ...]:
        """("literal", the claim's own changes, its check), and each reading's name with its changes on top of the
        claim's and its check (the claim's unless the reading has its own)."""
        return (("literal", dict(self.changes), self.check),) + tuple(
            (r.name, {**self.changes, **r.changes}, r.check or self.check) for r in self.readings)

    def reading_words(self, reading: str) -> str:
        """``reading`` in plain words, as the Papers page names it: "" for "literal" (the claim as written), a
        reading's words, else its name."""
        if reading == "literal":
            return ""
        return next((r.words or r.name for r in self.readings if r.name == reading), reading)

    def note_of(self, reading: str) -> str:
        """The note of ``reading``: the claim's own for "literal", else that reading's ("" for a name it lacks)."""
        if reading == "literal":
            return self.note
        return next((r.note for r in self.readings if r.name == reading), "")


def verdict_counts(verdicts: Sequence[str]) -> dict[str, int]:
    """How many claims hold, hold partly, do not hold."""
    return {v: sum(1 for x in verdicts if x == v) for v in VERDICTS}
