"""The estimation model's dashboard module: the editor's estimator and error settings, trace uploads with inline
one-line errors that keep the other edits, and the Results page's own charts, Gantt hover and curves CSV."""

import io
import json
import re

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT, open_results, plotly_array, plotly_charts, run_result
from helpers import app as open_page

st = pytest.importorskip("streamlit")
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate, trial_runs  # noqa: E402
from hcsched.models.estimation import MODEL  # noqa: E402
from hcsched.models.estimation.charts import mean_curves  # noqa: E402

EXAMPLES = ROOT / "assets" / "examples"
TASKS = (EXAMPLES / "estimation-tasks.csv").read_bytes()
PROCESSORS = (EXAMPLES / "estimation-processors.csv").read_bytes()



def scenario_page(sc=None):
    return open_page("pages/scenario.py", scenario=sc or MODEL.tiny())


def spec(at):
    return at.session_state["scenario"].spec


def errors(at):
    return [e.value for e in at.error]


def test_editor_changes_the_estimator_and_error_settings():
    at = scenario_page()
    at.selectbox(key="sc_w_est_method").set_value("smoothed")
    at.selectbox(key="sc_w_est_error").set_value("mean")
    at.selectbox(key="sc_w_est_weights").set_value("literal")
    at.number_input(key="sc_w_est_n").set_value(30)
    at.number_input(key="sc_w_est_L").set_value(0.2)
    at.number_input(key="sc_w_est_nu").set_value(0.25)
    at.selectbox(key="sc_w_est_mapping").set_value("release").run()
    assert not at.exception and not errors(at)
    e = spec(at).estimator
    assert (e.method, e.error, e.weights, e.n, e.L, e.nu) == ("smoothed", "mean", "literal", 30, 0.2, 0.25)
    assert spec(at).mapping == "release"
    assert at.session_state["scenario"].name == "estimation-tiny"  # not a preset: the name stays


def test_trace_upload_with_inline_errors_that_keep_the_other_edits():
    at = scenario_page()
    at.number_input(key="sc_w_est_n").set_value(25).run()
    at.radio(key="sc_w_est_source").set_value("trace").run()
    assert any("upload a processors CSV" in e for e in errors(at))
    assert spec(at).trace is None and spec(at).estimator.n == 25  # the last valid scenario stays
    at.file_uploader(key="sc_w_est_up_processors").set_value(("cluster.csv", PROCESSORS, "text/csv"))
    at.file_uploader(key="sc_w_est_up_tasks").set_value(("history.csv", TASKS, "text/csv")).run()
    assert not at.exception and not errors(at), errors(at)
    s = spec(at)
    assert s.tasks == 40 and s.machines == 4 and s.processors.names == ("fast1", "fast2", "mid1", "slow1")
    assert s.estimator.n == 25 and s.trace_files is None  # uploaded: saved inline in the scenario file
    assert json.loads(at.session_state["scenario"].to_json())["trace"]["tasks"][0]["work"] == 48000.0

    # a malformed tasks CSV: one line under its uploader naming the row; the previous trace and other edits stay
    bad = TASKS.decode().replace("dsearch,d0-1,0,0,4,3,30.00", "dsearch,d0-1,0,0,4,3,-30.00").encode()
    at.file_uploader(key="sc_w_est_up_tasks").set_value(("bad.csv", bad, "text/csv")).run()
    assert not at.exception
    [message] = errors(at)
    assert "bad.csv" in message and "line 3: time '-30.00' is negative" in message and "\n" not in message
    assert spec(at) == s
    # a processor the processors CSV does not name: the pair is refused, naming the row
    unknown = TASKS.decode().replace("30.00,fast2", "30.00,fast9").encode()
    at.file_uploader(key="sc_w_est_up_tasks").set_value(("other.csv", unknown, "text/csv")).run()
    [message] = errors(at)
    assert "line 3: unknown processor 'fast9'" in message and "\n" not in message and spec(at) == s
    # a processors CSV missing a column
    at.file_uploader(key="sc_w_est_up_processors").set_value(("p.csv", b"name,mflops\na,1\n", "text/csv")).run()
    assert any("p.csv" in e and "missing column 'speed'" in e for e in errors(at)) and spec(at) == s
    # back to generated problems: the trace is dropped, the edits stay
    at.radio(key="sc_w_est_source").set_value("problems").run()
    assert not errors(at) and spec(at).trace is None and spec(at).estimator.n == 25
    assert spec(at).processors.speeds is None and spec(at).machines == 4


