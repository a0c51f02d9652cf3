"""The estimation model's costs that grow with the decision, not with the history: the heap form of Alg. 2
for FA, FE and FZ (kernels.greedy) against heuristics.greedy and a brute-force reading, and whole runs unchanged."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_estimation import brute_force

from hcsched import trial_runs
from hcsched.models.estimation import MODEL, engine
from hcsched.models.estimation import alg2 as H
from hcsched.models.estimation import estimators as est_mod
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


class _Knowledge:
    """What CarriedFA reads of an EstimatorState (problem, count, knn, T, rate, Cg), driven by hand: small whole
    numbers, so that costs tie within and across processors, observed or not."""

    def __init__(self, rng, n, m, n_problems):
        self.rng = rng
        self.problem = rng.integers(0, n_problems, n)
        self.count = np.zeros((n_problems, m), np.int64)
        self.knn = rng.integers(1, 5, (3, n, m)).astype(float)
        self.T, self.Cg = rng.integers(1, 8, n_problems).astype(float), rng.integers(0, 3, n_problems).astype(float)
        self.rate = rng.choice([1.0, 2.0, 4.0], m)

    def matrix(self, tasks):
        """e = ETC + C of every task on every processor, as the engine computes it without CarriedFA."""
        p = self.problem[tasks]
        etc, c, _ = K.knn_estimates(self.knn, tasks, p, self.count, self.T, self.rate, self.Cg, np.zeros(tasks.size))
        return etc + c


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 100_000), st.integers(1, 9), st.integers(1, 6), st.sampled_from(["lowest", "last"]))
def test_carried_fa_is_alg2_at_every_event(seed, n_waiting, m, ties):
    """CarriedFA's picks against kernels.greedy on the whole (S, M) matrix at each event of a random history: tasks
    arrive and start, returns give processors their first observations of a problem and change k-NN columns (told
    to CarriedFA as the engine does), T, C and P_j move, loads rise and fall to 0, costs tie everywhere."""
    rng = np.random.default_rng(seed)
    n, n_problems = 40, 3
    know = _Knowledge(rng, n, m, n_problems)
    carry = K.CarriedFA(n, m, ties == "last")
    waiting, next_task = [], 0
    for _ in range(12):
        # arrivals (their estimates are read before they wait, as fill_rows does) and starts
        while len(waiting) < n_waiting and next_task < n:
            waiting.append(next_task)
            next_task += 1
        tasks = np.array(sorted(waiting), np.int64)
        known = tasks[np.isin(know.problem[tasks], np.flatnonzero(know.count.sum(axis=1) > 0))]
        st0 = np.where(rng.random(m) < 0.4, 0.0, rng.integers(0, 6, m).astype(float))
        idle = st0 == 0.0
        stop_early = bool(rng.random() < 0.5)
        if known.size:
            got = carry.map(know, known, st0, idle, stop_early)
            e = know.matrix(known)
            want = K.greedy(H.FA, e, e, st0, 1.0, True, idle, stop_early, ties)
            assert got is not None and got.tolist() == want.tolist()
            for r in got[:rng.integers(0, got.shape[0] + 1), 0]:  # some mapped tasks start
                waiting.remove(int(known[r]))
        # returns: a problem's column on a processor changes (first observation or new neighbours), P_j, T, C move
        for _ in range(rng.integers(0, 3)):
            p, j = int(rng.integers(n_problems)), int(rng.integers(m))
            know.count[p, j] += 1
            mine = [i for i in waiting if know.problem[i] == p]
            know.knn[:2, mine, j] = rng.integers(1, 5, (2, len(mine)))
            carry.column_changed(p, j)
            know.T[p], know.Cg[p] = rng.integers(1, 8), rng.integers(0, 3)
            know.rate[j] = rng.choice([1.0, 2.0, 4.0])
        # a task not waiting may see its estimates change without notice (the engine updates waiting tasks only)
        later = np.arange(next_task, n)
        know.knn[:2, later] = rng.integers(1, 5, (2, later.size, m))


def test_carried_fa_gives_way_on_nan():
    """A NaN estimate has no order: CarriedFA says so (None) and stays out of the run."""
    rng = np.random.default_rng(3)
    know = _Knowledge(rng, 6, 3, 1)
    know.count[0, 1] = 1
    know.knn[0, 2, 1] = np.nan
    carry = K.CarriedFA(6, 3, False)
    assert carry.map(know, np.arange(6), np.zeros(3), np.ones(3, np.bool_), True) is None
    know.knn[0, 2, 1] = 1.0
    assert carry.map(know, np.arange(6), np.zeros(3), np.ones(3, np.bool_), True) is None and not carry.ok


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_runs_with_fa_carried_are_unchanged(monkeypatch, seed):
    """Whole runs of FA (both tie rules) with CarriedFA and with every event's full matrix and kernels.greedy: the
    same schedules, to the bit; a system scaled up so that many tasks wait on many processors."""
    base = MODEL.tiny()
    spec = base.spec
    problems = tuple(dataclasses.replace(p, stages=tuple(3 * s for s in p.stages)) for p in spec.problems)
    sc = base.replace(heuristics=["fa", {"name": "fa", "ties": "last"}], seed=seed, problems=problems,
                      processors=dataclasses.replace(spec.processors, count=3 * spec.processors.count))
    monkeypatch.setattr(engine, "CARRY_FROM", 0)  # a small system: CarriedFA only when asked
    calls = []
    real = K.CarriedFA.map
    monkeypatch.setattr(K.CarriedFA, "map", lambda self, *a: calls.append(1) or real(self, *a))
    fast = _schedules(sc)
    assert len(calls) > 10
    monkeypatch.setattr(engine._Sim, "_carried", lambda self: False)
    slow = _schedules(sc)
    for label in fast:
        for column in ("machine", "start", "finish"):
            a, b = getattr(fast[label], column), getattr(slow[label], column)
            assert np.array_equal(a, b, equal_nan=True), (label, column)


@pytest.mark.parametrize("kind", MONOTONE)
@pytest.mark.parametrize("ties", ["lowest", "last"])
def test_alg2_when_one_task_is_every_processors_best(kind, ties):
    """The case that makes the processors' view scan every column at each pick (identical processors, all idle, one
    smallest task the best of all): it hands over to the tasks' heaps midway, with the same picks as Alg. 2."""
    rng = np.random.default_rng(11)
    s, m = 90, 50
    e = np.outer(rng.permutation(s) + 1.0, np.ones(m))
    e[:, 7] = e[:, 3]  # and equal columns
    w = np.where(rng.random((s, m)) < 0.5, 0.5, 2.0) if kind != H.FA else e
    st0 = np.zeros(m)
    for stop_early in (False, True):
        want = H.greedy(kind, e, w, st0, 0.3, True, st0 == 0.0, stop_early, ties)
        assert K.greedy(kind, e, w, st0, 0.3, True, st0 == 0.0, stop_early, ties).tolist() == want.tolist()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([H.LA, H.LE, H.LZ]), st.integers(1, 9), st.integers(0, 10_000), st.booleans(), st.booleans())
