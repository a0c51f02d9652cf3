"""A job's end survives a click at any moment: Streamlit stops a script at any read or write of the session state to
rerun it for a click, so settling an ended job (its results kept, or its notice left) is stopped there in these tests,
at every such point in turn, and the next script run must finish it: one history entry, the results shown, the right
notice; never neither."""

from collections.abc import MutableMapping

import pytest

st = pytest.importorskip("streamlit")
from helpers import run_result  # noqa: E402

import pages.history as history  # noqa: E402
from hcsched import HcschedError, preset  # noqa: E402
from pages.jobs import Cancelled, Job, _settle_ended, settle  # noqa: E402
from pages.runs import _keep  # noqa: E402
from pages.session import Keys  # noqa: E402

SMALL = preset("quickstart").replace(tasks=30, trials=2)


class Stopped(Exception):
    """What Streamlit raises in a script it stops for a rerun (a RerunException)."""


class State(MutableMapping):
    """A session state that stops the script at its ``stop_at``-th read or write, as Streamlit's does when a click's
    rerun is pending (every access is a point where the script may be stopped, before the access is done)."""

    def __init__(self, stop_at: int | None = None):
        self.data, self.accesses, self.stop_at = {}, 0, stop_at

    def _point(self) -> None:
        self.accesses += 1
        if self.accesses == self.stop_at:
            raise Stopped

    def __getitem__(self, key):
        self._point()
        return self.data[key]

    def __setitem__(self, key, value):
        self._point()
        self.data[key] = value

    def __delitem__(self, key):
        self._point()
        del self.data[key]

    def __contains__(self, key):
        self._point()
        return key in self.data

    def __iter__(self):
        return iter(list(self.data))

    def __len__(self):
        return len(self.data)


def ended_job(results=None, *, cancelled=False, error=None) -> Job:
    job = Job(SMALL, SMALL.trials, notice_key=Keys.NOTICE, on_result=_keep)
    if cancelled:
        job.cancel.set()
    if results is not None:
        job.future.set_result(results)
    elif error is not None:
        job.future.set_exception(error)
    return job


@pytest.fixture(scope="module")
def results():
    return run_result(SMALL).results


def settle_stopped_at(monkeypatch, job: Job, stop_at: int, click=None) -> State:
    """Settle ``job`` in a script stopped at its ``stop_at``-th access of the session state, then (after ``click``, a
    callback of the click that stopped it) in the next script runs, as begin_page does, until it is settled."""
    state = State(stop_at)
    state.data[Keys.JOB] = job
    state.data[Keys.NOTICE] = ("warning", "a notice of an earlier run", SMALL)
    monkeypatch.setattr(st, "session_state", state)
    try:
        settle(Keys.JOB)
    except Stopped:
        pass
    state.stop_at = None
    if click:
        click()
    for _ in range(3):
        _settle_ended()
    return state


def test_a_result_is_kept_once_whichever_access_the_click_stops(monkeypatch, results):
    points = settle_stopped_at(monkeypatch, ended_job(results), stop_at=0).accesses  # never stopped: the count
    assert points >= 5
    for stop_at in range(1, points + 2):
        job = ended_job(results)
        state = settle_stopped_at(monkeypatch, job, stop_at, click=job.cancel.set)  # the click was Cancel, too late
        kept = state.data[Keys.HISTORY]
        assert [e.run.results is results for e in kept] == [True], f"stopped at access {stop_at}: {len(kept)} kept"
        assert state.data[Keys.RESULTS] is kept[0].run, stop_at
        assert Keys.NOTICE not in state.data and Keys.JOB not in state.data, stop_at


CANCELLED = f"The run was cancelled. It had done 0 of {SMALL.trials} trials."  # how far it went, said


