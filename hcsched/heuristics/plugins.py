"""Your own heuristic: the decorator that makes one, and the loading of plug-in files.

A heuristic is one object (:class:`~hcsched.heuristics.Heuristic`): its rule, its parameters, its cost model and its
capabilities. A model's ``plugin`` method wraps a user's decision function (the model's documented interface, in
``hcsched/models/NAME/plugin.py``) into such an object; :func:`heuristic` is the decorator that calls it. The object
then goes wherever a heuristic's name goes: ``hcsched.simulate(scenario, heuristics=[my_rule, "mct"])``, a scenario
file run with ``hcsched run scenario.json --plugin my_rules.py``, or an installed package's entry point in the group
``hcsched.heuristics`` (which the dashboard offers). hcsched never loads code from an upload or a link.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param, heuristics_in, register_heuristic
from hcsched.registry import MODELS, get_model
from hcsched.userfiles import read_text

NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789-"


def _param(name: str, value: Any) -> Param:
    """A parameter from a default alone: a number (int or float, any value allowed), or a text choice."""
    if isinstance(value, Param):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise HcschedError(f"plug-in parameter {name!r}: give a number, a text or a Param, not {value!r}")
    if isinstance(value, str):
        return Param(name, value, "choice", choices=(value,))
    return Param(name, value, int if isinstance(value, int) else float)


def params_of(params: Mapping[str, Any] | Iterable[Param]) -> tuple[Param, ...]:
    """Parameters as :class:`~hcsched.heuristics.Param`: ``{"k": 20.0}`` or ``(Param("k", 20.0, float, 0, 100),)``."""
    if isinstance(params, Mapping):
        return tuple(_param(k, v) for k, v in params.items())
    return tuple(_param(p.name, p) for p in params)


def plugin_name(name: str) -> str:
    """A heuristic's name as scenarios write it: lower case, words joined by '-' (``my_rule`` -> ``my-rule``)."""
    key = str(name).strip().lower().replace("_", "-")
    if not key or any(c not in NAME_CHARACTERS for c in key) or len(key) > 60:
        raise HcschedError(f"plug-in name {name!r} is not allowed; allowed: at most 60 letters, digits, '-' or '_'")
    return key


def heuristic(model: str, name: str | None = None, *, title: str = "", description: str = "",
              params: Mapping[str, Any] | Iterable[Param] = (), section: str = "", paper: str = "",
              **capabilities: Any) -> Callable[[Callable], Heuristic]:
    """Make a heuristic of ``model`` from a decision function: the function's name is the heuristic's.

    Parameters
    ----------
    model : str
        The model whose decision the function makes ("etc", "classes", "timeshared", "value", "estimation"); its
        interface is documented in "Write your own heuristic" and in ``hcsched.models.MODEL.plugin``.
    name : str, optional
        The name scenarios use (default: the function's name, ``_`` read as ``-``).
    title, description, section, paper : str
        What the heuristic is, for ``hcsched list``, the dashboard and the charts' hover text.
    params : mapping or tuple of Param
        Its parameters and their defaults, ``{"k": 20.0}``; the function receives them resolved.
    **capabilities
        What the model asks of its heuristics, e.g. ``mode="batch"`` in the ETC model.

    Returns
    -------
    Callable
        A decorator turning the function into a :class:`~hcsched.heuristics.Heuristic`.

    Examples
    --------
    >>> import numpy as np, hcsched
    >>> @hcsched.heuristic("etc", title="Earliest completion")
    ... def my_mct(task, machines):
    ...     return int(np.argmin(machines.ready + task.etc))
    >>> my_mct.name
    'my-mct'
    """
    owner = get_model(model)

    def make(rule: Callable) -> Heuristic:
        if not callable(rule):
            raise HcschedError(f"@heuristic({model!r}): decorate a function, not {type(rule).__name__}")
        py = getattr(rule, "py_func", rule)
        label = plugin_name(name or py.__name__)
        return owner.plugin(rule, name=label, title=title or label,
                            description=description or (inspect.getdoc(py) or ""),
                            params=params_of(params), section=section or "-", paper=paper or "plug-in",
                            origin=f"plug-in ({_where(py)})", **capabilities)

    return make


def _where(function: Callable) -> str:
    """The file (or module) a function was written in, by its name only."""
    try:
        return Path(inspect.getsourcefile(function) or "").name or function.__module__
    except TypeError:
        return function.__module__


LOADED: dict[str, str] = {}  # plug-in files loaded in this process: name as given -> source (for Dask workers)


def load_plugin_file(path: str | Path) -> list[Heuristic]:
    """Import a Python file of plug-in heuristics and register its module-level ones (``--plugin FILE``).

    Parameters
    ----------
    path : str or Path
        A Python file whose module-level names include heuristics made with :func:`heuristic`.

    Returns
    -------
    list of Heuristic
        The heuristics registered.

    Raises
    ------
    HcschedError
        When the file is missing or not a regular file, fails to import (the error's last line is given) or holds
        no heuristic.
    """
    name = str(path)
    source = read_text(path, "--plugin", "a Python file of @hcsched.heuristic functions")
    return load_plugin_source(name, source)


def load_plugin_source(name: str, source: str) -> list[Heuristic]:
    """:func:`load_plugin_file` of a file's text (how a Dask worker, which has not the file, receives it)."""
    module_name = f"hcsched_plugin_{Path(name).stem.replace('-', '_')}"
    module = ModuleType(module_name)
    module.__file__ = name
    sys.modules[module_name] = module  # so that pickles and numba find its functions by module
    short = Path(name).name
    try:
        exec(compile(source, name, "exec"), module.__dict__)  # noqa: S102  (a file the command line was given)
    except HcschedError as exc:
        sys.modules.pop(module_name, None)
        raise HcschedError(f"--plugin {short}: {exc}") from None
    except Exception as exc:  # noqa: BLE001  (a user's file: its error in one line)
        sys.modules.pop(module_name, None)
        raise HcschedError(f"--plugin {short}: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    found = heuristics_in(module)
    if not found:
        raise HcschedError(f"--plugin {short}: no heuristic in it; decorate a function with @hcsched.heuristic(MODEL)")
    LOADED[name] = source
    return [register_heuristic(h) for h in found]


def ensure_plugins(sources: dict[str, str]) -> None:
    """Load the plug-in files of ``sources`` (name -> text) not yet loaded in this process (a worker's first chunk)."""
    for name, source in sources.items():
        if LOADED.get(name) != source:
            load_plugin_source(name, source)


def plugin_models() -> list[str]:
    """The models that take plug-in heuristics (every registered model that defines ``plugin``)."""
    return [name for name, m in MODELS.items() if callable(getattr(m, "plugin", None))]
