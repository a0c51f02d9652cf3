"""Trials with common random numbers, run in parallel, and arrival-rate calibration (section 5.1).

Trial t of a scenario with seed s draws from ``SeedSequence(s).spawn(trials)[t]``,
itself spawned into one stream per random quantity (ETC, arrivals, actual
times). Every heuristic of the trial sees the same arrivals, expected and
actual times; the results do not depend on the number of parallel jobs.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched import engine, workload
from hcsched.classmodel import class_metrics, make_class_workload, run_class_heuristic
from hcsched.errors import HcschedError
from hcsched.metrics import Schedule, add_normalized_makespan, schedule_metrics
from hcsched.scenario import HeuristicSpec, Scenario


@dataclass(frozen=True)
class Workload:
    """One trial's inputs: arrival times (sorted), expected (ETC) and actual execution times."""

    arrival: np.ndarray
    etc: np.ndarray
    actual: np.ndarray


def trial_seeds(seed: int, trials: int) -> list[np.random.SeedSequence]:
    return np.random.SeedSequence(seed).spawn(trials)


def make_workload(scenario: Scenario, seed_seq: np.random.SeedSequence) -> Workload:
    """Draw one trial's workload from its own seed sequence (one stream per quantity)."""
    etc_rng, arrival_rng, actual_rng = (np.random.default_rng(s) for s in seed_seq.spawn(3))
    spec, n, m = scenario.etc, scenario.tasks, scenario.machines
    if spec.method == "matrix":
        etc = np.array(spec.matrix, dtype=float)
    else:
        if spec.method == "range":
            etc = workload.range_based_etc(etc_rng, n, m, spec.task_het, spec.machine_het)
        else:
            etc = workload.cov_based_etc(etc_rng, n, m, spec.task_mean, spec.task_cov, spec.machine_cov)
        etc = workload.apply_consistency(etc_rng, etc, spec.consistency, spec.semiconsistent_mode)
    if scenario.arrivals.process == "static":
        arrival = workload.static_arrivals(n)
    else:
        arrival = workload.poisson_arrivals(arrival_rng, n, scenario.arrivals.rate)
    if scenario.actual.model == "exact":
        actual = etc.copy()
    elif scenario.actual.model == "gamma":
        actual = workload.gamma_times(actual_rng, etc, scenario.actual.cov)
    else:
        actual = workload.truncated_gaussian_times(actual_rng, etc)
    return Workload(arrival, etc, actual)


def kernel_params(spec: HeuristicSpec) -> np.ndarray:
    """The numeric parameters an immediate kernel reads."""
    p = spec.kwargs
    if spec.name == "sa":
        return np.array([p["low"], p["high"]])
    if spec.name == "kpb":  # kbar machines are k = 100 kbar / m percent
        return np.array([p["k"]]) if p["kbar"] is None else np.array([-p["kbar"]])
    return np.zeros(1)


def run_heuristic(spec: HeuristicSpec, w: Workload) -> Schedule:
    """Simulate one heuristic on one workload."""
    h = spec.heuristic
    events = 0
    if h.mode == "immediate":
        machine, start, finish = engine.run_immediate(h.kind, kernel_params(spec), w.arrival, w.etc, w.actual)
    else:
        p = spec.kwargs
        strategy = engine.COUNT if p["strategy"] == "count" else engine.INTERVAL
        machine, start, finish, events = engine.run_batch(
            h.kind, strategy, float(p["interval"]), int(p["kappa"]), float(p["aging"] or 0.0), w.arrival, w.etc, w.actual)
    rows = np.arange(machine.size)
    return Schedule(w.arrival, machine, start, finish, w.etc[rows, machine], w.actual[rows, machine],
                    w.etc.shape[1], events, np.argmin(w.etc, axis=1))


def run_trial(scenario: Scenario, trial: int, seed_seq: np.random.SeedSequence,
              schedules: bool = False) -> tuple[list[dict], dict[str, Schedule]]:
    """All heuristics of the scenario on one trial's workload: metric rows and, if asked, schedules."""
    if scenario.model == "classes":
        spec_c, w_c = scenario.classes, make_class_workload(scenario.classes, seed_seq)
        run = lambda h: run_class_heuristic(h, spec_c, w_c)  # noqa: E731
        measure = lambda r, h: class_metrics(r, h, spec_c)  # noqa: E731
    else:
        w = make_workload(scenario, seed_seq)
        run = lambda h: run_heuristic(h, w)  # noqa: E731
        measure = lambda r, h: schedule_metrics(r)  # noqa: E731
    rows, kept = [], {}
    for spec in scenario.heuristics:
        result = run(spec)
        rows.append({"trial": trial, "heuristic": spec.label, **measure(result, spec)})
        if schedules:
            kept[spec.label] = result
    return rows, kept


