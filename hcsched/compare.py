"""Two runs side by side: a baseline and a what-if, per heuristic and metric both means and the change with its 95%
interval, and what differs between their scenarios in words.

**Paired or unpaired.** Trial t of a scenario draws its workload from its seed alone (``SeedSequence(seed)``'s
t-th child, :mod:`hcsched.experiment`), in one stream per random quantity. Two runs of the same model and seed
therefore share their random draws trial by trial: the same tasks when their system (spec) is the same, whatever
heuristics they compare; the same draws, scaled or cut to another shape, when the system differs (twice the arrival
rate halves every interarrival time of trial t). These are the common random numbers with which simulation compares
two designs of a system (Maheswaran et al. section 5.1; Law and Kelton, *Simulation Modeling and Analysis*, on
comparing two systems), and their change is *paired*: computed trial by trial over the trials both ran, with the
paired interval, which is valid whatever the two trials of a pair share and the narrower the more alike they are.
Runs with different seeds are independent samples: their change is *unpaired*, with Welch's interval (unequal
variances, Welch-Satterthwaite degrees of freedom).

**Verdict.** A change whose 95% interval excludes no change is "a real change"; one whose interval includes it is
"not told apart from no change".

**The change** is the what-if's mean against the baseline's:

- in **percent** of the baseline's mean, ``100 (after / before - 1)`` (so that it always agrees with the two means
  shown), with the delta-method interval of a ratio of means: paired, from the per-trial residuals
  ``(after_t - R before_t) / mean(before)`` with ``n - 1`` degrees of freedom; unpaired, from both runs' variances of
  the mean, Welch-Satterthwaite degrees of freedom; for non-negative values on the log of the ratio, mapped back, so
  that it never reaches below -100%;
- in **points** for a metric in percent, or a fraction shown as a percent (a utilisation): ``after - before``, with
  the paired t interval or Welch's interval of a difference of means.

Trials where a value is NaN or infinite are left out (on both sides when paired); a baseline mean of zero has no
percent change (NaN).

**Heuristics** are matched by label; those left over by heuristic name (``kpb (k=10)`` against ``kpb (k=20)``), and a
single heuristic removed against a single one added (Max-min instead of Min-min) as a replacement: it compares
them, on the same tasks when the runs are paired. Any other heuristic is in one run only and has no change.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.claims import wide
from hcsched.errors import HcschedError
from hcsched.export import READ_BACK, commented_csv, scenario_digest
from hcsched.formatting import (
    amount_text,
    ends_text,
    is_fraction,
    listed,
    readable,
    readable_pair,
    said_in_times,
    said_pair,
    seconds_number,
    seconds_pair,
    sentence_start,
    span_pair,
    span_unit,
    time_span,
)
from hcsched.heuristics import heuristic_names
from hcsched.metrics import LOWER_BOUND
from hcsched.registry import get_model
from hcsched.scenario import HeuristicSpec
from hcsched.setting_words import RATE as _RATE
from hcsched.setting_words import SETTINGS, Setting, setting_of  # noqa: F401 (SETTINGS: said from here too)
from hcsched.stats import t_quantile
from hcsched.verdict import (
    ALL_WITHIN,
    LEAD_WORDS,
    alike_pairs,
    alike_sentence,
    by_a_hair,
    difference_kind,
    headline_metric,
    headline_metrics,
    is_small,
    margin_words,
    metric_words,
    named_in,
    named_once,
    near_bound,
    of_what,
    part_words,
    run_words,
    said_bare,
    scenario_references,
    scenario_verdicts,
    sentence_opening,
    sentences,
    share_columns,
    size_text,
    small_words,
    word_count,
)
from hcsched.version import __version__

if TYPE_CHECKING:
    from hcsched.metrics import Metric
    from hcsched.scenario import Scenario

CONFIDENCE = 0.95
UNMOVED = ", with no real change"  # how a lead's tail says the headline metric did not move (:meth:`_though`)
MARGIN_MOVES = 1.5  # a winner's lead over its runner-up this many times larger or smaller is said beside it
TIMES_FROM = 100.0  # a change whose interval lies above +100% is said as a factor ("3.3 times as long", ×2 or more)
NORMAL_975 = 1.959963984540054  # the standard normal's 97.5% quantile
#: A what-if's whole line, whom it is against and its lead, at most this many words where the names allow: a manager
#: reads it at a glance (longer lines were read as too long).
LINE_WORDS = 28
#: Whom a change line is against, said before it: "Against run #12," (which run that is, the baseline or the run shown
#: before, is said beside the line, not in it).
AGAINST_WORDS = 3
CHANGE_LEAD_WORDS = LINE_WORDS - AGAINST_WORDS
#: Between a what-if's lead and whether the winner stays where the lead had no room for it: a paragraph break, so
#: that a page shows the winner on the line below the lead (:meth:`RunComparison.change_summary`).
WINNER_BELOW = "\n\n"
#: Before the legend sentence that names in words the heuristics a line said bare (:meth:`RunComparison._named_below`):
#: a page shows it apart, under the line (a tryout read it, last in the box, as a stray fragment).
LEGEND_BELOW = "\n\n\n"
#: A lead's words on what a move all in one part leaves as it was (:meth:`RunComparison._carried_words`).
REST_STAYS = " barely moves without "
BOTH_STAY = "both winners stay ("  # a lead that says both winners first (:meth:`RunComparison._every_parts`)
NEAR_BOUND = 0.05  # every heuristic this near its lower bound on average (a share of it): said as why none wins
STILL_WINS = " still wins on "  # a lead that says the winner's standing (:meth:`RunComparison._every_parts`): no winner
NO_WINNER_NOW = "no clear winner any more ("  # line again under it (a tryout read the two as one said twice)
#: A metric's plain words (:attr:`Metric.gloss`) of at most this many words read as its name in a lead ("the worst
#: task's slowdown of sufferage"); longer ones are said beside its name, or below.
GLOSS_AS_NAME = 4


# --- what differs between two scenarios, in words ----------------------------------------------------------------

_PER = ((1.0, "a second"), (60.0, "a minute"), (3600.0, "an hour"), (86400.0, "a day"))  # a rate's reading units


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _significant(x: float, digits: int) -> str:
    """``x`` to ``digits`` significant digits, whole digits kept, thousands separated: "2.3", "15,000", "0.00065"."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    places = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{round(x, places):,.{places}f}"


def _numbers(old: float, new: float) -> tuple[str, str]:
    """Two numbers in as few digits as tell them apart (from two), with as many decimals each: "2.3" and "4.6", not
    "0.000645197"; "0.9" and "0.3"; whole numbers as they are ("20,000")."""
    if all(float(x).is_integer() and abs(x) < 1e15 for x in (old, new)):
        return f"{int(old):,}", f"{int(new):,}"
    for digits in range(2, 8):
        pair = _significant(old, digits), _significant(new, digits)
        if pair[0] != pair[1] or old == new:
            break
    else:
        return f"{old:.6g}", f"{new:.6g}"
    decimals = max(len(x.rstrip("0").partition(".")[2]) for x in pair)  # "0.90", "0.30": one decimal is enough
    return tuple(f"{round(x, decimals):,.{decimals}f}" for x in (old, new))


def _number(value: float) -> str:
    """One setting's number as written, thousands separated: "0.3", "15,000", "0.000645197"."""
    return f"{int(value):,}" if float(value).is_integer() and abs(value) < 1e15 else f"{value:,.6g}"


def _words(value) -> str | None:
    """A setting's value as a change names it; None when it is too long to show (a table)."""
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "on" if value else "off"
    if _is_number(value):
        return _number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and len(value) <= 4 and all(isinstance(v, (int, float, str)) for v in value):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    return None


def _factor(old, new) -> str:
    """"×2" between two settings written as decimals, such as rates (where the ratio says more than the digits); ""
    otherwise (whole numbers, 20,000 → 5,000, say their size plainly)."""
    if not all(isinstance(v, float) and not v.is_integer() for v in (old, new)) or (old < 0) != (new < 0):
        return ""
    return f"×{new / old:.3g}"


def _amounts(old: float, new: float, unit: str) -> tuple[str, list[str]]:
    """"2.3 → 4.6 tasks an hour", "4.2 → 8.3 hours" with its asides ("15,000 → 30,000 s", as the charts say them,
    :func:`~hcsched.formatting.seconds_pair`)."""
    if unit == _RATE:
        low = min((abs(x) for x in (old, new) if x), default=1.0)
        scale, per = next(((s, p) for s, p in _PER if low * s >= 1), _PER[-1])
        a, b = _numbers(old * scale, new * scale)
        return f"{a} → {b} tasks {per}", []
    a, b = _numbers(old, new)
    if unit == "s" and max(abs(old), abs(new)) >= 3600:
        said, beside = seconds_pair(old, new)
        return said, [beside.strip("()")]
    return f"{a} → {b}" + (f" {unit}" if unit else ""), []


def setting_change(key: str, old, new) -> str:
    """A setting's change in words and the unit a person reads: "arrival rate 2.3 → 4.6 tasks an hour (×2)",
    "duration 4.2 → 8.3 hours (15,000 → 30,000 s)", "machines 8 → 12", "deadlines loose → tight", "problems
    changed" (a value too long to show)."""
    s = setting_of(key)
    if _is_number(old) and _is_number(new):
        said, asides = _amounts(old, new, s.unit)
        factor = _factor(old, new) if s.unit != _RATE or old == 0 else f"×{new / old:.3g}"
        asides += [factor] if factor else []
        return f"{s.words} {said}" + (f" ({', '.join(asides)})" if asides else "")
    a, b = _words(old), _words(new)
    if a is None or b is None:
        return f"{s.words} changed"
    unit = f" {s.unit}" if s.unit and s.unit != _RATE else ""
    return f"{s.words} {a} → {b}{unit}"


