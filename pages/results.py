"""Results of the last run, heuristics side by side."""

import streamlit as st

from pages.results_view import show_current_results
from pages.runs import run_status
from pages.session import Keys, init_session_state
from pages.widgets import link

init_session_state()
st.title("Results")
run_status()
if Keys.RESULTS not in st.session_state:
    st.info("No results yet: run a scenario first.")
    link("run", "Go to Run")
else:
    show_current_results("results")
