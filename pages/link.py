"""The address bar carries the current scenario (``hcsched.links``): a link opens it, with ``run=1`` runs it, and
"Copy link" shows it to copy.

Streamlit clears the query parameters when the user switches pages in the sidebar; :func:`keep_link`, at the end of
every run of the script, writes them again, so that the address of every page carries the scenario.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from hcsched.errors import describe_error
from hcsched.links import RUN, scenario_from_query, scenario_query, wants_run
from pages.models import replace_scenario
from pages.runs import plan_run, start_run
from pages.session import Keys, edit_description, init_session_state
from pages.store import SID, session_id
from pages.widgets import plain

OPENED = "link_opened"  # set once the session's first run has read its link
PROBLEM = "link_problem"  # (what was wrong with the link, the scenario loaded instead)
LINKED = "link_query"  # (a scenario, its query parameters): the last one worked out
SAFE = ",:"  # left as they are in a copied link's values (readable, and valid in a query string)


def open_link() -> None:
    """On the session's first run, load the scenario of the address (and with ``run=1`` start its run); a bad link
    is said in one line above every page while the default scenario it left in place is loaded."""
    if OPENED not in st.session_state:
        st.session_state[OPENED] = True
        init_session_state()
        _open({k: v for k, v in st.query_params.to_dict().items() if k != SID})
    problem = st.session_state.get(PROBLEM)
    if problem is not None and problem[1] == st.session_state.get(Keys.SCENARIO):
        st.warning(plain(problem[0]))


def _open(params: dict[str, str]) -> None:
    try:
        scenario = scenario_from_query(params, edit_description)
    except Exception as exc:  # a bad or tampered link: one line, never a traceback
        default = st.session_state[Keys.SCENARIO]
        said = describe_error(exc).removeprefix("link: ").rstrip(".")
        st.session_state[PROBLEM] = (f"This link's scenario could not be opened: {said}. The default scenario, "
                                     f"{default.name}, is loaded instead.", default)
        return
    if scenario is not None:
        replace_scenario(scenario)
    try:
        run = wants_run(params)
    except Exception as exc:
        st.session_state[PROBLEM] = (f"The link's scenario is loaded but not run: {describe_error(exc)}",
                                     st.session_state[Keys.SCENARIO])
        return
    if run:
        start_run(plan_run(st.session_state[Keys.SCENARIO]))


def link_query() -> dict[str, str]:
    """The query parameters of the current scenario's link; empty when it has none (it reads files on the server)."""
    scenario = st.session_state[Keys.SCENARIO]
    kept = st.session_state.get(LINKED)
    if kept is None or kept[0] != scenario:
        try:
            query = scenario_query(scenario, edit_description)
        except Exception:  # a scenario no link can carry (it reads files on the server): the address carries none
            query = {}
        kept = st.session_state[LINKED] = (scenario, query)
    return kept[1]


def keep_link() -> None:
    """At the end of every run: the address carries the current scenario and the session's id (:mod:`pages.store`;
    written only when it differs, and again after a page switch cleared it)."""
    if Keys.SCENARIO not in st.session_state:
        return
    query = {**link_query(), SID: session_id()}
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


def copy_link(where: str) -> None:
    """A "Copy link" popover: the address of this page with the current scenario, and the Home page's that also runs
    it, each in a box with a copy button. ``where``: the page it is on, "home" or the page's path ("scenario")."""
    query = link_query()
    # no tooltip: it would cover the box
    with st.popover("Copy link", icon=":material/link:", key=f"{where}_copy_link"):
        if not query:
            st.caption("This scenario reads files on the server, which a link cannot carry: download it instead.")
            return
        here, home = _addresses(where)
        st.caption("Opens this scenario (copy it with the button at the box's right):")
        st.code(f"{here}?{urlencode(query, safe=SAFE)}", language=None, wrap_lines=True)
        st.caption("Opens it on Home and runs it:")
        st.code(f"{home}?{urlencode({**query, RUN: '1'}, safe=SAFE)}", language=None, wrap_lines=True)


def _addresses(where: str) -> tuple[str, str]:
    """This page's address and Home's, without a query ("/" for both when the browser's is unknown, as in tests)."""
    here = (st.context.url or "").rstrip("/")
    home = here.removesuffix(f"/{where}") + "/"
    return (home if here + "/" == home else here), home