def switch_model(at, model):
    at.radio(key="sc_w_model").set_value(model).run()
    confirm = [b for b in at.button if b.key == "sc_model_confirm"]  # asked when edits would be lost
    if confirm:
        confirm[0].click().run()
    assert not at.exception, at.exception
    return bool(confirm)


# (kind, key, two values to press in turn, what the spec then holds)
WIDGETS = [
    ("number_input", "est_count", (12, 20), lambda s: s.processors.count),
    ("number_input", "est_speed", (800.0, 1200.0), lambda s: s.processors.speed),
    ("number_input", "est_ratio", (0.5, 0.25), lambda s: s.processors.ratio),
    ("number_input", "est_busy", (0.2, 0.0), lambda s: s.processors.busy),
    ("number_input", "est_level", (0.3, 0.8), lambda s: s.processors.busy_level),
    ("number_input", "est_period", (100.0, 50.0), lambda s: s.processors.busy_period),
    ("number_input", "est_bw", (10.0, 1000.0), lambda s: s.network.bandwidth),
    ("number_input", "est_lat", (0.5, 0.0), lambda s: s.network.latency),
    ("selectbox", "est_method", ("smoothed", "average"), lambda s: s.estimator.method),
    ("number_input", "est_n", (20, 50), lambda s: s.estimator.n),
    ("number_input", "est_L", (0.25, 0.0), lambda s: s.estimator.L),
    ("number_input", "est_nu", (0.1, 0.9), lambda s: s.estimator.nu),
    ("selectbox", "est_weights", ("literal", "normalised"), lambda s: s.estimator.weights),
    ("selectbox", "est_error", ("smoothed", "mean"), lambda s: s.estimator.error),
    ("selectbox", "est_mapping", ("release", "return"), lambda s: s.mapping),
]


def press_every_widget_twice(at):
    for round_ in (0, 1):
        for kind, key, values, read in WIDGETS:
            getattr(at, kind)(key=f"sc_w_{key}").set_value(values[round_]).run()
            assert not at.exception, (key, at.exception)
            assert not errors(at), (key, errors(at))
            assert read(spec(at)) == values[round_], key
        # the problems table: a cell edited, then a row added (the data editor's edits are injected)
        if round_ == 0:
            at.session_state["sc_w_est_problems"] = {"edited_rows": {0: {"noise": 0.3}}, "added_rows": [],
                                                     "deleted_rows": []}
        else:
            at.session_state["sc_w_est_problems"] = {
                "edited_rows": {0: {"noise": 0.3}}, "deleted_rows": [],
                "added_rows": [{"name": "extra", "release": 5.0, "stages": "3, 2", "work": "100, 200", "params": "4",
                                "exponents": "1", "data": 1.0, "noise": 0.0, "outliers": 0.0, "outlier_factor": 1.0}]}
        at.run()
        assert not at.exception and not errors(at), errors(at)
        problems = spec(at).problems
        assert problems[0].noise == 0.3 and (problems[-1].name == "extra") == (round_ == 1)
        # the workload source, and back: the generated problems stay
        at.radio(key="sc_w_est_source").set_value("trace").run()
        assert not at.exception and any("upload a processors CSV" in e for e in errors(at))
        assert at.session_state["scenario_problem"]  # Run refuses while the edit is invalid
        at.radio(key="sc_w_est_source").set_value("problems").run()
        assert not at.exception and not errors(at) and spec(at).problems == problems
        assert "scenario_problem" not in at.session_state


