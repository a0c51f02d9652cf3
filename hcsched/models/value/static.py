"""Static benchmarks with full knowledge (Kim et al. 2007, section 5): two-phase simulated annealing (TPSA, section
5.2) and a genetic algorithm (GA, section 5.3), as numba kernels.

A :class:`StaticProblem` knows every task's arrival, actual times ATC on every machine, weight and deadlines, and the
evaluation window [B, E] (section 5.1). A schedule is ``(machine[T], order[T])``: each machine runs its tasks in
increasing ``order`` (ties: lowest task index), each starting as early as possible in that order, i.e. at
max(its arrival, the previous task's finish), every machine free from time 0 (section 5.2, steps 1-4; notes R1). The
notes' R2 (insert each task into the earliest idle gap that fits) would make every evaluation quadratic in the queue
length and is not offered. The objective is V of section 2.2.3 (:mod:`.worth`) or, for a plain static ETC problem
(:meth:`StaticProblem.makespan`), the makespan, whose negative is maximised so that larger is always better.

Both searches start from the given schedule (the trial's best dynamic mapping, section 5.2 and 5.3), keep the best
schedule seen so far and return it, so they never return anything worse than their seed. Their random numbers come
from ``rng`` (a :class:`numpy.random.Generator`): the same seed gives the same result. Inside, the search compares
per-machine sums of V and re-evaluates only the one or two machines a move touches; the returned ``score`` is V
recomputed by :func:`~hcsched.models.value.worth.value` (or minus the makespan), and a run's schedule replaces the
seed only when that canonical score is strictly larger.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from hcsched.errors import HcschedError
from hcsched.heuristics import Param
from hcsched.models.value.worth import boundary_factor, deadline_factor, value

OBJECTIVES = ("value", "makespan")

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
          doc="phase 2 also ends when the temperature falls below this (the paper's 'zero')"),
    Param("runs", 5, int, 1.0, doc="independent runs from the seed per trial; the best is kept (section 5.2)"),
    Param("unchanged", "mapping", "choice", choices=("mapping", "value"),
          doc="what 'unchanged' counts (unstated): iterations without an accepted move, or without a change of V"),
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


@dataclass(frozen=True, eq=False)
class StaticProblem:
    """A static problem with full knowledge (section 5.1): T tasks, M machines, actual times ``atc[T, M]``."""

    arrival: np.ndarray
    atc: np.ndarray
    weight: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray
    B: float = 0.0
    E: float = math.inf
    objective: str = "value"

    def __post_init__(self):
        atc = np.ascontiguousarray(self.atc, dtype=float)
        if atc.ndim != 2 or atc.shape[0] < 1 or atc.shape[1] < 1:
            raise HcschedError(f"atc: shape {atc.shape} is not allowed; allowed: a tasks x machines matrix")
        if not np.all(np.isfinite(atc)) or atc.min() <= 0:
            raise HcschedError("atc: every actual time must be finite and > 0")
        object.__setattr__(self, "atc", atc)
        for name in ("arrival", "weight", "d100", "d50", "d25"):
            a = np.ascontiguousarray(getattr(self, name), dtype=float).ravel()
            if a.shape != (atc.shape[0],) or np.isnan(a).any():
                raise HcschedError(f"{name}: {a.size} values (or NaN) for {atc.shape[0]} tasks; "
                                   "allowed: one number per task")
            object.__setattr__(self, name, a)
        if not np.isfinite(self.arrival).all() or self.arrival.min() < 0:
            raise HcschedError("arrival: every arrival must be finite and >= 0")
        if self.objective not in OBJECTIVES:
            raise HcschedError(f"objective: {self.objective!r} is not allowed; allowed: one of {', '.join(OBJECTIVES)}")
        if not float(self.B) < float(self.E):
            raise HcschedError(f"B: {self.B} must be smaller than E ({self.E})")
        object.__setattr__(self, "B", float(self.B))
        object.__setattr__(self, "E", float(self.E))

    @classmethod
    def makespan(cls, etc) -> StaticProblem:
        """A plain static ETC problem: every task arrives at 0, the objective is the makespan."""
        etc = np.asarray(etc, dtype=float)
        t = etc.shape[0] if etc.ndim == 2 else 0
        inf = np.full(t, np.inf)
        return cls(np.zeros(t), etc, np.ones(t), inf, inf, inf, 0.0, math.inf, "makespan")

    @property
    def tasks(self) -> int:
        return self.atc.shape[0]

    @property
    def machines(self) -> int:
        return self.atc.shape[1]

    def _args(self):
        return (self.arrival, self.atc, self.weight, self.d100, self.d50, self.d25, self.B, self.E,
                self.objective == "makespan")


@dataclass(frozen=True, eq=False)
class StaticResult:
    """The best schedule found: ``order`` is each task's position in its machine's queue (0, 1, ...)."""

    machine: np.ndarray
    order: np.ndarray
    start: np.ndarray
    finish: np.ndarray
    score: float  # V, or minus the makespan
    evaluations: int  # schedules evaluated (a one- or two-machine re-evaluation counts as one)


# --- evaluation ------------------------------------------------------------------------------------------------------
@njit(cache=True)
def _machine_eval(row, k, m, arrival, atc, weight, d100, d50, d25, B, E, makespan):
    """(sum of p d b, last finish) of the first ``k`` tasks of ``row`` run in that order on machine m (R1)."""
    t = 0.0
    v = 0.0
    for p in range(k):
        i = row[p]
        s = arrival[i] if arrival[i] > t else t
        t = s + atc[i, m]
        if not makespan and s < E and t > B:
            v += weight[i] * deadline_factor(t, d100[i], d50[i], d25[i]) * boundary_factor(s, t, atc[i, m], B, E)
    return v, t


@njit(cache=True)
def _total(mval, mfin, makespan):
    """The score from the per-machine sums: V, or minus the largest finish."""
    total = 0.0 if not makespan else -mfin[0]
    for m in range(mval.size):
        if makespan:
            total = min(total, -mfin[m])
        else:
            total += mval[m]
    return total


@njit(cache=True)
def _eval_all(seq, cnt, mval, mfin, arrival, atc, weight, d100, d50, d25, B, E, makespan):
    for m in range(cnt.size):
        mval[m], mfin[m] = _machine_eval(seq[m], cnt[m], m, arrival, atc, weight, d100, d50, d25, B, E, makespan)
    return _total(mval, mfin, makespan)


@njit(cache=True)
def _times(seq, cnt, arrival, atc):
    """Start and finish of every task: machine by machine, in queue order, at max(arrival, previous finish)."""
    n = arrival.size
    start, finish = np.full(n, np.nan), np.full(n, np.nan)
    for m in range(cnt.size):
        t = 0.0
        for p in range(cnt[m]):
            i = seq[m, p]
            start[i] = arrival[i] if arrival[i] > t else t
            t = finish[i] = start[i] + atc[i, m]
    return start, finish


def search_work(name: str, params: dict) -> float:
    """The most schedules a search may evaluate with ``params``, for run-time estimates: TPSA's runs x its iterations
    (phase 1 at most ``phase1_iterations``, phase 2 until T = t0 alpha^k falls below t_min; the "unchanged" rules
    may stop either sooner), GA's population x generations."""
    if name == "tpsa":
        cooling = math.log(params["t_min"] / params["t0"]) / math.log(params["alpha"]) if params["t_min"] < params["t0"] else 0.0
        return params["runs"] * max(float(params["phase1_iterations"]), cooling)
    return float(params["population"]) * params["generations"]


