"""The heuristics of Page, Keane and Naughton (sections 3.2-3.4, 5.4): each one object (its rule, parameters, cost
model and capabilities), and the objects of plug-ins (:mod:`.plugin`).

Every heuristic maps the unstarted tasks of known problems given, per task i
and processor j, e_ij = the planned time (ETC in the best or worst case, plus
C), EW_ij (eq. 10) and each processor's load ST_j. It returns, for each
processor, its queue in the order tasks were added. Ties go to the lowest
processor index, then the lowest task index by default (hcsched's rule); Alg. 2
writes ``currval <= minval``, which lets the last pair scanned win: parameter
``ties: "last"`` (section 3.2; docs/models/estimation.md, "Readings chosen").

ST_j (eq. 12), parameter ``st`` of the Alg. 2 heuristics (see :func:`start_times`):

- ``relative`` (default): eq. 12 as printed, ST(j) = sum of ETC(Q_j, j) with Q_j
  the tasks mapped to or being processed by j: the planned time of j's running
  task, in full, plus what this mapping has queued on j; 0 on an idle processor.
  The default because eq. 12 defines ST and Q_j explicitly, and section 3.3's
  case for FE_d and FZ_d ("if the makespan reduces over time, but the estimation
  error stays the same, the EW value increases its influence") needs FA to
  shrink as the work runs out: a relative load does, a clock time never does.
  The gloss "the start time of processor j in seconds since the arrival of the
  first task" would sum every task ever mapped (a third reading, not offered), which
  Q_j's definition excludes (docs/models/estimation.md, "Readings chosen").
- ``absolute``: the estimated clock time j is free (hcsched's earlier reading):
  now, or the estimated end of its running task (start + planned time), plus
  what this mapping has queued. For the additive FA and LA the two readings
  rank idle processors alike and differ only by the elapsed part of each
  running task; for the multiplicative FE, FZ (and FE_d, FZ_d, LE, LZ) they do
  not: the common offset ``now`` flattens the spread of FA between processors,
  so EW^beta decides and FZ queues tasks behind busy processors while others
  idle, and a task running past its estimate gets ST = now, tying with an idle
  processor.

EF, LL, tabu and annealing (the baselines of section 5.4, and ours) keep the absolute reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param, label_parts
from hcsched.models.estimation import alg2 as A
from hcsched.models.estimation import kernels as K
from hcsched.models.estimation import plugin as P
from hcsched.models.estimation.error import ew

EST = "estimation"
PAGE = "Page, Keane and Naughton"
# the local searches: the share of their run spent in moves, which scales with the moves their parameters allow
SEARCH_SHARE = 0.7

CASE = Param("case", "best", "choice", choices=("best", "worst", "worst-max"),
             doc="plan with ETC as estimated (best), ETC x (1 + predicted error) (worst), or ETC x (1 + the largest "
                 "error in U_j) (worst-max: the other reading of 'the maximum amount of predicted error'), section "
                 "3.1")
BETA = Param("beta", 1.0, float, 0.0, 10.0, low_open=True,
             doc="how much the estimation error weighs against the finish time or load: 1 in full, 0.1 a tenth "
                 "(the exponent β > 0 of eqs. 13, 14, 18, 19)")
TIES = Param("ties", "lowest", "choice", choices=("lowest", "last"),
             doc="Alg. 2's ties: the lowest processor, then the lowest task (hcsched's rule), or the last pair in the "
                 "pseudocode's scan (currval <= minval: the highest task, then its highest processor)")
ST = Param("st", "relative", "choice", choices=("relative", "absolute"),
           doc="ST of eq. 12: the processor's relative load, the planned time of its running task in full plus what "
               "is queued on it (relative: the paper's sum of ETC over Q_j), or the estimated clock time it is free "
               "(absolute: now or the running task's estimated end, plus the queue)")
READING = Param("reading", "once", "choice", choices=("once", "literal"),
                doc="eq. 17 subtracts ETC+C inside the sum over y, i.e. M times (literal), or once (the idle area "
                    "after the mapping over the idle area now)")


def _share(value: float) -> str:
    """A weight against the paper's default 1 in words: 0.1 -> "a tenth of its usual weight"."""
    named = {1.0: "its usual weight", 0.5: "half its usual weight", 0.25: "a quarter of its usual weight",
             0.1: "a tenth of its usual weight", 2.0: "twice its usual weight"}
    return named.get(value, f"{value:g} times its usual weight")


