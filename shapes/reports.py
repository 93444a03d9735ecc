"""The games' reports as the store tells them and the web shows them: the list, a game's figures, the
Bestenliste and the records."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from rules import Event


class GameSummary(TypedDict):
    """A game in the list (/spiele), at the head of its report, and counted in the Bestenliste: its times, edition
    and mode (and the rules' phrase for the mode, said when shown), players, status (a program word the pages say:
    läuft, beendet, ersetzt), the winners and the end's ranking, net worth and cash, and which clock dated it."""

    id: int
    started: float
    ended: float
    last_seq: int
    edition: str
    edition_title: str
    mode: str
    mode_said: list[object]
    players: list[str]
    house_rules: list[str]
    status: str
    winner: str | None
    winners: list[str]
    ranking: list[str]
    worth: dict[str, int]
    cash: dict[str, int]
    commands: int
    clock: str


class Figures(TypedDict):
    """A player's figures in a report: rent paid and received, the deed that earned most (square, amount), the
    biggest payment (amount, booking), buildings bought, mortgages taken, when bankrupt."""

    rent_paid: int
    rent_received: int
    best_deed: tuple[int, int] | None
    biggest: tuple[int, Event] | None
    buildings: int
    mortgages: int
    bankrupt_at: float | None


class BestRow(TypedDict):
    """A player's line of the Bestenliste: games finished, games won, and the share won."""

    name: str
    games: int
    wins: int
    rate: float


class RecordRow(TypedDict):
    """The best net worth at the end of a quick or timed game, one per edition and mode: who, how much, which game."""

    edition: str
    edition_title: str
    mode: str
    mode_said: list[object]
    name: str
    worth: int
    game: int
