"""One battery of checks that every heuristic passes, the papers' and yours (in the spirit of scikit-learn's
``check_estimator``).

:func:`check_heuristic` runs a heuristic through its model's small scenario (``Model.tiny``) and checks what every
heuristic of hcsched promises: a valid schedule by the model's invariants, the same results from the same seed,
common random numbers, a cost model for the run estimate, an Explain trace that agrees with its assignment where the
model has Explain, and no effect on any other heuristic's results. :func:`heuristic_checks` yields the checks one by
one, for a test suite to parametrise over (``pytest.mark.parametrize``), as CI does over every registered heuristic.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.experiment import simulate
from hcsched.heuristics import Heuristic, get_heuristic, register_heuristic
from hcsched.registry import get_model
from hcsched.scenario import HeuristicSpec, Scenario

TOLERANCE = 1e-9  # seconds: a start this much before its arrival, or an overlap this long, is rounding


class HeuristicCheckError(AssertionError):
    """The failed checks of :func:`check_heuristic`, one line each, saying what to fix."""


@dataclass(frozen=True)
class Check:
    """One check of the battery: ``run(heuristic, model)`` returns the problem in one line, or None."""

    name: str
    run: Callable[[Heuristic, str], str | None]

    def __call__(self, heuristic: Heuristic, model: str) -> str | None:
        try:
            return self.run(heuristic, model)
        except HcschedError as exc:
            return f"raised HcschedError: {exc}"
        except Exception as exc:  # noqa: BLE001  (a heuristic's crash is what the check reports)
            return f"raised {type(exc).__name__}: {exc}".splitlines()[0]


def _scenario(heuristic: Heuristic, model: str, others: bool = True) -> Scenario:
    """The model's small scenario with ``heuristic`` (at its defaults) and, with ``others``, the scenario's own."""
    tiny = get_model(model).tiny()
    mine = HeuristicSpec.make(heuristic.name, model=model)
    rest = [h for h in tiny.heuristics if h.name != heuristic.name] if others else []
    return tiny.replace(heuristics=[*rest, mine], benchmark=None, trials=min(tiny.trials, 2))


def _run(sc: Scenario) -> tuple[pd.DataFrame, pd.DataFrame]:
    return simulate(sc, jobs=1, schedules=True)


def check_schedule(heuristic: Heuristic, model: str) -> str | None:
    """Every task done once, never started before it arrives nor finished before it starts, on a machine of the
    system; on dedicated machines, one task at a time."""
    m = get_model(model)
    sc = _scenario(heuristic, model, others=False)
    _, table = _run(sc)
    tasks, machines = m.scale(sc.spec)
    for (trial, _label), rows in table.groupby(["trial", "heuristic"]):
        if rows["task"].duplicated().any():
            return f"trial {trial}: task {int(rows['task'][rows['task'].duplicated()].iloc[0])} is scheduled twice"
        started = rows[np.isfinite(rows["start"].astype(float))]
        if m.every_task_done and len(started) < len(rows):
            return f"trial {trial}: {len(rows) - len(started)} task(s) never start; every task must be mapped"
        early = started[started["start"] < started["arrival"] - TOLERANCE]
        if len(early):
            t = early.iloc[0]
            return (f"trial {trial}: task {int(t['task'])} starts at {t['start']:g} "
                    f"before it arrives at {t['arrival']:g}")
        backwards = started[started["finish"] < started["start"] - TOLERANCE]
        if len(backwards):
            return f"trial {trial}: task {int(backwards.iloc[0]['task'])} finishes before it starts"
        machine = started["machine"].astype(int)
        if len(machine) and (machine.min() < 0 or machine.max() >= machines):
            return f"trial {trial}: a task is mapped to machine {int(machine.max())}; the system has {machines}"
        if m.dedicated:
            for j, on in started.sort_values(["machine", "start"]).groupby("machine"):
                finish, start = on["finish"].to_numpy(float), on["start"].to_numpy(float)
                if np.any(start[1:] < finish[:-1] - TOLERANCE):
                    return f"trial {trial}: machine {int(j)} runs two tasks at once (a dedicated machine runs one)"
    return None


def check_deterministic(heuristic: Heuristic, model: str) -> str | None:
    """The same scenario and seed give the same results and schedules, byte for byte."""
    sc = _scenario(heuristic, model, others=False)
    first, second = _run(sc), _run(sc)
    for what, a, b in (("results", first[0], second[0]), ("schedules", first[1], second[1])):
        if a.to_csv(index=False) != b.to_csv(index=False):
            return (f"the same seed gave different {what}: draw every random number from the workload's or the "
                    "given rng, never from global state or the clock")
    return None


def _rows(results: pd.DataFrame, label: str) -> str:
    own = results[results["heuristic"] == label]
    return own[[c for c in own.columns if not c.startswith("normalized_")]].to_csv(index=False)


def check_common_random_numbers(heuristic: Heuristic, model: str) -> str | None:
    """Its results alone equal its results beside the model's other heuristics, and theirs are unchanged by it:
    every heuristic of a trial sees the same workload and nothing of another's run."""
    alone = _run(_scenario(heuristic, model, others=False))[0]
    together = _run(_scenario(heuristic, model))[0]
    label = HeuristicSpec.make(heuristic.name, model=model).label
    if _rows(alone, label) != _rows(together, label):
        return ("its results change when other heuristics run in the same trial: read only the workload and your "
                "own state (common random numbers)")
    tiny = get_model(model).tiny()
    without = _run(tiny.replace(heuristics=[h for h in tiny.heuristics if h.name != heuristic.name],
                                trials=min(tiny.trials, 2), benchmark=None))[0]
    for other in without["heuristic"].unique():
        if _rows(without, other) != _rows(together, other):
            return f"adding it changes {other!r}'s results: a heuristic must not change the workload or shared state"
    return None


