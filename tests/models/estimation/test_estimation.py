"""The estimation model of Page, Keane and Naughton: worked examples by hand (section 2.1's k), estimators alone,
the Alg. 2 template against a brute-force reading, engine invariants, traces and presets."""

import math

import numpy as np
import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, Scenario, simulate, trial_runs
from hcsched.models.estimation import MODEL
from hcsched.models.estimation import alg2 as H
from hcsched.models.estimation import heuristics as HE
from hcsched.models.estimation.error import case_time, ccr, efficiency, et, ew
from hcsched.models.estimation.estimators import EstimatorState, k_of, knn_estimate, knn_values, smoothed
from hcsched.models.estimation.spec import Estimator
from hcsched.models.estimation.traces import read_trace, write_trace

EXAMPLES = ROOT / "assets" / "examples"


# --- worked examples by hand ------------------------------------------------------------------------------------------
def test_k_is_the_smallest_integer_with_k5_at_least_n4():
    assert k_of(100) == 40 and k_of(10_000) == 1585  # section 2.1
    assert [k_of(n) for n in (1, 2, 3, 4, 5, 10, 32)] == [1, 2, 3, 4, 4, 7, 16]
    assert math.ceil(32 ** 0.8) == 17  # why k is computed in integers
    for n in range(1, 3000):
        k = k_of(n)
        assert k ** 5 >= n ** 4 and (k - 1) ** 5 < n ** 4


def test_weights_normalised_and_literal_eq4():
    x_obs, t = [[1.0], [3.0]], [10.0, 20.0]  # d = (1, 3) from the query at 0; k(2) = 2
    assert knn_estimate([[0.0]], x_obs, t)[0] == pytest.approx(12.5)  # w = (0.75, 0.25)
    assert knn_estimate([[0.0]], x_obs, t, weights="literal")[0] == pytest.approx(200 / 3)  # w = (4, 4/3)


def test_l_smoothing_drops_floor_lk_at_each_end():
    # n = 46 gives k = 22 (22^5 >= 46^4 > 21^5); L = 0.1 drops 2 at each end: y = 18 (eq. 2)
    n = 46
    assert k_of(n) == 22
    x_obs = np.arange(1, n + 1, dtype=float)[:, None]  # distances 1..46 from 0: the 22 nearest are 1..22
    t = np.full(n, 5.0)
    t[[0, 1]] = 1000.0  # two outliers among the nearest: the largest two are dropped
    t[[2, 3]] = -1000.0  # and the two smallest
    assert knn_estimate([[0.0]], x_obs, t, L=0.1)[0] == pytest.approx(5.0)
    assert knn_estimate([[0.0]], x_obs, t, L=0.0)[0] != pytest.approx(5.0)
    # k = 40, L = 0.1 keeps 32 (eq. 2: 40 - 2 x 4): with weights equal, the mean of the middle 32 values
    x_obs = np.zeros((100, 1))
    x_obs[:, 0] = 1.0
    t = np.arange(100, dtype=float)
    assert knn_estimate([[0.0]], x_obs, t, L=0.1)[0] == pytest.approx(np.arange(4, 36).mean())


def test_exact_match_is_the_mean_of_the_exact_matches():
    assert knn_estimate([[2.0]], [[2.0], [2.0], [5.0]], [10.0, 30.0, 99.0])[0] == pytest.approx(20.0)


def test_gamma_and_eq6():
    assert smoothed([10, 20, 30], 0.5) == 22.5 and smoothed([10, 20], 0.5) == 15 and smoothed([10], 0.5) == 10
    est = Estimator(method="smoothed", nu=0.5)
    state = EstimatorState(est, np.zeros(2, np.int64), np.zeros((2, 1), np.int64), 2, 1)
    state.report_rate(0, 50.0)
    state.report_rate(1, 100.0)
    state.observe(0, 0, 20.0, 1.0, float("nan"), np.array([1]))  # T = 20 x 50 = 1000 MFLOP
    etc, c, _ = state.estimates(np.array([1]))
    np.testing.assert_allclose(etc, [[20.0, 10.0]])  # eq. 6: 1000 / 50 and 1000 / 100
    np.testing.assert_allclose(c, [[1.0, 1.0]])


def test_ew_fe_fz_and_the_dynamic_versions_in_log_space():
    w = ew(0.5, 100.0, 10.0)
    assert w == pytest.approx(0.05) and et(150.0, 100.0) == pytest.approx(0.5)
    e = np.array([[110.0]])  # ETC + C = 110 and ST = 90: FA = 200
    st0 = np.array([90.0])
    fa = 200.0
    assert H._cost(H.FE, 110.0, 0.05, 0.0, 90.0, 0.0, 0.0, 1, True) == pytest.approx(10.0)
    assert H._cost(H.FZ, 110.0, 1 / 0.05, 0.0, 90.0, 0.0, 0.0, 1, True) == pytest.approx(4000.0)
    ln_fed = H._cost(H.FE_D, 110.0, 1.0, math.log(0.05), 90.0, 0.0, 0.0, 1, True)
    assert (ln_fed == pytest.approx(0.05 * math.log(fa) + fa * math.log(0.05))
            and ln_fed == pytest.approx(-598.9, abs=0.05))
    # huge FA and tiny EW: no overflow; literally, FE_d then prefers the larger FA (EW < 1, docs/models/estimation.md)
    assert math.isfinite(H._cost(H.FE_D, 1e9, 1.0, math.log(1e-300), 0.0, 0.0, 0.0, 1, True))
    big = H.greedy(H.FE_D, np.array([[1e9, 1e9 + 1]]), np.array([[1e-300, 1e-300]]), np.zeros(2))
    assert big.tolist() == [[0, 1]]
    assert H.greedy(H.FZ_D, np.array([[1e9, 1e9 + 1]]), np.array([[1e-300, 1e-300]]), np.zeros(2)).tolist() == [[0, 0]]
    assert H.greedy(H.FA, e, np.ones_like(e), st0).tolist() == [[0, 0]]
    assert ew(0.0, 100.0, 10.0, eps=1e-6) == 1e-6  # floored: FZ never infinite
    assert ccr(100.0, 10.0) == 10.0 and w == pytest.approx(et(150.0, 100.0) / ccr(100.0, 10.0))  # eq. 10


