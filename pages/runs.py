"""The session's run, one way from the page to its results: planned with its one estimate (or refused), started in
the background as a Job, its progress and Cancel, then its results (RunResult) or the notice it leaves (cancelled,
failed)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model, simulate
from hcsched.experiment import split_so_far
from pages.history import back_words, keep, ran_before, reuse
from pages.jobs import KNOWN_ROWS, Job, done_words, drawing_starts, follow, following, plain, settle, warm_kernels
from pages.session import Keys, same_experiment
from pages.widgets import after_trials, link, refusal, run_estimate

QUICK_SECONDS = 1.0  # a run that ends within this shows its results at once, without a progress bar


@dataclass
class RunResult:
    scenario: Scenario  # with the trials and seed that were run
    results: pd.DataFrame
    seconds: float
    cached: bool = False  # the server had computed it before (another session ran the same scenario): no trial ran
    of: Scenario | None = None  # the scenario whose run this is part of: its references cancelled before they ended

    @property
    def asked(self) -> Scenario:
        """The scenario that was run (with its references, when they were cancelled)."""
        return self.of if self.of is not None else self.scenario

    @property
    def took(self) -> str:
        """How long the run took, as the pages say it: "2.3 s", "under 0.1 s", or "computed before on this server"."""
        if self.cached:
            return "computed before on this server"
        return f"{self.seconds:.1f} s" if self.seconds >= 0.05 else "under 0.1 s"


@st.cache_data(show_spinner=False, max_entries=32)
def cached_simulate(scenario: Scenario, _jobs: int | None = None, _progress=None, _partial=None) -> pd.DataFrame:
    """Runs are cached on the (hashable) scenario: its trials and seed are part of it; the rows of its built-in
    heuristics on the server's :data:`~pages.jobs.KNOWN_ROWS` too, so that a run of the same workload runs only the
    heuristics it adds."""
    return simulate(scenario, jobs=_jobs, progress=_progress, partial=_partial, known=KNOWN_ROWS)


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


def plan_run(scenario: Scenario, jobs: int | None = None) -> Job:
    """The run of ``scenario`` as a Job not yet started: its one estimate (the trials, trial 0 again for the Gantt
    chart, drawing the charts), or why it is refused (over the time limit or the size cap, or a model's error)."""
    job = Job(scenario, scenario.trials, word=get_model(scenario.model).trial_word, notice_key=Keys.NOTICE,
              on_result=_keep, on_cancel=_keep_without_references, what=f"Run of {plain(scenario.name)}: ")
    job.refused = refusal(scenario, jobs)
    kept = ran_before(scenario)
    job.ran_as = None if kept is None else kept.number
    if job.refused is None:
        job.estimate = run_estimate(scenario, jobs)
        job.after = min(job.estimate, after_trials(scenario, jobs))  # counted in its time left, as in the estimate
    return job


def start_run(job: Job, jobs: int | None = None, what_if: bool = False) -> bool:
    """Start a planned run in the background, where it survives clicks and page changes; a quick one is waited for
    here (up to ``QUICK_SECONDS``), so that its results show without a progress bar; one estimated to take longer
    only until its first results so far come, so that they show at once. ``what_if``: a what-if's button asked for
    it (a run of settings already kept is then said against the run shown before, :func:`pages.history.reuse`).

    Returns True when the run goes on in the background.
    """
    st.session_state.pop(Keys.NOTICE, None)
    again = reuse(job.scenario, what_if)  # a what-if's button: its line said against the run shown before
    if again is not None:  # the same settings, trials and seed: the same numbers, without running again
        back = "" if what_if else back_words(again)
        said = f"{back}: shown as it was (the same scenario, {job.word}s and seed), nothing run again; the other " \
               "runs are compared with it." if back else \
            f"The same scenario, {job.word}s and seed as run #{again.number} (ended {again.when}): its results are " \
            "shown again, not run twice."
        st.session_state[Keys.NOTICE] = ("info", said, job.scenario)
        return False
    if job.refused:
        st.session_state[Keys.NOTICE] = ("error", job.refused, job.scenario)
        return False
    wait_for_kernels(job.scenario.model)  # its workers load them from numba's cache rather than all compile them
    job.start(Keys.JOB, cached_simulate, job.scenario, jobs, partial=True)
    end, longer = time.monotonic() + QUICK_SECONDS, job.estimate > QUICK_SECONDS
    while not job.future.done() and not (longer and job.partials) and time.monotonic() < end:
        job.wait_for_news(end)  # a longer run's results so far go on screen as soon as they come
    drawing_starts()
    if not job.future.done():
        return True
    settle(Keys.JOB)
    return False


def _keep(job: Job, results: pd.DataFrame) -> None:
    keep(RunResult(job.scenario, results, time.monotonic() - job.started, cached=job.done == 0))  # no trial ran


def _keep_without_references(job: Job) -> str:
    """What a cancelled run keeps, said after "The run was cancelled.": cancelled while only its references (run after
    every trial of the others) were left, the others' whole answer kept as the run's results, with how far each part
    went (" The other heuristics had done all 50 trials: their results are kept. The references tpsa and ga had done
    17 of 50 and are left out."). Cancelled before, its finished trials are not kept (the session's runs, their reuse
    and their what-ifs are whole runs of a scenario's trials and seed): said so."""
    if job.partial is None:
        return _not_kept(job)
    if job.kept is None:  # once: a settle done again keeps the same results, not a second run
        scenario, rows, pending = split_so_far(job.scenario, job.partial)
        whole = bool(pending) and rows["trial"].nunique() == job.scenario.trials
        job.kept = (RunResult(scenario, rows, time.monotonic() - job.started, of=job.scenario), dict(pending)) \
            if whole else ()
    if not job.kept:
        return _not_kept(job)
    run, pending = job.kept
    keep(run)
    total, word = job.scenario.trials, job.word
    counts = sorted(set(pending.values()))
    each = " each" if len(pending) > 1 and len(counts) == 1 else ""
    ran = " and ".join(str(n) for n in counts)
    them, are = ("The reference", "is") if len(pending) == 1 else ("The references", "are")
    return (f" The other heuristics had done all {total} {word}s: their results are kept. {them} "
            f"{plain(' and '.join(pending))} had done {ran} of {total}{each} and {are} left out.")


def _not_kept(job: Job) -> str:
    """How far a cancelled run went and why none of its trials are shown, in sentences ("" with none done and one
    trial)."""
    done = done_words(job)
    if job.done < 1:
        return done
    return f"{done} Only a whole run's results are kept: fewer {job.word}s on Run give a quicker one."


def run_status(results: bool = False) -> None:
    """The progress of a running job (polled), or a notice about the last run of the current scenario. ``results``:
    the page shows the run's results so far (Home, Results), drawn again as more come.

    All in one container, one element of the page whatever it holds: what the page draws below keeps its place when
    the progress bar, its warning and Cancel go, so the run's final results replace its results so far where they
    stand (Streamlit replaces elements by position; shifted, the old caption stayed under the new one until the page
    was drawn whole)."""
    with st.container():
        follow(Keys.JOB, "cancel_run", results)
        notice = st.session_state.get(Keys.NOTICE)
        if notice and same_experiment(notice[2], st.session_state[Keys.SCENARIO]):
            getattr(st, notice[0])(notice[1])


def running_run() -> Job | None:
    """The session's run while it goes on, if any."""
    job = st.session_state.get(Keys.JOB)
    return job if job is not None and not job.ended else None


SIDE_JOBS = ((Keys.JOB, "the run"), ("sw_job", "the sweep"), ("pp_job", "the rerun"))  # shown on every page


def status_in_sidebar() -> None:
    """On a page that does not show it already, the session's run (or sweep, or Papers rerun) in progress in the
    sidebar: its name, its progress and Cancel, and a way to its page; so that a run is never out of sight. Always one
    slot in the sidebar, empty when the page shows the run: so that the block an earlier page drew there is replaced
    at once, not left on screen (stale) while this page follows the run to its end."""
    slot = st.sidebar.empty()
    if following():
        return
    for key, what in SIDE_JOBS:
        job = st.session_state.get(key)
        if job is not None and not job.ended:
            with slot.container():
                st.caption(f"In progress: {what} of {plain(job.scenario.name) if job.scenario else 'the claims'}")
                follow(key, f"sidebar_cancel_{key}")
                target = {"sw_job": "sweep", "pp_job": "papers"}.get(key, "results")
                link(target, f"See {'the results so far' if key == Keys.JOB else 'its page'}")
            return
