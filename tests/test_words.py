"""Words people use: every setting of every preset said in words and in a unit a person reads, every heuristic named in
words where a headline first mentions it, lead sentences of at most 35 words with the rest said below, no doubled
parentheses, and what-ifs whose line leads with the change that matters (hcsched.verdict, hcsched.compare)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from hcsched import get_model, model_names, preset, simulate
from hcsched.compare import (
    CHANGE_LEAD_WORDS,
    SETTINGS,
    compare_runs,
    flat_settings,
    interval_words,
    lead_changes,
    run_changes,
    setting_change,
)
from hcsched.heuristics import label_parts
from hcsched.presets import preset_names, sweep_preset, sweep_preset_names
from hcsched.verdict import (
    LEAD_WORDS,
    PLAIN_WORDS,
    _same_name,
    headline,
    heuristic_words,
    metric_words,
    progress_lead,
    scenario_verdicts,
    word_count,
)

TRIALS = 4
RAW_KEY = re.compile(r"\b[a-z]+(?:[._][a-z]+)+\b")  # arrivals.rate, mean_interarrival


def _keys(scenario) -> set[str]:
    return set(flat_settings(get_model(scenario.model).spec_to_dict(scenario.spec)))


# --- settings ----------------------------------------------------------------------------------------------------

def test_every_setting_of_every_preset_sweep_and_model_has_words():
    scenarios = [preset(name) for name in preset_names()] + [get_model(m).tiny() for m in model_names()]
    keys = set().union(*(_keys(s) for s in scenarios))
    keys |= {k for name in sweep_preset_names() for k in sweep_preset(name).vary if not k.startswith("heuristics.")}
    assert not keys - set(SETTINGS), sorted(keys - set(SETTINGS))
    for key in keys:  # said in words, never as the key itself
        words = SETTINGS[key].words
        assert not RAW_KEY.search(words) and words.strip() == words and words, key


@pytest.mark.parametrize("key, old, new, said", [
    ("arrivals.rate", 0.000645197, 0.00129039, "arrival rate 2.3 → 4.6 tasks an hour (×2)"),
    ("arrivals.rate", 0.02, 0.05, "arrival rate 1.2 → 3.0 tasks a minute (×2.5)"),
    ("arrivals.rate", 2.0, 3.0, "arrival rate 2 → 3 tasks a second (×1.5)"),  # a rate says its factor
    ("arrivals.rate", 0.000645197, 0.000650000, "arrival rate 2.32 → 2.34 tasks an hour (×1.01)"),  # told apart
    ("duration", 15000.0, 30000.0, "arrival period 4.2 → 8.3 hours (15,000 → 30,000 s)"),
    ("mean_interarrival", 10.0, 5.0, "mean time between arrivals 10 → 5 s"),
    ("max_compute_s", 600.0, 172800.0, "longest compute time 600 → 173,000 s (under an hour → 2.0 days)"),
    ("machines", 8, 12, "machines 8 → 12"),
    ("arrival_rates", [5.0, 8.0], [10.0, 16.0], "arrival rates per class [5, 8] → [10, 16] tasks per time unit"),
    ("deadlines", "loose", "tight", "deadlines loose → tight"),
    ("etc.machine_het", 0.9, 0.3, "machine heterogeneity 0.9 → 0.3 (×0.333)"),
    ("actual.cov", 0.1, 0.25, "spread of actual times, as a coefficient of variation 0.10 → 0.25 (×2.5)"),
    ("task_cov", None, 0.3, "task heterogeneity, as a coefficient of variation not set → 0.3"),
    ("event_timing", False, True, "mapping events timed off → on"),
    ("problems", [{"name": "a"}], [{"name": "b"}], "problems changed"),
    ("processors.count", 90, 94, "processors 90 → 94"),
])
def test_a_setting_is_said_in_words_and_in_the_unit_a_person_reads(key, old, new, said):
    assert setting_change(key, old, new) == said


def test_a_setting_of_a_model_without_words_is_still_no_raw_key():
    assert setting_change("my_model.speed_up", 1.5, 4.5) == "my model speed up 1.5 → 4.5 (×3)"


# --- heuristics ----------------------------------------------------------------------------------------------------

def test_every_built_in_heuristic_has_words_that_say_more_than_its_name():
    for model in model_names():
        for h in get_model(model).heuristics:
            words = heuristic_words(h.name, model)
            assert words and not _same_name(words, h.name), (model, h.name, words)
    assert all(heuristic_words(name, model) == words for (model, name), words in PLAIN_WORDS.items())
    assert heuristic_words("kpb (kbar=1)", "classes") == "each class's fastest machine"
    assert heuristic_words("kpb (k=10)", "etc") == "K-percent best; k=10"  # no words for it: as the label writes it
    assert heuristic_words("kpb", "classes") == "K-percent best" and heuristic_words("mine", "etc") == ""


# --- every model's headline, and its what-ifs ----------------------------------------------------------------------

def _more_machines(s):
    spec = s.spec
    if s.model == "estimation":
        return s.replace(processors=dataclasses.replace(spec.processors, count=spec.processors.count + 4))
    return s.replace(**{"servers" if s.model == "timeshared" else "machines": (spec.servers if s.model == "timeshared"
                                                                                else spec.machines) + 4})


def _twice_the_rate(s):
    spec = s.spec
    if s.model == "etc":
        return s.replace(arrivals=dataclasses.replace(spec.arrivals, rate=2 * spec.arrivals.rate))
    if s.model == "classes":
        return s.replace(classes=dataclasses.replace(spec.classes, arrival_rates=tuple(2 * r for r in
                                                                                        spec.classes.arrival_rates)))
    return s.replace(mean_interarrival=spec.mean_interarrival / 2)  # the time-shared model


def _swap(s):
    first = next(h for h in s.heuristics if h.label != s.benchmark_label)
    labels = {label_parts(h.label)[0] for h in s.heuristics}
    other = next(h.name for h in get_model(s.model).heuristics if h.name not in labels and not h.reference)
    return s.replace(heuristics=[other if h is first else h for h in s.heuristics])


WHAT_IFS = {"etc": (_twice_the_rate, _more_machines, _swap), "classes": (_twice_the_rate, _swap),
            "timeshared": (_twice_the_rate, _more_machines), "estimation": (_more_machines,),
            "value": (_more_machines,)}
_RUNS: dict = {}


def _run(scenario):
    key = scenario.to_json()
    if key not in _RUNS:
        _RUNS[key] = simulate(scenario, jobs=1)
    return _RUNS[key]


def _base(model: str):
    return preset(get_model(model).default_preset).replace(trials=TRIALS)


def _first_mentions_named(lines: list[str], names: dict[str, str]) -> None:
    """Where the lines, read in order, first mention each label, its words are beside it."""
    text = "\n".join(lines)
    for label, words in names.items():
        if not words or _same_name(words, label_parts(label)[0]):
            continue
        base = label_parts(label)[0]
        longer = [o for o in names if o != label and o.startswith(label)]
        found = [m for m in re.finditer(r"(?<![\w-])" + re.escape(base) + r"(?![\w-])", text)
                 if not any(text.startswith(o, m.start()) for o in longer)
                 and not any(text.startswith(f"{label_parts(o)[0]} ({names[o]}", m.start()) for o in longer)
                 and (label == base or any(text.startswith(x, m.start()) for x in (label, f"{base} ({words}")))]
        if found:  # a label with parameters is said whole ("fz (beta=0.1)"), never the base "fz" of another label
            assert text[found[0].start():].startswith(base + f" ({words}"), (label, text)


def _no_doubled_parentheses(line: str) -> None:
    assert "((" not in line and ") (" not in line and "))" not in line, line


@pytest.mark.parametrize("model", sorted(WHAT_IFS))
def test_every_models_headline_leads_in_35_words_naming_each_heuristic_in_words(model):
    scenario = _base(model)
    found = scenario_verdicts(scenario, _run(scenario))
    said = headline(found)
    assert said.lead == found[0].text and 0 < word_count(said.lead) <= LEAD_WORDS, said.lead
    assert all(word_count(v.text) <= LEAD_WORDS for v in found), [v.text for v in found]
    lines = [said.lead, *said.rest, *said.others]
    for line in lines:
        _no_doubled_parentheses(line)
    names = {h.label: heuristic_words(h.label, model) for h in scenario.heuristics}
    _first_mentions_named(lines, names)
    for v in found:  # each metric's sentences name its heuristics anew
        _first_mentions_named(v.lines, names)
    word = get_model(model).trial_word
    so_far = progress_lead(found, 2, scenario.trials, word)
    assert so_far.startswith(f"So far, 2 of {scenario.trials} {word}s: ") and word_count(so_far) <= LEAD_WORDS
    clear = found[0].separated and not found[0].carried_in  # a lead all in one part is never "already clear"
    still = "still open: " in so_far or "still too close to call" in so_far
    assert ("already clear after 2 " in so_far) == clear and still != found[0].separated
    _no_doubled_parentheses(so_far)
    _first_mentions_named([so_far], names)


@pytest.mark.parametrize("model, what_if", [(m, w) for m, ws in sorted(WHAT_IFS.items()) for w in ws],
                         ids=lambda x: x.__name__.strip("_") if callable(x) else x)
def test_every_what_if_line_leads_in_35_words_without_a_raw_key(model, what_if):
    base = _base(model)
    after = what_if(base)
    cmp = compare_runs(base, _run(base), after, _run(after))
    lead, rest = cmp.change_parts()
    # room before it for whom it is against ("Against run #1, the baseline: "), the two within LEAD_WORDS
    assert word_count(lead) <= CHANGE_LEAD_WORDS < LEAD_WORDS and cmp.change_line() == " ".join([lead, *rest]), lead
    assert "paired" not in lead and "Welch" not in lead and "[" not in lead, lead  # said below it, in words
    for line in (lead, *rest, *run_changes(base, after)):
        _no_doubled_parentheses(line)
        assert not any(key in line for key in RAW_KEY.findall(line) if key in SETTINGS or key in _keys(base)), line
    metric, change = cmp.leading()
    below = " ".join(rest)
    if interval_words(change, metric):  # nothing the lead said before is lost: it is below the lead
        assert f"{interval_words(change, metric)}, compared " in below, below
    if lead_changes(base, after) != list(cmp.differences):
        assert f"What differs: {'; '.join(cmp.differences)}." in below, below
    if metric.name != cmp.headline.name:  # another metric than the model's leads: the headline's said after it
        head = re.escape(metric_words(cmp.headline))
        # in the lead where it fits, else below it
        assert re.search(rf"\)(, though {head} is|, with no real change in {head}|; {head}: no real change)", lead) \
            or re.search(
            rf"(Also a real change: {head} |No real change in {head}\.)", below), (lead, below)
    if cmp.workload and any(c.separated and (c.change > 0) == (m.better == "lower")
                            for m in cmp.charted().values() for c in cmp.changes
                            if c.metric == m.name and (c.before_label, c.after_label) ==
                            (change.before_label, change.after_label)):
        # a harder workload: the line leads with what got worse for real; where the what-if's heuristic cannot keep
        # up, with that, in words (its queue's growth measures the run's length, no change's size)
        piled = change.after_label in cmp.overloaded[1] and change.before_label not in cmp.overloaded[0]
        assert ("cannot keep up" in lead and "pile up" in lead and "for the worse" not in lead) if \
            piled else ("for the worse" in lead or "clearly worse" in lead), lead
    elif cmp.workload and "for the better" in lead:  # in the lead where it fits, else first below it
        assert "not like for like" in lead or (any("is not like for like." in r for r in rest[:2]) and word_count(
            lead) + len("; not like for like: the work differs".split()) > CHANGE_LEAD_WORDS), (lead, rest)


def test_twice_the_arrival_rate_leads_with_the_mean_flow_time_that_got_worse():
    """The demo's what-if: the makespan looks better as the load doubles; the line leads with what got worse and says
    the better makespan is not like for like."""
    base = _base("etc")
    after = _twice_the_rate(base)
    cmp = compare_runs(base, _run(base), after, _run(after))
    lead, rest = cmp.change_parts()
    assert re.match(r"twice the arrival rate: mean flow time of sufferage[^:]* [\d.]+ → [\d.]+ (hours|days) \([\d.]+% "
                    r"longer: (a real change, for the worse|clearly worse)\)", lead), lead  # makespan's: after it
    assert rest[0] == "What differs: arrival rate 2.3 → 4.6 tasks an hour (×2)."
    makespan = cmp.subject()
    if makespan.separated and makespan.change < 0:
        assert "The work itself differs (arrival rate), so the better makespan is not like for like." in rest


def test_half_the_arrival_rate_says_the_longer_makespan_comes_with_arrivals_over_twice_the_time():
    """The same tasks arriving over twice the time make a longer makespan: the line says why, not only "for the
    worse" (a tryout read the heuristics as doing worse)."""
    base = _base("etc")
    after = base.replace(arrivals=dataclasses.replace(base.spec.arrivals, rate=base.spec.arrivals.rate / 2))
    cmp = compare_runs(base, _run(base), after, _run(after))
    lead, _ = cmp.change_parts()
    metric, change = cmp.leading()
    assert metric.name == "makespan" and change.separated and change.change > 0, lead
    assert re.search(r"makespan of \w[\w-]* [\d.]+ → [\d.]+ (hours|days) \([^)]*\), (as (the same )?tasks arrive|"
                     r"with arrivals) over twice the time", lead), lead


