"""Your own heuristic of the time-shared model: the server chosen for an arriving task (Caniou and Jeannot, sections
4.3 and 6).

At each arrival (tasks in arrival order, one decision each: the heuristics are immediate, section 6) the historical
trace manager (HTM, section 4) predicts, for every server j, the completion dates of the server's tasks without the
new task (T') and with it (T), and the new task's own completion T_{n+1,j}; a heuristic returns the server the task
goes to. A rule is a function of :data:`SIGNATURE`::

    rule(now, cost, start, before, after, t_new, load, params, rng) -> server

- ``now`` (float): the arrival date a of the new task (s).
- ``cost`` (float64 array, servers x 3): the new task's input, compute and output times alone on each server (s).
- ``start`` (int64 array, servers + 1): server j's local tasks are entries ``start[j]:start[j + 1]`` of ``before``
  and ``after``: the paper's local tasks 1..n of j (section 4.3), from the oldest one not finished at a, in the
  order they were mapped (a later one may have finished already: its T' <= a).
- ``before`` (float64 array): T', each local task's predicted completion without the new task.
- ``after`` (float64 array): T, the same with the new task on that server (delta = T - T'); NaN when the rule does
  not ask for it (``predicts``).
- ``t_new`` (float64 array, servers): T_{n+1,j}, the new task's predicted completion on each server; NaN with
  ``predicts="off"``.
- ``load`` (float64 array, servers): the tasks mapped to each server and not finished at a (NetSolve's load as
  section 6.1 reads it).
- ``params`` (float64 array): the heuristic's parameters as resolved, in the order they were declared (a choice
  parameter: the index of its value among its choices).
- ``rng`` (:class:`numpy.random.Generator`): seeded from the trial's workload, fresh for each run: every heuristic
  of a trial gets the same stream (common random numbers), and a run is deterministic.

It returns the server's index, an integer from 0 to servers - 1: its decision, and nothing else. The inputs are what
it may read; in plain Python they are read-only.

Capabilities (keywords of :func:`hcsched.heuristic`): ``predicts`` says what the rule needs of the HTM, which is the
costly part of a decision: ``"full"`` (the default) T of every local task with the new one; ``"new"`` only the new
task's T_{n+1,j} (``after`` is NaN; each server is simulated only until the new task ends, as HMCT does); ``"off"``
no prediction with the new task (``after`` and ``t_new`` are NaN; T' and the load are kept anyway), as NetSolve's
MCT. ``cost(spec, heuristic_spec) -> seconds`` replaces the default cost model of the run estimate.

A numba ``@njit`` rule runs compiled inside the engine's jitted loop, passed to it as a first-class function of
:data:`SIGNATURE` (one compiled loop serves every rule and is cached across processes); a plain Python function
runs the same loop as plain Python (``engine.run_trial.py_func``), much slower. An exception a numba rule raises
stops the run with the exception's type only: test a numba rule as plain Python first (``rule.py_func``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Protocol

import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

from hcsched.errors import HcschedError

# the engine's loop takes the rule as a first-class function, which numba 0.68 still calls experimental
warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)

F64 = types.float64[::1]
GENERATOR = types.NumPyRandomGeneratorType("NumPyRandomGeneratorType")
# rule(now, cost, start, before, after, t_new, load, params, rng) -> server
SIGNATURE = types.int64(types.float64, types.float64[:, ::1], types.int64[::1], F64, F64, F64, F64, F64, GENERATOR)
RULE = types.FunctionType(SIGNATURE)  # the rule's type in the engine's loop
PREDICTS = ("full", "new", "off")  # what a rule asks of the HTM: predict_code gives the loop's number


class Rule(Protocol):
    """A time-shared heuristic's decision: the server an arriving task goes to (module docstring)."""

    def __call__(self, now: float, cost: np.ndarray, start: np.ndarray, before: np.ndarray, after: np.ndarray,
                 t_new: np.ndarray, load: np.ndarray, params: np.ndarray, rng: np.random.Generator) -> int:
        """Choose a server.

        Parameters
        ----------
        now : float
            The new task's arrival date a (s).
        cost : numpy.ndarray
            Servers x 3: the new task's input, compute and output times alone on each server (s).
        start : numpy.ndarray
            Servers + 1 offsets: server j's local tasks are ``before[start[j]:start[j + 1]]``.
        before, after : numpy.ndarray
            T' and T of the local tasks, without and with the new task on their server (section 4.3).
        t_new : numpy.ndarray
            T_{n+1,j}: the new task's predicted completion on each server.
        load : numpy.ndarray
            The tasks of each server not finished at ``now``.
        params : numpy.ndarray
            The parameters as resolved, in declared order (a choice: its index).
        rng : numpy.random.Generator
            Seeded from the trial's workload.

        Returns
        -------
        int
            The server's index, 0 to servers - 1.
        """


def local(start: np.ndarray, values: np.ndarray, j: int) -> np.ndarray:
    """Server j's entries of ``before`` or ``after`` (its local tasks 1..n).

    Parameters
    ----------
    start : numpy.ndarray
        The rule's ``start`` offsets.
    values : numpy.ndarray
        ``before`` or ``after``.
    j : int
        A server.

    Returns
    -------
    numpy.ndarray
        ``values[start[j]:start[j + 1]]``.
    """
    return values[start[j]:start[j + 1]]


def predict_code(predicts: str, name: str) -> int:
    """The engine's number of a ``predicts`` capability (0 full, 1 new, 2 off), or an error naming those allowed."""
    if predicts not in PREDICTS:
        raise HcschedError(f"heuristic {name!r}: predicts={predicts!r} is not allowed; allowed: {', '.join(PREDICTS)}")
    return PREDICTS.index(predicts)


def is_compiled(rule: Callable) -> bool:
    """Whether ``rule`` is a numba dispatcher (``@njit``), which runs inside the compiled loop."""
    return hasattr(rule, "py_func") and hasattr(rule, "overloads")


def _read_only(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.setflags(write=False)
    return view


def python_rule(rule: Callable, name: str) -> Callable:
    """A plain Python rule as the loop calls it: the arrays read-only, the decision checked to be an integer (its
    range is checked by the loop), any error one :class:`~hcsched.errors.HcschedError` line naming the heuristic.

    Parameters
    ----------
    rule : Callable
        The user's function (:class:`Rule`).
    name : str
        The heuristic's name, for the errors.

    Returns
    -------
    Callable
        A function of the same arguments.
    """
    def call(now, cost, start, before, after, t_new, load, params, rng):
        try:
            j = rule(float(now), _read_only(cost), _read_only(start), _read_only(before), _read_only(after),
                     _read_only(t_new), _read_only(load), _read_only(params), rng)
        except HcschedError:
            raise
        except Exception as exc:  # noqa: BLE001  (a user's rule: its error in one line)
            raise HcschedError(f"heuristic {name!r}: its rule raised {type(exc).__name__}: {exc}".splitlines()[0]) \
                from None
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)):
            raise HcschedError(f"heuristic {name!r}: its rule returned {j!r}; allowed: a server index, an integer "
                               f"from 0 to {cost.shape[0] - 1}")
        return int(j)

    return call
