"""What every page shares: session-state keys, the background run, and the results view.

Pages stay thin: they read widgets, call the library and show what it returns.
"""

from __future__ import annotations

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
from hcsched.charts import gantt, heuristic_colors, metric_bars, trial_distribution
from hcsched.experiment import estimate_seconds, schedule_table, schedules_of
from hcsched.models import warm_up

QUICK_SECONDS = 1.0  # runs estimated shorter than this run at once, without a progress bar
ASSETS = Path(__file__).resolve().parents[1] / "assets"
PAGES = {"home": "app.py", "scenario": "pages/scenario.py", "heuristics": "pages/heuristics.py", "run": "pages/run.py",
         "results": "pages/results.py", "explain": "pages/explain.py"}


class Keys:
    """Session-state keys shared between pages (widget keys are local to their page)."""

    SCENARIO = "scenario"  # the current, valid Scenario
    RESULTS = "results"  # RunResult of the last finished run
    JOB = "job"  # the running Job, if any
    NOTICE = "notice"  # a message about the last run (cancelled, failed)


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


@st.cache_resource
def _warm_kernels() -> threading.Thread:
    """Load the compiled kernels once per server, in the background, so the first Run is fast."""
    thread = threading.Thread(target=warm_up, daemon=True, name="hcsched-warm")
    thread.start()
    return thread


def init_session_state() -> None:
    """Every page calls this first: a first visit starts with the built-in default scenario."""
    _warm_kernels()
    st.session_state.setdefault(Keys.SCENARIO, preset("quickstart"))


W = "sc_w_"  # prefix of the Scenario page's widget keys, re-read from the scenario when it is replaced


def default(key: str, value) -> str:
    """Initialise a Scenario-page widget from the scenario the first time the page shows it; returns its key."""
    st.session_state.setdefault(W + key, value)
    return W + key


def commit_scenario(new: Scenario) -> Scenario:
    """Make ``new`` the current scenario; an edited preset is renamed so it is not mistaken for the original."""
    old = st.session_state[Keys.SCENARIO]
    if new != old:
        if new.name == old.name and old.name in preset_names() and new != preset(old.name):
            new = new.replace(name=f"{old.name} (edited)")
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
    _warm_kernels().join()  # runs may fork workers: never while the warm-up compiles
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
        st.session_state[Keys.NOTICE] = ("warning", "The run was cancelled.")
    except HcschedError as exc:
        st.session_state[Keys.NOTICE] = ("error", f"The run stopped: {exc}")
    except Exception as exc:  # never a traceback in the page
        st.session_state[Keys.NOTICE] = ("error", f"The run failed: {type(exc).__name__}: {exc}")
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
    """The progress of a running job (polled), or a notice about the last one."""
    if Keys.JOB in st.session_state:
        _progress_fragment()
    notice = st.session_state.get(Keys.NOTICE)
    if notice:
        getattr(st, notice[0])(notice[1])


def show_results(run: RunResult, key: str) -> None:
    """Bars with 95% intervals, the table of means, per-trial distributions, the animated Gantt and downloads.

    What is shown comes from the model's metric descriptions; its own charts come from its dashboard module."""
    from models import ui

    scenario, results = run.scenario, run.results
    model = get_model(scenario.model)
    labels = [h.label for h in scenario.heuristics]
    colors = heuristic_colors(labels)
    bars = model.bar_metrics()
    summary = summarize(results, [m.name for m in model.table_metrics()])
    facts = [f"{scenario.name}: {scenario.trials} {model.trial_word}s", f"seed {scenario.seed}", f"{run.seconds:.1f} s"]
    headline = model.headline(scenario.spec).replace("lambda*", "λ*")
    if headline:
        facts.append(headline)
    if model.normalizes():
        facts.append(f"{', '.join(m.title.lower() for m in model.metrics if m.normalize)} normalised to {scenario.benchmark_label}")
    st.caption(", ".join(facts) + ". Bars show means with 95% confidence intervals.")
    for warning in model.warnings(results):
        st.warning(warning.replace("lambda*", "λ*"))
    st.plotly_chart(metric_bars(summary, bars, colors), key=f"{key}_bars", width="stretch")
    with st.expander("Means and 95% interval bounds", expanded=False):
        st.dataframe(summary, key=f"{key}_summary", hide_index=True)
    by_name = {m.name: m for m in bars}
    metric = st.selectbox("Per-trial distribution of", list(by_name), format_func=lambda n: by_name[n].title,
                          key=f"{key}_dist_metric")
    st.plotly_chart(trial_distribution(results, by_name[metric], colors), key=f"{key}_dist", width="stretch")

    st.subheader(f"One {model.trial_word}")
    trial = st.number_input(model.trial_word.capitalize(), 0, scenario.trials - 1, 0, key=f"{key}_trial")
    runs = cached_runs(scenario, int(trial))
    schedules = schedules_of(runs)
    ui(scenario.model).trial_charts(runs, colors, key)
    window = gantt_window(scenario, schedules, key)
    st.plotly_chart(gantt(schedules, colors, window=window), key=f"{key}_gantt", width="stretch")
    st.caption("Press Play to watch the tasks start and run; drag the slider to move in time; hover a task for its times.")

    gantt_table = schedule_table(scenario, int(trial), runs).drop(columns="trial")
    if window is not None:
        finish = gantt_table["finish"].fillna(np.inf)  # tasks still running at the end of the run
        gantt_table = gantt_table[(finish > window[0]) & (gantt_table["start"] < window[1])]
    cols = st.columns(4)
    downloads = (("Per-trial results (CSV)", results.to_csv(index=False), "results.csv", "text/csv"),
                 ("Summary with intervals (CSV)", summary.to_csv(index=False), "summary.csv", "text/csv"),
                 (f"Gantt table, {model.trial_word} {trial} (CSV)", gantt_table.to_csv(index=False), f"gantt-trial{trial}.csv",
                  "text/csv"),
                 ("Scenario (JSON)", scenario.to_json(), f"{scenario.name}.json", "application/json"))
    for col, (label, data, name, mime) in zip(cols, downloads, strict=True):
        col.download_button(label, data, name, mime, key=f"{key}_dl_{name.split('.')[0].split('-')[0]}", on_click="ignore")


def gantt_window(scenario: Scenario, schedules: dict, key: str) -> tuple[float, float] | None:
    """The time window of the Gantt chart: the whole trial when it is small, else a slider (about 300 tasks)."""
    starts = np.concatenate([s.start[np.isfinite(s.start)] for s in schedules.values()])
    finishes = np.concatenate([s.finish[np.isfinite(s.finish)] for s in schedules.values()])
    end = float(max(finishes.max(initial=0.0), starts.max(initial=0.0)))
    per_heuristic = starts.size / max(1, len(schedules))
    if per_heuristic <= 400 or end <= 0:
        return None
    span = end * min(1.0, 300.0 / per_heuristic)
    low, high = st.slider("Time window", 0.0, end, (0.0, span), key=f"{key}_window", format="%.4g")
    return (low, max(high, low + end * 1e-6))
