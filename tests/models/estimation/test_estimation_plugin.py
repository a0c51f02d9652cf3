"""Heuristics of one's own in the estimation model: the plug-in interface (hcsched.models.estimation.plugin), the
example file docs/plugins/estimation_rules.py, and the objects the built-ins are."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hcsched
from hcsched.errors import HcschedError
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.models.estimation import MODEL
from hcsched.models.estimation import alg2 as A
from hcsched.models.estimation import kernels as K
from hcsched.presets import preset
from hcsched.testing import check_heuristic

EXAMPLE = Path(__file__).parents[3] / "docs" / "plugins" / "estimation_rules.py"


def _tiny(heuristics, trials=2):
    return MODEL.tiny().replace(heuristics=heuristics, benchmark=None, trials=trials)


def _rows(results, label):
    """A heuristic's rows without its label, for comparing two heuristics' results byte for byte."""
    rows = results[results["heuristic"] == label].drop(columns="heuristic").reset_index(drop=True)
    return rows[[c for c in rows.columns if not c.startswith("normalized_")]].to_csv(index=False)


def ef_rule(now, tasks, processors, params, rng):
    """EF (section 5.4) written as a plug-in: each task in id order to the processor of the earliest finish."""
    st = processors.st.copy()
    out = np.empty(tasks.id.size, np.int64)
    for r in range(tasks.id.size):
        j = np.argmin(st + tasks.e[r])
        out[r] = j
        st[j] += tasks.e[r, j]
    return out


def test_the_example_file_runs_beside_a_built_in():
    found = load_plugin_file(EXAMPLE)
    assert {h.name for h in found} == {"margin-ef", "random-two"}
    results = hcsched.simulate(_tiny(["ef"]), heuristics=[*found, "ef"], jobs=1)
    assert set(results["heuristic"]) == {"margin-ef", "random-two", "ef"}
    assert np.isfinite(results["makespan"]).all() and (results["makespan"] > 0).all()


@pytest.mark.parametrize("jitted", [False, True])
def test_a_plugin_reimplementing_ef_gives_efs_results_byte_for_byte(jitted):
    rule = njit(ef_rule) if jitted else ef_rule
    mine = hcsched.heuristic("estimation", name=f"my-ef-{'numba' if jitted else 'python'}")(rule)
    assert mine.jitted == jitted
    results, schedules = hcsched.simulate(_tiny(["ef"], trials=3), heuristics=[mine, "ef"], jobs=1, schedules=True)
    assert _rows(results, mine.name) == _rows(results, "ef")
    assert _rows(schedules, mine.name) == _rows(schedules, "ef")


def test_the_battery_passes_on_the_example_plugins():
    for h in load_plugin_file(EXAMPLE):
        check_heuristic(h, model="estimation")


def test_every_kind_dispatch_fails_loudly_on_an_unknown_kind():
    e = np.ones((2, 2))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        A.greedy(99, e, e, np.zeros(2))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        K.greedy(99, e, e, np.zeros(2))
    with pytest.raises(ValueError, match="unknown heuristic kind"):  # the compiled kernels, past the wrappers' checks
        A._greedy(99, e, e, e, np.zeros(2), True, np.ones(2, np.bool_), False, False)
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        K._greedy_by_processor(99, e, e, np.zeros(2), np.ones(2, np.bool_), False, False)


def test_registering_a_plugin_changes_no_preset():
    before = {name: preset(name).to_dict() for name in MODEL.presets()}
    mine = hcsched.register_heuristic(hcsched.heuristic("estimation", name="my-ef")(ef_rule))
    assert mine.name in hcsched.heuristic_names(model="estimation")
    assert {name: preset(name).to_dict() for name in MODEL.presets()} == before


@pytest.mark.parametrize(("answer", "says"), [
    (lambda tasks, m: np.full(tasks.id.size, m), "to processor"),
    (lambda tasks, m: np.zeros(tasks.id.size + 1, np.int64), "shape"),
    (lambda tasks, m: np.zeros(tasks.id.size) + 0.5, "not integers"),
    (lambda tasks, m: np.zeros((tasks.id.size, 2), np.int64), "every task row once"),
    (lambda tasks, m: 1 / 0, "the rule raised ZeroDivisionError"),
])
def test_a_bad_decision_is_one_line_naming_the_heuristic_and_what_is_allowed(answer, says):
    def bad(now, tasks, processors, params, rng):
        return answer(tasks, processors.st.size)
    mine = hcsched.heuristic("estimation", name="bad-rule")(bad)
    with pytest.raises(HcschedError) as info:
        hcsched.simulate(_tiny(["ef"], trials=1), heuristics=[mine], jobs=1)
    text = str(info.value)
    assert "'bad-rule'" in text and says in text and "allowed" in text and "\n" not in text


def test_the_rules_inputs_are_read_only():
    def writes(now, tasks, processors, params, rng):
        processors.st[0] = 0.0
        return np.zeros(tasks.id.size, np.int64)
    mine = hcsched.heuristic("estimation", name="writes")(writes)
    with pytest.raises(HcschedError, match="read-only"):
        hcsched.simulate(_tiny(["ef"], trials=1), heuristics=[mine], jobs=1)


def test_the_cost_model_lives_on_the_objects():
    sc = _tiny(["fa", {"name": "tabu", "iterations": 200}, "anneal"])
    fa, tabu, anneal = sc.heuristics
    assert fa.heuristic.trial_seconds(sc.spec, fa) == pytest.approx(0.0187 * (sc.spec.tasks / 450) ** 2.12)
    # tabu: 0.3 + 0.7 x (200 / 100) x (20 / 20) of its default cost
    assert tabu.heuristic.trial_seconds(sc.spec, tabu) == pytest.approx(0.0525 * 1.7 * (sc.spec.tasks / 450) ** 1.57)
    assert MODEL.trial_seconds(sc.spec, sc.heuristics) == pytest.approx(
        sum(h.heuristic.trial_seconds(sc.spec, h) for h in sc.heuristics))
    python = hcsched.heuristic("estimation", name="cost-python")(ef_rule)
    jitted = hcsched.heuristic("estimation", name="cost-numba")(njit(ef_rule))
    own = hcsched.heuristic("estimation", name="cost-own", cost=lambda spec, h: 1.5)(ef_rule)
    ef = MODEL.heuristics[[h.name for h in MODEL.heuristics].index("ef")]
    base = ef.trial_seconds(sc.spec, None)
    assert python.trial_seconds(sc.spec, None) > jitted.trial_seconds(sc.spec, None) > base
    assert own.trial_seconds(sc.spec, None) == 1.5
    with pytest.raises(HcschedError, match="unknown capability mode.*allowed: cost"):
        hcsched.heuristic("estimation", name="moded", mode="immediate")(ef_rule)


def test_the_rng_is_the_trials_own_and_common_to_every_heuristic():
    draws = {}

    def record(label):
        def rule(now, tasks, processors, params, rng):
            draws.setdefault(label, []).append(rng.random())
            return ef_rule(now, tasks, processors, params, rng)
        return hcsched.heuristic("estimation", name=label)(rule)
    one, two = record("draws-one"), record("draws-two")
    hcsched.simulate(_tiny(["ef"], trials=1), heuristics=[one, two], jobs=1)
    assert draws["draws-one"] == draws["draws-two"]  # same trial, same events (both EF), same draws
