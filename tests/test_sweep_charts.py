"""Sweep charts: heuristic colours only, which way is better, a fixed grid of heatmaps with
titles that do not meet, evenly spaced categories for a few uneven values, legends outside the plots."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from hcsched import get_model
from hcsched.charts import _rgba, direction, heuristic_colors
from hcsched.metrics import Metric
from hcsched.sweep_charts import default_x_scale, sweep_heatmap, sweep_lines, tick, x_scales

ETC = get_model("etc")
METRICS = ETC.bar_metrics()
LONG = "tpsa (phase1_iterations=200, phase2_unchanged=100, runs=1)"  # a real label of the value model's presets


def summary(labels, key_values: dict[str, list], seed: int = 1) -> pd.DataFrame:
    """A sweep summary by hand: every point of the product of ``key_values``, every heuristic, every bar metric."""
    keys, rng = list(key_values), np.random.default_rng(seed)
    grid = pd.MultiIndex.from_product(list(key_values.values()), names=keys).to_frame(index=False)
    rows = []
    for point, values in grid.iterrows():
        for label in labels:
            row = {"point": point, **values.to_dict(), "heuristic": label, "trials": 5}
            for m in METRICS:
                mean = float(rng.uniform(0.2, 0.9))
                row[m.name], row[f"{m.name}_lower"], row[f"{m.name}_upper"] = mean, mean - 0.05, mean + 0.05
            rows.append(row)
    return pd.DataFrame(rows)


def _axis(fig, k: int, which: str):
    return fig.layout[f"{which}axis{k + 1 if k else ''}"]


def test_every_trace_of_a_heuristic_has_its_colour_and_the_band_no_markers():
    """Item 2: the band's trace had no mode, so Plotly drew markers at its corners in its default colours."""
    labels = ["min-min", "mct", "kpb", "sufferage"]
    colors = heuristic_colors(labels)
    fig = sweep_lines(summary(labels, {"arrivals.rate": [0.0005, 0.001, 0.002]}), "arrivals.rate", METRICS, colors)
    bands = [t for t in fig.data if t.fill == "toself"]
    assert len(bands) == len(labels) * len(METRICS)
    for t in fig.data:
        label = t.legendgroup
        if t.fill == "toself":
            assert "markers" not in (t.mode or "lines+markers")  # Plotly's default for a short scatter has markers
            assert t.fillcolor == _rgba(colors[label], 0.18) and t.line.color == colors[label]
        else:
            assert t.mode == "lines+markers" and t.line.color == colors[label] and t.marker.color == colors[label]


def test_panel_titles_say_which_way_is_better_and_the_legend_is_outside():
    labels = [f"heuristic-{i}" for i in range(12)]
    fig = sweep_lines(summary(labels, {"machines": [4, 8, 16]}), "machines", METRICS)
    titles = [a.text for a in fig.layout.annotations]
    assert "Makespan (s)" in titles[0] and "lower is better" in titles[0]
    assert all(direction(m) in t for m, t in zip(METRICS, titles, strict=False))  # each from its own Metric.better
    throughput = Metric("throughput", "Throughput", "tasks/s", "higher", bar=True)
    data = summary(labels[:2], {"machines": [4, 8]}).assign(throughput=1.0, throughput_lower=0.9, throughput_upper=1.1)
    assert "higher is better" in sweep_lines(data, "machines", [throughput]).layout.annotations[0].text
    assert fig.layout.legend.x >= 1 and fig.layout.legend.xanchor == "left"  # right of every plot, not on one
    assert sum(t.showlegend is not False for t in fig.data) == 12  # one entry per heuristic


