"""Heuristics of one's own: registration, plug-in files (``--plugin``), installed packages' entry points, and what
each says when something is wrong (one line, exit status 2 on the command line)."""

import dataclasses
import sys
import textwrap

import pytest

import hcsched
from hcsched.cli import main
from hcsched.errors import HcschedError
from hcsched.heuristics import PLUGIN_ERRORS, PLUGINS, load_entry_points, register_heuristic, unregister_heuristic
from hcsched.heuristics.plugins import LOADED, ensure_plugins, load_plugin_file, plugin_name


def copy_of(name: str, model: str, new: str, origin: str = "plug-in (test)"):
    return dataclasses.replace(hcsched.get_heuristic(name, model), name=new, origin=origin)


def test_a_plugin_may_not_take_a_builtin_name():
    with pytest.raises(HcschedError, match="built-in heuristic of that name"):
        register_heuristic(copy_of("mct", "etc", "mct"))


def test_two_plugins_of_one_name_from_two_places_are_refused():
    register_heuristic(copy_of("mct", "etc", "twin", "plug-in (a.py)"))
    register_heuristic(copy_of("mct", "etc", "twin", "plug-in (a.py)"))  # the same place again: replaced
    with pytest.raises(HcschedError, match="comes from both plug-in \\(a.py\\) and plug-in \\(b.py\\)"):
        register_heuristic(copy_of("mct", "etc", "twin", "plug-in (b.py)"))


def test_a_registered_plugin_runs_like_a_builtin_and_can_be_removed():
    h = register_heuristic(copy_of("mct", "etc", "copy-of-mct"))
    sc = hcsched.Scenario(machines=3, tasks=20, heuristics=["mct", "copy-of-mct"], trials=2)
    results = hcsched.simulate(sc, jobs=1)
    mine, theirs = (results[results.heuristic == x].drop(columns="heuristic").reset_index(drop=True)
                    for x in ("copy-of-mct", "mct"))
    assert mine.equals(theirs)
    unregister_heuristic(h.name, "etc")
    with pytest.raises(HcschedError, match="no plug-in is installed here"):
        hcsched.Scenario(heuristics=["copy-of-mct"])


def test_an_unknown_name_lists_the_plugins_installed():
    register_heuristic(copy_of("mct", "etc", "mine"))
    with pytest.raises(HcschedError, match=r"unknown heuristic 'theirs' \(plug-ins installed here: mine "
                                           r"\(plug-in \(test\)\)\)"):
        hcsched.Scenario(heuristics=["theirs"])


@pytest.mark.parametrize("name, ok", [("my_rule", "my-rule"), ("Fast-MCT", "fast-mct"), ("a b", None), ("", None),
                                      ("x" * 61, None), ("é", None)])
def test_plugin_names(name, ok):
    if ok:
        assert plugin_name(name) == ok
    else:
        with pytest.raises(HcschedError, match="is not allowed"):
            plugin_name(name)


@pytest.mark.parametrize("text, message", [
    ("def f(:\n", "--plugin bad.py: SyntaxError"),
    ("raise RuntimeError('boom')\n", "--plugin bad.py: RuntimeError: boom"),
    ("x = 1\n", "--plugin bad.py: no heuristic in it"),
])
def test_a_bad_plugin_file_is_one_line_and_exit_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.py"
    path.write_text(text)
    assert main(["list", "--plugin", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_plugin_file(capsys):
    assert main(["list", "--plugin", "/nonexistent/rules.py"]) == 2
    assert "--plugin '/nonexistent/rules.py': cannot be read" in capsys.readouterr().err


def test_a_plugin_file_is_read_as_a_regular_file_only(capsys):
    assert main(["list", "--plugin", "/dev/zero"]) == 2
    assert "not a regular file" in capsys.readouterr().err


PLUGIN_FILE = """
import dataclasses
import hcsched
lazy_mct = dataclasses.replace(hcsched.get_heuristic("mct", "etc"), name="lazy-mct", origin="plug-in (rules.py)")
"""


def test_a_plugin_file_is_listed_with_where_it_comes_from(tmp_path, capsys):
    path = tmp_path / "rules.py"
    path.write_text(PLUGIN_FILE)
    assert main(["list", "--model", "etc", "--plugin", str(path)]) == 0
    out = capsys.readouterr().out
    assert "lazy-mct" in out and "plug-in (rules.py)" in out
    assert "Maheswaran et al. 1999, sec. 3.2: Minimum completion time" in out
    assert "sec. -" not in out and "sec. Potts" not in out


def test_a_worker_loads_the_plugin_files_it_is_sent(tmp_path):
    path = tmp_path / "rules.py"
    path.write_text(PLUGIN_FILE)
    load_plugin_file(path)
    sources = dict(LOADED)
    PLUGINS.pop(("etc", "lazy-mct"))
    LOADED.clear()
    ensure_plugins(sources)  # as a Dask worker or a fresh interpreter does before its first chunk
    assert hcsched.get_heuristic("lazy-mct", "etc").origin == "plug-in (rules.py)"


def _distribution(tmp_path, name: str, target: str, module: str) -> None:
    """An installed package offering ``target`` under the entry point group hcsched.heuristics (a dist-info folder
    on sys.path, as pip writes it)."""
    info = tmp_path / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[hcsched.heuristics]\nrules = {target}\n")
    (tmp_path / f"{name.replace('-', '_')}.py").write_text(textwrap.dedent(module))


def test_installed_packages_offer_heuristics_by_entry_point(tmp_path, monkeypatch, capsys):
    _distribution(tmp_path, "team-rules", "team_rules", """
        import dataclasses
        import hcsched
        team_mct = dataclasses.replace(hcsched.get_heuristic("mct", "etc"), name="team-mct")
    """)
    _distribution(tmp_path, "broken-rules", "broken_rules:nothing", "raise ImportError('no numpy here')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    load_entry_points(reload=True)
    try:
        h = hcsched.get_heuristic("team-mct", "etc")
        assert h.origin == "entry point (team-rules)" and h.plugin
        assert "entry point rules (broken-rules)" in PLUGIN_ERRORS
        assert main(["list", "--model", "etc"]) == 0
        out = capsys.readouterr().out
        assert "team-mct" in out and "entry point (team-rules)" in out
        assert "not loaded: entry point rules (broken-rules): ImportError: no numpy here" in out
    finally:
        sys.modules.pop("team_rules", None)
        sys.modules.pop("broken_rules", None)


def test_a_plugin_files_heuristic_runs_in_a_pools_worker_processes(tmp_path):
    """A run in a pool (the dashboard's, or one a script makes with ``using``) whose worker processes started before
    the file was loaded: each chunk carries the file, as for Dask's workers."""
    from hcsched.pool import Pool
    from hcsched.runner import using

    path = tmp_path / "rules.py"
    path.write_text(PLUGIN_FILE)
    load_plugin_file(path)
    scenario = hcsched.preset("quickstart").replace(trials=4, tasks=100, heuristics=["lazy-mct", "mct"])
    alone = hcsched.simulate(scenario, jobs=1)
    with Pool(2) as pool, using(pool, owner="test"):
        rows = hcsched.simulate(scenario)
    assert rows.equals(alone) and set(rows["heuristic"]) == {"lazy-mct", "mct"}
