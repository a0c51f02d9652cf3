"""User text is text: a scenario's name, description and heuristic labels that arrive by a link (or an upload) are
shown as themselves on every page, never as Markdown: no link, image, HTML, colour or auto-link made of them. And the
dashboard's side of bad input: an upload that names a file, or that the library refuses, is one line under its
uploader, never "This page stopped"; a scenario too large for the server is refused before anything is drawn.

The browser's own view of the same pages (no anchor or image in the DOM) is tests/dashboard/test_browser_safety.py."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, wait_for_results  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.links import scenario_query  # noqa: E402

LINK = "[Session expired - sign in again](https://example.invalid/x)"
IMAGE = "![px](https://example.invalid/p.png)"
HTML_LINK = '<a href="javascript:alert(1)">x</a>'
HTML_IMAGE = "<img src=x onerror=alert(1)>"
HTML_HTTP = '<a href="https://example.invalid/h">h</a>'  # a link Plotly would draw in a chart's text
SCRIPT = "javascript:alert(1)"
BARE = "https://example.invalid"
COLOUR = ":red[big]"
PAYLOADS = (LINK, IMAGE, HTML_LINK, HTML_IMAGE, HTML_HTTP, SCRIPT, BARE, COLOUR)
# what any of them would render as, once a Markdown reader has taken its escapes away: a link, an image, HTML, a
# colour, or an auto-link
RENDERED = re.compile(r"\]\(|!\[|<[a-z/!?]|://|:red\[", re.IGNORECASE)
PAGES = ("pages/scenario.py", "pages/heuristics.py", "pages/run.py", "pages/results.py", "pages/explain.py",
         "pages/sweep.py", "pages/papers.py")


def hostile_scenario():
    """quickstart, two trials, named, described and labelled with every payload (each field within its length; a
    label, which also names chart text and CSV columns, may hold no < or >: HTML goes in the name and description)."""
    sc = preset("quickstart").replace(trials=2)
    labels = [LINK, f"{IMAGE} {COLOUR}", f"{SCRIPT} {BARE}", "[h](https://example.invalid/h)"]
    return sc.replace(name=f"{LINK} {IMAGE} {HTML_HTTP}", description=" ".join(PAYLOADS),
                      heuristics=tuple(replace(h, label=label) for h, label in zip(sc.heuristics, labels, strict=True)))


def unescaped(body: str) -> str:
    """``body`` as a Markdown reader sees its characters: each backslash-escaped character is literal text, dropped
    here (it can no longer open a link or an image), and the invisible word joiner (which breaks auto-links) too."""
    return re.sub(r"\\.", "", body).replace("\u2060", "\x00")


def markdown_texts(at) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown: Markdown, captions, headings, alerts, the labels of
    expanders, buttons, toggles and widgets, radio options, metric labels and st.table cells (not dataframe cells
    nor selectbox options, which are plain text)."""
    texts = []
    for kind in ("markdown", "caption", "title", "header", "subheader", "error", "warning", "info", "success"):
        texts += [str(e.value) for e in getattr(at, kind)]
    for kind in ("expander", "button", "toggle", "checkbox", "selectbox", "multiselect", "radio", "text_input",
                 "number_input", "slider", "metric", "tabs"):
        texts += [str(e.label) for e in at.get(kind)]
    texts += [str(o) for r in at.radio for o in r.options]
    for table in at.table:
        frame = table.value
        texts += [str(c) for c in frame.columns] + [str(v) for v in frame.to_numpy().ravel()]
    return texts


def rendered(at) -> list[str]:
    """The page's Markdown texts that would render a link, an image, HTML, a colour or an auto-link."""
    return [t for t in markdown_texts(at) if RENDERED.search(unescaped(t))]


def opened(params: dict[str, str], timeout: float = 60) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params.update(params)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(scope="module")
def hostile_link():
    return {**scenario_query(hostile_scenario()), "run": "1"}


def test_the_helper_escapes_every_payload():
    from pages.widgets import plain

    for text in PAYLOADS:
        assert RENDERED.search(text) or text == SCRIPT  # a bare "javascript:" is no link: plain text as it is
        assert not RENDERED.search(unescaped(plain(text))), plain(text)
    assert plain("λ* min-min: 'a' is not allowed") == "λ\\* min-min: 'a' is not allowed"  # plain sentences stay


def test_a_links_text_is_shown_escaped_on_every_page(hostile_link):
    at = opened(hostile_link)
    wait_for_results(at)
    assert not rendered(at), rendered(at)
    shown = "\n".join(markdown_texts(at))
    assert LINK not in shown and "example" in shown  # the name is there, as text
    for page in PAGES:
        at.switch_page(page).run(timeout=120)
        assert not at.exception, (page, at.exception)
        assert not rendered(at), (page, rendered(at))