def test_load_kinds_row_scan_is_the_generic_one(kind, m, seed, once, last):
    """The load-balancing kinds' row scan (costs first, then the best) against the generic per-pair one, bit for bit:
    small integer costs make ties, a NaN has no order."""
    rng = np.random.default_rng(seed)
    e = rng.integers(1, 6, (3, m)).astype(float)
    e[rng.random((3, m)) < 0.05] = np.nan
    wb = rng.choice([0.05, 0.2, 0.5, 1.5], (3, m))
    st0 = rng.integers(0, 5, m).astype(float)
    m_max, st_sum = st0.max(), st0.sum()
    for i in range(3):
        got = H._row_best_load(kind, e, wb, st0, i, m_max, st_sum, once, last, np.empty(m))
        want = H._row_best(kind, e, wb, np.zeros_like(e), st0, i, m_max, st_sum, once, last)
        assert got[1] == want[1] and np.float64(got[0]).tobytes() == np.float64(want[0]).tobytes()


@pytest.mark.parametrize("n", list(range(1, 129)))
def test_pairwise_mean_is_numpys(n):
    a = np.random.default_rng(n).lognormal(-2.0, 2.0, n)
    assert est_mod._pairwise_mean(a) == a.mean()


@pytest.mark.parametrize("weights", ["normalised", "literal"])
@pytest.mark.parametrize("seed", range(4))
def test_column_kernel_is_the_numpy_column(weights, seed):
    """One call (:func:`.estimators._update_column`) against the step-by-step column, bit for bit, with unknown ETs
    (none, some, all of U_j) and rings that wrap."""
    rng = np.random.default_rng(seed)
    n_tasks, m = 60, 3
    problem = rng.integers(0, 2, n_tasks)
    X = rng.random((n_tasks, 2)) * 10
    est = Estimator(n=8, weights=weights)
    a, b = (EstimatorState(est, problem, X, m, 2) for _ in range(2))
    for step in range(80):
        i, j = int(rng.integers(n_tasks)), int(rng.integers(m))
        et = np.nan if rng.random() < (0.9 if j == 0 else 0.3) else float(rng.random())
        t, c = float(rng.lognormal()), float(rng.random())
        waiting = np.flatnonzero(rng.random(n_tasks) < 0.5)
        a.observe(i, j, t, c, et, waiting)
        b.observe(i, j, t, c, et, np.array([], np.int64))
        mine = waiting[problem[waiting] == problem[i]]
        if mine.size:
            b.update_column_plain(int(problem[i]), j, mine)
        assert a.knn.tobytes() == b.knn.tobytes(), step
        ring = a.obs_v[problem[i], j, :a.count[problem[i], j], 2]
        known = ring[ring == ring]
        assert np.array_equal(a.max_et[problem[i], j], known.max() if known.size else np.nan, equal_nan=True)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 90, 257])
