"""The task-class model of Al-Azzoni and Down: the LP, queueing sanity, published results, bad input."""

import json

import numpy as np
import pytest

from hcsched import HcschedError, Scenario, mean_ci, preset, simulate
from hcsched.cli import main
from hcsched.models.classes.lp import solve_allocation
from hcsched.models.classes.presets import PUBLISHED, SHARIFNIA_LAMBDA, SYSTEMS
from hcsched.models.classes.simulation import policy, restricted_lambda
from hcsched.scenario import HeuristicSpec

# lambda* and delta* as printed in the paper (sections III and IV; C1 and C2 per group).
PAPER_LP = {
    "A": (1.0204, [[0, 0.5], [1, 0.5]]),
    "B": (1.3333, [[0.8333, 0], [0.1667, 1]]),
    "C1": (1.1146, [[0.6270, 0, 0, 0], [0.3730, 1, 0.0712, 1], [0, 0, 0.9288, 0]]),
    "C2": (2.4242, [[1, 1, 0, 0.5881, 0, 1], [0, 0, 0, 0, 0.3071, 0], [0, 0, 0, 0, 0.6489, 0], [0, 0, 0, 0.2009, 0.0439,
                                                                                                0],
                    [0, 0, 1, 0.2111, 0, 0]]),
    "D": (1.3449, [[0, 0, 0.6907, 0, 1, 0, 0], [0.2830, 0, 0.3093, 0, 0, 0.3861, 1], [0.7170, 0, 0, 1, 0, 0, 0],
                   [0, 1, 0, 0, 0, 0.6139, 0]]),
    "E": (1.0844, [[1, 0, 0.8433, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0.9151], [0, 1, 0.0754, 0, 0, 1, 0],
                   [0, 0, 0.0813, 1, 1, 0, 0.0849]]),
    "F1": (1.1331, [[0, 1, 0, 0, 0.8946, 0, 0.0285], [1, 0, 1, 0.0911, 0, 0, 0], [0, 0, 0, 0.9089, 0, 0, 0.9715],
                    [0, 0, 0, 0, 0.1054, 1, 0]]),
    "F2": (1.0798, [[0, 1, 0.2704, 0, 1, 0, 1], [1, 0, 0.7282, 0, 0, 0, 0], [0, 0, 0.0014, 1, 0, 0.2626, 0],
                    [0, 0, 0, 0, 0, 0.7374, 0]]),
    "G": (1.0557, [[0, 0, 0, 0, 0, 1, 0.6182], [1, 0.8352, 0, 0, 0, 0, 0], [0, 0.1648, 0.9426, 0, 0, 0, 0.3818],
                   [0, 0, 0.0574, 1, 1, 0, 0]]),
}


def rates(system):
    from hcsched.models.classes.presets import C2

    spec = C2 if system == "C2" else SYSTEMS[system][1]
    return spec["arrival_rates"], spec["exec_rates"], spec.get("groups")


@pytest.mark.parametrize("system", PAPER_LP)
def test_lp_matches_the_paper(system):
    lam, delta = PAPER_LP[system]
    alpha, mu, groups = rates(system)
    a = solve_allocation(alpha, mu, groups)
    assert a.lam == pytest.approx(lam, abs=5e-5)
    first = np.cumsum([0, *groups[:-1]]) if groups else np.arange(len(mu[0]))
    np.testing.assert_allclose(a.delta[:, first], delta, atol=5e-5)
    if groups:  # machines of a group share their group's delta*
        np.testing.assert_allclose(a.delta, np.repeat(a.delta[:, first], groups, axis=1))
    else:  # a vertex: exactly NM + 1 - N - M zeros
        n, m = np.shape(mu)
        assert (a.delta == 0).sum() == n * m + 1 - n - m
    assert a.stable


