"""FA's cost on the estimation model's what-if sizes: python bench/estimation_fa.py [--sizes 1,4,16]

One trial (seed 1) of ``page-system-a`` with processors and every problem's stages x f (``bench/scaling.py``'s
"processors and stages x f" axes), one process, kernels warm. Per heuristic and size it prints the CPU seconds of the
run and a digest of the mapping (each task's processor, start and finish, as bytes), so that a change to how Alg. 2 is
computed can be checked to map exactly as before. ``--plain`` also runs each heuristic without FA's carried columns
(``engine._Sim._carried`` off: every event's estimates on every processor and ``kernels.greedy``), in the same process,
for the ratio (below ``engine.CARRY_FROM`` tasks the two are the same code). ``--profile`` prints the run's top
functions by own time.

``--reproduce`` instead times one trial (the first) of each distinct scenario that ``hcsched reproduce`` runs for the
estimation model's claims, per heuristic (FA with and without its carried columns; each heuristic run once untimed
first, so that no compilation is counted), and prints each heuristic's CPU seconds times the scenario's trials:
where the reproduction's time goes, on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import hashlib
import pstats
import time

import numpy as np

from hcsched import preset
from hcsched.models import MODELS
from hcsched.models.estimation import engine


def scenario(f: int, heuristics: list[str]):
    spec = preset("page-system-a").spec
    problems = tuple(dataclasses.replace(p, stages=tuple(s * f for s in p.stages)) for p in spec.problems)
    return preset("page-system-a").replace(heuristics=heuristics, trials=1, problems=problems,
                                           processors=dataclasses.replace(spec.processors,
                                                                          count=spec.processors.count * f))


def digest(run) -> str:
    """sha256 (first 16 hex digits) of each task's processor, start and finish."""
    s = run.schedule
    h = hashlib.sha256()
    for a in (np.asarray(s.machine, np.int64), np.asarray(s.start, float), np.asarray(s.finish, float)):
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,4,16")
    ap.add_argument("--heuristics", default="fa")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--plain", action="store_true")
    ap.add_argument("--reproduce", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.reproduce:
        return reproduction()
    names = a.heuristics.split(",")
    warm = scenario(1, names)
    model = MODELS[warm.model]
    w = model.workload(warm.spec, np.random.SeedSequence(0))
    for h in warm.heuristics:
        model.run(warm.spec, h, w)
    for f in (int(x) for x in a.sizes.split(",")):
        sc = scenario(f, names)
        w = model.workload(sc.spec, np.random.SeedSequence(a.seed))
        for h in sc.heuristics:
            for plain in (False, True) if a.plain else (False,):
                run_one(model, sc.spec, h, w, f, plain, a.profile)


def timed(model, spec, h, w, plain: bool) -> float:
    carried = engine._Sim._carried
    if plain:
        engine._Sim._carried = lambda self: False
    try:
        c = time.process_time()
        model.run(spec, h, w)
        return time.process_time() - c
    finally:
        engine._Sim._carried = carried


def reproduction() -> None:
    """One trial of each scenario of the estimation claims, per heuristic, scaled to the scenario's trials."""
    from hcsched.experiment import trial_seeds
    from hcsched.reproduce import registry, unique_scenarios, variants

    scenarios = unique_scenarios(variants(registry("estimation")))
    model = MODELS["estimation"]
    per: dict[str, list[float]] = {}
    warm: set[tuple[str, bool]] = set()
    for key, sc in scenarios.items():
        w = model.workload(sc.spec, trial_seeds(sc.seed, sc.trials)[0])
        line = []
        for h in sc.heuristics:
            for plain in (False, True) if h.name == "fa" else (False,):
                if (h.label, plain) not in warm:  # its kernels compiled or loaded, not timed
                    warm.add((h.label, plain))
                    timed(model, sc.spec, h, w, plain)
            c = timed(model, sc.spec, h, w, False)
            old = timed(model, sc.spec, h, w, True) if h.name == "fa" else c
            per.setdefault(h.label, [0.0, 0.0])
            per[h.label][0] += c * sc.trials
            per[h.label][1] += old * sc.trials
            line.append(f"{h.label} {c:.2f}" + (f" (plain {old:.2f})" if h.name == "fa" else ""))
        print(f"{key} x{sc.trials} trials, {sc.spec.processors.count} processors, {sc.spec.tasks} tasks: "
              + ", ".join(line), flush=True)
    total, plain = sum(v[0] for v in per.values()), sum(v[1] for v in per.values())
    for label, (c, old) in sorted(per.items(), key=lambda kv: -kv[1][0]):
        print(f"{label:32s} {c:8.1f} s ({100 * c / total:4.1f}%)" + (f"  plain FA {old:.1f} s" if c != old else ""))
    print(f"all: {total:.1f} CPU s for every trial on one core (plain FA: {plain:.1f} s)")


def run_one(model, spec, h, w, f: int, plain: bool, profile: bool) -> None:
    carried = engine._Sim._carried
    if plain:
        engine._Sim._carried = lambda self: False
    prof = cProfile.Profile() if profile else None
    try:
        c = time.process_time()
        if prof:
            prof.enable()
        run = model.run(spec, h, w)
        if prof:
            prof.disable()
        c = time.process_time() - c
    finally:
        engine._Sim._carried = carried
    print(f"{f}x {h.label}{' (plain)' if plain else ''}: {c:.3f} s CPU, {run.mapping_events} mapping events, "
          f"digest {digest(run)}", flush=True)
    if prof:
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
