"""Built-in heuristics of the ETC model made through the plug-in interface (:mod:`..plugin`), as a user's are: each
module here holds its rule with its registry entry in ``HEURISTICS``, and :func:`discovered` gathers them, so that
adding one touches its own module, its test and its line of documentation only."""

from __future__ import annotations

import importlib
import pkgutil

from hcsched.heuristics import Heuristic


def discovered() -> tuple[Heuristic, ...]:
    """The heuristics of every module of this package (its ``HEURISTICS``), modules in name order.

    Returns
    -------
    tuple of Heuristic
    """
    found: list[Heuristic] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found += getattr(module, "HEURISTICS", ())
    return tuple(found)
