"""The estimation model's shared charts name a heuristic in words under its short name: a manager read twelve
two-letter names (fa, fe, fz, ...) on its bars, where the time-shared bars had words under theirs."""

import plotly.graph_objects as go

from hcsched.charts import WORDS_PX
from pages.models import heuristic_ticks


def _bars(labels, rows=1):
    fig = go.Figure()
    for row in range(rows):
        fig.add_bar(x=[1] * len(labels), y=labels, orientation="h", yaxis="y" if row == 0 else f"y{row + 1}")
    layout = {"height": 300, "yaxis": {"domain": (0, 0.45) if rows > 1 else (0, 1)}}
    if rows > 1:
        layout["yaxis2"] = {"domain": (0.55, 1)}
    return fig.update_layout(**layout)


def test_the_estimation_bars_say_each_heuristic_in_words_under_its_short_name():
    labels = ["fa", "fz (beta=0.1)", "rr"]
    fig = heuristic_ticks("estimation", _bars(labels), labels)
    ticks = list(fig.layout.yaxis.ticktext)
    assert ticks[0].startswith("fa<br>") and "earliest estimated finish" in ticks[0]
    assert ticks[1].startswith("fz (error weighted a tenth)<br>") and "largest estimate error first" in ticks[1]
    assert "beta=" not in ticks[1] and "β" not in ticks[1]  # the lead's words, no symbol (tryout42e, defect 12)
    assert "round robin" in ticks[2]  # in a sentence's case, as the lines say it
    assert fig.layout.height == 300 + WORDS_PX * 3


def test_each_row_of_panels_grows_by_a_line_per_heuristic():
    labels = ["fa", "rr"]
    fig = heuristic_ticks("estimation", _bars(labels, rows=2), labels)
    assert "earliest estimated finish" in fig.layout.yaxis.ticktext[0]
    assert fig.layout.height == 300 + WORDS_PX * 2 * 2


def test_a_heuristic_of_ones_own_keeps_its_name_alone():
    fig = heuristic_ticks("estimation", _bars(["my-rule"]), ["my-rule"])
    assert list(fig.layout.yaxis.ticktext) == ["my-rule"]


def test_the_value_bars_say_each_heuristic_in_words_the_reference_marked():
    """A manager read bare names on the value model's bars ("max-min", "ga"): each in words under its name, as the
    lines say them, the reference's mark kept."""
    labels = ["max-min", "slack-sufferage", "ga"]
    fig = _bars(labels).update_yaxes(tickvals=labels, ticktext=["max-min", "slack-sufferage", "ga (reference)"])
    ticks = list(heuristic_ticks("value", fig, labels).layout.yaxis.ticktext)
    assert ticks[0].startswith("max-min<br>") and "latest-finishing task first" in ticks[0]
    assert ticks[1].startswith("slack-sufferage<br>") and "deadline slack" in ticks[1]
    assert ticks[2].startswith("ga (reference)<br>") and "genetic algorithm" in ticks[2]
