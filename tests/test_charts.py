"""Chart builders: colours that follow the heuristic, units, empty panels that say why, Gantt size, opening view and
controls; the exported CSVs name their columns as they are."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from hcsched import get_model, model_names, preset, trial_schedules
from hcsched.charts import (
    GANTT_BARS,
    GANTT_BOTTOM,
    GANTT_GAP,
    GANTT_HEIGHT,
    GANTT_TOP,
    LANE_PX,
    MACHINES,
    OVERVIEW_HEIGHT,
    OVERVIEW_LABEL_PX,
    PALETTE,
    ROW_BARS,
    ROW_PX,
    VALUE_CHIP,
    GanttRows,
    band_widths,
    detail_height,
    gantt,
    gantt_busiest,
    gantt_busy_start,
    gantt_default_window,
    gantt_defaults,
    gantt_frames,
    gantt_height,
    gantt_highlight,
    gantt_highlight_text,
    gantt_machines,
    gantt_rows_px,
    gantt_start,
    gantt_unit,
    grid_columns,
    heuristic_colors,
    lanes,
    metric_bars,
    slider_times,
    window_text,
)
from hcsched.metrics import Schedule
from hcsched.scenario import HeuristicSpec


def test_a_heuristic_keeps_its_colour_across_runs():
    a = heuristic_colors(["mct", "min-min"])
    b = heuristic_colors(["min-min", "sufferage", "kpb"])
    assert a["min-min"] == b["min-min"]
    specs = [HeuristicSpec.make("kpb"), HeuristicSpec.make("kpb", k=10), HeuristicSpec.make("min-min", "mine")]
    c = heuristic_colors(specs)
    assert c["kpb"] == b["kpb"] and c["mine"] == a["min-min"]  # a custom label keeps its heuristic's colour
    assert len(set(c.values())) == 3 and set(c.values()) <= set(PALETTE)  # copies get distinct colours


def test_two_runs_heuristics_together_keep_each_ones_colour_of_its_results_page():
    """A comparison colours the two runs' heuristics together; given twice, max-min was orange there and blue on both
    Results pages."""
    labels = ["max-max", "max-min", "min-min", "percent-best", "queueing-table", "relative-cost", "slack-sufferage",
              "switching", "tpsa", "ga"]
    assert heuristic_colors([*labels, *labels]) == heuristic_colors(labels)
    assert heuristic_colors(["a-custom", "max-min", "a-custom"]) == heuristic_colors(["a-custom", "max-min"])


def test_bars_have_units_formats_and_say_why_a_panel_is_empty():
    model = get_model("etc")
    bars = model.bar_metrics()
    summary = pd.DataFrame({"heuristic": ["a", "b"], "trials": [3, 3]})
    for m in bars:
        summary[m.name], summary[f"{m.name}_lower"], summary[f"{m.name}_upper"] = [1.0, 2.0], [0.5, 1.5], [1.5, 2.5]
    summary["max_stretch"] = summary["max_stretch_lower"] = summary["max_stretch_upper"] = np.nan
    fig = metric_bars(summary, bars)
    texts = [a.text for a in fig.layout.annotations]
    assert "Makespan (s)<br>" in texts[0] and "↓ lower is better" in texts[0] and "Mean flow time (s)<br>" in texts[2]
    assert "Makespan / lower bound<br>" in texts[5] and "↓ lower is better" in texts[5]
    assert "for context only" in next(t for t in texts if t.startswith("Utilisation"))
    assert any("no value in this run" in t for t in texts)
    assert fig.layout.xaxis5.tickformat == ".1~%"  # utilisation as a percentage, zeros trimmed


def test_gantt_controls_on_top_units_in_hover_and_a_bounded_size():
    sc = preset("quickstart").replace(trials=1)
    fig = gantt(trial_schedules(sc), time_unit="s")
    menu, slider = fig.layout.updatemenus[0], fig.layout.sliders[0]
    assert menu.y == 1 and menu.yanchor == "bottom" and slider.y == 1 and slider.yanchor == "bottom"
    assert "on machine %{y}" in fig.data[0].hovertemplate and " s<br>" in fig.data[0].hovertemplate
    assert set(fig.data[0].y) <= {f"m{j}" for j in range(8)}
    # the axis and the slider in days, as the lead says the makespan (a tryout read "6.2 days" above "740,000 s"); the
    # bars and the hover in seconds, as the CSV
    assert fig.layout.xaxis4.title.text == "time (days)" and fig.layout.sliders[0].currentvalue.suffix == " days"
    days = [float(t) for t in fig.layout.xaxis.ticktext]
    assert days == pytest.approx([v / 86400 for v in fig.layout.xaxis.tickvals]) and days[1] - days[0] in (1, 2)
    last = float(fig.layout.sliders[0].steps[-1].label)
    assert last == pytest.approx(float(fig.frames[-1].name) / 86400)
    big = {f"h{i}": Schedule(np.arange(300.0), np.arange(300) % 16, np.arange(300.0), np.arange(300.0) + 1,
                             np.ones(300),
                             np.ones(300), 16) for i in range(7)}
    fig = gantt(big)
    assert fig.layout.height < 2000  # 7 heuristics x 16 machines, was about 3,000 px
    assert gantt_frames(7 * 300) // 2 <= len(fig.frames) <= gantt_frames(7 * 300) < 60  # at round times


def test_fewer_frames_for_larger_charts():
    assert gantt_frames(800) == 60 and gantt_frames(100_000) == 12 and gantt_frames(3000) == 30


def _serial(n: int, machines: int, length: float) -> Schedule:
    """n tasks of ``length`` run back to back, round robin over the machines."""
    start = (np.arange(n) // machines) * length
    return Schedule(np.zeros(n), np.arange(n) % machines, start, start + length, np.full(n, length),
                    np.full(n, length), machines)


def test_the_default_window_opens_on_the_longest_queue_and_a_batch_where_it_starts():
    """The task-class model's Gantt opened on the first 5.27 of 20,000 time units, where the system starts empty."""
    start = np.arange(100.0)  # one machine, tasks of length 1 back to back, each run on arrival
    arrival = start.copy()
    arrival[60:70] = 55.0  # but for ten that arrived at 55 and waited: the queue is longest from 55
    queued = Schedule(arrival, np.zeros(100, np.int64), start, start + 1, np.ones(100), np.ones(100), 1)
    assert gantt_busy_start({"a": queued}, 5.0) == pytest.approx(55.0, abs=0.1)
    assert gantt_busy_start({"a": _serial(200, 4, 1.0)}, 5.0) == 0.0  # all arrive at 0: the queue only shrinks
    assert gantt_busy_start({"a": queued}, 100.0) == 0.0  # the whole trial: from where tasks start
    # never a window with more bars in a row than the one from where tasks start (5 here, on machine 0): ten short
    # tasks that arrived at 52 start on machine 1 one after another from 55, more than 5 in a row
    serial = np.arange(100.0)
    burst = 55.0 + np.arange(10) * 0.1
    both = Schedule(np.r_[serial, np.full(10, 52.0)], np.r_[np.zeros(100), np.ones(10)].astype(np.int64),
                    np.r_[serial, burst], np.r_[serial + 1, burst + 0.1], np.ones(110), np.ones(110), 2)
    for row_bars, most in ((40, 10), (5, 5)):
        low = gantt_busy_start({"a": both}, 5.0, row_bars=row_bars)
        assert ((burst >= low) & (burst < low + 5.0)).sum() == most, (row_bars, low)


def test_default_gantt_window_bounds_the_bars_in_all_even_beside_a_slow_heuristic():
    fast, slow = _serial(2000, 16, 1.0), _serial(2000, 1, 1.0)  # ends at 125 and at 2000
    end, length = gantt_default_window({"fast": fast, "slow": slow}, bars=400)
    assert end == 2000.0 and length == 23.0  # 17 tasks start per time unit: the 401st at 23
    fig = gantt({"fast": fast, "slow": slow}, window=(0.0, length))
    assert [len(t.x) for t in fig.data] == [368, 23]  # the fast panel holds more of its tasks
    assert gantt_default_window({"a": _serial(100, 4, 1.0), "b": _serial(100, 4, 1.0)}, bars=400) is None


