"""The scenario keys of the time-shared model (Caniou and Jeannot, sections 3.1, 3.3 and 4.1).

``servers`` and ``tasks`` are either counts (drawn per trial as in section 3.3) or a user's own table: a file
(``{"path": "servers.csv"}``) or the columns inline (``{"speed_mflops": [...], "bandwidth_mbit": [...]}``; tasks:
``arrival``, ``input_mb``, ``mflop``, ``output_mb``). MB = 10^6 bytes and Mbit = 10^6 bits, so a task's input alone
takes ``input_mb * 8 / bandwidth_mbit`` seconds and its computation ``mflop / speed_mflops`` seconds. A table is
read once, when the scenario is read, and saved inline.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics import get_heuristic
from hcsched.models.timeshared.readers import read_servers, read_tasks
from hcsched.models.timeshared.tables import SERVER_COLUMNS, TASK_COLUMNS, ServerTable, TaskTable
from hcsched.validate import MAX_MACHINES, MAX_RATE, MAX_TASKS, choice, count, fail, number, numbers, rate, seconds

BITS_PER_MB = 8.0  # MB = 10^6 bytes and Mbit = 10^6 bits: seconds = MB x 8 / Mbit/s

DUPLEX = ("full", "half")
ARRIVALS = ("exponential", "poisson-int")
TRANSFER = ("in+out", "in")
KEYS = ("servers", "tasks", "speed_mflops", "bandwidth_mbit", "size_mb", "compute_ratio", "max_compute_s", "transfer",
        "mean_interarrival", "arrivals", "duplex", "reference", "tie_tolerance", "same_tolerance")


def _pair(where: str, value: Any) -> tuple[float, float]:
    allowed = f"[low, high] with {1 / MAX_RATE:g} <= low <= high <= {MAX_RATE:g} (outside it the times they give " \
        "overflow or underflow)"
    lo, hi = numbers(where, value, allowed, 2)
    if not 1 / MAX_RATE <= lo <= hi <= MAX_RATE:
        raise fail(where, list(value), allowed)
    return lo, hi


@dataclass(frozen=True)
class TimesharedSpec:
    """Servers, tasks and the drawing rules of section 3.3; the engine's duplex; the comparison settings.

    Drawn workloads (when ``platform`` / ``task_table`` are None): ``servers`` speeds uniform in ``speed_mflops``,
    every card ``bandwidth_mbit``; input and output sizes uniform in ``size_mb`` (independent, 1 KB = 10^3 B);
    the compute time on the fastest server uniform in [``compute_ratio`` x transfer time, ``max_compute_s``],
    the transfer time being input + output (or the input only, ``transfer: in``); arrivals with mean
    inter-arrival ``mean_interarrival`` = mu seconds, exponential gaps (default) or integer Poisson(mu) gaps, the
    first task at 0 (the readings of section 3.3: docs/models/timeshared.md, "Readings chosen"). ``reference``: the
    heuristic (default parameters) that pct_sooner/same/later and the gains compare with on the same trial.
    ``tie_tolerance``: scores within it (s) tie. ``same_tolerance``: finish times within it (s) count as the same.
    """

    servers: int = 25
    tasks: int = 250
    speed_mflops: tuple[float, float] = (150.0, 500.0)
    bandwidth_mbit: float = 100.0
    size_mb: tuple[float, float] = (0.001, 300.0)
    compute_ratio: float = 10.0
    max_compute_s: float = 600.0
    transfer: str = "in+out"
    mean_interarrival: float = 0.0
    arrivals: str = "exponential"
    duplex: str = "full"
    reference: str = "netsolve-mct"
    tie_tolerance: float = 1e-6
    same_tolerance: float = 1e-6
    platform: ServerTable | None = None
    task_table: TaskTable | None = None

    def __post_init__(self) -> None:
        if self.platform is not None:
            object.__setattr__(self, "servers", len(self.platform.speed_mflops))
        if self.task_table is not None:
            object.__setattr__(self, "tasks", len(self.task_table.arrival))
        count(self, "servers", MAX_MACHINES)
        count(self, "tasks", MAX_TASKS)
        object.__setattr__(self, "speed_mflops", _pair("speed_mflops", self.speed_mflops))
        object.__setattr__(self, "size_mb", _pair("size_mb", self.size_mb))
        rate("bandwidth_mbit", self.bandwidth_mbit, "Mbit/s")
        number("compute_ratio", self.compute_ratio, 0.0, low_open=False, high=MAX_RATE,
               why="beyond it a task's compute time overflows")
        seconds("max_compute_s", self.max_compute_s)
        seconds("mean_interarrival", self.mean_interarrival, 0.0, low_open=False)
        seconds("tie_tolerance", self.tie_tolerance, 0.0, low_open=False)
        seconds("same_tolerance", self.same_tolerance, 0.0, low_open=False)
        choice("transfer", self.transfer, TRANSFER)
        choice("arrivals", self.arrivals, ARRIVALS)
        choice("duplex", self.duplex, DUPLEX)
        try:
            get_heuristic(self.reference, "timeshared")
        except HcschedError as exc:
            raise HcschedError(f"scenario field 'reference': {exc}") from None
        if self.task_table is None and self.max_moved_mb < self.least_moved_mb:
            where, card = ("servers", f"the fastest server's card ({self.fastest_bandwidth:g} Mbit/s)") \
                if self.platform is not None else ("bandwidth_mbit", f"{self.fastest_bandwidth:g} Mbit/s")
            least_s = self.least_moved_mb * BITS_PER_MB / self.fastest_bandwidth
            raise HcschedError(
                f"scenario field {where!r}: on {card} even the smallest data ({self.least_moved_mb:g} MB) take "
                f"{least_s:.4g} s, and compute_ratio x that ({self.compute_ratio:g} x {least_s:.4g} s) exceeds "
                f"max_compute_s ({self.max_compute_s:g} s); allowed: a card of at least "
                f"{self.compute_ratio * self.least_moved_mb * BITS_PER_MB / self.max_compute_s:.4g} Mbit/s on the "
                "fastest server, a larger max_compute_s, a smaller compute_ratio or a smaller size_mb low")

    @property
    def fastest_bandwidth(self) -> float:
        """The card (Mbit/s) of the fastest server, on which section 3.3's cost rule is stated: the user's table's
        (the first of equal speeds), or ``bandwidth_mbit`` (drawn servers all have it)."""
        if self.platform is None:
            return float(self.bandwidth_mbit)
        speed = self.platform.speed_mflops
        return float(self.platform.bandwidth_mbit[speed.index(max(speed))])

    @property
    def least_moved_mb(self) -> float:
        """The least data a task moves: both sizes at ``size_mb``'s low (the input only with ``transfer: in``)."""
        return self.size_mb[0] * (2 if self.transfer == "in+out" else 1)

    @property
    def max_moved_mb(self) -> float:
        """The most data (MB, input + output or input only) a drawn task may move so that compute_ratio x its
        transfer time on the fastest server still fits under max_compute_s; inf when compute_ratio is 0. With the
        paper's cards (100 Mbit/s) and settings it is 750 MB, above the 600 MB sizes can reach: no effect there."""
        if self.compute_ratio == 0:
            return float("inf")
        return self.max_compute_s * self.fastest_bandwidth / (BITS_PER_MB * self.compute_ratio)

    @property
    def machines(self) -> int:
        return self.servers


