"""A heuristic is one object: no engine, estimate, Explain, preset or page code branches on a heuristic's name or
kind (the pattern of the model-name test). Everything particular to a heuristic lives on it, in its model's
``heuristics.py`` (or a ``rules`` module beside it); presets and claims name heuristics as data."""

import ast
from pathlib import Path

import hcsched
from hcsched.heuristics import registry

ROOT = Path(__file__).resolve().parents[1]
OWN_FILES = {"heuristics.py", "claims.py", "presets.py"}  # the objects themselves, and data naming them
NAMES = {h.name for h in registry() if not h.plugin}


def _scanned() -> list[Path]:
    files = [*ROOT.glob("hcsched/**/*.py"), *ROOT.glob("pages/**/*.py"), ROOT / "app.py"]
    return [f for f in files if f.name not in OWN_FILES and "rules" not in f.parts and "heuristics" not in f.parts
            and f.name != "testing.py"]


def _text(node: ast.AST) -> str:
    return ast.unparse(node)


def _heuristic_like(node: ast.AST) -> bool:
    """An expression that is a heuristic (h, heuristic, hs, spec.heuristic, self.heuristic ...)."""
    text = _text(node)
    last = text.rsplit(".", 1)[-1]
    return last in ("h", "hs", "heuristic", "hspec") or last.endswith("heuristic")


def _names_in(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)} & NAMES
    return set()


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    out = []
    where = lambda n: f"{path.relative_to(ROOT)}:{n.lineno}: {_text(n)[:90]}"  # noqa: E731
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            literal = set().union(*(_names_in(s) for s in sides))
            other = [s for s in sides if not _names_in(s)]
            if literal and other and not all(isinstance(s, ast.Constant) for s in other):
                out.append(f"{where(node)}  (compares with the heuristic name(s) {sorted(literal)})")
            if any(isinstance(s, ast.Attribute) and s.attr in ("name", "kind") and _heuristic_like(s.value)
                   for s in sides):
                out.append(f"{where(node)}  (branches on a heuristic's name or kind)")
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):  # a lookup (a table of results may
            key = node.slice                                                      # have a column per heuristic)
            if isinstance(key, ast.Attribute) and key.attr in ("name", "kind") and _heuristic_like(key.value):
                out.append(f"{where(node)}  (a table keyed by a heuristic's name or kind)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            key = node.args[0] if node.args else None
            if isinstance(key, ast.Attribute) and key.attr in ("name", "kind") and _heuristic_like(key.value):
                out.append(f"{where(node)}  (a table keyed by a heuristic's name or kind)")
        elif isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            if len(set(keys) & NAMES) >= 2:
                out.append(f"{where(node)}  (a table keyed by heuristic names)")
    return out


def test_no_code_branches_on_a_heuristic_name_outside_its_object():
    problems = [p for f in _scanned() for p in _problems(f)]
    assert not problems, ("code outside the heuristics' own objects branches on their names or kinds; move what is "
                          "particular to a heuristic onto it:\n" + "\n".join(problems))


def test_the_scan_catches_the_patterns_it_forbids(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('if h.name == "kpb":\n    pass\nx = _REMAP[h.name]\ny = {"min-min": 1, "max-min": 2}\n'
                   'if name in ("mct", "met"):\n    pass\nif spec.heuristic.kind == 3:\n    pass\n'
                   'z = W.get(heuristic.name, 1.0)\n')
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        found = _problems(bad)
    finally:
        ROOT = old
    assert len(found) == 7, found


def test_registering_a_plugin_changes_no_preset():
    import dataclasses

    from hcsched.heuristics import register_heuristic, unregister_heuristic

    before = {name: hcsched.preset(name).to_dict() for name in hcsched.preset_names()}
    added = []
    for model in hcsched.model_names():
        first = hcsched.get_heuristic(hcsched.heuristic_names(model=model)[0], model)
        added.append(register_heuristic(dataclasses.replace(first, name="zz-plugin", models=(model,),
                                                            origin="plug-in (test)")))
    try:
        after = {name: hcsched.preset(name).to_dict() for name in hcsched.preset_names()}
    finally:
        for h in added:
            unregister_heuristic(h.name, h.models[0])
    assert after == before


def test_presets_name_their_heuristics():
    """A preset lists its heuristics itself: a heuristic added to a model (built-in or plug-in) joins no paper's
    experiment (a preset that took every registered name grew when one was added)."""
    registry_names = {"NAMES", "DYNAMIC_NAMES", "HEURISTICS", "DYNAMIC", "STATIC", "heuristic_names", "registry"}
    found = []
    for path in ROOT.glob("hcsched/models/*/presets.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.Name, ast.alias)):
                name = node.id if isinstance(node, ast.Name) else node.name
                if name in registry_names:
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}: {name}")
    assert not found, "presets take their heuristics from the registry:\n" + "\n".join(found)
