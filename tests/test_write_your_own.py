"""The examples of "Write your own heuristic" (docs/plugins/MODEL_rules.py), run as written: each file's heuristics
through the API, ``hcsched run --plugin``, a sweep, ``hcsched compare`` and the battery of checks; the ETC file's on
a Dask cluster too. The page includes each file whole, so what a reader copies is what runs here."""

import json
from pathlib import Path

import pandas as pd
import pytest

import hcsched
from hcsched.cli import main
from hcsched.heuristics import PLUGINS
from hcsched.heuristics.plugins import LOADED, load_plugin_file
from hcsched.testing import check_heuristic

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "docs" / "plugins").glob("*_rules.py"))
PAGE = (ROOT / "docs" / "write-your-own-heuristic.md").read_text()


@pytest.fixture
def plugins():
    before, loaded = dict(PLUGINS), dict(LOADED)
    yield
    PLUGINS.clear()
    PLUGINS.update(before)
    LOADED.clear()
    LOADED.update(loaded)


def _scenario_file(tmp_path, model: str, names: list[str], **changes) -> Path:
    tiny = hcsched.get_model(model).tiny()
    sc = tiny.replace(heuristics=[*names, tiny.heuristics[0].name], benchmark=None, trials=2, **changes)
    path = tmp_path / f"{model}.json"
    path.write_text(json.dumps(sc.to_dict()))
    return path


def test_every_model_has_an_example_on_the_page():
    assert {f.name.removesuffix("_rules.py") for f in FILES} == set(hcsched.model_names())
    for f in FILES:
        assert f"docs/plugins/{f.name}" in PAGE, f"{f.name} is not included in the page"
        assert len(f.read_text().splitlines()) <= 30, f"{f.name} is longer than 30 lines"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_an_example_runs_through_the_api_and_passes_the_battery(path, plugins):
    found = load_plugin_file(path)
    assert found
    for h in found:
        model = h.models[0]
        tiny = hcsched.get_model(model).tiny()
        results = hcsched.simulate(tiny, heuristics=[h, tiny.heuristics[0].name], trials=2, jobs=1)
        assert set(results["heuristic"]) == {h.name, tiny.heuristics[0].label}
        check_heuristic(h)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_an_example_runs_through_the_command_line(path, plugins, tmp_path, capsys):
    names = [h.name for h in load_plugin_file(path)]
    scenario = _scenario_file(tmp_path, _model_of(names[0]), names)
    PLUGINS.clear()  # the command line loads the file itself
    out = tmp_path / "results.csv"
    assert main(["run", str(scenario), "--plugin", str(path), "--jobs", "2", "--out", str(out)]) == 0, \
        capsys.readouterr().err
    results = pd.read_csv(out, comment="#")
    assert set(names) <= set(results["heuristic"])
    again = tmp_path / "again.csv"
    assert main(["run", str(scenario), "--plugin", str(path), "--jobs", "1", "--out", str(again)]) == 0
    assert again.read_bytes() == out.read_bytes()  # forked workers and this process agree, byte for byte
    assert main(["compare", str(out), str(again), "--plugin", str(path)]) == 0, capsys.readouterr().err
    assert main(["sweep", str(scenario), "--vary", "seed=1,2", "--plugin", str(path), "--jobs", "2",
                 "--out", str(tmp_path / "sweep.csv")]) == 0, capsys.readouterr().err
    assert set(names) <= set(pd.read_csv(tmp_path / "sweep.csv", comment="#")["heuristic"])
    PLUGINS.clear()
    assert main(["run", str(scenario), "--out", str(tmp_path / "x.csv")]) == 2  # without the file: one line
    assert "no plug-in is installed here" in capsys.readouterr().err


def _model_of(name: str) -> str:
    return next(m for (m, n) in PLUGINS if n == name)


def test_the_etc_example_on_a_dask_cluster_gives_the_local_result(plugins, tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    path = ROOT / "docs" / "plugins" / "etc_rules.py"
    names = [h.name for h in load_plugin_file(path)]
    scenario = _scenario_file(tmp_path, "etc", names)
    PLUGINS.clear()
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    args = ["sweep", str(scenario), "--vary", "machines=3,4", "--plugin", str(path)]
    assert main([*args, "--jobs", "1", "--out", str(local)]) == 0, capsys.readouterr().err
    assert main([*args, "--backend", "dask", "--jobs", "2", "--out", str(remote)]) == 0, capsys.readouterr().err
    assert remote.read_bytes() == local.read_bytes()