def test_la_readings_match_the_hand_example():
    # M = 2, ST = (0, 10), ETC + C = 4: D = 10; on p0 FA = 4, on p1 FA = 14
    d = 10.0
    once = [H._cost(H.LA, 4.0, 1.0, 0.0, stj, 10.0, 10.0, 2, True) / d for stj in (0.0, 10.0)]
    literal = [H._cost(H.LA, 4.0, 1.0, 0.0, stj, 10.0, 10.0, 2, False) / d for stj in (0.0, 10.0)]
    assert once == pytest.approx([0.6, 1.4]) and literal == pytest.approx([0.2, 1.0])


def test_efficiency_eq7_and_worst_case():
    assert efficiency([60.0, 30.0], 100.0) == pytest.approx(45.0)
    assert case_time(100.0, 0.5, "worst") == 150.0 and case_time(100.0, 0.5, "best") == 100.0


def reference_knn(xq, xo, v, L, literal):
    """Alg. 1 written plainly: the k nearest (ties: the newer, lower index), then eq. 2 drops floor(L k) smallest and
    floor(L k) largest values (at equal values the older goes first), then eq. 4-5."""
    n = len(xo)
    k = k_of(n)
    drop = math.floor(L * k + 1e-12)
    d = np.sqrt(((xo - xq) ** 2).sum(axis=1))
    sel = sorted(range(n), key=lambda a: (d[a], a))[:k]
    low = sorted(sel, key=lambda a: (v[a], -a))[:drop]
    rest = [a for a in sel if a not in low]
    high = sorted(rest, key=lambda a: (-v[a], -a))[:drop]
    keep = [a for a in rest if a not in high]
    exact = [a for a in keep if d[a] == 0]
    if exact:
        return float(np.mean([v[a] for a in exact]))
    w = np.array([1 / d[a] for a in keep])
    vals = np.array([v[a] for a in keep])
    return float(sum(d[a] for a in keep) * (vals * w).sum()) if literal else float((vals * w).sum() / w.sum())


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 60), st.integers(1, 3), st.floats(0.0, 0.45), st.booleans(), st.integers(0, 10_000))
def test_knn_matches_alg1_written_plainly(n, q, L, literal, seed):
    """The O(n) selection and the trimming with its tie rules against a plain sort (small integers: many ties)."""
    rng = np.random.default_rng(seed)
    xo = rng.integers(0, 4, (n, q)).astype(float)
    vo = rng.integers(1, 5, (n, 3)).astype(float)
    xq = rng.integers(0, 4, (5, q)).astype(float)
    got = knn_values(xq, xo, vo, L, literal)
    for r in range(5):
        for c in range(3):
            assert got[r, c] == pytest.approx(reference_knn(xq[r], xo, vo[:, c], L, literal), rel=1e-12)


def _state(est, X, machines=3):
    state = EstimatorState(est, np.zeros(len(X), np.int64), np.asarray(X), machines, 1)
    for j in range(machines):
        state.report_rate(j, 100.0)
    return state


def test_a_return_updates_only_its_column_and_equals_a_full_recomputation():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 30, (200, 2))
    est = Estimator(n=20, L=0.1)
    state = _state(est, X, 4)
    unstarted = np.arange(150, 200)
    for i in range(150):  # 150 returns spread over 4 processors (rings of 20: the oldest drop out)
        state.observe(i, i % 4, float(X[i].sum() + 1), 0.5 + 0.01 * i, 0.1 * (i % 5), unstarted)
    incremental = state.knn.copy()
    state.knn[:] = np.nan
    state.fill_rows(unstarted)
    np.testing.assert_array_equal(state.knn[:, unstarted], incremental[:, unstarted])
    before = state.knn.copy()
    state.observe(149, 2, 1000.0, 9.0, 0.9, unstarted)
    changed = np.flatnonzero(np.any(state.knn[:, unstarted] != before[:, unstarted], axis=(0, 1)))
    assert changed.tolist() == [2]


def test_communication_and_predicted_error_readings():
    """C is Alg. 1 with c in place of t; the predicted error: "knn" (Alg. 1 over the past ET), "smoothed" (Gamma of ET
    per processor), "mean" (the problem's mean ET); before any observation on a processor, the smoothed average and the
    mean."""
    X = np.array([[0], [10], [1], [9]])
    obs = [(0, 0, 10.0, 1.0, 0.2), (1, 0, 50.0, 5.0, 0.6)]  # task, processor, t, c, ET
    got = {}
    for error in ("knn", "smoothed", "mean"):
        state = _state(Estimator(n=10, L=0.0, nu=0.5, error=error), X, 2)
        for i, j, t, c, e in obs:
            state.observe(i, j, t, c, e, np.array([2, 3]))
        got[error] = state.estimates(np.array([2, 3]))
    etc, comm, err = got["knn"]
    d = np.array([[1.0, 9.0], [9.0, 1.0]])  # distances of tasks 2, 3 to tasks 0, 1
    w = (1 / d) / (1 / d).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(etc[:, 0], w @ [10.0, 50.0])
    np.testing.assert_allclose(comm[:, 0], w @ [1.0, 5.0])  # the same estimator predicts communication
    np.testing.assert_allclose(err[:, 0], w @ [0.2, 0.6])  # error "knn"
    # processor 1 has no observation: eq. 6 (T = Gamma of t P = 100 x Gamma(10, 50) = 3000, P_1 = 100) and C = Gamma(c)
    np.testing.assert_allclose(etc[:, 1], 30.0)
    np.testing.assert_allclose(comm[:, 1], 3.0)
    np.testing.assert_allclose(err[:, 1], 0.4)  # the problem's mean ET
    np.testing.assert_allclose(got["smoothed"][2], [[0.4, 0.4], [0.4, 0.4]])  # Gamma(0.2, 0.6) with nu 0.5; p1: mean
    np.testing.assert_allclose(got["mean"][2], 0.4)
    # the smoothed and average estimators ignore X
    for method, expected in (("smoothed", 30.0), ("average", 30.0)):
        state = _state(Estimator(method=method, nu=0.5), X, 2)
        for i, j, t, c, e in obs:
            state.observe(i, j, t, c, e, np.array([2, 3]))
        np.testing.assert_allclose(state.estimates(np.array([2, 3]))[0], expected)