def _of_number(text: str, said: Callable[[float], str]) -> str:
    """``said`` of the number ``text`` writes; "" for a value that is no number."""
    try:
        value = float(text)
    except ValueError:
        return ""
    return said(value)


def _beta_words(text: str) -> str:
    """β of eqs. 13, 14, 18, 19 in words (section 3.3: "β controls the proportion of the values of FA and EW"):
    "beta=0.1" -> "error at a tenth of its usual weight, β = 0.1"; "" for a value that is no number."""
    return _of_number(text, lambda value: f"error at {_share(value)}, β = {value:g}")


#: β's value in a results line's few words: 0.1 -> "a tenth".
LEAD_SHARES = {1.0: "in full", 0.5: "a half", 0.25: "a quarter", 0.1: "a tenth", 2.0: "double"}


def _beta_lead_words(text: str) -> str:
    """β in words alone, short enough for a results lead (its symbol is said on hover and in the names' table, folded):
    "beta=0.1" -> "error weighted a tenth"; "" for a value that is no number."""
    return _of_number(text, lambda value: f"error weighted {LEAD_SHARES.get(value, f'{value:g} times')}")


def _count_words(template: str) -> Callable[[str], str]:
    """Words for a count parameter: the template with the value in it ("" for a value that is no whole number)."""
    return lambda text: template.format(text) if text.strip().isdigit() else ""


def _number_words(template: str) -> Callable[[str], str]:
    """Words for a number parameter: the template with the value in it ("" for a value that is no number)."""
    def said(text: str) -> str:
        try:
            return template.format(f"{float(text):g}")
        except ValueError:
            return ""
    return said


#: A label's parameter (as written, "beta=0.1") -> its value in words (sections 3.1-3.4, 5.4); a parameter not here
#: (a plug-in's own) leaves the label's own text said as written.
PARAM_WORDS: dict[str, Callable[[str], str]] = {
    "beta": _beta_words,
    "case": {"best": "planned on the estimates alone", "worst": "planned on each estimate plus its predicted error",
             "worst-max": "planned on each estimate plus the largest past error"}.get,
    "st": {"relative": "loads as the work queued", "absolute": "loads as the clock time each processor is free"}.get,
    "ties": {"lowest": "ties to the lowest-numbered processor", "last": "ties to the last pair scanned"}.get,
    "reading": {"once": "idle time counted once", "literal": "idle time counted once per processor, as printed"}.get,
    "iterations": _count_words("{} moves per mapping"),
    "candidates": _count_words("{} random moves weighed per step"),
    "tenure": _count_words("a moved task held for {} steps"),
    "t0": _number_words("starting temperature {} of the estimated makespan"),
    "cooling": _number_words("temperature times {} per move"),
}

#: A parameter's words in a results line where they differ from :data:`PARAM_WORDS`: shorter, no symbol (tryout42d:
#: "error at a tenth of its usual weight, β = 0.1" left a lead no room to name the heuristics clearly worse).
LEAD_WORDS: dict[str, Callable[[str], str]] = {"beta": _beta_lead_words}


def start_times(st: str, now: float, machines: int, procs: np.ndarray, started: np.ndarray,
                planned: np.ndarray) -> np.ndarray:
    """ST_j of eq. 12 before a mapping adds to it, for ``machines`` processors of which ``procs`` run a task started
    at ``started`` with ``planned`` time (its ETC + C as planned): "relative" the planned time in full (0 where idle),
    "absolute" the estimated end, never before ``now`` (``now`` where idle)."""
    if st == "relative":
        out = np.zeros(machines)
        out[procs] = planned
    else:
        out = np.full(machines, float(now))
        out[procs] = np.maximum(now, started + planned)
    return out



@dataclass
class MappingEvent:
    """What a heuristic reads at one mapping event (the engine builds it): the tasks to map (ids, their rows of the
    estimates), e = ETC in the case + C, ETC, C and the predicted ET (S x M), the loads ST (M), the processors idle,
    whether every unstarted task is remapped (a kernel may then stop once every idle processor has a task), the
    parameters resolved, the event's number in the run and the run's generator."""

    now: float
    tasks: np.ndarray
    problem: np.ndarray
    stage: np.ndarray
    e: np.ndarray
    etc: np.ndarray
    comm: np.ndarray
    err: np.ndarray
    st: np.ndarray
    idle: np.ndarray
    remap: bool
    eps: float
    params: dict
    number: int
    rng: np.random.Generator

    @cached_property
    def ew(self) -> np.ndarray:
        """EW (eq. 10), computed on first use (FA, LA, EF and LL never read it)."""
        arrays = (self.err, self.etc, self.comm)
        if all(a.ndim == 2 and a.dtype == np.float64 for a in arrays):
            return K.error_weights(*arrays, float(self.eps))  # the same arithmetic in one pass
        return ew(*arrays, self.eps)


