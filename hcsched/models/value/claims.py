"""The published claims of Kim, Shivle, Siegel et al., JPDC 67 (2007), as a registry.

The paper prints no V: its Figs. 2 and 3 (V as % of the upper bound UB, eight scenarios, 50 trials each) are missing
from the text, so its claims are the rankings and the four percentages of section 7, the comparisons of sections 7-8,
the static benchmarks of section 8 and the workload of section 6 (the readings of section 2, our runs and the
deviations: ``docs/models/value.md``, "Reproduction"). Every dynamic claim runs the
dynamic heuristics on the paper's 50 trials; TPSA and GA run on the first 3 trials only, as the docs' run does (each
trial needs the dynamic heuristics for its seed, and the two searches cost about as much as they do).

The second reading: with the text's workload, high heterogeneity leaves the system underloaded (4-9
waiting tasks on average), and every heuristic earns about the same; with task COV 0.9 but machine COV 0.3 it is
oversubscribed (120-350 waiting tasks), as the paper says its system is. The high-heterogeneity ranking claims carry
that reading, on 15 trials (its differences are points to tens of points; 50 would not fit the 300 s budget). The other
oversubscribed reading the issue names, arrivals 3.9x denser (about 5200 tasks a trial), costs about 45 s a trial
on one core (Max-Min's queues reach 2000 tasks) and is left out of the registry.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from hcsched.claims import (
    Best,
    Better,
    Claim,
    Custom,
    Outcome,
    Ratio,
    Reading,
    Region,
    Value,
    column,
    interval_text,
    judge,
    paired,
    rival,
    weakest,
    weakest_of,
    wide,
)
from hcsched.errors import HcschedError
from hcsched.models.value.heuristics import DYNAMIC_NAMES
from hcsched.stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, mean_ci

METRIC = "value_pct_ub"
TRIALS = 50  # the paper's, per scenario (section 6)
STATIC_TRIALS = 3  # TPSA and GA: the first 3 of the 50, as the docs' run (RUN)
RUN = "docs/models/value.md, 'Reproduction'"  # the docs' run of the paper's claims, cited by the notes
READING_TRIALS = 15
STATIC = ("tpsa", "ga")
DYNAMIC = {"heuristics": list(DYNAMIC_NAMES)}  # the dynamic heuristics of section 4, without TPSA and GA
TIER = ("max-max", "percent-best", "queueing-table", "min-min", "relative-cost")  # section 7's "next tier"
# A quick version (tests): 40 min with one burst, about 260 tasks, the same 8 machines and heuristics.
TINY = {"duration": 2400.0, "startup": 300.0, "bursts": 1, "burst_length": 300.0, "window": [300.0, 2400.0]}
TINY_STATIC = {**TINY, "heuristics.8.runs": 1, "heuristics.8.phase1_iterations": 200,
               "heuristics.8.phase2_unchanged": 100,
               "heuristics.8.label": "tpsa", "heuristics.9.population": 10, "heuristics.9.generations": 10,
               "heuristics.9.label": "ga"}

OVERSUBSCRIBED = Reading(
    "oversubscribed", {"task_cov": 0.9, "machine_cov": 0.3, "trials": READING_TRIALS},
    note="Task COV 0.9 with machine COV 0.3 (a reading: docs/models/value.md, 'Reproduction'): the system is "
         "oversubscribed "
         "(120-350 waiting tasks on "
         "average, against 4-9 with the text's 0.9 / 0.9), as section 1 says the paper's is; 15 trials to fit the "
         "budget. The other reading that oversubscribes it, arrivals 3.9x denser, costs 45 s a trial and is not run.",
    words="an oversubscribed system (task spread 0.9, machine spread 0.3)")
UNDERLOADED = ("The system is underloaded in high heterogeneity (4-9 waiting tasks on average; load about 0.3 with "
               "every task on its fastest machine), so every heuristic earns about the same (all eight within 2.4 "
               "points) and Max-Min's lead comes from start-up tasks credited at B. See the oversubscribed reading.")


# --- the model's own checks (section 7's comparisons between scenarios, section 8's benchmarks) ---------------
def _combine(parts: Sequence[tuple[str, Outcome]], detail: str, series: tuple, share: float = math.nan) -> Outcome:
    """One outcome for a claim about several groups (:data:`hcsched.claims.PARTS`): the weakest part's
    (:func:`hcsched.claims.weakest_of`: the first listed among equals), with its verdict, number and claimed region."""
    label, worst = parts[weakest([o for _, o in parts])]
    return weakest_of([o for _, o in parts], share=share, series=series,
                      detail=f"{detail}; weakest: {label}, {worst.detail}")


def _need(table: pd.DataFrame, names: Sequence[str]) -> None:
    """A message naming the first of ``names`` that the results lack, and those they have."""
    for name in names:
        column(table, name)


def _levels(results: pd.DataFrame, key: str) -> list[tuple[object, pd.DataFrame]]:
    """The sweep's values of ``key`` in run order, each with its trials x heuristics table of the metric."""
    if key not in results:
        raise HcschedError(f"claim: the results have no swept column {key!r}")
    return [(value, wide(rows, METRIC)) for value, rows in results.groupby(key, sort=False)]


