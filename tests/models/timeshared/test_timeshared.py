"""The time-shared model of Caniou and Jeannot (INRIA RR-4620): engine against processor-sharing theory and hand
computations, Table 3, the HTM's exact zero perturbations, a decision example by hand, the paper's cres/cres-incr
property, workload, readers, metrics and presets."""

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, Scenario, simulate
from hcsched.experiment import trial_runs, trial_seeds
from hcsched.models.timeshared import MODEL, engine, reference
from hcsched.models.timeshared.heuristics import HEURISTICS, NAMES
from hcsched.models.timeshared.htm import HTM, what_if
from hcsched.models.timeshared.presets import FITTED, METATASK1, METATASK2, PRESETS, TABLE2
from hcsched.models.timeshared.readers import parse_servers, parse_tasks
from hcsched.models.timeshared.spec import TimesharedSpec
from hcsched.models.timeshared.workload import make_workload

MODEL.warm_up()


def one_server(arrival, alone, half=False):
    """Phase ends of tasks all mapped to one server."""
    alone = np.asarray(alone, float).reshape(-1, 1, 3)
    arrival = np.asarray(arrival, float)
    return engine.replay(np.zeros(arrival.size, np.int64), np.argsort(arrival, kind="stable").astype(np.int64),
                         arrival, np.ascontiguousarray(alone), engine.HALF if half else engine.FULL)


# --- the engine -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("half", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_n_equal_tasks_arriving_together_finish_together_at_n_times_alone(n, half):
    alone = (1.3, 10.7, 0.9)
    ends = one_server(np.zeros(n), [alone] * n, half)
    np.testing.assert_allclose(ends[:, 2], n * sum(alone), rtol=1e-12)
    assert np.ptp(ends[:, 2]) == 0.0  # exactly together: simultaneous phase ends are one event


def test_staggered_arrivals_by_hand():
    # compute only: A (10) at 0, B (4) at 2. At 2 A has 8 left; they share: B ends at 2 + 8 = 10 (A has 4 left),
    # A at 14.
    np.testing.assert_allclose(one_server([0, 2], [(0, 10, 0), (0, 4, 0)])[:, 2], [14, 10])
    # A (in 2, cpu 6, out 1) at 0, B (in 4, cpu 2, out 0) at 1: inputs share from 1, A's ends at 3 (B has 3 left,
    # ends at 6); A computes alone 3-6 (3 left), shares with B from 6: B ends at 10, A at 11, A's output 11-12.
    ends = one_server([0, 1], [(2, 6, 1), (4, 2, 0)])
    np.testing.assert_allclose(ends, [[3, 11, 12], [6, 10, 10]])


def test_simultaneous_phase_ends_are_one_event():
    """Phase ends that coincide are handled together, whatever rounding does to them: A's compute and B's input end
    at 2 on different resources; B then computes alone (2-4), not sharing with A for an instant. Tags differing only
    by rounding (0.1 + 0.2 and 0.3) leave together, so equal work finishes at the same date exactly, in either task
    order."""
    np.testing.assert_allclose(one_server([0, 0], [(0, 2, 1), (2, 2, 0)]), [[0, 2, 3], [2, 4, 4]])
    for alone in ([(0, 0.1 + 0.2, 0), (0, 0.3, 0), (0, 1, 0)], [(0, 0.3, 0), (0, 0.1 + 0.2, 0), (0, 1, 0)]):
        ends = one_server([0, 0, 0], alone)
        assert ends[0, 1] == ends[1, 1] and ends[0, 1] == pytest.approx(0.9)
        assert ends[2, 2] == pytest.approx(0.9 + 0.7)


def test_full_and_half_duplex_differ_by_hand():
    # A (cpu 1, out 4) and B (in 4) at 0. Full duplex: A's output does not meet B's input: B 4, A 5.
    # Half duplex: B's input alone 0-1, shares with A's output from 1: B ends at 7 (A has 1 left), A at 8.
    alone = [(0, 1, 4), (4, 0, 0)]
    np.testing.assert_allclose(one_server([0, 0], alone)[:, 2], [5, 4])
    np.testing.assert_allclose(one_server([0, 0], alone, half=True)[:, 2], [8, 7])


def _table3(metatask, costs):
    return one_server([r[0] for r in metatask], [costs[r[1]] for r in metatask])[:, 2]


@pytest.mark.parametrize("metatask", [METATASK1, METATASK2], ids=["metatask1", "metatask2"])
def test_table3_simulated_dates_within_002_s_with_the_fitted_costs(metatask):
    assert np.abs(_table3(metatask, FITTED) - [r[3] for r in metatask]).max() <= 0.02


