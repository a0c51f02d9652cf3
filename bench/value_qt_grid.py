"""The Queueing Table cutoffs (Kim et al. 2007, section 4.5: "determined experimentally", unpublished) by a grid
search: python bench/value_qt_grid.py [--trials 10]

V as % of UB of queueing-table for each (ret_cutoff, urgency_cutoff) on kim-tight-low-heavy and
kim-tight-low-light (where the paper finds QT best), on trials of seed 1 (the presets use seed 2007, so the
reproduction does not reuse the trials the cutoffs were chosen on). Prints one markdown table per preset.
"""

from __future__ import annotations

import argparse

from hcsched import Scenario, preset, simulate

RET = (0.6, 0.8, 1.0, 1.2, 1.5)
URGENCY = (0.1, 0.25, 0.5, 1.0, 2.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=10)
    a = ap.parse_args()
    for name in ("kim-tight-low-heavy", "kim-tight-low-light"):
        base = preset(name).to_dict()
        hs = [{"name": "queueing-table", "ret_cutoff": r, "urgency_cutoff": u} for r in RET for u in URGENCY]
        sc = Scenario.from_dict({**base, "heuristics": hs, "trials": a.trials, "seed": 1})
        df = simulate(sc, jobs=1)
        means = df.groupby("heuristic", sort=False)["value_pct_ub"].mean().to_numpy().reshape(len(RET), len(URGENCY))
        print(f"\n{name}, {a.trials} trials of seed 1: queueing-table V as % of UB\n")
        print("| ret_cutoff \\ urgency_cutoff | " + " | ".join(f"{u:g}" for u in URGENCY) + " |")
        print("|---|" + "---:|" * len(URGENCY))
        for r, row in zip(RET, means, strict=True):
            print(f"| {r:g} | " + " | ".join(f"{x:.2f}" for x in row) + " |")


if __name__ == "__main__":
    main()