def _per_row(fig) -> int:
    """The most bars in one machine row of any panel."""
    return max(max(np.unique(np.asarray(t.y), return_counts=True)[1]) for t in fig.data)


def test_default_window_keeps_every_row_readable_not_a_barcode():
    """The task-class model's trials are hundreds of thousands of short tasks on two machines: a window sized by bars
    in all showed 200 a row (28.5 of 20,000 time units); a row now holds at most ROW_BARS."""
    queue = {h: _serial(20_000, 2, 0.1) for h in ("mct", "kpb", "lpas")}
    end, length = gantt_default_window(queue)
    assert end == pytest.approx(1000.0) and length == pytest.approx(ROW_BARS * 0.1)
    fig = gantt(queue, window=(0.0, length))
    assert _per_row(fig) <= ROW_BARS and 30 <= len(fig.frames) <= 60  # frames at round times: fewer
    # the value model's 8 machines x 4 heuristics x ~160 tasks: the bars in all bind first (Play's pace)
    value = {h: _serial(1300, 8, 10.0) for h in ("a", "b", "c", "d")}
    end, length = gantt_default_window(value)
    fig = gantt(value, window=(0.0, length))
    assert sum(len(t.x) for t in fig.data) <= GANTT_BARS and _per_row(fig) <= ROW_BARS
    # the ETC quickstart (8 machines x 200 tasks, at most 40 a row) stays whole
    assert gantt_default_window({h: _serial(200, 8, 1.0) for h in "abcd"}) is None


def test_the_default_window_starts_where_the_tasks_shown_start_to_run():
    """The busy window starts at the first start of a task shown, not at 0: the ETC quickstart's first task starts at
    3,458 s. Its length counts the tasks from there; a chart of the whole trial starts there too."""
    s = _serial(2000, 16, 1.0)
    late = Schedule(s.arrival + 500, s.machine, s.start + 500, s.finish + 500, s.expected, s.actual, 16)
    assert gantt_start({"a": late}) == 500.0 and gantt_start({"a": late}, machines=[3]) == 500.0
    assert gantt_default_window({"a": late}, bars=400) == (625.0, 25.0)  # 16 tasks start per time unit from 500
    machines, window, _ = gantt_defaults({"a": late})
    assert machines is None and window[0] == 500.0
    whole = gantt({"a": _serial(40, 4, 1.0), "b": late}, machines=[0])
    assert whole.layout.xaxis.range[0] == 0.0  # a's first task starts at 0
    whole = gantt({"a": late})
    assert whole.layout.xaxis.range[0] == 500.0 and whole.frames[0].name == "500"  # a round time: its first frame


def test_default_window_counts_only_the_machines_shown():
    """90 processors of which the page shows 24 a panel: a window sized on all 90 showed about 4 bars a row."""
    wide = {h: _serial(900, 90, 1.0) for h in "abcd"}  # 10 tasks a processor, 3,600 in all
    assert gantt_default_window(wide) is not None
    assert gantt_default_window(wide, machines=range(24)) is None  # 960 bars of 24 rows: the whole trial


def test_rows_take_the_models_names_and_own_names():
    s = {"a": _serial(6, 3, 1.0), "b": _serial(6, 3, 1.0)}
    fig = gantt(s, rows=GanttRows("processor", "p"))
    assert list(fig.layout.yaxis.categoryarray) == ["p2", "p1", "p0"] and set(fig.data[0].y) == {"p0", "p1", "p2"}
    assert "on processor %{y}" in fig.data[0].hovertemplate
    fig = gantt(s, rows=GanttRows("processor", "p", names=("alpha", "beta", "gamma")), machines=[1, 2])
    assert list(fig.layout.yaxis2.categoryarray) == ["gamma", "beta"]
    assert MACHINES.name(3) == "m3" and GanttRows(names=("x",)).name(1) == "m1"
    from hcsched.models.estimation.charts import processor_rows

    rows = processor_rows(preset("page-system-a").spec)  # the estimation model's processors, as its files name them
    assert rows.word == "processor" and rows.name(3) == "p3" and not rows.lanes


def test_timeshared_servers_are_named_alike_in_every_chart():
    import pandas as pd

    from hcsched.models.timeshared.charts import SERVERS
    from hcsched.models.timeshared.charts import gantt as phases

    assert SERVERS.word == "server" and SERVERS.lanes
    s = {"a": _overlapping()}
    fig = gantt(s, rows=SERVERS)
    assert list(fig.layout.yaxis.ticktext) == ["s0", "s1"] and "on server %{hovertext}" in fig.data[0].hovertemplate
    frame = pd.DataFrame({"task": np.arange(4), "machine": s["a"].machine, "arrival": s["a"].start,
                          "input_end": s["a"].start, "compute_end": s["a"].finish, "finish": s["a"].finish})
    assert list(phases(frame).layout.yaxis.ticktext) == ["s0", "s1"]


def _overlapping() -> Schedule:
    """Four tasks on two time-shared servers: three at once on s0, one on s1."""
    start, finish = np.array([0.0, 1.0, 5.0, 0.0]), np.array([4.0, 6.0, 7.0, 1.0])
    machine = np.array([0, 0, 0, 1])
    return Schedule(start.copy(), machine, start, finish, finish - start, finish - start, 2)


def test_lanes_keep_tasks_that_share_a_server_apart():
    s = _overlapping()
    assert lanes(s.machine, s.start, s.finish).tolist() == [0, 1, 0, 0]  # task 2 reuses lane 0, free at 4
    assert band_widths(s).tolist() == [2, 1]
    fig = gantt({"a": s}, rows=SERVERS_LIKE)
    y = np.asarray(fig.data[0].y)
    assert y.tolist() == [0, 1, 0, 3]  # s0's lanes 0 and 1, a gap, s1's lane
    assert list(fig.layout.yaxis.tickvals) == [0.5, 3.0] and fig.data[0].width == 0.8
    assert list(fig.data[0].hovertext) == ["s0", "s0", "s0", "s1"]


SERVERS_LIKE = GanttRows("server", "s", lanes=True)


def test_machines_shown_by_default_are_as_many_as_fit_the_charts_height():
    """The default rows are the most that keep the chart within gantt_height at the smallest readable row; one more
    would make it taller. Where tasks share a row, each machine takes its lanes (and a gap) in every panel."""
    s = {h: _serial(400, 40, 1.0) for h in "abcd"}
    cap = gantt_machines(s)
    assert 0 < cap < 40
    assert gantt(s, machines=range(cap)).layout.height <= gantt_height(s) < \
        gantt(s, machines=range(cap + 1)).layout.height
    busy = {}
    for h in "ab":  # three tasks at once on every server: bands of 3 lanes
        b = _serial(400, 40, 1.0)
        busy[h] = Schedule(b.arrival, b.machine, b.start, b.start + 3.0, b.expected, b.actual, 40)
    cap = gantt_machines(busy, SERVERS_LIKE)
    assert 0 < cap < 40 and (band_widths(busy["a"])[:cap] == 3).all()
    assert gantt(busy, machines=range(cap), rows=SERVERS_LIKE).layout.height <= gantt_height(busy) < \
        gantt(busy, machines=range(cap + 1), rows=SERVERS_LIKE).layout.height
    assert gantt_machines(busy, SERVERS_LIKE, height=gantt_height(busy) + 400) > cap


