"""Who wins: paired verdicts on hand-made results tables with hand-computed answers (hcsched.verdict)."""

import math

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched.errors import HcschedError
from hcsched.metrics import Metric
from hcsched.stats import mean_ci
from hcsched.verdict import NEITHER, headline_metrics, readable, readable_number, scenario_verdicts, verdict, verdict_lines, verdicts

LOWER = Metric("x", "Makespan", "s", "lower", bar=True)
HIGHER = Metric("y", "Throughput", "", "higher", bar=True)
POINTS = Metric("p", "Value, % of the upper bound", "%", "higher", bar=True)
FRACTION = Metric("u", "Utilisation", "", "higher", bar=True, fmt=".1%")

T3_4 = 3.182446305284263  # t(0.975, 3)
T3_2 = 4.302652729749464  # t(0.975, 2)


def table(metric: str, **values) -> pd.DataFrame:
    """One row per trial and heuristic, heuristics in the order given."""
    rows = [{"trial": t, "heuristic": h, metric: v} for h, vs in values.items() for t, v in enumerate(vs)]
    return pd.DataFrame(rows).sort_values("trial", kind="stable").reset_index(drop=True)


def test_a_beats_b_on_every_trial():
    # per-trial (A - B) / B: -10, -5, -5, -10 %: mean -7.5, sd sqrt(25/3), half-width t(3) sd / 2
    v = verdict(table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300]), LOWER)
    half = T3_4 * math.sqrt(25 / 3) / 2
    assert (v.best, v.other, v.kind, v.trials) == ("A", "B", "percent", 4)
    assert v.difference == pytest.approx(-7.5)
    assert (v.lower, v.upper) == pytest.approx((-7.5 - half, -7.5 + half))
    assert v.separated and v.title == "Lowest makespan" and v.better == "lower"
    assert v.text == "Lowest makespan: A (208.8 s), 7.5% below B [2.9%, 12%]"


def test_reversed_table_the_other_wins():
    v = verdict(table("x", A=[100, 200, 300, 300], B=[90, 190, 285, 270]), LOWER)
    assert (v.best, v.other) == ("B", "A")
    assert v.difference == pytest.approx(-7.5) and v.separated
    assert v.text.startswith("Lowest makespan: B (208.8 s), 7.5% below A ")


def test_noisy_table_is_not_told_apart():
    # (A - B) / B: -10, 10, -5, 0 %: mean -1.25, sd sqrt(218.75 / 3)
    v = verdict(table("x", A=[90, 110, 95, 100], B=[100, 100, 100, 100]), LOWER)
    half = T3_4 * math.sqrt(218.75 / 3) / 2
    assert v.best == "A" and not v.separated
    assert (v.difference, v.lower, v.upper) == pytest.approx((-1.25, -1.25 - half, -1.25 + half))
    assert "A (98.75 s) and B are not told apart (" in v.text
    assert v.text.endswith("below, [-12%, 15%])")  # the interval read in the "below" sense: from 12% above to 15% below


def test_higher_is_better():
    v = verdict(table("y", A=[10, 20, 30, 40], B=[11, 22, 33, 44]), HIGHER)
    assert (v.best, v.other, v.title) == ("B", "A", "Highest throughput")
    assert (v.difference, v.lower, v.upper) == pytest.approx((10.0, 10.0, 10.0))  # +10% in every trial
    assert v.separated and v.text == "Highest throughput: B (27.5), 10% above A [10%, 10%]"


@pytest.mark.parametrize("metric, scale, shown", [(POINTS, 1.0, "60%"), (FRACTION, 0.01, "60.0%")])
def test_points_for_percent_and_fraction_metrics(metric, scale, shown):
    # A - B: 2, 3, 2 points: mean 7/3, sd sqrt(1/3), half-width t(2) sd / sqrt(3)
    a, b = np.array([50, 60, 70]) * scale, np.array([48, 57, 68]) * scale
    v = verdict(table(metric.name, A=a, B=b), metric)
    half = T3_2 * math.sqrt(1 / 3) / math.sqrt(3)
    assert v.kind == "points" and v.best == "A" and v.separated
    assert (v.difference, v.lower, v.upper) == pytest.approx((7 / 3, 7 / 3 - half, 7 / 3 + half))
    assert v.text == f"{v.title}: A ({shown}), 2.3 points above B [0.9, 3.8]"


