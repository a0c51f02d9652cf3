"""Trials with common random numbers, run in parallel, for any model (Maheswaran et al., section 5.1).

Trial t of a scenario with seed s draws from ``SeedSequence(s).spawn(trials)[t]``;
the model spawns it into one stream per random quantity. Every heuristic of
the trial sees the same workload; the results do not depend on the number of
parallel jobs. Nothing here knows a particular model: it asks the scenario's
model (:mod:`hcsched.models`) to draw, run and measure.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.metrics import Schedule, add_normalized
from hcsched.models import get_model, warm_up
from hcsched.scenario import Scenario


def trial_seeds(seed: int, trials: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(trials)


SCHEDULE_COLUMNS = ("trial", "heuristic", "task", "machine", "arrival", "start", "finish", "expected", "actual")


def run_trial(scenario: Scenario, trial: int, seed_seq: np.random.SeedSequence,
              schedules: bool = False) -> tuple[list[dict], dict]:
    """All heuristics of the scenario on one trial's workload: metric rows and, if asked, each heuristic's run."""
    model, spec = get_model(scenario.model), scenario.spec
    workload = model.workload(spec, seed_seq)
    rows, kept = [], {}
    for h in scenario.heuristics:
        result = model.run(spec, h, workload)
        rows.append({"trial": trial, "heuristic": h.label, **model.measure(spec, h, result)})
        if schedules:
            kept[h.label] = result
    return rows, kept


def schedule_table(scenario: Scenario, trial: int, runs: dict) -> pd.DataFrame:
    """One row per task and heuristic of one trial: trial, heuristic, task, machine, arrival, start, finish, expected,
    actual and the model's own columns; empty start / finish where a task never started / finished."""
    model = get_model(scenario.model)
    table = pd.concat([model.schedule_frame(run).assign(trial=trial, heuristic=label) for label, run in runs.items()],
                      ignore_index=True)
    return table[list(SCHEDULE_COLUMNS) + [c for c in table.columns if c not in SCHEDULE_COLUMNS]]


def _run_trials(args: tuple[Scenario, list[int], list[np.random.SeedSequence], bool]) -> tuple[list[dict], list[pd.DataFrame]]:
    scenario, trials, seeds, schedules = args
    rows, tables = [], []
    for t, ss in zip(trials, seeds, strict=True):
        trial_rows, runs = run_trial(scenario, t, ss, schedules)
        rows += trial_rows
        if schedules:
            tables.append(schedule_table(scenario, t, runs))
    return rows, tables


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(scenario: Scenario, trials: int | None = None, seed: int | None = None, jobs: int | None = None,
             progress: Callable[[int, int], None] | None = None, schedules: bool = False):
    """Run the scenario's trials; one row per trial and heuristic, with normalised metrics against the benchmark.

    ``trials`` and ``seed`` override the scenario's; ``jobs`` is the number of
    worker processes (default: all cores); ``progress(done, total)`` is called
    as trials finish; an exception it raises (e.g. to cancel) stops the run.
    With ``schedules=True`` it returns ``(results, schedules)``, the second a
    table of every task of every trial and heuristic (see :func:`schedule_table`).
    """
    trials = scenario.trials if trials is None else trials
    seed = scenario.seed if seed is None else seed
    scenario = scenario.replace(trials=trials, seed=seed)  # validates both
    jobs = default_jobs() if jobs is None else jobs
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise HcschedError(f"jobs: {jobs!r} is not allowed; allowed: a positive integer")
    seeds = trial_seeds(seed, trials)
    jobs = min(jobs, trials)
    rows: list[dict] = []
    tables: list[pd.DataFrame] = []
    if jobs == 1:
        for t, ss in enumerate(seeds):
            more_rows, more_tables = _run_trials((scenario, [t], [ss], schedules))
            rows += more_rows
            tables += more_tables
            if progress:
                progress(t + 1, trials)
    else:
        # Chunks of a few trials keep the progress fine-grained without much overhead.
        size = max(1, min(8, trials // (4 * jobs)))
        chunks = [(scenario, list(range(a, min(a + size, trials))), seeds[a:a + size], schedules)
                  for a in range(0, trials, size)]
        done = 0
        warm_up([scenario.model])  # compile here, so that no child is forked while a compilation holds numba's lock
        # fork: workers inherit the compiled kernels and work inside a Streamlit server (see docs).
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_run_trials, chunk) for chunk in chunks]
            try:
                for chunk, future in zip(chunks, futures, strict=True):
                    more_rows, more_tables = future.result()
                    rows += more_rows
                    tables += more_tables
                    done += len(chunk[1])
                    if progress:
                        progress(done, trials)
            except BaseException:  # e.g. the progress callback cancelling the run: drop queued work
                for future in futures:
                    future.cancel()
                raise
    results = pd.DataFrame(rows).sort_values(["trial"], kind="stable").reset_index(drop=True)
    for metric in get_model(scenario.model).metrics:
        if metric.normalize:
            results = add_normalized(results, metric.name, scenario.benchmark_label)
    if not schedules:
        return results
    return results, pd.concat(tables, ignore_index=True)


def estimate_seconds(scenario: Scenario, trials: int | None = None, jobs: int | None = None) -> float:
    """A rough estimate of the wall time of :func:`simulate` (for a warning before large runs)."""
    trials = scenario.trials if trials is None else trials
    jobs = max(1, min(default_jobs() if jobs is None else jobs, trials))
    return get_model(scenario.model).trial_seconds(scenario.spec, scenario.heuristics) * trials / jobs


def trial_runs(scenario: Scenario, trial: int = 0, seed: int | None = None) -> dict:
    """Every heuristic's run of one trial, as its model returns it (a Schedule, or an object with ``.schedule``)."""
    seed = scenario.seed if seed is None else seed
    if isinstance(trial, bool) or not isinstance(trial, (int, np.integer)) or trial < 0:
        raise HcschedError(f"trial: {trial!r} is not allowed; allowed: a trial number from 0")
    return run_trial(scenario, int(trial), trial_seeds(seed, max(scenario.trials, trial + 1))[trial], schedules=True)[1]


def schedules_of(runs: dict) -> dict[str, Schedule]:
    """The Schedule of each run returned by :func:`trial_runs`, whatever the model."""
    return {label: getattr(run, "schedule", run) for label, run in runs.items()}


def trial_schedules(scenario: Scenario, trial: int = 0, seed: int | None = None) -> dict[str, Schedule]:
    """The schedules of every heuristic in one trial (for Gantt charts and export)."""
    return schedules_of(trial_runs(scenario, trial, seed))
