"""A long, realistic game journal for benchmarks: a seeded bot plays, only accepted commands are kept."""

from __future__ import annotations

import json
import random
from typing import Any

from rules import DEEDS, GROUPS, Game, Kind, RuleError

PLAYERS = ["Anna", "Ben", "Cem", "Dana", "Emil", "Fine"]


def _candidate(rng: random.Random, game: Game) -> dict[str, Any]:
    state = game.state
    assert state is not None
    active = [p for p in state.players if not state.players[p].bankrupt]
    player, other = rng.sample(active, 2)
    owned = [sq for sq, d in state.deeds.items() if d.owner == player]
    pick = rng.random()
    if pick < 0.25:
        return {"op": rng.choice(["credit", "debit"]), "player": player, "amount": rng.choice([10, 20, 50, 100, 150])}
    if pick < 0.35:
        return {"op": "go", "player": player}
    if pick < 0.55:
        return {"op": "rent", "player": other, "square": rng.choice(sorted(DEEDS)), "dice": rng.randint(2, 12)}
    if pick < 0.65:
        return {"op": "buy", "player": player, "square": rng.choice(sorted(DEEDS))}
    if pick < 0.8 and owned:
        streets = [sq for sq in owned if DEEDS[sq].kind is Kind.STREET]
        if streets:
            op = rng.choice(["build", "build", "sell_building"])
            return {"op": op, "player": player, "square": rng.choice(streets)}
    if pick < 0.85 and owned:
        return {"op": rng.choice(["mortgage", "unmortgage"]), "player": player, "square": rng.choice(owned)}
    if pick < 0.9:
        # Consolidate groups by trade, so that building happens.
        for group in GROUPS.values():
            owners = {state.deeds[sq].owner for sq in group}
            if player in owners and other in owners:
                theirs = [sq for sq in group if state.deeds[sq].owner == other]
                return {"op": "trade", "a": player, "b": other, "a_gives": {"cash": 50}, "b_gives": {"squares": theirs}}
    return {"op": "transfer", "from": player, "to": other, "amount": rng.choice([10, 50, 100])}


def journal(length: int = 10_000, seed: int = 1, ids: str = "c") -> list[str]:
    """``length`` accepted command lines of one long game (new games when one ends); ids ``ids`` + a number
    (give each game of a longer journal its own prefix: a repeated id is a retry, not a new command)."""
    rng = random.Random(seed)
    game = Game()
    lines: list[str] = []
    while len(lines) < length:
        if game.state is None or game.state.finished:
            cmd: dict[str, Any] = {"op": "new_game", "edition": "classic", "mode": "standard", "players": PLAYERS}
        else:
            cmd = _candidate(rng, game)
        cmd["id"] = f"{ids}{len(lines)}"
        try:
            game.apply(cmd)
        except RuleError:
            continue
        lines.append(json.dumps(cmd))
    return lines