def test_one_task_is_marked_in_every_panel_by_default_where_the_heuristics_differ_most():
    a, b = _serial(8, 2, 1.0), _serial(8, 2, 1.0)
    finish = b.finish.copy()
    finish[5] += 3.0  # task 5 ends 3 later under b
    b = Schedule(b.arrival, b.machine, b.start, finish, b.expected, b.actual, 2)
    assert gantt_highlight({"a": a, "b": b}) == 5
    assert gantt_highlight({"a": a, "b": b}, window=(0.0, 1.0)) in (0, 1)  # only tasks every panel shows
    fig = gantt({"a": a, "b": b}, highlight=5)
    for bar in fig.data:
        hit = list(np.asarray(bar.customdata)[:, 0]).index(5)
        assert hit == len(bar.x) - 1  # drawn last: no other bar covers its label
        shapes = np.asarray(bar.marker.pattern.shape)
        assert shapes[hit] == "x" and set(np.delete(shapes, hit)) == {""}
        assert bar.marker.line.width == 0  # no outline: one is drawn even at zero width, before the task starts
        assert set(bar.text) == {"", "task 5"}  # the figure opens on its last frame: task 5 has started
    assert "task 5" not in str(gantt({"a": a, "b": b}).data[0].text)  # none unless asked
    text = gantt_highlight_text({"a": a, "b": b}, 5, "s")
    assert text == "Task 5, hatched and labelled in every panel that shows it: a: m1, 2 to 3 s; b: m1, 2 to 6 s."
    text = gantt_highlight_text({"a": a, "b": b}, 5, "s", GanttRows("server", "s"), window=(0.0, 2.0))
    assert text.endswith("a: s1, 2 to 3 s (not shown); b: s1, 2 to 6 s (not shown).")
    days = {k: dataclasses.replace(x, start=x.start * 86400.0, finish=x.finish * 86400.0) for k, x in
            {"a": a, "b": b}.items()}  # a run of days: the times in the axis' unit, never "172,800 to 259,200 s"
    assert gantt_highlight_text(days, 5, "s") == ("Task 5, hatched and labelled in every panel that shows it: a: m1, "
                                                  "2 to 3 days; b: m1, 2 to 6 days.")


def _label_frames(fig, task: int) -> list[tuple[list[bool], list[bool]]]:
    """For each frame, each panel's (the marked task's bar has a width, its label is shown)."""
    out = []
    for frame in fig.frames:
        widths, labels = [], []
        for trace, data in zip(fig.data, frame.data, strict=True):
            hit = list(np.asarray(trace.customdata)[:, 0]).index(task)
            widths.append(bool(data.x[hit] > 0))
            labels.append(data.text is not None and data.text[hit] == f"task {task}")
        out.append((widths, labels))
    return out


def test_the_marked_tasks_label_comes_in_the_same_frame_as_its_bar():
    """In the animation a marked task's label appeared before its bar: it was in the figure from the start. It is now
    in exactly the frames where its bar has a width, the first frame included, and only on that bar."""
    a, b = _serial(40, 4, 1.0), _serial(40, 4, 2.0)  # task 21 starts at 5 under a, at 10 under b
    fig = gantt({"a": a, "b": b}, highlight=21)
    frames = _label_frames(fig, 21)
    assert all(widths == labels for widths, labels in frames)
    assert frames[0] == ([False, False], [False, False]) and frames[-1] == ([True, True], [True, True])
    assert [w for w, _ in frames].index([True, False]) < [w for w, _ in frames].index([True, True])  # a's first
    for frame in fig.frames:
        for data in frame.data:
            assert set(data.text) <= {"", "task 21"} and list(data.text).count("task 21") <= 1
    assert list(fig.data[0].text) == list(fig.frames[-1].data[0].text)  # the figure opens on the last frame


def test_the_marked_tasks_label_reads_on_black_bars_and_stays_beside_its_bar():
    """The manager could not read "task 78" on max-max's black bars (black text in a faint 3-px glow), and a bar
    ending at the window's end had its label cut by the chart's edge: the label is bold, in a white outline all round
    its letters (a white backing on any bar colour), after its bar, or inside its end when the bar ends at the edge."""
    a = _serial(40, 4, 1.0)  # task 21 runs from 5 to 6, task 39 from 9 to 10 (the window's end)
    colors = {"a": "#000000", "b": "#000000"}  # max-max's black
    middle = gantt({"a": a, "b": a}, colors, highlight=21)
    for bar in middle.data:
        font = bar.textfont
        assert font.color == "#000000" and font.weight == "bold"
        halo = [part.strip() for part in font.shadow.split(",")]
        offsets = {tuple(p.split()[:2]) for p in halo if p.endswith("0 #fff")}
        assert offsets == {(f"{x}px", f"{y}px") for x in (-1, 0, 1) for y in (-1, 0, 1) if x or y}  # all round
        assert bar.textposition == "outside" and bar.cliponaxis is False  # after its bar, on the bars that follow
    for bar in gantt({"a": a, "b": a}, colors, highlight=39).data:
        assert (bar.textposition, bar.insidetextanchor, bar.constraintext) == ("inside", "end", "none")
        assert list(bar.text).count("task 39") == 1  # still labelled, and only that bar


def test_play_redraws_only_the_bars_and_the_figure_is_byte_stable():
    s = {"a": _serial(40, 4, 1.0), "b": _serial(40, 4, 2.0)}
    fig = gantt(s, highlight=3)
    play = fig.layout.updatemenus[0].buttons[0].args[1]
    assert play["frame"]["redraw"] is False and play["fromcurrent"] is False
    assert all(step.args[1]["frame"]["redraw"] is False for step in fig.layout.sliders[0].steps)
    # frames: the widths only, and the marked task's label (its panel's texts)
    assert all(set(d.to_plotly_json()) == {"type", "x", "text"} for f in fig.frames for d in f.data)
    assert all(set(d.to_plotly_json()) == {"type", "x"} for f in gantt(s).frames for d in f.data)
    assert fig.to_json() == gantt(s, highlight=3).to_json()


GANTT_HEURISTICS = 4  # the Results page's default: the best few by the headline metric, with the benchmark


def _model_rows(name: str) -> GanttRows:
    """A model's Gantt rows on the Results page, for its default preset."""
    from pages.models import ui

    hook = getattr(ui(name), "gantt_rows", None)
    return hook(preset(get_model(name).default_preset)) if hook is not None else MACHINES


def _page_gantt(name: str):
    """A model's default preset's Gantt of trial 0 as the Results page first draws it: the best few heuristics of
    that trial by the headline metric with the benchmark, the model's rows, the machines, window and marked task of
    :func:`gantt_defaults`; with the schedules shown and the window."""
    pytest.importorskip("streamlit")
    from hcsched.experiment import run_trial, schedules_of, trial_seeds
    from hcsched.stats import best_few
    from hcsched.verdict import headline_metric

    model = get_model(name)
    sc = preset(model.default_preset).replace(trials=2)
    table, runs = run_trial(sc, 0, trial_seeds(sc.seed, sc.trials)[0], schedules=True)
    lead = headline_metric(model)
    summary = pd.DataFrame(table).groupby("heuristic", sort=False)[[lead.name]].mean().reset_index()
    schedules = schedules_of(sc, runs)
    shown = {h: schedules[h] for h in best_few(summary, lead.name, lead.better, sc.benchmark_label, GANTT_HEURISTICS)}
    rows = _model_rows(name)
    machines, window, marked = gantt_defaults(shown, rows)
    fig = gantt(shown, window=window, time_unit=model.time_unit, machines=machines, rows=rows, highlight=marked,
                height=GANTT_HEIGHT if machines is None else detail_height(rows))  # as the page draws it
    return fig, shown, machines, window, marked


@pytest.mark.parametrize("name", model_names())
def test_every_models_default_gantt_fits_a_900px_window_and_opens_on_its_busiest_stretch(name):
    """The default Gantt opened at the end of the run (its slider at 725,000 s in the ETC quickstart) and was 1,014 px
    tall; then on the busy window's first frame, where no bar has started (an empty chart until Play); then on the
    task-class model's first 5.27 of 20,000 time units, where the system starts empty. Now, in every model's default
    preset: at most GANTT_HEIGHT px with its controls; the window starts on the busiest stretch of the tasks shown
    (where they start to run when it shows the whole trial); the slider and the figure's data are at the window's last
    frame, its bars drawn; Play starts from the window's start; the marked task's label is in the frames where its bar
    has a width."""
    fig, shown, machines, window, marked = _page_gantt(name)
    assert fig.layout.height <= (gantt_height(shown) if machines is None else detail_height(_model_rows(name)))
    first = gantt_busy_start(shown, window[1] - window[0], machines) if window else gantt_start(shown, machines)
    start = window[0] if window else first
    assert start == pytest.approx(first) and fig.layout.xaxis.range[0] == pytest.approx(start)
    assert fig.layout.sliders[0].active == len(fig.layout.sliders[0].steps) - 1  # at the last frame (below)
    first, second = float(fig.frames[0].name), float(fig.frames[1].name)  # Play from the round time at or before it
    assert first <= start < second
    assert list(fig.layout.sliders[0].steps[-1].args[0]) == [fig.frames[-1].name]
    assert all(list(t.x) == list(f.x) for t, f in zip(fig.data, fig.frames[-1].data, strict=True))
    assert all(np.count_nonzero(np.asarray(t.x) > 0) > 0 for t in fig.data)  # bars on screen in every panel
    assert fig.layout.updatemenus[0].buttons[0].args[1]["fromcurrent"] is False  # Play: from the window's start
    if marked is not None:
        assert all(widths == labels for widths, labels in _label_frames(fig, marked))


