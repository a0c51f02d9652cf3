"""The scenario keys of the ETC model (Maheswaran et al. 1999, sections 3.1 and 4): machines, tasks, ETC, arrivals,
actual times."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError
from hcsched.models.etc.workload import CONSISTENCIES, HETEROGENEITY, SEMICONSISTENT_MODES
from hcsched.readers import check_etc, read_etc
from hcsched.validate import MAX_MACHINES, MAX_TASKS, choice, count, cov, fail, keys, number, rate

MAX_HETEROGENEITY = 1e6  # a range-based ETC's Gamma_t or Gamma_m: entries, up to their product, stay within 1e12 s
MAX_TASK_MEAN = 1e9  # a CVB ETC's mean (s): its gamma draws stay far below the overflow of sums


@dataclass(frozen=True)
class EtcSpec:
    """How each trial's ETC matrix is made (section 4), or a fixed matrix of the user's."""

    method: str = "range"  # range | cov | matrix
    task_het: float = 3000.0
    machine_het: float = 100.0
    task_mean: float = 180.0
    task_cov: float = 0.9
    machine_cov: float = 0.9
    consistency: str = "inconsistent"
    semiconsistent_mode: str = "sort"
    matrix: tuple[tuple[float, ...], ...] | None = None

    def __post_init__(self) -> None:
        choice("etc.method", self.method, ("range", "cov", "matrix"))
        choice("etc.consistency", self.consistency, CONSISTENCIES)
        choice("etc.semiconsistent_mode", self.semiconsistent_mode, SEMICONSISTENT_MODES)
        for name in ("task_het", "machine_het"):
            number(f"etc.{name}", getattr(self, name), 1.0, low_open=False, high=MAX_HETEROGENEITY,
                   why="ETC entries, up to task_het x machine_het seconds, stay below 1e12 s, where sums keep their "
                   "precision")
        number("etc.task_mean", self.task_mean, 1e-6, low_open=False, high=MAX_TASK_MEAN,
               why="seconds; so that the gamma draws around it stay finite and precise in sums")
        for name in ("task_cov", "machine_cov"):
            cov(f"etc.{name}", getattr(self, name))
        if self.method == "matrix":
            if not self.matrix:
                raise HcschedError("scenario field 'etc.matrix': missing; method 'matrix' needs rows of ETC values "
                                   "(tasks x machines)")
            widths = {len(r) for r in self.matrix}
            if len(widths) != 1:
                raise HcschedError("scenario field 'etc.matrix': rows have different lengths; every task needs one "
                                   "value per machine")
            check_etc(self.matrix, "scenario field 'etc.matrix'")


@dataclass(frozen=True)
class ArrivalSpec:
    """Poisson arrivals at ``rate`` tasks per second, or every task at time 0 (``static``)."""

    process: str = "poisson"
    rate: float = 0.01

    def __post_init__(self) -> None:
        choice("arrivals.process", self.process, ("poisson", "static"))
        rate("arrivals.rate", self.rate)


@dataclass(frozen=True)
class ActualSpec:
    """Actual execution times: the paper's truncated Gaussian, exact (= ETC), or gamma with a COV."""

    model: str = "gaussian"
    cov: float = 0.1

    def __post_init__(self) -> None:
        choice("actual.model", self.model, ("gaussian", "exact", "gamma"))
        cov("actual.cov", self.cov)


@dataclass(frozen=True)
class EtcModelSpec:
    """Dedicated machines, tasks with an ETC row each, arrivals and actual times (section 3.1).

    With a user's matrix (``etc.method`` "matrix"), its shape sets the tasks and machines.
    """

    machines: int = 20
    tasks: int = 2000
    etc: EtcSpec = field(default_factory=EtcSpec)
    arrivals: ArrivalSpec = field(default_factory=ArrivalSpec)
    actual: ActualSpec = field(default_factory=ActualSpec)
    lower_bound: bool = True  # each trial's makespan and mean flow time bounds (:mod:`.bounds`), and the ratios to them

    def __post_init__(self) -> None:
        if not isinstance(self.lower_bound, bool):
            raise fail("lower_bound", self.lower_bound, "true or false")
        if self.etc.method == "matrix":
            object.__setattr__(self, "tasks", len(self.etc.matrix))
            object.__setattr__(self, "machines", len(self.etc.matrix[0]))
        count(self, "machines", MAX_MACHINES)
        count(self, "tasks", MAX_TASKS)


SPEC_KEYS = frozenset({"machines", "tasks", "etc", "arrivals", "actual", "lower_bound"})


def spec_from_dict(data: dict[str, Any], base_dir: Path | None = None) -> EtcModelSpec:
    """The spec from a scenario file's keys (``etc.path`` is read relative to ``base_dir``)."""
    data = dict(data)
    etc = dict(keys("etc", data.pop("etc", {}),
                    {f.name for f in dataclasses.fields(EtcSpec)} | {"path", "format", "heterogeneity"}))
    if "heterogeneity" in etc:
        het = str(etc.pop("heterogeneity")).lower()
        if het not in HETEROGENEITY:
            raise fail("etc.heterogeneity", het, "one of " + ", ".join(HETEROGENEITY))
        etc["task_het"], etc["machine_het"] = HETEROGENEITY[het]
    if "path" in etc:
        path = Path(etc.pop("path"))
        etc.pop("format", None)
        matrix = read_etc(path if path.is_absolute() or base_dir is None else base_dir / path)
        etc.update(method="matrix", matrix=matrix.tolist())
    if etc.get("matrix") is not None:
        etc["matrix"] = tuple(tuple(float(x) for x in row) for row in etc["matrix"])
    arrivals = keys("arrivals", data.pop("arrivals", {}), {"process", "rate"})
    actual = keys("actual", data.pop("actual", {}), {"model", "cov"})
    try:
        return EtcModelSpec(**data, etc=EtcSpec(**etc), arrivals=ArrivalSpec(**arrivals), actual=ActualSpec(**actual))
    except TypeError as exc:
        raise HcschedError(f"scenario: {exc}") from None


def spec_to_dict(spec: EtcModelSpec) -> dict[str, Any]:
    """Only the keys that matter for the method chosen, in the order a person would write them."""
    e = spec.etc
    if e.method == "matrix":
        etc = {"method": "matrix", "matrix": [list(r) for r in e.matrix]}
    else:
        keep = ("task_het", "machine_het") if e.method == "range" else ("task_mean", "task_cov", "machine_cov")
        etc = {"method": e.method, **{k: getattr(e, k) for k in keep}, "consistency": e.consistency}
        if e.consistency == "semiconsistent":
            etc["semiconsistent_mode"] = e.semiconsistent_mode
    arrivals = {"process": "static"} if spec.arrivals.process == "static" else dataclasses.asdict(spec.arrivals)
    actual = dataclasses.asdict(spec.actual) if spec.actual.model == "gamma" else {"model": spec.actual.model}
    out = {"machines": spec.machines, "tasks": spec.tasks, "etc": etc, "arrivals": arrivals, "actual": actual}
    return out if spec.lower_bound else {**out, "lower_bound": False}
