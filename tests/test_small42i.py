"""Small dashboard nits of a tryout: the Run page counts a run's references as Home does, a run's lead so far says
no heuristic keeps up where the final lead will, run titles say the change from the run they were made from, the
Gantt's marked label stays level inside the chart at the window's edge."""

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from hcsched import preset  # noqa: E402
from pages.jobs import Job  # noqa: E402


class Bar:
    """A progress bar's slot: keeps what it was told."""

    def progress(self, share, text=""):
        self.text = text

    def empty(self):
        pass


def _staged_job() -> Job:
    """The value default's run with its eight online heuristics done and its references tpsa and ga at 11 of 50."""
    scenario = preset("kim-loose-high-heavy")
    rows = [{"trial": t, "heuristic": h.label} for t in range(50) for h in scenario.heuristics
            if t < 11 or h.label not in ("tpsa", "ga")]
    job = Job(scenario, 50, what="Run of kim-loose-high-heavy: ")
    job.give_partial(pd.DataFrame(rows))
    job.done = 11
    return job


def test_a_page_without_the_results_counts_the_references_trials_as_home_does():
    """The Run page said "Run of kim-loose-high-heavy: 9 of 50 trials done" while Home said "50 of 50 trials of the
    heuristics done; the references tpsa and ga: 11 of 50 trials done": both say Home's now."""
    job = _staged_job()
    run_page, home = Bar(), Bar()
    job.draw(run_page, Bar())  # the Run page and the sidebar show no results
    job.draw(home, Bar(), (50, "tpsa and ga"))  # Home and Results: what they show (pages.jobs.showing_so_far)
    assert run_page.text == home.text
    assert run_page.text.startswith("Run of kim-loose-high-heavy: 50 of 50 trials of the heuristics done; the "
                                    "references tpsa and ga: 11 of 50 trials done")


def test_a_run_without_references_to_come_is_counted_as_before():
    scenario = preset("quickstart")
    job = Job(scenario, scenario.trials, what="Run of quickstart: ")
    job.give_partial(pd.DataFrame([{"trial": t, "heuristic": h.label} for t in range(3) for h in scenario.heuristics]))
    job.done = 4
    bar = Bar()
    job.draw(bar, Bar())
    assert bar.text.startswith(f"Run of quickstart: 4 of {scenario.trials} trials done")
    assert job.staged() is None


def test_a_lead_so_far_where_no_heuristic_keeps_up_says_so_rather_than_crown_a_leader():
    """alazzoni-B at twice the arrival rate: "So far, 1 of 30 replications: kpb (...) leads on average backlog
    at 79,100 tasks; still open: too few replications to tell." while the whole run's lead was "No heuristic keeps
    up: ...". The lead so far says what the final lead will, in its words, after the count."""
    import dataclasses

    from hcsched import get_model, simulate
    from hcsched.compare import quick_what_ifs
    from hcsched.verdict import LEAD_WORDS, progress_lead, scenario_verdicts, sentences, word_count
    from pages.results_view import _no_one_keeps_up

    base = preset(get_model("classes").default_preset).replace(trials=3)
    base = base.replace(classes=dataclasses.replace(base.classes, horizon=2000.0))
    sc = dict(quick_what_ifs(base))["Twice the arrival rate"]
    model = get_model(sc.model)
    so_far = simulate(sc).query("trial == 0").reset_index(drop=True)
    final = _no_one_keeps_up(model, sc, so_far)
    assert final.startswith("No heuristic keeps up: ")  # the model says the results so far are overloaded
    lead = progress_lead(scenario_verdicts(sc, so_far), 1, 3, model.trial_word, final)
    assert lead == "So far, 1 of 3 trials, no heuristic keeps up: " + final[len("No heuristic keeps up: "):]
    assert " leads on " not in lead and all(word_count(s) <= LEAD_WORDS for s in sentences(lead))
    assert progress_lead(scenario_verdicts(sc, so_far), 1, 3, model.trial_word) != lead  # without it: as before


def _serial(n: int, machines: int, length: float):
    """n tasks of ``length`` run back to back, round robin over the machines."""
    import numpy as np

    from hcsched.charts import Schedule

    start = (np.arange(n) // machines) * length
    return Schedule(np.zeros(n), np.arange(n) % machines, start, start + length, np.full(n, length),
                    np.full(n, length), machines)


def test_the_marked_label_at_the_windows_edge_stays_level_inside_the_plot():
    """"task 262" in the value default's ga panel was turned on its side at the panel's right edge (Plotly turns a
    bar's inside text to fit a short bar): it is level, anchored at its bar's end, inside the plot."""
    from hcsched.charts import gantt

    a = _serial(40, 4, 1.0)  # task 39 runs from 9 to 10, the window's end: a short bar at the edge
    for bar in gantt({"a": a, "b": a}, highlight=39).data:
        assert (bar.textposition, bar.insidetextanchor, bar.textangle) == ("inside", "end", 0)
    for bar in gantt({"a": a, "b": a}, highlight=21).data:  # task 21 ends at 6 of 10: after its bar, level
        assert (bar.textposition, bar.textangle) == ("outside", 0)


def test_the_marked_label_in_the_overviews_narrow_panels_stays_inside_its_panel():
    """Side by side, each panel is a share of the chart's width: a label after a bar ending at 80% of the window ran
    past its panel's right edge. Inside the bar's end there, as at a whole chart's edge."""
    from hcsched.charts import gantt

    a = _serial(40, 4, 1.0)  # task 31 runs from 7 to 8 of 10
    panels = {label: a for label in "abcd"}
    assert {bar.textposition for bar in gantt(panels, highlight=31).data} == {"outside"}  # a whole chart's width
    for bar in gantt(panels, highlight=31, overview=True).data:
        assert (bar.textposition, bar.insidetextanchor, bar.textangle) == ("inside", "end", 0)
    assert {bar.textposition for bar in gantt(panels, highlight=3, overview=True).data} == {"outside"}  # at 1 of 10


def test_references_to_come_are_final_only_once_every_other_trial_is_in():
    """"So far, 1 of 50 trials: ... too few trials to tell." stood over "This answer is final. Still to come, ...":
    while the others' trials are not all in, the references to come are said without "final"."""
    from hcsched import preset
    from hcsched.verdict import references_to_come

    sc = preset("kim-loose-high-heavy")
    final = references_to_come(sc, {"tpsa": 3, "ga": 1})
    assert final.startswith("This answer is final. Still to come, for reference only: tpsa (")
    assert references_to_come(sc, {"tpsa": 3, "ga": 1}, final=False) == final.removeprefix("This answer is final. ")
    assert references_to_come(sc, {}, final=False) == ""
