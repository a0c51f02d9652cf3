"""A Griffe extension (mkdocs.yml's ``extensions``): the docstrings' reST roles (":func:`schedule_table`",
":mod:`hcsched.models`", ":class:`~hcsched.errors.HcschedError`") rendered as links to the objects on the site.

The code's docstrings name other objects the Sphinx way, which mkdocstrings' numpy style does not read: each role
becomes an optional cross-reference (mkdocs-autorefs'), its target resolved the way Python reads the name where the
docstring is: a dotted path from the package ("hcsched.stats.mean_ci"), a path relative to the docstring's package
(".bounds.lp_bound"), or a name its object, class or module defines or imports ("schedule_table"). A target the site
documents is a link; any other (not rendered, or outside hcsched: ":mod:`subprocess`") is shown as code, never as the
raw role (docs/hooks.py fails the build on one left in a page).
"""

from __future__ import annotations

import html
import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|mod|class|meth|data|attr|obj|exc|const):`([^`]+)`")


def _canonical(found: griffe.Object | griffe.Alias) -> str:
    """Where an object is defined (an import's target), else its own path."""
    try:
        return found.final_target.path if found.is_alias else found.path
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return found.target_path if found.is_alias else found.path


def _lookup(collection: griffe.ModulesCollection, path: str) -> griffe.Object | griffe.Alias | None:
    try:
        return collection[path]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def resolve(name: str, where: griffe.Object, collection: griffe.ModulesCollection) -> str | None:
    """The path of the object that ``name`` means in ``where``'s docstring, or None when it is not in the loaded
    packages."""
    if name.startswith("."):  # relative to the docstring's module's package, then further out
        scope = where if where.is_module else where.module
        scope = scope if scope.is_package else scope.parent
        while scope is not None:
            if (found := _lookup(collection, scope.path + name)) is not None:
                return _canonical(found)
            scope = scope.parent
        return None
    if (found := _lookup(collection, name)) is not None:  # a full path
        return _canonical(found)
    head, _, rest = name.partition(".")
    scope = where
    while scope is not None:  # the object itself, its class, its module, the packages around it
        if head in scope.members:
            path = _canonical(scope.members[head]) + (f".{rest}" if rest else "")
            found = _lookup(collection, path)
            return _canonical(found) if found is not None else None
        scope = scope.parent
    return None


def crossref(match: re.Match, where: griffe.Object, collection: griffe.ModulesCollection) -> str:
    """An optional autorefs cross-reference in place of a role: a link where the site documents the target."""
    target = match[1].strip()
    short = target.startswith("~")
    target = target.lstrip("~").removesuffix("()")
    shown = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
    identifier = resolve(target, where, collection) or target.lstrip(".")
    return f'<autoref identifier="{html.escape(identifier)}" optional><code>{html.escape(shown)}</code></autoref>'


def _objects(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring's reST roles once its package is loaded (every name can then be looked up)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None and ROLE.search(obj.docstring.value):
                obj.docstring.value = ROLE.sub(lambda m, where=obj: crossref(m, where, loader.modules_collection),
                                               obj.docstring.value)
