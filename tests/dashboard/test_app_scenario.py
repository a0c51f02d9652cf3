"""The Scenario page as a new user meets it: Calibrate, the load warning, the preset
dropdown, the matrix's shape and errors, and switching the model."""

import json

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT  # noqa: E402
from helpers import app as open_page
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import calibrate, preset, preset_names  # noqa: E402
from hcsched.models.etc.spec import ArrivalSpec  # noqa: E402

PAGE = "pages/scenario.py"



def app(path=PAGE):
    return open_page(path)


def texts(elements):
    return [e.value for e in elements]


def upload_matrix(at, rows: list[list[float]]):
    at.radio(key="sc_w_method").set_value("matrix").run()
    csv = "\n".join(",".join(f"{x:g}" for x in row) for row in rows) + "\n"
    at.file_uploader(key="sc_w_upload").set_value(("etc.csv", csv.encode(), "text/csv")).run()
    assert not at.exception, at.exception


# --- Calibrate -------------------------------------------------------------------------------
def test_calibrate_sets_the_rate_and_draws_the_page():
    at = app()
    at.number_input(key="sc_w_machines").set_value(12).run()
    at.selectbox(key="sc_cal_target").set_value("lambda_l").run()
    before = at.session_state["scenario"]
    at.button(key="sc_calibrate").click().run()
    assert not at.exception, at.exception
    rate = calibrate(before, "lambda_l")
    assert at.number_input(key="sc_w_rate").value == rate
    after = at.session_state["scenario"]
    assert after.replace(description=before.description) == before.replace(arrivals=ArrivalSpec("poisson", rate))
    assert after.description == (f"Edited from quickstart: machines 8 → 12; arrival rate 2.3 → {rate * 3600:.2g} tasks "
                                 f"an hour (×{rate / 0.000645197:.3g}).")
    assert any("lambda_l = " in s and "90%" in s for s in texts(at.success))
    assert at.get("plotly_chart") and at.get("download_button")  # the heatmap and the files below: the page was drawn
    assert not at.error


def test_calibration_error_is_inline_and_changes_nothing():
    at = app()
    upload_matrix(at, [[3.0, 5.0]])  # one task: it never finishes before it arrives
    before = at.session_state["scenario"]
    rate = at.number_input(key="sc_w_rate").value
    at.button(key="sc_calibrate").click().run()
    assert not at.exception, at.exception
    assert any("Calibration failed, nothing was changed" in e and "more tasks" in e for e in texts(at.error))
    assert at.session_state["scenario"] == before and at.number_input(key="sc_w_rate").value == rate


# --- the rate against the workload -----------------------------------------------------------
def test_idle_warning_offers_calibrate_and_goes_away():
    at = app()
    assert not at.warning and any("Load check" in c for c in texts(at.caption))
    at.number_input(key="sc_w_machines").set_value(100).run()
    warnings = [w for w in texts(at.warning) if "Nearly idle" in w]
    assert warnings and "Calibrate" in warnings[0]
    assert not at.button(key="sc_calibrate").disabled
    at.button(key="sc_calibrate").click().run()
    assert not at.exception
    assert not [w for w in texts(at.warning) if "Nearly idle" in w]
    assert at.session_state["scenario"].arrivals.rate == calibrate(preset("quickstart").replace(machines=100),
                                                                   "lambda_h")


def test_overload_warning():
    at = app()
    at.number_input(key="sc_w_machines").set_value(2).run()
    assert any("Overloaded" in w for w in texts(at.warning))
    at.radio(key="sc_w_process").set_value("static").run()  # all at time 0: no rate to check
    assert not at.warning


