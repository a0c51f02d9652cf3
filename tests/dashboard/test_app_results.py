"""Results as a new user meets them: whose results they are, intervals, units, downloads, zero-length tasks."""

import io
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import app, open_results, panel_titles, plotly_charts, run_result  # noqa: E402

from hcsched import Scenario, get_model, preset, simulate, summarize, trial_schedules  # noqa: E402
from hcsched.charts import GANTT_HEIGHT, gantt_busy_start, window_ends, window_text  # noqa: E402
from hcsched.export import results_csv, scenario_digest  # noqa: E402
from hcsched.verdict import LEAD_WORDS, word_count  # noqa: E402
from pages.widgets import file_name  # noqa: E402


def test_results_of_another_scenario_are_marked_and_folded_away():
    old = preset("quickstart").replace(trials=2)
    at = app(scenario=preset("alazzoni-B"), results=run_result(old),
             notice=("warning", "The run was cancelled.", old))
    assert any("The last results are of the scenario **quickstart**" in w.value for w in at.warning)
    assert not any("cancelled" in w.value for w in at.warning)  # an old notice of another scenario is not shown
    assert not at.get("plotly_chart")  # hidden until asked for
    at.toggle(key="landing_show_other").set_value(True).run()
    assert not at.exception and len(at.get("plotly_chart")) == 3
    assert any(c.value.startswith("**quickstart**: 2 trials") for c in at.caption)
    at = app(scenario=old, results=run_result(old))
    assert not any("last results are of" in w.value for w in at.warning)


def test_intervals_stay_in_the_metrics_range_and_the_method_is_stated():
    sc = preset("quickstart").replace(trials=3)
    at = open_results(sc)
    caption = " ".join(c.value for c in at.caption)
    assert "How to read the intervals" in caption  # in plain words beside the facts, the method in its tooltip
    method = " ".join(c.proto.help for c in at.caption)
    assert "percentile bootstrap" in method and "Student-t" in method
    bars = json.loads(at.get("plotly_chart")[0].proto.spec)
    model = get_model("etc")
    summary = summarize(simulate(sc, jobs=1), [m.name for m in model.bar_metrics()], methods=model.interval_methods())
    assert (summary["max_stretch_lower"] >= 0).all()  # Student-t alone gave [-2041, 4517] for sufferage here
    assert panel_titles(bars)[3] == "Max stretch"


def test_metric_help_and_units():
    sc = preset("alazzoni-B").replace(trials=2, classes=preset("alazzoni-B").classes.__class__(
        (5.0, 8.0), ((8.0, 3.0), (4.0, 10.0)), horizon=300.0))
    at = open_results(sc)
    help_table = at.table[0].value
    assert "Load checks skipped (%)" in help_table["metric"].tolist()
    assert help_table["meaning"].str.len().min() > 10  # every shown metric is explained
    assert "Utilisation" in at.dataframe[0].value.columns and "%" in at.dataframe[0].value["Utilisation"].iloc[0]


