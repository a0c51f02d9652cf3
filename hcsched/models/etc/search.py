"""A near-optimal static mapper for the ETC model: LP rounding, local search and iterated greedy, as numba kernels.

Tasks all arrive at once; minimise the makespan ``max_j ready[j] + sum of p_ij over machine j's tasks`` (R||Cmax).

1. Start: a basic optimal solution of the LP relaxation splits at most m - 1 tasks (Potts, Discrete Applied
   Mathematics 10, 1985); each split task goes to the machine of its fractions that completes it earliest (largest
   tasks first), then the split tasks' choices are improved by trying each on its other fractional machines, with
   local search (:func:`rounding_search`). Min-min's mapping is a second start; the better one is kept.
2. Reduced costs: the LP's dual machine weights w (:func:`machine_weights`) price task i on machine j at
   w_j p_ij; its reduced cost is that minus its least price over machines. For every mapping the makespan is at
   least sum_j w_j load_j = ``lower`` + the mapping's total reduced cost (LP duality), so near the bound the gap
   is mostly that total, not the imbalance: the search spends reduced cost as sparingly as it can. And no pair
   of reduced cost above best - ``lower`` can be in a better mapping, so none is tried (reduced-cost fixing,
   Dantzig, Fulkerson and Johnson, Operations Research 2, 1954). Without an LP the weights are uniform (the
   total work).
3. Local search: out of the critical machine c (load C, the makespan), the cheapest (in reduced cost added, then
   in the largest load touched) move of one of its tasks to another machine, else swap with a task of another
   machine, else chain (c's task to machine k, one of k's tasks to a third machine), each accepted only when
   every machine it touches ends strictly below C; then moves and swaps anywhere that lower the reduced cost
   while both machines stay strictly below C (room for the next critical machine). It stops when none applies.
4. Iterated greedy (Fanjul-Peyro and Ruiz, EJOR 207, 2010): remove ``d`` tasks along an ejection chain (Glover,
   Discrete Applied Mathematics 65, 1996): one of the critical machine's, then a task of one of the cheapest
   other machines for the task before, and so on; reinsert each on its cheapest machine among those it leaves
   below the current makespan (else where it completes earliest), run the local search; accept a result no
   worse, or a worse one with probability exp(-(worse - current) / T).
5. Restarts: after ``STALL`` iterations with no new best, iterated greedy goes on from an LP neighbour of the best
   (:func:`lp_neighbour`: a random 3/4 of the tasks re-mapped by the LP's rounding, the rest kept; a large
   neighbourhood search, Shaw, CP 1998), or with no LP from the next start.

Every random draw comes from numba's generator and a NumPy generator, both seeded per call: a seed and an iteration
budget give one result, run after run, with or without a time cap (``seconds``, which makes the count reached depend
on the machine's speed). Another machine or installation may follow another path: the search starts from the LP's
solution and its dual weights (HiGHS, and a least-squares solve by the BLAS), and a difference in their last bits
changes which step wins a near-tie.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from hcsched.kernels import exp
from hcsched.models.etc import batch
from hcsched.models.etc.bounds import lp_relaxation

DEFAULT_ITERATIONS = 1000  # about 1 s on a 512 x 16 instance, LP included
DESTROY = 8  # the d tasks removed per iteration
TEMPERATURE = 0.001  # T, times the mean over tasks of their fastest time
HISTORY = 4096  # improvements recorded at most
ROUNDING_ROUNDS = 6  # rounds of the search over the split tasks' roundings at most
STALL = 500  # iterations with no new best before a restart
LNS_FREE = 0.75  # the share of tasks a restart re-maps by the LP
LINKS = 3  # an ejection chain's next machine is one of the task's LINKS cheapest others
CHUNK = 50  # iterations between two looks at the clock under a time cap
DENSE_MACHINES = 128  # up to this many machines the dual weights come from a dense least-squares solve (O(m^3))


@njit(cache=True)
def loads_of(p, ready, a):
    """Each machine's ready time plus the times of its tasks."""
    L = ready.copy()
    for i in range(p.shape[0]):
        L[a[i]] += p[i, a[i]]
    return L