def check_cost_model(heuristic: Heuristic, model: str) -> str | None:
    """A cost model for the run estimate: ``trial_seconds`` gives finite, positive seconds."""
    sc = _scenario(heuristic, model, others=False)
    seconds = heuristic.trial_seconds(sc.spec, sc.heuristics[0])
    if not isinstance(seconds, (int, float, np.floating)) or not math.isfinite(seconds) or seconds <= 0:
        return f"trial_seconds gave {seconds!r}; give the seconds one trial takes on one core (finite, > 0)"
    return None


def check_explain(heuristic: Heuristic, model: str) -> str | None:
    """Where the model has Explain: the trace of its decisions ends in the assignment its run made."""
    sc = _scenario(heuristic, model, others=False)
    return get_model(model).explain_problem(sc, sc.heuristics[0])


def check_pickles(heuristic: Heuristic, model: str) -> str | None:
    """Its scenario entry crosses to worker processes: it pickles, and reads back as the same heuristic."""
    spec = HeuristicSpec.make(heuristic.name, model=model)
    back = pickle.loads(pickle.dumps(spec))
    if back != spec or back.heuristic is not get_heuristic(heuristic.name, model):
        return "its scenario entry does not pickle to the same heuristic (worker processes would run another)"
    return None


CHECKS: tuple[Check, ...] = (
    Check("cost model", check_cost_model),
    Check("valid schedule", check_schedule),
    Check("deterministic", check_deterministic),
    Check("common random numbers", check_common_random_numbers),
    Check("explain agrees", check_explain),
    Check("pickles", check_pickles),
)


def _models(heuristic: Heuristic, model: str | None) -> list[str]:
    if model is not None:
        if model not in heuristic.models:
            raise HcschedError(f"heuristic {heuristic.name!r} is not a heuristic of the {model!r} model")
        return [model]
    return list(heuristic.models)


def _registered(heuristic: Heuristic | str, model: str | None) -> Heuristic:
    if isinstance(heuristic, Heuristic):
        if heuristic.plugin:
            register_heuristic(heuristic)
        return heuristic
    return get_heuristic(heuristic, model)


def heuristic_checks(heuristic: Heuristic | str, model: str | None = None) -> Iterator[tuple[str, Callable[[], None]]]:
    """Each check of the battery as (its name, a function that raises :class:`HeuristicCheckError` on failure).

    Parameters
    ----------
    heuristic : Heuristic or str
        A heuristic object (a plug-in is registered first) or a registered name.
    model : str, optional
        The model to check it in (default: each of its models).

    Yields
    ------
    tuple of (str, Callable)
        For ``pytest.mark.parametrize``: ``ids`` from the names, and the function called in the test.
    """
    h = _registered(heuristic, model)
    for m in _models(h, model):
        for check in CHECKS:
            def run(check=check, m=m) -> None:
                problem = check(h, m)
                if problem:
                    raise HeuristicCheckError(f"{h.name} ({m}), {check.name}: {problem}")
            yield f"{m}-{h.name}-{check.name.replace(' ', '-')}", run


def check_heuristic(heuristic: Heuristic | str, model: str | None = None) -> None:
    """Run every check of the battery on a heuristic; raise one :class:`HeuristicCheckError` listing each failure.

    Parameters
    ----------
    heuristic : Heuristic or str
        A heuristic object (yours, made with :func:`hcsched.heuristic`) or a registered name.
    model : str, optional
        The model to check it in (default: each of its models).

    Raises
    ------
    HeuristicCheckError
        One line per failed check: the heuristic, the check and what to fix.

    Examples
    --------
    >>> from hcsched.testing import check_heuristic
    >>> check_heuristic("mct", model="etc")
    """
    failures = []
    for _, run in heuristic_checks(heuristic, model):
        try:
            run()
        except HeuristicCheckError as exc:
            failures.append(str(exc))
    if failures:
        raise HeuristicCheckError("\n".join(failures))
