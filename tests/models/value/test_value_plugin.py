"""Plug-in heuristics of the value model (hcsched/models/value/plugin.py): the example file runs beside built-ins, a
re-implemented Min-Min (step 7 off) gives the built-in's results byte for byte in plain Python and compiled, the
battery passes, an unknown kind fails loudly, no preset changes, and a bad rule gets one clear error line."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hcsched
from hcsched.errors import HcschedError
from hcsched.heuristics import PLUGINS, register_heuristic, unregister_heuristic
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.models.value import MODEL, engine, simulation
from hcsched.models.value.heuristics import PluginHeuristic
from hcsched.presets import preset
from hcsched.testing import check_heuristic

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs/plugins/value_rules.py"


def min_min(now, end, tasks, machines, params):
    """Section 4.3's Min-Min without step 7: the smallest completion time pair first (ties: lowest task, machine)."""
    S, M = tasks.etc.shape
    mat = machines.ready.copy()
    alive = np.ones(S, np.bool_)
    out = np.empty((S, 2), np.int64)
    for k in range(S):
        bi, bj, bc = -1, -1, np.inf
        for i in range(S):
            if alive[i]:
                for j in range(M):
                    c = mat[j] + tasks.etc[i, j]
                    if c < bc:
                        bi, bj, bc = i, j, c
        alive[bi] = False
        mat[bj] += tasks.etc[bi, bj]
        out[k, 0], out[k, 1] = bi, bj
    return out


MIN_MIN_JIT = njit(cache=True)(min_min)


@pytest.fixture
def plugins():
    """Registers nothing itself; unregisters every value plug-in a test registered."""
    before = set(PLUGINS)
    yield
    for model, name in set(PLUGINS) - before:
        unregister_heuristic(name, model)


def small(trials=2):
    return MODEL.tiny().replace(trials=trials, benchmark=None)


def rows(results, label):
    own = results[results["heuristic"] == label].drop(columns="heuristic")
    return own[[c for c in own.columns if not c.startswith("normalized_")]].to_csv(index=False)


def test_the_example_file_runs_beside_built_ins(plugins):
    found = load_plugin_file(EXAMPLE)
    assert {h.name for h in found} == {"random-machine", "priority-mct"}
    results = hcsched.simulate(small(), heuristics=[*found, "min-min"], jobs=1)
    assert set(results["heuristic"]) == {"random-machine", "priority-mct", "min-min"}
    assert (results["value"] > 0).all()


@pytest.mark.parametrize("rule", [min_min, MIN_MIN_JIT], ids=["python", "numba"])
def test_a_plugin_min_min_is_the_built_in_byte_for_byte(plugins, rule):
    mine = hcsched.heuristic("value", name="my-min-min")(rule)
    assert isinstance(mine, PluginHeuristic) and (mine.jit_rule is not None) == (rule is MIN_MIN_JIT)
    results, table = hcsched.simulate(small(), heuristics=[mine, {"name": "min-min", "step7": "off"}], jobs=1,
                                      schedules=True)
    assert rows(results, "my-min-min") == rows(results, "min-min (step7=off)")
    a = table[table["heuristic"] == "my-min-min"].drop(columns="heuristic").reset_index(drop=True)
    b = table[table["heuristic"] == "min-min (step7=off)"].drop(columns="heuristic").reset_index(drop=True)
    assert a.to_csv(index=False) == b.to_csv(index=False)


def test_the_battery_passes_on_the_example_plugins(plugins):
    for h in load_plugin_file(EXAMPLE):
        check_heuristic(h, model="value")


def test_an_unknown_kind_fails_loudly():
    s = MODEL.tiny().spec
    w = MODEL.workload(s, np.random.SeedSequence(1))
    with pytest.raises(ValueError, match="no value heuristic"):
        engine.simulate(42, np.zeros(2), simulation.trial(w), s.window[1], s.stop, False, False, engine.NO_RULE, 0)


def test_registering_a_plugin_changes_no_preset(plugins):
    before = {name: preset(name).to_dict() for name in MODEL.presets()}
    mine = hcsched.heuristic("value", name="my-min-min")(min_min)
    register_heuristic(mine)
    assert {name: preset(name).to_dict() for name in MODEL.presets()} == before


def test_adding_a_plugin_changes_no_static_benchmark(plugins):
    """TPSA and GA are seeded from the built-in dynamic heuristics alone: a better plug-in listed before them changes
    neither."""
    sc = small(1)
    mine = hcsched.heuristic("value", name="my-min-min")(min_min)
    without = hcsched.simulate(sc, jobs=1)
    with_it = hcsched.simulate(sc, heuristics=[mine, *sc.heuristics], jobs=1)
    for label in ("tpsa", "ga"):
        assert rows(without, label) == rows(with_it, label)


def _bad(pairs):
    def rule(now, end, tasks, machines, params):
        return pairs(tasks.id.size, machines.ready.size)
    return rule


@pytest.mark.parametrize("pairs, says", [
    (lambda S, M: np.column_stack([np.arange(S), np.full(S, M)]), "a machine out of range"),
    (lambda S, M: np.column_stack([np.arange(S) + 1, np.zeros(S, int)]), "a row out of range"),
    (lambda S, M: np.zeros((S, 2), int), "mapped twice"),
    (lambda S, M: np.zeros(S, int), "shape"),
    (lambda S, M: 1 / 0, "raised ZeroDivisionError"),
])
def test_a_bad_rule_gets_one_clear_line(plugins, pairs, says):
    mine = hcsched.heuristic("value", name="bad-rule")(_bad(pairs))
    with pytest.raises(HcschedError) as info:
        hcsched.simulate(small(1), heuristics=[mine], jobs=1)
    text = str(info.value)
    assert "'bad-rule'" in text and says in text and "\n" not in text


def test_unknown_capability_and_bad_numba_rule_are_refused():
    with pytest.raises(HcschedError, match="allowed: cost"):
        hcsched.heuristic("value", name="x-rule", mode="immediate")(min_min)

    @njit
    def wrong(now, end):
        return np.empty((0, 2), np.int64)

    with pytest.raises(HcschedError, match="does not compile"):
        hcsched.heuristic("value", name="wrong-rule")(wrong)


def test_the_rule_reads_read_only_views_and_a_cost_model(plugins):
    seen = {}

    def look(now, end, tasks, machines, params):
        seen["writeable"] = tasks.etc.flags.writeable or machines.ready.flags.writeable
        seen["params"] = params.tolist()
        return np.column_stack([np.arange(tasks.id.size), np.zeros(tasks.id.size, np.int64)])

    mine = hcsched.heuristic("value", name="look", params={"k": 2.5}, cost=lambda spec, h: 1.25)(look)
    hcsched.simulate(small(1), heuristics=[mine], jobs=1)
    assert seen == {"writeable": False, "params": [2.5]}
    sc = small(1)
    assert mine.trial_seconds(sc.spec, None) == 1.25
