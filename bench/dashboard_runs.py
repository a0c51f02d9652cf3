"""A run in the dashboard against the same run from the command line: python bench/dashboard_runs.py
[--quick] [--models etc classes ...] [--sessions 4] [--record]

For each model's default preset (quickstart, alazzoni-B, page-system-a, caniou-mu10, kim-loose-high-heavy), against
one fresh ``streamlit run app.py`` driven by Debian's headless chromium (Playwright):
- one session: the time from pressing Run on the Home page (the preset's own trials and seed) to the results' winner
  line (the verdict's first sentence, with the results' caption naming the run's seed) drawn on that page; against the
  wall time of ``hcsched run --preset NAME`` in a subprocess (imports included), measured in the same run of this
  script. ``--quick`` runs 3 trials instead: set on the Run page, Run pressed there, then the Results page opened
  at once (the clock stops at its winner line), and the command line with ``--trials 3``.
- ``--sessions`` browser sessions (4 by default) pressing Run at once, each with a seed of its own (identical runs
  would be computed once and shared by the dashboard's cache): on the Run page, then the Results page opened at once;
  each session's time from its Run to its winner line, the slowest against the single session's time and against
  that many times the command line's (1 would mean that the runs were served one after another at the command
  line's pace; the server shares its worker processes, one per core, between the runs).
Prints a table per part: model, preset, trials, CLI s, dashboard s, ratio. The load average is printed too, since
other work on the machine adds to every figure. The whole run takes several minutes (value's preset alone is about
a minute per run on 2 cores); ``--quick`` about a minute or two. ``--record`` (with ``--quick`` and every model: the
table's row) writes the single sessions' times into bench/speed.csv (bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))  # bench/speed.py, also when this file is imported from its path

from live import ScriptRuns, streamlit_server  # noqa: E402
from speed import record, span  # noqa: E402

from hcsched import preset  # noqa: E402
from hcsched.models import get_model, model_names  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
QUICK_TRIALS = 3
TIMEOUT_S = 900.0  # a run of the dashboard not drawn by then is reported as such

IDLE = """() => { const s = document.querySelector('[data-testid="stStatusWidget"]');
  return !(s && s.innerText.includes('Running')) && !document.querySelector('[data-stale="true"]'); }"""
# The results of the run with this seed are drawn: their caption ("NAME: 20 trials, seed 1, 0.3 s, ...") and the
# winner line above it (the verdict's first sentence, in the results view's container keyed "..._verdict").
DRAWN = """(seed) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const caption = [...main.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .some((c) => c.innerText.includes(`seed ${seed}, `));
  const verdict = main.querySelector('[class*="st-key-"][class*="_verdict"] [data-testid="stMarkdownContainer"]');
  return caption && verdict !== null && verdict.innerText.trim().length > 0; }"""


@contextmanager
def serve():
    """A fresh ``streamlit run app.py`` on a free port, its output in a temporary file (printed if it holds a
    traceback)."""
    with tempfile.NamedTemporaryFile("w+", prefix="hcsched-dashboard-runs-", suffix=".log", delete=False) as log:
        with streamlit_server(log) as (url, _):
            yield url
        log.seek(0)
        text = log.read()
    if "Traceback" in text:
        print(f"the server's log ({log.name}) holds a traceback:\n{text[-3000:]}")


def cli_seconds(name: str, trials: int | None) -> float:
    """Wall time of ``hcsched run --preset NAME [--trials N]`` in a subprocess."""
    command = [sys.executable, "-m", "hcsched", "run", "--preset", name] + ([] if trials is None
                                                                            else ["--trials", str(trials)])
    start = time.monotonic()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - start


# --- one browser session ------------------------------------------------------------------------------------------
async def idle(page) -> None:
    await page.wait_for_timeout(300)
    await page.wait_for_function(IDLE, timeout=60_000)
    await page.wait_for_timeout(300)


async def open_session(browser, url: str):
    context = await browser.new_context(viewport={"width": 1400, "height": 2000})
    page = await context.new_page()
    page.script_runs = ScriptRuns(page)
    await page.goto(url)
    await page.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
    await idle(page)
    return context, page


async def go_to(page, title: str) -> None:
    """Another page through the app's own navigation (a new URL would start a new session)."""
    await page.get_by_role("link", name=title, exact=True).first.click()
    await idle(page)


async def load_preset(page, name: str) -> None:
    await go_to(page, "Scenario")
    picker = page.get_by_label("Scenario loaded (pick a preset to load it)")
    if not (await picker.input_value()).startswith(name + ":"):
        await picker.click()
        await picker.fill(name)
        await page.get_by_role("option", name=f"{name}: ").first.click()
        await page.wait_for_function(f"() => (document.querySelector('input[aria-label^=\"Scenario loaded\"]') || {{}})"
                                     f".value?.startsWith({name + ':'!r})", timeout=30_000)
        await idle(page)


async def set_number(page, field, value: int) -> None:
    for _ in range(3):  # a field typed into during a rerun can be reset by it: again
        if await field.input_value() == str(value):
            return
        await field.fill(str(value))
        await field.press("Enter")
        await idle(page)
    raise RuntimeError(f"a number input shows {await field.input_value()}, not {value}")


async def prepare(page, name: str, trials: int | None, seed: int, where: str) -> None:
    """Load the preset; on the Run page ("run") set its trials and seed, or go to the Home page ("home")."""
    await load_preset(page, name)
    if where == "home":
        await go_to(page, "Home")
        return
    await go_to(page, "Run")
    await set_number(page, page.locator("[data-testid='stNumberInput'] input").first, trials)
    await set_number(page, page.get_by_label("Seed", exact=True), seed)


