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
import math
import re
from pathlib import Path

from hcsched.errors import HcschedError
from hcsched.models.estimation.spec import TraceTask


def _rows(path: Path, what: str) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise HcschedError(f"{what} CSV {str(path)!r}: cannot be read ({exc})") from None
    reader = csv.reader(text.splitlines())
    header = [h.strip().lower() for h in next(reader, [])]
    rows = []
    for line, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            raise HcschedError(f"{what} CSV line {line}: {len(cells)} cells but the header has {len(header)}")
        rows.append((line, {h: c.strip() for h, c in zip(header, cells, strict=False)}))
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


def read_processors(path: Path) -> tuple[tuple[str, ...], tuple[float, ...]]:
    header, rows = _rows(path, "processors")
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


def read_tasks(path: Path, speeds: dict[str, float]) -> tuple[TraceTask, ...]:
    header, rows = _rows(path, "tasks")
    for col in ("problem", "task", "stage", "release"):
        if col not in header:
            raise HcschedError(f"tasks CSV line 1: missing column {col!r}; the columns are problem, task, stage, "
                               "release, x1..xq and work, or time and machine")
    if "work" not in header and not {"time", "machine"} <= set(header):
        raise HcschedError("tasks CSV line 1: missing column 'work' (or both 'time' and 'machine')")
    xs = sorted((h for h in header if re.fullmatch(r"x\d+", h)), key=lambda h: int(h[1:]))
    if not rows:
        raise HcschedError("tasks CSV: no tasks")
    out, stages = [], {}
    for line, row in rows:
        if not row.get("problem"):
            raise HcschedError(f"tasks CSV line {line}: empty problem")
        stage = _number("tasks", line, "stage", row.get("stage", ""), integer=True)
        release = _number("tasks", line, "release", row.get("release", ""))
        x = [_number("tasks", line, h, row[h], integer=True) if row.get(h) else None for h in xs]
        while x and x[-1] is None:
            x.pop()
        if None in x:
            raise HcschedError(f"tasks CSV line {line}: an x cell is empty before a filled one")
        if row.get("work"):
            work = _number("tasks", line, "work", row["work"])
        else:
            time = _number("tasks", line, "time", row.get("time", ""))
            machine = row.get("machine", "")
            if machine not in speeds:
                raise HcschedError(f"tasks CSV line {line}: unknown processor {machine!r}; the processors CSV names "
                                   f"{', '.join(list(speeds)[:10])}{'...' if len(speeds) > 10 else ''}")
            work = time * speeds[machine]
        out.append(TraceTask(row["problem"], row.get("task", ""), stage, release, tuple(int(v) for v in x), work))
        stages.setdefault(row["problem"], set()).add(stage)
    for problem, found in stages.items():
        if found != set(range(len(found))):
            raise HcschedError(f"tasks CSV: problem {problem!r} has stages {sorted(found)}; number them 0, 1, ... "
                               "without gaps")
    return tuple(out)


def read_trace(tasks: Path, processors: Path) -> tuple[tuple[TraceTask, ...], tuple[str, ...], tuple[float, ...]]:
    """The trace's tasks, processor names and speeds."""
    names, speeds = read_processors(processors)
    return read_tasks(tasks, dict(zip(names, speeds, strict=True))), names, speeds


def write_trace(tasks: tuple[TraceTask, ...], names, speeds, tasks_path: Path, processors_path: Path) -> None:
    """Write a trace in the format :func:`read_trace` reads (work given)."""
    q = max((len(t.x) for t in tasks), default=0)
    with open(processors_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "speed"])
        for n, s in zip(names, speeds, strict=True):
            w.writerow([n, repr(float(s))])
    with open(tasks_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["problem", "task", "stage", "release", *(f"x{k + 1}" for k in range(q)), "work"])
        for t in tasks:
            w.writerow([t.problem, t.task, t.stage, repr(float(t.release)), *t.x, *([""] * (q - len(t.x))),
                        repr(float(t.work))])
