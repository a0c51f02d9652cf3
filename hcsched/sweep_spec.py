"""What a sweep is, below the models that define built-in ones: the keys it varies with their values (the syntax of
``--vary``) and :class:`SweepPreset`, a built-in sweep of a model (its ``sweeps()``). Running one is
:mod:`hcsched.sweep`'s work.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from hcsched.errors import HcschedError

if TYPE_CHECKING:
    from hcsched.scenario import Scenario

MAX_POINTS = 10_000  # points of a sweep's grid (the product of its keys' values): each is checked as a scenario first


@dataclass(frozen=True)
class SweepPreset:
    """A built-in sweep: a scenario, the grid of its keys to vary (:func:`parse_vary`), and the paper's claim."""

    name: str
    description: str
    scenario: Callable[[], Scenario]
    vary: dict[str, list]
    claim: str = ""  # what the paper says the curves show


def _scalar(text: str) -> Any:
    """A value as typed: an integer, a number, true/false, null, or the text itself."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, an integer of too many digits, nested too deeply
        return text


def parse_values(key: str, text: str) -> list[Any]:
    """``a,b,c``, ``START:STOP:COUNT`` (``:log`` appended for log spacing) or a JSON array as a list of values."""
    text = text.strip()
    if text.startswith("["):  # a JSON array of values, for values that are lists: arrival_rates=[[5,8],[6,9.6]]
        try:
            values = json.loads(text)
        except RecursionError:
            raise HcschedError(f"--vary {key}: nested too deeply; allowed: a JSON array of values") from None
        except ValueError as exc:
            raise HcschedError(f"--vary {key}: {text[:60]!r} is not a JSON array ({exc})") from None
        if not isinstance(values, list) or not values:
            raise HcschedError(f"--vary {key}: allowed: a non-empty JSON array of values")
        return values
    parts = text.split(":")
    if len(parts) in (3, 4) and "," not in text:
        where = f"--vary {key}={text}"
        try:
            start, stop, count = float(parts[0]), float(parts[1]), int(parts[2])
        except ValueError:
            raise HcschedError(f"{where}: allowed: START:STOP:COUNT with two numbers and "
                               "a whole count, optionally :log") from None
        log = len(parts) == 4
        if log and parts[3] != "log" or not 1 <= count <= MAX_POINTS:
            raise HcschedError(f"{where}: allowed: START:STOP:COUNT with COUNT from 1 to "
                               f"{MAX_POINTS:,}, optionally :log")
        if not all(map(np.isfinite, (start, stop))):
            raise HcschedError(f"{where}: allowed: START:STOP:COUNT with two finite numbers")
        if log and (start <= 0 or stop <= 0):
            raise HcschedError(f"{where}: log spacing needs START and STOP above 0")
        grid = [float(f"{v:.12g}") for v in (np.geomspace(start, stop, count) if log
                                             else np.linspace(start, stop, count))]
        if all(p.strip().lstrip("+-").isdigit() for p in parts[:2]) and all(v.is_integer() for v in grid):
            return [int(v) for v in grid]  # whole START and STOP, whole steps: 4:16:4 is 4, 8, 12, 16 (machines, tasks)
        return grid
    values = [_scalar(v.strip()) for v in text.split(",")]
    if not text or any(v == "" for v in values):
        raise HcschedError(f"--vary {key}={text}: an empty value; allowed: a comma list or START:STOP:COUNT")
    return values


def parse_vary(vary: dict[str, Iterable[Any]] | Iterable[str]) -> dict[str, list[Any]]:
    """``{"KEY": [values]}`` from a dict, or from ``["KEY=VALUES", ...]`` as typed on the command line."""
    if isinstance(vary, dict):
        out = {str(k): (parse_values(k, v) if isinstance(v, str) else list(v)) for k, v in vary.items()}
    else:
        out = {}
        for item in vary:
            key, sep, text = str(item).partition("=")
            if not sep or not key.strip():
                raise HcschedError(f"--vary {item!r}: allowed: KEY=VALUES, e.g. arrivals.rate=0.001,0.002")
            if key.strip() in out:
                raise HcschedError(f"--vary {key.strip()}: given twice; give each KEY once")
            out[key.strip()] = parse_values(key.strip(), text)
    if not out:
        raise HcschedError("vary: empty; give at least one KEY=VALUES")
    for key, values in out.items():
        if not values:
            raise HcschedError(f"vary {key}: no values")
        if key in ("trials", "name", "description"):
            raise HcschedError(f"vary {key}: not a parameter of the system; give the number of trials with --trials")
    points = math.prod(len(values) for values in out.values())
    if points > MAX_POINTS:
        sizes = " x ".join(f"{len(v):,}" for v in out.values())
        raise HcschedError(f"vary: {sizes} = {points:,} points; allowed: at most {MAX_POINTS:,} points in a sweep "
                           "(run it as several sweeps)")
    return out
