"""One contract, every registered heuristic (as scikit-learn tests every estimator)."""

import numpy as np
import pytest

from hcsched import REGISTRY, HcschedError, Scenario, get_heuristic, heuristic_names, map_tasks, simulate
from hcsched.heuristics import registry
from hcsched.models.etc.spec import ArrivalSpec

NAMES = heuristic_names()
ETC_NAMES = heuristic_names(model="etc")
CLASS_NAMES = heuristic_names(model="classes")
SMALL_CLASSES = {"model": "classes", "arrival_rates": [3, 4], "exec_rates": [[8, 3, 0], [4, 10, 2]], "horizon": 300,
                 "trials": 2}


@pytest.mark.parametrize("h", registry(), ids=lambda h: f"{h.models[0]}:{h.name}")
def test_registry_entry_is_complete(h):
    assert get_heuristic(h.name, h.models[0]) is h
    assert h.mode in ("immediate", "batch") and h.section and h.description and h.paper
    assert h.resolve() == h.defaults()
    for p in h.params:
        assert p.allowed()


@pytest.mark.parametrize("name", ETC_NAMES)
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


@pytest.mark.parametrize("name", ETC_NAMES)
def test_simulates_and_reports_every_metric(name):
    sc = Scenario(machines=4, tasks=60, arrivals=ArrivalSpec("poisson", 0.05), heuristics=(name,), trials=2)
    df = simulate(sc, jobs=1)
    assert len(df) == 2 and (df["normalized_makespan"] == 1).all()
    assert df[["makespan", "mean_flow", "max_stretch", "utilization"]].notna().all().all()


@pytest.mark.parametrize("name", CLASS_NAMES)
def test_simulates_the_class_model(name):
    df = simulate(Scenario.from_dict({**SMALL_CLASSES, "heuristics": [name]}), jobs=1)
    assert len(df) == 2 and not df["unstable"].any()
    assert (df["completed"] <= df["arrivals"]).all() and (df["mean_in_system"] > 0).all()
    assert ((df["discount"] >= 0) & (df["discount"] <= 100)).all()


def test_every_heuristic_belongs_to_a_model():
    from hcsched import model_names

    assert all(set(h.models) <= set(model_names()) and h.models for h in registry())
    assert set(NAMES) == {n for m in model_names() for n in heuristic_names(model=m)}
    with pytest.raises(HcschedError, match="not a heuristic of the 'etc' model"):
        Scenario(heuristics=("lpas",))


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


def test_registry_covers_seeds_000_and_002():
    assert set(heuristic_names(model="etc")) >= {"mct", "met", "olb", "sa", "kpb", "min-min", "max-min", "sufferage",
                                                 "lp-search"}  # and those added since (Duplex)
    assert set(heuristic_names(model="classes")) >= {"met", "mct", "kpb", "lpas", "lpas-2k", "lp-static", "guided-lpas",
                                                     "guided-lpas-2k"}
    assert set(REGISTRY) == set(heuristic_names())  # every name once, the default model's where shared
    mct_etc, mct_classes = get_heuristic("mct", "etc"), get_heuristic("mct", "classes")  # each model declares its own
    assert REGISTRY["mct"] is mct_etc and mct_classes is not mct_etc and mct_classes.section == "II-B"
    assert mct_etc.models == ("etc",) and mct_classes.models == ("classes",)


def test_heuristic_names_are_scoped_by_model(monkeypatch):
    """Two models may each have a heuristic of the same name; the scenario's model decides which is meant."""
    import dataclasses

    from hcsched import models
    from hcsched.heuristics import registry

    own = dataclasses.replace(get_heuristic("min-min"), models=("other",), title="Another Min-min", kind=-1)
    own_lpas = dataclasses.replace(get_heuristic("lpas"), models=("other",), title="Another LPAS", kind=-1)
    other = type("Other", (type(models.get_model("etc")),), {"name": "other", "heuristics": (own, own_lpas)})()
    monkeypatch.setitem(models.MODELS, "other", other)
    assert own in registry() and heuristic_names().count("min-min") == 1
    assert get_heuristic("min-min", "other") is own and get_heuristic("min-min", "etc") is REGISTRY["min-min"]
    assert "min-min" in heuristic_names(model="other") and "mct" not in heuristic_names(model="other")
    assert get_heuristic("min-min") is REGISTRY["min-min"]  # without a model: the default model's, where it was first
    with pytest.raises(HcschedError, match="several models"):  # shared by models none of which is the default
        get_heuristic("lpas")
    with pytest.raises(HcschedError, match="'mct' is not a heuristic of the 'other' model"):
        get_heuristic("mct", "other")
    scenario = Scenario(heuristics=("min-min",), machines=2, tasks=5)
    assert scenario.heuristics[0].heuristic is REGISTRY["min-min"]


def test_the_registry_shim_is_a_live_view_of_the_models(monkeypatch):
    """``hcsched.REGISTRY``, imported before a model registers, names that model's heuristics once it has."""
    import dataclasses

    from hcsched import models

    own = dataclasses.replace(get_heuristic("mct"), name="later-only", models=("later",), title="Registered later")
    assert "later-only" not in REGISTRY
    monkeypatch.setitem(models.MODELS, "later", type("Later", (type(models.get_model("etc")),),
                                                     {"name": "later", "heuristics": (own,)})())
    assert REGISTRY["later-only"] is own and len(REGISTRY) == len(heuristic_names())


def test_map_refuses_another_models_heuristic():
    with pytest.raises(HcschedError, match=r"'lpas' is not a heuristic of the 'etc' model \(it belongs to the classes"):
        map_tasks([[1.0, 2.0]], "lpas")
