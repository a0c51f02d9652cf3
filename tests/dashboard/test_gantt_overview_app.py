"""The Results page's Gantt as a manager reads it: every row at a glance where they would not all fit in detail, the
busiest in detail one choice away, heuristics by their short names, download buttons on one line each."""

import pytest

pytest.importorskip("streamlit")
from helpers import open_results, plotly_charts  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.charts import (  # noqa: E402
    DETAIL_HEIGHT,
    GANTT_HEIGHT,
    OVERVIEW_HEIGHT,
    SLIDER_LABELS,
    is_round,
    label_stride,
    round_length,
    start_step,
)


def _gantt(at) -> dict:
    [fig] = [c for c in plotly_charts(at) if c["layout"].get("sliders")]  # Play and the time slider
    return fig


def _caption(at) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Press Play"))


def test_estimation_opens_on_every_processor_side_by_side_and_the_busiest_in_detail_one_choice_away():
    """page-system-a opened on "p0-p10 of the 90 processors" with tiny labels, titled "fz (beta=0.1)". Now every
    processor of each heuristic, the heuristics side by side, within a 900-px window; panel titles and the caption
    name a heuristic as the charts do ("fz (error weighted a tenth)"); "Busiest processors, in detail" gives the
    former view, said as it is, within one screen."""
    at = open_results(preset("page-system-a").replace(trials=2), timeout=120)
    view = at.radio(key="results_gantt_view")
    assert view.value == "All 90 processors" and view.options == ["All 90 processors", "Busiest processors, in detail"]
    fig = _gantt(at)
    titles = [a["text"] for a in fig["layout"]["annotations"]]
    assert len(titles) == 4 and "fz (error weighted a tenth)" in titles  # the lead's words (tryout42e)
    assert not any("beta" in t or "β" in t for t in titles)
    assert len(fig["layout"]["yaxis"]["categoryarray"]) == 90 and fig["layout"]["height"] <= GANTT_HEIGHT
    assert fig["layout"]["title"]["text"].startswith("All 90 processors, a thin row each")
    assert fig["layout"]["xaxis2"]["domain"][0] > fig["layout"]["xaxis"]["domain"][1]  # side by side
    assert not [s for s in at.slider if s.key == "results_gantt_machines"]  # nothing to pick: every row is drawn
    assert "beta=" not in _caption(at)
    # a marked task ran 618 to 828 s under fa and 600 to 4,420 s under la, on processors within 10% of each other's
    # speed: the caption says why a task's run time differs beyond the speeds (the owners' slots, the outliers)
    from pages.models.estimation import GANTT_NOTE
    assert _caption(at).startswith("Press Play") and "Task " in _caption(at) and _caption(at).endswith(GANTT_NOTE)
    view.set_value("Busiest processors, in detail").run()
    assert not at.exception
    lo, hi = at.slider(key="results_gantt_machines").value
    fig = _gantt(at)
    assert fig["layout"]["yaxis"]["categoryarray"] == [f"p{j}" for j in range(lo, hi + 1)][::-1]
    assert fig["layout"]["title"]["text"].startswith(f"p{lo}-p{hi} of the 90 processors")
    assert "fz (error weighted a tenth)" in [a["text"] for a in fig["layout"]["annotations"]]
    assert "beta=" not in _caption(at) and "β" not in _caption(at)
    # tryout42e: "Processors p0-p10 of p0-p89 shown (the busiest side by side)", its fourth panel below the fold
    said = next(c.value for c in at.caption if c.value.startswith("Processors p"))
    n = hi - lo + 1
    assert said.startswith(f"Processors p{lo}-p{hi} shown, {n} of the 90: no {n} side by side ran more tasks. ")
    assert "p89" not in said and "move “Processors shown” to see others" in said, said
    assert fig["layout"]["height"] <= DETAIL_HEIGHT == OVERVIEW_HEIGHT  # the four panels on one screen


