"""A manager's Results lead block in a demo ("within one minute: who wins, by how much, and is it real"): every
sentence of the lead and the lines right under it is at most 35 words, on every model's default preset and its
one-click what-ifs; a tiny real difference is said to be tiny; the caption says the model's own word for a trial."""

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import open_results  # noqa: E402

from hcsched import get_model, model_names, preset, simulate  # noqa: E402
from hcsched.compare import quick_what_ifs  # noqa: E402
from hcsched.verdict import (  # noqa: E402
    LEAD_WORDS,
    headline,
    scenario_verdicts,
    sentences,
    trade_off,
    verdict,
    word_count,
)
from pages.models import heuristic_ticks, shown_text  # noqa: E402
from pages.results_view import lead_block  # noqa: E402


def _quick(name: str):
    """A model's default preset over 3 trials (alazzoni-B over 2,000 time units: its what-if at twice the arrival
    rate still overloads every machine)."""
    sc = preset(get_model(name).default_preset).replace(trials=3)
    if sc.model == "classes":
        sc = sc.replace(classes=dataclasses.replace(sc.classes, horizon=2000.0))
    return sc


def _plain(markdown: str) -> str:
    """Markdown as read: escapes and bold marks removed."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("**", "")


@pytest.mark.parametrize("name", [m for m in model_names() if get_model(m).default_preset])
def test_every_lead_sentence_of_a_default_preset_and_its_what_ifs_is_at_most_35_words(name):
    """The value references' line was one sentence of 47 words, the classes overload lead 39 words in all, the ETC
    trade-off line 37 (40 after a what-if): each sentence of the lead block now at most 35 words, as a page shows it."""
    base = _quick(name)
    for what, sc in [("the preset", base), *quick_what_ifs(base)]:
        lines = [shown_text(sc.model, line) for line in lead_block(sc, simulate(sc))]
        assert lines, (name, what)
        for sentence in (s for line in lines for s in sentences(line)):
            assert word_count(sentence) <= LEAD_WORDS, (name, what, word_count(sentence), sentence)


def test_the_lead_where_no_mapping_keeps_up_is_shorter_and_says_the_same():
    """alazzoni-B at twice the arrival rate led with 39 words: "No heuristic keeps up: the machines cannot keep up
    whatever the mapping (...). Tasks pile up for the whole run, so the means below only compare how fast their queues
    grow." The same facts, shorter."""
    sc = dict(quick_what_ifs(_quick("classes")))["Twice the arrival rate"]
    lead = shown_text(sc.model, lead_block(sc, simulate(sc))[0])
    assert lead == ("No heuristic keeps up: the machines cannot keep up whatever the mapping (they can take about 67% "
                    "of these arrivals). Queues grow all run; the means below only compare how fast."), lead
    assert word_count(lead) == 31


def test_the_references_say_what_they_are_once_then_each_value_and_interval_in_a_sentence():
    """"For reference, not contenders, each a search computed after the fact, knowing every task: ga (...) reaches
    96.4% of the upper bound, 5.1 points above max-min (95% interval: 4.8–5.5 points above). tpsa (...) reaches
    91.3%, about the same as max-min." was one sentence of 47 words."""
    sc = preset("kim-loose-high-heavy").replace(heuristics=["max-min", "switching", "tpsa", "ga"])
    rng = np.random.default_rng(1)
    base = 86 + rng.normal(0, 0.5, 10)
    values = {"max-min": base + 5, "switching": base + 4, "tpsa": base + 5 + 0.04 + rng.normal(0, 0.005, 10),
              "ga": base + 10.1 + rng.normal(0, 0.3, 10)}
    rows = [{"trial": t, "heuristic": h, "value_pct_ub": v[t]} for t in range(10) for h, v in values.items()]
    line = scenario_verdicts(sc, pd.DataFrame(rows))[0].reference_text
    said = sentences(line)
    assert said[0] == ("For reference, not contenders: ga (genetic algorithm, static) and tpsa (two-phase simulated "
                       "annealing, static), each an offline search that knows every task in advance, as no live "
                       "scheduler can."), line
    assert said[1:] == ["ga reaches 96.1% of the upper bound, 5.0 points above max-min (95% interval: 4.8–5.3 "
                        "points above).", "tpsa reaches 91.2%, about the same as max-min."], line
    assert len(said) == 3 and all(word_count(s) <= LEAD_WORDS for s in said)