def _losses(results: pd.DataFrame, key: str) -> pd.DataFrame:
    """Per trial (rows) and dynamic heuristic (columns), the points of UB lost from the sweep's first value of
    ``key`` to its last (common random numbers: the same trial is the same workload at both)."""
    levels = _levels(results, key)
    first, last = levels[0][1], levels[-1][1]
    return pd.DataFrame({h: first[h] - last[h] for h in first.columns if h not in STATIC}).dropna()


def _every_loses(results: pd.DataFrame, better: Mapping[str, str], key: str) -> Outcome:
    """Every dynamic heuristic loses value from the first to the last value of ``key``: one part per heuristic
    (:data:`hcsched.claims.PARTS`), its mean paired loss put at 0 or above (:class:`hcsched.claims.Value`), the
    weakest (the smallest loss among equal verdicts) deciding."""
    loss = _losses(results, key)
    long = loss.rename_axis("trial").reset_index().melt(id_vars="trial", var_name="heuristic", value_name="loss")
    parts = [(h, Value("loss", h, at_least=0.0).evaluate(long, {"loss": "higher"})) for h in loss.columns]
    series = tuple((h, *mean_ci(loss[h])) for h in loss.columns)
    share = float((loss > 0).all(axis=1).mean())
    parts.sort(key=lambda p: p[1].value)  # the smallest loss first: the weakest among equal verdicts
    return _combine(parts, f"every heuristic loses value in {share:.0%} of trials", series, share)


def _loses_least(results: pd.DataFrame, better: Mapping[str, str], key: str, heuristic: str) -> Outcome:
    """``heuristic`` loses the fewest points from the first to the last value of ``key``: "best" on the loss, as
    :class:`hcsched.claims.Best` reads it but in points of UB. The number is its paired lead over its closest rival
    (:func:`hcsched.claims.rival`: the runner-up where it loses least by mean, else the one that does), the rival's
    loss minus its own per trial; the claim puts it above zero, and :func:`hcsched.claims.judge` decides."""
    loss = _losses(results, key)
    _need(loss, (heuristic,))
    order, other = rival(loss.mean().to_dict(), heuristic, -1.0)  # least loss first
    d = paired(loss[other], loss[heuristic], points=True)  # > 0: the heuristic loses less
    mean, lo, hi = mean_ci(d)
    region = Best.REGION
    rank = order.index(heuristic) + 1
    first, last = _first_last(results, key)
    share = float((loss[heuristic].to_numpy()[:, None] <= loss.drop(columns=heuristic).to_numpy()).all(axis=1).mean())
    detail = (f"{heuristic} loses {loss[heuristic].mean():.3g} points, rank {rank} of {len(order)} (least first); "
              f"{other} loses {mean:+.3g} {interval_text(lo, hi)} more over {d.size} trials")
    return Outcome(judge(mean, lo, hi, region), mean, lo, hi, "points", share, detail,
                   tuple((h, *mean_ci(loss[h])) for h in order), region.ends(),
                   f"points of UB lost from {key}={first} to {last}: {other}'s minus {heuristic}'s, paired")


