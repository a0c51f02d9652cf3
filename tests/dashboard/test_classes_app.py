"""The task-class model's dashboard part: an invalid edit refuses runs, and the Results page's number in system over
time, averaged over replications, of the heuristics chosen."""

import numpy as np
import pytest
from helpers import ROOT, open_results, plotly_array, plotly_charts

st = pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, trial_runs  # noqa: E402
from hcsched.curve_charts import mean_band  # noqa: E402


def edit_rates(at, rates: dict) -> None:
    """The rate table's edits so far, as the data editor holds them: {row: rate}."""
    at.session_state["sc_w_alpha_editor"] = {"edited_rows": {row: {"arrival rate": r} for row, r in rates.items()},
                                             "added_rows": [], "deleted_rows": []}
    at.run()


def test_an_invalid_arrival_rate_refuses_run_until_it_is_fixed():
    """Seen in a browser: the editor showed a rate of -5 in red, and Run still ran the last valid scenario."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/scenario.py").run()
    at.radio(key="sc_w_model").set_value("classes").run()
    edit_rates(at, {0: 6.0})  # a valid edit first: kept
    good = at.session_state["scenario"]
    assert good.classes.arrival_rates == (6.0, 8.0)
    edit_rates(at, {0: 6.0, 1: -5.0})
    message = next(e.value for e in at.error)
    assert "arrival_rates" in message and "-5" in message and "from 1e-12" in message and "Runs are refused" in message
    assert at.session_state["scenario"] == good
    at.switch_page("pages/run.py").run()
    assert at.button(key="run_start").disabled
    assert any("invalid edit" in e.value and "-5" in e.value for e in at.error)
    # back on the Scenario page the table still shows what was typed, valid edit included, and runs stay refused
    at.switch_page("pages/scenario.py").run()
    assert list(at.session_state["sc_alpha_base"]["arrival rate"]) == [6.0, -5.0]
    assert any("-5" in e.value for e in at.error) and at.session_state["scenario"] == good
    edit_rates(at, {1: 7.0})  # the editor starts from the table as last shown
    assert not [e for e in at.error if "rate" in e.value]
    assert at.session_state["scenario"].classes.arrival_rates == (6.0, 7.0)
    at.switch_page("pages/run.py").run()
    assert not at.button(key="run_start").disabled


@pytest.fixture(scope="module")
def results_page():
    sc = preset("alazzoni-B").replace(trials=3)
    return sc, open_results(sc)


def in_system_chart(at) -> dict:
    return next(f for f in plotly_charts(at)
                if "Tasks in the system over time" in f["layout"].get("title", {}).get("text", ""))


def test_results_page_draws_the_mean_number_in_system_over_replications_of_the_heuristics_chosen(results_page):
    sc, at = results_page
    labels = [h.label for h in sc.heuristics]
    shown = at.multiselect(key="results_shown")
    from hcsched.models.classes.heuristics import said_name as short_name  # the page's: words, no symbol

    assert shown.options == [short_name(x) for x in labels] and shown.value == labels  # all 3 by default, in words
    fig = in_system_chart(at)
    assert "lower is better" in fig["layout"]["title"]["text"]
    assert fig["layout"]["legend"]["x"] >= 1 and fig["layout"]["legend"]["xanchor"] == "left"  # outside the plot
    assert fig["layout"]["legend"]["title"]["text"] == "heuristic"
    lines = [d for d in fig["data"] if d.get("showlegend") is not False]
    bands = [d for d in fig["data"] if d.get("fill") == "toself"]
    assert [d["name"] for d in lines] == [short_name(x) for x in labels] and len(bands) == 3  # in words
    runs = [trial_runs(sc, t) for t in range(sc.trials)]  # the run's own replications
    for d, label in zip(lines, labels, strict=True):
        values = np.array([r[label].in_system for r in runs])
        mean, lower, upper = mean_band(values)
        np.testing.assert_allclose(plotly_array(d["y"]), mean)
        np.testing.assert_allclose(plotly_array(d["x"]), runs[0][label].sample_times)
        np.testing.assert_allclose(plotly_array(d["customdata"]).reshape(-1, 2), np.column_stack([lower, upper]))
    assert any("mean over all 3 trials" in c.value for c in at.caption)


def test_results_page_heuristics_chosen_and_a_budget_said_under_the_chart(results_page, monkeypatch):
    sc, at = results_page
    at.multiselect(key="results_shown").set_value(["lpas"]).run()
    assert [d["name"] for d in in_system_chart(at)["data"] if d.get("showlegend") is not False] == ["lpas"]
    import pages.models.classes

    monkeypatch.setattr(pages.models.classes, "CURVE_SECONDS", 1e-9)  # too slow for every replication: the first 2 of 3
    at.run()
    assert any("the first 2 of the 3 trials" in c.value for c in at.caption)
    at.toggle(key="results_in_system_all").set_value(True).run()
    assert any("all 3 trials" in c.value for c in at.caption)
    at.multiselect(key="results_shown").set_value([]).run()
    assert not at.exception and any("Choose at least one heuristic" in i.value for i in at.info)


def test_utilisation_is_said_to_be_neither_better_with_why(results_page):
    """Utilisation is not "higher is better" (MCT had the highest utilisation and 4x LPAS's response time): in a
    stable system it is the machine time a mapping costs (Al-Azzoni and Down, section III-B)."""
    _, at = results_page
    meaning = next(d.value for d in at.table if "meaning" in d.value.columns).set_index("column")
    assert meaning.loc["utilization", "better"] == "neither"
    assert ("Neither is better" in meaning.loc["utilization", "meaning"]
            and "MCT" in meaning.loc["utilization", "meaning"])


def test_results_page_symbols_read_as_written_and_time_units_are_said_once(results_page):
    """The manager saw "λ (lambda star)**:": the "*" of λ* opened emphasis and broke the bold of every entry."""
    import re

    from pages.models.classes import SYMBOLS, TIME_UNITS
    from pages.widgets import plain

    _, at = results_page
    words = next(e for e in at.expander if e.label == "What the short names on this page mean").markdown[0].value
    entries = words.split("\n")
    assert len(entries) == len(SYMBOLS)
    for entry, symbol in zip(entries, SYMBOLS, strict=True):
        assert entry.startswith(f"- **{plain(symbol)}**: "), entry
    assert entries[0].startswith("- **λ\\* (lambda star)**: ")
    # the escaped symbol reads as itself once rendered: no emphasis marker left unescaped inside the bold
    for entry in entries:
        bold = entry[len("- **"):entry.index("**: ")]
        assert not re.search(r"(?<!\\)[*_]", bold), bold
    said = [c.value for c in at.caption if "time units" in c.value and "no real-world unit" in c.value]
    assert len(said) == 1 and TIME_UNITS.rstrip(".") + ". How to read" in said[0]  # once, in the run's caption
    assert said[0].startswith("**alazzoni-B**"), said  # right under the lead, before the first time in time units
    assert "time units" not in SYMBOLS


def test_the_editor_reads_the_table_as_times_and_sets_the_long_phase():
    """The Scenario editor's two readings of the paper: the rate table read as mean execution times (Sharifnia's
    example, section II-B) and the hyperexponential's long phase (section III-B.6); both reach the scenario."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/scenario.py").run()
    at.radio(key="sc_w_model").set_value("classes").run()
    rates = at.session_state["scenario"].classes
    at.selectbox(key="sc_w_exec_as").set_value("times").run()
    times = at.session_state["scenario"].classes
    assert times.exec_as == "times" and times.exec_rates == rates.exec_rates
    np.testing.assert_allclose(times.mu, 1 / rates.mu)
    assert all(w.key != "sc_w_long_branch" for w in at.number_input)  # only with the hyperexponential
    assert [e.value for e in at.error] == [  # System B's rates read as times: an overloaded system, said so
        "Overloaded: the machines can keep up with only 0.04 times these arrivals (the LP's λ*). No mapping can keep "
        "up (Theorem 2); runs still work and are flagged unstable."]
    at.selectbox(key="sc_w_service").set_value("hyperexponential").run()
    at.number_input(key="sc_w_long_branch").set_value(0.01).run()
    spec = at.session_state["scenario"].classes
    assert spec.service == "hyperexponential" and spec.long_branch == 0.01 and len(at.error) == 1


