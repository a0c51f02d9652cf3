"""A user's servers and tasks from CSV (e.g. a middleware's log), with one-line errors naming the row.

Servers: columns ``speed_mflops``, ``bandwidth_mbit`` and optionally ``name``. Tasks: ``arrival`` (s), ``input_mb``,
``mflop``, ``output_mb`` (MB = 10^6 bytes). A header row names the columns, in any order; other columns are refused.
Columns may be separated by commas, semicolons or tabs (:func:`hcsched.readers.detect_delimiter`).
"""

from __future__ import annotations

import math
from pathlib import Path

from hcsched.errors import HcschedError
from hcsched.models.timeshared.tables import SERVER_COLUMNS, TASK_COLUMNS, ServerTable, TaskTable
from hcsched.readers import _csv_rows, detect_delimiter
from hcsched.userfiles import read_text


def _value(text: str, where: str, positive: bool) -> float:
    try:
        v = float(text)
    except ValueError:
        raise HcschedError(f"{where}: {text.strip()!r} is not a number") from None
    if math.isnan(v) or math.isinf(v) or v < 0 or (positive and v == 0):
        raise HcschedError(f"{where}: {text.strip()} is not allowed; allowed: a finite number "
                           f"{'> 0' if positive else '>= 0'}")
    return v


def _parse(text: str, source: str, required: tuple[str, ...], optional: tuple[str, ...], positive: bool) -> dict:
    rows = _csv_rows(text, detect_delimiter(text), source)
    if not rows:
        raise HcschedError(f"{source}: the file is empty; expected a header row {', '.join(required)} and one row each")
    header = [c.strip().lower() for c in rows[0][1]]
    missing = [c for c in required if c not in header]
    if missing:
        also = f" (and optionally {', '.join(optional)})" if optional else ""
        raise HcschedError(f"{source}: line {rows[0][0]}: the header has no column {missing[0]!r}; expected columns "
                           f"{', '.join(required)}{also}")
    extra = [c for c in header if c not in required + optional]
    if extra:
        raise HcschedError(f"{source}: line {rows[0][0]}: unknown column {extra[0]!r}; allowed: "
                           f"{', '.join(required + optional)}")
    if len(rows) < 2:
        raise HcschedError(f"{source}: no rows after the header; give at least one")
    out: dict[str, list] = {c: [] for c in header}
    for line, cells in rows[1:]:
        if len(cells) != len(header):
            raise HcschedError(f"{source}: row {line} has {len(cells)} values, the header {len(header)}")
        for col, cell in zip(header, cells, strict=True):
            if col in required:
                out[col].append(_value(cell, f"{source}: row {line}, column {col!r}", positive and col != "arrival"))
            else:
                out[col].append(cell.strip())
    return out


def parse_servers(text: str, source: str = "servers CSV") -> ServerTable:
    cols = _parse(text, source, SERVER_COLUMNS, ("name",), positive=True)
    return ServerTable(tuple(cols["speed_mflops"]), tuple(cols["bandwidth_mbit"]), tuple(cols.get("name", ())))


def parse_tasks(text: str, source: str = "tasks CSV") -> TaskTable:
    cols = _parse(text, source, TASK_COLUMNS, (), positive=False)
    return TaskTable(*(tuple(cols[c]) for c in TASK_COLUMNS))


def _read(path: Path, what: str) -> str:
    return read_text(path, f"{what} file", f"a CSV file of {what}")


def read_servers(path: str | Path) -> ServerTable:
    return parse_servers(_read(Path(path), "servers"), f"servers file {str(path)!r}")


def read_tasks(path: str | Path) -> TaskTable:
    return parse_tasks(_read(Path(path), "tasks"), f"tasks file {str(path)!r}")