def _first_last(results: pd.DataFrame, key: str) -> tuple:
    """The sweep's first and last values of ``key``."""
    values = list(dict.fromkeys(results[key]))
    return values[0], values[-1]


def _spread(table: pd.DataFrame) -> float:
    means = table.mean()
    return float(means.max() - means.min())


def _narrower(results: pd.DataFrame, better: Mapping[str, str], key: str, exclude: Sequence[str]) -> Outcome:
    """The heuristics other than ``exclude`` are closer together (range of their means, points) at the sweep's first
    value of ``key`` than at its last. Its number is the last's range minus the first's, with a percentile bootstrap
    interval over the trials (resampled together at both values: common random numbers). The claim puts it above zero
    and :func:`hcsched.claims.judge` decides."""
    levels = [(value, broad.drop(columns=[c for c in (*exclude, *STATIC) if c in broad]))
              for value, broad in _levels(results, key)]
    (narrow_at, narrow), (broad_at, broad) = levels[0], levels[-1]
    trials = narrow.index.intersection(broad.index)
    narrow, broad = narrow.loc[trials].to_numpy(float), broad.loc[trials].to_numpy(float)
    gap = _spread(pd.DataFrame(broad)) - _spread(pd.DataFrame(narrow))
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    picks = rng.integers(0, len(trials), size=(BOOTSTRAP_RESAMPLES, len(trials)))
    spreads = [np.ptp(x[picks].mean(axis=1), axis=1) for x in (narrow, broad)]
    lo, hi = (np.quantile(spreads[1] - spreads[0], [0.025, 0.975]) if len(trials) > 1 else (math.nan, math.nan))
    region = Best.REGION  # narrower at the first value: the difference above zero
    share = float(np.mean(np.ptp(narrow, axis=1) < np.ptp(broad, axis=1)))
    series = tuple((f"{key}={at}", float(np.ptp(x.mean(axis=0))), float(np.quantile(s, 0.025)),
                    float(np.quantile(s, 0.975)))
                   for at, x, s in ((narrow_at, narrow, spreads[0]), (broad_at, broad, spreads[1])))
    detail = (f"range of {narrow.shape[1]} heuristics' means: {series[0][1]:.3g} points at {key}={narrow_at}, "
              f"{series[1][1]:.3g} at {key}={broad_at}; difference {gap:+.3g} [{lo:.3g}, {hi:.3g}]")
    return Outcome(judge(gap, float(lo), float(hi), region), gap, float(lo), float(hi), "points", share, detail, series,
                   region.ends(), f"range of the heuristics' means at {key}={broad_at} minus at {key}={narrow_at}")


def _gains(results: pd.DataFrame, names: Sequence[str], relative: bool = False) -> pd.DataFrame:
    """Per trial (rows), each of ``names`` against the same trial's best dynamic heuristic: points of UB, or percent
    of the best dynamic V (``relative``; the same with V or % of UB, since UB is the trial's)."""
    table = wide(results, METRIC)
    _need(table, names)
    best = table.drop(columns=[c for c in STATIC if c in table]).max(axis=1)
    return pd.DataFrame({h: (100.0 * (table[h] - best) / best if relative else table[h] - best) for h in names})


EXACT = 1e-9  # points of UB: a benchmark's gain closer to 0 than this is the seed's own mapping (rounding)


