"""The Papers page and the shipped reproduction (issue 19): every paper's claims from assets/claims.csv, a Rerun that
updates its rows, Open that loads a claim's scenario; the README's tables and the shipped file agree."""

import json
import time

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import ROOT  # noqa: E402
from helpers import app as open_page
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched.claims import VERDICTS  # noqa: E402
from hcsched.report import BEGIN, END, markdown_tables, read_claims  # noqa: E402
from hcsched.reproduce import registry, registry_hash, variant_scenario, variants  # noqa: E402

SHIPPED = ROOT / "assets" / "claims.csv"
CHEAP = "caniou-table3-metatask1-makespan"  # one HTM replay of 3 tasks: a rerun takes well under a second



def page() -> AppTest:
    return open_page("pages/papers.py", timeout=120)


def test_the_shipped_reproduction_is_of_the_current_registry_and_every_claim_has_its_rows():
    """A registry changed since the shipped run must be rerun (`hcsched reproduce --jobs 2 --out assets`)."""
    meta = json.loads((ROOT / "assets" / "claims.json").read_text())
    assert meta["registry"] == registry_hash(), "rerun: hcsched reproduce --jobs 2 --out assets"
    table = read_claims(SHIPPED)
    assert set(zip(table["id"], table["reading"], strict=True)) == {(v.claim.id, v.reading) for v in variants(registry())}
    assert set(table["verdict"]) <= set(VERDICTS)  # no claim failed to evaluate


def test_the_readme_tables_are_those_of_the_shipped_file():
    """`hcsched reproduce --readme README.md --from assets/claims.csv` writes them."""
    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index(BEGIN) + len(BEGIN):readme.index(END)]
    assert block.strip() == markdown_tables(read_claims(SHIPPED)).strip()


def test_every_papers_section_is_drawn_from_the_shipped_file():
    at = page()
    table = read_claims(SHIPPED)
    papers = table["model"].unique().tolist()
    assert len(at.header) == len(papers) and len(at.dataframe) == len(papers)
    for frame, name in zip(at.dataframe, papers, strict=True):
        assert len(frame.value) == (table["model"] == name).sum()
    assert not any("has changed since" in w.value for w in at.warning)
    assert at.get("plotly_chart")  # the chosen claim's chart in each section


def _section(table: pd.DataFrame, claim_id: str) -> str:
    return table.loc[table["id"] == claim_id, "model"].iloc[0]


def test_rerun_of_one_claim_with_two_trials_updates_its_row():
    table = read_claims(SHIPPED)
    name = _section(table, CHEAP)
    at = page()
    at.number_input(key=f"pp_trials_{name}").set_value(2).run()
    at.selectbox(key=f"pp_pick_{name}").set_value(f"{CHEAP}|literal").run()
    at.button(key=f"pp_one_{name}").click().run()
    end = time.monotonic() + 60
    while "pp_rerun" not in at.session_state and time.monotonic() < end:
        time.sleep(0.2)
        at.run()  # the progress fragment does not tick under AppTest
    assert not at.exception, at.exception
    rerun = at.session_state["pp_rerun"]
    assert list(rerun["id"].unique()) == [CHEAP] and (rerun["trials"] == 2).all()
    assert any("Rerun of 1 claim" in s.value for s in at.success)
    caption = " ".join(c.value for c in at.caption)
    assert "rerun in this session with 2 trials" in caption


def test_open_loads_the_claims_scenario():
    table = read_claims(SHIPPED)
    name = _section(table, CHEAP)
    at = page()
    at.selectbox(key=f"pp_pick_{name}").set_value(f"{CHEAP}|literal").run()
    at.button(key=f"pp_open_{name}").click().run()
    assert not at.exception, at.exception
    claim = next(c for c in registry() if c.id == CHEAP)
    assert at.session_state["scenario"] == variant_scenario(claim, dict(claim.changes))


def test_open_twice_in_a_row_and_after_another_paper_loads_each_claims_scenario():
    """Stale session state: a second Open, of another paper's claim, loads that claim's scenario and model."""
    table = read_claims(SHIPPED)
    at = page()
    claims = {c.id: c for c in registry()}
    for claim_id in (CHEAP, CHEAP, "alazzoni-table1-b-mct"):
        name = _section(table, claim_id)
        at.selectbox(key=f"pp_pick_{name}").set_value(f"{claim_id}|literal").run()
        at.button(key=f"pp_open_{name}").click().run()
        assert not at.exception, at.exception
        claim = claims[claim_id]
        assert at.session_state["scenario"] == variant_scenario(claim, dict(claim.changes))
