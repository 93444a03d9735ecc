"""Invariants over long random games, in every edition and mode (hypothesis).

- Money is conserved: every change of a player's cash is matched by the bank or another player.
- No cash is ever negative.
- Houses on the board plus the bank's stock stay 32, hotels 12.
- Building stays even.
- A refused command leaves the state exactly as it was.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from conftest import snapshot
from rules import DEEDS, EDITIONS, GROUPS, Game, Kind, RuleError, level
from rules.ops import BY_NAME, REGISTRY

NAMES = ["Anna", "Ben", "Cem", "Dana"]
# A few groups only, so that monopolies, building and trading actually happen.
HOT_SQUARES = [1, 3, 37, 39, 5, 15, 12, 28, 6, 8, 9]
AMOUNTS = [1, 10, 50, 200, 10_000, 500_000, 2_000_000]
# op: weight. Ending ops are rare so that games run long.
WEIGHTS = {"credit": 4, "debit": 4, "transfer": 4, "go": 4, "buy": 14, "auction": 3, "rent": 6, "build": 16,
           "sell_building": 6, "mortgage": 5, "unmortgage": 4, "trade": 6, "tax": 2, "jail_fine": 2,
           "jail_card": 3, "undo": 3, "bankrupt": 1, "end": 1, "junk": 2,
           "pay_all": 2, "collect_all": 2, "repairs": 3, "free_parking": 2, "pay_debt": 2, "build_auction": 3}
STARTED = {"new_game": "each example starts its own game"}
"""The ops the random games never draw, and why."""
FIELD_KINDS = ("str", "Money", "Square", "bool")
"""The field types a command is drawn from without a case of its own (:func:`drawn_by_its_fields`)."""


def _kinds(op: str) -> dict[str, str]:
    """Each field of the op's command (but the retry id and the digest) by its declared type ("Money | None")."""
    return {f.name: str(f.type) for f in dataclasses.fields(BY_NAME[op].command) if f.name not in ("id", "expect")}


def _by_its_fields(op: str) -> bool:
    return all(kind.removesuffix(" | None") in FIELD_KINDS for kind in _kinds(op).values())


BY_FIELDS = [op.name for op in REGISTRY if op.name not in WEIGHTS and op.name not in STARTED]
"""The ops of the rules' table without a case of their own below: drawn from their fields' types."""
OP_TABLE = [op for op, w in WEIGHTS.items() for _ in range(w)] + [op for op in BY_FIELDS for _ in range(2)]


def drawn_by_its_fields(data: st.DataObject, op: str, player: str, other: str, square: int,
                        amount: int) -> dict[str, Any]:
    """A command of an op without a case of its own: the player's name for its first name field, another's for
    the next, and an amount, square or flag for each other field (sometimes left out where it is optional)."""
    names = iter([player, other])

    def value(kind: str) -> Any:
        if kind == "str":
            return next(names, other)
        return {"Money": amount, "Square": square}.get(kind) if kind != "bool" else data.draw(st.booleans())

    cmd: dict[str, Any] = {"op": op}
    for name, kind in _kinds(op).items():
        if not (kind.endswith(" | None") and data.draw(st.booleans())):
            cmd[name] = value(kind.removesuffix(" | None"))
    return cmd