@njit(cache=True)
def round_lp(p, ready, x):
    """A mapping from the LP's fractions ``x``: whole tasks stay; split ones, largest first, go to the machine of
    their fractions that completes them earliest."""
    n, m = p.shape
    a = np.empty(n, np.int64)
    L = ready.copy()
    split = np.empty(n, np.int64)
    ns = 0
    for i in range(n):
        j = np.argmax(x[i])
        if x[i, j] > 1.0 - 1e-7:
            a[i] = j
            L[j] += p[i, j]
        else:
            split[ns] = i
            ns += 1
    keys = np.empty(ns)
    for s in range(ns):
        keys[s] = -p[split[s]].max()
    for s in np.argsort(keys, kind="mergesort"):
        i = split[s]
        bj, bc = -1, np.inf
        for j in range(m):
            if x[i, j] > 1e-7 and L[j] + p[i, j] < bc:
                bj, bc = j, L[j] + p[i, j]
        if bj < 0:
            bj, bc = np.argmax(x[i]), L[np.argmax(x[i])] + p[i, np.argmax(x[i])]
        a[i] = bj
        L[bj] = bc
    return a


@njit(cache=True)
def min_min(p, ready):
    """Min-min's mapping (Maheswaran et al. 1999, Fig. 1), by the batch kernels."""
    r = ready.copy()
    meta = batch.MetaTask(p, np.ones(p.shape[0]), np.ones(p.shape[0], np.bool_), np.empty(p.shape[0], np.int64),
                          np.empty(p.shape[0]))
    batch.init_best(meta, r)
    a = np.empty(p.shape[0], np.int64)
    for _ in range(p.shape[0]):
        k, j = batch.min_max_step(False, meta, r)
        a[k] = j
    return a


@njit(cache=True)
def critical(L):
    """The machine with the largest load (lowest index on ties)."""
    c = 0
    for j in range(1, L.size):
        if L[j] > L[c]:
            c = j
    return c


@njit(cache=True)
def better(dc, v, bdc, bv):
    """Whether a step adding reduced cost ``dc`` with largest touched load ``v`` beats the best so far (``bdc``,
    ``bv``): the least cost added, then the least load."""
    return dc < bdc or (dc == bdc and v < bv)


@njit(cache=True)
def critical_step(p, cost, a, L, on, cap):
    """The cheapest move, else swap, else chain out of the critical machine c that leaves every touched machine
    strictly below its load, using no pair of reduced cost (``cost``) above ``cap``; cheapest in reduced cost
    added, then in the largest touched load. Returns (what: 0 none / 1 move / 2 swap / 3 chain, c, i, h, k, l,
    the largest touched load after): task i leaves c for k; with a swap h goes from k to c, with a chain from k
    to l."""
    n, m = p.shape
    c = critical(L)
    C = L[c]
    cnt = 0
    for i in range(n):
        if a[i] == c:
            on[cnt] = i
            cnt += 1
    best, bdc, bi, bk = C, np.inf, -1, -1
    for t in range(cnt):
        i = on[t]
        for k in range(m):
            v = max(L[c] - p[i, c], L[k] + p[i, k])
            dc = cost[i, k] - cost[i, c]
            if k != c and v < C and cost[i, k] <= cap and better(dc, v, bdc, best):
                best, bdc, bi, bk = v, dc, i, k
    if bi >= 0:
        return 1, c, bi, -1, bk, -1, best
    bh = -1
    for h in range(n):
        k = a[h]
        if k == c or cost[h, c] > cap:
            continue
        for t in range(cnt):
            i = on[t]
            v = max(L[c] + p[h, c] - p[i, c], L[k] - p[h, k] + p[i, k])
            dc = cost[h, c] - cost[i, c] + cost[i, k] - cost[h, k]
            if v < C and cost[i, k] <= cap and better(dc, v, bdc, best):
                best, bdc, bi, bh = v, dc, i, h
    if bi >= 0:
        return 2, c, bi, bh, a[bh], -1, best
    return chain_step(p, cost, a, L, on, cnt, c, cap)


