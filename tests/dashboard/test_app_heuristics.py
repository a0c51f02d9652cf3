"""The Heuristics page as a user meets it: the label field, inline errors, labels of copies, kbar."""

import json

import pytest

pytest.importorskip("streamlit")
from helpers import app  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.scenario import parse_scenario  # noqa: E402

PAGE = "pages/heuristics.py"


def labels(at):
    return [h.label for h in at.session_state["scenario"].heuristics]


def add(at, name, label="", **params):
    at.selectbox(key="hx_name").set_value(name).run()
    for key, value in params.items():
        at.number_input(key=f"hx_{name}_{key}").set_value(value)
    at.text_input(key="hx_label").set_value(label)
    at.button(key="hx_add").click().run()
    assert not at.exception, at.exception
    return at


def errors(at):
    return [e.value for e in at.error]


def test_label_is_cleared_after_add_so_the_next_add_works():
    at = app(PAGE)
    add(at, "kpb", "fast", k=10)
    assert labels(at)[-1] == "fast" and at.text_input(key="hx_label").value == ""
    add(at, "kpb", k=40)  # the field was cleared: an automatic label, not "fast" a second time
    assert labels(at)[-2:] == ["fast", "kpb (k=40)"] and not errors(at)


def test_error_shows_inline_and_goes_with_the_next_edit_or_success():
    at = app(PAGE)
    add(at, "kpb", "fast", k=10)
    add(at, "kpb", "fast", k=30)
    assert any("'fast' is used twice" in e for e in errors(at))
    assert at.text_input(key="hx_label").value == "fast"  # kept after a failed Add, to be corrected
    at.text_input(key="hx_label").set_value("").run()  # an edit of the form clears the error
    assert not errors(at)
    add(at, "kpb", "fast", k=30)
    assert errors(at)
    at.number_input(key="hx_kpb_k").set_value(35).run()
    assert not errors(at)
    add(at, "kpb", "slow", k=30)
    assert not errors(at) and labels(at)[-1] == "slow"


def test_copies_show_their_parameters_and_a_single_copy_keeps_its_label():
    at = app(PAGE)
    assert labels(at) == ["mct", "kpb", "min-min", "sufferage"]
    add(at, "kpb", k=10)
    assert labels(at) == ["mct", "kpb (k=20)", "min-min", "sufferage", "kpb (k=10)"]
    assert "**kpb (k=20)** · K-percent best · immediate mode · k=20, kbar=off" in [m.value for m in at.markdown]
    at.button(key="hx_remove_4").click().run()
    assert at.session_state["scenario"] == preset("quickstart")  # a single copy again: exactly the preset


def test_labels_of_copies_survive_a_save_and_load():
    at = app(PAGE)
    add(at, "kpb", k=10)
    add(at, "min-min", interval=5.0)
    sc = at.session_state["scenario"]
    assert labels(at)[-4:] == ["min-min (interval=10)", "sufferage", "kpb (k=10)", "min-min (interval=5)"]
    assert parse_scenario(sc.to_json()) == sc
    assert parse_scenario(sc.to_toml(), "toml") == sc


def test_typed_labels_stay_and_count_as_copies():
    at = app(PAGE)
    add(at, "kpb", "fast kpb", k=10)
    assert labels(at)[1] == "kpb (k=20)" and labels(at)[-1] == "fast kpb"


def test_benchmark_follows_its_heuristic_when_relabelled():
    at = app(PAGE)
    at.selectbox(key="hx_benchmark").set_value("kpb").run()
    assert at.session_state["scenario"].benchmark == "kpb"
    add(at, "kpb", k=10)
    assert at.session_state["scenario"].benchmark == "kpb (k=20)"
    assert at.selectbox(key="hx_benchmark").value == "kpb (k=20)"
    at.button(key="hx_remove_4").click().run()
    assert at.session_state["scenario"].benchmark == "kpb" and not errors(at)


def test_kbar_is_a_whole_number_of_machines():
    at = app(PAGE)
    at.selectbox(key="hx_name").set_value("kpb").run()
    at.checkbox(key="hx_kpb_kbar_on").check().run()
    kbar = at.number_input(key="hx_kpb_kbar")
    assert kbar.proto.format == "%d" and kbar.step == 1 and isinstance(kbar.value, int)
    assert isinstance(at.number_input(key="hx_kpb_k").value, float)  # k is a percentage: fractions allowed
    kbar.set_value(2)
    at.button(key="hx_add").click().run()
    assert labels(at)[-1] == "kpb (kbar=2)" and labels(at)[1] == "kpb (kbar=off)"  # both name kbar
    shown = [m.value for m in at.markdown if m.value.startswith("**kpb (kbar=2)**")]
    assert shown and shown[0].endswith("k=20, kbar=2") and "2.0" not in shown[0]