def test_a_trade_off_too_long_for_one_sentence_is_said_in_two():
    """"But min-min (soonest-finishing task first) has the lowest mean flow time (a task's time from arrival to finish,
    averaged) at 5.1 hours (18,200 s) and the lowest max stretch (the worst task's slowdown) at 20 times its run time
    alone." was 37 words."""
    sc = preset("quickstart").replace(heuristics=["sufferage", "min-min", "mct"])
    rows = []
    for t in range(6):
        wobble = 1 + 0.01 * (t % 3)
        for h, makespan, flow, stretch in (("sufferage", 500_000, 20_000, 25.0), ("min-min", 560_000, 18_200, 20.0),
                                           ("mct", 600_000, 30_000, 40.0)):
            rows.append({"trial": t, "heuristic": h, "makespan": makespan * wobble, "mean_flow": flow * wobble,
                         "max_stretch": stretch * wobble, "utilization": 0.9,
                         "normalized_makespan": makespan / 560_000, "makespan_bound": 400_000.0})
    found = scenario_verdicts(sc, pd.DataFrame(rows))
    assert found[0].best == "sufferage"
    line = trade_off(found)
    assert line == ("But min-min (soonest-finishing task first) has the lowest mean flow time (a task's time from "
                    "arrival to finish, averaged) at 5.1 hours. It also has the lowest max stretch (the "
                    "worst task's slowdown) at 20.2 times its run time alone."), line
    assert all(word_count(s) <= LEAD_WORDS for s in sentences(line))


def test_a_tiny_real_difference_in_a_lead_is_said_tiny_with_one_precision():
    """The value what-if "twice the machines" read "max-max ... 87.5% of the upper bound, 0.037 points above the
    runner-up slack-sufferage: a real difference (95% interval: 0.016–0.1 points above)"."""
    sc = preset("kim-loose-high-heavy").replace(heuristics=["max-max", "slack-sufferage"])
    base = 87.5 + np.array([0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.3])
    gaps = np.array([0.02, 0.06, 0.01, 0.05, 0.03, 0.07, 0.02, 0.04])  # mean 0.0375: under 1% of 87.5
    rows = [{"trial": t, "heuristic": h, "value_pct_ub": v}
            for t in range(8) for h, v in (("max-max", base[t]), ("slack-sufferage", base[t] - gaps[t]))]
    results = pd.DataFrame(rows)
    said = headline(scenario_verdicts(sc, results))
    assert said.lead == ("max-max (most worth per second of work first) has the highest value at 87.5% of the upper "
                         "bound, 0.04 points above slack-sufferage, the runner-up: real, but tiny (95% interval: "
                         "0.02–0.06 points above)."), said.lead  # the names leave room for the interval short
    assert "a real difference" not in said.lead and word_count(said.lead) <= LEAD_WORDS
    assert said.rest[0].startswith("The runner-up is slack-sufferage (task losing most deadline slack first)."), \
        said.rest
    metric = next(m for m in get_model("value").metrics if m.name == "value_pct_ub")
    assert verdict(results, metric).text == (
        "max-max has the highest value at 87.5% of the upper bound, 0.04 points above slack-sufferage, the runner-up: "
        "real, but tiny (95% interval: 0.02–0.06 points above).")


