"""The heuristic registry: one place that names every heuristic with its mode, parameters and paper section.

Each model declares its own heuristics (``Model.heuristics``: :class:`Heuristic` entries, each naming the models it
belongs to, with the model's rules beside them in its package); heuristic names are scoped by model, so two models
may each have a heuristic of the same name (seed 001's Min-min is not seed 000's). :func:`registry` gathers them in
the order the models are registered. The CLI, the dashboard and the docs read it through :func:`get_heuristic` and
:func:`heuristic_names`; nothing lists the heuristics a second time.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from hcsched.errors import HcschedError, did_you_mean
from hcsched.registry import DEFAULT_MODEL, MODELS

BUILT_IN = "built-in"
ENTRY_POINT_GROUP = "hcsched.heuristics"  # installed packages offer heuristics under this entry point group


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

    def as_number(self, value: Any) -> float:
        """A resolved value as a plug-in rule reads it: a number as itself, a choice as the index of its value among
        the choices, an optional one left off as NaN."""
        if value is None:
            return math.nan
        return float(self.choices.index(value)) if self.kind == "choice" else float(value)

    def check(self, value: Any, heuristic: str) -> Any:
        """Return ``value`` converted to this parameter's type, or raise naming what is allowed.

        None, "off" and "none" mean no value (allowed when ``optional``), except for a choice parameter that offers
        that word as a choice: Kim et al.'s ``step7`` is "on" or "off", and its "off" is a value."""
        where = f"heuristic {heuristic!r}, parameter {self.name!r}"
        if self.kind == "choice" and isinstance(value, str) and value in self.choices:
            return value
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


def whole_number(param: str, what: str):
    """A registry check (``Heuristic.checks``): the float parameter ``param``, when on, is a whole number of
    ``what``."""
    def check(v: dict) -> str | None:
        value = v.get(param)
        return (None if value is None or float(value).is_integer()
                else f"{param} ({value}) must be a whole number of {what}")
    return check


@dataclass(frozen=True)
class Heuristic:
    """A registered heuristic."""

    name: str
    title: str
    mode: str  # "immediate" or "batch"
    kind: int  # the kernel selector of its model's rules (-1 where the model selects by name)
    section: str
    description: str
    params: tuple[Param, ...] = ()
    models: tuple[str, ...] = ()
    paper: str = ""
    checks: tuple = field(default=(), repr=False)  # callables(params) -> error text or None
    reference: str = ""  # what it is when it cannot run online (a static benchmark, a bound): never crowned a winner
    origin: str = BUILT_IN  # where it comes from: built-in, "plug-in (FILE)" or "entry point (DISTRIBUTION)"
    rule: Any = field(default=None, repr=False, compare=False)  # a plug-in's decision function (the model's interface)

    # --- what is particular to a heuristic lives on it (each model's subclass answers these) ---------------------
    def trial_seconds(self, spec: Any, heuristic: Any) -> float:
        """The cost model of the run estimate: about how many seconds one trial of this heuristic takes on one core.

        Parameters
        ----------
        spec : the model's spec of the scenario.
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its resolved parameters.

        Returns
        -------
        float
            Seconds, finite and positive. A model's heuristics override it; the base raises, so a heuristic without
            a cost model fails :func:`hcsched.testing.check_heuristic` rather than running unestimated.
        """
        raise NotImplementedError(f"heuristic {self.name!r} ({type(self).__name__}) has no cost model: define "
                                  "trial_seconds(spec, heuristic)")

    def rule_params(self, values: dict[str, Any], params: tuple[Param, ...] | None = None) -> np.ndarray:
        """Its resolved parameters as its rule reads them: float64 in declared order (:meth:`Param.as_number`);
        ``params``: only these (e.g. a batch rule's own, without the engine's mapping-event parameters)."""
        return np.array([p.as_number(values[p.name]) for p in (self.params if params is None else params)], np.float64)

    @property
    def plugin(self) -> bool:
        """Whether it comes from outside hcsched (a ``--plugin`` file, an entry point or the Python API)."""
        return self.origin != BUILT_IN

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


PLUGINS: dict[tuple[str, str], Heuristic] = {}  # (model, name) -> a plug-in heuristic, in the order registered
PLUGIN_ERRORS: dict[str, str] = {}  # an entry point or file that failed to load -> why (shown by hcsched list)
_ENTRY_POINTS_LOADED = False


def registry() -> tuple[Heuristic, ...]:
    """Every registered heuristic: each registered model's own (``Model.heuristics``), in the models' order, then
    the plug-ins (the installed packages' entry points, loaded on first use, and those registered since)."""
    load_entry_points()
    return tuple(h for m in MODELS.values() for h in m.heuristics) + tuple(PLUGINS.values())


