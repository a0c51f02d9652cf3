"""The time-shared model's dashboard module: editor, Gantt of overlapping tasks, sooner/same/later bars, Explain."""

import json

import pytest

pytest.importorskip("streamlit")
import streamlit as st  # noqa: E402
from conftest import ROOT  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.models.timeshared import MODEL  # noqa: E402


@pytest.fixture(autouse=True)
def clear_caches():
    st.cache_data.clear()
    yield


def charts(at):
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def test_switch_to_the_model_and_edit_servers_and_tasks():
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    at.radio(key="sc_w_model").set_value("timeshared").run()
    assert not at.exception, at.exception
    assert at.session_state["scenario"] == preset("caniou-mu10")
    at.number_input(key="sc_w_ts_servers").set_value(7).run()
    at.number_input(key="sc_w_ts_mu").set_value(30.0).run()
    at.radio(key="sc_w_ts_duplex").set_value("half").run()
    spec = at.session_state["scenario"].spec
    assert (spec.servers, spec.mean_interarrival, spec.duplex) == (7, 30.0, "half")
    at.number_input(key="sc_w_ts_max").set_value(10.0).run()  # below compute_ratio x the longest transfer
    assert any("'max_compute_s'" in e.value for e in at.error)
    assert at.session_state["scenario"].spec.max_compute_s == 600.0  # the last valid scenario stays
    at.radio(key="sc_w_ts_tasks_mode").set_value("own").run()
    assert any("upload a tasks CSV" in e.value for e in at.error)


def _script():
    import streamlit as st

    from hcsched import simulate
    from hcsched.experiment import trial_runs
    from hcsched.models.timeshared import MODEL
    from models import timeshared as ui

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
    stacked = figs[0]
    assert [d["name"] for d in stacked["data"]] == ["sooner", "same time", "later"]
    means = simulate(MODEL.tiny(), jobs=1).groupby("heuristic")["pct_sooner"].mean()
    assert stacked["data"][0]["y"][1] == pytest.approx(means["hmct"])
    gantt = figs[1]
    assert [d["name"] for d in gantt["data"]] == ["input", "compute", "output"]
    assert "T_new" in at.dataframe[0].value.columns and "msf" in at.dataframe[0].value.columns
    assert {"T_before", "T_after", "delta"} <= set(at.dataframe[1].value.columns)
