"""The dashboard's part of the value model (Kim et al. 2007): the Scenario page's editor of arrivals, execution
times, priorities and weights, soft deadlines and the evaluation window; the expected number of tasks on Home; a
Gantt chart coloured by deadline outcome (priority on hover); V as % of UB with intervals and UB as the 100% line,
and tasks by priority and deadline outcome stacked per heuristic (Results); and ``explain``: one mapping event of
the paper's worked examples (Tables 2-5), with the values each heuristic compared.

Every widget keeps its value in the session (keys ``sc_w_v_*``), so an invalid edit is shown inline, with the field,
the value and what is allowed, and nothing typed is lost; the last valid scenario stays until the edit is valid.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, summarize
from hcsched.formatting import minutes_beside, readable_number
from hcsched.heuristics import get_heuristic, heuristic_names, heuristic_title
from hcsched.models.value import MODEL
from hcsched.models.value.charts import (
    DEADLINES_TEXT,
    DEADLINES_WORDS,
    EARLY_WORDS,
    UB_MEANS,
    UB_WORDS,
    VALUE_WORDS,
    WINDOW_WORDS,
    early_shares,
    gantt,
    grey_leads,
    later_words,
    outcome_bars,
    outcome_table,
    task_frame,
    value_bars,
)
from hcsched.models.value.explain import EXAMPLES, explain_event
from hcsched.models.value.spec import AVAILABLE, DEADLINES, HETEROGENEITY, PRIORITIES, TRIAL_MEDIAN, WEIGHTING
from hcsched.models.value.worth import OUTCOMES
from hcsched.verdict import bound_share, scenario_references
from pages.models import named_in_words
from pages.models._curves import what_the_names_mean
from pages.session import commit_scenario, default, refuse_runs
from pages.widgets import number, plain, plain_html

OWN = "own"
GANTT_TASKS = 400  # tasks in the default Gantt window of a large trial
#: The symbols of the model's Results page in plain words (Kim et al. 2007: V in section 2.2.3, UB in section 2.3,
#: the deadlines in section 2.2.2, the static benchmarks in section 5).
SYMBOLS = {
    "Total value earned (V)": "what the run earned: the sum over tasks of priority weight x deadline factor x the "
                              "share of the task run while scoring is on, after the start-up (section "
                              "2.2.3).",
    "Upper bound on value (UB)": f"{UB_MEANS}: the most any schedule could earn, by a relaxed problem (section 2.3); "
                                 "no schedule reaches 100% of it. The bars against it are as in the paper's Figs. 2 "
                                 "and 3.",
    "D100, D50, D25": "each task's three soft deadlines, by which it earns 100%, 50% and 25% of its value "
                      f"(section 2.2.2): {DEADLINES_WORDS}.",
    "Steady-state window (B to E)": "the stretch of simulated time counted, from its start (B) to its end (E): only "
                                    "work done inside it counts (section 2.2.3).",
    "tpsa, ga": "static benchmarks: they plan the whole trial knowing every arrival and time in advance, which no "
                "online heuristic can (section 5); shown for reference, never crowned.",
}
SWEEP_KEY_EXAMPLE = "window.1 or heuristics.9.generations"


def reset() -> None:
    """The editor keeps nothing outside its widgets' keys (cleared by the Scenario page)."""


def overview(scenario, container) -> None:
    """The expected number of tasks per trial, the weights and the deadline multipliers."""
    s = scenario.spec
    w = ", ".join(f"{x:g}" for x in s.weight_values)
    m = ", ".join(f"{x:g}" for x in s.multiplier_values)
    container.metric("Tasks per trial (expected)", f"{s.expected_tasks:,.0f}",
                     help=f"weights high, medium, low: {w}; deadline multipliers {m}")


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """One heuristic's run as a Gantt chart coloured by deadline outcome, priority and deadlines on hover."""
    labels = list(runs)
    c1, c2, c3 = st.columns([2, 1, 1])
    label = c1.selectbox("Deadline outcomes of the tasks, for", labels, key=f"{key}_v_gantt_h")
    run = runs[label]
    frame = task_frame(run)
    started = frame.dropna(subset=["start"])
    end = float(started["finish"].max()) if len(started) else 1.0
    begin = float(started["start"].min()) if len(started) else 0.0
    n = max(1, len(started))
    length_default = end - begin if n <= GANTT_TASKS else float(f"{(end - begin) * GANTT_TASKS / n:.3g}")
    length = c3.number_input("Window length (s)", min_value=1e-6, max_value=max(end - begin, 1e-6),
                             value=max(min(length_default, end - begin), 1e-6), key=f"{key}_v_gantt_len",
                             format="%.4g")
    first = 0.0 if begin < length else begin  # the trial's start, not its first task's (a tryout read "1.797")
    low = c2.number_input("Window start (s)", min_value=0.0, max_value=max(end, 0.0), value=first,
                          key=f"{key}_v_gantt_from", format="%.4g")
    s = run.workload
    name = heuristic_title(label, "value")
    title = f"{label}{f' ({name})' if name else ''}: tasks by deadline outcome (trial of {s.tasks:,} tasks)"
    marks = _window_marks(run)
    st.plotly_chart(gantt(frame, run.schedule.machines, plain_html(title), window=(low, low + length),
                          marks=marks), key=f"{key}_v_gantt", width="stretch")
    if marks is not None:
        st.caption(window_note(frame, marks))
    st.caption(value_text(label, run.value, run.upper_bound))
    st.dataframe(outcome_table(frame), key=f"{key}_v_counts")


