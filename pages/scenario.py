"""The scenario: a preset or a file to start from, the model, and the model's own editor (``models/``)."""

from __future__ import annotations

import streamlit as st

from hcsched import HcschedError, get_model, model_names, preset, preset_names
from hcsched.scenario import parse_scenario
from models import reset_all, ui
from pages.common import ASSETS, Keys, W, default, init_session_state


def set_scenario(scenario) -> None:
    """Replace the scenario and let every widget of this page show it."""
    st.session_state[Keys.SCENARIO] = scenario
    for key in [k for k in st.session_state if str(k).startswith(W)]:
        del st.session_state[key]
    reset_all()


def on_model() -> None:
    set_scenario(preset(get_model(st.session_state[W + "model"]).default_preset))


init_session_state()
sc = st.session_state[Keys.SCENARIO]
st.title("Scenario")

# --- presets and files -------------------------------------------------------------------------
c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
chosen_preset = c1.selectbox("Start from a preset", preset_names(), key="sc_preset",
                             index=preset_names().index(sc.name) if sc.name in preset_names() else 0)
c2.button("Load preset", key="sc_load_preset", on_click=lambda: set_scenario(preset(st.session_state["sc_preset"])))

st.radio("Model", model_names(), format_func=lambda name: get_model(name).title, key=default("model", sc.model),
         horizontal=True, on_change=on_model)
ui(sc.model).editor(sc)
sc = st.session_state[Keys.SCENARIO]

# --- save and load ------------------------------------------------------------------------------
st.subheader("Scenario file")
c1, c2 = st.columns(2)
c1.download_button("Download scenario (JSON)", sc.to_json(), f"{sc.name}.json", "application/json", key="sc_download",
                   on_click="ignore")
with c1.expander("Example files to start from"):
    st.caption("A scenario of each model to load here or pass to `hcsched run`; an ETC matrix (Table 3 of Maheswaran et al.) "
               "to upload under *My own matrix*; execution rates for `hcsched lp --alpha 5,8 --mu class-rates-B.csv`.")
    for path in sorted((ASSETS / "examples").iterdir()):
        st.download_button(path.name, path.read_bytes(), path.name, key=f"sc_example_{path.stem}", on_click="ignore",
                           mime="application/json" if path.suffix == ".json" else "text/csv")
uploaded = c2.file_uploader("Load a scenario (JSON or TOML)", type=["json", "toml"], key="sc_upload_scenario")
if uploaded is not None and st.session_state.get("sc_scenario_id") != uploaded.file_id:
    try:
        loaded = parse_scenario(uploaded.getvalue().decode("utf-8"), "toml" if uploaded.name.endswith(".toml") else "json",
                                source=uploaded.name)
    except (HcschedError, UnicodeDecodeError) as exc:
        c2.error(str(exc))
    else:
        st.session_state["sc_scenario_id"] = uploaded.file_id
        set_scenario(loaded)
        st.rerun()
