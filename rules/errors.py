"""Why a command was refused: a stable code for machines, a German sentence for players."""

from __future__ import annotations

from typing import Literal, TypeAlias

Code: TypeAlias = Literal[
    "insufficient_funds",
    "amount_out_of_range",
    "unknown_player",
    "unknown_square",
    "not_a_property",
    "not_owner",
    "already_owned",
    "no_monopoly",
    "group_mortgaged",
    "uneven_building",
    "max_buildings",
    "no_stock",
    "has_buildings",
    "mortgaged",
    "not_mortgaged",
    "player_bankrupt",
    "game_over",
    "game_running",
    "house_rule_off",
    "not_bankrupt",
    "debt_open",
    "no_shortage",
    "not_last",
    "bad_command",
]

CODES: frozenset[str] = frozenset(Code.__args__)  # type: ignore[attr-defined]


class RuleError(Exception):
    """A command the rules refuse. Raised before anything changed, so the state is untouched."""

    def __init__(self, code: Code, message: str, *, owed: int | None = None) -> None:
        super().__init__(message)
        self.code: Code = code
        self.message = message
        self.owed = owed
        """With ``insufficient_funds``: the whole sum the refused payment asked of the one who could not pay
        it (a rent or a tax names no amount: the rules reckon it), what a bankruptcy is checked against."""

    def as_dict(self) -> dict[str, object]:
        return {"ok": False, "code": self.code, "message": self.message}


class BadCommand(RuleError):
    """The command is malformed (unknown op, missing or mistyped field), as opposed to forbidden now."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_command", message)
