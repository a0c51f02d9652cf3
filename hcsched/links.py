"""Links that carry a scenario: the query parameters of a dashboard address, and back.

Two forms. A preset, or an edit of one (named as the preset or "NAME (edited)"), reads as the preset's name and
what differs from it, keyed as in the scenario file with dots for nested tables::

    ?preset=quickstart&machines=12&arrivals.rate=0.002&heuristics=["mct","min-min"]&seed=7

Values are compact JSON, a string without quotes when it cannot be read as anything else (``etc.consistency=
semiconsistent``); an empty value unsets a setting the preset has. Any other scenario, or a readable form longer than
``MAX_READABLE`` characters, is the whole scenario file compressed: ``?scenario=`` zlib, then URL-safe base64
without padding. ``run=1`` asks to run the scenario on opening.

Decoding is exact: the scenario read back is the same scenario file (``to_json``), name and description included.
A link never reads files on the server: a setting that names one (``etc.path``) is refused.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from hcsched.compare import flat_settings
from hcsched.errors import HcschedError, did_you_mean
from hcsched.presets import EDITED, preset, preset_names, preset_of
from hcsched.registry import get_model
from hcsched.scenario import Scenario
from hcsched.userfiles import refuse_files

RUN = "run"  # run=1: run the scenario on opening
PRESET = "preset"
SCENARIO = "scenario"
NAME, DESCRIPTION = "name", "description"
RUN_SETTINGS = ("heuristics", "benchmark", "trials", "seed")
MAX_READABLE = 1500  # characters of a readable query string; longer, the scenario is compressed
MAX_JSON = 4_000_000  # bytes a compressed scenario may expand to
SHOWN = 60  # characters of a bad value that a message quotes

Describe = Callable[[Scenario, Scenario], str]  # (the preset, its edit) -> the edit's description


# --- values ------------------------------------------------------------------------------------------------------

def _encode(value: Any) -> str:
    """Compact JSON; a string bare when it cannot be read back as anything else."""
    if isinstance(value, str) and value and value[0] not in '[{"' and _not_json(value):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def _decode(key: str, text: str) -> Any:
    """A parameter's value: JSON, or the text itself when it is no JSON and does not look like JSON."""
    try:
        return json.loads(text)
    except ValueError as exc:
        if text and text[0] not in '[{"':
            return text
        raise _bad(key, text, f"JSON ({exc.args[0].split(':')[0]}), or a word without quotes") from None