def test_lp_cli_json(tmp_path, capsys):
    (tmp_path / "mu.csv").write_text("8,3\n4,10\n")
    assert main(["lp", "--alpha", "5,8", "--mu", str(tmp_path / "mu.csv"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stable"] is True and out["lambda"] == pytest.approx(4 / 3)
    np.testing.assert_allclose(out["delta"], [[0.8333333, 0], [0.1666667, 1]], atol=1e-6)


@pytest.mark.parametrize("system, kbar, stable", [
    ("A", 1, False), ("C1", 13, False), ("C1", 14, True), ("E", 4, False), ("E", 5, True), ("H", 4, False), ("H", 5,
                                                                                                             True)])
def test_kpb_instability_where_the_paper_says(system, kbar, stable):
    """Theorem 2 on the LP restricted to KPB's machines: 'unstable for kbar < 14' (C1), '< 5' (E, H)."""
    spec = preset(f"alazzoni-{system}").classes
    assert (restricted_lambda(HeuristicSpec.make("kpb", kbar=kbar), spec) > 1) == stable


def one_queue(service, rho=0.8, horizon=100_000.0, trials=4):
    sc = Scenario.from_dict({"model": "classes", "arrival_rates": [rho], "exec_rates": [[1.0]], "service": service,
                             "horizon": horizon, "warmup": 1000.0, "heuristics": ["mct"], "trials": trials, "seed": 5})
    return simulate(sc, jobs=1)


@pytest.mark.parametrize("service, expected", [
    ("exponential", 0.8 / 0.2),  # M/M/1: rho / (1 - rho)
    ("constant", 0.8 + 0.64 / 0.4),  # M/D/1 (Pollaczek-Khinchine, C^2 = 0)
    ("hyperexponential", 0.8 + 0.64 * 3 / 0.4),  # M/H2/1 with C^2 = 2
])
def test_one_class_one_machine_matches_queueing_theory(service, expected):
    df = one_queue(service)
    mean, lo, hi = mean_ci(df["mean_in_system"])
    assert mean == pytest.approx(expected, rel=0.06)
    assert df["utilization"].mean() == pytest.approx(0.8, rel=0.01)


def test_littles_law():
    """L = lambda W between the time-average number in system and the mean response time."""
    df = simulate(preset("alazzoni-B").replace(trials=3), jobs=1)
    for _, row in df.iterrows():
        assert row["mean_in_system"] == pytest.approx(13 * row["mean_response"], rel=0.02)


def test_per_class_and_machine_averages_add_up():
    df = simulate(preset("alazzoni-D").replace(trials=1), jobs=1)
    for _, row in df.iterrows():
        assert sum(row[f"mean_in_system_class{i}"] for i in range(4)) == pytest.approx(row["mean_in_system"])
        assert sum(row[f"mean_in_system_machine{j}"] for j in range(7)) == pytest.approx(row["mean_in_system"])


def test_lp_static_follows_its_probabilities():
    """LP-Static sends class i to machine j with probability delta*_ij mu_ij / (lambda* alpha_i) (eq. 6)."""
    from hcsched.experiment import trial_seeds
    from hcsched.models.classes.simulation import make_class_workload, run_class_heuristic

    spec = preset("alazzoni-D").classes
    h = HeuristicSpec.make("lp-static")
    run = run_class_heuristic(h, spec, make_class_workload(spec, trial_seeds(1, 1)[0]))
    a = spec.allocation()
    target = a.delta * spec.mu / (a.lam * np.array(spec.arrival_rates)[:, None])
    for i in range(4):
        share = np.bincount(run.schedule.machine[run.cls == i], minlength=7) / (run.cls == i).sum()
        np.testing.assert_allclose(share, target[i], atol=0.01)
    assert run.consulted == 0


def test_lpas_uses_only_the_support():
    spec = preset("alazzoni-D").classes
    pol = policy(HeuristicSpec.make("lpas"), spec)
    np.testing.assert_array_equal(pol.allowed, spec.allocation().delta > 0)


def test_same_seed_same_csv_and_crn():
    sc = preset("alazzoni-B").replace(trials=2)
    assert simulate(sc, jobs=1).to_csv(index=False) == simulate(sc, jobs=2).to_csv(index=False)
    df = simulate(sc, jobs=1)
    assert df.groupby("trial")["arrivals"].nunique().eq(1).all()  # every heuristic sees the same arrivals


def test_overloaded_system_runs_and_is_flagged():
    sc = Scenario.from_dict({"model": "classes", "arrival_rates": [5, 8], "exec_rates": [[4, 3], [4, 5]],
                             "horizon": 2000,
                             "heuristics": ["mct", "lpas"], "trials": 2})
    lam = sc.classes.allocation().lam
    assert lam < 1
    df = simulate(sc, jobs=1)
    assert df["unstable"].all() and np.allclose(df["lambda_restricted"], lam)


@pytest.mark.parametrize("data, words", [
    ({"arrival_rates": [5, -8], "exec_rates": [[8, 3], [4, 10]]}, "class 1 has rate -8"),
    ({"arrival_rates": [5, 8], "exec_rates": [[8, 3], [0, 0]]}, "class 1 has rate 0 on every machine"),
    ({"arrival_rates": [5, 8], "exec_rates": [[8, 3]]}, "does not match 2 classes"),
    ({"arrival_rates": [5], "exec_rates": [[8, 3]], "groups": [1]}, "'groups'"),
    ({"arrival_rates": [5], "exec_rates": [[8, 3], [1]]}, "different lengths"),
    ({"arrival_rates": [5], "exec_rates": [[8]], "service": "weibull"}, "one of exponential"),
    ({"arrival_rates": [5], "exec_rates": [[8]], "warmup": 30000}, "'warmup'"),
    ({"arrival_rates": [5], "exec_rates": [[8]], "heuristics": ["sufferage"]},
     "not a heuristic of the 'classes' model"),
])
def test_bad_class_input(data, words):
    with pytest.raises(HcschedError, match=words):
        Scenario.from_dict({"model": "classes", "heuristics": ["mct"], **data})


def test_run_class_scenario_from_the_cli(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"model": "classes", "arrival_rates": [5, 8], "exec_rates": [[8, 3], [4, 10]],
                                "service": "exponential", "horizon": 2000, "trials": 2,
                                "heuristics": ["mct", "lpas", {"name": "kpb", "kbar": 1}]}))
    assert main(["run", str(path), "--jobs", "1", "--out", str(tmp_path / "r.csv")]) == 0
    out = capsys.readouterr().out
    assert "lambda* = 1.3333" in out and "kpb (kbar=1)" in out
    header = next(ln for ln in (tmp_path / "r.csv").read_text().splitlines() if not ln.startswith("#")).split(",")
    for col in ("trial", "heuristic", "mean_in_system", "unstable", "mean_flow", "utilization", "discount"):
        assert col in header


# --- published results (Table 1, Table 6) with a few replications ----------------------------------
REPLICATIONS = {"A": 8, "H": 8, "C1": 2, "I1": 2, "I2": 2, "C2": 2}  # more where the system is noisy and cheap
# Measured with all 30 replications and reported in the README: under System I1 (hyperexponential times) MCT comes
# out about 13% above the paper; the paper's LPAS interval for I1 is garbled.
DIFFERS = {("I1", "mct")}


@pytest.mark.parametrize("system", list(PUBLISHED))
def test_published_results(system):
    """The mean of a few replications lies in the published interval widened by 5%, or by 2.5 standard errors
    for the noisy, heavily loaded systems; 'unstable' entries are flagged unstable."""
    df = simulate(preset(f"alazzoni-{system}"), trials=REPLICATIONS.get(system, 3))
    for label, published in PUBLISHED[system].items():
        rows = df[df["heuristic"] == label]
        if published is None:
            assert rows["unstable"].all(), label
            continue
        values = rows["mean_in_system"]
        mean, se = values.mean(), values.std(ddof=1) / np.sqrt(len(values))
        slack = max(0.05 * mean, 2.5 * se)
        inside = published[0] - slack <= mean <= published[1] + slack
        assert inside != ((system, label) in DIFFERS), (label, mean, se, published)


def test_mct_on_system_h_keeps_growing():
    """The paper prints a finite mean for MCT on System H; its number in system grows through the run (README)."""
    df = simulate(preset("alazzoni-H"), trials=3)
    assert df.loc[df.heuristic == "mct", "unstable"].all()
    assert not df.loc[df.heuristic == "lpas", "unstable"].any()


def test_sharifnia_scaled():
    sc = preset("alazzoni-sharifnia")
    assert sc.classes.allocation().lam == pytest.approx(SHARIFNIA_LAMBDA, rel=1e-4)
    df = simulate(sc, trials=2, jobs=1)
    assert not df["unstable"].any()  # what we found: at lambda* = 1.05 MCT does not fail (README)


def test_number_in_system_counts_the_schedule():
    """The sampled number in system is the tasks arrived and not finished at each sample time (events at it counted),
    and every task's start and finish follow FCFS on its machine: the kernel settles departures lazily per machine."""
    from hcsched.experiment import trial_seeds
    from hcsched.models.classes.simulation import make_class_workload, run_class_heuristic

    spec = preset("alazzoni-A").classes
    w = make_class_workload(spec, trial_seeds(3, 1)[0])
    for name in ("mct", "lpas", "lp-static", "guided-lpas"):
        run = run_class_heuristic(HeuristicSpec.make(name), spec, w)
        s = run.schedule
        arrived = np.searchsorted(s.arrival, run.sample_times, side="right")
        finished = np.searchsorted(np.sort(s.finish), run.sample_times, side="right")
        np.testing.assert_array_equal(run.in_system, arrived - finished)
        for j in range(spec.machines):
            mine = s.machine == j
            start, finish, arrival = s.start[mine], s.finish[mine], s.arrival[mine]
            ran = np.isfinite(finish)
            np.testing.assert_array_equal(finish[ran], start[ran] + s.actual[mine][ran])
            begun = np.isfinite(start)
            previous = np.concatenate([[0.0], (start + s.actual[mine])[:-1]])[begun]  # FCFS: after the task before
            np.testing.assert_array_equal(start[begun], np.maximum(arrival[begun], previous))
            if not begun.all():  # the tasks not started by the horizon are the machine's last
                assert not begun[np.argmin(begun):].any()


def event_queue_run(heuristic, spec, w):
    """The task-class model by a global event queue, as section III-B describes it: before each arrival every departure
    up to its time, in time order (W_j less its 1/mu, 0 when machine j empties); then the heuristic's choice. The
    kernel's lazy, per-machine settling must give the same machines, times, samples and counts."""
    import heapq

    from hcsched.models.classes import kernels
    from hcsched.models.classes.simulation import execution_times, kernel_rule, sample_times

    rule = kernel_rule(heuristic, spec)
    kind, counts, reach = rule[0], rule[2], rule[5]
    inv, samples = execution_times(spec), sample_times(spec)
    n, m = w.arrival.size, spec.machines
    W, free, queued = np.zeros(m), np.zeros(m), np.zeros(m, np.int64)
    assigned, arrived = np.zeros((len(counts), m), np.int64), np.zeros(len(counts), np.int64)
    machine, finish, events = np.empty(n, np.int64), np.empty(n), []
    consulted = overrides = 0
    for a in range(n):
        t, i = w.arrival[a], w.cls[a]
        while events and events[0][0] <= t:
            _, _, j, e = heapq.heappop(events)
            queued[j] -= 1
            W[j] = W[j] - e if queued[j] else 0.0
        arrived[i] += 1
        if kind == kernels.EARLIEST:
            c = W + reach[i]
            j, asked, over = int(np.argmin(c)), counts[i], 0  # argmin: the lowest machine on ties, as the kernel
            if rule[6] == kernels.RANDOM:  # one of the machines tied within a relative 1e-9, drawn by the third uniform
                tied = np.flatnonzero(c <= c[j] * (1 + 1e-9))
                j = int(tied[min(int(w.u3[a] * tied.size), tied.size - 1)])
        else:
            j, asked, over = kernels.decide(rule, i, t, W, inv[i], (assigned[i], arrived[i]), (w.u1[a], w.u2[a],
                                                                                               w.u3[a]),
                                            np.empty(m, np.int64))
        assigned[i, j] += 1
        consulted, overrides = consulted + asked, overrides + over
        e = inv[i, j]
        free[j] = max(free[j], t) + w.work[a] * e
        machine[a], finish[a] = j, free[j]
        W[j] += e
        queued[j] += 1
        heapq.heappush(events, (free[j], a, j, e))
    finish[finish > spec.horizon] = np.inf
    in_system = np.searchsorted(w.arrival, samples, side="right") - np.searchsorted(np.sort(finish), samples, "right")
    return machine, finish, in_system, consulted, overrides


@pytest.mark.parametrize("ties", ["lowest", "random"])
@pytest.mark.parametrize("groups", [None, (2, 1, 1, 2)])
@pytest.mark.parametrize("name", ["mct", "met", "kpb", "lpas", "lpas-2k", "lp-static", "guided-lpas", "guided-lpas-2k"])
def test_kernel_matches_a_global_event_queue(name, groups, ties):
    """Every rule, on a system where one class may use every machine (the kernel settles all of them at once) and the
    others only some (it settles their candidates only): the same run as a global event queue, to the last bit. With
    groups of identical machines, ties are frequent: broken by the lowest index or at random."""
    from hcsched.experiment import trial_seeds
    from hcsched.models.classes.simulation import make_class_workload, run_class_heuristic
    from hcsched.models.classes.spec import ClassSpec

    spec = ClassSpec((2.0, 1.5, 1.0), ((3.0, 2.0, 1.0, 2.5), (0.0, 2.0, 4.0, 1.0), (1.0, 0.0, 0.0, 3.0)), groups,
                     horizon=400.0)
    heuristic = HeuristicSpec.make(name, model="classes", ties=ties, **({"kbar": 2} if name == "kpb" else {}))
    w = make_class_workload(spec, trial_seeds(4, 1)[0])
    run = run_class_heuristic(heuristic, spec, w)
    machine, finish, in_system, consulted, overrides = event_queue_run(heuristic, spec, w)
    np.testing.assert_array_equal(run.schedule.machine, machine)
    np.testing.assert_array_equal(run.schedule.finish, finish)
    np.testing.assert_array_equal(run.in_system, in_system)
    assert (run.consulted, run.overrides) == (consulted, overrides)
    if name.startswith("guided"):
        assert len(set(machine)) == spec.machines  # the rule's shares spread the classes over every machine


@pytest.mark.parametrize("name", ["mct", "met", "lpas", "guided-lpas"])
def test_random_ties_share_identical_machines(name):
    """Two identical machines, lightly loaded: most arrivals find both idle, a tie. The lowest index sends those to
    machine 0; at random (seeded) each gets about half; the draws are the trial's, so two runs agree."""
    from hcsched.experiment import trial_seeds
    from hcsched.models.classes.simulation import make_class_workload, run_class_heuristic
    from hcsched.models.classes.spec import ClassSpec

    spec = ClassSpec((0.5,), ((2.0, 2.0),), horizon=4000.0)
    w = make_class_workload(spec, trial_seeds(3, 1)[0])
    share = {}
    for ties in ("lowest", "random"):
        h = HeuristicSpec.make(name, model="classes", ties=ties)
        machine = run_class_heuristic(h, spec, w).schedule.machine
        share[ties] = float(np.mean(machine == 0))
        np.testing.assert_array_equal(machine, run_class_heuristic(h, spec, w).schedule.machine)
    assert share["lowest"] > {"met": 0.99, "guided-lpas": 0.5}.get(name, 0.7)  # guided: (iii) holds shares near pi
    assert 0.45 < share["random"] < 0.55


def test_exec_as_times_reads_sharifnia_as_mean_times():
    """Section II-B's printed matrix read as mean execution times (1/x, 0 stays 0): lambda* = 1.0256 unscaled."""
    from hcsched.models.classes.presets import SHARIFNIA_ALPHA, SHARIFNIA_MU
    from hcsched.models.classes.spec import ClassSpec, spec_from_dict, spec_to_dict

    spec = ClassSpec(tuple(SHARIFNIA_ALPHA), tuple(map(tuple, SHARIFNIA_MU)), exec_as="times")
    assert spec.mu[0].tolist() == [pytest.approx(1 / 0.065), 0.0]
    assert spec.allocation().lam == pytest.approx(1.0256, abs=1e-4)
    data = spec_to_dict(spec_from_dict({"arrival_rates": SHARIFNIA_ALPHA, "exec_rates": SHARIFNIA_MU,
                                        "exec_as": "times"}))
    assert data["exec_as"] == "times"
    assert "exec_as" not in spec_to_dict(spec_from_dict({"arrival_rates": [1], "exec_rates": [[2]]}))
    with pytest.raises(HcschedError, match="exec_as.*rates, times"):
        ClassSpec((1.0,), ((2.0,),), exec_as="seconds")


@pytest.mark.parametrize("p", [0.01, 0.1, 0.5])
def test_hyperexponential_long_branch_keeps_mean_and_variance(p):
    """Section III-B.6: mean 1/mu and twice the exponential's variance, whatever the long phase's probability p."""
    from hcsched.models.classes.simulation import hyper_means, unit_work

    long_mean, short_mean = hyper_means(p)
    assert p * long_mean + (1 - p) * short_mean == pytest.approx(1.0)
    assert 2 * (p * long_mean**2 + (1 - p) * short_mean**2) - 1 == pytest.approx(2.0)  # variance = E[X^2] - 1
    x = unit_work(np.random.default_rng(1), "hyperexponential", 2_000_000, p)
    assert x.mean() == pytest.approx(1.0, rel=0.02)
    assert x.var() == pytest.approx(2.0, rel=0.08)


def test_long_branch_is_checked():
    from hcsched.models.classes.spec import ClassSpec

    with pytest.raises(HcschedError, match="long_branch.*0.7.*below 2/3"):
        ClassSpec((1.0,), ((2.0,),), service="hyperexponential", long_branch=0.7)
    with pytest.raises(HcschedError, match="long_branch.*only with service 'hyperexponential'"):
        ClassSpec((1.0,), ((2.0,),), long_branch=0.01)


def test_the_number_in_system_chart_says_which_way_is_better_without_two_parenthesised_groups_in_a_row():
    """Its title read "Number in system over time (mean, 95% band) (lower is better)"."""
    import re

    from hcsched.models.classes import MODEL
    from hcsched.models.classes.charts import in_system

    t = np.array([0.0, 1.0, 2.0])
    fig = in_system({"lpas": (t, np.array([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]]))}, MODEL.metric("mean_in_system"))
    title = fig.layout.title.text
    assert title.endswith("lower is better") and not re.search(r"\)\s*\(", title), title


