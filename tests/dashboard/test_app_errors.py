"""No page shows a traceback: an error escaping a model's code is one line, as in the CLI.

Every page of every model is opened with a scenario whose model raises, once in its run (the simulation itself) and
once in its run-time estimate; the page shows the error as one line naming its type and message, and no exception
box. The results of an earlier run, made before the model broke, stay readable where they do not need the model.
"""

import time

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, run_result  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import get_model, model_names, simulate  # noqa: E402
from hcsched.cli import main  # noqa: E402

PAGES = ("pages/scenario.py", "pages/heuristics.py", "pages/run.py", "pages/results.py", "pages/explain.py",
         "pages/sweep.py", "pages/papers.py")
MESSAGE = "a model failed on purpose"


class Broken(RuntimeError):
    pass


def _raise(*args, **kwargs):
    raise Broken(MESSAGE)



def _open(scenario, results):

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.session_state["scenario"] = scenario
    at.session_state["results"] = run_result(scenario, results)
    at.run()
    return at


def _said(at) -> str:
    return " ".join(e.value for e in at.error)


@pytest.mark.parametrize("name", model_names())
@pytest.mark.parametrize("where", ["run", "trial_seconds"])
def test_every_page_shows_a_models_error_as_one_line(monkeypatch, name, where):
    model = get_model(name)
    sc = model.tiny().replace(trials=1)  # one chunk: run in the job's thread, where the model is broken
    results = simulate(sc, jobs=1)  # before the model breaks
    monkeypatch.setattr(model, where, _raise)
    monkeypatch.setattr("pages.jobs.IN_PROCESS", True)  # the pool's workers would not see the patch
    at = _open(sc, results)
    assert not at.exception, at.exception
    if where == "trial_seconds":  # the estimate fails: Run is refused with the reason
        assert f"Broken: {MESSAGE}" in _said(at) and at.button(key="landing_run").disabled
    else:
        at.button(key="landing_run").click().run()
        end = time.monotonic() + 60
        while "job" in at.session_state and f"Broken: {MESSAGE}" not in _said(at) and time.monotonic() < end:
            time.sleep(0.1)
            at.run()
        assert not at.exception, at.exception
        assert f"The run stopped: Broken: {MESSAGE}" in _said(at)  # the run's own error, not only the Gantt's
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        if page == "pages/results.py" and where == "run":  # the bars of the earlier run show; its trial cannot be rerun
            assert at.get("plotly_chart") and f"Broken: {MESSAGE}" in _said(at)
    assert all("\n" not in e.value for e in at.error)  # one line each


def test_the_cli_says_a_models_error_in_one_line(monkeypatch, capsys):
    monkeypatch.setattr(get_model("etc"), "run", _raise)
    assert main(["run", "--preset", "quickstart", "--trials", "1", "--jobs", "1"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("hcsched: error: Broken: " + MESSAGE) and "Traceback" not in err