@dataclass(frozen=True)
class EstimationHeuristic(Heuristic):
    """A heuristic of the estimation model: the base of the built-ins and the plug-ins.

    Parameters
    ----------
    run_450 : tuple of (float, float)
        Its cost model: CPU seconds c of one trial at 450 tasks and the exponent e of its growth, c (n / 450)^e for n
        tasks (the processors change it little). Fitted on a quiet 2-core machine, kernels compiled, one process: c is
        the mean (in log scale) of its trials at 450 tasks (system A on 90 processors, system B on 74), e the least
        squares slope in log scale through c of its trials on system A with every problem's stages x 0.5, 2 and 3
        (225, 900, 1350 tasks) and on the two dense presets. Within 1.5x of every such trial but LE's and LZ's at 225
        tasks (1.9-2x over, runs of 10 ms). Mapping by estimates grows about as n^2.1-2.4 (each mapping event
        estimates every waiting task on every processor, and more tasks wait), round robin, lightest-loaded, earliest
        first and the local searches about as n^1.4-1.7, the load-balancing LA as n^2.7 and LE, LZ, FE_d, FZ_d as
        n^3-3.7.
    moves : tuple of str
        The parameters whose product, against their defaults', scales the share :data:`SEARCH_SHARE` of a local
        search's run (its moves per event).
    round_robin : bool
        Deals each released task to the processors in turn and never remaps (RR, sections 2.2 and 5.4): the engine
        asks it for no mapping.
    carried : bool
        Its rule is FA's (eq. 11), which :class:`.kernels.CarriedFA` computes carrying sorted estimates between
        events on large systems (same picks).
    """

    run_450: tuple[float, float] = (0.057, 1.75)
    moves: tuple[str, ...] = ()
    round_robin: bool = False
    carried: bool = False

    def trial_seconds(self, spec: Any, heuristic: Any) -> float:
        """c (n / 450)^e (``run_450``) for the spec's n tasks; a local search's share of moves scaled by its moves per
        event (``moves``: iterations, x candidates for tabu) against its defaults'.

        Parameters
        ----------
        spec : EstimationSpec
            The scenario's spec.
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its parameters.

        Returns
        -------
        float
            Seconds of one trial on one core.
        """
        c, e = self.run_450
        if self.moves:
            defaults = self.defaults()
            c *= 1 - SEARCH_SHARE + SEARCH_SHARE * math.prod(heuristic.kwargs[k] / defaults[k] for k in self.moves)
        return c * (spec.tasks / 450) ** e

    def label_words(self, params: dict[str, str]) -> str:
        """What the parameters a label names mean, in words for a sentence: {"beta": "0.1"} -> "error at a tenth of
        its usual weight, β = 0.1" (the paper's symbol after the words); "" when one of them has no words here (a
        plug-in's own), so the label's own text is said.

        Parameters
        ----------
        params : dict of str to str
            The parameters as the label writes them (:func:`hcsched.heuristics.label_parts`).
        """
        said = [PARAM_WORDS[k](v) or "" if k in PARAM_WORDS else "" for k, v in params.items()]
        return ", ".join(said) if said and all(said) else ""

    def lead_words(self, params: dict[str, str]) -> str:
        """The parameters a label names in words alone, short, as a results line says them (:data:`LEAD_WORDS`):
        {"beta": "0.1"} -> "error weighted a tenth", no symbol; "" as :meth:`label_words`.

        Parameters
        ----------
        params : dict of str to str
            The parameters as the label writes them (:func:`hcsched.heuristics.label_parts`).
        """
        words = {**PARAM_WORDS, **LEAD_WORDS}
        said = [words[k](v) or "" if k in words else "" for k, v in params.items()]
        return ", ".join(said) if said and all(said) else ""

    def label_short(self, params: dict[str, str]) -> str:
        """A label's parameters as a line names it again once its words were said, as the charts name it
        (:func:`short_name`'s): {"beta": "0.1"} -> "error weighted a tenth", never the raw "beta=0.1"; "" when it has
        none.

        Parameters
        ----------
        params : dict of str to str
            The parameters as the label writes them (:func:`hcsched.heuristics.label_parts`).
        """
        return _chart_params(params)

    def order(self, event: MappingEvent) -> np.ndarray:
        """Its mapping of the event's tasks.

        Parameters
        ----------
        event : MappingEvent
            What it reads.

        Returns
        -------
        numpy.ndarray
            int64 (k, 2): (row of ``event.tasks``, processor) in mapping order; with ``event.remap`` it may stop once
            every idle processor has a task (the rest are mapped again before they could start).
        """
        raise HcschedError(f"heuristic {self.name!r} maps no tasks at a mapping event")


