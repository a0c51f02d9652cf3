"""What the models' dense charts over time share on the Results page (not a model's module): the choice of the
heuristics they show."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from hcsched import get_model
from hcsched.curve_charts import SHOWN, default_shown
from pages.widgets import headline_metric


def shown_heuristics(results: pd.DataFrame, scenario, key: str) -> list[str]:
    """The heuristics the charts over time show, in the run's order: the user's choice, by default the best few by the
    model's headline metric and the benchmark."""
    headline = headline_metric(get_model(scenario.model))
    labels = list(dict.fromkeys(results["heuristic"]))
    chosen = st.multiselect("Heuristics shown over time", labels, default=default_shown(results, headline,
                                                                                         scenario.benchmark_label),
                            key=f"{key}_shown", help=f"By default {SHOWN} in all: the best by {headline.title.lower()}, "
                                                     "and the benchmark; add or remove any.")
    return [label for label in labels if label in chosen]  # in the run's order, whatever order they were chosen in
