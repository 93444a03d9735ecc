"""Journals in the format written before a bankruptcy said what was owed (``bankrupt`` without ``owed``), for the replay tests.

``random_journal(seed)`` plays a random game and keeps what a journal keeps: the accepted commands,
in order (Storno included). The games in ``tests/golden/journals`` were recorded with this module by
the rules as they were before the bankruptcy's debt and the shortage auction (commit 4c9a850): each file holds the commands and the state
after every one of them, so a replay today must give the very same states.

Recording again (only when the format of the golden files changes, never to make a test pass):
``python tests/old_journals.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import DEEDS, EDITIONS, GROUPS, Game, Kind, RuleError, to_json

GOLDEN = Path(__file__).resolve().parent / "golden" / "journals"
NAMES = ["Anna", "Ben", "Cem", "Dana"]
HOT = [1, 3, 37, 39, 5, 15, 12, 28, 6, 8, 9, 11, 13, 14]
OPS = (["credit", "debit", "transfer", "go", "rent", "tax", "jail_fine", "jail_card", "pay_all", "collect_all",
        "repairs", "unmortgage", "undo"] + ["buy"] * 8 + ["auction"] * 2 + ["build"] * 10 + ["sell_building"] * 3
       + ["mortgage"] * 3 + ["trade"] * 3 + ["bankrupt"])


def digest(game: Game) -> str:
    """A short fingerprint of the contract's state (the whole state, as ``bankleser replay`` prints it)."""
    return digest_of(None if game.state is None else to_json(game.state))


def digest_of(state: dict[str, Any] | None) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


def _command(rng: random.Random, game: Game, late: bool) -> dict[str, Any]:
    state = game.state
    assert state is not None
    names = [n for n, p in state.players.items() if not p.bankrupt]
    player, other = rng.choice(names), rng.choice(names)
    owned = [sq for sq, d in state.deeds.items() if d.owner == player]
    square = rng.choice(owned) if owned and rng.random() < 0.7 else rng.choice(HOT)
    scale = state.edition.scale
    amount = rng.choice([1, 10, 50, 100, 200, 400]) * scale
    op = rng.choice(OPS)
    if op == "bankrupt" and not late:  # bankruptcies end games: let the game grow first
        op = "build"
    if op in ("credit", "debit", "pay_all", "collect_all"):
        return {"op": op, "player": player, "amount": amount}
    if op == "transfer":
        return {"op": op, "from": player, "to": other, "amount": amount}
    if op in ("go", "jail_fine"):
        return {"op": op, "player": player}
    if op == "repairs":
        return {"op": op, "player": player, "per_house": 25 * scale, "per_hotel": 100 * scale}
    if op == "buy":
        free = [sq for sq in HOT if state.deeds[sq].owner is None]
        return {"op": op, "player": player, "square": rng.choice(free or HOT)}
    if op == "auction":
        free = [sq for sq in HOT if state.deeds[sq].owner is None]
        return {"op": "buy", "player": player, "square": rng.choice(free or HOT),
                "price": rng.choice([1, 20, 150, 900]) * scale}
    if op == "rent":
        return {"op": op, "player": other, "square": rng.choice(HOT), "dice": rng.randint(2, 12)}
    if op in ("build", "sell_building"):
        built = [sq for sq in owned if DEEDS[sq].kind is Kind.STREET
                 and all(state.deeds[g].owner == player for g in GROUPS[DEEDS[sq].group or ""])]
        square = rng.choice(built) if built else square
        extra = {"to_houses": rng.random() < 0.3} if op == "sell_building" else {}
        return {"op": op, "player": player, "square": square, **extra}
    if op in ("mortgage", "unmortgage"):
        return {"op": op, "player": player, "square": square}
    if op == "trade":
        theirs = [sq for sq, d in state.deeds.items() if d.owner == other]
        a_gives = {"squares": rng.sample(owned, min(len(owned), rng.randint(0, 2)))}
        b_gives = {"cash": rng.choice([0, 10, 100, 300]) * scale,
                   "squares": rng.sample(theirs, min(len(theirs), rng.randint(0, 1)))}
        lift = [sq for sq in a_gives["squares"] if rng.random() < 0.3]
        return {"op": op, "a": player, "b": other, "a_gives": a_gives, "b_gives": b_gives, "lift": lift}
    if op == "tax":
        return {"op": op, "player": player, "square": rng.choice([4, 38])}
    if op == "jail_card":
        return {"op": op, "player": player, "delta": rng.choice([1, -1])}
    if op == "bankrupt":  # the old format: no "owed"
        return {"op": op, "player": player, **({"creditor": other} if rng.random() < 0.6 else {})}
    return {"op": op}


