"""Two-phase simulated annealing, TPSA (Kim et al. 2007, section 5.2): a static benchmark with full knowledge, as a
numba kernel, seeded with the trial's best dynamic mapping.

It starts from the given schedule, keeps the best schedule seen so far and returns it, so it never returns anything
worse than its seed. Its random numbers come from ``rng`` (a :class:`numpy.random.Generator`): the same seed gives
the same result. A run's schedule replaces the seed only when its canonical score (:func:`.problem.result`) is
strictly larger.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from hcsched.errors import HcschedError
from hcsched.heuristics import Param
from hcsched.models.value.static.problem import (
    EVERY,
    StaticProblem,
    StaticResult,
    copy_queues,
    draw_seed,
    draw_target,
    insert,
    reindex,
    remove,
    result,
    resume,
    saved_states,
    sequences,
    total,
)

TPSA_PARAMS = (
    Param("t0", 1e5, float, 0.0, low_open=True, doc="initial temperature (section 5.2: 100,000)"),
    Param("alpha", 0.99, float, 0.0, 0.999999, low_open=True,
          doc="the temperature is multiplied by alpha at every iteration (section 5.2)"),
    Param("phase1_iterations", 4000, int, 0.0, doc="phase 1 (mutation) runs at most this many iterations"),
    Param("phase1_unchanged", 400, int, 1.0,
          doc="phase 1 ends when the solution is unchanged for this many iterations"),
    Param("phase2_unchanged", 1000, int, 1.0,
          doc="phase 2 (swap) ends when the solution is unchanged for this many iterations"),
    Param("t_min", 1e-200, float, 0.0, low_open=True,
          doc="phase 2 also ends when the temperature falls below this (section 5.2: 10^-200, 'the temperature is "
              "zero'); from t0 = 100,000 at alpha = 0.99 that takes about 47,000 iterations, so the 'unchanged' "
              "rule ends phase 2 first in practice"),
    Param("runs", 5, int, 1.0, doc="independent runs from the seed per trial; the best is kept (section 5.2)"),
    Param("unchanged", "mapping", "choice", choices=("mapping", "value"),
          doc="what 'unchanged' counts (unstated): iterations without an accepted move, or without a change of V"),
)


class Settings(NamedTuple):
    """TPSA's parameters as its kernel reads them (:func:`tpsa` documents them)."""

    t0: float
    alpha: float
    p1_iterations: int
    p1_unchanged: int
    p2_unchanged: int
    t_min: float
    by_value: bool


def work(params: dict) -> float:
    """The most schedules TPSA may evaluate with ``params``: runs x iterations (phase 1 at most
    ``phase1_iterations``, phase 2 until T = t0 alpha^k falls below t_min; the "unchanged" rules may stop either
    sooner)."""
    cooling = (math.log(params["t_min"] / params["t0"]) / math.log(params["alpha"])
               if params["t_min"] < params["t0"] else 0.0)
    return params["runs"] * max(float(params["phase1_iterations"]), cooling)


@njit(cache=True)
def _try(seq, cnt, m, pa, saved, scratch, p):
    """(sum, last finish) of machine m's queue changed from position p on, evaluated from its saved states
    (:func:`~.problem.resume`) into ``scratch`` (kept by :func:`_keep` if the move is accepted)."""
    j = p // EVERY
    scratch[j, 0], scratch[j, 1] = saved[m, j, 0], saved[m, j, 1]
    return resume(seq[m], cnt[m], m, pa, scratch, p)


