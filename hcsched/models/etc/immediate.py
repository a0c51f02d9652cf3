"""Immediate-mode heuristics of Maheswaran et al. (1999), section 3.2, as numba kernels.

Each rule sees one arriving task's expected execution times ``e`` (one per
machine) and the machines' expected ready times ``ready`` (never earlier than
now), and returns the chosen machine index. Ties go to the lowest machine index.

The ``*_rule`` functions are the same rules behind the plug-in interface (:mod:`.plugin`): ``rule(e, ready, now,
params, state) -> machine``, compiled for :data:`RULE_SIGNATURE`, so that the engine's one loop runs the papers'
rules and a user's alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from hcsched.kernels import best_machine, earliest_among

# rule(e, ready, now, params, state) -> machine: the immediate rule's decision (:mod:`.plugin`)
RULE_SIGNATURE = types.int64(types.float64[::1], types.float64[::1], types.float64, types.float64[::1],
                             types.float64[::1])
RULE_TYPE = types.FunctionType(RULE_SIGNATURE)  # the rule as an argument of the engine's compiled loops
# The papers' rules by kind, which the loops call inline (a first-class function call is not inlined: MCT's loop
# ran 3.8 times slower through it, bench figures in docs/models/etc.md); RULE: the loop calls the rule it is given.
MCT, MET, OLB, SA, KPB, RULE = range(6)


@njit(cache=True)
def mct(e, ready):
    """Minimum completion time: argmin_j ready_j + e_j (section 3.2)."""
    return best_machine(e, ready)[0]


@njit(cache=True)
def met(e, ready):
    """Minimum execution time: argmin_j e_j, ignoring ready times (section 3.2)."""
    return np.argmin(e)


@njit(cache=True)
def olb(e, ready):
    """Opportunistic load balancing: the machine that becomes ready next (section 3.2)."""
    return np.argmin(ready)


@njit(cache=True)
def load_balance_index(ready):
    """pi = r_min / r_max; 0 when every ready time is 0 (the paper's initial value)."""
    r_max = ready.max()
    return ready.min() / r_max if r_max > 0.0 else 0.0


@njit(cache=True)
def sa(e, ready, state, low, high):
    """Switching algorithm (section 3.2).

    ``state[0]`` is 0 while SA uses MCT and 1 while it uses MET. Before each
    assignment the load balance index pi is computed: in MCT mode pi >= high
    switches to MET; in MET mode pi <= low switches back to MCT. SA starts in
    MCT mode (the paper sets pi = 0 initially).
    """
    pi = load_balance_index(ready)
    if state[0] == 0.0 and pi >= high:
        state[0] = 1.0
    elif state[0] == 1.0 and pi <= low:
        state[0] = 0.0
    return met(e, ready) if state[0] == 1.0 else mct(e, ready)


@njit(cache=True)
def kpb_subset_size(m, k):
    """floor(m k / 100) machines, at least one (section 3.2); a negative k means -k machines (kbar)."""
    if k < 0:
        return min(m, int(-k))
    return max(1, int(np.floor(m * k / 100.0 + 1e-9)))


@njit(cache=True)
def kpb(e, ready, k):
    """K-percent best: MCT among the floor(m k/100) machines with the smallest e (section 3.2).

    The subset is ranked by execution time with ties to the lower index (as a
    stable sort would); within it, completion-time ties go to the lowest index.
    The subset is kept while scanning the machines once (insertion into the
    ``size`` best so far), not by sorting all m.
    """
    size = kpb_subset_size(e.size, k)
    subset = np.empty(size, np.int64)
    kept = 0
    for j in range(e.size):
        if kept == size and not e[j] < e[subset[size - 1]]:
            continue
        q = kept if kept < size else size - 1
        while q > 0 and e[j] < e[subset[q - 1]]:
            subset[q] = subset[q - 1]
            q -= 1
        subset[q] = j
        kept = min(kept + 1, size)
    return earliest_among(subset, size, ready, e)


@njit(RULE_SIGNATURE, cache=True)
def mct_rule(e, ready, now, params, state):
    """MCT behind the plug-in interface."""
    return best_machine(e, ready)[0]


@njit(RULE_SIGNATURE, cache=True)
def met_rule(e, ready, now, params, state):
    """MET behind the plug-in interface."""
    return np.argmin(e)


@njit(RULE_SIGNATURE, cache=True)
def olb_rule(e, ready, now, params, state):
    """OLB behind the plug-in interface."""
    return np.argmin(ready)


@njit(RULE_SIGNATURE, cache=True)
def sa_rule(e, ready, now, params, state):
    """SA behind the plug-in interface: ``params`` (low, high), its mode in ``state[0]``."""
    return sa(e, ready, state, params[0], params[1])


@njit(RULE_SIGNATURE, cache=True)
def kpb_rule(e, ready, now, params, state):
    """KPB behind the plug-in interface: ``params[0]`` k percent, or -kbar machines."""
    return kpb(e, ready, params[0])


@njit(cache=True)
def choose(kind, e, ready, state, params):
    """Dispatch to the paper's immediate rule ``kind`` with its numeric ``params``; an unknown kind raises
    ValueError (RULE is the loop's, which calls its rule)."""
    if kind == MCT:
        return mct(e, ready)
    if kind == MET:
        return met(e, ready)
    if kind == OLB:
        return olb(e, ready)
    if kind == SA:
        return sa(e, ready, state, params[0], params[1])
    if kind == KPB:
        return kpb(e, ready, params[0])
    raise ValueError("unknown heuristic kind")
