"""The dashboard's house: st.navigation lists the pages and nothing else (the dashboard's part of each
model and the shared modules are never pages, whatever sits under pages/), and the shared pages carry no model's
text: they ask the model's dashboard module (pages/models/NAME.py) for it."""

import importlib

import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, app, open_results  # noqa: E402

from hcsched import get_model, model_names, preset  # noqa: E402
from pages.widgets import PAGES  # noqa: E402

SHARED = sorted(p for p in (ROOT / "pages").glob("*.py") if p.relative_to(ROOT).as_posix() not in PAGES.values())


def ui(name):
    return importlib.import_module(f"pages.models.{name}")


def test_only_the_listed_pages_are_pages():
    at = app()
    modules = [*SHARED, *sorted((ROOT / "pages" / "models").glob("*.py"))]
    assert len(modules) >= 12 and ROOT / "pages" / "models" / "etc.py" in modules
    for path in modules:
        with pytest.raises(ValueError, match="Could not find a navigation page"):
            at.switch_page(path.relative_to(ROOT).as_posix())
    for page in PAGES.values():
        if page != "app.py":
            at.switch_page(page)  # a listed page is found
    at.switch_page("pages/sweep.py").run()
    assert not at.exception and at.title[0].value == "Sweep"


def test_the_shared_pages_hold_no_models_text():
    """What a model's module gives (its sweep key example, its example files, lambda* as λ*) is written nowhere
    else."""
    texts = {"lambda*", "λ", "Maheswaran", "hcsched lp"}
    for name in model_names():
        texts |= {getattr(ui(name), attr) for attr in ("SWEEP_KEY_EXAMPLE", "EXAMPLE_FILES") if hasattr(ui(name), attr)}
    assert {"etc.task_het or heuristics.1.k",
            "execution rates for `hcsched lp --alpha 5,8 --mu class-rates-B.csv`"} <= texts
    for path in [ROOT / "app.py", *(ROOT / "pages").glob("*.py")]:
        source = path.read_text()
        assert not [t for t in texts if t in source], path


def test_the_task_class_models_lambda_shows_as_a_symbol_and_other_models_text_as_it_is():
    for name in ("classes", "etc"):
        sc = get_model(name).tiny()
        headline = get_model(name).headline(sc.spec)
        at = open_results(sc)
        caption = next(c.value for c in at.caption if "seed" in c.value)
        if name == "classes":
            assert "lambda*" in headline and "lambda*" not in caption  # in words first, the symbol after
            assert "The machines can handle 1.33 times these arrivals" in caption
        else:
            assert headline in caption


def test_the_scenario_page_says_what_each_models_example_files_are_for():
    at = app("pages/scenario.py")
    caption = next(c.value for c in at.caption if "A scenario of each model" in c.value)
    notes = [ui(name).EXAMPLE_FILES for name in model_names() if hasattr(ui(name), "EXAMPLE_FILES")]
    assert len(notes) >= 4 and all(note in caption for note in notes)


@pytest.mark.parametrize("scenario", ["quickstart", "alazzoni-B"])
def test_the_sweep_pages_typed_key_example_is_the_models(scenario):
    sc = preset(scenario)
    at = app("pages/sweep.py", scenario=sc)
    at.selectbox(key="sw_param1").set_value("(type a key)").run()
    assert not at.exception, at.exception
    assert at.text_input(key="sw_typed1").placeholder == ui(sc.model).SWEEP_KEY_EXAMPLE
