"""A choice parameter whose choices include "off" (the value model's step7, Kim et al. section 4.3
step 7) accepts it, while "off"/None still mean "no value" for optional numeric parameters."""

import json

import pytest

from hcsched import HcschedError, simulate
from hcsched.heuristics import Param
from hcsched.scenario import HeuristicSpec, parse_scenario


def test_step7_off_is_a_value():
    spec = HeuristicSpec.make("max-min", model="value", step7="off")
    assert spec.kwargs == {"step7": "off"} and spec.label == "max-min (step7=off)"
    assert spec.to_json() == {"name": "max-min", "step7": "off"}
    assert HeuristicSpec.make("min-min", model="value", step7="on").kwargs == {"step7": "on"}


def test_a_scenario_file_with_step7_off_loads_and_round_trips():
    data = {"model": "value", "heuristics": ["min-min", {"name": "min-min", "step7": "off"}], "trials": 1}
    sc = parse_scenario(json.dumps(data))
    assert [h.label for h in sc.heuristics] == ["min-min", "min-min (step7=off)"]
    assert sc.heuristics[1].kwargs == {"step7": "off"}
    assert parse_scenario(sc.to_json()) == sc and parse_scenario(sc.to_toml(), "toml") == sc


def test_off_still_means_no_value_for_optional_numbers_and_is_refused_where_not_allowed():
    assert HeuristicSpec.make("kpb", kbar="off").kwargs["kbar"] is None
    assert HeuristicSpec.make("kpb", kbar=None).kwargs["kbar"] is None
    with pytest.raises(HcschedError, match=r"parameter 'k'.*a value is required; allowed: a number > 0 and <= 100"):
        HeuristicSpec.make("kpb", k="off")
    with pytest.raises(HcschedError, match=r"parameter 'contention'.*allowed: one of per-machine, single"):
        HeuristicSpec.make("relative-cost", model="value", contention="off")
    with pytest.raises(HcschedError, match=r"parameter 'step7': 'maybe' is not allowed; allowed: one of on, off"):
        HeuristicSpec.make("max-min", model="value", step7="maybe")


def test_an_optional_choice_keeps_none_as_no_value():
    p = Param("mode", "on", "choice", choices=("on", "off"), optional=True)
    assert p.check("off", "h") == "off" and p.check(None, "h") is None


def test_min_min_results_differ_with_step7_off():
    """Step 7 rebuilds each queue by priority and deadlines (section 4.3): on a short workload it changes the mapping,
    so the two runs, on common random numbers, differ in value though the workload (upper bound) is the same."""
    from hcsched import preset

    heuristics = [HeuristicSpec.make("min-min", model="value"), HeuristicSpec.make("min-min", model="value",
                                                                                   step7="off")]
    sc = preset("kim-tight-high-heavy").replace(heuristics=heuristics, trials=1, duration=3000.0,
                                                window=(600.0, 3000.0),
                                                bursts=1)
    r = simulate(sc, jobs=1).set_index("heuristic")
    on, off = r.loc["min-min"], r.loc["min-min (step7=off)"]
    assert on["upper_bound"] == off["upper_bound"] and on["tasks"] == off["tasks"]
    assert on["value"] != off["value"]
