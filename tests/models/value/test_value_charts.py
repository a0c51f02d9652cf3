"""The value model's own Results charts: the static benchmarks (TPSA, GA) drawn as references, not contenders, as the
shared bars draw them; the per-priority table headed in plain words; chart titles without paper references."""

import pandas as pd
import pytest

from hcsched import simulate
from hcsched.charts import reference_marks
from hcsched.experiment import trial_runs
from hcsched.models.value import MODEL
from hcsched.models.value.charts import (
    OUTCOME_EARNS,
    OUTCOME_HEADERS,
    OUTCOME_LABELS,
    OUTCOME_MEANINGS,
    outcome_table,
    task_frame,
    value_bars,
)
from hcsched.models.value.worth import OUTCOMES
from hcsched.verdict import scenario_references

LABELS = ["max-max", "min-min", "tpsa", "ga"]
REFS = {"tpsa": "a static benchmark", "ga": "a static benchmark"}


def summary(values=(60.0, 55.0, 70.0, 80.0)) -> pd.DataFrame:
    return pd.DataFrame({"heuristic": LABELS, "value_pct_ub": list(values),
                         "value_pct_ub_lower": [v - 1 for v in values], "value_pct_ub_upper": [v + 1 for v in values]})


def test_value_bars_draw_the_static_benchmarks_hatched_named_and_said_to_be_references():
    """The manager read GA's bar, the longest, as the winner: now hatched, "(reference)" by its name, said on hover."""
    fig = value_bars(summary(), LABELS, references=REFS)
    bar = fig.data[0]
    assert list(bar.marker.pattern.shape) == ["", "", "/", "/"]
    assert list(fig.layout.yaxis.ticktext) == ["max-max", "min-min", "tpsa (reference)", "ga (reference)"]
    assert list(fig.layout.yaxis.tickvals) == LABELS
    assert [h.endswith("(a reference, not a contender: a static benchmark)") for h in bar.hovertext] == \
        [False, False, True, True]
    plain = value_bars(summary(), LABELS)  # no references: nothing marked
    assert set(plain.data[0].marker.pattern.shape) == {""} and plain.layout.yaxis.ticktext is None


def test_value_bars_title_and_ub_line_are_plain_words():
    fig = value_bars(summary(), LABELS, metric=next(m for m in MODEL.metrics if m.name == "value_pct_ub"))
    texts = [fig.layout.title.text, *(a.text for a in fig.layout.annotations)]
    assert fig.layout.title.text == "Value as % of the upper bound: higher is better"
    assert not any("section" in t or "Fig" in t for t in texts), texts


def test_reference_marks_keep_only_the_labels_drawn():
    marks = reference_marks(["a", "ga"], {"ga": "static", "tpsa": "static"})
    assert marks.references == {"ga": "static"} and marks.ticktext == ["a", "ga (reference)"]
    assert marks.pattern["shape"] == ["", "/"]


def test_the_full_knowledge_benchmarks_of_the_tiny_scenario_are_references():
    sc = MODEL.tiny()
    refs = scenario_references(sc)
    assert {label.split(" (")[0] for label in refs} == {"tpsa", "ga"}
    df = simulate(sc.replace(trials=1), jobs=1)
    labels = [h.label for h in sc.heuristics]
    from hcsched.stats import summarize

    fig = value_bars(summarize(df, ["value_pct_ub"], methods=MODEL.interval_methods()), labels, references=refs)
    assert [s == "/" for s in fig.data[0].marker.pattern.shape] == [label in refs for label in labels]


def test_outcome_table_heads_its_columns_in_the_models_own_words():
    """The per-priority table showed met_d100 met_d50 met_d25 late never_started."""
    sc = MODEL.tiny()
    run = trial_runs(sc, 0)[sc.heuristics[0].label]
    frame = task_frame(run)
    table = outcome_table(frame)
    assert list(table.columns) == [OUTCOME_HEADERS[o] for o in OUTCOMES] == [
        "by 1st deadline (full value)", "by 2nd deadline (half value)", "by 3rd deadline (a quarter of its value)",
        "after 3rd deadline (5% of its value)", "never started (no value)"]
    assert not any("_" in c for c in table.columns)
    assert list(table.index) == ["high priority", "medium priority", "low priority"]
    assert int(table.to_numpy().sum()) == len(frame)
    counts = frame.groupby("outcome").size()
    for o in OUTCOMES:
        assert int(table[OUTCOME_HEADERS[o]].sum()) == int(counts.get(o, 0))
    # one place: the legend's labels and the hover's meanings say the same earnings
    assert all(OUTCOME_HEADERS[o].startswith(OUTCOME_LABELS[o]) and OUTCOME_MEANINGS[o].endswith(OUTCOME_EARNS[o])
               for o in OUTCOMES)


def test_the_value_axis_starts_where_differences_of_a_few_points_show_and_says_so():
    import numpy as np

    from hcsched.charts import zoomed_start

    assert zoomed_start(np.array([88.2, 91.0, 95.5])) == 70.0  # 88.2 - 10 = 78.2, down to 70
    assert zoomed_start(np.array([15.0, 60.0])) == 0.0  # the axis keeps its zero when a bar starts low
    assert zoomed_start(np.array([np.nan])) == 0.0
    summary = pd.DataFrame({"heuristic": ["a", "b"], "value_pct_ub": [90.0, 91.5],
                            "value_pct_ub_lower": [89.0, 90.5], "value_pct_ub_upper": [91.0, 92.5]})
    fig = value_bars(summary, ["a", "b"])
    assert fig.layout.xaxis.range[0] == 70.0 and fig.layout.xaxis.title.text.endswith("(the axis starts at 70%)")


