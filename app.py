"""hcsched dashboard: the landing page runs the built-in default scenario with one click.

The full dashboard (scenario editor, heuristic picker, animated Gantt charts)
is the subject of the dashboard issue; this page already runs real
simulations through the library.
"""

import streamlit as st

from hcsched import preset, simulate, summarize
from hcsched.cli import SUMMARY_METRICS

st.set_page_config(page_title="hcsched", page_icon="🗂️", layout="wide")


@st.cache_data(show_spinner=False)
def run_scenario(scenario):
    return simulate(scenario, jobs=1)


st.title("hcsched")
st.write("Compare task-mapping heuristics for heterogeneous computing systems: immediate-mode MCT, MET, OLB, SA and "
         "KPB and batch-mode Min-min, Max-min and Sufferage of Maheswaran et al. (1999), simulated with common random numbers.")
scenario = st.session_state.setdefault("scenario", preset("quickstart"))
st.subheader(f"Scenario: {scenario.name}")
st.caption(scenario.description)
if st.button("Run", key="run", type="primary"):
    st.session_state["results"] = run_scenario(scenario)
results = st.session_state.get("results")
if results is not None:
    summary = summarize(results, SUMMARY_METRICS)
    st.write(f"{results['trial'].nunique()} trials; makespan normalised to {scenario.benchmark_label}; "
             "mean with 95% interval bounds.")
    st.dataframe(summary, key="summary", hide_index=True)
    st.download_button("Per-trial results (CSV)", results.to_csv(index=False), "results.csv", "text/csv",
                       key="download_results", on_click="ignore")
    st.download_button("Summary (CSV)", summary.to_csv(index=False), "summary.csv", "text/csv",
                       key="download_summary", on_click="ignore")
