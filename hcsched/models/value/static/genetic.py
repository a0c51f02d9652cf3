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
    CLEAN,
    EVERY,
    StaticProblem,
    StaticResult,
    copy_queues,
    draw_seed,
    draw_target,
    insert,
    remove,
    result,
    resume,
    saved_states,
    sequences,
    total,
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


class Population(NamedTuple):
    """A generation of chromosomes as the kernels keep it: each one's queues ``seq[c, m, :cnt[c, m]]``, the states its
    queues' evaluations saved (:func:`~.problem.resume`), each queue's sum of p d b and last finish, its fitness, and
    the first position of each queue changed since its evaluation (``CLEAN``: none)."""

    seq: np.ndarray
    cnt: np.ndarray
    saved: np.ndarray
    mval: np.ndarray
    mfin: np.ndarray
    fit: np.ndarray
    since: np.ndarray


def new_population(size: int, machines: int, tasks: int) -> Population:
    return Population(np.empty((size, machines, tasks + 1), np.int64), np.zeros((size, machines), np.int64),
                      saved_states(machines, tasks, size), np.zeros((size, machines)), np.zeros((size, machines)),
                      np.empty(size), np.zeros((size, machines), np.int64))


@njit(cache=True)
def _merge(p_row, p_k, q_row, q_k, cut, out):
    """One machine of a child: the head tasks (index <= cut) of parent p's queue and the tail tasks of parent q's,
    each at its slot (position in its parent's queue), slot by slot; a head and a tail task in the same slot in random
    order. Returns the child's queue length, how many of its first tasks are the first tasks of one parent's queue
    (up to the first slot that gives the child other than that parent's task there) and whether that parent is q.
    ``out`` has room for one task more than the child gets."""
    both = min(p_k, q_k)
    same_p = 0  # slots giving the child p's task alone: a head in p and none of q's tail there, or the same task
    while same_p < both and ((p_row[same_p] <= cut and q_row[same_p] <= cut) or p_row[same_p] == q_row[same_p]):
        same_p += 1
    same_q = 0  # slots giving the child q's task alone
    while same_q < both and ((p_row[same_q] > cut and q_row[same_q] > cut) or p_row[same_q] == q_row[same_q]):
        same_q += 1
    from_q = same_q > same_p
    same = same_q if from_q else same_p
    lender = q_row if from_q else p_row
    for s in range(same):
        out[s] = lender[s]
    k = same
    for s in range(same, both):
        head, tail = p_row[s] <= cut, q_row[s] > cut
        if head & tail:
            first, second = (p_row[s], q_row[s]) if np.random.random() < 0.5 else (q_row[s], p_row[s])
            out[k], out[k + 1] = first, second
            k += 2
        else:  # at most one of them: written, and kept only if it belongs to the child
            out[k] = p_row[s]
            k += head
            out[k] = q_row[s]
            k += tail
    for s in range(q_k, p_k):
        out[k] = p_row[s]
        k += p_row[s] <= cut
    for s in range(p_k, q_k):
        out[k] = q_row[s]
        k += q_row[s] > cut
    return k, same, from_q


