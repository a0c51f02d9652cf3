"""Validation at the boundary: messages name the field, the value and what is allowed (CONVENTIONS, practice 4)."""

from __future__ import annotations

import math
from typing import Any

from hcsched.errors import HcschedError


def fail(field_name: str, value: Any, allowed: str) -> HcschedError:
    return HcschedError(f"scenario field {field_name!r}: {value!r} is not allowed; allowed: {allowed}")


def number(where: str, value: Any, low: float = 0.0, low_open: bool = True, integer: bool = False) -> float:
    """A finite number above ``low`` (or at least ``low``), optionally whole."""
    allowed = f"{'an integer' if integer else 'a number'} {'>' if low_open else '>='} {low:g}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(where, value, allowed)
    if math.isnan(value) or math.isinf(value) or (value <= low if low_open else value < low):
        raise fail(where, value, allowed)
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


def whole(obj: Any, name: str, low: int = 1, where: str | None = None) -> None:
    """Check that field ``name`` of the frozen dataclass ``obj`` is a whole number >= ``low``, and store it as an int
    (a file's or a sweep's ``4.0`` becomes 4, so that it can size arrays)."""
    object.__setattr__(obj, name, number(where or name, getattr(obj, name), low, low_open=False, integer=True))


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
        raise HcschedError(f"scenario field {where!r}: unknown key {extra[0]!r}; allowed keys: {', '.join(sorted(allowed))}")
    return data
