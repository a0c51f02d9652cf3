"""Chart builders: colours that follow the heuristic, units, empty panels that say why, Gantt size and controls."""

import numpy as np
import pandas as pd

from hcsched import get_model, preset, trial_schedules
from hcsched.charts import PALETTE, gantt, gantt_frames, heuristic_colors, metric_bars
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
    assert "Makespan (s)" in texts and "Mean flow time (s)" in texts
    assert any("no value in this run" in t for t in texts)
    assert fig.layout.yaxis5.tickformat == ".1%"  # utilisation as a percentage


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
