"""Static benchmarks with full knowledge (Kim et al. 2007, section 5): the static problem (:mod:`.problem`, section
5.1), two-phase simulated annealing (:mod:`.annealing`, TPSA, section 5.2) and a genetic algorithm (:mod:`.genetic`,
GA, section 5.3), as numba kernels. Both searches start from the given schedule (the trial's best dynamic mapping),
keep the best schedule seen so far, and never return anything worse than their seed.
"""

from __future__ import annotations

from hcsched.models.value.static import annealing, genetic
from hcsched.models.value.static.annealing import TPSA_PARAMS, tpsa
from hcsched.models.value.static.genetic import GA_PARAMS, ga
from hcsched.models.value.static.problem import OBJECTIVES, StaticProblem, StaticResult, evaluate, score

__all__ = ["GA_PARAMS", "OBJECTIVES", "TPSA_PARAMS", "StaticProblem", "StaticResult", "annealing", "evaluate", "ga",
           "genetic", "score", "tpsa"]