def test_kpb_says_its_parameters_in_words_for_the_pages_sentences():
    """The manager read "kpb (K-percent best; kbar=1)" in a headline: the paper's parameter, not what it does."""
    from hcsched.models.classes import MODEL

    kpb = next(h for h in MODEL.heuristics if h.name == "kpb")
    assert kpb.label_words({"kbar": "1"}) == "each class's fastest machine"
    assert kpb.label_words({"kbar": "3", "ties": "random"}) == (
        "earliest finish among each class's 3 fastest machines, ties broken at random")
    assert kpb.label_words({"k": "50"}) == "earliest finish among each class's fastest 50% of machines"
    assert kpb.label_words({"kbar": "1", "own": "2"}) == "" and kpb.label_words({}) == ""  # the label's text is said
    assert kpb.label_words({"kbar": "many"}) == ""


def test_the_lead_metric_and_the_discount_are_titled_in_words_with_the_papers_names_in_their_docs():
    from hcsched.models.classes import MODEL

    lead, discount = MODEL.metric("mean_in_system"), MODEL.metric("discount")
    assert lead.title == "Average backlog" and "waiting or running" in lead.doc
    assert "mean number in system" in lead.doc
    assert discount.title == "Load checks skipped (%)"
    assert "state-information discount" in discount.doc and "(1 - N_s / M) x 100" in discount.doc