def test_table2_costs_do_not_reproduce_table3():
    np.testing.assert_allclose(_table3(METATASK1, TABLE2), [80.08, 97.08, 144.00], atol=0.005)


def test_table3_preset_gives_the_dates():
    _, table = simulate(PRESETS["caniou-table3"](), jobs=1, schedules=True)
    for _, g in table.groupby("heuristic"):
        assert np.abs(g["finish"].to_numpy() - [r[3] for r in METATASK2]).max() <= 0.02


times = st.floats(0.0, 50.0, allow_nan=False).map(lambda x: round(x, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(times, times, st.floats(0.1, 50.0).map(lambda x: round(x, 3)), times),
                min_size=1, max_size=8),
       st.booleans())
def test_engine_matches_a_plain_step_by_step_simulator(tasks, half):
    arrival = [t[0] for t in tasks]
    alone = [t[1:] for t in tasks]
    np.testing.assert_allclose(one_server(arrival, alone, half), reference.server_finish(arrival, alone, half),
                               atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 3), st.lists(st.tuples(times, times, st.floats(0.1, 50.0), times), min_size=1, max_size=10),
       st.sampled_from(NAMES), st.booleans(), st.data())
def test_schedules_of_every_heuristic_are_sound(m, tasks, name, half, data):
    """Phases in order from the arrival; no task beats its unloaded duration on its server (stretch >= 1); the run's
    dates are those of its mapping replayed by the engine alone; the same inputs give the same schedule."""
    n = len(tasks)
    arrival = np.array([t[0] for t in tasks])
    speed = np.array(data.draw(st.lists(st.floats(0.2, 5.0), min_size=m, max_size=m)))
    alone = np.ascontiguousarray(np.stack([np.array([t[1:] for t in tasks])] * m, axis=1))
    alone[:, :, 1] /= speed
    order = np.argsort(arrival, kind="stable").astype(np.int64)
    res = engine.HALF if half else engine.FULL
    kind = next(h.kind for h in HEURISTICS if h.name == name)
    machine, ends = engine.run_trial(kind, order, arrival, alone, res, 1e-6, False, name == "netsolve-mct")
    assert ((machine >= 0) & (machine < m)).all()
    assert (arrival <= ends[:, 0]).all() and (ends[:, 0] <= ends[:, 1]).all() and (ends[:, 1] <= ends[:, 2]).all()
    d = alone[np.arange(n), machine].sum(axis=1)
    assert (ends[:, 2] - arrival >= d * (1 - 1e-9) - 1e-9).all()
    np.testing.assert_array_equal(engine.replay(machine, order, arrival, alone, res), ends)
    again = engine.run_trial(kind, order, arrival, alone, res, 1e-6, False, name == "netsolve-mct")
    np.testing.assert_array_equal(again[0], machine)
    np.testing.assert_array_equal(again[1], ends)


# --- the HTM ----------------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(times, st.floats(0.1, 30.0), times), min_size=1, max_size=8), st.floats(0.0, 20.0))
def test_perturbation_is_exactly_zero_where_the_new_task_does_not_interact(tasks, a):
    """A new task whose input outlasts everything else never shares a resource with the others: delta == 0.0."""
    n = len(tasks) + 1
    alone = np.zeros((n, 1, 3))
    arrival = np.zeros(n)
    for i, (arr, cpu, out) in enumerate(tasks):
        arrival[i], alone[i, 0] = min(arr, a), (0.0, cpu, out)
    arrival[-1], alone[-1, 0] = a, (1e4, 1.0, 1.0)
    p = what_if(alone, arrival, np.zeros(n, np.int64), n - 1)
    assert (p.tasks["delta"] == 0.0).all()
    assert p.servers.loc[0, "mp"] == 0.0


def test_perturbations_can_be_negative():
    """A hand-made example: X (cpu 10), Y (in 4, cpu 10) at 0 finish at 16 and 20; Z (in 4, cpu 1) at 0 delays Y's
    entry to the processor: X 13, Y 21, Z 11. Used as computed (docs/models/timeshared.md), MP then prefers the
    loaded server (P = -2) to an idle twin (P = 0, where Z would end at 5); MP-L2 counts the negative delta as
    harm."""
    alone = np.repeat(np.array([[[0, 10, 0]], [[4, 10, 0]], [[4, 1, 0]]], float), 2, axis=1)  # two equal servers
    htm = HTM(alone, np.zeros(3))
    htm.commit(0, 0)
    htm.commit(1, 0)
    p = htm.predict(2)
    np.testing.assert_allclose(p.tasks["T_before"], [16, 20])
    np.testing.assert_allclose(p.tasks["T_after"], [13, 21])
    np.testing.assert_allclose(p.tasks["delta"], [-3, 1])
    assert p.servers["T_new"].tolist() == pytest.approx([11, 5])
    assert p.servers["mp"].tolist() == pytest.approx([-2, 0])
    assert p.servers["mp-l2"].tolist() == pytest.approx([10**0.5, 0])
    assert p.choice["mp"] == 0 and p.choice["hmct"] == 1 and p.choice["mp-l2"] == 1