def test_capacity_is_said_in_words_first_and_lambda_star_after():
    """The manager read "λ* = 1.3333 (stabilisable): the machines can keep up, even with every arrival rate 1.33 times
    higher": the paper's symbol led."""
    from pages.models.classes import shown_text, times

    assert shown_text("lambda* = 1.3333 (stabilisable)") == ("the machines can handle 1.33 times these arrivals")
    assert shown_text("lambda* = 0.8000 (overloaded: no heuristic can stabilise it)") == (
        "the machines cannot keep up with these arrivals, whatever the mapping: they can take about 80% of "
        "these arrivals")
    assert [times(x) for x in (1.3333, 1.004, 0.9996, 1.0)] == ["1.33", "1.004", "0.9996", "1.00"]
    assert shown_text("lambda* restricted to its machines is 0.9000") == "λ* restricted to its machines is 0.9000"


def test_home_says_the_capacity_in_words_with_lambda_star_in_its_help():
    from pages.models.classes import overview

    shown = {}

    class Column:
        def metric(self, label, value, delta, **kwargs):
            shown.update(label=label, value=value, delta=delta, **kwargs)

    overview(preset("alazzoni-B"), Column())
    assert (shown["label"], shown["value"], shown["delta"]) == ("Arrivals the machines can keep up with",
                                                                "1.33 × today's", "stable")
    assert "λ* = 1.3333" in shown["help"]


