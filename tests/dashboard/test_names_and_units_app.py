"""Every model's Results page, as a manager sees it after running the model's default preset: every axis of every
chart it draws has a title with its unit (or a deliberate unitless name), no axis writes an SI prefix beside a unit,
hovering a heuristic gives its plain-words name, and the page says what its short names and symbols mean."""

import json

import pytest
from helpers import app, open_results, plotly_charts

pytest.importorskip("streamlit")

from hcsched import get_model, model_names, preset  # noqa: E402
from hcsched.heuristics import heuristic_hover  # noqa: E402
from hcsched.verdict import run_words, scenario_references  # noqa: E402
from pages.models import short_label  # noqa: E402
from pages.widgets import plain  # noqa: E402


def _axes(fig: dict):
    """(name, axis) of each axis that shows numbers or categories: one a trace is drawn on, whose tick labels show
    (a panel sharing the axis of the one below it leaves its title to that one)."""
    used = {(d.get("xaxis", "x"), d.get("yaxis", "y")) for d in fig["data"]}
    used = {a for pair in used for a in pair}
    for name, axis in fig["layout"].items():
        if not name.startswith(("xaxis", "yaxis")):
            continue
        ref = name[0] + name[5:]
        if ref in used and axis.get("showticklabels", True) is not False and not axis.get("matches"):
            yield name, axis


def _title(axis: dict) -> str:
    title = axis.get("title", "")
    return title.get("text", "") if isinstance(title, dict) else str(title)


@pytest.mark.parametrize("model", model_names())
def test_every_axis_has_a_unit_and_every_heuristic_its_plain_name(model):
    m = get_model(model)
    sc = m.presets()[m.default_preset]().replace(trials=2)
    at = open_results(sc, timeout=300)
    figures = plotly_charts(at)
    assert figures
    for k, fig in enumerate(figures):
        for name, axis in _axes(fig):
            where = f"{model}, chart {k} ({_title(fig['layout'].get('title', {})) or 'untitled'}), {name}"
            assert _title(axis).strip(), f"{where}: no axis title"
            if axis.get("type") == "log":
                assert "log" in _title(axis), f"{where}: a log axis that does not say so"
            assert axis.get("exponentformat") == "none" or axis.get("ticktext") is not None or \
                axis.get("type") == "category", f"{where}: ticks may be written with an SI prefix ('535k')"
            assert "s" not in axis.get("tickformat", "").replace("%", ""), f"{where}: an SI tick format"
    # hovering a heuristic's bar names it in plain words: the registry's title, in every bar of the first chart
    bars = figures[0]["data"][0]
    refs = scenario_references(sc)  # said to be references, not contenders, after their name
    assert list(bars["hovertext"]) == [heuristic_hover(h.label, model) + (
        f" (a reference, not a contender: {refs[h.label]})" if h.label in refs else "") for h in sc.heuristics]
    # the page says what its short names and symbols mean
    expander = next(e for e in at.expander if e.label == "What the short names on this page mean")
    table = expander.table[0].value
    labels = [h.label for h in sc.heuristics]
    assert table["heuristic"].tolist() == [plain(short_label(model, x, labels)) for x in labels]  # as the charts
    assert all(table["the paper's name"].str.len() > 3)  # st.table reads Markdown: said plain
    words = run_words(labels, model)  # what each does, in the leads' words (a tryout read "min-min | Min-min")
    assert table["what it does"].tolist() == [plain(words[x]) for x in labels]
    verdicts = json.dumps([x.value for x in at.markdown])
    assert not any(f"{d} k s" in verdicts or f"{d} M s" in verdicts for d in "0123456789")  # "544 thousand s"


def test_the_task_class_pages_symbols_are_said_in_words():
    sc = get_model("classes").presets()["alazzoni-B"]().replace(trials=2)
    at = open_results(sc, timeout=300)
    caption = next(c.value for c in at.caption if "seed" in c.value)
    assert "The machines can handle 1.33 times these arrivals" in caption
    words = next(e for e in at.expander if e.label == "What the short names on this page mean").markdown[0].value
    # shown as written: "λ\\*" (a bare "*" breaks the bold)
    for symbol in ("λ*", "kbar", "Load checks skipped", "state-information discount"):
        assert plain(symbol) in words
    table = next(e for e in at.expander if e.label == "What the short names on this page mean").table[0].value
    labels = [h.label for h in sc.heuristics]
    row = table.set_index("heuristic").loc[plain(short_label("classes", "kpb (kbar=1)", labels))]
    assert row["the paper's name"].startswith("K-percent best; kbar = 1")
    assert row["what it does"] == plain(run_words(labels, "classes")["kpb (kbar=1)"])


def test_the_value_pages_deadlines_are_said_in_words():
    sc = get_model("value").presets()["kim-loose-high-heavy"]().replace(trials=2)
    at = open_results(sc, timeout=300)
    assert any("three soft deadlines" in c.value and "full value" in c.value for c in at.caption)
    assert not any("D100" in c.value or "Figs." in c.value for c in at.caption)  # symbols only in the folded list
    words = next(e for e in at.expander if e.label == "What the short names on this page mean").markdown[0].value
    assert "D100, D50, D25" in words and "UB" in words


def test_home_names_each_heuristic_in_words():
    at = app("app.py", scenario=preset("quickstart"))
    assert not at.exception, at.exception
    line = next(c.value for c in at.caption if "; heuristics: " in c.value)
    assert line.endswith("heuristics: mct (minimum completion time), kpb (K-percent best), min-min (soonest-finishing "
                         "task first), sufferage (task that would lose most without its best machine)"), line
    assert not any(c.value.endswith("heuristics: mct, kpb, min-min, sufferage") for c in at.caption)
