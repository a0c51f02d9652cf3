"""The genetic algorithm, GA (Kim et al. 2007, section 5.3): a static benchmark with full knowledge, as numba kernels,
seeded with the trial's best dynamic mapping.

The seed is the first chromosome and the elite is kept, so the GA never returns anything worse than its seed. Its
random numbers come from ``rng`` (a :class:`numpy.random.Generator`): the same seed gives the same result.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hcsched.errors import HcschedError
from hcsched.heuristics import Param
from hcsched.models.value.static.problem import (
    StaticProblem,
    StaticResult,
    copy_queues,
    draw_seed,
    draw_target,
    eval_all,
    insert,
    remove,
    result,
    sequences,
)

GA_PARAMS = (
    Param("population", 100, int, 2.0, doc="chromosomes per generation, the seed included (section 5.3)"),
    Param("crossover", 0.9, float, 0.0, 1.0, doc="probability that a chromosome becomes a crossover parent"),
    Param("mutation", 0.2, float, 0.0, 1.0, doc="probability that a chromosome is mutated"),
    Param("generations", 1000, int, 0.0, doc="stop after this many generations"),
    Param("elite_unchanged", 200, int, 1.0,
          doc="stop when the elite chromosome is unchanged for this many generations"),
    Param("pressure", 2.0, float, 1.0, 2.0,
          doc="selective pressure s of the linear rank-based roulette (unstated): the best is drawn s times as "
              "often as the average"),
)


class Settings(NamedTuple):
    """The GA's parameters as its kernel reads them (:func:`ga` documents them)."""

    size: int
    p_cross: float
    p_mut: float
    generations: int
    elite_unchanged: int
    pressure: float


def work(params: dict) -> float:
    """The most schedules the GA may evaluate with ``params``: population x generations."""
    return float(params["population"]) * params["generations"]


@njit(cache=True)
def _merge(p_row, p_k, q_row, q_k, cut, out):
    """One machine of a child: the head tasks (index <= cut) of parent p's queue and the tail tasks of parent q's,
    each at its slot (position in its parent's queue); a head and a tail task in the same slot in random order."""
    k, a, b = 0, 0, 0
    while True:
        while a < p_k and p_row[a] > cut:
            a += 1
        while b < q_k and q_row[b] <= cut:
            b += 1
        if a >= p_k and b >= q_k:
            return k
        if b >= q_k or (a < p_k and (a < b or (a == b and np.random.random() < 0.5))):
            out[k] = p_row[a]
            a += 1
        else:
            out[k] = q_row[b]
            b += 1
        k += 1


@njit(cache=True)
def _crossover(pop, cnt, x, y, n, child0, cnt0, child1, cnt1):
    """Children of parents x and y (section 5.3, Fig. 1): a random task splits both into a head (tasks up to it,
    by index) and a tail; child 0 is x's head with y's tail, child 1 y's head with x's tail. They replace x, y."""
    cut = np.random.randint(n - 1)  # head = tasks 0..cut, tail = cut+1..n-1: both non-empty
    for m in range(cnt.shape[1]):
        cnt0[m] = _merge(pop[x, m], cnt[x, m], pop[y, m], cnt[y, m], cut, child0[m])
        cnt1[m] = _merge(pop[y, m], cnt[y, m], pop[x, m], cnt[x, m], cut, child1[m])
    copy_queues(child0, cnt0, pop[x], cnt[x])
    copy_queues(child1, cnt1, pop[y], cnt[y])


@njit(cache=True)
def _mutate(seq, cnt, n):
    """A random task to a random machine and position (the same move as TPSA's phase 1)."""
    i = np.random.randint(n)
    a, p = 0, 0
    for m in range(cnt.size):
        for r in range(cnt[m]):
            if seq[m, r] == i:
                a, p = m, r
    b, q = draw_target(cnt, a)
    remove(seq[a], cnt[a], p)
    cnt[a] -= 1
    insert(seq[b], cnt[b], q, i)
    cnt[b] += 1