def _flagged(rows):
    """Hand-made results: (heuristic, unstable, restricted lambda*) per replication."""
    import pandas as pd

    return pd.DataFrame([{"trial": t, "heuristic": h, "unstable": u, "lambda_restricted": lam}
                         for t, (h, u, lam) in enumerate(rows)])


def test_an_unstable_heuristic_is_said_in_words_first_and_the_papers_symbol_after():
    """The manager read "mct is unstable in 30 of 30 replications: lambda* restricted to the machines it uses is
    0.6667, below 1, so it cannot keep up (Theorem 2)": the symbol before the words."""
    from hcsched.models.classes import MODEL

    results = _flagged([("mct", True, 2 / 3), ("mct", True, 2 / 3), ("kpb (kbar=1)", False, 1.02),
                        ("kpb (kbar=1)", True, 1.02), ("lpas", False, 4 / 3), ("lpas", False, 4 / 3)])
    assert MODEL.warnings(results) == [
        "mct cannot keep up in 2 of 2 trials: on the machines it uses, they can take only 0.67 times the "
        "arrivals.",
        "kpb (each class's fastest machine) cannot keep up in 1 of 2 trials: its number "
        "in system kept growing, though the machines it uses could take 1.02 times the arrivals."]
    assert MODEL.overloaded(results) == ("mct",)  # unstable in every replication: kpb kept up in one


