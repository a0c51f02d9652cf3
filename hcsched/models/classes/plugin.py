"""Your own heuristic of the task-class model (Al-Azzoni and Down): the decision it makes and what it may read.

A heuristic of this model is an immediate-mode dispatcher (sections II-B and III): when a task of class i arrives at
time t it is sent at once to one machine, where it waits in that machine's FCFS queue. A plug-in's rule makes that one
decision::

    def rule(task: Task, machines: Machines, params: np.ndarray) -> int

and returns the index j of a machine that can run class i (``machines.mu[task.cls, j] > 0``); anything else (an
index out of range, an incapable machine, not an integer, an exception) stops the run with one
:class:`~hcsched.errors.HcschedError` line naming the heuristic and what is allowed.

What it may read (all read-only, the state just before the task is mapped, every departure up to ``task.now``
settled): :class:`Task` (the time, the class, three uniforms drawn for this task from the replication's seed) and
:class:`Machines` (the expected work W_j and the tasks waiting or running on each machine, the execution rates mu,
the allocation LP's delta*, the tasks of each class mapped to each machine so far and the arrivals of each class).
``params`` holds the heuristic's parameters as resolved, in the order declared, as floats (a choice parameter as the
index of its value among its choices).

The same rule runs two ways, in the same event loop (:func:`hcsched.models.classes.kernels.classes_loop`):

- a plain Python function runs in the loop's Python form (about a thousand times slower than a built-in, as Python
  is); the arrays it receives are read-only views;
- a ``numba.njit`` function is compiled into the loop as a first-class function of :data:`SIGNATURE`, so it runs at
  about the built-ins' speed; one compiled loop, kept in numba's disk cache, serves every rule.

Random choices must draw on ``task.u`` only (never on ``np.random`` or the clock): every heuristic of a replication
sees the same uniforms, so their comparison is by common random numbers, and the same seed gives the same run.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np
from numba import types
from numba.core.types import NamedTuple as NumbaNamedTuple


class Task(NamedTuple):
    """The arriving task (section II-A): what a rule knows of it.

    Parameters
    ----------
    now : float
        Its arrival time t, the time of the decision.
    cls : int
        Its class i (a row of ``Machines.mu``).
    u : numpy.ndarray
        Three uniforms in [0, 1), drawn for this task from the replication's seed and shared by every heuristic of
        the replication (common random numbers): the built-ins draw LP-Static's and LPAS-2/k's machines by the first
        two and break ties at random by the third.
    """

    now: float
    cls: int
    u: np.ndarray


class Machines(NamedTuple):
    """The machines' state as a mapper sees it (sections II-B, III-A and V), one entry per machine j.

    Parameters
    ----------
    work : numpy.ndarray
        W_j = sum over the tasks waiting or running on machine j of 1/mu_(class, j), the running one counted in full:
        the expected work MCT, KPB and LPAS add 1/mu_ij to (float, machines).
    queued : numpy.ndarray
        The tasks waiting or running on machine j (int, machines).
    mu : numpy.ndarray
        Execution rates mu_ij, classes x machines; 0 where machine j cannot run class i.
    delta : numpy.ndarray
        delta*_ij of the allocation LP (section III-A), classes x machines: the share of machine j's time the LP
        gives class i. LPAS uses S_i = {j : delta*_ij > 0}.
    assigned : numpy.ndarray
        Tasks of each class mapped to each machine so far, classes x machines (Guided-LPAS's alpha_ij(t-)).
    arrived : numpy.ndarray
        Arrivals of each class so far, this task included (int, classes).
    """

    work: np.ndarray
    queued: np.ndarray
    mu: np.ndarray
    delta: np.ndarray
    assigned: np.ndarray
    arrived: np.ndarray


class Rule(Protocol):
    """A plug-in's decision: the machine a class-i arrival is sent to."""

    def __call__(self, task: Task, machines: Machines, params: np.ndarray) -> int:
        """Choose a machine.

        Parameters
        ----------
        task : Task
            The arriving task.
        machines : Machines
            The machines' state (read-only).
        params : numpy.ndarray
            The heuristic's parameters, resolved, in the order declared (float; a choice as its index).

        Returns
        -------
        int
            A machine index j with ``machines.mu[task.cls, j] > 0``.
        """


_F1, _F2, _I1, _I2 = types.float64[::1], types.float64[:, ::1], types.int64[::1], types.int64[:, ::1]
TASK_TYPE = NumbaNamedTuple((types.float64, types.int64, _F1), Task)
MACHINES_TYPE = NumbaNamedTuple((_F1, _I1, _F2, _F2, _I2, _I1), Machines)
SIGNATURE = types.int64(TASK_TYPE, MACHINES_TYPE, _F1)
"""The numba signature of a jitted rule: ``@njit(SIGNATURE)`` fixes it (a plain ``@njit`` is compiled to it)."""
RULE_TYPE = types.FunctionType(SIGNATURE)
"""The rule's type in the event loop's signature (a first-class function)."""