def test_a_processor_with_only_round_robin_returns_predicts_the_problems_mean_error():
    """A processor whose observations are all of tasks dealt round robin (no estimate, so no ET) predicts
    the problem's mean ET (section 3.1 gives no rule; docs "Error"), not 0, with every reading; the fallback follows
    the mean as errors arrive on other processors. Before any error of the problem is known: the mean ET over every
    problem; before any error at all: 0."""
    X = np.array([[0], [10], [1], [9], [5], [4]])
    problems = np.array([0, 0, 0, 0, 1, 1])
    for error in ("knn", "smoothed", "mean"):
        state = EstimatorState(Estimator(n=10, L=0.0, error=error), problems, X, 2, 2)
        state.report_rate(0, 100.0)
        state.report_rate(1, 100.0)
        state.observe(0, 0, 10.0, 1.0, float("nan"), np.array([2, 3]))  # dealt round robin: no ET
        assert (state.estimates(np.array([2, 3]))[2] == 0).all()  # no error known anywhere
        state.observe(1, 1, 50.0, 5.0, 0.6, np.array([2, 3]))
        state.observe(2, 1, 12.0, 1.0, 0.2, np.array([3]))
        err = state.estimates(np.array([3]))[2]
        # processor 0: only round robin, the problem's mean ET (0.6 + 0.2) / 2
        np.testing.assert_allclose(err[0, 0], 0.4)
        assert err[0, 1] > 0.2  # processor 1 has errors of its own
        # problem 1, nothing of it returned with an error: the mean over every problem
        state.observe(4, 0, 10.0, 1.0, float("nan"), np.array([5]))
        np.testing.assert_allclose(state.estimates(np.array([5]))[2], [[0.4, 0.4]])
        state.observe(3, 0, 40.0, 4.0, 1.0, np.array([], np.int64))  # a later error on processor 0 of problem 0
        np.testing.assert_allclose(state.estimates(np.array([5]))[2], [[0.6, 0.6]])


def test_worst_max_reading_is_the_largest_error_in_u_j():
    """The other reading of the worst case (section 3.1, docs/models/estimation.md): ETC x (1 + the largest ET in U_j);
    U_j is a ring of n."""
    X = np.array([[0], [10], [1], [9]])
    state = _state(Estimator(n=2), X, 2)
    state.observe(0, 0, 10.0, 1.0, 0.2, np.array([2, 3]))
    state.observe(1, 0, 50.0, 5.0, 0.6, np.array([2, 3]))
    err = np.full((2, 2), 0.05)
    np.testing.assert_allclose(state.worst_error(np.array([2, 3]), None, err), [[0.6, 0.05], [0.6, 0.05]])
    state.observe(2, 0, 10.0, 1.0, 0.1, np.array([3]))  # the ring of 2 drops ET 0.2: still 0.6
    assert state.max_et[0, 0] == 0.6
    state.observe(3, 0, 10.0, 1.0, float("nan"), np.array([], np.int64))  # drops 0.6; no ET for a task dealt blind
    assert state.max_et[0, 0] == 0.1
    assert case_time(100.0, 0.6, "worst-max") == pytest.approx(160.0)


def test_non_dedicated_processors_run_slower_in_their_owners_slots():
    from hcsched.models.estimation.workload import availability, true_time

    sc = Scenario.from_dict({"model": "estimation", "processors": {"count": 3, "busy": 0.5, "busy_level": 0.25,
                                                                   "busy_period": 10.0},
                             "problems": [{"stages": [4], "work": [1000.0], "params": [], "exponents": [],
                                           "noise": 0.0, "outliers": 0.0}], "heuristics": ["fa"]})
    w = MODEL.workload(sc.spec, np.random.SeedSequence(1))
    assert w.busy.any() and not w.busy.all()
    j, slot = np.argwhere(w.busy)[0]
    free = np.argwhere(~w.busy[j])[0][0]
    slow = true_time(w, 0, j, slot * 10.0 + 1)[0]
    fast = true_time(w, 0, j, free * 10.0 + 1)[0]
    assert availability(w, j, slot * 10.0) == 0.25 and slow == pytest.approx(4 * fast)
    assert fast == pytest.approx(w.work[0] / w.speeds[j])


# --- Alg. 2 against a brute-force reading ---------------------------------------------------------------------------
def brute_force(kind, e, w, st0, beta, once, ties="lowest"):
    """Alg. 2 literally: every iteration scans every pair; the global minimum, ties to the lowest processor, then the
    lowest task; or, with ties "last", the pseudocode's currval <= minval over the scan (i outer, j inner)."""
    st = st0.astype(float).copy()
    left, out = list(range(e.shape[0])), []
    m = st.size
    sign = -1 if kind in (H.FZ, H.LZ) else 1
    while left:
        best = None
        for i in left:
            for j in range(m):
                fa = e[i, j] + st[j]
                if kind == H.FA:
                    v = fa
                elif kind in (H.FE, H.FZ):
                    v = fa * w[i, j] ** (sign * beta)
                elif kind == H.FE_D:
                    v = w[i, j] * math.log(fa) + fa * math.log(w[i, j])
                elif kind == H.FZ_D:
                    v = w[i, j] * math.log(fa) - fa * math.log(w[i, j])
                else:
                    top = max(st.max(), fa)
                    v = m * top - st.sum() - (e[i, j] if once else m * e[i, j])
                    if kind != H.LA:
                        v *= w[i, j] ** (sign * beta)
                key = (v, j, i) if ties == "lowest" else (v, -i, -j)
                if best is None or key < best:
                    best = key
        i, j = (best[2], best[1]) if ties == "lowest" else (-best[1], -best[2])
        out.append([i, j])
        st[j] += e[i, j]
        left.remove(i)
    return out


def test_eq12_relative_and_absolute_start_times_by_hand():
    """ST of eq. 12: processor 0 runs a task started at 0 planned for 100 s, processor 1 is idle. At
    now = 90 the relative load is (100, 0) and the clock time free (100, 90); past the estimate, at now = 150, the
    absolute reading gives ST = now on both (a tie with the idle processor), the relative one still (100, 0)."""
    procs, started, planned = np.array([0]), np.array([0.0]), np.array([100.0])
    np.testing.assert_allclose(HE.start_times("relative", 90.0, 2, procs, started, planned), [100.0, 0.0])
    np.testing.assert_allclose(HE.start_times("absolute", 90.0, 2, procs, started, planned), [100.0, 90.0])
    np.testing.assert_allclose(HE.start_times("absolute", 150.0, 2, procs, started, planned), [150.0, 150.0])
    np.testing.assert_allclose(HE.start_times("relative", 150.0, 2, procs, started, planned), [100.0, 0.0])


