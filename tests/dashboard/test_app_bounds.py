"""How far from the best possible, in the dashboard: the Results page's sentence on the winner's distance to the
lower bound and the bound drawn on the makespan panel; the Heuristics page's benchmark "lower bound"."""

import numpy as np
import pytest

pytest.importorskip("streamlit")
from helpers import app, open_results, panel_titles, plotly_charts  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.formatting import sentence_start  # noqa: E402
from hcsched.metrics import LOWER_BOUND  # noqa: E402

SMALL = preset("quickstart").replace(tasks=60, trials=4)


def test_results_say_how_far_the_winner_is_from_the_bound_and_draw_it():
    results = simulate(SMALL, jobs=1)
    at = open_results(SMALL, results)
    texts = [m.value for m in at.markdown]
    best = results.groupby("heuristic")["makespan"].mean().idxmin()
    gap = 100 * (results.loc[results["heuristic"] == best, "makespan_bound"].mean() - 1)
    said = f"{best} is {gap:.1f}% above the lower bound on average"
    assert any(sentence_start(said) in t for t in texts), texts  # a sentence of its own, begun with a capital
    bars = next(f for f in plotly_charts(at) if "Makespan / lower bound" in panel_titles(f))
    lines = [s for s in bars["layout"].get("shapes", []) if s.get("type") == "line"]
    assert len(lines) == 1 and np.isclose(lines[0]["x0"], results["lower_bound"].mean())
    # named on its axis, in the unit the lead says the makespan in (days here, the seconds on hover)
    assert bars["layout"]["xaxis"]["title"]["text"] == "days (dashed: mean lower bound)"
    assert bars["layout"]["xaxis6"]["title"]["text"] == "ratio to the lower bound (1 = best)"
    assert bars["layout"]["xaxis"].get("autorange") is not False  # the line leaves the range to the bars


def test_heuristics_page_offers_the_lower_bound_as_benchmark():
    at = app("pages/heuristics.py", scenario=SMALL)
    box = at.selectbox(key="hx_benchmark")
    assert LOWER_BOUND in box.options
    box.set_value(LOWER_BOUND).run()
    assert not at.exception
    assert at.session_state["scenario"].benchmark == LOWER_BOUND
    at.button(key="hx_remove_0").click().run()  # removing a heuristic keeps the bound as the benchmark
    assert at.session_state["scenario"].benchmark == LOWER_BOUND
    sc = at.session_state["scenario"]
    r = simulate(sc.replace(trials=2), jobs=1)
    assert np.allclose(r["normalized_makespan"], r["makespan_bound"])
