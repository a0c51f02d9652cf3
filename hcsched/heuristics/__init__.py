"""The heuristic registry: one place that names every heuristic with its mode, parameters and paper section.

Heuristic names are scoped by model: each :class:`Heuristic` names the models
it belongs to, and two models may each have a heuristic of the same name
(seed 001's Min-min is not seed 000's). :func:`registry` is every registered
heuristic: the built-in ones of the ETC and class models below (their rules
live in :mod:`.immediate` or :mod:`.batch` as numba kernels selected by
``kind``, or in the class model), followed by the ``heuristics`` a model
declares on its :class:`~hcsched.models.base.Model` class. The CLI, the
dashboard and the docs read it through :func:`get_heuristic` and
:func:`heuristic_names`; nothing lists the heuristics a second time.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics import batch, immediate

MAHESWARAN = "Maheswaran et al. 1999"
AL_AZZONI = "Al-Azzoni and Down"
ETC, CLASSES = "etc", "classes"  # the models: per-task ETC matrices (seed 000), task classes with rates (seed 002)


@dataclass(frozen=True)
class Param:
    """A heuristic parameter: its default and the values allowed."""

    name: str
    default: Any
    kind: type | str = float  # float, int, or "choice"
    low: float | None = None
    high: float | None = None
    low_open: bool = False  # low itself is not allowed
    choices: tuple[str, ...] = ()
    optional: bool = False  # None (off) is allowed
    doc: str = ""

    def allowed(self) -> str:
        """What is allowed, in words."""
        if self.kind == "choice":
            text = "one of " + ", ".join(self.choices)
        else:
            noun = "an integer" if self.kind is int else "a number"
            lo = "" if self.low is None else f"{'>' if self.low_open else '>='} {self.low:g}"
            hi = "" if self.high is None else f"<= {self.high:g}"
            text = f"{noun} {' and '.join(x for x in (lo, hi) if x)}".strip()
        return text + (" (or off)" if self.optional else "")

    def check(self, value: Any, heuristic: str) -> Any:
        """Return ``value`` converted to this parameter's type, or raise naming what is allowed."""
        where = f"heuristic {heuristic!r}, parameter {self.name!r}"
        if value is None or (isinstance(value, str) and value.lower() in ("off", "none")):
            if self.optional:
                return None
            raise HcschedError(f"{where}: a value is required; allowed: {self.allowed()}")
        if self.kind == "choice":
            if value not in self.choices:
                raise HcschedError(f"{where}: {value!r} is not allowed; allowed: {self.allowed()}")
            return value
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise HcschedError(f"{where}: {value!r} is not a number; allowed: {self.allowed()}") from None
        if isinstance(value, bool) or math.isnan(number) or (self.kind is int and number != int(number)):
            raise HcschedError(f"{where}: {value!r} is not allowed; allowed: {self.allowed()}")
        too_low = self.low is not None and (number <= self.low if self.low_open else number < self.low)
        if too_low or (self.high is not None and number > self.high) or math.isinf(number):
            raise HcschedError(f"{where}: {value!r} is out of range; allowed: {self.allowed()}")
        return int(number) if self.kind is int else number


