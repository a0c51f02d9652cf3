"""The estimation model's words a manager reads: each heuristic's parameters said in words with the paper's symbol
after them (beta of eqs. 13, 14, 18, 19), the estimator in words (k-NN with L-smoothing, section 2.1), and the presets'
descriptions without a list of codes (section 5.4, Table 4)."""

import dataclasses
import re

import pytest

from hcsched import preset
from hcsched.heuristics import heuristic_hover
from hcsched.models.estimation import MODEL
from hcsched.models.estimation.presets import PRESETS
from hcsched.verdict import heuristic_words, in_words

CODES = re.compile(r"\b(FA|FE|FZ|LA|LE|LZ|RR|LL|EF|FE_d|FZ_d)\b")
RAW = re.compile(r"\b(beta|nu|L)\s*=|\bknn\b|\bx3\b|\bx \d")  # a parameter key, the method's key, "x3", "1.2 x the"


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.;])\s+", text) if s]


def test_beta_is_said_in_words_alone_short_enough_for_a_lead():
    """tryout42d: "fz (largest estimate error first, error at a tenth of its usual weight, β = 0.1)" left a lead no room
    to name the heuristics clearly worse, and a manager does not read β: words alone (the symbol is the names'
    table's)."""
    assert heuristic_words("fz (beta=0.1)", "estimation") == "largest estimate error first, error weighted a tenth"
    assert in_words("fz (beta=0.1)", "estimation") == "fz (largest estimate error first, error weighted a tenth)"
    assert in_words("fe (beta=0.5)", "estimation") == "fe (smallest estimate error first, error weighted a half)"
    assert heuristic_words("lz (beta=0.3)", "estimation").endswith("error weighted 0.3 times")
    # on hover (folded), the words in full and the paper's symbol once after them
    assert heuristic_hover("fz (beta=0.1)", "estimation") == \
        "fz (beta=0.1): largest estimate error first, error at a tenth of its usual weight, β = 0.1"


def test_a_charts_short_name_says_beta_as_the_lead_does_with_no_symbol():
    """tryout42e: the lead said "fz (largest estimate error first, error weighted a tenth)" and the charts and the
    Gantt's chips "fz (β = 0.1)": the charts' names in the lead's words now (the symbol is the Heuristics page's)."""
    from hcsched.models.estimation.heuristics import short_name

    assert short_name("fz (beta=0.1)") == "fz (error weighted a tenth)"
    assert short_name("fz (beta=0.1, case=worst)") == "fz (error weighted a tenth, worst case)"
    assert short_name("fa") == "fa" and short_name("tabu (iterations=20)") == "tabu (iterations = 20)"
    labels = {h.label for sc in [f() for f in PRESETS.values()] for h in sc.heuristics}
    assert not [short_name(x) for x in labels if "β" in short_name(x) or "beta" in short_name(x)]


def test_every_built_in_parameter_of_every_preset_and_the_tiny_scenario_has_words():
    scenarios = [f() for f in PRESETS.values()] + [MODEL.tiny()]
    labels = {h.label for sc in scenarios for h in sc.heuristics if "(" in h.label}
    assert {"fz (beta=0.1)", "fz (beta=0.1, case=worst)", "tabu (iterations=20)"} <= labels
    for label in labels:
        said = in_words(label, "estimation")
        assert "=" not in said.replace("β = ", ""), said  # no raw key: every parameter in words
        assert "((" not in said and "))" not in said and ") (" not in said, said
    worst = in_words("fz (beta=0.1, case=worst)", "estimation")
    assert worst.endswith("error weighted a tenth, planned on each estimate plus its predicted error)"), worst


def test_a_parameter_without_words_leaves_the_label_as_written():
    assert heuristic_words("fz (beta=x)", "estimation") == "largest estimate error first; beta=x"


def test_a_plug_ins_parameter_of_a_built_in_name_keeps_its_authors_meaning():
    from hcsched.heuristics import Param

    mine = MODEL.plugin(lambda *a: None, name="mine", title="My rule", description="d", section="", paper="",
                        origin="test", params=(Param("beta", 1.0, float, 0.0, 10.0, doc="my beta"),))
    assert mine.label_words({"beta": "0.1"}) == ""


def test_the_headline_says_the_estimator_in_words_with_the_papers_symbols_after():
    """tryout42d: "(k-NN)" remained in the Results page's facts line: words alone (the names' table says k-NN)."""
    s = preset("page-system-a").spec
    said = MODEL.headline(s)
    assert said == ("run times estimated from the most alike of each processor's last 100 runs of a problem, "
                    "the longest and shortest 10% of those left out. The schedulers weigh the past errors of alike "
                    "runs")
    assert "nearest of them" not in said and "k-NN's own" not in said
    smoothed = dataclasses.replace(s, estimator=dataclasses.replace(s.estimator, method="smoothed", error="smoothed",
                                                                    nu=0.25, L=0.0))
    said = MODEL.headline(smoothed)
    assert "each new run counting 25% (ν = 0.25)" in said and "each new error counting 25% (ν = 0.25)" in said
    assert "nu =" not in said
    untrimmed = dataclasses.replace(s, estimator=dataclasses.replace(s.estimator, L=0.0))
    assert MODEL.headline(untrimmed).startswith("run times estimated from the most alike of each processor's last "
                                                "100 runs of a problem. ")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_presets_description_is_words_not_codes(name):
    text = PRESETS[name]().description
    assert not CODES.search(text), (name, CODES.findall(text))
    assert not RAW.search(text), (name, RAW.findall(text))
    assert all(len(s.split()) <= 35 for s in sentences(text)), [s for s in sentences(text) if len(s.split()) > 35]


def test_system_a_says_what_its_two_groups_of_heuristics_are():
    text = preset("page-system-a").description
    assert ("The paper's heuristics, which map tasks by these estimates and weigh their errors, are compared with "
            "five common schedulers as baselines: round robin, lightest loaded, earliest first, tabu search and "
            "simulated annealing.") in text
    assert "of Table 4" not in text and "section 5.4;" not in text
