"""The phone's forms read as the device's menu, and the positions both are compared at: shared by the tests that
check that the phone offers what the device offers (behind the same words, in either language)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def phone_menu(forms: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """The phone's forms as the device's menu: each menu entry with its flows, in the forms' order."""
    menu: dict[str, list[str]] = {}
    for form in forms:
        if form["flow"]:
            flows = menu.setdefault(form["menu"], [])
            if form["flow"] not in flows:
                flows.append(form["flow"])
    return menu


POSITIONS: dict[str, list[dict[str, Any]]] = {
    "the start": [],
    "a monopoly with houses, a mortgage, a jail card, a utility": [
        {"op": "buy", "player": "Anna", "square": 1}, {"op": "buy", "player": "Anna", "square": 3},
        {"op": "build", "player": "Anna", "square": 1}, {"op": "build", "player": "Anna", "square": 3},
        {"op": "buy", "player": "Ben", "square": 5}, {"op": "mortgage", "player": "Ben", "square": 5},
        {"op": "buy", "player": "Ben", "square": 12}, {"op": "jail_card", "player": "Anna", "delta": 1},
        {"op": "buy", "player": "Cem", "square": 39}],
    "a hotel and a debt to the bank": [
        *[{"op": "credit", "player": "Anna", "amount": 2000}] * 3,
        {"op": "buy", "player": "Anna", "square": 37}, {"op": "buy", "player": "Anna", "square": 39},
        *[{"op": "build", "player": "Anna", "square": sq} for _ in range(5) for sq in (37, 39)],
        {"op": "buy", "player": "Ben", "square": 6}, {"op": "mortgage", "player": "Ben", "square": 6},
        {"op": "debit", "player": "Cem", "amount": 1499},
        {"op": "bankrupt", "player": "Ben", "creditor": "Cem"}],
}
