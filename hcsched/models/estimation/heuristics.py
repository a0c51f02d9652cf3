"""The heuristics of Page, Keane and Naughton (sections 3.2-3.4, 5.4) and their registry entries.

Every heuristic maps the unstarted tasks of known problems given, per task i
and processor j, e_ij = the planned time (ETC in the best or worst case, plus
C), EW_ij (eq. 10) and each processor's load ST_j. It returns, for each
processor, its queue in the order tasks were added. Ties go to the lowest
processor index, then the lowest task index by default (hcsched's rule); Alg. 2
writes ``currval <= minval``, which lets the last pair scanned win: parameter
``ties: "last"`` (section 3.2; docs/models/estimation.md, "Readings chosen").

ST_j (eq. 12), parameter ``st`` of the Alg. 2 heuristics (see :func:`start_times`):

- ``relative`` (default): eq. 12 as printed, ST(j) = sum of ETC(Q_j, j) with Q_j
  the tasks mapped to or being processed by j: the planned time of j's running
  task, in full, plus what this mapping has queued on j; 0 on an idle processor.
  The default because eq. 12 defines ST and Q_j explicitly, and section 3.3's
  case for FE_d and FZ_d ("if the makespan reduces over time, but the estimation
  error stays the same, the EW value increases its influence") needs FA to
  shrink as the work runs out: a relative load does, a clock time never does.
  The gloss "the start time of processor j in seconds since the arrival of the
  first task" would sum every task ever mapped (a third reading, not offered), which
  Q_j's definition excludes (docs/models/estimation.md, "Readings chosen").
- ``absolute``: the estimated clock time j is free (hcsched's earlier reading):
  now, or the estimated end of its running task (start + planned time), plus
  what this mapping has queued. For the additive FA and LA the two readings
  rank idle processors alike and differ only by the elapsed part of each
  running task; for the multiplicative FE, FZ (and FE_d, FZ_d, LE, LZ) they do
  not: the common offset ``now`` flattens the spread of FA between processors,
  so EW^beta decides and FZ queues tasks behind busy processors while others
  idle, and a task running past its estimate gets ST = now, tying with an idle
  processor.

EF, LL, tabu and annealing (the baselines of section 5.4, and ours) keep the absolute reading.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.heuristics import Heuristic, Param

EST = "estimation"
PAGE = "Page, Keane and Naughton"
FA, FE, FZ, FE_D, FZ_D, LA, LE, LZ, EF, LL = range(10)
GREEDY = {"fa": FA, "fe": FE, "fz": FZ, "fe-d": FE_D, "fz-d": FZ_D, "la": LA, "le": LE, "lz": LZ, "ef": EF, "ll": LL}

CASE = Param("case", "best", "choice", choices=("best", "worst", "worst-max"),
             doc="plan with ETC as estimated (best), ETC x (1 + predicted error) (worst), or ETC x (1 + the largest "
                 "error in U_j) (worst-max: the other reading of 'the maximum amount of predicted error'), section "
                 "3.1")
BETA = Param("beta", 1.0, float, 0.0, 10.0, low_open=True, doc="the error weight beta > 0 of eqs. 13, 14, 18, 19")
TIES = Param("ties", "lowest", "choice", choices=("lowest", "last"),
             doc="Alg. 2's ties: the lowest processor, then the lowest task (hcsched's rule), or the last pair in the "
                 "pseudocode's scan (currval <= minval: the highest task, then its highest processor)")
ST = Param("st", "relative", "choice", choices=("relative", "absolute"),
           doc="ST of eq. 12: the processor's relative load, the planned time of its running task in full plus what "
               "is queued on it (relative: the paper's sum of ETC over Q_j), or the estimated clock time it is free "
               "(absolute: now or the running task's estimated end, plus the queue)")
READING = Param("reading", "once", "choice", choices=("once", "literal"),
                doc="eq. 17 subtracts ETC+C inside the sum over y, i.e. M times (literal), or once (the idle area "
                    "after the mapping over the idle area now)")


def start_times(st: str, now: float, machines: int, procs: np.ndarray, started: np.ndarray,
                planned: np.ndarray) -> np.ndarray:
    """ST_j of eq. 12 before a mapping adds to it, for ``machines`` processors of which ``procs`` run a task started
    at ``started`` with ``planned`` time (its ETC + C as planned): "relative" the planned time in full (0 where idle),
    "absolute" the estimated end, never before ``now`` (``now`` where idle)."""
    if st == "relative":
        out = np.zeros(machines)
        out[procs] = planned
    else:
        out = np.full(machines, float(now))
        out[procs] = np.maximum(now, started + planned)
    return out


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
    return la * wb  # eqs. 18, 19


@njit(cache=True)
def _row_best(kind, e, wb, lw, st, i, m_max, st_sum, once, last):
    """The best processor of task i: the lowest index on a tie, or the highest with ``last``."""
    best, arg = np.inf, -1
    for j in range(st.size):
        v = _cost(kind, e[i, j], wb[i, j], lw[i, j], st[j], m_max, st_sum, st.size, once)
        if v < best or arg < 0 or (last and v == best):
            best, arg = v, j
    return best, arg


def greedy(kind: int, e: np.ndarray, ew: np.ndarray, st0: np.ndarray, beta: float = 1.0, once: bool = True,
           idle: np.ndarray | None = None, stop_early: bool = False, ties: str = "lowest") -> np.ndarray:
    """Alg. 2 (see :func:`_greedy`) for planned times e and errors EW (S x M) and loads st0 (M); ``ties`` "lowest"
    (the lowest processor, then the lowest task) or "last" (the pseudocode's ``<=``: the last pair scanned, i.e. the
    highest task, then its highest processor)."""
    ew = np.asarray(ew, float)
    sign = -1.0 if kind in (FZ, LZ) else 1.0
    wb = ew ** (sign * beta) if kind in (FE, FZ, LE, LZ) else np.ones_like(ew)
    lw = np.log(ew) if kind in (FE_D, FZ_D) else np.zeros_like(ew)
    idle = np.ones(st0.size, np.bool_) if idle is None else idle
    return _greedy(kind, np.asarray(e, float), wb, lw, np.asarray(st0, float), bool(once), idle, bool(stop_early),
                   ties == "last")


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
    if kind != EF and kind != LL:
        for i in range(s):
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
            if not column_local or arg[i] == b:
                best[i], arg[i] = _row_best(kind, e, wb, lw, st, i, m_max, st_sum, once, last)
            else:
                v2 = _cost(kind, e[i, b], wb[i, b], lw[i, b], st[b], m_max, st_sum, m, once)
                if v2 < best[i] or (v2 == best[i] and (b > arg[i] if last else b < arg[i])):
                    best[i], arg[i] = v2, b
    return out


@njit(cache=True)
def _objective(load):
    """The estimated makespan, with the total load as a small tie-breaker."""
    return load.max() + load.sum() / (1000.0 * load.size)


@njit(cache=True)
def local_search(e, st0, assign, anneal, iterations, tenure, candidates, t0, cooling, seed):
    """Tabu search or simulated annealing over the unstarted tasks' processors, minimising the estimated makespan
    max_j (ST_j + sum of e on j) (ours: the paper gives no neighbourhood, objective or parameters, section 5.4).
    A move sends one task to another processor. Tabu: each iteration evaluates ``candidates`` random moves and
    takes the best whose task is not tabu (or that beats the best so far); a moved task stays tabu ``tenure``
    iterations. Annealing: one random move per iteration, accepted with probability exp(-delta / T), T starting at
    t0 x the initial objective and multiplied by ``cooling`` each iteration. Returns the best assignment seen."""
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
            for _ in range(candidates):
                i = np.random.randint(s)
                j = np.random.randint(m - 1)
                j = j + 1 if j >= cur[i] else j
                a = cur[i]
                load[a] -= e[i, a]
                load[j] += e[i, j]
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
    for kind in range(10):
        greedy(kind, e, e, np.zeros(2), 1.0, True, np.ones(2, np.bool_), True)
    local_search(e, np.zeros(2), np.zeros(2, np.int64), True, 2, 1, 2, 0.1, 0.99, 1)
    local_search(e, np.zeros(2), np.zeros(2, np.int64), False, 2, 1, 2, 0.1, 0.99, 1)


def _h(name, title, mode, section, description, params=()) -> Heuristic:
    return Heuristic(name, title, mode, -1, section, description, tuple(params), models=(EST,), paper=PAGE)


HEURISTICS = (
    _h("fa", "FA: earliest estimated finish", "batch", "3.3, eq. 11",
       "Alg. 2 with FA = ETC + C + ST: repeatedly maps the task-processor pair that finishes earliest (Min-min with "
       "communication; the paper's 'based on Max-Min' is a slip). Ignores the estimation error.", (ST, CASE, TIES)),
    _h("fe", "FE: least error first", "batch", "3.3, eq. 13",
       "Alg. 2 with FE = FA x EW^beta: pairs with little estimation error and a large CCR go first; error-prone tasks "
       "wait for better estimates.", (BETA, ST, CASE, TIES)),
    _h("fz", "FZ: most error first", "batch", "3.3, eq. 14",
       "Alg. 2 with FZ = FA / EW^beta: the most error-prone tasks go first, so that the well-estimated ones fill the "
       "end of the schedule. The paper's best (beta = 0.1, best case: 20% below FA; not "
       "reproduced on the analogue presets, see docs/models/estimation.md).", (BETA, ST, CASE, TIES)),
    _h("fe-d", "FE_d: dynamic FE", "batch", "3.3, eq. 15",
       "Alg. 2 with FE_d = FA^EW x EW^FA, compared in log space (EW ln FA + FA ln EW) so it never overflows. "
       "Literal: with EW < 1 it can favour the most loaded processor, and it depends on the time unit "
       "(docs/models/estimation.md).",
       (ST, CASE, TIES)),
    _h("fz-d", "FZ_d: dynamic FZ", "batch", "3.3, eq. 16",
       "Alg. 2 with FZ_d = FA^EW / EW^FA, compared in log space (EW ln FA - FA ln EW).", (ST, CASE, TIES)),
    _h("la", "LA: load balance", "batch", "3.4, eq. 17",
       "Alg. 2 with LA: the idle processor time left after the mapping relative to now; low is well balanced. Its "
       "denominator is the same for every pair of an iteration and is left out (it is 0 when all loads are equal).",
       (READING, ST, CASE, TIES)),
    _h("le", "LE: load balance, least error first", "batch", "3.4, eq. 18", "Alg. 2 with LE = LA x EW^beta.",
       (BETA, READING, ST, CASE, TIES)),
    _h("lz", "LZ: load balance, most error first", "batch", "3.4, eq. 19", "Alg. 2 with LZ = LA / EW^beta.",
       (BETA, READING, ST, CASE, TIES)),
    _h("rr", "Round robin", "immediate", "2.2, 5.4",
       "Deals tasks to the processors in turn as they are released and never remaps them: the system's default, and "
       "what every heuristic does for a problem nothing is known about yet."),
    _h("ll", "Lightest loaded", "immediate", "5.4",
       "Each unstarted task in release order goes to the processor with the smallest estimated load ST.", (CASE,)),
    _h("ef", "Earliest first", "immediate", "5.4 [27]",
       "Each unstarted task in release order goes to the processor that finishes it earliest (FA): MCT with the "
       "same estimates as the others.", (CASE,)),
    _h("tabu", "Tabu search (ours)", "batch", "5.4",
       "Ours: the paper's OpenTS scheduler is unpublished. Starts from EF's mapping of the unstarted tasks and moves "
       "single tasks between processors to lower the estimated makespan; a moved task is tabu for a while.",
       (Param("iterations", 100, int, 1, 100000, doc="moves per mapping event"),
        Param("candidates", 20, int, 1, 1000, doc="random moves evaluated per iteration"),
        Param("tenure", 10, int, 0, 10000, doc="iterations a moved task stays tabu"), CASE)),
    _h("anneal", "Simulated annealing (ours)", "batch", "5.4",
       "Ours: the paper's Jannealer scheduler is unpublished. Starts from EF's mapping and accepts random single-task "
       "moves with probability exp(-delta/T) on the estimated makespan.",
       (Param("iterations", 1000, int, 1, 1000000, doc="moves tried per mapping event"),
        Param("t0", 0.05, float, 0.0, 10.0, doc="initial temperature, a fraction of the initial estimated makespan"),
        Param("cooling", 0.995, float, 0.0, 1.0, low_open=True, doc="temperature factor per move"), CASE)),
)