def value_text(label: str, value: float, upper_bound: float) -> str:
    """The caption under a run's deadline-outcome Gantt: its V and V as % of UB (sections 2.2.3 and 2.3), the numbers
    as the Results page prints them (:func:`~hcsched.formatting.readable_number`: "8,194", not "8194")."""
    share = 100 * value / upper_bound if upper_bound > 0 else float("nan")
    return (f"{plain(label)}, this trial: the {VALUE_WORDS} is {readable_number(value)}, {share:.1f}% of the "
            f"{UB_WORDS} of {readable_number(upper_bound)}. Tasks by priority and outcome. {DEADLINES_TEXT}")


def _window_marks(run) -> tuple[float, float] | None:
    return tuple(run.window) if np.isfinite(run.window).all() else None


def window_note(frame: pd.DataFrame, window) -> str:
    """Why a Gantt may show idle machines at the start: V counts only the part of each task's execution
    inside the evaluation window [B, E] (section 2.2.3, :func:`~hcsched.models.value.worth.boundary_factor`), so work
    before B earns nothing; TPSA and GA, which plan the whole trial with full knowledge (section 5), gain nothing by
    running tasks before B. With the run's window and, when every machine idles after the first arrival, when each
    starts.
    ``frame``: :func:`task_frame` of the run; ``window``: its (B, E)."""
    b, e = window
    text = (f"The {VALUE_WORDS} counts only the work done inside {WINDOW_WORDS}: from {minutes_beside(b, e)} to "
            f"{minutes_beside(e, e)}, the dotted lines. Work done before then earns nothing.")
    started = frame.dropna(subset=["start"])
    if started.empty:
        return text
    first = started.groupby("machine")["start"].min()
    arrival, idle = float(frame["arrival"].min()), float(first.min())
    if idle > arrival + 1e-9:
        text += (f" Here the machines start their first tasks between {idle:.0f} and {float(first.max()):.0f} s, "
                 f"although the first task arrived at {arrival:.0f} s:"
                 " the static benchmarks (TPSA, GA) plan the whole trial and, running tasks before the window for "
                 "nothing, move the early tasks later, where their execution counts. This is not a fault of the run.")
    return text


def shared_bars(metrics):
    """Nothing: the Results page's shared bars would repeat V as % of UB, which this page charts with UB's line and an
    axis that shows differences of a few points (its charts then lead, under the verdict)."""
    return []


def results_charts(results: pd.DataFrame, scenario, colors: dict, key: str) -> None:
    """V as % of UB with 95% intervals and UB as the 100% line; tasks by priority and deadline outcome."""
    labels = [h.label for h in scenario.heuristics]
    what_the_names_mean(scenario, key, SYMBOLS)  # the chart's own title names it: no heading saying it again
    summary = summarize(results, ["value_pct_ub"], methods=MODEL.interval_methods())
    references = scenario_references(scenario)
    early = early_shares(results)
    most = bound_share(results, MODEL.metric("value_early"), "upper_bound") if early else math.nan
    means = dict(zip(summary["heuristic"], summary["value_pct_ub"], strict=True))
    st.plotly_chart(value_bars(summary, labels, colors, MODEL.metric("value_pct_ub"), references, early, most),
                    key=f"{key}_v_pct", width="stretch")
    grey = (f" The grey end of each bar is what the {EARLY_WORDS}, which arrive before scoring starts, earn once it "
            "has started (their work before then earns nothing); the solid part, what the later tasks earn. A lead "
            "made in the grey comes from how the "
            "start-up tasks are carried into the window. "
            + later_words(means, early, list(references), most)
            + " ".join(grey_leads(means, early, list(references)))
            if early else "")
    hatched = (f" Hatched bars, marked (reference): {', '.join(references)}, the static benchmarks that plan the "
               "whole trial knowing every arrival in advance; no online heuristic can, so they are "
               "references, not contenders." if references else "")
    st.caption(f"The {UB_WORDS} is {UB_MEANS}: a task may use several machines together, meets every deadline and "
               "runs at its fastest. No schedule reaches 100%; the optimum lies between the best bar and the dashed "
               "line." + grey + hatched)
    st.subheader("Tasks by priority and deadline outcome")
    cols = [f"{o}_{p}" for p in PRIORITIES for o in OUTCOMES]
    means = results.groupby("heuristic")[cols].mean()
    st.plotly_chart(outcome_bars(means, labels, MODEL.metric("met_d100"), references), key=f"{key}_v_outcomes",
                    width="stretch")
    st.caption(DEADLINES_TEXT)