def test_results_lead_and_trade_off_say_the_metrics_in_words(results_page):
    """The manager read "mean number in system" and "the highest share of machines not queried": queueing jargon."""
    _, at = results_page
    caption = next(c.value for c in at.caption if "seed" in c.value)
    assert ". The machines can handle 1.33 times these arrivals" in caption
    assert "stabilisable" not in caption
    lead = next(m.value for m in at.markdown if m.value.startswith("**"))
    trade = next(m.value for m in at.markdown if m.value.startswith("But "))
    assert "has the lowest average backlog at " in lead and "number in system" not in lead
    # what kpb does not ask, and why it matters, said as what it does (the chart's term explained read as a definition)
    assert trade == ("But kpb sends fewer messages: when a task arrives, it skips the load check on half of the "
                     "machines, while lpas skips only 19% of them.")  # sized by the winner's own share


KPB_WORDS = "kpb (each class's fastest machine)"  # "kpb (kbar=1)" as a manager reads it: words, no k̄ (section II-B)
KPB_TICK = "kpb (each class's fastest)"  # on the ticks where another kpb is beside it: a few words, no symbol


def ticks(rows: list[str]) -> list[str]:
    """The ticks of the shared charts: each name over the words the lines say of it, smaller, one set of words."""
    from hcsched.charts import tick_words
    from hcsched.verdict import run_words
    from pages.models.classes import TICK_WRAP

    words = run_words(rows, "classes")
    return tick_words(rows, words.get, [r.split(" (")[0] for r in rows], TICK_WRAP)


def shown(markdown: str) -> str:
    """Markdown as its reader sees it: the escapes gone."""
    import re

    return re.sub(r"\\(.)", r"\1", markdown)


