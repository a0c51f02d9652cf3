"""Results of the last run, heuristics side by side."""

import streamlit as st

from pages.common import Keys, init_session_state, link, run_status, show_current_results

init_session_state()
st.title("Results")
run_status()
if Keys.RESULTS not in st.session_state:
    st.info("No results yet: run a scenario first.")
    link("run", "Go to Run")
else:
    show_current_results("results")