def test_eq12_readings_change_fz_but_not_fa_on_a_hand_made_queue():
    """One task, e = ETC + C = 20 s on both processors, EW = (0.5, 0.2), beta = 1, at now = 90 with the loads above.
    FZ = FA / EW: relative ST (100, 0): 120 / 0.5 = 240 against 20 / 0.2 = 100, so the idle processor 1; absolute ST
    (100, 90): 240 against 110 / 0.2 = 550, so behind the busy processor 0 (the offset ``now`` flattens FA and EW
    decides). FA: 120 against 20, or 120 against 110: processor 1 under both."""
    e, w = np.array([[20.0, 20.0]]), np.array([[0.5, 0.2]])
    procs, started, planned = np.array([0]), np.array([0.0]), np.array([100.0])
    loads = {st: HE.start_times(st, 90.0, 2, procs, started, planned) for st in ("relative", "absolute")}
    assert H._cost(H.FZ, 20.0, 1 / 0.2, 0.0, loads["absolute"][1], 0.0, 0.0, 2, True) == pytest.approx(550.0)
    assert H.greedy(H.FZ, e, w, loads["relative"], 1.0).tolist() == [[0, 1]]
    assert H.greedy(H.FZ, e, w, loads["absolute"], 1.0).tolist() == [[0, 0]]
    assert (H.greedy(H.FA, e, w, loads["relative"]).tolist() == H.greedy(H.FA, e, w, loads["absolute"]).tolist()
            == [[0, 1]])


def test_st_is_a_parameter_of_the_alg2_heuristics_only_and_changes_fz_runs():
    """``st`` (default relative) on FA, FE, FZ, FE_d, FZ_d, LA, LE, LZ; the baselines keep the absolute reading. In a
    run, FZ's schedule depends on it."""
    with_st = {h.name for h in HE.HEURISTICS if any(p.name == "st" for p in h.params)}
    assert with_st == {"fa", "fe", "fz", "fe-d", "fz-d", "la", "le", "lz"}
    assert all(p.default == "relative" for h in HE.HEURISTICS for p in h.params if p.name == "st")
    sc = MODEL.tiny().replace(heuristics=["fz", {"name": "fz", "st": "absolute"}])
    runs = trial_runs(sc, 0)
    assert list(runs) == ["fz", "fz (st=absolute)"]
    a, b = (r.schedule for r in runs.values())
    assert not (np.array_equal(a.machine, b.machine) and np.allclose(a.start, b.start))


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 7), st.integers(1, 6), st.integers(1, 4), st.integers(0, 10_000), st.booleans(),
       st.sampled_from(["lowest", "last"]))
def test_greedy_is_alg2_with_a_global_minimum(kind, s, m, seed, once, ties):
    rng = np.random.default_rng(seed)
    e = rng.integers(1, 6, (s, m)).astype(float)  # small integers: many ties
    w = rng.choice([0.05, 0.2, 0.5, 1.5], (s, m))
    st0 = rng.integers(0, 5, m).astype(float)
    got = H.greedy(kind, e, w, st0, 0.5, once, ties=ties)
    assert got.tolist() == brute_force(kind, e, w, st0, 0.5, once, ties)


def test_early_stop_gives_every_idle_processor_its_first_task():
    rng = np.random.default_rng(3)
    e, w = rng.random((30, 5)) + 0.1, rng.random((30, 5)) + 0.01
    st0 = np.array([0.0, 5.0, 0.0, 9.0, 2.0])
    idle = np.array([True, False, True, False, False])
    for kind, ties in ((k, t) for k in range(8) for t in ("lowest", "last")):
        full = H.greedy(kind, e, w, st0, 1.0, True, ties=ties)
        short = H.greedy(kind, e, w, st0, 1.0, True, idle, True, ties)
        assert short.tolist() == full[:len(short)].tolist()
        firsts = {int(b): int(a) for a, b in full[::-1]}
        for j in np.flatnonzero(idle):
            if j in firsts:
                assert [firsts[j], j] in short.tolist()


# --- estimators alone -------------------------------------------------------------------------------------------------
def _synthetic(n, rng):
    x = rng.integers(0, 21, (n, 2)).astype(float)
    t = 10.0 * (x[:, 0] + 1) * (1 + 0.2 * x[:, 1]) * np.exp(0.1 * rng.standard_normal(n))
    return x, t


def _knn_error(n, rng, queries=200):
    x, t = _synthetic(n, rng)
    xq, tq = _synthetic(queries, rng)
    return float(np.mean(et(knn_estimate(xq, x, t, L=0.1), tq)))


def test_knn_converges_and_beats_the_smoothed_average_when_time_depends_on_x():
    rng = np.random.default_rng(0)
    errors = {n: np.mean([_knn_error(n, rng) for _ in range(5)]) for n in (10, 100, 1000)}
    assert errors[10] > errors[100] > errors[1000]  # about 0.83, 0.44, 0.27 (k = n^0.8 neighbours smooth a lot)
    assert errors[1000] < 0.4 * errors[10]
    x, t = _synthetic(1000, rng)
    xq, tq = _synthetic(200, rng)
    smooth = float(np.mean(et(np.full(200, smoothed(t, 0.5)), tq)))
    average = float(np.mean(et(np.full(200, t.mean()), tq)))
    assert smooth > 4 * errors[1000] and average > 4 * errors[1000]  # about 1.3 and 1.4 against 0.27


# --- engine ---------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_runs():
    sc = MODEL.tiny()
    return sc, trial_runs(sc, 0)


def test_one_task_at_a_time_stages_in_order_and_everything_finishes(tiny_runs):
    sc, runs = tiny_runs
    for run in runs.values():
        s = run.schedule
        assert np.isfinite(s.finish).all() and (s.start >= s.arrival).all()
        for j in range(s.machines):
            mine = np.argsort(s.start[s.machine == j])
            starts, finishes = s.start[s.machine == j][mine], s.finish[s.machine == j][mine]
            assert (starts[1:] >= finishes[:-1] - 1e-9).all()
        for p in np.unique(run.problem):
            for stage in range(1, run.stage[run.problem == p].max() + 1):
                prev = (run.problem == p) & (run.stage == stage - 1)
                assert run.released[(run.problem == p) & (run.stage == stage)].min() >= s.finish[prev].max() - 1e-9
        assert (s.start >= run.released).all()


