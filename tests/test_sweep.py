"""Parameter sweeps: the grid, common random numbers across points, resume, and a real Dask cluster."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from hcsched import HcschedError, preset, simulate
from hcsched.sweep import grid, sweep, sweep_summary
from hcsched.sweep_spec import parse_values, parse_vary

SMALL = preset("quickstart").replace(tasks=40, trials=3)
VARY = ["arrivals.rate=0.0005,0.002", "heuristics.1.k=10,50"]


def test_values_lists_ranges_and_log_ranges():
    assert parse_values("k", "1,2.5,x,true") == [1, 2.5, "x", True]
    assert parse_values("k", "0:1:5") == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert parse_values("k", "1:100:3:log") == [1.0, 10.0, 100.0]
    for bad, words in (("1:2:x", "START:STOP:COUNT"), ("0:1:3:log", "above 0"), ("1,,2", "empty"),
                       ("1:2:0", "COUNT from 1 to")):
        with pytest.raises(HcschedError, match=words):
            parse_values("k", bad)
    whole = parse_values("machines", "4:16:4")  # whole START and STOP with whole steps stay whole numbers
    assert whole == [4, 8, 12, 16] and all(type(v) is int for v in whole)
    assert all(type(v) is float for v in parse_values("k", "0:1:5"))
    with pytest.raises(HcschedError, match="KEY=VALUES"):
        parse_vary(["arrivals.rate"])
    with pytest.raises(HcschedError, match="--trials"):
        parse_vary(["trials=1,2"])


def test_a_whole_number_written_as_a_float_sizes_the_system():
    """A file's or a sweep's "machines": 4.0 is the whole number 4 (it once reached numpy as a float and failed)."""
    result = sweep(SMALL, {"machines": [2.0, 3.0]}, trials=1, jobs=1)
    assert sorted(result["machines"].unique()) == [2, 3]
    assert grid(SMALL, {"machines": [3.0]})[0].scenario.machines == 3
    assert type(grid(SMALL, {"machines": [3.0]})[0].scenario.machines) is int


def test_the_grid_is_the_product_and_every_point_is_checked():
    points = grid(SMALL, parse_vary(VARY))
    assert [p.values for p in points] == [{"arrivals.rate": r, "heuristics.1.k": k} for r in (0.0005, 0.002)
                                          for k in (10, 50)]
    assert points[3].scenario.arrivals.rate == 0.002 and points[3].scenario.heuristics[1].kwargs["k"] == 50
    assert points[3].scenario.heuristics[1].label == "kpb"  # a varied heuristic keeps its label: one line per heuristic
    with pytest.raises(HcschedError, match=r"sweep point 1 \(machines=0\): .*machines"):
        grid(SMALL, {"machines": [2, 0]})
    with pytest.raises(HcschedError, match="not an index"):
        grid(SMALL, {"heuristics.9.k": [1]})


def test_a_points_trial_is_simulate_of_that_points_scenario():
    result = sweep(SMALL, VARY, jobs=1)
    assert len(result) == 4 * 3 * 4 and list(result.columns[:5]) == ["point", "arrivals.rate", "heuristics.1.k",
                                                                     "trial", "heuristic"]
    for point in grid(SMALL, parse_vary(VARY)):
        alone = simulate(point.scenario, jobs=1)
        mine = result[result["point"] == point.index].reset_index(drop=True)
        for column in ("makespan", "normalized_makespan", "sum_flow", "max_stretch"):
            np.testing.assert_allclose(mine[column], alone[column], rtol=1e-15)
    # common random numbers: the same trial at two rates has the same tasks, so MET-like choices differ only by load
    summary = sweep_summary(result, SMALL, VARY)
    assert len(summary) == 16 and {"makespan_lower", "makespan_upper"} <= set(summary.columns)


def test_same_bytes_whatever_the_workers_and_after_an_interruption(tmp_path):
    one, two, resumed = tmp_path / "one.csv", tmp_path / "two.csv", tmp_path / "resumed.csv"
    sweep(SMALL, VARY, jobs=1, out=one, chunk=1)
    sweep(SMALL, VARY, jobs=2, out=two, chunk=2)
    assert one.read_bytes() == two.read_bytes()

    calls = []

    def stop_after_five(done, total):
        calls.append(done)
        if len(calls) > 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep(SMALL, VARY, jobs=1, out=resumed, chunk=1, progress=stop_after_five)
    kept = pd.read_csv(resumed)
    assert 0 < len(kept) < 48
    with resumed.open("a") as f:  # a line torn by a crash in the middle of a write
        f.write("3,0.002,50,2,mc")
    seen = []
    sweep(SMALL, VARY, jobs=2, resume=resumed, chunk=1, progress=lambda d, t: seen.append(d))
    assert seen[0] == len(kept) // 4  # the finished trials were not run again
    assert resumed.read_bytes() == one.read_bytes()


def test_resume_of_another_sweep_is_refused(tmp_path):
    path = tmp_path / "s.csv"
    sweep(SMALL, ["machines=2"], jobs=1, out=path)
    with pytest.raises(HcschedError, match="columns are not those of this sweep"):
        sweep(SMALL, VARY, jobs=1, resume=path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def dask_cluster(tmp_path):
    """A real Dask scheduler and two workers on localhost, as a user starts them."""
    pytest.importorskip("distributed")
    bindir = os.path.dirname(sys.executable)
    dask = shutil.which("dask", path=bindir) or shutil.which("dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    log = (tmp_path / "dask.log").open("w")
    scheduler = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 stdout=log, stderr=log, env=env)
    workers = [subprocess.Popen([dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                stdout=log, stderr=log, env=env, start_new_session=True) for _ in range(2)]
    from dask.distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
    yield address, workers
    for p in [*workers, scheduler]:
        if p.poll() is None:
            p.terminate()
    for p in [*workers, scheduler]:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()


def test_a_dask_cluster_gives_the_local_result_even_when_a_worker_dies(dask_cluster, tmp_path):
    address, workers = dask_cluster
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    scenario = SMALL.replace(tasks=200, trials=6)
    sweep(scenario, VARY, jobs=2, out=local, chunk=1)
    killed = []

    def kill_a_worker(done, total):
        if done >= 4 and not killed:  # mid-sweep: the worker's chunks in flight must be redone, once
            os.killpg(workers[0].pid, signal.SIGKILL)
            killed.append(time.monotonic())

    sweep(scenario, VARY, backend="dask", scheduler=address, out=remote, chunk=1, progress=kill_a_worker)
    assert killed and workers[0].wait(10) is not None
    assert remote.read_bytes() == local.read_bytes()


def test_dask_backend_errors_are_one_line():
    with pytest.raises(HcschedError, match="--backend: 'spark' is not allowed"):
        sweep(SMALL, VARY, backend="spark")
    with pytest.raises(HcschedError, match="only with --backend dask"):
        sweep(SMALL, VARY, scheduler="tcp://127.0.0.1:1")


def test_the_run_options_are_one_value_and_the_keywords_still_work():
    from hcsched.runner import RunOptions

    with pytest.raises(HcschedError, match="--backend: 'spark' is not allowed"):
        RunOptions(backend="spark")
    with pytest.raises(HcschedError, match="only with --backend dask"):
        RunOptions(scheduler="tcp://127.0.0.1:1")
    with pytest.raises(HcschedError, match="not both"):
        sweep(SMALL, VARY, jobs=1, options=RunOptions(jobs=1))
    small = SMALL.replace(trials=2)
    pd.testing.assert_frame_equal(sweep(small, VARY, options=RunOptions(jobs=1)), sweep(small, VARY, jobs=1))


def test_without_dask_the_backend_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if Dask were not installed
    with pytest.raises(HcschedError,
                       match=r"Dask is not installed; install it with: pip install 'dask\[distributed\]'"):
        sweep(SMALL, VARY, backend="dask")


def test_the_dask_backend_alone_starts_a_local_cluster_with_the_local_result():
    pytest.importorskip("dask.distributed")
    local = sweep(SMALL, VARY, jobs=1)
    pd.testing.assert_frame_equal(sweep(SMALL, VARY, backend="dask", jobs=2), local)


def test_every_sweep_preset_is_a_valid_grid():
    from hcsched.presets import sweep_preset, sweep_preset_names

    assert {"maheswaran-kpb-k", "maheswaran-rate", "alazzoni-B-load"} <= set(sweep_preset_names())
    for name in sweep_preset_names():
        sp = sweep_preset(name)
        points = grid(sp.scenario(), parse_vary(sp.vary))
        assert len(points) >= 4 and sp.claim and sp.description
    loads = grid(sweep_preset("alazzoni-B-load").scenario(), sweep_preset("alazzoni-B-load").vary)
    assert [p.scenario.classes.arrival_rates[0] for p in loads][-1] == pytest.approx(5 * 0.95 * 4 / 3)
    with pytest.raises(HcschedError, match="unknown sweep preset 'kpb'"):
        sweep_preset("kpb")


def test_the_command_line_sweep_and_its_resume(tmp_path, capsys):
    from hcsched.cli import main

    out = tmp_path / "s.csv"
    args = ["sweep", "--preset", "quickstart", "--vary", "arrivals.rate=0.0005,0.002", "--trials", "2", "--jobs", "1"]
    assert main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "sweep of 2 points x 2 trials" in printed and "arrivals.rate" in printed.splitlines()[1]
    first = out.read_bytes()
    assert main([*args, "--out", str(out), "--resume"]) == 0  # nothing left to run: the same file
    assert out.read_bytes() == first
    api = sweep(preset("quickstart"), ["arrivals.rate=0.0005,0.002"], trials=2, jobs=1)
    assert pd.read_csv(out).equals(api)
    for bad, words in ((["--vary", "machines=0"], "sweep point 0 (machines=0)"), ([], "--vary: give at least one"),
                       (["--vary", "machines=2", "--resume"], "--resume: give the --out file"),
                       (["--vary", "machines=2", "--backend", "ray"], "--backend: 'ray' is not allowed")):
        assert main(["sweep", "--preset", "quickstart", "--trials", "1", *bad]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1
    assert main(["preset", "list"]) == 0
    assert "maheswaran-kpb-k" in capsys.readouterr().out.split("sweeps (hcsched sweep --preset NAME):")[1]
