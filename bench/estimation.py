"""Benchmarks of the estimation model (Page, Keane and Naughton), with the paper's directions on the presets.

    python bench/estimation.py [--quick] [--record] [--scaling [FACTOR ...]]

1. The k-NN estimates of 500 unstarted tasks on 90 processors after one return (target <= 10 ms): the incremental
   update (column j only) against a full recomputation measured in the same run.
2. One preset of 30 trials on 2 cores (target <= 60 s), with the paper's directions: k-NN error against the smoothed
   and simple-average estimators, k-NN error falling with more observations, LE against LA, FZ (best, beta 0.1)
   against FA, FE the worst of FA / FE / FZ. --quick runs 6 trials.
3. With ``--scaling`` only: one trial of ``page-system-a`` with FA and RR at processors x f and every
   problem's stages x f (f = 1, 4 by default; 16 if asked), one process, kernels warm: CPU seconds of each heuristic,
   the growth exponent of each step, and FA's seconds per unit of Alg. 2's decision work. The unit: at each mapping
   event Alg. 2 evaluates FA (eq. 11) for every waiting task of a known problem on every processor at least once (a
   task may be queued behind a busy one), S x M pairs; the brief's narrower count, waiting tasks x idle processors,
   is printed beside it. CPU seconds, not wall: the machine is shared.

``--record`` writes the figures of 1 and 2 into their rows of bench/speed.csv (bench/speed.py), the table of
docs/performance.md (with --quick, the 6 trials' time scaled to 30 and said so).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from hcsched import Scenario, simulate
from hcsched.models.estimation import MODEL, engine
from hcsched.models.estimation.estimators import EstimatorState, knn_estimate
from hcsched.models.estimation.spec import Estimator
from hcsched.sampling import trial_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import figure, record_all  # noqa: E402

KNN_REPEATS = 20


def knn_bench(tasks: int = 500, machines: int = 90, n: int = 100, repeats: int = KNN_REPEATS) -> tuple[float, float]:
    """Milliseconds for one return (observe + column j) plus the estimate matrices, and for a full recomputation."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 50, (tasks + machines * n + repeats, 3))
    est = EstimatorState(Estimator(n=n, L=0.1), np.zeros(X.shape[0], np.int64), X, machines, 1)
    for j in range(machines):
        est.report_rate(j, 1000.0)
    unstarted = np.arange(tasks)
    k = tasks
    for j in range(machines):  # full rings of n observations on every processor
        for _ in range(n):
            est.observe(k, j, float(rng.exponential(100)), 1.0, 0.3, unstarted[:0])
            k += 1
    est.fill_rows(unstarted)
    MODEL.warm_up()
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        est.observe(k, r % machines, 100.0, 1.0, 0.2, unstarted)
        est.estimates(unstarted)
        times.append(time.perf_counter() - t)
        k += 1
    t = time.perf_counter()
    est.fill_rows(unstarted)
    est.estimates(unstarted)
    full = time.perf_counter() - t
    return 1000 * float(np.median(times)), 1000 * full


def knn_vs_observations(seed: int = 1) -> dict[int, float]:
    """Fig. 6: mean |ETC - t| / t of k-NN on a known function of X against the number of observations."""
    rng = np.random.default_rng(seed)

    def draw(m):
        x = rng.integers(0, 21, (m, 2)).astype(float)
        return x, 10.0 * (x[:, 0] + 1) * (1 + 0.2 * x[:, 1]) * np.exp(0.1 * rng.standard_normal(m))

    out = {}
    for n in (3, 10, 30, 100, 300, 1000):
        errs = []
        for _ in range(10):
            x, t = draw(n)
            xq, tq = draw(100)
            errs.append(np.mean(np.abs(knn_estimate(xq, x, t, L=0.1) - tq) / tq))
        out[n] = float(np.mean(errs))
    return out


def estimator_errors(trials: int) -> dict[str, float]:
    """Fig. 5: mean estimation error of FA under each estimator on system A."""
    sc = MODEL.presets()["page-system-a"]().replace(heuristics=["fa"], trials=trials)
    out = {}
    for method in ("knn", "smoothed", "average"):
        spec = sc.spec
        s2 = sc.replace(estimator=type(spec.estimator)(**{**spec.estimator.__dict__, "method": method}))
        out[method] = float(simulate(s2, jobs=2)["estimation_error"].mean())
    return out


def preset_run(name: str, trials: int):
    sc = MODEL.presets()[name]().replace(trials=trials)
    t = time.perf_counter()
    df = simulate(sc, jobs=2)
    wall = time.perf_counter() - t
    summary = df.groupby("heuristic", sort=False)[["makespan", "efficiency", "estimation_error"]].agg(["mean", "sem"])
    return wall, df, summary


def scaled(factor: int, heuristics=("fa", "rr")) -> Scenario:
    """``page-system-a`` with processors x factor and every problem's stages x factor, one trial."""
    data = MODEL.presets()["page-system-a"]().to_dict()
    data["processors"]["count"] *= factor
    for problem in data["problems"]:
        problem["stages"] = [n * factor for n in problem["stages"]]
    return Scenario.from_dict({**data, "heuristics": list(heuristics), "trials": 1})


