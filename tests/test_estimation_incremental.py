"""The estimation model's costs that grow with the decision, not with the history (issue 21): the heap form of Alg. 2
for FA, FE and FZ (kernels.greedy) against heuristics.greedy and a brute-force reading, and whole runs unchanged."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_estimation import brute_force

from hcsched import trial_runs
from hcsched.models.estimation import MODEL, engine
from hcsched.models.estimation import heuristics as H
from hcsched.models.estimation import kernels as K
from hcsched.models.estimation.estimators import EstimatorState
from hcsched.models.estimation.spec import Estimator

MONOTONE = [H.FA, H.FE, H.FZ]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(MONOTONE), st.integers(1, 7), st.integers(1, 5), st.integers(0, 10_000),
       st.sampled_from(["lowest", "last"]), st.booleans())
def test_heap_alg2_is_alg2(kind, s, m, seed, ties, stop_early):
    """Small integer costs: many ties, which the heaps must break as the linear scan does."""
    rng = np.random.default_rng(seed)
    e = rng.integers(1, 6, (s, m)).astype(float)
    w = rng.choice([0.05, 0.2, 0.5, 1.5], (s, m))
    st0 = rng.integers(0, 5, m).astype(float)
    idle = rng.random(m) < 0.5
    got = K.greedy(kind, e, w, st0, 0.5, True, idle, stop_early, ties)
    assert got.tolist() == H.greedy(kind, e, w, st0, 0.5, True, idle, stop_early, ties).tolist()
    if not stop_early:
        assert got.tolist() == brute_force(kind, e, w, st0, 0.5, True, ties)


@pytest.mark.parametrize("kind", MONOTONE)
@pytest.mark.parametrize("ties", ["lowest", "last"])
def test_heap_alg2_when_every_task_prefers_the_same_processors(kind, ties):
    """The case that made an event O(S^2 M): one processor ranking shared by every task, so each pick makes every
    task's best stale; many idle processors, and equal costs on whole columns."""
    rng = np.random.default_rng(7)
    s, m = 120, 60
    e = np.outer(rng.integers(1, 40, s), 1.0 + np.arange(m) / m)
    e[:, 5:9] = 30.0  # equal costs down whole columns
    w = rng.random((s, m)) + 0.01
    st0 = np.where(rng.random(m) < 0.7, 0.0, rng.random(m) * 50)
    idle = st0 == 0.0
    for stop_early in (False, True):
        want = H.greedy(kind, e, w, st0, 0.3, True, idle, stop_early, ties)
        assert K.greedy(kind, e, w, st0, 0.3, True, idle, stop_early, ties).tolist() == want.tolist()


def test_other_kinds_and_nan_costs_are_left_to_heuristics_greedy():
    e = np.array([[1.0, np.nan], [2.0, 1.0], [np.nan, 3.0]])
    w = np.full_like(e, 0.5)
    for kind in range(10):
        assert K.greedy(kind, e, w, np.zeros(2)).tolist() == H.greedy(kind, e, w, np.zeros(2)).tolist()


def _schedules(scenario):
    return {label: run.schedule for label, run in trial_runs(scenario, 0).items()}


@pytest.mark.parametrize("mapping", ["return", "release"])
def test_runs_are_unchanged_with_the_heap_alg2(monkeypatch, mapping):
    """Every heuristic of a scenario with ties and both cases: the same schedules, to the bit, as with
    heuristics.greedy."""
    sc = MODEL.tiny().replace(heuristics=["fa", {"name": "fa", "ties": "last"}, "fe", "fz", {"name": "fz", "beta": 0.1},
                                          {"name": "fz", "case": "worst"}, {"name": "fe", "case": "worst-max"}, "la"],
                              mapping=mapping)
    fast = _schedules(sc)
    monkeypatch.setattr(engine.K, "greedy", H.greedy)
    slow = _schedules(sc)
    assert fast.keys() == slow.keys()
    for label in fast:
        for column in ("machine", "start", "finish"):
            a, b = getattr(fast[label], column), getattr(slow[label], column)
            assert np.array_equal(a, b, equal_nan=True), (label, column)
    assert not pd.Series([fast[k].machine.tolist() == fast["fa"].machine.tolist() for k in fast]).all()


def test_knn_estimates_in_one_pass_are_the_per_pair_estimates():
    """The (S, M) k-NN estimates of one pass (kernels.knn_estimates) against the per-pair path of
    EstimatorState.estimates: processors with and without observations of each problem, tasks of two problems."""
    rng = np.random.default_rng(5)
    problems = np.repeat([0, 1], 30)
    X = rng.integers(0, 9, (60, 2))
    est = EstimatorState(Estimator(n=10, L=0.1), problems, X, 6, 2)
    for j in range(6):
        est.report_rate(j, 900.0 + 40 * j)
    unstarted = np.arange(40, 60)
    for k, (i, j) in enumerate([(0, 0), (1, 0), (2, 3), (30, 1), (31, 5), (3, 3), (32, 1)]):
        est.observe(i, j, 50.0 + 7 * k, 1.0 + k / 10, np.nan if k == 0 else 0.1 * k, unstarted)
    tasks = np.concatenate([unstarted[:5], unstarted[-5:]])
    whole = est.estimates(tasks)
    pairs = est.estimates(np.repeat(tasks, 6), np.tile(np.arange(6), tasks.size))
    for a, b in zip(whole, pairs, strict=True):
        assert a.shape == (10, 6) and np.array_equal(a, b.reshape(10, 6))
    assert np.isfinite(whole[0]).all() and (est.count[problems[tasks]] == 0).any()