def _at_least_best_dynamic(results: pd.DataFrame, better: Mapping[str, str], benchmarks: Sequence[str]) -> Outcome:
    """Each of ``benchmarks`` does at least as well as the best dynamic heuristic of the same trial (section 8: they are
    seeded with its mapping). One part per benchmark (:data:`hcsched.claims.PARTS`), the weakest deciding: its number
    is the benchmark's mean paired gain over the same trial's best dynamic heuristic, in points of UB, with its 95%
    interval; the claim puts it at 0 or above, and :func:`hcsched.claims.judge` decides. A gain is never negative
    while the benchmark keeps its seed, so the interval is :func:`hcsched.stats.mean_ci`'s "auto": Student-t unless
    that reaches below 0 for gains that are not, then the percentile bootstrap (within the gains' range)."""
    gains = _gains(results, benchmarks)
    gains = gains.mask(gains.abs() <= EXACT, 0.0)
    region = Region(0.0, math.inf)
    share = float((gains >= 0).all(axis=1).mean())
    parts = []
    for h in benchmarks:
        mean, lo, hi = mean_ci(gains[h], method="auto")
        detail = (f"{mean:+.3g} {interval_text(lo, hi)} points (min {gains[h].min():+.3g}) over the same trial's best "
                  "dynamic heuristic, against at least 0")
        parts.append((h, Outcome(judge(mean, lo, hi, region), mean, lo, hi, "points", float((gains[h] >= 0).mean()),
                                 detail, (), region.ends(),
                                 f"{METRIC.replace('_', ' ')} of {h} minus the trial's best dynamic heuristic "
                                 "(points)")))
    series = tuple((h, *mean_ci(gains[h], method="auto")) for h in benchmarks)
    return _combine(parts, f"never below the best dynamic heuristic in {share:.0%} of trials", series, share)


def _gain_is(results: pd.DataFrame, better: Mapping[str, str], name: str, paper: float, tolerance: float) -> Outcome:
    """``name``'s gain over the best dynamic heuristic, in percent of its V, is the paper's ``paper`` percent
    (within ``tolerance``, relative, as :class:`hcsched.claims.Value`)."""
    long = _gains(results, (name,), relative=True).rename_axis("trial").reset_index().rename(columns={name: "gain"})
    return Value("gain", paper=paper, tolerance=tolerance).evaluate(long, {"gain": "higher"})


def _comparable(results: pd.DataFrame, better: Mapping[str, str], a: str, b: str, keys: Sequence[str],
                within: float) -> Outcome:
    """``a`` and ``b`` are comparable in every scenario of the sweep over ``keys``: the mean of their paired
    difference is within ``within`` points of UB, or zero lies in its interval (holds); within twice that (partly)."""
    parts = []
    for values, rows in results.groupby(list(keys), sort=False):
        table = wide(rows, METRIC)
        _need(table, (a, b))
        diff = pd.DataFrame({"trial": table.index, "diff": (table[b] - table[a]).to_numpy(float)})
        label = "-".join(map(str, values))
        parts.append((label, Value("diff", paper=0.0, tolerance=within, points=True).evaluate(diff, {"diff": ""})))
    parts.sort(key=lambda p: -abs(p[1].value))  # the largest difference first among equal verdicts
    series = tuple((label, o.value, o.lower, o.upper) for label, o in parts)
    return _combine(parts, f"{b} - {a} in points of UB, per scenario", series)


def _faster(results: pd.DataFrame, better: Mapping[str, str], fast: Sequence[str], factor: float,
            partly: float) -> Outcome:
    """``fast`` heuristics map at least ``factor`` times faster than the fastest other heuristic (by mean event
    time). One part per fast heuristic (:data:`hcsched.claims.PARTS`), the weakest deciding: its number is the
    per-trial ratio of the fastest other's mean event time over its own (:class:`hcsched.claims.Ratio`), with its 95%
    interval; the claim puts it at ``factor`` or above, and :func:`hcsched.claims.judge` decides. ``partly`` (a weaker
    factor) decides nothing: the detail says whether the ratio reaches it."""
    table = wide(results, "mean_event_ms")
    _need(table, fast)
    means = table.mean()
    if means.isna().any():
        raise HcschedError("claim: mean_event_ms is not measured; the scenario needs event_timing: true")
    others = means.drop(index=[h for h in (*fast, *STATIC) if h in means])
    fastest = others.idxmin()
    parts = [(h, Ratio(fastest, h, "mean_event_ms", at_least=factor, partly=partly).evaluate(results, better))
             for h in fast]
    shown = ", ".join(f"{h} {means[h]:.3g} ms" for h in fast)
    series = tuple((h, *mean_ci(table[h])) for h in means.index if h not in STATIC)
    return _combine(parts, f"{shown} against the fastest other, {fastest} {others.min():.3g} ms (wall clock: varies "
                    "by run)", series)


