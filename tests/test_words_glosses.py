"""Plain words on the Results leads: each metric glossed where a lead first says it (``Metric.gloss``), a stretch in
its unit and a gain in words (``Metric.said``), percents in two or three significant digits, one number format on a
page, the classes model's λ* and the value model's symbols after their words, and the value model's times in seconds
with minutes beside them (a manager's tryout of the dashboard; hcsched.verdict, hcsched.formatting)."""

from __future__ import annotations

import pandas as pd
import pytest

from hcsched import get_model
from hcsched.formatting import minutes_beside, percent_text, readable, readable_amount, said_value
from hcsched.verdict import LEAD_WORDS, glossed_once, headline, verdicts, word_count

ETC = get_model("etc")
TIMESHARED = get_model("timeshared")


def _results(**columns) -> pd.DataFrame:
    """Hand-made results, one row per trial and heuristic: ``columns`` metric -> {heuristic: values per trial}."""
    first = next(iter(columns.values()))
    rows = [{"trial": t, "heuristic": h} for h in first for t in range(len(first[h]))]
    frame = pd.DataFrame(rows)
    for metric, values in columns.items():
        frame[metric] = [values[row["heuristic"]][row["trial"]] for row in rows]
    return frame


def _etc_headline():
    results = _results(makespan={"A": [100.0, 101, 99, 100], "B": [120.0, 121, 119, 122]},
                       mean_flow={"A": [50.0, 52, 51, 50], "B": [40.0, 41, 40, 42]},
                       max_stretch={"A": [60.0, 61, 59, 62], "B": [37.8, 37.9, 37.7, 37.8]})
    return headline(verdicts(results, [ETC.metric(m) for m in ("makespan", "mean_flow", "max_stretch")]))


def test_a_lead_glosses_each_metric_once_where_it_first_says_it_and_a_stretch_in_its_unit():
    """The manager read "lowest makespan", "mean flow time" and "max stretch at 37.8" without a word of what they
    are, and a stretch without a unit."""
    said = _etc_headline()
    assert said.lead.startswith("A has the lowest makespan (when the last task ends) at 100 s, ")
    assert word_count(said.lead) <= LEAD_WORDS
    assert said.rest[-1] == ("But B has the lowest mean flow time (a task's time from arrival to finish, averaged) at "
                             "40.75 s and the lowest max stretch (the worst task's slowdown) at 37.8 times its run "
                             "time alone.")
    text = " ".join([said.lead, *said.rest])
    for gloss in ("(when the last task ends)", "(a task's time from arrival to finish, averaged)",
                  "(the worst task's slowdown)"):
        assert text.count(gloss) == 1, gloss  # once: where first said


def test_a_gloss_is_added_once_and_never_twice():
    lines = ["No clear winner on makespan: A and B.", "Its makespan is at most that far from the best possible."]
    glossed = glossed_once(lines, {"makespan": "when the last task ends"})
    assert glossed == ["No clear winner on makespan (when the last task ends): A and B.", lines[1]]
    assert glossed_once(glossed, {"makespan": "when the last task ends"}) == glossed
    assert glossed_once(["the makespan-like number"], {"makespan": "x"}) == ["the makespan-like number"]


def test_a_gain_is_said_in_words_in_two_or_three_significant_digits():
    """The manager read "the highest gain on total flow time at 2.068%": four digits, and "gain" unexplained."""
    gain = TIMESHARED.metric("gain_sum_flow")
    assert readable(2.068, gain) == "2.1%"
    assert said_value(2.068, gain) == "2.1% lower total flow time than the benchmark"
    assert said_value(-3.04, TIMESHARED.metric("gain_makespan")) == "3% higher makespan than the benchmark"
    results = _results(makespan={"A": [100.0, 101, 99, 100], "B": [120.0, 121, 119, 122]},
                       gain_sum_flow={"A": [0.5, 0.4, 0.6, 0.5], "B": [2.06, 2.07, 2.07, 2.072]})
    said = headline(verdicts(results, [TIMESHARED.metric("makespan"), gain]))
    assert said.rest[-1] == ("But B cuts total flow time (every task's time from arrival to finish, added up) by "
                             "2.1% against the benchmark.")  # said once, glossed (tryout42d)


@pytest.mark.parametrize("x, said", [(2.068, "2.1"), (8.535, "8.5"), (57.83, "57.8"), (90.88, "90.9"), (50.0, "50"),
                                     (0.048, "0.048"), (150.4, "150"), (1234.0, "1,234")])
def test_a_percent_has_two_or_three_significant_digits(x, said):
    assert percent_text(x) == said and readable_amount(x, "%") == f"{said}%"


