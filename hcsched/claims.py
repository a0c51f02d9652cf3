"""The papers' published claims as data, and their verdicts computed from a run's results (issue 19).

A :class:`Claim` says where in its paper it stands, what it says in one sentence, the scenario that tests it (a
preset, with changes written as the dotted keys of :mod:`hcsched.sweep`, or a sweep over such keys), how many
trials the paper used, the paper's printed value where there is one, and a :class:`Check`. A claim may carry
:class:`Reading` variants: another reasonable reading of the text, run beside the literal one, each with its own
verdict. Each model declares its paper's claims next to its presets (``hcsched/models/NAME/claims.py``); running
them is :mod:`hcsched.reproduce`.

A check turns results (one row per trial and heuristic; with a sweep, a ``point`` column and the varied keys) into
an :class:`Outcome`: this run's number with its 95% interval, the share of trials where the claim holds, and a
verdict, never written down: ``holds``, ``holds partly`` or ``does not hold``. Comparisons between heuristics are
paired over common random numbers: per trial, the relative difference of the two (or the difference in points for a
percentage), then its mean and Student-t interval (:func:`hcsched.stats.mean_ci`).

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
from hcsched.stats import mean_ci

HOLDS, PARTLY, FAILS = "holds", "holds partly", "does not hold"
VERDICTS = (HOLDS, PARTLY, FAILS)


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
    series: tuple = ()  # what a chart of the claim shows: (label, mean, lower, upper) rows


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
    """``metric`` with one row per trial, one column per heuristic (or per value of ``by``, e.g. a swept key)."""
    if metric not in results:
        raise HcschedError(f"claim: the results have no column {metric!r}")
    return results.pivot_table(index="trial", columns=by, values=metric, aggfunc="first", sort=False, dropna=False)


def column(table: pd.DataFrame, label: Any, what: str = "heuristic") -> pd.Series:
    """The column ``label`` of a :func:`wide` table, or a message naming the ``what`` (heuristics, or a swept key's
    values) there are."""
    if label not in table:
        raise HcschedError(f"claim: no {what} {label!r} in the results; there are: {', '.join(map(str, table.columns))}")
    return table[label]


def paired_series(a: pd.Series, b: pd.Series, points: bool) -> pd.Series:
    """Per-trial difference of ``a`` against ``b``, in points (a - b) or in percent of b; NaN where either is not
    finite (or b is 0 for a percent)."""
    d = (a - b) if points else 100.0 * (a - b) / b.abs()
    return d.where(np.isfinite(d) & np.isfinite(a) & np.isfinite(b))


def paired(a: pd.Series, b: pd.Series, points: bool) -> np.ndarray:
    """The finite per-trial differences of :func:`paired_series`."""
    d = paired_series(a.astype(float), b.astype(float), points).to_numpy(float)
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
    """``a`` does better than ``b`` on ``metric`` (by at least ``by`` percent, or points when ``points``), paired.

    Holds when the paired 95% interval lies wholly beyond the margin on the better side; partly when the mean lies
    on the better side (but the interval does not clear the margin); else it does not hold."""

    a: str
    b: str
    metric: str
    by: float = 0.0
    points: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric])
        table = wide(results, self.metric)
        d = paired(column(table, self.a), column(table, self.b), self.points)
        mean, lo, hi = mean_ci(d)
        gain = sorted((sign * lo, sign * hi)) if lo == lo else [math.nan, math.nan]
        if gain[0] == gain[0] and gain[0] > self.by:
            verdict = HOLDS
        elif sign * mean > 0:
            verdict = PARTLY
        else:
            verdict = FAILS
        share = float(np.mean(sign * d > self.by)) if d.size else math.nan
        unit = "points" if self.points else "%"
        word = "higher" if mean > 0 else "lower"
        detail = f"{self.a} {abs(mean):.3g} {unit} {word} than {self.b} [{lo:.3g}, {hi:.3g}] over {d.size} trials"
        return Outcome(verdict, mean, lo, hi, unit, share, detail, _series(results, self.metric, (self.a, self.b)))

    def describe(self) -> str:
        margin = f" by more than {self.by:g}{' points' if self.points else '%'}" if self.by else ""
        return f"{self.a} better than {self.b} on {self.metric}{margin} (paired)"


@dataclass(frozen=True)
class Best(Check):
    """``heuristic`` has the best mean of ``metric`` (among ``among``, default every heuristic); with ``worst``, the
    worst. Holds when it is first by mean and its paired interval against the runner-up excludes zero; partly when
    it is first by mean only, or second with no paired difference from the first; else it does not hold."""

    heuristic: str
    metric: str
    among: tuple[str, ...] = ()
    worst: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic, *self.among)

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric]) * (-1.0 if self.worst else 1.0)
        table = wide(results, self.metric)
        labels = list(self.among) or list(table.columns)
        column(table, self.heuristic)
        means = {label: float(np.nanmean(column(table, label).to_numpy(float))) for label in labels}
        order = sorted(labels, key=lambda label: -sign * means[label])  # stable: ties keep the listed order
        first, second = order[0], order[1] if len(order) > 1 else order[0]
        other = second if first == self.heuristic else first
        d = sign * paired(column(table, self.heuristic), column(table, other), False)
        mean, lo, hi = mean_ci(d)
        if first == self.heuristic:
            verdict = HOLDS if lo == lo and lo > 0 else PARTLY
        else:
            verdict = PARTLY if second == self.heuristic and lo == lo and lo <= 0 <= hi else FAILS
        others = np.column_stack([column(table, label).to_numpy(float) for label in labels if label != self.heuristic])
        mine = column(table, self.heuristic).to_numpy(float)
        share = float(np.mean((sign * mine[:, None] >= sign * others).all(axis=1))) if others.size else math.nan
        rank = order.index(self.heuristic) + 1
        word = "worst" if self.worst else "best"
        detail = (f"{self.heuristic} is {_ordinal(rank)} {word} of {len(order)}; against {other}: {mean:+.3g}% "
                  f"[{lo:.3g}, {hi:.3g}] on the {word} side; {word} in {share:.0%} of trials")
        return Outcome(verdict, mean, lo, hi, "%", share, detail, _series(results, self.metric, order))

    def describe(self) -> str:
        among = f" among {', '.join(self.among)}" if self.among else ""
        return f"{self.heuristic} {'worst' if self.worst else 'best'} on {self.metric}{among}"


def _ordinal(n: int) -> str:
    return {1: "the", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True)
class Order(Check):
    """The heuristics' means of ``metric`` come in this order, best first. Holds when every neighbouring pair is in
    order with a paired interval that excludes zero; partly when at least half the pairs are in order by mean; else
    it does not hold. ``value`` is the share of neighbouring pairs in order."""

    ranking: tuple[str, ...]
    metric: str

    def heuristics(self) -> tuple[str, ...]:
        return self.ranking

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        sign = _sign(better[self.metric])
        table = wide(results, self.metric)
        pairs, separated = 0, 0
        for a, b in zip(self.ranking, self.ranking[1:], strict=False):
            mean, lo, hi = mean_ci(sign * paired(column(table, a), column(table, b), False))
            pairs += mean > 0
            separated += lo == lo and lo > 0
        n = len(self.ranking) - 1
        verdict = HOLDS if separated == n else PARTLY if pairs >= n / 2 else FAILS
        detail = f"{pairs} of {n} neighbouring pairs in the paper's order ({separated} with a paired interval clear of 0)"
        return Outcome(verdict, 100.0 * pairs / n, math.nan, math.nan, "% of pairs", math.nan, detail,
                       _series(results, self.metric, self.ranking))

    def describe(self) -> str:
        return f"{self.metric}: {' < '.join(self.ranking)} (best first)"


@dataclass(frozen=True)
class Value(Check):
    """The mean of ``metric`` (of ``heuristic``; of every row when None) matches the paper's printed number:
    ``paper`` within ``tolerance`` (relative; or points with ``points``) of our mean, or inside our 95% interval.
    Holds then; partly within twice the tolerance; else it does not hold. With ``at_least`` / ``at_most`` the claim is
    a bound instead (holds when our interval is wholly on its side, partly when the mean is, or is on ``partly``'s side:
    e.g. a ratio claimed at least 7 whose mean is only above 1, the direction)."""

    metric: str
    heuristic: str | None = None
    paper: float | None = None
    tolerance: float = 0.05
    points: bool = False
    at_least: float | None = None
    at_most: float | None = None
    partly: float | None = None  # with a bound: where the mean must be for "holds partly" (default the bound itself)

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic,) if self.heuristic else ()

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        if self.metric not in results:
            raise HcschedError(f"claim: the results have no column {self.metric!r}")
        rows = results if self.heuristic is None else results[results["heuristic"] == self.heuristic]
        if rows.empty:
            raise HcschedError(f"claim: no heuristic {self.heuristic!r} in the results")
        per_trial = rows.groupby("trial", sort=True)[self.metric].mean()
        mean, lo, hi = mean_ci(per_trial)
        if self.at_least is not None or self.at_most is not None:
            bound, side = (self.at_least, 1.0) if self.at_least is not None else (self.at_most, -1.0)
            edge = lo if side > 0 else hi
            weaker = bound if self.partly is None else self.partly
            verdict = HOLDS if edge == edge and side * (edge - bound) >= 0 else PARTLY if side * (mean - weaker) >= 0 else FAILS
            share = float(np.mean(side * (per_trial.to_numpy(float) - bound) >= 0))
            detail = f"{mean:.4g} [{lo:.4g}, {hi:.4g}] against {'at least' if side > 0 else 'at most'} {bound:g}"
        else:
            gap = abs(mean - self.paper) if self.points else abs(mean - self.paper) / max(abs(self.paper), 1e-300)
            inside = lo == lo and lo <= self.paper <= hi
            verdict = HOLDS if gap <= self.tolerance or inside else PARTLY if gap <= 2 * self.tolerance else FAILS
            share = math.nan
            off = f"{gap:.3g} points" if self.points else f"{100 * gap:.3g}%"
            detail = f"{mean:.4g} [{lo:.4g}, {hi:.4g}] against the paper's {self.paper:g} ({off} off)"
        label = self.heuristic or "all"
        return Outcome(verdict, mean, lo, hi, "", share, detail, ((label, mean, lo, hi),))

    def describe(self) -> str:
        who = f" of {self.heuristic}" if self.heuristic else ""
        if self.at_least is not None:
            return f"{self.metric}{who} at least {self.at_least:g}"
        if self.at_most is not None:
            return f"{self.metric}{who} at most {self.at_most:g}"
        tol = f"{self.tolerance:g} points" if self.points else f"{100 * self.tolerance:g}%"
        return f"{self.metric}{who} = {self.paper:g} (within {tol})"


@dataclass(frozen=True)
class Trend(Check):
    """Along a sweep's ``key``, the mean of ``metric`` of ``heuristic`` rises (``rising``) or falls; with ``versus``,
    the paired difference of the two (percent, or points) does. Holds when the means are monotone and the last
    point differs from the first with a paired interval clear of zero; partly when the last differs from the first
    in that direction by mean; else it does not hold. ``flat`` instead claims no change: holds when the last and first
    points are not told apart. The number is the last point's mean minus the first's: in the metric's unit, or with
    ``versus`` in percent (points with ``points``)."""

    metric: str
    heuristic: str
    key: str
    rising: bool = True
    versus: str | None = None
    points: bool = False
    flat: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.heuristic,) + ((self.versus,) if self.versus else ())

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
        steps = np.diff(means)
        if self.flat:
            verdict = HOLDS if lo == lo and lo <= 0 <= hi else PARTLY if abs(mean) <= 0.1 * abs(np.mean(means)) else FAILS
        else:
            sign = 1.0 if self.rising else -1.0
            monotone = bool(np.all(sign * steps >= 0))
            clear = lo == lo and (sign * lo > 0 if sign > 0 else sign * hi > 0)
            verdict = HOLDS if monotone and clear else PARTLY if sign * mean > 0 else FAILS
        series = tuple((f"{self.key}={value}", *mean_ci(s)) for value, s in points)
        shown = ", ".join(f"{m:.3g}" for m in means)
        detail = f"means along {self.key}: {shown}; last - first {mean:+.3g} [{lo:.3g}, {hi:.3g}]"
        unit = ("points" if self.points else "%") if self.versus else ""
        return Outcome(verdict, mean, lo, hi, unit, math.nan, detail, series)

    def describe(self) -> str:
        what = f"{self.heuristic} vs {self.versus}" if self.versus else self.heuristic
        way = "stays flat" if self.flat else "rises" if self.rising else "falls"
        return f"{self.metric} of {what} {way} along {self.key}"


@dataclass(frozen=True)
class Ratio(Check):
    """Per trial, ``a``'s ``metric`` over ``b``'s, judged as :class:`Value`: the paper's factor within ``tolerance``
    (relative), or a bound ``at_least`` / ``at_most`` (with ``partly``). ``a`` and ``b`` are two heuristics, or with
    ``by`` two values of a swept key (of ``heuristic``; of the only heuristic run when None). Trials where the ratio is
    not finite are left out; :meth:`values` gives the per-trial ratios without a judgement. For a paper's factors: "about five times", "about 50%", "ten times below"."""

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
        return f"{self.a} / {self.b}" if self.by == "heuristic" else f"{self.by}={self.a} / {self.by}={self.b}"

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
        names = [str(x) if self.by == "heuristic" else f"{self.by}={x}" for x in (self.a, self.b)]
        series = tuple((name, *mean_ci(s)) for name, s in zip(names, (num, den), strict=True))
        return replace(out, unit="x", detail=f"{self.label()}: {out.detail} over {ratio.size} trials", series=series)

    def describe(self) -> str:
        who = f" ({self.heuristic})" if self.heuristic else ""
        judged = self._value().describe()[len(f"ratio of {self.label()}"):]
        return f"{self.metric} of {self.label()}{who}, per trial,{judged}"


