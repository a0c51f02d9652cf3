"""Your own heuristic in the ETC model (Maheswaran et al. 1999): the decision a rule makes, what it reads and what it
returns.

An **immediate rule** (section 3.2) maps each task once, when it arrives::

    rule(e, ready, now, params, state) -> machine

- ``e`` (float64[m], read-only): the task's expected time to compute (ETC) on each machine;
- ``ready`` (float64[m], read-only): each machine's expected ready time, never earlier than ``now`` (the running
  task's start plus its ETC, plus the ETC of the tasks queued behind it, section 3.1);
- ``now`` (float): the task's arrival time;
- ``params`` (float64[k], read-only): the heuristic's own parameters as resolved, in declared order (a choice as the
  index of its value, "off" as NaN; one 0.0 when it has none);
- ``state`` (float64[16]): the rule's own memory for the trial, zeros at its start, which the rule may write;
- returns the index of the machine (0 to m - 1) the task goes to; it runs there after the tasks already queued.

A **batch rule** (section 3.3) maps the meta-task (the tasks arrived and not yet started, in arrival order) at each
mapping event, whole::

    rule(E, zeta, ready, now, params, state, out_task, out_machine) -> count

- ``E`` (float64[S, m], read-only): the meta-task's ETC rows; ``zeta`` (float64[S], read-only): each task's aging
  factor 1 + age / sigma (1 without aging, section 3.3);
- ``ready`` (float64[m]): each machine's expected ready time at the event, never earlier than ``now``, the event's
  time (in plain Python a read-only copy; in numba treat it as yours to change);
- ``params``, ``state``: as above (the state is kept from event to event);
- writes its decisions, in the order it makes them, to ``out_task[g]`` (a row of ``E``) and ``out_machine[g]`` (its
  machine), and returns their number: every task of the meta-task once (count = S). Each machine runs its tasks in
  that order; tasks not started by the next event are mapped again with it.

When mapping events happen is the engine's, as for the papers' batch heuristics: every batch heuristic takes the
parameters strategy, interval, kappa and aging (``BATCH_PARAMS``).

**numba or plain Python.** A numba ``@njit`` rule runs compiled inside the engine's loop (passed to it as a
first-class function of the signature :data:`IMMEDIATE_SIGNATURE` or :data:`BATCH_SIGNATURE`; the loop is compiled
once and cached). A plain Python function runs in the same loop's ``.py_func``, with its arrays read-only and its
answers checked: slower, for trying an idea. **Random draws**: use ``np.random`` (``np.random.random()``,
``np.random.randint(m)``); each trial seeds it from the trial's workload before its first decision (numba's
generator in compiled code, numpy's global one in Python), so every heuristic of a trial sees the same workload and
the same seed (common random numbers), and the same scenario gives the same results.

**Errors.** A rule that raises, returns a machine out of range or (batch) does not map every task once stops the run
with one :class:`~hcsched.errors.HcschedError` line naming the heuristic and what is allowed.

**Cost model.** A plug-in's part of the run estimate defaults to a comparable built-in's (MCT's scan for a numba
immediate rule, Min-min's whole mapping for a numba batch rule, scaled up for plain Python); give your own with
``cost=`` (a function ``(spec, heuristic_spec) -> seconds`` of one trial), e.g. ``@hcsched.heuristic("etc",
cost=lambda spec, h: 1e-6 * spec.tasks)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import numpy as np
from numba.core.dispatcher import Dispatcher

from hcsched.errors import HcschedError
from hcsched.models.etc import batch, immediate

IMMEDIATE_SIGNATURE = immediate.RULE_SIGNATURE  # int64(float64[::1] x2, float64, float64[::1] x2)
# int64(float64[:, ::1], float64[::1] x2, float64, float64[::1] x2, int64[::1] x2)
BATCH_SIGNATURE = batch.RULE_SIGNATURE


class ImmediateRule(Protocol):
    """An immediate-mode rule (section 3.2): the machine an arriving task goes to."""

    def __call__(self, e: np.ndarray, ready: np.ndarray, now: float, params: np.ndarray,
                 state: np.ndarray) -> int:
        """Choose a machine.

        Parameters
        ----------
        e : ndarray of float64, shape (m,)
            The task's expected time on each machine (read-only).
        ready : ndarray of float64, shape (m,)
            Each machine's expected ready time, never earlier than ``now`` (read-only).
        now : float
            The task's arrival time.
        params : ndarray of float64
            The heuristic's own parameters, resolved, in declared order (read-only).
        state : ndarray of float64, shape (16,)
            The rule's memory for the trial (zeros at its start; writable).

        Returns
        -------
        int
            The machine's index, 0 to m - 1.
        """


class BatchRule(Protocol):
    """A batch-mode rule (section 3.3): the whole mapping of a meta-task at one mapping event."""

    def __call__(self, E: np.ndarray, zeta: np.ndarray, ready: np.ndarray, now: float, params: np.ndarray,
                 state: np.ndarray, out_task: np.ndarray, out_machine: np.ndarray) -> int:
        """Map every task of the meta-task.

        Parameters
        ----------
        E : ndarray of float64, shape (S, m)
            The meta-task's expected times, one row per task in arrival order (read-only).
        zeta : ndarray of float64, shape (S,)
            Each task's aging factor (1 without aging; read-only).
        ready : ndarray of float64, shape (m,)
            Each machine's expected ready time at the event, never earlier than ``now``.
        now : float
            The mapping event's time.
        params : ndarray of float64
            The heuristic's own parameters, resolved, in declared order (read-only).
        state : ndarray of float64, shape (16,)
            The rule's memory for the trial (kept from event to event; writable).
        out_task, out_machine : ndarray of int64, shape (at least S,)
            Where the decisions go, in the order made: row ``out_task[g]`` to machine ``out_machine[g]``.

        Returns
        -------
        int
            The number of decisions written: S, every task once.
        """


def is_compiled(rule: Any) -> bool:
    """Whether ``rule`` is a numba function (``@njit``), which runs compiled inside the engine's loop."""
    return isinstance(rule, Dispatcher)


