"""Chart builders: colours that follow the heuristic, units, empty panels that say why, Gantt size and controls."""

import numpy as np
import pandas as pd

from hcsched import get_model, preset, trial_schedules
from hcsched.charts import PALETTE, gantt, gantt_default_window, gantt_frames, grid_columns, heuristic_colors, metric_bars
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
    assert "neither is better" in next(t for t in texts if t.startswith("Utilisation"))
    assert any("no value in this run" in t for t in texts)
    assert fig.layout.xaxis5.tickformat == ".1%"  # utilisation as a percentage


def test_gantt_controls_on_top_units_in_hover_and_a_bounded_size():
    sc = preset("quickstart").replace(trials=1)
    fig = gantt(trial_schedules(sc), time_unit="s")
    menu, slider = fig.layout.updatemenus[0], fig.layout.sliders[0]
    assert menu.y == 1 and menu.yanchor == "bottom" and slider.y == 1 and slider.yanchor == "bottom"
    assert "machine m%{customdata[6]}" in fig.data[0].hovertemplate and " s<br>" in fig.data[0].hovertemplate
    assert fig.layout.xaxis4.title.text == "time (s)"
    big = {f"h{i}": Schedule(np.arange(300.0), np.arange(300) % 16, np.arange(300.0), np.arange(300.0) + 1, np.ones(300),
                             np.ones(300), 16) for i in range(7)}
    fig = gantt(big)
    assert fig.layout.height < 2000  # 7 heuristics x 16 machines, was about 3,000 px
    assert len(fig.frames) == gantt_frames(7 * 300) < 60


def test_fewer_frames_for_larger_charts():
    assert gantt_frames(800) == 60 and gantt_frames(100_000) == 12 and gantt_frames(3000) == 30


def _serial(n: int, machines: int, length: float) -> Schedule:
    """n tasks of ``length`` run back to back, round robin over the machines."""
    start = (np.arange(n) // machines) * length
    return Schedule(np.zeros(n), np.arange(n) % machines, start, start + length, np.full(n, length),
                    np.full(n, length), machines)


def test_default_gantt_window_bounds_every_panel_even_beside_a_slow_heuristic():
    fast, slow = _serial(2000, 16, 1.0), _serial(2000, 1, 1.0)  # ends at 125 and at 2000
    end, length = gantt_default_window({"fast": fast, "slow": slow}, bars=400)
    assert end == 2000.0 and length == 12.0  # fast's 201st task starts at 12: at most 200 bars a panel
    fig = gantt({"fast": fast, "slow": slow}, window=(0.0, length))
    assert [len(t.x) for t in fig.data] == [192, 12]
    assert gantt_default_window({"a": _serial(100, 4, 1.0), "b": _serial(100, 4, 1.0)}, bars=400) is None


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
    the next row's titles (browser test, issue 18)."""
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
