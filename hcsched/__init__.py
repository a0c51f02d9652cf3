"""hcsched: compare task-mapping heuristics for heterogeneous computing systems.

The library never imports streamlit; the dashboard (``app.py``) and the
``hcsched`` command are built on this API. Each system model of the seed
papers lives in :mod:`hcsched.models`.

This module exports the model-agnostic API (``__all__``). A model's own
functions belong to the model: its package names them
(:meth:`~hcsched.models.base.Model.functions`, beside its own CLI commands),
and they are reached through it, ``hcsched.etc.map_tasks`` or
``hcsched.classes.solve_allocation``. So that every call written before still
works, ``hcsched.map_tasks``, ``hcsched.MappingResult`` and
``hcsched.calibrate`` (and ``from hcsched import map_tasks``) are answered by
the module's ``__getattr__``, which asks each model in turn; a model's
functions are imported on first use, not by ``import hcsched``.
"""

from types import SimpleNamespace
from typing import Any

from hcsched import _numba_cache  # noqa: F401  (first: it sets numba's cache folder before numba is imported)
from hcsched.errors import HcschedError
from hcsched.experiment import simulate, trial_runs, trial_schedules
from hcsched.heuristics import REGISTRY, Param, get_heuristic, heuristic_names, register_heuristic
from hcsched.heuristics.plugins import heuristic, load_plugin_file
from hcsched.models import MODELS, get_model, model_names
from hcsched.presets import preset, preset_names
from hcsched.readers import read_etc
from hcsched.scenario import Scenario, load_scenario
from hcsched.stats import mean_ci, summarize
from hcsched.verdict import Verdict, scenario_verdicts, verdict_lines, verdicts
from hcsched.version import __version__

__all__ = [
    "MODELS", "REGISTRY", "HcschedError", "Param", "Scenario", "get_heuristic", "get_model", "heuristic",
    "heuristic_names", "load_plugin_file", "load_scenario", "register_heuristic",
    "mean_ci", "model_names", "preset", "preset_names", "read_etc", "Verdict", "scenario_verdicts", "simulate",
    "summarize", "trial_runs", "trial_schedules", "verdict_lines", "verdicts", "__version__",
]


def __getattr__(name: str) -> Any:
    """``hcsched.MODEL``: that model's own functions (``hcsched.etc.map_tasks``); ``hcsched.FUNCTION``: the model's
    function of that name (``hcsched.map_tasks``). Each is kept here once found."""
    if name in MODELS:
        value: Any = SimpleNamespace(**MODELS[name].functions())
    else:
        value = next((f[name] for f in (m.functions() for m in MODELS.values()) if name in f), None)
        if value is None:
            raise AttributeError(f"module 'hcsched' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *MODELS, *(n for m in MODELS.values() for n in m.functions())})
