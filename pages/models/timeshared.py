"""The dashboard's part of the time-shared model (Caniou and Jeannot): the Scenario page's editor of servers, task
sizes and arrivals (or the user's own servers and tasks CSVs); a Gantt chart of tasks overlapping on the busiest
servers with the three phases coloured, folded away (``trial_charts``); the makespan bars, each heuristic's rule in
words under its name, then the gain on makespan against the benchmark, the other gains folded away, and % sooner /
same / later as a stacked bar (``results_charts``); the gain heatmaps of a sweep (``sweep_charts``); and
``explain``: for one arrival, each server's T', T, delta and each heuristic's score.

Hooks the pages call: ``results_charts(results, scenario, colors, key)`` on the Results page, ``explain(scenario)`` on
the Explain page, ``sweep_charts(table, key)`` on the Sweep page.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, summarize
from hcsched.charts import direction
from hcsched.errors import describe_error
from hcsched.experiment import trial_runs, trial_seeds
from hcsched.models.timeshared import MODEL, size_limit
from hcsched.models.timeshared.charts import (
    BUSIEST_SERVERS,
    SERVERS,
    busiest_servers,
    gain_bars,
    gain_heatmaps,
    gantt,
    named_bars,
    server_bars,
    sooner_same_later,
    with_words,
)
from hcsched.models.timeshared.heuristics import HEURISTICS
from hcsched.models.timeshared.htm import HTM
from hcsched.models.timeshared.readers import parse_servers, parse_tasks
from hcsched.models.timeshared.spec import ARRIVALS, DUPLEX, TRANSFER
from hcsched.models.timeshared.workload import make_workload
from hcsched.verdict import heuristic_words, in_words, scenario_benchmark, scenario_references
from pages.models._curves import what_the_names_mean
from pages.session import W, commit_scenario, default, refuse_runs
from pages.widgets import number, plain, plain_html, upload_limits, uploaded_text

OWN = {"servers": "sc_ts_servers", "tasks": "sc_ts_tasks"}  # session keys of uploaded tables
SWEEP_KEY_EXAMPLE = "speed_mflops.0 or size_mb.1"
EXAMPLE_FILES = "servers and tasks of the time-shared model to upload under *my own (CSV)*"
EXPLAIN_TASKS = 2000  # the largest workload Explain replays
EXPLAIN_SAVED = "ts_explain_saved"  # Explain's widget values, kept while the page shows another system
# The editor's widgets for drawn servers and tasks: not shown while an uploaded table is used, and Streamlit forgets
# the state of a widget a run does not show, so the editor keeps their values itself.
DRAW_KEYS = ("ts_servers", "ts_speed_lo", "ts_speed_hi", "ts_bw", "ts_tasks", "ts_mu", "ts_law", "ts_size_lo",
             "ts_size_hi", "ts_ratio", "ts_max", "ts_transfer")


def reset() -> None:
    for key in OWN.values():
        st.session_state.pop(key, None)


def overview(scenario, container) -> None:
    """The servers' speeds of trial 0."""
    w = make_workload(scenario.spec, trial_seeds(scenario.seed, 1)[0])
    container.metric("Servers (speed range, Mflop/s)", f"{w.speed.size}: {w.speed.min():.0f}-{w.speed.max():.0f}")


PHASES = "Input, compute and output phases of each task, on the busiest servers"


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """A Gantt chart of one heuristic's run, folded away: one lane per task within its server's band, phases
    coloured, on the few busiest servers by default (a lane per task on every server is too thin to read)."""
    labels = list(runs)
    with st.expander(PHASES, expanded=False):
        c1, c2 = st.columns([2, 1])
        label = c1.selectbox("Tasks overlapping on their servers, for", labels, key=f"{key}_ts_gantt_h")
        frame = MODEL.schedule_frame(runs[label])
        total = int(runs[label].schedule.machines)
        count = int(c2.number_input("Busiest servers shown", 1, max(1, total), min(BUSIEST_SERVERS, total), step=1,
                                    key=f"{key}_ts_gantt_servers",
                                    help="the servers that ran the most tasks; raise it to see more of them"))
        servers = busiest_servers(frame, count)
        st.plotly_chart(gantt(frame, plain_html(f"{in_words(label, MODEL.name)}: each task's phases"),
                              servers=servers), key=f"{key}_ts_gantt", width="stretch")
        st.caption(f"The {len(servers)} of the {total} servers that ran the most tasks: "
                   f"{', '.join(SERVERS.name(j) for j in servers)}.")


