"""What every page shares: session-state keys, the background run, and the results view.

Pages stay thin: they read widgets, call the library and show what it returns.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from hcsched import HcschedError, Scenario, get_model, preset, preset_names, simulate, summarize, trial_runs
from hcsched.charts import GANTT_BARS, gantt, gantt_default_window, heuristic_colors, metric_bars, trial_distribution
from hcsched.experiment import estimate_seconds, schedule_table, schedules_of
from hcsched.models import DEFAULT_MODEL, model_names, warm_up
from hcsched.models.base import Metric

QUICK_SECONDS = 1.0  # runs estimated shorter than this run at once, without a progress bar
LIMIT_SECONDS = float(os.environ.get("HCSCHED_RUN_LIMIT_SECONDS", 600))  # longer runs and sweeps are refused (per session)
ASSETS = Path(__file__).resolve().parents[1] / "assets"
PAGES = {"home": "app.py", "scenario": "pages/scenario.py", "heuristics": "pages/heuristics.py", "run": "pages/run.py",
         "results": "pages/results.py", "explain": "pages/explain.py", "sweep": "pages/sweep.py"}


class Keys:
    """Session-state keys shared between pages (widget keys are local to their page)."""

    SCENARIO = "scenario"  # the current, valid Scenario
    RESULTS = "results"  # RunResult of the last finished run
    JOB = "job"  # the running Job, if any
    NOTICE = "notice"  # a message about the last run (cancelled, failed), with the scenario it concerns
    PROBLEM = "scenario_problem"  # set by the Scenario page while an edit is invalid: runs would use a stale scenario


@dataclass
class RunResult:
    scenario: Scenario  # with the trials and seed that were run
    results: pd.DataFrame
    seconds: float


@dataclass
class Job:
    scenario: Scenario
    jobs: int
    future: Future | None = None
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)


class Cancelled(Exception):
    """Raised from the progress callback to stop a run."""


class Warming:
    """Each model's kernels compiled (or loaded from numba's disk cache) once per server, in one background thread,
    when first needed: the default model's at start-up, another's as soon as a session's scenario is of it. A run
    waits only for its own model's (its workers are forked once they are compiled, so none compiles while holding
    numba's lock). Compiling all five models at start-up took over a minute of one core on a first launch, and slowed
    the first runs."""

    def __init__(self) -> None:
        self.ready = {m: threading.Event() for m in model_names()}
        self.requested: list[str] = []  # in the order they were asked for
        self._lock = threading.Lock()
        self._todo: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, daemon=True, name="hcsched-warm")
        self.thread.start()

    def request(self, model: str) -> None:
        """Compile ``model``'s kernels in the background, unless already asked for."""
        with self._lock:
            if model in self.requested:
                return
            self.requested.append(model)
        self._todo.put(model)

    def wait(self, model: str) -> None:
        """Block until ``model``'s kernels are compiled."""
        self.request(model)
        self.ready[model].wait()

    def _work(self) -> None:
        while True:
            model = self._todo.get()
            try:
                warm_up([model])
            except Exception:  # a failure shows when the run itself compiles; keep serving the other models
                pass
            finally:
                self.ready[model].set()


@st.cache_resource
def _warm_kernels() -> Warming:
    """The server's Warming, started with the default model's kernels, so that the first Run is fast."""
    warming = Warming()
    warming.request(DEFAULT_MODEL)
    return warming


def init_session_state() -> None:
    """Every page calls this first: a first visit starts with the built-in default scenario."""
    warming = _warm_kernels()
    st.session_state.setdefault(Keys.SCENARIO, preset("quickstart"))
    warming.request(st.session_state[Keys.SCENARIO].model)  # a model switched to compiles while the user edits


W = "sc_w_"  # prefix of the Scenario page's widget keys, re-read from the scenario when it is replaced


def default(key: str, value) -> str:
    """Initialise a Scenario-page widget from the scenario the first time the page shows it; returns its key."""
    st.session_state.setdefault(W + key, value)
    return W + key


def number(container, label: str, low, high, key: str, **kwargs):
    """A Scenario-page number input that never silently becomes its minimum: Streamlit sets a cleared field to its
    default, so the field is created empty-able and a cleared field gets its last value back, saying so under it."""
    last, notice = key + "__last", key + "__restored"

    def restore() -> None:
        if st.session_state.get(key) is None and st.session_state.get(last) is not None:
            st.session_state[key] = st.session_state[last]
            st.session_state[notice] = True

    current = st.session_state.get(key)
    if current is not None:  # a loaded scenario may hold a value beyond the field's usual range: show it, as it is
        low = low if low is None or current >= low else type(low)(current)
        high = high if high is None or current <= high else type(high)(current)
    value = container.number_input(label, low, high, value=None, key=key, on_change=restore, **kwargs)
    if value is None:  # never handed to an editor as a number
        value = st.session_state.get(last, current)
    else:
        st.session_state[last] = value
    if st.session_state.pop(notice, False):
        container.caption(f"{label}: a number is needed; kept {value:g}.")
    return value