def test_true_times_are_common_and_hidden(tiny_runs):
    """Every heuristic's task on a processor costs the workload's time there; estimates never equal the truth by
    construction (the first tasks of a problem are dealt round robin, without an estimate)."""
    sc, runs = tiny_runs
    for run in runs.values():
        assert (~np.isfinite(run.estimate)).sum() >= 1
        np.testing.assert_allclose(run.schedule.actual, run.compute + run.comm)
    w = MODEL.workload(sc.spec, np.random.SeedSequence(sc.seed).spawn(1)[0])
    assert not hasattr(MODEL.run(sc.spec, sc.heuristics[0], w), "work")


def test_the_scheduler_never_sees_the_true_times_it_has_not_observed():
    """Changing the true time (noise, latency) of every (task, processor) pair that did not run leaves every
    heuristic's schedule exactly as it was: decisions rest on estimates learnt from returns only."""
    import dataclasses

    sc = MODEL.tiny().replace(heuristics=["fa", {"name": "fa", "ties": "last"}, "fz", {"name": "fz", "case": "worst"},
                                          {"name": "fz", "case": "worst-max"}, "fz-d", "la", "ll", "ef", "tabu",
                                          "anneal"])
    w = MODEL.workload(sc.spec, np.random.SeedSequence(sc.seed).spawn(1)[0])
    for h in sc.heuristics:
        run = MODEL.run(sc.spec, h, w)
        ran = np.zeros(w.noise.shape, bool)
        ran[np.arange(run.schedule.machine.size), run.schedule.machine] = True
        other = dataclasses.replace(w, noise=np.where(ran, w.noise, w.noise * 50.0),
                                    latency=np.where(ran, w.latency, w.latency + 100.0))
        again = MODEL.run(sc.spec, h, other)
        np.testing.assert_array_equal(again.schedule.machine, run.schedule.machine)
        np.testing.assert_array_equal(again.schedule.start, run.schedule.start)
        np.testing.assert_array_equal(again.estimate, run.estimate)


def test_curves_are_kept_and_exportable(tiny_runs):
    _, runs = tiny_runs
    for run in runs.values():
        c = run.curves(50)
        assert set(c) == {"time", "idle", "efficiency", "actual_error", "predicted_error"}
        assert (c["idle"] >= 0).all() and (c["idle"] <= run.machines).all()
        assert c["efficiency"][-1] == pytest.approx(MODEL.measure(None, None, run)["efficiency"])


def test_metrics_are_the_means_of_the_per_task_records(tiny_runs):
    """estimation_error is eq. 8's mean over tasks dispatched with an estimate, predicted_error the mean predicted ET
    at dispatch; tasks without an estimate are the round-robin ones."""
    _, runs = tiny_runs
    for run in runs.values():
        m = MODEL.measure(None, None, run)
        has = np.isfinite(run.estimate)
        assert has.any()
        assert m["estimation_error"] == pytest.approx(np.mean(np.abs(run.estimate[has] - run.compute[has])
                                                              / run.compute[has]))
        assert m["predicted_error"] == pytest.approx(np.mean(run.predicted_error[has]))
        assert m["round_robin_tasks"] == int((~has).sum())
        busy = (run.schedule.finish - run.schedule.start).sum()
        assert m["efficiency"] == pytest.approx(100 * busy / (m["makespan"] * run.machines))


def test_tasks_of_an_unknown_problem_are_dealt_round_robin_idle_processors_first(tiny_runs):
    """Section 2.2: while no task of a problem has returned, its tasks are dealt in turn (no estimate), over the idle
    processors first; once one has returned, every later dispatch of it has an estimate."""
    sc, runs = tiny_runs
    for label, run in runs.items():
        s = run.schedule
        first = np.flatnonzero(run.problem == 0)[:sc.machines]  # the staged problem, released at 0 on idle processors
        assert sorted(s.machine[first].tolist()) == list(range(sc.machines)) and (s.start[first] == 0).all(), label
        for p in np.unique(run.problem):
            mine = run.problem == p
            known_from = s.finish[mine].min()  # the problem's first return
            blind = mine & (s.start < known_from)
            assert blind.any() and not np.isfinite(run.estimate[blind]).any(), label
            assert np.isfinite(run.estimate[mine & (s.start >= known_from)]).all(), label


def test_communication_noise_outliers_and_hidden_work_of_the_workload():
    """c = latency (exponential, mean ``latency``) + data / bandwidth; the noise is lognormal of mean 1 with outliers
    x ``outlier_factor`` at rate ``outliers``; the hidden work is work x prod((x+1)/(params/2+1))^exponents."""
    from hcsched.models.estimation.workload import hidden_work, true_time

    sc = Scenario.from_dict({"model": "estimation", "processors": {"count": 20, "busy": 0.0},
                             "network": {"bandwidth": 50.0, "latency": 0.2},
                             "problems": [{"stages": [400], "work": [1000.0], "params": [6, 2],
                                           "exponents": [1.0, -1.0], "data": 10.0, "noise": 0.0, "outliers": 0.25,
                                           "outlier_factor": 10.0}],
                             "heuristics": ["fa"]})
    w = MODEL.workload(sc.spec, np.random.SeedSequence(4))
    assert w.latency.mean() == pytest.approx(0.2, rel=0.05) and w.data.mean() == pytest.approx(10.0, rel=0.15)
    assert set(np.unique(np.round(w.noise, 12))) == {1.0, 10.0}
    assert (w.noise == 10.0).mean() == pytest.approx(0.25, abs=0.02)
    x = w.X[:, 1:3].astype(float)
    np.testing.assert_allclose(w.work, 1000.0 * (x[:, 0] + 1) / 4 * 2 / (x[:, 1] + 1))
    np.testing.assert_allclose(w.work, hidden_work(1000.0, np.array([6.0, 2.0]), np.array([1.0, -1.0]), x))
    t, c = true_time(w, 7, 3, 0.0)
    assert c == pytest.approx(w.latency[7, 3] + w.data[7] / 50.0)
    assert t == pytest.approx(w.work[7] / w.speeds[3] * w.noise[7, 3])


