"""The dashboard, page by page, with Streamlit's AppTest: results are the library's own numbers."""

import dataclasses
import re
import time

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import app, bar_values, wait_for_results  # noqa: E402
from helpers import plotly_array as _array
from helpers import plotly_charts as charts

from hcsched import preset, simulate  # noqa: E402
from hcsched.scenario import parse_scenario  # noqa: E402

PAGES = ["pages/scenario.py", "pages/heuristics.py", "pages/run.py", "pages/results.py", "pages/explain.py"]




@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_standalone(page):
    at = app(page)
    assert at.session_state["scenario"] == preset("quickstart")


def test_landing_run_shows_the_library_numbers():
    at = app()
    assert at.button(key="landing_run").label == "Run"
    at.button(key="landing_run").click().run()
    run = wait_for_results(at)
    expected = simulate(preset("quickstart"), jobs=1)
    pd.testing.assert_frame_equal(run.results, expected)
    heatmap = charts(at)[0]  # the scenario's ETC preview: tasks ticked as numbers ("t0 ... t182" read as times)
    assert heatmap["data"][0]["type"] == "heatmap" and _array(heatmap["data"][0]["y"]).tolist() == list(range(200))
    assert heatmap["data"][0]["hovertemplate"].startswith("task %{y} on %{x}")
    assert heatmap["layout"]["title"]["text"].endswith("first trial")
    bars = charts(at)[1]["data"]
    labels = [h.label for h in preset("quickstart").heuristics]
    means = expected.groupby("heuristic", sort=False)["makespan"].mean().reindex(labels)
    shown_labels, values = bar_values(bars[0])
    assert shown_labels == labels
    np.testing.assert_allclose(values, means.to_numpy())
    shown = at.dataframe[0].value  # titles with units, mean [95% interval] to 4 significant digits
    means = [float(cell.split(" [")[0]) for cell in shown["Normalised makespan"]]
    np.testing.assert_allclose(means, expected.groupby("heuristic", sort=False)["normalized_makespan"].mean(),
                               rtol=5e-4)
    assert "Makespan (s)" in shown.columns
    gantt = charts(at)[3]
    assert [b["label"] for b in gantt["layout"]["updatemenus"][0]["buttons"]] == ["Play", "Pause"]
    assert 30 <= len(gantt["frames"]) <= 60 and len(gantt["data"]) == 4  # frames at round times (charts.frame_times)
    assert len(at.get("download_button")) == 4


def test_run_page_trials_and_seed():
    at = app("pages/run.py")
    at.number_input(key="run_trials").set_value(3)
    at.number_input(key="run_seed").set_value(7)
    at.number_input(key="run_jobs").set_value(1)
    at.button(key="run_start").click().run()
    run = wait_for_results(at)
    sc = preset("quickstart").replace(trials=3, seed=7)
    assert run.scenario == sc
    pd.testing.assert_frame_equal(run.results, simulate(sc, jobs=1))


def test_results_page_without_results_links_to_run():
    at = app("pages/results.py")
    assert "No results yet" in at.info[0].value


def test_results_persist_across_pages():
    at = app()
    at.button(key="landing_run").click().run()
    wait_for_results(at)
    at.switch_page("pages/results.py").run()
    assert not at.exception and len(at.get("plotly_chart")) == 3  # bars, distribution, Gantt


def test_scenario_widgets_change_the_scenario():
    at = app("pages/scenario.py")
    at.number_input(key="sc_w_machines").set_value(5).run()
    at.selectbox(key="sc_w_het").set_value("lolo").run()
    at.selectbox(key="sc_w_consistency").set_value("semiconsistent").run()
    sc = at.session_state["scenario"]
    assert (sc.machines, sc.etc.task_het, sc.etc.machine_het, sc.etc.consistency) == (5, 1000.0, 10.0, "semiconsistent")
    assert sc.name == "quickstart (edited)"


def test_load_preset():
    at = app("pages/scenario.py")
    at.selectbox(key="sc_preset").set_value("maheswaran-fig6").run()
    at.button(key="sc_load_preset").click().run()
    assert at.session_state["scenario"] == preset("maheswaran-fig6")
    assert at.number_input(key="sc_w_tasks").value == 2000