@njit(cache=True)
def chain_step(p, cost, a, L, on, cnt, c, cap):
    """:func:`critical_step`'s chains: task i (of the ``cnt`` in ``on``) from c to k, one of k's tasks h from k
    to l. The best l of each h does not depend on i, so it is found first: O(n m + cnt n), not O(cnt n m)."""
    n, m = p.shape
    C = L[c]
    to = np.full(n, -1)
    for h in range(n):
        k = a[h]
        if k == c:
            continue
        for l in range(m):
            if l != k and l != c and L[l] + p[h, l] < C and cost[h, l] <= cap and (
                    to[h] < 0 or better(cost[h, l], L[l] + p[h, l], cost[h, to[h]], L[to[h]] + p[h, to[h]])):
                to[h] = l
    best, bdc, bi, bh = C, np.inf, -1, -1
    for h in range(n):
        k, l = a[h], to[h]
        if l < 0:
            continue
        for t in range(cnt):
            i = on[t]
            Lk = L[k] + p[i, k] - p[h, k]
            v = max(L[l] + p[h, l], Lk)
            dc = cost[i, k] - cost[i, c] + cost[h, l] - cost[h, k]
            if Lk < C and cost[i, k] <= cap and better(dc, v, bdc, best):
                best, bdc, bi, bh = v, dc, i, h
    if bi >= 0:
        return 3, c, bi, bh, a[bh], to[bh], best
    return 0, c, -1, -1, -1, -1, C


@njit(cache=True)
def local_search(p, cost, a, L, on, cap):
    """Apply :func:`critical_step` until none applies; returns the makespan."""
    while True:
        what, c, i, h, k, l, _ = critical_step(p, cost, a, L, on, cap)
        if what == 0:
            return L[c]
        L[c] -= p[i, c]
        L[k] += p[i, k]
        a[i] = k
        if what == 2:
            L[k] -= p[h, k]
            L[c] += p[h, c]
            a[h] = c
        elif what == 3:
            L[k] -= p[h, k]
            L[l] += p[h, l]
            a[h] = l


@njit(cache=True)
def efficiency_pass(p, cost, a, L, C, cand, ncand, cap):
    """Moves anywhere, and swaps of the first ``ncand`` tasks of ``cand``, that lower the reduced cost (``cost``)
    while both machines stay strictly below C, onto no pair of reduced cost above ``cap``. Returns whether any was
    made."""
    n, m = p.shape
    improved = False
    for i in range(n):
        j = a[i]
        bk, bd = -1, 0.0
        for k in range(m):
            if k != j and L[k] + p[i, k] < C and cost[i, k] <= cap and cost[i, k] - cost[i, j] < bd:
                bk, bd = k, cost[i, k] - cost[i, j]
        if bk >= 0:
            L[j] -= p[i, j]
            L[bk] += p[i, bk]
            a[i] = bk
            improved = True
    for q in range(ncand):
        i = cand[q]
        j = a[i]
        for h in range(n):
            k = a[h]
            if k == j:
                continue
            dj = p[h, j] - p[i, j]
            dk = p[i, k] - p[h, k]
            if (cost[h, j] - cost[i, j] + cost[i, k] - cost[h, k] < 0.0 and L[j] + dj < C and L[k] + dk < C
                    and cost[i, k] <= cap and cost[h, j] <= cap):
                L[j] += dj
                L[k] += dk
                a[i], a[h] = k, j
                j = k
                improved = True
    return improved


