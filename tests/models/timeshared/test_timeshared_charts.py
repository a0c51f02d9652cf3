"""The time-shared model's own Results charts: the phases chart on the busiest servers (readable lanes), the gains as
bars with percentage ticks, the finishes against the benchmark with percentage ticks."""

import numpy as np
import pandas as pd

from hcsched import simulate
from hcsched.experiment import trial_runs
from hcsched.models.timeshared import MODEL
from hcsched.models.timeshared.charts import BUSIEST_SERVERS, busiest_servers, gain_bars, gantt, sooner_same_later
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
