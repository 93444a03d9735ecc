"""The confirmation is the contract: a booking carries the digest of the preview the banker confirmed
(``expect``), and the rules book it only while they would still do exactly that.

For every kind of booking whose result can change under a preview: the preview is taken, something else is
booked meanwhile (another phone, the device), then the confirmed command is sent. It must be refused ``changed``
with nothing booked, though the rules would still take the command as such; and the preview taken now books as
shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from conftest import give, snapshot, start
from rules import Game, RuleError


def _brown(houses: tuple[int, int] = (0, 0)) -> Game:
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 1, 3)
    assert game.state is not None
    game.state.deeds[1].houses, game.state.deeds[3].houses = houses
    return game


def _hotels() -> Game:
    game = _brown()
    assert game.state is not None
    for sq in (1, 3):
        game.state.deeds[sq].hotel = True
    return game


def _broke() -> Game:
    """Anna with 10 and the Badstraße: she cannot pay Ben 500."""
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 1)
    game.apply({"op": "debit", "player": "Anna", "amount": 1490})
    return game


def _shortage() -> Game:
    """Anna and Ben each have 4 and 3 houses on a group; the bank is down to 1 house and 1 hotel."""
    game = start(players=("Anna", "Ben", "Cem"))
    give(game, "Anna", 1, 3)
    give(game, "Ben", 37, 39)
    assert game.state is not None
    game.state.deeds[1].houses, game.state.deeds[3].houses = 4, 3
    game.state.deeds[37].houses, game.state.deeds[39].houses = 4, 3
    game.state.bank_houses, game.state.bank_hotels = 1, 1
    return game


def _cem_leaves(game: Game) -> None:
    game.apply({"op": "debit", "player": "Cem", "amount": 1500})
    game.apply({"op": "bankrupt", "player": "Cem", "owed": 100})


CASES: dict[str, tuple[Callable[[], Game], dict[str, Any], list[dict[str, Any]]]] = {
    # kind: (the game, the booking previewed, what is booked meanwhile)
    "rent": (_brown, {"op": "rent", "player": "Ben", "square": 3},
             [{"op": "build", "player": "Anna", "square": 3}]),
    "build": (lambda: _brown((4, 3)), {"op": "build", "player": "Anna", "square": 3},
              [{"op": "build", "player": "Anna", "square": 3}]),  # the 4th house, now a hotel
    "sell": (_hotels, {"op": "sell_building", "player": "Anna", "square": 1},
             [{"op": "sell_building", "player": "Anna", "square": 3, "to_houses": True},
              {"op": "sell_building", "player": "Anna", "square": 1, "to_houses": True}]),  # now a house
    "trade": (lambda: _brown(), {"op": "trade", "a": "Anna", "b": "Ben",
                                 "a_gives": {"squares": [1], "cash": 0}, "b_gives": {"squares": [], "cash": 100}},
              [{"op": "mortgage", "player": "Anna", "square": 1}]),  # now with the 10 % on the mortgage
    "bankrupt": (_broke, {"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 500},
                 [{"op": "credit", "player": "Anna", "amount": 5}]),  # Ben would get 15, not 10
    "bankrupt_card": (_broke, {"op": "bankrupt", "player": "Anna", "creditor": "Ben", "owed": 500},
                      [{"op": "jail_card", "player": "Anna", "delta": 1}]),  # Ben would get her card too
    "auction": (_shortage, {"op": "build_auction", "player": "Ben", "square": 39, "price": 350},
                [{"op": "build_auction", "player": "Ben", "square": 39, "price": 300}]),  # now a hotel
    "pay_all": (lambda: start(players=("Anna", "Ben", "Cem")), {"op": "pay_all", "player": "Anna", "amount": 50},
                [{"op": "credit", "player": "Anna", "amount": 1}, {"op": "credit", "player": "Anna", "amount": 1}]),
    "collect_all": (lambda: start(players=("Anna", "Ben", "Cem")),
                    {"op": "collect_all", "player": "Anna", "amount": 50}, []),
    "repairs": (lambda: _brown((1, 1)), {"op": "repairs", "player": "Anna", "per_house": 25, "per_hotel": 100},
                [{"op": "build", "player": "Anna", "square": 1}]),
}
"""pay_all and collect_all change when a player leaves the game (:func:`_cem_leaves`, added below)."""


@pytest.mark.parametrize("kind", list(CASES))
def test_a_stale_confirmation_is_refused_changed_and_the_new_preview_books(kind: str) -> None:
    make, cmd, meanwhile = CASES[kind]
    game = make()
    shown = game.preview(cmd)
    confirmed = {**cmd, "expect": shown.effect}
    for other in meanwhile:
        game.apply(other)
    if kind in ("pay_all", "collect_all"):
        _cem_leaves(game)
    before = snapshot(game.state)
    assert game.check(cmd) is None, kind  # the rules would still book it: only its effect changed
    with pytest.raises(RuleError) as err:
        game.apply(confirmed)
    assert err.value.code == "changed", (kind, err.value.said)
    assert snapshot(game.state) == before, kind
    now = game.preview(cmd)
    assert now.effect != shown.effect
    assert err.value.said.get("booking") == now.said  # the refusal names what would be booked now
    assert game.check(confirmed) is not None and game.check({**cmd, "expect": now.effect}) is None
    game.apply({**cmd, "expect": now.effect})  # confirmed afresh, it books


@pytest.mark.parametrize("kind", list(CASES))
def test_a_confirmation_books_while_nothing_changed(kind: str) -> None:
    make, cmd, _ = CASES[kind]
    game = make()
    shown = game.preview(cmd)
    game.apply({"op": "credit", "player": "Cem", "amount": 10})  # booked meanwhile, changing nothing of it
    event = game.apply({**cmd, "expect": shown.effect})
    assert event.said == shown.said and event.transfers == shown.transfers


def test_a_journal_replays_a_confirmed_booking_as_it_was_accepted() -> None:
    """The journal holds the command with its digest; replayed, it was accepted once and is not judged again."""
    game = _brown()
    cmd = {"op": "rent", "player": "Ben", "square": 3}
    game.apply({**cmd, "expect": game.preview(cmd).effect})
    again = _brown()
    again.apply({"op": "build", "player": "Anna", "square": 3}, replaying=True)
    again.apply({**cmd, "expect": "0" * 16}, replaying=True)
