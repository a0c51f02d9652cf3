"""Sweeps: the current scenario over a range of one or two of its parameters, in the background, with curves."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model
from hcsched.charts import heuristic_colors
from hcsched.errors import describe_error
from hcsched.experiment import duration_words, estimate_seconds
from hcsched.sweep import candidates, grid, parse_vary, sweep, sweep_summary
from hcsched.sweep_charts import default_x_scale, sweep_heatmap, sweep_lines, x_scales
from pages.compare_view import show_comparison
from pages.history import Side, history, side_of
from pages.jobs import PARALLEL_JOBS_MAX, Job, follow, parallel_jobs
from pages.models import sweep_key_example, ui
from pages.results_view import show_if_current
from pages.session import Keys, init_session_state, same_experiment, scenario_problem
from pages.widgets import LIMIT_SECONDS, file_name, link, plain, shown_as_error, sweep_refusal

TYPE_KEY = "(type a key)"
K = "sw_"  # this page's widget keys


@dataclass
class SweepResult:
    scenario: Scenario
    vary: dict
    results: pd.DataFrame
    summary: pd.DataFrame
    seconds: float
    number: int  # the session's n-th sweep: its view widgets are its own, so a new sweep starts with its own defaults


def _on_parameter(slot: str) -> None:
    """A new parameter proposes its own range of values."""
    key = st.session_state[K + "param" + slot]
    st.session_state[K + "values" + slot] = st.session_state[K + "proposals"].get(key, "")


def _parameter(slot: str, proposals: dict[str, str], label: str, example: str | None) -> tuple[str, str]:
    options = [*proposals, TYPE_KEY]
    if st.session_state.get(K + "param" + slot) not in options:
        st.session_state[K + "param" + slot] = options[0 if slot == "1" else min(1, len(options) - 1)]
        _on_parameter(slot)
    c1, c2 = st.columns([1, 2])
    key = c1.selectbox(label, options, key=K + "param" + slot, on_change=_on_parameter, args=(slot,))
    if key == TYPE_KEY:
        key = c1.text_input("Key (a dotted path into the scenario file)", key=K + "typed" + slot,
                            placeholder=example or next(iter(proposals), "")).strip()
    values = c2.text_input("Values: a comma list, START:STOP:COUNT (append :log for log spacing) or a JSON array",
                           key=K + "values" + slot)
    return key, values


def _estimate(points: list[Scenario], jobs: int) -> float:
    return sum(estimate_seconds(p, jobs=jobs) for p in points)


def _start(scenario: Scenario, vary: dict, trials: int, jobs: int, estimate: float) -> None:
    job = Job(scenario, len(grid(scenario, vary)) * trials, estimate, get_model(scenario.model).trial_word,
              what=f"Sweep of {plain(scenario.name)}: ", notice_key=K + "notice", on_result=_keep, noun="sweep")
    number = st.session_state[K + "count"] = st.session_state.get(K + "count", 0) + 1

    def work(progress) -> SweepResult:
        results = sweep(scenario, vary, trials=trials, jobs=jobs, progress=progress)
        return SweepResult(scenario, vary, results, sweep_summary(results, scenario, vary),
                           time.monotonic() - job.started,
                           number)

    job.start(K + "job", work)


def _keep(job: Job, result: SweepResult) -> None:
    st.session_state[K + "result"] = result


X_SCALE_NAMES = {"linear": "linear", "log": "logarithmic", "category": "evenly spaced (not to scale)"}


def _show(result: SweepResult) -> None:
    model = get_model(result.scenario.model)
    keys = list(result.vary)
    st.subheader(plain(f"Sweep of {result.scenario.name} over {' and '.join(keys)}"))
    st.caption(f"{len(result.results)} rows ({result.results['point'].nunique()} points x "
               f"{result.results['trial'].nunique()} {model.trial_word}s x heuristics) in {result.seconds:.1f} s; "
               "the bands are 95% confidence intervals of the mean; every point sees the same random workloads "
               "(common random numbers), so differences between points are the parameter's effect.")
    metrics = [m for m in model.bar_metrics() if m.name in result.summary.columns]
    colors = heuristic_colors(result.scenario.heuristics)
    if len(keys) == 1:
        values = result.summary[keys[0]]
        scales = x_scales(values)
        default = default_x_scale(values)
        scale = st.radio("x axis", scales, index=scales.index(default), format_func=X_SCALE_NAMES.get, horizontal=True,
                         key=f"{K}xscale{result.number}", help="Evenly spaced: every value gets the same "
                                                               "width, so a few uneven values "
                                                "(0, 10, 100) stay readable; distances "
                                                "along the axis then mean nothing.")
        st.plotly_chart(sweep_lines(result.summary, keys[0], metrics, colors, x_scale=scale), width="stretch",
                        key=K + "lines")
    else:
        chosen = st.selectbox("Metric", [m.label for m in metrics], key=f"{K}metric{result.number}")
        metric = next(m for m in metrics if m.label == chosen)
        st.plotly_chart(sweep_heatmap(result.summary, (keys[0], keys[1]), metric), width="stretch", key=K + "heat")
    own = getattr(ui(result.scenario.model), "sweep_charts", None)  # the model's own charts of a sweep
    if own is not None:
        own(result.summary, K + "model")
    c1, c2 = st.columns(2)  # files named after the scenario: sweeps of two scenarios never overwrite each other
    c1.download_button(f"Sweep results, every {model.trial_word} (CSV)", lambda: result.results.to_csv(index=False),
                       file_name(result.scenario, "sweep", "csv"), "text/csv", key=K + "dl_rows", on_click="ignore")
    c2.download_button("Sweep summary with intervals (CSV)", lambda: result.summary.to_csv(index=False),
                       file_name(result.scenario, "sweep-summary", "csv"), "text/csv", key=K + "dl_summary",
                       on_click="ignore")
    if st.toggle("Compare a point with a run of this session, or with another point", key=f"{K}cmp{result.number}",
                 help="Per heuristic and metric both means and the change with its 95% interval"):
        _compare(result)


def point_sides(result: SweepResult) -> list[Side]:
    """Each point of a sweep as one side of a comparison: its scenario (with the sweep's trials) and its rows, exactly
    the run of that scenario (common random numbers, :mod:`hcsched.sweep`)."""
    rows = result.results
    trials = int(rows["trial"].nunique())
    drop = ["point", *result.vary]
    sides = []
    for point in grid(result.scenario, result.vary):
        values = ", ".join(f"{k}={v}" for k, v in point.values.items())
        own = rows[rows["point"] == point.index].drop(columns=drop).reset_index(drop=True)
        sides.append(Side(f"sweep point {point.index}: {values}", point.scenario.replace(trials=trials), own))
    return sides


def _compare(result: SweepResult) -> None:
    """A sweep point against a run of the session (or another point): the change with its 95% interval."""
    points = point_sides(result)
    runs = [side_of(e) for e in reversed(history())]
    sides = {s.title: s for s in [*runs, *points]}
    key = f"{K}cmp{result.number}_"
    c1, c2 = st.columns(2)
    before = c1.selectbox("Baseline", [*(s.title for s in points), *(s.title for s in runs)], key=f"{key}before",
                          help="Another point of the sweep, or a run of this session (Results keeps them)")
    after = c2.selectbox("What-if", [s.title for s in points], index=len(points) - 1, key=f"{key}after")
    show_comparison(sides[before], sides[after], key)


def _show_current(result: SweepResult) -> None:
    """The last sweep, said to belong to its scenario; a sweep of another scenario is marked and folded away."""
    show_if_current(result.scenario, lambda: _show(result), "sweep results", "Run the sweep",
                    f"{K}show_other{result.number}")


def _controls(scenario: Scenario) -> None:
    """The parameters, their values, the estimate, and the Run button."""
    model = get_model(scenario.model)
    proposals = candidates(scenario)
    st.session_state[K + "proposals"] = proposals
    example = sweep_key_example(scenario.model)  # the model's own example of a typed key
    first = _parameter("1", proposals, "Parameter", example)
    second = _parameter("2", proposals, "Second parameter", example) if st.checkbox("Vary a second parameter", key=K
                                                                                    + "two") else None
    c1, c2 = st.columns(2)
    trials = int(c1.number_input(f"{model.trial_word.title()}s per point", 1, 10_000, min(scenario.trials, 10),
                                 key=K + "trials"))
    jobs = int(c2.number_input("Parallel jobs", 1, PARALLEL_JOBS_MAX, parallel_jobs(), key=K + "jobs",
                               help="points' chunks computed at once; default: all the server's workers (or its "
                                    "Dask cluster's worker threads)"))
    problem = scenario_problem()
    if problem:
        st.error("The Scenario page has an invalid edit, so this would sweep the last "
                 f"valid scenario: {plain(problem)} "
                 "Fix it on the Scenario page first.")
    vary = estimate = too_large = None
    try:
        vary = parse_vary([f"{key}={values}" for key, values in (first, second) if (key, values) != ("", "")]
                          if second else [f"{first[0]}={first[1]}"])
        runs = [p.scenario.replace(trials=trials) for p in grid(scenario, vary)]
        too_large = sweep_refusal(runs, jobs)  # before the estimate, which would draw the largest point's machines
        estimate = None if too_large else _estimate(runs, jobs)
    except Exception as exc:  # a bad value names the key; a model's own failure is one line too, never a traceback
        st.error(plain(describe_error(exc)))
    if too_large:
        st.error(too_large)
    if estimate is not None:
        points = len(runs)
        if estimate > LIMIT_SECONDS:
            st.error(f"This sweep ({points} points x {trials} {model.trial_word}s) would take about "
                     f"{estimate / 60:.1f} "
                     f"minutes; the limit per run here is {LIMIT_SECONDS / 60:.0f} minutes. Use fewer points or "
                     f"{model.trial_word}s, or the command line (`hcsched sweep`), which has no limit.")
        else:
            st.caption(f"{points} points x {trials} {model.trial_word}s: about {duration_words(estimate)}.")
    allowed = (estimate is not None and estimate <= LIMIT_SECONDS and not too_large and K
               + "job" not in st.session_state
               and not problem)
    if st.button("Run the sweep", key=K + "run", type="primary", disabled=not allowed):
        _start(scenario, vary, trials, jobs, estimate)
        st.rerun()


init_session_state()
st.title("Sweep")
scenario = st.session_state[Keys.SCENARIO]
st.write(f"**{plain(scenario.name)}**: {get_model(scenario.model).describe(scenario.spec)}; "
         + ", ".join(plain(h.label) for h in scenario.heuristics))
link("scenario", "Change the scenario")
with shown_as_error("The sweep's settings could not be shown"):
    _controls(scenario)
follow(K + "job", K + "cancel")
notice = st.session_state.get(K + "notice")
if notice and same_experiment(notice[2], scenario):
    getattr(st, notice[0])(notice[1])
if K + "result" in st.session_state:
    with shown_as_error("The sweep's charts could not be drawn"):
        _show_current(st.session_state[K + "result"])
