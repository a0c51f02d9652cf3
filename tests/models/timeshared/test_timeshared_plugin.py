"""The time-shared model's plug-in interface (hcsched/models/timeshared/plugin.py): a user's rule choosing the server
of an arriving task from the HTM's predictions, numba or plain Python, runs in the engine's one loop; one that
re-implements a built-in gives its results byte for byte; a bad rule stops with one line naming it; registering one
changes no preset; Explain shows a plug-in's own choice."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

import hcsched
from hcsched import HcschedError, simulate
from hcsched.heuristics import register_heuristic
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.models.timeshared import HTM, MODEL, engine
from hcsched.models.timeshared.heuristics import HEURISTICS, NUMBA_FACTOR, PYTHON_FACTOR, TimesharedHeuristic
from hcsched.models.timeshared.htm import explain_problem
from hcsched.models.timeshared.workload import make_workload
from hcsched.sampling import trial_seeds
from hcsched.scenario import HeuristicSpec
from hcsched.testing import check_heuristic

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "plugins" / "timeshared_rules.py"
ARGS = ("now", "cost", "start", "before", "after", "t_new", "load", "params", "rng")


def _tiny(trials: int = 3, **changes):
    return MODEL.tiny().replace(trials=trials, **changes)


def _crowded():
    """Every task at once on few servers: many ties, every tie rule at work."""
    return _tiny(2, servers=3, tasks=30, mean_interarrival=0.0)


def _rows(results, label: str) -> str:
    """A heuristic's rows without its label (and the normalised columns, which depend on the benchmark)."""
    own = results[results["heuristic"] == label]
    return own[[c for c in own.columns if c != "heuristic" and not c.startswith("normalized_")]].to_csv(index=False)


def _same_as(plugin_obj, builtin: str, sc) -> None:
    results, schedules = simulate(sc, heuristics=[plugin_obj, builtin], jobs=1, schedules=True)
    assert _rows(results, plugin_obj.name) == _rows(results, builtin)
    mine, theirs = (schedules[schedules["heuristic"] == x].drop(columns="heuristic")
                    for x in (plugin_obj.name, builtin))
    assert mine.to_csv(index=False) == theirs.to_csv(index=False)


# --- MP and HMCT again, as a user would write them ----------------------------------------------------------------
def py_mp(now, cost, start, before, after, t_new, load, params, rng):
    """Section 6.4.1: the smallest sum of perturbations; ties (within params[0] s) by MCT, then the lowest index."""
    tol, m = params[0], t_new.size
    p = np.zeros(m)
    for j in range(m):
        s = 0.0
        for i in range(start[j], start[j + 1]):
            s += after[i] - before[i]
        p[j] = s
    best = np.inf
    for j in range(m):
        best = min(best, p[j])
    soonest, choice = np.inf, -1
    for j in range(m):
        if p[j] <= best + tol and t_new[j] < soonest:
            soonest = t_new[j]
    for j in range(m):
        if p[j] <= best + tol and t_new[j] <= soonest + tol:
            choice = j
            break
    return choice


nb_mp = njit(py_mp)


def py_hmct(now, cost, start, before, after, t_new, load, params, rng):
    best = t_new.min()
    return int(np.flatnonzero(t_new <= best + params[0])[0])


@pytest.mark.parametrize("rule", [py_mp, nb_mp], ids=["python", "numba"])
def test_a_rule_re_implementing_mp_gives_mps_results(rule):
    mine = hcsched.heuristic("timeshared", name=f"my-mp-{type(rule).__name__.lower()}", params={"tol": 1e-6})(rule)
    assert mine.rule is rule and mine.kind == engine.PLUGIN
    for sc in (_tiny(), _crowded()):
        _same_as(mine, "mp", sc)


def test_a_rule_re_implementing_hmct_asking_only_the_new_tasks_completion_gives_hmcts_results():
    mine = hcsched.heuristic("timeshared", name="my-hmct", params={"tol": 1e-6}, predicts="new")(py_hmct)
    _same_as(mine, "hmct", _crowded())
    _same_as(mine, "hmct", _tiny())