def test_gantt_tells_back_to_back_tasks_apart_by_shade_not_by_a_border():
    fig = gantt({"a": _serial(8, 2, 1.0)}, colors={"a": "#1f77b4"})
    bar = fig.data[0]
    assert bar.marker.line.width == 0
    # machine 0 runs tasks 0, 2, 4, 6 back to back: full colour, lighter, full, lighter
    assert [bar.marker.color[i] for i in (0, 2, 4, 6)] == ["#1f77b4", "rgba(31,119,180,0.62)"] * 2


def test_bar_panels_sit_in_a_fixed_grid_with_no_panel_alone_on_a_row():
    assert [grid_columns(n) for n in range(1, 11)] == [1, 2, 3, 2, 3, 3, 4, 3, 3, 2]
    for n in range(2, 30):
        assert n % grid_columns(n) != 1


def test_bars_are_horizontal_and_name_twelve_heuristics_once_per_row_of_panels():
    model = get_model("etc")
    bars = model.bar_metrics()
    labels = [f"heuristic-{i}" for i in range(12)]
    summary = pd.DataFrame({"heuristic": labels, "trials": 3})
    for m in bars:
        summary[m.name] = summary[f"{m.name}_lower"] = summary[f"{m.name}_upper"] = 1.0
    fig = metric_bars(summary, bars)
    assert all(t.orientation == "h" and list(t.y) == labels for t in fig.data)  # names along y: never rotated
    cols = grid_columns(len(bars))
    shown = [fig.layout[f"yaxis{k if k > 1 else ''}"].showticklabels for k in range(1, len(bars) + 1)]
    assert [s is not False for s in shown] == [k % cols == 0 for k in range(len(bars))]  # once per row
    assert fig.layout.yaxis.autorange == "reversed"  # the scenario's first heuristic on top


def test_rows_of_bar_panels_keep_a_fixed_gap_in_pixels_for_few_heuristics_too():
    """With 3 heuristics the figure is short: a gap that is a share of its height left the first row's tick labels on
    the next row's titles (seen in the browser test)."""
    from hcsched.charts import ROW_GAP_PX

    bars = get_model("etc").bar_metrics()
    for n in (2, 3, 12):
        summary = pd.DataFrame({"heuristic": [f"h{i}" for i in range(n)], "trials": 3})
        for m in bars:
            summary[m.name] = summary[f"{m.name}_lower"] = summary[f"{m.name}_upper"] = 1.0
        fig = metric_bars(summary, bars)
        plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
        gap = fig.layout.yaxis.domain[0] - fig.layout[f"yaxis{grid_columns(len(bars)) + 1}"].domain[1]
        assert gap * plot_px >= ROW_GAP_PX - 1


# --- plain names, units on every axis, no SI prefix beside a unit ----------------------------------------------------


def test_a_heuristics_plain_title_comes_from_the_registry_scoped_by_the_labels_model():
    from hcsched.heuristics import heuristic_hovers, heuristic_title, label_parts, labels_model

    assert label_parts("kpb (kbar=1)") == ("kpb", {"kbar": "1"}) and label_parts("fz") == ("fz", {})
    assert heuristic_title("mct") == "Minimum completion time"
    assert heuristic_title("fa", "estimation") == "earliest estimated finish"  # not "FA: ..." after "fa: "
    kpb = heuristic_title("kpb (kbar=1)", "classes")
    assert kpb.startswith("K-percent best; kbar = 1: how many of its class's fastest machines") and "k-bar" in kpb
    assert heuristic_title("my own label") == ""
    # names are scoped by model: value's min-min is Kim et al.'s "Min-Min", found from the other labels beside it
    assert labels_model(["max-max", "min-min", "mine"]) == "value" and labels_model(["min-min"]) == "etc"
    assert heuristic_hovers(["max-max", "min-min"])["min-min"] == "min-min: Min-Min"
    assert heuristic_hovers(["mp-masse-decres-incr", "mine"]) == {
        "mp-masse-decres-incr": "mp-masse-decres-incr: Min perturbation, mass decreasing (running)", "mine": "mine"}


def _summary(labels, metrics):
    summary = pd.DataFrame({"heuristic": labels, "trials": 3})
    for m in metrics:
        summary[m.name] = summary[f"{m.name}_lower"] = summary[f"{m.name}_upper"] = 1.0
    return summary


def test_bars_and_distributions_name_each_heuristic_in_plain_words_on_hover_and_give_each_axis_its_unit():
    from hcsched.charts import axis_title, axis_unit, trial_distribution

    model = get_model("estimation")
    bars = model.bar_metrics()
    labels = ["fa", "fz (beta=0.1)", "lz"]
    fig = metric_bars(_summary(labels, bars), bars)
    for trace in fig.data:
        assert list(trace.hovertext) == ["fa: earliest estimated finish",
                                         "fz (beta=0.1): largest estimate error first, error at a tenth of its usual "
                                         "weight, β = 0.1", "lz: load balance, largest estimate error first"]
        assert "%{hovertext}" in trace.hovertemplate and "interval [" not in trace.hovertemplate  # words, no brackets
    units = [fig.layout[f"xaxis{k if k > 1 else ''}"].title.text for k in range(1, len(bars) + 1)]
    assert units == ["seconds", "%", "%"]  # efficiency has its unit; the error, a fraction, is shown in %
    assert fig.layout.yaxis.title.text == "heuristic"
    efficiency = next(m for m in bars if m.name == "efficiency")
    assert axis_title(efficiency) == "Efficiency (%)" and axis_unit(efficiency) == "%"
    etc = {m.name: m for m in get_model("etc").bar_metrics()}
    assert axis_unit(etc["normalized_makespan"]).startswith("ratio")
    assert axis_unit(etc["max_stretch"]).startswith("ratio")
    results = pd.DataFrame({"heuristic": labels * 2, "trial": [0, 0, 0, 1, 1, 1], "efficiency": [50.0] * 6})
    box = trial_distribution(results, efficiency)
    assert box.layout.xaxis.title.text == "Efficiency (%), higher is better" and box.layout.yaxis.title.text
    assert box.data[2].hovertemplate.startswith("lz: load balance, largest estimate error first<br>")


def test_no_axis_writes_an_si_prefix_beside_its_unit():
    """Plotly's default ticks write 535,000 as "535k", which beside "time (s)" reads as kiloseconds."""
    from hcsched.charts import _short

    assert [_short(x) for x in (61_400, 1_234_567, 999, 0.25)] == ["61,400", "1,230,000", "999", "0.25"]
    sc = preset("quickstart").replace(trials=1, tasks=40)
    schedules = trial_schedules(sc, 0)
    fig = gantt(schedules)
    assert all(fig.layout[a].exponentformat == "none" for a in fig.layout if a.startswith(("xaxis", "yaxis")))
    assert not any(step.label[-1:] in "kMG" for step in fig.layout.sliders[0].steps)
    assert all("by mct: Minimum completion time" in t.hovertemplate for t in fig.data[:1])
    assert [fig.layout[f"yaxis{k if k > 1 else ''}"].title.text for k in range(1, len(schedules) + 1)] == \
        ["machine"] * len(schedules)
    text = gantt_highlight_text(schedules, 3)
    assert not any(f"{d}k " in text for d in "0123456789")


