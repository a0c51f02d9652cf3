"""The dashboard's run-time estimates under load (target: within 1.5x, both ways): a machine loaded by other work,
and four runs at once sharing the server's workers.

The dashboard's way is copied without a browser: one :class:`hcsched.pool.Pool` sized to the cores, at most four runs
at once (``HCSCHED_MAX_RUNS``'s default), each run in a thread of its own (``using(pool, owner=...)``, as a page's
Job does). The load is made by ``--load`` processes that spin at the workers' own priority (``nice`` 10, as other
runs' work would be; work at a higher priority than the workers would starve them, which no estimate can foresee
before a chunk ends), started before the pool and kept for the whole bench, so that the machine's 1-minute load
average reads about ``--load`` + the busy workers.

Three cases, each on the value and estimation models' default presets at ``--share`` of their trials:

- ``quiet``: one run, no load (the reference, measured in the same run of the bench);
- ``load``: one run at a time beside the load;
- ``four``: four runs started 1 s apart beside the load (a class pressing Run);
- ``beside``: a short run (the estimation default at 4 trials, about 2 s on a quiet core, as a one-click what-if
  is) alone beside the load, then again
  started 3 s after the value default began: the pool gives a free worker to the run with the least work left, so
  the short run's wall time beside the long one should stay near its time alone plus one chunk's wait (taking turns
  chunk by chunk, it doubled).

For each run: the estimate the Run page states before it starts (``estimate_seconds(..., pool=pool)``: its share
beside the runs going on and in line, at the pace the pool measures) and the estimate the progress bar shows once a
quarter of its trials are done (elapsed + ``progress_text``'s time left with the pool's ``time_left``), against the
wall time it took. The ratio is measured / estimate; within 0.67-1.5 passes.

    python bench/load_estimates.py [--load 5] [--share 0.4] [--cases quiet load four beside]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hcsched import get_model, preset, simulate  # noqa: E402
from hcsched.experiment import estimate_seconds, progress_text  # noqa: E402
from hcsched.pool import WORKER_NICE, Pool, RunQueue  # noqa: E402
from hcsched.runner import default_jobs, using  # noqa: E402

MODELS = ("value", "estimation")
TARGET = 1.5
SPIN = f"import os; os.nice({WORKER_NICE})\nwhile True: pass"


def _scenarios(share: float) -> list:
    out = []
    for model in MODELS:
        scenario = preset(get_model(model).default_preset)
        out.append(scenario.replace(trials=max(4, round(scenario.trials * share))))
    return out


class PageRun:
    """One run as a page's Job makes it (pages/jobs.py): ``simulate`` in a thread of its own, started at once, its
    chunks in ``pool`` (``using(pool, owner=self)``: this run's own owner), with ``options`` (simulate's other
    arguments); its result and its wall time from start to result. ``_progress`` is its progress callback."""

    def __init__(self, pool: RunQueue, scenario, **options) -> None:
        self.pool, self.scenario, self.options = pool, scenario, options
        self.seconds = 0.0
        self.result = None
        self.thread = threading.Thread(target=self._work)
        self.started = time.monotonic()
        self.thread.start()

    def _progress(self, done: float, total: int) -> None:
        """``simulate``'s ``progress(done, total)``: nothing here."""

    def _work(self) -> None:
        with using(self.pool, owner=self):
            self.result = simulate(self.scenario, progress=self._progress, **self.options)
        self.seconds = time.monotonic() - self.started


def load_kernels(pool: RunQueue, scenarios: list) -> None:
    """Each scenario's model's kernels loaded in the pool's workers, untimed: a run of 2 trials of each."""
    for scenario in scenarios:
        with using(pool):
            simulate(scenario.replace(trials=2), jobs=pool.size)