def custom(fn: Callable[..., Outcome], text: str, names: Sequence[str] = (), metric: str = METRIC, **kwargs) -> Custom:
    """A :class:`hcsched.claims.Custom` check from one of this module's functions and its parameters."""
    return Custom(metric, functools.partial(fn, **kwargs), text, tuple(names))


# --- the claims --------------------------------------------------------------------------------------------
def _preset(deadlines: str, heterogeneity: str, weighting: str) -> str:
    return f"kim-{deadlines}-{heterogeneity}-{weighting}"


def _fig(deadlines: str) -> str:
    return "Fig. 2" if deadlines == "loose" else "Fig. 3"


SCENARIOS = [(d, h, w) for d in ("loose", "tight") for h in ("high", "low") for w in ("heavy", "light")]
SOURCE = "section 7's text (Figs. 2 and 3, the bars, are missing from the seed's text)"


def _dynamic(id_: str, where: str, text: str, d: str, h: str, w: str, check, paper: str, note: str = "",
             source: str = SOURCE, second: bool = False) -> Claim:
    """A claim on one of the eight scenarios, the eight dynamic heuristics on the paper's 50 trials; with
    ``second``, the oversubscribed reading beside it (its 20 trials go in the changes, so the claim's own trials
    are the preset's 50, written in the changes too)."""
    readings = (OVERSUBSCRIBED,) if second else ()
    changes = {**DYNAMIC, "trials": TRIALS} if second else dict(DYNAMIC)
    return Claim(id_, "value", where, text, _preset(d, h, w), check, changes=changes,
                 trials=None if second else TRIALS, paper=paper, source=source, note=note, readings=readings, tiny=TINY)


