"""The task-class model's heuristics (Al-Azzoni and Down), each one object: MET, MCT and KPB as section II-B applies
them to classes with execution rates (expected completion 1/mu_ij + the queue's expected work), the LP-based LPAS,
LPAS-2/k, LP-Static, Guided-LPAS and Guided-LPAS-2/k, and plug-ins (:mod:`hcsched.models.classes.plugin`).

Each object carries what is particular to it: its kernel rule (``kind``, the event loop's selector of how a
candidate is chosen), its candidate machines per class (:meth:`ClassHeuristic.policy`), its cost model
(:meth:`ClassHeuristic.trial_seconds`) and how it runs (:meth:`ClassHeuristic.run`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param, label_parts, whole_number
from hcsched.models.classes import kernels, simulation
from hcsched.models.classes.simulation import ClassRun, ClassWorkload, Policy, execution_times, fastest, kbar_of
from hcsched.models.classes.spec import ClassSpec

if TYPE_CHECKING:
    from hcsched.scenario import HeuristicSpec

MODEL = "classes"
AL_AZZONI = "Al-Azzoni and Down"

# CPU seconds per arrival on one core of the 2-core machine, kernels compiled (fitted to one replication of every
# preset; bench/estimates.py checks runs): a heuristic's event and mapping (a base and one per machine a mapping may
# consult), schedule and metrics, times the heuristic's own factor (MCT's is 1).
TASK_SECONDS, MACHINE_SECONDS = 4.5e-8, 1.2e-9
# a plug-in's factor: jitted, a call through a function pointer and every machine settled per arrival; in Python,
# the loop's Python form (measured on alazzoni-B and C1: docs/models/classes.md, "Your own heuristic")
JIT_FACTOR, PYTHON_FACTOR = 3.0, 1000.0


@dataclass(frozen=True)
class ClassHeuristic(Heuristic):
    """A heuristic of the task-class model: a dispatcher of each arrival to one machine's FCFS queue (section II-B).

    Parameters
    ----------
    factor : float
        Its cost per arrival relative to MCT's (the cost model of :meth:`trial_seconds`).
    params_say_rule : bool
        Whether its parameters' words say its whole rule, so that a sentence names it by them alone: KPB's "each
        class's fastest machine" (its title, K-percent best, names only the family its parameters choose from).
    short_words : str
        Its rule in a few plain words where its title is a term of the paper (LPAS: "earliest finish on planned
        machines", the machines the allocation LP of section III-A gives its class), else "".
    (the others) :
        As :class:`hcsched.heuristics.Heuristic`; ``kind`` selects the event loop's rule (:mod:`.kernels`).
    """

    factor: float = 1.0
    params_say_rule: bool = False
    short_words: str = ""  # its rule in a few plain words, said beside its name in a line and under it on a chart

    def trial_seconds(self, spec: Any, heuristic: HeuristicSpec) -> float:
        """Linear in the arrivals n (sum of alpha_i x horizon) and the machines m: n (TASK_SECONDS + m
        MACHINE_SECONDS) x its factor; the FCFS queues cost O(1) per event whatever the load.

        Parameters
        ----------
        spec : hcsched.models.classes.spec.ClassModelSpec
            The scenario's system.
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its parameters.

        Returns
        -------
        float
            Seconds of one replication on one core.
        """
        return spec.tasks * (TASK_SECONDS + spec.machines * MACHINE_SECONDS) * self.factor

    def label_words(self, params: dict[str, str]) -> str:
        """What the parameters a label names mean, in words for a sentence: {"kbar": "1"} -> "each class's fastest
        machine"; "" when one of them has no words here (a plug-in's own), so the label's own text is said.

        Parameters
        ----------
        params : dict of str to str
            The parameters as the label writes them (:func:`hcsched.heuristics.label_parts`).
        """
        said = [PARAM_WORDS[k](v) if k in PARAM_WORDS else "" for k, v in params.items()]
        return ", ".join(said) if said and all(said) else ""

    def policy(self, params: dict, spec: ClassSpec) -> Policy:
        """Its candidate machines per class and their weights in a system (cached by
        :func:`hcsched.models.classes.simulation.policy`).

        Parameters
        ----------
        params : dict
            Its parameters, resolved.
        spec : ClassSpec
            The system.

        Returns
        -------
        Policy
            The kernel rule, the machines it may use for each class and their weights.
        """
        raise NotImplementedError(f"heuristic {self.name!r} gives no candidate machines")

    def run(self, spec: ClassSpec, heuristic: HeuristicSpec, workload: ClassWorkload) -> ClassRun:
        """Simulate it over one replication's horizon (the event loop, :func:`kernels.classes_loop`).

        Parameters
        ----------
        spec : ClassSpec
            The system.
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its parameters.
        workload : ClassWorkload
            The replication's draws.

        Returns
        -------
        ClassRun
            Its schedule, the machines consulted, the overrides and the number in system over time.
        """
        return simulation.run_loop(heuristic, spec, workload)[0]


def sentence_name(label: str) -> str:
    """A label as a sentence names it where its parameters need words: "kpb (each class's fastest machine)" for
    "kpb (kbar=1)" (:meth:`ClassHeuristic.label_words`, after its title unless they say its whole rule:
    ``params_say_rule``), "mct (Minimum completion time, ties broken at random)"; any other label as it is ("mct", a
    plug-in's)."""
    name, params = label_parts(label)
    h = next((h for h in HEURISTICS if h.name == name), None)
    said = h.label_words(params) if h is not None and params else ""
    if not said:
        return str(label)
    return f"{name} ({said})" if h.params_say_rule else f"{name} ({h.title}, {said})"


def short_name(label: str) -> str:
    """A label with its parameters in words first and the paper's symbols after, once (section II-B), as the
    Heuristics page and the docs say it where parameters are set: "kpb (each class's fastest machine, k̄ = 1)" for
    "kpb (kbar=1)"; any label whose parameters have no short words here as it is ("mct", a plug-in's)."""
    name, said = _said(label)
    if not said or not any(h.name == name for h in HEURISTICS):
        return str(label)
    words = [w for w, _ in said]
    symbols = [s for _, s in said if s]
    return f"{name} ({', '.join([*words, *symbols])})"


def said_name(label: str) -> str:
    """A label as a line of text, a legend or a chip names it for a manager: its parameters in words alone, no
    symbol ("kpb (each class's fastest machine)" for "kpb (kbar=1)", section II-B); any label whose parameters have
    no short words here as it is."""
    name, said = _said(label)
    if not said or not any(h.name == name for h in HEURISTICS):
        return str(label)
    return f"{name} ({', '.join(w for w, _ in said)})"


#: A parameter's words on a narrow tick, a panel beside others (:func:`tick_name`): "each class's fastest", "3
#: fastest a class" (the lines' "each class's fastest machine", short: the full words push a 1000-px page's panel
#: titles into each other).
TICK_WORDS: dict[str, Callable[[str], str | None]] = {
    "kbar": lambda v: None if _number(v) is None else "each class's fastest" if _number(v) == 1
    else f"{v} fastest a class",
    "k": lambda v: None if _number(v) is None else f"fastest {v}%",
}


def tick_name(label: str) -> str:
    """A label on a narrow chart's tick, a panel beside others: its parameters in a few words, no symbol ("kpb
    (each class's fastest)" for "kpb (kbar=1)", "kpb (3 fastest a class)"; the full words are on hover and in
    :func:`said_name` elsewhere); a label with another parameter as :func:`said_name` says it."""
    name, params = label_parts(label)
    said = [TICK_WORDS[k](v) if k in TICK_WORDS else None for k, v in params.items()]
    if not params or not all(said) or not any(h.name == name for h in HEURISTICS):
        return said_name(label)
    return f"{name} ({', '.join(said)})"


def _said(label: str) -> tuple[str, list[tuple[str, str]]]:
    """A label's name and each of its parameters as (words, symbol) (:data:`SHORT_WORDS`); no parameters where one
    of them has no short words here."""
    name, params = label_parts(label)
    said = [SHORT_WORDS[k](v) if k in SHORT_WORDS else None for k, v in params.items()]
    return name, said if all(said) else []


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _subset_words(kbar: str) -> str:
    """KPB's k-bar in words (section II-B): the machines of each class it compares, "" for what is no number."""
    n = _number(kbar)
    if n is None:
        return ""
    return "each class's fastest machine" if n == 1 else \
        f"earliest finish among each class's {kbar} fastest machines"


def _percent_words(k: str) -> str:
    """KPB's k in words: the share of the machines it compares, "" for what is no number."""
    return "" if _number(k) is None else f"earliest finish among each class's fastest {k}% of machines"


def _subset_short(kbar: str) -> tuple[str, str] | None:
    """KPB's k-bar for a tick: ("each class's fastest machine", "k̄ = 1"); None for what is no number."""
    n = _number(kbar)
    if n is None:
        return None
    return ("each class's fastest machine" if n == 1 else f"each class's {kbar} fastest machines", f"k̄ = {kbar}")


def _percent_short(k: str) -> tuple[str, str] | None:
    """KPB's k for a tick: ("each class's fastest 20% of machines", "k = 20%"); None for what is no number."""
    return None if _number(k) is None else (f"each class's fastest {k}% of machines", f"k = {k}%")


#: A label's parameter (as written, "kbar=1") -> its value in a few words and the paper's symbol ("" for none), or
#: None where its value has no words; :func:`short_name` says a label with any other parameter as written.
SHORT_WORDS: dict[str, Callable[[str], tuple[str, str] | None]] = {
    "kbar": _subset_short,
    "k": _percent_short,
    "ties": lambda v: {"lowest": ("ties to the lowest machine", ""), "random": ("ties at random", "")}.get(v),
}

#: A label's parameter (as written, "kbar=1") -> its value in words; a parameter not here is said as written.
PARAM_WORDS: dict[str, Callable[[str], str]] = {
    "kbar": _subset_words,
    "k": _percent_words,
    "ties": {"lowest": "ties to the lowest-numbered machine", "random": "ties broken at random"}.get,
}


def _every(params: dict, machines: int) -> int:
    return machines


def _one(params: dict, machines: int) -> int:
    return 1


@dataclass(frozen=True)
class FastestFirst(ClassHeuristic):
    """The earliest expected completion W_j + 1/mu_ij among the ``subset(params, M)`` machines that run the class
    fastest (MCT: all of them, MET: one, KPB: kbar; section II-B). KPB's subset is a fixed set either way ties are
    broken (the lowest indices where machines tie at its edge): the paper defines S_i^k as one set per class.

    Parameters
    ----------
    subset : Callable
        (params, machines) -> how many of the fastest machines it compares.
    """

    subset: Callable[[dict, int], int] = field(default=_every, repr=False)

    def policy(self, params: dict, spec: ClassSpec) -> Policy:
        allowed = fastest(spec, self.subset(params, spec.machines))
        return Policy(self.kind, allowed, spec.mu, ties=simulation.tie_rule(params))


@dataclass(frozen=True)
class MinimumExecution(FastestFirst):
    """MET: the machine that runs the class fastest; with ``ties="random"``, one of those tied for fastest drawn
    uniformly (the kernels' STATIC rule with equal weights)."""

    def policy(self, params: dict, spec: ClassSpec) -> Policy:
        if simulation.tie_rule(params) == kernels.RANDOM:
            time = execution_times(spec)
            allowed = (spec.mu > 0) & (time == time.min(axis=1, keepdims=True))
            return Policy(kernels.STATIC, allowed, np.ones_like(spec.mu), ties=kernels.RANDOM)
        return super().policy(params, spec)


@dataclass(frozen=True)
class LPBased(ClassHeuristic):
    """A heuristic over the allocation LP's S_i = {j : delta*_ij > 0} with weights delta*_ij mu_ij (sections III-A,
    IV, V); ``kind`` chooses among them (earliest completion, two choices, a static draw, guided)."""

    def policy(self, params: dict, spec: ClassSpec) -> Policy:
        alloc = spec.allocation()
        return Policy(self.kind, alloc.support, alloc.delta * spec.mu, float(params.get("c", 0.0)),
                      simulation.tie_rule(params))


TIES = Param("ties", "lowest", "choice", choices=("lowest", "random"),
             doc="ties, which the paper breaks 'arbitrarily' (sections II-B, III-A): the lowest machine index, or a "
                 "machine drawn at random among those tied (seeded: every heuristic of a replication sees the same "
                 "draws)")
GUIDED_C = (Param("c", 1.0, float, 0.0, doc="the constant C_ij of condition (iii)"),)


def _classes(kind: type, name: str, rule: int, section: str, title: str, description: str, params=(), **more):
    return kind(name, title, "immediate", rule, section, description, (*params, TIES), models=(MODEL,),
                paper=AL_AZZONI, **more)


HEURISTICS: tuple[Heuristic, ...] = (
    _classes(FastestFirst, "mct", kernels.EARLIEST, "II-B", "Minimum completion time",
             "Maps a class-i arrival to the capable machine with the earliest expected completion: 1/mu_ij plus the "
             "expected work of its queue, the running task counted in full."),
    _classes(MinimumExecution, "met", kernels.EARLIEST, "II-B", "Minimum execution time",
             "Maps a class-i arrival to the machine that executes class i fastest (the largest mu_ij), ignoring "
             "queues.", subset=_one),
    _classes(FastestFirst, "kpb", kernels.EARLIEST, "II-B", "K-percent best",
             "Considers the kbar machines that execute class i fastest (kbar given, else floor(k M / 100), at least "
             "one) and maps to the earliest expected completion among them.",
             (Param("k", 20.0, float, 0.0, 100.0, low_open=True,
                    doc="the share of the machines, in percent, each task chooses among: its class's fastest"),
              Param("kbar", None, float, 1.0, optional=True,
                    doc="how many of its class's fastest machines each task chooses among (k-bar, section II-B); "
                        "overrides k")),
             checks=(whole_number("kbar", "machines"),), subset=kbar_of, params_say_rule=True),
    _classes(LPBased, "lpas", kernels.EARLIEST, "III-A", "LP-based affinity scheduling",
             "Solves the allocation LP and maps a class-i arrival to the machine with the earliest expected "
             "completion time among S_i, the machines with delta*_ij > 0.",
             short_words="earliest finish among its class's machines"),
    _classes(LPBased, "lpas-2k", kernels.TWO_CHOICES, "IV-A.1", "LPAS-2/k",
             "Like LPAS, but compares only two machines of S_i, drawn with probabilities proportional to "
             "delta*_ij mu_ij (the second from the rest); fewer machines are asked for their state.", factor=2.0),
    _classes(LPBased, "lp-static", kernels.STATIC, "IV-A.2", "LP-Static",
             "Maps a class-i arrival to machine j with probability delta*_ij mu_ij / (lambda* alpha_i), using no "
             "state information.", factor=1.6),
    _classes(LPBased, "guided-lpas", kernels.GUIDED, "V", "Guided-LPAS",
             "LPAS restricted to machines whose share of class-i arrivals has not run ahead of its target: "
             "alpha_ij(t-) < pi_ij alpha_i(t) + c sqrt(t). Guaranteed to stabilise a stabilisable system "
             "(Theorem 3).", GUIDED_C, factor=2.0),
    _classes(LPBased, "guided-lpas-2k", kernels.GUIDED_TWO, "V", "Guided-LPAS-2/k",
             "LPAS-2/k over the machines of S_i that satisfy Guided-LPAS's condition (iii); Theorem 4.", GUIDED_C,
             factor=2.5),
)


# --- plug-ins ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PluginHeuristic(ClassHeuristic):
    """A user's heuristic: its ``rule`` (:class:`hcsched.models.classes.plugin.Rule`) chooses a machine for each
    arrival, in the event loop's compiled form when it is a ``numba.njit`` function, else in its Python form.

    Parameters
    ----------
    cost : Callable, optional
        (spec, heuristic) -> seconds of one replication on one core; without it, :meth:`trial_seconds` is MCT's
        scaled by ``factor`` (JIT_FACTOR jitted, PYTHON_FACTOR in Python).
    """

    cost: Callable[[Any, Any], float] | None = field(default=None, repr=False, compare=False)

    @property
    def jitted(self) -> bool:
        """Whether its rule is a numba dispatcher, compiled into the event loop."""
        return hasattr(self.rule, "py_func")

    def trial_seconds(self, spec: Any, heuristic: HeuristicSpec) -> float:
        if self.cost is not None:
            return float(self.cost(spec, heuristic))
        return super().trial_seconds(spec, heuristic)

    def policy(self, params: dict, spec: ClassSpec) -> Policy:
        """Every machine that can run the class (mu_ij > 0): the state a plug-in reads and may choose among."""
        return Policy(kernels.PLUGIN, spec.mu > 0, spec.mu)

    def run(self, spec: ClassSpec, heuristic: HeuristicSpec, workload: ClassWorkload) -> ClassRun:
        choose = self.rule if self.jitted else _checked(self.rule, self.name)
        plugin = (choose, spec.mu, spec.allocation().delta, self.rule_params(heuristic.kwargs))
        try:
            run, bad = simulation.run_loop(heuristic, spec, workload, plugin)
        except HcschedError:
            raise
        except Exception as exc:  # noqa: BLE001  (a user's rule: its error in one line)
            raise HcschedError(f"heuristic {self.name!r}: its rule raised {type(exc).__name__}: {exc}".splitlines()[0]
                               ) from None
        if bad >= 0:
            i, j, t = int(workload.cls[bad]), int(run.schedule.machine[bad]), float(workload.arrival[bad])
            raise HcschedError(f"heuristic {self.name!r} sent a class-{i} task arriving at {t:g} to machine {j}; "
                               f"allowed: a machine that can run class {i} (mu[{i}, j] > 0): "
                               f"{', '.join(map(str, np.flatnonzero(spec.mu[i] > 0)))}")
        return run


def _checked(rule: Callable, name: str) -> Callable:
    """A plain-Python rule whose answer must be an integer (the event loop checks the machine)."""
    def choose(task, machines, params):
        j = rule(task, machines, params)
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)):
            raise HcschedError(f"heuristic {name!r} returned {j!r} for a class-{task.cls} task arriving at "
                               f"{task.now:g}; allowed: an int, the index of a machine that can run the class")
        return int(j)
    return choose


