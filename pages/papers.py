"""The five papers' published claims, our rerun of each and its verdict.

The page opens on the reproduction shipped in ``assets/claims.csv`` (a full run of ``hcsched reproduce``, with the
version and date it was made in ``assets/claims.json``); **Rerun** runs one claim or a whole paper again in the
background, **Open** loads a claim's scenario to explore it from the paper's own experiment.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from hcsched import Scenario, get_model, model_names, preset
from hcsched.claims import DETAILS, LEAD
from hcsched.formatting import docs_in_words
from hcsched.report import (
    READING,
    chart_data,
    claim_figure,
    claims_text,
    count_text,
    format_ours,
    in_words,
    quantity_figure,
    quantity_of,
    readable,
    reading_words,
    trials_text,
    verdict_changes,
)
from hcsched.reproduce import estimate, registry, registry_hash, reproduce, select, variant_scenario, variants
from hcsched.runner import default_jobs
from pages.jobs import Job, follow, plain
from pages.models import replace_scenario
from pages.session import init_session_state, what_changed
from pages.widgets import ASSETS, shown_as_error

SHIPPED, META = ASSETS / "claims.csv", ASSETS / "claims.json"  # made by `hcsched reproduce --out assets`
K = "pp_"  # this page's session keys
BADGE = {"holds": ":blue-background[holds]", "holds partly": ":orange-background[holds partly]",
         "does not hold": ":red-background[does not hold]", "error": ":gray-background[error]"}
MORE = "How the claims are rerun, and where each kind of claim puts its number"  # the definition's folded rest
INTRO = ("Each paper's published claims (orderings, percentages, table cells) are rerun here on the paper's own "
         "experiment with common random numbers, each with a verdict computed from the numbers; where a claim does "
         "not hold, its note says what we found. Where a sentence of the paper is ambiguous, the claim is also "
         "checked under another reasonable reading of it (a reading), with its own verdict.")
ALL_LINES = 8  # a rerun of up to this many checks: one line each; of more, a line for each change and a count
RERUN_VALUE = "hcsched's number"  # the column of each reading's number as rerun here (the CSV's "ours")
RERUN_SETTINGS = "Rerun settings"  # the fold beside a paper's Rerun that holds its trials
RERUN = "this session's rerun"  # the column of a paper's table that says each rerun reading's verdict


@st.cache_data(show_spinner=False)
def shipped() -> tuple[pd.DataFrame, dict]:
    """The shipped reproduction and what it was made with."""
    table = pd.read_csv(SHIPPED, keep_default_na=False, na_values=[""]) if SHIPPED.exists() else pd.DataFrame()
    meta = json.loads(META.read_text()) if META.exists() else {}
    return with_current_notes(table), meta


def with_current_notes(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each claim's note as the registry words it now: a note explains a verdict from the docs, it is
    no number of the run, so a reproduction made before a note was reworded shows the new words."""
    if table.empty or "note" not in table:
        return table
    claims = {c.id: c for c in registry()}
    notes = [claims[i].note_of(r) if i in claims else n
             for i, r, n in zip(table["id"], table["reading"], table["note"].fillna(""), strict=True)]
    return table.assign(note=notes)


def current_table() -> pd.DataFrame:
    """The shipped rows, with the rows rerun in this session in their place."""
    table, _ = shipped()
    rerun = st.session_state.get(K + "rerun")
    if rerun is None or table.empty:
        return table if rerun is None else rerun
    keep = ~table.set_index(["id", "reading"]).index.isin(rerun.set_index(["id", "reading"]).index)
    merged = pd.concat([table[keep], rerun], ignore_index=True)
    order = {cid: i for i, cid in enumerate(c.id for c in registry())}
    return merged.assign(_o=merged["id"].map(order)).sort_values(["_o", "reading"], kind="stable").drop(columns="_o")