def _claims() -> tuple[Claim, ...]:
    out: list[Claim] = []
    # Fig. 2, loose deadlines: the best dynamic heuristic and its level (section 7; the abstract's "84%").
    level = {("high", "heavy"): 86.0, ("high", "light"): 83.0, ("low", "heavy"): 84.0, ("low", "light"): 81.0}
    best = {"high": ("max-max", "Max-Max"), "low": ("slack-sufferage", "Slack Sufferage")}
    for (h, w), pct in level.items():
        name, words = best[h]
        short = "maxmax" if name == "max-max" else "ss"
        scenario = ("loose", h, w)
        notes = {("high", "heavy"): f"Max-Max is the lowest of the eight (88.92 in the docs' run: {RUN}); Max-Min "
                                    f"best (91.28). {UNDERLOADED}",
                 ("high", "light"): f"Max-Max is the lowest of the eight (89.00); Max-Min best (91.20). {UNDERLOADED}",
                 ("low", "heavy"): f"Holds in the docs' run ({RUN}: SS 90.22, Max-Max 90.05, SS ahead in 31 of 50 "
                                   "trials).",
                 ("low", "light"): "Max-Max and SS swap places (88.51 against 88.00, Max-Max ahead in 41 of 50 "
                                   "trials): still the top two, 0.5 point apart."}
        out.append(_dynamic(f"kim-fig2-loose-{h}-{w}-{short}-best", "Fig. 2, section 7",
                            f"Loose deadlines, {h} heterogeneity, {w} weighting: {words} is the best dynamic heuristic",
                            *scenario, Best(name, METRIC), f"{words} best", notes[(h, w)], second=h == "high"))
        out.append(_dynamic(f"kim-fig2-loose-{h}-{w}-{short}-level", "Fig. 2, section 7 (abstract: 84%)",
                            f"Loose deadlines, {h} heterogeneity, {w} weighting: {words} earns {pct:g}% of UB",
                            *scenario, Value(METRIC, name, paper=pct, tolerance=2.0, points=True), f"{pct:g}% of UB",
                            "Tolerance 2 points: the paper prints whole percents from its bars. Our UB reads section "
                            "2.3 as a true bound (the paper's UB procedure is garbled; docs/models/value.md, "
                            "'Readings of the paper'), so "
                            "levels are the weakest "
                            f"comparison: the docs' run ({RUN}) has the best dynamic heuristic 3-7 points above the "
                            "paper's.",
                            source="section 7 and the abstract"))
        if h == "low":
            out.append(_dynamic(f"kim-fig2-loose-low-{w}-maxmax-second", "Fig. 2, section 7",
                                f"Loose deadlines, low heterogeneity, {w} weighting: Max-Max is a close second to "
                                "Slack Sufferage (the best of the others)", *scenario,
                                Best("max-max", METRIC,
                                     among=tuple(n for n in DYNAMIC_NAMES if n != "slack-sufferage")),
                                "Max-Max second, close", "Read as: Max-Max best of the seven others (not how close)."))
    # Figs. 2-3: Max-Min worst in every scenario.
    for d, h, w in SCENARIOS:
        notes = {"high": f"Not in high heterogeneity in the docs' run ({RUN}): best in loose (91.28 / 91.20), 5th and "
                         "7th of 8 "
                         f"in tight (89.05 / 88.75; Max-Max last). {UNDERLOADED}",
                 "low": f"Holds in the docs' run ({RUN}): worst by 14-25 points."}
        out.append(_dynamic(f"kim-{'fig2' if d == 'loose' else 'fig3'}-{d}-{h}-{w}-maxmin-worst",
                            f"{_fig(d)}, section 7",
                            f"{d.capitalize()} deadlines, {h} heterogeneity, {w} weighting: Max-Min is the worst "
                            "dynamic heuristic", d, h, w, Best("max-min", METRIC, worst=True), "Max-Min worst",
                            notes[h], second=h == "high"))
    # Fig. 3: every heuristic loses value with tight deadlines, Queueing Table the least; QT best in tight-low.
    for h in ("high", "low"):
        for w in ("heavy", "light"):
            vary = {"deadlines": ["loose", "tight"]}
            out.append(Claim(f"kim-fig3-{h}-{w}-tight-loses-value", "value", "Fig. 3, section 7",
                             f"{h.capitalize()} heterogeneity, {w} weighting: every heuristic loses value with tight "
                             "deadlines", _preset("loose", h, w),
                             custom(_every_loses, "every dynamic heuristic's value_pct_ub falls from loose to tight "
                                    "deadlines (paired)", key="deadlines"),
                             changes=dict(DYNAMIC), vary=vary, trials=TRIALS, paper="every heuristic loses value",
                             source=SOURCE, note=f"Holds in the docs' run ({RUN}), barely in high heterogeneity "
                                                 "(0.1-2.5 "
                             "points; 15-42 in low).", tiny=TINY))
            out.append(Claim(f"kim-fig3-{h}-{w}-qt-degrades-least", "value", "Fig. 3, section 7",
                             f"{h.capitalize()} heterogeneity, {w} weighting: Queueing Table loses the least value "
                             "from loose to tight deadlines", _preset("loose", h, w),
                             custom(_loses_least, "queueing-table loses the fewest points of UB from loose to tight "
                                    "deadlines (paired)", ("queueing-table",), key="deadlines",
                                    heuristic="queueing-table"),
                             changes=dict(DYNAMIC), vary=vary, trials=TRIALS, paper="QT degrades least", source=SOURCE,
                             note=f"Not in the docs' run ({RUN}): low heterogeneity QT -19.7 / -20.0 points against "
                                  "Max-Max "
                                  "-15.4 / -17.6; high heterogeneity QT -0.21 / -0.50, Min-Min -0.09 / -0.23.",
                             tiny=TINY))
        if h == "low":
            for w in ("heavy", "light"):
                out.append(_dynamic(f"kim-fig3-tight-low-{w}-qt-best", "Fig. 3, section 7",
                                    f"Tight deadlines, low heterogeneity, {w} weighting: Queueing Table is the best "
                                    "dynamic heuristic", "tight", "low", w, Best("queueing-table", METRIC), "QT best",
                                    "Depends on QT's unpublished cutoffs (ours RET 1.0, urgency 0.5, chosen on seed "
                                    f"1). Not in the docs' run ({RUN}): QT 5th of 8 (64.77 / 57.31), Max-Max best "
                                    "(74.61 / "
                                    "70.89); no "
                                    "cell of a 5 x 5 cutoff grid brings QT within 8 points of Max-Max."))
    # Sections 7-8: Max-Max against Slack Sufferage, and against the "next tier".
    for d, h, w in SCENARIOS:
        a, b = ("max-max", "slack-sufferage") if h == "high" else ("slack-sufferage", "max-max")
        short = "maxmax-beats-ss" if h == "high" else "ss-beats-maxmax"
        out.append(_dynamic(f"kim-sec7-{d}-{h}-{w}-{short}", "sections 7-8",
                            f"{d.capitalize()} deadlines, {h} heterogeneity, {w} weighting: "
                            + ("Max-Max better than Slack Sufferage" if h == "high"
                             else "Slack Sufferage better than Max-Max"),
                            d, h, w, Better(a, b, METRIC, points=True), f"{a} > {b}",
                            f"Not in the docs' run ({RUN}): always within 3 points; high heterogeneity SS ahead by "
                            "0.26-0.41; "
                            "low heterogeneity SS ahead only in loose heavy (+0.17), Max-Max ahead by 0.51-2.73 "
                            "elsewhere.",
                            second=h == "high"))
        out.append(_dynamic(f"kim-sec7-{d}-{h}-{w}-maxmax-beats-next-tier", "section 7",
                            f"{d.capitalize()} deadlines, {h} heterogeneity, {w} weighting: Max-Max beats the next "
                            "tier "
                            "(Percent Best, Queueing Table, Min-Min, Relative Cost)", d, h, w,
                            Best("max-max", METRIC, among=TIER), "Max-Max above the next tier",
                            f"Holds in low heterogeneity in the docs' run ({RUN}: by 1.2-19 points); in high "
                            "heterogeneity "
                            f"Max-Max is below all four (by 0.03-1.0 point). "
                            f"{UNDERLOADED if h == 'high' else ''}".strip(),
                            second=h == "high"))
    # Fig. 2: heavy weighting narrows the spread of the heuristics other than Max-Min.
    for d in ("loose", "tight"):
        for h in ("high", "low"):
            out.append(Claim(f"kim-{'fig2' if d == 'loose' else 'fig3'}-{d}-{h}-heavy-narrows-spread", "value",
                             f"{_fig(d)}, section 7",
                             f"{d.capitalize()} deadlines, {h} heterogeneity: under heavy weighting the heuristics "
                             "other "
                             "than Max-Min are closer together than under light", _preset(d, h, "heavy"),
                             custom(_narrower, "range of the seven dynamic heuristics other than Max-Min: smaller "
                                    "under heavy than light weighting", key="weighting", exclude=("max-min",)),
                             changes=dict(DYNAMIC), vary={"weighting": ["heavy", "light"]}, trials=TRIALS,
                             paper="closer together under heavy weighting", source=SOURCE,
                             note=f"Holds in the docs' run ({RUN}) except tight high heterogeneity (0.69 / 0.69 "
                                  "points).",
                             tiny=TINY))
    # Section 8: the static benchmarks, on 3 trials.
    static_note = (f"TPSA and GA (the paper's parameters) on the first {STATIC_TRIALS} trials only, as in the docs' "
                   f"run ({RUN}): "
                   "they "
                   "are expensive; the paper ran 50.")
    for d, h, w in SCENARIOS:
        out.append(Claim(f"kim-sec8-{d}-{h}-{w}-static-at-least-best-dynamic", "value", "section 8 (and 5)",
                         f"{d.capitalize()} deadlines, {h} heterogeneity, {w} weighting: TPSA and GA are at least as "
                         "good as the best dynamic heuristic", _preset(d, h, w),
                         custom(_at_least_best_dynamic, "TPSA and GA at least the same trial's best dynamic heuristic",
                                STATIC, benchmarks=STATIC),
                         trials=STATIC_TRIALS, paper="TPSA, GA >= the best dynamic heuristic", source="section 8",
                         note=f"{static_note} Holds by construction: both keep the better of the search and the seed.",
                         tiny=TINY_STATIC))
    for d in ("loose", "tight"):
        out.append(Claim(f"kim-sec8-{d}-low-light-tpsa-beats-ga", "value", "section 8",
                         f"{d.capitalize()} deadlines, low heterogeneity, light weighting: TPSA slightly better "
                         "than GA",
                         _preset(d, "low", "light"), Better("tpsa", "ga", METRIC, points=True), trials=STATIC_TRIALS,
                         paper="TPSA > GA, slightly", source="section 8",
                         note=f"{static_note} Not in that run: GA ahead of TPSA everywhere, by 0.6-7.0 "
                              "points. With "
                              "the paper's T0 = 100,000 and alpha = 0.99 the first ~1100 iterations accept almost any "
                              "move and lose the seed, and TPSA's search never beats it; t0 and alpha are parameters.",
                         tiny=TINY_STATIC))
    out.append(Claim("kim-sec8-loose-low-light-tpsa-gain", "value", "section 8",
                     "Loose deadlines, low heterogeneity, light weighting: TPSA 12.5% above the best dynamic heuristic",
                     _preset("loose", "low", "light"),
                     custom(_gain_is, "TPSA's gain over the same trial's best dynamic heuristic = 12.5% of its V "
                            "(within 20%)", ("tpsa",), name="tpsa", paper=12.5, tolerance=0.2),
                     trials=STATIC_TRIALS, paper="12.5%", source="section 8",
                     note=f"{static_note} Read as percent of the best dynamic V, in loose deadlines (the text names no "
                          "deadline type). Not in that run: TPSA +0.01 points, GA +0.60.", tiny=TINY_STATIC))
    keys = ("deadlines", "heterogeneity", "weighting")
    out.append(Claim("kim-sec8-tpsa-ga-comparable", "value", "section 8",
                     "TPSA and GA are comparable in every scenario", _preset("loose", "high", "heavy"),
                     custom(_comparable, "|GA - TPSA| within 2 points of UB in each of the eight scenarios",
                            STATIC, a="tpsa", b="ga", keys=keys, within=2.0),
                     vary={"deadlines": ["loose", "tight"], "heterogeneity": ["high", "low"],
                           "weighting": ["heavy", "light"]},
                     trials=STATIC_TRIALS, paper="comparable", source="section 8",
                     note=f"{static_note} 'Comparable' read as within 2 points of UB. Not in that run: GA ahead "
                          "by 0.6-7.0 points (TPSA hardly leaves its seed).", tiny=TINY_STATIC))
    # Section 6: the workload; section 4.1 / 6: event times.
    out.append(Claim("kim-sec6-tasks-1276", "value", "section 6", "An average of 1276 tasks arrive in a trial",
                     _preset("loose", "high", "heavy"), Value("tasks", paper=1276.0, tolerance=0.01),
                     changes=dict(DYNAMIC), trials=TRIALS, paper="1276 tasks", source="section 6",
                     note="Tolerance 1% (the paper's mean over 50 trials has a standard error near 0.4%). Not in the "
                          f"docs' run ({RUN}): 1324.9 (standard error 5.6); the stated rates give 600/3.5 + 12600/14 + "
                          "1800/7 = 1328.6, and no reading of the text gives 1276.", tiny=TINY))
    out.append(Claim("kim-sec4-qt-switching-faster", "value", "sections 4.1 and 6",
                     "Queueing Table and Switching map hundreds of times faster than the rebuilding heuristics",
                     _preset("loose", "low", "heavy"),
                     custom(_faster, "QT's and Switching's mean event times at least 100x shorter than the fastest "
                            "rebuilding heuristic's (per trial; 10x the weaker reading)",
                            ("queueing-table", "switching"),
                            metric="mean_event_ms", fast=("queueing-table", "switching"), factor=100.0, partly=10.0),
                     changes={**DYNAMIC, "event_timing": True}, trials=STATIC_TRIALS,
                     paper="QT 0.4 ms, SwA 0.2 ms against 110-450 ms (275x / 550x the fastest, Max-Max)",
                     source="section 6 (2006 hardware)",
                     note=f"Wall-clock times: the verdict can change between runs. {STATIC_TRIALS} trials (a mean over "
                          f"some 1300 events each). Short of 100x in the docs' run "
                          f"({RUN}: 12x / 28x the fastest, Max-Max): "
                          "our rebuilding kernels are incremental, so much faster than the paper's.", tiny=TINY))
    return tuple(out)


CLAIMS: tuple[Claim, ...] = _claims()
