"""Soak and fault test of the real server: one ``streamlit run app.py``, three browser sessions at once, each
running the default presets of the five models one after another, round after round (3 rounds x 5 models x 3 sessions
= 45 background runs in CI, which must end within 25 minutes; HCSCHED_SOAK_ROUNDS=7 gives the 105 runs of a longer soak), with a few trials and a seed of its
own each run (so that no run is served from the cache).

- Cancel: about one run in five is cancelled at a random moment (seeded); Cancel must give the page back (the Run
  button enabled, "The run was cancelled." shown, or the results of a run that ended as it was pressed) within 2 s
  in nine cancels of ten, and always within 5 s (from the click, the browser's part included: on a 2-core machine
  with three tabs and their runs, one Cancel in about a hundred took 2.4 s).
- Fault: about one run in eight has a busy worker process of the server's pool SIGKILLed while it runs; the run it
  served must end within a few seconds with a one-line error naming the dead worker ("worker process died", "SIGKILL"),
  and that session's next run must work. A kill that lands after the run it aimed at ended (the worker already idle)
  does not count.
- Hang: a run not ended within ``HANG_SECONDS`` fails the test, naming its session and preset.
- Afterwards: once the sessions are closed, the server's children are only the pool's idle workers (no more than the
  cores, none using CPU); once the server is terminated, none of its workers is left; the server's memory (VmRSS) at
  the end is within 20% of its memory after the first round; its log holds no traceback.

Prints one summary line (runs, hangs, cancels and the slowest, kills that hit a run and how many were reported,
processes left, memory, seconds). Skipped without chromium or playwright, unless HCSCHED_REQUIRE_BROWSER=1.
HCSCHED_SOAK_SESSIONS and HCSCHED_SOAK_ROUNDS make it smaller (to try the harness), HCSCHED_SOAK_SEED changes the
moments of the cancels and kills.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from helpers import ARGS, CHROMIUM, require_browser
from live import ScriptRuns, stop, streamlit_server

SESSIONS = int(os.environ.get("HCSCHED_SOAK_SESSIONS", 3))
ROUNDS = int(os.environ.get("HCSCHED_SOAK_ROUNDS", 3))
SEED = int(os.environ.get("HCSCHED_SOAK_SEED", 28))
PRESETS = ("quickstart", "alazzoni-B", "page-system-a", "caniou-mu10", "kim-loose-high-heavy")  # the models' defaults
TRIALS = {"quickstart": 3, "alazzoni-B": 3, "page-system-a": 2, "caniou-mu10": 3, "kim-loose-high-heavy": 2}
# Runs to cancel or kill: long enough (a few seconds of work) to be caught while they go on.
LONG_TRIALS = {"quickstart": 300, "alazzoni-B": 30, "page-system-a": 3, "caniou-mu10": 30, "kim-loose-high-heavy": 3}
CANCEL_SHARE, KILL_SHARE = 0.2, 0.125
CANCEL_SECONDS = 2.0  # the page is usable again this soon after Cancel, in 9 cancels of 10
CANCEL_LIMIT_SECONDS = 5.0  # ... and always this soon
KILL_REPORT_SECONDS = 5.0  # a killed worker's run says so this soon
HANG_SECONDS = 90.0  # a run not ended by then hangs
IDLE_SECONDS = 15.0  # after the sessions close, the server's children are idle workers within this
WORKER_READY_AGE = 6.0  # a worker younger than this may still be starting (killing it is not a run's fault)
MEMORY_GROWTH = 0.20
DIED = "worker process died"

STATE = """() => {
  const buttons = [...document.querySelectorAll('button')];
  const named = (t) => buttons.find((b) => b.innerText.trim() === t);
  const run = named('Run'), status = document.querySelector('[data-testid="stStatusWidget"]');
  const texts = (id) => [...document.querySelectorAll(`[data-testid="${id}"]`)].map((e) => e.innerText.trim());
  return {run: run ? !run.disabled : null, cancel: !!named('Cancel'),
          busy: !!(status && status.innerText.includes('Running')) || !!document.querySelector('[data-stale="true"]'),
          errors: texts('stAlertContentError'), warnings: texts('stAlertContentWarning'), exceptions: texts('stException')};
}"""
# Back after Cancel: Run enabled, no Cancel. Usually with "The run was cancelled."; a run that ended as Cancel was
# pressed shows its results instead (the click then reaches a job already done), which counts as back too.
USABLE = "() => { const s = (" + STATE + ")(); return s.run === true && !s.cancel; }"
IDLE = """() => { const s = document.querySelector('[data-testid="stStatusWidget"]');
  return !(s && s.innerText.includes('Running')) && !document.querySelector('[data-stale="true"]'); }"""


# --- the server and its processes -----------------------------------------------------------------------------------
@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid


@contextlib.contextmanager
def serve(log: Path):
    """``streamlit run app.py`` on a free port, its output to ``log``, until the block ends (then terminated)."""
    with open(log, "w") as out, streamlit_server(out) as (url, proc):
        yield Server(url, proc, log)


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command name (field 3, the state, first), or None once the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (zombies included)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and int(fields[1]) == pid:
                found.append(int(entry))
    return found


def is_worker(pid: int) -> bool:
    return "hcsched.pool" in _cmdline(pid)


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def cpu_ticks(pid: int) -> int | None:
    """utime + stime of ``pid`` in clock ticks, or None once it is gone."""
    fields = _stat(pid)
    return None if fields is None else int(fields[11]) + int(fields[12])


def age(pid: int) -> float:
    """Seconds since ``pid`` started."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    uptime = float(Path("/proc/uptime").read_text().split()[0])
    return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def busy_workers(pids: list[int], seconds: float = 0.25) -> list[int]:
    """Those of ``pids`` whose CPU time grows over ``seconds`` (blocking; call it in a thread)."""
    before = {pid: cpu_ticks(pid) for pid in pids}
    time.sleep(seconds)
    return [pid for pid in pids if before[pid] is not None and (cpu_ticks(pid) or 0) > before[pid]]


