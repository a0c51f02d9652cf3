"""The claims' notes, as the Papers page and the report show them: they cite the docs' pages (a page's path and a
section's title, which a reader finds), never the README, a test file or a source file."""

import re

import pytest
from helpers import ROOT

from hcsched.reproduce import registry

FORBIDDEN = re.compile(r"README|tests/|\.py\b", re.IGNORECASE)
CITED = re.compile(r"(docs/[\w/.-]+\.md)(?:, '([^']+)')?")  # "docs/models/etc.md, 'How the model is read'"


def notes() -> list[tuple[str, str]]:
    """(claim id and reading, note) of every claim of every model, each reading's own note too."""
    return [(f"{c.id} ({name})", c.note_of(name)) for c in registry() for name, _, _ in c.variants()]


def test_every_model_has_claims_with_notes():
    models = {c.model for c in registry()}
    assert {"etc", "classes", "estimation", "timeshared", "value"} <= models
    assert sum(bool(note) for _, note in notes()) > 100


@pytest.mark.parametrize("word", ["README", "tests/test_x.py", "bench/value.py", "see the readme"])
def test_the_rule_catches_what_it_forbids(word):
    assert FORBIDDEN.search(f"as the note says ({word})")


def test_no_note_cites_the_readme_a_test_or_a_source_file():
    bad = [(where, FORBIDDEN.search(note).group(0)) for where, note in notes() if FORBIDDEN.search(note)]
    assert not bad, bad[:5]


def test_every_docs_page_and_section_a_note_cites_exists():
    """A cited page is a file of docs/; a cited section is a heading of that page (its title, or how it begins)."""
    cited = {(page, section) for _, note in notes() for page, section in CITED.findall(note)}
    assert len({page for page, _ in cited}) >= 5  # each model's page at least
    for page, section in sorted(cited):
        path = ROOT / page
        assert path.is_file(), page
        if section:
            headings = [line.lstrip("#").strip() for line in path.read_text().splitlines() if line.startswith("#")]
            assert any(h.startswith(section) for h in headings), (page, section)