def test_one_number_format_on_a_page_full_digits_below_a_million():
    """The classes page said "20.0 thousand time units" beside "20,000 time units", and "79.1 thousand tasks"."""
    assert readable_amount(20_000, "time units") == "20,000 time units"
    assert readable_amount(79_083, "tasks") == "79,100 tasks"
    assert readable_amount(1_234_567, "tasks") == "1.23 million tasks"
    from hcsched.presets import preset
    said = get_model("classes").describe(preset("alazzoni-B").spec)
    assert "20,000 time units" in said and "thousand" not in said and "20000" not in said


def test_the_share_of_machines_not_asked_says_why_it_matters():
    """"But kpb ... has the highest share of machines not asked at 50%": whether more is better, and why, unsaid."""
    classes = get_model("classes")
    results = _results(mean_in_system={"A": [5.0, 5.1, 5.0, 5.2], "B": [6.0, 6.1, 6.2, 6.0]},
                       discount={"A": [0.0, 0.0, 0.0, 0.0], "B": [50.0, 50.0, 50.0, 50.0]})
    said = headline(verdicts(results, [classes.metric("mean_in_system"), classes.metric("discount")]))
    # what is not asked, and why it matters, in the metric's own words: the chart's term explained read as a
    # definition, not as what B does
    assert said.rest[-1] == ("But B sends fewer messages: when a task arrives, it skips the load check on half of "
                             "the machines, while A skips none of them.")  # sized by the lead's winner's own share
    results = _results(mean_in_system={"A": [5.0, 5.1, 5.0, 5.2], "B": [6.0, 6.1, 6.2, 6.0]},
                       discount={"A": [0.0, 0.0, 0.0, 0.0], "B": [40.0, 40.0, 40.0, 40.0]})
    said = headline(verdicts(results, [classes.metric("mean_in_system"), classes.metric("discount")]))
    assert said.rest[-1] == ("But B sends fewer messages: when a task arrives, it skips the load check on 40% of "
                             "the machines, while A skips none of them.")


def test_a_share_is_said_in_words_exactly_where_it_is_one():
    from hcsched.formatting import share_words
    assert [share_words(x) for x in (0.5, 0.49, 2 / 3, 0.45)] == ["half", "about half", "two thirds", "about 45%"]
    assert share_words(0.45, "") == "45%" and share_words(0.34, "") == "a third"


def test_a_label_with_parameters_is_said_again_by_its_name_where_no_other_has_it():
    """The classes lead names "kpb (each class's fastest machine)"; the line under it said "kpb (kbar=1)" again, the
    page its words a second time: one description of kpb on the page."""
    from hcsched.verdict import again_names
    assert again_names(["lpas", "kpb (kbar=1)", "mct (ties=random)"], "classes") == {"kpb (kbar=1)": "kpb",
                                                                                      "mct (ties=random)": "mct"}
    assert again_names(["kpb (kbar=1)", "kpb (kbar=3)"], "classes") == {}  # two kpb: each said as written
    assert again_names(["fz (beta=0.1)", "fz"], "estimation") == {"fz (beta=0.1)": "fz (error weighted a tenth)"}


def test_lambda_star_is_said_in_words_first_the_symbol_once_after_without_its_digits():
    """"the LP's λ* = 1.33" and "λ* restricted to them: 0.6667, Theorem 2": the symbol with four digits and a
    theorem in a manager's line."""
    from hcsched.models.classes import MODEL

    results = pd.DataFrame([{"trial": t, "heuristic": h, "unstable": u, "lambda_restricted": lam}
                            for t, (h, u, lam) in enumerate([("mct", True, 2 / 3), ("lpas", False, 4 / 3)])])
    assert MODEL.warnings(results) == [
        "mct cannot keep up in 1 of 1 trials: on the machines it uses, they can take only 0.67 times the "
        "arrivals."]
    pytest.importorskip("streamlit")
    from pages.models.classes import shown_text

    assert shown_text("lambda* = 1.3333 (stabilisable)") == ("the machines can handle 1.33 times these arrivals")
    assert shown_text("lambda* = 0.8000 (overloaded: no heuristic can stabilise it)") == (
        "the machines cannot keep up with these arrivals, whatever the mapping: they can take about 80% of "
        "these arrivals")


