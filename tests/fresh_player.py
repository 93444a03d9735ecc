"""What a player of a game just started may not do yet, and why: every other row of the rules' table (``rules.ops``)
is open at the start. Shared by the legal moves' test and the phone forms' test, so that a new booking open at the
start is written in neither, and one closed there says why here."""

from __future__ import annotations

from rules.ops import LEGAL_ROWS

CLOSED: dict[str, str] = {
    "rent": "no deed is owned yet", "build": "no colour group is whole", "build_auction": "no shortage",
    "sell_building": "nothing is built", "mortgage": "no deed is owned", "unmortgage": "nothing is mortgaged",
    "jail_card_used": "no Frei-Karte is held", "free_parking": "no Frei-Parken rule",
    "pay_debt": "no debt to the bank", "repairs": "nothing is built to repair",
}
"""The rows of the legal moves closed at the start, each with the reason."""


def open_rows() -> list[str]:
    """The rows of the legal moves open to a fresh player, in the order the menus offer them."""
    return [row.name for row in LEGAL_ROWS if row.name not in CLOSED]
