"""The session's state: its keys, the current scenario (made on the first visit, committed by the model editors,
replaced by a load), and the Scenario page's invalid edit that refuses runs."""

from __future__ import annotations

import streamlit as st

from hcsched import Scenario, preset, preset_names
from pages.jobs import start_workers, warm_kernels


class Keys:
    """Session-state keys shared between pages (widget keys are local to their page)."""

    SCENARIO = "scenario"  # the current, valid Scenario
    RESULTS = "results"  # RunResult of the last finished run
    JOB = "job"  # the running Job, if any
    NOTICE = "notice"  # a message about the last run (cancelled, failed), with the scenario it concerns
    PROBLEM = "scenario_problem"  # set by the Scenario page while an edit is invalid: runs would use a stale scenario


def init_session_state() -> None:
    """Every page calls this first: a first visit starts with the built-in default scenario."""
    warming = warm_kernels()
    start_workers()  # with the server's first page, so that the first Run finds them ready
    st.session_state.setdefault(Keys.SCENARIO, preset("quickstart"))
    warming.request(st.session_state[Keys.SCENARIO].model)  # a model switched to compiles while the user edits


W = "sc_w_"  # prefix of the Scenario page's widget keys, re-read from the scenario when it is replaced


def default(key: str, value) -> str:
    """Initialise a Scenario-page widget from the scenario the first time the page shows it; returns its key."""
    st.session_state.setdefault(W + key, value)
    return W + key


def refuse_runs(problem: str) -> None:
    """An editor's invalid edit: said under the editor, and Run refuses until it is valid (rather than run the last
    valid scenario, which the page no longer shows)."""
    st.error(f"{problem.rstrip('.')}. Runs are refused until the edit is valid again; the last valid scenario is kept.")
    st.session_state[Keys.PROBLEM] = problem


def commit_scenario(new: Scenario) -> Scenario:
    """Make ``new`` the current scenario; an edited preset is renamed "NAME (edited)" so it is not mistaken for the
    original (in the Results' "of the scenario ..." and in download names), and an edit that brings it back to the
    preset gives the preset again."""
    old = st.session_state[Keys.SCENARIO]
    if new != old:
        base = old.name.removesuffix(" (edited)")
        original = preset(base).replace(trials=new.trials, seed=new.seed) if base in preset_names() else None
        if original is not None and new.name in (old.name, base):
            same = new.replace(name=original.name, description=original.description)
            new = original if same == original else new.replace(name=f"{base} (edited)")
        if new.description and new.description == old.description and new.spec != old.spec:
            # the description was written for the scenario before the edit: never describe one scenario as another
            new = new.replace(description=f"Edited from {base}.")
        st.session_state[Keys.SCENARIO] = new
    return st.session_state[Keys.SCENARIO]


def scenario_problem() -> str | None:
    """The Scenario page's message while its edit is invalid (the current scenario is the last valid one)."""
    return st.session_state.get(Keys.PROBLEM)


def same_experiment(a: Scenario, b: Scenario) -> bool:
    """The same scenario, whatever trials and seed were chosen for a run."""
    return a.replace(trials=b.trials, seed=b.seed) == b