@njit(cache=True)
def full_search(p, cost, a, L, on, cand, ncand, cap):
    """The local search of the module's docstring (no pair of reduced cost above ``cap``); returns the makespan."""
    C = local_search(p, cost, a, L, on, cap)
    while efficiency_pass(p, cost, a, L, C, cand, ncand, cap):
        C = local_search(p, cost, a, L, on, cap)
    return C


@njit(cache=True)
def seed_rng(seed):
    np.random.seed(seed)


@njit(cache=True)
def chain_next(cost, b, i):
    """The next link of an ejection chain (Glover, Discrete Applied Mathematics 65, 1996) from task i: one of the
    ``LINKS`` machines (other than its own) where it has the least reduced cost, then one of that machine's tasks,
    both drawn at random (a random task if that machine has none)."""
    n, m = cost.shape
    cheap = np.empty(LINKS, np.int64)
    found = 0
    for k in range(m):
        if k == b[i] or (found == LINKS and cost[i, k] >= cost[i, cheap[LINKS - 1]]):
            continue
        t = min(found, LINKS - 1)  # insertion into the sorted few, the dearest dropped when full
        while t > 0 and cost[i, k] < cost[i, cheap[t - 1]]:
            cheap[t] = cheap[t - 1]
            t -= 1
        cheap[t] = k
        found = min(found + 1, LINKS)
    if found == 0:
        return np.random.randint(n)
    k = cheap[np.random.randint(found)]
    for _ in range(100 * n):
        h = np.random.randint(n)
        if b[h] == k:
            return h
    return np.random.randint(n)


@njit(cache=True)
def destroy(p, cost, ready, b, Lw, removed):
    """Remove ``removed.size`` distinct tasks from ``b`` (their times off ``Lw``): the first a random one of the
    critical machine (if it has any), each next the next link of an ejection chain from the one before
    (:func:`chain_next`; a random task where that link is already removed), so that the freed tasks can trade
    places."""
    n = p.shape[0]
    c = critical(Lw)
    r, link = 0, True
    while r < removed.size:
        i = chain_next(cost, b, removed[r - 1]) if r > 0 and link else np.random.randint(n)
        if r == 0 and b[i] != c and Lw[c] > ready[c]:
            continue
        dup = False
        for q in range(r):
            dup = dup or removed[q] == i
        link = not dup  # a link back into the chain: a random task instead
        if not dup:
            removed[r] = i
            Lw[b[i]] -= p[i, b[i]]
            r += 1


@njit(cache=True)
def reinsert(p, cost, b, Lw, removed, curC, cap):
    """Put each removed task back on its machine of least reduced cost among those it leaves below ``curC``, else
    where it completes earliest, never on a pair of reduced cost above ``cap``."""
    m = p.shape[1]
    for q in range(removed.size):
        i = removed[q]
        bj, bc, fj, fp = 0, np.inf, -1, np.inf
        for j in range(m):
            if cost[i, j] > cap:
                continue
            if Lw[j] + p[i, j] < bc:
                bj, bc = j, Lw[j] + p[i, j]
            if Lw[j] + p[i, j] < curC and cost[i, j] < fp:
                fj, fp = j, cost[i, j]
        if fj >= 0:
            bj, bc = fj, Lw[fj] + p[i, fj]
        b[i] = bj
        Lw[bj] = bc