def test_scenario_json_round_trip_reproduces_results():
    sc = preset("quickstart").replace(name="quickstart (edited)",
                                      description="Edited from quickstart: machines 8 → 6.",
                                      machines=6, trials=2, seed=3)  # as the download of that edit gives it
    at = app()
    at.switch_page("pages/scenario.py").run()
    at.file_uploader(key="sc_upload_scenario").set_value(("s.json", sc.to_json().encode(), "application/json")).run()
    assert not at.exception
    assert at.session_state["scenario"] == sc
    assert parse_scenario(at.session_state["scenario"].to_json()) == sc  # what the download button offers
    at.switch_page("pages/run.py").run()
    at.number_input(key="run_jobs").set_value(1)
    at.button(key="run_start").click().run()
    pd.testing.assert_frame_equal(wait_for_results(at).results, simulate(sc, jobs=1))


def test_upload_etc_matrix_and_heatmap():
    at = app("pages/scenario.py")
    at.radio(key="sc_w_method").set_value("matrix").run()
    at.file_uploader(key="sc_w_upload").set_value(("e.csv", b"m0,m1,m2\n50,20,15\n20,60,15\n20,50,15\n",
                                                   "text/csv")).run()
    assert not at.exception and not at.error
    sc = at.session_state["scenario"]
    assert sc.etc.matrix == ((50, 20, 15), (20, 60, 15), (20, 50, 15)) and (sc.tasks, sc.machines) == (3, 3)
    heat = [c for c in charts(at) if c["data"][0]["type"] == "heatmap"]
    assert heat


@pytest.mark.parametrize("content, words", [(b"1,2\n3\n", "row 2 has 1 values"), (b"1,-5\n2,3\n", "-5 is not allowed"),
                                            (b"\xff\xfe\x00", "not a text file"),
                                            (b"1,2\nfoo,4\n", "row 2, column 1: 'foo' is not a number")])
def test_invalid_upload_answered_inline_inputs_kept(content, words):
    at = app("pages/scenario.py")
    at.radio(key="sc_w_method").set_value("matrix").run()
    at.number_input(key="sc_w_hcsp_machines").set_value(4).run()
    before = at.session_state["scenario"]
    at.file_uploader(key="sc_w_upload").set_value(("bad.csv", content, "text/csv")).run()
    assert not at.exception
    assert any(words in e.value for e in at.error), [e.value for e in at.error]
    assert at.radio(key="sc_w_method").value == "matrix" and at.number_input(key="sc_w_hcsp_machines").value == 4
    assert at.session_state["scenario"].etc.matrix == before.etc.matrix


