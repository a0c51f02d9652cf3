"""The claims registry of Kim et al. (2007), the value model (issue 19): its particular facts (trials, the second
reading, shared scenarios) and the model's own checks' verdicts follow the numbers. The contract every registry keeps
is tests/test_claims.py's."""

import math

import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY
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
    assert {values["heterogeneity"] for values, _ in comparable.points} == {"high", "low"} and len(comparable.points) == 8


# --- the model's own checks on hand-made results ----------------------------------------------------------------
def test_every_heuristic_loses_value():
    check = vc.custom(vc._every_loses, "", key="deadlines")
    loses = sweep("deadlines", {"loose": {"a": flat(90), "b": flat(80)}, "tight": {"a": flat(85), "b": flat(70)}})
    out = check.evaluate(loses, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(5.0) and out.share == 1.0  # a's loss, the smaller
    one_gains = sweep("deadlines", {"loose": {"a": flat(90), "b": flat(80)}, "tight": {"a": flat(85), "b": flat(81)}})
    out = check.evaluate(one_gains, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(-1.0) and "b" in out.detail


def test_queueing_table_loses_least():
    check = vc.custom(vc._loses_least, "", key="deadlines", heuristic="queueing-table")
    least = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90)},
                                "tight": {"queueing-table": flat(88, step=0.2), "b": flat(80)}})
    out = check.evaluate(least, BETTER)
    assert out.verdict == HOLDS and out.value > 0 and out.unit == "points"
    level = {"queueing-table": [90.0] * 6, "b": [90.0] * 6}
    tied = sweep("deadlines", {"loose": level, "tight": {"queueing-table": [88, 87, 89, 88, 86, 90],
                                                         "b": [88.5, 87, 89.5, 87, 88, 88.5]}})
    assert check.evaluate(tied, BETTER).verdict == PARTLY  # second by mean (2.0 against 1.92), not told apart
    most = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90)},
                               "tight": {"queueing-table": flat(80, step=0.2), "b": flat(88)}})
    assert check.evaluate(most, BETTER).verdict == FAILS  # second of two, and told apart
    third = sweep("deadlines", {"loose": {"queueing-table": flat(90), "b": flat(90), "c": flat(90)},
                                "tight": {"queueing-table": flat(80, step=0.2), "b": flat(88), "c": flat(87)}})
    assert check.evaluate(third, BETTER).verdict == FAILS
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
    once_below = table({"max-max": [80, 82, 81], "max-min": [70, 90, 60], "tpsa": [80, 89, 84], "ga": [85, 91, 83]})
    assert check.evaluate(once_below, BETTER).verdict == PARTLY  # mean gain >= 0, but one trial below
    below = table({"max-max": [80, 82, 81], "tpsa": [79, 81, 80], "ga": [85, 91, 83]})
    assert check.evaluate(below, BETTER).verdict == FAILS


def test_tpsa_gain_against_the_papers_percent():
    check = vc.custom(vc._gain_is, "", name="tpsa", paper=12.5, tolerance=0.2)
    printed = table({"max-max": [80, 80, 80], "tpsa": [90, 90.2, 89.8]})  # 12.5% above the best dynamic V
    out = check.evaluate(printed, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(12.5)
    assert check.evaluate(table({"max-max": [80, 80, 80], "tpsa": [80, 80.1, 80]}), BETTER).verdict == FAILS


def test_tpsa_and_ga_comparable_in_every_scenario():
    check = vc.custom(vc._comparable, "", a="tpsa", b="ga", keys=("deadlines",), within=2.0)
    close = sweep("deadlines", {"loose": {"tpsa": flat(90), "ga": flat(91)}, "tight": {"tpsa": flat(70), "ga": flat(69)}})
    assert check.evaluate(close, BETTER).verdict == HOLDS
    apart = sweep("deadlines", {"loose": {"tpsa": flat(90), "ga": flat(91)}, "tight": {"tpsa": flat(70), "ga": flat(77)}})
    out = check.evaluate(apart, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(7.0) and "tight" in out.detail


def test_queueing_table_and_switching_faster():
    check = vc.custom(vc._faster, "", metric="mean_event_ms", fast=("queueing-table", "switching"), factor=100.0,
                      partly=10.0)

    def times(qt: float) -> pd.DataFrame:
        return table({("max-max", "mean_event_ms"): [0.1, 0.12], ("slack-sufferage", "mean_event_ms"): [0.9, 0.9],
                      ("queueing-table", "mean_event_ms"): [qt, qt], ("switching", "mean_event_ms"): [0.0002, 0.0002]})

    out = check.evaluate(times(0.0004), BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(275.0) and out.unit == "x"
    assert check.evaluate(times(0.005), BETTER).verdict == PARTLY  # 22x the fastest rebuilding heuristic
    assert check.evaluate(times(0.05), BETTER).verdict == FAILS
    with pytest.raises(hcsched.HcschedError, match="event_timing"):
        check.evaluate(times(math.nan), BETTER)
