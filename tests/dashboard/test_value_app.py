"""The value model's dashboard module: the editor (inline errors, nothing lost), V as % of UB with the UB line,
tasks by priority and outcome, the Gantt chart coloured by deadline outcome."""

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, bar_values, open_results, plotly_charts  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.models.value import MODEL  # noqa: E402


def test_switch_to_the_model_edit_and_keep_an_invalid_edit_inline():
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    at.radio(key="sc_w_model").set_value("value").run()
    confirm = [b for b in at.button if b.key == "sc_model_confirm"]
    if confirm:
        confirm[0].click().run()
    assert not at.exception, at.exception
    assert at.session_state["scenario"] == preset("kim-loose-high-heavy")
    at.selectbox(key="sc_w_v_weighting").set_value("light").run()
    at.selectbox(key="sc_w_v_deadlines").set_value("tight").run()
    window = at.number_input(key="sc_w_v_window_b")  # the window in words first, the paper's symbol after
    assert window.label == "Window start, B (s)" and "earns nothing" in window.help
    assert "Steady-state window: the value counted (section 2.2.3)" in [h.value for h in at.subheader]
    window.set_value(300.0).run()
    at.number_input(key="sc_w_v_machines").set_value(6).run()
    assert not at.exception, at.exception
    spec = at.session_state["scenario"].spec
    assert (spec.weight_values, spec.multiplier_values, spec.window, spec.machines) == \
        ((4.0, 2.0, 1.0), (1.0, 2.0, 4.0), (300.0, 15000.0), 6)
    # own multipliers, not increasing: an inline error naming the field; the typed values stay, the scenario too
    at.selectbox(key="sc_w_v_deadlines").set_value("own").run()
    at.number_input(key="sc_w_v_mult_D50").set_value(0.5).run()
    assert any("'multipliers'" in e.value for e in at.error), [e.value for e in at.error]
    assert at.session_state["scenario"].spec.multipliers == (1.0, 2.0, 4.0)  # "own" starts from tight's
    assert at.number_input(key="sc_w_v_mult_D50").value == 0.5
    assert at.session_state["scenario_problem"]
    at.number_input(key="sc_w_v_mult_D50").set_value(3.0).run()
    assert not at.error
    assert at.session_state["scenario"].spec.multipliers == (1.0, 3.0, 4.0)
    # the window must have B < E; then own weights and priority shares
    at.number_input(key="sc_w_v_window_e").set_value(200.0).run()
    assert any("'window'" in e.value for e in at.error)
    assert at.session_state["scenario"].spec.window == (300.0, 15000.0)
    at.number_input(key="sc_w_v_window_e").set_value(14000.0).run()
    at.selectbox(key="sc_w_v_weighting").set_value("own").run()
    at.number_input(key="sc_w_v_weight_high").set_value(10.0).run()
    at.number_input(key="sc_w_v_share_low").set_value(0.0).run()
    spec = at.session_state["scenario"].spec
    assert spec.weights == (10.0, 2.0, 1.0) and spec.priority_shares[2] == 0.0 and spec.window == (300.0, 14000.0)
    at.selectbox(key="sc_w_v_const_mode").set_value("trial").run()
    assert at.session_state["scenario"].spec.deadline_constant == "trial"
    assert not at.exception, at.exception
    # a cleared count keeps its value and says so (Streamlit alone would make it 0 bursts, silently)
    bursts = at.session_state["scenario"].spec.bursts
    at.number_input(key="sc_w_v_bursts").set_value(None).run()
    assert at.number_input(key="sc_w_v_bursts").value == bursts == at.session_state["scenario"].spec.bursts
    assert any("Bursts: a number is needed" in c.value for c in at.caption)


