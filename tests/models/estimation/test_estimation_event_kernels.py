"""The estimation model's per-event kernels against the numpy arithmetic they replace: the per-pair k-NN estimates,
the planned times of running tasks, each problem's mean ET, EW (eq. 10) and the load kinds' row best."""

import numpy as np
import pytest

from hcsched.models.estimation import kernels as K
from hcsched.models.estimation.error import ew
from hcsched.models.estimation.estimators import EstimatorState
from hcsched.models.estimation.spec import Estimator


def _state(seed):
    """Two problems on six processors, some returns with an unknown ET (round robin), some processors unobserved."""
    rng = np.random.default_rng(seed)
    problems = np.repeat([0, 1], 30)
    est = EstimatorState(Estimator(n=10, L=0.1), problems, rng.integers(0, 9, (60, 2)), 6, 2)
    for j in range(6):
        est.report_rate(j, 900.0 + 40 * j)
    unstarted = np.arange(40, 60)
    for k, (i, j) in enumerate([(0, 0), (1, 0), (2, 3), (30, 1), (31, 5), (3, 3), (32, 1)]):
        et = np.nan if k in (0, 1, 3, 6) else rng.random() / 3
        est.observe(i, j, 50.0 + rng.random() * 20, 1.0 + rng.random(), et, unstarted)
    return est


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pair_estimates_are_the_numpy_reading(seed):
    """knn_pair_estimates (through EstimatorState.estimates with procs) against np.where over the stored k-NN
    estimates, T / P_j, Gamma of c and the mean ET, bit for bit."""
    est = _state(seed)
    tasks = np.repeat(np.arange(40, 60), 6)
    procs = np.tile(np.arange(6), 20)
    p = est.problem[tasks]
    has = est.count[p, procs] > 0
    knn = est.knn[:, tasks, procs]
    mean_et = est.mean_errors()[p]
    expected = (np.where(has, knn[0], est.T[p] / est.rate[procs]), np.where(has, knn[1], est.Cg[p]),
                np.where(has & (knn[2] == knn[2]), knn[2], mean_et))
    got = est.estimates(tasks, procs)
    assert (~has).any() and (has & (knn[2] != knn[2])).any()  # both fallbacks are exercised
    for a, b in zip(got, expected, strict=True):
        assert a.dtype == np.float64 and np.array_equal(a, b)


def test_mean_errors_are_numpys_and_follow_the_observations():
    """Each problem's mean ET, the overall mean before a problem's first ET, 0 before any; recomputed after an ET."""
    est = _state(0)
    first = est.mean_errors()
    overall = est.sum_et.sum() / est.n_et.sum()
    assert np.array_equal(first, np.where(est.n_et > 0, est.sum_et / np.maximum(est.n_et, 1), overall))
    est.observe(33, 2, 60.0, 1.5, 0.25, np.arange(40, 60))
    assert est.mean_errors()[1] == est.sum_et[1] / est.n_et[1] != first[1]
    empty = EstimatorState(Estimator(n=10), np.zeros(4, np.int64), np.zeros((4, 1)), 2, 1)
    assert empty.mean_errors().tolist() == [0.0]


