"""This machine's pace per model: how many times its cost estimate (``Model.trial_seconds``, whose constants were
measured on another machine) a run of the model's default preset takes here, on one quiet core.

``hcsched warm-up`` (the README's install step) measures it once the kernels are compiled
(:func:`hcsched.cli.measure_pace`), and keeps it beside them
in the kernels' cache folder (named by their sources, so a change of a kernel measures again). The pool takes it as
a model's pace until it has measured that model's own chunks (:meth:`hcsched.pool.Pool.pace`): without it, a first
run of the time-shared default on a 2-core machine said "about 3 s left" and took 10 s (its chunks ran 2.7 times
their estimate here), and the count, which never rises, said "taking longer than estimated" for most of the run.
"""

from __future__ import annotations

import functools
import json
import math
import os
from pathlib import Path

FILE = "paces.json"
LIMITS = (0.5, 4.0)  # a pace read outside these is taken at the nearer (a measurement on a machine loaded meanwhile)


def paces_file() -> Path | None:
    """Where the paces are kept: in the kernels' cache folder, hcsched's own; None without one."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / FILE if folder else None


def record(paces: dict[str, float]) -> Path | None:
    """Keep ``paces`` (model -> pace), with those measured before of other models; the file written, or None where
    there is no cache folder or it cannot be written."""
    path = paces_file()
    if path is None:
        return None
    try:
        kept = {**_read(path), **{k: round(float(v), 3) for k, v in paces.items()}}
        path.write_text(json.dumps(kept, sort_keys=True) + "\n")
    except OSError:
        return None
    measured_paces.cache_clear()
    return path


def _read(path: Path) -> dict[str, float]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): float(v) for k, v in data.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0}


@functools.cache
def measured_paces() -> dict[str, float]:
    """Model -> its pace here as ``hcsched warm-up`` measured it (within ``LIMITS``); {} where none was."""
    path = paces_file()
    low, high = LIMITS
    return {k: min(high, max(low, v)) for k, v in _read(path).items()} if path is not None else {}
