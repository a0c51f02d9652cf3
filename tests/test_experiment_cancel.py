"""Progress within a trial and Cancel of a run: units of work, the progress callback, killed workers."""

import multiprocessing
import signal
import time

import numpy as np
import pandas as pd
import pytest
from helpers import counting_runs, in_a_fresh_process

from hcsched import Scenario, get_model, simulate
from hcsched.experiment import run_trial, trial_seeds, trials_per_chunk
from hcsched.models import model_names
from hcsched.models.etc.spec import ArrivalSpec

SMALL = Scenario(machines=5, tasks=120, arrivals=ArrivalSpec("poisson", 0.02),
                 heuristics=("mct", "kpb", "min-min", "sufferage"), trials=3, seed=11)


class Stop(Exception):
    """What a caller's progress callback raises to cancel."""


def test_chunks_of_trials_by_cost():
    assert trials_per_chunk(0.1, 100, 2) == 10  # about CHUNK_SECONDS of work
    assert trials_per_chunk(0.001, 100, 2) == 13  # at least four chunks per worker
    assert trials_per_chunk(5.0, 100, 2) == 1  # a long trial alone
    assert trials_per_chunk(0.0, 100, 2) == 13 and trials_per_chunk(0.01, 10, 2, points=8) == 10  # a sweep's points


@pytest.mark.parametrize("model", model_names())
def test_results_and_schedules_do_not_depend_on_jobs(model):
    """Common random numbers: chunks of one trial in two worker processes give the bytes of one process."""
    sc = get_model(model).tiny()
    one, one_sched = simulate(sc, jobs=1, schedules=True)
    two, two_sched = simulate(sc, jobs=2, schedules=True)
    assert two.to_csv(index=False) == one.to_csv(index=False)
    pd.testing.assert_frame_equal(two_sched, one_sched)


def test_a_seed_sequence_used_twice_draws_the_same_trial():
    """Drawing a trial's workload does not use up its SeedSequence (``spawn`` advances it): units redraw it."""
    ss = trial_seeds(SMALL.seed, SMALL.trials)[1]
    first, _ = run_trial(SMALL, 1, ss)
    again, _ = run_trial(SMALL, 1, ss)
    assert first == again


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_reports_each_heuristic_run(jobs):
    """done counts heuristic runs over heuristics per trial: fractions of a trial, non-decreasing, exactly the total
    (a whole number) at the end; with two jobs a value may repeat (a heartbeat while no run finishes)."""
    calls = []
    simulate(SMALL, jobs=jobs, progress=lambda done, total: calls.append((done, total)))
    count = len(SMALL.heuristics)
    values = [d for d, _ in calls]
    assert values == sorted(values)
    assert sorted(set(values) - {0}) == pytest.approx([k / count for k in range(1, SMALL.trials * count + 1)])
    assert {t for _, t in calls} == {SMALL.trials}
    assert values[-1] == SMALL.trials and isinstance(values[-1], int)
    assert all(isinstance(d, int) for d in values if d == int(d))  # "3 of 3", not "3.0 of 3"


def test_cancel_with_one_job_stops_after_the_heuristic_run_in_progress(monkeypatch):
    runs = counting_runs(monkeypatch, "etc")
    stop = Stop("cancelled by the user")

    def progress(done, total):
        raise stop

    with pytest.raises(Stop) as caught:
        simulate(SMALL, jobs=1, progress=progress)
    assert caught.value is stop
    assert runs == ["mct"]  # not the rest of the first trial's heuristics
    assert multiprocessing.active_children() == []


@in_a_fresh_process
def test_cancel_with_two_jobs_kills_the_workers_and_leaves_no_child():
    stop = Stop("cancelled by the user")
    seen, workers = [], []

    def progress(done, total):
        seen.append(done)
        workers.extend(multiprocessing.active_children())
        raise stop

    with pytest.raises(Stop) as caught:
        simulate(SMALL.replace(trials=12), jobs=2, progress=progress)
    assert caught.value is stop and len(seen) == 1
    assert len(workers) == 2
    assert all(p.exitcode == -signal.SIGKILL for p in workers)  # killed, not shut down after their work
    assert multiprocessing.active_children() == []


@in_a_fresh_process
def test_cancel_is_seen_while_a_long_unit_runs(monkeypatch):
    """No unit finishes (every run blocks for a minute): progress is still called, with 0 done, and raising there
    kills the workers in the middle of their runs."""
    model = get_model("etc")
    monkeypatch.setattr(model, "run", lambda spec, h, workload: time.sleep(60))
    seen, workers = [], []

    def progress(done, total):
        seen.append((done, total))
        workers.extend(multiprocessing.active_children())
        raise Stop

    with pytest.raises(Stop):
        simulate(SMALL, jobs=2, progress=progress)
    assert seen == [(0, SMALL.trials)]
    assert workers and all(p.exitcode == -signal.SIGKILL for p in workers)
    assert multiprocessing.active_children() == []


@in_a_fresh_process
def test_a_failing_run_in_a_worker_propagates_and_leaves_no_child(monkeypatch):
    model = get_model("etc")

    def broken(spec, h, workload):
        raise ValueError(f"broken run of {h.label}")

    monkeypatch.setattr(model, "run", broken)
    with pytest.raises(ValueError, match="broken run of"):
        simulate(SMALL, jobs=2)
    assert multiprocessing.active_children() == []


def test_trial_runs_and_schedules_keep_working():
    from hcsched import trial_runs

    runs = trial_runs(SMALL, trial=2)
    results, schedules = simulate(SMALL, jobs=2, schedules=True)
    assert list(runs) == [h.label for h in SMALL.heuristics]
    for label, run in runs.items():
        mine = schedules[(schedules.trial == 2) & (schedules.heuristic == label)]
        np.testing.assert_array_equal(mine["machine"].to_numpy(), run.machine)
        assert mine["finish"].max() == results.loc[(results.trial == 2) & (results.heuristic == label),
                                                   "makespan"].item()
