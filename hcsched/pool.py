"""Worker processes that cannot inherit a lock, shared fairly by the runs of a server.

A process with more than one thread (the dashboard's server, a notebook) must not ``fork`` a worker: POSIX allows only
async-signal-safe calls in the child, and a lock that another thread held at the fork (``cached_property``, logging,
an import, numba's compiler) stays locked in the child for ever. Each worker here is a fresh interpreter started by
fork-and-exec (:mod:`subprocess`), which runs nothing between the two; it imports hcsched and every model once, then
serves chunks of work for as long as the pool lives, so that starting a run costs no import.

One :class:`Pool` serves every run of a process: runs up to ``max_runs`` share the workers chunk by chunk, the rest
wait in line and are told their place. A free worker takes a chunk of the run with the least work left by the models'
cost estimates (shortest remaining work first, which keeps the mean time to an answer lowest: a two-second what-if
beside a four-minute run takes every worker that frees until it ends, where a turn each doubled its wait); runs
without estimates come after, in turn; and a run that has had no worker for ``starve_seconds`` goes first, so that a
long run is never held up for ever by short ones. A run that is cancelled kills the workers busy with its chunks (new
ones replace them); a worker that dies (killed, out of memory) fails its run with one line naming the cause.

That policy (the runs, the line, the order, the pace and the forecasts) is :class:`RunQueue`'s, whatever its slots
are; :class:`Pool` is a RunQueue whose slots are these worker processes, and :class:`hcsched.cluster.ClusterPool` one
whose slots are the worker threads of a Dask cluster.

Messages are pickled frames on the worker's stdin and on a private copy of its stdout (what a worker prints goes to
its stderr, the server's log). A worker exits when its stdin closes, that is when the pool or its process ends.
"""

from __future__ import annotations

import importlib
import itertools
import math
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from hcsched.cpu_share import worker_slowdown
from hcsched.errors import HcschedError
from hcsched.paces import measured_paces

POLL_SECONDS = 0.05  # how often the library looks for finished work: a run's thread for its events (and calls its
# poll), the runner for finished heuristic runs and chunks (hcsched.runner imports it)
START_FAILURES = 3  # workers that die in a row before they say they are ready: the pool is broken
WORKER_NICE = 10  # workers run at a lower priority than their owner (results do not depend on it)
_HEADER = 8  # bytes of a frame's length

_tick: Callable[[], None] | None = None  # in a worker process: reports one unit of progress of its chunk
_here = threading.local()  # a chunk run in the calling thread reports there


def tick() -> None:
    """One unit of progress of the chunk being run (a heuristic run finished), reported to the run's thread as it
    happens: from a worker process, or from a chunk run in the calling thread (:func:`ticking`); else nothing."""
    report = getattr(_here, "tick", None) or _tick
    if report is not None:
        report()


def set_tick(report: Callable[[], None] | None) -> None:
    """Where :func:`tick` reports in this worker process (a forked worker's queue, a pool worker's pipe)."""
    global _tick
    _tick = report


@contextmanager
def ticking(report: Callable[[], None] | None) -> Iterator[None]:
    """:func:`tick` in this thread calls ``report`` while the block runs (chunks run in the calling thread)."""
    before, _here.tick = getattr(_here, "tick", None), report
    try:
        yield
    finally:
        _here.tick = before


class WorkerDied(HcschedError):
    """A worker process ended while it ran a chunk of the run (killed, out of memory, crashed)."""


def threads_alive() -> int:
    """Threads of this process (Python's, which are the ones that can hold a Python-level lock at a fork)."""
    return threading.active_count()


# --- frames ---------------------------------------------------------------------------------------------------
def _write(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(_HEADER, "little") + data)
    stream.flush()


