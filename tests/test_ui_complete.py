"""Complete as well as sound, counted: for fixed positions in each edition, what the menu offers is exactly
what the rules accept — the perft of python-chess's move generator, for a banker's reader.

Each position is played on the real device (ledger, rules, journal); for each player still in the game, the
device's menu is opened at every digit (docs/playing.md: "1 Kaufen … 9 Tausch, 0 Mehr") and each place read, and
the rules are asked directly (``Game.check``, never ``rules.legal``) about every kind of booking with the values a
banker may give it. The two must be equal, kind by kind and square by square; the counts are listed below, so that a
change in either shows here as a number that moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from in_play import in_play
from ui_table import ELSEWHERE, JAIL, PLACES, Table, menu_offers, rules_accept

from rules import EDITIONS
from rules.game import OPS

Cmd = dict[str, Any]


def _credit(edition: str, player: str, units: int) -> list[Cmd]:
    ed = EDITIONS[edition]
    return [{"op": "credit", "player": player, "amount": ed.max_entry}] * -(-units // 2000)


def _build(player: str, squares: list[int], levels: int) -> list[Cmd]:
    """Built evenly, house by house (seed 000: "gleichmäßig bebauen")."""
    return [{"op": "build", "player": player, "square": sq} for _ in range(levels) for sq in squares]


def _buy(player: str, *squares: int) -> list[Cmd]:
    return [{"op": "buy", "player": player, "square": sq} for sq in squares]


def fresh(edition: str) -> list[Cmd]:
    return []


def buildings(edition: str) -> list[Cmd]:
    """Anna: Parkstraße and Schlossallee with houses; Ben: the brown group with one house and a mortgaged station;
    Cem: a utility."""
    return [*_credit(edition, "Anna", 2000), *_buy("Anna", 37, 39), *_build("Anna", [37, 39], 1),
            {"op": "build", "player": "Anna", "square": 37},
            *_buy("Ben", 1, 3), {"op": "build", "player": "Ben", "square": 1},
            *_buy("Ben", 5), {"op": "mortgage", "player": "Ben", "square": 5}, *_buy("Cem", 12)]


def shortage(edition: str) -> list[Cmd]:
    """26 houses built, 6 left, and Anna and Ben could build 14 more (seed 000: the bank's houses are auctioned)."""
    return [*_credit(edition, "Anna", 12000), *_credit(edition, "Ben", 4000),
            *_buy("Anna", 1, 3, 6, 8, 9, 37, 39), *_build("Anna", [1, 3, 6, 8, 9], 4), *_build("Anna", [37, 39], 3),
            *_buy("Ben", 11, 13, 14)]


def debt(edition: str) -> list[Cmd]:
    """Anna goes bankrupt to Ben with Schlossallee mortgaged; Ben cannot pay its 10 % (where the edition asks it,
    seed 004) and owes it the bank."""
    cash = EDITIONS[edition].start_capital
    return [*_buy("Anna", 39), {"op": "mortgage", "player": "Anna", "square": 39},
            {"op": "debit", "player": "Anna", "amount": EDITIONS[edition].money(1300)},
            {"op": "debit", "player": "Ben", "amount": cash}, {"op": "bankrupt", "player": "Anna", "creditor": "Ben"}]


def finished(edition: str) -> list[Cmd]:
    return [*_buy("Anna", 1), {"op": "end"}]


POSITIONS: dict[str, Callable[[str], list[Cmd]]] = {
    "fresh": fresh, "buildings": buildings, "shortage": shortage, "debt": debt, "finished": finished}

FEE = ("schalke", "skylanders", "sonic", "classic-uk", "classic-us")
"""The editions whose creditor pays 10 % on a bankrupt's mortgaged deeds (seed 004; the English rules), so Ben owes
the bank."""

COUNTS: dict[tuple[str, str], dict[str, int]] = {
    **{("fresh", ed): {"Anna": 35, "Ben": 35, "Cem": 35} for ed in EDITIONS},
    **{("buildings", ed): {"Anna": 36, "Ben": 37, "Cem": 35} for ed in EDITIONS},
    **{("shortage", ed): {"Anna": 46, "Ben": 42, "Cem": 36} for ed in EDITIONS},
    **{("debt", ed): {"Anna": 0, "Ben": 6 if ed in FEE else 36, "Cem": 35} for ed in EDITIONS},
    **{("finished", ed): {"Anna": 0, "Ben": 0, "Cem": 0} for ed in EDITIONS},
}
"""(position, edition): each player's number of (kind, square) the menu offers — and the rules accept. A fresh
player: 28 deeds to buy, 2 taxes, the fine, a Frei-Karte drawn, An alle zahlen, Von allen kassieren, Tausch (35); Ben
in debt to the bank: only Schuld zahlen and what pays no one (6); a finished game: nothing."""

COUNTED = frozenset({"buy", "rent", "tax", "jail_fine", "jail_card_drawn", "jail_card_used", "build",
                     "sell_building", "mortgage", "unmortgage", "pay_all", "collect_all", "repairs", "trade",
                     "free_parking", "pay_debt", "build_auction", "go_exact", "undo"})
"""The kinds the counts above were taken with: a count that moves names any kind offered beyond them (a new
booking), so the next maintainer sees why and counts again."""


def _why(counts: dict[str, int], expected: dict[str, int], kinds: dict[str, dict[str, set[int | None]]]) -> str:
    """What moved: each player's count against the one recorded, and the kinds offered that were not counted."""
    new = {player: {kind: len(squares) for kind, squares in offered.items() if kind not in COUNTED}
           for player, offered in kinds.items()}
    return "; ".join(f"{player}: {counts.get(player)} (counted {expected.get(player)})"
                     + (f", new since counted: {new[player]}" if new.get(player) else "")
                     for player in sorted(set(counts) | set(expected)) if counts.get(player) != expected.get(player))


def _played(tmp_path: Any, position: str, edition: str) -> Table:
    table = Table(tmp_path)
    table.start("Anna", "Ben", "Cem", edition=edition, mode="timed" if position == "finished" else "standard",
                **({"minutes": 30} if position == "finished" else {}))
    table.book(*POSITIONS[position](edition))
    return table


@pytest.mark.parametrize("edition", sorted(EDITIONS))
@pytest.mark.parametrize("position", list(POSITIONS))
def test_the_menu_offers_what_the_rules_accept(tmp_path: Any, position: str, edition: str) -> None:
    table = _played(tmp_path, position, edition)
    try:
        counts, kinds = {}, {}
        for player in in_play(table.ledger).players:
            accepted, offered = rules_accept(table.ledger.game, player), menu_offers(table, player)
            assert offered == accepted, (player, {k: (accepted.get(k), offered.get(k))
                                                  for k in set(accepted) | set(offered)
                                                  if accepted.get(k) != offered.get(k)})
            counts[player], kinds[player] = sum(len(v) for v in accepted.values()), accepted
        assert counts == COUNTS[position, edition], _why(counts, COUNTS[position, edition], kinds)
    finally:
        table.buzzer.close()
        table.journal.close()


def test_what_was_counted_is_what_the_menu_holds() -> None:
    """Each kind counted is one the menu offers (a kind renamed or gone is taken out of the counted ones)."""
    assert not COUNTED - set(PLACES.values()) - set(JAIL.values()) - {"go_exact"}


def test_every_op_of_the_rules_has_its_documented_place() -> None:
    """A new op of the rules is placed in the menu (docs/playing.md) or named where it is booked instead."""
    kinds = set(PLACES.values()) | set(ELSEWHERE) | {"jail_fine", "jail_card"}  # MENU 4 lists them
    assert kinds >= OPS, OPS - kinds
