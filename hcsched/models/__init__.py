"""The registry of system models: the one place that lists them.

A scenario names its model (``"model": "etc"``, the default); everything
particular to a model lives in its own subpackage here, behind the interface
of :class:`~hcsched.models.base.Model`. To add one, see the README's "How to
add a model".
"""

from __future__ import annotations

import difflib

from hcsched.errors import HcschedError
from hcsched.metrics import Metric
from hcsched.models.base import Model
from hcsched.models.classes import MODEL as _CLASSES
from hcsched.models.estimation import MODEL as _ESTIMATION
from hcsched.models.etc import MODEL as _ETC
from hcsched.models.timeshared import MODEL as _TIMESHARED
from hcsched.models.value import MODEL as _VALUE

MODELS: dict[str, Model] = {m.name: m for m in (_ETC, _CLASSES, _ESTIMATION, _TIMESHARED, _VALUE)}
DEFAULT_MODEL = _ETC.name


def model_names() -> list[str]:
    return list(MODELS)


def get_model(name: str | Model) -> Model:
    """The registered model of that name; an unknown name is answered with the valid ones."""
    if isinstance(name, Model):
        return name
    if name in MODELS:
        return MODELS[name]
    close = difflib.get_close_matches(str(name), MODELS, n=2, cutoff=0.5)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    raise HcschedError(f"scenario field 'model': {name!r} is not allowed; {hint}allowed: one of {', '.join(MODELS)}")


def warm_up(names=None) -> None:
    """Compile the kernels of the models named (every model's by default); call before forking worker processes, so
    that no child starts while a compilation holds numba's lock and none has to compile again."""
    for name in MODELS if names is None else dict.fromkeys(names):
        get_model(name).warm_up()


__all__ = ["DEFAULT_MODEL", "MODELS", "Metric", "Model", "get_model", "model_names", "warm_up"]
