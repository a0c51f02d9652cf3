"""Step through a heuristic's decisions on a small example of a system model (each model's own Explain)."""

import streamlit as st

from hcsched import get_model, model_names
from pages.models import ui
from pages.session import Keys, init_session_state
from pages.widgets import shown_as_error

init_session_state()
st.title("Explain")
sc = st.session_state[Keys.SCENARIO]
systems = [n for n in model_names() if callable(getattr(ui(n), "explain", None))]
system = st.selectbox("System", systems, index=systems.index(sc.model) if sc.model in systems else 0,
                      format_func=lambda n: get_model(n).title, key="ex_model")
model = get_model(system)
with shown_as_error(f"Explain of {model.title} stopped"):
    # the loaded one if it fits
    ui(system).explain({sc.model: sc}.get(system) or model.presets()[model.default_preset]())
