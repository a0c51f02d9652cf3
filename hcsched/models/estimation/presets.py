"""Analogues of the paper's two clusters (section 5, Table 1), as scenarios of 30 trials.

What they hold and why: docs/models/estimation.md, "Presets".

The paper's problems (Table 2) and clusters (Table 1) are missing from the
text; these are simulated stand-ins of the same shape: two staged problems
(El-Gamal- and DSEARCH-like) and one single-stage problem (Monte Carlo light
transport-like), true times a hidden function of X with lognormal noise and
heavy outliers, data sizes that give a multi-modal CCR, 100 Mb/s with an
exponential latency, processors idle most of the time (section 5.2).
"""

from __future__ import annotations

from collections.abc import Callable

from hcsched.scenario import Scenario

PROBLEMS = [
    {"name": "elgamal", "release": 0.0, "stages": [60, 60, 60], "work": [60000, 120000, 40000], "params": [20, 10],
     "exponents": [1.0, 0.5], "data": 5.0, "noise": 0.1, "outliers": 0.01, "outlier_factor": 10.0},
    {"name": "dsearch", "release": 300.0, "stages": [90, 60], "work": [80000, 30000], "params": [30],
     "exponents": [1.5], "data": 40.0, "noise": 0.1, "outliers": 0.01, "outlier_factor": 10.0},
    {"name": "montecarlo", "release": 600.0, "stages": [120], "work": [100000], "params": [10, 10],
     "exponents": [1.0, -0.5], "data": 2.0, "noise": 0.1, "outliers": 0.01, "outlier_factor": 10.0},
]
# The paper's density (docs/models/estimation.md, "Presets"): its figures imply 143-160 k processor-seconds
# of work on system A (FZ: 0.66 x 90 x 2408 s; FA: 0.51 x 90 x 1.45 x 2408 s), today's analogue has about 43 k. Three
# times each stage's tasks at 1.2 x the work give about 147 k, and outliers x3 (up to about 1000 s on system A, Fig. 3's
# "up to over 1000 seconds") instead of x10, so that no single outlier at the end of a stage chain sets the makespan.
DENSE_PROBLEMS = [{**p, "stages": [3 * s for s in p["stages"]], "work": [1.2 * w for w in p["work"]],
                   "outlier_factor": 3.0} for p in PROBLEMS]
#: The two groups of heuristics of system A in a sentence (section 5.4, Table 4), for a manager: no list of codes
#: (the Home page lists each heuristic with its words right below the description).
PAPERS_AGAINST_BASELINES = ("The paper's heuristics, which map tasks by these estimates and weigh their errors, are "
                            "compared with five common schedulers as baselines: round robin, lightest loaded, "
                            "earliest first, tabu search and simulated annealing.")
ESTIMATOR = {"method": "knn", "n": 100, "L": 0.1, "nu": 0.5, "weights": "normalised", "error": "knn"}
NETWORK = {"bandwidth": 100.0, "latency": 0.05}


def system_a() -> Scenario:
    return Scenario.from_dict({
        "name": "page-system-a", "model": "estimation",
        "description": "Three jobs of many tasks on 90 processors of nearly equal speed (within 10%), where a "
                       "task's run time is only estimated from past runs. " + PAPERS_AGAINST_BASELINES +
                       " Page et al., System A of section 5 (analogue).",
        "processors": {"count": 90, "speed": 1000.0, "ratio": 0.9, "busy": 0.05, "busy_level": 0.5},
        "network": NETWORK, "problems": PROBLEMS, "estimator": ESTIMATOR, "mapping": "return",
        "heuristics": ["fa", "fe", "fz", {"name": "fz", "beta": 0.1}, "la", "le", "lz", "rr", "ll", "ef", "tabu",
                       "anneal"],
        "benchmark": "fa", "trials": 30, "seed": 2008})


def system_b() -> Scenario:
    return Scenario.from_dict({
        "name": "page-system-b", "model": "estimation",
        "description": "74 processors, the slowest at about 0.15 of the fastest's speed, where a task's run time is "
                       "only estimated from past runs. The paper's heuristics that map the least or the most "
                       "error-prone tasks first are compared with the one that ignores the error. They weigh the "
                       "error in full, by half or by a tenth (β = 1, 0.5, 0.1); one plans on each estimate plus its "
                       "predicted error. Page et al., System B of section 5.5 (analogue); the dynamic least-error-"
                       "first heuristic, pathological as printed and slow to simulate, is left for the user to add.",
        "processors": {"count": 74, "speed": 1000.0, "ratio": 0.15, "busy": 0.05, "busy_level": 0.5},
        "network": NETWORK, "problems": PROBLEMS, "estimator": ESTIMATOR, "mapping": "return",
        "heuristics": ["fa", "fe", {"name": "fe", "beta": 0.1}, "fz", {"name": "fz", "beta": 0.5},
                       {"name": "fz", "beta": 0.1}, {"name": "fz", "beta": 0.1, "case": "worst"}, "fz-d"],
        "benchmark": "fa", "trials": 30, "seed": 2008})


# The heuristics of the dense presets: the makespan-based ones the paper's numbers are about (the load-based LA, LE,
# LZ and the local searches cost most of a run at this density and are left for the user to add).
DENSE_A = ["fa", "fe", "fz", {"name": "fz", "beta": 0.1}]
DENSE_B = ["fa", "fe", "fz", {"name": "fz", "beta": 0.5}, {"name": "fz", "beta": 0.1},
           {"name": "fz", "beta": 0.1, "case": "worst"}]
DENSE_NOTE = ("At the paper's density: three times the tasks, each with 1.2 times the work, and outliers three times "
              "as long; about 147,000 processor-seconds of work on system A, where the paper's makespans and "
              "efficiencies imply 143,000-160,000 (docs/models/estimation.md, 'Presets'). ")


def dense(base: Callable[[], Scenario], heuristics: list, what: str) -> Scenario:
    """``base`` with :data:`DENSE_PROBLEMS` and ``heuristics``."""
    sc = base()
    return Scenario.from_dict({**sc.to_dict(), "name": sc.name + "-dense", "description": DENSE_NOTE + what,
                               "problems": DENSE_PROBLEMS, "heuristics": heuristics})


def system_a_dense() -> Scenario:
    return dense(system_a, DENSE_A, "System A (analogue, 90 processors within 10%): the paper's heuristic that "
                                    "ignores the estimation error against those that map the least or the most "
                                    "error-prone tasks first. The latter also runs with the error at a tenth of "
                                    "its weight (β = 0.1).")


def system_b_dense() -> Scenario:
    return dense(system_b, DENSE_B, "System B (analogue, 74 processors, the slowest 0.15 of the fastest), as in "
                                    "section 5.5: the heuristic that ignores the estimation error against those that "
                                    "map the least or the most error-prone tasks first. The latter weighs the error "
                                    "in full, by half or by a tenth (β = 1, 0.5, 0.1), once planned on each estimate "
                                    "plus its predicted error.")


PRESETS: dict[str, Callable[[], Scenario]] = {
    "page-system-a": system_a, "page-system-b": system_b,
    "page-system-a-dense": system_a_dense, "page-system-b-dense": system_b_dense}
