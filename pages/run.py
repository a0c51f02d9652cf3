"""Trials, seed and parallel jobs; the run itself happens in the background."""

import streamlit as st

from hcsched import HcschedError, get_model
from pages.history import history
from pages.jobs import PARALLEL_JOBS_MAX, parallel_jobs
from pages.runs import plan_run, run_status, start_run
from pages.session import Keys, init_session_state, same_experiment
from pages.widgets import link, plain, run_button

init_session_state()
st.title("Run")
scenario = st.session_state[Keys.SCENARIO]
st.write(f"**{plain(scenario.name)}**: {get_model(scenario.model).describe(scenario.spec)}; "
         + ", ".join(plain(h.label) for h in scenario.heuristics))
link("scenario", "Change the scenario")
c1, c2, c3 = st.columns(3)
# a loaded scenario's trials or seed beyond the fields' usual range are shown as they are, never refused or cut
trials = c1.number_input(get_model(scenario.model).trial_word.capitalize() + "s", 1, max(10_000, scenario.trials),
                         scenario.trials, key="run_trials")
seed = c2.number_input("Seed", 0, max(2**53 - 1, scenario.seed), scenario.seed, key="run_seed")
jobs = c3.number_input("Parallel jobs", 1, PARALLEL_JOBS_MAX, parallel_jobs(), key="run_jobs",
                       help="chunks of trials computed at once; default: all the server's workers (or its Dask "
                            "cluster's worker threads)")
try:
    chosen = scenario.replace(trials=int(trials), seed=int(seed))
except HcschedError as exc:
    st.error(plain(exc))
    st.stop()
if chosen != scenario:  # the trials and seed set here are the scenario's at once: Home, the address and Run agree
    st.session_state[Keys.SCENARIO] = chosen
running = Keys.JOB in st.session_state
job = plan_run(chosen, int(jobs))
if run_button("Run", key="run_start", job=job):
    st.session_state[Keys.SCENARIO] = chosen
    if start_run(job, int(jobs)):
        st.rerun()
run_status()
last = history()[-1] if history() else None
if last is not None and Keys.JOB not in st.session_state and last.run is st.session_state.get(Keys.RESULTS) \
        and same_experiment(last.scenario, chosen):
    took = "" if last.run.cached else f", in {last.run.took}"
    st.success(f"Run #{last.number} ended at {last.when}{took}; winner: {plain(last.winner)}.")
if Keys.RESULTS in st.session_state and not running:
    link("results", "See the results")
