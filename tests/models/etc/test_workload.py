import numpy as np
import pytest
from helpers import TABLE3_ETC

from hcsched import HcschedError, read_etc
from hcsched.models.etc import workload as wl
from hcsched.readers import parse_csv_etc, parse_hcsp_etc


def rng(seed=0):
    return np.random.default_rng(seed)


def test_range_based_bounds_and_row_structure():
    e = wl.range_based_etc(rng(), 500, 10, 3000, 100)
    assert e.shape == (500, 10)
    assert e.min() >= 1 and e.max() <= 3000 * 100
    ratio = e / e.min(axis=1, keepdims=True)  # within a row, times differ by the factor N_m only
    assert ratio.max() <= 100


def test_cov_based_means():
    e = wl.cov_based_etc(rng(), 4000, 8, 180.0, 0.3, 0.3)
    assert e.mean() == pytest.approx(180, rel=0.03)
    row_cov = (e.std(axis=1, ddof=1) / e.mean(axis=1)).mean()
    assert row_cov == pytest.approx(0.3 * 0.97, rel=0.1)  # sample COV of 8 values is a little low


def test_consistent_rows_sorted():
    e = wl.make_consistent(wl.range_based_etc(rng(), 50, 6, 3000, 100))
    assert (np.diff(e, axis=1) >= 0).all()


@pytest.mark.parametrize("mode", ["sort", "smallest"])
def test_semiconsistent_submatrix(mode):
    raw = wl.range_based_etc(rng(1), 40, 8, 3000, 100)
    e = wl.make_semiconsistent(rng(2), raw, mode)
    np.testing.assert_allclose(np.sort(e, axis=1), np.sort(raw, axis=1))  # each row keeps its values
    changed_rows = np.flatnonzero((e != raw).any(axis=1))
    assert len(changed_rows) <= 20
    # find the consistent columns again: 2 of 8, increasing for 20 rows
    r = np.random.default_rng(2)
    rows = np.sort(r.choice(40, 20, replace=False))
    cols = np.sort(r.choice(8, 2, replace=False))
    sub = e[np.ix_(rows, cols)]
    assert (np.diff(sub, axis=1) >= 0).all()
    if mode == "smallest":
        others = np.setdiff1d(np.arange(8), cols)
        assert (sub.max(axis=1) <= e[np.ix_(rows, others)].min(axis=1)).all()


def test_truncated_gaussian_positive_with_right_moments():
    e = np.full((200000, 1), 2.0)  # variance 6: many negative draws are resampled
    a = wl.truncated_gaussian_times(rng(), e)
    assert (a > 0).all()
    big = wl.truncated_gaussian_times(rng(), np.full((100000, 1), 3000.0))
    assert big.mean() == pytest.approx(3000, rel=0.002)
    assert big.var() == pytest.approx(9000, rel=0.03)


def test_gamma_times_moments():
    a = wl.gamma_times(rng(), np.full((100000, 1), 50.0), 0.1)
    assert a.mean() == pytest.approx(50, rel=0.002)
    assert (a.std() / a.mean()) == pytest.approx(0.1, rel=0.03)


def test_poisson_arrivals():
    a = wl.poisson_arrivals(rng(), 100000, 4.0)
    assert (np.diff(a) >= 0).all()
    assert a[-1] / a.size == pytest.approx(0.25, rel=0.02)


# --- readers -----------------------------------------------------------------------------------
def test_csv_with_names_and_plain():
    e, names = parse_csv_etc("task,fast,slow\na,1,2\nb,3,4\n")
    assert e.tolist() == [[1, 2], [3, 4]] and names == ["fast", "slow"]
    e, names = parse_csv_etc("1,2\n3,4\n")
    assert e.tolist() == [[1, 2], [3, 4]] and names is None
    e, names = parse_csv_etc("m0,m1\n1,2\n")
    assert names == ["m0", "m1"]


@pytest.mark.parametrize("text, words", [
    ("1,2\n3\n", "row 2 has 1 values"),
    ("1,x\n", "'x' is not a number"),
    ("1,-2\n", "-2 is not allowed"),
    ("1,nan\n", "nan is not allowed"),
    ("", "empty"),
])
def test_csv_errors_name_the_problem(text, words):
    with pytest.raises(HcschedError, match=words):
        parse_csv_etc(text)