def refuse_runs(problem: str) -> None:
    """An editor's invalid edit: said under the editor, and Run refuses until it is valid (rather than run the last
    valid scenario, which the page no longer shows)."""
    st.error(f"{problem.rstrip('.')}. Runs are refused until the edit is valid again; the last valid scenario is kept.")
    st.session_state[Keys.PROBLEM] = problem


def commit_scenario(new: Scenario) -> Scenario:
    """Make ``new`` the current scenario; an edited preset is renamed so it is not mistaken for the original."""
    old = st.session_state[Keys.SCENARIO]
    if new != old:
        if new.name == old.name and old.name in preset_names() and new != preset(old.name):
            new = new.replace(name=f"{old.name} (edited)")
        if new.description and new.description == old.description and new.spec != old.spec:
            # the description was written for the scenario before the edit: never describe one scenario as another
            new = new.replace(description=f"Edited from {old.name.removesuffix(' (edited)')}.")
        st.session_state[Keys.SCENARIO] = new
    return st.session_state[Keys.SCENARIO]


def link(page: str, label: str) -> None:
    """A link to another page; plain text when this page runs on its own, outside the app's navigation."""
    try:
        st.page_link(PAGES[page], label=label)
    except StreamlitAPIException:
        st.markdown(f"{label}: the **{page.title()}** page of the app.")


@st.cache_resource
def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="hcsched-run")


@st.cache_data(show_spinner=False, max_entries=32)
def cached_simulate(scenario: Scenario, _jobs: int | None = None, _progress=None) -> pd.DataFrame:
    """Runs are cached on the (hashable) scenario: its trials and seed are part of it."""
    return simulate(scenario, jobs=_jobs, progress=_progress)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_runs(scenario: Scenario, trial: int) -> dict:
    return trial_runs(scenario, trial)


def start_run(scenario: Scenario, jobs: int | None = None) -> bool:
    """Run a scenario: at once if it is quick, else in the background, where it survives clicks and page changes.

    Returns True when a background job was started.
    """
    st.session_state.pop(Keys.NOTICE, None)
    too_long = over_limit(scenario, jobs)
    if too_long:
        st.session_state[Keys.NOTICE] = ("error", too_long, scenario)
        return False
    warming = _warm_kernels()
    if not warming.ready[scenario.model].is_set():  # runs may fork workers: never while their kernels compile
        with st.spinner(f"Compiling the simulation kernels of {get_model(scenario.model).title} (first run after "
                        "installing only; about 10-40 s)..."):
            warming.wait(scenario.model)
    if estimate_seconds(scenario, jobs=jobs) < QUICK_SECONDS:
        begin = time.monotonic()
        job = Job(scenario, jobs)
        job.future = Future()
        try:
            job.future.set_result(cached_simulate(scenario, jobs))
        except Exception as exc:  # reported by _finish like a background failure
            job.future.set_exception(exc)
        job.started = begin
        _finish(job)
        return False
    job = Job(scenario, jobs)

    def progress(done: int, total: int) -> None:
        job.done = done
        if job.cancel.is_set():
            raise Cancelled

    job.future = _executor().submit(cached_simulate, scenario, jobs, progress)
    st.session_state[Keys.JOB] = job
    return True


def _finish(job: Job) -> None:
    st.session_state.pop(Keys.JOB, None)
    try:
        results = job.future.result()
    except Cancelled:
        st.session_state[Keys.NOTICE] = ("warning", "The run was cancelled.", job.scenario)
    except HcschedError as exc:
        st.session_state[Keys.NOTICE] = ("error", f"The run stopped: {exc}", job.scenario)
    except Exception as exc:  # never a traceback in the page
        st.session_state[Keys.NOTICE] = ("error", f"The run failed: {type(exc).__name__}: {exc}", job.scenario)
    else:
        st.session_state[Keys.RESULTS] = RunResult(job.scenario, results, time.monotonic() - job.started)


@st.fragment(run_every=0.3)
def _progress_fragment() -> None:
    job = st.session_state.get(Keys.JOB)
    if job is None:
        return
    if job.future.done():
        _finish(job)
        st.rerun()
    total = job.scenario.trials
    elapsed = time.monotonic() - job.started
    left = f", about {elapsed / job.done * (total - job.done):.0f} s left" if job.done else ""
    st.progress(job.done / total, text=f"{job.done} of {total} trials done{left}")
    st.button("Cancel", key="cancel_run", on_click=job.cancel.set)


