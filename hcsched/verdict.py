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
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.claims import paired, wide
from hcsched.errors import HcschedError
from hcsched.formatting import amount_text, is_fraction, listed, readable
from hcsched.heuristics import heuristic_title
from hcsched.metrics import Metric
from hcsched.registry import get_model
from hcsched.stats import mean_ci, ranked

if TYPE_CHECKING:
    from hcsched.scenario import Scenario

NEITHER = "neither is better"
GROUP_SHOWN = 4  # from this many heuristics not told apart, a "no clear winner" sentence counts them
BEST_ONLINE = "the best heuristic that can run online"  # what a reference is compared with (by its mean)


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
    what: str  # "a static benchmark computed after the fact with the whole workload known"
    mean: float
    versus: Comparison | None  # None when no heuristic that can run online has a value


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
        One sentence: who wins, by how much, and whether the difference is real.
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
    """

    metric: str
    title: str  # "Lowest makespan", "Highest utilisation", or the metric's title where neither is better
    better: str  # "lower", "higher" or ""
    best: str | None  # None: nothing to rank (neither is better, no values, nothing that can run online)
    best_mean: float
    kind: str  # "percent" or "points"
    comparisons: tuple[Comparison, ...]  # the runner-up first, then the benchmark if it is neither
    note: str  # why there is no comparison ("neither is better", "no values", "the only heuristic"), else ""
    text: str  # one sentence: who wins, by how much, and whether it is real
    references: tuple[Reference, ...] = ()  # best first
    reference_text: str = ""  # the references' sentence, "" without any
    tied: tuple[Comparison, ...] = ()  # the best against every other heuristic it is not told apart from, best first
    benchmark: str | None = None  # the heuristic the others are normalised to, if any
    behind: tuple[str, ...] = ()  # the heuristics told apart from the best (clearly worse), in rank order
    bound_text: str = ""  # how far the best is from a bound on the best possible (:func:`bound_sentence`), or ""
    unranked: tuple[str, ...] = ()  # heuristics left out of the ranking: their mean is infinite (an overflow)

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

    @property
    def lines(self) -> list[str]:
        """The sentence, then the bound's and the references' sentences if any."""
        return [self.text] + [t for t in (self.bound_text, self.reference_text) if t]


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
    return Comparison(other, role, mean, lo, hi, int(d.size), (means[first], means[other]))


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

def headline_title(metric: Metric) -> str:
    """"Lowest makespan" / "Highest utilisation" with the metric's own wording (an acronym keeps its case)."""
    t = metric.title
    if not metric.better:
        return t
    return f"{'Lowest' if metric.better == 'lower' else 'Highest'} {_lowered(t)}"


def _lowered(title: str) -> str:
    return title if len(title) > 1 and title[:2].isupper() else title[:1].lower() + title[1:]


def metric_words(metric: Metric) -> str:
    """The metric in a sentence: "makespan", "state-information discount" (a unit in the title left to the values)."""
    t = metric.title
    if metric.unit and t.endswith(f" ({metric.unit})"):
        t = t[: -len(metric.unit) - 3]
    return _lowered(t)


def _size(x: float, kind: str) -> str:
    """A difference's size with its unit: "6.1%", "2.3 points"."""
    return f"{amount_text(abs(x))}%" if kind == "percent" else f"{amount_text(abs(x))} points"


def _side(x: float) -> str:
    return "below" if x < 0 else "above"


def _range(c: Comparison, kind: str) -> str:
    """The 95% interval in words: "4.8% to 7.3% below", "0.9 to 3.8 points above", "between 1.2% below and 17%
    above"."""
    pct = "%" if kind == "percent" else ""
    unit = "%" if kind == "percent" else " points"
    if c.separated and _size(c.lower, kind) == _size(c.upper, kind):  # (about) the same difference in every trial
        if c.lower == c.upper:
            return f"{_size(c.lower, kind)} {_side(c.lower)}, the same in every trial"
        return f"about {_size(c.lower, kind)} {_side(c.lower)}"
    if c.upper < 0:
        return f"{amount_text(-c.upper)}{pct} to {amount_text(-c.lower)}{unit} below"
    if c.lower > 0:
        return f"{amount_text(c.lower)}{pct} to {amount_text(c.upper)}{unit} above"
    return f"between {_size(c.lower, kind)} below and {_size(c.upper, kind)} above"