def test_a_few_uneven_values_are_drawn_evenly_and_other_values_keep_a_scale():
    assert default_x_scale([0, 1, 100]) == "category"  # linear: two points stuck together; log: cannot show 0
    assert default_x_scale([1, 10, 100]) == "log" and default_x_scale([0.0005, 0.001, 0.002]) == "log"
    assert default_x_scale([4, 6, 8, 12, 16]) == "log"  # the page's proposal for machines: half to twice 8
    assert default_x_scale([10, 20, 30]) == "linear" and default_x_scale([0, 10, 30]) == "linear"
    assert default_x_scale([1, 2, 3, 100]) == "category"  # uneven on both scales
    assert default_x_scale(list(range(0, 200, 10)) + [5000]) == "linear"  # many values: the scale is the message
    assert default_x_scale(["[5, 8]", "[6, 9.6]"]) == "category" and x_scales(["[5, 8]"]) == ("category",)
    assert x_scales([0, 1]) == ("linear", "category") and x_scales([1, 2]) == ("linear", "log", "category")
    data = summary(["mct", "min-min"], {"heuristics.1.k": [100.0, 0.0, 1.0]})  # not in order: sorted on the axis
    fig = sweep_lines(data, "heuristics.1.k", METRICS, x_scale="category")
    assert fig.layout.xaxis.type == "category" and list(fig.layout.xaxis.categoryarray) == ["0", "1", "100"]
    assert "not to scale" in fig.layout.xaxis.title.text
    assert sweep_lines(data, "heuristics.1.k", METRICS, x_scale="log").layout.xaxis.type == "log"
    with pytest.raises(ValueError, match="x_scale: 'cubic' is not allowed; allowed: linear, log, category"):
        sweep_lines(data, "heuristics.1.k", METRICS, x_scale="cubic")
    assert tick(10.0) == "10" and tick(0.00031622776601683794) == "0.000316228" and tick("[5, 8]") == "[5, 8]"


def test_twelve_heatmaps_sit_in_a_grid_whose_titles_do_not_meet():
    """Item 5: with 12 heuristics the heatmaps were 12 panels in one row, their titles over each other."""
    labels = [LONG, *[f"heuristic-{i}" for i in range(10)], "slack-sufferage"]
    metric = METRICS[0]
    fig = sweep_heatmap(summary(labels, {"arrivals.rate": [0, 10, 30], "machines": [4, 8]}),
                        ("arrivals.rate", "machines"),
                        metric)
    domains = [tuple(_axis(fig, k, "x").domain) for k in range(12)]
    rows = sorted({round(_axis(fig, k, "y").domain[0], 3) for k in range(12)})
    assert len(rows) == 3 and len({d[0] for d in domains}) == 4  # 4 a row, 3 rows
    plot_px = 1000  # a narrow wide-layout page: titles must fit their panel there
    char_px = 7.0  # a generous average width of a 12 px character
    titles = fig.layout.annotations[:12]
    assert "<br>" in titles[0].text and titles[0].text.replace("<br>", " ") == LONG  # wrapped, not cut
    for k, a in enumerate(titles):
        widest = max(len(line) for line in a.text.split("<br>")) * char_px
        assert widest <= (domains[k][1] - domains[k][0]) * plot_px, a.text
    for t in fig.data:  # every cell the same size, whatever the values
        assert list(t.x) == ["0", "10", "30"] and list(t.y) == ["4", "8"]
    assert all(_axis(fig, k, "x").type == "category" and _axis(fig, k, "y").type == "category" for k in range(12))
    assert sum(t.showscale is not False for t in fig.data) == 1
    bar = next(t for t in fig.data if t.showscale).colorbar
    assert "lower is better (brighter)" in bar.title.text and "lower is better" in fig.layout.title.text
    assert fig.data[0].colorscale == sweep_heatmap(summary(labels[:2], {"a": [1], "b": [1]}), ("a", "b"),
                                                   metric).data[0].colorscale
    small = summary(labels[:2], {"a": [1], "b": [1]})
    higher = dataclasses.replace(metric, better="higher")
    assert "higher is better" in sweep_heatmap(small, ("a", "b"), higher).layout.title.text
    neither = sweep_heatmap(small, ("a", "b"), dataclasses.replace(metric, better=""))
    assert "lower" not in neither.layout.title.text and "higher" not in neither.layout.title.text
    assert "brighter" not in neither.data[0].colorbar.title.text  # neither end is the better one


@pytest.mark.parametrize("n, cols", [(1, 1), (4, 4), (5, 5), (6, 4), (9, 5), (12, 4)])
def test_no_heatmap_stands_alone_on_its_row(n, cols):
    fig = sweep_heatmap(summary([f"h{i}" for i in range(n)], {"a": [1, 2], "b": [3]}), ("a", "b"), METRICS[0])
    assert len({round(_axis(fig, k, "x").domain[0], 3) for k in range(n)}) == cols
    assert n == 1 or n % cols != 1
