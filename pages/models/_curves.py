"""What the models' own Results charts share (not a model's module): the choice of the heuristics the dense charts
over time show, and the page's short names said in plain words."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from hcsched import get_model
from hcsched.curve_charts import SHOWN, default_shown
from hcsched.heuristics import heuristic_title
from hcsched.verdict import run_words
from pages.models import short_label
from pages.widgets import headline_metric, plain


def shown_heuristics(results: pd.DataFrame, scenario, key: str, count: int = SHOWN) -> list[str]:
    """The heuristics the charts over time show, in the run's order: the user's choice, by default the best few by the
    model's headline metric and the benchmark, ``count`` in all."""
    headline = headline_metric(get_model(scenario.model))
    labels = list(dict.fromkeys(results["heuristic"]))
    chosen = st.multiselect("Heuristics shown over time", labels, default=default_shown(results, headline,
                                                                                         scenario.benchmark_label,
                                                                                         count),
                            key=f"{key}_shown", format_func=lambda label: short_label(scenario.model, label, labels),
                            help=f"By default {count} in all: the best by {headline.title.lower()}, and the benchmark; "
                                 "add or remove any. What each short name means: hover a line, or see *What the short "
                                 "names on this page mean* above.")
    return [label for label in labels if label in chosen]  # in the run's order, whatever order they were chosen in


def what_the_names_mean(scenario, key: str, symbols: dict[str, str] | None = None) -> None:
    """The short names on the Results page in plain words, under an expander: each heuristic's label as the charts say
    it, what it does in the words the leads use (``hcsched.verdict.run_words``), and its name in the paper (the
    heuristic registry's ``hcsched.heuristics.heuristic_title``), and the model's own symbols (``symbols``:
    symbol -> what it means; a symbol is shown as written (``plain``: "λ*" stays "λ*"), its meaning as markdown)."""
    labels = [h.label for h in scenario.heuristics]
    words = run_words(labels, scenario.model)  # as the leads and the hovers say each one
    table = pd.DataFrame({"heuristic": [plain(short_label(scenario.model, label, labels)) for label in labels],
                          "what it does": [plain(words.get(label, "")) for label in labels],
                          "the paper's name": [plain(heuristic_title(label, scenario.model) or "(a label of your own)")
                                               for label in labels]})  # st.table reads its cells as Markdown
    # (a tryout read "min-min | Min-min" as no explanation, and "lpas | LP-based affinity scheduling" beside the
    # lead's "lpas (earliest finish among its class's machines)" as two descriptions of one heuristic)
    with st.expander("What the short names on this page mean", expanded=False):
        st.table(table, hide_index=True)  # an HTML table: long names wrap, never cut
        if symbols:
            st.markdown("\n".join(f"- **{plain(symbol)}**: {words}" for symbol, words in symbols.items()))
