"""Storno names the booking it means, so that two taps (or two phones) take back one booking.

The contract (docs/rules.md, "Contract notes"): "`undo` has `of` (optional): the number of the booking it
means (`Event.number`: the new game is 1, each booking and each Storno takes the next, so no number is given
twice in a game). Refused `not_last` when that booking is no longer the last; without `of` the last booking
is taken back, as before."
"""

from __future__ import annotations

from told import told

from conftest import apply, cash, give, refused, start
from rules.snapshot import game_from_data, game_to_data


def test_each_booking_has_its_place_in_the_game() -> None:
    game = start()
    assert game.history[-1].number == 1  # the new game
    assert apply(game, op="credit", player="Anna", amount=100).number == 2
    assert apply(game, op="debit", player="Ben", amount=20).number == 3
    from told import means

    last = game.last_booking()
    assert last is not None and last.number == 3 and means(last, "rules.debit.done", player="Ben", amount=20)


def test_an_undo_naming_the_last_booking_takes_it_back() -> None:
    from told import means

    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    apply(game, op="debit", player="Ben", amount=20)
    assert means(apply(game, op="undo", of=3), "rules.undo.done",
                 booking=("rules.debit.done", {"player": "Ben", "amount": 20}))
    assert cash(game, "Ben") == 1500 and cash(game, "Anna") == 1600


def test_a_second_tap_naming_the_same_booking_is_refused_and_changes_nothing() -> None:
    """ "two taps undo one booking: the undo names the booking it means and is refused if that booking is no
    longer the last"."""
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    apply(game, op="debit", player="Ben", amount=20)
    apply(game, op="undo", of=3)
    message = refused(game, "not_last", op="undo", of=3)
    assert message == ("Storno nicht gebucht: Buchung 3 ist nicht mehr die letzte; "
                       "die letzte ist 2: Anna erhält 100 von der Bank")
    assert cash(game, "Anna") == 1600


def test_an_undo_without_of_takes_back_whatever_is_last_as_before() -> None:
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    apply(game, op="debit", player="Ben", amount=20)
    apply(game, op="undo")
    apply(game, op="undo")  # walks back further, as journals written before `of` expect
    assert cash(game, "Anna") == 1500 and cash(game, "Ben") == 1500
    refused(game, "bad_command", op="undo")


def test_the_numbers_survive_a_checkpoint() -> None:
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    again = game_from_data(game_to_data(game))
    assert [e.number for e in again.history] == [1, 2]
    apply(again, op="undo", of=2)
    assert cash(again, "Anna") == 1500


def test_a_stations_rent_has_no_empty_parentheses() -> None:
    """The log read "Anna zahlt Cem Miete für Westbahnhof (): 25"."""
    game = start(players=("Anna", "Cem"))
    give(game, "Cem", 15)
    assert told(apply(game, op="rent", player="Anna", square=15), game) == "Westbahnhof – Anna zahlt Cem 25 Miete"


def test_a_booking_after_a_storno_gets_a_new_number_so_a_stale_storno_cannot_take_it_back() -> None:
    """Two phones both saw booking 3 last; one took it back, then a new booking came. The other phone's Storno
    of 3 must not take back the new booking: a number is never given twice in a game."""
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    apply(game, op="debit", player="Ben", amount=20)
    apply(game, op="undo", of=3)
    assert apply(game, op="go", player="Ben").number == 5
    refused(game, "not_last", op="undo", of=3)
    assert cash(game, "Ben") == 1700


def test_the_numbers_go_on_in_a_game_brought_back_by_storno() -> None:
    game = start()
    apply(game, op="credit", player="Anna", amount=100)
    apply(game, op="new_game", edition="classic", mode="standard", players=["Cem", "Dana"], replace=True)
    apply(game, op="undo", of=1)
    assert game.last_booking().number == 2  # type: ignore[union-attr]
    assert apply(game, op="go", player="Anna").number == 4
    again = game_from_data(game_to_data(game))
    assert again.numbered == 4 and apply(again, op="go", player="Ben").number == 5