def test_ll_and_ef_are_immediate_and_the_local_searches_never_worsen_their_start():
    """LL and EF take the tasks in order, each to the smallest ST (LL) or ETC + C + ST (EF); tabu and annealing
    start from EF's mapping and return the best assignment seen, never worse on their objective."""
    rng = np.random.default_rng(8)
    e = rng.uniform(1, 10, (25, 4))
    st0 = rng.uniform(0, 5, 4)
    for kind, cost in ((H.EF, lambda i, st: e[i] + st), (H.LL, lambda i, st: st)):
        st, expected = st0.copy(), []
        for i in range(25):
            j = int(np.argmin(cost(i, st)))
            expected.append([i, j])
            st[j] += e[i, j]
        assert H.greedy(kind, e, np.ones_like(e), st0).tolist() == expected

    def objective(assign):
        load = st0 + np.bincount(assign, e[np.arange(25), assign], 4)
        return load.max() + load.sum() / 4000

    start = np.zeros(25, np.int64)  # a bad start: everything on processor 0
    for anneal in (False, True):
        got = H.local_search(e, st0, start, anneal, 500, 5, 10, 0.05, 0.99, 1)
        assert objective(got) < 0.5 * objective(start)
    ef = np.empty(25, np.int64)
    order = H.greedy(H.EF, e, e, st0)
    ef[order[:, 0]] = order[:, 1]
    for anneal in (False, True):
        assert objective(H.local_search(e, st0, ef, anneal, 200, 5, 10, 0.05, 0.99, 2)) <= objective(ef)


def test_round_robin_never_remaps_and_mapping_on_release_only():
    sc = MODEL.tiny().replace(heuristics=["rr", "fa"])
    rr = trial_runs(sc, 0)["rr"].schedule
    assert (rr.machine[:8] == np.arange(8) % 4).all()  # the staged problem's first 8 tasks, dealt in turn
    on_release = sc.replace(mapping="release")
    a = simulate(sc, jobs=1)
    b = simulate(on_release, jobs=1)
    assert not a["makespan"].equals(b["makespan"])


def test_unknown_heuristic_parameter_and_bad_fields_are_refused():
    with pytest.raises(HcschedError, match="beta"):
        MODEL.tiny().replace(heuristics=[{"name": "fz", "beta": -1}])
    with pytest.raises(HcschedError, match="estimator.L"):
        Scenario.from_dict({**MODEL.tiny().to_dict(), "estimator": {"L": 0.5}})
    with pytest.raises(HcschedError, match="estimator.method"):
        Scenario.from_dict({**MODEL.tiny().to_dict(), "estimator": {"method": "svm"}})


def _tiny_with(count=4, n=100, stages=(8, 6), params=(50,), trials=3):
    d = MODEL.tiny().to_dict()
    d["processors"]["count"] = count
    d["estimator"] = {**d["estimator"], "n": n}
    d["problems"][0] = {**d["problems"][0], "stages": list(stages) if isinstance(stages, tuple) else stages,
                        "params": list(params)}
    return {**d, "trials": trials}


def test_whole_number_fields_written_as_floats_load_as_ints_and_run():
    """A file's (or a sweep's) 4.0 is 4: stored as an int, so it can size arrays, and the scenario runs exactly like
    the one written with ints."""
    sc = Scenario.from_dict(_tiny_with(4.0, 100.0, (8.0, 6.0), (50.0,), 3.0))
    s = sc.spec
    assert type(s.processors.count) is int and type(s.estimator.n) is int and sc.trials == 3
    assert all(type(v) is int for v in (*s.problems[0].stages, *s.problems[0].params))
    assert sc.spec == MODEL.tiny().spec and sc.to_dict() == MODEL.tiny().to_dict()
    small = sc.replace(trials=1, heuristics=["fa", "rr"])
    assert simulate(small, jobs=1).to_csv() == simulate(MODEL.tiny().replace(trials=1, heuristics=["fa", "rr"]),
                                                        jobs=1).to_csv()


@pytest.mark.parametrize("fields, name", [
    ({"count": 4.5}, "processors.count"),
    ({"n": 10.5}, "estimator.n"),
    ({"stages": (8, 6.5)}, "problems[staged].stages"),
    ({"params": (50.5,)}, "problems[staged].params"),
    ({"stages": 8}, "problems[staged].stages"),
    ({"trials": 2.5}, "trials"),
])
def test_a_fraction_in_a_whole_number_field_is_an_error_naming_it(fields, name):
    with pytest.raises(HcschedError) as exc:
        Scenario.from_dict(_tiny_with(**fields))
    assert str(exc.value).startswith(f"scenario field {name!r}: ") and "\n" not in str(exc.value)


# --- traces ---------------------------------------------------------------------------------------------------------
def test_example_trace_round_trips(tmp_path):
    tasks, names, speeds = read_trace(EXAMPLES / "estimation-tasks.csv", EXAMPLES / "estimation-processors.csv")
    assert len(tasks) == 40 and names == ("fast1", "fast2", "mid1", "slow1")
    assert tasks[0].work == pytest.approx(48.0 * 1000)  # time x the speed of the machine it ran on
    write_trace(tasks, names, speeds, tmp_path / "t.csv", tmp_path / "p.csv")
    again = read_trace(tmp_path / "t.csv", tmp_path / "p.csv")
    assert again == (tasks, names, speeds)
    sc = Scenario.from_dict({"model": "estimation", "trace": {"tasks": "estimation-tasks.csv",
                             "processors": "estimation-processors.csv"}, "heuristics": ["fa"], "trials": 2},
                            base_dir=EXAMPLES)
    assert sc.machines == 4 and sc.tasks == 40
    assert Scenario.from_dict(sc.to_dict(), base_dir=EXAMPLES).spec == sc.spec
    # written back, the trace is inline: a sweep's point or a results CSV's scenario line reads it without any file
    assert isinstance(sc.to_dict()["trace"]["tasks"], list)
    assert Scenario.from_dict(sc.to_dict()).spec == sc.spec


def test_a_trace_from_files_sweeps_without_reading_them_again(tmp_path):
    from hcsched.sweep import grid
    sc = Scenario.from_dict({"model": "estimation", "trace": {"tasks": "estimation-tasks.csv",
                             "processors": "estimation-processors.csv"}, "heuristics": ["fa", "le"], "trials": 1},
                            base_dir=EXAMPLES)
    points = grid(sc, {"estimator.n": [10, 20]})
    assert [p.scenario.estimator.n for p in points] == [10, 20] and points[0].scenario.tasks == 40