def _table(key: str, value: Any, base_dir: Path | None):
    """A count, or a user's table from a path or inline columns."""
    if isinstance(value, dict):
        if "path" in value:
            if set(value) != {"path"}:
                raise HcschedError(f"scenario field {key!r}: give either a path or the columns, not both")
            path = Path(value["path"])
            if base_dir is not None and not path.is_absolute():
                path = base_dir / path
            return read_servers(path) if key == "servers" else read_tasks(path)
        cols = SERVER_COLUMNS + ("name",) if key == "servers" else TASK_COLUMNS
        extra = sorted(set(value) - set(cols))
        if extra:
            raise HcschedError(f"scenario field {key!r}: unknown column {extra[0]!r}; allowed: path, or "
                               f"{', '.join(cols)}")
        try:
            if key == "servers":
                return ServerTable(tuple(float(x) for x in value.get("speed_mflops", ())),
                                   tuple(float(x) for x in value.get("bandwidth_mbit", ())),
                                   tuple(str(x) for x in value.get("name", ())))
            return TaskTable(*(tuple(float(x) for x in value.get(c, ())) for c in TASK_COLUMNS))
        except (TypeError, ValueError):
            raise HcschedError(f"scenario field {key!r}: every column must be a list of numbers") from None
    return value


def spec_from_dict(data: dict[str, Any], base_dir: Path | None = None) -> TimesharedSpec:
    d = dict(data)
    for key, field in (("servers", "platform"), ("tasks", "task_table")):
        if key in d:
            value = _table(key, d[key], base_dir)
            if isinstance(value, (ServerTable, TaskTable)):
                d[field] = value
                d.pop(key)
    for key in ("speed_mflops", "size_mb"):
        if key in d and isinstance(d[key], list):
            d[key] = tuple(d[key])
    return TimesharedSpec(**d)


def spec_to_dict(s: TimesharedSpec) -> dict[str, Any]:
    out: dict[str, Any] = {
        "servers": s.platform.to_dict() if s.platform is not None else s.servers,
        "tasks": s.task_table.to_dict() if s.task_table is not None else s.tasks,
        "speed_mflops": list(s.speed_mflops), "bandwidth_mbit": s.bandwidth_mbit, "size_mb": list(s.size_mb),
        "compute_ratio": s.compute_ratio, "max_compute_s": s.max_compute_s, "transfer": s.transfer,
        "mean_interarrival": s.mean_interarrival, "arrivals": s.arrivals, "duplex": s.duplex,
        "reference": s.reference, "tie_tolerance": s.tie_tolerance, "same_tolerance": s.same_tolerance,
    }
    return out