# --- the runs table ------------------------------------------------------------------------------------------------

def test_the_runs_table_says_each_run_in_words_and_wraps_its_text(monkeypatch):
    """The session's runs: what differs and the winner in words (no raw key, no doubled parentheses), drawn as a table
    that wraps its text rather than cut it at the right, each cell shown as plain text."""
    pytest.importorskip("streamlit")
    from helpers import run_result

    import pages.history as history
    from pages.widgets import plain

    state, drawn = {}, []
    monkeypatch.setattr(history.st, "session_state", state)
    monkeypatch.setattr(history.st, "table", lambda data, **kw: drawn.append((data, kw)))
    base = preset("quickstart").replace(tasks=40, trials=2, name="my *lab*")
    history.keep(run_result(base))
    history.keep(run_result(_twice_the_rate(base)))
    table = history.history_table()
    assert table["from the run before"].tolist() == ["arrival rate 2.3 → 4.6 tasks an hour (×2)", "the first run"]
    assert history.history()[1].title == "#2 my *lab*: arrival rate 2.3 → 4.6 tasks an hour (×2)"
    for winner in table[history.WHO_LEADS]:  # on what it leads (a tryout read "winner: sufferage" as the pick)
        assert re.fullmatch(r"(no clear winner on makespan: best average [\w-]+|[\w-]+ on makespan,) at ([\d,.]+ s|"
                            r"[\d.]+ (hours|days) \([\d,.]+ s\))", winner), winner
    for cell in table.astype(str).to_numpy().ravel():
        _no_doubled_parentheses(cell)
        assert not RAW_KEY.search(cell), cell
    history.show_history_table()
    (shown, kw), = drawn
    assert kw == {"hide_index": True} and shown.equals(table.map(plain))  # st.table: wrapped, never cut
    assert "my \\*lab\\*" in shown["scenario"].tolist()  # a name's Markdown shown as typed


