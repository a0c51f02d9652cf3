"""Alg. 2 of Page, Keane and Naughton (section 3.2), the greedy template of their heuristics, and the local searches of
section 5.4's baselines: the numba kernels of the built-in heuristics (:mod:`.heuristics` holds the heuristics
themselves, each naming its kernel by a kind number below).

Every kernel maps the unstarted tasks of known problems given, per task i and processor j, e_ij = the planned time
(ETC in the best or worst case, plus C), EW_ij (eq. 10) and each processor's load ST_j, and returns (task,
processor) pairs in mapping order. Ties go to the lowest processor index, then the lowest task index by default
(hcsched's rule); Alg. 2 writes ``currval <= minval``, which lets the last pair scanned win: ``last`` (section 3.2;
docs/models/estimation.md, "Readings chosen"). A kind number the kernels do not know raises ``ValueError``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.kernels import log, power

FA, FE, FZ, FE_D, FZ_D, LA, LE, LZ, EF, LL = range(10)
KINDS = (FA, FE, FZ, FE_D, FZ_D, LA, LE, LZ, EF, LL)  # every kind the kernels know


@njit(cache=True)
def _cost(kind, e, wb, lw, st_j, m_max, st_sum, big_m, once):
    """X(i, j, load) of Alg. 2 for one pair: e = ETC + C, wb = EW^beta (EW^-beta for the Z kinds), lw = ln EW,
    st_j its processor's load."""
    fa = e + st_j
    if kind == FA or kind == EF:
        return fa
    if kind == LL:
        return st_j
    if kind == FE or kind == FZ:  # eqs. 13, 14
        return fa * wb
    if kind == FE_D:  # ln(FA^EW EW^FA): eq. 15 in log space, never overflows
        return math.exp(lw) * math.log(fa) + fa * lw
    if kind == FZ_D:  # ln(FA^EW / EW^FA): eq. 16
        return math.exp(lw) * math.log(fa) - fa * lw
    # LA (eq. 17) without its denominator, which is the same positive number for every pair of an iteration (so it
    # changes no choice; it is 0 when all loads are equal, where eq. 17 is undefined).
    top = max(m_max, fa)
    la = big_m * top - st_sum - (e if once else big_m * e)
    if kind == LA:
        return la
    if kind == LE or kind == LZ:
        return la * wb  # eqs. 18, 19
    raise ValueError("unknown heuristic kind")


@njit(cache=True)
def _row_best(kind, e, wb, lw, st, i, m_max, st_sum, once, last):
    """The best processor of task i: the lowest index on a tie, or the highest with ``last``."""
    best, arg = np.inf, -1
    for j in range(st.size):
        v = _cost(kind, e[i, j], wb[i, j], lw[i, j], st[j], m_max, st_sum, st.size, once)
        if v < best or arg < 0 or (last and v == best):
            best, arg = v, j
    return best, arg


@njit(cache=True)
def _row_best_load(kind, e, wb, st, i, m_max, st_sum, once, last, cost):
    """:func:`_row_best` of the load-balancing kinds LA, LE, LZ (eqs. 17-19), the same arithmetic and the same pick:
    the row's costs into ``cost`` first (a loop without branches, which the compiler vectorises), then their minimum
    in four running minima (a minimum is exact in any order; NaN is never below), then its first (with ``last``
    its last) position. A NaN first cost is kept, as the scan of :func:`_row_best` keeps it."""
    m = st.size
    row, w = e[i], wb[i]
    for j in range(m):
        x = row[j]
        cost[j] = m * max(m_max, x + st[j]) - st_sum - (x if once else m * x)
    if kind != LA:
        for j in range(m):
            cost[j] *= w[j]
    if cost[0] != cost[0]:
        return cost[0], 0
    r0, r1, r2, r3 = cost[0], np.inf, np.inf, np.inf
    q = m - m % 4
    for j in range(0, q, 4):
        r0 = cost[j] if cost[j] < r0 else r0
        r1 = cost[j + 1] if cost[j + 1] < r1 else r1
        r2 = cost[j + 2] if cost[j + 2] < r2 else r2
        r3 = cost[j + 3] if cost[j + 3] < r3 else r3
    for j in range(q, m):
        r0 = cost[j] if cost[j] < r0 else r0
    best = min(min(r0, r1), min(r2, r3))
    arg = 0
    for j in range(m - 1, -1, -1) if last else range(m):
        if cost[j] == best:
            arg = j
            break
    return best, arg


