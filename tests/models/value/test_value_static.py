"""The value model's worth (Kim et al. 2007, sections 2.2-2.3) and static benchmarks TPSA and GA (section 5):
V recomputed by hand for each boundary case, deadline factors, UB by hand, V <= UB by hypothesis, and the
static searches (never worse than their seed, improving a bad seed, reaching a brute-forced optimum, determinism)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched.models.value import worth
from hcsched.models.value.worth import (
    LATE,
    MET_D25,
    MET_D50,
    MET_D100,
    NEVER_STARTED,
    boundary_factor,
    deadline_factor,
    outcome,
    task_values,
    upper_bound,
)

NAN = np.nan
B, E = 10.0, 100.0


def arr(*x):
    return np.array(x, dtype=float)


# --- deadline factors (section 2.2.2) -------------------------------------------------------------------------------
@pytest.mark.parametrize("finish, d, code", [
    (40.0, 1.0, MET_D100), (50.0, 1.0, MET_D100),  # "at or before" the deadline meets it
    (50.5, 0.5, MET_D50), (80.0, 0.5, MET_D50),
    (80.1, 0.25, MET_D25), (120.0, 0.25, MET_D25),
    (120.1, 0.05, LATE), (1e9, 0.05, LATE),
])
def test_deadline_factor_and_outcome(finish, d, code):
    assert deadline_factor(finish, 50.0, 80.0, 120.0) == d
    assert outcome(finish - 5.0, finish, 50.0, 80.0, 120.0, 1e12) == code


def test_never_started_factor_is_zero():
    assert deadline_factor(NAN, 50.0, 80.0, 120.0) == 0.0
    assert outcome(NAN, NAN, 50.0, 80.0, 120.0, E) == NEVER_STARTED
    assert outcome(E, E + 3.0, 500.0, 800.0, 1200.0, E) == NEVER_STARTED  # starts at E: not during the period
    assert outcome(E - 1.0, E + 3.0, 500.0, 800.0, 1200.0, E) == MET_D100
    assert outcome(0.0, 5.0, 50.0, 80.0, 120.0, E) == MET_D100  # started before B: it did start


def test_outcome_names_and_factors():
    assert worth.OUTCOMES == ("met_d100", "met_d50", "met_d25", "late", "never_started")
    assert worth.DEADLINE_FACTORS == (1.0, 0.5, 0.25, 0.05)
    assert (MET_D100, MET_D50, MET_D25, LATE, NEVER_STARTED) == (0, 1, 2, 3, 4)


# --- boundary factor and V by hand (section 2.2.3), B = 10, E = 100 -------------------------------------------------
# weight 4, deadlines D100 = 50, D50 = 80, D25 = 120 for every task
CASES = {
    # case: (start, finish, b, d)
    "a": (5.0, 25.0, (25 - 10) / 20, 1.0),         # st < B < ft <= E
    "b": (20.0, 60.0, 1.0, 0.5),                   # B <= st, ft <= E
    "b-edges": (10.0, 100.0, 1.0, 0.25),           # st = B and ft = E are still (b); D50 < ft <= D25
    "c": (90.0, 130.0, (100 - 90) / 40, 0.05),     # B <= st < E < ft; d from ft past E (section 2.2.3)
    "d": (0.0, 200.0, (100 - 10) / 200, 0.05),     # st < B, ft > E
    "e-before": (0.0, 10.0, 0.0, 1.0),             # ft <= B
    "e-after": (100.0, 110.0, 0.0, 1.0),           # st >= E
}


@pytest.mark.parametrize("case", CASES)
def test_boundary_factor_each_case(case):
    st_, ft, b, _ = CASES[case]
    assert boundary_factor(st_, ft, ft - st_, B, E) == pytest.approx(b, abs=1e-15)


def test_value_of_a_schedule_with_every_boundary_case_by_hand():
    start = arr(*(c[0] for c in CASES.values()), NAN)
    finish = arr(*(c[1] for c in CASES.values()), NAN)
    n = start.size
    w, d100, d50, d25 = np.full(n, 4.0), np.full(n, 50.0), np.full(n, 80.0), np.full(n, 120.0)
    by_hand = [4 * 1.0 * 0.75, 4 * 0.5 * 1.0, 4 * 0.25 * 1.0, 4 * 0.05 * 0.25, 4 * 0.05 * 0.45, 0.0, 0.0, 0.0]
    np.testing.assert_allclose(task_values(start, finish, w, d100, d50, d25, B, E), by_hand, atol=1e-15)
    assert worth.value(start, finish, w, d100, d50, d25, B, E) == pytest.approx(3.0 + 2.0 + 1.0 + 0.05 + 0.09)


# --- the upper bound (section 2.3) ------------------------------------------------------------------------------------
def test_upper_bound_by_hand():
    # B = 10, E = 30, 2 machines. Q = 4/10, 2/3, 1/100. Slice [10, 20] (tasks 0 and 1 arrived): TACT 20 takes
    # task 1 whole (3 s, +2) then task 0 whole (10 s, +4); slice [20, 30]: task 2 takes 20 of its 100 s (+0.2).
    a, w, m = arr(0, 5, 20), arr(4, 2, 1), arr(10, 3, 100)
    assert upper_bound(a, w, m, 2, 10.0, 30.0) == pytest.approx(6.2)
    # one machine: [10, 20] gives task 1 (3 s, +2) then 7 s of task 0 (+2.8); [20, 30]: task 0's last 3 s (+1.2)
    # beat task 2 (Q 0.4 > 0.01), then 7 s of task 2 (+0.07)
    assert upper_bound(a, w, m, 1, 10.0, 30.0) == pytest.approx(2 + 2.8 + 1.2 + 0.07)
    # from time 0 (from_zero): [0, 5] gives task 0 five seconds (+2); [5, 20]: task 1 (+2), task 0's last 5 s (+2),
    # 7 s idle
    assert upper_bound(a, w, m, 1, 10.0, 30.0, True) == pytest.approx(2 + 2 + 2 + 10 * 0.01)
    assert upper_bound(a, w, m, 1, 30.0, 30.0) == 0.0
    assert upper_bound(arr(50.0), arr(4.0), arr(1.0), 1, 10.0, 30.0) == 0.0  # arrives after E


def _plain_upper_bound(arrival, weight, min_atc, machines, B, E, from_zero=False):
    """Section 2.3 read literally: at every slice, scan all tasks in decreasing Q (lowest index on ties)."""
    t, total = (0.0 if from_zero else B), 0.0
    with np.errstate(divide="ignore"):
        q = weight / min_atc  # a zero-length task: Q infinite, never filled (rATC 0)
    order = np.argsort(-q, kind="mergesort")
    remaining = min_atc.copy()
    cuts = sorted({float(x) for x in arrival if t < x < E} | {E}) if E > t else []
    for nxt in cuts:
        tact = (nxt - t) * machines
        for i in order:
            if tact <= 0.0:
                break
            if arrival[i] <= t and remaining[i] > 0.0:
                used = min(tact, remaining[i])
                total += q[i] * used
                remaining[i] -= used
                tact -= used
        t = nxt
    return total


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from([1.0, 4.0, 16.0]), st.integers(0, 12)), max_size=25),
       st.integers(1, 4), st.integers(0, 20), st.integers(0, 40), st.booleans())
def test_upper_bound_is_the_literal_greedy(tasks, machines, b, length, from_zero):
    """The heap of ranks gives the same sum, in the same order of additions, as scanning every task at every
    slice (ties in Q and in arrival, zero-length tasks, arrivals at B and after E)."""
    a = arr(*[x[0] for x in tasks])
    w = arr(*[x[1] for x in tasks])
    m = arr(*[x[2] for x in tasks])
    args = (a, w, m, machines, float(b), float(b + length), from_zero)
    assert upper_bound(*args) == _plain_upper_bound(*args)


def _random_schedule(data):
    """A small feasible schedule: one task at a time per machine, never before its arrival, optional idle gaps,
    and some tasks never started."""
    n = data.draw(st.integers(1, 7))
    m = data.draw(st.integers(1, 3))
    floats = st.floats(0.0, 60.0, allow_nan=False)
    arrival = np.array(data.draw(st.lists(floats, min_size=n, max_size=n)))
    atc = np.array(data.draw(st.lists(st.floats(0.5, 40.0), min_size=n * m, max_size=n * m))).reshape(n, m)
    weight = np.array(data.draw(st.lists(st.sampled_from([1.0, 2.0, 4.0, 16.0]), min_size=n, max_size=n)))
    machine = np.array(data.draw(st.lists(st.integers(-1, m - 1), min_size=n, max_size=n)))  # -1: never started
    gaps = np.array(data.draw(st.lists(st.floats(0.0, 10.0), min_size=n, max_size=n)))
    order = data.draw(st.permutations(range(n)))
    start, finish, free = np.full(n, NAN), np.full(n, NAN), np.zeros(m)
    for i in order:
        if machine[i] >= 0:
            start[i] = max(arrival[i], free[machine[i]]) + gaps[i]
            finish[i] = free[machine[i]] = start[i] + atc[i, machine[i]]
    d100 = arrival + data.draw(st.floats(0.0, 30.0))
    return arrival, atc, weight, start, finish, d100, m


@settings(max_examples=150, deadline=None)
@given(st.data(), st.floats(0.0, 40.0), st.floats(1.0, 80.0))
def test_value_never_exceeds_upper_bound(data, b, span):
    arrival, atc, weight, start, finish, d100, m = _random_schedule(data)
    e = b + span
    v = worth.value(start, finish, weight, d100, d100 + 10, d100 + 20, b, e)
    ub = upper_bound(arrival, weight, atc.min(axis=1), m, b, e)
    assert v <= ub + 1e-9 * max(1.0, ub)
    # from_zero is looser
    assert ub <= upper_bound(arrival, weight, atc.min(axis=1), m, b, e, True) + 1e-9 * max(1.0, ub)


# --- the static benchmarks (section 5) -------------------------------------------------------------------------------
import inspect  # noqa: E402
import itertools  # noqa: E402

from hcsched import HcschedError, map_tasks  # noqa: E402
from hcsched.models.value import static  # noqa: E402
from hcsched.models.value.static import GA_PARAMS, TPSA_PARAMS, StaticProblem, evaluate, ga, score, tpsa  # noqa: E402

FAST_GA = {"generations": 300, "elite_unchanged": 100}


def value_problem(t=12, m=3, seed=0):
    """A small oversubscribed value problem: arrivals over 0..60 s, ATC 5..40 s, window [10, 80]."""
    rng = np.random.default_rng(seed)
    arrival = np.sort(rng.uniform(0, 60, t))
    atc = rng.uniform(5, 40, (t, m))
    weight = rng.choice([1.0, 4.0, 16.0], t)
    d100 = arrival + np.median(atc, axis=1) + rng.uniform(0, 20, t)
    return StaticProblem(arrival, atc, weight, d100, d100 + 15, d100 + 30, 10.0, 80.0)


def test_evaluate_by_hand():
    # machine 0 runs tasks 2, 0 (order 0.5 < 3): task 2 arrives at 4, runs 4-9; task 0 arrives at 0, runs 9-19.
    # machine 1 runs task 1 (arrives 12) 12-14 and task 3 (arrives 1, order tied with task 1: lower index first) 14-20.
    atc = arr(10, 99, 99, 2, 5, 99, 99, 6).reshape(4, 2)
    p = StaticProblem(arr(0, 12, 4, 1), atc, arr(1, 1, 1, 1), arr(20, 20, 20, 20), arr(30, 30, 30, 30),
                      arr(40, 40, 40, 40), 0.0, 100.0)
    start, finish = evaluate(p, [0, 1, 0, 1], arr(3, 7, 0.5, 7))
    np.testing.assert_array_equal(start, [9, 12, 4, 14])
    np.testing.assert_array_equal(finish, [19, 14, 9, 20])
    assert score(p, [0, 1, 0, 1], arr(3, 7, 0.5, 7)) == 4.0
    assert score(StaticProblem.makespan(atc), [0, 1, 0, 1], arr(3, 7, 0.5, 7)) == -15.0


def test_a_queue_evaluation_is_the_plain_sum_task_by_task():
    # each task at max(its arrival, the previous finish); p d b summed in queue order, read from the problem's fields
    from hcsched.models.value.static.problem import resume, saved_states

    p = value_problem(40, 3, 4)
    pa = p.arrays()
    assert pa.task.shape == (40, 8) and pa.task.flags.c_contiguous
    row = np.random.default_rng(5).permutation(40)[:25]
    for m in range(3):
        t, v = 0.0, 0.0
        for i in row:
            s = max(p.arrival[i], t)
            t = s + p.atc[i, m]
            v += p.weight[i] * deadline_factor(t, p.d100[i], p.d50[i], p.d25[i]) * boundary_factor(
                s, t, p.atc[i, m], p.B, p.E)
        assert resume(row, row.size, m, pa, saved_states(3, 40)[m], 0) == (v, t)


def test_bad_schedules_and_problems_are_named():
    p = value_problem(4, 2)
    with pytest.raises(HcschedError, match="machine"):
        evaluate(p, [0, 1, 2, 0], np.zeros(4))
    with pytest.raises(HcschedError, match="order"):
        evaluate(p, [0, 1, 1, 0], np.zeros(3))
    with pytest.raises(HcschedError, match="objective"):
        StaticProblem(p.arrival, p.atc, p.weight, p.d100, p.d50, p.d25, 10.0, 80.0, "speed")
    with pytest.raises(HcschedError, match="weight"):
        StaticProblem(p.arrival, p.atc, p.weight[:2], p.d100, p.d50, p.d25)


def test_params_are_the_keyword_parameters_with_the_papers_defaults():
    for fn, params in ((tpsa, TPSA_PARAMS), (ga, GA_PARAMS)):
        sig = inspect.signature(fn).parameters
        assert {p.name: p.default for p in params} == {k: v.default for k, v in sig.items() if v.kind == v.KEYWORD_ONLY}
    d = {p.name: p.default for p in TPSA_PARAMS + GA_PARAMS}
    assert (d["t0"], d["alpha"], d["phase1_iterations"]) == (1e5, 0.99, 4000)
    assert (d["phase1_unchanged"], d["phase2_unchanged"]) == (400, 1000)
    assert (d["t_min"], d["runs"], d["population"], d["crossover"], d["mutation"]) == (1e-200, 5, 100, 0.9, 0.2)
    assert (d["generations"], d["elite_unchanged"]) == (1000, 200)


def _check_result(p, res, seed_score):
    assert res.score >= seed_score
    for m in range(p.machines):  # every task once, positions 0..k-1 on each machine
        np.testing.assert_array_equal(np.sort(res.order[res.machine == m]), np.arange((res.machine == m).sum()))
    start, finish = evaluate(p, res.machine, res.order)
    np.testing.assert_array_equal(start, res.start)
    np.testing.assert_array_equal(finish, res.finish)
    assert res.score == score(p, res.machine, res.order)


@pytest.mark.parametrize("search, params", [(tpsa, {}), (ga, FAST_GA)])
def test_never_worse_than_the_seed_and_below_the_upper_bound(search, params):
    p = value_problem(14, 3, seed=3)
    machine, order = np.arange(14) % 3, p.arrival.copy()  # round robin in arrival order
    seed_score = score(p, machine, order)
    res = search(p, machine, order, np.random.default_rng(5), **params)
    _check_result(p, res, seed_score)
    assert res.score > seed_score
    assert res.score <= upper_bound(p.arrival, p.weight, p.atc.min(axis=1), 3, p.B, p.E) + 1e-9
    # an already optimal seed (every task alone on a huge window) comes back unchanged
    q = StaticProblem(np.zeros(3), np.ones((3, 3)), np.ones(3), np.full(3, 5.0), np.full(3, 6.0), np.full(3, 7.0),
                      0.0, 9.0)
    res = search(q, [0, 1, 2], np.zeros(3), np.random.default_rng(0), **params)
    assert res.score == 3.0 and list(res.machine) == [0, 1, 2]


@pytest.mark.parametrize("search, params", [(tpsa, {}), (ga, FAST_GA)])
def test_a_bad_seed_is_improved(search, params):
    etc = np.random.default_rng(2).uniform(10, 100, (20, 4))
    p = StaticProblem.makespan(etc)
    bad = np.zeros(20, int)  # everything on machine 0
    res = search(p, bad, np.arange(20.0), np.random.default_rng(1), **params)
    assert -res.score < 0.5 * etc[:, 0].sum()
    assert res.evaluations > 1


def _brute_force(p):
    """The best score over every assignment and every order of each machine's queue."""
    t, m = p.tasks, p.machines
    best = -np.inf
    for machine in itertools.product(range(m), repeat=t):
        machine = np.array(machine)
        queues = [np.flatnonzero(machine == j) for j in range(m)]
        for perms in itertools.product(*(itertools.permutations(q) for q in queues)):
            order = np.zeros(t)
            for perm in perms:
                order[list(perm)] = np.arange(len(perm))
            best = max(best, score(p, machine, order))
    return best


