"""The ETC model's heuristics (Maheswaran et al. 1999) as objects: the immediate-mode rules of section 3.2 and the
batch-mode rules of section 3.3, and LP rounding + local search (:mod:`.search`) as a batch heuristic. A heuristic is
one object: its rule (a numba function behind the plug-in interface of :mod:`.plugin`, or a step kernel of
:mod:`.batch` selected by ``kind``), its parameters and their packing (``pack``), its cost model (``cost``), its
Explain trace (``trace``) and how it runs (:meth:`EtcHeuristic.run`). A user's rule becomes such an object through
:func:`plugin_heuristic`; more built-ins made like a user's live in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param, whole_number
from hcsched.models.etc import batch, cost, engine, explain, immediate, plugin, search
from hcsched.models.etc.simulation import EtcRun, make_run
from hcsched.models.etc.workload import Workload

MODEL = "etc"
MAHESWARAN = "Maheswaran et al. 1999"


def no_params(p: dict) -> np.ndarray:
    """The kernel's parameter array of a rule without numeric parameters (MCT, MET, OLB)."""
    return np.zeros(1)


def sa_params(p: dict) -> np.ndarray:
    """SA's kernel reads (low, high)."""
    return np.array([p["low"], p["high"]])


def kpb_params(p: dict) -> np.ndarray:
    """KPB's kernel reads k percent, or -kbar machines when kbar is given (k = 100 kbar / m)."""
    return np.array([p["k"]]) if p["kbar"] is None else np.array([-p["kbar"]])


def batch_plan(p: dict) -> engine.BatchPlan:
    """When a batch heuristic maps: the strategy, interval, kappa and aging sigma (0 without aging); LP rounding +
    local search's iterations and seed (0 for the others)."""
    strategy = engine.COUNT if p["strategy"] == "count" else engine.INTERVAL
    return engine.BatchPlan(strategy, float(p["interval"]), int(p["kappa"]), float(p["aging"] or 0.0),
                            int(p.get("iterations", 0)), int(p.get("seed", 0)))


BATCH_PARAMS = (
    Param("strategy", "interval", "choice", choices=("interval", "count"),
          doc="when mapping events happen (section 3.3)"),
    Param("interval", 10.0, float, low=0.0, low_open=True, doc="seconds between mapping events (interval strategy)"),
    Param("kappa", 40, int, low=1, doc="meta-task size that triggers a mapping event (count strategy)"),
    Param("aging", None, float, low=0.0, low_open=True, optional=True,
          doc="sigma of the aging factor 1 + age/sigma; off by default"),
)
BATCH_NAMES = frozenset(p.name for p in BATCH_PARAMS)
KPB_PARAMS = (Param("k", 20.0, float, 0.0, 100.0, low_open=True, doc="percent of the machines in the subset"),
              Param("kbar", None, float, 1.0, optional=True, doc="number of machines in the subset; overrides k"))


@dataclass(frozen=True)
class RuleParams:
    """The packing of a plug-in's own parameters for its rule: their values as float64, in declared order (a choice
    as the index of its value among the choices; off as NaN); at least one entry.

    Parameters
    ----------
    params : tuple of Param
        The rule's own parameters (a batch rule's mapping-event parameters, BATCH_PARAMS, are the engine's).
    """

    params: tuple[Param, ...] = ()

    def __call__(self, values: dict) -> np.ndarray:
        return np.array([p.as_number(values[p.name]) for p in self.params] or [0.0])


