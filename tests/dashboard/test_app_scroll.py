"""After a one-click what-if on Results the page scrolls back up to its answer, once: the manager stayed scrolled
down at the buttons while "Against run #1, the baseline: ..." showed out of view at the top."""

import pytest

pytest.importorskip("streamlit")
from helpers import app  # noqa: E402
from test_app_whatif import SMALL, run, until_ended  # noqa: E402


def scrolls(at) -> list[str]:
    """The page's scripts that scroll it up (st.html elements with JavaScript)."""
    return [h.proto.body for h in at.get("html") if "scrollTo" in h.proto.body]


def _results_after_a_run():
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    assert scrolls(at) == []  # a run from the Run page: the page is not moved
    return at


@pytest.mark.parametrize("click", ["results_whatif_0", "results_swap_run"])
def test_a_what_if_scrolls_the_page_up_once_and_never_again_on_later_reruns(click):
    at = _results_after_a_run()
    at.button(key=click).click().run()
    [script] = scrolls(at)
    assert "stMain" in script and "scrollTo({top: 0})" in script
    at.run()  # the next rerun (a click, the progress ticking): the reader's scrolling is left alone
    assert scrolls(at) == []
    until_ended(at)
    assert scrolls(at) == [] and at.info[0].value.startswith("Against run #1, ")
    at.button(key="results_whatif_0").click().run()  # the next what-if scrolls up once again, with a script of its own
    [again] = scrolls(at)
    assert again != script
    at.run()
    assert scrolls(at) == [] and not at.exception