# --- the Scenario page's editor ---------------------------------------------------------------------------------
def _num(container, label: str, key: str, value: float, lo: float = 0.0, hi: float = 1e9, **kw) -> float:
    return number(container, label, float(lo), float(hi), key=default(key, float(value)), format="%.6g", **kw)


def _int(container, label: str, key: str, value: int, lo: int, hi: int, **kw) -> int:
    return number(container, label, int(lo), int(hi), key=default(key, int(value)), step=1, **kw)


def editor(sc) -> None:
    """Arrivals, execution times, priorities and weights, soft deadlines, the evaluation window and mat's rule."""
    s = sc.spec
    st.subheader("Machines and arrivals (section 6)")
    c = st.columns(4)
    machines = _int(c[0], "Machines", "v_machines", s.machines, 1, 1024)
    duration = _num(c[1], "Arrivals end (s)", "v_duration", s.duration, help="the paper: 250 min = 15000 s")
    startup = _num(c[2], "Start-up period (s)", "v_startup", s.startup, help="the paper: 10 min")
    startup_gap = _num(c[3], "Mean gap in the start-up (s)", "v_startup_gap", s.startup_gap, help="the paper: 3.5 s")
    c = st.columns(4)
    gap = _num(c[0], "Mean gap after it (s)", "v_gap", s.gap, help="the paper: 14 s")
    bursts = _int(c[1], "Bursts", "v_bursts", s.bursts, 0, 1000, help="non-overlapping, placed uniformly at random")
    burst_length = _num(c[2], "Burst length (s)", "v_burst_length", s.burst_length, help="the paper: 10 min")
    burst_gap = _num(c[3], "Mean gap in a burst (s)", "v_burst_gap", s.burst_gap, help="the paper: 7 s")

    st.subheader("Execution times")
    c = st.columns(4)
    task_mean = _num(c[0], "Mean ETC (s)", "v_task_mean", s.task_mean, help="CVB gamma; the paper: 3 min")
    het = c[1].selectbox("Heterogeneity", [*HETEROGENEITY, OWN], key=default(
        "v_het", OWN if s.task_cov is not None or s.machine_cov is not None else s.heterogeneity),
        format_func=lambda h: {"high": "high (COV 0.9 / 0.9)", "low": "low (COV 0.3 / 0.3)",
                               OWN: "my own COVs"}[h])
    covs = s.covs
    task_cov = _num(c[2], "Task COV", "v_task_cov", covs[0], disabled=het != OWN)
    machine_cov = _num(c[3], "Machine COV", "v_machine_cov", covs[1], disabled=het != OWN)
    c = st.columns(4)
    atc_cov = _num(c[0], "Actual-time COV", "v_atc_cov", s.atc_cov, help="ATC gamma around the ETC; the paper: 0.1")
    available = c[1].selectbox("Machine available time", AVAILABLE, key=default("v_available", s.machine_available),
                               format_func={"actual": "running task's actual end (section 6)",
                                            "expected": "its start + ETC (ETC model)"}.get)
    timing = c[2].checkbox("Measure mapping events' wall time", key=default("v_timing", s.event_timing),
                           help="mean_event_ms; measured, never fed into the simulated clock")

    st.subheader("Priorities and weights (section 2.2.1)")
    c = st.columns(4)
    shares = [_num(c[i], f"Share of {p} priority", f"v_share_{p}", s.priority_shares[i], 0.0, 1e6)
              for i, p in enumerate(PRIORITIES)]
    weighting = c[3].selectbox("Weighting", [*WEIGHTING, OWN], key=default(
        "v_weighting", OWN if s.weights is not None else s.weighting),
        format_func=lambda x: {"heavy": "heavy (16, 4, 1)", "light": "light (4, 2, 1)", OWN: "my own weights"}[x])
    if weighting == OWN:
        c = st.columns(3)
        weights = [_num(c[i], f"Weight of {p}", f"v_weight_{p}", s.weight_values[i]) for i, p in enumerate(PRIORITIES)]

    st.subheader("Soft deadlines (section 6)")
    st.caption("D_k = arrival + the task's median ETC + multiplier_k x the constant; the deadline factor is 1 by "
               "D100, 0.5 by D50, 0.25 by D25, 0.05 later, 0 if never started.")
    c = st.columns(4)
    kind = c[0].selectbox("Deadlines", [*DEADLINES, OWN], key=default(
        "v_deadlines", OWN if s.multipliers is not None else s.deadlines),
        format_func=lambda x: {"loose": "loose (4, 8, 12)", "tight": "tight (1, 2, 4)", OWN: "my own multipliers"}[x])
    trial_const = c[1].selectbox("Constant", ["number", TRIAL_MEDIAN], key=default(
        "v_const_mode", TRIAL_MEDIAN if s.deadline_constant == TRIAL_MEDIAN else "number"),
        format_func={"number": "a number of seconds (2.4 min = 144 s)",
                     TRIAL_MEDIAN: "the trial's median ETC (section 6, the other reading)"}.get) == TRIAL_MEDIAN
    const = _num(c[2], "Constant (s)", "v_const", 144.0 if s.deadline_constant == TRIAL_MEDIAN else
                 s.deadline_constant, disabled=trial_const)
    if kind == OWN:
        c = st.columns(3)
        mult = [_num(c[i], f"Multiplier of {d}", f"v_mult_{d}", s.multiplier_values[i])
                for i, d in enumerate(("D100", "D50", "D25"))]

    st.subheader("Steady-state window: the value counted (section 2.2.3)")
    c = st.columns(2)
    b = _num(c[0], "Window start, B (s)", "v_window_b", s.window[0],
             help="Work done before it earns nothing (the paper: 10 min = 600 s).")
    e = _num(c[1], "Window end, E (s)", "v_window_e", s.window[1],
             help="Work done after it earns nothing (the paper: 250 min = 15000 s).")

    changes = dict(machines=int(machines), duration=duration, startup=startup, startup_gap=startup_gap, gap=gap,
                   bursts=int(bursts), burst_length=burst_length, burst_gap=burst_gap, task_mean=task_mean,
                   heterogeneity=s.heterogeneity if het == OWN else het,
                   task_cov=task_cov if het == OWN else None, machine_cov=machine_cov if het == OWN else None,
                   atc_cov=atc_cov, machine_available=available, event_timing=bool(timing),
                   priority_shares=tuple(shares),
                   weighting=s.weighting if weighting == OWN else weighting,
                   weights=tuple(weights) if weighting == OWN else None,
                   deadlines=s.deadlines if kind == OWN else kind, multipliers=tuple(mult) if kind == OWN else None,
                   deadline_constant=TRIAL_MEDIAN if trial_const else const, window=(b, e))
    try:
        new = commit_scenario(sc.replace(**changes))
    except HcschedError as exc:
        refuse_runs(str(exc))
        return
    st.caption(f"About {new.spec.expected_tasks:.0f} tasks per trial from these rates "
               "(the paper's settings give 1328.6; the paper reports 1276, see the value model's page of the "
               "documentation).")