def test_curves_over_time_name_the_heuristic_on_hover_and_a_log_axis_says_so():
    from hcsched.curve_charts import Curve, band_chart

    t = np.linspace(1, 10, 5)
    curve = Curve("lz", t, t / 10, t / 20, t / 5)
    fig = band_chart([curve], "Error", "estimation error (%)", log=True, percent=True)
    line = next(d for d in fig.data if d.mode == "lines" and d.showlegend is not False and d.fill != "toself")
    assert line.hovertemplate.startswith("lz: load balance, largest estimate error first<br>")
    assert fig.layout.yaxis.title.text == "estimation error (%), log scale"
    assert fig.layout.xaxis.title.text == "time (s)"
    assert fig.layout.xaxis.exponentformat == "none"


def test_the_models_own_charts_explain_deadlines_and_name_heuristics():
    from hcsched.models.timeshared.charts import sooner_same_later
    from hcsched.models.value.charts import OUTCOME_MEANINGS, outcome_bars, value_bars

    labels = ["max-max", "min-min"]
    summary = pd.DataFrame({"heuristic": labels, "value_pct_ub": [80.0, 70.0], "value_pct_ub_lower": [79.0, 69.0],
                            "value_pct_ub_upper": [81.0, 71.0]})
    fig = value_bars(summary, labels)
    assert list(fig.data[0].hovertext) == ["max-max: Max-Max", "min-min: Min-Min"]  # the value model's Min-Min
    assert fig.layout.yaxis.title.text == "heuristic" and "%" in fig.layout.xaxis.title.text
    from hcsched.models.value.spec import PRIORITIES
    from hcsched.models.value.worth import OUTCOMES

    counts = pd.DataFrame({f"{o}_{p}": [1.0, 2.0] for o in OUTCOMES for p in PRIORITIES}, index=labels)
    fig = outcome_bars(counts, labels)
    assert "full value" in fig.data[0].hovertemplate and OUTCOME_MEANINGS["met_d100"] in fig.data[0].hovertemplate
    means = pd.DataFrame({"pct_sooner": [10.0], "pct_same": [80.0], "pct_later": [10.0]},
                         index=["mp-masse-decres-incr"])
    fig = sooner_same_later(means, ["mp-masse-decres-incr"], "netsolve-mct")
    assert fig.data[0].hovertext[0] == "mp-masse-decres-incr: Min perturbation, mass decreasing (running)"
    assert "NetSolve MCT" in fig.data[0].hovertemplate and fig.layout.yaxis.title.text == "heuristic"


def test_references_are_drawn_as_references_not_as_contenders():
    """Kim et al.'s full-knowledge benchmarks (section 5) are hatched, named "(reference)" beside their row and said
    to be references on hover; the heuristics that can run online are drawn plainly; ticks trim their zeros."""
    from hcsched.charts import tick_format

    bars = get_model("value").bar_metrics()
    labels = ["max-min", "switching", "ga"]
    fig = metric_bars(_summary(labels, bars), bars, references={"ga": "a static benchmark", "absent": "x"})
    for trace in fig.data:
        assert list(trace.marker.pattern.shape) == ["", "", "/"]
        assert trace.hovertext[2].endswith("(a reference, not a contender: a static benchmark)")
        assert "reference" not in trace.hovertext[0]
    assert list(fig.layout.yaxis.ticktext) == ["max-min", "switching", "ga (reference)"]
    assert fig.layout.xaxis.tickformat == ".2~f" and tick_format(".1%") == ".1~%" and tick_format(".3g") == ".3g"
    plain = metric_bars(_summary(labels, bars), bars)
    assert plain.layout.yaxis.ticktext is None and list(plain.data[0].marker.pattern.shape) == ["", "", ""]


def test_the_benchmark_is_marked_and_named_on_the_normalised_axis_and_hover_numbers_are_written_out():
    bars = get_model("etc").bar_metrics()
    labels = ["mct", "min-min", "sufferage"]
    fig = metric_bars(_summary(labels, bars), bars, benchmark="min-min")
    assert list(fig.layout.yaxis.ticktext) == ["mct", "min-min (benchmark)", "sufferage"]
    titles = {m.name: fig.layout[f"xaxis{k if k > 1 else ''}"].title.text for k, m in enumerate(bars, start=1)}
    assert titles["normalized_makespan"] == "ratio to min-min (1 = as good)"
    assert titles["makespan"] == "seconds"
    assert all("e+" not in t.hovertemplate and ".4g" not in t.hovertemplate for t in fig.data)


def test_the_per_trial_boxes_name_references_as_such():
    from hcsched.charts import trial_distribution

    metric = get_model("value").bar_metrics()[0]
    results = pd.DataFrame({"heuristic": ["max-min", "ga"] * 2, "trial": [0, 0, 1, 1], metric.name: [90.0, 95, 91, 96]})
    fig = trial_distribution(results, metric, references={"ga": "a static benchmark"})
    assert [t.name for t in fig.data] == ["max-min", "ga"] and [t.y[0] for t in fig.data] == ["max-min", "ga"]
    assert list(fig.layout.yaxis.ticktext) == ["max-min", "ga (reference)"]  # each row ticked with what it shows
    assert list(fig.layout.yaxis.tickvals) == ["max-min", "ga"]
    assert "a reference, not a contender" in fig.data[1].hovertemplate and "reference" not in fig.data[0].hovertemplate


def test_the_per_trial_boxes_mark_the_benchmark_as_the_bars_do():
    """The bars said "mct (benchmark)" and the boxes under them "mct": the boxes mark it too, a reference its own."""
    from hcsched.charts import trial_distribution

    metric = get_model("etc").metric("makespan")
    results = pd.DataFrame({"heuristic": ["min-min", "mct", "ga"] * 2, "trial": [0, 0, 0, 1, 1, 1],
                            "makespan": [1.0, 2, 3, 4, 5, 6]})
    fig = trial_distribution(results, metric, references={"ga": "a static benchmark"}, benchmark="mct")
    assert list(fig.layout.yaxis.ticktext) == ["min-min", "mct (benchmark)", "ga (reference)"]
    assert list(trial_distribution(results, metric).layout.yaxis.ticktext) == ["min-min", "mct", "ga"]


def test_the_per_trial_boxes_are_rows_named_at_their_left_never_rotated_labels():
    """With 12 heuristics the boxes' names were rotated under the plot ("mp-masse-decres-incr"), with "hover a box
    for its name": each box is now a row named at its left, as the bars are."""
    from hcsched.charts import trial_distribution

    metric = get_model("timeshared").metric("makespan")
    labels = [h.label for h in preset("caniou-mu10").heuristics]
    results = pd.DataFrame({"heuristic": labels * 2, "trial": [0] * len(labels) + [1] * len(labels),
                            "makespan": np.arange(2.0 * len(labels))})
    fig = trial_distribution(results, metric)
    assert [t.orientation for t in fig.data] == ["h"] * len(labels) and [t.name for t in fig.data] == labels
    assert fig.layout.yaxis.title.text == "heuristic" and "hover" not in fig.layout.xaxis.title.text
    assert fig.layout.xaxis.title.text.endswith("lower is better") and fig.layout.yaxis.autorange == "reversed"


# --- the exported CSVs name their columns as they are -----------------------------------------------------------------


def _header_names(text: str) -> tuple[list[str], set[str]]:
    """The names a CSV's "# columns:" line gives, and those its "# units:" line gives."""
    from hcsched.export import COLUMNS_LINE, named_columns

    comments = [line for line in text.splitlines() if line.startswith("#")]
    said = [line for line in comments if line.startswith(COLUMNS_LINE)]
    assert len(said) == 1, comments
    units = next(line for line in comments if line.startswith("# units: ")).removeprefix("# units: ")
    groups = [g.partition(": ")[2] for g in units.split("; ") if not g.startswith("the other columns")]
    return named_columns(said[0]), set(named_columns(COLUMNS_LINE + "; ".join(f"{g}: a unit" for g in groups)))