def test_local_search_objective_is_max_plus_sum_in_order(n):
    """The one-pass objective of the local searches against max + the sum in index order (numba's ``sum``)."""
    load = np.random.default_rng(n).lognormal(3.0, 2.0, n)
    total = 0.0
    for v in load:
        total += v
    assert H._objective(load) == load.max() + total / (1000.0 * n)


def test_tabu_pruned_by_its_bound_takes_the_same_moves():
    """Tabu skipping the moves whose objective's lower bound shows they cannot be taken returns what it returns
    evaluating every move: ties (integer times, equal processors), zero loads and planned times, tabu moves."""
    rng = np.random.default_rng(3)
    for trial in range(300):
        s, m = int(rng.integers(1, 40)), int(rng.integers(2, 10))
        e = rng.lognormal(2.0, 1.5, (s, m))
        if trial % 3 == 0:
            e = np.round(e)
        if trial % 5 == 0:
            e[:] = e[:, :1]
        st0 = rng.uniform(0, 20, m) if trial % 2 else np.zeros(m)
        args = (e, st0, rng.integers(0, m, s), False, int(rng.integers(1, 150)), int(rng.integers(0, 8)),
                int(rng.integers(1, 25)), 0.05, 0.99, trial)
        assert np.array_equal(H.local_search(*args, True), H.local_search(*args, False)), trial


def test_tabu_bound_is_below_the_objective():
    """The lower bound of a move's objective against the objective, over many random moves."""
    rng = np.random.default_rng(4)
    for _ in range(2000):
        m = int(rng.integers(2, 50))
        load = rng.lognormal(3.0, 2.0, m) * (rng.random(m) < 0.8)
        a, j = rng.choice(m, 2, replace=False)
        la, lj = load[a] * rng.random(), load[j] + rng.lognormal(3.0, 2.0)
        moved = load.copy()
        moved[a], moved[j] = la, lj
        slack = 2.0 * (m + 16) * 2.0 ** -52
        bound = H._objective_floor(load, H._top3(load), a, la, j, lj, load.sum(), slack)
        assert bound <= H._objective(moved)
        assert bound > H._objective(moved) * (1 - 1e-9)  # and close to it when loads are exact


@pytest.mark.parametrize("seed", range(3))
def test_released_rows_are_the_numpy_columns(seed):
    """The k-NN rows of newly released tasks of two problems (:meth:`EstimatorState.fill_rows`, one kernel call per
    problem) against the step-by-step column of each processor with observations, bit for bit."""
    rng = np.random.default_rng(seed)
    problem = rng.integers(0, 2, 60)
    X = rng.random((60, 2)) * 10
    a, b = (EstimatorState(Estimator(n=8), problem, X, 4, 2) for _ in range(2))
    for _ in range(25):
        i, j = int(rng.integers(60)), int(rng.integers(3))  # processor 3 never observes
        et = np.nan if rng.random() < 0.3 else float(rng.random())
        t, c = float(rng.lognormal()), float(rng.random())
        for s in (a, b):
            s.observe(i, j, t, c, et, np.array([], np.int64))
    released = np.flatnonzero(rng.random(60) < 0.5)
    a.fill_rows(released)
    for p in range(2):
        for j in np.flatnonzero(b.count[p] > 0):
            b.update_column_plain(p, int(j), released[problem[released] == p])
    assert np.array_equal(a.knn, b.knn, equal_nan=True) and np.isfinite(a.knn[0, released, :3]).any()