# --- rerun in the background -------------------------------------------------------------------------------
def start_rerun(ids: list[str], trials: int | None) -> None:
    """Rerun the claims ``ids`` (with ``trials``, or the paper's) in the background."""
    claims = select(ids)
    shown = current_table()
    before = shown[shown["id"].isin(ids)] if not shown.empty else shown  # what the page showed: each verdict "was"
    what = f"Rerun of the claim of {claims[0].where}: " if len(ids) == 1 else f"Rerun of {len(ids)} claims: "
    job = Job(None, 1, estimate(variants(claims, trials), default_jobs()), what=what, notice_key=K + "notice",
              on_result=_keep, noun="rerun")
    st.session_state[K + "what"] = (ids, trials, before)
    job.start(K + "job", reproduce, claims, trials, None, False, "local", None, None)


def _keep(job: Job, result) -> None:
    """A rerun's rows in place of the ones shown before, each with its verdict against the one shown before the
    rerun (``change``: "holds (unchanged)", "was 'holds partly', now 'holds'"): said beside the claim. Idempotent:
    the verdicts before are those kept when the rerun started."""
    table, _ = result
    ids, trials, before = st.session_state[K + "what"]
    changes = verdict_changes(before, table)
    rows = table.assign(rerun=f"rerun in this session with {trials} trials" if trials else "rerun in this session",
                        change=[c.verdict_text() for c in changes], changed=[c.changed for c in changes])
    old = st.session_state.get(K + "rerun")
    st.session_state[K + "rerun"] = rows if old is None else pd.concat(
        [old[~old["id"].isin(rows["id"])], rows], ignore_index=True)


def claim_words(row: pd.Series) -> str:
    """A claim named as the claim picker names it: "Fig. 4, section 5.2: KPB gives the smallest makespan ...
    (inconsistent expected times, ...)." and, under another reading of its text, " (another reading: each task's
    smallest times form the consistent part)"."""
    return f"{row['where']}: {row['claim']}" + reading_words(row)


def _line(row: pd.Series) -> str:
    """A rerun reading's line: the claim in its words, then its verdict now and whether it changed: "Fig. 4, section
    5.2: KPB gives ... — does not hold (unchanged)", "... (reading) — was 'holds partly', now 'holds' (...)"."""
    return f"{claim_words(row).removesuffix('.')} — {row['change']}"


