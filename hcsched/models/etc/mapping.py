"""One mapping of tasks that all arrive at time 0: the setting of the paper's worked examples."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, register_heuristic
from hcsched.models.etc import bounds
from hcsched.readers import check_etc
from hcsched.scenario import HeuristicSpec
from hcsched.validate import MAX_SECONDS


@dataclass(frozen=True)
class MappingResult:
    """Machine per task, expected completion per task, and the machines' ready times after mapping."""

    heuristic: str
    assignment: np.ndarray
    completion: np.ndarray
    ready: np.ndarray
    trace: list | None = field(default=None, compare=False, repr=False)  # TraceSteps, with trace=True

    @property
    def makespan(self) -> float:
        """The largest machine ready time after mapping."""
        return float(self.ready.max())

    def to_dict(self) -> dict:
        return {"heuristic": self.heuristic, "makespan": self.makespan,
                "assignment": self.assignment.tolist(), "completion": self.completion.tolist()}


def check_ready(ready, machines: int) -> np.ndarray:
    """Initial ready times: one number per machine from 0 to MAX_SECONDS (zeros when None)."""
    if ready is None:
        return np.zeros(machines)
    allowed = f"one ready time per machine ({machines}), each a number from 0 to {MAX_SECONDS:g} s"
    try:
        r = np.asarray(ready, dtype=float).ravel()
    except (TypeError, ValueError):
        raise HcschedError(f"ready: {_short(ready)} is not allowed; allowed: {allowed}") from None
    if r.size != machines:
        raise HcschedError(f"ready: {r.size} values given, the ETC matrix has {machines} machines; give one ready time "
                           "per machine")
    if not np.all(np.isfinite(r)) or (r < 0).any() or (r > MAX_SECONDS).any():
        raise HcschedError(f"ready: {_short(r.tolist())} is not allowed; allowed: {allowed} (larger times make sums "
                           "overflow)")
    return r


def _short(value, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters (a long list stays one short line)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def map_tasks(etc, heuristic: str | Heuristic, ready=None, trace: bool = False, **params) -> MappingResult:
    """Map the tasks of ``etc`` (rows) onto its machines (columns), all arriving at time 0 in row order.

    Immediate heuristics see the tasks one at a time; batch heuristics map
    them as one meta-task. ``ready`` gives the machines' initial ready times.
    ``heuristic`` is a name or a heuristic object (a plug-in, :func:`hcsched.heuristic`, is registered first).
    With ``trace=True`` the result carries each decision with the values it
    compared (:mod:`hcsched.explain`): the heuristic's own decisions (its object's trace).
    """
    etc = check_etc(etc)
    ready = check_ready(ready, etc.shape[1])
    if isinstance(heuristic, Heuristic):
        if heuristic.plugin:
            register_heuristic(heuristic)
        heuristic = heuristic.name
    spec = HeuristicSpec.make(heuristic, model="etc", **params)
    h = spec.heuristic
    machine, completion, final = h.map_static(spec, etc, ready)
    steps = h.explain(spec, etc, ready) if trace else None
    return MappingResult(h.name, machine, completion, final, steps)


def lower_bound(etc, ready=None, arrival=None) -> float:
    """A makespan no mapping of the tasks of ``etc`` (rows) onto its machines (columns) can beat: the LP relaxation
    of the mapping with the machines' ``ready`` times (:func:`.bounds.lp_bound`), or, with ``arrival`` times (machines
    free at 0), the bound with release dates (:func:`.bounds.release_bound`). A mapping's makespan over it is at least
    1; at most that far from the optimum."""
    etc = check_etc(etc)
    if arrival is None:
        return bounds.lp_bound(etc, check_ready(ready, etc.shape[1]))
    if ready is not None:
        raise HcschedError("ready: not allowed with arrival times; the bound with arrivals has every machine free at 0")
    allowed = f"one arrival time per task ({etc.shape[0]}), each a number from 0 to {MAX_SECONDS:g} s"
    try:
        a = np.asarray(arrival, dtype=float).ravel()
    except (TypeError, ValueError):
        raise HcschedError(f"arrival: {_short(arrival)} is not allowed; allowed: {allowed}") from None
    if a.size != etc.shape[0]:
        raise HcschedError(f"arrival: {a.size} values given for {etc.shape[0]} tasks; allowed: {allowed}")
    if not np.all(np.isfinite(a)) or (a < 0).any() or (a > MAX_SECONDS).any():
        raise HcschedError(f"arrival: {_short(a.tolist())} is not allowed; allowed: {allowed}")
    order = np.argsort(a, kind="stable")
    return bounds.release_bound(a[order], etc[order])
