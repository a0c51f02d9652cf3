"""The scenario keys of the estimation model (Page, Keane and Naughton, sections 2 and 4-5).

A star of M processors (each runs one task at a time, possibly non-dedicated),
a network (bandwidth and an exponential latency), and problems: sets of tasks
with integer parameter vectors X, released at once or in stages. The scheduler
learns execution times online with an estimator (section 2). Every class here
is frozen and validated once, in ``__post_init__``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError
from hcsched.models.estimation.traces import TraceTask, read_trace, trace_from_rows, trace_rows
from hcsched.validate import (
    MAX_MACHINES,
    MAX_RATE,
    MAX_TASKS,
    choice,
    count,
    fail,
    keys,
    number,
    numbers,
    rate,
    seconds,
)

MAX_WORK = 1e15  # MFLOP of a task's mean work: at the slowest speed allowed its time stays finite
MAX_PARAMS = 1000  # parameters of a problem's tasks (their vectors X are drawn as one array)
MAX_WINDOW = 10**6  # an estimator's observations kept per processor and problem

METHODS = ("knn", "smoothed", "average")
WEIGHTS = ("normalised", "literal")
ERRORS = ("knn", "smoothed", "mean")  # the predicted error's readings (section 3.1; docs/models/estimation.md)
MAPPINGS = ("return", "release")
EST_KEYS = ("processors", "network", "problems", "estimator", "mapping", "trace")


def _sequence(obj, name: str, where: str, allowed: str) -> tuple:
    """Field ``name`` of the frozen dataclass ``obj`` as a tuple (a file's list), or an error naming it."""
    value = getattr(obj, name)
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise fail(where, value, allowed)
    value = tuple(value)
    object.__setattr__(obj, name, value)
    return value


def _whole_list(obj, name: str, low: int, where: str, allowed: str) -> None:
    """A list of whole numbers >= ``low``, stored as ints (a file's 60.0 becomes 60; 60.5 is refused, naming the
    field), as :func:`hcsched.validate.whole` does for one number."""
    object.__setattr__(obj, name, numbers(where, getattr(obj, name), allowed, low=low, low_open=False, integer=True))


@dataclass(frozen=True)
class Processors:
    """M processors; speed of the fastest in MFLOP/s; ``ratio`` = slowest / fastest, speeds evenly spread between
    (or ``speeds`` given explicitly, with ``names``). Non-dedicated: each processor's owner takes it a fraction
    ``busy`` of the time, in periods of mean ``busy_period`` seconds, leaving availability ``busy_level``."""

    count: int = 8
    speed: float = 1000.0
    ratio: float = 0.9
    speeds: tuple[float, ...] | None = None
    names: tuple[str, ...] | None = None
    busy: float = 0.05
    busy_level: float = 0.5
    busy_period: float = 300.0
    benchmark_noise: float = 0.01  # relative sd of one Linpack report (section 5.2: below 1%)

    def __post_init__(self) -> None:
        count(self, "count", MAX_MACHINES, where="processors.count")
        rate("processors.speed", self.speed, "MFLOP/s")
        number("processors.ratio", self.ratio)
        if self.ratio > 1:
            raise fail("processors.ratio", self.ratio, "a number > 0 and <= 1 (slowest speed / fastest)")
        if self.speeds is not None:
            _sequence(self, "speeds", "processors.speeds", "a list of positive speeds, one per processor")
            if len(self.speeds) != self.count:
                raise fail("processors.speeds", list(self.speeds), f"{self.count} positive speeds, one per processor")
            for s in self.speeds:
                rate("processors.speeds", s, "MFLOP/s")
        if self.names is not None:
            _sequence(self, "names", "processors.names", "a list of processor names")
            object.__setattr__(self, "names", tuple(str(n) for n in self.names))
        if self.names is not None and (len(self.names) != self.count or len(set(self.names)) != self.count):
            raise fail("processors.names", list(self.names), f"{self.count} distinct names")
        number("processors.busy", self.busy, 0.0, low_open=False)
        if self.busy >= 1:
            raise fail("processors.busy", self.busy, "a fraction >= 0 and < 1")
        number("processors.busy_level", self.busy_level)
        if self.busy_level > 1:
            raise fail("processors.busy_level", self.busy_level, "a number > 0 and <= 1")
        number("processors.busy_period", self.busy_period, 1e-3, low_open=False, high=1e12,
               why="seconds; shorter periods would draw more owner periods than a trial can hold")
        number("processors.benchmark_noise", self.benchmark_noise, 0.0, low_open=False, high=10.0,
               why="a relative standard deviation; beyond it the noise's lognormal factors overflow")

    def speed_vector(self) -> tuple[float, ...]:
        """Speeds in MFLOP/s, fastest first, evenly spread down to ratio x speed."""
        if self.speeds is not None:
            return tuple(float(s) for s in self.speeds)
        if self.count == 1:
            return (float(self.speed),)
        step = (1.0 - self.ratio) / (self.count - 1)
        return tuple(self.speed * (1.0 - step * j) for j in range(self.count))

    def labels(self) -> tuple[str, ...]:
        return self.names if self.names is not None else tuple(f"p{j}" for j in range(self.count))


@dataclass(frozen=True)
class Network:
    """A star at ``bandwidth`` Mb/s; each transfer also pays an exponential latency of mean ``latency`` s
    (section 5.1)."""

    bandwidth: float = 100.0
    latency: float = 0.05

    def __post_init__(self) -> None:
        rate("network.bandwidth", self.bandwidth, "Mb/s")
        seconds("network.latency", self.latency, 0.0, low_open=False)


@dataclass(frozen=True)
class Problem:
    """A problem: stages of tasks (one stage: all released at ``release``; stage s+1 is released when stage s is done).

    Task i of stage s has X = (s, x_1..x_q), x_k uniform on 0..params[k]. Its hidden work in MFLOP is
    ``work[s] * prod_k ((x_k + 1) / (params[k] / 2 + 1)) ** exponents[k]`` (the scheduler never sees it). Its true
    time on processor j is work / (speed_j x availability) x a lognormal noise of sd ``noise``, and with probability
    ``outliers`` x ``outlier_factor`` (the heavy outliers of Fig. 3). It moves ``data`` Mb (mean; exponential per
    task) over the network.
    """

    name: str = "problem"
    release: float = 0.0
    stages: tuple[int, ...] = (20,)
    work: tuple[float, ...] = (50000.0,)
    params: tuple[int, ...] = (100,)
    exponents: tuple[float, ...] = (1.0,)
    data: float = 10.0
    noise: float = 0.1
    outliers: float = 0.01
    outlier_factor: float = 10.0

    def __post_init__(self) -> None:
        where = f"problems[{self.name}]"
        seconds(f"{where}.release", self.release, 0.0, low_open=False)
        stages = f"a list of task counts (integers >= 1), one per stage, at most {MAX_TASKS:.0e} in all (so that a " \
            "trial's arrays can be allocated at all)"
        _whole_list(self, "stages", 1, f"{where}.stages", stages)
        if not self.stages or sum(self.stages) > MAX_TASKS:
            raise fail(f"{where}.stages", list(self.stages), stages)
        _sequence(self, "work", f"{where}.work", f"{len(self.stages)} mean works in MFLOP, one per stage")
        params = f"a list of at most {MAX_PARAMS} parameter ranges (integers from 0 to {MAX_TASKS:.0e})"
        _whole_list(self, "params", 0, f"{where}.params", params)
        if len(self.params) > MAX_PARAMS or any(p > MAX_TASKS for p in self.params):
            raise fail(f"{where}.params", list(self.params), params)
        _sequence(self, "exponents", f"{where}.exponents", f"{len(self.params)} numbers, one per parameter")
        if len(self.work) != len(self.stages):
            raise fail(f"{where}.work", list(self.work), f"{len(self.stages)} mean works in MFLOP, one per stage")
        for w in self.work:
            number(f"{where}.work", w, 1.0 / MAX_RATE, low_open=False, high=MAX_WORK,
                   why="MFLOP; outside it a task's time overflows or underflows")
        if len(self.exponents) != len(self.params):
            raise fail(f"{where}.exponents", list(self.exponents), f"{len(self.params)} numbers, one per parameter")
        for e in self.exponents:
            if isinstance(e, bool) or not isinstance(e, (int, float)) or e != e or abs(e) > 20:
                raise fail(f"{where}.exponents", e, "a number between -20 and 20")
        number(f"{where}.data", self.data, 0.0, low_open=False, high=MAX_WORK, why="Mb; beyond it a transfer's time "
               "overflows")
        number(f"{where}.noise", self.noise, 0.0, low_open=False, high=10.0,
               why="the standard deviation of a lognormal; beyond it its factors overflow")
        number(f"{where}.outliers", self.outliers, 0.0, low_open=False)
        if self.outliers > 1:
            raise fail(f"{where}.outliers", self.outliers, "a probability between 0 and 1")
        number(f"{where}.outlier_factor", self.outlier_factor, 1.0, low_open=False, high=1e6,
               why="beyond it an outlier's time overflows sums")

    @property
    def tasks(self) -> int:
        return sum(self.stages)


@dataclass(frozen=True)
class Estimator:
    """Section 2: k-NN over the last ``n`` observations per processor and problem (k the smallest integer with
    k^5 >= |U_j|^4), L-smoothing of a fraction ``L``, ``weights`` normalised (the default reading of eq. 4) or
    literal; the smoothed average with smoothing ``nu`` (eq. 6); or the simple average. ``error``: the predicted
    error the scheduler uses ("knn", "smoothed", "mean"; the readings are explained in docs/models/estimation.md);
    EW is floored at ``eps``."""

    method: str = "knn"
    n: int = 100
    L: float = 0.1
    nu: float = 0.5
    weights: str = "normalised"
    error: str = "knn"
    eps: float = 1e-6

    def __post_init__(self) -> None:
        choice("estimator.method", self.method, METHODS)
        count(self, "n", MAX_WINDOW, where="estimator.n")
        number("estimator.L", self.L, 0.0, low_open=False)
        if self.L >= 0.5:
            raise fail("estimator.L", self.L, "a fraction >= 0 and < 0.5 (eq. 2 drops floor(Lk) at each end)")
        number("estimator.nu", self.nu, 0.0, low_open=False)
        if self.nu > 1:
            raise fail("estimator.nu", self.nu, "a number between 0 and 1")
        choice("estimator.weights", self.weights, WEIGHTS)
        choice("estimator.error", self.error, ERRORS)
        number("estimator.eps", self.eps, high=MAX_RATE, why="beyond it every predicted error is the floor")


@dataclass(frozen=True)
class EstimationSpec:
    """A scenario's part of the estimation model."""

    processors: Processors = field(default_factory=Processors)
    network: Network = field(default_factory=Network)
    problems: tuple[Problem, ...] = (Problem(),)
    estimator: Estimator = field(default_factory=Estimator)
    mapping: str = "return"
    trace: tuple[TraceTask, ...] | None = None  # replaces the generated problems' tasks
    # (tasks CSV, processors CSV) as the user's scenario file named them, for display only: the scenario file written
    # back holds the trace inline (a sweep's points, a results CSV's scenario line read no file)
    trace_files: tuple[str, str] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        choice("mapping", self.mapping, MAPPINGS)
        if not self.problems and self.trace is None:
            raise fail("problems", [], "at least one problem (or a trace)")
        if self.trace is not None and (self.processors.speeds is None or self.processors.names is None):
            raise HcschedError("scenario field 'processors': a trace needs the processors' names and speeds")
        names = [p.name for p in self.problems]
        if len(set(names)) != len(names):
            raise fail("problems", names, "problems with distinct names")
        if self.tasks > MAX_TASKS:
            raise fail("problems", names, f"problems of at most {MAX_TASKS:.0e} tasks in all (now {self.tasks:,}), so "
                       "that a trial's arrays can be allocated at all")

    @property
    def machines(self) -> int:
        return self.processors.count

    @property
    def tasks(self) -> int:
        return len(self.trace) if self.trace is not None else sum(p.tasks for p in self.problems)


def _table(cls, where: str, data: Any):
    data = keys(where, data if data is not None else {}, set(cls.__dataclass_fields__))
    out = {}
    for k, v in data.items():
        out[k] = tuple(v) if isinstance(v, list) else v
    try:
        return cls(**out)
    except TypeError as exc:
        raise HcschedError(f"scenario field {where!r}: {exc}") from None


def spec_from_dict(data: dict[str, Any], base_dir: Path | None = None) -> EstimationSpec:
    """The spec from a scenario's keys. ``trace``: {"tasks": csv, "processors": csv}, read relative to base_dir; or
    {"tasks": [rows]} inline (:func:`.traces.trace_rows`, what the dashboard saves after an upload), with the
    processors' ``names`` and ``speeds`` in ``processors``."""
    trace = None
    files = None
    processors = _table(Processors, "processors", data.get("processors"))
    problems = data.get("problems", [{}])
    if not isinstance(problems, list):
        raise fail("problems", problems, "a list of problem tables")
    problems = tuple(_table(Problem, "problems", p) for p in problems)
    if data.get("trace") is not None:
        t = keys("trace", data["trace"], {"tasks", "processors"})
        if isinstance(t.get("tasks"), list):
            if processors.speeds is None or processors.names is None:
                raise HcschedError("scenario field 'processors': a trace given inline needs the processors' names and "
                                   "speeds")
            trace = trace_from_rows(t["tasks"])
        else:
            if "tasks" not in t or "processors" not in t:
                raise HcschedError("scenario field 'trace': give both 'tasks' and 'processors' CSV paths")
            files = (str(t["tasks"]), str(t["processors"]))
            base = base_dir or Path(".")
            trace, names, speeds = read_trace(base / files[0], base / files[1])
            processors = Processors(**{**processors.__dict__, "count": len(speeds), "speeds": speeds, "names": names})
        problems = ()
    return EstimationSpec(processors, _table(Network, "network", data.get("network")), problems,
                          _table(Estimator, "estimator", data.get("estimator")), data.get("mapping", "return"),
                          trace, files)


def _plain(obj) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in obj.__dict__.items() if v is not None}


def spec_to_dict(spec: EstimationSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"processors": _plain(spec.processors), "network": _plain(spec.network)}
    if spec.trace is not None:
        out["trace"] = {"tasks": trace_rows(spec.trace)}
    else:
        out["problems"] = [_plain(p) for p in spec.problems]
    out["estimator"] = _plain(spec.estimator)
    out["mapping"] = spec.mapping
    return out
