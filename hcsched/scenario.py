"""Scenarios: frozen, validated descriptions of an experiment, saved as JSON or TOML.

A CLI run, the dashboard and a user's file describe the same experiment with
the same object. Validation happens here, once; messages name the field, the
value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import get_heuristic
from hcsched.lp import check_rates, expand_groups, solve_allocation
from hcsched.workload import CONSISTENCIES, HETEROGENEITY, SEMICONSISTENT_MODES


def _fail(field_name: str, value: Any, allowed: str) -> HcschedError:
    return HcschedError(f"scenario field {field_name!r}: {value!r} is not allowed; allowed: {allowed}")


def _number(where: str, value: Any, low: float = 0.0, low_open: bool = True, integer: bool = False) -> float:
    allowed = f"{'an integer' if integer else 'a number'} {'>' if low_open else '>='} {low:g}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(where, value, allowed)
    if math.isnan(value) or math.isinf(value) or (value <= low if low_open else value < low):
        raise _fail(where, value, allowed)
    if integer and value != int(value):
        raise _fail(where, value, allowed)
    return int(value) if integer else float(value)


def _choice(where: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _fail(where, value, "one of " + ", ".join(choices))
    return value


def _keys(where: str, data: Any, allowed: set[str]) -> dict:
    if not isinstance(data, dict):
        raise HcschedError(f"scenario field {where!r}: expected a table of settings, got {data!r}")
    extra = sorted(set(data) - allowed)
    if extra:
        raise HcschedError(f"scenario field {where!r}: unknown key {extra[0]!r}; allowed keys: {', '.join(sorted(allowed))}")
    return data


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
        _choice("etc.method", self.method, ("range", "cov", "matrix"))
        _choice("etc.consistency", self.consistency, CONSISTENCIES)
        _choice("etc.semiconsistent_mode", self.semiconsistent_mode, SEMICONSISTENT_MODES)
        for name in ("task_het", "machine_het"):
            _number(f"etc.{name}", getattr(self, name), 1.0, low_open=False)
        for name in ("task_mean", "task_cov", "machine_cov"):
            _number(f"etc.{name}", getattr(self, name))
        if self.method == "matrix":
            from hcsched.readers import check_etc

            if not self.matrix:
                raise HcschedError("scenario field 'etc.matrix': missing; method 'matrix' needs rows of ETC values (tasks x machines)")
            widths = {len(r) for r in self.matrix}
            if len(widths) != 1:
                raise HcschedError("scenario field 'etc.matrix': rows have different lengths; every task needs one value per machine")
            check_etc(self.matrix, "scenario field 'etc.matrix'")


@dataclass(frozen=True)
class ArrivalSpec:
    """Poisson arrivals at ``rate`` tasks per second, or every task at time 0 (``static``)."""

    process: str = "poisson"
    rate: float = 0.01

    def __post_init__(self) -> None:
        _choice("arrivals.process", self.process, ("poisson", "static"))
        _number("arrivals.rate", self.rate)


@dataclass(frozen=True)
class ActualSpec:
    """Actual execution times: the paper's truncated Gaussian, exact (= ETC), or gamma with a COV."""

    model: str = "gaussian"
    cov: float = 0.1

    def __post_init__(self) -> None:
        _choice("actual.model", self.model, ("gaussian", "exact", "gamma"))
        _number("actual.cov", self.cov)


SERVICES = ("exponential", "constant", "hyperexponential")
CLASS_KEYS = ("arrival_rates", "exec_rates", "groups", "service", "horizon", "warmup")


@dataclass(frozen=True)
class ClassSpec:
    """Task classes with Poisson arrival rates alpha_i and execution rates mu_ij (Al-Azzoni and Down, section II-A).

    With ``groups``, the columns of ``exec_rates`` are groups of identical
    machines of those sizes. ``service``: exponential, constant, or
    hyperexponential (same mean, twice the exponential's variance).
    Simulated over [0, horizon]; averages exclude [0, warmup).
    """

    arrival_rates: tuple[float, ...]
    exec_rates: tuple[tuple[float, ...], ...]
    groups: tuple[int, ...] | None = None
    service: str = "exponential"
    horizon: float = 20000.0
    warmup: float = 0.0

    def __post_init__(self) -> None:
        if len({len(r) for r in self.exec_rates}) > 1:
            raise HcschedError("scenario field 'exec_rates': rows have different lengths; give one rate per machine (or group) in every row")
        check_rates(self.arrival_rates, self.exec_rates)
        if self.groups is not None:
            width = len(self.exec_rates[0])
            if len(self.groups) != width or any(isinstance(g, bool) or not isinstance(g, int) or g < 1 for g in self.groups):
                raise _fail("groups", list(self.groups), f"{width} positive whole numbers, the machines in each column's group")
        _choice("service", self.service, SERVICES)
        _number("horizon", self.horizon)
        _number("warmup", self.warmup, 0.0, low_open=False)
        if self.warmup >= self.horizon:
            raise _fail("warmup", self.warmup, f"a time >= 0 and below the horizon ({self.horizon:g})")

    @property
    def mu(self):
        """Execution rates per machine (classes x machines)."""
        mu = np.array(self.exec_rates, dtype=float)
        return mu if self.groups is None else expand_groups(mu, self.groups)

    @property
    def machines(self) -> int:
        return sum(self.groups) if self.groups is not None else len(self.exec_rates[0])

    def allocation(self):
        """lambda* and delta* of the allocation LP (per machine)."""
        return _allocation(self)


