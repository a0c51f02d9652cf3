"""Your own heuristic of the estimation model (Page, Keane and Naughton, JPDC 2008): the mapping it makes at a mapping
event and what it may read.

At every mapping event (the scenario's ``mapping``: ``"return"``, every release and every return, when every
unstarted task is mapped again; ``"release"``, each release, when only the released tasks are mapped, behind the queued
ones) a heuristic maps the unstarted tasks of the problems something is known about, given their estimates and the
errors of those estimates (sections 3.2-3.4). The tasks of a problem nothing has returned of yet are dealt round robin
before it, as for every heuristic (section 2.2). A plug-in's rule makes that decision::

    rule(now, tasks, processors, params, rng) -> decisions

- ``now`` (float): the time of the event, in seconds.
- ``tasks`` (:class:`Tasks`): the S tasks to map, in increasing id: per task i and processor j the planned time e_ij
  (ETC in the heuristic's case plus C, what Alg. 2 adds to ST_j), ETC, C, the predicted error ET and EW (eq. 10).
- ``processors`` (:class:`Processors`): each processor's load ST_j (eq. 12) and whether it is idle.
- ``params`` (float64 array): the heuristic's parameters as resolved, in the order declared (a choice as the index of
  its value among its choices, an optional one left off as NaN).
- ``rng`` (:class:`numpy.random.Generator`): seeded from the trial's workload, one for each run: every heuristic of a
  trial draws the same numbers (common random numbers) and the same seed gives the same run. Draw from it only.

It returns its decisions only: an int array of S processors (task row r goes to processor ``out[r]``, each processor
running its tasks in row order), or an int array of S (row, processor) pairs in mapping order (each processor runs
its tasks in that order). Every row of ``tasks`` once, every processor in 0..M-1. Anything else (a processor out of
range, a task missing or twice, not integers, an exception) stops the run with one
:class:`~hcsched.errors.HcschedError` line naming the heuristic and what is allowed.

**Plain Python or numba.** The event loop is plain Python and calls the rule once per mapping event, so one path
serves both: a plain Python function is called as it is, a numba ``@njit`` function runs compiled (numba compiles it
for these argument types on its first call; ``@njit(cache=True)`` keeps it across processes). The arrays are read-only
in both (in numba, writing to one is a compile error): build the result in an array of your own.

**Cost model.** A plug-in's part of the run estimate defaults to the earliest-first baseline's (EF, section 5.4: one
pass over the S x M estimates per event), times :data:`PYTHON_FACTOR` for a plain Python rule; give your own with
``cost=`` (a function ``(spec, heuristic_spec) -> seconds`` of one trial).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import numpy as np

from hcsched.errors import HcschedError

NUMBA_FACTOR = 1.3  # a jitted rule's run against EF's: EW and the views are computed at every event (measured)
PYTHON_FACTOR = 4.0  # a plain Python rule's run against EF's (an EF rule written with numpy rows, measured)


class Tasks(NamedTuple):
    """The S tasks of one mapping event, in increasing id (sections 3.1-3.2).

    Parameters
    ----------
    id : numpy.ndarray
        int64 (S,): the tasks' ids in the trial (the rows of the schedules table).
    problem : numpy.ndarray
        int64 (S,): each task's problem, by its order in the scenario.
    stage : numpy.ndarray
        int64 (S,): each task's stage of its problem.
    e : numpy.ndarray
        float64 (S, M): the planned time e_ij, ETC in the heuristic's case (``case`` parameter if it has one, else the
        best case) plus C: the time Alg. 2 adds to ST_j when it maps task i to processor j.
    etc : numpy.ndarray
        float64 (S, M): the estimated computation time ETC_ij (k-NN or smoothed, section 2.3).
    comm : numpy.ndarray
        float64 (S, M): the estimated communication time C_ij.
    error : numpy.ndarray
        float64 (S, M): the predicted estimation error ET_ij, a fraction (section 3.1).
    ew : numpy.ndarray
        float64 (S, M): EW_ij = ET C / ETC (eq. 10), floored at the estimator's eps.
    """

    id: np.ndarray
    problem: np.ndarray
    stage: np.ndarray
    e: np.ndarray
    etc: np.ndarray
    comm: np.ndarray
    error: np.ndarray
    ew: np.ndarray


class Processors(NamedTuple):
    """The M processors' state at the event.

    Parameters
    ----------
    st : numpy.ndarray
        float64 (M,): ST_j of eq. 12 before this mapping adds to it, by the heuristic's ``st`` parameter if it has one
        ("relative": the planned time of the running task plus the queue; "absolute": the estimated clock time the
        processor is free), else "absolute"; with ``mapping: "release"`` it includes the tasks already queued.
    idle : numpy.ndarray
        bool (M,): the processors that run nothing and have nothing queued: the first task this mapping gives each
        starts now.
    """

    st: np.ndarray
    idle: np.ndarray


class Rule(Protocol):
    """A plug-in's decision: the processor of every task of a mapping event, in mapping order."""

    def __call__(self, now: float, tasks: Tasks, processors: Processors, params: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
        """Map the event's tasks.

        Parameters
        ----------
        now : float
            The time of the event (s).
        tasks : Tasks
            The tasks to map and their estimates (read-only).
        processors : Processors
            The processors' loads and which are idle (read-only).
        params : numpy.ndarray
            The heuristic's parameters, resolved, in the order declared (float64; a choice as its index).
        rng : numpy.random.Generator
            The run's generator, seeded from the trial's workload.

        Returns
        -------
        numpy.ndarray
            int (S,): the processor of each task row, or int (S, 2): (row, processor) pairs in mapping order.
        """


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (the engine's array stays writable to the engine)."""
    view = np.asarray(a).view()
    view.setflags(write=False)
    return view


def decisions(name: str, out: Any, rows: int, machines: int) -> np.ndarray:
    """A rule's answer checked and as (row, processor) pairs in mapping order.

    Parameters
    ----------
    name : str
        The heuristic's name, for the error.
    out : object
        What the rule returned.
    rows, machines : int
        The event's tasks S and processors M.

    Returns
    -------
    numpy.ndarray
        int64 (S, 2).

    Raises
    ------
    HcschedError
        One line naming the heuristic, what it returned and what is allowed.
    """
    allowed = (f"allowed: an int array of {rows} processors (0 to {machines - 1}), one per task row, or {rows} "
               f"(row, processor) pairs in mapping order, every row 0 to {rows - 1} once")
    try:
        a = np.asarray(out)
    except Exception:  # noqa: BLE001  (anything a user's rule returns is answered in one line)
        a = np.asarray(None)
    if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        got = f"{type(out).__name__}" + (f" of {a.dtype}" if isinstance(out, np.ndarray) else "")
        raise HcschedError(f"heuristic {name!r}: the rule returned {got}, not integers; {allowed}")
    if a.ndim == 1 and a.size == rows:
        pairs = np.column_stack([np.arange(rows, dtype=np.int64), a.astype(np.int64)])
    elif a.ndim == 2 and a.shape == (rows, 2):
        pairs = a.astype(np.int64)
    else:
        raise HcschedError(f"heuristic {name!r}: the rule returned an array of shape {a.shape} for {rows} tasks; "
                           f"{allowed}")
    bad = (pairs[:, 1] < 0) | (pairs[:, 1] >= machines)
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        raise HcschedError(f"heuristic {name!r}: the rule mapped task row {int(pairs[r, 0])} to processor "
                           f"{int(pairs[r, 1])}; {allowed}")
    row = pairs[:, 0]
    if ((row < 0) | (row >= rows)).any() or np.unique(row).size != rows:
        raise HcschedError(f"heuristic {name!r}: the rule's rows are not every task row once; {allowed}")
    return pairs


def call(name: str, rule: Callable, now: float, tasks: Tasks, processors: Processors, params: np.ndarray,
         rng: np.random.Generator) -> np.ndarray:
    """Run a plug-in's rule on one event: its decisions as checked (row, processor) pairs in mapping order.

    Parameters
    ----------
    name : str
        The heuristic's name, for errors.
    rule : Rule
        The user's function (plain Python or numba).
    now, tasks, processors, params, rng
        As :class:`Rule` reads them (the arrays read-only).

    Returns
    -------
    numpy.ndarray
        int64 (S, 2), from :func:`decisions`.

    Raises
    ------
    HcschedError
        When the rule raises (its error in one line) or returns a bad decision.
    """
    try:
        out = rule(float(now), tasks, processors, params, rng)
    except HcschedError as exc:
        raise HcschedError(f"heuristic {name!r}: {exc}") from None
    except Exception as exc:  # noqa: BLE001  (a user's rule: its error in one line, naming the heuristic)
        text = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise HcschedError(f"heuristic {name!r}: the rule raised {text}; allowed: return the processor of each "
                           "task row (see hcsched.models.estimation.plugin)") from None
    return decisions(name, out, tasks.e.shape[0], processors.st.size)
