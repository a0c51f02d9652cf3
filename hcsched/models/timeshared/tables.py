"""A user's own servers and tasks (Caniou and Jeannot, section 3.3's quantities, given instead of drawn): the tables
that :mod:`.readers` builds from CSV and :mod:`.spec` keeps in a scenario, validated once here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hcsched.errors import HcschedError
from hcsched.validate import MAX_SECONDS, number, rate

SERVER_COLUMNS = ("speed_mflops", "bandwidth_mbit")
TASK_COLUMNS = ("arrival", "input_mb", "mflop", "output_mb")


@dataclass(frozen=True)
class ServerTable:
    """A user's servers: speed (Mflop/s) and network card bandwidth (Mbit/s) of each, with optional names."""

    speed_mflops: tuple[float, ...]
    bandwidth_mbit: tuple[float, ...]
    name: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.speed_mflops or len(self.speed_mflops) != len(self.bandwidth_mbit):
            raise HcschedError("scenario field 'servers': give as many speed_mflops as bandwidth_mbit values, at "
                               "least one")
        if self.name and len(self.name) != len(self.speed_mflops):
            raise HcschedError("scenario field 'servers': give one name per server, or none")
        for col, unit in (("speed_mflops", "Mflop/s"), ("bandwidth_mbit", "Mbit/s")):
            for i, v in enumerate(getattr(self, col)):
                rate(f"servers.{col}[{i}]", v, unit)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"speed_mflops": list(self.speed_mflops), "bandwidth_mbit": list(self.bandwidth_mbit)}
        if self.name:
            out["name"] = list(self.name)
        return out


@dataclass(frozen=True)
class TaskTable:
    """A user's tasks: arrival (s), input size (MB), computation (Mflop), output size (MB)."""

    arrival: tuple[float, ...]
    input_mb: tuple[float, ...]
    mflop: tuple[float, ...]
    output_mb: tuple[float, ...]

    def __post_init__(self) -> None:
        sizes = {len(getattr(self, c)) for c in TASK_COLUMNS}
        if len(sizes) != 1 or not self.arrival:
            raise HcschedError("scenario field 'tasks': give the same number of arrival, input_mb, mflop and output_mb "
                               "values, at least one")
        for col in TASK_COLUMNS:
            for i, v in enumerate(getattr(self, col)):
                number(f"tasks.{col}[{i}]", v, 0.0, low_open=False, high=MAX_SECONDS,
                       why="seconds, MB or Mflop; beyond it the times it gives lose their precision in sums")

    def to_dict(self) -> dict[str, Any]:
        return {c: list(getattr(self, c)) for c in TASK_COLUMNS}
