"""Workloads: ETC matrices, arrivals and actual execution times (Maheswaran et al. 1999, section 4).

Every sampling function takes an explicit ``numpy.random.Generator``; the
matrices are ``float64`` arrays with tasks as rows and machines as columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from hcsched.sampling import cov_based_etc, gamma_times  # shared with the value model

CONSISTENCIES = ("consistent", "semiconsistent", "inconsistent")
SEMICONSISTENT_MODES = ("sort", "smallest")
# Section 4: Gamma_t (task) and Gamma_m (machine) heterogeneity ranges.
HETEROGENEITY = {"hihi": (3000.0, 100.0), "hilo": (3000.0, 10.0), "lohi": (1000.0, 100.0), "lolo": (1000.0, 10.0)}


def range_based_etc(rng: np.random.Generator, tasks: int, machines: int, task_het: float,
                    machine_het: float) -> np.ndarray:
    """Range-based ETC (section 4): e[i, j] = q[i] * N_m, q ~ U[1, Gamma_t], N_m ~ U[1, Gamma_m] drawn anew per
    entry."""
    q = rng.uniform(1.0, task_het, size=tasks)
    return q[:, None] * rng.uniform(1.0, machine_het, size=(tasks, machines))


def make_consistent(etc: np.ndarray) -> np.ndarray:
    """Sort each row so that machine 0 is fastest for every task, machine 1 next, ... (section 4)."""
    return np.sort(etc, axis=1)


def make_semiconsistent(rng: np.random.Generator, etc: np.ndarray, mode: str = "sort", task_share: float = 0.5,
                        machine_share: float = 0.25) -> np.ndarray:
    """A consistent submatrix of ``task_share`` of the tasks and ``machine_share`` of the machines (section 4).

    The tasks and the machines of the submatrix are chosen at random. Two
    readings of the paper:

    - ``"sort"``: for each chosen task, sort the values already in the chosen
      columns (ascending in column order), as the paper's generation step says;
    - ``"smallest"``: for each chosen task, put its smallest times in the chosen
      columns, sorted, and its other times in the other columns in their
      original order, as the paper's assumption that "the execution times that
      fall within the consistent submatrix are smaller" requires.
    """
    etc = etc.copy()
    n, m = etc.shape
    rows = np.sort(rng.choice(n, size=int(round(n * task_share)), replace=False))
    cols = np.sort(rng.choice(m, size=max(1, int(round(m * machine_share))), replace=False))
    if mode == "sort":
        etc[np.ix_(rows, cols)] = np.sort(etc[np.ix_(rows, cols)], axis=1)
        return etc
    others = np.setdiff1d(np.arange(m), cols)
    for i in rows:
        order = np.argsort(etc[i], kind="stable")
        small, rest = order[: cols.size], np.sort(order[cols.size :])
        row = etc[i].copy()
        etc[i, cols] = np.sort(row[small])
        etc[i, others] = row[rest]
    return etc


def apply_consistency(rng: np.random.Generator, etc: np.ndarray, consistency: str, mode: str = "sort") -> np.ndarray:
    """Turn a raw (inconsistent) ETC matrix into the requested consistency class."""
    if consistency == "consistent":
        return make_consistent(etc)
    if consistency == "semiconsistent":
        return make_semiconsistent(rng, etc, mode)
    return etc


def poisson_arrivals(rng: np.random.Generator, tasks: int, rate: float) -> np.ndarray:
    """Arrival times of a Poisson process of ``rate`` tasks per second, starting at 0."""
    return np.cumsum(rng.exponential(1.0 / rate, size=tasks))


def static_arrivals(tasks: int) -> np.ndarray:
    """Every task arrives at time 0."""
    return np.zeros(tasks)


def truncated_gaussian_times(rng: np.random.Generator, etc: np.ndarray, max_rounds: int = 64) -> np.ndarray:
    """Simulated actual times (section 4): Gaussian, mean e, variance 3e, resampled until positive.

    A zero ETC has variance 0: its actual time is 0 (the limit of the law as e
    falls to 0). For e > 0 a draw is positive with probability
    Phi(sqrt(e / 3)) >= 1/2, so resampling ends quickly; after ``max_rounds``
    rounds (probability below 2**-64) the rest are drawn by inverting the
    truncated law, so the function ends on every input.
    """
    sd = np.sqrt(3.0 * etc)
    actual = rng.normal(etc, sd)
    zero = etc == 0.0
    actual[zero] = 0.0
    bad = (actual <= 0.0) & ~zero
    for _ in range(max_rounds):
        if not bad.any():
            return actual
        actual[bad] = rng.normal(etc[bad], sd[bad])
        bad = (actual <= 0.0) & ~zero
    if bad.any():
        from scipy.stats import truncnorm

        mean, scale = etc[bad], sd[bad]
        actual[bad] = truncnorm.ppf(rng.uniform(size=mean.size), -mean / scale, np.inf, loc=mean, scale=scale)
    return actual


@dataclass(frozen=True)
class Workload:
    """One trial's inputs: arrival times (sorted), expected (ETC) and actual execution times, and the bounds on
    the makespan and the mean flow time that no mapping of them beats (:mod:`.bounds`; NaN when not computed)."""

    arrival: np.ndarray
    etc: np.ndarray
    actual: np.ndarray
    makespan_bound: float = float("nan")
    flow_bound: float = float("nan")
    seed: int = 0  # the seed of the random draws of rules that draw (:mod:`.plugin`), from the trial's seed sequence


def make_workload(spec: Any, seed_seq: np.random.SeedSequence) -> Workload:
    """Draw one trial's workload from its own seed sequence (one stream per quantity: ETC, arrivals, actual times).

    ``spec`` is the model's spec (or a scenario of this model): machines, tasks, etc, arrivals, actual.
    """
    etc_rng, arrival_rng, actual_rng = (np.random.default_rng(s) for s in seed_seq.spawn(3))
    e, n, m = spec.etc, spec.tasks, spec.machines
    if e.method == "matrix":
        etc = np.array(e.matrix, dtype=float)
    else:
        if e.method == "range":
            etc = range_based_etc(etc_rng, n, m, e.task_het, e.machine_het)
        else:
            etc = cov_based_etc(etc_rng, n, m, e.task_mean, e.task_cov, e.machine_cov)
        etc = apply_consistency(etc_rng, etc, e.consistency, e.semiconsistent_mode)
    if spec.arrivals.process == "static":
        arrival = static_arrivals(n)
    else:
        arrival = poisson_arrivals(arrival_rng, n, spec.arrivals.rate)
    if spec.actual.model == "exact":
        actual = etc.copy()
    elif spec.actual.model == "gamma":
        actual = gamma_times(actual_rng, etc, spec.actual.cov)
    else:
        actual = truncated_gaussian_times(actual_rng, etc)
    return Workload(arrival, etc, actual, seed=int(seed_seq.generate_state(1)[0]))
