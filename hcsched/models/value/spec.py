"""The scenario keys of the value model (Kim et al. 2007, sections 2 and 6): arrivals with a start-up period and
bursts, the CVB gamma ETC and gamma actual times, priorities with their weights, three soft deadlines, the
evaluation window and the machine-available-time rule.

Every setting of section 6 is a key; the paper's eight scenarios differ only in ``heterogeneity``, ``weighting``
and ``deadlines``. Times are in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from hcsched.errors import HcschedError
from hcsched.validate import (
    MAX_MACHINES,
    MAX_RATE,
    MAX_SECONDS,
    MAX_TASKS,
    choice,
    count,
    cov,
    fail,
    number,
    numbers,
    seconds,
)

MAX_BURSTS = 10**6  # bursts of one trial (their starts are drawn as one array)
MAX_TASK_MEAN = 1e9  # the CVB ETC's mean (s): its gamma draws stay far below the overflow of sums

HETEROGENEITY = {"high": (0.9, 0.9), "low": (0.3, 0.3)}  # (task COV, machine COV), section 6
WEIGHTING = {"heavy": 4.0, "light": 2.0}  # x of the weights x^2, x, 1 (section 2.2.1)
DEADLINES = {"loose": (4.0, 8.0, 12.0), "tight": (1.0, 2.0, 4.0)}  # multipliers of D100, D50, D25 (section 6)
AVAILABLE = ("actual", "expected")
PRIORITIES = ("high", "medium", "low")
TRIAL_MEDIAN = "trial"


@dataclass(frozen=True)
class ValueSpec:
    """One scenario of Kim et al.'s system.

    - Arrivals (section 6): Poisson with mean gap ``startup_gap`` over [0, ``startup``), then ``gap`` up to
      ``duration``, except in ``bursts`` non-overlapping bursts of ``burst_length`` at mean gap ``burst_gap``,
      placed uniformly at random in [``startup``, ``duration``] (a reading: docs/models/value.md).
    - ETC: CVB gamma with mean ``task_mean`` and the task / machine COVs of ``heterogeneity`` (high 0.9/0.9, low
      0.3/0.3) unless ``task_cov`` / ``machine_cov`` are given. Actual times (ATC): gamma with mean ETC and COV
      ``atc_cov`` (section 6 does not state the law; docs/models/value.md).
    - Priorities high / medium / low with probabilities ``priority_shares``; weights x^2, x, 1 with x = 4
      (``weighting`` heavy) or 2 (light), unless ``weights`` (high, medium, low) are given.
    - Deadlines D_k = arrival + the task's median ETC + multiplier_k x ``deadline_constant`` (section 6: 2.4 min,
      read as 144 s; ``"trial"`` = the median over the trial's tasks of their median ETC, the other reading in
      docs/models/value.md), with the
      ``deadlines`` multipliers (loose 4, 8, 12; tight 1, 2, 4) unless ``multipliers`` are given.
    - V is earned over ``window`` = [B, E] (section 2.2.3); no task starts at or after max(E, ``duration``).
    - ``machine_available``: the mappers' mat(j) starts from the running task's actual end (section 6,
      ``actual``) or from max(now, its start + ETC) (``expected``, the ETC model's rule).
    - ``event_timing``: measure each mapping event's wall time (column ``mean_event_ms``). It is never fed into
      the simulated clock, but the measured column differs from run to run, so it is off by default (NaN) to keep
      the CSVs byte-identical.
    """

    machines: int = 8
    duration: float = 15000.0
    startup: float = 600.0
    startup_gap: float = 3.5
    gap: float = 14.0
    bursts: int = 3
    burst_length: float = 600.0
    burst_gap: float = 7.0
    window: tuple[float, float] = (600.0, 15000.0)
    task_mean: float = 180.0
    heterogeneity: str = "high"
    task_cov: float | None = None
    machine_cov: float | None = None
    atc_cov: float = 0.1
    priority_shares: tuple[float, float, float] = (1 / 3, 1 / 3, 1 / 3)
    weighting: str = "heavy"
    weights: tuple[float, float, float] | None = None
    deadlines: str = "loose"
    multipliers: tuple[float, float, float] | None = None
    deadline_constant: float | str = 144.0
    machine_available: str = "actual"
    event_timing: bool = False

    def __post_init__(self) -> None:
        count(self, "machines", MAX_MACHINES)
        for key in ("duration", "startup_gap", "gap", "burst_gap"):
            object.__setattr__(self, key, seconds(key, getattr(self, key), 1.0 / MAX_RATE, low_open=False))
        object.__setattr__(self, "task_mean", number("task_mean", self.task_mean, 1e-6, low_open=False,
                                                     high=MAX_TASK_MEAN, why="seconds; so that the gamma draws "
                                                     "around it stay finite and precise in sums"))
        object.__setattr__(self, "atc_cov", cov("atc_cov", self.atc_cov))
        for key in ("startup", "burst_length"):
            object.__setattr__(self, key, seconds(key, getattr(self, key), 0.0, low_open=False))
        count(self, "bursts", MAX_BURSTS, low=0)
        if self.startup > self.duration:
            raise fail("startup", self.startup, f"a time from 0 to the duration ({self.duration:g} s)")
        if self.bursts * self.burst_length > self.duration - self.startup:
            raise fail("bursts", self.bursts, f"bursts x burst_length ({self.burst_length:g} s) at most the time after "
                       f"the start-up ({self.duration - self.startup:g} s), so that they do not overlap")
        if self.expected_tasks > MAX_TASKS:
            raise fail("gap", self.gap, f"gaps that give at most {MAX_TASKS:.0e} tasks over the duration (now "
                       f"{self.expected_tasks:.3g} expected), so that a trial's arrays can be allocated at all")
        self._window()
        choice("heterogeneity", self.heterogeneity, tuple(HETEROGENEITY))
        for key in ("task_cov", "machine_cov"):
            if getattr(self, key) is not None:
                object.__setattr__(self, key, cov(key, getattr(self, key)))
        shares = numbers("priority_shares", self.priority_shares, "three numbers >= 0 (high, medium, low) with a "
                         "positive sum", 3, 0.0, low_open=False)
        if sum(shares) <= 0:
            raise fail("priority_shares", list(shares), "three numbers >= 0 (high, medium, low) with a positive sum")
        object.__setattr__(self, "priority_shares", shares)
        choice("weighting", self.weighting, tuple(WEIGHTING))
        if self.weights is not None:
            allowed = f"three numbers above 0 and at most {MAX_RATE:g} (high, medium, low)"
            weights = numbers("weights", self.weights, allowed, 3)
            if max(weights) > MAX_RATE:
                raise fail("weights", list(weights), allowed)
            object.__setattr__(self, "weights", weights)
        choice("deadlines", self.deadlines, tuple(DEADLINES))
        if self.multipliers is not None:
            allowed = "three numbers >= 0 in increasing order, at most 1e6 (100%, 50%, 25% deadlines)"
            mult = numbers("multipliers", self.multipliers, allowed, 3, 0.0, low_open=False)
            if not mult[0] < mult[1] < mult[2] or mult[2] > 1e6:
                raise fail("multipliers", list(mult), allowed)
            object.__setattr__(self, "multipliers", mult)
        if self.deadline_constant != TRIAL_MEDIAN:
            if isinstance(self.deadline_constant, str):
                raise fail("deadline_constant", self.deadline_constant, f"a number >= 0 (s) or {TRIAL_MEDIAN!r}")
            seconds("deadline_constant", self.deadline_constant, 0.0, low_open=False)
            object.__setattr__(self, "deadline_constant", float(self.deadline_constant))
        choice("machine_available", self.machine_available, AVAILABLE)
        if not isinstance(self.event_timing, bool):
            raise fail("event_timing", self.event_timing, "true or false")

    def _window(self) -> None:
        allowed = f"[B, E] with 0 <= B < E <= {MAX_SECONDS:g} (s)"
        w = self.window
        if not isinstance(w, (list, tuple)) or len(w) != 2:
            raise fail("window", w, allowed)
        try:
            b, e = (number("window", x, 0.0, low_open=False, high=MAX_SECONDS) for x in w)
        except HcschedError:
            raise fail("window", list(w), allowed) from None
        if b >= e:
            raise fail("window", [b, e], allowed)
        object.__setattr__(self, "window", (b, e))

    # --- resolved settings ------------------------------------------------------------------------------------
    @property
    def covs(self) -> tuple[float, float]:
        """(task COV, machine COV) of the ETC."""
        task, machine = HETEROGENEITY[self.heterogeneity]
        return (task if self.task_cov is None else self.task_cov,
                machine if self.machine_cov is None else self.machine_cov)

    @property
    def weight_values(self) -> tuple[float, float, float]:
        """The weighted priorities p of high, medium and low tasks (section 2.2.1)."""
        if self.weights is not None:
            return self.weights
        x = WEIGHTING[self.weighting]
        return (x * x, x, 1.0)

    @property
    def multiplier_values(self) -> tuple[float, float, float]:
        return DEADLINES[self.deadlines] if self.multipliers is None else self.multipliers

    @property
    def stop(self) -> float:
        """No task starts at or after this time: the end of arrivals or of the window, whichever is later."""
        return max(self.duration, self.window[1])

    @property
    def expected_tasks(self) -> float:
        """The mean number of arrivals of a trial from the stated rates (1328.6 for the paper's settings)."""
        bursts = self.bursts * self.burst_length
        rest = self.duration - self.startup - bursts
        return self.startup / self.startup_gap + rest / self.gap + bursts / self.burst_gap


KEYS = tuple(f.name for f in fields(ValueSpec))
_TUPLES = ("window", "priority_shares", "weights", "multipliers")


def spec_from_dict(data: dict[str, Any]) -> ValueSpec:
    d = dict(data)
    for key in _TUPLES:
        if isinstance(d.get(key), list):
            d[key] = tuple(d[key])
    return ValueSpec(**d)


def spec_to_dict(s: ValueSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in KEYS:
        value = getattr(s, key)
        if value is None:
            continue
        out[key] = list(value) if isinstance(value, tuple) else value
    return out