def test_a_link_whose_label_holds_html_is_refused_in_one_line():
    """A label is chart text, which Plotly reads as HTML: a link carrying one with < or > is refused, said as text."""
    sc = preset("quickstart")
    data = sc.to_dict() | {"heuristics": [{"name": "mct", "label": HTML_HTTP}, "min-min"]}
    from hcsched.links import _pack_dict

    at = opened({"scenario": _pack_dict(data)})
    errors = [str(e.value) for e in [*at.error, *at.warning]]
    assert any("'heuristics.label'" in e and "without < or >" in e for e in errors), errors
    assert not rendered(at), rendered(at)


def test_the_compare_view_and_history_show_labels_escaped(hostile_link):
    """A second run (a what-if) brings the change line, the baseline's line and the runs' titles."""
    at = opened(hostile_link)
    wait_for_results(at)
    at.switch_page("pages/run.py").run()
    at.number_input(key="run_trials").set_value(3).run()
    at.button(key="run_start").click().run()
    for _ in range(300):
        if len(at.session_state["history"]) == 2:
            break
        at.run()
    at.switch_page("pages/results.py").run()
    assert any("Against run #1" in i.value for i in at.info)
    assert not rendered(at), rendered(at)
    at.radio(key="results_mode").set_value("Compare two runs").run()
    assert not at.exception, at.exception
    assert not rendered(at), rendered(at)


@pytest.mark.parametrize("name, text", [
    ("dev.json", '{"model": "etc", "etc": {"method": "matrix", "path": "/dev/zero"}}'),
    ("passwd.json", '{"model": "etc", "etc": {"path": "/etc/passwd"}}'),
    ("up.toml", 'model = "etc"\n[etc]\npath = "../../etc/passwd"\n'),
])
def test_an_uploaded_scenario_naming_a_file_is_refused_in_one_line(name, text):
    at = AppTest.from_file(str(ROOT / "pages" / "scenario.py"), default_timeout=60)
    at.run()
    before = at.session_state["scenario"]
    _upload(at, "sc_upload_scenario", name, text.encode())
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "names a file on the server" in errors[0] and "My own matrix" in errors[0], errors
    assert "\n" not in errors[0] and "stopped" not in errors[0]
    assert at.session_state["scenario"] == before  # nothing read, nothing lost


@pytest.mark.parametrize("name, text", [
    ("label.json", '{"model": "etc", "heuristics": [{"name": "mct", "label": [1]}]}'),
    ("description.json", '{"model": "etc", "description": {"a": 1}}'),
    ("datetime.toml", "name = 1979-05-27T07:32:00Z\n"),
    ("deep.json", "[" * 100_000 + "]" * 100_000),
])
def test_a_malformed_upload_is_an_inline_line_never_the_page_stopping(name, text):
    at = AppTest.from_file(str(ROOT / "pages" / "scenario.py"), default_timeout=60)
    at.run()
    before = at.session_state["scenario"]
    _upload(at, "sc_upload_scenario", name, text.encode())
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "\n" not in errors[0], errors
    assert "stopped" not in errors[0] and "inside hcsched" not in errors[0], errors  # the library's one line
    assert at.session_state["scenario"] == before


def test_an_etc_upload_over_the_cell_limit_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setenv("HCSCHED_MAX_UPLOAD_CELLS", "100")
    at = AppTest.from_file(str(ROOT / "pages" / "scenario.py"), default_timeout=60)
    at.run()
    at.radio(key="sc_w_method").set_value("matrix").run()
    assert any("cells" in c.value and "MB" in c.value for c in at.caption)  # the limits, said beside the uploader
    _upload(at, "sc_w_upload", "big.csv", ("1,2,3,4,5\n" * 100).encode())
    errors = [e.value for e in at.error]
    assert any("big.csv" in e and "cells" in e and "100" in e for e in errors), errors


def test_a_scenario_too_large_is_refused_before_its_estimate(monkeypatch):
    """The size cap is asked first: the estimate (which draws a sample of the machines) is never asked."""
    import pages.widgets

    asked = []
    monkeypatch.setattr(pages.widgets, "estimate_seconds", lambda *a, **k: asked.append(a) or 1.0)
    monkeypatch.setattr(pages.widgets, "MAX_SIZE", 1000)
    at = opened({"preset": "quickstart", "machines": "1000"})
    assert any("too large for this server" in e.value for e in at.error), [e.value for e in at.error]
    assert not asked
    assert at.button(key="landing_run").disabled


def test_a_scenario_over_the_memory_limit_is_refused_before_its_estimate(monkeypatch):
    import pages.widgets

    asked = []
    monkeypatch.setattr(pages.widgets, "estimate_seconds", lambda *a, **k: asked.append(a) or 1.0)
    monkeypatch.setattr(pages.widgets, "memory_refusal", lambda *a, **k: "This run would need 9 GB of memory.")
    at = opened({"preset": "quickstart"})
    assert "This run would need 9 GB of memory." in [e.value for e in at.error]
    assert not asked


def _upload(at, key: str, name: str, data: bytes) -> None:
    at.file_uploader(key=key).set_value((name, data, "application/octet-stream")).run()
