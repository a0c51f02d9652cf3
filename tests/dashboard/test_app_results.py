"""Results as a new user meets them (issue 8): whose results they are, intervals, units, downloads, zero-length tasks."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import app, open_results, panel_titles, plotly_charts, run_result  # noqa: E402

from hcsched import Scenario, get_model, preset, simulate, summarize  # noqa: E402


def test_results_of_another_scenario_are_marked_and_folded_away():
    old = preset("quickstart").replace(trials=2)
    at = app(scenario=preset("alazzoni-B"), results=run_result(old),
             notice=("warning", "The run was cancelled.", old))
    assert any("The last results are of the scenario **quickstart**" in w.value for w in at.warning)
    assert not any("cancelled" in w.value for w in at.warning)  # an old notice of another scenario is not shown
    assert not at.get("plotly_chart")  # hidden until asked for
    at.toggle(key="landing_show_other").set_value(True).run()
    assert not at.exception and len(at.get("plotly_chart")) == 3
    assert any(c.value.startswith("**quickstart**: 2 trials") for c in at.caption)
    at = app(scenario=old, results=run_result(old))
    assert not any("last results are of" in w.value for w in at.warning)


def test_intervals_stay_in_the_metrics_range_and_the_method_is_stated():
    sc = preset("quickstart").replace(trials=3)
    at = open_results(sc)
    caption = " ".join(c.value for c in at.caption)
    assert "percentile bootstrap" in caption and "Student-t" in caption
    bars = json.loads(at.get("plotly_chart")[0].proto.spec)
    model = get_model("etc")
    summary = summarize(simulate(sc, jobs=1), [m.name for m in model.bar_metrics()], methods=model.interval_methods())
    assert (summary["max_stretch_lower"] >= 0).all()  # Student-t alone gave [-2041, 4517] for sufferage here
    assert panel_titles(bars)[3] == "Max stretch"


def test_metric_help_and_units():
    sc = preset("alazzoni-B").replace(trials=2, classes=preset("alazzoni-B").classes.__class__(
        (5.0, 8.0), ((8.0, 3.0), (4.0, 10.0)), horizon=300.0))
    at = open_results(sc)
    help_table = at.dataframe[1].value
    assert "State-information discount (%)" in help_table["metric"].tolist()
    assert help_table["meaning"].str.len().min() > 10  # every shown metric is explained
    assert "Utilisation" in at.dataframe[0].value.columns and "%" in at.dataframe[0].value["Utilisation"].iloc[0]


def test_zero_length_tasks_give_a_defined_stretch_and_no_warnings():
    sc = Scenario.from_dict({"etc": {"method": "matrix", "matrix": [[0, 5], [3, 0], [0, 0], [2, 2]]},
                             "arrivals": {"process": "static"}, "actual": {"model": "exact"},
                             "heuristics": ["mct", "met"], "trials": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        df = simulate(sc, jobs=1)
    assert np.isfinite(df["max_stretch"]).all()
    at = open_results(sc)
    assert len(at.get("plotly_chart")) == 3


def test_whole_trial_and_window_gantt_tables():
    base = preset("alazzoni-B")
    sc = base.replace(trials=2, classes=base.classes.__class__((5.0, 8.0), ((8.0, 3.0), (4.0, 10.0)), horizon=500.0))
    at = open_results(sc)
    buttons = {b.label: b for b in at.get("download_button")}
    whole = next(label for label in buttons if label.startswith("Gantt table, whole"))
    window = next(label for label in buttons if label.startswith("Gantt table, time window"))
    assert whole and window
    length = at.number_input(key="results_window_length").value
    assert 0 < length < 500 and at.slider(key="results_window").value == 0.0  # a readable window, handle free to move
    _, table = simulate(sc, jobs=1, schedules=True)
    assert isinstance(table, pd.DataFrame) and (table["trial"] == 0).sum() > 300  # the whole trial has every task


def test_results_say_who_wins_and_name_files_after_the_scenario():
    """Issue 18: one line per headline metric above the charts; downloads named after their scenario."""
    sc = preset("quickstart").replace(trials=3)
    at = open_results(sc)
    said = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert said and "Lowest makespan" in said[0] and any(h.label in said[0] for h in sc.heuristics)
    assert "neither is better" in said[0]  # utilisation, which is no goal
    names = {b.proto.file_name if hasattr(b.proto, "file_name") else "" for b in at.get("download_button")}
    labels = [b.label for b in at.get("download_button")]
    assert "Per-trial results (CSV)" in labels
    from pages.widgets import file_name

    assert file_name(sc, "results", "csv") == "quickstart-results.csv"
    assert file_name(sc.replace(name="kim tight (edited)"), "summary", "csv") == "kim-tight-edited-summary.csv"
    assert names  # each button has a file name


def test_gantt_shows_the_best_few_and_the_benchmark_and_a_range_of_machines():
    base = preset("page-system-a")
    sc = base.replace(trials=2)
    at = open_results(sc)
    shown = at.multiselect(key="results_gantt_heuristics").value
    assert len(shown) == 4 and sc.benchmark_label in shown
    machines = at.slider(key="results_gantt_machines").value
    assert machines[0] == 0 and (machines[1] + 1) * len(shown) <= 96  # a chart a few screens tall
    gantt = [c for c in plotly_charts(at) if c["layout"].get("updatemenus")][0]
    assert [a["text"] for a in gantt["layout"]["annotations"]] == shown
    assert gantt["layout"]["height"] < 2400


def test_gantt_choices_changed_twice_and_after_another_trial():
    sc = preset("page-system-a").replace(trials=2)
    at = open_results(sc)
    for _ in range(2):
        shown = at.multiselect(key="results_gantt_heuristics")
        removed = shown.value[0]
        shown.unselect(removed).run()
        assert not at.exception and len(at.multiselect(key="results_gantt_heuristics").value) == 3
        at.slider(key="results_gantt_machines").set_value((10, 20)).run()
        gantt = [c for c in plotly_charts(at) if c["layout"].get("updatemenus")][0]
        assert gantt["layout"]["yaxis"]["categoryarray"] == [f"m{j}" for j in range(10, 21)][::-1]
        at.multiselect(key="results_gantt_heuristics").select(removed).run()
    at.number_input(key="results_trial").set_value(1).run()
    assert not at.exception and len(at.multiselect(key="results_gantt_heuristics").value) == 4
