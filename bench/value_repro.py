"""Reproduction of Kim et al. (2007), Figs. 2 and 3: python bench/value_repro.py [--trials 50] [--static-trials 5]
[--jobs 1] [--out DIR]

Runs the eight presets ``kim-{loose,tight}-{high,low}-{heavy,light}``: the eight dynamic heuristics on ``--trials``
trials, and TPSA and GA (the paper's parameters, seeded with each trial's best dynamic mapping) on the first
``--static-trials`` trials (they cost about 10 s each per trial). Writes one CSV of per-trial rows per preset and
part into ``--out`` and prints, per preset, V as % of UB (mean and 95% interval) of every heuristic, TPSA's and GA's
gain over the best dynamic heuristic on the same trials, and the best and the worst dynamic heuristic; the paper's
claims for each scenario, to compare them with, are in docs/models/value.md, "Reproduction" (not printed).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from hcsched import preset, simulate, summarize
from hcsched.models.value.heuristics import DYNAMIC_NAMES

PRESETS = [f"kim-{d}-{h}-{w}" for d in ("loose", "tight") for h in ("high", "low") for w in ("heavy", "light")]


def run(name: str, trials: int, static_trials: int, jobs: int, out: Path) -> pd.DataFrame:
    sc = preset(name)
    dyn = tuple(h for h in sc.heuristics if h.name in DYNAMIC_NAMES)
    frames, dyn_s = [], 0.0
    if trials:
        t = time.perf_counter()
        df = simulate(sc.replace(heuristics=dyn, trials=trials), jobs=jobs)
        dyn_s = time.perf_counter() - t
        df.to_csv(out / f"{name}-dynamic.csv", index=False)
        frames.append(df)
    static_s = 0.0
    if static_trials:
        t = time.perf_counter()
        st = simulate(sc.replace(trials=static_trials), jobs=jobs)  # the dynamic ones again (seeding), then TPSA, GA
        static_s = time.perf_counter() - t
        st.to_csv(out / f"{name}-static.csv", index=False)
        frames.append(st if not trials else st[st["heuristic"].isin(["tpsa", "ga"])])
    print(f"## {name}: {trials} trials dynamic ({dyn_s:.0f} s), {static_trials} trials with "
          f"TPSA and GA ({static_s:.0f} s)", flush=True)
    return pd.concat(frames)


def report(name: str, df: pd.DataFrame) -> None:
    s = summarize(df, ["value_pct_ub"]).set_index("heuristic")
    for h, row in s.iterrows():
        print(f"  {h:16s} {row['value_pct_ub']:6.2f} [{row['value_pct_ub_lower']:6.2f}, "
              f"{row['value_pct_ub_upper']:6.2f}] %UB  ({int(row['trials'])} trials)")
    dyn = s.loc[[h for h in s.index if h in DYNAMIC_NAMES]]
    if "tpsa" in s.index:
        same = df[df["trial"].isin(df.loc[df["heuristic"] == "tpsa", "trial"])]
        best = same[same["heuristic"].isin(DYNAMIC_NAMES)].groupby("trial")["value_pct_ub"].max()
        for h in ("tpsa", "ga"):
            gain = same[same["heuristic"] == h].set_index("trial")["value_pct_ub"] - best
            print(f"  {h} - best dynamic on the same trials: {gain.mean():+.2f} points of UB (min {gain.min():+.2f})")
    print(f"  best dynamic: {dyn['value_pct_ub'].idxmax()}, worst: {dyn['value_pct_ub'].idxmin()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--static-trials", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/value_repro"))
    ap.add_argument("--presets", nargs="*", default=PRESETS)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    for name in a.presets:
        report(name, run(name, a.trials, a.static_trials, a.jobs, a.out))


if __name__ == "__main__":
    main()