@njit(cache=True)
def _child(src, x, y, dst, c, m, cut):
    """Machine m of child c of ``dst``: x's head with y's tail (:func:`_merge`). The parent whose queue it starts
    like lends it the states its evaluation saved there; the rest is evaluated again."""
    dst.cnt[c, m], same, from_y = _merge(src.seq[x, m], src.cnt[x, m], src.seq[y, m], src.cnt[y, m], cut,
                                         dst.seq[c, m])
    lender = y if from_y else x
    for j in range(same // EVERY + 1):
        dst.saved[c, m, j, 0], dst.saved[c, m, j, 1] = src.saved[lender, m, j, 0], src.saved[lender, m, j, 1]
    dst.since[c, m] = same


@njit(cache=True)
def _crossover(src, x, y, dst, u, v, n):
    """Children of parents x and y of ``src`` (section 5.3, Fig. 1) into places u and v of ``dst``: a random task
    splits both into a head (tasks up to it, by index) and a tail; child u is x's head with y's tail, child v y's head
    with x's tail."""
    cut = np.random.randint(n - 1)  # head = tasks 0..cut, tail = cut+1..n-1: both non-empty
    for m in range(src.cnt.shape[1]):
        _child(src, x, y, dst, u, m, cut)
        _child(src, y, x, dst, v, m, cut)


@njit(cache=True)
def _copy(src, x, dst, c):
    """Chromosome x of ``src`` as chromosome c of ``dst``, evaluated (plain loops: numba compiles slice assignments
    slowly)."""
    for m in range(src.cnt.shape[1]):
        k = src.cnt[x, m]
        for r in range(k):
            dst.seq[c, m, r] = src.seq[x, m, r]
        for j in range(k // EVERY + 1):
            dst.saved[c, m, j, 0], dst.saved[c, m, j, 1] = src.saved[x, m, j, 0], src.saved[x, m, j, 1]
        dst.cnt[c, m], dst.mval[c, m], dst.mfin[c, m], dst.since[c, m] = k, src.mval[x, m], src.mfin[x, m], CLEAN
    dst.fit[c] = src.fit[x]


@njit(cache=True)
def _mutate(pop, c, n):
    """A random task to a random machine and position (the same move as TPSA's phase 1)."""
    seq, cnt = pop.seq[c], pop.cnt[c]
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
    pop.since[c, a] = min(pop.since[c, a], p)
    pop.since[c, b] = min(pop.since[c, b], q)


@njit(cache=True)
def _same(pop, x, y):
    for m in range(pop.cnt.shape[1]):
        if pop.cnt[x, m] != pop.cnt[y, m]:
            return False
        for r in range(pop.cnt[x, m]):
            if pop.seq[x, m, r] != pop.seq[y, m, r]:
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
def _random_population(pop):
    """Every chromosome but the first: the tasks in a random order, each appended to a uniformly random machine."""
    size, mm = pop.cnt.shape
    n = pop.seq.shape[2] - 1  # a queue has room for one task more than the tasks
    perm = np.arange(n)
    for c in range(1, size):
        for r in range(n - 1, 0, -1):  # Fisher-Yates shuffle
            k = np.random.randint(r + 1)
            perm[r], perm[k] = perm[k], perm[r]
        for i in perm:
            m = np.random.randint(mm)
            pop.seq[c, m, pop.cnt[c, m]] = i
            pop.cnt[c, m] += 1


@njit(cache=True)
def _evaluate_dirty(pop, dirty, pa):
    """Score the changed chromosomes, each changed queue from its first change on; return the elite (the first of
    the best) and how many chromosomes were scored."""
    elite, count = 0, 0
    for c in range(pop.fit.size):
        if dirty[c]:
            for m in range(pop.cnt.shape[1]):
                if pop.since[c, m] <= pop.cnt[c, m]:
                    pop.mval[c, m], pop.mfin[c, m] = resume(pop.seq[c, m], pop.cnt[c, m], m, pa, pop.saved[c, m],
                                                            pop.since[c, m])
                    pop.since[c, m] = CLEAN
            pop.fit[c] = total(pop.mval[c], pop.mfin[c], pa.makespan)
            dirty[c] = False
            count += 1
        if pop.fit[c] > pop.fit[elite]:
            elite = c
    return elite, count


@njit(cache=True)
def _next_generation(pop, elite, wheel, ranked, picks, crossed, nxt, dirty, p_cross, p_mut):
    """Selection, crossover and mutation into ``nxt``. Selection: elitism (the elite to place 0) and a rank-based
    roulette wheel for the other places. Crossover of consecutive parents (each place but the elite's a parent with
    probability p_cross), the children written in their parents' places; then mutation of each place but the
    elite's with probability p_mut."""
    size, n = pop.fit.size, pop.seq.shape[2] - 1
    _rank(pop.fit, ranked)
    picks[0] = elite
    for c in range(1, size):
        picks[c] = ranked[_spin(wheel, np.random.random() * wheel[-1])]
    crossed[:] = False
    waiting = -1
    for c in range(1, size):
        if np.random.random() < p_cross:
            if waiting < 0:
                waiting = c
            else:
                _crossover(pop, picks[waiting], picks[c], nxt, waiting, c, n)
                crossed[waiting] = crossed[c] = dirty[waiting] = dirty[c] = True
                waiting = -1
    for c in range(size):
        if not crossed[c]:
            _copy(pop, picks[c], nxt, c)
    for c in range(1, size):
        if np.random.random() < p_mut:
            _mutate(nxt, c, n)
            dirty[c] = True


@njit(cache=True)
def _converged(pop):
    """Every chromosome the same mapping (compared only when all have the same score)."""
    for c in range(1, pop.fit.size):
        if pop.fit[c] != pop.fit[0]:
            return False
    for c in range(1, pop.fit.size):
        if not _same(pop, 0, c):
            return False
    return True


@njit(cache=True)
def _ga_run(seq, cnt, pa, st, this, other, seed):
    """The GA from the seed ``(seq, cnt)`` on the problem's arrays ``pa`` with the :class:`Settings` ``st``, in the
    :class:`Population` ``this`` and ``other`` (this generation and the next, in turn); returns the elite (seq, cnt,
    score), the evaluations and the generations run."""
    np.random.seed(seed)
    size, p_cross, p_mut, generations, elite_unchanged, pressure = st
    dirty, picks, crossed = np.ones(size, np.bool_), np.empty(size, np.int64), np.zeros(size, np.bool_)
    copy_queues(seq, cnt, this.seq[0], this.cnt[0])
    _random_population(this)
    # linear ranking (Baker): rank r = 1 (worst) .. size (best) has weight (2 - s) + 2 (s - 1)(r - 1)/(size - 1)
    wheel, ranked = np.empty(size), np.empty(size, np.int64)
    acc = 0.0
    for r in range(size):
        acc += (2.0 - pressure) + 2.0 * (pressure - 1.0) * r / (size - 1)
        wheel[r] = acc
    gen, still, evaluations = 0, 0, 0
    pop, nxt = this, other
    while True:
        elite, count = _evaluate_dirty(pop, dirty, pa)
        evaluations += count
        if gen > 0:
            still = still + 1 if elite == 0 else 0  # place 0 holds the previous elite
            if _converged(pop):
                break
        if gen >= generations or still >= elite_unchanged:
            break
        _next_generation(pop, elite, wheel, ranked, picks, crossed, nxt, dirty, p_cross, p_mut)
        pop, nxt = nxt, pop
        gen += 1
    return pop.seq[elite].copy(), pop.cnt[elite].copy(), pop.fit[elite], evaluations, gen


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
    this, other = (new_population(size, problem.machines, problem.tasks) for _ in range(2))
    s, c, _, evaluations, _ = _ga_run(seq, cnt, problem.arrays(), st, this, other, draw_seed(rng))
    if result(problem, s, c, 0).score > seed_result.score:
        return result(problem, s, c, evaluations)
    return result(problem, seq, cnt, evaluations)