@dataclass(frozen=True)
class Alg2(EstimationHeuristic):
    """A heuristic of the greedy template Alg. 2 (section 3.2) or the immediate EF and LL (section 5.4): the kernel
    of its ``kind`` (:mod:`.alg2`, :mod:`.kernels`); ``weighted`` where its cost reads EW (eqs. 13-16, 18, 19)."""

    weighted: bool = False

    def order(self, event: MappingEvent) -> np.ndarray:
        p = event.params
        weight = event.ew if self.weighted else event.e  # FA, LA, EF and LL ignore it: e stands in
        return K.greedy(self.kind, event.e, weight, event.st, float(p.get("beta", 1.0)),
                        p.get("reading", "once") == "once", event.idle, event.remap, p.get("ties", "lowest"))


@dataclass(frozen=True)
class LocalSearch(EstimationHeuristic):
    """Tabu search or simulated annealing (``anneal``) from EF's mapping (ours, section 5.4)."""

    anneal: bool = False

    def order(self, event: MappingEvent) -> np.ndarray:
        e, st, p = event.e, event.st, event.params
        order = A.greedy(A.EF, e, e, st, 1.0, True, event.idle, False)
        assign = np.empty(e.shape[0], np.int64)
        assign[order[:, 0]] = order[:, 1]
        seed = (event.number * 1_000_003 + e.shape[0]) % (2 ** 31)
        assign = A.local_search(e, st, assign, self.anneal, p["iterations"], p.get("tenure", 0),
                                p.get("candidates", 1), p.get("t0", 0.0), p.get("cooling", 1.0), seed)
        return np.column_stack([np.arange(e.shape[0]), assign])


@dataclass(frozen=True)
class PluginHeuristic(EstimationHeuristic):
    """A plug-in: a user's rule (:class:`.plugin.Rule`) mapping every mapping event's tasks.

    Parameters
    ----------
    cost : callable, optional
        ``(spec, heuristic_spec) -> seconds`` of one trial; default: :data:`EF_RUN_450` (EF's cost model when the
        factors were measured) times :data:`.plugin.NUMBA_FACTOR` for a numba rule or :data:`.plugin.PYTHON_FACTOR`
        for a plain Python one.
    """

    cost: Callable | None = field(default=None, repr=False, compare=False)

    def label_words(self, params: dict[str, str]) -> str:
        """"": a plug-in's parameters mean what its author says (its label is said as written), never the built-ins'
        words for a parameter of the same name."""
        return ""

    def label_short(self, params: dict[str, str]) -> str:
        """"": a plug-in's label is said as written (see :meth:`label_words`)."""
        return ""

    def lead_words(self, params: dict[str, str]) -> str:
        """"": a plug-in's label is said as written (see :meth:`label_words`)."""
        return ""

    @property
    def jitted(self) -> bool:
        """Whether the rule is a numba function (compiled)."""
        return hasattr(self.rule, "py_func")

    def trial_seconds(self, spec: Any, heuristic: Any) -> float:
        if self.cost is not None:
            return float(self.cost(spec, heuristic))
        return super().trial_seconds(spec, heuristic) * (P.NUMBA_FACTOR if self.jitted else P.PYTHON_FACTOR)

    def order(self, event: MappingEvent) -> np.ndarray:
        ro = P.read_only
        tasks = P.Tasks(ro(event.tasks), ro(event.problem), ro(event.stage), ro(event.e), ro(event.etc),
                        ro(event.comm), ro(event.err), ro(event.ew))
        return P.call(self.name, self.rule, event.now, tasks, P.Processors(ro(event.st), ro(event.idle)),
                      P.read_only(self.rule_params(event.params)), event.rng)


CAPABILITIES = ("cost",)  # what a plug-in of this model may declare besides the decorator's own arguments


