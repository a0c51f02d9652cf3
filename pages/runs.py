"""The session's run: started at once when it is quick, else in the background as a Job; its progress, the notice it
leaves (cancelled, failed) and its results (RunResult)."""

from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model, simulate
from hcsched.errors import describe_error
from hcsched.experiment import estimate_seconds
from pages.jobs import Cancelled, Job, warm_kernels
from pages.session import Keys, same_experiment
from pages.widgets import over_limit

QUICK_SECONDS = 1.0  # runs estimated shorter than this run at once, without a progress bar


@dataclass
class RunResult:
    scenario: Scenario  # with the trials and seed that were run
    results: pd.DataFrame
    seconds: float


@st.cache_data(show_spinner=False, max_entries=32)
def cached_simulate(scenario: Scenario, _jobs: int | None = None, _progress=None) -> pd.DataFrame:
    """Runs are cached on the (hashable) scenario: its trials and seed are part of it."""
    return simulate(scenario, jobs=_jobs, progress=_progress)


def wait_for_kernels(model: str) -> None:
    """Wait, with a progress bar that says what is happening and about how long it takes, until ``model``'s kernels
    are compiled (only on the first use of a model after installing without ``hcsched warm-up``)."""
    warming = warm_kernels()
    warming.request(model)
    if warming.ready[model].is_set():
        return
    bar, start = st.progress(0.0), time.monotonic()
    while not warming.ready[model].wait(0.25):
        elapsed, left = time.monotonic() - start, warming.seconds_left(model)
        bar.progress(min(0.99, elapsed / (elapsed + left)),
                     text=f"Compiling the simulation kernels of {get_model(model).title}: once after installing "
                          f"(`hcsched warm-up` does it ahead); about {left:.0f} s left, {elapsed:.0f} s so far")
    bar.empty()


def start_run(scenario: Scenario, jobs: int | None = None) -> bool:
    """Run a scenario: at once if it is quick, else in the background, where it survives clicks and page changes.

    Returns True when a background job was started.
    """
    st.session_state.pop(Keys.NOTICE, None)
    too_long = over_limit(scenario, jobs)
    if too_long:
        st.session_state[Keys.NOTICE] = ("error", too_long, scenario)
        return False
    wait_for_kernels(scenario.model)  # runs may fork workers: never while their kernels compile
    job = Job(scenario, scenario.trials)
    if estimate_seconds(scenario, jobs=jobs) < QUICK_SECONDS:
        job.future = Future()
        try:
            job.future.set_result(cached_simulate(scenario, jobs))
        except Exception as exc:  # reported by _finish like a background failure
            job.future.set_exception(exc)
        _finish(job)
        return False
    st.session_state[Keys.JOB] = job.submit(cached_simulate, scenario, jobs)
    return True


def _finish(job: Job) -> None:
    st.session_state.pop(Keys.JOB, None)
    try:
        results = job.future.result()
    except Cancelled:
        st.session_state[Keys.NOTICE] = ("warning", "The run was cancelled.", job.scenario)
    except Exception as exc:  # never a traceback in the page
        st.session_state[Keys.NOTICE] = ("error", f"The run stopped: {describe_error(exc)}", job.scenario)
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
    job.show(get_model(job.scenario.model).trial_word, "cancel_run")


def run_status() -> None:
    """The progress of a running job (polled), or a notice about the last run of the current scenario."""
    if Keys.JOB in st.session_state:
        _progress_fragment()
    notice = st.session_state.get(Keys.NOTICE)
    if notice and same_experiment(notice[2], st.session_state[Keys.SCENARIO]):
        getattr(st, notice[0])(notice[1])
