"""The session's runs, kept with the session on the server (pages.store: a reload finds them; up to HISTORY_CAP, the
oldest dropped): each with its scenario, what differs from its preset (else from the run it was made from), when it
ended, how long it took and its headline winner; a run of a scenario already in the history (the same settings,
trials and seed) reuses its results rather than run again. The baseline what-ifs are compared with: a run the user
pins, else the session's first run of the same model."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model
from hcsched.compare import RunComparison, compare_runs, run_changes, winner_of
from hcsched.errors import describe_error
from hcsched.experiment import without
from hcsched.formatting import readable
from hcsched.presets import preset_of
from hcsched.verdict import headline_metric, metric_words, of_what
from pages.jobs import plain
from pages.session import Keys, shortened

HISTORY_CAP = 20  # runs kept in a session; the oldest is dropped beyond it
SHOWN_CHANGES = 3  # a run's "what differs" names at most this many changes, then "and N more"


@dataclass(frozen=True)
class Entry:
    """One run of the session (``run`` is the pages.runs.RunResult)."""

    number: int  # the session's n-th run, from 1
    run: object
    when: str  # "14:02:31", when it ended
    parent: int | None  # the run it was made from (:func:`_parent`), which ``changes`` are against
    changes: tuple[str, ...]
    winner: str  # "sufferage at 6.2 days (535,000 s)", "no clear winner: ...", "–"
    edits: tuple[str, ...] | None = None  # what differs from its preset (None: not a preset or an edit of one)
    since: tuple[str, ...] = ()  # what differs from its parent, an edit of the same preset, that the edits do not say

    @property
    def scenario(self) -> Scenario:
        return self.run.scenario

    @property
    def title(self) -> str:
        """"#3 quickstart (edited): machines 8 → 12" (what differs from its preset), "#1 quickstart", or for a scenario
        of the user's own, what differs from the run it was made from (:attr:`changes_text`). What differs from that
        run is said too where the edits leave it out: a heuristic swapped back in from the preset ("#2
        kim-loose-high-heavy (edited): relative-cost removed; tpsa removed; ga removed; from #1: switching instead of
        relative-cost")."""
        if self.edits is not None:
            since = f"; from #{self.parent}: {_shown(self.since)}" if self.since else ""
            return f"#{self.number} {self.scenario.name}" + (f": {_shown(self.edits)}" if self.edits else "") + since
        return f"#{self.number} {self.scenario.name}: {self.changes_text}"

    @property
    def changes_text(self) -> str:
        """What differs from the run it was made from, in a few words, that run named where it is not the run before
        it ("from #1: machines 16 → 8")."""
        if self.parent is None:
            return "the first run"
        if not self.changes:
            return f"the same as #{self.parent}"
        return ("" if self.parent == self.number - 1 else f"from #{self.parent}: ") + _shown(self.changes)


def _shown(changes) -> str:
    return "; ".join(shortened(changes, SHOWN_CHANGES, "more"))


def _edits(scenario: Scenario) -> tuple[str, ...] | None:
    """What differs from the scenario's preset, when it is one or an edit of one ("NAME (edited)")."""
    base = preset_of(scenario)
    return None if base is None else tuple(run_changes(base, scenario))


def _since(parent: Entry | None, scenario: Scenario, changes: tuple[str, ...],
           edits: tuple[str, ...] | None) -> tuple[str, ...]:
    """What differs from the run before (``changes``) that the edits from the preset (``edits``) leave out, where both
    runs are of one preset (or edits of it): a heuristic of the preset put back in its run ("switching instead of
    relative-cost", where the edits from the preset say only "relative-cost removed"); none otherwise."""
    if parent is None or edits is None or parent.edits is None or preset_of(parent.scenario) != preset_of(scenario):
        return ()
    return tuple(c for c in changes if c not in edits)


def _parent(runs: list[Entry], scenario: Scenario) -> Entry | None:
    """The run ``scenario`` was made from (a what-if of a run, a run's scenario loaded again and changed): of the runs
    of its model, the one it differs least from (:func:`hcsched.compare.run_changes`), on a tie the run shown, then
    the latest; without a run of its model, the run before it."""
    same = [e for e in runs if e.scenario.model == scenario.model]
    if not same:
        return runs[-1] if runs else None
    shown = shown_entry()
    return min(reversed(same), key=lambda e: (len(run_changes(e.scenario, scenario)), e is not shown))


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
        w = winner_of(run.scenario, run.results)
    except Exception as exc:  # a model's failure: said, never a traceback
        return f"– ({describe_error(exc)})"
    if w.label is None:
        return "–"
    metric = headline_metric(get_model(run.scenario.model))
    value, on = readable(w.mean, metric) + of_what(metric), metric_words(metric)
    return f"{w.label} on {on}, at {value}" if w.clear else \
        f"no clear winner on {on}: best average {w.label} at {value}"  # on what: a tryout read "winner: sufferage"
    # against the Results' "In short: min-min is the better all-round pick"


def keep(run) -> Entry:
    """Add a finished run to the history (against the run before it) and make it the results shown. Kept again (a
    settle stopped by a click and done over), the same results are not added twice."""
    runs = history()
    new = next((e for e in runs if e.run.results is run.results), None)
    if new is None:
        parent = _parent(runs, run.scenario)
        number = (runs[-1].number + 1) if runs else 1
        when = datetime.datetime.now().strftime("%H:%M:%S")
        changes = tuple(run_changes(parent.scenario, run.scenario)) if parent else ()
        edits = _edits(run.scenario)
        new = Entry(number, run, when, parent.number if parent else None, changes, _winner(run), edits,
                    _since(parent, run.scenario, changes, edits))
        runs.append(new)
        del runs[:-HISTORY_CAP]
    st.session_state[Keys.RESULTS] = new.run
    st.session_state.pop(PICKED, None)  # a new run is shown as the last one
    return new


def ran_before(scenario: Scenario) -> Entry | None:
    """The latest run of exactly this scenario (settings, trials and seed) in the history, else None."""
    return next((e for e in reversed(history()) if e.scenario == scenario), None)


def reuse(scenario: Scenario, what_if: bool = False) -> Entry | None:
    """The run of exactly this scenario (:func:`ran_before`) if the history has it: made the results shown; where a
    what-if's button asked for it (``what_if``), remembering the run shown before it (:func:`came_from`), whose line
    it then answers; else (Run pressed, a link) no what-if was asked, and none is said (:func:`against_baseline`)."""
    found = ran_before(scenario)
    if found is not None:
        before = shown_entry()
        st.session_state[Keys.RESULTS] = found.run
        st.session_state.pop(CAME_FROM, None)
        if what_if and before is not None and before is not found:
            st.session_state[CAME_FROM] = (found.number, before.number)
    return found


def _came_by_what_if(e: Entry) -> bool:
    """Whether ``e`` is shown again because a what-if's button asked for its settings (:func:`reuse`)."""
    numbers = st.session_state.get(CAME_FROM)
    return bool(numbers) and numbers[0] == e.number


def came_from(e: Entry) -> Entry | None:
    """The run shown before ``e``, of the same model: the one a what-if went back from to ``e``, an earlier run of
    the same settings shown again rather than run twice (half the arrival rate from a run at twice the rate), else
    the run before it in the session (not its parent, :func:`_parent`: back to the baseline's settings from a what-if,
    the run is made from the baseline, while the reader came from the what-if)."""
    numbers = st.session_state.get(CAME_FROM)
    number = numbers[1] if numbers and numbers[0] == e.number else e.number - 1
    return next((x for x in history() if x.number == number and x is not e
                 and x.scenario.model == e.scenario.model), None)


def _same_settings(a: Scenario, b: Scenario) -> bool:
    """The same settings, heuristics, trials and seed, whatever the scenarios are called."""
    return a.replace(name=b.name, description=b.description) == b


def shown_entry() -> Entry | None:
    """The history's entry of the results shown now."""
    run = st.session_state.get(Keys.RESULTS)
    return next((e for e in history() if e.run is run), None)


WHO_LEADS = "best on the headline metric"  # the runs table's column of each run's winner (not an all-round pick)


def history_table() -> pd.DataFrame:
    """The runs, newest first, as the page lists them: the winner within view, then what differs."""
    pinned = st.session_state.get(BASELINE)
    return pd.DataFrame([{"run": f"#{e.number}" + (" (baseline)" if e.number == pinned else ""),
                          WHO_LEADS: e.winner, "scenario": e.scenario.name,
                          "what differs from its preset": _shown(e.edits) if e.edits else "–" if e.edits is None
                          else "nothing",
                          "from the run before": e.changes_text, "ended": e.when,
                          "took": e.run.took}
                         for e in reversed(history())])


def show_history_table() -> None:
    """The runs table, its text wrapped in the page's width, never cut at the right (an HTML table: a data grid cuts
    a long cell at its column's width); it reads Markdown, so each cell is shown as plain text."""
    st.table(history_table().map(plain), hide_index=True)


PICKED = "history_picked"  # the number of the run picked to be shown, until the next run
CAME_FROM = "history_came_from"  # (run shown again, run shown before it): :func:`came_from`
BASELINE = "history_baseline"  # the number of the run the user pinned as the baseline


def pin_baseline(number: int) -> None:
    st.session_state[BASELINE] = number


def baseline_for(e: Entry) -> Entry | None:
    """The run ``e`` is compared with: the pinned baseline, else the session's first run of the same model (never ``e``
    itself; for the first run, None)."""
    return _baseline(e.scenario, e)


def _baseline(scenario: Scenario, e: Entry | None = None) -> Entry | None:
    """The pinned run of ``scenario``'s model, else the session's first run of it before ``e`` (any, for a run not yet
    in the history); never ``e`` itself."""
    same = [x for x in history() if x.scenario.model == scenario.model and x is not e]
    pinned = next((x for x in same if x.number == st.session_state.get(BASELINE)), None)
    return pinned or next((x for x in same if e is None or x.number < e.number), None)


def is_pinned(e: Entry) -> bool:
    return st.session_state.get(BASELINE) == e.number


# --- two runs compared ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Side:
    """One run of a comparison: what the page calls it, its scenario and its per-trial results."""

    title: str  # "#2 quickstart (edited): machines 8 → 12"
    scenario: Scenario
    results: pd.DataFrame


def _one_step(shown: Entry | None, base: Entry, e: Entry) -> bool:
    """Whether ``e`` is one change (:func:`hcsched.compare.run_changes`) from the run ``shown`` before it, another
    run than ``base``, and more than one from ``base``."""
    return (shown is not None and shown is not base and len(run_changes(shown.scenario, e.scenario)) == 1
            and len(run_changes(base.scenario, e.scenario)) > 1)


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
    """The lead of the change line of ``after`` against ``before`` (:data:`hcsched.compare.CHANGE_LEAD_WORDS` at most
    where the labels allow), then whether the winner stays where the lead had no room for it, on the line below it
    (:meth:`~hcsched.compare.RunComparison.change_summary`), or why there is none, in one line."""
    try:
        return comparison(before, after).change_summary()
    except Exception as exc:  # a model's failure, or runs of two models: said in one line
        return describe_error(exc)


def online_against_baseline(scenario: Scenario, results: pd.DataFrame, pending) -> tuple[Entry, str] | None:
    """While a run's references (``pending``: their labels) still go on, its other heuristics' answer whole: the
    baseline it will be compared with (the pinned one, else the session's first run of the model) and the change line
    on the heuristics both share, without the references (theirs comes with the whole run)."""
    base = _baseline(scenario)
    if base is None:
        return None
    before = Side(base.title, *without(base.scenario, base.run.results, pending))
    return base, change_line(before, Side("", scenario, results))


def back_words(e: Entry) -> str:
    """Where ``e`` is the baseline (pinned, or its model's first run) and another run of its model is compared with
    it, how a page says it is shown again: "Back to the baseline (run #1)"; "" otherwise."""
    baseline = is_pinned(e) or baseline_for(e) is None
    compared = any(x.scenario.model == e.scenario.model and x is not e for x in history())
    return f"Back to the baseline (run #{e.number})" if baseline and compared else ""


def back_said(e: Entry) -> bool:
    """Whether the page's notice says already that ``e``, the baseline, is shown again (:func:`back_words`): one box,
    not two saying the same."""
    notice = st.session_state.get(Keys.NOTICE)
    words = back_words(e)
    return bool(words) and bool(notice) and str(notice[1]).startswith(words)


def is_baseline_again(e: Entry) -> bool:
    """Whether ``e`` is the baseline (pinned, or its model's first run) or a run of the baseline's settings: its line
    is said against the run shown before it, as a way back (:func:`against_baseline`)."""
    base = baseline_for(e)
    return is_pinned(e) or base is None or _same_settings(base.scenario, e.scenario)


def against_baseline(e: Entry) -> tuple[Entry, str, bool] | None:
    """The baseline of ``e`` (:func:`baseline_for`), the change line of ``e`` against it, and False; for the baseline
    itself, or a run of the baseline's settings (a what-if that went back to them), the run shown before it
    (:func:`came_from`), the line against that, and True; the same where ``e`` is one change from the run shown
    before it but more from a baseline not pinned (what-ifs made one after another: the line says what the last one
    did, not the sum of all, where "1 more change" hid a swap); None without either."""
    base, before = baseline_for(e), False
    if base is None or is_pinned(e) or _same_settings(base.scenario, e.scenario):  # nothing to say against it
        if (base is None or is_pinned(e)) and not _came_by_what_if(e):
            return None  # the baseline itself, back by Run, a pick or a link: no what-if asked, none said (a tryout
            # read "Back to the baseline from run #5: mct instead of met: ..." as one more swap)
        base, before = came_from(e), True
    elif not is_pinned(base) and _one_step(came_from(e), base, e):
        base, before = came_from(e), True
    if base is None or _same_settings(base.scenario, e.run.asked):
        return None
    return base, change_line(_without_cancelled(base, e), side_of(e)), before


def _without_cancelled(base: Entry, e: Entry) -> Side:
    """``base`` as ``e`` is compared with it: without the references ``e``'s run was cancelled before they ended (its
    results are the others' alone), so that a cancel is never said as "tpsa removed; ga removed"."""
    if e.run.of is None:
        return side_of(base)
    cancelled = {h.label for h in e.run.of.heuristics} - {h.label for h in e.scenario.heuristics}
    return Side(base.title, *without(base.scenario, base.run.results, cancelled))
