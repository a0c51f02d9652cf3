"""Files a scenario names: which keys name one, and the one way such a file is read.

A scenario that arrives by upload, link, paste or a results CSV may not name a file (its sender does not own the
server's files): :func:`refuse_files` says so before any model reads it. A scenario file of the user's own (the CLI)
may, and every file it names is read by :func:`read_text`: a regular file only (never a device, a FIFO or a
directory), at most ``HCSCHED_MAX_FILE_MB`` megabytes, and never a byte more than that is read.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError

MAX_FILE_MB = 256.0  # the largest file a scenario may name, in MB (HCSCHED_MAX_FILE_MB changes it)
TRACE_FILES = ("tasks", "processors")  # a trace's keys that name CSV files unless the tasks are given inline

# What the dashboard takes instead of a file, by the scenario's top-level key.
UPLOAD_INSTEAD = {
    "etc": "the matrix itself: upload it under My own matrix",
    "servers": "the table itself: upload it under Your servers CSV",
    "tasks": "the table itself: upload it under Your tasks CSV",
    "trace": "the trace itself: upload it under Processors CSV and Tasks CSV",
}


def env_limit(name: str, default: float) -> float:
    """A positive limit from the environment variable ``name``, else ``default``."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise HcschedError(f"environment variable {name}: {text!r} is not allowed; allowed: a positive number")
    return value


# --- keys that name files --------------------------------------------------------------------------------------------

def file_keys(data: Any) -> list[str]:
    """The dotted keys of a scenario's table that name a file: any key called ``path`` (in tables and lists, at any
    depth; a list item's key holds its index), and a trace's ``tasks`` (unless given inline, as a list of rows) and
    ``processors``; shallower keys first, in the table's order. Walks without recursion, so any depth is safe."""
    found = []
    queue: deque[tuple[str, Any]] = deque([("", data)])
    while queue:
        prefix, node = queue.popleft()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            dotted = f"{prefix}{key}"
            if key == "path" or prefix == "trace." and _names_trace_file(node, key):
                found.append(dotted)
            elif isinstance(value, (dict, list)):
                queue.append((dotted + ".", value))
    return found


def _names_trace_file(trace: dict, key: Any) -> bool:
    return key in TRACE_FILES and not isinstance(trace.get("tasks"), list)


def refuse_files(data: Any, where: str = "scenario field", what: str = "a scenario loaded here") -> None:
    """Raise HcschedError, naming the first key of ``data`` (a scenario's table) that names a file: ``what`` (a
    scenario from an upload, a link or a results file) may not make the server read one."""
    keys = file_keys(data)
    if keys:
        instead = UPLOAD_INSTEAD.get(keys[0].split(".")[0])
        raise HcschedError(f"{where} {keys[0]!r}: names a file on the server, which {what} may not do; allowed: the "
                           f"values inline{f' (the dashboard takes {instead})' if instead else ''}")


# --- reading a named file --------------------------------------------------------------------------------------------

def max_file_bytes() -> int:
    return int(env_limit("HCSCHED_MAX_FILE_MB", MAX_FILE_MB) * 1e6)


def read_text(path: str | Path, what: str, allowed: str, limit: int | None = None,
              largest: str = "the largest file a scenario may name (HCSCHED_MAX_FILE_MB changes it)") -> str:
    """The text of the regular file ``path``, UTF-8, newlines as ``\\n`` (as :meth:`Path.read_text` reads it).

    Refused in one line naming ``what`` (e.g. "etc.path" or "ETC file") and its path, with ``allowed`` (e.g. "a CSV
    or HCSP file"): anything that is not a regular file (checked before opening and again on the open file, so that
    nothing swapped in between is read), a file over ``limit`` bytes (by default ``HCSCHED_MAX_FILE_MB``), a file
    that cannot be read or is not text (a file over the limit is said to be over ``largest``). At most ``limit`` + 1
    bytes are ever read."""
    limit = max_file_bytes() if limit is None else limit
    name = f"{what} {str(path)!r}"
    try:
        _check_stat(os.stat(path), name, allowed, limit, largest)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as f:
            _check_stat(os.fstat(f.fileno()), name, allowed, limit, largest)
            data = f.read(limit + 1)
    except HcschedError:
        raise
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        why = getattr(exc, "strerror", None) or exc
        raise HcschedError(f"{name}: cannot be read ({type(exc).__name__}: {why}); allowed: {allowed}") from None
    if len(data) > limit:
        raise _too_large(name, allowed, limit, largest)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise HcschedError(f"{name}: not a text file (not UTF-8); allowed: {allowed}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _check_stat(st: os.stat_result, name: str, allowed: str, limit: int, largest: str) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise HcschedError(f"{name}: {kind}; allowed: {allowed}")
    if st.st_size > limit:
        raise _too_large(name, allowed, limit, largest)


def _too_large(name: str, allowed: str, limit: int, largest: str) -> HcschedError:
    return HcschedError(f"{name}: over {limit / 1e6:g} MB, {largest}; allowed: {allowed}")