def gantt_rows(scenario):
    """The Results page's Gantt names servers as the phases chart does (s0, s1, ...) and gives each task a lane."""
    return SERVERS


#: The symbols of the model's Results page in plain words (Caniou and Jeannot: the metrics of section 5, the gains of
#: section 6.1, the heuristics of section 6, mu of section 3.3).
SYMBOLS = {
    "Gain on makespan (and on total flow time, max flow time, max stretch)": "how much better than the benchmark, "
        "in % of the benchmark's value: 100 x (the benchmark's value - this heuristic's) / the benchmark's, on the "
        "same simulation (section 6.1); positive is better, 0 is as good.",
    "Tasks finishing sooner": "the % of tasks that finish earlier than with the benchmark (section 5).",
    "Makespan": "when the last task finishes (section 5).",
    "Total flow time, max flow time": "the total, and the longest, time tasks spend in the system, from arrival to "
        "finish: the paper's sum-flow and max-flow (section 5).",
    "Max stretch": "the worst slowdown of a task: its time in the system over its time alone on its server, the "
        "paper's max-stretch (section 5).",
    "mp-..., mp-masse-...": "Min perturbation variants: the server where the new task delays the tasks already there "
        "the least; -masse- weighs each task by its age (cres: the newest most, decres: the oldest most), -incr counts "
        "only tasks still running (section 6).",
    "μ": "the mean time between two task arrivals, in seconds (section 3.3).",
}


GAIN_FIRST = "gain_makespan"  # the gain shown first; the others are folded away (they often disagree)
GAINS_FOLDED = ("gain_sum_flow", "gain_max_flow", "gain_max_stretch")
GAINS_OTHER = "Gains on the other metrics"


def shared_bars(metrics):
    """None of the Results page's shared bars: this page charts the makespan itself, each heuristic's rule in words
    under its name (its charts then lead, under the verdict)."""
    return []


def heuristic_ticks(fig, labels):
    """The per-trial chart's heuristics with their rule in words under each name, as in this model's bars."""
    return with_words(fig, labels)


def tolerance_words(seconds: float) -> str:
    """A tolerance in words: "a microsecond", "a millisecond", "exactly" (0), else "0.5 s"."""
    words = {0.0: "exactly", 1e-6: "within a microsecond", 1e-3: "within a millisecond", 1.0: "within a second"}
    return words.get(float(seconds), f"within {seconds:g} s")


def results_charts(results: pd.DataFrame, scenario, colors: dict, key: str) -> None:
    """The makespan bars (the scenario's question), then the gain on makespan against the benchmark (the lead's
    number), the other gains folded away, and % of tasks finishing sooner / at the same time / later than the
    benchmark, stacked per heuristic; every chart names each heuristic's rule in words under its name."""
    labels = [h.label for h in scenario.heuristics]
    what_the_names_mean(scenario, key, SYMBOLS)
    ref = plain(scenario.spec.reference)  # a heuristic's label, said in Markdown below
    references = scenario_references(scenario)
    makespan = summarize(results, ["makespan"], methods=MODEL.interval_methods())
    st.plotly_chart(named_bars(makespan, [MODEL.metric("makespan")], colors, references,
                               scenario_benchmark(scenario)), key=f"{key}_ts_makespan", width="stretch")
    summary = summarize(results, [GAIN_FIRST, *GAINS_FOLDED], methods=MODEL.interval_methods())
    st.subheader(f"Against the benchmark {ref}: the paper's measures")
    st.caption("Each heuristic against the benchmark on the same trials: the gain on makespan, on the other "
               "metrics, and the tasks finishing sooner. They need not agree with the makespan or with each other: a "
               "heuristic can finish the last task sooner and still keep some tasks waiting longer.")
    # open, not folded: the lead's "beat the benchmark by about 8.9%" is this chart's number, which the makespan
    # bars from zero (0, 1, 2 hours) hid
    st.plotly_chart(gain_bars(summary, [MODEL.metric(GAIN_FIRST)], scenario.spec.reference, colors, references),
                    key=f"{key}_ts_gain", width="stretch")
    st.caption(f"Gain on makespan: 100 x (the benchmark's makespan - this heuristic's) / the benchmark's, on the same "
               f"{MODEL.trial_word}s (section 6.1): positive is better, 0 is as good as {ref}.")
    with st.expander(GAINS_OTHER, expanded=False):
        st.plotly_chart(gain_bars(summary, [MODEL.metric(m) for m in GAINS_FOLDED], scenario.spec.reference, colors,
                                  references),
                        key=f"{key}_ts_gains_other", width="stretch")
        st.caption("The same gain on the total flow time (the total time tasks spend in the system), the max flow time "
                   "(the longest time a task spends there) and the max stretch (the worst slowdown of a task).")
    with st.expander(f"Tasks finishing sooner, at the same time or later than with {ref}", expanded=False):
        means = results.groupby("heuristic")[["pct_sooner", "pct_same", "pct_later"]].mean()
        st.caption(f"Each task's finish against its finish with the benchmark {ref} "
                   f"({plain(heuristic_words(scenario.spec.reference, scenario.model)) or ref}) on the same "
                   f"{MODEL.trial_word}s; counted as a tie "
                   f"(equal {tolerance_words(scenario.spec.same_tolerance)}) when the two finishes are that close.")
        st.plotly_chart(sooner_same_later(means, labels, scenario.spec.reference,
                                          direction(MODEL.metric("pct_sooner"))),
                        key=f"{key}_ts_ssl", width="stretch")


