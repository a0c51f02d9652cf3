"""One contract over every registered system model (like the one over every heuristic).

A tiny scenario of each model runs through ``simulate``, the CLI and the
Results page; its rows have the columns its metric descriptions promise; the
same seed gives the same rows. A new model is picked up here by registering it.
"""

import importlib
import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import ROOT, panel_titles

from hcsched import (
    MODELS,
    HcschedError,
    Scenario,
    get_model,
    heuristic_names,
    model_names,
    preset,
    simulate,
    trial_runs,
    trial_schedules,
)
from hcsched import registry as models_registry
from hcsched.cli import main
from hcsched.experiment import SCHEDULE_COLUMNS, trial_seeds
from hcsched.export import results_csv
from hcsched.heuristics import registry
from hcsched.metrics import Schedule
from hcsched.models.base import Model

NAMES = model_names()
UI_FUNCTIONS = ("editor", "reset", "overview", "trial_charts")
# The models whose trials draw how many tasks arrive (Poisson streams over a horizon or a duration): their scale() is
# the expected count. Every other model's count is fixed by its spec.
RANDOM_TASK_COUNT = frozenset({"classes", "value"})


def test_the_registry_lists_models_by_their_names():
    assert NAMES[0] == "etc" and len(NAMES) >= 2 and len(set(NAMES)) == len(NAMES)
    for name, model in MODELS.items():
        assert isinstance(model, Model) and model.name == name and get_model(name) is model and model.title


@pytest.mark.parametrize("name", NAMES)
def test_tiny_scenario_columns_match_the_metric_descriptions(name):
    model = get_model(name)
    sc = model.tiny()
    assert sc.model == name and sc.trials >= 2
    df = simulate(sc, jobs=1)
    assert list(df.columns) == ["trial", "heuristic", *(m.name for m in model.columns(sc.spec))]
    assert len(df) == sc.trials * len(sc.heuristics)
    assert df["heuristic"].tolist() == [h.label for h in sc.heuristics] * sc.trials
    bars = model.bar_metrics()
    assert bars and all(m.better in ("lower", "higher", "") for m in model.columns())
    assert all(np.issubdtype(df[m.name].dtype, np.number) or df[m.name].dtype == bool for m in model.columns(sc.spec))


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_rows_and_jobs_do_not_matter(name):
    sc = get_model(name).tiny()
    one = simulate(sc, jobs=1)
    pd.testing.assert_frame_equal(one, simulate(sc, jobs=2))
    pd.testing.assert_frame_equal(one, simulate(Scenario.from_dict(sc.to_dict()), jobs=1))  # the JSON round trip
    assert not simulate(sc, seed=sc.seed + 1, jobs=1).equals(one)


@pytest.mark.parametrize("name", NAMES)
def test_common_random_numbers_within_a_trial(name):
    """Every heuristic of a trial sees the same arrivals; a workload depends on its seed sequence alone."""
    model, sc = get_model(name), get_model(name).tiny()
    a, b = (model.workload(sc.spec, trial_seeds(sc.seed, 1)[0]) for _ in range(2))
    runs = trial_runs(sc, 0)
    arrivals = [model.schedule(r).arrival for r in runs.values()]
    for arrival in arrivals[1:]:
        np.testing.assert_array_equal(arrival, arrivals[0])
    for field in vars(a):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


@pytest.mark.parametrize("name", NAMES)
def test_schedules_table(name):
    model, sc = get_model(name), get_model(name).tiny()
    results, table = simulate(sc, jobs=1, schedules=True)
    pd.testing.assert_frame_equal(results, simulate(sc, jobs=1))
    assert list(table.columns) == [*SCHEDULE_COLUMNS, *model.schedule_columns]
    assert len(table) == sum(len(model.schedule(r).arrival) for t in range(sc.trials)
                             for r in trial_runs(sc, t).values())
    done = table.dropna(subset=["start", "finish"])
    assert (done["start"] >= done["arrival"]).all() and (done["finish"] >= done["start"]).all()
    for run in trial_runs(sc, 0).values():
        assert isinstance(model.schedule(run), Schedule)


@pytest.mark.parametrize("name", NAMES)
def test_scale_is_the_size_of_a_trial(name):
    """scale(spec), the (tasks, machines) a cap on a scenario's size reads, against trial 0 of the tiny scenario and of
    the default preset: the distinct tasks and machines of its schedule. Machines exactly (the schedule's count, and
    every one of them ran a task); tasks exactly where the spec fixes the count, and within 25% where arrivals are
    random (RANDOM_TASK_COUNT: scale gives the expected count, a trial its own draw). One heuristic is run: a trial's
    tasks and machines are its workload's, the same for every heuristic (common random numbers, above), and the
    default presets' full line-ups take up to 2 s a trial."""
    model = get_model(name)
    for sc in (model.tiny(), preset(model.default_preset)):
        tasks, machines = model.scale(sc.spec)
        assert isinstance(tasks, int) and isinstance(machines, int) and tasks > 0 and machines > 0
        (schedule,) = trial_schedules(sc.replace(heuristics=sc.heuristics[:1], benchmark=None), 0).values()
        frame = schedule.to_frame()
        assert schedule.machines == machines and frame["machine"].between(0, machines - 1).all()
        assert frame["machine"].nunique() == machines, sc.name
        actual = frame["task"].nunique()
        if name in RANDOM_TASK_COUNT:
            assert abs(actual - tasks) <= 0.25 * tasks, (sc.name, actual, tasks)
        else:
            assert actual == tasks, (sc.name, actual, tasks)


