"""The value model's Results page: deadline outcomes in the category palette with a
legend that says so, outside the plot; titles that say which way is better; horizontal bars for many heuristics; and
the note under the Gantt chart that explains why GA leaves every machine idle before the evaluation window."""

import re

import pytest

pytest.importorskip("streamlit")
from helpers import app as open_page  # noqa: E402
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
    outcome = [f for f in figs if f["layout"].get("barmode") == "stack" and f["layout"].get("legend", {}).get("title")]
    gantt = [f for f in figs if f["layout"].get("barmode") == "overlay" and
             f["layout"].get("legend", {}).get("title", {}).get("text") == "deadline outcome"]
    assert len(outcome) == 1 and len(gantt) == 1
    for fig in (outcome[0], gantt[0]):
        assert fig["layout"]["legend"]["title"]["text"] == "deadline outcome" and _outside(fig["layout"])
        used = set().union(*(_colors(d) for d in fig["data"]))
        assert used <= set(CATEGORY_PALETTE) and not used & set(PALETTE)  # never a heuristic's colour
    # outcomes in their order, best first, each with one colour in both charts
    by_name = {d["name"]: _colors(d) for d in outcome[0]["data"]}
    assert list(by_name) == ["by 1st deadline", "by 2nd deadline", "by 3rd deadline", "after 3rd deadline",
                             "never started"]
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
    assert "tasks by their 1st deadline: higher is better" in outcome[0]["layout"]["title"]["text"]
    # the Gantt of GA: the note says why the machines idle before B, with the run's window
    at.selectbox(key="results_v_gantt_h").set_value("ga").run()
    assert not at.exception, at.exception
    notes = [c.value for c in at.caption if "counts only the work done inside" in c.value]
    assert len(notes) == 1
    b, e = sc.spec.window
    assert f"from {b / 60:g} min ({b:,g} s) to {e / 60:g} min ({e:,g} s)" in notes[0]  # one unit, seconds beside
    assert "before then earns nothing" in notes[0]
    assert "start their first tasks between" in notes[0] and "GA" in notes[0]
    at.selectbox(key="results_v_gantt_h").set_value("max-max").run()  # a dynamic heuristic starts at once
    notes = [c.value for c in at.caption if "counts only the work done inside" in c.value]
    assert len(notes) == 1 and "first tasks between" not in notes[0]
    # numbers from a thousand with their separators, as the rest of the page prints them
    [gantt] = [f for f in plotly_charts(at) if f["layout"].get("legend", {}).get("title", {}).get("text")
               == "deadline outcome" and f["layout"].get("barmode") == "overlay"]
    tasks = re.search(r"\(trial of ([\d,]+) tasks\)", gantt["layout"]["title"]["text"])[1]
    assert int(tasks.replace(",", "")) >= 1000 and re.fullmatch(r"\d{1,3}(,\d{3})+", tasks), tasks
    said = next(c.value for c in at.caption if c.value.startswith("max-max, this trial: the total value earned is"))
    v, ub = re.search(r"earned is (\S+), [\d.]+% of the upper bound on value of (\S+)\.", said).groups()
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})+", x) for x in (v, ub)), said


def test_the_value_caption_separates_thousands():
    """"the total value earned is 8194, 87.5% of the upper bound on value of 9364": now "8,194" and "9,364"."""
    from pages.models.value import value_text

    said = value_text("max-max", 8194.2, 9364.4)
    assert said.startswith("max-max, this trial: the total value earned is 8,194, 87.5% of the upper bound on value "
                           "of 9,364. Tasks by priority and outcome.")


#: The paper's symbols and the words a manager must read before each (Kim et al. 2007, sections 2.2.3 and 2.3).
SYMBOL_WORDS = {"V": "total value earned", "UB": "upper bound on value", "B": "window", "E": "window"}


def _symbols_after_words(text: str) -> list[str]:
    """The symbols of ``text`` said before their words, or not in parentheses the first time ("value V = ...",
    "[B, E]"): none in a caption a manager reads."""
    wrong = []
    for symbol, words in SYMBOL_WORDS.items():
        first = re.search(rf"(?<![\w\-.]){symbol}(?![\w\-])", text)
        before = text[:first.start()] if first else ""
        if first and (words not in before.lower() or before.rfind("(") <= before.rfind(")")):  # inside parentheses
            wrong.append(f"{symbol} in {text!r}")
    return wrong


def test_the_symbols_v_ub_b_e_come_after_their_words_on_results_and_home():
    """A manager's tryout: "V counts only ... [B, E] = [600, 15000] s", "UB (section 2.3) relaxes the problem",
    "value V = 8194, upper bound UB = 9364 (87.5% of UB)": the paper's symbols without words."""
    sc = preset("kim-loose-high-heavy")
    sc = sc.replace(heuristics=[h for h in sc.heuristics if h.name in ("max-max", "switching")], trials=2)
    at = open_results(sc, simulate(sc, jobs=1), timeout=120)
    home = open_page("app.py", timeout=120, scenario=sc, results=at.session_state["results"])
    said = {page: [c.value for c in page_at.caption] + [m.value for m in page_at.markdown]
            for page, page_at in (("results", at), ("home", home))}
    for page, texts in said.items():
        assert sum("total value earned" in x for x in texts) >= 3, page  # the headline, the glossary, one trial
        assert any("upper bound on value" in x and "finishing at once" in x for x in texts), page
        assert not any("(V)" in x or "(UB)" in x for x in texts if "\n" not in x), page  # words alone in the lines
        assert any("value earned from 10 min (600 s) to 250 min (15,000 s)" in x for x in texts), page
        assert not [w for x in texts for w in _symbols_after_words(x)], (page, [w for x in texts
                                                                               for w in _symbols_after_words(x)])
    figs = plotly_charts(at)  # and on the charts: the bound's line, the window's dotted lines
    lines = {a["text"] for f in figs for a in f["layout"].get("annotations", [])}
    assert {"upper bound", "window start, 10 min (600 s)"} <= lines and not {"B", "E", "upper bound (UB)"} & lines
