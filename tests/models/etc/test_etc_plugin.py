"""The ETC model's plug-in interface (hcsched/models/etc/plugin.py): a user's immediate or batch rule, numba or plain
Python, runs in the engine's loop; one that re-implements a built-in gives its results byte for byte; a bad rule
stops with one line naming it; registering one changes no preset."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hcsched
from hcsched import HcschedError, map_tasks, simulate
from hcsched.heuristics import register_heuristic
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.kernels import best_machine
from hcsched.models.etc import MODEL, batch, engine, immediate
from hcsched.testing import check_heuristic

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "plugins" / "etc_rules.py"


def _tiny(trials: int = 3):
    return MODEL.tiny().replace(trials=trials, benchmark=None)


def _rows(results, label: str) -> str:
    """A heuristic's rows without its label (and the normalised columns, which depend on the benchmark)."""
    own = results[results["heuristic"] == label]
    return own[[c for c in own.columns if c != "heuristic" and not c.startswith("normalized_")]].to_csv(index=False)


def _same_as(plugin_obj, builtin: str, sc=None) -> None:
    sc = sc or _tiny()
    results, schedules = simulate(sc, heuristics=[plugin_obj, builtin], jobs=1, schedules=True)
    assert _rows(results, plugin_obj.name) == _rows(results, builtin)
    mine, theirs = (schedules[schedules["heuristic"] == x].drop(columns="heuristic")
                    for x in (plugin_obj.name, builtin))
    assert mine.to_csv(index=False) == theirs.to_csv(index=False)


# --- MCT and Min-min again, as a user would write them --------------------------------------------------------
def py_mct(e, ready, now, params, state):
    return int(np.argmin(ready + e))  # ties: the lowest index, as MCT's


@njit
def nb_mct(e, ready, now, params, state):
    return best_machine(e, ready)[0]


def py_min_min(E, zeta, ready, now, params, state, out_task, out_machine):
    return batch.min_max_order(False, E, zeta, ready.copy(), out_task, out_machine)


@njit
def nb_min_min(E, zeta, ready, now, params, state, out_task, out_machine):
    return batch.min_max_order(False, E, zeta, ready.copy(), out_task, out_machine)


@pytest.mark.parametrize("rule", [py_mct, nb_mct], ids=["python", "numba"])
def test_an_immediate_rule_re_implementing_mct_gives_mcts_results(rule):
    _same_as(hcsched.heuristic("etc", name=f"my-mct-{'nb' if hasattr(rule, 'py_func') else 'py'}")(rule), "mct")


@pytest.mark.parametrize("rule", [py_min_min, nb_min_min], ids=["python", "numba"])
def test_a_batch_rule_re_implementing_min_min_gives_min_mins_results(rule):
    h = hcsched.heuristic("etc", name=f"my-min-min-{'nb' if hasattr(rule, 'py_func') else 'py'}", mode="batch")(rule)
    _same_as(h, "min-min")
    sc = _tiny(2).replace(heuristics=[{"name": h.name, "strategy": "count", "kappa": 5, "aging": 2.0}])
    mine = simulate(sc, jobs=1)
    theirs = simulate(sc.replace(heuristics=[{"name": "min-min", "strategy": "count", "kappa": 5, "aging": 2.0}]),
                      jobs=1)
    assert mine.drop(columns="heuristic").to_csv() == theirs.drop(columns="heuristic").to_csv()


def test_the_example_plugins_run_beside_a_builtin_and_pass_the_battery():
    found = load_plugin_file(EXAMPLES)
    assert sorted(h.name for h in found) == ["longest-first", "random-k-best"]
    for h in found:
        results = simulate(_tiny(2), heuristics=[h, "mct"], jobs=1)
        assert set(results["heuristic"]) == {h.name, "mct"} and results["makespan"].gt(0).all()
        check_heuristic(h, model="etc")


def test_a_random_rule_draws_the_same_numbers_in_the_same_trial_and_others_in_another():
    @hcsched.heuristic("etc")
    @njit
    def coin(e, ready, now, params, state):
        return np.random.randint(e.size)

    first, again = (simulate(_tiny(3), heuristics=[coin], jobs=1, schedules=True)[1] for _ in range(2))
    assert first.to_csv() == again.to_csv()
    per_trial = [tuple(rows["machine"]) for _, rows in first.groupby("trial")]
    assert len(set(per_trial)) == 3


def test_map_tasks_takes_a_plugin_and_explain_shows_its_own_decisions():
    @hcsched.heuristic("etc")
    def last_machine(e, ready, now, params, state):
        return e.size - 1

    E = np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], float)
    result = map_tasks(E, last_machine, trace=True)
    assert result.assignment.tolist() == [3, 3, 3, 3] and result.makespan == 340
    assert [s.assignments for s in result.trace] == [[(i, 3)] for i in range(4)]
    assert "the rule chose m3" in result.trace[0].reason
    assert MODEL.explain_problem(_tiny(), hcsched.scenario.HeuristicSpec.make("last-machine", model="etc")) is None
    h = hcsched.heuristic("etc", name="my-min-min", mode="batch")(nb_min_min)
    traced = map_tasks(E, h, trace=True)
    assert traced.assignment.tolist() == map_tasks(E, "min-min").assignment.tolist()
    assert [s.assignments[0] for s in traced.trace] == [(0, 0), (3, 1), (1, 2), (2, 3)]  # Min-min's order