def test_local_numbers_keep_finished_tasks_after_the_oldest_running():
    """Section 4.3: local task 1 is the oldest unfinished; later tasks already finished keep their numbers."""
    alone = np.array([[[0, 100, 0]], [[0, 1, 0]], [[0, 5, 0]]], float)
    htm = HTM(alone, np.array([0.0, 1.0, 10.0]))
    htm.commit(0, 0)
    htm.commit(1, 0)  # finishes at 3, before task 2 arrives; task 0 still runs
    p = htm.predict(2)
    assert p.tasks["local"].tolist() == [1, 2] and p.tasks["running"].tolist() == [True, False]
    assert p.tasks["delta"].tolist()[1] == 0.0 and p.servers.loc[0, "n"] == 2
    # By hand: B ends at 3 (A then has 98 left); at 10 A has 91 left and shares with C (5): C ends at 20, A at 106.
    # Min-Length sums the remaining lengths of the running task and the new one (section 6.5): 96 + 10, not B's
    # 3 - 10 too.
    np.testing.assert_allclose(p.tasks["T_after"], [106, 3])
    assert p.servers.loc[0, "min-length"] == pytest.approx(106)
    assert p.servers.loc[0, "mp-masse-cres"] == pytest.approx(1 * 5)  # A (local 1) ends at 101 without C: delta 5


# --- heuristics -------------------------------------------------------------------------------------------------------
EXPECTED_DECISION = {"netsolve-mct": 0, "hmct": 0, "mmc": 1, "mp": 1, "mp-load": 1, "mp-l2": 1, "mp-masse-cres": 1,
                     "mp-masse-cres-incr": 1, "mp-masse-decres": 1, "mp-masse-decres-incr": 1, "min-length": 1,
                     "msf": 1}


def test_a_decision_example_by_hand():
    """A (speed 1) runs a task with 10 s left, B (speed 0.4) is idle, a 3 s task arrives: on A it ends at 6 and
    delays the old one by 3; on B it ends at 7.5. HMCT and NetSolve MCT pick A, the rest B."""
    alone = np.zeros((2, 2, 3))
    alone[0, :, 1] = (10, 25)
    alone[1, :, 1] = (3, 7.5)
    htm = HTM(alone, np.zeros(2))
    htm.commit(0, 0)
    s = htm.predict(1).servers
    assert s["T_new"].tolist() == [6, 7.5] and s["mp"].tolist() == [3, 0]
    assert s["msf"].tolist() == [9, 7.5] and s["mmc"].tolist() == [13, 7.5] and s["min-length"].tolist() == [19, 7.5]
    assert s["netsolve-mct"].tolist() == [6, 7.5]
    assert htm.predict(1).choice == EXPECTED_DECISION  # with each heuristic's tie rules
    for h in HEURISTICS:
        machine, _ = engine.run_trial(h.kind, np.arange(2), np.zeros(2), alone, engine.FULL, 1e-6, False, False)
        assert machine.tolist() == [0, EXPECTED_DECISION[h.name]], h.name
    assert set(EXPECTED_DECISION) == set(NAMES)


def test_mp_ties_go_to_mct_among_the_tied_servers():
    """Idle servers all have P = 0: MP takes the fastest of them (ties=tied); ties=all also does when every P is 0."""
    alone = np.zeros((1, 3, 3))
    alone[0, :, 1] = (5, 2, 2)
    for all_equal in (False, True):
        machine, _ = engine.run_trial(engine.MP, np.arange(1), np.zeros(1), alone, engine.FULL, 1e-6, all_equal, False)
        assert machine.tolist() == [1]


