"""The task-class model's kernels (Al-Azzoni and Down, sections II-V): its heuristics and its simulation loop.

Every heuristic of this model maps a class-i arrival to a machine among a
per-class candidate list (sorted by machine index): MET its fastest machine,
MCT every capable machine, KPB the kbar fastest, the LPAS family
S_i = {j : delta*_ij > 0}. The rules differ in how they choose among the
candidates (``kind``). Expected completion at machine j is
W_j + 1/mu_ij, with W_j = sum_i' Q_i'j / mu_i'j (section III-B, FCFS).
Random choices use two uniforms per task drawn before the run, and ties
broken at random (``ties`` RANDOM) a third.

The kernels take their inputs in a few named tuples of arrays:

- ``tasks`` = (arrival, cls, scale, u1, u2, u3): a trial's draws (arrival
  times, sorted; classes; unit-mean work; two uniforms for randomised rules
  and one for ties);
- ``rule`` = (kind, cands, counts, weights, c, reach, ties): a heuristic's
  candidates per class (classes x machines, the first ``counts[i]`` of row i
  used), its weights delta*_ij mu_ij, Guided-LPAS's constant C, and 1/mu_ij
  on the candidates, inf elsewhere (what the earliest-completion rule adds to
  each machine's W_j), and how ties are broken (LOWEST or RANDOM);
- ``system`` = (inv, horizon, samples): 1/mu_ij (inf where mu_ij = 0), the
  end of the run, and the times at which the number in system is sampled;
- ``choose``: a plug-in's rule (kind PLUGIN, :mod:`hcsched.models.classes.plugin`),
  :func:`no_rule` for the built-ins; ``plugin`` = (mu, delta, params): the
  rates and delta* it reads and its parameters.

Every dispatch on ``kind`` raises ``ValueError("unknown heuristic kind")`` on a
kind it does not know.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import overload

from hcsched.kernels import earliest_among as earliest
from hcsched.models.classes.plugin import RULE_TYPE, Machines, Task

EARLIEST, TWO_CHOICES, STATIC, GUIDED, GUIDED_TWO, PLUGIN = range(6)
LOWEST, RANDOM = 0, 1  # ties: the lowest machine index, or one of the tied machines drawn uniformly
TIE = 1e-9  # expected completions within this relative distance are tied (the same work summed in another order)


@njit(cache=True)
def tie_break(cands, count, W, e, best, u):
    """One of the first ``count`` machines of ``cands`` whose completion W_j + e_j ties with machine ``best``'s (the
    earliest), drawn uniformly by the uniform ``u``."""
    limit = (W[best] + e[best]) * (1.0 + TIE)
    n = 0
    for k in range(count):
        j = cands[k]
        if W[j] + e[j] <= limit:
            n += 1
    pick = min(int(u * n), n - 1)
    for k in range(count):
        j = cands[k]
        if W[j] + e[j] <= limit:
            if pick == 0:
                return j
            pick -= 1
    return best


@njit(cache=True)
def draw(cands, count, weights, u, skip):
    """A candidate drawn with probability proportional to ``weights`` (``skip`` excluded)."""
    total = 0.0
    for k in range(count):
        if cands[k] != skip:
            total += weights[cands[k]]
    target = u * total
    last = -1
    for k in range(count):
        j = cands[k]
        if j == skip:
            continue
        last = j
        target -= weights[j]
        if target < 0.0:
            return j
    return last


@njit(cache=True)
def earliest_tied(cands, count, W, e, ties, u):
    """The earliest completion among the first ``count`` of ``cands``, ties broken by ``ties`` (:func:`tie_break`)."""
    j = earliest(cands, count, W, e)
    return tie_break(cands, count, W, e, j, u) if ties == RANDOM else j


@njit(cache=True)
def two_choices(cands, count, W, e, weights, u1, u2, ties, u3):
    """Two candidates drawn by weight (LPAS-2/k, section IV-A.1); the earlier completion wins."""
    if count <= 2:
        return earliest_tied(cands, count, W, e, ties, u3), count
    j1 = draw(cands, count, weights, u1, -1)
    j2 = draw(cands, count, weights, u2, j1)
    c1, c2 = W[j1] + e[j1], W[j2] + e[j2]
    if ties == RANDOM and abs(c1 - c2) <= TIE * max(c1, c2):
        return (j1 if u3 < 0.5 else j2), 2
    return (j1 if c1 < c2 or (c1 == c2 and j1 < j2) else j2), 2


@njit(cache=True, inline="always")
def decide(rule, i, t, W, e, shares, u, buf):
    """Machine for a class-i arrival at time t: (machine, machines consulted, 1 if condition (iii) overrode LPAS).

    ``W[j]`` is machine j's expected work and ``e[j]`` = 1/mu_ij; ``rule``'s
    ``weights[i, j]`` = delta*_ij mu_ij (the target shares pi_ij once
    normalised); ``shares`` = (assigned, arrived): class-i tasks mapped to
    each machine so far, and class-i arrivals including this one; ``u`` the
    task's three uniforms.

    Reading of the paper: LP-Static's p_ij = delta*_ij mu_ij / (lambda* alpha_i)
    (eq. 6), LPAS-2/k's p_j1, p_j2 (section IV-A.1) and Guided-LPAS's pi_ij
    (section V) sum to 1 only when constraint (1) is tight; they are normalised
    over the candidates, which is the same where it is tight and keeps them
    probabilities where it is slack.
    """
    kind, cands, count, weights, c, ties = rule[0], rule[1][i], rule[2][i], rule[3][i], rule[4], rule[6]
    u1, u2, u3 = u
    if kind == EARLIEST:  # ties at random; :func:`run_classes` takes the lowest index itself
        return earliest_tied(cands, count, W, e, ties, u3), count, 0
    if kind == STATIC:
        return draw(cands, count, weights, u1, -1), 0, 0
    if kind == TWO_CHOICES:
        j, asked = two_choices(cands, count, W, e, weights, u1, u2, ties, u3)
        return j, asked, 0
    if kind != GUIDED and kind != GUIDED_TWO:
        raise ValueError("unknown heuristic kind")
    # Guided (section V): T_i(t) = {j in S_i : alpha_ij(t-) < pi_ij alpha_i(t) + c sqrt(t)}
    assigned, arrived = shares
    total = 0.0
    for k in range(count):
        total += weights[cands[k]]
    n = 0
    for k in range(count):
        j = cands[k]
        if assigned[j] < weights[j] / total * arrived + c * math.sqrt(t):
            buf[n] = j
            n += 1
    if n == 0:  # cannot happen when the shares sum to 1 (section V); guards against rounding
        buf[:count] = cands[:count]
        n = count
    if kind == GUIDED:
        j = earliest_tied(buf, n, W, e, ties, u3)
        # at random, an override is when (iii) removed every machine LPAS could choose
        lpas = earliest(cands, count, W, e)
        return j, n, int(lpas != j if ties == LOWEST else W[lpas] + e[lpas] < W[j] + e[j])
    j, asked = two_choices(buf, n, W, e, weights, u1, u2, ties, u3)
    return j, asked, 0


@njit(cache=True, inline="always")
def settle(j, t, W, head, nxt, done_at, expected, finish):
    """Machine j's departures up to time t (those at t included), in FCFS order: W_j less each one's 1/mu, and 0
    when its queue empties (no rounding residue)."""
    while done_at[j] <= t:
        h = head[j]
        W[j] -= expected[h]
        h = nxt[h]
        head[j] = h
        if h < 0:
            done_at[j] = np.inf
            W[j] = 0.0
        else:
            done_at[j] = finish[h]


def classes_loop(tasks, rule, system, choose, plugin):
    """Task classes on FCFS machines (Al-Azzoni and Down, section III-B), up to the horizon.

    Task n of class cls[n] arrives at arrival[n] and runs for
    scale[n] / mu[cls[n], j] on machine j (a unit-mean draw per task, so every
    heuristic sees the same work). The mapper's view of machine j is
    W_j = sum over its tasks (running or waiting) of 1/mu. On a FCFS machine a
    task's start and finish are fixed when it is mapped; a machine's
    departures are settled (:func:`settle`) when its W_j is next read, which
    makes the same subtractions from W_j in the same order as a global event
    queue. A class-i arrival reads the W_j of its candidates only (every
    machine when they are all candidates: then all are settled together, and
    only once a departure is due). The earliest expected completion
    W_j + reach_ij (MCT, MET, KPB, LPAS) is found in the same pass; the other
    rules decide after it (:func:`decide`). Returns machine, start, finish,
    expected (1/mu) and actual time per task (start and finish inf where not
    reached by the horizon), the number in system at the sample times (each
    task counted from its arrival to its finish), the machines consulted and
    the Guided-LPAS overrides, and the first task a plug-in mapped to a
    machine that cannot run it (-1 if none; the run stops there).

    A plug-in (kind PLUGIN) sees every machine settled, and its ``queued``
    counts come from each task's place in its machine's sequence (``pos``),
    kept only for plug-ins so that the built-ins' loop does no more work. The
    plain-Python rule runs in this loop's Python form (:func:`run_plugin_py`).

    The loop is written out: a numba call per event taking arrays costs more
    than the event.
    """
    arrival, cls, scale, u1, u2, u3 = tasks
    kind, cands, counts, reach, ties = rule[0], rule[1], rule[2], rule[5], rule[6]
    inv, horizon, samples = system
    mu, delta, params = plugin
    n = arrival.size
    n_classes, m = inv.shape
    machine = np.empty(n, np.int64)
    start = np.empty(n)
    finish = np.empty(n)
    expected = np.empty(n)
    actual = np.empty(n)
    W = np.zeros(m)
    free = np.zeros(m)  # when machine j's last task finishes
    head = np.full(m, -1)  # machine j's running task
    tail = np.full(m, -1)  # machine j's last task
    nxt = np.empty(n, np.int64)  # the task after each task on its machine (-1 until it comes)
    done_at = np.full(m, np.inf)  # finish of machine j's running task
    change = np.zeros(samples.size + 1, np.int64)  # minus the departures first counted at each sample
    first = np.zeros(m, np.int64)  # the first sample at or after machine j's last finish
    assigned = np.zeros((n_classes, m), np.int64)
    arrived = np.zeros(n_classes, np.int64)
    buf = np.empty(m, np.int64)
    consulted = 0
    overrides = 0
    next_done = np.inf  # at or before every machine's next departure
    bad = -1
    mapped = np.zeros(m, np.int64)  # tasks mapped to machine j so far (plug-ins only)
    pos = np.empty(n if kind == PLUGIN else 0, np.int64)  # each task's place in its machine's sequence (plug-ins only)
    queued = np.zeros(m, np.int64)
    u = np.empty(3)
    view = Machines(frozen(W), frozen(queued), frozen(mu), frozen(delta), frozen(assigned), frozen(arrived))
    u_view, params_view = frozen(u), frozen(params)
    for a in range(n):
        t = arrival[a]
        i = cls[a]
        count = counts[i]
        cand = cands[i]
        if kind == EARLIEST and ties == LOWEST:  # random ties go through decide: a tie-break here cost 15% of the loop
            r = reach[i]
            best, best_c = -1, np.inf
            if count == m:
                if next_done <= t:
                    nd = np.inf
                    for j in range(m):
                        settle(j, t, W, head, nxt, done_at, expected, finish)
                        d = done_at[j]
                        nd = d if d < nd else nd
                        c = W[j] + r[j]
                        if c < best_c:
                            best, best_c = j, c
                    next_done = nd
                else:
                    for j in range(m):
                        c = W[j] + r[j]
                        if c < best_c:
                            best, best_c = j, c
            else:
                for k in range(count):
                    j = cand[k]
                    settle(j, t, W, head, nxt, done_at, expected, finish)
                    c = W[j] + r[j]
                    if c < best_c:
                        best, best_c = j, c
                next_done = min(next_done, t)  # KEEP (see below)
            j = best
            consulted += count
        elif kind == PLUGIN:
            for j in range(m):
                settle(j, t, W, head, nxt, done_at, expected, finish)
                h = head[j]
                queued[j] = mapped[j] - pos[h] if h >= 0 else 0
            arrived[i] += 1
            u[0], u[1], u[2] = u1[a], u2[a], u3[a]
            j = choose(Task(float(t), int(i), u_view), view, params_view)
            if j < 0 or j >= m or inv[i, j] == np.inf:
                machine[a] = j
                bad = a
                break
            pos[a] = mapped[j]
            mapped[j] += 1
            assigned[i, j] += 1
            consulted += count
        else:
            for k in range(count):
                settle(cand[k], t, W, head, nxt, done_at, expected, finish)
            next_done = min(next_done, t)  # KEEP (see below)
            arrived[i] += 1
            j, asked, over = decide(rule, i, t, W, inv[i], (assigned[i], arrived[i]), (u1[a], u2[a], u3[a]), buf)
            assigned[i, j] += 1
            consulted += asked
            overrides += over
        e = inv[i, j]
        s = free[j] if free[j] > t else t
        x = scale[a] * e
        f = s + x
        free[j] = f
        machine[a] = j
        expected[a] = e
        actual[a] = x
        start[a] = s if s <= horizon else np.inf
        nxt[a] = -1
        if f <= horizon:
            finish[a] = f
            first[j] = next_sample(samples, first[j], f)  # a FCFS machine's finishes come in order
            change[first[j]] -= 1
        else:
            finish[a] = np.inf
        W[j] += e
        if head[j] < 0:
            head[j] = a
            done_at[j] = finish[a]
            next_done = min(next_done, finish[a])
        else:
            nxt[tail[j]] = a
        tail[j] = a
    # KEEP: settling only makes departures later, so next_done needs no lowering to t after a partial settle, and W is
    # not returned, so the queues need no settling at the horizon; but without the two lowerings numba's code for the
    # loop ran about 20% slower on the yardstick's workloads, and without this loop about 5% (no reason found).
    for j in range(m):
        settle(j, horizon, W, head, nxt, done_at, expected, finish)
    in_system = np.empty(samples.size)
    arrivals = np.searchsorted(arrival, samples, side="right")  # a task counts from its arrival
    count = 0
    for q in range(samples.size):
        count += change[q]
        in_system[q] = arrivals[q] + count
    return machine, start, finish, expected, actual, in_system, consulted, overrides, bad


@njit(cache=True)
def no_rule(task, machines, params):
    """The built-ins' stand-in for a plug-in's rule (never called: their kinds decide in the loop)."""
    if params.size >= 0:  # always: typed to return a machine, it raises
        raise ValueError("unknown heuristic kind")
    return -1


def frozen(a):
    """A read-only view of ``a`` for a plain-Python rule (in the compiled loop, ``a`` itself)."""
    v = a.view()
    v.setflags(write=False)
    return v


@overload(frozen, jit_options={"cache": True})
def _frozen_jit(a):
    return lambda a: a


def contiguous(tasks, rule, system, plugin):
    """The loop's inputs as its signature types them: C-contiguous float64 and int64 arrays, ints and floats."""
    f, i = (lambda x: np.ascontiguousarray(x, np.float64)), (lambda x: np.ascontiguousarray(x, np.int64))
    tasks = (f(tasks[0]), i(tasks[1]), *(f(x) for x in tasks[2:]))
    rule = (int(rule[0]), i(rule[1]), i(rule[2]), f(rule[3]), float(rule[4]), f(rule[5]), int(rule[6]))
    system = (f(system[0]), float(system[1]), f(system[2]))
    return tasks, rule, system, plugin[0], (f(plugin[1]), f(plugin[2]), f(plugin[3]))