def run_status() -> None:
    """The progress of a running job (polled), or a notice about the last run of the current scenario."""
    if Keys.JOB in st.session_state:
        _progress_fragment()
    notice = st.session_state.get(Keys.NOTICE)
    if notice and _same_experiment(notice[2], st.session_state[Keys.SCENARIO]):
        getattr(st, notice[0])(notice[1])


def _same_experiment(a: Scenario, b: Scenario) -> bool:
    """The same scenario, whatever trials and seed were chosen for a run."""
    return a.replace(trials=b.trials, seed=b.seed) == b


def scenario_problem() -> str | None:
    """The Scenario page's message while its edit is invalid (the current scenario is the last valid one)."""
    return st.session_state.get(Keys.PROBLEM)


def over_limit(scenario: Scenario, jobs: int | None = None) -> str | None:
    """Why a run is refused before it starts: its estimate exceeds the per-session limit (issue 12)."""
    estimate = estimate_seconds(scenario, jobs=jobs)
    if estimate <= LIMIT_SECONDS:
        return None
    return (f"This run would take about {estimate / 60:.0f} minutes; the limit per run here is {LIMIT_SECONDS / 60:.0f} "
            "minutes (HCSCHED_RUN_LIMIT_SECONDS). Use fewer trials, tasks or heuristics, or run it with `hcsched run`.")


def run_button(label: str, key: str, scenario: Scenario | None = None, jobs: int | None = None) -> bool:
    """The Run button: disabled while a run is going on, while the Scenario page shows an invalid edit, or when the run
    would exceed the per-session limit."""
    problem = scenario_problem()
    if problem:
        st.error(f"The Scenario page has an invalid edit, so this would run the last valid scenario: {problem} "
                 "Fix it on the Scenario page first.")
    too_long = over_limit(scenario, jobs) if scenario is not None else None
    if too_long:
        st.error(too_long)
    return st.button(label, key=key, type="primary", disabled=Keys.JOB in st.session_state or bool(problem or too_long))


def show_current_results(key: str) -> None:
    """The last results, said to belong to their scenario; results of another scenario are marked and folded away."""
    run = st.session_state.get(Keys.RESULTS)
    if run is None:
        return
    current = st.session_state[Keys.SCENARIO]
    if _same_experiment(run.scenario, current):
        show_results(run, key)
        return
    st.warning(f"The last results are of the scenario **{run.scenario.name}**, not of the scenario loaded now "
               f"(**{current.name}**). Run to see this one's.")
    if st.toggle(f"Show the results of {run.scenario.name} (an earlier scenario)", key=f"{key}_show_other"):
        show_results(run, key)


INTERVALS = ("95% intervals of the mean: Student-t (as the papers), or the percentile bootstrap (4,000 resamples, fixed "
             "seed) for stretch and wherever Student-t would reach below zero for a non-negative metric or above 100% for "
             "a utilisation.")


def _cell(metric: Metric, mean: float, lo: float, hi: float) -> str:
    fmt = metric.fmt or ".4g"
    show = lambda x: format(x, fmt) if x == x else "–"  # noqa: E731
    return show(mean) if lo != lo else f"{show(mean)} [{show(lo)}, {show(hi)}]"


def summary_table(summary: pd.DataFrame, metrics: tuple[Metric, ...]) -> pd.DataFrame:
    """The summary as people read it: titles with units, 4 significant digits, mean [95% interval]."""
    out = pd.DataFrame({"heuristic": summary["heuristic"], "trials": summary["trials"]})
    for m in metrics:
        out[m.label] = [_cell(m, *row) for row in summary[[m.name, f"{m.name}_lower", f"{m.name}_upper"]].to_numpy(float)]
    return out


def metric_help(model) -> pd.DataFrame:
    """What each metric means, from the model's metric descriptions."""
    better = {"lower": "lower", "higher": "higher", "": "neither"}
    return pd.DataFrame([{"metric": m.title, "column": m.name, "unit": m.unit or "–", "better": better[m.better],
                          "meaning": m.doc} for m in model.table_metrics()])


