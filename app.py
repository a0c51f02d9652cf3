"""hcsched dashboard: the landing page and the list of pages."""

import streamlit as st
from starlette.middleware import Middleware

from hcsched import get_model
from hcsched.verdict import each_in_words
from pages.jobs import said_once, watch
from pages.link import copy_link, keep_link, open_link
from pages.models import ui
from pages.results_view import show_current_results
from pages.runs import plan_run, run_status, start_run, status_in_sidebar
from pages.serving import PageBase, only_listed_pages
from pages.session import Keys, init_session_state
from pages.store import save
from pages.widgets import ASSETS, PAGES, capacity_refusal, plain, run_button, shown_as_error


def landing() -> None:
    init_session_state()
    st.title("hcsched")
    st.write("Compare task-mapping heuristics for heterogeneous computing. Tasks arrive over time at machines that run "
             "them at different speeds; a heuristic decides where each task goes. Every heuristic sees the same "
             "arrivals and execution times in a trial, and results come with 95% confidence intervals.")
    scenario = st.session_state[Keys.SCENARIO]
    st.subheader(f"Scenario: {plain(scenario.name)}")
    st.markdown(plain(scenario.description) if scenario.description else "A scenario of your own.")
    c1, c2 = st.columns([2, 1])
    model = get_model(scenario.model)
    c1.caption(f"{model.describe(scenario.spec)}, {scenario.trials} {model.trial_word}s; heuristics: "
               + ", ".join(plain(x) for x in each_in_words([h.label for h in scenario.heuristics], scenario.model)))
    with c1:
        copy_link("home")
    # first: a scenario too large for this server is refused before anything is drawn; one estimate, said once
    job = said_once(plan_run(scenario), "landing_run")
    with shown_as_error("The scenario's overview could not be drawn"):
        if not capacity_refusal(scenario):
            ui(scenario.model).overview(scenario, c2)
    if run_button("Run", key="landing_run", job=job):
        if start_run(job):
            st.rerun()
    run_status(results=True)
    show_current_results("landing")
    st.divider()
    st.write("Change the machines and tasks on **Scenario**, pick heuristics on **Heuristics**, set trials on **Run**, "
             "and step through single decisions on **Explain**.")


#: Streamlit's own Stop, beside its running indicator at the top right while a page's script runs, hidden (the
#: indicator kept): it stops only the page's drawing, never the run in the background, beside the run's Cancel.
STOP_HIDDEN = ('[data-testid="stStatusWidget"]:has([data-testid="stStatusWidgetRunningIcon"]) span:has(button) '
               "{ display: none; }")


def main() -> None:
    """The dashboard: its pages, as Streamlit runs this file for each session."""
    st.set_page_config(page_title="hcsched", page_icon=str(ASSETS / "icon.png"), layout="wide")
    st.html(f"<style>{(ASSETS / 'style.css').read_text()}\n{STOP_HIDDEN}</style>")
    # Back goes to the previous page, not to the same page with the address before an edit (assets/history.js)
    st.html(f"<script>{(ASSETS / 'history.js').read_text()}</script>", unsafe_allow_javascript=True)
    # Material icons ship with Streamlit; emoji need a font that a bare machine (e.g. Debian's chromium) may lack.
    navigation = st.navigation([
        st.Page(landing, title="Home", icon=":material/home:", default=True),
        st.Page(PAGES["scenario"], title="Scenario", icon=":material/tune:"),
        st.Page(PAGES["heuristics"], title="Heuristics", icon=":material/rule:"),
        st.Page(PAGES["run"], title="Run", icon=":material/play_arrow:"),
        st.Page(PAGES["results"], title="Results", icon=":material/bar_chart:"),
        st.Page(PAGES["explain"], title="Explain", icon=":material/school:"),
        st.Page(PAGES["sweep"], title="Sweep", icon=":material/ssid_chart:"),
        st.Page(PAGES["papers"], title="Papers", icon=":material/menu_book:"),
    ])
    with shown_as_error("The link could not be opened"):
        open_link()  # the session's first run loads the scenario of the address (and runs it with run=1)
    with shown_as_error("This page stopped"):  # a net under every page: an error is one line, never a traceback
        navigation.run()
    status_in_sidebar()  # a run in progress shows on every page
    save()  # the session's runs and history, kept on the server under the address's id (a reload finds them)
    keep_link()  # the address carries the current scenario, on every page
    watch()  # a running job's progress, kept up to date at the end of the page


if __name__ == "__main__":  # Streamlit runs this file as each session's script
    main()
else:  # `streamlit run app.py` imports it to serve it (pages.serving): no 404s on a page's reload, only listed pages
    app = st.App(__file__, middleware=[Middleware(PageBase)])
    only_listed_pages()
