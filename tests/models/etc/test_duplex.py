"""Duplex (Braun et al., JPDC 61(6), 2001, section 2): Min-min's and Max-min's mappings, the smaller makespan kept
(Min-min's on a tie), worked by hand on Table 3 of Maheswaran et al. (1999)."""

import numpy as np

import hcsched
from hcsched import map_tasks, simulate
from hcsched.models.etc import MODEL
from hcsched.testing import check_heuristic

# Table 3 of seed 000: rows t0..t3, columns m0..m3, every machine ready at 0.
TABLE_3 = np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], float)


def test_duplex_keeps_max_mins_mapping_on_table_3():
    # Min-min, each iteration the smallest earliest completion:
    #   1: t0 40 (m0), t1 50 (m0), t2 55 (m0), t3 52 (m0)   -> t0 to m0, ready m0 = 40
    #   2: t1 82 (m1), t2 68 (m1), t3 60 (m1)               -> t3 to m1, ready m1 = 60
    #   3: t1 min(90, 142, 88, 89) = 88 (m2), t2 min(95, 128, 94, 93) = 93 (m3) -> t1 to m2, ready m2 = 88
    #   4: t2 min(95, 128, 182, 93) = 93 (m3)               -> t2 to m3, ready m3 = 93
    #   mapping t0 m0, t1 m2, t2 m3, t3 m1; ready (40, 60, 88, 93): makespan 93 (the paper's Table 3)
    # Max-min, each iteration the largest earliest completion:
    #   1: t0 40, t1 50, t2 55, t3 52 (all m0)              -> t2 to m0, ready m0 = 55
    #   2: t0 min(95, 48, 134, 50) = 48 (m1), t1 min(105, 82, 88, 89) = 82 (m1), t3 min(107, 60, 78, 108) = 60 (m1)
    #                                                       -> t1 to m1, ready m1 = 82
    #   3: t0 min(95, 130, 134, 50) = 50 (m3), t3 min(107, 142, 78, 108) = 78 (m2) -> t3 to m2, ready m2 = 78
    #   4: t0 min(95, 130, 212, 50) = 50 (m3)               -> t0 to m3, ready m3 = 50
    #   mapping t0 m3, t1 m1, t2 m0, t3 m2; ready (55, 82, 78, 50): makespan 82 (the paper's Table 3)
    # Duplex: 82 < 93, so Max-min's mapping.
    assert map_tasks(TABLE_3, "min-min").assignment.tolist() == [0, 2, 3, 1]
    assert map_tasks(TABLE_3, "min-min").makespan == 93
    assert map_tasks(TABLE_3, "max-min").assignment.tolist() == [3, 1, 0, 2]
    assert map_tasks(TABLE_3, "max-min").makespan == 82
    r = map_tasks(TABLE_3, "duplex", trace=True)
    assert r.assignment.tolist() == [3, 1, 0, 2] and r.makespan == 82
    assert r.ready.tolist() == [55, 82, 78, 50]
    assert [s.assignments for s in r.trace] == [[(2, 0)], [(1, 1)], [(3, 2)], [(0, 3)]]  # Max-min's order
    assert "Min-min (makespan 93)" in r.trace[0].reason and "keeps Max-min" in r.trace[0].reason


def test_duplex_keeps_min_mins_mapping_on_a_tie_and_when_it_is_better():
    # one machine: both map every task to it (makespan 3 either way), Min-min's order kept: t0 (1) before t1 (2)
    r = map_tasks(np.array([[2.0], [1.0]]), "duplex", trace=True)
    assert [s.assignments for s in r.trace] == [[(1, 0)], [(0, 0)]] and r.makespan == 3
    # t0 (1, 10), t1 (2, 2.5). Min-min: t0 1 (m0) < t1 2 (m0): t0 to m0; then t1 min(3, 2.5) = 2.5 on m1: makespan
    # 2.5. Max-min: t1 2 (m0) > t0 1: t1 to m0; then t0 min(3, 10) = 3 on m0: makespan 3. Min-min's is kept.
    e = np.array([[1.0, 10.0], [2.0, 2.5]])
    assert map_tasks(e, "min-min").makespan == 2.5 and map_tasks(e, "max-min").makespan == 3
    assert map_tasks(e, "duplex").assignment.tolist() == map_tasks(e, "min-min").assignment.tolist()


def test_duplex_runs_in_a_scenario_and_passes_the_battery():
    results = simulate(MODEL.tiny().replace(trials=2), heuristics=["duplex", "min-min", "max-min"], jobs=1)
    spans = results.pivot(index="trial", columns="heuristic", values="makespan")
    assert (spans["duplex"] > 0).all()
    check_heuristic("duplex", model="etc")
    assert hcsched.get_heuristic("duplex", "etc").mode == "batch"
