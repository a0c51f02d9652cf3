"""The reproduction report (hcsched/report.py) in a real browser, offline: every chart drawn, no console error.

Drives Debian's chromium with Playwright, every request but file:// blocked. Skipped when chromium or playwright is
missing, unless HCSCHED_REQUIRE_BROWSER=1 (as in CI), where it fails instead (tests/helpers.py's require_browser). Saves
a screenshot to tests/artifacts/.
"""

from helpers import ARGS, CHROMIUM, ROOT, require_browser  # the same skip logic and browser as the dashboard's test

from hcsched import reproduce as rp
from hcsched.claims import Best, Better, Claim, Custom, Outcome, Value


def _nothing(results, better):
    """A check that compared nothing it could chart (no series): its card has no chart."""
    return Outcome("holds", 1.0, float("nan"), float("nan"), "", float("nan"), "nothing to chart")


CLAIMS = (
    Claim("b-minmin-beats-mct", "etc", "Fig. 9", "Min-min gives a shorter makespan than MCT.", "quickstart",
          Better("min-min", "mct", "makespan"), paper="Min-min better", note="A <b>note</b> & an ampersand."),
    Claim("b-sufferage-best", "etc", "Fig. 6", "Sufferage is best.", "quickstart", Best("sufferage", "makespan")),
    Claim("b-mct-makespan", "etc", "Table 9", "MCT's makespan is about 300,000 s.", "quickstart",
          Value("makespan", "mct", paper=300000.0, tolerance=0.5), paper="300,000 s"),
    Claim("b-no-chart", "etc", "Sec. 1", "A claim with nothing to chart.", "quickstart",
          Custom("makespan", _nothing, "a check of its own")),
)


def test_report_opens_offline_with_every_chart(tmp_path, monkeypatch):
    require_browser()
    from playwright.sync_api import sync_playwright

    from hcsched.claims import DEFINITION, DETAILS, LEAD
    from hcsched.report import DETAILS_TITLE, claim_chart, write_report

    monkeypatch.setattr(rp, "registry", lambda model=None: CLAIMS)
    table, _ = rp.reproduce(CLAIMS, trials=2, jobs=1)
    path = write_report(table, tmp_path / "report.html")
    charted = sum(1 for _, row in table.iterrows() if claim_chart(row) is not None)
    assert charted == 3
    problems, blocked = [], []

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.route("**/*", route)
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(path.as_uri())
        page.wait_for_function(f"document.querySelectorAll('.js-plotly-plot .main-svg').length >= {charted}",
                               timeout=60_000)
        assert page.locator(".js-plotly-plot").count() == charted
        assert page.locator(".card").count() == len(table)
        # each chart drew the number its verdict was read from (one point: the paired difference, the lead over the
        # closest rival, the mean), where the claim puts it, and the Value's chart the paper's number
        for i in range(charted):
            assert page.locator(".js-plotly-plot").nth(i).locator("path.point").count() == 1
            assert "shaded: the claim (" in page.locator(".js-plotly-plot").nth(i).inner_text()
        assert "paper: 300 k" in page.locator(".js-plotly-plot").nth(2).inner_text()
        # the library's definition, word for word: its two first sentences shown, the rest folded until opened
        assert page.locator(".definition > p").inner_text() == LEAD.replace("**", "")
        folded = page.locator(".definition details > p")
        assert not folded.is_visible() and page.locator(".definition summary").inner_text() == DETAILS_TITLE
        page.locator(".definition summary").click()
        assert folded.is_visible() and folded.inner_text() == DETAILS.replace("**", "")
        assert f"{LEAD} {DETAILS}" == DEFINITION
        assert page.locator(".badge").filter(has_text="holds").count() >= 1
        assert "A <b>note</b> & an ampersand." in page.locator(".note").first.inner_text()  # escaped, as text
        artifacts = ROOT / "tests" / "artifacts"
        artifacts.mkdir(exist_ok=True)
        page.screenshot(path=str(artifacts / "reproduction-report.png"), full_page=True)
        browser.close()
    assert not blocked, blocked  # nothing but the file itself was asked for
    assert not problems, problems
