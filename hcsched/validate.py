"""Validation at the boundary: messages name the field, the value and what is allowed (CONVENTIONS, practice 4)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from hcsched.errors import HcschedError

MAX_SECONDS = 1e12  # the longest time (an ETC entry, a task's size in seconds) a scenario may hold: about 31,700 years,
# so that sums over millions of tasks and machines stay finite and exact to well under a second
MAX_RATE = 1e12  # the largest rate (tasks per second, a speed's ratio); its inverse, 1e-12, is the smallest
MAX_TASKS = 10**9  # tasks of one trial: their per-task arrays alone take gigabytes
MAX_MACHINES = 10**7  # machines (servers, processors) of one trial
MAX_TRIALS = 10**6  # trials of one run: their seed sequences are spawned at once
MAX_COV = 3.0  # a coefficient of variation: beyond it some of a gamma's draws (shape 1 / COV^2) underflow to 0
SIZE_REASON = "so that a trial's arrays can be allocated at all"


def fail(field_name: str, value: Any, allowed: str) -> HcschedError:
    return HcschedError(f"scenario field {field_name!r}: {value!r} is not allowed; allowed: {allowed}")


def number(where: str, value: Any, low: float = 0.0, low_open: bool = True, integer: bool = False,
           high: float | None = None, why: str = "") -> float:
    """A finite number above ``low`` (or at least ``low``) and at most ``high`` when given, optionally whole; ``why``
    (the reason for the range) ends the message."""
    kind = "an integer" if integer else "a number"
    if high is None:
        allowed = f"{kind} {'>' if low_open else '>='} {low:g}"
    else:
        allowed = f"{kind} {'above' if low_open else 'from'} {low:g} {'up ' if low_open else ''}to {high:g}"
    allowed += f" ({why})" if why else ""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(where, value, allowed)
    try:
        bad = math.isnan(value) or math.isinf(value) or (value <= low if low_open else value < low)
        bad = bad or (high is not None and value > high)
    except OverflowError:  # an integer beyond any float
        bad = True
    if bad:
        raise fail(where, value if not isinstance(value, int) or value.bit_length() < 100 else _short(value), allowed)
    if integer and value != int(value):
        raise fail(where, value, allowed)
    return int(value) if integer else float(value)


def numbers(where: str, value: Any, allowed: str, count: int | None = None, low: float = 0.0, low_open: bool = True,
            integer: bool = False) -> tuple:
    """A list of ``count`` (any number when None) finite numbers above ``low`` (or at least ``low``), optionally whole,
    as a tuple; an error names the field, the whole list and ``allowed``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or \
            (count is not None and len(value) != count):
        raise fail(where, value, allowed)
    try:
        return tuple(number(where, v, low, low_open, integer) for v in value)
    except HcschedError:
        raise fail(where, list(value), allowed) from None


def _short(value: int) -> str:
    """A huge integer in a message: its leading digits and its length (a 5,000-digit number stays one short line)."""
    if value.bit_length() > 14000:  # beyond what Python turns into text
        return f"an integer of {value.bit_length():,} bits"
    digits = str(abs(value))
    return f"{'-' if value < 0 else ''}{digits[:6]}... ({len(digits):,} digits)"


def whole(obj: Any, name: str, low: int = 1, where: str | None = None, high: int | None = None, why: str = "") -> None:
    """Check that field ``name`` of the frozen dataclass ``obj`` is a whole number from ``low`` (to ``high`` when
    given), and store it as an int (a file's or a sweep's ``4.0`` becomes 4, so that it can size arrays)."""
    object.__setattr__(obj, name, number(where or name, getattr(obj, name), low, low_open=False, integer=True,
                                         high=high, why=why))


def choice(where: str, value: Any, choices: tuple[str, ...] | list[str]) -> str:
    if value not in choices:
        raise fail(where, value, "one of " + ", ".join(choices))
    return value


def keys(where: str, data: Any, allowed: set[str]) -> dict:
    """``data`` as a dict whose keys are all in ``allowed``."""
    if not isinstance(data, dict):
        raise HcschedError(f"scenario field {where!r}: expected a table of settings, got {data!r}")
    extra = sorted(set(data) - allowed)
    if extra:
        raise HcschedError(f"scenario field {where!r}: unknown key {extra[0]!r}; allowed keys: "
                           f"{', '.join(sorted(allowed))}")
    return data


def seconds(where: str, value: Any, low: float = 0.0, low_open: bool = True) -> float:
    """A time in seconds above ``low`` (or at least) and at most :data:`MAX_SECONDS`."""
    return number(where, value, low, low_open, high=MAX_SECONDS, why="seconds; beyond it sums over many tasks lose "
                  "their precision or overflow")


def rate(where: str, value: Any, unit: str = "tasks per second") -> float:
    """A rate (or a speed) from 1 / :data:`MAX_RATE` to :data:`MAX_RATE`."""
    return number(where, value, 1.0 / MAX_RATE, low_open=False, high=MAX_RATE,
                  why=f"{unit}; outside it the times it gives overflow or underflow")


def cov(where: str, value: Any) -> float:
    """A coefficient of variation of a gamma law, from 1e-6 to :data:`MAX_COV`."""
    return number(where, value, 1e-6, low_open=False, high=MAX_COV, why="a coefficient of variation; outside it the "
                  "gamma's shape, 1 / COV^2, overflows or its draws underflow to 0")


def count(obj: Any, name: str, high: int, low: int = 1, where: str | None = None) -> None:
    """:func:`whole` up to ``high`` (:data:`MAX_TASKS`, :data:`MAX_MACHINES`): the arrays it sizes can be allocated."""
    whole(obj, name, low, where, high=high, why=SIZE_REASON)


def whole_argument(low: int, high: int | None = None):
    """An argparse ``type``: a whole number from ``low`` (to ``high``), else one line saying what is allowed."""
    allowed = f"a whole number from {low:,} to {high:,}" if high is not None else f"a whole number >= {low:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # not a whole number, or of more digits than Python converts
            value = None
        if value is None or value < low or high is not None and value > high:
            shown = text if len(text) <= 40 else text[:37] + "..."
            raise argparse.ArgumentTypeError(f"{shown!r} is not allowed; allowed: {allowed}")
        return value

    return parse
