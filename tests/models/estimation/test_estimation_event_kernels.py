"""The estimation model's per-event kernels against the numpy arithmetic they replace: the per-pair k-NN estimates,
each problem's mean ET and EW (eq. 10)."""

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
