"""Regenerate the golden results of tests/test_golden.py: python tests/golden/make.py

Only when a change of results is intended (and said in the commit): the golden
files pin the bytes of every results CSV for these scenarios and seeds.
"""

from __future__ import annotations

import json
from pathlib import Path

from hcsched import load_scenario, preset, simulate

HERE = Path(__file__).resolve().parent


def shrink(name: str, **changes) -> dict:
    data = json.loads(preset(name).to_json())
    data.update(changes)
    return data


CASES = {
    "quickstart": shrink("quickstart", trials=3),
    "fig7-aging": shrink("maheswaran-fig7", machines=6, tasks=150, trials=2),
    "fig8-count": shrink("maheswaran-fig8", machines=6, tasks=150, trials=2),
    "fig5-smallest": shrink("maheswaran-fig5-smallest", machines=8, tasks=120, trials=2),
    "cov-gamma": {"name": "cov-gamma", "machines": 5, "tasks": 80,
                  "etc": {"method": "cov", "task_mean": 50, "task_cov": 0.6, "machine_cov": 0.4,
                          "consistency": "consistent"},
                  "arrivals": {"rate": 0.2}, "actual": {"model": "gamma", "cov": 0.3},
                  "heuristics": ["mct", "met", "olb", {"name": "sa", "low": 0.4, "high": 0.7},
                                 {"name": "kpb", "kbar": 2}],
                  "trials": 3, "seed": 11},
    "matrix-exact": {"name": "matrix-exact",
                     "etc": {"method": "matrix", "matrix": [[50, 20, 15], [20, 60, 15], [20, 50, 15],
                                                            [40, 48, 134], [50, 82, 88]]},
                     "arrivals": {"process": "static"}, "actual": {"model": "exact"},
                     "heuristics": ["min-min", "max-min", "sufferage", "mct"], "trials": 2, "seed": 5},
    "alazzoni-B": shrink("alazzoni-B", horizon=500.0, trials=2),
    "alazzoni-C1": shrink("alazzoni-C1", horizon=40.0, warmup=5.0, trials=2),
    "alazzoni-sharifnia": shrink("alazzoni-sharifnia", horizon=60.0, trials=2),
    "alazzoni-C2-mixed": shrink("alazzoni-C2", horizon=5.0, trials=2, service="hyperexponential",
                                heuristics=["lp-static", "lpas-2k", "guided-lpas-2k", "met", {"name": "kpb", "k": 50}]),
}


if __name__ == "__main__":
    for name, data in CASES.items():
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(data, indent=2) + "\n")
        (HERE / f"{name}.csv").write_text(simulate(load_scenario(path), jobs=1).to_csv(index=False))
        print(name)
