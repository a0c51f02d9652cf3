"""The run-time estimate the dashboard shows before a run, against the time the run takes (target: every
preset within 1.5x, both ways).

For each model's presets: ``experiment.estimate_seconds`` (what the Run page and the per-session limit use) against
the wall time of ``simulate`` with the same trials and jobs, run as the dashboard runs it: in a pool of worker
processes started and warmed beforehand (``--via fork``: forked processes, as the command line does). The ratio is
measured / estimate: 1 is right, above 1 the estimate was optimistic, below 1 it said more than the run took; the
target is 0.67-1.5. Beside it, the CPU seconds of the busiest worker (pool only), which the load of other processes
barely changes: on a busy machine, compare their ratio to the estimate (runs of at least 0.5 s; its own verdict
line), and the estimate of one trial against its CPU seconds in this process (``trial_runs``, the
Results page's Gantt trial). Each model's first run in a process (kernels loaded, the classes' LP solver imported) is
made beforehand, untimed.

A preset whose estimated run exceeds ``--budget`` seconds is run with fewer trials (marked ``*``, at least two chunks
per worker), so that the whole bench takes about ten minutes on two cores. A run of at most 10 s whose busiest worker
got less than 80% of a core (other processes took the rest) is made again, up to ``--repeat`` runs, the fastest kept
(marked ``r``).

Besides the presets, the scenarios of :data:`EXTRA`: cases where an estimate went wrong (the
time-shared presets on the three slow servers a user uploaded, 2.7 s estimated for a 14.3 s run; and
the quickstart's heuristics on a 2000 x 2000 ETC matrix of a user's, estimated at 6.6 minutes); and the one-click
what-ifs of each model's default preset (:func:`hcsched.compare.quick_what_ifs`, as the Results page offers them: the
value model's "Twice the arrival rate" was estimated at 44 s and ran 141 s).

    python bench/estimates.py [--budget SECONDS] [--jobs J] [--via pool|fork] [--model NAME ...]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from hcsched import Scenario, get_model, model_names, preset, simulate, trial_runs  # noqa: E402
from hcsched.compare import quick_what_ifs  # noqa: E402
from hcsched.experiment import estimate_seconds  # noqa: E402
from hcsched.models import warm_up  # noqa: E402
from hcsched.models.etc.workload import range_based_etc  # noqa: E402
from hcsched.pool import Pool  # noqa: E402
from hcsched.runner import using  # noqa: E402

TARGET = 1.5  # measured / estimate within [1 / TARGET, TARGET]
REPEAT_SECONDS = 10.0  # runs estimated at most this long are made again when other processes starved them ...
STARVED = 0.8  # ... that is when the busiest worker got less than this share of a core over the run


def _own_servers(name: str, speeds: list[float], bandwidths: list[float]) -> Scenario:
    data = preset(name).to_dict()
    data.update(name=f"{name} on servers {speeds} Mflop/s, {bandwidths} Mbit/s",
                servers={"speed_mflops": speeds, "bandwidth_mbit": bandwidths})
    return Scenario.from_dict(data)


def _etc_matrix(tasks: int, machines: int) -> Scenario:
    """The quickstart's heuristics and arrivals on a user's ETC matrix (HiHi range-based, drawn once)."""
    data = preset("quickstart").to_dict()
    matrix = range_based_etc(np.random.default_rng(29), tasks, machines, 3000.0, 100.0)
    data.update(name=f"quickstart, {tasks} x {machines} matrix", etc={"method": "matrix", "matrix": matrix.tolist()})
    return Scenario.from_dict(data)


def _what_ifs(model: str) -> list[Scenario]:
    """The one-click what-ifs of the model's default preset, each named by its preset and its words."""
    base = preset(get_model(model).default_preset)
    return [changed.replace(name=f"{base.name}: {words.lower()}") for words, changed in quick_what_ifs(base)]


#: Scenarios measured besides the presets, by model: a user's 2000 x 2000 ETC matrix; a user's upload of three slow
#: servers (300/50, 150/5, 500/50) under mu = 10 and 0, and five slow servers on the paper's cards.
EXTRA = {"etc": [lambda: _etc_matrix(2000, 2000)],
         "timeshared": [lambda: _own_servers("caniou-mu10", [300, 150, 500], [50, 5, 50]),
                        lambda: _own_servers("caniou-mu0", [300, 150, 500], [50, 5, 50]),
                        lambda: _own_servers("caniou-mu10", [150] * 5, [100] * 5)]}


def _cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each of these processes so far (Linux; none elsewhere)."""
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def _run(scenario: Scenario, jobs: int, pool: Pool | None) -> tuple[float, float]:
    """Wall seconds of ``simulate`` and the busiest worker's CPU seconds (NaN without a pool)."""
    pids = pool.pids() if pool else []
    before = _cpu_seconds(pids)
    t = time.perf_counter()
    with using(pool) if pool else nullcontext():
        simulate(scenario, jobs=jobs)
    wall = time.perf_counter() - t
    after = _cpu_seconds(pids)
    return wall, max((after[p] - before[p] for p in after if p in before), default=math.nan)


