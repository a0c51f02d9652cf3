"""hcsched benchmark: python bench/run.py [--quick] [--record]

Prints, in one run:
- map_tasks (static Min-min on 2000 x 16, MCT on 100,000 x 20) against a
  straightforward numba kernel of the same rule measured here (target: ratio <= 3);
- wall times of `hcsched run --preset maheswaran-fig4 --trials 50` (target 5 s)
  and `--preset maheswaran-fig6 --trials 50` (target 60 s), as ratios to target;
- the task-class model of Al-Azzoni and Down: the alazzoni-B preset (3 heuristics x
  30 replications, target 10 s) and all of Table 1 (target 60 s), with task
  events (arrivals, each also a departure) per second, and the class kernel against
  a plain FCFS loop of the same systems measured in the same run (bench/fcfs_yardstick.py,
  target: within 1.5x), with the load average.
- the estimate shown before a run against the wall time measured (fig4, fig6, alazzoni-B).
- a sweep of 10 points x 30 trials of maheswaran-fig4 with 500 tasks: local processes against a
  local Dask cluster of 2 workers (target: ratio <= 1.3), with the chunk size.
  `python bench/run.py --quick` skips Table 1 (and so the class kernel against the FCFS loop).
  `--record` writes the figures of this run into their rows of bench/speed.csv (bench/speed.py), the table of
  docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from hcsched import map_tasks

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import figure, record_all  # noqa: E402


@njit(cache=True)
def reference_min_min(etc, ready):
    """Fig. 1 as written: every iteration scans the whole c matrix, O(S^2 m)."""
    n, m = etc.shape
    ready = ready.copy()
    done = np.zeros(n, np.bool_)
    assign = np.empty(n, np.int64)
    for _ in range(n):
        bk, bj, bc = -1, -1, np.inf
        for i in range(n):
            if done[i]:
                continue
            for j in range(m):
                c = ready[j] + etc[i, j]
                if c < bc:
                    bk, bj, bc = i, j, c
        done[bk] = True
        assign[bk] = bj
        ready[bj] = bc
    return assign, ready


@njit(cache=True)
def reference_mct(etc, ready):
    n, m = etc.shape
    ready = ready.copy()
    assign = np.empty(n, np.int64)
    for i in range(n):
        bj, bc = 0, np.inf
        for j in range(m):
            c = ready[j] + etc[i, j]
            if c < bc:
                bj, bc = j, c
        assign[i] = bj
        ready[bj] = bc
    return assign, ready


def best_of(fn, repeat=5):
    fn()  # warm up (compilation)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def kernels() -> dict[str, dict]:
    """map_tasks against the plain kernels; the speed table's rows."""
    rng = np.random.default_rng(0)
    cases = [("min-min", reference_min_min, rng.uniform(1, 3000, 2000)[:, None] * rng.uniform(1, 100, (2000, 16)),
              "a plain numba kernel of Fig. 1"),
             ("mct", reference_mct, rng.uniform(1, 3000, 100_000)[:, None] * rng.uniform(1, 100, (100_000, 20)),
              "a plain numba MCT loop")]
    rows = {}
    for name, ref, etc, what in cases:
        ready = np.zeros(etc.shape[1])
        ours, result = best_of(lambda etc=etc, name=name: map_tasks(etc, name))
        theirs, (assign, final) = best_of(lambda etc=etc, ref=ref, ready=ready: ref(etc, ready))
        assert (result.assignment == assign).all() and np.allclose(result.ready, final), "same rule, same mapping"
        print(f"map_tasks {name:<8} {etc.shape[0]:>7} x {etc.shape[1]:<3} {ours * 1e3:9.2f} ms   "
              f"reference kernel {theirs * 1e3:9.2f} ms   ratio {ours / theirs:5.2f}  (target <= 3)")
        rows[f"map-tasks-{name}"] = {"time": f"{figure(ours * 1e3)} ms", "reference": f"{figure(theirs * 1e3)} "
                                                                                      f"ms, {what}",
                                     "ratio": f"{ours / theirs:.2f}"}
    return rows


def cli_runs() -> dict[str, dict]:
    """Wall times of `hcsched run` against their targets; the speed table's rows."""
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for preset, target in (("maheswaran-fig4", 5.0), ("maheswaran-fig6", 60.0)):
            cmd = [sys.executable, "-m", "hcsched", "run", "--preset", preset, "--trials", "50",
                   "--out", os.path.join(tmp, "r.csv")]
            subprocess.run(cmd, check=True, capture_output=True)  # warm the numba cache
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            wall = time.perf_counter() - t
            print(f"hcsched run --preset {preset} --trials 50: {wall:6.2f} s   target {target:4.0f} s   "
                  f"ratio {wall / target:5.2f}  (target <= 1; {os.cpu_count()} cores)")
            estimated(preset, 50, wall)
            rows[f"run-{preset.removeprefix('maheswaran-')}"] = {"time": f"{wall:.1f} s",
                                                                 "ratio": f"{wall / target:.2f}"}
    return rows