# --- Explain: one mapping event of the worked examples -----------------------------------------------------------
def explain(scenario) -> None:
    """One mapping event of the paper's worked examples (Tables 2-5: equal priorities, a task missing D100 assumed
    to meet D50): the values each rebuilding heuristic compared, round by round, and the pairs it mapped."""
    c1, c2 = st.columns(2)
    name = c1.selectbox("Worked example", list(EXAMPLES), key="v_explain_example",
                        format_func=lambda k: EXAMPLES[k].title)
    ex = EXAMPLES[name]
    steps = explain_event(ex, [get_heuristic(n, "value") for n in heuristic_names(model="value")])
    heuristic = c2.selectbox("Heuristic", list(steps), key="v_explain_h")
    st.write(ex.text)
    st.dataframe(ex.frame(), key="v_explain_tasks", hide_index=True)
    step = steps[heuristic]
    st.write(step.text)
    for i, table in enumerate(step.tables):
        st.caption(table.attrs.get("title", ""))
        st.dataframe(table, key=f"v_explain_round_{i}", hide_index=True)
    st.write("Mapped, in order: " + ", ".join(f"t{t} → m{j} (done at {c:g})" for t, j, c in step.mapped))
    st.caption("Queueing Table and the Switching Algorithm only place the new task in the queues (sections 4.5 and "
               "4.8), and Percent Best handles one priority group at a time: the examples' single event with equal "
               "priorities does not show them. A plug-in heuristic (your own rule) shows only the assignment its "
               "rule returned.")


def heuristic_ticks(fig, labels):
    """The shared charts' heuristics: each label over its rule in words (:func:`pages.models.named_in_words`), as the
    lines name them."""
    return named_in_words("value", fig, labels)