def test_class_model_uses_its_own_heuristics():
    at = app(PAGE)
    at.session_state["scenario"] = preset("alazzoni-B")
    at.run()
    assert labels(at) == ["mct", "kpb (kbar=1)", "lpas"]
    add(at, "kpb")
    assert labels(at) == ["mct", "kpb (kbar=1)", "lpas", "kpb (kbar=off)"] and not errors(at)
    assert all(h.model == "classes" for h in at.session_state["scenario"].heuristics)


# --- invalid parameters said inline at once; errors of a replaced scenario go ---------------------------------------
def test_an_invalid_parameter_is_said_under_its_field_at_once_and_add_refuses_it():
    at = app(PAGE)
    before = at.session_state["scenario"]
    at.selectbox(key="hx_name").set_value("kpb").run()
    k = at.number_input(key="hx_kpb_k")
    # no bounds in the browser: a bounded field refuses -3 there and silently keeps 20, which Add then used
    assert not k.proto.has_min and not k.proto.has_max
    k.set_value(-3).run()  # no Add: the message is there at once, under the field, with the field, value and range
    order = [(n.type, getattr(n, "key", None)) for n in at.main]
    assert order[order.index(("number_input", "hx_kpb_k")) + 1][0] == "error"
    assert errors(at) == ["heuristic 'kpb', parameter 'k': -3.0 is out of range; allowed: a number > 0 and <= 100"]
    assert at.button(key="hx_add").disabled
    at.number_input(key="hx_kpb_k").set_value(30).run()  # corrected: the message goes, Add adds the value shown
    assert not errors(at) and not at.button(key="hx_add").disabled
    at.button(key="hx_add").click().run()
    assert labels(at) == [*(h.label for h in before.heuristics[:1]), "kpb (k=20)", "min-min", "sufferage", "kpb (k=30)"]


def test_a_click_sent_with_an_invalid_edit_adds_nothing():
    """The browser sends the edit and the Add click together when Add is clicked straight after typing."""
    at = app(PAGE)
    before = at.session_state["scenario"]
    at.selectbox(key="hx_name").set_value("kpb").run()
    at.number_input(key="hx_kpb_k").set_value(150)
    at.button(key="hx_add").click().run()
    assert at.session_state["scenario"] == before
    assert errors(at) == ["heuristic 'kpb', parameter 'k': 150.0 is out of range; allowed: a number > 0 and <= 100",
                          "Not added: correct the parameters marked above first."]


def test_an_empty_field_or_a_bad_whole_number_is_refused_inline():
    at = app(PAGE)
    at.selectbox(key="hx_name").set_value("kpb").run()
    at.number_input(key="hx_kpb_k").set_value(None).run()
    assert errors(at) == ["heuristic 'kpb', parameter 'k': a value is required; allowed: a number > 0 and <= 100"]
    assert at.button(key="hx_add").disabled
    at.number_input(key="hx_kpb_k").set_value(20).run()
    at.checkbox(key="hx_kpb_kbar_on").check().run()
    at.number_input(key="hx_kpb_kbar").set_value(0).run()
    assert errors(at) == ["heuristic 'kpb', parameter 'kbar': 0 is out of range; allowed: a number >= 1"]
    at.number_input(key="hx_kpb_kbar").set_value(None).run()  # kbar on with an empty field is not "off"
    assert errors(at) == ["heuristic 'kpb', parameter 'kbar': a value is required; allowed: a number >= 1"]
    at.checkbox(key="hx_kpb_kbar_on").uncheck().run()
    assert not errors(at) and not at.button(key="hx_add").disabled


def test_a_heuristics_own_check_is_said_before_add():
    at = app(PAGE)
    at.session_state["scenario"] = preset("kim-tight-high-heavy")
    at.run()
    at.selectbox(key="hx_name").set_value("switching").run()
    at.number_input(key="hx_switching_low").set_value(0.95).run()
    assert any("low (0.95) must not exceed high (0.9)" in e for e in errors(at)) and at.button(key="hx_add").disabled


