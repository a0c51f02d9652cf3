"""Who wins: one sentence per headline metric, from paired differences over common random numbers.

Every heuristic of a trial sees the same workload (Maheswaran et al., section
5.1), so two heuristics are compared trial by trial: the best heuristic by mean
against the runner-up (and the scenario's benchmark when it is neither), with
the Student-t 95% interval of the mean per-trial difference
(:func:`hcsched.stats.mean_ci`). An interval that excludes zero, on the side the
means point to, tells them apart ("a real difference"); one that includes zero
does not ("not told apart"), and neither does one on the other side (the means
and the trials disagree: +100% and -20% per trial, say).

Only heuristics that can run online are ranked. A registry entry that cannot
(:func:`reference_of`: a full-knowledge static benchmark such as Kim et al.'s
GA and TPSA, section 5, computed after the fact; an upper bound) is a
reference: it is compared with the best heuristic that can run online on a line
of its own, never crowned.

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
Student-t would (``mean_ci``'s "auto" rule).

A scenario's results lead with its model's headline metric (:func:`headline_metric`, first in
:func:`scenario_verdicts`); the other metrics' sentences are for a second look.

**Words.** A lead sentence is at most :data:`LEAD_WORDS` words (where the names allow): what does not fit (an interval,
the benchmark, a group's averages) is said below it (:attr:`Verdict.detail`; :func:`headline` gives the lead and what
folds below it). Each heuristic is named in words where first mentioned (:func:`named_once`, :func:`heuristic_words`),
never two brackets in a row. A close race whose every member beats the benchmark for real says so first. A run in
progress says how far it is and whether its answer is settled (:func:`progress_lead`).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.claims import paired, wide
from hcsched.errors import HcschedError
from hcsched.formatting import (
    ALL_WITHIN,
    amount_text,
    ends_text,
    is_fraction,
    listed,
    pair_number,
    readable,
    said_in_times,
    said_value,
    sentence_start,
    share_words,
    span_unit,
    time_span,
)
from hcsched.heuristics import get_heuristic, heuristic_title, label_parts, told_apart
from hcsched.metrics import Metric
from hcsched.registry import get_model
from hcsched.stats import mean_ci, ranked

if TYPE_CHECKING:
    from hcsched.scenario import Scenario

NEITHER = "neither is better"
GROUP_SHOWN = 4  # from this many heuristics not told apart, a "no clear winner" sentence counts them


@dataclass(frozen=True)
class Comparison:
    """One heuristic (the best, or a reference) against another: the mean paired difference (first - other), its 95%
    interval, and both means."""

    other: str
    role: str  # "runner-up", "benchmark", or "best online" (a reference against the best heuristic that can run online)
    difference: float  # percent or points (Verdict.kind); NaN without a common trial
    lower: float  # NaN with fewer than two common trials
    upper: float
    trials: int  # trials where both have a finite value
    means: tuple[float, float] = (math.nan, math.nan)  # (the first's mean, the other's mean) over all their trials
    scale: float = 1.0  # a mean times this is in the difference's unit (100 for a fraction's points)

    @property
    def separated(self) -> bool:
        """Whether the 95% interval excludes zero."""
        return self.lower > 0 or self.upper < 0

    @property
    def disagrees(self) -> bool:
        """Whether the mean per-trial difference points the other way than the means do (10% and -50% per trial)."""
        gap = self.means[0] - self.means[1]
        return self.difference != 0 and gap != 0 and (self.difference > 0) != (gap > 0)

    @property
    def told_apart(self) -> bool:
        """Whether the two are told apart: the interval excludes zero, on the side the means point to."""
        return self.separated and not self.disagrees


@dataclass(frozen=True)
class Reference:
    """A heuristic that cannot run online (:func:`reference_of`), shown beside the verdict, never crowned: its mean and
    how it compares with the best heuristic that can run online (``versus.difference`` is reference - best)."""

    label: str
    what: str  # "an offline search that knows every task in advance, as no live scheduler can"
    mean: float
    versus: Comparison | None  # None when no heuristic that can run online has a value
    carried_in: str = ""  # the part of the metric its lead over the best is all in (:func:`_references_carried`)


@dataclass(frozen=True)
class Verdict:
    """One headline metric: who is best, how it compares, and the sentence a stakeholder reads.

    Attributes
    ----------
    metric : str
        The metric's column.
    title : str
        "Lowest makespan", "Highest utilisation", or the metric's title where neither way is better.
    better : str
        "lower", "higher" or "".
    best : str or None
        The best heuristic that can run online, by mean; None when there is nothing to rank.
    best_mean : float
        Its mean.
    kind : str
        "percent" (of the other's value) or "points" (a metric in percent, or a fraction shown as one).
    comparisons : tuple of Comparison
        The best against the runner-up, then against the benchmark if it is neither: the mean paired difference and
        its 95% interval.
    note : str
        Why there is no comparison ("neither is better", "no values", "the only heuristic"), else "".
    text : str
        The lead sentence, at most :data:`LEAD_WORDS` words where the names allow: who wins, by how much, and whether
        the difference is real.
    detail : str
        What does not fit in the lead (its interval, the benchmark, the group's averages), as sentences; "" when
        none.
    references : tuple of Reference
        The heuristics that cannot run online (static benchmarks, bounds), never crowned, best first.
    reference_text : str
        Their sentence, "" without any.
    tied : tuple of Comparison
        The best against every heuristic it is not told apart from, best first.
    benchmark : str or None
        The heuristic the others are normalised to, if any.
    behind : tuple of str
        The heuristics told apart from the best (clearly worse), in rank order.
    bound_text : str
        How far the best is from a bound on the best possible (:func:`bound_sentence`), or "".
    unranked : tuple of str
        Heuristics left out of the ranking because their mean is infinite (an overflow).
    group_benchmark : tuple of (str, Comparison)
        Each heuristic not told apart from the best (the best first) against the benchmark, when the benchmark is not
        one of them.
    what : str
        The metric in a sentence (:func:`metric_words`).
    best_text : str
        The best's mean as a sentence says it ("6.2 days (535,000 s)"), "" without a best.
    names : tuple of (str, str)
        Each label with its plain words (:func:`named_once`).
    gloss : str
        The metric's plain words, said beside its name where a lead first says it (:attr:`Metric.gloss`), or "".
    connector : str
        What comes before the best's value in "has the lowest makespan at 535,000 s": " at", or ", with" where the
        value says what it is of (", with 2.1% lower total flow time than the benchmark").
    best_interval : tuple of float
        The 95% interval of the best's mean (a "no clear winner" lead says it beside the best average).
    shorts : tuple of (str, str)
        Each label written with its parameters and its short form, said where it is mentioned again after its words
        (:func:`short_words`: "fz (error weighted a tenth)", never the raw "fz (beta=0.1)").
    gloss_text : str
        The gloss as a sentence of its own ("Makespan: when the last task ends."), where the lead had no room for it;
        a page shows it beside the lead, never folded; "" when the lead glosses the metric itself.
    gain_of : str
        For a gain against the benchmark (Caniou and Jeannot section 6.1), the metric it is on in words ("total flow
        time", :func:`gain_of`): its gloss is said beside those words; "" for any other metric.
    bare : tuple of str
        The labels the lead names without their words, for room (the clearly worse of a group); their words are
        said below it, and the trade-off line names them in words.
    versus_benchmark : tuple of (str, Comparison)
        For a gain against the benchmark, each heuristic that can run online against it (the benchmark left out), so
        that a line can say what the lead's winners cost on it; () for any other metric.
    next_benchmark : tuple of (str, Comparison)
        Where a group ties and the benchmark is not in it: the best heuristic after the group against the
        benchmark, then the best against it (its comparison with the best), else ().
    next_text : str
        Its sentence where the whole group beats the benchmark for real and so does it, though clearly behind
        (:func:`_next_sentence`: a bar as long as the winners' is named, never left unexplained); else "".
    next_folds : bool
        Whether :attr:`next_text` may fold below a line that sums up the answer: the next after a tie (a manager read
        five heuristics in the three sentences in view), or a rest the lead already says; never the worst's line.
    """

    @property
    def glossed(self) -> str:
        """The words the gloss is said beside: the metric a gain is on, else the metric in a sentence."""
        return self.gain_of or self.what

    metric: str
    title: str  # "Lowest makespan", "Highest utilisation", or the metric's title where neither is better
    better: str  # "lower", "higher" or ""
    best: str | None  # None: nothing to rank (neither is better, no values, nothing that can run online)
    best_mean: float
    kind: str  # "percent" or "points"
    comparisons: tuple[Comparison, ...]  # the runner-up first, then the benchmark if it is neither
    note: str  # why there is no comparison ("neither is better", "no values", "the only heuristic"), else ""
    text: str  # the lead sentence: who wins, by how much, and whether it is real
    references: tuple[Reference, ...] = ()  # best first
    reference_text: str = ""  # the references' sentence, "" without any
    tied: tuple[Comparison, ...] = ()  # the best against every other heuristic it is not told apart from, best first
    benchmark: str | None = None  # the heuristic the others are normalised to, if any
    behind: tuple[str, ...] = ()  # the heuristics told apart from the best (clearly worse), in rank order
    bound_text: str = ""  # how far the best is from a bound on the best possible (:func:`bound_sentence`), or ""
    unranked: tuple[str, ...] = ()  # heuristics left out of the ranking: their mean is infinite (an overflow)
    detail: str = ""  # what does not fit in the lead, as sentences
    group_benchmark: tuple[tuple[str, Comparison], ...] = ()  # the group not told apart from the best vs the benchmark
    what: str = ""  # the metric in a sentence
    best_text: str = ""  # the best's mean as a sentence says it
    names: tuple[tuple[str, str], ...] = ()  # label, plain words
    gloss: str = ""  # the metric's plain words beside its name where first said
    connector: str = " at"  # " at", or ", with" before a value that says what it is of
    best_interval: tuple[float, float] = (math.nan, math.nan)  # the 95% interval of the best's mean
    shorts: tuple[tuple[str, str], ...] = ()  # label, its short form once named (:func:`short_words`)
    gloss_text: str = ""  # the gloss as a sentence, where the lead had no room for it
    gain_of: str = ""  # the metric a gain against the benchmark is on, in words ("total flow time"), else ""
    bare: tuple[str, ...] = ()  # labels the lead says without their words (said in words below it)
    trade: str = ""  # the best's win as a line below another metric's lead says it (:attr:`Metric.trade`), or ""
    versus_benchmark: tuple[tuple[str, Comparison], ...] = ()  # a gain's every other heuristic against the benchmark
    #: the best after a group that ties, against the benchmark, then against the best
    next_benchmark: tuple[tuple[str, Comparison], ...] = ()
    averages: tuple[tuple[str, float], ...] = ()  # every heuristic's mean, references too
    unit: str = ""  # the metric's (:attr:`Metric.unit`)
    in_times: bool = False  # whether its values are themselves said in times (:attr:`Metric.said`: a max stretch)
    trade_beside: str = ""  # how that line says the lead's winner's value (:attr:`Metric.trade_beside`)
    trade_values: tuple[tuple[str, str], ...] = ()  # each heuristic's value as :attr:`trade` says it, where it has one
    next_text: str = ""  # its sentence, where the group beats the benchmark and so does it (:func:`_next_sentence`)
    #: where the best's lead over the runner-up is all in one part of the metric (:func:`_carried`): that part in
    #: words ("tasks that arrive before scoring starts"), and the two compared on the rest of the metric
    carried_in: str = ""
    rest: Comparison | None = None
    #: the least and the greatest mean on that rest of the heuristics that can run online, and how many they are
    rest_span: tuple[float, float, int] = (math.nan, math.nan, 0)
    rest_bound: float = math.nan  # the most that rest can reach, a mean over the trials (:attr:`Metric.rest_bound`)
    next_folds: bool = False  # whether next_text may fold below an "In short" line (said by the lead, or a runner's)

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
        """Whether the best is told apart from the runner-up (see :attr:`Comparison.told_apart`)."""
        return self._first("told_apart", False)

    def gloss_beside(self, lead: str) -> str:
        """The metric in plain words as a sentence to show beside ``lead`` ("Makespan: when the last task ends."), ""
        where ``lead`` already glosses it ("rr leads on makespan (when the last task ends)"): one gloss, not two. For
        a run's lead while it goes on (:func:`progress_lead`); the whole run's lead has :attr:`gloss_text`."""
        if not self.gloss or f"({self.gloss})" in lead:
            return ""
        return f"{self.glossed[:1].upper()}{self.glossed[1:]}: {self.gloss}."

    @property
    def lines(self) -> list[str]:
        """The lead sentence, the gloss where the lead had no room for it, then the rest of it, the bound's and the
        references' sentences if any."""
        return [self.text] + [t for t in (self.gloss_text, self.detail, self.bound_text, self.reference_text) if t]


# --- which heuristics can be crowned, and which metric leads -----------------------------------------------------

def reference_of(heuristic) -> str:
    """What a registered heuristic is when it cannot run online, in words (its registry entry's ``reference``, e.g.
    Kim et al.'s full-knowledge static benchmarks of section 5); "" when it can. Never read from a name."""
    return heuristic.reference


def scenario_references(scenario: Scenario) -> dict[str, str]:
    """The scenario's heuristics that cannot run online: label -> what each is (:func:`reference_of`)."""
    found = {h.label: reference_of(h.heuristic) for h in scenario.heuristics}
    return {label: what for label, what in found.items() if what}


def headline_metric(model) -> Metric:
    """The metric a model's results lead with: its first bar metric where one way is better (else its first)."""
    bars = model.bar_metrics()
    return next((m for m in bars if m.better), bars[0])


# --- the comparison ----------------------------------------------------------------------------------------------

def difference_kind(metric: Metric) -> str:
    """"points" for a metric in percent or a fraction shown as a percent, else "percent" (see the module)."""
    return "points" if metric.unit == "%" or is_fraction(metric) else "percent"


def _compare(table: pd.DataFrame, first: str, other: str, role: str, metric: Metric, means: dict) -> Comparison:
    """The paired comparison; a percent of non-negative values is at least -100%, so its interval uses the
    range-respecting rule of :mod:`hcsched.stats` ("auto": the bootstrap where Student-t would go below -100%)."""
    kind = difference_kind(metric)
    scale = 100.0 if is_fraction(metric) else 1.0  # a fraction's points
    d = paired(table[first] * scale, table[other] * scale, points=kind == "points")
    if kind == "percent" and (table[[first, other]].fillna(0.0) >= 0).all(axis=None):
        mean, lo, hi = (x - 100.0 for x in mean_ci(d + 100.0, method="auto"))
    else:
        mean, lo, hi = mean_ci(d, method="t")
    return Comparison(other, role, mean, lo, hi, int(d.size), (means[first], means[other]), scale)


def _means(table: pd.DataFrame) -> dict[str, float]:
    return {h: mean_ci(table[h])[0] for h in table.columns}


def _ranked_means(table: pd.DataFrame, better: str, means: dict) -> list[tuple[str, float]]:
    """(heuristic, mean) from best to worst (:func:`hcsched.stats.ranked`: ties keep the table's order), heuristics
    without a value left out."""
    frame = pd.DataFrame({"heuristic": table.columns, "mean": [means[h] for h in table.columns]})
    return [(h, means[h]) for h in ranked(frame, "mean", better) if not math.isnan(means[h])]


def _unranked(table: pd.DataFrame, better: str, means: dict) -> tuple[str, ...]:
    """The heuristics whose infinite mean (an overflow) would rank them first: never crowned, left out of the
    ranking."""
    head = []
    for h, m in _ranked_means(table, better, means):
        if math.isfinite(m):
            break
        head.append(h)
    return tuple(head)


def _ranking(table: pd.DataFrame, better: str, means: dict) -> list[tuple[str, float]]:
    """:func:`_ranked_means` without the :func:`_unranked` heuristics."""
    return _ranked_means(table, better, means)[len(_unranked(table, better, means)):]


# --- the words ---------------------------------------------------------------------------------------------------

LEAD_WORDS = 35  # a lead sentence's most words: what does not fit is said below it

#: A heuristic's plain words where its registry title only repeats its short name ("Min-min" for min-min): what its
#: rule does, as its model's paper describes it (the ETC model: Maheswaran et al.; classes: Al-Azzoni and Down;
#: timeshared: Caniou and Jeannot; value: Kim et al.).
PLAIN_WORDS = {
    ("etc", "min-min"): "soonest-finishing task first",
    ("etc", "max-min"): "latest-finishing task first",
    ("etc", "sufferage"): "task that would lose most without its best machine",
    ("etc", "duplex"): "better of Min-min and Max-min",
    ("classes", "lpas-2k"): "LPAS asking two machines",
    ("classes", "lp-static"): "LP shares, no machine state",
    ("classes", "guided-lpas"): "LPAS held to its LP shares",
    ("classes", "guided-lpas-2k"): "Guided-LPAS asking two machines",
    ("timeshared", "netsolve-mct"): "earliest finish by server load",
    ("timeshared", "min-length"): "least remaining time in all",
    ("value", "max-max"): "most worth per second of work first",
    ("value", "max-min"): "latest-finishing task first",
    ("value", "min-min"): "soonest-finishing task first",
    ("value", "percent-best"): "by priority, on its fastest machines",
    ("value", "queueing-table"): "queues ranked by priority and urgency",
    ("value", "relative-cost"): "most worth, then lowest relative cost",
    ("value", "slack-sufferage"): "task losing most deadline slack first",
    ("value", "switching"): "fastest machine, soonest-finishing when loads are uneven",
    ("etc", "sa"): "fastest machine, soonest-finishing when loads are uneven",
}


def word_count(text: str) -> int:
    return len(text.split())


def headline_title(metric: Metric) -> str:
    """"Lowest makespan" / "Highest utilisation" with the metric's own wording (an acronym keeps its case)."""
    t = metric.title
    if not metric.better:
        return t
    return f"{'Lowest' if metric.better == 'lower' else 'Highest'} {_lowered(t)}"


def _lowered(title: str) -> str:
    return title if len(title) > 1 and title[:2].isupper() else title[:1].lower() + title[1:]


_SHARE_OF = re.compile(r"(.*), % of (.*)")  # "Value, % of the upper bound": a value said as "90.9% of the upper bound"


def metric_words(metric: Metric) -> str:
    """The metric in a sentence: "makespan", "value" (a unit in the title, and what a percent is of, left to the
    values: :func:`of_what`)."""
    t = metric.title
    if metric.unit and t.endswith(f" ({metric.unit})"):
        t = t[: -len(metric.unit) - 3]
    share = _SHARE_OF.fullmatch(t) if metric.unit == "%" else None
    return _lowered(share.group(1) if share else t)


def of_what(metric: Metric) -> str:
    """" of the upper bound" for a metric in percent of something ("Value, % of the upper bound"), else ""."""
    share = _SHARE_OF.fullmatch(metric.title) if metric.unit == "%" else None
    return f" of {share.group(2)}" if share else ""


def _at(x: float, metric: Metric) -> str:
    """A value in a sentence: "6.2 days", "90.9% of the upper bound", "27.1 times its run time alone"
    (:func:`hcsched.formatting.said_value`); a unit word the metric's name already says is not said twice ("the
    lowest average backlog at 5.16", not "at 5.16 tasks"; a symbol such as "s" always stays). A time from an hour is
    said in hours or days alone, as the charts' axes say it: a tryout found "6.2 days (535,000 s)" one number too many
    in a lead (the table and the charts' hovers keep the seconds); from ten minutes, in minutes ("41 minutes")."""
    span = time_span(x, minutes=True) if metric.unit == "s" and not metric.said and math.isfinite(x) else ""
    text = span or said_value(x, metric)
    unit = f" {metric.unit}"
    if len(metric.unit) > 1 and re.search(rf"\b{re.escape(metric.unit)}\b", metric.title, re.IGNORECASE) \
            and text.endswith(unit):
        text = text[:-len(unit)]
    return text + of_what(metric)


def _connector(metric: Metric) -> str:
    """", with" before a value that says what it is of (a gain: "the highest gain on total flow time, with 2.1% lower
    total flow time than the benchmark"), else " at"."""
    return ", with" if len(metric.said) > 1 else " at"


_GAIN = re.compile(r"\{\} lower (.+) than the benchmark")  # a gain's value in a sentence (metrics.gain_said)


def gain_of(metric: Metric) -> str:
    """The metric a gain against the benchmark is on, in words ("total flow time" for the gain on total flow time,
    Caniou and Jeannot section 6.1), read from how a sentence says its value (:attr:`Metric.said`); "" for a metric
    that is no such gain."""
    found = _GAIN.fullmatch(metric.said[0]) if metric.said else None
    return found.group(1) if found else ""


def glossed_once(lines: list[str], glosses: Mapping[str, str]) -> list[str]:
    """Each metric's plain words beside its name where the lines first say it (:attr:`Metric.gloss`): "makespan (when
    the last task ends)", "max stretch (the worst task's slowdown)". ``glosses``: the metric in words
    (:func:`metric_words`) -> its gloss; a name already glossed where first said stays as it is, and a name is matched
    whole ("makespan" not within "makespan-like")."""
    out = list(lines)
    for words, gloss in glosses.items():
        if not words or not gloss:
            continue
        pattern = re.compile(r"(?<![\w-])" + re.escape(words) + r"(?![\w-])", re.IGNORECASE)
        for k, line in enumerate(out):
            m = pattern.search(line)
            if m is not None:
                if not line.startswith(f" ({gloss})", m.end()):
                    out[k] = f"{line[:m.end()]} ({gloss}){line[m.end():]}"
                break
    return out


def _amount(x: float, digits: int | None = None) -> str:
    """A difference's amount: :func:`~hcsched.formatting.amount_text`'s, or with ``digits`` decimals."""
    return amount_text(x) if digits is None else f"{x:.{digits}f}"


def size_text(x: float, kind: str, digits: int | None = None) -> str:
    """A difference's size with its unit, without its sign: "6.1%", "2.3 points" (``digits``: its decimals,
    :func:`_digits`)."""
    return f"{_amount(abs(x), digits)}%" if kind == "percent" else f"{_amount(abs(x), digits)} points"


ABOUT_SAME = 0.05  # differences within this share of the largest are said as one size: "about 8.9%"


def _sizes(xs: list[float], kind: str) -> str:
    """Differences' sizes: "about 8.9%" when they are within :data:`ABOUT_SAME` of each other (8.8% and 8.9%), else
    "5.3% and 8.8%" for two, "between 5.3 and 8.8 points" for more (never "8.8% to 8.9%", which reads as an
    interval)."""
    low, high = min(xs, key=abs), max(xs, key=abs)
    if size_text(low, kind) == size_text(high, kind) or abs(high - low) <= ABOUT_SAME * abs(high):
        return f"about {size_text(sum(xs) / len(xs), kind)}"
    if len(xs) == 2:
        return f"{size_text(low, kind)} and {size_text(high, kind)}"
    return f"between {amount_text(abs(low))}{'%' if kind == 'percent' else ''} and {size_text(high, kind)}"


def _side(x: float) -> str:
    return "below" if x < 0 else "above"


def _range(c: Comparison, kind: str, digits: int | None = None) -> str:
    """The 95% interval in words: "4.8–7.3% below", "0.9–3.8 points above" (one side: the two ends and one unit, as
    every interval a page shows is said), "between 1.2% below and 17% above" (``digits``: the decimals of both ends,
    :func:`_digits`)."""
    unit = "%" if kind == "percent" else " points"
    if c.separated and size_text(c.lower, kind, digits) == size_text(c.upper, kind, digits):  # one size every trial
        if c.lower == c.upper:
            return f"{size_text(c.lower, kind, digits)} {_side(c.lower)}, the same in every trial"
        return f"about {size_text(c.lower, kind, digits)} {_side(c.lower)}"
    if c.upper < 0 or c.lower > 0:
        near, far = sorted((abs(c.lower), abs(c.upper)))
        a, b = ends_text(near, far) if digits is None else (_amount(near, digits), _amount(far, digits))
        return f"{a}–{b}{unit} {_side(c.upper)}"
    return f"between {size_text(c.lower, kind, digits)} below and {size_text(c.upper, kind, digits)} above"


def _ci(c: Comparison, total: int) -> str:
    """ "95% interval", or "95% interval over 3 of 5 trials" when trials were dropped."""
    return "95% interval" + (f" over {c.trials} of {total} trials" if c.trials < total else "")


def _equal(c: Comparison) -> bool:
    return c.difference == 0 and c.lower == c.upper == 0


@dataclass(frozen=True)
class _Part:
    """A clause of a lead sentence: always in it (``apart`` None), or in it where it fits, else said as ``apart``, a
    sentence of its own below the lead; ``below``: a sentence said below the lead whenever this clause's candidate
    is the one chosen."""

    text: str
    apart: str | None = None
    below: str = ""


_BARE = re.compile("\x00([^\x00]*)\x00")  # a label a line says without its words (:func:`bare`)


def bare(label: str) -> str:
    """``label`` marked to be said as it is where a line mentions it, never named in words there (for room: its words
    are said where it is mentioned next, :func:`_said`)."""
    return f"\x00{label}\x00"


def _masked(text: str, labels) -> str:
    """``text`` with each of ``labels`` marked :func:`bare` where mentioned (a lead that said them bare)."""
    for label in labels:
        text = re.sub(r"(?<![\w-])" + re.escape(label) + r"(?![\w-])", lambda _m, label=label: bare(label), text)
    return text


def _said(lines: list[str], names: Mapping[str, str], glosses: Mapping[str, str]) -> list[str]:
    """The lines as a page says them: each heuristic named in words (:func:`named_once`), each metric glossed
    (:func:`glossed_once`), where first mentioned; a label marked :func:`bare` said as it is, its words where it is
    mentioned next."""
    found = [m.group(1) for line in lines for m in _BARE.finditer(line)]
    holders = {f"\x01{k}\x01": label for k, label in enumerate(found)}
    counter = iter(holders)
    hidden = [_BARE.sub(lambda _m: next(counter), line) for line in lines]
    out = glossed_once(named_once(hidden, names), glosses)
    for holder, label in holders.items():
        out = [line.replace(holder, label) for line in out]
    return out


def _named_words(text: str, names: Mapping[str, str], glosses: Mapping[str, str],
                 shorts: Mapping[str, str] | None = None) -> int:
    """The words of ``text`` as it is shown: its labels named (:func:`_said`) and said short again (:func:`shortened`:
    "fz (error weighted a tenth)" is two words longer than "fz (beta=0.1)")."""
    return word_count(shortened(_said([text], names, glosses)[0], shorts or {}))


def _joined(parts: list[_Part], chosen: list[bool]) -> str:
    """The chosen parts in one sentence, an interval after a value's own brackets said inside them: "at 348,000 s
    (4.0 days; 95% interval: 3.9–4.2 days)", never ") (" ."""
    text = "".join(p.text for p, c in zip(parts, chosen, strict=True) if c) + "."
    return text.replace(") (95% interval: ", "; 95% interval: ")


def _fit(candidates: list[list[_Part]], after: list[str], names: Mapping[str, str],
         glosses: Mapping[str, str] | None = None, shorts: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(lead, rest) of a sentence: the first of ``candidates`` (each its parts in reading order) whose parts that must
    be in the lead fit in :data:`LEAD_WORDS` words once the heuristics are named and the metric glossed (:func:`_said`;
    the last whatever its length), with
    as many of its other parts as still fit, in reading order; the parts left out, its parts' ``below`` sentences,
    then ``after``, make the rest."""
    for k, parts in enumerate(candidates):
        chosen = [p.apart is None for p in parts]
        if k < len(candidates) - 1 and _named_words(_joined(parts, chosen), names, glosses or {}, shorts) \
                > LEAD_WORDS:
            continue
        for i in range(len(parts)):
            if not chosen[i]:
                chosen[i] = True
                chosen[i] = _named_words(_joined(parts, chosen), names, glosses or {}, shorts) <= LEAD_WORDS
        rest = [p.apart for p, c in zip(parts, chosen, strict=True) if not c] + [p.below for p in parts] + after
        return _joined(parts, chosen), " ".join(r for r in rest if r)
    raise ValueError("no candidate sentence")


def _told(c: Comparison, total: int, kind: str) -> str:
    """"a real difference (95% interval: 4.8–7.3% below)"; a tiny one says so (:func:`_real`)."""
    return f"{_real(c, kind)} ({_ci(c, total)}: {_range(c, kind, _digits(c, kind))})"


def _against(c: Comparison, first: str, name: str, kind: str, total: int) -> str:
    """How ``first`` compares with ``name`` (the benchmark, or the best heuristic that can run online), to follow "A
    is" or "GA reaches 95%,": "23% below the benchmark C: a real difference (95% interval: 19–27% below)"."""
    if c.trials == 0:
        return f"not comparable with {name}: no trial has a value of both"
    if c.trials == 1:
        said = f"{size_text(c.difference, kind)} {_side(c.difference)} {name}" if c.difference else \
            f"the same as {name}"
        return f"{said} in the one trial where both have a value"
    if _equal(c):
        return f"equal to {name} in every trial"
    if c.told_apart:
        size = size_text(c.difference, kind, _digits(c, kind))
        return f"{size} {_side(c.difference)} {name}: {_told(c, total, kind)}"
    return f"not told apart from {name}: the {_ci(c, total)} puts {first} {_range(c, kind)} {c.other} per trial"


def _benchmark_parts(v: Verdict, total: int, named: set[str]) -> list[_Part]:
    """The best against the benchmark, when it is neither the runner-up nor in ``named``: a clause of the lead where
    it fits."""
    out = []
    for c in v.comparisons[1:]:
        if c.other not in named:
            said = f"{v.best} is {_against(c, v.best, f'the benchmark {c.other}', v.kind, total)}"
            out.append(_Part(f"; {said}", f"{said}."))
    return out


def _winner_candidates(v: Verdict, metric: Metric, total: int) -> list[list[_Part]]:
    """The best told apart from the runner-up (or too few trials to tell): who, by how much, and whether it is
    real (a tiny difference says so, :func:`_real`), always with its 95% interval (where the names leave no room for
    it, the runner-up named without "the runner-up", else by its label alone, its words said below the lead
    (:func:`bare`: "0.6 points above the runner-up relative-cost", then "0.6 points above relative-cost"), else named
    below the lead)."""
    c, best, what, sup = v.comparisons[0], v.best, metric_words(metric), _superlative(v)
    has = f"{best} has the {sup} {what}{_connector(metric)} {_at(v.best_mean, metric)}"
    if c.trials == 0:
        return [[_Part(f"{has}, but no trial has a value of both it and the runner-up {c.other}, so they cannot be "
                       "compared")]]
    if c.trials == 1:
        where = "the only trial" if total == 1 else "the one trial where both have a value"
        return [[_Part(f"{has}, {size_text(c.difference, v.kind)} {_side(c.difference)} the runner-up {c.other} in "
                       f"{where}: too few trials to tell whether the difference is real")]]
    bench = c.other == v.benchmark
    runner = (lambda x: f"{x}, the runner-up and the benchmark" if bench else f"{x}, the runner-up")  # noqa: E731
    # never "the benchmark and runner-up", which a tryout read as a term of art
    # the role after the name: "the runner-up switching (...)" read "switching" as a verb
    named = f"The runner-up is {'the benchmark ' if bench else ''}{c.other}."
    digits = _digits(c, v.kind)  # a tiny difference: real, but under 1% of its value, one precision throughout
    gap = f"{has}, {size_text(c.difference, v.kind, digits)} {_side(c.difference)}"
    # "the runner-up" left out, then its words said below the lead, then its name, before the interval is ("real"
    # says how sure)
    kind = "the benchmark " if bench else ""
    return [[_Part(f"{gap} {who}: {_real(c, v.kind)}", below=below),
             _Part(f" ({_ci(c, total)}: {_range(c, v.kind, digits)})")]
            for who, below in ((runner(c.other), ""), (f"{kind}{c.other}", ""), (runner(bare(c.other)), named),
                               (f"{kind}{bare(c.other)}", named), ("the runner-up", named))]


def _superlative(v: Verdict) -> str:
    return "lowest" if v.better == "lower" else "highest"


def _group_span(v: Verdict) -> Comparison:
    """The group's comparisons with the benchmark as one: from the lowest of their 95% intervals' ends to the highest
    (each of them lies within it), their mean difference averaged."""
    found = [c for _, c in v.group_benchmark]
    return dataclasses.replace(found[0], difference=sum(c.difference for c in found) / len(found),
                               lower=min(c.lower for c in found), upper=max(c.upper for c in found))


def _ranges(found: list[Comparison], kind: str) -> str:
    """Several 95% intervals in one clause, their common unit and side said once: "8.0–9.9% and 7.9–9.7% below"; ""
    where they are not all two ends on one side ("about 10% below", "between ...")."""
    said = [_range(c, kind).split(" ", 1) for c in found]
    if any("–" not in head for head, _ in said) or len({tail for _, tail in said}) > 1:
        return ""
    return f"{listed([head for head, _ in said])} {said[0][1]}"


def _beat_candidates(v: Verdict, metric: Metric, total: int) -> list[list[_Part]]:
    """A group not told apart whose every member beats the benchmark for real: the tie said first, then by how much
    they beat the benchmark ("hmct and mmc tie for the lowest makespan, both about 8.9% below the benchmark
    netsolve-mct: real differences": the useful point of a close race, for real), with each member's 95% interval
    against it where the words fit ("95% intervals: 8.0–9.9% and 7.9–9.7% below"), else the span that holds each of
    them (:func:`_group_span`), every member named where the names fit, else the group counted."""
    group = [v.best] + [t.other for t in v.tied]
    two = len(group) == 2
    by = f"on {metric_words(metric)} by {_sizes([c.difference for _, c in v.group_benchmark], v.kind)}"
    beat = f"beat the benchmark {v.benchmark} {by}"
    span = _group_span(v)
    ci = f"{_ci(span, total)}s"
    ranges = _ranges([c for _, c in v.group_benchmark], v.kind)
    interval = f" ({ci}: each within {_range(span, v.kind)})"
    apart = "the two tie" if two else "no two are told apart"
    each = "both" if two else "each"
    others = f"{len(group) - 1} other{'' if two else 's'} tied with it"  # not told apart from it, said short
    said = "real differences"
    side = _side(v.group_benchmark[0][1].difference)  # the tie first, then by how much it beats the benchmark
    tie = f"{listed(group)} tie for the {_superlative(v)} {v.what}, {each} " \
          f"{_sizes([c.difference for _, c in v.group_benchmark], v.kind)} {side} the benchmark {v.benchmark}: {said}"
    level = f"{listed(group)} tie for the {_superlative(v)} {v.what} at {_at(v.best_mean, metric)}, {each} " \
            f"{_sizes([c.difference for _, c in v.group_benchmark], v.kind)} {side} the benchmark {v.benchmark}: {said}"
    # where it is first (a tryout asked "how long?" of a lead that said only how much shorter), its intervals where
    # they fit, else below it
    return [*([[_Part(f"{level} ({ci}: {ranges})")]] if ranges and len(group) <= 3 else []),
            *([[_Part(f"{level}{x}")] for x in (interval, f" ({ci} within {_range(span, v.kind)})")]
              if len(group) <= 3 else []),  # how sure, in the lead with where it is (a tryout missed it there)
            *([[_Part(level), _Part(f" ({ci}: {ranges})", "")]]  # below, _group_lines says them
              if ranges and len(group) <= 3 else []),
            *([[_Part(f"{tie} ({ci}: {ranges})")]] if ranges and len(group) <= 3 else []),
            [_Part(f"{tie}{interval}")],
            [_Part(f"{listed(group)} {each} {beat}: {said}{interval}"),
             _Part(f"; {apart}", f"{apart[:1].upper()}{apart[1:]}.")],
            [_Part(f"{v.best} and {others} {each} {beat}: {said}{interval}")],
            [_Part(f"{v.best} and {others} {each} beat the benchmark {by}: {said}{interval}",  # "real": how sure
                   below=f"The benchmark is {v.benchmark}.")],
            [_Part(f"{v.best} and {len(group) - 1} other{'' if two else 's'} {each} beat the benchmark {by}: {said}"
                   f"{interval}", below=f"The benchmark is {v.benchmark}.")]]  # the tie said below (_group_lines)


def _beats_benchmark(v: Verdict) -> bool:
    """Whether every heuristic of the group not told apart from the best beats the benchmark, for real."""
    better = (lambda d: d < 0) if v.better == "lower" else (lambda d: d > 0)  # noqa: E731
    return bool(v.group_benchmark) and all(c.told_apart and better(c.difference) for _, c in v.group_benchmark)


def _next_sentence(v: Verdict, total: int) -> str:
    """Where the best's lead is all in one part (:func:`_carried`), the two compared on the rest
    (:func:`_rest_sentence`). Where the group that ties beats the benchmark for real (:func:`_beats_benchmark`), the
    best after it when it beats the benchmark for real too, though the group is clearly ahead of it: "Next, msf also
    beats the benchmark, by 8.2% (95% interval: 7.2–9.3% below), but less than the two." (Caniou and Jeannot's msf
    beside hmct and mmc: its bar looked as long as theirs and was never named); behind the best first where told apart
    from it: "Next, msf is 0.8% behind hmct (95% interval: 0.2–1.3% behind); it also beats ..."; "" otherwise."""
    if v.carried_in:  # the best's lead all in one part: the rest compared, right under the lead
        return _rest_sentence(v, total)
    if not v.next_benchmark or not _beats_benchmark(v):
        return ""
    h, c = v.next_benchmark[0]
    if not c.told_apart or (c.difference < 0) != (v.better == "lower"):
        return ""
    group = "the two" if len(v.tied) == 1 else "them"
    also = f"also beats the benchmark, by {size_text(c.difference, v.kind, _digits(c, v.kind))}"
    if len(v.next_benchmark) > 1 and v.next_benchmark[1][1].told_apart:  # how far behind the best, first
        b = v.next_benchmark[1][1]  # told apart: behind at both ends, said as the sentence says it (not "above")
        behind = re.sub(r" (above|below)\b", " behind", _range(b, v.kind, _digits(b, v.kind)))
        return (f"Next, {h} is {size_text(b.difference, v.kind, _digits(b, v.kind))} behind {v.best} "
                f"({_ci(b, total)}: {behind}); it {also}, but less than {group}.")
    return (f"Next, {h} {also} ({_ci(c, total)}: {_range(c, v.kind, _digits(c, v.kind))}), but less than "
            f"{group}.")


def _group_listing(v: Verdict, metric: Metric) -> str:
    """The best and every heuristic not told apart from it, with their averages: "A at 100 s, B at 100.5 s and the
    benchmark C at 101.2 s"."""
    return listed([f"{v.best} at {_at(v.best_mean, metric)}"] + [f"{_role(t)}{t.other} at {_at(t.means[1], metric)}"
                                                                 for t in v.tied])


SWINGS = "the order swings from trial to trial"  # why a group is not told apart (:func:`_group_explained`)


def _group_explained(v: Verdict) -> str:
    """Why a group is not told apart, the reason first (a tryout asked why a 40-50 minute spread is no clear winner),
    in plain words (a tryout read "per trial, the 95% interval of fz against each runs from better to worse" as a
    statistician's sentence; the intervals are below): "the order swings from trial to trial: fz, the lowest on
    average, is not reliably ahead of any of the other 9"."""
    others = f"any of the other {len(v.tied)}" if len(v.tied) > 1 else v.tied[0].other
    return f"{SWINGS}: {v.best}, the {_superlative(v)} on average, is not reliably ahead of {others}"


def why_no_winner(v: Verdict) -> str:
    """The sentence below a lead that crowns no one saying why (:func:`_group_explained`): "The order swings from
    trial to trial: fz, the lowest on average, is not reliably ahead of any of the other 9." (a tryout found it
    only folded away, under a lead of 12 heuristics with no clear winner); "" where the lead says it or has none."""
    said = next((x for x in sentences(v.detail) if x.lower().startswith(SWINGS)), "")
    return "" if SWINGS in v.text.lower() else said


def _group_lines(v: Verdict, metric: Metric, total: int) -> list[str]:
    """The group not told apart, below the lead: each one's average, and how each compares with the benchmark."""
    c = v.comparisons[0]
    if len(v.tied) == 1:
        out = [f"{v.best} averages {_at(v.best_mean, metric)} and {c.other} {_at(c.means[1], metric)}; per trial, the "
               f"{_ci(c, total)} puts {v.best} {_range(c, v.kind)} {c.other}."]
    else:
        explained = _group_explained(v)
        out = [f"{explained[:1].upper()}{explained[1:]}. Not told apart: {_group_listing(v, metric)}."]
    if v.group_benchmark:
        out.append(f"Against the benchmark {v.benchmark}, 95% intervals: "
                   + "; ".join(f"{h} {_range(b, v.kind)}" for h, b in v.group_benchmark) + ".")
    return out


def _mean_interval(v: Verdict, metric: Metric, required: bool) -> list[_Part]:
    """The 95% interval of the best's mean beside it ("(95% interval: 2,096–2,761 s)"); where not ``required``,
    a sentence below the lead when it does not fit; none without an interval (one trial)."""
    lo, hi = v.best_interval
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    said = _between(lo, hi, metric)
    return [_Part(f" (95% interval: {said})", None if required else f"The 95% interval of {v.best}'s average: {said}.")]


def _between(lo: float, hi: float, metric: Metric) -> str:
    """Two values of ``metric`` as a span, its unit said once: "35–46 minutes", "19.7–25.3%", "3.9–4.2 days"."""
    low, high = _at(lo, metric), _at(hi, metric)
    asides = [re.fullmatch(r"(.*) \(.*\)", x) for x in (low, high)]
    if all(asides):  # "3.9 days (334,000 s)": the interval in the words a person reads, "3.9–4.2 days"
        low, high = (a.group(1) for a in asides)
    ends = [re.fullmatch(r"([\d.,]+)(%| \S+)?", x) for x in (low, high)]
    one_unit = all(ends) and ends[0].group(2) == ends[1].group(2)
    return f"{ends[0].group(1)}–{high}" if one_unit else f"{low} to {high}"  # one unit: "2,096–2,761 s"


def _listed_values(xs: list[float], metric: Metric) -> str:
    """Values of ``metric`` listed, a time's unit said once, the least's: "57 and 84 minutes" (never "57 minutes and
    1.4 hours", a unit more to read and a word more in a lead); else each as a lead says it (:func:`_at`)."""
    unit = span_unit(min(map(abs, xs)), minutes=True) if metric.unit == "s" and not metric.said else None
    if unit is None:
        return listed([_at(x, metric) for x in xs])
    return f"{listed([amount_text(x / unit[0]) for x in xs])} {unit[1]}"


def _group_candidates(v: Verdict, metric: Metric, total: int) -> list[list[_Part]]:
    """A group of three or more not told apart: named where they fit, else counted with the best average and its 95%
    interval ("9 others tie with the lowest average, ll, at 2,355 s", one wording whatever the lengths), the
    benchmark among them, and the ones clearly worse."""
    what, value, explained = metric_words(metric), _at(v.best_mean, metric), _group_explained(v)
    bench = _benchmark_parts(v, total, {t.other for t in v.tied})
    named = [_Part(f"No clear winner on {what}: {_group_listing(v, metric)} are too close to call",
                   below=f"{explained[:1].upper()}{explained[1:]}."), *bench]
    n, below = len(v.tied) + 1 + len(v.behind), _group_lines(v, metric, total)[0]
    others = f"all {n - 1} others" if len(v.tied) == n - 1 else f"{len(v.tied)} others"
    head = f"{v.best} has the {_superlative(v)} average, {value}"  # never "the best" beside "No clear winner"
    ties = _Part(f", and {others} tie with it")  # "9 others tie with the lowest average, fz" read as tied with a mean
    tail = []
    among = next((t for t in v.tied if t.role == "benchmark"), None)
    if among is not None:
        at = _at(among.means[1], metric)
        tail.append(_Part(f", the benchmark {among.other} at {at} among them",
                          f"The benchmark {among.other}, at {at}, is among them."))
    counted = [[_Part(f"No clear winner on {what}: {head}", below=below), *_mean_interval(v, metric, required),
                ties, *tail, *worse, *bench] for required in (True, False) for worse in _worse_parts(v.behind)]
    # the interval before the names: the clearly worse counted where their words leave it no room
    if len(v.tied) < GROUP_SHOWN:
        return [named, *counted]
    return [*_few_worse_candidates(v, metric, n, tail, bench, below), *counted]


def _few_worse_candidates(v: Verdict, metric: Metric, n: int, tail: list[_Part], bench: list[_Part],
                          below: str) -> list[list[_Part]]:
    """A large group not told apart with a few clearly worse: the group counted and the few named in words, the
    answer a manager reads first ("No clear winner on makespan: 10 of 12 average 40–50 minutes; lz (...) and le
    (...) are clearly worse, at 57 and 81 minutes": Page et al.'s system A, where "only two are clearly worse" named
    neither, the names alone did not say how much worse, and "tie" read wrong of a 40-50 minute spread), the lowest
    average and its 95% interval below; none where the few are none or many."""
    if not 0 < len(v.behind) < GROUP_SHOWN:
        return []
    interval = "".join(p.text for p in _mean_interval(v, metric, True))
    lowest = f"{v.best} has the {_superlative(v)} average, {_at(v.best_mean, metric)}{interval}."
    verb = "is" if len(v.behind) == 1 else "are"
    group = f"{len(v.tied) + 1} of the {n} heuristics"
    spread = _between(min(means := [v.best_mean, *(t.means[1] for t in v.tied)]), max(means), metric)
    worse = _Part(f"; only {listed(list(v.behind))} {verb} clearly worse")
    averages = dict(v.averages)
    worse_at = listed([f"{h} {_at(averages[h], metric)}" for h in v.behind if h in averages])
    beyond = lambda h: h in averages and (averages[h] > max(means) if v.better == "lower"  # noqa: E731
                                          else averages[h] < min(means))
    sized = [] if not all(map(beyond, v.behind)) else [  # how much worse, in the lead where it fits (not where an
        # average is inside the group's span: worse per trial, which the averages do not show)
        [_Part(f"No clear winner on {v.what}: {len(v.tied) + 1} of {n} average {spread}", below=f"{lowest} {below}"),
         *tail, _Part(f"; {listed(list(v.behind))} {verb} clearly worse, at "
                      f"{_listed_values([averages[h] for h in v.behind], metric)}"), *bench]]
    return [*sized,
            [_Part(f"No clear winner on {v.what}: {group} tie, averaging {spread}",
                   below=f"{lowest} {below} The clearly worse average: {worse_at}."), *tail, worse, *bench],
            [_Part(f"No clear winner on {v.what}: {group} are too close to call",
                   below=f"They average {spread}. {lowest} {below}"), *tail, worse, *bench]]


def _worse_parts(behind: tuple[str, ...]) -> list[list[_Part]]:
    """The heuristics clearly worse than a group not told apart, a clause every lead of the group says, each form a
    choice: "; only lz (load balance, largest estimate error first) and le (...) are clearly worse" (named in words),
    else "; only two are clearly worse" (the line below the lead names them, :func:`trade_off`); "; 5 are clearly worse"
    for more; none when none is."""
    if not behind:
        return [[]]
    if len(behind) >= GROUP_SHOWN:
        return [[_Part(f"; {len(behind)} are clearly worse")]]
    verb = "is" if len(behind) == 1 else "are"
    return [[_Part(f"; only {listed(list(behind))} {verb} clearly worse")],
            [_Part(f"; {worse_counted(len(behind))}", below=f"Only {listed(list(behind))} {verb} clearly worse.")]]


_FEW = ("none", "one", "two", "three")  # the clearly worse of a group, counted in a lead (fewer than GROUP_SHOWN)


def worse_counted(n: int) -> str:
    """The few clearly worse of a group counted, as a lead says them where their names leave no room: "only two are
    clearly worse"."""
    return f"only {_FEW[n]} {'is' if n == 1 else 'are'} clearly worse"


def _pair_candidates(v: Verdict, metric: Metric, total: int) -> list[list[_Part]]:
    """The best and the runner-up not told apart: by the interval, or because the averages and the trials point
    different ways."""
    c, best, what = v.comparisons[0], v.best, metric_words(metric)
    averages = f"No clear winner on {what}: {best} averages {_at(v.best_mean, metric)} and {c.other} " \
               f"{_at(c.means[1], metric)}"
    bench = _benchmark_parts(v, total, set())
    per_trial = f"the {_ci(c, total)} puts {best} {_range(c, v.kind)} {c.other}"
    if c.separated:  # told apart per trial, but the other way than the means
        why = f"Per trial, {per_trial}: the averages and the trials disagree, so they are not told apart."
        return [[_Part(f"{averages}, yet per trial {per_trial}: the averages and the trials disagree, so they are not "
                       "told apart"), *bench],
                [_Part(f"{averages}, but the trials disagree with the averages", below=why), *bench]]
    return [[_Part(f"{averages}, but {per_trial} per trial, so they are not told apart"), *bench],
            [_Part(f"{averages}: not told apart", below=f"Per trial, {per_trial}."), *bench]]


def _candidates(v: Verdict, metric: Metric, total: int) -> tuple[list[list[_Part]], list[str]]:
    """The lead's candidate sentences, longest first, and the sentences always said below it."""
    left = _unranked_note(v, metric)
    if v.best is None:
        return [[_Part(f"{v.title}: {v.note}")]], left
    if v.note:
        return [[_Part(f"{v.title}: {v.best} at {_at(v.best_mean, metric)}, {v.note}")]], left
    c, bench = v.comparisons[0], _benchmark_parts(v, total, set())
    if v.carried_in:
        return _carried_candidates(v, metric, total), left
    if c.trials < 2 or c.told_apart:
        return [parts + bench for parts in _winner_candidates(v, metric, total)], left
    if _equal(c):
        return [[_Part(f"No clear winner on {metric_words(metric)}: {v.best} and {c.other} are equal in every "
                       f"trial, at {_at(v.best_mean, metric)} on average"), *bench]], left
    if len(v.tied) >= 1 and _beats_benchmark(v):
        return _beat_candidates(v, metric, total), _group_lines(v, metric, total) + left
    found = _group_candidates(v, metric, total) if len(v.tied) > 1 else _pair_candidates(v, metric, total)
    return found, left


REST = "_rest"  # the column of the rest of a share once one part is taken out (:func:`_carried`)


def per_trial(results: pd.DataFrame, column: str) -> bool:
    """Whether ``column`` is one positive value per trial, the same for every heuristic of the trial (a yardstick
    such as a trial's upper bound)."""
    values = results[column]
    if not pd.api.types.is_numeric_dtype(values) or not (values > 0).all():
        return False
    return bool((results.groupby("trial")[column].nunique() == 1).all())


def share_columns(metric: Metric, results: pd.DataFrame, numerators) -> tuple[str, str] | None:
    """(numerator, yardstick) where ``metric`` is, in every row of ``results``, one of ``numerators`` (columns)
    divided by a per-trial yardstick (:func:`per_trial`), times 100 for a percentage: "value, % of the upper bound" is
    100 V / UB (Kim et al., section 5); None otherwise."""
    if metric.name not in results:
        return None
    scale = 100.0 if metric.unit == "%" else 1.0
    target = results[metric.name].to_numpy(float)
    numeric = [n for n in results.columns if n not in ("trial", metric.name)
               and pd.api.types.is_numeric_dtype(results[n])]
    for x in (n for n in numerators if n in numeric):
        for y in (n for n in numeric if n != x):
            with np.errstate(divide="ignore", invalid="ignore"):
                said = scale * results[x].to_numpy(float) / results[y].to_numpy(float)
            if np.allclose(target, said, rtol=1e-9, atol=0.0, equal_nan=True) and per_trial(results, y):
                return x, y
    return None


def part_words(part: Metric, whole: str) -> str:
    """What a part of ``whole`` (a metric in words, "value") is, from its title: "tasks that arrive before scoring
    starts" for "Value of tasks that arrive before scoring starts"; "" where its title does not say it so."""
    return part.title[len(whole) + 4:] if part.title.lower().startswith(f"{whole} of ") else ""


def _rest_of(results: pd.DataFrame, metric: Metric, parts: Collection[Metric]
             ) -> list[tuple[str, pd.DataFrame, float]]:
    """For each part of a share's numerator (:attr:`Metric.part_of`) said in words, (the part in words, the share
    without it: one column per heuristic, a row per trial, the mean share of its bound, :attr:`Metric.rest_bound`,
    NaN where it has none); none where ``metric`` is no such share."""
    found = share_columns(metric, results, {m.part_of for m in parts}) if parts else None
    if found is None:
        return []
    (x, y), whole = found, metric_words(metric)
    scale = 100.0 if metric.unit == "%" else 1.0
    return [(part_words(part, whole), wide(results.assign(**{REST: scale * (results[x] - results[part.name])
                                                                  / results[y]}), REST),
             bound_share(results, part, y, scale))
            for part in parts if part.part_of == x and part.name in results and part_words(part, whole)]


def bound_share(results: pd.DataFrame, part: Metric, yardstick: str, scale: float = 100.0) -> float:
    """The mean over the trials of the part's :attr:`Metric.rest_bound` as a share of ``yardstick`` (Kim et al.'s UB
    of the later tasks over the whole UB: 87.2% at the default preset, where every heuristic's rest reaches
    87.0–87.1%); NaN where the results have no such column."""
    if not part.rest_bound or part.rest_bound not in results:
        return math.nan
    trials = results.drop_duplicates("trial") if "trial" in results else results
    return float((scale * trials[part.rest_bound] / trials[yardstick]).mean())


def _ahead(c: Comparison, metric: Metric) -> bool:
    """Whether ``c``'s first is ahead of its other for real."""
    return c.told_apart and (c.difference > 0) == (metric.better == "higher")


def _carried(results: pd.DataFrame, metric: Metric, v: Verdict, parts: Collection[Metric]) -> dict:
    """Where the best is told apart from the runner-up on a share (:func:`share_columns`) whose numerator has a part
    (:attr:`Metric.part_of`), and without that part the best is no longer ahead for real: the part in words and the
    two compared on the rest (fields of :class:`Verdict`), so that the lead says where the lead comes from (Kim et
    al.'s value: max-min's 1.5 points over switching were all in tasks that arrive before the window opens, where
    work earns nothing, section 2.2.3; on the rest, switching was slightly ahead); {} otherwise."""
    if v.best is None or not v.comparisons or not v.comparisons[0].told_apart:
        return {}
    c = v.comparisons[0]
    for words, rest, bound in _rest_of(results, metric, parts):
        if c.other not in rest or v.best not in rest:
            continue
        r = _compare(rest, v.best, c.other, c.role, metric, _means(rest))
        if _ahead(r, metric):
            continue  # ahead on the rest too: a win of its own
        online = [m for h, m in _means(rest).items() if h not in {x.label for x in v.references} and math.isfinite(m)]
        return {"carried_in": words, "rest": r, "rest_span": (min(online), max(online), len(online)),
                "rest_bound": bound}
    return {}


def _references_carried(results: pd.DataFrame, metric: Metric, v: Verdict, parts: Collection[Metric]) -> dict:
    """The references, each ahead of the best for real whose lead is all in one part (not ahead on the rest, as
    :func:`_carried` finds for the best) marked with that part: Kim et al.'s GA "5.1 points above max-min" was all in
    the tasks that arrive before the window opens (without them, both 87.0%), which only a chart's note said."""
    if v.best is None or not v.references:
        return {}
    rests = _rest_of(results, metric, parts)
    marked = []
    for r in v.references:
        words = "" if r.versus is None or not _ahead(r.versus, metric) else next(
            (w for w, rest, _ in rests if r.label in rest and v.best in rest
             and not _ahead(_compare(rest, r.label, v.best, "best online", metric, _means(rest)), metric)), "")
        marked.append(dataclasses.replace(r, carried_in=words))
    return {"references": tuple(marked)}


def _rest_clause(v: Verdict) -> str:
    """How the best and the runner-up compare without the part the best's lead is all in (:func:`_carried`), short,
    for the lead: "switching is within 0.09 points" (not told apart, or a real hair: :func:`_within`), "switching is
    ahead by 0.8 points" (the runner-up ahead for real, and not by a hair)."""
    c, r = v.comparisons[0], v.rest
    if not _rest_equal(v):
        return f"{c.other} is ahead by {size_text(r.difference, v.kind)}"
    return f"{c.other} is within {_within(v)}"


def _rest_equal(v: Verdict) -> bool:
    """Whether, without the part the best's lead is all in, the two are not told apart or only by a hair
    (:func:`_tiny`): equal for practical purposes."""
    return not (v.rest.told_apart and not _tiny(v.rest, v.kind))


def _within(v: Verdict) -> str:
    """How close the two are on the rest: the far end of the 95% interval, whoever is ahead ("0.09 points")."""
    r = v.rest
    far = max(abs(r.lower), abs(r.upper))
    return "0.01 points" if v.kind == "points" and far < 0.01 else size_text(far, v.kind, _digits(r, v.kind))


EQUAL = "equal for practical purposes"  # the lead of two told apart only in one part of the metric, or by a hair
THROUGH = " only through them"  # the bars' gap where every heuristic is alike on the rest
WITH_THEM = "with them, "  # every bar's span, where the best leads the bars by a hair


def _carried_candidates(v: Verdict, metric: Metric, total: int) -> list[list[_Part]]:
    """The lead where the best's lead over the runner-up is all in one part (:func:`_carried`). Where the rest does
    not tell them apart, or only by a hair, the answer itself: "No clear winner on value: max-min and switching are
    equal for practical purposes, within 0.09 points without tasks that arrive before scoring starts" (a tryout read
    "max-min leads by 1.5 points" beside "switching is ahead by 0.06 points: real, but tiny" as a contradiction); the
    bars' gap and the rest's interval below it (:func:`_next_sentence` folds). Else the lead and the rest in it where
    the words fit: "... max-min leads by 1.5 points, all in tasks that arrive before scoring starts; without them,
    switching is ahead by 0.8 points", else the rest compared right under it (:func:`_rest_sentence`); its value
    below."""
    c = v.comparisons[0]
    size, value = size_text(c.difference, v.kind, _digits(c, v.kind)), _at(v.best_mean, metric)
    head, below = f"No clear winner on {v.what}: {v.best} leads by {size}", f"{v.best} averages {value}."
    below_equal = f"{v.best} averages {value}, {size} above {c.other}, all in {v.carried_in}."
    equal = [[_Part(f"No clear winner on {v.what}: {v.best} and {c.other} are {EQUAL}, within {_within(v)} "
                    f"without {v.carried_in}", below=below_equal)]] if _rest_equal(v) else []
    low, high, n = v.rest_span
    if equal and n >= 3 and high - low < ALL_WITHIN:  # every one alike on the rest: the bars' gap said with it
        span = _span(low, high, metric)
        bars = f"{v.best} leads the bars{THROUGH}, by {size}"
        whole = [m for h, m in v.averages if h not in {r.label for r in v.references} and math.isfinite(m)]
        if _tiny(c, v.kind) and whole:  # a hair's lead in the bars is noise: every bar's span instead
            bars = f"{WITH_THEM}{_span(min(whole), max(whole), metric)}"
        equal.insert(0, [_Part(f"No clear winner on {v.what}: all {n} heuristics reach {span} without "
                               f"{v.carried_in}; {bars}", below=below_equal)])
        if near := near_bound(v):  # why none wins: every one near the most that rest can reach
            equal[:0] = [[_Part(f"No clear winner on {v.what}: without {v.carried_in}, all {n}{who} reach {span}, "
                                f"{near}; {bars}", below=below_equal)] for who in (" heuristics", "")]
    return [*equal, [_Part(f"{head}, all in {v.carried_in}; without them, {_rest_clause(v)}", below=below)],
            [_Part(f"{head} over {c.other}, all in {v.carried_in}", below=below)]]


def _span(low: float, high: float, metric: Metric) -> str:
    """Means from ``low`` to ``high`` as a lead says them: "87.0–87.1%", "87.2%" where they read the same."""
    if metric.unit != "%":
        return _between(low, high, metric)
    return f"{low:.1f}%" if f"{low:.1f}" == f"{high:.1f}" else f"{low:.1f}–{high:.1f}%"


def near_bound(v: Verdict) -> str:
    """Where every online heuristic's mean on the rest (:attr:`Verdict.rest_span`) lies within :data:`ALL_WITHIN` of
    the most it can reach (:attr:`Verdict.rest_bound`), that most: "near the most possible, 87.2%" (Kim et al.'s
    later tasks: every heuristic earns nearly all a true bound allows, so none can win on them; a tryout asked why
    none wins, and another read "within 0.2 points of the most possible" against the chart's 100% line); ""
    otherwise."""
    low, high, n = v.rest_span
    if not n or not math.isfinite(v.rest_bound):
        return ""
    far = max(abs(v.rest_bound - low), abs(v.rest_bound - high))
    if far >= ALL_WITHIN:
        return ""
    if _span(low, high, _PERCENT) == _bound_value(v) and v.unit == "%":  # "reach 87.2%, the most possible"
        return MOST
    return f"near {MOST}, {_bound_value(v)}"


MOST = "the most possible"  # every heuristic near the bound of the rest (:func:`near_bound`)
_PERCENT = Metric("", "", "%")


def _bound_value(v: Verdict) -> str:
    """The bound of the rest as a lead says a value: "87.2%"."""
    return f"{v.rest_bound:.1f}%" if v.unit == "%" else amount_text(v.rest_bound)


def _bound_sentence(v: Verdict, metric: Metric) -> str:
    """What the bound a lead is near (:func:`near_bound`) is, against the yardstick's 100% a chart draws: "87.2% is the
    most the other tasks can reach, whatever the schedule; the upper bound's 100% also counts the start-up tasks in
    full." (three ceilings on one page read as a contradiction to a tryout)."""
    yard = of_what(metric).removeprefix(" of ")
    full = f"; {yard}'s 100% also counts the {v.carried_in} in full" if yard and v.unit == "%" else ""
    return f"{_bound_value(v)} is the most the other tasks can reach, whatever the schedule{full}."


def _rest_sentence(v: Verdict, total: int) -> str:
    """The best and the runner-up compared on the rest of the metric, where the best's lead is all in one part
    (:func:`_carried`), said right under the lead: "Without tasks that arrive before scoring starts, switching is ahead
    by only 0.06 points: real, but tiny (95% interval: 0.02–0.09 points above)."; "" otherwise."""
    if v.rest is None:
        return ""
    c, r = v.comparisons[0], v.rest
    on_rest = f"Without {v.carried_in}, "
    if not r.told_apart:
        if max(abs(r.lower), abs(r.upper)) < 0.01:  # never "0.00064 points below and 0.00021 points above"
            return f"{on_rest}{v.best} and {c.other} are not told apart ({_ci(r, total)}: within 0.01" \
                   f"{' points' if v.kind == 'points' else '%'} either way)."
        return f"{on_rest}{v.best} and {c.other} are not told apart ({_ci(r, total)}: {v.best} {_range(r, v.kind)} " \
               f"{c.other})."
    turned = dataclasses.replace(r, other=v.best, difference=-r.difference, lower=-r.upper, upper=-r.lower,
                                 means=r.means[::-1])  # the runner-up ahead: said from its side
    digits = _digits(turned, v.kind)
    only = "only " if _tiny(turned, v.kind) else ""  # under the lead's "No clear winner": a hair, not a win
    return (f"{on_rest}{c.other} is ahead by {only}{size_text(turned.difference, v.kind, digits)}: "
            f"{_real(turned, v.kind)} ({_ci(turned, total)}: {_range(turned, v.kind, digits)}).")


def _role(c: Comparison) -> str:
    return "the benchmark " if c.role == "benchmark" else ""


def _unranked_note(v: Verdict, metric: Metric) -> list[str]:
    """"The mean makespan of mct and met is infinite (an overflow), so they are not ranked: an infinite mean cannot
    win."; none when every mean is finite."""
    if not v.unranked:
        return []
    return [f"The mean {metric_words(metric)} of {listed(v.unranked)} is infinite (an overflow), so "
            f"{'it is' if len(v.unranked) == 1 else 'they are'} not ranked: an infinite mean cannot win."]


SMALL = 0.01  # a real difference under this share of the other's mean is said to be tiny
MODEST = 0.02  # ... and under this one, small ("a 1.3% win" read as a big one beside "a real difference")


def is_small(difference: float, kind: str, other: float, under: float = SMALL) -> bool:
    """Whether a difference (percent or points, ``kind``) is under ``under`` (:data:`SMALL`) of the value ``other``
    it is against (a percent difference: under 1%; points: under 1% of ``other``, in points too)."""
    share = abs(difference) / 100 if kind == "percent" else abs(difference) / abs(other)
    return share < under


def small_words() -> str:
    """How a real difference under :data:`SMALL` of its value is said: real, and tiny (its size is said beside it;
    "under 1% of its value" read as close to 1% for a gap twenty times smaller)."""
    return "real, but tiny"


def _tiny(c: Comparison, kind: str, under: float = SMALL) -> bool:
    """Whether ``c`` is told apart but under ``under`` (:data:`SMALL`) of the other's value (:func:`is_small`)."""
    other = c.means[1] * c.scale
    return c.told_apart and (kind == "percent" or other != 0) and is_small(c.difference, kind, other, under)


def by_a_hair(v: Verdict) -> str | None:
    """The size of a real difference between the best and its runner-up under :data:`SMALL` of its value, as the
    lead says it (:func:`_tiny`: "0.04 points" in "0.04 points above slack-sufferage: real, but tiny"); None where it
    is not that small."""
    if not (v.separated and v.comparisons and _tiny(v.comparisons[0], v.kind)):
        return None
    c = v.comparisons[0]
    return size_text(c.difference, v.kind, _digits(c, v.kind))


def margin_words(v: Verdict) -> str:
    """The best's real lead over the runner-up as a lead says it: "8.4% below min-min", "0.04 points above
    slack-sufferage"; "" where the two are not told apart (or the lead is all in one part, :func:`_carried`)."""
    if not v.separated or v.carried_in:
        return ""
    c = v.comparisons[0]
    return f"{size_text(c.difference, v.kind, _digits(c, v.kind))} {_side(c.difference)} {c.other}"


def _digits(c: Comparison, kind: str) -> int | None:
    """The decimals a tiny difference (:func:`_tiny`) and its interval are all said with, its first significant digit
    the last ("0.04 points ... 0.02–0.10 points above", never "0.037 ... 0.016 to 0.1"); None for any other."""
    if not _tiny(c, kind) or c.difference == 0:
        return None
    return max(-math.floor(math.log10(abs(c.difference))), 0 if abs(c.difference) >= 10 else 1)


def _real(c: Comparison, kind: str) -> str:
    """"a real difference"; under :data:`SMALL` of the other's value "real, but tiny", and under :data:`MODEST`
    "real, but small" (a tryout read sufferage's 1.3% lead, "a real difference", as a big win)."""
    if _tiny(c, kind):
        return small_words()
    return "real, but small" if _tiny(c, kind, MODEST) else "a real difference"


def _reference_against(c: Comparison, name: str, kind: str, total: int) -> str:
    """How a reference compares with ``name``, short: "5.0 points above A (95% interval: 4.7–5.3 points above)"
    (told apart, so its interval says how sure), "about the same as A" (a real difference under 1% of A's value: a
    manager reads "about the same", and the size is on the chart), "not told apart from A"."""
    if c.trials < 2 or _equal(c):
        return _against(c, "", name, kind, total)
    if not c.told_apart:
        return f"not told apart from {name}"
    if _tiny(c, kind):
        return f"about the same as {name}"
    return f"{size_text(c.difference, kind)} {_side(c.difference)} {name} ({_ci(c, total)}: {_range(c, kind)})"


def _reference_sentence(v: Verdict, metric: Metric, total: int) -> str:
    """What the references are, then a sentence per reference against the best heuristic that can run online (the
    lead's), each at most :data:`LEAD_WORDS` words where the names allow: "For reference, not contenders: ga and tpsa,
    each an offline search that knows every task in advance, as no live scheduler can. ga reaches 95.7% of the upper
    bound, 4.3 points above slack-sufferage (95% interval: 4.0–4.6 points above). tpsa reaches 91.3%, about the same as
    slack-sufferage."; a lead all in one part says so, its interval left to the chart: "ga reaches 95.9% of the upper
    bound, 4.3 points above max-min, but all in tasks that arrive before scoring starts."
    (:func:`_references_carried`)."""
    if not v.references:
        return ""
    whats = list(dict.fromkeys(r.what for r in v.references))
    labels = [r.label for r in v.references]
    if len(labels) == 1:
        head = f"For reference, not a contender: {labels[0]}, {whats[0]}."
    elif len(whats) == 1:
        head = f"For reference, not contenders: {listed(labels)}, each {whats[0]}."
    else:
        head = f"For reference, not contenders: {'; '.join(f'{r.label}, {r.what}' for r in v.references)}."
    sentences = [head]
    for r in v.references:
        value = _at(r.mean, metric) if len(sentences) == 1 else readable(r.mean, metric)  # the unit said once
        said = f"{'It' if len(labels) == 1 else r.label} reaches {value}"
        if r.versus is not None and r.carried_in and not _tiny(r.versus, v.kind):  # its lead said with where it is,
            # the interval on the chart; a hair is "about the same" however it is carried
            said += f", {size_text(r.versus.difference, v.kind)} {_side(r.versus.difference)} {r.versus.other}, " \
                    f"but all in {r.carried_in}"
        elif r.versus is not None:
            said += ", " + _reference_against(r.versus, r.versus.other, v.kind, total)
        sentences.append(f"{said}.")
    return " ".join(sentences)


# --- the verdicts ------------------------------------------------------------------------------------------------

def _one_row_each(results: pd.DataFrame) -> pd.DataFrame:
    """The results, checked to have one row per trial and heuristic (a verdict of doubled rows would mislead)."""
    if {"trial", "heuristic"} <= set(results.columns) and results.duplicated(["trial", "heuristic"]).any():
        raise HcschedError("results: a heuristic appears twice in one trial; allowed: one row per trial and heuristic")
    return results


def _decide(results: pd.DataFrame, metric: Metric, benchmark: str | None, references: Mapping[str, str]) -> dict:
    """A :class:`Verdict`'s fields of one metric but its words: the best heuristic that can run online and how it
    compares; the references beside it."""
    if metric.better not in ("lower", "higher"):
        return {"best": None, "best_mean": math.nan, "comparisons": (), "note": NEITHER}
    table = wide(_one_row_each(results), metric.name)
    means = _means(table)
    refs = [h for h in table.columns if h in references]
    online = table.drop(columns=refs)
    ranking = _ranking(online, metric.better, means)
    best, mean = ranking[0] if ranking else (None, math.nan)
    shown = tuple(Reference(h, references[h], m, None if best is None else
                            _compare(table, h, best, "best online", metric, means))
                  for h, m in _ranking(table[refs], metric.better, means))
    out = {"best": best, "best_mean": mean, "comparisons": (), "note": "", "references": shown,
           "averages": tuple((h, float(m)) for h, m in means.items()),
           "best_interval": (math.nan, math.nan) if best is None else tuple(mean_ci(table[best])[1:])}
    if best is None:
        out["note"] = "no heuristic here can run online, only references" if online.shape[1] == 0 else \
            "no finite values" if _unranked(online, metric.better, means) else "no values (every trial is NaN)"
        return out
    rest = [h for h, _ in ranking[1:]]
    if not rest:
        only = "the only heuristic" + (" that can run online" if refs else "")
        out["note"] = (only if online.shape[1] == 1 else only + " with values") + ", nothing to compare"
        return out
    against = [_compare(table, best, h, "benchmark" if h == benchmark else "other", metric, means) for h in rest]
    comps = [dataclasses.replace(against[0], role="runner-up")]
    if benchmark in rest[1:]:
        comps.append(against[rest.index(benchmark)])
    tied = tuple(c for c in against if c.trials > 1 and not c.separated)
    group = [best] + [c.other for c in tied]
    versus = () if not tied or benchmark not in rest or benchmark in group else \
        tuple((h, _compare(table, h, benchmark, "benchmark", metric, means)) for h in group)
    each = () if not gain_of(metric) or benchmark not in rest else \
        tuple((h, _compare(table, h, benchmark, "benchmark", metric, means)) for h, _ in ranking if h != benchmark)
    after = next((h for h in rest if h not in group and h != benchmark), None) if versus else None
    following = () if after is None else ((after, _compare(table, after, benchmark, "benchmark", metric, means)),
                                          (best, _compare(table, after, best, "other", metric, means)))
    return {**out, "comparisons": tuple(comps), "tied": tied, "behind": tuple(c.other for c in against if c.told_apart),
            "group_benchmark": versus, "versus_benchmark": each, "next_benchmark": following}


def verdict(results: pd.DataFrame, metric: Metric, benchmark: str | None = None,
            references: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None,
            shorts: Mapping[str, str] | None = None, parts: Collection[Metric] = ()) -> Verdict:
    """The verdict of one metric of a results table (one row per trial and heuristic). ``benchmark``: a heuristic label
    compared with too when it is neither the best nor the runner-up. ``references``: labels of heuristics that cannot
    run online, with what each is in words (:func:`scenario_references`); they are never crowned. ``names``: label ->
    plain words, said where a label is first mentioned (:func:`named_once`); ``shorts``: label -> its short form,
    said where it is mentioned again (:func:`shortened`). Its lead sentence (``text``) is at most
    :data:`LEAD_WORDS` words where the names allow; what does not fit is in ``detail``. The metric's gloss
    (:attr:`Metric.gloss`) is said where the lead first says the metric, else first below it where it would not fit.
    ``parts``: metrics that are a part of another (:attr:`Metric.part_of`); where the best's lead is all in one of
    them, the lead says so and crowns no real win (:func:`_carried`)."""
    references, names, shorts = dict(references or {}), dict(names or {}), dict(shorts or {})
    unranked = ()
    if metric.better in ("lower", "higher"):
        table = wide(results, metric.name)
        unranked = _unranked(table.drop(columns=[h for h in table.columns if h in references]), metric.better,
                             _means(table))
    v = Verdict(metric=metric.name, title=headline_title(metric), better=metric.better, kind=difference_kind(metric),
                text="", benchmark=benchmark, unranked=unranked, what=metric_words(metric), unit=metric.unit,
                in_times=said_in_times(metric), names=tuple(names.items()),
                **_decide(results, metric, benchmark, references))
    total = int(results["trial"].nunique()) if "trial" in results else 0
    v = dataclasses.replace(v, gain_of=gain_of(metric), **_carried(results, metric, v, parts),
                            **_references_carried(results, metric, v, parts))
    glosses = {v.glossed: metric.gloss}
    lead, detail = _fit(*_candidates(v, metric, total), names, glosses, shorts)
    plain_lead, plain_detail = _fit(*_candidates(v, metric, total), names, {}, shorts) if metric.gloss else \
        (lead, detail)
    gloss_text = ""
    if metric.gloss and (lead != plain_lead or _named_words(lead, names, glosses, shorts) > LEAD_WORDS):
        # the gloss would push out of the lead what it says without it (the interval, a name): said beside the lead
        gloss_text = f"{v.glossed[:1].upper()}{v.glossed[1:]}: {metric.gloss}."
        lead, detail, glosses = plain_lead, plain_detail, {}
    part = next((p for p in parts if p.gloss and part_words(p, v.what) == v.carried_in), None) \
        if v.carried_in and v.carried_in in lead else None
    if part is not None:  # the part the lead turns on, in plain words beside it ("Start-up tasks: they arrive before
        # scoring starts, ..."): a tryout asked why tasks before scoring count at all
        counted = f" The {v.what} counts them, hence {v.best}'s lead in the bars; on the other tasks it is no " \
            "better than the rest." if THROUGH in lead else ""  # a tryout read the lead against the chart's score
        counted += f" {_bound_sentence(v, metric)}" if MOST in lead else ""
        gloss_text = " ".join(x for x in (gloss_text, f"{v.carried_in[:1].upper()}{v.carried_in[1:]}: {part.gloss}."
                                          f"{counted}") if x)
    after = _next_sentence(v, total)
    if v.carried_in and (EQUAL in lead or THROUGH in lead or f"; {WITH_THEM}" in lead):  # the lead gives the answer;
        # how the rest compares folds with the figures
        detail, after = " ".join(x for x in (detail, after) if x), ""
    following = after or _worst_sentence(v, metric)
    # the next after a tie, or the rest the lead already said: under "More on this answer" beside an "In short" line
    folds = bool(after) and (not v.carried_in or _rest_clause(v) in lead)
    said = _said([lead, following, detail, _reference_sentence(v, metric, total)], names, glosses)
    text, next_text, detail, reference_text = (shortened(line, shorts) for line in said)
    v = dataclasses.replace(v, bare=tuple(dict.fromkeys(m.group(1) for m in _BARE.finditer(lead))))
    best_text = "" if v.best is None else _at(v.best_mean, metric)
    return dataclasses.replace(v, text=text, next_text=next_text, detail=detail, reference_text=reference_text,
                               gloss=metric.gloss, next_folds=folds,
                               connector=_connector(metric), best_text=best_text, shorts=tuple(shorts.items()),
                               gloss_text=gloss_text, trade=_trade(v, metric), trade_beside=metric.trade_beside,
                               trade_values=tuple((h, _trade_value(m, metric)) for h, m in v.averages
                                                  if metric.trade and math.isfinite(m)))


def _worst_sentence(v: Verdict, metric: Metric) -> str:
    """Where no benchmark is compared (a model that normalises to none), how much the choice matters: the clearly
    worst heuristic, where it is not the runner-up the lead names and it averages 1.5 times the best's or more (a
    metric where lower is better), "The worst, mct, averages 20.6 tasks: 4.0 times as many." (Al-Azzoni and Down's
    system B: the lead compared LPAS with KPB, 8% apart, and left MCT's fourfold backlog to the bars); ""
    otherwise."""
    if v.benchmark is not None or not v.behind or v.best is None:
        return ""
    worst = v.behind[-1]
    mean = dict(v.averages).get(worst, math.nan)
    if (v.comparisons and worst == v.comparisons[0].other) or not math.isfinite(mean) \
            or not _ratio(v, worst) >= TIMES_AS:
        return ""
    return f"The worst, {worst}, averages {_at(mean, metric)}: {_cost(v, worst)}."


def _trade(v: Verdict, metric: Metric) -> str:
    """The best's win in its metric's own words for a line below another lead (:attr:`Metric.trade`: "sends fewer
    messages: when a task arrives, it skips the load check on half of the machines"), "" where the metric has none or
    nothing is best."""
    if not metric.trade or v.best is None or not math.isfinite(v.best_mean):
        return ""
    return metric.trade.format(_trade_value(v.best_mean, metric))


def _trade_value(x: float, metric: Metric) -> str:
    """A value as :attr:`Metric.trade` says it: "half", "73%" (never "73.0%" in words), "12 tasks"."""
    if metric.unit == "%":
        value = share_words(x / 100, "")
    elif is_fraction(metric) and abs(x) >= 0.1:  # "off by 73%" in a line, whole: never 73.1% as a run
        value = f"{x:.0%}"  # goes on and 73% once it ends
    else:
        value = said_value(x, metric)
    return re.sub(r"\.0(?=%)", "", value)


def _traded(v: Verdict, label: str) -> str:
    """A trade clause (:attr:`Verdict.trade`) sized against ``label``, the lead's winner, by its own value: "... it
    skips the load check on half of the machines, while lpas skips only 19% of them" (a manager could not tell whether
    the messages matter) as the metric says it beside (:attr:`Metric.trade_beside`), else in brackets, the clause's
    own where it ends with one ("(lpas: only 19%)"); the clause as it is without a value of ``label``."""
    said = dict(v.trade_values).get(label, "")
    if not (said and v.trade and label != v.best):
        return v.trade
    if v.better == "higher":  # less of what the trade's winner has more of
        said = "none" if said == "0%" else f"only {said}"
    if v.trade_beside:  # in the metric's own words: "..., while lpas skips only 19% of them"
        return f"{v.trade}, {v.trade_beside.replace('{label}', label).format(said)}"
    if v.trade.endswith(")"):  # its own brackets hold it: never ") ("
        return f"{v.trade[:-1]}; {label}: {said})"
    return f"{v.trade} ({label}: {said})"


def plain_name(title: str) -> str:
    """A heuristic's name for a sentence: its registry title without its parameters' description, a closing remark
    after a comma ("Genetic algorithm (static)": Genetic algorithm, static; "Min perturbation, mass decreasing
    (running)": ..., running; "K-percent best; kbar = 1: ...": K-percent best), so that no parentheses nest."""
    return re.sub(r"\s*\(([^()]*)\)$", r", \1", title.split(";")[0]).strip()


def _same_name(name: str, label: str) -> bool:
    """Whether a name only repeats a label ("Min-min", "LPAS-2/k", "NetSolve MCT" for netsolve-mct), or its initials
    with "algorithm" ("Switching Algorithm" for switching or sa)."""
    bare = re.sub(r"[\W_]", "", name.lower())
    said = re.sub(r"[\W_]", "", label.lower())
    words = re.sub(r"\s+algorithm$", "", name.strip(), flags=re.IGNORECASE)
    initials = "".join(w[0] for w in re.split(r"[\s-]+", name.strip()) if w).lower()
    return bare == said or re.sub(r"[\W_]", "", words.lower()) == said or (words != name.strip() and initials == said)


def heuristic_words(label: str, model: str | None = None) -> str:
    """A heuristic's plain words for a sentence: the words its model's charts say under its name where they have
    some (:func:`_chart_words`), else its registry title (:func:`plain_name`: "mct": Minimum completion
    time), or, where that only repeats its name, :data:`PLAIN_WORDS`' ("sufferage": task that would suffer most
    first), then the parameters the label names: in words where the heuristic has them (its ``label_words``: "mct
    (ties=random)": Minimum completion time, ties broken at random; alone where they say its whole rule, "kpb
    (kbar=1)": each class's fastest machine), else as the label writes them ("K-percent best;
    kbar=1"); "" for a label of one's own."""
    name, params = label_parts(label)
    title = _in_sentence(plain_name(heuristic_title(label, model)))
    words = PLAIN_WORDS.get((model, name), title) if title and _same_name(title, name) else title
    words = _chart_words(name, model) or words
    written = re.fullmatch(r"(.*?)(?: \((.*)\))?", str(label)).group(2)
    if not words or not written:
        return words
    said = _params_words(name, params, model)
    if said and _params_say_rule(name, model):
        return said
    return f"{words}, {said}" if said else f"{words}; {written}"


def _in_sentence(title: str) -> str:
    """A title as words inside a sentence: its first word in lower case where only its capital makes it a title
    ("Round robin": round robin, "Two-phase simulated annealing": two-phase ...); a name or an acronym kept ("K-percent
    best", "LP rounding", "Guided-LPAS ...", "NetSolve MCT", "Kim's ...")."""
    return re.sub(r"^[A-Z][a-z]+(?=-[a-z]|[\s,;]|$)", lambda m: m.group(0).lower(), title)


def _params_say_rule(name: str, model: str | None) -> bool:
    """Whether a heuristic's parameters' words say its whole rule, so they name it alone (its ``params_say_rule``:
    KPB's "each class's fastest machine", never "each class's fastest machine")."""
    try:
        return bool(getattr(get_heuristic(name, model), "params_say_rule", False))
    except HcschedError:
        return False


def _chart_words(name: str, model: str | None) -> str:
    """A heuristic's rule in the few words its model's charts write under its name (its ``short_words``: the
    timeshared model's "earliest last finish on a server" for mmc), so that a line and a chart say one thing; ""
    where it has none."""
    try:
        return getattr(get_heuristic(name, model), "short_words", "") or ""
    except HcschedError:
        return ""


def _params_words(name: str, params: dict[str, str], model: str | None) -> str:
    """The heuristic's own words for a label's parameters in a results line (its ``lead_words``, short and without a
    symbol, where it has them, else its ``label_words``), "" where it has none."""
    try:
        found = get_heuristic(name, model)
        own = getattr(found, "lead_words", None) or getattr(found, "label_words", None)
    except HcschedError:
        return ""
    return own(params) if own is not None and params else ""


def run_words(labels: list[str], model: str | None = None) -> dict[str, str]:
    """Each label's plain words in a run's lines (:func:`heuristic_words`), told apart from its namesakes
    (:func:`told_apart`): "largest estimate error first, error weighted in full" for "fz" beside "fz (beta=0.1)"."""
    return {label: heuristic_words(shown, model) for label, shown in told_apart(labels, model).items()}


def short_words(label: str, model: str | None = None) -> str:
    """A label written with its parameters as a line names it again once its words were said: its heuristic's short
    form of them (its ``label_short``: "fz (beta=0.1)": "fz (error weighted a tenth)"), never the raw keys; "" where
    it has none (a label without parameters, a plug-in's, a model whose page says its labels itself: the classes
    page's)."""
    name, params = label_parts(label)
    base = re.fullmatch(r"(.*?)(?: \((.*)\))?", str(label)).group(1)
    try:
        own = getattr(get_heuristic(name, model), "label_short", None) if params else None
    except HcschedError:
        return ""
    said = own(params) if own is not None else ""
    return f"{base} ({said})" if said else ""


def again_names(labels: list[str], model: str | None = None) -> dict[str, str]:
    """How a line says each label written with its parameters where it is mentioned again, after its words: its
    short form (:func:`short_words`: "fz (error weighted a tenth)"), else its name alone where no other label of
    ``labels`` has that name ("kpb" for "kpb (kbar=1)": "But kpb never asks ..."); a label that needs neither is left
    out."""
    names = Counter(label_parts(label)[0] for label in labels)
    out = {}
    for label in labels:
        name, params = label_parts(label)
        again = short_words(label, model) or (name if params and names[name] == 1 else "")
        if again:
            out[label] = again
    return out


def shortened(text: str, shorts: Mapping[str, str]) -> str:
    """``text`` with each label written with its parameters, where it is mentioned again, in its short form
    (:func:`short_words`; ``shorts``: label -> short form): "fz (error weighted a tenth)" for "fz (beta=0.1)"."""
    for label, short in shorts.items():
        text = re.sub(r"(?<![\w-])" + re.escape(label) + r"(?![\w-])", lambda _m, short=short: short, text)
    return text


def _named_form(label: str, name: str) -> str:
    """"la (load balance)"; "kpb (K-percent best; kbar=1)" for the label "kpb (kbar=1)" and the name "K-percent best;
    kbar=1" (:func:`heuristic_words`: the name says the parameters; never two brackets in a row)."""
    base, params = re.fullmatch(r"(.*?)(?: \((.*)\))?", label).groups()
    return f"{base} ({name})" if params else f"{label} ({name})"


def in_words(label: str, model: str | None = None) -> str:
    """A heuristic's label with its plain words beside it, as a headline first names it: "mct (minimum completion
    time)", "kpb (K-percent best; kbar=1)"; the label alone where its words only repeat it."""
    return named_once([label], {label: heuristic_words(label, model)})[0]


def each_in_words(labels: list[str], model: str | None = None) -> list[str]:
    """A run's heuristics, each with its plain words beside it and told apart from its namesakes (:func:`run_words`):
    "fz (largest estimate error first, error weighted in full)" beside "fz (largest estimate error first, error
    weighted a tenth)", never "fz (largest estimate error first)" for both."""
    words = run_words(labels, model)
    return [named_once([label], {label: words[label]})[0] for label in labels]


def named_once(lines: list[str], names: Mapping[str, str], skip: Collection[str] = (),
               bracketed: bool = False) -> list[str]:
    """Each heuristic's plain words beside its label where the lines first mention it (:func:`_named_form`); a label
    already named there, or whose name only repeats it (a plug-in's "Mine" for mine), stays as it is. ``names``: label
    -> plain words; ``skip``: labels left as they are (named in a line before these). A label is matched whole, never
    inside another ("mp" within "mp-load", "kpb" within "kpb (k=10)"), nor alone in brackets ("91.4% (max-min)",
    never "(max-min (latest-finishing task first))") unless ``bracketed``."""
    forms = {label: _named_form(label, name) for label, name in names.items()
             if name and label not in skip and not _same_name(name, label_parts(label)[0])
             and not _same_name(name, label)}
    found = {}
    for label, form in forms.items():
        pattern = re.compile(r"(?<![\w-])(?:" + re.escape(form) + "|" + re.escape(label) + r")(?![\w-])")
        longer = [x for other in names if other != label and other.startswith(label)
                  for x in (other, forms.get(other, other))]
        for k, line in enumerate(lines):
            m = next((m for m in pattern.finditer(line)
                      if not any(line.startswith(other, m.start()) for other in longer)
                      and (bracketed or line[m.start() - 1:m.start()] + line[m.end():m.end() + 1] != "()")), None)
            if m is not None:
                found[label] = (k, m.start(), m.end(), form if m.group(0) != form else m.group(0))
                break
    out = list(lines)
    for k, start, end, form in sorted(found.values(), key=lambda x: (x[0], -x[1])):
        out[k] = out[k][:start] + form + out[k][end:]
    return out


def sentence_opening(text: str, model: str | None = None) -> str:
    """``text`` begun as a sentence is (:func:`~hcsched.formatting.sentence_start`: "Sufferage (...) has ..."), but a
    heuristic's label whose name the papers write in capitals, at its start, as the charts and the rest of the page
    write it ("lpas (earliest finish ...) has ...", "mp-load", "hmct"; never "Lpas", which reads as a word misspelt,
    nor "LPAS" beside "lpas" in the next sentence, which a tryout read as two names): a name whose registry title
    does not begin with it as a word ("LP-based affinity scheduling", "FA: earliest ...")."""
    head = re.match(r"[a-z][a-z0-9-]*", text)
    if head is None:
        return sentence_start(text)
    first = head.group(0).split("-")[0]
    try:
        title = get_heuristic(head.group(0), model).title
    except HcschedError:
        return sentence_start(text)
    if title.startswith(first.upper()) or not title.lower().startswith(first):
        return text
    return sentence_start(text)


def said_bare(line: str, names: Mapping[str, str]) -> list[str]:
    """The labels of ``names`` that ``line`` first mentions without their words (where :func:`named_once` would name
    them)."""
    named = named_once([line], names, bracketed=True)[0]
    forms = {label: _named_form(label, name) for label, name in names.items()}
    return [label for label, form in forms.items() if form in named and form not in line]


def named_in(line: str, names: Mapping[str, str]) -> list[str]:
    """The labels of ``names`` that ``line`` says with their words."""
    return [label for label, name in names.items() if _named_form(label, name) in line]


def headline_metrics(metrics, columns) -> list[Metric]:
    """The metrics present in ``columns``, without a normalised duplicate whose raw metric is there, nor a ratio to a
    bound (``Metric.of``) whose metric is there (its verdict's sentence says how far from the bound)."""
    present = [m for m in metrics if m.name in columns]
    names = {m.name for m in present}
    return [m for m in present if not (m.name.startswith("normalized_") and m.name[len("normalized_"):] in names)
            and m.of not in names]


def verdicts(results: pd.DataFrame, metrics, benchmark: str | None = None,
             references: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None,
             shorts: Mapping[str, str] | None = None, parts: Collection[Metric] = ()) -> list[Verdict]:
    """One verdict per headline metric of ``metrics`` present in ``results``, but for a metric where neither way is
    better (nothing to crown).

    Parameters
    ----------
    results : pandas.DataFrame
        One row per trial and heuristic (:func:`hcsched.simulate`'s); a heuristic twice in a trial is refused.
    metrics : sequence of Metric
        The metrics to judge, e.g. a model's ``bar_metrics()``; a normalised duplicate or a ratio to a bound whose
        metric is there is left out (:func:`headline_metrics`).
    benchmark : str, optional
        A heuristic's label, compared with too when it is neither the best nor the runner-up.
    references : mapping of str to str, optional
        Labels of heuristics that cannot run online, each with what it is in words (:func:`scenario_references`):
        compared with the best on a line of their own, never crowned.
    names : mapping of str to str, optional
        Label to plain name, said where a label is first mentioned (:func:`named_once`).
    shorts : mapping of str to str, optional
        Label to its short form, said where a label written with its parameters is mentioned again
        (:func:`short_words`).
    parts : collection of Metric, optional
        Metrics that are a part of another (:attr:`Metric.part_of`), e.g. a model's ``metrics``: where the best's
        lead is all in one of them, the lead says so (:func:`_carried`).

    Returns
    -------
    list of Verdict
        In the order of ``metrics``.

    Raises
    ------
    HcschedError
        When a heuristic appears twice in one trial.
    """
    parts = [m for m in parts if m.part_of]
    return [verdict(results, m, benchmark, references, names, shorts, parts)
            for m in headline_metrics(metrics, results.columns) if m.better in ("lower", "higher")]


def scenario_benchmark(scenario: Scenario) -> str | None:
    """The scenario's benchmark label: as given, else the model's default if it is one of the heuristics; never one
    that cannot run online (it is a reference, compared on its own line)."""
    label = scenario.benchmark_label  # falls back to the first heuristic, which is no benchmark of the scenario's
    found = label if scenario.benchmark or label in get_model(scenario.model).benchmarks else None
    return None if found in scenario_references(scenario) else found


def bound_sentence(results: pd.DataFrame, metric: Metric, best: str, bound: str) -> str:
    """"min-min is 13.7% above the lower bound on average (95% interval: 12.1–15.3%): its makespan is at most that
    far from the best possible." ``bound``: the column of each trial's bound on ``metric`` (``Model.bound_columns``,
    a value no mapping beats); "" when it has no value."""
    rows = results[results["heuristic"] == best]
    if bound not in rows or not (rows[bound] > 0).any():
        return ""
    mean, lo, hi = (100 * (x - 1) for x in mean_ci((rows[metric.name] / rows[bound]).to_numpy(float)))
    interval = f" (95% interval: {lo:.1f}–{hi:.1f}%)" if np.isfinite(lo) else ""
    words = _lowered(metric.title)
    return (f"{best} is {mean:.1f}% above the lower bound on average{interval}: its {words} is at most "
            "that far from the best possible.")


def scenario_verdicts(scenario: Scenario, results: pd.DataFrame) -> list[Verdict]:
    """The verdicts of a scenario's results: who wins on each of its model's bar metrics, and whether it is real.

    The model's headline metric (:func:`headline_metric`) comes first, then its other bar metrics; the scenario's
    benchmark is compared too, its references (:func:`scenario_references`) never crowned; a metric with a bound
    (``Model.bound_columns``) says how far its best is from it (:func:`bound_sentence`).

    Parameters
    ----------
    scenario : Scenario
        The scenario the results are of: its model, heuristics and benchmark.
    results : pandas.DataFrame
        Its results, one row per trial and heuristic (:func:`hcsched.simulate`'s).

    Returns
    -------
    list of Verdict
        The headline metric's first; :func:`verdict_lines` gives the lines to show.
    """
    model = get_model(scenario.model)
    names = run_words([h.label for h in scenario.heuristics], scenario.model)
    shorts = again_names([h.label for h in scenario.heuristics], scenario.model)
    found = verdicts(results, model.bar_metrics(), scenario_benchmark(scenario), scenario_references(scenario), names,
                     shorts, model.metrics)
    by_name = {m.name: m for m in model.metrics}
    found = [dataclasses.replace(v, bound_text=bound_sentence(results, by_name[v.metric], v.best,
                                                              model.bound_columns[v.metric]))
             if v.best is not None and v.metric in model.bound_columns else v for v in found]
    lead = headline_metric(model).name
    return sorted(found, key=lambda v: v.metric != lead)  # stable: the others keep their order


def trade_off(verdicts_: list[Verdict]) -> str:
    """One line on what the lead verdict leaves out: the other metrics that another heuristic wins, told apart from
    its runner-up, each with its value ("But min-min has the lowest mean flow time at 3.4 hours (12,300 s) and the
    lowest max stretch at 37.8."; a gain against the benchmark as what it cuts, :func:`_gain_clause`), each
    heuristic in words where the lead sentence does not name it already (the lead's detail folds below the line, so a
    name said only there, or said bare in the lead, is said again); "" when none."""
    if not verdicts_ or verdicts_[0].best is None:
        return ""
    lead = verdicts_[0]
    others = _other_wins(verdicts_)
    glosses = {v.glossed: v.gloss for v in verdicts_}
    said = lambda line: shortened(_said([_masked(lead.text, lead.bare), line], dict(lead.names), glosses)[1],  # noqa: E731
                                  dict(lead.shorts))
    n = len(lead.behind)
    worse = f"The {_FEW[n]} clearly worse {'is' if n == 1 else 'are'} {listed(list(lead.behind))}" \
        if 0 < n < GROUP_SHOWN and worse_counted(n) in lead.text else ""  # a lead that only counted them
    among = [h for h in others if h in lead.behind] if "clearly worse" in lead.text and not lead.separated else []
    winner = lead.best if lead.separated else ""  # a trade sized beside the lead's winner's own, where there is one
    # no "But" for one the lead calls clearly worse
    chosen = []
    for best in among:
        line = f"{worse}; yet {best} {_clauses(others[best], winner)}." if worse else \
            f"Yet {best}, clearly worse on {lead.what}, {_clauses(others[best], winner)}."
        if worse and word_count(said(line)) > LEAD_WORDS:
            line = f"{worse}. Yet {best} {_clauses(others[best], winner)}."
        chosen.append(line)
        worse = ""
    chosen += [f"{worse}."] if worse else []
    for best, found in others.items():  # one sentence each, else a sentence a metric where it would be too long
        if best in among:
            continue
        joined = f"But {best} {_clauses(found, winner)}."
        if word_count(sentences(said(" ".join([*chosen, joined])))[-1]) > LEAD_WORDS:
            clauses = _clause_list(found, winner)
            joined = " ".join([f"But {best} {clauses[0]}."] + [f"It also {c}." for c in clauses[1:]])
        chosen.append(joined)
    chosen += _costs(lead, verdicts_[1:])
    return said(" ".join(chosen)) if chosen else ""


def _other_wins(verdicts_: list[Verdict]) -> dict[str, list[Verdict]]:
    """Another heuristic than the lead's best -> the other metrics it wins, told apart from its runner-up."""
    others = {}
    for v in verdicts_[1:]:
        if v.best is not None and v.best != verdicts_[0].best and v.separated:
            others.setdefault(v.best, []).append(v)
    return others


IN_SHORT = "In short: "  # how :func:`pick_line` opens: the Results page shows it as boldly as the lead


def pick_line(verdicts_: list[Verdict]) -> str:
    """The answer in one sentence where the lead alone is none, each heuristic by its label (named in words above
    it): a trade-off with one rival, a choice, "In short: sufferage's makespan is 8.4% lower, but min-min is the better
    all-round pick: sufferage's mean flow time is 2.2 times as long, ..." (:func:`_decided`); with more, "In short: A
    for makespan; B for mean flow time (A's is 25% higher); C for ..." (what the pick costs on each,
    :func:`_costs_lead`); winners tied,
    one of them losing on a gain against the benchmark (Caniou and Jeannot section 6.1), "In short: hmct for makespan
    (mmc is as good on it but raises total flow time by 2.4%); mp for total flow time."; no clear winner among many,
    the benchmark among them, "In short: none is clearly better than the benchmark fa on makespan; avoid lz and le,
    clearly worse."; the bars told apart only by a part of the metric in which every one is alike without it, "In
    short: any of the 8 will do; without start-up tasks, they are within 0.1 points of each other." (Kim et al.'s
    default preset); "" where the lead is the whole answer (one winner, nothing traded)."""
    if not verdicts_ or verdicts_[0].best is None:
        return ""
    lead = verdicts_[0]
    low, high, n = lead.rest_span
    if lead.carried_in and n >= 3 and high - low < ALL_WITHIN:  # the bars differ only in a part that earns no
        # schedule a lead (Kim et al.'s start-up tasks): a tryout asked which to pick, and read no answer
        return _after_lead(verdicts_, f"In short: any of the {n} will do; without {lead.carried_in}, they are within "
                                      f"{size_text(high - low, lead.kind)} of each other.")
    costs = _cost_pairs(lead, verdicts_[1:])
    if len(lead.tied) >= GROUP_SHOWN:
        c = next((c for c in lead.comparisons if c.other == lead.benchmark), None)
        if c is None or c.told_apart:
            return ""
        # what to do, not the best's margin that could be chance (a tryout read "fz is 6.9% lower per trial on
        # average, which could be chance" as crowning fz): the group is as good as the benchmark; the few worse, not
        avoid = f"; avoid {listed(list(lead.behind))}, clearly worse" if 0 < len(lead.behind) < GROUP_SHOWN else ""
        return _after_lead(verdicts_, f"In short: none is clearly better than the benchmark {lead.benchmark} on "
                                      f"{lead.what}{avoid}.")
    others = {h: found for h, v in _other_wins(verdicts_).items() if (found := [x for x in v if not x.trade])}
    winners = [lead.best, *(t.other for t in lead.tied)]
    clean = [h for h in winners if h not in {h for h, _, _ in costs}]
    if not others and (len(winners) == 1 or not costs or not clean):
        return ""
    pick = clean[0] if clean else lead.best
    cost = lambda v, c: _gain_words(v.gain_of, c.difference, None).removesuffix(" against the benchmark")  # noqa: E731
    why = [f"{h} is as good on it but {cost(v, c)}" for h, v, c in costs if h != pick] \
        if pick != lead.best or lead.tied else []
    if not why and len(others) == 1 and (decided := _decided(lead, pick, *next(iter(others.items())), verdicts_)):
        return _after_lead(verdicts_, decided)
    said = f"{pick} for {lead.glossed}" + (f" ({'; '.join(why)})" if why else "")
    said += "".join(f"; {best} for {listed([v.glossed + _costs_lead(v, lead.best) + _gain_beside(v) for v in found])}"
                    for best, found in others.items())
    return _after_lead(verdicts_, f"In short: {said}.")


def _after_lead(verdicts_: list[Verdict], line: str) -> str:
    """``line``, said under the lead, with each heuristic the lead does not name in words named at its first mention
    (the benchmark fa of "none is clearly better than the benchmark fa" was a code to a manager), and labels written
    with their parameters in their short form (:func:`_short_labels`)."""
    lead = verdicts_[0]
    return _short_labels(verdicts_, _said([_masked(lead.text, lead.bare), line], dict(lead.names), {})[1])


def _costs_lead(v: Verdict, label: str) -> str:
    """What picking ``label`` (the lead's winner) costs on ``v``'s metric, which another heuristic wins, sized by
    the averages: " (sufferage's is 2.2 times as long)" (the quickstart's mean flow time, 1.4 days against min-min's
    16 hours: a manager who picks sufferage doubles the average wait, and was not told), " (hmct's is 2.1% higher)",
    " (lpas's is 3.0 points lower)"; "" where an average is missing, and for a gain against the benchmark (its
    line says the gains)."""
    cost = _cost(v, label)
    return f" ({label}'s is {cost})" if cost else ""


def _gain_beside(v: Verdict) -> str:
    """A gain against the benchmark as a pick says it beside its metric: ", 2.1% below the benchmark's" (Caniou and
    Jeannot's total flow time: a tryout asked by how much "mp for total flow time" is better); "" for any other."""
    if not v.gain_of or not math.isfinite(v.best_mean):
        return ""
    return f", {amount_text(abs(v.best_mean))}% {'below' if v.best_mean >= 0 else 'above'} the benchmark's"


TIMES_AS = 1.5  # an average this many times the best's or more is said as "2.2 times as long"


def _ratio(v: Verdict, label: str) -> float:
    """``label``'s average over the best's, as :func:`_cost` sizes it; NaN where it says no ratio (a gain against
    the benchmark, a share said in points, an average missing or a best of 0)."""
    mine, best = dict(v.averages).get(label, math.nan), v.best_mean
    if v.gain_of or v.kind == "points" or not (math.isfinite(mine) and math.isfinite(best)) or best == 0:
        return math.nan
    return mine / best


_AS = {"s": "long", "time units": "long", "tasks": "many"}  # "2.2 times as long", "4.0 times as many", else "high"


def _cost(v: Verdict, label: str, of: str = "it") -> str:
    """:func:`_costs_lead`'s size alone: "2.2 times as long", "2.1% higher", "3.0 points lower", "40% of it" (``of``:
    what the share is of, "min-min's"); a value said in times many times the best's, both values ("1,588×, against
    min-min's 24×"); "" where :func:`_costs_lead` says nothing."""
    mine, best = dict(v.averages).get(label, math.nan), v.best_mean
    if v.gain_of or not (math.isfinite(mine) and math.isfinite(best)) or best == 0 or mine == best:
        return ""
    if v.kind == "points":  # a fraction's averages in points, as its lines say them
        gap = (mine - best) * (v.comparisons[0].scale if v.comparisons else 1.0)
        return f"{size_text(gap, 'points')} {'higher' if gap > 0 else 'lower'}"
    ratio = _ratio(v, label)
    if ratio >= TIMES_AS and v.in_times:  # "1,588×, against min-min's 24×": never "67 times as high", a ratio of
        # ratios a tryout could not read
        return f"{pair_number(mine)}×, against {v.best}'s {pair_number(best)}×"
    if ratio >= TIMES_AS:
        return f"{amount_text(ratio)} times as {_AS.get(v.unit, 'high')}"
    if 0 < ratio <= 2 / 3:
        return f"{amount_text(100 * ratio)}% of {of}"
    gap = 100.0 * (ratio - 1.0)
    return f"{size_text(gap, 'percent')} {'higher' if gap > 0 else 'lower'}"


def _decided(lead: Verdict, pick: str, best: str, found: list[Verdict], verdicts_: list[Verdict]) -> str:
    """A trade-off with one rival said as a choice, "In short: sufferage's makespan is 8.4% lower, but min-min is the
    better all-round pick: sufferage's mean flow time is 2.2 times as long, its max stretch (the worst task's
    slowdown) 2,527×, against min-min's 38×" (the manager asked which to pick, not only who wins what; "pick
    sufferage only if ..." and "sufferage wins only on makespan; min-min is the better all-rounder" read as taking
    the lead's win back: the win sized first, then the pick and why), "min-min wins on mean flow time" where the
    rival does not win every other metric (``verdicts_``: all of them), each cost's metric glossed where the line
    still fits in :data:`LEAD_WORDS`; "" where a cost is not sized (:func:`_cost`)."""
    costs = [(v, _cost(v, pick, f"{best}'s")) for v in found]
    if not costs or not all(c for _, c in costs):
        return ""
    won = f"{pick} wins only on {lead.what}, but"
    rounder = f"{best} is the better all-round pick" if len(found) == len(verdicts_) - 1 else \
        f"{best} wins on {listed([v.what for v in found])}"
    choice, whose = f"In short: {won} {rounder}: ", f"{pick}'s"
    if pick == lead.best and lead.separated and not lead.carried_in:  # the pick first, then the win sized and what
        # it costs (a tryout read the lead's winner and a pick of another as two answers)
        c = lead.comparisons[0]
        choice = f"In short: {rounder}; {pick}'s {lead.what} is " \
                 f"{size_text(c.difference, lead.kind, _digits(c, lead.kind))} " \
                 f"{'lower' if c.difference < 0 else 'higher'}, but "
        whose = "its"
    elif pick == lead.best and not lead.separated:  # never "wins" where the lead crowns no one
        choice = f"In short: no clear winner on {lead.what}, and {rounder}: "
    forms = []
    for most in (math.inf, 4, 0):  # each gloss, then the short ones ("the worst task's slowdown"), then none
        said = [f"{v.what} ({v.gloss})" if v.gloss and v.gloss != v.what and word_count(v.gloss) <= most else v.what
                for v, _ in costs]
        parts = [f"{whose} {said[0]} is {costs[0][1]}", *(f"its {w} {c}" for w, (_, c) in zip(said[1:], costs[1:],
                                                                                             strict=True))]
        forms.append(choice + ", ".join(parts) + ".")
    return next((x for x in forms if word_count(_after_lead(verdicts_, x)) <= LEAD_WORDS), forms[-1])  # as shown


def _short_labels(verdicts_: list[Verdict], line: str) -> str:
    """``line`` with each label written with its parameters in its short form ("fz (error weighted a tenth)", never
    "fz (beta=0.1)", :func:`short_words`)."""
    return shortened(line, {k: v for x in verdicts_ for k, v in x.shorts})


def sentences(text: str) -> list[str]:
    """The sentences of ``text``: split after a full stop, a question or an exclamation mark and a space."""
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def _clause_list(found: list[Verdict], lead: str = "") -> list[str]:
    """What one heuristic wins, a clause each: "has the lowest mean flow time at 12,300 s", then the metrics it wins
    that say so in their own words (:attr:`Verdict.trade`), then the gains against the benchmark it wins
    (:func:`_gain_clause`); ``lead``: the lead's winner, beside whose value a trade clause is sized
    (:func:`_traded`)."""
    has = [f"has {_has_clause(v)}" for v in found if not _gain_clause(v) and not v.trade]
    own = [_traded(v, lead) for v in found if v.trade and not _gain_clause(v)]
    return has + own + [_gain_clause(v) for v in found if _gain_clause(v)]


def _clauses(found: list[Verdict], lead: str = "") -> str:
    """What one heuristic wins in one clause: "has the lowest mean flow time at 12,300 s and the lowest max stretch at
    37.8", then its other clauses (:func:`_clause_list`, ``lead`` as there)."""
    has = [_has_clause(v) for v in found if not _gain_clause(v) and not v.trade]
    return listed(([f"has {listed(has)}"] if has else []) + _clause_list(found, lead)[len(has):])


def _has_clause(v: Verdict) -> str:
    """"the lowest mean flow time at 3.4 hours (12,300 s)"; a percent of tasks as a share of them."""
    at = f"{v.connector} {v.best_text}" if v.best_text else ""
    what = v.what or _lowered(v.title)
    if what.startswith("tasks ") and at.endswith("%"):  # a percent of tasks: "the highest share of tasks ..."
        what = f"share of {what}"
    return f"the {_superlative(v)} {what}{at}"


def _gain_clause(v: Verdict) -> str:
    """A gain against the benchmark (Caniou and Jeannot section 6.1) as what it does to its metric, said once, with
    whether it is real, trial by trial, and its 95% interval on its side: "cuts total flow time by 2.1% against the
    benchmark: a real difference (95% interval: 1.9–2.2% below)"; "" for a metric that is no gain."""
    c = next((c for c in v.comparisons if c.other == v.benchmark), None)
    if not v.gain_of or not math.isfinite(v.best_mean):
        return ""
    return _gain_words(v.gain_of, v.best_mean, c)


def _gain_words(of: str, gain: float, c: Comparison | None) -> str:
    """What a mean ``gain`` against the benchmark does to the metric ``of``, and ``c``, its comparison with the
    benchmark trial by trial: "cuts total flow time by 2.1% against the benchmark: a real difference (95% interval:
    1.9–2.2% below)", "raises total flow time by 2.4% ..."."""
    verb, side = ("cuts", "below") if gain >= 0 else ("raises", "above")
    said = f"{verb} {of} by {amount_text(abs(gain))}% against the benchmark"
    if c is None or c.trials < 2:
        return said
    if not c.told_apart:
        return f"{said}: not told apart from the benchmark"
    low, high = ends_text(*sorted((abs(c.lower), abs(c.upper))))
    return f"{said}: a real difference (95% interval: {low}–{high}% {side})"


def _costs(lead: Verdict, others: list[Verdict]) -> list[str]:
    """What the lead's winners (its best, and those not told apart from it where they are few) lose against the
    benchmark on a gain another metric's verdict has, for real: "mmc, though, raises total flow time by 2.4% against
    the benchmark: a real difference (95% interval: 2.2–2.6% above)." (Caniou and Jeannot section 6.1: a gain is
    against the benchmark, so a winner below it on another gain is a trade-off a reader should see)."""
    return [f"{h}, though, {_gain_words(v.gain_of, c.difference, c)}." for h, v, c in _cost_pairs(lead, others)]


def _cost_pairs(lead: Verdict, others: list[Verdict]) -> list[tuple[str, Verdict, Comparison]]:
    """(winner, the gain's verdict, its comparison with the benchmark) for each of :func:`_costs`' lines."""
    winners = [lead.best] + ([t.other for t in lead.tied] if len(lead.tied) < GROUP_SHOWN else [])
    out = []
    for v in others:
        worse = {h: c for h, c in v.versus_benchmark if c.told_apart and c.difference < 0}
        out += [(h, v, worse[h]) for h in winners if h in worse]
    return out


@dataclass(frozen=True)
class Headline:
    """What a results page says first, and what it folds below."""

    lead: str  # the headline metric's lead sentence, at most LEAD_WORDS words where the names allow
    rest: tuple[str, ...]  # the rest of its sentence, the trade-off, the bound's and the references' sentences
    others: tuple[str, ...]  # the other metrics' lines
    gloss: str = ""  # its metric's gloss as a sentence, where the lead had no room for it: shown beside the lead


def headline(verdicts_: list[Verdict]) -> Headline:
    """The lead sentence of a run's results and what folds below it.

    Parameters
    ----------
    verdicts_ : list of Verdict
        As :func:`scenario_verdicts` returns them, the headline metric's first.

    Returns
    -------
    Headline
        ``lead``: who wins on the headline metric, by how much and whether it is real, each heuristic in words where
        first named; ``rest``: what else is said of it (its interval or its benchmark where they do not fit, the
        metrics another heuristic wins, the bound, the references); ``others``: the other metrics' lines; ``gloss``:
        the headline metric in plain words where the lead had no room for them, to show beside it.
    """
    if not verdicts_:
        return Headline("", (), ())
    v = verdicts_[0]
    rest = (v.detail, trade_off(verdicts_), v.bound_text, v.reference_text)
    return Headline(v.text, tuple(t for t in rest if t), tuple(line for o in verdicts_[1:] for line in o.lines),
                    v.gloss_text)


def alike_pairs(results: pd.DataFrame, metrics) -> list[tuple[str, str]]:
    """The pairs of heuristics whose every one of ``metrics`` is equal in every trial, in the run's order: two rules
    that map the tasks alike in this scenario (kpb keeping 20% of 8 machines keeps one, the fastest: met's rule), whose
    bars match exactly; a tryout took two equal bars with no word why for a bug."""
    columns = [m.name for m in metrics if m.name in results]
    if not columns or "heuristic" not in results:
        return []
    by = {h: g.sort_values("trial")[columns].to_numpy(float) for h, g in results.groupby("heuristic", sort=False)}
    labels = list(by)
    return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:]
            if by[a].shape == by[b].shape and np.array_equal(by[a], by[b], equal_nan=True)]


def alike_sentence(pairs: list[tuple[str, str]]) -> str:
    """:func:`alike_pairs` said, in groups: "In this scenario, met and kpb give the same results in every trial: the
    two rules map the tasks alike, so their bars match."; more groups, each listed where the sentence fits in
    :data:`LEAD_WORDS`, else counted ("In this scenario, 7 heuristics give the same results in every trial as
    another: ..."); "" for none."""
    groups: list[list[str]] = []
    for a, b in pairs:  # each pair joins the group of either, in the run's order
        found = next((g for g in groups if a in g or b in g), None)
        if found is None:
            groups.append([a, b])
        else:
            found.extend(x for x in (a, b) if x not in found)
    if not groups:
        return ""
    if len(groups) == 1:
        rules = "two rules" if len(groups[0]) == 2 else "rules"
        return f"In this scenario, {listed(groups[0])} give the same results in every trial: the {rules} map the " \
               "tasks alike, so their bars match."
    n = sum(map(len, groups))
    listing = f"In this scenario, these give the same results in every trial, so their bars match: " \
              f"{'; '.join(listed(g) for g in groups)}."
    return listing if word_count(listing) <= LEAD_WORDS else \
        f"In this scenario, {n} heuristics give the same results in every trial as another, so their bars match in " \
        f"{len(groups)} groups."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _still_open(v: Verdict, word: str) -> str:
    """Why the lead's answer is not settled yet, in a few words."""
    c = v.comparisons[0]
    if c.trials < 2:
        return f"too few {word}s to tell"
    if c.disagrees:
        return f"the averages and the {word}s disagree"
    return f"{v.best} is not told apart from {c.other} yet"


_COUNTED = {2: "two", 3: "three"}  # a group this small is named; a larger one counted


def _open_group(v: Verdict) -> list[str]:
    """The heuristics a run in progress cannot tell apart yet, the best among them (more than one trial, neither
    separated, nor a pair whose averages and trials disagree), in the order of their labels: a leader among them is
    never crowned, so the order does not change as the trials do (a tryout saw the leader go mmc, then hmct); []
    otherwise."""
    c = v.comparisons[0]
    if c.trials < 2 or (c.disagrees and len(v.tied) < 2):  # a pair whose averages and trials disagree: said so
        return []
    return sorted({v.best, c.other, *(t.other for t in v.tied)})


def progress_lead(verdicts_: list[Verdict], done: int, total: int, word: str, overloaded: str = "") -> str:
    """The lead of a run in progress: "So far, 8 of 50 trials: sufferage (...) has the lowest makespan, 8.4% below
    min-min (...); already clear after 8 trials." when the best is told apart from the runner-up (the paired 95%
    interval excludes no difference, :attr:`Verdict.separated`), else, none crowned while the trials cannot tell:
    "So far, 4 of 30 trials: hmct and mmc lead on makespan; the two are still too close to call." (named in the
    order of their labels, up to three), "So far, 8 of 30 trials: no leader yet on makespan; 10 heuristics are still
    too close to call."; a leader only after one trial or where the averages and the trials disagree. At
    most :data:`LEAD_WORDS` words where the names allow. Where no heuristic
    keeps up with the arrivals in the trials so far, the whole run's lead that says so (``overloaded``) follows the
    count in place of a leader: "So far, 1 of 30 replications, no heuristic keeps up: the machines cannot keep up
    whatever the mapping (...). Queues grow all run; ...": the heuristic whose queue grew slowest is never crowned.

    Parameters
    ----------
    verdicts_ : list of Verdict
        The verdicts of the trials ended so far (:func:`scenario_verdicts`), the headline metric's first.
    done, total : int
        Whole trials ended, and the run's trials.
    word : str
        The model's word for a trial ("trial", "replication", "simulation").
    overloaded : str
        The whole run's lead where no heuristic that can run online keeps up in any trial so far
        (``Model.overloaded``: "No heuristic keeps up: ..."), else "".

    Returns
    -------
    str
        One sentence (two where ``overloaded`` has two).
    """
    head = f"So far, {done} of {_plural(total, word)}"
    if overloaded:
        return f"{head}, {overloaded[:1].lower()}{overloaded[1:]}"
    if not verdicts_:
        return f"{head}: nothing to rank yet."
    v = verdicts_[0]
    if v.best is None or not v.comparisons:
        return f"{head}. {v.text}"
    c = v.comparisons[0]
    if v.carried_in:  # a lead all in one part: never "already clear"
        size = size_text(c.difference, v.kind)
        lines = [f"{head}: {v.best} and {c.other} are {EQUAL} on {v.what}, within {_within(v)} without "
                 f"{v.carried_in}.", f"{head}: {v.best} and {c.other} are {EQUAL} on {v.what} without "
                 f"{v.carried_in}."] if _rest_equal(v) else []
        lines += [f"{head}: {v.best} leads on {v.what} by {size}, all in {v.carried_in}; without them, "
                 f"{_rest_clause(v)}.",
                 f"{head}: {v.best} leads on {v.what}, but its {size} over {c.other} are all in {v.carried_in}."]
    elif v.separated:
        gap = f"{size_text(c.difference, v.kind)} {_side(c.difference)} {c.other}"
        lines = [f"{head}: {v.best} has the {_superlative(v)} {v.what}, {gap}; already clear after "
                 f"{_plural(done, word)}."]
    elif group := _open_group(v):  # not told apart yet: none of them crowned, not even for a while
        lines = [f"{head}: {listed(group)} lead on {v.what}; the {_COUNTED[len(group)]} are still too close to "
                 "call."] if len(group) in _COUNTED else \
            [f"{head}: no leader yet on {v.what}; {len(group)} heuristics are still too close to call."]
    else:  # the best average, one trial or the averages and the trials disagreeing
        lines = [f"{head}: {v.best} leads on {v.what}{at}; still open: {_still_open(v, word)}."
                 for at in (f"{v.connector} {v.best_text}", "")]
    shorts = dict(v.shorts)  # a label with parameters never said raw ("fz (error weighted a tenth)", not "beta=0.1")
    said = [shortened(_said([line], dict(v.names), glosses)[0], shorts) for line in lines
            for glosses in ({v.glossed: v.gloss}, {})]  # the names, then the value ("at 89% of the upper bound") kept
    # before the metric's gloss (said beside the lead where it has no room, Verdict.gloss_beside)
    return next((line for line in said if word_count(line) <= LEAD_WORDS), shortened(lines[-1], shorts))


def references_to_come(scenario: Scenario, pending: Mapping[str, int], final: bool = True) -> str:
    """The references still running while the others' answer shows (they run after every trial of the others, and
    are never crowned, so the answer above will not change): "This answer is final. Still to come, for reference only:
    tpsa (Two-phase simulated annealing, static) and ga (Genetic algorithm, static), each a
    search computed after the fact, knowing every task." "" when none. How far they are is the progress bar's to say,
    one count on the page (it counted 15 of 50 while a count here, the slower one's, said 7). ``final``: False while
    the others' trials are not all in yet ("So far, 1 of 50 trials: ... too few trials to tell" stood over "This
    answer is final"): the references to come, said without it."""
    if not pending:
        return ""
    whats = scenario_references(scenario)
    names = [in_words(label, scenario.model) for label in pending]
    kinds = {whats.get(label, "") for label in pending}
    what = f", {'each ' if len(names) > 1 else ''}{kinds.pop()}" if len(kinds) == 1 and "" not in kinds else ""
    return f"{'This answer is final. ' if final else ''}Still to come, for reference only: {listed(names)}{what}."


def verdict_lines(verdicts_: list[Verdict]) -> list[str]:
    """The lines to show, in the order of the verdicts.

    Parameters
    ----------
    verdicts_ : list of Verdict
        As :func:`verdicts` or :func:`scenario_verdicts` return them.

    Returns
    -------
    list of str
        Each metric's sentence, then its bound's and its references' sentences when it has them.
    """
    return [line for v in verdicts_ for line in v.lines]
