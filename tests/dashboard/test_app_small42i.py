"""Small nits of a manager's tryout, on the pages: a run's title says its change from the run it was made from, the
Gantt's trial picker says it counts from 0, the classes Gantt's window says its unit, and Streamlit's own Stop button is
hidden beside our Cancel."""

import pytest

pytest.importorskip("streamlit")
from helpers import app, open_results  # noqa: E402
from test_app_whatif import SMALL, run, until_ended  # noqa: E402

from hcsched import preset  # noqa: E402


def _two_runs():
    """The Run page after #1 (SMALL) and #2 (SMALL at 16 machines)."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.session_state["scenario"] = SMALL.replace(machines=16)
    at.run()
    run(at)
    return at


def test_a_what_if_of_a_run_loaded_again_is_titled_by_its_change_from_that_run():
    """#1 quickstart, #2 at 16 machines, then #1 picked, its scenario loaded and "Twice the arrival rate" run: #3 was
    titled "...: arrival rate 2.3 → 4.6 tasks an hour (x2); from #2: machines 16 → 8", a halving the user never made.
    It says its change from #1, whose scenario it was run from."""
    at = _two_runs()
    at.switch_page("pages/results.py").run()
    first = at.session_state["history"][0]
    at.selectbox(key="results_pick_run").set_value(first.title).run()
    at.button(key="results_load_run").click().run()
    [twice] = [b for b in at.button if b.label == "Twice the arrival rate"]
    twice.click().run()
    until_ended(at)
    runs = at.session_state["history"]
    assert [e.number for e in runs] == [1, 2, 3] and runs[2].parent == 1
    assert runs[2].title == ("#3 quickstart (edited): tasks 200 → 60; arrival rate 2.3 → 4.6 tasks an hour (×2); "
                             "trials 20 → 4")  # SMALL's edits from the preset, and the what-if's
    assert "from #2" not in runs[2].title and "16 → 8" not in runs[2].title
    assert runs[2].changes_text == "from #1: arrival rate 2.3 → 4.6 tasks an hour (×2)"  # the runs table's words
    assert at.selectbox(key="results_pick_run").options[0] == runs[2].title


def test_a_run_made_from_the_run_before_it_is_titled_as_before():
    at = _two_runs()
    at.number_input(key="run_seed").set_value(1).run()
    run(at)
    runs = at.session_state["history"]
    assert [e.parent for e in runs] == [None, 1, 2]
    assert [e.changes_text for e in runs] == ["the first run", "machines 8 → 16", "seed 1999 → 1"]


def test_the_gantts_trial_picker_says_it_counts_from_0_and_the_classes_window_says_its_unit():
    """The picker read "Trial", 0 to 49, beside "50 trials"; the classes model's "Window start" had no unit beside
    "Window length (time units)". The numbers stay (the CSV's trial column counts from 0), said so."""
    import dataclasses

    sc = preset("alazzoni-B").replace(trials=2)
    sc = sc.replace(classes=dataclasses.replace(sc.classes, horizon=2000.0))
    at = open_results(sc)
    picker = at.number_input(key="results_trial")
    assert picker.label == "Trial (from 0, as in the CSV)" and (picker.min, picker.max) == (0, 1)
    assert picker.help == "Trials are numbered from 0 to 1, as the results CSV's trial column numbers them."
    assert at.slider(key="results_window").label == "Window start (time units)"
    assert at.number_input(key="results_window_length").label == "Window length (time units)"


def test_the_page_hides_streamlits_own_stop_button_beside_its_running_indicator():
    """Streamlit's Stop (top right, while a page's script runs) showed beside the run's Cancel: the page's styles hide
    that button, and keep the running indicator."""
    at = app("app.py")
    [styles] = [h.proto.body for h in at.get("html") if h.proto.body.startswith("<style>")]
    rule = ('[data-testid="stStatusWidget"]:has([data-testid="stStatusWidgetRunningIcon"]) span:has(button) '
            "{ display: none; }")
    assert rule in styles and styles.endswith("</style>")
    assert "stStatusWidgetRunningIcon\"] {" not in styles  # the indicator itself is not hidden