@njit(cache=True)
def _keep(saved, m, scratch, p, k):
    """Machine m's saved states from position p on (its queue now ``k`` long) from ``scratch``."""
    for j in range(p // EVERY, k // EVERY + 1):
        saved[m, j, 0], saved[m, j, 1] = scratch[j, 0], scratch[j, 1]


@njit(cache=True)
def _tpsa_run(seq, cnt, pa, st, saved, seed):
    """One TPSA run from ``(seq, cnt)`` (modified in place) on the problem's arrays ``pa`` with the
    :class:`Settings` ``st``: phase 1 mutations, then phase 2 swaps, one temperature throughout; ``saved``: room for
    the queues' saved states, so that a move evaluates its machines from the first position it changed. Returns the
    best (seq, cnt, score) seen and the number of evaluations."""
    np.random.seed(seed)
    t0, alpha, p1_iterations, p1_unchanged, p2_unchanged, t_min, by_value = st
    makespan = pa.makespan
    n, mm = pa.arrival.size, cnt.size
    wm, wp = np.empty(n, np.int64), np.empty(n, np.int64)
    for m in range(mm):
        for r in range(cnt[m]):
            wm[seq[m, r]] = m
            wp[seq[m, r]] = r
    mval, mfin = np.zeros(mm), np.zeros(mm)
    for m in range(mm):
        mval[m], mfin[m] = resume(seq[m], cnt[m], m, pa, saved[m], 0)
    scratch = np.zeros((2, saved.shape[1], 2))
    cur = total(mval, mfin, makespan)
    best, best_seq, best_cnt = cur, seq.copy(), cnt.copy()
    temp, evaluations = t0, 0
    for phase in range(2):
        still, it = 0, 0
        while True:
            if phase == 0 and (it >= p1_iterations or still >= p1_unchanged):
                break
            if phase == 1 and (still >= p2_unchanged or temp < t_min or n < 2):
                break
            it += 1
            if phase == 0:  # mutation: a random task to a random machine and position
                i = np.random.randint(n)
                a, p = wm[i], wp[i]
                b, q = draw_target(cnt, a)
                if b == a and q == p:
                    still += 1
                    temp *= alpha
                    continue
                remove(seq[a], cnt[a], p)
                cnt[a] -= 1
                insert(seq[b], cnt[b], q, i)
                cnt[b] += 1
                wm[i] = b
            else:  # swap: two random tasks exchange machine and position
                i = np.random.randint(n)
                j = np.random.randint(n - 1)
                if j >= i:
                    j += 1
                a, p, b, q = wm[i], wp[i], wm[j], wp[j]
                seq[a, p], seq[b, q] = j, i
                wm[i], wp[i], wm[j], wp[j] = b, q, a, p
            from_a = min(p, q) if b == a else p  # the first position of each machine the move changed
            old_va, old_fa, old_vb, old_fb = mval[a], mfin[a], mval[b], mfin[b]
            mval[a], mfin[a] = _try(seq, cnt, a, pa, saved, scratch[0], from_a)
            if b != a:
                mval[b], mfin[b] = _try(seq, cnt, b, pa, saved, scratch[1], q)
            evaluations += 1
            new = total(mval, mfin, makespan)
            if new >= cur or np.random.random() < np.exp(-(cur - new) / temp):
                still = still + 1 if by_value and new == cur else 0
                cur = new
                _keep(saved, a, scratch[0], from_a, cnt[a])
                if b != a:
                    _keep(saved, b, scratch[1], q, cnt[b])
                if phase == 0:
                    reindex(seq, cnt, a, wp, from_a)
                    reindex(seq, cnt, b, wp, from_a if b == a else q)
                if cur > best:
                    best = cur
                    copy_queues(seq, cnt, best_seq, best_cnt)
            else:  # undo
                mval[a], mfin[a], mval[b], mfin[b] = old_va, old_fa, old_vb, old_fb
                if phase == 0:
                    cnt[b] -= 1
                    remove(seq[b], cnt[b] + 1, q)
                    insert(seq[a], cnt[a], p, i)
                    cnt[a] += 1
                    wm[i] = a
                else:
                    seq[a, p], seq[b, q] = i, j
                    wm[i], wp[i], wm[j], wp[j] = a, p, b, q
                still += 1
            temp *= alpha
    return best_seq, best_cnt, best, evaluations


def tpsa(problem: StaticProblem, machine, order, rng: np.random.Generator, *, t0: float = 1e5, alpha: float = 0.99,
         phase1_iterations: int = 4000, phase1_unchanged: int = 400, phase2_unchanged: int = 1000,
         t_min: float = 1e-200, runs: int = 5, unchanged: str = "mapping") -> StaticResult:
    """Two-phase simulated annealing (section 5.2), seeded with ``(machine, order)``; never worse than the seed.

    Each of ``runs`` runs starts from the seed at temperature ``t0``. An iteration (1) changes the current schedule,
    (2) accepts the change if its score is at least the current one, otherwise with probability
    exp(-|new - current| / T), and (3) sets T <- alpha T. Phase 1 moves a random task to a random machine and a
    random position of its queue (uniform over the machines, the task's own included, and over the slots of the
    queue without the task), for ``phase1_iterations`` iterations or until the schedule is unchanged for
    ``phase1_unchanged``; phase 2 swaps the machine and position of two distinct random tasks until it is unchanged
    for ``phase2_unchanged`` iterations or T < ``t_min``. The temperature carries on from phase 1 into phase 2
    (the paper lowers it "at each iteration"). Unstated, decided here: "unchanged" counts iterations with no
    accepted move (``unchanged="mapping"``; a move back to the same place counts as no change; a neutral move,
    accepted with probability 1, is a change) or, with ``unchanged="value"``, iterations that leave the score
    unchanged; each run keeps the best schedule it has seen and the best of all runs is returned (the paper keeps
    the best of its five runs; keeping the best within a run is our choice, which makes the result never worse).
    """
    if not 0.0 < alpha < 1.0:
        raise HcschedError(f"alpha: {alpha} is not allowed; allowed: a number > 0 and < 1")
    if unchanged not in ("mapping", "value"):
        raise HcschedError(f"unchanged: {unchanged!r} is not allowed; allowed: one of mapping, value")
    seq, cnt = sequences(problem, machine, order)
    best = result(problem, seq, cnt, 0)
    best_seq, best_cnt, evaluations = seq, cnt, 1
    saved = saved_states(problem.machines, problem.tasks)
    for _ in range(int(runs)):
        st = Settings(float(t0), float(alpha), int(phase1_iterations), int(phase1_unchanged), int(phase2_unchanged),
                      float(t_min), unchanged == "value")
        s, c, _, e = _tpsa_run(seq.copy(), cnt.copy(), problem.arrays(), st, saved, draw_seed(rng))
        evaluations += e
        run = result(problem, s, c, 0)
        if run.score > best.score:
            best, best_seq, best_cnt = run, s, c
    return result(problem, best_seq, best_cnt, evaluations)

