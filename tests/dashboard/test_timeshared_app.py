"""The time-shared model's dashboard module: editor, Gantt of overlapping tasks, sooner/same/later bars, Explain."""

import json

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, bar_values, open_results, panel_titles, run_result  # noqa: E402
from helpers import app as open_page
from helpers import plotly_array as array
from helpers import plotly_charts as charts
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.models.timeshared import MODEL  # noqa: E402
from hcsched.models.timeshared.charts import BUSIEST_SERVERS  # noqa: E402
from pages.models.timeshared import PHASES, SWEEP_METRICS, tolerance_words  # noqa: E402


def test_switch_to_the_model_and_edit_servers_and_tasks():
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    at.radio(key="sc_w_model").set_value("timeshared").run()
    confirm = [b for b in at.button if b.key == "sc_model_confirm"]  # the page may ask before replacing the scenario
    if confirm:
        confirm[0].click().run()
    assert not at.exception, at.exception
    assert at.session_state["scenario"] == preset("caniou-mu10")
    at.number_input(key="sc_w_ts_servers").set_value(7).run()
    at.number_input(key="sc_w_ts_mu").set_value(30.0).run()
    at.radio(key="sc_w_ts_duplex").set_value("half").run()
    spec = at.session_state["scenario"].spec
    assert (spec.servers, spec.mean_interarrival, spec.duplex) == (7, 30.0, "half")
    at.number_input(key="sc_w_ts_max").set_value(10.0).run()  # below compute_ratio x the longest transfer
    assert not at.error and at.session_state["scenario"].spec.max_compute_s == 10.0
    assert any("Data sizes limited to input + output <= 12.5 MB" in i.value for i in at.info)  # 10 x 100 / (8 x 10)
    at.number_input(key="sc_w_ts_max").set_value(1e-4).run()  # below even the smallest data's
    assert any("'bandwidth_mbit'" in e.value and "max_compute_s" in e.value for e in at.error)
    assert at.session_state["scenario"].spec.max_compute_s == 10.0  # the last valid scenario stays
    at.radio(key="sc_w_ts_tasks_mode").set_value("own").run()
    assert any("upload a tasks CSV" in e.value for e in at.error)