def test_an_error_goes_when_the_scenario_it_concerns_is_replaced():
    at = app("app.py")
    at.switch_page(PAGE).run()
    add(at, "kpb", "mct", k=10)
    assert any("'mct' is used twice" in e for e in errors(at))
    at.switch_page("pages/scenario.py").run()
    at.button(key="sc_load_preset").click().run()  # the preset reloaded: an equal scenario, but a new one
    at.switch_page(PAGE).run()
    assert not errors(at)


# --- the value model's step7 can be off -----------------------------------------------------------------------------
def test_step7_off_can_be_chosen():
    at = app(PAGE)
    at.session_state["scenario"] = preset("kim-tight-high-heavy")
    at.run()
    at.selectbox(key="hx_name").set_value("min-min").run()
    assert at.selectbox(key="hx_min-min_step7").options == ["on", "off"]
    at.selectbox(key="hx_min-min_step7").set_value("off").run()
    at.button(key="hx_add").click().run()
    assert not errors(at)
    added = at.session_state["scenario"].heuristics[-1]
    assert added.label == "min-min (step7=off)" and added.kwargs == {"step7": "off"}
    assert labels(at)[2] == "min-min (step7=on)"  # the other copy names step7 too


# --- silent changes ---------------------------------------------------------------------------------------------------
def infos(at):
    return [i.value for i in at.info]


def test_removing_the_benchmark_says_which_heuristic_replaces_it():
    """Removing Min-min switched "Normalise makespan to" to MCT without a word."""
    at = app(PAGE)
    assert at.selectbox(key="hx_benchmark").value == "min-min" and not at.session_state["scenario"].benchmark
    at.button(key="hx_remove_2").click().run()  # min-min
    assert labels(at) == ["mct", "kpb", "sufferage"] and at.selectbox(key="hx_benchmark").value == "mct"
    order = [(n.type, getattr(n, "key", None)) for n in at.main]
    assert order[order.index(("selectbox", "hx_benchmark")) + 1][0] == "info"  # said under the benchmark
    said = ("Makespan is now normalised to **mct**, not min-min: min-min, the benchmark, was removed. "
            "Choose another above.")
    assert said in infos(at)
    at.selectbox(key="hx_name").set_value("kpb").run()  # an edit of the form: still said
    assert said in infos(at)
    add(at, "min-min")  # the default prefers it again: said too
    assert at.selectbox(key="hx_benchmark").value == "min-min"
    assert ("Makespan is now normalised to **min-min**, not mct: min-min was added, and the default benchmark is "
            "min-min, else mct, if chosen. Choose another above.") in infos(at)
    add(at, "kpb", k=10)  # the benchmark stays: nothing said
    assert not [i for i in infos(at) if "normalised to" in i]
    at.selectbox(key="hx_benchmark").set_value("sufferage").run()  # the user's own choice: nothing said
    assert not [i for i in infos(at) if "normalised to" in i]
    at.button(key="hx_remove_0").click().run()  # not the benchmark: nothing said
    assert at.selectbox(key="hx_benchmark").value == "sufferage" and not [i for i in infos(at) if "normalised to" in i]


def test_a_heuristics_or_benchmark_edit_never_keeps_the_presets_description():
    """Quickstart's description ("MCT and KPB (immediate) against Min-min and Sufferage ...") stayed on Home and in the
    exported JSON after Min-min was removed; a benchmark chosen on this page is named in it too."""
    at = app("app.py")
    original = preset("quickstart").description
    at.switch_page(PAGE).run()
    at.button(key="hx_remove_2").click().run()
    sc = at.session_state["scenario"]
    assert (sc.name, sc.description) == ("quickstart (edited)", "Edited from quickstart: min-min removed; benchmark "
                                                                "min-min → mct (by default).")
    assert json.loads(sc.to_json())["description"] == sc.description  # what "Download scenario (JSON)" is given
    at.switch_page("app.py").run()
    shown = [m.value for m in at.markdown]
    assert sc.description in shown and not any(original in m for m in shown)
    at.switch_page(PAGE).run()
    add(at, "min-min")
    at.selectbox(key="hx_benchmark").set_value("kpb").run()
    assert at.session_state["scenario"].description == ("Edited from quickstart: heuristics reordered; benchmark "
                                                        "min-min → kpb.")
    at.switch_page("pages/scenario.py").run()  # edits on the Scenario page add to it
    at.number_input(key="sc_w_machines").set_value(6).run()
    assert at.session_state["scenario"].description == ("Edited from quickstart: machines 8 → 6; "
                                                        "heuristics reordered; benchmark min-min → kpb.")