SWEEP_METRICS = {"gain_makespan": 0.0, "gain_sum_flow": 0.0, "gain_max_flow": 0.0, "gain_max_stretch": 0.0,
                 "pct_sooner": 50.0}  # the panels of the paper's Figs. 4-14, and the colour scale's centre


def sweep_charts(table: pd.DataFrame, key: str) -> None:
    """The paper's 3-D figures: a gain (or % sooner) over (mu, tasks) as heatmaps, one panel per heuristic, for a
    sweep over ``mean_interarrival`` and ``tasks`` (``table``: the sweep's summary, means and intervals per point)."""
    shown = {m: mid for m, mid in SWEEP_METRICS.items() if m in table.columns}
    if not {"mean_interarrival", "tasks", "heuristic"} <= set(table.columns) or not shown:
        return
    by_name = {m.name: m for m in MODEL.columns()}
    st.subheader("Against the benchmark over μ and the number of tasks (the paper's Figs. 4-14)")
    metric = st.selectbox("Heatmaps of", list(shown), format_func=lambda n: by_name[n].title, key=f"{key}_ts_metric")
    title = f"{by_name[metric].title} against the benchmark: {direction(by_name[metric])}"
    st.plotly_chart(gain_heatmaps(table, metric, shown[metric], title=title), key=f"{key}_ts_heat", width="stretch")
    if {f"{metric}_lower", f"{metric}_upper"} <= set(table.columns):
        half = (table[f"{metric}_upper"] - table[f"{metric}_lower"]) / 2
        n = f" over {int(table['trials'].max())} {MODEL.trial_word}s" if "trials" in table.columns else ""
        st.caption(f"Blue: better than the benchmark. Each cell is a mean{n}; the 95% interval's half-width is "
                   f"{half.median():.1f} percentage points at the "
                   f"median cell (at most {half.max():.1f}).")


def _kept(what: str) -> str:
    """What a bad upload leaves in use, said with its error."""
    if st.session_state.get(OWN[what]) is None:
        return ""
    return f" The {what} table shown below, the one in use before, stays in use."


def _upload(what: str, parse) -> None:
    up = st.file_uploader(f"Your {what} CSV", type=["csv", "txt", "tsv"], key=W + f"ts_up_{what}",
                          help="servers: speed_mflops, bandwidth_mbit, optional name; tasks: arrival (s), input_mb, "
                               "mflop, output_mb (MB = 10^6 bytes)")
    st.caption(upload_limits())
    if up is not None:
        try:
            st.session_state[OWN[what]] = parse(uploaded_text(up, "CSV"), up.name)
        except Exception as exc:  # one line under the uploader (a parser's own failure too)
            st.error(f"{plain(describe_error(exc).rstrip('.'))}.{_kept(what)}")


