"""Pick heuristics from the registry, with their parameters; the same one may be added twice."""

import streamlit as st

from hcsched import REGISTRY, HcschedError, get_heuristic, get_model, heuristic_names
from hcsched.scenario import HeuristicSpec
from pages.common import Keys, init_session_state, link


def param_widget(p, name: str):
    """A widget for one registry parameter, bounded by its allowed range."""
    key = f"hx_{name}_{p.name}"
    if p.kind == "choice":
        return st.selectbox(p.name, p.choices, index=p.choices.index(p.default), key=key, help=p.doc)
    if p.optional:
        if not st.checkbox(f"{p.name} on", value=p.default is not None, key=key + "_on", help=p.doc):
            return None
    is_int = p.kind is int
    low = p.low if p.low is not None else None
    step = 1 if is_int else None
    if p.low_open and low is not None:
        low = low + (1 if is_int else 1e-6)
    value = p.default if p.default is not None else (10.0 if not is_int else 10)
    return st.number_input(p.name, min_value=int(low) if is_int and low is not None else low,
                           max_value=p.high, value=value, step=step, key=key, help=p.doc)


def set_heuristics(specs, benchmark=None) -> None:
    sc = st.session_state[Keys.SCENARIO]
    try:
        st.session_state[Keys.SCENARIO] = sc.replace(heuristics=tuple(specs), benchmark=benchmark)
        st.session_state.pop("hx_error", None)
    except HcschedError as exc:
        st.session_state["hx_error"] = str(exc)


init_session_state()
sc = st.session_state[Keys.SCENARIO]
st.title("Heuristics")

st.subheader("Chosen")
for i, spec in enumerate(sc.heuristics):
    h = spec.heuristic
    c1, c2 = st.columns([5, 1], vertical_alignment="center")
    params = ", ".join(f"{k}={'off' if v is None else v}" for k, v in spec.params) or "no parameters"
    c1.markdown(f"**{spec.label}** · {h.title} · {h.mode} mode · {params}")
    if c2.button("Remove", key=f"hx_remove_{i}", disabled=len(sc.heuristics) == 1):
        rest = [s for j, s in enumerate(sc.heuristics) if j != i]
        set_heuristics(rest, sc.benchmark if sc.benchmark in [s.label for s in rest] else None)
        st.rerun()
labels = [s.label for s in sc.heuristics]
bench = sc.benchmark_label
model = get_model(sc.model)
if model.normalizes():  # e.g. the ETC model's makespan; the task-class model normalises nothing
    normalised = ", ".join(m.title.lower() for m in model.metrics if m.normalize)
    bench = st.selectbox(f"Normalise {normalised} to", labels, index=labels.index(sc.benchmark_label), key="hx_benchmark",
                         help="By default " + ", else ".join(model.benchmarks) + " if chosen (as the paper does), else the first.")
if bench != sc.benchmark_label:
    set_heuristics(sc.heuristics, bench)
    st.rerun()

st.subheader("Add a heuristic")
name = st.selectbox("Heuristic", heuristic_names(model=sc.model), key="hx_name",
                    format_func=lambda n: f"{n} - {REGISTRY[n].title} ({REGISTRY[n].mode})")
h = get_heuristic(name)
st.info(f"{h.description}\n\n{h.paper}, section {h.section}.")
values = {p.name: param_widget(p, name) for p in h.params}
label = st.text_input("Label (optional)", key="hx_label", placeholder="e.g. kpb k=10")
if st.button("Add", key="hx_add", type="primary"):
    try:
        spec = HeuristicSpec.make(name, label or None, **values)
    except HcschedError as exc:
        st.session_state["hx_error"] = str(exc)
    else:
        set_heuristics([*sc.heuristics, spec], sc.benchmark)
    st.rerun()
if "hx_error" in st.session_state:
    st.error(st.session_state["hx_error"])
link("run", "Go to Run")
