"""The claims registry of Kim et al. (2007), the value model: its particular facts (trials, the second
reading, shared scenarios) and the model's own checks' verdicts follow the numbers. The contract every registry keeps
is tests/test_claims.py's."""

import math

import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY, Region, judge
from hcsched.models.value import claims as vc
from hcsched.reproduce import key_of, unique_scenarios, variant_scenario, variants

CLAIMS = vc.CLAIMS
BETTER = {"value_pct_ub": "higher", "mean_event_ms": "lower"}
DYNAMIC = ("max-max", "max-min", "min-min", "percent-best", "queueing-table", "relative-cost", "slack-sufferage",
           "switching")


def table(columns: dict, **constant) -> pd.DataFrame:
    """One row per trial and heuristic from per-heuristic lists (``metric`` value_pct_ub unless a column is named
    by a (heuristic, metric) key); ``constant`` columns added to every row."""
    rows = []
    for key, values in columns.items():
        heuristic, metric = key if isinstance(key, tuple) else (key, "value_pct_ub")
        rows += [{"trial": t, "heuristic": heuristic, metric: float(v), **constant} for t, v in enumerate(values)]
    return pd.DataFrame(rows)


def sweep(key: str, levels: dict) -> pd.DataFrame:
    """A sweep's results: ``levels`` maps each value of ``key`` to its per-heuristic lists."""
    return pd.concat([table(cols, **{key: level}) for level, cols in levels.items()], ignore_index=True)


def flat(base: float, n: int = 6, step: float = 0.1) -> list[float]:
    """``n`` per-trial values around ``base`` (a little noise, so that intervals are finite)."""
    return [base + step * ((t % 3) - 1) for t in range(n)]


# --- the registry --------------------------------------------------------------------------------------------
def test_the_paper_s_trials_the_second_reading_and_shared_scenarios():
    work = variants(CLAIMS)
    trials = {v.claim.id: v.points[0][1].trials for v in work if v.reading == "literal"}
    assert trials["kim-fig2-loose-high-heavy-maxmax-best"] == 50 and trials["kim-sec6-tasks-1276"] == 50
    assert trials["kim-sec8-loose-low-light-tpsa-beats-ga"] == 3  # TPSA and GA on 3 trials, as the README
    best = next(c for c in CLAIMS if c.id == "kim-fig2-loose-high-heavy-maxmax-best")
    (_, literal, _), (name, changes, _) = best.variants()
    oversubscribed = variant_scenario(best, dict(changes))
    assert name == "oversubscribed" and oversubscribed.spec.covs == (0.9, 0.3) and oversubscribed.trials == 15
    assert variant_scenario(best, dict(literal)).spec.covs == (0.9, 0.9)
    # the deadline sweep's tight point is the tight preset's own scenario, run once for both claims
    loses = next(v for v in work if v.claim.id == "kim-fig3-low-light-tight-loses-value")
    worst = next(v for v in work if v.claim.id == "kim-fig3-tight-low-light-maxmin-worst")
    assert key_of(loses.points[-1][1]) == key_of(worst.points[0][1])
    assert len(unique_scenarios(work)) == 21  # 8 presets x 50 trials, 4 oversubscribed, 8 with TPSA and GA, 1 timed


def test_the_claims_carry_notes_and_the_comparable_claim_sweeps_all_eight_scenarios():
    assert all(c.note and c.paper and c.source for c in CLAIMS)
    comparable = next(v for v in variants(CLAIMS, tiny=True) if v.claim.id == "kim-sec8-tpsa-ga-comparable")
    assert {values["heterogeneity"] for values, _ in comparable.points} == {"high", "low"}
    assert len(comparable.points) == 8


