"""The genetic algorithm, GA (Kim et al. 2007, section 5.3): a static benchmark with full knowledge, as numba kernels,
seeded with the trial's best dynamic mapping.

The seed is the first chromosome and the elite is kept, so the GA never returns anything worse than its seed. Its
random numbers come from ``rng`` (a :class:`numpy.random.Generator`): the same seed gives the same result.

A generation is built from the last (:class:`Population`, two kept in turn): a child's queue on a machine starts like
one parent's for as many slots as it takes that parent's tasks alone, and only the rest is evaluated again
(:func:`~.problem.resume`); a copied or mutated chromosome keeps the evaluation of its unchanged queues.
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
    """Room for a generation of ``size`` chromosomes (each queue with room for one task more than ``tasks``; task
    indices as int16 when they fit: the kernels copy and compare whole queues, and half the bytes move faster)."""
    task = np.int16 if tasks < 2**15 else np.int32
    return Population(np.empty((size, machines, tasks + 1), task), np.zeros((size, machines), np.int64),
                      saved_states(machines, tasks, size), np.zeros((size, machines)), np.zeros((size, machines)),
                      np.empty(size), np.zeros((size, machines), np.int64))


@njit(cache=True)
def _common(x_row, y_row, both):
    """How many first slots two queues share (the same task at each), compared in blocks of EVERY."""
    eq = 0
    while eq + EVERY <= both:
        differ = 0
        for r in range(eq, eq + EVERY):
            differ |= x_row[r] ^ y_row[r]
        if differ:
            break
        eq += EVERY
    while eq < both and x_row[eq] == y_row[eq]:
        eq += 1
    return eq


@njit(cache=True)
def _alike(x_row, y_row, both, cut):
    """How many first slots of two parents' queues of a machine give each child one task only, the same parent's:
    (x's for the child with x's head, with y's tail; both heads there, or the same task) and (y's for that child;
    both tails there, or the same task). The child with y's head and x's tail takes x's task alone exactly where the
    first child takes y's, and y's where the first takes x's. Both runs take the parents' common slots; past them at
    most one of the two goes on (both heads, or both tails, at the first slot that differs)."""
    eq = _common(x_row, y_row, both)
    if eq == both:
        return both, both
    r = eq
    if x_row[eq] <= cut and y_row[eq] <= cut:
        while r < both and ((x_row[r] <= cut and y_row[r] <= cut) or x_row[r] == y_row[r]):
            r += 1
        return r, eq
    while r < both and ((x_row[r] > cut and y_row[r] > cut) or x_row[r] == y_row[r]):
        r += 1
    return eq, r


@njit(cache=True)
def _merge(x_row, x_k, y_row, y_k, cut, u_out, v_out, same, ties):
    """One machine of both children, slot by slot from slot ``same`` on: child u takes x's head tasks (index <= cut)
    and y's tail tasks, child v y's head and x's tail, each task at its slot (position in its parent's queue), the
    head first where a slot gives a child two. Returns both queue lengths and how many such slots each child has;
    their positions go to ``ties[0]`` (u) and ``ties[1]`` (v) for :func:`_shuffle_ties`. The outputs have room for
    one task more than the children get."""
    ku, kv, tu, tv = same, same, 0, 0
    for s in range(same, min(x_k, y_k)):
        a, b = x_row[s], y_row[s]
        head_x, tail_y = a <= cut, b > cut
        if head_x & tail_y:
            ties[0, tu] = ku
            tu += 1
        elif not (head_x | tail_y):
            ties[1, tv] = kv
            tv += 1
        u_out[ku] = a  # written, and kept only if it belongs to the child
        ku += head_x
        u_out[ku] = b
        ku += tail_y
        v_out[kv] = b
        kv += not tail_y
        v_out[kv] = a
        kv += not head_x
    for s in range(y_k, x_k):
        a = x_row[s]
        u_out[ku] = a
        v_out[kv] = a
        ku += a <= cut
        kv += a > cut
    for s in range(x_k, y_k):
        b = y_row[s]
        u_out[ku] = b
        v_out[kv] = b
        ku += b > cut
        kv += b <= cut
    return ku, kv, tu, tv


@njit(cache=True)
def _shuffle_ties(out, ties, count):
    """A slot that gives a child both a head and a tail task: in random order (section 5.3, Fig. 1: each at its
    slot), one draw per such slot in slot order: the head first when it is below 0.5."""
    for t in range(count):
        k = ties[t]
        if not np.random.random() < 0.5:
            out[k], out[k + 1] = out[k + 1], out[k]


@njit(cache=True)
def _inherit(src, lender, dst, c, m, same):
    """Machine m of child c of ``dst`` starts like the ``lender`` parent's queue for ``same`` tasks: they are copied
    with the states the parent's evaluation saved there; the rest is evaluated again."""
    _copy_queue(src, lender, dst, c, m, same)
    dst.since[c, m] = same