def test_one_trial_has_no_interval():
    v = verdict(table("x", A=[90], B=[100]), LOWER)
    assert v.best == "A" and v.difference == pytest.approx(-10.0) and v.trials == 1
    assert math.isnan(v.lower) and not v.separated
    assert v.text == "Lowest makespan: A (90 s), 10% below B (1 trial: no interval)"


def test_nan_and_infinite_trials_are_dropped_and_counted():
    # trial 1: A NaN, trial 4: B infinite; (A - B) / B on trials 0, 2, 3: -10, -5, -10 %
    v = verdict(table("x", A=[90, np.nan, 285, 270, 190], B=[100, 200, 300, 300, np.inf]), LOWER)
    half = T3_2 * math.sqrt(25 / 3) / math.sqrt(3)
    assert v.best == "A" and v.trials == 3
    assert (v.difference, v.lower, v.upper) == pytest.approx((-25 / 3, -25 / 3 - half, -25 / 3 + half))
    assert v.text.endswith("8.3% below B [1.2%, 16%] (3 of 5 trials)")


def test_a_percent_of_zero_is_dropped():
    v = verdict(table("x", A=[0, 90, 95], B=[0, 100, 100]), LOWER)
    assert v.trials == 2 and v.difference == pytest.approx(-7.5)


def test_a_percent_interval_stays_above_minus_100():
    # (A - B) / B: -99.9, -99.9, -50, -50 %: Student-t reaches -120.8%, below what non-negative values allow
    d = np.array([-99.9, -99.9, -50.0, -50.0])
    assert mean_ci(d, method="t")[1] < -100
    v = verdict(table("x", A=[1, 1, 1, 1], B=[1000, 1000, 2, 2]), LOWER)
    _, lo, hi = mean_ci(d + 100, method="bootstrap")
    assert (v.difference, v.lower, v.upper) == pytest.approx((-74.95, lo - 100, hi - 100))
    assert -100 <= v.lower < v.upper < 0 and v.separated


def test_per_trial_percent_against_the_means_says_so():
    # means: B 50 < A 55, but (B - A) / A is +100% and -20%: +40% per trial on average
    v = verdict(table("x", A=[10, 100], B=[20, 80]), LOWER)
    assert v.best == "B" and v.difference == pytest.approx(40.0) and not v.separated
    assert "B (50 s) and A are not told apart (40% above per trial on average, though lower by mean, [" in v.text


@pytest.mark.parametrize("order", [("A", "B"), ("B", "A")])
def test_ties_go_to_the_first_heuristic_of_the_table(order):
    v = verdict(table("x", **{order[0]: [100, 200], order[1]: [100, 200]}), LOWER)
    assert (v.best, v.other) == order and not v.separated
    assert v.text.endswith("are not told apart (equal in every trial)")
    # equal means, different trials: still the first
    w = verdict(table("p", **{order[0]: [10, 20], order[1]: [20, 10]}), POINTS)
    assert w.best == order[0] and w.difference == 0 and w.text.endswith("(0 points apart, [-127, 127])")