def random_journal(seed: int, length: int = 250) -> list[dict[str, Any]]:
    """The accepted commands of one random game in the old format, as its journal would hold them."""
    rng = random.Random(seed)
    edition = sorted(EDITIONS)[seed % len(EDITIONS)]
    mode = ["standard", "quick", "timed"][seed // len(EDITIONS) % 3]
    new: dict[str, Any] = {"op": "new_game", "edition": edition, "mode": mode,
                           "players": NAMES[: 2 + seed % 3], "seed": seed}
    if mode == "timed":
        new["minutes"] = 60
    game, journal = Game(), [new]
    game.apply(new)
    for step in range(length):
        assert game.state is not None
        if game.state.finished:
            break
        cmd = _command(rng, game, late=step > length // 2)
        try:
            game.apply(cmd)
        except RuleError:
            continue
        journal.append(cmd)
    return journal


def record(name: str, journal: list[dict[str, Any]]) -> None:
    """Write a golden file: one line per command, each with the digest of the state after it."""
    game = Game()
    lines = []
    for cmd in journal:
        game.apply(cmd, replaying=True)
        lines.append(json.dumps({"cmd": cmd, "after": digest(game)}, ensure_ascii=False))
    assert game.state is not None
    lines.append(json.dumps({"state": to_json(game.state)}, ensure_ascii=False))
    (GOLDEN / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def scripted() -> dict[str, list[dict[str, Any]]]:
    """Bankruptcies the old way, one per edition: to a player (mortgaged deeds, buildings, cards) and to the bank."""
    out = {}
    for edition in sorted(EDITIONS):
        s = EDITIONS[edition].scale
        new = {"op": "new_game", "edition": edition, "mode": "standard", "players": ["Anna", "Ben", "Cem"]}
        cmds: list[dict[str, Any]] = [
            new,
            {"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
            {"op": "buy", "player": "Anna", "square": 5}, {"op": "buy", "player": "Anna", "square": 6},
            {"op": "build", "player": "Anna", "square": 1}, {"op": "build", "player": "Anna", "square": 3},
            {"op": "mortgage", "player": "Anna", "square": 5}, {"op": "mortgage", "player": "Anna", "square": 6},
            {"op": "jail_card", "player": "Anna", "delta": 1},
            {"op": "buy", "player": "Ben", "square": 39},
            {"op": "debit", "player": "Anna", "amount": 1000 * s},
            {"op": "bankrupt", "player": "Anna", "creditor": "Ben"},
            {"op": "buy", "player": "Cem", "square": 37},
            {"op": "mortgage", "player": "Cem", "square": 37},
            {"op": "bankrupt", "player": "Cem"},
        ]
        out[f"bankrupt_{edition}"] = cmds
    # Typed amounts the reader would refuse, accepted in trades before the reader's limits held there too (5K, 25M in Banking).
    out["trade_cash_banking"] = [
        {"op": "new_game", "edition": "banking", "mode": "standard", "players": ["Anna", "Ben"]},
        {"op": "buy", "player": "Anna", "square": 39},
        {"op": "trade", "a": "Anna", "b": "Ben", "a_gives": {"squares": [39]}, "b_gives": {"cash": 5_000}},
        {"op": "credit", "player": "Anna", "amount": 20_000_000},
        {"op": "trade", "a": "Ben", "b": "Anna", "a_gives": {"squares": [39]}, "b_gives": {"cash": 25_000_000}},
    ]
    return out


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, journal in scripted().items():
        record(name, journal)
    for seed in range(30):
        record(f"random_{seed:02d}", random_journal(seed))


if __name__ == "__main__":
    main()