# --- the preset dropdown shows what is loaded --------------------------------------------
def test_preset_dropdown_shows_what_is_loaded_with_descriptions():
    at = app()
    box = at.selectbox(key="sc_preset")
    assert box.value == "quickstart"
    assert box.options == [f"{name}: {preset(name).description}" for name in preset_names()]
    at.number_input(key="sc_w_tasks").set_value(150).run()
    box = at.selectbox(key="sc_preset")
    assert box.value == "(edited: quickstart)" and box.options[0] == "(edited: quickstart)"
    at.selectbox(key="sc_preset").set_value("maheswaran-fig6").run()  # picking a preset loads it
    assert at.session_state["scenario"] == preset("maheswaran-fig6")
    assert at.selectbox(key="sc_preset").value == "maheswaran-fig6" and at.number_input(key="sc_w_tasks").value == 2000
    at.button(key="sc_undo_button").click().run()  # the edited scenario it replaced comes back
    assert at.session_state["scenario"].tasks == 150
    assert at.selectbox(key="sc_preset").value == "(edited: quickstart)"
    at.button(key="sc_load_preset").click().run()  # Reload: the preset as published
    assert at.session_state["scenario"] == preset("quickstart") and at.selectbox(key="sc_preset").value == "quickstart"


def test_preset_dropdown_names_ones_own_scenario():
    at = app()
    own = preset("quickstart").replace(name="my-lab", machines=5)
    at.file_uploader(key="sc_upload_scenario").set_value(("s.json", own.to_json().encode(), "application/json")).run()
    assert not at.exception
    assert at.selectbox(key="sc_preset").value == "(your own scenario: my-lab)"
    assert at.button(key="sc_load_preset").disabled


def test_trials_and_seed_do_not_count_as_edits():
    at = app()
    at.session_state["scenario"] = preset("quickstart").replace(trials=3, seed=7)  # as the Run page sets them
    at.run()
    assert at.selectbox(key="sc_preset").value == "quickstart"


# --- the matrix's shape ------------------------------------------------------------------
def test_own_matrix_shows_its_shape():
    at = app()
    upload_matrix(at, [[float(i + j + 1) for j in range(16)] for i in range(512)])
    machines, tasks = at.number_input(key="sc_w_machines"), at.number_input(key="sc_w_tasks")
    assert (machines.value, tasks.value) == (16, 512) and machines.disabled and tasks.disabled
    assert (at.session_state["scenario"].machines, at.session_state["scenario"].tasks) == (16, 512)
    at.session_state["sc_w_editor"] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [0, 1, 2]}
    at.run()
    assert at.number_input(key="sc_w_tasks").value == 509 and at.session_state["scenario"].tasks == 509


