"""The registry of system models: a bottom layer every layer can import without loading the models.

It holds the registered :class:`~hcsched.models.base.Model` instances by name; importing :mod:`hcsched.models`
registers the five models of the seed papers (``hcsched/__init__.py`` does, so the registry is full whenever
``hcsched`` is imported). A new model registers itself with :func:`register`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from hcsched.errors import HcschedError, did_you_mean


@runtime_checkable
class ModelLike(Protocol):
    """What :func:`get_model` accepts as a model (the interface itself, ``Model``, lives in ``hcsched.models.base``,
    above this layer)."""

    name: str

    def make_spec(self, **fields: Any) -> Any: ...

    def workload(self, spec: Any, seed_seq: Any) -> Any: ...

    def run(self, spec: Any, heuristic: Any, workload: Any) -> Any: ...

    def measure(self, spec: Any, heuristic: Any, run: Any) -> dict[str, Any]: ...


MODELS: dict[str, Any] = {}  # name -> Model, in the order registered (the models' order everywhere)
DEFAULT_MODEL = "etc"  # a scenario's model when it names none


def register(model: Any) -> None:
    """Register a model under its name (a model of the same name is replaced)."""
    MODELS[model.name] = model


def model_names() -> list[str]:
    """The registered models' names (a scenario's ``"model"`` key).

    Returns
    -------
    list of str
        In the order the models are registered, the default ("etc") first.
    """
    return list(MODELS)


def get_model(name: str | ModelLike) -> Any:
    """The registered model of that name.

    Parameters
    ----------
    name : str or Model
        One of :func:`model_names`; a model given is returned as it is.

    Returns
    -------
    Model
        The model (:class:`hcsched.models.base.Model`): its metric descriptions, heuristics, presets, ...

    Raises
    ------
    HcschedError
        For an unknown name, with the valid ones.
    """
    if not isinstance(name, str) and isinstance(name, ModelLike):
        return name
    if name in MODELS:
        return MODELS[name]
    hint = did_you_mean(name, MODELS, n=2)
    raise HcschedError(f"scenario field 'model': {name!r} is not allowed; {hint}allowed: one of {', '.join(MODELS)}")