def test_whether_any_mapping_keeps_up_is_said_from_the_lp():
    from hcsched.compare import quick_what_ifs
    from hcsched.models.classes import MODEL
    from hcsched.models.classes.heuristics import sentence_name

    base = preset("alazzoni-B")
    assert MODEL.overload_words(base.spec) == ""  # lambda* = 1.33: some mapping keeps up (Theorem 1)
    doubled = dict(quick_what_ifs(base))["Twice the arrival rate"]
    assert MODEL.overload_words(doubled.spec) == ("the machines cannot keep up whatever the mapping (they can take "
                                                  "0.67 times these arrivals)")
    assert [sentence_name(x) for x in ("kpb (kbar=1)", "kpb (k=50)", "mct", "mine (x=1)")] == [
        "kpb (each class's fastest machine)",
        "kpb (earliest finish among each class's fastest 50% of machines)", "mct", "mine (x=1)"]


def test_a_charts_short_names_have_their_words_one_hover_away():
    """The manager read "kpb (kbar=1)" on the bars, the curves' legend and the Gantt's panel titles: the library's
    charts keep the short name, its words in the heuristic's own terms on hover (the dashboard ticks and titles them
    in words first: pages.models.classes.heuristic_ticks and shown_text)."""
    from hcsched import trial_schedules
    from hcsched.charts import gantt, hover_names
    from hcsched.models.classes import MODEL

    sc = MODEL.tiny()
    assert hover_names([h.label for h in sc.heuristics])["kpb (kbar=1)"] == (
        "kpb (kbar=1): each class's fastest machine")
    fig = gantt(trial_schedules(sc.replace(trials=1)))
    titles = {a.text: a.hovertext for a in fig.layout.annotations}
    assert titles == {"mct": "mct: Minimum completion time", "lpas": "lpas: LP-based affinity scheduling",
                      "kpb (kbar=1)": "kpb (kbar=1): each class's fastest machine"}


