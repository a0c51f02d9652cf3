"""What-if lines that say why a headline number moved (hcsched.compare): a share of a yardstick the what-if changed
says which of the two moved it (Kim et al. section 5: value as a percentage of the upper bound), and a makespan made
shorter by faster arrivals says so; the lines of other what-ifs stay as they were."""

from __future__ import annotations

import re

import pandas as pd
from test_compare_whatif_lines import _stretched, value_swap

from hcsched import preset
from hcsched.compare import LINE_WORDS, compare_runs, quick_what_ifs, share_of
from hcsched.registry import get_model
from hcsched.verdict import word_count


def _earned(scenario, means: dict, bound: float, spread: float = 0.0, wobble: float = 0.0,
            early: float | None = None) -> pd.DataFrame:
    """Hand-made value results whose value in % of the upper bound is 100 V / UB in every row: each heuristic's
    share by trial (max-max's a little apart from trial to trial; ``wobble``: every one's), the upper bound
    ``bound`` growing by trial (``spread``: moved a little either way, as another draw of the same tasks moves it);
    ``early``: the value of the tasks that arrive before the window opens, about the same in every row."""
    rows = []
    for t in range(8):
        ub = bound + 40.0 * t + spread * ((t % 3) - 1)
        for h in scenario.heuristics:
            pct = means[h.label] + 0.1 * (t % 3) + 0.05 * (t % 2) * (h.label == "max-max") + wobble * ((3 * t) % 5)
            rows.append({"trial": t, "heuristic": h.label, "value": pct * ub / 100, "upper_bound": ub,
                         "value_pct_ub": pct, **({} if early is None else {"value_early": early + 3.0 * (t % 3)})})
    return pd.DataFrame(rows)


def _kim(machines_means: dict, bound_after: float, spread: float = 0.5, wobble: float = 0.0,
         early: tuple[float, float] | None = None):
    kim = preset("kim-loose-high-heavy")
    before = kim.replace(heuristics=tuple(h for h in kim.heuristics if h.label in ("max-max", "max-min", "min-min")),
                         trials=8)
    words, after = quick_what_ifs(before)[0]
    assert words == "Twice the machines"
    a, b = early or (None, None)
    return compare_runs(before, _earned(before, {"max-min": 91.3, "max-max": 89.0, "min-min": 88.0}, 9270.0,
                                        early=a),
                        after, _earned(after, machines_means, bound_after, spread, wobble, early=b))


def test_a_share_that_falls_with_twice_the_machines_says_the_value_itself_fell_and_the_bound_stayed():
    """"twice the machines: the best value moves from max-min 91.3% to max-max 87.5% (about 3.8 points lower: a real
    change, for the worse)" read as twice the machines making things worse, with no why. The value is a share of
    the upper bound, which the machines enter: the line says which of the two moved it (here the value earned
    itself: every task meets its deadline either way, and the start-up tasks, run at once, finish before the
    window that counts opens), and the winner below."""
    cmp = _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0)
    assert cmp.shares == (("value_pct_ub", "value", "upper_bound"),)
    line = cmp.change_summary()
    assert line == ("twice the machines: the best value moves from 91.4% (max-min) to 87.6% (max-max), clearly worse, "
                    "as the value itself falls while the upper bound stays.\n\nMax-max (most worth per second "
                    "of work first) now wins.\n\n\nMax-min: latest-finishing task first."), line
    # one colon, and no second number beside the share's own ("falls 4.1%" beside a 3.8-point fall read as a clash)
    assert word_count(f"Against run #1, {cmp.change_lead()}") <= LINE_WORDS
    said = cmp.change_line()  # both in full below
    assert "Value V of max-min 8,600 → max-max 8,244, -4.1%; 95% interval: 4.1–4.2% lower" in said, said
    assert "Upper bound UB of max-min 9,410 → max-max 9,410, -0.00066%; 95% interval: 0.0044% lower to 0.003% " \
           "higher" in said, said