@pytest.mark.parametrize("name", ["alazzoni-B", "caniou-mu10", "quickstart"])
def test_the_caption_on_reading_intervals_says_trial_in_every_model(name):
    """The classes caption said "3 replications" and then "with many more trials the mean would very likely lie
    inside it", and the time-shared pages "simulations": one word, "trial", in every model (its docs page says the
    paper's word)."""
    sc = preset(name).replace(trials=2)
    if sc.model == "classes":
        sc = sc.replace(classes=dataclasses.replace(sc.classes, horizon=300.0))
    at = open_results(sc, timeout=120)
    caption = next(_plain(c.value) for c in at.caption if "How to read the intervals" in c.value)
    assert "with many more trials the mean would very likely lie inside it" in caption, caption
    assert "compares the heuristics trial by trial, on the same tasks" in caption, caption
    shown = " ".join(_plain(x.value) for x in [*at.caption, *at.markdown, *at.info, *at.warning])
    assert not re.search(r"\b(replications?|simulations)\b", shown), shown


def test_the_estimation_bars_tell_the_two_fz_apart():
    """Two bars read "fz / largest estimate error first" and "fz (error weighted a tenth) / largest estimate error
    first": the bare one says its weight too, "fz (error weighted in full)", on the charts' ticks."""
    import plotly.graph_objects as go

    labels = [h.label for h in preset("page-system-a").heuristics]
    fig = go.Figure(go.Bar(x=[1.0] * len(labels), y=labels, orientation="h"))
    ticks = heuristic_ticks("estimation", fig, labels).layout.yaxis.ticktext
    shown = [t.split("<br>")[0] for t in ticks]
    assert shown[labels.index("fz")] == "fz (error weighted in full)", shown
    assert shown[labels.index("fz (beta=0.1)")] == "fz (error weighted a tenth)", shown
    assert len(set(shown)) == len(shown)


def test_the_lead_block_ends_a_trade_off_with_the_pick_in_one_line():
    """"But min-min has the lowest mean flow time ... It also has the lowest max stretch" gave a manager no pick: the
    block says it in a line of its own right under the lead and its term once every trial is in (a manager's best
    sentence, read early), and not while the run goes on (still open)."""
    sc = preset("quickstart")
    results = simulate(sc)
    lines = lead_block(sc, results)
    assert lines[1:3] == ["Makespan: when the last task ends.",  # the lead's term, then the answer
                          "In short: min-min is the better all-round pick; sufferage's makespan is 8.4% lower, but "
                          "its mean flow time is 2.2 times as long, its max stretch (the worst task's slowdown) "
                          "2,527×, against min-min's 38×."], lines
    assert not [x for x in lead_block(sc, results[results["trial"] < 3], so_far=3) if x.startswith("In short")]


def test_a_lead_that_crowns_no_one_says_why_in_view():
    """Page et al.'s system A: "No clear winner on makespan: 10 of 12 average 40–50 minutes; ..." left why (the order
    swings from trial to trial) in a closed "More on this answer": the sentence is in view, right under the lead's
    term, and not folded again; a lead that crowns a winner has no such line."""
    rng = np.random.default_rng(5)
    sc = preset("page-system-a")
    base = 2400 + rng.normal(0, 300, 30)  # the trials' shared workload: ten alike, lz and le 900 s slower
    values = {h.label: list(base + (900 if h.label in ("lz", "le") else 0) + rng.normal(0, 200, 30))
              for h in sc.heuristics}
    rows = [{"heuristic": k, "trial": t, "makespan": x} for k, xs in values.items() for t, x in enumerate(xs)]
    lines = lead_block(sc, pd.DataFrame(rows))
    assert lines[0].startswith("No clear winner on makespan: 10 of 12 average "), lines
    assert lines[2].startswith("The order swings from trial to trial: "), lines
    assert lines[2].endswith(", the lowest on average, is not reliably ahead of any of the other 9."), lines
    assert lines[1] == "Makespan: when the last task ends.", lines
    assert lines[2] in scenario_verdicts(sc, pd.DataFrame(rows))[0].detail  # what folded below: said once in view
    won = [{**r, "makespan": r["makespan"] - 1500 * (r["heuristic"] == "la")} for r in rows]  # la clearly best
    lines = lead_block(sc, pd.DataFrame(won))
    assert lines[0].startswith("la (") and not [x for x in lines if "order swings" in x], lines  # a winner: no why