def kill_busy_worker(server: int) -> int | None:
    """SIGKILL one pool worker of the server that is computing (its CPU time grows; not one still starting); its pid,
    or None when no worker is busy."""
    ready = [pid for pid in children(server) if is_worker(pid) and alive(pid) and age(pid) > WORKER_READY_AGE]
    busy = busy_workers(ready)
    if not busy:
        return None
    os.kill(busy[0], signal.SIGKILL)
    return busy[0]


def idle_children(server: int, timeout: float) -> tuple[bool, list[str]]:
    """Wait until the server's children are only pool workers, no more than the cores, none using CPU; (whether
    they are, a description of each child)."""
    cores, end = len(os.sched_getaffinity(0)), time.monotonic() + timeout
    while True:
        kids = children(server)
        busy = busy_workers(kids, 1.0)
        described = [f"{pid} {'worker' if is_worker(pid) else repr(_cmdline(pid)[:80])} {(_stat(pid) or ['gone'])[0]}"
                     f"{' busy' if pid in busy else ''}" for pid in kids]
        if all(is_worker(pid) and alive(pid) for pid in kids) and len(kids) <= cores and not busy:
            return True, described
        if time.monotonic() > end:
            return False, described
        time.sleep(0.5)


# --- one browser session --------------------------------------------------------------------------------------------
async def wait_idle(page, timeout: float = 30) -> None:
    """Until Streamlit is done running the page (no "Running" status, no stale element)."""
    await page.wait_for_function(IDLE, timeout=timeout * 1000)


async def rerun(page, runs: ScriptRuns, action, timeout: float = 60) -> None:
    """``await action()`` (a click, a key press), then wait until the script run it starts has finished and the page
    is drawn."""
    before, end = runs.finished, time.monotonic() + timeout
    await action()
    while runs.finished == before or runs.running:
        if time.monotonic() > end:
            raise TimeoutError(f"the script run did not finish within {timeout:.0f} s (whole runs finished since: "
                               f"{runs.finished - before}, a run going on: {runs.running})")
        await page.wait_for_timeout(50)
    await wait_idle(page)


async def open_session(browser, url: str):
    context = await browser.new_context(viewport={"width": 1200, "height": 1400})
    page = await context.new_page()
    runs = ScriptRuns(page)
    await page.goto(url)
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
    await wait_idle(page)
    return context, page, runs


async def go_to(page, runs: ScriptRuns, title: str) -> None:
    """Another page of the app, through its own navigation (a new URL would start a new session)."""
    await rerun(page, runs, page.get_by_role("link", name=title, exact=True).first.click)


