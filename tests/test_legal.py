"""rules/legal.py: the menus offer what the rules would accept now, and nothing else.

Once "a deed tag on a station offers Bauen/Verkaufen and ends in FEHLER".
"""

from __future__ import annotations

from fresh_player import CLOSED, open_rows

from rules import Game
from rules import commands as cmds
from rules.legal import ROWS, candidate, legal_commands, legal_ops, legal_squares, square_ops
from rules.ops import LEGAL_ROWS


def _game(*cmds: dict[str, object]) -> Game:
    game = Game()
    game.apply({"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]})
    for cmd in cmds:
        game.apply(cmd)
    return game


def test_a_station_of_ones_own_offers_mortgage_but_never_building() -> None:
    """Rule: "Häuser können nur auf Straßen gebaut werden" — a station is no street."""
    game = _game({"op": "buy", "player": "Anna", "square": 5})
    assert square_ops(game, "Anna", 5) == ["mortgage"]


def test_a_free_square_offers_buying_and_someone_elses_offers_rent() -> None:
    game = _game({"op": "buy", "player": "Anna", "square": 39})
    assert square_ops(game, "Ben", 1) == ["buy"]
    assert square_ops(game, "Ben", 39) == ["rent"]
    assert square_ops(game, "Anna", 39) == ["mortgage"]


def test_building_is_offered_only_on_a_complete_colour_group() -> None:
    """Rule: "Sobald ein Spieler alle Grundstücke einer Farbgruppe besitzt, kann er … Häuser kaufen"."""
    game = _game({"op": "buy", "player": "Anna", "square": 37})
    assert legal_squares(game, "Anna", "build") == []
    game.apply({"op": "buy", "player": "Anna", "square": 39})
    assert legal_squares(game, "Anna", "build") == [37, 39]


def test_mortgaged_deeds_are_offered_for_lifting_not_for_a_second_mortgage() -> None:
    game = _game({"op": "buy", "player": "Anna", "square": 1}, {"op": "mortgage", "player": "Anna", "square": 1})
    assert legal_squares(game, "Anna", "mortgage") == []
    assert legal_squares(game, "Anna", "unmortgage") == [1]
    assert square_ops(game, "Ben", 1) == []  # no rent on a mortgaged deed


def test_lack_of_money_keeps_an_option_open_so_the_banker_can_raise_it() -> None:
    game = _game({"op": "debit", "player": "Ben", "amount": 1490})
    assert 39 in legal_squares(game, "Ben", "buy")


def test_legal_ops_of_a_fresh_player() -> None:
    """A fresh player may take every row of the rules' table but those that need something the start has not
    (a new op open at the start needs no line; one closed there says why in ``fresh_player.CLOSED``)."""
    game = _game()
    assert set(CLOSED) <= {row.name for row in LEGAL_ROWS}
    assert legal_ops(game, "Anna") == open_rows()


def test_a_bankrupt_player_has_no_legal_action() -> None:
    game = _game({"op": "bankrupt", "player": "Ben"})
    assert legal_ops(game, "Ben") == []


def test_frei_parken_is_offered_only_with_its_house_rule() -> None:
    game = _game()
    assert "free_parking" not in legal_ops(game, "Anna")
    assert candidate("pay_all", "Anna") == cmds.PayAll(player="Anna", amount=1)


def test_every_row_has_a_unique_name() -> None:
    assert len(ROWS) == len(LEGAL_ROWS)


def test_legal_commands_are_the_typed_commands_the_rules_accept() -> None:
    """What a menu offers is a command one can book as it is (as a chess library's legal moves can be pushed):
    each is accepted by the rules, and the names and squares the menus read are derived from them."""
    game = _game({"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39})
    legal = legal_commands(game, "Anna")
    assert all(isinstance(cmd, cmds.BaseCommand) and game.check(cmd) is None for cmd in legal
               if not isinstance(cmd, cmds.BuildAuction))
    assert cmds.Build(player="Anna", square=37) in list(legal)
    assert cmds.JailCard(player="Anna", delta=1) in list(legal)
    assert legal.rows == legal_ops(game, "Anna") and legal.squares("build") == legal_squares(game, "Anna", "build")
    game.apply(cmds.Build(player="Anna", square=37))  # a legal command is booked as it is
    assert legal_commands(game, "Anna", rows=("build",)).squares("build") == [39]


def test_pay_debt_is_offered_only_to_who_owes_the_bank() -> None:
    """A creditor who could not pay a bankruptcy's 10 % owes it the bank; the menu leads there."""
    from rules.legal import debt

    game = Game()
    game.apply({"op": "new_game", "edition": "skylanders", "mode": "standard", "players": ["Anna", "Ben", "Cem"]})
    assert "pay_debt" not in legal_ops(game, "Ben")
    for cmd in ({"op": "buy", "player": "Anna", "square": 39}, {"op": "mortgage", "player": "Anna", "square": 39},
                {"op": "debit", "player": "Anna", "amount": 1300}, {"op": "debit", "player": "Ben", "amount": 1500},
                {"op": "bankrupt", "player": "Anna", "creditor": "Ben"}):
        game.apply(cmd)
    assert debt(game, "Ben") == 20 and "pay_debt" in legal_ops(game, "Ben")
    assert legal_squares(game, "Ben", "buy") == []  # nothing else is paid first
    assert legal_squares(game, "Ben", "mortgage") == []  # Schlossallee is mortgaged already: Ben is truly stuck
    assert "bankrupt" in legal_ops(game, "Ben")


def test_means_are_cash_buildings_and_mortgages() -> None:
    """What the bankruptcy screen shows: what could still be raised (seed 001: "Grundstücke und/oder Gebäude
    zu Geld machen, indem Sie sie verkaufen oder mit Hypotheken belasten")."""
    from rules.legal import means

    game = _game({"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39},
                 {"op": "build", "player": "Anna", "square": 37})
    assert means(game, "Anna") == (1500 - 350 - 400 - 200, 100, 175 + 200)
    assert means(game, "Zoe") == (0, 0, 0)
