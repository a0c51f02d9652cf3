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
- optionally ``shared_bars(metrics)``: which of its bar metrics the Results page's shared bar chart draws (the
  others it charts in its own section; the verdicts still read them all);
- optionally ``heuristic_ticks(fig, labels)``: the shared charts' heuristic axes (the bars, the per-trial boxes, the
  Compare chart) ticked in the model's words (each heuristic's rule under its name, say), as its own charts tick it;
- optionally ``gantt_rows(scenario)``: what the Results page's Gantt rows are in the model's words, a
  ``hcsched.charts.GanttRows`` (servers s0.. with a lane per task, processors p0..); machines m0.. by default;
- optionally ``explain(scenario)``: the Explain page for this model, given a scenario of the model (the loaded one,
  or the model's default preset);
- optionally ``sweep_charts(table, key)``: charts of a sweep's table on the Sweep page;
- optionally ``shown_text(text)``: the model's own text (its headline, its warnings, the verdict's and the change
  line's sentences) as a page shows it;
- optionally ``SWEEP_KEY_EXAMPLE``: keys of its scenarios to type on the Sweep page, as an example;
- optionally ``EXAMPLE_FILES``: what its files in ``assets/examples`` (beside its scenario file) are for.

The shared pages ask for a model's text through the functions below; none of them names a model. Loading a scenario
(``replace_scenario``) lives here too, beside the editors it resets: the shared modules the editors use (session,
widgets) never import this package, so no import circle exists (pyproject's "Dashboard layers" contract).
"""

from __future__ import annotations

import importlib
from types import ModuleType

import streamlit as st

from hcsched import Scenario, model_names
from hcsched.charts import with_names, with_words
from hcsched.heuristics import label_parts, told_apart
from hcsched.verdict import heuristic_words
from pages.session import Keys, W


def ui(model: str) -> ModuleType:
    """The dashboard module of a model."""
    return importlib.import_module(f"pages.models.{model}")


def reset_all() -> None:
    """Forget every model editor's state."""
    for name in model_names():
        ui(name).reset()


def shown_text(model: str, text: str) -> str:
    """A model's text (its headline, its warnings) as the pages show it: its module's ``shown_text``, if it has one."""
    own = getattr(ui(model), "shown_text", None)
    return own(text) if own is not None else text


def heuristic_ticks(model: str, fig, labels):
    """A shared chart's heuristic axis (a category per label) as the model's module ticks it (its
    ``heuristic_ticks``: the value and estimation models' each name over its rule in words, :func:`named_in_words`),
    else by its short names (:func:`short_label`), else as it is (the ETC model's five panels of bars leave no room
    for words beside them at 1000 px)."""
    own = getattr(ui(model), "heuristic_ticks", None)
    if own is not None:
        return own(fig, list(labels))
    if getattr(ui(model), "short_name", None) is not None:
        return with_names(fig, list(labels), lambda label: short_label(model, label, labels))
    return fig


def named_in_words(model: str, fig, labels):
    """A chart's heuristic axis by the short names (:func:`short_label`) over each heuristic's rule in a few words
    (:func:`hcsched.verdict.heuristic_words` of its name: "fa" over "earliest estimated finish"): a model whose
    names are codes (the estimation model's fa, fe, fz, ...) ticks its charts so (its ``heuristic_ticks``)."""
    fig = with_names(fig, list(labels), lambda label: short_label(model, label, labels))
    return with_words(fig, list(labels), lambda label: heuristic_words(label_parts(str(label))[0], model))


def short_label(model: str, label: str, among=()) -> str:
    """A heuristic's label as a chart tick or a chip says it, its parameters as a person reads them (the model's
    module's ``short_name``: "fz (beta=0.1)" as "fz (error weighted a tenth)"), else the label; told apart from its
    namesakes ``among`` the run's labels (:func:`hcsched.verdict.told_apart`: "fz" beside it as "fz (error weighted
    in full)")."""
    own = getattr(ui(model), "short_name", None)
    if own is None:
        return label
    return own(told_apart(list(among), model).get(label, label) if label in among else label)


def gantt_note(model: str) -> str:
    """What a model's Gantt chart needs said beside a task marked in every panel (its module's ``GANTT_NOTE``: why
    one task's run time differs from machine to machine beyond their speeds), "" if it says nothing."""
    return getattr(ui(model), "GANTT_NOTE", "")


def sweep_key_example(model: str) -> str | None:
    """An example of a key to type on the Sweep page, from the model's module (None if it gives none)."""
    return getattr(ui(model), "SWEEP_KEY_EXAMPLE", None)


def example_files() -> list[str]:
    """What each model's example files are for, in the registry's order (models with none left out)."""
    return [text for text in (getattr(ui(name), "EXAMPLE_FILES", None) for name in model_names()) if text]


def replace_scenario(scenario: Scenario) -> None:
    """Load ``scenario`` as the current one, every Scenario-page widget and model editor starting anew from it."""
    st.session_state[Keys.SCENARIO] = scenario
    for key in [k for k in st.session_state if str(k).startswith(W)]:
        del st.session_state[key]
    reset_all()