def run_classes(tasks, rule, system, plugin=None):
    """The event loop (:func:`classes_loop`) on the built-ins' rules, or on a plug-in's (``plugin``: (choose, mu,
    delta, params); a plain-Python ``choose`` runs in the loop's Python form). Returns machine, start, finish,
    expected, actual, in_system, consulted, overrides and the first bad task (-1: none)."""
    if plugin is None:
        plugin = (no_rule, system[0], system[0], np.zeros(0))
    args = contiguous(tasks, rule, system, plugin)
    if not hasattr(plugin[0], "py_func"):  # a plain-Python rule: the loop's Python form
        return compiled_loop().py_func(*args)
    with warnings.catch_warnings():  # numba's first-class functions are "experimental": the loop is tested on them
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        return compiled_loop()(*args)  # a numba dispatcher: compiled into the loop


@njit(cache=True)
def next_sample(samples, k, x):
    """The first sample index >= k whose time is >= x (samples.size if none): times arrive in order, so the walk
    from the last one is short."""
    while k < samples.size and samples[k] < x:
        k += 1
    return k


@njit(cache=True)
def window_terms(schedule, cls, n_classes, window):
    """Per-task terms of the long-run averages over the window (lo, hi) (section III-B), in one pass.

    ``schedule`` = (arrival, start, finish, actual, machine). Returns each
    task's time in system and time running inside the window (max(0, min(end,
    hi) - max(begin, lo))), the flow times and the defined stretches (flow
    over actual time; 1 for a zero-length task that did not wait) of the tasks
    that arrived in the window and finished, the time in system summed per
    class and per machine and the running time per machine (added in task
    order, as numpy's bincount does), and the tasks finished.
    """
    arrival, start, finish, actual, machine = schedule
    lo, hi = window
    n, m = arrival.size, n_classes[1]
    stay = np.empty(n)
    busy = np.empty(n)
    flow = np.empty(n)
    stretch = np.empty(n)
    stay_class = np.zeros(n_classes[0])
    stay_machine = np.zeros(m)
    busy_machine = np.zeros(m)
    done = 0
    defined = 0
    completed = 0
    for a in range(n):
        x = min(finish[a], hi) - max(arrival[a], lo)
        stay[a] = x if x > 0.0 else 0.0
        x = min(finish[a], hi) - max(start[a], lo)
        busy[a] = x if x > 0.0 else 0.0
        stay_class[cls[a]] += stay[a]
        stay_machine[machine[a]] += stay[a]
        busy_machine[machine[a]] += busy[a]
        if finish[a] < np.inf:
            completed += 1
            if arrival[a] >= lo:
                f = finish[a] - arrival[a]
                flow[done] = f
                done += 1
                r = f / actual[a] if actual[a] > 0.0 else (1.0 if f <= 0.0 else np.nan)
                if not np.isnan(r):
                    stretch[defined] = r
                    defined += 1
    return stay, busy, flow[:done], stretch[:defined], stay_class, stay_machine, busy_machine, completed


