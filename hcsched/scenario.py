"""Scenarios: frozen, validated descriptions of an experiment, saved as JSON or TOML.

A CLI run, the dashboard and a user's file describe the same experiment with
the same object. A scenario holds what every model shares (name, heuristics,
benchmark, trials, seed) and its model's own spec; validation happens once,
in the model's spec and here; messages name the field, the value and what is
allowed.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, get_heuristic, register_heuristic
from hcsched.metrics import LOWER_BOUND
from hcsched.registry import DEFAULT_MODEL, get_model, model_names
from hcsched.userfiles import read_text, refuse_files
from hcsched.validate import MAX_TRIALS, choice, count, fail, keys, whole

MAX_NAME = 200  # characters of a scenario's name or a heuristic's label
MAX_DESCRIPTION = 2000  # characters of a scenario's description
MAX_TEXT_MB = 50  # the largest scenario text (a file, an upload, a paste) read, in MB


def text_field(where: str, value: Any, at_most: int) -> str:
    """A name, description or label: a string of at most ``at_most`` characters."""
    if not isinstance(value, str) or len(value) > at_most:
        shown = value if not isinstance(value, str) else value[:40] + "..."
        raise fail(where, shown, f"text of at most {at_most} characters")
    return value


def label_field(label: Any) -> str:
    """A heuristic's label: text as :func:`text_field` allows, on one line and without ``<`` or ``>``. A label names
    the heuristic's bars, rows and CSV columns, and chart text is HTML to Plotly: so a label can never become a link or
    an image in a chart, or a second line in a CSV."""
    text_field("heuristics.label", label, MAX_NAME)
    if any(c in "<>" or not c.isprintable() for c in label):
        raise fail("heuristics.label", label, f"text of at most {MAX_NAME} characters on one line, without < or >")
    return label


@dataclass(frozen=True)
class HeuristicSpec:
    """A heuristic with its resolved parameters and a readable label."""

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    label: str = ""
    model: str | None = None  # the model whose heuristic of that name is meant (names are scoped by model)

    @classmethod
    def make(cls, name: str, label: str | None = None, *, model: str | None = None, **params: Any) -> HeuristicSpec:
        if label is not None:
            label_field(label)
        h = get_heuristic(text_field("heuristics.name", name, MAX_NAME), model)
        values = h.resolve(params)
        if not label:
            changed = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items()
                       if v != h.defaults()[k] and k in params]
            label = h.name + (f" ({', '.join(changed)})" if changed else "")
        return cls(h.name, tuple(sorted(values.items())), label, model)

    @property
    def heuristic(self):
        return get_heuristic(self.name, self.model)

    @property
    def kwargs(self) -> dict[str, Any]:
        return dict(self.params)

    def to_json(self) -> Any:
        h = self.heuristic
        changed = {k: v for k, v in self.params if v != h.defaults()[k]}
        auto = HeuristicSpec.make(self.name, model=self.model, **changed).label
        if not changed and self.label == auto:
            return self.name
        out = {"name": self.name, **changed}
        if self.label != auto:
            out["label"] = self.label
        return out


def heuristic_spec(item: Any, model: str | None = None) -> HeuristicSpec:
    """A spec from a name (``"mct"``) or a table (``{"name": "kpb", "k": 10, "label": ...}``), of ``model``'s
    heuristic of that name when given."""
    if isinstance(item, Heuristic):  # a plug-in object (hcsched.heuristic): registered, then named like any other
        if model is not None and model not in item.models:
            raise HcschedError(f"scenario field 'heuristics': {item.name!r} is a heuristic of the "
                               f"{', '.join(item.models)} model, not of the {model!r} model")
        if item.plugin:
            register_heuristic(item)
        return HeuristicSpec.make(item.name, model=model or item.models[0])
    if isinstance(item, HeuristicSpec):
        return item if model in (None, item.model) else HeuristicSpec.make(item.name, item.label, model=model,
                                                                             **dict(item.params))
    if isinstance(item, str):
        return HeuristicSpec.make(item, model=model)
    if isinstance(item, dict) and "name" in item:
        rest = {k: v for k, v in item.items() if k not in ("name", "label")}
        return HeuristicSpec.make(item["name"], item.get("label"), model=model, **rest)
    raise HcschedError(f"scenario field 'heuristics': {item!r} is not allowed; "
                       "give a name or a table with 'name' and parameters")


GENERIC_KEYS = ("name", "description", "model", "heuristics", "benchmark", "trials", "seed")


@dataclass(frozen=True, init=False)
class Scenario:
    """One experiment: a model's spec, the heuristics to compare, trials and seed.

    ``Scenario(machines=8, tasks=200, ...)`` passes the keywords that are not
    common to every scenario to the model's spec; the spec's fields read as
    the scenario's own (``scenario.machines``, ``scenario.etc``,
    ``scenario.classes``).
    """

    name: str
    description: str
    model: str
    spec: Any
    heuristics: tuple[HeuristicSpec, ...]
    benchmark: str | None
    trials: int
    seed: int

    def __init__(self, name: str = "custom", description: str = "", model: str = DEFAULT_MODEL, heuristics=(),
                 benchmark: str | None = None, trials: int = 50, seed: int = 0, spec: Any = None,
                 **fields: Any) -> None:
        m = get_model(choice("model", model, model_names()) if isinstance(model, str) else model)
        if spec is None:
            try:
                spec = m.make_spec(**fields)
            except TypeError as exc:
                raise HcschedError(f"scenario: {exc}") from None
        elif fields:
            spec = m.replace_spec(spec, **fields)
        text_field("name", name, MAX_NAME)
        text_field("description", description, MAX_DESCRIPTION)
        for key, value in (("name", name), ("description", description), ("model", m.name), ("spec", spec),
                           ("benchmark", benchmark), ("trials", trials), ("seed", seed)):
            object.__setattr__(self, key, value)
        count(self, "trials", MAX_TRIALS)
        whole(self, "seed", 0)
        if not isinstance(heuristics, (list, tuple)):
            raise fail("heuristics", heuristics, "a list of heuristic names or tables")
        object.__setattr__(self, "heuristics", tuple(self._heuristic(h) for h in heuristics))
        if not self.heuristics:
            raise HcschedError("scenario field 'heuristics': empty; name at least one heuristic")
        labels = [h.label for h in self.heuristics]
        dup = next((x for x in labels if labels.count(x) > 1), None)
        if dup:
            raise HcschedError(f"scenario field 'heuristics': the label {dup!r} is used twice; "
                               "give each a distinct 'label'")
        bound = [LOWER_BOUND] if get_model(self.model).bound_columns else []
        if self.benchmark is not None and self.benchmark not in labels + bound:
            raise fail("benchmark", self.benchmark, "the label of one of the scenario's heuristics: "
                       + ", ".join(labels + [repr(b) for b in bound]))

    def _heuristic(self, item: Any) -> HeuristicSpec:
        """``item`` as this model's heuristic (names are scoped by model); errors name the field."""
        try:
            return heuristic_spec(item, self.model)
        except HcschedError as exc:
            text = str(exc)
            raise HcschedError(text if text.startswith("scenario field")
                               else f"scenario field 'heuristics': {text}") from None

    def __getattr__(self, name: str) -> Any:
        """The model spec's fields read as the scenario's own (only called when normal lookup fails)."""
        if name.startswith("_") or name == "spec":
            raise AttributeError(name)
        try:
            return getattr(self.spec, name)
        except AttributeError:
            raise AttributeError(f"a scenario of the {self.model!r} model has no attribute {name!r}") from None

    @property
    def benchmark_label(self) -> str:
        """The heuristic normalised metrics are divided by: as given, else the model's default (Min-min if present,
        else MCT, for the ETC model), else the first."""
        if self.benchmark:
            return self.benchmark
        for name in get_model(self.model).benchmarks:
            for h in self.heuristics:
                if h.label == name:
                    return h.label
        return self.heuristics[0].label

    def replace(self, **changes: Any) -> Scenario:
        """A copy with ``changes``: common keys, ``spec``, or fields of the model's spec."""
        common = {k: changes.pop(k) for k in (*GENERIC_KEYS, "spec") if k in changes}
        values = {k: getattr(self, k) for k in (*GENERIC_KEYS, "spec")}
        values.update(common)
        if changes:
            values["spec"] = get_model(values["model"]).replace_spec(values["spec"], **changes)
        return Scenario(**values)

    # --- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "description": self.description, "model": self.model,
               **get_model(self.model).spec_to_dict(self.spec),
               "heuristics": [h.to_json() for h in self.heuristics], "trials": self.trials, "seed": self.seed}
        if self.benchmark:
            out["benchmark"] = self.benchmark
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], base_dir: Path | None = None) -> Scenario:
        """A scenario from its file's table. The files it names (``etc.path``, ...) are read relative to ``base_dir``,
        and only when it is given (the user's own scenario file): without it, a key naming a file is refused before
        any model reads the table. Any bad table raises HcschedError, never another exception."""
        if not isinstance(data, dict):
            raise HcschedError(f"scenario: expected a table of settings, got {_shown(data)}")
        if base_dir is None:
            refuse_files(data)
        try:
            return cls._from_table(data, base_dir)
        except RecursionError:
            raise HcschedError("scenario: nested too deeply; allowed: tables and lists a few levels deep") from None
        except HcschedError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as exc:
            raise HcschedError(f"scenario{_culprit(data, base_dir)}: a value of the wrong kind "
                               f"({type(exc).__name__}: {_shown(exc, 120)}); allowed: the kinds of value the "
                               "scenario file format gives") from None

    @classmethod
    def _from_table(cls, data: dict[str, Any], base_dir: Path | None) -> Scenario:
        model = get_model(choice("model", data.get("model", DEFAULT_MODEL), model_names()))
        data = dict(keys("scenario", data, set(GENERIC_KEYS) | model.spec_keys))
        spec = model.spec_from_dict({k: data.pop(k) for k in model.spec_keys if k in data}, base_dir)
        return cls(**data, spec=spec)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_toml(self) -> str:
        import tomli_w

        data = self.to_dict()
        data["heuristics"] = [{"name": h} if isinstance(h, str) else h for h in data["heuristics"]]
        data = {k: v for k, v in data.items() if v is not None}
        return tomli_w.dumps(data)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.write_text(self.to_toml() if path.suffix.lower() == ".toml" else self.to_json())