def show_results(run: RunResult, key: str) -> None:
    """Bars with 95% intervals, the table of means, per-trial distributions, the animated Gantt and downloads.

    What is shown comes from the model's metric descriptions; its own charts come from its dashboard module."""
    from models import ui

    scenario, results = run.scenario, run.results
    model = get_model(scenario.model)
    colors = heuristic_colors(scenario.heuristics)
    bars = model.bar_metrics()
    tables = model.table_metrics()
    summary = summarize(results, [m.name for m in tables], methods=model.interval_methods())
    facts = [f"**{scenario.name}**: {scenario.trials} {model.trial_word}s", f"seed {scenario.seed}", f"{run.seconds:.1f} s"]
    headline = model.headline(scenario.spec).replace("lambda*", "λ*")
    if headline:
        facts.append(headline)
    if model.normalizes():
        facts.append(f"{', '.join(m.title.lower() for m in model.metrics if m.normalize)} normalised to {scenario.benchmark_label}")
    st.caption(", ".join(facts) + ". " + INTERVALS)
    for warning in model.warnings(results):
        st.warning(warning.replace("lambda*", "λ*"))
    st.plotly_chart(metric_bars(summary, bars, colors), key=f"{key}_bars", width="stretch")
    with st.expander("Means and 95% intervals", expanded=False):
        st.dataframe(summary_table(summary, tables), key=f"{key}_summary", hide_index=True)
    with st.expander("What the metrics mean", expanded=False):
        st.dataframe(metric_help(model), key=f"{key}_help", hide_index=True, width="stretch")
    by_name = {m.name: m for m in bars}
    metric = st.selectbox("Per-trial distribution of", list(by_name), format_func=lambda n: by_name[n].label,
                          key=f"{key}_dist_metric")
    st.plotly_chart(trial_distribution(results, by_name[metric], colors), key=f"{key}_dist", width="stretch")
    whole_run = getattr(ui(scenario.model), "results_charts", None)  # the model's own charts of the whole run
    if whole_run is not None:
        whole_run(results, scenario, colors, key)

    st.subheader(f"One {model.trial_word}")
    trial = st.number_input(model.trial_word.capitalize(), 0, scenario.trials - 1, 0, key=f"{key}_trial")
    runs = cached_runs(scenario, int(trial))
    schedules = schedules_of(runs)
    ui(scenario.model).trial_charts(runs, colors, key)
    window = gantt_window(scenario, schedules, key)
    st.plotly_chart(gantt(schedules, colors, window=window, time_unit=model.time_unit), key=f"{key}_gantt", width="stretch")
    st.caption("Press Play to watch the tasks start and run; drag the slider to move in time; hover a task for its times.")

    whole = schedule_table(scenario, int(trial), runs).drop(columns="trial")
    downloads = [("Per-trial results (CSV)", results.to_csv(index=False), "results.csv", "text/csv"),
                 ("Summary with intervals (CSV)", summary.to_csv(index=False), "summary.csv", "text/csv"),
                 (f"Gantt table, whole {model.trial_word} {trial} (CSV)", whole.to_csv(index=False), f"gantt-trial{trial}.csv",
                  "text/csv"),
                 ("Scenario (JSON)", scenario.to_json(), f"{scenario.name}.json", "application/json")]
    if window is not None:
        finish = whole["finish"].fillna(np.inf)  # tasks still running at the end of the run
        shown = whole[(finish > window[0]) & (whole["start"] < window[1])]
        downloads.insert(3, (f"Gantt table, time window {window[0]:.6g}-{window[1]:.6g} (CSV)", shown.to_csv(index=False),
                             f"gantt-window-trial{trial}.csv", "text/csv"))
    for col, (label, data, name, mime) in zip(st.columns(len(downloads)), downloads, strict=True):
        col.download_button(label, data, name, mime, key=f"{key}_dl_{name.split('.')[0].split('-')[0]}"
                            + ("_window" if "window" in name else ""), on_click="ignore")


def gantt_window(scenario: Scenario, schedules: dict, key: str) -> tuple[float, float] | None:
    """The time window of the Gantt chart: the whole trial when it is small, else a start and a length that show
    about GANTT_BARS tasks in all by default (a start slider, so its handle is never stacked on another)."""
    sized = gantt_default_window(schedules)
    if sized is None:
        return None
    end, default = sized
    c1, c2 = st.columns([3, 1])
    length = c2.number_input(f"Window length ({get_model(scenario.model).time_unit})", min_value=end * 1e-6, max_value=end,
                             value=max(end * 1e-6, min(end, float(f"{default:.3g}"))), key=f"{key}_window_length",
                             format="%.4g",
                             help=f"About {GANTT_BARS // len(schedules)} tasks per heuristic by default; longer windows "
                                  "draw and play more slowly.")
    if end - length <= 0:
        return (0.0, end)
    low = c1.slider("Window start", 0.0, end - length, 0.0, key=f"{key}_window", format="%.4g")
    return (low, low + length)