def _run_trials(args: tuple[Scenario, list[int], list[np.random.SeedSequence]]) -> list[dict]:
    scenario, trials, seeds = args
    return [row for t, ss in zip(trials, seeds, strict=True) for row in run_trial(scenario, t, ss)[0]]


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(scenario: Scenario, trials: int | None = None, seed: int | None = None, jobs: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """Run the scenario's trials; one row per trial and heuristic, with the makespan normalised to the benchmark.

    ``trials`` and ``seed`` override the scenario's; ``jobs`` is the number of
    worker processes (default: all cores); ``progress(done, total)`` is called
    as trials finish; an exception it raises (e.g. to cancel) stops the run.
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
    if jobs == 1:
        for t, ss in enumerate(seeds):
            rows += run_trial(scenario, t, ss)[0]
            if progress:
                progress(t + 1, trials)
    else:
        # Chunks of a few trials keep the progress fine-grained without much overhead.
        size = max(1, min(8, trials // (4 * jobs)))
        chunks = [(scenario, list(range(a, min(a + size, trials))), seeds[a:a + size]) for a in range(0, trials, size)]
        done = 0
        engine.warm_up()  # compile here, so that no child is forked while a compilation holds numba's lock
        # fork: workers inherit the compiled kernels and work inside a Streamlit server (see docs).
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_run_trials, chunk) for chunk in chunks]
            try:
                for chunk, future in zip(chunks, futures, strict=True):
                    rows += future.result()
                    done += len(chunk[1])
                    if progress:
                        progress(done, trials)
            except BaseException:  # e.g. the progress callback cancelling the run: drop queued work
                for future in futures:
                    future.cancel()
                raise
    results = pd.DataFrame(rows).sort_values(["trial"], kind="stable").reset_index(drop=True)
    if scenario.model == "classes":
        return results
    return add_normalized_makespan(results, scenario.benchmark_label)


# Rough costs per task and machine on one core of the reference machine (bench/run.py):
# immediate mode is linear in the tasks; batch mode remaps a backlog that grows with them.
# The task-class model: about 8 million task events per second and core.
_IMMEDIATE_COST, _BATCH_COST, _CLASS_EVENT_COST = 1.5e-7, 3e-6, 1.5e-7


def estimate_seconds(scenario: Scenario, trials: int | None = None, jobs: int | None = None) -> float:
    """A rough estimate of the wall time of :func:`simulate` (for a warning before large runs)."""
    trials = scenario.trials if trials is None else trials
    jobs = max(1, min(default_jobs() if jobs is None else jobs, trials))
    n, m = scenario.tasks, scenario.machines
    if scenario.model == "classes":
        return n * len(scenario.heuristics) * _CLASS_EVENT_COST * trials / jobs
    per_trial = sum(n * m * (_IMMEDIATE_COST if h.heuristic.mode == "immediate" else _BATCH_COST * max(1.0, n / 2000))
                    for h in scenario.heuristics)
    return per_trial * trials / jobs


def trial_runs(scenario: Scenario, trial: int = 0, seed: int | None = None) -> dict:
    """Every heuristic's run of one trial: a Schedule (ETC model) or a ClassRun (task-class model)."""
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


# --- arrival-rate calibration (section 5.1) -------------------------------------------------------
CALIBRATION_TARGETS = {"lambda_h": 0.5, "lambda_l": 0.9, "lambda_t": 0.2}


def completed_fraction(scenario: Scenario, rate: float, seeds: list[np.random.SeedSequence]) -> float:
    """Mean share of tasks that MCT has completed when the last task arrives, at ``rate``."""
    mct = HeuristicSpec.make("mct")
    fractions = []
    for ss in seeds:
        w = make_workload(scenario.replace(arrivals=scenario.arrivals.__class__("poisson", rate)), ss)
        s = run_heuristic(mct, w)
        fractions.append(np.mean(s.finish <= w.arrival[-1]))
    return float(np.mean(fractions))


def calibrate(scenario: Scenario, target: float | str = "lambda_h", trials: int = 5, seed: int = 0,
              tolerance: float = 1e-3) -> float:
    """The Poisson rate at which MCT has completed ``target`` of the tasks when the last one arrives.

    ``target`` is a fraction in (0, 1) or one of lambda_h (0.5), lambda_l (0.9),
    lambda_t (0.2). Bisection on log(rate) over the mean fraction of ``trials``
    workloads drawn with common random numbers.
    """
    if isinstance(target, str):
        if target not in CALIBRATION_TARGETS:
            raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction in (0, 1) or one of {', '.join(CALIBRATION_TARGETS)}")
        target = CALIBRATION_TARGETS[target]
    if not 0.0 < float(target) < 1.0:
        raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction strictly between 0 and 1")
    seeds = trial_seeds(seed, trials)
    lo, hi = 1e-9, 1e-9  # the fraction falls as the rate rises
    while completed_fraction(scenario, hi, seeds) > target and hi < 1e12:
        lo, hi = hi, hi * 10.0
    for _ in range(100):
        mid = float(np.sqrt(lo * hi))
        if completed_fraction(scenario, mid, seeds) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1.0 + tolerance:
            break
    return float(np.sqrt(lo * hi))