def test_results_page_draws_value_bars_with_the_ub_line_outcomes_and_the_outcome_gantt():
    sc = MODEL.tiny()
    df = simulate(sc, jobs=1)
    at = open_results(sc, df, timeout=90)
    figs = plotly_charts(at)
    labels = [h.label for h in sc.heuristics]
    pct = [f for f in figs
           if f["layout"].get("xaxis", {}).get("title", {}).get("text", "").startswith("value, % of the upper bound")]
    assert len(pct) == 1 and pct[0] is figs[0]  # once, first under the verdict (the shared bars would repeat it)
    rest, early = pct[0]["data"]  # each bar: the value earned in the window's tasks, then a grey end (those before B)
    names, values = bar_values(rest)
    assert names == labels
    means = df.groupby("heuristic")["value_pct_ub"].mean()
    early_means = (100 * df["value_early"] / df["upper_bound"]).groupby(df["heuristic"]).mean()
    assert bar_values(early)[1] == pytest.approx(early_means.loc[labels].to_numpy())
    assert values + bar_values(early)[1] == pytest.approx(means.loc[labels].to_numpy())
    assert "error_x" in early and pct[0]["layout"]["shapes"][0]["x0"] == 100.0  # UB as the 100% line
    [dotted] = [s for s in pct[0]["layout"]["shapes"] if s["line"].get("dash") == "dot"]  # the later tasks' bound
    assert dotted["x0"] == pytest.approx((100 * df["upper_bound_later"] / df["upper_bound"]).mean())
    assert any("The dotted line at " in c.value and "is the most the later tasks can earn" in c.value
               for c in at.caption)
    outcome = [f for f in figs if f["layout"].get("barmode") == "stack" and f is not pct[0]]
    assert len(outcome) == 1
    names = [d["name"] for d in outcome[0]["data"]]
    assert names == ["by 1st deadline", "by 2nd deadline", "by 3rd deadline", "after 3rd deadline", "never started"] * 3
    high_d100 = df.groupby("heuristic")["met_d100_high"].mean().loc[labels].to_numpy()
    assert bar_values(outcome[0]["data"][0])[1] == pytest.approx(high_d100)
    total = sum(bar_values(d)[1] for d in outcome[0]["data"])
    assert total == pytest.approx(df.groupby("heuristic")["tasks"].mean().loc[labels].to_numpy())
    gantt = [f for f in figs if f["layout"].get("legend", {}).get("title", {}).get("text") == "deadline outcome"
             and f["layout"].get("barmode") == "overlay"]
    assert len(gantt) == 1
    assert all("priority" in d["hovertemplate"] for d in gantt[0]["data"])
    assert {d["name"] for d in gantt[0]["data"]} <= {"by 1st deadline", "by 2nd deadline", "by 3rd deadline",
                                                      "after 3rd deadline"}
    # titles in plain words; the paper's figures named in the caption (the manager's review)
    subheaders = [h.value for h in at.subheader]
    assert "Value as % of the upper bound" not in subheaders  # the chart's own title says it, once
    assert pct[0]["layout"]["title"]["text"].startswith("Value as % of the upper bound")
    assert not any("Fig" in h for h in subheaders)
    assert any(c.value.startswith("The upper bound on value is") for c in at.caption)
    # what the grey ends are, in words: the start-up tasks' value once scoring has started, not value before it
    assert any("The grey end of each bar is what the start-up tasks, which arrive before scoring starts, earn once "
               "it has started" in c.value for c in at.caption)
    assert not any("Fig" in c.value or "(D100" in c.value for c in at.caption)  # the paper's figures: folded, below
    assert not any("section" in (a.get("text") or "") for a in pct[0]["layout"].get("annotations", []))
    # the per-priority table of one trial, headed in the model's own outcome words (not met_d100 ... never_started)
    [counts] = [d.value for d in at.dataframe if "by 1st deadline (full value)" in d.value.columns]
    assert list(counts.columns) == ["by 1st deadline (full value)", "by 2nd deadline (half value)",
                                    "by 3rd deadline (a quarter of its value)", "after 3rd deadline (5% of its value)",
                                    "never started (no value)"]
    assert list(counts.index) == ["high priority", "medium priority", "low priority"]