def make_plugin(rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
                origin: str, **capabilities: Any) -> PluginHeuristic:
    """A heuristic around a user's rule (:class:`.plugin.Rule`), as :func:`hcsched.heuristic` asks the model.

    Parameters
    ----------
    rule : callable
        The rule, plain Python or numba.
    name, title, description, section, paper, origin : str
        What the heuristic is and where it comes from.
    params : tuple of Param
        Its parameters (it reads them as :meth:`~hcsched.heuristics.Heuristic.rule_params`, read-only).
    **capabilities
        ``cost``: ``(spec, heuristic_spec) -> seconds`` of one trial (default: scaled from EF's).

    Returns
    -------
    PluginHeuristic
        The heuristic, mode "batch" (it maps every event's tasks).

    Raises
    ------
    HcschedError
        On an unknown capability or a cost that is not callable.
    """
    unknown = sorted(set(capabilities) - set(CAPABILITIES))
    if unknown:
        raise HcschedError(f"plug-in heuristic {name!r}: unknown capability {', '.join(unknown)} of the estimation "
                           f"model; allowed: {', '.join(CAPABILITIES)}")
    cost = capabilities.get("cost")
    if cost is not None and not callable(cost):
        raise HcschedError(f"plug-in heuristic {name!r}: cost must be a function (spec, heuristic) -> seconds")
    return PluginHeuristic(name, title, "batch", -1, section, description, tuple(params), models=(EST,), paper=paper,
                           origin=origin, rule=rule, run_450=EF_RUN_450, cost=cost)


def warm_up() -> None:
    A.warm_up()


def _alg2(name, kind, weighted, run_450, title, section, description, params, **kw) -> Alg2:
    mode = "immediate" if kind in (A.EF, A.LL) else "batch"
    return Alg2(name, title, mode, kind, section, description, tuple(params), models=(EST,), paper=PAGE,
                run_450=run_450, weighted=weighted, **kw)


# a plug-in's cost model: EF's as measured when plugin.NUMBA_FACTOR and PYTHON_FACTOR were (EF's own figure has
# fallen since with the engine's per-event work; a rule's own work has not: kept, on the safe side)
EF_RUN_450 = (0.073, 1.5)