def _rerun(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``rows`` rerun in this session (with their ``change``)."""
    return rows[rows["change"].notna()] if "change" in rows else rows.iloc[0:0]


def rerun_notice(rows: pd.DataFrame, row: pd.Series) -> list[str]:
    """What the reruns of this session found, for the chosen claim's area: the chosen claim's readings rerun (the
    chosen one first), then, after a rerun of several claims of this paper, each other reading's line (or, beyond
    :data:`ALL_LINES` readings, each one whose verdict changed and how many did not)."""
    done = _rerun(rows)
    mine = done[done["id"] == row["id"]]
    mine = pd.concat([mine[mine["reading"] == row["reading"]], mine[mine["reading"] != row["reading"]]])
    lines = [_line(r) for _, r in mine.iterrows()]
    what = st.session_state.get(K + "what")
    if what is None or K + "job" in st.session_state or len(what[0]) < 2:
        return lines
    others = done[done["id"].isin(what[0]) & (done["id"] != row["id"])]
    if len(others) + len(mine) <= ALL_LINES:
        return lines + [_line(r) for _, r in others.iterrows()]
    changed = others[others["changed"].astype(bool)]
    kept = len(others) - len(changed)
    return lines + [_line(r) for _, r in changed.iterrows()] + (
        [f"{kept} more rerun with it: unchanged (the table of all claims says each in its column \"{RERUN}\")"]
        if kept else [])


# --- the page ------------------------------------------------------------------------------------------------
def header(table: pd.DataFrame, meta: dict) -> None:
    """The title, the verdicts' definition in two sentences with the rest folded (the library's words:
    hcsched.claims.judge applies them), and what the reproduction shown was made with."""
    st.title("Papers")
    st.markdown(LEAD)
    with st.expander(MORE):
        st.markdown(INTRO)
        st.markdown(DETAILS)
    if table.empty:
        st.info("No reproduction is shipped with this copy: rerun a paper below, or run `hcsched reproduce --out "
                "assets` to make one.")
        return
    made = f"Shipped reproduction: hcsched {meta.get('version', '?')}, made {meta.get('date', '?')}"
    others = int((table["reading"] != "literal").sum())
    st.caption(f"{made}: {table['id'].nunique()} claims as the papers write them, and {others_text(others)}. "
               "Rerun with `hcsched reproduce`.")
    st.markdown(f"All papers: {count_text(table, bold=True)}")  # the verdict across papers, before each paper's
    if meta.get("registry") and meta["registry"] != registry_hash():
        st.warning("The claims registry has changed since this reproduction was made: some rows may no longer match "
                   "their claim. Rerun those papers (below, or `hcsched reproduce --out assets`).")


# Okabe and Ito's blue, orange and vermillion, pale: colour-blind safe, and the verdict is written out as well
VERDICT_STYLE = {"holds": "background-color: #cfe3f1", "holds partly": "background-color: #f9e3b3",
                 "does not hold": "background-color: #f4cdb5"}


def paper_section(name: str, rows: pd.DataFrame) -> None:
    """A paper's claims as one table (verdict, where, claim, hcsched's number, the paper's, note), then one chosen
    claim's chart, its Rerun and Open; and a Rerun of the whole paper."""
    model = get_model(name)
    st.header(model.paper_title or model.title)
    st.caption(f"{model.paper}. {model.summary}".strip())
    running = K + "job" in st.session_state
    c1, c2 = st.columns([3, 2])
    with c2.expander(RERUN_SETTINGS):  # folded beside the Rerun: a reader of the verdicts never needs it
        trials = int(st.number_input("Trials of a rerun (0 = as many as the paper)", 0, 1000, 0,
                                     key=f"{K}trials_{name}")) or None
    ids = [c.id for c in registry(name)]
    if c1.button(rerun_label(name), key=f"{K}rerun_{name}", disabled=running or not ids):
        start_rerun(ids, trials)
        st.rerun()
    if rows.empty:
        st.info("No claims of this paper in the reproduction shown.")
    else:
        counts = rows.loc[rows["reading"] == "literal", "verdict"].value_counts()
        st.markdown(claims_text(rows, bold=True), help="A claim is one statement of the paper. Where its sentence is "
                    f"ambiguous, it is also checked under {READING} (a reading), with its own verdict. The badges "
                    "count the claims as the paper writes them.")
        st.markdown(" · ".join(f"{BADGE.get(v, v)} {counts.get(v, 0)}"
                               for v in ("holds", "holds partly", "does not hold"))
                    + " of the claims as written")
        shown = pd.DataFrame({
            "verdict": rows["verdict"], "where": rows["where"],
            "claim": rows["claim"] + [reading_words(r) for _, r in rows.iterrows()],
            RERUN_VALUE: [format_ours(r) for _, r in rows.iterrows()], "the paper's": rows["paper_value"].fillna(""),
            "note": rows["note"].fillna("").map(docs_in_words)})
        if not _rerun(rows).empty:  # each rerun reading's verdict against the one shown before, in its row
            shown[RERUN] = rows["change"].fillna("")
        styled = shown.style.map(lambda v: VERDICT_STYLE.get(v, ""), subset=["verdict"])
        with st.expander(all_claims_label(rows), expanded=False):
            st.table(styled, hide_index=True)  # an HTML table: long claims and notes wrap, never cut
        chosen_claim(name, rows, running, trials)


def others_text(others: int) -> str:
    """"7 other readings of ambiguous sentences": how a caption, a button or a fold counts a paper's checks beyond its
    claims as written."""
    return f"{others} other reading{'s' if others != 1 else ''} of ambiguous sentences"


def rerun_label(name: str) -> str:
    """The label of a paper's Rerun: its claims first, then the other readings rerun with them."""
    claims = registry(name)
    others = sum(len(c.readings) for c in claims)
    return f"Rerun this paper's {len(claims)} claims" + (f" and {others_text(others)}" if others else "")


def all_claims_label(rows: pd.DataFrame) -> str:
    """The label of a paper's table of every claim: its claims first, then the other readings in it."""
    literal = int((rows["reading"] == "literal").sum())
    others = len(rows) - literal
    return f"All {literal} claims of this paper with their notes" + (f", and {others_text(others)}" if others else "")


