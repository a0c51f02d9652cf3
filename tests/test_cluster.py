"""The runs of a server on a real Dask cluster (hcsched.cluster.ClusterPool): a scheduler and two workers started as a
user starts them; the local pool's results, Cancel within 2 s with no key left on the scheduler, a worker killed
mid-run, two runs sharing the workers by the local pool's policy, and an unreachable scheduler in one line."""

import sys
import time
from pathlib import Path

import pytest
from dask_cluster import Cluster, free_port

from hcsched import preset, simulate
from hcsched.errors import HcschedError
from hcsched.runner import using

pytest.importorskip("distributed")

from hcsched import cluster  # noqa: E402  (after the skip: it imports distributed)
from hcsched.cluster import LOST_WORKER, ClusterPool  # noqa: E402

pytestmark = pytest.mark.serial  # it starts a scheduler and two workers

WORK = str(Path(__file__).parent / "pool_work")
sys.path.insert(0, WORK)
import pool_work  # noqa: E402  (the workers import it by name too)

sys.path.remove(WORK)


@pytest.fixture(scope="module")
def dask(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("dask") / "dask.log", importable=[WORK])
    try:
        c.add_worker()
        c.add_worker()
        with ClusterPool(c.address, max_runs=4, models=["etc"]) as pool:  # quickstart's model: a shorter warm-up
            assert pool.wait_ready(120)
            deadline = time.monotonic() + 60
            while pool.size < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert pool.size == 2
            yield c, pool
    finally:
        c.stop()


def _run(pool, fn, items, **kw) -> dict:
    got = {}
    pool.run(fn, [(x,) for x in items], got.__setitem__, **kw)
    return got


def test_a_quickstart_run_on_the_cluster_gives_the_local_rows(dask):
    _, pool = dask
    scenario = preset("quickstart").replace(trials=8)
    alone = simulate(scenario, jobs=1)
    seen = []
    with using(pool, owner="me"):
        rows = simulate(scenario, jobs=2, progress=lambda done, total: seen.append(done))
    assert rows.equals(alone)
    assert seen[-1] == 8 and seen == sorted(seen)
    assert _run(pool, pool_work.square, range(5)) == {i: i * i for i in range(5)}
    with pytest.raises(HcschedError, match="value: 5 is not allowed"):  # an error of the work, as it was raised
        _run(pool, pool_work.refuse, [5])


def test_cancel_from_poll_returns_within_2_s_and_leaves_no_key_of_the_run_on_the_scheduler(dask):
    """Cancel (an exception out of ``poll``) while both workers run 3 s chunks of the run: back at once."""
    _, pool = dask
    asked: list[float] = []

    def poll():
        if not asked and pool.first_free() > 0:  # every slot busy with the run's chunks
            asked.append(time.monotonic())
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(pool, pool_work.sleep, [3.0] * 6, poll=poll, costs=[3.0] * 6)
    took = time.monotonic() - asked[0]
    print(f"Cancel took {took:.3f} s")
    assert took < 2.0
    # The scheduler forgets a cancelled chunk once its worker has let it go: a running chunk (a thread, which cannot be
    # interrupted) only when its 3 s end, so the wait allows that and the scheduler's round trips on a busy machine.
    end = time.monotonic() + 3.0 + 5.0
    while pool.keys() and time.monotonic() < end:
        time.sleep(0.05)
    assert pool.keys() == []  # the run's tasks, cancelled: none left on the scheduler (and no other run's)
    assert _run(pool, pool_work.square, [4]) == {0: 16}  # the slots serve the next run (the chunks running end)


def test_two_runs_share_the_workers_by_the_local_pools_policy(dask):
    """A short run (4 chunks of 0.3 s) started while a long one (14 such chunks) holds both workers takes every
    worker that frees until its chunks are all sent (the run with the least work left first, as in the local pool):
    no chunk of the long run starts between the short run's first start and its last."""
    _, pool = dask
    import threading

    out = {}

    def stamped(n: int, name: str) -> None:
        got = {}
        pool.run(pool_work.stamp, [(0.3,)] * n, got.__setitem__, costs=[0.3] * n, owner=name)
        out[name] = sorted(got.values())

    t = threading.Thread(target=stamped, args=(14, "long"))
    t.start()
    while pool.time_left("long") is None or pool.first_free() == 0.0:
        time.sleep(0.01)
    stamped(4, "short")
    t.join(30)
    first, last = out["short"][0][0], out["short"][-1][0]
    assert [s for s, _ in out["long"] if first < s < last] == []
    assert out["long"][-1][0] > last


def test_a_worker_killed_mid_run_the_run_finishes_with_the_local_rows_and_says_so(dask):
    c, pool = dask
    scenario = preset("quickstart").replace(trials=40, tasks=1500)  # 8 chunks of about 0.3 s
    alone = simulate(scenario, jobs=1)
    owner, killed = object(), []

    def kill_one(done, total):
        if done > 0 and not killed:  # both workers busy with the run's chunks
            c.kill(c.workers[0])
            killed.append(done)

    with using(pool, owner=owner):
        rows = simulate(scenario, jobs=2, progress=kill_one)
    assert killed and killed[0] < 40
    assert rows.equals(alone)
    assert pool.notes(owner) == [LOST_WORKER]
    c.workers.pop(0)
    c.add_worker()  # as it was, for what comes after
    deadline = time.monotonic() + 60
    while pool.size < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pool.size == 2