def test_the_part_that_carries_the_fall_is_said_below_the_lead_with_why_it_can_fall_alone():
    """Why twice the machines earn less in Kim et al.'s system: the start-up tasks, run at once, finish before the
    window [B, E] opens, and work before B earns nothing (section 2.2.3); the later tasks earn about the same. The
    value model's part metric (value of the tasks that arrive before B) carries the fall: the lead says where the
    fall is and why it can fall alone, in the metric's own words (a manager read "twice the machines ... clearly
    worse" as more machines hurting, the cause a paragraph below), the line below it the winner (a tryout found it at
    the end of that paragraph), then the figures."""
    cmp = _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0, early=(400.0, 30.0))
    line = cmp.change_summary()
    # the rest's values in the lead (a manager read "falls 3.7 points, for real" as more machines hurting, where
    # the value that counts barely moves), why the part moves below it, once
    assert line == ("twice the machines: the best value barely moves without start-up tasks (87.1% → 87.3%); its "
                    "3.8-point fall is all in them; max-max now wins.\n\nThe best value falls from 91.4% (max-min) to "
                    "87.6% (max-max) only through start-up tasks, max-min 4.3% → max-max 0.35% of the upper bound: "
                    "less loaded, the machines now finish them before scoring starts. Start-up tasks: sent in "
                    "fast to fill the machines before scoring starts; only their work after it starts counts, so one "
                    "finished before then earns nothing.\n\n\nMax-max: most worth per second of work first; max-min: "
                    "latest-finishing task first."), line  # the bars' fall said, and why more machines make it fall
    # with where it is ("The best value: max-min 91.4% → max-max 87.6%" alone read as more machines hurting)
    assert word_count(f"Against run #1, {cmp.change_lead()}") <= LINE_WORDS
    # the rest said too: more machines leave the value that counts as it was
    # the part in the share's own unit, of the same yardstick: "403 → 33 a trial" said no scale
    assert max(map(word_count, line.split("\n\n")[1].split(". "))) <= 35
    assert "Value of start-up tasks of max-min 403 → max-max 33, -92%" in \
        cmp.change_line()


def test_a_part_that_carries_little_of_the_fall_is_not_said():
    """A part that moved for real but carries under three quarters of the whole's move is no why."""
    cmp = _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0, early=(400.0, 250.0))
    line = cmp.change_summary()
    assert line.endswith("the upper bound stays.\n\nMax-max (most worth per second of work first) now wins."
                         "\n\n\nMax-min: latest-finishing task first."), line
    assert "arrive before the window" not in cmp.change_line()


def test_a_share_that_falls_because_its_yardstick_grew_says_so_first():
    """Where the yardstick grows more than the value earned, the line says the bound grew first: the share falls
    with more value earned."""
    cmp = _kim({"max-min": 80.0, "max-max": 79.0, "min-min": 78.0}, 11_124.0, spread=0.0, wobble=0.1)
    lead = cmp.change_lead()
    assert lead == ("twice the machines: value of max-min 91.4% → 80.3% (clearly worse), as the upper bound rises 20% "
                    "and the value itself rises 5.1%."), lead
    assert word_count(f"Against run #1, {lead}") <= LINE_WORDS
    assert cmp.change_summary().endswith("\n\nThe winner stays max-min (latest-finishing task first), now 1.0 points "
                                          "above max-max (most worth per second of work first), against 2.3 points "
                                          "above max-max before."), cmp.change_summary()  # below, for room; how its
    # lead moved, where it moved much (a manager asked what a winner that stays keeps of its lead)


def test_a_share_of_the_same_yardstick_says_no_why():
    """A swap runs the very same tasks: the upper bound is the same in every trial, so the share moves as the value
    does and the line stays as it was."""
    cmp = value_swap()
    assert cmp.shares and cmp.share_why(cmp.headline, cmp.subject()) == ""
    assert "itself" not in cmp.change_line() and "Upper bound UB" not in cmp.change_line()


def test_only_a_column_over_a_per_trial_yardstick_is_a_share():
    """The etc model's headline metrics are no share of a per-trial yardstick: its lines say no why of one."""
    base = preset("quickstart").replace(tasks=100, trials=8)
    results = _stretched(base, 535_000.0, 8.763)
    metrics = list(get_model("etc").table_metrics())
    assert [m.name for m in metrics if share_of(m, metrics, results, results)] == []