def test_estimations_overview_opens_on_a_round_window_and_fits_a_900px_window_with_its_controls():
    """page-system-a read "Window start 300.1" and "Showing 300.1 s to 900.1 s", and its 90 processors ran past a
    900-px window under the view's choice, the window's controls and the marked task (p63 at the bottom). Now the
    window starts and ends at round times and the overview leaves room for those controls (OVERVIEW_HEIGHT); its
    time slider plays and labels that window alone."""
    at = open_results(preset("page-system-a").replace(trials=2), timeout=120)
    length, low = at.number_input(key="results_window_length").value, at.slider(key="results_window").value
    assert length == round_length(length) and low == start_step(length) * round(low / start_step(length))
    assert length == round(length) and low == round(low)  # whole seconds: "Showing 350 s to 950 s"
    shown = next(c.value for c in at.caption if c.value.startswith("Showing"))
    assert shown.startswith(f"Showing {low:,.0f} s to {low + length:,.0f} s"), shown
    fig = _gantt(at)
    assert list(fig["layout"]["xaxis"]["range"]) == [low, low + length]
    assert len(fig["layout"]["yaxis"]["categoryarray"]) == 90 and fig["layout"]["height"] <= OVERVIEW_HEIGHT
    # tryout42e: the play slider read "340 ... 960" ("time 960 s"), 32 labels 20 s apart: now within the window, every
    # label written (plotly.js's stride 1), a round step apart (100 s here), as few as a time axis has ticks
    steps = [x["label"] for x in fig["layout"]["sliders"][0]["steps"]]
    frames = [float(f["name"]) for f in fig["frames"]]
    tick = float(steps[1].replace(",", "")) - float(steps[0])
    assert is_round(tick) and steps == [f"{low + tick * k:,.0f}" for k in range(len(steps))], steps
    assert len(steps) <= SLIDER_LABELS + 1 and tick == 100
    assert label_stride(steps) == 1 and steps[-1] == f"{low + length:,.0f}"
    assert frames[0] == low and frames[-1] == low + length
    assert OVERVIEW_HEIGHT + 290 <= 900 - 60  # the page's controls above it (about 290 px) and its header (60 px)


def test_timeshared_opens_on_every_server_as_a_load_strip():
    """caniou-mu10 opened on "s15-s16 of the 25 servers", a lane per task. Now the 25 servers of each heuristic side by
    side, a server's tasks translucent in one strip (darker where more run at once)."""
    at = open_results(preset("caniou-mu10").replace(trials=1), timeout=180)
    assert at.radio(key="results_gantt_view").value == "All 25 servers"
    fig = _gantt(at)
    assert fig["layout"]["yaxis"]["categoryarray"] == [f"s{j}" for j in range(25)][::-1]
    assert fig["layout"]["height"] <= GANTT_HEIGHT and all(0 < d["marker"]["opacity"] < 1 for d in fig["data"])


def test_a_small_system_keeps_its_detailed_gantt_and_the_downloads_each_fit_one_line():
    """etc's 8 machines fit: no choice of view, the panels one above the other as before. The download buttons were
    as wide as a fifth of the page, their labels wrapped onto 2-3 lines: now each as wide as its label, the run's
    files on one row and the Gantt tables on the next."""
    at = open_results(preset("quickstart").replace(trials=2))
    assert not [r for r in at.radio if r.key == "results_gantt_view"]
    fig = _gantt(at)
    assert fig["layout"]["yaxis"]["categoryarray"] == [f"m{j}" for j in range(8)][::-1]
    rows = {_id(block).split("-")[-1]: [c.label for c in block.children.values()] for block in _blocks(at.main)
            if any(getattr(c, "type", None) == "download_button" for c in block.children.values())}
    assert rows == {"results_downloads_run": ["Per-trial results (CSV)", "Summary with intervals (CSV)",
                                              "Scenario (JSON)"],
                    "results_downloads_gantt": ["Gantt table, whole trial 0 (CSV)"]}
    for block in _blocks(at.main):  # rows that lay their buttons side by side, each as wide as its label
        if _id(block).endswith(("results_downloads_run", "results_downloads_gantt")):
            assert block.proto.flex_container.direction == block.proto.flex_container.HORIZONTAL
    assert not any(b.proto.use_container_width for b in at.get("download_button"))


def _blocks(node) -> list:
    """Every block (container, column) under ``node``, depth first."""
    kids = [c for c in getattr(node, "children", {}).values() if hasattr(c, "children")]
    return kids + [b for c in kids for b in _blocks(c)]


def _id(block) -> str:
    """A block's id, where it has one (a container's, keyed), else ""."""
    return block.proto.id if "id" in block.proto.DESCRIPTOR.fields_by_name else ""
