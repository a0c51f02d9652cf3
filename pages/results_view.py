"""The results view of Home and Results: who wins, bars with 95% intervals, the table of means, per-trial
distributions, the model's own charts, the animated Gantt chart of one trial, and downloads. What it shows comes from
the model's metric descriptions; the model's own charts from its dashboard module (``pages.models``)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model, summarize, trial_runs
from hcsched.charts import (
    GANTT_BARS,
    GANTT_HEIGHT,
    MACHINES,
    GanttRows,
    detail_height,
    gantt,
    gantt_busiest,
    gantt_busy_start,
    gantt_default_window,
    gantt_detail,
    gantt_highlight,
    gantt_highlight_text,
    heuristic_colors,
    metric_bars,
    round_length,
    start_step,
    trial_distribution,
    window_ends,
    window_step,
    window_text,
)
from hcsched.compare import LEGEND_BELOW
from hcsched.experiment import schedule_table, schedules_of, split_so_far
from hcsched.export import results_csv, schedule_csv, summary_csv
from hcsched.formatting import interval_cell, readable_amount
from hcsched.heuristics import heuristic_hovers
from hcsched.metrics import Metric
from hcsched.stats import best_few
from hcsched.verdict import (
    IN_SHORT,
    alike_pairs,
    alike_sentence,
    headline,
    in_words,
    pick_line,
    progress_lead,
    references_to_come,
    scenario_benchmark,
    scenario_references,
    scenario_verdicts,
    sentence_opening,
    sentences,
    trade_off,
    why_no_winner,
)
from pages.history import (
    CAME_FROM,
    HISTORY_CAP,
    PICKED,
    against_baseline,
    back_said,
    back_words,
    baseline_for,
    history,
    is_baseline_again,
    is_pinned,
    online_against_baseline,
    pin_baseline,
    reuse,
    shown_entry,
    titled,
)
from pages.jobs import showing_so_far
from pages.models import gantt_note, heuristic_ticks, replace_scenario, short_label, shown_text, ui
from pages.runs import RunResult, running_run
from pages.session import Keys, same_experiment
from pages.store import SESSION_HOURS
from pages.widgets import PAGES, file_name, headline_metric, plain, plain_html, shown_as_error

READING = ("How to read the intervals: a whisker on a bar, or [a, b] after a number, is the 95% interval of the mean: "
           "with many more {word}s the mean would very likely lie inside it. Overlapping intervals alone do not make a "
           "tie: the line above compares the heuristics {word} by {word}, on the same tasks.")
INTERVALS = ("95% intervals of the mean: Student-t (as the papers), or the percentile bootstrap (4,000 resamples, "
             "fixed seed) for stretch and wherever Student-t would reach below zero for a non-negative metric or "
             "above 100% for a utilisation or a share of an upper bound.")
GANTT_HEURISTICS = 4  # heuristics in the Gantt chart by default: the best few and the benchmark


def reading(word: str) -> str:
    """How to read the intervals, in the model's word for a trial ("replication", "simulation"): one caption, one
    word."""
    return READING.format(word=word)


@st.cache_data(show_spinner=False, max_entries=8)  # the whole server's: one trial's runs of a large preset are
def cached_runs(scenario: Scenario, trial: int) -> dict:  # tens of MB (alazzoni-B: 260,000 tasks x 3), so few are kept
    return trial_runs(scenario, trial)


def show_current_results(key: str, what_ifs: Callable[[], None] | None = None) -> None:
    """The results shown (the last run, or one picked from the session's runs), said to belong to their scenario
    (the last results of another scenario marked and folded away; a run picked from the history shown as it is, with a
    way to load its scenario), with the change line against the baseline; ``what_ifs`` draws the one-click what-ifs
    right under the current scenario's answer and its bars (see :func:`show_results`)."""
    if show_results_so_far(key):
        return
    job = running_run()
    if job is not None and job.scenario is not None and same_experiment(job.scenario, st.session_state[Keys.SCENARIO]):
        word = get_model(job.scenario.model).trial_word  # no "Run to see this one's" while this one's run goes on
        st.caption(f"The run of {plain(job.scenario.name)} is going on: its results show here as its {word}s end.")
        return
    _kept_run_of_current()
    shown = pick_run(key)
    run = st.session_state.get(Keys.RESULTS)
    if run is None:
        return
    if shown is not None and st.session_state.get(PICKED) == shown.number \
            and not same_experiment(run.asked, st.session_state[Keys.SCENARIO]):
        c1, c2 = st.columns([5, 1], vertical_alignment="center")
        c1.caption(f"Run #{shown.number} of this session ({shown.when}), picked above; the "
                   "scenario loaded now is another.")
        if c2.button("Load its scenario", key=f"{key}_load_run", help="Make this run's scenario (with its trials and "
                     "seed) the current one, to change it and run it again"):
            replace_scenario(run.asked)
            st.rerun()
        show_results(run, key)
        return
    show_if_current(run.asked, lambda: show_results(run, key, what_ifs=what_ifs), "results", "Run",
                    f"{key}_show_other")


def _kept_run_of_current() -> None:
    """The session's kept run of the scenario loaded now made the results shown, when those shown are of another
    scenario and no run was picked: a run's link opened again after a what-if shows that run, not "Run to see"."""
    run = st.session_state.get(Keys.RESULTS)
    current = st.session_state[Keys.SCENARIO]
    if st.session_state.get(PICKED) is None and (run is None or not same_experiment(run.asked, current)):
        reuse(current)


def show_results_so_far(key: str) -> bool:
    """While the session's run of the current scenario goes on and some of its trials have ended: their results,
    marked "so far" (the whole run's replace them when it ends, the same numbers for the same trials); references
    that run after the others' trials (:func:`hcsched.experiment.chunk_plan`) are said to be still to come. Returns
    whether they were shown."""
    job = running_run()
    if job is None or job.partial is None or not same_experiment(job.scenario, st.session_state[Keys.SCENARIO]):
        return False
    scenario, results, to_come = split_so_far(job.scenario, job.partial)
    so_far = int(results["trial"].nunique())
    if to_come and so_far == job.scenario.trials:  # the heuristics' answer whole: how it changed, the references' later
        found = online_against_baseline(scenario, results, to_come)
        if found is not None:
            _against(st, *found)
    show_results(RunResult(scenario, results, time.monotonic() - job.started), key, so_far=so_far,
                 to_come=references_to_come(job.scenario, to_come, final=so_far == job.scenario.trials),
                 said=lambda: showing_so_far(job, so_far, " and ".join(to_come)))
    return True


COMPARE_MODE = "Compare two runs"
MODE_KEY = "results_mode"  # the Results page's view (a widget's key: Streamlit drops it on other pages)
MODE_KEPT = "results_mode_kept"  # the view chosen, kept across pages


def keep_mode() -> None:
    st.session_state[MODE_KEPT] = st.session_state[MODE_KEY]


def _picked(key: str) -> None:
    picked = titled(st.session_state[key])
    st.session_state[Keys.RESULTS] = picked.run
    st.session_state[PICKED] = picked.number
    st.session_state.pop(CAME_FROM, None)  # a run picked: no what-if went back to it


def _to_compare() -> None:
    st.session_state[MODE_KEPT] = COMPARE_MODE


def pick_run(key: str):
    """Which of the session's runs is shown (when there are several), and how it compares with its baseline (the run
    pinned as such, else the session's first run of its model): the change line, a way to the whole comparison, and
    a way to make it the baseline. Returns the history's entry shown (None if the results are not one)."""
    runs = history()
    shown = shown_entry()
    if len(runs) < 2 or shown is None:
        return shown
    picker = f"{key}_pick_run"
    st.session_state[picker] = shown.title  # follows a new run; a pick goes through _picked
    st.selectbox("Run shown", [e.title for e in reversed(runs)], key=picker, on_change=_picked, args=(picker,),
                 help=f"The last {HISTORY_CAP} runs of this session, kept on this server for {SESSION_HOURS:g} hours "
                      "after your last visit: a reload of this address finds them.")
    found = against_baseline(shown)
    c1, c2 = st.columns([5, 1], vertical_alignment="center")
    baseline = is_pinned(shown) or baseline_for(shown) is None  # pinned, or its model's first run, nothing pinned
    words = back_words(shown)  # the baseline, with another run of its model compared with it
    back = found is None and shown is not runs[-1] and st.session_state.get(PICKED) is None  # by Run or a link
    if words and back:  # back to it, no what-if asked: said so, once (Run's notice may say it)
        if not back_said(shown):
            c1.info(f"{words}: the other runs are compared with it.")
    elif words:  # said where another run of its model is compared with it, never of a run alone
        c1.caption(f"Run #{shown.number} is the baseline: the other runs are compared with it.")
    if found is not None:
        _against(c1, *found, back=is_baseline_again(shown))
        if c2.button("Compare in detail", key=f"{key}_compare", on_click=_to_compare):
            try:
                st.switch_page(PAGES["results"])
            except Exception:  # the page runs on its own (tests): the Results page opens in compare mode
                pass
    if not baseline:
        # no tooltip: under "Compare in detail", where the page leaves the pointer after a what-if, it covered the
        # line (the caption above says which run is the baseline once one is)
        c2.button("Make it the baseline", key=f"{key}_pin", on_click=pin_baseline, args=(shown.number,))
    return shown


def _against(where, base, line: str, before: bool = False, back: bool = False) -> None:
    """The change line against the baseline run ``base``, in ``where`` (the page, or a column); ``before``: ``base``
    is the run shown before the baseline was shown again (:func:`pages.history.came_from`); ``back``: the run shown is
    the baseline itself, said so first ("Back to the baseline from run #4: twice the arrival rate: ...": a tryout read
    "Against run #4, twice the arrival rate" over the default scenario run again as a new what-if)."""
    which = "the baseline you pinned" if is_pinned(base) else "the baseline"  # by default the model's first run
    if before:
        which = "the run shown before"
    line, _, legend = line.partition(LEGEND_BELOW)  # the heuristics' words, under the box with whom it is against
    said = plain(shown_text(base.scenario.model, line.rstrip()))
    # whom in 3 words (hcsched.compare.AGAINST_WORDS), the line within hcsched.compare.LINE_WORDS; which run that is,
    # right under it
    if before and back:
        where.info(f"Back to the baseline from run #{base.number}: {said}")
    else:
        where.info(f"Against run #{base.number}, {said}")
    legend = f" {plain(shown_text(base.scenario.model, legend.strip()))}" if legend.strip() else ""
    where.caption(f"Run #{base.number} is {which}.{legend}")


def show_if_current(of: Scenario, show, what: str, action: str, toggle_key: str) -> None:
    """Show ``what`` (results, a sweep) made of the scenario ``of``: at once when it is the scenario loaded now, else
    under a warning naming both (or saying it is of an earlier version of the same scenario), folded behind a toggle."""
    current = st.session_state[Keys.SCENARIO]
    if same_experiment(of, current):
        show()
        return
    if of.name == current.name:
        st.warning(f"The last {what} are of an earlier version of the scenario "
                   f"**{plain(of.name)}**, changed since (its "
                   f"{_what_changed(of, current)}). {action} to see the current one's.")
    else:
        st.warning(f"The last {what} are of the scenario **{plain(of.name)}**, not of the scenario loaded now "
                   f"(**{plain(current.name)}**). {action} to see this one's.")
    if st.toggle(f"Show the {what} of {plain(of.name)} (an earlier scenario)", key=toggle_key):
        show()


def _what_changed(old: Scenario, new: Scenario) -> str:
    """The scenario's parts that differ, in words: "heuristics", "system", "benchmark"."""
    parts = [("model", "model"), ("heuristics", "heuristics"), ("benchmark", "benchmark"), ("spec", "system")]
    changed = [word for attr, word in parts if getattr(old, attr) != getattr(new, attr)]
    return " and ".join(changed) or "description"


def summary_table(summary: pd.DataFrame, metrics: tuple[Metric, ...]) -> pd.DataFrame:
    """The summary as people read it: titles with units, 1.20 M rather than 1.196e+06, mean [95% interval]."""
    out = pd.DataFrame({"heuristic": summary["heuristic"], "trials": summary["trials"]})
    for m in metrics:
        out[m.label] = [interval_cell(*row, m.fmt) for row in summary[[m.name, f"{m.name}_lower",
                                                                       f"{m.name}_upper"]].to_numpy(float)]
    return out


def text_width(texts) -> int:
    """Pixels a table column needs to show the longest of ``texts`` whole in the grid's 14 px font (about 7.6 px a
    character, a wide one allowed for) with its padding: a column of heuristic labels such as mp-masse-decres-incr
    is never cut."""
    return int(8 * max((len(str(t)) for t in texts), default=4) + 24)


def metric_help(model) -> pd.DataFrame:
    """What each metric means, from the model's metric descriptions."""
    better = {"lower": "lower", "higher": "higher", "": "neither"}
    return pd.DataFrame([{"metric": m.title, "column": m.name, "unit": m.unit or "–", "better": better[m.better],
                          "meaning": m.doc} for m in model.table_metrics()])


def show_results(run: RunResult, key: str, so_far: int | None = None, to_come: str = "",
                 said: Callable[[], None] | None = None, what_ifs: Callable[[], None] | None = None) -> None:
    """Who wins, bars with 95% intervals, the table of means, per-trial distributions, the model's own charts, the
    animated Gantt chart of one trial, and downloads; with ``so_far`` (the trials ended of a run going on), who wins
    so far, its bars and means, marked as such; ``to_come``: the sentence on the references still running, not in
    ``run`` yet (:func:`~hcsched.verdict.references_to_come`); ``said``: called once the lead and its caption are
    drawn (a run's progress bar then says their count: :func:`pages.jobs.showing_so_far`); ``what_ifs``: draws the
    next questions right under the answer and its bars, once the run is whole (a tryout found them at the foot of a
    3,400-px page, under the distributions and the Gantt chart).

    What is shown comes from the model's metric descriptions; its own charts come from its dashboard module. Each part
    that runs a model's code shows an error of that code as one line, and the rest of the page still draws."""
    scenario, results = run.scenario, run.results
    model = get_model(scenario.model)
    colors = heuristic_colors(scenario.heuristics)
    bars = model.bar_metrics()
    tables = model.table_metrics()
    summary = summarize(results, [m.name for m in tables], methods=model.interval_methods())
    trials = f"{scenario.trials} {model.trial_word}s" if so_far is None or so_far == scenario.trials else \
        f"so far {so_far} of {scenario.trials} {model.trial_word}s"
    took = run.took if run.cached else f"computed in {run.took}"  # the page's drawing comes after: wall time is longer
    if so_far is not None:  # the run goes on: no time it was "computed in" yet
        took = "the references still running" if to_come else ""
    sentences = [", ".join(x for x in (f"**{plain(scenario.name)}**: {trials}", f"seed {scenario.seed}", took) if x)]
    headline = shown_text(scenario.model, model.headline(scenario.spec))  # a sentence of its own: short sentences
    if headline:
        sentences.append(headline[:1].upper() + headline[1:])
    units = getattr(ui(scenario.model), "TIME_UNITS", "")  # abstract time units, said before the first number in them
    if units:
        sentences.append(units.rstrip("."))
    if model.normalizes():
        normalised = ", ".join(m.title.lower() for m in model.metrics if m.normalize)
        sentences.append(f"{normalised[:1].upper()}{normalised[1:]} normalised to {plain(scenario.benchmark_label)}")
    with shown_as_error("Who wins could not be worked out"):
        show_verdict(results, scenario, key, so_far, to_come)
    st.caption(". ".join(sentences) + ". " + reading(model.trial_word), help=INTERVALS)
    if said is not None:  # the progress bar says the count once the lead and this caption say it, not before
        said()
    if getattr(run, "of", None) is not None:  # a run whose references were cancelled: the others' whole answer
        left_out = [in_words(h.label, scenario.model) for h in run.of.heuristics if h not in scenario.heuristics]
        st.caption(f"The run was cancelled before its references ended: {plain(' and '.join(left_out))}. These are "
                   f"the other heuristics' results, every {model.trial_word} of them.")
    for warning in model.warnings(results):
        st.warning(plain(shown_text(scenario.model, warning)))
    references = scenario_references(scenario)  # heuristics that cannot run online, marked as such in every chart
    shared = getattr(ui(scenario.model), "shared_bars", None)  # the model may chart some bar metrics on its own
    shown = shared(bars) if shared else bars
    whole_run = getattr(ui(scenario.model), "results_charts", None)  # the model's own charts of the whole run
    if shown:
        fig = metric_bars(summary, shown, colors, references, scenario_benchmark(scenario), bound_lines(model, results))
        st.plotly_chart(heuristic_ticks(scenario.model, fig, summary["heuristic"]), key=f"{key}_bars",
                        width="stretch")
    elif whole_run is not None:  # the model charts its headline itself: its charts lead, under the verdict
        _model_charts(whole_run, results, scenario, colors, key)
        whole_run = None
    if what_ifs is not None and so_far is None:
        what_ifs()
    with st.expander("Means and 95% intervals", expanded=False):
        means = summary_table(summary, tables)
        st.dataframe(means, key=f"{key}_summary", hide_index=True,
                     column_config={"heuristic": st.column_config.TextColumn(
            pinned=True, width=text_width(means["heuristic"]),
            help="The heuristic's short name, as in the charts and the CSV downloads; hover a bar for its name in "
                 "words, or open *What the short names on this page mean*")})
    if so_far is not None:
        st.caption(f"The per-{model.trial_word} distributions, one {model.trial_word}'s schedules and the downloads "
                   f"come with the whole run{', the references with them' if to_come else ''}.")
        return
    with st.expander("What the metrics mean", expanded=False):
        st.table(metric_help(model), hide_index=True)  # an HTML table: its meanings wrap, never cut
    by_name = {m.name: m for m in bars}
    metric = st.selectbox("Per-trial distribution of", list(by_name), format_func=lambda n: by_name[n].title,
                          key=f"{key}_dist_metric")  # no unit: the chart's axis says it (days, hours or seconds)
    distribution = trial_distribution(results, by_name[metric], colors, references, scenario_benchmark(scenario))
    distribution = heuristic_ticks(scenario.model, distribution, dict.fromkeys(results["heuristic"]))
    st.plotly_chart(distribution, key=f"{key}_dist", width="stretch")
    if whole_run is not None:
        _model_charts(whole_run, results, scenario, colors, key)
    downloads = [("Per-trial results (CSV)", results_csv(scenario, results),
                  file_name(scenario, "results", "csv", run=True),
                  "text/csv"),
                 ("Summary with intervals (CSV)", summary_csv(scenario, summary),
                  file_name(scenario, "summary", "csv", run=True), "text/csv"),
                 ("Scenario (JSON)", scenario.to_json(), file_name(scenario, "scenario", "json", run=True),
                  "application/json")]
    with shown_as_error(f"This {model.trial_word}'s schedules could not be drawn"):
        downloads[2:2] = one_trial(scenario, summary, colors, key)
    download_rows(downloads, key)


def download_rows(downloads: list[tuple], key: str) -> None:
    """The download buttons, each as wide as its label (never wrapped over 2-3 lines): the run's files on one row,
    the Gantt tables on the next (at 1440 px their labels together are wider than the page)."""
    for tables in (False, True):
        row = st.container(horizontal=True, key=f"{key}_downloads_{'gantt' if tables else 'run'}")
        for label, data, name, mime in downloads:
            if _download_key(label).startswith("gantt") == tables:
                row.download_button(label, data, name, mime, key=f"{key}_dl_{_download_key(label)}",
                                    on_click="ignore", width="content")


def bound_lines(model, results: pd.DataFrame) -> dict[str, tuple[float, str]]:
    """The mean over trials of each bound on a metric (``Model.bound_columns``), to draw as a line on its panel."""
    return {metric: (float(results[column].mean()), "mean lower bound")
            for metric, column in model.bound_columns.items()
            if column in results and results[column].notna().any()}


def _download_key(label: str) -> str:
    """A download button's key from its label, stable across scenarios (file names carry the scenario's name)."""
    return {"Per-trial": "results", "Summary": "summary", "Scenario": "scenario"}.get(
        label.split()[0], "gantt_window" if "window" in label else "gantt")


def _model_charts(charts, results: pd.DataFrame, scenario: Scenario, colors: dict, key: str) -> None:
    with shown_as_error(f"The {get_model(scenario.model).title} charts of the whole run could not be drawn"):
        charts(results, scenario, colors, key)


def show_verdict(results: pd.DataFrame, scenario: Scenario, key: str = "results", so_far: int | None = None,
                 to_come: str = "") -> None:
    """One sentence on the model's headline metric (who wins among the heuristics that can run online, by how much,
    and whether the paired 95% interval tells them apart), the references below it (static benchmarks, bounds: never
    crowned), and the other metrics' sentences folded in "Other metrics". With ``so_far`` (trials ended of a run
    going on), the sentence says so, and whether the answer is already clear: once every trial is in (the references
    still running), the answer is the whole run's, and ``to_come`` says which references are still to come."""
    found = scenario_verdicts(scenario, results)
    if not found:
        return
    lead, *shown = lead_block(scenario, results, found, so_far, to_come)
    said_as = lambda line: plain(sentence_opening(shown_text(scenario.model, line), scenario.model))  # noqa: E731  (the model's words,
    # as plain text, a sentence begun with a capital even where it opens with a heuristic's label: "Sufferage (...)")
    with st.container(key=f"{key}_verdict"):
        st.markdown(f"**{said_as(lead)}**")
        for line in shown:  # the pick as bold as the lead: a tryout read a bold winner on makespan beside a plain
            # "In short" picking another as the answer being the bold one
            st.markdown(f"**{said_as(line)}**" if line.startswith(IN_SHORT) else said_as(line))
        seen = {x for line in shown for x in sentences(line)}  # a sentence shown is not folded below again
        rest = [" ".join(x for x in sentences(line) if x not in seen)
                for line in (found[0].next_text, *headline(found).rest)]  # what the "In short" line folded too
        rest = [line for line in rest if line]
        if rest:  # the lead's interval or benchmark where they did not fit, the bound
            with st.expander("More on this answer", expanded=False):
                st.markdown("\n\n".join(said_as(line) for line in rest))
        if len(found) > 1:
            with st.expander(f"Other metrics ({len(found) - 1})", expanded=False):
                st.markdown("\n".join(f"- {said_as(' '.join(v.lines))}" for v in found[1:]))


def lead_block(scenario: Scenario, results: pd.DataFrame, found: list | None = None, so_far: int | None = None,
               to_come: str = "") -> list[str]:
    """The Results lead block, each sentence at most :data:`~hcsched.verdict.LEAD_WORDS` words: the lead, then the
    lines right under it, never only folded away (the metric in words where the lead had no room for them, another
    heuristic winning another metric for real, the references, those still to come). ``found``: the verdicts
    (:func:`~hcsched.verdict.scenario_verdicts`), worked out when not given; ``so_far``, ``to_come``: as
    :func:`show_verdict`'s. Empty without a verdict."""
    found = scenario_verdicts(scenario, results) if found is None else found
    if not found:
        return []
    said = headline(found)
    model = get_model(scenario.model)
    text, gloss, pick = said.lead, said.gloss, ""
    if so_far is None or so_far == scenario.trials:
        overloaded = _no_one_keeps_up(model, scenario, results)
        text, pick = overloaded or text, "" if overloaded else pick_line(found)  # the answer in a line, once all in
    else:  # one gloss: the lead's, else the line beside it
        text = progress_lead(found, so_far, scenario.trials, model.trial_word,
                             _no_one_keeps_up(model, scenario, results))  # never a leader where none keeps up
        gloss = found[0].gloss_beside(text)
    trade = trade_off(found)
    alike = "" if so_far is not None and so_far != scenario.trials else \
        alike_sentence(alike_pairs(results, model.bar_metrics()))  # two equal bars said why
    why = why_no_winner(found[0]) if text == said.lead else ""  # why no one is crowned, in view
    if pick:  # the answer in a line, early: what it sums up (the other metrics' winners) folds below
        kept = "" if found[0].next_folds else found[0].next_text  # the worst's line stays; the next one folds
        return [text] + [line for line in (gloss, why, kept, pick, _bare_named(found[0], trade),
                                           found[0].reference_text, alike, to_come) if line]
    return [text] + [line for line in (gloss, why, _bare_named(found[0], trade), found[0].next_text, trade,
                                       found[0].reference_text, alike, to_come) if line]


def _bare_named(v, trade: str) -> str:
    """The sentences of what folds below the lead that name in words a label the lead said bare, for room ("The
    runner-up is slack-sufferage (task losing most deadline slack first)."), where the trade-off line does not: every
    heuristic is named in words on a line one sees."""
    bare = [b for b in v.bare if f"{b} (" not in trade]
    return " ".join(s for s in sentences(v.detail) if any(f"{b} (" in s for b in bare))


def _no_one_keeps_up(model, scenario: Scenario, results: pd.DataFrame) -> str:
    """The lead when no heuristic that can run online kept up in any trial (:meth:`Model.overloaded`): its queues grow
    for the whole run, so crowning the one whose queue grew slowest would mislead; "" otherwise."""
    online = {h.label for h in scenario.heuristics} - set(scenario_references(scenario))
    if not online or not online <= set(model.overloaded(results)):
        return ""
    why = model.overload_words(scenario.spec)
    return (f"No heuristic keeps up{': ' + why if why else ' with these arrivals'}. Queues grow all run; the means "
            "below only compare how fast.")


def one_trial(scenario: Scenario, summary: pd.DataFrame, colors: dict, key: str) -> list[tuple]:
    """The model's charts of one trial and its animated Gantt chart (heuristics and machines chosen, a time window for
    large trials); returns the Gantt tables' downloads, built only when one is asked for."""
    model = get_model(scenario.model)
    st.subheader(f"One {model.trial_word}")
    word = model.trial_word  # numbered from 0, as the CSV's ``trial`` column, while the page counts "50 trials"
    trial = int(st.number_input(f"{word.capitalize()} (from 0, as in the CSV)", 0, scenario.trials - 1, 0,
                                key=f"{key}_trial", help=f"{word.capitalize()}s are numbered from 0 to "
                                f"{scenario.trials - 1}, as the results CSV's trial column numbers them."))
    runs = cached_runs(scenario, trial)
    schedules = schedules_of(scenario, runs)
    ui(scenario.model).trial_charts(runs, colors, key)
    rows = gantt_rows(scenario)
    shown, machines, overview = gantt_choice(scenario, summary, schedules, key, rows)
    window = None
    if shown:
        chosen = {label: schedules[label] for label in shown}
        window = gantt_window(scenario, chosen, key, machines)
        task = gantt_task(chosen, window, machines, key)
        name = lambda label: short_label(scenario.model, label, list(schedules))  # noqa: E731  (as the charts say)
        fig = gantt(chosen, colors, window=window, time_unit=model.time_unit, machines=machines, rows=rows,
                    highlight=task, overview=overview, name=name,
                    height=GANTT_HEIGHT if machines is None else detail_height(rows))  # in detail: more controls
        total = max(s.machines for s in chosen.values())
        said = rows_overview(rows, total) if overview else rows_shown(rows, machines, total) \
            if machines is not None and len(machines) < total else ""  # on the chart: its rows alone do not say it
        if said:
            fig.update_layout(title={"text": plain_html(said), "x": 0, "xanchor": "left",
                                     "y": 1, "yanchor": "top", "pad": {"t": 6}, "font": {"size": 14}})
        st.plotly_chart(fig, key=f"{key}_gantt", width="stretch")
        where = gantt_highlight_text(chosen, task, model.time_unit, rows, window, machines,
                                     name) if task is not None else ""
        marked = f" {plain(shown_text(scenario.model, where))}" if where else ""
        marked += f" {gantt_note(scenario.model)}" if where and gantt_note(scenario.model) else ""
        st.caption("Press Play to watch the tasks start and run; drag the slider to move in "
                   "time; hover a task for its times." + marked)
    else:
        st.info("Choose at least one heuristic to draw its Gantt chart.")
    downloads = [(f"Gantt table, whole {model.trial_word} {trial} (CSV)", lambda: _gantt_csv(scenario, trial, runs),
                  file_name(scenario, f"gantt-{model.trial_word}{trial}", "csv", run=True), "text/csv")]
    if window is not None:
        downloads.append((f"Gantt table, time window {window_text(*window, model.time_unit)} (CSV)",
                          lambda: _gantt_csv(scenario, trial, runs, window),
                          file_name(scenario, f"gantt-{model.trial_word}{trial}-{window[0]:.6g}-{window[1]:.6g}", "csv",
                                    run=True), "text/csv"))
    return downloads


def _gantt_csv(scenario: Scenario, trial: int, runs: dict, window: tuple[float, float] | None = None) -> str:
    """Every task of one trial (or those overlapping ``window``), every heuristic: built when its download is clicked
    (a large trial's table is tens of MB, too slow to build on every rerun)."""
    whole = schedule_table(scenario, trial, runs).drop(columns="trial")
    if window is not None:
        finish = whole["finish"].fillna(np.inf)  # tasks still running at the end of the run
        whole = whole[(finish > window[0]) & (whole["start"] < window[1])]
    return schedule_csv(scenario, whole, trial, window)


def gantt_rows(scenario: Scenario) -> GanttRows:
    """The Gantt's rows in the model's own words (the time-shared model's servers s0.., the estimation model's
    processors p0..): its dashboard module's ``gantt_rows(scenario)``, else machines m0.."""
    own = getattr(ui(scenario.model), "gantt_rows", None)
    return own(scenario) if own is not None else MACHINES


def rows_shown(rows: GanttRows, machines: list[int], total: int) -> str:
    """Which rows of ``total`` the Gantt chart shows (``machines``, side by side) and where to pick others, in the
    model's row word: short enough for the chart's title line."""
    first, last = rows.name(machines[0]), rows.name(machines[-1])
    return (f"{first if first == last else f'{first}-{last}'} of the {total} {rows.word}s (all would not fit); "
            f"others: “{rows.word.capitalize()}s shown” above")


def rows_overview(rows: GanttRows, total: int) -> str:
    """The overview's title line, short enough for a chart 1000 px wide: every row is drawn (a server's tasks in one
    strip; the "Gantt view" choice above it gives the busiest in detail)."""
    drawn = "darker where more tasks run at once" if rows.lanes else "a thin row each"
    return f"All {total} {rows.word}s, {drawn}; hover for a task"


def rows_detail(rows: GanttRows, lo: int, hi: int, total: int, busiest: bool) -> str:
    """Which rows the detailed Gantt shows, said as they are: "Processors p0-p5 shown, 6 of the 90: no 6 side by
    side ran more tasks" (``busiest``: the default range, :func:`hcsched.charts.gantt_detail`, the lowest of those
    tied), and how to see the others."""
    n = hi - lo + 1
    why = f": no {n} side by side ran more tasks" if busiest else ""
    return (f"{rows.word.capitalize()}s {rows.name(lo)}-{rows.name(hi)} shown, {n} of the {total}{why}. More would "
            f"not fit one screen: move “{rows.word.capitalize()}s shown” to see others.")


def gantt_choice(scenario: Scenario, summary: pd.DataFrame, schedules: dict, key: str,
                 rows: GanttRows = MACHINES) -> tuple[list[str], list[int] | None, bool]:
    """The heuristics and machines the Gantt chart shows, and whether as an overview: by default the best few by the
    headline metric with the benchmark, every machine; where they would not fit a 900-px window with the controls
    (``gantt_busiest``: fewer where each task takes a lane of its own), an overview of them all
    (``hcsched.charts.gantt_overview``) or, one choice away, the busiest side by side in detail."""
    model = get_model(scenario.model)
    labels = list(schedules)
    lead = headline_metric(model)
    default = best_few(summary, lead.name, lead.better, scenario.benchmark_label, GANTT_HEURISTICS)
    default = [label for label in default if label in labels]
    names = heuristic_hovers(labels, scenario.model)
    shown = st.multiselect("Heuristics in the Gantt chart", labels, default=default, key=f"{key}_gantt_heuristics",
                           format_func=lambda label: short_label(scenario.model, label, labels),
                           help=f"By default the {GANTT_HEURISTICS} best by {lead.title.lower()}, "
                                "with the benchmark. The names: " + "; ".join(plain(names[x]) for x in labels) + ".")
    if not shown:
        return [], None, False
    machines = max(schedules[label].machines for label in shown)
    chosen = {label: schedules[label] for label in shown}
    if machines <= gantt_busiest(chosen, rows)[1]:
        return shown, None, False
    first, count = gantt_detail(chosen, rows)  # fewer, so that every panel fits one screen with these controls
    word = rows.word.capitalize()
    views = (f"All {machines} {rows.word}s", f"Busiest {rows.word}s, in detail")
    if st.radio("Gantt view", views, horizontal=True, key=f"{key}_gantt_view",
                help=f"All: every {rows.word} a thin row, the heuristics side by side. In detail: a range of "
                     f"{rows.word}s with their names, the heuristics one above the other.") == views[0]:
        return shown, None, True
    lo, hi = st.slider(f"{word}s shown", 0, machines - 1, (first, first + count - 1), key=f"{key}_gantt_machines",
                       help=f"A range of {rows.word}s; by default as many as keep the chart within a window, those "
                            "side by side that ran the most tasks.")
    st.caption(rows_detail(rows, lo, hi, machines, (lo, hi) == (first, first + count - 1)))
    return shown, list(range(lo, hi + 1)), False


def gantt_window(scenario: Scenario, schedules: dict, key: str,
                 machines: list[int] | None = None) -> tuple[float, float] | None:
    """The time window of the Gantt chart: the whole trial when it is small, else a start and a length that show, on
    the machines shown, at most GANTT_BARS tasks in all and a few tens in a row by default (``gantt_default_window``),
    opening on the trial's busiest stretch (``gantt_busy_start``; a start slider, so its handle is never stacked on
    another), said under it with the trial's span. Both are round and move by round steps (``window_step``,
    ``start_step``): "300 s to 900 s", not "300.1 s to 900.1 s"."""
    sized = gantt_default_window(schedules, machines=machines)
    if sized is None:
        return None
    end, default = sized
    c1, c2 = st.columns([3, 1])
    default = max(end * 1e-6, min(end, round_length(default)))
    length = c2.number_input(f"Window length ({get_model(scenario.model).time_unit})", min_value=end * 1e-6,
                             max_value=end, value=default, step=window_step(default), key=f"{key}_window_length",
                             format="%.4g",
                             help=f"At most about {GANTT_BARS} tasks in all and a few tens in a row by default; longer "
                                  "windows draw and play more slowly.")
    if end - length <= 0:
        return (0.0, end)
    first = min(gantt_busy_start(schedules, length, machines), end - length)  # the busiest stretch
    model = get_model(scenario.model)
    low = c1.slider(f"Window start ({model.time_unit})", 0.0, end - length, first, step=start_step(length),
                    key=f"{key}_window", format="%.4g")
    first, last = window_ends(low, low + length)  # as the download button says them: "2,270", "2,275"
    st.caption(f"Showing {first} {model.time_unit} to {last} {model.time_unit} of the {model.trial_word}'s "
               f"{readable_amount(end, model.time_unit)}: move the window with Window start, or widen it with Window "
               "length.")
    return (low, low + length)


def gantt_task(schedules: dict, window: tuple[float, float] | None, machines: list[int] | None, key: str) -> int | None:
    """The task marked in every heuristic's panel: by default the one whose finish differs most between the heuristics
    shown (``gantt_highlight``), following the window and the heuristics until one is typed; empty marks none."""
    default = gantt_highlight(schedules, window, machines)
    tasks = max(s.start.size for s in schedules.values())
    chosen, shown = f"{key}_gantt_task", f"{key}_gantt_task_default"
    state = st.session_state
    typed = state.get(chosen)
    if chosen not in state or typed == state.get(shown) or (typed is not None and not 0 <= typed < tasks):
        state[chosen] = default  # never typed (or out of this trial's range): the default of this window
    state[shown] = default
    task = st.number_input("Task marked in every panel", 0, max(0, tasks - 1), None, key=chosen, placeholder="none",
                           help="Hatched and labelled in every heuristic's panel that shows it, to compare "
                                "where and when each ran it; empty for none. By default the task whose finish "
                                "differs most between the heuristics shown.")
    if task is None:
        st.caption("No task is marked: " + ("none is in every panel shown." if default is None else
                                            "type a task's number to mark it."))
    return None if task is None else int(task)