#: Exponents of EW whose power is one IEEE operation (or none), correctly rounded on every CPU, as numpy computed them
#: before the C library's pow (which is off by one unit in the last place for about 0.1% of values at -1 and 0.5).
EXACT_POWERS = {1.0: lambda w: w.copy(), -1.0: lambda w: 1.0 / w, 0.5: np.sqrt, 2.0: lambda w: w * w}


def error_weight(ew: np.ndarray, exponent: float) -> np.ndarray:
    """EW^exponent, the error weight of FE and LE (EW^beta) and of FZ and LZ (EW^-beta): eqs. 13-14, 18-19.

    At the default beta = 1, FZ divides FA by EW: the weight is the correctly rounded 1 / EW, not pow(EW, -1); so are
    EW^1, EW^0.5 and EW^2. Other exponents use the C library's pow, the same on every CPU."""
    ew = np.asarray(ew, float)
    exact = EXACT_POWERS.get(float(exponent))
    return exact(ew) if exact is not None else power(ew, exponent)


def greedy(kind: int, e: np.ndarray, ew: np.ndarray, st0: np.ndarray, beta: float = 1.0, once: bool = True,
           idle: np.ndarray | None = None, stop_early: bool = False, ties: str = "lowest") -> np.ndarray:
    """Alg. 2 (see :func:`_greedy`) for planned times e and errors EW (S x M) and loads st0 (M); ``ties`` "lowest"
    (the lowest processor, then the lowest task) or "last" (the pseudocode's ``<=``: the last pair scanned, i.e. the
    highest task, then its highest processor)."""
    if kind not in KINDS:
        raise ValueError(f"unknown heuristic kind {kind!r}; the kernels know {KINDS}")
    ew, e = np.asarray(ew, float), np.asarray(e, float)
    sign = -1.0 if kind in (FZ, LZ) else 1.0
    # a kind's cost reads EW^(+-beta) (FE, FZ, LE, LZ) or ln EW (FE_d, FZ_d) or neither: e stands in for what it
    # does not read (no S x M array of ones or zeros)
    wb = error_weight(ew, sign * beta) if kind in (FE, FZ, LE, LZ) else e
    lw = log(ew) if kind in (FE_D, FZ_D) else e
    idle = np.ones(st0.size, np.bool_) if idle is None else idle
    return _greedy(kind, e, wb, lw, np.asarray(st0, float), bool(once), idle, bool(stop_early), ties == "last")