def test_hcsp_with_and_without_header():
    body = "".join(f"{v:g}\n" for v in TABLE3_ETC.ravel())
    np.testing.assert_array_equal(parse_hcsp_etc("4 4 0\n" + body), TABLE3_ETC)
    np.testing.assert_array_equal(parse_hcsp_etc(body, machines=4), TABLE3_ETC)
    with pytest.raises(HcschedError, match="--machines"):
        parse_hcsp_etc(body)
    with pytest.raises(HcschedError, match="5 x 4 = 20 values, the file has 16"):
        parse_hcsp_etc("5 4 0\n" + body)


def test_read_etc_missing_file(tmp_path):
    with pytest.raises(HcschedError, match="cannot be read"):
        read_etc(tmp_path / "none.csv")


def test_the_twelve_hcsp_instances(hcsp_dir):
    names = sorted(p.name for p in hcsp_dir.glob("u_*.0"))
    assert len(names) == 12
    for name in names:
        e = read_etc(hcsp_dir / name)
        assert e.shape == (512, 16)
        if name.startswith("u_c_"):
            assert (np.diff(e, axis=1) >= 0).all(), name  # consistent instances are sorted rows
    # Reading without the header, as other copies have it, gives the same matrix.
    text = (hcsp_dir / "u_i_hihi.0").read_text().split("\n", 1)[1]
    np.testing.assert_array_equal(parse_hcsp_etc(text, machines=16), read_etc(hcsp_dir / "u_i_hihi.0"))



def test_csv_first_column_is_labels_only_when_every_row_or_the_header_says_so():
    with pytest.raises(HcschedError, match=r"row 2, column 1: 'foo' is not a number"):
        parse_csv_etc("1,2\nfoo,4\n")  # not silently a one-machine matrix with task names
    with pytest.raises(HcschedError, match=r"row 3, column 1: 'x' is not a number"):
        parse_csv_etc("m0,m1\n1,2\nx,4\n")
    e, names = parse_csv_etc(",m0,m1\nt0,1,2\nt1,3,4\n")  # pandas' to_csv with an index
    assert e.tolist() == [[1, 2], [3, 4]] and names == ["m0", "m1"]
    e, names = parse_csv_etc("task,m0,m1\n1,5,6\n2,7,8\n")  # numeric task ids under a header that names them
    assert e.tolist() == [[5, 6], [7, 8]] and names == ["m0", "m1"]


@pytest.mark.parametrize("model", ["gaussian", "exact", "gamma"])
@pytest.mark.parametrize("value", [0.0, 1e-300, 1e-9, 1.0, 1e12])  # larger entries are refused: sums overflow
def test_every_actual_time_sampler_ends_and_stays_non_negative(model, value):
    from hcsched.models.etc.spec import ActualSpec, EtcModelSpec, EtcSpec
    from hcsched.models.etc.workload import make_workload

    matrix = ((value, 1.0), (2.0, value), (value, value))
    spec = EtcModelSpec(etc=EtcSpec("matrix", matrix=matrix), actual=ActualSpec(model, 0.5))
    w = make_workload(spec, np.random.SeedSequence(3))
    assert np.isfinite(w.actual).all() and (w.actual >= 0).all()
    zero = np.array(matrix) == 0
    assert (w.actual[zero] == 0).all()  # a zero ETC takes no time under every model
    assert (w.actual[~zero] > 0).all() or model == "gamma"  # gamma may underflow to 0 for e = 1e-300


def test_truncated_gaussian_falls_back_to_the_exact_truncated_law():
    rng = np.random.default_rng(0)
    etc = np.full(2000, 0.5)
    actual = wl.truncated_gaussian_times(rng, etc, max_rounds=0)  # no resampling: all by inversion
    assert (actual > 0).all() and np.isfinite(actual).all()
    from scipy.stats import truncnorm

    sd = np.sqrt(1.5)
    assert actual.mean() == pytest.approx(truncnorm.mean(-0.5 / sd, np.inf, loc=0.5, scale=sd), rel=0.05)


def test_a_zero_etc_scenario_runs_to_the_end():
    from hcsched import Scenario, simulate

    sc = Scenario.from_dict({"etc": {"method": "matrix", "matrix": [[0, 5], [3, 0], [0, 0]]}, "arrivals": {"rate": 1.0},
                             "heuristics": ["mct", "min-min"], "trials": 2})
    df = simulate(sc, jobs=1)
    assert len(df) == 4 and np.isfinite(df["makespan"]).all()