def test_mp_tie_readings_differ():
    """Servers 0 (busy, fast, not disturbed) and 1 (idle, slow) tie at P = 0 while server 2 has P > 0: ties=tied takes
    MCT among the tied (server 0, where the task ends at 2 + 1 = 3 < 10); ties=all (not all equal) the lowest
    index... also 0; with the servers swapped ties=all keeps the lowest index (the slow one) and ties=tied the fast
    one."""
    alone = np.zeros((3, 3, 3))
    alone[0, :, :] = [(0, 10, 0), (10, 0, 0), (0, 1, 0)]  # task 0: on server 1 a long input; best on server 2
    alone[1, :, :] = [(0, 10, 0), (0, 1, 0), (0, 1, 0)]  # task 1 (arrives at 0 too)
    alone[2, :, :] = [(0, 10, 0), (0, 1, 0), (0, 1, 0)]
    # Drive it with what_if: task 0 on server 1 (input until 10), task 1 on server 2 (done at 1); task 2 at 0.
    p = what_if(alone, np.zeros(3), np.array([1, 2, 0]), 2)
    P = p.servers["mp"].to_numpy()
    assert P[0] == 0.0 and P[1] == 0.0 and P[2] > 0.0
    for all_equal, expected in ((False, 1), (True, 0)):
        keys = np.zeros((3, 3))
        keys[:, 0], keys[:, 1] = P, p.servers["T_new"]
        assert engine.choose(keys, 1e-6, all_equal) == expected


equal_workloads = st.tuples(
    st.lists(st.floats(1.0, 5.0), min_size=2, max_size=4),  # server speeds
    st.lists(st.floats(0.0, 30.0).map(lambda x: round(x, 2)), min_size=2, max_size=14),  # arrivals
    st.tuples(st.floats(0.0, 3.0), st.floats(0.5, 20.0), st.floats(0.0, 3.0)))  # one task size


@settings(max_examples=40, deadline=None)
@given(equal_workloads)
def test_cres_and_cres_incr_choose_alike_when_tasks_finish_in_arrival_order(w):
    """Section 6.4.4: with equal tasks, processor sharing finishes them in arrival order on every server; then the
    running tasks are exactly local tasks 1..n and the weights coincide."""
    speeds, arrival, (i, c, o) = w
    arrival = np.sort(np.array(arrival))
    n, m = arrival.size, len(speeds)
    alone = np.zeros((n, m, 3))
    alone[:, :, 0], alone[:, :, 2] = i, o
    alone[:, :, 1] = c / np.array(speeds)
    order = np.arange(n)
    for plain, incr in ((engine.CRES, engine.CRES_INCR), (engine.DECRES, engine.DECRES_INCR)):
        a, ends = engine.run_trial(plain, order, arrival, alone, engine.FULL, 1e-6, False, False)
        b, _ = engine.run_trial(incr, order, arrival, alone, engine.FULL, 1e-6, False, False)
        for j in range(m):
            fin = ends[a == j, 2]
            assert (np.diff(fin) >= -1e-9).all()  # the premise: arrival order
        assert a.tolist() == b.tolist()


def test_cres_and_cres_incr_differ_when_a_later_task_finished_first():
    """The property's premise matters: on server 0, A (cpu 100, at 0), B (cpu 1, at 0.5) and D (cpu 100, at 1); B
    finishes at 3.25, before C (cpu 2) arrives at 10. C delays A and D by 2 each: cres weighs them by their local
    numbers 1 and 3 (8), cres-incr by their ranks among the running tasks 1 and 2 (6); decres 3 and 1 (8),
    decres-incr 2 and 1 (6). On server 1 C (cpu 7) delays F by 7. So the plain ones take server 1, the Incr ones 0."""
    alone = np.zeros((5, 2, 3))
    alone[:, :, 1] = [(100, 1e3), (1e3, 1e3), (1, 1e3), (100, 1e3), (2, 7)]  # A, F, B, D, C
    arrival = np.array([0, 0, 0.5, 1, 10])
    p = what_if(alone, arrival, np.array([0, 1, 0, 0, -1]), 4)
    np.testing.assert_allclose(p.tasks["T_before"], [200.25, 3.25, 201, 1000])  # by hand
    s = p.servers.set_index("server")
    assert s["mp-masse-cres"].tolist() == pytest.approx([8, 7])
    assert s["mp-masse-cres-incr"].tolist() == pytest.approx([6, 7])
    assert s["mp-masse-decres"].tolist() == pytest.approx([8, 7])
    assert s["mp-masse-decres-incr"].tolist() == pytest.approx([6, 7])
    assert [p.choice[h] for h in ("mp-masse-cres", "mp-masse-cres-incr", "mp-masse-decres",
                                  "mp-masse-decres-incr")] == [1, 0, 1, 0]


