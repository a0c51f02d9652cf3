"""A user's cluster history as a workload: a tasks CSV and a processors CSV.

processors CSV: ``name, speed`` (one row per processor; speed in MFLOP/s or any unit consistent with ``work``).

tasks CSV: ``problem, task, stage, release, x1, ..., xq`` and either ``work`` (the task's computation in the unit of
speed x seconds) or ``time`` and ``machine`` (the measured seconds on the named processor). Stages of a problem are
numbered 0, 1, ...; stage s+1 is released when stage s is done, and not before its earliest ``release``. The x
columns are integers (section 2: X in Z^q); a row may leave trailing x cells empty.

Where a row gives one machine's time only, the others' are derived from the speeds: work = time x speed(machine), so
the task takes time x speed(machine) / speed(j) on processor j (before the scenario's availability and noise, which
a trace replays as none: its problems have no noise or outliers). Errors name the file, the line and the field.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

from hcsched.errors import HcschedError
from hcsched.userfiles import read_text


@dataclass(frozen=True)
class TraceTask:
    """One task of a trace: its problem, name, stage, release time, integer inputs x and work (section 2)."""

    problem: str
    task: str
    stage: int
    release: float
    x: tuple[int, ...]
    work: float  # MFLOP (given, or measured time x the speed of the machine it ran on)


def _read(path: Path, what: str) -> str:
    return read_text(path, f"{what} CSV", f"a {what} CSV file")


def _rows(text: str, what: str) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    reader = csv.reader(text.splitlines())
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        rows = []
        for line, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                raise HcschedError(f"{what} CSV line {line}: {len(cells)} cells but the header has {len(header)}")
            rows.append((line, {h: c.strip() for h, c in zip(header, cells, strict=False)}))
    except csv.Error as exc:
        raise HcschedError(f"{what} CSV line {reader.line_num}: cannot be read as CSV ({exc})") from None
    return header, rows


def _number(what: str, line: int, field: str, text: str, integer: bool = False, positive: bool = False) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value) or math.isinf(value) or (integer and value != int(value)):
        kind = "an integer" if integer else "a number"
        raise HcschedError(f"{what} CSV line {line}: {field} {text!r} is not {kind}")
    if value < 0 or (positive and value == 0):
        raise HcschedError(f"{what} CSV line {line}: {field} {text!r} is negative{' or zero' if positive else ''}; "
                           f"allowed: a number {'>' if positive else '>='} 0")
    return int(value) if integer else value


def parse_processors(text: str) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The processors CSV's names and speeds."""
    header, rows = _rows(text, "processors")
    for col in ("name", "speed"):
        if col not in header:
            raise HcschedError(f"processors CSV line 1: missing column {col!r}; the columns are name, speed")
    if not rows:
        raise HcschedError("processors CSV: no processors; give one row per processor")
    names, speeds = [], []
    for line, row in rows:
        if not row.get("name"):
            raise HcschedError(f"processors CSV line {line}: empty name")
        if row["name"] in names:
            raise HcschedError(f"processors CSV line {line}: processor {row['name']!r} appears twice")
        names.append(row["name"])
        speeds.append(_number("processors", line, "speed", row.get("speed", ""), positive=True))
    return tuple(names), tuple(speeds)


def _task(line: int, row: dict[str, str], xs: list[str], speeds: dict[str, float], what: str = "tasks") -> TraceTask:
    """One row of the tasks CSV (cells as text)."""
    if not row.get("problem"):
        raise HcschedError(f"{what} CSV line {line}: empty problem")
    stage = _number(what, line, "stage", row.get("stage", ""), integer=True)
    release = _number(what, line, "release", row.get("release", ""))
    x = [_number(what, line, h, row[h], integer=True) if row.get(h) else None for h in xs]
    while x and x[-1] is None:
        x.pop()
    if None in x:
        raise HcschedError(f"{what} CSV line {line}: an x cell is empty before a filled one")
    if row.get("work"):
        work = _number(what, line, "work", row["work"], positive=True)
    else:
        time = _number(what, line, "time", row.get("time", ""), positive=True)
        machine = row.get("machine", "")
        if machine not in speeds:
            raise HcschedError(f"{what} CSV line {line}: unknown processor {machine!r}; the processors CSV names "
                               f"{', '.join(list(speeds)[:10])}{'...' if len(speeds) > 10 else ''}")
        work = time * speeds[machine]
    return TraceTask(row["problem"], row.get("task", ""), stage, release, tuple(int(v) for v in x), work)


def _check_stages(tasks: tuple[TraceTask, ...], what: str = "tasks") -> None:
    stages: dict[str, set[int]] = {}
    for t in tasks:
        stages.setdefault(t.problem, set()).add(t.stage)
    for problem, found in stages.items():
        if found != set(range(len(found))):
            raise HcschedError(f"{what} CSV: problem {problem!r} has stages {sorted(found)}; number them 0, 1, ... "
                               "without gaps")


