"""Invariants of simulated schedules (hypothesis), and equivalences between engine and static mapping."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hcsched import map_tasks
from hcsched.models.etc import batch, engine, immediate, run_heuristic
from hcsched.models.etc.workload import Workload
from hcsched.scenario import HeuristicSpec

HEURISTICS = [HeuristicSpec.make(n) for n in ("mct", "met", "olb", "kpb", "min-min", "max-min", "sufferage")] + [
    HeuristicSpec.make("sa", low=0.2, high=0.5), HeuristicSpec.make("kpb", k=50),
    HeuristicSpec.make("min-min", strategy="count", kappa=3), HeuristicSpec.make("sufferage", aging=2.0),
    HeuristicSpec.make("max-min", interval=0.5, aging=1.0), HeuristicSpec.make("max-min", strategy="count", kappa=1),
]


@st.composite
def workloads(draw):
    n = draw(st.integers(1, 25))
    m = draw(st.integers(1, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    etc = rng.integers(1, 20, (n, m)).astype(float)
    if draw(st.booleans()):
        arrival = np.sort(rng.integers(0, 30, n)).astype(float)  # integer times: many simultaneous events
    else:
        arrival = np.cumsum(rng.exponential(3.0, n))
    actual = etc if draw(st.booleans()) else np.maximum(0.1, etc + rng.normal(0, 2, (n, m)))
    return Workload(arrival, etc, actual)


def check_schedule(s, w):
    n = w.arrival.size
    assert s.machine.shape == (n,) and ((s.machine >= 0) & (s.machine < w.etc.shape[1])).all()
    assert np.isfinite(s.start).all() and np.isfinite(s.finish).all()  # every task completes, once
    assert (s.start >= w.arrival).all()  # no task starts before it arrives
    np.testing.assert_allclose(s.finish - s.start, w.actual[np.arange(n), s.machine])
    for j in range(w.etc.shape[1]):  # a dedicated machine runs one task at a time
        on = np.flatnonzero(s.machine == j)
        order = on[np.argsort(s.start[on], kind="stable")]
        assert (s.start[order][1:] >= s.finish[order][:-1] - 1e-9).all()


@settings(max_examples=150, deadline=None)
@given(workloads(), st.sampled_from(HEURISTICS))
def test_schedule_invariants(w, spec):
    check_schedule(run_heuristic(spec, w), w)


@settings(max_examples=100, deadline=None)
@given(workloads(), st.sampled_from([h for h in HEURISTICS if h.heuristic.mode == "immediate"]))
def test_immediate_machines_are_work_conserving(w, spec):
    """A task starts at its arrival or when the task before it on its machine finishes."""
    s = run_heuristic(spec, w)
    for j in range(w.etc.shape[1]):
        on = np.flatnonzero(s.machine == j)  # arrival order is assignment order
        prev = np.concatenate([[0.0], s.finish[on][:-1]])
        np.testing.assert_allclose(s.start[on], np.maximum(w.arrival[on], prev))


@settings(max_examples=100, deadline=None)
@given(workloads(), st.sampled_from(["min-min", "max-min", "sufferage"]))
def test_batch_remapping_never_moves_a_started_task(w, name):
    """A started task keeps its machine: under the remapping engine every machine stays busy
    from each start to its finish, and tasks never start twice (checked by the schedule), and the
    lazily evaluated mapping equals the full mapping when there is one event."""
    static = Workload(np.zeros_like(w.arrival), w.etc, w.actual)
    spec = HeuristicSpec.make(name, strategy="count", kappa=10**6)  # one event: the last arrival
    s = run_heuristic(spec, static)
    check_schedule(s, static)
    full = map_tasks(w.etc, name)
    np.testing.assert_array_equal(s.machine, full.assignment)
    if (w.actual == w.etc).all():
        np.testing.assert_allclose(s.finish, full.completion)


@settings(max_examples=60, deadline=None)
@given(workloads(), st.sampled_from([h for h in HEURISTICS if h.heuristic.mode == "immediate"]))
def test_static_immediate_simulation_equals_map_tasks(w, spec):
    """All tasks at time 0 with exact times: the simulation is the static mapping."""
    s = run_heuristic(spec, Workload(np.zeros_like(w.arrival), w.etc, w.etc))
    r = map_tasks(w.etc, spec.name, **spec.kwargs)
    np.testing.assert_array_equal(s.machine, r.assignment)
    np.testing.assert_allclose(s.finish, r.completion)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12), st.one_of(st.floats(1.0, 100.0), st.integers(-12, -1).map(float)), st.integers(0, 2**32 - 1))
def test_kpb_subset_is_a_stable_sorts_first_machines(m, k, seed):
    """KPB's one-pass subset: the first floor(m k / 100) machines (or kbar = -k) of a stable sort by ETC, then MCT
    among them with ties to the lowest machine; small integer times make many ties."""
    rng = np.random.default_rng(seed)
    e, ready = rng.integers(0, 3, m).astype(float), rng.integers(0, 6, m).astype(float)
    subset = np.argsort(e, kind="stable")[:immediate.kpb_subset_size(m, k)]
    c = ready[subset] + e[subset]
    assert immediate.kpb(e, ready, k) == subset[c == c.min()].min()


def test_kpb_ties_at_the_subsets_edge_keep_the_lower_machine():
    # two machines of ETC 1 for one place beside machine 2 (ETC 0): m0 is in the subset, and completes first
    assert immediate.kpb(np.array([1.0, 1.0, 0.0]), np.array([0.0, 5.0, 5.0]), 200 / 3) == 0


@given(st.lists(st.tuples(st.integers(0, 4).map(float), st.integers(0, 7)), max_size=8, unique_by=lambda t: t[1]),
       st.integers(0, 8))
def test_completion_heap_gives_the_earliest_then_the_lowest_machine(entries, pop_after):
    """The batch engine's next completion: smallest time, then lowest machine (as an argmin over machines)."""
    heap = engine.CompletionHeap(np.empty(8), np.empty(8, np.int64), np.zeros(1, np.int64))
    out, waiting = [], []
    for count, (t, j) in enumerate(entries, 1):
        engine.heap_push(heap, t, j)
        waiting.append((t, j))
        if count == pop_after:  # one pop between pushes
            out.append(engine.heap_first(heap))
            engine.heap_pop(heap)
            assert out[-1] == min(waiting)
            waiting.remove(out[-1])
    while heap.size[0]:
        out.append(engine.heap_first(heap))
        engine.heap_pop(heap)
    assert sorted(out) == sorted(entries) and out[len(out) - len(waiting):] == sorted(waiting)
    assert engine.heap_first(heap) == (np.inf, -1)