def _own_table(what: str, current, parse, own_label: str) -> bool:
    """Servers or tasks drawn per trial, or the user's own CSV (its uploader and the table in use); True for the own."""
    own = st.radio(what.capitalize(), ["draw", "own"], key=default(f"ts_{what}_mode", "own" if current else "draw"),
                   format_func={"draw": "draw per trial (section 3.3)", "own": own_label}.get, horizontal=True) == "own"
    if own:
        st.session_state.setdefault(OWN[what], current)
        _upload(what, parse)
        table = st.session_state.get(OWN[what])
        if table is not None:
            st.dataframe(pd.DataFrame(table.to_dict()), key=W + f"ts_{what}_view", height=200)
    return own


def editor(sc) -> None:
    """Servers (drawn or uploaded), task sizes and arrivals (drawn or uploaded), duplex, comparison settings."""
    s = sc.spec
    for key in DRAW_KEYS:  # hidden while the user's own table is used: keep what was typed for the way back
        if W + key in st.session_state:
            st.session_state[W + key] = st.session_state[W + key]
    st.subheader("Servers")
    own_servers = _own_table("servers", s.platform, parse_servers, "my own (CSV)")
    if not own_servers:
        c1, c2, c3, c4 = st.columns(4)
        servers = number(c1, "Servers", 1, 1000, key=default("ts_servers", s.servers))
        lo = number(c2, "Slowest speed (Mflop/s)", 1e-6, 1e9, key=default("ts_speed_lo", s.speed_mflops[0]),
                    format="%.6g")
        hi = number(c3, "Fastest speed (Mflop/s)", 1e-6, 1e9, key=default("ts_speed_hi", s.speed_mflops[1]),
                    format="%.6g")
        bw = number(c4, "Card bandwidth (Mbit/s)", 1e-6, 1e9, key=default("ts_bw", s.bandwidth_mbit), format="%.6g")
    duplex = st.radio("Network card", DUPLEX, key=default("ts_duplex", s.duplex), horizontal=True,
                      format_func={"full": "full duplex (section 4.1)",
                                   "half": "half duplex (inputs and outputs share)"}.get)

    st.subheader("Tasks")
    own_tasks = _own_table("tasks", s.task_table, parse_tasks, "my own (CSV, e.g. a log)")
    if not own_tasks:
        c1, c2, c3 = st.columns(3)
        tasks = number(c1, "Tasks", 1, 100_000, key=default("ts_tasks", s.tasks))
        mu = number(c2, "Mean inter-arrival μ (s)", 0.0, 1e9, key=default("ts_mu", s.mean_interarrival),
                             help="0: every task arrives at once")
        law = c3.selectbox("Inter-arrival law", ARRIVALS, key=default("ts_law", s.arrivals),
                           help="exponential: gaps exponential with mean μ, a Poisson process (default); "
                                "poisson-int: whole-second gaps ~ Poisson(μ), section 3.3 taken literally")
        c1, c2, c3, c4, c5 = st.columns(5)
        size_lo = number(c1, "Smallest data (MB)", 1e-9, 1e9, key=default("ts_size_lo", s.size_mb[0]), format="%.6g")
        size_hi = number(c2, "Largest data (MB)", 1e-9, 1e9, key=default("ts_size_hi", s.size_mb[1]), format="%.6g")
        ratio = number(c3, "Compute ≥ this × transfer", 0.0, 1e6, key=default("ts_ratio", s.compute_ratio),
                       format="%.6g")
        max_s = number(c4, "Compute ≤ this on the fastest (s)", 1e-6, 1e9, key=default("ts_max", s.max_compute_s),
                       format="%.6g")
        transfer = c5.selectbox("Transfer counted", TRANSFER, key=default("ts_transfer", s.transfer))
    with st.expander("Comparison settings"):
        c1, c2, c3 = st.columns(3)
        names = [h.name for h in HEURISTICS]
        reference = c1.selectbox("Benchmark for sooner/later and gains", names, key=default("ts_ref", s.reference),
                                 help="the heuristic the gains and the tasks finishing sooner or later are measured "
                                      "against (scenario key reference)")
        tie = number(c2, "Score tie tolerance (s)", 0.0, 1e6, key=default("ts_tie", s.tie_tolerance), format="%.3g")
        same = number(c3, "'Same time' tolerance (s)", 0.0, 1e6, key=default("ts_same", s.same_tolerance),
                               format="%.3g")
    try:
        changes = {"duplex": duplex, "reference": reference, "tie_tolerance": float(tie), "same_tolerance": float(same)}
        if own_servers:
            if st.session_state.get(OWN["servers"]) is None:
                raise HcschedError("upload a servers CSV (speed_mflops, bandwidth_mbit), or draw the servers")
            changes["platform"] = st.session_state[OWN["servers"]]
        else:
            changes.update(platform=None, servers=int(servers), speed_mflops=(float(lo), float(hi)),
                           bandwidth_mbit=float(bw))
        if own_tasks:
            if st.session_state.get(OWN["tasks"]) is None:
                raise HcschedError("upload a tasks CSV (arrival, input_mb, mflop, output_mb), or draw the tasks")
            changes["task_table"] = st.session_state[OWN["tasks"]]
        else:
            changes.update(task_table=None, tasks=int(tasks), mean_interarrival=float(mu), arrivals=law,
                           size_mb=(float(size_lo), float(size_hi)), compute_ratio=float(ratio),
                           max_compute_s=float(max_s), transfer=transfer)
        new = commit_scenario(sc.replace(**changes))
    except HcschedError as exc:
        refuse_runs(str(exc))
        return
    note = size_limit(new.spec)
    if note:
        st.info("Data " + note.removeprefix("; data ") + ". The paper's 100 Mbit/s cards never limit them "
                "(the timeshared model's page of the documentation).")