def test_every_editor_widget_twice_after_switching_model_and_preset():
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    switch_model(at, "estimation")
    assert at.session_state["scenario"] == preset("page-system-a")
    press_every_widget_twice(at)
    assert at.session_state["scenario"].name == "page-system-a (edited)"
    # another preset: every widget shows it, and every widget works again
    at.selectbox(key="sc_preset").set_value("page-system-b").run()
    assert not at.exception and at.session_state["scenario"] == preset("page-system-b")
    assert at.number_input(key="sc_w_est_count").value == 74 and at.number_input(key="sc_w_est_ratio").value == 0.15
    assert at.selectbox(key="sc_w_est_method").value == "knn" and at.radio(key="sc_w_est_source").value == "problems"
    press_every_widget_twice(at)
    # another model and back: the editor starts again from the default preset
    assert switch_model(at, "etc")  # the edited scenario: the page asked first
    assert at.session_state["scenario"].model == "etc"
    switch_model(at, "estimation")
    assert at.session_state["scenario"] == preset("page-system-a")
    assert at.number_input(key="sc_w_est_n").value == 100 and len(spec(at).problems) == 3
    press_every_widget_twice(at)


def test_bad_problem_cells_answered_inline_and_typed_edits_survive_leaving_the_page():
    at = scenario_page()
    at.number_input(key="sc_w_est_n").set_value(30).run()
    good = at.session_state["scenario"]
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "4, x"}, 0: {"noise": 0.25}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    [message] = errors(at)
    assert message == "problems row 2, column 'stages': '4, x' is not a comma-separated list of integers"
    assert at.session_state["scenario"] == good and at.session_state["scenario_problem"] == message
    # the page is left: Streamlit drops its widgets' keys, plain keys stay; coming back, the table shows what was typed
    plain = {k: at.session_state[k] for k in at.session_state if not str(k).startswith(("sc_w_", "$$"))}
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    for k, v in plain.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception and errors(at) == [message]
    assert at.number_input(key="sc_w_est_n").value == 30
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "4, 5", "work": "100, 200"}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    assert not errors(at)
    problems = spec(at).problems
    # the earlier edit was not lost
    assert problems[1].stages == (4, 5) and problems[1].work == (100.0, 200.0) and problems[0].noise == 0.25
    # an empty number cell, and a negative one
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "4, 5", "work": "100, 200", "data": None}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    [message] = errors(at)
    assert message.startswith("problems row 2, column 'data': ") and message.endswith("is not a number")
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "4, 5", "work": "100, 200", "data": -1.0}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    [message] = errors(at)
    assert "data" in message and "-1" in message and spec(at).problems == problems