def _shown(value: Any, at_most: int = 60) -> str:
    """A value or message as a message quotes it: one line, at most ``at_most`` characters."""
    try:
        text = " ".join(str(value).split()) if isinstance(value, BaseException) else repr(value)
    except (ValueError, RecursionError):  # a huge integer, a deep structure
        text = f"a {type(value).__name__}"
    return text if len(text) <= at_most else text[:at_most - 3] + "..."


def _culprit(data: dict[str, Any], base_dir: Path | None) -> str:
    """" field 'KEY'" for the first top-level key whose value alone makes the table fail other than with
    HcschedError (the others left at their defaults), or "" when none does alone."""
    model = {"model": data["model"]} if "model" in data else {}
    for key in data:
        try:
            Scenario._from_table({"heuristics": [], **model, key: data[key]}, base_dir)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            if not isinstance(exc, HcschedError):
                return f" field {key!r}"
    return ""


def parse_scenario(text: str, fmt: str = "json", source: str = "scenario", base_dir: Path | None = None) -> Scenario:
    """A scenario from JSON or TOML text (at most ``MAX_TEXT_MB``); the files it names are read relative to
    ``base_dir``, and only when it is given (see :meth:`Scenario.from_dict`)."""
    if len(text) > MAX_TEXT_MB * 1e6:
        raise HcschedError(f"{source}: over {MAX_TEXT_MB} MB; allowed: a scenario of at most {MAX_TEXT_MB} MB")
    try:
        data = tomllib.loads(text) if fmt == "toml" else json.loads(text)
    except RecursionError:
        raise HcschedError(f"{source}: nested too deeply to read; "
                           "allowed: tables and lists a few levels deep") from None
    except ValueError as exc:  # the decoders' errors, and integers of more digits than Python converts
        why = "a number of more digits than allowed" if "integer string conversion" in str(exc) else _shown(exc, 200)
        raise HcschedError(f"{source}: not valid {fmt.upper()} ({why})") from None
    return Scenario.from_dict(data, base_dir)


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario from a ``.json`` or ``.toml`` file; the files it names are read relative to its folder.

    Parameters
    ----------
    path : str or Path
        The scenario file (at most ``MAX_TEXT_MB`` MB of text).

    Returns
    -------
    Scenario
        The scenario, validated.

    Raises
    ------
    HcschedError
        One line naming the field, the value and what is allowed.
    """
    path = Path(path)
    text = read_text(path, "scenario file", "a JSON or TOML scenario file", int(MAX_TEXT_MB * 1e6),
                     "the largest scenario file read")
    fmt = "toml" if path.suffix.lower() == ".toml" else "json"
    return parse_scenario(text, fmt, f"scenario file {str(path)!r}", path.parent)