@dataclass(frozen=True)
class EtcHeuristic(Heuristic):
    """A heuristic of the ETC model: everything particular to it on one object.

    Parameters
    ----------
    pack : Callable
        Its resolved parameters -> what its rule or kernel reads (an array of numbers for an immediate rule, a
        :class:`~.engine.BatchPlan` for a batch step kernel).
    cost : Callable
        ``cost(spec, heuristic_spec) -> seconds``: its part of the run estimate (:meth:`trial_seconds`).
    trace : Callable
        ``trace(heuristic, heuristic_spec, etc, ready) -> list of TraceStep``: its decisions on one matrix, for
        Explain (:func:`hcsched.map_tasks` with ``trace=True``).
    example : tuple of (str, value)
        Its parameters in the paper's worked example (Tables 1 and 2), which Explain starts it with.
    """

    pack: Callable[[dict], Any] = field(default=no_params, repr=False)
    cost: Callable[[Any, Any], float] | None = field(default=None, repr=False, compare=False)
    trace: Callable | None = field(default=None, repr=False, compare=False)
    example: tuple = ()

    def trial_seconds(self, spec: Any, heuristic: Any) -> float:
        """Seconds of one trial of this heuristic on one core: its schedule and metrics and its own ``cost``.

        Parameters
        ----------
        spec : EtcModelSpec
            The scenario's spec.
        heuristic : HeuristicSpec
            This heuristic with its resolved parameters.

        Returns
        -------
        float
        """
        return spec.tasks * cost.RUN + float(self.cost(spec, heuristic))

    @property
    def compiled(self) -> bool:
        """Whether its rule is a numba function (runs inside the compiled loops), not plain Python."""
        return plugin.is_compiled(self.rule)

    def run(self, spec: Any, heuristic: Any, w: Workload) -> EtcRun:
        """Simulate it on one trial's workload (section 3.2 or 3.3).

        Parameters
        ----------
        spec : EtcModelSpec or None
            The scenario's spec (the workload holds all a run reads; None where there is no scenario).
        heuristic : HeuristicSpec
            This heuristic with its resolved parameters.
        w : Workload
            The trial's arrivals, expected and actual times.

        Returns
        -------
        EtcRun
        """
        etc, actual = np.ascontiguousarray(w.etc, float), np.ascontiguousarray(w.actual, float)
        with plugin.rule_errors(self, etc.shape[1]):
            return self._run(heuristic, w, etc, actual)

    def map_static(self, heuristic: Any, etc: np.ndarray, ready: np.ndarray) -> tuple:
        """Map tasks that all arrive at time 0 (:func:`hcsched.map_tasks`): (machine, completion, final ready)."""
        with plugin.rule_errors(self, etc.shape[1]):
            return self._map_static(heuristic, np.ascontiguousarray(etc, float), ready)

    def explain(self, heuristic: Any, etc: np.ndarray, ready: np.ndarray) -> list:
        """Its Explain trace on one matrix: each decision with the values it compared (:mod:`.explain`)."""
        with plugin.rule_errors(self, etc.shape[1]):
            return self.trace(self, heuristic, np.ascontiguousarray(etc, float), ready)

    def _run(self, heuristic, w, etc, actual):  # pragma: no cover  (each mode's class answers)
        raise NotImplementedError

    def _map_static(self, heuristic, etc, ready):  # pragma: no cover
        raise NotImplementedError


@dataclass(frozen=True)
class ImmediateHeuristic(EtcHeuristic):
    """An immediate-mode heuristic (section 3.2): ``rule(e, ready, now, params, state) -> machine``
    (:class:`.plugin.ImmediateRule`), numba or plain Python, run by :func:`.engine.run_immediate`. The papers' rules
    also carry their ``kind`` of :mod:`.immediate`, which the loop calls inline (their ``rule`` is the same kernel
    behind the interface, which Explain calls); a plug-in's kind is RULE.

    Parameters
    ----------
    reason : Callable
        ``reason(i, j, e, before, params, state, kwargs, table) -> str``: why the rule chose machine j for task i,
        in words, for Explain (it may add columns to ``table``).
    """

    reason: Callable = field(default=explain.chose_reason, repr=False, compare=False)

    def loop(self, compiled_loop: Callable) -> tuple[Callable, Callable]:
        """(the loop to run, the rule to give it): the compiled loop with a numba rule, else the same loop's
        ``.py_func`` with the plain Python rule behind read-only views and checks (:func:`.plugin.python_immediate`)."""
        if self.compiled:
            return compiled_loop, self.rule
        return compiled_loop.py_func, plugin.python_immediate(self)

    def _run(self, heuristic, w, etc, actual):
        run, rule = self.loop(engine.run_immediate)
        plugin.seed_python(self, w.seed)
        machine, start, finish = run(self.kind, rule, self.pack(heuristic.kwargs), w.arrival, etc, actual, w.seed)
        return make_run(w, machine, start, finish, 0, etc.size)

    def _map_static(self, heuristic, etc, ready):
        run, rule = self.loop(engine.map_immediate_static)
        plugin.seed_python(self, 0)
        return run(self.kind, rule, self.pack(heuristic.kwargs), etc, ready, 0)


