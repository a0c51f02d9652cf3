"""Plug-in heuristics against the built-in: python bench/plugins.py [--trials N]

Runs the preset maheswaran-fig4 (20 machines, 2000 tasks; Maheswaran et al. 1999, Fig. 4) with the built-in MCT, a
numba-jitted plug-in that re-implements MCT and a plain Python one, the same trials for all three, in this process
(one core), compilation warmed first. Checks that the three give byte-identical results and schedules, then prints
for each: the wall time of the preset's run (``hcsched.simulate``: the workloads' draws and bounds included) and of
the heuristic's own runs on the same, already drawn workloads (``Model.run``), each the best of 3, and its ratio to
the built-in measured in the same run. Targets (the preset's run): numba within 1.5x of the built-in, plain Python
within 20x.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

import hcsched
from hcsched.heuristics import unregister_heuristic
from hcsched.kernels import best_machine
from hcsched.models.etc import MODEL
from hcsched.sampling import trial_seeds
from hcsched.scenario import HeuristicSpec

TARGETS = {"numba plug-in": 1.5, "Python plug-in": 20.0}


@njit
def bench_mct_numba(e, ready, now, params, state):
    """MCT as a user writes it in numba."""
    return best_machine(e, ready)[0]


def bench_mct_python(e, ready, now, params, state):
    """MCT as a user writes it in plain Python (ties to the lowest index, as MCT's)."""
    return int(np.argmin(ready + e))


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10, help="trials of the preset (default 10)")
    args = parser.parse_args()
    preset = hcsched.preset("maheswaran-fig4").replace(benchmark=None)
    numba_h = hcsched.heuristic("etc", title="MCT in numba")(bench_mct_numba)
    python_h = hcsched.heuristic("etc", title="MCT in Python")(bench_mct_python)
    rows = {"built-in MCT": "mct", "numba plug-in": numba_h, "Python plug-in": python_h}
    try:
        MODEL.warm_up()
        for h in rows.values():  # compile (and register) before timing
            hcsched.simulate(preset, trials=1, jobs=1, heuristics=[h])
        out, first = {}, None
        workloads = [MODEL.workload(preset.spec, s) for s in trial_seeds(preset.seed, args.trials)]
        for what, h in rows.items():
            results, schedules = hcsched.simulate(preset, trials=args.trials, jobs=1, heuristics=[h], schedules=True)
            own_columns = [c for c in results.columns if c != "heuristic" and not c.startswith("normalized_")]
            digest = (results[own_columns].to_csv(), schedules.drop(columns="heuristic").to_csv())
            if first is None:
                first = digest
            elif digest != first:
                raise SystemExit(f"{what}: results differ from the built-in MCT's")
            spec = HeuristicSpec.make(h if isinstance(h, str) else h.name, model="etc")
            whole = best_of(lambda h=h: hcsched.simulate(preset, trials=args.trials, jobs=1, heuristics=[h]))
            own = best_of(lambda spec=spec: [MODEL.run(preset.spec, spec, w) for w in workloads])
            out[what] = (whole, own)
    finally:
        for h in (numba_h, python_h):
            unregister_heuristic(h.name, "etc")
    base_whole, base_own = out["built-in MCT"]
    print(f"maheswaran-fig4, {args.trials} trials, one core; results and schedules byte-identical for all three")
    print(f"{'':16} {'preset run':>11} {'ratio':>7} {'target':>7}   {'heuristic alone':>15} {'ratio':>7}")
    for what, (whole, own) in out.items():
        target = f"{TARGETS[what]:g}x" if what in TARGETS else ""
        print(f"{what:16} {whole:10.3f}s {whole / base_whole:6.2f}x {target:>7}   {own:14.4f}s {own / base_own:6.1f}x")
    failed = [what for what, limit in TARGETS.items() if out[what][0] / base_whole > limit]
    if failed:
        raise SystemExit(f"over target: {', '.join(failed)}")


if __name__ == "__main__":
    main()