def test_kpb_is_said_in_words_first_in_the_trade_off_and_on_the_results_charts(results_page):
    """The manager read "kpb (kbar=1)" in the trade-off line and on the ticks of the bars, the per-replication boxes
    and the Gantt's panels: "kbar=1" reads as code. The categories stay the labels (as the CSVs write them)."""
    sc, at = results_page
    labels = [h.label for h in sc.heuristics]
    trade = shown(next(m.value for m in at.markdown if m.value.startswith("But ")))
    lead = shown(next(m.value for m in at.markdown if m.value.startswith("**")))
    # one description of kpb: its words where the lead first names it, its name alone in the line under it
    assert f"{KPB_WORDS}, the runner-up:" in lead and "K-percent best" not in lead
    assert trade.startswith("But kpb sends fewer messages")
    assert not [m.value for m in at.markdown if "kbar=1" in shown(m.value)]  # nowhere in a sentence
    bars, boxes = plotly_charts(at)[:2]
    for fig in (bars, boxes):
        axes = [v for k, v in fig["layout"].items() if k.startswith("yaxis")]
        assert axes and all(a["tickvals"] == labels and a["ticktext"] == ticks(labels) for a in axes)
        assert "each class's fastest machine" in axes[0]["ticktext"][1].replace("</span><br><span style='font-size"
                                                                                ":10px;color:#555'>", " ")
        assert axes[0]["ticktext"][0].startswith("mct<br>") and "minimum completion time" in axes[0]["ticktext"][0]
    gantt = next(f for f in plotly_charts(at) if "sliders" in f["layout"])
    assert [a["text"] for a in gantt["layout"]["annotations"]] == ["mct", KPB_WORDS, "lpas"]


def test_the_gantt_names_every_machine_and_labels_each_time_step_apart(results_page):
    """The Gantt of alazzoni-B opens on a window of about 5 time units late in the run: its time slider read "9,790"
    at every step, and a panel's rows were ticked as Plotly saw fit (every other row, on thin rows). Then the window
    was 5.27 long from 9,792.3 and the slider's labels read "9,792.3, 9,792.6, 9,792.9" (plotly.js wrote every third
    of its 0.1 steps); then "x, x.5, x + 1" and a download button naming "2,270 to 2,280" for a window of 2,270 to
    2,275 (tryout42e). Now the slider labels each time unit of the window, and the button names the window shown."""
    from hcsched.charts import label_stride

    _, at = results_page
    gantt = next(f for f in plotly_charts(at) if "sliders" in f["layout"])
    steps = [s["label"] for s in gantt["layout"]["sliders"][0]["steps"]]
    frames = [f["name"] for f in gantt["frames"]]
    assert len(set(steps)) > 2 and set(s["value"] for s in gantt["layout"]["sliders"][0]["steps"]) <= set(frames)
    assert gantt["layout"]["sliders"][0]["steps"][-1]["value"] == frames[-1]  # steps go to their frames by name
    length, low = at.number_input(key="results_window_length").value, at.slider(key="results_window").value
    assert length == 5 and low == round(low)  # a round window
    start, end = gantt["layout"]["xaxis"]["range"]
    assert (start, end) == (low, low + 5)
    written = steps[::label_stride(steps)]  # the labels plotly.js writes on a 1440-px-wide page
    assert written == steps == [f"{low + k:,.0f}" for k in range(6)]  # each written, one a time unit, in the window
    assert [float(f["name"]) for f in gantt["frames"]][::len(gantt["frames"]) - 1] == [low, end]
    shown = next(c.value for c in at.caption if c.value.startswith("Showing"))
    assert shown.startswith(f"Showing {low:,.0f} time units to {low + 5:,.0f} time units"), shown
    button = next(b.label for b in at.get("download_button") if b.label.startswith("Gantt table, time window"))
    assert button == f"Gantt table, time window {low:,.0f} to {low + 5:,.0f} time units (CSV)"  # not "to 2,280"
    rows = [v for k, v in gantt["layout"].items() if k.startswith("yaxis")]
    assert all(a["tickvals"] == ["m0", "m1"] and a["tickfont"]["size"] == 12 for a in rows)  # the rate table's names
    assert gantt["layout"]["xaxis3"]["title"]["text"] == "time (time units)"