def draw_command(data: st.DataObject, game: Game) -> dict[str, Any]:
    """A command that is usually sensible for the current state, sometimes wrong on purpose."""
    state = game.state
    assert state is not None
    names = list(state.players)
    player = data.draw(st.sampled_from(names[:2] * 4 + names + ["Zoe"]))
    other = data.draw(st.sampled_from([*names, "Zoe"]))
    owned = [sq for sq, d in state.deeds.items() if d.owner == player]
    square = data.draw(st.one_of(*[st.sampled_from(owned)] * 4 if owned else [st.sampled_from(HOT_SQUARES)],
                                 st.sampled_from(HOT_SQUARES), st.integers(-1, 41)))
    amount = data.draw(st.one_of(st.sampled_from(AMOUNTS), st.integers(-5, 30_000_000)))
    op = data.draw(st.sampled_from(OP_TABLE))
    if op in ("credit", "debit"):
        return {"op": op, "player": player, "amount": amount}
    if op == "transfer":
        return {"op": op, "from": player, "to": other, "amount": amount}
    if op in ("go", "jail_fine", "free_parking"):
        return {"op": op, "player": player, **({"exact": data.draw(st.booleans())} if op == "go" else {})}
    if op in ("pay_all", "collect_all"):
        return {"op": op, "player": player, "amount": amount}
    if op == "repairs":
        return {"op": op, "player": player, "per_house": data.draw(st.sampled_from([0, 25, 400_000, -1])),
                "per_hotel": data.draw(st.sampled_from([0, 100, 1_150_000, 30_000_000]))}
    if op == "buy":
        # Mostly complete a group the player has started: monopolies are where the rules bite.
        wanted = [sq for sq in HOT_SQUARES if state.deeds[sq].owner is None
                  and any(state.deeds[g].owner == player for g in GROUPS[DEEDS[sq].group or ""])]
        pick = st.sampled_from(wanted) if wanted else st.sampled_from(HOT_SQUARES)
        return {"op": op, "player": player, "square": data.draw(st.one_of(pick, pick, st.sampled_from(HOT_SQUARES)))}
    if op == "auction":
        return {"op": "buy", "player": player, "square": square, "price": amount}
    if op == "rent":
        return {"op": op, "player": other, "square": square, "dice": data.draw(st.integers(1, 13))}
    if op in ("build", "sell_building"):
        built = [sq for sq in owned if DEEDS[sq].kind is Kind.STREET
                 and all(state.deeds[g].owner == player for g in GROUPS[DEEDS[sq].group or ""])]
        if built:
            square = data.draw(st.one_of(st.sampled_from(built), st.sampled_from(built), st.just(square)))
    if op in ("build", "mortgage", "unmortgage"):
        return {"op": op, "player": player, "square": square}
    if op == "build_auction":
        return {"op": op, "player": player, "square": square, "price": amount}
    if op == "pay_debt":
        return {"op": op, "player": player}
    if op == "sell_building":
        return {"op": op, "player": player, "square": square, "to_houses": data.draw(st.booleans())}
    if op == "trade":
        gives = st.fixed_dictionaries({}, optional={
            "squares": st.lists(st.sampled_from(HOT_SQUARES), max_size=2, unique=True),
            "cash": st.sampled_from([0, 10, 100, 500_000]), "jail_cards": st.integers(0, 1)})
        return {"op": op, "a": player, "b": other, "a_gives": data.draw(gives), "b_gives": data.draw(gives),
                "lift": data.draw(st.lists(st.sampled_from(HOT_SQUARES), max_size=1))}
    if op == "tax":
        return {"op": op, "player": player, "square": data.draw(st.sampled_from([4, 38, 5]))}
    if op == "jail_card":
        return {"op": op, "player": player, "delta": data.draw(st.sampled_from([1, 1, -1, 2]))}
    if op == "bankrupt":
        return {"op": op, "player": player, "creditor": data.draw(st.one_of(st.none(), st.just(other))),
                "owed": data.draw(st.one_of(st.none(), st.sampled_from(AMOUNTS)))}
    if op in BY_FIELDS:
        return drawn_by_its_fields(data, op, player, other, square, amount)
    if op == "junk":
        return data.draw(st.dictionaries(st.sampled_from(["op", "player", "amount", "square"]),
                                         st.one_of(st.none(), st.integers(), st.text(max_size=3), st.booleans())))
    return {"op": op}


games = st.fixed_dictionaries({
    "op": st.just("new_game"),
    "edition": st.sampled_from(sorted(EDITIONS)),
    "mode": st.sampled_from(["standard", "quick", "timed"]),
    "players": st.integers(2, 4).map(lambda n: NAMES[:n]),
    "minutes": st.just(60),
    "seed": st.integers(0, 1000),
    "house_rules": st.lists(st.sampled_from(["free_parking_pot", "double_go", "no_auctions"]), unique=True),
})


