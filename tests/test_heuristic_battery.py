"""Every registered heuristic of every model passes the battery of :mod:`hcsched.testing` (as scikit-learn's
``parametrize_with_checks``): no hand-kept list of names, so a heuristic added anywhere is checked here."""

import pytest

import hcsched
from hcsched.heuristics import registry
from hcsched.testing import CHECKS, HeuristicCheckError, check_heuristic, heuristic_checks

CASES = [case for h in registry() if not h.plugin for m in h.models for case in heuristic_checks(h.name, m)]


@pytest.mark.parametrize("check", [run for _, run in CASES], ids=[name for name, _ in CASES])
def test_builtin_heuristic_passes(check):
    check()


def test_every_builtin_of_every_model_is_checked():
    names = {(m, h) for m in hcsched.model_names() for h in hcsched.heuristic_names(model=m)}
    assert len(CASES) == len(CHECKS) * len(names)


def test_a_failure_is_one_line_saying_what_to_fix(monkeypatch):
    h = hcsched.get_heuristic("mct", "etc")
    monkeypatch.setattr(type(h), "trial_seconds", lambda self, spec, hs: float("nan"))
    with pytest.raises(HeuristicCheckError) as info:
        check_heuristic(h, model="etc")
    lines = str(info.value).splitlines()
    assert lines == ["mct (etc), cost model: trial_seconds gave nan; give the seconds one trial takes on one core "
                     "(finite, > 0)"]