class _Run(PageRun):
    """One run as a page's Job makes it: its estimate before, its forecast at a quarter, its wall time."""

    def __init__(self, pool: Pool, scenario) -> None:
        self.before = estimate_seconds(scenario, jobs=pool.size, pool=pool)
        self.quarter: float | None = None
        super().__init__(pool, scenario, jobs=pool.size)

    def _progress(self, done: float, total: int) -> None:
        if self.quarter is None and done >= total / 4:
            elapsed = time.monotonic() - self.started
            text = progress_text(done, total, "trial", elapsed, self.before, self.pool.time_left(self))
            found = re.search(r"about (\d+) (s|min) left", text)
            left = float(found[1]) * (60 if found[2] == "min" else 1) if found else 0.0
            self.quarter = elapsed + left


def _short():
    """A run of about 2 s on a quiet core, as a one-click what-if of a short preset is."""
    return preset(get_model("estimation").default_preset).replace(trials=4)


def _beside(pool: Pool, long: object) -> list[_Run]:
    """The short run alone, then started 3 s into the long one; prints how much longer it took beside it."""
    alone = _Run(pool, _short())
    alone.thread.join()
    first = _Run(pool, long)
    time.sleep(3.0)
    beside = _Run(pool, _short())
    beside.thread.join()
    first.thread.join()
    print(f"# the short run beside the long one: {beside.seconds:.1f} s against {alone.seconds:.1f} s alone "
          f"(x{beside.seconds / alone.seconds:.2f}); the long one {first.seconds:.1f} s", flush=True)
    return [alone, beside, first]


def _row(case: str, run: _Run) -> tuple[str, bool]:
    ratios = [run.seconds / run.before, run.seconds / run.quarter if run.quarter else float("nan")]
    ok = all(1 / TARGET <= r <= TARGET for r in ratios if r == r)
    return (f"{case:6} {run.scenario.name:24} {run.scenario.trials:6} {run.before:9.1f} {run.quarter or 0:9.1f} "
            f"{run.seconds:8.1f} {ratios[0]:7.2f} {ratios[1]:7.2f}  {'ok' if ok else 'OFF'}"), ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=5, help="processes spinning beside the server (default 5)")
    parser.add_argument("--share", type=float, default=0.4, help="share of each preset's trials (default 0.4)")
    parser.add_argument("--cases", nargs="+", default=["quiet", "load", "four", "beside"],
                        choices=["quiet", "load", "four", "beside"])
    args = parser.parse_args()
    scenarios = _scenarios(args.share)
    rows, good = [], True
    with Pool(default_jobs(), max_runs=4) as pool:
        assert pool.wait_ready(120)
        load_kernels(pool, [*scenarios, _short()])
        spinners: list[subprocess.Popen] = []
        try:
            for case in args.cases:
                if case != "quiet" and not spinners:
                    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.load)]
                    time.sleep(30)  # the load average climbs towards the load
                pool._paced = {}  # each case starts with no pace measured
                if case == "beside":
                    runs = _beside(pool, scenarios[0])
                elif case == "four":
                    runs = []
                    for i in range(4):
                        runs.append(_Run(pool, scenarios[i % len(scenarios)]))
                        time.sleep(1.0)
                    for run in runs:
                        run.thread.join()
                else:
                    runs = []
                    for scenario in scenarios:
                        runs.append(_Run(pool, scenario))
                        runs[-1].thread.join()
                for run in runs:
                    line, ok = _row(case, run)
                    rows.append(line)
                    good &= ok or case == "quiet"
                    print(line, flush=True)
                print(f"# after {case}: load average {os.getloadavg()[0]:.1f}, pace {pool.pace():.2f}", flush=True)
        finally:
            for p in spinners:
                p.kill()
    print("\ncase   scenario                 trials  estimate  at 1/4    wall   ratio  ratio@1/4")
    print("\n".join(rows))
    print(f"\n{'every estimate under load within' if good else 'some estimates outside'} {TARGET}x "
          f"(load {args.load} at nice {WORKER_NICE}, {default_jobs()} cores)")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