@pytest.mark.parametrize("search, params", [(tpsa, {}), (ga, {})])
def test_the_brute_forced_optimum_is_reached(search, params):
    p = value_problem(5, 2, seed=11)
    best = _brute_force(p)
    res = search(p, np.zeros(5, int), p.arrival, np.random.default_rng(0), **params)
    assert res.score == pytest.approx(best, abs=1e-12)
    q = StaticProblem.makespan(np.random.default_rng(4).uniform(1, 20, (6, 3)))
    best = max(score(q, machine, np.zeros(6)) for machine in itertools.product(range(3), repeat=6))
    res = search(q, np.zeros(6, int), np.zeros(6), np.random.default_rng(0), **params)
    assert res.score == pytest.approx(best, abs=1e-12)


def _min_min_seed(etc):
    r = map_tasks(etc, "min-min")
    return r.assignment, r.completion, r.makespan  # each machine's tasks in the order of their Min-min completion


@pytest.mark.parametrize("search, params", [(tpsa, {}), (ga, FAST_GA)])
def test_makespan_at_least_as_good_as_min_min(search, params):
    rng = np.random.default_rng(9)
    etc = rng.gamma(1 / 0.6**2, 0.6**2, (48, 1)) * rng.gamma(1 / 0.6**2, 100 * 0.6**2, (48, 6))  # CVB-like
    machine, order, min_min = _min_min_seed(etc)
    p = StaticProblem.makespan(etc)
    assert -score(p, machine, order) == pytest.approx(min_min)
    res = search(p, machine, order, np.random.default_rng(3), **params)
    _check_result(p, res, -min_min)
    assert -res.score <= min_min