# --- an invalid cell ----------------------------------------------------------------------
def test_invalid_cell_error_under_the_table_and_run_refused():
    at = app("app.py")
    at.switch_page(PAGE).run()
    upload_matrix(at, [[50, 20, 15], [20, 60, 15], [20, 50, 15]])
    good = at.session_state["scenario"]
    at.session_state["sc_w_editor"] = {"edited_rows": {1: {"m2": -4.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.exception
    order = [(n.type, getattr(n, "key", None)) for n in at.main]
    table = order.index(("dataframe", "sc_w_editor"))
    assert order[table + 1][0] == "error"  # directly under the table
    problem = at.session_state["scenario_problem"]
    assert "entry (task 1, machine 2) = -4.0" in problem and problem in at.error[0].value
    assert at.session_state["scenario"] == good
    at.switch_page("pages/run.py").run()  # Run refuses rather than run the last valid matrix
    assert at.button(key="run_start").disabled and any("invalid edit" in e for e in texts(at.error))
    at.switch_page(PAGE).run()
    at.session_state["sc_w_editor"] = {"edited_rows": {1: {"m2": 4.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "scenario_problem" not in at.session_state and not at.error
    assert at.session_state["scenario"].etc.matrix == ((50, 20, 15), (20, 60, 4), (20, 50, 15))


def test_added_row_without_values_is_a_problem():
    at = app()
    upload_matrix(at, [[1, 2], [3, 4]])
    at.session_state["sc_w_editor"] = {"edited_rows": {}, "added_rows": [{"m0": 5.0}], "deleted_rows": []}
    at.run()
    problem = at.session_state["scenario_problem"]
    assert "task 2, machine m1 is empty" in problem and at.session_state["scenario"].tasks == 2
    at.session_state["sc_w_editor"] = {"edited_rows": {}, "added_rows": [{"m0": 5.0, "m1": 6.0}], "deleted_rows": []}
    at.run()
    assert "scenario_problem" not in at.session_state and at.session_state["scenario"].etc.matrix[2] == (5.0, 6.0)


# --- switching the model asks first ------------------------------------------------------
def test_switching_the_model_asks_before_replacing_the_scenario():
    at = app()
    at.number_input(key="sc_w_machines").set_value(6).run()
    edited = at.session_state["scenario"]
    at.radio(key="sc_w_model").set_value("classes").run()
    assert at.session_state["scenario"] == edited  # nothing replaced yet; the ETC editor is still there
    assert at.number_input(key="sc_w_machines").value == 6
    assert any("alazzoni-B" in w for w in texts(at.warning))
    at.button(key="sc_model_cancel").click().run()
    assert at.radio(key="sc_w_model").value == "etc" and at.session_state["scenario"] == edited
    at.radio(key="sc_w_model").set_value("classes").run()
    assert "alazzoni-B" in at.button(key="sc_model_confirm").label
    at.button(key="sc_model_confirm").click().run()
    assert not at.exception
    assert at.session_state["scenario"] == preset("alazzoni-B") and at.selectbox(key="sc_preset").value == "alazzoni-B"
    assert at.radio(key="sc_w_model").value == "classes"


# --- a description is never carried over to an edited scenario -------------------------------------------
def test_an_edit_replaces_the_presets_description_on_the_page_and_in_the_download():
    at = app()
    original = preset("quickstart").description
    at.number_input(key="sc_w_machines").set_value(6).run()
    sc = at.session_state["scenario"]
    assert sc.machines == 6 and sc.description != original and "Edited from quickstart" in sc.description
    assert json.loads(sc.to_json())["description"] == sc.description  # what "Download scenario (JSON)" is given
    home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    home.session_state["scenario"] = sc
    home.run()
    assert (any("Edited from quickstart" in m.value for m in home.markdown)
            and not any(original in m.value for m in home.markdown))


# --- the example files of assets/ are offered for download -----------------------------------------------------------
def test_every_example_file_in_assets_is_offered_with_its_bytes():
    at = app()
    offered = {b.proto.label for b in at.get("download_button")}
    examples = sorted(p.name for p in (ROOT / "assets" / "examples").iterdir())
    assert examples and set(examples) <= offered


def test_a_cleared_number_field_keeps_its_value_and_says_so():
    """Streamlit sets a cleared number input to its minimum (1 machine, a rate of 1e-9), silently."""
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    machines = at.session_state["scenario"].machines
    at.number_input(key="sc_w_machines").set_value(None).run()
    assert at.number_input(key="sc_w_machines").value == machines == at.session_state["scenario"].machines
    assert any("Machines: a number is needed" in c.value for c in at.caption) and not at.exception


@pytest.mark.parametrize("model, changes", [
    ("timeshared", {"servers": 1500}), ("value", {"machines": 2000}), ("estimation", {"processors.count": 2500}),
    ("etc", {"tasks": 150_000}),  # (the library now bounds a horizon and a heterogeneity within their fields' ranges)
])
def test_a_loaded_scenario_beyond_a_fields_usual_range_shows_as_it_is(model, changes):
    """A file may hold values beyond an editor field's range: the field shows them, nothing crashes or changes."""
    import json

    from hcsched import get_model
    from hcsched.scenario import parse_scenario

    data = get_model(model).presets()[get_model(model).default_preset]().to_dict()
    for path, value in changes.items():
        keys = path.split(".")
        node = data
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    scenario = parse_scenario(json.dumps(data))
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.session_state["scenario"] = scenario
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["scenario"] == scenario


# --- leaving an uploaded matrix, and a load check that always reads sensibly ----------------------------------------
def test_back_from_an_uploaded_matrix_restores_the_generated_workload():
    at = app()
    at.selectbox(key="sc_w_het").set_value("lolo").run()
    at.selectbox(key="sc_w_consistency").set_value("consistent").run()
    at.number_input(key="sc_w_tasks").set_value(300).run()
    generated = at.session_state["scenario"]
    upload_matrix(at, [[float(4 * i + j + 1) for j in range(4)] for i in range(4)])
    assert (at.session_state["scenario"].machines, at.session_state["scenario"].tasks) == (4, 4)
    at.radio(key="sc_w_method").set_value("range").run()
    assert not at.exception, at.exception
    sc = at.session_state["scenario"]
    assert (sc.machines, sc.tasks, sc.etc) == (generated.machines, generated.tasks, generated.etc)
    assert (at.number_input(key="sc_w_machines").value, at.number_input(key="sc_w_tasks").value) == (8, 300)
    assert at.selectbox(key="sc_w_het").value == "lolo"
    assert any("before *My own matrix*: 8 machines, 300 tasks, LoLo heterogeneity" in i for i in texts(at.info))
    assert not [w for w in texts(at.warning) if "Overloaded" in w]
    at.number_input(key="sc_w_machines").set_value(9).run()  # said once: gone with the next edit
    assert not [i for i in texts(at.info) if "My own matrix" in i]


def test_a_scenario_that_came_with_its_matrix_keeps_its_shape_and_says_so():
    from hcsched.models.etc.spec import EtcSpec

    own = preset("quickstart").replace(etc=EtcSpec("matrix", matrix=((1.0, 2.0, 3.0),) * 30), machines=3, tasks=30)
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=60)
    at.session_state["scenario"] = own
    at.run()
    at.radio(key="sc_w_method").set_value("range").run()
    assert not at.exception, at.exception
    assert (at.session_state["scenario"].machines, at.session_state["scenario"].tasks) == (3, 30)
    assert any("Machines (3) and tasks (30) are kept from the matrix" in i for i in texts(at.info))


def test_load_check_with_too_few_tasks_says_it_cannot_tell():
    at = app()
    upload_matrix(at, [[float(4 * i + j + 1) for j in range(4)] for i in range(4)])  # 4 tasks
    assert not at.warning
    assert any("With 4 tasks, one quick MCT run cannot tell whether the rate fits" in c for c in texts(at.caption))
    at.radio(key="sc_w_method").set_value("range").run()
    at.number_input(key="sc_w_tasks").set_value(4).run()
    assert not at.warning and any("With 4 tasks, one quick MCT" in c for c in texts(at.caption))


def test_an_overload_with_no_task_completed_says_none_not_zero_percent():
    at = app()
    at.number_input(key="sc_w_rate").set_value(1.0).run()
    warnings = [w for w in texts(at.warning) if "Overloaded" in w]
    assert warnings and "has completed none of the 200 tasks when the last one arrives" in warnings[0]
    assert "0.0%" not in warnings[0]


def test_a_number_beyond_its_range_is_refused_in_words_and_the_last_value_kept():
    """Streamlit refused 99999999 in the browser with the range only in a hover, and an old
    "a number is needed" caption stayed under it; the field now says what is allowed and keeps its last value."""
    at = app()
    machines = at.number_input(key="sc_w_machines")
    last = machines.value
    machines.set_value(99_999_999).run()
    said = texts(at.caption)
    assert any(f"Machines: 99999999 is not allowed (allowed: from 1 to 1000); kept {last}." in c for c in said)
    assert at.number_input(key="sc_w_machines").value == last and not at.exception
    at.number_input(key="sc_w_tasks").set_value(300).run()  # another edit: the old caption goes
    assert not any("is not allowed" in c for c in texts(at.caption))
    assert "Allowed: from 1 to 1000." in at.number_input(key="sc_w_machines").help


# --- silent changes ---------------------------------------------------------------------------------------------------
def upload(at, scenario, name="s.json"):
    at.file_uploader(key="sc_upload_scenario").set_value((name, scenario.to_json().encode(), "application/json")).run()
    assert not at.exception, at.exception
    return at


def test_a_loaded_value_beyond_a_fields_cap_is_kept_as_loaded_not_cut():
    """A scenario file asking for 10,000,000 tasks was cut to the Tasks field's cap (100,000) and kept its name; the
    library allows it (a run of it is refused on Run, in one line, as too long or too large)."""
    big = preset("quickstart").replace(name="big", description="A big one.", tasks=10_000_000, machines=5000)
    at = upload(app(), big, "big.json")
    assert at.session_state["scenario"] == big
    assert at.number_input(key="sc_w_tasks").value == 10_000_000 and at.number_input(key="sc_w_machines").value == 5000
    assert not at.error and not any("not allowed" in c for c in texts(at.caption))
    at.number_input(key="sc_w_tasks").set_value(20_000).run()  # an edit within the usual range is taken as typed
    assert (at.session_state["scenario"].tasks, at.session_state["scenario"].machines) == (20_000, 5000)


@pytest.mark.parametrize("model, key, value, change", [
    ("etc", "sc_w_tasks", 150, "tasks 200 → 150"),
    ("classes", "sc_w_horizon", 5000.0, "time simulated 20,000 → 5,000 time units"),
    ("estimation", "sc_w_est_count", 40, "processors 90 → 40"),
    ("timeshared", "sc_w_ts_servers", 10, "servers 25 → 10"),
    ("value", "sc_w_v_machines", 4, "machines 8 → 4"),
])
def test_every_models_editor_describes_an_edit_by_what_changed(model, key, value, change):
    from hcsched import get_model

    name = get_model(model).default_preset
    at = AppTest.from_file(str(ROOT / PAGE), default_timeout=60)
    at.session_state["scenario"] = preset(name)
    at.run()
    at.number_input(key=key).set_value(value).run()
    assert not at.exception, at.exception
    sc = at.session_state["scenario"]
    assert (sc.name, sc.description) == (f"{name} (edited)", f"Edited from {name}: {change}.")
    assert json.loads(sc.to_json())["description"] == sc.description  # what "Download scenario (JSON)" is given


def test_a_file_with_a_presets_description_but_other_settings_is_described_by_what_differs():
    """A file named and described as the preset quickstart, with 6 machines: loaded as it was, Home said "... on 8
    machines and 200 tasks"."""
    at = app()
    upload(at, preset("quickstart").replace(machines=6), "mine.json")
    sc = at.session_state["scenario"]
    assert (sc.name, sc.description) == ("quickstart (edited)", "Edited from quickstart: machines 8 → 6.")
    assert sc.replace(name="quickstart", description=preset("quickstart").description) == preset("quickstart").replace(
        machines=6)  # the settings as loaded
    assert texts(at.info) == ["Loaded mine.json as **quickstart (edited)**: Edited from quickstart: machines 8 → 6."]
    upload(at, preset("quickstart").replace(name="lab", machines=7), "lab.json")  # its own name is kept
    sc = at.session_state["scenario"]
    assert (sc.name, sc.description) == ("lab", "Edited from quickstart: machines 8 → 7.")
    assert any("lab.json carried the description of quickstart" in i for i in texts(at.info))
    own = preset("quickstart").replace(name="lab", description="My lab's cluster.", machines=7)
    upload(at, own, "own.json")  # a description of one's own is one's own
    assert at.session_state["scenario"] == own and not at.info


def test_an_edit_of_ones_own_scenario_says_what_it_was_edited_from_and_undo_keeps_it():
    own = preset("quickstart").replace(name="lab", description="My lab's cluster.", machines=7)
    at = upload(app(), own, "own.json")
    at.number_input(key="sc_w_tasks").set_value(300).run()
    at.number_input(key="sc_w_machines").set_value(9).run()
    sc = at.session_state["scenario"]
    assert (sc.name, sc.description) == ("lab", "Edited from lab: machines 7 → 9; tasks 200 → 300.")
    at.selectbox(key="sc_preset").set_value("maheswaran-fig6").run()
    at.button(key="sc_undo_button").click().run()
    at.number_input(key="sc_w_tasks").set_value(400).run()
    assert at.session_state["scenario"].description == "Edited from lab: machines 7 → 9; tasks 200 → 400."
    at.number_input(key="sc_w_tasks").set_value(200).run()
    at.number_input(key="sc_w_machines").set_value(7).run()  # back to the file's settings: its own description again
    assert at.session_state["scenario"] == own


def test_calibrate_says_it_switched_static_arrivals_to_poisson():
    at = app()
    at.radio(key="sc_w_process").set_value("static").run()
    at.button(key="sc_calibrate").click().run()
    assert not at.exception, at.exception
    assert at.session_state["scenario"].arrivals.process == "poisson"
    assert any(s.endswith("Arrivals are now Poisson at this rate (they were all at time 0).")
               for s in texts(at.success))