@pytest.mark.parametrize("name", model_names())
def test_csv_headers_name_every_column_as_it_is(name):
    """The task-class model's results said "replication (from 0)" over a column named trial. Each export's header
    now names every column of its table by its name, once, and names no other; the units line's names are
    columns too; the trial column is said to count the model's trials (replications, simulations) from 0."""
    import io

    from hcsched import simulate, summarize, trial_runs
    from hcsched.experiment import schedule_table
    from hcsched.export import results_csv, schedule_csv, summary_csv

    model = get_model(name)
    sc = model.tiny()
    results = simulate(sc, jobs=1)
    summary = summarize(results, [m.name for m in model.table_metrics()], methods=model.interval_methods())
    gantt_table = schedule_table(sc, 0, trial_runs(sc, 0))
    texts = {"results": results_csv(sc, results), "summary": summary_csv(sc, summary),
             "gantt": schedule_csv(sc, gantt_table, 0), "gantt window": schedule_csv(sc, gantt_table.drop(
                 columns="trial"), 0, (0.0, 1.0))}
    for what, text in texts.items():
        columns = list(pd.read_csv(io.StringIO(text), comment="#").columns)
        named, in_units = _header_names(text)
        assert sorted(named) == sorted(columns) and len(set(named)) == len(named), what
        assert in_units <= set(columns), (what, in_units - set(columns))
    assert f"# columns: trial: the {model.trial_word}, numbered from 0; heuristic: its label;" in texts["results"]
    assert "from 0)" not in "".join(texts.values())


def _ran(machine, start, machines=6) -> Schedule:
    machine, start = np.asarray(machine), np.asarray(start, float)
    return Schedule(np.zeros(machine.size), machine, start, start + 1, np.ones(machine.size), np.ones(machine.size),
                    machines)


def test_the_gantt_opens_on_the_busiest_machines_side_by_side_when_not_all_fit():
    """Of 6 machines with 2 shown, the pair that ran the most tasks in all panels together (a tie to the lowest)."""
    two = GANTT_TOP + GANTT_BOTTOM + 2 * ROW_PX[0]  # px for 2 rows in one panel
    s = _ran([0, 3, 3, 4, 4, 4, 5, 1], np.arange(8.0))
    assert gantt_busiest({"a": s}, height=two) == (3, 2)  # machines 3-4 ran 5 tasks; 4-5 ran 4
    other = _ran([0, 0, 0, 1, 1, 1], np.arange(6.0))
    both = two + GANTT_GAP + 2 * ROW_PX[0]  # and for 2 rows in each of two panels
    assert gantt_busiest({"a": s, "b": other}, height=both) == (0, 2)  # together: 0-1 ran 8, 3-4 ran 5
    assert gantt_busiest({"a": s}) == (0, 6)  # every machine fits
    assert gantt_busiest({"a": _ran([5, 5, 0], [np.nan, np.nan, 0.0])}, height=two)[0] == 0  # unstarted: ran nowhere
    # where each task takes a lane: machine 4 runs 3 at once (4 lanes with its gap), the others 1 (2 lanes)
    lane_rows = GanttRows("server", "s", lanes=True)
    busy = Schedule(np.zeros(6), np.array([0, 1, 4, 4, 4, 5]), np.array([0.0, 0, 0, 0, 0, 0]), np.ones(6), np.ones(6),
                    np.ones(6), 6)
    six = GANTT_TOP + GANTT_BOTTOM + 6 * LANE_PX[0]  # 6 lanes: machine 4 and one more, or three others
    assert gantt_busiest({"a": busy}, lane_rows, height=six) == (4, 2)  # 4-5 ran 4 tasks; 0-2 ran 2


def test_a_gantt_of_some_rows_ends_its_time_axis_where_their_tasks_end():
    """11 of 90 processors shown ended near 2,500 s while the axis ran to 4,500 s (the others' end): half of it
    empty. Its time axis now ends at the last finish among the rows shown."""
    import numpy as np

    from hcsched.charts import gantt
    from hcsched.metrics import Schedule

    s = Schedule(np.zeros(3), np.array([0, 1, 2]), np.array([0.0, 0.0, 0.0]), np.array([10.0, 25.0, 45.0]),
                 np.ones(3), np.ones(3), 3)
    assert list(gantt({"a": s}, machines=[0, 1]).layout.xaxis.range) == [0.0, 25.0]
    assert list(gantt({"a": s}).layout.xaxis.range) == [0.0, 45.0]


@pytest.mark.parametrize(("name", "total"), [("estimation", 90), ("timeshared", 25)])
def test_the_overview_draws_every_row_side_by_side_within_a_900px_window_and_still_plays(name, total):
    """Estimation's default opened on "p0-p10 of the 90 processors" and time-shared's on "s15-s16 of the 25 servers".
    The overview draws every row of every heuristic, the panels side by side, within GANTT_HEIGHT px with its
    controls: a thin row each, no text on a bar but the marked task's, hover kept, frames of widths only."""
    fig, shown, _, _, marked = _page_gantt(name)
    from hcsched.charts import gantt_overview
    from pages.models import ui

    rows = ui(name).gantt_rows(preset(get_model(name).default_preset))
    window = gantt_default_window(shown)
    window = None if window is None else (window[0] - window[1], window[0])
    over = gantt(shown, window=window, time_unit=get_model(name).time_unit, rows=rows, highlight=marked,
                 overview=True)
    assert over.to_json() == gantt_overview(shown, None, window=window, time_unit=get_model(name).time_unit,
                                            rows=rows, highlight=marked).to_json()
    assert over.layout.height <= GANTT_HEIGHT and len(over.data) == len(shown)
    names = [rows.name(j) for j in range(total)]
    assert sorted(over.layout.yaxis.categoryarray) == sorted(names)  # every row, none left out
    domains = [over.layout[f"xaxis{k if k > 1 else ''}"].domain for k in range(1, len(shown) + 1)]
    assert all(a[1] < b[0] for a, b in zip(domains, domains[1:], strict=False))  # side by side
    assert over.layout.yaxis2.matches == "y"  # one row of panels, their rows aligned
    # thin rows: every few named (names on each would overlap), each named where a row has room for its name
    crowded = gantt_rows_px(1, OVERVIEW_HEIGHT) / total < OVERVIEW_LABEL_PX
    assert (len(over.layout.yaxis.tickvals) < total) == crowded
    for bar in over.data:
        assert "task %{customdata[0]}" in bar.hovertemplate and "%{y}" in bar.hovertemplate  # hover kept
        assert not any(t for t in (bar.text or ()) if t != f"task {marked}")  # no per-bar text
    assert all(set(d.to_plotly_json()) <= {"type", "x", "text"} for f in over.frames for d in f.data)  # it plays
    assert over.layout.sliders[0].active == len(over.layout.sliders[0].steps) - 1
    assert over.layout.sliders[0].steps[-1].value == over.frames[-1].name  # the slider at the last frame
    assert (over.data[0].marker.opacity or 1) < 1 if rows.lanes else over.data[0].marker.opacity is None  # a strip


def _written(labels: list[str]) -> list[float]:
    """The time slider's labels plotly.js writes (every label_stride-th from the first, on a 1440-px-wide page)."""
    from hcsched.charts import label_stride

    return [float(x.replace(",", "")) for x in labels[::label_stride(labels)]]