async def load_preset(page, runs: ScriptRuns, name: str) -> None:
    """Load the preset ``name`` on the Scenario page (unless it is loaded already)."""
    await go_to(page, runs, "Scenario")
    picker = page.get_by_label("Scenario loaded (pick a preset to load it)")
    if (await picker.input_value()).startswith(name + ":"):
        return
    await picker.click()
    await picker.fill(name)
    await rerun(page, runs, page.get_by_role("option", name=f"{name}: ").first.click)
    loaded = await picker.input_value()
    assert loaded.startswith(name + ":"), f"picked the preset {name}, the Scenario page shows {loaded}"


async def set_number(page, runs: ScriptRuns, field, value: int) -> None:
    """Type ``value`` into a number input and wait for the rerun it starts."""
    if await field.input_value() == str(value):
        return
    await field.fill(str(value))
    await rerun(page, runs, lambda: field.press("Enter"))
    shown = await field.input_value()
    assert shown == str(value), f"typed {value} into a number input, it shows {shown}"


async def open_run_page(page, runs: ScriptRuns, trials: int, seed: int) -> None:
    """The Run page with ``trials`` (the first number input, named in the model's word) and ``seed`` set."""
    await go_to(page, runs, "Run")
    await set_number(page, runs, page.locator("[data-testid='stNumberInput'] input").first, trials)
    await set_number(page, runs, page.get_by_label("Seed", exact=True), seed)


async def press_cancel(page) -> float | None:
    """Press Cancel; seconds until the page is usable again (Run enabled, no Cancel), or None when the run ended
    before Cancel could be pressed. Whether it says "The run was cancelled." (or shows the results of a run that ended
    as Cancel was pressed) is the run's outcome, read after."""
    start = time.monotonic()
    try:
        await page.get_by_role("button", name="Cancel", exact=True).click(timeout=2_000)
    except Exception:
        return None
    with contextlib.suppress(Exception):
        await page.wait_for_function(USABLE, timeout=HANG_SECONDS * 1000, polling=50)
    return time.monotonic() - start


@dataclass
class Kill:
    pid: int
    at: float
    session: int
    preset: str
    hit_by: tuple[int, str] | None = None  # the session and preset whose run reported it
    seconds: float | None = None  # from the kill to the report
    line: str = ""


@dataclass
class Run:
    session: int
    preset: str
    trials: int
    seed: int
    action: str  # "", "cancel" or "kill"
    check: bool = True  # whether its results are looked for on the Results page
    outcome: str = ""  # "ok", "cancelled", "error", "hang"
    message: str = ""
    seconds: float = 0.0
    cancel_seconds: float | None = None
    kill: Kill | None = None  # the kill this session made in this run
    hit: Kill | None = None  # the kill this run reported
    steps: dict = field(default_factory=dict)  # seconds of each step: load, fields, run, results
    trace: list = field(default_factory=list)  # what the page showed, at each change (for a failure's message)

    def see(self, at: float, runs: ScriptRuns, state: dict) -> None:
        seen = (runs.finished, runs.running, state["run"], state["cancel"], state["busy"], len(state["errors"]),
                len(state["warnings"]))
        if not self.trace or self.trace[-1][1:] != seen:
            self.trace.append((round(at, 2), *seen))

    def traced(self) -> str:
        return ("; what the page showed (s, whole script runs, running, Run enabled, Cancel, stale, errors, warnings): "
                + " ".join(str(t) for t in self.trace[-12:]))


@dataclass
class Soak:
    server: Server
    out: Path
    runs: list[Run] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    workers_seen: set[int] = field(default_factory=set)
    rss_first: float = float("nan")
    rss_last: float = float("nan")
    stop: bool = False

    def note_workers(self) -> None:
        self.workers_seen.update(pid for pid in children(self.server.pid) if is_worker(pid))

    def match_kill(self, run: Run, line: str, start: float, now: float) -> Kill | None:
        """The last kill not yet reported made while this run went on (from ``start`` to its report, ``now``): a
        killed worker fails only the run it was computing."""
        for kill in reversed(self.kills):
            if kill.hit_by is None and start <= kill.at <= now:
                kill.hit_by, kill.seconds, kill.line = (run.session, run.preset), now - kill.at, line
                return kill
        return None


