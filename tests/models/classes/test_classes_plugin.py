"""Heuristics of one's own in the task-class model (hcsched.models.classes.plugin): the example file, a plug-in that
re-implements MCT (plain Python and jitted) against the built-in, the battery of checks, loud failures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hcsched
from hcsched.errors import HcschedError
from hcsched.heuristics import Param, get_heuristic, unregister_heuristic
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.models.classes import kernels
from hcsched.models.classes.simulation import execution_times, make_class_workload, sample_times
from hcsched.registry import get_model
from hcsched.sampling import trial_seeds
from hcsched.testing import check_heuristic

RULES = Path(__file__).resolve().parents[3] / "docs" / "plugins" / "classes_rules.py"
MODEL = "classes"


def mct_python(task, machines, params):
    """MCT: the earliest W_j + 1/mu_ij among the machines that can run the class, the lowest index on ties."""
    mu = machines.mu[task.cls]
    return int(np.argmin(np.where(mu > 0, machines.work + 1.0 / np.where(mu > 0, mu, 1.0), np.inf)))


@njit(cache=True)
def mct_jit(task, machines, params):
    mu = machines.mu[task.cls]
    best, best_c = -1, np.inf
    for j in range(mu.size):
        if mu[j] > 0:
            c = machines.work[j] + 1.0 / mu[j]
            if c < best_c:
                best, best_c = j, c
    return best


@pytest.fixture
def plugins():
    """Make plug-ins with ``plugins(rule, name)``; every one registered is unregistered afterwards."""
    made = []

    def make(rule, name, **meta):
        h = hcsched.heuristic(MODEL, name, **meta)(rule)
        made.append(h.name)
        return h

    yield make
    for name in made:
        unregister_heuristic(name, MODEL)


def scenario(heuristics, trials=2):
    """System B with a machine that cannot run class 1 (mu = 0), a short horizon."""
    return hcsched.Scenario.from_dict({
        "name": "plug", "model": MODEL, "arrival_rates": [5, 4], "exec_rates": [[8, 3, 2], [4, 10, 0]],
        "horizon": 150.0, "heuristics": ["mct"], "trials": trials, "seed": 11}).replace(heuristics=heuristics)


def without_label(frame):
    return frame.drop(columns=[c for c in frame.columns if c == "heuristic" or c.startswith("normalized_")])


@pytest.mark.parametrize("rule", [mct_python, mct_jit], ids=["python", "jit"])
def test_a_plugin_reimplementing_mct_gives_the_builtins_results_byte_for_byte(plugins, rule):
    mine = plugins(rule, f"my-mct-{'jit' if rule is mct_jit else 'python'}")
    results, schedules = hcsched.simulate(scenario([mine, "mct"]), jobs=1, schedules=True)
    ours, theirs = (results[results["heuristic"] == x] for x in (mine.name, "mct"))
    assert without_label(ours).to_csv(index=False) == without_label(theirs).to_csv(index=False)
    s_ours, s_theirs = (schedules[schedules["heuristic"] == x] for x in (mine.name, "mct"))
    assert without_label(s_ours).to_csv(index=False) == without_label(s_theirs).to_csv(index=False)


def test_the_example_file_runs_beside_a_builtin_and_passes_the_checks():
    found = load_plugin_file(RULES)
    try:
        assert {h.name for h in found} == {"least-queued", "random-capable"}
        assert {h.name: h.jitted for h in found} == {"least-queued": False, "random-capable": True}
        results = hcsched.simulate(scenario([*found, "lpas"]), jobs=1)
        assert set(results["heuristic"]) == {"least-queued", "random-capable", "lpas"}
        assert (results["completed"] > 0).all()
        for h in found:
            check_heuristic(h, model=MODEL)
    finally:
        for h in found:
            unregister_heuristic(h.name, MODEL)


def test_check_heuristic_passes_on_a_jitted_plugin(plugins):
    check_heuristic(plugins(mct_jit, "my-mct-checked"), model=MODEL)


def test_registering_a_plugin_changes_no_preset(plugins):
    before = {name: hcsched.preset(name).to_dict() for name in get_model(MODEL).presets()}
    plugins(mct_python, "my-mct-presets")
    assert {name: hcsched.preset(name).to_dict() for name in get_model(MODEL).presets()} == before
    unregister_heuristic("my-mct-presets", MODEL)
    assert {name: hcsched.preset(name).to_dict() for name in get_model(MODEL).presets()} == before


def test_an_unknown_kind_fails_loudly():
    spec = scenario(["mct"]).classes
    w = make_class_workload(spec, trial_seeds(1, 1)[0])
    cands = np.array([[0, 1, 2], [0, 1, 0]])
    for kind in (kernels.PLUGIN + 1, -1):
        bad = (kind, cands, np.array([3, 2]), spec.mu, 0.0, execution_times(spec), kernels.LOWEST)
        with pytest.raises(ValueError, match="unknown heuristic kind"):
            kernels.run_classes((w.arrival, w.cls, w.work, w.u1, w.u2, w.u3), bad,
                                (execution_times(spec), float(spec.horizon), sample_times(spec)))
    with pytest.raises(ValueError, match="unknown heuristic kind"):  # the built-ins' stand-in for a rule
        kernels.decide(bad, 0, 0.0, np.zeros(3), execution_times(spec)[0], (np.zeros(3, np.int64), 1),
                       (0.5, 0.5, 0.5), np.empty(3, np.int64))


def incapable(task, machines, params):
    return 2  # machine 2 cannot run class 1


def out_of_range(task, machines, params):
    return 7


def not_an_int(task, machines, params):
    return 0.5


def raising(task, machines, params):
    raise ZeroDivisionError("my bug")


def writes(task, machines, params):
    machines.work[0] = 0.0
    return 0


@njit
def incapable_jit(task, machines, params):
    return 2


@pytest.mark.parametrize(("rule", "message"), [
    (incapable, r"sent a class-1 task arriving at .* to machine 2; allowed: a machine that can run class 1 "
                r"\(mu\[1, j\] > 0\): 0, 1$"),
    (incapable_jit, r"to machine 2; allowed: a machine that can run class 1"),
    (out_of_range, r"to machine 7; allowed: a machine that can run class \d"),
    (not_an_int, r"returned 0.5 for a class-\d task arriving at .*; allowed: an int"),
    (raising, r"its rule raised ZeroDivisionError: my bug$"),
    (writes, r"its rule raised ValueError: assignment destination is read-only$"),
], ids=["incapable", "incapable-jit", "out-of-range", "not-an-int", "raises", "writes"])
def test_a_bad_rule_gets_one_clear_line_naming_the_heuristic(plugins, rule, message):
    mine = plugins(rule, "bad-rule")
    with pytest.raises(HcschedError, match=message) as info:
        hcsched.simulate(scenario([mine], trials=1), jobs=1)
    assert "'bad-rule'" in str(info.value) and "\n" not in str(info.value)


def test_capabilities_and_the_cost_model(plugins):
    mine = plugins(mct_python, "my-mct-cost", cost=lambda spec, h: 0.25)
    sc = scenario([mine])
    assert mine.trial_seconds(sc.spec, sc.heuristics[0]) == 0.25
    jit = plugins(mct_jit, "my-mct-cost-jit")
    mct = get_heuristic("mct", MODEL)
    spec = scenario(["mct"]).spec
    ratio = jit.trial_seconds(spec, None) / mct.trial_seconds(spec, None)
    assert ratio == pytest.approx(3.0)
    with pytest.raises(HcschedError, match="no capability 'batch'; allowed: cost, mode"):
        hcsched.heuristic(MODEL, "x", batch=True)(mct_python)
    with pytest.raises(HcschedError, match="mode 'batch' is not allowed; allowed: immediate"):
        hcsched.heuristic(MODEL, "x", mode="batch")(mct_python)


def test_the_rule_reads_parameters_and_queues(plugins):
    seen = []

    def spy(task, machines, params):
        seen.append((params.tolist(), machines.queued.copy(), machines.work.copy(), machines.arrived.copy()))
        assert not machines.work.flags.writeable and not task.u.flags.writeable
        return int(np.flatnonzero(machines.mu[task.cls] > 0)[0])

    mine = plugins(spy, "spy", params={"weight": 2.5, "mode": Param("mode", "b", "choice", choices=("a", "b"))})
    hcsched.simulate(scenario([mine], trials=1), jobs=1)
    assert seen[0][0] == [2.5, 1.0]  # in the order declared, a choice as its index
    assert seen[0][1].tolist() == [0, 0, 0] and seen[0][2].tolist() == [0.0, 0.0, 0.0]
    assert any(q[0] > 1 for _, q, _, _ in seen)  # machine 0 takes every task: its queue grows
    for _, q, work, _ in seen:  # every task on machine 0: W_0 = queued x 1/mu of its classes, which is >= 1/8 each
        assert work[0] >= q[0] / 8 - 1e-9
    assert sum(seen[-1][3]) == len(seen)  # arrivals of each class so far, this one included
