"""Why a command was refused: a stable code for machines, a :class:`~rules.phrase.Phrase` for players (its words
are chosen where it is shown, in the language in force)."""

from __future__ import annotations

from typing import Literal, TypeAlias

from .phrase import Phrase, phrase

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
    "changed",
]

CODES: frozenset[str] = frozenset(Code.__args__)  # type: ignore[attr-defined]


class RuleError(Exception):
    """A command the rules refuse. Raised before anything changed, so the state is untouched."""

    def __init__(self, code: Code, said: Phrase, *, owed: int | None = None) -> None:
        self.said = said
        """What the refusal says, as a key and its values: rendered where it is shown (``words.say``)."""
        super().__init__(self.said)
        self.code: Code = code
        self.owed = owed
        """With ``insufficient_funds``: the whole sum the refused payment asked of the one who could not pay
        it (a rent or a tax names no amount: the rules reckon it), what a bankruptcy is checked against."""


def short_of_money(detail: Phrase, *, owed: int) -> RuleError:
    """Refused for want of money: "Nicht genug Geld: <detail>". The verdict and the detail are two phrases so that
    a surface whose big line already says the verdict (the OLED's ZU WENIG GELD) shows the detail alone, in any
    language (``said.get("detail")``), never by cutting a German prefix off a sentence."""
    return RuleError("insufficient_funds", phrase("rules.funds.not_enough", detail=detail), owed=owed)


class BadCommand(RuleError):
    """The command is malformed (unknown op, missing or mistyped field), as opposed to forbidden now."""

    def __init__(self, said: Phrase) -> None:
        super().__init__("bad_command", said)
