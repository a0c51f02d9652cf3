"""The arrival rate against the workload (Maheswaran et al., section 5.1): calibration's limits and the quick load check
that tells when a rate no longer fits the machines and ETC values."""

import pytest

from hcsched import HcschedError, calibrate, preset, simulate
from hcsched.models.etc.calibration import CHECK_TASKS, load_check
from hcsched.models.etc.spec import ArrivalSpec, EtcSpec


def test_load_check_is_mcts_utilisation_on_the_first_trial():
    sc = preset("quickstart")
    check = load_check(sc)
    mct = simulate(sc.replace(heuristics=("mct",), trials=1), jobs=1).iloc[0]
    assert check.tasks == sc.tasks == 200
    assert check.utilisation == pytest.approx(mct["utilization"], rel=1e-12)
    assert check.verdict == "ok" and check.utilisation > 0.8
    assert 0.3 < check.completed < 0.7  # quickstart is at lambda_h: about half the tasks done at the last arrival


@pytest.mark.parametrize("name", ["maheswaran-fig4", "maheswaran-fig10", "maheswaran-fig11"])
def test_the_papers_own_rates_pass_the_check(name):
    """lambda_h, lambda_l and lambda_t (Figs. 9-11): the queue grows at lambda_h and lambda_t by design, no warning."""
    check = load_check(preset(name))
    assert check.verdict == "ok" and check.tasks == CHECK_TASKS


def test_more_machines_at_the_same_rate_idle_until_recalibrated():
    sc = preset("quickstart").replace(machines=100)
    check = load_check(sc)
    assert check.verdict == "idle" and check.utilisation < 0.05 and "Nearly idle" in check.message
    rate = calibrate(sc, "lambda_h")
    assert load_check(sc.replace(arrivals=ArrivalSpec("poisson", rate))).verdict == "ok"


def test_low_heterogeneity_at_a_hihi_rate_is_idle():
    """LoLo ETC values are about 300 times smaller than HiHi's: the HiHi rate leaves the machines idle."""
    sc = preset("quickstart")
    lolo = sc.replace(etc=EtcSpec("range", 1000.0, 10.0))
    assert load_check(lolo).utilisation < 0.1 * load_check(sc).utilisation


def test_fewer_machines_overload():
    check = load_check(preset("quickstart").replace(machines=2))
    assert check.verdict == "overloaded" and check.completed < 0.1 and check.offered > 1
    assert "lambda_t" in check.message


def test_static_arrivals_and_other_models():
    assert load_check(preset("quickstart").replace(arrivals=ArrivalSpec("static"))) is None
    with pytest.raises(HcschedError, match="'classes'"):
        load_check(preset("alazzoni-B"))


def test_calibrate_refuses_targets_no_rate_reaches():
    one_task = preset("quickstart").replace(etc=EtcSpec("matrix", matrix=((3.0, 5.0),)))
    with pytest.raises(HcschedError, match="more tasks"):
        calibrate(one_task, "lambda_h")
    zero = preset("quickstart").replace(etc=EtcSpec("matrix", matrix=((0.0, 0.0),) * 4))
    with pytest.raises(HcschedError, match="zero"):
        calibrate(zero, "lambda_h", trials=1)
