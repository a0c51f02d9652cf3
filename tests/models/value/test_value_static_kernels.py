"""The static benchmarks' kernels (Kim et al. 2007, section 5): a queue evaluated again from a saved state sums to the
last bit what a whole evaluation sums; a crossover's children are the slot-by-slot merge of section 5.3; TPSA and
the GA give exactly the results recorded before they evaluated only what a move or a crossover changed; and each
run's deadline outcomes are those of the scalar rule."""

import hashlib

import numpy as np
import pytest
from test_value_static import value_problem  # the same small oversubscribed problem

from hcsched.models.value import worth
from hcsched.models.value.static import StaticProblem, ga, genetic, tpsa
from hcsched.models.value.static.problem import EVERY, resume, saved_states, sequences


@pytest.mark.parametrize("objective", ["value", "makespan"])
def test_resuming_from_any_position_sums_what_a_whole_evaluation_sums(objective):
    rng = np.random.default_rng(3)
    p = value_problem(60, 3, 5)
    if objective == "makespan":
        p = StaticProblem.makespan(p.atc)
    pa = p.arrays()
    for _ in range(20):
        row = rng.permutation(60)[: rng.integers(1, 60)]
        k, m = row.size, int(rng.integers(3))
        saved = saved_states(3, 60)[m]
        whole = resume(row, k, m, pa, saved, 0)
        kept = saved.copy()
        for start in range(k + 1):
            states = kept.copy()
            states[start // EVERY + 1:] = -1.0  # nothing past the state it resumes from may be read
            assert resume(row, k, m, pa, states, start) == whole
            np.testing.assert_array_equal(states[: k // EVERY + 1], kept[: k // EVERY + 1])


def slot_merge(head_row, tail_row, cut):
    """Section 5.3's child on one machine, read plainly: each slot gives the head parent's task if it is a head
    (index <= cut) and the tail parent's if it is a tail; a slot giving both is a pair in either order."""
    slots = []
    for s in range(max(len(head_row), len(tail_row))):
        slot = [row[s] for row, keep in ((head_row, lambda i: i <= cut), (tail_row, lambda i: i > cut))
                if s < len(row) and keep(row[s])]
        slots.append(slot)
    return slots


def test_crossover_children_are_the_slot_by_slot_merge():
    rng = np.random.default_rng(8)
    n, mm = 40, 3
    src, dst = genetic.new_population(2, mm, n), genetic.new_population(2, mm, n)
    p = value_problem(n, mm, 2)
    for c in range(2):
        seq, cnt = sequences(p, rng.integers(0, mm, n), rng.uniform(0, 1, n))
        src.seq[c, :, :n], src.cnt[c] = seq, cnt
    ties = np.empty((2, n + 1), np.int64)
    for _ in range(30):  # the cut and the order within pairs come from numba's own stream: every cut is tried
        genetic._crossover(src, 0, 1, dst, 0, 1, n, ties)
        cuts = set(range(n - 1))
        for child, (head, tail) in ((0, (0, 1)), (1, (1, 0))):
            for m in range(mm):
                got = list(dst.seq[child, m, : dst.cnt[child, m]])
                rows = [list(src.seq[x, m, : src.cnt[x, m]]) for x in (head, tail)]
                cuts &= {c for c in cuts if _matches(got, slot_merge(*rows, c))}
        assert cuts, "the children are not both the slot merge of one cut"


def plain_alike(x_row, y_row, cut):
    """How many first slots give each child one parent's tasks alone, read slot by slot (the definition)."""
    both = min(len(x_row), len(y_row))
    heads = next((s for s in range(both) if not ((x_row[s] <= cut and y_row[s] <= cut) or x_row[s] == y_row[s])),
                 both)
    tails = next((s for s in range(both) if not ((x_row[s] > cut and y_row[s] > cut) or x_row[s] == y_row[s])),
                 both)
    return heads, tails


def test_alike_runs_are_the_slot_by_slot_definition():
    rng = np.random.default_rng(11)
    n = 50
    for _ in range(400):
        x, y = (rng.permutation(n)[: rng.integers(0, n)] for _ in range(2))
        if rng.random() < 0.5:  # queues mostly in index order: long runs of heads, then of tails
            x, y = np.sort(x), np.sort(y)
        shared = int(rng.integers(0, min(x.size, y.size) + 1))  # a common first run, as in a converged population
        y[:shared] = x[:shared]
        x16, y16 = x.astype(np.int16), y.astype(np.int16)
        cut = int(rng.integers(n - 1))
        assert genetic._alike(x16, y16, min(x.size, y.size), cut) == plain_alike(list(x), list(y), cut)


def _matches(got, slots):
    k = 0
    for slot in slots:
        if sorted(got[k: k + len(slot)]) != sorted(slot):
            return False
        k += len(slot)
    return k == len(got)


def _digest(res):
    h = hashlib.sha256()
    for a in (res.machine, res.order, res.start, res.finish):
        h.update(np.ascontiguousarray(a, dtype=float).tobytes())
    return h.hexdigest()[:16]


# Results recorded with the kernels that evaluated every changed machine from its first task: the search must take
# the same path, draw for draw (score, schedules evaluated, the schedule itself).
SMALL_GA = {"population": 7, "crossover": 0.5, "mutation": 0.9, "pressure": 1.3, "generations": 200,
            "elite_unchanged": 150}
RECORDED = [
    ("value", tpsa, {"runs": 2}, 314.34344429887557, 93816, "ac82a399290aa287"),
    ("value", ga, {"generations": 300, "elite_unchanged": 100}, 266.0307382345123, 27267, "af69d6b156716b32"),
    ("value", ga, SMALL_GA, 197.77719986974665, 1129, "d4755fae65bcc96e"),
    ("makespan", tpsa, {"runs": 2}, -49.75798020605054, 93784, "7cbd87980b56d86f"),
    ("makespan", ga, {"generations": 300, "elite_unchanged": 100}, -67.18648389165662, 17731, "2d1c08b250edcbca"),
    ("makespan", ga, SMALL_GA, -97.19670080860622, 1129, "4510f98319cc9d87"),
]


@pytest.mark.parametrize("objective, search, params, score, evaluations, digest", RECORDED,
                         ids=[f"{r[0]}-{r[1].__name__}-{i}" for i, r in enumerate(RECORDED)])
def test_searches_give_the_recorded_results(objective, search, params, score, evaluations, digest):
    if objective == "value":
        p = value_problem(60, 4, 21)
        machine, order = np.arange(60) % 4, p.arrival
    else:
        p = StaticProblem.makespan(np.random.default_rng(4).uniform(1, 20, (50, 5)))
        machine, order = np.zeros(50, int), np.zeros(50)
    res = search(p, machine, order, np.random.default_rng(7), **params)
    assert (res.score, res.evaluations, _digest(res)) == (score, evaluations, digest)


def test_outcomes_are_the_scalar_rule_task_by_task():
    rng = np.random.default_rng(1)
    n = 200
    start = np.where(rng.random(n) < 0.2, np.nan, rng.uniform(0, 120, n))
    finish = start + rng.uniform(1, 30, n)
    d100 = rng.uniform(10, 100, n)
    d50, d25 = d100 + 10, d100 + 20
    expected = [worth.outcome(start[i], finish[i], d100[i], d50[i], d25[i], 100.0) for i in range(n)]
    np.testing.assert_array_equal(worth.outcomes(start, finish, d100, d50, d25, 100.0), expected)
