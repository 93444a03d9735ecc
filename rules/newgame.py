"""Starting a game: the state a ``new_game`` sets up, and the quick game's deal.

Pure: the deal draws from the seed the command carries, never from a randomness of its own.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from . import commands as cmds
from .board import DEEDS, Square
from .commands import parse
from .editions import Edition, Mode
from .errors import BadCommand
from .phrase import Place, phrase
from .state import GameState, PlayerState, Transfer


def new_game_state(cmd: Mapping[str, Any] | cmds.NewGame) -> tuple[GameState, list[Transfer]]:
    """The state a ``new_game`` command sets up, with the money the bank paid out and in."""
    if not isinstance(cmd, cmds.NewGame):
        typed = parse(cmd)
        if not isinstance(typed, cmds.NewGame):
            raise BadCommand(phrase("rules.new_game.not", op=typed.op))
        cmd = typed
    edition, names = cmd.game_edition(), list(cmd.players)
    start = edition.start_capital + (edition.speed_die_bonus if cmd.speed_die else 0)
    state = GameState(
        edition=edition,
        mode=cmd.mode,
        players={n: PlayerState(n, start) for n in names},
        minutes=cmd.minutes if cmd.mode is Mode.TIMED else None,
        speed_die=cmd.speed_die,
        house_rules=frozenset(cmd.house_rules),
        bank_houses=edition.houses_in_box,
        bank_hotels=edition.hotels_in_box,
    )
    transfers = [Transfer(None, n, start, phrase("rules.reason.start")) for n in names]
    if cmd.mode is Mode.QUICK:
        deal = quick_deal(cmd, edition)
        for name in names:
            for sq in deal[name]:
                state.deeds[sq].owner = name
                if edition.quick.deal_paid:
                    price = edition.deed(sq).price
                    state.players[name].cash -= price
                    transfers.append(Transfer(name, None, price, phrase("rules.reason.quick_deal", square=Place(sq))))
    return state, transfers


def with_edition_data(cmd: Mapping[str, Any], editions: Mapping[str, Edition]) -> Mapping[str, Any]:
    """A ``new_game`` as the journal keeps it: with the whole edition it names ("editing, renaming or
    deleting the file later changes neither a running game nor any past game"); any other command as it is."""
    if not isinstance(cmd, Mapping) or cmd.get("op") != "new_game" or cmd.get("edition_data") is not None:
        return cmd
    key = cmd.get("edition")
    edition = editions.get(key) if isinstance(key, str) else None
    from .editions.writing import journal_data  # with the file's schema: at the first new_game, after READY

    return cmd if edition is None else {**cmd, "edition_data": journal_data(edition)}


def quick_deal(cmd: cmds.NewGame, edition: Edition) -> Mapping[str, tuple[Square, ...]]:
    """The deal as the command gives it, or drawn from its seed (both checked by the command)."""
    if cmd.deal is not None:
        return cmd.deal
    each, names = edition.quick.deeds_each, cmd.players
    drawn = random.Random(cmd.seed).sample(sorted(DEEDS), each * len(names))
    return {n: tuple(sorted(drawn[i * each : (i + 1) * each])) for i, n in enumerate(names)}