@pytest.mark.parametrize("search, params", [(tpsa, {"runs": 2}), (ga, FAST_GA)])
def test_same_seed_same_result(search, params):
    p = value_problem(15, 3, seed=8)
    machine, order = np.arange(15) % 3, p.arrival
    a, b, c = (search(p, machine, order, np.random.default_rng(s), **params) for s in (42, 42, 43))
    for field in ("machine", "order", "start", "finish"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert a.score == b.score and a.evaluations == b.evaluations
    assert (a.evaluations, tuple(a.machine)) != (c.evaluations, tuple(c.machine))


def test_tpsa_unchanged_reading_and_phases():
    p = value_problem(10, 2, seed=1)
    machine, order = np.arange(10) % 2, p.arrival
    seed_score = score(p, machine, order)
    for unchanged in ("mapping", "value"):
        _check_result(p, tpsa(p, machine, order, np.random.default_rng(0), unchanged=unchanged), seed_score)
    # phase 1 only (phase 2 stops at once): at most 4000 evaluations per run
    res = tpsa(p, machine, order, np.random.default_rng(0), t_min=1e300, runs=1)
    assert 1 < res.evaluations <= 4001
    with pytest.raises(HcschedError, match="alpha"):
        tpsa(p, machine, order, np.random.default_rng(0), alpha=1.0)
    assert static.OBJECTIVES == ("value", "makespan")
