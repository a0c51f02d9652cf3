"""One contract, every registered heuristic (as scikit-learn tests every estimator)."""

import numpy as np
import pytest

from hcsched import REGISTRY, HcschedError, Scenario, get_heuristic, heuristic_names, map_tasks, simulate
from hcsched.scenario import ArrivalSpec

NAMES = heuristic_names()


@pytest.mark.parametrize("name", NAMES)
def test_registry_entry_is_complete(name):
    h = get_heuristic(name)
    assert h.mode in ("immediate", "batch") and h.section and h.description and h.paper
    assert h.resolve() == h.defaults()
    for p in h.params:
        assert p.allowed()


@pytest.mark.parametrize("name", NAMES)
def test_mapping_is_consistent(name):
    rng = np.random.default_rng(7)
    etc = rng.uniform(1, 50, (30, 5))
    ready = rng.uniform(0, 20, 5)
    r = map_tasks(etc, name, ready=ready)
    assert r.assignment.shape == (30,) and set(r.assignment) <= set(range(5))
    # completion = ready time + the ETC of the tasks mapped to the machine up to and including it
    for j in range(5):
        on = np.flatnonzero(r.assignment == j)
        order = on[np.argsort(r.completion[on], kind="stable")]  # the machine's queue, in assignment order
        np.testing.assert_allclose(r.completion[order], ready[j] + np.cumsum(etc[order, j]))
        assert r.ready[j] == pytest.approx(ready[j] + etc[on, j].sum())
    assert r.makespan == r.ready.max()


@pytest.mark.parametrize("name", NAMES)
def test_simulates_and_reports_every_metric(name):
    sc = Scenario(machines=4, tasks=60, arrivals=ArrivalSpec("poisson", 0.05), heuristics=(name,), trials=2)
    df = simulate(sc, jobs=1)
    assert len(df) == 2 and (df["normalized_makespan"] == 1).all()
    assert df[["makespan", "mean_flow", "max_stretch", "utilization"]].notna().all().all()


def test_unknown_heuristic_suggests():
    with pytest.raises(HcschedError, match="did you mean min-min"):
        get_heuristic("minmin")


@pytest.mark.parametrize("name, params, words", [
    ("kpb", {"k": 0}, "out of range"), ("kpb", {"kk": 1}, "unknown parameter 'kk'"),
    ("sa", {"low": 0.9, "high": 0.6}, "must be smaller"), ("min-min", {"strategy": "often"}, "one of interval, count"),
    ("min-min", {"kappa": 2.5}, "not allowed"), ("sufferage", {"interval": -1}, "out of range"),
])
def test_parameter_errors(name, params, words):
    with pytest.raises(HcschedError, match=words):
        map_tasks([[1.0, 2.0]], name, **params)


def test_registry_covers_seed_000():
    assert set(REGISTRY) == {"mct", "met", "olb", "sa", "kpb", "min-min", "max-min", "sufferage"}
