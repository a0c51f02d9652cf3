"""Two runs compared (Results' "Compare two runs", and a sweep point against a run): the change line's lead and,
folded, the rest of it, what differs, the chart of the means before and after with the change and its 95% interval,
every metric's table, and the CSV."""

from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from hcsched import get_model
from hcsched.charts import heuristic_colors
from hcsched.compare import (
    RunComparison,
    change_words,
    comparison_csv,
    joined_below,
    quick_what_ifs,
    swap_choices,
    swapped,
    what_changed,
)
from hcsched.compare_charts import change_chart
from hcsched.experiment import duration_words
from hcsched.export import export_stem
from hcsched.formatting import readable
from hcsched.verdict import heuristic_words, named_once, scenario_references, sentence_opening
from pages.history import Entry, Side, baseline_for, comparison, entry, history, ran_before, titled
from pages.models import heuristic_ticks, shown_text
from pages.results_view import text_width
from pages.runs import plan_run, running_run, start_run
from pages.session import Keys, as_committed, commit_scenario, same_experiment
from pages.widgets import plain, shown_as_error


def show_comparison(before: Side, after: Side, key: str) -> None:
    """The change line, what differs, the chart with the change's 95% interval, every metric's table and the CSV."""
    if before.scenario.model != after.scenario.model:
        st.info(f"{plain(before.title)} and {plain(after.title)} are runs of different models "
                f"({before.scenario.model}, "
                f"{after.scenario.model}): their metrics do not compare. Pick two runs of the same model.")
        return
    with shown_as_error("The two runs could not be compared"):
        cmp = comparison(before, after)
        lead, below = cmp.summary_parts()
        model = after.scenario.model
        st.markdown(f"**{plain(sentence_opening(shown_text(model, lead), model))}**")  # "Twice the machines: ..."
        if below:  # the winner and the why in view, as the one-run view says them
            st.markdown(plain(shown_text(model, joined_below(below))))
        _, rest = cmp.change_parts()
        if rest:  # what differs and every change in full: the lead says the change once, the selectboxes the runs
            with st.expander(IN_FULL, expanded=False):
                st.markdown(plain(shown_text(model, " ".join(rest))))
        if not cmp.differences:
            st.write("The two runs are of the same scenario, trials and seed: the same numbers.")
        st.caption(plain(f"{cmp.pairing_words} {cmp.left_out_text}".rstrip()), help=plain(cmp.pairing))
        metric = _metric_choice(cmp, key, (before.title, after.title))
        colors = heuristic_colors([*after.scenario.heuristics, *before.scenario.heuristics])
        references = {**scenario_references(before.scenario), **scenario_references(after.scenario)}
        chart = change_chart(cmp, metric, colors, references)
        chart = heuristic_ticks(after.scenario.model, chart, chart.data[0].y)  # its rows: the heuristics compared
        st.plotly_chart(chart, key=f"{key}_chart", width="stretch")
        with st.expander("Every metric: before, after and the change [95% interval]", expanded=False):
            table = comparison_table(cmp)
            st.dataframe(table, hide_index=True, key=f"{key}_table", column_config={
                "heuristic": st.column_config.TextColumn(pinned=True, width=text_width(table["heuristic"]))})
        name = f"{export_stem(before.scenario)}-vs-{export_stem(after.scenario)}-comparison.csv"
        st.download_button("Comparison (CSV)", comparison_csv(cmp), name, "text/csv", key=f"{key}_dl",
                           on_click="ignore")


IN_FULL = "What differs, and every change in figures"


def _metric_choice(cmp: RunComparison, key: str, pair: tuple[str, str]):
    """The metric charted: the one the lead says (:meth:`~hcsched.compare.RunComparison.leading`) for each new pair
    of runs, then the user's pick while the pair stays."""
    bars = {m.name for m in get_model(cmp.before.model).bar_metrics()}
    shown = {m.name: m for m in cmp.metrics if m.name in bars} or {m.name: m for m in cmp.metrics}
    found = cmp.leading()
    state = st.session_state
    if state.get(f"{key}_metric_pair") != pair or state.get(f"{key}_metric") not in shown:
        state[f"{key}_metric_pair"] = pair
        state[f"{key}_metric"] = found[0].name if found and found[0].name in shown else next(iter(shown))
    return shown[st.selectbox("Metric in the chart", list(shown), format_func=lambda n: shown[n].title,
                              key=f"{key}_metric")]  # no unit: the chart's axis says it (days, hours or seconds)


def comparison_table(cmp: RunComparison) -> pd.DataFrame:
    """Every metric and heuristic as people read it: both means with their units (so the metric is named without
    one: "Makespan" over "7.3 days (633,000 s)", never "Makespan (s)"), the change with its interval."""
    by = {m.name: m for m in cmp.metrics}
    return pd.DataFrame([{"heuristic": c.heuristic, "metric": by[c.metric].title,
                          "change [95% interval]": change_words(c),
                          "before": readable(c.before, by[c.metric]), "after": readable(c.after, by[c.metric])}
                         for c in cmp.changes])


# --- choosing the two runs ----------------------------------------------------------------------------------------

def _chosen(key: str) -> None:
    """Keep the pair picked (widget keys are dropped when the page is left)."""
    state = st.session_state
    state[f"{key}_kept"] = (history()[-1].number, titled(state[f"{key}_before"]).number,
                            titled(state[f"{key}_after"]).number)