@dataclass(frozen=True)
class StepBatchHeuristic(EtcHeuristic):
    """A batch-mode heuristic of the papers (section 3.3) whose step kernel ``kind`` of :mod:`.batch` the engine
    runs lazily, as far as machines need their next task (:func:`.engine.run_batch`)."""

    def _run(self, heuristic, w, etc, actual):
        plan = self.pack(heuristic.kwargs)
        machine, start, finish, events, unmapped = engine.run_batch(self.kind, batch.no_rule, plan, np.zeros(1),
                                                                    w.arrival, etc, actual, w.seed)
        return make_run(w, machine, start, finish, events, unmapped * etc.shape[1])

    def _map_static(self, heuristic, etc, ready):
        plan = self.pack(heuristic.kwargs)
        machine, completion, final, _ = engine.map_batch_static(self.kind, batch.no_rule, np.zeros(1),
                                                                np.ones(etc.shape[0]), etc, ready, plan.iterations,
                                                                plan.seed, 0)
        return machine, completion, final


@dataclass(frozen=True)
class RuleBatchHeuristic(EtcHeuristic):
    """A batch-mode heuristic whose rule maps each meta-task whole, ``rule(E, zeta, ready, now, params, state,
    out_task, out_machine) -> count`` (:class:`.plugin.BatchRule`), numba or plain Python; the engine's
    mapping-event strategy (BATCH_PARAMS) says when (:func:`.engine.run_batch` with kind RULE). ``pack`` packs its
    own parameters (those not in BATCH_PARAMS)."""

    def loop(self, compiled_loop: Callable) -> tuple[Callable, Callable]:
        """(the loop to run, the rule to give it), as :meth:`ImmediateHeuristic.loop`."""
        if self.compiled:
            return compiled_loop, self.rule
        return compiled_loop.py_func, plugin.python_batch(self)

    def _run(self, heuristic, w, etc, actual):
        run, rule = self.loop(engine.run_batch)
        plugin.seed_python(self, w.seed)
        machine, start, finish, events, mapped = run(batch.RULE, rule, batch_plan(heuristic.kwargs),
                                                     self.pack(heuristic.kwargs), w.arrival, etc, actual, w.seed)
        return make_run(w, machine, start, finish, events, mapped * etc.shape[1])

    def map_order(self, heuristic: Any, etc: np.ndarray, ready: np.ndarray) -> tuple:
        """The rule's mapping of one meta-task at time 0: (machine, completion, final ready, order of decisions)."""
        run, rule = self.loop(engine.map_batch_static)
        plugin.seed_python(self, 0)
        return run(batch.RULE, rule, self.pack(heuristic.kwargs), np.ones(etc.shape[0]), etc, ready, 0, 0, 0)

    def _map_static(self, heuristic, etc, ready):
        return self.map_order(heuristic, etc, ready)[:3]


# --- the built-ins' reasons, in words, for Explain ------------------------------------------------------------
def _g(x: float) -> str:
    return f"{x:g}"


def mct_reason(i, j, e, before, params, state, kwargs, table) -> str:
    return f"t{i} completes earliest on m{j}: {_g(before[j])} + {_g(e[j])} = {_g(before[j] + e[j])}"