def test_a_trace_replays_its_times_and_derives_the_other_machines_by_speed():
    """With no owners and no latency, a task run on the machine of its trace row takes the measured time; on another
    machine, time x speed(recorded) / speed(that machine)."""
    sc = Scenario.from_dict({"model": "estimation", "trace": {"tasks": "estimation-tasks.csv",
                             "processors": "estimation-processors.csv"}, "processors": {"busy": 0.0},
                             "network": {"latency": 0.0}, "heuristics": ["rr", "fa"], "trials": 1}, base_dir=EXAMPLES)
    import csv

    rows = list(csv.DictReader((EXAMPLES / "estimation-tasks.csv").read_text().splitlines()))
    speed = dict(zip(sc.spec.processors.names, sc.spec.processors.speeds, strict=True))
    names = sc.spec.processors.names
    for run in trial_runs(sc, 0).values():
        assert (run.comm == 0).all()
        on = np.array([names[j] for j in run.schedule.machine])
        expected = [float(r["time"]) * speed[r["machine"]] / speed[m] for r, m in zip(rows, on, strict=True)]
        np.testing.assert_allclose(run.compute, expected)
        same = on == np.array([r["machine"] for r in rows])
        assert same.any()
        np.testing.assert_allclose(run.compute[same], [float(r["time"]) for r, s in zip(rows, same, strict=True) if s])
        assert run.stage.tolist() == [int(r["stage"]) for r in rows]


def test_a_trace_without_latency_leaves_the_error_heuristics_nothing_to_weigh():
    """Documented: a trace has no data column, so with latency 0 every C is 0, EW is floored at eps everywhere, and
    FE, FZ (LE, LZ) give FA's (LA's) schedule; literal FE_d then prefers the largest FA (far worse). FZ_d orders pairs
    as FA does too, but in log space (ln FZ_d = -FA ln eps + eps ln FA) FA values a few ulps apart can round to a tie,
    which the lowest index breaks: with eq. 12's relative ST (no common offset 'now') that happens on this trace."""
    sc = Scenario.from_dict({"model": "estimation", "trace": {"tasks": "estimation-tasks.csv",
                             "processors": "estimation-processors.csv"}, "network": {"latency": 0.0},
                             "heuristics": ["fa", "fe", {"name": "fz", "beta": 0.1}, "fz-d", "fe-d", "la", "le", "lz"],
                             "trials": 1}, base_dir=EXAMPLES)
    runs = trial_runs(sc, 0)
    for name in ("fe", "fz (beta=0.1)", "le", "lz"):
        same = runs["la" if name.startswith("l") else "fa"].schedule
        np.testing.assert_array_equal(runs[name].schedule.machine, same.machine)
        np.testing.assert_array_equal(runs[name].schedule.start, same.start)
    assert runs["fe-d"].makespan > 2 * runs["fa"].makespan
    assert runs["fz-d"].makespan < 1.5 * runs["fa"].makespan  # not FE_d's pathology (1310 s against FA's 1655 s)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("release,", "when,", 1), "line 1: missing column 'release'"),
    (lambda t: t.replace("dsearch,d0-1,0,0,4,3,30.00", "dsearch,d0-1,0,0,4,3,-30.00"),
     "line 3: time '-30.00' is negative"),
    (lambda t: t.replace("30.00,fast2", "30.00,fast9"), "line 3: unknown processor 'fast9'"),
    (lambda t: t.replace("dsearch,d0-1,0,0,4", "dsearch,d0-1,0,0,4.5"), "line 3: x1 '4.5' is not an integer"),
])
def test_malformed_trace_names_the_row(tmp_path, edit, message):
    text = (EXAMPLES / "estimation-tasks.csv").read_text()
    (tmp_path / "t.csv").write_text(edit(text))
    with pytest.raises(HcschedError) as exc:
        read_trace(tmp_path / "t.csv", EXAMPLES / "estimation-processors.csv")
    assert message in str(exc.value) and "\n" not in str(exc.value)
    assert str(exc.value).startswith(f"tasks CSV {str(tmp_path / 't.csv')!r} line")


def test_missing_trace_file_is_one_line():
    with pytest.raises(HcschedError, match=r"^tasks CSV '.*nope.csv': cannot be read \(FileNotFoundError"):
        read_trace(EXAMPLES / "nope.csv", EXAMPLES / "estimation-processors.csv")


# --- presets --------------------------------------------------------------------------------------------------------
def test_presets_are_the_two_clusters():
    a, b = (MODEL.presets()[n]() for n in ("page-system-a", "page-system-b"))
    assert a.trials == b.trials == 30
    assert a.machines == 90 and b.machines == 74
    sa, sb = a.spec.processors.speed_vector(), b.spec.processors.speed_vector()
    assert min(sa) / max(sa) == pytest.approx(0.9) and min(sb) / max(sb) == pytest.approx(0.15)
    for sc in (a, b):
        stages = sorted(len(p.stages) for p in sc.spec.problems)
        assert stages[0] == 1 and sum(s > 1 for s in stages) == 2


def test_same_seed_same_bytes():
    sc = MODEL.tiny()
    assert simulate(sc, jobs=1).to_csv() == simulate(sc, jobs=1).to_csv()


