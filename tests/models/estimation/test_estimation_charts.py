"""Dense charts over time: the mean over trials and its 95% band on a common time grid, the heuristics shown
by default, legends outside the plot, log axes that label small values; the estimation model's curves, measured in
every run and averaged over trials."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t as student

from hcsched import simulate, trial_runs
from hcsched.curve_charts import Curve, band_chart, better_title, default_shown, log_ticks, mean_band
from hcsched.metrics import Metric
from hcsched.models.estimation import CURVE_FAMILIES, CURVE_SAMPLES, MODEL, curve_columns
from hcsched.models.estimation.charts import error_over_time, mean_curves, over_time
from hcsched.models.estimation.heuristics import short_name

METRICS = {m.name: m for m in MODEL.metrics}


def test_mean_band_is_the_student_t_interval_of_the_mean_at_each_time():
    rng = np.random.default_rng(1)
    values = 10.0 + rng.normal(0, 1, (8, 5))
    mean, lower, upper = mean_band(values)
    half = student.ppf(0.975, 7) * values.std(axis=0, ddof=1) / np.sqrt(8)
    np.testing.assert_allclose(mean, values.mean(axis=0))
    np.testing.assert_allclose(lower, mean - half)
    np.testing.assert_allclose(upper, mean + half)


def test_mean_band_skips_missing_values_and_stays_within_the_values():
    values = np.array([[1.0, 2.0, np.nan, np.nan], [3.0, 2.0, 4.0, np.nan], [50.0, 2.0, np.nan, np.nan]])
    mean, lower, upper = mean_band(values)
    np.testing.assert_allclose(mean[:3], [18.0, 2.0, 4.0])
    assert np.isnan(mean[3])  # no trial has a value there
    assert lower[0] == 1.0 and upper[0] == 50.0  # Student-t reaches below 0 and above 50 with 3 trials: clipped
    assert lower[1] == upper[1] == 2.0  # no spread
    assert np.isnan(lower[2]) and np.isnan(upper[2])  # one trial: no interval


def results(means: dict[str, float], trials: int = 3) -> pd.DataFrame:
    return pd.DataFrame([{"trial": t, "heuristic": h, "makespan": m + t}
                         for t in range(trials) for h, m in means.items()])


def test_default_shown_is_the_best_few_and_the_benchmark_in_the_results_order():
    table = results({"a": 50, "b": 10, "c": 30, "d": 20, "e": 40, "f": 60})
    lower = Metric("makespan", "Makespan", "s")
    assert default_shown(table, lower, benchmark="b") == ["b", "c", "d", "e"]  # the 4 best, the benchmark among them
    assert default_shown(table, lower, benchmark="f") == ["b", "c", "d", "f"]  # the 3 best and the benchmark
    higher = Metric("makespan", "Makespan", "s", "higher")
    assert default_shown(table, higher, benchmark="f") == ["a", "c", "e", "f"]
    assert default_shown(table, lower, benchmark=None, count=2) == ["b", "d"]


def test_log_ticks_write_small_values_out():
    ticks = log_ticks([2e-6, 0.3, 4.0], percent=True)
    assert ticks["tickvals"] == pytest.approx([1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0])
    assert ticks["ticktext"] == ["0.0001%", "0.001%", "0.01%", "0.1%", "1%", "10%", "100%", "1,000%"]
    assert log_ticks([3e-6, 0.02])["ticktext"] == ["0.000001", "0.00001", "0.0001", "0.001", "0.01", "0.1"]
    assert log_ticks([0.0, np.nan]) == {}


def test_band_chart_draws_means_with_bands_and_its_legend_outside_the_plot():
    t = np.array([1.0, 2.0, 3.0])
    curves = [Curve("a", t, np.array([1.0, 2.0, 3.0]), np.array([0.5, 1.5, 2.5]), np.array([1.5, 2.5, 3.5])),
              Curve("b", t, np.array([2.0, 2.0, 2.0]), np.full(3, np.nan), np.full(3, np.nan))]
    fig = band_chart(curves, "title (lower is better)", "y", {"a": "#0072B2", "b": "#E69F00"})
    assert (fig.layout.legend.x >= 1 and fig.layout.legend.xanchor == "left"
            and fig.layout.legend.title.text == "heuristic")
    band, line_a, line_b = fig.data  # b has no band (one trial): only its line
    assert band.fill == "toself" and band.mode == "lines" and band.showlegend is False
    np.testing.assert_allclose(band.y, [1.5, 2.5, 3.5, 2.5, 1.5, 0.5])
    assert (line_a.name, line_b.name) == ("a", "b") and line_a.line.color == "#0072B2"
    np.testing.assert_allclose(line_a.y, [1.0, 2.0, 3.0])


@pytest.fixture(scope="module")
def tiny():
    sc = MODEL.tiny()
    return sc, simulate(sc, jobs=1)


def test_every_run_keeps_its_curves_as_results_columns(tiny):
    sc, table = tiny
    runs = trial_runs(sc, 1)
    for label, run in runs.items():
        row = table[(table["trial"] == 1) & (table["heuristic"] == label)].iloc[0]
        curves = run.curves(CURVE_SAMPLES)
        for family, curve in CURVE_FAMILIES.items():
            np.testing.assert_allclose(row[[f"{family}{k}" for k in range(CURVE_SAMPLES)]].to_numpy(float),
                                       curves[curve])
        assert curve_columns(run) == pytest.approx({c: row[c] for c in curve_columns(run)}, nan_ok=True)
        assert row["makespan"] == run.makespan


def _hand_results(machines: int = 4) -> pd.DataFrame:
    """Two trials of one heuristic: constant curves, the second trial half as long as the first."""
    rows = []
    for trial, (makespan, idle, eff, err) in enumerate([(100.0, 1.0, 80.0, 0.2), (50.0, 3.0, 60.0, 0.4)]):
        row = {"trial": trial, "heuristic": "h", "makespan": makespan}
        for family, value in zip(CURVE_FAMILIES, (idle, eff, err, err / 2), strict=True):
            row.update({f"{family}{k}": value for k in range(CURVE_SAMPLES)})
        rows.append(row)
    return pd.DataFrame(rows)


def test_mean_curves_resample_every_trial_on_a_common_grid():
    frame = mean_curves(_hand_results(), machines=4, points=10)
    np.testing.assert_allclose(frame["time"], np.arange(1, 11) * 10.0)  # up to the latest makespan
    early, late = frame.iloc[3], frame.iloc[7]  # t = 40 (both running), t = 80 (the second trial has ended)
    assert early["idle"] == pytest.approx(2.0) and early["efficiency"] == pytest.approx(70.0)
    assert early["actual_error"] == pytest.approx(0.3) and early["predicted_error"] == pytest.approx(0.15)
    assert late["idle"] == pytest.approx((1.0 + 4.0) / 2)  # an ended trial has every processor idle
    assert late["efficiency"] == pytest.approx((80.0 + 60.0 * 50.0 / 80.0) / 2)  # its busy time over the time so far
    assert late["actual_error"] == pytest.approx(0.2) and np.isnan(late["actual_error_lower"])  # only one trial returns
    half = student.ppf(0.975, 1) * np.std([1.0, 3.0], ddof=1) / np.sqrt(2)
    assert early["idle_lower"] == pytest.approx(max(1.0, 2.0 - half)) and early["idle_upper"] == pytest.approx(3.0)


def test_estimation_charts_say_which_way_is_better_with_log_percent_ticks(tiny):
    sc, table = tiny
    frame = mean_curves(table, sc.spec.machines, ["fa", "rr"])
    assert list(dict.fromkeys(frame["heuristic"])) == ["fa", "rr"]
    error = error_over_time(frame, METRICS["error_at"])
    assert "lower is better" in error.layout.title.text and error.layout.yaxis.type == "log"
    assert all(t.endswith("%") and t != "0%" for t in error.layout.yaxis.ticktext)
    names = [d.name for d in error.data if d.showlegend is not False]
    assert names == ["fa: actual", "fa: predicted", "rr: actual", "rr: predicted"]
    assert {d.line.dash for d in error.data if d.showlegend is not False} == {"solid", "dash"}
    eff = over_time(frame, "efficiency", METRICS["efficiency_at"], "efficiency so far (%)")
    assert "higher is better" in eff.layout.title.text and eff.layout.legend.x >= 1
    np.testing.assert_allclose([d.y for d in eff.data if d.showlegend is not False][0],
                               frame.loc[frame["heuristic"] == "fa", "efficiency"])


def test_a_log_axis_starts_a_decade_below_the_smallest_mean_not_where_a_band_reaches_towards_zero():
    """A band's lower end near zero stretched the axis to 0.0000000000001% (seen in a browser)."""
    t = np.array([0.0, 1.0, 2.0])
    curve = Curve("fa", t, np.array([0.5, 0.2, 0.1]), np.array([1e-13, 0.05, 0.02]), np.array([0.9, 0.4, 0.2]))
    fig = band_chart([curve], "error", "error", log=True, percent=True)
    assert min(fig.layout.yaxis.tickvals) == 0.01 and min(fig.data[0].y) == 0.01