@njit(cache=True)
def _same(pop, cnt, x, y):
    for m in range(cnt.shape[1]):
        if cnt[x, m] != cnt[y, m]:
            return False
        for r in range(cnt[x, m]):
            if pop[x, m, r] != pop[y, m, r]:
                return False
    return True


@njit(cache=True)
def _rank(fit, ranked):
    """Chromosomes from the worst to the best (equal fitness: lower index first), by insertion sort."""
    for c in range(fit.size):
        r = c
        while r > 0 and fit[ranked[r - 1]] > fit[c]:
            ranked[r] = ranked[r - 1]
            r -= 1
        ranked[r] = c


@njit(cache=True)
def _spin(wheel, x):
    """The first slot of the cumulative ``wheel`` above x (binary search)."""
    lo, hi = 0, wheel.size - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if wheel[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def _random_population(pop, pcnt):
    """Every chromosome but the first: the tasks in a random order, each appended to a uniformly random machine."""
    size, mm, n = pop.shape
    perm = np.arange(n)
    for c in range(1, size):
        for r in range(n - 1, 0, -1):  # Fisher-Yates shuffle
            k = np.random.randint(r + 1)
            perm[r], perm[k] = perm[k], perm[r]
        for i in perm:
            m = np.random.randint(mm)
            pop[c, m, pcnt[c, m]] = i
            pcnt[c, m] += 1


@njit(cache=True)
def _evaluate_dirty(pop, pcnt, fit, dirty, mval, mfin, pa):
    """Score the changed chromosomes; return the elite (the first of the best) and how many were scored."""
    elite, count = 0, 0
    for c in range(fit.size):
        if dirty[c]:
            fit[c] = eval_all(pop[c], pcnt[c], mval, mfin, pa)
            dirty[c] = False
            count += 1
        if fit[c] > fit[elite]:
            elite = c
    return elite, count


@njit(cache=True)
def _select(pop, pcnt, fit, elite, wheel, ranked, nxt, ncnt, nfit):
    """Elitism (the elite copied to place 0) and a rank-based roulette wheel for the other places."""
    _rank(fit, ranked)
    copy_queues(pop[elite], pcnt[elite], nxt[0], ncnt[0])
    nfit[0] = fit[elite]
    for c in range(1, fit.size):
        pick = ranked[_spin(wheel, np.random.random() * wheel[-1])]
        copy_queues(pop[pick], pcnt[pick], nxt[c], ncnt[c])
        nfit[c] = fit[pick]


@njit(cache=True)
def _breed(pop, pcnt, dirty, p_cross, p_mut, child0, c0, child1, c1):
    """Crossover of consecutive parents (each place but the elite's a parent with probability p_cross), then
    mutation of each place but the elite's with probability p_mut."""
    size, n = pop.shape[0], pop.shape[2]
    waiting = -1
    for c in range(1, size):
        if np.random.random() < p_cross:
            if waiting < 0:
                waiting = c
            else:
                _crossover(pop, pcnt, waiting, c, n, child0, c0, child1, c1)
                dirty[waiting] = dirty[c] = True
                waiting = -1
    for c in range(1, size):
        if np.random.random() < p_mut:
            _mutate(pop[c], pcnt[c], n)
            dirty[c] = True


@njit(cache=True)
def _converged(pop, pcnt, fit):
    """Every chromosome the same mapping (compared only when all have the same score)."""
    for c in range(1, fit.size):
        if fit[c] != fit[0]:
            return False
    for c in range(1, fit.size):
        if not _same(pop, pcnt, 0, c):
            return False
    return True


@njit(cache=True)
def _ga_run(seq, cnt, pa, st, seed):
    """The GA from the seed ``(seq, cnt)`` on the problem's arrays ``pa`` with the :class:`Settings` ``st``; returns
    the elite (seq, cnt, score), the evaluations and the generations run."""
    np.random.seed(seed)
    size, p_cross, p_mut, generations, elite_unchanged, pressure = st
    n, mm = pa.arrival.size, cnt.size
    pops, cnts = np.empty((2, size, mm, n), np.int64), np.zeros((2, size, mm), np.int64)  # this and next generation
    fits, dirty = np.empty((2, size)), np.ones(size, np.bool_)
    g = 0
    pop, pcnt, fit = pops[0], cnts[0], fits[0]
    mval, mfin = np.zeros(mm), np.zeros(mm)
    child0, child1 = np.empty((mm, n), np.int64), np.empty((mm, n), np.int64)
    c0, c1 = np.zeros(mm, np.int64), np.zeros(mm, np.int64)
    copy_queues(seq, cnt, pop[0], pcnt[0])
    _random_population(pop, pcnt)
    # linear ranking (Baker): rank r = 1 (worst) .. size (best) has weight (2 - s) + 2 (s - 1)(r - 1)/(size - 1)
    wheel, ranked = np.empty(size), np.empty(size, np.int64)
    acc = 0.0
    for r in range(size):
        acc += (2.0 - pressure) + 2.0 * (pressure - 1.0) * r / (size - 1)
        wheel[r] = acc
    gen, still, evaluations = 0, 0, 0
    while True:
        elite, count = _evaluate_dirty(pop, pcnt, fit, dirty, mval, mfin, pa)
        evaluations += count
        if gen > 0:
            still = still + 1 if elite == 0 else 0  # place 0 holds the previous elite
            if _converged(pop, pcnt, fit):
                break
        if gen >= generations or still >= elite_unchanged:
            break
        _select(pop, pcnt, fit, elite, wheel, ranked, pops[1 - g], cnts[1 - g], fits[1 - g])
        g = 1 - g
        pop, pcnt, fit = pops[g], cnts[g], fits[g]
        _breed(pop, pcnt, dirty, p_cross, p_mut, child0, c0, child1, c1)
        gen += 1
    return pop[elite].copy(), pcnt[elite].copy(), fit[elite], evaluations, gen


def ga(problem: StaticProblem, machine, order, rng: np.random.Generator, *, population: int = 100,
       crossover: float = 0.9, mutation: float = 0.2, generations: int = 1000, elite_unchanged: int = 200,
       pressure: float = 2.0) -> StaticResult:
    """Genetic algorithm (section 5.3), seeded with ``(machine, order)``; never worse than the seed (elitism).

    The first population is the seed plus ``population - 1`` chromosomes built by taking the tasks in a random order
    and appending each to a uniformly random machine. A generation is selection, crossover, mutation, evaluation:
    the elite (the best chromosome) is copied unchanged and the other places are drawn by a rank-based roulette
    wheel; going once through the non-elite places, each becomes a parent with probability ``crossover`` and
    consecutive parents pair up (each used once; a last unpaired one stays as it is); children replace their
    parents; then each non-elite chromosome is mutated with probability ``mutation`` (a random task to a random
    machine and position). The GA stops after ``generations`` generations, when the elite has not improved for
    ``elite_unchanged`` generations, or when every chromosome is the same mapping.

    Unstated, decided here: linear ranking with pressure ``pressure`` (s = 2, the default, is practically "in
    proportion to rank": the worst is never drawn); the crossover task splits by task index with both parts
    non-empty (head = tasks 0..c); the elite is replaced only by a strictly better chromosome.
    """
    size = int(population)
    if size < 2:
        raise HcschedError(f"population: {population} is not allowed; allowed: an integer >= 2")
    if not 1.0 <= pressure <= 2.0:
        raise HcschedError(f"pressure: {pressure} is not allowed; allowed: a number >= 1 and <= 2")
    seq, cnt = sequences(problem, machine, order)
    seed_result = result(problem, seq, cnt, 0)
    if problem.tasks < 2:
        return result(problem, seq, cnt, 1)
    st = Settings(size, float(crossover), float(mutation), int(generations), int(elite_unchanged), float(pressure))
    s, c, _, evaluations, _ = _ga_run(seq, cnt, problem.arrays(), st, draw_seed(rng))
    if result(problem, s, c, 0).score > seed_result.score:
        return result(problem, s, c, evaluations)
    return result(problem, seq, cnt, evaluations)