@functools.lru_cache(maxsize=64)
def _allocation(spec: ClassSpec):
    return solve_allocation(spec.arrival_rates, spec.exec_rates, spec.groups)


@dataclass(frozen=True)
class HeuristicSpec:
    """A heuristic with its resolved parameters and a readable label."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    label: str = ""

    @classmethod
    def make(cls, name: str, label: str | None = None, **params: Any) -> HeuristicSpec:
        h = get_heuristic(name)
        values = h.resolve(params)
        if not label:
            changed = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items()
                       if v != h.defaults()[k] and k in params]
            label = h.name + (f" ({', '.join(changed)})" if changed else "")
        return cls(h.name, tuple(sorted(values.items())), label)

    @property
    def heuristic(self):
        return get_heuristic(self.name)

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    def to_json(self) -> Any:
        h = self.heuristic
        changed = {k: v for k, v in self.params if v != h.defaults()[k]}
        auto = HeuristicSpec.make(self.name, **changed).label
        if not changed and self.label == auto:
            return self.name
        out = {"name": self.name, **changed}
        if self.label != auto:
            out["label"] = self.label
        return out


def heuristic_spec(item: Any) -> HeuristicSpec:
    """A spec from a name (``"mct"``) or a table (``{"name": "kpb", "k": 10, "label": ...}``)."""
    if isinstance(item, HeuristicSpec):
        return item
    if isinstance(item, str):
        return HeuristicSpec.make(item)
    if isinstance(item, dict) and "name" in item:
        rest = {k: v for k, v in item.items() if k not in ("name", "label")}
        return HeuristicSpec.make(item["name"], item.get("label"), **rest)
    raise HcschedError(f"scenario field 'heuristics': {item!r} is not allowed; give a name or a table with 'name' and parameters")


@dataclass(frozen=True)
class Scenario:
    """One experiment: machines, tasks, workload model, heuristics, trials and seed."""

    name: str = "custom"
    description: str = ""
    model: str = "etc"
    machines: int = 20
    tasks: int = 2000
    etc: EtcSpec = field(default_factory=EtcSpec)
    arrivals: ArrivalSpec = field(default_factory=ArrivalSpec)
    actual: ActualSpec = field(default_factory=ActualSpec)
    heuristics: tuple[HeuristicSpec, ...] = ()
    benchmark: str | None = None
    trials: int = 50
    seed: int = 0
    classes: ClassSpec | None = None

    def __post_init__(self) -> None:
        _choice("model", self.model, ("etc", "classes"))
        if self.model == "classes":
            if self.classes is None:
                raise HcschedError("scenario: model 'classes' needs 'arrival_rates' and 'exec_rates'")
            object.__setattr__(self, "machines", self.classes.machines)
            object.__setattr__(self, "tasks", max(1, round(sum(self.classes.arrival_rates) * self.classes.horizon)))
        elif self.etc.method == "matrix":
            shape = (len(self.etc.matrix), len(self.etc.matrix[0]))
            object.__setattr__(self, "tasks", shape[0])
            object.__setattr__(self, "machines", shape[1])
        _number("machines", self.machines, 1, low_open=False, integer=True)
        _number("tasks", self.tasks, 1, low_open=False, integer=True)
        _number("trials", self.trials, 1, low_open=False, integer=True)
        _number("seed", self.seed, 0, low_open=False, integer=True)
        object.__setattr__(self, "heuristics", tuple(heuristic_spec(h) for h in self.heuristics))
        if not self.heuristics:
            raise HcschedError("scenario field 'heuristics': empty; name at least one heuristic")
        for h in self.heuristics:
            if self.model not in h.heuristic.models:
                from hcsched.heuristics import heuristic_names

                raise HcschedError(f"scenario field 'heuristics': {h.name!r} is not a heuristic of the {self.model!r} model; "
                                   f"its heuristics are: {', '.join(heuristic_names(model=self.model))}")
        labels = [h.label for h in self.heuristics]
        dup = next((x for x in labels if labels.count(x) > 1), None)
        if dup:
            raise HcschedError(f"scenario field 'heuristics': the label {dup!r} is used twice; give each a distinct 'label'")
        if self.benchmark is not None and self.benchmark not in labels:
            raise _fail("benchmark", self.benchmark, "the label of one of the scenario's heuristics: " + ", ".join(labels))

    @property
    def benchmark_label(self) -> str:
        """The heuristic the makespan is normalised to: as given, else Min-min if present, else MCT, else the first."""
        if self.benchmark:
            return self.benchmark
        for name in ("min-min", "mct"):
            for h in self.heuristics:
                if h.label == name:
                    return h.label
        return self.heuristics[0].label

    def replace(self, **changes: Any) -> Scenario:
        return dataclasses.replace(self, **changes)

    # --- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        if self.model == "classes":
            c = self.classes
            out = {"name": self.name, "description": self.description, "model": "classes",
                   "arrival_rates": list(c.arrival_rates), "exec_rates": [list(r) for r in c.exec_rates]}
            if c.groups is not None:
                out["groups"] = list(c.groups)
            out.update(service=c.service, horizon=c.horizon, warmup=c.warmup,
                       heuristics=[h.to_json() for h in self.heuristics], trials=self.trials, seed=self.seed)
            return out
        etc = {k: v for k, v in dataclasses.asdict(self.etc).items() if v is not None}
        if self.etc.method == "matrix":
            etc = {"method": "matrix", "matrix": [list(r) for r in self.etc.matrix]}
        else:
            keep = ("task_het", "machine_het") if self.etc.method == "range" else ("task_mean", "task_cov", "machine_cov")
            etc = {"method": self.etc.method, **{k: etc[k] for k in keep}, "consistency": self.etc.consistency}
            if self.etc.consistency == "semiconsistent":
                etc["semiconsistent_mode"] = self.etc.semiconsistent_mode
        arrivals = {"process": "static"} if self.arrivals.process == "static" else dataclasses.asdict(self.arrivals)
        actual = dataclasses.asdict(self.actual) if self.actual.model == "gamma" else {"model": self.actual.model}
        out = {"name": self.name, "description": self.description, "model": self.model,
               "machines": self.machines, "tasks": self.tasks, "etc": etc, "arrivals": arrivals, "actual": actual,
               "heuristics": [h.to_json() for h in self.heuristics], "trials": self.trials, "seed": self.seed}
        if self.benchmark:
            out["benchmark"] = self.benchmark
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], base_dir: Path | None = None) -> Scenario:
        fields = {f.name for f in dataclasses.fields(cls)} - {"classes"}
        if isinstance(data, dict) and data.get("model") == "classes":
            data = dict(_keys("scenario", data, fields - {"etc", "arrivals", "actual", "machines", "tasks"} | set(CLASS_KEYS)))
            spec = {k: data.pop(k) for k in CLASS_KEYS if k in data}
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
            heuristics = data.pop("heuristics", ())
            if not isinstance(heuristics, (list, tuple)):
                raise _fail("heuristics", heuristics, "a list of heuristic names or tables")
            return cls(**data, classes=ClassSpec(**spec), heuristics=tuple(heuristic_spec(h) for h in heuristics))
        data = dict(_keys("scenario", data, fields))
        etc = dict(_keys("etc", data.pop("etc", {}), {f.name for f in dataclasses.fields(EtcSpec)} | {"path", "format", "heterogeneity"}))
        if "heterogeneity" in etc:
            het = str(etc.pop("heterogeneity")).lower()
            if het not in HETEROGENEITY:
                raise _fail("etc.heterogeneity", het, "one of " + ", ".join(HETEROGENEITY))
            etc["task_het"], etc["machine_het"] = HETEROGENEITY[het]
        if "path" in etc:
            from hcsched.readers import read_etc

            path = Path(etc.pop("path"))
            etc.pop("format", None)
            matrix = read_etc(path if path.is_absolute() or base_dir is None else base_dir / path)
            etc.update(method="matrix", matrix=matrix.tolist())
        if etc.get("matrix") is not None:
            etc["matrix"] = tuple(tuple(float(x) for x in row) for row in etc["matrix"])
        try:
            parts = {
                "etc": EtcSpec(**etc),
                "arrivals": ArrivalSpec(**_keys("arrivals", data.pop("arrivals", {}), {"process", "rate"})),
                "actual": ActualSpec(**_keys("actual", data.pop("actual", {}), {"model", "cov"})),
            }
        except TypeError as exc:
            raise HcschedError(f"scenario: {exc}") from None
        heuristics = data.pop("heuristics", ())
        if not isinstance(heuristics, (list, tuple)):
            raise _fail("heuristics", heuristics, "a list of heuristic names or tables")
        return cls(**data, **parts, heuristics=tuple(heuristic_spec(h) for h in heuristics))

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_toml(self) -> str:
        import tomli_w

        data = self.to_dict()
        data["heuristics"] = [{"name": h} if isinstance(h, str) else h for h in data["heuristics"]]
        data = {k: v for k, v in data.items() if v is not None}
        return tomli_w.dumps(data)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.write_text(self.to_toml() if path.suffix.lower() == ".toml" else self.to_json())




def parse_scenario(text: str, fmt: str = "json", source: str = "scenario", base_dir: Path | None = None) -> Scenario:
    """A scenario from JSON or TOML text."""
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise HcschedError(f"{source}: not valid {fmt.upper()} ({exc})") from None
    return Scenario.from_dict(data, base_dir)


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario from a ``.json`` or ``.toml`` file."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise HcschedError(f"scenario file {str(path)!r}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    return parse_scenario(text, fmt, f"scenario file {str(path)!r}", path.parent)
