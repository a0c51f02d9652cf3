"""The system models: importing this package registers each in :mod:`hcsched.registry`, the one list of them.

A scenario names its model (``"model": "etc"``, the default); everything
particular to a model lives in its own subpackage here, behind the interface
of :class:`~hcsched.models.base.Model`, including its own CLI commands and
public functions (``commands_module``). To add one, see the README's "How to
add a model".
"""

from __future__ import annotations

from hcsched.metrics import Metric
from hcsched.models.base import Command, Model
from hcsched.models.classes import MODEL as _CLASSES
from hcsched.models.estimation import MODEL as _ESTIMATION
from hcsched.models.etc import MODEL as _ETC
from hcsched.models.timeshared import MODEL as _TIMESHARED
from hcsched.models.value import MODEL as _VALUE
from hcsched.registry import DEFAULT_MODEL, MODELS, get_model, model_names, register

for _model in (_ETC, _CLASSES, _ESTIMATION, _TIMESHARED, _VALUE):
    register(_model)


def warm_up(names=None) -> None:
    """Compile the kernels of the models named (every model's by default); call before forking worker processes, so
    that no child starts while a compilation holds numba's lock and none has to compile again."""
    for name in MODELS if names is None else dict.fromkeys(names):
        get_model(name).warm_up()


__all__ = ["DEFAULT_MODEL", "MODELS", "Command", "Metric", "Model", "get_model", "model_names", "warm_up"]
