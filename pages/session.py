"""The session's state: its keys, the current scenario (made on the first visit, committed by the model editors,
replaced by a load), and the Scenario page's invalid edit that refuses runs."""

from __future__ import annotations

import streamlit as st

from hcsched import Scenario, preset, preset_names
from hcsched.compare import what_changed
from hcsched.presets import EDITED, preset_of
from pages.jobs import adopt, begin_page, plain, warm_kernels
from pages.store import attach


class Keys:
    """Session-state keys shared between pages (widget keys are local to their page)."""

    SCENARIO = "scenario"  # the current, valid Scenario
    RESULTS = "results"  # RunResult of the last finished run
    JOB = "job"  # the running Job, if any
    NOTICE = "notice"  # a message about the last run (cancelled, failed), with the scenario it concerns
    HISTORY = "history"  # the session's runs (pages.history.Entry), oldest first
    PROBLEM = "scenario_problem"  # set by the Scenario page while an edit is invalid: runs would use a stale scenario


def init_session_state() -> None:
    """Every page calls this first: a reload finds the session's runs and history kept on the server (the address's
    id, :mod:`pages.store`); a first visit starts with the built-in default scenario."""
    warming = warm_kernels()
    attach(on_restore=adopt)
    begin_page()  # the server's workers start with its first page, so that the first Run finds them ready
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
    st.error(f"{plain(problem.rstrip('.'))}. Runs are refused until the edit is valid again; "
             "the last valid scenario is kept.")
    st.session_state[Keys.PROBLEM] = problem


ORIGIN = "scenario_origin"  # (the scenario the edits started from, the last scenario committed from it)
SHOWN_CHANGES = 4  # an edit's description names at most this many changes, then "and N more"


def shortened(changes, at_most: int = SHOWN_CHANGES, more: str = "more changes") -> list[str]:
    """``changes`` as a description names them: at most ``at_most``, the last of them "and N more changes"."""
    changes = list(changes)
    if len(changes) > at_most:
        changes = [*changes[:at_most - 1], f"and {len(changes) - at_most + 1} {more}"]
    return changes


def edit_description(origin: Scenario, edited: Scenario) -> str:
    """The description of a scenario edited from ``origin``: what it was edited from and what changed, in one line
    ("Edited from quickstart: tasks 200 → 150; min-min removed.")."""
    changes = shortened(what_changed(origin, edited))
    return f"Edited from {origin.name}: {'; '.join(changes)}." if changes else f"Edited from {origin.name}."


def _origin(current: Scenario) -> Scenario:
    """What ``current`` was edited from: its preset ("NAME" or "NAME (edited)"), else the scenario as it was loaded
    (the edits' origin while ``current`` is the last scenario they committed, trials and seed aside), else itself."""
    found = preset_of(current)
    if found is not None:
        return found
    kept = st.session_state.get(ORIGIN)
    if kept is not None and same_experiment(kept[1], current):
        return kept[0]
    return current


def commit_scenario(new: Scenario) -> Scenario:
    """Make ``new``, an edit of the current scenario, the current scenario. Its name and description stay true: an
    edited preset is renamed "NAME (edited)" so it is not mistaken for the original (in the Results' "of the
    scenario ..." and in download names); a description written for the scenario before the edit becomes "Edited
    from NAME: what changed." (never one scenario described as another, on Home or in the exported file); an edit
    that brings it back to what it was edited from gives that scenario again."""
    old = st.session_state[Keys.SCENARIO]
    if new != old:
        new = as_committed(new)
        st.session_state[Keys.SCENARIO] = new
        st.session_state[ORIGIN] = (_origin(old), new)
    return st.session_state[Keys.SCENARIO]


def as_committed(new: Scenario) -> Scenario:
    """``new`` as :func:`commit_scenario` would make it the current scenario (renamed, described), changing
    nothing: what a button about to commit it can look up among the runs already made."""
    old = st.session_state[Keys.SCENARIO]
    if new == old:
        return old
    origin = _origin(old)
    if new.name in (old.name, origin.name) and new.description == old.description:  # not named by the editor
        original = origin.replace(trials=new.trials, seed=new.seed)
        if new.replace(name=original.name, description=original.description) == original:
            return original
        name = f"{origin.name}{EDITED}" if origin.name in preset_names() else new.name
        return new.replace(name=name, description=edit_description(original, new))
    return new


def _described_preset(description: str) -> str | None:
    """The preset a description was written for: the preset's own, or an edit's "Edited from NAME..." of a preset."""
    found = next((name for name in preset_names() if preset(name).description == description), None)
    if found is None and description.startswith("Edited from "):
        name = description.removeprefix("Edited from ").split(":")[0].removesuffix(".")
        found = name if name in preset_names() else None
    return found


def as_loaded(scenario: Scenario, source: str) -> tuple[Scenario, str | None]:
    """A loaded file's scenario, never described as another: a file carrying a preset's description (or an edit's
    "Edited from NAME...") whose settings differ from that preset is described by what differs, and named
    "NAME (edited)" when it is named after the preset. With what was changed, said in one line (None if nothing)."""
    ref = _described_preset(scenario.description)
    if ref is None:
        return scenario, None
    original = preset(ref).replace(trials=scenario.trials, seed=scenario.seed)
    named = scenario.name.removesuffix(EDITED) == ref
    if scenario.replace(name=original.name, description=original.description) == original:
        fixed = original if named else scenario.replace(description=original.description)
    else:
        fixed = scenario.replace(name=f"{ref}{EDITED}" if named else scenario.name,
                                 description=edit_description(original, scenario))
    if fixed == scenario:
        return scenario, None
    if fixed.name != scenario.name:
        return fixed, f"Loaded {plain(source)} as **{plain(fixed.name)}**: {plain(fixed.description)}"
    return fixed, plain(f"{source} carried the description of {ref}, which it differs from; "
                        f"described now as: {fixed.description}")


def scenario_problem() -> str | None:
    """The Scenario page's message while its edit is invalid (the current scenario is the last valid one)."""
    return st.session_state.get(Keys.PROBLEM)


def same_experiment(a: Scenario, b: Scenario) -> bool:
    """The same scenario, whatever trials and seed were chosen for a run."""
    return a.replace(trials=b.trials, seed=b.seed) == b
