"""The kind codes of the value model's dynamic heuristics (Kim et al. 2007, section 4), all in one place.

A registry entry (:mod:`.heuristics`) stores its heuristic's code as a plain int, and
:func:`~hcsched.models.value.event.mapping_event` dispatches on it: inside numba kernels a kind is an int64, which
numba compares with a :class:`Kind` member as with the int it stands for.
"""

from __future__ import annotations

from enum import IntEnum, unique


@unique
class Kind(IntEnum):
    """One code per dynamic heuristic, named like it (``MAX_MAX`` for ``max-max``); the comment gives the paper's
    section. A new heuristic takes the next free code."""

    MAX_MAX = 0  # section 4.2
    MAX_MIN = 1  # section 4.3
    MIN_MIN = 2  # section 4.3
    PERCENT_BEST = 3  # section 4.4
    QUEUEING_TABLE = 4  # section 4.5
    RELATIVE_COST = 5  # section 4.6
    SLACK_SUFFERAGE = 6  # section 4.7
    SWITCHING = 7  # section 4.8


#: The code of every plug-in heuristic (:mod:`.plugin`): its rule decides the event, in the engine's loop.
PLUGIN = 100
