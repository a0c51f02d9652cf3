"""Pick the scenario model's heuristics, with their parameters; the same one may be added twice.

Labels: a label the user types is kept as typed. An automatic label is the
heuristic's name with the parameters it changes from the defaults ("kpb",
"kpb (k=10)"), as :meth:`HeuristicSpec.make` gives it, so a single copy of a
heuristic keeps the label a saved scenario loads with. When several copies of
one heuristic are chosen, their automatic labels name every parameter that is
not at its default in some copy ("kpb (k=20)" beside "kpb (k=10)", "kpb
(kbar=off)" beside "kpb (kbar=2)"), so that no copy reads as the default one;
removing the other copies gives back "kpb".
Add, Remove and the benchmark act in callbacks; an error stays on the page
until the next successful action, the next edit of the form, or until the
scenario it concerns is replaced (a preset reloaded, a file loaded). When Add
or Remove changes the heuristic normalised metrics are divided by (the default
benchmark removed, or one the default prefers added), the page says so under
the benchmark, naming both, until the next action or edit of the scenario.
Parameter fields carry no bounds in the browser: a bounded field refuses a
value beyond its range there, silently keeping the last valid one, which Add
would then use. Each field's value is checked here instead, on every rerun,
and a problem is said under the field (field, value, what is allowed) while
Add is disabled.
"""

import dataclasses

import streamlit as st

from hcsched import HcschedError, get_heuristic, get_model, heuristic_names
from hcsched.compare import benchmark_kind
from hcsched.metrics import LOWER_BOUND
from hcsched.scenario import HeuristicSpec
from pages.session import Keys, commit_scenario, init_session_state
from pages.widgets import link, plain

ERROR = "hx_error"  # (the last action's error, the scenario it concerns), shown until the next success or edit
BENCHMARK_NOTE = "hx_benchmark_note"  # (how Add or Remove changed the benchmark, the scenario it concerns)
LABEL = "hx_label"  # the Label field, cleared after a successful Add
NAME = "hx_name"
BENCHMARK = "hx_benchmark"


def show_value(value) -> str:
    """A parameter value as people write it: off for None, 20 rather than 20.0."""
    if value is None:
        return "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def whole_only(h, p) -> bool:
    """Whether a float parameter takes only whole numbers (e.g. kbar, a number of machines): the heuristic accepts the
    whole number above the parameter's lower bound and refuses the half after it, though its range allows it."""
    if p.kind is not float:
        return False
    whole = (p.low if p.low is not None else 0.0) + 1.0
    try:
        p.check(whole + 0.5, h.name)
        h.resolve({p.name: whole})
    except HcschedError:
        return False
    try:
        h.resolve({p.name: whole + 0.5})
    except HcschedError:
        return True
    return False


def param_key(name: str, p) -> str:
    return f"hx_{name}_{p.name}"


def clear_error() -> None:
    st.session_state.pop(ERROR, None)


def set_error(text: str) -> None:
    st.session_state[ERROR] = (text, st.session_state[Keys.SCENARIO])


def last_error() -> str | None:
    """The last action's error while the scenario it concerns is loaded; forgotten once that scenario is replaced."""
    kept = st.session_state.get(ERROR)
    if kept is None:
        return None
    if kept[1] is not st.session_state[Keys.SCENARIO]:  # replaced (even by an equal one: a preset reloaded)
        clear_error()
        return None
    return kept[0]


def is_on(h, p) -> bool:
    """Whether the parameter has a value: an optional one only while its "on" box is ticked."""
    return (p.kind == "choice" or not p.optional
            or st.session_state.get(param_key(h.name, p) + "_on", p.default is not None))


def param_widget(h, p) -> None:
    """A widget for one parameter, with the problem of the value it holds said under it at once; whole-number parameters
    show as integers. The field has no bounds in the browser (see the module's docstring); its range is in its help and
    in the message under it when the value is beyond it."""
    key = param_key(h.name, p)
    tip = f"{p.doc} Allowed: {p.allowed()}.".strip()
    if p.kind == "choice":
        st.selectbox(p.name, p.choices, index=p.choices.index(p.default), key=key, help=tip, on_change=clear_error)
        return
    if p.optional and not st.checkbox(f"{p.name} on", value=p.default is not None, key=key + "_on", help=p.doc,
                                      on_change=clear_error):
        return
    whole = p.kind is int or whole_only(h, p)
    start = p.default if p.default is not None else 10
    st.session_state.setdefault(key, int(start) if whole else float(start))
    if whole:
        st.number_input(p.name, value=None, step=1, format="%d", key=key, help=tip, on_change=clear_error)
    else:
        st.number_input(p.name, value=None, key=key, help=tip, on_change=clear_error)
    problem = field_problem(h, p)
    if problem:
        st.error(plain(problem))


def param_values(h) -> dict:
    """The parameters as the form holds them (read in a callback, so the values are those of the click)."""
    return {p.name: st.session_state.get(param_key(h.name, p), p.default) if is_on(h, p) else None for p in h.params}


