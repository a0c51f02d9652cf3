"""The Explain page with Streamlit's AppTest: the ETC model's worked examples of seed 000 (Tables 1-3), stepping,
parameters, the scenario's own matrix, and the System selector."""

import dataclasses
import json

import numpy as np
import pytest

pytest.importorskip("streamlit")
from helpers import TABLE2_ETC  # noqa: E402
from helpers import app as open_page

from hcsched import get_model, model_names, preset  # noqa: E402
from hcsched.models.etc.spec import EtcSpec  # noqa: E402

OWN = "The scenario's own matrix"
TABLE_3 = "Table 3 (batch mode)"



def app(scenario=None):
    return open_page("pages/explain.py", **({} if scenario is None else {"scenario": scenario}))


def step_title(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Step"))


def buttons(at) -> dict:
    """Each stepping button's disabled state."""
    return {k: at.button(key=k).disabled for k in ("ex_prev", "ex_next", "ex_restart")}


def click(at, key, times=1):
    for _ in range(times):
        at.button(key=key).click().run()
        assert not at.exception, at.exception
    return at


def with_matrix(rows) -> object:
    return dataclasses.replace(preset("quickstart"), etc=EtcSpec(method="matrix", matrix=tuple(map(tuple, rows))))


def test_explain_steps_through_kpb():
    at = app()
    assert "2 fastest machine(s) for t0 are m2, m1" in at.success[0].value
    at.button(key="ex_next").click().run()
    at.button(key="ex_next").click().run()
    assert "t2 completes earliest on m0" in at.success[0].value
    assert any("all tasks complete by 130" in m.value for m in at.markdown)


def test_explain_sufferage_table3():
    at = app()
    at.selectbox(key="ex_example").set_value("Table 3 (batch mode)").run()
    at.selectbox(key="ex_heuristic").set_value("sufferage").run()
    table = at.dataframe[1].value
    assert table["outcome"].tolist()[0] == "displaced by t1; waits for the next pass"
    for _ in range(2):
        at.button(key="ex_next").click().run()
    assert any("makespan (largest ready time) 78" in m.value for m in at.markdown)


def test_first_visit_opens_tables_1_2_with_kpb_at_the_papers_k():
    at = app()
    assert (at.selectbox(key="ex_example").value, at.selectbox(key="ex_heuristic").value) == (
        "Tables 1 and 2 (immediate mode)", "kpb")
    assert at.number_input(key="ex_p_kpb_k").value == 67 and at.number_input(key="ex_p_kpb_kbar").value is None
    assert step_title(at) == "**Step 1 of 3: t0 arrives**"
    assert buttons(at) == {"ex_prev": True, "ex_next": False, "ex_restart": False}


def test_next_and_previous_show_the_step_they_lead_to():
    at = click(app(), "ex_next")
    assert step_title(at).startswith("**Step 2 of 3") and buttons(at)["ex_prev"] is False
    assert "t1 completes earliest on m0: 75 + 20 = 95" in at.success[0].value
    click(at, "ex_prev")
    assert step_title(at).startswith("**Step 1 of 3") and buttons(at)["ex_prev"] is True


def test_last_step_disables_next():
    at = click(app(), "ex_next", 2)
    assert step_title(at).startswith("**Step 3 of 3")
    assert buttons(at) == {"ex_prev": False, "ex_next": True, "ex_restart": False}
    assert any("all tasks complete by 130" in m.value for m in at.markdown)


def test_restart_shows_step_1_with_previous_disabled_and_next_enabled():
    at = click(click(app(), "ex_next", 2), "ex_restart")
    assert step_title(at).startswith("**Step 1 of 3")
    assert buttons(at) == {"ex_prev": True, "ex_next": False, "ex_restart": False}
    assert "2 fastest machine(s) for t0 are m2, m1" in at.success[0].value


def test_new_example_starts_at_step_1_with_its_own_heuristic_and_parameters():
    at = click(app(), "ex_next", 2)
    at.number_input(key="ex_p_kpb_k").set_value(20.0).run()
    at.selectbox(key="ex_example").set_value(TABLE_3).run()
    assert at.selectbox(key="ex_heuristic").value == "sufferage"
    assert step_title(at) == "**Step 1 of 3: pass 1**" and buttons(at)["ex_prev"] is True
    click(at, "ex_next")
    at.selectbox(key="ex_example").set_value("Tables 1 and 2 (immediate mode)").run()
    assert at.selectbox(key="ex_heuristic").value == "kpb" and at.number_input(key="ex_p_kpb_k").value == 67
    assert step_title(at).startswith("**Step 1 of 3")


def test_new_heuristic_starts_at_step_1_with_the_examples_parameters():
    at = click(app(), "ex_next")
    at.selectbox(key="ex_heuristic").set_value("sa").run()
    assert (at.number_input(key="ex_p_sa_low").value, at.number_input(key="ex_p_sa_high").value) == (0.4, 0.7)
    assert step_title(at).startswith("**Step 1 of 3")
    assert "r_min/r_max = 75/200 = 0.375, thresholds 0.4 and 0.7: SA uses MCT" in at.success[0].value
    at.selectbox(key="ex_example").set_value(TABLE_3).run()
    at.selectbox(key="ex_heuristic").set_value("min-min").run()
    assert step_title(at) == "**Step 1 of 4: iteration 1**"
    assert any("do not change the steps" in c.value for c in at.caption)  # batch parameters: no widgets, said why


def test_changing_kpb_k_changes_the_trace():
    at = app()
    at.number_input(key="ex_p_kpb_k").set_value(100.0).run()  # k = 100 is MCT (section 3.2)
    assert ("3 fastest machine(s) for t0 are m2, m1, m0; among them t0 completes earliest on m0: 75 + 50 = 125"
            in at.success[0].value)
    click(at, "ex_next", 2)
    # MCT's m0, m0, m1 (worked examples, Tables 1 and 2)
    assert any("all tasks complete by 160" in m.value for m in at.markdown)
    at.number_input(key="ex_p_kpb_kbar").set_value(1.0).run()  # one machine: MET
    assert step_title(at).startswith("**Step 1 of 3") and "1 fastest machine(s) for t0 are m2" in at.success[0].value


@pytest.mark.parametrize("key, value, words", [
    ("ex_p_kpb_k", 0.0, "parameter 'k': 0.0 is out of range; allowed: a number > 0 and <= 100"),
    ("ex_p_kpb_k", 150.0, "parameter 'k': 150.0 is out of range"),
    ("ex_p_kpb_kbar", 1.5, "kbar (1.5) must be a whole number of machines")])
def test_bad_parameter_answered_inline(key, value, words):
    at = app()
    at.number_input(key=key).set_value(value).run()
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith("heuristic 'kpb'") and words in at.error[0].value
    at.number_input(key=key).set_value(None if "kbar" in key else 67.0).run()
    assert not at.error and "2 fastest machine(s) for t0 are m2, m1" in at.success[0].value


def test_sa_thresholds_in_the_wrong_order_answered_inline():
    at = app()
    at.selectbox(key="ex_heuristic").set_value("sa").run()
    at.number_input(key="ex_p_sa_low").set_value(0.8).run()
    assert not at.exception and "low (0.8) must be smaller than high (0.7)" in at.error[0].value


def test_own_small_matrix_is_offered_and_traced():
    at = app(with_matrix(TABLE2_ETC))
    assert OWN in at.selectbox(key="ex_example").options
    assert any("traces the loaded scenario's 3 × 3 matrix" in c.value for c in at.caption)
    click(at, "ex_next")
    at.selectbox(key="ex_example").set_value(OWN).run()
    # the heuristic stays (the matrix has no heuristic of its own), with its defaults: k = 20% of 3 machines is 1 (MET)
    assert at.selectbox(key="ex_heuristic").value == "kpb" and at.number_input(key="ex_p_kpb_k").value == 20
    assert (step_title(at).startswith("**Step 1 of 3")
            and "Ready times before: m0 = 0, m1 = 0, m2 = 0" in [m.value for m in at.markdown])
    click(at, "ex_next", 2)
    assert any("t0→m2, t1→m2, t2→m2; all tasks complete by 45" in m.value for m in at.markdown)
    at.selectbox(key="ex_heuristic").set_value("mct").run()
    click(at, "ex_next", 2)
    assert any("t0→m2, t1→m0, t2→m2; all tasks complete by 30" in m.value for m in at.markdown)


@pytest.mark.parametrize("scenario, words", [
    (preset("quickstart"), "the loaded scenario draws a new matrix each trial (method 'range')"),
    (with_matrix(np.ones((31, 2))), "the loaded scenario's matrix has 31 tasks"),
    (preset("alazzoni-B"), "the loaded scenario is of the Task classes with rates (Al-Azzoni and Down) model"),
])
def test_says_why_the_scenarios_own_matrix_is_not_offered(scenario, words):
    at = app(scenario)
    if scenario.model != "etc":
        at.selectbox(key="ex_model").set_value("etc").run()
    assert OWN not in at.selectbox(key="ex_example").options
    note = next(c.value for c in at.caption if OWN in c.value)
    assert "needs an ETC scenario with its own matrix of at most 30 tasks" in note and words in note


def test_outcome_column_is_wide_enough_to_read():
    at = app()
    at.selectbox(key="ex_example").set_value(TABLE_3).run()
    table, columns = at.dataframe[1].value, json.loads(at.dataframe[1].proto.columns)
    assert table.columns[-1] == "outcome"
    assert columns["outcome"]["width"] >= 7 * table["outcome"].str.len().max()  # about 7 px a character


def test_other_systems_explain_without_error_and_back():
    at = click(app(), "ex_next")
    titles = at.selectbox(key="ex_model").options  # the models with an Explain, shown by title
    others = [n for n in model_names() if n != "etc" and get_model(n).title in titles]
    assert others  # the time-shared model has one
    for name in others:
        at.selectbox(key="ex_model").set_value(name).run()
        assert not at.exception, (name, at.exception)
    at.selectbox(key="ex_model").set_value("etc").run()
    assert not at.exception and step_title(at).startswith("**Step 1 of 3")


def test_the_finished_mapping_against_the_bound_and_one_improvement_step_at_a_time():
    """Table 3 mapped by Min-min (makespan 93): the LP bound 60.5809 (tasks split), then lp-search's local search
    swaps t2 (m3 -> m0) with t0 (m0 -> m3): m3 falls from 93 to 50, m0 ends at 55, and the makespan falls to 88."""
    at = app()
    at.selectbox(key="ex_example").set_value(TABLE_3).run()
    at.selectbox(key="ex_heuristic").set_value("min-min").run()
    assert not [s for s in at.subheader if s.value == "How far from the best possible"]  # only once the mapping is done
    click(at, "ex_next", 3)
    assert [s.value for s in at.subheader] == ["How far from the best possible"]
    texts = " ".join(m.value for m in at.markdown)
    assert ("Lower bound (the LP relaxation: tasks may be split between machines): 60.5809. "
            "This mapping's makespan 93 is 53.5% above it" in texts)
    assert "swap): t2 from m3 to m0; t0 from m0 to m3" in texts
    assert "m3 is critical (load 93 = makespan)" in at.success[-1].value and "falls to 88" in at.success[-1].value
    assert at.button(key="ex_unimprove").disabled
    click(at, "ex_improve")
    texts = " ".join(m.value for m in at.markdown)
    assert "After 1 improvement step, the mapping's makespan 88 is 45.3% above it" in texts
    assert "t0→m3, t1→m2, t2→m0, t3→m1" in at.caption[-1].value
    while any(b.key == "ex_improve" for b in at.button):  # to a local optimum, each step lower or fewer at the top
        click(at, "ex_improve")
    assert "a local optimum" in at.info[-1].value
    click(at, "ex_unimprove")
    assert "This mapping's makespan 93" in " ".join(m.value for m in at.markdown)
    at.selectbox(key="ex_example").set_value("Tables 1 and 2 (immediate mode)").run()
    at.selectbox(key="ex_heuristic").set_value("mct").run()
    click(at, "ex_next", 2)
    assert "This mapping's makespan 200 equals the lower bound: no mapping does better." in \
        " ".join(m.value for m in at.markdown)