@njit(cache=True)
def _greedy(kind, e, wb, lw, st0, once, idle, stop_early, last):
    """Alg. 2 with a global minimum over all pairs (the prose of section 3.2; the pseudocode's reset of minval inside
    the task loop would take the last task's best instead). EF and LL are immediate: tasks in index order, each to
    the processor of the smallest FA or ST. Returns (task, processor) in mapping order. With ``stop_early``, stops
    once every processor flagged ``idle`` has a task (the rest would be remapped before it could start)."""
    s, m = e.shape
    st = st0.copy()
    out = np.empty((s, 2), np.int64)
    done = np.zeros(s, np.bool_)
    waiting = 0
    for j in range(m):
        if idle[j]:
            waiting += 1
    served = np.zeros(m, np.bool_)
    best = np.empty(s)
    arg = np.empty(s, np.int64)
    column_local = kind <= FZ_D  # the cost of (i, j) depends on ST_j alone: only column b changes
    monotone = kind <= FZ  # ... and never falls as ST_j grows: a stale best is a lower bound (lazy update)
    version = np.zeros(m, np.int64)
    seen = np.zeros(s, np.int64)
    m_max, st_sum = st.max(), st.sum()
    load = kind == LA or kind == LE or kind == LZ
    cost = np.empty(m)
    if kind != EF and kind != LL:
        for i in range(s):
            if load:
                best[i], arg[i] = _row_best_load(kind, e, wb, st, i, m_max, st_sum, once, last, cost)
            else:
                best[i], arg[i] = _row_best(kind, e, wb, lw, st, i, m_max, st_sum, once, last)
    for step in range(s):
        if kind == EF or kind == LL:
            a = step
            v, b = _row_best(kind, e, wb, lw, st, a, m_max, st_sum, once, last)
        else:
            while True:
                a, b, v = -1, -1, np.inf
                for i in range(s):
                    if done[i]:
                        continue
                    if a < 0 or best[i] < v or (best[i] == v and (last or arg[i] < b)):
                        a, b, v = i, arg[i], best[i]
                if not monotone or seen[a] == version[b]:
                    break
                best[a], arg[a] = _row_best(kind, e, wb, lw, st, a, m_max, st_sum, once, last)
                seen[a] = version[arg[a]]
        done[a] = True
        out[step, 0], out[step, 1] = a, b
        st[b] += e[a, b]
        st_sum += e[a, b]
        m_max = max(m_max, st[b])
        if idle[b] and not served[b]:
            served[b] = True
            waiting -= 1
        if stop_early and waiting <= 0:
            return out[:step + 1]
        version[b] += 1
        if kind == EF or kind == LL or monotone:
            continue
        for i in range(s):
            if done[i]:
                continue
            if load:
                best[i], arg[i] = _row_best_load(kind, e, wb, st, i, m_max, st_sum, once, last, cost)
            elif not column_local or arg[i] == b:
                best[i], arg[i] = _row_best(kind, e, wb, lw, st, i, m_max, st_sum, once, last)
            else:
                v2 = _cost(kind, e[i, b], wb[i, b], lw[i, b], st[b], m_max, st_sum, m, once)
                if v2 < best[i] or (v2 == best[i] and (b > arg[i] if last else b < arg[i])):
                    best[i], arg[i] = v2, b
    return out


@njit(cache=True)
def _objective(load):
    """The estimated makespan, with the total load as a small tie-breaker (one pass: the sum in index order from
    0, as ``load.sum()`` adds in numba)."""
    top, total = -np.inf, 0.0
    for v in load:
        total += v
        if v > top:
            top = v
    return top + total / (1000.0 * load.size)


@njit(cache=True)
def _top3(load):
    """The indices of the three largest loads (of at most three when fewer), each one met first on a tie."""
    out = np.full(3, -1, np.int64)
    for k in range(load.size):
        v = load[k]
        if out[0] < 0 or v > load[out[0]]:
            out[2], out[1], out[0] = out[1], out[0], k
        elif out[1] < 0 or v > load[out[1]]:
            out[2], out[1] = out[1], k
        elif out[2] < 0 or v > load[out[2]]:
            out[2] = k
    return out


@njit(cache=True)
def _objective_floor(load, top3, a, la, j, lj, total, slack):
    """A lower bound of :func:`_objective` of ``load`` with load[a] = la and load[j] = lj instead (loads and planned
    times at least 0): the largest of la, lj and the loads of ``top3`` other than a and j, plus ``total`` (the sum of
    the loads with their values of ``load``, to within ``slack`` of it) moved by the two changes, less ``slack`` of
    the larger of the two sums (the sum in index order is within that of the exact one). Rounding is monotone, so
    the bound holds for the objective as computed."""
    top = max(la, lj)
    for x in top3:
        if x >= 0 and x != a and x != j:
            top = max(top, load[x])
    moved = total - load[a] - load[j] + la + lj
    return top + (moved - slack * (total + lj)) / (1000.0 * load.size)


@njit(cache=True)
def _non_negative(e, st0):
    """Whether every planned time and load is finite and at least 0."""
    for j in range(st0.size):
        if not (0.0 <= st0[j] < np.inf):
            return False
    for i in range(e.shape[0]):
        for j in range(e.shape[1]):
            if not (0.0 <= e[i, j] < np.inf):
                return False
    return True