@njit(cache=True)
def iterated_greedy(p, cost, ready, cur, best, iterations, temp, hist_it, hist_c, nh, it0, lower):
    """``iterations`` of iterated greedy from ``cur`` (a local optimum), keeping the best in ``best``; each new
    best is recorded in ``hist_it``/``hist_c`` (numbered from ``it0``). ``lower`` is a bound of the form
    sum_j w_j load_j - (reduced cost): no pair of reduced cost above best - lower can be in a better mapping.
    Returns (best makespan, records)."""
    n = p.shape[0]
    on = np.empty(n, np.int64)
    L = loads_of(p, ready, cur)
    curC = L.max()
    bestC = loads_of(p, ready, best).max()
    b = cur.copy()
    removed = np.empty(min(DESTROY, n), np.int64)
    for it in range(iterations):
        b[:] = cur
        Lw = L.copy()
        cap = max(bestC - lower, 0.0)
        destroy(p, cost, ready, b, Lw, removed)
        reinsert(p, cost, b, Lw, removed, curC, cap)
        full_search(p, cost, b, Lw, on, removed, removed.size, cap)
        Lw = loads_of(p, ready, b)  # afresh: no rounding drift from the incremental updates
        C = Lw.max()
        if C <= curC or (temp > 0.0 and np.random.random() < np.exp(-(C - curC) / temp)):
            cur[:] = b
            L[:] = Lw
            curC = C
            if C < bestC:
                best[:] = b
                bestC = C
                if nh < hist_it.size:
                    hist_it[nh], hist_c[nh] = it0 + it + 1, C
                    nh += 1
    return bestC, nh


@njit(cache=True)
def initial(p, cost, ready, starts):
    """The mappings ``starts`` (one per row) after local search, in place; returns their makespans."""
    n = p.shape[0]
    on = np.empty(n, np.int64)
    every = np.arange(n)
    out = np.empty(starts.shape[0])
    for s in range(starts.shape[0]):
        out[s] = full_search(p, cost, starts[s], loads_of(p, ready, starts[s]), on, every, n, np.inf)
    return out


