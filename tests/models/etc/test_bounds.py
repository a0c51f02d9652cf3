"""Lower bounds of the ETC model: never above the optimum (found by enumeration), never above a heuristic's makespan,
hand-computed on small cases, and carried by every result as makespan / lower bound."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, map_tasks, simulate
from hcsched.metrics import LOWER_BOUND
from hcsched.models import MODELS
from hcsched.models.etc import bounds
from hcsched.scenario import Scenario

ETC = MODELS["etc"]


def optimum(p, arrival=None, ready=None):
    """The smallest makespan over every assignment of tasks to machines; with release dates each machine runs its
    tasks in arrival order (optimal for one machine, 1|r_j|Cmax), from its ready time."""
    n, m = p.shape
    arrival = np.zeros(n) if arrival is None else arrival
    ready = np.zeros(m) if ready is None else ready
    order = np.argsort(arrival, kind="stable")
    best = np.inf
    for assign in itertools.product(range(m), repeat=n):
        t = ready.copy()
        for i in order:
            j = assign[i]
            t[j] = max(t[j], arrival[i]) + p[i, j]
        best = min(best, t.max())
    return best


def optimum_flow(p, arrival):
    """The smallest mean flow time over every assignment of tasks to machines and every order on each machine (a
    task starts at its arrival or when its machine is free); up to 6 tasks, by enumeration."""
    n, m = p.shape
    best_on = {}  # (machine, tasks) -> the least total flow of those tasks on that machine

    def on(j, tasks):
        if (j, tasks) not in best_on:
            totals = []
            for order in itertools.permutations(tasks):
                t = total = 0.0
                for i in order:
                    t = max(t, arrival[i]) + p[i, j]
                    total += t - arrival[i]
                totals.append(total)
            best_on[j, tasks] = min(totals, default=0.0)
        return best_on[j, tasks]

    return min(sum(on(j, tuple(i for i in range(n) if assign[i] == j)) for j in range(m))
               for assign in itertools.product(range(m), repeat=n)) / n


def test_lp_bound_by_hand():
    """Two tasks of 4 on machine 0 or 8 on machine 1: x0 + x1 = s of them on machine 0, 4 s <= C and 8 (2 - s) <= C,
    so s = 4/3 and C* = 16/3 (the optimum is 8); the largest single task gives only 4."""
    p = np.array([[4.0, 8.0], [4.0, 8.0]])
    assert bounds.lp_relaxation(p).makespan == pytest.approx(16 / 3)
    assert bounds.trivial_bound(p) == 4.0
    assert bounds.lp_bound(p) == pytest.approx(16 / 3)
    assert optimum(p) == 8.0


def test_ready_times_by_hand():
    """Machine 0 busy until 4: one task of 3 there (or 6 on machine 1) ends at 6 at best, above the LP's 14/3
    (4 + 3 x = 6 (1 - x) at x = 2/9); machine 0 busy until 10 sets the makespan itself."""
    p = np.array([[3.0, 6.0]])
    assert bounds.lp_relaxation(p, [4.0, 0.0]).makespan == pytest.approx(14 / 3)
    assert bounds.lp_bound(p, [4.0, 0.0]) == pytest.approx(6.0) == optimum(p, ready=np.array([4.0, 0.0]))
    assert bounds.lp_bound(p, [10.0, 0.0]) == pytest.approx(10.0)


def test_flow_bound_by_hand():
    """Tasks of 2 and 3 on machine 0 (4 and 6 on machine 1), both at time 0: the bound is their mean fastest time,
    2.5; the best mean flow is 3.5 (both on machine 0, the shorter first: 2 and 5; or the first on machine 1 and
    the second on machine 0: 4 and 3)."""
    p = np.array([[2.0, 4.0], [3.0, 6.0]])
    assert bounds.flow_bound(p) == 2.5
    assert optimum_flow(p, np.zeros(2)) == 3.5


def test_release_bound_by_hand():
    """A task arriving at 100 that takes at least 5 ends at 105 at best, whatever came before."""
    p = np.array([[50.0, 60.0], [50.0, 60.0], [5.0, 7.0]])
    arrival = np.array([0.0, 0.0, 100.0])
    assert bounds.release_bound(arrival, p) == pytest.approx(105.0)
    assert bounds.trial_bound(arrival, p) == pytest.approx(105.0)
    assert optimum(p, arrival) == 105.0


def instances(seed, count=40):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, m = rng.integers(1, 9), rng.integers(1, 4)
        p = rng.uniform(1, 20, (n, 1)) * rng.uniform(1, 5, (n, m))
        yield p, np.sort(rng.choice([0.0, rng.uniform(0, 30)], n) * rng.uniform(0, 1, n)), rng.uniform(0, 10, m)


@pytest.mark.parametrize("seed", range(3))
def test_bounds_never_exceed_the_optimum(seed):
    """On random instances of up to 8 tasks x 3 machines, every bound is at most the optimum by enumeration: static,
    static with ready times, and with release dates (the LP thresholds and the dual of a trial)."""
    for p, arrival, ready in instances(seed):
        static = optimum(p)
        assert bounds.trivial_bound(p) <= static + 1e-9
        assert bounds.lp_bound(p) <= static + 1e-9
        assert bounds.trial_bound(np.zeros(len(p)), p) <= static + 1e-9
        assert bounds.lp_bound(p, ready) <= optimum(p, ready=ready) + 1e-9
        released = optimum(p, arrival)
        assert bounds.release_bound(arrival, p) <= released + 1e-9
        assert bounds.trial_bound(arrival, p) <= released + 1e-9
        assert bounds.makespan_bound(arrival, p) <= released + 1e-9
        assert bounds.trial_bounds(arrival, p)[1] == pytest.approx(bounds.flow_bound(p))  # the kernel's is the same
        if len(p) <= 6:
            assert bounds.flow_bound(p) <= optimum_flow(p, arrival) + 1e-9


def test_dual_approaches_the_lp():
    """Any weights give a bound at most the LP's; the dual's steps bring it within 1% of it here. Its first step
    weighs each machine by the inverse of its total time (normalised to sum 1)."""
    rng = np.random.default_rng(5)
    p = np.sort(rng.uniform(1, 3000, (200, 1)) * rng.uniform(1, 100, (200, 8)), axis=1)  # consistent: the hard case
    lp = bounds.lp_relaxation(p).makespan
    first = bounds.dual_bound(np.zeros(200), p, 1)
    w = 1 / p.sum(axis=0)
    assert first == pytest.approx((w / w.sum() * p).min(axis=1).sum())
    dual = bounds.dual_bound(np.zeros(200), p, bounds.DUAL_ITERATIONS)
    assert first < dual <= lp * (1 + 1e-9)
    assert dual >= 0.99 * lp


def test_lp_vertex_splits_few_tasks():
    """A vertex of the relaxation splits at most m tasks (Potts 1985: m - 1 at an optimum with every load at C*)."""
    rng = np.random.default_rng(2)
    p = rng.uniform(1, 100, (60, 5))
    x = bounds.lp_relaxation(p, solution=True).x
    assert np.allclose(x.sum(axis=1), 1.0)
    assert ((x > 1e-9) & (x < 1 - 1e-9)).any(axis=1).sum() <= 5


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(5, 40), st.sampled_from(["poisson", "static"]), st.integers(0, 10**6))
def test_no_heuristic_beats_the_bound(machines, tasks, process, seed):
    """Every heuristic's makespan and mean flow time are at least their trial's bounds (ratios >= 1)."""
    names = ("mct", "met", "olb", "kpb", "sa", "min-min", "max-min", "sufferage")
    sc = Scenario.from_dict({"model": "etc", "machines": machines, "tasks": tasks, "heuristics": list(names),
                             "arrivals": {"process": process, "rate": 0.01}, "trials": 2, "seed": seed})
    r = simulate(sc, jobs=1)
    assert (r["makespan_bound"] >= 1 - 1e-9).all()
    assert (r["mean_flow_bound"] >= 1 - 1e-9).all()
    assert (r.groupby("trial")["lower_bound"].nunique() == 1).all()  # one bound per trial, every heuristic's


def test_static_mapping_never_beats_the_lp():
    rng = np.random.default_rng(3)
    p = rng.uniform(1, 50, (30, 4))
    ready = rng.uniform(0, 20, 4)
    lb = bounds.lp_bound(p, ready)
    for name in ("mct", "min-min", "max-min", "sufferage"):
        assert map_tasks(p, name, ready=ready).makespan >= lb


def test_results_carry_the_ratio_and_the_benchmark_lower_bound():
    sc = ETC.presets()["quickstart"]().replace(trials=3)
    r = simulate(sc, jobs=1)
    assert np.allclose(r["makespan_bound"], r["makespan"] / r["lower_bound"])
    by_bound = simulate(sc.replace(benchmark=LOWER_BOUND), jobs=1)
    assert np.allclose(by_bound["normalized_makespan"], r["makespan_bound"])
    assert np.allclose(by_bound["makespan"], r["makespan"])  # the same trials


def test_lower_bound_key_turns_it_off():
    sc = ETC.presets()["quickstart"]().replace(trials=2)
    off = sc.replace(lower_bound=False)
    assert ETC.spec_to_dict(off.spec)["lower_bound"] is False
    assert "lower_bound" not in ETC.spec_to_dict(sc.spec)  # on by default: not written
    assert Scenario.from_dict(off.to_dict()).spec.lower_bound is False
    r = simulate(off, jobs=1)
    assert r["makespan_bound"].isna().all() and r["lower_bound"].isna().all()
    assert np.allclose(r["makespan"], simulate(sc, jobs=1)["makespan"])
    with pytest.raises(HcschedError, match="lower_bound"):
        sc.replace(lower_bound="yes")


def test_lower_bound_benchmark_only_where_a_model_has_bounds():
    classes = MODELS["classes"].tiny()
    with pytest.raises(HcschedError, match="'benchmark'"):
        classes.replace(benchmark=LOWER_BOUND)
    assert "'lower bound'" in str(pytest.raises(HcschedError, ETC.tiny().replace, benchmark="nothing").value)


def test_public_lower_bound_and_the_map_command(tmp_path, capsys):
    import hcsched
    from hcsched.cli import main

    assert hcsched.lower_bound([[4, 8], [4, 8]]) == pytest.approx(16 / 3)
    assert hcsched.lower_bound([[3, 6]], ready=[4, 0]) == pytest.approx(6.0)
    assert hcsched.lower_bound([[5, 7], [50, 60]], arrival=[100, 0]) == pytest.approx(105.0)  # rows in any order
    with pytest.raises(HcschedError, match="arrival: 1 values given for 2 tasks"):
        hcsched.lower_bound([[50, 60], [5, 7]], arrival=[1])
    path = tmp_path / "etc.csv"
    path.write_text("4,8\n4,8\n")
    main(["map", str(path), "--heuristic", "min-min"])
    out = capsys.readouterr().out
    assert "makespan: 8\nlower bound (LP relaxation): 5.33333; the makespan is 50.00% above it" in out
