"""`hcsched reproduce`: the claims table and report it writes, its bad inputs, --resume after a kill, and the
README's claims tables.

The claims run here are made in this file on the quickstart preset (and injected as the registry), so that the
command's behaviour is tested whatever the models declare; one test also runs the quickest claim of the real
registry when there is one.
"""

import io
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from helpers import ROOT

from hcsched import reproduce as rp
from hcsched.claims import VERDICTS, Better, Claim, Reading, Trend, Value
from hcsched.cli import main

TESTS = Path(__file__).resolve().parent

CLAIMS = (
    Claim("t-minmin-beats-mct", "etc", "Fig. 9", "Min-min gives a shorter makespan than MCT.", "quickstart",
          Better("min-min", "mct", "makespan"), paper="Min-min better", note="A test claim.",
          readings=(Reading("fewer-tasks", {"tasks": 100}, "Half the tasks."),)),
    Claim("t-mct-makespan", "etc", "Table 9", "MCT's makespan is about 300,000 s.", "quickstart",
          Value("makespan", "mct", paper=300000.0, tolerance=0.5), paper="300,000 s"),
    Claim("t-makespan-rises", "etc", "Fig. 10", "The makespan grows with the number of tasks.", "quickstart",
          Trend("makespan", "mct", "tasks"), vary={"tasks": [100, 200]}),
)
# For --resume: a quick scenario first, then a slower one (about 0.5 s a trial), so that a kill falls between them.
SLOW = (
    Claim("t-quick", "etc", "Fig. 1", "Min-min beats MCT (quick).", "quickstart", Better("min-min", "mct", "makespan")),
    Claim("t-slow", "etc", "Fig. 2", "Min-min beats MCT (slow).", "quickstart", Better("min-min", "mct", "makespan"),
          changes={"tasks": 4000}),
)
CLAIM_SETS = {"CLAIMS": CLAIMS, "SLOW": SLOW}


def injected(claims):
    return lambda model=None: tuple(c for c in claims if model in (None, c.model))


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(rp, "registry", injected(CLAIMS))


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_reproduce_writes_the_claims_table_and_the_report(registry, capsys, tmp_path):
    out = tmp_path / "rep"
    code, stdout, err = run(capsys, "reproduce", "--claim", "t-minmin-beats-mct", "t-mct-makespan", "--trials", "2",
                            "--jobs", "1", "--out", str(out))
    assert code == 0, err
    table = pd.read_csv(out / "claims.csv")
    assert list(table.columns) == list(rp.COLUMNS)
    assert list(zip(table["id"], table["reading"], strict=True)) == [
        ("t-minmin-beats-mct", "literal"), ("t-minmin-beats-mct", "fewer-tasks"), ("t-mct-makespan", "literal")]
    assert set(table["verdict"]) <= set(VERDICTS)
    assert (table["trials"] == 2).all()
    assert table["paper"].str.startswith("Maheswaran").all()
    meta = json.loads((out / "claims.json").read_text())  # when and with what it was made (the Papers page reads it)
    assert meta["claims"] == 2 and meta["rows"] == 3 and meta["registry"] == rp.registry_hash(rp.select(
        ["t-minmin-beats-mct", "t-mct-makespan"]))
    # two distinct scenarios (the literal Better and the Value share one), each kept in runs/
    assert len(list((out / "runs").glob("*.csv"))) == 2
    lines = stdout.splitlines()
    assert lines[0].startswith("2 claims as the papers write them, and 1 other reading of ambiguous sentences from 2 "
                               "scenarios (4 trials): about ")
    assert " s on 1 core" in lines[0]
    assert lines[-2:] == [f"claims table: {out / 'claims.csv'}", f"report: {out / 'report.html'}"]
    assert any(line.startswith("Maheswaran") and "of 2 claims hold" in line and "other readings:" in line
               for line in lines)
    page = (out / "report.html").read_text()
    assert page.count("<script type='text/javascript'>") == 1  # Plotly's JavaScript, once
    assert page.count("Plotly.newPlot(") == 3  # one chart per verdict (each check compared something)
    for word in ("t-minmin-beats-mct", "fewer-tasks", "Half the tasks.", "A test claim.", "300,000 s", "paper: 300 k"):
        assert word in page