def field_problem(h, p) -> str | None:
    """What is wrong with the value a shown parameter field holds (the library's message: field, value, what is
    allowed), or None. A field that is shown must hold a value: empty is not "off" there."""
    if not is_on(h, p):
        return None
    try:
        dataclasses.replace(p, optional=False).check(st.session_state.get(param_key(h.name, p), p.default), h.name)
    except HcschedError as exc:
        return str(exc)
    return None


def form_problems(h) -> list[str]:
    """Every field's problem; when the fields are each valid, what the heuristic's own checks refuse (e.g. kbar a whole
    number of machines, low not above high)."""
    problems = [x for x in (field_problem(h, p) for p in h.params) if x]
    if not problems:
        try:
            h.resolve(param_values(h))
        except HcschedError as exc:
            problems.append(str(exc))
    return problems


def is_auto_label(spec: HeuristicSpec) -> bool:
    """Whether the label is one this page would give: the name, or the name with some of its parameter values."""
    if spec.label == spec.name:
        return True
    inner = spec.label.removeprefix(f"{spec.name} (")
    if inner == spec.label or not inner.endswith(")"):
        return False
    values = dict(spec.params)
    pairs = [part.partition("=") for part in inner[:-1].split(", ")]
    return all(sep and key in values and show_value(values[key]) in (text, str(values[key]))
               for key, sep, text in pairs)


def auto_label(spec: HeuristicSpec, copies: list[HeuristicSpec]) -> str:
    """The label of ``spec`` among ``copies`` of its heuristic: its changed parameters when alone, else every
    parameter that some copy changes, so that all copies name the same parameters."""
    h = spec.heuristic
    defaults = h.defaults()
    if len(copies) == 1:
        changed = {k: v for k, v in spec.params if v != defaults[k]}
        return HeuristicSpec.make(spec.name, model=spec.model, **changed).label
    values = dict(spec.params)
    keys = [p.name for p in h.params if any(dict(c.params)[p.name] != defaults[p.name] for c in copies)]
    return f"{spec.name} ({', '.join(f'{k}={show_value(values[k])}' for k in keys)})" if keys else spec.name


def relabel(specs: list[HeuristicSpec]) -> list[HeuristicSpec]:
    """The specs with their automatic labels set for the copies of each heuristic among them."""
    out = []
    for spec in specs:
        copies = [s for s in specs if (s.name, s.model) == (spec.name, spec.model)]
        out.append(dataclasses.replace(spec, label=auto_label(spec, copies)) if is_auto_label(spec) else spec)
    return out


def commit(specs: list[HeuristicSpec], benchmark: str | None, say_benchmark: bool = True) -> bool:
    """Make ``specs`` (relabelled) the scenario's heuristics, the benchmark following its heuristic's new label;
    False, with the error kept for the page, when the scenario refuses them. A benchmark that changes as a consequence
    (``say_benchmark``: not chosen by the user) is said under the benchmark."""
    new = relabel(specs)
    renamed = {old.label: s.label for old, s in zip(specs, new, strict=True)}
    sc = st.session_state[Keys.SCENARIO]
    try:
        committed = commit_scenario(sc.replace(heuristics=tuple(new), benchmark=renamed.get(benchmark, benchmark)))
    except HcschedError as exc:
        set_error(str(exc))
        return False
    clear_error()
    st.session_state.pop(BENCHMARK_NOTE, None)
    note = benchmark_change(sc, committed) if say_benchmark else None
    if note:
        st.session_state[BENCHMARK_NOTE] = (note, committed)
    return True


def benchmark_change(before, after) -> str | None:
    """What happened to the benchmark (for models that normalise) when Add or Remove changed it: the new one and the
    old one, and why; None when it is the same heuristic (perhaps relabelled)."""
    model = get_model(after.model)
    if not model.normalizes():
        return None
    kind = benchmark_kind
    if kind(before) == kind(after):
        return None
    old, new = plain(before.benchmark_label), plain(after.benchmark_label)  # labels, said in Markdown
    what = ", ".join(m.title.lower() for m in model.metrics if m.normalize)
    if kind(before) not in [(h.name, h.params) for h in after.heuristics]:
        why = f"{old}, the benchmark, was removed"
    else:
        why = f"{new} was added, and the default benchmark is {', else '.join(model.benchmarks)}, if chosen"
    return f"{what[:1].upper()}{what[1:]} is now normalised to **{new}**, not {old}: {why}. Choose another above."


def add() -> None:
    """The Add button: the form's heuristic, parameters and label; the label field is cleared when it is added. A form
    with an invalid field adds nothing (the button is disabled then; this covers a click sent with the edit)."""
    sc = st.session_state[Keys.SCENARIO]
    try:
        h = get_heuristic(st.session_state[NAME], sc.model)
        if form_problems(h):  # each is said above, under its field or the fields
            raise HcschedError("Not added: correct the parameters marked above first.")
        spec = HeuristicSpec.make(h.name, st.session_state.get(LABEL, "").strip() or None, model=sc.model,
                                  **param_values(h))
    except HcschedError as exc:
        set_error(str(exc))
        return
    if commit([*sc.heuristics, spec], sc.benchmark):
        st.session_state[LABEL] = ""