@pytest.mark.parametrize("name", NAMES)
def test_cli_runs_the_model_and_writes_both_csvs(name, tmp_path, capsys):
    sc = get_model(name).tiny()
    sc.save(tmp_path / "s.json")
    code = main(["run", str(tmp_path / "s.json"), "--jobs", "1", "--out", str(tmp_path / "r.csv"),
                 "--schedules", str(tmp_path / "sched.csv")])
    out = capsys.readouterr().out
    assert code == 0 and "mean [95% interval]" in out and all(h.label in out for h in sc.heuristics)
    results, table = simulate(sc, jobs=1, schedules=True)
    assert (tmp_path / "r.csv").read_text() == results_csv(sc, results)
    assert (tmp_path / "sched.csv").read_text() == table.to_csv(index=False)


@pytest.mark.parametrize("name", NAMES)
def test_every_model_has_heuristics_presets_and_a_dashboard_module(name):
    model = get_model(name)
    assert any(name in h.models for h in registry())
    presets = model.presets()
    assert presets and model.default_preset in presets
    for make in presets.values():
        assert make().model == name
    ui = importlib.import_module(f"pages.models.{name}")
    assert all(callable(getattr(ui, f, None)) for f in UI_FUNCTIONS)


@pytest.mark.parametrize("name", NAMES)
def test_results_page_shows_the_model(name):
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from pages.runs import RunResult

    model, sc = get_model(name), get_model(name).tiny()
    at = AppTest.from_file(str(ROOT / "pages/results.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.session_state["results"] = RunResult(sc, simulate(sc, jobs=1), 0.1)
    at.run()
    assert not at.exception, at.exception
    import json

    from pages.models import ui

    bars = json.loads(at.get("plotly_chart")[0].proto.spec)
    shared = getattr(ui(name), "shared_bars", None)  # a model may chart some of its bar metrics on its own
    shown = shared(model.bar_metrics()) if shared else model.bar_metrics()
    if shown:  # else the model's own charts lead
        titles = panel_titles(bars)  # titles with their units: a time in the unit its axis is ticked in
        assert [t if m.unit != "s" else m.label for t, m in zip(titles, shown, strict=True)] == [m.label for m in shown]
        assert all(t in [f"{m.title} ({u})" for u in ("s", "h", "d", "yr")]
                   for t, m in zip(titles, shown, strict=True) if m.unit == "s"), titles
    labels = [b.label for b in at.get("download_button")]
    assert {"Per-trial results (CSV)", "Summary with intervals (CSV)", "Scenario (JSON)"} <= set(labels)
    assert f"Gantt table, whole {model.trial_word} 0 (CSV)" in labels


def test_no_branch_on_a_model_name_outside_the_models():
    """Only hcsched/models/ and the dashboard's pages/models/ know which models exist. Comparing two scenarios' models
    (``a.model == b.model``: two runs compare only within one model) names none and is allowed."""
    names = "|".join(NAMES)
    pattern = re.compile(rf"""(==|!=|\bin\b)\s*\(?\s*["']({names})["']|["']({names})["']\s*(==|!=)""")
    files = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    offenders = []
    for rel in files:
        if rel.startswith(("hcsched/models/", "pages/models/", "tests/")):
            continue
        for i, line in enumerate(Path(ROOT / rel).read_text().splitlines(), 1):
            if pattern.search(line) or re.search(r"\.model\s*(==|!=)(?!\s*[\w.]+\.model\b)", line):
                offenders.append(f"{rel}:{i}: {line.strip()}")
    assert not offenders, offenders


def test_the_registry_holds_every_model_and_answers_an_unknown_name():
    """hcsched.registry is the list hcsched.models fills: a model given is returned as it is, anything else that names
    no model is an error naming the valid ones."""
    assert models_registry.MODELS is MODELS and models_registry.DEFAULT_MODEL in MODELS
    for name in NAMES:
        assert isinstance(get_model(name), Model) and get_model(get_model(name)) is get_model(name)
    for wrong in (None, "etcc", 3):
        with pytest.raises(HcschedError, match="scenario field 'model': .* allowed: one of etc, classes"):
            get_model(wrong)


def test_each_models_own_commands_and_functions():
    """A model's own CLI commands and public functions come from the model (Model.commands(), Model.functions()):
    no name is taken twice, none shadows a shared command or name of the hcsched API, and each function is reached
    as hcsched.MODEL.NAME and, as before, hcsched.NAME."""
    import hcsched
    from hcsched.cli import build_parser
    from hcsched.models import Command

    commands = [c for name in NAMES for c in get_model(name).commands()]
    assert all(isinstance(c, Command) and c.help and callable(c.add_arguments) and callable(c.run) for c in commands)
    names = [c.name for c in commands]
    assert len(set(names)) == len(names) and {"map", "calibrate", "lp"} <= set(names)
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices)[-len(names):] == names  # after the shared ones, none of which it replaced
    functions = [(name, f) for name in NAMES for f in get_model(name).functions().items()]
    assert len({f for _, (f, _) in functions}) == len(functions)
    assert {"map_tasks", "MappingResult", "calibrate", "solve_allocation"} <= {f for _, (f, _) in functions}
    for model, (name, obj) in functions:
        assert name not in hcsched.__all__ and name not in NAMES
        assert getattr(getattr(hcsched, model), name) is obj and getattr(hcsched, name) is obj
    with pytest.raises(AttributeError, match="no attribute 'no_such_function'"):
        hcsched.no_such_function  # noqa: B018


@pytest.mark.parametrize("name", NAMES)
def test_every_heuristic_has_a_cost_estimate(name):
    """The progress bar's estimate covers every heuristic of the model, each with its default parameters."""
    model = get_model(name)
    sc = model.tiny()
    for h in heuristic_names(model=name):
        seconds = model.trial_seconds(sc.spec, sc.replace(heuristics=[h]).heuristics)
        assert math.isfinite(seconds) and seconds >= 0, h