@njit(cache=True)
def local_search(e, st0, assign, anneal, iterations, tenure, candidates, t0, cooling, seed, prune=True):
    """Tabu search or simulated annealing over the unstarted tasks' processors, minimising the estimated makespan
    max_j (ST_j + sum of e on j) (ours: the paper gives no neighbourhood, objective or parameters, section 5.4).
    A move sends one task to another processor. Tabu: each iteration evaluates ``candidates`` random moves and
    takes the best whose task is not tabu (or that beats the best so far); a moved task stays tabu ``tenure``
    iterations. Annealing: one random move per iteration, accepted with probability exp(-delta / T), T starting at
    t0 x the initial objective and multiplied by ``cooling`` each iteration. Returns the best assignment seen.

    With ``prune`` (loads and planned times finite and at least 0), tabu skips the objective of a move whose lower
    bound (:func:`_objective_floor`) already shows that it cannot be taken: the same moves, the same result."""
    np.random.seed(seed)
    s, m = e.shape
    cur = assign.copy()
    load = st0.copy()
    for i in range(s):
        load[cur[i]] += e[i, cur[i]]
    best_assign = cur.copy()
    cur_obj = _objective(load)
    best_obj = cur_obj
    if s == 0 or m < 2:
        return best_assign
    tabu_until = np.zeros(s, np.int64)
    temp = t0 * cur_obj
    # the sum's error (m terms), a restored load's drift (each of the candidates moves two loads and back) and the
    # bound's own arithmetic, relative to the total, with a factor 2 to spare
    slack = 2.0 * (m + 4 * candidates + 16) * 2.0 ** -52
    prune = prune and not anneal and _non_negative(e, st0)
    for it in range(iterations):
        if anneal:
            i = np.random.randint(s)
            j = np.random.randint(m - 1)
            j = j + 1 if j >= cur[i] else j
            a = cur[i]
            load[a] -= e[i, a]
            load[j] += e[i, j]
            obj = _objective(load)
            delta = obj - cur_obj
            if delta <= 0 or (temp > 0 and np.random.random() < math.exp(-delta / temp)):
                cur[i] = j
                cur_obj = obj
                if obj < best_obj:
                    best_obj = obj
                    best_assign[:] = cur
            else:
                load[a] += e[i, a]
                load[j] -= e[i, j]
            temp *= cooling
        else:
            mi, mj, mobj = -1, -1, np.inf
            if prune:
                top3, total = _top3(load), load.sum()
            for _ in range(candidates):
                i = np.random.randint(s)
                j = np.random.randint(m - 1)
                j = j + 1 if j >= cur[i] else j
                a = cur[i]
                la, lj = load[a] - e[i, a], load[j] + e[i, j]
                bar = mobj if tabu_until[i] <= it else min(mobj, best_obj)  # what the move must beat to be taken
                if prune and _objective_floor(load, top3, a, la, j, lj, total, slack) >= bar:
                    load[a], load[j] = la + e[i, a], lj - e[i, j]  # the loads as the objective leaves them
                    continue
                load[a], load[j] = la, lj
                obj = _objective(load)
                load[a] += e[i, a]
                load[j] -= e[i, j]
                if (tabu_until[i] <= it or obj < best_obj) and obj < mobj:
                    mi, mj, mobj = i, j, obj
            if mi < 0:
                continue
            a = cur[mi]
            load[a] -= e[mi, a]
            load[mj] += e[mi, mj]
            cur[mi] = mj
            cur_obj = mobj
            tabu_until[mi] = it + 1 + tenure
            if mobj < best_obj:
                best_obj = mobj
                best_assign[:] = cur
    return best_assign


def warm_up() -> None:
    e = np.ones((2, 2))
    for kind in KINDS:
        greedy(kind, e, e, np.zeros(2), 1.0, True, np.ones(2, np.bool_), True)
    local_search(e, np.zeros(2), np.zeros(2, np.int64), True, 2, 1, 2, 0.1, 0.99, 1)
    local_search(e, np.zeros(2), np.zeros(2, np.int64), False, 2, 1, 2, 0.1, 0.99, 1)