def test_value_bars_end_in_grey_the_value_of_the_tasks_that_arrive_before_scoring_starts():
    """The tryout read max-min's longer bar as a win; its lead was all in the tasks that arrive before the window
    opens (section 2.2.3), which the grey end of each bar now shows, the interval still the whole value's."""
    import numpy as np

    from hcsched.models.value.charts import EARLY_COLOR, EARLY_WORDS

    early = {"max-max": 2.0, "min-min": 5.0, "tpsa": 0.0, "ga": 9.5}
    fig = value_bars(summary(), LABELS, references=REFS, early=early)
    rest, grey = fig.data
    assert fig.layout.barmode == "stack"
    assert list(rest.x) == [58.0, 50.0, 70.0, 70.5] and list(grey.x) == [2.0, 5.0, 0.0, 9.5]
    assert list(np.add(rest.x, grey.x)) == [60.0, 55.0, 70.0, 80.0]  # the bar still ends at the whole value
    assert rest.error_x.visible is None and list(grey.error_x.array) == [1.0] * 4  # one interval, at the bar's end
    assert grey.name.startswith(EARLY_WORDS) and grey.showlegend and grey.marker.color == EARLY_COLOR
    assert list(rest.marker.pattern.shape) == ["", "", "/", "/"]  # the references still hatched
    assert EARLY_WORDS in rest.hovertemplate and "earns nothing" in grey.hovertemplate
    plain = value_bars(summary(), LABELS)  # without the part: one bar each, as before
    assert len(plain.data) == 1 and list(plain.data[0].x) == [60.0, 55.0, 70.0, 80.0]


def test_early_shares_are_each_heuristics_mean_of_the_early_value_over_the_trials_upper_bound():
    from hcsched.models.value.charts import early_shares

    df = simulate(MODEL.tiny().replace(trials=2), jobs=1)
    shares = early_shares(df)
    for label, g in df.groupby("heuristic"):
        assert shares[label] == pytest.approx((100 * g["value_early"] / g["upper_bound"]).mean())
        assert 0.0 <= shares[label] <= g["value_pct_ub"].max() + 1e-9
    assert early_shares(df.drop(columns="value_early")) == {}


def test_a_references_lead_all_in_its_grey_end_is_said_so():
    """GA's bar, 5.1 points longer than max-min's, read as a better schedule of the window that counts: its lead is
    all in the value of the start-up tasks (section 2.2.3). Said where nine tenths or more of it is there."""
    from hcsched.models.value.charts import grey_leads

    means = {"max-min": 91.3, "switching": 89.8, "ga": 96.4, "tpsa": 91.3}
    early = {"max-min": 4.2, "switching": 2.7, "ga": 9.4, "tpsa": 4.3}
    assert grey_leads(means, early, ["ga", "tpsa"]) == [
        "ga's 5.1 points over max-min are all in its grey end: without it, ga 87.0%, max-min 87.1%."]  # tpsa: no lead
    assert grey_leads(means, {**early, "ga": 5.0}, ["ga", "tpsa"]) == []  # most of ga's lead in the window: not said
    assert grey_leads(means, {}, ["ga"]) == [] and grey_leads({"ga": 96.4}, early, ["ga"]) == []


def test_the_dotted_line_is_the_most_the_later_tasks_can_earn_and_the_axis_keeps_it():
    """The lead said "near the most possible, 87.2%" while the chart drew only UB at 100%: the bound of section 2.3
    over the tasks arriving at or after B is a dotted line, labelled, inside the zoomed axis, clear of UB's words."""
    from hcsched.models.value.charts import LATER_MOST_WORDS

    fig = value_bars(summary(), LABELS, references=REFS, later_most=62.5)
    lines = [s for s in fig.layout.shapes if s.line.dash == "dot"]
    assert len(lines) == 1 and lines[0].x0 == lines[0].x1 == 62.5
    said = {a.text: a for a in fig.layout.annotations}
    assert said[LATER_MOST_WORDS].xanchor == "left" and "upper bound" in said
    assert fig.layout.xaxis.range[0] <= 62.5
    high = value_bars(summary(), LABELS, later_most=97.0)  # near UB: its words end at the line, not over UB's
    assert {a.text: a for a in high.layout.annotations}[LATER_MOST_WORDS].xanchor == "right"
    for plain in (value_bars(summary(), LABELS), value_bars(summary(), LABELS, later_most=float("nan"))):
        assert not [s for s in plain.layout.shapes if s.line.dash == "dot"]


def test_the_caption_says_how_near_the_solid_parts_end_to_the_dotted_line():
    """Kim et al.'s default preset: every online heuristic's rest is 87.0-87.1% and the later tasks' bound 87.2%, so
    none can do much better on them; the references (section 5) are not measured against it."""
    from hcsched.models.value.charts import later_words

    means = {"max-min": 91.3, "switching": 89.8, "ga": 96.4}
    early = {"max-min": 4.2, "switching": 2.7, "ga": 9.4}
    assert later_words(means, early, ["ga"], 87.2) == (
        "The dotted line at 87.2% is the most the later tasks can earn: the upper bound over the tasks that arrive "
        "once scoring has started; every solid part ends within 0.1 points of it, so none can do much better on "
        "them. ")  # 87.2 - 87.1 = 0.1 for both
    far = later_words({"a": 80.3, "b": 85.1}, {"a": 1.0, "b": 2.0}, [], 90.0)  # rests 79.3 and 83.1
    assert far.endswith("once scoring has started. The solid parts end 6.9–10.7 points from it. ")
    assert later_words(means, early, ["ga"], float("nan")) == ""
    assert later_words({"ga": 96.4}, early, ["ga"], 87.2) == ""  # only references: nothing to measure