def rounding_search(p: np.ndarray, cost: np.ndarray, ready: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The LP's rounding (:func:`round_lp`) improved over the choices of its split tasks: each round tries every
    split task on each other machine of its fractions (the rest as rounded), runs the local search on each, and
    keeps the best if it beats the current one; at most ``ROUNDING_ROUNDS`` rounds. Returns the best mapping and
    the plain rounding's, both after local search. The split tasks are few (at most m - 1; Potts 1985), and where a
    large one goes decides the rest, which the greedy rounding alone gets wrong."""
    n = p.shape[0]
    on, every = np.empty(n, np.int64), np.arange(n)

    def searched(a):
        a = a.copy()
        return full_search(p, cost, a, loads_of(p, ready, a), on, every, n, np.inf), a

    cur = round_lp(p, ready, x)
    curC, best = searched(cur)
    plain = best
    split = np.flatnonzero(x.max(axis=1) <= 1.0 - 1e-7)
    for _ in range(ROUNDING_ROUNDS):
        top = None
        for i in split:
            for j in np.flatnonzero(x[i] > 1e-7):
                if j != cur[i]:
                    a = cur.copy()
                    a[i] = j
                    C, b = searched(a)
                    if C < curC:
                        curC, top, best = C, a, b
        if top is None:
            break
        cur = top
    return best, plain


def lp_neighbour(p: np.ndarray, cost: np.ndarray, ready: np.ndarray, a: np.ndarray, rng) -> np.ndarray:
    """A restart near ``a`` by the LP: each task is freed with probability ``LNS_FREE``, the others stay (in the
    machines' ready times), and the freed ones are mapped by the LP's rounding (:func:`rounding_search`, with
    local search): a large neighbourhood search (Shaw, CP 1998) whose repair is the LP."""
    m = p.shape[1]
    free = rng.random(a.size) < LNS_FREE
    if not free.any():
        return a.copy()
    r = ready + np.bincount(a[~free], weights=p[np.flatnonzero(~free), a[~free]], minlength=m)
    q = np.ascontiguousarray(p[free])
    x = lp_fractions(q, r)
    b = a.copy()
    if x.shape[0] == q.shape[0]:
        b[free] = rounding_search(q, np.ascontiguousarray(cost[free]), r, x)[0]
    return b


def starts(p: np.ndarray, cost: np.ndarray, ready: np.ndarray, x: np.ndarray | None) -> np.ndarray:
    """The start mappings, one per row: with the LP's fractions ``x`` its roundings (:func:`rounding_search`: the
    improved one, then the plain one), then Min-min's; ``cost`` the reduced costs the local search spends."""
    rows = []
    if x is not None:
        rows += rounding_search(p, cost, ready, x)
    rows.append(min_min(p, ready))
    return np.array(rows, dtype=np.int64)


def machine_weights(p: np.ndarray, x: np.ndarray | None) -> np.ndarray:
    """The LP's dual machine weights w (w_j > 0, summing to 1) from its vertex solution ``x``: every task's
    fractions lie on machines of least w_j p_ij (complementary slackness), so each split task equates w_j p_ij
    over its machines; those m - 1 equations and the sum give w. Uniform weights (the total work) without an LP
    or where the equations do not fix positive weights (:func:`reduced_costs`' bound holds for any). Up to
    ``DENSE_MACHINES`` machines by least squares; beyond, the same equations solved along the tree they form
    (:func:`_tree_weights`), in O(m) instead of the O(m^3) of a dense solve (a few tasks split over thousands of
    machines)."""
    m = p.shape[1]
    uniform = np.full(m, 1.0 / m)
    if x is None:
        return uniform
    pairs = []  # (j, k, p_ij, p_ik): w_j p_ij = w_k p_ik
    for i in np.flatnonzero(x.max(axis=1) <= 1.0 - 1e-7):
        js = np.flatnonzero(x[i] > 1e-7)
        pairs += [(js[0], k, p[i, js[0]], p[i, k]) for k in js[1:]]
    if m > DENSE_MACHINES:
        w = _tree_weights(m, pairs)
        return uniform if w is None else w
    A = np.zeros((len(pairs) + 1, m))
    A[0] = 1.0
    for r, (j, k, pj, pk) in enumerate(pairs, start=1):
        A[r, j], A[r, k] = pj, -pk
    b = np.zeros(len(pairs) + 1)
    b[0] = 1.0
    w, _, rank, _ = np.linalg.lstsq(A, b, rcond=None)
    if rank < m or (w <= 0.0).any():
        return uniform
    return w / w.sum()


def _tree_weights(m: int, pairs: list) -> np.ndarray | None:
    """The positive weights, summing to 1, that satisfy every equation w_j p_j = w_k p_k of ``pairs`` (in logs, so
    that long chains of ratios neither overflow nor underflow), or None when they leave some machine free or
    contradict each other (a dense solve's rank below m, or no exact solution)."""
    links: list[list] = [[] for _ in range(m)]
    for j, k, pj, pk in pairs:
        if pj <= 0.0 or pk <= 0.0:
            return None
        step = math.log(pj) - math.log(pk)  # log w_k - log w_j
        links[j].append((k, step))
        links[k].append((j, -step))
    logw = np.full(m, np.nan)
    logw[0], todo = 0.0, [0]
    while todo:
        j = todo.pop()
        for k, step in links[j]:
            if np.isnan(logw[k]):
                logw[k] = logw[j] + step
                todo.append(k)
            elif abs(logw[k] - logw[j] - step) > 1e-9:
                return None
    if np.isnan(logw).any():
        return None
    w = exp(logw - logw.max())
    return None if (w <= 0.0).any() else w / w.sum()


def reduced_costs(p: np.ndarray, ready: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
    """Each pair's reduced cost under machine weights ``w`` (w_j p_ij less the task's least), and the bound
    ``lower`` = sum_j w_j ready[j] + sum_i min_j w_j p_ij: any mapping's makespan is at least ``lower`` plus its
    pairs' reduced costs (its loads weighted by w, which sum to 1)."""
    price = p * w
    least = price.min(axis=1)
    return price - least[:, None], float(w @ ready + least.sum())


def lp_fractions(p: np.ndarray, ready: np.ndarray) -> np.ndarray:
    """The LP relaxation's vertex solution (tasks x machines), or no rows if the solver failed."""
    x = lp_relaxation(p, ready, solution=True).x
    return np.zeros((0, p.shape[1])) if x is None else x


def map_rows(E, ready, iterations, seed) -> np.ndarray:
    """The whole method's mapping (machine per row) of tasks ``E`` (tasks x machines) onto machines free from
    ``ready``: plain Python, called by the batch engine in object mode, so that the search's kernels compile on
    their own."""
    p = np.ascontiguousarray(E, dtype=float)
    return _search(p, np.array(ready, dtype=float), True, iterations, None, seed).assignment


def map_meta(meta, ready, iterations, seed) -> None:
    """Map the meta-task ``meta`` (its rows of E, machines free from ``ready``) by the whole method, writing each
    task's machine to ``meta.best_j``; ``ready`` is left unchanged (:func:`batch.hand_out` updates it)."""
    meta.best_j[:meta.E.shape[0]] = map_rows(meta.E, ready, iterations, seed)


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the search's kernels, once per process (before forking)."""
    improve(np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]), iterations=2)


