"""Each shape of data that crosses the device's boundary to the web is written once.

A TypedDict written on both sides of a boundary (the store's report beside the web's protocol) drifts: a key
added to one copy is missing from the other, and mypy holds them together only where one is passed as the other.
The shapes both sides use live in ``shapes``, which imports neither side; this reads every TypedDict of the
project's packages and finds any two with the same name or the same keys.
"""

from __future__ import annotations

import ast
from collections import defaultdict

from source_modules import modules


def _keys(c: ast.ClassDef, own: dict[str, ast.ClassDef], seen: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """A TypedDict's keys, its own and those of the TypedDicts of its module it extends; None: not a TypedDict."""
    if c.name in seen:
        return seen[c.name]
    names = [b.id for b in c.bases if isinstance(b, ast.Name)]
    if not names or len(names) != len(c.bases) or not all(n == "TypedDict" or n in own for n in names):
        return None
    inherited: set[str] = set()
    for name in names:
        if name != "TypedDict":
            got = _keys(own[name], own, seen)
            if got is None:
                return None
            inherited |= got
    seen[c.name] = frozenset(inherited | {s.target.id for s in c.body
                                          if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)})
    return seen[c.name]


def _typed_dicts() -> dict[str, list[tuple[str, frozenset[str]]]]:
    """Each TypedDict of the project's packages by name: the modules that write it, with its keys."""
    found: dict[str, list[tuple[str, frozenset[str]]]] = defaultdict(list)
    for module, path in modules().items():
        classes = [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(node, ast.ClassDef)]
        own = {c.name: c for c in classes}
        seen: dict[str, frozenset[str]] = {}
        for c in classes:
            if (got := _keys(c, own, seen)) is not None:
                found[c.name].append((module, got))
    return found


def test_the_walk_finds_the_typed_dicts() -> None:
    found = _typed_dicts()
    assert [module for module, _ in found["Refusal"]] == ["webui.protocol"]
    assert {"ok", "code", "message", "owed"} == found["Refusal"][0][1]
    assert {"ok", "code", "message", "owed", "preview"} == found["Changed"][0][1]  # with the keys it extends


def test_no_typed_dict_is_written_twice() -> None:
    found = _typed_dicts()
    by_name = {name: sorted(m for m, _ in places) for name, places in found.items() if len(places) > 1}
    by_keys: dict[frozenset[str], list[str]] = defaultdict(list)
    for name, places in found.items():
        for module, keys in places:
            if len(keys) >= 3:  # two keys alike (``ok`` and one more) are answers, not a copy
                by_keys[keys].append(f"{module}.{name}")
    assert by_name == {}
    assert {k: v for k, v in by_keys.items() if len(v) > 1} == {}
