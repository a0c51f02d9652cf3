"""A session's runs kept on the server under the address's id (pages.store): a reload (a new session with the same
address) finds the results, the history and a run in progress with its progress and Cancel; an address without the
id, or with another, finds nothing; the kept keys are the pages' own; sessions expire and are capped."""

import re
import time

from helpers import app, wait_for_results

import pages.store as store
from hcsched import preset


def _reload(at, **params):
    """A new session of the same address (what a reload of the tab makes)."""
    from helpers import ROOT
    from streamlit.testing.v1 import AppTest

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in params.items():
        again.query_params[key] = value
    again.run()
    assert not again.exception, again.exception
    return again


def test_a_reload_finds_the_results_and_the_history_and_another_address_does_not():
    at = app()
    sid = at.session_state["_store_sid"]
    assert store._VALID.fullmatch(sid)
    at.button(key="landing_run").click().run()
    run = wait_for_results(at)
    at.run()  # the page's end keeps the state
    again = _reload(at, sid=sid)
    assert again.session_state["results"] is run
    assert [e.number for e in again.session_state["history"]] == [1]
    assert again.session_state["_store_sid"] == sid
    for other in ({}, {"sid": "x" * 22}, {"sid": "../../etc/passwd"}):
        stranger = _reload(at, **other)
        state = stranger.session_state
        assert "results" not in state and ("history" not in state or state["history"] == [])
        assert stranger.session_state["_store_sid"] != sid


def test_a_reload_during_a_run_finds_it_with_its_progress_and_cancel():
    at = app()
    at.session_state["scenario"] = preset("maheswaran-fig6").replace(trials=400)
    at.run()
    at.button(key="landing_run").click().run()
    job = at.session_state["job"]
    sid, mine = at.session_state["_store_sid"], job.session
    job.session, job.gone_since = "the closed tab's", time.monotonic()  # the old tab is gone (AppTest has one id)
    again = _reload(at, sid=sid)
    assert again.session_state["job"] is job and not job.ended
    assert (job.session, job.gone_since) == (mine, None)  # the new tab's now: the reaper cancels nothing
    again.button(key="cancel_run").click().run()
    assert job.cancel.is_set() and "job" not in again.session_state
    assert any(re.fullmatch(r"The run was cancelled\. It had done \d+ of \d+ trials\.( Only a whole run's results are "
                            r"kept: fewer trials on Run give a quicker one\.)?", w.value) for w in again.warning)


def test_the_kept_keys_are_the_pages_own():
    from pages.history import BASELINE, PICKED
    from pages.results_view import MODE_KEPT
    from pages.session import ORIGIN, Keys

    for key in (Keys.SCENARIO, Keys.RESULTS, Keys.JOB, Keys.NOTICE, Keys.HISTORY, PICKED, BASELINE, MODE_KEPT,
                ORIGIN):
        assert key in store.KEPT, key
    for page in ("pages/sweep.py", "pages/papers.py"):
        text = open(page).read()
        for key in [k for k in store.KEPT if k.startswith(("sw_", "pp_"))]:
            if key.startswith("sw_" if "sweep" in page else "pp_"):
                assert f'K + "{key[3:]}"' in text, (page, key)


def test_sessions_expire_and_are_capped(monkeypatch):
    monkeypatch.setattr(store, "_sessions", store.OrderedDict())
    monkeypatch.setattr(store, "MAX_SESSIONS", 3)
    now = time.time()
    for i in range(5):
        store._sessions[f"s{i}"] = (now, {})
    store._expire(now)
    assert list(store._sessions) == ["s2", "s3", "s4"]  # the least recently seen dropped first
    store._sessions["s2"] = (now - store.SESSION_HOURS * 3600 - 1, {})
    store._sessions.move_to_end("s2", last=False)
    store._expire(now)
    assert list(store._sessions) == ["s3", "s4"]



def _start_and_stop():
    """A page that starts a job and is stopped before its end (a reload as the first progress shows)."""
    import threading

    import streamlit as st

    from pages.jobs import Job
    from pages.store import attach

    attach()
    never = threading.Event()
    Job(None, 3, estimate=1.0, notice_key="notice").start("job", lambda progress: never.wait(), partial=False)
    st.stop()


def test_a_job_is_kept_as_it_starts_not_only_at_the_end_of_the_page(monkeypatch):
    from streamlit.testing.v1 import AppTest

    import pages.jobs as jobs

    monkeypatch.setattr(jobs, "IN_PROCESS", True)
    at = AppTest.from_function(_start_and_stop)
    at.run()
    assert not at.exception
    job = at.session_state["job"]
    assert store._take(at.session_state["_store_sid"])["job"] is job
    job.cancel.set()