def choose_pair(key: str) -> tuple[Entry, Entry] | None:
    """Two runs of the history, a baseline and a what-if: by default the latest run against its baseline (the run
    pinned as such, else the session's first run of its model), following each new run until the user picks others."""
    runs = history()
    if len(runs) < 2:
        if running_run() is not None:
            st.info("One run so far, and another going on: the two compare here when it ends.")
        else:
            st.info("One run so far: change something (the Scenario, Heuristics or Run page, or a what-if under "
                    "the results) and run again, and the two runs compare here.")
        return None
    latest, state = runs[-1], st.session_state
    kept = state.get(f"{key}_kept")
    if kept is None or kept[0] != latest.number or entry(kept[1]) is None or entry(kept[2]) is None:
        # a new run: against its baseline
        kept = (latest.number, (baseline_for(latest) or runs[-2]).number, latest.number)
        state[f"{key}_kept"] = kept
    state[f"{key}_before"], state[f"{key}_after"] = entry(kept[1]).title, entry(kept[2]).title
    titles = [e.title for e in reversed(runs)]
    before = st.selectbox("Baseline", titles, key=f"{key}_before", on_change=_chosen, args=(key,))  # one a row: a run's
    after = st.selectbox("What-if", titles, key=f"{key}_after", on_change=_chosen, args=(key,))  # title can be long
    return titled(before), titled(after)


def what_if_row(key: str) -> None:
    """One-click what-ifs under the results of the current scenario (:func:`hcsched.compare.quick_what_ifs`): each
    makes the scenario changed the current one and runs it; its results then show with the change against the
    baseline, and "Compare two runs" gives the whole comparison. Nothing while a run goes on."""
    run, current = st.session_state.get(Keys.RESULTS), st.session_state[Keys.SCENARIO]
    if run is None or running_run() is not None or not same_experiment(run.scenario, current):
        return
    choices = quick_what_ifs(current)
    if not choices:
        return
    st.caption("Try a what-if: the scenario changed, run with the same trials and seed, and compared with this run's "
               "baseline when it ends.")
    columns = st.columns(len(choices))
    for i, ((words, changed), column) in enumerate(zip(choices, columns, strict=True)):
        _what_if_button(column, words, current, changed, f"{key}_whatif_{i}")
    swap_row(key, current)


def _what_if_button(where, words: str, current, changed, key: str) -> None:
    """A button that makes ``changed`` the current scenario and runs it; its help says what changes and how long it
    takes, or why the server refuses it (the button greyed); a caption under it says the time or the refusal."""
    planned = plan_run(changed)
    committed = as_committed(changed)
    done = ran_before(committed)  # shown again, not run twice
    time_words = f"Already run (#{done.number}): shown at once" if done else \
        f"About {duration_words(planned.estimate)}"
    said = "; ".join(what_changed(current, changed))
    said += f". {planned.refused}" if planned.refused and not done else f". {time_words}."
    clicked = where.button(words, key=key, help=plain(said), disabled=bool(planned.refused) and not done)
    # the estimate, or why the button is greyed, in view, not only on hover (a touch screen has none)
    where.caption(plain(planned.refused) if planned.refused and not done else time_words)
    if clicked:
        job = plan_run(commit_scenario(changed))
        if job.refused is not None:
            st.error(plain(job.refused))
        else:
            start_run(job, what_if=True)
            st.session_state[SCROLL_UP] = time.time_ns()  # see scroll_up_once
            st.rerun()


SCROLL_UP = "results_scroll_up"  # when a what-if started, until the page scrolls up once
# The page's top in view: Streamlit scrolls its main section (stMain), not the window; st.html is not in an iframe.
SCROLL_UP_JS = ("for (const el of [document.querySelector('[data-testid=\"stMain\"]'), document.scrollingElement]) "
                "{ if (el) el.scrollTo({top: 0}); }")


def scroll_up_once() -> None:
    """After a what-if's click, the page back at its top, once: Streamlit keeps it scrolled down at the buttons,
    while the run's progress and then its answer ("Against run #1, the baseline: ...") show at the top. Streamlit has
    no scroll call: a script that runs when its element is first drawn, drawn in this run only, so that later reruns
    never move the page the reader scrolls. At the page's end: no element above it shifts."""
    started = st.session_state.pop(SCROLL_UP, None)
    if started is not None:  # its time in the script: a new script for each what-if, never the last one's kept
        st.html(f"<script>/* what-if {started} */ {SCROLL_UP_JS}</script>", unsafe_allow_javascript=True)


def swap_row(key: str, current) -> None:
    """A what-if of one heuristic for another (:func:`hcsched.compare.swapped`): which of the run's heuristics
    (the benchmark stays), for which of the model's others, and its button; the runs a server keeps by workload
    make it cost only the heuristic it adds."""
    inside, outside = swap_choices(current)
    if not inside or not outside:  # said, not hidden: where the swap went
        why = ("every heuristic of this model is in the run" if not outside else
               "the run has only its benchmark, which the normalised metrics are divided by")
        st.caption(f"No swap of a heuristic: {why}. The Heuristics page removes or adds one.")
        return
    model = current.model
    c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
    old = c1.selectbox("Or swap a heuristic", inside, key=f"{key}_swap_out",
                       format_func=lambda label: _named(label, model),  # options are text
                       help=f"The benchmark, {plain(current.benchmark_label)}, stays: the normalised metrics are "
                            "divided by it.")
    new = c2.selectbox("for", outside, key=f"{key}_swap_in",
                       format_func=lambda name: _named(name, model))  # in words, as the chips: not "max-min (Max-min)"
    _what_if_button(c3, "Run the swap", current, swapped(current, old, new), f"{key}_swap_run")


def _named(label: str, model: str) -> str:
    """A heuristic's label with its words, as a sentence names it: "min-min (soonest-finishing task first)",
    "kpb (each class's fastest machine)"."""
    return named_once([label], {label: heuristic_words(label, model)})[0]