def chosen_claim(name: str, rows: pd.DataFrame, running: bool, trials: int | None) -> None:
    """One claim of the table: the number its verdict was read from (a chart with our 95% interval, where the claim
    puts it and the paper's number), what was compared, the detail and note, and its Rerun and Open buttons."""
    keys = [f"{r['id']}|{r['reading']}" for _, r in rows.iterrows()]
    labels = {k: claim_words(r) for k, (_, r) in zip(keys, rows.iterrows(), strict=True)}
    key = st.selectbox("A claim's chart", keys, format_func=labels.get, key=f"{K}pick_{name}")
    row = rows.iloc[keys.index(key)]
    said = rerun_notice(rows, row)
    if said:  # beside the claim, directly above its chart: each check rerun, its verdict now and whether it changed
        st.success("  \n".join(plain(line) for line in said))
    c1, c2 = st.columns([3, 1])
    series, paper, axis = chart_data(row.to_frame().T)[0]
    quantity = quantity_of(row)
    small = {"displayModeBar": False}  # a small chart: no toolbar over its legend line
    if quantity is not None:
        c1.plotly_chart(quantity_figure(quantity), key=f"{K}chart_{name}", width="stretch", config=small)
        if series:
            with c1.expander("What was compared: each side's mean and 95% interval"):
                st.plotly_chart(claim_figure(series, axis), key=f"{K}compared_{name}", width="stretch", config=small)
    elif series:
        c1.plotly_chart(claim_figure(series, axis, paper), key=f"{K}chart_{name}", width="stretch", config=small)
    share = f"; holds in {row['share']:.0%} of trials" if pd.notna(row["share"]) else ""
    c2.markdown(BADGE.get(row["verdict"], row["verdict"]))
    c2.caption(f"{in_words(row['check'], row)}. {readable(row['detail'])}{share}. {trials_text(row['trials'])}"
               + (f"; {row['rerun']}" if isinstance(row.get("rerun"), str) else "") + ".")
    if c2.button("Rerun this claim", key=f"{K}one_{name}", disabled=running):
        start_rerun([row["id"]], trials)
        st.rerun()
    if c2.button("Open its scenario", key=f"{K}open_{name}", help="Load this claim's scenario to explore it"):
        open_claim(row["id"], row["reading"])
    said = [f"The paper: {row['paper_value']}" if isinstance(row.get("paper_value"), str) and row["paper_value"]
            else "",
            docs_in_words(row["note"]) if isinstance(row.get("note"), str) else ""]
    if any(said):
        st.caption(". ".join(t.rstrip(".") for t in said if t) + ".")


def claim_scenario(claim, reading: str, changes: dict) -> Scenario:
    """The claim's scenario under ``reading``, named and described as what it is: the preset itself where the claim
    changes nothing, else "<preset>-<claim id>" (and the reading) with a description that says what differs from the
    preset, so that Home, Results and its exported files never show the preset's own description for it."""
    scenario = variant_scenario(claim, changes)
    base = preset(claim.scenario)
    differs = what_changed(base, scenario)
    if not differs:
        return scenario
    name = f"{claim.scenario}-{claim.id}" + ("" if reading == "literal" else f"-{reading}")
    said = "" if reading == "literal" else f" under the reading {reading!r}"
    return scenario.replace(name=name, description=f"The scenario of claim {claim.id} ({claim.where}){said}: "
                                                    f"{claim.scenario} with {'; '.join(differs)}.")


def open_claim(claim_id: str, reading: str) -> None:
    """Load the claim's scenario (under this reading) and go to the Scenario page."""
    claim = select([claim_id])[0]
    changes = next(ch for name, ch, _ in claim.variants() if name == reading)
    replace_scenario(claim_scenario(claim, reading, dict(changes)))
    try:
        st.switch_page("pages/scenario.py")
    except Exception:  # the page runs on its own (tests): the scenario is loaded all the same
        st.success(f"Loaded the scenario of {claim_id}; see the Scenario page.")


init_session_state()
table, meta = shipped()
header(table, meta)
follow(K + "job", K + "cancel")
notice = st.session_state.pop(K + "notice", None)
if notice:
    getattr(st, notice[0])(notice[1])
shown = current_table()
papers = [n for n in model_names() if registry(n)]
for name in papers:
    with shown_as_error(f"The claims of {get_model(name).title} could not be shown"):
        paper_section(name, shown[shown["model"] == name] if not shown.empty else shown)