def test_netsolve_load_reports_keep_a_finished_task_counted_until_a_report():
    """Section 2.3 (load=reports): the +1 at mapping stays when the task-end notice finds the recorded load at 1
    (only loads above 1 are decreased), until the 60 s report: a task arriving at 10 avoids the idle fast server;
    with exact knowledge (load=exact, section 6.1) it takes it. At 70, after the report at 60, the recorded load is
    right again."""
    alone = np.zeros((3, 2, 3))
    alone[:, :, 1] = (5, 8)
    arrival = np.array([0.0, 10.0, 70.0])
    exact, _ = engine.run_trial(engine.NETSOLVE_MCT, np.arange(3), arrival, alone, engine.FULL, 1e-6, False, False)
    reports, _ = engine.run_trial(engine.NETSOLVE_MCT, np.arange(3), arrival, alone, engine.FULL, 1e-6, False, True)
    assert exact.tolist() == [0, 0, 0] and reports.tolist() == [0, 1, 0]
    sc = Scenario(model="timeshared", servers=3, tasks=10, trials=1,
                  heuristics=["netsolve-mct", {"name": "netsolve-mct", "load": "reports"}])
    assert len(simulate(sc, jobs=1)) == 2


# --- workload, metrics ------------------------------------------------------------------------------------------------
def test_workload_follows_section_3_3():
    spec = TimesharedSpec(mean_interarrival=10.0)
    w = make_workload(spec, trial_seeds(1, 1)[0])
    assert w.speed.size == 25 and ((w.speed >= 150) & (w.speed <= 500)).all() and (w.bandwidth == 100).all()
    assert ((w.input_mb >= 0.001) & (w.input_mb <= 300)).all() and ((w.output_mb >= 0.001) & (w.output_mb <= 300)).all()
    fastest = w.speed.argmax()
    compute = w.alone[:, fastest, 1]
    transfer = w.alone[:, fastest, 0] + w.alone[:, fastest, 2]
    assert (compute >= 10 * transfer).all() and (compute <= 600).all()
    assert w.arrival[0] == 0 and (np.diff(w.arrival) >= 0).all() and 5 < np.diff(w.arrival).mean() < 15
    same = make_workload(spec.__class__(mean_interarrival=30.0), trial_seeds(1, 1)[0])
    np.testing.assert_array_equal(same.mflop, w.mflop)  # common random numbers across mu
    np.testing.assert_allclose(same.arrival, 3 * w.arrival)
    assert (make_workload(TimesharedSpec(), trial_seeds(1, 1)[0]).arrival == 0).all()


def test_metrics_against_the_reference():
    sc = MODEL.tiny()
    df = simulate(sc, jobs=1)
    np.testing.assert_allclose(df[["pct_sooner", "pct_same", "pct_later"]].sum(axis=1), 100)
    ref = df[df["heuristic"] == "netsolve-mct"]
    assert (ref["pct_same"] == 100).all() and (ref[[c for c in df if c.startswith("gain_")]] == 0).all().all()
    run = trial_runs(sc, 0)["hmct"]
    s = run.schedule
    row = df[(df["trial"] == 0) & (df["heuristic"] == "hmct")].iloc[0]
    assert row["makespan"] == s.finish.max() and row["sum_flow"] == pytest.approx((s.finish - s.arrival).sum())
    assert row["max_stretch"] == pytest.approx(((s.finish - s.arrival) / s.actual).max())
    assert row["pct_sooner"] == pytest.approx(100 * np.mean(s.finish < run.reference_finish - 1e-6))
    base = df[(df["trial"] == 0) & (df["heuristic"] == "netsolve-mct")].iloc[0]
    assert row["gain_makespan"] == pytest.approx(100 * (base["makespan"] - row["makespan"]) / base["makespan"])
    assert (run.input_end <= run.compute_end).all() and (run.compute_end <= s.finish).all()


# --- readers, spec, presets -------------------------------------------------------------------------------------------
def test_example_csvs_run_as_a_scenario(tmp_path):
    examples = ROOT / "assets" / "examples"
    sc = Scenario.from_dict({"model": "timeshared", "servers": {"path": "timeshared-servers.csv"},
                             "tasks": {"path": "timeshared-tasks.csv"},
                             "heuristics": ["netsolve-mct", "msf"], "trials": 1}, examples)  # a file of the user's own
    assert sc.spec.servers == 4 and sc.spec.tasks == 10 and sc.spec.platform.name[0] == "fast"
    sc.save(tmp_path / "s.json")
    assert Scenario.from_dict(sc.to_dict()) == sc
    df = simulate(sc, jobs=1)
    assert len(df) == 2 and df["makespan"].gt(0).all()


