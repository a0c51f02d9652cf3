"""The session's runs, every one kept (up to HISTORY_CAP, the oldest dropped): each with its scenario, what differs from
the run before it, when it ended, how long it took and its headline winner; a run of a scenario already in the
history (the same settings, trials and seed) reuses its results rather than run again."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model
from hcsched.compare import RunComparison, compare_runs, run_changes
from hcsched.errors import describe_error
from hcsched.verdict import readable, scenario_verdicts
from pages.session import Keys

HISTORY_CAP = 20  # runs kept in a session; the oldest is dropped beyond it
SHOWN_CHANGES = 3  # a run's "what differs" names at most this many changes, then "and N more"


@dataclass(frozen=True)
class Entry:
    """One run of the session (``run`` is the pages.runs.RunResult)."""

    number: int  # the session's n-th run, from 1
    run: object
    when: str  # "14:02:31", when it ended
    parent: int | None  # the run before it, which ``changes`` are against
    changes: tuple[str, ...]
    winner: str  # "sufferage (535 thousand s)", "no clear winner: ...", "–"

    @property
    def scenario(self) -> Scenario:
        return self.run.scenario

    @property
    def title(self) -> str:
        """"#3 quickstart (edited): machines 8 → 12"."""
        return f"#{self.number} {self.scenario.name}: {self.changes_text}"

    @property
    def changes_text(self) -> str:
        if self.parent is None:
            return "the first run"
        if not self.changes:
            return f"the same as #{self.parent}"
        shown = list(self.changes)
        if len(shown) > SHOWN_CHANGES:
            shown = [*shown[:SHOWN_CHANGES - 1], f"and {len(shown) - SHOWN_CHANGES + 1} more"]
        return "; ".join(shown)


def history() -> list[Entry]:
    """The session's runs, oldest first."""
    return st.session_state.setdefault(Keys.HISTORY, [])


def entry(number: int) -> Entry | None:
    return next((e for e in history() if e.number == number), None)


def titled(title: str) -> Entry | None:
    """The entry of a title as the pages list it ("#3 ...")."""
    return next((e for e in history() if e.title == title), None)


def _winner(run) -> str:
    try:
        found = scenario_verdicts(run.scenario, run.results)
    except Exception as exc:  # a model's failure: said, never a traceback
        return f"– ({describe_error(exc)})"
    v = found[0] if found else None
    if v is None or v.best is None:
        return "–"
    value = readable(v.best_mean, _metric(run.scenario, v.metric))
    return f"{v.best} ({value})" if v.separated else f"no clear winner (best average {v.best}, {value})"


def _metric(scenario: Scenario, name: str):
    return next(m for m in get_model(scenario.model).bar_metrics() if m.name == name)


def keep(run) -> Entry:
    """Add a finished run to the history (against the run before it) and make it the results shown."""
    runs = history()
    parent = runs[-1] if runs else None
    number = (runs[-1].number + 1) if runs else 1
    when = datetime.datetime.now().strftime("%H:%M:%S")
    changes = tuple(run_changes(parent.scenario, run.scenario)) if parent else ()
    new = Entry(number, run, when, parent.number if parent else None, changes, _winner(run))
    runs.append(new)
    del runs[:-HISTORY_CAP]
    st.session_state[Keys.RESULTS] = run
    return new


def reuse(scenario: Scenario) -> Entry | None:
    """The run of exactly this scenario (settings, trials and seed) if the history has it: made the results shown."""
    found = next((e for e in reversed(history()) if e.scenario == scenario), None)
    if found is not None:
        st.session_state[Keys.RESULTS] = found.run
    return found


def shown_entry() -> Entry | None:
    """The history's entry of the results shown now."""
    run = st.session_state.get(Keys.RESULTS)
    return next((e for e in history() if e.run is run), None)


def history_table() -> pd.DataFrame:
    """The runs, newest first, as the page lists them."""
    return pd.DataFrame([{"run": f"#{e.number}", "scenario": e.scenario.name, "what differs from the run before": e.changes_text,
                          "ended": e.when, "took (s)": round(e.run.seconds, 1), "winner": e.winner}
                         for e in reversed(history())])


# --- two runs compared ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Side:
    """One run of a comparison: what the page calls it, its scenario and its per-trial results."""

    title: str  # "#2 quickstart (edited): machines 8 → 12"
    scenario: Scenario
    results: pd.DataFrame


def side_of(e: Entry) -> Side:
    return Side(e.title, e.scenario, e.run.results)


MEMO = "compare_memo"  # the session's last comparisons, by their two results tables
MEMO_KEPT = 8


def comparison(before: Side, after: Side) -> RunComparison:
    """The comparison of two sides, kept for the session's reruns (the same two tables compare the same way)."""
    memo = st.session_state.setdefault(MEMO, {})
    key = (id(before.results), id(after.results), before.scenario, after.scenario)
    if key not in memo:
        memo[key] = (before.results, after.results, compare_runs(before.scenario, before.results, after.scenario,
                                                                 after.results))  # the tables kept: ids stay theirs
        for old in list(memo)[:-MEMO_KEPT]:
            del memo[old]
    return memo[key][2]


def change_line(before: Side, after: Side) -> str:
    """The change line of ``after`` against ``before``, or why there is none, in one line."""
    try:
        return comparison(before, after).change_line()
    except Exception as exc:  # a model's failure, or runs of two models: said in one line
        return describe_error(exc)


def against_parent(e: Entry) -> tuple[Entry, str] | None:
    """The run before ``e`` (still in the history) and the change line of ``e`` against it; None for a first run."""
    parent = entry(e.parent) if e.parent is not None else None
    if parent is None or parent.scenario.model != e.scenario.model:
        return None
    return parent, change_line(side_of(parent), side_of(e))