def _ci(c: Comparison, total: int) -> str:
    """ "95% interval", or "95% interval over 3 of 5 trials" when trials were dropped."""
    return "95% interval" + (f" over {c.trials} of {total} trials" if c.trials < total else "")


def _equal(c: Comparison) -> bool:
    return c.difference == 0 and c.lower == c.upper == 0


def _lead(v: Verdict, metric: Metric, total: int, sup: str) -> str:
    """The sentence on the best and the runner-up."""
    c, best, what = v.comparisons[0], v.best, metric_words(metric)
    value = readable(v.best_mean, metric)
    if c.trials == 0:
        return (f"{best} has the {sup} {what} ({value}), but no trial has a value of both it and the runner-up "
                f"{c.other}, so they cannot be compared")
    if c.trials == 1:
        where = "the only trial" if total == 1 else "the one trial where both have a value"
        return (f"{best} has the {sup} {what} ({value}), {_size(c.difference, v.kind)} {_side(c.difference)} the "
                f"runner-up {c.other} in {where}: too few trials to tell whether the difference is real")
    if _equal(c):
        return f"No clear winner on {what}: {best} and {c.other} are equal in every trial ({value} on average)"
    if c.told_apart:
        also = " (the benchmark)" if c.other == v.benchmark else ""
        return (f"{best} has the {sup} {what} ({value}), {_size(c.difference, v.kind)} {_side(c.difference)} the "
                f"runner-up {c.other}{also}: a real difference ({_ci(c, total)}: {_range(c, v.kind)})")
    other = readable(c.means[1], metric)
    if not c.separated and len(v.tied) > 1:  # a group: every heuristic the best is not told apart from
        if len(v.tied) >= GROUP_SHOWN:  # a large group: counted, the best average and the benchmark named
            bench = next((t for t in v.tied if t.role == "benchmark"), None)
            among = f", the benchmark {bench.other} at {readable(bench.means[1], metric)} among them" if bench else ""
            n = len(v.tied) + 1 + len(v.behind)
            worse = ("" if not v.behind else f"; only {listed(v.behind)} {'is' if len(v.behind) == 1 else 'are'} "
                     "clearly worse" if len(v.behind) <= GROUP_SHOWN - 1 else f"; {len(v.behind)} are clearly worse")
            return (f"No clear winner on {what}: {len(v.tied) + 1} of {n} heuristics are not told apart from the best "
                    f"average, {best} at {value}{among}{worse}")
        group = [f"{best} at {value}"] + [f"{_role(t)}{t.other} at {readable(t.means[1], metric)}" for t in v.tied]
        return (f"No clear winner on {what}: {listed(group)} are not told apart (per trial, the {_ci(c, total)} of "
                f"{best} against each runs from better to worse)")
    if c.separated:  # told apart per trial, but the other way than the means
        return (f"No clear winner on {what}: {best} averages {value} against {c.other}'s "
                f"{other}, yet the {_ci(c, total)} "
                f"puts it {_range(c, v.kind)} {c.other} per trial: the "
                "averages and the trials disagree, "
                "so they are not told apart")
    return (f"No clear winner on {what}: {best} averages {value} and {c.other} {other}, but the {_ci(c, total)} puts "
            f"{best} {_range(c, v.kind)} {c.other} per trial, so they are not told apart")


def _role(c: Comparison) -> str:
    return "the benchmark " if c.role == "benchmark" else ""


