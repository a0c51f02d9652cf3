"""A load test of a team's deployment (docs/deployment.md): the same what-ifs of several sessions at once on the
server's own worker processes, and on a real Dask cluster with 1 and with 2 workers.

It drives the dashboard's run path without a browser: one pool for the whole server, each
session's run in a thread of its own with its own owner (``using(pool, owner=...)``), as pages/jobs.py's Job does
(:class:`load_estimates.PageRun`), ``simulate`` called as the Results page's what-if button calls it (the default
jobs, results so far, the server's known rows). The load: ``--sessions`` sessions (6 by default) started 0.5 s
apart, as a class pressing Run. Session i runs the Results page's "Twice the arrival rate" what-if of one of the
quickstart, alazzoni-B and caniou-mu10 presets in turn, at the preset's own trials (``--quick``: a fifth of them),
with a seed of its own (the preset's seed + i: identical runs would be shared by the dashboard's cache).

Three setups, the same load each, each with a pool of its own and a warm-up run of each model first (untimed):

- ``local pool``: the reference, :class:`hcsched.pool.Pool` with the server's default size and runs at once
  (pages/jobs.py's ``WORKERS`` and ``MAX_RUNS``, as its ``server_pool`` makes it);
- ``Dask cluster, 1 worker`` and ``2 workers``: :class:`hcsched.cluster.ClusterPool` on a real ``dask scheduler``
  with ``dask worker`` processes of 1 thread each (``--nthreads 1``), started by this bench with the commands of
  Dask's own package (tests/dask_cluster.py's ``Cluster``) and killed at the end.

Each run's wait (from its start to the first progress its page would show: a heuristic run ended on the local pool;
a whole chunk ended on the cluster, whose workers report progress by chunk) and duration (from its start to its
result), their median and 95th percentile; the server process's CPU seconds (``resource.getrusage`` of this process)
and its peak memory (resident set, sampled every 0.1 s with psutil, which Dask's distributed installs) while the
runs go on; the workers' CPU seconds (their processes, with psutil) and the load average at the end. Every run's
rows must be equal in the three setups (asserted). Prints a markdown table, the local pool first and ratios against
it; ``--record`` writes it into docs/performance.md between the cluster-load markers, with the date, the machine
and the command. The whole bench took 4 minutes at load 9 on 2 cores (``--quick``: a minute or two).

On a machine of a few cores, as this one, the cluster's workers share the cores with the server, so the cluster
cannot be faster than the local pool here. What the test shows is that the server's process stays light (its CPU
and memory) when the work goes to the cluster, and that the waits stay fair between sessions.

    python bench/cluster_load.py [--sessions 6] [--quick] [--record]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # tests/dask_cluster.py
sys.path.insert(0, str(ROOT / "bench"))  # bench/load_estimates.py, also when this file is imported from its path

from dask_cluster import Cluster  # noqa: E402
from load_estimates import PageRun, load_kernels  # noqa: E402
from speed import command, figure, measured, write_page  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.compare import quick_what_ifs  # noqa: E402
from hcsched.experiment import KnownRows  # noqa: E402

PRESETS = ("quickstart", "alazzoni-B", "caniou-mu10")
WHAT_IF = "Twice the arrival rate"  # one of the Results page's what-if buttons (hcsched.compare.quick_what_ifs)
QUICK_SHARE = 0.2  # --quick: this share of each preset's trials
STAGGER_SECONDS = 0.5  # between two sessions' Run
SAMPLE_SECONDS = 0.1  # how often the server's memory is read
READY_SECONDS = 300  # a pool's workers started and warmed up within this long
LOG = "hcsched-cluster-load-dask.log"  # the scheduler's and workers' output, in the temporary folder
PAGE = ROOT / "docs" / "performance.md"
START, END = "<!-- cluster-load:start -->", "<!-- cluster-load:end -->"
HONEST = ("On this machine the cluster's workers share its {cores} cores with the server, so the cluster cannot be "
          "faster than the local pool here: the point is that the server's process stays light (its CPU and memory) "
          "and that the waits stay fair between sessions.")


def what_ifs(sessions: int, share: float = 1.0) -> list:
    """Session i's run: the "Twice the arrival rate" what-if of preset i mod 3, at ``share`` of its trials (at least
    2), with the preset's seed + i."""
    out = []
    for i in range(sessions):
        base = preset(PRESETS[i % len(PRESETS)])
        changed = dict(quick_what_ifs(base))[WHAT_IF]
        out.append(changed.replace(trials=max(2, round(base.trials * share)), seed=base.seed + i))
    return out


