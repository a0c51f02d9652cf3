"""Results: one run, heuristics side by side; or two runs of the session compared (a baseline and a what-if); and the
session's runs listed."""

import streamlit as st

from pages.compare_view import choose_pair, scroll_up_once, show_comparison, what_if_row
from pages.history import HISTORY_CAP, history, show_history_table, side_of
from pages.results_view import COMPARE_MODE, MODE_KEPT, MODE_KEY, keep_mode, show_current_results
from pages.runs import run_status, running_run
from pages.session import Keys, init_session_state
from pages.widgets import link

ONE_RUN = "One run"

init_session_state()
st.title("Results")
run_status(results=True)
if Keys.RESULTS not in st.session_state and running_run() is None:  # a session's first run shows as it goes
    st.info("No results yet: run a scenario first.")
    link("run", "Go to Run")
else:
    runs = history()
    st.session_state[MODE_KEY] = st.session_state.get(MODE_KEPT, ONE_RUN)
    mode = st.radio("Show", [ONE_RUN, COMPARE_MODE], key=MODE_KEY, horizontal=True, on_change=keep_mode,
                                help="Compare two runs: a baseline and a what-if, per heuristic and metric both means "
                                     "and the change with its 95% interval (paired where both "
                                     "runs share their random numbers).")
    if mode == COMPARE_MODE:
        pair = choose_pair("cmp")
        if pair is not None:
            show_comparison(side_of(pair[0]), side_of(pair[1]), "cmp")
    else:
        show_current_results("results", what_ifs=lambda: what_if_row("results"))  # under the answer's bars
    if runs:
        with st.expander(f"Runs of this session ({len(runs)}; the last {HISTORY_CAP} are kept)", expanded=False):
            show_history_table()
scroll_up_once()  # once after a what-if's click: its answer shows at the top