def test_a_what_if_compares_with_kpb_said_in_words_on_its_chart():
    """The Compare chart of a what-if ticked its rows "kpb (kbar=1)"."""
    from helpers import app, run_result

    import pages.history as history
    from hcsched import get_model
    from hcsched.compare import quick_what_ifs

    base = get_model("classes").tiny()
    words, after = quick_what_ifs(base)[0]
    runs = [run_result(base), run_result(after)]
    kept = [history.Entry(1, runs[0], "10:00:00", None, (), "–"),
            history.Entry(2, runs[1], "10:01:00", 1, (words,), "–")]
    at = app("pages/results.py", scenario=runs[1].scenario, results=runs[1], history=kept,
             results_mode_kept="Compare two runs")
    fig = plotly_charts(at)[0]
    rows = list(fig["data"][0]["y"])
    assert "kpb (kbar=1)" in rows
    for axis in ("yaxis", "yaxis2"):
        assert fig["layout"][axis]["tickvals"] == rows
        assert fig["layout"][axis]["ticktext"] == ticks(rows)
    assert not [m.value for m in at.markdown if "kbar=1" in shown(m.value)]


def test_the_texts_and_the_gantt_rows_of_a_system_with_groups_say_what_the_rate_table_says():
    """alazzoni-C1's 30 machines in 4 groups: a Gantt row names its machine and its group, as the rate table's columns
    (group0..group3), every row ticked in a font its thin row holds; a text's label said in words first."""
    from hcsched import trial_schedules
    from hcsched.charts import gantt, gantt_busiest
    from pages.models.classes import gantt_rows, machine_names, shown_text

    sc = preset("alazzoni-C1").replace(trials=1)
    names = machine_names(sc.classes)
    assert len(names) == 30 and names[:2] == ("m0 (group0)", "m1 (group0)") and names[-1] == "m29 (group3)"
    assert names[10] == "m10 (group1)" and machine_names(preset("alazzoni-B").classes) == ("m0", "m1")
    schedules, rows = trial_schedules(sc), gantt_rows(sc)
    first, count = gantt_busiest(schedules, rows)
    shown = list(range(first, first + count))
    fig = gantt(schedules, window=(1000.0, 1004.0), machines=shown, rows=rows, time_unit="time units")
    for axis in (fig.layout.yaxis, fig.layout.yaxis2, fig.layout.yaxis3):
        assert list(axis.tickvals) == [names[j] for j in shown]  # every row named, none left to Plotly
        assert axis.tickfont.size == 8  # rows of about 10 px
    assert shown_text("But kpb (kbar=14) has the highest share") == ("But kpb (each class's 14 fastest machines) "
                                                                     "has the highest share")
    assert shown_text("lpas (earliest finish among its class's machines) and mine (x=1)") == (
        "lpas (earliest finish among its class's machines) and mine (x=1)")


def test_a_manager_reads_kpb_and_the_share_of_arrivals_in_words_with_no_symbol():
    """The manager read "kpb (each class's fastest machine, k̄ = 1)" in the lines and "kpb (k̄ = 1)" on the ticks, and
    "they can take 0.67 times these arrivals": words, no symbol (the Heuristics page sets k̄), a share as people say
    one."""
    from hcsched.models.classes.heuristics import tick_name
    from pages.models.classes import shown_text

    assert shown_text("But kpb (kbar=1) has") == f"But {KPB_WORDS} has" and "k̄" not in KPB_WORDS + KPB_TICK
    assert [tick_name(x) for x in ("kpb (kbar=1)", "kpb (kbar=3)", "kpb (k=50)", "mct")] == [
        KPB_TICK, "kpb (3 fastest a class)", "kpb (fastest 50%)", "mct"]  # short enough for panels side by side
    assert shown_text("the machines cannot keep up whatever the mapping (they can take 0.67 times these arrivals)") \
        == "the machines cannot keep up whatever the mapping (they can take about 67% of these arrivals)"
    assert shown_text("(they can take 0.45 times these arrivals)") == "(they can take about 45% of these arrivals)"
