"""The systems of Al-Azzoni and Down, Table 1 and Table 6, as scenarios (30 replications of 20,000 time units)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from hcsched.models.classes.lp import solve_allocation
from hcsched.scenario import Scenario
from hcsched.sweep_spec import SweepPreset

PRESETS: dict[str, Callable[[], Scenario]] = {}
H_MU = [[5, 5.02, 4.95, 0.001, 4.7, 5.2, 5.25], [0.001, 5.09, 4.9, 4.92, 5, 5.13, 5.14],
        [4.45, 5, 0.001, 4.45, 4.9, 5, 5.1], [5.02, 4.95, 5, 5.02, 5.25, 4.75, 0.001]]
F_MU = [[2, 2.5, 2.25, 2, 2.2, 1.75, 2.25], [4.5, 4, 4.2, 4, 3.8, 3.9, 3.95], [6, 6.2, 6.25, 6, 5.75, 5.9, 6.05],
        [10, 10.25, 10.5, 9.5, 10.25, 10.25, 10]]
C1 = {"arrival_rates": [45, 45, 40], "exec_rates": [[8, 4, 4, 4], [1, 4, 1, 2], [4, 2, 8, 4]], "groups": [10, 9, 6, 5]}
SHARIFNIA_ALPHA, SHARIFNIA_MU = [10, 10, 25, 40], [[0.065, 0], [0.06, 0.06], [0, 0.02], [0.06, 0.005]]
SHARIFNIA_LAMBDA = 1.05  # the execution rates are scaled so that lambda* is this (see sharifnia_scale)

SYSTEMS = {  # name: (section, rates, KPB kbar values of Table 1, description)
    "A": ("III-A", {"arrival_rates": [2.45, 2.45], "exec_rates": [[9, 5], [2, 1]]}, [1], "2 machines, 2 classes, "
                                                                                         "highly loaded"),
    "B": ("III-B.2", {"arrival_rates": [5, 8], "exec_rates": [[8, 3], [4, 10]]}, [1], "2 machines, 2 classes"),
    "C1": ("III-B.3", C1, [14], "30 machines in 4 groups, 3 classes"),
    "D": ("III-B.4", {"arrival_rates": [12.5, 12, 12.5, 12], "exec_rates": [
        [4.5, 2, 9.5, 6.2, 10.25, 2.25, 3.95], [6.2, 4.5, 6, 2, 4.2, 5.9, 10.25], [9.5, 6.5, 4, 10, 5.9, 2.25, 3.95],
        [2.25, 10, 2, 3.95, 1.75, 10, 1.75]]}, [2, 3], "HiHi, 7 machines, 4 classes"),
    "E": ("III-B.4", {"arrival_rates": [10, 10, 8, 8], "exec_rates": [
        [2.2, 7, 10.25, 1, 5.7, 0.5, 12], [1.95, 7.05, 9.78, 0.95, 5.65, 0.56, 11.85],
        [2, 7.25, 10.02, 0.98, 5.75, 0.67, 11.8], [2.05, 6.75, 9.99, 1.02, 5.82, 0.49, 12.05]]}, [5], "LoHi"),
    "F1": ("III-B.4", {"arrival_rates": [4, 8, 10, 10], "exec_rates": F_MU}, [4], "HiLo"),
    "F2": ("III-B.4", {"arrival_rates": [7, 7, 7, 7], "exec_rates": F_MU}, [4], "HiLo, other arrival rates"),
    "G": ("III-B.4", {"arrival_rates": [8, 9, 7, 10], "exec_rates": [
        [5, 5.05, 4.95, 4.98, 4.7, 5.2, 5.25], [5.25, 5.09, 4.9, 4.92, 5, 5.13, 5.14], [4.45, 5, 4.9, 4.45, 4.9, 5,
                                                                                        5.1],
        [5.02, 4.95, 5, 5.02, 5.25, 4.75, 5]]}, [4], "LoLo"),
    "H": ("II-B, III-B.5", {"arrival_rates": [8.5, 8.5, 9.6, 8.5], "exec_rates": H_MU}, [5],
          "machines very poor at some classes: MCT's lack of foresight"),
    "I1": ("III-B.6", {**C1, "service": "hyperexponential"}, [14], "System C1 with hyperexponential execution times"),
    "I2": ("III-B.6", {**C1, "service": "constant"}, [14], "System C1 with constant execution times"),
}
C2 = {"arrival_rates": [204.10, 68.87, 77.63, 5.01, 10.43],
      "exec_rates": [[16.7, 24.8, 24.2, 29, 25.6, 48.3], [30.4, 48.3, 77.7, 83.6, 135.9, 144.9],
                     [18.9, 24.2, 48.3, 45.8, 72.5, 72.5], [3, 3, 7.6, 7.6, 8.3, 8.7], [1, 1.1, 3, 2.9, 3, 3]],
      "groups": [2, 6, 7, 7, 4, 4]}

# Published 95% intervals of the long-run mean number in system (Table 1, Table 6); None: unstable.
PUBLISHED = {
    "A": {"mct": (85.68, 110.23), "kpb (kbar=1)": None, "lpas": (62.56, 82.01)},
    "B": {"mct": (20.05, 21.10), "kpb (kbar=1)": (5.65, 5.73), "lpas": (5.21, 5.26)},
    "C1": {"mct": (53.99, 54.98), "kpb (kbar=14)": (75.26, 79.13), "lpas": (47.39, 47.72)},
    "D": {"mct": (22.68, 23.21), "kpb (kbar=2)": (14.75, 14.89), "kpb (kbar=3)": (11.00, 11.04), "lpas": (10.55,
                                                                                                          10.59)},
    "E": {"mct": (27.71, 28.20), "kpb (kbar=5)": (51.65, 55.60), "lpas": (36.54, 37.07)},
    "F1": {"mct": (19.09, 19.44), "kpb (kbar=4)": (20.77, 21.07), "lpas": (28.71, 29.05)},
    "F2": {"mct": (46.36, 49.49), "kpb (kbar=4)": (73.44, 81.75), "lpas": (34.27, 34.89)},
    "G": {"mct": (37.91, 40.43), "kpb (kbar=4)": (42.21, 43.54), "lpas": (42.05, 43.09)},
    "H": {"mct": (3648.48, 4086.54), "kpb (kbar=5)": (888.62, 1319.97), "lpas": (131.08, 150.15)},
    "I1": {"mct": (64.20, 66.32), "kpb (kbar=14)": (86.65, 94.15)},  # LPAS printed as "(50.83, 38)": garbled
    "I2": {"mct": (41.56, 41.82), "kpb (kbar=14)": (53.69, 55.19), "lpas": (40.57, 40.69)},
    "C2": {"lp-static": (24.25, 24.29), "mct": (11.45, 11.46), "lpas": (11.32, 11.33), "lpas-2k": (14.01, 14.02)},
}


def _classes(name: str, description: str, rates: dict, heuristics) -> Scenario:
    data = {"name": name, "description": description, "model": "classes", "service": "exponential", "horizon": 20000.0,
            **rates, "heuristics": list(heuristics), "trials": 30, "seed": 2009}
    return Scenario.from_dict(data)


def sharifnia_scale() -> float:
    """The factor on the printed execution rates that makes lambda* = SHARIFNIA_LAMBDA.

    As printed (section II-B), alpha = [10 10 25 40] with that mu gives
    lambda* of about 0.0008: an overloaded system, although the text calls it
    stabilisable, so the units are garbled. lambda* scales with mu; scaling mu
    up rather than alpha down keeps 85 arrivals per time unit, so 20,000 time
    units hold enough tasks to show a drift.
    """
    return SHARIFNIA_LAMBDA / solve_allocation(SHARIFNIA_ALPHA, SHARIFNIA_MU).lam


for _name, (_section, _rates, _kbars, _text) in SYSTEMS.items():
    PRESETS[f"alazzoni-{_name}"] = functools.partial(
        _classes, f"alazzoni-{_name}", f"Al-Azzoni and Down, System {_name} (section {_section}): {_text}. "
        "Table 1: MCT, KPB, LPAS; 30 trials (the paper's replications) of 20,000 time units.", _rates,
        ["mct", *({"name": "kpb", "kbar": k} for k in _kbars), "lpas"])
PRESETS["alazzoni-C2"] = functools.partial(
    _classes, "alazzoni-C2", "Al-Azzoni and Down, System C2 (section IV-B), a real cluster: 30 machines in 6 groups, "
    "5 classes. Table 6: LP-Static, MCT, LPAS, LPAS-2/k.", C2, ["lp-static", "mct", "lpas", "lpas-2k"])


def _sharifnia() -> Scenario:
    scale = sharifnia_scale()
    mu = [[round(x * scale, 6) for x in row] for row in SHARIFNIA_MU]
    return _classes("alazzoni-sharifnia", f"Sharifnia's MCT-instability example (section II-B) with the printed "
                                          f"execution "
                    f"rates scaled by {scale:.6g} so that lambda* = {SHARIFNIA_LAMBDA}: does MCT fail to stabilise it "
                    "while LPAS does?", {"arrival_rates": SHARIFNIA_ALPHA, "exec_rates": mu}, ["mct", "lpas",
                                                                                               "guided-lpas"])


def _sharifnia_times() -> Scenario:
    return _classes("alazzoni-sharifnia-times", "Sharifnia's MCT-instability example (section II-B) with the printed "
                    "matrix read as mean execution times (rates 1/x, 0: cannot run), as Sharifnia states it: lambda* = "
                    "1.0256 with no scaling. Does MCT fail to stabilise it while LPAS does?",
                    {"arrival_rates": SHARIFNIA_ALPHA, "exec_rates": SHARIFNIA_MU, "exec_as": "times"},
                    ["mct", "lpas", "guided-lpas"])


PRESETS["alazzoni-sharifnia"] = _sharifnia
PRESETS["alazzoni-sharifnia-times"] = _sharifnia_times


LOADS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)  # of lambda*: the arrival rates alpha * load * lambda*


def sweeps() -> dict:
    """MCT, KPB and LPAS as the load of System B grows towards lambda* (section III-B.2), as a sweep."""
    rates = SYSTEMS["B"][1]
    lam = solve_allocation(rates["arrival_rates"], rates["exec_rates"]).lam
    loads = [[round(a * load * lam, 10) for a in rates["arrival_rates"]] for load in LOADS]
    return {"alazzoni-B-load": SweepPreset(
        "alazzoni-B-load", f"System B as its load grows towards lambda* ({', '.join(f'{x:g}' for x in LOADS)} of "
        f"lambda* = {lam:.4g}): MCT, KPB (kbar = 1), LPAS; 30 trials (the paper's replications) of 20,000 time "
        "units a point.",
        PRESETS["alazzoni-B"], {"arrival_rates": loads},
        "LPAS keeps the mean number in system lowest as the load grows; MCT's lack of foresight costs more near "
        "lambda*.")}
