"""Plug-in heuristics on the dashboard, as a user meets them: a package installed on the server offers a heuristic by
entry point (group ``hcsched.heuristics``); the Heuristics page's picker lists it beside the papers' heuristics,
marked as a plug-in with where it comes from; it is added, run, and its results (verdict, row, Gantt chart, CSV) are
those of any built-in. A link naming a heuristic the server does not have is one line naming it and the plug-ins
installed, never a traceback: the dashboard loads no code from a link.

The plug-in is the documentation's example, ``docs/plugins/etc_rules.py``, copied into a package of its own, once the
ETC model takes plug-in heuristics; until then a copy of MCT under another name (:func:`plugin_source`). The run here
is in the test's process (one job): the real server's worker processes finding the package by themselves are
tested in a real browser (tests/dashboard/test_browser_plugins.py, which builds its package with :func:`install`)."""

from __future__ import annotations

import io
import json
import runpy
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, plotly_charts, wait_for_results  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import get_model  # noqa: E402
from hcsched.heuristics import PLUGIN_ERRORS, PLUGINS, Heuristic, load_entry_points  # noqa: E402
from hcsched.models.base import Model  # noqa: E402

EXAMPLE = ROOT / "docs" / "plugins" / "etc_rules.py"
DISTRIBUTION, MODULE = "team-rules", "team_rules"
STAND_IN = """
import dataclasses
import hcsched

team_mct = dataclasses.replace(hcsched.get_heuristic("mct", "etc"), name="team-mct")
"""
UNKNOWN = "no-such-rule"


def uses_example() -> bool:
    """Whether the ETC model takes plug-ins and the documentation's example file is there."""
    return type(get_model("etc")).plugin is not Model.plugin and EXAMPLE.is_file()


def plugin_source() -> str:
    """The plug-in file of the installed package: the documentation's example where the ETC model takes plug-ins,
    else a copy of MCT named team-mct."""
    return EXAMPLE.read_text() if uses_example() else textwrap.dedent(STAND_IN)


@dataclass(frozen=True)
class Installed:
    folder: Path  # on sys.path (or PYTHONPATH): the package's module and its dist-info
    names: tuple[str, ...]  # the ETC heuristics it offers, in the file's order
    example: bool  # the documentation's example, not the stand-in

    @property
    def name(self) -> str:
        """The heuristic the tests add and run: the first the file offers."""
        return self.names[0]

    @property
    def where(self) -> str:
        """How the picker says where an installed plug-in comes from: its package's entry point."""
        return f"entry point ({DISTRIBUTION})"


def install(folder: Path) -> Installed:
    """A package ``team-rules`` offering the plug-in file's heuristics under the entry point group
    hcsched.heuristics, as pip writes it: ``team_rules.py`` and ``team_rules-1.0.dist-info`` in ``folder``. Nothing is
    registered here (the file is run apart to read its heuristics' names)."""
    folder.mkdir(parents=True, exist_ok=True)
    info = folder / f"{MODULE}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[hcsched.heuristics]\nrules = {MODULE}\n")
    module = folder / f"{MODULE}.py"
    module.write_text(plugin_source())
    found = [v for v in runpy.run_path(str(module)).values() if isinstance(v, Heuristic) and "etc" in v.models]
    assert found, f"{module} offers no heuristic of the ETC model"
    return Installed(folder, tuple(h.name for h in found), uses_example())


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The package installed in this process (its folder on sys.path, the entry points read again), removed after."""
    before, errors = dict(PLUGINS), dict(PLUGIN_ERRORS)
    package = install(tmp_path / "site")
    monkeypatch.syspath_prepend(str(package.folder))
    load_entry_points(reload=True)
    try:
        yield package
    finally:
        PLUGINS.clear()
        PLUGINS.update(before)
        PLUGIN_ERRORS.clear()
        PLUGIN_ERRORS.update(errors)
        sys.modules.pop(MODULE, None)


def opened(params: dict[str, str]) -> AppTest:
    """The dashboard opened at a link (a new session whose address carries ``params``)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(params)
    at.run()
    assert not at.exception, at.exception
    return at


def recorded_downloads(monkeypatch) -> dict[str, str]:
    """label -> data of every download button drawn from now on (a deferred one built)."""
    from streamlit.delta_generator import DeltaGenerator

    seen: dict[str, str] = {}
    original = DeltaGenerator.download_button

    def recorded(self, label, data, file_name=None, *args, **kwargs):
        seen[label] = data() if callable(data) else data
        return original(self, label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recorded)
    return seen


def csv_rows(text: str) -> pd.DataFrame:
    assert text.startswith("# hcsched ")
    return pd.read_csv(io.StringIO(text), comment="#")


