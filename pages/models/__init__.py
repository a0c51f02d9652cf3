"""The dashboard's part of each system model: its scenario editor and its own charts, one module per model.

The module of the library's model ``NAME`` (``hcsched.models``) is ``pages/models/NAME.py``;
it is found from the library's registry, so nothing here lists the models again.
Each module provides:

- ``editor(scenario)``: the Scenario page's widgets for the model's spec; it
  commits a valid edited scenario with ``pages.session.commit_scenario``;
- ``reset()``: forget the editor's own session state (a new scenario was loaded);
- ``overview(scenario, container)``: a small summary beside the scenario on Home;
- ``trial_charts(runs, colors, key)``: charts of one trial beyond the Gantt chart;
- optionally ``results_charts(results, scenario, colors, key)``: charts of the whole run on Results;
- optionally ``explain(scenario)``: the Explain page for this model, given a scenario of the model (the loaded one,
  or the model's default preset);
- optionally ``sweep_charts(table, key)``: charts of a sweep's table on the Sweep page.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import streamlit as st

from hcsched import Scenario, model_names
from pages.session import Keys, W


def ui(model: str) -> ModuleType:
    """The dashboard module of a model."""
    return importlib.import_module(f"pages.models.{model}")


def reset_all() -> None:
    """Forget every model editor's state."""
    for name in model_names():
        ui(name).reset()


def replace_scenario(scenario: Scenario) -> None:
    """Load ``scenario`` as the current one, every Scenario-page widget and model editor starting anew from it."""
    st.session_state[Keys.SCENARIO] = scenario
    for key in [k for k in st.session_state if str(k).startswith(W)]:
        del st.session_state[key]
    reset_all()
