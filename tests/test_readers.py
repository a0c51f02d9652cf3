"""CSV separated by commas, semicolons or tabs; HCSP files read as before."""

import json

import numpy as np
import pytest
from helpers import ROOT, TABLE3_ETC

from hcsched import HcschedError, read_etc
from hcsched.cli import main
from hcsched.readers import detect_delimiter, looks_like_hcsp, parse_csv_etc, parse_hcsp_etc

RATES_B = ROOT / "assets" / "examples" / "class-rates-B.csv"


@pytest.mark.parametrize("text, delimiter", [
    ("10,20,30\n40,50,60\n", ","),
    ("10;20;30\n40;50;60\n", ";"),
    ("10\t20\t30\n40\t50\t60\n", "\t"),
    ("1,5;2,5\n3,5;4\n", ";"),  # decimal commas beside semicolons
    ('task,m0,m1\n"a;b",1,2\nc,3,4\n', ","),  # a semicolon on one line only is not the separator
    ("5\n6\n", ","),  # one column: no separator
])
def test_detect_delimiter(text, delimiter):
    assert detect_delimiter(text) == delimiter


@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_an_etc_matrix_with_any_separator(tmp_path, sep):
    path = tmp_path / "etc.csv"
    path.write_text("\n".join(sep.join(f"{v:g}" for v in row) for row in TABLE3_ETC) + "\n")
    assert not looks_like_hcsp(path.read_text())
    np.testing.assert_array_equal(read_etc(path), TABLE3_ETC)


def test_the_reported_semicolon_file(tmp_path, capsys):
    path = tmp_path / "etc.csv"
    path.write_text("10;20;30\n40;50;60\n")  # was read as HCSP: "line 1: '10;20;30' is not a number"
    np.testing.assert_array_equal(read_etc(path), [[10, 20, 30], [40, 50, 60]])
    assert main(["map", str(path), "--heuristic", "mct", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["assignment"] == [0, 0]


def test_semicolons_with_names_and_decimal_commas():
    etc, names = parse_csv_etc("task;fast;slow\na;1,5;2\nb;3;4,25\n")
    assert etc.tolist() == [[1.5, 2], [3, 4.25]] and names == ["fast", "slow"]
    etc, names = parse_csv_etc("m0\tm1\n1,5\t2\n")
    assert etc.tolist() == [[1.5, 2]] and names == ["m0", "m1"]


def test_comma_files_read_as_before():
    etc, names = parse_csv_etc('task,m0,m1\n"a;b",1,2\nc,3,4\n')
    assert etc.tolist() == [[1, 2], [3, 4]] and names == ["m0", "m1"]
    with pytest.raises(HcschedError, match=r"row 2, column 2: '5;2' is not a number; the columns were read as "
                                           r"separated by commas, but this cell holds semicolons"):
        parse_csv_etc("2,3\n1,5;2\n")  # no decimal commas where commas separate


def test_class_rate_tables_share_the_reader(tmp_path, capsys):
    semicolons = tmp_path / "rates.csv"
    semicolons.write_text(RATES_B.read_text().replace(",", ";"))
    np.testing.assert_array_equal(read_etc(semicolons), read_etc(RATES_B))
    outs = []
    for path in (RATES_B, semicolons):
        assert main(["lp", "--alpha", "5,8", "--mu", str(path), "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[1]["lambda"] == pytest.approx(4 / 3)


def test_a_mixed_file_says_how_its_columns_were_split():
    with pytest.raises(HcschedError, match=r"row 2 has 1 values, the first has 2; every task needs one value per "
                                           r"machine; the columns were read as separated by commas, but this row holds "
                                           r"semicolons: give every row the same separator"):
        parse_csv_etc("1,2\n3;4\n")


def test_a_csv_line_in_an_hcsp_file_names_its_separator(tmp_path, capsys):
    path = tmp_path / "etc.csv"
    path.write_text("10;20;30\n40;50;60\n")
    assert main(["map", str(path), "--heuristic", "mct", "--machines", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1: '10;20;30' is not a number" in err
    assert "looks like CSV separated by semicolons (read it as CSV: without --machines)" in err


def test_hcsp_files_read_as_before(tmp_path):
    body = "".join(f"{v:g}\n" for v in TABLE3_ETC.ravel())
    for text, machines in (("4 4 0\n" + body, None), (body, 4), ("4 4 0\r\n" + body.replace("\n", "\r\n"), None)):
        assert looks_like_hcsp(text)
        path = tmp_path / "etc.txt"
        path.write_text(text)
        np.testing.assert_array_equal(read_etc(path, machines), TABLE3_ETC)
        np.testing.assert_array_equal(parse_hcsp_etc(text, machines), TABLE3_ETC)
    path.write_text(body)
    with pytest.raises(HcschedError, match="pass --machines M"):
        read_etc(path)  # one value per line without a header: still HCSP, not a one-column CSV


def test_unreadable_csv_is_one_line():
    with pytest.raises(HcschedError, match=r"line 1 cannot be read as CSV \(field larger than field limit") as info:
        parse_csv_etc('1,"' + "a" * 200_000 + "\n2,3\n")
    assert "\n" not in str(info.value)
