"""Your own heuristic of the value model: the decision it makes at a mapping event (Kim et al. 2007, sections 4.1-4.2).

At every arrival (section 4.1) the mappable tasks (the new task and every waiting task except the first of each
queue, which stays fixed) are taken out of the machines' queues, and a heuristic puts each of them back: it returns
the (task, machine) pairs in the order they are appended to the queues, as the paper's rebuilding heuristics (Max-Max,
Min-Min, Relative Cost, ...) do. Each machine then runs its queue in order, one task at a time.

A rule is a function ``rule(now, end, tasks, machines, params) -> pairs``:

- ``now`` (float): the arrival time of the new task, in seconds; ``end`` (float): the end E of the evaluation window.
- ``tasks`` (:class:`Tasks`): the S mappable tasks in increasing id (arrival order): ``id``, ``etc`` (S x M expected
  times), ``priority`` (0 high, 1 medium, 2 low), ``weight`` (the weighted priority p), the deadlines ``d100``,
  ``d50``, ``d25`` and ``arrival``.
- ``machines`` (:class:`Machines`): ``ready``, each machine's available time mat(j) after its running task and the
  fixed first task of its queue (section 6), and ``head``, that fixed task's id (-1: none).
- ``params`` (float64 array): the heuristic's parameters as resolved, in the order they were declared (a choice
  parameter: the index of its value among its choices).
- random numbers: call ``np.random`` (``np.random.random()``, ``np.random.randint(a, b)``, ...); hcsched seeds it from
  the trial's workload before each run, so that a run is deterministic and every trial's draws are its own.

It returns ``pairs``: an int64 array of S rows (row, machine), ``row`` indexing ``tasks`` (0..S-1, each exactly once)
and ``machine`` in 0..M-1, in the order they are appended. Reading the inputs is all it may do: they are read-only in
plain Python.

A plain Python function runs the engine's loop as plain Python (``engine.simulate.py_func``); a numba ``@njit``
function runs compiled inside the jitted loop, passed to it as a first-class function of :data:`SIGNATURE` (one
compiled loop serves every rule, and it is cached across processes). A numba rule must build its result as
``np.empty((tasks.id.size, 2), np.int64)``; an exception raised inside a numba rule cannot cross the compiled loop, so
test a numba rule as plain Python first (``rule.py_func``).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple, Protocol

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.types import WrapperAddressProtocol
from numba.experimental.function_type import _get_wrapper_address

from hcsched.errors import HcschedError

# the engine's loop takes a rule as a first-class function (numba calls the feature experimental; it is what makes one
# compiled loop serve every rule): its warning, given when the loop compiles, says nothing to a user
warnings.filterwarnings("ignore", message="First-class function type feature is experimental",
                        category=NumbaExperimentalFeatureWarning)


class Tasks(NamedTuple):
    """The mappable tasks of one event (section 4.1), in increasing id.

    Parameters
    ----------
    id : int64 array (S,)
        Task ids: the arrival order of the trial (0 is the first arrival).
    etc : float64 array (S, M)
        Expected execution times on each machine (section 6).
    priority : int64 array (S,)
        0 high, 1 medium, 2 low.
    weight : float64 array (S,)
        The weighted priority p (section 2.2.1).
    d100, d50, d25 : float64 array (S,)
        The three soft deadlines (section 2.2.2).
    arrival : float64 array (S,)
        Arrival times (s).
    """

    id: np.ndarray
    etc: np.ndarray
    priority: np.ndarray
    weight: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray
    arrival: np.ndarray


class Machines(NamedTuple):
    """The machines at one event.

    Parameters
    ----------
    ready : float64 array (M,)
        mat(j): when machine j is free of its running task and the fixed first task of its queue (section 6).
    head : int64 array (M,)
        The id of that fixed first task, -1 where the queue is empty.
    """

    ready: np.ndarray
    head: np.ndarray


class Rule(Protocol):
    """A plug-in rule of the value model: the pairs (row of ``tasks``, machine), in the order they are appended."""

    def __call__(self, now: float, end: float, tasks: Tasks, machines: Machines, params: np.ndarray) -> np.ndarray:
        ...


_I1, _F1, _F2 = types.int64[::1], types.float64[::1], types.float64[:, ::1]
TASKS_TYPE = types.NamedTuple((_I1, _F2, _I1, _F1, _F1, _F1, _F1, _F1), Tasks)
MACHINES_TYPE = types.NamedTuple((_F1, _I1), Machines)
#: The numba signature of a compiled rule: pairs (S x 2, int64) from now, end, tasks, machines, params.
SIGNATURE = types.int64[:, ::1](types.float64, types.float64, TASKS_TYPE, MACHINES_TYPE, _F1)


class JitRule(WrapperAddressProtocol):
    """A numba rule as a first-class function of :data:`SIGNATURE`: the engine's jitted loop is compiled once for
    this type, so every rule runs in the same compiled loop, cached across processes.

    Parameters
    ----------
    dispatcher : numba dispatcher
        The user's ``@njit`` function; compiled for :data:`SIGNATURE` when first passed to the loop.
    """

    def __init__(self, dispatcher) -> None:
        self.dispatcher = dispatcher

    def __wrapper_address__(self) -> int:
        return _get_wrapper_address(self.dispatcher, SIGNATURE)

    def signature(self):
        return SIGNATURE

    def __reduce__(self):
        return JitRule, (self.dispatcher,)


def compiled(rule, name: str) -> JitRule:
    """A numba rule made ready for the loop (compiled for :data:`SIGNATURE` now), or one clear error line.

    Parameters
    ----------
    rule : numba dispatcher
        The user's ``@njit`` rule.
    name : str
        The heuristic's name, for the error.

    Returns
    -------
    JitRule
    """
    try:
        rule.compile(SIGNATURE.args)
    except Exception as exc:  # noqa: BLE001  (a user's rule: its typing error in one line)
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise HcschedError(f"plug-in heuristic {name!r}: its numba rule does not compile as rule(now, end, tasks, "
                           f"machines, params) -> int64 array (S x 2): {first}") from None
    return JitRule(rule)


@njit(cache=True)
def _no_rule(now, end, tasks, machines, params):
    """The rule argument of a built-in heuristic's loop: never called."""
    return np.empty((0, 2), np.int64)


NO_RULE = JitRule(_no_rule)


def tasks_view(ids, etc, prio, weight, d100, d50, d25, arrival, frozen: bool = False) -> Tasks:
    """A :class:`Tasks` of the given arrays; ``frozen``: read-only copies (a plain Python rule's view)."""
    out = Tasks(ids, etc, prio, weight, d100, d50, d25, arrival)
    return Tasks(*(_frozen(a) for a in out)) if frozen else out


def machines_view(ready, head, frozen: bool = False) -> Machines:
    """A :class:`Machines` of the given arrays; ``frozen``: read-only copies."""
    return Machines(_frozen(ready), _frozen(head)) if frozen else Machines(ready, head)


def _frozen(a: np.ndarray) -> np.ndarray:
    out = np.array(a)
    out.setflags(write=False)
    return out