async def run_once(soak: Soak, page, runs: ScriptRuns, run: Run, rng: random.Random) -> None:
    """Press Run and follow the run to its end: cancel it or kill a busy worker of it when asked to; its outcome."""
    start, before = time.monotonic(), runs.finished
    await page.get_by_role("button", name="Run", exact=True).click()
    acted, act_at, state, settled = False, None, {}, 0
    while True:
        now = time.monotonic()
        if now - start > HANG_SECONDS:
            run.outcome, run.seconds = "hang", now - start
            run.message = f"progress bar shown: {state.get('cancel')}, Run enabled: {state.get('run')}, notices: " \
                          f"{state.get('errors', []) + state.get('warnings', [])}"
            return
        state = await page.evaluate(STATE)
        run.see(now - start, runs, state)
        if runs.finished > before and not runs.running and state["run"] and not state["cancel"] and not state["busy"]:
            settled += 1
            if settled == 2:  # twice in a row: the page is drawn, not between a message and its drawing
                break
            await page.wait_for_timeout(100)
            continue
        settled = 0
        if state["cancel"] and not acted and run.action:
            if act_at is None:
                act_at = now + rng.uniform(0.0, 1.5)  # a random moment of the run
            elif now >= act_at:
                acted = True
                if run.action == "cancel":
                    run.cancel_seconds = await press_cancel(page)
                    continue
                pid = await asyncio.to_thread(kill_busy_worker, soak.server.pid)
                if pid is None:
                    acted = False  # no worker computing at this moment (between chunks): try again
                    act_at = time.monotonic() + 0.2
                else:
                    run.kill = Kill(pid, time.monotonic(), run.session, run.preset)
                    soak.kills.append(run.kill)
        await page.wait_for_timeout(100)
    run.seconds = time.monotonic() - start
    notices = state["errors"] + state["warnings"] + state["exceptions"]
    died = [n for n in state["errors"] if DIED in n]
    if died:
        run.outcome, run.message = "error", died[0]
        run.hit = soak.match_kill(run, died[0], start, time.monotonic())
    elif any("The run was cancelled." in n for n in state["warnings"]):
        run.outcome, run.message = "cancelled", "The run was cancelled."
    elif notices:
        run.outcome, run.message = "error", " | ".join(notices)
    else:
        run.outcome = "ok"  # its results are checked on the Results page (the link to them may be missing)


async def check_results(page, runs: ScriptRuns, run: Run) -> str | None:
    """The Results page shows this run's results (its seed); else what it shows."""
    await go_to(page, runs, "Results")
    if await page.get_by_text(f"seed {run.seed},").count():
        return None
    shown = " ".join((await page.inner_text("[data-testid='stMain']")).split())[:300]
    kept = page.get_by_text("Runs of this session")  # the session's runs, for the diagnosis
    if await kept.count():
        await kept.first.click()
        await page.wait_for_timeout(500)
        shown += " | runs kept: " + " ".join((await page.inner_text("[data-testid='stExpander']")).split())[:600]
    return "the Results page does not show the run's results: " + shown


async def drive(soak: Soak, page, runs: ScriptRuns, run: Run, rng: random.Random) -> str | None:
    """One run of a session: load its preset, set its trials and seed, run it (and cancel it or kill a worker), check
    its results when it had some; what is wrong with them, if anything. Each step's seconds go to ``run.steps``."""
    last = time.monotonic()

    def step(name: str) -> None:
        nonlocal last
        run.steps[name], last = time.monotonic() - last, time.monotonic()

    await load_preset(page, runs, run.preset)
    step("load")
    await open_run_page(page, runs, run.trials, run.seed)
    step("fields")
    await run_once(soak, page, runs, run, rng)
    step("run")
    wrong = await check_results(page, runs, run) if run.outcome == "ok" and run.check else None
    step("results")
    return wrong