HEURISTICS = (
    _alg2("fa", A.FA, False, (0.0187, 2.12), "FA: earliest estimated finish", "3.3, eq. 11",
          "Alg. 2 with FA = ETC + C + ST: repeatedly maps the task-processor pair that finishes earliest (Min-min "
          "with communication; the paper's 'based on Max-Min' is a slip). Ignores the estimation error.",
          (ST, CASE, TIES), carried=True),
    _alg2("fe", A.FE, True, (0.0248, 2.2), "FE: smallest estimate error first", "3.3, eq. 13",
          "Alg. 2 with FE = FA x EW^beta: pairs with little estimation error and a large CCR go first; error-prone "
          "tasks wait for better estimates.", (BETA, ST, CASE, TIES)),
    _alg2("fz", A.FZ, True, (0.0279, 2.44), "FZ: largest estimate error first", "3.3, eq. 14",
          "Alg. 2 with FZ = FA / EW^beta: the most error-prone tasks go first, so that the well-estimated ones fill "
          "the end of the schedule. The paper's best (beta = 0.1, best case: 20% below FA; not "
          "reproduced on the analogue presets, see docs/models/estimation.md).", (BETA, ST, CASE, TIES)),
    _alg2("fe-d", A.FE_D, True, (0.60, 3.71), "FE_d: dynamic FE", "3.3, eq. 15",
          "Alg. 2 with FE_d = FA^EW x EW^FA, compared in log space (EW ln FA + FA ln EW) so it never overflows. "
          "Literal: with EW < 1 it can favour the most loaded processor, and it depends on the time unit "
          "(docs/models/estimation.md).",
          (ST, CASE, TIES)),
    _alg2("fz-d", A.FZ_D, True, (0.0626, 3.04), "FZ_d: dynamic FZ", "3.3, eq. 16",
          "Alg. 2 with FZ_d = FA^EW / EW^FA, compared in log space (EW ln FA - FA ln EW).", (ST, CASE, TIES)),
    _alg2("la", A.LA, False, (0.0208, 2.68), "LA: load balance", "3.4, eq. 17",
          "Alg. 2 with LA: the idle processor time left after the mapping relative to now; low is well balanced. "
          "Its denominator is the same for every pair of an iteration and is left out (it is 0 when all loads are "
          "equal).", (READING, ST, CASE, TIES)),
    _alg2("le", A.LE, True, (0.0596, 3.64), "LE: load balance, smallest estimate error first", "3.4, eq. 18",
          "Alg. 2 with LE = LA x EW^beta.", (BETA, READING, ST, CASE, TIES)),
    _alg2("lz", A.LZ, True, (0.055, 3.59), "LZ: load balance, largest estimate error first", "3.4, eq. 19",
          "Alg. 2 with LZ = LA / EW^beta.", (BETA, READING, ST, CASE, TIES)),
    EstimationHeuristic(
        "rr", "Round robin", "immediate", -1, "2.2, 5.4",
        "Deals tasks to the processors in turn as they are released and never remaps them: the system's default, "
        "and what every heuristic does for a problem nothing is known about yet.", models=(EST,), paper=PAGE,
        run_450=(0.0139, 1.35), round_robin=True),
    _alg2("ll", A.LL, False, (0.0166, 1.59), "Lightest loaded", "5.4",
          "Each unstarted task in release order goes to the processor with the smallest estimated load ST.",
          (CASE,)),
    _alg2("ef", A.EF, False, (0.0189, 1.66), "Earliest first", "5.4 [27]",
          "Each unstarted task in release order goes to the processor that finishes it earliest (FA): MCT with the "
          "same estimates as the others.", (CASE,)),
    LocalSearch(
        "tabu", "Tabu search, not from the paper", "batch", -1, "5.4",
        "Ours: the paper's OpenTS scheduler is unpublished. Starts from EF's mapping of the unstarted tasks and "
        "moves single tasks between processors to lower the estimated makespan; a moved task is tabu for a while.",
        (Param("iterations", 100, int, 1, 100000, doc="moves per mapping event"),
         Param("candidates", 20, int, 1, 1000, doc="random moves evaluated per iteration"),
         Param("tenure", 10, int, 0, 10000, doc="iterations a moved task stays tabu"), CASE),
        models=(EST,), paper=PAGE, run_450=(0.0525, 1.57), moves=("iterations", "candidates")),
    LocalSearch(
        "anneal", "Simulated annealing, not from the paper", "batch", -1, "5.4",
        "Ours: the paper's Jannealer scheduler is unpublished. Starts from EF's mapping and accepts random "
        "single-task moves with probability exp(-delta/T) on the estimated makespan.",
        (Param("iterations", 1000, int, 1, 1000000, doc="moves tried per mapping event"),
         Param("t0", 0.05, float, 0.0, 10.0, doc="initial temperature, a fraction of the initial estimated makespan"),
         Param("cooling", 0.995, float, 0.0, 1.0, low_open=True, doc="temperature factor per move"), CASE),
        models=(EST,), paper=PAGE, run_450=(0.0499, 1.6), moves=("iterations",), anneal=True),
)


#: How a chart tick or a chip says a parameter of a label: the paper's symbol, or a word, and never "beta=0.1".
SHORT_PARAMS = {"beta": lambda v: f"β = {v}", "case": lambda v: f"{v} case", "st": lambda v: f"{v} ST",
                "ties": lambda v: f"ties {v}", "reading": lambda v: f"{v} reading"}


def short_name(label: str) -> str:
    """A label short enough for a chart tick or a chip, its parameters as a person reads them and as the Results lead
    says them (:func:`_chart_params`): "fz (beta=0.1)" -> "fz (error weighted a tenth)", "fz (beta=0.1, case=worst)"
    -> "fz (error weighted a tenth, worst case)", no symbol on a chart a manager reads (β of section 3.3 is the
    Heuristics page's); the tabu and annealing parameters as "iterations = 50"; a label without parameters (or of
    one's own) as it is."""
    name, params = label_parts(label)
    if not params or not str(label).startswith(f"{name} ("):
        return str(label)
    return f"{name} ({_chart_params(params)})"


def _chart_params(params: dict[str, str]) -> str:
    """A label's parameters on a chart: in the lead's few words where it has them (:data:`LEAD_WORDS`: "error weighted
    a tenth"), else as a person reads them (:func:`_short_params`: "worst case")."""
    return ", ".join((LEAD_WORDS[k](v) if k in LEAD_WORDS else "") or _short_params({k: v}) for k, v in params.items())


def _short_params(params: dict[str, str]) -> str:
    """A label's parameters as a person reads them: "β = 0.1, worst case" (:data:`SHORT_PARAMS`)."""
    return ", ".join(SHORT_PARAMS.get(k, lambda v, k=k: f"{k} = {v}")(v) for k, v in params.items())