def test_the_verdicts_follow_the_numbers_the_report_shows(registry, capsys, tmp_path):
    """The report's chart of a Better claim shows the two means whose paired difference is the table's number."""
    from hcsched.report import chart_data

    table, results = rp.reproduce(rp.select(["t-minmin-beats-mct"]), trials=3, jobs=1)
    (series, paper, axis), _ = chart_data(table)
    assert [s[0] for s in series] == ["min-min", "mct"] and math.isnan(paper) and axis == "Makespan (s)"
    wide = results[("t-minmin-beats-mct", "literal")].pivot(index="trial", columns="heuristic", values="makespan")
    assert series[0][1] == pytest.approx(wide["min-min"].mean()) and series[1][1] == pytest.approx(wide["mct"].mean())
    assert table["ours"].iloc[0] == pytest.approx((100 * (wide["min-min"] - wide["mct"]) / wide["mct"]).mean())


def test_list_prints_each_claim_with_where_and_what(registry, capsys):
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("etc: Maheswaran")
    assert any("t-minmin-beats-mct" in x and "Fig. 9" in x and "Min-min gives" in x and "fewer-tasks" in x
               for x in lines)
    assert sum(1 for x in lines if x.startswith("  t-")) == 3


@pytest.mark.parametrize("argv, names", [
    (["--model", "nope"], "--model: 'nope' is not allowed"),
    (["--model", "classes"], "--model: 'classes' declares no claims yet"),
    (["--claim", "t-minmin-beats-mc"], "--claim: 't-minmin-beats-mc' is not a claim; did you mean t-minmin-beats-mct"),
    (["--trials", "0"], "--trials: '0' is not allowed"),
    (["--trials", "two"], "--trials"),
    (["--jobs", "0"], "--jobs: '0' is not allowed"),
    (["--resume"], "--resume: give the --out DIR"),
    (["--backend", "mpi"], "--backend: 'mpi' is not allowed"),
    (["--scheduler", "tcp://x:1"], "--scheduler: only with --backend dask"),
    (["--readme", "README.md"], "--readme and --from go together"),
    (["--readme", "README.md", "--from", "/nonexistent/claims.csv"], "--from: cannot read"),
])
def test_bad_input_is_one_line_and_status_2(registry, capsys, argv, names):
    code, out, err = run(capsys, "reproduce", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("hcsched: error: ") and names in err, err


def test_out_that_is_a_file_is_refused(registry, capsys, tmp_path):
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "reproduce", "--claim", "t-mct-makespan", "--out", str(tmp_path / "f"))
    assert code == 2 and "--out:" in err and "is a file" in err


def test_progress_bar_starts_at_zero_done(monkeypatch):
    """reproduce reports (0, total) before its first chunk: the bar shows it rather than dividing by zero; then the
    pace so far gives the time left (a clock of 1 s, 4 s and 8 s after the start: 12 s and 8 s left)."""
    from types import SimpleNamespace

    from hcsched import cli
    from hcsched.cli import _progress_bar

    clock = iter([0.0, 1.0, 4.0, 8.0])
    monkeypatch.setattr(cli, "time", SimpleNamespace(monotonic=lambda: next(clock)))

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    show = _progress_bar("replication")
    show(0, 10)
    show(2.5, 10)
    show(5, 10)
    said = tty.getvalue()
    assert "0 of 10 replications done " in said and "2 of 10 replications done, about 12 s left" in said
    assert "5 of 10 replications done, about 8 s left" in said