def test_idle_and_efficiency_stop_at_each_heuristics_median_run_end():
    """Runs that had ended counted every processor idle, so the mean curves climbed to 90 of 90 idle and efficiency
    fell towards 10% by the ended runs alone: each line now stops at its heuristic's median makespan, said in the
    title; the error curves (no task returns after a run's end) are not cut."""
    from hcsched.models.estimation.charts import ERROR_AXIS, UNTIL_MEDIAN, median_ends

    sc = MODEL.tiny().replace(trials=3)
    table = simulate(sc, jobs=1)
    labels = list(dict.fromkeys(table["heuristic"]))[:2]
    frame = mean_curves(table, sc.spec.machines, labels)
    until = median_ends(table, labels)
    for label in labels:
        assert until[label] == pytest.approx(table.loc[table["heuristic"] == label, "makespan"].median())
    for curve, metric in (("idle", "idle_at"), ("efficiency", "efficiency_at")):
        fig = over_time(frame, curve, METRICS[metric], "y", until=until)
        assert UNTIL_MEDIAN in fig.layout.title.text
        named = {short_name(label): label for label in labels}  # the legend says "fz (β = 0.1)", never "beta="
        for d in (d for d in fig.data if d.showlegend is not False):
            x = np.asarray(d.x, float)
            assert "beta=" not in d.name
            assert x.max() <= until[named[d.name]] * (1 + 1e-9) and x.max() < frame["time"].max()
            g = frame[(frame["heuristic"] == named[d.name]) & (frame["time"] <= x.max())]
            np.testing.assert_allclose(np.asarray(d.y, float), g[curve])
        whole = over_time(frame, curve, METRICS[metric], "y")  # without the cut: the whole grid, as before
        assert UNTIL_MEDIAN not in whole.layout.title.text and len(whole.data[-1].x) == CURVE_SAMPLES
    error = error_over_time(frame, METRICS["error_at"])
    assert error.layout.yaxis.title.text == ERROR_AXIS + ", log scale"
    assert error.layout.yaxis.title.text.startswith("how wrong the estimates were (%)")