def test_an_invalid_edit_refuses_run_and_a_cleared_field_keeps_its_value():
    """Seen in a browser: an invalid edit was shown in red but Run ran the last valid scenario without a word; a
    cleared field silently became its minimum (1e-09 MB)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/scenario.py").run()
    at.radio(key="sc_w_model").set_value("timeshared").run()
    good = at.session_state["scenario"]
    at.number_input(key="sc_w_ts_size_hi").set_value(None).run()  # the user empties the field
    assert at.number_input(key="sc_w_ts_size_hi").value == good.spec.size_mb[1]
    assert any("Largest data (MB): a number is needed; kept 300" in c.value for c in at.caption)
    assert not at.error and at.session_state["scenario"] == good
    at.number_input(key="sc_w_ts_speed_lo").set_value(900.0).run()  # slowest above fastest
    message = next(e.value for e in at.error)
    assert "speed_mflops" in message and at.session_state["scenario"] == good
    at.switch_page("pages/run.py").run()
    assert at.button(key="run_start").disabled
    assert any("invalid edit" in e.value for e in at.error)
    at.switch_page("pages/scenario.py").run()
    at.number_input(key="sc_w_ts_speed_lo").set_value(100.0).run()
    assert not at.error and at.session_state["scenario"].spec.speed_mflops[0] == 100.0
    at.switch_page("pages/run.py").run()
    assert not at.button(key="run_start").disabled


def _script():
    import streamlit as st  # AppTest runs this function's body on its own, without the module's imports

    from hcsched import simulate
    from hcsched.experiment import trial_runs
    from hcsched.models.timeshared import MODEL
    from pages.models import timeshared as ui

    sc = MODEL.tiny()
    ui.results_charts(simulate(sc, jobs=1), sc, {}, "r")
    ui.trial_charts(trial_runs(sc, 0), {}, "t")
    st.session_state.setdefault("ts_explain_pos", 8)
    ui.explain(sc)


def test_results_gantt_and_explain():
    at = AppTest.from_function(_script, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    figs = charts(at)
    makespan, gain, others, stacked = figs[:4]  # the makespan, its gain, the other gains folded away, the finishes
    assert panel_titles(makespan) == ["Makespan (min)"]  # in minutes, as the lead says it
    assert panel_titles(gain) == ["Gain on makespan"]
    assert panel_titles(others) == ["Total flow time", "Max flow time", "Max stretch"]  # three fit 1000 px
    assert [d["name"] for d in stacked["data"]] == ["sooner", "same time", "later"]
    results = simulate(MODEL.tiny(), jobs=1)
    means = results.groupby("heuristic")["pct_sooner"].mean()
    assert bar_values(stacked["data"][0])[1][1] == pytest.approx(means["hmct"])
    assert bar_values(gain["data"][0])[1][1] == pytest.approx(
        results.groupby("heuristic")["gain_makespan"].mean()["hmct"])
    gantt = figs[4]
    assert [d["name"] for d in gantt["data"]] == ["input", "compute", "output"]
    servers, tasks = (d.value for d in at.dataframe)  # Explain's (the Results page's tables are HTML tables)
    names = next(t.value for t in at.table if "the paper's name" in t.value.columns)  # the short names in words
    assert names.set_index("heuristic").loc["mp", "the paper's name"] == "Min perturbation"
    assert names.set_index("heuristic").loc["mp", "what it does"] == "least delay to the running tasks"  # the lead's
    assert "T_new" in servers.columns and "msf" in servers.columns
    assert {"T_before", "T_after", "delta"} <= set(tasks.columns)


# --- the hooks as the pages call them ---------------------------------------------------------------------------------
def test_results_page_draws_the_stacked_sooner_same_later_bar():
    sc = MODEL.tiny()
    df = simulate(sc, jobs=1)
    at = open_results(sc, df)
    figs = charts(at)
    bars = figs[0]  # the makespan bars, drawn by the model's page
    assert panel_titles(bars) == ["Makespan (min)"]  # the scenario's question; the measures against the benchmark below
    stacked = [f for f in figs if [d.get("name") for d in f["data"]] == ["sooner", "same time", "later"]]
    assert len(stacked) == 1 and stacked[0]["layout"]["barmode"] == "stack"
    means = df.groupby("heuristic")[["pct_sooner", "pct_same", "pct_later"]].mean()
    labels = [h.label for h in sc.heuristics]
    for trace, col in zip(stacked[0]["data"], means.columns, strict=True):
        names, values = bar_values(trace)
        assert names == labels and list(values) == pytest.approx(means.loc[labels, col].tolist())
    assert any("counted as a tie (equal within a microsecond)" in c.value for c in at.caption)
    assert not any("1e-06" in c.value for c in at.caption)
    gantts = [f for f in figs if [d.get("name") for d in f["data"]] == ["input", "compute", "output"]]
    assert len(gantts) == 1  # the Gantt of overlapping tasks, one lane per task


def test_results_page_leads_with_the_makespan_gain_and_folds_the_rest():
    """The manager's review: six gain charts disagreed and overwhelmed; the phases chart was 25 servers of hair-thin
    lanes; "reference heuristic" and "benchmark" named one baseline; a loose "%" on the percentage axes."""
    sc = preset("caniou-mu10").replace(tasks=120, trials=2,
                                       heuristics=["netsolve-mct", "hmct", "mp", "msf"])
    at = open_results(sc, timeout=120)
    figs = charts(at)
    gains = [f for f in figs if [a["text"].split("<br>")[0] for a in f["layout"].get("annotations", [])][:1] in
             (["Gain on makespan"], ["Total flow time"])]
    assert [panel_titles(f) for f in gains] == [["Gain on makespan"],
                                                ["Total flow time", "Max flow time", "Max stretch"]]
    for fig in gains:  # percentages on the ticks, the axis says against what
        axes = [v for k, v in fig["layout"].items() if k.startswith("xaxis")]
        assert all(a["ticksuffix"] == "%" and a["title"]["text"] == "gain (%)" for a in axes)
    assert "Against the benchmark netsolve-mct: the paper's measures" in [h.value for h in at.subheader]
    # the shared bars answer the scenario's question alone (makespan), then the gain on it that the lead says, open
    # (bars from zero hid an 8.9% gain); the other measures against the benchmark are folded
    assert panel_titles(figs[0]) == ["Makespan (h)"]  # its axis in hours, as the lead says 1.9 hours
    assert panel_titles(figs[1]) == ["Gain on makespan"]
    assert not any("Gain on makespan" in e.label for e in at.expander)
    for label, panels in (("Gains on the other metrics",
                           [["Total flow time", "Max flow time", "Max stretch"]]),):
        folded = next(e for e in at.expander if e.label == label)
        assert not folded.proto.expanded
        assert [panel_titles(json.loads(c.proto.spec)) for c in folded.get("plotly_chart")] == panels
    sooner = next(e for e in at.expander if e.label.startswith("Tasks finishing sooner"))
    assert not sooner.proto.expanded and len(sooner.get("plotly_chart")) == 1
    finish = next(f for f in figs if [d.get("name") for d in f["data"]] == ["sooner", "same time", "later"])
    assert finish["layout"]["xaxis"]["ticksuffix"] == "%"
    # the phases chart: folded away, the few busiest of the 25 servers by default
    phases = next(e for e in at.expander if e.label == PHASES)
    assert not phases.proto.expanded
    [fig] = [json.loads(c.proto.spec) for c in phases.get("plotly_chart")]
    assert [d["name"] for d in fig["data"]] == ["input", "compute", "output"]
    assert len(fig["layout"]["yaxis"]["ticktext"]) == BUSIEST_SERVERS
    assert at.number_input(key="results_ts_gantt_servers").value == BUSIEST_SERVERS
    at.number_input(key="results_ts_gantt_servers").set_value(25).run()
    [fig] = [f for f in charts(at) if [d.get("name") for d in f["data"]] == ["input", "compute", "output"]]
    assert not at.exception and len(fig["layout"]["yaxis"]["ticktext"]) == 25
    # one word for the baseline: the benchmark
    words = " ".join([c.value for c in at.caption] + [m.value for m in at.markdown] + [h.value for h in at.subheader])
    assert "reference heuristic" not in words and "the benchmark netsolve-mct" in words


def test_the_animated_gantt_says_on_the_chart_which_servers_it_shows_and_where_the_others_are():
    """A manager's tryout of the default preset: the Results page's animated Gantt showed 2 of the 25 servers and
    nothing on the chart said so. Each task takes a lane of its own and a server runs about ten at once, so the lanes
    of all 25 servers in four panels cannot fit a 900-px window; the chart's title names the servers shown, out of how
    many, and the slider that shows the others."""
    from hcsched.charts import detail_height
    from hcsched.models.timeshared.charts import SERVERS as SERVER_ROWS

    sc = preset("caniou-mu10").replace(trials=1)
    at = open_results(sc, timeout=180)

    def animated():
        [fig] = [f for f in charts(at) if "sliders" in f["layout"]]  # Play and the time slider: the animated Gantt
        return fig

    at.radio(key="results_gantt_view").set_value("Busiest servers, in detail").run()  # the overview by default
    fig = animated()
    lo, hi = at.slider(key="results_gantt_machines").value
    assert hi - lo + 1 < 25 and fig["layout"]["height"] <= detail_height(SERVER_ROWS)  # fits 900 px with its controls
    shown = [f"s{j}" for j in range(lo, hi + 1)]
    assert fig["layout"]["yaxis"]["ticktext"] == shown
    title = fig["layout"]["title"]["text"]
    assert title == f"s{lo}-s{hi} of the 25 servers (all would not fit); others: “Servers shown” above"
    at.slider(key="results_gantt_machines").set_value((3, 3)).run()
    assert not at.exception and animated()["layout"]["title"]["text"].startswith("s3 of the 25 servers (")
    at.slider(key="results_gantt_machines").set_value((0, 24)).run()  # every server: nothing to say
    assert not at.exception and "title" not in animated()["layout"] and \
        len(animated()["layout"]["yaxis"]["ticktext"]) == 25


def test_tolerances_in_words():
    assert [tolerance_words(x) for x in (1e-6, 1e-3, 0.0, 0.5)] == [
        "within a microsecond", "within a millisecond", "exactly", "within 0.5 s"]


def test_explain_page_with_the_system_set_to_the_time_shared_model():
    at = AppTest.from_file(str(ROOT / "pages/explain.py"), default_timeout=60)
    at.run()  # the default scenario is not time-shared: Explain uses the model's default preset
    assert not at.exception, at.exception
    at.selectbox(key="ex_model").set_value("timeshared").run()
    assert not at.exception, at.exception
    servers = at.dataframe[0].value
    assert len(servers) == 25 and {"T_new", "sum_delta", "hmct", "msf", "netsolve-mct"} <= set(servers.columns)
    at.slider(key="ts_explain_pos").set_value(40).run()
    assert not at.exception, at.exception
    tasks = at.dataframe[1].value
    assert {"T_before", "T_after", "delta", "D"} <= set(tasks.columns) and len(tasks) > 0
    assert (tasks["delta"] == tasks["T_after"] - tasks["T_before"]).all()
    assert any("they pick" in c.value for c in at.caption)
    assert charts(at)[0]["data"][0]["type"] == "bar"


def test_explain_page_uses_the_loaded_time_shared_scenario():
    sc = MODEL.tiny()
    at = AppTest.from_file(str(ROOT / "pages/explain.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.session_state["ts_explain_pos"] = 500  # left from a larger scenario: clamped to this one's tasks
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="ex_model").value == "timeshared"
    assert len(at.dataframe[0].value) == sc.spec.servers and at.slider(key="ts_explain_pos").value == sc.spec.tasks


def test_sweep_page_over_mu_and_tasks_draws_the_gain_heatmaps():
    import time

    sc = MODEL.tiny().replace(heuristics=["netsolve-mct", "hmct", "msf"])
    at = AppTest.from_file(str(ROOT / "pages/sweep.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.run()
    at.selectbox(key="sw_param1").set_value("mean_interarrival").run()
    at.text_input(key="sw_values1").set_value("0,30").run()
    at.checkbox(key="sw_two").check().run()
    at.selectbox(key="sw_param2").set_value("tasks").run()
    at.text_input(key="sw_values2").set_value("10,20").run()
    at.number_input(key="sw_trials").set_value(2).run()
    at.button(key="sw_run").click().run()
    end = time.monotonic() + 60
    while "sw_result" not in at.session_state and "sw_notice" not in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    assert not at.exception, at.exception
    assert "sw_result" in at.session_state, at.session_state["sw_notice"] if "sw_notice" in at.session_state else ""
    summary = at.session_state["sw_result"].summary
    ours = [f for f in charts(at) if f["data"][0].get("colorscale") and f["data"][0].get("zmid") is not None]
    assert len(ours) == 1 and [d["name"] for d in ours[0]["data"]] == ["netsolve-mct", "hmct", "msf"]
    assert at.selectbox(key="sw_model_ts_metric").options == ["Gain on makespan", "Gain on total flow time",
                                                              "Gain on max flow time", "Gain on max stretch",
                                                              "Tasks finishing sooner"]
    for metric in [*SWEEP_METRICS, *SWEEP_METRICS]:  # each twice
        at.selectbox(key="sw_model_ts_metric").set_value(metric).run()
        assert not at.exception, at.exception
        heat = [f for f in charts(at) if f["data"][0].get("zmid") is not None][0]
        assert heat["data"][1]["zmid"] == SWEEP_METRICS[metric]
        z = array(heat["data"][1]["z"])
        cell = summary[(summary["heuristic"] == "hmct") & (summary["tasks"] == 10)
                       & (summary["mean_interarrival"] == 0)]
        assert z[0][0] == pytest.approx(cell[metric].iloc[0])
    assert any("half-width" in c.value for c in at.caption)


# --- every widget of the model's own, twice, and after switching preset and model -----------------------------------
# (kind, key without the page's prefix, two values, the spec field it sets); the values keep the spec valid together
EDITS = [
    ("number_input", "ts_servers", (7, 9), lambda s: s.servers),
    ("number_input", "ts_speed_lo", (100.0, 200.0), lambda s: s.speed_mflops[0]),
    ("number_input", "ts_speed_hi", (600.0, 450.0), lambda s: s.speed_mflops[1]),
    ("number_input", "ts_bw", (1000.0, 200.0), lambda s: s.bandwidth_mbit),
    ("radio", "ts_duplex", ("half", "full"), lambda s: s.duplex),
    ("number_input", "ts_tasks", (40, 60), lambda s: s.tasks),
    ("number_input", "ts_mu", (30.0, 5.0), lambda s: s.mean_interarrival),
    ("selectbox", "ts_law", ("poisson-int", "exponential"), lambda s: s.arrivals),
    ("number_input", "ts_size_lo", (0.5, 0.01), lambda s: s.size_mb[0]),
    ("number_input", "ts_size_hi", (100.0, 200.0), lambda s: s.size_mb[1]),
    ("number_input", "ts_ratio", (5.0, 2.0), lambda s: s.compute_ratio),
    ("number_input", "ts_max", (300.0, 900.0), lambda s: s.max_compute_s),
    ("selectbox", "ts_transfer", ("in", "in+out"), lambda s: s.transfer),
    ("selectbox", "ts_ref", ("hmct", "netsolve-mct"), lambda s: s.reference),
    ("number_input", "ts_tie", (0.01, 0.0), lambda s: s.tie_tolerance),
    ("number_input", "ts_same", (0.5, 1e-6), lambda s: s.same_tolerance),
]


def scenario_page(sc):
    return open_page("pages/scenario.py", scenario=sc)


def spec(at):
    return at.session_state["scenario"].spec


def widget(at, kind, key):
    return getattr(at, kind)(key="sc_w_" + key)


def errors(at):
    return [e.value for e in at.error]


def edit_every_widget_twice(at):
    for kind, key, values, field in EDITS:
        for value in values:
            widget(at, kind, key).set_value(value).run()
            assert not at.exception, (key, at.exception)
            assert not errors(at), (key, errors(at))
            assert field(spec(at)) == value, key
    for kind, key, values, field in EDITS:  # nothing typed was lost on the way
        assert field(spec(at)) == values[-1] and widget(at, kind, key).value == values[-1], key


def test_every_editor_widget_twice_then_after_switching_preset_and_model():
    at = scenario_page(preset("caniou-mu10"))
    edit_every_widget_twice(at)
    assert at.session_state["scenario"].name == "caniou-mu10 (edited)"

    at.selectbox(key="sc_preset").set_value("caniou-mu0").run()  # another preset: the widgets show it
    assert not at.exception and at.session_state["scenario"] == preset("caniou-mu0")
    assert widget(at, "number_input", "ts_mu").value == 0.0 and widget(at, "number_input", "ts_servers").value == 25
    edit_every_widget_twice(at)

    at.selectbox(key="sc_preset").set_value("caniou-table3").run()  # the user's-own-tables preset
    assert not at.exception and not errors(at) and at.session_state["scenario"] == preset("caniou-table3")
    assert widget(at, "radio", "ts_servers_mode").value == "own" and widget(at, "radio", "ts_tasks_mode").value == "own"
    assert len(at.dataframe) == 2  # both tables shown
    for value in ("half", "full"):
        widget(at, "radio", "ts_duplex").set_value(value).run()
        assert (not at.exception and spec(at).duplex == value
                and spec(at).task_table == preset("caniou-table3").spec.task_table)
    widget(at, "radio", "ts_tasks_mode").set_value("draw").run()  # the drawn tasks start from the scenario's values
    assert not errors(at) and spec(at).task_table is None and spec(at).tasks == 9 and spec(at).platform is not None
    widget(at, "radio", "ts_tasks_mode").set_value("own").run()  # and back: the preset's table is still there
    assert not errors(at) and spec(at).task_table == preset("caniou-table3").spec.task_table

    for model in ("etc", "timeshared"):  # another model and back: its default preset, the editor from scratch
        at.radio(key="sc_w_model").set_value(model).run()
        confirm = [b for b in at.button if b.key == "sc_model_confirm"]  # asked when edits would be lost
        if confirm:
            confirm[0].click().run()
        assert not at.exception, at.exception
        assert at.session_state["scenario"].model == model
    assert at.session_state["scenario"] == preset("caniou-mu10")
    assert widget(at, "radio", "ts_servers_mode").value == "draw" and widget(at, "number_input", "ts_mu").value == 10.0
    edit_every_widget_twice(at)


SERVERS = b"name,speed_mflops,bandwidth_mbit\nfast,500,100\nslow,150,100\n"
TASKS = b"arrival,input_mb,mflop,output_mb\n0,20,18000,10\n5,30,33000,15\n9,1,500,1\n"


BAD = [  # (which upload, the file, what its one-line answer says)
    ("servers", b"speed_mflops,bandwidth_mbit\n100,100\n-2,100\n", "bad.csv: row 3, column 'speed_mflops': -2"),
    ("servers", b"speed_mflops,bandwidth_mbit\n100,fast\n",
     "bad.csv: row 2, column 'bandwidth_mbit': 'fast' is not a number"),
    ("servers", b"speed,bandwidth_mbit\n100,100\n", "no column 'speed_mflops'"),
    ("servers", b"\xff\xfe\x00binary", "bad.csv: not a text file"),
    ("tasks", b"arrival,input_mb,mflop,output_mb\n0,1,2,3\n1,1,2\n", "bad.csv: row 3 has 3 values"),
    ("tasks", b"arrival,input_mb,mflop,output_mb\n0,1,2,3\n1,1,nan,3\n", "bad.csv: row 3, column 'mflop'"),
    ("tasks", b"arrival,input_mb,mflop,output_mb,owner\n0,1,2,3,me\n", "unknown column 'owner'"),
    ("tasks", b"arrival,input_mb,mflop,output_mb\n", "no rows after the header"),
]


def test_uploads_with_bad_rows_are_answered_inline_and_nothing_typed_is_lost():
    at = scenario_page(preset("caniou-mu10"))
    widget(at, "number_input", "ts_servers").set_value(7).run()
    widget(at, "number_input", "ts_mu").set_value(30.0).run()
    widget(at, "radio", "ts_duplex").set_value("half").run()
    for mode in ("ts_servers_mode", "ts_tasks_mode"):
        widget(at, "radio", mode).set_value("own").run()
    assert any("upload a servers CSV" in e for e in errors(at))
    assert spec(at).platform is None and spec(at).servers == 7  # the last valid scenario stays
    at.file_uploader(key="sc_w_ts_up_servers").set_value(("servers.csv", SERVERS, "text/csv")).run()
    at.file_uploader(key="sc_w_ts_up_tasks").set_value(("tasks.csv", TASKS, "text/csv")).run()
    assert not at.exception and not errors(at), errors(at)
    good = spec(at)
    assert good.platform.name == ("fast", "slow") and good.task_table.mflop == (18000.0, 33000.0, 500.0)
    assert good.duplex == "half" and good.servers == 2 and good.tasks == 3

    for what, bad, words in BAD:
        for _ in range(2):  # twice: the same answer
            at.file_uploader(key=f"sc_w_ts_up_{what}").set_value(("bad.csv", bad, "text/csv")).run()
            assert not at.exception
            [message] = errors(at)  # one line, under the uploader, naming the row where there is one
            assert words in message and "\n" not in message, (message, words)
            assert spec(at) == good  # the previous table stays in use, and shown
            assert len(at.dataframe) == 2
        good_file = ("servers.csv", SERVERS) if what == "servers" else ("tasks.csv", TASKS)
        at.file_uploader(key=f"sc_w_ts_up_{what}").set_value((*good_file, "text/csv")).run()
        assert not errors(at) and spec(at) == good

    for mode in ("ts_servers_mode", "ts_tasks_mode"):  # back to drawing: what was typed before is still there
        widget(at, "radio", mode).set_value("draw").run()
    assert not errors(at)
    s = spec(at)
    assert (s.servers, s.mean_interarrival, s.duplex, s.platform, s.task_table) == (7, 30.0, "half", None, None)
    widget(at, "radio", "ts_servers_mode").set_value("own").run()  # and the uploaded table is kept for the way back
    assert spec(at).platform == good.platform
    results = simulate(at.session_state["scenario"].replace(trials=1), jobs=1)
    assert len(results) == len(at.session_state["scenario"].heuristics)


def test_explain_widgets_twice_and_after_switching_scenario_and_system():
    at = AppTest.from_file(str(ROOT / "pages/explain.py"), default_timeout=60)
    at.session_state["scenario"] = preset("caniou-mu10")
    at.run()
    seen = set()
    for label in ("mp-l2", "msf"):
        for pos in (200, 3):
            at.selectbox(key="ts_explain_h").set_value(label).run()
            at.slider(key="ts_explain_pos").set_value(pos).run()
            for col in ("mp", "T_new"):
                at.selectbox(key="ts_explain_col").set_value(col).run()
                assert not at.exception, at.exception
                chart = charts(at)[0]["data"][0]
                assert chart["type"] == "bar" and len(chart["x"]) == 25
                servers = at.dataframe[0].value
                assert list(array(chart["y"])) == pytest.approx(servers[col].tolist())
            seen.add(at.markdown[0].value)
            assert f"{label} put it on" in at.markdown[0].value
    assert len(seen) == 4  # each (heuristic, arrival) explained its own decision
    at.selectbox(key="ex_model").set_value("etc").run()  # another system and back: the choices are kept
    assert not at.exception
    at.selectbox(key="ex_model").set_value("timeshared").run()
    assert not at.exception
    assert (at.selectbox(key="ts_explain_h").value, at.slider(key="ts_explain_pos").value,
            at.selectbox(key="ts_explain_col").value) == ("msf", 3, "T_new")
    at.session_state["scenario"] = MODEL.tiny()  # a smaller scenario that has msf too: the choice stays
    at.slider(key="ts_explain_pos").set_value(20).run()
    assert not at.exception and at.selectbox(key="ts_explain_h").value == "msf"
    assert len(at.dataframe[0].value) == 4 and at.slider(key="ts_explain_pos").value == 20
    at.session_state["scenario"] = MODEL.tiny().replace(heuristics=["netsolve-mct", "mp-l2"])  # msf gone: first label
    at.run()
    assert not at.exception and at.selectbox(key="ts_explain_h").value == "netsolve-mct"


def test_results_gantt_selector_twice_and_after_another_run():

    at = open_results(MODEL.tiny())
    runs = {}
    for label in ("msf", "hmct", "msf"):
        at.selectbox(key="results_ts_gantt_h").set_value(label).run()
        assert not at.exception, at.exception
        [fig] = [f for f in charts(at) if [d.get("name") for d in f["data"]] == ["input", "compute", "output"]]
        assert fig["layout"]["title"]["text"].startswith(label)
        runs.setdefault(label, array(fig["data"][2]["x"]).tolist())
        assert array(fig["data"][2]["x"]).tolist() == runs[label]  # the same run each time
    other = preset("caniou-table3")
    at.session_state["scenario"] = other
    at.session_state["results"] = run_result(other)
    at.run()
    assert not at.exception and at.selectbox(key="results_ts_gantt_h").options == ["netsolve-mct", "hmct", "msf"]


def test_the_default_presets_results_say_the_gains_in_words_and_name_each_rule_on_the_axes():
    """A manager's tryout of the default preset: "But mp (Min perturbation) has the highest gain on sum-flow."
    ("sum-flow" jargon, the gain with no unit), "Historical MCT", and bare keys ("mp-masse-cres") on the axes."""
    from hcsched.registry import get_model

    sc = preset(get_model("timeshared").default_preset)
    at = open_results(sc, timeout=180)
    said = [m.value.removeprefix("**").removesuffix("**") for m in at.markdown]  # the pick in bold, as the lead
    # tryout42d: "total flow time" said once, glossed, and the interval's side
    assert ("But mp (least delay to the running tasks) cuts total flow time (every task's time from arrival to "
            "finish, added up) by 2.1% against the benchmark: a real difference (95% interval: 1.9–2.2% "
            "below). mmc, though, raises total flow time by 2.4% against the benchmark: a real difference (95% "
            "interval: 2.2–2.6% above).") in " ".join(said)  # the co-winner's cost on it, said too (tryout42k),
    # folded under "In short: hmct for makespan (mmc is as good on it but raises total flow time by 2.4%); ..."
    assert any(m.startswith("In short: hmct for makespan (mmc is as good on it but raises total flow time by 2.4%)")
               for m in said)
    verdict = " ".join(m for m in said if not m.startswith("- **"))  # not the short names' list: the paper's there
    assert "hmct (earliest predicted finish)" in said[0] and "Min max completion" not in said[0]  # the charts' words
    for jargon in ("sum-flow", "max-flow", "max-stretch", "MCT)"):
        assert jargon not in verdict, jargon
    assert any("The same gain on the total flow time (the total time tasks spend in the system)" in c.value
               for c in at.caption)
    heuristic_axes = [a for f in charts(at) if f["data"][0]["type"] in ("bar", "box")
                      for k, a in f["layout"].items() if k.startswith("yaxis") and "mp" in a.get("tickvals", ())]
    assert len(heuristic_axes) == 7  # the makespan, its gain, the three other gains, the finishes, the per-trial boxes
    for axis in heuristic_axes:
        ticks = dict(zip(axis["tickvals"], axis["ticktext"], strict=True))
        assert ticks["mp-masse-cres"] == "mp-masse-cres<br><span style='font-size:10px;color:#555'>least delay, " \
                                         "newest weigh most</span>"
        assert ticks["netsolve-mct"].startswith("netsolve-mct") and "earliest finish by server load" in \
            ticks["netsolve-mct"]