def met_reason(i, j, e, before, params, state, kwargs, table) -> str:
    return f"t{i} executes fastest on m{j} ({_g(e[j])}); ready times are ignored"


def olb_reason(i, j, e, before, params, state, kwargs, table) -> str:
    return f"m{j} becomes ready first ({_g(before[j])}); execution times are ignored"


def sa_reason(i, j, e, before, params, state, kwargs, table) -> str:
    pi = immediate.load_balance_index(before)
    met = state[0] == 1.0
    rule = met_reason if met else mct_reason
    return (f"load balance index r_min/r_max = {_g(before.min())}/{_g(before.max())} = {pi:.3f}, thresholds "
            f"{kwargs['low']:g} and {kwargs['high']:g}: SA uses {'MET' if met else 'MCT'}; "
            + rule(i, j, e, before, params, state, kwargs, table))


def kpb_reason(i, j, e, before, params, state, kwargs, table) -> str:
    size = immediate.kpb_subset_size(e.size, params[0])
    subset = np.argsort(e, kind="stable")[:size]
    table["in subset"] = np.isin(np.arange(e.size), subset)
    return (f"the {size} fastest machine(s) for t{i} are {', '.join(f'm{x}' for x in subset)}; among them t{i} "
            f"completes earliest on m{j}: {_g(before[j])} + {_g(e[j])} = {_g(before[j] + e[j])}")


def _immediate(name, title, kind, rule, reason, description, params=(), checks=(), pack=no_params, cost_of=None,
               example=()) -> ImmediateHeuristic:
    return ImmediateHeuristic(name, title, "immediate", kind, "3.2", description, params, models=(MODEL,),
                              paper=MAHESWARAN, checks=checks, rule=rule, pack=pack, reason=reason,
                              cost=cost_of or (lambda s, h: cost.scan_seconds(s)), trace=explain.trace_immediate,
                              example=example)


def _remap(c: float, rho0: float, p: float) -> Callable:
    """A step kernel's cost: the mapping events and the backlog rescanned (:func:`.cost.remap_seconds`)."""
    return lambda s, h: cost.remap_seconds(s, c, rho0, p)


def _sa_thresholds(v: dict) -> str | None:
    return None if v["low"] < v["high"] else f"low ({v['low']:g}) must be smaller than high ({v['high']:g})"


def _search_cost(s, h) -> float:
    return cost.search_seconds(s, h.kwargs["iterations"])