@dataclass(frozen=True)
class Heuristic:
    """A registered heuristic."""

    name: str
    title: str
    mode: str  # "immediate" or "batch"
    kind: int  # the kernel selector in .immediate or .batch
    section: str
    description: str
    params: tuple[Param, ...] = ()
    models: tuple[str, ...] = (ETC,)
    paper: str = MAHESWARAN
    checks: tuple = field(default=(), repr=False)  # callables(params) -> error text or None

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def resolve(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``given``, every value checked; unknown names are errors."""
        given = dict(given or {})
        known = {p.name: p for p in self.params}
        for key in given:
            if key not in known:
                allowed = ", ".join(known) or "none"
                raise HcschedError(f"heuristic {self.name!r}: unknown parameter {key!r}; its parameters are: {allowed}")
        values = {name: p.check(given.get(name, p.default), self.name) for name, p in known.items()}
        for check in self.checks:
            problem = check(values)
            if problem:
                raise HcschedError(f"heuristic {self.name!r}: {problem}")
        return values


def _kbar_whole(v: dict) -> str | None:
    return None if v.get("kbar") is None or float(v["kbar"]).is_integer() else f"kbar ({v['kbar']}) must be a whole number of machines"


def _sa_thresholds(v: dict) -> str | None:
    return None if v["low"] < v["high"] else f"low ({v['low']:g}) must be smaller than high ({v['high']:g})"


BATCH_PARAMS = (
    Param("strategy", "interval", "choice", choices=("interval", "count"), doc="when mapping events happen (section 3.3)"),
    Param("interval", 10.0, float, low=0.0, low_open=True, doc="seconds between mapping events (interval strategy)"),
    Param("kappa", 40, int, low=1, doc="meta-task size that triggers a mapping event (count strategy)"),
    Param("aging", None, float, low=0.0, low_open=True, optional=True, doc="sigma of the aging factor 1 + age/sigma; off by default"),
)

#: The built-in heuristics of the ETC and class models, by name (kept for compatibility; :func:`registry` has every
#: model's).
REGISTRY: dict[str, Heuristic] = {
    h.name: h
    for h in (
        Heuristic("mct", "Minimum completion time", "immediate", immediate.MCT, "3.2; Al-Azzoni and Down II-B",
                  "Assigns each arriving task to the machine on which it completes earliest, given the machines' expected ready times. The paper's benchmark for immediate mode.",
                  models=(ETC, CLASSES)),
        Heuristic("met", "Minimum execution time", "immediate", immediate.MET, "3.2; Al-Azzoni and Down II-B",
                  "Assigns each arriving task to the machine that executes it fastest, ignoring ready times; can load a few machines heavily.",
                  models=(ETC, CLASSES)),
        Heuristic("olb", "Opportunistic load balancing", "immediate", immediate.OLB, "3.2",
                  "Assigns each arriving task to the machine that becomes ready next, ignoring execution times."),
        Heuristic("sa", "Switching algorithm", "immediate", immediate.SA, "3.2",
                  "Uses MCT until the load balance index r_min/r_max reaches the high threshold, then MET until it falls to the low threshold, and so on.",
                  (Param("low", 0.6, float, 0.0, 1.0, doc="switch back to MCT when the load balance index falls to this"),
                   Param("high", 0.9, float, 0.0, 1.0, doc="switch to MET when the load balance index reaches this")),
                  checks=(_sa_thresholds,)),
        Heuristic("kpb", "K-percent best", "immediate", immediate.KPB, "3.2; Al-Azzoni and Down II-B",
                  "Considers only the floor(m k/100) machines (at least one) that execute the task fastest, or kbar machines if kbar is given, and picks the earliest completion among them. k = 100 is MCT; k = 100/m is MET.",
                  (Param("k", 20.0, float, 0.0, 100.0, low_open=True, doc="percent of the machines in the subset"),
                   Param("kbar", None, float, 1.0, optional=True, doc="number of machines in the subset; overrides k")),
                  models=(ETC, CLASSES), checks=(_kbar_whole,)),
        Heuristic("min-min", "Min-min", "batch", batch.MIN_MIN, "3.3",
                  "At each mapping event, repeatedly assigns the task with the smallest earliest completion time to that machine. The paper's benchmark for batch mode.",
                  BATCH_PARAMS),
        Heuristic("max-min", "Max-min", "batch", batch.MAX_MIN, "3.3",
                  "Like Min-min, but repeatedly assigns the task whose earliest completion time is largest.", BATCH_PARAMS),
        Heuristic("sufferage", "Sufferage", "batch", batch.SUFFERAGE, "3.3, Fig. 2",
                  "Gives each contended machine to the task that would suffer most (second earliest minus earliest completion time) if denied it; displaced tasks wait for the next pass.",
                  BATCH_PARAMS),
        Heuristic("lpas", "LP-based affinity scheduling", "immediate", -1, "III-A",
                  "Solves the allocation LP and maps a class-i arrival to the machine with the earliest expected completion time among S_i, the machines with delta*_ij > 0.",
                  models=(CLASSES,), paper=AL_AZZONI),
        Heuristic("lpas-2k", "LPAS-2/k", "immediate", -1, "IV-A.1",
                  "Like LPAS, but compares only two machines of S_i, drawn with probabilities proportional to delta*_ij mu_ij (the second from the rest); fewer machines are asked for their state.",
                  models=(CLASSES,), paper=AL_AZZONI),
        Heuristic("lp-static", "LP-Static", "immediate", -1, "IV-A.2",
                  "Maps a class-i arrival to machine j with probability delta*_ij mu_ij / (lambda* alpha_i), using no state information.",
                  models=(CLASSES,), paper=AL_AZZONI),
        Heuristic("guided-lpas", "Guided-LPAS", "immediate", -1, "V",
                  "LPAS restricted to machines whose share of class-i arrivals has not run ahead of its target: alpha_ij(t-) < pi_ij alpha_i(t) + c sqrt(t). Guaranteed to stabilise a stabilisable system (Theorem 3).",
                  (Param("c", 1.0, float, 0.0, doc="the constant C_ij of condition (iii)"),), models=(CLASSES,), paper=AL_AZZONI),
        Heuristic("guided-lpas-2k", "Guided-LPAS-2/k", "immediate", -1, "V",
                  "LPAS-2/k over the machines of S_i that satisfy Guided-LPAS's condition (iii) (Theorem 4).",
                  (Param("c", 1.0, float, 0.0, doc="the constant C_ij of condition (iii)"),), models=(CLASSES,), paper=AL_AZZONI),
    )
}


def registry() -> tuple[Heuristic, ...]:
    """Every registered heuristic: the built-in ones, then each registered model's own (``Model.heuristics``)."""
    from hcsched.models import MODELS  # models import this module: look them up when asked

    own = tuple(h for m in MODELS.values() for h in m.heuristics)
    return tuple(REGISTRY.values()) + own


def heuristic_names(mode: str | None = None, model: str | None = None) -> list[str]:
    """Registered heuristic names (each once), optionally only those of one mode or one model."""
    names = [h.name for h in registry() if (mode is None or h.mode == mode) and (model is None or model in h.models)]
    return list(dict.fromkeys(names))


def _key(name: str) -> str:
    return str(name).strip().lower().replace("_", "-")


def get_heuristic(name: str | Heuristic, model: str | None = None) -> Heuristic:
    """The registered heuristic of that name, in ``model`` when given (names are scoped by model).

    Without ``model`` a name shared by several models means the default model's (``min-min`` is seed 000's, as it
    was before other models named theirs so); a name shared only by other models must name the model. An unknown
    name is answered with the closest valid ones; a name of another model with the models it belongs to.
    """
    if isinstance(name, Heuristic):
        return name
    key = _key(name)
    found = [h for h in registry() if h.name == key]
    if model is not None:
        mine = [h for h in found if model in h.models]
        if mine:
            return mine[0]
        if found:
            owners = ", ".join(dict.fromkeys(m for h in found for m in h.models))
            raise HcschedError(f"{key!r} is not a heuristic of the {model!r} model (it belongs to the {owners} "
                               f"model{'s' if ',' in owners else ''}); its heuristics are: "
                               f"{', '.join(heuristic_names(model=model))}")
    elif len(found) == 1:
        return found[0]
    elif found:
        from hcsched.models import DEFAULT_MODEL

        default = [h for h in found if DEFAULT_MODEL in h.models]
        if default:  # a name shared by several models means the default model's, where it was first (ETC's min-min)
            return default[0]
        owners = ", ".join(m for h in found for m in h.models)
        raise HcschedError(f"heuristic {name!r} exists in several models ({owners}); name the model")
    valid = heuristic_names(model=model)
    close = difflib.get_close_matches(key, valid, n=3, cutoff=0.4)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    where = f" of the {model!r} model" if model else ""
    raise HcschedError(f"unknown heuristic {name!r}; {hint}valid names{where}: {', '.join(valid)}")
