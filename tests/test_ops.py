"""Every op of the rules' table has what a booking needs, and each missing piece is named in one failure.

A booking is its command, its move with what the rules know of the op declared on it (``@books(…)`` in
``rules/moves/``, collected into ``rules.ops``), its texts and its place on the device (``device/scenes/places.py``);
the rest is read off those two tables. This test walks them once and lists, per op,
what is missing, so that adding an op is told everything still to write in one run, not one table at a time.
"""

from __future__ import annotations

import re
from pathlib import Path

from device.scenes.flows import FLOWS
from device.scenes.places import FORMS, GROUPS, PLACES, menu
from rules import OPS, RuleError, parse
from rules import commands as cmds
from rules.ops import BY_NAME, DEBTS, HANDLERS, LEGAL_ROWS, REGISTRY
from rules.phrase import phrase

ROOT = Path(__file__).resolve().parent.parent
BANKER_OWN = {"new_game": "the banker's new game (C held)", "end": "the banker's menu (Spiel beenden)"}
"""The ops a player never books: the banker's own screens start them."""


def _keys(catalogue: str, language: str) -> set[str]:
    po = ROOT / "words" / "locale" / language / "LC_MESSAGES" / f"{catalogue}.po"
    return set(re.findall(r'^msgid "([^"]+)"', po.read_text(encoding="utf-8"), re.M))


def _booked_as_it_is(op: str) -> bool:
    """Whether a command of ``op`` with the player alone is well formed (what a flow without steps books)."""
    try:
        parse({"op": op, "player": "Anna"})
    except RuleError:
        return False
    return True


def missing() -> dict[str, list[str]]:
    """Per op, what it still lacks: empty when every op is complete."""
    rules_keys = {lang: _keys("rules", lang) for lang in ("de", "en")}
    scenes_keys = {lang: _keys("scenes", lang) | _keys("phone", lang) for lang in ("de", "en")}
    placed = {p.op: p for p in PLACES}
    opened = {row for p in PLACES for row in p.rows}
    found: dict[str, list[str]] = {}
    for name, command in cmds.COMMANDS.items():
        if name not in BY_NAME:
            found[name] = [f"its move in rules/moves/ with @books(cmds.{command.__name__}, legal=…, debt=…, said=…) "
                           "on it (rules/moves/context.py), in a module of rules.moves.MODULES"]
    for op in REGISTRY:
        lack = found.setdefault(op.name, [])
        if cmds.COMMANDS.get(op.name) is not op.command:
            lack.append("its command class in the Command union of rules/commands.py (its place there is its place "
                        "in the legal moves)")
        if op.move is None and op.name not in ("new_game", "undo"):
            lack.append(f"its move in rules/moves/, declared with @books(cmds.{op.command.__name__}, …)")
        if not op.said:
            lack.append(f"the catalogue keys of its booking's text: @books(cmds.{op.command.__name__}, said=(…)) "
                        "on its move")
        for lang, keys in rules_keys.items():
            lack += [f"{key} in words/locale/{lang}/LC_MESSAGES/rules.po" for key in op.said if key not in keys]
        place = placed.get(op.name)
        if place is None and op.name not in BANKER_OWN:
            lack.append("its place on the device (a row of device/scenes/places.py: a menu place or a key)")
        elif place is not None:
            if not (place.menu or place.key):
                lack.append("a menu place or a key in device/scenes/places.py")
            flow = FLOWS.get(phrase(place.flow)) if place.flow else None
            if flow is not None and flow.op == op.name and not (flow.steps or flow.method) and flow.command is None \
                    and not _booked_as_it_is(op.name):
                lack.append(f"the steps of its flow {place.flow}: Place.steps in device/scenes/places.py (a square, "
                            "an amount), or a flow of its own in device/scenes/flows.py (its command needs more than "
                            "the player, which a flow without steps books)")
            for lang, keys in scenes_keys.items():
                lack += [f"{key} in words/locale/{lang}" for key in (place.flow, place.key, place.form)
                         if key and key not in keys]
        lack += [f"a place opened by its legal row {row.name}" for row in op.legal if row.name not in opened]
    return {op: lack for op, lack in found.items() if lack}


def test_every_op_has_its_command_move_texts_and_place() -> None:
    lacking = missing()
    assert not lacking, "\n".join(f"{op}: {', '.join(lack)}" for op, lack in lacking.items())


def test_the_table_is_the_contract() -> None:
    """One row per op of the contract, no row twice; the moves and debts are read off it."""
    assert set(BY_NAME) == OPS and len(REGISTRY) == len(OPS)
    assert set(HANDLERS) == {op.command for op in REGISTRY} - {cmds.NewGame, cmds.Undo}
    assert DEBTS <= OPS and "buy" not in DEBTS and "rent" in DEBTS
    assert len({row.name for row in LEGAL_ROWS}) == len(LEGAL_ROWS)


def test_the_presentation_names_ops_of_the_rules() -> None:
    """Every form books an op of the rules, every row a place opens on is a row of the legal moves, and each digit
    of the menu is one entry (a list of its own only where it has words for it)."""
    assert {p.op for p in FORMS} <= OPS
    assert {row for p in PLACES for row in p.rows} <= {row.name for row in LEGAL_ROWS}
    digits = [digit for digit, _, _ in menu()]
    assert len(digits) == len(set(digits))
    assert all(len(flows) == 1 or digit in GROUPS for digit, _, flows in menu())
