"""The experiments of Kim et al. (2007), section 6, as scenarios: the eight scenarios of Figs. 2 and 3."""

from __future__ import annotations

import functools
from collections.abc import Callable

from hcsched.scenario import Scenario

SEED = 2007
TRIALS = 50
WEIGHTS = {"heavy": "16, 4, 1", "light": "4, 2, 1"}
MULTIPLIERS = {"loose": "4, 8, 12", "tight": "1, 2, 4"}
#: The heuristics of every preset, named here (a heuristic registered later changes no preset): the eight dynamic
#: heuristics of section 4, then the static benchmarks of section 5.
PAPER_HEURISTICS = ("max-max", "max-min", "min-min", "percent-best", "queueing-table", "relative-cost",
                    "slack-sufferage", "switching", "tpsa", "ga")


SPEEDS = {"high": "very different", "low": "similar"}  # heterogeneity (section 6) in words


def kim(deadlines: str, heterogeneity: str, weighting: str, trials: int = TRIALS) -> Scenario:
    """One of the paper's eight scenarios with every heuristic of section 4 and the two static benchmarks."""
    figure = "2" if deadlines == "loose" else "3"
    return Scenario.from_dict({
        "name": f"kim-{deadlines}-{heterogeneity}-{weighting}", "model": "value",
        "description": f"Tasks of three priorities arrive in three bursts over 250 minutes (15,000 s) at 8 machines of "
                       f"{SPEEDS[heterogeneity]} speeds; a task is worth less the later it ends after its "
                       f"{deadlines} deadlines. Score: the value earned, as % of the most possible. "
                       f"Kim et al. 2007, Fig. {figure}: deadlines {MULTIPLIERS[deadlines]} times 2.4 min beyond a "
                       f"typical run, "
                       f"{heterogeneity} heterogeneity, {weighting} priority weighting ({WEIGHTS[weighting]}), value "
                       f"counted from minute 10 to 250 (after the start-up); {trials} trials; two full-knowledge "
                       "searches (TPSA, GA) for reference.",
        "deadlines": deadlines, "heterogeneity": heterogeneity, "weighting": weighting,
        "heuristics": list(PAPER_HEURISTICS), "trials": trials, "seed": SEED})


PRESETS: dict[str, Callable[[], Scenario]] = {
    f"kim-{d}-{h}-{w}": functools.partial(kim, d, h, w)
    for d in ("loose", "tight") for h in ("high", "low") for w in ("heavy", "light")
}