def _against(c: Comparison, first: str, name: str, kind: str, total: int) -> str:
    """A clause on ``first`` against ``name`` (the benchmark, or the best heuristic that can run online)."""
    if c.trials == 0:
        return f"no trial has a value of both {first} and {name}"
    if c.trials == 1:
        return f"{_size(c.difference, kind)} {_side(c.difference)} {name} in the one trial where both have a value"
    if _equal(c):
        return f"equal to {name} in every trial"
    if c.told_apart:
        return f"{_size(c.difference, kind)} {_side(c.difference)} {name} ({_ci(c, total)}: {_range(c, kind)})"
    return f"not told apart from {name}: the {_ci(c, total)} puts {first} {_range(c, kind)} {c.other} per trial"


def _sentence(v: Verdict, metric: Metric, total: int) -> str:
    """One sentence: who wins on the metric, by how much, and whether it is real; the benchmark after a semicolon."""
    left = _unranked_note(v, metric)
    if v.best is None:
        return f"{v.title}: {v.note}{left}."
    if v.note:
        return f"{v.title}: {v.best} ({readable(v.best_mean, metric)}), {v.note}{left}."
    sup = "lowest" if v.better == "lower" else "highest"
    text = _lead(v, metric, total, sup)
    named = {t.other for t in v.tied} if len(v.tied) > 1 and not v.comparisons[0].separated else set()
    for c in v.comparisons[1:]:
        if c.other not in named:
            text += f"; {v.best} is " + _against(c, v.best, f"the benchmark {c.other}", v.kind, total)
    return text + left + "."


def _unranked_note(v: Verdict, metric: Metric) -> str:
    """"; the mean makespan of mct and met is infinite (an overflow), so they are not ranked", or ""."""
    if not v.unranked:
        return ""
    return (f"; the mean {metric_words(metric)} of {listed(v.unranked)} is infinite (an overflow), so "
            f"{'it is' if len(v.unranked) == 1 else 'they are'} not ranked (an infinite mean cannot win)")


def _reference_sentence(v: Verdict, metric: Metric, total: int) -> str:
    """"For reference, not a contender: ga, a static benchmark ..., reaches 95.7%, 4.3 points above slack-sufferage,
    best on average among the heuristics that can run online (95% interval: 2.8 to 5.9 points above)."."""
    if not v.references:
        return ""
    whats = {r.what for r in v.references}
    shared = len(whats) == 1 and len(v.references) > 1
    parts, named = [], False
    for r in v.references:
        part = f"{r.label}" + ("" if shared else f", {r.what},") + f" reaches {readable(r.mean, metric)}"
        if r.versus is not None:
            best = r.versus.other if named else f"{BEST_ONLINE}, {r.versus.other}"
            part += ", " + _against(r.versus, r.label, best, v.kind, total)
            named = True
        parts.append(part)
    head = "For reference, not a contender" if len(parts) == 1 else "For reference, not contenders"
    if shared:
        head += f" (each {whats.pop()})"
    return f"{head}: " + "; ".join(parts) + "."


# --- the verdicts ------------------------------------------------------------------------------------------------

def _one_row_each(results: pd.DataFrame) -> pd.DataFrame:
    """The results, checked to have one row per trial and heuristic (a verdict of doubled rows would mislead)."""
    if {"trial", "heuristic"} <= set(results.columns) and results.duplicated(["trial", "heuristic"]).any():
        raise HcschedError("results: a heuristic appears twice in one trial; allowed: one row per trial and heuristic")
    return results