CAPABILITIES = ("cost", "mode")


def make_plugin(rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
                origin: str, **capabilities: Any) -> PluginHeuristic:
    """A heuristic of the task-class model around a user's rule (:class:`hcsched.models.classes.plugin.Rule`).

    Parameters
    ----------
    rule : Callable
        ``rule(task, machines, params) -> int``: a plain Python function or a ``numba.njit`` one.
    name, title, description, section, paper, origin : str
        What it is (:func:`hcsched.heuristic`).
    params : tuple of Param
        Its parameters; the rule receives them resolved, in this order
        (:meth:`~hcsched.heuristics.Heuristic.rule_params`).
    **capabilities
        ``cost``: (spec, heuristic) -> seconds of one replication on one core (default: MCT's scaled);
        ``mode``: "immediate" only (every heuristic of this model maps each arrival at once).

    Returns
    -------
    PluginHeuristic
        The heuristic object, to register or to name in a scenario.
    """
    unknown = sorted(set(capabilities) - set(CAPABILITIES))
    if unknown:
        raise HcschedError(f"plug-in heuristic {name!r}: the 'classes' model has no capability "
                           f"{', '.join(map(repr, unknown))}; allowed: {', '.join(CAPABILITIES)}")
    if capabilities.get("mode", "immediate") != "immediate":
        raise HcschedError(f"plug-in heuristic {name!r}: mode {capabilities['mode']!r} is not allowed; allowed: "
                           "immediate (the 'classes' model maps each arrival at once)")
    cost = capabilities.get("cost")
    if cost is not None and not callable(cost):
        raise HcschedError(f"plug-in heuristic {name!r}: cost must be a function (spec, heuristic) -> seconds")
    jitted = hasattr(rule, "py_func")
    return PluginHeuristic(name, title, "immediate", kernels.PLUGIN, section, description, tuple(params),
                           models=(MODEL,), paper=paper, origin=origin, rule=rule,
                           factor=JIT_FACTOR if jitted else PYTHON_FACTOR, cost=cost)

