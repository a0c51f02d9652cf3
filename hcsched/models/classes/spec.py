"""The scenario keys of the task-class model (Al-Azzoni and Down, section II-A)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.models.classes.lp import check_rates, expand_groups, solve_allocation
from hcsched.validate import MAX_MACHINES, MAX_TASKS, choice, fail, number, seconds

SERVICES = ("exponential", "constant", "hyperexponential")
EXEC_AS = ("rates", "times")
CLASS_KEYS = ("arrival_rates", "exec_rates", "exec_as", "groups", "service", "long_branch", "horizon", "warmup")
LONG_BRANCH_MAX = 2.0 / 3.0  # above it the short phase of a mean-1, variance-2 hyperexponential has mean <= 0


@dataclass(frozen=True)
class ClassSpec:
    """Task classes with Poisson arrival rates alpha_i and execution rates mu_ij (Al-Azzoni and Down, section II-A).

    With ``groups``, the columns of ``exec_rates`` are groups of identical
    machines of those sizes. ``exec_as``: how its numbers are read, as the
    rates mu_ij of section II-A ("rates") or as mean execution times 1/mu_ij
    ("times"; 0 still means the machine cannot run the class): the reading
    of a printed matrix whose units are in doubt (Sharifnia's example,
    section II-B; docs/models/classes.md). ``service``: exponential,
    constant, or hyperexponential (same mean, twice the exponential's
    variance, section III-B.6); ``long_branch``: the hyperexponential's
    probability of its long phase (None: balanced means, 0.211).
    Simulated over [0, horizon]; averages exclude [0, warmup).
    """

    arrival_rates: tuple[float, ...]
    exec_rates: tuple[tuple[float, ...], ...]
    groups: tuple[int, ...] | None = None
    service: str = "exponential"
    horizon: float = 20000.0
    warmup: float = 0.0
    exec_as: str = "rates"
    long_branch: float | None = None

    def __post_init__(self) -> None:
        if len({len(r) for r in self.exec_rates}) > 1:
            raise HcschedError("scenario field 'exec_rates': rows have different lengths; give one rate per machine "
                               "(or group) in every row")
        check_rates(self.arrival_rates, self.exec_rates)
        if self.groups is not None:
            width = len(self.exec_rates[0])
            bad = any(isinstance(g, bool) or not isinstance(g, int) or g < 1 for g in self.groups)
            if len(self.groups) != width or bad or sum(self.groups) > MAX_MACHINES:
                raise fail("groups", list(self.groups), f"{width} positive whole numbers, the machines in each "
                                                        f"column's "
                           f"group, at most {MAX_MACHINES:.0e} machines in all (so that a trial's arrays can be "
                           f"allocated)")
        choice("service", self.service, SERVICES)
        choice("exec_as", self.exec_as, EXEC_AS)
        if self.long_branch is not None:
            if isinstance(self.long_branch, bool) or not isinstance(self.long_branch, (int, float)) or \
                    not 0.0 < self.long_branch < LONG_BRANCH_MAX:
                raise fail("long_branch", self.long_branch, "a probability above 0 and below 2/3 (the short phase's "
                           "mean must stay positive), or leave it out for balanced means")
            if self.service != "hyperexponential":
                raise fail("long_branch", self.long_branch, "only with service 'hyperexponential' (leave it out)")
        seconds("horizon", self.horizon)
        number("warmup", self.warmup, 0.0, low_open=False)
        if self.warmup >= self.horizon:
            raise fail("warmup", self.warmup, f"a time >= 0 and below the horizon ({self.horizon:g})")
        arrivals = sum(self.arrival_rates) * self.horizon
        if arrivals > MAX_TASKS:
            raise fail("horizon", self.horizon, f"a horizon over which the classes' arrivals (now {arrivals:.3g} "
                       f"expected) are at most {MAX_TASKS:.0e}, so that a trial's arrays can be allocated at all")

    @property
    def group_rates(self) -> np.ndarray:
        """Execution rates per column of ``exec_rates`` (a machine, or a group): the numbers themselves, or 1/x of
        the times x read with ``exec_as`` "times" (0 stays 0: cannot run)."""
        x = np.array(self.exec_rates, dtype=float)
        return x if self.exec_as == "rates" else np.where(x > 0, 1.0 / np.where(x > 0, x, 1.0), 0.0)

    @property
    def mu(self):
        """Execution rates per machine (classes x machines)."""
        mu = self.group_rates
        return mu if self.groups is None else expand_groups(mu, self.groups)

    @property
    def machines(self) -> int:
        return sum(self.groups) if self.groups is not None else len(self.exec_rates[0])

    def allocation(self):
        """lambda* and delta* of the allocation LP (per machine)."""
        return _allocation(self)


@functools.lru_cache(maxsize=64)
def _allocation(spec: ClassSpec):
    return solve_allocation(spec.arrival_rates, spec.group_rates, spec.groups)


@dataclass(frozen=True)
class ClassModelSpec:
    """A scenario's part of the task-class model: its ClassSpec, with the size every model reports."""

    classes: ClassSpec

    @property
    def machines(self) -> int:
        return self.classes.machines

    @property
    def tasks(self) -> int:
        """The expected number of arrivals over the horizon (at least one)."""
        return max(1, round(sum(self.classes.arrival_rates) * self.classes.horizon))


def spec_from_dict(data: dict[str, Any], base_dir: Path | None = None) -> ClassModelSpec:
    spec = dict(data)
    for key in ("arrival_rates", "exec_rates"):
        if key not in spec:
            raise HcschedError(f"scenario field {key!r}: missing; model 'classes' needs arrival_rates and exec_rates")
    try:
        spec["arrival_rates"] = tuple(float(x) for x in spec["arrival_rates"])
        spec["exec_rates"] = tuple(tuple(float(x) for x in row) for row in spec["exec_rates"])
        if spec.get("groups") is not None:
            spec["groups"] = tuple(spec["groups"])
    except (TypeError, ValueError):
        raise HcschedError("scenario fields 'arrival_rates' and 'exec_rates': expected a list of numbers and a "
                           "list of rows of numbers") from None
    return ClassModelSpec(ClassSpec(**spec))


def spec_to_dict(spec: ClassModelSpec) -> dict[str, Any]:
    c = spec.classes
    out: dict[str, Any] = {"arrival_rates": list(c.arrival_rates), "exec_rates": [list(r) for r in c.exec_rates]}
    if c.groups is not None:
        out["groups"] = list(c.groups)
    if c.exec_as != "rates":
        out["exec_as"] = c.exec_as
    out["service"] = c.service
    if c.long_branch is not None:
        out["long_branch"] = c.long_branch
    out.update(horizon=c.horizon, warmup=c.warmup)
    return out