def _decide(results: pd.DataFrame, metric: Metric, benchmark: str | None, references: Mapping[str, str]):
    """(best, its mean, comparisons, note, references) of one metric; only heuristics that can run online ranked."""
    if metric.better not in ("lower", "higher"):
        return None, math.nan, (), NEITHER, (), (), ()
    table = wide(_one_row_each(results), metric.name)
    means = _means(table)
    refs = [h for h in table.columns if h in references]
    online = table.drop(columns=refs)
    ranking = _ranking(online, metric.better, means)
    best, mean = ranking[0] if ranking else (None, math.nan)
    shown = [Reference(h, references[h], m, None if best is None else _compare(table, h, best, "best online", metric,
                                                                               means))
             for h, m in _ranking(table[refs], metric.better, means)]
    if best is None:
        note = "no heuristic here can run online, only references" if online.shape[1] == 0 else \
            "no finite values" if _unranked(online, metric.better, means) else \
            "no values (every trial is NaN)"
        return None, math.nan, (), note, tuple(shown), (), ()
    rest = [h for h, _ in ranking[1:]]
    if not rest:
        only = "the only heuristic" + (" that can run online" if refs else "")
        return best, mean, (), (only if online.shape[1] == 1 else only + " with values") + ", nothing to compare", \
            tuple(shown), (), ()
    against = [_compare(table, best, h, "benchmark" if h == benchmark else "other", metric, means) for h in rest]
    comps = [dataclasses.replace(against[0], role="runner-up")]
    if benchmark in rest[1:]:
        comps.append(against[rest.index(benchmark)])
    tied = [c for c in against if c.trials > 1 and not c.separated]
    behind = [c.other for c in against if c.told_apart]
    return best, mean, tuple(comps), "", tuple(shown), tuple(tied), tuple(behind)


def verdict(results: pd.DataFrame, metric: Metric, benchmark: str | None = None,
            references: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None) -> Verdict:
    """The verdict of one metric of a results table (one row per trial and heuristic). ``benchmark``: a heuristic label
    compared with too when it is neither the best nor the runner-up. ``references``: labels of heuristics that cannot
    run online, with what each is in words (:func:`scenario_references`); they are never crowned. ``names``: label ->
    plain name, said where a label is first mentioned (:func:`named_once`)."""
    references = dict(references or {})
    best, mean, comps, note, refs, tied, behind = _decide(results, metric, benchmark, references)
    unranked = ()
    if metric.better in ("lower", "higher"):
        table = wide(results, metric.name)
        unranked = _unranked(table.drop(columns=[h for h in table.columns if h in references]), metric.better,
                             _means(table))
    v = Verdict(metric.name, headline_title(metric), metric.better, best, mean, difference_kind(metric), comps, note,
                "",
                refs, tied=tied, benchmark=benchmark, behind=behind, unranked=unranked)
    total = int(results["trial"].nunique()) if "trial" in results else 0
    text, reference_text = named_once([_sentence(v, metric, total), _reference_sentence(v, metric, total)], names or {})
    return dataclasses.replace(v, text=text, reference_text=reference_text)


def plain_name(title: str) -> str:
    """A heuristic's name for a sentence: its registry title without its parameters' description, a closing remark
    after a comma ("Genetic algorithm (static)": Genetic algorithm, static; "Min perturbation, mass decreasing
    (running)": ..., running; "K-percent best; kbar = 1: ...": K-percent best), so that no parentheses nest."""
    return re.sub(r"\s*\(([^()]*)\)$", r", \1", title.split(";")[0]).strip()


def named_once(lines: list[str], names: Mapping[str, str]) -> list[str]:
    """Each heuristic's plain name beside its label where the lines first mention it: "la (load balance)", "kpb
    (K-percent best; kbar=1)" for the label "kpb (kbar=1)" (never two brackets in a row); a label already its own name
    ("min-min": Min-min) stays as it is. ``names``: label -> plain name. A label is matched whole, never inside another
    ("mp" within "mp-load")."""
    found = {}
    for label, name in names.items():
        if not name or name.lower().replace(" ", "-") == label.lower():
            continue
        pattern = re.compile(r"(?<![\w-])" + re.escape(label) + r"(?![\w-])")
        longer = [other for other in names if other != label and other.startswith(label)]  # "kpb" in "kpb (k=10)"
        for k, line in enumerate(lines):
            m = next((m for m in pattern.finditer(line)
                      if not any(line.startswith(other, m.start()) for other in longer)), None)
            if m is not None:
                found[label] = (k, m.start(), m.end(), name)
                break
    out = list(lines)
    for label, (k, start, end, name) in sorted(found.items(), key=lambda x: (x[1][0], -x[1][1])):
        base, params = re.fullmatch(r"(.*?)(?: \((.*)\))?", label).groups()  # "kpb (kbar=1)": kpb, kbar=1
        out[k] = out[k][:start] + (f"{base} ({name}; {params})" if params else f"{label} ({name})") + out[k][end:]
    return out