def estimated(name: str, trials: int, wall: float) -> None:
    """The dashboard's estimate before a run (experiment.estimate_seconds) against the wall time just measured."""
    from hcsched import preset
    from hcsched.experiment import estimate_seconds

    guess = estimate_seconds(preset(name), trials=trials)
    print(f"  estimate before the run: {guess:6.2f} s, measured {wall:6.2f} s, ratio "
          f"{guess / wall:5.2f}  (about 1 is right)")


def class_model(table1: bool) -> dict[str, dict]:
    """alazzoni-B, and with ``table1`` every Table 1 system and the FCFS yardstick; the speed table's rows."""
    from hcsched import preset, simulate
    from hcsched.models import warm_up
    from hcsched.models.classes.presets import SYSTEMS

    warm_up()
    systems = list(SYSTEMS) if table1 else ["B"]
    total_time = total_tasks = 0.0
    rows = {}
    for name in systems:
        t = time.perf_counter()
        results = simulate(preset(f"alazzoni-{name}"))
        wall = time.perf_counter() - t
        tasks = float(results["arrivals"].sum())
        total_time, total_tasks = total_time + wall, total_tasks + tasks
        target = "   target 10 s, ratio %.2f" % (wall / 10) if name == "B" else ""
        if name == "B":
            estimated("alazzoni-B", 30, wall)
            rows["classes-alazzoni-b"] = {"time": f"{wall:.1f} s ({tasks / wall / 1e6:.0f} M task events/s)",
                                          "ratio": f"{wall / 10:.2f}"}
        print(f"alazzoni-{name:<3} {len(results) // 30} heuristics x 30 replications: {wall:6.2f} s, "
              f"{tasks / wall / 1e6:5.2f} M task events/s{target}")
    if table1:
        print(f"Table 1 (all systems): {total_time:6.1f} s   target 60 s   ratio {total_time / 60:5.2f}   "
              f"{total_tasks / total_time / 1e6:.2f} M task events/s   load average {os.getloadavg()[0]:.2f}")
        from fcfs_yardstick import compare, row

        totals = compare(systems)
        yard, kernel, whole, _ = totals
        print(f"Table 1 heuristics, one replication, CPU time: class kernel / plain FCFS loop {kernel / yard:4.2f} "
              f"(target <= 1.5), with schedule and metrics {whole / yard:4.2f}   load average {os.getloadavg()[0]:.2f}")
        rows["classes-table1"] = {"time": f"{total_time:.1f} s ({total_tasks / total_time / 1e6:.1f} M task events/s)",
                                  "ratio": f"{total_time / 60:.2f}"}
        rows["classes-fcfs-yardstick"] = row(*totals)
    return rows


def sweeps() -> dict[str, dict]:
    """The sweep on local processes against a local Dask cluster; the speed table's row."""
    from hcsched import preset
    from hcsched.sweep import chunk_size, grid, parse_vary, sweep

    scenario = preset("maheswaran-fig4").replace(tasks=500, trials=30)
    vary = {"arrivals.rate": [round(r, 8) for r in np.geomspace(0.0004, 0.004, 10)]}
    chunk = chunk_size(grid(scenario, parse_vary(vary)), 30, workers=2)
    from dask.distributed import Client, LocalCluster

    from hcsched.models import warm_up

    def best_of_3(run):  # the sweep is short (about 0.6 s of work): the fastest of three runs of each backend
        walls = []
        for _ in range(3):
            t = time.perf_counter()
            out = run()
            walls.append(time.perf_counter() - t)
        return out, min(walls)

    local, wall_local = best_of_3(lambda: sweep(scenario, vary, jobs=2))
    t = time.perf_counter()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        # A running cluster, as `dask scheduler` + `dask worker` give: its workers have imported hcsched and loaded
        # the model's kernels once (as the local processes inherit them from the parent, warmed before the fork).
        with Client(cluster) as client:
            client.run(warm_up, ["etc"])
        started = time.perf_counter() - t
        remote, wall_dask = best_of_3(lambda: sweep(scenario, vary, backend="dask",
                                                    scheduler=cluster.scheduler_address))
    assert remote.equals(local), "the same results whatever the backend"
    print(f"sweep of maheswaran-fig4, 500 tasks, 10 points x 30 trials, chunks of {chunk} "
          "trials, best of 3: local processes "
          f"{wall_local:6.2f} s, a local Dask cluster of 2 workers {wall_dask:6.2f} s (+ "
          f"{started:.1f} s to start it and load "
          f"the kernels in its workers), "
          f"ratio {wall_dask / wall_local:5.2f}  (target <= 1.3)")
    return {"sweep-dask": {"what": "sweep of `maheswaran-fig4`, 500 tasks, 10 points x 30 trials "
                                   f"(chunks of {chunk} trials), best of 3",
                           "time": f"a local Dask cluster of 2 workers {wall_dask:.2f} s "
                                   f"(+ {started:.1f} s to start it)",
                           "reference": f"local processes {wall_local:.2f} s",
                           "ratio": f"{wall_dask / wall_local:.2f}"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip Table 1")
    parser.add_argument("--record", action="store_true", help="write this run's rows of bench/speed.csv")
    args = parser.parse_args()
    rows = {**kernels(), **cli_runs(), **class_model(table1=not args.quick), **sweeps()}
    if args.record:
        record_all(rows)


if __name__ == "__main__":
    main()
