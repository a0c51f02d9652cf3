"""The time-shared model's own Results charts: the phases chart on the busiest servers (readable lanes), the gains as
bars with percentage ticks, the finishes against the benchmark with percentage ticks."""

import numpy as np
import pandas as pd

from hcsched import simulate
from hcsched.charts import metric_bars
from hcsched.experiment import trial_runs
from hcsched.models.timeshared import MODEL
from hcsched.models.timeshared.charts import (
    BUSIEST_SERVERS,
    WORDS_PX,
    busiest_servers,
    gain_bars,
    gantt,
    named_bars,
    short_words,
    sooner_same_later,
    tick_words,
)
from hcsched.models.timeshared.heuristics import NAMES
from hcsched.stats import summarize


def frame_of(servers: int = 25, tasks: int = 200):
    sc = MODEL.tiny().replace(servers=servers, tasks=tasks, mean_interarrival=1.0, trials=1)
    run = trial_runs(sc, 0)[sc.heuristics[0].label]
    return MODEL.schedule_frame(run)


def test_busiest_servers_are_those_that_ran_the_most_tasks():
    frame = pd.DataFrame({"machine": [0, 1, 1, 2, 2, 2, 3], "finish": [1.0] * 7})
    assert busiest_servers(frame, 2) == [1, 2]
    assert busiest_servers(frame, 3) == [0, 1, 2]  # 0 and 3 tie at one task: the lower index
    assert busiest_servers(frame, 10) == [0, 1, 2, 3]


def test_the_phases_chart_shows_only_the_servers_asked_with_taller_lanes():
    """About 25 servers of hair-thin lanes: by default only the few busiest, each lane readable."""
    frame = frame_of()
    everything = gantt(frame)
    shown = busiest_servers(frame, BUSIEST_SERVERS)
    few = gantt(frame, servers=shown)
    assert list(few.layout.yaxis.ticktext) == [f"s{j}" for j in shown] and len(shown) == BUSIEST_SERVERS
    assert len(everything.layout.yaxis.ticktext) == int(frame["machine"].max()) + 1
    on = frame.dropna(subset=["finish"])
    assert len(few.data[0].x) == int(on["machine"].isin(shown).sum()) < len(everything.data[0].x)
    lanes = int(np.max(np.asarray(few.data[0].y))) + 1
    assert (few.layout.height - 120) / lanes >= 10  # at least 10 px a lane
    rows = int(np.max(np.asarray(everything.data[0].y))) + 1
    assert (few.layout.height - 120) / lanes > min(900 - 120, everything.layout.height - 120) / rows


def test_gain_bars_tick_in_percent_and_name_the_benchmark():
    sc = MODEL.tiny()
    df = simulate(sc, jobs=1)
    metrics = [m for m in MODEL.metrics if m.name in ("gain_makespan", "gain_sum_flow")]
    fig = gain_bars(summarize(df, [m.name for m in metrics], methods=MODEL.interval_methods()), metrics,
                    "netsolve-mct")
    axes = [fig.layout[k] for k in fig.layout if k.startswith("xaxis")]
    assert len(axes) == 2 and all(a.ticksuffix == "%" and a.title.text == "gain (%)" for a in axes)
    labels = [h.label for h in sc.heuristics]
    assert list(fig.data[0].y) == labels
    np.testing.assert_allclose(np.asarray(fig.data[0].x, float),
                               df.groupby("heuristic")["gain_makespan"].mean().loc[labels].to_numpy())


def test_sooner_same_later_ticks_in_percent():
    means = pd.DataFrame({"pct_sooner": [10.0], "pct_same": [80.0], "pct_later": [10.0]}, index=["hmct"])
    fig = sooner_same_later(means, ["hmct"], "netsolve-mct")
    assert fig.layout.xaxis.ticksuffix == "%" and list(fig.layout.xaxis.range) == [0, 100]
    assert fig.layout.xaxis.title.text == "share of the tasks (%)"


def test_sooner_same_later_says_which_way_is_better_without_two_parenthesised_groups_in_a_row():
    """A benchmark with a parameter in its label read "... than netsolve-mct (load=reports) (higher is better)"."""
    means = pd.DataFrame({"pct_sooner": [10.0], "pct_same": [80.0], "pct_later": [10.0]}, index=["hmct"])
    plain = sooner_same_later(means, ["hmct"], "netsolve-mct", "higher is better").layout.title.text
    assert plain == "Tasks finishing sooner than netsolve-mct (higher is better)"
    named = sooner_same_later(means, ["hmct"], "netsolve-mct (load=reports)", "higher is better").layout.title.text
    assert named == "Tasks finishing sooner than netsolve-mct (load=reports); higher is better"


def test_the_metric_docs_call_the_baseline_the_benchmark():
    docs = {m.name: m.doc for m in MODEL.metrics}
    for name in ("pct_sooner", "pct_same", "pct_later", "gain_makespan"):
        assert "benchmark" in docs[name] and "reference heuristic" not in docs[name], name


def test_every_heuristic_axis_names_each_rule_in_words_under_its_short_name():
    """A manager's tryout: the axes showed bare keys ("mp-masse-cres"); the short name stays (it is the CSV's), its
    rule in words below it, the benchmark still marked, a label of one's own alone."""
    assert all(short_words(name) for name in NAMES) and short_words("mine") == ""
    ticks = tick_words(["mp-masse-cres", "mp (ties=all)", "mine"], ["mp-masse-cres", "mp (ties=all)", "mine"])
    assert ticks[0].startswith("mp-masse-cres<br>") and ticks[0].endswith("least delay, newest weigh most</span>")
    assert short_words("mp") in ticks[1] and ticks[1].startswith("mp (ties=all)<br>") and ticks[2] == "mine"
    sc = MODEL.tiny()
    results = simulate(sc, jobs=1)
    labels = [h.label for h in sc.heuristics]
    summary = summarize(results, ["makespan", "gain_makespan", "gain_sum_flow"], methods=MODEL.interval_methods())
    bare = named_bars(summary, [MODEL.metric("makespan")])
    marked = named_bars(summary, [MODEL.metric("makespan")], benchmark="netsolve-mct")
    assert list(bare.layout.yaxis.tickvals) == labels
    assert list(bare.layout.yaxis.ticktext) == tick_words(labels)
    assert marked.layout.yaxis.ticktext[0].startswith("netsolve-mct (benchmark)<br>")
    plain = metric_bars(summary, [MODEL.metric("makespan")])  # a second line's room in each row
    assert bare.layout.height == plain.layout.height + WORDS_PX * len(labels)
    gains = gain_bars(summary, [MODEL.metric("gain_makespan"), MODEL.metric("gain_sum_flow")], "netsolve-mct")
    assert all(list(a.ticktext) == list(marked.layout.yaxis.ticktext)
               for a in (gains.layout.yaxis, gains.layout.yaxis2))
    means = results.groupby("heuristic")[["pct_sooner", "pct_same", "pct_later"]].mean()
    assert list(sooner_same_later(means, labels).layout.yaxis.ticktext) == tick_words(labels)


def test_the_flow_metrics_are_named_in_words_with_the_papers_names_in_their_help():
    by = {m.name: m for m in MODEL.columns()}
    assert [by[n].title for n in ("sum_flow", "max_flow", "max_stretch", "gain_sum_flow")] == [
        "Total flow time", "Max flow time", "Max stretch", "Gain on total flow time"]
    assert "total time tasks spend in the system" in by["sum_flow"].doc and "sum-flow" in by["sum_flow"].doc
    assert all("-" not in m.title for m in MODEL.metrics)  # no paper's symbol ("sum-flow") in a title