# Per step kernel: c, rho0, p of the backlog (:func:`.cost.remap_seconds`; Max-min maps so badly that it is
# overloaded from a load of 0.6 on).
HEURISTICS: tuple[Heuristic, ...] = (
    _immediate("mct", "Minimum completion time", immediate.MCT, immediate.mct_rule, mct_reason,
               "Assigns each arriving task to the machine on which it completes earliest, given the machines' "
               "expected ready times. The paper's benchmark for immediate mode."),
    _immediate("met", "Minimum execution time", immediate.MET, immediate.met_rule, met_reason,
               "Assigns each arriving task to the machine that executes it fastest, ignoring ready times; can load a "
               "few machines heavily."),
    _immediate("olb", "Opportunistic load balancing", immediate.OLB, immediate.olb_rule, olb_reason,
               "Assigns each arriving task to the machine that becomes ready next, ignoring execution times."),
    _immediate("sa", "Switching algorithm", immediate.SA, immediate.sa_rule, sa_reason,
               "Uses MCT until the load balance index r_min/r_max reaches the high threshold, then MET until it falls "
               "to the low threshold, and so on.",
               (Param("low", 0.6, float, 0.0, 1.0, doc="switch back to MCT when the load balance index falls to this"),
                Param("high", 0.9, float, 0.0, 1.0, doc="switch to MET when the load balance index reaches this")),
               checks=(_sa_thresholds,), pack=sa_params, example=(("low", 0.4), ("high", 0.7))),
    _immediate("kpb", "K-percent best", immediate.KPB, immediate.kpb_rule, kpb_reason,
               "Considers only the floor(m k/100) machines (at least one) that execute the task fastest, or kbar "
               "machines if kbar is given, and picks the earliest completion among them. k = 100 is MCT; k = 100/m "
               "is MET.", KPB_PARAMS, checks=(whole_number("kbar", "machines"),), pack=kpb_params,
               cost_of=lambda s, h: cost.rank_seconds(s), example=(("k", 67),)),
    StepBatchHeuristic("min-min", "Min-min", "batch", batch.MIN_MIN, "3.3",
                       "At each mapping event, repeatedly assigns the task with the smallest earliest completion "
                       "time to that machine. The paper's benchmark for batch mode.", BATCH_PARAMS, models=(MODEL,),
                       paper=MAHESWARAN, pack=batch_plan, cost=_remap(2.1e-9, 2.0, 3),
                       trace=lambda h, hs, etc, ready: explain.trace_min_max(False, etc, ready)),
    StepBatchHeuristic("max-min", "Max-min", "batch", batch.MAX_MIN, "3.3",
                       "Like Min-min, but repeatedly assigns the task whose earliest completion time is largest.",
                       BATCH_PARAMS, models=(MODEL,), paper=MAHESWARAN, pack=batch_plan, cost=_remap(7e-9, 0.6, 10),
                       trace=lambda h, hs, etc, ready: explain.trace_min_max(True, etc, ready)),
    StepBatchHeuristic("sufferage", "Sufferage", "batch", batch.SUFFERAGE, "3.3, Fig. 2",
                       "Gives each contended machine to the task that would suffer most (second earliest minus "
                       "earliest completion time) if denied it; displaced tasks wait for the next pass.",
                       BATCH_PARAMS, models=(MODEL,), paper=MAHESWARAN, pack=batch_plan, cost=_remap(2.3e-9, 1.3, 6),
                       trace=lambda h, hs, etc, ready: explain.trace_sufferage(etc, ready)),
    StepBatchHeuristic("lp-search", "LP rounding + local search", "batch", batch.LP_SEARCH,
                       "Potts 1985; Fanjul-Peyro and Ruiz 2010",
                       "At each mapping event, rounds the LP relaxation's vertex solution (at most m - 1 tasks split; "
                       "Potts 1985) or takes Min-min's mapping, whichever is better after a local search out of the "
                       "makespan machine, then improves it by iterated greedy destruction and reconstruction "
                       "(Fanjul-Peyro and Ruiz 2010). Near-optimal for the makespan of each meta-task; each machine "
                       "runs its tasks in arrival order.",
                       (Param("iterations", search.DEFAULT_ITERATIONS, int, low=0,
                              doc="iterations of iterated greedy per mapping event (about 1 s for 512 tasks x 16 "
                                  "machines)"),
                        Param("seed", 0, int, low=0, doc="seed of the search's random draws"), *BATCH_PARAMS),
                       models=(MODEL,), paper="Potts 1985; Fanjul-Peyro and Ruiz 2010", pack=batch_plan,
                       cost=_search_cost,
                       trace=lambda h, hs, etc, ready: explain.trace_search(hs.kwargs, etc, ready)),
)


# --- a user's rule as a heuristic object ------------------------------------------------------------------------
def plugin_cost(mode: str, compiled: bool) -> Callable:
    """The default cost model of a plug-in: an immediate numba rule costs MCT's scan, a plain Python one the
    loop's ``.py_func`` per task and machine and a call per task; a batch rule maps each meta-task whole, as
    Min-min's whole mapping (twice its lazy kernel's rescans), and in plain Python a call per event and a Python
    pass over the meta-task per task."""
    if mode == "immediate":
        if compiled:
            return lambda s, h: cost.scan_seconds(s)
        return lambda s, h: s.tasks * cost.PY_CALL + cost.scan_seconds(s, cost.PY_PAIR)
    if compiled:
        return lambda s, h: cost.remap_seconds(s, 4.2e-9, 2.0, 3)
    return lambda s, h: cost.remap_seconds(s, 4.2e-9, 2.0, 3) * 50 + 1.8 * s.tasks * cost.PY_CALL