def _error(h: Any, what: str) -> HcschedError:
    return HcschedError(f"heuristic {h.name!r} ({h.origin}): {what}")


def _read_only(a: np.ndarray, copy: bool = False) -> np.ndarray:
    view = a.copy() if copy else a.view()
    view.setflags(write=False)
    return view


def _index(h: Any, value: Any, size: int, what: str) -> int:
    """``value`` as an index from 0 to size - 1, else an error naming the heuristic and what is allowed."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not 0 <= value < size:
        raise _error(h, f"its rule returned {value!r} as a {what}; allowed: an integer from 0 to {size - 1}")
    return int(value)


def _call(h: Any, *args: Any) -> Any:
    try:
        return h.rule(*args)
    except HcschedError:
        raise
    except Exception as exc:  # noqa: BLE001  (a user's rule: its error in one line, naming the heuristic)
        raise _error(h, f"its rule raised {type(exc).__name__}: {exc}".splitlines()[0]) from None


def python_immediate(h: Any) -> Callable:
    """A plain Python immediate rule of heuristic ``h`` as the engine's loop calls it: its arrays read-only, its
    answer checked."""
    def call(e, ready, now, params, state):
        j = _call(h, _read_only(e), _read_only(ready, copy=True), float(now), _read_only(params), state)
        return _index(h, j, e.size, "machine")
    return call


def python_batch(h: Any) -> Callable:
    """A plain Python batch rule of heuristic ``h`` as the engine's loop calls it: its inputs read-only, its
    decisions checked."""
    def call(E, zeta, ready, now, params, state, out_task, out_machine):
        S, m = E.shape
        count = _call(h, _read_only(E), _read_only(zeta), _read_only(ready, copy=True), float(now),
                      _read_only(params), state, out_task, out_machine)
        if isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer)) or count != S:
            raise _error(h, f"its rule returned {count!r}; allowed: the number of decisions written, every task of "
                         f"the meta-task once ({S})")
        seen = np.zeros(S, bool)
        for g in range(S):
            s = _index(h, out_task[g], S, "task (a row of the meta-task)")
            if seen[s]:
                raise _error(h, f"its rule assigned task {s} twice; allowed: every task of the meta-task once")
            seen[s] = True
            _index(h, out_machine[g], m, "machine")
        return int(count)
    return call


def seed_python(h: Any, seed: int) -> None:
    """Before a trial of a plain Python rule: seed numpy's global generator, which it draws from."""
    if not is_compiled(h.rule) and h.rule is not None:
        np.random.seed(seed)


@contextlib.contextmanager
def rule_errors(h: Any, machines: int) -> Iterator[None]:
    """Turn what a rule raised inside the engine (a numba rule's exception, a check of its answer) into one
    :class:`~hcsched.errors.HcschedError` line naming the heuristic and what is allowed."""
    try:
        yield
    except HcschedError:
        raise
    except ValueError as exc:
        text = str(exc)
        if "unknown heuristic kind" in text:
            raise
        if "machine index out of range" in text:
            text += f"; allowed: a machine index from 0 to {machines - 1}"
        elif "task" in text:
            text += "; allowed: every task of the meta-task once, each to a machine from 0 to " f"{machines - 1}"
        raise _error(h, text) from None
    except Exception as exc:  # noqa: BLE001  (a numba rule's own error, in one line)
        raise _error(h, f"its rule raised {type(exc).__name__}: {exc}".splitlines()[0]) from None