def measure(scenario: Scenario, budget: float, jobs: int, pool: Pool | None, repeat: int) -> dict:
    """A run of ``scenario`` (its trials, fewer if its estimate exceeds ``budget`` seconds): the estimate, the wall
    seconds and the busiest worker's CPU seconds; then one trial's estimate and CPU seconds in this process. A run of
    at most REPEAT_SECONDS whose workers got less than STARVED of a core (other processes took it) is made again, up to
    ``repeat`` runs in all, and the fastest kept."""
    trials = scenario.trials
    if estimate_seconds(scenario, jobs=jobs) > budget:
        per_trial = estimate_seconds(scenario, trials=1, jobs=1)
        trials = int(max(2 * jobs, min(scenario.trials, budget * jobs / max(per_trial, 1e-9))))
    scenario = scenario.replace(trials=trials)
    estimate = estimate_seconds(scenario, jobs=jobs)
    c = time.process_time()
    trial_runs(scenario, 0)
    one_cpu = time.process_time() - c
    runs = [_run(scenario, jobs, pool)]
    while (len(runs) < repeat and estimate <= REPEAT_SECONDS
           and min(runs)[0] * STARVED > min(runs)[1] + 0.05):  # wall beyond the CPU the busiest worker got
        runs.append(_run(scenario, jobs, pool))
    wall, cpu = min(runs)
    return {"trials": trials, "estimate": estimate, "wall": wall, "cpu": cpu, "runs": len(runs),
            "one": estimate_seconds(scenario, trials=1, jobs=1), "one_cpu": one_cpu}


def verdict(rows: list[tuple[str, float]], what: str) -> str:
    """"N of M presets within 1.5x; worst ratio X (preset)": ratios measured / estimate, the worst the farthest
    from 1 either way."""
    if not rows:
        return f"no {what}"
    within = sum(1 / TARGET <= r <= TARGET for _, r in rows)
    name, worst = max(rows, key=lambda row: abs(math.log(max(row[1], 1e-9))))
    return f"{within} of {len(rows)} {what} within {TARGET}x; worst ratio {worst:.2f} ({name})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=20.0,
                        help="estimated seconds above which a preset runs fewer trials (default 20)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--via", choices=("pool", "fork"), default="pool",
                        help="the dashboard's pool of workers (default) or forked processes (the command line)")
    parser.add_argument("--model", nargs="*", default=None, help="models to measure (default: all)")
    parser.add_argument("--no-extra", action="store_true", help="the presets only")
    parser.add_argument("--repeat", type=int, default=3,
                        help=f"runs at most, for a run under {REPEAT_SECONDS:g} s starved "
                             "by other processes (default 3)")
    args = parser.parse_args()
    models = args.model or model_names()
    warm_up(models)
    pool = Pool(args.jobs) if args.via == "pool" else None
    if pool and not pool.wait_ready(120):
        raise SystemExit("the pool's workers did not start")
    for model in models:  # a model's first run in a process loads its kernels (and the classes' LP solver): not timed
        tiny = get_model(model).tiny()
        trial_runs(tiny, 0)
        with using(pool) if pool else nullcontext():
            simulate(tiny.replace(trials=4 * args.jobs), jobs=args.jobs)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores; {args.jobs} jobs via "
          f"{args.via}; ratio = measured / estimate (target {1 / TARGET:.2f}-{TARGET})")
    print(f"{'preset':44s} {'trials':>7s} {'estimate':>9s} {'measured':>9s} {'ratio':>6s} "
          f"{'CPU s':>8s} {'ratio':>6s}   "
          f"{'1 trial est.':>12s} {'CPU s':>8s} {'ratio':>6s}")
    presets, extra, capped, by_cpu, repeated = [], [], [], [], 0
    started = time.perf_counter()
    try:
        for model in models:
            cases = [(preset(name), presets) for name in get_model(model).presets()]
            cases += [] if args.no_extra else [(make(), extra) for make in EXTRA.get(model, [])]
            cases += [] if args.no_extra else [(changed, extra) for changed in _what_ifs(model)]
            for scenario, into in cases:
                r = measure(scenario, args.budget, args.jobs, pool, args.repeat if pool else 1)
                repeated += r["runs"] > 1
                ratio = r["wall"] / r["estimate"]
                cpu_ratio = r["cpu"] / r["estimate"]
                into.append((scenario.name, ratio))
                if r["estimate"] >= 0.5:  # /proc counts CPU time in ticks of 10 ms
                    by_cpu.append((scenario.name, cpu_ratio))
                if r["trials"] < scenario.trials:
                    capped.append(f"{scenario.name} ({r['trials']} of {scenario.trials})")
                trials = f"{r['trials']}{'*' if r['trials'] < scenario.trials else ''}{'r' if r['runs'] > 1 else ''}"
                print(f"{scenario.name[:44]:44s} {trials:>7s} {r['estimate']:8.2f}s {r['wall']:8.2f}s {ratio:6.2f} "
                      f"{r['cpu']:7.2f}s {cpu_ratio:6.2f}   {r['one']:11.3f}s {r['one_cpu']:7.3f}s "
                      f"{r['one_cpu'] / r['one']:6.2f}", flush=True)
    finally:
        if pool:
            pool.close()
    load = os.getloadavg()
    print(f"{time.perf_counter() - started:.0f} s in all; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if capped:
        print(f"* capped at --budget {args.budget:g} s: " + ", ".join(capped))
    if repeated:
        print(f"r: {repeated} runs starved by other processes were made again (up to "
              f"{args.repeat} in all), the fastest kept")
    if pool:
        print("by the busiest worker's CPU seconds (a busy machine barely changes them; runs of at least 0.5 s): "
              + verdict(by_cpu, "cases"))
    if extra:
        print(verdict(extra, "extra cases"))
    print(verdict(presets, "presets"))


if __name__ == "__main__":
    main()