def _read_exactly(stream: BinaryIO, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        part = stream.read(left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _read(stream: BinaryIO) -> tuple[bool, Any]:
    """(True, message), or (False, None) at the end of the stream."""
    header = _read_exactly(stream, _HEADER)
    data = None if header is None else _read_exactly(stream, int.from_bytes(header, "little"))
    return (False, None) if data is None else (True, pickle.loads(data))


# --- the worker's side ------------------------------------------------------------------------------------------
def _picklable(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def serve() -> None:
    """A worker's life: preload hcsched and its models, say "ready", then run ``fn(*args)`` for each frame of stdin
    and send back its result (or its exception), with a "tick" for each :func:`tick` on the way."""
    os.nice(WORKER_NICE)  # the server that owns the pool answers its users (Cancel, pages) before computing
    out = os.fdopen(os.dup(1), "wb")  # the private channel; what the work prints goes to stderr
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sending = threading.Lock()

    def send(message: Any) -> None:
        with sending:
            _write(out, message)

    inbox: queue.SimpleQueue = queue.SimpleQueue()

    def listen() -> None:  # a thread, so that a closed stdin ends the worker even while it computes
        while True:
            ok, message = _read(sys.stdin.buffer)
            if not ok:
                os._exit(0)
            inbox.put(message)

    threading.Thread(target=listen, daemon=True, name="hcsched-worker-inbox").start()
    for name in sys.argv[1:]:  # what the pool's owner named, loaded once for every run this worker serves
        importlib.import_module(name)

    set_tick(lambda: send(("tick", None)))
    send(("ready", os.getpid()))
    while True:
        fn, args = inbox.get()
        try:
            message = ("done", fn(*args))
        except BaseException as exc:  # sent to the run, which raises it
            message = ("error", _picklable(exc))
        try:
            send(message)
        except Exception as exc:  # e.g. a result that does not pickle
            send(("error", RuntimeError(f"the result could not be sent back: {type(exc).__name__}: {exc}")))


# --- the runs' side: one policy for every kind of slot ------------------------------------------------------------
_order = itertools.count()


class Slot:
    """One place where a chunk computes (a worker process of a :class:`Pool`, a worker thread of a Dask cluster): the
    run and the chunk it computes, and when that chunk was sent."""

    def __init__(self, ready: bool = False) -> None:
        self.ready = ready  # it takes chunks
        self.run: _Run | None = None
        self.index = -1
        self.sent = 0.0  # when its chunk was sent (time.monotonic)


@dataclass(eq=False)
class _Run:
    fn: Callable
    pending: deque  # (index, args) not yet sent to a slot
    limit: float  # at most this many of its chunks at once (jobs; inf: as many as there are free slots)
    on_wait: Callable[[int], None] | None  # told the run's place in line (0: running)
    costs: list[float] | None = None  # each chunk's seconds on one quiet core, by the models' cost estimate
    owner: Any = None  # whose run it is (a dashboard's job), for time_left
    kind: str | None = None  # what it runs (a model's name): the pace is measured for each kind apart
    events: queue.SimpleQueue = field(default_factory=queue.SimpleQueue)
    busy: set = field(default_factory=set)  # slots computing its chunks
    served: int = -1  # when it last got a slot (turns among equals)
    since: float = field(default_factory=time.monotonic)  # when it last got a slot, or was admitted
    abandoned: bool = False
    token: str = field(default_factory=lambda: uuid.uuid4().hex[:16])  # names it where others see it (task keys)

    def priority(self, now: float, starve: float) -> tuple[float, float, int]:
        """The order in which free workers take the runs' chunks (lowest first): a run without a worker for
        ``starve`` seconds, then the least work left (runs without cost estimates last), then the one served longest
        ago."""
        starved = not self.busy and now - self.since >= starve
        return (0.0 if starved else 1.0, self.work_left() if self.costs is not None else math.inf, self.served)

    def work_left(self) -> float:
        """Seconds of one quiet core its chunks not yet done need (by their cost estimate; 0 when it has none)."""
        if self.costs is None:
            return 0.0
        return sum(self.costs[i] for i, _ in self.pending) + sum(self.costs[w.index] for w in self.busy)


STARVE_SECONDS = 20.0  # a run with chunks to send that has had no worker for this long takes the next free one
PACE_MEMORY_SECONDS = 60.0  # the pace measured on chunks weighs less by e every this many seconds
PACE_MIN_COST = 0.05  # chunks estimated shorter than this (seconds) are too noisy to measure the pace on
LOAD_READ_SECONDS = 2.0  # the machine's load is read again after this many seconds (a reading costs about 0.1 s)
NOTED_OWNERS = 100  # the owners whose notes are kept (the latest), after their runs have ended too


def load_pace(cores: int, ours: int) -> float:
    """How many times slower than on a quiet core a worker computes, from the load the machine reports where its
    threads cannot be read (:func:`hcsched.cpu_share.worker_slowdown`): the 1-minute load average
    (``os.getloadavg``) less ``ours`` (the pool's busy workers, which it counts) is the load of the machine's other
    work; with ``ours`` + 1 workers computing beside it on ``cores`` cores, each gets a share of
    cores / (other load + ours + 1) of a core when that is below one."""
    try:
        other = max(0.0, os.getloadavg()[0] - ours)
    except OSError:  # not available on this system
        return 1.0
    return max(1.0, (other + ours + 1) / max(1, cores))


def shared_seconds(work: float, others: list[float], workers: int) -> float:
    """When a run of ``work`` seconds of one core ends beside runs of ``others`` seconds of work left, the free
    workers taking the least work left first (:meth:`_Run.priority`): after its own work and all of every run with
    less, shared by the ``workers`` (x + the sum of the others' x' <= x) / workers; a run with more comes after it."""
    return (work + sum(x for x in others if x <= work)) / max(1, workers)


class RunQueue:
    """The runs of a process sharing ``size`` slots (:class:`Slot`) chunk by chunk, whatever the slots are: up to
    ``max_runs`` runs at a time, more wait in line and are told their place; a free slot takes a chunk of the run with
    the least work left (:meth:`_Run.priority`); the pace measured on finished chunks for each kind of run, and the
    forecasts of runs from it. :meth:`run` is called from any thread, once per run.

    A kind of slot comes with two hooks: :meth:`_send` (hand a chunk to a free slot) and :meth:`_abandon` (the chunks
    of a run that stopped, on their slots); it reports a chunk's end with :meth:`_finished` and a slot lost with its
    chunk with :meth:`_lost`, under the lock."""

    what = "the worker processes"  # said when the slots cannot run ("... cannot run: why")

    def __init__(self, size: int, max_runs: int | None = None) -> None:
        self.size = size
        self.max_runs = max_runs or max(1, size)
        self.starve_seconds = STARVE_SECONDS
        self._lock = threading.RLock()
        self._slots: list[Slot] = []
        self._runs: list[_Run] = []  # admitted, sharing the slots
        self._line: deque[_Run] = deque()  # waiting for a place
        self._closed = False
        self.broken: str | None = None  # why the slots cannot run (said in one line), once they cannot
        self._paced: dict[str | None, tuple[float, float, float]] = {}  # kind -> (decayed wall seconds, decayed
        # estimated seconds, when) of its finished chunks
        self._notes: OrderedDict[int, tuple[Any, list[str]]] = OrderedDict()  # id(owner) -> (owner, its notes)

    # --- the hooks of a kind of slot -----------------------------------------------------------------------------
    def _send(self, slot: Slot, fn: Callable, args: tuple) -> None:
        """Start ``fn(*args)`` on ``slot`` (under the lock); an OSError: the slot is gone and the chunk goes back."""
        raise NotImplementedError

    def _abandon(self, slots: list[Slot]) -> None:
        """Stop the chunks on ``slots`` of a run that stopped (under the lock; their slots stay theirs until they
        report, or are freed here)."""
        raise NotImplementedError

    def _stop(self) -> None:
        """Release the slots at :meth:`close` (not under the lock)."""

    def machine_pace(self) -> float:
        """How many times slower than on a quiet core the slots compute when no chunk has been measured: 1."""
        return 1.0

    # --- what a caller sees -----------------------------------------------------------------------------------
    def running(self) -> int:
        """Runs sharing the slots now (not counting those in line)."""
        with self._lock:
            return len(self._runs)

    def waiting(self) -> int:
        with self._lock:
            return len(self._line)

    def notes(self, owner: Any) -> list[str]:
        """What happened to the runs of ``owner`` that they went on through (e.g. a worker of a cluster lost, its
        chunks computed again), in order, one line each; kept after the runs end for the latest ``NOTED_OWNERS``."""
        with self._lock:
            return list(self._notes.get(id(owner), (None, []))[1]) if owner is not None else []

    def pace(self, kind: str | None = None) -> float:
        """How many times its cost estimate a chunk of ``kind`` (a model's name) takes now: measured on the chunks of
        that kind finished lately (wall seconds over estimated seconds, each weighing less by e every
        ``PACE_MEMORY_SECONDS``), else :meth:`machine_pace` times the model's pace on this machine as ``hcsched
        warm-up`` measured it (:func:`hcsched.paces.measured_paces`). A machine loaded by other work, or a model
        whose chunks take longer than its estimates, both show in it; one model's chunks never set another's pace."""
        with self._lock:
            wall, cost, when = self._paced.get(kind, (0.0, 0.0, 0.0))
        weight = math.exp(-(time.monotonic() - when) / PACE_MEMORY_SECONDS) if cost else 0.0
        if weight * cost >= 1.0:  # at least a second of chunks, as of now
            return max(0.2, wall / cost)
        return self.machine_pace() * measured_paces().get(kind, 1.0)

    def forecast(self, seconds: float, work: float, jobs: int | None = None, kind: str | None = None) -> float:
        """The wall seconds of a new run of ``kind`` (a model's name) that a quiet machine would compute in
        ``seconds`` with ``work`` seconds of one core: its share of the slots beside the runs going on and in line
        (:func:`shared_seconds`), never before ``seconds``, times the pace of its kind now (:meth:`pace`), after the
        wait for a slot when every one is busy (:meth:`first_free`)."""
        with self._lock:
            others = [r.work_left() for r in [*self._runs, *self._line]]
        return self.pace(kind) * max(seconds, shared_seconds(work, others, self.size)) + self.first_free()

    def time_left(self, owner: Any) -> float | None:
        """The wall seconds the runs of ``owner`` (:meth:`run`'s ``owner``) still need, as :meth:`forecast` has it
        with what is going on now: the runs that joined since it started count too. None when it has no run here
        with cost estimates."""
        with self._lock:
            runs = [*self._runs, *self._line]
            mine = [r for r in runs if r.owner is owner and r.costs is not None]
            if owner is None or not mine:
                return None
            work = sum(r.work_left() for r in mine)
            others = [r.work_left() for r in runs if r.owner is not owner]
            idle = not any(r.busy for r in mine)
        wait = self.first_free() if idle else 0.0
        return self.pace(mine[0].kind) * shared_seconds(work, others, self.size) + wait

    def first_free(self) -> float:
        """Wall seconds until a slot is free, by the cost estimates of the chunks they run: 0 when one is free (or
        a busy one's chunk has no estimate), else the least of the busy chunks' expected wall seconds (its cost
        times its kind's :meth:`pace`) less those it has run."""
        with self._lock:
            if any(w.ready and w.run is None for w in self._slots) or not self._slots:
                return 0.0
            if any(w.run.costs is None for w in self._slots if w.run is not None):
                return 0.0
            now = time.monotonic()
            busy = [(w.run.kind, w.run.costs[w.index], now - w.sent) for w in self._slots if w.run is not None]
        return max(0.0, min(self.pace(kind) * cost - ran for kind, cost, ran in busy)) if busy else 0.0

    def held_by_others(self, owner: Any) -> int:
        """How many other runs hold every slot while the runs of ``owner``, admitted, wait for one (none of its
        chunks computing, some to send): 0 when it computes, waits in line, or has nothing to send. Slots take
        the admitted runs' chunks by :meth:`_Run.priority`, so it gets one when a chunk of theirs ends."""
        with self._lock:
            mine = [r for r in self._runs if r.owner is owner]
            if owner is None or not mine or any(r.busy for r in mine) or not any(r.pending for r in mine):
                return 0
            holders = {id(w.run) for w in self._slots if w.run is not None}
            return len(holders) if all(w.run is not None for w in self._slots if w.ready) else 0

    def run(self, fn: Callable, items: list[tuple], collect: Callable[[int, Any], None], *, jobs: int | None = None,
            tick: Callable[[], None] | None = None, poll: Callable[[], None] | None = None,
            on_wait: Callable[[int], None] | None = None, costs: list[float] | None = None,
            owner: Any = None, kind: str | None = None) -> None:
        """``fn(*items[i])`` for every i in the slots, at most ``jobs`` at once; ``collect(i, result)`` in the
        calling thread as each finishes (in any order), ``tick()`` for each unit of progress a slot reports
        (:func:`tick`), ``poll()`` every ``POLL_SECONDS`` and ``on_wait(place)`` whenever the run's place in line
        changes (0 once it runs); ``costs[i]``, the seconds item i takes on a quiet core by the models' estimate, if
        known (the pace is measured on them, :meth:`pace`, and new runs forecast beside this one, :meth:`forecast`),
        for each ``kind`` of run (a model's name) apart; ``owner``, whose run it is (:meth:`time_left`,
        :meth:`notes`). An error of ``fn`` is raised here as it was raised there; a slot lost with its chunk raises
        what :meth:`_lost` was given. Whatever is raised, or an interrupt, abandons the run's chunks
        (:meth:`_abandon`) and propagates unchanged. ``fn`` must be a function of an importable module."""
        run = _Run(fn, deque(enumerate(items)), max(1, jobs or math.inf), on_wait, costs, owner, kind)
        left = len(items)
        self._admit(run)
        try:
            while left:
                try:
                    kind, index, payload = run.events.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    kind = None
                if kind == "tick" and tick:
                    tick()
                elif kind == "done":
                    left -= 1
                    collect(index, payload)
                elif kind == "error":
                    raise payload
                elif kind == "place" and on_wait:
                    on_wait(payload)
                if poll:
                    poll()
        except BaseException:
            self._retire(run, abandon=True)
            raise
        self._retire(run)

    def __enter__(self) -> RunQueue:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release every slot; runs still going fail."""
        with self._lock:
            self._closed = True
            self._fail_all(HcschedError(f"{self.what} were closed"))
        self._stop()

    # --- bookkeeping, under the lock ---------------------------------------------------------------------------
    def _fail_all(self, exc: Exception) -> None:
        for r in [*self._runs, *self._line]:
            r.events.put(("error", -1, exc))

    def _note(self, run: _Run, text: str) -> None:
        """Keep ``text`` for the owner of ``run`` (:meth:`notes`), once."""
        if run.owner is None:
            return
        _, said = self._notes.pop(id(run.owner), (run.owner, []))
        self._notes[id(run.owner)] = (run.owner, said if text in said else [*said, text])
        while len(self._notes) > NOTED_OWNERS:
            self._notes.popitem(last=False)

    def _measure(self, slot: Slot, run: _Run) -> None:
        """Add a finished chunk's wall time against its estimate to the pace."""
        if run.costs is None or run.costs[slot.index] < PACE_MIN_COST:
            return
        now = time.monotonic()
        wall, cost, when = self._paced.get(run.kind, (0.0, 0.0, 0.0))
        decay = math.exp(-(now - when) / PACE_MEMORY_SECONDS) if cost else 0.0
        self._paced[run.kind] = (wall * decay + now - slot.sent, cost * decay + run.costs[slot.index], now)

    def _admit(self, run: _Run) -> None:
        with self._lock:
            if self._closed or self.broken:
                raise HcschedError(f"{self.what} cannot run: {self.broken or 'the pool is closed'}")
            self._line.append(run)
            self._promote()

    def _retire(self, run: _Run, abandon: bool = False) -> None:
        with self._lock:
            run.abandoned = True
            if run in self._runs:
                self._runs.remove(run)
            elif run in self._line:
                self._line.remove(run)
            if abandon and run.busy:
                self._abandon(list(run.busy))
            self._promote()

    def _promote(self) -> None:
        """Let runs in from the line while there is room, tell those still waiting their place, hand out work."""
        while self._line and len(self._runs) < self.max_runs:
            run = self._line.popleft()
            self._runs.append(run)
            run.events.put(("place", -1, 0))
        for place, run in enumerate(self._line, 1):
            run.events.put(("place", -1, place))
        self._dispatch()

    def _dispatch(self) -> None:
        free = [w for w in self._slots if w.ready and w.run is None]
        while free:
            ready = [r for r in self._runs if r.pending and len(r.busy) < r.limit]
            if not ready:
                return
            now = time.monotonic()
            run = min(ready, key=lambda r: r.priority(now, self.starve_seconds))
            run.served, run.since = next(_order), now
            slot = free.pop(0)
            slot.index, args = run.pending.popleft()
            slot.run = run
            slot.sent = time.monotonic()
            run.busy.add(slot)
            try:
                self._send(slot, run.fn, args)
            except Exception as exc:  # the slot is gone (it died) or the arguments do not pickle
                run.busy.discard(slot)
                slot.run = None
                if isinstance(exc, OSError):
                    run.pending.appendleft((slot.index, args))  # its exit is on the way; another slot takes it
                else:
                    run.events.put(("error", slot.index, exc))

    def _finished(self, slot: Slot, kind: str, payload: Any) -> None:
        """The chunk on ``slot`` ended: "done" with its result or "error" with its exception; the slot takes the next
        chunk."""
        run = slot.run
        if run is None or run.abandoned:
            return
        if kind == "done":
            self._measure(slot, run)
        slot.run = None
        run.busy.discard(slot)
        run.since = time.monotonic()  # waiting for a slot counts from when its last chunk ended
        run.events.put((kind, slot.index, payload))
        self._dispatch()

    def _lost(self, slot: Slot, exc: Exception) -> None:
        """``slot`` is gone with its chunk: its run fails with ``exc``."""
        run = slot.run
        if run is not None and not run.abandoned:
            run.busy.discard(slot)
            run.events.put(("error", slot.index, exc))


def _cause(code: int) -> str:
    if code < 0:
        name = signal.Signals(-code).name
        why = " (out of memory, or killed by hand)" if name == "SIGKILL" else ""
        return f"killed by {name}{why}"
    return f"exited with status {code}"


class _Worker(Slot):
    def __init__(self, pool: Pool) -> None:
        super().__init__()
        root = str(Path(__file__).resolve().parents[1])  # hcsched importable even when not installed
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen([sys.executable, "-c", "from hcsched.pool import serve; serve()", *pool.preload],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, close_fds=True,
                                     start_new_session=True)  # a Ctrl-C of the server's terminal is the server's
        self.pool = pool
        threading.Thread(target=self._listen, daemon=True, name=f"hcsched-pool-{self.proc.pid}").start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, fn: Callable, args: tuple) -> None:
        _write(self.proc.stdin, (fn, args))

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: a busy worker is not waited for

    def _listen(self) -> None:
        while True:
            try:
                ok, message = _read(self.proc.stdout)
            except Exception as exc:  # a frame that does not unpickle: the worker is of no more use
                self.pool._on_bad_frame(self, exc)
                ok = False
            if not ok:
                break
            self.pool._on_message(self, *message)
        self.pool._on_exit(self, self.proc.wait())


PRELOAD = ("hcsched", "hcsched.experiment", "hcsched.sweep", "hcsched.reproduce")  # every model, and what runs them


class Pool(RunQueue):
    """``size`` worker processes as the slots of a :class:`RunQueue`, started at once and replaced when they die,
    each with the modules ``preload`` imported, shared by up to ``max_runs`` runs at a time (more wait in line). A
    run that stops (Cancel, an error) kills the workers busy with its chunks."""

    def __init__(self, size: int, max_runs: int | None = None, preload: tuple[str, ...] = PRELOAD) -> None:
        if size < 1:
            raise HcschedError(f"pool size: {size!r} is not allowed; allowed: a positive integer")
        super().__init__(size, max_runs)
        self.preload = preload
        self._failures = 0  # workers that died before they were ready, in a row
        self._load = (-math.inf, 1.0)  # (when, pace) of the last reading of the machine's load
        with self._lock:
            for _ in range(size):
                self._slots.append(_Worker(self))

    def pids(self) -> list[int]:
        with self._lock:
            return [w.pid for w in self._slots]

    def busy_pids(self) -> list[int]:
        with self._lock:
            return [w.pid for w in self._slots if w.run is not None]

    def machine_pace(self) -> float:
        """How many times slower than alone on a core the workers compute beside the machine's other work now, read
        off the threads it runs (:func:`hcsched.cpu_share.worker_slowdown`; every ``LOAD_READ_SECONDS`` at most),
        else off its load average (:func:`load_pace`)."""
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else self.size
        with self._lock:
            when, pace = self._load
            if time.monotonic() - when < LOAD_READ_SECONDS:
                return pace
            skip = {os.getpid(), *(w.pid for w in self._slots)}
            busy = sum(1 for w in self._slots if w.run is not None)
        read = worker_slowdown(self.size, cores, skip, nice=WORKER_NICE)
        pace = load_pace(cores, busy) if read is None else read
        with self._lock:
            self._load = (time.monotonic(), pace)
        return pace

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Block until every worker has said it is ready (for tests and benchmarks)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                if len(self._slots) == self.size and all(w.ready for w in self._slots):
                    return True
            time.sleep(0.05)
        return False

    def _send(self, slot: _Worker, fn: Callable, args: tuple) -> None:
        slot.send(fn, args)

    def _abandon(self, slots: list[_Worker]) -> None:
        for w in slots:
            w.kill()  # its listener reports the exit, and a new worker replaces it

    def _stop(self) -> None:
        with self._lock:
            workers = list(self._slots)
        for w in workers:
            w.kill()
        for w in workers:
            w.proc.wait()

    def _on_message(self, worker: _Worker, kind: str, payload: Any) -> None:
        with self._lock:
            if kind == "ready":
                worker.ready = True
                self._failures = 0
                self._dispatch()
            elif kind == "tick":
                if worker.run is not None and not worker.run.abandoned:
                    worker.run.events.put(("tick", worker.index, None))
            else:
                self._finished(worker, kind, payload)

    def _on_bad_frame(self, worker: _Worker, exc: Exception) -> None:
        with self._lock:
            if worker.run is not None and not worker.run.abandoned:
                worker.run.events.put(("error", worker.index, RuntimeError(f"a worker's message could not be read: "
                                                                           f"{type(exc).__name__}: {exc}")))
                worker.run.busy.discard(worker)
                worker.run = None
        worker.kill()

    def _on_exit(self, worker: _Worker, code: int) -> None:
        with self._lock:
            if worker in self._slots:
                self._slots.remove(worker)
            self._lost(worker, WorkerDied(f"a worker process died: {_cause(code)}; this run's results are lost"))
            if self._closed:
                return
            if not worker.ready:
                self._failures += 1
                if self._failures >= START_FAILURES:
                    self.broken = f"{START_FAILURES} worker processes in a row {_cause(code)} before they were ready"
                    self._fail_all(HcschedError(f"the worker processes cannot start: {self.broken}"))
                    return
            self._slots.append(_Worker(self))