@dataclass(frozen=True)
class Close(Check):
    """``a`` and ``b`` are equivalent on ``metric`` ("very little" difference): their paired per-trial difference
    (percent of ``b``, or points with ``points``) lies within +-``within``. Holds when its 95% interval does; partly
    when its mean does; else it does not hold."""

    a: str
    b: str
    metric: str
    within: float
    points: bool = False

    def heuristics(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def evaluate(self, results: pd.DataFrame, better: Mapping[str, str]) -> Outcome:
        table = wide(results, self.metric)
        d = paired(column(table, self.a), column(table, self.b), self.points)
        mean, lo, hi = mean_ci(d)
        inside = lo == lo and -self.within <= lo and hi <= self.within
        verdict = HOLDS if inside else PARTLY if abs(mean) <= self.within else FAILS
        share = float(np.mean(np.abs(d) <= self.within)) if d.size else math.nan
        unit = "points" if self.points else "%"
        detail = (f"{self.a} against {self.b}: {mean:+.3g} {unit} [{lo:.3g}, {hi:.3g}] over {d.size} trials, against "
                  f"within +-{self.within:g}")
        return Outcome(verdict, mean, lo, hi, unit, share, detail, _series(results, self.metric, (self.a, self.b)))

    def describe(self) -> str:
        return f"{self.a} within +-{self.within:g}{' points' if self.points else '%'} of {self.b} on {self.metric} (paired)"


STRENGTH = {HOLDS: 0, PARTLY: 1, FAILS: 2}


def weakest(outcomes: Sequence[Outcome]) -> int:
    """The index of the weakest of ``outcomes`` (does not hold < holds partly < holds), the first among equals."""
    return max(range(len(outcomes)), key=lambda i: STRENGTH[outcomes[i].verdict])


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
        return replace(outs[weakest(outs)], detail="; ".join(details), series=tuple(series.values()))

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class Custom(Check):
    """A check of its own: ``fn(results, better) -> Outcome``, for a claim the other checks cannot say (a table of
    printed intervals, a spread between groups). ``text`` says what it checks, ``names`` the heuristics it names and
    ``reads`` the columns it reads (default its ``metric``)."""

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


def verdict_counts(verdicts: Sequence[str]) -> dict[str, int]:
    """How many claims hold, hold partly, do not hold."""
    return {v: sum(1 for x in verdicts if x == v) for v in VERDICTS}
