"""The README and the documentation site stay true: the README is short, its links and commands exist, and the
examples and scenarios the pages show run. (`mkdocs build --strict` itself runs in CI, `.ci/run`.)"""

import re
import shlex
from pathlib import Path

import pytest

from hcsched.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PAGES = sorted((ROOT / "docs").rglob("*.md"))


def test_the_readme_is_read_in_three_minutes():
    assert len(README.splitlines()) <= 150


@pytest.mark.parametrize("link", sorted(set(re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README))))
def test_every_readme_link_exists(link):
    assert link.startswith("http") or (ROOT / link).exists(), link


def test_every_documentation_page_is_in_the_site():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES:
        assert str(page.relative_to(ROOT / "docs")) in nav, f"{page} is not in mkdocs.yml's nav"


def _commands() -> list[list[str]]:
    block = re.search(r"## The command line\n.*?```bash\n(.*?)```", README, re.S).group(1)
    return [shlex.split(line.split("#")[0].split(">")[0])[1:] for line in block.splitlines()
            if line.startswith("hcsched ")]


@pytest.mark.parametrize("argv", _commands(), ids=lambda a: " ".join(a[:2]))
def test_every_readme_command_exists(argv, capsys):
    """Each command of the README's example, with --help (every option it uses is one the command has)."""
    command = argv[:2] if argv[0] == "preset" else argv[:1]
    with pytest.raises(SystemExit) as end:
        main([*command, "--help"])
    assert end.value.code == 0
    text = capsys.readouterr().out
    for option in (a for a in argv if a.startswith("--")):
        assert option in text, (argv, option)


def test_the_python_examples_run():
    blocks = [b for page in (ROOT / "README.md", ROOT / "docs" / "api.md")
              for b in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)]
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "example", "exec"), {})


def test_the_scenarios_the_pages_show_load():
    """Every JSON scenario in the documentation is valid (relative paths are read from assets/examples, as the
    command-line page says)."""
    from hcsched.scenario import parse_scenario

    blocks = [b for page in PAGES for b in re.findall(r"```json\n(.*?)```", page.read_text(), re.S)
              if '"heuristics"' in b]
    assert len(blocks) >= 4
    for block in blocks:
        parse_scenario(block, source="docs", base_dir=ROOT / "assets" / "examples")


def _docs_module(name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"docs_{name}", ROOT / "docs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_role_left_as_text_is_found():
    """docs/hooks.py fails the build on a reST role a page shows as text (what an unrendered docstring role becomes),
    not on one a page shows as code on purpose."""
    raw_roles = _docs_module("hooks").raw_roles
    assert raw_roles("<p>See :func:<code>mean_ci</code> and :mod:`hcsched.stats`.</p>") == [
        ":func:<code>mean_ci</code>", ":mod:`hcsched.stats`"]
    assert raw_roles('<p>Write <code>:func:`x`</code>.</p><pre><code>:class:`Y`</code></pre>') == []
    assert raw_roles('<a class="autorefs" href="#hcsched.stats.mean_ci"><code>mean_ci</code></a>') == []


def test_the_docstrings_roles_become_cross_references():
    """docs/roles.py: each role's target resolved where its docstring is (a full path, a relative one, a name the
    module defines or imports), shown as code where the site has no page for it."""
    griffe = pytest.importorskip("griffe")
    roles = _docs_module("roles")
    loader = griffe.GriffeLoader()
    package = loader.load("hcsched", try_relative_path=False)
    found = {}
    for text, where in ((":func:`hcsched.stats.mean_ci`", "hcsched.verdict"), (":func:`mean_ci`", "hcsched.verdict"),
                        (":class:`~hcsched.errors.HcschedError`", "hcsched.stats"),
                        (":func:`.stats.summarize`", "hcsched.verdict"), (":mod:`subprocess`", "hcsched.pool")):
        obj = package if where == "hcsched" else loader.modules_collection[where]
        found[text] = roles.crossref(roles.ROLE.search(text), obj, loader.modules_collection)
    assert found[":func:`hcsched.stats.mean_ci`"] == \
        '<autoref identifier="hcsched.stats.mean_ci" optional><code>hcsched.stats.mean_ci</code></autoref>'
    assert 'identifier="hcsched.stats.mean_ci"' in found[":func:`mean_ci`"]  # imported by the module
    assert found[":class:`~hcsched.errors.HcschedError`"].endswith("><code>HcschedError</code></autoref>")
    assert 'identifier="hcsched.stats.summarize"' in found[":func:`.stats.summarize`"]
    assert 'identifier="subprocess" optional' in found[":mod:`subprocess`"]  # not hcsched's: code, no link


def test_the_toy_model_of_adding_a_model_runs():
    """docs/adding-a-model.md's blocks, run in order as one module: the toy model registers, runs, and its built-in and
    a user's heuristic pass the battery (then it is removed again)."""
    from hcsched.heuristics import PLUGINS
    from hcsched.registry import MODELS

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "adding-a-model.md").read_text(), re.S)
    assert len(blocks) >= 4
    try:
        namespace: dict = {}
        exec(compile("\n".join(blocks), "adding-a-model.md", "exec"), namespace)
        assert "toy" in MODELS and ("toy", "last-machine") in PLUGINS
    finally:
        MODELS.pop("toy", None)
        PLUGINS.pop(("toy", "last-machine"), None)
