"""The scenario: a preset or a file to start from, the model, and the model's own editor (``pages/models/``)."""

from __future__ import annotations

import streamlit as st

from hcsched import get_model, model_names, preset, preset_names
from hcsched.errors import describe_error
from hcsched.scenario import parse_scenario
from pages.link import copy_link
from pages.models import example_files, replace_scenario, ui
from pages.session import ORIGIN, Keys, W, as_loaded, default, init_session_state
from pages.widgets import ASSETS, plain, shown_as_error, upload_limits, uploaded_text

UNDO = "sc_undo"  # (the scenario replaced, the scenario that replaced it, what the first was edited from) when edits
# would otherwise be lost
LOAD_NOTE = "sc_load_note"  # what a load changed in the file's name or description, said once under the uploader


@st.cache_data(show_spinner=False)
def preset_descriptions() -> dict[str, str]:
    """Each preset's one-line description, as ``hcsched preset list`` prints it."""
    return {name: preset(name).description for name in preset_names()}


def loaded_entry(sc) -> str:
    """What the preset dropdown says is loaded: the preset's id while the scenario is that preset (trials and seed,
    which the Run page sets, aside), else "(edited: id)" or "(your own scenario: name)"."""
    if sc.name in preset_names():
        original = preset(sc.name)
        if sc.replace(trials=original.trials, seed=original.seed) == original:
            return sc.name
    base = sc.name.removesuffix(" (edited)")
    return f"(edited: {base})" if base in preset_names() else f"(your own scenario: {sc.name})"


def set_scenario(scenario) -> None:
    """Replace the scenario and let every widget of this page show it; edits that would be lost can be undone."""
    old = st.session_state[Keys.SCENARIO]
    if old != scenario and loaded_entry(old) not in preset_names():
        st.session_state[UNDO] = (old, scenario, st.session_state.get(ORIGIN))
    else:
        st.session_state.pop(UNDO, None)
    replace_scenario(scenario)


def undo() -> None:
    """Back to the edited scenario a load replaced, with what it was edited from (its description keeps naming every
    change since)."""
    old, _, origin = st.session_state[UNDO]
    set_scenario(old)
    if origin is not None:
        st.session_state[ORIGIN] = origin


def on_pick() -> None:
    """A preset picked in the dropdown is loaded at once, so the dropdown never names a preset that is not loaded."""
    name = st.session_state["sc_preset"]
    if name in preset_names():
        set_scenario(preset(name))


def keep_model() -> None:
    """Cancel a model switch: the model selector shows the scenario's model again."""
    st.session_state[W + "model"] = st.session_state[Keys.SCENARIO].model


def presets_and_undo(sc) -> None:
    """The dropdown of presets, showing what is loaded; Reload; Undo after a load replaced an edited scenario."""
    descriptions = preset_descriptions()
    entry = loaded_entry(sc)
    base = entry if entry in descriptions else entry.removeprefix("(edited: ").removesuffix(")")
    st.session_state["sc_preset"] = entry  # what is loaded, whatever was picked before
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    c1.selectbox("Scenario loaded (pick a preset to load it)", [*([] if entry in descriptions else [entry]),
                                                                *descriptions],
                 key="sc_preset", on_change=on_pick,
                 format_func=lambda name: f"{name}: {descriptions[name]}" if name in descriptions else name)
    c2.button("Reload preset", key="sc_load_preset", disabled=base not in descriptions,
              help=f"Load {base} again, as published" if base in descriptions else "The scenario is not a preset's",
              on_click=lambda: set_scenario(preset(base)))
    kept = st.session_state.get(UNDO)
    if kept is not None and kept[1] == sc:
        st.button(f"Undo: back to {plain(kept[0].name)}", key="sc_undo_button", on_click=undo)


init_session_state()
st.session_state.pop(Keys.PROBLEM, None)  # the model's editor sets it again while its edit is invalid
sc = st.session_state[Keys.SCENARIO]
st.title("Scenario")

# --- the preset dropdown (drawn once the editor below has committed this run's edit) and the model -------------
top = st.container()
model = st.radio("Model", model_names(), format_func=lambda name: get_model(name).title, key=default("model", sc.model),
                 horizontal=True)
if model != sc.model and loaded_entry(sc) in preset_names():  # an unedited preset: nothing is lost, switch at once
    set_scenario(preset(get_model(model).default_preset))
    st.rerun()
elif model != sc.model:  # edits would be lost: nothing is replaced until confirmed
    chosen = get_model(model)
    st.warning(f"Switching to **{chosen.title}** replaces the scenario **{plain(sc.name)}** "
               "with that model's default preset, "
               f"**{chosen.default_preset}**. Download the scenario below first to keep it.")
    c1, c2 = st.columns(2)
    c1.button(f"Replace the scenario with {chosen.default_preset}, {chosen.title}'s default preset",
              key="sc_model_confirm", type="primary", on_click=lambda: set_scenario(preset(chosen.default_preset)))
    c2.button(f"Keep {plain(sc.name)}", key="sc_model_cancel", on_click=keep_model)
with shown_as_error(f"The {get_model(sc.model).title} editor stopped"):
    ui(sc.model).editor(sc)
sc = st.session_state[Keys.SCENARIO]
with top:
    presets_and_undo(sc)

# --- save and load ------------------------------------------------------------------------------
st.subheader("Scenario file")
c1, c2 = st.columns(2)
c1.download_button("Download scenario (JSON)", sc.to_json(), f"{sc.name}.json", "application/json", key="sc_download",
                   on_click="ignore")
with c1:
    copy_link("scenario")
with c1.expander("Example files to start from"):
    st.caption("; ".join(["A scenario of each model to load here or pass to `hcsched run`", *example_files()]) + ".")
    for path in sorted((ASSETS / "examples").iterdir()):
        st.download_button(path.name, path.read_bytes(), path.name, key=f"sc_example_{path.stem}", on_click="ignore",
                           mime="application/json" if path.suffix == ".json" else "text/csv")
uploaded = c2.file_uploader("Load a scenario (JSON or TOML)", type=["json", "toml"], key="sc_upload_scenario")
c2.caption(upload_limits(table=False) + " The values come inline: a scenario loaded here names no file (its matrix or "
           "tables are uploaded in the editor above).")
if uploaded is not None and st.session_state.get("sc_scenario_id") != uploaded.file_id:
    try:  # without a folder to read from, a scenario naming a file is refused: the server's files are not the user's
        loaded = parse_scenario(uploaded_text(uploaded, "a scenario in JSON or TOML", table=False),
                                "toml" if uploaded.name.endswith(".toml") else "json", source=uploaded.name)
    except Exception as exc:  # one line under the uploader (a model's own failure too); the scenario loaded stays
        c2.error(plain(describe_error(exc)))
    else:
        st.session_state["sc_scenario_id"] = uploaded.file_id
        loaded, note = as_loaded(loaded, uploaded.name)
        set_scenario(loaded)
        if note:
            st.session_state[LOAD_NOTE] = note
        st.rerun()
note = st.session_state.pop(LOAD_NOTE, None)
if note:
    c2.info(note)