@pytest.fixture(scope="module")
def results_page():
    """The Results page with an estimation run in session_state, recording what its download buttons hold."""
    saved = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def spy(self, path_or_data, mimetype, kind, filename=None):
        saved[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)


    sc = MODEL.tiny()
    at = AppTest.from_file(str(ROOT / "pages/results.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.session_state["results"] = run_result(sc)
    MemoryMediaFileStorage.load_and_get_id = spy
    try:
        at.run()
    finally:
        MemoryMediaFileStorage.load_and_get_id = original
    assert not at.exception, at.exception
    return sc, at, saved


def by_title(at) -> dict:
    return {re.split(r" over time| to the median", f["layout"].get("title", {}).get("text", ""))[0]: f
            for f in plotly_charts(at)}


def lines(fig) -> list[dict]:
    return [d for d in fig["data"] if d.get("showlegend") is not False]


def test_results_page_bars_and_the_models_curves_averaged_over_trials(results_page):
    """The error over time shows the means over trials with their bands, of the heuristics chosen (the best few by
    makespan and the benchmark), legend outside; not one trial's 24 raw lines with the legend on the data."""
    sc, at, _ = results_page
    figs = plotly_charts(at)
    assert [a["text"].split("<br>")[0] for a in figs[0]["layout"]["annotations"]] == ["Makespan (s)", "Efficiency",
                                                                                     "Estimation error"]
    table = at.session_state["results"].results
    shown = at.multiselect(key="results_shown")
    # the best two and the benchmark by default (the error chart drew 8 lines with overlapping bands)
    from hcsched.models.estimation.heuristics import short_name

    assert shown.options == [short_name(h.label) for h in sc.heuristics]  # the chips in the lead's words, no "beta="
    assert len(shown.value) == 3 and "fa" in shown.value and "fz (error weighted a tenth)" in shown.options
    means = table.groupby("heuristic")["makespan"].mean()
    assert set(shown.value) == set(means.drop("fa").nsmallest(2).index) | {"fa"} or \
        set(shown.value) == set(means.nsmallest(3).index)
    frame = mean_curves(table, sc.spec.machines, shown.value)
    charts = by_title(at)
    error = charts["Estimation error"]
    assert "lower is better" in error["layout"]["title"]["text"] and error["layout"]["legend"]["x"] >= 1
    assert [d["name"] for d in lines(error)] == [f"{h}: {k}" for h in shown.value for k in ("actual", "predicted")]
    assert error["layout"]["yaxis"]["type"] == "log" and "0%" not in error["layout"]["yaxis"]["ticktext"]
    assert error["layout"]["yaxis"]["title"]["text"] == \
        "how wrong the estimates were (%), log scale"  # plain words first
    ends = table.groupby("heuristic")["makespan"].median()
    machines = at.session_state["scenario"].spec.machines
    assert charts["Idle processors"]["layout"]["yaxis"]["title"]["text"] == f"idle processors (of {machines})"
    for title, column in (("Idle processors", "idle"), ("Efficiency so far", "efficiency")):
        fig = charts[title]
        assert [d["name"] for d in lines(fig)] == shown.value and fig["layout"]["legend"]["xanchor"] == "left"
        assert "to the median run's end" in fig["layout"]["title"]["text"]
        for d in lines(fig):  # each line stops at its heuristic's median makespan: ended runs do not take it over
            mine = frame[(frame["heuristic"] == d["name"]) & (frame["time"] <= ends[d["name"]] * (1 + 1e-12))]
            np.testing.assert_allclose(plotly_array(d["x"]), mine["time"])
            np.testing.assert_allclose(plotly_array(d["y"]), mine[column])
            assert plotly_array(d["x"]).max() < frame["time"].max()
    assert any("median makespan" in c.value for c in at.caption)


def test_results_page_exports_the_mean_curves_as_csv(results_page):
    sc, at, saved = results_page
    assert "Curves over time (CSV)" in [b.label for b in at.get("download_button")]
    got = pd.read_csv(io.StringIO(saved["curves.csv"].decode() if isinstance(saved["curves.csv"], bytes)
                                  else saved["curves.csv"]))
    expected = mean_curves(at.session_state["results"].results, sc.spec.machines,
                           at.multiselect(key="results_shown").value)
    assert list(got.columns) == ["heuristic", "time", *(f"{c}{s}" for c in ("idle", "efficiency", "actual_error",
                                                                           "predicted_error")
                                                        for s in ("", "_lower", "_upper"))]
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_results_page_of_page_system_a_with_two_trials():
    """The preset with 12 heuristics: the selector, and 3 heuristics drawn by default (the best two and the
    benchmark), each a mean and a band: 6 error lines, not 8."""
    at = open_results(preset("page-system-a").replace(trials=2), jobs=2)
    shown = at.multiselect(key="results_shown")
    assert len(shown.options) == 12 and len(shown.value) == 3 and "fa" in shown.value
    error = by_title(at)["Estimation error"]
    assert len(lines(error)) == 6 and sum(d.get("fill") == "toself" for d in error["data"]) >= 3
    shown.set_value(["rr", "fa"]).run()
    assert [d["name"] for d in lines(by_title(at)["Idle processors"])] == ["fa", "rr"]


def test_gantt_hover_shows_each_tasks_estimate_and_actual_time(results_page):
    sc, at, _ = results_page
    gantt = next(f for f in plotly_charts(at) if f["layout"].get("sliders"))  # the animated Gantt chart
    assert "expected" in gantt["data"][0]["hovertemplate"] and "actual" in gantt["data"][0]["hovertemplate"]
    run = trial_runs(sc, 0)["fa"]
    # task, arrival, start, finish, expected, actual
    custom = plotly_array(gantt["data"][0]["customdata"]).astype(float)
    task = custom[:, 0].astype(int)
    np.testing.assert_allclose(custom[:, 4], (run.estimate + run.comm_estimate)[task])  # NaN: dealt round robin
    np.testing.assert_allclose(custom[:, 5], (run.compute + run.comm)[task])
    assert np.isnan(custom[:, 4]).any() and np.isfinite(custom[:, 4]).any()


def test_a_user_edits_a_preset_uploads_a_trace_and_runs_it():
    """As a user would: the estimation model from Home, a bad problem cell (answered inline naming row and column, what
    was typed kept across pages, Run refused), fixed; a whole number typed as 90.0 is 90; then a trace: a malformed
    tasks CSV gets a one-line error naming the line and what is still missing, a valid pair runs to results."""
    import time

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/scenario.py").run()
    switch_model(at, "estimation")
    assert at.session_state["scenario"] == preset("page-system-a")
    good = at.session_state["scenario"]
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "90, x"}, 0: {"data": 7.5}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    message = "problems row 2, column 'stages': '90, x' is not a comma-separated list of integers"
    assert not at.exception and errors(at) == [message] and at.session_state["scenario"] == good
    at.switch_page("pages/run.py").run()
    assert at.button(key="run_start").disabled and any(message in e for e in errors(at))
    at.switch_page("pages/scenario.py").run()
    assert errors(at) == [message]
    shown = at.session_state["sc_est_problems_last"]  # what the table shows again: the typed values
    assert shown.loc[1, "stages"] == "90, x" and shown.loc[0, "data"] == 7.5
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "90.0, 60"}, 0: {"data": 7.5}},
                                             "added_rows": [], "deleted_rows": []}
    at.run()
    assert not errors(at)
    problems = spec(at).problems
    assert problems[1].stages == (90, 60) and type(problems[1].stages[0]) is int and problems[0].data == 7.5
    at.session_state["sc_w_est_problems"] = {"edited_rows": {1: {"stages": "90.5, 60"}}, "added_rows": [],
                                             "deleted_rows": []}
    at.run()
    assert errors(at) == ["problems row 2, column 'stages': '90.5, 60' is not a comma-separated list of integers"]

    at.radio(key="sc_w_est_source").set_value("trace").run()
    at.file_uploader(key="sc_w_est_up_processors").set_value(("cluster.csv", PROCESSORS, "text/csv"))
    bad = TASKS.decode().replace("release,", "when,", 1).encode()
    at.file_uploader(key="sc_w_est_up_tasks").set_value(("history.csv", bad, "text/csv")).run()
    assert not at.exception
    first, missing = errors(at)
    assert first.startswith("history.csv: tasks CSV line 1: missing column 'release'") and "\n" not in first
    assert missing.startswith("upload a tasks CSV") and "processors" not in missing.split(",")[0]
    at.file_uploader(key="sc_w_est_up_tasks").set_value(("history.csv", TASKS, "text/csv")).run()
    assert not at.exception and not errors(at)
    assert spec(at).tasks == 40 and spec(at).machines == 4

    at.switch_page("pages/run.py").run()
    assert not at.button(key="run_start").disabled
    at.number_input(key="run_trials").set_value(2)
    at.number_input(key="run_jobs").set_value(1)
    at.button(key="run_start").click().run()
    end = time.monotonic() + 60
    while "results" not in at.session_state and time.monotonic() < end:
        time.sleep(0.2)
        at.run()
    assert not at.exception and "results" in at.session_state, errors(at)
    sc = at.session_state["scenario"]
    assert sc.trials == 2 and sc.spec.tasks == 40
    pd.testing.assert_frame_equal(at.session_state["results"].results, simulate(sc, jobs=1))
    at.switch_page("pages/results.py").run()
    assert not at.exception and not errors(at) and len(at.get("plotly_chart")) >= 5