async def session(soak: Soak, browser, index: int, barrier: asyncio.Barrier) -> None:
    rng = random.Random(SEED * 100 + index)
    context, page, runs = await open_session(browser, soak.server.url)
    after_kill = False
    try:
        for round_no in range(ROUNDS):
            for name in PRESETS:
                if soak.stop:
                    return
                draw = rng.random()
                action = ("" if after_kill else "cancel" if draw < CANCEL_SHARE
                          else "kill" if draw < CANCEL_SHARE + KILL_SHARE else "")
                trials = LONG_TRIALS[name] if action else TRIALS[name]
                # The Results page is opened in the first and last rounds and after a killed worker's run: it is the
                # only proof that a run without a notice left its results (the Run page's link to them can be
                # missing).
                run = Run(index, name, trials, 1000 * (index + 1) + len(soak.runs), action,
                          check=round_no in (0, ROUNDS - 1) or after_kill)
                soak.runs.append(run)
                where = (f"session {index}, round {round_no + 1}, {name} "
                         f"({trials} trials, seed {run.seed}{', ' + action if action else ''})")
                try:
                    wrong = await drive(soak, page, runs, run, rng)
                except Exception as exc:
                    await page.screenshot(path=str(soak.out / f"failed-session{index}.png"), full_page=True)
                    soak.problems.append(f"{where}: the harness could not drive the page: {type(exc).__name__}: "
                                         f"{' '.join(str(exc).split())[:400]}")
                    soak.stop = True
                    return
                soak.note_workers()
                if run.outcome == "hang":
                    await page.screenshot(path=str(soak.out / f"hang-session{index}.png"), full_page=True)
                    soak.problems.append(f"{where}: hang: not ended {HANG_SECONDS:.0f} s after Run "
                                         f"({run.message}){run.traced()}")
                    soak.stop = True
                    return
                expected = {"": ("ok",), "cancel": ("ok", "cancelled"), "kill": ("ok", "error")}[action]
                if run.hit is not None and run.hit.session != index:
                    expected = ("error",)  # another session's kill hit this run
                if run.outcome not in expected or (run.outcome == "error" and run.hit is None):
                    soak.problems.append(f"{where}: ended {run.outcome!r}: {run.message}"
                                         + (" (the run after a killed worker's)" if after_kill else "") + run.traced())
                elif run.outcome == "cancelled" and (run.cancel_seconds or 0) > CANCEL_LIMIT_SECONDS:
                    soak.problems.append(f"{where}: the page was usable {run.cancel_seconds:.2f} s after Cancel "
                                         f"(limit {CANCEL_LIMIT_SECONDS:.0f} s)")
                elif wrong:
                    soak.problems.append(f"{where}: {wrong}{run.traced()}")
                after_kill = run.hit is not None
            if round_no == 0:
                await first_round_done(soak, barrier, index)
    finally:
        await barrier.abort()  # a session that stopped early must not leave the others waiting
        await context.close()


def ninth_decile(values: list[float]) -> float:
    """The 90th percentile of ``values`` (numpy's default, linear between order statistics); 0 if none.

    With fewer than ten values, "the largest of the smallest 90%, rounded up" would be the largest of them all, so one
    slow cancel among seven would fail a rule meant for 9 in 10; every cancel is held to ``CANCEL_LIMIT_SECONDS``.
    """
    return float(np.quantile(values, 0.9)) if values else 0.0


async def first_round_done(soak: Soak, barrier: asyncio.Barrier, index: int) -> None:
    """Wait for every session to finish its first round, then take the server's memory (the baseline)."""
    try:
        await barrier.wait()
        if index == 0:
            soak.rss_first = rss_mb(soak.server.pid)
        await barrier.wait()
    except asyncio.BrokenBarrierError:  # a session stopped early (its problem is reported)
        pass


async def soak_sessions(soak: Soak) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        barrier = asyncio.Barrier(SESSIONS)
        results = await asyncio.gather(*(session(soak, browser, i, barrier) for i in range(SESSIONS)),
                                       return_exceptions=True)
        for i, r in enumerate(results):
            if isinstance(r, BaseException):
                soak.problems.append(f"session {i}: {type(r).__name__}: {r}")
        soak.rss_last = rss_mb(soak.server.pid)
        await browser.close()


