"""The public state: what every phone reads, built once per change from the game itself.

The daemon's loop builds it after each change and hands the bytes to the web, which sends the
same bytes to every page; the web neither builds nor parses it. The rules' own names and verdicts
(the mode's title, who won) are read from the :class:`~rules.GameState` directly, never from a
JSON copy of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rules import GameState, Mode, winners
from rules.titles import HOUSE_RULE_NAMES, mode_title
from words import appliance_language, say

from ..store.cards import Card

LOG_SHOWN = 30
"""The newest bookings the page lists."""


def public_state(game: GameState | None, snap: Mapping[str, Any], *, cards: Iterable[Card],
                 parts: list[dict[str, Any]], version: int, problem: str | None,
                 session_epoch: int = 0) -> dict[str, Any]:
    """The contract's state object plus ``log``, ``remaining`` (timed: seconds left when published) and what
    the page needs. ``snap``: the ledger's snapshot of ``game`` (its contract JSON, log and clock)."""
    state = snap["state"]
    out: dict[str, Any] = dict(state) if state is not None else {"players": [], "ranking": []}
    out["log"] = snap["log"][:LOG_SHOWN]
    if game is not None:  # the rules' own names: the page keeps no list of its own
        out["mode_title"] = say(mode_title(game.edition, game.mode, speed_die=game.speed_die), game.edition)
        out["house_rule_titles"] = [say(HOUSE_RULE_NAMES[r]) if r in HOUSE_RULE_NAMES else r
                                    for r in sorted(game.house_rules)]
    # A shared win names everyone as rich as the winner (the contract's ``winner`` is only the first).
    out["winners"] = winners(game) if game is not None else []
    if game is not None and game.mode is Mode.TIMED:
        out["remaining"] = snap["remaining"]
    out["cards"] = {c.name: c.number for c in cards if c.kind == "player"}
    out["version"] = version
    out["session_epoch"] = session_epoch  # a logout anywhere: every banker's page asks again
    out["problem"] = problem
    out["language"] = appliance_language()  # open pages that follow the appliance's language reload in it
    out["parts"] = parts
    return out


def public_body(game: GameState | None, snap: Mapping[str, Any], *, cards: Iterable[Card],
                parts: list[dict[str, Any]], version: int, problem: str | None, session_epoch: int = 0) -> bytes:
    """:func:`public_state` as the UTF-8 JSON every phone gets, serialized once."""
    state = public_state(game, snap, cards=cards, parts=parts, version=version, problem=problem,
                         session_epoch=session_epoch)
    return json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode()