def parse_tasks(text: str, speeds: dict[str, float]) -> tuple[TraceTask, ...]:
    """The tasks CSV's tasks; ``speeds`` (name -> speed) turns a measured time on a named processor into work."""
    header, rows = _rows(text, "tasks")
    for col in ("problem", "task", "stage", "release"):
        if col not in header:
            raise HcschedError(f"tasks CSV line 1: missing column {col!r}; the columns are problem, task, stage, "
                               "release, x1..xq and work, or time and machine")
    if "work" not in header and not {"time", "machine"} <= set(header):
        raise HcschedError("tasks CSV line 1: missing column 'work' (or both 'time' and 'machine')")
    xs = sorted((h for h in header if re.fullmatch(r"x\d+", h)), key=lambda h: int(h[1:]))
    if not rows:
        raise HcschedError("tasks CSV: no tasks")
    out = tuple(_task(line, row, xs, speeds) for line, row in rows)
    _check_stages(out)
    return out


def _named(exc: HcschedError, what: str, path: Path) -> HcschedError:
    """The error with the file's path after "tasks CSV" / "processors CSV"."""
    text = str(exc)
    prefix = f"{what} CSV"
    return HcschedError(f"{prefix} {str(path)!r}{text[len(prefix):]}" if text.startswith(prefix) else text)


def read_processors(path: Path) -> tuple[tuple[str, ...], tuple[float, ...]]:
    text = _read(path, "processors")  # its errors name the path already
    try:
        return parse_processors(text)
    except HcschedError as exc:
        raise _named(exc, "processors", path) from None


def read_tasks(path: Path, speeds: dict[str, float]) -> tuple[TraceTask, ...]:
    text = _read(path, "tasks")
    try:
        return parse_tasks(text, speeds)
    except HcschedError as exc:
        raise _named(exc, "tasks", path) from None


def read_trace(tasks: Path, processors: Path) -> tuple[tuple[TraceTask, ...], tuple[str, ...], tuple[float, ...]]:
    """The trace's tasks, processor names and speeds."""
    names, speeds = read_processors(processors)
    return read_tasks(tasks, dict(zip(names, speeds, strict=True))), names, speeds


def processors_csv(names, speeds) -> str:
    """The processors CSV of a trace."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["name", "speed"])
    for n, s in zip(names, speeds, strict=True):
        w.writerow([n, repr(float(s))])
    return out.getvalue()


def tasks_csv(tasks: tuple[TraceTask, ...]) -> str:
    """The tasks CSV of a trace, with the work column (what :func:`parse_tasks` reads back exactly)."""
    q = max((len(t.x) for t in tasks), default=0)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["problem", "task", "stage", "release", *(f"x{k + 1}" for k in range(q)), "work"])
    for t in tasks:
        w.writerow([t.problem, t.task, t.stage, repr(float(t.release)), *t.x, *([""] * (q - len(t.x))),
                    repr(float(t.work))])
    return out.getvalue()


def write_trace(tasks: tuple[TraceTask, ...], names, speeds, tasks_path: Path, processors_path: Path) -> None:
    """Write a trace in the format :func:`read_trace` reads (work given)."""
    Path(processors_path).write_text(processors_csv(names, speeds))
    Path(tasks_path).write_text(tasks_csv(tasks))


def trace_rows(tasks: tuple[TraceTask, ...]) -> list[dict]:
    """A trace inline in a scenario file (a trace uploaded in the dashboard has no files to point to)."""
    return [{"problem": t.problem, "task": t.task, "stage": t.stage, "release": t.release, "x": list(t.x),
             "work": t.work} for t in tasks]


def trace_from_rows(rows) -> tuple[TraceTask, ...]:
    """The inverse of :func:`trace_rows`, checked like a tasks CSV (a row's "line" is its position, from 1)."""
    if not isinstance(rows, list) or not rows:
        raise HcschedError("scenario field 'trace.tasks': give a tasks CSV path, or a non-empty list of task rows")
    out = []
    for line, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("x", []), list):
            raise HcschedError(f"trace row {line}: expected a table of problem, task, stage, release, x (a list) "
                               f"and work, got {row!r}")
        cells = {k: str(v) for k, v in row.items() if k != "x"}
        x = [str(v) for v in row.get("x", [])]
        cells.update({f"x{k + 1}": v for k, v in enumerate(x)})
        out.append(_task(line, cells, [f"x{k + 1}" for k in range(len(x))], {}, what="trace"))
    tasks = tuple(out)
    _check_stages(tasks, "trace")
    return tasks
