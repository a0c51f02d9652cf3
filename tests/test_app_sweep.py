"""The Sweep page with Streamlit's AppTest: proposals, the limit, a background sweep and its curves."""

import json
import time

import pytest

pytest.importorskip("streamlit")
import streamlit as st  # noqa: E402
from conftest import ROOT, plotly_array  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.sweep import sweep, sweep_summary  # noqa: E402


@pytest.fixture(autouse=True)
def clear_caches():
    st.cache_data.clear()
    yield


def page(scenario=None):
    at = AppTest.from_file(str(ROOT / "pages/sweep.py"), default_timeout=60)
    if scenario is not None:
        at.session_state["scenario"] = scenario
    at.run()
    assert not at.exception, at.exception
    return at


def wait(at, timeout=60):
    end = time.monotonic() + timeout
    while "sw_result" not in at.session_state and "sw_notice" not in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    assert not at.exception, at.exception


def test_a_parameter_proposes_a_range_and_the_sweep_draws_its_curves():
    small = preset("quickstart").replace(tasks=40, trials=2)
    at = page(small)
    assert at.selectbox(key="sw_param1").value == "machines" and at.text_input(key="sw_values1").value == "4,6,8,12,16"
    at.selectbox(key="sw_param1").set_value("arrivals.rate").run()
    assert at.text_input(key="sw_values1").value.endswith(":5:log")  # the new parameter's own proposal
    at.text_input(key="sw_values1").set_value("0.0005,0.001,0.002").run()
    at.number_input(key="sw_trials").set_value(2).run()
    at.button(key="sw_run").click().run()
    wait(at)
    result = at.session_state["sw_result"]
    expected = sweep(small, {"arrivals.rate": [0.0005, 0.001, 0.002]}, trials=2, jobs=1)
    assert result.results.equals(expected)
    lines = json.loads(at.get("plotly_chart")[0].proto.spec)
    means = [t for t in lines["data"] if t.get("mode") == "lines+markers" and t["name"] == "mct" and t["xaxis"] == "x"]
    summary = sweep_summary(expected, small, {"arrivals.rate": [0.0005, 0.001, 0.002]})
    y = plotly_array(means[0]["y"])
    assert list(y) == pytest.approx(summary[summary["heuristic"] == "mct"]["makespan"].tolist())
    labels = [b.label for b in at.get("download_button")]
    assert labels == ["Sweep results, every trial (CSV)", "Sweep summary with intervals (CSV)"]


def test_two_parameters_draw_heatmaps_and_bad_values_are_named():
    small = preset("quickstart").replace(tasks=40, trials=2)
    at = page(small)
    at.text_input(key="sw_values1").set_value("4,0").run()
    assert "sweep point 1 (machines=0)" in at.error[0].value and at.button(key="sw_run").disabled
    at.text_input(key="sw_values1").set_value("4,8").run()
    at.checkbox(key="sw_two").check().run()
    at.selectbox(key="sw_param2").set_value("heuristics.1.k").run()
    at.text_input(key="sw_values2").set_value("10,50").run()
    at.number_input(key="sw_trials").set_value(2).run()
    at.button(key="sw_run").click().run()
    wait(at)
    heat = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert [t["type"] for t in heat["data"]] == ["heatmap"] * 4


def test_a_sweep_over_the_limit_is_refused_with_its_estimate():
    at = page(preset("maheswaran-fig6"))
    at.text_input(key="sw_values1").set_value("10,20,30,40,50,60,70,80,90,100").run()
    at.number_input(key="sw_trials").set_value(1000).run()
    assert "the limit per run here is 10 minutes" in at.error[0].value and at.button(key="sw_run").disabled


@pytest.mark.parametrize("path, key", [("pages/run.py", "run_start"), ("app.py", "landing_run")])
def test_a_run_over_the_limit_is_refused_before_it_starts(path, key):
    """Issue 12: the Run button of Run and Home is disabled, with the estimate and the limit, for a run that would
    take longer than the per-session limit; nothing starts."""
    big = preset("maheswaran-fig6").replace(trials=10_000)
    at = AppTest.from_file(str(ROOT / path), default_timeout=60)
    at.session_state["scenario"] = big
    at.run()
    assert not at.exception, at.exception
    assert any("the limit per run here is 10 minutes" in e.value for e in at.error)
    assert at.button(key=key).disabled and "job" not in at.session_state


def test_a_running_sweep_shows_progress_and_can_be_cancelled():
    at = page(preset("maheswaran-fig6"))
    at.text_input(key="sw_values1").set_value("8,12,16,20").run()
    at.number_input(key="sw_trials").set_value(100).run()
    at.number_input(key="sw_jobs").set_value(1).run()
    at.button(key="sw_run").click().run()
    assert "sw_job" in at.session_state and "trials done" in at.get("progress")[0].proto.text
    at.button(key="sw_cancel").click().run()
    end = time.monotonic() + 60
    while "sw_job" in at.session_state and time.monotonic() < end:
        time.sleep(0.2)
        at.run()
    assert not at.exception, at.exception
    assert "sw_job" not in at.session_state and "sw_result" not in at.session_state
    assert at.session_state["sw_notice"] == "The sweep was cancelled."