@pytest.mark.parametrize("text, message", [
    ("speed_mflops,bandwidth_mbit\n100,100\n-5,100\n", "row 3, column 'speed_mflops'"),
    ("speed_mflops,bandwidth_mbit\n100,abc\n", "row 2, column 'bandwidth_mbit': 'abc' is not a number"),
    ("speed_mflops,bandwith_mbit\n100,100\n", "no column 'bandwidth_mbit'"),
    ("speed_mflops,bandwidth_mbit\n100,100,7\n", "row 2 has 3 values"),
    ("", "empty"),
])
def test_bad_server_rows_get_one_line_errors(text, message):
    with pytest.raises(HcschedError, match=message.replace("(", r"\(")) as exc:
        parse_servers(text, "servers.csv")
    assert "\n" not in str(exc.value)


def test_bad_task_rows_get_one_line_errors():
    with pytest.raises(HcschedError, match="row 3, column 'mflop'"):
        parse_tasks("arrival;input_mb;mflop;output_mb\n0;1;2;3\n1;1;nan;3\n", "tasks.csv")
    table = parse_tasks("arrival\tinput_mb\tmflop\toutput_mb\n0\t1,5\t2\t3\n", "tasks.tsv")
    assert table.input_mb == (1.5,)


@pytest.mark.parametrize("data, field", [({"servers": 0}, "servers"), ({"duplex": "quarter"}, "duplex"),
                                         ({"reference": "mct"}, "reference"),
                                         ({"max_compute_s": 1e-4}, "bandwidth_mbit"),
                                         ({"size_mb": [5, 1]}, "size_mb"), ({"colour": 1}, "colour")])
def test_bad_spec_fields_are_named(data, field):
    with pytest.raises(HcschedError, match=field):
        Scenario.from_dict({"model": "timeshared", "heuristics": ["hmct"], **data})


def test_whole_numbers_written_as_floats_are_ints_and_fractions_are_named():
    sc = Scenario.from_dict({"model": "timeshared", "heuristics": ["hmct"], "servers": 3.0, "tasks": 12.0,
                             "trials": 1})
    assert type(sc.spec.servers) is int and type(sc.spec.tasks) is int
    assert len(simulate(sc)) == 1
    for field in ("servers", "tasks"):
        with pytest.raises(HcschedError, match=f"'{field}': 2.5"):
            Scenario.from_dict({"model": "timeshared", "heuristics": ["hmct"], field: 2.5})


def test_presets_and_their_sizes():
    for mu in (0, 10, 30, 70):
        sc = PRESETS[f"caniou-mu{mu}"]()
        assert sc.spec.mean_interarrival == mu and sc.spec.tasks == 250 and sc.spec.servers == 25
        assert [h.name for h in sc.heuristics] == list(NAMES) and sc.benchmark_label == "netsolve-mct"
    assert "caniou-grid" in MODEL.sweeps()


def test_half_duplex_scenario_changes_the_dates():
    """Inputs and outputs meet when computations are short (with section 3.3's costs they rarely do: the compute
    phase is at least ten times the transfers)."""
    sc = MODEL.tiny().replace(trials=1, compute_ratio=0.0, max_compute_s=5.0, mean_interarrival=2.0)
    full = simulate(sc, jobs=1)
    half = simulate(sc.replace(duplex="half"), jobs=1)
    assert (half["sum_flow"].to_numpy() > full["sum_flow"].to_numpy()).all()


# --- charts, sweep ----------------------------------------------------------------------------------------------------
def test_gantt_lanes_keep_overlapping_tasks_apart():
    from hcsched.models.timeshared.charts import gantt, lanes

    lane = lanes(np.array([0, 0, 0, 1]), np.array([0.0, 1, 5, 0]), np.array([4.0, 6, 7, 1]))
    assert lane.tolist() == [0, 1, 0, 0]
    frame = MODEL.schedule_frame(trial_runs(MODEL.tiny(), 0)["hmct"])
    fig = gantt(frame)
    assert [d.name for d in fig.data] == ["input", "compute", "output"]
    np.testing.assert_allclose(np.asarray(fig.data[1].base, float) + np.asarray(fig.data[1].x, float),
                               frame["compute_end"])


