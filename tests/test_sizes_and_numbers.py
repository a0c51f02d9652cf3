"""Sizes checked before anything is drawn, and numbers that make no sense refused or said."""

import math
import re
import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched import experiment
from hcsched.errors import HcschedError
from hcsched.experiment import estimate_seconds, memory_bytes, memory_limit, memory_refusal
from hcsched.heuristics import heuristic_names
from hcsched.models import get_model
from hcsched.scenario import Scenario, parse_scenario
from hcsched.verdict import verdict

MODELS = ("etc", "value", "classes", "timeshared", "estimation")


def measured(call):
    """(result, seconds, peak bytes traced) of ``call()``."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        out = call()
        return out, time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --- the memory estimate ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("machines", [1_000_000, 10_000_000])
def test_a_link_with_a_huge_machine_count_is_answered_without_allocating(machines, monkeypatch):
    monkeypatch.setenv("HCSCHED_MAX_MEMORY", "8G")
    scenario = hcsched.preset("quickstart").replace(machines=machines)
    refused, seconds, peak = measured(lambda: memory_refusal(scenario, jobs=2))
    assert seconds < 0.5 and peak < 20e6
    assert refused.startswith("This run needs about ") and "GB of memory" in refused
    assert f"({scenario.tasks:,} tasks x {machines:,} machines, 2 trials at once)" in refused
    assert "this server allows 8.0 GB (HCSCHED_MAX_MEMORY)" in refused and "\n" not in refused
    _, seconds, peak = measured(lambda: estimate_seconds(scenario, jobs=2))  # the run estimate draws a sample only
    assert seconds < 0.5 and peak < 20e6


@pytest.mark.parametrize("name, changes", [("value", {"machines": 10_000_000}),
                                           ("timeshared", {"tasks": 100_000_000, "servers": 10_000_000})])
def test_other_models_estimates_do_not_grow_with_the_scenario(name, changes):
    scenario = get_model(name).tiny().replace(**changes)
    _, seconds, peak = measured(lambda: (estimate_seconds(scenario, jobs=2), memory_bytes(scenario, jobs=2)))
    assert seconds < 2 and peak < 20e6


def test_the_estimate_of_a_scenario_within_sampled_sizes_is_unchanged():
    # up to 256 machines the load is still estimated from whole rows: the presets' estimates stay as they were
    from hcsched.models import etc

    scenario = hcsched.preset("quickstart")
    e, rng = scenario.etc, np.random.default_rng(0)
    assert e.method == "range"
    drawn = etc.range_based_etc(rng, 64, scenario.machines, e.task_het, e.machine_het)
    expected = scenario.arrivals.rate * float(np.mean([min(r) for r in drawn])) / scenario.machines
    assert etc._load(scenario.spec) == expected


def test_memory_grows_with_the_trials_computed_at_once_and_the_sizes():
    scenario = hcsched.preset("quickstart")
    one, two = memory_bytes(scenario, jobs=1), memory_bytes(scenario, jobs=2)
    per_trial = get_model("etc").trial_bytes(scenario.spec)
    assert two - one == per_trial > 8 * 2 * scenario.tasks * scenario.machines  # at least the ETC and actual matrices
    assert memory_bytes(scenario.replace(machines=40), jobs=1) > one
    assert memory_bytes(scenario, jobs=2, points=3) > two


@pytest.mark.parametrize("name", MODELS)
def test_every_model_counts_its_bytes_of_a_trial(name):
    model = get_model(name)
    tiny = model.tiny()
    tasks, machines = model.scale(tiny.spec)
    assert isinstance(model.trial_bytes(tiny.spec), int) and model.trial_bytes(tiny.spec) >= 8 * (tasks + machines)
    assert memory_refusal(tiny) is None  # a tiny scenario fits on any machine


@pytest.mark.parametrize("text, expected", [("8G", 8 * 2**30), ("512M", 512 * 2**20), ("1.5g", int(1.5 * 2**30)),
                                            ("2000000", 2_000_000), ("4 GB", 4 * 2**30)])
def test_the_memory_limit_reads_suffixes(text, expected, monkeypatch):
    monkeypatch.setenv("HCSCHED_MAX_MEMORY", text)
    assert memory_limit() == expected


@pytest.mark.parametrize("text", ["lots", "-1G", "0", "8X"])
def test_an_invalid_memory_limit_is_one_line(text, monkeypatch):
    monkeypatch.setenv("HCSCHED_MAX_MEMORY", text)
    with pytest.raises(HcschedError, match=r"^HCSCHED_MAX_MEMORY: .* is not allowed; allowed: .*8G, 512M"):
        memory_limit()


def test_the_default_memory_limit_is_half_the_machine(monkeypatch):
    monkeypatch.delenv("HCSCHED_MAX_MEMORY", raising=False)
    import os

    assert memory_limit() == int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2)


def test_a_run_over_the_memory_limit_is_refused_before_any_workload_is_drawn(monkeypatch):
    monkeypatch.setenv("HCSCHED_MAX_MEMORY", "1K")
    model = get_model("etc")

    def never(*args):
        raise AssertionError("a workload was drawn")

    monkeypatch.setattr(model, "workload", never)
    scenario = model.tiny()
    with pytest.raises(HcschedError, match=r"^This run needs about .* this server allows 1 KB \(HCSCHED_MAX_MEMORY\)"):
        hcsched.simulate(scenario, jobs=1)
    seeds = hcsched.sampling.trial_seeds(scenario.seed, 1)
    with pytest.raises(HcschedError, match="This run needs about"):  # a worker's chunk checks again
        experiment._run_chunk(scenario, [0], seeds, False)


# --- sizes that cannot be allocated ------------------------------------------------------------------------------

SIZE_REFUSED = r"^scenario field '(tasks|machines)': .* is not allowed; allowed: an integer from 1 to 1e\+0[79] \(so " \
    r"that a trial's arrays can be allocated"


@pytest.mark.parametrize("text", ["tasks = 99999999999999999999", "tasks = 1e12", "machines = 100000000"])
def test_sizes_beyond_any_allocation_are_one_line(text):
    with pytest.raises(HcschedError, match=SIZE_REFUSED):
        parse_scenario(text, "toml")


@pytest.mark.parametrize("tasks", [10**5000, 10**20000], ids=["5000-digits", "20000-digits"])
def test_an_integer_of_thousands_of_digits_is_one_short_line(tasks):
    with pytest.raises(HcschedError, match=SIZE_REFUSED) as err:
        hcsched.preset("quickstart").replace(tasks=tasks)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("name, data, field", [
    ("value", {"machines": 10**8}, "machines"),
    ("value", {"gap": 1e-12, "startup_gap": 1e-12, "burst_gap": 1e-12}, "gap"),
    ("value", {"bursts": 10**7, "burst_length": 0.0}, "bursts"),
    ("classes", {"horizon": 1e12}, "horizon"),
    ("classes", {"groups": [10**8, 1]}, "groups"),
    ("timeshared", {"tasks": 10**10}, "tasks"),
    ("timeshared", {"servers": 10**8}, "servers"),
    ("estimation", {"processors": {"count": 10**8}}, "processors.count"),
    ("estimation", {"problems": [{"stages": [10**10]}]}, "problems[problem].stages"),
])
def test_every_model_bounds_its_sizes(name, data, field):
    base = get_model(name).tiny().to_dict()
    with pytest.raises(HcschedError, match=rf"^scenario field '{re.escape(field)}'"):
        Scenario.from_dict({**base, **data})


# --- numbers that make no sense ----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, field, allowed", [
    ({"arrivals": {"rate": 1e-308}}, "arrivals.rate", "a number from 1e-12 to 1e+12 (tasks per second; outside it"),
    ({"arrivals": {"rate": 1e13}}, "arrivals.rate", "a number from 1e-12 to 1e+12"),
    ({"etc": {"task_het": 1e300}}, "etc.task_het", "a number from 1 to 1e+06 (ETC entries"),
    ({"etc": {"method": "cov", "task_cov": 1e-300}}, "etc.task_cov", "a number from 1e-06 to 3 (a coefficient"),
    ({"etc": {"method": "cov", "task_mean": 1e300}}, "etc.task_mean", "a number from 1e-06 to 1e+09 (seconds"),
    ({"actual": {"model": "gamma", "cov": 1e6}}, "actual.cov", "a number from 1e-06 to 3"),
])
def test_etc_numbers_are_bounded_with_the_reason(data, field, allowed):
    base = hcsched.preset("quickstart").to_dict()
    with pytest.raises(HcschedError) as err:
        Scenario.from_dict({**base, **data})
    assert str(err.value).startswith(f"scenario field '{field}': ") and allowed in str(err.value)


@pytest.mark.parametrize("name, data, field", [
    ("value", {"gap": 1e300}, "gap"),
    ("value", {"task_mean": 1e300}, "task_mean"),
    ("value", {"atc_cov": 1e3}, "atc_cov"),
    ("value", {"weights": [1e300, 1, 1]}, "weights"),
    ("value", {"deadline_constant": 1e300}, "deadline_constant"),
    ("classes", {"arrival_rates": [1e-308, 8]}, None),
    ("classes", {"exec_rates": [[1e300, 3], [4, 10]]}, None),
    ("timeshared", {"bandwidth_mbit": 1e-308}, "bandwidth_mbit"),
    ("timeshared", {"speed_mflops": [1e-308, 500]}, "speed_mflops"),
    ("timeshared", {"mean_interarrival": 1e300}, "mean_interarrival"),
    ("estimation", {"network": {"bandwidth": 1e300}}, "network.bandwidth"),
    ("estimation", {"processors": {"count": 4, "speed": 1e-308}}, "processors.speed"),
    ("estimation", {"processors": {"count": 4, "busy_period": 1e-300}}, "processors.busy_period"),
])
def test_every_model_bounds_its_numbers(name, data, field):
    base = get_model(name).tiny().to_dict()
    with pytest.raises(HcschedError) as err:
        Scenario.from_dict({**base, **data})
    text = str(err.value)
    assert "\n" not in text and (field is None or text.startswith(f"scenario field '{field}'"))
    assert "1e+12" in text or "1e-12" in text or "1e+09" in text or "1e-03" in text or "0.001" in text or " 3 " in text


@pytest.mark.parametrize("name", MODELS)
def test_every_preset_stays_valid(name):
    for make in get_model(name).presets().values():
        scenario = make()
        assert Scenario.from_dict(scenario.to_dict()) == scenario


# --- no winner that is not finite --------------------------------------------------------------------------------

def test_an_infinite_mean_never_wins_and_the_line_says_why():
    makespan = get_model("etc").metric("makespan")
    table = pd.DataFrame({"trial": [0, 0, 0, 1, 1, 1], "heuristic": ["mct", "met", "kpb"] * 2,
                          "makespan": [-math.inf, 5.0, 6.0, -math.inf, 5.5, 6.5]})
    v = verdict(table, makespan)
    assert v.best == "met" and v.unranked == ("mct",)
    assert "The mean makespan of mct is infinite (an overflow), so it is not ranked" in v.detail
    every = pd.DataFrame({"trial": [0, 0, 1, 1], "heuristic": ["mct", "met"] * 2, "makespan": [math.inf] * 4})
    v = verdict(every, makespan)
    assert v.best is None and v.text == "Lowest makespan (when the last task ends): no finite values."
    assert v.detail.startswith("The mean makespan of mct and met is infinite (an overflow), so they are not ranked")


def test_an_infinite_mean_of_a_higher_is_better_metric_does_not_win():
    from hcsched.metrics import Metric

    table = pd.DataFrame({"trial": [0, 0, 1, 1], "heuristic": ["mct", "met"] * 2, "value": [math.inf, 5, math.inf, 6]})
    v = verdict(table, Metric("value", "Value", better="higher"))
    assert v.best == "met" and "mct is infinite" in v.detail  # said right below the lead


# --- the API's kernels -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ready", ["abc", [1.0, 2.0, 3.0], [[1.0], [2.0, 3.0]], {"a": 1}, [1e308, 0.0], [-1.0, 0.0]])
def test_map_tasks_refuses_bad_ready_times_naming_them(ready):
    with pytest.raises(HcschedError, match=r"^ready: "):
        hcsched.map_tasks([[1.0, 2.0], [3.0, 4.0]], "mct", ready=ready)


@pytest.mark.parametrize("arrival", ["x", [1.0], [1e300, 0.0]])
def test_lower_bound_refuses_bad_arrivals_naming_them(arrival):
    with pytest.raises(HcschedError, match=r"^arrival: "):
        hcsched.lower_bound([[50.0, 60.0], [5.0, 7.0]], arrival=arrival)


def test_map_tasks_refuses_entries_whose_sums_overflow():
    with pytest.raises(HcschedError, match="entry"):
        hcsched.map_tasks([[1e308, 1e308], [1e308, 1e308]], "kpb")


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("heuristic", heuristic_names(model="etc"))
def test_every_kernel_maps_large_finite_inputs_onto_real_machines(heuristic):
    rng = np.random.default_rng(1)
    params = {"iterations": 5} if heuristic == "lp-search" else {}
    for etc in (np.full((2000, 7), 1e12), rng.uniform(0.0, 1e12, (2000, 7))):
        r = hcsched.map_tasks(etc, heuristic, **params)
        assert r.assignment.min() >= 0 and r.assignment.max() <= 6
        assert math.isfinite(r.makespan)


def test_lp_search_maps_one_task_on_thousands_of_machines_at_once():
    hcsched.map_tasks(np.ones((1, 3)), "lp-search")  # kernels compiled
    start = time.perf_counter()
    r = hcsched.map_tasks(np.ones((1, 5000)), "lp-search")
    assert time.perf_counter() - start < 2
    assert r.assignment.tolist() == [0] and r.makespan == 1.0
    ready = np.zeros(5000)
    ready[:10] = 5.0
    assert hcsched.map_tasks(np.ones((1, 5000)), "lp-search", ready=ready).assignment.tolist() == [10]


def test_the_dual_weights_of_many_machines_solve_the_same_equations():
    from hcsched.models.etc import search

    p = np.array([[2.0] * 200, [4.0] * 200])
    x = np.zeros((2, 200))
    x[0, :150], x[1, 149:] = 1 / 150, 1 / 51  # task 0 split over machines 0..149, task 1 over 149..199
    w = search.machine_weights(p, x)
    assert w.sum() == pytest.approx(1.0) and (w > 0).all()
    assert np.allclose(w, 1 / 200)  # equal times on every machine: equal weights


# --- no RuntimeWarning ---------------------------------------------------------------------------------------------

@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_means_of_infinite_or_huge_values_are_said_without_a_warning():
    from hcsched.stats import mean_ci

    assert math.isnan(mean_ci([math.inf, -math.inf])[0])
    assert mean_ci([1e308, 1e308, 1e308])[0] == math.inf
    table = pd.DataFrame({"trial": [0, 0, 1, 1], "heuristic": ["mct", "met"] * 2,
                          "makespan": [math.inf, 5.0, -math.inf, 6.0]})
    assert verdict(table, get_model("etc").metric("makespan")).best == "met"


def _extremes():
    from hcsched.models.etc.spec import ActualSpec, ArrivalSpec, EtcSpec

    etc = get_model("etc").tiny()
    yield from (get_model(name).tiny() for name in MODELS)
    yield etc.replace(arrivals=ArrivalSpec("poisson", 1e-12))
    yield etc.replace(arrivals=ArrivalSpec("poisson", 1e12))
    yield etc.replace(etc=EtcSpec(task_het=1e6, machine_het=1e6))
    yield etc.replace(etc=EtcSpec(method="cov", task_mean=1e9, task_cov=3, machine_cov=3),
                      actual=ActualSpec("gamma", 3))
    yield etc.replace(etc=EtcSpec(method="matrix", matrix=((0.0, 0.0),) * 5))
    yield get_model("value").tiny().replace(task_cov=3.0, machine_cov=3.0, atc_cov=3.0)


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("scenario", list(_extremes()), ids=lambda s: f"{s.model}-{s.name}")
def test_extreme_but_valid_scenarios_run_without_a_runtime_warning(scenario):
    results = hcsched.simulate(scenario.replace(trials=2), jobs=1)
    from hcsched.verdict import scenario_verdicts

    for v in scenario_verdicts(scenario, results):
        assert v.best is None or math.isfinite(v.best_mean)
