"""MkDocs hooks: the command-line reference is generated at build time from hcsched's own parser, so it cannot drift
from the code (a page writes ``<!-- cli-reference -->`` where the reference goes), and a build fails on a reST role
(":func:`x`") left as text in a page (docs/roles.py renders the docstrings' roles as links)."""

from __future__ import annotations

import argparse
import os
import re

MARKER = "<!-- cli-reference -->"


def cli_reference() -> str:
    """Every subcommand's ``--help``, as this version prints it, a section each."""
    from hcsched.cli import build_parser

    os.environ.setdefault("COLUMNS", "100")
    parser = build_parser()
    out = ["```text", parser.format_help().rstrip(), "```"]
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in actions[0].choices.items() if actions else ():
        out += ["", f"### hcsched {name}", "", "```text", sub.format_help().rstrip(), "```"]
    return "\n".join(out)


def on_page_markdown(markdown: str, **kwargs) -> str:
    return markdown.replace(MARKER, cli_reference()) if MARKER in markdown else markdown


IMAGES = ("assets/screenshots/results.png", "assets/scaling.png")  # kept beside the code that makes them


def on_files(files, config, **kwargs):
    """The pictures the pages show live in assets/ (a test and a bench script write them): served from there."""
    from mkdocs.structure.files import File

    root = os.path.dirname(config["docs_dir"])
    for path in IMAGES:
        files.append(File(path, root, config["site_dir"], config["use_directory_urls"]))
    return files


ROLES = "func|mod|class|meth|data|attr|obj|exc|const"
RAW_ROLE = re.compile(rf"(?<![\w`]):(?:py:)?(?:{ROLES}):(?:<code>.*?</code>|`[^`]*`)")
_SHOWN = re.compile(r"<pre\b.*?</pre>|(?<!:)<code>.*?</code>", re.S)  # code blocks and spans: a role shown on purpose


def raw_roles(html: str) -> list[str]:
    """The reST roles (":func:`x`") left as text in a page's HTML: what a docstring's role becomes unrendered."""
    return RAW_ROLE.findall(_SHOWN.sub("", html))


def on_post_page(output: str, page, **kwargs) -> str:
    """Fails the build on a reST role left as text in a page (docs/roles.py renders the docstrings' as links)."""
    from mkdocs.exceptions import PluginError

    if found := raw_roles(output):
        raise PluginError(f"{page.file.src_uri}: {len(found)} reST role(s) rendered as text: {', '.join(found[:20])}")
    return output