def _twice_the_rate(base):
    return base.replace(arrivals=type(base.arrivals)(process=base.arrivals.process, rate=2 * base.arrivals.rate))


def test_a_makespan_shorter_from_faster_arrivals_says_why():
    """"twice the arrival rate: the worst task's slowdown of sufferage 8.8 → 88 times its run time alone (clearly
    worse), though makespan is 38% shorter." read as if the schedule had shortened the makespan: the same tasks
    arrive in half the time. The line says so, within 28 words with whom it is against."""
    base = preset("quickstart").replace(tasks=100, trials=8)
    machines = base.replace(machines=2 * base.machines)
    fast = _twice_the_rate(machines)
    cmp = compare_runs(machines, _stretched(machines, 535_000.0, 8.763), fast, _stretched(fast, 332_000.0, 88.38))
    assert cmp.arrival_factor() == 2.0
    line = cmp.change_summary()
    assert line == ("twice the arrival rate: the worst task's slowdown of mct 8.8 → 88 times (clearly worse); "
                    "its 38% shorter makespan comes only from faster arrivals.\n\nThe winner on max stretch and "
                    "makespan stays mct (minimum completion time). Every heuristic's max stretch is 10 times as "
                    "high."), line
    assert word_count(f"Against run #2, {cmp.change_lead()}") <= LINE_WORDS
    assert "Also a real change: makespan 38% shorter" in cmp.change_line()  # its size below


def test_other_what_if_lines_are_unchanged():
    """Twice the machines (a makespan shorter, like for like) and a value swap say what they said before; half the
    arrival rate says its longer makespan comes as the same tasks arrive over twice the time (a tryout read "for the
    worse" alone as the heuristics doing worse)."""
    base = preset("quickstart").replace(tasks=100, trials=8)
    more = base.replace(machines=2 * base.machines)
    cmp = compare_runs(base, _stretched(base, 535_000.0, 8.763), more, _stretched(more, 350_000.0, 6.0))
    assert cmp.change_summary() == ("twice the machines: makespan of mct (minimum completion time) 6.2 → 4.1 days "
                                    "(35% shorter in every trial); the winner stays mct.\n\nEvery heuristic's "
                                    "makespan is 35% shorter."), cmp.change_summary()
    slow = base.replace(arrivals=type(base.arrivals)(process=base.arrivals.process, rate=base.arrivals.rate / 2))
    cmp = compare_runs(base, _stretched(base, 535_000.0, 8.763), slow, _stretched(slow, 800_000.0, 4.0))
    assert cmp.change_summary() == ("half the arrival rate: makespan of mct 6.2 → 9.3 days (50% longer in every "
                                    "trial), as the same tasks arrive over twice the time.\n\nBut every heuristic's "
                                    "max stretch is 54% lower. The winner stays mct (minimum completion time). Every "
                                    "heuristic's makespan is 50% longer."), cmp.change_summary()  # the other side first


def test_a_new_winner_by_under_one_percent_is_said_so_below_the_lead():
    """"Max-max now wins." stood above a lead that said "0.04 points above slack-sufferage: real, but under 1% of its
    value": a new winner by a hair is said so where the line names it."""
    cmp = _kim({"max-min": 87.45, "max-max": 87.5, "min-min": 85.0}, 9270.0)
    assert cmp.winners[1].label == "max-max" and cmp.winners[1].tiny
    assert cmp.winner_words(short=True) == "max-max now wins, but by only 0.07 points"  # its size, as its lead says
    # it: "under 1% of its value" read as close to 1% for a gap twenty times smaller
    assert not _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0).winners[1].tiny