def test_every_dispatch_on_a_kind_fails_loudly_on_an_unknown_kind():
    etc = np.array([[1.0, 2.0], [2.0, 1.0]])
    plan = engine.BatchPlan(engine.INTERVAL, 1.0, 1, 0.0, 0, 0)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.run_batch(99, batch.no_rule, plan, np.zeros(1), np.zeros(2), etc, etc, 0)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.map_batch_static(99, batch.no_rule, np.zeros(1), np.ones(2), etc, np.zeros(2), 0, 0, 0)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.run_immediate(99, immediate.mct_rule, np.zeros(1), np.zeros(2), etc, etc, 0)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.map_immediate_static(99, immediate.mct_rule, np.zeros(1), etc, np.zeros(2), 0)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        immediate.choose(99, etc[0], np.zeros(2), np.zeros(1), np.zeros(1))
    meta = batch.meta_task(etc)
    out = np.empty(2, np.int64)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        batch.step(99, meta, np.zeros(2), out, out.copy())
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        batch.start_mapping(99, meta, np.zeros(2))


def test_registering_a_plugin_changes_no_preset():
    before = {name: sc().to_dict() for name, sc in MODEL.presets().items()}
    hcsched.heuristic("etc", name="zz-rule")(py_mct)
    assert {name: sc().to_dict() for name, sc in MODEL.presets().items()} == before


def _one_line_error(h, match: str) -> None:
    with pytest.raises(HcschedError) as info:
        simulate(_tiny(1), heuristics=[h], jobs=1)
    text = str(info.value)
    assert "\n" not in text and f"heuristic {h.name!r}" in text, text
    assert match in text, text


def test_a_bad_immediate_rule_gets_one_line_naming_it_and_what_is_allowed():
    out_of_range = hcsched.heuristic("etc", name="too-far")(lambda e, ready, now, params, state: 7)
    _one_line_error(out_of_range, "returned 7 as a machine; allowed: an integer from 0 to 3")
    _one_line_error(hcsched.heuristic("etc", name="not-int")(lambda e, ready, now, params, state: "m1"),
                    "allowed: an integer from 0 to 3")

    def boom(e, ready, now, params, state):
        raise ZeroDivisionError("no")
    _one_line_error(hcsched.heuristic("etc")(boom), "its rule raised ZeroDivisionError: no")

    def writes(e, ready, now, params, state):
        ready[0] = 0.0
        return 0
    _one_line_error(hcsched.heuristic("etc")(writes), "read-only")

    @hcsched.heuristic("etc", name="nb-too-far")
    @njit
    def nb_far(e, ready, now, params, state):
        return e.size
    _one_line_error(nb_far, "machine index out of range; allowed: a machine index from 0 to 3")


def test_a_bad_batch_rule_gets_one_line_naming_it_and_what_is_allowed():
    def half(E, zeta, ready, now, params, state, out_task, out_machine):
        for g in range(len(E) // 2):
            out_task[g], out_machine[g] = g, 0
        return len(E) // 2
    _one_line_error(hcsched.heuristic("etc", mode="batch")(half), "every task of the meta-task once")

    def twice(E, zeta, ready, now, params, state, out_task, out_machine):
        out_task[: len(E)], out_machine[: len(E)] = 0, 0
        return len(E)

    register_heuristic(hcsched.heuristic("etc", mode="batch")(twice))
    sc = _tiny(1).replace(heuristics=[{"name": "twice", "strategy": "count", "kappa": 3}])
    with pytest.raises(HcschedError, match="heuristic 'twice' .*assigned task 0 twice"):
        simulate(sc, jobs=1)

    @hcsched.heuristic("etc", mode="batch", name="nb-twice")
    @njit
    def nb_twice(E, zeta, ready, now, params, state, out_task, out_machine):
        out_task[: E.shape[0]] = 0
        out_machine[: E.shape[0]] = 0
        return E.shape[0]
    register_heuristic(nb_twice)
    with pytest.raises(HcschedError, match="heuristic 'nb-twice' .*assigned a task twice; allowed"):
        simulate(sc.replace(heuristics=[{"name": "nb-twice", "strategy": "count", "kappa": 3}]), jobs=1)


def test_capabilities_cost_and_parameters():
    costed = hcsched.heuristic("etc", name="costed", cost=lambda spec, hs: 0.125, params={"k": 2})
    h = register_heuristic(costed(py_mct))
    sc = _tiny()
    assert h.trial_seconds(sc.spec, hcsched.scenario.HeuristicSpec.make("costed", model="etc")) > 0.125
    assert h.pack({"k": 2}).tolist() == [2.0]
    with pytest.raises(HcschedError, match="unknown capability 'speed'; allowed: mode"):
        hcsched.heuristic("etc", speed=3)(py_mct)
    with pytest.raises(HcschedError, match="mode 'online' is not allowed; allowed: immediate, batch"):
        hcsched.heuristic("etc", mode="online")(py_mct)
    with pytest.raises(HcschedError, match="interval are the engine's"):
        hcsched.heuristic("etc", mode="batch", params={"interval": 1.0})(py_min_min)
    batch_h = hcsched.heuristic("etc", name="b-rule", mode="batch", params={"w": 0.5})(py_min_min)
    assert [p.name for p in batch_h.params] == ["w", "strategy", "interval", "kappa", "aging"]
    assert batch_h.pack(batch_h.defaults()).tolist() == [0.5]
