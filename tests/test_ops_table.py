"""The ops' table is the same as before its rows moved beside their moves: every op, in order, with its command, its
move, its rows of the legal moves (name, squares asked, a cheap look first, the candidates they build), whether it is
a debt and the keys of its texts.

The table is read in this order by the legal moves (the order a menu offers them) and by the tests' tables, so the
order is pinned with the rows; the candidates are pinned as a digest of every command each row builds for every
square it asks, in two editions (the Banking edition's smallest entry differs from the classic's).
"""

from __future__ import annotations

import hashlib

from rules import commands as cmds
from rules.editions import EDITIONS
from rules.ops import REGISTRY, LegalRow

DEEDS = (1, 3, 5, 6, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 21, 23, 24, 25, 26, 27, 28, 29, 31, 32, 34, 35, 37, 39)
RowData = tuple[str, tuple[int, ...] | None, str | None, str]
Row = tuple[str, str, str | None, tuple[RowData, ...], bool, tuple[str, ...]]

TABLE: tuple[Row, ...] = (
    ('buy', 'Buy', 'rules.moves.property.buy',
     (('buy', DEEDS, None, '71303f6138e39b79'),),
    False, ('rules.buy.done', 'rules.auction.done')),
    ('rent', 'Rent', 'rules.moves.property.rent',
     (('rent', DEEDS, None, 'cc827707db2c0b58'),),
    True, ('rules.rent.done', 'rules.rent.done_on')),
    ('build', 'Build', 'rules.moves.buildings.build',
     (('build', DEEDS, None, 'c98a77f43c076bee'),),
    False, ('rules.build.house', 'rules.build.hotel')),
    ('build_auction', 'BuildAuction', 'rules.moves.buildings.build_auction',
     (('build_auction', DEEDS, '_a_shortage', 'c9cd3dfeaa3436a1'),),
    False, ('rules.build.house.won', 'rules.build.hotel.won')),
    ('sell_building', 'SellBuilding', 'rules.moves.buildings.sell_building',
     (('sell_building', DEEDS, None, 'e12ba8a2023e435e'),),
    False, ('rules.sell.house', 'rules.sell.hotel', 'rules.sell.hotel.whole', 'rules.sell.traded')),
    ('mortgage', 'Mortgage', 'rules.moves.property.mortgage',
     (('mortgage', DEEDS, None, 'f247622e9fa01877'),),
    False, ('rules.mortgage.done',)),
    ('unmortgage', 'Unmortgage', 'rules.moves.property.unmortgage',
     (('unmortgage', DEEDS, None, '960ad24235932847'),),
    False, ('rules.unmortgage.done',)),
    ('tax', 'Tax', 'rules.moves.money.tax',
     (('tax', (4, 38), None, '1582f7aa95cfbbe2'),),
    True, ('rules.tax.done', 'rules.tax.done.pot')),
    ('jail_fine', 'JailFine', 'rules.moves.money.jail_fine',
     (('jail_fine', None, None, '624e16a71cc23659'),),
    True, ('rules.jail_fine.done', 'rules.jail_fine.done.pot')),
    ('jail_card', 'JailCard', 'rules.moves.money.jail_card',
     (('jail_card_drawn', None, None, 'cea38465d773e4d2'), ('jail_card_used', None, None, 'bbee4fa479660361')),
    False, ('rules.jail_card.drawn', 'rules.jail_card.used')),
    ('go', 'Go', 'rules.moves.money.go',
     (('go', None, None, '2936a9ae7737075a'),),
    False, ('rules.go.done', 'rules.go.exact')),
    ('bankrupt', 'Bankrupt', 'rules.moves.debt.bankrupt',
     (('bankrupt', None, None, '8fa7836a81b0721d'),),
    False, ('rules.bankrupt.bank', 'rules.bankrupt.player')),
    ('pay_debt', 'PayDebt', 'rules.moves.debt.pay_debt',
     (('pay_debt', None, None, '7a933d27289af625'),),
    True, ('rules.debt.paid',)),
    ('pay_all', 'PayAll', 'rules.moves.money.pay_all',
     (('pay_all', None, None, 'e4e8782aba19aeee'),),
    True, ('rules.pay_all.done',)),
    ('collect_all', 'CollectAll', 'rules.moves.money.collect_all',
     (('collect_all', None, None, '1b8501699f0d71ca'),),
    True, ('rules.collect_all.done',)),
    ('repairs', 'Repairs', 'rules.moves.money.repairs',
     (('repairs', None, None, '0236d5711d38898b'),),
    True, ('rules.repairs.done', 'rules.repairs.done.pot')),
    ('free_parking', 'FreeParking', 'rules.moves.money.free_parking',
     (('free_parking', None, None, '2fe7bfec63b65725'),),
    False, ('rules.free_parking.done',)),
    ('credit', 'Credit', 'rules.moves.money.credit', (), False, ('rules.credit.done',)),
    ('debit', 'Debit', 'rules.moves.money.debit', (), True, ('rules.debit.done', 'rules.debit.done.pot')),
    ('transfer', 'Transfer', 'rules.moves.money.transfer', (), True, ('rules.transfer.done',)),
    ('trade', 'Trade', 'rules.moves.trade.trade', (), False, ('rules.trade.done',)),
    ('end', 'End', 'rules.moves.end.end', (), False, ('rules.end.done',)),
    ('new_game', 'NewGame', None, (), False, ('rules.new_game.done',)),
    ('undo', 'Undo', None, (), False, ('rules.undo.done',)),
)

"""The table as it was written by hand in one module before its rows moved beside their moves: name, command class,
move, legal rows (name, squares, the cheap look, a digest of their candidates), debt, said."""


def _candidates(row: LegalRow) -> str:
    squares = list(row.squares()) if row.squares else [None]
    text = "\n".join(repr(row.build("Anna", square, EDITIONS[edition]))
                     for edition in ("banking", "classic") for square in squares)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _now() -> tuple[Row, ...]:
    return tuple(
        (op.name, op.command.__name__, f"{op.move.__module__}.{op.move.__qualname__}" if op.move else None,
         tuple((row.name, tuple(row.squares()) if row.squares else None, row.when.__name__ if row.when else None,
                _candidates(row)) for row in op.legal), op.debt, op.said)
        for op in REGISTRY)


def test_the_table_is_unchanged_row_by_row() -> None:
    """Each op of the pinned table keeps its row and its place among the others; a new op may come anywhere (its
    place in the ``Command`` union is its place in the menus), so adding one never touches this file."""
    pinned = {row[0] for row in TABLE}
    now = [row for row in _now() if row[0] in pinned]
    assert [row[0] for row in now] == [row[0] for row in TABLE], "the ops' order changed, or an op is gone"
    for was, is_ in zip(TABLE, now, strict=True):
        assert is_ == was


def test_the_order_is_the_command_unions() -> None:
    """The order is written where a new op is written anyway (the ``Command`` union), never the order the modules
    of the moves happen to be read in."""
    assert [op.command for op in REGISTRY] == list(cmds.COMMANDS.values())