def remove(i: int) -> None:
    sc = st.session_state[Keys.SCENARIO]
    rest = [s for j, s in enumerate(sc.heuristics) if j != i]
    commit(rest, sc.benchmark if sc.benchmark in [s.label for s in rest] + [LOWER_BOUND] else None)


def choose_benchmark() -> None:
    """The benchmark chosen; a label the scenario no longer has (picked on a list drawn before the labels changed) is
    not committed: the rerun shows the scenario's own benchmark."""
    sc = st.session_state[Keys.SCENARIO]
    if st.session_state[BENCHMARK] in [s.label for s in sc.heuristics] + [LOWER_BOUND]:
        commit(list(sc.heuristics), st.session_state[BENCHMARK], say_benchmark=False)
    else:
        set_error(f"{st.session_state[BENCHMARK]} is no longer one of the heuristics (they changed meanwhile); the "
                  f"benchmark stays {sc.benchmark_label}.")


def chosen(sc) -> None:
    """The scenario's heuristics, each with its parameters and a Remove button."""
    for i, spec in enumerate(sc.heuristics):
        h = spec.heuristic
        c1, c2 = st.columns([5, 1], vertical_alignment="center")
        params = ", ".join(f"{k}={show_value(v)}" for k, v in spec.params) or "no parameters"
        c1.markdown(f"**{plain(spec.label)}** · {h.title} · {h.mode} mode · {plain(params)}")
        c2.button("Remove", key=f"hx_remove_{i}", disabled=len(sc.heuristics) == 1, on_click=remove, args=(i,))


def benchmark(sc) -> None:
    """The heuristic normalised metrics are divided by (for models that normalise)."""
    model = get_model(sc.model)
    if not model.normalizes():  # e.g. the ETC model's makespan; the task-class model normalises nothing
        return
    normalised = ", ".join(m.title.lower() for m in model.metrics if m.normalize)
    st.session_state[BENCHMARK] = sc.benchmark_label  # the widget follows the scenario (labels may have changed)
    bound = [LOWER_BOUND] if model.bound_columns else []
    st.selectbox(f"Normalise {normalised} to", [s.label for s in sc.heuristics] + bound, key=BENCHMARK,
                 on_change=choose_benchmark,
                 help="By default " + ", else ".join(model.benchmarks) + " if chosen (as the paper does), else the "
                      "first." + (" The lower bound: each trial's bound on the best possible (1 is optimal)."
                                  if bound else ""))
    note = st.session_state.get(BENCHMARK_NOTE)
    if note is not None and note[1] is st.session_state[Keys.SCENARIO]:  # forgotten once the scenario is edited again
        st.info(note[0])


def plugin_origin(h) -> str:
    """Where a plug-in comes from, without repeating "plug-in": "my_rules.py" for "plug-in (my_rules.py)" (made by
    @hcsched.heuristic in that file), "entry point (my-package)" as it is."""
    inner = h.origin.removeprefix("plug-in (")
    return inner[:-1] if inner != h.origin and inner.endswith(")") else h.origin


def picker_line(h) -> str:
    """A heuristic as the picker lists it: "mct - Minimum completion time (immediate)"; a plug-in marked with where
    it comes from ("my-rule - My rule (immediate) · plug-in: entry point (my-package)", "... · plug-in: rules.py")."""
    line = f"{h.name} - {h.title} ({h.mode})"
    return f"{line} · plug-in: {plugin_origin(h)}" if h.plugin else line


def about(h) -> str:
    """What the heuristic does and where it is defined; a plug-in's own text shown as text."""
    if h.plugin:
        return f"{plain(h.description or h.title)}\n\nA plug-in installed on this server: {plain(plugin_origin(h))}."
    return f"{h.description}\n\n{h.paper}, section {h.section}."


def add_form(sc) -> None:
    """Heuristic, parameters, optional label and the Add button, with the last error inline."""
    st.subheader("Add a heuristic")
    name = st.selectbox("Heuristic", heuristic_names(model=sc.model), key=NAME,
                        format_func=lambda n: picker_line(get_heuristic(n, sc.model)), on_change=clear_error,
                        help="The papers' heuristics, then the plug-ins installed on this server (marked plug-in): "
                             "see Write your own heuristic in the documentation.")
    h = get_heuristic(name, sc.model)
    st.info(about(h))
    for p in h.params:
        param_widget(h, p)
    st.text_input("Label (optional)", key=LABEL, placeholder="e.g. kpb k=10", on_change=clear_error,
                  help="Leave empty for a label from the parameters; copies of one heuristic show theirs.")
    problems = form_problems(h)
    if problems and not any(field_problem(h, p) for p in h.params):  # the heuristic's own check; fields' are under them
        st.error(plain(problems[0]))
    st.button("Add", key="hx_add", type="primary", on_click=add, disabled=bool(problems),
              help="Correct the parameters marked above first." if problems else None)
    error = last_error()
    if error:
        st.error(plain(error))


init_session_state()
scenario = st.session_state[Keys.SCENARIO]
st.title("Heuristics")
st.subheader("Chosen")
chosen(scenario)
benchmark(scenario)
add_form(scenario)
link("run", "Go to Run")