def test_error_weights_are_ew():
    """EW in one pass against error.ew: zeros, an infinite ratio, 0/0 and values below eps."""
    rng = np.random.default_rng(3)
    err, etc, comm = rng.random((7, 5)), rng.random((7, 5)) * 10, rng.random((7, 5))
    err[0, 0], etc[1, 1], err[2, 2], etc[2, 2], comm[3, 3] = 0.0, 0.0, 0.0, 0.0, 1e-12
    got = K.error_weights(err, etc, comm, 1e-6)
    assert np.array_equal(got, ew(err, etc, comm, 1e-6))
    assert got[1, 1] == 1e6 and got[2, 2] == 1e-6 == got[0, 0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_running_plans_are_the_pair_estimates_added(seed):
    """The planned ETC + C of running tasks in one call against the pair estimates' ETC + C, bit for bit; a task of
    a problem without returns leaves its processor's entry as it was."""
    est = _state(seed)
    running = np.array([40, 5, 50, 15, 59, 25])  # problems 1, 0, 1, 0, 1, 0
    est.returns[1] = 0 if seed == 2 else est.returns[1]
    plan = np.full(6, np.nan)
    K.running_plans(plan, np.arange(6), running, est.problem, est.returns, est.knn, est.count, est.T, est.rate,
                    est.Cg)
    etc, c, _ = est.estimates(running, np.arange(6))
    known = est.returns[est.problem[running]] > 0
    assert np.array_equal(plan[known], (etc + c)[known], equal_nan=True) and np.isnan(plan[~known]).all()
    assert known.any() and (seed != 2 or not known.all())


def test_mean_errors_follow_every_observation_once_each_problem_has_an_et():
    """After each further ET the kept means (one problem's moved at a time) equal those computed from scratch."""
    est = _state(0)
    rng = np.random.default_rng(5)
    for k in range(12):
        est.mean_errors()
        est.observe(40 + k, k % 6, 60.0, 1.0, rng.random(), np.arange(52, 60))
        kept = est.mean_errors().copy()
        est.mean_et = None
        assert np.array_equal(kept, est.mean_errors())
    assert (est.n_et > 1).all()


@pytest.mark.parametrize("last", [False, True])
def test_load_rows_pick_as_the_scan_of_every_pair(last):
    """The load kinds' row best (four running minima, then the position) against the scan of ``alg2._row_best``:
    ties, NaN first and elsewhere, infinities."""
    from hcsched.models.estimation import alg2 as A
    rng = np.random.default_rng(7)
    for trial in range(300):
        m = int(rng.integers(1, 11))
        e = rng.integers(1, 4, (1, m)).astype(float)
        w = rng.choice([0.5, 1.0, 2.0, np.inf], (1, m))
        if trial % 3 == 0:
            e[0, rng.integers(m)] = np.nan
        st = rng.integers(0, 4, m).astype(float)
        for kind in (A.LA, A.LE, A.LZ):
            for once in (True, False):
                args = (st.max(), st.sum(), once, last)
                got = A._row_best_load(kind, e, w, st, 0, *args, np.empty(m))
                want = A._row_best(kind, e, w, e, st, 0, *args)
                assert got[1] == want[1] and np.array_equal(got[0], want[0], equal_nan=True), (trial, kind)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_planned_estimates_are_the_estimates_and_their_sum(seed):
    """The estimates with the best case's planned time in one pass: the (S, M) estimates bit for bit, and ETC + C."""
    est = _state(seed)
    tasks = np.arange(40, 60)
    etc, c, err = est.estimates(tasks)
    got = est.planned_estimates(tasks)
    for a, b in zip(got, (etc, c, err, etc + c), strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_relative_loads_are_the_running_plans_or_zero(seed):
    """ST as printed in one call: the kept planned times, those of the tasks without one read now, 0 where none is
    finite (an idle processor, a task of a problem without returns)."""
    est = _state(seed)
    running = np.array([40, 5, -1, 15, 59, 25])
    est.returns[1] = 0 if seed == 2 else est.returns[1]
    kept = np.array([np.nan, 7.5, np.nan, np.nan, np.nan, 3.0])
    procs = np.array([0, 3, 4])
    plan = kept.copy()
    K.running_plans(plan, procs, running, est.problem, est.returns, est.knn, est.count, est.T, est.rate, est.Cg)
    got = K.relative_loads(kept, procs, running, est.problem, est.returns, est.knn, est.count, est.T, est.rate, est.Cg)
    assert np.array_equal(got, np.where(np.isfinite(plan), plan, 0.0)) and np.isnan(kept[0])
    assert got[2] == 0.0 and (got[[1, 5]] == [7.5, 3.0]).all() and (seed != 2 or got[0] == got[4] == 0.0)


def test_queue_heads_are_the_queues_filled_pair_by_pair():
    """Each processor's first task and where each task first waits, against appending the pairs to the queues one
    by one: behind a running task, a queued one or an earlier pair; a task queued before keeps its processor."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        n, m = int(rng.integers(1, 30)), int(rng.integers(1, 8))
        k = int(rng.integers(1, n + 1))
        picked, to = rng.permutation(n)[:k], rng.integers(0, m, k)
        first = np.where(rng.random(n) < 0.3, rng.integers(0, m, n), -1)
        busy, dealt = rng.random(m) < 0.4, rng.random(m) < 0.2
        queues = [[-5] if d else [] for d in dealt]
        want = first.copy()
        for i, b in zip(picked.tolist(), to.tolist(), strict=True):
            if want[i] < 0 and (queues[b] or busy[b]):
                want[i] = b
            queues[b].append(i)
        got = first.copy()
        running = np.where(busy, 99, -1)
        procs, heads = K.queue_heads(picked, to, got, running, np.flatnonzero(dealt))
        assert np.array_equal(got, want)
        free = [j for j, q in enumerate(queues) if q and not busy[j] and not dealt[j]]
        assert procs.tolist() == free and heads.tolist() == [queues[j][0] for j in free]