def check_invariants(game: Game, spread_exempt: set[str]) -> None:
    state = game.state
    assert state is not None
    assert all(p.cash >= 0 for p in state.players.values())
    # A debt to the bank only where the books charge the bankruptcy fee, never on a bankrupt player.
    assert all(p.debt >= 0 and not (p.debt and p.bankrupt) for p in state.players.values())
    assert state.edition.bankruptcy_mortgage_fee or not any(p.debt for p in state.players.values())
    assert sum(d.houses for d in state.deeds.values()) + state.bank_houses == 32
    assert sum(d.hotel for d in state.deeds.values()) + state.bank_hotels == 12
    assert all(d.houses <= 4 and not (d.hotel and d.houses) for d in state.deeds.values())
    for group, sqs in GROUPS.items():
        if DEEDS[sqs[0]].kind is not Kind.STREET:
            continue
        levels = [level(state, sq) for sq in sqs]
        if max(levels) - min(levels) <= 1:
            spread_exempt.discard(group)
        else:
            assert group in spread_exempt, f"uneven building on {group}: {levels}"
        if max(levels):  # buildings only on a whole, unmortgaged group of one owner
            assert len({state.deeds[sq].owner for sq in sqs}) == 1


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=games, data=st.data(), length=st.integers(20, 150))
def test_random_games_keep_every_invariant(start: dict[str, Any], data: st.DataObject, length: int) -> None:
    game = Game()
    if start["mode"] != "quick":
        start = {k: v for k, v in start.items() if k != "seed"}
    game.apply(start)
    spread_exempt: set[str] = set()
    check_invariants(game, spread_exempt)
    for _ in range(length):
        cmd = draw_command(data, game)
        before = snapshot(game.state)
        assert game.state is not None
        cash_before = {n: p.cash for n, p in game.state.players.items()}
        try:
            event = game.apply(cmd)
        except RuleError:
            assert snapshot(game.state) == before, f"refused {cmd} changed the state"
            continue
        # Money: each player's change is exactly the sum of the transfers naming them.
        flows: Counter[str] = Counter()
        for t in event.transfers:
            assert t.amount > 0
            if t.payer is not None:
                flows[t.payer] -= t.amount
            if t.payee is not None:
                flows[t.payee] += t.amount
        for name, old in cash_before.items():
            assert game.state.players[name].cash - old == flows[name], (cmd, event.transfers)
        # The pot: only with its house rule, fed by exactly what went "to the bank", emptied by Frei Parken.
        pot_change = game.state.pot - (before or {}).get("pot", 0)
        to_bank = sum(t.amount for t in event.transfers if t.payee is None)
        from_bank = sum(t.amount for t in event.transfers if t.payer is None)
        assert game.state.pot >= 0
        if "free_parking_pot" not in game.state.house_rules:
            assert game.state.pot == 0
        elif cmd.get("op") in ("debit", "tax", "jail_fine", "repairs"):
            assert pot_change == to_bank
        elif cmd.get("op") == "free_parking":
            assert pot_change == -from_bank
        elif cmd.get("op") != "undo":
            assert pot_change == 0
        if cmd.get("op") == "sell_building" and not cmd.get("to_houses"):
            sq = cmd["square"]
            if DEEDS[sq].group and before is not None:
                spread_exempt.add(DEEDS[sq].group or "")
        if cmd.get("op") in ("undo", "bankrupt"):
            spread_exempt.update(g for g in GROUPS)  # re-checked for real below once even again
            spread_exempt.intersection_update(_uneven_groups(game))
        check_invariants(game, spread_exempt)


def _uneven_groups(game: Game) -> set[str]:
    state = game.state
    assert state is not None
    out = set()
    for group, sqs in GROUPS.items():
        levels = [level(state, sq) for sq in sqs]
        if max(levels) - min(levels) > 1:
            out.add(group)
    return out


@settings(max_examples=examples(60), deadline=None)
@given(start=games, data=st.data(), length=st.integers(5, 80))
def test_undo_everything_returns_to_the_start(start: dict[str, Any], data: st.DataObject, length: int) -> None:
    """Storno is exact: undoing every accepted command restores the state after new_game."""
    game = Game()
    game.apply(start)
    initial = snapshot(game.state)
    for _ in range(length):
        cmd = draw_command(data, game)
        if cmd.get("op") == "undo":
            continue
        with contextlib.suppress(RuleError):
            game.apply(cmd)
    while game.history[-1].op != "new_game":  # the new_game itself is the first entry
        game.apply({"op": "undo"})
    assert snapshot(game.state) == initial


def test_every_op_is_drawn() -> None:
    """Each op of the rules' table is drawn: by a case of its own above, or from its fields' types; one whose fields
    those types do not cover needs its own case (named here)."""
    assert not [op for op in BY_FIELDS if not _by_its_fields(op)], \
        f"give these ops a case in draw_command: {[op for op in BY_FIELDS if not _by_its_fields(op)]}"
    assert set(WEIGHTS) - {"auction", "junk"} | set(BY_FIELDS) | set(STARTED) == set(BY_NAME)
