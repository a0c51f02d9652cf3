"""The ETC model's heuristics (Maheswaran et al. 1999): the immediate-mode rules of section 3.2 and the batch-mode
rules of section 3.3, as registry entries, and LP rounding + local search (:mod:`.search`) as a batch heuristic;
their rules are the numba kernels of :mod:`.immediate` and :mod:`.batch`, selected by ``kind``. Each entry packs its own parameters for its kernel (``pack``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hcsched.heuristics import Heuristic, Param, whole_number
from hcsched.models.etc import batch, engine, immediate, search

MODEL = "etc"
MAHESWARAN = "Maheswaran et al. 1999"


def no_params(p: dict) -> np.ndarray:
    """The kernel's parameter array of a rule without numeric parameters (MCT, MET, OLB)."""
    return np.zeros(1)


def sa_params(p: dict) -> np.ndarray:
    """SA's kernel reads (low, high)."""
    return np.array([p["low"], p["high"]])


def kpb_params(p: dict) -> np.ndarray:
    """KPB's kernel reads k percent, or -kbar machines when kbar is given (k = 100 kbar / m)."""
    return np.array([p["k"]]) if p["kbar"] is None else np.array([-p["kbar"]])


def batch_plan(p: dict) -> engine.BatchPlan:
    """When a batch heuristic maps: the strategy, interval, kappa and aging sigma (0 without aging); LP rounding +
    local search's iterations and seed (0 for the others)."""
    strategy = engine.COUNT if p["strategy"] == "count" else engine.INTERVAL
    return engine.BatchPlan(strategy, float(p["interval"]), int(p["kappa"]), float(p["aging"] or 0.0),
                            int(p.get("iterations", 0)), int(p.get("seed", 0)))


@dataclass(frozen=True)
class EtcHeuristic(Heuristic):
    """A heuristic of the ETC model; ``pack`` turns its resolved parameters into what its kernel reads (an array of
    numbers for an immediate rule, a :class:`~.engine.BatchPlan` for a batch one)."""

    pack: Callable[[dict], Any] = field(default=no_params, repr=False)


def _sa_thresholds(v: dict) -> str | None:
    return None if v["low"] < v["high"] else f"low ({v['low']:g}) must be smaller than high ({v['high']:g})"


BATCH_PARAMS = (
    Param("strategy", "interval", "choice", choices=("interval", "count"), doc="when mapping events happen (section 3.3)"),
    Param("interval", 10.0, float, low=0.0, low_open=True, doc="seconds between mapping events (interval strategy)"),
    Param("kappa", 40, int, low=1, doc="meta-task size that triggers a mapping event (count strategy)"),
    Param("aging", None, float, low=0.0, low_open=True, optional=True, doc="sigma of the aging factor 1 + age/sigma; off by default"),
)
KPB_PARAMS = (Param("k", 20.0, float, 0.0, 100.0, low_open=True, doc="percent of the machines in the subset"),
              Param("kbar", None, float, 1.0, optional=True, doc="number of machines in the subset; overrides k"))


def _etc(name, title, mode, kind, section, description, params=(), checks=(), pack=no_params) -> EtcHeuristic:
    return EtcHeuristic(name, title, mode, kind, section, description, params, models=(MODEL,), paper=MAHESWARAN,
                        checks=checks, pack=pack)


HEURISTICS: tuple[Heuristic, ...] = (
    _etc("mct", "Minimum completion time", "immediate", immediate.MCT, "3.2",
         "Assigns each arriving task to the machine on which it completes earliest, given the machines' expected ready times. The paper's benchmark for immediate mode."),
    _etc("met", "Minimum execution time", "immediate", immediate.MET, "3.2",
         "Assigns each arriving task to the machine that executes it fastest, ignoring ready times; can load a few machines heavily."),
    _etc("olb", "Opportunistic load balancing", "immediate", immediate.OLB, "3.2",
         "Assigns each arriving task to the machine that becomes ready next, ignoring execution times."),
    _etc("sa", "Switching algorithm", "immediate", immediate.SA, "3.2",
         "Uses MCT until the load balance index r_min/r_max reaches the high threshold, then MET until it falls to the low threshold, and so on.",
         (Param("low", 0.6, float, 0.0, 1.0, doc="switch back to MCT when the load balance index falls to this"),
          Param("high", 0.9, float, 0.0, 1.0, doc="switch to MET when the load balance index reaches this")),
         checks=(_sa_thresholds,), pack=sa_params),
    _etc("kpb", "K-percent best", "immediate", immediate.KPB, "3.2",
         "Considers only the floor(m k/100) machines (at least one) that execute the task fastest, or kbar machines if kbar is given, and picks the earliest completion among them. k = 100 is MCT; k = 100/m is MET.",
         KPB_PARAMS, checks=(whole_number("kbar", "machines"),), pack=kpb_params),
    _etc("min-min", "Min-min", "batch", batch.MIN_MIN, "3.3",
         "At each mapping event, repeatedly assigns the task with the smallest earliest completion time to that machine. The paper's benchmark for batch mode.",
         BATCH_PARAMS, pack=batch_plan),
    _etc("max-min", "Max-min", "batch", batch.MAX_MIN, "3.3",
         "Like Min-min, but repeatedly assigns the task whose earliest completion time is largest.", BATCH_PARAMS,
         pack=batch_plan),
    _etc("sufferage", "Sufferage", "batch", batch.SUFFERAGE, "3.3, Fig. 2",
         "Gives each contended machine to the task that would suffer most (second earliest minus earliest completion time) if denied it; displaced tasks wait for the next pass.",
         BATCH_PARAMS, pack=batch_plan),
    EtcHeuristic("lp-search", "LP rounding + local search", "batch", batch.LP_SEARCH,
                 "Potts 1985; Fanjul-Peyro and Ruiz 2010",
                 "At each mapping event, rounds the LP relaxation's vertex solution (at most m - 1 tasks split; Potts "
                 "1985) or takes Min-min's mapping, whichever is better after a local search out of the makespan "
                 "machine, then improves it by iterated greedy destruction and reconstruction (Fanjul-Peyro and Ruiz "
                 "2010). Near-optimal for the makespan of each meta-task; each machine runs its tasks in arrival order.",
                 (Param("iterations", search.DEFAULT_ITERATIONS, int, low=0,
                        doc="iterations of iterated greedy per mapping event (about 1 s for 512 tasks x 16 machines)"),
                  Param("seed", 0, int, low=0, doc="seed of the search's random draws"), *BATCH_PARAMS),
                 models=(MODEL,), paper="Potts 1985; Fanjul-Peyro and Ruiz 2010", pack=batch_plan),
)