async def run_to_winner(page, seed: int, where: str) -> float:
    """Press Run (on the Home page, or on the Run page and then open the Results page at once); seconds until the
    results' winner line is drawn."""
    start, before = time.monotonic(), page.script_runs.finished
    await page.get_by_role("button", name="Run", exact=True).click()
    if where == "run":  # once the click's script run is over (leaving the page sooner could drop the click)
        while page.script_runs.finished == before:
            await page.wait_for_timeout(20)
        await page.get_by_role("link", name="Results", exact=True).first.click()
    await page.wait_for_function(DRAWN, arg=seed, timeout=TIMEOUT_S * 1000, polling=50)
    return time.monotonic() - start


async def single(browser, url: str, name: str, trials: int | None, where: str) -> float:
    context, page = await open_session(browser, url)
    try:
        await prepare(page, name, trials, preset(name).seed, where)
        return await run_to_winner(page, preset(name).seed, where)
    finally:
        await context.close()


async def together(browser, url: str, name: str, trials: int, sessions: int) -> list[float]:
    """``sessions`` sessions, each with its own seed, pressing Run at once; each one's seconds to its winner line."""
    opened = [await open_session(browser, url) for _ in range(sessions)]
    seeds = [preset(name).seed + 1 + i for i in range(sessions)]  # not the single session's: that run is cached
    try:
        for (_, page), seed in zip(opened, seeds, strict=True):
            await prepare(page, name, trials, seed, "run")
        return list(await asyncio.gather(*(run_to_winner(page, seed, "run")
                                           for (_, page), seed in zip(opened, seeds, strict=True))))
    finally:
        for context, _ in opened:
            await context.close()


async def measure(url: str, names: list[str], quick: bool, sessions: int) -> tuple[dict, dict]:
    from playwright.async_api import async_playwright

    alone, shared = {}, {}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name in names:
            trials = QUICK_TRIALS if quick else None
            alone[name] = await single(browser, url, name, trials, "run" if quick else "home")
            print(f"  {name}: one session {alone[name]:.1f} s", flush=True)
        for name in names:
            shared[name] = await together(browser, url, name, QUICK_TRIALS if quick else preset(name).trials, sessions)
            print(f"  {name}: {sessions} sessions " + ", ".join(f"{t:.1f}" for t in shared[name]) + " s", flush=True)
        await browser.close()
    return alone, shared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TRIALS} trials per run (about a minute or two)")
    parser.add_argument("--models", nargs="*", choices=model_names(), default=model_names(), help="default: all")
    parser.add_argument("--sessions", type=int, default=4, help="sessions pressing Run at once (default 4)")
    parser.add_argument("--record", action="store_true", help="write the single sessions' times into bench/speed.csv")
    args = parser.parse_args()
    if args.record and (not args.quick or args.models != model_names()):
        parser.error("--record measures the table's row: --quick, every model")
    names = [get_model(m).default_preset for m in args.models]
    trials = {name: QUICK_TRIALS if args.quick else preset(name).trials for name in names}
    print(f"load average {os.getloadavg()[0]:.2f}, {len(os.sched_getaffinity(0))} cores; "
          f"{'--quick: ' + str(QUICK_TRIALS) + ' trials' if args.quick else 'each preset with its own trials'}",
          flush=True)
    cli = {}
    for name in names:
        cli[name] = cli_seconds(name, QUICK_TRIALS if args.quick else None)
        print(f"  {name}: command line {cli[name]:.1f} s", flush=True)
    with serve() as url:
        alone, shared = asyncio.run(measure(url, names, args.quick, args.sessions))
    where = "Run page, then Results" if args.quick else "Home page"
    print(f"\nOne session ({where}): from pressing Run to the winner line drawn, against `hcsched run` (wall time)")
    print(f"{'model':11s} {'preset':22s} {'trials':>6s} {'CLI s':>7s} {'dashboard s':>12s} {'ratio':>6s}")
    for model, name in zip(args.models, names, strict=True):
        print(f"{model:11s} {name:22s} {trials[name]:6d} {cli[name]:7.1f} {alone[name]:12.1f} "
              f"{alone[name] / cli[name]:6.2f}")
    n = args.sessions
    print(f"\n{n} sessions pressing Run at once (Run page, then Results; a seed each): each session's seconds; the "
          f"slowest against the single session and against {n} x the command line")
    print(f"{'model':11s} {'preset':22s} {'trials':>6s} {'CLI s':>7s} {'sessions s':>{6 * n + 2}s} {'slowest':>8s} "
          f"{'/ single':>8s} {f'/ {n}x CLI':>9s}")
    for model, name in zip(args.models, names, strict=True):
        times, slowest = shared[name], max(shared[name])
        print(f"{model:11s} {name:22s} {trials[name]:6d} {cli[name]:7.1f} "
              f"{' '.join(f'{t:5.1f}' for t in times):>{6 * n + 2}s} "
              f"{slowest:8.1f} {slowest / alone[name]:8.2f} {slowest / (n * cli[name]):9.2f}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    if args.record:
        record("dashboard-runs",
               what=f"A run in the dashboard against the command line, {QUICK_TRIALS} trials, one session "
                    "(`bench/dashboard_runs.py --quick`)",
               time="Run to winner line: " + ", ".join(f"{name} {alone[name]:.1f} s" for name in names),
               reference=f"`hcsched run --trials {QUICK_TRIALS}`: " + " / ".join(f"{cli[name]:.1f}" for name in names)
               + " s (its process start included)",
               ratio=span([alone[name] / cli[name] for name in names], digits=1))


if __name__ == "__main__":
    main()