def _short(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _bad(key: str, value: str, allowed: str) -> HcschedError:
    return HcschedError(f"link parameter {key!r}: {_short(value)!r} is not allowed; allowed: {allowed}")


# --- the readable form --------------------------------------------------------------------------------------------

def _spec(scenario: Scenario) -> dict[str, Any]:
    return flat_settings(get_model(scenario.model).spec_to_dict(scenario.spec))


def _auto_names(base: Scenario, scenario: Scenario, describe: Describe | None) -> tuple[str, str]:
    """The name and description the dashboard gives ``scenario`` made from the preset ``base``: the preset's own when
    only trials and seed differ, else "NAME (edited)" and the edit's description."""
    original = base.replace(trials=scenario.trials, seed=scenario.seed)
    if scenario.replace(name=base.name, description=base.description) == original:
        return base.name, base.description
    described = describe(original, scenario) if describe else f"Edited from {base.name}."
    return base.name + EDITED, described


def _readable(scenario: Scenario, base: Scenario, describe: Describe | None, unset: bool) -> dict[str, str]:
    """``preset=NAME`` and what differs from the preset; with ``unset``, the preset's settings the scenario leaves
    out too (most need not be: a scenario file leaves out what its other settings make irrelevant)."""
    query = {PRESET: base.name}
    old, new = _spec(base), _spec(scenario)
    query.update({key: _encode(value) for key, value in new.items()
                  if key not in old or _encode(old[key]) != _encode(value)})
    if unset:
        query.update({key: "" for key in old if key not in new and not any(p in new for p in _prefixes(key))})
    a, b = base.to_dict(), scenario.to_dict()
    query.update({key: _encode(b.get(key)) for key in RUN_SETTINGS if _encode(a.get(key)) != _encode(b.get(key))})
    name, description = _auto_names(base, scenario, describe)
    query.update({key: value for key, value, auto in ((NAME, scenario.name, name),
                                                       (DESCRIPTION, scenario.description, description))
                  if value != auto})
    return query


def _prefixes(key: str) -> list[str]:
    """"a.b.c" -> ["a", "a.b"]."""
    parts = key.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _apply(data: dict[str, Any], key: str, value: Any, unset: bool) -> None:
    """Set (or unset) the dotted ``key`` of a scenario file's table."""
    *path, last = key.split(".")
    node = data
    for part in path:
        if not isinstance(node.get(part), dict):
            if unset:
                raise _bad(key, "", "a key the preset sets (an empty value unsets it)")
            node[part] = {}
        node = node[part]
    if unset:
        if last not in node:
            raise _bad(key, "", "a key the preset sets (an empty value unsets it)")
        del node[last]
    else:
        node[last] = value


def _from_readable(params: dict[str, str], describe: Describe | None) -> Scenario:
    name = params.pop(PRESET)
    if name not in preset_names():
        raise _bad(PRESET, name, f"{did_you_mean(name, preset_names())}a preset's name (hcsched preset list)")
    base = preset(name)
    names = {key: params.pop(key) for key in (NAME, DESCRIPTION) if key in params}
    data = base.to_dict()
    spec_keys = get_model(base.model).spec_keys
    for key in sorted(params, key=lambda k: params[k] != ""):  # unset first, then set
        if key not in RUN_SETTINGS and key.split(".")[0] not in spec_keys:
            keys = [PRESET, RUN, NAME, DESCRIPTION, *RUN_SETTINGS, *_spec(base)]
            raise HcschedError(f"link parameter {key!r}: unknown; {did_you_mean(key, keys)}allowed: {', '.join(keys)}")
        unset = params[key] == ""
        _apply(data, key, None if unset else _decode(key, params[key]), unset)
    _refuse_files(data)
    scenario = _validated(lambda: Scenario.from_dict(data))
    auto_name, auto_description = _auto_names(base, scenario, describe)
    return _validated(lambda: scenario.replace(name=names.get(NAME, auto_name),
                                               description=names.get(DESCRIPTION, auto_description)))


def _validated(make: Callable[[], Scenario]) -> Scenario:
    """A scenario the link describes, or the validation's message said as the link's."""
    try:
        return make()
    except HcschedError as exc:
        raise HcschedError(f"link: {exc}") from None


# --- the compressed form -------------------------------------------------------------------------------------------

def _pack(scenario: Scenario) -> str:
    return _pack_dict(scenario.to_dict())


def _pack_dict(data: dict[str, Any]) -> str:
    """A scenario file's table as ``scenario=`` carries it."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


TOO_LARGE = f"this one is over {MAX_JSON / 1e6:.0f} MB once unpacked, or cut short"


def _unpack(value: str) -> Scenario:
    allowed = "the scenario= of a link the dashboard made (zlib-compressed JSON in URL-safe base64)"
    try:
        packed = base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_", validate=True)
        inflate = zlib.decompressobj()
        text = inflate.decompress(packed, MAX_JSON)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError(TOO_LARGE)
        data = json.loads(text.decode())
    except (binascii.Error, zlib.error, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError included
        why = TOO_LARGE if str(exc) == TOO_LARGE else "this one does not read back (cut short or changed when copied?)"
        raise _bad(SCENARIO, value, f"{allowed}; {why}") from None
    _refuse_files(data)
    return _validated(lambda: Scenario.from_dict(data))


def _refuse_files(data: Any) -> None:
    """A link never makes the server read a file (:func:`hcsched.userfiles.refuse_files`)."""
    refuse_files(data, "link parameter", "a link")


# --- the API ------------------------------------------------------------------------------------------------------

def scenario_query(scenario: Scenario, describe: Describe | None = None) -> dict[str, str]:
    """The query parameters of a link to ``scenario``: readable when it is a preset or an edit of one that reads back
    the same, else compressed. ``describe(preset, edit)`` is the description the dashboard gives an edited preset (its
    link then leaves the description out); without it, an edit's link carries its description.

    Raises HcschedError when the scenario reads files on the server (a link cannot carry it)."""
    _refuse_files(scenario.to_dict())
    base = preset_of(scenario)
    if base is not None and base.model == scenario.model:
        for unset in (False, True):
            query = _readable(scenario, base, describe, unset)
            if len(urlencode(query)) <= MAX_READABLE and _reads_back(query, scenario, describe):
                return query
    return {SCENARIO: _pack(scenario)}


def _reads_back(query: dict[str, str], scenario: Scenario, describe: Describe | None) -> bool:
    try:
        return scenario_from_query(query, describe).to_json() == scenario.to_json()
    except HcschedError:
        return False


def scenario_from_query(params: Mapping[str, str], describe: Describe | None = None) -> Scenario | None:
    """The scenario a link's query parameters carry (``describe`` as for :func:`scenario_query`); None when they carry
    none (neither ``preset`` nor ``scenario``, nor any setting). Raises HcschedError, naming the parameter, its value
    and what is allowed, for anything a link cannot mean."""
    params = {str(k): str(v) for k, v in params.items() if k != RUN}
    if SCENARIO in params:
        other = next((k for k in params if k != SCENARIO), None)
        if other is not None:
            raise _bad(other, params[other], f"nothing beside {SCENARIO}= (the whole scenario) but {RUN}=")
        return _unpack(params[SCENARIO])
    if PRESET in params:
        return _from_readable(params, describe)
    if any(k != RUN for k in params):
        key = next(k for k in params if k != RUN)
        raise HcschedError(f"link parameter {key!r}: a setting needs {PRESET}=NAME beside it, the preset it changes "
                           f"(e.g. ?{PRESET}=quickstart&{key}={_short(params[key])}), or the whole {SCENARIO}=")
    return None


def wants_run(params: Mapping[str, str]) -> bool:
    """Whether a link asks to run its scenario on opening (``run=1``; ``run=0`` or none: not)."""
    value = str(params.get(RUN, "0"))
    if value not in ("0", "1"):
        raise _bad(RUN, value, "1 (run the scenario on opening) or 0")
    return value == "1"