_F1, _F2, _I1, _I2 = types.float64[::1], types.float64[:, ::1], types.int64[::1], types.int64[:, ::1]
TASKS_TYPE = types.Tuple((_F1, _I1, _F1, _F1, _F1, _F1))
RULE_TUPLE_TYPE = types.Tuple((types.int64, _I2, _I1, _F2, types.float64, _F2, types.int64))
SYSTEM_TYPE = types.Tuple((_F2, types.float64, _F1))
PLUGIN_TYPE = types.Tuple((_F2, _F2, _F1))
LOOP_SIGNATURE = types.Tuple((_I1, _F1, _F1, _F1, _F1, _F1, types.int64, types.int64, types.int64))(
    TASKS_TYPE, RULE_TUPLE_TYPE, SYSTEM_TYPE, RULE_TYPE, PLUGIN_TYPE)
_COMPILED = []


def compiled_loop():
    """:func:`classes_loop` compiled once, for every rule (on first use, not at import): a plug-in's rule is a
    first-class function of :data:`hcsched.models.classes.plugin.SIGNATURE`, so one compiled loop in numba's disk
    cache serves every process and every rule. Its ``py_func`` is the loop a plain-Python rule runs in."""
    if not _COMPILED:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            _COMPILED.append(njit(LOOP_SIGNATURE, cache=True)(classes_loop))
    return _COMPILED[0]


_WARM = False


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the task-class kernels, once per process (before forking)."""
    global _WARM
    if _WARM:
        return
    mu = np.array([[1.0, 2.0], [2.0, 1.0]])
    cands = np.array([[0, 1], [1, 0]])
    tasks = (np.array([0.0, 0.5, 1.0]), np.array([0, 1, 0]), np.ones(3), *(np.full(3, 0.5),) * 3)
    for kind in range(PLUGIN):
        for ties in (LOWEST, RANDOM):
            rule = (kind, cands, np.array([2, 1]), mu, 1.0, np.array([[1.0, 0.5], [np.inf, 1.0]]), ties)
            run_classes(tasks, rule, (1.0 / mu, 2.0, np.linspace(0.0, 2.0, 3)))
    times = np.array([0.0, 0.5, 1.0])  # a schedule as the metrics read it: arrival, start, finish, actual, machine
    window_terms((times, times, times + 1.0, np.ones(3), np.array([0, 1, 0])), np.array([0, 1, 0]), (2, 2),
                 (0.0, 2.0))
    _WARM = True