def test_the_time_sliders_labels_give_only_the_digits_needed_and_the_ones_written_are_round():
    """The task-class model's 5-unit window late in a run labelled its slider "9,792.31 ... 9,797.31", then "9,792.3,
    9,792.6, 9,792.9"; then page-system-a's slider spanned "340 ... 960" for a window of 350 s to 950 s, 32 labels 20 s
    apart (tryout42e). Now Play runs every frame, within a round window, and the slider steps on a few of them, a
    round step apart, each labelled (plotly.js writes every one) with only the digits it needs."""
    from hcsched.charts import SLIDER_LABELS, _time_labels, frame_times, label_stride, slider_times

    def said(t0: float, t1: float, frames: int = 60) -> tuple[np.ndarray, list[str]]:
        times, every = frame_times(t0, t1, frames)
        return times, _time_labels(slider_times(times, every), times[1] - times[0])

    times, labels = said(350.0, 950.0, 32)
    assert labels == ["350", "450", "550", "650", "750", "850", "950"] and (times[0], times[-1]) == (350.0, 950.0)
    assert 12 <= len(times) <= 32 and _on_round_steps(list(times))  # Play: every frame, within the window
    times, labels = said(2270.0, 2275.0)
    assert labels == ["2,270", "2,271", "2,272", "2,273", "2,274", "2,275"] and times[-1] == 2275.0
    for t0, t1 in ((0.0, 725_000.0), (0.0, 6_790.0), (300.1, 900.1), (87.1, 2057.1), (9792.31, 9797.58)):
        times, labels = said(t0, t1)
        written = [float(x.replace(",", "")) for x in labels]
        assert label_stride(labels) == 1 and len(labels) <= SLIDER_LABELS + 2, (t0, t1, labels)
        assert _on_round_steps(written[:-1]) and times[0] <= t0 < times[0] + float(np.diff(written[:2])[0])
        assert times[-2] < t1 <= times[-1]  # the last frame draws every bar, one frame past the end at most
    assert said(9792.31, 9797.58)[1][:3] == ["9,792", "9,793", "9,794"]
    assert said(48.5, 6790.0, 20)[1][:3] == ["0", "1,000", "2,000"]
    s = Schedule(np.zeros(3), np.array([0, 1, 0]), np.array([9792.31, 9793.0, 9795.0]),
                 np.array([9793.0, 9797.58, 9797.0]), np.ones(3), np.ones(3), 2)
    fig = gantt({"a": s})
    steps = [step.value for step in fig.layout.sliders[0].steps]
    assert set(steps) <= {f.name for f in fig.frames} and steps[-1] == fig.frames[-1].name  # to frames by name


def test_the_default_window_starts_and_ends_at_round_times():
    """The task-class model's default window was 5.27 time units from 9,792.3 and estimation's ran from 300.1 s to
    900.1 s: the length was the bars' limit to 3 digits and the start one of 2,000 evenly spread. Now the length is
    rounded down to its round step (a tenth of it or so) and the start is a multiple of a round step (a twentieth or
    so), as are the ends."""
    from hcsched.charts import round_length, start_step, window_step

    assert [round_length(x) for x in (5.27, 600.0, 1234.0, 0.0737, 1.0)] == [5.0, 600.0, 1200.0, 0.07, 1.0]
    assert window_step(5.27) == 1.0 and window_step(600.0) == 100.0
    from pages.models import ui

    windows = []
    for name in ("classes", "estimation"):  # alazzoni-B; page-system-a's overview of its 90 processors
        shown = _page_gantt(name)[1]
        rows = ui(name).gantt_rows(preset(get_model(name).default_preset))
        windows += [gantt_defaults(shown, rows, overview=overview)[1] for overview in (False, True)]
    assert sum(w is not None for w in windows) >= 3
    for low, high in (w for w in windows if w is not None):
        step = start_step(high - low)
        assert round_length(high - low) == pytest.approx(high - low), (low, high)
        assert np.allclose(np.array([low, high]) / step, np.round(np.array([low, high]) / step)), (low, high)


def test_bars_spanning_over_30_times_share_a_log_axis_with_right_whiskers_and_printed_values():
    """etc's Max stretch: min-min's bar (37.8) could not be seen beside bars of 2,000-3,500. A panel whose bars span
    over 30 times takes a log axis ticked 10, 100, 1,000; each bar's value is printed on it; the whiskers end at the 95%
    interval's ends (one that reaches 0 or below stops at the axis' left end); other panels stay linear."""
    from hcsched.charts import log_range

    model = get_model("etc")
    bars = model.bar_metrics()
    labels = ["mct", "kpb", "min-min", "sufferage"]
    summary = _summary(labels, bars)
    summary["max_stretch"] = [1588.0, 3450.0, 37.8, 2500.0]
    summary["max_stretch_lower"] = [600.0, 1500.0, 35.0, -100.0]
    summary["max_stretch_upper"] = [3200.0, 6000.0, 40.0, 4200.0]
    fig = metric_bars(summary, bars)
    k = next(i for i, m in enumerate(bars, start=1) if m.name == "max_stretch")
    axis, bar = fig.layout[f"xaxis{k}"], fig.data[k - 1]
    assert axis.type == "log" and list(axis.range) == [1.0, 4.0] and axis.dtick == 1  # ticks 10, 100, 1,000, 10,000
    assert "log scale" in axis.title.text
    mean = np.array(bar.x)
    assert np.allclose(mean + np.array(bar.error_x.array), summary["max_stretch_upper"])
    assert np.allclose(mean - np.array(bar.error_x.arrayminus), [600.0, 1500.0, 35.0, 10.0])  # the last: axis' end
    printed = [a for a in fig.layout.annotations if a.xref == f"x{k}"]  # each bar's value printed at its start, on
    # a chip over the whisker (a tryout found a long interval's whisker crossing the bar's own text)
    assert [(a.text, a.y, a.x, a.xanchor) for a in printed] == [
        ("1,588", "mct", 1.0, "left"), ("3,450", "kpb", 1.0, "left"), ("37.8", "min-min", 1.0, "left"),
        ("2,500", "sufferage", 1.0, "left")]
    assert all(a.bgcolor == VALUE_CHIP for a in printed) and bar.texttemplate is None
    assert list(bar.customdata[3]) == [-100.0, 4200.0]  # the hover says the whole interval
    assert fig.layout.xaxis.type is None and fig.data[0].texttemplate is None  # makespan: linear, as before
    assert log_range(np.array([10.0, 200.0]), np.array([5.0, 100.0]), np.array([20.0, 300.0])) is None  # 20 times
    assert log_range(np.array([0.0, 200.0]), np.zeros(2), np.ones(2)) is None  # a zero bar has no log


def test_the_marked_tasks_caption_names_each_heuristic_as_its_panel_does():
    s = _ran([0, 1], [0.0, 1.0])
    text = gantt_highlight_text({"fz (beta=0.1)": s}, 1, name=lambda label: label.replace("beta=", "β = "))
    assert text.startswith("Task 1, hatched") and "fz (β = 0.1): m1, 1 to 2 s" in text and "beta" not in text
    short = lambda label: label.replace("beta=", "β = ")  # noqa: E731
    for overview in (False, True):  # the panels' titles and the hover's corner say it alike
        fig = gantt({"fz (beta=0.1)": s}, name=short, overview=overview)
        assert [a.text for a in fig.layout.annotations] == ["fz (β = 0.1)"]
        assert fig.data[0].hovertemplate.endswith("<extra>fz (β = 0.1)</extra>") and fig.data[0].name == "fz (beta=0.1)"
        assert "<br>by fz (β = 0.1)" in fig.data[0].hovertemplate and "beta" not in fig.layout.annotations[0].hovertext


def _round(x: float) -> bool:
    """A round number: 1, 2, 2.5 or 5 times a power of ten (or 0)."""
    if x == 0:
        return True
    mantissa = abs(x) / 10 ** np.floor(np.log10(abs(x)))
    return any(np.isclose(mantissa, m) for m in (1.0, 2.0, 2.5, 5.0, 10.0))


def _on_round_steps(times: list[float]) -> bool:
    """Times all multiples of one round step, that step apart."""
    step = times[1] - times[0]
    return _round(step) and np.allclose(np.diff(times), step) and np.allclose(np.round(np.array(times) / step),
                                                                             np.array(times) / step)


