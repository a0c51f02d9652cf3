"""The Sweep page with Streamlit's AppTest: proposals, the limit, a background sweep and its curves."""

import json
import re
import time

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, plotly_array  # noqa: E402
from helpers import app as open_page
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import get_model, preset  # noqa: E402
from hcsched.sweep import sweep, sweep_summary  # noqa: E402


def page(scenario=None):
    return open_page("pages/sweep.py", **({} if scenario is None else {"scenario": scenario}))


def wait(at, timeout=60):
    end = time.monotonic() + timeout
    def busy():
        return "sw_job" in at.session_state or ("sw_result" not in at.session_state
                                                and "sw_notice" not in at.session_state)

    while busy() and time.monotonic() < end:
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
    at.number_input(key="sw_trials").set_value(5000).run()
    assert "the limit per run here is 10 minutes" in at.error[0].value and at.button(key="sw_run").disabled


@pytest.mark.parametrize("path, key", [("pages/run.py", "run_start"), ("app.py", "landing_run")])
def test_a_run_over_the_limit_is_refused_before_it_starts(path, key):
    """The Run button of Run and Home is disabled, with the estimate and the limit, for a run that would
    take longer than the per-session limit; nothing starts."""
    big = preset("maheswaran-fig6").replace(trials=10_000)
    at = AppTest.from_file(str(ROOT / path), default_timeout=60)
    at.session_state["scenario"] = big
    at.run()
    assert not at.exception, at.exception
    assert any("the limit per run here is 10 minutes" in e.value for e in at.error)
    assert at.button(key=key).disabled and "job" not in at.session_state
    # one estimate, one message (a yellow "about 63 minutes, in the background" stood beside it)
    assert not [w.value for w in at.warning if "minutes" in w.value]
    assert sum("minutes" in e.value for e in at.error) == 1


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
    kind, said = at.session_state["sw_notice"][:2]
    assert kind == "warning" and re.fullmatch(r"The sweep was cancelled\. It had done \d+ of \d+ \w+s\.", said)
    assert at.warning[0].value == said


SMALL = preset("quickstart").replace(tasks=40, trials=2)


def run_small_sweep(at, values="4,8"):
    at.text_input(key="sw_values1").set_value(values).run()
    at.number_input(key="sw_trials").set_value(2).run()
    at.number_input(key="sw_jobs").set_value(1).run()
    at.button(key="sw_run").click().run()
    wait(at)


def test_downloads_carry_the_scenario_name_and_a_sweep_of_another_scenario_is_marked(monkeypatch):
    """Items 7 and 8: a sweep of an ETC scenario stayed on the page, unmarked, after a task-class scenario was loaded;
    the downloads' file names did not name the scenario."""
    from streamlit.delta_generator import DeltaGenerator

    names = []
    original = DeltaGenerator.download_button

    def recorded(self, label, data, file_name=None, *args, **kwargs):
        names.append(file_name)
        return original(self, label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recorded)
    at = page(SMALL.replace(name="quickstart (edited)"))
    run_small_sweep(at)
    assert names[-2:] == ["quickstart-edited-sweep.csv", "quickstart-edited-sweep-summary.csv"]
    assert not at.warning and len(at.get("plotly_chart")) == 1

    at.session_state["scenario"] = preset("alazzoni-B")  # the user loads a task-class scenario
    at.run()
    assert not at.exception, at.exception
    said = at.warning[0].value
    assert "of the scenario **quickstart (edited)**, not of the scenario loaded now (**alazzoni-B**)" in said
    assert not at.get("plotly_chart") and not at.get("download_button")  # folded away
    at.toggle[0].set_value(True).run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) == 1 and at.subheader[0].value.startswith("Sweep of quickstart (edited)")

    at.session_state["scenario"] = SMALL.replace(name="quickstart (edited)", trials=7, seed=3)  # other trials, seed
    at.run()
    assert not at.warning and len(at.get("plotly_chart")) == 1  # the same system: its sweep is this one's
    at.session_state["scenario"] = SMALL.replace(name="quickstart (edited)", machines=5)
    at.run()
    assert ("an earlier version of the scenario **quickstart (edited)**, changed since (its system)"
            in at.warning[0].value)


def test_progress_counts_in_the_models_own_word(monkeypatch):
    """Item 9: the progress said "trials" where the task-class model says "replications"."""
    import threading

    import hcsched.sweep

    release, started = threading.Event(), threading.Event()

    def held(scenario, vary, trials, jobs, progress):
        progress(1, 4)
        started.set()
        release.wait(30)
        progress(2, 4)  # raises Cancelled once Cancel was clicked
        raise AssertionError("not cancelled")

    monkeypatch.setattr(hcsched.sweep, "sweep", held)
    at = page(get_model("classes").tiny())
    try:
        at.button(key="sw_run").click().run()
        assert started.wait(30)
        at.run()
        text = at.get("progress")[0].proto.text
        assert text.startswith("Sweep of classes-tiny: 1 of ") and "trials done" in text
        at.button(key="sw_cancel").click().run()
    finally:
        release.set()
    wait(at)
    assert at.warning[0].value.startswith("The sweep was cancelled.")


def test_a_failing_model_is_one_line_and_never_a_traceback(monkeypatch):
    """Item 1 (sweep part): an error escaping a model's code, in the background sweep or in the estimate before it,
    is one line (st.error, as the CLI says it), not a traceback."""
    model = type(get_model("etc"))

    def broken_run(self, spec, heuristic, workload):
        raise ValueError("high - low < 0")

    monkeypatch.setattr(model, "run", broken_run)
    monkeypatch.setattr("pages.jobs.IN_PROCESS", True)  # the pool's workers would not see the patch
    at = page(SMALL)
    run_small_sweep(at)
    assert "sw_result" not in at.session_state
    said = at.error[0].value
    assert (said.startswith("The sweep stopped: ValueError: high - low < 0 (an error inside hcsched")
            and "\n" not in said)

    def broken_estimate(self, spec, heuristics):
        raise RuntimeError("no estimate")

    monkeypatch.setattr(model, "trial_seconds", broken_estimate)
    at = page(SMALL)
    assert any(e.value.startswith("RuntimeError: no estimate") for e in at.error)
    assert at.button(key="sw_run").disabled


def test_an_invalid_edit_on_the_scenario_page_refuses_sweeps():
    at = AppTest.from_file(str(ROOT / "pages/sweep.py"), default_timeout=60)
    at.session_state["scenario"] = SMALL
    at.session_state["scenario_problem"] = "arrival rate: -5 is not allowed (allowed: above 0)"
    at.run()
    assert not at.exception, at.exception
    assert any("invalid edit" in e.value and "-5 is not allowed" in e.value for e in at.error)
    assert at.button(key="sw_run").disabled


def test_a_few_uneven_values_are_drawn_evenly_by_default_and_each_sweep_gets_its_own_default():
    at = page(SMALL)
    run_small_sweep(at, "1,2,30")
    assert at.radio[0].value == "category"
    assert at.radio[0].options == ["linear", "logarithmic", "evenly spaced (not to scale)"]
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert fig["layout"]["xaxis"]["type"] == "category" and fig["layout"]["xaxis"]["categoryarray"] == ["1", "2", "30"]
    at.radio[0].set_value("log").run()
    assert json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["xaxis"]["type"] == "log"
    run_small_sweep(at, "2,3")
    assert at.radio[0].value == "linear"