@st.cache_data(show_spinner=False, max_entries=8)
def _mapping(scenario, trial: int, label: str):
    run = trial_runs(scenario, trial)[label]
    return run.schedule.machine


def explain(scenario) -> None:
    """For one arrival of trial 0 (the earlier tasks mapped by a chosen heuristic): each server's T', T and delta
    of its tasks, and the score each heuristic computed (the key it minimises)."""
    s = scenario.spec
    if s.tasks > EXPLAIN_TASKS:
        st.info(f"Explain replays one trial; this scenario has {s.tasks} tasks (at most {EXPLAIN_TASKS}).")
        return
    labels = [h.label for h in scenario.heuristics]
    saved = st.session_state.setdefault(EXPLAIN_SAVED, {})
    for key, value in saved.items():  # the widgets' last values, also after the page showed another system
        st.session_state.setdefault(key, value)
    if st.session_state.get("ts_explain_h") not in labels:
        st.session_state.pop("ts_explain_h", None)
    c1, c2 = st.columns(2)
    label = c1.selectbox("Earlier tasks mapped by", labels, key="ts_explain_h")
    w = make_workload(s, trial_seeds(scenario.seed, 1)[0])
    order = w.order
    st.session_state["ts_explain_pos"] = min(max(1, int(st.session_state.get("ts_explain_pos", 1))), int(order.size))
    pos = c2.slider("Arrival (in arrival order)", 1, int(order.size), key="ts_explain_pos")
    t = int(order[pos - 1])
    machine = _mapping(scenario, 0, label)
    htm = HTM.of(w, s.duplex, s.tie_tolerance)
    for u in order[:pos - 1]:
        htm.commit(int(u), int(machine[u]))
    plugins = [h for h in scenario.heuristics if h.heuristic.plugin]  # their own rules decide (seed 0's rng)
    p = htm.predict(t, plugins, np.random.default_rng(0))
    st.write(f"Task {t} arrives at {p.arrival:.2f} s; {plain(label)} put it on **s{int(machine[t])}**. Each server's "
             "prediction if it went there:")
    st.dataframe(p.servers.set_index("server"), key="ts_explain_servers")
    st.caption("T_new: the new task's predicted completion T_{n+1}; sum_delta: the sum of the perturbations of the "
               "server's tasks; each heuristic's column is the first key it minimises. With their tie rules (default "
               "parameters; your own heuristics by their rules), they pick: "
               + ", ".join(f"{n} s{j}" for n, j in p.choice.items()))
    scored = [c for c in p.choice if c in p.servers.columns]
    shown = st.selectbox("Chart", ["T_new", "sum_delta", *scored], key="ts_explain_col")
    saved.update({"ts_explain_h": label, "ts_explain_pos": pos, "ts_explain_col": shown})
    st.plotly_chart(server_bars(p.servers, shown, p.choice.get(shown)), key="ts_explain_chart", width="stretch")
    st.write("The local tasks of every server (T' before, T after adding the new task, delta = T - T', D = T - a):")
    st.dataframe(p.tasks, key="ts_explain_tasks", hide_index=True)