def test_the_example_plugins_run_beside_a_builtin_and_pass_the_battery():
    found = load_plugin_file(EXAMPLES)
    assert [h.name for h in found] == ["random-k-soonest", "perturbation-plus-length"]
    results = simulate(_tiny(2), heuristics=[*found, "mp"], jobs=1)
    assert set(results["heuristic"]) == {"random-k-soonest", "perturbation-plus-length", "mp"}
    for h in found:
        check_heuristic(h, model="timeshared")


def test_a_random_rule_draws_the_trials_own_numbers():
    @hcsched.heuristic("timeshared")
    def coin(now, cost, start, before, after, t_new, load, params, rng):
        return int(rng.integers(0, t_new.size))

    sc = _tiny(2)
    once = simulate(sc, heuristics=[coin, "hmct"], jobs=1, schedules=True)[1]
    again = simulate(sc, heuristics=["netsolve-mct", coin], jobs=1, schedules=True)[1]
    mine = [s[s["heuristic"] == "coin"].drop(columns="heuristic").to_csv(index=False) for s in (once, again)]
    assert mine[0] == mine[1]
    trials = once[once["heuristic"] == "coin"].groupby("trial")["machine"].apply(tuple)
    assert trials.iloc[0] != trials.iloc[1]  # each trial its own draws


def test_the_plain_python_rule_reads_read_only_arrays_and_the_documented_inputs():
    seen = {}

    @hcsched.heuristic("timeshared", params={"w": 2.0, "mode": "x"})
    def look(now, cost, start, before, after, t_new, load, params, rng):
        seen.setdefault("first", (now, cost.copy(), start.copy(), t_new.copy(), load.copy(), params.copy()))
        for a in (cost, start, before, after, t_new, load, params):
            assert not a.flags.writeable
        m = t_new.size
        assert cost.shape == (m, 3) and start.size == m + 1 and start[m] <= before.size
        assert (load == [np.sum(before[start[j]:start[j + 1]] > now) for j in range(m)]).all()
        return 0

    simulate(_tiny(1), heuristics=[look], jobs=1)
    now, cost, start, t_new, load, params = seen["first"]
    assert now == 0.0 and (start == 0).all() and (load == 0).all() and list(params) == [2.0, 0.0]
    # alone on an idle server, the task ends after its three phases
    np.testing.assert_allclose(t_new, cost.sum(axis=1), rtol=1e-12)