# --- --resume after a kill ------------------------------------------------------------------------------------------
def _command(claims: str, *argv: str) -> list[str]:
    """A subprocess running `hcsched reproduce` with one of this file's claim sets as the registry."""
    code = (f"import sys; sys.path.insert(0, {str(TESTS)!r}); import test_reproduce_cli as t; "
            f"import hcsched.reproduce as rp; rp.registry = t.injected(t.CLAIM_SETS[{claims!r}]); "
            "from hcsched.cli import main; sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", code, "reproduce", *argv]


def test_resume_after_a_kill_reruns_only_what_was_unfinished(monkeypatch, capsys, tmp_path):
    out = tmp_path / "killed"
    argv = ["--trials", "2", "--jobs", "1", "--out", str(out)]
    proc = subprocess.Popen(_command("SLOW", *argv), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not list((out / "runs").glob("*.seconds")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, f"finished before it could be killed: {proc.stderr.read().decode()}"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the process group this test started
        proc.wait()
        proc.stderr.close()
    done = sorted((out / "runs").glob("*.csv"))
    assert len(done) == 1 and not (out / "claims.csv").exists()
    first = done[0]
    assert first.stem == rp.key_of(rp.variants(SLOW[:1], 2)[0].points[0][1])  # the quick scenario, finished
    stamp, content = first.stat().st_mtime_ns, first.read_bytes()

    monkeypatch.setattr(rp, "registry", injected(SLOW))
    code, stdout, err = run(capsys, "reproduce", "--resume", *argv)
    assert code == 0, err
    assert ", 1 already finished in " in stdout.splitlines()[0]
    assert first.stat().st_mtime_ns == stamp and first.read_bytes() == content  # not rerun
    assert len(list((out / "runs").glob("*.csv"))) == 2

    code, _, err = run(capsys, "reproduce", "--trials", "2", "--jobs", "1", "--out", str(tmp_path / "fresh"))
    assert code == 0, err
    resumed, fresh = pd.read_csv(out / "claims.csv"), pd.read_csv(tmp_path / "fresh" / "claims.csv")
    same = [c for c in rp.COLUMNS if c != "seconds"]
    pd.testing.assert_frame_equal(resumed[same], fresh[same])
    assert set(resumed["verdict"]) <= set(VERDICTS)


# --- a claim of the real registry ---------------------------------------------------------------------------------
def test_a_real_registry_claim_through_the_command(capsys, tmp_path):
    claims = rp.registry()
    if not claims:
        pytest.skip("no model declares claims yet")
    quickest = min(claims, key=lambda c: rp.estimate(rp.variants([c], 2)))
    code, _, err = run(capsys, "reproduce", "--claim", quickest.id, "--trials", "2", "--out", str(tmp_path))
    assert code == 0, err
    table = pd.read_csv(tmp_path / "claims.csv")
    assert list(table.columns) == list(rp.COLUMNS) and set(table["id"]) == {quickest.id}
    assert set(table["verdict"]) <= set(VERDICTS), table[["reading", "verdict", "detail"]]
    assert (tmp_path / "report.html").stat().st_size > 1_000_000  # Plotly's JavaScript embedded


# --- the README's tables ----------------------------------------------------------------------------------------
def _table() -> pd.DataFrame:
    """Three verdicts made by hand: two papers, one claim with another reading, a '|' in a cell."""
    base = dict.fromkeys(rp.COLUMNS, "")
    rows = [
        {**base, "id": "a-one", "model": "etc", "paper": "Maheswaran et al.", "where": "Fig. 4", "claim": "KPB best",
         "reading": "literal", "ours": -1.234, "ours_lower": -2.5, "ours_upper": 0.1, "unit": "%",
         "paper_value": "KPB best", "verdict": "holds partly"},
        {**base, "id": "a-one", "model": "etc", "paper": "Maheswaran et al.", "where": "Fig. 4", "claim": "KPB best",
         "reading": "sorted", "ours": -3.0, "ours_lower": -4.0, "ours_upper": -2.0, "unit": "%",
         "paper_value": "KPB best", "verdict": "holds"},
        {**base, "id": "b-two", "model": "classes", "paper": "Al-Azzoni and Down", "where": "Table 1",
         "claim": "LPAS | best", "reading": "literal", "ours": 12345.6, "ours_lower": math.nan, "ours_upper": math.nan,
         "unit": "", "paper_value": "12,000", "verdict": "does not hold"},
    ]
    return pd.DataFrame(rows, columns=list(rp.COLUMNS))


def test_markdown_tables_summarise_each_paper_and_list_what_does_not_fully_hold():
    from hcsched.report import markdown_tables

    text = markdown_tables(_table())
    lines = text.splitlines()
    summary = [x for x in lines if x.startswith("| **")]
    assert len(summary) == 2 and summary[0].startswith("| **Maheswaran et al.**: Tasks with ETC "
                                                       "times (Maheswaran et al.) | 1 |")
    assert "0 of 1 claims hold, 1 hold partly, 0 do not hold; other readings: 1 of 1 hold" in summary[0]
    assert "0 of 1 claims hold, 0 hold partly, 1 do not hold" in summary[1]
    assert lines.count("| Claim | Where | Ours | Paper | Verdict |") == 2
    assert "| KPB best | Fig. 4 | -1.234% [-2.5, 0.1] | KPB best | holds partly |" in lines
    assert not any("*(reading: sorted)*" in x for x in lines)  # it holds: in the report, not in the README
    assert "| LPAS \\| best | Table 1 | 12.3 k | 12,000 | does not hold |" in lines  # as the CLI and dashboard print it


def test_update_readme_rewrites_only_the_block(capsys, tmp_path):
    from hcsched.report import BEGIN, END, markdown_tables, update_readme

    csv = tmp_path / "claims.csv"
    _table().to_csv(csv, index=False)
    before, after = "# Title\n\nIntro.\n\n", "\n\n## After\n\nMore | text.\n"
    readme = tmp_path / "README.md"
    readme.write_text(before + BEGIN + "\nold table\n" + END + after)
    assert update_readme(readme, csv)
    text = readme.read_text()
    assert text == before + BEGIN + "\n" + markdown_tables(pd.read_csv(csv)) + "\n" + END + after
    assert "old table" not in text and not update_readme(readme, csv)  # a second time: nothing to change
    code, out, _ = run(capsys, "reproduce", "--readme", str(readme), "--from", str(csv))
    assert code == 0 and "already up to date" in out and readme.read_text() == text
    readme.write_text("no markers\n")
    code, _, err = run(capsys, "reproduce", "--readme", str(readme), "--from", str(csv))
    assert code == 2 and "claims:begin" in err and readme.read_text() == "no markers\n"


def test_a_model_pages_readings_table_is_rewritten_from_the_claims_of_its_model(capsys, tmp_path):
    """A model page's block (claims-by-reading:MODEL) gets a row per claim of that model, a column per reading, the
    literal first: our value with its interval and the short verdict; the other models' claims stay out."""
    from hcsched.report import READINGS_BEGIN, READINGS_END

    csv = tmp_path / "claims.csv"
    _table().to_csv(csv, index=False)
    page = tmp_path / "etc.md"
    begin, end = READINGS_BEGIN.format(model="etc"), READINGS_END.format(model="etc")
    page.write_text(f"# ETC\n\n{begin}\nold\n{end}\n")
    code, out, _ = run(capsys, "reproduce", "--readme", str(page), "--from", str(csv))
    assert code == 0 and "rewritten" in out
    assert page.read_text() == (f"# ETC\n\n{begin}\n| claim | paper | literal | sorted |\n|---|---|---|---|\n"
                                "| `a-one` | KPB best | -1.234% [-2.5, 0.1]: partly | -3% [-4, -2]: holds |\n"
                                f"{end}\n")


def test_the_estimation_page_shows_the_shipped_claims_by_reading():
    from hcsched.report import READINGS_BEGIN, READINGS_END, read_claims, readings_table

    root = Path(__file__).resolve().parents[1]
    text = (root / "docs" / "models" / "estimation.md").read_text()
    begin, end = READINGS_BEGIN.format(model="estimation"), READINGS_END.format(model="estimation")
    block = text[text.index(begin) + len(begin):text.index(end)]
    assert block.strip() == readings_table(read_claims(root / "assets" / "claims.csv"), "estimation").strip()


def test_a_claims_chart_draws_a_row_whose_interval_is_missing():
    """claims.csv writes a missing bound as null: the chart draws the mean without an error bar (a full run stopped
    on it)."""
    from hcsched.report import claim_figure

    fig = claim_figure((("a", 1.0, None, None), ("b", 2.0, 1.5, 2.5)), "x")
    assert list(fig.data[0].error_x.array) == [None, 0.5] and list(fig.data[0].x) == [1.0, 2.0]


def test_a_claims_chart_is_the_number_its_verdict_was_read_from(registry):
    """A Better claim's chart: the paired difference (the table's number) with its interval, where the claim puts it
    (below 0: lower makespan is better), not the two makespans; a Value's: its mean and the paper's number."""
    from hcsched.report import claim_chart, quantity_of

    table, _ = rp.reproduce(rp.select(["t-minmin-beats-mct", "t-mct-makespan"]), trials=3, jobs=1)
    better, value = table.iloc[0], table.iloc[2]
    assert (better["claimed_low"], better["claimed_high"]) == (-math.inf, 0.0)
    assert better["quantity"] == "makespan of min-min against mct, paired (% of mct)"
    fig = claim_chart(better)
    assert list(fig.data[0].x) == [pytest.approx(better["ours"])] and fig.data[0].mode == "markers"
    assert fig.data[0].error_x.arrayminus[0] == pytest.approx(better["ours"] - better["ours_lower"])
    assert fig.layout.xaxis.title.text.replace("<br>", " ") == (  # which side of 0 is better, in words
        "makespan of min-min against mct, paired (% of mct; below 0: min-min better)")
    assert [s.x1 for s in fig.layout.shapes if s.type == "rect"] == [0.0]  # the claim: 0 and below
    q = quantity_of(value)
    assert (q.paper, q.low, q.high) == (300000.0, 150000.0, 450000.0) and q.title == "makespan of mct (s)"
    fig = claim_chart(value)
    assert any(s.x0 == 300000.0 and s.line.dash == "dash" for s in fig.layout.shapes)
    assert quantity_of({**better.to_dict(), "claimed_low": float("nan")}) is None  # no region: the compared means


def test_a_claims_stored_words_name_its_metric_as_the_results_do_and_say_which_side_of_0_is_better():
    """The Papers page read "kpb best on normalized_makespan" and an axis "normalized makespan: kpb ahead of met,
    paired (% of met)" under a number of -7.12: the number is kpb's lead (positive where kpb is better), so it was
    kpb 7.12% behind, said as "ahead"."""
    from hcsched.report import chart_data, in_words, quantity_of, signed_words

    row = {"model": "etc", "metric": "normalized_makespan", "check": "kpb best on normalized_makespan",
           "quantity": "normalized makespan: kpb ahead of met, paired (% of met)", "ours": -7.12, "ours_lower": -8.6,
           "ours_upper": -5.6, "unit": "%", "claimed_low": 0.0, "claimed_high": math.inf}
    assert in_words(row["check"], row) == "kpb best on normalised makespan"
    assert quantity_of(row).title == ("normalised makespan: kpb's lead over met, paired (% of met; above 0: kpb "
                                      "better)")
    worst = {**row, "quantity": "normalized makespan: met behind olb, paired (% of olb)"}
    assert signed_words(worst["quantity"], worst) == ("normalized makespan: how far met trails olb, paired (% of olb; "
                                                      "above 0: met worse)")
    value = {"model": "value", "metric": "value_pct_ub"}
    assert signed_words("value pct ub of tpsa against ga, paired (points)", value) == (
        "value pct ub of tpsa against ga, paired (points; above 0: tpsa better)")  # higher is better
    assert in_words("value_pct_ub of max-max at least 90", value) == "value of max-max at least 90"
    timeshared = {"model": "timeshared", "metric": "makespan"}
    assert signed_words("makespan of hmct against netsolve-mct, paired (% of netsolve-mct), at mu=0", timeshared) == (
        "makespan of hmct against netsolve-mct, paired (% of netsolve-mct; below 0: hmct better), at mu=0")
    assert in_words("gain makespan of hmct", {"model": "timeshared", "metric": "gain_makespan"}) == (
        "gain on makespan of hmct")
    custom = pd.DataFrame([{"model": "timeshared", "metric": "gain_makespan", "axis": "gain_makespan",
                            "series": '[["hmct", 1.0, 0.5, 1.5]]', "paper_number": ""}])
    assert chart_data(custom)[0][2] == "gain on makespan"  # a check of a model's own names its axis by its metric
    for text in ("makespan of kpb / sufferage, per trial", "a claim of its own"):  # nothing to say: as it is
        assert signed_words(text, row) == text and in_words(text, {"model": "etc", "metric": "x"}) == text


def test_the_readme_tables_open_with_the_definition_and_count_the_claims_as_written_first():
    from hcsched.claims import DEFINITION
    from hcsched.report import count_text, format_ours, markdown_tables, trials_text

    lines = markdown_tables(_table()).splitlines()
    assert lines[0] == f"The verdicts. {DEFINITION}"
    # the claims as the papers write them first, the other readings after, as the Papers page says them
    assert lines[2] == ("All papers. Of the 2 claims as the papers write them, 1 holds partly and 1 does not. 1 of "
                        "them was also checked under another reasonable reading of an ambiguous sentence: 1 holds.")
    assert "reading" not in lines[2].split(".")[1]
    one = {"ours": 142.5, "ours_lower": float("nan"), "ours_upper": float("nan"), "unit": "", "trials": 1}
    assert format_ours(one) == "142.5 (one trial: no interval)" and trials_text(1) == "one trial: no interval"
    assert format_ours({**one, "trials": 30, "unit": "% of pairs", "ours": 50.0}) == "50% of pairs"
    assert trials_text(30) == "30 trials"
    assert count_text(_table().iloc[[2]]) == "Of the one claim as the papers write it, 1 does not hold."


def test_compare_names_every_verdict_that_changed(registry, capsys, tmp_path):
    """A verdict that changes since an earlier reproduction is a finding: `--compare` prints it."""
    from hcsched.report import changed_verdicts

    out = tmp_path / "rep"
    assert run(capsys, "reproduce", "--claim", "t-mct-makespan", "--trials", "2", "--jobs", "1", "--out",
               str(out))[0] == 0
    before = pd.read_csv(out / "claims.csv")
    flipped = before.assign(verdict=["does not hold" if v != "does not hold" else "holds" for v in before["verdict"]])
    flipped.to_csv(tmp_path / "old.csv", index=False)
    assert changed_verdicts(before, before) == []
    lines = changed_verdicts(flipped, before)
    assert len(lines) == 1 and lines[0].startswith("t-mct-makespan: ") and " -> " in lines[0]
    code, stdout, _ = run(capsys, "reproduce", "--claim", "t-mct-makespan", "--trials", "2", "--jobs", "1",
                          "--out", str(out), "--resume", "--compare", str(tmp_path / "old.csv"))
    assert code == 0 and f"1 reading(s) changed verdict since {tmp_path / 'old.csv'}:" in stdout and lines[0] in stdout
    code, _, err = run(capsys, "reproduce", "--claim", "t-mct-makespan", "--compare", str(tmp_path / "none.csv"),
                       "--out", str(out), "--resume")
    assert code == 2 and err.startswith("hcsched: error: --compare: cannot read")