def plugin_heuristic(rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str,
                     paper: str, origin: str, mode: str = "immediate", cost: Callable | None = None,
                     **unknown: Any) -> EtcHeuristic:
    """A heuristic of the ETC model around a user's ``rule`` (the interface of :mod:`.plugin`): called by
    :meth:`hcsched.models.etc.EtcModel.plugin` for :func:`hcsched.heuristic`.

    Parameters
    ----------
    rule : Callable
        An immediate rule ``rule(e, ready, now, params, state) -> machine`` or, with ``mode="batch"``, a batch rule
        ``rule(E, zeta, ready, now, params, state, out_task, out_machine) -> count``; a numba ``@njit`` function
        runs compiled inside the engine's loop, a plain Python function in the same loop's ``.py_func``.
    name, title, description, section, paper, origin : str
        What it is (the decorator fills them).
    params : tuple of Param
        Its own parameters; the rule reads them packed in declared order (:class:`RuleParams`). A batch rule also
        takes the engine's mapping-event parameters (strategy, interval, kappa, aging) as the papers' do.
    mode : str
        "immediate" (section 3.2) or "batch" (section 3.3).
    cost : Callable, optional
        ``cost(spec, heuristic_spec) -> seconds`` of one trial: its own cost model; by default scaled from a
        comparable built-in (:func:`plugin_cost`).

    Returns
    -------
    EtcHeuristic
    """
    if unknown:
        raise HcschedError(f"plug-in heuristic {name!r}: unknown capability {', '.join(map(repr, unknown))}; "
                           "allowed: mode ('immediate' or 'batch'), cost (a function of (spec, heuristic) giving "
                           "the seconds of one trial)")
    if mode not in ("immediate", "batch"):
        raise HcschedError(f"plug-in heuristic {name!r}: mode {mode!r} is not allowed; allowed: immediate, batch")
    if cost is not None and not callable(cost):
        raise HcschedError(f"plug-in heuristic {name!r}: cost must be a function (spec, heuristic) -> seconds")
    params = tuple(params)
    clash = sorted(BATCH_NAMES & {p.name for p in params}) if mode == "batch" else []
    if clash:
        raise HcschedError(f"plug-in heuristic {name!r}: parameter(s) {', '.join(clash)} are the engine's "
                           "mapping-event parameters of every batch heuristic; choose other names")
    compiled = plugin.is_compiled(rule)
    common = dict(section=section, description=description, models=(MODEL,), paper=paper, origin=origin, rule=rule,
                  pack=RuleParams(params), cost=cost or plugin_cost(mode, compiled))
    if mode == "immediate":
        return ImmediateHeuristic(name, title, mode, immediate.RULE, params=params, trace=explain.trace_immediate,
                                  **common)
    return RuleBatchHeuristic(name, title, mode, batch.RULE, params=(*params, *BATCH_PARAMS),
                              trace=explain.trace_rule, **common)


def rule_heuristic(rule: Callable, name: str, title: str, section: str, description: str, paper: str,
                   cost_of: Callable, trace: Callable | None = None) -> RuleBatchHeuristic:
    """A built-in batch heuristic made through the plug-in interface, as a user's is (:mod:`.rules`): its numba
    batch ``rule`` with the mapping-event parameters of every batch heuristic, its cost model and, optionally, an
    Explain trace of its own (else each decision of the rule in turn)."""
    return RuleBatchHeuristic(name, title, "batch", batch.RULE, section, description, BATCH_PARAMS, models=(MODEL,),
                              paper=paper, rule=rule, pack=RuleParams(), cost=cost_of,
                              trace=trace or explain.trace_rule)

