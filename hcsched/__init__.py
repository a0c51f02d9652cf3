"""hcsched: compare task-mapping heuristics for heterogeneous computing systems.

The library never imports streamlit; the dashboard (``app.py``) and the
``hcsched`` command are built on this API. Each system model of the seed
papers lives in :mod:`hcsched.models`.
"""

from hcsched import _numba_cache  # noqa: F401  (first: it sets numba's cache folder before numba is imported)
from hcsched.errors import HcschedError
from hcsched.experiment import simulate, trial_runs, trial_schedules
from hcsched.heuristics import REGISTRY, get_heuristic, heuristic_names
from hcsched.models import MODELS, get_model, model_names
from hcsched.models.etc.calibration import calibrate
from hcsched.models.etc.mapping import MappingResult, map_tasks
from hcsched.presets import preset, preset_names
from hcsched.readers import read_etc
from hcsched.scenario import Scenario, load_scenario
from hcsched.stats import mean_ci, summarize
from hcsched.verdict import Verdict, scenario_verdicts, verdict_lines, verdicts

__all__ = [
    "MODELS", "REGISTRY", "HcschedError", "MappingResult", "Scenario", "calibrate", "get_heuristic", "get_model",
    "heuristic_names", "load_scenario", "map_tasks", "mean_ci", "model_names", "preset", "preset_names", "read_etc",
    "Verdict", "scenario_verdicts", "simulate", "summarize", "trial_runs", "trial_schedules", "verdict_lines", "verdicts",
]
__version__ = "0.1.0"