@pytest.mark.parametrize("how, kind, said", [({"cancelled": True}, "warning", CANCELLED),
                                             ({"error": Cancelled()}, "warning", CANCELLED),
                                             ({"error": HcschedError("tasks: -1 is not allowed")}, "error",
                                              "The run stopped: tasks: -1 is not allowed")])
def test_a_notice_is_left_whichever_access_the_click_stops(monkeypatch, how, kind, said):
    for stop_at in range(1, 8):
        state = settle_stopped_at(monkeypatch, ended_job(**how), stop_at)
        assert state.data[Keys.NOTICE] == (kind, said, SMALL), stop_at
        assert Keys.JOB not in state.data and Keys.HISTORY not in state.data, stop_at


def test_a_result_that_ended_as_cancel_was_pressed_is_kept(monkeypatch, results):
    state = settle_stopped_at(monkeypatch, ended_job(results, cancelled=True), stop_at=0)
    assert len(state.data[Keys.HISTORY]) == 1 and Keys.NOTICE not in state.data


def test_a_cancelled_run_that_has_not_stopped_yet_is_said_cancelled(monkeypatch):
    job = Job(SMALL, SMALL.trials, notice_key=Keys.NOTICE, on_result=_keep)
    job.cancel.set()  # its thread still waits for the pool: the page is free at once
    assert job.ended and not job.future.done()
    state = settle_stopped_at(monkeypatch, job, stop_at=0)
    assert state.data[Keys.NOTICE][:2] == ("warning", CANCELLED)
    job.future.set_result(None)  # its thread ends later: nothing changes on the page
    assert Keys.HISTORY not in state.data


def test_keep_adds_a_run_once(monkeypatch, results):
    monkeypatch.setattr(st, "session_state", State())
    run = run_result(SMALL)
    first, again = history.keep(run), history.keep(run)
    assert first is again and len(history.history()) == 1


def test_a_notice_that_the_result_leaves_stays_whichever_access_the_click_stops(monkeypatch, results):
    """A page's ``on_result`` may say something itself (the Papers page's line beside a rerun claim): settling
    clears an earlier run's notice before it, never the one it leaves."""
    def said(job, value):
        st.session_state[Keys.NOTICE] = ("success", "done", None)

    for stop_at in range(0, 8):
        job = Job(SMALL, SMALL.trials, notice_key=Keys.NOTICE, on_result=said)
        job.future.set_result(results)
        state = settle_stopped_at(monkeypatch, job, stop_at)
        assert state.data[Keys.NOTICE] == ("success", "done", None), stop_at
        assert Keys.JOB not in state.data, stop_at


class PerThread(MutableMapping):
    """Each thread's own session state: two sessions of one person (a tab and its reload) run their scripts at once."""

    def __init__(self):
        import threading

        self.local = threading.local()

    def __getattr__(self, name):
        return getattr(self.local.state, name)

    def __getitem__(self, key):
        return self.local.state[key]

    def __setitem__(self, key, value):
        self.local.state[key] = value

    def __delitem__(self, key):
        del self.local.state[key]

    def __iter__(self):
        return iter(self.local.state)

    def __len__(self):
        return len(self.local.state)


def test_a_run_settled_by_two_sessions_at_once_is_kept_once(monkeypatch, results):
    """A reload during a run restores the same job and history list in a second session while the first still draws
    its page; both settled the ended job at once and the run was kept twice ("#1 quickstart" in two rows)."""
    import threading
    import time

    job, runs = ended_job(results), []
    winner = history._winner
    monkeypatch.setattr(history, "_winner", lambda run: (time.sleep(0.2), winner(run))[1])  # both inside keep at once
    monkeypatch.setattr(st, "session_state", PerThread())
    monkeypatch.setattr(st, "toast", lambda *a, **k: None)

    def session() -> None:
        st.session_state.local.state = {Keys.JOB: job, Keys.HISTORY: runs}  # as the store restores them
        settle(Keys.JOB)

    threads = [threading.Thread(target=session) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [e.number for e in runs] == [1]