def _sequences(problem: StaticProblem, machine, order) -> tuple[np.ndarray, np.ndarray]:
    """Per-machine queues ``seq[M, T]`` (the first ``cnt[m]`` entries of row m) from ``(machine, order)``."""
    t, mm = problem.tasks, problem.machines
    machine = np.asarray(machine).ravel()
    order = np.asarray(order, dtype=float).ravel()
    if machine.shape != (t,) or order.shape != (t,):
        raise HcschedError(f"machine, order: {machine.size} and {order.size} values for {t} tasks; "
                           "allowed: one per task")
    if not np.issubdtype(machine.dtype, np.integer) and not np.all(machine == np.round(machine)):
        raise HcschedError("machine: every entry must be a whole machine index")
    machine = machine.astype(np.int64)
    if t and (machine.min() < 0 or machine.max() >= mm):
        raise HcschedError(f"machine: {int(machine.min())}..{int(machine.max())} is not allowed; allowed: 0..{mm - 1}")
    if not np.isfinite(order).all():
        raise HcschedError("order: every entry must be a finite number")
    ranked = np.lexsort((np.arange(t), order, machine))  # by machine, then order, then task index
    cnt = np.bincount(machine, minlength=mm).astype(np.int64)
    seq = np.full((mm, t), -1, dtype=np.int64)
    first = np.concatenate(([0], np.cumsum(cnt)[:-1]))
    for m in range(mm):
        seq[m, : cnt[m]] = ranked[first[m]: first[m] + cnt[m]]
    return seq, cnt


def _positions(seq, cnt, t: int) -> tuple[np.ndarray, np.ndarray]:
    machine, order = np.empty(t, np.int64), np.empty(t, float)
    for m in range(cnt.size):
        machine[seq[m, : cnt[m]]] = m
        order[seq[m, : cnt[m]]] = np.arange(cnt[m], dtype=float)
    return machine, order