def test_explain_page_steps_through_the_worked_examples():
    at = AppTest.from_file(str(ROOT / "pages/explain.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    at.selectbox(key="ex_model").set_value("value").run()
    assert not at.exception, at.exception
    at.selectbox(key="v_explain_example").set_value("table4").run()
    at.selectbox(key="v_explain_h").set_value("max-max").run()
    assert not at.exception, at.exception
    rounds = [d.value for d in at.dataframe][1:]
    assert len(rounds) == 2 and rounds[1]["fitness"].tolist() == [0.1111, 0.1136]
    assert any("t2 → m2 (done at 12), t1 → m2 (done at 16.4)" in m.value for m in at.markdown)
    at.selectbox(key="v_explain_h").set_value("slack-sufferage").run()
    table = at.dataframe[1].value
    assert table["PS on m1"].tolist() == [0.25, 0.4444] and table["PS on m2"].tolist() == [0.45, 0.2]


WIDGETS = [  # (kind, key, the two values set in turn, how the scenario's spec shows it)
    ("number_input", "v_machines", (6, 8), lambda s: s.machines),
    ("number_input", "v_duration", (12000.0, 15000.0), lambda s: s.duration),
    ("number_input", "v_startup", (300.0, 600.0), lambda s: s.startup),
    ("number_input", "v_startup_gap", (4.0, 3.5), lambda s: s.startup_gap),
    ("number_input", "v_gap", (12.0, 14.0), lambda s: s.gap),
    ("number_input", "v_bursts", (2, 3), lambda s: s.bursts),
    ("number_input", "v_burst_length", (300.0, 600.0), lambda s: s.burst_length),
    ("number_input", "v_burst_gap", (6.0, 7.0), lambda s: s.burst_gap),
    ("number_input", "v_task_mean", (120.0, 180.0), lambda s: s.task_mean),
    ("selectbox", "v_het", ("low", "high"), lambda s: s.heterogeneity),
    ("number_input", "v_atc_cov", (0.2, 0.1), lambda s: s.atc_cov),
    ("selectbox", "v_available", ("expected", "actual"), lambda s: s.machine_available),
    ("checkbox", "v_timing", (True, False), lambda s: s.event_timing),
    ("number_input", "v_share_high", (2.0, 1.0), lambda s: s.priority_shares[0]),
    ("selectbox", "v_weighting", ("light", "heavy"), lambda s: s.weighting),
    ("selectbox", "v_deadlines", ("tight", "loose"), lambda s: s.deadlines),
    ("number_input", "v_const", (100.0, 144.0), lambda s: s.deadline_constant),
    ("selectbox", "v_const_mode", ("number", "trial"),
     lambda s: "trial" if s.deadline_constant == "trial" else "number"),
    ("number_input", "v_window_b", (300.0, 600.0), lambda s: s.window[0]),
    ("number_input", "v_window_e", (11000.0, 15000.0), lambda s: s.window[1]),
]


def _press_every_widget_twice(at):
    for round_ in (0, 1):
        for kind, key, values, read in WIDGETS:
            if key == "v_const" and at.session_state["scenario"].spec.deadline_constant == "trial":
                at.selectbox(key="sc_w_v_const_mode").set_value("number").run()  # the field is disabled meanwhile
            getattr(at, kind)(key=f"sc_w_{key}").set_value(values[round_]).run()
            assert not at.exception, (key, at.exception)
            assert not at.error, (key, [e.value for e in at.error])
            assert read(at.session_state["scenario"].spec) == values[round_], key


def test_every_editor_widget_twice_then_after_switching_preset_and_model():
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.run()
    at.radio(key="sc_w_model").set_value("value").run()
    assert at.session_state["scenario"] == preset("kim-loose-high-heavy")
    _press_every_widget_twice(at)
    at.selectbox(key="sc_preset").set_value("kim-tight-low-light").run()  # loads at once (Undo offered)
    assert not at.exception and at.session_state["scenario"] == preset("kim-tight-low-light")
    assert at.selectbox(key="sc_w_v_deadlines").value == "tight" and at.number_input(key="sc_w_v_machines").value == 8
    at.radio(key="sc_w_model").set_value("etc").run()  # an unedited preset: switches at once
    at.radio(key="sc_w_model").set_value("value").run()
    assert not at.exception and at.session_state["scenario"] == preset("kim-loose-high-heavy")
    assert at.selectbox(key="sc_w_v_deadlines").value == "loose"  # no widget keeps the other scenario's value
    _press_every_widget_twice(at)


def test_home_tile_writes_the_expected_tasks_with_a_thousands_separator():
    """Home's tile said "1329" under a caption saying "about 1,329 tasks"."""
    from helpers import app

    at = app("app.py", scenario=preset("kim-loose-high-heavy"))
    assert not at.exception, at.exception
    assert [m.value for m in at.metric if m.label == "Tasks per trial (expected)"] == ["1,329"]