# --- the model's own checks on hand-made results ----------------------------------------------------------------
def test_every_heuristic_loses_value():
    check = vc.custom(vc._every_loses, "", key="deadlines")
    loses = sweep("deadlines", {"loose": {"a": flat(90), "b": flat(80)}, "tight": {"a": flat(85), "b": flat(70)}})
    out = check.evaluate(loses, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(5.0) and out.share == 1.0  # a's loss, the smaller
    one_gains = sweep("deadlines", {"loose": {"a": flat(90), "b": flat(80)}, "tight": {"a": flat(85), "b": flat(81)}})
    out = check.evaluate(one_gains, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(-1.0) and "b" in out.detail


def _judged(out) -> bool:
    """The outcome's verdict is judge() of its own number, interval and claimed region (DEFINITION)."""
    return out.verdict == judge(out.value, out.lower, out.upper, Region(*out.claimed))


def test_queueing_table_loses_least():
    check = vc.custom(vc._loses_least, "", key="deadlines", heuristic="queueing-table")
    least = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90)},
                                "tight": {"queueing-table": flat(88, step=0.2), "b": flat(80)}})
    out = check.evaluate(least, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(8.0) and out.unit == "points"  # b loses 8 points more
    assert out.claimed == (0.0, math.inf) and "rank 1 of 2" in out.detail and _judged(out)
    level = {"queueing-table": [90.0] * 6, "b": [90.0] * 6}
    straddle = sweep("deadlines", {"loose": level, "tight": {"queueing-table": [88.5, 87, 89.5, 87, 88, 88.5],
                                                            "b": [88, 87, 89, 88, 86, 90]}})
    out = check.evaluate(straddle, BETTER)  # least by mean (1.92 against 2.0), the interval across 0
    assert out.verdict == PARTLY and out.lower < 0 < out.value and _judged(out)
    tied = sweep("deadlines", {"loose": level, "tight": {"queueing-table": [88, 87, 89, 88, 86, 90],
                                                         "b": [88.5, 87, 89.5, 87, 88, 88.5]}})
    out = check.evaluate(tied, BETTER)  # second by mean (2.0 against 1.92): the mean is outside, however noisy
    assert out.verdict == FAILS and out.value < 0 < out.upper and "rank 2 of 2" in out.detail
    most = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90)},
                               "tight": {"queueing-table": flat(80, step=0.2), "b": flat(88)}})
    assert check.evaluate(most, BETTER).verdict == FAILS  # second of two, and told apart
    third = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90), "c": flat(90)},
                                "tight": {"queueing-table": flat(80, step=0.2), "b": flat(88), "c": flat(87)}})
    out = check.evaluate(third, BETTER)
    assert out.verdict == FAILS and "rank 3 of 3" in out.detail and "b loses" in out.detail  # the rival: the first
    one = sweep("deadlines", {"loose": {"queueing-table": [90.0], "b": [90.0]}, "tight": {"queueing-table": [88.0],
                                                                                       "b": [80.0]}})
    out = check.evaluate(one, BETTER)  # one trial: no interval, partly at most
    assert out.verdict == PARTLY and "(no interval)" in out.detail
    with pytest.raises(hcsched.HcschedError, match="no heuristic 'queueing-table'"):
        check.evaluate(sweep("deadlines", {"loose": {"b": flat(90)}, "tight": {"b": flat(80)}}), BETTER)