def evaluate(problem: StaticProblem, machine, order) -> tuple[np.ndarray, np.ndarray]:
    """Start and finish times of a schedule (section 5.2, steps 1-4; each task at max(arrival, previous finish))."""
    seq, cnt = _sequences(problem, machine, order)
    return _times(seq, cnt, problem.arrival, problem.atc)


def _score_times(problem: StaticProblem, start, finish) -> float:
    if problem.objective == "makespan":
        return -float(np.nanmax(finish))
    p = problem
    return float(value(start, finish, p.weight, p.d100, p.d50, p.d25, p.B, p.E))


def score(problem: StaticProblem, machine, order) -> float:
    """V of section 2.2.3 (objective "value") or minus the makespan (objective "makespan")."""
    return _score_times(problem, *evaluate(problem, machine, order))


def _result(problem, seq, cnt, evaluations) -> StaticResult:
    machine, order = _positions(seq, cnt, problem.tasks)
    start, finish = _times(seq, cnt, problem.arrival, problem.atc)
    return StaticResult(machine, order, start, finish, _score_times(problem, start, finish), int(evaluations))


def _seed(rng) -> int:
    return int(rng.integers(0, 2**31 - 1))


# --- moves -----------------------------------------------------------------------------------------------------------
@njit(cache=True)
def _remove(row, k, p):
    """Remove position p from the first k entries of ``row``."""
    for r in range(p, k - 1):
        row[r] = row[r + 1]


@njit(cache=True)
def _insert(row, k, q, i):
    """Insert task i at position q of the first k entries of ``row``."""
    for r in range(k, q, -1):
        row[r] = row[r - 1]
    row[q] = i


@njit(cache=True)
def _draw_target(cnt, a):
    """A uniformly random machine b and a uniformly random position in its queue once the task has left machine a."""
    b = np.random.randint(cnt.size)
    slots = cnt[b] if b == a else cnt[b] + 1
    return b, np.random.randint(slots)


@njit(cache=True)
def _reindex(seq, cnt, m, wp):
    for r in range(cnt[m]):
        wp[seq[m, r]] = r


# --- TPSA (section 5.2) ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _tpsa_run(seq, cnt, arrival, atc, weight, d100, d50, d25, B, E, makespan,
              t0, alpha, p1_iterations, p1_unchanged, p2_unchanged, t_min, by_value, seed):
    """One TPSA run from ``(seq, cnt)`` (modified in place): phase 1 mutations, then phase 2 swaps, one temperature
    throughout. Returns the best (seq, cnt, score) seen and the number of evaluations."""
    np.random.seed(seed)
    n, mm = arrival.size, cnt.size
    wm, wp = np.empty(n, np.int64), np.empty(n, np.int64)
    for m in range(mm):
        for r in range(cnt[m]):
            wm[seq[m, r]] = m
            wp[seq[m, r]] = r
    mval, mfin = np.zeros(mm), np.zeros(mm)
    cur = _eval_all(seq, cnt, mval, mfin, arrival, atc, weight, d100, d50, d25, B, E, makespan)
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
                b, q = _draw_target(cnt, a)
                if b == a and q == p:
                    still += 1
                    temp *= alpha
                    continue
                _remove(seq[a], cnt[a], p)
                cnt[a] -= 1
                _insert(seq[b], cnt[b], q, i)
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
            old_va, old_fa, old_vb, old_fb = mval[a], mfin[a], mval[b], mfin[b]
            mval[a], mfin[a] = _machine_eval(seq[a], cnt[a], a, arrival, atc, weight, d100, d50, d25, B, E, makespan)
            if b != a:
                mval[b], mfin[b] = _machine_eval(seq[b], cnt[b], b, arrival, atc, weight, d100, d50, d25, B, E,
                                                 makespan)
            evaluations += 1
            new = _total(mval, mfin, makespan)
            if new >= cur or np.random.random() < np.exp(-(cur - new) / temp):
                still = still + 1 if by_value and new == cur else 0
                cur = new
                if phase == 0:
                    _reindex(seq, cnt, a, wp)
                    _reindex(seq, cnt, b, wp)
                if cur > best:
                    best = cur
                    _copy_chromosome(seq, cnt, best_seq, best_cnt)
            else:  # undo
                mval[a], mfin[a], mval[b], mfin[b] = old_va, old_fa, old_vb, old_fb
                if phase == 0:
                    cnt[b] -= 1
                    _remove(seq[b], cnt[b] + 1, q)
                    _insert(seq[a], cnt[a], p, i)
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
    seq, cnt = _sequences(problem, machine, order)
    best = _result(problem, seq, cnt, 0)
    best_seq, best_cnt, evaluations = seq, cnt, 1
    for _ in range(int(runs)):
        s, c, _, e = _tpsa_run(seq.copy(), cnt.copy(), *problem._args(), float(t0), float(alpha),
                               int(phase1_iterations), int(phase1_unchanged), int(phase2_unchanged), float(t_min),
                               unchanged == "value", _seed(rng))
        evaluations += e
        run = _result(problem, s, c, 0)
        if run.score > best.score:
            best, best_seq, best_cnt = run, s, c
    return _result(problem, best_seq, best_cnt, evaluations)