@pytest.mark.parametrize("name", ["estimation", "timeshared"])
def test_every_gantt_view_ticks_its_time_at_round_numbers(name):
    """The Gantt's time ticks read "127, 255, 382, 510", "300, 320, 341, 361" and "383, 766, 1,150": its frames (the
    time slider's labels) cut the window into equal parts. The busiest rows' view, the overview and the animated
    frames now all fall on multiples of a round step (1, 2, 2.5 or 5 x 10^k: "250, 500, 750"), and each time axis
    is ticked at such a step (its dtick)."""
    fig, shown, _, window, marked = _page_gantt(name)
    from pages.models import ui

    model = get_model(name)
    rows = ui(name).gantt_rows(preset(model.default_preset))
    over = gantt(shown, window=window, time_unit=model.time_unit, rows=rows, highlight=marked, overview=True)
    for view in (fig, over):
        axes = [view.layout[a] for a in view.layout if a.startswith("xaxis")]
        scale, _ = gantt_unit(axes[0].range[1], model.time_unit)  # hours where the window reaches an hour
        times = [float(f.name) / scale for f in view.frames]
        assert _on_round_steps(times), times[:4]
        labels = [float(s.label.replace(",", "")) for s in view.layout.sliders[0].steps]
        assert labels == pytest.approx(slider_times(np.array(times), float(np.diff(labels[:2])[0])))  # few, on frames
        if scale == 1:
            assert axes and all(_round(a.dtick) and a.tick0 == 0 for a in axes), [a.dtick for a in axes]
        else:  # ticked at round times of the unit
            assert all(_on_round_steps([v / scale for v in a.tickvals]) for a in axes), [a.tickvals for a in axes]
            assert not [t for a in axes for t in a.ticktext if t.startswith("-")], axes[0].ticktext  # never "-0"
        assert times[0] * scale <= axes[0].range[0] and times[-1] * scale >= axes[0].range[1]  # every bar drawn


def test_a_windows_ends_are_said_as_the_page_shows_them_never_rounded_to_three_digits():
    """tryout42e: the download button said "time window 2,270 to 2,280 time units" under a window of 2,270 to 2,275
    (three significant digits): the ends in the digits of the window's own round step."""
    assert window_text(2270.0, 2275.0, "time units") == "2,270 to 2,275 time units"
    assert window_text(350.0, 950.0, "s") == "350 to 950 s"
    assert window_text(15_125.0, 15_175.0, "s") == "15,125 to 15,175 s"
    assert window_text(9792.0, 9797.25, "time units") == "9,792 to 9,797.25 time units"


def test_the_busiest_rows_in_detail_fit_one_screen_with_the_pages_controls():
    """tryout42e: four heuristics' panels of 11 processors each, the fourth below a 900-px window's fold. The detailed
    view's default rows fit DETAIL_HEIGHT (the overview's px, under the same controls), and so does its figure."""
    from hcsched.charts import DETAIL_HEIGHT, OVERVIEW_HEIGHT, gantt_detail

    big = {f"h{i}": _serial(900, 90, 1.0) for i in range(4)}
    first, count = gantt_detail(big)
    assert DETAIL_HEIGHT == OVERVIEW_HEIGHT and count < gantt_busiest(big)[1] and count >= 1
    fig = gantt(big, window=(0.0, 50.0), machines=list(range(first, first + count)), height=DETAIL_HEIGHT)
    assert fig.layout.height <= DETAIL_HEIGHT
    machines, _, _ = gantt_defaults(big)
    assert machines == list(range(first, first + count))  # the page's detailed view


def test_play_crosses_a_window_slowly_enough_to_talk_over():
    """Estimation's overview (many bars, few frames) played its 600-s window in 1.7 s: a frame lasts long enough that
    Play takes PLAY_SECONDS at least, and never under FRAME_MS."""
    from hcsched.charts import FRAME_MS, PLAY_SECONDS, frame_ms
    assert frame_ms(13) * 13 >= PLAY_SECONDS * 1000 > frame_ms(13) * 12
    assert frame_ms(200) == FRAME_MS
    fig = gantt(trial_schedules(preset("quickstart")), time_unit="s")
    play = fig.layout.updatemenus[0].buttons[0].args[1]["frame"]["duration"]
    assert play == frame_ms(len(fig.frames)) and play * len(fig.frames) >= PLAY_SECONDS * 1000


def test_a_round_window_start_with_a_length_that_is_not_plays_from_its_start():
    """The value model's busiest machines in detail opened on 200 s to 2,450 s: its frames started at 0 s (the last
    multiple of the labels' step of 500 s), so Play ran outside the window. Now from 200 s, labelled every 200 s."""
    from hcsched.charts import frame_times, label_step

    assert label_step(200.0, 2450.0) == (200.0, 200.0)
    times, every = frame_times(200.0, 2450.0, 60)
    assert times[0] == 200.0 and times[-1] == 2450.0 and every == 200.0
    assert label_step(1.797, 740_000.0) == (100_000.0, 0.0)  # a whole trial: from 0, as before


def test_a_time_axis_that_reaches_an_hour_is_in_the_unit_the_lead_says_its_times_in():
    """The quickstart's lead said "6.2 days (535,000 s)" over an axis of seconds (535,000): one unit per metric on a
    page. The bars stay in seconds; their axis ticks say days (or hours), the hover says both."""
    from hcsched.charts import time_ticks

    assert time_ticks([300.0, 599.0], [300.0, 599.0]) is None  # under ten minutes: seconds, as before
    assert time_ticks([3000.0, 3599.0], [3000.0, 3599.0]) == ([0.0, 1200.0, 2400.0], ["0", "20", "40"], "minutes")
    assert time_ticks([3000.0, 3599.0], [3000.0, 3599.0], minutes=False) is None  # a what-if line: from an hour
    assert time_ticks([400_000.0, 535_000.0], [400_000.0]) == ([0.0, 172_800.0, 345_600.0, 518_400.0],
                                                               ["0", "2", "4", "6"], "days")
    assert time_ticks([np.nan, 40_000.0], [np.nan, 40_000.0]) == ([0.0, 9000.0, 18_000.0, 27_000.0, 36_000.0],
                                                                 ["0", "2.5", "5", "7.5", "10"], "hours")
    assert time_ticks([np.nan], [np.nan]) is None
    # the least mean under an hour: its sentence says minutes ("40 minutes", not "2,429 s"), and so does the axis
    assert time_ticks([2400.0, 5200.0], [2429.0, 4900.0]) == ([0.0, 1200.0, 2400.0, 3600.0, 4800.0],
                                                               ["0", "20", "40", "60", "80"], "minutes")
    # in the unit the least mean is said in: "1.9 hours" beside a worse one of 2.1 days
    assert time_ticks([6960.0, 180_000.0], [6960.0, 175_000.0])[2] == "hours"
    bars = get_model("etc").bar_metrics()
    summary = _summary(["mct", "min-min"], bars)
    summary["makespan"], summary["makespan_lower"], summary["makespan_upper"] = 535_000.0, 520_000.0, 550_000.0
    fig = metric_bars(summary, bars)
    assert fig.layout.xaxis.title.text == "days" and list(fig.layout.xaxis.ticktext) == ["0", "2", "4", "6"]
    assert fig.layout.annotations[0].text.startswith("Makespan (d)<br>")  # the panel's title says it too, short
    assert list(fig.layout.xaxis.tickvals) == [0.0, 172_800.0, 345_600.0, 518_400.0]
    assert list(fig.data[0].x) == [535_000.0, 535_000.0]  # the bars in seconds, as the CSV
    hover = fig.data[0].hovertemplate.replace("%{customdata[2]}", fig.data[0].customdata[0][2]).replace(
        "%{customdata[3]}", fig.data[0].customdata[0][3])
    assert "mean 6.2 days (535,000 s)" in hover and "6.0 days (520,000 s) to 6.4 days (550,000 s)" in hover
    summary["makespan_lower"], summary["makespan_upper"] = np.nan, np.nan  # one trial so far: no interval
    assert metric_bars(summary, bars).layout.xaxis.title.text == "days"  # a tryout read "Makespan (s)" so far


def test_the_per_trial_boxes_of_a_time_in_days_tick_days_over_their_own_span():
    from hcsched.charts import trial_distribution

    makespan = get_model("etc").metric("makespan")
    results = pd.DataFrame({"heuristic": ["a"] * 3 + ["b"] * 3, "trial": [0, 1, 2] * 2,
                            "makespan": [480_000.0, 500_000.0, 520_000.0, 530_000.0, 545_000.0, 560_000.0]})
    fig = trial_distribution(results, makespan)
    assert fig.layout.xaxis.title.text.startswith("Makespan (days), ")
    shown = [t for v, t in zip(fig.layout.xaxis.tickvals, fig.layout.xaxis.ticktext, strict=True)
             if 480_000 <= v <= 560_000]
    assert shown == ["5.6", "5.8", "6", "6.2", "6.4"]
    assert list(fig.data[0].x) == [480_000.0, 500_000.0, 520_000.0]  # the points in seconds, as the CSV