def test_every_dispatch_on_a_kind_fails_loudly_on_an_unknown_kind():
    W = np.ones((2, 2, 3))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.loop(99, engine.no_rule, np.arange(2), np.zeros(2), W, engine.FULL, 1e-6, False, False, 0,
                    np.zeros(0), np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.loop(-1, engine.no_rule, np.arange(0), np.zeros(0), W[:0], engine.FULL, 1e-6, False, False, 0,
                    np.zeros(0), np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.scores(engine.PLUGIN, 0, 0.0, np.zeros(1), np.zeros(1), np.ones(3), 0.0, np.zeros(3))
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        engine.loop.py_func(99, engine.no_rule, np.arange(2), np.zeros(2), W, engine.FULL, 1e-6, False, False, 0,
                            np.zeros(0), np.random.default_rng(0))
    odd = TimesharedHeuristic("odd", "Odd", "immediate", 42, "-", "no such kernel", models=("timeshared",))
    w = make_workload(_tiny().spec, trial_seeds(3, 1)[0])
    with pytest.raises(ValueError, match="unknown heuristic kind"):
        odd.mapping(_tiny().spec, {}, w)


def test_registering_a_plugin_changes_no_preset():
    before = {name: sc().to_dict() for name, sc in MODEL.presets().items()}
    hcsched.heuristic("timeshared", name="zz-rule")(py_hmct)
    assert {name: sc().to_dict() for name, sc in MODEL.presets().items()} == before
    assert all("zz-rule" not in [h.name for h in sc().heuristics] for sc in MODEL.presets().values())


def _one_line_error(h, match: str) -> None:
    with pytest.raises(HcschedError) as info:
        simulate(_tiny(1), heuristics=[h], jobs=1)
    text = str(info.value)
    assert "\n" not in text and f"heuristic {h.name!r}" in text, text
    assert match in text, text


def test_a_bad_rule_gets_one_line_naming_it_and_what_is_allowed():
    def far(*args):
        return 4

    def text(*args):
        return "s1"

    def boom(*args):
        raise ZeroDivisionError("no")

    def writes(now, cost, start, before, after, t_new, load, params, rng):
        t_new[0] = 0.0
        return 0

    @njit
    def nb_far(now, cost, start, before, after, t_new, load, params, rng):
        return t_new.size

    @njit
    def nb_boom(now, cost, start, before, after, t_new, load, params, rng):
        if now >= 0.0:
            raise ZeroDivisionError("no")
        return 0

    @njit
    def nb_none(now, cost, start, before, after, t_new, load, params, rng):  # returns nothing: not a rule's type
        raise ZeroDivisionError("no")

    _one_line_error(hcsched.heuristic("timeshared")(far), "returned server 4 for task 0; allowed: a server index "
                                                          "from 0 to 3")
    _one_line_error(hcsched.heuristic("timeshared")(text), "returned 's1'; allowed: a server index, an integer from "
                                                           "0 to 3")
    _one_line_error(hcsched.heuristic("timeshared")(boom), "its rule raised ZeroDivisionError: no")
    _one_line_error(hcsched.heuristic("timeshared")(writes), "its rule raised ValueError: assignment destination is "
                                                             "read-only")
    _one_line_error(hcsched.heuristic("timeshared")(nb_far), "returned server 4 for task 0; allowed: a server "
                                                             "index from 0 to 3")
    _one_line_error(hcsched.heuristic("timeshared")(nb_boom), "its rule raised ZeroDivisionError: no")
    _one_line_error(hcsched.heuristic("timeshared")(nb_none),
                    "its rule raised TypeError: mismatch of return type: none vs int64")


def test_capabilities_cost_and_parameters():
    with pytest.raises(HcschedError, match="capability 'mode' is not one of the time-shared model's; allowed: "
                                           "predicts, cost"):
        hcsched.heuristic("timeshared", mode="batch")(py_hmct)
    with pytest.raises(HcschedError, match="predicts='some' is not allowed; allowed: full, new, off"):
        hcsched.heuristic("timeshared", predicts="some")(py_hmct)
    sc = _tiny()
    mp = HEURISTICS[3]
    base = mp.trial_seconds(sc.spec, HeuristicSpec.make("mp", model="timeshared"))
    python = register_heuristic(hcsched.heuristic("timeshared", name="slow")(py_mp))
    compiled = register_heuristic(hcsched.heuristic("timeshared", name="fast")(nb_mp))
    own = register_heuristic(hcsched.heuristic("timeshared", name="own", cost=lambda spec, h: 0.25)(py_mp))
    for h, expected in ((python, PYTHON_FACTOR * base), (compiled, NUMBA_FACTOR * base), (own, 0.25)):
        assert h.trial_seconds(sc.spec, HeuristicSpec.make(h.name, model="timeshared")) == pytest.approx(expected)
    # the model's estimate is the heuristics' own costs and the reference's run once more
    hs = sc.replace(heuristics=["mp", "own"]).heuristics
    assert MODEL.trial_seconds(sc.spec, hs) == pytest.approx(base + 0.25 + base)


def test_explain_shows_a_plugins_own_choice_and_its_replay_agrees_with_its_run():
    @hcsched.heuristic("timeshared")
    def last(now, cost, start, before, after, t_new, load, params, rng):
        return t_new.size - 1

    register_heuristic(last)
    sc = _tiny(1)
    spec = HeuristicSpec.make("last", model="timeshared")
    w = make_workload(sc.spec, trial_seeds(sc.seed, 1)[0])
    htm = HTM.of(w, sc.spec.duplex, sc.spec.tie_tolerance)
    p = htm.predict(int(w.order[0]), [spec])
    assert p.choice["last"] == sc.spec.servers - 1 and p.choice["mp"] == htm.decide(int(w.order[0]), sc.heuristics[2])
    assert explain_problem(sc, spec) is None
    for h in ("netsolve-mct", "hmct", "mp"):
        assert explain_problem(sc, HeuristicSpec.make(h, model="timeshared")) is None
    reports = HeuristicSpec.make("netsolve-mct", model="timeshared", load="reports")
    assert explain_problem(_tiny(1, mean_interarrival=100.0), reports) is None


def test_every_builtin_passes_the_battery():
    for name in hcsched.heuristic_names(model="timeshared"):
        check_heuristic(name, model="timeshared")