def flat_settings(node: dict, prefix: str = "") -> dict:
    """A scenario file's settings with dotted keys ("etc.task_het"), as ``hcsched sweep`` names them."""
    out = {}
    for key, value in node.items():
        if isinstance(value, dict):
            out.update(flat_settings(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


#: One-click what-ifs (:func:`quick_what_ifs`): the settings that count the machines, and those that set how often
#: tasks arrive with the factor that doubles the arrival rate (a rate doubled, a mean gap halved), in every model.
MACHINE_COUNTS = ("machines", "processors.count", "servers")
RATE_FACTORS = {"arrivals.rate": 2.0, "arrival_rates": 2.0, "mean_interarrival": 0.5, "startup_gap": 0.5,
                "gap": 0.5, "burst_gap": 0.5}


def _with_settings(node: dict, changes: dict, prefix: str = "") -> dict:
    """A scenario file's dict with the flat keys of ``changes`` (key: new value) set."""
    out = {}
    for key, value in node.items():
        flat = f"{prefix}{key}"
        out[key] = _with_settings(value, changes, f"{flat}.") if isinstance(value, dict) else changes.get(flat, value)
    return out


def _scaled(value, factor: float):
    if isinstance(value, list):
        return [_scaled(v, factor) for v in value]
    return value * factor


def quick_what_ifs(scenario: Scenario) -> list[tuple[str, Scenario]]:
    """What a person asks first of a scenario, each as the scenario changed (the same trials and seed, so the runs
    share their random numbers where the workload allows): "Twice the machines" (servers, processors), "Twice the
    arrival rate" and "Half the arrival rate", whichever its model has and allows (a change the scenario's own checks
    refuse is left out; the dashboard greys one its server's size cap refuses, with the reason)."""
    data = scenario.to_dict()
    flat = flat_settings(data)
    out = []
    for key in MACHINE_COUNTS:
        if isinstance(flat.get(key), int):
            out.append((f"Twice the {SETTINGS[key].words}", {key: 2 * flat[key]}))
            break
    rates = {key: f for key, f in RATE_FACTORS.items() if _is_number(flat.get(key)) or isinstance(flat.get(key), list)}
    if rates:
        out.append(("Twice the arrival rate", {key: _scaled(flat[key], f) for key, f in rates.items()}))
        out.append(("Half the arrival rate", {key: _scaled(flat[key], 1 / f) for key, f in rates.items()}))
    made = []
    for words, changes in out:
        try:
            made.append((words, type(scenario).from_dict(_with_settings(data, changes))))
        except HcschedError:
            continue
    return made


def swap_choices(scenario: Scenario) -> tuple[list[str], list[str]]:
    """What a one-click swap offers: the labels of the scenario's heuristics that may be swapped out (all but the
    benchmark, which normalised metrics are divided by), and the names of its model's heuristics not in it."""
    inside = {h.name for h in scenario.heuristics}
    return ([h.label for h in scenario.heuristics if h.label != scenario.benchmark_label],
            [n for n in heuristic_names(model=scenario.model) if n not in inside])


def swapped(scenario: Scenario, label: str, name: str) -> Scenario:
    """The scenario with its heuristic labelled ``label`` swapped for the heuristic ``name`` of its model, with its
    default parameters, in the same place (the same trials and seed: a what-if "max-min instead of min-min")."""
    if label not in {h.label for h in scenario.heuristics}:
        raise HcschedError(f"swap: {label!r} is not allowed; allowed: one of the scenario's heuristics")
    new = HeuristicSpec.make(name, model=scenario.model)
    return scenario.replace(heuristics=tuple(new if h.label == label else h for h in scenario.heuristics))


def changed_settings(before: Scenario, after: Scenario) -> list[tuple[str, object, object]]:
    """(flat key, before, after) of each setting that differs between two scenarios of one model, in the scenario
    file's order."""
    model = get_model(after.model)
    a, b = (flat_settings(model.spec_to_dict(s.spec)) for s in (before, after))
    return [(key, a.get(key), b.get(key)) for key in [*a, *(k for k in b if k not in a)] if a.get(key) != b.get(key)]


def benchmark_kind(scenario: Scenario) -> tuple:
    """What normalised metrics are divided by, whatever its label: the benchmark heuristic's name and parameters,
    or (LOWER_BOUND, ()) for the trial's bound."""
    label = scenario.benchmark_label
    return next(((h.name, h.params) for h in scenario.heuristics if h.label == label), (LOWER_BOUND, ()))


def _heuristic_changes(before: Scenario, after: Scenario) -> list[str]:
    """"max-min instead of min-min" (one heuristic for another), else "min-min removed", "kpb (k=10) added";
    "heuristics reordered" or "relabelled" when only that differs."""
    kind = lambda h: (h.name, h.params)  # noqa: E731  (a heuristic with its parameters, whatever its label)
    removed = Counter(map(kind, before.heuristics)) - Counter(map(kind, after.heuristics))
    added = Counter(map(kind, after.heuristics)) - Counter(map(kind, before.heuristics))
    out = {}
    for specs, left, word in ((before.heuristics, removed, "removed"), (after.heuristics, added, "added")):
        for h in specs:
            if left[kind(h)] > 0:
                left[kind(h)] -= 1
                out.setdefault(word, []).append(h.label)
    if len(out.get("removed", ())) == 1 and len(out.get("added", ())) == 1:
        return [f"{out['added'][0]} instead of {out['removed'][0]}"]
    said = [f"{label} {word}" for word, labels in out.items() for label in labels]
    if not said and before.heuristics != after.heuristics:
        labels = sorted(h.label for h in before.heuristics) != sorted(h.label for h in after.heuristics)
        said.append("heuristics relabelled" if labels else "heuristics reordered")
    return said


def _rate_factor(key: str, old, new) -> float | None:
    """How many times more often tasks arrive after a change of the setting ``key`` of :data:`RATE_FACTORS` (a rate
    multiplied, or a mean gap divided, by one factor, every element of a list alike); None otherwise."""
    olds, news = (np.ravel(np.asarray(x, dtype=float)) if isinstance(x, (int, float, list, tuple)) else None
                  for x in (old, new))
    if olds is None or news is None or olds.shape != news.shape or not olds.size or not np.all(olds > 0):
        return None
    ratio = news / olds
    if not np.allclose(ratio, ratio[0], rtol=1e-9, atol=0.0):
        return None
    return float(ratio[0]) if RATE_FACTORS[key] > 1 else 1.0 / float(ratio[0])


def _common_rate_factor(changed: list[tuple[str, object, object]]) -> float | None:
    """How many times more often tasks arrive when two or more settings of :data:`RATE_FACTORS` changed, all making
    tasks arrive the same number of times more often; None otherwise."""
    rates = [(key, old, new) for key, old, new in changed if key in RATE_FACTORS]
    factors = [_rate_factor(*c) for c in rates]
    if len(rates) < 2 or None in factors or not np.allclose(factors, factors[0], rtol=1e-6, atol=0.0):
        return None
    return factors[0]


#: The settings that alone set how often tasks arrive: a lead sentence says their doubling "twice the arrival rate".
ARRIVAL_RATE_KEYS = ("arrivals.rate", "arrival_rates", "mean_interarrival")


def _doubled(factor: float | None, words: str) -> str | None:
    """"twice the machines", "half the arrival rate" for a factor of 2 or 0.5; None for any other."""
    for f, said in ((2.0, "twice"), (0.5, "half")):
        if factor is not None and math.isclose(factor, f, rel_tol=1e-9):
            return f"{said} the {words}"
    return None


def _short_change(key: str, old, new) -> str:
    """A setting's change as a lead sentence says it: "twice the machines", "half the arrival rate" where a number
    (or the arrival rate) doubles or halves; else as :func:`setting_change` says it."""
    if key in ARRIVAL_RATE_KEYS:
        said = _doubled(_rate_factor(key, old, new), "arrival rate")
    elif _is_number(old) and _is_number(new) and old > 0:
        said = _doubled(new / old, setting_of(key).words)
    else:
        said = None
    return said or setting_change(key, old, new)


def _said_settings(before: Scenario, after: Scenario, short: bool) -> list[str]:
    """The settings that differ in words (``short``: as a lead sentence says them, :func:`_short_change`), the
    settings that together set how often tasks arrive, all changed by one factor, said as one change."""
    changed = changed_settings(before, after)
    factor = _common_rate_factor(changed)
    out = []
    if factor is not None:  # several settings that together set how often tasks arrive, all by one factor
        changed = [c for c in changed if c[0] not in RATE_FACTORS]
        out.append((short and _doubled(factor, "arrival rate"))
                   or f"arrival rate ×{factor:.3g} (every mean gap between arrivals ×{1 / factor:.3g})")
    said = _short_change if short else setting_change
    return out + [said(key, old, new) for key, old, new in changed]


def what_changed(before: Scenario, after: Scenario) -> list[str]:
    """What makes ``after`` another scenario than ``before``, in short phrases in words (:func:`setting_change`):
    "tasks 200 → 150", "arrival rate 2.3 → 4.6 tasks an hour (×2)", "max-min instead of min-min", "kpb (k=10)
    added", "benchmark min-min → mct". Trials and seed, set for each run, are not counted (:func:`run_changes`
    counts them)."""
    models = before.model, after.model  # another model altogether: nothing else compares
    if models[0] != models[1]:
        return [f"model {models[0]} → {models[1]}"]
    out = _said_settings(before, after, short=False)
    out += _heuristic_changes(before, after)
    model = get_model(after.model)
    if (model.normalizes() or before.benchmark or after.benchmark) and benchmark_kind(before) != benchmark_kind(after):
        chosen = "" if before.benchmark or after.benchmark else " (by default)"
        out.append(f"benchmark {before.benchmark_label} → {after.benchmark_label}{chosen}")
    return out


def lead_changes(before: Scenario, after: Scenario) -> list[str]:
    """What differs, as a lead sentence says it: "twice the machines", "half the arrival rate" (a number doubled or
    halved), the other settings and the heuristics as :func:`what_changed` says them, then trials and seed
    (:func:`run_changes`). A change of benchmark is left out: it only touches the normalised metrics, which a lead
    never says."""
    if before.model != after.model:
        return what_changed(before, after)
    out = _said_settings(before, after, short=True) + _heuristic_changes(before, after)
    return out + run_changes(before, after)[len(what_changed(before, after)):]


def workload_changed(before: Scenario, after: Scenario) -> list[str]:
    """The settings, in words, whose change makes the work itself differ (:attr:`Setting.workload`): the numbers of
    the two runs are then not like for like."""
    if before.model != after.model:
        return []
    return [setting_of(key).words for key, _, _ in changed_settings(before, after) if setting_of(key).workload]


def run_changes(before: Scenario, after: Scenario) -> list[str]:
    """:func:`what_changed`, then the run's own settings that differ: "trials 50 → 100", "seed 0 → 1"."""
    out = what_changed(before, after)
    if before.trials != after.trials:
        out.append(f"trials {_words(before.trials)} → {_words(after.trials)}")
    if before.seed != after.seed:  # a seed is a name, not an amount: no thousands separator
        out.append(f"seed {before.seed} → {after.seed}")
    return out


def shares_random_numbers(before: Scenario, after: Scenario) -> bool:
    """Whether trial t of both runs draws from the same random numbers: the same model and seed (see the module)."""
    return before.model == after.model and before.seed == after.seed


def same_tasks(before: Scenario, after: Scenario) -> bool:
    """Whether trial t of both runs is the very same workload: also the same system."""
    return shares_random_numbers(before, after) and before.spec == after.spec


# --- one change and its interval ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """One metric of one heuristic (or of a heuristic and the one that replaced it): both means and the change."""

    metric: str
    before_label: str | None  # None: the heuristic is only in the what-if
    after_label: str | None  # None: only in the baseline
    before: float  # the mean over the trials used
    after: float
    change: float  # percent of ``before``, or points (``kind``); NaN without both sides
    lower: float  # the 95% interval; NaN with too few trials
    upper: float
    kind: str  # "percent" or "points"
    paired: bool
    trials: tuple[int, int]  # trials used on each side (the common trials when paired)

    @property
    def separated(self) -> bool:
        """Whether the 95% interval excludes no change."""
        return self.lower > 0 or self.upper < 0

    @property
    def heuristic(self) -> str:
        """"sufferage", or "min-min → max-min" for a replacement."""
        a, b = self.before_label, self.after_label
        return a if a == b else (b if a is None else a if b is None else f"{a} → {b}")


def _finite(x: np.ndarray) -> np.ndarray:
    return x[np.isfinite(x)]


def _paired(a: np.ndarray, b: np.ndarray, kind: str) -> tuple[float, float, float]:
    """(change, lower, upper) of paired values (see the module)."""
    n = a.size
    if kind == "points":
        d = b - a
        return _interval(float(d.mean()), float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan, n - 1)
    base = float(a.mean())
    ratio = float(b.mean()) / base
    spread = float(((b - ratio * a) / base).std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return _ratio_interval(ratio, spread, n - 1, a, b)


def _welch(a: np.ndarray, b: np.ndarray, kind: str) -> tuple[float, float, float]:
    """(change, lower, upper) of independent values (see the module)."""
    ma, mb = float(a.mean()), float(b.mean())
    va = float(a.var(ddof=1)) / a.size if a.size > 1 else math.nan
    vb = float(b.var(ddof=1)) / b.size if b.size > 1 else math.nan
    if kind == "points":
        terms = (va, vb)
    else:
        ratio = mb / ma
        terms = (ratio**2 * va / ma**2, vb / ma**2)
    total = terms[0] + terms[1]
    df = total**2 / (terms[0] ** 2 / (a.size - 1) + terms[1] ** 2 / (b.size - 1)) if total > 0 else math.inf
    if kind == "points":
        return _interval(mb - ma, math.sqrt(total), df)
    return _ratio_interval(ratio, math.sqrt(total), df, a, b)


def _ratio_interval(ratio: float, spread: float, df: float, a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """A ratio of means (its delta-method standard error ``spread``) as a change in percent. Of non-negative values
    the interval is taken on the log of the ratio (``spread / ratio``) and mapped back, so that it never reaches
    below -100%, as the change of a non-negative mean cannot; otherwise on the ratio itself."""
    centre = 100.0 * (ratio - 1.0)
    if ratio > 0 and a.min() >= 0 and b.min() >= 0 and not math.isnan(spread):
        _, lo, hi = _interval(0.0, spread / ratio, df)
        return centre, 100.0 * (ratio * math.exp(lo) - 1.0), 100.0 * (ratio * math.exp(hi) - 1.0)
    _, lo, hi = _interval(ratio, spread, df)
    return centre, 100.0 * (lo - 1.0), 100.0 * (hi - 1.0)


def _interval(centre: float, spread: float, df: float) -> tuple[float, float, float]:
    """``centre`` with its 95% Student-t interval (``df`` degrees of freedom; the normal's when infinite)."""
    if math.isnan(spread) or math.isnan(centre):
        return centre, math.nan, math.nan
    if spread == 0:
        return centre, centre, centre
    half = t_quantile(0.5 + CONFIDENCE / 2, df) * spread if math.isfinite(df) else NORMAL_975 * spread
    return centre, centre - half, centre + half


def _same_constant(a: np.ndarray, b: np.ndarray) -> bool:
    return bool((a == a[0]).all() and (b == a[0]).all())


def change_of(metric: Metric, before: pd.Series, after: pd.Series, paired: bool,
              labels: tuple[str | None, str | None]) -> Change:
    """The change of one metric from ``before`` to ``after`` (per-trial values indexed by trial)."""
    kind = difference_kind(metric)
    scale = 100.0 if is_fraction(metric) else 1.0  # a fraction's points
    if paired:
        a, b = before.align(after, join="inner")
        a, b = a.to_numpy(float) * scale, b.to_numpy(float) * scale
        keep = np.isfinite(a) & np.isfinite(b)
        a, b = a[keep], b[keep]
    else:
        a, b = _finite(before.to_numpy(float) * scale), _finite(after.to_numpy(float) * scale)
    if a.size == 0 or b.size == 0:
        mean = lambda x: float(x.mean()) / scale if x.size else math.nan  # noqa: E731
        return Change(metric.name, *labels, mean(a), mean(b), math.nan, math.nan, math.nan, kind, paired,
                      (a.size, b.size))
    if _same_constant(a, b):  # e.g. a count that is zero in every trial of both runs
        centre = lo = hi = 0.0
    elif kind == "percent" and a.mean() == 0:  # no percent of a zero mean
        centre = lo = hi = math.nan
    else:
        centre, lo, hi = (_paired if paired else _welch)(a, b, kind)
    return Change(metric.name, *labels, float(a.mean()) / scale, float(b.mean()) / scale, centre, lo, hi, kind, paired,
                  (a.size, b.size))


# --- two runs ----------------------------------------------------------------------------------------------------

def matched_heuristics(before: Scenario, after: Scenario) -> list[tuple[str | None, str | None]]:
    """(baseline label, what-if label) pairs, in the baseline's order then the what-if's new ones: the same label;
    then, among those left, the same heuristic name in order; then a single one left on each side (a replacement);
    anything else alone (see the module)."""
    a = [h.label for h in before.heuristics]
    b = [h.label for h in after.heuristics]
    pairs = {x: x for x in a if x in b}
    left_a, left_b = [x for x in a if x not in pairs], [x for x in b if x not in pairs.values()]
    names = {h.label: h.name for h in after.heuristics}
    for x in list(left_a):
        name = next(h.name for h in before.heuristics if h.label == x)
        match = next((y for y in left_b if names[y] == name), None)
        if match is not None:
            pairs[x] = match
            left_a.remove(x)
            left_b.remove(match)
    if len(left_a) == 1 and len(left_b) == 1:
        pairs[left_a[0]] = left_b[0]
        left_a, left_b = [], []
    out: list[tuple[str | None, str | None]] = [(x, pairs.get(x)) for x in a]
    return out + [(None, y) for y in b if y not in pairs.values()]


@dataclass(frozen=True)
class Winner:
    """The headline metric's best heuristic of a run, and whether it is told apart from its runner-up."""

    label: str | None
    mean: float
    clear: bool
    runner_up: str | None
    tiny: str | None = None  # a real difference from the runner-up under 1% of its value: its size (by_a_hair)
    margin: str = ""  # its real lead over the runner-up, "8.4% below min-min" (margin_words), else ""
    gap: float = math.nan  # that lead's size, in percent or points
    #: where every heuristic nears the most the rest of a share can reach without the part its lead is all in
    #: (:func:`~hcsched.verdict.near_bound`): "the most possible", "near the most possible, 87.3%", else ""
    near: str = ""

    def moved_from(self, before: Winner) -> bool:
        """Whether its real lead over the runner-up differs from ``before``'s enough to say: another runner-up, or a
        lead :data:`MARGIN_MOVES` times as large or as small (8.4% -> 1.3%; not 8.4% -> 9.4%)."""
        if not (self.margin and before.margin):
            return False
        return self.runner_up != before.runner_up or max(self.gap, before.gap) >= MARGIN_MOVES * min(self.gap,
                                                                                                    before.gap)


NO_WINNER = Winner(None, math.nan, False, None)  # nothing to rank


def winner_of(scenario: Scenario, results: pd.DataFrame) -> Winner:
    """The winner of a run on its model's headline metric (:func:`hcsched.verdict.scenario_verdicts`' first)."""
    return _headline_winner(winners_of(scenario, results))


def _headline_winner(winners: Mapping[str, Winner]) -> Winner:
    """The first of :func:`winners_of`'s: the headline metric's."""
    return next(iter(winners.values()), NO_WINNER)


def winners_of(scenario: Scenario, results: pd.DataFrame) -> dict[str, Winner]:
    """The winner of a run on each of its model's headline metrics (:func:`hcsched.verdict.scenario_verdicts`, the
    headline metric first), by metric name: clear where told apart from its runner-up, but never where its lead is
    all in one part of the metric (:attr:`~hcsched.verdict.Verdict.carried_in`: its lead says it is no win)."""
    return {v.metric: Winner(v.best, v.best_mean, v.separated and not v.carried_in, v.other, by_a_hair(v),
                             margin_words(v), abs(v.difference), near_bound(v) if v.carried_in else "")
            if v.best is not None else NO_WINNER for v in scenario_verdicts(scenario, results)}


@dataclass(frozen=True)
class RunComparison:
    """A baseline run against a what-if run (:func:`compare_runs`)."""

    before: Scenario
    after: Scenario
    paired: bool
    differences: tuple[str, ...]  # what differs, in words (:func:`run_changes`)
    metrics: tuple[Metric, ...]  # compared, the headline metric first
    changes: tuple[Change, ...]  # per metric (in ``metrics`` order), per matched heuristic
    winners: tuple[Winner, Winner]  # the headline metric's, before and after
    left_out: tuple[str, ...] = ()  # metrics not compared: normalised to another benchmark in each run
    #: the heuristics of each run that could not keep up with its arrivals (``Model.overloaded``)
    overloaded: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: the baseline's winner against the what-if's on the headline metric, where the winner changes (else None)
    best: Change | None = None
    #: (metric, numerator, yardstick) of each metric that is a share of a per-trial yardstick (:func:`share_of`)
    shares: tuple[tuple[str, str, str], ...] = ()
    #: the changes of those numerators and yardsticks, per pair of heuristics (:func:`_share_parts`)
    parts: tuple[Change, ...] = ()
    #: each headline metric's winner (:func:`winners_of`), before and after: a line that leads with another metric
    #: than the headline says who wins on it after the change too
    metric_winners: tuple[Mapping[str, Winner], Mapping[str, Winner]] = ({}, {})
    #: the pairs of the what-if's heuristics, one of them not in the baseline, with the same results in every trial
    #: (:func:`~hcsched.verdict.alike_pairs`: met swapped in where kpb keeps one machine)
    alike: tuple[tuple[str, str], ...] = ()

    @property
    def left_out_text(self) -> str:
        """"Normalised makespan is not compared: its benchmark changed (min-min → mct)."; "" when none."""
        if not self.left_out:
            return ""
        names = " and ".join(self.left_out)
        verb = "is" if len(self.left_out) == 1 else "are"
        return (f"{names[:1].upper()}{names[1:]} {verb} not compared: the benchmark changed "
                f"({self.before.benchmark_label} → {self.after.benchmark_label}).")

    @property
    def headline(self) -> Metric:
        return self.metrics[0]

    @property
    def pairing(self) -> str:
        """How the intervals were computed, in one sentence (the method, for the CSV, the command and a help text)."""
        if self.paired:
            n = self._common_trials()
            common = "" if self.before.trials == self.after.trials else f" over the {n} trials both ran"
            if same_tasks(self.before, self.after):
                return (f"Paired{common}: both runs have the same system and seed, so "
                        "every trial ran the same tasks in "
                        "both; each change is computed trial by trial.")
            return (f"Paired{common} (common random numbers): both runs have the same "
                    "seed, so trial by trial they draw "
                    "the same random numbers, for another system; each change is computed trial by trial (valid "
                    "whatever the trials share, and narrower the more alike they are).")
        return ("Unpaired (Welch): the runs have different seeds, so their trials are independent samples; the "
                "intervals compare the two sets of trials as such.")

    @property
    def pairing_words(self) -> str:
        """What the two runs share, in plain words (:attr:`pairing` says the method): "Both runs used the same random
        tasks (the same seed), so the differences come from the change"."""
        if not self.paired:
            return ("The runs used different random tasks (different seeds), so part of each difference is chance: "
                    "the 95% intervals allow for it.")
        n = self._common_trials()
        common = "" if self.before.trials == self.after.trials else f" in the {n} trials both ran"
        tasks = "ran the very same tasks" if same_tasks(self.before, self.after) else "used the same random tasks"
        return f"Both runs {tasks}{common} (the same seed), so the differences come from the change."

    def _common_trials(self) -> int:
        """The fewest trials a matched pair of heuristics was compared over (the trials both runs ran)."""
        return min((c.trials[0] for c in self.changes if c.before_label and c.after_label), default=0)

    def subject(self) -> Change | None:
        """The change the change line is about: a replaced heuristic's, else the baseline winner's (against the
        what-if's winner when the baseline winner is gone)."""
        name = self.headline.name
        mine = [c for c in self.changes if c.metric == name]
        replaced = next((c for c in mine if c.before_label and c.after_label and c.before_label != c.after_label), None)
        if replaced is not None:
            return replaced
        first = self.winners[0].label
        return next((c for c in mine if c.before_label == first and c.after_label), None)

    @property
    def workload(self) -> list[str]:
        """The settings, in words, whose change makes the work itself differ (:func:`workload_changed`)."""
        return workload_changed(self.before, self.after)

    def charted(self) -> dict[str, Metric]:
        """The headline metrics compared: the model's charted metrics that have a verdict
        (:func:`hcsched.verdict.headline_metrics`, one way better), but the normalised ones."""
        compared = {m.name for m in self.metrics}
        return {m.name: m for m in headline_metrics(get_model(self.before.model).bar_metrics(), compared)
                if m.better and not m.name.startswith("normalized_")}

    def _of_pair(self, c: Change) -> list[Change]:
        """The changes of the headline metrics of the heuristics of ``c``."""
        charted = self.charted()
        return [o for o in self.changes if o.metric in charted
                and (o.before_label, o.after_label) == (c.before_label, c.after_label)]

    def leading(self) -> tuple[Metric, Change] | None:
        """The change the line leads with, of the heuristics of :meth:`subject`: the first headline metric's (the
        model's own, e.g. makespan) when it is real and no bigger real change goes the other way; else the biggest
        real change among the headline metrics (in percent first, then in points): a trade-off leads with its bigger
        side. Where the work itself differs, a change for the worse comes first (a harder workload can make a number
        look better: twice the arrival rate shortens the makespan and lengthens every task's wait). The headline
        metric's when no change is real; None without a subject."""
        c = self.subject()
        if c is None:
            return None
        charted = self.charted()
        real = [o for o in self._of_pair(c) if o.separated]
        if self.workload:
            real = [o for o in real if not _better(charted[o.metric], o)] or real
        if not real:
            return self.headline, c
        size = lambda o: (o.kind == "percent", abs(o.change))  # noqa: E731
        biggest = max(real, key=size)
        first = next(iter(charted), None)  # the headline metrics in the model's order
        found = next((o for o in real if o.metric == first), None)
        if found is None or (_better(charted[biggest.metric], biggest) != _better(charted[first], found)
                             and size(biggest) > size(found)):
            found = biggest
        return charted[found.metric], found

    def _what(self, at_most: int = 2, said: list[str] | None = None) -> str:
        """What differs (``said``, by default :attr:`differences`): the first ``at_most``, and how many more."""
        said = list(self.differences) if said is None else said
        if not said:
            return "The same scenario"
        shown, more = "; ".join(said[:at_most]), len(said) - at_most
        return f"{shown} and {more} more change{'s' if more > 1 else ''}" if more > 0 else shown

    def _though(self, metric: Metric, c: Change) -> str:
        """Where the lead says another metric than the model's headline one (a bigger real change), the headline
        metric's own change for the heuristics of ``c``, after it: ", though makespan is 3.5% shorter", ", with no
        real change in makespan"; "" when the lead says the headline metric. After, not before: the biggest change
        is what a reader takes from the line's first words."""
        if metric.name == self.headline.name:
            return ""
        h = next((o for o in self.changes if o.metric == self.headline.name
                  and (o.before_label, o.after_label) == (c.before_label, c.after_label)), None)
        if h is None or math.isnan(h.change):
            return ""
        words = metric_words(self.headline)
        if h.separated or math.isnan(h.lower):
            return f", though {words} is {size_words(h, self.headline)}"
        return f"{UNMOVED} in {words}"

    def _headline_change(self, c: Change) -> Change | None:
        """The headline metric's change of the heuristics of ``c``."""
        return next((o for o in self.changes if o.metric == self.headline.name
                     and (o.before_label, o.after_label) == (c.before_label, c.after_label)), None)

    def arrival_factor(self) -> float | None:
        """How many times more often tasks arrive in the what-if than in the baseline, where only settings of
        :data:`RATE_FACTORS` set it (one, or several by one factor); None otherwise."""
        changed = [x for x in changed_settings(self.before, self.after) if x[0] in RATE_FACTORS]
        if len(changed) == 1:
            return _rate_factor(*changed[0])
        return _common_rate_factor(changed)

    def _lighter(self) -> bool:
        """Whether the what-if only lightens the machines' load: more machines (:data:`MACHINE_COUNTS`), tasks
        arriving less often (:data:`RATE_FACTORS`), or both."""
        changed = changed_settings(self.before, self.after)
        more = [x for x in changed if x[0] in MACHINE_COUNTS]
        if len(more) + sum(x[0] in RATE_FACTORS for x in changed) != len(changed) or not changed:
            return False
        factor = self.arrival_factor() if len(more) < len(changed) else 1.0
        return all(_is_number(old) and _is_number(new) and new > old for _, old, new in more) \
            and factor is not None and factor <= 1 and (bool(more) or factor < 1)

    def _slower(self, metric: Metric, c: Change) -> list[str]:
        """Where the lead says the headline metric worse and tasks arrive more slowly, why, after it: ", as the same
        tasks arrive over twice the time" (the quickstart's half the arrival rate read "makespan 6.2 → 8.2 days (32%
        longer: a real change, for the worse)" as the heuristics doing worse, while the last task only arrives later);
        none otherwise."""
        factor = self.arrival_factor()
        if metric.name != self.headline.name or not c.separated or factor is None or factor >= 1 \
                or _better(metric, c):
            return []
        span = _time_share(1.0 / factor)
        return [f", as the same tasks arrive over {span}", f", as tasks arrive over {span}",
                f", with arrivals over {span}"]

    def _sooner(self, metric: Metric, c: Change) -> list[str]:
        """Where the lead says a change for the worse and tasks arrive faster, the headline metric's change for the
        better said with its cause after it (a harder workload made the number look better): ", though its makespan is
        38% shorter only because the tasks arrive in half the time", then shorter forms ("; its 3.5% shorter makespan
        comes only from faster arrivals"), the heuristic's own ("its": whose makespan, said); none otherwise."""
        h = self._headline_change(c)
        factor = self.arrival_factor()
        if (metric.name == self.headline.name or h is None or not h.separated or factor is None or factor <= 1
                or not _better(self.headline, h) or _better(metric, c)):
            return []
        words, span = metric_words(self.headline), _time_share(1.0 / factor)
        size, moved = size_words(h, self.headline), _moved(self.headline, h.change > 0)
        return [f", though its {words} is {size} only because the tasks arrive in {span}",
                f"; its {words} {size} only because tasks arrive in {span}",
                f"; its {words} {size} only because arrivals span {span}",
                f"; its {size} {words} comes only from faster arrivals",
                f"; its {words} {size} only from faster arrivals",
                f"; its {moved} {words} comes only from faster arrivals"]

    def share_why(self, metric: Metric, c: Change) -> str:
        """Where ``metric`` is a share of a per-trial yardstick (:func:`share_of`) that the what-if changed, and
        ``c`` a real change of it, which of the two moved it, the bigger first: ", as the value itself falls while the
        upper bound stays" (the work done fell; its size is the share's, said before), ", all in tasks that arrive
        before scoring starts" where one part of the work done carries nine tenths of that move or more
        (:meth:`part_why` says why below), ", as the upper bound rises 40% and the value itself rises 20%" (a bigger
        yardstick, not less work done); "" otherwise."""
        share = next((x for x in self.shares if x[0] == metric.name), None)
        if share is None or not c.separated:
            return ""
        found = [next((p for p in self.parts if p.metric == name
                       and (p.before_label, p.after_label) == (c.before_label, c.after_label)), None)
                 for name in share[1:]]
        if None in found or any(math.isnan(p.change) for p in found) or found[1].change == found[1].lower \
                == found[1].upper == 0:  # the same yardstick in every trial: the share moves as the work done
            return ""
        model = get_model(self.before.model)
        yardstick = of_what(metric).removeprefix(" of ") or f"the {metric_words(model.metric(share[2]))}"
        named = (f"the {metric_words(metric if of_what(metric) else model.metric(share[1]))} itself", yardstick)
        said = sorted(zip(found, named, strict=True), key=lambda x: (x[0].separated, abs(x[0].change)), reverse=True)
        (first, a), (second, b) = said
        part = self._carrying(metric, c, share)
        whole = metric_words(metric if of_what(metric) else model.metric(share[1]))
        if part is not None and part[2] >= 0.9 and (words := part_words(part[0], whole)):
            return f", all in {words}"  # "..., all in tasks that arrive before ..."
        if not second.separated:  # one moved: which, without a second number beside the share's own
            moved = _moves(first)
            return f", as {a} {moved.split(' ')[0] if moved.startswith(('rises', 'falls')) else moved} while {b} stays"
        return f", as {a} {_moves(first)} and {b} {_moves(second)}"

    def _carried_words(self, metric: Metric, c: Change, who: str = "") -> str:
        """Where one part of a share's numerator carries nine tenths of its move or more (:meth:`share_why`'s ", all
        in ..."), that the rest barely moves, with its values, then where the move is: "the best value barely moves
        without tasks that arrive before scoring starts (87.1% → 87.3%); its 3.8-point fall is all in them" (a manager
        read "twice the machines ... 91.3% → 87.4% (clearly worse)" as more machines hurting, while the window that
        counts did not move); ``who``: whose value, "max-min's value" (by default the best's); without the rest's
        values, the move, that it is real, where it is and why it moves alone (its part's :attr:`Metric.gloss`); ""
        otherwise."""
        why = self.share_why(metric, c)
        share = next((x for x in self.shares if x[0] == metric.name), None)
        part = self._carrying(metric, c, share) if why.startswith(", all in ") and share else None
        if part is None or not part[0].gloss or math.isnan(c.change):
            return ""
        who = who or f"the best {metric_words(metric)}"
        fall = "fall" if c.change < 0 else "rise"
        rests = self._every_rests(metric, c)
        if rests is not None and max(max(x) - min(x) for x in rests) < ALL_WITHIN:
            # every heuristic alike on the rest, before and after: said of every one, the bars' fall below
            near = f", {self.winners[1].near}" if self.winners[1].near else ""  # why none can gain on it
            return (f"every heuristic's {metric_words(metric)}{REST_STAYS}{why.removeprefix(', all in ')} "
                    f"({_value_span(rests[0], metric)} → {_value_span(rests[1], metric)}){near}")
        rest = self._rest_pair(c, part[1], metric, share[2])
        if rest:  # what the what-if leaves as it was, with its values: the answer a manager reads first
            size = size_text(c.change, c.kind).replace(" points", "-point").replace(" point", "-point")
            return f"{who}{REST_STAYS}{why.removeprefix(', all in ')} ({rest}); its {size} {fall} is all in them"
        moved = f"{'falls' if c.change < 0 else 'rises'} {size_text(c.change, c.kind)}"
        return f"{who} {moved}, for real{why}: {part[0].gloss}"  # real: share_why's own test

    def _carrying(self, metric: Metric, c: Change, share: tuple[str, str, str]) -> tuple[Metric, Change, float] | None:
        """The part of the share's numerator (a metric whose ``part_of`` names it) that moved for real with three
        quarters or more of the share's real move, with that fraction: its own share of the yardstick, before and
        after, against the share's (half the arrival rate halves Kim et al.'s upper bound and value alike, and the
        share falls only through the start-up tasks); of the numerator's move where the yardstick has no value;
        None otherwise."""
        model, pair = get_model(self.before.model), (c.before_label, c.after_label)
        mine = {p.metric: p for p in self.parts if (p.before_label, p.after_label) == pair}
        whole = mine.get(share[1])
        if whole is None or not whole.separated:
            return None
        for name, part in mine.items():
            m = model.metric(name)
            if m.part_of != share[1] or not part.separated:
                continue
            shares = self._part_shares(part, metric, share[2])
            moved, by = (c.after - c.before, shares[1] - shares[0]) if shares is not None else \
                (whole.after - whole.before, part.after - part.before)
            fraction = by / moved if moved and math.isfinite(moved) else 0.0
            if fraction >= 0.75:
                return m, part, fraction
        return None

    def part_why(self, metric: Metric, c: Change, rest: bool = True) -> str:
        """Where :meth:`share_why` says the share's numerator moved, and one part of that numerator (a metric whose
        ``part_of`` names it) carries most of the move for real, that part and why it can move alone, its
        :attr:`Metric.gloss`: "The fall is in the value of tasks that arrive before scoring starts: max-min 4.2% →
        max-max 0.38% of the upper bound (their work before then earns nothing)."
        (twice the machines finish the start-up tasks before Kim et al.'s window opens); "" otherwise. ``rest``:
        False where the lead said what the rest does (:meth:`_carried_words`)."""
        share = next((x for x in self.shares if x[0] == metric.name), None)
        said = self.share_why(metric, c)
        if share is None or not said:
            return ""
        found = self._carrying(metric, c, share)
        if found is None:
            return ""
        m, part, share_of_move = found
        model = get_model(self.before.model)
        how = "The" if share_of_move >= 0.9 else "Most of the"
        title = f"{m.title[:1].lower()}{m.title[1:]}"
        why = f" ({m.gloss})" if m.gloss else ""
        pair = self._of_yardstick(part, m, metric, share[2])
        whole_words = metric_words(metric if of_what(metric) else model.metric(share[1]))
        moves = self._rest_pair(c, part, metric, share[2])
        rest = f" The rest of the {whole_words} barely moves{': ' + moves if moves else ''}." \
            if share_of_move >= 0.9 and rest else ""  # under a tenth of the move: what the what-if leaves as it was
        if said.startswith(", all in "):  # the lead said where and why (its gloss): the bars' move, only through
            # the part ("The value of max-min: 91.3% → 87.4%" alone read as more machines hurting it)
            a, b = _values(c, metric)
            what, moves = metric_words(metric), "falls" if c.after < c.before else "rises"
            bars = f"the {what} of {c.after_label} {moves} {a} → {b}" if c.before_label == c.after_label else \
                f"the best {what} {moves} from {a} ({c.before_label}) to {b} ({c.after_label})"
            if c.before_label == c.after_label:  # its own two values: never its label twice in one clause
                pair = f"whose part {moves.removesuffix('s')}s {pair.removeprefix(f'{c.before_label} ')}"
            words = part_words(m, whole_words) or title
            why = f" {sentence_start(words)}: {m.gloss}." if m.gloss else ""  # why that part moves alone
            cause = f": {m.lighter_why}" if m.lighter_why and part.after < part.before and self._lighter() else ""
            return f"{sentence_start(bars)} only through {words}, {pair}{cause}.{why}{rest}"
        return f"{how} {'fall' if part.after < part.before else 'rise'} is in the {title}: {pair}{why}.{rest}"

    def _rest_pair(self, c: Change, part: Change, share: Metric, yardstick: str) -> str:
        """The share without the part that carries its move, before and after: "87.0% → 87.1%" (a manager asked
        what the value scored after start-up does with twice the machines); "" where the shares are unknown."""
        shares = self._part_shares(part, share, yardstick)
        if shares is None or math.isnan(c.before) or math.isnan(c.after):
            return ""
        return _short_pair(c.before - shares[0], c.after - shares[1], share)

    def _of_yardstick(self, part: Change, m: Metric, share: Metric, yardstick: str) -> str:
        """A part's two means as shares of the yardstick the share metric is of, in its unit, so that they read beside
        it ("max-min 4.2% → max-max 0.4% of the upper bound"); its own two means a trial where the yardstick has no
        value ("max-min 389 → max-max 35 a trial")."""
        shares = self._part_shares(part, share, yardstick)
        if shares is None:
            return f"{_full_pair(part, m)} a trial"
        return _full_pair(replace(part, before=shares[0], after=shares[1]), share)

    def _part_shares(self, part: Change, share: Metric, yardstick: str) -> tuple[float, float] | None:
        """A part's two means as shares of the yardstick, in the share metric's unit (4.2, 0.38 for "% of the upper
        bound"); None where the yardstick has no value."""
        whole = next((p for p in self.parts if p.metric == yardstick
                      and (p.before_label, p.after_label) == (part.before_label, part.after_label)), None)
        if whole is None or not whole.before > 0 or not whole.after > 0:
            return None
        scale = 1.0 if is_fraction(share) else 100.0
        return scale * part.before / whole.before, scale * part.after / whole.after

    def _not_like_for_like(self, c: Change) -> list[Metric]:
        """The headline metrics of ``c``'s heuristics that got better for real while the work itself differs."""
        if not self.workload:
            return []
        charted = self.charted()
        return [charted[o.metric] for o in self._of_pair(c) if o.separated and _better(charted[o.metric], o)]

    def change_parts(self) -> tuple[str, list[str]]:
        """(lead, rest) of the change line (see :meth:`change_line`): the lead at most :data:`CHANGE_LEAD_WORDS`
        words where the labels allow (what differs said short and fewer of its differences named, the caveat and
        the winner said after it where they do not fit); the rest says all that was shortened: what differs, the
        values in full, the change's 95% interval and how it was computed. Each heuristic is named in words at its
        first mention (:func:`~hcsched.verdict.named_once`), in the lead where that still fits, else in the rest."""
        lead, rest = self._bare_parts()
        names = self._names()
        named = named_once([lead, *rest], names)
        if word_count(named[0]) <= CHANGE_LEAD_WORDS:
            return named[0], named[1:]
        return lead, named_once(rest, names)

    def _names(self) -> dict[str, str]:
        """Both runs' heuristics' labels -> their plain words (:func:`~hcsched.verdict.run_words`)."""
        return {k: v for s in (self.before, self.after)
                for k, v in run_words([h.label for h in s.heuristics], s.model).items()}

    def _named_below(self, lead: str, below: list[str]) -> list[str]:
        """The sentences under the lead with each heuristic named in words at its first mention where the lead did
        not name it (said bare there for room), and, for one said bare that no line names (the lead, or a sentence
        naming it would take past :data:`~hcsched.verdict.LEAD_WORDS`), its words in one legend sentence ("max-min:
        latest-finishing task first; switching: fastest machine, ..."): a manager reads every heuristic in words on
        the lines in view."""
        names = self._names()
        done, named = set(named_in(lead, names)), []
        for line in below:
            said = named_once([line], names, skip=done)[0]
            if max(map(word_count, sentences(said))) > LEAD_WORDS:
                said = line
            done |= set(named_in(said, names))
            named.append(said)
        unsaid = said_bare(" ".join([lead, *named]), {k: v for k, v in names.items() if k not in done})
        named = [sentence_opening(x, self.after.model) for x in named]
        if unsaid:  # a legend, one sentence, marked: a page may show it apart, as a caption
            legend = "; ".join(f"{label}: {names[label]}" for label in unsaid) + "."
            named.append(f"{LEGEND_BELOW}{sentence_opening(legend, self.after.model)}")
        return named

    def _bare_parts(self) -> tuple[str, list[str]]:
        """:meth:`change_parts` with the heuristics' labels alone."""
        found = self.leading()
        if found is None:
            return f"{self._what()}: no heuristic of the baseline is in the what-if.", [self.pairing]
        metric, c = found
        short = lead_changes(self.before, self.after)
        piled = self._piles_up(c)
        if piled is not None:
            return self._piled_up_parts(self._followed(c, piled), short, piled)
        old = self._old_winner()
        if old is not None:
            return self._best_parts(old, short)
        every = self._every_parts(metric, c, short)
        if every is not None:
            return every
        said, named, though = self._fitted(short, metric, c)
        carried = self._carried_words(metric, c, f"{c.before_label}'s {metric_words(metric)}") \
            if c.before_label == c.after_label and metric.name == self.headline.name else ""
        if carried and word_count(f"{self._what(1, short)}: {carried}.") <= CHANGE_LEAD_WORDS:
            said, named, though = carried, metric_words(metric), ""  # the rest that stays first, then where it moved
        lead, rest = self._opening(short, said)
        lead, rest = self._swap_verdict(c, lead, rest)
        if not though and self._though(metric, c).startswith(UNMOVED):  # said below, not lost
            rest.append(f"No real change in {metric_words(self.headline)}.")
        easier = self._not_like_for_like(c)
        differs = f"the work itself differs ({listed(self.workload)})" if self.workload else ""
        if metric in easier:  # the lead's own change looks better than the schedule made it
            caveat = next((x for x in ("; not like for like: the work differs", "; not like for like")
                           if word_count(f"{lead}{x}.") <= CHANGE_LEAD_WORDS), "")
            lead += caveat
            if caveat != "; not like for like: the work differs":  # why, first below the lead
                rest.append(f"{differs[:1].upper()}{differs[1:]}, so its {metric_words(metric)} is not like for like.")
        glossed = metric.name != self.headline.name and named != f"{metric_words(metric)} ({metric.gloss})"
        rest += [_detail(c, metric, glossed=glossed, unit=self.time_unit(metric)), *self._share_details(metric, c),
                 *self._also_real(c, metric)]
        easier = [m for m in easier if m != metric]
        if easier:
            rest.append(f"{differs[:1].upper()}{differs[1:]}, so the better {listed(metric_words(m) for m in easier)} "
                        f"{'is' if len(easier) == 1 else 'are'} not like for like.")
        return self._with_winner(lead, rest, "" if metric.name == self.headline.name else metric_words(self.headline))

    def _swap_verdict(self, c: Change, lead: str, rest: list[str]) -> tuple[str, list[str]]:
        """Where one heuristic is put instead of another and the choice is clear (:meth:`swap_choice`), the choice at
        the lead's end where it fits, its change then said "clearly worse" where that makes room ("...(3.0 times as
        long: clearly worse); keep min-min, better on every metric"), else first below it ("Keep min-min: it is better
        on every metric here."); a tryout found a swap's lead gave the sizes and no verdict. ``lead`` and ``rest`` as
        they are otherwise."""
        choice = self.swap_choice(c)
        if choice is None:
            return lead, rest
        tail, sentence = choice
        compact = re.sub(r": a real change, for the (worse|better)\)", r": clearly \1)", lead)  # as _judged says it
        said = next((x for x in (lead, compact) if word_count(f"{x}{tail}.") <= CHANGE_LEAD_WORDS), None)
        return (f"{said}{tail}", rest) if said is not None else (lead, [sentence, *rest])

    def swap_choice(self, c: Change) -> tuple[str, str] | None:
        """(the lead's tail, the sentence) of a swap's choice, where ``c`` is one heuristic put instead of another,
        every headline metric of the two moved the same way for real, and not by a hair: "; keep min-min, better on
        every metric" and "Keep min-min: it is better on every metric here.", or "; max-min is better on every metric"
        and "Max-min is better on every metric here."; None otherwise."""
        pair = self._of_pair(c)
        if c.before_label == c.after_label or not pair or not all(o.separated for o in pair) \
                or is_small(c.change, c.kind, c.before):  # a hair's gain is no reason to choose: its size says it
            return None
        charted = self.charted()
        ways = {_better(charted[o.metric], o) for o in pair}
        if len(ways) != 1:
            return None
        every = "every metric" if len(pair) > 1 else metric_words(charted[pair[0].metric])
        if ways.pop():
            said = f"{c.after_label} is better on {every}"
            return f"; {said}", sentence_opening(f"{said} here.", self.after.model)
        return f"; keep {c.before_label}, better on {every}", f"Keep {c.before_label}: it is better on {every} here."

    def _every_parts(self, metric: Metric, c: Change, short: list[str]) -> tuple[str, list[str]] | None:
        """(lead, rest) where every heuristic's headline metric moved the same way for real (:meth:`_every_moved`)
        and the winner's standing moved with it (crowned before and not after, or a winner that stays with a lead
        :data:`MARGIN_MOVES` times as large or small): who wins first, then how every one moved, and why where the
        arrivals spread ("half the arrival rate: sufferage still wins, by 1.3% (was 8.4%); every heuristic's makespan
        is 13–32% longer, as the same tasks arrive over twice the time"; "twice the machines: no clear winner any more
        (sufferage led by 8.4%); every heuristic's makespan is 35–46% shorter"): a tryout found the news, the winner's
        lead shrunk or gone, under a lead that followed one heuristic. None otherwise, or where it does not fit."""
        a, b = self.winners
        every = self._every_moved(metric)
        if not every or a.label is None or b.label is None or self._none_keep_up(0) or self._none_keep_up(1) \
                or not a.clear:
            return None
        tails, why, standings = [*self._slower(metric, c), ""], [], []
        if metric.name != self.headline.name:  # another metric leads: both winners first, where both stay
            if not self._both_stay(metric):
                return None
            m = self.metric_winners[1][metric.name]
            standing = (f"{BOTH_STAY}{b.label} on {metric_words(self.headline)}, {m.label} on "
                        f"{metric_words(metric)})")
            tails, why = [""], self._harder(metric, c)
        elif b.clear and a.label == b.label and b.moved_from(a):
            how = "but only" if abs(b.gap) < abs(a.gap) else "now"  # "still wins, by 1.3%" read as a big win
            over = (lambda w: f" over {w.runner_up}") if a.runner_up != b.runner_up else (lambda w: "")  # noqa: E731
            standing = f"{b.label}{STILL_WINS}{metric_words(metric)}, {how} by {_gap_words(b)}"
            standings = [f"{standing}{over(b)} (was {_gap_words(a)}{over(a)})", f"{standing} (was {_gap_words(a)})"]
            # the metric and each runner-up said where they fit with the why (a tryout read "still wins" beside an
            # "In short" pick of another, and "was 8.4%" as against the same runner-up)
        elif not b.clear:  # "(sufferage led by 8.4%)" read backwards; why, where every one nears the bound
            standing = f"{NO_WINNER_NOW}before, {a.label} won by {_gap_words(a)})"
            tails = [x for x in (self._at_bound(metric),) if x] + tails
        else:
            return None
        standings = standings or [standing]
        moved = f"{every[:1].lower()}{every[1:-1]}"
        for tail, standing in ((t, s) for t in tails for s in standings):
            said = f"{standing}; {moved}{tail}"
            if word_count(f"{self._what(1, short)}: {said}.") <= CHANGE_LEAD_WORDS:
                lead, rest = self._opening(short, said)
                why = why or self._why_below(metric, c, said)
                return f"{lead}.", [*rest, *why, _detail(c, metric, unit=self.time_unit(metric)),
                                    *self._also_real(c, metric)]
        return None

    def _why_below(self, metric: Metric, c: Change, lead: str) -> list[str]:
        """Where ``lead`` says how every heuristic's ``metric`` moved but had no room for why (:meth:`_slower`), that
        why in a sentence of its own: "Every heuristic's makespan is longer, as the same tasks arrive over twice the
        time." (a tryout found half the arrival rate's 13–32% longer makespans said without it once the lead said
        the winner's standing); none otherwise."""
        slower = self._slower(metric, c)
        if not slower or any(x in lead for x in slower):
            return []
        return [f"Every heuristic's {metric_words(metric)} is {_moved(metric, c.change > 0)}{slower[0]}."]

    def _at_bound(self, metric: Metric) -> str:
        """Where every heuristic of the what-if is within :data:`NEAR_BOUND` of ``metric``'s lower bound on average
        (its ratio to the bound, a metric whose ``of`` names it), how near: ", all within 1.8% of the lower bound"
        (twice the machines: no winner any more because none can do better; a tryout asked why); "" otherwise."""
        ratio = next((m for m in self.metrics if m.of == metric.name), None)
        after = [c.after for c in self.changes if ratio is not None and c.metric == ratio.name and c.after_label]
        if not after or not all(map(math.isfinite, after)) or max(after) - 1.0 > NEAR_BOUND:
            return ""
        return f", all within {size_text(100.0 * (max(after) - 1.0), 'percent')} of the lower bound"

    def _harder(self, metric: Metric, c: Change) -> list[str]:
        """Where a lead says every heuristic's ``metric`` and the headline metric of ``c``'s heuristic looks better
        only because the work is harder, that in a sentence of its own: "Sufferage's makespan is 3.5% shorter only
        because the tasks arrive in half the time." (:meth:`_sooner`); none otherwise."""
        sooner = self._sooner(metric, c)
        if not sooner:
            return []
        return [sentence_opening(f"{c.before_label}'s {sooner[0].removeprefix(', though its ')}.", self.after.model)]

    def _fitted(self, short: list[str], metric: Metric, c: Change) -> tuple[str, str, str]:
        """(what the lead says after what differs, the metric as it names it, the headline metric's change said
        after it): the metric as the Results leads say it where that fits within :data:`CHANGE_LEAD_WORDS`, its plain
        words beside its name ("max stretch (the worst task's slowdown)"), else its plain words alone where they are
        a short name (:data:`GLOSS_AS_NAME`: "the worst task's slowdown", never "a task's time from arrival to finish,
        averaged of mct"), else its name alone (its words said below). The headline metric's change after it
        (:meth:`_though`) comes first: where the lead says a change for the worse of a harder workload, the better
        headline number is the other half of the point ("(clearly worse), though makespan is 38% shorter"); then
        room for whether the winner stays (:meth:`_with_winner`), the values said without what they are of where that
        makes the room. The headline metric's name stands alone: the run's own lead glosses it."""
        name = metric_words(metric)
        names = [name]
        if metric.gloss and metric.name != self.headline.name:  # a gloss alone where it reads as a name
            names = [f"{name} ({metric.gloss})", *([metric.gloss] if word_count(metric.gloss) <= GLOSS_AS_NAME else []),
                     name]
        on = "" if metric.name == self.headline.name else metric_words(self.headline)
        room = word_count(self.winner_words(on, short=True))
        fits = lambda said, r: word_count(f"{self._what(1, short)}: {said}.") <= CHANGE_LEAD_WORDS - r  # noqa: E731
        unit = self.time_unit(metric)  # once, not for every form tried
        slower = self._slower(metric, c)  # its change said without "for the worse": the tail says why it moved
        for tails, why in self._tails(metric, c):
            # a shorter tail or name, or the winner below, before a change left unsized (terse: a form of three)
            found = {terse: [(f"{n} of {_lead_pair(c, metric, *form, unit=unit, neutral=tail in slower)}{tail}", n,
                              tail)
                             for n in names for tail in tails for form in _forms(tail, why)
                             if (len(form) == 3) == terse] for terse in (False, True)}
            hit = next((x for terse in (False, True) for r in (room, 0) for x in found[terse] if fits(x[0], r)), None)
            if hit is not None:
                return hit
        return f"{names[-1]} of {_lead_pair(c, metric, unit=unit)}", names[-1], ""

    def _tails(self, metric: Metric, c: Change) -> list[tuple[list[str], bool]]:
        """What a lead may say after its change, each group of forms tried in turn, with whether it says why a
        number moved (:func:`_forms`): why a share moved (:meth:`share_why`), why the headline number looks better
        (:meth:`_sooner`), then the headline metric's change alone (:meth:`_though`), then nothing. A share that
        looks better where the work itself differs leaves its lead's room to saying so (:meth:`_not_like_for_like`)."""
        though = self._though(metric, c)
        why = "" if metric in self._not_like_for_like(c) else self.share_why(metric, c)
        groups = [([why + though], True)] if why else []
        # the slower arrivals said with the change's size, never instead of it (its forms keep the size)
        unmoved = [f"; {metric_words(self.headline)}: no real change"] if though.startswith(UNMOVED) else []
        groups += [(self._slower(metric, c), False), (self._sooner(metric, c), True), ([though, *unmoved], False),
                   ([""], False)]
        seen: set[str] = set()
        out = []
        for tails, said in groups:
            tails = [t for t in tails if t not in seen]
            seen.update(tails)
            out += [(tails, said)] if tails else []
        return out

    def _followed(self, c: Change, run: int) -> Change:
        """The change a line where one run's queues piled up follows: ``c`` (the baseline winner's), but the
        what-if's winner's where no heuristic of the baseline kept up (``run`` 0): its ranking only compared how fast
        the queues grew, and the reader follows the heuristic that wins now."""
        won = self.winners[1].label
        if run or not self._none_keep_up(0) or won is None or won == c.after_label:
            return c
        return next((o for o in self.changes if o.metric == c.metric and o.after_label == won and o.before_label), c)

    def _with_winner(self, lead: str, rest: list[str], on: str = "") -> tuple[str, list[str]]:
        """(lead, rest) with whether the winner stays (:meth:`winner_words`, ``on`` the metric said) at the lead's end
        where it fits, in full or short, else below it."""
        winner = self.winner_words(on)
        for said in (winner, self.winner_words(on, short=True)):
            if word_count(f"{lead}; {said}.") <= CHANGE_LEAD_WORDS:
                return f"{lead}; {said}.", rest + ([] if said == winner else [f"{self._begun(winner)}."])
        return f"{lead}.", [*rest, f"{self._begun(winner)}."]

    def _winner_moves(self, metric: Metric) -> str:
        """Where the winner on ``metric`` (not the headline) stays and its own value moves for real, how, sized and
        judged: "16 → 23 hours, 44% longer: clearly worse" (the quickstart's twice the arrival rate
        led with the makespan winner's flow time; a manager asked how the flow-time winner fares); "" otherwise
        (never "37.8 → 37.8 (no change in any trial)")."""
        a, b = (w.get(metric.name) for w in self.metric_winners)
        if a is None or b is None or a.label is None or a.label != b.label:
            return ""
        c = next((c for c in self.changes if c.metric == metric.name and c.before_label == c.after_label == b.label),
                 None)
        if c is None or math.isnan(c.change) or not c.separated:
            return ""
        pair = " → ".join(_lead_agreeing(c, metric) or ()) or _short_pair(c.before, c.after, metric,
                                                                          self.time_unit(metric))
        return f"{pair}, {_judged(c, metric, compact=True)}"

    def time_unit(self, metric: Metric) -> tuple[float, str] | None:
        """The unit a line says every time of ``metric`` in: :func:`~hcsched.formatting.span_unit` of the least mean
        of both runs (hours where one is under a day: "sufferage 34 → 55 hours" beside "min-min 16 → 23 hours", never
        "1.4 → 2.3 days" beside it); None for another metric or where a mean is under an hour (each pair its own)."""
        if metric.unit != "s":
            return None
        means = [x for c in self.changes if c.metric == metric.name for x in (c.before, c.after) if math.isfinite(x)]
        return span_unit(min(means)) if means else None

    def _begun(self, text: str) -> str:
        """``text`` begun as a sentence, a label at its start as the charts write it ("lpas now wins", never "Lpas":
        :func:`~hcsched.verdict.sentence_opening`)."""
        return sentence_opening(text, self.after.model)

    def _opening(self, short: list[str], said: str) -> tuple[str, list[str]]:
        """(lead, rest) opened with what differs (``short``: as a lead says it), two changes named where the lead
        still fits, else one, then ``said``; the rest says every difference where the lead did not."""
        named = next((n for n in (2, 1) if word_count(f"{self._what(n, short)}: {said}.") <= CHANGE_LEAD_WORDS), 1)
        rest = [f"What differs: {'; '.join(self.differences)}."] if short[:named] != list(self.differences) else []
        return f"{self._what(named, short)}: {said}", rest

    def _old_winner(self) -> Change | None:
        """The baseline winner's own change on the headline metric, where the winner changes to one told apart from
        its runner-up and the line is about it (no heuristic replaced): the line then leads with the best against the
        best (:meth:`_best_parts`)."""
        c = self.subject()
        if self.best is None or c is None or c.before_label != c.after_label or not self.winners[1].clear:
            return None  # no new winner told apart from its runner-up: the old winner's change leads, as before
        return c

    def _best_parts(self, old: Change, short: list[str]) -> tuple[str, list[str]]:
        """(lead, rest) where the winner changes: the best value before against the best after, judged trial by
        trial (:attr:`best`; "twice the arrival rate: the best value moves from max-min 91.3% to slack-sufferage
        90.8% of the upper bound (about 0.5 points lower: real, but under 1% of its value)", its short form where that
        does not fit, :func:`_best_words`), then the old winner's own
        change ("max-min itself 11 points lower"), and the winner, each in the lead where it fits, else below it:
        a manager reads first how the best answer moved, not how the old winner fell. Where the value is a share of
        a yardstick the what-if changed, why it moved comes first, the change said short where that makes room
        (:meth:`share_why`: "(clearly worse): the value itself falls 4.1%, the upper bound stays")."""
        metric, best = self.headline, self.best
        why = self.share_why(metric, best)
        forms = [{}, {"short": True}, {"short": True, "compact": True},
                 {"short": True, "compact": True, "sized": False}]
        fits = lambda said: word_count(f"{self._what(1, short)}: {said}.") <= CHANGE_LEAD_WORDS  # noqa: E731
        said = next((x for x in (_best_words(best, metric, **form) + why for form in forms) if why and fits(x)),
                    None)
        carried = self._carried_words(metric, best)
        if carried and fits(carried):  # one part carries the move: where, and why it moves alone, first
            said = carried
        if said is None:
            said = _best_words(best, metric)
            said = said if fits(said) else _best_words(best, metric, short=True)
        lead, rest = self._opening(short, said)
        drop = f"{old.before_label} itself {size_words(old, metric)}"
        every = said.startswith("every heuristic's")  # the lead says every one's rest: the old winner's fall below
        if math.isnan(old.change) or every or word_count(f"{lead}; {drop}.") > CHANGE_LEAD_WORDS:
            rest.append(f"The old winner: {metric_words(metric)} of {_lead_pair(old, metric)}.")
        else:
            lead += f"; {drop}"
        unit = self.time_unit(metric)
        return self._with_winner(lead, [*rest, _detail(best, metric, unit=unit), *self._share_details(metric, best),
                                        _detail(old, metric, unit=unit), *self._also_real(old, metric)])

    def _share_details(self, metric: Metric, c: Change) -> list[str]:
        """Where :meth:`share_why` says why a share moved, the changes of its numerator and yardstick in full, for
        the line's detail ("Value V of max-min 8,423 → max-max 8,095, -3.9%; 95% interval: ...")."""
        if not self.share_why(metric, c):
            return []
        model = get_model(self.before.model)
        parts = [p for p in self.parts if (p.before_label, p.after_label) == (c.before_label, c.after_label)]
        names = list(next(x for x in self.shares if x[0] == metric.name)[1:])
        if self.part_why(metric, c):  # the part that carries the move, in full too
            names += [p.metric for p in parts if model.metric(p.metric).part_of == names[0]]
        return [_detail(p, model.metric(p.metric)) for name in names for p in parts if p.metric == name]

    def _other_side(self, lead: str) -> list[str]:
        """Where the lead says a real change one way and another headline metric of the same heuristics moved for real
        the other way, that side first under it: "But mean flow time is 25% shorter (95% interval: 21–28% shorter)
        with met than with mct." (met instead of mct: a tryout read the slowdown's rise alone as a one-sided
        verdict); where every heuristic's moved alike, all of them: half the arrival rate, "But every heuristic's mean
        flow time is 44–74% shorter." under a lead on the longer makespan (one heuristic's beside its Results lead's
        other comparison read as a contradiction); none otherwise, or where the lead says it."""
        found = self.leading()
        if found is None or not found[1].separated:
            return []
        metric, c = found
        charted, worse = self.charted(), not _better(metric, c)
        others = [o for o in self._of_pair(c) if o.separated and o.metric != metric.name and o.metric in charted
                  and _better(charted[o.metric], o) == worse and metric_words(charted[o.metric]) not in lead]
        if not others:
            return []
        o, m = others[0], charted[others[0].metric]
        every = self._every_moved(m) if o.before_label == o.after_label else ""
        if every:  # all alike: one heuristic's beside its own Results lead read as a contradiction
            return [f"{'But' if worse else 'Yet'} {every[:1].lower()}{every[1:]}"]
        than = f" than with {o.before_label}" if o.before_label != o.after_label else ""
        interval = interval_words(o, m)
        return [f"{'But' if worse else 'Yet'} {metric_words(m)} is {size_words(o, m)}"
                f"{f' ({interval})' if interval else ''} with {o.after_label}{than}."]  # the names last: never ") ("

    def _also_better(self, lead: str) -> list[str]:
        """Where the lead says every heuristic's metric moved for the better, and another charted headline metric of
        every heuristic moved for the better too, the first such, with the values of the heuristic the line follows:
        "Every heuristic's mean flow time is also 78–91% shorter, for sufferage 35 → 3.6 hours." (twice the machines:
        a tryout found the biggest gain, tasks waiting a tenth as long, only in the charts, then asked for it in
        hours); none otherwise, or where the lead says it."""
        found = self.leading()
        if found is None or not found[1].separated or not _better(*found) or "every heuristic's" not in lead:
            return []
        charted = self.charted()
        for name, m in charted.items():
            every = self._every_moved(m) if name != found[0].name and metric_words(m) not in lead else ""
            mine = [c for c in self.changes if c.metric == name and c.before_label == c.after_label
                    == found[1].before_label]
            if every and mine and _better(m, mine[0]):
                pair = _short_pair(mine[0].before, mine[0].after, m, self.time_unit(m))
                return [f"{every.replace(' is ', ' is also ', 1)[:-1]}, for {mine[0].before_label} {pair}."]
        return []

    def _also_real(self, c: Change, metric: Metric) -> list[str]:
        """"Also a real change: ..." of the other headline metrics of ``c``'s heuristics than ``metric``; none
        without one."""
        charted = self.charted()
        others = [_also(o, charted[o.metric]) for o in self._of_pair(c) if o.separated and o.metric != metric.name]
        return [f"Also a real change: {'; '.join(others)}."] if others else []

    def _piles_up(self, c: Change) -> int | None:
        """Which run's heuristic of ``c`` cannot keep up with its arrivals where the other run's could: 1 the
        what-if's, 0 the baseline's; None where both or neither keep up."""
        after, before = c.after_label in self.overloaded[1], c.before_label in self.overloaded[0]
        return 1 if after and not before else 0 if before and not after else None

    def _none_keep_up(self, run: int) -> bool:
        """Whether no heuristic of the baseline (``run`` 0) or the what-if (1) kept up with its arrivals."""
        labels = [h.label for h in (self.before, self.after)[run].heuristics]
        return bool(labels) and set(labels) <= set(self.overloaded[run])

    def _piled_up_parts(self, c: Change, short: list[str], run: int = 1) -> tuple[str, list[str]]:
        """(lead, rest) where the heuristic of ``c`` in one run (``run`` 1: the what-if, 0: the baseline) cannot keep
        up and the other can: why, in words, first ("twice the arrival rate: the machines cannot keep up whatever the
        mapping (...), so tasks pile up for the whole run"; "half the arrival rate: the machines now keep up, where
        before, tasks piled up for the whole run"), then the values ("average backlog of lpas 5.2 →
        86,600") where they fit within :data:`CHANGE_LEAD_WORDS`; no size nor verdict of a change that only
        measures how long the overloaded run lasted; the values in full below, with the winner."""
        h = next((o for o in self._of_pair(c) if o.metric == self.headline.name), c)
        metric = self.headline if h.metric == self.headline.name else get_model(self.after.model).metric(h.metric)
        side, label = (self.after, c.after_label) if run else (self.before, c.before_label)
        why = get_model(side.model).overload_words(side.spec) or f"{label} cannot keep up with these arrivals"
        if run:
            piled = f"{why}, so tasks pile up for the whole run"
            if word_count(f"{self._what(1, short)}: {piled}.") > CHANGE_LEAD_WORDS:  # the rest says for how long
                piled = f"{why}, so tasks pile up"
            length = "how long the run was, not how much worse the what-if is"
        else:  # the values say how far the queues had grown; the rest says why
            piled = "the machines now keep up" if self._none_keep_up(0) else f"{c.after_label} now keeps up"
            length = "how long the baseline's run was, not how much better the what-if is"
        values = f"{metric_words(metric)} of {_rough_pair(h, metric)}"
        lead, rest = self._opening(short, piled)
        if word_count(f"{lead}; {values}.") <= CHANGE_LEAD_WORDS:
            lead += f"; {values}"
        grew = "The queues grow" if run else f"In the baseline, {why}: its queues grew"
        rest += [_detail(h, metric), f"{grew} for as long as the run lasts: the size of this change says {length}."]
        winner = self.winner_words()
        return f"{lead}.", [*rest, f"{self._begun(winner)}."]

    def change_lead(self) -> str:
        """The change line's lead sentence (:meth:`change_parts`)."""
        return self.change_parts()[0]

    def change_summary(self) -> str:
        """The lead, then on the line below it (:data:`WINNER_BELOW`) where the lead had no room for them: which part
        of a share's numerator moved it (:meth:`part_why`), and whether the winner stays, short ("... (clearly worse),
        though makespan is 38% shorter." then "The winner on makespan stays sufferage.", "No clear winner any more."):
        a manager asks it of every what-if, and the lead stays within :data:`LINE_WORDS` with whom it is against. No
        winner after a lead that says the best against the best, nor after one where a run's queues piled up: those
        say the winner (or why there is none) themselves, and every heuristic in words (:meth:`summary_parts`)."""
        lead, below = self.summary_parts()
        text = joined_below(below)
        return f"{lead}{'' if text.startswith(LEGEND_BELOW) else WINNER_BELOW}{text}" if below else lead

    def summary_parts(self) -> tuple[str, list[str]]:
        """(lead, the sentences under it) of :meth:`change_summary`: the view of two runs shows both, the figures
        folded below them."""
        lead, _ = self.change_parts()
        choice = self.swap_choice(c) if (c := self.subject()) is not None else None
        below = [*([choice[1]] if choice and choice[0] not in lead else []), *self._standing_why(lead),
                 *self._other_side(lead), *(x for x in self._winner_below(lead) if x), *self._also_better(lead)]
        return lead, self._named_below(lead, [*below, *([alike_sentence(list(self.alike))] if self.alike else [])])

    def _new_winner_below(self, lead: str, winner: str) -> list[str]:
        """Under a lead that says how the best value moved (:meth:`_best_parts`) and not why: who wins now, then how
        far the old winner itself moved, where the lead does not say them: "Slack-sufferage now wins, but by only 0.7
        points. Max-min, the best average before, is itself 11 points lower: 91.3% → 79.8%." (Kim et al.'s twice the
        arrival rate: a lead of 0.5 points read as nothing happening, while max-min fell 11 points; "the old winner"
        where the baseline crowned it)."""
        old = self._old_winner()
        out = [self._begun(f"{winner}.")] if winner not in lead else []
        if old is not None and f"{old.before_label} itself" not in lead and not math.isnan(old.change):
            pair = _short_pair(old.before, old.after, self.headline, self.time_unit(self.headline))
            was = "the old winner" if self.winners[0].clear else "the best average before"  # never a winner the
            # baseline did not crown (a tryout read "the old winner" beside its "No clear winner on value")
            out.append(self._begun(f"{old.before_label}, {was}, is itself {size_words(old, self.headline)}: {pair}."))
        return out

    def _standing_why(self, lead: str) -> list[str]:
        """Right under a ``lead`` that says the winner's standing and how every heuristic moved (:meth:`_every_parts`),
        why they moved where the lead had no room for it (:meth:`_why_below`)."""
        found = self.leading()
        if found is None or not (STILL_WINS in lead or NO_WINNER_NOW in lead):
            return []
        return self._why_below(*found, lead)

    def _winner_below(self, lead: str) -> list[str]:
        """What :meth:`change_summary` says under ``lead``, its heuristics' labels bare: who wins, then why a share
        moved."""
        found = self.leading()
        if found is None or self._piles_up(found[1]) is not None:
            return []
        if self._old_winner() is not None:  # the winner is said in its lead, or left out for why the share moved
            winner = self.winner_words(short=True)
            why = self.share_why(self.headline, self.best)
            said = REST_STAYS in lead  # the lead says the rest's values (_carried_words): not again below
            if not why or (why not in lead and not said):
                return self._new_winner_below(lead, winner)
            return [*([f"{winner}."] if winner not in lead else []),  # who wins first, then why the share moved
                    self.part_why(self.headline, self.best, rest=not said)]
        why = self.share_why(*found)
        carried = REST_STAYS in lead  # the lead says the rest's values (_carried_words): not again below
        parts = [self.part_why(*found, rest=not carried)] if why and (why in lead or carried) else []
        below = []
        on = "" if found[0].name == self.headline.name else metric_words(self.headline)
        both = self._both_stay(found[0]) if on else ""
        if both and BOTH_STAY in lead:  # the lead says both winners and every one's change: why the headline moved
            return self._harder(*found)
        if both:  # the line leads with another metric, and each winner stays: both in one sentence
            below.append(both)
        elif on:  # the line leads with another metric: who wins on it after the change, first, and on both where the
            led = self.winner_words(metric_words(found[0]), metric=found[0].name)  # same words say both
            if led.replace(metric_words(found[0]), on) == self.winner_words(on):
                on = f"{metric_words(found[0])} and {on}"
            elif led not in lead:
                moves = self._winner_moves(found[0])
                below.append(f"{self._begun(led)}{f', its {metric_words(found[0])} {moves}' if moves else ''}.")
        standing = STILL_WINS in lead or NO_WINNER_NOW in lead  # the lead says who wins (_every_parts)
        bound = self._at_bound(self.headline) if NO_WINNER_NOW in lead else ""
        if bound and bound not in lead:  # why there is no winner any more, where the lead had no room for it
            below.append(f"Every heuristic is now{bound.removeprefix(', all')}: none can do much better.")
        if not (both or standing) and self.winner_words(on, short=True) not in lead \
                and self.winner_words(on) not in lead:
            below.append(f"{self.winner_words(on, short=True, margin=True)}.")
        said_all = f"every heuristic's {metric_words(found[0])}{REST_STAYS}" in lead  # the lead says every rest
        every = ("" if said_all else self._every_rest(*found)) if carried else self._every_moved(found[0])
        every = "" if every.lower().removesuffix(".") in lead.lower() else every  # the lead said it
        return below + ([every] if every else []) + parts  # who wins first (a tryout found it at the end of the
        # second paragraph), then how every heuristic moved, then the why

    def _every_rest(self, metric: Metric, c: Change) -> str:
        """Where the lead says the rest of a share barely moves for the heuristic it follows (:meth:`_carried_words`),
        every heuristic's rest, before and after: "Without tasks that arrive before scoring starts, every heuristic's
        value is 87.0–87.1% before and 87.2% after." (Kim et al.'s twice the machines: a tryout asked whether any
        heuristic gains once the start-up tasks are left out); "" where a rest is unknown or fewer than two."""
        rests = self._every_rests(metric, c)
        if rests is None:
            return ""
        spans = [_value_span(x, metric) for x in rests]
        words = self.share_why(metric, c).removeprefix(", all in ")
        return f"Without {words}, every heuristic's {metric_words(metric)} is {spans[0]} before and {spans[1]} after."

    def _every_rests(self, metric: Metric, c: Change) -> tuple[list[float], list[float]] | None:
        """Every heuristic's share without the part that carries the move of ``c`` (:meth:`_carrying`), before and
        after, the references left out (as the Results lead's "all 8 heuristics" leaves them: the line said 87.1–87.2%
        beside a lead of 87.2%, and changed when the references ended); None where one is unknown or fewer than two."""
        share = next((x for x in self.shares if x[0] == metric.name), None)
        found = self._carrying(metric, c, share) if share else None
        if found is None:
            return None
        references = {*scenario_references(self.before), *scenario_references(self.after)}
        rests: list[tuple[float, float]] = []
        for o in self.changes:
            if o.metric != metric.name or not o.before_label or o.before_label != o.after_label \
                    or o.before_label in references:
                continue
            part = next((p for p in self.parts if p.metric == found[0].name
                         and (p.before_label, p.after_label) == (o.before_label, o.after_label)), None)
            shares = None if part is None else self._part_shares(part, metric, share[2])
            if shares is None or not all(map(math.isfinite, (o.before, o.after, *shares))):
                return None
            rests.append((o.before - shares[0], o.after - shares[1]))
        if len(rests) < 2:
            return None
        return [r[0] for r in rests], [r[1] for r in rests]

    def _both_stay(self, metric: Metric) -> str:
        """Where a line leads with ``metric``, not the headline, and each one's winner stays the same clear winner:
        "Both winners stay: min-min on mean flow time (16 → 23 hours, 44% longer: clearly worse), sufferage on
        makespan." (a tryout read "The winner on max stretch stays min-min, its max stretch 37.8 → 37.8 (no change in
        any trial). The winner on makespan stays sufferage." as two answers, one of them noise); "" otherwise."""
        pairs = [(a.get(m), b.get(m)) for m in (metric.name, self.headline.name) for a, b in [self.metric_winners]]
        if not all(a is not None and b is not None and a.label is not None and a.label == b.label and a.clear
                   and b.clear for a, b in pairs) or self._none_keep_up(0) or self._none_keep_up(1) \
                or pairs[0][1].label == pairs[1][1].label:  # one winner on both: winner_words says it
            return ""
        moves = self._winner_moves(metric)
        return (f"Both winners stay: {pairs[0][1].label} on {metric_words(metric)}{f' ({moves})' if moves else ''}, "
                f"{pairs[1][1].label} on {metric_words(self.headline)}.")

    def _every_moved(self, metric: Metric) -> str:
        """How every heuristic's ``metric`` moved, where each that both runs have moved the same way for real, in
        percent: "Every heuristic's makespan is 30–35% shorter." (a tryout asked whether the others gained as much as
        the one a line follows); "" otherwise (fewer than two, a change not real, or two ways)."""
        mine = [c for c in self.changes if c.metric == metric.name and c.before_label and
                c.before_label == c.after_label and not math.isnan(c.change)]
        if len(mine) < 2 or not all(c.separated and c.kind == "percent" for c in mine) or \
                len({c.change > 0 for c in mine}) > 1:
            return ""
        ends = [size_words(c, metric) for c in sorted(mine, key=lambda c: abs(c.change))[::len(mine) - 1]]
        low, high = (re.fullmatch(r"([\d.,]+)% (\w+)", x) for x in ends)
        span = ends[0] if ends[0] == ends[1] else f"{low.group(1)}–{high.group(0)}" if low and high and \
            low.group(2) == high.group(2) else f"{ends[0]} to {ends[1]}"
        return f"Every heuristic's {metric_words(metric)} is {span}."

    def change_line(self) -> str:
        """The lead and the rest in one line: "twice the machines: makespan of sufferage 6.2 → 4.0 days (35% shorter:
        a real change, for the better); still no clear winner. What differs: machines 8 → 16. Makespan of sufferage
        6.2 → 4.0 days (535,000 → 348,000 s), -35%; 95% interval: 32–38% shorter, compared trial by trial
        (paired). ..." Where the work itself differs, the lead is the change for the worse and a better number is
        said not to be like for like."""
        lead, rest = self.change_parts()
        return " ".join([lead, *rest])

    def winner_words(self, on: str = "", short: bool = False, metric: str = "", margin: bool = False) -> str:
        """Whether the winner on the headline metric stays: "the winner stays sufferage"; ``on``: the metric said
        ("the winner on makespan stays sufferage"), where the line leads with another one; ``short``: a close race
        said without its names ("still no clear winner", "no clear winner any more"), a new winner in three words
        ("slack-sufferage now wins"); ``metric``: another headline metric's winner than the headline's (its name);
        ``margin``: a winner that stays says how its lead moved where it moved much (:meth:`Winner.moved_from`: "the
        winner stays sufferage, now 1.3% below mct, against 8.4% below min-min before").
        Where no heuristic of the what-if keeps up with its arrivals, none is crowned ("no heuristic keeps up, so a
        ranking would only compare how fast their queues grow")."""
        a, b = self.winners if not metric else tuple(w.get(metric, NO_WINNER) for w in self.metric_winners)
        where = f" on {on}" if on else ""
        if self._none_keep_up(1):  # every queue grows: the means only rank how fast
            still = "still " if self._none_keep_up(0) else ""
            return f"{still}no heuristic keeps up{where}, so a ranking would only compare how fast their queues grow"
        if a.label is None or b.label is None:
            return f"no winner{where} to compare"
        if self._none_keep_up(0):  # the baseline's ranking only compared how fast its queues grew
            if b.clear:
                return f"{b.label} wins{where}, where before, no heuristic kept up"
            return f"{b.label} has the best average{where}, not told apart from {b.runner_up}"
        if short and not b.clear:
            now = f"; {b.label} now has the best average" if a.label != b.label and " and " not in on \
                and not b.near else ""  # never of a best average that every one nears (0.04 points: noise)
            return (f"still no clear winner{where}" if not a.clear else f"no clear winner{where} any more") + now
        if short and a.label != b.label:  # a new winner: never left out of a lead for want of words
            return f"{b.label} now wins{where}" + ("" if b.tiny is None else f", but by only {b.tiny}")  # as its lead
        if a.label == b.label:
            if b.clear and margin and not metric and b.moved_from(a):  # how its lead moved: a manager asked
                return f"the winner{where} stays {b.label}, now {b.margin}, against {a.margin} before"
            if b.clear and not a.clear:  # never "stays" of a winner the run before did not crown
                return f"{b.label} now wins{where} clearly"
            if b.clear:
                return f"the winner{where} stays {b.label}"
            return f"{b.label} still has the best average{where}, but is not told apart from {b.runner_up}"
        if b.clear:
            return f"the winner{where} changes from {a.label} to {b.label}"
        return (f"the best average{where} moves from {a.label} to {b.label}, which is "
                f"not told apart from {b.runner_up}")

    def table(self) -> pd.DataFrame:
        """One row per metric and heuristic: both means, the change, its interval and how it was computed."""
        rows = []
        for c in self.changes:
            rows.append({"metric": c.metric, "heuristic": c.heuristic, "heuristic_before": c.before_label or "",
                         "heuristic_after": c.after_label or "", "before": c.before, "after": c.after,
                         "change": c.change, "change_lower": c.lower, "change_upper": c.upper,
                         "change_unit": "% of before" if c.kind == "percent" else "points",
                         "interval": "paired" if c.paired else "Welch", "trials_before": c.trials[0],
                         "trials_after": c.trials[1]})
        return pd.DataFrame(rows)


def _better(metric: Metric, c: Change) -> bool:
    """Whether the change is for the better on ``metric`` (lower or higher is better)."""
    return (c.change < 0) == (metric.better == "lower")


def change_words(c: Change) -> str:
    """"-30% [-34%, -27%]", "+1.2 points [0.4, 2.0]", "no change in any trial"; "–" without a change."""
    if math.isnan(c.change):
        return "–"
    if c.change == c.lower == c.upper:
        if c.change == 0:
            return "no change in any trial"
        return f"{_times(c.change) if c.kind == 'percent' and c.change >= TIMES_FROM else _signed(c.change, c.kind)} " \
               "in every trial"
    if math.isnan(c.lower):
        return _signed(c.change, c.kind)
    if c.kind == "points":
        return f"{_signed(c.change, c.kind)} [{_signed(c.lower)}, {_signed(c.upper)}]"
    if c.lower >= TIMES_FROM:  # "701 times [252, 1947]" reads better than "+69949% [+25097%, +194539%]"
        return f"{_times(c.change)} [{_times(c.lower, bare=True)}, {_times(c.upper, bare=True)}]"
    return f"{_signed(c.change, c.kind)} [{_signed(c.lower, c.kind)}, {_signed(c.upper, c.kind)}]"


def _times(percent: float, bare: bool = False) -> str:
    """"2.5 times", "16,796 times" (``bare``: "16,796"): a change of ``percent`` as the factor it multiplies by."""
    x = 1.0 + percent / 100.0
    return (f"{x:.1f}" if x < 10 else f"{x:,.0f}") + ("" if bare else " times")


def _signed(x: float, kind: str = "") -> str:
    """"+5.5%", "-20 points", "+0.4" (``kind`` "percent", "points" or bare): one decimal below 10, none from 10, two
    significant digits below 0.05."""
    text = amount_text(abs(x))
    sign = "" if float(text) == 0 else "-" if x < 0 else "+"
    return sign + text + {"percent": "%", "points": " points"}.get(kind, "")


def real_words(c: Change) -> str:
    """"a real change", "not told apart from no change", or "" (no interval)."""
    if math.isnan(c.lower) or c.change == c.lower == c.upper:
        return ""
    return "a real change" if c.separated else "not told apart from no change"


def _moved(metric: Metric, up: bool) -> str:
    """How a value moved, in the words of its metric: "longer" or "shorter" for a time, else "higher" or "lower"."""
    if metric.unit in ("s", "ms", "time units"):
        return "longer" if up else "shorter"
    return "higher" if up else "lower"


def size_words(c: Change, metric: Metric, factor: bool = False) -> str:
    """A change's size in words: "35% shorter", "2.5 points higher", "17 times as long", "no change"; "" without a
    change. ``factor``: a rise in percent said as a factor however small ("2.2 times as high")."""
    if math.isnan(c.change):
        return ""
    if float(amount_text(abs(c.change))) == 0:
        return "no change"
    if c.kind == "percent" and (c.lower >= TIMES_FROM or factor and c.change > 0):  # as :func:`change_words` says it
        return f"{_times(c.change)} as {'long' if _moved(metric, True) == 'longer' else 'high'}"
    if c.kind == "percent" and _all_but_gone(c.change):
        return f"{_all_but_gone(c.change)} {_moved(metric, False)}"
    return f"{size_text(c.change, c.kind)} {_moved(metric, c.change > 0)}"


def _all_but_gone(change: float) -> str:
    """A fall in percent that would round to 100% said as it is ("99.6%", "over 99.9%"): "max stretch 100% lower"
    read as a stretch of 0, which no task has (a stretch is at least 1); "" for any other change."""
    if not -100.0 < change <= -99.5:
        return ""
    return "over 99.9%" if change < -99.95 else f"{-change:.1f}%"


def interval_words(c: Change, metric: Metric) -> str:
    """A change's 95% interval in words: "95% interval: 32–38% shorter", "95% interval: 1.2% shorter to 3.5%
    longer", "95% interval: 16–17 times as long" (one side: the two ends and one unit, as every interval a page
    shows is said); "" without one."""
    if math.isnan(c.lower) or c.change == c.lower == c.upper:
        return ""
    if c.kind == "percent" and c.lower >= TIMES_FROM:
        return f"95% interval: {_times(c.lower, bare=True)}–{size_words(replace(c, change=c.upper), metric)}"
    if c.lower >= 0 or c.upper <= 0:
        near, far = sorted((c.lower, c.upper), key=abs)
        a, b = ends_text(abs(near), abs(far))
        if c.kind == "percent" and _all_but_gone(far):  # "99–99.8% lower", never "99–100% lower"
            a, b = (f"{min(abs(near), 99.9):.1f}" if _all_but_gone(near) else a), f"{min(abs(far), 99.9):.1f}"
        return f"95% interval: {a}–{b}{'%' if c.kind == 'percent' else ' points'} {_moved(metric, far > 0)}"
    return (f"95% interval: {size_text(c.lower, c.kind)} {_moved(metric, False)} to {size_text(c.upper, c.kind)} "
            f"{_moved(metric, True)}")


def _short_value(x: float, metric: Metric) -> str:
    """A value as a lead sentence says it: a time in seconds as hours or days ("6.2 days"), else :func:`readable`."""
    if metric.unit == "s" and math.isfinite(x):
        return time_span(x) or f"{seconds_number(x)} s"
    return readable(x, metric)


def _gap_words(w: Winner) -> str:
    """A winner's real lead over its runner-up, its size alone: "8.4%", "0.04 points" (:attr:`Winner.margin`)."""
    return re.sub(r" (below|above) .*$", "", w.margin)


def joined_below(below: list[str]) -> str:
    """The sentences under a what-if's lead (:meth:`RunComparison.summary_parts`) as one text, the legend apart after
    :data:`LEGEND_BELOW`."""
    return " ".join(below).replace(f" {LEGEND_BELOW}", LEGEND_BELOW)


def _value_span(xs: list[float], metric: Metric) -> str:
    """The least and the greatest of ``xs`` as a lead says them, the unit once: "87.0–87.1%", "87.2%" where they read
    the same."""
    said = (lambda x: f"{x:.1f}%") if metric.unit == "%" else (lambda x: _short_value(x, metric))  # noqa: E731
    low, high = said(min(xs)), said(max(xs))  # a percent to one decimal at both ends: "87.0–87.1%", never "87–87.1%"
    if low == high:
        return low
    head, tail = re.fullmatch(r"([\d.,]+)(.*)", low), re.fullmatch(r"([\d.,]+)(.*)", high)
    return f"{head.group(1)}–{high}" if head and tail and head.group(2) == tail.group(2) else f"{low} to {high}"


def _agreeing(c: Change, metric: Metric) -> tuple[str, str] | None:
    """A change in points' two means (a percentage, or a fraction shown as one) with as many decimals as make the
    difference of the two numbers shown read as the change said: "91.28%" and "90.84%" beside "0.4 points lower", where
    "91.3%" and "90.8%" read as 0.5 apart (the detail below a lead; a lead says "about 0.5 points" beside one decimal
    instead, :func:`_lead_size`); None where the values as a lead says them (:func:`_short_value`) already agree, or
    for any other change. The change itself is the paired (or Welch) mean difference, said as it is."""
    if c.kind != "points" or not (metric.unit == "%" or is_fraction(metric)) or math.isnan(c.change):
        return None
    scale = 100.0 if is_fraction(metric) else 1.0
    x, y = c.before * scale, c.after * scale
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    said = amount_text(abs(c.change))
    shown = max(len(_short_value(v, metric).rstrip("%").partition(".")[2]) for v in (c.before, c.after))
    for places in range(shown, 4):
        a, b = round(x, places), round(y, places)
        if amount_text(abs(round(b - a, places))) == said:
            return None if places == shown else (f"{a:,.{places}f}%", f"{b:,.{places}f}%")
    return None


_LEADING_NUMBER = re.compile(r"-?[\d,]*\.?\d+")


def _shown_difference(c: Change, metric: Metric) -> float | None:
    """A change in points of a percentage (or a fraction shown as one) as the two values a lead shows
    (:func:`_short_value`, one decimal) give it, where that reads otherwise than the change itself (91.3% and 90.8%,
    0.5 apart, for a mean difference of 0.44, said "0.4"); None where they read alike, where the values shown are
    equal or the change is said finer than they are (0.02 beside 91.3% and 91.2%: :func:`_agreeing` then shows
    more decimals) or coarser (11 beside 91.3% and 79.8%, as near as a whole number reads), or for any other
    change."""
    if c.kind != "points" or not (metric.unit == "%" or is_fraction(metric)) or math.isnan(c.change):
        return None
    found = [_LEADING_NUMBER.match(_short_value(x, metric)) for x in (c.before, c.after)]
    if None in found:
        return None
    x, y = (float(m.group(0).replace(",", "")) for m in found)
    shown, said = round(y - x, 6), amount_text(abs(c.change))
    # said as finely as the values: not 0.02 beside 91.3% and 91.2%, nor 11 (a whole number from 10) beside 79.8%
    other = len(said.partition(".")[2]) != max(len(m.group(0).partition(".")[2]) for m in found)
    return None if shown == 0 or other or amount_text(abs(shown)) == said else shown


def _lead_size(c: Change, metric: Metric) -> str:
    """A change's size as a lead says it beside the values it shows: :func:`size_words`, but "about 0.5 points lower"
    where the values shown give another difference than the change's own (:func:`_shown_difference`): the reader
    checks the two values against it, and the detail below gives the unrounded means and the change itself."""
    shown = _shown_difference(c, metric)
    if shown is None:
        return size_words(c, metric)
    return f"about {size_text(shown, c.kind)} {_moved(metric, shown > 0)}"


def _lead_agreeing(c: Change, metric: Metric) -> tuple[str, str] | None:
    """:func:`_agreeing` for a lead: None where the lead says the difference the values shown give
    (:func:`_lead_size`), so that they keep the decimals of the rest of the page."""
    return None if _shown_difference(c, metric) is not None else _agreeing(c, metric)


def _values(c: Change, metric: Metric, say=None) -> tuple[str, str]:
    """The two means of ``c`` as a lead says them, each as ``say`` says one (by default :func:`_short_value`), a
    change in points with more decimals only where the values shown are equal (:func:`_lead_agreeing`)."""
    say = say or _short_value
    return _lead_agreeing(c, metric) or (say(c.before, metric), say(c.after, metric))


def _short_pair(before: float, after: float, metric: Metric, unit: tuple[float, str] | None = None) -> str:
    """Two values as a lead sentence says them, the unit said once: "6.2 → 4.0 days", "35 hours → 2.3 days",
    "523 → 610 s", "87.3% → 90.1%"; ``unit``: the line's for a time (:meth:`RunComparison.time_unit`)."""
    if metric.unit == "s" and math.isfinite(before) and math.isfinite(after):
        spans = span_pair(before, after, unit)
        return spans if spans and "under" not in spans else f"{seconds_number(before)} → {seconds_number(after)} s"
    return readable_pair(before, after, metric)


def _lead_pair(c: Change, metric: Metric, compact: bool = False, short: bool = False, terse: bool = False,
               unit: tuple[float, str] | None = None, neutral: bool = False) -> str:
    """"sufferage 6.2 → 4.0 days (35% shorter: a real change, for the better)", "min-min 6.8 days → max-min 20 days
    (198% longer: a real change, for the worse)", "sufferage 8.8 → 88 times its run time alone (a real change, for
    the worse)": the two means as a lead sentence says them (a value with words of its own as the Results leads say
    it, :attr:`Metric.said`), the change's size and whether it is real (its interval said by :func:`_detail`). The
    size of a change of many times is left to the values where they say "times" themselves ("8.8 → 88 times its run
    time alone", not also "10 times as high"). ``compact``: a real change said "clearly worse" (:func:`_judged`);
    ``short``: without what the values are of ("89.5% → 89.8%", not "... of the upper bound": the Results lead of
    either run says it); ``terse``: the size left to the values, and a value in words of its own with their first
    word only (:func:`_terse`: "8.8 → 88 times (clearly worse)"); ``unit``: the line's for a time
    (:meth:`RunComparison.time_unit`); ``neutral``: a real change said without which way (:func:`_judged`)."""
    of = "" if short else of_what(metric)
    if metric.said:
        head = _rough_pair(c, metric, short, terse)
    elif c.before_label != c.after_label:
        a, b = _values(c, metric)
        head = f"{c.before_label} {a} → {c.after_label} {b}{of}"
    else:
        pair = " → ".join(_lead_agreeing(c, metric) or ()) or _short_pair(c.before, c.after, metric, unit)
        head = f"{c.before_label} {pair}{of}"
    if _as_factor(c, metric):  # "mct 1,588× → met 3,500× (2.2 times as high: clearly worse)", never "... times
        # (120% higher: ...)" beside values in times, nor bare "1,588 → 3,500" (a tryout asked: 3,500 what?)
        head = re.sub(r"(\d)(?= →|$)", r"\1×", head.removesuffix(f" {_said_word(metric)}")) if terse else head
        return f"{head} ({size_words(c, metric, factor=True)}: {_judged(c, metric, False, compact, neutral)})"
    said = _judged(c, metric, sized=not (terse or metric.said and _many_times(c)), compact=compact, neutral=neutral)
    return f"{head} ({said})" if said else head


FACTOR_FROM = 50.0  # a rise of this many percent or more of a value said in times is sized as a factor (2.2 times)


def _as_factor(c: Change, metric: Metric) -> bool:
    """Whether a lead sizes ``c`` as a factor: a real rise of :data:`FACTOR_FROM` percent or more, under many
    times, of a value said in times (:attr:`Metric.said`: max stretch "1,588 → 3,500", "2.2 times as high"; a
    tryout read "1,588 → 3,500 times (clearly worse)" as raw ratios without a size)."""
    return said_in_times(metric) and c.kind == "percent" and c.separated and FACTOR_FROM <= c.change \
        and not _many_times(c)


def _forms(tail: str, why: bool) -> list[tuple[bool, ...]]:
    """How :func:`_lead_pair` may say a lead's values before ``tail``, the first that fits taken: in full, then
    without what they are of; a real change said "clearly worse" (compact) where ``tail`` is the other side of a
    trade-off, says the headline metric did not move, or says why the number moved (``why``); then, for such a tail,
    the size left to the values and a value in words of its own said short ("max stretch (the worst task's
    slowdown) of mct 1,588 → met 3,500 times (clearly worse), with no real change in makespan")."""
    unmoved = tail.startswith(UNMOVED) or tail.endswith(": no real change")
    trade = tail.startswith(", though") or unmoved or why
    forms = [(compact, bare) for bare in (False, True) for compact in (False, True)[: 2 if trade else 1]]
    return forms + ([(True, True, True)] if why or unmoved else [])


def _time_share(share: float) -> str:
    """"half the time", "a third of the time", "40% of the time", "twice the time", "2.5 times the time": how long
    arrivals take after a change of their rate, ``share`` of the time they took."""
    if share > 1:
        return "twice the time" if math.isclose(share, 2, rel_tol=1e-6) else f"{amount_text(share)} times the time"
    for part, words in ((1 / 2, "half the time"), (1 / 3, "a third of the time"), (1 / 4, "a quarter of the time")):
        if math.isclose(share, part, rel_tol=1e-6):
            return words
    return f"{amount_text(100 * share)}% of the time"


def _moves(c: Change) -> str:
    """How an amount moved, in a verb: "rises 20%", "falls 3.9%", "is 3.3 times as high"; "stays" without a real
    change, "barely moves" for a real one under 1% of its value (:func:`~hcsched.verdict.is_small`)."""
    if not c.separated:
        return "stays"
    if is_small(c.change, c.kind, c.before):
        return "barely moves"
    if c.kind == "percent" and c.lower >= TIMES_FROM:
        return f"is {_times(c.change)} as high"
    return f"{'rises' if c.change > 0 else 'falls'} {size_text(c.change, c.kind)}"


def _said_tail(metric: Metric) -> str:
    """What a value of ``metric`` is said with after it (:attr:`Metric.said`: " times its run time alone"), "" without
    words of its own."""
    return metric.said[0].partition("{}")[2] if metric.said else ""


def _said_word(metric: Metric) -> str:
    """The first word a value of ``metric`` is said with ("times" of "times its run time alone"), "" without one."""
    words = _said_tail(metric).split()
    return words[0] if words else ""


def _terse(pair: str, metric: Metric) -> str:
    """Values said in words of their own (:attr:`Metric.said`) with their first word only: "8.8 → 88 times" for
    "8.8 → 88 times its run time alone", where the metric's plain words beside them say the rest."""
    tail = _said_tail(metric)
    return f"{pair[: -len(tail)]} {_said_word(metric)}" if len(tail.split()) > 1 and pair.endswith(tail) else pair


def _many_times(c: Change) -> bool:
    """Whether ``c`` is said as a factor ("10 times as high", :func:`size_words`)."""
    return c.kind == "percent" and c.lower >= TIMES_FROM


def _judged(c: Change, metric: Metric, sized: bool = True, compact: bool = False, neutral: bool = False) -> str:
    """A change's size and whether it is real, as a lead says them: "35% shorter: a real change, for the better";
    a real change under 1% of the value before says it is small instead of which way ("0.3 points higher: real, but
    under 1% of its value", :func:`~hcsched.verdict.small_words`); "" without a change. ``sized``: False leaves the
    size to the values said beside it; ``compact``: a real change in two words, "clearly worse" or "clearly better"
    (as the Results leads call a heuristic told apart from the best), where a lead needs the room for the other side
    of a trade-off; ``neutral``: a real change said without which way, where what follows says why it moved
    ("32% longer: a real change, as the same tasks arrive over twice the time": a tryout read "for the worse" as the
    heuristic doing worse)."""
    size, verdict = _lead_size(c, metric) if sized else "", real_words(c)
    if c.separated and verdict and is_small(c.change, c.kind, c.before * (100.0 if is_fraction(metric) else 1.0)):
        verdict = small_words()
    elif c.separated and verdict and neutral:
        verdict = "a real change"
    elif c.separated and verdict and compact:
        verdict = "clearly better" if _better(metric, c) else "clearly worse"
    elif c.separated and verdict:
        verdict += ", for the better" if _better(metric, c) else ", for the worse"
    if size and c.change == c.lower == c.upper:
        size += " in every trial" if size != "no change" else " in any trial"
    return ": ".join(x for x in (size, verdict) if x)


def _best_words(c: Change, metric: Metric, short: bool = False, compact: bool = False, sized: bool = True) -> str:
    """The best value before against the best after, where the winner changes: "the best value moves from 91.3%
    (max-min) to 90.8% of the upper bound (slack-sufferage), about 0.5 points lower: real, but tiny", the
    difference as the values shown give it (:func:`_lead_size`); ``short``: without what the values are of ("the
    best value moves from 91.3% (max-min) to 90.8% (slack-sufferage), ..."; the Results lead of either run says it,
    and so does the line's detail below it); ``compact``, ``sized``: the change said as :func:`_judged` says it."""
    a, b = _values(c, metric)
    of = "" if short else of_what(metric)
    head = f"the best {metric_words(metric)} moves from {a} ({c.before_label}) to {b}{of} ({c.after_label})"
    said = _judged(c, metric, sized=sized, compact=compact)  # after a comma: "(clearly worse)" beside a name read as
    return f"{head}, {said}" if said else head  # that heuristic's, where it is the value's


def _rough_pair(c: Change, metric: Metric, short: bool = False, terse: bool = False) -> str:
    """"lpas 5.16 → 86,600 tasks", "mean response time of lpas 1.6 → 14,000 time units": the values as the leads say
    them (:func:`~hcsched.formatting.said_pair`, the unit said once); a time in seconds and a percentage as
    :func:`_short_pair` says them; ``short``: without what they are of, ``terse``: their own words short
    (:func:`_lead_pair`)."""
    if metric.unit in ("s", "%") or is_fraction(metric):
        pair = " → ".join(_values(c, metric))
    else:
        pair = said_pair(c.before, c.after, metric)
        pair = _terse(pair, metric) if terse else pair
    of = "" if short else of_what(metric)
    if c.before_label == c.after_label:
        return f"{c.before_label} {pair}{of}"
    a, _, b = pair.partition(" → ")
    return f"{c.before_label} {a} → {c.after_label} {b}{of}"


def _detail(c: Change, metric: Metric, glossed: bool = False, unit: tuple[float, str] | None = None) -> str:
    """What the lead said short, in full: "Makespan of sufferage 6.2 → 4.0 days (535,000 → 348,000 s), -35%; 95%
    interval: 32% to 38% shorter, compared trial by trial (paired)"; ``glossed``: the metric's plain words beside its
    name ("Max stretch (the worst task's slowdown) of ..."); ``unit``: the line's for a time, as the lead said it."""
    how = "compared trial by trial (paired)" if c.paired else "compared as independent samples (unpaired, Welch)"
    what = metric_words(metric) + (f" ({metric.gloss})" if glossed and metric.gloss else "")
    text = f"{what[:1].upper()}{what[1:]} of {_full_pair(c, metric, unit)}"
    if c.change == c.lower == c.upper:
        text += f", {change_words(c)}"
    elif c.kind == "percent" and c.lower >= TIMES_FROM:  # "16,796 times", never "+1679543%"
        text += f", {_times(c.change)}"
    elif not math.isnan(c.change):
        text += f", {_signed(c.change, c.kind)}"
    interval = interval_words(c, metric)
    return f"{text}; {interval}, {how}." if interval else f"{text}, {how}."


def _also(c: Change, metric: Metric) -> str:
    """Another real change of the lead's heuristics: "mean flow time 90% shorter, for the better (95% interval: 89%
    to 91% shorter)"."""
    said = f"{metric_words(metric)} {size_words(c, metric)}, for the {'better' if _better(metric, c) else 'worse'}"
    interval = interval_words(c, metric)
    return f"{said} ({interval})" if interval else said


def _full_pair(c: Change, metric: Metric, unit: tuple[float, str] | None = None) -> str:
    """"sufferage 6.2 → 4.0 days (535,000 → 348,000 s)", "min-min 6.8 days (585,000 s) → max-min 20 days (1,750,000
    s)": the two means in full, with their units; a value with words of its own as a lead says it ("8.8 → 88 times its
    run time alone", :func:`_rough_pair`), a change in points with values that agree with it (:func:`_values`)."""
    if metric.said:
        return _rough_pair(c, metric)
    agree = _agreeing(c, metric)
    if c.before_label == c.after_label:
        pair = " → ".join(agree) if agree else readable_pair(c.before, c.after, metric, unit)
        return f"{c.before_label} {pair}{of_what(metric)}"
    a, b = agree or tuple(readable(x, metric) for x in (c.before, c.after))
    return f"{c.before_label} {a} → {c.after_label} {b}{of_what(metric)}"


def compare_runs(before: Scenario, before_results: pd.DataFrame, after: Scenario,
                 after_results: pd.DataFrame) -> RunComparison:
    """The baseline run (``before``, its per-trial results as ``hcsched.simulate`` returns them) against the what-if
    run, per metric of the model's results table (the headline metric first) and per matched heuristic."""
    if before.model != after.model:
        raise HcschedError(f"compare: the runs are of different models ({before.model}, {after.model}); allowed: two "
                           "runs of the same model")
    model = get_model(before.model)
    lead = headline_metric(model)
    columns = set(before_results.columns) & set(after_results.columns)
    metrics = [lead] + [m for m in model.table_metrics() if m.name != lead.name]
    other_benchmark = before.benchmark_label != after.benchmark_label
    left_out = tuple(metric_words(m) for m in metrics if m.name in columns and m.name.startswith("normalized_")
                     and other_benchmark)
    metrics = [m for m in metrics if m.name in columns and not (m.name.startswith("normalized_") and other_benchmark)]
    paired = shares_random_numbers(before, after)
    pairs = matched_heuristics(before, after)
    changes = []
    for metric in metrics:
        a, b = wide(before_results, metric.name), wide(after_results, metric.name)
        empty = pd.Series(dtype=float)
        for x, y in pairs:
            changes.append(change_of(metric, a[x] if x else empty, b[y] if y else empty, paired and bool(x and y),
                                     (x, y)))
    by_metric = winners_of(before, before_results), winners_of(after, after_results)
    winners = tuple(_headline_winner(w) for w in by_metric)
    best = _best_change(lead, winners, before_results, after_results, paired)
    shares = tuple(found for m in metrics if (found := share_of(m, metrics, before_results, after_results)))
    known = {h.label for h in before.heuristics}
    alike = tuple(p for p in alike_pairs(after_results, model.bar_metrics()) if not set(p) <= known)
    return RunComparison(before, after, paired, tuple(run_changes(before, after)), tuple(metrics), tuple(changes),
                         winners, left_out, (model.overloaded(before_results), model.overloaded(after_results)),
                         best, shares, _share_parts(shares, metrics, pairs, best, before_results, after_results,
                                                    paired), by_metric, alike)


def share_of(metric: Metric, metrics: list[Metric], before_results: pd.DataFrame,
             after_results: pd.DataFrame) -> tuple[str, str, str] | None:
    """(metric, numerator, yardstick) where ``metric`` is, in every row of both runs, another metric's column
    divided by a per-trial yardstick, times 100 for a percentage (:func:`~hcsched.verdict.share_columns`): "value,
    % of the upper bound" is 100 V / UB (Kim et al. section 5). A what-if that changes the yardstick moves the share
    with the work done unchanged, so the line says which of the two moved (:meth:`RunComparison.share_why`). None for
    any other metric."""
    if not metric.better or metric.name not in before_results or metric.name not in after_results:
        return None
    names = [m.name for m in metrics if m.name != metric.name and m.name in before_results and m.name in after_results]
    after = after_results.assign(trial=after_results["trial"] + before_results["trial"].max() + 1)  # its own trials
    found = share_columns(metric, pd.concat([before_results, after], ignore_index=True)[["trial", metric.name, *names]],
                          names)
    return None if found is None else (metric.name, *found)


def _share_parts(shares: tuple[tuple[str, str, str], ...], metrics: list[Metric],
                 pairs: list[tuple[str | None, str | None]], best: Change | None, before_results: pd.DataFrame,
                 after_results: pd.DataFrame, paired: bool) -> tuple[Change, ...]:
    """The changes of each share's numerator and yardstick (:func:`share_of`), for every matched pair of
    heuristics and for the best against the best (:attr:`RunComparison.best`)."""
    by_name = {m.name: m for m in metrics}
    labels = [(x, y) for x, y in pairs if x and y] + ([(best.before_label, best.after_label)] if best else [])
    out = []
    for _, *parts in shares:
        for name in parts + [m.name for m in metrics if m.part_of and m.part_of == parts[0]]:
            a, b = wide(before_results, name), wide(after_results, name)
            out += [change_of(by_name[name], a[x], b[y], paired, (x, y)) for x, y in dict.fromkeys(labels)]
    return tuple(out)


def _best_change(metric: Metric, winners: tuple[Winner, Winner], before_results: pd.DataFrame,
                 after_results: pd.DataFrame, paired: bool) -> Change | None:
    """The baseline's winner against the what-if's on the headline ``metric``, where the winner changes: the best
    value before against the best after, paired by trial index as every other change (:func:`change_of`); None
    where the winner stays or either run has none."""
    a, b = winners
    if a.label is None or b.label is None or a.label == b.label:
        return None
    return change_of(metric, wide(before_results, metric.name)[a.label], wide(after_results, metric.name)[b.label],
                     paired, (a.label, b.label))


def comparison_csv(cmp: RunComparison) -> str:
    """The comparison's table under comment lines naming both runs, what differs, and how the intervals were made."""
    def run(word: str, s: Scenario) -> str:
        return (f"# {word}: the scenario {json.dumps(s.name, ensure_ascii=False)} (model {s.model}), seed {s.seed}, "
                f"{s.trials} trials, digest {scenario_digest(s)}")
    return commented_csv([f"# hcsched {__version__}, comparison of two runs (before: the baseline; after: the what-if)",
                 run("before", cmp.before), run("after", cmp.after),
                 "# what differs: " + ("; ".join(cmp.differences) or "nothing"),
                 "# " + cmp.pairing,
                 *(["# " + cmp.left_out_text] if cmp.left_out else []),
                 "# change: after against before, in percent of before's mean (change_unit '% of before': "
                 "100 (after/before - 1)) or in points (a percentage or a fraction shown as one); change_lower and "
                 "change_upper bound its 95% interval (paired: over the common trials; Welch: independent samples)",
                 "# " + cmp.change_line(), READ_BACK], cmp.table())