class Session(PageRun):
    """One session's run, as its page's Job makes it: with results so far and the server's known rows; its wait is
    the time from its start to its first progress."""

    def __init__(self, pool, scenario, known: KnownRows) -> None:
        self.wait: float | None = None
        self.partial = None
        super().__init__(pool, scenario, jobs=None, partial=self._keep, known=known)

    def _progress(self, done: float, total: int) -> None:
        if self.wait is None and done > 0:
            self.wait = time.monotonic() - self.started

    def _keep(self, results) -> None:
        self.partial = results


@dataclass
class Setup:
    """What one setup measured: each run's wait and duration (s), the server's CPU seconds and peak memory (MB), the
    workers' CPU seconds, the load average at the end, and each run's rows."""

    name: str
    workers: str
    waits: list[float]
    durations: list[float]
    server_cpu: float
    server_mb: float
    workers_cpu: float
    load: float
    results: list = field(default_factory=list, repr=False)


def cpu_seconds() -> float:
    """This process's CPU seconds so far (user and system, every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def tree_cpu(pids: list[int]) -> float:
    """The CPU seconds so far of the processes ``pids`` and their children (those still alive)."""
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            for p in [root, *root.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


class PeakMemory:
    """The peak resident memory of this process (MB) while the block runs, read every ``SAMPLE_SECONDS``."""

    def __enter__(self) -> PeakMemory:
        self.peak, self._stop = 0.0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        me = psutil.Process()
        while True:
            self.peak = max(self.peak, me.memory_info().rss / 2**20)
            if self._stop.wait(SAMPLE_SECONDS):
                return

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def run_setup(name: str, workers: str, pool, scenarios: list, worker_pids: Callable[[], list[int]]) -> Setup:
    """The sessions' runs on ``pool`` (its kernels loaded first, untimed), started ``STAGGER_SECONDS`` apart."""
    load_kernels(pool, [scenarios[i] for i in range(min(len(PRESETS), len(scenarios)))])
    known = KnownRows()  # the server's, shared by its sessions (pages/jobs.py's KNOWN_ROWS)
    cpu, their_cpu = cpu_seconds(), tree_cpu(worker_pids())
    with PeakMemory() as memory:
        sessions = []
        for scenario in scenarios:
            sessions.append(Session(pool, scenario, known))
            time.sleep(STAGGER_SECONDS)
        for session in sessions:
            session.thread.join()
    missing = [s.scenario.name for s in sessions if s.result is None]
    assert not missing, f"{name}: no result for {missing}"
    setup = Setup(name, workers, [s.wait for s in sessions], [s.seconds for s in sessions], cpu_seconds() - cpu,
                  memory.peak, tree_cpu(worker_pids()) - their_cpu, os.getloadavg()[0], [s.result for s in sessions])
    print(f"# {name}: {len(sessions)} runs, slowest {max(setup.durations):.1f} s, load {setup.load:.1f}", flush=True)
    return setup


def local_setup(scenarios: list) -> Setup:
    """The reference: the server's own pool of worker processes, sized as pages/jobs.py's server_pool makes it."""
    from hcsched.pool import Pool
    from pages.jobs import MAX_RUNS, WORKERS  # the server's defaults (HCSCHED_WORKERS, HCSCHED_MAX_RUNS)

    with Pool(WORKERS, MAX_RUNS) as pool:
        assert pool.wait_ready(READY_SECONDS), "the local pool's workers did not start"
        return run_setup("local pool", f"{WORKERS} processes", pool, scenarios, pool.pids)