def test_an_unreachable_scheduler_is_one_line_naming_its_address(monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)
    address = f"tcp://127.0.0.1:{free_port()}"
    with pytest.raises(HcschedError) as info:
        ClusterPool(address)
    assert str(info.value).startswith(f"the Dask scheduler at {address} cannot be reached")
    assert "\n" not in str(info.value)


class _Slot:
    """A page's placeholder (``st.empty()``) that records what it was told to show."""

    def __init__(self) -> None:
        self.shown: list[tuple] = []

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: self.shown.append((name, *args))


def test_the_page_says_in_one_line_that_a_worker_was_lost(dask, monkeypatch):
    from pages import jobs

    _, pool = dask
    job = jobs.Job(None, 10)
    monkeypatch.setattr(jobs, "started_pool", lambda: pool)
    pool._note(type("Run", (), {"owner": job})(), LOST_WORKER)
    bar, warning = _Slot(), _Slot()
    job.draw(bar, warning)
    assert warning.shown == [("info", LOST_WORKER)] and "\n" not in LOST_WORKER
    assert bar.shown[0][0] == "progress"


def test_the_dashboard_runs_on_the_cluster_its_secrets_name(dask, monkeypatch, tmp_path):
    """``HCSCHED_DASK_SCHEDULER`` in Streamlit's secrets (a file of the test's, not the user's): the server's pool is
    that cluster's, and a job's run there gives the local rows."""
    from streamlit import config
    from streamlit.runtime.secrets import Secrets

    from pages import jobs

    c, _ = dask
    monkeypatch.setenv(jobs.SCHEDULER_SETTING, "")  # not set; and unset after the test, where secrets set it
    monkeypatch.setattr(jobs, "_server", {"jobs": []})
    monkeypatch.setattr(cluster, "ClusterPool", lambda address, runs: ClusterPool(address, runs, models=["etc"]))
    secrets = tmp_path / "secrets.toml"
    before = config.get_option("secrets.files")
    try:
        config.set_option("secrets.files", [str(secrets)])
        monkeypatch.setattr(jobs.st, "secrets", Secrets())
        assert jobs.dask_scheduler() is None  # no file: the server's own workers, and no error
        secrets.write_text(f'{jobs.SCHEDULER_SETTING} = "{c.address}"\n')
        monkeypatch.setattr(jobs.st, "secrets", Secrets())
        pool = jobs.server_pool()
    finally:
        config.set_option("secrets.files", before)
    try:
        assert isinstance(pool, ClusterPool) and pool.address == c.address and pool.wait_ready(60)
        scenario = preset("quickstart").replace(trials=4)
        job = jobs.Job(scenario, 4).submit(lambda progress: simulate(scenario, jobs=2, progress=progress))
        assert job.future.result(60).equals(simulate(scenario, jobs=1))
        assert job.done == 4
    finally:
        pool.close()


def test_an_unreachable_scheduler_fails_the_dashboards_run_in_one_line(monkeypatch):
    from pages import jobs

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    monkeypatch.setattr(jobs, "_server", {"jobs": []})
    address = f"tcp://127.0.0.1:{free_port()}"
    monkeypatch.setenv(jobs.SCHEDULER_SETTING, address)
    job = jobs.Job(None, 1).submit(lambda progress: pytest.fail("ran without a pool"))
    kind, said = job.outcome()
    assert kind == "error" and said.startswith(f"the Dask scheduler at {address} cannot be reached")
    assert "\n" not in said
    asked = time.monotonic()
    with pytest.raises(HcschedError, match="cannot be reached"):
        jobs.server_pool()  # not tried again at once: every page would wait for it
    assert time.monotonic() - asked < 0.5


def test_the_scheduler_lost_fails_the_run_in_one_line(dask):
    """Last: it ends the module's cluster."""
    c, pool = dask
    import threading

    errors = []

    def run() -> None:
        try:
            _run(pool, pool_work.sleep, [2.0] * 4)
        except HcschedError as exc:
            errors.append(str(exc))

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.5)
    c.kill(c.scheduler)
    t.join(30)
    assert not t.is_alive()
    assert errors == [f"the Dask scheduler at {c.address} was lost; this run's results are lost"]
    assert pool.broken


def test_the_runs_told_of_a_lost_worker_are_bounded_and_the_oldest_forgotten_first(monkeypatch):
    """A long-lived server remembers at most ``LOST_TOKENS_KEPT`` runs that had a chunk on a lost worker: past it,
    the oldest is forgotten, never the one just told."""
    import queue
    import threading

    monkeypatch.setattr(cluster, "LOST_TOKENS_KEPT", 3)
    pool = ClusterPool.__new__(ClusterPool)  # its event handler alone: no scheduler needed
    pool._lost_tokens, pool._events, pool._changed = cluster.OrderedDict(), queue.Queue(), threading.Event()
    for token in "abcde":
        pool._on_event(("", {"action": "remove-worker",
                             "processing-tasks": [f"{cluster.KEY_PREFIX}-{token}-0"], "lost-computed-tasks": []}))
    assert list(pool._lost_tokens) == ["c", "d", "e"] and pool._events.qsize() == 5