TWO_GROUPS = re.compile(r"\)\s*\(")  # "(mean, 95% band) (lower is better)": two parenthesised groups in a row


def test_a_title_says_which_way_is_better_without_two_parenthesised_groups_in_a_row(tiny):
    """The estimation charts' titles read "... (mean, 95% band) (lower is better)" and "... predicted (dashed) (lower
    is better)"."""
    lower = Metric("x", "X")
    assert better_title("Idle processors over time", lower) == "Idle processors over time (lower is better)"
    banded = better_title("Idle processors (mean, 95% band)", lower)
    assert banded == "Idle processors (mean, 95% band); lower is better"
    sc, table = tiny
    frame = mean_curves(table, sc.spec.machines, ["fa", "rr"])
    from hcsched.models.estimation.charts import median_ends

    until = median_ends(table, ["fa", "rr"])
    titles = [error_over_time(frame, METRICS["error_at"]).layout.title.text]
    for curve, metric in (("idle", "idle_at"), ("efficiency", "efficiency_at")):
        titles += [over_time(frame, curve, METRICS[metric], "y", until=cut).layout.title.text for cut in (None, until)]
    assert all(re.search(r"(lower|higher) is better$", t) for t in titles), titles
    assert [t for t in titles if TWO_GROUPS.search(t)] == []