def register_heuristic(heuristic: Heuristic) -> Heuristic:
    """Register a plug-in heuristic for its models, so that scenarios, the CLI and the dashboard name it.

    Parameters
    ----------
    heuristic : Heuristic
        Made by :func:`hcsched.plugins.heuristic` (or a model's ``plugin`` method).

    Returns
    -------
    Heuristic
        The heuristic registered (the same object).

    Raises
    ------
    HcschedError
        When a built-in heuristic of one of its models has its name, or another plug-in of that name came from
        elsewhere (a plug-in registered again from the same place replaces itself).
    """
    if not isinstance(heuristic, Heuristic):
        raise HcschedError(f"a plug-in must be a heuristic (made with @hcsched.heuristic), "
                           f"not {type(heuristic).__name__}")
    for model in heuristic.models:
        built_in = MODELS[model].heuristics if model in MODELS else ()
        if any(h.name == heuristic.name for h in built_in):
            raise HcschedError(f"plug-in heuristic {heuristic.name!r}: the {model!r} model has a built-in heuristic "
                               "of that name; choose another name")
        old = PLUGINS.get((model, heuristic.name))
        if old is not None and old.origin != heuristic.origin:
            raise HcschedError(f"plug-in heuristic {heuristic.name!r} of the {model!r} model comes from both "
                               f"{old.origin} and {heuristic.origin}; rename one")
        PLUGINS[(model, heuristic.name)] = heuristic
    return heuristic


def unregister_heuristic(name: str, model: str) -> None:
    """Remove a plug-in heuristic (built-ins cannot be removed)."""
    PLUGINS.pop((model, _key(name)), None)


def load_entry_points(reload: bool = False) -> None:
    """Register the heuristics that installed packages offer under the entry point group ``hcsched.heuristics``.

    An entry point names a heuristic, a list of them or a module (whose module-level heuristics are taken). A package
    that fails to load is left out and its error kept in ``PLUGIN_ERRORS`` (``hcsched list`` shows it): one broken
    package never stops hcsched or the dashboard. Loaded once per process unless ``reload``.
    """
    global _ENTRY_POINTS_LOADED
    if _ENTRY_POINTS_LOADED and not reload:
        return
    _ENTRY_POINTS_LOADED = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        dist = getattr(ep.dist, "name", None) or ep.value.split(":")[0]
        where = f"entry point {ep.name} ({dist})"
        try:
            found = heuristics_in(ep.load())
            if not found:
                raise HcschedError(f"{ep.value} holds no heuristic")
            for h in found:
                register_heuristic(_with_origin(h, f"entry point ({dist})"))
        except Exception as exc:  # noqa: BLE001  (any error of someone else's package is reported, never raised)
            PLUGIN_ERRORS[where] = f"{type(exc).__name__}: {exc}".splitlines()[0]


def _with_origin(h: Heuristic, origin: str) -> Heuristic:
    return dataclasses.replace(h, origin=origin)


def heuristics_in(obj: Any) -> list[Heuristic]:
    """The heuristics an object holds: itself, the heuristics of a list or tuple, or a module's public ones."""
    if isinstance(obj, Heuristic):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [x for x in obj if isinstance(x, Heuristic)]
    if isinstance(obj, ModuleType):
        return [v for k, v in vars(obj).items() if isinstance(v, Heuristic) and not k.startswith("_")]
    return []


class _ByName(Mapping):
    """Every registered heuristic by name, the default model's where a name is shared (as :func:`get_heuristic`
    without a model): a live view of :func:`registry`, so a model registered later is in it too."""

    def _now(self) -> dict[str, Heuristic]:
        out: dict[str, Heuristic] = {}
        for h in registry():
            if h.name not in out or (DEFAULT_MODEL in h.models and DEFAULT_MODEL not in out[h.name].models):
                out[h.name] = h
        return out

    def __getitem__(self, name: str) -> Heuristic:
        return self._now()[name]

    def __iter__(self):
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return f"REGISTRY({', '.join(self._now())})"


REGISTRY: Mapping[str, Heuristic] = _ByName()  # kept for compatibility; get_heuristic and heuristic_names say more


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
        default = [h for h in found if DEFAULT_MODEL in h.models]
        if default:  # a name shared by several models means the default model's, where it was first (ETC's min-min)
            return default[0]
        owners = ", ".join(m for h in found for m in h.models)
        raise HcschedError(f"heuristic {name!r} exists in several models ({owners}); name the model")
    valid = heuristic_names(model=model)
    hint = did_you_mean(key, valid, cutoff=0.4)
    where = f" of the {model!r} model" if model else ""
    mine = [f"{h.name} ({h.origin})" for h in PLUGINS.values() if model is None or model in h.models]
    installed = f"plug-ins installed here: {', '.join(mine)}" if mine else "no plug-in is installed here"
    raise HcschedError(f"unknown heuristic {name!r} ({installed}); {hint}valid names{where}: {', '.join(valid)}")