def test_zero_length_tasks_give_a_defined_stretch_and_no_warnings():
    sc = Scenario.from_dict({"etc": {"method": "matrix", "matrix": [[0, 5], [3, 0], [0, 0], [2, 2]]},
                             "arrivals": {"process": "static"}, "actual": {"model": "exact"},
                             "heuristics": ["mct", "met"], "trials": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        df = simulate(sc, jobs=1)
    assert np.isfinite(df["max_stretch"]).all()
    at = open_results(sc)
    assert len(at.get("plotly_chart")) == 3


def test_whole_trial_and_window_gantt_tables():
    base = preset("alazzoni-B")
    sc = base.replace(trials=2, classes=base.classes.__class__((5.0, 8.0), ((8.0, 3.0), (4.0, 10.0)), horizon=500.0))
    at = open_results(sc)
    buttons = {b.label: b for b in at.get("download_button")}
    whole = next(label for label in buttons if label.startswith("Gantt table, whole"))
    window = next(label for label in buttons if label.startswith("Gantt table, time window"))
    assert whole and window
    length = at.number_input(key="results_window_length").value
    first = gantt_busy_start(trial_schedules(sc, 0), length)  # the busiest stretch (its three heuristics, by default)
    assert 0 < length < 500 and at.slider(key="results_window").value == pytest.approx(first)  # a readable window
    assert first > 1  # not the first few time units, where the system starts empty
    low = at.slider(key="results_window").value  # its ends as the Gantt's slider says a time
    assert window == f"Gantt table, time window {window_text(low, low + length, 'time units')} (CSV)"
    shown = next(c.value for c in at.caption if c.value.startswith("Showing"))
    first, last = window_ends(low, low + length)  # the button names the window the caption says (2,270 to 2,275)
    assert window == f"Gantt table, time window {first} to {last} time units (CSV)" and \
        shown.startswith(f"Showing {first} time units to {last} time units")
    _, table = simulate(sc, jobs=1, schedules=True)
    assert isinstance(table, pd.DataFrame) and (table["trial"] == 0).sum() > 300  # the whole trial has every task


def _plain(markdown: str) -> str:
    """Markdown as read: escapes and bold marks removed."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("**", "")


def _recorded_downloads(monkeypatch) -> list:
    """(label, data, file name) of every download button drawn from now on; deferred data (a Gantt table) built."""
    from streamlit.delta_generator import DeltaGenerator

    seen = []
    original = DeltaGenerator.download_button

    def recorded(self, label, data, file_name=None, *args, **kwargs):
        seen.append((label, data() if callable(data) else data, file_name))
        return original(self, label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recorded)
    return seen


def test_results_lead_with_one_sentence_and_fold_the_other_metrics():
    """One sentence on the headline metric above the charts, the other metrics folded below it."""
    sc = preset("quickstart").replace(trials=3)
    at = open_results(sc)
    leads = [_plain(m.value) for m in at.markdown if m.value.startswith("**")]
    assert len(leads) == 2 and "makespan" in leads[0] and any(h.label in leads[0] for h in sc.heuristics)
    assert leads[1].startswith("In short: "), leads  # the pick as bold as the lead (a tryout read the bold winner
    # on makespan as the answer, beside a plain pick of another)
    assert leads[0] == _plain(at.markdown[0].value)  # first, above the charts
    # the winner on makespan loses two other metrics for real: said under the lead, not only folded away, in two
    # sentences (one would be 37 words)
    below = [_plain(m.value) for m in at.markdown[1:3]]
    if "(when the last task ends)" not in leads[0]:  # the lead had no room for the gloss: the line under it says it
        assert below.pop(0) == "Makespan: when the last task ends."
    assert re.fullmatch(r"In short: (min-min is the better all-round pick; sufferage's makespan is [\d.]+% lower, but "
                        r"its|no clear winner on makespan, and min-min is the better all-round pick: sufferage's) "
                        r"mean flow time is [\d.]+ times as long, its max stretch \(the worst task's "
                        r"slowdown\) [\d,]+×, against min-min's [\d,]+×\.", below[0])  # the answer, its cost sized
    more = next(e for e in at.expander if e.label == "More on this answer")  # what the line sums up, folded
    assert ("But min-min has the lowest mean flow time (a task's time from arrival to finish, averaged) at 16 hours "
            "and the lowest max stretch (the worst task's slowdown) at 27.1 times its run time alone.") \
        in _plain(more.markdown[0].value)  # 35 words: one sentence
    other = next(e for e in at.expander if e.label.startswith("Other metrics"))
    assert other.label == "Other metrics (2)" and not other.proto.expanded  # not utilisation, which is no goal
    folded = _plain(other.markdown[0].value).splitlines()
    assert len(folded) == 2 and not any("tilisation" in line for line in folded)
    assert any("mean flow time" in line for line in folded) and not any("makespan" in line for line in folded)


def test_a_gloss_the_lead_has_no_room_for_is_shown_beside_it_never_folded():
    """The third tryout rated quickstart's Results 4: its 35-word lead never said what makespan is. The gloss is then
    the line right under the lead, not in "More on this answer"."""
    at = open_results(preset("quickstart"))
    lead = _plain(at.markdown[0].value)
    assert "makespan" in lead and "(when the last task ends)" not in lead and word_count(lead) <= LEAD_WORDS
    assert _plain(at.markdown[1].value) == "Makespan: when the last task ends."
    assert not any("when the last task ends" in m.value for e in at.expander for m in e.markdown)


def test_time_shared_results_lead_with_makespan_alone():
    """One sentence on the makespan alone, the other five metrics folded, not six lines with six different winners."""
    sc = preset("caniou-mu10").replace(trials=2)
    at = open_results(sc)
    leads = [_plain(m.value) for m in at.markdown if m.value.startswith("**")]
    assert len(leads) == 1 and "makespan" in leads[0] and not re.search(r"\bgain\b", leads[0])
    assert next(e for e in at.expander if e.label.startswith("Other metrics")).label == "Other metrics (5)"


def test_value_results_crown_a_heuristic_that_can_run_online_and_show_the_static_benchmarks_as_references():
    """A static benchmark (GA, TPSA) is never crowned (not "Highest value, % of the upper bound: ga (91.78%), 2.1
    points above tpsa"): the lead names a heuristic that can run online, the benchmarks are said as references."""
    sc = get_model("value").tiny()
    at = open_results(sc)
    lead = _plain(next(m.value for m in at.markdown if m.value.startswith("**")))
    static = [h.label for h in sc.heuristics if h.name in ("ga", "tpsa")]
    online = [h.label for h in sc.heuristics if h.label not in static]
    assert lead.split(" ")[0] in online or lead.startswith("No clear winner")
    assert not any(label in lead for label in static)
    said = [_plain(m.value) for m in at.markdown]
    reference = next(line for line in said if line.startswith("For reference, not contenders"))
    # each named where first mentioned: "ga (genetic algorithm, static; population=10, generations=10)"
    assert all(label.split(" (")[0] + " (" in reference for label in static) and "no live scheduler can" in reference
    assert not any(e.label.startswith("Other metrics") for e in at.expander)  # one bar metric: nothing to fold


def test_csv_downloads_say_whose_they_are_with_units_and_read_back(monkeypatch):
    """Units, what _lower and _upper are, the scenario's name and seed in each file; names that
    differ between what-ifs; the same scenario and seed give the same names and bytes."""
    seen = _recorded_downloads(monkeypatch)
    base = preset("alazzoni-B")
    sc = base.replace(name="alazzoni-B (edited)", trials=2, seed=7,
                      classes=base.classes.__class__((5.0, 8.0), ((8.0, 3.0), (4.0, 10.0)), horizon=300.0))
    open_results(sc)
    files = {label: (data, name) for label, data, name in seen}
    digest = scenario_digest(sc)
    csvs = {label: f for label, f in files.items() if label.endswith("(CSV)")}
    assert len(csvs) == 4  # per-trial results, summary, the whole trial's Gantt table and its time window's
    for label, (data, name) in csvs.items():
        assert name.startswith(f"alazzoni-B-edited-s7-{digest}-") and name.endswith(".csv"), name
        lines = data.splitlines()
        assert lines[0].startswith('# hcsched ') and 'of the scenario "alazzoni-B (edited)" (model classes), seed 7, ' \
            "2 trials" in lines[0]
        assert any(line.startswith("# units: ") for line in lines[:6]), label
        assert 'pandas.read_csv(path, comment="#")' in data
        table = pd.read_csv(io.StringIO(data), comment="#")
        assert (not table.empty and "heuristic" in table.columns
                and not any(str(c).startswith("#") for c in table.columns))
    results = pd.read_csv(io.StringIO(csvs["Per-trial results (CSV)"][0]), comment="#")
    pd.testing.assert_frame_equal(results, simulate(sc, jobs=1), check_dtype=False)
    summary_text = csvs["Summary with intervals (CSV)"][0]
    assert "NAME_lower and NAME_upper, the lower and upper bounds of the 95% confidence interval" in summary_text
    assert "# units: tasks: mean_in_system; time units: mean_response" in summary_text
    assert "mean_in_system_lower" in pd.read_csv(io.StringIO(summary_text), comment="#").columns
    gantt = next(data for label, (data, _) in csvs.items() if label.startswith("Gantt table, whole"))
    assert "# units: time units: arrival, start, finish, expected, actual" in gantt
    assert files["Scenario (JSON)"][1] == f"alazzoni-B-edited-s7-{digest}-scenario.json"

    # the same scenario and seed: the same names and bytes; another what-if or seed: other names
    first = {name: data for _, data, name in seen}
    seen.clear()
    open_results(sc)
    assert {name: data for _, data, name in seen} == first
    other = sc.replace(classes=base.classes.__class__((5.0, 8.0), ((8.0, 3.0), (4.0, 9.0)), horizon=300.0))
    names = {file_name(s, "results", "csv", run=True) for s in (sc, other, sc.replace(seed=8))}
    assert len(names) == 3 and file_name(sc.replace(description="said otherwise"), "results", "csv", run=True) in names


def test_a_label_with_a_hash_is_quoted_so_the_comment_character_never_cuts_a_row():
    sc = Scenario.from_dict({"etc": {"method": "matrix", "matrix": [[1, 5], [3, 1]]}, "arrivals": {"process": "static"},
                             "actual": {"model": "exact"}, "heuristics": [{"name": "mct", "label": "mct #1"}, "met"],
                             "trials": 2})
    results = simulate(sc, jobs=1)
    back = pd.read_csv(io.StringIO(results_csv(sc, results)), comment="#")
    pd.testing.assert_frame_equal(back, results, check_dtype=False)
    assert list(back["heuristic"].unique()) == ["mct #1", "met"]


def test_file_names_without_a_run_stay_as_they_were():
    sc = preset("quickstart").replace(trials=3)
    assert file_name(sc, "sweep", "csv") == "quickstart-sweep.csv"  # a sweep's files (pages/sweep.py)
    assert file_name(sc.replace(name="kim tight (edited)"), "summary", "csv") == "kim-tight-edited-summary.csv"
    assert file_name(sc, "results", "csv", run=True) == f"quickstart-s{sc.seed}-{scenario_digest(sc)}-results.csv"


def test_gantt_shows_the_best_few_and_the_benchmark_and_a_range_of_machines():
    base = preset("page-system-a")
    sc = base.replace(trials=2)
    at = open_results(sc)
    shown = at.multiselect(key="results_gantt_heuristics").value
    assert len(shown) == 4 and sc.benchmark_label in shown
    at.radio(key="results_gantt_view").set_value("Busiest processors, in detail").run()  # the overview by default
    machines = at.slider(key="results_gantt_machines").value
    assert (machines[1] - machines[0] + 1) * len(shown) <= 96  # the busiest run of rows that fits
    gantt = [c for c in plotly_charts(at) if c["layout"].get("updatemenus")][0]
    from pages.models import short_label  # the panels name a heuristic as the charts do: "fz (β = 0.1)"
    assert [a["text"] for a in gantt["layout"]["annotations"]] == [short_label(sc.model, x) for x in shown]
    assert gantt["layout"]["height"] <= GANTT_HEIGHT  # within a 900-px window, with its controls


def test_gantt_choices_changed_twice_and_after_another_trial():
    sc = preset("page-system-a").replace(trials=2)
    at = open_results(sc)
    at.radio(key="results_gantt_view").set_value("Busiest processors, in detail").run()  # the overview by default
    for _ in range(2):
        shown = at.multiselect(key="results_gantt_heuristics")
        removed = shown.value[0]
        shown.unselect(removed).run()
        assert not at.exception and len(at.multiselect(key="results_gantt_heuristics").value) == 3
        at.slider(key="results_gantt_machines").set_value((10, 20)).run()
        gantt = [c for c in plotly_charts(at) if c["layout"].get("updatemenus")][0]
        assert gantt["layout"]["yaxis"]["categoryarray"] == [f"p{j}" for j in range(10, 21)][::-1]
        at.multiselect(key="results_gantt_heuristics").select(removed).run()
    at.number_input(key="results_trial").set_value(1).run()
    assert not at.exception and len(at.multiselect(key="results_gantt_heuristics").value) == 4


def test_the_task_marked_in_every_panel_follows_the_typed_number_twice_and_the_default_after_another_trial():
    """The Gantt's marked task: hatched and labelled in every panel (from the frame its bar starts) and said in the
    caption; a typed task stays through a second change; an empty box marks none (no "-1"); another trial with no
    typed task takes that trial's default again."""
    sc = preset("quickstart").replace(trials=2)
    at = open_results(sc)
    box = at.number_input(key="results_gantt_task")
    default = box.value
    assert default >= 0 and any(f"Task {default}, hatched and labelled in every panel" in c.value for c in at.caption)
    for task in (3, 7):
        at.number_input(key="results_gantt_task").set_value(task).run()
        assert not at.exception and at.number_input(key="results_gantt_task").value == task
        assert any(f"Task {task}, hatched and labelled in every panel" in c.value for c in at.caption)
        gantt = [c for c in plotly_charts(at) if c["layout"].get("updatemenus")][0]
        assert any(f"task {task}" in (t or "") for f in gantt["frames"] for d in f["data"] for t in d.get("text") or [])
    at.number_input(key="results_gantt_task").set_value(None).run()
    assert not at.exception and not any("hatched and labelled in every panel" in c.value for c in at.caption)
    assert "No task is marked: type a task's number to mark it." in [c.value for c in at.caption]
    at.number_input(key="results_gantt_task").set_value(default).run()  # back to the default: it follows again
    at.number_input(key="results_trial").set_value(1).run()
    assert not at.exception and at.number_input(key="results_gantt_task").value >= 0


def _mark_none():
    import numpy as np

    from hcsched.metrics import Schedule
    from pages.results_view import gantt_task

    one = Schedule(np.zeros(2), np.array([0, 1]), np.array([0.0, 1.0]), np.array([1.0, 2.0]), np.ones(2), np.ones(2),
                   2)
    gantt_task({"a": one, "b": one}, None, [], "t")  # no machine shown: no task is in every panel


def test_a_gantt_with_no_task_in_every_panel_says_why_none_is_marked():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_mark_none)
    at.run()
    assert not at.exception, at.exception
    assert at.number_input[0].value is None and at.number_input[0].min == 0  # empty, "none": never "-1"
    assert any(c.value == "No task is marked: none is in every panel shown." for c in at.caption)


def _said(at) -> list[str]:
    """The page's Markdown as its reader sees it: escapes gone."""
    return [re.sub(r"\\(.)", r"\1", m.value) for m in at.markdown]


def test_a_lead_so_far_that_glosses_its_metric_has_no_gloss_line_beside_it():
    """estimation_first.png: during a run the lead read "rr (round robin) leads on makespan (when the last task ends)"
    and the next line "Makespan: when the last task ends.": one gloss, during the run and after it."""
    import threading

    from pages.runs import plan_run

    sc, release = preset("quickstart").replace(trials=4), threading.Event()
    whole, at = simulate(sc, jobs=1), app(scenario=sc)
    at.session_state["job"] = job = plan_run(sc).submit(lambda *_: release.wait(60) and whole)  # ends once released
    job.give_partial(whole[whole["trial"] < 2])
    lead = next(m for m in _said(at.run()) if m.startswith("**So far, 2 of 4 trials"))
    glossed = "on makespan (when the last task ends)" in lead  # where the lead has room for it
    assert ("Makespan: when the last task ends." in _said(at)) != glossed, lead
    assert sum("when the last task ends" in m for m in _said(at)) == 1
    release.set()
    job.future.result(timeout=60)
    assert sum("when the last task ends" in m for m in _said(at.run())) == 1, _said(at)  # the whole run's: one too
    assert not at.exception