def test_each_heuristic_packs_its_own_kernel_parameters():
    def pack(name, **params):
        spec = HeuristicSpec.make(name, **params)
        return spec.heuristic.pack(spec.kwargs)

    assert pack("kpb").tolist() == [20.0] and pack("kpb", kbar=3).tolist() == [-3.0]
    assert pack("sa", low=0.2, high=0.5).tolist() == [0.2, 0.5]
    assert pack("mct").tolist() == [0.0]
    assert pack("sufferage", strategy="count", kappa=5, aging=2.0) == engine.BatchPlan(engine.COUNT, 10.0, 5, 2.0)
    assert pack("min-min") == engine.BatchPlan(engine.INTERVAL, 10.0, 40, 0.0)


def test_batch_interval_skips_redundant_events():
    etc = np.array([[5.0], [5.0]])
    # arrivals at 1 and 100, interval 10: events at 10 (t0), 100 (t1); the completion of t0 at 15 adds one at 20
    plan = engine.BatchPlan(engine.INTERVAL, 10.0, 40, 0.0)
    machine, start, finish, events, work = engine.run_batch(0, batch.no_rule, plan, np.zeros(1), np.array([1.0, 100.0]),
                                                            etc, etc, 0)
    assert start.tolist() == [10.0, 100.0]
    assert events == 2  # the event at 20 has an empty meta-task and is not counted
    assert work == 2  # one Min-min iteration with one unmapped task at each event


# --- the task-class engine (Al-Azzoni and Down) -------------------------------------------------------
@st.composite
def class_systems(draw):
    from hcsched.models.classes.spec import ClassSpec

    n = draw(st.integers(1, 3))
    m = draw(st.integers(1, 4))
    mu = [[draw(st.sampled_from([0.0, 0.5, 1.0, 2.0, 4.0])) for _ in range(m)] for _ in range(n)]
    for row in mu:
        if not any(row):
            row[draw(st.integers(0, m - 1))] = 1.0
    alpha = [draw(st.sampled_from([0.2, 0.5, 1.0])) for _ in range(n)]
    service = draw(st.sampled_from(["exponential", "constant", "hyperexponential"]))
    spec = ClassSpec(tuple(alpha), tuple(map(tuple, mu)), service=service, horizon=60.0)
    return spec, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=120, deadline=None)
@given(class_systems(),
       st.sampled_from(["met", "mct", "kpb", "lpas", "lpas-2k", "lp-static", "guided-lpas", "guided-lpas-2k"]))
def test_class_schedule_invariants(system, name):
    from hcsched.models.classes.simulation import make_class_workload, run_class_heuristic

    spec, seed = system
    w = make_class_workload(spec, np.random.SeedSequence(seed))
    run = run_class_heuristic(HeuristicSpec.make(name, model="classes"), spec, w)
    s, mu = run.schedule, spec.mu
    assert (mu[w.cls, s.machine] > 0).all()  # only machines that can run the class
    started = np.isfinite(s.start)
    assert (s.start[started] >= s.arrival[started]).all()  # no task starts before it arrives
    done = np.isfinite(s.finish)
    assert (done <= started).all() and (s.finish[done] <= spec.horizon).all()  # each completes at most once, in time
    np.testing.assert_allclose(s.finish[done] - s.start[done], w.work[done] / mu[w.cls[done], s.machine[done]])
    for j in range(spec.machines):  # FCFS, one task at a time
        on = np.flatnonzero((s.machine == j) & started)  # in arrival order
        assert (np.diff(s.start[on]) >= 0).all()
        assert (s.start[on][1:] >= s.finish[on][:-1] - 1e-9).all()
        waiting = np.flatnonzero((s.machine == j) & ~started)
        assert waiting.size == 0 or on.size == 0 or waiting.min() > on.max()  # a later task never overtakes
