"""The experiments of Maheswaran et al. (1999), section 5, as scenarios.

20 machines, 2000 tasks, HiHi range-based ETC, truncated-Gaussian actual
times, 50 trials. The Poisson rates lambda_h, lambda_l and lambda_t
(section 5.1: MCT has completed 50%, 90% and 20% of the tasks when the last
one arrives) were found with ``hcsched calibrate`` (20 workloads, seed 2024)
for each ETC consistency; ``RATES`` records them and a test re-checks them.
"""

from __future__ import annotations

from hcsched.models.etc.spec import ArrivalSpec, EtcSpec
from hcsched.scenario import Scenario
from hcsched.sweep_spec import SweepPreset

RATES = {  # tasks per second, for 20 machines x 2000 tasks, HiHi
    ("inconsistent", "sort"): {"lambda_h": 0.00341065, "lambda_l": 0.0018753, "lambda_t": 0.00857969},
    ("semiconsistent", "sort"): {"lambda_h": 0.00329012, "lambda_l": 0.00177778, "lambda_t": 0.00835597},
    ("semiconsistent", "smallest"): {"lambda_h": 0.00206104, "lambda_l": 0.00112309, "lambda_t": 0.00513536},
}

IMMEDIATE = ("mct", "met", "sa", "kpb", "olb")
BATCH = ("min-min", "max-min", "sufferage")


def _scenario(name: str, description: str, heuristics, consistency: str = "inconsistent", mode: str = "sort",
              rate: str = "lambda_h", benchmark: str | None = None) -> Scenario:
    return Scenario(
        name=name, description=description, machines=20, tasks=2000,
        etc=EtcSpec("range", 3000.0, 100.0, consistency=consistency, semiconsistent_mode=mode),
        arrivals=ArrivalSpec("poisson", RATES[(consistency, mode)][rate]),
        heuristics=tuple(heuristics), benchmark=benchmark, trials=50, seed=1999,
    )


def _variants(label: str, **params) -> list[dict]:
    return [{"name": h, "label": f"{h} ({label})", **params} for h in BATCH]


PRESETS = {
    "maheswaran-fig4": lambda: _scenario(
        "maheswaran-fig4", "Fig. 4: immediate-mode heuristics, inconsistent HiHi, lambda_h; makespan normalised to "
                           "MCT.",
        IMMEDIATE),
    "maheswaran-fig5": lambda: _scenario(
        "maheswaran-fig5", "Fig. 5: immediate-mode heuristics, semiconsistent HiHi (the 'sort' reading of section 4), "
                           "lambda_h.",
        IMMEDIATE, "semiconsistent"),
    "maheswaran-fig5-smallest": lambda: _scenario(
        "maheswaran-fig5-smallest", "Fig. 5 under the other reading of section 4: each chosen task's smallest times "
                                    "form "
        "the consistent submatrix. lambda_h recalibrated for it.", IMMEDIATE, "semiconsistent", "smallest"),
    "maheswaran-fig6": lambda: _scenario(
        "maheswaran-fig6", "Fig. 6: batch-mode heuristics, regular interval of 10 s, inconsistent HiHi, lambda_h; "
        "makespan normalised to Min-min.", BATCH),
    "maheswaran-fig7": lambda: _scenario(
        "maheswaran-fig7", "Fig. 7: batch-mode heuristics with and without aging (sigma = 10), interval 10 s; "
        "normalised to Min-min without aging.", [*BATCH, *_variants("aging", aging=10.0)], benchmark="min-min"),
    "maheswaran-fig8": lambda: _scenario(
        "maheswaran-fig8", "Fig. 8: regular interval (10 s) vs fixed count (kappa = 40) strategies; "
        "normalised to Min-min with the interval strategy.",
        [*BATCH, *_variants("count 40", strategy="count", kappa=40)], benchmark="min-min"),
    **{
        f"maheswaran-fig{fig}": (lambda fig=fig, rate=rate: _scenario(
            f"maheswaran-fig{fig}", f"Fig. {fig}: MCT and KPB (immediate) vs Min-min and Sufferage (batch, interval 10 "
                                    "s), "
            f"inconsistent HiHi, {rate}; normalised to Min-min.", ("mct", "kpb", "min-min", "sufferage"), rate=rate,
            benchmark="min-min"))
        for fig, rate in ((9, "lambda_h"), (10, "lambda_l"), (11, "lambda_t"))
    },
}


def quickstart() -> Scenario:
    """The dashboard's default: a small, fast seed-000 experiment (8 machines, 200 tasks, lambda_h)."""
    return Scenario(
        name="quickstart", description="Two heuristics that place each task as it arrives (MCT, KPB) against two "
        "that place tasks in batches (Min-min, Sufferage): 200 tasks arriving about 2.3 an hour at 8 machines of "
        "very different speeds, none fastest for every task (Maheswaran et al., section 5.1: the case of high task "
        "and machine heterogeneity, inconsistent, at the higher arrival rate).",
        machines=8, tasks=200, arrivals=ArrivalSpec("poisson", 0.000645197),
        heuristics=("mct", "kpb", "min-min", "sufferage"), trials=20, seed=1999,
    )


PRESETS["quickstart"] = quickstart


def sweeps() -> dict:
    """The curves of section 5 as sweeps (:mod:`hcsched.sweep`); 20 trials a point."""
    rates = RATES[("inconsistent", "sort")]
    return {s.name: s for s in (
        SweepPreset("maheswaran-kpb-k", "KPB's sensitivity to k (section 5.2, after Fig. 5): semiconsistent HiHi, "
                    "lambda_h, 20 trials a point; k from its minimum of 5% (one machine of 20, MET) to 100% (MCT).",
                    lambda: _scenario("maheswaran-kpb-k", "KPB alone, semiconsistent HiHi, lambda_h.", ("kpb",),
                                      "semiconsistent").replace(trials=20),
                    {"heuristics.0.k": [5.0, 10.0, 20.0, 40.0, 60.0, 80.0, 100.0]},
                    "Doubling k from its minimum of 5% lowers the makespan about fivefold; a further doubling only by "
                    "about 1.2."),
        SweepPreset("maheswaran-rate", "Batch against immediate mode as the arrival rate grows (Figs. 9-11): MCT, KPB, "
                    "Min-min, Sufferage from lambda_l to lambda_t, 20 trials a point; normalised to Min-min.",
                    lambda: PRESETS["maheswaran-fig9"]().replace(name="maheswaran-rate", trials=20),
                    {"arrivals.rate": [rates["lambda_l"], rates["lambda_h"], 0.005, rates["lambda_t"]]},
                    "Batch mode (Min-min, Sufferage) beats immediate mode at high arrival rates (Fig. 11); at low "
                    "rates "
                    "the two come close (Fig. 10)."),
    )}
