"""A user's own time-shared servers: every server table the spec accepts draws a workload
that follows section 3.3's cost rule and runs, or is refused when read with a message naming the field; the run-time
estimate follows how many tasks share the servers."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, Scenario, preset, simulate
from hcsched.experiment import estimate_seconds, trial_seeds
from hcsched.models.timeshared import MODEL
from hcsched.models.timeshared.workload import BITS_PER_MB, make_workload

UPLOADED_TABLE = {"speed_mflops": [300, 150, 500], "bandwidth_mbit": [50, 5, 50]}  # three slow servers a user uploaded


def scenario(servers=UPLOADED_TABLE, **changes) -> Scenario:
    return Scenario.from_dict({"name": "own-servers", "model": "timeshared", "servers": servers, "tasks": 40,
                               "mean_interarrival": 10.0, "heuristics": ["netsolve-mct", "hmct", "mp", "msf"],
                               "trials": 2, "seed": 18, **changes})


def follows_the_cost_rule(sc: Scenario, trial: int = 0) -> None:
    """Section 3.3: sizes in size_mb; on the fastest server compute >= compute_ratio x transfer and <= max_compute_s."""
    s = sc.spec
    w = make_workload(s, trial_seeds(sc.seed, trial + 1)[trial])
    lo, hi = s.size_mb
    for sizes in (w.input_mb, w.output_mb):
        assert ((sizes >= lo) & (sizes <= hi)).all()
    fastest = int(np.argmax(w.speed))
    moved = w.input_mb + w.output_mb if s.transfer == "in+out" else w.input_mb
    assert (moved <= s.max_moved_mb * (1 + 1e-12)).all()
    compute = w.mflop / w.speed[fastest]
    transfer = moved * BITS_PER_MB / w.bandwidth[fastest]
    assert (compute >= s.compute_ratio * transfer * (1 - 1e-9)).all()
    assert (compute <= s.max_compute_s * (1 + 1e-12)).all()


def test_the_uploaded_three_servers_run_through_simulate():
    sc = scenario()
    results = simulate(sc, jobs=1)
    assert len(results) == 2 * 4 and results["makespan"].notna().all()
    follows_the_cost_rule(sc)
    # the fastest server (500 Mflop/s) has a 50 Mbit/s card: a task moves at most 600 s x 50 / (8 x 10) = 375 MB
    assert sc.spec.max_moved_mb == pytest.approx(375.0)
    assert "data sizes limited to input + output <= 375 MB" in MODEL.describe(sc.spec)


def test_the_uploaded_three_servers_run_through_the_cli(tmp_path, capsys):
    from hcsched.cli import main

    (tmp_path / "servers.csv").write_text("speed_mflops,bandwidth_mbit\n300,50\n150,5\n500,50\n")
    data = scenario().to_dict()
    data["servers"] = {"path": "servers.csv"}
    path = tmp_path / "own.json"
    path.write_text(json.dumps(data))
    assert main(["run", str(path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "msf" in out and "Traceback" not in out


def test_a_sweep_over_a_servers_card_runs():
    from hcsched.sweep import sweep

    table = sweep(scenario(trials=1), {"servers.bandwidth_mbit.2": [50.0, 5.0, 1.0]}, jobs=1)
    assert set(table["servers.bandwidth_mbit.2"]) == {50.0, 5.0, 1.0} and table["makespan"].notna().all()


def test_the_paper_settings_draw_the_unconditioned_sizes():
    """Where the bound does not bind (100 Mbit/s cards: 750 MB >= 600 MB) the draws are uniform in size_mb, as
    before (tests/test_golden.py keeps every number)."""
    s = preset("caniou-mu10").spec
    assert s.max_moved_mb == pytest.approx(750.0) and "limited" not in MODEL.describe(s)
    w = make_workload(s, trial_seeds(1, 1)[0])
    rng = np.random.default_rng(trial_seeds(1, 1)[0].spawn(5)[1])
    np.testing.assert_array_equal(w.input_mb, rng.uniform(0.001, 300.0, s.tasks))


def test_a_card_too_slow_for_even_the_smallest_data_is_refused_with_the_field():
    with pytest.raises(HcschedError, match=r"scenario field 'servers': on the fastest server's card \(1e-05 Mbit/s\)"
                                           r".*allowed: a card of at least 0.0002667 Mbit/s"):
        scenario({"speed_mflops": [300, 500], "bandwidth_mbit": [50, 1e-5]}, max_compute_s=600.0, compute_ratio=10.0,
                 size_mb=[0.001, 300])
    with pytest.raises(HcschedError, match="scenario field 'bandwidth_mbit'"):
        scenario(4, bandwidth_mbit=1e-6)


positive = st.floats(min_value=-4, max_value=5).map(lambda e: 10.0 ** e)  # log-uniform from 1e-4 to 1e5


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(positive, positive), min_size=1, max_size=4), transfer=st.sampled_from(["in+out", "in"]),
       ratio=st.sampled_from([0.0, 1.0, 10.0, 1000.0]), max_s=st.sampled_from([1e-3, 1.0, 600.0]))
def test_every_accepted_server_table_draws_a_workload_that_follows_the_rule_and_runs(rows, transfer, ratio, max_s):
    servers = {"speed_mflops": [r[0] for r in rows], "bandwidth_mbit": [r[1] for r in rows]}
    try:
        sc = scenario(servers, tasks=8, trials=1, transfer=transfer, compute_ratio=ratio, max_compute_s=max_s)
    except HcschedError as exc:
        message = str(exc)
        assert message.startswith("scenario field 'servers':") and "allowed:" in message
        fastest = servers["bandwidth_mbit"][servers["speed_mflops"].index(max(servers["speed_mflops"]))]
        least = 0.001 * (2 if transfer == "in+out" else 1)
        assert ratio * least * BITS_PER_MB / fastest > max_s
        return
    follows_the_cost_rule(sc)
    results = simulate(sc, jobs=1)
    assert results["makespan"].map(math.isfinite).all()


# --- the run-time estimate: its behaviour, never wall time ------------------------------------------------------------
def per_task_server(sc: Scenario) -> float:
    """The estimate of one trial per task, server and heuristic run (the reference run counted too)."""
    s = sc.spec
    return estimate_seconds(sc, trials=1, jobs=1) / (s.tasks * s.servers * (len(sc.heuristics) + 1))


def test_the_estimate_of_the_uploaded_slow_servers_is_far_above_the_papers():
    paper = per_task_server(preset("caniou-mu30"))
    own = per_task_server(preset("caniou-mu10").replace(platform=scenario().spec.platform))
    # bench/estimates.py: 82 us a task, server and heuristic on the uploaded three servers against 0.85 at mu = 30
    assert own > 30 * paper


def test_slower_servers_for_the_same_tasks_give_a_larger_estimate():
    """The user's own tasks (fixed Mflop and MB) on three servers, then on servers and cards half as fast: the load
    goes from 0.85 to 1.7, tasks pile up, and the estimate grows with how many share a server."""
    from hcsched.models.timeshared import sharing

    n = 200
    tasks = {"arrival": [40.0 * i for i in range(n)], "input_mb": [10.0] * n, "mflop": [20000.0] * n,
             "output_mb": [10.0] * n}  # 101.6 s alone on a 200 Mflop/s, 100 Mbit/s server
    fast = scenario({"speed_mflops": [200.0] * 3, "bandwidth_mbit": [100.0] * 3}, tasks=tasks)
    slow = scenario({"speed_mflops": [100.0] * 3, "bandwidth_mbit": [50.0] * 3}, tasks=tasks)
    k_fast, k_slow = sharing(fast.spec)[0], sharing(slow.spec)[0]
    assert k_fast < 1 and k_slow > 10  # under the fluid model: no queue at load 0.85; at 1.7 half the tasks wait
    assert per_task_server(slow) > 5 * per_task_server(fast)
    together = {**tasks, "arrival": [0.0] * n}  # all at once: as many share a server whatever its speed
    assert per_task_server(scenario(slow.to_dict()["servers"], tasks=together)) == pytest.approx(
        per_task_server(scenario(fast.to_dict()["servers"], tasks=together)))