def test_the_grid_sweep_varies_mu_and_tasks_and_its_summary_draws_every_gain_heatmap():
    from hcsched.models.timeshared.charts import gain_heatmaps
    from hcsched.sweep import sweep, sweep_summary

    preset = MODEL.sweeps()["caniou-grid"]
    assert preset.vary == {"mean_interarrival": [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0],
                           "tasks": [10, 50, 100, 150, 200, 250]}
    assert preset.scenario().trials == 30 and [h.name for h in preset.scenario().heuristics] == list(NAMES)
    sc = preset.scenario().replace(heuristics=["netsolve-mct", "hmct", "msf"], servers=5)
    vary = {"mean_interarrival": [0.0, 30.0], "tasks": [10, 20]}
    table = sweep(sc, vary, trials=2, jobs=1)
    assert len(table) == 4 * 2 * 3 and set(table["tasks"]) == {10, 20}
    summary = sweep_summary(table, sc, vary)  # what the Sweep page gives sweep_charts
    for metric, mid in (("gain_makespan", 0), ("gain_sum_flow", 0), ("gain_max_flow", 0), ("gain_max_stretch", 0),
                        ("pct_sooner", 50)):
        fig = gain_heatmaps(summary, metric, mid)
        assert [d.name for d in fig.data] == ["netsolve-mct", "hmct", "msf"]
        z = np.asarray(fig.data[2].z, float)
        assert z.shape == (2, 2) and fig.data[2].zmid == mid
        cell = summary[(summary["heuristic"] == "msf") & (summary["tasks"] == 20)
                       & (summary["mean_interarrival"] == 30)]
        assert z[1, 1] == pytest.approx(cell[metric].iloc[0])
        assert (np.asarray(fig.data[0].z, float) == 0).all()  # the reference: no gain, no task sooner


# --- the public HTM is what the runs use; the command line ------------------------------------------------------------
def test_the_public_htm_predicts_what_every_heuristic_decides_in_a_run():
    """Replaying a run's mapping arrival by arrival, the HTM's choice for each heuristic (its tie rules included) is
    the server the run took, and the HTM's final dates are the run's."""
    sc = MODEL.tiny().replace(servers=3, tasks=25, mean_interarrival=15.0)
    w = make_workload(sc.spec, trial_seeds(5, 1)[0])
    for h in HEURISTICS:
        machine, ends = engine.run_trial(h.kind, w.order, w.arrival, w.alone, engine.FULL, 1e-6, False, False)
        htm = HTM.of(w)
        for t in w.order:
            assert htm.predict(int(t)).choice[h.name] == machine[t], (h.name, t)
            htm.commit(int(t), int(machine[t]))
        np.testing.assert_array_equal(engine.replay(machine, w.order, w.arrival, w.alone, engine.FULL), ends)


def test_a_server_brought_to_an_arrival_predicts_the_same_bit_for_bit():
    """The runs bring each server's state to the arrival (advance: past phase ends happen once, finished oldest
    tasks leave) and stop HMCT's simulation when the new task ends; the HTM does neither. Every prediction, the
    new task's T alone and the phase ends of the tasks that left are the same numbers."""
    sc = MODEL.tiny().replace(servers=3, tasks=40, mean_interarrival=150.0)  # tasks end between arrivals
    w = make_workload(sc.spec, trial_seeds(7, 1)[0])
    machine, ends = engine.run_trial(engine.MP, w.order, w.arrival, w.alone, engine.FULL, 1e-6, False, False)
    htm, advanced, left = HTM.of(w), HTM.of(w), 0
    T = np.zeros(w.arrival.size + 1)
    for t in w.order:
        a = float(w.arrival[t])
        for j in range(3):
            before = int(advanced.state.nm[j])
            engine.advance(j, a, advanced.state, advanced.res, advanced.ends, advanced._server)
            left += before - int(advanced.state.nm[j])
            L = engine.predict(j, int(t), a, advanced.state, w.alone, advanced.res, advanced._server, T, False)
            assert T[L] == htm.predict(int(t)).servers.loc[j, "T_new"]
        p, q = htm.predict(int(t)), advanced.predict(int(t))
        pd.testing.assert_frame_equal(p.servers, q.servers, check_exact=True)
        pd.testing.assert_frame_equal(p.tasks, q.tasks, check_exact=True)
        htm.commit(int(t), int(machine[t]))
        advanced.commit(int(t), int(machine[t]))
    done = ~np.isnan(advanced.ends[:, 2])
    assert left > 0 and done.any()
    np.testing.assert_array_equal(advanced.ends[done], ends[done])


def test_cli_schedules_give_each_tasks_phase_boundaries(tmp_path):
    from hcsched.cli import main

    path = tmp_path / "sched.csv"
    assert main(["run", "--preset", "caniou-table3", "--jobs", "1", "--schedules", str(path)]) == 0
    import pandas as pd

    table = pd.read_csv(path)
    assert {"input_end", "compute_end", "finish", "arrival"} <= set(table.columns)
    expected = one_server([r[0] for r in METATASK2], [FITTED[r[1]] for r in METATASK2])
    for _, g in table.groupby("heuristic"):
        g = g.sort_values("task")
        np.testing.assert_allclose(g[["input_end", "compute_end", "finish"]].to_numpy(), expected, atol=1e-6)
        assert (g["arrival"] <= g["input_end"]).all() and (g["input_end"] <= g["compute_end"]).all()