# --- GA (section 5.3) ------------------------------------------------------------------------------------------------
@njit(cache=True)
def _copy_chromosome(src, src_cnt, dst, dst_cnt):
    """Copy the queues (plain loops: numba compiles slice assignments slowly)."""
    for m in range(src_cnt.size):
        for r in range(src_cnt[m]):
            dst[m, r] = src[m, r]
        dst_cnt[m] = src_cnt[m]


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
    _copy_chromosome(child0, cnt0, pop[x], cnt[x])
    _copy_chromosome(child1, cnt1, pop[y], cnt[y])


@njit(cache=True)
def _mutate(seq, cnt, n):
    """A random task to a random machine and position (the same move as TPSA's phase 1)."""
    i = np.random.randint(n)
    a, p = 0, 0
    for m in range(cnt.size):
        for r in range(cnt[m]):
            if seq[m, r] == i:
                a, p = m, r
    b, q = _draw_target(cnt, a)
    _remove(seq[a], cnt[a], p)
    cnt[a] -= 1
    _insert(seq[b], cnt[b], q, i)
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
def _evaluate_dirty(pop, pcnt, fit, dirty, mval, mfin, arrival, atc, weight, d100, d50, d25, B, E, makespan):
    """Score the changed chromosomes; return the elite (the first of the best) and how many were scored."""
    elite, count = 0, 0
    for c in range(fit.size):
        if dirty[c]:
            fit[c] = _eval_all(pop[c], pcnt[c], mval, mfin, arrival, atc, weight, d100, d50, d25, B, E, makespan)
            dirty[c] = False
            count += 1
        if fit[c] > fit[elite]:
            elite = c
    return elite, count


@njit(cache=True)
def _select(pop, pcnt, fit, elite, wheel, ranked, nxt, ncnt, nfit):
    """Elitism (the elite copied to place 0) and a rank-based roulette wheel for the other places."""
    _rank(fit, ranked)
    _copy_chromosome(pop[elite], pcnt[elite], nxt[0], ncnt[0])
    nfit[0] = fit[elite]
    for c in range(1, fit.size):
        pick = ranked[_spin(wheel, np.random.random() * wheel[-1])]
        _copy_chromosome(pop[pick], pcnt[pick], nxt[c], ncnt[c])
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
def _ga_run(seq, cnt, arrival, atc, weight, d100, d50, d25, B, E, makespan,
            size, p_cross, p_mut, generations, elite_unchanged, pressure, seed):
    np.random.seed(seed)
    n, mm = arrival.size, cnt.size
    pops, cnts = np.empty((2, size, mm, n), np.int64), np.zeros((2, size, mm), np.int64)  # this and next generation
    fits, dirty = np.empty((2, size)), np.ones(size, np.bool_)
    g = 0
    pop, pcnt, fit = pops[0], cnts[0], fits[0]
    mval, mfin = np.zeros(mm), np.zeros(mm)
    child0, child1 = np.empty((mm, n), np.int64), np.empty((mm, n), np.int64)
    c0, c1 = np.zeros(mm, np.int64), np.zeros(mm, np.int64)
    _copy_chromosome(seq, cnt, pop[0], pcnt[0])
    _random_population(pop, pcnt)
    # linear ranking (Baker): rank r = 1 (worst) .. size (best) has weight (2 - s) + 2 (s - 1)(r - 1)/(size - 1)
    wheel, ranked = np.empty(size), np.empty(size, np.int64)
    acc = 0.0
    for r in range(size):
        acc += (2.0 - pressure) + 2.0 * (pressure - 1.0) * r / (size - 1)
        wheel[r] = acc
    gen, still, evaluations = 0, 0, 0
    while True:
        elite, count = _evaluate_dirty(pop, pcnt, fit, dirty, mval, mfin, arrival, atc, weight, d100, d50, d25, B, E,
                                       makespan)
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
    seq, cnt = _sequences(problem, machine, order)
    seed_result = _result(problem, seq, cnt, 0)
    if problem.tasks < 2:
        return _result(problem, seq, cnt, 1)
    s, c, _, evaluations, _ = _ga_run(seq, cnt, *problem._args(), size, float(crossover), float(mutation),
                                      int(generations), int(elite_unchanged), float(pressure), _seed(rng))
    if _result(problem, s, c, 0).score > seed_result.score:
        return _result(problem, s, c, evaluations)
    return _result(problem, seq, cnt, evaluations)