def test_a_docs_page_cited_by_its_path_is_named_in_words():
    from hcsched.formatting import docs_in_words
    assert (docs_in_words("as read (docs/models/etc.md, 'How the model is read').")
            == "as read (the etc model's page of the documentation, 'How the model is read').")
    assert (docs_in_words("the sweep (docs/sweeps-and-statistics.md, 'Sweeps')")
            == "the sweep (the documentation's page 'Sweeps and statistics', 'Sweeps')")
    assert docs_in_words("no page here: docs are good") == "no page here: docs are good"


def test_quick_what_ifs_and_a_rate_set_by_several_gaps_said_as_one_change():
    """Results' one-click what-ifs change what their words say, each model's way; the value model's arrival rate,
    set by three mean gaps, is said as one change when all three move by one factor (not "mean gap between arrivals
    at start-up 3.5 → 1.8 s (×0.5) and 2 more changes")."""
    from hcsched.compare import quick_what_ifs, what_changed
    value = preset("kim-loose-high-heavy")
    made = dict(quick_what_ifs(value))
    assert list(made) == ["Twice the machines", "Twice the arrival rate", "Half the arrival rate"]
    assert what_changed(value, made["Twice the machines"]) == ["machines 8 → 16"]
    assert what_changed(value, made["Twice the arrival rate"]) == [
        "arrival rate ×2 (every mean gap between arrivals ×0.5)"]
    faster = made["Twice the arrival rate"].spec
    assert (faster.gap, faster.burst_gap, faster.startup_gap) == (7.0, 3.5, 1.75)
    assert (made["Twice the arrival rate"].trials, made["Twice the arrival rate"].seed) == (value.trials, value.seed)
    one_gap = value.replace(gap=7.0)  # one of the three alone: said as it is
    assert what_changed(value, one_gap) == ["mean gap between arrivals 14 → 7 s"]
    quick = preset("quickstart")
    assert [w for w, _ in quick_what_ifs(quick)] == ["Twice the machines", "Twice the arrival rate",
                                                      "Half the arrival rate"]
    assert what_changed(quick, dict(quick_what_ifs(quick))["Twice the arrival rate"]) == [
        "arrival rate 2.3 → 4.6 tasks an hour (×2)"]
    assert [w for w, _ in quick_what_ifs(preset("page-system-a"))] == ["Twice the processors"]