def cluster_setups(scenarios: list, log: Path) -> list[Setup]:
    """The same load on a real ``dask scheduler`` with 1, then 2 ``dask worker`` processes (1 thread each)."""
    from hcsched.cluster import ClusterPool
    from pages.jobs import MAX_RUNS

    cluster, out = Cluster(log), []
    try:
        for workers in (1, 2):
            while len(cluster.workers) < workers:
                cluster.add_worker()
            with ClusterPool(cluster.address, MAX_RUNS) as pool:
                assert pool.wait_ready(READY_SECONDS), f"the Dask cluster did not start (its log: {log})"
                deadline = time.monotonic() + READY_SECONDS
                while pool.size < workers and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert pool.size == workers, f"{pool.size} worker threads on the cluster, not {workers}"
                words = "1 Dask worker (1 thread)" if workers == 1 else f"{workers} Dask workers (1 thread each)"
                out.append(run_setup(f"Dask cluster, {workers} worker{'s' if workers > 1 else ''}", words, pool,
                                     scenarios, lambda: [p.pid for p in cluster.workers]))
    finally:
        cluster.stop()
    return out


def same_results(setups: list[Setup]) -> None:
    """Every run's rows equal in every setup to the reference's (the first setup's)."""
    reference = setups[0]
    for setup in setups[1:]:
        for i, (mine, theirs) in enumerate(zip(setup.results, reference.results, strict=True)):
            assert mine.equals(theirs), f"{setup.name}: run {i} differs from {reference.name}'s"


def p95(values: list[float]) -> float:
    return float(np.percentile(values, 95))


def _cell(value: float, reference: float | None) -> str:
    """``value`` (2 significant digits), with its ratio to ``reference`` when there is one (another setup's row)."""
    text = figure(value)
    return text if not reference else f"{text} (×{value / reference:.2f})"


def _pair(values: list[float], reference: list[float] | None) -> str:
    """Median / 95th percentile of ``values``, each with its ratio to the reference's."""
    mid, high = statistics.median(values), p95(values)
    if reference is None:
        return f"{figure(mid)} / {figure(high)}"
    return (f"{figure(mid)} / {figure(high)} "
            f"(×{mid / statistics.median(reference):.2f} / ×{high / p95(reference):.2f})")


HEADER = ("setup", "workers", "runs", "wait, median / 95th percentile (s)", "duration, median / 95th percentile (s)",
          "server CPU (s)", "server peak memory (MB)", "workers' CPU (s)", "load average")


def render(setups: list[Setup]) -> str:
    """The markdown table: the reference (the first setup) first, every other row with its ratios against it (×)."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    first = setups[0]
    for setup in setups:
        ref = None if setup is first else first
        cells = (setup.name, setup.workers, str(len(setup.durations)), _pair(setup.waits, ref and ref.waits),
                 _pair(setup.durations, ref and ref.durations), _cell(setup.server_cpu, ref and ref.server_cpu),
                 _cell(setup.server_mb, ref and ref.server_mb), _cell(setup.workers_cpu, ref and ref.workers_cpu),
                 f"{setup.load:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def section(table: str, when: str, how: str) -> str:
    """What ``--record`` puts between the markers: when and where it was measured, by which command, the table."""
    return (f"Measured on {when} (the 1-minute load average at the end), with `{how}`; the ratios (×) are against "
            f"the local pool, measured in the same run:\n\n{table}")


def write_section(text: str, page: Path = PAGE) -> None:
    """Put ``text`` between the cluster-load markers of ``page``, the rest of it unchanged."""
    write_page(text, page, START, END)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=6, help="sessions pressing Run 0.5 s apart (default 6)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SHARE:.0%} of each preset's trials")
    parser.add_argument("--record", action="store_true", help="write the table into docs/performance.md")
    args = parser.parse_args()
    scenarios = what_ifs(args.sessions, QUICK_SHARE if args.quick else 1.0)
    print(f"# {args.sessions} sessions, {WHAT_IF.lower()} of " + ", ".join(
        f"{s.name} ({s.trials} trials, seed {s.seed})" for s in scenarios), flush=True)
    setups = [local_setup(scenarios), *cluster_setups(scenarios, Path(tempfile.gettempdir()) / LOG)]
    same_results(setups)
    table = render(setups)
    print(f"\nThe ratios (×) are against the local pool, measured in the same run.\n\n{table}\n\n"
          f"Every run's rows are the same in the three setups. {HONEST.format(cores=os.cpu_count())}")
    if args.record:
        write_section(section(table, measured(), command()))
        print(f"wrote the table into {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
