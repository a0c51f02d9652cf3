"""Execution-time estimators of Page, Keane and Naughton, section 2: k-NN (Alg. 1, eqs. 2-5), the smoothed average
with benchmark rates (eq. 6), the simple average, and round robin while nothing is known.

The scheduler's knowledge lives in an :class:`EstimatorState`: per problem and
processor the last ``n`` observations U_j = (t, c, ET, X) (eq. 1, one O per
problem), the smoothed rates P_j and requirement T. A return on processor j
changes only U_j, so :meth:`EstimatorState.observe` recomputes the k-NN column
j of the unstarted tasks of that problem and nothing else (the smoothed
columns are one division, done when asked).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.estimation import kernels
from hcsched.models.estimation.spec import Estimator


def k_of(n: int) -> int:
    """k = ceil(n^(4/5)) computed exactly: the smallest integer k with k^5 >= n^4 (section 2.1).

    The float ``ceil(n ** 0.8)`` is wrong for n = 32 (it gives 17; 16^5 = 32^4).
    """
    if n <= 0:
        return 0
    n4 = n ** 4
    k = max(1, int(round(n ** 0.8)) - 2)
    while k ** 5 < n4:
        k += 1
    while k > 1 and (k - 1) ** 5 >= n4:
        k -= 1
    return k


def smoothed(values, nu: float) -> float:
    """Gamma of a sequence (section 2.2): Gamma_0 = a_1, Gamma_b = Gamma_{b-1} + nu (a_b - Gamma_{b-1})."""
    g = None
    for a in values:
        g = float(a) if g is None else g + nu * (float(a) - g)
    return float("nan") if g is None else g


def gamma_step(g: float, a: float, nu: float, first: bool) -> float:
    """One step of Gamma: the first value sets it, later ones move it by nu of the difference."""
    return a if first else g + nu * (a - g)


@njit(cache=True)
def _weighted(d, v, keep, m, literal):
    """Eqs. 4-5 over the kept neighbours keep[:m]; a neighbour at distance 0 makes the estimate the mean of the exact
    matches."""
    exact, exact_sum = 0, 0.0
    for b in range(m):
        a = keep[b]
        if d[a] == 0.0:
            exact += 1
            exact_sum += v[a]
    if exact:
        return exact_sum / exact
    inv, num, dsum = 0.0, 0.0, 0.0
    for b in range(m):
        a = keep[b]
        inv += 1.0 / d[a]
        num += v[a] / d[a]
        dsum += d[a]
    return dsum * num if literal else num / inv


@njit(cache=True)
def _kth(a, kth):
    """The kth smallest value of a (0-based), reordering a in place (quickselect, middle pivot; no allocation)."""
    lo, hi = 0, a.size - 1
    while lo < hi:
        pivot = a[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if kth <= j:
            hi = j
        elif kth >= i:
            lo = i
        else:
            return a[kth]
    return a[kth]


@njit(cache=True)
def _nearest(d, k, sel, buf):
    """The k smallest distances into sel[:k], in index order; at the k-th distance the lower index (the newer
    observation) wins a tie. O(n): a partition finds the k-th distance."""
    n = d.size
    if k >= n:
        for a in range(n):
            sel[a] = a
        return
    buf[:] = d
    dk = _kth(buf, k - 1)
    below = 0
    for a in range(n):
        if d[a] < dk:
            below += 1
    ties = k - below
    c = 0
    for a in range(n):
        if d[a] < dk or (d[a] == dk and ties > 0):
            if d[a] == dk:
                ties -= 1
            sel[c] = a
            c += 1


@njit(cache=True)
def _trimmed(sel, k, v, drop, keep, vals):
    """Eq. 2: the k selected (in index order) without the ``drop`` largest and ``drop`` smallest values of v; among
    equal values at a cut the older observation goes (the newer is kept). Returns how many are kept (into keep)."""
    if drop == 0:
        keep[:k] = sel[:k]
        return k
    for b in range(k):  # vals[:k] = the selected values, vals[k:2k] = the same sorted (insertion sort: k is small)
        x = v[sel[b]]
        vals[b] = x
        c = k + b
        while c > k and vals[c - 1] > x:
            vals[c] = vals[c - 1]
            c -= 1
        vals[c] = x
    lo, hi = vals[k + drop - 1], vals[2 * k - drop]  # the drop-th smallest and the drop-th largest
    eq_lo, eq_hi, below, above = 0, 0, 0, 0
    for b in range(k):
        x = vals[b]
        below += x < lo
        above += x > hi
        eq_lo += x == lo
        eq_hi += x == hi
    keep_lo = eq_lo - (drop - below)  # the newer values equal to lo that stay
    keep_hi = eq_hi - (drop - above)
    if lo == hi:
        keep_lo = keep_hi = eq_lo - (drop - below) - (drop - above)
    m = 0
    for b in range(k):
        x = vals[b]
        if x == lo:
            if keep_lo > 0:
                keep_lo -= 1
                if lo == hi:
                    keep_hi -= 1
                keep[m] = sel[b]
                m += 1
        elif x == hi:
            if keep_hi > 0:
                keep_hi -= 1
                keep[m] = sel[b]
                m += 1
        elif lo < x < hi:
            keep[m] = sel[b]
            m += 1
    return m


@njit(cache=True)
def _knn_values(xq, xo, vo, L, literal, k):
    s, q = xq.shape
    n = xo.shape[0]
    nv = vo.shape[1]
    out = np.empty((s, nv))
    drop = int(math.floor(L * k + 1e-12))
    d = np.empty(n)
    buf = np.empty(n)
    sel = np.empty(max(k, 1), np.int64)
    keep = np.empty(max(k, 1), np.int64)
    vals = np.empty(2 * max(k, 1))
    vcol = np.empty((nv, n))
    for v in range(nv):
        vcol[v] = vo[:, v]
    for r in range(s):
        for a in range(n):
            acc = 0.0
            for c in range(q):
                diff = xq[r, c] - xo[a, c]
                acc += diff * diff
            d[a] = math.sqrt(acc)
        _nearest(d, k, sel, buf)
        for v in range(nv):
            m = _trimmed(sel, k, vcol[v], drop, keep, vals)
            out[r, v] = _weighted(d, vcol[v], keep, m, literal)
    return out


@njit(cache=True)
def _pairwise_mean(a):
    """numpy's ``a.mean()`` of a 1-D array of at most 128 values, the same sum: one pass below 8 values, else 8
    running sums added pairwise, then the rest."""
    n = a.size
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res / n
    r = a[:8].copy()
    i = 8
    while i < n - n % 8:
        for b in range(8):
            r[b] += a[i + b]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[i]
        i += 1
    return res / n


@njit(cache=True)
def _update_column(obs_x, obs_v, p, j, count, head, X, tasks, knn, L, literal, k):
    """:meth:`EstimatorState.update_column` in one call, the same arithmetic: U_j of problem p newest first, an
    unknown ET replaced by the mean of the known ones (by numpy's summation, :func:`_pairwise_mean`), Alg. 1 for
    each task, written into column j of the estimates (ET NaN where U_j holds no known ET)."""
    cap, q = obs_x.shape[2], obs_x.shape[3]
    xo, vo = np.empty((count, q)), np.empty((count, 3))
    known = 0
    for a in range(count):
        h = (head - 1 - a) % cap
        xo[a] = obs_x[p, j, h]
        vo[a] = obs_v[p, j, h]
        known += vo[a, 2] == vo[a, 2]
    if known < count:
        fill = 0.0
        if known:
            values, b = np.empty(known), 0
            for a in range(count):
                if vo[a, 2] == vo[a, 2]:
                    values[b] = vo[a, 2]
                    b += 1
            fill = _pairwise_mean(values)
        for a in range(count):
            if vo[a, 2] != vo[a, 2]:
                vo[a, 2] = fill
    xq = np.empty((tasks.size, X.shape[1]))
    for r in range(tasks.size):
        xq[r] = X[tasks[r]]
    out = _knn_values(xq, xo, vo, L, literal, k)
    for r in range(tasks.size):
        i = tasks[r]
        knn[0, i, j], knn[1, i, j] = out[r, 0], out[r, 1]
        knn[2, i, j] = out[r, 2] if known else np.nan


@njit(cache=True)
def _record(obs_x, obs_v, count, head, max_et, p, j, X, i, t, c, et):
    """Adds task i's observation (X_i; t, c, ET) to the ring U_j of problem p (its oldest goes when it is full) and
    sets the largest known ET in it (NaN if none)."""
    cap = obs_x.shape[2]
    h = head[p, j]
    obs_x[p, j, h] = X[i]
    obs_v[p, j, h, 0], obs_v[p, j, h, 1], obs_v[p, j, h, 2] = t, c, et
    head[p, j] = (h + 1) % cap
    count[p, j] = min(count[p, j] + 1, cap)
    top, any_known = -np.inf, False
    for a in range(count[p, j]):
        v = obs_v[p, j, a, 2]
        if v == v:
            any_known = True
            top = max(top, v)
    max_et[p, j] = top if any_known else np.nan


@njit(cache=True)
def _observe(obs_x, obs_v, count, head, max_et, p, j, X, i, t, c, et, problem, unstarted, knn, L, literal, k_table):
    """:func:`_record` of task i's observation, then :func:`_update_column` of the tasks of ``unstarted`` of the
    same problem (if any): one call for a return."""
    _record(obs_x, obs_v, count, head, max_et, p, j, X, i, t, c, et)
    n = 0
    for x in range(unstarted.size):
        n += problem[unstarted[x]] == p
    if n == 0:
        return
    tasks, n = np.empty(n, np.int64), 0
    for x in range(unstarted.size):
        if problem[unstarted[x]] == p:
            tasks[n] = unstarted[x]
            n += 1
    cnt = count[p, j]
    _update_column(obs_x, obs_v, p, j, cnt, head[p, j], X, tasks, knn, L, literal, k_table[cnt])


@njit(cache=True)
def _fill_columns(obs_x, obs_v, p, count, head, X, tasks, knn, L, literal, k_table):
    """:func:`_update_column` of ``tasks`` (all of problem p) on every processor with observations of p."""
    for j in range(count.shape[1]):
        cnt = count[p, j]
        if cnt > 0:
            _update_column(obs_x, obs_v, p, j, cnt, head[p, j], X, tasks, knn, L, literal, k_table[cnt])


def knn_values(xq, xo, vo, L: float, literal: bool) -> np.ndarray:
    """Alg. 1 for each query row of xq against observations xo (newest first) with values vo (one column per
    quantity: t, c, ET). The k nearest (k = :func:`k_of` of the number of observations, in exact integers; ties at
    the k-th distance: the newer) are L-smoothed on each quantity's values (floor(L k) dropped at each end; at equal
    values the older goes first) and weighted by eq. 4."""
    return _knn_values(xq, xo, vo, float(L), bool(literal), k_of(int(xo.shape[0])))


def knn_estimate(x, X_obs, values, L: float = 0.0, weights: str = "normalised") -> np.ndarray:
    """k-NN estimates (Alg. 1) of the rows of ``x`` from observations ``X_obs`` (newest first) with ``values`` (a
    vector, or one column per quantity)."""
    values = np.asarray(values, float)
    single = values.ndim == 1
    vo = values[:, None] if single else values
    out = knn_values(np.atleast_2d(np.asarray(x, float)), np.asarray(X_obs, float), np.ascontiguousarray(vo), float(L),
                     weights == "literal")
    return out[:, 0] if single else out


class EstimatorState:
    """What the scheduler has learnt: U_j per problem (a ring of the last n), P_j, T per problem, and the k-NN
    estimates (t, c, predicted ET) of every task on every processor with observations."""

    def __init__(self, est: Estimator, problems: np.ndarray, X: np.ndarray, machines: int, n_problems: int):
        self.est, self.problem, self.X = est, problems, X.astype(float)
        # U_j of a problem never holds more than the problem's tasks: the ring needs no more room than that
        n = max(1, min(est.n, int(np.bincount(problems).max()) if problems.size else 1))
        m, q = machines, X.shape[1]
        self.M, self.cap = m, n
        self.obs_x = np.zeros((n_problems, m, n, q))
        self.obs_v = np.zeros((n_problems, m, n, 3))  # t, c, ET
        self.count = np.zeros((n_problems, m), np.int64)
        self.head = np.zeros((n_problems, m), np.int64)
        self.rate = np.zeros(m)  # P_j: Gamma of the Linpack reports
        self.reports = np.zeros(m, np.int64)
        self.T = np.zeros(n_problems)  # Gamma of t P_j per problem (eq. 6)
        self.Cg = np.zeros(n_problems)  # Gamma of c per problem (C when U_j is empty)
        self.returns = np.zeros(n_problems, np.int64)
        self.sum_t = np.zeros(n_problems)
        self.sum_c = np.zeros(n_problems)
        self.sum_et = np.zeros(n_problems)
        self.n_et = np.zeros(n_problems, np.int64)
        self.ETg = np.zeros((n_problems, m))  # Gamma of ET per (problem, processor): error "smoothed"
        self.max_et = np.full((n_problems, m), np.nan)  # the largest ET in U_j (the "worst-max" case)
        self.n_etj = np.zeros((n_problems, m), np.int64)
        self.knn = np.full((3, X.shape[0], m), np.nan)  # t, c, ET: one contiguous (N, M) matrix each
        self.use_knn = est.method == "knn" or est.error == "knn"
        self.k_table = [k_of(c) for c in range(n + 1)]  # k of Alg. 1 for each size of U_j
        self.k_array = np.array(self.k_table, np.int64)
        self.mean_et = None  # each problem's mean ET as :meth:`mean_errors` reads it, until an ET is observed
        self.every_et = False  # whether every problem had an ET when mean_et was made

    # --- updates ---------------------------------------------------------------------------------
    def report_rate(self, j: int, value: float) -> None:
        """A Linpack report of processor j (sent when it requests and when it returns a task)."""
        self.rate[j] = gamma_step(self.rate[j], value, self.est.nu, self.reports[j] == 0)
        self.reports[j] += 1

    def observe(self, i: int, j: int, t: float, c: float, et: float, unstarted: np.ndarray) -> None:
        """Task i returned from processor j after t seconds of computation and c of communication, with the
        estimation error ET of the estimate it was dispatched with (NaN if none); steps (3)-(4) of section 2, and
        column j of the k-NN estimates of ``unstarted`` tasks of the same problem."""
        p, nu = self.problem[i], self.est.nu
        if self.use_knn:  # the ring, then column j of the k-NN estimates of the problem's unstarted tasks
            _observe(self.obs_x, self.obs_v, self.count, self.head, self.max_et, int(p), int(j), self.X, int(i),
                     float(t), float(c), float(et), self.problem, unstarted, self.knn, float(self.est.L),
                     self.est.weights == "literal", self.k_array)
        else:
            _record(self.obs_x, self.obs_v, self.count, self.head, self.max_et, int(p), int(j), self.X, int(i),
                    float(t), float(c), float(et))
        first = self.returns[p] == 0
        self.T[p] = gamma_step(self.T[p], t * self.rate[j], nu, first)
        self.Cg[p] = gamma_step(self.Cg[p], c, nu, first)
        self.returns[p] += 1
        self.sum_t[p] += t
        self.sum_c[p] += c
        if et == et:
            self.ETg[p, j] = gamma_step(self.ETg[p, j], et, nu, self.n_etj[p, j] == 0)
            self.n_etj[p, j] += 1
            self.sum_et[p] += et
            self.n_et[p] += 1
            if self.mean_et is not None and self.n_et[p] > 1 and self.every_et:  # only p's mean moved
                self.mean_et = self.mean_et.copy()  # (an array returned before keeps its values)
                self.mean_et[p] = self.sum_et[p] / self.n_et[p]
            else:
                self.mean_et = None

    def neighbours(self, p: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        """U_j of problem p, newest first: (X, values t, c, ET)."""
        cnt, h, n = self.count[p, j], self.head[p, j], self.cap
        idx = (h - 1 - np.arange(cnt)) % n
        return self.obs_x[p, j, idx], self.obs_v[p, j, idx]

    def update_column(self, p: int, j: int, tasks: np.ndarray) -> None:
        """The k-NN estimates of ``tasks`` (all of problem p) on processor j (:func:`_update_column`)."""
        count = int(self.count[p, j])
        _update_column(self.obs_x, self.obs_v, int(p), int(j), count, int(self.head[p, j]), self.X, tasks, self.knn,
                       float(self.est.L), self.est.weights == "literal", self.k_table[count])

    def update_column_plain(self, p: int, j: int, tasks: np.ndarray) -> None:
        """:meth:`update_column` step by step in numpy (the reference the kernel is tested against)."""
        xo, vo = self.neighbours(p, j)
        known = vo[:, 2] == vo[:, 2]
        if not known.all():  # ET unknown for tasks dispatched without an estimate: use the others' mean
            vo[~known, 2] = vo[known, 2].mean() if known.any() else 0.0  # vo is a copy (fancy indexing)
        self.knn[:, tasks, j] = knn_values(self.X[tasks], xo, vo, self.est.L, self.est.weights == "literal").T
        if not known.any():  # only round-robin returns on j: no error to predict from; estimates() uses the mean ET
            self.knn[2, tasks, j] = np.nan

    def fill_rows(self, tasks: np.ndarray) -> None:
        """k-NN estimates of newly released tasks on every processor with observations of their problem."""
        if not self.use_knn:
            return
        problems = self.problem[tasks]
        for p in np.unique(problems).tolist():
            _fill_columns(self.obs_x, self.obs_v, p, self.count, self.head, self.X, tasks[problems == p], self.knn,
                          float(self.est.L), self.est.weights == "literal", self.k_array)

    # --- what the scheduler sees ------------------------------------------------------------------
    def mean_errors(self) -> np.ndarray:
        """Each problem's mean ET; before any of its errors is known, the mean over every problem; before any error
        at all, 0 (kept until the next ET is observed)."""
        if self.mean_et is None:
            counts = self.n_et
            total = int(counts.sum())
            overall = self.sum_et.sum() / total if total else 0.0  # numpy's sum, as the one of the array
            self.mean_et = np.divide(self.sum_et, counts, out=np.full(counts.size, float(overall)), where=counts > 0)
            self.every_et = bool((counts > 0).all())  # then an ET moves its own problem's mean only
        return self.mean_et

    def known(self, tasks: np.ndarray) -> np.ndarray:
        """Tasks whose problem has at least one observation (the others are mapped round robin, section 2.2)."""
        return self.returns[self.problem[tasks]] > 0

    def worst_error(self, tasks: np.ndarray, procs: np.ndarray | None, err: np.ndarray) -> np.ndarray:
        """The largest ET in U_j of each task's problem (on every processor, or on procs[s]); ``err`` where U_j holds
        no error yet (the "worst-max" reading of section 3.1's worst case,
        docs/models/estimation.md)."""
        p = self.problem[tasks]
        worst = self.max_et[p] if procs is None else self.max_et[p, procs]
        return np.where(worst == worst, worst, err)

    def planned_estimates(self, tasks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`estimates` of ``tasks`` on every processor, and the planned time of the best case, ETC + C."""
        est = self.est
        if est.method == "knn" and est.error == "knn":  # the defaults: one pass
            p = self.problem[tasks]
            return kernels.knn_planned_estimates(self.knn, tasks, p, self.count, self.T, self.rate, self.Cg,
                                                 self.mean_errors()[p])
        etc, c, err = self.estimates(tasks)
        return etc, c, err, etc + c

    def estimates(self, tasks: np.ndarray,
                  procs: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """ETC, C and the predicted ET of ``tasks`` (all of known problems) on every processor, (S, M) each; with
        ``procs``, of each task on its own processor procs[s] only, (S,) each."""
        p = self.problem[tasks]
        est = self.est
        mean_et = self.mean_errors()[p]
        if est.method == "knn" and est.error == "knn":  # the defaults: one pass, no temporaries
            if procs is None:
                return kernels.knn_estimates(self.knn, tasks, p, self.count, self.T, self.rate, self.Cg, mean_et)
            return kernels.knn_pair_estimates(self.knn, tasks, procs, p, self.count, self.T, self.rate, self.Cg,
                                              mean_et)
        if procs is None:
            has, cols, per = self.count[p] > 0, slice(None), (lambda a: a[:, None])  # (S, M)
            knn = self.knn[:, tasks] if self.use_knn else None
            shape = (tasks.size, self.M)
        else:
            has, cols, per = self.count[p, procs] > 0, procs, (lambda a: a)  # (S,)
            knn = self.knn[:, tasks, procs] if self.use_knn else None
            shape = (tasks.size,)
        mean_et = per(mean_et)
        if est.method == "knn":
            etc = np.where(has, knn[0], per(self.T[p]) / self.rate[cols])
            comm = np.where(has, knn[1], per(self.Cg[p]))
        elif est.method == "smoothed":
            etc = per(self.T[p]) / self.rate[cols]
            comm = np.broadcast_to(per(self.Cg[p]), shape).copy()
        else:
            ret = np.maximum(self.returns[p], 1)
            etc = np.broadcast_to(per(self.sum_t[p] / ret), shape).copy()
            comm = np.broadcast_to(per(self.sum_c[p] / ret), shape).copy()
        if est.error == "knn":
            err = np.where(has & (knn[2] == knn[2]), knn[2], mean_et)  # NaN: U_j holds no error yet
        elif est.error == "smoothed":
            rows = self.ETg[p] if procs is None else self.ETg[p, procs]
            seen = self.n_etj[p] if procs is None else self.n_etj[p, procs]
            err = np.where(seen > 0, rows, mean_et)
        else:
            err = np.broadcast_to(mean_et, shape).copy()
        return etc, comm, err


def warm_up() -> None:
    """Compile the k-NN ring's kernels as a run calls them: a release, a return, a column refreshed."""
    state = EstimatorState(Estimator(), np.zeros(2, np.int64), np.ones((2, 1)), 2, 1)
    state.fill_rows(np.arange(2))
    state.observe(0, 0, 1.0, 0.5, 0.1, np.arange(1, 2))
    state.update_column(0, 0, np.arange(1, 2))