def test_the_value_models_times_agree_in_seconds_with_minutes_beside_and_no_section_in_its_lead():
    """Home and the Scenario page said "250 minutes", the charts "15,000 s"; the run's lead cited "(UB, section
    2.3)" and the deadlines "(section 2.2.2)"."""
    from hcsched.models.value.charts import DEADLINES_TEXT, gantt, task_frame
    from hcsched.presets import preset

    value = get_model("value")
    spec = preset("kim-loose-high-heavy").spec
    assert minutes_beside(15_000) == "4.2 hours (15,000 s)" and minutes_beside(45) == "45 s"
    assert minutes_beside(600, 15_000) == "10 min (600 s)" and minutes_beside(15_000, 15_000) == "250 min (15,000 s)"
    assert minutes_beside(18_000, 180_000) == "5.0 hours (18,000 s)" and minutes_beside(30, 40) == "30 s"
    # one unit for a scenario's times: a tryout read "10 min (600 s) to 4.2 hours (15,000 s)" as two scales
    assert value.headline(spec) == ("score: the total value earned from 10 min (600 s) "
                                    "to 250 min (15,000 s), as % of the upper bound on value")
    assert "about 1,329 tasks over 250 min (15,000 s)" in value.describe(spec)  # thousands as in the times
    assert "over 250 minutes (15,000 s)" in preset("kim-loose-high-heavy").description
    assert DEADLINES_TEXT.startswith("Each task has three soft deadlines: finishing by the first")  # no D100
    assert "section" not in DEADLINES_TEXT
    frame = task_frame(_one_run(spec))
    fig = gantt(frame, spec.machines, marks=(600.0, 15_000.0))  # the paper's window, beside a short run's tasks
    assert [a.text for a in fig.layout.annotations] == ["window start, 10 min (600 s)",
                                                        "window end, 250 min (15,000 s)"]


def _one_run(spec):
    """One short trial of max-max on ``spec``'s settings (the window drawn as given to the chart)."""
    from hcsched import trial_runs
    from hcsched.scenario import Scenario

    scenario = Scenario.from_dict({"name": "short", "model": "value", "machines": spec.machines, "duration": 900.0,
                                   "startup": 90.0, "bursts": 0, "window": [90.0, 900.0], "heuristics": ["max-max"],
                                   "trials": 1, "seed": 1})
    return trial_runs(scenario, 0)["max-max"]


def test_a_gloss_that_would_not_fit_the_lead_is_a_sentence_beside_it():
    """A lead stays within its 35 words: where the names leave no room for the gloss, it is a sentence of its own that
    a page shows beside the lead (``gloss_text``), never folded away with the rest."""
    from hcsched.verdict import verdict

    classes = get_model("classes")
    results = _results(mean_response={"A": [0.39, 0.40, 0.39, 0.40], "B": [0.42, 0.43, 0.42, 0.43]})
    names = {"A": "LP-based affinity scheduling", "B": "each class's fastest machine"}
    v = verdict(results, classes.metric("mean_response"), names=names)
    assert "(a task's time from arrival to finish, averaged)" not in v.text and word_count(v.text) <= LEAD_WORDS
    assert v.gloss_text == "Mean response time: a task's time from arrival to finish, averaged."
    assert v.lines[:2] == [v.text, v.gloss_text] and v.gloss_text not in v.detail
    assert headline([v]).gloss == v.gloss_text and v.gloss_text not in headline([v]).rest
    short = verdict(results, classes.metric("mean_response"))  # room for it: in the lead
    assert "has the lowest mean response time (a task's time from arrival to finish, averaged) at " in short.text


def test_a_gloss_never_pushes_the_interval_or_a_name_out_of_the_lead():
    """The second tryout found the etc lead had lost its 95% interval once "makespan (when the last task ends)" took
    its words: who wins, by how much and whether it is real come first; the gloss is then said beside the lead."""
    from hcsched.verdict import heuristic_words, verdict
    results = _results(makespan={"sufferage": [100.0, 101, 99, 100], "min-min": [110.0, 111, 108, 109]})
    names = {label: heuristic_words(label, "etc") for label in ("sufferage", "min-min")}  # as the page names them
    v = verdict(results, ETC.metric("makespan"), "min-min", names=names)
    assert "95% interval" in v.text and word_count(v.text) <= LEAD_WORDS
    assert "(when the last task ends)" not in v.text
    assert v.gloss_text == "Makespan: when the last task ends."
    short = verdict(results, ETC.metric("makespan"), "min-min")  # room for both: the gloss stays in the lead
    assert "95% interval" in short.text and "makespan (when the last task ends)" in short.text
    assert short.gloss_text == ""


def test_the_estimation_error_says_what_its_percent_is_of():
    """The second tryout read "the lowest estimation error at 73.0%" without knowing 73% of what (eq. 8:
    |ETC - t| / t)."""
    metric = get_model("estimation").metric("estimation_error")
    assert "as a share of the actual" in metric.gloss
    results = _results(estimation_error={"fa": [0.70, 0.72, 0.71, 0.73], "lz": [0.90, 0.92, 0.91, 0.93]})
    said = headline(verdicts(results, [metric]))
    text = " ".join([said.lead, said.gloss, *said.rest])
    assert text.count("(how far a task's run time estimate was from its actual time, as a share of the actual)") \
        + text.count("Estimation error: how far") == 1
