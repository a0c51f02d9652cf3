"""A session's runs kept on the server under an id that the address carries (``?sid=...``), so that a reload of the
tab, or the same address in another tab of the same person, finds them: a run in progress with its progress and
Cancel, the finished runs, the results shown and the run history, a sweep and a Papers rerun likewise.

The id is 128 random bits, made on a session's first page and written into the address beside the scenario; a link
made with "Copy link" never carries it, so another person's link opens a session of its own and never sees these
runs. The server keeps a session for ``HCSCHED_SESSION_HOURS`` (default 2) after its last page was drawn, and at most
``HCSCHED_MAX_SESSIONS`` (default 200) sessions: beyond that the least recently seen is dropped first (its runs in
progress end as a closed tab's do). Nothing is written to disk: a restart of the server forgets every session.
"""

from __future__ import annotations

import os
import re
import secrets
import threading
import time
from collections import OrderedDict

import streamlit as st

SID = "sid"  # the address's parameter
SESSION_HOURS = float(os.environ.get("HCSCHED_SESSION_HOURS", 2))
MAX_SESSIONS = int(os.environ.get("HCSCHED_MAX_SESSIONS", 200))
_ATTACHED = "_store_sid"  # the session state's id, once attached
_VALID = re.compile(r"[A-Za-z0-9_-]{22}")  # what secrets.token_urlsafe(16) makes; anything else is never looked up

# The keys of a session's state kept on the server: the pages' own constants, checked by tests/dashboard/test_store.py
KEPT = ("scenario", "scenario_origin", "results", "job", "notice", "history", "history_picked", "history_baseline",
        "results_mode_kept", "sw_job", "sw_result", "sw_notice", "sw_count", "pp_job", "pp_what", "pp_rerun",
        "pp_notice")

_sessions: OrderedDict[str, tuple[float, dict]] = OrderedDict()  # sid -> (last seen, kept state), oldest first
_lock = threading.Lock()


def session_id() -> str:
    """The id of this session's kept state (made or restored by :func:`attach`)."""
    return st.session_state[_ATTACHED]


def attach(on_restore=None) -> bool:
    """On a session's first page: restore the state kept under the address's id, if the server has it (then
    ``on_restore(value)`` for each value restored, e.g. to give a running job to this session), else start a new
    id. Returns True when a kept state was restored."""
    if _ATTACHED in st.session_state:
        return False
    sid = str(st.query_params.get(SID, ""))
    kept = _take(sid) if _VALID.fullmatch(sid) else None
    if kept is None:
        st.session_state[_ATTACHED] = secrets.token_urlsafe(16)
        return False
    for key, value in kept.items():
        st.session_state[key] = value
        if on_restore is not None:
            on_restore(value)
    st.session_state[_ATTACHED] = sid
    return True


def _take(sid: str) -> dict | None:
    with _lock:
        _expire(time.time())
        found = _sessions.get(sid)
        return None if found is None else dict(found[1])


def save() -> None:
    """At the end of every page: keep the session's runs, results and history under its id."""
    if _ATTACHED not in st.session_state:
        return
    state = {key: st.session_state[key] for key in KEPT if key in st.session_state}
    now = time.time()
    with _lock:
        _sessions[st.session_state[_ATTACHED]] = (now, state)
        _sessions.move_to_end(st.session_state[_ATTACHED])
        _expire(now)


def _expire(now: float) -> None:
    """Drop sessions unseen for SESSION_HOURS, then the least recently seen beyond MAX_SESSIONS (under the lock)."""
    while _sessions:
        sid, (seen, _) = next(iter(_sessions.items()))
        if now - seen <= SESSION_HOURS * 3600 and len(_sessions) <= MAX_SESSIONS:
            return
        del _sessions[sid]


def kept_sessions() -> int:
    """Sessions the server keeps now (for tests and the deployment's sizing)."""
    with _lock:
        return len(_sessions)
