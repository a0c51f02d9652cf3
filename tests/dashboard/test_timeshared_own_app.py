"""The time-shared pages with a user's three slow servers (no traceback on Scenario, Home and Results), and the
time-shared charts' colours, legends and titles."""

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, marker_colors, open_results, plotly_charts  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.charts import CATEGORY_PALETTE, PALETTE  # noqa: E402

SERVERS = b"speed_mflops,bandwidth_mbit\n300,50\n150,5\n500,50\n"



def test_the_issues_servers_upload_then_home_and_results_show_no_traceback():

    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.session_state["scenario"] = preset("caniou-mu10")
    at.run()
    at.radio(key="sc_w_ts_servers_mode").set_value("own").run()
    at.file_uploader(key="sc_w_ts_up_servers").set_value(("servers.csv", SERVERS, "text/csv")).run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    sc = at.session_state["scenario"]
    assert sc.spec.platform.bandwidth_mbit == (50.0, 5.0, 50.0)
    assert any("Data sizes limited to input + output <= 375 MB" in i.value for i in at.info)

    home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    home.session_state["scenario"] = sc
    home.run()
    assert not home.exception, home.exception

    small = sc.replace(tasks=40, trials=2,
                       heuristics=[h for h in sc.heuristics if h.name in ("netsolve-mct", "hmct", "msf")])
    results = open_results(small, timeout=90)
    figs = plotly_charts(results)
    finish = [f for f in figs if [d.get("name") for d in f["data"]] == ["sooner", "same time", "later"]]
    phases = [f for f in figs if [d.get("name") for d in f["data"]] == ["input", "compute", "output"]]
    assert len(finish) == 1 and len(phases) == 1
    for fig, legend in ((finish[0], "finish vs netsolve-mct"), (phases[0], "phase")):
        layout = fig["layout"]
        assert layout["legend"]["title"]["text"] == legend
        assert layout["legend"]["y"] >= 1 and layout["legend"]["yanchor"] == "bottom"  # above the plot area
        colors = [marker_colors(d) for d in fig["data"]]
        assert all(len(c) == 1 for c in colors) and len(set().union(*colors)) == 3
        assert set().union(*colors) <= set(CATEGORY_PALETTE) and not set().union(*colors) & set(PALETTE)
    assert "higher is better" in finish[0]["layout"]["title"]["text"]
    assert all(d["orientation"] == "h" for d in finish[0]["data"])
    # the baseline is "the benchmark" throughout; a tie said in words, not in seconds
    captions = [c.value for c in results.caption]
    assert any("the benchmark netsolve-mct" in c and "counted as a tie (equal within a microsecond)" in c
               for c in captions), captions
    assert not any("reference heuristic" in c or "1e-06" in c for c in captions)
    assert phases[0]["layout"]["yaxis"]["ticktext"] == ["s0", "s1", "s2"]  # three servers: fewer than the busiest shown
