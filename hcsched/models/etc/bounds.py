"""Lower bounds on what any mapping of an ETC workload can achieve: how far a heuristic is from the best possible.

The tasks of the ETC model (Maheswaran et al. 1999, section 3.1) are independent and non-preemptive, and each
machine runs one at a time: makespan minimisation on unrelated machines (R||Cmax). Every bound here is computed
from the times the tasks actually take (:attr:`~.workload.Workload.actual`, drawn before the run, so the same
for every mapping), so it bounds the makespan of *every* mapping, even one that knew those times in advance.
A heuristic's makespan over this bound is then at least 1, and 1 is the best possible.

- :func:`lp_bound`, tasks all at time 0 (machine j free from ``ready[j]``): the linear-programming relaxation
  of R||Cmax, minimise C subject to every task assigned in fractions x_ij >= 0 that sum to 1, and every
  machine's ``ready[j] + sum_i p_ij x_ij <= C``. An integral mapping is one feasible x, so its makespan is at
  least the LP's optimum C*. A basic optimal solution splits at most m - 1 tasks (Potts, Discrete Applied
  Mathematics 10, 1985), which is why C* lies within one task's time of the optimum. The bound also takes the
  largest, over tasks, of its earliest possible completion ``min_j ready[j] + p_ij`` (the LP ignores that a task
  cannot be split); it dominates total fastest work / machines, which the LP's load constraints imply.
- :func:`release_bound`, tasks arriving over time: no task starts before it arrives, so for any time t the
  tasks arriving at or after t are all processed after t, and the makespan is at least t plus their LP bound
  (machines free at t: the work already running only delays them further). The maximum over t is taken for every
  arrival with the cheap bound (t + the largest fastest time after t; t + their fastest work / m, by suffix sums)
  and with the LP at the arrival times of the last 1, 2, 4, ... tasks and at 0 (log2 n LPs whose sizes sum to
  about 2 n m variables).
- :func:`dual_bound`, the bound a trial carries: the LP's optimum costs 0.05-1.5 s per workload, far more than a
  trial of the immediate heuristics, so a trial takes the Lagrangian dual of the same LP instead. For any machine
  weights w_j >= 0 summing to 1, ``sum_j w_j ready[j] + sum_i min_j w_j p_ij`` is at most C* (the load constraints
  weighted by w and added: an integral mapping's makespan C satisfies C >= sum_j w_j load_j >= that sum), so every
  w gives a valid bound, whether or not it is the best one; the weights are improved by exponentiated supergradient
  steps (a machine whose load under the current weights is above the mean gets heavier). With release dates the
  same w gives the bound of every suffix of the arrival order at once (t + the suffix's sum), in O(n m) per step.
- :func:`flow_bound`: a task's flow time is at least its fastest time on any machine, so mean flow time is at
  least the mean of those (machines idle when it arrives: the best any mapping can give it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from scipy import optimize, sparse

STALL, PATIENCE = 1e-4, 5  # :func:`dual_bound` stops after 5 steps that each raise it by less than 0.01%
DUAL_ITERATIONS = 25  # at most, of :func:`dual_bound` per trial (bench/bounds.py)


@dataclass(frozen=True)
class Relaxation:
    """The LP relaxation's optimum ``makespan`` (C*) and its solution ``x`` (tasks x machines fractions, a
    vertex of the polytope: at most m - 1 tasks split), or None where it was not needed."""

    makespan: float
    x: np.ndarray | None = None


def _no_ready(p: np.ndarray, ready) -> np.ndarray:
    return np.zeros(p.shape[1]) if ready is None else np.asarray(ready, dtype=float)


def lp_relaxation(p: np.ndarray, ready=None, solution: bool = False) -> Relaxation:
    """Solve the LP relaxation of R||Cmax (see the module's docstring) with HiGHS's dual simplex.

    ``p`` is tasks x machines processing times, ``ready`` the machines' ready times (zeros when None). With
    ``solution`` the fractions x come back too (a vertex solution: at most m - 1 tasks split)."""
    p = np.asarray(p, dtype=float)
    n, m = p.shape
    ready = _no_ready(p, ready)
    if n == 0:
        return Relaxation(float(ready.max(initial=0.0)), np.zeros((0, m)) if solution else None)
    # Variables: x_ij row-major (n m of them), then C. Each task's fractions sum to 1; each machine's load <= C.
    cols = np.arange(n * m)
    assign = sparse.csr_matrix((np.ones(n * m), (np.repeat(np.arange(n), m), cols)), shape=(n, n * m + 1))
    load_rows = np.concatenate([np.tile(np.arange(m), n), np.arange(m)])
    load_cols = np.concatenate([cols, np.full(m, n * m)])
    load = sparse.csr_matrix((np.concatenate([p.ravel(), -np.ones(m)]), (load_rows, load_cols)), shape=(m, n * m + 1))
    cost = np.zeros(n * m + 1)
    cost[-1] = 1.0
    res = optimize.linprog(cost, A_ub=load, b_ub=-ready, A_eq=assign, b_eq=np.ones(n), bounds=(0, None),
                           method="highs-ds")
    if res.status != 0:  # the LP is always feasible and bounded; a solver failure falls back to a weaker bound
        return Relaxation(float((p.min(axis=1).sum() + ready.sum()) / m), None)
    x = np.clip(res.x[:-1].reshape(n, m), 0.0, 1.0) if solution else None
    return Relaxation(float(res.x[-1]), x)


def trivial_bound(p: np.ndarray, ready=None) -> float:
    """The largest earliest completion of a single task, ``max_i min_j ready[j] + p_ij``, and the total fastest
    work spread over the machines, ``(sum_j ready[j] + sum_i min_j p_ij) / m``: each a makespan no mapping
    beats (the LP bound implies the second)."""
    p = np.asarray(p, dtype=float)
    ready = _no_ready(p, ready)
    if p.shape[0] == 0:
        return float(ready.max(initial=0.0))
    longest = float((p + ready).min(axis=1).max())
    return max(longest, float((ready.sum() + p.min(axis=1).sum()) / p.shape[1]), float(ready.min()))


def lp_bound(p: np.ndarray, ready=None) -> float:
    """A lower bound on the makespan of every mapping of tasks that all arrive at time 0: the LP relaxation's
    optimum, or the largest single task's earliest completion where that is larger (module docstring)."""
    return max(lp_relaxation(p, ready).makespan, trivial_bound(p, ready))


def thresholds(n: int) -> np.ndarray:
    """The first tasks of the suffixes the release bound solves an LP for: 0 and n - 1, n - 2, n - 4, ... (the
    last 1, 2, 4, ... tasks to arrive)."""
    if n == 0:
        return np.zeros(0, np.int64)
    firsts = {0} | {n - 2**k for k in range(int(np.log2(n)) + 1)}
    return np.array(sorted(firsts), np.int64)


def release_bound(arrival: np.ndarray, p: np.ndarray) -> float:
    """A lower bound on the makespan of every mapping of tasks that arrive at ``arrival`` (sorted) onto machines
    free at time 0: the largest, over thresholds t, of t + a bound for the tasks arriving at or after t (module
    docstring). Every arrival time is tried with the cheap bounds, the thresholds of :func:`thresholds` with the LP."""
    arrival, p = np.asarray(arrival, dtype=float), np.asarray(p, dtype=float)
    n, m = p.shape
    if n == 0:
        return 0.0
    best = cheap_bound(arrival, p)
    for k in thresholds(n):
        first = int(np.searchsorted(arrival, arrival[k], side="left"))  # every task arriving at that time
        best = max(best, float(arrival[first]) + lp_relaxation(p[first:]).makespan)
    return best


@njit(cache=True)
def _fastest(q):
    """Each task's fastest time, from machines x tasks times ``q`` (the inner loop runs over tasks: vectorised)."""
    fastest = q[0].copy()
    for j in range(1, q.shape[0]):
        row = q[j]
        for i in range(q.shape[1]):
            fastest[i] = min(fastest[i], row[i])
    return fastest


@njit(cache=True)
def _cheap(arrival, fastest, m):
    """:func:`cheap_bound` from each task's fastest time, by one pass over the suffixes."""
    suffix, longest, best = 0.0, 0.0, 0.0
    for i in range(fastest.size - 1, -1, -1):
        suffix += fastest[i]
        longest = max(longest, fastest[i])
        best = max(best, arrival[i] + max(suffix / m, longest))
    return best


@njit(cache=True)
def _dual(arrival, q, iterations, best):
    """:func:`dual_bound` on machines x tasks times ``q``, at least ``best``."""
    m, n = q.shape
    w = np.empty(m)
    for j in range(m):
        w[j] = 1.0 / max(q[j].sum(), 1e-300)
    w /= w.sum()
    value, jb, load = np.empty(n), np.empty(n, np.int64), np.zeros(m)
    stalled = 0
    for it in range(iterations):
        before = best
        value[:] = w[0] * q[0]
        jb[:] = 0
        for j in range(1, m):
            wj, row = w[j], q[j]
            for i in range(n):
                v = wj * row[i]
                if v < value[i]:
                    value[i], jb[i] = v, j
        load[:] = 0.0
        suffix = 0.0
        for i in range(n - 1, -1, -1):
            load[jb[i]] += q[jb[i], i]
            suffix += value[i]
            best = max(best, arrival[i] + suffix)
        stalled = stalled + 1 if best <= before * (1.0 + STALL) else 0
        mean = load.mean()
        if stalled == PATIENCE or mean <= 0.0:
            break
        step, total = 0.5 / np.sqrt(it + 1.0), 0.0
        for j in range(m):
            w[j] *= np.exp(step * min(1.0, max(-1.0, load[j] / mean - 1.0)))
            total += w[j]
        w /= total
    return best


@njit(cache=True)
def _trial(arrival, p, iterations):
    q = np.ascontiguousarray(p.T)
    fastest = _fastest(q)
    cheap = _cheap(arrival, fastest, q.shape[0])
    return _dual(arrival, q, iterations, cheap), fastest.mean()


def dual_bound(arrival: np.ndarray, p: np.ndarray, iterations: int) -> float:
    """The largest, over the weight vectors tried and over tasks i, of ``arrival[i]`` plus the Lagrangian bound of
    the tasks i..n-1 (module docstring); ``arrival`` sorted, machines free at time 0. The weights start inversely
    proportional to the machines' total times (a slow machine counts less), and take at most ``iterations`` steps,
    fewer when PATIENCE steps in a row each raise the bound by less than STALL (relative)."""
    q = np.ascontiguousarray(np.asarray(p, dtype=float).T)
    return float(_dual(np.ascontiguousarray(arrival, dtype=float), q, iterations, 0.0))


def cheap_bound(arrival: np.ndarray, p: np.ndarray) -> float:
    """The largest, over tasks i, of ``arrival[i]`` plus the larger of the tasks i..n-1's largest fastest time and
    their fastest work over the machines (:func:`trivial_bound` of each suffix, by suffix sums)."""
    q = np.ascontiguousarray(np.asarray(p, dtype=float).T)
    return float(_cheap(np.ascontiguousarray(arrival, dtype=float), _fastest(q), q.shape[0]))


def trial_bounds(arrival: np.ndarray, p: np.ndarray, iterations: int = DUAL_ITERATIONS) -> tuple[float, float]:
    """The bounds a trial carries, from its actual times (machines free at time 0, ``arrival`` sorted): on the
    makespan, :func:`cheap_bound` and :func:`dual_bound`, the larger; on mean flow time, :func:`flow_bound`."""
    arrival, p = np.ascontiguousarray(arrival, dtype=float), np.asarray(p, dtype=float)
    if p.shape[0] == 0:
        return 0.0, 0.0
    makespan, flow = _trial(arrival, p, iterations)
    return float(makespan), float(flow)


def trial_bound(arrival: np.ndarray, p: np.ndarray, iterations: int = DUAL_ITERATIONS) -> float:
    """The makespan bound of :func:`trial_bounds`."""
    return trial_bounds(arrival, p, iterations)[0]


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the bounds' kernels."""
    trial_bound(np.zeros(2), np.ones((2, 2)), 2)


def flow_bound(p: np.ndarray) -> float:
    """A lower bound on mean flow time: the mean over tasks of their fastest time (module docstring)."""
    p = np.asarray(p, dtype=float)
    return float(p.min(axis=1).mean()) if p.shape[0] else 0.0


def makespan_bound(arrival: np.ndarray, p: np.ndarray) -> float:
    """The makespan bound of a workload: :func:`lp_bound` when every task arrives at the same time (with the
    machines free from then), :func:`release_bound` otherwise."""
    arrival = np.asarray(arrival, dtype=float)
    if arrival.size and arrival[0] == arrival[-1]:
        return float(arrival[0]) + lp_bound(p)
    return release_bound(arrival, p)