def decision_work(factor: int) -> dict[str, tuple[float, int, int, int, float]]:
    """Per heuristic of :func:`scaled`: (CPU seconds, mapping events, S x M pairs, S x idle pairs, CPU seconds in
    Alg. 2) of one trial."""
    sc = scaled(factor)
    workload = MODEL.workload(sc.spec, trial_seeds(sc.seed, 1)[0])
    greedy, out = engine.K.greedy, {}
    for h in sc.heuristics:
        count = [0, 0, 0, 0.0]

        def counting(kind, e, *args, _count=count, **kwargs):
            idle = args[4] if len(args) > 4 else kwargs.get("idle")
            _count[0] += 1
            _count[1] += e.size
            _count[2] += e.shape[0] * int(np.sum(idle) if idle is not None else e.shape[1])
            t = time.process_time()
            order = greedy(kind, e, *args, **kwargs)
            _count[3] += time.process_time() - t
            return order

        engine.K.greedy = counting
        try:
            t = time.process_time()
            MODEL.run(sc.spec, h, workload)
            out[h.label] = (time.process_time() - t, *count)
        finally:
            engine.K.greedy = greedy
    return out


def scaling(factors: list[int]) -> None:
    MODEL.warm_up()
    decision_work(1)  # warm: first calls of every kernel
    rows = {f: decision_work(f) for f in factors}
    print(f"page-system-a x f (processors and stages), one trial, CPU seconds; load average {os.getloadavg()[0]:.1f}")
    for f, r in rows.items():
        total = sum(v[0] for v in r.values())
        fa = r["fa"]
        print(f"x{f:<3d} FA + RR {total:6.2f} s (FA {fa[0]:.2f} s, RR {r['rr'][0]:.2f} s); FA: {fa[1]} events, "
              f"{fa[2] / 1e6:.1f} M task-processor pairs, {1e9 * fa[0] / fa[2]:.0f} ns a pair "
              f"(Alg. 2 alone {fa[4]:.2f} s, {1e9 * fa[4] / fa[2]:.0f} ns a pair; the rest "
              f"{1e6 * (fa[0] - fa[4]) / fa[1]:.0f} us an event); {fa[3] / 1e6:.1f} M waiting x idle, "
              f"{1e9 * fa[0] / fa[3]:.0f} ns each")
    for a, b in zip(factors, factors[1:], strict=False):
        ta, tb = (sum(v[0] for v in rows[x].values()) for x in (a, b))
        print(f"growth exponent x{a} -> x{b}: {math.log(tb / ta) / math.log(b / a):.2f} (target <= 2)")
    if 4 in rows:
        print(f"x4: {sum(v[0] for v in rows[4].values()) / 1.5:.2f} x the 1.5 s target")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--scaling", nargs="*", type=int, default=None, metavar="FACTOR",
                    help="only the scaling measurement, at these factors (default 1 4)")
    ap.add_argument("--record", action="store_true", help="write the k-NN and preset figures into bench/speed.csv")
    args = ap.parse_args()
    if args.record and args.scaling is not None:
        ap.error("--record records the k-NN and preset rows, which --scaling does not measure")
    if args.scaling is not None:
        scaling(args.scaling or [1, 4])
        return
    trials = 6 if args.quick else 30
    inc, full = knn_bench()
    print(f"k-NN after one return, 500 tasks x 90 processors: {inc:.2f} ms = {inc / 10:.2f} x the 10 ms target; "
          f"reference, a full recomputation of all 90 columns in the same run: {full:.1f} "
          f"ms ({full / inc:.0f} x slower)")
    rows = {"estimation-knn": {"time": f"{figure(inc)} ms (median of {KNN_REPEATS})", "ratio": f"{inc / 10:.2f}",
                               "reference": f"target 10 ms; a full recomputation of all 90 columns: {full:.0f} ms"}}
    print("k-NN error against observations (Fig. 6):", {n: round(e, 3) for n, e in knn_vs_observations().items()})
    for name in ("page-system-a", "page-system-b"):
        wall, df, summary = preset_run(name, trials)
        print(f"\n{name}, {trials} trials on 2 cores: {wall:.1f} s = {wall / 60 * 30 / trials:.2f} x the 60 s target "
              "(scaled to 30 trials)")
        print(summary.round(3).to_string())
        scaled30 = wall * 30 / trials
        rows[f"estimation-{name.replace('-system', '')}"] = {
            "time": f"{scaled30:.1f} s" + ("" if trials == 30 else f" ({trials} trials, scaled to 30)"),
            "ratio": f"{scaled30 / 60:.2f}"}
        mean = df.groupby("heuristic", sort=False)["makespan"].mean()
        if "le" in mean:
            print(f"LE / LA makespan: {mean['le'] / mean['la']:.2f} (paper: > 4)")
        if "fz (beta=0.1)" in mean:
            paired = df.pivot_table(index="trial", columns="heuristic", values="makespan")
            wins = float((paired["fz (beta=0.1)"] < paired["fa"]).mean())
            print(f"FZ (best, beta 0.1) / FA makespan: {mean['fz (beta=0.1)'] / mean['fa']:.2f} (paper: 0.80); "
                  f"FZ (0.1) below FA in {wins:.0%} of the trials")
        trio = mean[[h for h in ("fa", "fe", "fz") if h in mean]]
        print(f"worst of FA, FE, FZ: {trio.idxmax()} (paper: fe)")
    sc = MODEL.presets()["page-system-b"]().replace(heuristics=["fa", "fe-d"], trials=max(2, trials // 3))
    t = time.perf_counter()
    fed = simulate(sc, jobs=2).groupby("heuristic", sort=False)[["makespan", "efficiency"]].mean()
    print(f"\nFE_d on system B ({sc.trials} trials, {time.perf_counter() - t:.1f} s; not in the preset):")
    print(fed.round(1).to_string())
    errs = estimator_errors(trials)
    print("\nestimation error of FA on system A by estimator (Fig. 5):", {k: round(v, 3) for k, v in errs.items()},
          f"smoothed / k-NN = {errs['smoothed'] / errs['knn']:.2f} (paper: about 10)")
    if args.record:
        record_all(rows)


if __name__ == "__main__":
    main()