def test_every_heuristic_the_box_mentions_is_named_in_words_once():
    """A lead with no room says labels bare ("from 91.4% (max-min) to 87.6% (max-max)"): the box names each in words
    on a line in view, once, never twice, and a lead sentence stays within 35 words."""
    from test_compare_whatif_lines import _twice_the_rate_stretched

    from hcsched.verdict import LEAD_WORDS, named_in, sentences

    cases = [value_swap(), _twice_the_rate_stretched(),
             _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0),
             _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0, early=(400.0, 30.0)),
             _kim({"max-min": 80.0, "max-max": 79.0, "min-min": 78.0}, 11_124.0, spread=0.0, wobble=0.1)]
    for cmp in cases:
        box, names = cmp.change_summary(), cmp._names()
        mentioned = [label for label in names if re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", box, re.I)]
        assert mentioned, box
        for label in mentioned:
            words = names[label]
            assert label in named_in(box.lower(), names) or f"{label}: {words}" in box.lower(), (label, box)
            assert box.lower().count(words.lower()) == 1, (label, box)
        assert max(word_count(s) for s in sentences(box)) <= LEAD_WORDS, box


def test_the_comparison_chart_of_a_share_near_90_percent_starts_its_axis_where_the_value_bars_do():
    """The value what-if's before/after panel started at 0, so 87-91% bars looked the same; Results starts at 70%."""
    from hcsched.compare_charts import change_chart

    cmp = _kim({"max-min": 86.0, "max-max": 87.5, "min-min": 85.0}, 9270.0)
    fig = change_chart(cmp, cmp.headline)
    assert fig.layout.xaxis.range[0] == 70.0 and "(the axis starts at 70%)" in fig.layout.xaxis.title.text


def test_a_fall_all_in_the_start_up_tasks_says_every_heuristics_rest_before_and_after():
    """Kim et al.'s twice the machines: max-min's fall is all in the start-up tasks, and a
    tryout asked whether any heuristic gains once they are left out. Under the winner, every heuristic's rest (value
    less that part, in % of the same upper bound), the least and the greatest before and after."""
    cmp = _kim({"max-min": 87.5, "max-max": 87.45, "min-min": 87.4}, 9270.0, early=(400.0, 30.0))
    lead, below = cmp.summary_parts()
    assert lead.startswith("twice the machines: max-min's value barely moves without start-up tasks (87.1% → "
                           "87.2%)"), lead
    said = " ".join(below)
    # hand-computed: before, each heuristic's share less 403/9410 = 4.3 points (83.8, 84.8, 87.1); after, 87.1-87.2
    assert "Without start-up tasks, every heuristic's value is 83.8–87.1% before and " \
           "87.1–87.2% after." in said, said
    assert lead.endswith("; the winner stays max-min."), lead  # who wins first


def test_a_fall_all_in_the_start_up_tasks_where_every_heuristic_is_alike_on_the_rest_is_said_of_all():
    """Kim et al.'s default with twice the machines: every heuristic earns about 87% without the start-up tasks, before
    and after; a tryout read "max-min's ... 3.9-point fall is all in them" as more machines hurting. The lead says
    every heuristic's rest, before and after; the bars' fall is said below it, after who wins."""
    kim = preset("kim-loose-high-heavy")
    before = kim.replace(heuristics=tuple(h for h in kim.heuristics if h.label in ("max-max", "max-min", "min-min")),
                         trials=8)
    words, after = quick_what_ifs(before)[0]
    cmp = compare_runs(before, _earned(before, {"max-min": 91.3, "max-max": 91.2, "min-min": 91.25}, 9270.0,
                                       early=400.0),
                       after, _earned(after, {"max-min": 87.4, "max-max": 87.45, "min-min": 87.4}, 9270.0, 0.5,
                                      early=30.0))
    lead, below = cmp.summary_parts()
    # hand-computed: before, 91.2-91.3 + 0.09 (0.1 x 7 / 8) less 403 / 9410 = 4.3 points: 87.0-87.1; after, less
    # 33 / 9410 = 0.35 points: 87.1-87.2
    assert lead == ("twice the machines: every heuristic's value barely moves without start-up tasks (87.0–87.1% → "
                    "87.1–87.2%); the winner changes from max-min to max-max."), lead
    assert "itself" not in lead  # never "max-min itself 3.9 points lower" beside it: the bars' fall is below
    assert not any("every heuristic's value is" in x for x in below), below  # not said twice
    assert "only through start-up tasks, max-min 4.3% → max-max 0.35% of the upper bound: less loaded, the machines " \
        "now finish them before scoring starts. Start-up tasks: sent in fast" in " ".join(below), below
    assert word_count(f"Against run #1, {lead}") <= LINE_WORDS


def _kim_half_rate(early_after: float):
    """Kim et al.'s default, three heuristics, against half the arrival rate: the upper bound halves with the tasks,
    the value with it, and max-min's start-up tasks earn ``early_after`` instead of 400 a trial."""
    kim = preset("kim-loose-high-heavy")
    before = kim.replace(heuristics=tuple(h for h in kim.heuristics if h.label in ("max-max", "max-min", "min-min")),
                         trials=8)
    words, after = quick_what_ifs(before)[2]
    assert words == "Half the arrival rate"
    means = {"max-min": 91.3, "max-max": 89.0, "min-min": 88.9}
    return compare_runs(before, _earned(before, means, 9270.0, early=400.0), after,
                        _earned(after, {"max-min": 88.5, "max-max": 88.1, "min-min": 88.0}, 4635.0, 0.5,
                                early=early_after))


def test_a_share_that_falls_with_its_yardstick_halved_is_said_all_in_the_part_that_carries_it():
    """Half the arrival rate halves Kim et al.'s upper bound and the value alike; max-min's share still falls about 3
    points, read as "(clearly worse), as the value itself falls 52% and the upper bound falls 50%": no why. The part
    is judged by its own share of the bound (400 / 9270 = 4.3 points before, 23 / 4635 = 0.5 after: 3.8 points
    against the share's 2.8), so the line says the rest barely moves and why the part fell: the machines, less
    loaded, finish the start-up tasks before scoring starts (section 2.2.3: work before B earns nothing)."""
    cmp = _kim_half_rate(23.0)
    lead, below = cmp.summary_parts()
    assert "barely moves without start-up tasks" in lead, lead
    assert "upper bound falls" not in lead, lead
    assert any("only through start-up tasks" in x and ": less loaded, the machines now finish them before scoring "
               "starts." in x for x in below), below


def test_the_part_that_carries_a_fall_is_not_said_where_it_moves_little_of_the_share():
    """Where the start-up tasks' share of the bound barely moves (4.3 → 4.3 points), the fall is the rest's: no "all
    in start-up tasks", and the two moves said as they are."""
    cmp = _kim_half_rate(200.0)
    lead, below = cmp.summary_parts()
    assert "start-up" not in lead + " ".join(below), (lead, below)
    assert "as the value itself falls" in lead and "the upper bound falls" in lead, lead


def test_only_more_machines_or_slower_arrivals_make_the_load_lighter():
    """The cause "less loaded, the machines now finish them before scoring starts" is said only of what-ifs that
    lighten the load: twice the machines, half the arrival rate; never of twice the arrival rate or a swap."""
    kim = preset("kim-loose-high-heavy")
    ifs = dict(quick_what_ifs(kim))
    empty = pd.DataFrame({"trial": [], "heuristic": []})
    lighter = {words: compare_runs(kim, empty, s, empty)._lighter() for words, s in ifs.items()}
    assert lighter == {"Twice the machines": True, "Twice the arrival rate": False, "Half the arrival rate": True}


def test_a_new_winner_under_a_lead_on_the_best_value_is_said_with_how_far_the_old_one_fell():
    """Kim et al.'s twice the arrival rate: "the best value moves from 91.3% (max-min) to 90.8% (...), about 0.5
    points lower: real, but tiny" and nothing under it, while max-min itself fell 11 points: who wins now, and the
    old winner's own fall, said below (value and bound double alike, so no share moved for a why)."""
    kim = preset("kim-loose-high-heavy")
    before = kim.replace(heuristics=tuple(h for h in kim.heuristics if h.label in ("max-max", "max-min", "min-min")),
                         trials=8)
    words, after = quick_what_ifs(before)[1]
    assert words == "Twice the arrival rate"
    cmp = compare_runs(before, _earned(before, {"max-min": 91.3, "max-max": 89.0, "min-min": 88.0}, 9270.0), after,
                       _earned(after, {"max-min": 79.8, "max-max": 90.8, "min-min": 88.0}, 18540.0))
    lead, below = cmp.summary_parts()
    assert lead.startswith("twice the arrival rate: the best value moves from 91.4% (max-min) to 90.9%"), lead
    assert below[:2] == ["Max-max now wins.",
                         "Max-min, the old winner, is itself 12 points lower: 91.4% → 79.9%."], below  # 11.5