def test_invalid_matrix_edit_answered_inline():
    at = app("pages/scenario.py")
    at.radio(key="sc_w_method").set_value("matrix").run()
    good = at.session_state["scenario"]
    at.session_state["sc_w_editor"] = {"edited_rows": {0: {"m1": -3.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    assert any("non-negative" in e.value for e in at.error)
    assert at.session_state["scenario"] == good


def test_heuristics_page_adds_the_same_heuristic_twice():
    at = app("pages/heuristics.py")
    for k in (10, 40):
        at.selectbox(key="hx_name").set_value("kpb").run()
        at.number_input(key="hx_kpb_k").set_value(k)
        at.button(key="hx_add").click().run()
    labels = [h.label for h in at.session_state["scenario"].heuristics]
    assert labels[-2:] == ["kpb (k=10)", "kpb (k=40)"]
    at.selectbox(key="hx_name").set_value("kpb").run()
    at.number_input(key="hx_kpb_k").set_value(10)
    at.button(key="hx_add").click().run()
    assert any("used twice" in e.value for e in at.error)
    at.button(key="hx_remove_0").click().run()
    assert [h.label for h in at.session_state["scenario"].heuristics][0] == "kpb (k=20)"


def test_heuristics_page_shows_registry_description():
    at = app("pages/heuristics.py")
    at.selectbox(key="hx_name").set_value("sufferage").run()
    assert "suffer most" in at.info[0].value and "3.3" in at.info[0].value
    assert at.selectbox(key="hx_sufferage_strategy").options == ["interval", "count"]


# --- the task-class model (Al-Azzoni and Down) -------------------------------------------------------
def test_switch_to_the_class_model_shows_the_lp_verdict():
    at = app("pages/scenario.py")
    at.radio(key="sc_w_model").set_value("classes").run()
    assert not at.exception
    assert at.session_state["scenario"] == preset("alazzoni-B")
    assert at.success[0].value.startswith("Stable: the machines can keep up with 1.33 times these arrivals (the LP's "
                                          "λ*).") and "33.3%" in at.success[0].value  # words first, the symbol after
    delta = [c for c in charts(at) if c["data"][0]["type"] == "heatmap"][0]
    np.testing.assert_allclose(_array(delta["data"][0]["z"]).reshape(2, 2), [[0.8333333, 0], [0.1666667, 1]], atol=1e-6)


def test_class_tables_edit_and_overload_verdict():
    at = app("pages/scenario.py")
    at.radio(key="sc_w_model").set_value("classes").run()
    at.session_state["sc_w_alpha_editor"] = {"edited_rows": {1: {"arrival rate": 20.0}}, "added_rows": [],
                                             "deleted_rows": []}
    at.run()
    assert not at.exception
    assert at.session_state["scenario"].classes.arrival_rates == (5.0, 20.0)
    assert "Overloaded" in at.error[0].value
    at.session_state["sc_w_alpha_editor"] = {"edited_rows": {1: {"arrival rate": -1.0}}, "added_rows": [],
                                             "deleted_rows": []}
    at.run()
    assert any("class 1 has rate -1" in e.value for e in at.error)
    assert at.session_state["scenario"].classes.arrival_rates == (5.0, 20.0)  # the last valid scenario stays


def test_class_model_groups_and_c1_preset():
    at = app("pages/scenario.py")
    at.selectbox(key="sc_preset").set_value("alazzoni-C1").run()
    at.button(key="sc_load_preset").click().run()
    assert at.text_input(key="sc_w_groups").value == "10,9,6,5"
    assert "1.11 times these arrivals" in at.success[0].value
    at.text_input(key="sc_w_groups").set_value("10,9,6").run()
    assert any("'groups'" in e.value for e in at.error)


def test_class_model_run_and_results():
    at = app()
    sc = preset("alazzoni-A").classes
    at.session_state["scenario"] = preset("alazzoni-A").replace(trials=2,
                                                                classes=dataclasses.replace(sc, horizon=2000.0))
    at.run()
    at.button(key="landing_run").click().run()
    run = wait_for_results(at)
    pd.testing.assert_frame_equal(run.results, simulate(run.scenario, jobs=1))
    assert any("kpb (each class's fastest machine) cannot keep up in 2 of 2" in
               re.sub(r"\\(.)", r"\1", w.value) for w in at.warning)
    curves = [c for c in charts(at) if "Tasks in the system over time" in c["layout"].get("title", {}).get("text", "")]
    assert len(curves) == 1
    legend = [d["name"] for d in curves[0]["data"] if d.get("showlegend") is not False]
    assert legend == ["mct", "kpb (each class's fastest machine)", "lpas"]  # in words, as the bars
    labels = [b.label for b in at.get("download_button")]  # a large trial: the whole trial and the window shown
    assert len(labels) == 5 and "Gantt table, whole trial 0 (CSV)" in labels
    assert any(label.startswith("Gantt table, time window") for label in labels)


def test_heuristics_page_offers_the_models_heuristics():
    at = app("pages/heuristics.py")
    names = lambda: [o.split(" - ")[0] for o in at.selectbox(key="hx_name").options]  # noqa: E731
    assert "lpas" not in names() and "sufferage" in names()
    at.session_state["scenario"] = preset("alazzoni-B")
    at.run()
    assert "lpas" in names() and "sufferage" not in names()
    at.selectbox(key="hx_name").set_value("guided-lpas").run()
    at.number_input(key="hx_guided-lpas_c").set_value(2.0)
    at.button(key="hx_add").click().run()
    assert at.session_state["scenario"].heuristics[-1].label == "guided-lpas (c=2)"


def test_long_run_goes_to_the_background_and_can_be_cancelled():
    at = app("pages/run.py")
    at.session_state["scenario"] = preset("maheswaran-fig6")
    at.run()
    at.number_input(key="run_trials").set_value(400).run()
    assert any(re.match(r"Estimated time: about \d+ (s|min)\. It runs in the background", w.value)
               for w in at.warning)  # the estimate before a very large run, in the one wording of every estimate
    at.number_input(key="run_jobs").set_value(1)
    at.button(key="run_start").click().run()
    assert "job" in at.session_state and at.get("progress")  # progress bar with trials done
    assert "trials done" in at.get("progress")[0].proto.text
    at.button(key="cancel_run").click().run()
    end = time.monotonic() + 30
    while "job" in at.session_state and time.monotonic() < end:
        time.sleep(0.2)
        at.run()
    assert "job" not in at.session_state and "results" not in at.session_state
    assert any("cancelled" in w.value for w in at.warning)


def test_homes_etc_preview_has_a_title_its_narrow_column_holds():
    """Home's ETC preview sits in a narrow column: its title read "Expected time of each task on each machine (ET("
    in a browser, cut; there it is short, and the Scenario page keeps the long one."""
    at = app("app.py", scenario=preset("quickstart"))
    at.run()
    titles = [c["layout"]["title"]["text"] for c in charts(at) if "ETC" in str(c["layout"].get("title", ""))]
    assert titles == ["Expected times (ETC), first trial"]