def test_a_label_is_said_in_words_first_short_enough_for_a_tick():
    """The manager read "kpb (kbar=1)" on the Results page's ticks as code: its parameters in words first, the
    paper's symbol after, once (section II-B); labels without such words stay as they are."""
    from hcsched.models.classes.heuristics import short_name

    assert [short_name(x) for x in ("kpb (kbar=1)", "kpb (kbar=3)", "kpb (k=50)", "kpb (kbar=1, ties=random)",
                                    "mct", "lpas (ties=random)", "lpas (c=2)", "mine (x=1)", "kpb (kbar=x)")] == [
        "kpb (each class's fastest machine, k̄ = 1)", "kpb (each class's 3 fastest machines, k̄ = 3)",
        "kpb (each class's fastest 50% of machines, k = 50%)",
        "kpb (each class's fastest machine, ties at random, k̄ = 1)", "mct", "lpas (ties at random)", "lpas (c=2)",
        "mine (x=1)", "kpb (kbar=x)"]
    assert max(len(short_name(h.label)) for p in _presets() for h in p.heuristics) <= 50  # a tick's length


def _presets():
    from hcsched import get_model

    return [make() for make in get_model("classes").presets().values()]


def test_a_charts_heuristic_axis_is_ticked_in_words_with_its_marks_kept():
    import plotly.graph_objects as go

    from hcsched.charts import with_names
    from hcsched.models.classes.heuristics import short_name

    labels = ["mct", "kpb (kbar=1)"]
    fig = go.Figure(go.Bar(y=labels, x=[1, 2], orientation="h"))
    fig.update_yaxes(tickvals=labels, ticktext=["mct (benchmark)", "kpb (kbar=1)"])
    with_names(fig, labels, short_name)
    assert list(fig.layout.yaxis.tickvals) == labels  # the categories stay the labels
    assert list(fig.layout.yaxis.ticktext) == ["mct (benchmark)", "kpb (each class's fastest machine, k̄ = 1)"]