def test_benchmark_neither_best_nor_runner_up_is_compared_too():
    results = table("x", C=[120, 240, 360, 360], A=[90, 190, 285, 270], B=[100, 200, 300, 300])
    v = verdict(results, LOWER, benchmark="C")
    assert (v.best, v.other) == ("A", "B")
    assert [(c.other, c.role) for c in v.comparisons] == [("B", "runner-up"), ("C", "benchmark")]
    bench = v.comparisons[1]  # (A - C) / C: -25, -20.83, -20.83, -25 %
    assert bench.difference == pytest.approx(-22.916666, abs=1e-5) and bench.separated
    assert v.text.startswith("Lowest makespan: A (208.8 s), 7.5% below B [2.9%, 12%]; 23% below the benchmark C [")
    # the benchmark as runner-up or best: no second comparison
    assert len(verdict(results, LOWER, benchmark="B").comparisons) == 1
    assert len(verdict(results, LOWER, benchmark="A").comparisons) == 1


def test_benchmark_not_told_apart_says_so():
    results = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300], C=[80, 260, 300, 300])
    v = verdict(results, LOWER, benchmark="C")
    assert not v.comparisons[1].separated and "; not told apart from the benchmark C (" in v.text


def test_single_heuristic_all_nan_and_neither_is_better():
    assert verdict(table("x", A=[1.0, 2.0]), LOWER).text == "Lowest makespan: A (1.5 s), the only heuristic, nothing to compare"
    v = verdict(table("x", A=[np.nan, np.nan], B=[np.nan, np.nan]), LOWER)
    assert v.best is None and v.text == "Lowest makespan: no values (every trial is NaN)"
    events = Metric("x", "Mapping events", "", "")
    n = verdict(table("x", A=[1, 2], B=[3, 4]), events)
    assert n.best is None and n.note == NEITHER and n.text == "Mapping events: neither is better"


def test_headline_metrics_skip_normalised_duplicates():
    norm = LOWER.normalized()
    assert [m.name for m in headline_metrics([LOWER, norm], ["x", norm.name])] == ["x"]
    assert [m.name for m in headline_metrics([LOWER, norm], [norm.name])] == [norm.name]


def test_bad_results_name_the_column():
    with pytest.raises(HcschedError, match="no column 'trial'"):
        verdict(pd.DataFrame({"heuristic": ["A"], "x": [1.0]}), LOWER)
    with pytest.raises(HcschedError, match="no column 'y'"):
        verdict(table("x", A=[1.0]), HIGHER)


def test_numbers_as_people_read_them():
    assert readable_number(1_196_000) == "1.20 M" and readable_number(523.4) == "523.4" and readable_number(999_700) == "1.00 M"
    assert readable_number(12_345) == "12.3 k" and readable_number(9_999.7) == "10.0 k"
    assert readable_number(61_400) == "61.4 k" and readable_number(9876) == "9876" and readable_number(0.0123) == "0.0123"
    assert readable_number(2e16) == "2e+16" and readable_number(math.inf) == "inf" and readable_number(math.nan) == "–"
    assert readable(1_196_000, LOWER) == "1.20 M s" and readable(0.873, FRACTION) == "87.3%"
    assert readable(93.4, POINTS) == "93.4%" and readable(12, Metric("n", "Late", "tasks")) == "12 tasks"


def test_quickstart_lines_name_its_heuristics():
    scenario = hcsched.preset("quickstart")
    results = hcsched.simulate(scenario, trials=3, jobs=1)
    found = scenario_verdicts(scenario, results)
    labels = [h.label for h in scenario.heuristics]
    bars = [m.name for m in hcsched.get_model(scenario.model).bar_metrics() if not m.name.startswith("normalized_")]
    assert [v.metric for v in found] == bars
    for v, line in zip(found, verdict_lines(found), strict=True):
        if not v.better:  # utilisation: neither way is better, nothing to rank
            assert line == f"{v.title}: neither is better"
            continue
        assert v.best in labels and v.other in labels and v.trials == 3
        assert line.startswith(v.title + ": ") and v.best in line and v.other in line
        if scenario.benchmark_label not in (v.best, v.other):  # min-min, the ETC model's default benchmark
            assert v.comparisons[1].other == scenario.benchmark_label and "the benchmark min-min" in line
    assert len(verdicts(results, hcsched.get_model(scenario.model).bar_metrics())) == len(found)