def label_parts(label: str) -> tuple[str, dict[str, str]]:
    """A heuristic label's registry name and the parameters it names: "kpb (kbar=1)" -> ("kpb", {"kbar": "1"})
    (labels are made so by :meth:`hcsched.scenario.HeuristicSpec.make`; a label of one's own gives its first word)."""
    text = str(label).strip()
    base, _, rest = text.partition(" (")
    params = {}
    for part in rest.rstrip(")").split(","):
        name, eq, value = part.partition("=")
        if eq and name.strip():
            params[name.strip()] = value.strip()
    return _key(base), params


def told_apart(labels: list[str], model: str | None = None) -> dict[str, str]:
    """Each label as a reader tells it from the others of a run: a bare label beside labels of the same name with
    parameters is written with those parameters at its defaults ("fz" beside "fz (beta=0.1)" as "fz (beta=1)",
    said "fz (error weighted in full)"), so that the two are never both just "fz"; every other label as it is."""
    given: dict[str, set[str]] = {}
    for label in labels:
        name, params = label_parts(label)
        given.setdefault(name, set()).update(params)
    out = {}
    for label in labels:
        name, params = label_parts(label)
        out[label] = label
        if params or label != name or not given.get(name):
            continue
        try:
            defaults = get_heuristic(name, model).defaults()
        except HcschedError:
            continue
        keys = sorted(k for k in given[name] if k in defaults)
        if keys:
            written = [f"{k}={defaults[k]:g}" if isinstance(defaults[k], float) else f"{k}={defaults[k]}" for k in keys]
            out[label] = f"{name} ({', '.join(written)})"
    return out


def labels_model(labels) -> str | None:
    """The model whose heuristics the ``labels`` name: the first registered model that has all of them (names are
    scoped by model: value's min-min is not ETC's), else None; labels of one's own, which name no registered heuristic,
    are left out."""
    known = set(heuristic_names())
    names = {label_parts(x)[0] for x in labels} & known
    for model in MODELS:
        if names <= set(heuristic_names(model=model)):
            return model
    return None


def _plain_title(h: Heuristic) -> str:
    """The registry title without a leading copy of the short name ("FA: earliest estimated finish" -> "earliest
    estimated finish"), which the label beside it already says."""
    head, sep, rest = h.title.partition(": ")
    return rest if sep and _key(head) == h.name else h.title


def heuristic_title(label: str, model: str | None = None) -> str:
    """What a heuristic's label means in plain words, from the registry's title: "mct" -> "Minimum completion time";
    each parameter the label names is explained by its doc ("kpb (kbar=1)" -> "K-percent best; kbar = 1: number of
    machines in the subset (k-bar); overrides k"). "" where the label names no registered heuristic (a label of one's
    own). ``model``: whose heuristic (names are scoped by model); without it the default model's where shared."""
    name, params = label_parts(label)
    try:
        h = get_heuristic(name, model)
    except HcschedError:
        return ""
    docs = {p.name: p.doc for p in h.params}
    extra = [f"{k} = {v}" + (f": {docs[k]}" if docs.get(k) else "") for k, v in params.items()]
    return "; ".join([_plain_title(h), *extra])


def heuristic_hover(label: str, model: str | None = None) -> str:
    """A label with what it means, as a chart's hover text says it: "fa: earliest estimated finish", its parameters in
    the heuristic's own words where it has them (its ``label_words``: "mct (ties=random): Minimum completion time,
    ties broken at random"; alone where they say its whole rule, its ``params_say_rule``: "kpb (kbar=1): each
    class's fastest machine"); the label alone where the registry does not know it."""
    title = heuristic_title(label, model)
    if not title:
        return str(label)
    name, params = label_parts(label)
    h = get_heuristic(name, model)
    own = getattr(h, "label_words", None) if params else None
    words = own(params) if own is not None else ""
    if words and getattr(h, "params_say_rule", False):
        return f"{label}: {words}"
    return f"{label}: {_plain_title(h)}, {words}" if words else f"{label}: {title}"


def heuristic_hovers(labels, model: str | None = None) -> dict[str, str]:
    """:func:`heuristic_hover` of each label, the model found from the labels when not given (:func:`labels_model`):
    the one place every chart takes a heuristic's plain name from."""
    labels = list(dict.fromkeys(str(x) for x in labels))
    model = model or labels_model(labels)
    return {label: heuristic_hover(label, model) for label in labels}
