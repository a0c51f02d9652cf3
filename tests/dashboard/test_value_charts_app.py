"""The value model's Results page: deadline outcomes in the category palette with a
legend that says so, outside the plot; titles that say which way is better; horizontal bars for many heuristics; and
the note under the Gantt chart that explains why GA leaves every machine idle before the evaluation window."""

import pytest

pytest.importorskip("streamlit")
from helpers import marker_colors as _colors  # noqa: E402
from helpers import open_results, plotly_charts  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.charts import CATEGORY_PALETTE, PALETTE  # noqa: E402


def _outside(layout) -> bool:
    """The legend is right of the plot area or above it (Plotly's paper coordinates)."""
    legend = layout.get("legend", {})
    return legend.get("x", 1.02) >= 1 and legend.get("xanchor", "left") == "left" or \
        legend.get("y", 0) >= 1 and legend.get("yanchor") == "bottom"


def test_results_page_outcomes_colours_titles_and_the_window_note():

    sc = preset("kim-loose-high-heavy")
    sc = sc.replace(heuristics=[h for h in sc.heuristics if h.name in ("max-max", "min-min", "ga")], trials=1)
    df = simulate(sc, jobs=1)
    at = open_results(sc, df, timeout=120)
    figs = plotly_charts(at)
    outcome = [f for f in figs if f["layout"].get("barmode") == "stack"]
    gantt = [f for f in figs if f["layout"].get("barmode") == "overlay" and
             f["layout"].get("legend", {}).get("title", {}).get("text") == "deadline outcome"]
    assert len(outcome) == 1 and len(gantt) == 1
    for fig in (outcome[0], gantt[0]):
        assert fig["layout"]["legend"]["title"]["text"] == "deadline outcome" and _outside(fig["layout"])
        used = set().union(*(_colors(d) for d in fig["data"]))
        assert used <= set(CATEGORY_PALETTE) and not used & set(PALETTE)  # never a heuristic's colour
    # outcomes in their order, best first, each with one colour in both charts
    by_name = {d["name"]: _colors(d) for d in outcome[0]["data"]}
    assert list(by_name) == ["met D100", "met D50", "met D25", "after D25", "never started"]
    assert len(set().union(*by_name.values())) == 5
    assert all(by_name[d["name"]] == _colors(d) for d in gantt[0]["data"])
    assert all(d["orientation"] == "h" for d in outcome[0]["data"])  # names as rows: readable with 12 heuristics
    pct = [f for f in figs if "Value as % of the upper bound" in f["layout"].get("title", {}).get("text", "")]
    assert len(pct) == 1 and "higher is better" in pct[0]["layout"]["title"]["text"]
    assert pct[0]["data"][0]["orientation"] == "h"
    # GA, the longest bar, is a full-knowledge static benchmark: drawn as the shared bars draw a reference (hatched,
    # "(reference)" by its name, said on hover), never as a winner
    bar, labels = pct[0]["data"][0], [h.label for h in sc.heuristics]
    assert list(bar["y"]) == labels == ["max-max", "min-min", "ga"]
    assert bar["marker"]["pattern"]["shape"] == ["", "", "/"] == figs[0]["data"][0]["marker"]["pattern"]["shape"]
    assert pct[0]["layout"]["yaxis"]["ticktext"] == ["max-max", "min-min", "ga (reference)"]
    assert "(a reference, not a contender: " in bar["hovertext"][2]
    assert not any("reference" in h for h in bar["hovertext"][:2])
    assert any("Hatched bars, marked (reference): ga" in c.value for c in at.caption)
    assert "met D100: higher is better" in outcome[0]["layout"]["title"]["text"]
    # the Gantt of GA: the note says why the machines idle before B, with the run's window
    at.selectbox(key="results_v_gantt_h").set_value("ga").run()
    assert not at.exception, at.exception
    notes = [c.value for c in at.caption if "evaluation window" in c.value]
    assert len(notes) == 1
    b, e = sc.spec.window
    assert f"[B, E] = [{b:g}, {e:g}] s" in notes[0] and "work done before B earns nothing" in notes[0]
    assert "start their first tasks between" in notes[0] and "GA" in notes[0]
    at.selectbox(key="results_v_gantt_h").set_value("max-max").run()  # a dynamic heuristic starts at once
    notes = [c.value for c in at.caption if "evaluation window" in c.value]
    assert len(notes) == 1 and "first tasks between" not in notes[0]