def words_read(at) -> str:
    """Every sentence a person reads on the page (its text, captions, metrics and their help), one per line."""
    said = [e.value for kind in ("markdown", "caption", "info", "warning", "error") for e in getattr(at, kind)]
    said += [f"{m.label}: {m.value} {m.help or ''}" for m in at.metric]
    return "\n".join(str(x) for x in said)


def test_home_of_page_system_a_says_its_heuristics_and_estimator_in_words():
    """The Home page of the default preset: the two groups of heuristics in a sentence (no list of codes), every
    heuristic named in words with its parameters said (no "beta=0.1"), the estimator in words first with the paper's
    symbols after (no "estimator knn, n = 100, L = 0.1")."""
    at = open_page("app.py", scenario=preset("page-system-a").replace(trials=2))
    text = words_read(at)
    assert "beta=" not in text and "estimator knn" not in text and "slowest / fastest" not in text, text
    assert not re.search(r"\b(FA|FE|FZ|LA|LE|LZ|RR|LL|EF)\b", text), text  # no bare code of the paper
    assert "the paper's heuristics, which map tasks by these estimates and weigh their errors, are compared with " \
           "five common schedulers as baselines: round robin" in text.lower()
    assert "fz (largest estimate error first, error weighted a tenth)" in text
    assert "450 tasks; run times estimated from the most alike of each processor's last 100 runs of a problem, " \
           "the longest and shortest 10% of those left out" in text and "L = 0.1" not in text and "k-NN" not in text
    assert "The slowest runs at 0.90 of the fastest's speed." in text