def test_spread_narrows_under_heavy_weighting():
    check = vc.custom(vc._narrower, "", key="weighting", exclude=("max-min",))
    narrower = sweep("weighting", {"heavy": {"a": flat(90), "b": flat(88), "max-min": flat(40)},
                                   "light": {"a": flat(90), "b": flat(84), "max-min": flat(60)}})
    out = check.evaluate(narrower, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(4.0) and out.lower > 0  # 6 - 2 points; Max-Min left out
    wider = sweep("weighting", {"heavy": {"a": flat(90), "b": flat(84), "max-min": flat(40)},
                                "light": {"a": flat(90), "b": flat(88), "max-min": flat(89)}})
    assert check.evaluate(wider, BETTER).verdict == FAILS


def test_static_benchmarks_at_least_the_best_dynamic_heuristic():
    check = vc.custom(vc._at_least_best_dynamic, "", benchmarks=("tpsa", "ga"))
    above = table({"max-max": [80, 82, 81], "max-min": [70, 90, 60], "tpsa": [80, 90, 81], "ga": [85, 91, 83]})
    out = check.evaluate(above, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(0.0) and out.share == 1.0  # per trial: 80, 90, 81 best
    assert out.claimed == (0.0, math.inf) and out.unit == "points" and _judged(out)
    never_below = table({"max-max": [80, 82, 81], "max-min": [70, 90, 60], "tpsa": [80, 90.6, 81], "ga": [85, 91, 83]})
    out = check.evaluate(never_below, BETTER)  # gains 0, 0.6, 0: a Student-t interval would reach below 0
    assert out.verdict == HOLDS and out.lower == pytest.approx(0.0) and out.value == pytest.approx(0.2)
    once_below = table({"max-max": [80, 82, 81], "max-min": [70, 90, 60], "tpsa": [80, 89, 84], "ga": [85, 91, 83]})
    out = check.evaluate(once_below, BETTER)  # mean gain 0.67 >= 0, but one trial below: the interval straddles 0
    assert out.verdict == PARTLY and out.lower < 0 < out.value and "tpsa" in out.detail and _judged(out)
    below = table({"max-max": [80, 82, 81], "tpsa": [79, 81, 80], "ga": [85, 91, 83]})
    out = check.evaluate(below, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(-1.0) and _judged(out)
    rounding = table({"max-max": [80, 82, 81], "tpsa": [80 - 1e-12, 82, 81], "ga": [85, 91, 83]})
    assert check.evaluate(rounding, BETTER).verdict == HOLDS  # a difference of 1e-12 points is the seed's own mapping
    out = check.evaluate(table({"max-max": [80], "tpsa": [80.5], "ga": [81]}), BETTER)  # one trial
    assert out.verdict == PARTLY and "(no interval)" in out.detail


def test_tpsa_gain_against_the_papers_percent():
    check = vc.custom(vc._gain_is, "", name="tpsa", paper=12.5, tolerance=0.2)
    printed = table({"max-max": [80, 80, 80], "tpsa": [90, 90.2, 89.8]})  # 12.5% above the best dynamic V
    out = check.evaluate(printed, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(12.5)
    assert check.evaluate(table({"max-max": [80, 80, 80], "tpsa": [80, 80.1, 80]}), BETTER).verdict == FAILS


def test_tpsa_and_ga_comparable_in_every_scenario():
    check = vc.custom(vc._comparable, "", a="tpsa", b="ga", keys=("deadlines",), within=2.0)
    close = sweep("deadlines", {"loose": {"tpsa": flat(90), "ga": flat(91)},
                                "tight": {"tpsa": flat(70), "ga": flat(69)}})
    assert check.evaluate(close, BETTER).verdict == HOLDS
    apart = sweep("deadlines", {"loose": {"tpsa": flat(90), "ga": flat(91)},
                                "tight": {"tpsa": flat(70), "ga": flat(77)}})
    out = check.evaluate(apart, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(7.0) and "tight" in out.detail


def test_queueing_table_and_switching_faster():
    check = vc.custom(vc._faster, "", metric="mean_event_ms", fast=("queueing-table", "switching"), factor=100.0,
                      partly=10.0)

    def times(qt, n: int = 3) -> pd.DataFrame:
        qt = qt if isinstance(qt, list) else [qt] * n
        return table({("max-max", "mean_event_ms"): [0.1] * len(qt),
                      ("slack-sufferage", "mean_event_ms"): [0.9] * len(qt),
                      ("queueing-table", "mean_event_ms"): qt, ("switching", "mean_event_ms"): [0.0002] * len(qt)})

    out = check.evaluate(times(0.0004), BETTER)  # 250x and 500x the fastest rebuilding heuristic, Max-Max
    assert out.verdict == HOLDS and out.value == pytest.approx(250.0) and out.unit == "x"
    assert out.claimed == (100.0, math.inf) and "queueing-table" in out.detail and _judged(out)
    out = check.evaluate(times([0.0008, 0.0012, 0.0009]), BETTER)  # 125, 83, 111x: the mean above 100, the interval not
    assert out.verdict == PARTLY and out.lower < 100.0 < out.value and _judged(out)
    out = check.evaluate(times(0.005), BETTER)  # 20x: beyond the weaker 10x, short of 100x
    assert out.verdict == FAILS and out.value == pytest.approx(20.0) and "beyond 10" in out.detail
    assert check.evaluate(times(0.05), BETTER).verdict == FAILS
    out = check.evaluate(times(0.0004, n=1), BETTER)  # one trial: no interval
    assert out.verdict == PARTLY and "(no interval)" in out.detail
    with pytest.raises(hcsched.HcschedError, match="event_timing"):
        check.evaluate(times(math.nan), BETTER)


def test_the_models_own_checks_keep_the_one_rule():
    """Every check of this module says where its claim puts its number, and its verdict is judge()'s of it."""
    narrower = sweep("weighting", {"heavy": {"a": flat(90), "b": flat(88)}, "light": {"a": flat(90), "b": flat(84)}})
    out = vc.custom(vc._narrower, "", key="weighting", exclude=()).evaluate(narrower, BETTER)
    assert out.claimed == (0.0, math.inf) and _judged(out)
    loses = sweep("deadlines", {"loose": {"a": flat(90), "b": flat(80)}, "tight": {"a": flat(85), "b": flat(81)}})
    out = vc.custom(vc._every_loses, "", key="deadlines").evaluate(loses, BETTER)
    assert out.claimed == (0.0, math.inf) and _judged(out)
    apart = sweep("deadlines", {"loose": {"tpsa": flat(90), "ga": flat(91)},
                                "tight": {"tpsa": flat(70), "ga": flat(77)}})
    out = vc.custom(vc._comparable, "", a="tpsa", b="ga", keys=("deadlines",), within=2.0).evaluate(apart, BETTER)
    assert out.claimed == (-2.0, 2.0) and _judged(out)