def test_an_installed_plugin_is_picked_added_and_run_like_a_builtin(installed, monkeypatch):
    monkeypatch.setattr("pages.jobs.IN_PROCESS", True)  # one job in this process, which has the package on sys.path
    trials = 4
    at = opened({"preset": "quickstart", "heuristics": '["mct"]', "trials": str(trials)})
    at.switch_page("pages/heuristics.py").run()
    picker = at.selectbox(key="hx_name")
    builtins = [h.name for h in get_model("etc").heuristics]
    assert [line.split(" - ")[0] for line in picker.options[:len(builtins)]] == builtins  # the papers' first,
    assert not any("plug-in" in line for line in picker.options[:len(builtins)])  # unmarked
    mine = [line for line in picker.options if line.split(" - ")[0] in installed.names]
    assert mine == picker.options[len(builtins):]  # then the plug-ins installed
    for line in mine:
        assert line.endswith(f" · plug-in: {installed.where}"), line
    picker.set_value(installed.name).run()
    about = at.info[0].value
    assert about.endswith(f"A plug-in installed on this server: {installed.where}.") and "section" not in about
    at.button(key="hx_add").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert [h.label for h in at.session_state["scenario"].heuristics] == ["mct", installed.name]

    at.switch_page("pages/run.py").run()
    at.number_input(key="run_jobs").set_value(1)
    at.button(key="run_start").click().run()
    run = wait_for_results(at, timeout=120)
    assert (run.results["heuristic"] == installed.name).sum() == trials

    downloads = recorded_downloads(monkeypatch)
    at.switch_page("pages/results.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    lead = next(m.value for m in at.markdown if m.value.startswith("**"))  # the verdict line on makespan
    assert "makespan" in lead and installed.name in lead and "mct" in lead.lower().replace(installed.name, ""), lead
    table = at.dataframe[0].value  # means and 95% intervals: a row of its own
    assert list(table["heuristic"]) == ["mct", installed.name]
    bars, _, gantt = plotly_charts(at)
    assert installed.name in json.dumps(bars["data"])
    shown = at.multiselect(key="results_gantt_heuristics").value
    assert installed.name in shown  # the Gantt shows it by default (two heuristics: both)
    titles = [a["text"] for a in gantt["layout"]["annotations"]]
    assert installed.name in titles and {t["name"] for t in gantt["data"]} >= {installed.name}
    rows = csv_rows(downloads["Per-trial results (CSV)"])
    mine = rows[rows["heuristic"] == installed.name]
    assert len(mine) == trials and mine["makespan"].gt(0).all()
    pd.testing.assert_series_equal(mine["makespan"].reset_index(drop=True),
                                   run.results.loc[run.results["heuristic"] == installed.name, "makespan"]
                                   .reset_index(drop=True), check_exact=False, rtol=1e-9)


def one_line_refusal(at, name: str) -> str:
    """The one line a link naming an unknown heuristic leaves: the default scenario loaded, nothing run."""
    [warning] = at.warning
    text = warning.value
    assert "\n" not in text and not at.exception and not at.error and "Traceback" not in text
    assert f"unknown heuristic '{name}'" in text, text
    assert "The default scenario, quickstart, is loaded instead." in text
    assert "results" not in at.session_state and "job" not in at.session_state
    return text


def test_a_link_naming_a_heuristic_the_server_lacks_names_it_and_the_plugins_installed(installed):
    at = opened({"preset": "quickstart", "heuristics": json.dumps(["mct", UNKNOWN]), "run": "1"})
    text = one_line_refusal(at, UNKNOWN)
    origin = PLUGINS[("etc", installed.name)].origin
    assert f"plug-ins installed here: {installed.name} ({origin})" in text, text
    assert installed.name in text.split("valid names", 1)[1]  # among the names a link may use


def test_a_link_naming_a_plugin_where_none_is_installed_says_so():
    at = opened({"preset": "quickstart", "heuristics": json.dumps(["team-mct"]), "run": "1"})
    text = one_line_refusal(at, "team-mct")
    assert "no plug-in is installed here" in text, text


def test_a_link_naming_an_installed_plugin_opens_and_runs_it(installed, monkeypatch):
    """The link a user shares names the plug-in as any heuristic; a server that has the package opens and runs it."""
    monkeypatch.setattr("pages.jobs.IN_PROCESS", True)
    at = opened({"preset": "quickstart", "heuristics": json.dumps(["mct", installed.name]), "trials": "1",
                 "run": "1"})  # one trial: one job, in this process
    assert not at.warning
    run = wait_for_results(at, timeout=120)
    assert list(dict.fromkeys(run.results["heuristic"])) == ["mct", installed.name]