def test_results_of_page_system_a_say_the_parameters_and_the_estimator_in_words():
    """Results of page-system-a (a few of its heuristics, two trials): the verdicts name fz with beta 0.1 in words,
    the facts line says the estimator in words, and the short names' meanings say what beta does."""
    sc = preset("page-system-a").replace(trials=2, heuristics=["fa", "fz", {"name": "fz", "beta": 0.1}, "ef"])
    at = open_results(sc, timeout=180)
    text = words_read(at)
    assert "largest estimate error first; beta=0.1" not in text and "error^beta" not in text
    assert "nearest of them" not in text
    assert "fz (largest estimate error first, error weighted a tenth)" in text, text
    assert "of a problem, the longest and shortest 10% of those left out. The schedulers weigh the past errors of " \
           "alike runs" in text
    assert "Efficiency: the share of the processors' time spent on tasks, computing or moving data; higher is " \
           "better." in text
    assert "β sets how much the error weighs (1 in full, 0.1 a tenth)" in text
    facts = next(c.value for c in at.caption if "How to read the intervals" in c.value)  # short sentences, not 45 words
    assert ". Run times estimated from the most alike of each processor's" in facts
    assert "k-NN" not in facts and "(k-NN) of section 2.1" in text  # the symbol once, in the names' table (folded)
    gantt = at.multiselect(key="results_gantt_heuristics")
    assert "fz (beta=0.1): largest estimate error first, error at a tenth of its usual weight, β = 0.1;" in gantt.help
