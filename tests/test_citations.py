"""The code cites the papers, never its own history: no tracker numbers, no machine paths, no private working notes.

Every ``.py`` file under ``hcsched/``, ``pages/``, ``tests/`` and ``bench/`` is read line by line (docstrings,
comments and strings alike). A docstring cites the paper's section and, for a reading of an ambiguous passage, the
model's page under ``docs/models/``; the working notes that helped write the code are not part of the product.
The patterns below are assembled from pieces so that this file does not match itself; it is skipped all the same.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("hcsched", "pages", "tests", "bench")
SKIP_DIRS = {"__pycache__", ".venv", ".git", ".pytest_cache", ".hypothesis"}

_ISSUE = "iss" + "ue"
_NOTES = "no" + "tes"
_R = "R"  # a reading tag of the notes: R and a number

#: (what is wrong, pattern). Case-insensitive where the name says so.
PATTERNS: tuple[tuple[str, re.Pattern], ...] = (
    ("an issue number", re.compile(rf"\b{_ISSUE}s?\s+(?:item\s+)?#?[0-9]+", re.I)),
    ("an absolute machine path", re.compile(r"/" + r"work/|/" + r"home/")),
    # /tmp/ as scratch output is fine; a /tmp/ path naming source code (a .py file, the package) is not.
    ("a source file under /tmp", re.compile(r"/" + r"tmp/[^\s'\"]*(?:\.py\b|hcsched)")),
    ("a Windows drive path", re.compile(r"(?<![\w\\])[A-Z]:" + r"\\")),
    ("a notes file", re.compile(r"seed00[0-9]-" + _NOTES + r"|shared/" + r"reference", re.I)),
    ("a notes reading", re.compile(rf"\b{_NOTES}'?,?\s+{_R}[0-9]")),
    ("a notes section", re.compile(rf"\b{_NOTES},?\s+(?:section\s+|§\s*)?[0-9]+(?:\.[0-9]+)?\b", re.I)),
    ("a notes citation", re.compile(rf"\bthe {_NOTES}'|(?<!\w)\({_NOTES}[,)]|\breading {_NOTES}\b", re.I)),
    ("a reading tag", re.compile(rf"(?<![\w.\-]){_R}[0-9]{{1,2}}(?![\w.\-])")),
)


def _files() -> list[Path]:
    here = Path(__file__).resolve()
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.resolve() != here and not SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                found.append(path)
    return found


def offences(text: str) -> list[tuple[int, str, str]]:
    """(line number, what is wrong, the text matched) for every line of ``text`` that breaks a rule."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for what, pattern in PATTERNS:
            for match in pattern.finditer(line):
                found.append((number, what, match.group(0)))
    return found


def test_the_patterns_catch_what_they_should():
    bad = [f"see {_ISSUE} 21", f"{_ISSUE.capitalize()}s 3 and 4", "/" + "work/main/x.py", "/" + "home/me",
           "/" + "tmp/copy/hcsched/cli.py", "C:" + "\\Users", f"seed004-{_NOTES}.md", f"{_NOTES} {_R}1",
           f"({_NOTES}, {_R}2)", f"{_NOTES} 1.3", f"({_R}1)", f"{_R}1/{_R}2", f"the {_NOTES}' example",
           f"({_NOTES}, section 2)"]
    for text in bad:
        assert offences(text), text
    good = ["the task-end notices", "claim notes are data", "tmp_path / 'out.csv'", "Path('/" + "tmp/value_repro')",
            "Caniou and Jeannot, section 4.2", "docs/models/timeshared.md", "R_squared", "SR1", "issued", "x.R2",
            "assert len(notes) == 1", "for note in notes"]
    for text in good:
        assert not offences(text), (text, offences(text))


def test_the_code_cites_papers_not_its_history():
    problems = []
    for path in _files():
        rel = path.relative_to(ROOT)
        for number, what, matched in offences(path.read_text(encoding="utf-8", errors="replace")):
            problems.append(f"{rel}:{number}: {what}: {matched!r}")
    assert not problems, f"{len(problems)} references to the project's history:\n" + "\n".join(problems)
