"""Scenarios: frozen, validated descriptions of an experiment, saved as JSON or TOML.

A CLI run, the dashboard and a user's file describe the same experiment with
the same object. Validation happens here, once; messages name the field, the
value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics import get_heuristic
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

    def __post_init__(self) -> None:
        _choice("model", self.model, ("etc",))
        if self.etc.method == "matrix":
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
        data = dict(_keys("scenario", data, {f.name for f in dataclasses.fields(cls)}))
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
