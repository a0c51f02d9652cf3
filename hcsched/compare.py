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
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.claims import wide
from hcsched.errors import HcschedError
from hcsched.export import READ_BACK, commented_csv, scenario_digest
from hcsched.formatting import amount_text, is_fraction, readable
from hcsched.metrics import LOWER_BOUND
from hcsched.registry import get_model
from hcsched.stats import t_quantile
from hcsched.verdict import difference_kind, headline_metric, metric_words, scenario_verdicts
from hcsched.version import __version__

if TYPE_CHECKING:
    from hcsched.metrics import Metric
    from hcsched.scenario import Scenario

CONFIDENCE = 0.95
TIMES_FROM = 900.0  # a change whose interval lies above +900% is said as a factor (×10 or more)
NORMAL_975 = 1.959963984540054  # the standard normal's 97.5% quantile


# --- what differs between two scenarios, in words ----------------------------------------------------------------

def _words(value) -> str | None:
    """A setting's value as a change names it; None when it is too long to show (a table)."""
    if value is None:
        return "not set"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{int(value):,}" if value.is_integer() and abs(value) < 1e15 else f"{value:.6g}"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and len(value) <= 4 and all(isinstance(v, (int, float, str)) for v in value):
        return "[" + ", ".join(_words(v) for v in value) + "]"
    return None


def _factor(old, new) -> str:
    """" (×2)" between two settings written as decimals, such as rates (where the ratio says more than the digits);
    "" otherwise."""
    if not all(isinstance(v, float) and not v.is_integer() for v in (old, new)) or (old < 0) != (new < 0):
        return ""  # whole numbers (20,000 → 5,000) say their size plainly
    return f" (×{new / old:.3g})"