@pytest.mark.slow
def test_soak_three_sessions_with_cancels_and_killed_workers(tmp_path, capsys):
    require_browser()
    begin = time.monotonic()
    with serve(tmp_path / "server.log") as server:
        soak = Soak(server, tmp_path)
        asyncio.run(soak_sessions(soak))
        idle, described = idle_children(server.pid, IDLE_SECONDS)  # the contexts are closed: their sessions gone
        soak.note_workers()
        stop(server.proc)
    end = time.monotonic() + 5
    while True:
        left = [pid for pid in soak.workers_seen if alive(pid) and is_worker(pid)]
        if not left or time.monotonic() > end:
            break
        time.sleep(0.2)
    log = server.log.read_text()

    runs, kills = soak.runs, soak.kills
    ended = [r for r in runs if r.outcome in ("ok", "cancelled", "error")]
    cancels = [r.cancel_seconds for r in runs if r.outcome == "cancelled" and r.cancel_seconds is not None]
    hits = [k for k in kills if k.hit_by is not None]
    reported = [k for k in hits if "SIGKILL" in k.line and "\n" not in k.line and k.seconds <= KILL_REPORT_SECONDS]
    hangs = [r for r in runs if r.outcome == "hang"]
    growth = soak.rss_last / soak.rss_first - 1
    with capsys.disabled():
        print(f"\nsoak: {len(ended)} runs ended ({sum(r.outcome == 'ok' for r in runs)} with results) in {SESSIONS} "
              f"sessions, {len(hangs)} hangs, {len(cancels)} cancels (9 in 10 within {ninth_decile(cancels):.2f} s, "
              f"slowest {max(cancels, default=0):.2f} s), "
              f"{len(kills)} kills, {len(hits)} hit a run, {len(reported)} reported (slowest "
              f"{max((k.seconds for k in hits), default=0):.2f} s), {len(left)} processes left, memory "
              f"{soak.rss_first:.0f} -> {soak.rss_last:.0f} MB ({growth:+.0%}), {time.monotonic() - begin:.0f} s")
        steps = {step: [r.steps[step] for r in runs if step in r.steps]
                 for step in ("load", "fields", "run", "results")}
        print("  seconds per step, mean / max: " + ", ".join(f"{step} {sum(v) / len(v):.1f} / {max(v):.1f}"
                                                           for step, v in steps.items() if v))
        for k in kills:
            print(f"  kill of worker {k.pid} in session {k.session}'s {k.preset}: "
                  + (f"reported by session {k.hit_by[0]}'s {k.hit_by[1]} after {k.seconds:.2f} s: {k.line}" if k.hit_by
                     else "no run reported it (the run had ended, or the worker was between chunks)"))
    problems = list(soak.problems)
    if ninth_decile(cancels) > CANCEL_SECONDS:
        problems.append(f"Cancel gave the page back within {CANCEL_SECONDS:.0f} s in fewer than 9 cancels of 10: "
                        + ", ".join(f"{c:.2f} s" for c in sorted(cancels)))
    if not idle:
        problems.append(f"{IDLE_SECONDS:.0f} s after the sessions closed, the server's children are not only idle "
                        f"workers (at most {len(os.sched_getaffinity(0))}): {described}")
    if left:
        problems.append(f"worker processes left after the server ended: {left}")
    if len(ended) < SESSIONS * ROUNDS * len(PRESETS):
        problems.append(f"only {len(ended)} of {SESSIONS * ROUNDS * len(PRESETS)} runs ended")
    if len(hits) != len(reported):
        problems.append("a killed worker's run did not say so in one line naming SIGKILL within "
                        f"{KILL_REPORT_SECONDS:.0f} s: "
                        + "; ".join(f"{k.line} after {k.seconds:.2f} s" for k in hits if k not in reported))
    if ROUNDS * SESSIONS >= 6 and not hits:
        problems.append("no kill hit a run: the fault test tested nothing")
    if ROUNDS > 1 and abs(growth) > MEMORY_GROWTH:
        problems.append(f"the server's memory went from {soak.rss_first:.0f} MB after the first round to "
                        f"{soak.rss_last:.0f} MB at the end ({growth:+.0%}, allowed {MEMORY_GROWTH:.0%})")
    if hangs:  # what the server said meanwhile (e.g. Streamlit's "The fragment with id ... does not exist anymore")
        problems.append("the server's log ends with:\n" + "\n".join(log.strip().splitlines()[-8:]))
    if "Traceback" in log:
        problems.append("the server's log holds a traceback:\n" + log[-4000:])
    assert not problems, "\n".join(problems)