def test_cli_scenario_reads_the_users_csvs_beside_it_and_names_a_bad_row(tmp_path, capsys):
    import json

    from hcsched.cli import main

    examples = ROOT / "assets" / "examples"
    (tmp_path / "servers.csv").write_text((examples / "timeshared-servers.csv").read_text())
    (tmp_path / "tasks.csv").write_text((examples / "timeshared-tasks.csv").read_text())
    scenario = {"model": "timeshared", "servers": {"path": "servers.csv"}, "tasks": {"path": "tasks.csv"},
                "heuristics": ["netsolve-mct", "hmct", "msf"], "trials": 1}
    (tmp_path / "s.json").write_text(json.dumps(scenario))
    assert main(["run", str(tmp_path / "s.json"), "--jobs", "1", "--out", str(tmp_path / "r.csv")]) == 0
    assert "msf" in capsys.readouterr().out
    lines = (tmp_path / "tasks.csv").read_text().splitlines()
    lines[4] = "3,1,-5,1"
    (tmp_path / "tasks.csv").write_text("\n".join(lines) + "\n")
    assert main(["run", str(tmp_path / "s.json"), "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "tasks.csv" in err and "row 5, column 'mflop': -5 is not allowed" in err


def test_the_htm_of_a_scenario_answers_what_each_server_would_predict_now():
    sc = MODEL.tiny()
    htm = HTM.from_scenario(sc, trial=1)
    w = make_workload(sc.spec, trial_seeds(sc.seed, 2)[1])
    np.testing.assert_array_equal(htm.alone, w.alone)
    first = htm.predict(int(w.order[0]))  # every server idle: T is the unloaded duration, no perturbation
    np.testing.assert_allclose(first.servers["T_new"], w.arrival[w.order[0]] + w.alone[w.order[0]].sum(axis=1))
    assert first.tasks.empty and set(first.choice.values()) == {int(np.argmin(w.alone[w.order[0]].sum(axis=1)))}
    htm.commit(int(w.order[0]), 2)
    p = htm.predict(int(w.order[1]))
    assert p.tasks["server"].tolist() == [2] and p.tasks["task"].tolist() == [int(w.order[0])]
    with pytest.raises(HcschedError, match="server 9 is not allowed; allowed: 0 to 3"):
        htm.commit(int(w.order[1]), 9)
    with pytest.raises(HcschedError, match="not a task still to map"):
        htm.predict(int(w.order[0]))
    with pytest.raises(HcschedError, match="'model' is 'etc'; allowed: 'timeshared'"):
        HTM.from_scenario(Scenario(heuristics=["mct"]))


def test_the_run_time_estimate_follows_how_many_tasks_share_a_server():
    """The dashboard's estimate (bench/estimates.py compares it with runs): all tasks at once cost most
    (tests/models/timeshared/test_timeshared_own_servers.py: slow servers)."""
    from hcsched.experiment import estimate_seconds

    seconds = [estimate_seconds(PRESETS[f"caniou-mu{mu}"](), trials=1, jobs=1) for mu in (0, 10, 30, 70)]
    assert seconds[0] > 1.5 * seconds[1] > 1.5 * seconds[2] and seconds[2] >= seconds[3] > 0.9 * seconds[2]


def test_the_run_time_estimate_grows_with_tasks_times_servers_and_covers_the_smallest_run():
    """The estimate's fit (refitted to the faster kernels): at the same load per server, servers, tasks and
    arrival rate x4 cost about 16 times as much (less the costs per task and per run), tasks x4 alone about 4 times;
    a run of nine tasks on one server (caniou-table3) still costs a fixed amount per heuristic run."""
    from hcsched.experiment import estimate_seconds

    base = PRESETS["caniou-mu30"]()

    def estimate(f: int, servers: bool = True) -> float:
        s = base.spec
        more = {"servers": s.servers * f, "mean_interarrival": s.mean_interarrival / f} if servers else {}
        return estimate_seconds(base.replace(tasks=s.tasks * f, **more), trials=1, jobs=1)

    e1, e4, e16 = estimate(1), estimate(4), estimate(16)
    assert 12 < e4 / e1 < 16 and 14 < e16 / e4 < 16
    assert 3.5 < estimate(4, servers=False) / e1 < 4.1
    table3 = PRESETS["caniou-table3"]()
    assert estimate_seconds(table3, trials=1, jobs=1) / (len(table3.heuristics) + 1) > 1e-4
