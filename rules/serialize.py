"""The state as the contract's JSON (docs/commands.md), and back."""

from __future__ import annotations

import json
from typing import Any

from .board import DEEDS
from .commands import edition_of_json
from .editions import EDITIONS, Edition, EditionError, Mode
from .errors import BadCommand
from .phrase import phrase
from .state import DeedState, GameState, PlayerState
from .valuation import net_worth, ranking


def to_json(state: GameState) -> dict[str, Any]:
    """The contract's state object; ``minutes`` is added for a timed game only."""
    out: dict[str, Any] = {
        "edition": state.edition.key,
        "mode": state.mode.value,
        "finished": state.finished,
        "winner": state.winner,
        "players": [
            {
                "name": p.name,
                "cash": p.cash,
                "net_worth": net_worth(state, p.name),
                "bankrupt": p.bankrupt,
                "jail_cards": p.jail_cards,
                **({"debt": p.debt} if p.debt else {}),
                "properties": [
                    {"square": sq, "houses": d.houses, "hotel": d.hotel, "mortgaged": d.mortgaged}
                    for sq, d in sorted(state.deeds.items())
                    if d.owner == p.name
                ],
            }
            for p in state.players.values()
        ],
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "ranking": ranking(state),
    }
    if state.mode is Mode.TIMED:
        out["minutes"] = state.minutes
    if state.speed_die:
        out["speed_die"] = True
    if state.house_rules:
        out["house_rules"] = sorted(state.house_rules)
    if "free_parking_pot" in state.house_rules:
        out["pot"] = state.pot
    return out


def edition_of(data: dict[str, Any]) -> Edition:
    """The edition of a state object: its ``edition_data`` (a family's edition, as the device's snapshot and a
    checkpoint carry it), else the shipped edition of its key (BadCommand if there is none)."""
    if data.get("edition_data") is not None:
        return edition_of_json(json.dumps(data["edition_data"], sort_keys=True, ensure_ascii=False))
    edition = EDITIONS.get(data.get("edition", ""))
    if edition is None:
        raise BadCommand(phrase("rules.state.edition", edition=repr(data.get("edition"))))
    return edition


def from_json(data: dict[str, Any]) -> GameState:
    """Rebuild a state from :func:`to_json`'s output (derived fields are recomputed, not read). With
    ``edition_data`` (a checkpoint keeps it: ``rules.snapshot``) the game's own edition, else the shipped one."""
    try:
        edition = edition_of(data)
        state = GameState(
            edition=edition,
            mode=Mode(data["mode"]),
            players={},
            bank_houses=int(data["bank"]["houses"]),
            bank_hotels=int(data["bank"]["hotels"]),
            finished=bool(data["finished"]),
            winner=data["winner"],
            minutes=data.get("minutes"),
            speed_die=bool(data.get("speed_die", False)),
            house_rules=frozenset(data.get("house_rules", ())),
            pot=int(data.get("pot", 0)),
        )
        for p in data["players"]:
            state.players[p["name"]] = PlayerState(p["name"], int(p["cash"]), bool(p["bankrupt"]), int(p["jail_cards"]),
                                                   int(p.get("debt", 0)))
            for prop in p["properties"]:
                sq = int(prop["square"])
                if sq not in DEEDS:
                    raise BadCommand(phrase("rules.square.not_a_property", square=str(sq)))
                state.deeds[sq] = DeedState(
                    p["name"], int(prop["houses"]), bool(prop["hotel"]), bool(prop["mortgaged"])
                )
    except (KeyError, TypeError, ValueError, EditionError) as err:
        raise BadCommand(phrase("rules.state.invalid", error=str(err))) from None
    return state