@njit(cache=True)
def _copy_queue(src, x, dst, c, m, k):
    """The first k tasks of machine m's queue of chromosome x of ``src``, with the states saved for them, to
    chromosome c of ``dst`` (plain loops over rows: numba compiles slice assignments slowly)."""
    x_row, c_row = src.seq[x, m], dst.seq[c, m]
    for r in range(k):
        c_row[r] = x_row[r]
    x_saved, c_saved = src.saved[x, m], dst.saved[c, m]
    for j in range(k // EVERY + 1):
        c_saved[j, 0] = x_saved[j, 0]
        c_saved[j, 1] = x_saved[j, 1]


@njit(cache=True)
def _crossover(src, x, y, dst, u, v, n, ties):
    """Children of parents x and y of ``src`` (section 5.3, Fig. 1) into places u and v of ``dst``: a random task
    splits both into a head (tasks up to it, by index) and a tail; child u is x's head with y's tail, child v y's head
    with x's tail. Machine by machine, each child starts like one parent (:func:`_alike`), for the longer run of
    slots, and is merged from there (:func:`_merge`); the draws for u's ties, then v's, as if each child were merged
    on its own."""
    cut = np.random.randint(n - 1)  # head = tasks 0..cut, tail = cut+1..n-1: both non-empty
    for m in range(src.cnt.shape[1]):
        heads, tails = _alike(src.seq[x, m], src.seq[y, m], min(src.cnt[x, m], src.cnt[y, m]), cut)
        same = max(heads, tails)
        _inherit(src, y if tails > heads else x, dst, u, m, same)  # u takes y's tasks alone there, or x's
        _inherit(src, x if tails > heads else y, dst, v, m, same)
        dst.cnt[u, m], dst.cnt[v, m], tu, tv = _merge(src.seq[x, m], src.cnt[x, m], src.seq[y, m], src.cnt[y, m], cut,
                                                      dst.seq[u, m], dst.seq[v, m], same, ties)
        _shuffle_ties(dst.seq[u, m], ties[0], tu)
        _shuffle_ties(dst.seq[v, m], ties[1], tv)


@njit(cache=True)
def _copy(src, x, dst, c):
    """Chromosome x of ``src`` as chromosome c of ``dst``, evaluated."""
    for m in range(src.cnt.shape[1]):
        k = src.cnt[x, m]
        _copy_queue(src, x, dst, c, m, k)
        dst.cnt[c, m], dst.mval[c, m], dst.mfin[c, m], dst.since[c, m] = k, src.mval[x, m], src.mfin[x, m], CLEAN
    dst.fit[c] = src.fit[x]


@njit(cache=True)
def _find(seq, cnt, i):
    """The machine and position of task i (each task is in one queue, once)."""
    for m in range(cnt.size):
        row = seq[m]
        for r in range(cnt[m]):
            if row[r] == i:
                return m, r
    return 0, 0


@njit(cache=True)
def _mutate(pop, c, n):
    """A random task to a random machine and position (the same move as TPSA's phase 1)."""
    seq, cnt = pop.seq[c], pop.cnt[c]
    i = np.random.randint(n)
    a, p = _find(seq, cnt, i)
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
def _next_generation(pop, elite, wheel, ranked, picks, crossed, nxt, dirty, p_cross, p_mut, ties):
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
                _crossover(pop, picks[waiting], picks[c], nxt, waiting, c, n, ties)
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
    ties = np.empty((2, pa.arrival.size + 1), np.int64)  # scratch of _merge
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
        _next_generation(pop, elite, wheel, ranked, picks, crossed, nxt, dirty, p_cross, p_mut, ties)
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