# --- the paper's directions, on a small system B (the full presets are in bench/estimation.py) ----------------------
@pytest.fixture(scope="module")
def small_b():
    """System B's analogue scaled down: 24 processors (slowest 0.15 of the fastest), a third of the tasks, 30 trials."""
    sc = MODEL.presets()["page-system-b"]()
    problems = [{**p.__dict__, "stages": [max(4, s // 3) for s in p.stages]} for p in sc.spec.problems]
    data = {**sc.to_dict(), "processors": {**sc.to_dict()["processors"], "count": 24}, "problems": problems,
            "heuristics": ["fa", "fe", "fz", {"name": "fz", "beta": 0.1}, "la", "le"], "trials": 30}
    return Scenario.from_dict(data)


@pytest.fixture(scope="module")
def small_b_results(small_b):
    return simulate(small_b, jobs=2)


def test_direction_le_far_above_la(small_b_results):
    """Section 5.4: LE's makespan more than 4 x LA's. Here LE is clearly above LA but 1.5-1.7 x (seeds 2008, 1, 2),
    not 4 x (the paper's problems and error levels are unknown)."""
    mean = small_b_results.groupby("heuristic")["makespan"].mean()
    assert mean["le"] > 1.3 * mean["la"]


def test_direction_fe_above_fa(small_b_results):
    """Section 5.5, Figs. 10-11: FE (smallest estimate error first) has the largest makespans of FA, FE and FZ. Here FE
    is above FA on every seed tried (1.07, 1.32, 1.07 x over seeds 2008, 1, 2), but against FZ it depends on the seed
    (0.95, 1.19, 0.89 x): on this reduced System B only the half of the claim against FA is robust. (Earlier
    installations gave FE 1.2-1.9 x the next worst: this model's results are not identical across machines and
    library versions.)"""
    mean = small_b_results.groupby("heuristic")["makespan"].mean()
    assert mean["fe"] > 1.03 * mean["fa"]


def test_direction_fz_best_case_beta_01_against_fa(small_b_results):
    """Section 5.5: FZ (best case, beta 0.1) 20% below FA. NOT reproduced: FZ (0.1) stays within noise of FA, a
    little above it here (1.08, 1.19, 1.18 x FA over seeds 2008, 1, 2; on the full presets see
    docs/models/estimation.md). Our predicted error is mostly the k-NN's own inaccuracy and the outliers are not
    predictable from X, so weighing it by EW^-0.1 mostly perturbs FA's order. The test pins that: neither the
    paper's 0.8 nor far from FA (beta -> 0 is FA)."""
    mean = small_b_results.groupby("heuristic")["makespan"].mean()
    assert 0.85 < mean["fz (beta=0.1)"] / mean["fa"] < 1.3


def test_direction_knn_error_far_below_the_smoothed_estimate(small_b):
    """Section 5.3, Fig. 5: k-NN about 10 x less error than the smoothed estimate; the simple average is high too."""
    sc = small_b.replace(heuristics=["fa"], trials=10)
    err = {}
    for method in ("knn", "smoothed", "average"):
        s2 = sc.replace(estimator=Estimator(**{**sc.spec.estimator.__dict__, "method": method}))
        err[method] = simulate(s2, jobs=2)["estimation_error"].mean()
    assert err["smoothed"] > 3 * err["knn"] and err["average"] > 2 * err["knn"]


def test_direction_knn_error_falls_with_more_observations():
    """Section 5.3, Fig. 6, in the simulation: 8 processors and 400 tasks of one problem, so U_j grows; the error of
    each dispatched task's estimate against |U_j| at dispatch. It falls from the first observations to about ten;
    beyond about 20 it rises a little again here (k = n^0.8 neighbours smooth over much of X, and Min-min leaves the
    long tasks, at the sparse edge of X, for last), which the estimator alone does not show (test above)."""
    sc = Scenario.from_dict({"model": "estimation", "processors": {"count": 8, "ratio": 0.5},
                             "problems": [{"name": "p", "stages": [400], "work": [20000], "params": [20, 10],
                                           "exponents": [1.0, 0.5], "data": 5.0}],
                             "heuristics": ["fa"], "trials": 4, "seed": 3})
    obs, err = [], []
    for trial in range(sc.trials):
        run = trial_runs(sc, trial)["fa"]
        ok = np.isfinite(run.actual_error) & (run.observations > 0)
        obs.append(run.observations[ok])
        err.append(run.actual_error[ok])
    obs, err = np.concatenate(obs), np.concatenate(err)
    few, some = err[obs <= 2].mean(), err[(obs > 5) & (obs <= 20)].mean()
    assert few > 1.5 * some  # 0.70, 0.52, 0.80 against 0.27, 0.26, 0.28 (seeds 3, 4, 5)


def test_unstarted_tasks_are_remapped_as_estimates_improve():
    """Fig. 1: a queued task may move to another processor at a later mapping; never with mapping on release only."""
    sc = MODEL.tiny().replace(heuristics=["fa", "fe"])
    moved = 0
    for run in trial_runs(sc, 0).values():
        queued = run.first_queue >= 0
        assert queued.any()
        moved += int((run.schedule.machine[queued] != run.first_queue[queued]).sum())
    assert moved > 0
    for run in trial_runs(sc.replace(mapping="release"), 0).values():
        queued = run.first_queue >= 0
        assert queued.any() and (run.schedule.machine[queued] == run.first_queue[queued]).all()


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 5), st.lists(st.integers(1, 6), min_size=1, max_size=3),
       st.sampled_from(["fa", "fz-d", "lz", "ll", "anneal", {"name": "fe", "case": "worst-max"},
                        {"name": "la", "ties": "last", "case": "worst"}]),
       st.sampled_from(["knn", "smoothed", "average"]), st.sampled_from(["return", "release"]), st.integers(0, 99))
def test_engine_invariants(machines, stages, heuristic, method, mapping, seed):
    """Every task runs once, after its stage's release, one at a time per processor, and stage s+1 after stage s."""
    sc = Scenario.from_dict({"model": "estimation", "processors": {"count": machines, "ratio": 0.3},
                             "problems": [{"name": "a", "stages": stages,
                                           "work": [1000.0 * (s + 1) for s in range(len(stages))],
                                           "params": [5], "exponents": [1.0], "outliers": 0.2},
                                          {"name": "b", "release": 3.0, "stages": [3], "work": [500.0], "params": [],
                                           "exponents": []}],
                             "estimator": {"method": method, "n": 4}, "mapping": mapping,
                             "heuristics": [heuristic], "trials": 1, "seed": seed})
    run = next(iter(trial_runs(sc, 0).values()))
    s = run.schedule
    assert np.isfinite(s.finish).all() and (s.start >= run.released - 1e-9).all()
    assert np.allclose(s.finish - s.start, run.compute + run.comm) and (run.compute > 0).all()
    for j in range(machines):
        on = np.flatnonzero(s.machine == j)
        order = on[np.argsort(s.start[on], kind="stable")]
        assert (s.start[order][1:] >= s.finish[order][:-1] - 1e-9).all()
    a = run.problem == 0
    for stage in range(1, len(stages)):
        assert run.released[a & (run.stage == stage)].min() >= s.finish[a & (run.stage == stage - 1)].max() - 1e-9
    m = MODEL.measure(sc.spec, sc.heuristics[0], run)
    assert 0 < m["efficiency"] <= 100 + 1e-9 and m["makespan"] == pytest.approx(s.finish.max())