def flat_settings(node: dict, prefix: str = "") -> dict:
    """A scenario file's settings with dotted keys ("etc.task_het"), as ``hcsched sweep`` names them."""
    out = {}
    for key, value in node.items():
        if isinstance(value, dict):
            out.update(flat_settings(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def benchmark_kind(scenario: Scenario) -> tuple:
    """What normalised metrics are divided by, whatever its label: the benchmark heuristic's name and parameters,
    or (LOWER_BOUND, ()) for the trial's bound."""
    label = scenario.benchmark_label
    return next(((h.name, h.params) for h in scenario.heuristics if h.label == label), (LOWER_BOUND, ()))


def what_changed(before: Scenario, after: Scenario) -> list[str]:
    """What makes ``after`` another scenario than ``before``, in short phrases with the scenario file's keys:
    "tasks 200 → 150", "min-min removed", "kpb (k=10) added", "benchmark min-min → mct". Trials and seed, set for
    each run, are not counted (:func:`run_changes` counts them)."""
    models = before.model, after.model  # another model altogether: nothing else compares
    if models[0] != models[1]:
        return [f"model {models[0]} → {models[1]}"]
    model = get_model(after.model)
    a, b = (flat_settings(model.spec_to_dict(s.spec)) for s in (before, after))
    out = []
    for key in [*a, *(k for k in b if k not in a)]:
        if a.get(key) != b.get(key):
            old, new = _words(a.get(key)), _words(b.get(key))
            out.append(f"{key} {old} → {new}{_factor(a.get(key), b.get(key))}" if old is not None and new is not None
                       else f"{key} changed")
    kind = lambda h: (h.name, h.params)  # noqa: E731  (a heuristic with its parameters, whatever its label)
    removed = Counter(map(kind, before.heuristics)) - Counter(map(kind, after.heuristics))
    added = Counter(map(kind, after.heuristics)) - Counter(map(kind, before.heuristics))
    for specs, left, word in ((before.heuristics, removed, "removed"), (after.heuristics, added, "added")):
        for h in specs:
            if left[kind(h)] > 0:
                left[kind(h)] -= 1
                out.append(f"{h.label} {word}")
    if not removed and not added and before.heuristics != after.heuristics:
        labels = sorted(h.label for h in before.heuristics) != sorted(h.label for h in after.heuristics)
        out.append("heuristics relabelled" if labels else "heuristics reordered")
    if (model.normalizes() or before.benchmark or after.benchmark) and benchmark_kind(before) != benchmark_kind(after):
        chosen = "" if before.benchmark or after.benchmark else " (by default)"
        out.append(f"benchmark {before.benchmark_label} → {after.benchmark_label}{chosen}")
    return out


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


def winner_of(scenario: Scenario, results: pd.DataFrame) -> Winner:
    """The winner of a run on its model's headline metric (:func:`hcsched.verdict.scenario_verdicts`' first)."""
    found = scenario_verdicts(scenario, results)
    v = found[0] if found else None
    if v is None or v.best is None:
        return Winner(None, math.nan, False, None)
    return Winner(v.best, v.best_mean, v.separated, v.other)


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
        """How the intervals were computed, in one sentence."""
        if self.paired:
            n = min((c.trials[0] for c in self.changes if c.before_label and c.after_label), default=0)
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

    def change_line(self) -> str:
        """"machines 8 → 12: makespan of sufferage 535 thousand s → 372 thousand s, -30% [-33%, -27%], paired; the
        winner stays sufferage."."""
        what = "; ".join(self.differences) if self.differences else "The same scenario"
        metric = self.headline
        c = self.subject()
        if c is None:
            said = f"{metric_words(metric)}: no heuristic of the baseline is in the what-if"
        else:
            said = f"{metric_words(metric)} of {_pair_words(c, metric)}"
            other = self.moved_instead(c)
            if other is not None:
                metric_, o = other
                way = "better" if _better(metric_, o) else "worse"
                said += f"; but its {metric_words(metric_)} is {way}: {change_words(o)}, a real change"
        return f"{what}: {said}; {self.winner_words()}."

    def moved_instead(self, c: Change) -> tuple[Metric, Change] | None:
        """What the headline change ``c`` leaves out: the charted metric of the same heuristics that changed most for
        real (in percent first, then in points) the other way (worse where ``c`` is better, or better where it is
        worse), or any way when ``c`` is not told apart from no change; None if there is none."""
        if math.isnan(c.lower):
            return None
        charted = {m.name: m for m in get_model(self.before.model).bar_metrics()
                   if m.name != c.metric and not m.name.startswith("normalized_") and m.better}
        lead = _better(self.headline, c) if c.separated else None
        moved = [o for o in self.changes if o.metric in charted and o.separated
                 and (o.before_label, o.after_label) == (c.before_label, c.after_label)
                 and (lead is None or _better(charted[o.metric], o) != lead)]
        if not moved:
            return None
        best = max(moved, key=lambda o: (o.kind == "percent", abs(o.change)))
        return charted[best.metric], best

    def winner_words(self) -> str:
        a, b = self.winners
        if a.label is None or b.label is None:
            return "no winner to compare"
        if a.label == b.label:
            if b.clear:
                return f"the winner stays {b.label}"
            return f"{b.label} still has the best average, but is not told apart from {b.runner_up}"
        if b.clear:
            return f"the winner changes from {a.label} to {b.label}"
        return (f"the best average moves from {a.label} to {b.label}, which is "
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
        return "no change in any trial" if c.change == 0 else f"{_signed(c.change, c.kind)} in every trial"
    if math.isnan(c.lower):
        return _signed(c.change, c.kind)
    if c.kind == "points":
        return f"{_signed(c.change, c.kind)} [{_signed(c.lower)}, {_signed(c.upper)}]"
    if c.lower >= TIMES_FROM:  # "×701 [×252, ×1947]" reads better than "+69949% [+25097%, +194539%]"
        return f"{_times(c.change)} [{_times(c.lower)}, {_times(c.upper)}]"
    return f"{_signed(c.change, c.kind)} [{_signed(c.lower, c.kind)}, {_signed(c.upper, c.kind)}]"


def _times(percent: float) -> str:
    x = 1.0 + percent / 100.0
    return f"×{x:.1f}" if x < 10 else f"×{x:.0f}"


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


def _pair_words(c: Change, metric: Metric) -> str:
    """"sufferage 535 thousand s → 372 thousand s, -30% [-33%, -27%] (paired): a real change"."""
    how = "paired" if c.paired else "unpaired, Welch"
    verdict = real_words(c)
    if c.before_label == c.after_label:
        head = f"{c.before_label} {readable(c.before, metric)} → {readable(c.after, metric)}"
    else:
        head = f"{c.before_label} {readable(c.before, metric)} → {c.after_label} {readable(c.after, metric)}"
    return f"{head}, {change_words(c)} ({how})" + (f": {verdict}" if verdict else "")


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
    return RunComparison(before, after, paired, tuple(run_changes(before, after)), tuple(metrics), tuple(changes),
                         (winner_of(before, before_results), winner_of(after, after_results)), left_out)


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