def headline_metrics(metrics, columns) -> list[Metric]:
    """The metrics present in ``columns``, without a normalised duplicate whose raw metric is there, nor a ratio to a
    bound (``Metric.of``) whose metric is there (its verdict's sentence says how far from the bound)."""
    present = [m for m in metrics if m.name in columns]
    names = {m.name for m in present}
    return [m for m in present if not (m.name.startswith("normalized_") and m.name[len("normalized_"):] in names)
            and m.of not in names]


def verdicts(results: pd.DataFrame, metrics, benchmark: str | None = None,
             references: Mapping[str, str] | None = None, names: Mapping[str, str] | None = None) -> list[Verdict]:
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

    Returns
    -------
    list of Verdict
        In the order of ``metrics``.

    Raises
    ------
    HcschedError
        When a heuristic appears twice in one trial.
    """
    return [verdict(results, m, benchmark, references, names) for m in headline_metrics(metrics, results.columns)
            if m.better in ("lower", "higher")]


def scenario_benchmark(scenario: Scenario) -> str | None:
    """The scenario's benchmark label: as given, else the model's default if it is one of the heuristics; never one
    that cannot run online (it is a reference, compared on its own line)."""
    label = scenario.benchmark_label  # falls back to the first heuristic, which is no benchmark of the scenario's
    found = label if scenario.benchmark or label in get_model(scenario.model).benchmarks else None
    return None if found in scenario_references(scenario) else found


def bound_sentence(results: pd.DataFrame, metric: Metric, best: str, bound: str) -> str:
    """"min-min is 13.7% above the lower bound on average (95% interval: 12.1% to 15.3%): its makespan is at most that
    far from the best possible." ``bound``: the column of each trial's bound on ``metric`` (``Model.bound_columns``,
    a value no mapping beats); "" when it has no value."""
    rows = results[results["heuristic"] == best]
    if bound not in rows or not (rows[bound] > 0).any():
        return ""
    mean, lo, hi = (100 * (x - 1) for x in mean_ci((rows[metric.name] / rows[bound]).to_numpy(float)))
    interval = f" (95% interval: {lo:.1f}% to {hi:.1f}%)" if np.isfinite(lo) else ""
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
    names = {h.label: plain_name(heuristic_title(h.label, scenario.model)) for h in scenario.heuristics}
    found = verdicts(results, model.bar_metrics(), scenario_benchmark(scenario), scenario_references(scenario), names)
    by_name = {m.name: m for m in model.metrics}
    found = [dataclasses.replace(v, bound_text=bound_sentence(results, by_name[v.metric], v.best,
                                                              model.bound_columns[v.metric]))
             if v.best is not None and v.metric in model.bound_columns else v for v in found]
    lead = headline_metric(model).name
    return sorted(found, key=lambda v: v.metric != lead)  # stable: the others keep their order


def trade_off(verdicts_: list[Verdict]) -> str:
    """One line on what the lead verdict leaves out: the other metrics that another heuristic wins, told apart from
    its runner-up ("But min-min has the lowest mean flow time and the lowest max stretch."); "" when none."""
    if not verdicts_ or verdicts_[0].best is None:
        return ""
    lead = verdicts_[0].best
    others = {}
    for v in verdicts_[1:]:
        if v.best is not None and v.best != lead and v.separated:
            others.setdefault(v.best, []).append("the " + re.sub(r" \([^()]*\)$", "", _lowered(v.title)))
    return " ".join(f"But {best} has {listed(titles)}." for best, titles in others.items())


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