@njit(cache=True)
def _mean_fastest(p):
    s = 0.0
    for i in range(p.shape[0]):
        s += p[i].min()
    return s / max(p.shape[0], 1)


@dataclass(frozen=True)
class SearchResult:
    """The best mapping found (machine per task), its makespan, the iterations of iterated greedy run, and the
    history of improvements as (iteration, makespan) pairs, iteration 0 being the start."""

    assignment: np.ndarray
    makespan: float
    iterations_run: int
    history: list


def _inputs(etc, ready) -> tuple[np.ndarray, np.ndarray]:
    p = np.ascontiguousarray(etc, dtype=float)
    if p.ndim != 2 or p.shape[0] == 0 or p.shape[1] == 0 or not np.all(np.isfinite(p)) or (p <= 0).any():
        raise ValueError("etc: a tasks x machines array of positive, finite times is required")
    r = np.zeros(p.shape[1]) if ready is None else np.asarray(ready, dtype=float).ravel().copy()
    if r.size != p.shape[1]:
        raise ValueError(f"ready: {r.size} values for {p.shape[1]} machines")
    return p, r


STARTS = ("lp", "min-min")  # improve()'s first mappings: the LP's rounding (and Min-min's), or Min-min's alone


def improve(etc, ready=None, iterations: int = DEFAULT_ITERATIONS, seconds: float | None = None, seed: int = 0,
            start: str = "lp") -> SearchResult:
    """Map tasks all arriving at once onto machines free from ``ready`` (zeros when None), near-optimally for the
    makespan: the best of the LP roundings (``start="lp"``; Potts 1985) and Min-min after local search, then
    ``iterations`` of iterated greedy (Fanjul-Peyro and Ruiz 2010) with LP restarts, its draws seeded by ``seed``.
    ``start="min-min"`` skips the LP. With ``seconds`` the search also stops once that time has passed
    (checked every few iterations): the result then depends on the machine's speed; ``iterations_run`` says
    how many ran (the same count with no time cap gives the same result)."""
    p, r = _inputs(etc, ready)
    if start not in STARTS:
        raise ValueError(f"start: {start!r}; use 'lp' or 'min-min'")
    return _search(p, r, start == "lp", iterations, seconds, seed)


