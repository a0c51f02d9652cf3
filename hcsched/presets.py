"""Every model's presets under one name space: the papers' experiments as scenarios (see each model's presets)."""

from __future__ import annotations

from collections.abc import Callable

from hcsched.errors import HcschedError, did_you_mean
from hcsched.models import MODELS
from hcsched.scenario import Scenario


def _presets() -> dict[str, Callable[[], Scenario]]:
    return {name: make for model in MODELS.values() for name, make in model.presets().items()}


def preset_names() -> list[str]:
    """The names of every model's presets (the papers' experiments and the quick start).

    Returns
    -------
    list of str
        The names :func:`preset` accepts, model by model in the order the models are registered.
    """
    return list(_presets())


def preset(name: str) -> Scenario:
    """The scenario of a named preset.

    Parameters
    ----------
    name : str
        One of :func:`preset_names` (e.g. "maheswaran-fig4", "quickstart").

    Returns
    -------
    Scenario
        A frozen scenario; ``.replace(...)`` gives an edited copy.

    Raises
    ------
    HcschedError
        For an unknown name, with the closest names and every valid one.
    """
    presets = _presets()
    if name not in presets:
        raise HcschedError(f"unknown preset {name!r}; {did_you_mean(name, presets)}valid names: {', '.join(presets)}")
    return presets[name]()


EDITED = " (edited)"  # the suffix of an edited preset's name


def preset_of(scenario: Scenario) -> Scenario | None:
    """The preset a scenario is, or is an edit of, by its name ("NAME" or "NAME (edited)"); None for another name."""
    name = scenario.name.removesuffix(EDITED)
    return preset(name) if name in preset_names() else None


def _sweeps() -> dict:
    return {name: sp for model in MODELS.values() for name, sp in model.sweeps().items()}


def sweep_preset_names() -> list[str]:
    return list(_sweeps())


def sweep_preset(name: str):
    """The :class:`~hcsched.models.base.SweepPreset` of a named built-in sweep."""
    sweeps = _sweeps()
    if name not in sweeps:
        raise HcschedError(f"unknown sweep preset {name!r}; "
                           f"{did_you_mean(name, sweeps)}valid names: {', '.join(sweeps)}")
    return sweeps[name]
