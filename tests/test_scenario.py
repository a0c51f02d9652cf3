import json

import pytest

from hcsched import HcschedError, Scenario, load_scenario, preset, preset_names
from hcsched.scenario import parse_scenario


@pytest.mark.parametrize("name", preset_names())
def test_presets_round_trip_json_and_toml(tmp_path, name):
    sc = preset(name)
    for suffix in (".json", ".toml"):
        path = tmp_path / f"s{suffix}"
        sc.save(path)
        assert load_scenario(path) == sc
    assert hash(sc) == hash(parse_scenario(sc.to_json()))


def test_user_matrix_from_file(tmp_path):
    (tmp_path / "etc.csv").write_text("1,2\n3,4\n5,6\n")
    (tmp_path / "s.json").write_text(json.dumps({"etc": {"path": "etc.csv"},
                                                 "heuristics": ["mct", {"name": "kpb", "k": 50}],
                                                 "arrivals": {"process": "static"}, "trials": 2}))
    sc = load_scenario(tmp_path / "s.json")
    assert (sc.tasks, sc.machines) == (3, 2) and sc.etc.method == "matrix"
    assert [h.label for h in sc.heuristics] == ["mct", "kpb (k=50)"]
    assert parse_scenario(sc.to_json()) == sc


def test_heterogeneity_shorthand():
    sc = Scenario.from_dict({"etc": {"heterogeneity": "LoHi"}, "heuristics": ["mct"]})
    assert (sc.etc.task_het, sc.etc.machine_het) == (1000.0, 100.0)


@pytest.mark.parametrize("data, words", [
    ({"heuristics": []}, "empty"),
    ({"heuristics": ["mtc"]}, "did you mean .*mct"),
    ({"heuristics": ["mct"], "machines": 0}, "'machines': 0"),
    ({"heuristics": ["mct"], "tasks": 2.5}, "'tasks'"),
    ({"heuristics": ["mct"], "arrivals": {"rate": -1}}, "'arrivals.rate': -1"),
    ({"heuristics": ["mct"], "etc": {"consistency": "mostly"}}, "one of consistent"),
    ({"heuristics": ["mct"], "colour": 1}, "unknown key 'colour'"),
    ({"heuristics": ["mct", "mct"]}, "used twice"),
    ({"heuristics": ["mct"], "benchmark": "met"}, "'benchmark'"),
    ({"heuristics": ["mct"], "etc": {"method": "matrix", "matrix": [[1, 2], [3]]}}, "different lengths"),
    ({"heuristics": ["mct"], "etc": {"method": "matrix", "matrix": [[1, -2]]}}, "non-negative"),
])
def test_invalid_scenarios_name_field(data, words):
    with pytest.raises(HcschedError, match=words):
        Scenario.from_dict(data)


def test_invalid_json_text():
    with pytest.raises(HcschedError, match="not valid JSON"):
        parse_scenario("{nope", source="x")


def test_the_example_files_in_assets_load():
    from helpers import ROOT

    from hcsched import read_etc
    from hcsched.models.classes.lp import solve_allocation

    examples = ROOT / "assets" / "examples"
    models = {load_scenario(p).model for p in examples.glob("*.json")}
    assert models == {"etc", "classes"}
    assert read_etc(examples / "etc-table3.csv").tolist()[0] == [40, 48, 134, 50]
    mu = read_etc(examples / "class-rates-B.csv")
    assert solve_allocation([5, 8], mu).lam > 1