def _search(p, r, lp, iterations, seconds, seed) -> SearchResult:
    """:func:`improve`'s method (the module's docstring). Iterated greedy runs in chunks of ``CHUNK`` iterations
    whatever the time cap, so that the restarts fall at the same iterations with and without one. One task needs no
    search: on the machine that completes it earliest (the first of equals) it gives the least makespan possible."""
    if p.shape[0] == 1:
        one = np.array([int(np.argmin(r + p[0]))], dtype=np.int64)
        makespan = float(loads_of(p, r, one).max())
        return SearchResult(one, makespan, 0, [(0, makespan)])
    clock = _Clock(seconds)
    x = lp_fractions(p, r) if lp else None
    x = x if x is not None and x.shape[0] == p.shape[0] else None
    cost, lower = reduced_costs(p, r, machine_weights(p, x))
    pool = starts(p, cost, r, x)
    order = np.argsort(initial(p, cost, r, pool), kind="mergesort")
    cur = pool[order[0]].copy()
    best = cur.copy()
    hist_it, hist_c = np.zeros(HISTORY, np.int64), np.zeros(HISTORY)
    hist_it[0], hist_c[0] = 0, loads_of(p, r, cur).max()
    nh, done, since, k = 1, 0, 0, 0
    bestC = hist_c[0]
    seed_rng(seed)
    rng = np.random.default_rng(seed)
    temp = TEMPERATURE * _mean_fastest(p)
    while done < iterations and not clock.over():
        chunk = min(CHUNK, iterations - done)
        C, nh = iterated_greedy(p, cost, r, cur, best, chunk, temp, hist_it, hist_c, nh, done, lower)
        done += chunk
        since = 0 if C < bestC else since + chunk
        bestC = min(bestC, C)
        if since >= STALL:
            if lp:
                cur[:] = lp_neighbour(p, cost, r, best, rng)
            else:
                k = (k + 1) % order.size
                cur[:] = pool[order[k]]
            since = 0
    history = [(int(i), float(c)) for i, c in zip(hist_it[:nh], hist_c[:nh], strict=True)]
    return SearchResult(best, float(loads_of(p, r, best).max()), done, history)


class _Clock:
    def __init__(self, seconds: float | None):
        import time

        self._now = time.perf_counter
        self._end = None if seconds is None else self._now() + seconds

    def over(self) -> bool:
        return self._end is not None and self._now() >= self._end


@dataclass(frozen=True)
class ImprovementStep:
    """One improving move, swap or chain out of the critical machine: ``moves`` as (task, from, to) triples, the
    makespan before and after, and ``why`` in words."""

    kind: str
    moves: list
    makespan_before: float
    makespan_after: float
    why: str


def improvement_step(etc, assignment, ready=None) -> ImprovementStep | None:
    """The local search's next step on ``assignment`` (machine per task), or None at a local optimum: the move of
    a task off the critical machine, else the swap, else the chain, that adds the least work (then leaves the
    least load) among those after which every touched machine ends strictly below the makespan. The makespan
    falls, or (when another machine is at it too) the number of machines at the makespan does."""
    p, r = _inputs(etc, ready)
    a = np.asarray(assignment, dtype=np.int64).copy()
    L = loads_of(p, r, a)
    what, c, i, h, k, l, top = critical_step(p, p, a, L.copy(), np.empty(p.shape[0], np.int64), np.inf)
    if what == 0:
        return None
    before = float(L.max())
    moves = [(int(i), int(c), int(k))] + ([(int(h), int(k), int(c if what == 2 else l))] if what > 1 else [])
    after = L.copy()
    for t, j_from, j_to in moves:
        after[j_from] -= p[t, j_from]
        after[j_to] += p[t, j_to]
    kind = ("move", "swap", "chain")[what - 1]
    touched = sorted({j for _, x, y in moves for j in (x, y)})
    loads = ", ".join(f"m{j} {after[j]:g}" for j in touched)
    others = int((L >= before).sum()) - 1
    why = (f"m{c} is critical (load {before:g} = makespan); the {kind} "
           + "; ".join(f"t{t} m{x} -> m{y}" for t, x, y in moves)
           + f" leaves {loads}, all below {before:g}: "
           + (f"the makespan falls to {after.max():g}" if after.max() < before else
              f"m{c} leaves the makespan, {others} other machine(s) remain at it"))
    return ImprovementStep(kind, moves, before, float(after.max()), why)
